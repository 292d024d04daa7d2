/* sink.c: a resolved body let go in a tank of fluid, to see whether it reaches the steady sinking
   speed a drag law predicts (a ball of density 1,200 in water, say), printed frame by frame so
   that what holds it can be looked at: its height and velocity, the fluid's force on it (its particles'
   accelerations times their masses) against its weight and the buoyancy of its particles'
   volume, the fluid's mean vertical velocity beside, below and above it, and the fluid's mean
   pressure just below and above it against the fluid's beside it at the same heights.

   Run: build/sink [options]   (`make sink SINK_ARGS="..."`)
     --preset water|oil|honey|lava   the fluid (default water), at --spacing (default 0.01 m)
     --shape ball|box|blob --size R  the body: a ball of radius R or a cube of half side R (0.025 m);
                                     blob: no body but a cube of a second fluid, the first's
                                     material at --density (its centre and mean velocity printed)
     --density D                     the body's density (1,200 kg/m^3)
     --voxel V                       its particles' spacing (default the fluid's)
     --width W --height H            the tank (0.12 m wide, 0.3 m high; the fluid to H - 0.05 m,
                                     the body's centre 0.1 m under its surface)
     --frames N                      frames of 1/60 s (12)
     --rest-pressure P               the fluid's p_0 (Pa; default the preset's, 0)
     --reach K                       the fluid's smoothing radius, K spacings (default the preset's, 2)
     --model summation|continuity    the fluid's density model (default the preset's, continuity)
     --stiffness K                   the fluid's stiffness, m^2/s^2 (default the preset's, 1,000)
     --viscosity NU                  the fluid's kinematic viscosity, m^2/s (default the preset's)
     --diffusion D                   the continuity model's density diffusion delta (default the
                                     preset's, 0.1; a tiny one, 1e-6, is none to speak of)
     --tank box|cylinder             the tank: a box (default) or a vertical cylinder of diameter W
                                     (a capsule standing on its round end, the fluid above it too)
     --fill area|inset               the cylinder's lattice: the points whose centres lie inside the
                                     capsule (area, default: as many as its cross-section holds; the
                                     walls' push moves the outer ring in at the first substep), or
                                     only those half a spacing inside it (inset: the box's margin,
                                     which leaves 11-15% of the cross-section empty at 0.12-0.18 m
                                     and spacing 0.01 m; the fluid spreads into it without its
                                     densities learning of it, and its pressure stands 11-16% over
                                     rho g depth: bench/notes/fluid_volume_growth_while_sloshing.md)
     --below B                       the body's centre B under the fluid's surface (0.1 m)
     --settle N                      the fluid runs N frames alone first, the body's place filled;
                                     then the fluid within the body's shape makes way for it
     --tilt DEG                      no body: after --settle frames gravity turns by DEG about z,
                                     and the fluid's surface slope against the new level is printed
                                     (sink_tilt: does a pool level again?), at the end the pressure's
                                     gradient along the new level against the surface's rho0 g s
   The body's centre is a point of the fluid's lattice and the lattice leaves out the points
   within the body: with the body's particles at the fluid's spacing they take exactly those
   places (sink_inside).

   In creeping flow (--tank cylinder --width 0.2 --height 0.35 --viscosity 0.02 --frames 120) run
   it twice, at --density 1200 and 1000: at 3 spacings the fluid re-packs with currents of a few
   mm/s, which the neutral ball rides, and the flow being linear, the heavy ball's speed less the
   neutral one's is its settling speed, to compare with the printed Stokes speed.

   What it has measured: bench/notes/body_held_by_the_fluid_lattice.md (a body a little denser
   than water held by the fluid's particle lattice at the default smoothing radius, freed at 3
   spacings), bench/notes/viscous_ball_against_stokes.md (1.04 of Stokes' speed at 3 spacings),
   bench/notes/tilted_pool_hold.md (--tilt). */
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "gp_egl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SINK_MAX 200000

typedef struct sink_setup {
    gp_fluid_preset preset;
    float spacing, size, density, voxel, width, height, rest_pressure, reach, stiffness, viscosity, below, diffusion, tilt;
    int box, blob, frames, summation, settle, cylinder, inset;
} sink_setup;

