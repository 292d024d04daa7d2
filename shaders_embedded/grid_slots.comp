#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_slots: after the reorder, records where each particle now lives: slot_of_id[id] = slot.
// Bodies, cloth and the deterministic sort find particles by id through it.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 6) writeonly buffer slot_of_id_block { uint slot_of_id[]; };

void main() {
    uint k = gp_global_index();
    if (k >= gp_counts.x) return;
    slot_of_id[gp_info[k].x] = k;
}
