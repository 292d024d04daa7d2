#version 430 core
// dem_contact: the contact force on every grain and rigid particle from the others (Harada 2007,
// sections 29.1.5, 29.2.5): the spring, dashpot and shear of eqs. 10-13 with Cundall and Strack's
// shear spring and a Coulomb cap (gp_dem.glsl, gp_contact) from every granular or rigid particle
// that it overlaps, found through the shared grid's 27 cells around it. Two particles of one body
// do not touch. Forces act at the contact points, with the surfaces' velocities there (a rigid
// particle's includes its body's spin). Each pair is computed in the order of its ids, by both
// particles, from the spring its particle of lower id kept last substep, which keeps this
// substep's: the forces are exactly opposite. Leaves the force (N) in the acceleration and a rigid
// particle's torque about its centre in its torque slot for dem_walls, which adds the walls' and
// makes them accelerations.
// The grid's cells must be at least as wide as the largest contact distance (checked on the host).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_quaternion.glsl"
#include "gp_dem.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// What particle i needs of itself in the loop.
struct gp_self { vec4 p; vec4 v; vec3 w; float body_mass; vec4 c; vec2 spring; uint id; uint owner; bool rigid; uint slot; };

// True when candidate k (info) is a solid that i may touch: a grain, or a body's particle of
// another body.
bool gp_contact_partner(gp_self s, uvec4 info) {
    uint kind = gp_kind_of(info);
    return gp_is_solid(kind) && !(s.rigid && kind == GP_KIND_RIGID && info.z == s.owner);
}

// Adds candidate slot k's contact force and torque; kept counts the contacts i keeps, gap keeps
// the smallest gap to a partner not touching (0 once one touches) for the clock's look-ahead
// (step_clock.comp).
void gp_contact_term(uint k, uint end, gp_self s, ivec3 cell, inout vec3 f, inout vec3 torque, inout uint kept, inout float gap) {
    if (k >= end || k == s.slot) return;
    vec4 q = gp_position[k];
    vec3 d = q.xyz - s.p.xyz;
    float reach = s.p.w + q.w, r2 = dot(d, d);
    if (r2 >= reach * reach || r2 == 0.0 || !gp_grid_same_cell(q.xyz, cell)) {
        float within = reach + gap;   // nearer than the nearest so far (nothing once one touches)
        if (r2 < within * within && gp_contact_partner(s, gp_info[k])) gap = max(sqrt(r2) - reach, 0.0);
        return;
    }
    uvec4 info = gp_info[k];
    uint kind = gp_kind_of(info);
    if (!gp_contact_partner(s, info)) return;
    gap = 0.0;
    gp_granular m = gp_granulars[gp_grain_material(info)];
    vec4 v = gp_velocity[k];
    vec3 w = vec3(0.0);
    float body_mass = v.w;
    if (kind == GP_KIND_RIGID) {
        gp_body body = gp_body_load(info.z);
        w = gp_body_omega(body);
        body_mass = 1.0 / body.x.w;
    }
    vec4 c = gp_body_damping(0.5 * (s.c + m.contact), vec2(gp_reduced_mass(s.v.w, v.w), gp_reduced_mass(s.body_mass, body_mass)));
    vec2 spring = 0.5 * (s.spring + m.grain.zw);   // k_s, rolling friction
    // the pair from its particle of lower id, a, towards b: one computation for both
    bool first = s.id < info.x;
    vec4 pa = first ? s.p : q, pb = first ? q : s.p, va = first ? s.v : v, vb = first ? v : s.v;
    vec3 wa = first ? s.w : w, wb = first ? w : s.w;
    vec3 xi = spring.x > 0.0 ? gp_kept_spring(first ? s.slot : k, first ? s.id : info.x, first ? info.x : s.id) : vec3(0.0);
    vec3 ab = pb.xyz - pa.xyz;
    float r = sqrt(r2), overlap = reach - r;
    vec3 n = ab / r, lever;
    vec3 partner = vb.xyz + cross(wb, -(pb.w - 0.5 * overlap) * n);
    vec3 force = gp_touch(n, overlap, va.xyz, wa, pa.w, partner, c, spring.x, xi, lever);
    vec3 rolling = gp_rolling(wa - wb, pa.w * pb.w / (pa.w + pb.w), va.w * vb.w / (va.w + vb.w), max(0.0, -dot(force, n)), spring.y);
    if (first) {
        f += force;
        torque += cross(lever, force) + rolling;
        if (spring.x > 0.0) gp_keep_spring(s.slot, kept, info.x, xi);
    } else {
        f -= force;
        torque += cross((s.p.w - 0.5 * overlap) * -n, -force) - rolling;
    }
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    uint kind = gp_kind_of(info);
    if (!gp_is_solid(kind)) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    uint kept = 0u;
    vec3 f = vec3(0.0), torque = vec3(0.0);
    // the gap the clock's look-ahead needs: only below the cell less this particle's diameter, the
    // least bound the clock takes for the pairs not seen (a grain as wide as the cell: none)
    float cell_size = 1.0 / gp_grid_origin.w, gap = max(cell_size - 2.0 * p.w, 0.0);
    bool look = gap > 0.0;
    if (gp_finite3(p.xyz)) {   // else it meets no one
        gp_granular m = gp_granulars[gp_grain_material(info)];
        gp_self s;
        s.p = p;
        s.v = v;
        s.c = m.contact;
        s.spring = m.grain.zw;
        s.id = info.x;
        s.owner = info.z;
        s.rigid = kind == GP_KIND_RIGID;
        s.slot = i;
        s.w = vec3(0.0);
        s.body_mass = v.w;
        if (s.rigid) {
            gp_body body = gp_body_load(s.owner);
            s.w = gp_body_omega(body);
            s.body_mass = 1.0 / body.x.w;
        }
        // One candidate per iteration: 4.5 times faster on llvmpipe than the fluid's eight (grains
        // keep apart, so a neighbourhood holds tens of candidates).
        vec3 gp_center = s.p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_contact_term(k, end, s, cell, f, torque, kept, gap)
#define GP_NEIGHBOR_BATCH 1
#include "gp_neighbors.glsl"
    }
    gp_history[gp_keep_block(i)] = uvec4(info.x, kept, u_stamp, 0u);
    if (look && gap < cell_size - 2.0 * p.w) atomicMin(stat_solid_gap, floatBitsToUint(gap));   // non-negative: bits order
    if (gp_finite(p.w)) atomicMax(stat_solid_radius, floatBitsToUint(max(p.w, 0.0)));
    gp_acceleration[i] = vec4(f, 0.0);
    if (kind == GP_KIND_RIGID) gp_rigid[i] = vec4(torque, 0.0);
}
