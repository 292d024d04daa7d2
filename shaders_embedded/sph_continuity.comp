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
#define GP_BINDING_DENSITY 3
#define GP_BINDING_FLUID_STATE 4
#define GP_BINDING_CELL_START 5
#define GP_BINDING_FIELDS 6
#define GP_BINDING_STATS 7
// <<defines
// sph_continuity: the new density and pressure of every fluid particle of a continuity-model
// material (sph_density does the others):
//   rho_i' = rho_i + dt (sum_j m_j (v_i - v_j) . grad W_ij - 2 rho0 v_i . a + delta re c0 D_i)
// from the density the particle carries (gp_state, 0: not yet set, rest density), with
// D_i = sum_j 2 V_j (rho_i - rho_j - (rho_i^H - rho_j^H)) (x_ij . grad W_ij) / r_ij^2 over
// neighbours of its material, the delta-SPH diffusion (Antuono et al. 2012) less its hydrostatic
// part rho^H_i - rho^H_j = rho0 g . x_ij / c0^2, so that a column at rest keeps its pressure
// gradient; -2 rho0 v_i . a is the walls' particles' term (gp_wall in gp_sph.glsl), with the same
// normalised spiky gradient; where i's kernel lies wholly in its fluid, rho_i' also moves towards
// the positions' summation density (the interior relaxation, below). sph_integrate stores rho_i'
// as the new carried density; p_i from eq. 5. A pass of its own: llvmpipe runs a loop that no
// invocation of a group takes, so one pass for both models made the summation model's substep
// 50% slower. The neighbour loop is gp_neighbors.glsl's: 27 cells, 8 candidates per iteration,
// shortfalls counted.
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
// >>include gp_boundary.glsl
// gp_boundary.glsl: the boundary's signed distance function (001 section 3.3): the union of every
// collider's wall. Needs gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (the FIELDS role) first.
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
// <<include gp_boundary.glsl
// >>include gp_sph.glsl
// gp_sph.glsl: what the SPH passes share (001): the kernels and the wall weight tables. Needs
// gp_common.glsl, gp_world.glsl, gp_grid.glsl, gp_particles.glsl, gp_solver.glsl and
// gp_buffers.glsl first.

// The material of a particle; phases beyond the table were refused when the particle was added.
uint gp_material_of(uvec4 info) { return min(gp_phase_of(info), GP_MAX_FLUID_MATERIALS - 1u); }

// Müller's kernels (001 eqs. 8-10), r2 = |r|^2 < re^2 checked by the caller.
// poly6 from its coefficient c = 315 / (64 pi re^9) and re^2, at r^2 < re^2: c (re^2 - r^2)^3. The
// passes that sum it pass c and re^2 alone: a whole gp_fluid per call is slow on a software GL.
float gp_poly6_of(float c, float re2, float r2) { float x = re2 - r2; return c * x * x * x; }
float gp_poly6(gp_fluid f, float r2) { return gp_poly6_of(f.kernel.x, f.kernel.w, r2); }
// |spiky gradient| / |r|: the gradient of W_press at r is -this * r.
float gp_spiky_gradient(gp_fluid f, float r) { float x = f.shape.y - r; return f.kernel.y * x * x / r; }
float gp_viscosity_laplacian(gp_fluid f, float r) { return f.kernel.z * (f.shape.y - r); }

// The wall tables at distance d from a plane wall, linear between their 32 samples d = k s,
// s = table.x, which reach re; 0 from re on (the last samples are 0): x density share, y
// viscosity share, z A, w M_n, and in the second vec4 x M_t (see gp_wall below).
void gp_wall_tables(uint m, float d, out vec4 first, out float second) {
    // gp_fluids[m] read field by field: a copy of the whole material is slow on a software GL
    float x = clamp(d / gp_fluids[m].table.x, 0.0, float(GP_WALL_SAMPLES - 1u));
    uint k = min(uint(x), GP_WALL_SAMPLES - 2u), k1 = k + 1u, a = k >> 2u, b = k & 3u, c = k1 >> 2u, e = k1 & 3u;
    first = mix(vec4(gp_fluids[m].wall_density[a][b], gp_fluids[m].wall_viscosity[a][b], gp_fluids[m].wall_gradient[a][b],
                     gp_fluids[m].wall_normal[a][b]),
                vec4(gp_fluids[m].wall_density[c][e], gp_fluids[m].wall_viscosity[c][e], gp_fluids[m].wall_gradient[c][e],
                     gp_fluids[m].wall_normal[c][e]), x - float(k));
    second = mix(gp_fluids[m].wall_tangent[a][b], gp_fluids[m].wall_tangent[c][e], x - float(k));
}

