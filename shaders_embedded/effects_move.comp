#version 430 core
// >>defines
#define GP_GROUP_SIZE 256
#define GP_KIND_FLUID 1u
#define GP_KIND_GRANULAR 2u
#define GP_KIND_RIGID 3u
#define GP_KIND_EFFECT 5u
#define GP_GRID_BOUNDED 1
#define GP_GRID_HASHED 2
#define GP_MAX_FLUID_MATERIALS 8u
#define GP_MAX_FORCES 8u
#define GP_MAX_COLLIDERS 32u
#define GP_MAX_GRANULAR_MATERIALS 8u
#define GP_MAX_EFFECT_MATERIALS 8u
#define GP_WALL_SAMPLES 32u
#define GP_FLAG_DETERMINISTIC 1u
#define GP_INTEGRATOR_MASK 3u
#define GP_FLAG_ARTIFICIAL_VISCOSITY 256u
#define GP_SHAPE_SPHERE 1.0
#define GP_SHAPE_BOX 2.0
#define GP_SHAPE_CAPSULE 3.0
#define GP_SHAPE_PLANE 4.0
#define GP_SHAPE_MESH 5.0
#define GP_SHAPE_HEIGHTFIELD 6.0
#define GP_SCAN_CHUNK 32u
#define GP_SORT_RUN 16u
#define GP_BINDING_POSITION 0
#define GP_BINDING_VELOCITY 1
#define GP_BINDING_INFO 2
#define GP_BINDING_LIFE 3
#define GP_BINDING_WIND 4
#define GP_BINDING_FIELDS 6
#define GP_BINDING_STATS 7
// <<defines
// effects_move: the effect particles' motion (002 section 4.2) and their bounce off the colliders
// (002 section 4.6), the effects' own stage at the end of the substep (section >>effects). Each
// effect particle of phase m (its gp_effects[m] row: linear drag k, restitution e, friction mu)
// ages by the substep h and flies under a = gravity + the user's forces + k wind(x), less k v
// (the wind, gp_wind_at, taken where the substep starts):
//   v(h) = a / k + (v - a / k) e^(-k h),  x(h) = x + a h / k + (v - a / k) (1 - e^(-k h)) / k
// (exact for a constant a; k = 0: v + a h, x + v h + a h^2 / 2), so that a flight matches its
// closed form at any substep. A particle whose move ends closer to a collider than its radius
// (gp_boundary, every collider, height fields included) backs up to where it crossed that
// distance (the paper's back-up: the fraction of the move, linear in the distances at its two
// ends), its velocity there reflected: the normal part reversed and scaled by e, the tangential
// part slowed by Coulomb friction (mu (1 + e) |v_n|, to rest at most); the rest of the substep is
// flown from there with the new velocity. A particle that starts inside a wall is put on it.
// Non-finite results keep the old state and are counted (stat_bad_updates), as the solvers do.
// The speed it leaves goes into stat_max_speed, which sizes the substeps; each bounce is counted
// with the walls' pushes (stat_wall_pushes).
// >>include gp_common.glsl
// gp_common.glsl: included first by every gpuparticle.h compute shader.
// The constants that C and GLSL share (GP_GROUP_SIZE, the kinds, the tables' sizes, the shapes,
// the chunk and run lengths of the scan and the sort) are not written here: the header defines
// them from its own C values after the #version line (section >>shaders, gp__shader_constants).
// The flat index of a workgroup in a dispatch that the host split into x * y groups (GL
// guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).

uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }

// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume
// finite math and fold it away.
bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }
bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }
// <<include gp_common.glsl
// >>include gp_world.glsl
// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.
// Mirrored by gp__world_params in gpuparticle.h (section >>structs), checked field by field by a test.
layout(std140, binding = 0) uniform gp_world_block {
    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cells per metre (1 / cell size)
    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)
    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (GP_FLAG_DETERMINISTIC)
};
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
// A product with the host's reciprocal, not a division: GLSL allows a division 2.5 ULP (NVIDIA's
// is not correctly rounded), and a particle on a cell's edge must fall in the same cell on every
// device and in the CPU references (tests/cpu_reference.c), as a product rounded once does.
// precise: no compiler may fuse the difference and the product into p * w - origin * w.
vec3 gp_grid_cell_float(vec3 p) {
    precise vec3 offset = p - gp_grid_origin.xyz;
    precise vec3 cells = offset * gp_grid_origin.w;
    return floor(cells);
}

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
// gp_particles.glsl: a particle's info word (gp_particle_info in gpuparticle.h): info.y holds the
// kind (bits 0-7, GP_KIND_*) and the phase (bits 16-31). The store's buffers are in gp_buffers.glsl.
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// Grains and rigid bodies' particles: the DEM's kinds, and the fluid's boundary (gp_coupling.glsl).
bool gp_is_solid(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }
// <<include gp_particles.glsl
// >>include gp_solver.glsl
// gp_solver.glsl: the solvers' parameters, one std140 uniform block at binding 1.
// Mirrored by gp__solver_params in gpuparticle.h (section >>structs), checked field by field by a test.

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

// A collider (section >>colliders of gpuparticle.h fills these):
//   a = (centre xyz, a capsule's first end xyz, a plane's point xyz, a mesh field's origin xyz, or
//       a height field's first point (x, base y, z); shape type)
//   b = sphere (0, 0, 0, radius); box (half extents, 0); capsule (its second end xyz, radius: the
//       ends are centre -+ half_height axis); plane (unit normal, 0); mesh (samples along x, y, z
//       as floats, voxel size); height field (points along x, along z, dx, dz)
//   c = (side: -1 keeps particles inside the shape, +1 outside; mesh, height field: first
//       sample's index as float bits; unused, unused)
struct gp_collider_shape { vec4 a; vec4 b; vec4 c; };

layout(std140, binding = 1) uniform gp_solver_block {
    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)
    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit
                              // Euler; GP_INTEGRATOR_MASK) | GP_FLAG_ARTIFICIAL_VISCOSITY, w bodies
    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];
    gp_force_field gp_forces[GP_MAX_FORCES];
    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];
    gp_granular gp_granulars[GP_MAX_GRANULAR_MATERIALS];
    vec4 gp_effects[GP_MAX_EFFECT_MATERIALS];   // effect materials: x drag k (1/s), y restitution, z friction mu
    vec4 gp_wind[6];   // the wind (gp_wind_set): uniform xyz; vortex centre xyz, speed; its unit axis xyz,
                       // radius; the grid's first node xyz, cell (0: no grid); its nodes along x, y, z;
                       // curl noise: speed (0: none), scale, seed (uint bits)
};

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
// >>include gp_buffers.glsl
// gp_buffers.glsl: the world's shader storage buffers, each declared once, by role. Which roles a
// program binds, and where, is its row of the binding plan (gpuparticle.h, section >>shaders,
// gp__binding_plans): the header defines GP_BINDING_<ROLE> for each role of the row and for no
// other, so that a pass which reads a buffer its row does not give it fails to compile, and no
// binding ever means two buffers inside one program.
//
// The particle store, struct of arrays (gp_particle_position ... gp_particle_life in the header,
// section >>docs). Slots [0, gp_counts.x) are live; after a grid build they are in cell order.
#ifdef GP_BINDING_POSITION
layout(std430, binding = GP_BINDING_POSITION) buffer gp_position_block { vec4 gp_position[]; };  // xyz metres, w radius
#endif
#ifdef GP_BINDING_VELOCITY
layout(std430, binding = GP_BINDING_VELOCITY) buffer gp_velocity_block { vec4 gp_velocity[]; };  // xyz m/s, w mass kg
#endif
#ifdef GP_BINDING_INFO
layout(std430, binding = GP_BINDING_INFO) buffer gp_info_block { uvec4 gp_info[]; };  // id, kind|flags<<8|phase<<16, owner, user
#endif
#ifdef GP_BINDING_LIFE
layout(std430, binding = GP_BINDING_LIFE) buffer gp_life_block { vec2 gp_life[]; };  // age s, lifetime s (0 forever)
#endif
// Between two grid builds the store's spare buffers are free for the solvers: the fluid's
// (density kg/m^3, pressure Pa) in the 8-byte spare, every solver's acceleration (m/s^2) in the
// 16-byte spare. Both stay readable until the next build, which reuses them.
#ifdef GP_BINDING_DENSITY
layout(std430, binding = GP_BINDING_DENSITY) buffer gp_density_block { vec2 gp_density[]; };
#endif
#ifdef GP_BINDING_ACCELERATION
layout(std430, binding = GP_BINDING_ACCELERATION) buffer gp_acceleration_block { vec4 gp_acceleration[]; };
#endif
// The continuity model's carried density per slot (kg/m^3; 0: not yet set, the rest density), unused.
#ifdef GP_BINDING_FLUID_STATE
layout(std430, binding = GP_BINDING_FLUID_STATE) buffer gp_state_block { vec2 gp_state[]; };
#endif

