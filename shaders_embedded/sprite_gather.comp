#version 430 core
// sprite_gather: the second pass of gp_draw_effects (section >>draw), after the sort: sprite k
// draws the particle the k-th value names, in drawing order: its centre and its radius times its
// emitter's size curve at its age, its emitter's colour there (an effect particle of no emitter:
// its radius, white). A slot with the last key (no live effect particle) gets size 0: no pixel.
// Reads the emitters' curves (>>emitters) and the effect particles' store.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_SORT_KEYS) readonly buffer keys_block { uint keys[]; };
layout(std430, binding = GP_BINDING_SORT_VALUES) readonly buffer values_block { uint values[]; };
layout(std430, binding = GP_BINDING_SPRITES) writeonly buffer sprite_block { vec4 sprites[]; };   // centre and size, colour
layout(location = 0) uniform uint u_slots;

void main() {
    uint k = gp_global_index();
    if (k >= u_slots) return;
    if (keys[k] == 0xffffffffu) { sprites[2u * k] = vec4(0.0); sprites[2u * k + 1u] = vec4(0.0); return; }
    uint i = values[k], owner = gp_info[i].z;
    vec4 p = gp_position[i], color = vec4(1.0);
    float size = 1.0;
    if (owner < GP_MAX_EMITTERS) size = gp_emitter_look(owner, gp_life[i], color);
    sprites[2u * k] = vec4(p.xyz, p.w * size);
    sprites[2u * k + 1u] = color;
}
