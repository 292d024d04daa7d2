#version 430 core
// spray_emit: the second pass of a spray emitter (section >>emitters): birth j of the substep
// (j below both the sources the compaction listed, store_spray, and the emitter's limit u_limit)
// springs from source j, the fluid particle at slot sources[j]: an effect particle within the
// emitter's radius of it, with its velocity plus a random part of up to speed[1] m/s in a uniform
// direction, a lifetime from the range. Slot and id as emitter_emit's: after the store's count,
// a never-used id or the oldest given back. Reads the fluid's particles (>>sph's kind).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
#include "gp_birth.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_SCAN_OUTPUT) readonly buffer scan_output_block { uint sources[]; };
layout(location = 0) uniform uint u_limit;
layout(location = 1) uniform uint u_emitter;

void main() {
    uint j = gp_global_index();
    if (j >= min(u_limit, store_spray)) return;
    uint slot, id;
    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;
    uint source = sources[j];
    vec4 extent = gp_emitters[u_emitter].extent, motion = gp_emitters[u_emitter].motion, life = gp_emitters[u_emitter].life;
    uvec4 info = gp_emitters[u_emitter].info;
    uint seed = info.w ^ (gp_emitters[u_emitter].births.z * 0x9e3779b9u);   // the substep's serial mixed in
    vec3 a = gp_random3(seed, j, 3u), b = gp_random3(seed, j, 4u);
    float z = 2.0 * a.x - 1.0, phi = 6.28318530718 * a.y, z2 = 2.0 * b.x - 1.0, psi = 6.28318530718 * b.y;
    vec3 offset = extent.w * pow(a.z, 1.0 / 3.0) * vec3(sqrt(max(1.0 - z * z, 0.0)) * vec2(cos(phi), sin(phi)), z);
    vec3 kick = motion.y * b.z * vec3(sqrt(max(1.0 - z2 * z2, 0.0)) * vec2(cos(psi), sin(psi)), z2);
    gp_birth_write(slot, id, gp_position[source].xyz + offset, gp_velocity[source].xyz + kick, motion.zw, info.xyz,
                   mix(life.x, life.y, gp_random3(seed, j, 5u).x));
}
