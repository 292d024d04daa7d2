#version 430 core
// grid_neighbors: for every particle, how many other particles lie closer than u_radius
// (u_radius <= cell size), found through the grid with the neighbour loop every solver shares
// (gp_neighbors.glsl), its hook counting the candidates within the radius.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_NEIGHBOR_COUNT) writeonly buffer neighbor_count_block { uint neighbor_count[]; };
layout(location = 0) uniform float u_radius;

// 1 when candidate slot k (< end, not self, in the visited cell) lies within the radius.
uint gp_near(uint k, uint end, uint self, vec3 p, ivec3 cell, float radius2) {
    if (k >= end || k == self) return 0u;
    vec3 q = gp_position[k].xyz;
    if (!gp_grid_same_cell(q, cell)) return 0u;
    vec3 d = q - p;
    return uint(dot(d, d) < radius2);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec3 p = gp_position[i].xyz;
    uint found = 0u;
    if (gp_finite3(p)) {
        float radius2 = u_radius * u_radius;
        vec3 gp_center = p;
#define GP_NEIGHBOR_TERM(k, end, cell) gp_near(k, end, i, p, cell, radius2)
#define GP_NEIGHBOR_SUM found
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
    }
    neighbor_count[i] = found;
}
