#version 430 core
// scan_reduce: first pass of the exclusive prefix sum (see gp_scan.glsl): chunk_sums[c] = the sum
// of chunk c's GP_SCAN_CHUNK inputs (or of its non-zero flags, compacting).
#include "gp_common.glsl"
#include "gp_scan.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_CHUNK_SUMS) writeonly buffer chunk_sums_block { uint chunk_sums[]; };

void main() {
    uint chunk = gp_global_index();
    uint first = chunk * GP_SCAN_CHUNK;
    if (first >= u_count) return;
    uvec4 s = uvec4(0u);
    for (uint k = 0u; k < GP_SCAN_CHUNK; k += 4u) s += gp_scan_load4(first + k);
    chunk_sums[chunk] = s.x + s.y + s.z + s.w;
}
