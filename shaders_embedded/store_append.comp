#version 430 core
// store_append: writes u_count particles that the host staged (gp_particles_add, section >>store)
// after the store's count, where the GPU has it: the host never needs to know how many died. The
// staged buffer holds the positions [0, n), the velocities [n, 2n), the infos (ids given by the
// host) [2n, 3n), then the lives two to a uvec4, then (u_state 2) the fluid's carried densities
// four to a uvec4. store_count then moves the count past them.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_STAGING) readonly buffer staged_block { uvec4 staged[]; };
layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_state;   // the fluid's carried density: 0 none; 1 the rest density (0 in it); 2 the staged one

void main() {
    uint i = gp_global_index();
    if (i >= u_count) return;
    uint slot = store_count + i;
    uvec4 info = staged[2u * u_count + i], life = staged[3u * u_count + i / 2u];
    gp_position[slot] = uintBitsToFloat(staged[i]);
    gp_velocity[slot] = uintBitsToFloat(staged[u_count + i]);
    gp_info[slot] = info;
    gp_life[slot] = uintBitsToFloat((i & 1u) == 0u ? life.xy : life.zw);
    slot_of_id[info.x] = slot;
    if (u_state == 1u) gp_state[slot] = vec2(0.0);
    if (u_state == 2u) gp_state[slot] = vec2(uintBitsToFloat(staged[3u * u_count + (u_count + 1u) / 2u + i / 4u][i % 4u]), 0.0);
}
