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
// sort_global: one or two steps of the bitonic network (see gp_sort.glsl) whose comparators reach
// GP_SORT_RUN or further, straight on the buffers. u_distance 0: the flip of stage u_block, one
// comparator per invocation. Otherwise half-cleaners: with u_levels 1, distance j, one comparator
// per invocation; with u_levels 2, distances j and j/2 together, four elements per invocation
// (i, i + j/2, i + j, i + 3j/2), which halves the passes over the buffers.
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
