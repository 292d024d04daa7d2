#version 430 core
// coupling_drag_fluid: the grains' pull back on the fluid: every fluid particle j takes its share
// of minus the force coupling_drag put on each grain g near it that it drags,
// F_g V_j W_j / sum_k V_k W_k (the weights coupling_drag summed, gp_fluid_sample's), as an
// acceleration -F_g W_j / (rho0_j sum_k V_k W_k), so that the shares add up to F_g (to the float
// rounding) and fluid and grains keep their momentum. A fluid particle whose bucket no grain stamped
// this substep (u_stamp) has no such grain within reach and returns at once. Reads gp_drag
// (coupling_drag's, this substep); runs after it, before every integration (gp__world_substep).
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
layout(location = 8) uniform uint u_stamp;   // coupling_drag's stamp of this substep

// Fluid particle j's own: its position, material's poly6 coefficient, re^2 and rest density.
struct gp_dragged { vec3 p; float poly6; float re2; float rho0; };

// Candidate slot k's pull on j, when k is a grain that j drags.
vec3 gp_drag_share(uint k, uint end, ivec3 cell, gp_dragged j) {
    if (k >= end) return vec3(0.0);
    vec4 q = gp_position[k];
    if (!gp_drag_grain(q.w, j.re2, gp_kind_of(gp_info[k])) || !gp_grid_same_cell(q.xyz, cell)) return vec3(0.0);
    vec3 d = q.xyz - j.p;
    float r2 = dot(d, d);
    vec4 f = gp_drag[k];
    if (r2 >= j.re2 || !(f.w > 0.0)) return vec3(0.0);
    return (gp_poly6_of(j.poly6, j.re2, r2) / (j.rho0 * f.w)) * f.xyz;
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec4 p = gp_position[i];
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p.xyz)) return;
    if (gp_drag_bucket_word(gp_grid_bucket(gp_grid_cell(p.xyz))) != u_stamp) return;   // no dragged grain within reach
    uint m = gp_material_of(info);
    gp_dragged j;
    j.p = p.xyz;
    j.poly6 = gp_fluids[m].kernel.x;
    j.re2 = gp_fluids[m].kernel.w;
    j.rho0 = gp_fluids[m].shape.z;
    vec3 pull = vec3(0.0);
    vec3 gp_center = j.p;
#define GP_NEIGHBOR_TERM(k, end, cell) gp_drag_share(k, end, cell, j)
#define GP_NEIGHBOR_SUM pull
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    gp_acceleration[i].xyz -= pull;
}
