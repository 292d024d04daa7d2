#version 430 core
// store_remove: gp_particles_remove (section >>store), all or nothing, in two dispatches. The check
// (u_mark 0) counts into store_check every listed id that names no particle in the store, and
// every listed or flagged particle of a body or a cloth (they live as long as their owner); the
// mark (u_mark 1) then flags each one GP_PARTICLE_DEAD only if the check counted none, and the next
// grid build takes them out. By ids (u_count > 0: staged_ids holds them) or by the user's flag
// buffer (u_count 0: a uint per slot, not 0 for the particles to remove; a refusal is counted in
// store_refused, which the step's statistics report).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_STAGING) readonly buffer staged_ids_block { uint staged_ids[]; };
layout(std430, binding = GP_BINDING_FLAGS) readonly buffer flags_block { uint flags[]; };
layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_mark;

void main() {
    uint i = gp_global_index(), slot = GP_NO_SLOT;
    bool bad = false;
    if (u_count != 0u) {
        if (i >= u_count) return;
        uint id = staged_ids[i];
        if (id < 2u * gp_counts.z) slot = slot_of_id[id];
        bad = slot >= store_count || gp_info[slot].x != id;
    } else {
        if (i >= store_count || flags[i] == 0u) return;
        slot = i;
    }
    if (u_mark == 0u) {
        if (bad || gp_owned(gp_kind_of(gp_info[slot]))) atomicAdd(store_check, 1u);
    } else if (store_check == 0u) {
        gp_info[slot].y |= GP_PARTICLE_DEAD;
    } else if (u_count == 0u && i == 0u) {
        atomicAdd(store_refused, 1u);
    }
}
