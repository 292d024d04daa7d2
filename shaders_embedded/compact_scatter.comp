#version 430 core
#extension GL_GOOGLE_include_directive : require
// compact_scatter: stream compaction's last pass. Given flags and their exclusive scan (of
// flag != 0), writes the index of every flagged element to its dense place, and the number of
// flagged elements to the count word, on the GPU, where an indirect dispatch can read it.
#include "gp_common.glsl"
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
