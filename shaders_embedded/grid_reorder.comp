#version 430 core
// grid_reorder: moves particle attributes into cell order, 16 bytes at a time, and an 8-byte one
// alongside when u_carry is 1. Three passes cover the store with its two spares: position (u_first
// 1) carrying life, velocity carrying the fluid's density state when there is one, and info
// (u_info 1), whose first word is the id: that pass also records where each particle now lives,
// slot_of_id[id] = slot. Bodies, cloth and the deterministic sort find particles by id through it.
// Scatter (u_scatter 1, the usual path): particle i goes to cell_start[key] + rank; the first pass
// (u_first 1) computes that from grid_count's rank in order[i] and leaves it there for the others.
// Random stores cost a CPU renderer less than random loads, which stall.
// Gather (u_scatter 0, deterministic): slot k takes the particle order[k] (grid_ids wrote it).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_REORDER_SOURCE) readonly buffer source_block { uvec4 source[]; };
layout(std430, binding = GP_BINDING_REORDER_DESTINATION) writeonly buffer destination_block { uvec4 destination[]; };
layout(std430, binding = GP_BINDING_CARRIED_SOURCE) readonly buffer carried_source_block { uvec2 carried_source[]; };
layout(std430, binding = GP_BINDING_CARRIED_DESTINATION) writeonly buffer carried_destination_block { uvec2 carried_destination[]; };
layout(location = 0) uniform uint u_first;
layout(location = 1) uniform uint u_info;
layout(location = 2) uniform uint u_scatter;
layout(location = 3) uniform uint u_carry;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uint from = i, to = i;
    if (u_scatter == 0u) from = order[i];
    else if (u_first != 0u) { to = cell_start[cell_key[i]] + order[i]; order[i] = to; }
    else to = order[i];
    uvec4 v = source[from];
    destination[to] = v;
    if (u_carry != 0u) carried_destination[to] = carried_source[from];
    if (u_info != 0u) slot_of_id[v.x] = to;
}
