#version 430 core
// sph_integrate: moves every fluid particle by the acceleration of sph_force over one substep
// (Harada et al. 2007a, section 4.6), then keeps it off the walls:
//   symplectic Euler (default): v' = v + a dt, x' = x + v' dt
//   explicit Euler (eq. 14):    x' = x + v dt, v' = v + a dt
// then the walls' push (eq. 11, below); a particle of the continuity model keeps the density
// sph_continuity found for this substep as the one it carries. An
// update that is not finite (a blow-up) is not applied: the particle keeps its position, stops,
// and is counted, so that nothing is lost and nothing spreads NaN to its neighbours.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
#include "gp_integrate.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    if (gp_density[i].x <= 0.0) return;   // not fluid, or its position is not finite
    vec3 x = gp_position[i].xyz, xn, vn;
    gp_integrate(x, gp_velocity[i].xyz, gp_acceleration[i].xyz, xn, vn);
    // Eq. 11: F = m (d - |r_iw|) n / dt^2 moves a particle closer than the rest distance d back
    // to it within the substep. Applied as that displacement (its velocity into the wall
    // removed) rather than as a force whose velocity would outlast the substep and pump energy
    // into the fluid at every wall contact. d is half a spacing: a particle touching the wall,
    // the lattice the wall weight tables assume. A few rounds settle corners where walls meet.
    float rest = 0.5 * gp_fluids[gp_material_of(gp_info[i])].shape.x;
    vec4 wall = gp_boundary(xn);
    if (wall.w < rest) {
        for (int round = 0; round < 4 && wall.w < rest; ++round) {
            xn += (rest - wall.w) * wall.xyz;
            float into = dot(vn, wall.xyz);
            if (into < 0.0) vn -= into * wall.xyz;
            wall = gp_boundary(xn);
        }
        if (wall.w < 0.0 && gp_boundary(x).w >= wall.w) { xn = x; vn = vec3(0.0); }   // never end inside
        atomicAdd(stat_wall_pushes, 1u);
    }
    if (gp_fluids[gp_material_of(gp_info[i])].table.y != 0.0) gp_state[i] = vec2(gp_density[i].x, 0.0);
    gp_integrate_store(i, xn, vn);
}
