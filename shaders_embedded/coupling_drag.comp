#version 430 core
// coupling_drag: the fluid's pull on every grain it cannot flow around (a grain narrower than the
// fluid's smoothing radius, gp_coupling.glsl's gp_drag_grain, which is no boundary particle to
// it). The fluid at the grain, gp_fluid_sample's Shepard interpolation of its
// velocity u, rest density rho and viscosity nu, and how far the grain is in it,
// phi = sum V_j W_j / max(1 - own, 1/2), at most 1 (own: the share one fluid particle at the grain
// would add, so that a grain in the hole the fluid left for it, or between its particles, is
// wholly in, and one at the free surface about half; the bound for kernels barely wider than the
// spacing, where own nears 1), gives
//   drag      F_d = beta (u - v), beta = 3 pi mu d (1 + 0.15 Re^0.687) below Re = 1,000 and
//             0.44 pi d^2 rho |u - v| / 8 above (the standard drag curve of a sphere, Schiller and
//             Naumann 1933, as Clift, Grace and Weber 1978 give it; mu = rho nu, Re = |u - v| d / nu;
//             Stokes' 3 pi mu d as Re goes to 0), against the fluid's velocity undisturbed by the
//             grain's own pull: the fluid sampled around the grain moves with the opposite of
//             the force F, by u_self = c F, c = 1 / (M |u - v| / re + 6 pi mu re / 1.814) (M the
//             fluid mass that shares the pull, phi^2 / sum (V_j W_j)^2 / m_j): the steady
//             Stokes flow of F spread and sampled by the kernel (1.814 / re the mean inverse
//             distance of two points drawn from poly6 within re, a regularized Stokeslet's
//             u = F <1/r> / (6 pi mu)), or, when the grain passes the kernel's fluid faster than
//             viscosity spreads its pull (M |u - v| / re the larger), the momentum F re / |u - v|
//             left in M as it goes by. F = beta (u - v + c F) gives beta / (1 - beta c) for beta
//             (beta c at most 0.5; without it a grain in honey sank 30-50% too fast, in water 3%,
//             the point-particle coupling's self-induced velocity, Balachandar, Liu and Lakhote
//             2019, J. Comput. Phys. 376, 160-185); taken implicitly over the substep h: the impulse
//             M (u - v) (1 - exp(-beta h / M)), M the reduced mass of the grain m and its part of
//             the fluid that shares the opposite pull (phi^2 / sum (V_j W_j)^2 / m_j over the
//             crowd 1 + sum_k (1 - r_k^2 / R^2)^3 of the other grains the fluid drags within R,
//             the fluid's largest smoothing radius, u_reach), so that no substep drives v past u,
//             nor the crowd's pulls u past v (a fine grain in honey relaxes in microseconds; in a
//             bed of grains at rest the fluid in the pores jittered at 0.1-0.3 m/s, each grain's
//             impulse bounded as if it alone moved that fluid);
//   buoyancy  F_b = -rho V g, V = pi d^3 / 6 (Archimedes, the fluid's hydrostatic pressure on the
//             grain's volume);
// both times phi. The grain's acceleration gains (F_d + F_b) / m, and gp_drag holds (F_d,
// sum V_j W_j) for coupling_drag_fluid, which gives every fluid neighbour its share of -F_d, so
// that fluid and grain exchange the drag's momentum exactly (to the float rounding). The buoyancy
// stays a field on the grain: the fluid does not take it back, because in it the grain takes no
// room (the water does not rise for the sand in it), and the weight of the water a grain would
// displace, pressed on the fluid where the grain is, is a body force that no pressure balances
// (its curl is not zero at a bed's sides): a bed of sand at rest kept its pore water circling at
// 0.1-0.3 m/s. So the floor under a bed carries the water and the grains' weight less their
// buoyancy, not the grains' whole weight;
// and it stamps the buckets of the grain's 27 cells with this substep's u_stamp, so that
// coupling_drag_fluid searches only around fluid whose own bucket a grain stamped.
// Left out: the pressure gradient of an accelerating flow beyond the hydrostatic and the added
// mass (sampled from the fluid's accelerations, the grain's own reaction, which the fluid's
// pressure answers around it, came back as 3% more buoyancy: a grain of the water's density rose),
// and the crowding of many grains (Di Felice 1994's voidage factor: a dense bed drags as loose
// grains would). Reads the fluid's positions, velocities and materials; runs after coupling_solid
// and before every integration (gp__world_substep).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
#include "gp_coupling.glsl"
#include "gp_fluid_sample.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(location = 8) uniform uint u_stamp;   // this substep's number among those with a drag (from 1)
layout(location = 9) uniform uint u_reach;   // float bits: the fluid materials' largest smoothing radius R (m)

