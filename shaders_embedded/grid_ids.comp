#version 430 core
// grid_ids: deterministic mode with a crowded bucket (grid_rank.comp), after the sort of (bucket,
// id) pairs: order[k] holds an id; the slot of that particle replaces it, which turns the sorted
// ids into the gather order of the reorder (grid_count wrote the ids).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    order[i] = slot_of_id[order[i]];
}
