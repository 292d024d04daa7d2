/* bench.c: the benchmark of gpuparticle.h's primitives, its SPH fluid, its DEM and their coupling, on
   whatever GL the EGL context gets (Mesa's llvmpipe on a machine without a GPU).

   Measures, at 65,536, 1,048,576 and 4,194,304 elements:
       scan_exclusive      gp_scan_exclusive of n random words
       compact             gp_compact of n random flags, about half of them set
       sort_pairs          gp_sort_pairs of n random (key, value) pairs, ascending
       grid_build_bounded  gp_grid_build of n particles at random in a box of about 8 per cell
                           (cell size 0.1, dims^3 * 8 ~ n), in a world of max_particles = n
       grid_rebuild_bounded  the build every simulation step makes: the store already in cell
                           order from the last build, every particle moved by up to 0.1 cell
       grid_build_hashed   the same particles in a hashed grid with the default buckets
       grid_rebuild_hashed   its rebuild, as above
       grid_build_by_id    the hashed build in a deterministic world (each cell in order of id:
                           ranked on the GPU, or sorted where a cell is crowded)
       grid_rebuild_by_id    its rebuild, as above
       count_neighbors     gp_grid_count_neighbors at radius = cell size over the bounded grid
   and for each: the GPU time, elements per second, the ratio to gp_copy over the bytes the
   primitive streams as input (the yardstick: n words for scan and compact, 2n for the sort's
   keys and values, 14n for the 56 bytes per particle that the grid build reorders, 4n for the
   neighbours' positions), and the speed-up over the single-threaded CPU reference of
   tests/cpu_reference.c on the same input (the grid's with a gather of the 56 bytes per particle
   into cell order; the neighbours' at 65,536 only, being brute force).

   GPU times come from the library's timer queries (desc.gpu_timings): one warm-up run, whose
   result is checked against the CPU's (a wrong answer prints FAIL and exits 1), then the totals
   are read and discarded, then 9 timed runs (5 above 1,048,576 elements), each the sum of every
   stage it recorded and each followed by a timed run of its copy, so that a drift in the speed
   of a shared machine moves both alike; the table gives the medians, and the copy ratio is the
   median of the runs' own ratios. Inputs that a run changes
   (the sort's pairs, the grid's particle order) are written back between runs, outside the
   timers. CPU times are the median of as many runs, by clock_gettime(CLOCK_MONOTONIC).

   The SPH section reproduces paper 001's Tables 1 and 2: a dam break (a block of water in a box
   tank, see sph_bench_size) at 1,024 to 4,194,304 particles, with per size the grid build's GPU
   time (Table 1's (a)), one whole substep's wall-clock time up to a readback (its (b)), the time
   of tests/cpu_sph.c's single-threaded grid version on the same state (Table 2; checked against
   the GPU's density, pressure and acceleration; up to 262,144 particles as in the paper, beyond
   while one run takes at most 5 s), the speed-up, the step time per particle against the size
   before (goal: linear growth) and the GPU memory, by the store's layout and measured over every
   GL buffer (goal: at most 100 bytes a particle). On a software GL it skips a size that the one
   before predicts to overrun the section's budget.

   The DEM section reproduces paper 000's two timings (see dem_row): 16,384 rigid bodies of 4
   particles (65,536 particles) and 16,384 grains dropped into a box, in iterations (substeps) per
   second on the GPU and with tests/cpu_dem.c's single-threaded grid version on the same state
   (checked first against the GPU's contact accelerations), and the speed-up; 1,048,576-particle
   rows too (262,144 bodies; grains) when GP_BENCH_MAX_PARTICLES is at least 1,048,576. Then the
   cost of the contacts kept (static friction's shear springs): each scene with the default shear spring and with
   GP_SHEAR_VISCOUS, stepped in turn in one run (dem_history_row), and the bytes they take.

   The coupling section reproduces paper 000's figure 29-11 (top, see coupling_bench_row): 49,153
   fluid particles in a tank among 61 rigid glasses of particles of the fluid's spacing, in GPU
   milliseconds (every stage timer summed) and iterations (substeps) per second, against the
   paper's 18 ips; the coupling stages' share of a substep; and the same water without the
   glasses, whose difference is the whole cost of the solids. A row at 1,048,576 fluid particles
   (1,513 glasses) too when GP_BENCH_MAX_PARTICLES is at least 1,048,576.

   Run:   make bench                       the tables on stdout, the figures in build/bench.csv
          build/bench --quick              65,536 elements only (SPH up to 65,536): a smoke run
          build/bench --sizes 1000,65536   other sizes for the primitives
          build/bench --sph-only, --dem-only, --coupling-only   one section only
          build/bench --no-sph, --no-dem, --no-coupling   all but one section
   Environment: GP_BENCH_MAX_PARTICLES=N   SPH sizes up to N, every one run whatever it takes
                                           (4194304 on a GPU: all of Table 1); DEM's and the
                                           coupling's 1M rows from N = 1048576
                GP_BENCH_SPH_SECONDS=S     the SPH section's budget otherwise (default 270)
*/
#define _POSIX_C_SOURCE 200809L
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "cpu_reference.h"
#include "cpu_sph.h"
#include "cpu_dem.h"
#include "gp_egl.h"
#include <GL/gl.h>   /* the types and enums of the few entry points E3 loads (GL/glext.h through it) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_SIZES 16
#define BENCH_PRIMITIVES 10
#define BENCH_MAX_RUNS 9
#define BENCH_MAX_STAGES 32
#define BENCH_MAX_CHUNKS 16      /* buffers of the copy yardstick */
#define BENCH_CELL_SIZE 0.1f
#define BENCH_CSV "build/bench.csv"
#define BENCH_CPU_NEIGHBORS_MAX 65536u   /* brute force above this takes too long */

/* The rows, in the order the table prints them; grid_build_bounded and scan carry the goals. */
enum { ROW_SCAN, ROW_COMPACT, ROW_SORT, ROW_GRID_BOUNDED, ROW_REBUILD_BOUNDED, ROW_GRID_HASHED, ROW_REBUILD_HASHED, ROW_GRID_BY_ID,
       ROW_REBUILD_BY_ID, ROW_NEIGHBORS };
static const char* const row_names[BENCH_PRIMITIVES] = {
    "scan_exclusive", "compact", "sort_pairs", "grid_build_bounded", "grid_rebuild_bounded", "grid_build_hashed",
    "grid_rebuild_hashed", "grid_build_by_id", "grid_rebuild_by_id", "count_neighbors"};
/* Words of input each primitive streams, per element: what its gp_copy yardstick copies. */
static const uint32_t row_copy_words[BENCH_PRIMITIVES] = {1, 1, 2, 14, 14, 14, 14, 14, 14, 4};

typedef struct bench_row {
    uint32_t n;
    int runs;
    double gpu_ms, copy_ms;
    double ratio;    /* the median of each run's time over the time of the copy run right after it */
    double cpu_ms;   /* < 0: not measured */
} bench_row;

/* Everything one size needs: host inputs, the CPU's outputs, the world and GL buffers. */
typedef struct bench_size {
    uint32_t n;
    int runs;
    /* inputs */
    uint32_t *words, *flags, *keys, *values;
    float* positions3;                         /* n * 3, for gp_particles_add */
    float *positions, *velocities, *life;      /* n * 4, n * 4, n * 2: the store as added */
    uint32_t* info;                            /* n * 4 */
    uint32_t dims;                             /* bounded grid: dims^3 cells */
    bool deterministic;                        /* make_world's worlds order each cell by id */
    /* the CPU's outputs */
    uint32_t *cpu_out, *cpu_keys, *cpu_values, cpu_count;
    uint32_t *cpu_cell_start, *cpu_order;
    float *sorted_positions, *sorted_velocities, *sorted_life;
    float* moved;                              /* n * 4: the store in cell order, each particle moved a little */
    uint32_t* sorted_info;
    cpu_grid grid;
    /* the GPU's */
    gp_world* world;
    uint32_t words_buffer, flags_buffer, keys_buffer, values_buffer, out_buffer, count_buffer;
    uint32_t copy_source[BENCH_MAX_CHUNKS], copy_destination[BENCH_MAX_CHUNKS], copy_words[BENCH_MAX_CHUNKS], copy_chunks;
} bench_size;

typedef gp_result (*gpu_fn)(bench_size* s);
typedef void (*cpu_fn)(bench_size* s);

/* ---- small helpers ----------------------------------------------------------------------- */

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int compare_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static double median(double* values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_double);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

