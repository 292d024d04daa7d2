/* test_dem_reference.c: the DEM on the GPU against the double-precision CPU reference
   (tests/cpu_dem.c, the model of gpuparticle.h section >>dem: contacts at contact points with
   the surfaces' velocities there, contact torques, every collider and every face of a container
   box on its own, your forces on grains and bodies):
     - dem_reference_contact_forces: after gp_fluid_compute, every particle's acceleration (a
       grain's f / m + gravity + your forces, a rigid particle's f / m) matches the reference on
       an empty store, one grain in a box's corner, bodies alone, and a store of random grains of
       two materials with a clump, exactly touching grains, grains outside the box, NaN and
       infinite positions, bodies of three shapes, a container box and a sphere obstacle;
     - dem_reference_substep: one substep of gp_world_step matches cpu_dem_step from the same
       state: grains' positions and velocities, bodies' centres, velocities, angular momenta and
       orientations, the rigid particles placed from them (so the force and torque sums match);
     - dem_reference_momentum: in a closed box without gravity, grains and bodies colliding away
       from the walls keep their total linear momentum (and angular momentum) over 400 substeps;
     - dem_reference_history: the tangential spring's history (static friction, Cundall & Strack
       1979; notes in cpu_dem.h): 60 substeps of grains of three materials (one viscous), two
       bodies, a container, a dome and a slope under gravity, the reference loading the GPU's
       state before each and keeping its own springs; every acceleration and each body's
       momenta after each substep match, while contacts start, end, slide and stick.
   The library's default shear model is the spring (k_s = 2/7 of the stiffness), so the first
   substep of a contact already carries k_s v_t h: the reference's materials mirror it.
   Tolerances are relative to the sum of the magnitudes of the terms behind each value (what the
   reference returns, see cpu_dem.h): float's rounding scales with them, not with the result. */
#include "gp_test.h"
#include "fixture.h"
#include "gpuparticle.h"
#include "cpu_dem.h"
#include "cpu_collider.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_CELL 0.01f          /* the grid's cell: the largest diameter */
#define REF_TOLERANCE 1e-5      /* GPU against CPU, relative to the terms' magnitudes (measured: see the verbose lines) */
#define REF_EPS 5.9604645e-8    /* 2^-24: float's unit rounding, for values the GPU merely stores */
#define REF_MAX_SHAPES 4
#define REF_MAX_BODIES 16
#define REF_H 1e-4              /* the substep, below t_c / 12 of both materials (1.34e-4 s, 1.16e-4 s) */

/* A world and what the reference needs to mirror it. */
typedef struct ref_world {
    gp_world* w;
    cpu_dem_material materials[3];
    uint32_t material_count;
    gp_collider_desc colliders[3];
    uint32_t collider_count;
    gp_force forces[2];
    uint32_t force_count;
    double gravity[3];
    gp_body_shape handles[REF_MAX_SHAPES];
    cpu_dem_shape shapes[REF_MAX_SHAPES];
    uint32_t shape_count;
    uint32_t body_shape[REF_MAX_BODIES];   /* index into shapes of each body */
    uint32_t body_count;
} ref_world;

static double ref_uniform(uint64_t* state, double lo, double hi) {
    return lo + (hi - lo) * (double)(fixture_random(state) >> 11) * (1.0 / 9007199254740992.0);
}
static double ref_length(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* Phase 0: diameter 0.01 m, every default. Phase 1: diameter 0.008 m, steel (7800 kg/m^3), twice
   the default damping, four times the shear, friction 0.3: pairs of the two use the mean. Both
   keep the default shear model, the tangential spring, k_s = 2/7 of the stiffness. The
   reference derives both from cpu_dem_material_default, and they must match what the library
   resolved to float's rounding (k_s but for a viscous material, which takes none). */
static void ref_check_material(ref_world* r, uint32_t p) {
    const cpu_dem_material* c = &r->materials[p];
    gp_granular_material got;
    CHECK(gp_granular_material_get(r->w, p, &got) == GP_OK);
    CHECKF(fabs(got.mass / c->mass - 1.0) < 1e-6 && fabs(got.stiffness / c->stiffness - 1.0) < 1e-6 &&
           fabs(got.damping / c->damping - 1.0) < 1e-6 && fabs(got.shear / c->shear - 1.0) < 1e-6 &&
           fabs(got.friction / c->friction - 1.0) < 1e-6 &&
           (c->viscous || fabs(got.tangential_stiffness / c->tangential_stiffness - 1.0) < 1e-6) &&
           (got.shear_model == GP_SHEAR_VISCOUS) == (c->viscous != 0), "phase %u: the library resolved m %g k %g eta %g k_t %g mu %g "
           "k_s %g model %d; the reference derives %g %g %g %g %g %g viscous %d", p, got.mass, got.stiffness, got.damping, got.shear,
           got.friction, got.tangential_stiffness, (int)got.shear_model, c->mass, c->stiffness, c->damping, c->shear, c->friction,
           c->tangential_stiffness, c->viscous);
}

static void ref_materials(ref_world* r) {
    gp_granular_material m;
    memset(&m, 0, sizeof m);
    m.diameter = 0.01f;
    CHECK(gp_granular_material_set(r->w, 0, &m) == GP_OK);
    r->materials[0] = cpu_dem_material_default(0.01f);
    r->materials[1] = cpu_dem_material_default(0.008f);   /* sand's; mass, k, k_s and the default eta scale with the density */
    r->materials[1].density = 7800.0;
    r->materials[1].mass *= 7800.0 / 2500.0;
    r->materials[1].stiffness *= 7800.0 / 2500.0;
    r->materials[1].tangential_stiffness *= 7800.0 / 2500.0;
    r->materials[1].damping *= 2.0 * 7800.0 / 2500.0;
    r->materials[1].shear = 2.0 * r->materials[1].damping;   /* 4 x the default */
    r->materials[1].friction = 0.3;
    memset(&m, 0, sizeof m);
    m.diameter = 0.008f;
    m.density = 7800.0f;
    m.damping = (float)r->materials[1].damping;
    m.shear = (float)r->materials[1].shear;
    m.friction = 0.3f;
    CHECK(gp_granular_material_set(r->w, 1, &m) == GP_OK);
    r->material_count = 2;
    ref_check_material(r, 0);
    ref_check_material(r, 1);
}

/* A world of cell REF_CELL (hashed grid), deterministic, with both materials. */
static int ref_open(ref_world* r, uint32_t capacity) {
    gp_world_desc d;
    memset(r, 0, sizeof *r);
    memset(&d, 0, sizeof d);
    d.max_particles = capacity;
    d.grid.cell_size = REF_CELL;
    d.any_order = false;   /* the default: each cell in order of id */
    r->w = fixture_world(&d);
    if (!r->w) return 0;
    ref_materials(r);
    r->gravity[1] = -9.81;   /* the library's default */
    return 1;
}

static void ref_close(ref_world* r) {
    uint32_t i;
    for (i = 0; i < r->shape_count; ++i) cpu_dem_shape_free(&r->shapes[i]);
    gp_world_destroy(r->w);
}

static void ref_gravity(ref_world* r, double x, double y, double z) {
    const float g[3] = {(float)x, (float)y, (float)z};
    CHECK(gp_gravity_set(r->w, g) == GP_OK);
    r->gravity[0] = g[0]; r->gravity[1] = g[1]; r->gravity[2] = g[2];
}

static void ref_collider(ref_world* r, const gp_collider_desc* c) {
    gp_collider handle;
    CHECK(gp_collider_add(r->w, c, &handle) == GP_OK);
    r->colliders[r->collider_count++] = *c;
}

/* A container box (inside) centred at the origin, half extents h. */
static void ref_container(ref_world* r, float h) {
    gp_collider_desc c;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_BOX;
    c.half_extents[0] = c.half_extents[1] = c.half_extents[2] = h;
    c.inside = true;
    ref_collider(r, &c);
}

/* The shape's particles by the library's documented rule (gpuparticle.h, gp_body_shape_create):
   voxels of the phase's diameter over the shape's bounds, a whole number of them centred on the
   bounds' centre, a particle at every voxel centre inside the analytic shape, x fastest. Made
   on the GPU and in the reference, whose mass, centre and inertia must agree. */
static uint32_t ref_shape(ref_world* r, const gp_shape_desc* desc) {
    const float voxel = (float)r->materials[desc->phase].diameter;
    gp_body_shape_info info;
    double ext[3], *points;
    float origin[3];
    uint32_t dims[3], i, j, k, n = 0, s = r->shape_count;
    int a;
    CHECK(gp_body_shape_create(r->w, desc, &r->handles[s]) == GP_OK && gp_body_shape_info_get(r->w, r->handles[s], &info) == GP_OK);
    ext[0] = ext[2] = desc->shape == GP_SHAPE_BOX ? desc->half_extents[0] : desc->radius;
    if (desc->shape == GP_SHAPE_BOX) ext[2] = desc->half_extents[2];
    ext[1] = desc->radius;
    if (desc->shape == GP_SHAPE_BOX) ext[1] = desc->half_extents[1];
    if (desc->shape == GP_SHAPE_CAPSULE) ext[1] = (double)desc->radius + desc->half_height;
    for (a = 0; a < 3; ++a) {
        double cells = ceil(2.0 * ext[a] / voxel - 1e-6);
        dims[a] = cells < 1.0 ? 1u : (uint32_t)cells;
        origin[a] = (float)(-0.5 * ((double)dims[a] - 1.0) * voxel);
    }
    points = (double*)malloc((size_t)dims[0] * dims[1] * dims[2] * 3 * sizeof *points);
    for (k = 0; k < dims[2]; ++k)
        for (j = 0; j < dims[1]; ++j)
            for (i = 0; i < dims[0]; ++i) {
                double p[3], y;
                int in;
                p[0] = origin[0] + (double)voxel * i; p[1] = origin[1] + (double)voxel * j; p[2] = origin[2] + (double)voxel * k;
                if (desc->shape == GP_SHAPE_BOX)
                    in = fabs(p[0]) <= desc->half_extents[0] && fabs(p[1]) <= desc->half_extents[1] && fabs(p[2]) <= desc->half_extents[2];
                else {
                    y = p[1];
                    if (desc->shape == GP_SHAPE_CAPSULE)   /* to the segment's nearest point */
                        y = y > desc->half_height ? y - desc->half_height : y < -desc->half_height ? y + desc->half_height : 0.0;
                    in = p[0] * p[0] + y * y + p[2] * p[2] <= (double)desc->radius * desc->radius;
                }
                if (in) { memcpy(points + 3 * (size_t)n, p, sizeof p); ++n; }
            }
    CHECK(cpu_dem_shape_make(points, n, 0.5 * voxel, (float)r->materials[desc->phase].mass, &r->shapes[s]));
    free(points);
    {
        const cpu_dem_shape* c = &r->shapes[s];
        double com = 0.0, inertia = 0.0;
        for (a = 0; a < 3; ++a) {
            com = fmax(com, fabs(info.center_of_mass[a] - c->com[a]));
            inertia = fmax(inertia, fabs(info.inertia[a] / c->inertia[a] - 1.0));
        }
        CHECKF(info.particles == n && fabs(info.mass / c->mass - 1.0) < 1e-6 && com < 1e-7 && inertia < 1e-5,
               "shape %d: the library made %u particles, mass %g, centre off by %.3g m, inertia off by %.3g; the rule gives %u, %g",
               (int)desc->shape, info.particles, info.mass, com, inertia, n, c->mass);
    }
    return r->shape_count++;
}

/* Adds a body of shape s (an index of ref_shape) with the given placement and motion. */
static void ref_body(ref_world* r, uint32_t s, const double at[3], const double q[4], const double v[3], const double w[3]) {
    gp_body_desc d;
    int a;
    memset(&d, 0, sizeof d);
    d.shape = r->handles[s];
    for (a = 0; a < 3; ++a) {
        d.position[a] = (float)at[a];
        d.velocity[a] = (float)v[a];
        d.angular_velocity[a] = (float)w[a];
    }
    for (a = 0; a < 4; ++a) d.orientation[a] = (float)q[a];   /* (x, y, z, w) */
    CHECK(gp_bodies_add(r->w, &d, 1, NULL) == GP_OK);
    r->body_shape[r->body_count++] = s;
}

/* A body at random: inside the cube of half side `spread`, any orientation, speed up to `speed`,
   spin up to `spin` rad/s about each axis. */
static void ref_random_body(ref_world* r, uint32_t s, uint64_t* rng, double spread, double speed, double spin) {
    double at[3], q[4], v[3], w[3];
    int a;
    for (a = 0; a < 3; ++a) {
        at[a] = ref_uniform(rng, -spread, spread);
        v[a] = ref_uniform(rng, -speed, speed);
        w[a] = ref_uniform(rng, -spin, spin);
    }
    for (a = 0; a < 4; ++a) q[a] = ref_uniform(rng, -1.0, 1.0);
    ref_body(r, s, at, q, v, w);
}

/* count grains of `phase` at the given positions (3 each) and velocities. */
static void ref_grains(ref_world* r, uint32_t phase, uint32_t count, const float* xyz, const float* velocity) {
    gp_particles_desc d;
    if (!count) return;
    memset(&d, 0, sizeof d);
    d.count = count;
    d.positions = xyz;
    d.velocities = velocity;
    d.radius = (float)(0.5 * r->materials[phase].diameter);
    d.mass = (float)r->materials[phase].mass;
    d.kind = GP_KIND_GRANULAR;
    d.phase = phase;
    CHECK(gp_particles_add(r->w, &d, NULL) == GP_OK);
}

/* The store and the bodies as they are now, as a reference scene (slots as the store's). The
   reference's bodies: the library's centre of mass, orientation, momentum and angular momentum
   (read back), on the reference's own shapes. */
typedef struct ref_state {
    cpu_dem_scene scene;
    cpu_dem_body bodies[REF_MAX_BODIES];
    gp_body_state states[REF_MAX_BODIES];
    gp_particle_position* position;
    gp_particle_velocity* velocity;
    gp_particle_info* info;
    gp_particle_position* acceleration;
    uint32_t count;
} ref_state;

/* with_acceleration: read the acceleration attribute too (after gp_fluid_compute or a step) */
static void ref_read(ref_world* r, ref_state* s, int with_acceleration) {
    uint32_t n = gp_particle_count(r->w), i, b;
    memset(s, 0, sizeof *s);
    s->count = n;
    s->position = (gp_particle_position*)calloc((size_t)n + 1, sizeof *s->position);
    s->velocity = (gp_particle_velocity*)calloc((size_t)n + 1, sizeof *s->velocity);
    s->info = (gp_particle_info*)calloc((size_t)n + 1, sizeof *s->info);
    s->acceleration = (gp_particle_position*)calloc((size_t)n + 1, sizeof *s->acceleration);
    if (n) {
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_POSITION, 0, n, s->position) == GP_OK);
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_VELOCITY, 0, n, s->velocity) == GP_OK);
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_INFO, 0, n, s->info) == GP_OK);
        if (with_acceleration) CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_ACCELERATION, 0, n, s->acceleration) == GP_OK);
    }
    if (r->body_count) CHECK(gp_bodies_read(r->w, NULL, r->body_count, s->states) == GP_OK);
    CHECK(cpu_dem_scene_alloc(&s->scene, n));
    cpu_dem_scene_load(&s->scene, s->position, s->velocity, s->info);
    s->scene.materials = r->materials;
    s->scene.material_count = r->material_count;
    s->scene.colliders = r->colliders;
    s->scene.collider_count = r->collider_count;
    s->scene.forces = r->forces;
    s->scene.force_count = r->force_count;
    memcpy(s->scene.gravity, r->gravity, sizeof s->scene.gravity);
    s->scene.dt = (float)REF_H;   /* the GPU's substep, which the springs grow by */
    for (b = 0; b < r->body_count; ++b) {
        const gp_body_state* st = &s->states[b];
        const cpu_dem_shape* shape = &r->shapes[r->body_shape[b]];
        double o[3], q[4], v[3], w[3];
        int a;
        uint32_t first = 0xffffffffu;
        for (a = 0; a < 3; ++a) { o[a] = st->position[a]; v[a] = st->velocity[a]; w[a] = st->angular_velocity[a]; }
        q[0] = st->orientation[3]; q[1] = st->orientation[0]; q[2] = st->orientation[1]; q[3] = st->orientation[2];
        s->bodies[b] = cpu_dem_body_place(shape, o, q, v, w);
        for (a = 0; a < 3; ++a) {
            s->bodies[b].X[a] = st->center_of_mass[a];
            s->bodies[b].P[a] = shape->mass * st->velocity[a];
            s->bodies[b].L[a] = st->angular_momentum[a];
        }
        for (i = 0; i < n; ++i)
            if ((s->info[i].kind & 0xffu) == GP_KIND_RIGID && s->info[i].owner == b && s->info[i].id < first) first = s->info[i].id;
        s->bodies[b].first_id = first;
    }
    s->scene.bodies = s->bodies;
    s->scene.body_count = r->body_count;
}

