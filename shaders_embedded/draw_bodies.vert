#version 430 core
// draw_bodies.vert: gp_draw_bodies, each body's mesh instanced from its record (Harada 2007,
// eq. 21).
layout(location = 0) in vec3 a_vertex;   // principal frame, from the centre of mass
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_center;   // per body: X, 1 / M
layout(location = 3) in vec4 a_rotation;   // per body: q (x, y, z, w)
layout(location = 0) uniform mat4 u_view;
layout(location = 1) uniform mat4 u_projection;
layout(location = 5) uniform uint u_first;   // the run's first body, for its colour
out vec3 v_normal;
flat out uint v_body;
#include "gp_quaternion.glsl"
void main() {
    vec3 world = a_center.xyz + gp_rotate(a_rotation, a_vertex);   // eq. 21
    v_normal = mat3(u_view) * gp_rotate(a_rotation, a_normal);
    v_body = u_first + uint(gl_InstanceID);
    gl_Position = u_projection * u_view * vec4(world, 1.0);
}
