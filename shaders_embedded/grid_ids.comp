#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_ids: deterministic mode. With u_stage 0, values[i] = id of particle i, ready for the sort of
// (bucket, id) pairs. With u_stage 1, after the sort, values[k] = slot of the particle whose id it
// holds, which turns the sorted ids into the gather order of the reorder.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 7) buffer order_block { uint order[]; };
layout(std430, binding = 6) readonly buffer slot_of_id_block { uint slot_of_id[]; };
layout(location = 0) uniform uint u_stage;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    order[i] = u_stage == 0u ? gp_info[i].x : slot_of_id[order[i]];
}
