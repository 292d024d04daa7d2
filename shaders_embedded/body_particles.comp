#version 430 core
// body_particles: stage 1 of Harada 2007's section 29.2, the particle values from the bodies
// (eqs. 18-20):
//   r_k = q r0_k q*, x_k = X + r_k, v_k = V + W x r_k
// for every rigid particle in the store, whose owner is its body and whose id is the body's first
// id plus k.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_quaternion.glsl"
#include "gp_dem.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_RIGID || info.z >= gp_solver_counts.w) return;
    gp_body body = gp_body_load(info.z);
    vec3 r = gp_rotate(body.q, gp_offsets[body.particles.z + (info.x - body.particles.x)].xyz);
    gp_position[i].xyz = body.x.xyz + r;
    vec3 v = body.p.xyz * body.x.w + cross(gp_body_omega(body), r);
    gp_velocity[i].xyz = v;
    if (gp_finite3(v)) atomicMax(stat_max_speed, floatBitsToUint(length(v)));   // a spinning body's rim too (the clock's speeds)
}
