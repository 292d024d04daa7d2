#version 430 core
// sort_local: the steps of the bitonic network that stay inside one block of 2 * GP_GROUP_SIZE
// elements, done in shared memory in one dispatch. With u_block == 0 it sorts each block from
// scratch (every stage k = 2 ... block); otherwise it finishes stage u_block with the
// half-cleaners j = GP_GROUP_SIZE ... 1 after sort_global did the longer ones.
// >>include gp_common.glsl
// gp_common.glsl: included first by every gpuparticle.h compute shader.
// Workgroup size and the flat index of a workgroup in a dispatch that the host split into x * y
// groups (GL guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).
#ifndef GP_GROUP_SIZE
#define GP_GROUP_SIZE 256
#endif

uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }

// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume
// finite math and fold it away.
bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }
bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }
// <<include gp_common.glsl
// >>include gp_sort.glsl
// gp_sort.glsl: the compare-exchange of the bitonic sort of (key, value) pairs, shared by
// sort_global and sort_local. Needs gp_common.glsl first.
//
// The network is the bitonic sorter drawn with every comparator facing the same way: each stage
// of block size k starts with a "flip" (element o of a block against element k - 1 - o) and goes
// on with half-cleaners (i against i + j, j = k/4 ... 1). Because no comparator ever faces the
// other way, any length n works without padding: the missing elements past n count as +infinity
// (ascending) or -infinity (descending), already in their place, so a comparator whose upper
// element is past n is skipped. Pairs are ordered by key, then by value, so the sorted order is
// unique and two runs agree bit for bit.
layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_descending;

// True when pair a must come after pair b.
bool gp_sort_out_of_order(uint a_key, uint a_value, uint b_key, uint b_value) {
    bool greater = a_key > b_key || (a_key == b_key && a_value > b_value);
    bool less = a_key < b_key || (a_key == b_key && a_value < b_value);
    return u_descending != 0u ? less : greater;
}

// The two elements comparator t of a step touches, for a flip (j == 0, block size k) or a
// half-cleaner of distance j.
uvec2 gp_sort_pair(uint t, uint k, uint j) {
    if (j == 0u) {
        uint half_k = k >> 1u;
        uint block = (t / half_k) * k;
        uint o = t % half_k;
        return uvec2(block + o, block + k - 1u - o);
    }
    uint i = (t / j) * (j << 1u) + t % j;
    return uvec2(i, i + j);
}
// <<include gp_sort.glsl
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
