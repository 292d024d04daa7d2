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
