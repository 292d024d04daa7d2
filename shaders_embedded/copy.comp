#version 430 core
// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds
// every primitive against: it moves the same bytes with no work in between.
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
layout(std430, binding = 1) writeonly buffer destination_block { uint destination[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint i = gp_global_index();
    if (i < u_count) destination[i] = source[i];
}