static void ref_free(ref_state* s) {
    cpu_dem_scene_free(&s->scene);
    free(s->position); free(s->velocity); free(s->info); free(s->acceleration);
}

/* The largest distance between a rigid particle in the store and where the reference's body
   puts it (stage 1): shapes, particle order and placement agree when this is float's rounding. */
static double ref_body_placement(const ref_state* s) {
    double worst = 0.0;
    uint32_t i;
    for (i = 0; i < s->count; ++i) {
        const gp_particle_info* f = &s->info[i];
        const cpu_dem_body* b;
        double x[3], d[3];
        int a;
        if ((f->kind & 0xffu) != GP_KIND_RIGID || f->owner >= s->scene.body_count) continue;
        b = &s->bodies[f->owner];
        cpu_dem_body_particle(b, f->id - b->first_id, x, NULL, NULL);
        for (a = 0; a < 3; ++a) d[a] = x[a] - s->scene.x[i][a];
        worst = fmax(worst, ref_length(d));
    }
    return worst;
}

/* What the acceleration attribute should hold for slot i, from the reference's force f and
   magnitude: a grain's f / m + gravity + your forces at x (and its magnitude), a rigid
   particle's f / m. Returns 0 for a particle the contact pass does not write. */
static int ref_expected(const ref_state* s, uint32_t i, const double f[3], double magnitude, double out[3], double* out_magnitude) {
    const cpu_dem_scene* c = &s->scene;
    uint32_t kind = c->info[i].kind & 0xffu;
    int a;
    if (kind != GP_KIND_GRANULAR && kind != GP_KIND_RIGID) return 0;
    for (a = 0; a < 3; ++a) out[a] = f[a] / c->mass[i];
    *out_magnitude = magnitude / c->mass[i];
    if (kind == GP_KIND_GRANULAR) {
        for (a = 0; a < 3; ++a) out[a] += c->gravity[a];
        *out_magnitude += ref_length(c->gravity) + cpu_dem_user_forces(c, c->x[i], out);
    }
    return 1;
}

/* cpu_dem_forces, leaving the scene's history as it was (the pass would replace it by its own):
   a second pass over the same state then reads the same springs. */
static void ref_forces_keep(cpu_dem_scene* scene, double (*f)[3], double (*t)[3], double* m) {
    cpu_dem_history kept;
    CHECK(cpu_dem_history_copy(&kept, &scene->history));
    cpu_dem_forces(scene, f, t, m);
    cpu_dem_history_free(&scene->history);
    scene->history = kept;
}

/* Compares the acceleration attribute with the reference slot by slot. A particle whose
   position is not finite meets no one and must read exactly 0. Returns the worst
   |gpu - cpu| / magnitude; *power receives the largest |a - a_without_spin| / magnitude, what a
   GPU that ignored the bodies' spin at the contact points would miss by. */