/* Means over the fluid particles of the regions around the body at the frame. */
typedef struct sink_regions {
    double velocity[3], pressure[4];   /* beside, below, above; below, beside it, above, beside it */
    int count[3], pressures[4];
} sink_regions;

static void sink_region(sink_regions* r, int which, double value, int pressure) {
    if (pressure) { r->pressure[which] += value; ++r->pressures[which]; }
    else { r->velocity[which] += value; ++r->count[which]; }
}

static int sink_args(int argc, char** argv, sink_setup* s) {
    int i;
    s->preset = GP_FLUID_WATER; s->spacing = 0.01f; s->size = 0.025f; s->density = 1200.0f; s->voxel = 0.0f;
    s->width = 0.12f; s->height = 0.3f; s->box = 0; s->blob = 0; s->frames = 12; s->rest_pressure = -1.0f; s->reach = 0.0f; s->summation = 0;
    s->stiffness = 0.0f; s->settle = 0; s->viscosity = 0.0f; s->below = 0.1f; s->cylinder = 0; s->inset = 0; s->diffusion = 0.0f; s->tilt = 0.0f;
    for (i = 1; i + 1 < argc; i += 2) {
        const char *key = argv[i], *value = argv[i + 1];
        if (strcmp(key, "--preset") == 0)
            s->preset = strcmp(value, "oil") == 0 ? GP_FLUID_OIL : strcmp(value, "honey") == 0 ? GP_FLUID_HONEY
                      : strcmp(value, "lava") == 0 ? GP_FLUID_LAVA : GP_FLUID_WATER;
        else if (strcmp(key, "--shape") == 0) { s->box = strcmp(value, "ball") != 0; s->blob = strcmp(value, "blob") == 0; }
        else if (strcmp(key, "--spacing") == 0) s->spacing = (float)atof(value);
        else if (strcmp(key, "--size") == 0) s->size = (float)atof(value);
        else if (strcmp(key, "--density") == 0) s->density = (float)atof(value);
        else if (strcmp(key, "--voxel") == 0) s->voxel = (float)atof(value);
        else if (strcmp(key, "--width") == 0) s->width = (float)atof(value);
        else if (strcmp(key, "--height") == 0) s->height = (float)atof(value);
        else if (strcmp(key, "--frames") == 0) s->frames = atoi(value);
        else if (strcmp(key, "--rest-pressure") == 0) s->rest_pressure = (float)atof(value);
        else if (strcmp(key, "--reach") == 0) s->reach = (float)atof(value);
        else if (strcmp(key, "--stiffness") == 0) s->stiffness = (float)atof(value);
        else if (strcmp(key, "--viscosity") == 0) s->viscosity = (float)atof(value);
        else if (strcmp(key, "--below") == 0) s->below = (float)atof(value);
        else if (strcmp(key, "--diffusion") == 0) s->diffusion = (float)atof(value);
        else if (strcmp(key, "--tank") == 0 && (strcmp(value, "box") == 0 || strcmp(value, "cylinder") == 0))
            s->cylinder = strcmp(value, "cylinder") == 0;
        else if (strcmp(key, "--settle") == 0) s->settle = atoi(value);
        else if (strcmp(key, "--tilt") == 0) s->tilt = (float)atof(value);
        else if (strcmp(key, "--fill") == 0 && (strcmp(value, "area") == 0 || strcmp(value, "inset") == 0))
            s->inset = strcmp(value, "inset") == 0;
        else if (strcmp(key, "--model") == 0 && (strcmp(value, "summation") == 0 || strcmp(value, "continuity") == 0))
            s->summation = strcmp(value, "summation") == 0;
        else return 0;
    }
    if (s->voxel <= 0.0f) s->voxel = s->spacing;
    if (i != argc || s->spacing <= 0.0f || s->frames <= 0 || s->stiffness < 0.0f || s->viscosity < 0.0f || s->settle < 0) return 0;
    if (s->tilt != 0.0f)   /* a pool: fluid to height - 0.05 m, no body */
        return fabsf(s->tilt) < 45.0f && !s->blob && s->height > 0.05f + s->spacing && s->width > 4.0f * s->spacing;
    return s->size > 0.0f && s->density > 0.0f && s->width > 2.0f * s->size && s->height > 0.25f && !(s->settle && s->blob) &&
           s->below > s->size && s->below < s->height - 0.05f;
}

