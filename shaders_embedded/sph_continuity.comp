#version 430 core
// sph_continuity: the new density and pressure of every fluid particle of a continuity-model
// material (sph_density does the others):
//   rho_i' = rho_i + dt (sum_j m_j (v_i - v_j) . grad W_ij - 2 rho0 v_i . a + delta re c0 D_i)
// from the density the particle carries (gp_state, 0: not yet set, rest density), with
// D_i = sum_j 2 V_j (rho_i - rho_j - (rho_i^H - rho_j^H)) (x_ij . grad W_ij) / r_ij^2 over
// neighbours of its material, the delta-SPH diffusion (Antuono et al. 2012) less its hydrostatic
// part rho^H_i - rho^H_j = rho0 g . x_ij / c0^2, so that a column at rest keeps its pressure
// gradient; -2 rho0 v_i . a is the walls' particles' term (gp_wall in gp_sph.glsl), with the same
// normalised spiky gradient; where i's kernel lies wholly in its fluid, rho_i' also moves towards
// the positions' summation density (the interior relaxation, below). sph_integrate stores rho_i'
// as the new carried density; p_i from eq. 5. A pass of its own: llvmpipe runs a loop that no
// invocation of a group takes, so one pass for both models made the summation model's substep
// 50% slower. The neighbour loop is gp_neighbors.glsl's: 27 cells, 8 candidates per iteration,
// shortfalls counted.
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

// What particle i needs of itself in the neighbour loop.
struct gp_flow { vec3 p; vec3 v; float rho; float re; float re2; float spiky; float poly6; float hydro; float solid; float volume; uint slot; uint m; };

// The kernel's first moment over the neighbours, sum_j V_j grad W_ij (V_j = m_j / rho0 of i's
// material; solids as their volume), and whether a fluid of another material is among them:
// what says that i's kernel is whole (below). Per invocation, summed by gp_continuity_term.
vec3 gp_moment;
bool gp_mixed;

// The density particle k carries, its material's rest density until it has one.
float gp_carried(uint k, uint m) { float r = gp_state[k].x; return r > 0.0 ? r : gp_fluids[m].shape.z; }

