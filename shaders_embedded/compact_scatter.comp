#version 430 core
// compact_scatter: stream compaction's last pass. Given flags and their exclusive scan (of
// flag != 0), writes the index of every flagged element to its dense place, and the number of
// flagged elements to the count word, on the GPU, where an indirect dispatch can read it.
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

layout(std430, binding = 0) readonly buffer flags_block { uint flags[]; };
layout(std430, binding = 1) readonly buffer scanned_block { uint scanned[]; };
layout(std430, binding = 2) writeonly buffer indices_block { uint indices[]; };
layout(std430, binding = 3) writeonly buffer count_block { uint count_words[]; };
layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_count_word;   // index of the count word in count_words

void main() {
    uint i = gp_global_index();
    if (i >= u_count) return;
    bool keep = flags[i] != 0u;
    uint place = scanned[i];
    if (keep) indices[place] = i;
    if (i == u_count - 1u) count_words[u_count_word] = place + uint(keep);
}