/* xorshift64*: the same inputs on every machine. */
static uint64_t bench_random(uint64_t* state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

static void* bench_alloc(size_t bytes) {
    void* p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench: out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

static void check_result(gp_result r, const char* what, uint32_t n) {
    if (r == GP_OK) return;
    fprintf(stderr, "bench: %s at n = %u failed: %s\n", what, n, gp_result_string(r));
    exit(1);
}

/* A wrong answer is not worth timing. */
static void fail(const char* primitive, uint32_t n, const char* what, uint32_t index, uint32_t gpu, uint32_t cpu) {
    printf("FAIL: %s at n = %u: %s [%u] is %u on the GPU, %u on the CPU\n", primitive, n, what, index, gpu, cpu);
    fflush(stdout);
    exit(1);
}

/* A wrong answer names its first wrong element and how many are wrong (a few near cell
   boundaries, or all of them, tell different stories). */
static void check_words(const char* primitive, uint32_t n, const char* what, const uint32_t* gpu, const uint32_t* cpu, uint32_t count) {
    uint32_t i, wrong = 0, first = 0, last = 0;
    for (i = 0; i < count; ++i)
        if (gpu[i] != cpu[i]) { if (!wrong++) first = i; last = i; }
    if (!wrong) return;
    printf("%s at n = %u: %u of %u words of %s differ, the first at [%u], the last at [%u] (%u on the GPU, %u on the CPU)\n",
           primitive, n, wrong, count, what, first, last, gpu[last], cpu[last]);
    fail(primitive, n, what, first, gpu[first], cpu[first]);
}

static uint32_t* read_words(bench_size* s, uint32_t buffer, size_t count) {
    uint32_t* words = (uint32_t*)bench_alloc(count * 4);
    check_result(gp_buffer_read(s->world, buffer, 0, count * 4, words), "gp_buffer_read", s->n);
    return words;
}

/* Reads count words of a buffer and checks the first `compared` against the CPU's. */
static void check_buffer(bench_size* s, const char* primitive, const char* what, uint32_t buffer, uint32_t count,
                         const uint32_t* cpu, uint32_t compared) {
    uint32_t* gpu = read_words(s, buffer, count);
    check_words(primitive, s->n, what, gpu, cpu, compared);
    free(gpu);
}

/* "1,048,576" */
static const char* grouped(uint32_t n, char* text) {
    char digits[16];
    int length = snprintf(digits, sizeof digits, "%u", n), i, j = 0;
    for (i = 0; i < length; ++i) {
        if (i > 0 && (length - i) % 3 == 0) text[j++] = ',';
        text[j++] = digits[i];
    }
    text[j] = '\0';
    return text;
}

/* ---- timing ------------------------------------------------------------------------------- */

/* The GPU milliseconds of every stage recorded since the last read, summed. */
static double gpu_stage_ms(bench_size* s) {
    gp_timing timings[BENCH_MAX_STAGES];
    uint32_t count = gp_timings_read(s->world, timings, BENCH_MAX_STAGES), i;
    double ms = 0.0;
    if (count == 0) {
        fprintf(stderr, "bench: the run recorded no GPU timings at n = %u\n", s->n);
        exit(1);
    }
    for (i = 0; i < count && i < BENCH_MAX_STAGES; ++i) ms += timings[i].milliseconds;
    return ms;
}

/* One run, untimed: the warm-up (llvmpipe compiles each shader at its first dispatch) whose
   result the caller checks. prepare (may be NULL) restores the input. */
static void gpu_warm_up(bench_size* s, gpu_fn prepare, gpu_fn run, const char* what) {
    if (prepare) check_result(prepare(s), what, s->n);
    check_result(run(s), what, s->n);
}

static double cpu_median_ms(bench_size* s, cpu_fn prepare, cpu_fn run, int runs) {
    double ms[BENCH_MAX_RUNS];
    int r;
    for (r = 0; r < runs; ++r) {
        double start;
        if (prepare) prepare(s);
        start = now_ms();
        run(s);
        ms[r] = now_ms() - start;
    }
    return median(ms, runs);
}

/* ---- the copy yardstick ------------------------------------------------------------------ */

static gp_result gpu_copy(bench_size* s) {
    gp_result r = GP_OK;
    uint32_t c;
    for (c = 0; c < s->copy_chunks && r == GP_OK; ++c) r = gp_copy(s->world, s->copy_source[c], s->copy_destination[c], s->copy_words[c]);
    return r;
}

/* Buffers for a gp_copy of words_per_element * n words, in chunks of at most 4n words: one
   particle attribute's buffer, as the grid build's are, and under llvmpipe's 128 MiB storage
   block limit at 4M. */
static void copy_buffers_create(bench_size* s, uint32_t words_per_element) {
    uint64_t left = (uint64_t)words_per_element * s->n;
    uint64_t most = 4 * (uint64_t)s->n;
    s->copy_chunks = 0;
    while (left > 0) {
        uint32_t c = s->copy_chunks++;
        if (c == BENCH_MAX_CHUNKS) {
            fprintf(stderr, "bench: the copy of %u * %u words needs more than %d buffers\n", words_per_element, s->n, BENCH_MAX_CHUNKS);
            exit(1);
        }
        s->copy_words[c] = (uint32_t)(left < most ? left : most);
        /* the source filled with data, so that its pages are real memory on a software GL */
        check_result(gp_buffer_create(s->world, (size_t)s->copy_words[c] * 4, s->positions, &s->copy_source[c]), "gp_buffer_create", s->n);
        check_result(gp_buffer_create(s->world, (size_t)s->copy_words[c] * 4, NULL, &s->copy_destination[c]), "gp_buffer_create", s->n);
        left -= s->copy_words[c];
    }
}

static void copy_buffers_destroy(bench_size* s) {
    uint32_t c;
    for (c = 0; c < s->copy_chunks; ++c) {
        gp_buffer_destroy(s->world, s->copy_source[c]);
        gp_buffer_destroy(s->world, s->copy_destination[c]);
    }
    s->copy_chunks = 0;
}

/* The GPU columns of a row, after the primitive's own warm-up: the copy's warm-up, the totals
   read and discarded, then runs timed runs of the primitive, each followed by a timed copy, so
   that both see the same machine (a shared or throttled CPU shifts a software GL's speed from
   one second to the next). Each time is the sum of every stage the run recorded. */
static void gpu_time_row(bench_size* s, gpu_fn prepare, gpu_fn run, const char* what, uint32_t copy_words_per_element,
                         bench_row* row) {
    double ms[BENCH_MAX_RUNS], copy[BENCH_MAX_RUNS], ratio[BENCH_MAX_RUNS];
    int r;
    copy_buffers_create(s, copy_words_per_element);
    gpu_warm_up(s, NULL, gpu_copy, "gp_copy");
    gpu_stage_ms(s);
    for (r = 0; r < s->runs; ++r) {
        if (prepare) check_result(prepare(s), what, s->n);
        check_result(run(s), what, s->n);
        ms[r] = gpu_stage_ms(s);
        check_result(gpu_copy(s), "gp_copy", s->n);
        copy[r] = gpu_stage_ms(s);
        ratio[r] = ms[r] / copy[r];
    }
    copy_buffers_destroy(s);
    row->gpu_ms = median(ms, s->runs);
    row->copy_ms = median(copy, s->runs);
    row->ratio = median(ratio, s->runs);
}

/* ---- the primitives, GPU and CPU ---------------------------------------------------------- */

static gp_result gpu_scan(bench_size* s) { return gp_scan_exclusive(s->world, s->words_buffer, s->out_buffer, s->n); }
static void ref_scan(bench_size* s) { cpu_scan_exclusive(s->words, s->cpu_out, s->n); }

static gp_result gpu_compact(bench_size* s) { return gp_compact(s->world, s->flags_buffer, s->n, s->out_buffer, s->count_buffer, 0); }
static void ref_compact(bench_size* s) { s->cpu_count = cpu_compact(s->flags, s->n, s->cpu_out); }

/* The sort works in place: each run starts again from the random pairs. */
static gp_result gpu_sort_prepare(bench_size* s) {
    gp_result r = gp_buffer_write(s->world, s->keys_buffer, 0, (size_t)s->n * 4, s->keys);
    return r != GP_OK ? r : gp_buffer_write(s->world, s->values_buffer, 0, (size_t)s->n * 4, s->values);
}
static gp_result gpu_sort(bench_size* s) { return gp_sort_pairs(s->world, s->keys_buffer, s->values_buffer, s->n, GP_SORT_ASCENDING); }
static void ref_sort_prepare(bench_size* s) {
    memcpy(s->cpu_keys, s->keys, (size_t)s->n * 4);
    memcpy(s->cpu_values, s->values, (size_t)s->n * 4);
}
static void ref_sort(bench_size* s) { cpu_sort_pairs(s->cpu_keys, s->cpu_values, s->n, 0); }

/* The build leaves the store in cell order: put the positions back in their random order, so
   that each run sorts as much as the first. */
static gp_result gpu_grid_prepare(bench_size* s) { return gp_particles_write(s->world, GP_ATTRIBUTE_POSITION, 0, s->n, s->positions); }
static gp_result gpu_grid(bench_size* s) { return gp_grid_build(s->world); }
/* The counting sort, then the gather of position, velocity, info and life into cell order:
   the same work as gp_grid_build. */
static void ref_grid(bench_size* s) {
    uint32_t k;
    cpu_grid_build(&s->grid, s->positions, s->n, s->cpu_cell_start, s->cpu_order);
    for (k = 0; k < s->n; ++k) {
        size_t from = s->cpu_order[k];
        memcpy(s->sorted_positions + 4 * (size_t)k, s->positions + 4 * from, 16);
        memcpy(s->sorted_velocities + 4 * (size_t)k, s->velocities + 4 * from, 16);
        memcpy(s->sorted_info + 4 * (size_t)k, s->info + 4 * from, 16);
        memcpy(s->sorted_life + 2 * (size_t)k, s->life + 2 * from, 8);
    }
}

static void progress(const bench_size* s, int row) {
    char n[16];
    fprintf(stderr, "bench: n = %s: %s\n", grouped(s->n, n), row_names[row]);
}

/* A rebuild, as every simulation step does it: the store is in cell order from the last build and
   each particle has moved up to 0.1 cell; write those positions back, slot for slot. */
static gp_result gpu_rebuild_prepare(bench_size* s) { return gp_particles_write(s->world, GP_ATTRIBUTE_POSITION, 0, s->n, s->moved); }
static void ref_rebuild(bench_size* s) {
    float* random_order = s->positions;
    s->positions = s->moved;
    ref_grid(s);
    s->positions = random_order;
}

static gp_result gpu_neighbors(bench_size* s) { return gp_grid_count_neighbors(s->world, BENCH_CELL_SIZE, s->out_buffer); }
static void ref_neighbors(bench_size* s) {
    cpu_neighbor_counts(s->positions, s->n, (double)BENCH_CELL_SIZE * (double)BENCH_CELL_SIZE, s->cpu_out);
}

/* ---- one size ------------------------------------------------------------------------------ */

static void make_inputs(bench_size* s) {
    uint64_t state = 0x9e3779b97f4a7c15ull ^ s->n;
    uint32_t n = s->n, i, a;
    float side;
    s->dims = (uint32_t)lround(cbrt((double)n / 8.0));
    if (s->dims < 1) s->dims = 1;
    side = (float)s->dims * BENCH_CELL_SIZE;
    s->words = (uint32_t*)bench_alloc((size_t)n * 4);
    s->flags = (uint32_t*)bench_alloc((size_t)n * 4);
    s->keys = (uint32_t*)bench_alloc((size_t)n * 4);
    s->values = (uint32_t*)bench_alloc((size_t)n * 4);
    s->positions3 = (float*)bench_alloc((size_t)n * 12);
    s->positions = (float*)bench_alloc((size_t)n * 16);
    s->velocities = (float*)bench_alloc((size_t)n * 16);
    s->info = (uint32_t*)bench_alloc((size_t)n * 16);
    s->life = (float*)bench_alloc((size_t)n * 8);
    for (i = 0; i < n; ++i) {
        uint64_t r = bench_random(&state);
        s->words[i] = (uint32_t)(r >> 32);
        s->flags[i] = (r & 1) ? (uint32_t)(r >> 1) | 1u : 0u;
        s->keys[i] = (uint32_t)(bench_random(&state) >> 32);
        s->values[i] = i;
        for (a = 0; a < 3; ++a) {
            float x = (float)((double)(bench_random(&state) >> 40) / 16777216.0 * (double)side);
            if (x >= side) x = nextafterf(side, 0.0f);
            s->positions3[3 * (size_t)i + a] = x;
            s->positions[4 * (size_t)i + a] = x;
        }
        /* what gp_particles_add stores for a batch with only positions */
        s->positions[4 * (size_t)i + 3] = 0.5f * BENCH_CELL_SIZE;
        s->velocities[4 * (size_t)i + 0] = s->velocities[4 * (size_t)i + 1] = s->velocities[4 * (size_t)i + 2] = 0.0f;
        s->velocities[4 * (size_t)i + 3] = 1.0f;
        s->info[4 * (size_t)i + 0] = i;
        s->info[4 * (size_t)i + 1] = (uint32_t)GP_KIND_EFFECT;
        s->info[4 * (size_t)i + 2] = GP_NO_OWNER;
        s->info[4 * (size_t)i + 3] = 0;
        s->life[2 * (size_t)i + 0] = s->life[2 * (size_t)i + 1] = 0.0f;
    }
    s->cpu_out = (uint32_t*)bench_alloc((size_t)n * 4);
    s->cpu_keys = (uint32_t*)bench_alloc((size_t)n * 4);
    s->cpu_values = (uint32_t*)bench_alloc((size_t)n * 4);
    s->cpu_order = (uint32_t*)bench_alloc((size_t)n * 4);
    s->sorted_positions = (float*)bench_alloc((size_t)n * 16);
    s->sorted_velocities = (float*)bench_alloc((size_t)n * 16);
    s->sorted_info = (uint32_t*)bench_alloc((size_t)n * 16);
    s->sorted_life = (float*)bench_alloc((size_t)n * 8);
}

static void free_inputs(bench_size* s) {
    free(s->words); free(s->flags); free(s->keys); free(s->values);
    free(s->positions3); free(s->positions); free(s->velocities); free(s->info); free(s->life);
    free(s->cpu_out); free(s->cpu_keys); free(s->cpu_values); free(s->cpu_order);
    free(s->sorted_positions); free(s->sorted_velocities); free(s->sorted_info); free(s->sorted_life);
}

static gp_world* make_world(bench_size* s, gp_grid_mode mode) {
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_particles_desc block;
    memset(&desc, 0, sizeof desc);
    desc.max_particles = s->n;
    desc.gpu_timings = true;
    desc.any_order = !s->deterministic;
    desc.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    desc.grid.mode = mode;
    desc.grid.cell_size = BENCH_CELL_SIZE;
    if (mode == GP_GRID_BOUNDED) desc.grid.dims[0] = desc.grid.dims[1] = desc.grid.dims[2] = s->dims;
    check_result(gp_world_create(&desc, &world), "gp_world_create", s->n);
    memset(&block, 0, sizeof block);
    block.count = s->n;
    block.positions = s->positions3;
    check_result(gp_particles_add(world, &block, NULL), "gp_particles_add", s->n);
    return world;
}

/* The grid that world built, as the CPU reference describes it. */
static void describe_grid(bench_size* s, gp_grid_mode mode) {
    memset(&s->grid, 0, sizeof s->grid);
    s->grid.bounded = mode == GP_GRID_BOUNDED;
    s->grid.cell_size = BENCH_CELL_SIZE;
    s->grid.dims[0] = s->grid.dims[1] = s->grid.dims[2] = (int32_t)s->dims;
    s->grid.buckets = gp_world_buffers(s->world).buckets;
}

/* Times the grid rows of one mode, a build from random order and a rebuild; the CPU's cell_start
   must match. rows: the size's whole row array. */
static void bench_grid(bench_size* s, gp_grid_mode mode, bench_row* rows) {
    int which = s->deterministic ? ROW_GRID_BY_ID : mode == GP_GRID_BOUNDED ? ROW_GRID_BOUNDED : ROW_GRID_HASHED;
    const char* name = row_names[which];
    uint32_t buckets, k, *cell_start;
    float* sorted;
    describe_grid(s, mode);
    buckets = s->grid.buckets;
    s->cpu_cell_start = (uint32_t*)bench_alloc(((size_t)buckets + 2) * 4);
    rows[which].cpu_ms = cpu_median_ms(s, NULL, ref_grid, s->runs);
    gpu_warm_up(s, gpu_grid_prepare, gpu_grid, "gp_grid_build");
    /* the table must match, and every slot must lie in its own cell's range */
    cell_start = read_words(s, gp_world_buffers(s->world).cell_start, (size_t)buckets + 2);
    check_words(name, s->n, "cell_start", cell_start, s->cpu_cell_start, buckets + 2);
    sorted = (float*)bench_alloc((size_t)s->n * 16);
    check_result(gp_particles_read(s->world, GP_ATTRIBUTE_POSITION, 0, s->n, sorted), "gp_particles_read", s->n);
    for (k = 0; k < s->n; ++k) {
        uint32_t key = cpu_grid_key(&s->grid, sorted + 4 * (size_t)k);
        if (k < cell_start[key] || k >= cell_start[key + 1]) {
            printf("FAIL: %s at n = %u: slot %u lies outside its bucket %u's range [%u, %u)\n", name, s->n, k, key,
                   cell_start[key], cell_start[key + 1]);
            exit(1);
        }
    }
    free(cell_start);
    gpu_time_row(s, gpu_grid_prepare, gpu_grid, "gp_grid_build", row_copy_words[which], &rows[which]);

    /* the rebuild row: from cell order, every particle moved by up to 0.1 cell inside the box */
    {
        uint64_t state = 99;
        float box = (float)s->dims * BENCH_CELL_SIZE;
        int rebuild = s->deterministic ? ROW_REBUILD_BY_ID : mode == GP_GRID_BOUNDED ? ROW_REBUILD_BOUNDED : ROW_REBUILD_HASHED;
        s->moved = (float*)bench_alloc((size_t)s->n * 16);
        for (k = 0; k < 4 * s->n; ++k) {
            float jitter = 0.1f * BENCH_CELL_SIZE * ((float)(bench_random(&state) >> 40) / (float)(1u << 23) - 1.0f);
            float v = sorted[k] + ((k & 3) == 3 ? 0.0f : jitter);
            s->moved[k] = (k & 3) == 3 ? v : v < 0.0f ? 0.0f : v >= box ? box * 0.9999f : v;
        }
        progress(s, rebuild);
        rows[rebuild].cpu_ms = cpu_median_ms(s, NULL, ref_rebuild, s->runs);
        gpu_warm_up(s, gpu_rebuild_prepare, gpu_grid, "gp_grid_build");
        gpu_time_row(s, gpu_rebuild_prepare, gpu_grid, "gp_grid_build", row_copy_words[rebuild], &rows[rebuild]);
        free(s->moved);
        s->moved = NULL;
    }
    free(sorted);
    free(s->cpu_cell_start);
    s->cpu_cell_start = NULL;
}

/* Fills rows[primitive] for one size. */
static void bench_one_size(uint32_t n, bench_row rows[BENCH_PRIMITIVES]) {
    bench_size s;
    int p;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.runs = n <= (1u << 20) ? 9 : 5;
    for (p = 0; p < BENCH_PRIMITIVES; ++p) {
        rows[p].n = n;
        rows[p].runs = s.runs;
        rows[p].cpu_ms = -1.0;
    }
    make_inputs(&s);
    s.world = make_world(&s, GP_GRID_BOUNDED);
    check_result(gp_buffer_create(s.world, (size_t)n * 4, s.words, &s.words_buffer), "gp_buffer_create", n);
    check_result(gp_buffer_create(s.world, (size_t)n * 4, s.flags, &s.flags_buffer), "gp_buffer_create", n);
    check_result(gp_buffer_create(s.world, (size_t)n * 4, s.keys, &s.keys_buffer), "gp_buffer_create", n);
    check_result(gp_buffer_create(s.world, (size_t)n * 4, s.values, &s.values_buffer), "gp_buffer_create", n);
    check_result(gp_buffer_create(s.world, (size_t)n * 4, NULL, &s.out_buffer), "gp_buffer_create", n);
    check_result(gp_buffer_create(s.world, 4, NULL, &s.count_buffer), "gp_buffer_create", n);

    progress(&s, ROW_SCAN);
    rows[ROW_SCAN].cpu_ms = cpu_median_ms(&s, NULL, ref_scan, s.runs);
    gpu_warm_up(&s, NULL, gpu_scan, "gp_scan_exclusive");
    check_buffer(&s, row_names[ROW_SCAN], "output", s.out_buffer, n, s.cpu_out, n);
    gpu_time_row(&s, NULL, gpu_scan, "gp_scan_exclusive", row_copy_words[ROW_SCAN], &rows[ROW_SCAN]);

    progress(&s, ROW_COMPACT);
    rows[ROW_COMPACT].cpu_ms = cpu_median_ms(&s, NULL, ref_compact, s.runs);
    gpu_warm_up(&s, NULL, gpu_compact, "gp_compact");
    check_buffer(&s, row_names[ROW_COMPACT], "count", s.count_buffer, 1, &s.cpu_count, 1);
    check_buffer(&s, row_names[ROW_COMPACT], "indices", s.out_buffer, n, s.cpu_out, s.cpu_count);
    gpu_time_row(&s, NULL, gpu_compact, "gp_compact", row_copy_words[ROW_COMPACT], &rows[ROW_COMPACT]);

    progress(&s, ROW_SORT);
    rows[ROW_SORT].cpu_ms = cpu_median_ms(&s, ref_sort_prepare, ref_sort, s.runs);
    gpu_warm_up(&s, gpu_sort_prepare, gpu_sort, "gp_sort_pairs");
    check_buffer(&s, row_names[ROW_SORT], "keys", s.keys_buffer, n, s.cpu_keys, n);
    check_buffer(&s, row_names[ROW_SORT], "values", s.values_buffer, n, s.cpu_values, n);
    gpu_time_row(&s, gpu_sort_prepare, gpu_sort, "gp_sort_pairs", row_copy_words[ROW_SORT], &rows[ROW_SORT]);

    progress(&s, ROW_GRID_BOUNDED);
    bench_grid(&s, GP_GRID_BOUNDED, rows);
    check_result(gpu_grid_prepare(&s), "gp_particles_write", n);   /* the random positions again */
    check_result(gpu_grid(&s), "gp_grid_build", n);

    /* over the grid the last timed build left, which holds the current positions */
    progress(&s, ROW_NEIGHBORS);
    if (n <= BENCH_CPU_NEIGHBORS_MAX) rows[ROW_NEIGHBORS].cpu_ms = cpu_median_ms(&s, NULL, ref_neighbors, s.runs);
    gpu_warm_up(&s, NULL, gpu_neighbors, "gp_grid_count_neighbors");
    {
        gp_grid_stats stats;
        check_result(gp_grid_stats_read(s.world, &stats), "gp_grid_stats_read", n);
        if (stats.truncated || stats.outside || stats.nonfinite)
            fprintf(stderr, "bench: warning: n = %u: %u truncated, %u outside, %u non-finite particles\n", n,
                    stats.truncated, stats.outside, stats.nonfinite);
    }
    gpu_time_row(&s, NULL, gpu_neighbors, "gp_grid_count_neighbors", row_copy_words[ROW_NEIGHBORS], &rows[ROW_NEIGHBORS]);

    gp_buffer_destroy(s.world, s.words_buffer);
    gp_buffer_destroy(s.world, s.flags_buffer);
    gp_buffer_destroy(s.world, s.keys_buffer);
    gp_buffer_destroy(s.world, s.values_buffer);
    gp_buffer_destroy(s.world, s.out_buffer);
    gp_buffer_destroy(s.world, s.count_buffer);
    gp_world_destroy(s.world);

    progress(&s, ROW_GRID_HASHED);
    s.world = make_world(&s, GP_GRID_HASHED);
    bench_grid(&s, GP_GRID_HASHED, rows);
    gp_world_destroy(s.world);

    progress(&s, ROW_GRID_BY_ID);
    s.deterministic = true;
    s.world = make_world(&s, GP_GRID_HASHED);
    bench_grid(&s, GP_GRID_HASHED, rows);
    gp_world_destroy(s.world);
    s.world = NULL;
    free_inputs(&s);
}

/* ---- output ----------------------------------------------------------------------------------- */

static void print_cell(double value, const char* format, int width) {
    if (value < 0.0) printf(" %*s", width, "-");
    else printf(format, width, value);
}

/* RFC 4180: a field with a comma or a quote goes in quotes, its quotes doubled. */
static void csv_field(FILE* f, const char* text) {
    fputc('"', f);
    for (; *text; ++text) {
        if (*text == '"') fputc('"', f);
        fputc(*text, f);
    }
    fputc('"', f);
}

static void csv_number(FILE* f, double value) {
    if (value >= 0.0) fprintf(f, ",%.6g", value);
    else fputs(",", f);
}

/* The worst copy ratio of a primitive over every size; whether it is within limit. */
static void print_goal(const char* what, bench_row rows[][BENCH_PRIMITIVES], int sizes, int primitive, double limit) {
    double worst = 0.0;
    int i;
    for (i = 0; i < sizes; ++i) {
        double ratio = rows[i][primitive].ratio;
        if (ratio > worst) worst = ratio;
    }
    printf("goal: %s within %gx of copy: %s (worst ratio %.2f)\n", what, limit, worst <= limit ? "yes" : "no", worst);
}

static int parse_sizes(const char* list, uint32_t* sizes) {
    int count = 0;
    while (*list) {
        char* end;
        unsigned long value = strtoul(list, &end, 10);
        if (end == list || value == 0 || value > 0x80000000ul || count == BENCH_MAX_SIZES || (*end && *end != ',')) return 0;
        sizes[count++] = (uint32_t)value;
        list = *end ? end + 1 : end;
    }
    return count;
}

/* One row of build/bench.csv; a negative value leaves its field empty. */
static void csv_row(FILE* f, const char* device, const char* name, uint32_t n, double gpu_ms, double copy_ms, double ratio,
                    double cpu_ms, double bytes_per_particle) {
    csv_field(f, device);
    fprintf(f, ",%s,%u", name, n);
    csv_number(f, gpu_ms);
    csv_number(f, (double)n / gpu_ms * 1e3);
    csv_number(f, copy_ms);
    csv_number(f, ratio);
    csv_number(f, cpu_ms);
    csv_number(f, cpu_ms < 0.0 ? -1.0 : cpu_ms / gpu_ms);
    csv_number(f, bytes_per_particle);
    fputc('\n', f);
}

static void print_primitives(bench_row rows[][BENCH_PRIMITIVES], int size_count) {
    char text[16];
    int i, p;
    printf("GPU: median of the runs' summed stage timers after a warm-up; copy: gp_copy over the same input bytes;\n"
           "CPU: tests/cpu_reference.c, one thread, median of as many runs; every GPU result checked against it.\n\n");
    printf("%-18s %10s %5s %10s %9s %10s %7s %10s %8s\n", "primitive", "n", "runs", "GPU ms", "Melem/s", "copy ms", "x copy",
           "CPU ms", "speed-up");
    for (p = 0; p < BENCH_PRIMITIVES; ++p)
        for (i = 0; i < size_count; ++i) {
            const bench_row* r = &rows[i][p];
            printf("%-18s %10s %5d", row_names[p], grouped(r->n, text), r->runs);
            print_cell(r->gpu_ms, " %*.3f", 10);
            print_cell((double)r->n / r->gpu_ms * 1e-3, " %*.1f", 9);
            print_cell(r->copy_ms, " %*.3f", 10);
            print_cell(r->ratio, " %*.2f", 7);
            print_cell(r->cpu_ms, " %*.3f", 10);
            /* a speed-up below 0.1 gets a third decimal, so that 0.013 and 0.006 differ */
            print_cell(r->cpu_ms < 0.0 ? -1.0 : r->cpu_ms / r->gpu_ms, r->cpu_ms < 0.1 * r->gpu_ms ? " %*.3f" : " %*.2f", 8);
            printf("\n");
        }
    printf("\n");
    print_goal("scan", rows, size_count, ROW_SCAN, 3.0);
    print_goal("grid rebuild, every frame (bounded)", rows, size_count, ROW_REBUILD_BOUNDED, 3.0);
    print_goal("grid rebuild, every frame (hashed)", rows, size_count, ROW_REBUILD_HASHED, 3.0);
    print_goal("grid build from random order (bounded)", rows, size_count, ROW_GRID_BOUNDED, 3.0);
}

/* ---- SPH fluid: paper 001's Tables 1 and 2 ------------------------------------------------------ */

/* The dam break of 001's figure 9 at the sizes of its Tables 1 and 2. The water is one
   gp_fluid_add_block of bx x by x bz particles on the lattice (powers of two, the tallest side
   up), in one corner of a closed box tank 4 bx long, 1.5 by high and bz deep: a BOX collider with
   inside = true. The bounded grid covers the tank exactly, cells of the smoothing radius (the
   default, 2 spacings). The tank holds 6 times the water's volume, so the grid has 0.75 buckets
   per particle. The timed state is the block after the warm-up substeps, starting to fall. */
#define SPH_SIZES 7
#define SPH_SPACING (1.0f / 64.0f)   /* metres: exact in float, as is every lattice position */
#define SPH_WARM_UP 2                /* substeps before anything is timed; the first compiles */
#define SPH_RUNS 5                   /* timed substeps */
#define SPH_LARGE (1u << 20)         /* above this, a substep takes seconds on a software GL: */
#define SPH_LARGE_WARM_UP 1          /* the compiling substep only, */
#define SPH_LARGE_RUNS 3             /* and fewer runs */
#define SPH_CPU_ALWAYS 262144u       /* the CPU column runs up to where 001's Table 2 stops, */
#define SPH_CPU_LONGEST 5.0          /* and beyond while one run is predicted to take at most this (s) */
#define SPH_CPU_RUNS 5               /* at most; fewer once they have taken SPH_CPU_SECONDS */
#define SPH_CPU_SECONDS 3.0
#define SPH_BUDGET_SECONDS 270.0     /* for the section; GP_BENCH_SPH_SECONDS overrides */
#define SPH_TOLERANCE 1e-4           /* GPU against CPU, relative to the terms (tests/test_sph_reference.c) */
#define SPH_LINEAR_LIMIT 1.05        /* "linear": time ~ n^e with e at most this, fitted over the sizes */
/* GPU memory by the store's layout (gpuparticle.h, >>grid and >>sph): 56 bytes of attributes,
   24 of reorder spares (the fluid's density, pressure and acceleration between builds), 12 of
   key, order and slot_of_id per particle; cell_count and cell_start per bucket, plus two. */
#define SPH_BYTES_PER_PARTICLE 92.0
#define SPH_BYTES_PER_BUCKET 8.0
#define SPH_GOAL_BYTES 100.0

static const uint32_t sph_sizes[SPH_SIZES] = {1024u, 4096u, 16384u, 65536u, 262144u, 1048576u, 4194304u};
/* 001 on a GeForce 8800 GTX and a Core 2 X6800: Table 1's (a) bucket generation and (b) one time
   step with rendering; Table 2's CPU time and speed increase, up to 262,144 (its third row says
   16,386). -1: no figure. */
static const double paper_grid_ms[SPH_SIZES] = {0.75, 0.80, 1.55, 3.99, 14.8, 55.4, 192.9};
static const double paper_step_ms[SPH_SIZES] = {3.9, 5.45, 14.8, 58.6, 235.9, 1096.8, 3783.6};
static const double paper_cpu_ms[SPH_SIZES] = {15.6, 43.6, 206.2, 1018.6, 6725.6, -1.0, -1.0};
static const double paper_speedup[SPH_SIZES] = {4.0, 8.0, 13.9, 17.3, 28.5, -1.0, -1.0};

typedef struct sph_row {
    uint32_t n;
    int warm_up, runs;      /* substeps before timing, timed; runs 0: the size did not run (note says why) */
    double grid_ms;         /* (a): the grid_* stages of a substep, GPU timers */
    double step_ms;         /* (b): a whole substep, wall clock up to a readback, mean */
    double stages_ms;       /* every stage of a substep, GPU timers */
    double cpu_ms;          /* one substep of the CPU reference, median; < 0: not run */
    double error;           /* largest GPU-CPU difference over the terms' magnitude; < 0: not compared */
    double neighbors;       /* mean fluid neighbours within the smoothing radius, the CPU's count */
    uint32_t buckets;
    double layout_bytes;    /* SPH_BYTES_PER_PARTICLE * n + SPH_BYTES_PER_BUCKET * (buckets + 2) */
    double gl_bytes;        /* every GL buffer alive in the context, measured */
    double gpu_s, cpu_s;    /* seconds the size took, without and with only the CPU column */
    char note[200];
} sph_row;

/* The sum of GL_BUFFER_SIZE over every buffer alive in the context: the world's GPU memory when
   it is the only thing there. Names are small integers that GL hands out again after a delete. */
static double gl_buffer_bytes(void) {
    typedef unsigned char (*is_buffer_fn)(unsigned int);
    typedef void (*bind_buffer_fn)(unsigned int, unsigned int);
    typedef void (*get_size_fn)(unsigned int, unsigned int, int64_t*);
    is_buffer_fn is_buffer = (is_buffer_fn)eglGetProcAddress("glIsBuffer");
    bind_buffer_fn bind_buffer = (bind_buffer_fn)eglGetProcAddress("glBindBuffer");
    get_size_fn get_size = (get_size_fn)eglGetProcAddress("glGetBufferParameteri64v");
    const unsigned int copy_read = 0x8F36, buffer_size = 0x8764;   /* GL_COPY_READ_BUFFER, GL_BUFFER_SIZE */
    unsigned int name, misses = 0;
    double bytes = 0.0;
    if (!is_buffer || !bind_buffer || !get_size) return -1.0;
    for (name = 1; misses < 65536u; ++name) {
        int64_t size = 0;
        if (!is_buffer(name)) { ++misses; continue; }
        misses = 0;
        bind_buffer(copy_read, name);
        get_size(copy_read, buffer_size, &size);
        bytes += (double)size;
    }
    bind_buffer(copy_read, 0);
    return bytes;
}

/* The water's lattice for n = 2^k particles: y gets the largest share of k, then x, then z. */
static void sph_block(uint32_t n, uint32_t block[3]) {
    uint32_t k = 0, ey, ex;
    while ((1u << k) < n) ++k;
    ey = (k + 2) / 3;
    ex = (k - ey + 1) / 2;
    block[0] = 1u << ex;
    block[1] = 1u << ey;
    block[2] = 1u << (k - ey - ex);
}

/* One substep of h seconds, waited for: gp_fluid_stats_read reads back from the GPU. */
static void sph_substep(gp_world* world, float h, gp_fluid_stats* stats) {
    gp_step_desc step;
    memset(&step, 0, sizeof step);
    step.dt = h;
    step.substeps = 1;
    check_result(gp_world_step(world, &step), "gp_world_step", gp_particle_count(world));
    check_result(gp_fluid_stats_read(world, stats), "gp_fluid_stats_read", gp_particle_count(world));
}

static double sph_worst(double worst, double error, double magnitude) {
    double e = magnitude > 0.0 ? error / magnitude : error > 0.0 ? INFINITY : 0.0;
    return e > worst || e != e ? e : worst;
}

/* After a failed DEM check: the failing slot's partners, the particles that overlap it, with the
   GPU's acceleration of each and the CPU's (right on the partner, wrong on slot i: slot i's own
   loop missed the pair; wrong on both by the same force: the pair itself, as a contact within
   float's rounding of touching was, found on an H100 at 1M grains). */
static void dem_explain(const gp_particle_position* position, const gp_particle_position* acceleration, const gp_particle_info* info,
                        double (*force)[3], const double* mass, uint32_t n, uint32_t i) {
    uint32_t k;
    printf("  slot %u at (%.9g %.9g %.9g) r %.6g kind %u; overlapping it:\n", i, position[i].x, position[i].y, position[i].z,
           position[i].radius, info[i].kind & 0xffu);
    for (k = 0; k < n; ++k) {
        double d[3] = {position[k].x - position[i].x, position[k].y - position[i].y, position[k].z - position[i].z};
        double reach = (double)position[i].radius + position[k].radius;
        if (k == i || d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= reach * reach) continue;
        printf("    slot %u (id %u) at (%.9g %.9g %.9g): GPU (%.6g %.6g %.6g), CPU (%.6g %.6g %.6g)\n", k, info[k].id, position[k].x,
               position[k].y, position[k].z, acceleration[k].x, acceleration[k].y, acceleration[k].z, force[k][0] / mass[k],
               force[k][1] / mass[k] - ((info[k].kind & 0xffu) == GP_KIND_GRANULAR ? 9.81 : 0.0), force[k][2] / mass[k]);
    }
}

/* The CPU column: tests/cpu_sph.c's grid version, one thread, on the store as the GPU holds it
   after gp_fluid_compute (same slots), timed over compute and integrate, median of up to
   SPH_CPU_RUNS runs. The GPU's density, pressure and acceleration must match its own. */
static void sph_cpu(gp_world* world, const gp_collider_desc* walls, float h, sph_row* row) {
    uint32_t n = gp_particle_count(world), k;
    gp_particle_position* position = (gp_particle_position*)bench_alloc((size_t)n * 16);
    gp_particle_position* acceleration = (gp_particle_position*)bench_alloc((size_t)n * 16);
    gp_particle_velocity* velocity = (gp_particle_velocity*)bench_alloc((size_t)n * 16);
    gp_particle_info* info = (gp_particle_info*)bench_alloc((size_t)n * 16);
    gp_particle_position* moved = (gp_particle_position*)bench_alloc((size_t)n * 16);
    gp_particle_velocity* accelerated = (gp_particle_velocity*)bench_alloc((size_t)n * 16);
    float *density = (float*)bench_alloc((size_t)n * 4), *pressure = (float*)bench_alloc((size_t)n * 4);
    cpu_sph_particle* out = (cpu_sph_particle*)bench_alloc((size_t)n * sizeof *out);
    cpu_sph_material material;
    gp_fluid_material water;
    cpu_sph_scene scene;
    double ms[SPH_CPU_RUNS], spent = 0.0, start = now_ms();
    int runs = 0;

    check_result(gp_fluid_compute(world, h), "gp_fluid_compute", n);
    {
        const gp_attribute attributes[6] = {GP_ATTRIBUTE_POSITION, GP_ATTRIBUTE_VELOCITY, GP_ATTRIBUTE_INFO,
                                            GP_ATTRIBUTE_DENSITY, GP_ATTRIBUTE_PRESSURE, GP_ATTRIBUTE_ACCELERATION};
        void* into[6];
        into[0] = position; into[1] = velocity; into[2] = info; into[3] = density; into[4] = pressure; into[5] = acceleration;
        for (k = 0; k < 6; ++k) check_result(gp_particles_read(world, attributes[k], 0, n, into[k]), "gp_particles_read", n);
    }
    check_result(gp_fluid_material_get(world, 0, &water), "gp_fluid_material_get", n);
    material = cpu_sph_material_make(&water);
    memset(&scene, 0, sizeof scene);
    scene.count = n;
    scene.position = position;
    scene.velocity = velocity;
    scene.info = info;
    scene.materials = &material;
    scene.material_count = 1;
    scene.colliders = walls;
    scene.collider_count = 1;
    scene.gravity[1] = -9.81;   /* the library's default */
    scene.dt = h;

    while (runs < SPH_CPU_RUNS && (runs == 0 || spent < SPH_CPU_SECONDS * 1e3)) {
        double t = now_ms();
        cpu_sph_compute_grid(&scene, out);
        cpu_sph_integrate(&scene, out, GP_INTEGRATOR_SYMPLECTIC_EULER, moved, accelerated);
        ms[runs] = now_ms() - t;
        spent += ms[runs++];
    }
    row->cpu_ms = median(ms, runs);

    row->error = row->neighbors = 0.0;
    for (k = 0; k < n; ++k) {
        double da[3], e;
        if (out[k].ambiguous) continue;   /* a threshold within float rounding (cpu_sph.h; the summation model has none) */
        da[0] = acceleration[k].x - out[k].acceleration[0];
        da[1] = acceleration[k].y - out[k].acceleration[1];
        da[2] = acceleration[k].z - out[k].acceleration[2];
        e = row->error;
        e = sph_worst(e, fabs(density[k] - out[k].density), out[k].density_abs);
        e = sph_worst(e, fabs(pressure[k] - out[k].pressure), out[k].pressure_abs);
        e = sph_worst(e, sqrt(da[0] * da[0] + da[1] * da[1] + da[2] * da[2]), out[k].acceleration_abs);
        if (!(e <= SPH_TOLERANCE)) {
            printf("FAIL: sph at n = %u: slot %u: density %.7g, pressure %.7g, acceleration (%.6g %.6g %.6g) on the GPU; "
                   "%.7g, %.7g, (%.6g %.6g %.6g) on the CPU (relative difference %.3g, tolerance %g)\n", n, k, density[k],
                   pressure[k], acceleration[k].x, acceleration[k].y, acceleration[k].z, out[k].density, out[k].pressure,
                   out[k].acceleration[0], out[k].acceleration[1], out[k].acceleration[2], e, SPH_TOLERANCE);
            fflush(stdout);
            exit(1);
        }
        row->error = e;
        row->neighbors += out[k].neighbors / (double)n;
    }
    row->cpu_s = (now_ms() - start) * 1e-3;
    free(position); free(acceleration); free(velocity); free(info); free(moved); free(accelerated);
    free(density); free(pressure); free(out);
}

/* One size: the tank, the warm-up, the CPU column (with_cpu), then runs timed substeps. */
static void sph_bench_size(sph_row* row, int with_cpu, gp_density_model model) {
    uint32_t n = row->n, block[3], added = 0, a, k, count;
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_fluid_material water;
    gp_collider_desc walls;
    gp_collider collider;
    gp_fluid_stats stats;
    gp_grid_stats grid;
    gp_timing timings[BENCH_MAX_STAGES];
    gp_result r;
    float cell = 2.0f * SPH_SPACING, low[3] = {0.0f, 0.0f, 0.0f}, high[3], h;
    double start = now_ms(), step_total = 0.0, grid_total = 0.0, stages_total = 0.0;
    char text[16];
    int i;

    sph_block(n, block);
    memset(&desc, 0, sizeof desc);
    memset(&walls, 0, sizeof walls);
    desc.max_particles = n;
    desc.gpu_timings = true;
    desc.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    desc.grid.mode = GP_GRID_BOUNDED;
    desc.grid.cell_size = cell;
    walls.shape = GP_SHAPE_BOX;
    walls.inside = true;
    for (a = 0; a < 3; ++a) {
        /* tank: 4 blocks long, 1.5 high, 1 deep, in lattice spacings; cells of 2 spacings */
        uint32_t spacings = a == 0 ? 4 * block[0] : a == 1 ? 3 * block[1] / 2 : block[2];
        desc.grid.dims[a] = spacings / 2;
        walls.half_extents[a] = walls.center[a] = 0.5f * (float)spacings * SPH_SPACING;
        high[a] = (float)block[a] * SPH_SPACING;
    }
    fprintf(stderr, "bench: sph n = %s: block %u x %u x %u, grid %u x %u x %u\n", grouped(n, text), block[0], block[1],
            block[2], desc.grid.dims[0], desc.grid.dims[1], desc.grid.dims[2]);
    if ((r = gp_world_create(&desc, &world)) != GP_OK) {
        snprintf(row->note, sizeof row->note, "not run: gp_world_create failed with %s (the library's message is above)",
                 gp_result_string(r));
        return;
    }
    memset(&water, 0, sizeof water);
    water.spacing = SPH_SPACING;
    water.density_model = model;
    check_result(gp_fluid_material_set(world, 0, &water), "gp_fluid_material_set", n);
    check_result(gp_fluid_material_get(world, 0, &water), "gp_fluid_material_get", n);
    check_result(gp_collider_add(world, &walls, &collider), "gp_collider_add", n);
    check_result(gp_fluid_add_block(world, 0, low, high, NULL, &added), "gp_fluid_add_block", n);
    if (added != n) {
        fprintf(stderr, "bench: the block holds %u particles, not %u\n", added, n);
        exit(1);
    }
    /* a substep at CFL 0.5 for the fluid at rest: half a spacing per sound crossing */
    h = 0.5f * SPH_SPACING / sqrtf(water.stiffness);
    row->warm_up = n <= SPH_LARGE ? SPH_WARM_UP : SPH_LARGE_WARM_UP;
    for (i = 0; i < row->warm_up; ++i) sph_substep(world, h, &stats);
    row->buckets = gp_world_buffers(world).buckets;
    row->layout_bytes = SPH_BYTES_PER_PARTICLE * n + SPH_BYTES_PER_BUCKET * ((double)row->buckets + 2.0);
    row->gl_bytes = gl_buffer_bytes();

    if (with_cpu) sph_cpu(world, &walls, h, row);

    row->runs = n <= SPH_LARGE ? SPH_RUNS : SPH_LARGE_RUNS;
    gp_timings_read(world, timings, BENCH_MAX_STAGES);   /* the totals so far, discarded */
    for (i = 0; i < row->runs; ++i) {
        double t = now_ms();
        sph_substep(world, h, &stats);
        step_total += now_ms() - t;
    }
    count = gp_timings_read(world, timings, BENCH_MAX_STAGES);
    for (k = 0; k < count && k < BENCH_MAX_STAGES; ++k) {
        stages_total += timings[k].milliseconds;
        if (strncmp(timings[k].stage, "grid_", 5) == 0) grid_total += timings[k].milliseconds;
    }
    row->step_ms = step_total / row->runs;
    row->grid_ms = grid_total / row->runs;
    row->stages_ms = stages_total / row->runs;
    check_result(gp_grid_stats_read(world, &grid), "gp_grid_stats_read", n);
    if (stats.nonfinite || grid.truncated || grid.nonfinite) {   /* sums that are wrong: not worth timing */
        printf("FAIL: sph at n = %u: %u non-finite updates, %u truncated neighbour loops, %u non-finite positions\n", n,
               stats.nonfinite, grid.truncated, grid.nonfinite);
        exit(1);
    }
    if (grid.outside) fprintf(stderr, "bench: warning: sph at n = %u: %u particles outside the tank's grid\n", n, grid.outside);
    gp_world_destroy(world);
    row->gpu_s = (now_ms() - start) * 1e-3 - row->cpu_s;
}

static double env_number(const char* name, double otherwise) {
    const char* text = getenv(name);
    char* end;
    double value;
    if (!text || !*text) return otherwise;
    value = strtod(text, &end);
    if (*end || !(value > 0.0)) {
        fprintf(stderr, "bench: %s=%s is not a positive number\n", name, text);
        exit(2);
    }
    return value;
}

/* Runs the sizes up to max_particles. capped (GP_BENCH_MAX_PARTICLES given): every one of them;
   otherwise a size is skipped when the last one's seconds, scaled by the count, predict more
   than the budget has left. Returns how many rows it filled. */
static int sph_bench(uint32_t max_particles, int capped, double budget, sph_row* rows) {
    const sph_row* last_cpu = NULL;
    double start = now_ms();
    int i, count = 0;
    for (i = 0; i < SPH_SIZES && sph_sizes[i] <= max_particles; ++i) {
        sph_row* row = &rows[count++];
        const sph_row* last = count > 1 ? row - 1 : NULL;
        int with_cpu;
        double scale, substeps, predicted, cpu_run = 0.0, left = budget - (now_ms() - start) * 1e-3;
        memset(row, 0, sizeof *row);
        row->n = sph_sizes[i];
        row->cpu_ms = row->error = -1.0;
        if (last && last->runs == 0) {
            snprintf(row->note, sizeof row->note, "not run, as the size before");
            continue;
        }
        scale = last ? (double)row->n / last->n : 0.0;
        if (last_cpu) cpu_run = last_cpu->cpu_ms * 1e-3 * row->n / last_cpu->n;
        with_cpu = row->n <= SPH_CPU_ALWAYS || (last_cpu && cpu_run <= SPH_CPU_LONGEST);
        substeps = row->n <= SPH_LARGE ? SPH_WARM_UP + SPH_RUNS : SPH_LARGE_WARM_UP + SPH_LARGE_RUNS;
        predicted = last ? scale * last->gpu_s * substeps / (last->warm_up + last->runs) : 0.0;
        if (with_cpu && last_cpu) predicted += last_cpu->cpu_s * row->n / last_cpu->n;
        if (!capped && last && predicted > left) {
            snprintf(row->note, sizeof row->note, "not run: the size before predicts %.0f s for it, and %.0f s of the %.0f s "
                     "budget are left (GP_BENCH_SPH_SECONDS; GP_BENCH_MAX_PARTICLES=%u runs it)", predicted, left > 0.0 ? left : 0.0,
                     budget, row->n);
            continue;
        }
        sph_bench_size(row, with_cpu, GP_DENSITY_SUMMATION);
        if (row->cpu_ms >= 0.0) last_cpu = row;
        if (!with_cpu && row->runs)
            snprintf(row->note, sizeof row->note, "CPU not run: one run would take ~%.0f s, over the %.0f s allowed above "
                     "Table 2's sizes", cpu_run, SPH_CPU_LONGEST);
    }
    return count;
}

/* The continuity model against the summation row of the same size, SPH_MODEL_SIZE (run when that
   row ran): the same dam break, its substep's time and GPU memory. Returns 1 when it ran. */
#define SPH_MODEL_SIZE 65536u
static int sph_model_bench(const sph_row* rows, int count, sph_row* continuity) {
    int i;
    for (i = 0; i < count; ++i)
        if (rows[i].n == SPH_MODEL_SIZE && rows[i].runs) {
            memset(continuity, 0, sizeof *continuity);
            continuity->n = SPH_MODEL_SIZE;
            continuity->cpu_ms = continuity->error = -1.0;
            sph_bench_size(continuity, 0, GP_DENSITY_CONTINUITY);
            return continuity->runs > 0;
        }
    return 0;
}

static void sph_model_print(const sph_row* rows, int count, const sph_row* continuity) {
    const sph_row* summation = NULL;
    int i;
    for (i = 0; i < count; ++i)
        if (rows[i].n == continuity->n) summation = &rows[i];
    if (!summation) return;
    printf("\nDensity models, the same dam break at %u particles: summation (the paper's, the table's above) and continuity\n"
           "(the default: each particle carries its density; delta-SPH diffusion; a pass of its own). GPU memory measured as\n"
           "above.\n\n",
           continuity->n);
    printf("     model   substep ms  us/part.  ratio      B/part.\n");
    printf("%10s %12.2f %9.3f %6.2f %12.1f\n", "summation", summation->step_ms, 1e3 * summation->step_ms / summation->n, 1.0,
           summation->gl_bytes / summation->n);
    printf("%10s %12.2f %9.3f %6.2f %12.1f\n", "continuity", continuity->step_ms, 1e3 * continuity->step_ms / continuity->n,
           continuity->step_ms / summation->step_ms, continuity->gl_bytes / continuity->n);
}

/* The slope of the least-squares line through (x, y): with logarithms, the exponent e of y ~ x^e. */
static double fit_exponent(const double* x, const double* y, int count) {
    double mx = 0.0, my = 0.0, sxy = 0.0, sxx = 0.0;
    int i;
    for (i = 0; i < count; ++i) { mx += x[i] / count; my += y[i] / count; }
    for (i = 0; i < count; ++i) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) * (x[i] - mx); }
    return sxy / sxx;
}