// Pressure from density, eq. 5, clamped at 0 unless the material allows tension.
float gp_pressure(gp_fluid f, float rho) {
    float p = f.flow.y + f.shape.w * (rho - f.shape.z);
    return f.flow.w != 0.0 ? p : max(p, 0.0);
}

// What the walls' particles add for a fluid particle: they continue the fluid's lattice behind
// each wall, at rest, at the rest density, with the pressure p_w = p_i + rho0 g . (x_w - x_i)
// that a fluid at rest would have there (the hydrostatic continuation, as Adami et al. 2012 do
// with wall particles). With e = x_i - x_w and K(r) e = -grad W_press (spiky, normalised):
//   share.x  sum_w m W(r)                   the density share (eq. 13)
//   share.y  sum_w V lap W_vis(r)           the viscosity share (V = m / rho0)
//   a        sum_w V K(r) e                 so that the walls' pressure term of the force is
//   mg       sum_w V K(r) e (g . e)         sum_w V (p_i + p_w) K e = 2 p_i a - rho0 mg
// and the continuity model's wall term -2 rho0 v_i . a: the walls' particles are the particle's
// mirror images, which share its pressure (the force's 2 p_i a) and close on it at twice its
// speed along the normal, sum_w m (v_i - v_w) . grad W with v_w = v_i - 2 (v_i . n) n. The
// pair is energy-consistent: what the walls' pressure takes from the particle's kinetic energy
// is what its density stores (p_i / rho_i^2 per unit of density and mass). Counted once, as the
// walls at rest, the continuity term stored half of it, and every wall contact that the walls'
// pressure pushed back returned energy the fluid never gave (a dam break gained 3% before it
// met the far wall and 40% after; issue 10). For a plane wall
// with normal n (towards the fluid) these come from the tables (tangent t): a = A(d) n,
// mg = M_n(d) (g . n) n + M_t(d) (g - (g . n) n), A = sum V K e.n, M_n = sum V K (e.n)^2,
// M_t = sum V K (e.t)^2. On the rest lattice with a uniform pressure the walls' and the fluid's
// terms cancel exactly, and with p = rho0 |g| depth they hold the fluid up: a column at rest is
// hydrostatic particle by particle. A wall the fluid hangs under (g . n > 0: a lid, an overhang)
// takes no hydrostatic part along its normal, p_w = p_i there: the continuation would give it
// less pressure than the particle and make it pull the fluid up against itself. Its table terms
// take g less that component; an edge's or a corner's point sums take g whole, so that what
// they correct ends up counted with g less the components away from every face it lies behind.
// Above a free surface the continuation's pressure would be below zero and hold a particle with
// no pressure up along a wall (it fell at 0.8 g, 0.7 g in a corner): the hydrostatic part is
// scaled by gp_surface_fade, which is 1 inside the fluid and falls to 0 at zero pressure.
struct gp_wall { vec2 share; vec3 a; vec3 mg; };

// How much of the walls' hydrostatic part a particle with pressure p takes: all of it from the
// pressure of a quarter spacing of fluid at rest (the top layer of a column at rest has twice
// that), none at zero pressure, linearly between: at a free surface the wall particles above it
// would carry negative pressure and pull.
float gp_surface_fade(uint m, float p) {
    float full = 0.25 * gp_fluids[m].shape.z * length(gp_gravity.xyz) * gp_fluids[m].shape.x;
    return full > 0.0 ? clamp(p / full, 0.0, 1.0) : 1.0;
}

gp_wall gp_wall_none() { gp_wall w; w.share = vec2(0.0); w.a = vec3(0.0); w.mg = vec3(0.0); return w; }

void gp_wall_add(inout gp_wall sum, gp_wall w, float sign) {
    sum.share += sign * w.share; sum.a += sign * w.a; sum.mg += sign * w.mg;
}

// A plane wall at distance d with normal n, from the tables.
gp_wall gp_wall_plane(uint m, vec3 n, float d) {
    gp_wall w = gp_wall_none();
    if (!(d < gp_fluids[m].shape.y)) return w;
    vec4 t;
    float tangent;
    gp_wall_tables(m, d, t, tangent);
    float gn = dot(gp_gravity.xyz, n);
    w.share = t.xy;
    w.a = t.z * n;
    w.mg = t.w * min(gn, 0.0) * n + tangent * (gp_gravity.xyz - gn * n);
    return w;
}

// One wall particle at e = x_i - x_w, added when within re; g: gravity.
void gp_wall_point(uint m, vec3 e, vec3 g, inout gp_wall sum) {
    vec4 shape = gp_fluids[m].shape, flow = gp_fluids[m].flow, kernel = gp_fluids[m].kernel;
    float r2 = dot(e, e);
    if (r2 >= kernel.w) return;
    float r = sqrt(r2), x = shape.y - r, volume = flow.z / shape.z, q = kernel.w - r2;
    float k = volume * kernel.y * x * x / r;
    sum.share += vec2(flow.z * kernel.x * q * q * q, volume * kernel.z * x);
    sum.a += k * e;
    sum.mg += k * dot(g, e) * e;
}

// Two faces of a box meet at an edge: the wall particles behind both, (a + 1/2) l0 + da and
// (b + 1/2) l0 + db behind them (a, b >= 0), c l0 along the edge, were counted by both faces'
// tables, and are taken once away; three faces meet at a corner, where the particles behind all
// three were counted three times and taken away three times, and are added once. On the rest
// lattice (da = db = dc = l0 / 2) this is exactly the lattice outside the fluid. Summed here
// rather than tabled: a few terms (12 and 1 at re = 2 l0), for particles within re of an edge.
gp_wall gp_wall_edge(uint m, vec3 na, float da, vec3 nb, float db) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec3 along = cross(na, nb), g = gp_gravity.xyz;
    gp_wall sum = gp_wall_none();
    for (int a = 0; ; ++a) {
        float x = max(da, 0.0) + (float(a) + 0.5) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = max(db, 0.0) + (float(b) + 0.5) * l0;
            if (x * x + y * y >= re2) break;
            vec3 e = x * na + y * nb;
            gp_wall_point(m, e, g, sum);
            for (int c = 1; x * x + y * y + float(c * c) * l0 * l0 < re2; ++c) {
                gp_wall_point(m, e + float(c) * l0 * along, g, sum);
                gp_wall_point(m, e - float(c) * l0 * along, g, sum);
            }
        }
    }
    return sum;
}
gp_wall gp_wall_corner(uint m, vec3 d, vec3 normal) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec3 o = max(d, vec3(0.0)) + 0.5 * l0, g = gp_gravity.xyz;
    gp_wall sum = gp_wall_none();
    for (int a = 0; ; ++a) {
        float x = o.x + float(a) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = o.y + float(b) * l0;
            if (x * x + y * y >= re2) break;
            for (int c = 0; ; ++c) {
                float z = o.z + float(c) * l0;
                if (x * x + y * y + z * z >= re2) break;
                gp_wall_point(m, normal * vec3(x, y, z), g, sum);
            }
        }
    }
    return sum;
}

// An edge's or a corner's share, taken away or added when every distance is within re.
void gp_wall_edge_add(uint m, vec3 na, float da, vec3 nb, float db, inout gp_wall sum) {
    float re = gp_fluids[m].shape.y;
    if (da < re && db < re) gp_wall_add(sum, gp_wall_edge(m, na, da, nb, db), -1.0);
}
void gp_wall_corner_add(uint m, vec3 d, vec3 normal, inout gp_wall sum) {
    if (all(lessThan(d, vec3(gp_fluids[m].shape.y)))) gp_wall_add(sum, gp_wall_corner(m, d, normal), 1.0);
}

