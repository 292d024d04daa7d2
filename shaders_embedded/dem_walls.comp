#version 430 core
// dem_walls: the walls' contact force on every grain and rigid particle (Harada 2007, section
// 29.1.5, with the shear spring of gp_dem.glsl): every collider within a particle's radius pushes,
// and a container box's six faces each push as a plane wall (a grain in a corner touches three).
// Walls are still; each wall a particle touches keeps its own spring, in the particle's block after
// its pairs'. Then the sums become what the moves read: a grain's acceleration (force / mass plus
// gravity and your forces), a rigid particle's contact force / mass and its contact torque about
// its centre, which body_update sums.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_quaternion.glsl"
#include "gp_dem.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// One wall (unit normal n towards the wall, overlap) of particle `slot`, keyed `key`: v = (velocity,
// mass), spring = (k_s, rolling friction).
void gp_wall_touch(uint slot, uint id, uint key, vec3 n, float overlap, vec4 v, vec3 w, float r, vec4 c, vec2 spring,
                   inout vec3 f, inout vec3 torque, inout uint kept) {
    vec3 xi = spring.x > 0.0 ? gp_kept_spring(slot, id, key) : vec3(0.0), lever;
    vec3 force = gp_touch(n, overlap, v.xyz, w, r, vec3(0.0), c, spring.x, xi, lever);
    f += force;
    torque += cross(lever, force) + gp_rolling(w, r, v.w, max(0.0, -dot(force, n)), spring.y);
    if (spring.x > 0.0) gp_keep_spring(slot, kept, key, xi);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    uint kind = gp_kind_of(info);
    if (!gp_is_solid(kind)) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    bool rigid = kind == GP_KIND_RIGID;
    vec3 f = gp_acceleration[i].xyz, torque = rigid ? gp_rigid[i].xyz : vec3(0.0);
    if (gp_finite3(p.xyz)) {   // else it meets no wall
        gp_granular m = gp_granulars[gp_grain_material(info)];
        vec3 w = vec3(0.0);
        vec4 c = m.contact;
        if (rigid) {   // its body's mass against the wall's infinite one
            gp_body body = gp_body_load(info.z);
            w = gp_body_omega(body);
            c = gp_body_damping(c, vec2(v.w, 1.0 / body.x.w));
        }
        uint head = gp_keep_block(i), kept = gp_history[head].y;
        float gap = 3.4e38;
        for (uint k = 0u; k < gp_solver_counts.x; ++k) {
            gp_collider_shape s = gp_colliders[k];
            if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {
                vec3 low = s.b.xyz + (p.xyz - s.a.xyz), high = s.b.xyz - (p.xyz - s.a.xyz);   // to each face
                for (int a = 0; a < 3; ++a) {
                    vec3 e = vec3(0.0);
                    e[a] = 1.0;
                    if (low[a] < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, uint(2 * a)), -e, p.w - low[a], v, w, p.w, c, m.grain.zw, f, torque, kept);
                    if (high[a] < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, uint(2 * a + 1)), e, p.w - high[a], v, w, p.w, c, m.grain.zw, f, torque, kept);
                    gap = min(gap, min(low[a], high[a]) - p.w);
                }
            } else {
                vec4 d = gp_collider_distance(k, p.xyz);
                if (d.w < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, 6u), -d.xyz, p.w - d.w, v, w, p.w, c, m.grain.zw, f, torque, kept);
                gap = min(gap, d.w - p.w);
            }
        }
        gp_history[head].y = kept;
        // the clock's look-ahead (step_clock.comp): the nearest wall, 0 when touching; NaN: touching
        atomicMin(stat_solid_gap, floatBitsToUint(gap > 0.0 ? gap : 0.0));
    }
    vec3 a = f / v.w;
    if (!rigid && gp_finite3(p.xyz)) a += gp_gravity.xyz + gp_user_forces(p.xyz);   // a NaN grain: 0, unmoved
    if (rigid) gp_rigid[i] = vec4(torque, 0.0);
    gp_acceleration[i] = vec4(a, 0.0);
}
