#version 430 core
// body_update: stages 4 and 5 of Harada 2007's section 29.2, one invocation per rigid body:
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
// The body's turn over dt under no torque, its angular momentum l (world) fixed: the free rigid
// body's Hamiltonian H = sum_i L_i^2 / (2 I_i) (body frame) split into its three terms, each an
// exact rotation about principal axis i at L_i / I_i (the body turns by that angle, its L in the
// body frame by the opposite), composed symmetrically (1/2, 2/2, 3, 2/2, 1/2: second order), and
// that composed at Yoshida's weights (1.35..., -1.70..., 1.35...: fourth order). Every sub-step is
// a rotation, so |L| and the orientation's norm stay exact, and the energy has no drift, only an
// error of order (|w| dt)^4 that does not grow (McLachlan 1993, "Explicit Lie-Poisson integration
// and the Euler equations"; Dullweber, Leimkuhler, McLachlan 1997; Yoshida 1990). The explicit
// update (Harada 2007, eqs. 6-8) gains energy: 17% in a spin of 8 s at 600 substeps a second.
// inverse_inertia: 1 / the principal moments.
// (sin x, cos x) to float rounding on every device: small angles (every sub-step's, in practice) by
// their series, so that sin^2 + cos^2 = 1 to an ulp. A GPU's sin and cos are approximations
// (NVIDIA's cos is good to about 5e-7 absolute): the rotation by an r that is not unit scaled L
// with each of the 30,000 sub-steps of 2 s, and a free spin's energy moved 1.3e-5 on an H100.
vec2 gp_sin_cos(float x) {
    float x2 = x * x;
    if (x2 >= 0.01) return vec2(sin(x), cos(x));
    return vec2(x * (1.0 - x2 * (1.0 / 6.0) * (1.0 - x2 * (1.0 / 20.0) * (1.0 - x2 * (1.0 / 42.0)))),
                1.0 - x2 * 0.5 * (1.0 - x2 * (1.0 / 12.0) * (1.0 - x2 * (1.0 / 30.0) * (1.0 - x2 * (1.0 / 56.0)))));
}
vec4 gp_body_free_rotation(vec4 q, vec3 l, vec3 inverse_inertia, float dt) {
    const float y1 = 1.3512071919596578, y0 = -1.7024143839193155;   // 1 / (2 - 2^(1/3)), -2^(1/3) y1
    vec3 lb = gp_rotate(vec4(-q.xyz, q.w), l);
    for (int stage = 0; stage < 3; ++stage) {
        float tau = (stage == 1 ? y0 : y1) * dt;
        for (int s = 0; s < 5; ++s) {
            int axis = s < 3 ? s : 4 - s;
            float angle = lb[axis] * inverse_inertia[axis] * tau * (s == 2 ? 1.0 : 0.5);
            vec2 half_turn = gp_sin_cos(0.5 * angle);
            vec4 r = vec4(0.0, 0.0, 0.0, half_turn.y);
            r[axis] = half_turn.x;
            q = gp_quat_mul(q, r);                      // the body turns about its own axis
            lb = gp_rotate(vec4(-r.xyz, r.w), lb);      // its L, seen from it, the other way
        }
    }
    return normalize(q);
}
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
    next.q = gp_body_free_rotation(body.q, next.l.xyz, body.inertia.xyz, dt);   // the new angular momentum
    if (!gp_finite3(next.x.xyz) || !gp_finite3(next.p.xyz) || !gp_finite3(next.l.xyz) || !gp_finite(next.q.x)
        || !gp_finite(next.q.y) || !gp_finite(next.q.z) || !gp_finite(next.q.w)) {
        next = body;
        next.p.xyz = vec3(0.0);
        next.l.xyz = vec3(0.0);
        atomicAdd(stat_bad_updates, 1u);
    }
    gp_body_store(b, next);   // its particles' speeds, its centre's among them, size the substeps (body_particles)
}
