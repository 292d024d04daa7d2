#version 430 core
// sph_force: the acceleration of every fluid particle (Harada et al. 2007a, section 4.5):
//   pressure force  f_p = -sum_j m_j (p_i + p_j) / (2 rho_j) grad W_press(r_ij)   (eqs. 6, 8)
//                   + 2 p_i a - rho0 mg, the walls' particles with the pressure of a fluid at
//                     rest continued behind the wall (gp_wall in gp_sph.glsl)
//   viscosity force f_v = mu sum_j m_j (v_j - v_i) / rho_j lap W_vis(r_ij)         (eqs. 7, 9)
//                         + mu (0 - v_i) Z_vis(d), the walls' share (static walls)
//   artificial viscosity (Monaghan 1992, per material, default off): p_i + p_j gains
//                   rho_i rho_j Pi_ij for a closing pair, Pi_ij = alpha c h mu_ij / rho_ij
//   a = (f_p + f_v) / rho_i + gravity + the user's forces
// with mu = nu rho0 and j over the fluid neighbours within re (density > 0, set by sph_density).
// The pressure gradient is Müller's spiky (re - r)^2 (the paper prints the power as 3), the
// viscosity Laplacian 45 / (pi re^6) (re - r). Eq. 6 halves p_i + p_j; that average estimates
// only half of grad p in a full neighbourhood (the p_i half sums to about zero), so that a column
// at rest would hold twice the hydrostatic pressure: the sum here takes p_i + p_j whole. The
// walls' push of eq. 11 is applied in sph_integrate, as the displacement it stands for: a last
// guard, since the walls' pressure term holds particles off the wall.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
#include "gp_coupling.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// What particle i needs of itself in the loop.
struct gp_self { vec3 p; vec3 v; float pressure; float rho; float re; float re2; float spiky; float laplacian; float av; float h;
                 float rho0; float solid; bool any_av; uint slot; };

// Adds candidate slot k's pressure and viscosity terms (without the coefficients mu and 1/rho_i).
void gp_force_term(uint k, uint end, gp_self s, ivec3 cell, inout vec3 pressure, inout vec3 viscosity) {
    if (k >= end || k == s.slot) return;
    vec3 q = gp_position[k].xyz;
    vec3 d = s.p - q;
    float r2 = dot(d, d);
    if (r2 >= s.re2 || r2 == 0.0 || !gp_grid_same_cell(q, cell)) return;
    vec2 rho_p = gp_density[k];
    vec4 v = gp_velocity[k];
    if (rho_p.x <= 0.0) {   // not fluid: a solid is a boundary particle (gp_coupling.glsl)
        uint kind = gp_kind_of(gp_info[k]);
        if (gp_is_solid(kind))
            gp_coupling_terms(s.re, s.spiky, s.laplacian, s.rho0, d, r2, s.v, s.pressure, v.xyz, rho_p.y,
                              gp_solid_mass(s.solid, s.re2, gp_position[k].w, kind), pressure, viscosity);
        return;
    }
    float r = sqrt(r2), x = s.re - r;
    float mass_over_rho = v.w / rho_p.x;
    // Monaghan's artificial viscosity: a closing pair's pseudo-pressure rho_i rho_j Pi_ij, with the
    // pair's mean alpha c and h, so that the pair's forces stay equal and opposite across materials
    float closing = dot(s.v - v.xyz, d), pseudo = 0.0;
    if (s.any_av && closing < 0.0) {
        uint mk = gp_material_of(gp_info[k]);
        float hk = 0.5 * gp_fluids[mk].shape.y, h = 0.5 * (s.h + hk);
        float av = 0.5 * (s.av + gp_fluids[mk].table.w * sqrt(gp_fluids[mk].shape.w) * hk);
        pseudo = -av * (h * closing / (r2 + 0.01 * h * h)) * s.rho * rho_p.x / (0.5 * (s.rho + rho_p.x));
    }
    pressure += (mass_over_rho * (s.pressure + rho_p.y + pseudo) * s.spiky * x * x / r) * d;
    viscosity += (mass_over_rho * s.laplacian * x) * (v.xyz - s.v);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec2 own = gp_density[i];
    if (own.x <= 0.0) { gp_acceleration[i] = vec4(0.0); return; }   // not fluid, or not finite
    uint m = gp_material_of(gp_info[i]);
    gp_self s;
    s.p = gp_position[i].xyz;
    s.v = gp_velocity[i].xyz;
    s.pressure = own.y;
    s.re = gp_fluids[m].shape.y;
    s.re2 = gp_fluids[m].kernel.w;
    s.spiky = gp_fluids[m].kernel.y;
    s.laplacian = gp_fluids[m].kernel.z;
    s.rho = own.x;
    s.h = 0.5 * s.re;
    s.av = gp_fluids[m].table.w * sqrt(gp_fluids[m].shape.w) * s.h;   // alpha c h
    s.any_av = (gp_solver_counts.z & GP_FLAG_ARTIFICIAL_VISCOSITY) != 0u;
    s.rho0 = gp_fluids[m].shape.z;
    s.solid = gp_solid_scale(gp_fluids[m].flow.z, gp_fluids[m].shape.x);
    s.slot = i;
    vec3 pressure = vec3(0.0), viscosity = vec3(0.0);
    vec3 gp_center = s.p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_force_term(k, end, s, cell, pressure, viscosity)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    gp_wall walls = gp_walls(m, s.p);
    viscosity -= walls.share.y * s.v;
    // the walls' particles (gp_wall); their hydrostatic part fades out at the free surface
    pressure += 2.0 * s.pressure * walls.a - gp_surface_fade(m, s.pressure) * gp_fluids[m].shape.z * walls.mg;
    float mu = gp_fluids[m].flow.x * gp_fluids[m].shape.z;
    vec3 a = (pressure + mu * viscosity) / own.x + gp_gravity.xyz + gp_user_forces(s.p);
    gp_acceleration[i] = vec4(a, 0.0);
}