/* The ratio of per-particle step time to the size before's; -1 where there is none. */
static double growth(double ms, uint32_t n, double last_ms, uint32_t last_n) {
    return ms > 0.0 && last_ms > 0.0 ? (ms / n) / (last_ms / last_n) : -1.0;
}

static void sph_print(const sph_row* rows, int count) {
    double worst_bytes = 0.0, worst_gl = 0.0, n_log[SPH_SIZES], ms_log[SPH_SIZES], paper_log[SPH_SIZES];
    double exponent, fastest = INFINITY, slowest = 0.0;
    uint32_t worst_gl_n = 0;
    char text[16];
    int i, ran = 0, gl_over = 0;
    printf("\nSPH dam break (paper 001, Tables 1 and 2): a block of water in a box tank 6 times its volume, bounded grid\n"
           "over the tank, cells of the smoothing radius (2 spacings). Time (a): the grid_* stages of one substep, GPU\n"
           "timers; (b): one whole substep, wall clock to a readback, mean of the runs after %d warm-up substeps (%d above\n"
           "%u); x prev: (b) per particle over the size before's (1.00: linear). Paper: GeForce 8800 GTX, (b) with\n"
           "rendering.\n\n", SPH_WARM_UP, SPH_LARGE_WARM_UP, SPH_LARGE);
    printf("%10s %5s %10s %11s %10s %9s %7s | %8s %9s %7s\n", "particles", "runs", "(a) ms", "(b) ms", "stages ms", "us/part.",
           "x prev", "paper (a)", "paper (b)", "x prev");
    for (i = 0; i < count; ++i) {
        const sph_row *r = &rows[i], *last = i > 0 ? r - 1 : NULL;
        double g = last && last->runs ? growth(r->step_ms, r->n, last->step_ms, last->n) : -1.0;
        printf("%10s %5d", grouped(r->n, text), r->runs);
        if (r->runs) {
            print_cell(r->grid_ms, " %*.2f", 10);
            print_cell(r->step_ms, " %*.2f", 11);
            print_cell(r->stages_ms, " %*.2f", 10);
            print_cell(r->step_ms * 1e3 / r->n, " %*.3f", 9);
            print_cell(g, " %*.2f", 7);
            fastest = fmin(fastest, r->step_ms * 1e3 / r->n);
            slowest = fmax(slowest, r->step_ms * 1e3 / r->n);
            n_log[ran] = log((double)r->n);
            ms_log[ran] = log(r->step_ms);
            paper_log[ran++] = log(paper_step_ms[i]);
        } else {
            printf(" %10s %11s %10s %9s %7s", "-", "-", "-", "-", "-");
        }
        printf(" | %9.2f %9.1f", paper_grid_ms[i], paper_step_ms[i]);
        print_cell(i > 0 ? growth(paper_step_ms[i], r->n, paper_step_ms[i - 1], sph_sizes[i - 1]) : -1.0, " %*.2f", 7);
        printf("\n");
    }
    printf("\nCPU: tests/cpu_sph.c, double precision, one thread, its hashed grid (cpu_sph_compute_grid + integrate) on the\n"
           "GPU's state, median of up to %d runs; diff: largest GPU-CPU difference over the terms' magnitude (limit %g);\n"
           "neighbours: mean particles within the smoothing radius, itself included. Paper: Core 2 X6800.\n\n",
           SPH_CPU_RUNS, SPH_TOLERANCE);
    printf("%10s %10s %9s %9s %10s | %12s %9s\n", "particles", "CPU ms", "speed-up", "diff", "neighbours", "paper CPU ms",
           "speed-up");
    for (i = 0; i < count; ++i) {
        const sph_row* r = &rows[i];
        printf("%10s", grouped(r->n, text));
        print_cell(r->cpu_ms, " %*.1f", 10);
        print_cell(r->cpu_ms >= 0.0 && r->runs ? r->cpu_ms / r->step_ms : -1.0, " %*.2f", 9);
        print_cell(r->error, " %*.1e", 9);
        print_cell(r->cpu_ms >= 0.0 ? r->neighbors : -1.0, " %*.1f", 10);
        printf(" |");
        print_cell(paper_cpu_ms[i], " %*.1f", 12);
        print_cell(paper_speedup[i], " %*.1f", 9);
        printf("\n");
    }
    printf("\nGPU memory: by the store's layout, %.0f bytes per particle and %.0f per grid bucket; measured, the size of\n"
           "every GL buffer alive after the warm-up; beyond: the measured bytes the layout leaves out (uniform blocks,\n"
           "statistics, the scan's scratch).\n\n", SPH_BYTES_PER_PARTICLE, SPH_BYTES_PER_BUCKET);
    printf("%10s %10s %11s %10s %11s %10s %11s\n", "particles", "buckets", "layout MiB", "B/part.", "GL MiB", "B/part.",
           "beyond KiB");
    for (i = 0; i < count; ++i) {
        const sph_row* r = &rows[i];
        printf("%10s", grouped(r->n, text));
        if (r->runs) {
            printf(" %10u %11.2f %10.1f", r->buckets, r->layout_bytes / 1048576.0, r->layout_bytes / r->n);
            print_cell(r->gl_bytes / 1048576.0, " %*.2f", 11);
            print_cell(r->gl_bytes / r->n, " %*.1f", 10);
            print_cell(r->gl_bytes >= 0.0 ? (r->gl_bytes - r->layout_bytes) / 1024.0 : -1.0, " %*.1f", 11);
            if (r->layout_bytes / r->n > worst_bytes) worst_bytes = r->layout_bytes / r->n;
            if (r->gl_bytes / r->n > worst_gl) { worst_gl = r->gl_bytes / r->n; worst_gl_n = r->n; }
            gl_over += r->gl_bytes / r->n > SPH_GOAL_BYTES;
        }
        printf("\n");
    }
    for (i = 0; i < count; ++i)
        if (rows[i].note[0]) printf("%s: %s\n", grouped(rows[i].n, text), rows[i].note);
    printf("\n");
    if (!ran) return;
    printf("goal: GPU memory <= %.0f bytes per particle: by the layout %s (worst %.1f); measured, within at %d of %d sizes "
           "(worst %.1f, at %s)\n", SPH_GOAL_BYTES, worst_bytes <= SPH_GOAL_BYTES ? "yes" : "no", worst_bytes, ran - gl_over,
           ran, worst_gl, grouped(worst_gl_n, text));
    if (ran < 2) return;
    exponent = fit_exponent(n_log, ms_log, ran);
    printf("goal: substep time linear in particles, time ~ n^e with e <= %.2f fitted over %d sizes: %s (e = %.3f; paper "
           "%.3f; per-particle time %.2f to %.2f us)\n", SPH_LINEAR_LIMIT, ran, exponent <= SPH_LINEAR_LIMIT ? "yes" : "no",
           exponent, fit_exponent(n_log, paper_log, ran), fastest, slowest);
}

