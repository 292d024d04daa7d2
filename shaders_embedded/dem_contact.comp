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
#define GP_KIND_CLOTH 4u
#define GP_PARTICLE_DEAD 256u
#define GP_NO_SLOT 4294967295u
#define GP_MAX_EMITTERS 32u
#define GP_EMITTER_SPHERE 2.0
#define GP_EMITTER_BOX 3.0
#define GP_EMITTER_DISC 4.0
#define GP_EMITTER_CONE 5.0
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
#define GP_GRID_CROWD 256u
#define GP_ARGS_RANK 0u
#define GP_ARGS_IDS 1u
#define GP_ARGS_SORT_LOCAL 2u
#define GP_ARGS_SORT_HALF 3u
#define GP_ARGS_SORT_QUARTER 4u
#define GP_BINDING_POSITION 0
#define GP_BINDING_VELOCITY 1
#define GP_BINDING_INFO 2
#define GP_BINDING_BODIES 3
#define GP_BINDING_ACCELERATION 4
#define GP_BINDING_CELL_START 5
#define GP_BINDING_HISTORY 6
#define GP_BINDING_STATS 7
// <<defines
// dem_contact: the contact force on every grain and rigid particle from the others (000 sections
// 29.1.5, 29.2.5): the spring, dashpot and shear of eqs. 10-13 with Cundall and Strack's shear
// spring and a Coulomb cap (gp_dem.glsl, gp_contact) from every granular or rigid particle that it
// overlaps, found through the shared grid's 27 cells around it. Two particles of one body do not
// touch. Forces act at the contact points, with the surfaces' velocities there (a rigid particle's
// includes its body's spin). Each pair is computed in the order of its ids, by both particles, from
// the spring its particle of lower id kept last substep, which keeps this substep's: the forces
// are exactly opposite. Leaves the force (N) in the acceleration and a rigid particle's torque
// about its centre in its torque slot for dem_walls, which adds the walls' and makes them accelerations.
// The grid's cells must be at least as wide as the largest contact distance (checked on the host).
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

// |v| for any finite v: length() squares the components, and a vector longer than about 1.8e19
// came out infinite (a particle 1e30 m out of a box collider got an infinite distance, a zero
// normal, and from the walls' push 0 * inf, NaN).
float gp_length(vec3 v) {
    float m = max(abs(v.x), max(abs(v.y), abs(v.z)));
    return m > 1e18 ? m * length(v / m) : length(v);
}

// A uint that orders as the float does, negative values too (gp_float_sort_key in C): the sort
// keys of a depth.
uint gp_float_key(float x) { uint b = floatBitsToUint(x); return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u); }
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
// they stay in the store, after every other live particle, and no neighbour loop visits them.
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
// The c-th (0 to 26) of the 27 cells around home, home itself among them.
ivec3 gp_grid_around(ivec3 home, int c) { return home + ivec3(c % 3, (c / 3) % 3, c / 9) - 1; }

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
// The bucket after it holds the dead (gp_dead): the build's counting sort puts them after every
// live particle, where store_free gives their ids back and store_count cuts them off the count.
uint gp_grid_dead_bucket() { return gp_counts.y + 1u; }
// <<include gp_grid.glsl
// >>include gp_particles.glsl
// gp_particles.glsl: a particle's info word (gp_particle_info in gpuparticle.h): info.y holds the
// kind (bits 0-7, GP_KIND_*), the flags (bits 8-15) and the phase (bits 16-31). The store's buffers
// are in gp_buffers.glsl.
uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }
uint gp_phase_of(uvec4 info) { return info.y >> 16u; }
// Grains and rigid bodies' particles: the DEM's kinds, and the fluid's boundary (gp_coupling.glsl).
bool gp_is_solid(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }
// Dead: removed (GP_PARTICLE_DEAD, set by gp_particles_remove) or as old as its lifetime (0:
// forever). The next grid build takes it out of the store and gives its id back (section >>grid).
bool gp_dead(uvec4 info, vec2 life) { return (info.y & GP_PARTICLE_DEAD) != 0u || (life.y > 0.0 && life.x >= life.y); }
// Bodies' and cloth's particles live as long as their owner: never aged, never removed alone.
bool gp_owned(uint kind) { return kind == GP_KIND_RIGID || kind == GP_KIND_CLOTH; }
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
// grain = (diameter m, mass kg, shear spring k_s N/m (0: the viscous model), rolling friction mu_r).
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

// One effect material (gp_effect_material_set): motion = (drag k 1/s, restitution e of a bounce,
// friction mu, ride 1/s), contact = (restitution of collisions between effect particles, 0: none;
// unused x3).
struct gp_effect { vec4 motion; vec4 contact; };

layout(std140, binding = 1) uniform gp_solver_block {
    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)
    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit
                              // Euler; GP_INTEGRATOR_MASK) | GP_FLAG_ARTIFICIAL_VISCOSITY, w bodies
    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];
    gp_force_field gp_forces[GP_MAX_FORCES];
    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];
    gp_granular gp_granulars[GP_MAX_GRANULAR_MATERIALS];
    gp_effect gp_effects[GP_MAX_EFFECT_MATERIALS];
    vec4 gp_wind[6];   // the wind (gp_wind_set): uniform xyz; vortex centre xyz, speed; its unit axis xyz,
                       // radius; the grid's first node xyz, cell (0: no grid); its nodes along x, y, z,
                       // its first float in gp_field (uint bits);
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
// Deterministic builds: each particle's (id, slot) filed in its bucket's range, in no set order
// (grid_rank.comp), for the spare8 buffer the reorder fills later.
#ifdef GP_BINDING_RANKED
layout(std430, binding = GP_BINDING_RANKED) buffer ranked_block { uvec2 ranked[]; };
#endif
#ifdef GP_BINDING_SLOT_OF_ID
layout(std430, binding = GP_BINDING_SLOT_OF_ID) buffer slot_of_id_block { uint slot_of_id[]; };
#endif

// The store's count and free ids (section >>grid, gp__store_words): the count lives on the GPU, so
// that particles are born and die there and no call reads it back to know what to dispatch.
#ifdef GP_BINDING_STORE
layout(std430, binding = GP_BINDING_STORE) buffer gp_store_block {
    uint store_count;         // slots in use: [0, store_count), live, and until the next build the dead
    uint store_died;          // particles the builds took out, since the world was made
    uint store_free_head;     // the free-id queue: free_ids[(head + k) % (2 capacity)], k < free_count,
    uint store_free_count;    // oldest first
    uint store_check;         // scratch counts: a removal's check (particles it may not remove), gp_particles_check's
    uint store_dispatch_x;    // glDispatchComputeIndirect's three words: one invocation per slot in use
    uint store_dispatch_y;
    uint store_dispatch_z;
    uint store_draw_count;    // glDrawArraysIndirect's four: store_count points from slot 0
    uint store_draw_instances;
    uint store_draw_first;
    uint store_draw_base;
    uint store_refused;       // removals by flag buffer refused on the GPU (a body's or cloth's particle flagged)
    uint store_refused_births; // emitters' births with no room or no id, since the world was made
    uint store_spray;         // a spray emitter's sources this substep (the compaction's count)
    uint store_padding;       // the block a whole number of 16 bytes, on every driver
};
#endif
// Ids given back by the builds, waiting to be given again (the queue of gp_store_block), 2 capacity.
#ifdef GP_BINDING_FREE_IDS
layout(std430, binding = GP_BINDING_FREE_IDS) buffer gp_free_ids_block { uint free_ids[]; };
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
    uint clock_limit;         // float bits: the longest substep viscosity and diffusion allow (s)
    // and step_clock keeps these:
    uint clock_remaining;     // float bits: what the step still has to run (s)
    uint clock_left;          // substeps left in the step
    uint clock_clean;         // 1 while every substep of the step is the host's
    uint clock_h;             // float bits: the substep running now (s), copied into gp_gravity.w
    uint clock_lag;           // float bits: what the last step could not run, owed to the next (s)
    uint clock_cfl;           // float bits: the largest CFL number a substep of the step started with
    uint stat_unkept;         // contacts that found no free slot to keep their spring in (gp_dem.glsl), since the world was made
    // The contacts' look-ahead: the contact passes (dem_contact, dem_walls) write the first two
    // every substep, the host the next three at the start of a step, step_clock the last:
    uint stat_solid_gap;      // float bits: the smallest gap (m) the contact passes saw between two solids or a solid and a wall (0: touching)
    uint stat_solid_radius;   // float bits: the largest radius of a solid particle (m)
    uint clock_contact;       // float bits: the longest substep that resolves a contact (s; above 3e38: none)
    uint clock_free;          // float bits: the host's substep without the contacts' limit (s)
    uint clock_reach;         // float bits: the grid's cell size (m): solids farther apart than it are not seen
    uint clock_accel;         // float bits: the largest acceleration gravity and the forces give (m/s^2)
    uint clock_near;          // 1: a substep of the step had a contact, or one that might begin within it
    uint stat_crowded;        // particles past the GP_GRID_CROWD-th of their bucket at the last build (grid_count)
};
#endif

