#version 430 core
// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds
// every primitive against: the same bytes moved as fast as this library knows how, with no work in
// between: 16 elements per invocation, 16 bytes per access, single words only in a ragged tail.
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
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer source_block { uint source[]; };
layout(std430, binding = 0) readonly buffer source4_block { uvec4 source4[]; };
layout(std430, binding = 1) writeonly buffer destination_block { uint destination[]; };
layout(std430, binding = 1) writeonly buffer destination4_block { uvec4 destination4[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint first = gp_group_index() * 16u * uint(GP_GROUP_SIZE);
    for (uint r = 0u; r < 4u; ++r) {
        uint e = first + 4u * (r * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x);
        if (e + 3u < u_count) destination4[e >> 2u] = source4[e >> 2u];
        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) destination[e + c] = source[e + c];
    }
}