// Candidate slot k: its share of the fluid sample, or, when it is another grain the fluid drags
// within R, its part in the crowd that shares that fluid ((1 - r^2 / R^2)^3).
void gp_drag_term(uint k, uint end, ivec3 cell, uint self, float reach2, inout gp_fluid_sample s, inout float crowd) {
    gp_fluid_sample_term(k, end, cell, s);
    if (k >= end || k == self) return;
    vec4 q = gp_position[k];
    if (gp_kind_of(gp_info[k]) != GP_KIND_GRANULAR || !gp_grid_same_cell(q.xyz, cell) || !(4.0 * q.w * q.w < reach2)) return;
    vec3 d = q.xyz - s.p;
    float x = 1.0 - dot(d, d) / reach2;
    if (x > 0.0) crowd += x * x * x;
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    if (gp_kind_of(gp_info[i]) != GP_KIND_GRANULAR || !gp_finite3(p.xyz)) return;
    float d = 2.0 * p.w, h = gp_gravity.w;
    gp_fluid_sample s = gp_fluid_sample_at(p.xyz, d);
    float far = uintBitsToFloat(u_reach), crowd = 1.0;
    vec3 gp_center = p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_drag_term(k, end, cell, i, far * far, s, crowd)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    if (!(s.filled > 0.0)) { gp_drag[i] = vec4(0.0); return; }
    vec3 u = s.velocity / s.filled, w = u - v.xyz;
    float rho = s.rho / s.filled, nu = s.nu / s.filled, in_fluid = min(s.filled / max(1.0 - s.own / s.filled, 0.5), 1.0);
    float speed = length(w), re = speed * d / nu;
    float beta = re < 1000.0 ? 9.42477796 * rho * nu * d * (1.0 + 0.15 * pow(re, 0.687))
                             : 0.17278760 * rho * d * d * speed;   // 0.44 pi / 8
    float m = v.w, fluid = s.filled * s.filled / s.inertia, reach = s.reach / s.filled;
    if (!(m > 0.0)) { gp_drag[i] = vec4(0.0); return; }
    float apart = fluid * speed / reach + 10.3888 * rho * nu * reach;   // 1 / c; 6 pi / 1.814
    beta /= 1.0 - (apart > 0.0 ? min(beta / apart, 0.5) : 0.0);         // the self-induced velocity
    float reduced = 1.0 / (1.0 / m + crowd / fluid), relax = beta * h / reduced;
    vec3 drag = relax > 1e-4 ? (reduced / h) * (1.0 - exp(-relax)) * w : beta * w;   // the implicit impulse over h
    vec3 pull = in_fluid * drag, lift = -(in_fluid * 0.52359878 * d * d * d * rho) * gp_gravity.xyz;
    if (!gp_finite3(pull) || !gp_finite3(lift)) pull = lift = vec3(0.0);
    gp_acceleration[i].xyz += (pull + lift) / m;
    gp_drag[i] = vec4(pull, s.filled);   // the fluid takes the drag's reaction, not the lift's
    ivec3 home = gp_grid_cell(p.xyz);
    for (int c = 0; c < 27; ++c) {   // every fluid particle this grain pulls lies in one of these cells
        ivec3 cell = gp_grid_around(home, c);
        if (!gp_grid_cell_exists(cell)) continue;
        gp_drag_bucket_stamp(gp_grid_bucket(cell), u_stamp);   // all writers write the same
    }
}