/* ---- DEM: paper 000's scenes ---------------------------------------------------------------------- */

/* Paper 000's two timings on a GeForce 8800 GTX (2007): 16,384 chess pieces of 4 particles each
   (65,536 particles) at 168 iterations per second, 16,384 grains at 285. Our scenes: a lattice of
   bodies (each a 2 x 2 x 1 box of particles of the default material, diameter d = 1 cm, cells of
   d, a hashed grid) or of grains, dropped into a box container. Bodies stand 2.2 d apart (their
   reach is 2.41 d) at random orientations, so some overlap; grains 1.02 d apart, jittered by
   +-0.04 d, so most touch several neighbours, as in a pile; all at random velocities up to
   0.2 m/s, under gravity, the lattice's lowest layer on the floor. The timed substeps (h = t_c /
   12 of the material, the library's longest) follow DEM_WARM_UP of them; each is a
   gp_world_step of one substep waited for by gp_fluid_stats_read: an iteration, as the paper's
   ips counts them. The CPU column: tests/cpu_dem.c's cpu_dem_step_grid (hashed grid, one thread,
   double) on the state read back, after checking the GPU's contact accelerations against
   cpu_dem_forces_grid (gp_fluid_compute on the same state). */
#define DEM_ROWS 4
#define DEM_WARM_UP 2               /* substeps before timing; the first compiles the shaders */
#define DEM_RUNS 10                 /* timed substeps */
#define DEM_LARGE_RUNS 3            /* at 1,048,576 particles */
#define DEM_CPU_RUNS 5              /* at most; fewer once they have taken DEM_CPU_SECONDS */
#define DEM_CPU_SECONDS 3.0
#define DEM_DIAMETER 0.01
#define DEM_TOLERANCE 1e-5          /* GPU against CPU, relative to the terms (tests/test_dem_reference.c) */
#define DEM_LARGE (1u << 20)        /* the large rows run when GP_BENCH_MAX_PARTICLES is at least this */

