/* test_grid.c: the neighbour grid against the CPU counting sort and brute-force neighbours,
   bounded and hashed, on the fixture's lengths and patterns (fixture.h) and on adversarial input: every
   particle in one cell, particles outside the box, NaN and infinite positions, hash collisions
   between distant cells, and two deterministic runs compared bit for bit. */
#include "fixture.h"
#include <math.h>

#define CELL 0.25f

/* A particle store's contents, by id, as the test uploaded them. */
typedef struct particles {
    uint32_t n;
    float* position;       /* 4 floats per id: x, y, z, radius */
    float* velocity;       /* 4 floats per id */
    uint32_t* user;
} particles;

static void particles_free(particles* p) { free(p->position); free(p->velocity); free(p->user); }

/* A position inside cell c, never within 10% of a cell of its faces (the faces themselves are
   test_grid_cell_faces_match_cpu's). */
static void place(float* out, const float origin[3], const int32_t c[3], uint64_t* state) {
    int a;
    for (a = 0; a < 3; ++a) {
        float u = 0.1f + 0.8f * (float)(fixture_random(state) >> 40) / (float)(1u << 24);
        out[a] = origin[a] + ((float)c[a] + u) * CELL;
    }
}

/* n particles over cells: random cells of a box of dims from corner, cells in increasing or
   decreasing bucket order (bounded), or one cell for all. */
static particles make_particles(uint32_t n, fixture_pattern pattern, const int32_t corner[3], const int32_t dims[3], uint64_t seed) {
    particles p;
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 3;
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    uint32_t i, cells = (uint32_t)(dims[0] * dims[1] * dims[2]);
    p.n = n;
    p.position = (float*)malloc((size_t)n * 16 + 16);
    p.velocity = (float*)malloc((size_t)n * 16 + 16);
    p.user = (uint32_t*)malloc((size_t)n * 4 + 4);
    for (i = 0; i < n; ++i) {
        uint32_t linear;
        int32_t c[3];
        switch (pattern) {
        case PATTERN_RANDOM: linear = (uint32_t)(fixture_random(&state) >> 33) % cells; break;
        case PATTERN_SORTED: linear = (uint32_t)((uint64_t)i * cells / n); break;
        case PATTERN_REVERSED: linear = (uint32_t)((uint64_t)(n - 1 - i) * cells / n); break;
        default: linear = cells / 2; break;
        }
        c[0] = corner[0] + (int32_t)(linear % (uint32_t)dims[0]);
        c[1] = corner[1] + (int32_t)(linear / (uint32_t)dims[0] % (uint32_t)dims[1]);
        c[2] = corner[2] + (int32_t)(linear / (uint32_t)(dims[0] * dims[1]));
        place(p.position + 4 * (size_t)i, origin, c, &state);
        p.position[4 * (size_t)i + 3] = 0.01f + 0.001f * (float)(i % 7);
        p.velocity[4 * (size_t)i + 0] = (float)i;
        p.velocity[4 * (size_t)i + 1] = -(float)i;
        p.velocity[4 * (size_t)i + 2] = 0.5f;
        p.velocity[4 * (size_t)i + 3] = 1.0f + (float)(i % 5);
        p.user[i] = i * 7u + 1u;
    }
    return p;
}

/* Adds the particles through the public API, in id order (ids 0 ... n-1). */
static void add_particles(gp_world* w, const particles* p) {
    float* xyz = (float*)malloc((size_t)p->n * 12 + 12);
    float* vel = (float*)malloc((size_t)p->n * 12 + 12);
    float* radii = (float*)malloc((size_t)p->n * 4 + 4);
    float* masses = (float*)malloc((size_t)p->n * 4 + 4);
    gp_particles_desc d;
    uint32_t i, a;
    gp_result r;
    for (i = 0; i < p->n; ++i) {
        for (a = 0; a < 3; ++a) {
            xyz[3 * (size_t)i + a] = cpu_finite3(p->position + 4 * (size_t)i) ? p->position[4 * (size_t)i + a] : 0.0f;
            vel[3 * (size_t)i + a] = p->velocity[4 * (size_t)i + a];
        }
        radii[i] = p->position[4 * (size_t)i + 3];
        masses[i] = p->velocity[4 * (size_t)i + 3];
    }
    memset(&d, 0, sizeof d);
    d.count = p->n;
    d.positions = xyz;
    d.velocities = vel;
    d.radii = radii;
    d.masses = masses;
    d.users = p->user;
    d.kind = GP_KIND_GRANULAR;
    d.phase = 3;
    r = gp_particles_add(w, &d, NULL);
    CHECKF(r == GP_OK, "gp_particles_add(%u): %s %s", p->n, gp_result_string(r), fixture_log);
    free(xyz); free(vel); free(radii); free(masses);
}

