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
#define GP_BINDING_FREE_IDS 4
#define GP_BINDING_CELL_START 5
#define GP_BINDING_STORE 7
// <<defines
// store_count: the store's count, on the GPU (section >>grid). After a build (u_added 0) it drops
// the dead that store_free gave back; after an append (store_append: u_ids = u_added, the host
// gave every id and checked the room) or the emitters' births (emitter_emit: u_added births, u_ids
// of them with never-used ids, the rest taking given-back ones, oldest first; a spray emitter's:
// at most store_spray of them) it takes in those that found room and an id, pops the given-back
// ids they took, and counts the others refused; the never-used ids set aside for births that did
// not happen go to the free-id queue (none is lost, so ids never run out while the store has room).
// Then it writes the indirect arguments every pass over the store dispatches with, and those of
// the draw. One invocation; the host then copies store_count into gp_counts.x, where every pass
// reads it.
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
// >>include gp_dispatch.glsl
// gp_dispatch.glsl: glDispatchComputeIndirect's three words for one invocation per element of a
// count that lives on the GPU: ceil(count / group size) workgroups, split as x * y when they exceed
// 65,535 (the shader then takes gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x, as
// gp_global_index does).
uvec3 gp_dispatch_groups(uint count, uint group_size) {
    uint groups = count / group_size + uint(count % group_size != 0u);
    uint x = min(groups, 65535u);
    uint y = x == 0u ? 1u : (groups + x - 1u) / x;
    return uvec3(x, groups == 0u ? 0u : y, 1u);
}
#ifdef GP_BINDING_ARGS
layout(std430, binding = GP_BINDING_ARGS) writeonly buffer args_block { uint args[]; };
#endif
// <<include gp_dispatch.glsl
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
layout(local_size_x = 1) in;
layout(location = 0) uniform uint u_added;
layout(location = 1) uniform uint u_ids;
layout(location = 2) uniform uint u_spray;   // 1: a spray emitter's births, at most store_spray of the u_added
layout(location = 3) uniform uint u_first;   // the first of the u_ids never-used ids

void main() {
    if (u_added == 0u) {
        uint live = cell_start[gp_grid_dead_bucket()], died = store_count - live;
        store_died += died;
        store_free_count += died;
        store_count = live;
    } else {
        uint wanted = u_spray != 0u ? min(u_added, store_spray) : u_added;
        uint added = min(min(wanted, gp_counts.z - store_count), u_ids + store_free_count);
        uint taken = added > u_ids ? added - u_ids : 0u, used = min(added, u_ids);
        store_free_head = (store_free_head + taken) % (2u * gp_counts.z);
        store_free_count -= taken;
        for (uint k = used; k < u_ids; ++k)   // never-used ids set aside for births that did not happen: to the queue
            free_ids[(store_free_head + store_free_count + (k - used)) % (2u * gp_counts.z)] = u_first + k;
        store_free_count += u_ids - used;
        store_refused_births += wanted - added;
        store_count += added;
    }
    uvec3 groups = gp_dispatch_groups(store_count, uint(GP_GROUP_SIZE));
    store_dispatch_x = groups.x;
    store_dispatch_y = groups.y;
    store_dispatch_z = groups.z;
    store_draw_count = store_count;
    store_draw_instances = 1u;
    store_draw_first = 0u;
    store_draw_base = 0u;
}