// A container box: six plane walls, less what their edges counted twice, plus what their corners
// then missed. low and high: the distances to the faces on the low and high side of each axis,
// whose normals towards the fluid are +axis and -axis. Written out face by face, edge by edge:
// a software GL runs local arrays indexed by loop counters very slowly.
gp_wall gp_wall_box(uint m, vec3 low, vec3 high) {
    const vec3 X = vec3(1.0, 0.0, 0.0), Y = vec3(0.0, 1.0, 0.0), Z = vec3(0.0, 0.0, 1.0);
    float re = gp_fluids[m].shape.y;
    gp_wall sum = gp_wall_plane(m, X, low.x);
    gp_wall_add(sum, gp_wall_plane(m, -X, high.x), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, Y, low.y), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, -Y, high.y), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, Z, low.z), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, -Z, high.z), 1.0);
    vec3 near = min(low, high);
    if (int(near.x < re) + int(near.y < re) + int(near.z < re) < 2) return sum;   // near no edge
    gp_wall_edge_add(m, X, low.x, Y, low.y, sum);
    gp_wall_edge_add(m, X, low.x, -Y, high.y, sum);
    gp_wall_edge_add(m, -X, high.x, Y, low.y, sum);
    gp_wall_edge_add(m, -X, high.x, -Y, high.y, sum);
    gp_wall_edge_add(m, Y, low.y, Z, low.z, sum);
    gp_wall_edge_add(m, Y, low.y, -Z, high.z, sum);
    gp_wall_edge_add(m, -Y, high.y, Z, low.z, sum);
    gp_wall_edge_add(m, -Y, high.y, -Z, high.z, sum);
    gp_wall_edge_add(m, Z, low.z, X, low.x, sum);
    gp_wall_edge_add(m, Z, low.z, -X, high.x, sum);
    gp_wall_edge_add(m, -Z, high.z, X, low.x, sum);
    gp_wall_edge_add(m, -Z, high.z, -X, high.x, sum);
    gp_wall_corner_add(m, vec3(low.x, low.y, low.z), vec3(1.0, 1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, low.y, low.z), vec3(-1.0, 1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, high.y, low.z), vec3(1.0, -1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, high.y, low.z), vec3(-1.0, -1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, low.y, high.z), vec3(1.0, 1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, low.y, high.z), vec3(-1.0, 1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, high.y, high.z), vec3(1.0, -1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, high.y, high.z), vec3(-1.0, -1.0, -1.0), sum);
    return sum;
}

// Every collider's wall at p: each at its own distance and normal, a container box face by face
// (so that a particle in a tank's edge or corner sees the wall particles of two or three faces;
// the nearest face alone leaves it 16% or 30% short of the rest density there).
gp_wall gp_walls(uint m, vec3 p) {
    gp_wall sum = gp_wall_none();
    for (uint c = 0u; c < gp_solver_counts.x; ++c) {
        gp_collider_shape s = gp_colliders[c];
        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {
            gp_wall_add(sum, gp_wall_box(m, s.b.xyz + (p - s.a.xyz), s.b.xyz - (p - s.a.xyz)), 1.0);
        } else {
            vec4 d = gp_collider_distance(c, p);
            gp_wall_add(sum, gp_wall_plane(m, d.xyz, d.w), 1.0);
        }
    }
    return sum;
}
// <<include gp_sph.glsl
// >>include gp_coupling.glsl
// gp_coupling.glsl: the fluid and the solids (grains, rigid bodies' particles) as one another see
// them (issue 10; Akinci et al. 2012, "Versatile rigid-fluid coupling for incompressible SPH").
// A solid particle b is a boundary particle to the fluid: it stands for the volume psi_b it fills,
// as if that volume held fluid of the fluid's own material at rest (the mass m psi_b / l0^3, the
// material's lattice-scaled mass, so that a fluid particle beside a body sampled at the fluid's
// spacing sees the rest density). A rigid particle fills the voxel of its body's shape, (2 r)^3;
// a grain its sphere, pi (2 r)^3 / 6, so that a lone grain feels Archimedes' buoyancy for its own
// volume and a bed of grains leaves its pores to the fluid. Its pressure p_b is its own, one value
// a substep: the fluid's around it continued hydrostatically and weighted by the density kernel
// (coupling_pressure, after Adami et al. 2012's wall particles), never below 0; its velocity its
// own. (It was the pressure of each fluid neighbour i continued to b, p_i - rho0 g . (x_i - x_b), a
// pair's own: a force whose curl, g x grad W, fed energy into a flow around a body, 0.0015 J in
// coupling_energy_never_grows against 0.0012 J now, and held a body of 1,200 in water where it
// now sinks, if slowly.) Its terms enter the fluid's density (sph_density), density rate
// (sph_continuity) and force (sph_force); in the density rate twice, as the walls' (gp_sph.glsl):
// the pair pushes with p_i + p_b, and p_b follows p_i as a mirror image's pressure would, which
// closes on the particle at twice the speed, so that what the pair's pressure does is what the
// density stores (counted once, it fed energy in at every contact: 0.008 J there); the equal and
// opposite force on b is summed by coupling_solid, from the same
// functions, so that the pair's forces cancel to the float rounding. Needs gp_sph.glsl first.

