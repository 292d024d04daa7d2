#version 430 core
// grid_scatter: last pass of the counting sort. cell_cursor starts as a copy of cell_start; each
// particle takes the next place of its bucket with an atomic add: order[particle] = place, the
// scatter form of the permutation (grid_reorder's u_scatter), written in particle order.
// The order inside a bucket depends on timing; the deterministic mode sorts instead.
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

layout(std430, binding = 4) readonly buffer cell_key_block { uint cell_key[]; };
layout(std430, binding = 5) buffer cell_cursor_block { uint cell_cursor[]; };
layout(std430, binding = 7) writeonly buffer order_block { uint order[]; };

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    order[i] = atomicAdd(cell_cursor[cell_key[i]], 1u);   // where particle i goes
}