typedef struct dem_row {
    const char* name;       /* "bodies" or "grains" */
    uint32_t bodies, particles;
    double paper_ips;       /* < 0: none */
    int runs;               /* 0: not run (note says why) */
    double step_ms;         /* one substep, wall clock to a readback, mean */
    double contact_ms;      /* the contact passes of a substep (dem_contact and dem_walls), GPU timers */
    double stages_ms;       /* every stage of a substep, GPU timers */
    double cpu_ms;          /* cpu_dem_step_grid, median; < 0: not run */
    double error;           /* worst GPU-CPU acceleration difference over the terms' magnitude */
    double contacts;        /* the share of particles with a contact force, the CPU's count at the checked state */
    uint32_t borderline;    /* particles with a contact within 1e-6 of touching: allowed its force (cpu_dem_pair.ambiguous) */
    /* dem_history_row: medians of substeps taken in turn with the default material and with
       GP_SHEAR_VISCOUS (nothing kept): the contact passes, the whole substep, and the carry */
    double spring_contact_ms, viscous_contact_ms, spring_step_ms, viscous_step_ms, carry_ms;
    char note[160];
} dem_row;

/* Lattice dimensions for n = 2^k: y gets a third of k (rounded down), x and z the rest. */
static void dem_lattice(uint32_t n, uint32_t dims[3]) {
    uint32_t k = 0, ey, ex;
    while ((1u << k) < n) ++k;
    ey = k / 3;
    ex = (k - ey + 1) / 2;
    dims[0] = 1u << ex;
    dims[1] = 1u << ey;
    dims[2] = 1u << (k - ey - ex);
}