/* Every property a build promises, against the CPU: cell_start equal to the CPU counting sort;
   each slot in the range of its bucket; every id once, with its own attributes; slot_of_id the
   inverse; with deterministic, ids ascending inside each bucket. Returns the slots' positions. */
static float* check_grid(gp_world* w, const cpu_grid* g, const particles* p, int deterministic, const char* what) {
    uint32_t n = p->n, k, bad_range = 0, bad_id = 0, bad_attr = 0, bad_slot = 0, bad_order = 0;
    gp_buffers b = gp_world_buffers(w);
    float* pos = (float*)malloc((size_t)n * 16 + 16);
    float* vel = (float*)malloc((size_t)n * 16 + 16);
    gp_particle_info* info = (gp_particle_info*)malloc((size_t)n * 16 + 16);
    gp_particle_life* life = (gp_particle_life*)malloc((size_t)n * 8 + 8);
    uint32_t* start = fixture_read(w, b.cell_start, g->buckets + 2);
    uint32_t* slot = fixture_read(w, b.slot_of_id, n);
    uint32_t* ref_start = (uint32_t*)malloc(((size_t)g->buckets + 2) * 4);
    uint32_t* ref_order = (uint32_t*)malloc((size_t)n * 4 + 4);
    unsigned char* seen = (unsigned char*)calloc((size_t)n + 1, 1);
    CHECK(b.count == n && b.buckets == g->buckets);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, pos) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, vel) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, n, life) == GP_OK);
    cpu_grid_build(g, p->position, n, ref_start, ref_order);
    CHECKF(memcmp(start, ref_start, ((size_t)g->buckets + 2) * 4) == 0, "%s n=%u: cell_start differs from the CPU's", what, n);
    for (k = 0; k < n; ++k) {
        uint32_t id = info[k].id, key = cpu_grid_key(g, pos + 4 * (size_t)k);
        if (id >= n || seen[id]) { ++bad_id; continue; }
        seen[id] = 1;
        if (!(start[key] <= k && k < start[key + 1])) ++bad_range;
        if (memcmp(pos + 4 * (size_t)k, p->position + 4 * (size_t)id, 16) != 0 ||
            memcmp(vel + 4 * (size_t)k, p->velocity + 4 * (size_t)id, 16) != 0 ||
            info[k].user != p->user[id] || info[k].kind != ((uint32_t)GP_KIND_GRANULAR | 3u << 16) ||
            info[k].owner != GP_NO_OWNER || life[k].age != 0.0f || life[k].lifetime != 0.0f)
            ++bad_attr;
        if (slot[id] != k) ++bad_slot;
        if (deterministic && k > 0 && key == cpu_grid_key(g, pos + 4 * (size_t)(k - 1)) && info[k - 1].id >= id) ++bad_order;
    }
    CHECKF(!bad_id && !bad_range && !bad_attr && !bad_slot && !bad_order,
           "%s n=%u: %u bad or repeated ids, %u slots outside their bucket, %u with others' attributes, "
           "%u wrong slot_of_id, %u out of id order", what, n, bad_id, bad_range, bad_attr, bad_slot, bad_order);
    {   /* the particles past the GP_GRID_CROWD-th of their bucket, every bucket and the NaN one
           (a deterministic build sorts when there are any, and ranks within buckets when not) */
        gp_grid_stats stats;
        uint64_t crowded = 0;
        for (k = 0; k <= g->buckets; ++k)
            if (ref_start[k + 1] - ref_start[k] > GP_GRID_CROWD) crowded += ref_start[k + 1] - ref_start[k] - GP_GRID_CROWD;
        CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.crowded == crowded, "%s n=%u: %u particles crowded past the %uth of their bucket, the CPU's %llu", what, n,
               stats.crowded, GP_GRID_CROWD, (unsigned long long)crowded);
    }
    free(vel); free(info); free(life); free(start); free(slot); free(ref_start); free(ref_order); free(seen);
    return pos;
}

/* GPU neighbour counts against brute force. Pairs within 1e-5 of the radius may go either way
   (float on the GPU, double here); every other pair must agree. */