// Adds candidate slot k's (m_k (v_i - v_k) . grad W, diffusion term, m_k W) when it is a fluid
// particle of the visited cell; the diffusion only between particles of one material; the last,
// the summation density of the positions (poly6), says whether i is at a free surface.
void gp_continuity_term(uint k, uint end, gp_flow s, ivec3 cell, inout vec3 sum) {
    if (k >= end || k == s.slot) return;
    vec4 q = gp_position[k];
    vec3 d = s.p - q.xyz;
    float r2 = dot(d, d);
    if (r2 >= s.re2 || !gp_grid_same_cell(q.xyz, cell)) return;
    uvec4 info = gp_info[k];
    uint kind = gp_kind_of(info);
    if (kind != GP_KIND_FLUID && !gp_is_solid(kind)) return;
    vec4 v = gp_velocity[k];
    float mass = kind == GP_KIND_FLUID ? v.w : gp_solid_mass(s.solid, s.re2, q.w, kind);
    sum.z += mass * gp_poly6_of(s.poly6, s.re2, r2);
    if (r2 == 0.0) return;   // on top of another: no rate
    float r = sqrt(r2), x = s.re - r;
    vec3 grad = -(s.spiky * x * x / r) * d;   // grad_i W(x_i - x_k): towards k
    if (kind != GP_KIND_FLUID) {   // a solid: its mass as gp_coupling.glsl has it, as a mirror (twice), no diffusion
        sum.x += 2.0 * mass * dot(s.v - v.xyz, grad);
        gp_moment += (mass * s.volume) * grad;
        return;
    }
    uint m = gp_material_of(info);
    sum.x += v.w * dot(s.v - v.xyz, grad);
    gp_moment += (v.w * s.volume) * grad;
    gp_mixed = gp_mixed || m != s.m;
    if (m == s.m) {
        float rho = gp_carried(k, m);
        // over r^2, but never below (0.1 h)^2 (h = re / 2; the artificial viscosity's eta^2): the
        // spiky kernel's slope stays finite at r = 0, and two free-surface particles that drifted
        // within 0.03 spacing traded 40 kg/m^3 in a substep and flew apart at 2.7 m/s
        // (sph_pair_on_top_parts_gently). No pair a tenth of a spacing apart or more feels it.
        sum.y += 2.0 * (v.w / rho) * (s.rho - rho - s.hydro * dot(gp_gravity.xyz, d)) * dot(d, grad) / max(r2, 0.0025 * s.re2);
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
    s.poly6 = kernel.x;
    s.hydro = shape.z / shape.w;   // rho0 / c0^2
    s.solid = gp_solid_scale(gp_fluids[m].flow.z, shape.x);
    s.volume = 1.0 / shape.z;
    s.slot = i;
    s.m = m;
    vec3 sum = vec3(0.0);
    gp_moment = vec3(0.0);
    gp_mixed = false;
    vec3 gp_center = p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_continuity_term(k, end, s, cell, sum)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    // the walls' particles, the particle's mirror images: -2 rho0 v_i . a (gp_wall)
    gp_wall walls = gp_walls(m, p);
    float rate = sum.x + table.z * s.re * sqrt(shape.w) * sum.y - 2.0 * shape.z * dot(s.v, walls.a);
    float rho = s.rho + gp_gravity.w * rate;
    // Without tension the carried density has a floor. At a free surface (spray) it is the
    // density of zero pressure, rho0 - p0 / k: where the flow spreads there a particle keeps the
    // density at which it presses back as soon as it is squeezed again. Unclamped, spray fell to
    // rho0 / 100 and had to be compressed 100 times before it pushed back: a dam break blew up
    // where it met the far wall. The clamp of incompressible SPH's densities (Ihmsen
    // et al. 2014, Bender and Koschier 2015). Elsewhere the floor lets the density remember an
    // expansion of up to 0.005 rho0 below that, as far as the positions' own summation density
    // (filled, below) shows one: a floor at the density of zero pressure forgot every expansion,
    // and a flow that spreads and closes again over and over grew (a dam break's fluid took 10%
    // more room than its volume after 2 s of sloshing, 6% with this floor). 0.005 rho0 is about
    // a weakly compressible flow's own density swing, (u / c0)^2: remembered a little at each
    // swing, the expansion is given back over the swings, and 0.2-2% floors gave back about as
    // much. Deeper floors threw faster splashes: a block of water dropped onto a floor, started
    // at 14 heights, threw its fastest droplet at 4.9 m/s on average with this floor as with
    // none, 5.5 with 1% and 6.3 with 2% (bench/RESULTS.md). With tension, rho0 / 100. A
    // blow-up keeps the old density.
    // At a free surface the pressure is zero: a particle whose neighbourhood the fluid fills less
    // than 3/4 (the summation density of the positions, its own share, the solids' and the walls'
    // included, below 0.75 rho0: the threshold Marrone et al. 2010 put on their free-surface
    // indicator) carries no more than the density of zero pressure. The clamp above keeps a
    // density that the flow took away, so a surface particle that leaves the fluid and comes back
    // is squeezed from rho0 each time, and the fluid pumped itself up: a block of water dropped
    // onto a floor splashed at 10 m/s and its energy grew fourfold in 1.5 s. Without
    // tension only.
    bool tension = gp_fluids[m].flow.w != 0.0;
    float least = tension ? 0.01 * shape.z : max(shape.z - gp_fluids[m].flow.y / shape.w, 0.01 * shape.z);
    float filled = sum.z + gp_velocity[i].w * gp_poly6_of(s.poly6, s.re2, 0.0) + walls.share.x;   // its own mass too
    bool surface = !tension && filled < 0.75 * shape.z;
    float floor_density = tension || surface ? least : max(min(least, filled), least - 0.005 * shape.z);
    // The carried density drifts from the positions': the rate is the spiky kernel's, which reads a
    // disordered packing of the same particles as denser (it is convex; sigma = 0.15 spacings of
    // disorder reads 4% denser through it, 0.9% through poly6), and the floor above forgets
    // expansions; nothing brought the two together again, and a sloshing fluid took 5% more room
    // than its volume (sph_dam_break_keeps_volume), a floating box rode 6 mm high. Where i's
    // kernel is whole (one material, the first moment |sum_j V_j grad W_ij - a| re under 0.3:
    // a half space gives 1.5, a particle half a smoothing radius under a free surface 0.28), its
    // carried density moves towards the positions' summation density (filled) at the rate
    // 0.01 c0 / re, a hundred times the time sound takes to cross the kernel: slow against the
    // pressure waves, fast against the drift (bench/notes/fluid_volume_growth_while_sloshing.md).
    if (!surface && !gp_mixed && length(gp_moment - walls.a) * s.re < 0.3)
        rho += min(0.01 * sqrt(shape.w) * gp_gravity.w / s.re, 1.0) * (filled - rho);
    rho = gp_finite(rho) ? max(rho, floor_density) : s.rho;
    if (surface) rho = min(rho, least);
    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));
    atomicMin(stat_min_density, floatBitsToUint(rho));
    atomicMax(stat_max_density, floatBitsToUint(rho));
}