/* Whether a lattice point at p lies within the body at c. The body's centre is a point of the
   fluid's lattice, so that with particles at the fluid's spacing (the default --voxel) the body's
   take exactly the places of the points left out, and the blob is those points. With another
   voxel, half a spacing more, so that no fluid rides inside the body (gaps remain around it); a
   blob (no voxel) is always the points within. */
static int sink_inside(const sink_setup* s, const float p[3], const float c[3]) {
    float reach = s->size + (!s->blob && s->voxel != s->spacing ? 0.5f * s->spacing : 0.0f), d2 = 0.0f, most = 0.0f;
    int a;
    for (a = 0; a < 3; ++a) {
        d2 += (p[a] - c[a]) * (p[a] - c[a]);
        most = fmaxf(most, fabsf(p[a] - c[a]));
    }
    return s->box ? most < reach : d2 < reach * reach;
}

/* One frame of 1/60 s. */
static int sink_frame(gp_world* w) {
    gp_step_desc step;
    memset(&step, 0, sizeof step);
    step.dt = 1.0f / 60.0f;
    return gp_world_step(w, &step) == GP_OK;
}

/* --settle's frames: the fluid alone before the body goes in or the gravity turns. */
static int sink_settle_frames(gp_world* w, const sink_setup* s) {
    int frame;
    for (frame = 0; frame < s->settle; ++frame)
        if (!sink_frame(w)) return 0;
    return 1;
}

/* --shape blob: a cube of a second fluid phase, the first's material at the body's density, let go
   in the first; its centre's height and mean vertical velocity, frame by frame. */
static int sink_blob(gp_world* w, const sink_setup* s, gp_fluid_material* m, const float* heavy, uint32_t count, uint32_t water) {
    static gp_particle_position x[SINK_MAX];
    static gp_particle_velocity v[SINK_MAX];
    static gp_particle_info info[SINK_MAX];
    gp_particles_desc blob;
    int frame;
    m->rest_density = s->density;
    m->mass = 0.0f;   /* derived again for the density */
    memset(&blob, 0, sizeof blob);
    blob.count = count;
    blob.positions = heavy;
    blob.kind = GP_KIND_FLUID;
    blob.phase = 1;
    if (gp_fluid_material_set(w, 1, m) != GP_OK || gp_particles_add(w, &blob, NULL) != GP_OK) return 1;
    printf("sink: a cube of %u particles of fluid at %.0f kg/m^3 in %u of the first fluid\n", count, s->density, water);
    for (frame = 1; frame <= s->frames; ++frame) {
        uint32_t n, q, in = 0;
        double y = 0.0, vy = 0.0;
        if (!sink_frame(w)) return 1;
        n = gp_particle_count(w);
        if (gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, x) != GP_OK || gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) != GP_OK ||
            gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) != GP_OK)
            return 1;
        for (q = 0; q < n; ++q)
            if ((info[q].kind >> 16) == 1u) { y += x[q].y; vy += v[q].y; ++in; }
        printf("t %.3f s: the blob's centre %.4f m, mean velocity %+.4f m/s (%u particles)\n", frame / 60.0, y / in, vy / in, in);
    }
    gp_world_destroy(w);
    return 0;
}

/* Stokes' settling speed of a sphere of the ball's volume (its particles' voxels), slowed by the
   walls of a cylinder of diameter W about it on its axis by Haberman and Sayre's factor (1958,
   David Taylor Model Basin report 1143; for creeping flow, d/D to about 0.8): what a ball in the
   --tank cylinder should settle to where the Reynolds number (printed) is well below 1. */
static double sink_stokes(const sink_setup* s, const gp_fluid_material* m, uint32_t particles, double* reynolds) {
    double r = cbrt(3.0 * particles / (4.0 * 3.14159265358979)) * s->voxel, l = 2.0 * r / s->width;
    double free_fall = 2.0 / 9.0 * (s->density - m->rest_density) * 9.81 * r * r / (m->rest_density * m->viscosity);
    double factor = (1.0 - 2.1050 * l + 2.0865 * pow(l, 3.0) - 1.7068 * pow(l, 5.0) + 0.72603 * pow(l, 6.0)) /
                    (1.0 - 0.75857 * pow(l, 5.0));
    *reynolds = fabs(free_fall * factor) * 2.0 * r / m->viscosity;
    return free_fall * factor;
}

