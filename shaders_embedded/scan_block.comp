#version 430 core
// scan_block: last pass of the exclusive prefix sum and of stream compaction (see gp_scan.glsl).
// Invocation c scans its chunk of u_chunk inputs starting from chunk_offsets[c], the scanned sum
// of every chunk before it. u_chunk is GP_SCAN_CHUNK, or for a short level (up to 1,024) the
// whole level, scanned from 0 by invocation 0 alone: cheaper than two more dispatches.
// Scan (u_flags 0): scan_output[i] = the sum of the inputs before i. Output may alias input:
//   an invocation reads its chunk before it writes it, and no other touches them.
// Compaction (u_flags 1): the inputs are flags; each flagged i is written to
//   scan_output[its place], and the invocation holding the last element writes how many were
//   flagged to count_words[u_count_word], where an indirect dispatch can read it.
#include "gp_common.glsl"
#include "gp_scan.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_SCAN_OUTPUT) writeonly buffer scan_output_block { uint scan_output[]; };
layout(std430, binding = GP_BINDING_SCAN_OUTPUT) writeonly buffer scan_output4_block { uvec4 scan_output4[]; };
layout(std430, binding = GP_BINDING_CHUNK_OFFSETS) readonly buffer chunk_offsets_block { uint chunk_offsets[]; };
layout(std430, binding = GP_BINDING_COUNT_WORDS) writeonly buffer count_block { uint count_words[]; };
layout(location = 2) uniform uint u_has_offsets;   // 0: a single chunk, no offsets buffer bound
layout(location = 3) uniform uint u_count_word;
layout(location = 4) uniform uint u_chunk;         // elements per invocation, a multiple of 4

// Writes the exclusive sums of one uvec4 of inputs v (elements e ... e + 3), or, compacting, the
// indices of the flagged ones; returns the running sum after them.
uint gp_scan_store4(uint e, uvec4 v, uint running) {
    uvec4 sums = uvec4(running, running + v.x, running + v.x + v.y, running + v.x + v.y + v.z);
    if (u_flags == 0u) {
        if (e + 3u < u_count) scan_output4[e >> 2u] = sums;
        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) scan_output[e + c] = sums[c];
    } else {
        for (uint c = 0u; c < 4u; ++c) {
            if (e + c >= u_count) break;
            if (v[c] != 0u) scan_output[sums[c]] = e + c;
            if (e + c == u_count - 1u) count_words[u_count_word] = sums[c] + v[c];
        }
    }
    return sums.w + v.w;
}

void main() {
    uint chunk = gp_global_index();
    uint first = chunk * u_chunk;
    if (first >= u_count) return;
    uint running = u_has_offsets != 0u ? chunk_offsets[chunk] : 0u;
    for (uint k = 0u; k < u_chunk && first + k < u_count; k += 4u)
        running = gp_scan_store4(first + k, gp_scan_load4(first + k), running);
}