static void check_neighbors(gp_world* w, const float* slot_positions, uint32_t n, float radius, const char* what) {
    uint32_t out = fixture_buffer(w, NULL, n ? n : 1), *got, k, bad = 0;
    uint32_t* low = (uint32_t*)malloc((size_t)n * 4 + 4);
    uint32_t* high = (uint32_t*)malloc((size_t)n * 4 + 4);
    gp_result r = gp_grid_count_neighbors(w, radius, out);
    CHECKF(r == GP_OK, "%s: gp_grid_count_neighbors: %s", what, gp_result_string(r));
    got = fixture_read(w, out, n);
    cpu_neighbor_counts(slot_positions, n, (double)radius * radius * (1.0 - 1e-5), low);
    cpu_neighbor_counts(slot_positions, n, (double)radius * radius * (1.0 + 1e-5), high);
    for (k = 0; k < n; ++k)
        if (got[k] < low[k] || got[k] > high[k]) {
            if (bad++ < 3) fprintf(stderr, "    %s: slot %u has %u neighbours, brute force %u..%u\n", what, k, got[k], low[k], high[k]);
        }
    CHECKF(bad == 0, "%s n=%u: %u particles with wrong neighbour counts", what, n, bad);
    {
        gp_grid_stats stats;
        CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.truncated == 0, "%s: %u neighbour loops reported cut short", what, stats.truncated);
    }
    gp_buffer_destroy(w, out);
    free(got); free(low); free(high);
}

static cpu_grid bounded_grid(const int32_t dims[3], const float origin[3]) {
    cpu_grid g;
    memset(&g, 0, sizeof g);
    g.bounded = 1;
    g.cell_size = CELL;
    memcpy(g.origin, origin, sizeof g.origin);
    memcpy(g.dims, dims, sizeof g.dims);
    g.buckets = (uint32_t)(dims[0] * dims[1] * dims[2]);
    return g;
}

static gp_world* world_for(const cpu_grid* g, uint32_t capacity, int deterministic) {
    gp_world_desc d;
    memset(&d, 0, sizeof d);
    d.max_particles = capacity;
    d.any_order = deterministic == 0;
    d.grid.cell_size = g->cell_size;
    if (g->bounded) {
        d.grid.mode = GP_GRID_BOUNDED;
        memcpy(d.grid.origin, g->origin, sizeof d.grid.origin);
        d.grid.dims[0] = (uint32_t)g->dims[0]; d.grid.dims[1] = (uint32_t)g->dims[1]; d.grid.dims[2] = (uint32_t)g->dims[2];
    } else {
        d.grid.mode = GP_GRID_HASHED;
        d.grid.buckets = g->buckets;
    }
    return fixture_world(&d);
}

/* One world per length and pattern: build, check against the CPU, and (up to 65,537) check
   neighbour counts against brute force; all in one point, only up to GRID_CROWD particles (each
   of n in one point meets n candidates: 65,537 cost 4.3e9 candidate visits, 27 s on llvmpipe).
   The build itself is checked with 1,048,576 in one point. */
#define GRID_CROWD 1000u
static void run_grid_cases(const cpu_grid* g, const int32_t corner[3], const int32_t dims[3], int deterministic, const char* what) {
    uint32_t l, p;
    for (l = 0; l < FIXTURE_LENGTHS; ++l)
        for (p = 0; p < PATTERN_COUNT; ++p) {
            uint32_t n = fixture_lengths[l];
            gp_world* w = world_for(g, n ? n : 1, deterministic);
            particles ps = make_particles(n, (fixture_pattern)p, corner, dims, 17 + l * 4 + p);
            char label[96];
            float* slots;
            gp_result r;
            if (!w) return;
            snprintf(label, sizeof label, "%s %s", what, fixture_pattern_names[p]);
            add_particles(w, &ps);
            r = gp_grid_build(w);
            CHECKF(r == GP_OK, "%s n=%u: gp_grid_build: %s", label, n, gp_result_string(r));
            slots = check_grid(w, g, &ps, deterministic, label);
            if (n <= 65537 && (p != PATTERN_EQUAL || n <= GRID_CROWD)) check_neighbors(w, slots, n, CELL, label);
            free(slots);
            particles_free(&ps);
            gp_world_destroy(w);
        }
}

static void test_grid_bounded_against_cpu(void) {
    const int32_t dims[3] = {37, 23, 41}, corner[3] = {0, 0, 0};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    cpu_grid g = bounded_grid(dims, origin);
    run_grid_cases(&g, corner, dims, 0, "bounded");
}

static void test_grid_hashed_against_cpu(void) {
    const int32_t dims[3] = {50, 40, 30}, corner[3] = {-25, -1000, 7};   /* no box: negative and far cells */
    cpu_grid g;
    memset(&g, 0, sizeof g);
    g.cell_size = CELL;
    g.buckets = 1u << 16;
    run_grid_cases(&g, corner, dims, 0, "hashed");
}

/* Deterministic mode: the same checks plus ids ascending within each cell. */
static void test_grid_deterministic_against_cpu(void) {
    const int32_t dims[3] = {16, 16, 16}, corner[3] = {0, 0, 0};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    cpu_grid g = bounded_grid(dims, origin);
    run_grid_cases(&g, corner, dims, 1, "deterministic");
}

/* A tiny hash table: nearly every bucket holds distant cells; they must never meet. */
static void test_grid_hash_collisions_are_not_neighbors(void) {
    const int32_t dims[3] = {6, 6, 6};
    const int32_t corners[4][3] = {{0, 0, 0}, {4000, 0, 0}, {-20000, 300, -7}, {0, 0, 6}};
    uint32_t buckets[] = {1, 8, 64};
    uint32_t b, c, i, n = 4 * 1500;
    for (b = 0; b < sizeof buckets / sizeof buckets[0]; ++b) {
        cpu_grid g;
        particles all;
        gp_world* w;
        float* slots;
        memset(&g, 0, sizeof g);
        g.cell_size = CELL;
        g.buckets = buckets[b];
        w = world_for(&g, n, 0);
        if (!w) return;
        all.n = n;
        all.position = (float*)malloc((size_t)n * 16);
        all.velocity = (float*)malloc((size_t)n * 16);
        all.user = (uint32_t*)malloc((size_t)n * 4);
        for (c = 0; c < 4; ++c) {   /* four clusters, far apart or touching (the last two) */
            particles ps = make_particles(n / 4, PATTERN_RANDOM, corners[c], dims, 900 + c + 10 * b);
            for (i = 0; i < n / 4; ++i) ps.user[i] = (c * (n / 4) + i) * 7u + 1u;
            memcpy(all.position + (size_t)c * (n / 4) * 4, ps.position, (size_t)(n / 4) * 16);
            memcpy(all.velocity + (size_t)c * (n / 4) * 4, ps.velocity, (size_t)(n / 4) * 16);
            memcpy(all.user + (size_t)c * (n / 4), ps.user, (size_t)(n / 4) * 4);
            particles_free(&ps);
        }
        add_particles(w, &all);
        CHECK(gp_grid_build(w) == GP_OK);
        slots = check_grid(w, &g, &all, 0, "collisions");
        check_neighbors(w, slots, n, CELL, "collisions");
        free(slots);
        particles_free(&all);
        gp_world_destroy(w);
    }
}

/* No cap per cell: 65,537 particles in one cell, bounded and hashed; and 3,001 crowded so close
   that each has all the others for neighbours. */
