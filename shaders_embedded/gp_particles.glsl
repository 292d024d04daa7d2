// gp_particles.glsl: a particle's info word (gp_particle_info in gpuparticle.h): info.y holds the
// kind (bits 0-7, GP_KIND_*), the flags (bits 8-15) and the phase (bits 16-31). The store's buffers
// are in gp_buffers.glsl.
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// Grains and rigid bodies' particles: the DEM's kinds, and the fluid's boundary (gp_coupling.glsl).
bool gp_is_solid(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }
// Dead: removed (GP_PARTICLE_DEAD, set by gp_particles_remove) or as old as its lifetime (0:
// forever). The next grid build takes it out of the store and gives its id back (section >>grid).
bool gp_dead(uvec4 info, vec2 life) { return (info.y & GP_PARTICLE_DEAD) != 0u || (life.y > 0.0 && life.x >= life.y); }
// Bodies' and cloth's particles live as long as their owner: never aged, never removed alone.
bool gp_owned(uint kind) { return kind == GP_KIND_RIGID || kind == GP_KIND_CLOTH; }