// The colliders' mesh distance fields, one after another (section >>colliders).
#ifdef GP_BINDING_FIELDS
layout(std430, binding = GP_BINDING_FIELDS) readonly buffer gp_field_block { float gp_field[]; };
#endif
// The DEM's contacts kept from substep to substep (gp_dem.glsl, gp_kept_spring): two blocks per slot.
#ifdef GP_BINDING_HISTORY
layout(std430, binding = GP_BINDING_HISTORY) buffer gp_history_block { uvec4 gp_history[]; };
#endif
// The coupling's drag (coupling_drag): per slot of a grain the fluid drags, the force it put on the
// grain (N) and the weights it summed, sum V_j W_j (0: no fluid near), for coupling_drag_fluid; then,
// from vec4 gp_counts.z (the store's capacity) on, a uint per bucket of the grid (as float bits,
// four to a vec4): the substep's stamp where a dragged grain's 27 cells include one of the
// bucket's, so that fluid elsewhere skips its search (gp_coupling.glsl's gp_drag_bucket_word).
#ifdef GP_BINDING_DRAG
layout(std430, binding = GP_BINDING_DRAG) buffer gp_drag_block { vec4 gp_drag[]; };
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
// >>include gp_quaternion.glsl
// gp_quaternion.glsl: rotations by unit quaternions (x, y, z, s), for the bodies' passes and
// their drawing (000 section 29.2).
// v rotated by q (eq. 18), and the product a * b (000's appendix).
vec3 gp_rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }
vec4 gp_quat_mul(vec4 a, vec4 b) { return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz)); }
// <<include gp_quaternion.glsl
// >>include gp_dem.glsl
// gp_dem.glsl: what the DEM passes share (000): the contact model and the rigid bodies' records.
// Needs gp_common.glsl, gp_particles.glsl, gp_solver.glsl, gp_buffers.glsl (the BODIES role) and
// gp_quaternion.glsl first (the HISTORY and STATS roles for the contacts kept). A pass's force
// output is the ACCELERATION role: after the contact passes (dem_contact, then dem_walls) it holds,
// per slot, a grain's acceleration (contact force / mass + gravity + your forces) and a
// rigid particle's contact force / mass (its body adds gravity once).

// A rigid body (mirrored by gp__body_gpu in gpuparticle.h, section >>structs):
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

// The world angular velocity W = I(t)^-1 L = R diag(1 / lambda) R^T L (eqs. 5-6).
vec3 gp_body_omega(gp_body b) {
    vec4 inverse = vec4(-b.q.xyz, b.q.w);
    return gp_rotate(b.q, b.inertia.xyz * gp_rotate(inverse, b.l.xyz));
}

