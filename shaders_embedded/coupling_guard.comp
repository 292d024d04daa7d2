#version 430 core
// coupling_guard: keeps the fluid out of the solids: after every move of the substep
// (the fluid's, the grains', the bodies' particles'), a fluid particle whose centre lies inside a
// solid particle's sphere (closer to its centre than its radius r: inside a grain, or inside one
// of a body's particles) is put back on that sphere, along the line between the centres, one
// sphere after another in the order the loop meets them; a sweep that pushed is followed by
// another (3 at most), since a push may end inside a sphere met before it. (Summed in one sweep,
// the pushes of overlapping spheres left fluid 0.35 mm inside a solid in
// coupling_fluid_stays_out with softer solids.) The spheres do not fill a
// body's voxels: a fluid particle at a hole of its lattice (sqrt(3) r from eight of its
// particles) is outside every sphere, and is left there;
// fluid put inside a body (a body added where the fluid is) stays in it and rides with it, its
// weight on the body (coupling_floating_and_sinking: 16 particles, a quarter of a box's mass).
// Its velocity is kept: the solid, whose own this pass cannot change, would not take the opposite
// impulse, and the total momentum of fluid and solids would drift (the fluid's pressure turns the
// particle within the next substeps). The fluid's pressure keeps it out in any flow the substeps
// resolve (Akinci et al. 2012's boundary particles); the guard is for what they do not (a body
// thrown into water faster than a substep's worth of its particles' spacing, one solid particle of
// a thin wall, a sharp corner), as the walls' push is for the colliders (sph_integrate, Harada et
// al. 2007, eq. 11). Each push is counted with the walls' (stat_wall_pushes). It reads the solids'
// positions, which no invocation writes here, and writes its own fluid particle's only.
// The grid is the substep's (its buckets filed before the moves): a substep moves nothing farther
// than a cell, so the 27 cells around a fluid particle still hold every solid near it.
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

// What fluid particle i needs of itself in the loop, and what the solids push it by.
struct gp_guard { vec3 p; uint slot; float solids; float re2; };

// When candidate slot k is a solid whose sphere holds i's centre, and a boundary to i's material
// (a grain narrower than its smoothing radius is not: gp_drag_grain): i put on its sphere.
void gp_guard_term(uint k, uint end, ivec3 cell, inout gp_guard g) {
    if (k >= end || k == g.slot) return;
    uint kind = gp_kind_of(gp_info[k]);
    vec4 q = gp_position[k];
    if (!gp_is_solid(kind) || gp_drag_grain(q.w, g.re2, kind)) return;
    vec3 d = g.p - q.xyz;
    float r2 = dot(d, d);
    if (!(r2 < q.w * q.w) || !gp_grid_same_cell(q.xyz, cell)) return;
    float r = sqrt(r2);
    vec3 n = r > 0.0 ? d / r : vec3(0.0, 1.0, 0.0);   // on the very centre: out upwards
    g.p += (q.w - r) * n;
    g.solids += 1.0;
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec4 p = gp_position[i];
    if (gp_kind_of(gp_info[i]) != GP_KIND_FLUID || !gp_finite3(p.xyz)) return;
    gp_guard g;
    g.p = p.xyz;
    g.slot = i;
    g.re2 = gp_fluids[gp_material_of(gp_info[i])].kernel.w;
    if (cell_count[gp_grid_bucket(gp_grid_cell(g.p))] != GP_SOLID_BUCKET) return;   // no solid near (gp_coupling.glsl)
    uint sweeps = 0u;
    for (; sweeps < 3u; ++sweeps) {   // again while a sweep pushed: a push may end in a sphere met before it
        g.solids = 0.0;
        vec3 gp_center = g.p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_guard_term(k, end, cell, g)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
        if (g.solids == 0.0) break;
    }
    if (sweeps == 0u) return;
    gp_position[i].xyz = g.p;
    atomicAdd(stat_wall_pushes, 1u);
}