// The grid (section >>grid): a cell key and an order entry per particle, a count and a start per
// bucket (plus two), the slot of each id.
#ifdef GP_BINDING_CELL_KEY
layout(std430, binding = GP_BINDING_CELL_KEY) buffer cell_key_block { uint cell_key[]; };
#endif
#ifdef GP_BINDING_CELL_COUNT
layout(std430, binding = GP_BINDING_CELL_COUNT) buffer cell_count_block { uint cell_count[]; };
#endif
#ifdef GP_BINDING_CELL_START
layout(std430, binding = GP_BINDING_CELL_START) readonly buffer cell_start_block { uint cell_start[]; };
#endif
#ifdef GP_BINDING_ORDER
layout(std430, binding = GP_BINDING_ORDER) buffer order_block { uint order[]; };
#endif
#ifdef GP_BINDING_SLOT_OF_ID
layout(std430, binding = GP_BINDING_SLOT_OF_ID) buffer slot_of_id_block { uint slot_of_id[]; };
#endif

// The world's statistics: the grid's three words, then the solvers'.
#ifdef GP_BINDING_STATS
layout(std430, binding = GP_BINDING_STATS) buffer gp_stats_block {
    uint stat_outside;        // particles outside a bounded grid or the hash's range
    uint stat_nonfinite;      // particles with a NaN or infinite coordinate
    uint stat_truncated;      // neighbour loops that visited fewer candidates than the buckets held
    uint stat_max_speed;      // float bits of the largest speed (non-negative floats order as uints)
    uint stat_min_density;    // float bits
    uint stat_max_density;    // float bits
    uint stat_wall_pushes;    // particles put back out of a wall in the last substep
    uint stat_bad_updates;    // non-finite updates since the world was made
    // The step's clock (step_clock.comp): the host writes these at the start of a step,
    uint clock_start;         // 1: the step's first substep is next (step_clock clears it)
    uint clock_dt;            // float bits: the step's dt (s)
    uint clock_planned;       // float bits: the host's substep, (dt + time owed) / substeps
    uint clock_substeps;      // the step's substeps
    uint clock_speed;         // float bits: the fastest speed the host knows of (m/s)
    uint clock_sound;         // float bits: the fluids' largest speed of sound (m/s)
    uint clock_spacing;       // float bits: the smallest spacing (m) of the CFL condition
    uint clock_max_cfl;       // float bits: gp_step_desc's max_cfl; 0: the caller fixed the substeps
    uint clock_limit;         // float bits: the longest substep viscosity, diffusion and contacts allow (s)
    // and step_clock keeps these:
    uint clock_remaining;     // float bits: what the step still has to run (s)
    uint clock_left;          // substeps left in the step
    uint clock_clean;         // 1 while every substep of the step is the host's
    uint clock_h;             // float bits: the substep running now (s), copied into gp_gravity.w
    uint clock_lag;           // float bits: what the last step could not run, owed to the next (s)
    uint clock_cfl;           // float bits: the largest CFL number a substep of the step started with
    uint stat_padding;        // the block a whole number of 16 bytes, on every driver
};
#endif

