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
#define GP_BINDING_COPY_SOURCE 0
#define GP_BINDING_COPY_DESTINATION 1
// <<defines
// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds
// every primitive against: the same bytes moved as fast as this library knows how, with no work in
// between: 16 elements per invocation, 16 bytes per access, single words only in a ragged tail.
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
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source_block { uint source[]; };
layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source4_block { uvec4 source4[]; };
layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination_block { uint destination[]; };
layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination4_block { uvec4 destination4[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint first = gp_group_index() * 16u * uint(GP_GROUP_SIZE);
    for (uint r = 0u; r < 4u; ++r) {
        uint e = first + 4u * (r * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x);
        if (e + 3u < u_count) destination4[e >> 2u] = source4[e >> 2u];
        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) destination[e + c] = source[e + c];
    }
}
