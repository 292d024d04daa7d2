#version 430 core
#extension GL_GOOGLE_include_directive : require
// scan_block: second pass of the exclusive prefix sum. Workgroup g scans its block of
// GP_SCAN_ITEMS * GP_GROUP_SIZE inputs in shared memory and adds block_offsets[g], the already
// scanned sum of every block before it. Output may alias input: each block reads all of its inputs
// before any invocation writes.
#include "gp_common.glsl"
#include "gp_scan.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) buffer scan_input_block { uint scan_input[]; };
layout(std430, binding = 1) buffer scan_output_block { uint scan_output[]; };
layout(std430, binding = 2) readonly buffer block_offsets_block { uint block_offsets[]; };
layout(location = 2) uniform uint u_has_offsets;   // 0: a single block, no offsets buffer bound

void main() {
    uint group = gp_group_index();
    if (group * GP_SCAN_BLOCK >= u_count) return;   // a whole workgroup past the end
    // Each invocation owns GP_SCAN_ITEMS consecutive elements and scans them serially.
    uint first = group * GP_SCAN_BLOCK + gl_LocalInvocationID.x * uint(GP_SCAN_ITEMS);
    uint values[GP_SCAN_ITEMS];
    uint thread_sum = 0u;
    for (int r = 0; r < GP_SCAN_ITEMS; ++r) {
        uint i = first + uint(r);
        values[r] = i < u_count ? gp_scan_value(scan_input[i]) : 0u;
        thread_sum += values[r];
    }
    uint total;
    uint running = gp_workgroup_exclusive_scan(thread_sum, total);
    if (u_has_offsets != 0u) running += block_offsets[group];
    memoryBarrierBuffer();
    barrier();   // every read of this block is done before output, which may alias it, is written
    for (int r = 0; r < GP_SCAN_ITEMS; ++r) {
        uint i = first + uint(r);
        if (i < u_count) scan_output[i] = running;
        running += values[r];
    }
}
