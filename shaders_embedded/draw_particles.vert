#version 430 core
// draw_particles.vert: gp_draw_particles' sphere impostors, one point per live slot, straight
// from the store: the attribute buffers are the vertex arrays (position, the fluid's (density,
// pressure), velocity, info), each point sized to the particle's projected diameter (Harada et
// al. 2007, Kipfer et al. 2004).
layout(location = 0) in vec4 a_position;   // xyz, radius
layout(location = 1) in vec2 a_density;   // density, pressure
layout(location = 2) in vec4 a_velocity;
layout(location = 3) in uvec4 a_info;
layout(location = 0) uniform mat4 u_view;
layout(location = 1) uniform mat4 u_projection;
layout(location = 2) uniform vec4 u_color;
layout(location = 3) uniform vec4 u_mode;   // colour mode, range low, range high, radius scale
layout(location = 4) uniform vec4 u_light;   // towards the light (view space), viewport height
layout(location = 5) uniform uint u_kinds;   // a bit per kind to draw
out vec3 v_color;
out vec3 v_center;
out float v_radius;
const vec3 kinds[7] = vec3[7](vec3(0.8), vec3(0.2, 0.45, 0.95), vec3(0.85, 0.7, 0.4), vec3(0.8, 0.3, 0.25),
                              vec3(0.6, 0.4, 0.8), vec3(1.0, 0.6, 0.2), vec3(0.5));
void main() {
    vec4 view = u_view * vec4(a_position.xyz, 1.0);
    v_center = view.xyz;
    v_radius = a_position.w * u_mode.w;
    gl_Position = u_projection * view;
    gl_PointSize = clamp(u_projection[1][1] * v_radius * u_light.w / max(gl_Position.w, 1e-6), 1.0, 256.0);
    float value = u_mode.x == 1.0 ? a_density.x : length(a_velocity.xyz);
    float t = clamp((value - u_mode.y) / max(u_mode.z - u_mode.y, 1e-20), 0.0, 1.0);
    v_color = mix(vec3(0.95, 0.97, 1.0), vec3(0.1, 0.3, 0.95), t);   // white low, blue high (Harada et al. 2007a, figs. 4-5)
    if (u_mode.x == 3.0) v_color = kinds[min(a_info.y & 255u, 6u)];
    if (u_mode.x == 4.0) v_color = u_color.rgb;
    bool drawn = (u_kinds & (1u << min(a_info.y & 255u, 31u))) != 0u && (a_info.y & 256u) == 0u;   // 256: GP_PARTICLE_DEAD
    if (!drawn) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);   // another kind, or removed (until the next build): clipped
}