/* --settle N: the fluid, its lattice whole (the body's place filled), runs N frames alone; then
   the fluid particles within the body's shape are removed and the body takes their place. A
   settled fluid has left its starting lattice, which at some smoothing radii is not at rest
   (bench/notes/body_held_by_the_fluid_lattice.md). x and info: room for the store's particles. */
static int sink_settle(gp_world* w, const sink_setup* s, const float at[3], gp_particle_position* x, gp_particle_info* info) {
    static uint32_t gone[SINK_MAX];
    uint32_t n, q, count = 0;
    if (!sink_settle_frames(w, s)) return 0;
    n = gp_particle_count(w);
    if (gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, x) != GP_OK || gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) != GP_OK)
        return 0;
    for (q = 0; q < n; ++q) {
        float p[3];
        p[0] = x[q].x; p[1] = x[q].y; p[2] = x[q].z;
        if (sink_inside(s, p, at)) gone[count++] = info[q].id;
    }
    printf("sink: the fluid settled for %d frames; %u of its particles removed from the body's place\n", s->settle, count);
    return gp_particles_remove(w, gone, count) == GP_OK;
}

/* The least-squares plane p = a + b u + c v through count samples (u, v, p): (a, b, c) into abc,
   0 when they do not fix one. */
static double sink_det3(double m[3][3]) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
static int sink_fit_plane(const double (*sample)[3], uint32_t count, double abc[3]) {
    double normal[3][3] = {{0.0}}, rhs[3] = {0.0}, det;
    uint32_t k;
    int r, c, col;
    for (k = 0; k < count; ++k) {
        const double f[3] = {1.0, sample[k][0], sample[k][1]};
        for (r = 0; r < 3; ++r) {
            rhs[r] += f[r] * sample[k][2];
            for (c = 0; c < 3; ++c) normal[r][c] += f[r] * f[c];
        }
    }
    if (!((det = sink_det3(normal)) != 0.0)) return 0;
    for (col = 0; col < 3; ++col) {   /* Cramer's rule */
        double m[3][3];
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) m[r][c] = c == col ? rhs[r] : normal[r][c];
        abc[col] = sink_det3(m) / det;
    }
    return 1;
}

/* --tilt DEG: no body. The fluid runs --settle frames, then gravity turns by DEG about the z axis
   (as a tank tipped by -DEG), and each frame prints the surface's slope against the new level: a
   line fitted to the highest particle of each column of the lattice along x (all of z), the
   columns within a smoothing radius of the walls left out. A fluid levels again (a syrup of
   0.01 m^2/s 0.1 m deep within about 0.05 s by lubrication theory, water as a seiche about the new
   level); one whose particles hold their arrangement keeps part of its old surface. Printed as
   the part kept: 0 level, 1 not moved. At the end, the pressure of the particles more than 1.5
   spacings under the surface and in the fitted columns, fitted as a plane in the tipped frame: its
   gradient along the new level against rho0 g times the surface's slope (what a fluid pushed by
   its tipped surface has) and 0 (a pressure that stands level: nothing drives the fluid). x: room
   for the store's particles; rest_density: the fluid's rho0. */
