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
