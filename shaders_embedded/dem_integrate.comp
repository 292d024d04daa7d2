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
#define GP_BINDING_ACCELERATION 4
#define GP_BINDING_STATS 7
// <<defines
// dem_integrate: moves every grain by the acceleration of dem_contact over one substep (000
// section 29.3.1: contact forces update the grains' velocities directly):
//   symplectic Euler (default): v' = v + a dt, x' = x + v' dt
//   explicit Euler:             x' = x + v dt, v' = v + a dt
// An update that is not finite is not applied: the grain keeps its position, stops, and is
// counted, so that nothing is lost and nothing spreads NaN to its neighbours.
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
// >>include gp_integrate.glsl
// gp_integrate.glsl: one particle's time step, shared by the solvers' integration passes
// (sph_integrate, dem_integrate; the bodies integrate whole in body_update). Needs
// gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (POSITION, VELOCITY and STATS) first.

// x, v advanced by the acceleration a over the substep gp_gravity.w: symplectic Euler (velocity
// first), or explicit Euler when the integrator is 2. A non-finite result keeps the particle
// where it was, at rest, and is counted in stat_bad_updates: one bad particle never spreads NaN.
void gp_integrate(vec3 x, vec3 v, vec3 a, out vec3 xn, out vec3 vn) {
    float dt = gp_gravity.w;
    if ((gp_solver_counts.z & GP_INTEGRATOR_MASK) == 2u) { xn = x + v * dt; vn = v + a * dt; }
    else { vn = v + a * dt; xn = x + vn * dt; }
    if (!gp_finite3(xn) || !gp_finite3(vn)) {
        xn = x; vn = vec3(0.0);
        atomicAdd(stat_bad_updates, 1u);
    }
}

// Writes slot i's new position and velocity (its radius and mass kept) and its speed into the
// statistics, from which the host picks the next step's substeps.
void gp_integrate_store(uint i, vec3 xn, vec3 vn) {
    gp_position[i].xyz = xn;
    gp_velocity[i].xyz = vn;
    atomicMax(stat_max_speed, floatBitsToUint(length(vn)));
}
// <<include gp_integrate.glsl
layout(local_size_x = GP_GROUP_SIZE) in;
void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x || gp_kind_of(gp_info[i]) != GP_KIND_GRANULAR) return;
    vec3 x = gp_position[i].xyz;
    if (!gp_finite3(x)) return;   // kept where it is, in the grid's extra bucket
    vec3 xn, vn;
    gp_integrate(x, gp_velocity[i].xyz, gp_acceleration[i].xyz, xn, vn);
    gp_integrate_store(i, xn, vn);
}