static double ref_compare_forces(ref_state* s, const char* what, double* power) {
    uint32_t n = s->count, i, b, nonfinite = 0, failures = 0;
    double(*f)[3] = (double(*)[3])calloc((size_t)n + 1, sizeof *f);
    double(*g)[3] = (double(*)[3])calloc((size_t)n + 1, sizeof *g);
    double* m = (double*)calloc((size_t)n + 1, sizeof *m);
    double* ambiguous = (double*)calloc((size_t)n + 1, sizeof *ambiguous);
    double worst = 0.0, L[REF_MAX_BODIES][3];
    ref_forces_keep(&s->scene, f, NULL, m);
    memcpy(ambiguous, s->scene.ambiguous, (size_t)n * sizeof *ambiguous);
    for (b = 0; b < s->scene.body_count; ++b) {   /* the same without the bodies' spin */
        memcpy(L[b], s->bodies[b].L, sizeof L[b]);
        memset(s->bodies[b].L, 0, sizeof L[b]);
    }
    ref_forces_keep(&s->scene, g, NULL, NULL);
    for (b = 0; b < s->scene.body_count; ++b) memcpy(s->bodies[b].L, L[b], sizeof L[b]);
    *power = 0.0;
    for (i = 0; i < n; ++i) {
        const gp_particle_position* A = &s->acceleration[i];
        const double gpu[3] = {A->x, A->y, A->z};
        double want[3], without[3], mag, d[3], e, dummy;
        int a;
        if (!ref_expected(s, i, f[i], m[i], want, &mag)) continue;
        if (!(isfinite(s->scene.x[i][0]) && isfinite(s->scene.x[i][1]) && isfinite(s->scene.x[i][2]))) {
            ++nonfinite;
            CHECKF(gpu[0] == 0.0 && gpu[1] == 0.0 && gpu[2] == 0.0, "%s: slot %u (id %u) has a position that is not finite and "
                   "an acceleration (%g %g %g), not 0", what, i, s->info[i].id, gpu[0], gpu[1], gpu[2]);
            continue;
        }
        ref_expected(s, i, g[i], m[i], without, &dummy);
        for (a = 0; a < 3; ++a) d[a] = gpu[a] - want[a];
        e = cpu_dem_error(ref_length(d), ambiguous[i] / s->scene.mass[i], mag);
        if (!(e <= REF_TOLERANCE) && failures++ < 4)
            CHECKF(0, "%s: slot %u (id %u, kind %u, phase %u): the GPU's acceleration (%.7g %.7g %.7g), the reference's (%.7g %.7g "
                   "%.7g): off by %.3g of the terms' magnitude %.4g (tolerance %g)", what, i, s->info[i].id, s->info[i].kind & 0xffu,
                   s->info[i].kind >> 16, gpu[0], gpu[1], gpu[2], want[0], want[1], want[2], e, mag, REF_TOLERANCE);
        if (e > worst || e != e) worst = e;
        for (a = 0; a < 3; ++a) d[a] = without[a] - want[a];
        if (mag > 0.0) *power = fmax(*power, ref_length(d) / mag);
    }
    if (failures > 4) CHECKF(0, "%s: %u particles off in all", what, failures);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    %s: %u particles (%u not finite), worst |gpu - cpu| %.3g of the magnitudes (tolerance %g); ignoring "
                "spin would be off by %.3g\n", what, n, nonfinite, worst, REF_TOLERANCE, *power);
    free(f); free(g); free(m); free(ambiguous);
    return worst;
}

/* No neighbour loop cut short since the last build. */
static void ref_no_truncation(ref_world* r, const char* what) {
    gp_grid_stats g;
    CHECK(gp_grid_stats_read(r->w, &g) == GP_OK);
    CHECKF(g.truncated == 0, "%s: %u neighbour loops were cut short", what, g.truncated);
}

/* The adversarial store (see the file's comment), built from a seed: n random grains in and a
   little beyond a container box of half side 0.07 m with a sphere obstacle, a clump of both
   materials around one point (two grains at the very same spot), a lattice block of grains that
   exactly touch one another and the floor, moving together along it, two grains far outside the
   box, 2 bodies of each of three shapes (sphere, box, capsule) at random, spinning, overlapping
   grains and one another, your forces and a tilted gravity; then `bad` grains get a NaN or
   infinite position through the raw buffer. */
static void ref_mixed(ref_world* r, uint32_t n, uint32_t bad, uint64_t seed) {
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 7;
    gp_collider_desc sphere;
    gp_shape_desc shape;
    float *xyz = (float*)malloc(((size_t)n + 32) * 3 * sizeof(float)), *vel = (float*)malloc(((size_t)n + 32) * 3 * sizeof(float));
    const float block_min[3] = {-0.06f, -0.07f, -0.06f}, block_max[3] = {-0.02f, -0.05f, -0.02f}, block_v[3] = {0.3f, 0.0f, 0.2f};
    const float far[6] = {0.2f, 0.0f, 0.01f, 0.0f, -0.3f, 0.0f}, still[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    uint32_t i, phase, s[3], k;
    int a;
    ref_gravity(r, 0.5, -9.81, -0.25);
    ref_container(r, 0.07f);
    memset(&sphere, 0, sizeof sphere);
    sphere.shape = GP_SHAPE_SPHERE;
    sphere.center[0] = 0.03f; sphere.center[1] = -0.03f;
    sphere.radius = 0.015f;
    ref_collider(r, &sphere);
    memset(r->forces, 0, sizeof r->forces);
    r->forces[0].type = GP_FORCE_UNIFORM;
    r->forces[0].center[0] = 0.02f;
    r->forces[0].vector[0] = 0.5f; r->forces[0].vector[2] = -0.2f;
    r->forces[0].radius = 0.05f;
    r->forces[1].type = GP_FORCE_RADIAL;
    r->forces[1].center[1] = 0.02f;
    r->forces[1].strength = 3.0f;
    r->forces[1].radius = 0.2f;
    r->force_count = 2;
    CHECK(gp_forces_set(r->w, r->forces, 2) == GP_OK);
    for (phase = 0; phase < 2; ++phase) {   /* random grains: every other one of each phase */
        uint32_t m = 0;
        for (i = phase; i < n; i += 2, ++m)
            for (a = 0; a < 3; ++a) {
                xyz[3 * m + a] = (float)ref_uniform(&rng, -0.072, 0.072);
                vel[3 * m + a] = (float)ref_uniform(&rng, -0.5, 0.5);
            }
        ref_grains(r, phase, m, xyz, vel);
    }
    for (k = 0; k < 24; ++k)   /* the clump: within 6 mm of one point, the last two on one spot */
        for (a = 0; a < 3; ++a) {
            double c[3] = {-0.03, 0.03, 0.03};
            xyz[3 * k + a] = (float)(k == 23 ? xyz[3 * 22 + a] : c[a] + ref_uniform(&rng, -0.0035, 0.0035));
            vel[3 * k + a] = (float)ref_uniform(&rng, -0.3, 0.3);
        }
    ref_grains(r, 0, 12, xyz, vel);
    ref_grains(r, 1, 12, xyz + 36, vel + 36);
    CHECK(gp_granular_add_block(r->w, 0, block_min, block_max, block_v, &k) == GP_OK && k == 32);
    ref_grains(r, 0, 2, far, still);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_SPHERE;
    shape.radius = 0.02f;
    s[0] = ref_shape(r, &shape);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.phase = 1;
    shape.half_extents[0] = 0.02f; shape.half_extents[1] = 0.012f; shape.half_extents[2] = 0.008f;
    s[1] = ref_shape(r, &shape);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_CAPSULE;
    shape.radius = 0.01f;
    shape.half_height = 0.01f;
    s[2] = ref_shape(r, &shape);
    for (k = 0; k < 6; ++k) ref_random_body(r, s[k % 3], &rng, 0.045, 0.3, 30.0);
    for (k = 0; k < bad && k < n; ++k) {   /* random grains' positions turned NaN (and one infinite) */
        gp_particle_position p;
        uint32_t slot = (uint32_t)(fixture_random(&rng) % n);
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_POSITION, slot, 1, &p) == GP_OK);
        p.x = NAN;
        if (k == 1) { p.x = 0.0f; p.y = INFINITY; }
        CHECK(gp_buffer_write(r->w, gp_world_buffers(r->w).position, (size_t)slot * 16, 16, &p) == GP_OK);
    }
    free(xyz);
    free(vel);
}

/* ---- (a) contact forces ---------------------------------------------------------------------- */

/* Runs gp_fluid_compute on r's store and compares; power: as ref_compare_forces. */
static void ref_forces_case(ref_world* r, const char* what, double* power) {
    ref_state s;
    double placed;
    CHECKF(gp_fluid_compute(r->w, (float)REF_H) == GP_OK, "%s: gp_fluid_compute: %s", what, fixture_log);
    ref_no_truncation(r, what);
    ref_read(r, &s, 1);
    placed = ref_body_placement(&s);
    CHECKF(placed < 1e-6, "%s: a rigid particle lies %.3g m from where the reference's body puts it", what, placed);
    ref_compare_forces(&s, what, power);
    ref_free(&s);
}

/* A pair within float's rounding of touching (found by the NVIDIA H100, 2026-11-27: two grains
   9.99999e-3 m apart in double, their reach 1e-2, that float found apart: the bench's 1M grains
   differed at those two slots by the dashpot's whole force). cpu_dem_pair.ambiguous is the
   force at contact, closing at 1 m/s: eta (1 m/s) along n, on either side of the reach within
   1e-6; beyond it 0 and, apart, no force; touching by more, the pair is no longer ambiguous. The
   same for a grain and a wall (cpu_dem_wall_force's ambiguous). */