static void test_grid_one_cell_holds_everything(void) {
    const int32_t dims[3] = {8, 8, 8}, corner[3] = {0, 0, 0};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    uint32_t mode, n = 65537, crowd = 3001, i;
    for (mode = 0; mode < 2; ++mode) {
        cpu_grid g = bounded_grid(dims, origin);
        particles ps = make_particles(n, PATTERN_EQUAL, corner, dims, 5);
        gp_world* w;
        uint32_t* start;
        uint32_t key;
        float* slots;
        if (mode == 1) { g.bounded = 0; g.buckets = 4096; }
        w = world_for(&g, n, 0);
        if (!w) return;
        add_particles(w, &ps);
        CHECK(gp_grid_build(w) == GP_OK);
        slots = check_grid(w, &g, &ps, 0, "one cell");
        key = cpu_grid_key(&g, ps.position);
        start = fixture_read(w, gp_world_buffers(w).cell_start, g.buckets + 2);
        CHECKF(start[key + 1] - start[key] == n, "one cell holds %u of %u", start[key + 1] - start[key], n);
        free(start); free(slots);
        particles_free(&ps);
        gp_world_destroy(w);

        ps = make_particles(crowd, PATTERN_EQUAL, corner, dims, 6);
        for (i = 0; i < crowd; ++i) {   /* all within 0.2 cells of one point */
            ps.position[4 * (size_t)i + 0] = 1.1f * CELL + 0.1f * CELL * (float)(i % 3);
            ps.position[4 * (size_t)i + 1] = 1.1f * CELL + 0.1f * CELL * (float)(i / 3 % 3);
            ps.position[4 * (size_t)i + 2] = 1.1f * CELL + 0.1f * CELL * (float)(i / 9 % 3) + 1e-5f * (float)i;
        }
        w = world_for(&g, crowd, 0);
        if (!w) return;
        add_particles(w, &ps);
        CHECK(gp_grid_build(w) == GP_OK);
        {
            uint32_t out = fixture_buffer(w, NULL, crowd), *got, bad = 0;
            CHECK(gp_grid_count_neighbors(w, CELL, out) == GP_OK);
            got = fixture_read(w, out, crowd);
            for (i = 0; i < crowd; ++i) bad += got[i] != crowd - 1;
            CHECKF(bad == 0, "%u of %u crowded particles miss neighbours (first has %u)", bad, crowd, got[0]);
            free(got);
            gp_buffer_destroy(w, out);
        }
        particles_free(&ps);
        gp_world_destroy(w);
    }
}

/* Outside a bounded grid: clamped into border cells, counted exactly, never dropped, and still
   found by their neighbours. */
static void test_grid_outside_particles_are_clamped_and_counted(void) {
    const int32_t dims[3] = {10, 10, 10}, corner[3] = {-5, -5, -5}, spread[3] = {20, 20, 20};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    cpu_grid g = bounded_grid(dims, origin);
    uint32_t n = 20000, i, outside = 0;
    particles ps = make_particles(n, PATTERN_RANDOM, corner, spread, 31);
    gp_world* w = world_for(&g, n, 0);
    gp_grid_stats stats;
    float* slots;
    if (!w) return;
    /* and some very far away: huge, and the largest finite floats */
    ps.position[0] = 1.0e6f; ps.position[4] = -1.0e30f; ps.position[8] = 3.0e38f; ps.position[9] = -3.0e38f;
    for (i = 0; i < n; ++i) outside += !cpu_grid_inside(&g, ps.position + 4 * (size_t)i);
    add_particles(w, &ps);
    CHECK(gp_grid_build(w) == GP_OK);
    CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
    CHECKF(stats.outside == outside && stats.nonfinite == 0 && stats.particles == n,
           "stats: %u outside (expected %u), %u nonfinite, %u particles", stats.outside, outside, stats.nonfinite, stats.particles);
    CHECK(outside > n / 2);
    slots = check_grid(w, &g, &ps, 0, "outside");
    check_neighbors(w, slots, n, CELL, "outside");
    CHECK(gp_particle_count(w) == n);
    free(slots);
    particles_free(&ps);
    gp_world_destroy(w);
}

/* gp_world_step says when the grid files particles badly, once while it lasts (the statistics of
   the step before last): particles outside a bounded grid's box or beyond the hash's range (kept,
   clamped into the edge cells, where every neighbour loop visits them all: a body thrown out of
   the box made each step of llvmpipe's take minutes, found by a hostile-input run) and buckets
   past GP_GRID_CROWD. Nothing is dropped: the count stays exact throughout. */
static int grid_warnings[GP_LOG_ITEM_COUNT];
static void grid_counting_logger(gp_log_level level, gp_log_item item, const char* message, void* user_data) {
    (void)message; (void)user_data;
    if (level >= GP_LOG_WARNING && (int)item < GP_LOG_ITEM_COUNT) ++grid_warnings[item];
}
/* count effect particles from (x, 0.1, 0.2) along x, 1 cm apart in rows of 7, or all on that one
   spot (spread 0). */
