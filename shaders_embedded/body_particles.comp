#version 430 core
// body_particles: stage 1 of 000 section 29.2, the particle values from the bodies (eqs. 18-20):
//   r_k = q r0_k q*, x_k = X + r_k, v_k = V + W x r_k
// for every rigid particle in the store, whose owner is its body and whose id is the body's first
// id plus k.
// >>include gp_common.glsl
// gp_common.glsl: included first by every gpuparticle.h compute shader.
// Workgroup size and the flat index of a workgroup in a dispatch that the host split into x * y
// groups (GL guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).
#ifndef GP_GROUP_SIZE
#define GP_GROUP_SIZE 256
#endif

uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }

// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume
// finite math and fold it away.
bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }
bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }
// <<include gp_common.glsl
// >>include gp_world.glsl
// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.
// Mirrored by gp__world_params in gpuparticle.h (section >>grid); keep both in step.
layout(std140, binding = 0) uniform gp_world_block {
    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cell size (metres)
    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)
    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (1 deterministic)
};

#define GP_GRID_BOUNDED 1
#define GP_GRID_HASHED 2
// <<include gp_world.glsl
// >>include gp_grid.glsl
// gp_grid.glsl: cell addressing shared by the grid build and every neighbour loop.
// Needs gp_common.glsl and gp_world.glsl first.
//
// A bucket is a cell of the bounded grid (x + nx * (y + ny * z)) or a slot of the hash table.
// Bucket gp_counts.y, one past the last, holds particles whose position is NaN or infinite:
// they stay in the store, sorted last, and no neighbour loop visits them.
// Hashed cell coordinates are clamped to +-GP_HASH_CELL_LIMIT so that integer maths never
// overflows; a particle beyond that is counted as outside, like one outside a bounded grid.
#define GP_HASH_CELL_LIMIT 1073741823.0

// The unclamped cell coordinates of a finite position, as floats (no integer overflow).
vec3 gp_grid_cell_float(vec3 p) { return floor((p - gp_grid_origin.xyz) / gp_grid_origin.w); }

// The cell of unclamped coordinates c. Bounded: clamped into the border cells, so a particle
// outside the box still has a cell and is found by its neighbours (clamping never moves two cells
// apart). Hashed: clamped into the hash's range.
ivec3 gp_grid_clamp_cell(vec3 c) {
    if (gp_grid_dims.w == GP_GRID_BOUNDED)
        return clamp(ivec3(clamp(c, vec3(-1.0), vec3(gp_grid_dims.xyz))), ivec3(0), gp_grid_dims.xyz - 1);
    return ivec3(clamp(c, vec3(-GP_HASH_CELL_LIMIT), vec3(GP_HASH_CELL_LIMIT)));
}

// The cell a finite position lies in.
ivec3 gp_grid_cell(vec3 p) { return gp_grid_clamp_cell(gp_grid_cell_float(p)); }

// True when unclamped coordinates c lie inside the grid's domain (the box, or the hash's range).
bool gp_grid_inside(vec3 c) {
    if (gp_grid_dims.w == GP_GRID_BOUNDED)
        return all(greaterThanEqual(c, vec3(0.0))) && all(lessThan(c, vec3(gp_grid_dims.xyz)));
    return all(lessThanEqual(abs(c), vec3(GP_HASH_CELL_LIMIT)));
}

// True when cell c can hold particles: inside the box (bounded) or inside the hash's range.
bool gp_grid_cell_exists(ivec3 c) {
    if (gp_grid_dims.w == GP_GRID_BOUNDED)
        return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, gp_grid_dims.xyz));
    return all(lessThanEqual(abs(c), ivec3(int(GP_HASH_CELL_LIMIT))));
}

