#version 430 core
// coupling_pressure: each solid particle's pressure (Adami et al. 2012's wall pressure), the
// fluid's around it continued hydrostatically and weighted by the density kernel,
//   p_b = sum_f W_bf (p_f + rho_f g . (x_b - x_f)) / sum_f W_bf, at least 0 (0 with no fluid near),
// into the pressure half of its density slot (gp_density[b].y; .x stays 0: not fluid), which the
// fluid's force (sph_force) and the solid's (coupling_solid) push with. Runs after the fluid's
// density passes and before its force. A grain that every fluid drags (narrower than the smallest
// smoothing radius in use, gp_drag_grain) is no boundary: it skips its loop.
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
layout(location = 8) uniform uint u_finest;   // float bits: the fluid materials' smallest smoothing radius (m)

void gp_pressure_term(uint k, uint end, vec3 b, uint slot, ivec3 cell, inout vec2 sum) {
    if (k >= end || k == slot) return;
    vec3 q = gp_position[k].xyz;
    vec3 d = b - q;
    float r2 = dot(d, d);
    vec2 rho_p = gp_density[k];
    if (rho_p.x <= 0.0 || !gp_grid_same_cell(q, cell)) return;   // not fluid
    uint m = gp_material_of(gp_info[k]);
    vec4 kernel = gp_fluids[m].kernel;
    if (r2 >= kernel.w) return;
    sum += gp_poly6_of(kernel.x, kernel.w, r2) * vec2(rho_p.y + rho_p.x * dot(gp_gravity.xyz, d), 1.0);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec4 p = gp_position[i];
    uint kind = gp_kind_of(gp_info[i]);
    if (!gp_is_solid(kind) || !gp_finite3(p.xyz)) return;
    ivec3 home = gp_grid_cell(p.xyz);
    for (int c = 0; c < 27; ++c) {   // for coupling_guard (GP_SOLID_BUCKET, gp_coupling.glsl); all writers write the same
        ivec3 cell = gp_grid_around(home, c);
        if (gp_grid_cell_exists(cell)) cell_count[gp_grid_bucket(cell)] = GP_SOLID_BUCKET;
    }
    float finest = uintBitsToFloat(u_finest);
    if (gp_drag_grain(p.w, finest * finest, kind)) {   // dragged by every fluid: no boundary, no pressure
        gp_density[i] = vec2(0.0);
        return;
    }
    vec2 sum = vec2(0.0);
    vec3 gp_center = p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_pressure_term(k, end, p.xyz, i, cell, sum)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    gp_density[i] = vec2(0.0, sum.y > 0.0 ? max(sum.x / sum.y, 0.0) : 0.0);
}
