#version 430 core
// sph_continuity: the new density and pressure of every fluid particle of a continuity-model
// material (sph_density does the others):
//   rho_i' = rho_i + dt (sum_j m_j (v_i - v_j) . grad W_ij - rho0 v_i . a + delta re c0 D_i)
// from the density the particle carries (gp_state, 0: not yet set, rest density), with
// D_i = sum_j 2 V_j (rho_i - rho_j - (rho_i^H - rho_j^H)) (x_ij . grad W_ij) / r_ij^2 over
// neighbours of its material, the delta-SPH diffusion (Antuono et al. 2012) less its hydrostatic
// part rho^H_i - rho^H_j = rho0 g . x_ij / c0^2, so that a column at rest keeps its pressure
// gradient; -rho0 v_i . a is the walls' particles' term (gp_wall in gp_sph.glsl), with the same
// normalised spiky gradient. sph_integrate stores rho_i' as the new carried density; p_i from
// eq. 5. A pass of its own: llvmpipe runs a loop that no invocation of a group takes, so one
// pass for both models made the summation model's substep 50% slower. The neighbour loop is
// gp_neighbors.glsl's: 27 cells, 8 candidates per iteration, shortfalls counted.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// What particle i needs of itself in the neighbour loop.
struct gp_flow { vec3 p; vec3 v; float rho; float re; float re2; float spiky; float hydro; uint slot; uint m; };

// The density particle k carries, its material's rest density until it has one.
float gp_carried(uint k, uint m) { float r = gp_state[k].x; return r > 0.0 ? r : gp_fluids[m].shape.z; }

// Adds candidate slot k's (m_k (v_i - v_k) . grad W, diffusion term) when it is a fluid particle
// of the visited cell; the diffusion only between particles of one material.
void gp_continuity_term(uint k, uint end, gp_flow s, ivec3 cell, inout vec2 sum) {
    if (k >= end || k == s.slot) return;
    vec3 q = gp_position[k].xyz;
    vec3 d = s.p - q;
    float r2 = dot(d, d);
    if (r2 >= s.re2 || r2 == 0.0 || !gp_grid_same_cell(q, cell)) return;   // on top of another: no rate
    uvec4 info = gp_info[k];
    if (gp_kind_of(info) != GP_KIND_FLUID) return;
    float r = sqrt(r2), x = s.re - r;
    vec3 grad = -(s.spiky * x * x / r) * d;   // grad_i W(x_i - x_k): towards k
    vec4 v = gp_velocity[k];
    uint m = gp_material_of(info);
    sum.x += v.w * dot(s.v - v.xyz, grad);
    if (m == s.m) {
        float rho = gp_carried(k, m);
        sum.y += 2.0 * (v.w / rho) * (s.rho - rho - s.hydro * dot(gp_gravity.xyz, d)) * dot(d, grad) / r2;
    }
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    vec3 p = gp_position[i].xyz;
    uint m = gp_material_of(info);
    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p) || gp_fluids[m].table.y == 0.0) return;   // sph_density's
    vec4 shape = gp_fluids[m].shape, kernel = gp_fluids[m].kernel, table = gp_fluids[m].table;   // not the whole material: slow
    gp_flow s;
    s.p = p;
    s.v = gp_velocity[i].xyz;
    s.rho = gp_carried(i, m);
    s.re = shape.y;
    s.re2 = kernel.w;
    s.spiky = kernel.y;
    s.hydro = shape.z / shape.w;   // rho0 / c0^2
    s.slot = i;
    s.m = m;
    vec2 sum = vec2(0.0);
    vec3 gp_center = p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_continuity_term(k, end, s, cell, sum)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    // the walls' particles, at rest: sum_w m v_i . grad W = -rho0 v_i . a (gp_wall)
    float rate = sum.x + table.z * s.re * sqrt(shape.w) * sum.y - shape.z * dot(s.v, gp_walls(m, p).a);
    float rho = s.rho + gp_gravity.w * rate;
    rho = gp_finite(rho) ? max(rho, 0.01 * shape.z) : s.rho;   // a blow-up keeps the old density; at least rho0 / 100
    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));
    atomicMin(stat_min_density, floatBitsToUint(rho));
    atomicMax(stat_max_density, floatBitsToUint(rho));
}
