// gp_particles.glsl: a particle's info word (gp_particle_info in gpuparticle.h): info.y holds the
// kind (bits 0-7, GP_KIND_*) and the phase (bits 16-31). The store's buffers are in gp_buffers.glsl.
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// Grains and rigid bodies' particles: the DEM's kinds, and the fluid's boundary (gp_coupling.glsl).
bool gp_is_solid(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }
