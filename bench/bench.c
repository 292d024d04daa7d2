/* bench.c: the benchmark of gpuparticle.h's primitives, on whatever GL the EGL context gets
   (Mesa's llvmpipe on a machine without a GPU).

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

   Run:   make bench                       the table on stdout, the figures in build/bench.csv
          build/bench --quick              65,536 elements only: a smoke run
          build/bench --sizes 1000,65536   other sizes
*/
#define _POSIX_C_SOURCE 200809L
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "cpu_reference.h"
#include "gp_egl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_SIZES 16
#define BENCH_PRIMITIVES 8
#define BENCH_MAX_RUNS 9
#define BENCH_MAX_STAGES 32
#define BENCH_MAX_CHUNKS 16      /* buffers of the copy yardstick */
#define BENCH_CELL_SIZE 0.1f
#define BENCH_CSV "build/bench.csv"
#define BENCH_CPU_NEIGHBORS_MAX 65536u   /* brute force above this takes too long */

/* The rows, in the order the table prints them; grid_build_bounded and scan carry the goals. */
enum { ROW_SCAN, ROW_COMPACT, ROW_SORT, ROW_GRID_BOUNDED, ROW_REBUILD_BOUNDED, ROW_GRID_HASHED, ROW_REBUILD_HASHED, ROW_NEIGHBORS };
static const char* const row_names[BENCH_PRIMITIVES] = {
    "scan_exclusive", "compact", "sort_pairs", "grid_build_bounded", "grid_rebuild_bounded", "grid_build_hashed",
    "grid_rebuild_hashed", "count_neighbors"};
/* Words of input each primitive streams, per element: what its gp_copy yardstick copies. */
static const uint32_t row_copy_words[BENCH_PRIMITIVES] = {1, 1, 2, 14, 14, 14, 14, 4};

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

static void check_words(const char* primitive, uint32_t n, const char* what, const uint32_t* gpu, const uint32_t* cpu, uint32_t count) {
    uint32_t i;
    for (i = 0; i < count; ++i)
        if (gpu[i] != cpu[i]) fail(primitive, n, what, i, gpu[i], cpu[i]);
}

static uint32_t* read_words(bench_size* s, uint32_t buffer, size_t count) {
    uint32_t* words = (uint32_t*)bench_alloc(count * 4);
    check_result(gp_buffer_read(s->world, buffer, 0, count * 4, words), "gp_buffer_read", s->n);
    return words;
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
    int which = mode == GP_GRID_BOUNDED ? ROW_GRID_BOUNDED : ROW_GRID_HASHED;
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
        int rebuild = mode == GP_GRID_BOUNDED ? ROW_REBUILD_BOUNDED : ROW_REBUILD_HASHED;
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
    uint32_t* gpu;
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
    gpu = read_words(&s, s.out_buffer, n);
    check_words(row_names[ROW_SCAN], n, "output", gpu, s.cpu_out, n);
    free(gpu);
    gpu_time_row(&s, NULL, gpu_scan, "gp_scan_exclusive", row_copy_words[ROW_SCAN], &rows[ROW_SCAN]);

    progress(&s, ROW_COMPACT);
    rows[ROW_COMPACT].cpu_ms = cpu_median_ms(&s, NULL, ref_compact, s.runs);
    gpu_warm_up(&s, NULL, gpu_compact, "gp_compact");
    gpu = read_words(&s, s.count_buffer, 1);
    check_words(row_names[ROW_COMPACT], n, "count", gpu, &s.cpu_count, 1);
    free(gpu);
    gpu = read_words(&s, s.out_buffer, n);
    check_words(row_names[ROW_COMPACT], n, "indices", gpu, s.cpu_out, s.cpu_count);
    free(gpu);
    gpu_time_row(&s, NULL, gpu_compact, "gp_compact", row_copy_words[ROW_COMPACT], &rows[ROW_COMPACT]);

    progress(&s, ROW_SORT);
    rows[ROW_SORT].cpu_ms = cpu_median_ms(&s, ref_sort_prepare, ref_sort, s.runs);
    gpu_warm_up(&s, gpu_sort_prepare, gpu_sort, "gp_sort_pairs");
    gpu = read_words(&s, s.keys_buffer, n);
    check_words(row_names[ROW_SORT], n, "keys", gpu, s.cpu_keys, n);
    free(gpu);
    gpu = read_words(&s, s.values_buffer, n);
    check_words(row_names[ROW_SORT], n, "values", gpu, s.cpu_values, n);
    free(gpu);
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

int main(int argc, char** argv) {
    static bench_row rows[BENCH_MAX_SIZES][BENCH_PRIMITIVES];
    uint32_t sizes[BENCH_MAX_SIZES] = {65536u, 1048576u, 4194304u};
    int size_count = 3, i, p;
    const unsigned char* (*get_string)(unsigned int);
    const char *renderer, *version;
    char device[512], text[16];
    gp_egl egl;
    double start = now_ms();
    FILE* csv;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            size_count = 1;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            if (!(size_count = parse_sizes(argv[++i], sizes))) {
                fprintf(stderr, "bench: --sizes takes up to %d counts from 1 to 2^31, comma-separated\n", BENCH_MAX_SIZES);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: %s [--quick] [--sizes a,b,c]\n", argv[0]);
            return 2;
        }
    }

    if (gp_egl_open(&egl, 4, 3)) return 1;
    get_string = (const unsigned char* (*)(unsigned int))eglGetProcAddress("glGetString");
    renderer = get_string ? (const char*)get_string(0x1F01) : NULL;   /* GL_RENDERER */
    version = get_string ? (const char*)get_string(0x1F02) : NULL;    /* GL_VERSION */
    snprintf(device, sizeof device, "%s, OpenGL %s", renderer ? renderer : "unknown renderer", version ? version : "unknown");
    printf("gpuparticle.h %d.%d.%d benchmark\ndevice: %s\n", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH, device);
    fflush(stdout);

    for (i = 0; i < size_count; ++i) bench_one_size(sizes[i], rows[i]);

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

    csv = fopen(BENCH_CSV, "w");
    if (!csv) {
        fprintf(stderr, "bench: cannot write %s (run from the repository root, or `make bench`)\n", BENCH_CSV);
        gp_egl_close(&egl);
        return 1;
    }
    fprintf(csv, "device,primitive,n,gpu_ms,elements_per_s,copy_ms,copy_ratio,cpu_ms,cpu_speedup\n");
    for (p = 0; p < BENCH_PRIMITIVES; ++p)
        for (i = 0; i < size_count; ++i) {
            const bench_row* r = &rows[i][p];
            csv_field(csv, device);
            fprintf(csv, ",%s,%u", row_names[p], r->n);
            csv_number(csv, r->gpu_ms);
            csv_number(csv, (double)r->n / r->gpu_ms * 1e3);
            csv_number(csv, r->copy_ms);
            csv_number(csv, r->ratio);
            csv_number(csv, r->cpu_ms);
            csv_number(csv, r->cpu_ms < 0.0 ? -1.0 : r->cpu_ms / r->gpu_ms);
            fputc('\n', csv);
        }
    fclose(csv);
    printf("figures in %s; %.0f s in all\n", BENCH_CSV, (now_ms() - start) * 1e-3);
    gp_egl_close(&egl);
    return 0;
}
