#version 430 core
// emitter_emit: the emitters' births of a substep (section >>emitters), one invocation each, the
// emitters' first stage. Birth j is emitter e's k-th of the substep (gp_emission and each
// emitter's births word, which the host wrote); it goes to slot store_count + j, after every
// particle in the store, and takes a never-used id (the host's range) or the oldest given back
// (the free-id queue); a birth with no room or no id is skipped, and store_count, which follows,
// counts it refused. Its random numbers are gp_random3 of the emitter's seed and its serial
// number. Position: the emitter's shape (a ball: radius times the cube root of a uniform number
// along a uniform direction; a disc: radius times a square root, so both are uniform in area or
// volume); direction: uniform over the cap of half-angle spread about the axis (its cosine uniform
// in [cos spread, 1]), or for a cone tilted outwards by the distance from the axis; speed and
// lifetime uniform in their ranges.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
#include "gp_birth.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(location = 0) uniform uint u_state;   // 1: the fluid's carried density exists (0 in it: the rest density)

void main() {
    uint j = gp_global_index();
    if (j >= gp_emission.x) return;
    uint e = 0u;
    while (e + 1u < gp_emission.y && j >= gp_emitters[e].births.x + gp_emitters[e].births.y) ++e;
    uint slot, id;
    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;
    vec4 position = gp_emitters[e].position, axis = gp_emitters[e].axis, extent = gp_emitters[e].extent;
    vec4 motion = gp_emitters[e].motion, life = gp_emitters[e].life;
    uint seed = gp_emitters[e].info.w, serial = gp_emitters[e].births.z + (j - gp_emitters[e].births.x);
    vec3 a = gp_random3(seed, serial, 0u), b = gp_random3(seed, serial, 1u), c = gp_random3(seed, serial, 2u);
    vec3 t, s, p = position.xyz;
    gp_basis(axis.xyz, t, s);
    float phi = 6.28318530718 * a.y, rim = 0.0;
    if (position.w == GP_EMITTER_SPHERE) {
        float z = 2.0 * a.x - 1.0, r = extent.w * pow(a.z, 1.0 / 3.0);
        p += r * vec3(sqrt(max(1.0 - z * z, 0.0)) * vec2(cos(phi), sin(phi)), z);
    } else if (position.w == GP_EMITTER_BOX) {
        p += (2.0 * a - 1.0) * extent.xyz;
    } else if (position.w == GP_EMITTER_DISC || position.w == GP_EMITTER_CONE) {
        rim = sqrt(a.x);
        p += extent.w * rim * (cos(phi) * t + sin(phi) * s);
    }
    vec3 direction = position.w == GP_EMITTER_CONE ? normalize(axis.xyz + tan(min(axis.w, 1.5)) * rim * (cos(phi) * t + sin(phi) * s))
                                                   : gp_emitter_direction(axis.xyz, t, s, axis.w, b.xy);
    gp_birth_write(slot, id, p, mix(motion.x, motion.y, b.z) * direction, motion.zw, gp_emitters[e].info.xyz, mix(life.x, life.y, c.x));
    if (u_state != 0u) gp_state[slot] = vec2(0.0);
}