static int sink_tilt(gp_world* w, const sink_setup* s, float reach, float rest_density, gp_particle_position* x) {
    static double top[SINK_MAX], sample[SINK_MAX][3];
    static float pressure[SINK_MAX];
    const double angle = s->tilt * 3.14159265358979 / 180.0;
    const float g[3] = {(float)(9.81 * sin(angle)), (float)(-9.81 * cos(angle)), 0.0f};
    int columns = (int)(s->width / s->spacing + 0.5f), skip = (int)ceilf(reach / s->spacing), frame, c, lates = 0;
    double late = 0.0, slope = 0.0, level = 0.0, abc[3];
    uint32_t n = 0, q, samples = 0;
    if (!sink_settle_frames(w, s) || gp_gravity_set(w, g) != GP_OK) return 1;
    printf("sink: gravity turned by %.2f degrees after %d frames; %d columns fitted\n", s->tilt, s->settle, columns - 2 * skip);
    for (frame = 1; frame <= s->frames; ++frame) {
        double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, kept;
        int used = 0;
        if (!sink_frame(w)) return 1;
        n = gp_particle_count(w);
        if (gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, x) != GP_OK) return 1;
        for (c = 0; c < columns; ++c) top[c] = -1e30;
        for (q = 0; q < n; ++q) {   /* the height along the new gravity, over the plane of the new level through 0 */
            double up = x[q].y * cos(angle) - x[q].x * sin(angle);
            c = (int)floorf(x[q].x / s->spacing);
            if (c >= 0 && c < columns && up > top[c]) top[c] = up;
        }
        for (c = skip; c < columns - skip; ++c) {
            double along = (c + 0.5) * s->spacing;
            if (top[c] < -1e29) continue;
            sx += along; sy += top[c]; sxx += along * along; sxy += along * top[c]; ++used;
        }
        slope = used > 1 ? (used * sxy - sx * sy) / (used * sxx - sx * sx) : 0.0;
        level = used ? sy / used : 0.0;
        kept = slope / -sin(angle);
        printf("t %.3f s after the turn: surface slope %+.5f against the new level, %+.3f of the old surface kept\n", frame / 60.0,
               slope, kept);
        if (2 * frame > s->frames) { late += kept; ++lates; }
    }
    printf("the old surface's part kept over the last half of the frames: %+.3f (0: level again; 1: not moved)\n", late / (lates ? lates : 1));
    if (gp_particles_read(w, GP_ATTRIBUTE_PRESSURE, 0, n, pressure) != GP_OK) return 1;
    for (q = 0; q < n; ++q) {   /* (along the new level, up along the new gravity, pressure) */
        double up = x[q].y * cos(angle) - x[q].x * sin(angle), along = x[q].x * cos(angle) + x[q].y * sin(angle);
        c = (int)floorf(x[q].x / s->spacing);
        if (c < skip || c >= columns - skip || up > level - 1.5 * s->spacing) continue;
        sample[samples][0] = along; sample[samples][1] = up; sample[samples][2] = pressure[q];
        ++samples;
    }
    if (sink_fit_plane((const double (*)[3])sample, samples, abc))
        printf("the pressure of %u particles under the surface, a plane in the tipped frame: %+.1f Pa/m along the new level "
               "(%+.1f from the surface's slope, rho0 g s; 0 if it stands level), %+.1f Pa/m up (rho0 g %.1f)\n", samples, abc[1],
               rest_density * 9.81 * slope, abc[2], rest_density * 9.81);
    gp_world_destroy(w);
    return 0;
}

