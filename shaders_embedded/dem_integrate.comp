#version 430 core
// dem_integrate: moves every grain by the acceleration of dem_contact over one substep (Harada
// 2007, section 29.3.1: contact forces update the grains' velocities directly):
//   symplectic Euler (default): v' = v + a dt, x' = x + v' dt
//   explicit Euler:             x' = x + v dt, v' = v + a dt
// An update that is not finite is not applied: the grain keeps its position, stops, and is
// counted, so that nothing is lost and nothing spreads NaN to its neighbours.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_integrate.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x || gp_kind_of(gp_info[i]) != GP_KIND_GRANULAR) return;
    vec3 x = gp_position[i].xyz;
    if (!gp_finite3(x)) return;   // kept where it is, in the grid's extra bucket
    vec3 xn, vn;
    gp_integrate(x, gp_velocity[i].xyz, gp_acceleration[i].xyz, xn, vn);
    gp_integrate_store(i, xn, vn);
}