static void test_dem_reference_borderline_pair(void) {
    const double d = 0.01, va[3] = {0.5, 0.0, 0.0}, vb[3] = {-0.5, 0.0, 0.0};
    const double offsets[5] = {-1e-4, -1e-7, 0.0, 1e-7, 1e-4};   /* dist - reach, relative */
    cpu_dem_material m = cpu_dem_material_default(d);
    int k;
    for (k = 0; k < 5; ++k) {
        double xa[3] = {0.0, 0.0, 0.0}, xb[3] = {d * (1.0 + offsets[k]), 0.0, 0.0}, f;
        int near = fabs(offsets[k]) < 1e-6;
        cpu_dem_pair p;
        cpu_dem_pair_force(xa, va, NULL, 0.5 * d, &m, xb, vb, NULL, 0.5 * d, &m, NULL, 1e-5, 1.0, &p);
        f = ref_length(p.force);
        CHECKF(p.touching == (offsets[k] < 0.0), "offset %g: touching %d", offsets[k], p.touching);
        if (near)   /* the dashpot at contact (the spring's share, k times the overlap, is rounding's) */
            CHECKF(fabs(p.ambiguous - m.damping * 1.0) <= 1e-3 * m.damping, "offset %g: ambiguous %.6g N, the dashpot's %.6g",
                   offsets[k], p.ambiguous, m.damping);
        else
            CHECKF(p.ambiguous == 0.0, "offset %g: ambiguous %.6g N, 0 due", offsets[k], p.ambiguous);
        CHECKF(offsets[k] < 0.0 ? f > 0.0 && (!near || fabs(f - p.ambiguous) <= 1e-12 * f) : f == 0.0,
               "offset %g: force %.6g N, ambiguous %.6g", offsets[k], f, p.ambiguous);
    }
    {   /* the same for a wall: the floor of a box 2 m wide, the grain falling onto it at 1 m/s; the
           band is 1e-6 of r plus the distance's sizes (half extent and |x - centre|, about 2 m) */
        const double overlaps[4] = {1e-3, 1e-7, -1e-7, -1e-3}, v[3] = {0.0, -1.0, 0.0};
        gp_collider_desc box;
        memset(&box, 0, sizeof box);
        box.shape = GP_SHAPE_BOX;
        box.inside = true;
        box.half_extents[0] = box.half_extents[1] = box.half_extents[2] = 1.0f;
        for (k = 0; k < 4; ++k) {
            double x[3] = {0.0, -1.0 + 0.5 * d - overlaps[k], 0.0}, force[3] = {0.0, 0.0, 0.0}, ambiguous = 0.0;
            int near = fabs(overlaps[k]) < 1e-6;
            cpu_dem_wall_force(&box, 1, x, v, NULL, 0.5 * d, &m, 1u, NULL, NULL, 1e-5, 1.0, force, NULL, &ambiguous);
            if (near)
                CHECKF(fabs(ambiguous - m.damping) <= 1e-3 * m.damping, "wall, overlap %g: ambiguous %.6g N, the dashpot's %.6g",
                       overlaps[k], ambiguous, m.damping);
            else
                CHECKF(ambiguous == 0.0, "wall, overlap %g: ambiguous %.6g N, 0 due", overlaps[k], ambiguous);
            CHECKF(overlaps[k] > 0.0 ? force[1] > 0.0 : force[1] == 0.0, "wall, overlap %g: force %.6g N", overlaps[k], force[1]);
        }
    }
}

/* Cases: an empty store; one grain in a corner of the box, moving (three faces push it, each on
   its own); bodies alone, piled up spinning in the box; the adversarial store of 777 random
   grains (ref_mixed). Every acceleration within REF_TOLERANCE of its terms' magnitude (measured
   on llvmpipe: 9e-8 at worst). The cases with bodies must be ones where ignoring the bodies'
   spin at the contact points would exceed the tolerance 100 times over, or the test could not
   see it. */
static void test_dem_reference_contact_forces(void) {
    ref_world r;
    double power = 0.0;
    if (!ref_open(&r, 16)) return;
    ref_container(&r, 0.07f);
    CHECKF(gp_fluid_compute(r.w, (float)REF_H) == GP_OK && gp_particle_count(r.w) == 0, "empty: %s", fixture_log);
    {
        const float corner[3] = {0.067f, -0.066f, 0.0682f}, v[3] = {0.2f, -0.1f, 0.3f};
        ref_grains(&r, 0, 1, corner, v);
        ref_forces_case(&r, "one grain in a corner", &power);
    }
    ref_close(&r);

    if (!ref_open(&r, 256)) return;
    {
        gp_shape_desc box;
        uint64_t rng = 99;
        uint32_t s, k;
        ref_container(&r, 0.07f);
        memset(&box, 0, sizeof box);
        box.shape = GP_SHAPE_BOX;
        box.phase = 1;
        box.half_extents[0] = 0.016f; box.half_extents[1] = 0.012f; box.half_extents[2] = 0.012f;
        s = ref_shape(&r, &box);
        for (k = 0; k < 5; ++k) ref_random_body(&r, s, &rng, 0.012, 0.4, 40.0);
        ref_forces_case(&r, "bodies alone", &power);
        CHECKF(power > 100.0 * REF_TOLERANCE, "bodies alone: ignoring spin would be off by only %.3g", power);
    }
    ref_close(&r);

    if (!ref_open(&r, 2048)) return;
    ref_mixed(&r, 777, 3, 1);
    ref_forces_case(&r, "777 random grains, clump, block, bodies, NaN", &power);
    CHECKF(power > 100.0 * REF_TOLERANCE, "ignoring the bodies' spin would be off by only %.3g of the magnitudes: the scene cannot "
           "see it", power);
    ref_close(&r);
}

/* ---- (b) one substep ---------------------------------------------------------------------------- */

/* slot of each id (ids < capacity), UINT32_MAX where none */
static uint32_t* ref_slots(const gp_particle_info* info, uint32_t n, uint32_t capacity) {
    uint32_t* slot = (uint32_t*)malloc(((size_t)capacity + 1) * sizeof *slot);
    uint32_t i;
    memset(slot, 0xff, ((size_t)capacity + 1) * sizeof *slot);
    for (i = 0; i < n; ++i)
        if (info[i].id < capacity) slot[info[i].id] = i;
    return slot;
}

static double ref_diff(double x, double y, double z, const double b[3]) {
    double d[3];
    d[0] = x - b[0]; d[1] = y - b[1]; d[2] = z - b[2];
    return ref_length(d);
}
static double ref_diff3(const float a[3], const double b[3]) { return ref_diff(a[0], a[1], a[2], b); }
/* a store attribute (gp_particle_position or _velocity) against b */
#define REF_DIFF(p, b) ref_diff((p).x, (p).y, (p).z, b)

/* One substep of REF_H on the adversarial store (301 random grains) from the state read back;
   the reference steps the same state. Per grain: velocity within REF_TOLERANCE of h times its
   acceleration's magnitude (+ 4 float roundings of |v|), position within h times that (+ 4
   roundings of |x|). Per body: V within REF_TOLERANCE h |F| / M, with |F| the sum of its
   particles' magnitudes plus M |g + forces|; L within REF_TOLERANCE h |tau|, |tau| = sum_k
   (|r_k| + r_p) magnitude_k; X within h times V's bound; the orientation within h times the
   spin's bound, and the rigid particles at X + R r0_k moving at V + W x r_k within those. The
   scene must be one where dropping the contact torques (t_k) would move some body's L by 100
   times its bound. */
