#version 430 core
// draw_sprites.vert: gp_draw_effects, a camera-facing square per sprite (sprite_gather wrote them in
// drawing order), two triangles from gl_VertexID, as wide as the sprite's size in view space.
layout(location = 0) in vec4 a_sprite;   // centre (m), size (m)
layout(location = 1) in vec4 a_color;
layout(location = 0) uniform mat4 u_view;
layout(location = 1) uniform mat4 u_projection;
out vec2 v_corner;
out vec4 v_color;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec4 view = u_view * vec4(a_sprite.xyz, 1.0);
    view.xy += corner * a_sprite.w;
    gl_Position = u_projection * view;
    v_corner = corner;
    v_color = a_color;
}
