#version 430 core
// spray_flags: the first pass of a spray emitter (GP_EMITTER_SPRAY, section >>emitters): a flag per
// slot of the host's bound of the count, 1 where a fluid particle faster than the emitter's speed
// gives birth this substep (a chance of rate x h, drawn by gp_random3 of the emitter's seed, the
// particle's id and the substep's serial number: the same in every run), 0 elsewhere and past the
// count. The library's compaction then lists the flagged slots in order (the spray's sources).
// Reads the fluid's particles (>>sph's kind).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_SCAN_INPUT) writeonly buffer scan_input_block { uint flags[]; };
layout(location = 0) uniform uint u_slots;
layout(location = 1) uniform uint u_emitter;
layout(location = 2) uniform float u_chance;   // rate x h: a source's chance of a birth this substep

void main() {
    uint i = gp_global_index();
    if (i >= u_slots) return;
    uint flag = 0u;
    if (i < gp_counts.x) {
        uvec4 info = gp_info[i], e = gp_emitters[u_emitter].info;
        vec3 v = gp_velocity[i].xyz;
        if (gp_kind_of(info) == GP_KIND_FLUID && (info.y & GP_PARTICLE_DEAD) == 0u && gp_finite3(v) &&
            dot(v, v) > gp_emitters[u_emitter].motion.x * gp_emitters[u_emitter].motion.x &&
            gp_random3(e.w, info.x, gp_emitters[u_emitter].births.z).x < u_chance)
            flag = 1u;
    }
    flags[i] = flag;
}