// A grain narrower than a fluid material's smoothing radius re (re2 = re^2) is one particle the
// fluid cannot flow around (issue 10: as a boundary particle it sank through water at an eighth of
// the speed a sphere does): to that fluid it is no boundary (m_b 0) but meets it through a drag
// law and the fluid's pressure gradient (coupling_drag, coupling_drag_fluid). Rigid particles,
// which resolve their body's shape together, and grains as wide as re or wider are boundaries.
bool gp_drag_grain(float r, float re2, uint kind) { return kind == GP_KIND_GRANULAR && 4.0 * r * r < re2; }

// The mark of a bucket near a solid. cell_count is free once the grid's scan has read it, and the
// next build clears it: coupling_pressure marks the buckets of the 27 cells around every live
// solid particle there (with the substep's grid, before anything moves), and coupling_guard
// passes over a fluid particle whose own bucket is unmarked: no solid lies in its 27 cells, where
// its sweep would look (the same cells, so the same result). So the guard sweeps only the fluid
// near solids, where it swept every fluid particle's neighbours (1.3 of 12.7 ms of a substep of
// coupling_floating_and_sinking on llvmpipe, whose box is near most of its tank's water). No
// count reaches the mark (a bucket holds at most the store's capacity).
const uint GP_SOLID_BUCKET = 0xffffffffu;

// Bucket b's stamp in gp_drag (DRAG role): component b % 4 of vec4 capacity + b / 4, read and written.
#ifdef GP_BINDING_DRAG
uint gp_drag_bucket_word(uint bucket) { return floatBitsToUint(gp_drag[gp_counts.z + bucket / 4u][bucket % 4u]); }
void gp_drag_bucket_stamp(uint bucket, uint stamp) { gp_drag[gp_counts.z + bucket / 4u][bucket % 4u] = uintBitsToFloat(stamp); }
#endif

// m_b: the fluid mass that solid particle b of kind `kind` and radius r stands for, with scale =
// gp_solid_scale of the fluid material's particle mass and spacing (re2: its smoothing radius^2).
float gp_solid_scale(float mass, float spacing) { return mass / (spacing * spacing * spacing); }
float gp_solid_mass(float scale, float re2, float r, uint kind) {
    float d = 2.0 * r, cube = scale * d * d * d;
    if (gp_drag_grain(r, re2, kind)) return 0.0;
    return kind == GP_KIND_RIGID ? cube : 0.52359878 * cube;   // pi / 6: a grain's sphere
}

// The pair's pressure and viscosity sums for fluid particle i (at p, velocity vi, pressure pi, of
// a material with smoothing radius re, kernel coefficients spiky and laplacian, rest density
// rho0) and solid b (at q, velocity vb, pressure pb, mass mb), in sph_force's form: i's acceleration gains
// (pressure + mu viscosity) / rho_i, its force m_i times that, and b's force is minus i's.
// d = p - q, with 0 < r2 = |d|^2 < re^2.
void gp_coupling_terms(float re, float spiky, float laplacian, float rho0, vec3 d, float r2, vec3 vi, float pi, vec3 vb,
                       float pb, float mb, inout vec3 pressure, inout vec3 viscosity) {
    float r = sqrt(r2), x = re - r, volume = mb / rho0;
    pressure += (volume * (pi + pb) * spiky * x * x / r) * d;
    viscosity += (volume * laplacian * x) * (vb - vi);
}
// <<include gp_coupling.glsl
layout(local_size_x = GP_GROUP_SIZE) in;

// What particle i needs of itself in the neighbour loop.
struct gp_flow { vec3 p; vec3 v; float rho; float re; float re2; float spiky; float poly6; float hydro; float solid; float volume; uint slot; uint m; };

