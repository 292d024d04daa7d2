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