static double dem_uniform(uint64_t* state, double lo, double hi) {
    return lo + (hi - lo) * (double)(bench_random(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* The CPU reference's scene of the world's state (read back), with its bodies on the shape of
   points (4 of them: the 2 x 2 x 1 box) made by the library's voxel rule. */
static void dem_scene(gp_world* world, const cpu_dem_material* material, const gp_collider_desc* walls, const cpu_dem_shape* shape,
                      uint32_t body_count, cpu_dem_scene* scene, cpu_dem_body* bodies, gp_particle_position* position,
                      gp_particle_velocity* velocity, gp_particle_info* info) {
    uint32_t n = gp_particle_count(world), i, b;
    gp_body_state* states = (gp_body_state*)bench_alloc((size_t)body_count * sizeof *states + 1);
    check_result(gp_particles_read(world, GP_ATTRIBUTE_POSITION, 0, n, position), "gp_particles_read", n);
    check_result(gp_particles_read(world, GP_ATTRIBUTE_VELOCITY, 0, n, velocity), "gp_particles_read", n);
    check_result(gp_particles_read(world, GP_ATTRIBUTE_INFO, 0, n, info), "gp_particles_read", n);
    if (body_count) check_result(gp_bodies_read(world, NULL, body_count, states), "gp_bodies_read", n);
    if (!cpu_dem_scene_alloc(scene, n)) {
        fprintf(stderr, "bench: out of host memory for the DEM reference's scene\n");
        exit(1);
    }
    cpu_dem_scene_load(scene, position, velocity, info);
    scene->materials = material;
    scene->material_count = 1;
    scene->colliders = walls;
    scene->collider_count = 1;
    scene->gravity[1] = -9.81;   /* the library's default */
    scene->dt = cpu_dem_material_substep(material);
    for (b = 0; b < body_count; ++b) {
        const gp_body_state* st = &states[b];
        double o[3], q[4], v[3], w[3];
        int a;
        for (a = 0; a < 3; ++a) { o[a] = st->position[a]; v[a] = st->velocity[a]; w[a] = st->angular_velocity[a]; }
        q[0] = st->orientation[3]; q[1] = st->orientation[0]; q[2] = st->orientation[1]; q[3] = st->orientation[2];
        bodies[b] = cpu_dem_body_place(shape, o, q, v, w);
        for (a = 0; a < 3; ++a) {   /* the library's own state, not a re-derived one */
            bodies[b].X[a] = st->center_of_mass[a];
            bodies[b].P[a] = shape->mass * st->velocity[a];
            bodies[b].L[a] = st->angular_momentum[a];
        }
        bodies[b].first_id = 0xffffffffu;
    }
    for (i = 0; i < n; ++i)
        if ((info[i].kind & 0xffu) == GP_KIND_RIGID && info[i].owner < body_count && info[i].id < bodies[info[i].owner].first_id)
            bodies[info[i].owner].first_id = info[i].id;
    scene->bodies = bodies;
    scene->body_count = body_count;
    free(states);
}

/* The CPU column: first the check (the GPU's contact accelerations after gp_fluid_compute
   against cpu_dem_forces_grid), then cpu_dem_step_grid timed, median of up to DEM_CPU_RUNS. The
   check runs with the viscous shear on both sides: the springs the GPU kept through the warm-up
   are not the CPU's (test dem_reference_history checks the springs, substep by substep); the
   timing with the world's own material, springs included. */
static void dem_cpu(gp_world* world, const cpu_dem_material* material, const gp_collider_desc* walls, const cpu_dem_shape* shape,
                    dem_row* row) {
    uint32_t n = gp_particle_count(world), i, touching = 0, failed = 0, chunks[64] = {0};
    gp_particle_position* position = (gp_particle_position*)bench_alloc((size_t)n * 16);
    gp_particle_velocity* velocity = (gp_particle_velocity*)bench_alloc((size_t)n * 16);
    gp_particle_info* info = (gp_particle_info*)bench_alloc((size_t)n * 16);
    gp_particle_position* acceleration = (gp_particle_position*)bench_alloc((size_t)n * 16);
    cpu_dem_body* bodies = (cpu_dem_body*)bench_alloc((size_t)row->bodies * sizeof *bodies + 1);
    double(*force)[3] = (double(*)[3])bench_alloc((size_t)n * sizeof *force);
    double* magnitude = (double*)bench_alloc((size_t)n * sizeof *magnitude);
    double ms[DEM_CPU_RUNS], spent = 0.0;
    cpu_dem_scene scene;
    cpu_dem_material viscous = *material;
    gp_granular_material kept, check;
    int runs = 0;

    check_result(gp_granular_material_get(world, 0, &kept), "gp_granular_material_get", n);
    check = kept;
    check.shear_model = GP_SHEAR_VISCOUS;
    viscous.viscous = 1;
    check_result(gp_granular_material_set(world, 0, &check), "gp_granular_material_set", n);
    check_result(gp_fluid_compute(world, (float)cpu_dem_material_substep(material)), "gp_fluid_compute", n);
    check_result(gp_particles_read(world, GP_ATTRIBUTE_ACCELERATION, 0, n, acceleration), "gp_particles_read", n);
    check_result(gp_granular_material_set(world, 0, &kept), "gp_granular_material_set", n);
    dem_scene(world, &viscous, walls, shape, row->bodies, &scene, bodies, position, velocity, info);
    cpu_dem_forces_grid(&scene, force, NULL, magnitude);
    scene.materials = material;   /* timed with the springs */
    row->error = 0.0;
    for (i = 0; i < n; ++i) {
        double want[3], d[3], mag = magnitude[i] / scene.mass[i], e;
        int a, grain = (info[i].kind & 0xffu) == GP_KIND_GRANULAR;
        for (a = 0; a < 3; ++a) want[a] = force[i][a] / scene.mass[i] + (grain ? scene.gravity[a] : 0.0);
        if (grain) mag += 9.81;
        d[0] = acceleration[i].x - want[0]; d[1] = acceleration[i].y - want[1]; d[2] = acceleration[i].z - want[2];
        row->borderline += scene.ambiguous[i] > 0.0;   /* a contact within rounding of touching: float may count it or not */
        e = cpu_dem_error(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), scene.ambiguous[i] / scene.mass[i], mag);
        if (!(e <= DEM_TOLERANCE)) {
            if (failed < 3)
                printf("FAIL: dem %s at n = %u: slot %u (id %u): acceleration (%.6g %.6g %.6g) on the GPU, (%.6g %.6g %.6g) on the CPU "
                       "(relative difference %.3g, tolerance %g)\n", row->name, n, i, info[i].id, acceleration[i].x, acceleration[i].y,
                       acceleration[i].z, want[0], want[1], want[2], e, DEM_TOLERANCE);
            if (failed < 3) dem_explain(position, acceleration, info, force, scene.mass, n, i);
            ++chunks[i >> 16 < 64 ? i >> 16 : 63];
            ++failed;
            continue;
        }
        if (e > row->error) row->error = e;
        touching += force[i][0] != 0.0 || force[i][1] != 0.0 || force[i][2] != 0.0;
    }
    if (failed) {   /* where the failures lie: a pattern in the slots names the cause */
        gp_grid_stats grid;
        uint32_t c;
        printf("FAIL: dem %s at n = %u: %u slots differ; per 65,536 slots:", row->name, n, failed);
        for (c = 0; c < 64 && c <= (n - 1) >> 16; ++c) printf(" %u", chunks[c]);
        check_result(gp_grid_stats_read(world, &grid), "gp_grid_stats_read", n);
        printf("\nthe grid: %u particles, %u outside, %u non-finite, %u truncated, %u buckets\n", grid.particles, grid.outside,
               grid.nonfinite, grid.truncated, grid.buckets);
        fflush(stdout);
        exit(1);
    }
    row->contacts = (double)touching / n;   /* the share of particles touching something */
    while (runs < DEM_CPU_RUNS && (runs == 0 || spent < DEM_CPU_SECONDS * 1e3)) {
        double t = now_ms();
        cpu_dem_step_grid(&scene, NULL, NULL, NULL);
        ms[runs] = now_ms() - t;
        spent += ms[runs++];
    }
    row->cpu_ms = median(ms, runs);
    cpu_dem_scene_free(&scene);
    free(position); free(velocity); free(info); free(acceleration); free(bodies); free(force); free(magnitude);
}

/* A row's scene: the world, the walls, the material (viscous: its shear GP_SHEAR_VISCOUS, the
   paper's eq. 12 with nothing kept; else the default, the shear spring), the lattice of grains or
   bodies, the same on every call (one seed per size). NULL when the world could not be made (the
   row's note says why). */
static gp_world* dem_world(dem_row* row, int viscous, cpu_dem_material* material, gp_collider_desc* walls, cpu_dem_shape* shape) {
    const double d = DEM_DIAMETER, pitch = row->bodies ? 2.2 * d : 1.02 * d;
    uint32_t n = row->particles, units = row->bodies ? row->bodies : n, dims[3], i, j, k, a;
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_granular_material sand;
    gp_collider collider;
    gp_body_shape handle;
    gp_body_shape_info info;
    uint64_t rng = 0x000d0e5eedull + n;
    double points[12];
    float* xyz = (float*)bench_alloc((size_t)units * 12);
    float* vel = (float*)bench_alloc((size_t)units * 12);
    gp_body_desc* body = row->bodies ? (gp_body_desc*)bench_alloc((size_t)row->bodies * sizeof *body) : NULL;
    char text[16];

    dem_lattice(units, dims);
    memset(&desc, 0, sizeof desc);
    desc.max_particles = n;
    desc.gpu_timings = true;
    desc.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    desc.grid.cell_size = (float)d;   /* hashed, the default buckets */
    memset(walls, 0, sizeof *walls);
    walls->shape = GP_SHAPE_BOX;
    walls->inside = true;
    for (a = 0; a < 3; ++a) walls->half_extents[a] = (float)(0.5 * dims[a] * pitch + 2.0 * d);
    walls->half_extents[1] += (float)(4.0 * d);   /* head room */
    fprintf(stderr, "bench: dem %s%s: %s particles, lattice %u x %u x %u\n", row->name, viscous ? " (viscous shear)" : "", grouped(n, text),
            dims[0], dims[1], dims[2]);
    if (gp_world_create(&desc, &world) != GP_OK) {
        snprintf(row->note, sizeof row->note, "not run: gp_world_create failed (the library's message is above)");
        free(xyz); free(vel); free(body);
        return NULL;
    }
    memset(&sand, 0, sizeof sand);
    sand.diameter = (float)d;
    if (viscous) sand.shear_model = GP_SHEAR_VISCOUS;
    check_result(gp_granular_material_set(world, 0, &sand), "gp_granular_material_set", n);
    check_result(gp_granular_material_get(world, 0, &sand), "gp_granular_material_get", n);
    *material = cpu_dem_material_default((float)d);
    check_result(gp_collider_add(world, walls, &collider), "gp_collider_add", n);
    /* the lattice: lowest layer one radius (grains) or reach (bodies) above the floor */
    for (k = 0; k < dims[2]; ++k)
        for (j = 0; j < dims[1]; ++j)
            for (i = 0; i < dims[0]; ++i) {
                size_t u = i + (size_t)dims[0] * (j + (size_t)dims[1] * k);
                double c[3];
                c[0] = ((double)i - 0.5 * (dims[0] - 1)) * pitch;
                c[1] = -walls->half_extents[1] + (row->bodies ? 1.25 * d : 0.5 * d) + (double)j * pitch;
                c[2] = ((double)k - 0.5 * (dims[2] - 1)) * pitch;
                for (a = 0; a < 3; ++a) {
                    double jitter = row->bodies || (a == 1 && j == 0) ? 0.0 : dem_uniform(&rng, -0.04, 0.04) * d;
                    xyz[3 * u + a] = (float)(c[a] + jitter);
                    vel[3 * u + a] = (float)dem_uniform(&rng, -0.2, 0.2);
                }
            }
    if (row->bodies) {
        gp_shape_desc box;
        memset(&box, 0, sizeof box);
        box.shape = GP_SHAPE_BOX;
        box.half_extents[0] = box.half_extents[1] = (float)d;
        box.half_extents[2] = (float)(0.5 * d);
        check_result(gp_body_shape_create(world, &box, &handle), "gp_body_shape_create", n);
        check_result(gp_body_shape_info_get(world, handle, &info), "gp_body_shape_info_get", n);
        if (info.particles != 4) {
            fprintf(stderr, "bench: the 2 x 2 x 1 box shape has %u particles, not 4\n", info.particles);
            exit(1);
        }
        for (i = 0; i < row->bodies; ++i) {
            double q[4], norm = 0.0;
            memset(&body[i], 0, sizeof body[i]);
            body[i].shape = handle;
            for (a = 0; a < 4; ++a) { q[a] = dem_uniform(&rng, -1.0, 1.0); norm += q[a] * q[a]; }
            for (a = 0; a < 4; ++a) body[i].orientation[a] = (float)(q[a] / sqrt(norm));
            for (a = 0; a < 3; ++a) { body[i].position[a] = xyz[3 * (size_t)i + a]; body[i].velocity[a] = vel[3 * (size_t)i + a]; }
        }
        check_result(gp_bodies_add(world, body, row->bodies, NULL), "gp_bodies_add", n);
        /* the voxel rule for a 2 x 2 x 1 box: centres at (+-d/2, +-d/2, 0), x fastest */
        for (i = 0; i < 4; ++i) {
            points[3 * i] = (i & 1 ? 0.5 : -0.5) * (float)d;
            points[3 * i + 1] = (i & 2 ? 0.5 : -0.5) * (float)d;
            points[3 * i + 2] = 0.0;
        }
        cpu_dem_shape_make(points, 4, 0.5 * (float)d, (float)material->mass, shape);
    } else {
        gp_particles_desc p;
        memset(&p, 0, sizeof p);
        p.count = n;
        p.positions = xyz;
        p.velocities = vel;
        p.radius = (float)(0.5 * d);
        p.mass = sand.mass;
        p.kind = GP_KIND_GRANULAR;
        check_result(gp_particles_add(world, &p, NULL), "gp_particles_add", n);
        memset(shape, 0, sizeof *shape);
    }
    if (gp_particle_count(world) != n) {
        fprintf(stderr, "bench: dem %s: %u particles, not %u\n", row->name, gp_particle_count(world), n);
        exit(1);
    }
    free(xyz); free(vel); free(body);
    return world;
}

/* One row: the scene, the warm-up, the CPU column, the timed substeps. */
static void dem_bench_row(dem_row* row) {
    uint32_t n = row->particles, k, count;
    gp_world* world;
    cpu_dem_material material;
    cpu_dem_shape shape;
    gp_collider_desc walls;
    gp_fluid_stats stats;
    gp_grid_stats grid;
    gp_timing timings[BENCH_MAX_STAGES];
    double h, total = 0.0, stages = 0.0, contact = 0.0;
    int s;
    if (!(world = dem_world(row, 0, &material, &walls, &shape))) return;
    h = cpu_dem_material_substep(&material);
    for (s = 0; s < DEM_WARM_UP; ++s) sph_substep(world, (float)h, &stats);
    dem_cpu(world, &material, &walls, &shape, row);
    row->runs = n >= DEM_LARGE ? DEM_LARGE_RUNS : DEM_RUNS;
    gp_timings_read(world, timings, BENCH_MAX_STAGES);   /* the totals so far, discarded */
    for (s = 0; s < row->runs; ++s) {
        double t = now_ms();
        sph_substep(world, (float)h, &stats);
        total += now_ms() - t;
    }
    count = gp_timings_read(world, timings, BENCH_MAX_STAGES);
    for (k = 0; k < count && k < BENCH_MAX_STAGES; ++k) {
        stages += timings[k].milliseconds;
        if (strcmp(timings[k].stage, "dem_contact") == 0 || strcmp(timings[k].stage, "dem_walls") == 0)
            contact += timings[k].milliseconds;
    }
    row->step_ms = total / row->runs;
    row->stages_ms = stages / row->runs;
    row->contact_ms = contact / row->runs;
    check_result(gp_grid_stats_read(world, &grid), "gp_grid_stats_read", n);
    if (stats.nonfinite || grid.truncated || grid.nonfinite) {
        printf("FAIL: dem %s at n = %u: %u non-finite updates, %u truncated neighbour loops, %u non-finite positions\n", row->name, n,
               stats.nonfinite, grid.truncated, grid.nonfinite);
        exit(1);
    }
    gp_world_destroy(world);
    cpu_dem_shape_free(&shape);
}

/* What keeping contacts costs, against the paper's viscous shear, in one run: the row's
   scene twice, one world with the default material (GP_SHEAR_SPRING) and one with
   GP_SHEAR_VISCOUS, stepped in turn (which goes first alternating), DEM_HISTORY_RUNS substeps
   each after the warm-up; each substep's contact passes (dem_contact and dem_walls) and the grid
   build's carry of the kept contacts (grid_carry, which runs for either) from the GPU timers, and
   its wall clock to a readback; the medians, so that a busy moment of a shared machine falls on
   both alike or on neither. */
#define DEM_HISTORY_RUNS 15
static void dem_history_row(dem_row* row) {
    gp_world* world[2];
    cpu_dem_material material;
    cpu_dem_shape shape[2];
    gp_collider_desc walls;
    gp_fluid_stats stats;
    gp_timing timings[BENCH_MAX_STAGES];
    double h, contact[2][DEM_HISTORY_RUNS], step[2][DEM_HISTORY_RUNS], carry[DEM_HISTORY_RUNS];
    int s, m;
    uint32_t k, count;
    world[0] = dem_world(row, 0, &material, &walls, &shape[0]);
    world[1] = world[0] ? dem_world(row, 1, &material, &walls, &shape[1]) : NULL;
    if (!world[1]) {
        if (world[0]) { gp_world_destroy(world[0]); cpu_dem_shape_free(&shape[0]); }
        return;
    }
    h = cpu_dem_material_substep(&material);
    for (m = 0; m < 2; ++m) {
        for (s = 0; s < DEM_WARM_UP; ++s) sph_substep(world[m], (float)h, &stats);
        gp_timings_read(world[m], timings, BENCH_MAX_STAGES);   /* the totals so far, discarded */
    }
    for (s = 0; s < DEM_HISTORY_RUNS; ++s)
        for (m = 0; m < 2; ++m) {
            int w = (s + m) & 1;   /* the spring first, then the viscous first, ... */
            double t = now_ms();
            sph_substep(world[w], (float)h, &stats);
            step[w][s] = now_ms() - t;
            contact[w][s] = 0.0;
            count = gp_timings_read(world[w], timings, BENCH_MAX_STAGES);
            for (k = 0; k < count && k < BENCH_MAX_STAGES; ++k) {
                if (strcmp(timings[k].stage, "dem_contact") == 0 || strcmp(timings[k].stage, "dem_walls") == 0)
                    contact[w][s] += timings[k].milliseconds;
                if (w == 0 && strcmp(timings[k].stage, "grid_carry") == 0) carry[s] = timings[k].milliseconds;
            }
        }
    row->spring_contact_ms = median(contact[0], DEM_HISTORY_RUNS);
    row->viscous_contact_ms = median(contact[1], DEM_HISTORY_RUNS);
    row->spring_step_ms = median(step[0], DEM_HISTORY_RUNS);
    row->viscous_step_ms = median(step[1], DEM_HISTORY_RUNS);
    row->carry_ms = median(carry, DEM_HISTORY_RUNS);
    for (m = 0; m < 2; ++m) {
        gp_world_destroy(world[m]);
        cpu_dem_shape_free(&shape[m]);
    }
}

static int dem_bench(uint32_t max_particles, dem_row* rows) {
    static const struct { const char* name; uint32_t bodies, particles; double paper; } plan[DEM_ROWS] = {
        {"bodies", 16384u, 65536u, 168.0}, {"grains", 0u, 16384u, 285.0},
        {"bodies", 262144u, 1048576u, -1.0}, {"grains", 0u, 1048576u, -1.0}};
    int i, count = 0;
    for (i = 0; i < DEM_ROWS; ++i) {
        dem_row* row = &rows[count];
        if (plan[i].particles >= DEM_LARGE && max_particles < DEM_LARGE) continue;
        memset(row, 0, sizeof *row);
        row->name = plan[i].name;
        row->bodies = plan[i].bodies;
        row->particles = plan[i].particles;
        row->paper_ips = plan[i].paper;
        row->cpu_ms = row->error = -1.0;
        dem_bench_row(row);
        if (row->runs) dem_history_row(row);
        ++count;
    }
    return count;
}

static void dem_print(const dem_row* rows, int count) {
    char text[2][16];
    int i;
    printf("\nDEM (paper 000): bodies of 4 particles (a 2 x 2 x 1 box) or grains, d = 1 cm, dropped into a box; h = t_c / 12.\n"
           "GPU: one gp_world_step substep to a readback, mean of %d after %d warm-up ones (%d at 1M); ips = 1000 / ms.\n"
           "CPU: tests/cpu_dem.c's cpu_dem_step_grid, double, one thread, on the GPU's state, median of up to %d runs;\n"
           "diff: the GPU's contact accelerations against it, over the terms' magnitude (limit %g). Paper: GeForce 8800 GTX.\n\n",
           DEM_RUNS, DEM_WARM_UP, DEM_LARGE_RUNS, DEM_CPU_RUNS, DEM_TOLERANCE);
    printf("%-7s %10s %8s %10s %10s %9s %9s | %9s %9s %8s %8s %8s\n", "scene", "particles", "bodies", "GPU ms", "contact ms",
           "GPU ips", "paper ips", "CPU ms", "CPU ips", "speed-up", "diff", "touching");
    for (i = 0; i < count; ++i) {
        const dem_row* r = &rows[i];
        printf("%-7s %10s %8s", r->name, grouped(r->particles, text[0]), r->bodies ? grouped(r->bodies, text[1]) : "-");
        if (r->runs) {
            print_cell(r->step_ms, " %*.2f", 10);
            print_cell(r->contact_ms, " %*.2f", 10);
            print_cell(1e3 / r->step_ms, " %*.1f", 9);
        } else {
            printf(" %10s %10s %9s", "-", "-", "-");
        }
        print_cell(r->paper_ips, " %*.0f", 9);
        printf(" |");
        print_cell(r->cpu_ms, " %*.2f", 9);
        print_cell(r->cpu_ms > 0.0 ? 1e3 / r->cpu_ms : -1.0, " %*.1f", 9);
        print_cell(r->cpu_ms > 0.0 && r->runs ? r->cpu_ms / r->step_ms : -1.0, " %*.2f", 8);
        print_cell(r->error, " %*.1e", 8);
        print_cell(r->cpu_ms >= 0.0 ? r->contacts : -1.0, " %*.2f", 8);
        printf("\n");
    }
    for (i = 0; i < count; ++i) {
        if (rows[i].note[0]) printf("%s %s: %s\n", rows[i].name, grouped(rows[i].particles, text[0]), rows[i].note);
        if (rows[i].borderline)
            printf("%s %s: %u particles with a contact (pair or wall) within 1e-6 of touching, where float may find it or not: diff "
                   "allows its force\n", rows[i].name, grouped(rows[i].particles, text[0]), rows[i].borderline);
    }
    printf("touching: the share of particles with a contact force at the checked state.\n");
    /* What keeping contacts costs: the rows' scenes again with the paper's viscous shear. */
    printf("\nThe contacts kept (GP_SHEAR_SPRING, the default) against the paper's viscous shear (GP_SHEAR_VISCOUS): each\n"
           "scene twice in this run, the two worlds stepped in turn, medians of %d substeps each; contact = dem_contact +\n"
           "dem_walls (GPU timers), step = a substep to a readback; carry = the grid build's carry of the kept contacts\n"
           "(grid_carry, run for either model). Memory: 32 (contact_slots + 1) bytes per particle of capacity, %u at the default\n"
           "%u slots (gp_world_desc.contact_slots), allocated for either model.\n\n", DEM_HISTORY_RUNS, 32u * (12u + 1u), 12u);
    printf("%-7s %10s %11s %11s %7s %9s %9s %7s %9s\n", "scene", "particles", "contact ms", "viscous ms", "ratio", "step ms",
           "viscous", "ratio", "carry ms");
    for (i = 0; i < count; ++i) {
        const dem_row* r = &rows[i];
        if (!r->runs || !(r->viscous_contact_ms > 0.0)) continue;
        printf("%-7s %10s", r->name, grouped(r->particles, text[0]));
        print_cell(r->spring_contact_ms, " %*.3f", 11);
        print_cell(r->viscous_contact_ms, " %*.3f", 11);
        print_cell(r->spring_contact_ms / r->viscous_contact_ms, " %*.2f", 7);
        print_cell(r->spring_step_ms, " %*.2f", 9);
        print_cell(r->viscous_step_ms, " %*.2f", 9);
        print_cell(r->viscous_step_ms > 0.0 ? r->spring_step_ms / r->viscous_step_ms : -1.0, " %*.2f", 7);
        print_cell(r->carry_ms, " %*.3f", 9);
        printf("\n");
    }
    if (count < DEM_ROWS) printf("GP_BENCH_MAX_PARTICLES=1048576 adds rows of 1,048,576 particles (262,144 bodies; grains).\n");
}

/* ---- fluid-solid coupling: paper 000's figure 29-11 ------------------------------------------------ */

/* Paper 000 section 29.3.3 on a GeForce 8800 GTX (2007): glasses are stacked, fluid is poured in
   from the top, then another glass is thrown into the stack; 49,153 fluid particles at about 18
   iterations per second (figure 29-11, top). Our scene: glasses of the default granular material
   (glass, 2,500 kg/m^3) whose particles are the fluid's spacing s = 1/64 m apart, each an open box
   6 x 8 x 6 particles outside (9.4 cm wide, 12.5 cm high) with walls and bottom one particle thick:
   a GP_SHAPE_MESH cup (coupling_glass) of 176 particles. They stand in two tiers in a closed box
   tank 8 g spacings square and COUPLING_TANK_HEIGHT high: g x g on the floor, 8 spacings between
   centres, and (g - 1)^2 on top, each on the rims of the four below. The water is the tank's
   lattice as gp_fluid_add_block fills it (the same particles, added in one gp_particles_add at the rest density) less
   the glasses' particles, from the floor up until the row's count: in, around and over the glasses,
   its last layer part full; the stack once the pour has filled it, every glass touching fluid. A
   bounded grid over the tank, cells of the smoothing radius (2 s). The substep h is the shorter of
   the fluid's at CFL 0.5 (as the SPH section's) and the glasses' t_c / 12; the timed substeps
   follow COUPLING_WARM_UP of them, each a gp_world_step of one substep waited for by
   gp_fluid_stats_read. The same fluid particles in a world without the glasses (their places left
   empty) give the fluid's own time, so that the difference is all the solids cost: their grid
   entries, their share of the fluid's neighbour loops, their contacts, the bodies' stages and
   coupling_solid. g = 6 holds 49,153 fluid particles 26 layers deep with 61 glasses; g = 28, at
   1,048,576, the same depth with 1,513 glasses. */
#define COUPLING_ROWS 2
#define COUPLING_SPACING (1.0f / 64.0f)   /* metres: the fluid's and the glasses' particles */
#define COUPLING_PITCH 8u                 /* spacings between the glasses' centres */
#define COUPLING_TANK_HEIGHT 48u          /* spacings */
#define COUPLING_GLASS_PARTICLES 176u     /* 6 x 8 x 6 less the 4 x 7 x 4 inside */
#define COUPLING_WARM_UP 2                /* substeps before timing; the first compiles the shaders */
#define COUPLING_RUNS 10                  /* timed substeps */
#define COUPLING_LARGE (1u << 20)         /* the large row runs when GP_BENCH_MAX_PARTICLES is at least this, */
#define COUPLING_LARGE_WARM_UP 1          /* with the compiling substep only, */
#define COUPLING_LARGE_RUNS 3             /* and fewer runs */

typedef struct coupling_row {
    uint32_t fluid;           /* fluid particles */
    uint32_t side;            /* g: glasses along each side of the lower tier */
    uint32_t bodies, body_particles;
    double paper_ips;         /* < 0: none */
    int warm_up, runs;        /* runs 0: not run (note says why) */
    double stages_ms;         /* every stage of a substep, GPU timers, mean */
    double step_ms;           /* one substep, wall clock to a readback, mean */
    double coupling_ms;       /* the coupling stages of a substep, GPU timers */
    double fluid_stages_ms;   /* the same fluid without the glasses: every stage, */
    double fluid_step_ms;     /* and wall clock */
    uint32_t layers;          /* layers of the lattice the water reaches, the last part full */
    uint32_t grains;          /* the sand in the water alone (a third world): grains, */
    double sand_stages_ms;    /* every stage of its substep, */
    double drag_ms;           /* and the drag's stages (coupling_drag, coupling_drag_fluid) */
    char note[160];
} coupling_row;

/* A glass in its own frame, its bottom's centre at the origin: an open box 6 x 8 x 6 spacings
   outside, its cavity 4 x 7 x 4 open at the top; a closed mesh of 16 vertices (outer bottom, outer
   rim, inner rim, inner bottom, 4 corners each) and 28 triangles, counter-clockwise seen from
   outside. Its faces fall between voxel centres, so the voxel rule keeps 176 particles. */
static void coupling_glass(float vertices[48], uint32_t triangles[84]) {
    static const float corner[4][2] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};
    const float s = COUPLING_SPACING, half[4] = {3.0f * s, 3.0f * s, 2.0f * s, 2.0f * s}, y[4] = {0.0f, 8.0f * s, 8.0f * s, s};
    uint32_t ring, c, t = 0;
    for (ring = 0; ring < 4; ++ring)
        for (c = 0; c < 4; ++c) {
            vertices[3 * (4 * ring + c)] = corner[c][0] * half[ring];
            vertices[3 * (4 * ring + c) + 1] = y[ring];
            vertices[3 * (4 * ring + c) + 2] = corner[c][1] * half[ring];
        }
#define COUPLING_TRIANGLE(a, b, d) (triangles[t++] = (a), triangles[t++] = (b), triangles[t++] = (d))
    COUPLING_TRIANGLE(0, 1, 2); COUPLING_TRIANGLE(0, 2, 3);          /* outer bottom, facing down */
    for (c = 0; c < 4; ++c) {
        uint32_t n = (c + 1) % 4;
        COUPLING_TRIANGLE(c, 4 + n, n); COUPLING_TRIANGLE(c, 4 + c, 4 + n);               /* outer side */
        COUPLING_TRIANGLE(4 + c, 8 + c, 8 + n); COUPLING_TRIANGLE(4 + c, 8 + n, 4 + n);   /* rim */
        COUPLING_TRIANGLE(12 + c, 12 + n, 8 + n); COUPLING_TRIANGLE(12 + c, 8 + n, 8 + c); /* inner side */
    }
    COUPLING_TRIANGLE(12, 14, 13); COUPLING_TRIANGLE(12, 15, 14);    /* inner bottom, facing up */
#undef COUPLING_TRIANGLE
}

/* warm_up substeps of h, the totals read and discarded, then runs timed ones: their mean wall
   clock, every stage's GPU time, the coupling stages' and the drag's, per substep. */
static void coupling_time(gp_world* world, float h, int warm_up, int runs, double* step_ms, double* stages_ms,
                          double* coupling_ms, double* drag_ms) {
    uint32_t n = gp_particle_count(world), count, k;
    gp_fluid_stats stats;
    gp_grid_stats grid;
    gp_timing timings[BENCH_MAX_STAGES];
    double total = 0.0, stages = 0.0, coupling = 0.0, drag = 0.0;
    int s;
    for (s = 0; s < warm_up; ++s) sph_substep(world, h, &stats);
    gp_timings_read(world, timings, BENCH_MAX_STAGES);   /* the totals so far, discarded */
    for (s = 0; s < runs; ++s) {
        double t = now_ms();
        sph_substep(world, h, &stats);
        total += now_ms() - t;
    }
    count = gp_timings_read(world, timings, BENCH_MAX_STAGES);
    for (k = 0; k < count && k < BENCH_MAX_STAGES; ++k) {
        stages += timings[k].milliseconds;
        if (strncmp(timings[k].stage, "coupling_", 9) == 0) coupling += timings[k].milliseconds;   /* coupling_solid, _guard, _drag... */
        if (strncmp(timings[k].stage, "coupling_drag", 13) == 0) drag += timings[k].milliseconds;
    }
    *drag_ms = drag / runs;
    *step_ms = total / runs;
    *stages_ms = stages / runs;
    *coupling_ms = coupling / runs;
    check_result(gp_grid_stats_read(world, &grid), "gp_grid_stats_read", n);
    if (stats.nonfinite || grid.truncated || grid.nonfinite) {
        printf("FAIL: coupling at n = %u: %u non-finite updates, %u truncated neighbour loops, %u non-finite positions\n", n,
               stats.nonfinite, grid.truncated, grid.nonfinite);
        exit(1);
    }
    if (grid.outside) fprintf(stderr, "bench: warning: coupling at n = %u: %u particles outside the tank's grid\n", n, grid.outside);
}

/* One row: the world with the glasses and the water among them, timed; then the same water alone. */
static void coupling_bench_row(coupling_row* row) {
    const float s = COUPLING_SPACING;
    const uint32_t width = COUPLING_PITCH * row->side, height = COUPLING_TANK_HEIGHT;
    uint32_t lower = row->side * row->side, i, j, k, a, added = 0;
    size_t lattice = (size_t)width * height * width;
    unsigned char* solid = (unsigned char*)calloc(lattice, 1);
    float* xyz = (float*)bench_alloc((size_t)row->fluid * 12);
    float vertices[48];
    uint32_t triangles[84];
    gp_body_desc* glasses;
    gp_particle_position* at;
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_fluid_material water;
    gp_granular_material glass;
    cpu_dem_material reference;
    gp_shape_desc cup;
    gp_body_shape handle;
    gp_body_shape_info info;
    gp_collider_desc walls;
    gp_collider collider;
    gp_particles_desc p;
    gp_result r;
    float h = 0.0f;
    char text[2][16];
    int pass;

    row->bodies = lower + (row->side - 1) * (row->side - 1);
    row->body_particles = row->bodies * COUPLING_GLASS_PARTICLES;
    glasses = (gp_body_desc*)bench_alloc((size_t)row->bodies * sizeof *glasses);
    at = (gp_particle_position*)bench_alloc((size_t)row->body_particles * sizeof *at);
    if (!solid) {
        fprintf(stderr, "bench: out of host memory (%zu bytes)\n", lattice);
        exit(1);
    }
    memset(&walls, 0, sizeof walls);
    walls.shape = GP_SHAPE_BOX;
    walls.inside = true;
    walls.half_extents[0] = walls.center[0] = walls.half_extents[2] = walls.center[2] = 0.5f * (float)width * s;
    walls.half_extents[1] = walls.center[1] = 0.5f * (float)height * s;
    memset(glasses, 0, (size_t)row->bodies * sizeof *glasses);
    for (k = 0; k < row->side; ++k)   /* the lower tier on the floor, the upper on the rims of the four below */
        for (i = 0; i < row->side; ++i) {
            gp_body_desc* g = &glasses[i + row->side * k];
            g->position[0] = (float)(COUPLING_PITCH * i + COUPLING_PITCH / 2) * s;
            g->position[2] = (float)(COUPLING_PITCH * k + COUPLING_PITCH / 2) * s;
            if (i + 1 == row->side || k + 1 == row->side) continue;
            g = &glasses[lower + i + (row->side - 1) * k];
            g->position[0] = (float)(COUPLING_PITCH * (i + 1)) * s;
            g->position[1] = 8.0f * s;
            g->position[2] = (float)(COUPLING_PITCH * (k + 1)) * s;
        }
    coupling_glass(vertices, triangles);
    fprintf(stderr, "bench: coupling: %s fluid particles, %s glasses in a tank of %u x %u x %u spacings\n",
            grouped(row->fluid, text[0]), grouped(row->bodies, text[1]), width, height, width);

    row->grains = row->fluid / 8;
    for (pass = 0; pass < 3; ++pass) {   /* 0: the glasses and the water; 1: the water alone; 2: the water with sand */
        uint32_t n = row->fluid + (pass == 0 ? row->body_particles : pass == 2 ? row->grains : 0);
        double unused[3], *step = pass == 0 ? &row->step_ms : pass == 1 ? &row->fluid_step_ms : &unused[0];
        double *stages = pass == 0 ? &row->stages_ms : pass == 1 ? &row->fluid_stages_ms : &row->sand_stages_ms;
        double *coupling = pass ? &unused[1] : &row->coupling_ms, *drag = pass == 2 ? &row->drag_ms : &unused[2];
        memset(&desc, 0, sizeof desc);
        desc.max_particles = n;
        desc.gpu_timings = true;
        desc.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
        desc.grid.mode = GP_GRID_BOUNDED;
        desc.grid.cell_size = 2.0f * s;
        desc.grid.dims[0] = desc.grid.dims[2] = width / 2;
        desc.grid.dims[1] = height / 2;
        if ((r = gp_world_create(&desc, &world)) != GP_OK) {
            snprintf(row->note, sizeof row->note, "not run: gp_world_create failed with %s (the library's message is above)",
                     gp_result_string(r));
            row->runs = 0;
            break;
        }
        memset(&water, 0, sizeof water);
        water.spacing = s;
        check_result(gp_fluid_material_set(world, 0, &water), "gp_fluid_material_set", n);
        check_result(gp_fluid_material_get(world, 0, &water), "gp_fluid_material_get", n);
        check_result(gp_collider_add(world, &walls, &collider), "gp_collider_add", n);
        if (!pass) {
            memset(&glass, 0, sizeof glass);
            glass.diameter = s;
            check_result(gp_granular_material_set(world, 0, &glass), "gp_granular_material_set", n);
            memset(&cup, 0, sizeof cup);
            cup.shape = GP_SHAPE_MESH;
            cup.vertices = vertices;
            cup.vertex_count = 16;
            cup.triangles = triangles;
            cup.triangle_count = 28;
            check_result(gp_body_shape_create(world, &cup, &handle), "gp_body_shape_create", n);
            check_result(gp_body_shape_info_get(world, handle, &info), "gp_body_shape_info_get", n);
            if (info.particles != COUPLING_GLASS_PARTICLES) {
                fprintf(stderr, "bench: the glass has %u particles, not %u\n", info.particles, COUPLING_GLASS_PARTICLES);
                exit(1);
            }
            for (i = 0; i < row->bodies; ++i) glasses[i].shape = handle;
            check_result(gp_bodies_add(world, glasses, row->bodies, NULL), "gp_bodies_add", n);
            /* the glasses' particles, on the fluid's lattice, leave their places out of the water's */
            check_result(gp_particles_read(world, GP_ATTRIBUTE_POSITION, 0, row->body_particles, at), "gp_particles_read", n);
            for (i = 0; i < row->body_particles; ++i) {
                const float q[3] = {at[i].x, at[i].y, at[i].z};
                uint32_t cell[3];
                for (a = 0; a < 3; ++a) {
                    double c = floor(q[a] / s);
                    if (c < 0.0 || c >= (a == 1 ? height : width) || fabs(q[a] - (c + 0.5) * s) > 1e-3 * s) {
                        fprintf(stderr, "bench: a glass particle at (%g %g %g) is off the fluid's lattice\n", q[0], q[1], q[2]);
                        exit(1);
                    }
                    cell[a] = (uint32_t)c;
                }
                solid[cell[0] + (size_t)width * (cell[1] + (size_t)height * cell[2])] = 1;
            }
            for (j = 0; j < height && added < row->fluid; ++j)   /* the water, from the floor up */
                for (k = 0; k < width && added < row->fluid; ++k)
                    for (i = 0; i < width && added < row->fluid; ++i) {
                        if (solid[i + (size_t)width * (j + (size_t)height * k)]) continue;
                        xyz[3 * (size_t)added] = ((float)i + 0.5f) * s;
                        xyz[3 * (size_t)added + 1] = ((float)j + 0.5f) * s;
                        xyz[3 * (size_t)added + 2] = ((float)k + 0.5f) * s;
                        ++added;
                        row->layers = j + 1;
                    }
            if (added != row->fluid) {
                fprintf(stderr, "bench: the tank holds %u fluid particles around the glasses, not %u\n", added, row->fluid);
                exit(1);
            }
            /* the shorter substep: the fluid's at CFL 0.5 or the glasses' contacts' */
            reference = cpu_dem_material_default(s);
            h = (float)fmin(0.5 * s / sqrt(water.stiffness), cpu_dem_material_substep(&reference));
        }
        memset(&p, 0, sizeof p);   /* the points gp_fluid_add_block fills, at the rest density (a block starts hydrostatic) */
        p.count = row->fluid;
        p.positions = xyz;
        p.radius = 0.5f * s;
        p.mass = water.mass;
        p.kind = GP_KIND_FLUID;
        check_result(gp_particles_add(world, &p, NULL), "gp_particles_add", n);
        if (gp_particle_count(world) != n - (pass == 2 ? row->grains : 0)) {
            fprintf(stderr, "bench: coupling: %u particles, not %u\n", gp_particle_count(world), n);
            exit(1);
        }
        if (pass == 2) {   /* sand half the water's spacing, a grain at every 8th water point, a quarter spacing off it */
            gp_granular_material sand;
            float* grains = (float*)bench_alloc((size_t)row->grains * 12);
            memset(&sand, 0, sizeof sand);
            sand.diameter = 0.5f * s;
            check_result(gp_granular_material_set(world, 0, &sand), "gp_granular_material_set", n);
            for (i = 0; i < row->grains; ++i)
                for (a = 0; a < 3; ++a) grains[3 * (size_t)i + a] = xyz[3 * (size_t)8 * i + a] + (a == 1 ? 0.0f : 0.25f * s);
            memset(&p, 0, sizeof p);
            p.count = row->grains;
            p.positions = grains;
            p.kind = GP_KIND_GRANULAR;
            check_result(gp_particles_add(world, &p, NULL), "gp_particles_add", n);
            free(grains);
            reference = cpu_dem_material_default(0.5f * s);   /* the sand's contacts may want a shorter substep */
            h = (float)fmin(h, cpu_dem_material_substep(&reference));
        }
        coupling_time(world, h, row->warm_up, row->runs, step, stages, coupling, drag);
        gp_world_destroy(world);
    }
    free(solid); free(xyz); free(glasses); free(at);
}

static int coupling_bench(uint32_t max_particles, coupling_row* rows) {
    static const struct { uint32_t fluid, side; double paper; } plan[COUPLING_ROWS] = {{49153u, 6u, 18.0}, {1048576u, 28u, -1.0}};
    int i, count = 0;
    for (i = 0; i < COUPLING_ROWS; ++i) {
        coupling_row* row = &rows[count];
        if (plan[i].fluid >= COUPLING_LARGE && max_particles < COUPLING_LARGE) continue;
        memset(row, 0, sizeof *row);
        row->fluid = plan[i].fluid;
        row->side = plan[i].side;
        row->paper_ips = plan[i].paper;
        row->warm_up = row->fluid >= COUPLING_LARGE ? COUPLING_LARGE_WARM_UP : COUPLING_WARM_UP;
        row->runs = row->fluid >= COUPLING_LARGE ? COUPLING_LARGE_RUNS : COUPLING_RUNS;
        coupling_bench_row(row);
        ++count;
    }
    return count;
}

static void coupling_print(const coupling_row* rows, int count) {
    char text[3][16];
    int i;
    printf("\nFluid-solid coupling (paper 000, figure 29-11 top): glasses (open boxes of 6 x 8 x 6 particles, 176 each) in\n"
           "two tiers, standing in water in a box tank; the fluid's and the glasses' particles 1/64 m apart.\n"
           "GPU: every stage timer of a substep summed; step: one gp_world_step substep to a readback (ips = 1000 / step);\n"
           "both the mean of %d after %d warm-up substeps (%d after %d at 1M). coupling: its stages, coupling_pressure, _solid and _guard; fluid\n"
           "only: the same water without the glasses; solids: GPU less fluid only, all the glasses cost. Paper: GeForce\n"
           "8800 GTX.\n\n", COUPLING_RUNS, COUPLING_WARM_UP, COUPLING_LARGE_RUNS, COUPLING_LARGE_WARM_UP);
    printf("%10s %10s %7s %9s %9s %7s %9s | %9s %6s | %9s %7s | %9s %6s\n", "fluid", "body part.", "bodies", "GPU ms",
           "step ms", "ips", "paper ips", "coupl. ms", "share", "fluid ms", "ips", "solids ms", "share");
    for (i = 0; i < count; ++i) {
        const coupling_row* r = &rows[i];
        printf("%10s %10s %7s", grouped(r->fluid, text[0]), grouped(r->body_particles, text[1]), grouped(r->bodies, text[2]));
        if (r->runs) {
            print_cell(r->stages_ms, " %*.2f", 9);
            print_cell(r->step_ms, " %*.2f", 9);
            print_cell(1e3 / r->step_ms, " %*.2f", 7);
            print_cell(r->paper_ips, " %*.0f", 9);
            printf(" |");
            print_cell(r->coupling_ms, " %*.2f", 9);
            printf(" %5.1f%%", 100.0 * r->coupling_ms / r->stages_ms);
            printf(" |");
            print_cell(r->fluid_stages_ms, " %*.2f", 9);
            print_cell(1e3 / r->fluid_step_ms, " %*.2f", 7);
            printf(" |");
            print_cell(r->stages_ms - r->fluid_stages_ms, " %*.2f", 9);
            printf(" %5.1f%%", 100.0 * (r->stages_ms - r->fluid_stages_ms) / r->stages_ms);
        } else {
            printf(" %9s %9s %7s", "-", "-", "-");
            print_cell(r->paper_ips, " %*.0f", 9);
        }
        printf("\n");
    }
    for (i = 0; i < count; ++i) {
        if (rows[i].note[0]) printf("%s: %s\n", grouped(rows[i].fluid, text[0]), rows[i].note);
        else printf("%s: the water %u layers deep (the last part full) over glasses 16 high\n", grouped(rows[i].fluid, text[0]),
                    rows[i].layers);
    }
    for (i = 0; i < count; ++i)
        if (rows[i].runs && rows[i].sand_stages_ms > 0.0)
            printf("%s with %s grains of sand (half the spacing wide, dragged by the water; no glasses): the drag's stages "
                   "(coupling_drag, coupling_drag_fluid) %.2f ms of the substep's %.2f (%.1f%%); the water alone %.2f\n",
                   grouped(rows[i].fluid, text[0]), grouped(rows[i].grains, text[1]), rows[i].drag_ms, rows[i].sand_stages_ms,
                   100.0 * rows[i].drag_ms / rows[i].sand_stages_ms, rows[i].fluid_stages_ms);
    if (count < COUPLING_ROWS) printf("GP_BENCH_MAX_PARTICLES=1048576 adds a row of 1,048,576 fluid particles (1,513 glasses).\n");
}

/* ---- effect particles: paper 002's Table 2 ---------------------------------------------------
   256^2, 512^2 and 1024^2 effect particles thrown up from a 2 m square, each frame of 1/60 s one
   gp_world_step (the grid build, then effects_move: gravity, drag, aging; one substep, as the
   library picks for effects alone): E1 motion only, E2 with a 64 x 64 height field under them to
   bounce on, E3 as E2 and then drawn as sprites sorted back to front (gp_draw_effects, alpha
   blended, into a 960 x 640 frame buffer), E4 with collisions between them too (effects_collide),
   and E5 the CPU's time for E3's work (the same motion and bounce, the depth keys and a qsort; one
   thread; no drawing). Milliseconds per frame: wall clock to a readback, and the GPU's stage
   timers summed. */
#define EFFECTS_SIZES 3
#define EFFECTS_CASES 4

/* A 960 x 640 frame buffer (RGBA8, depth) for E3's sprites, bound; the bench has no GL loader: the
   few entry points through EGL. */
static void effects_framebuffer(int open, GLuint* names) {
    PFNGLGENFRAMEBUFFERSPROC gen_framebuffers = (PFNGLGENFRAMEBUFFERSPROC)eglGetProcAddress("glGenFramebuffers");
    PFNGLBINDFRAMEBUFFERPROC bind_framebuffer = (PFNGLBINDFRAMEBUFFERPROC)eglGetProcAddress("glBindFramebuffer");
    PFNGLGENRENDERBUFFERSPROC gen_renderbuffers = (PFNGLGENRENDERBUFFERSPROC)eglGetProcAddress("glGenRenderbuffers");
    PFNGLBINDRENDERBUFFERPROC bind_renderbuffer = (PFNGLBINDRENDERBUFFERPROC)eglGetProcAddress("glBindRenderbuffer");
    PFNGLRENDERBUFFERSTORAGEPROC storage = (PFNGLRENDERBUFFERSTORAGEPROC)eglGetProcAddress("glRenderbufferStorage");
    PFNGLFRAMEBUFFERRENDERBUFFERPROC attach = (PFNGLFRAMEBUFFERRENDERBUFFERPROC)eglGetProcAddress("glFramebufferRenderbuffer");
    PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers = (PFNGLDELETEFRAMEBUFFERSPROC)eglGetProcAddress("glDeleteFramebuffers");
    PFNGLDELETERENDERBUFFERSPROC delete_renderbuffers = (PFNGLDELETERENDERBUFFERSPROC)eglGetProcAddress("glDeleteRenderbuffers");
    void (*viewport)(GLint, GLint, GLsizei, GLsizei) = (void (*)(GLint, GLint, GLsizei, GLsizei))eglGetProcAddress("glViewport");
    if (!open) {
        bind_framebuffer(GL_FRAMEBUFFER, 0);
        delete_framebuffers(1, &names[0]);
        delete_renderbuffers(2, &names[1]);
        return;
    }
    gen_framebuffers(1, &names[0]);
    gen_renderbuffers(2, &names[1]);
    bind_renderbuffer(GL_RENDERBUFFER, names[1]);
    storage(GL_RENDERBUFFER, GL_RGBA8, 960, 640);
    bind_renderbuffer(GL_RENDERBUFFER, names[2]);
    storage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 960, 640);
    bind_framebuffer(GL_FRAMEBUFFER, names[0]);
    attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, names[1]);
    attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, names[2]);
    viewport(0, 0, 960, 640);
}

