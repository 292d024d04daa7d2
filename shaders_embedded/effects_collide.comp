#version 430 core
// effects_collide: collisions between effect particles (Kipfer et al. 2004, sections 4.3-4.5),
// through the one grid rather than the paper's row sort, so that no collision is missed for a lack
// of partners: for an effect particle of a material that collides (gp_effects[m].contact.x > 0),
// every other such effect particle that overlaps it (closer than the sum of their radii) and
// approaches it gives it the impulse of a hard-sphere collision with restitution e, the mean of
// the two materials':
//   J = -(1 + e) (v_ij . n) / (1 / m_i + 1 / m_j),  n = (x_i - x_j) / |x_i - x_j|,
//   dv_i = J n / m_i,
// summed over its partners (all from the velocities before the substep's collisions, as a
// Jacobi sweep); its partner computes the same J with n reversed, so each pair's impulses cancel
// and the momentum is kept to the float rounding; with e = 1 a lone pair keeps its kinetic
// energy. The velocity change goes into the store's acceleration spare (dv / h, the slot's own),
// which effects_move adds before the flight (0 for a particle that met none). The materials'
// collision restitution is gp_effect_material.collide (0: the material does not collide).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// The collision restitution of an effect particle's material, 0 when it does not collide.
float gp_collide_of(uvec4 info) { return gp_effects[min(gp_phase_of(info), GP_MAX_EFFECT_MATERIALS - 1u)].contact.x; }

struct gp_hit { vec3 p; vec3 v; float r; float m; float e; uint slot; vec3 dv; };

void gp_collide_term(uint k, uint end, ivec3 cell, inout gp_hit s) {
    if (k >= end || k == s.slot) return;
    uvec4 info = gp_info[k];
    if (gp_kind_of(info) != GP_KIND_EFFECT) return;
    float e = gp_collide_of(info);
    if (e <= 0.0) return;
    vec4 q = gp_position[k];
    vec3 d = s.p - q.xyz;
    float r2 = dot(d, d), reach = s.r + q.w;
    if (r2 >= reach * reach || r2 == 0.0 || !gp_grid_same_cell(q.xyz, cell)) return;
    vec4 v = gp_velocity[k];
    vec3 n = d * inversesqrt(r2);
    float vn = dot(s.v - v.xyz, n);
    if (vn >= 0.0) return;   // parting
    float j = -(1.0 + 0.5 * (s.e + e)) * vn / (1.0 / s.m + 1.0 / v.w);
    s.dv += (j / s.m) * n;
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_EFFECT) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    gp_hit s;
    s.e = gp_collide_of(info);
    s.dv = vec3(0.0);
    if (s.e > 0.0 && gp_finite3(p.xyz)) {
        s.p = p.xyz; s.v = v.xyz; s.r = p.w; s.m = v.w; s.slot = i;
        vec3 gp_center = p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_collide_term(k, end, cell, s)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    }
    gp_acceleration[i] = vec4(gp_gravity.w > 0.0 ? s.dv / gp_gravity.w : vec3(0.0), 0.0);   // a substep of 0 (the clock's) moves nothing
}