// The kernel's first moment over the neighbours, sum_j V_j grad W_ij (V_j = m_j / rho0 of i's
// material; solids as their volume), and whether a fluid of another material is among them:
// what says that i's kernel is whole (below). Per invocation, summed by gp_continuity_term.
vec3 gp_moment;
bool gp_mixed;

// The density particle k carries, its material's rest density until it has one.
float gp_carried(uint k, uint m) { float r = gp_state[k].x; return r > 0.0 ? r : gp_fluids[m].shape.z; }

// Adds candidate slot k's (m_k (v_i - v_k) . grad W, diffusion term, m_k W) when it is a fluid
// particle of the visited cell; the diffusion only between particles of one material; the last,
// the summation density of the positions (poly6), says whether i is at a free surface.
void gp_continuity_term(uint k, uint end, gp_flow s, ivec3 cell, inout vec3 sum) {
    if (k >= end || k == s.slot) return;
    vec4 q = gp_position[k];
    vec3 d = s.p - q.xyz;
    float r2 = dot(d, d);
    if (r2 >= s.re2 || !gp_grid_same_cell(q.xyz, cell)) return;
    uvec4 info = gp_info[k];
    uint kind = gp_kind_of(info);
    if (kind != GP_KIND_FLUID && !gp_is_solid(kind)) return;
    vec4 v = gp_velocity[k];
    float mass = kind == GP_KIND_FLUID ? v.w : gp_solid_mass(s.solid, s.re2, q.w, kind);
    sum.z += mass * gp_poly6_of(s.poly6, s.re2, r2);
    if (r2 == 0.0) return;   // on top of another: no rate
    float r = sqrt(r2), x = s.re - r;
    vec3 grad = -(s.spiky * x * x / r) * d;   // grad_i W(x_i - x_k): towards k
    if (kind != GP_KIND_FLUID) {   // a solid: its mass as gp_coupling.glsl has it, as a mirror (twice), no diffusion
        sum.x += 2.0 * mass * dot(s.v - v.xyz, grad);
        gp_moment += (mass * s.volume) * grad;
        return;
    }
    uint m = gp_material_of(info);
    sum.x += v.w * dot(s.v - v.xyz, grad);
    gp_moment += (v.w * s.volume) * grad;
    gp_mixed = gp_mixed || m != s.m;
    if (m == s.m) {
        float rho = gp_carried(k, m);
        // over r^2, but never below (0.1 h)^2 (h = re / 2; the artificial viscosity's eta^2): the
        // spiky kernel's slope stays finite at r = 0, and two free-surface particles that drifted
        // within 0.03 spacing traded 40 kg/m^3 in a substep and flew apart at 2.7 m/s
        // (sph_pair_on_top_parts_gently). No pair a tenth of a spacing apart or more feels it.
        sum.y += 2.0 * (v.w / rho) * (s.rho - rho - s.hydro * dot(gp_gravity.xyz, d)) * dot(d, grad) / max(r2, 0.0025 * s.re2);
    }
}

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    uvec4 info = gp_info[i];
    vec3 p = gp_position[i].xyz;
    uint m = gp_material_of(info);
    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p) || gp_fluids[m].table.y == 0.0) return;   // sph_density's
    vec4 shape = gp_fluids[m].shape, kernel = gp_fluids[m].kernel, table = gp_fluids[m].table;   // not the whole material: slow
    gp_flow s;
    s.p = p;
    s.v = gp_velocity[i].xyz;
    s.rho = gp_carried(i, m);
    s.re = shape.y;
    s.re2 = kernel.w;
    s.spiky = kernel.y;
    s.poly6 = kernel.x;
    s.hydro = shape.z / shape.w;   // rho0 / c0^2
    s.solid = gp_solid_scale(gp_fluids[m].flow.z, shape.x);
    s.volume = 1.0 / shape.z;
    s.slot = i;
    s.m = m;
    vec3 sum = vec3(0.0);
    gp_moment = vec3(0.0);
    gp_mixed = false;
    vec3 gp_center = p;