static void grid_place(gp_world* w, uint32_t count, float x, float spread, uint32_t* ids) {
    float xyz[3 * 300];
    gp_particles_desc d;
    uint32_t i;
    for (i = 0; i < count; ++i) { xyz[3 * i] = x + spread * (float)(i % 7); xyz[3 * i + 1] = 0.1f; xyz[3 * i + 2] = 0.2f; }
    memset(&d, 0, sizeof d);
    d.count = count; d.positions = xyz; d.kind = GP_KIND_EFFECT; d.radius = 0.005f;
    CHECK(gp_particles_add(w, &d, ids) == GP_OK);
}
static void test_grid_step_warns_outside_and_crowded(void) {
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    int hashed;
    for (hashed = 0; hashed < 2; ++hashed) {
        gp_world_desc d;
        gp_world* w = NULL;
        gp_grid_stats stats;
        uint32_t far_ids[10], expected = 0;
        const float far = hashed ? 1.0e8f : 2.0f;   /* 2^30 cells of 0.05 m: 5.4e7 m */
        memset(&d, 0, sizeof d);
        d.max_particles = 1024;
        d.grid.cell_size = 0.05f;
        if (!hashed) { d.grid.mode = GP_GRID_BOUNDED; d.grid.dims[0] = d.grid.dims[1] = d.grid.dims[2] = 8; }
        d = fixture_desc(&d);
        d.logger.func = grid_counting_logger;
        memset(grid_warnings, 0, sizeof grid_warnings);
        CHECK(gp_world_create(&d, &w) == GP_OK);
        if (!w) return;
        CHECK(gp_gravity_set(w, zero) == GP_OK);
        grid_place(w, 40, 0.1f, 0.01f, NULL);
        grid_place(w, 10, far, 0.01f, far_ids);
        expected = 50;
        fixture_run(w, 6);
        CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.outside == 10 && stats.particles == expected, "hashed %d: %u outside of %u", hashed, stats.outside, stats.particles);
        CHECKF(grid_warnings[GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID] == 1,
               "hashed %d: warned %d times of particles outside over 6 steps (once while it lasts)", hashed,
               grid_warnings[GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID]);
        CHECK(gp_particles_remove(w, far_ids, 10) == GP_OK);
        expected -= 10;
        fixture_run(w, 4);
        CHECK(grid_warnings[GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID] == 1);
        grid_place(w, 5, far, 0.01f, NULL);
        expected += 5;
        fixture_run(w, 4);
        CHECKF(grid_warnings[GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID] == 2, "hashed %d: particles that left again: %d warnings", hashed,
               grid_warnings[GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID]);
        CHECK(grid_warnings[GP_LOG_ITEM_BUCKETS_CROWDED] == 0);
        grid_place(w, 300, 0.2f, 0.0f, NULL);   /* 300 on one spot: 44 past the 256th of their bucket */
        expected += 300;
        fixture_run(w, 6);
        CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.crowded >= 300 - GP_GRID_CROWD && grid_warnings[GP_LOG_ITEM_BUCKETS_CROWDED] == 1,
               "hashed %d: %u crowded, warned %d times", hashed, stats.crowded, grid_warnings[GP_LOG_ITEM_BUCKETS_CROWDED]);
        CHECKF(stats.particles == expected && gp_particle_count(w) == expected, "hashed %d: %u particles, %u expected", hashed,
               stats.particles, expected);
        gp_world_destroy(w);
    }
}

/* NaN and infinite positions (as a user's shader might write them): reported, kept (sorted last),
   meeting no one, and not disturbing the others. Bounded and hashed; and deterministic, with more
   of them than GP_GRID_CROWD in the NaN bucket (its order then comes from the sort). */
static void test_grid_nan_positions_are_reported_not_lost(void) {
    const int32_t dims[3] = {12, 12, 12}, corner[3] = {0, 0, 0};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    const float bad_values[4] = {NAN, INFINITY, -INFINITY, -NAN};
    uint32_t mode, n = 5000, i, nonfinite = 0;
    for (mode = 0; mode < 4; ++mode) {
        const uint32_t every = mode < 2 ? 37 : 13, deterministic = mode >= 2;   /* 136 or 385 of them */
        cpu_grid g = bounded_grid(dims, origin);
        particles ps = make_particles(n, PATTERN_RANDOM, corner, dims, 44 + mode);
        gp_world* w;
        gp_grid_stats stats;
        float* slots;
        int round;
        if (mode % 2 == 1) { g.bounded = 0; g.buckets = 1024; }
        w = world_for(&g, n, (int)deterministic);
        if (!w) return;
        add_particles(w, &ps);
        nonfinite = 0;
        for (i = 0; i < n; i += every) {   /* raw writes into the GPU store, bypassing validation */
            ps.position[4 * (size_t)i + i % 3] = bad_values[(i / every) % 4];
            CHECK(gp_buffer_write(w, gp_world_buffers(w).position, (size_t)i * 16, 16, ps.position + 4 * (size_t)i) == GP_OK);
            ++nonfinite;
        }
        CHECK(gp_particles_write(w, GP_ATTRIBUTE_POSITION, 0, 1, ps.position + 0) == GP_ERROR_INVALID_ARGUMENT);
        for (round = 0; round < 2; ++round) {   /* and they stay through later builds */
            CHECK(gp_grid_build(w) == GP_OK);
            CHECK(gp_grid_stats_read(w, &stats) == GP_OK);
            CHECKF(stats.nonfinite == nonfinite && stats.particles == n,
                   "mode %u: %u nonfinite reported, %u written; %u particles", mode, stats.nonfinite, nonfinite, stats.particles);
            slots = check_grid(w, &g, &ps, (int)deterministic, "nan");
            for (i = n - nonfinite; i < n; ++i)
                CHECKF(!cpu_finite3(slots + 4 * (size_t)i), "slot %u of the last %u is finite", i, nonfinite);
            check_neighbors(w, slots, n, CELL, "nan");
            free(slots);
        }
        CHECK(gp_particle_count(w) == n);
        particles_free(&ps);
        gp_world_destroy(w);
    }
}