static void test_dem_reference_substep(void) {
    ref_world r;
    ref_state before, after;
    gp_step_desc step;
    uint32_t *slot, i, b, capacity = 2048;
    double(*f)[3], (*t)[3], *m, h = REF_H;
    double worst_grain = 0.0, worst_body = 0.0, torque_power = 0.0, worst_rigid = 0.0;
    double body_x[REF_MAX_BODIES], body_v[REF_MAX_BODIES], body_q[REF_MAX_BODIES], body_w[REF_MAX_BODIES];
    if (!ref_open(&r, capacity)) return;
    ref_mixed(&r, 301, 2, 2);
    ref_read(&r, &before, 0);
    CHECKF(ref_body_placement(&before) < 1e-6, "the store's rigid particles are not where the reference's bodies put them");
    memset(&step, 0, sizeof step);
    step.dt = (float)h;
    step.substeps = 1;
    CHECKF(gp_world_step(r.w, &step) == GP_OK, "gp_world_step: %s", fixture_log);
    ref_no_truncation(&r, "substep");
    ref_read(&r, &after, 1);
    f = (double(*)[3])calloc((size_t)before.count + 1, sizeof *f);
    t = (double(*)[3])calloc((size_t)before.count + 1, sizeof *t);
    m = (double*)calloc((size_t)before.count + 1, sizeof *m);
    {   /* the bodies' force and torque bounds, from the start state (stage 4's r_k) */
        double Fmag[REF_MAX_BODIES], Tmag[REF_MAX_BODIES], Tcontact[REF_MAX_BODIES][3];
        ref_forces_keep(&before.scene, f, t, m);   /* cpu_dem_step below reads the same (empty) history */
        for (b = 0; b < r.body_count; ++b) {
            double ext[3] = {0.0, 0.0, 0.0}, g = ref_length(before.scene.gravity);
            Fmag[b] = before.bodies[b].shape->mass * (g + cpu_dem_user_forces(&before.scene, before.bodies[b].X, ext));
            Tmag[b] = 0.0;
            Tcontact[b][0] = Tcontact[b][1] = Tcontact[b][2] = 0.0;
        }
        for (i = 0; i < before.count; ++i) {
            const gp_particle_info* in = &before.info[i];
            const cpu_dem_body* body;
            double rk[3];
            int a;
            if ((in->kind & 0xffu) != GP_KIND_RIGID || in->owner >= r.body_count) continue;
            body = &before.bodies[in->owner];
            cpu_dem_body_particle(body, in->id - body->first_id, NULL, NULL, rk);
            Fmag[in->owner] += m[i];
            Tmag[in->owner] += (ref_length(rk) + before.scene.radius[i]) * m[i];
            for (a = 0; a < 3; ++a) Tcontact[in->owner][a] += t[i][a];
        }
        cpu_dem_step(&before.scene, NULL, NULL, NULL);   /* before.scene is now the reference's after */
        for (b = 0; b < r.body_count; ++b) {
            const cpu_dem_body* cb = &before.bodies[b];
            const gp_body_state* g = &after.states[b];
            double M = cb->shape->mass, V[3], W[3], vbound, lbound, xbound, qbound, qu[4], o[3], dq = 0.0, dq2 = 0.0, e;
            int a;
            cpu_dem_body_velocity(cb, V, W);
            cpu_dem_body_origin(cb, o, qu);
            vbound = REF_TOLERANCE * h * Fmag[b] / M + 4.0 * REF_EPS * ref_length(V);
            lbound = REF_TOLERANCE * h * Tmag[b] + 4.0 * REF_EPS * ref_length(cb->L);
            xbound = h * vbound + 4.0 * REF_EPS * (ref_length(cb->X) + h * ref_length(V));
            qbound = h * (lbound / cb->shape->inertia[0] + 1e-6 * ref_length(W)) + 1e-6;
            body_x[b] = xbound;   /* for the rigid particles: X's, V's, the turn's and W's bounds */
            body_v[b] = vbound;
            body_q[b] = 2.0 * qbound;
            body_w[b] = lbound / cb->shape->inertia[0] + 1e-6 * ref_length(W);
            for (a = 0; a < 4; ++a) {
                double gq = g->orientation[(a + 3) % 4];   /* (x, y, z, w) -> [s, x, y, z] */
                dq += (gq - qu[a]) * (gq - qu[a]);
                dq2 += (gq + qu[a]) * (gq + qu[a]);
            }
            dq = sqrt(fmin(dq, dq2));
            e = fmax(fmax(ref_diff3(g->velocity, V) / vbound, ref_diff3(g->angular_momentum, cb->L) / lbound),
                     fmax(ref_diff3(g->center_of_mass, cb->X) / xbound, dq / qbound));
            CHECKF(e <= 1.0, "body %u: GPU V (%.7g %.7g %.7g) L (%.7g %.7g %.7g) X (%.7g %.7g %.7g); reference V (%.7g %.7g %.7g) L "
                   "(%.7g %.7g %.7g) X (%.7g %.7g %.7g); |dV| %.3g (bound %.3g), |dL| %.3g (%.3g), |dX| %.3g (%.3g), |dq| %.3g (%.3g)",
                   b, g->velocity[0], g->velocity[1], g->velocity[2], g->angular_momentum[0], g->angular_momentum[1],
                   g->angular_momentum[2], g->center_of_mass[0], g->center_of_mass[1], g->center_of_mass[2], V[0], V[1], V[2],
                   cb->L[0], cb->L[1], cb->L[2], cb->X[0], cb->X[1], cb->X[2], ref_diff3(g->velocity, V), vbound,
                   ref_diff3(g->angular_momentum, cb->L), lbound, ref_diff3(g->center_of_mass, cb->X), xbound, dq, qbound);
            worst_body = fmax(worst_body, e);
            torque_power = fmax(torque_power, h * ref_length(Tcontact[b]) / lbound);
            if (getenv("GP_TEST_VERBOSE"))
                fprintf(stderr, "    body %u: |dV| %.2g of %.2g, |dL| %.2g of %.2g, |dX| %.2g of %.2g, |dq| %.2g of %.2g; the step moved "
                        "L by %.3g, the contact torques by %.3g\n", b, ref_diff3(g->velocity, V), vbound,
                        ref_diff3(g->angular_momentum, cb->L), lbound, ref_diff3(g->center_of_mass, cb->X), xbound, dq, qbound,
                        ref_diff3(before.states[b].angular_momentum, cb->L), h * ref_length(Tcontact[b]));
        }
    }
    slot = ref_slots(after.info, after.count, capacity);
    for (i = 0; i < before.count; ++i) {   /* before.scene's slot i is the id before.info[i].id */
        const cpu_dem_scene* c = &before.scene;
        uint32_t id = before.info[i].id, j = id < capacity ? slot[id] : 0xffffffffu, kind = before.info[i].kind & 0xffu;
        double want[3], mag, vb, xb, e;
        if (j == 0xffffffffu) { CHECKF(0, "id %u is missing after the substep", id); continue; }
        if (kind == GP_KIND_GRANULAR) {
            if (!isfinite(before.position[i].x) || !isfinite(before.position[i].y) || !isfinite(before.position[i].z)) {
                CHECKF(memcmp(&after.position[j], &before.position[i], 16) == 0 && memcmp(&after.velocity[j], &before.velocity[i], 16) == 0,
                       "id %u: a grain whose position is not finite was changed by the substep", id);
                continue;
            }
            ref_expected(&before, i, f[i], m[i], want, &mag);
            vb = REF_TOLERANCE * h * mag + 4.0 * REF_EPS * ref_length(c->v[i]);
            xb = h * vb + 4.0 * REF_EPS * (ref_length(c->x[i]) + h * ref_length(c->v[i]));
            e = fmax(REF_DIFF(after.velocity[j], c->v[i]) / vb, REF_DIFF(after.position[j], c->x[i]) / xb);
            CHECKF(e <= 1.0, "grain id %u: GPU x (%.8g %.8g %.8g) v (%.7g %.7g %.7g), reference x (%.8g %.8g %.8g) v (%.7g %.7g %.7g); "
                   "%.3g of the bound", id, after.position[j].x, after.position[j].y, after.position[j].z, after.velocity[j].x,
                   after.velocity[j].y, after.velocity[j].z, c->x[i][0], c->x[i][1], c->x[i][2], c->v[i][0], c->v[i][1], c->v[i][2], e);
            worst_grain = fmax(worst_grain, e);
        } else if (kind == GP_KIND_RIGID) {   /* stage 1 from the new body state */
            const cpu_dem_body* cb = &c->bodies[before.info[i].owner];
            uint32_t owner = before.info[i].owner;
            double V[3], W[3], rk[3];
            cpu_dem_body_velocity(cb, V, W);
            cpu_dem_body_particle(cb, id - cb->first_id, NULL, NULL, rk);
            xb = body_x[owner] + ref_length(rk) * body_q[owner] + 8.0 * REF_EPS * (ref_length(cb->X) + ref_length(rk));
            vb = body_v[owner] + ref_length(rk) * body_w[owner] + 8.0 * REF_EPS * (ref_length(V) + ref_length(W) * ref_length(rk));
            e = fmax(REF_DIFF(after.position[j], c->x[i]) / xb, REF_DIFF(after.velocity[j], c->v[i]) / vb);
            CHECKF(e <= 1.0, "rigid id %u: GPU x (%.8g %.8g %.8g) v (%.7g %.7g %.7g), reference x (%.8g %.8g %.8g) v (%.7g %.7g %.7g): "
                   "%.3g of the bound", id, after.position[j].x, after.position[j].y, after.position[j].z, after.velocity[j].x,
                   after.velocity[j].y, after.velocity[j].z, c->x[i][0], c->x[i][1], c->x[i][2], c->v[i][0], c->v[i][1], c->v[i][2], e);
            worst_rigid = fmax(worst_rigid, e);
        }
    }
    CHECKF(torque_power > 100.0, "dropping the contact torques would move L by only %.3g of its bound: the scene cannot see it",
           torque_power);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    substep: worst grain %.3g, body %.3g, rigid particle %.3g of their bounds; dropping the contact torques: "
                "%.3g of the bound\n", worst_grain, worst_body, worst_rigid, torque_power);
    free(slot); free(f); free(t); free(m);
    ref_free(&before);
    ref_free(&after);
    ref_close(&r);
}

/* ---- (c) momentum ------------------------------------------------------------------------------ */

/* Total linear momentum (grains' m v plus bodies' M V) and angular momentum about the origin
   (x x m v, plus X x M V + L), and the scales: sums of the terms' magnitudes. Also the smallest
   distance of any particle to a face of the container (half side h), less its radius. */
static void ref_momentum(ref_world* r, double h_box, double P[3], double J[3], double* p_scale, double* j_scale, double* gap) {
    ref_state s;
    uint32_t i, b;
    int a;
    ref_read(r, &s, 0);
    P[0] = P[1] = P[2] = J[0] = J[1] = J[2] = 0.0;
    *p_scale = *j_scale = 0.0;
    for (i = 0; i < s.count; ++i) {
        const double *x = s.scene.x[i], *v = s.scene.v[i];
        double mv[3], xmv[3];
        for (a = 0; a < 3; ++a) *gap = fmin(*gap, h_box - fabs(x[a]) - s.scene.radius[i]);
        if ((s.info[i].kind & 0xffu) != GP_KIND_GRANULAR) continue;
        for (a = 0; a < 3; ++a) mv[a] = s.scene.mass[i] * v[a];
        xmv[0] = x[1] * mv[2] - x[2] * mv[1]; xmv[1] = x[2] * mv[0] - x[0] * mv[2]; xmv[2] = x[0] * mv[1] - x[1] * mv[0];
        for (a = 0; a < 3; ++a) { P[a] += mv[a]; J[a] += xmv[a]; }
        *p_scale += ref_length(mv);
        *j_scale += ref_length(x) * ref_length(mv);
    }
    for (b = 0; b < r->body_count; ++b) {
        const gp_body_state* st = &s.states[b];
        double M = r->shapes[r->body_shape[b]].mass, mv[3], X[3], xmv[3], L[3];
        for (a = 0; a < 3; ++a) { mv[a] = M * st->velocity[a]; X[a] = st->center_of_mass[a]; L[a] = st->angular_momentum[a]; }
        xmv[0] = X[1] * mv[2] - X[2] * mv[1]; xmv[1] = X[2] * mv[0] - X[0] * mv[2]; xmv[2] = X[0] * mv[1] - X[1] * mv[0];
        for (a = 0; a < 3; ++a) { P[a] += mv[a]; J[a] += xmv[a] + L[a]; }
        *p_scale += ref_length(mv);
        *j_scale += ref_length(X) * ref_length(mv) + ref_length(L);
    }
    ref_free(&s);
}

/* The three shapes of the collisions: a steel box of 2 x 3 x 2 particles, a sand sphere of 8 and
   a sand capsule of 2. */
static void ref_collision_shapes(ref_world* r, uint32_t s[3]) {
    gp_shape_desc shape;
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.phase = 1;
    shape.half_extents[0] = 0.008f; shape.half_extents[1] = 0.012f; shape.half_extents[2] = 0.008f;
    s[0] = ref_shape(r, &shape);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_SPHERE;
    shape.radius = 0.01f;
    s[1] = ref_shape(r, &shape);
    shape.shape = GP_SHAPE_CAPSULE;
    shape.radius = 0.005f;
    shape.half_height = 0.005f;
    s[2] = ref_shape(r, &shape);
}

/* 400 substeps of REF_H, no gravity, in a closed box of half side `box`: the changes of total
   linear and angular momentum over their scales, the closest any particle came to a face (less
   its radius; read after every substep, so the positions of every contact pass), and the x
   momentum of `moving` (grains, or the bodies that started moving +x) before and after. */
