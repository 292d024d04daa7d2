#version 430 core
// >>defines
#define GP_GROUP_SIZE 256
#define GP_KIND_FLUID 1u
#define GP_KIND_GRANULAR 2u
#define GP_KIND_RIGID 3u
#define GP_KIND_EFFECT 5u
#define GP_GRID_BOUNDED 1
#define GP_GRID_HASHED 2
#define GP_MAX_FLUID_MATERIALS 8u
#define GP_MAX_FORCES 8u
#define GP_MAX_COLLIDERS 32u
#define GP_MAX_GRANULAR_MATERIALS 8u
#define GP_MAX_EFFECT_MATERIALS 8u
#define GP_WALL_SAMPLES 32u
#define GP_FLAG_DETERMINISTIC 1u
#define GP_KIND_CLOTH 4u
#define GP_PARTICLE_DEAD 256u
#define GP_NO_SLOT 4294967295u
#define GP_MAX_EMITTERS 32u
#define GP_EMITTER_SPHERE 2.0
#define GP_EMITTER_BOX 3.0
#define GP_EMITTER_DISC 4.0
#define GP_EMITTER_CONE 5.0
#define GP_INTEGRATOR_MASK 3u
#define GP_FLAG_ARTIFICIAL_VISCOSITY 256u
#define GP_SHAPE_SPHERE 1.0
#define GP_SHAPE_BOX 2.0
#define GP_SHAPE_CAPSULE 3.0
#define GP_SHAPE_PLANE 4.0
#define GP_SHAPE_MESH 5.0
#define GP_SHAPE_HEIGHTFIELD 6.0
#define GP_SCAN_CHUNK 32u
#define GP_SORT_RUN 16u
#define GP_GRID_CROWD 256u
#define GP_ARGS_RANK 0u
#define GP_ARGS_IDS 1u
#define GP_ARGS_SORT_LOCAL 2u
#define GP_ARGS_SORT_HALF 3u
#define GP_ARGS_SORT_QUARTER 4u
#define GP_BINDING_SORT_KEYS 0
#define GP_BINDING_SORT_VALUES 1
// <<defines
// sort_local: the steps of the bitonic network (see gp_sort.glsl) that stay inside one run of
// GP_SORT_RUN elements, done in one invocation's registers. With u_block 0 it sorts each run from
// scratch (every stage k = 2 ... GP_SORT_RUN); otherwise it finishes stage u_block with the
// half-cleaners j = GP_SORT_RUN / 2 ... 1 after sort_global did the longer ones.
// >>include gp_common.glsl
// gp_common.glsl: included first by every gpuparticle.h compute shader.
// The constants that C and GLSL share (GP_GROUP_SIZE, the kinds, the tables' sizes, the shapes,
// the chunk and run lengths of the scan and the sort) are not written here: the header defines
// them from its own C values after the #version line (section >>shaders, gp__shader_constants).
// The flat index of a workgroup in a dispatch that the host split into x * y groups (GL
// guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).

uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }

// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume
// finite math and fold it away.
bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }
bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }

// |v| for any finite v: length() squares the components, and a vector longer than about 1.8e19
// came out infinite (a particle 1e30 m out of a box collider got an infinite distance, a zero
// normal, and from the walls' push 0 * inf, NaN).
float gp_length(vec3 v) {
    float m = max(abs(v.x), max(abs(v.y), abs(v.z)));
    return m > 1e18 ? m * length(v / m) : length(v);
}

// A uint that orders as the float does, negative values too (gp_float_sort_key in C): the sort
// keys of a depth.
uint gp_float_key(float x) { uint b = floatBitsToUint(x); return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u); }
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
//
// No shared memory and no barrier (a barrier costs llvmpipe a fixed ~8 microseconds per
// workgroup): steps shorter than GP_SORT_RUN run in one invocation's registers (sort_local),
// longer ones as passes over the buffers, two half-cleaner levels per pass (sort_global).

layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_descending;

// True when pair a must come after pair b.
bool gp_sort_out_of_order(uint a_key, uint a_value, uint b_key, uint b_value) {
    bool greater = a_key > b_key || (a_key == b_key && a_value > b_value);
    bool less = a_key < b_key || (a_key == b_key && a_value < b_value);
    return u_descending != 0u ? less : greater;
}
// <<include gp_sort.glsl
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
