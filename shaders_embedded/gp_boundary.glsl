// gp_boundary.glsl: the boundary's signed distance function (Harada et al. 2007a, section 3.3): the
// union of every collider's wall. Needs gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (the
// FIELDS role) first.
// Each function returns vec4(unit normal towards the free side, distance), the distance positive
// where particles may be and negative inside a wall.
// Shapes as usual signed distance functions, positive outside the shape, with their gradients.
vec4 gp_sphere_sdf(vec3 p, vec3 c, float r) {
    vec3 d = p - c;
    float l = gp_length(d);
    return vec4(l > 0.0 ? d / l : vec3(0.0, 1.0, 0.0), l - r);
}

vec4 gp_box_sdf(vec3 p, vec3 c, vec3 h) {
    vec3 d = p - c;
    vec3 s = vec3(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0, d.z < 0.0 ? -1.0 : 1.0);
    vec3 q = abs(d) - h;
    if (any(greaterThan(q, vec3(0.0)))) {
        vec3 o = max(q, vec3(0.0));
        float l = gp_length(o);
        return vec4(s * o / l, l);
    }
    // inside: the nearest face
    if (q.x >= q.y && q.x >= q.z) return vec4(s.x, 0.0, 0.0, q.x);
    if (q.y >= q.z) return vec4(0.0, s.y, 0.0, q.y);
    return vec4(0.0, 0.0, s.z, q.z);
}

vec4 gp_capsule_sdf(vec3 p, vec3 a, vec3 b, float r) {
    vec3 ab = b - a;
    float len2 = dot(ab, ab);
    float t = len2 > 0.0 ? clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return gp_sphere_sdf(p, a + t * ab, r);
}

// A mesh's distance field, trilinear between samples; beyond the field's box, the distance at
// the nearest point of the box plus the way there. dims >= 2 on every axis.
float gp_field_distance(gp_collider_shape s, vec3 p) {
    vec3 dims = s.b.xyz;
    vec3 g = (p - s.a.xyz) / s.b.w;
    vec3 gc = clamp(g, vec3(0.0), dims - 1.0);
    float beyond = gp_length(g - gc) * s.b.w;
    ivec3 i0 = min(ivec3(gc), ivec3(dims) - 2);
    vec3 f = gc - vec3(i0);
    uint nx = uint(dims.x), nxy = nx * uint(dims.y);
    uint base = floatBitsToUint(s.c.y) + uint(i0.x) + nx * uint(i0.y) + nxy * uint(i0.z);
    float c00 = mix(gp_field[base], gp_field[base + 1u], f.x);
    float c10 = mix(gp_field[base + nx], gp_field[base + nx + 1u], f.x);
    float c01 = mix(gp_field[base + nxy], gp_field[base + nxy + 1u], f.x);
    float c11 = mix(gp_field[base + nxy + nx], gp_field[base + nxy + nx + 1u], f.x);
    return mix(mix(c00, c10, f.y), mix(c01, c11, f.y), f.z) + beyond;
}

vec4 gp_field_sdf(gp_collider_shape s, vec3 p) {
    float h = 0.5 * s.b.w;
    vec3 n = vec3(gp_field_distance(s, p + vec3(h, 0.0, 0.0)) - gp_field_distance(s, p - vec3(h, 0.0, 0.0)),
                  gp_field_distance(s, p + vec3(0.0, h, 0.0)) - gp_field_distance(s, p - vec3(0.0, h, 0.0)),
                  gp_field_distance(s, p + vec3(0.0, 0.0, h)) - gp_field_distance(s, p - vec3(0.0, 0.0, h)));
    float l = length(n);
    return vec4(l > 0.0 ? n / l : vec3(0.0, 1.0, 0.0), gp_field_distance(s, p));
}

// A height field (GP_SHAPE_HEIGHTFIELD): a = (its first point x, base y, z), b = (points along x,
// along z, dx, dz), c.y the first height's index as float bits. The height is bilinear between
// the points; beyond the rectangle the edge's height and slope (clamped: the distance stays
// continuous across the edge); the distance is the height above it along the normal of its local
// tangent plane, (p.y - h) / sqrt(1 + |grad h|^2).
vec4 gp_height_sdf(gp_collider_shape s, vec3 p) {
    vec2 cells = s.b.xy - 1.0;
    vec2 u = (p.xz - s.a.xz) / s.b.zw;
    vec2 g = clamp(u, vec2(0.0), cells);
    vec2 i0 = min(floor(g), cells - 1.0);
    vec2 f = g - i0;
    uint nx = uint(s.b.x), at = floatBitsToUint(s.c.y) + uint(i0.x) + nx * uint(i0.y);
    float h00 = gp_field[at], h10 = gp_field[at + 1u], h01 = gp_field[at + nx], h11 = gp_field[at + nx + 1u];
    float h = mix(mix(h00, h10, f.x), mix(h01, h11, f.x), f.y);
    vec2 slope = vec2(mix(h10 - h00, h11 - h01, f.y) / s.b.z, mix(h01 - h00, h11 - h10, f.x) / s.b.w);
    vec3 n = normalize(vec3(-slope.x, 1.0, -slope.y));
    return vec4(n, (p.y - s.a.y - h) * n.y);
}

// One collider's free distance: the shape's own, turned inside out for a container (side -1).
vec4 gp_collider_distance(uint index, vec3 p) {
    gp_collider_shape s = gp_colliders[index];
    vec4 r;
    if (s.a.w == GP_SHAPE_SPHERE) r = gp_sphere_sdf(p, s.a.xyz, s.b.w);
    else if (s.a.w == GP_SHAPE_BOX) r = gp_box_sdf(p, s.a.xyz, s.b.xyz);
    else if (s.a.w == GP_SHAPE_CAPSULE) r = gp_capsule_sdf(p, s.a.xyz, s.b.xyz, s.b.w);
    else if (s.a.w == GP_SHAPE_PLANE) r = vec4(s.b.xyz, dot(p - s.a.xyz, s.b.xyz));
    else if (s.a.w == GP_SHAPE_HEIGHTFIELD) r = gp_height_sdf(s, p);
    else r = gp_field_sdf(s, p);
    return s.c.x < 0.0 ? -r : r;
}

// The boundary at p: the nearest wall over all colliders; distance 3.4e38 with none.
vec4 gp_boundary(vec3 p) {
    vec4 best = vec4(0.0, 1.0, 0.0, 3.4e38);
    for (uint c = 0u; c < gp_solver_counts.x; ++c) {
        vec4 r = gp_collider_distance(c, p);
        if (r.w < best.w) best = r;
    }
    return best;
}
