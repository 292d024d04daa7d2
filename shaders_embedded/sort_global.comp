#version 430 core
// sort_global: one or two steps of the bitonic network (see gp_sort.glsl) whose comparators reach
// GP_SORT_RUN or further, straight on the buffers. u_distance 0: the flip of stage u_block, one
// comparator per invocation. Otherwise half-cleaners: with u_levels 1, distance j, one comparator
// per invocation; with u_levels 2, distances j and j/2 together, four elements per invocation
// (i, i + j/2, i + j, i + 3j/2), which halves the passes over the buffers.
#include "gp_common.glsl"
#include "gp_sort.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_SORT_KEYS) buffer keys_block { uint keys[]; };
layout(std430, binding = GP_BINDING_SORT_VALUES) buffer values_block { uint values[]; };
layout(location = 2) uniform uint u_block;      // k, the stage's block size
layout(location = 3) uniform uint u_distance;   // j, or 0 for the stage's flip
layout(location = 4) uniform uint u_invocations;
layout(location = 5) uniform uint u_levels;

void gp_compare_exchange(uint p, uint q) {
    if (q >= u_count) return;
    uint ak = keys[p], av = values[p], bk = keys[q], bv = values[q];
    if (gp_sort_out_of_order(ak, av, bk, bv)) {
        keys[p] = bk; values[p] = bv;
        keys[q] = ak; values[q] = av;
    }
}

void main() {
    uint t = gp_global_index();
    if (t >= u_invocations) return;
    uint j = u_distance;
    if (j == 0u) {
        uint half_k = u_block >> 1u;
        uint block = (t / half_k) * u_block, o = t % half_k;
        gp_compare_exchange(block + o, block + u_block - 1u - o);
    } else if (u_levels == 1u) {
        uint i = (t / j) * (j << 1u) + t % j;
        gp_compare_exchange(i, i + j);
    } else {
        uint h = j >> 1u;
        uint i = (t / h) * (j << 1u) + t % h;   // bits j and j/2 of i are clear
        gp_compare_exchange(i, i + j);
        gp_compare_exchange(i + h, i + j + h);
        gp_compare_exchange(i, i + h);
        gp_compare_exchange(i + j, i + j + h);
    }
}
