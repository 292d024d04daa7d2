#version 430 core
// store_age: the first stage of a substep when the world has effect particles or particles with a
// lifetime (section >>store): each of those ages by the substep, so that its age is the one it
// will have at the substep's end; the grid build that follows takes out those whose age reached
// their lifetime (gp_dead, lifetime not 0). A particle thus lives through every substep that ends
// before its lifetime and is gone from the one that reaches it: after a step, the store holds
// exactly the particles whose age is below their lifetime. Bodies' and cloth's particles never age
// (gp_owned), nor do others that live forever (lifetime 0) but effects.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec2 life = gp_life[i];
    uint kind = gp_kind_of(gp_info[i]);
    if ((life.y > 0.0 || kind == GP_KIND_EFFECT) && !gp_owned(kind)) gp_life[i].x = life.x + gp_gravity.w;
}
