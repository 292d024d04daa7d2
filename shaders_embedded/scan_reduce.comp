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
#define GP_BINDING_SCAN_INPUT 0
#define GP_BINDING_CHUNK_SUMS 2
// <<defines
// scan_reduce: first pass of the exclusive prefix sum (see gp_scan.glsl): chunk_sums[c] = the sum
// of chunk c's GP_SCAN_CHUNK inputs (or of its non-zero flags, compacting).
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
// >>include gp_scan.glsl
// gp_scan.glsl: what scan_reduce and scan_block share. Needs gp_common.glsl first.
//
// The scan has no shared memory and no barrier: each invocation owns a chunk of GP_SCAN_CHUNK (32)
// consecutive elements, eight uvec4. scan_reduce writes each chunk's sum; the host scans those sums
// with the same two shaders (a level 32 times shorter, recursively); scan_block adds each chunk's
// scanned offset to the running sum of its own elements. A workgroup barrier costs Mesa's
// llvmpipe a fixed ~8 microseconds (it runs a workgroup as coroutines), which made barrier-based
// block scans five times slower than a copy there; without barriers the scan reads its input
// twice and writes once, at the full streaming speed of each device, and no invocation ever waits
// for another.

layout(location = 0) uniform uint u_count;   // elements in this level
layout(location = 1) uniform uint u_flags;   // 1: the values are flags, counted as (value != 0)

// The input, read 16 bytes at a time where four whole elements remain (twice the speed of single
// words on llvmpipe, and the natural width of GPU loads), one word at a time in the ragged tail:
// the buffer need not be a multiple of 16 bytes long.
layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input_block { uint scan_input[]; };
layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input4_block { uvec4 scan_input4[]; };

uvec4 gp_scan_load4(uint e) {   // elements e ... e + 3 (e a multiple of 4); 0 past u_count
    uvec4 v;
    if (e + 3u < u_count) v = scan_input4[e >> 2u];
    else v = uvec4(e < u_count ? scan_input[e] : 0u, e + 1u < u_count ? scan_input[e + 1u] : 0u,
                   e + 2u < u_count ? scan_input[e + 2u] : 0u, 0u);
    return u_flags != 0u ? uvec4(notEqual(v, uvec4(0u))) : v;
}
// <<include gp_scan.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_CHUNK_SUMS) writeonly buffer chunk_sums_block { uint chunk_sums[]; };

void main() {
    uint chunk = gp_global_index();
    uint first = chunk * GP_SCAN_CHUNK;
    if (first >= u_count) return;
    uvec4 s = uvec4(0u);
    for (uint k = 0u; k < GP_SCAN_CHUNK; k += 4u) s += gp_scan_load4(first + k);
    chunk_sums[chunk] = s.x + s.y + s.z + s.w;
}
