#version 430 core
// effects_move: the effect particles' motion (Kipfer et al. 2004, section 4.2) and their bounce off
// the colliders (section 4.6), the effects' own stage at the end of the substep (the header's
// section >>effects). Each effect particle of phase m (its gp_effects[m] row: linear drag k,
// restitution e, friction mu) flies under a = gravity + the user's forces + k wind(x), less k v
// (the wind, gp_wind_at, taken where the substep starts):
//   v(h) = a / k + (v - a / k) e^(-k h),  x(h) = x + a h / k + (v - a / k) (1 - e^(-k h)) / k
// (exact for a constant a, in a form that keeps its digits: gp_effect_fly; k = 0: v + a h,
// x + v h + a h^2 / 2), so that a flight matches its closed form at any substep. A particle whose move ends closer to a collider than its radius
// (gp_boundary, every collider, height fields included) backs up to where it crossed that
// distance (the paper's back-up: the fraction of the move, linear in the distances at its two
// ends), its velocity there reflected: the normal part reversed and scaled by e, the tangential
// part slowed by Coulomb friction (mu (1 + e) |v_n|, to rest at most); the rest of the substep is
// flown from there with the new velocity. A particle that starts inside a wall is put on it.
// Non-finite results keep the old state and are counted (stat_bad_updates), as the solvers do.
// The speed it leaves goes into stat_max_speed, which sizes the substeps; each bounce is counted
// with the walls' pushes (stat_wall_pushes). Another system's data it reads: the fluid's
// particles (positions, velocities, masses, materials) through the grid, for the ride; it writes
// effect particles only.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_particles.glsl"
#include "gp_solver.glsl"
#include "gp_buffers.glsl"
#include "gp_boundary.glsl"
#include "gp_sph.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

// A node of the wind's grid of velocities (gp_wind_set): three floats a node, x fastest, in the
// FIELDS buffer after the colliders' fields, from float gp_wind[4].w's bits on.
vec3 gp_wind_node(ivec3 c, ivec3 dims) {
    uint at = floatBitsToUint(gp_wind[4].w) + 3u * uint(c.x + dims.x * (c.y + dims.y * c.z));
    return vec3(gp_field[at], gp_field[at + 1u], gp_field[at + 2u]);
}

// Value noise in [-1, 1] at q (noise units): random values on the integer lattice (the grid's
// hash, gp_hash_mix, of the corner and the seed), blended by the quintic 6t^5 - 15t^4 + 10t^3,
// whose first and second derivatives are continuous.
float gp_noise_corner(ivec3 c, uint seed) {
    uint h = gp_hash_mix(uint(c.x) * 0x8da6b343u ^ gp_hash_mix(uint(c.y) * 0xd8163841u ^ gp_hash_mix(uint(c.z) * 0xcb1ab31fu ^ seed)));
    return float(h >> 8) / 8388607.5 - 1.0;
}
float gp_value_noise(vec3 q, uint seed) {
    vec3 i = floor(q), f = q - i;
    vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    ivec3 c = ivec3(i);
    float x00 = mix(gp_noise_corner(c, seed), gp_noise_corner(c + ivec3(1, 0, 0), seed), u.x);
    float x10 = mix(gp_noise_corner(c + ivec3(0, 1, 0), seed), gp_noise_corner(c + ivec3(1, 1, 0), seed), u.x);
    float x01 = mix(gp_noise_corner(c + ivec3(0, 0, 1), seed), gp_noise_corner(c + ivec3(1, 0, 1), seed), u.x);
    float x11 = mix(gp_noise_corner(c + ivec3(0, 1, 1), seed), gp_noise_corner(c + ivec3(1, 1, 1), seed), u.x);
    return mix(mix(x00, x10, u.y), mix(x01, x11, u.y), u.z);
}

