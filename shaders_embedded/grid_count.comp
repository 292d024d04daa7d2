#version 430 core
// grid_count: first pass of the counting sort that builds the neighbour grid. Each particle in the
// store gets its bucket key and bumps that bucket's count with an atomic add, whose result is its
// rank in the bucket: order[i] = rank, so that grid_reorder places it at cell_start[key] + rank
// with no second atomic. Particles outside a bounded grid are clamped into border cells and
// counted; particles with a NaN or infinite coordinate go to the extra bucket past the last and
// are counted; the dead (gp_dead) go to the bucket after it, so that the build leaves them after
// every live particle (the store's compaction). None is dropped. In deterministic mode order[i] is
// the particle's id instead (the rank depends on timing), which grid_rank turns into the order of
// ids in each bucket; when a bucket is crowded (more than GP_GRID_CROWD particles, counted in
// stat_crowded) a (bucket, id) sort does it instead, over the host's bound of the count, u_slots:
// the slots past the count take the last key and values of their own.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(location = 0) uniform uint u_slots;

void main() {
    uint i = gp_global_index();
    if (i >= u_slots) return;
    if (i >= gp_counts.x) {
        cell_key[i] = 0xffffffffu;
        order[i] = 2u * gp_counts.z + i;
        return;
    }
    uvec4 info = gp_info[i];
    vec3 p = gp_position[i].xyz;
    uint key;
    if (gp_dead(info, gp_life[i])) {
        key = gp_grid_dead_bucket();
    } else if (!gp_finite3(p)) {
        key = gp_grid_invalid_bucket();
        atomicAdd(stat_nonfinite, 1u);
    } else {
        vec3 c = gp_grid_cell_float(p);
        if (!gp_grid_inside(c)) atomicAdd(stat_outside, 1u);
        key = gp_grid_bucket(gp_grid_clamp_cell(c));
    }
    cell_key[i] = key;
    uint rank = atomicAdd(cell_count[key], 1u);
    if (rank >= uint(GP_GRID_CROWD)) atomicAdd(stat_crowded, 1u);   // grid_rank's plan, gp_grid_stats.crowded
    order[i] = (gp_counts.w & GP_FLAG_DETERMINISTIC) != 0u ? info.x : rank;
}
