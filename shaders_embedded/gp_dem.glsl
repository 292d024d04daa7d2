// gp_dem.glsl: what the DEM passes share (Harada 2007): the contact model and the rigid bodies'
// records.
// Needs gp_common.glsl, gp_particles.glsl, gp_solver.glsl, gp_buffers.glsl (the BODIES role) and
// gp_quaternion.glsl first (the HISTORY and STATS roles for the contacts kept). A pass's force
// output is the ACCELERATION role: after the contact passes (dem_contact, then dem_walls) it holds,
// per slot, a grain's acceleration (contact force / mass + gravity + your forces) and a
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

// The contact force on particle a from a partner in direction n (unit, a to partner), overlapping
// by `overlap`, whose surface at the contact point moves at vij relative to a's; c = (k, eta, k_t,
// mu), ks the shear spring (N/m; 0: the viscous model). Eqs. 10-13: a spring and a dashpot along n;
// across it, Cundall and Strack's spring xi (the tangential displacement since the contact began:
// the one kept last substep, turned into today's contact plane by projection, plus this substep's
// sliding, as LAMMPS's gran/hooke/history) and the viscous shear; the two capped by Coulomb's mu
// times the normal push (never by a pull), and when capped the spring is cut back to hold just the
// sliding force (the contact slides). xi is last substep's in, this substep's out. With ks = 0 this
// is the paper's viscous shear. The pair passes compute it once per pair, in the order of the ids,
// so that the two particles' forces are exactly opposite.
vec3 gp_contact(vec3 n, float overlap, vec3 vij, vec4 c, float ks, inout vec3 xi) {
    float vn = dot(vij, n);
    vec3 vt = vij - vn * n;
    xi = xi - dot(xi, n) * n + vt * gp_gravity.w;
    vec3 ft = ks * xi + c.z * vt;
    float limit = c.w * max(0.0, c.x * overlap - c.y * vn);
    float t = length(ft);
    if (t > limit) {
        ft *= limit / t;
        if (ks > 0.0) xi = (ft - c.z * vt) / ks;
    }
    return (c.y * vn - c.x * overlap) * n + ft;
}

// One contact of particle a (velocity v, spin w: 0 for a grain; radius r) with a partner in
// direction n overlapping by `overlap`, whose surface moves at `partner` at the contact point:
// returns the force on a, and in lever the contact point from a's centre, where the two spheres'
// surfaces meet halfway through the overlap, (r - overlap / 2) n; the velocities are the surfaces'
// there, so that a spinning body's particles roll and grip.
vec3 gp_touch(vec3 n, float overlap, vec3 v, vec3 w, float r, vec3 partner, vec4 c, float ks, inout vec3 xi, out vec3 lever) {
    lever = (r - 0.5 * overlap) * n;
    return gp_contact(n, overlap, partner - (v + cross(w, lever)), c, ks, xi);
}

// A contact's dashpots (eta, k_t) are the material's for two grains; a rigid particle moves with
// its whole body, so a contact's are scaled by sqrt(M / m), M the pair's reduced mass with each
// rigid particle's body's mass in place of its own, m with the particles' own (a wall: infinite):
// every contact keeps the damping ratio, and so the restitution, that the material gives two
// grains, whatever the bodies weigh (LAMMPS's granular pair styles likewise take a rigid body's
// mass for its particles). mass = (the particles' reduced mass, the bodies').
vec4 gp_body_damping(vec4 c, vec2 mass) { return vec4(c.x, c.yz * sqrt(mass.y / mass.x), c.w); }
float gp_reduced_mass(float a, float b) { return a * b / (a + b); }

// Rolling resistance (a constant torque against the relative spin, model A of Ai, Chen, Rotter and
// Ooi 2011): on particle a, whose spin relative to its partner's is wr, of mean radius
// r = r_a r_b / (r_a + r_b) and reduced mass m (m_a m_b / (m_a + m_b)), pressed with `push`
// (N), rolling friction mu_r: -mu_r r push along wr, but never more than stops the spin of a
// ball of that mass and radius, (2/5) m r^2 |wr| / h, within the substep (no sign flip each substep
// once rolling stops: the model's known chatter). A ball rolling on a floor decelerates at
// (5/7) mu_r g. The partner gets the opposite torque.
vec3 gp_rolling(vec3 wr, float r, float m, float push, float mu_r) {
    float spin = length(wr);
    if (mu_r <= 0.0 || spin == 0.0) return vec3(0.0);
    float torque = min(mu_r * r * push, 0.4 * m * r * r * spin / gp_gravity.w);
    return (-torque / spin) * wr;
}

// The contacts kept from substep to substep (the HISTORY role; section >>dem of gpuparticle.h):
// per slot a block of u_slots + 1 uvec4s: a head (the particle's id, contacts kept, the substep's
// stamp, 0), then the contacts (the partner's id, or a wall's key; xi as float bits). The blocks
// the last substep wrote, moved into this substep's order by the grid build, at [0, capacity);
// this substep's at [capacity, 2 capacity). A pair is kept by its particle of lower id.
#ifdef GP_BINDING_HISTORY
layout(location = 8) uniform uint u_slots;   // contacts a particle keeps (gp_world_desc.contact_slots)
layout(location = 9) uniform uint u_stamp;   // this substep's number: the blocks of the last bear u_stamp - 1

uint gp_kept_block(uint slot) { return slot * (u_slots + 1u); }
uint gp_keep_block(uint slot) { return (gp_counts.z + slot) * (u_slots + 1u); }
// A wall's key: 2^31 + 8 collider + face (a container box's faces 0-5, any other collider 6).
uint gp_wall_key(uint collider, uint face) { return 0x80000000u | (collider * 8u + face); }

// The spring that particle `id`, in `slot`, kept last substep for `partner`; 0 when it kept none.
vec3 gp_kept_spring(uint slot, uint id, uint partner) {
    uint at = gp_kept_block(slot);
    uvec4 head = gp_history[at];
    if (head.x != id || head.z != u_stamp - 1u) return vec3(0.0);
    uint n = min(head.y, u_slots);
    for (uint e = 1u; e <= n; ++e) {
        uvec4 kept = gp_history[at + e];
        if (kept.x == partner) return uintBitsToFloat(kept.yzw);
    }
    return vec3(0.0);
}

// Keeps the spring xi for `partner` as contact number `kept` of the particle in `slot`: counted in
// the statistics instead when its slots are full (the contact then starts afresh next substep).
void gp_keep_spring(uint slot, inout uint kept, uint partner, vec3 xi) {
    if (kept >= u_slots) {
        atomicAdd(stat_unkept, 1u);
        return;
    }
    kept += 1u;
    gp_history[gp_keep_block(slot) + kept] = uvec4(partner, floatBitsToUint(xi));
}
#endif
