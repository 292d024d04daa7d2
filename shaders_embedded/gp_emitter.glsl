// gp_emitter.glsl: the emitters' table (section >>emitters), one std140 uniform block at binding 2,
// mirrored by gp__emitter_gpu and gp__emission in gpuparticle.h (checked field by field by a
// test), and the counter-based random numbers every birth draws.
struct gp_emitter {
    vec4 position;   // xyz centre (m), w shape (GP_EMITTER_*)
    vec4 axis;       // xyz unit direction, w spread: the half-angle of the directions about it (radians)
    vec4 extent;     // xyz a box's half extents (m), w a sphere's, disc's or cone's radius (m)
    vec4 motion;     // x, y the speed's range (m/s), z the particles' radius (m), w their mass (kg)
    vec4 life;       // x, y the lifetime's range (s; 0 0: forever), z, w unused
    uvec4 info;      // x kind | phase << 16, y owner (the emitter's number), z user word, w seed
    uvec4 births;    // x this substep's first birth that is this emitter's, y how many, z the serial
                     // number of its first (the emitter's births before), w unused
    vec4 size;       // the radius's factor at ages 0, 1/3, 2/3 and 1 of the lifetime (linear between)
    vec4 color[4];   // RGBA at the same ages
    uvec4 mesh;      // GP_EMITTER_MESH: x its first triangle in the triangles' buffer, y its triangles
};
layout(std140, binding = 2) uniform gp_emitter_block {
    uvec4 gp_emission;   // x births this substep (every emitter's), y emitters in the table, z births
                         // that take never-used ids, w the first of those ids
    gp_emitter gp_emitters[GP_MAX_EMITTERS];
};

// pcg3d (Jarzynski and Olano 2020, "Hash Functions for GPU Rendering", JCGT 9(3)): three
// well-mixed words from three, the counter-based random numbers of the births: (seed, serial,
// stream) gives the same numbers on every device and at any substep.
uvec3 gp_pcg3d(uvec3 v) {
    v = v * 1664525u + 1013904223u;
    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;
    v ^= v >> 16u;
    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;
    return v;
}
// Three uniform numbers in [0, 1), 24 bits each (exact in a float).
vec3 gp_random3(uint seed, uint serial, uint stream) { return vec3(gp_pcg3d(uvec3(seed, serial, stream)) >> 8u) * (1.0 / 16777216.0); }

// A direction uniform over the cap of half-angle spread about the unit axis (its cosine uniform in
// [cos spread, 1]), from two uniform numbers u; t and s complete the axis to a basis.
vec3 gp_emitter_direction(vec3 axis, vec3 t, vec3 s, float spread, vec2 u) {
    float cosine = 1.0 - u.x * (1.0 - cos(spread)), sine = sqrt(max(1.0 - cosine * cosine, 0.0)), psi = 6.28318530718 * u.y;
    return cosine * axis + sine * (cos(psi) * t + sin(psi) * s);
}

// Two unit vectors completing n (unit) to an orthonormal basis (Duff et al. 2017, "Building an
// Orthonormal Basis, Revisited", JCGT 6(1)).
void gp_basis(vec3 n, out vec3 t, out vec3 b) {
    float s = n.z >= 0.0 ? 1.0 : -1.0, a = -1.0 / (s + n.z), c = n.x * n.y * a;
    t = vec3(1.0 + s * n.x * n.x * a, s * c, -s * n.x);
    b = vec3(c, s + n.y * n.y * a, -n.y);
}

// An emitter's curve at a particle's age: the four keys at 0, 1/3, 2/3 and 1 of its lifetime,
// linear between (a lifetime of 0, forever: the first key). Returns the size factor; color gets
// the colour.
float gp_emitter_look(uint e, vec2 life, out vec4 color) {
    float t = life.y > 0.0 ? 3.0 * clamp(life.x / life.y, 0.0, 1.0) : 0.0;
    uint k = min(uint(t), 2u);
    float w = t - float(k);
    color = mix(gp_emitters[e].color[k], gp_emitters[e].color[k + 1u], w);
    return mix(gp_emitters[e].size[k], gp_emitters[e].size[k + 1u], w);
}