// Finaliser of MurmurHash3: spreads neighbouring cells over the whole table.
uint gp_hash_mix(uint h) {
    h ^= h >> 16; h *= 0x85ebca6bu;
    h ^= h >> 13; h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// Hashed: the 4 x 4 x 4 block of cells is hashed, and its 64 cells take 64 consecutive buckets,
// so that cells next to each other stay near each other in memory (a particle that crosses into a
// neighbouring cell moves a short way in the store; a neighbour loop reads nearby buckets). The
// table is a power of two: a mask, not a division (which CPU SIMD lacks).
uint gp_grid_bucket(ivec3 c) {
    if (gp_grid_dims.w == GP_GRID_BOUNDED)
        return uint(c.x) + uint(gp_grid_dims.x) * (uint(c.y) + uint(gp_grid_dims.y) * uint(c.z));
    ivec3 block = c >> 2;   // arithmetic shift: floor division by 4, negative cells included
    uint h = gp_hash_mix(uint(block.x) * 0x8da6b343u ^ gp_hash_mix(uint(block.y) * 0xd8163841u ^ gp_hash_mix(uint(block.z) * 0xcb1ab31fu)));
    uint local = (uint(c.x) & 3u) | (uint(c.y) & 3u) << 2u | (uint(c.z) & 3u) << 4u;
    return (h << 6u | local) & (gp_counts.y - 1u);
}

// With hashing, distant cells share buckets: a neighbour loop keeps a candidate only when its own
// cell is the cell being visited. A bounded grid has one cell per bucket and needs no test.
bool gp_grid_same_cell(vec3 candidate, ivec3 cell) {
    return gp_grid_dims.w == GP_GRID_BOUNDED || gp_grid_cell(candidate) == cell;
}

uint gp_grid_invalid_bucket() { return gp_counts.y; }
// <<include gp_grid.glsl
// >>include gp_particles.glsl
// gp_particles.glsl: the particle store, struct of arrays, one SSBO per attribute.
// Mirrored by gp_particle_position, gp_particle_velocity, gp_particle_info and gp_particle_life in
// gpuparticle.h (section >>buffers). Slots [0, gp_counts.x) are live; after a grid build they are
// in cell order.
layout(std430, binding = 0) buffer gp_position_block { vec4 gp_position[]; };  // xyz metres, w radius
layout(std430, binding = 1) buffer gp_velocity_block { vec4 gp_velocity[]; };  // xyz m/s, w mass kg
layout(std430, binding = 2) buffer gp_info_block { uvec4 gp_info[]; };         // id, kind|flags<<8|phase<<16, owner, user
layout(std430, binding = 3) buffer gp_life_block { vec2 gp_life[]; };          // age s, lifetime s (0 forever)

// info.y: bits 0-7 the kind (gp_kind in gpuparticle.h), 16-31 the phase.
#define GP_KIND_FLUID 1u
#define GP_KIND_GRANULAR 2u
#define GP_KIND_RIGID 3u
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// <<include gp_particles.glsl
// >>include gp_solver.glsl
// gp_solver.glsl: the solvers' parameters, one std140 uniform block at binding 1.
// Mirrored by gp__solver_params in gpuparticle.h (section >>sph); keep both in step.
#define GP_MAX_FLUID_MATERIALS 8u
#define GP_MAX_FORCES 8u
#define GP_MAX_COLLIDERS 32u
#define GP_WALL_SAMPLES 32u
#define GP_MAX_GRANULAR_MATERIALS 8u

// One fluid material (001): its constants, kernel coefficients and wall weight tables.
struct gp_fluid {
    vec4 shape;               // x spacing l0 (m), y smoothing radius re (m), z rest density (kg/m^3), w stiffness k
    vec4 flow;                // x kinematic viscosity nu (m^2/s), y rest pressure p0 (Pa), z mass (kg), w 1 = allow tension
    vec4 kernel;              // x poly6 315/(64 pi re^9), y spiky gradient 45/(pi re^6), z viscosity Laplacian 45/(pi re^6), w re^2
    vec4 table;               // x the tables' sample spacing s (m): l0 / 2j with j whole, so that l0 / 2 is a sample
    vec4 wall_density[8];     // Z_rho (eq. 13) at d = k s, k = 0..31, four per vec4 (kg/m^3)
    vec4 wall_viscosity[8];   // the wall's share of the viscosity sum at the same distances (1/m^2)
    vec4 wall_gradient[8];    // A, M_n and M_t of the walls' pressure term (gp_sph.glsl, gp_wall)
    vec4 wall_normal[8];
    vec4 wall_tangent[8];
};

// One granular material (000): the contact parameters of its grains and of rigid particles of its
// phase. contact = (stiffness k N/m, damping eta N s/m, shear k_t N s/m, friction mu),
// grain = (diameter m, mass kg, 0, 0).
struct gp_granular { vec4 contact; vec4 grain; };

// A user force: a = (center xyz, type 1 uniform / 2 radial), b = (vector xyz or strength in x, radius).
struct gp_force_field { vec4 a; vec4 b; };

// A collider (section >>sph of gpuparticle.h fills these):
//   a = (centre xyz, or mesh field origin xyz; shape type)
//   b = sphere (0, 0, 0, radius); box (half extents, 0); capsule (end xyz, radius); plane (unit
//       normal, 0); mesh (samples along x, y, z as floats, voxel size)
//   c = (side: -1 keeps particles inside the shape, +1 outside; mesh: first sample's index as
//       float bits; unused, unused)
struct gp_collider_shape { vec4 a; vec4 b; vec4 c; };

layout(std140, binding = 1) uniform gp_solver_block {
    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)
    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit Euler), w bodies
    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];
    gp_force_field gp_forces[GP_MAX_FORCES];
    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];
    gp_granular gp_granulars[GP_MAX_GRANULAR_MATERIALS];
};

