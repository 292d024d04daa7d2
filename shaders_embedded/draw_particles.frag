#version 430 core
// draw_particles.frag: shades a point of draw_particles.vert as a lit sphere and writes its depth.
in vec3 v_color;
in vec3 v_center;
in float v_radius;
layout(location = 1) uniform mat4 u_projection;
layout(location = 2) uniform vec4 u_color;
layout(location = 4) uniform vec4 u_light;
out vec4 o_color;
void main() {
    vec2 c = gl_PointCoord * 2.0 - 1.0;
    c.y = -c.y;
    float r2 = dot(c, c);
    if (r2 > 1.0) discard;
    vec3 n = vec3(c, sqrt(1.0 - r2));
    vec4 clip = u_projection * vec4(v_center + n * v_radius, 1.0);
    gl_FragDepth = clip.z / clip.w * 0.5 + 0.5;
    vec3 l = normalize(u_light.xyz);
    float diffuse = max(dot(n, l), 0.0);
    float specular = pow(max(dot(n, normalize(l + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);
    o_color = vec4(v_color * (0.35 + 0.65 * diffuse) + 0.25 * specular, u_color.a);
}
