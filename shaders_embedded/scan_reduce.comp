#version 430 core
// scan_reduce: first pass of the reduce-then-scan exclusive prefix sum. Workgroup g sums its block
// of GP_SCAN_ITEMS * GP_GROUP_SIZE inputs into block_sums[g]. No workgroup ever waits on another:
// the host scans block_sums (recursively, with the same two shaders) before scan_block runs.
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
// >>include gp_scan.glsl
// gp_scan.glsl: workgroup-wide sums and exclusive scans in shared memory, for scan_reduce and
// scan_block. Needs gp_common.glsl first.
#define GP_SCAN_ITEMS 4
#define GP_SCAN_BLOCK (uint(GP_SCAN_ITEMS) * uint(GP_GROUP_SIZE))

layout(location = 0) uniform uint u_count;   // elements in this level
layout(location = 1) uniform uint u_flags;   // 1: scan (value != 0 ? 1 : 0), for stream compaction

uint gp_scan_value(uint v) { return u_flags != 0u ? uint(v != 0u) : v; }

shared uint gp_scan_shared[GP_GROUP_SIZE];

// Exclusive scan of one value per invocation across the workgroup (Hillis-Steele, in place with a
// barrier between read and write). Returns this invocation's exclusive prefix; *total the sum.
uint gp_workgroup_exclusive_scan(uint value, out uint total) {
    uint lid = gl_LocalInvocationID.x;
    gp_scan_shared[lid] = value;
    barrier();
    for (uint offset = 1u; offset < uint(GP_GROUP_SIZE); offset <<= 1u) {
        uint add = lid >= offset ? gp_scan_shared[lid - offset] : 0u;
        barrier();
        gp_scan_shared[lid] += add;
        barrier();
    }
    total = gp_scan_shared[GP_GROUP_SIZE - 1];
    uint inclusive = gp_scan_shared[lid];
    barrier();   // the shared array may be reused by the caller right after
    return inclusive - value;
}

uint gp_workgroup_sum(uint value) {
    uint total;
    gp_workgroup_exclusive_scan(value, total);
    return total;
}
// <<include gp_scan.glsl
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
