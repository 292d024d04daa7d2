#version 430 core
// sprite_depth: the first pass of gp_draw_effects (section >>draw): a sort key and a value per
// slot of the host's bound of the count. A live effect particle's key orders by its distance in
// front of the camera, the farthest first (the key of minus its depth: alpha blending draws back
// to front); every other slot (another kind, dead, or past the count) takes the last key and is
// not drawn. The value is the slot, which the sort carries along.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_SORT_KEYS) writeonly buffer keys_block { uint keys[]; };
layout(std430, binding = GP_BINDING_SORT_VALUES) writeonly buffer values_block { uint values[]; };
layout(location = 0) uniform uint u_slots;
layout(location = 1) uniform vec4 u_view_z;   // the view matrix's third row: view-space z = dot(row, (p, 1))

void main() {
    uint i = gp_global_index();
    if (i >= u_slots) return;
    uint key = 0xffffffffu;
    if (i < gp_counts.x) {
        uvec4 info = gp_info[i];
        if (gp_kind_of(info) == GP_KIND_EFFECT && !gp_dead(info, gp_life[i]))
            key = min(gp_float_key(dot(u_view_z, vec4(gp_position[i].xyz, 1.0))), 0xfffffffeu);   // -depth: the farthest first
    }
    keys[i] = key;
    values[i] = i;
}
