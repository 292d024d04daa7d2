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
// >>include gp_world.glsl
// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.
// Mirrored by gp__world_params in gpuparticle.h (section >>grid); keep both in step.
layout(std140, binding = 0) uniform gp_world_block {
    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cell size (metres)
    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)
    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (1 deterministic)
};

#define GP_GRID_BOUNDED 1
#define GP_GRID_HASHED 2
// <<include gp_world.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer source_block { uvec4 source[]; };
layout(std430, binding = 1) writeonly buffer destination_block { uvec4 destination[]; };
layout(std430, binding = 2) readonly buffer carried_source_block { uvec2 carried_source[]; };
layout(std430, binding = 3) writeonly buffer carried_destination_block { uvec2 carried_destination[]; };
layout(std430, binding = 4) readonly buffer cell_key_block { uint cell_key[]; };
layout(std430, binding = 5) readonly buffer cell_start_block { uint cell_start[]; };
layout(std430, binding = 6) writeonly buffer slot_of_id_block { uint slot_of_id[]; };
layout(std430, binding = 7) buffer order_block { uint order[]; };
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
