#version 430 core
// sort_local: the steps of the bitonic network (see gp_sort.glsl) that stay inside one run of
// GP_SORT_RUN elements, done in one invocation's registers. With u_block 0 it sorts each run from
// scratch (every stage k = 2 ... GP_SORT_RUN); otherwise it finishes stage u_block with the
// half-cleaners j = GP_SORT_RUN / 2 ... 1 after sort_global did the longer ones.
#include "gp_common.glsl"
#include "gp_sort.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_SORT_KEYS) buffer keys_block { uint keys[]; };
layout(std430, binding = GP_BINDING_SORT_VALUES) buffer values_block { uint values[]; };
layout(location = 2) uniform uint u_block;

uint run_keys[GP_SORT_RUN];
uint run_values[GP_SORT_RUN];
uint run_base;

void gp_run_compare_exchange(uint p, uint q) {
    if (run_base + q >= u_count) return;
    if (gp_sort_out_of_order(run_keys[p], run_values[p], run_keys[q], run_values[q])) {
        uint k = run_keys[p], v = run_values[p];
        run_keys[p] = run_keys[q]; run_values[p] = run_values[q];
        run_keys[q] = k; run_values[q] = v;
    }
}

// Each step is a loop of 8 comparators with a constant distance, so that the compiler unrolls it
// and the run stays in registers (a variable index would put it in memory).
#define GP_RUN_FLIP(k) for (uint t = 0u; t < GP_SORT_RUN / 2u; ++t) { uint o = t % ((k) / 2u), b = t / ((k) / 2u) * (k); gp_run_compare_exchange(b + o, b + (k) - 1u - o); }
#define GP_RUN_HALF_CLEANER(j) for (uint t = 0u; t < GP_SORT_RUN / 2u; ++t) { uint i = t / (j) * 2u * (j) + t % (j); gp_run_compare_exchange(i, i + (j)); }

void main() {
    run_base = gp_global_index() * GP_SORT_RUN;
    if (run_base >= u_count) return;
    for (uint e = 0u; e < GP_SORT_RUN; ++e) {
        bool live = run_base + e < u_count;
        run_keys[e] = live ? keys[run_base + e] : 0u;
        run_values[e] = live ? values[run_base + e] : 0u;
    }
    if (u_block == 0u) {   // stages 2, 4, 8, 16 from scratch
        GP_RUN_FLIP(2u)
        GP_RUN_FLIP(4u) GP_RUN_HALF_CLEANER(1u)
        GP_RUN_FLIP(8u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)
        GP_RUN_FLIP(16u) GP_RUN_HALF_CLEANER(4u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)
    } else {               // the end of stage u_block
        GP_RUN_HALF_CLEANER(8u) GP_RUN_HALF_CLEANER(4u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)
    }
    for (uint e = 0u; e < GP_SORT_RUN; ++e)
        if (run_base + e < u_count) { keys[run_base + e] = run_keys[e]; values[run_base + e] = run_values[e]; }
}
