#version 430 core
// draw_bodies.frag: a body's colour, one for all or a palette by body, lit by one light.
layout(location = 2) uniform vec4 u_color;
layout(location = 3) uniform vec4 u_mode;   // x 1: one colour, else a palette by body
layout(location = 4) uniform vec4 u_light;
in vec3 v_normal;
flat in uint v_body;
out vec4 o_color;
void main() {
    const vec3 palette[6] = vec3[6](vec3(0.85, 0.55, 0.3), vec3(0.35, 0.6, 0.85), vec3(0.8, 0.8, 0.75),
                                    vec3(0.55, 0.75, 0.4), vec3(0.8, 0.4, 0.45), vec3(0.6, 0.5, 0.8));
    vec3 base = u_mode.x == 1.0 ? u_color.rgb : palette[(v_body * 2654435761u >> 16u) % 6u];
    vec3 n = normalize(v_normal);
    float lambert = max(dot(n, normalize(u_light.xyz)), 0.0);
    o_color = vec4(base * (0.3 + 0.7 * lambert), u_color.a);
}
