#version 430 core
// grid_carry: after grid_reorder, moves a system's per-slot blocks with their particles
// (gp__grid_carry): the block of u_stride uvec4s that old slot s wrote at (capacity + s) u_stride
// goes to the particle's new slot s' at s' u_stride, its head (the first uvec4) and the y of them
// that follow it (at most u_stride - 1). Scatter (u_scatter 1): order[s] holds the new slot;
// gather: order[s'] holds the old one.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_CARRY) buffer carry_block { uvec4 carried[]; };
layout(location = 0) uniform uint u_stride;
layout(location = 1) uniform uint u_scatter;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uint from = u_scatter != 0u ? i : order[i], to = u_scatter != 0u ? order[i] : i;
    uint source = (gp_counts.z + from) * u_stride, destination = to * u_stride;
    uvec4 head = carried[source];
    carried[destination] = head;
    uint n = min(head.y, u_stride - 1u);
    for (uint k = 1u; k <= n; ++k) carried[destination + k] = carried[source + k];
}