// Curl-noise turbulence (Bridson et al. 2007): the curl of a potential of three value noises,
// so that the air neither gathers nor spreads (divergence-free), with features `scale` metres
// wide; derivatives by central differences a hundredth of a feature apart. GP_CURL_RMS makes its
// rms speed about `speed` (measured over many features, test effects_wind_noise).
#define GP_CURL_RMS 0.50
vec3 gp_curl_noise(vec3 p, float scale, float speed, uint seed) {
    const float e = 0.01;
    vec3 q = p / scale;
    vec3 dx = vec3(e, 0.0, 0.0), dy = vec3(0.0, e, 0.0), dz = vec3(0.0, 0.0, e);
    float dzy = gp_value_noise(q + dy, seed + 2u) - gp_value_noise(q - dy, seed + 2u);
    float dyz = gp_value_noise(q + dz, seed + 1u) - gp_value_noise(q - dz, seed + 1u);
    float dxz = gp_value_noise(q + dz, seed) - gp_value_noise(q - dz, seed);
    float dzx = gp_value_noise(q + dx, seed + 2u) - gp_value_noise(q - dx, seed + 2u);
    float dyx = gp_value_noise(q + dx, seed + 1u) - gp_value_noise(q - dx, seed + 1u);
    float dxy = gp_value_noise(q + dy, seed) - gp_value_noise(q - dy, seed);
    return (GP_CURL_RMS * speed / (2.0 * e)) * vec3(dzy - dyz, dxz - dzx, dyx - dxy);
}

// Riding the fluid (foam and spray on a wave): the fluid's velocity at p, how full of
// fluid p's neighbourhood is and its density there (for the buoyancy), gp_fluid_sample's.
#include "gp_fluid_sample.glsl"

// The wind at p: the uniform wind, the Rankine vortex (solid inside its radius R, falling as 1/r
// outside: speed s r / R, then s R / r, counter-clockwise about the axis), the grid's,
// trilinear between its nodes, the nearest face's beyond it, and the curl noise.
vec3 gp_wind_at(vec3 p) {
    vec3 w = gp_wind[0].xyz;
    if (gp_wind[1].w != 0.0) {
        vec3 axis = gp_wind[2].xyz, d = p - gp_wind[1].xyz;
        vec3 radial = d - dot(d, axis) * axis;
        float r = length(radial), R = gp_wind[2].w;
        if (r > 0.0) w += (gp_wind[1].w * (r < R ? r / R : R / r) / r) * cross(axis, radial);
    }
    if (gp_wind[3].w > 0.0) {
        ivec3 dims = ivec3(gp_wind[4].xyz);
        vec3 g = clamp((p - gp_wind[3].xyz) / gp_wind[3].w, vec3(0.0), vec3(dims - 1));
        ivec3 c = min(ivec3(g), dims - 2);
        vec3 f = g - vec3(c);
        vec3 x00 = mix(gp_wind_node(c, dims), gp_wind_node(c + ivec3(1, 0, 0), dims), f.x);
        vec3 x10 = mix(gp_wind_node(c + ivec3(0, 1, 0), dims), gp_wind_node(c + ivec3(1, 1, 0), dims), f.x);
        vec3 x01 = mix(gp_wind_node(c + ivec3(0, 0, 1), dims), gp_wind_node(c + ivec3(1, 0, 1), dims), f.x);
        vec3 x11 = mix(gp_wind_node(c + ivec3(0, 1, 1), dims), gp_wind_node(c + ivec3(1, 1, 1), dims), f.x);
        w += mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
    }
    if (gp_wind[5].x != 0.0) w += gp_curl_noise(p, gp_wind[5].y, gp_wind[5].x, floatBitsToUint(gp_wind[5].z));
    return w;
}

// A bounce off a wall of unit normal n (pointing to the free side) at velocity v, when v heads
// into it: the normal part reversed and scaled by e, the tangential slowed by mu (1 + e) |v_n|
// (Coulomb's impulse), to rest at most.
vec3 gp_effect_bounce(vec3 v, vec3 n, float e, float mu) {
    float vn = dot(v, n);
    if (vn >= 0.0) return v;
    vec3 tangent = v - vn * n;
    float vt = length(tangent), slow = mu * (1.0 + e) * -vn;
    return (vt > slow ? tangent * (1.0 - slow / vt) : vec3(0.0)) - e * vn * n;
}