int main(int argc, char** argv) {
    static float xyz[3 * SINK_MAX], heavy[3 * SINK_MAX];
    static gp_particle_position x[SINK_MAX], a[SINK_MAX];
    static gp_particle_velocity v[SINK_MAX];
    static gp_particle_info info[SINK_MAX];
    static float pressure[SINK_MAX];
    sink_setup s;
    gp_egl egl;
    gp_world_desc d;
    gp_world* w = NULL;
    gp_fluid_material m;
    gp_granular_material g;
    gp_collider_desc tank;
    gp_collider handle;
    gp_shape_desc shape;
    gp_body_shape body_shape;
    gp_body_shape_info shape_info;
    gp_body_desc body;
    gp_body ball;
    gp_particles_desc fluid;
    float depth, at[3], p[3];
    double late = 0.0;
    int lates = 0;
    uint32_t n = 0, blob_count = 0, i, j, k;
    int frame;
    if (!sink_args(argc, argv, &s)) {
        fprintf(stderr, "usage: %s [--preset water|oil|honey|lava] [--spacing L] [--shape ball|box] [--size R] [--density D]\n"
                        "       [--voxel V] [--width W] [--height H] [--frames N] [--rest-pressure P] [--reach K]\n"
                        "       [--model summation|continuity] [--stiffness K] [--viscosity NU] [--settle N]\n"
                        "       [--tank box|cylinder] [--fill area|inset] [--below B] [--diffusion D] [--tilt DEG]\n", argv[0]);
        return 2;
    }
    depth = s.height - 0.05f;
    /* the body's centre: the lattice point nearest the tank's middle, --below under the surface */
    at[0] = at[2] = (floorf(0.5f * s.width / s.spacing) - 0.5f) * s.spacing;
    at[1] = (floorf((depth - s.below) / s.spacing) + 0.5f) * s.spacing;
    if (gp_egl_open(&egl, 4, 3)) return 1;
    memset(&d, 0, sizeof d);
    d.max_particles = SINK_MAX;
    d.grid.cell_size = (s.reach > 2.0f ? s.reach : 2.0f) * s.spacing;
    d.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    if (gp_world_create(&d, &w) != GP_OK) return 1;
    if (gp_fluid_preset_material(s.preset, s.spacing, &m) != GP_OK) return 1;
    if (s.rest_pressure >= 0.0f) m.rest_pressure = s.rest_pressure;
    if (s.reach > 0.0f) m.smoothing_radius = s.reach * s.spacing;
    if (s.summation) m.density_model = GP_DENSITY_SUMMATION;
    if (s.stiffness > 0.0f) m.stiffness = s.stiffness;
    if (s.viscosity > 0.0f) m.viscosity = s.viscosity;
    if (s.diffusion > 0.0f) m.diffusion = s.diffusion;
    if (gp_fluid_material_set(w, 0, &m) != GP_OK) return 1;
    memset(&tank, 0, sizeof tank);
    tank.shape = s.cylinder ? GP_SHAPE_CAPSULE : GP_SHAPE_BOX;
    tank.inside = true;
    tank.center[0] = tank.center[2] = 0.5f * s.width; tank.center[1] = 0.5f * s.height;
    tank.half_extents[0] = tank.half_extents[2] = 0.5f * s.width; tank.half_extents[1] = 0.5f * s.height;
    if (s.cylinder) {   /* the segment from a radius above the floor to the top: the round end touches y = 0 */
        tank.radius = 0.5f * s.width;
        tank.center[1] = 0.5f * (tank.radius + s.height);
        tank.half_height = 0.5f * (s.height - tank.radius);
    }
    if (gp_collider_add(w, &tank, &handle) != GP_OK) return 1;
    for (i = 0; (i + 0.5f) * s.spacing < s.width; ++i)
        for (j = 0; (j + 0.5f) * s.spacing < depth; ++j)
            for (k = 0; (k + 0.5f) * s.spacing < s.width && n < SINK_MAX - 10000; ++k) {
                p[0] = (i + 0.5f) * s.spacing; p[1] = (j + 0.5f) * s.spacing; p[2] = (k + 0.5f) * s.spacing;
                if (s.cylinder) {   /* inside the capsule (--fill area), or half a spacing inside it (inset) */
                    float r = 0.5f * s.width, dx = p[0] - r, dz = p[2] - r, dy = p[1] < r ? p[1] - r : 0.0f;
                    if (sqrtf(dx * dx + dy * dy + dz * dz) > r - (s.inset ? 0.5f * s.spacing : 0.0f)) continue;
                }
                if (!s.settle && s.tilt == 0.0f && sink_inside(&s, p, at)) {
                    if (s.blob) memcpy(heavy + 3 * blob_count++, p, sizeof p);
                    continue;
                }
                memcpy(xyz + 3 * n++, p, sizeof p);
            }
    memset(&fluid, 0, sizeof fluid);
    fluid.count = n;
    fluid.positions = xyz;
    fluid.kind = GP_KIND_FLUID;
    if (gp_particles_add(w, &fluid, NULL) != GP_OK) return 1;
    if (s.tilt != 0.0f) {
        gp_fluid_material resolved;
        if (gp_fluid_material_get(w, 0, &resolved) != GP_OK) return 1;
        return sink_tilt(w, &s, resolved.smoothing_radius, resolved.rest_density, x);
    }
    if (s.blob) return sink_blob(w, &s, &m, heavy, blob_count, n);
    if (s.settle && !sink_settle(w, &s, at, x, info)) return 1;
    memset(&g, 0, sizeof g);
    g.diameter = s.voxel;
    g.density = s.density * 6.0f / 3.14159265f;   /* a rigid particle's mass fills its voxel */
    memset(&shape, 0, sizeof shape);
    shape.shape = s.box ? GP_SHAPE_BOX : GP_SHAPE_SPHERE;
    shape.radius = s.size;
    shape.half_extents[0] = shape.half_extents[1] = shape.half_extents[2] = s.size;
    memset(&body, 0, sizeof body);
    memcpy(body.position, at, sizeof at);
    if (gp_granular_material_set(w, 0, &g) != GP_OK || gp_body_shape_create(w, &shape, &body_shape) != GP_OK ||
        gp_body_shape_info_get(w, body_shape, &shape_info) != GP_OK)
        return 1;
    body.shape = body_shape;
    if (gp_bodies_add(w, &body, 1, &ball) != GP_OK) return 1;
    printf("sink: a %s of %u particles, %.4f kg (density %.0f), in %s (rho %.0f, nu %.3g) at spacing %.3f; tank %.2f x %.2f m, "
           "%u fluid particles\nweight %.4f N, the buoyancy of its particles' volume %.4f N\n",
           s.box ? "cube" : "ball", shape_info.particles, shape_info.mass, s.density,
           s.preset == GP_FLUID_OIL ? "oil" : s.preset == GP_FLUID_HONEY ? "honey" : s.preset == GP_FLUID_LAVA ? "lava" : "water",
           m.rest_density, m.viscosity, s.spacing, s.width, s.height, n, shape_info.mass * 9.81,
           shape_info.particles * s.voxel * s.voxel * s.voxel * m.rest_density * 9.81);
    if (s.cylinder && !s.box) {
        double reynolds, stokes = sink_stokes(&s, &m, shape_info.particles, &reynolds);
        printf("Stokes' speed with the cylinder's walls (Haberman and Sayre): %.5f m/s, Reynolds number %.3g\n", stokes, reynolds);
    }
    for (frame = 1; frame <= s.frames; ++frame) {
        gp_body_state state;
        sink_regions r;
        double force = 0.0;
        uint32_t count, q;
        if (!sink_frame(w) || gp_bodies_read(w, &ball, 1, &state) != GP_OK) return 1;
        count = gp_particle_count(w);
        if (gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, x) != GP_OK ||
            gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, count, v) != GP_OK ||
            gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) != GP_OK ||
            gp_particles_read(w, GP_ATTRIBUTE_ACCELERATION, 0, count, a) != GP_OK ||
            gp_particles_read(w, GP_ATTRIBUTE_PRESSURE, 0, count, pressure) != GP_OK)
            return 1;
        memset(&r, 0, sizeof r);
        for (q = 0; q < count; ++q) {
            float across = fmaxf(fabsf(x[q].x - state.center_of_mass[0]), fabsf(x[q].z - state.center_of_mass[2]));
            float up = x[q].y - state.center_of_mass[1], near = 1.5f * s.spacing;
            if ((info[q].kind & 0xffu) == GP_KIND_RIGID) force += a[q].y * v[q].mass;
            if ((info[q].kind & 0xffu) != GP_KIND_FLUID) continue;
            if (across > s.size + s.spacing && across < s.size + 3.0f * s.spacing && fabsf(up) < s.size) sink_region(&r, 0, v[q].y, 0);
            if (across < s.size && up < -s.size && up > -s.size - near) { sink_region(&r, 1, v[q].y, 0); sink_region(&r, 0, pressure[q], 1); }
            if (across < s.size && up > s.size && up < s.size + near) { sink_region(&r, 2, v[q].y, 0); sink_region(&r, 2, pressure[q], 1); }
            if (across > s.size + 2.0f * s.spacing && up < -s.size && up > -s.size - near) sink_region(&r, 1, pressure[q], 1);
            if (across > s.size + 2.0f * s.spacing && up > s.size && up < s.size + near) sink_region(&r, 3, pressure[q], 1);
        }
        for (q = 0; q < 4; ++q) r.pressure[q] /= r.pressures[q] ? r.pressures[q] : 1;
        for (q = 0; q < 3; ++q) r.velocity[q] /= r.count[q] ? r.count[q] : 1;
        printf("t %.3f s: centre %.4f m, velocity %+.4f m/s, fluid force %.4f N; fluid's vertical velocity beside %+.4f, "
               "below %+.4f, above %+.4f m/s; pressure below %.0f Pa (beside %.0f), above %.0f (beside %.0f)\n",
               frame / 60.0, state.center_of_mass[1], state.velocity[1], force, r.velocity[0], r.velocity[1], r.velocity[2],
               r.pressure[0], r.pressure[1], r.pressure[2], r.pressure[3]);
        if (2 * frame > s.frames) { late += state.velocity[1]; ++lates; }
    }
    printf("the body's mean vertical velocity over the last half of the frames: %+.5f m/s\n", late / (lates ? lates : 1));
    gp_world_destroy(w);
    gp_egl_close(&egl);
    return 0;
}