typedef struct ref_collision { double dp, dj, p_scale, j_scale, gap, before, after; uint32_t particles; } ref_collision;
static void ref_collide(ref_world* r, double box, int grains, ref_collision* out) {
    double P0[3], J0[3], P1[3], J1[3], d[3];
    gp_step_desc step;
    gp_body_state st[REF_MAX_BODIES];
    uint32_t n = gp_particle_count(r->w), i, b;
    gp_particle_position* p = (gp_particle_position*)malloc((size_t)n * sizeof *p);
    gp_particle_velocity* v = (gp_particle_velocity*)malloc((size_t)n * sizeof *v);
    gp_particle_info* in = (gp_particle_info*)malloc((size_t)n * sizeof *in);
    int a, sub, pass;
    memset(out, 0, sizeof *out);
    out->gap = 1.0;
    out->particles = n;
    memset(&step, 0, sizeof step);
    step.dt = (float)REF_H;
    step.substeps = 1;
    for (pass = 0; pass < 2; ++pass) {
        double* x_momentum = pass ? &out->after : &out->before;
        if (pass)
            for (sub = 0; sub < 400; ++sub) {
                CHECK(gp_world_step(r->w, &step) == GP_OK);
                CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK);
                for (i = 0; i < n; ++i)
                    out->gap = fmin(out->gap, box - fmax(fabs(p[i].x), fmax(fabs(p[i].y), fabs(p[i].z))) - p[i].radius);
            }
        ref_momentum(r, box, pass ? P1 : P0, pass ? J1 : J0, &out->p_scale, &out->j_scale, &out->gap);
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
        CHECK(gp_particles_read(r->w, GP_ATTRIBUTE_INFO, 0, n, in) == GP_OK);
        CHECK(gp_bodies_read(r->w, NULL, r->body_count, st) == GP_OK);
        *x_momentum = 0.0;
        if (grains) {
            for (i = 0; i < n; ++i)
                if ((in[i].kind & 0xffu) == GP_KIND_GRANULAR) *x_momentum += v[i].mass * v[i].x;
        } else {
            for (b = 0; b < r->body_count; b += 2) *x_momentum += r->shapes[r->body_shape[b]].mass * st[b].velocity[0];
        }
    }
    for (a = 0; a < 3; ++a) d[a] = P1[a] - P0[a];
    out->dp = ref_length(d);
    for (a = 0; a < 3; ++a) d[a] = J1[a] - J0[a];
    out->dj = ref_length(d);
    free(p); free(v); free(in);
}

/* Two collisions in the middle of a closed box of half side 0.25 m, no gravity, 400 substeps of
   1e-4 s each:
     grains and bodies: a block of 5 x 8 x 4 grains (phase 0) moving +x at 0.6 m/s meets 6
       spinning bodies (steel boxes, sand spheres and capsules) moving -x at 0.8 m/s, 1 mm away;
     bodies alone: three pairs of those bodies, spinning, meet head-on at 0.8 m/s each.
   Every particle stays at least 1 cm (plus its radius) from every face throughout, else the
   test is void. Total linear momentum (grains' m v plus bodies' M V) moves by at most 1e-5 of
   the sum of |m v| over the particles and bodies (measured: ~1e-8, float's rounding of 400
   updates; see the verbose line). With bodies alone, total angular momentum about the centre
   (X x M V + L) moves by at most 1e-4 of the sum of its terms' magnitudes (measured ~2e-6: each
   substep rounds X, whose x M V the sum holds): the contact point is shared, so contact torques
   cancel in pairs as forces do. (Not with grains: a grain carries no
   spin, and the torque of its contact about its own centre is dropped, paper 000's model.) The
   moving side must lose at least a tenth of its x momentum, or nothing collided. */
static void test_dem_reference_momentum(void) {
    const double box = 0.25;
    const float block_min[3] = {-0.051f, -0.04f, -0.02f}, block_max[3] = {-0.001f, 0.04f, 0.02f}, v_grains[3] = {0.6f, 0.02f, 0.0f};
    ref_world r;
    ref_collision c[2];
    uint32_t s[3], k, added = 0;
    uint64_t rng = 5;
    int a, part;
    for (part = 0; part < 2; ++part) {
        if (!ref_open(&r, 512)) return;
        ref_gravity(&r, 0.0, 0.0, 0.0);
        ref_container(&r, (float)box);
        ref_collision_shapes(&r, s);
        if (part == 0) {
            CHECK(gp_granular_add_block(r.w, 0, block_min, block_max, v_grains, &added) == GP_OK && added == 160);
            for (k = 0; k < 6; ++k) {   /* two columns of three, 1 mm from the block's face at x = -0.001 */
                double at[3], q[4] = {0.0, 0.0, 0.0, 1.0}, v[3] = {-0.8, 0.0, 0.05}, w[3];
                at[0] = 0.0125 + 0.025 * (k / 3);
                at[1] = -0.03 + 0.03 * (k % 3);
                at[2] = 0.0;
                for (a = 0; a < 3; ++a) w[a] = ref_uniform(&rng, -20.0, 20.0);
                ref_body(&r, s[k % 3], at, q, v, w);
            }
        } else {
            for (k = 0; k < 6; ++k) {   /* pairs (even +x, odd -x), 6 mm apart, offset in z so that they glance */
                double at[3], q[4], v[3] = {0.0, 0.0, 0.0}, w[3];
                at[0] = k % 2 ? 0.013 : -0.013;
                at[1] = -0.03 + 0.03 * (k / 2);
                at[2] = k % 2 ? 0.004 : -0.004;
                v[0] = k % 2 ? -0.8 : 0.8;
                for (a = 0; a < 3; ++a) w[a] = ref_uniform(&rng, -20.0, 20.0);
                for (a = 0; a < 4; ++a) q[a] = ref_uniform(&rng, -1.0, 1.0);
                ref_body(&r, s[(k + k / 2) % 3], at, q, v, w);
            }
        }
        ref_collide(&r, box, part == 0, &c[part]);
        ref_close(&r);
    }
    for (part = 0; part < 2; ++part) {
        const char* what = part ? "bodies alone" : "grains and bodies";
        CHECKF(c[part].gap > 0.01, "%s: void: a particle came within %.3g m (more than its radius) of a wall: walls take momentum", what,
               c[part].gap);
        CHECKF(fabs(c[part].after - c[part].before) > 0.1 * fabs(c[part].before), "%s: the moving side's x momentum went from %.4g to "
               "%.4g: nothing collided", what, c[part].before, c[part].after);
        CHECKF(c[part].dp <= 1e-5 * c[part].p_scale, "%s: linear momentum moved by %.3g kg m/s, %.3g of the sum of |m v| %.4g (limit "
               "1e-5)", what, c[part].dp, c[part].dp / c[part].p_scale, c[part].p_scale);
        if (part == 1)
            CHECKF(c[part].dj <= 1e-4 * c[part].j_scale, "%s: angular momentum moved by %.3g kg m^2/s, %.3g of its terms %.4g (limit "
                   "1e-4)", what, c[part].dj, c[part].dj / c[part].j_scale, c[part].j_scale);
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    %s: %u particles, 400 substeps: |dP| %.3g of %.4g (%.2g), |dJ| %.3g of %.4g (%.2g); x momentum of the "
                    "moving side %.4g -> %.4g; closest to a wall %.3g m beyond the radius\n", what, c[part].particles, c[part].dp,
                    c[part].p_scale, c[part].dp / c[part].p_scale, c[part].dj, c[part].j_scale, c[part].dj / c[part].j_scale,
                    c[part].before, c[part].after, c[part].gap);
    }
}

/* ---- (d) the tangential spring's history over many substeps ------------------------------------ */

#define REF_HISTORY_SUBSTEPS 60

/* Phase 2: diameter 0.01 m, the paper's viscous shear alone (GP_SHEAR_VISCOUS: k_s counts as 0,
   so its pairs with phase 0 or 1 have half their k_s), friction 0.4, every other default. */
static void ref_viscous_material(ref_world* r) {
    gp_granular_material m;
    memset(&m, 0, sizeof m);
    m.diameter = 0.01f;
    m.friction = 0.4f;
    m.shear_model = GP_SHEAR_VISCOUS;
    CHECK(gp_granular_material_set(r->w, 2, &m) == GP_OK);
    r->materials[2] = cpu_dem_material_default(0.01f);
    r->materials[2].friction = 0.4;
    r->materials[2].viscous = 1;
    r->material_count = 3;
    ref_check_material(r, 2);
}

/* The smallest distance from x to a wall (a container's face, another collider's surface) less rad. */
static double ref_wall_gap(const ref_world* r, const double x[3], double rad) {
    double gap = INFINITY, n[3];
    uint32_t k;
    int a;
    for (k = 0; k < r->collider_count; ++k) {
        const gp_collider_desc* c = &r->colliders[k];
        if (c->shape == GP_SHAPE_BOX && c->inside)
            for (a = 0; a < 3; ++a) gap = fmin(gap, c->half_extents[a] - fabs(x[a] - c->center[a]) - rad);
        else
            gap = fmin(gap, cpu_collider_distance(c, x, n) - rad);
    }
    return gap;
}

/* The scene of dem_reference_history: a container box of half side 0.035 m with a dome (a sphere
   collider half sunk in the floor) and a 45-degree slope across one lower edge (a plane), gravity
   tilted along the floor (2 and 1 m/s^2); a sand ball body (8 particles) rolling and spinning on
   the floor and a steel box body (12) sliding on it; 12 grains resting on the floor (overlapping
   it by 1e-6 m), creeping at up to 2 cm/s, and 89 grains thrown at up to 0.8 m/s among them, of
   phases 0, 1, 0, 1, 2 in turn (2: viscous). Grains are drawn at random, kept where they overlap
   no particle and no wall by more than 3% of the contact distance. Before them, 6 grains of phase
   0 touching two or three walls at once, thrown into them and along: the floor's edges with two
   faces of the box, a corner of it, the slope's foot and the dome's, and the V between the slope
   and the dome (each wall keeps its own spring: face and collider). */
