#version 430 core
// body_update: stages 4 and 5 of 000 section 29.2, one invocation per rigid body:
//   F = sum_k f_k + M g (+ your forces at the centre of mass), tau = sum_k r_k x f_k  (eqs. 14-15)
//   P += F dt, L += tau dt, X += P / M dt                                            (eqs. 1-3, 4)
//   W = R diag(1 / lambda) R^T L, q = dq(W dt) * q, normalised                       (eqs. 5-8)
// f_k is particle k's contact force (dem_contact's force / mass, times the particle mass), found
// through slot_of_id; r_k = R(q) r0_k as body_particles placed it; tau also takes each particle's
// contact torque about its own centre (its forces act at contact points, not at its centre). The sums run in k order, so a
// run repeats bit for bit. An update that is not finite is not applied: the body keeps its place,
// stops, and is counted.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_quaternion.glsl"
#include "gp_dem.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
void main() {
    uint b = gp_global_index();
    if (b >= gp_solver_counts.w) return;
    gp_body body = gp_body_load(b);
    float dt = gp_gravity.w, mass = 1.0 / body.x.w;
    vec3 force = vec3(0.0), torque = vec3(0.0);
    for (uint k = 0u; k < body.particles.y; ++k) {
        uint slot = slot_of_id[body.particles.x + k];
        vec3 f = gp_acceleration[slot].xyz * body.p.w;
        vec3 r = gp_rotate(body.q, gp_offsets[body.particles.z + k].xyz);
        force += f;
        torque += cross(r, f) + gp_rigid[slot].xyz;
    }
    force += mass * (gp_gravity.xyz + gp_user_forces(body.x.xyz));
    gp_body next = body;
    next.p.xyz = body.p.xyz + force * dt;
    next.l.xyz = body.l.xyz + torque * dt;
    next.x.xyz = body.x.xyz + next.p.xyz * (body.x.w * dt);
    vec3 w = gp_body_omega(next);   // the old orientation, the new angular momentum
    float speed = length(w), half_angle = 0.5 * speed * dt;
    vec4 dq = speed > 0.0 ? vec4((sin(half_angle) / speed) * w, cos(half_angle)) : vec4(0.0, 0.0, 0.0, 1.0);
    next.q = normalize(gp_quat_mul(dq, body.q));
    if (!gp_finite3(next.x.xyz) || !gp_finite3(next.p.xyz) || !gp_finite3(next.l.xyz) || !gp_finite(next.q.x)
        || !gp_finite(next.q.y) || !gp_finite(next.q.z) || !gp_finite(next.q.w)) {
        next = body;
        next.p.xyz = vec3(0.0);
        next.l.xyz = vec3(0.0);
        atomicAdd(stat_bad_updates, 1u);
    }
    gp_body_store(b, next);
    atomicMax(stat_max_speed, floatBitsToUint(length(next.p.xyz) * body.x.w));
}
