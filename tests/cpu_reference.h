/* cpu_reference.h: plain, single-threaded C versions of every GPU primitive, the truth the tests
   compare against and the CPU column of `make bench`. Written for clarity, not speed, but without
   waste: each is the textbook algorithm. */
#ifndef GP_CPU_REFERENCE_H
#define GP_CPU_REFERENCE_H
#include <stdint.h>
#include <stddef.h>

/* out[i] = in[0] + ... + in[i - 1] modulo 2^32; out may be in. */
void cpu_scan_exclusive(const uint32_t* in, uint32_t* out, uint32_t count);
/* Indices of non-zero flags, in order; returns how many. */
uint32_t cpu_compact(const uint32_t* flags, uint32_t count, uint32_t* indices);
/* Sorts pairs by key, then value (the order gp_sort_pairs promises). */
void cpu_sort_pairs(uint32_t* keys, uint32_t* values, uint32_t count, int descending);

/* The grid as gp_grid_build defines it (gp_grid.glsl, mirrored in float arithmetic). */
typedef struct cpu_grid {
    int bounded;
    float origin[3], cell_size;
    int32_t dims[3];
    uint32_t buckets;   /* hashed: a power of two */
} cpu_grid;
int cpu_finite3(const float* p);
void cpu_grid_cell(const cpu_grid* g, const float* p, int32_t cell[3]);
int cpu_grid_inside(const cpu_grid* g, const float* p);
uint32_t cpu_grid_bucket(const cpu_grid* g, const int32_t cell[3]);
/* The bucket of a position: buckets for a NaN or infinite one. */
uint32_t cpu_grid_key(const cpu_grid* g, const float* p);
/* Counting sort of positions (stride 4 floats): cell_start (buckets + 2 words) and order. */
void cpu_grid_build(const cpu_grid* g, const float* positions, uint32_t count, uint32_t* cell_start, uint32_t* order);
/* Brute force: for each i, the j != i with |p_j - p_i|^2 < radius2 (finite positions only). */
void cpu_neighbor_counts(const float* positions, uint32_t count, double radius2, uint32_t* out);
#endif
