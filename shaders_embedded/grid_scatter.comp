#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_scatter: last pass of the counting sort. cell_cursor starts as a copy of cell_start; each
// particle takes the next place of its bucket with an atomic add, so order[place] = particle.
// The order inside a bucket depends on timing; the deterministic mode sorts instead.
#include "gp_common.glsl"
#include "gp_world.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 4) readonly buffer cell_key_block { uint cell_key[]; };
layout(std430, binding = 5) buffer cell_cursor_block { uint cell_cursor[]; };
layout(std430, binding = 7) writeonly buffer order_block { uint order[]; };

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    order[atomicAdd(cell_cursor[cell_key[i]], 1u)] = i;
}