/* Two runs from the same state, with positions moved between builds, are bit-identical in every
   buffer the grid writes. */
static void test_grid_deterministic_runs_are_bit_identical(void) {
    const int32_t dims[3] = {20, 20, 20}, corner[3] = {0, 0, 0}, crowd[3] = {3, 3, 3};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    cpu_grid g = bounded_grid(dims, origin);
    uint32_t n = 60001, run, step, i, a;
    uint32_t* images[2][6];
    for (run = 0; run < 2; ++run) {
        particles ps = make_particles(n, PATTERN_RANDOM, corner, crowd, 2024);   /* ~2,200 a cell */
        gp_world* w = world_for(&g, n, 1);
        gp_buffers b;
        if (!w) return;
        add_particles(w, &ps);
        for (step = 0; step < 3; ++step) {
            float* moved = (float*)malloc((size_t)n * 16);
            CHECK(gp_grid_build(w) == GP_OK);
            CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, moved) == GP_OK);
            for (i = 0; i < n; ++i)
                for (a = 0; a < 3; ++a) moved[4 * (size_t)i + a] += CELL * (a == step ? 1.0f : -0.5f);
            CHECK(gp_particles_write(w, GP_ATTRIBUTE_POSITION, 0, n, moved) == GP_OK);
            free(moved);
        }
        CHECK(gp_grid_build(w) == GP_OK);
        b = gp_world_buffers(w);
        images[run][0] = fixture_read(w, b.position, 4 * n);
        images[run][1] = fixture_read(w, b.velocity, 4 * n);
        images[run][2] = fixture_read(w, b.info, 4 * n);
        images[run][3] = fixture_read(w, b.life, 2 * n);
        images[run][4] = fixture_read(w, b.slot_of_id, n);
        images[run][5] = fixture_read(w, b.cell_start, g.buckets + 2);
        particles_free(&ps);
        gp_world_destroy(w);
    }
    {
        const uint32_t words[6] = {4 * n, 4 * n, 4 * n, 2 * n, n, g.buckets + 2};
        const char* names[6] = {"position", "velocity", "info", "life", "slot_of_id", "cell_start"};
        for (i = 0; i < 6; ++i) {
            CHECKF(memcmp(images[0][i], images[1][i], (size_t)words[i] * 4) == 0, "%s differs between two runs", names[i]);
            free(images[0][i]);
            free(images[1][i]);
        }
    }
}

/* Particles on the cells' faces, and one float either side of them, with a cell size and origin
   that no float holds exactly: every device must put each in the cell the CPU reference does.
   (NVIDIA's GLSL division is not correctly rounded; a division here put 26,330 of 531,443 cells'
   starts one particle off at 4M random particles on an H100. The grid multiplies by the host's
   reciprocal, as the reference does.) Bounded and hashed. No face lies at 0: GLSL lets a device
   flush subnormal numbers to zero (NVIDIA's does), so the floats beside 0 may fall either side. */