#define GP_SHAPE_SPHERE 1.0
#define GP_SHAPE_BOX 2.0
#define GP_SHAPE_CAPSULE 3.0
#define GP_SHAPE_PLANE 4.0
#define GP_SHAPE_MESH 5.0

// The user's forces at p (gp_forces_set).
vec3 gp_user_forces(vec3 p) {
    vec3 a = vec3(0.0);
    for (uint f = 0u; f < gp_solver_counts.y; ++f) {
        vec4 fa = gp_forces[f].a, fb = gp_forces[f].b;
        vec3 d = fa.xyz - p;
        float l = length(d);
        if (fa.w == 1.0) {
            if (fb.w <= 0.0 || l < fb.w) a += fb.xyz;
        } else if (l > 0.0 && (fb.w <= 0.0 || l < fb.w)) {
            a += (fb.x * (fb.w > 0.0 ? 1.0 - l / fb.w : 1.0) / l) * d;
        }
    }
    return a;
}
// <<include gp_solver.glsl
// >>include gp_boundary.glsl
// gp_boundary.glsl: the boundary's signed distance function (001 section 3.3): the union of every
// collider's wall. Needs gp_common.glsl and gp_solver.glsl first; reads mesh fields at binding 6.
// Each function returns vec4(unit normal towards the free side, distance), the distance positive
// where particles may be and negative inside a wall.
layout(std430, binding = 6) readonly buffer gp_field_block { float gp_field[]; };

// Shapes as usual signed distance functions, positive outside the shape, with their gradients.
vec4 gp_sphere_sdf(vec3 p, vec3 c, float r) {
    vec3 d = p - c;
    float l = length(d);
    return vec4(l > 0.0 ? d / l : vec3(0.0, 1.0, 0.0), l - r);
}

vec4 gp_box_sdf(vec3 p, vec3 c, vec3 h) {
    vec3 d = p - c;
    vec3 s = vec3(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0, d.z < 0.0 ? -1.0 : 1.0);
    vec3 q = abs(d) - h;
    if (any(greaterThan(q, vec3(0.0)))) {
        vec3 o = max(q, vec3(0.0));
        float l = length(o);
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
    float beyond = length(g - gc) * s.b.w;
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

// One collider's free distance: the shape's own, turned inside out for a container (side -1).
vec4 gp_collider_distance(uint index, vec3 p) {
    gp_collider_shape s = gp_colliders[index];
    vec4 r;
    if (s.a.w == GP_SHAPE_SPHERE) r = gp_sphere_sdf(p, s.a.xyz, s.b.w);
    else if (s.a.w == GP_SHAPE_BOX) r = gp_box_sdf(p, s.a.xyz, s.b.xyz);
    else if (s.a.w == GP_SHAPE_CAPSULE) r = gp_capsule_sdf(p, s.a.xyz, s.b.xyz, s.b.w);
    else if (s.a.w == GP_SHAPE_PLANE) r = vec4(s.b.xyz, dot(p - s.a.xyz, s.b.xyz));
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
// <<include gp_boundary.glsl
// >>include gp_dem.glsl
// gp_dem.glsl: what the DEM passes share (000): the contact model, the rigid bodies' records and
// quaternions. Needs gp_common.glsl, gp_particles.glsl, gp_solver.glsl and gp_boundary.glsl first.
//
// A pass's force output is the 16-byte spare (binding 4), as for the fluid: after the contact pass
// it holds, per slot, a grain's acceleration (contact force / mass + gravity + your forces) and a
// rigid particle's contact force / mass (its body adds gravity once).
layout(std430, binding = 4) buffer gp_acceleration_block { vec4 gp_acceleration[]; };
// The words of the world's statistics buffer (as gp_sph.glsl names them).
layout(std430, binding = 7) buffer gp_stats_block {
    uint stat_outside; uint stat_nonfinite; uint stat_truncated;
    uint stat_max_speed; uint stat_min_density; uint stat_max_density; uint stat_wall_pushes;
    uint stat_bad_updates;
};

// The rigid bodies' buffer (binding 3): first a vec4 per slot, the contact torque about the
// particle's centre that dem_contact leaves for a rigid particle (N m), then from vec4 gp_counts.z
// (the store's capacity) on, six vec4s per body.
layout(std430, binding = 3) buffer gp_rigid_block { vec4 gp_rigid[]; };

// A rigid body (mirrored by gp__body_gpu in gpuparticle.h, section >>dem):
//   x = (centre of mass X, 1 / M); q = orientation (x, y, z, s); p = (linear momentum P, particle
//   mass); l = (angular momentum L, 0); inertia = (1 / principal moments, 0);
//   particles = (first id, count, first offset, shape). Particle k has id first + k and offset
//   gp_offsets[first offset + k] in the principal frame.
struct gp_body { vec4 x; vec4 q; vec4 p; vec4 l; vec4 inertia; uvec4 particles; };

gp_body gp_body_load(uint b) {
    uint at = gp_counts.z + 6u * b;
    gp_body body;
    body.x = gp_rigid[at];
    body.q = gp_rigid[at + 1u];
    body.p = gp_rigid[at + 2u];
    body.l = gp_rigid[at + 3u];
    body.inertia = gp_rigid[at + 4u];
    body.particles = floatBitsToUint(gp_rigid[at + 5u]);
    return body;
}
void gp_body_store(uint b, gp_body body) {   // what moves
    uint at = gp_counts.z + 6u * b;
    gp_rigid[at] = body.x;
    gp_rigid[at + 1u] = body.q;
    gp_rigid[at + 2u] = body.p;
    gp_rigid[at + 3u] = body.l;
}

uint gp_grain_material(uvec4 info) { return min(gp_phase_of(info), GP_MAX_GRANULAR_MATERIALS - 1u); }
bool gp_is_dem(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }

// Quaternions (x, y, z, s): v rotated by q (eq. 18), and the product a * b (000's appendix).
vec3 gp_rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }
vec4 gp_quat_mul(vec4 a, vec4 b) { return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz)); }
// The world angular velocity W = I(t)^-1 L = R diag(1 / lambda) R^T L (eqs. 5-6).
vec3 gp_body_omega(gp_body b) {
    vec4 inverse = vec4(-b.q.xyz, b.q.w);
    return gp_rotate(b.q, b.inertia.xyz * gp_rotate(inverse, b.l.xyz));
}

