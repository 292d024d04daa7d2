/* soak.c: the fluid's long runs, which the test suite has no time for on a software GL.
   The classic dam break (a column 0.1 m long, 0.2 m high and 0.1 m deep at one end of a closed
   tank 0.4 m long, 0.3 m high) hits the far wall and sloshes for --seconds of simulated time,
   with each material asked for (the default, water, and the presets) at each spacing asked for.
   Each frame (1/60 s) reads every particle back: a row says whether every particle stayed finite
   and in the store, the fastest particle over the run against the ideal front 2 sqrt(g H)
   (H = 0.2 m: 2.8 m/s), the densest particle against the rest density, the energy at the end
   against the start (kinetic + potential + compression, as tests/test_sph_flow.c's sph_dam_read), the
   substeps run and the wall-clock time. Exit status 1 when a row breaks the bounds
   (a particle not finite or lost, or one faster than 2 sqrt(g H): then its time and place on stderr).

   Run: build/soak [--seconds S] [--spacings 0.05,0.02,...] [--materials default,water,oil,honey,lava]
                   [--length L]   (the tank's length, 0.4 m: the far wall's first spray is a noisy
                   sample of the impact, and a scan of lengths shows its spread,
                   bench/notes/far_wall_jets_and_the_speed_bound.md)
   `make soak` runs the whole matrix (60 s; 0.05, 0.02, 0.01 and 0.005 m; every material):
   hours on llvmpipe, minutes on a GPU. */
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "gp_egl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct soak_material { const char* name; gp_fluid_preset preset; } soak_material;
static const soak_material soak_materials[] = {
    {"default", GP_FLUID_PRESET_DEFAULT}, {"water", GP_FLUID_WATER}, {"oil", GP_FLUID_OIL},
    {"honey", GP_FLUID_HONEY}, {"lava", GP_FLUID_LAVA},
};
#define SOAK_MATERIALS (int)(sizeof soak_materials / sizeof soak_materials[0])

typedef struct soak_row {
    uint32_t particles, lost, bad, substeps;
    double fastest, densest, energy_start, energy_end, wall_s;
    double fastest_at, fastest_where[3];   /* the fastest particle's time (s) and place (m) */
} soak_row;

static double soak_seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The tank's length (m): --length. */
static float soak_length = 0.4f;

/* One run: the column of material `preset` at spacing l0, `seconds` of simulated time. */
static int soak_run(gp_fluid_preset preset, float l0, double seconds, soak_row* row) {
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.2f, 0.1f}, g = 9.81f;
    gp_world_desc d;
    gp_world* w = NULL;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    uint32_t n = 0, frame, frames = (uint32_t)(seconds * 60.0 + 0.5), k;
    double start = soak_seconds_now();
    memset(row, 0, sizeof *row);
    memset(&d, 0, sizeof d);
    d.max_particles = (uint32_t)gp_lattice_block_count(l0, lo, hi) + 1;
    d.grid.cell_size = 2.0f * l0;
    d.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    if (gp_world_create(&d, &w) != GP_OK) return 1;
    if (gp_fluid_preset_material(preset, l0, &m) != GP_OK || gp_fluid_material_set(w, 0, &m) != GP_OK ||
        gp_fluid_material_get(w, 0, &m) != GP_OK) { gp_world_destroy(w); return 1; }
    memset(&tank, 0, sizeof tank);
    tank.shape = GP_SHAPE_BOX;
    tank.inside = true;
    tank.center[0] = 0.5f * soak_length; tank.center[1] = 0.15f; tank.center[2] = 0.05f;
    tank.half_extents[0] = 0.5f * soak_length; tank.half_extents[1] = 0.15f; tank.half_extents[2] = 0.05f;
    if (gp_collider_add(w, &tank, &handle) != GP_OK || gp_fluid_add_block(w, 0, lo, hi, NULL, &n) != GP_OK) {
        gp_world_destroy(w);
        return 1;
    }
    row->particles = n;
    p = (gp_particle_position*)malloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)malloc((size_t)n * sizeof *v);
    rho = (float*)malloc((size_t)n * sizeof *rho);
    for (frame = 0; frame <= frames && p && v && rho; ++frame) {
        gp_step_desc step;
        gp_fluid_stats stats;
        double energy = 0.0;
        if (frame > 0) {
            memset(&step, 0, sizeof step);
            step.dt = 1.0f / 60.0f;
            if (gp_world_step(w, &step) != GP_OK) break;
            if (gp_fluid_stats_read(w, &stats) == GP_OK) row->substeps += stats.substeps;
        } else if (gp_fluid_compute(w, 1.0f / 60.0f) != GP_OK) {
            break;
        }
        if (gp_particle_count(w) != n) row->lost = n - gp_particle_count(w);
        gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p);
        gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v);
        gp_particles_read(w, GP_ATTRIBUTE_DENSITY, 0, n, rho);
        for (k = 0; k < n; ++k) {
            double s2 = (double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z;
            if (!isfinite(p[k].x) || !isfinite(p[k].y) || !isfinite(p[k].z) || !isfinite(s2)) { ++row->bad; continue; }
            energy += v[k].mass * (0.5 * s2 + g * p[k].y);
            if (rho[k] > m.rest_density)
                energy += v[k].mass * m.stiffness * (log(rho[k] / m.rest_density) + m.rest_density / rho[k] - 1.0);
            if (frame > 0 && sqrt(s2) > row->fastest) {
                row->fastest = sqrt(s2);
                row->fastest_at = frame / 60.0;
                row->fastest_where[0] = p[k].x; row->fastest_where[1] = p[k].y; row->fastest_where[2] = p[k].z;
            }
            if (rho[k] > row->densest) row->densest = rho[k];
        }
        if (frame == 0) row->energy_start = energy;
        row->energy_end = energy;
    }
    row->densest /= m.rest_density;
    row->wall_s = soak_seconds_now() - start;
    free(p); free(v); free(rho);
    gp_world_destroy(w);
    return frame <= frames;
}

