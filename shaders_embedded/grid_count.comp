#version 430 core
// grid_count: first pass of the counting sort that builds the neighbour grid. Each live particle
// gets its bucket key and bumps that bucket's count with an atomic add, whose result is its rank
// in the bucket: order[i] = rank, so that grid_reorder places it at cell_start[key] + rank with no
// second atomic. Particles outside a bounded grid are clamped into border cells and counted;
// particles with a NaN or infinite coordinate go to the extra bucket past the last and are
// counted. None is dropped. In deterministic mode order[i] is the particle's id instead, the value
// of the (bucket, id) sort that follows (the rank depends on timing).
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
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 4) writeonly buffer cell_key_block { uint cell_key[]; };
layout(std430, binding = 5) buffer cell_count_block { uint cell_count[]; };
layout(std430, binding = 6) buffer grid_stats_block { uint stat_outside; uint stat_nonfinite; uint stat_truncated; };
layout(std430, binding = 7) writeonly buffer order_block { uint order[]; };

void main() {
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    vec3 p = gp_position[i].xyz;
    uint key;
    if (!gp_finite3(p)) {
        key = gp_grid_invalid_bucket();
        atomicAdd(stat_nonfinite, 1u);
    } else {
        vec3 c = gp_grid_cell_float(p);
        if (!gp_grid_inside(c)) atomicAdd(stat_outside, 1u);
        key = gp_grid_bucket(gp_grid_clamp_cell(c));
    }
    cell_key[i] = key;
    uint rank = atomicAdd(cell_count[key], 1u);
    order[i] = (gp_counts.w & 1u) != 0u ? gp_info[i].x : rank;
}