#define GP_NEIGHBOR_VISIT(k, end, cell) gp_continuity_term(k, end, s, cell, sum)
#define GP_NEIGHBOR_BATCH 8
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
    // the walls' particles, the particle's mirror images: -2 rho0 v_i . a (gp_wall)
    gp_wall walls = gp_walls(m, p);
    float rate = sum.x + table.z * s.re * sqrt(shape.w) * sum.y - 2.0 * shape.z * dot(s.v, walls.a);
    float rho = s.rho + gp_gravity.w * rate;
    // Without tension the carried density has a floor. At a free surface (spray) it is the
    // density of zero pressure, rho0 - p0 / k: where the flow spreads there a particle keeps the
    // density at which it presses back as soon as it is squeezed again. Unclamped, spray fell to
    // rho0 / 100 and had to be compressed 100 times before it pushed back: a dam break blew up
    // where it met the far wall (issue 10). The clamp of incompressible SPH's densities (Ihmsen
    // et al. 2014, Bender and Koschier 2015). Elsewhere the floor lets the density remember an
    // expansion of up to 0.005 rho0 below that, as far as the positions' own summation density
    // (filled, below) shows one: a floor at the density of zero pressure forgot every expansion,
    // and a flow that spreads and closes again over and over grew (a dam break's fluid took 10%
    // more room than its volume after 2 s of sloshing, 6% with this floor). 0.005 rho0 is about
    // a weakly compressible flow's own density swing, (u / c0)^2: remembered a little at each
    // swing, the expansion is given back over the swings, and 0.2-2% floors gave back about as
    // much. Deeper floors threw faster splashes: a block of water dropped onto a floor, started
    // at 14 heights, threw its fastest droplet at 4.9 m/s on average with this floor as with
    // none, 5.5 with 1% and 6.3 with 2% (bench/RESULTS.md). With tension, rho0 / 100. A
    // blow-up keeps the old density.
    // At a free surface the pressure is zero: a particle whose neighbourhood the fluid fills less
    // than 3/4 (the summation density of the positions, its own share, the solids' and the walls'
    // included, below 0.75 rho0: the threshold Marrone et al. 2010 put on their free-surface
    // indicator) carries no more than the density of zero pressure. The clamp above keeps a
    // density that the flow took away, so a surface particle that leaves the fluid and comes back
    // is squeezed from rho0 each time, and the fluid pumped itself up: a block of water dropped
    // onto a floor splashed at 10 m/s and its energy grew fourfold in 1.5 s (issue 10). Without
    // tension only.
    bool tension = gp_fluids[m].flow.w != 0.0;
    float least = tension ? 0.01 * shape.z : max(shape.z - gp_fluids[m].flow.y / shape.w, 0.01 * shape.z);
    float filled = sum.z + gp_velocity[i].w * gp_poly6_of(s.poly6, s.re2, 0.0) + walls.share.x;   // its own mass too
    bool surface = !tension && filled < 0.75 * shape.z;
    float floor_density = tension || surface ? least : max(min(least, filled), least - 0.005 * shape.z);
    // The carried density drifts from the positions': the rate is the spiky kernel's, which reads a
    // disordered packing of the same particles as denser (it is convex; sigma = 0.15 spacings of
    // disorder reads 4% denser through it, 0.9% through poly6), and the floor above forgets
    // expansions; nothing brought the two together again, and a sloshing fluid took 5% more room
    // than its volume (sph_dam_break_keeps_volume), a floating box rode 6 mm high. Where i's
    // kernel is whole (one material, the first moment |sum_j V_j grad W_ij - a| re under 0.3:
    // a half space gives 1.5, a particle half a smoothing radius under a free surface 0.28), its
    // carried density moves towards the positions' summation density (filled) at the rate
    // 0.01 c0 / re, a hundred times the time sound takes to cross the kernel: slow against the
    // pressure waves, fast against the drift (bench/RESULTS.md, "Interior relaxation").
    if (!surface && !gp_mixed && length(gp_moment - walls.a) * s.re < 0.3)
        rho += min(0.01 * sqrt(shape.w) * gp_gravity.w / s.re, 1.0) * (filled - rho);
    rho = gp_finite(rho) ? max(rho, floor_density) : s.rho;
    if (surface) rho = min(rho, least);
    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));
    atomicMin(stat_min_density, floatBitsToUint(rho));
    atomicMax(stat_max_density, floatBitsToUint(rho));
}