static void ref_history_scene(ref_world* r, uint64_t seed) {
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 3;
    const double box = 0.035;
    gp_collider_desc c;
    gp_shape_desc shape;
    double placed[160][4];   /* x, y, z, radius of every particle so far */
    float xyz[3], vel[3];
    uint32_t n = 0, s[2], b, k, tries = 0, grains = 0;
    int a;
    ref_gravity(r, 2.0, -9.81, 1.0);
    ref_container(r, (float)box);
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_SPHERE;
    c.center[0] = -0.008f; c.center[1] = (float)-box; c.center[2] = -0.015f;
    c.radius = 0.01f;
    ref_collider(r, &c);
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_PLANE;
    c.center[0] = (float)-box; c.center[1] = -0.02f;
    c.normal[0] = 1.0f; c.normal[1] = 1.0f;
    ref_collider(r, &c);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_SPHERE;
    shape.radius = 0.01f;
    s[0] = ref_shape(r, &shape);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.phase = 1;
    shape.half_extents[0] = 0.012f; shape.half_extents[1] = 0.008f; shape.half_extents[2] = 0.008f;
    s[1] = ref_shape(r, &shape);
    {
        const double at[2][3] = {{-0.008, -box + 0.01 - 2e-5, 0.016}, {0.014, -box + 0.008 - 1e-5, 0.014}};
        const double v[2][3] = {{0.3, 0.0, -0.1}, {-0.2, 0.0, 0.15}}, w[2][3] = {{0.0, 5.0, 20.0}, {0.0, 3.0, 0.0}};
        const double q[4] = {0.0, 0.0, 0.0, 1.0}, qs[4] = {1.0, 0.0, 0.0, 0.0};
        for (b = 0; b < 2; ++b) {
            cpu_dem_body placed_body = cpu_dem_body_place(&r->shapes[s[b]], at[b], qs, v[b], w[b]);
            ref_body(r, s[b], at[b], q, v[b], w[b]);
            for (k = 0; k < r->shapes[s[b]].count; ++k, ++n) {
                cpu_dem_body_particle(&placed_body, k, placed[n], NULL, NULL);
                placed[n][3] = r->shapes[s[b]].particle_radius;
            }
        }
    }
    {   /* grains thrown into two or three walls at once: a box's edges and corner, the slope's and the
           dome's feet on the floor, and the V between the slope and the dome (two colliders) */
        const double r0 = 0.5 * r->materials[0].diameter, in = r0 - 1e-6, root2 = sqrt(2.0), dome = 0.01 + in;
        const double S = in * root2 - 0.055, w = S + box, A = 0.008;   /* the V: x + y = S, |(x, y) - (-A, -box)| = dome */
        const double u = 0.5 * (w - A - sqrt((A - w) * (A - w) - 2.0 * (A * A + w * w - dome * dome)));
        const double at[6][3] = {{box - in, -box + in, -0.002}, {0.0, -box + in, -box + in}, {box - in, -box + in, box - in},
                                 {S + box - in, -box + in, 0.0}, {-A + sqrt(dome * dome - in * in), -box + in, -0.015},
                                 {u, S - u, -0.015}};
        const float v[6][3] = {{0.4f, -0.4f, 0.3f}, {0.3f, -0.4f, -0.4f}, {0.3f, -0.3f, 0.35f}, {-0.4f, -0.4f, 0.3f},
                               {-0.4f, -0.3f, 0.2f}, {0.05f, -0.5f, 0.3f}};
        for (k = 0; k < 6; ++k) {
            double x[3];
            uint32_t o;
            for (a = 0; a < 3; ++a) xyz[a] = (float)at[k][a];
            for (a = 0; a < 3; ++a) x[a] = xyz[a];
            for (o = 0; o < n; ++o) {
                double d[3] = {x[0] - placed[o][0], x[1] - placed[o][1], x[2] - placed[o][2]};
                CHECKF(ref_length(d) >= r0 + placed[o][3], "edge grain %u overlaps particle %u", k, o);
            }
            CHECKF(ref_wall_gap(r, x, r0) > -2e-6 && ref_wall_gap(r, x, r0) < 0.0, "edge grain %u: gap %g to the walls", k,
                   ref_wall_gap(r, x, r0));
            ref_grains(r, 0, 1, xyz, v[k]);
            memcpy(placed[n], x, sizeof x);
            placed[n++][3] = r0;
        }
    }
    while (grains < 101 && tries++ < 200000) {
        uint32_t phase = (uint32_t)(grains % 5 == 4 ? 2 : grains % 2);
        double x[3], rad = 0.5 * r->materials[phase].diameter, gap;
        int resting = grains < 12, clear = 1;
        for (a = 0; a < 3; ++a) {
            x[a] = ref_uniform(&rng, -box + rad, box - rad);
            vel[a] = (float)(resting ? ref_uniform(&rng, -0.02, 0.02) : ref_uniform(&rng, -0.8, 0.8));
        }
        if (resting) {
            x[1] = -box + rad - 1e-6;
            vel[1] = 0.0f;
        } else {
            x[1] = ref_uniform(&rng, -box + rad, 0.0);
            vel[1] = (float)ref_uniform(&rng, -0.8, 0.3);
        }
        for (a = 0; a < 3; ++a) xyz[a] = (float)x[a];
        for (a = 0; a < 3; ++a) x[a] = xyz[a];
        gap = ref_wall_gap(r, x, rad);
        if (gap < (resting ? -2e-6 : -0.03 * rad)) clear = 0;
        if (resting && clear) {   /* on the floor, and on no other wall */
            double above[3] = {x[0], x[1] + 1e-5, x[2]};
            clear = ref_wall_gap(r, above, rad) > 0.0;
        }
        for (k = 0; k < n && clear; ++k) {
            double d[3] = {x[0] - placed[k][0], x[1] - placed[k][1], x[2] - placed[k][2]};
            clear = ref_length(d) >= 0.97 * (rad + placed[k][3]);
        }
        if (!clear) continue;
        ref_grains(r, phase, 1, xyz, vel);
        memcpy(placed[n], x, sizeof x);
        placed[n++][3] = rad;
        ++grains;
    }
    CHECKF(grains == 101, "only %u grains found room", grains);
}

/* The springs of `now` that `before` did not hold (started), and those of `before` that `now`
   no longer does (ended). */
static void ref_history_changes(const cpu_dem_history* before, const cpu_dem_history* now, uint32_t* started, uint32_t* ended) {
    uint32_t k;
    for (k = 0; k < now->count; ++k) {
        const cpu_dem_spring* p = &now->springs[k];
        *started += cpu_dem_history_find(before, p->id, p->wall, p->partner) == NULL;
    }
    for (k = 0; k < before->count; ++k) {
        const cpu_dem_spring* p = &before->springs[k];
        *ended += cpu_dem_history_find(now, p->id, p->wall, p->partner) == NULL;
    }
}

/* The largest number of springs any one particle keeps (a pair's counts for both). */
static uint32_t ref_history_most(const cpu_dem_history* h, uint32_t capacity) {
    uint32_t* count = (uint32_t*)calloc((size_t)capacity + 1, sizeof *count), k, most = 0;
    for (k = 0; k < h->count; ++k) {
        const cpu_dem_spring* p = &h->springs[k];
        if (p->id < capacity) most = ++count[p->id] > most ? count[p->id] : most;
        if (!p->wall && p->partner < capacity) most = ++count[p->partner] > most ? count[p->partner] : most;
    }
    free(count);
    return most;
}

/* Forces of the scene with the given springs in place of its history (the scene's history is
   left as it was). */
static void ref_forces_with(cpu_dem_scene* scene, const cpu_dem_history* springs, double (*f)[3], double* m) {
    cpu_dem_history kept = scene->history;
    CHECK(cpu_dem_history_copy(&scene->history, springs));
    cpu_dem_forces(scene, f, NULL, m);
    cpu_dem_history_free(&scene->history);
    scene->history = kept;
}

/* REF_HISTORY_SUBSTEPS substeps of REF_H, each on its own gp_world_step (substeps = 1), of the
   scene of ref_history_scene (127 particles: 107 grains of three materials, two bodies; a
   container, a dome, a slope; gravity). Before each substep the reference loads the GPU's state
   (positions, velocities, bodies) and computes its forces with its own history, kept by id
   from substep to substep: so the springs it reads are its own, grown from the GPU's velocities,
   never the GPU's. After the substep, per particle (by id: the GPU re-sorts the store), the
   GPU's acceleration within REF_TOLERANCE of the terms' magnitude (cpu_dem.h: the springs'
   k_s (|xi| + h |u|) counted in); per body, V and L within the bounds of dem_reference_substep
   (so the contact torques, the springs' included). The scene must show what it tests: at some
   substep, dropping every kept spring (a GPU that ignored the history) would move some
   particle's acceleration by 100 times the tolerance, and dropping the walls' alone by 10 times;
   contacts must start and end (at least 20 each), slide and stick (at least 100 spring-substeps
   each), at walls and between particles; no particle ever keeps more springs than the GPU's
   contact_slots (else the GPU may drop one: the test would be void); and the reference's grid
   pass must agree with its O(n^2) pass (forces to 1e-12 of the magnitudes, the history bit for
   bit) at every substep. After each substep the GPU keeps as many springs as the reference
   (gp_dem_stats_read), none refused a slot. */