// The contact force on particle a from a partner in direction n (unit, a to partner), overlapping
// by `overlap`, whose surface at the contact point moves at vij relative to a's; c = (k, eta, k_t,
// mu), ks the shear spring (N/m; 0: the viscous model). Eqs. 10-13: a spring and a dashpot along n;
// across it, Cundall and Strack's spring xi (the tangential displacement since the contact began:
// the one kept last substep, turned into today's contact plane by projection, plus this substep's
// sliding, as LAMMPS's gran/hooke/history) and the viscous shear; the two capped by Coulomb's mu
// times the normal push (never by a pull), and when capped the spring is cut back to hold just the
// sliding force (the contact slides). xi is last substep's in, this substep's out. With ks = 0 this
// is the paper's viscous shear. The pair passes compute it once per pair, in the order of the ids,
// so that the two particles' forces are exactly opposite.
vec3 gp_contact(vec3 n, float overlap, vec3 vij, vec4 c, float ks, inout vec3 xi) {
    float vn = dot(vij, n);
    vec3 vt = vij - vn * n;
    xi = xi - dot(xi, n) * n + vt * gp_gravity.w;
    vec3 ft = ks * xi + c.z * vt;
    float limit = c.w * max(0.0, c.x * overlap - c.y * vn);
    float t = length(ft);
    if (t > limit) {
        ft *= limit / t;
        if (ks > 0.0) xi = (ft - c.z * vt) / ks;
    }
    return (c.y * vn - c.x * overlap) * n + ft;
}

// One contact of particle a (velocity v, spin w: 0 for a grain; radius r) with a partner in
// direction n overlapping by `overlap`, whose surface moves at `partner` at the contact point:
// returns the force on a, and in lever the contact point from a's centre, where the two spheres'
// surfaces meet halfway through the overlap, (r - overlap / 2) n; the velocities are the surfaces'
// there, so that a spinning body's particles roll and grip.
vec3 gp_touch(vec3 n, float overlap, vec3 v, vec3 w, float r, vec3 partner, vec4 c, float ks, inout vec3 xi, out vec3 lever) {
    lever = (r - 0.5 * overlap) * n;
    return gp_contact(n, overlap, partner - (v + cross(w, lever)), c, ks, xi);
}

// A contact's dashpots (eta, k_t) are the material's for two grains; a rigid particle moves with
// its whole body, so a contact's are scaled by sqrt(M / m), M the pair's reduced mass with each
// rigid particle's body's mass in place of its own, m with the particles' own (a wall: infinite):
// every contact keeps the damping ratio, and so the restitution, that the material gives two
// grains, whatever the bodies weigh (LAMMPS's granular pair styles likewise take a rigid body's
// mass for its particles). mass = (the particles' reduced mass, the bodies').
vec4 gp_body_damping(vec4 c, vec2 mass) { return vec4(c.x, c.yz * sqrt(mass.y / mass.x), c.w); }
float gp_reduced_mass(float a, float b) { return a * b / (a + b); }

// Rolling resistance (a constant torque against the relative spin, model A of Ai, Chen, Rotter and
// Ooi 2011): on particle a, whose spin relative to its partner's is wr, of mean radius
// r = r_a r_b / (r_a + r_b) and reduced mass m (m_a m_b / (m_a + m_b)), pressed with `push`
// (N), rolling friction mu_r: -mu_r r push along wr, but never more than stops the spin of a
// ball of that mass and radius, (2/5) m r^2 |wr| / h, within the substep (no sign flip each substep
// once rolling stops: the model's known chatter). A ball rolling on a floor decelerates at
// (5/7) mu_r g. The partner gets the opposite torque.
vec3 gp_rolling(vec3 wr, float r, float m, float push, float mu_r) {
    float spin = length(wr);
    if (mu_r <= 0.0 || spin == 0.0) return vec3(0.0);
    float torque = min(mu_r * r * push, 0.4 * m * r * r * spin / gp_gravity.w);
    return (-torque / spin) * wr;
}

