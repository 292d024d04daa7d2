#version 430 core
// coupling_solid: the force the fluid puts on every solid particle (grains, rigid bodies'
// particles): minus the sum of the forces that particle puts on its fluid neighbours, from the
// terms of gp_coupling.glsl that sph_force added to theirs (the same functions, the fluid's
// densities and pressures of this substep, every position and velocity before any moves). It adds
// the force / mass to what dem_contact left: a grain's acceleration, a rigid particle's share of
// its body's force (body_update sums it and its torque about the centre of mass). Reads the
// fluid's density and pressure (the SPH passes) and each fluid material's constants. The pass
// runs after dem_contact and before every integration (gp__world_substep).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
#include "gp_coupling.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// What solid particle b needs of itself in the loop.
struct gp_solid { vec3 p; vec3 v; float r; float pressure; uint kind; uint slot; };

// Subtracts the force that solid b puts on candidate slot k when k is a fluid particle within its
// material's smoothing radius.
void gp_solid_term(uint k, uint end, gp_solid b, ivec3 cell, inout vec3 force) {
    if (k >= end || k == b.slot) return;
    vec3 q = gp_position[k].xyz;
    vec3 d = q - b.p;   // fluid minus solid, as sph_force takes it
    float r2 = dot(d, d);
    vec2 rho_p = gp_density[k];
    if (rho_p.x <= 0.0 || r2 == 0.0 || !gp_grid_same_cell(q, cell)) return;   // not fluid
    uint m = gp_material_of(gp_info[k]);
    vec4 shape = gp_fluids[m].shape, kernel = gp_fluids[m].kernel;
    if (r2 >= kernel.w) return;
    vec4 v = gp_velocity[k];
    vec3 pressure = vec3(0.0), viscosity = vec3(0.0);
    gp_coupling_terms(shape.y, kernel.y, kernel.z, shape.z, d, r2, v.xyz, rho_p.y, b.v, b.pressure,
                      gp_solid_mass(gp_solid_scale(gp_fluids[m].flow.z, shape.x), kernel.w, b.r, b.kind), pressure, viscosity);
    force -= (v.w / rho_p.x) * (pressure + gp_fluids[m].flow.x * shape.z * viscosity);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    uint kind = gp_kind_of(gp_info[i]);
    if (!gp_is_solid(kind) || !gp_finite3(p.xyz)) return;
    gp_solid b;
    b.kind = kind;
    b.p = p.xyz;
    b.v = v.xyz;
    b.r = p.w;
    b.slot = i;
    b.pressure = gp_density[i].y;
    vec3 force = vec3(0.0);
    vec3 gp_center = b.p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_solid_term(k, end, b, cell, force)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    gp_acceleration[i].xyz += force / v.w;
}
