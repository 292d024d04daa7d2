#version 430 core
// grid_count: first pass of the counting sort that builds the neighbour grid. Each live particle
// gets its bucket key and bumps that bucket's count with an atomic add, whose result is its rank
// in the bucket: order[i] = rank, so that grid_reorder places it at cell_start[key] + rank with no
// second atomic. Particles outside a bounded grid are clamped into border cells and counted;
// particles with a NaN or infinite coordinate go to the extra bucket past the last and are
// counted. None is dropped. In deterministic mode order[i] is the particle's id instead, the value
// of the (bucket, id) sort that follows (the rank depends on timing).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec3 p = gp_position[i].xyz;
    uint key;
    if (!gp_finite3(p)) {
        key = gp_grid_invalid_bucket();
        atomicAdd(stat_nonfinite, 1u);
    } else {
        vec3 c = gp_grid_cell_float(p);
        if (!gp_grid_inside(c)) atomicAdd(stat_outside, 1u);
        key = gp_grid_bucket(gp_grid_clamp_cell(c));
    }
    cell_key[i] = key;
    uint rank = atomicAdd(cell_count[key], 1u);
    order[i] = (gp_counts.w & GP_FLAG_DETERMINISTIC) != 0u ? gp_info[i].x : rank;
}
