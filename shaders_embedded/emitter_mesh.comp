#version 430 core
// emitter_mesh: a mesh emitter's births of a substep (GP_EMITTER_MESH, section >>emitters), one
// invocation each: birth j draws its triangle by area (the first of the emitter's whose cumulative
// share of the area, w of its first corner, exceeds a uniform number: a binary search) and a point
// on it uniform in area (barycentric coordinates 1 - sqrt(u), sqrt(u) (1 - v), sqrt(u) v), and
// leaves along the triangle's normal (counter-clockwise seen from that side) within the spread,
// at a speed and with a lifetime from the ranges. Slot, id and what is written as every emitter's
// (gp_birth.glsl). Effects and grains only: the fluid's carried density is not bound here.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_particles.glsl"
#include "gp_emitter.glsl"
#include "gp_buffers.glsl"
#include "gp_birth.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;
layout(std430, binding = GP_BINDING_TRIANGLES) readonly buffer triangle_block { vec4 triangles[]; };   // three corners each
layout(location = 0) uniform uint u_emitter;

void main() {
    uint j = gp_global_index(), e = u_emitter;
    if (j >= gp_emission.x) return;
    uint slot, id;
    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;
    uint seed = gp_emitters[e].info.w, serial = gp_emitters[e].births.z + j;
    vec3 a = gp_random3(seed, serial, 0u), b = gp_random3(seed, serial, 1u), c = gp_random3(seed, serial, 2u);
    uint low = gp_emitters[e].mesh.x, high = low + gp_emitters[e].mesh.y - 1u;
    while (low < high) {
        uint middle = (low + high) / 2u;
        if (triangles[3u * middle].w <= a.x) low = middle + 1u; else high = middle;
    }
    vec3 p0 = triangles[3u * low].xyz, p1 = triangles[3u * low + 1u].xyz, p2 = triangles[3u * low + 2u].xyz, t, s;
    float r = sqrt(a.y);
    vec3 p = gp_emitters[e].position.xyz + (1.0 - r) * p0 + r * (1.0 - a.z) * p1 + r * a.z * p2;
    vec3 normal = normalize(cross(p1 - p0, p2 - p0));
    gp_basis(normal, t, s);
    vec4 motion = gp_emitters[e].motion, life = gp_emitters[e].life;
    gp_birth_write(slot, id, p, mix(motion.x, motion.y, b.z) * gp_emitter_direction(normal, t, s, gp_emitters[e].axis.w, b.xy), motion.zw,
                   gp_emitters[e].info.xyz, mix(life.x, life.y, c.x));
}