// The contact force on particle i from a partner in direction n (unit, i to partner), overlapping
// by `overlap`, whose surface at the contact point moves at vij relative to i's; c = (k, eta,
// k_t, mu). Eqs. 10-13: a spring and a
// dashpot along n, a viscous shear across it, the shear capped by Coulomb's mu times the normal
// push (never by a pull). Swapping i and the partner negates it exactly.
vec3 gp_contact(vec3 n, float overlap, vec3 vij, vec4 c) {
    float vn = dot(vij, n);
    vec3 ft = c.z * (vij - vn * n);
    float limit = c.w * max(0.0, c.x * overlap - c.y * vn);
    float t = length(ft);
    if (t > limit) ft *= limit / t;
    return (c.y * vn - c.x * overlap) * n + ft;
}

// One contact of particle i (velocity v, spin w: 0 for a grain; radius r) with a partner in
// direction n overlapping by `overlap`, whose surface moves at `partner` at the contact point: adds
// the force to f and its torque about i's centre to torque. The contact point is where the two
// spheres' surfaces meet halfway through the overlap, at (r - overlap / 2) n from i's centre, and
// the velocities are the surfaces' there, so that a spinning body's particles roll and grip.
void gp_touch(vec3 n, float overlap, vec3 v, vec3 w, float r, vec3 partner, vec4 c, inout vec3 f, inout vec3 torque) {
    vec3 lever = (r - 0.5 * overlap) * n;
    vec3 force = gp_contact(n, overlap, partner - (v + cross(w, lever)), c);
    f += force;
    torque += cross(lever, force);
}

// Contact with the walls: every collider within r pushes, and a container box's six faces each
// push as a plane wall (a grain in a corner touches three). Walls are still.
void gp_wall_contact(vec3 p, vec3 v, vec3 w, float r, vec4 c, inout vec3 f, inout vec3 torque) {
    for (uint k = 0u; k < gp_solver_counts.x; ++k) {
        gp_collider_shape s = gp_colliders[k];
        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {
            vec3 low = s.b.xyz + (p - s.a.xyz), high = s.b.xyz - (p - s.a.xyz);   // to each face
            for (int a = 0; a < 3; ++a) {
                vec3 e = vec3(0.0);
                e[a] = 1.0;
                if (low[a] < r) gp_touch(-e, r - low[a], v, w, r, vec3(0.0), c, f, torque);
                if (high[a] < r) gp_touch(e, r - high[a], v, w, r, vec3(0.0), c, f, torque);
            }
        } else {
            vec4 d = gp_collider_distance(k, p);
            if (d.w < r) gp_touch(-d.xyz, r - d.w, v, w, r, vec3(0.0), c, f, torque);
        }
    }
}
// <<include gp_dem.glsl
layout(std430, binding = 6) readonly buffer gp_offsets_block { vec4 gp_offsets[]; };
layout(local_size_x = GP_GROUP_SIZE) in;
void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_RIGID || info.z >= gp_solver_counts.w) return;
    gp_body body = gp_body_load(info.z);
    vec3 r = gp_rotate(body.q, gp_offsets[body.particles.z + (info.x - body.particles.x)].xyz);
    gp_position[i].xyz = body.x.xyz + r;
    gp_velocity[i].xyz = body.p.xyz * body.x.w + cross(gp_body_omega(body), r);
}
