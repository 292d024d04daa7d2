#version 430 core
// grid_ids: deterministic mode, after the sort of (bucket, id) pairs: order[k] holds an id; the
// slot of that particle replaces it, which turns the sorted ids into the gather order of the
// reorder (grid_count wrote the ids).
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
// >>include gp_particles.glsl
// gp_particles.glsl: the particle store, struct of arrays, one SSBO per attribute.
// Mirrored by gp_particle_position, gp_particle_velocity, gp_particle_info and gp_particle_life in
// gpuparticle.h (section >>buffers). Slots [0, gp_counts.x) are live; after a grid build they are
// in cell order.
layout(std430, binding = 0) buffer gp_position_block { vec4 gp_position[]; };  // xyz metres, w radius
layout(std430, binding = 1) buffer gp_velocity_block { vec4 gp_velocity[]; };  // xyz m/s, w mass kg
layout(std430, binding = 2) buffer gp_info_block { uvec4 gp_info[]; };         // id, kind|flags<<8|phase<<16, owner, user
layout(std430, binding = 3) buffer gp_life_block { vec2 gp_life[]; };          // age s, lifetime s (0 forever)

// info.y: bits 0-7 the kind (gp_kind in gpuparticle.h), 16-31 the phase.
#define GP_KIND_FLUID 1u
#define GP_KIND_GRANULAR 2u
#define GP_KIND_RIGID 3u
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// <<include gp_particles.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 7) buffer order_block { uint order[]; };
layout(std430, binding = 6) readonly buffer slot_of_id_block { uint slot_of_id[]; };

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    order[i] = slot_of_id[order[i]];
}
