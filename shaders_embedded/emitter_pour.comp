#version 430 core
// emitter_pour: a pour's layer (a GP_EMITTER_POUR emitter's, or gp_pour_add's: one pass for both,
// section >>store), one invocation per particle: birth j takes the j-th point of the lattice across
// the stream (spacing apart, in square rings about the centre, each ring's points kept within the
// disc that the layer's n points fill), u_lead along the stream, moving at its speed. Slot and id
// as every birth's (gp_birth.glsl), from the uniforms' never-used ids. With a jitter, each point moves
// across the stream by up to that many spacings each way, drawn by gp_random3 of the emitter's seed,
// the layer's serial number and the point (grains stacked exactly on a lattice would stand as
// columns: nothing breaks a perfect symmetry).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
#include "gp_birth.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(location = 0) uniform vec4 u_center;      // xyz the nozzle's centre (m), w the lattice's spacing (m)
layout(location = 1) uniform vec4 u_direction;   // xyz the stream's unit direction, w its speed (m/s)
layout(location = 2) uniform vec4 u_particle;    // radius (m), mass (kg), lifetime (s), the lead along the stream (m)
layout(location = 3) uniform uvec4 u_info;       // kind | phase << 16, owner, user, 1 when the fluid's carried density exists
layout(location = 4) uniform uvec4 u_layer;      // the layer's particles, never-used ids among them, the first of those
layout(location = 5) uniform uvec4 u_jitter;     // the emitter's seed, the layer's serial number, float bits of the jitter (m)

void main() {
    uint j = gp_global_index(), n = u_layer.x;
    if (j >= n) return;
    uint slot, id;
    if (!gp_birth(j, u_layer.y, u_layer.z, slot, id)) return;
    float disc = sqrt(float(n) / 3.14159265) + 0.5;
    int a = 0, b = 0;
    uint k = 0u;
    bool found = false;
    for (int ring = 0; ring < 64 && !found; ++ring)
        for (int x = -ring; x <= ring && !found; ++x)
            for (int y = -ring; y <= ring && !found; ++y) {
                if (x != -ring && x != ring && y != -ring && y != ring) continue;   // the ring's edge only
                if (float(x * x + y * y) > disc * disc) continue;
                if (k == j) { a = x; b = y; found = true; }
                ++k;
            }
    vec3 t, s;
    gp_basis(u_direction.xyz, t, s);
    vec3 jitter = uintBitsToFloat(u_jitter.z) * (2.0 * gp_random3(u_jitter.x ^ (u_jitter.y * 0x9e3779b9u), j, 6u) - 1.0);
    vec3 p = u_center.xyz + u_center.w * (float(a) + jitter.x) * t + u_center.w * (float(b) + jitter.y) * s + u_particle.w * u_direction.xyz;
    gp_birth_write(slot, id, p, u_direction.w * u_direction.xyz, u_particle.xy, u_info.xyz, u_particle.z);
    if (u_info.w != 0u) gp_state[slot] = vec2(0.0);
}
