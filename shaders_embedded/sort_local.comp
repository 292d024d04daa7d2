#version 430 core
#extension GL_GOOGLE_include_directive : require
// sort_local: the steps of the bitonic network that stay inside one block of 2 * GP_GROUP_SIZE
// elements, done in shared memory in one dispatch. With u_block == 0 it sorts each block from
// scratch (every stage k = 2 ... block); otherwise it finishes stage u_block with the
// half-cleaners j = GP_GROUP_SIZE ... 1 after sort_global did the longer ones.
#include "gp_common.glsl"
#include "gp_sort.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
#define GP_SORT_BLOCK (2u * uint(GP_GROUP_SIZE))

layout(std430, binding = 0) buffer keys_block { uint keys[]; };
layout(std430, binding = 1) buffer values_block { uint values[]; };
layout(location = 2) uniform uint u_block;

shared uint s_keys[2 * GP_GROUP_SIZE];
shared uint s_values[2 * GP_GROUP_SIZE];

void gp_sort_step(uint base, uint k, uint j) {
    uvec2 p = gp_sort_pair(gl_LocalInvocationID.x, k, j);
    if (base + p.y < u_count && gp_sort_out_of_order(s_keys[p.x], s_values[p.x], s_keys[p.y], s_values[p.y])) {
        uint k0 = s_keys[p.x], v0 = s_values[p.x];
        s_keys[p.x] = s_keys[p.y]; s_values[p.x] = s_values[p.y];
        s_keys[p.y] = k0; s_values[p.y] = v0;
    }
    barrier();
}

void main() {
    uint base = gp_group_index() * GP_SORT_BLOCK;
    if (base >= u_count) return;   // a whole workgroup past the end
    for (uint r = 0u; r < 2u; ++r) {
        uint l = gl_LocalInvocationID.x + r * uint(GP_GROUP_SIZE);
        if (base + l < u_count) { s_keys[l] = keys[base + l]; s_values[l] = values[base + l]; }
    }
    barrier();
    if (u_block == 0u) {
        for (uint k = 2u; k <= GP_SORT_BLOCK; k <<= 1u) {
            gp_sort_step(base, k, 0u);
            for (uint j = k >> 2u; j > 0u; j >>= 1u) gp_sort_step(base, k, j);
        }
    } else {
        for (uint j = GP_SORT_BLOCK >> 1u; j > 0u; j >>= 1u) gp_sort_step(base, u_block, j);
    }
    for (uint r = 0u; r < 2u; ++r) {
        uint l = gl_LocalInvocationID.x + r * uint(GP_GROUP_SIZE);
        if (base + l < u_count) { keys[base + l] = s_keys[l]; values[base + l] = s_values[l]; }
    }
}
