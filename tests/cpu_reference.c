/* cpu_reference.c: see cpu_reference.h. */
#include "cpu_reference.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpu_scan_exclusive(const uint32_t* in, uint32_t* out, uint32_t count) {
    uint32_t sum = 0, i;
    for (i = 0; i < count; ++i) {
        uint32_t v = in[i];
        out[i] = sum;
        sum += v;
    }
}

uint32_t cpu_compact(const uint32_t* flags, uint32_t count, uint32_t* indices) {
    uint32_t n = 0, i;
    for (i = 0; i < count; ++i)
        if (flags[i]) indices[n++] = i;
    return n;
}

/* Pairs packed into 64 bits sort by key, then value, with one comparison. */
static int cpu_compare_u64(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

void cpu_sort_pairs(uint32_t* keys, uint32_t* values, uint32_t count, int descending) {
    uint64_t* pairs = (uint64_t*)malloc((size_t)count * sizeof *pairs + 1);
    uint32_t i;
    for (i = 0; i < count; ++i) pairs[i] = ((uint64_t)keys[i] << 32) | values[i];
    qsort(pairs, count, sizeof *pairs, cpu_compare_u64);
    for (i = 0; i < count; ++i) {
        uint64_t p = pairs[descending ? count - 1 - i : i];
        keys[i] = (uint32_t)(p >> 32);
        values[i] = (uint32_t)p;
    }
    free(pairs);
}

int cpu_finite3(const float* p) { return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]); }

#define CPU_HASH_CELL_LIMIT 1073741823.0f

/* The unclamped cell coordinate along axis a, as gp_grid.glsl computes it: a product with the
   reciprocal rounded once, so that the GPU and the CPU agree on a particle at a cell's edge. */
static float cpu_cell_coordinate(const cpu_grid* g, const float* p, int a) {
    return floorf((p[a] - g->origin[a]) * (1.0f / g->cell_size));
}

void cpu_grid_cell(const cpu_grid* g, const float* p, int32_t cell[3]) {
    int a;
    for (a = 0; a < 3; ++a) {
        float c = cpu_cell_coordinate(g, p, a);
        if (g->bounded) {
            c = c < -1.0f ? -1.0f : c > (float)g->dims[a] ? (float)g->dims[a] : c;
            cell[a] = (int32_t)c;
            cell[a] = cell[a] < 0 ? 0 : cell[a] > g->dims[a] - 1 ? g->dims[a] - 1 : cell[a];
        } else {
            c = c < -CPU_HASH_CELL_LIMIT ? -CPU_HASH_CELL_LIMIT : c > CPU_HASH_CELL_LIMIT ? CPU_HASH_CELL_LIMIT : c;
            cell[a] = (int32_t)c;
        }
    }
}

int cpu_grid_inside(const cpu_grid* g, const float* p) {
    int a;
    for (a = 0; a < 3; ++a) {
        float c = cpu_cell_coordinate(g, p, a);
        if (g->bounded ? (c < 0.0f || c >= (float)g->dims[a]) : fabsf(c) > CPU_HASH_CELL_LIMIT) return 0;
    }
    return 1;
}

static uint32_t cpu_hash_mix(uint32_t h) {
    h ^= h >> 16; h *= 0x85ebca6bu;
    h ^= h >> 13; h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* floor(c / 4) without relying on how C shifts negative numbers */
static uint32_t cpu_block(int32_t c) { return (uint32_t)(c >= 0 ? c / 4 : -((-(int64_t)c + 3) / 4)); }

uint32_t cpu_grid_bucket(const cpu_grid* g, const int32_t c[3]) {
    uint32_t h, local;
    if (g->bounded) return (uint32_t)c[0] + (uint32_t)g->dims[0] * ((uint32_t)c[1] + (uint32_t)g->dims[1] * (uint32_t)c[2]);
    h = cpu_hash_mix(cpu_block(c[0]) * 0x8da6b343u ^ cpu_hash_mix(cpu_block(c[1]) * 0xd8163841u ^ cpu_hash_mix(cpu_block(c[2]) * 0xcb1ab31fu)));
    local = ((uint32_t)c[0] & 3u) | ((uint32_t)c[1] & 3u) << 2 | ((uint32_t)c[2] & 3u) << 4;
    return (h << 6 | local) & (g->buckets - 1u);
}

uint32_t cpu_grid_key(const cpu_grid* g, const float* p) {
    int32_t c[3];
    if (!cpu_finite3(p)) return g->buckets;
    cpu_grid_cell(g, p, c);
    return cpu_grid_bucket(g, c);
}

void cpu_grid_build(const cpu_grid* g, const float* positions, uint32_t count, uint32_t* cell_start, uint32_t* order) {
    uint32_t* cursor = (uint32_t*)calloc((size_t)g->buckets + 2, sizeof *cursor);
    uint32_t i;
    memset(cell_start, 0, ((size_t)g->buckets + 2) * sizeof *cell_start);
    for (i = 0; i < count; ++i) ++cell_start[cpu_grid_key(g, positions + 4 * (size_t)i)];
    cpu_scan_exclusive(cell_start, cell_start, g->buckets + 2);
    memcpy(cursor, cell_start, ((size_t)g->buckets + 2) * sizeof *cursor);
    for (i = 0; i < count; ++i) order[cursor[cpu_grid_key(g, positions + 4 * (size_t)i)]++] = i;
    free(cursor);
}

/* Brute force over a sort by x, so that the tests' 65,537-particle cases take milliseconds. */
typedef struct cpu_xi { float x; uint32_t i; } cpu_xi;
static int cpu_compare_x(const void* a, const void* b) {
    float x = ((const cpu_xi*)a)->x, y = ((const cpu_xi*)b)->x;
    return x < y ? -1 : x > y;
}

void cpu_neighbor_counts(const float* p, uint32_t count, double radius2, uint32_t* out) {
    cpu_xi* byx = (cpu_xi*)malloc((size_t)count * sizeof *byx + 1);
    uint32_t n = 0, a, b;
    double radius = sqrt(radius2);
    memset(out, 0, (size_t)count * sizeof *out);
    for (a = 0; a < count; ++a)
        if (cpu_finite3(p + 4 * (size_t)a)) { byx[n].x = p[4 * (size_t)a]; byx[n].i = a; ++n; }
    qsort(byx, n, sizeof *byx, cpu_compare_x);
    for (a = 0; a < n; ++a)
        for (b = a + 1; b < n && (double)byx[b].x - (double)byx[a].x <= radius; ++b) {
            const float* x = p + 4 * (size_t)byx[a].i;
            const float* y = p + 4 * (size_t)byx[b].i;
            double dx = (double)y[0] - x[0], dy = (double)y[1] - x[1], dz = (double)y[2] - x[2];
            if (dx * dx + dy * dy + dz * dz < radius2) { ++out[byx[a].i]; ++out[byx[b].i]; }
        }
    free(byx);
}