// The contacts kept from substep to substep (the HISTORY role; section >>dem of gpuparticle.h):
// per slot a block of u_slots + 1 uvec4s: a head (the particle's id, contacts kept, the substep's
// stamp, 0), then the contacts (the partner's id, or a wall's key; xi as float bits). The blocks
// the last substep wrote, moved into this substep's order by the grid build, at [0, capacity);
// this substep's at [capacity, 2 capacity). A pair is kept by its particle of lower id.
#ifdef GP_BINDING_HISTORY
layout(location = 8) uniform uint u_slots;   // contacts a particle keeps (gp_world_desc.contact_slots)
layout(location = 9) uniform uint u_stamp;   // this substep's number: the blocks of the last bear u_stamp - 1

uint gp_kept_block(uint slot) { return slot * (u_slots + 1u); }
uint gp_keep_block(uint slot) { return (gp_counts.z + slot) * (u_slots + 1u); }
// A wall's key: 2^31 + 8 collider + face (a container box's faces 0-5, any other collider 6).
uint gp_wall_key(uint collider, uint face) { return 0x80000000u | (collider * 8u + face); }

// The spring that particle `id`, in `slot`, kept last substep for `partner`; 0 when it kept none.
vec3 gp_kept_spring(uint slot, uint id, uint partner) {
    uint at = gp_kept_block(slot);
    uvec4 head = gp_history[at];
    if (head.x != id || head.z != u_stamp - 1u) return vec3(0.0);
    uint n = min(head.y, u_slots);
    for (uint e = 1u; e <= n; ++e) {
        uvec4 kept = gp_history[at + e];
        if (kept.x == partner) return uintBitsToFloat(kept.yzw);
    }
    return vec3(0.0);
}

// Keeps the spring xi for `partner` as contact number `kept` of the particle in `slot`: counted in
// the statistics instead when its slots are full (the contact then starts afresh next substep).
void gp_keep_spring(uint slot, inout uint kept, uint partner, vec3 xi) {
    if (kept >= u_slots) {
        atomicAdd(stat_unkept, 1u);
        return;
    }
    kept += 1u;
    gp_history[gp_keep_block(slot) + kept] = uvec4(partner, floatBitsToUint(xi));
}
#endif
// <<include gp_dem.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

// What particle i needs of itself in the loop.
struct gp_self { vec4 p; vec4 v; vec3 w; float body_mass; vec4 c; vec2 spring; uint id; uint owner; bool rigid; uint slot; };

// True when candidate k (info) is a solid that i may touch: a grain, or a body's particle of
// another body.
bool gp_contact_partner(gp_self s, uvec4 info) {
    uint kind = gp_kind_of(info);
    return gp_is_solid(kind) && !(s.rigid && kind == GP_KIND_RIGID && info.z == s.owner);
}