typedef struct effects_key { float depth; uint32_t index; } effects_key;
static int effects_farther(const void* a, const void* b) {
    float x = ((const effects_key*)a)->depth, y = ((const effects_key*)b)->depth;
    return x > y ? -1 : x < y ? 1 : 0;
}

/* E5: E3's work on the CPU for one frame of n particles (xyz, then velocities), in place: drag
   and gravity, the move, the bounce on the 64 x 64 height field over [-0.5, 2.5]^2 (bilinear,
   restitution 0.5), then the depth keys for the camera's third row and a qsort, farthest first.
   Returns the milliseconds. */
static double effects_cpu_frame(float* xyz, uint32_t n, const float* heights, const float view_z[4], effects_key* keys) {
    const float dt = 1.0f / 60.0f, k = 0.2f, g = -9.81f;
    double t = now_ms();
    uint32_t i;
    for (i = 0; i < n; ++i) {
        float* x = xyz + 3 * (size_t)i, *v = xyz + 3 * ((size_t)n + i);
        float u, w, h;
        int a, b, c;
        for (c = 0; c < 3; ++c) {
            v[c] += ((c == 1 ? g : 0.0f) - k * v[c]) * dt;
            x[c] += v[c] * dt;
        }
        u = (x[0] + 0.5f) / 3.0f * 63.0f; w = (x[2] + 0.5f) / 3.0f * 63.0f;
        u = u < 0.0f ? 0.0f : u > 62.999f ? 62.999f : u;
        w = w < 0.0f ? 0.0f : w > 62.999f ? 62.999f : w;
        a = (int)u; b = (int)w; u -= (float)a; w -= (float)b;
        h = (1 - u) * (1 - w) * heights[a + 64 * b] + u * (1 - w) * heights[a + 1 + 64 * b] + (1 - u) * w * heights[a + 64 * (b + 1)] +
            u * w * heights[a + 1 + 64 * (b + 1)];
        if (x[1] < h + 0.005f) { x[1] = h + 0.005f; if (v[1] < 0.0f) v[1] = -0.5f * v[1]; }
        keys[i].depth = view_z[0] * x[0] + view_z[1] * x[1] + view_z[2] * x[2] + view_z[3];
        keys[i].index = i;
    }
    qsort(keys, n, sizeof *keys, effects_farther);
    return now_ms() - t;
}
typedef struct effects_row { uint32_t n; double frame_ms[EFFECTS_CASES], gpu_ms[EFFECTS_CASES], cpu_ms; int runs; } effects_row;

