#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_count: first pass of the counting sort that builds the neighbour grid. Each live particle
// gets its bucket key and bumps that bucket's count with an atomic add. Particles outside a bounded
// grid are clamped into border cells and counted; particles with a NaN or infinite coordinate go
// to the extra bucket past the last and are counted. None is dropped.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 4) writeonly buffer cell_key_block { uint cell_key[]; };
layout(std430, binding = 5) buffer cell_count_block { uint cell_count[]; };
layout(std430, binding = 6) buffer grid_stats_block { uint stat_outside; uint stat_nonfinite; uint stat_truncated; };

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec3 p = gp_position[i].xyz;
    uint key;
    if (!gp_finite3(p)) {
        key = gp_grid_invalid_bucket();
        atomicAdd(stat_nonfinite, 1u);
    } else {
        if (!gp_grid_inside(p)) atomicAdd(stat_outside, 1u);
        key = gp_grid_bucket(gp_grid_cell(p));
    }
    cell_key[i] = key;
    atomicAdd(cell_count[key], 1u);
}