// Adds candidate slot k's contact force and torque; kept counts the contacts i keeps, gap keeps
// the smallest gap to a partner not touching (0 once one touches) for the clock's look-ahead
// (step_clock.comp).
void gp_contact_term(uint k, uint end, gp_self s, ivec3 cell, inout vec3 f, inout vec3 torque, inout uint kept, inout float gap) {
    if (k >= end || k == s.slot) return;
    vec4 q = gp_position[k];
    vec3 d = q.xyz - s.p.xyz;
    float reach = s.p.w + q.w, r2 = dot(d, d);
    if (r2 >= reach * reach || r2 == 0.0 || !gp_grid_same_cell(q.xyz, cell)) {
        float within = reach + gap;   // nearer than the nearest so far (nothing once one touches)
        if (r2 < within * within && gp_contact_partner(s, gp_info[k])) gap = max(sqrt(r2) - reach, 0.0);
        return;
    }
    uvec4 info = gp_info[k];
    uint kind = gp_kind_of(info);
    if (!gp_contact_partner(s, info)) return;
    gap = 0.0;
    gp_granular m = gp_granulars[gp_grain_material(info)];
    vec4 v = gp_velocity[k];
    vec3 w = vec3(0.0);
    float body_mass = v.w;
    if (kind == GP_KIND_RIGID) {
        gp_body body = gp_body_load(info.z);
        w = gp_body_omega(body);
        body_mass = 1.0 / body.x.w;
    }
    vec4 c = gp_body_damping(0.5 * (s.c + m.contact), vec2(gp_reduced_mass(s.v.w, v.w), gp_reduced_mass(s.body_mass, body_mass)));
    vec2 spring = 0.5 * (s.spring + m.grain.zw);   // k_s, rolling friction
    // the pair from its particle of lower id, a, towards b: one computation for both
    bool first = s.id < info.x;
    vec4 pa = first ? s.p : q, pb = first ? q : s.p, va = first ? s.v : v, vb = first ? v : s.v;
    vec3 wa = first ? s.w : w, wb = first ? w : s.w;
    vec3 xi = spring.x > 0.0 ? gp_kept_spring(first ? s.slot : k, first ? s.id : info.x, first ? info.x : s.id) : vec3(0.0);
    vec3 ab = pb.xyz - pa.xyz;
    float r = sqrt(r2), overlap = reach - r;
    vec3 n = ab / r, lever;
    vec3 partner = vb.xyz + cross(wb, -(pb.w - 0.5 * overlap) * n);
    vec3 force = gp_touch(n, overlap, va.xyz, wa, pa.w, partner, c, spring.x, xi, lever);
    vec3 rolling = gp_rolling(wa - wb, pa.w * pb.w / (pa.w + pb.w), va.w * vb.w / (va.w + vb.w), max(0.0, -dot(force, n)), spring.y);
    if (first) {
        f += force;
        torque += cross(lever, force) + rolling;
        if (spring.x > 0.0) gp_keep_spring(s.slot, kept, info.x, xi);
    } else {
        f -= force;
        torque += cross((s.p.w - 0.5 * overlap) * -n, -force) - rolling;
    }
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    uint kind = gp_kind_of(info);
    if (!gp_is_solid(kind)) return;
    vec4 p = gp_position[i], v = gp_velocity[i];
    uint kept = 0u;
    vec3 f = vec3(0.0), torque = vec3(0.0);
    // the gap the clock's look-ahead needs: only below the cell less this particle's diameter, the
    // least bound the clock takes for the pairs not seen (a grain as wide as the cell: none)
    float cell_size = 1.0 / gp_grid_origin.w, gap = max(cell_size - 2.0 * p.w, 0.0);
    bool look = gap > 0.0;
    if (gp_finite3(p.xyz)) {   // else it meets no one
        gp_granular m = gp_granulars[gp_grain_material(info)];
        gp_self s;
        s.p = p;
        s.v = v;
        s.c = m.contact;
        s.spring = m.grain.zw;
        s.id = info.x;
        s.owner = info.z;
        s.rigid = kind == GP_KIND_RIGID;
        s.slot = i;
        s.w = vec3(0.0);
        s.body_mass = v.w;
        if (s.rigid) {
            gp_body body = gp_body_load(s.owner);
            s.w = gp_body_omega(body);
            s.body_mass = 1.0 / body.x.w;
        }
        // One candidate per iteration: 4.5 times faster on llvmpipe than the fluid's eight (grains
        // keep apart, so a neighbourhood holds tens of candidates).
        vec3 gp_center = s.p.xyz;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_contact_term(k, end, s, cell, f, torque, kept, gap)
#define GP_NEIGHBOR_BATCH 1
// >>include gp_neighbors.glsl
// gp_neighbors.glsl: the neighbour loop, written once for every pass that visits neighbours
// (grid_neighbors, sph_density, sph_continuity, sph_force, dem_contact). It visits the 27 cells
// around gp_center's cell (skipping those outside a bounded grid), reads each cell's bucket from
// cell_start, and hands every candidate slot of it to the pass's hook. A pass includes it inside
// its main(), after it has
//   vec3 gp_center;                          the position whose neighbourhood is visited (finite)
//   #define GP_NEIGHBOR_VISIT(k, end, cell)  a statement for candidate slot k of bucket end's
//                                            visited cell: it checks k < end (a batch runs past
//                                            the end), k's own cell (gp_grid_same_cell: distant
//                                            cells share hashed buckets) and the distance
//   #define GP_NEIGHBOR_BATCH 8 or 1         candidates per iteration: 8 where the terms are
//                                            cheap (fluid), 1 where they are not (contacts)
// or, where the terms are summed, instead of GP_NEIGHBOR_VISIT
//   #define GP_NEIGHBOR_TERM(k, end, cell)   candidate k's term (0 when it is no neighbour)
//   #define GP_NEIGHBOR_SUM                  the sum a batch's terms are added to, as one
//                                            expression (t0 + ... + t7): the order the
//                                            floating-point sum had before it was shared
// Why it is written so: with hashing, a bucket also holds particles of distant cells, which
// gp_grid_same_cell drops; candidates go 8 per iteration where terms are cheap, because some
// drivers (Mesa's llvmpipe) end an invocation's loops after 65,535 iterations in all, silently,
// and 8 at a time lets one particle meet about 500,000 candidates there (no cap elsewhere); the
// loop counts what it visited, and a shortfall (a loop the driver cut) is counted in
// stat_truncated, which gp_grid_stats_read reports, instead of passing for a right answer.
// Needs gp_grid.glsl and the CELL_START and STATS roles.
{
    ivec3 gp_home = gp_grid_cell(gp_center);
    uint gp_expected = 0u, gp_visited = 0u, gp_cells = 0u;
    for (int gp_c = 0; gp_c < 27; ++gp_c) {
        ++gp_cells;
        ivec3 gp_cell = gp_grid_around(gp_home, gp_c);
        if (!gp_grid_cell_exists(gp_cell)) continue;
        uint gp_bucket = gp_grid_bucket(gp_cell);
        uint gp_begin = cell_start[gp_bucket], gp_end = cell_start[gp_bucket + 1u];
        gp_expected += gp_end - gp_begin;
        for (uint gp_k = gp_begin; gp_k < gp_end; gp_k += uint(GP_NEIGHBOR_BATCH)) {
#if defined(GP_NEIGHBOR_TERM) && GP_NEIGHBOR_BATCH == 8
            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 1u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 2u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 3u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 4u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 5u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 6u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 7u, gp_end, gp_cell);
#elif defined(GP_NEIGHBOR_TERM)
            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell);
#elif GP_NEIGHBOR_BATCH == 8
            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 1u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 2u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 3u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 4u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 5u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 6u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 7u, gp_end, gp_cell);
#elif GP_NEIGHBOR_BATCH == 1
            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);
#else
#error GP_NEIGHBOR_BATCH must be 8 or 1
#endif
            gp_visited += min(uint(GP_NEIGHBOR_BATCH), gp_end - gp_k);
        }
    }
    if (gp_visited != gp_expected || gp_cells != 27u) atomicAdd(stat_truncated, 1u);
}
#ifdef GP_NEIGHBOR_VISIT
#undef GP_NEIGHBOR_VISIT
#endif
#undef GP_NEIGHBOR_BATCH
#ifdef GP_NEIGHBOR_TERM
#undef GP_NEIGHBOR_TERM
#undef GP_NEIGHBOR_SUM
#endif
// <<include gp_neighbors.glsl
    }
    gp_history[gp_keep_block(i)] = uvec4(info.x, kept, u_stamp, 0u);
    if (look && gap < cell_size - 2.0 * p.w) atomicMin(stat_solid_gap, floatBitsToUint(gap));   // non-negative: bits order
    if (gp_finite(p.w)) atomicMax(stat_solid_radius, floatBitsToUint(max(p.w, 0.0)));
    gp_acceleration[i] = vec4(f, 0.0);
    if (kind == GP_KIND_RIGID) gp_rigid[i] = vec4(torque, 0.0);
}