/* Splits a comma-separated list into at most `most` items; returns how many. */
static int soak_list(char* text, char** items, int most) {
    int count = 0;
    char* item = strtok(text, ",");
    while (item && count < most) { items[count++] = item; item = strtok(NULL, ","); }
    return count;
}

int main(int argc, char** argv) {
    char spacing_text[256] = "0.05,0.02,0.01,0.005", material_text[256] = "default,water,oil,honey,lava";
    char* spacings[16];
    char* materials[16];
    double seconds = 60.0, bound = 2.0 * sqrt(9.81 * 0.2);
    int i, a, b, c, ns, nm, broken = 0;
    const unsigned char* (*get_string)(unsigned int);
    gp_egl egl;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--spacings") == 0 && i + 1 < argc) snprintf(spacing_text, sizeof spacing_text, "%s", argv[++i]);
        else if (strcmp(argv[i], "--materials") == 0 && i + 1 < argc) snprintf(material_text, sizeof material_text, "%s", argv[++i]);
        else if (strcmp(argv[i], "--length") == 0 && i + 1 < argc) soak_length = (float)atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--seconds S] [--spacings a,b,...] [--materials default,water,oil,honey,lava] [--length L]\n", argv[0]);
            return 2;
        }
    }
    if (!(soak_length > 0.1f && soak_length < 100.0f)) {
        fprintf(stderr, "--length: the tank must be longer than the column (0.1 m) and under 100 m\n");
        return 2;
    }
    if (gp_egl_open(&egl, 4, 3)) { fprintf(stderr, "no OpenGL 4.3 context\n"); return 2; }
    get_string = (const unsigned char* (*)(unsigned int))eglGetProcAddress("glGetString");
    printf("soak: the dam break (0.1 x 0.2 m column, closed tank %g m) for %g s on %s\n", soak_length, seconds,
           get_string ? (const char*)get_string(0x1F01) : "an unknown renderer");   /* GL_RENDERER */
    printf("| material | spacing (m) | particles | finite, kept | fastest / 2 sqrt(gH) | densest / rho0 | energy end / start | substeps | wall (s) |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    fflush(stdout);
    ns = soak_list(spacing_text, spacings, 16);
    nm = soak_list(material_text, materials, 16);
    for (a = 0; a < nm; ++a)
        for (b = 0; b < ns; ++b) {
            soak_row row;
            int found = -1, failed;
            for (c = 0; c < SOAK_MATERIALS; ++c) if (strcmp(materials[a], soak_materials[c].name) == 0) found = c;
            if (found < 0) { fprintf(stderr, "soak: no material %s\n", materials[a]); return 2; }
            failed = soak_run(soak_materials[found].preset, (float)atof(spacings[b]), seconds, &row);
            printf("| %s | %s | %u | %s | %.3f | %.3f | %.3f | %u | %.0f |\n", materials[a], spacings[b], row.particles,
                   failed ? "the run stopped" : row.bad || row.lost ? "NO" : "yes", row.fastest / bound, row.densest,
                   row.energy_start > 0.0 ? row.energy_end / row.energy_start : 0.0, row.substeps, row.wall_s);
            if (!(row.fastest < bound))   /* where the bound broke: on stderr, the table stays a table */
                fprintf(stderr, "soak: %s at %s m: the fastest particle, %.2f m/s, at t %.3f s at (%.3f, %.3f, %.3f) m\n", materials[a],
                        spacings[b], row.fastest, row.fastest_at, row.fastest_where[0], row.fastest_where[1], row.fastest_where[2]);
            fflush(stdout);
            broken |= failed || row.bad || row.lost || !(row.fastest < bound);
        }
    gp_egl_close(&egl);
    return broken;
}