static void test_grid_cell_faces_match_cpu(void) {
    const int32_t dims[3] = {23, 17, 19};
    const float origin[3] = {-0.3f, 0.7f, 0.05f}, cell = 0.1f;
    uint32_t mode, n = 3 * 23 * 17 * 19, i;
    for (mode = 0; mode < 2; ++mode) {
        cpu_grid g = bounded_grid(dims, origin);
        particles ps = make_particles(n, PATTERN_RANDOM, (const int32_t[3]){0, 0, 0}, dims, 41);
        gp_world* w;
        float* slots;
        g.cell_size = cell;
        if (mode == 1) { g.bounded = 0; g.buckets = 1u << 12; memset(g.origin, 0, sizeof g.origin); }
        for (i = 0; i < n; ++i) {
            uint32_t c = i / 3, a;
            int32_t cell_index[3] = {(int32_t)(c % 23) + 1, (int32_t)(c / 23 % 17) + 1, (int32_t)(c / (23 * 17)) + 1};
            for (a = 0; a < 3; ++a) {
                float face = g.origin[a] + (float)cell_index[a] * cell;
                ps.position[4 * (size_t)i + a] = i % 3 == 0 ? face : i % 3 == 1 ? nextafterf(face, -1e9f) : nextafterf(face, 1e9f);
            }
        }
        w = world_for(&g, n, 0);
        if (!w) return;
        add_particles(w, &ps);
        CHECK(gp_grid_build(w) == GP_OK);
        slots = check_grid(w, &g, &ps, 0, mode ? "hashed cell faces" : "bounded cell faces");
        free(slots);
        particles_free(&ps);
        gp_world_destroy(w);
    }
}

static void test_grid_empty_and_misuse(void) {
    const int32_t dims[3] = {4, 4, 4};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    cpu_grid g = bounded_grid(dims, origin);
    gp_world* w = world_for(&g, 100, 0);
    gp_grid_stats stats;
    uint32_t out, *start, i, zeros = 0;
    float p[3] = {0.1f, 0.1f, 0.1f};
    gp_particles_desc d;
    if (!w) return;
    out = fixture_buffer(w, NULL, 100);
    CHECK(gp_grid_stats_read(w, &stats) == GP_ERROR_INVALID_STATE && fixture_logged_item(GP_LOG_ITEM_GRID_STALE));
    CHECK(gp_grid_build(w) == GP_OK);
    CHECK(gp_grid_stats_read(w, &stats) == GP_OK && stats.particles == 0 && stats.outside == 0 && stats.nonfinite == 0);
    start = fixture_read(w, gp_world_buffers(w).cell_start, g.buckets + 2);
    for (i = 0; i < g.buckets + 2; ++i) zeros += start[i] == 0;
    CHECK(zeros == g.buckets + 2);
    free(start);
    CHECK(gp_grid_count_neighbors(w, CELL, out) == GP_OK);
    memset(&d, 0, sizeof d);
    d.count = 1;
    d.positions = p;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    CHECK(gp_grid_count_neighbors(w, CELL, out) == GP_ERROR_INVALID_STATE && fixture_logged_item(GP_LOG_ITEM_GRID_STALE));
    CHECK(gp_grid_build(w) == GP_OK);
    CHECK(gp_grid_count_neighbors(w, 2.0f * CELL, out) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    CHECK(gp_grid_count_neighbors(w, NAN, out) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_grid_count_neighbors(w, CELL, 0) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_grid_count_neighbors(w, CELL, out) == GP_OK);
    gp_buffer_destroy(w, out);
    gp_world_destroy(w);
}

const gp_test_case grid_tests[] = {
    {"grid_bounded_against_cpu", test_grid_bounded_against_cpu},
    {"grid_cell_faces_match_cpu", test_grid_cell_faces_match_cpu},
    {"grid_hashed_against_cpu", test_grid_hashed_against_cpu},
    {"grid_deterministic_against_cpu", test_grid_deterministic_against_cpu},
    {"grid_hash_collisions_are_not_neighbors", test_grid_hash_collisions_are_not_neighbors},
    {"grid_one_cell_holds_everything", test_grid_one_cell_holds_everything},
    {"grid_outside_particles_are_clamped_and_counted", test_grid_outside_particles_are_clamped_and_counted},
    {"grid_nan_positions_are_reported_not_lost", test_grid_nan_positions_are_reported_not_lost},
    {"grid_step_warns_outside_and_crowded", test_grid_step_warns_outside_and_crowded},
    {"grid_deterministic_runs_are_bit_identical", test_grid_deterministic_runs_are_bit_identical},
    {"grid_empty_and_misuse", test_grid_empty_and_misuse},
};
const int grid_test_count = (int)(sizeof grid_tests / sizeof grid_tests[0]);