// The flight of t seconds from (x, v) under a, with linear drag k: exact for a constant a,
//   v(t) = v + (a - k v) t phi(z),  x(t) = x + v t phi(z) + a t^2 psi(z),  z = k t,
// phi(z) = (1 - e^-z) / z and psi(z) = (1 - phi(z)) / z, by their series below z = 0.1 (where
// 1 - e^-z loses the float's digits: the form a / k + (v - a / k) e^-z lost 5e-6 m in a step of
// 1/240 s at k = 0.5 / s); at z = 0 the drag-free flight, v + a t and x + v t + a t^2 / 2.
void gp_effect_fly(inout vec3 x, inout vec3 v, vec3 a, float k, float t) {
    float z = k * t, phi, psi;
    if (z < 0.1) {
        phi = 1.0 - z * (0.5 - z * (1.0 / 6.0 - z * (1.0 / 24.0 - z * (1.0 / 120.0))));
        psi = 0.5 - z * (1.0 / 6.0 - z * (1.0 / 24.0 - z * (1.0 / 120.0 - z * (1.0 / 720.0))));
    } else {
        phi = (1.0 - exp(-z)) / z;
        psi = (1.0 - phi) / z;
    }
    x += v * (t * phi) + a * (t * t * psi);
    v += (a - k * v) * (t * phi);
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_EFFECT) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    if (!gp_finite3(p.xyz)) return;   // kept in the grid's extra bucket, not moved
    gp_effect material = gp_effects[min(gp_phase_of(info), GP_MAX_EFFECT_MATERIALS - 1u)];
    vec4 m = material.motion;
    float h = gp_gravity.w, r = p.w;
    vec3 a = gp_gravity.xyz + gp_user_forces(p.xyz) + m.x * gp_wind_at(p.xyz);   // -k (v - wind): the drag's wind part
    float k = m.x;
    if (m.w > 0.0) {   // riding: a pull of rate ride phi towards the fluid's velocity, on top of the drag
        gp_fluid_sample s = gp_fluid_sample_at(p.xyz, 0.0);
        vec3 gp_center = p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_fluid_sample_term(k, end, cell, s)
#define GP_NEIGHBOR_BATCH 8
#include "gp_neighbors.glsl"
        if (s.filled > 0.0) {   // and Archimedes: the weight of the fluid it displaces (a sphere of radius r), as far as it is in it
            float pull = m.w * min(s.filled, 1.0), displaced = 4.18879020479 * r * r * r * (s.rho / s.filled);
            a += pull * (s.velocity / s.filled) - gp_gravity.xyz * (displaced / v.w) * min(s.filled, 1.0);
            k += pull;
        }
    }
    vec3 x = p.xyz, u = v.xyz;
    if (material.contact.x > 0.0) u += gp_acceleration[i].xyz * h;   // its collisions' change (effects_collide)
    vec4 before = gp_boundary(x);
    if (before.w < r) { x += (r - before.w) * before.xyz; before.w = r; }   // started inside: onto the wall
    vec3 start = x, start_v = u;
    gp_effect_fly(x, u, a, k, h);
    vec4 after = gp_boundary(x);
    if (after.w < r) {   // crossed: back up to the crossing, reflect, fly the rest
        float f = clamp((before.w - r) / max(before.w - after.w, 1e-30), 0.0, 1.0);
        x = start; u = start_v;
        gp_effect_fly(x, u, a, k, f * h);
        vec4 wall = gp_boundary(x);
        if (wall.w < r) x += (r - wall.w) * wall.xyz;
        u = gp_effect_bounce(u, wall.xyz, m.y, m.z);
        gp_effect_fly(x, u, a, k, (1.0 - f) * h);
        wall = gp_boundary(x);
        if (wall.w < r) {   // in again (resting on the wall, a corner, a second wall): put on it, bounced
            x += (r - wall.w) * wall.xyz;
            u = gp_effect_bounce(u, wall.xyz, m.y, m.z);
        }
    }
    if (!gp_finite3(x) || !gp_finite3(u)) { atomicAdd(stat_bad_updates, 1u); return; }
    if (after.w < r) atomicAdd(stat_wall_pushes, 1u);   // a bounce, counted with the walls' pushes
    gp_position[i] = vec4(x, r);
    gp_velocity[i] = vec4(u, v.w);
    atomicMax(stat_max_speed, floatBitsToUint(length(u)));
}
