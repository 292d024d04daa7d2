// gp_dem.glsl: what the DEM passes share (000): the contact model and the rigid bodies' records.
// Needs gp_common.glsl, gp_particles.glsl, gp_solver.glsl, gp_buffers.glsl (the BODIES role) and
// gp_quaternion.glsl first. A pass's force output is the ACCELERATION role: after the contact pass it
// holds, per slot, a grain's acceleration (contact force / mass + gravity + your forces) and a
// rigid particle's contact force / mass (its body adds gravity once).

// A rigid body (mirrored by gp__body_gpu in gpuparticle.h, section >>structs):
//   x = (centre of mass X, 1 / M); q = orientation (x, y, z, s); p = (linear momentum P, particle
//   mass); l = (angular momentum L, 0); inertia = (1 / principal moments, 0);
//   particles = (first id, count, first offset, shape). Particle k has id first + k and offset
//   gp_offsets[first offset + k] in the principal frame.
struct gp_body { vec4 x; vec4 q; vec4 p; vec4 l; vec4 inertia; uvec4 particles; };

gp_body gp_body_load(uint b) {
    uint at = gp_counts.z + 6u * b;
    gp_body body;
    body.x = gp_rigid[at];
    body.q = gp_rigid[at + 1u];
    body.p = gp_rigid[at + 2u];
    body.l = gp_rigid[at + 3u];
    body.inertia = gp_rigid[at + 4u];
    body.particles = floatBitsToUint(gp_rigid[at + 5u]);
    return body;
}
void gp_body_store(uint b, gp_body body) {   // what moves
    uint at = gp_counts.z + 6u * b;
    gp_rigid[at] = body.x;
    gp_rigid[at + 1u] = body.q;
    gp_rigid[at + 2u] = body.p;
    gp_rigid[at + 3u] = body.l;
}

uint gp_grain_material(uvec4 info) { return min(gp_phase_of(info), GP_MAX_GRANULAR_MATERIALS - 1u); }

// The world angular velocity W = I(t)^-1 L = R diag(1 / lambda) R^T L (eqs. 5-6).
vec3 gp_body_omega(gp_body b) {
    vec4 inverse = vec4(-b.q.xyz, b.q.w);
    return gp_rotate(b.q, b.inertia.xyz * gp_rotate(inverse, b.l.xyz));
}

// The contact force on particle i from a partner in direction n (unit, i to partner), overlapping
// by `overlap`, whose surface at the contact point moves at vij relative to i's; c = (k, eta,
// k_t, mu). Eqs. 10-13: a spring and a
// dashpot along n, a viscous shear across it, the shear capped by Coulomb's mu times the normal
// push (never by a pull). Swapping i and the partner negates it exactly.
vec3 gp_contact(vec3 n, float overlap, vec3 vij, vec4 c) {
    float vn = dot(vij, n);
    vec3 ft = c.z * (vij - vn * n);
    float limit = c.w * max(0.0, c.x * overlap - c.y * vn);
    float t = length(ft);
    if (t > limit) ft *= limit / t;
    return (c.y * vn - c.x * overlap) * n + ft;
}

// One contact of particle i (velocity v, spin w: 0 for a grain; radius r) with a partner in
// direction n overlapping by `overlap`, whose surface moves at `partner` at the contact point: adds
// the force to f and its torque about i's centre to torque. The contact point is where the two
// spheres' surfaces meet halfway through the overlap, at (r - overlap / 2) n from i's centre, and
// the velocities are the surfaces' there, so that a spinning body's particles roll and grip.
void gp_touch(vec3 n, float overlap, vec3 v, vec3 w, float r, vec3 partner, vec4 c, inout vec3 f, inout vec3 torque) {
    vec3 lever = (r - 0.5 * overlap) * n;
    vec3 force = gp_contact(n, overlap, partner - (v + cross(w, lever)), c);
    f += force;
    torque += cross(lever, force);
}
