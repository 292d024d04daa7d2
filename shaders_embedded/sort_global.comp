#version 430 core
#extension GL_GOOGLE_include_directive : require
// sort_global: one step of the bitonic network whose comparators reach further than a workgroup's
// block (see gp_sort.glsl): one invocation per comparator, straight on the buffers.
#include "gp_common.glsl"
#include "gp_sort.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) buffer keys_block { uint keys[]; };
layout(std430, binding = 1) buffer values_block { uint values[]; };
layout(location = 2) uniform uint u_block;      // k, the stage's block size
layout(location = 3) uniform uint u_distance;   // j, or 0 for the stage's flip
layout(location = 4) uniform uint u_comparators;

void main() {
    uint t = gp_global_index();
    if (t >= u_comparators) return;
    uvec2 p = gp_sort_pair(t, u_block, u_distance);
    if (p.y >= u_count) return;
    uint ak = keys[p.x], av = values[p.x], bk = keys[p.y], bv = values[p.y];
    if (gp_sort_out_of_order(ak, av, bk, bv)) {
        keys[p.x] = bk; values[p.x] = bv;
        keys[p.y] = ak; values[p.y] = av;
    }
}
