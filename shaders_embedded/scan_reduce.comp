#version 430 core
#extension GL_GOOGLE_include_directive : require
// scan_reduce: first pass of the reduce-then-scan exclusive prefix sum. Workgroup g sums its block
// of GP_SCAN_ITEMS * GP_GROUP_SIZE inputs into block_sums[g]. No workgroup ever waits on another:
// the host scans block_sums (recursively, with the same two shaders) before scan_block runs.
#include "gp_common.glsl"
#include "gp_scan.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer scan_input_block { uint scan_input[]; };
layout(std430, binding = 2) writeonly buffer block_sums_block { uint block_sums[]; };

void main() {
    uint group = gp_group_index();
    uint first = group * GP_SCAN_BLOCK;
    if (first >= u_count) return;   // a whole workgroup past the end (x * y split of the dispatch)
    uint sum = 0u;
    // Strided so that neighbouring invocations read neighbouring words.
    for (uint r = 0u; r < uint(GP_SCAN_ITEMS); ++r) {
        uint i = first + r * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x;
        if (i < u_count) sum += gp_scan_value(scan_input[i]);
    }
    sum = gp_workgroup_sum(sum);
    if (gl_LocalInvocationID.x == 0u) block_sums[group] = sum;
}
