#version 430 core
// boundary_distance: the boundary's signed distance at u_count points (gp_boundary_distance_read),
// exactly as the SPH passes see it.
#include "gp_common.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_POINTS) readonly buffer point_block { vec4 points[]; };
layout(std430, binding = GP_BINDING_DISTANCES) writeonly buffer distance_block { float distances[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint i = gp_global_index();
    if (i < u_count) distances[i] = gp_boundary(points[i].xyz).w;
}