// The colliders' mesh distance fields, one after another (section >>colliders).
#ifdef GP_BINDING_FIELDS
layout(std430, binding = GP_BINDING_FIELDS) readonly buffer gp_field_block { float gp_field[]; };
#endif
// The rigid bodies' shapes: every shape's particle offsets in its principal frame (section >>rigid).
#ifdef GP_BINDING_OFFSETS
layout(std430, binding = GP_BINDING_OFFSETS) readonly buffer gp_offsets_block { vec4 gp_offsets[]; };
#endif
// The rigid bodies' buffer: first a vec4 per slot, the contact torque about the particle's centre
// that dem_contact leaves for a rigid particle (N m), then from vec4 gp_counts.z (the store's
// capacity) on, six vec4s per body (gp_dem.glsl's gp_body).
#ifdef GP_BINDING_BODIES
layout(std430, binding = GP_BINDING_BODIES) buffer gp_rigid_block { vec4 gp_rigid[]; };
#endif
// <<include gp_buffers.glsl
// >>include gp_boundary.glsl
// gp_boundary.glsl: the boundary's signed distance function (001 section 3.3): the union of every
// collider's wall. Needs gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (the FIELDS role) first.
// Each function returns vec4(unit normal towards the free side, distance), the distance positive
// where particles may be and negative inside a wall.
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
// <<include gp_boundary.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

// The wind's grid of velocities (gp_wind_set): three floats a node, x fastest.
layout(std430, binding = GP_BINDING_WIND) readonly buffer gp_wind_block { float gp_wind_grid[]; };

vec3 gp_wind_node(ivec3 c, ivec3 dims) {
    uint at = 3u * uint(c.x + dims.x * (c.y + dims.y * c.z));
    return vec3(gp_wind_grid[at], gp_wind_grid[at + 1u], gp_wind_grid[at + 2u]);
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

// The flight of t seconds from (x, v) under a, with linear drag k: exact for a constant a.
void gp_effect_fly(inout vec3 x, inout vec3 v, vec3 a, float k, float t) {
    if (k * t < 1e-4) {   // the limit k -> 0 (and what float keeps of a tiny k t)
        x += v * t + 0.5 * a * t * t;
        v += a * t;
        return;
    }
    float decay = exp(-k * t);
    vec3 terminal = a / k;
    x += terminal * t + (v - terminal) * (1.0 - decay) / k;
    v = terminal + (v - terminal) * decay;
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    if (gp_kind_of(info) != GP_KIND_EFFECT) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    if (!gp_finite3(p.xyz)) return;   // kept in the grid's extra bucket, not moved
    vec4 m = gp_effects[min(gp_phase_of(info), GP_MAX_EFFECT_MATERIALS - 1u)];
    float h = gp_gravity.w, r = p.w;
    vec3 a = gp_gravity.xyz + gp_user_forces(p.xyz) + m.x * gp_wind_at(p.xyz);   // -k (v - wind): the drag's wind part
    vec3 x = p.xyz, u = v.xyz;
    vec4 before = gp_boundary(x);
    if (before.w < r) { x += (r - before.w) * before.xyz; before.w = r; }   // started inside: onto the wall
    vec3 start = x, start_v = u;
    gp_effect_fly(x, u, a, m.x, h);
    vec4 after = gp_boundary(x);
    if (after.w < r) {   // crossed: back up to the crossing, reflect, fly the rest
        float f = clamp((before.w - r) / max(before.w - after.w, 1e-30), 0.0, 1.0);
        x = start; u = start_v;
        gp_effect_fly(x, u, a, m.x, f * h);
        vec4 wall = gp_boundary(x);
        if (wall.w < r) x += (r - wall.w) * wall.xyz;
        u = gp_effect_bounce(u, wall.xyz, m.y, m.z);
        gp_effect_fly(x, u, a, m.x, (1.0 - f) * h);
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
    gp_life[i].x += h;
    atomicMax(stat_max_speed, floatBitsToUint(length(u)));
}
