#version 430 core
// draw_sprites.frag: a soft disc, its colour's alpha falling off as (1 - r^2)^2 to its rim.
in vec2 v_corner;
in vec4 v_color;
out vec4 o_color;
void main() {
    float r2 = dot(v_corner, v_corner);
    if (r2 > 1.0) discard;
    o_color = vec4(v_color.rgb, v_color.a * (1.0 - r2) * (1.0 - r2));
}
