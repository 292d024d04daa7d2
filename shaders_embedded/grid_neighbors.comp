#version 430 core
#extension GL_GOOGLE_include_directive : require
// grid_neighbors: for every particle, how many other particles lie closer than u_radius
// (u_radius <= cell size), found through the grid: the 27 cells around its own. This loop is the
// pattern every solver's neighbour sum follows. With hashing, a bucket also holds particles of
// distant cells; gp_grid_same_cell drops them.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 5) readonly buffer cell_start_block { uint cell_start[]; };
layout(std430, binding = 7) writeonly buffer neighbor_count_block { uint neighbor_count[]; };
layout(location = 0) uniform float u_radius;

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec3 p = gp_position[i].xyz;
    uint found = 0u;
    if (gp_finite3(p)) {
        ivec3 home = gp_grid_cell(p);
        float radius2 = u_radius * u_radius;
        for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            ivec3 cell = home + ivec3(dx, dy, dz);
            if (!gp_grid_cell_exists(cell)) continue;
            uint bucket = gp_grid_bucket(cell);
            for (uint k = cell_start[bucket]; k < cell_start[bucket + 1u]; ++k) {
                vec3 q = gp_position[k].xyz;
                if (k == i || !gp_grid_same_cell(q, cell)) continue;
                vec3 d = q - p;
                if (dot(d, d) < radius2) ++found;
            }
        }
    }
    neighbor_count[i] = found;
}
