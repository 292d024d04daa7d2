#version 430 core
// sph_density: density and pressure of every fluid particle of a summation-model material (Harada
// et al. 2007, section 4.4; sph_continuity does the others):
// rho_i = sum_j m_j W(r_ij) over fluid neighbours within re, itself included (eqs. 4, 10), plus
// the wall weight function at the particle's distance to the boundary (eq. 13); p_i from eq. 5.
// Other kinds get (0, 0), which tells the force pass to skip them. The neighbour loop is
// gp_neighbors.glsl's: 27 cells, 8 candidates per iteration, shortfalls counted.
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

// m_k W(|x_k - p|) when candidate slot k (< end) is a fluid particle of the visited cell, or a
// solid one with the mass it stands for (gp_coupling.glsl; solid: gp_solid_scale of i's material).
float gp_density_term(uint k, uint end, vec3 p, ivec3 cell, float re2, float poly6, float solid) {
    if (k >= end) return 0.0;
    vec4 q = gp_position[k];
    vec3 d = q.xyz - p;
    float r2 = dot(d, d);
    if (r2 >= re2 || !gp_grid_same_cell(q.xyz, cell)) return 0.0;
    uint kind = gp_kind_of(gp_info[k]);
    float mass = kind == GP_KIND_FLUID ? gp_velocity[k].w : gp_is_solid(kind) ? gp_solid_mass(solid, re2, q.w, kind) : 0.0;
    return mass * gp_poly6_of(poly6, re2, r2);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    vec3 p = gp_position[i].xyz;
    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p)) { gp_density[i] = vec2(0.0); return; }
    uint m = gp_material_of(info);
    if (gp_fluids[m].table.y != 0.0) return;   // the continuity model: sph_continuity's
    float re2 = gp_fluids[m].kernel.w, poly6 = gp_fluids[m].kernel.x, solid = gp_solid_scale(gp_fluids[m].flow.z, gp_fluids[m].shape.x);
    float rho = 0.0;
    vec3 gp_center = p;
#define GP_NEIGHBOR_TERM(k, end, cell) gp_density_term(k, end, p, cell, re2, poly6, solid)
#define GP_NEIGHBOR_SUM rho
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    rho += gp_walls(m, p).share.x;
    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));
    atomicMin(stat_min_density, floatBitsToUint(rho));
    atomicMax(stat_max_density, floatBitsToUint(rho));
}
