#version 430 core
// store_free: a pass of the grid build when particles may have died (section >>grid). The build's
// counting sort filed the dead (gp_dead) in the bucket after every live particle, so they sit in
// slots [live, count), where live = cell_start[gp_grid_dead_bucket()]. Each gives its id to the
// back of the free-id queue in slot order (the build's order: the same in every run in
// deterministic mode), its id's slot becomes GP_NO_SLOT (a stale id finds no particle), and its
// info is marked dead for whoever reads past the count. store_count then cuts them off the count.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index(), live = cell_start[gp_grid_dead_bucket()];
    if (i < live || i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    free_ids[(store_free_head + store_free_count + (i - live)) % (2u * gp_counts.z)] = info.x;
    slot_of_id[info.x] = GP_NO_SLOT;
    gp_info[i].y = info.y | GP_PARTICLE_DEAD;
}
