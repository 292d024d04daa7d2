#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_reorder: gathers one particle attribute into cell order, destination[k] = source[order[k]],
// u_words 32-bit words per particle (4 for vec4 and uvec4 attributes, 2 for vec2).
#include "gp_common.glsl"
#include "gp_world.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 4) readonly buffer source_block { uint source[]; };
layout(std430, binding = 5) writeonly buffer destination_block { uint destination[]; };
layout(std430, binding = 7) readonly buffer order_block { uint order[]; };
layout(location = 0) uniform uint u_words;

void main() {
    uint k = gp_global_index();
    if (k >= gp_counts.x) return;
    uint from = order[k] * u_words, to = k * u_words;
    for (uint w = 0u; w < u_words; ++w) destination[to + w] = source[from + w];
}