static void test_dem_reference_history(void) {
    ref_world r;
    gp_world_desc defaults;
    gp_step_desc step;
    gp_dem_stats stats;
    cpu_dem_history history, grid_history;
    const uint32_t capacity = 512;
    double worst = 0.0, worst_body = 0.0, power = 0.0, wall_power = 0.0, grid_worst = 0.0, h = (float)REF_H;
    uint32_t sub, started = 0, ended = 0, sliding = 0, sticking = 0, wall_springs = 0, pair_springs = 0, most = 0, failures = 0;
    uint32_t grid_mismatch = 0;
    int log_count;
    memset(&history, 0, sizeof history);
    memset(&grid_history, 0, sizeof grid_history);
    defaults = gp_query_world_defaults(NULL);
    if (!ref_open(&r, capacity)) return;
    ref_viscous_material(&r);
    ref_history_scene(&r, 13);
    memset(&step, 0, sizeof step);
    step.dt = (float)REF_H;
    step.substeps = 1;
    log_count = fixture_log_count;
    for (sub = 0; sub < REF_HISTORY_SUBSTEPS; ++sub) {
        ref_state before, after;
        cpu_dem_history old, walls_dropped, empty;
        uint32_t n, i, j, b, k, *slot;
        double(*f)[3], (*t)[3], (*g)[3], *m, *mg;
        ref_read(&r, &before, 0);
        n = before.count;
        f = (double(*)[3])calloc((size_t)n + 1, sizeof *f);
        t = (double(*)[3])calloc((size_t)n + 1, sizeof *t);
        g = (double(*)[3])calloc((size_t)n + 1, sizeof *g);
        m = (double*)calloc((size_t)n + 1, sizeof *m);
        mg = (double*)calloc((size_t)n + 1, sizeof *mg);
        before.scene.history = history;   /* the reference's own springs, by id */
        memset(&history, 0, sizeof history);
        CHECK(cpu_dem_history_copy(&old, &before.scene.history));
        cpu_dem_forces(&before.scene, f, t, m);
        /* the grid pass with its own history: the same forces and springs */
        {
            cpu_dem_history kept = before.scene.history;
            double e = 0.0;
            before.scene.history = grid_history;
            cpu_dem_forces_grid(&before.scene, g, NULL, mg);
            grid_history = before.scene.history;
            before.scene.history = kept;
            for (i = 0; i < n; ++i) {
                double d[3] = {g[i][0] - f[i][0], g[i][1] - f[i][1], g[i][2] - f[i][2]};
                if (m[i] > 0.0) e = fmax(e, ref_length(d) / m[i]);
                else if (ref_length(d) > 0.0) e = INFINITY;
            }
            grid_worst = fmax(grid_worst, e);
            if (grid_history.count != kept.count ||
                (kept.count && memcmp(grid_history.springs, kept.springs, (size_t)kept.count * sizeof *kept.springs) != 0))
                ++grid_mismatch;
        }
        /* what the scene shows: springs started and ended, sliding and sticking, the most per particle */
        ref_history_changes(&old, &before.scene.history, &started, &ended);
        for (k = 0; k < before.scene.history.count; ++k) {
            const cpu_dem_spring* p = &before.scene.history.springs[k];
            sliding += p->sliding;
            sticking += !p->sliding;
            wall_springs += p->wall;
            pair_springs += !p->wall;
        }
        k = ref_history_most(&before.scene.history, capacity);
        most = k > most ? k : most;
        /* and what a GPU that dropped every spring, or the walls' alone, would be off by */
        memset(&empty, 0, sizeof empty);
        memset(&walls_dropped, 0, sizeof walls_dropped);
        CHECK(cpu_dem_history_copy(&walls_dropped, &old));
        for (i = 0, j = 0; i < walls_dropped.count; ++i)
            if (!walls_dropped.springs[i].wall) walls_dropped.springs[j++] = walls_dropped.springs[i];
        walls_dropped.count = j;
        for (k = 0; k < 2; ++k) {
            ref_forces_with(&before.scene, k ? &walls_dropped : &empty, g, NULL);
            for (i = 0; i < n; ++i) {
                double d[3] = {g[i][0] - f[i][0], g[i][1] - f[i][1], g[i][2] - f[i][2]};
                if (m[i] > 0.0) {
                    if (k) wall_power = fmax(wall_power, ref_length(d) / m[i]);
                    else power = fmax(power, ref_length(d) / m[i]);
                }
            }
        }
        cpu_dem_history_free(&walls_dropped);
        cpu_dem_history_free(&old);
        history = before.scene.history;   /* kept for the next substep */
        memset(&before.scene.history, 0, sizeof before.scene.history);

        CHECKF(gp_world_step(r.w, &step) == GP_OK, "substep %u: gp_world_step: %s", sub, fixture_log);
        ref_no_truncation(&r, "history");
        CHECK(gp_dem_stats_read(r.w, &stats) == GP_OK);   /* the GPU kept what the reference keeps */
        CHECKF(stats.contacts_kept == history.count && stats.contacts_unkept == 0, "substep %u: the GPU kept %u springs (%u found no "
               "slot), the reference %u", sub, stats.contacts_kept, stats.contacts_unkept, history.count);
        ref_read(&r, &after, 1);
        CHECKF(after.count == n, "substep %u: %u particles, not %u", sub, after.count, n);
        slot = ref_slots(before.info, n, capacity);
        for (j = 0; j < after.count && j < n; ++j) {   /* after's slot j against before's slot i of the same id */
            const gp_particle_position* A = &after.acceleration[j];
            const double gpu[3] = {A->x, A->y, A->z};
            double want[3], mag, d[3], e;
            uint32_t id = after.info[j].id;
            i = id < capacity ? slot[id] : 0xffffffffu;
            if (i == 0xffffffffu) { CHECKF(0, "substep %u: id %u is not in the store before the substep", sub, id); continue; }
            if (!ref_expected(&before, i, f[i], m[i], want, &mag)) continue;
            for (k = 0; k < 3; ++k) d[k] = gpu[k] - want[k];
            e = cpu_dem_error(ref_length(d), before.scene.ambiguous[i] / before.scene.mass[i], mag);
            if (!(e <= REF_TOLERANCE) && failures++ < 6)
                CHECKF(0, "substep %u: id %u (kind %u, phase %u): the GPU's acceleration (%.7g %.7g %.7g), the reference's (%.7g %.7g "
                       "%.7g): off by %.3g of the terms' magnitude %.4g (tolerance %g)", sub, id, before.info[i].kind & 0xffu,
                       before.info[i].kind >> 16, gpu[0], gpu[1], gpu[2], want[0], want[1], want[2], e, mag, REF_TOLERANCE);
            if (e > worst || e != e) worst = e;
        }
        for (b = 0; b < r.body_count; ++b) {   /* stage 4 and 5's momenta from the reference's forces and torques */
            const cpu_dem_body* cb = &before.bodies[b];
            const gp_body_state* st = &after.states[b];
            uint32_t count = cb->shape->count;
            double* fk = (double*)calloc(3 * (size_t)count, sizeof *fk);
            double* tk = (double*)calloc(3 * (size_t)count, sizeof *tk);
            double F[3], tau[3], V[3], L[3], M = cb->shape->mass, Fmag = M * ref_length(before.scene.gravity), Tmag = 0.0;
            double vbound, lbound, e;
            for (i = 0; i < n; ++i) {
                double rk[3];
                if ((before.info[i].kind & 0xffu) != GP_KIND_RIGID || before.info[i].owner != b) continue;
                k = before.info[i].id - cb->first_id;
                memcpy(fk + 3 * (size_t)k, f[i], sizeof f[i]);
                memcpy(tk + 3 * (size_t)k, t[i], sizeof t[i]);
                cpu_dem_body_particle(cb, k, NULL, NULL, rk);
                Fmag += m[i];
                Tmag += (ref_length(rk) + before.scene.radius[i]) * m[i];
            }
            cpu_dem_body_sums(cb, fk, tk, before.scene.gravity, F, tau);
            for (k = 0; k < 3; ++k) {
                V[k] = (cb->P[k] + F[k] * h) / M;
                L[k] = cb->L[k] + tau[k] * h;
            }
            vbound = REF_TOLERANCE * h * Fmag / M + 4.0 * REF_EPS * ref_length(V);
            lbound = REF_TOLERANCE * h * Tmag + 4.0 * REF_EPS * ref_length(L);
            e = fmax(ref_diff3(st->velocity, V) / vbound, ref_diff3(st->angular_momentum, L) / lbound);
            CHECKF(e <= 1.0, "substep %u, body %u: GPU V (%.7g %.7g %.7g) L (%.7g %.7g %.7g), reference V (%.7g %.7g %.7g) L (%.7g %.7g "
                   "%.7g): |dV| %.3g (bound %.3g), |dL| %.3g (bound %.3g)", sub, b, st->velocity[0], st->velocity[1], st->velocity[2],
                   st->angular_momentum[0], st->angular_momentum[1], st->angular_momentum[2], V[0], V[1], V[2], L[0], L[1], L[2],
                   ref_diff3(st->velocity, V), vbound, ref_diff3(st->angular_momentum, L), lbound);
            worst_body = fmax(worst_body, e);
            free(fk); free(tk);
        }
        free(slot); free(f); free(t); free(g); free(m); free(mg);
        ref_free(&before);
        ref_free(&after);
    }
    if (failures > 6) CHECKF(0, "%u accelerations off in all", failures);
    CHECKF(fixture_log_count == log_count, "the library warned during the run (a contact without a slot?): %s", fixture_log);
    CHECKF(most <= defaults.contact_slots, "a particle kept %u springs, more than the GPU's %u contact slots: the scene is void", most,
           defaults.contact_slots);
    CHECKF(power > 100.0 * REF_TOLERANCE, "dropping every spring would be off by only %.3g of the magnitudes: the scene cannot see the "
           "history", power);
    CHECKF(wall_power > 10.0 * REF_TOLERANCE, "dropping the walls' springs would be off by only %.3g of the magnitudes", wall_power);
    CHECKF(started >= 20 && ended >= 20, "contacts started %u and ended %u times: at least 20 each wanted", started, ended);
    CHECKF(sliding >= 100 && sticking >= 100, "%u sliding and %u sticking spring-substeps: at least 100 each wanted", sliding, sticking);
    CHECKF(wall_springs >= 100 && pair_springs >= 100, "%u wall and %u pair spring-substeps: at least 100 each wanted", wall_springs,
           pair_springs);
    CHECKF(grid_worst <= 1e-12 && grid_mismatch == 0, "the reference's grid pass differs from its O(n^2) pass: forces by %.3g of the "
           "magnitudes, the history at %u substeps", grid_worst, grid_mismatch);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    history: %d substeps: worst |gpu - cpu| %.3g of the magnitudes (tolerance %g), bodies %.3g of their bounds; "
                "dropping every spring would be off by %.3g, the walls' by %.3g; springs started %u, ended %u, sliding %u, sticking "
                "%u, at walls %u, between particles %u; at most %u per particle (slots %u); grid pass %.2g\n", REF_HISTORY_SUBSTEPS,
                worst, REF_TOLERANCE, worst_body, power, wall_power, started, ended, sliding, sticking, wall_springs, pair_springs,
                most, defaults.contact_slots, grid_worst);
    cpu_dem_history_free(&history);
    cpu_dem_history_free(&grid_history);
    ref_close(&r);
}

const gp_test_case dem_reference_tests[] = {
    {"dem_reference_borderline_pair", test_dem_reference_borderline_pair},
    {"dem_reference_contact_forces", test_dem_reference_contact_forces},
    {"dem_reference_substep", test_dem_reference_substep},
    {"dem_reference_momentum", test_dem_reference_momentum},
    {"dem_reference_history", test_dem_reference_history},
};
const int dem_reference_test_count = (int)(sizeof dem_reference_tests / sizeof dem_reference_tests[0]);