static void effects_case(effects_row* row, int c) {
    gp_world_desc d;
    gp_world* w = NULL;
    gp_particles_desc pd;
    gp_effect_material m;
    gp_timing timings[BENCH_MAX_STAGES];
    float* xyz = (float*)bench_alloc((size_t)row->n * 6 * sizeof(float)), *heights = (float*)bench_alloc(64 * 64 * sizeof(float));
    uint64_t state = 77;
    uint32_t k, count;
    GLuint framebuffer[3];
    gp_draw_desc draw;
    double total = 0.0, gpu = 0.0;
    int f, warm = row->n >= 1000000u ? 1 : 2, runs = row->n >= 1000000u ? 3 : 5;
    for (k = 0; k < 6 * row->n; ++k) {
        double r = (double)(bench_random(&state) >> 11) / 9007199254740992.0;
        int a = (int)(k % 3);
        xyz[k] = k < 3 * row->n ? (float)(a == 1 ? 0.2 + 1.8 * r : 2.0 * r) : (float)(a == 1 ? 2.0 + 3.0 * r : 2.0 * r - 1.0);
    }
    for (k = 0; k < 64 * 64; ++k) heights[k] = 0.1f * sinf(0.3f * (float)(k % 64)) * cosf(0.2f * (float)(k / 64));
    memset(&d, 0, sizeof d);
    d.max_particles = row->n;
    d.grid.cell_size = 0.02f;
    d.gpu_timings = true;
    d.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    check_result(gp_world_create(&d, &w), "gp_world_create", row->n);
    memset(&m, 0, sizeof m);
    m.drag = 0.2f;
    m.collide = c == 3 ? 0.8f : 0.0f;
    check_result(gp_effect_material_set(w, 0, &m), "gp_effect_material_set", row->n);
    if (c >= 1) {
        gp_collider ground;
        check_result(gp_heightfield_add(w, heights, 64, 64, -0.5f, 2.5f, -0.5f, 2.5f, 0.0f, &ground), "gp_heightfield_add", row->n);
    }
    memset(&pd, 0, sizeof pd);
    pd.count = row->n; pd.positions = xyz; pd.velocities = xyz + 3 * (size_t)row->n; pd.kind = GP_KIND_EFFECT; pd.radius = 0.005f;
    pd.mass = 1e-4f;
    check_result(gp_particles_add(w, &pd, NULL), "gp_particles_add", row->n);
    if (c == 2) effects_framebuffer(1, framebuffer);
    memset(&draw, 0, sizeof draw);   /* the default camera */
    for (f = 0; f < warm + runs; ++f) {
        gp_step_desc step;
        gp_particle_position probe;
        double t = now_ms();
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60.0f;
        if (f == warm) gp_timings_read(w, timings, BENCH_MAX_STAGES);   /* the warm-up's totals, discarded */
        check_result(gp_world_step(w, &step), "gp_world_step", row->n);
        if (c == 2) check_result(gp_draw_effects(w, &draw), "gp_draw_effects", row->n);
        check_result(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &probe), "gp_particles_read", row->n);
        if (f >= warm) total += now_ms() - t;
    }
    if (c == 2) effects_framebuffer(0, framebuffer);
    count = gp_timings_read(w, timings, BENCH_MAX_STAGES);
    for (k = 0; k < count && k < BENCH_MAX_STAGES; ++k) gpu += timings[k].milliseconds;
    row->frame_ms[c] = total / runs;
    row->gpu_ms[c] = gpu / runs;
    row->runs = runs;
    gp_world_destroy(w);
    free(xyz); free(heights);
}

/* E5 for a row: three CPU frames of E3's work, the mean. */
static void effects_cpu(effects_row* row) {
    float* xyz = (float*)bench_alloc((size_t)row->n * 6 * sizeof(float)), heights[64 * 64];
    effects_key* keys = (effects_key*)bench_alloc((size_t)row->n * sizeof *keys);
    const float view_z[4] = {-0.35f, -0.45f, -0.82f, -4.0f};   /* looking as the default camera does */
    uint64_t state = 77;
    uint32_t k;
    int f;
    for (k = 0; k < 6 * row->n; ++k) xyz[k] = (float)((double)(bench_random(&state) >> 11) / 9007199254740992.0) * 2.0f;
    for (k = 0; k < 64 * 64; ++k) heights[k] = 0.1f * sinf(0.3f * (float)(k % 64)) * cosf(0.2f * (float)(k / 64));
    row->cpu_ms = 0.0;
    for (f = 0; f < 3; ++f) row->cpu_ms += effects_cpu_frame(xyz, row->n, heights, view_z, keys) / 3.0;
    free(xyz); free(keys);
}

static int effects_bench(uint32_t max_particles, effects_row* rows) {
    static const uint32_t sizes[EFFECTS_SIZES] = {65536u, 262144u, 1048576u};
    int i, c, count = 0;
    for (i = 0; i < EFFECTS_SIZES; ++i) {
        if (max_particles && sizes[i] > max_particles) continue;
        memset(&rows[count], 0, sizeof rows[count]);
        rows[count].n = sizes[i];
        for (c = 0; c < EFFECTS_CASES; ++c) effects_case(&rows[count], c);
        effects_cpu(&rows[count]);
        ++count;
    }
    return count;
}

static void effects_print(const effects_row* rows, int count) {
    static const char* const names[EFFECTS_CASES] = {"E1 motion", "E2 +height field", "E3 +sorted sprites", "E4 +collisions"};
    char text[16];
    int i, c;
    printf("\nEffect particles (paper 002, Table 2): one gp_world_step of 1/60 s (the grid build, then the effects' stages),\n"
           "ms per frame to a readback (frame) and the GPU's stage timers summed (GPU); E5: the CPU's time for E3's work\n"
           "(motion, bounce, depth keys, qsort; one thread, no drawing), and E3's speed-up over it.\n\n");
    printf("%10s", "particles");
    for (c = 0; c < EFFECTS_CASES; ++c) printf(" | %18s", names[c]);
    printf(" | %8s %7s\n%10s", "E5 CPU", "E5/E3", "");
    for (c = 0; c < EFFECTS_CASES; ++c) printf(" | %9s %8s", "frame", "GPU");
    printf(" | %8s %7s\n", "", "");
    for (i = 0; i < count; ++i) {
        printf("%10s", grouped(rows[i].n, text));
        for (c = 0; c < EFFECTS_CASES; ++c) printf(" | %9.2f %8.2f", rows[i].frame_ms[c], rows[i].gpu_ms[c]);
        printf(" | %8.2f %7.2f\n", rows[i].cpu_ms, rows[i].cpu_ms / rows[i].frame_ms[2]);
    }
}

int main(int argc, char** argv) {
    static bench_row rows[BENCH_MAX_SIZES][BENCH_PRIMITIVES];
    static sph_row sph_rows[SPH_SIZES], sph_continuity;
    static dem_row dem_rows[DEM_ROWS];
    static coupling_row coupling_rows[COUPLING_ROWS];
    static effects_row effects_rows[EFFECTS_SIZES];
    uint32_t sizes[BENCH_MAX_SIZES] = {65536u, 1048576u, 4194304u}, sph_max = sph_sizes[SPH_SIZES - 1];
    int size_count = 3, sph_count = 0, dem_count = 0, coupling_count = 0, effects_count = 0, primitives = 1, sph = 1, dem = 1, coupling = 1;
    int effects = 1, quick = 0, i, p;
    int capped = getenv("GP_BENCH_MAX_PARTICLES") != NULL;
    double budget = env_number("GP_BENCH_SPH_SECONDS", SPH_BUDGET_SECONDS);
    const unsigned char* (*get_string)(unsigned int);
    const char *renderer, *version;
    char device[512];
    gp_egl egl;
    double start = now_ms();
    FILE* csv;

    if (capped) sph_max = (uint32_t)fmin(env_number("GP_BENCH_MAX_PARTICLES", 0.0), 4294967295.0);
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            size_count = 1;
            quick = 1;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            if (!(size_count = parse_sizes(argv[++i], sizes))) {
                fprintf(stderr, "bench: --sizes takes up to %d counts from 1 to 2^31, comma-separated\n", BENCH_MAX_SIZES);
                return 2;
            }
        } else if (strcmp(argv[i], "--sph-only") == 0) {
            primitives = dem = coupling = effects = 0;
        } else if (strcmp(argv[i], "--no-sph") == 0) {
            sph = 0;
        } else if (strcmp(argv[i], "--dem-only") == 0) {
            primitives = sph = coupling = effects = 0;
        } else if (strcmp(argv[i], "--no-dem") == 0) {
            dem = 0;
        } else if (strcmp(argv[i], "--coupling-only") == 0) {
            primitives = sph = dem = effects = 0;
        } else if (strcmp(argv[i], "--no-coupling") == 0) {
            coupling = 0;
        } else if (strcmp(argv[i], "--effects-only") == 0) {
            primitives = sph = dem = coupling = 0;
        } else if (strcmp(argv[i], "--no-effects") == 0) {
            effects = 0;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--sizes a,b,c] [--sph-only | --no-sph] [--dem-only | --no-dem]\n"
                    "       [--coupling-only | --no-coupling] [--effects-only | --no-effects]\n", argv[0]);
            return 2;
        }
    }
    if (quick && !capped) sph_max = 65536u;

    if (gp_egl_open(&egl, 4, 3)) return 1;
    get_string = (const unsigned char* (*)(unsigned int))eglGetProcAddress("glGetString");
    renderer = get_string ? (const char*)get_string(0x1F01) : NULL;   /* GL_RENDERER */
    version = get_string ? (const char*)get_string(0x1F02) : NULL;    /* GL_VERSION */
    snprintf(device, sizeof device, "%s, OpenGL %s", renderer ? renderer : "unknown renderer", version ? version : "unknown");
    printf("gpuparticle.h %d.%d.%d benchmark\ndevice: %s\n", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH, device);
    fflush(stdout);

    if (primitives) {
        for (i = 0; i < size_count; ++i) bench_one_size(sizes[i], rows[i]);
        print_primitives(rows, size_count);
    }
    if (sph) {
        sph_count = sph_bench(sph_max, capped, budget, sph_rows);
        sph_print(sph_rows, sph_count);
        if (sph_model_bench(sph_rows, sph_count, &sph_continuity)) sph_model_print(sph_rows, sph_count, &sph_continuity);
    }
    if (dem) {
        dem_count = dem_bench(capped ? sph_max : 0u, dem_rows);
        dem_print(dem_rows, dem_count);
    }
    if (coupling) {
        coupling_count = coupling_bench(capped ? sph_max : 0u, coupling_rows);
        coupling_print(coupling_rows, coupling_count);
    }
    if (effects) {
        effects_count = effects_bench(capped || quick ? sph_max : 0u, effects_rows);
        effects_print(effects_rows, effects_count);
    }

    csv = fopen(BENCH_CSV, "w");
    if (!csv) {
        fprintf(stderr, "bench: cannot write %s (run from the repository root, or `make bench`)\n", BENCH_CSV);
        gp_egl_close(&egl);
        return 1;
    }
    fprintf(csv, "device,primitive,n,gpu_ms,elements_per_s,copy_ms,copy_ratio,cpu_ms,cpu_speedup,bytes_per_particle\n");
    for (p = 0; p < BENCH_PRIMITIVES && primitives; ++p)
        for (i = 0; i < size_count; ++i) {
            const bench_row* r = &rows[i][p];
            csv_row(csv, device, row_names[p], r->n, r->gpu_ms, r->copy_ms, r->ratio, r->cpu_ms, -1.0);
        }
    /* sph_grid_build is Table 1's time (a), sph_substep its time (b) beside Table 2's CPU time */
    for (i = 0; i < sph_count; ++i) {
        const sph_row* r = &sph_rows[i];
        if (!r->runs) continue;
        csv_row(csv, device, "sph_grid_build", r->n, r->grid_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "sph_substep", r->n, r->step_ms, -1.0, -1.0, r->cpu_ms, r->layout_bytes / r->n);
    }
    /* dem_bodies_substep and dem_grains_substep: one substep of paper 000's scenes (ips = 1000 / gpu_ms) */
    for (i = 0; i < dem_count; ++i) {
        const dem_row* r = &dem_rows[i];
        char name[32];
        if (!r->runs) continue;
        snprintf(name, sizeof name, "dem_%s_substep", r->name);
        csv_row(csv, device, name, r->particles, r->step_ms, -1.0, -1.0, r->cpu_ms, -1.0);
        /* dem_*_contact (spring) and dem_*_contact_viscous: the contact passes; ratio: spring over viscous */
        snprintf(name, sizeof name, "dem_%s_contact", r->name);
        csv_row(csv, device, name, r->particles, r->spring_contact_ms, -1.0,
                r->viscous_contact_ms > 0.0 ? r->spring_contact_ms / r->viscous_contact_ms : -1.0, -1.0, 32.0 * (12 + 1));   /* the kept contacts' bytes */
        snprintf(name, sizeof name, "dem_%s_contact_viscous", r->name);
        csv_row(csv, device, name, r->particles, r->viscous_contact_ms, -1.0, -1.0, -1.0, -1.0);
    }
    /* coupling_substep: one substep of paper 000's figure 29-11 scene, n its fluid particles (ips = 1000 /
       gpu_ms); coupling_stages: its stage timers summed; coupling_solid: that stage; coupling_fluid_only_*:
       the same water without the glasses */
    for (i = 0; i < coupling_count; ++i) {
        const coupling_row* r = &coupling_rows[i];
        if (!r->runs) continue;
        csv_row(csv, device, "coupling_substep", r->fluid, r->step_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_stages", r->fluid, r->stages_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_solid", r->fluid, r->coupling_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_fluid_only_substep", r->fluid, r->fluid_step_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_fluid_only_stages", r->fluid, r->fluid_stages_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_sand_stages", r->fluid, r->sand_stages_ms, -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "coupling_drag", r->fluid, r->drag_ms, -1.0, -1.0, -1.0, -1.0);
    }
    /* effects_e1 ... e4: one frame of paper 002's Table 2 cases, n effect particles; e5: E3's work on the CPU */
    for (i = 0; i < effects_count; ++i) {
        static const char* const names[EFFECTS_CASES] = {"effects_e1_frame", "effects_e2_frame", "effects_e3_frame", "effects_e4_frame"};
        int c;
        for (c = 0; c < EFFECTS_CASES; ++c) csv_row(csv, device, names[c], effects_rows[i].n, effects_rows[i].frame_ms[c], -1.0, -1.0, -1.0, -1.0);
        csv_row(csv, device, "effects_e5_cpu", effects_rows[i].n, effects_rows[i].cpu_ms, -1.0, -1.0, -1.0, -1.0);
    }
    fclose(csv);
    printf("figures in %s; %.0f s in all\n", BENCH_CSV, (now_ms() - start) * 1e-3);
    gp_egl_close(&egl);
    return 0;
}
