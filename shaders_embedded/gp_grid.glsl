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
