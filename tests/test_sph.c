/* test_sph.c: the SPH fluid (paper 001) against tests/cpu_sph.c, a double-precision reference
   written from the formulas alone, and against physics:
     - the reference checks itself (lattice density, walls, momentum, brute force = grid);
     - gp_fluid_compute's density, pressure and acceleration on random blocks of 1 to 2,000
       particles, two materials, colliders, user forces, a bounded grid with particles outside it,
       all particles in one cell, and the empty world; one substep of each integrator;
     - bad input refused (or warned about) with a result and a message naming the problem;
     - a NaN written into the store is kept and reported, and harms no other particle;
     - a dam break: particles, ids and masses exactly conserved, no particle in a wall after any
       substep; a mirror-symmetric start stays symmetric; a column at rest is hydrostatic.
   Comparisons are relative to the sum of the magnitudes of the terms behind each value (see
   cpu_sph.h): the GPU sums in float, so a value that cancels is only known that well. */
#include "fixture.h"
#include "cpu_sph.h"
#include <math.h>

#define SPH_CELL 0.1f
#define SPH_TOLERANCE 1e-4   /* relative to the terms' magnitudes: float sums are good to ~1e-6 */
/* The substep given to gp_fluid_compute (the accelerations do not depend on it: the wall push
   of eq. 11 is a displacement of the integration). */
#define SPH_COMPUTE_DT 0.005f

/* ---- the store read back -------------------------------------------------------------------- */

typedef struct sph_state {
    uint32_t n;
    gp_particle_position* position;
    gp_particle_velocity* velocity;
    gp_particle_info* info;
    float *density, *pressure;          /* NULL unless read with computed */
    gp_particle_position* acceleration;
} sph_state;

static void* sph_alloc(size_t bytes) { return calloc(1, bytes + 16); }

/* Every live slot; with computed, also what the last fluid substep computed. */
static sph_state sph_read(gp_world* w, int computed) {
    sph_state s;
    memset(&s, 0, sizeof s);
    s.n = gp_particle_count(w);
    s.position = (gp_particle_position*)sph_alloc((size_t)s.n * 16);
    s.velocity = (gp_particle_velocity*)sph_alloc((size_t)s.n * 16);
    s.info = (gp_particle_info*)sph_alloc((size_t)s.n * 16);
    if (s.n == 0) return s;
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, s.n, s.position) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, s.n, s.velocity) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, s.n, s.info) == GP_OK);
    if (computed) {
        s.density = (float*)sph_alloc((size_t)s.n * 4);
        s.pressure = (float*)sph_alloc((size_t)s.n * 4);
        s.acceleration = (gp_particle_position*)sph_alloc((size_t)s.n * 16);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_DENSITY, 0, s.n, s.density) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_PRESSURE, 0, s.n, s.pressure) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_ACCELERATION, 0, s.n, s.acceleration) == GP_OK);
    }
    return s;
}

static void sph_state_free(sph_state* s) {
    free(s->position); free(s->velocity); free(s->info); free(s->density); free(s->pressure); free(s->acceleration);
}

/* The slot of each id (ids < n in these tests); UINT32_MAX for a missing id. */
static uint32_t* sph_slots_by_id(const sph_state* s, uint32_t ids) {
    uint32_t* slot = (uint32_t*)sph_alloc((size_t)ids * 4);
    uint32_t k;
    memset(slot, 0xff, (size_t)ids * 4);
    for (k = 0; k < s->n; ++k)
        if (s->info[k].id < ids) slot[s->info[k].id] = k;
    return slot;
}

/* ---- a world's fluid setup, mirrored on the CPU --------------------------------------------- */

typedef struct sph_setup {
    gp_collider_desc colliders[4];
    uint32_t collider_count;
    gp_force forces[2];
    uint32_t force_count;
    float gravity[3];
    cpu_sph_material materials[GP_MAX_FLUID_MATERIALS];   /* filled by sph_world from the world's */
} sph_setup;

/* Gives the world the setup's colliders, forces and gravity (a zero gravity: the default) and
   reads its materials, as resolved, into the setup. */
static void sph_apply(gp_world* w, sph_setup* s) {
    uint32_t k;
    gp_collider handle;
    for (k = 0; k < s->collider_count; ++k) CHECK(gp_collider_add(w, s->colliders + k, &handle) == GP_OK && handle.id != 0);
    CHECK(gp_forces_set(w, s->forces, s->force_count) == GP_OK);
    if (s->gravity[0] == 0.0f && s->gravity[1] == 0.0f && s->gravity[2] == 0.0f) s->gravity[1] = -9.81f;
    CHECK(gp_gravity_set(w, s->gravity) == GP_OK);
    for (k = 0; k < GP_MAX_FLUID_MATERIALS; ++k) {
        gp_fluid_material m;
        CHECK(gp_fluid_material_get(w, k, &m) == GP_OK);
        s->materials[k] = cpu_sph_material_make(&m);
        CHECKF(fabs(m.mass / s->materials[k].mass - 1.0) < 1e-6, "phase %u: the world's mass %.9g, the reference's %.9g", k,
               m.mass, s->materials[k].mass);
    }
}

static cpu_sph_scene sph_scene(const sph_state* st, const sph_setup* s, double dt) {
    cpu_sph_scene c;
    memset(&c, 0, sizeof c);
    c.count = st->n;
    c.position = st->position;
    c.velocity = st->velocity;
    c.info = st->info;
    c.materials = s->materials;
    c.material_count = GP_MAX_FLUID_MATERIALS;
    c.colliders = s->colliders;
    c.collider_count = s->collider_count;
    c.forces = s->forces;
    c.force_count = s->force_count;
    c.gravity[0] = s->gravity[0]; c.gravity[1] = s->gravity[1]; c.gravity[2] = s->gravity[2];
    c.dt = dt;
    return c;
}

static gp_collider_desc sph_box(float cx, float cy, float cz, float hx, float hy, float hz, int inside) {
    gp_collider_desc c;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_BOX;
    c.center[0] = cx; c.center[1] = cy; c.center[2] = cz;
    c.half_extents[0] = hx; c.half_extents[1] = hy; c.half_extents[2] = hz;
    c.inside = inside != 0;
    return c;
}

/* ---- comparison ------------------------------------------------------------------------------ */

/* The largest |gpu - cpu| / magnitude over the fluid particles with finite positions. */
typedef struct sph_error { double density, pressure, acceleration; uint32_t compared, set_aside; } sph_error;

/* The comparisons' one rule for what they set aside (cpu_sph_particle.ambiguous: a threshold that
   float rounding may decide the other way on a GPU): at most a tenth of what they compare. */
static void sph_check_set_aside(const char* what, uint32_t set_aside, uint32_t compared) {
    CHECKF(set_aside <= compared / 10, "%s: %u particles set aside as within rounding of a threshold, %u compared", what,
           set_aside, compared);
}

static double sph_ratio(double error, double magnitude) { return magnitude > 0.0 ? error / magnitude : error > 0.0 ? INFINITY : 0.0; }

/* Compares slot by slot: gpu holds the world's DENSITY, PRESSURE and ACCELERATION, ref the
   reference's result for the same slots. Density and pressure against their magnitudes
   (density_abs, pressure_abs), acceleration as a vector against acceleration_abs. A particle
   whose result rests on a threshold that float rounding may decide the other way on a GPU
   (cpu_sph_particle.ambiguous: its own free-surface or relaxation test, or a neighbour's) is set
   aside, and at most a tenth of them may be. */
static sph_error sph_compare(const sph_state* gpu, const cpu_sph_particle* ref, const char* what) {
    sph_error e;
    uint32_t k, bad = 0;
    memset(&e, 0, sizeof e);
    for (k = 0; k < gpu->n; ++k) {
        const cpu_sph_particle* r = ref + k;
        double d, p, a, da[3];
        if ((gpu->info[k].kind & 0xffu) != GP_KIND_FLUID || !cpu_finite3(&gpu->position[k].x)) continue;
        if (r->ambiguous) { ++e.set_aside; continue; }
        da[0] = gpu->acceleration[k].x - r->acceleration[0];
        da[1] = gpu->acceleration[k].y - r->acceleration[1];
        da[2] = gpu->acceleration[k].z - r->acceleration[2];
        d = sph_ratio(fabs(gpu->density[k] - r->density), r->density_abs);
        p = sph_ratio(fabs(gpu->pressure[k] - r->pressure), r->pressure_abs);
        a = sph_ratio(sqrt(da[0] * da[0] + da[1] * da[1] + da[2] * da[2]), r->acceleration_abs);
        if (!(d <= SPH_TOLERANCE && p <= SPH_TOLERANCE && a <= SPH_TOLERANCE) && bad++ < 3)
            fprintf(stderr, "    %s: slot %u (id %u, phase %u, %u neighbours, D %.4g): density %.7g (cpu %.7g), pressure %.7g "
                    "(cpu %.7g), acceleration (%.6g %.6g %.6g) (cpu %.6g %.6g %.6g, scale %.4g)\n", what, k, gpu->info[k].id,
                    gpu->info[k].kind >> 16, r->neighbors, r->boundary, gpu->density[k], r->density, gpu->pressure[k],
                    r->pressure, gpu->acceleration[k].x, gpu->acceleration[k].y, gpu->acceleration[k].z,
                    r->acceleration[0], r->acceleration[1], r->acceleration[2], r->acceleration_abs);
        e.density = d > e.density || d != d ? d : e.density;
        e.pressure = p > e.pressure || p != p ? p : e.pressure;
        e.acceleration = a > e.acceleration || a != a ? a : e.acceleration;
        ++e.compared;
    }
    CHECKF(bad == 0, "%s: %u of %u fluid particles differ from the reference by more than %g of their terms' magnitude "
           "(largest: density %.3g, pressure %.3g, acceleration %.3g)", what, bad, e.compared, SPH_TOLERANCE, e.density,
           e.pressure, e.acceleration);
    sph_check_set_aside(what, e.set_aside, e.compared);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    %s: %u compared (%u set aside), largest relative errors: density %.2e, pressure %.2e, acceleration %.2e\n",
                what, e.compared, e.set_aside, e.density, e.pressure, e.acceleration);
    return e;
}

/* ---- the reference checks itself -------------------------------------------------------------- */

/* A uniform random number in [0, 1). */
static double sph_unit(uint64_t* state) { return (double)(fixture_random(state) >> 11) * 0x1p-53; }

/* The default material of a world with SPH_CELL cells: spacing 0.05, re 0.1, rho0 1000, k 1000. */
static gp_fluid_material sph_default_material(void) {
    gp_fluid_material m;
    memset(&m, 0, sizeof m);
    m.spacing = 0.5f * SPH_CELL;
    m.smoothing_radius = SPH_CELL;
    m.rest_density = 1000.0f;
    m.stiffness = 1000.0f;
    m.viscosity = 0.02f;
    m.density_model = GP_DENSITY_SUMMATION;   /* the paper's model: the tests named continuity set theirs */
    return m;
}

/* Positions of an a x b x c block of the lattice, spacing l0, first point at corner. */
static gp_particle_position* sph_lattice(uint32_t a, uint32_t b, uint32_t c, double l0, const double corner[3]) {
    gp_particle_position* p = (gp_particle_position*)sph_alloc((size_t)a * b * c * 16);
    uint32_t i, j, k, n = 0;
    for (k = 0; k < c; ++k)
        for (j = 0; j < b; ++j)
            for (i = 0; i < a; ++i, ++n) {
                p[n].x = (float)(corner[0] + i * l0);
                p[n].y = (float)(corner[1] + j * l0);
                p[n].z = (float)(corner[2] + k * l0);
                p[n].radius = (float)(0.5 * l0);
            }
    return p;
}

/* A scene of n resting fluid particles of phase 0 with the material's mass. */
static cpu_sph_scene sph_plain_scene(uint32_t n, const gp_particle_position* p, const cpu_sph_material* m,
                                     gp_particle_velocity** v, gp_particle_info** info) {
    cpu_sph_scene s;
    uint32_t k;
    *v = (gp_particle_velocity*)sph_alloc((size_t)n * 16);
    *info = (gp_particle_info*)sph_alloc((size_t)n * 16);
    for (k = 0; k < n; ++k) { (*v)[k].mass = (float)m->mass; (*info)[k].id = k; (*info)[k].kind = GP_KIND_FLUID; }
    memset(&s, 0, sizeof s);
    s.count = n;
    s.position = p;
    s.velocity = *v;
    s.info = *info;
    s.materials = m;
    s.material_count = 1;
    return s;
}

/* A particle inside a large lattice block has rho0 (to 1e-12, with the float masses' rounding
   taken out); one l0/2 above a plane wall, with the lattice above it, has rho0 with the exact
   wall sum, and to within the tables' interpolation with the 32-sample tables (measured 2.2e-4
   for re = 2 l0: l0/2 falls between samples 7 and 8); the forces inside the block cancel by
   symmetry; momentum (sum of m a) is conserved without walls or gravity; brute force and the
   grid agree. The lattices use l0 = 1/16 m, so that float positions are exact. */
static void test_sph_reference_self_check(void) {
    gp_fluid_material fm = sph_default_material();
    cpu_sph_material m;
    const double l0 = 0.0625, corner[3] = {-4 * l0, -4 * l0, -4 * l0}, above[3] = {-4 * l0, 0.5 * l0, -4 * l0};
    gp_particle_position* p;
    gp_particle_velocity* v;
    gp_particle_info* info;
    cpu_sph_particle* out = (cpu_sph_particle*)sph_alloc(729 * sizeof *out);
    cpu_sph_scene s;
    gp_collider_desc floor_plane;
    uint32_t centre = 4 + 9 * (4 + 9 * 4), k;
    double float_mass, lattice, exact;

    fm.spacing = (float)l0;
    fm.smoothing_radius = (float)(2.0 * l0);
    m = cpu_sph_material_make(&fm);
    float_mass = (double)(float)m.mass / m.mass;
    p = sph_lattice(9, 9, 9, l0, corner);
    s = sph_plain_scene(729, p, &m, &v, &info);
    CHECKF(m.mass > 0.95 * 1000.0 * l0 * l0 * l0 && m.mass < 1000.0 * l0 * l0 * l0,
           "mass %.9g: a little under rho0 l0^3 (the kernel's lattice sum is above 1/l0^3)", m.mass);
    cpu_sph_compute(&s, out);
    CHECKF(fabs(out[centre].density / float_mass / m.rest_density - 1.0) < 1e-12, "lattice density %.15g", out[centre].density);
    CHECKF(out[centre].neighbors == 27, "the centre has %u lattice points closer than re = 2 l0 (27 expected)", out[centre].neighbors);
    CHECKF(fabs(out[centre].acceleration[0]) + fabs(out[centre].acceleration[1]) + fabs(out[centre].acceleration[2]) <
           1e-12 * out[centre].acceleration_abs, "lattice centre acceleration (%g %g %g)", out[centre].acceleration[0],
           out[centre].acceleration[1], out[centre].acceleration[2]);
    free(p); free(v); free(info);

    /* l0/2 above the plane y = 0: the lattice above, the wall's lattice below */
    p = sph_lattice(9, 5, 9, l0, above);
    s = sph_plain_scene(405, p, &m, &v, &info);
    memset(&floor_plane, 0, sizeof floor_plane);
    floor_plane.shape = GP_SHAPE_PLANE;
    floor_plane.normal[1] = 1.0f;
    s.colliders = &floor_plane;
    s.collider_count = 1;
    centre = 4 + 9 * (0 + 5 * 4);
    cpu_sph_compute(&s, out);
    lattice = out[centre].density - cpu_sph_wall_density(&m, 0.5 * l0);
    exact = (lattice + cpu_sph_wall_density_exact(&m, 0.5 * l0) * float_mass) / float_mass;
    CHECKF(fabs(out[centre].boundary - 0.5 * l0) < 1e-9, "boundary distance %.9g", out[centre].boundary);
    CHECKF(fabs(exact / m.rest_density - 1.0) < 1e-12, "density at l0/2 from a wall, exact wall sum: %.15g", exact);
    /* l0 / 2 is one of the tables' samples: read without interpolation error (was 2e-4); the
       particles' masses are floats, the wall's double, hence 1e-7 */
    CHECKF(fabs(out[centre].density / m.rest_density - 1.0) < 1e-7, "density at l0/2 from a wall, tables: %.15g",
           out[centre].density);
    CHECK(cpu_sph_wall_density(&m, -1.0) == m.wall_density[0] && cpu_sph_wall_density(&m, m.smoothing_radius) == 0.0);
    CHECK(cpu_sph_wall_density_exact(&m, m.smoothing_radius - 0.5 * l0) == 0.0 && m.wall_viscosity[0] > 0.0);
    free(p); free(v); free(info);

    /* a box tank filled with the lattice: every particle, at faces, edges and corners, has the
       rest density (the faces' tables alone give 3% more at an edge, 8.8% at a corner) */
    {
        const double origin[3] = {0.5 * l0, 0.5 * l0, 0.5 * l0};
        double worst = 0.0;
        gp_collider_desc tank = sph_box((float)(3.5 * l0), (float)(3.5 * l0), (float)(3.5 * l0), (float)(3.5 * l0),
                                        (float)(3.5 * l0), (float)(3.5 * l0), 1);
        p = sph_lattice(7, 7, 7, l0, origin);
        s = sph_plain_scene(343, p, &m, &v, &info);
        s.colliders = &tank;
        s.collider_count = 1;
        cpu_sph_compute(&s, out);
        for (k = 0; k < 343; ++k) {
            double e = fabs(out[k].density / m.rest_density - 1.0);
            worst = e > worst || e != e ? e : worst;
        }
        CHECKF(worst < 1e-7, "a tank filled with the lattice: density off by up to %.3g of rho0", worst);
        free(p); free(v); free(info);
    }
    free(out);

    /* random particles, two materials, allow_tension, random velocities: without walls and
       gravity, momentum is conserved exactly (pair terms are antisymmetric) when the materials
       share re and mu = nu rho0 (0.02 * 1000 = 0.04 * 500, exactly in float) */
    {
        uint32_t n = 600;
        uint64_t state = 77;
        cpu_sph_material two[2];
        gp_collider_desc walls[2];
        gp_force forces[2];
        cpu_sph_particle* grid = (cpu_sph_particle*)sph_alloc(n * sizeof *grid);
        double momentum[3] = {0, 0, 0}, scale = 0.0, worst = 0.0;
        out = (cpu_sph_particle*)sph_alloc(n * sizeof *out);
        fm.allow_tension = true;
        two[0] = cpu_sph_material_make(&fm);
        fm.rest_density = 500.0f; fm.stiffness = 3000.0f; fm.viscosity = 0.04f; fm.rest_pressure = 50.0f;
        two[1] = cpu_sph_material_make(&fm);
        p = (gp_particle_position*)sph_alloc(n * 16);
        s = sph_plain_scene(n, p, two, &v, &info);
        s.materials = two;
        s.material_count = 2;
        for (k = 0; k < n; ++k) {
            p[k].x = (float)(0.4 * sph_unit(&state));
            p[k].y = (float)(0.4 * sph_unit(&state));
            p[k].z = (float)(0.4 * sph_unit(&state));
            v[k].x = (float)(sph_unit(&state) - 0.5);
            v[k].y = (float)(sph_unit(&state) - 0.5);
            info[k].kind = GP_KIND_FLUID | (k % 3 == 0 ? 1u << 16 : 0u);
            v[k].mass = (float)(two[k % 3 == 0].mass * (0.8 + 0.4 * sph_unit(&state)));
        }
        cpu_sph_compute(&s, out);
        for (k = 0; k < n; ++k) {
            momentum[0] += v[k].mass * out[k].acceleration[0];
            momentum[1] += v[k].mass * out[k].acceleration[1];
            momentum[2] += v[k].mass * out[k].acceleration[2];
            scale += v[k].mass * out[k].acceleration_abs;
        }
        CHECKF(sqrt(momentum[0] * momentum[0] + momentum[1] * momentum[1] + momentum[2] * momentum[2]) < 1e-12 * scale,
               "sum of m a = (%g %g %g), scale %g", momentum[0], momentum[1], momentum[2], scale);
        /* brute force and the grid, with walls, forces and a non-fluid particle */
        walls[0] = sph_box(0.2f, 0.2f, 0.2f, 0.18f, 0.18f, 0.18f, 1);
        walls[1] = sph_box(0.2f, 0.1f, 0.2f, 0.05f, 0.05f, 0.05f, 0);
        memset(forces, 0, sizeof forces);
        forces[0].type = GP_FORCE_UNIFORM; forces[0].vector[2] = 3.0f; forces[0].radius = 0.2f;
        forces[1].type = GP_FORCE_RADIAL; forces[1].strength = 5.0f; forces[1].center[0] = 0.3f; forces[1].radius = 0.5f;
        s.colliders = walls; s.collider_count = 2;
        s.forces = forces; s.force_count = 2;
        s.gravity[1] = -9.81;
        s.dt = 1e-3;
        info[5].kind = GP_KIND_GRANULAR;   /* a grain: a boundary particle to the fluid */
        p[5].radius = 0.01f;
        cpu_sph_compute(&s, out);
        cpu_sph_compute_grid(&s, grid);
        for (k = 0; k < n; ++k) {
            double e = fabs(out[k].density - grid[k].density) / out[k].density_abs +
                       fabs(out[k].pressure - grid[k].pressure) / out[k].pressure_abs;
            uint32_t c;
            for (c = 0; c < 3; ++c) e += fabs(out[k].acceleration[c] - grid[k].acceleration[c]) / out[k].acceleration_abs;
            if (k == 5) {   /* the grain: no density of its own, the fluid's force on it */
                e = out[k].density + grid[k].density + (out[k].acceleration_abs > 0.0 ? 0.0 : 1.0);
                for (c = 0; c < 3; ++c) e += fabs(out[k].acceleration[c] - grid[k].acceleration[c]) / out[k].acceleration_abs;
            } else if (out[k].neighbors != grid[k].neighbors) e = 1.0;
            worst = e > worst || e != e ? e : worst;
        }
        CHECKF(worst < 1e-12, "brute force and grid differ by %g", worst);
        free(p); free(v); free(info); free(out); free(grid);
    }
}

/* ---- gp_fluid_compute against the reference ------------------------------------------------- */

/* n particles at random in [lo, hi]: fluid of phase 0, of phase 1 (every third, with two_phases)
   and every tenth granular (which must neither move nor enter the fluid's sums); velocities in
   [-1, 1] m/s, masses 0.8 to 1.2 times their material's. One batch per kind and phase. */
static void sph_add_random(gp_world* w, uint32_t n, const float lo[3], const float hi[3], int two_phases, uint64_t seed) {
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 11;
    float* xyz = (float*)sph_alloc((size_t)n * 12);
    float* vel = (float*)sph_alloc((size_t)n * 12);
    float* mass = (float*)sph_alloc((size_t)n * 4);
    uint32_t batch, i, a;
    for (batch = 0; batch < 3; ++batch) {
        gp_particles_desc d;
        gp_fluid_material m;
        uint32_t count = 0;
        CHECK(gp_fluid_material_get(w, batch == 1 ? 1 : 0, &m) == GP_OK);
        for (i = 0; i < n; ++i) {
            uint32_t which = i % 10 == 9 ? 2u : two_phases && i % 3 == 0 ? 1u : 0u;
            if (which != batch) continue;
            for (a = 0; a < 3; ++a) {
                xyz[3 * count + a] = (float)(lo[a] + (hi[a] - lo[a]) * sph_unit(&state));
                vel[3 * count + a] = (float)(2.0 * sph_unit(&state) - 1.0);
            }
            mass[count++] = (float)(m.mass * (0.8 + 0.4 * sph_unit(&state)));
        }
        if (!count) continue;
        memset(&d, 0, sizeof d);
        d.count = count;
        d.positions = xyz;
        d.velocities = vel;
        d.masses = mass;
        d.kind = batch == 2 ? GP_KIND_EFFECT : GP_KIND_FLUID;   /* effects: not the fluid's (their own stage moves them) */
        d.phase = batch == 1 ? 1 : 0;
        CHECKF(gp_particles_add(w, &d, NULL) == GP_OK, "gp_particles_add: %s", fixture_log);
    }
    free(xyz); free(vel); free(mass);
}

/* The configurations of the comparison. */
enum { SPH_TWO_MATERIALS, SPH_SOFT_WALLS_FORCES, SPH_STIFF_WALLS, SPH_BOUNDED_OUTSIDE, SPH_CONTINUITY, SPH_ONE_CELL, SPH_CONFIGS };
static const char* const sph_config_names[SPH_CONFIGS] = {
    "two materials, no walls", "soft viscous fluid, walls, forces", "stiff fluid, tank and obstacles",
    "bounded grid, particles outside it", "continuity model, two materials, tank and obstacle", "all in one cell"};

/* A world for configuration config with n random particles; s receives its setup. */
static gp_world* sph_random_world(int config, uint32_t n, uint64_t seed, sph_setup* s) {
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m = sph_default_material();
    double side = cbrt((double)(n ? n : 1)) * 0.05;   /* about one particle per l0^3 */
    float lo[3], hi[3];
    int a;
    memset(&d, 0, sizeof d);
    memset(s, 0, sizeof *s);
    d.max_particles = n ? n : 1;
    d.grid.cell_size = SPH_CELL;
    if (config == SPH_BOUNDED_OUTSIDE) {   /* a box of 4 x 3 x 5 cells, particles over twice that */
        d.grid.mode = GP_GRID_BOUNDED;
        d.grid.dims[0] = 4; d.grid.dims[1] = 3; d.grid.dims[2] = 5;
    }
    w = fixture_world(&d);
    if (!w) return NULL;
    for (a = 0; a < 3; ++a) { lo[a] = (float)(-0.1 * side); hi[a] = (float)(1.1 * side); }
    switch (config) {
    case SPH_TWO_MATERIALS:   /* and a different spacing, density, stiffness, viscosity, p0 and tension */
        m.spacing = 0.04f; m.smoothing_radius = 0.08f; m.rest_density = 700.0f; m.stiffness = 3000.0f;
        m.viscosity = 0.1f; m.rest_pressure = 50.0f; m.allow_tension = true;
        CHECK(gp_fluid_material_set(w, 1, &m) == GP_OK);
        break;
    case SPH_SOFT_WALLS_FORCES:   /* pressure small, so that viscosity, walls and forces dominate */
        m.stiffness = 1e-3f; m.viscosity = 0.5f; m.rest_pressure = 0.2f;
        CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
        s->colliders[0] = sph_box((float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side),
                                  (float)(0.5 * side), (float)(0.5 * side), 1);
        s->colliders[1].shape = GP_SHAPE_SPHERE;
        s->colliders[1].center[0] = s->colliders[1].center[1] = s->colliders[1].center[2] = (float)(0.3 * side);
        s->colliders[1].radius = (float)(0.15 * side);
        s->collider_count = 2;
        s->forces[0].type = GP_FORCE_UNIFORM;
        s->forces[0].vector[0] = 4.0f; s->forces[0].vector[2] = -2.0f;
        s->forces[0].center[0] = (float)side; s->forces[0].radius = (float)(0.7 * side);
        s->forces[1].type = GP_FORCE_RADIAL;
        s->forces[1].strength = -6.0f;
        s->forces[1].center[1] = (float)(0.5 * side); s->forces[1].radius = (float)side;
        s->force_count = 2;
        s->gravity[0] = 1.0f; s->gravity[1] = -9.0f;
        break;
    case SPH_STIFF_WALLS:   /* a tank, a capsule and a tilted plane */
        s->colliders[0] = sph_box((float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side),
                                  (float)(0.5 * side), (float)(0.5 * side), 1);
        s->colliders[1].shape = GP_SHAPE_CAPSULE;
        s->colliders[1].center[0] = (float)(0.5 * side); s->colliders[1].center[1] = (float)(0.55 * side);   /* ends (0.2, 0.6, 0) */
        s->colliders[1].center[2] = (float)(0.35 * side);                                                   /* and (0.8, 0.5, 0.7) */
        s->colliders[1].axis[0] = 0.6f; s->colliders[1].axis[1] = -0.1f; s->colliders[1].axis[2] = 0.7f;   /* normalised by the add */
        s->colliders[1].half_height = (float)(0.5 * side * sqrt(0.36 + 0.01 + 0.49));
        s->colliders[1].radius = (float)(0.1 * side);
        s->colliders[2].shape = GP_SHAPE_PLANE;
        s->colliders[2].center[1] = (float)(0.1 * side);
        s->colliders[2].normal[0] = 0.3f; s->colliders[2].normal[1] = 1.0f;
        s->collider_count = 3;
        break;
    case SPH_BOUNDED_OUTSIDE:
        for (a = 0; a < 3; ++a) { lo[a] = (float)(-0.5 * side); hi[a] = (float)(0.8 * side); }
        break;
    case SPH_CONTINUITY:   /* both materials carry their density, with different diffusions and
                              artificial viscosities */
        m.density_model = GP_DENSITY_CONTINUITY;
        m.diffusion = 0.3f;
        m.artificial_viscosity = 0.1f;
        CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
        m.rest_density = 700.0f; m.stiffness = 3000.0f; m.diffusion = 0.2f; m.artificial_viscosity = 0.5f;
        CHECK(gp_fluid_material_set(w, 1, &m) == GP_OK);
        s->colliders[0] = sph_box((float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side), (float)(0.5 * side),
                                  (float)(0.5 * side), (float)(0.5 * side), 1);
        s->colliders[1].shape = GP_SHAPE_SPHERE;
        s->colliders[1].center[0] = s->colliders[1].center[1] = s->colliders[1].center[2] = (float)(0.6 * side);
        s->colliders[1].radius = (float)(0.15 * side);
        s->collider_count = 2;
        break;
    default:   /* SPH_ONE_CELL: every particle within 0.3 cell of one point, each the others' neighbour */
        for (a = 0; a < 3; ++a) { lo[a] = 0.31f * SPH_CELL; hi[a] = 0.61f * SPH_CELL; }
        break;
    }
    sph_apply(w, s);
    sph_add_random(w, n, lo, hi, config == SPH_TWO_MATERIALS || config == SPH_CONTINUITY, seed);
    return w;
}

/* gp_fluid_compute moves nothing: each id keeps the position and velocity it was given. */
static void sph_check_unmoved(const sph_state* before, const sph_state* after, const char* what) {
    uint32_t* slot = sph_slots_by_id(after, before->n);
    uint32_t k, moved = 0;
    for (k = 0; k < before->n; ++k) {
        uint32_t to = slot[before->info[k].id];
        if (to == UINT32_MAX || memcmp(before->position + k, after->position + to, 16) != 0 ||
            memcmp(before->velocity + k, after->velocity + to, 16) != 0 || before->info[k].kind != after->info[to].kind)
            ++moved;
    }
    CHECKF(moved == 0 && after->n == before->n, "%s: %u particles changed or lost by gp_fluid_compute", what, moved);
    free(slot);
}

/* One world, computed once, against the reference for the same slots. */
static sph_error sph_compute_case(int config, uint32_t n, uint64_t seed) {
    sph_setup s;
    sph_error e;
    char what[128];
    gp_world* w = sph_random_world(config, n, seed, &s);
    sph_state before, after;
    cpu_sph_particle* ref;
    cpu_sph_scene scene;
    gp_result r;
    memset(&e, 0, sizeof e);
    if (!w) return e;
    snprintf(what, sizeof what, "%s, n=%u", sph_config_names[config], n);
    if (config == SPH_CONTINUITY) {   /* a substep first, so that the densities carried differ */
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = SPH_COMPUTE_DT;
        step.substeps = 1;
        CHECK(gp_world_step(w, &step) == GP_OK);
    }
    before = sph_read(w, config == SPH_CONTINUITY);   /* after the substep: the densities the particles carry */
    r = gp_fluid_compute(w, SPH_COMPUTE_DT);
    CHECKF(r == GP_OK, "%s: gp_fluid_compute: %s %s", what, gp_result_string(r), fixture_log);
    after = sph_read(w, 1);
    sph_check_unmoved(&before, &after, what);
    ref = (cpu_sph_particle*)sph_alloc((size_t)after.n * sizeof *ref);
    scene = sph_scene(&after, &s, (double)SPH_COMPUTE_DT);
    if (config == SPH_CONTINUITY) {   /* each id's carried density, in the slots of after */
        uint32_t* slot = sph_slots_by_id(&before, after.n), k, varied = 0;
        float* carried = (float*)sph_alloc((size_t)after.n * 4 + 4);
        for (k = 0; k < after.n; ++k) {
            carried[k] = before.density[slot[after.info[k].id]];
            varied += fabsf(carried[k] - carried[0]) > 1e-3f * carried[0];
        }
        CHECKF(after.n < 7 || varied > after.n / 2, "%s: the carried densities hardly differ (%u of %u)", what, varied, after.n);
        scene.carried = carried;
        cpu_sph_compute(&scene, ref);
        free(carried);
        free(slot);
    } else {
        cpu_sph_compute(&scene, ref);
    }
    e = sph_compare(&after, ref, what);
    {
        gp_grid_stats g;
        CHECK(gp_grid_stats_read(w, &g) == GP_OK);
        CHECKF(g.truncated == 0, "%s: %u neighbour loops cut short", what, g.truncated);
    }
    free(ref);
    sph_state_free(&before);
    sph_state_free(&after);
    gp_world_destroy(w);
    return e;
}

/* One gp_fluid_compute of w's particles as they stand (a substep of SPH_COMPUTE_DT), read into
   *st, and the double reference's result for the same slots (free it). */
static cpu_sph_particle* sph_compute_with_reference(gp_world* w, sph_setup* s, sph_state* st) {
    cpu_sph_particle* ref;
    cpu_sph_scene scene;
    CHECK(gp_fluid_compute(w, SPH_COMPUTE_DT) == GP_OK);
    *st = sph_read(w, 1);
    ref = (cpu_sph_particle*)sph_alloc((size_t)st->n * sizeof *ref);
    scene = sph_scene(st, s, (double)SPH_COMPUTE_DT);
    cpu_sph_compute(&scene, ref);
    return ref;
}

/* Monaghan's artificial viscosity, where it dominates: a block on the lattice (pressure 0, tension
   clamped) with random velocities of 1 m/s, two materials of different alpha and sound, no
   gravity, no walls. The GPU's accelerations match the double reference; the pair terms are
   equal and opposite across materials (total momentum change 0 to float rounding); the term is
   there (the accelerations are those of alpha 0 plus a large part); alpha outside [0, 1] refused. */
static void sph_av_run(float alpha0, float alpha1, sph_state* out, cpu_sph_particle** ref) {
    gp_world_desc d;
    gp_world* w;
    sph_setup s;
    gp_fluid_material m = sph_default_material();
    gp_particles_desc pd;
    const double corner[3] = {0.0, 0.0, 0.0};
    gp_particle_position* lattice = sph_lattice(8, 8, 8, 0.5 * SPH_CELL, corner);
    float xyz[3 * 512], vel[3 * 512];
    uint64_t state = 5;
    uint32_t k, batch;
    memset(&d, 0, sizeof d);
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    *ref = NULL;
    d.max_particles = 512;
    d.grid.cell_size = SPH_CELL;
    if (!(w = fixture_world(&d))) { free(lattice); return; }
    s.gravity[1] = 1e-30f;   /* none, to float rounding (a zero gravity means the default) */
    m.viscosity = 1e-6f;     /* water's: the artificial viscosity is most of the dissipation */
    m.artificial_viscosity = alpha0;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    m.stiffness = 3000.0f; m.artificial_viscosity = alpha1;   /* re and mu shared: the solver's pairs are symmetric */
    CHECK(gp_fluid_material_set(w, 1, &m) == GP_OK);
    sph_apply(w, &s);
    for (batch = 0; batch < 2; ++batch) {
        uint32_t n = 0;
        for (k = 0; k < 512; ++k) {
            if ((k % 2) != batch) continue;
            xyz[3 * n] = lattice[k].x; xyz[3 * n + 1] = lattice[k].y; xyz[3 * n + 2] = lattice[k].z;
            vel[3 * n] = (float)(2.0 * sph_unit(&state) - 1.0); vel[3 * n + 1] = (float)(2.0 * sph_unit(&state) - 1.0);
            vel[3 * n + 2] = (float)(2.0 * sph_unit(&state) - 1.0);
            ++n;
        }
        memset(&pd, 0, sizeof pd);
        pd.count = n; pd.positions = xyz; pd.velocities = vel; pd.kind = GP_KIND_FLUID; pd.phase = batch;
        pd.radius = 0.01f;
        CHECK(gp_fluid_material_get(w, batch, &m) == GP_OK);
        pd.mass = m.mass;
        CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    }
    *ref = sph_compute_with_reference(w, &s, out);
    m.artificial_viscosity = 1.5f;
    CHECK(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    m.artificial_viscosity = NAN;
    CHECK(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    gp_world_destroy(w);
    free(lattice);
}
static void test_sph_artificial_viscosity(void) {
    sph_state on, off;
    cpu_sph_particle *ref_on, *ref_off;
    double momentum[3] = {0, 0, 0}, scale = 0.0, change = 0.0, size = 0.0, largest = 0.0, worst = 0.0;
    uint32_t k;
    int c;
    sph_av_run(0.5f, 0.1f, &on, &ref_on);
    sph_av_run(0.0f, 0.0f, &off, &ref_off);
    if (!ref_on || !ref_off) { free(ref_on); free(ref_off); sph_state_free(&on); sph_state_free(&off); return; }
    sph_compare(&on, ref_on, "artificial viscosity 0.5 and 0.1");
    sph_compare(&off, ref_off, "no artificial viscosity");
    for (k = 0; k < on.n; ++k) {
        double a[3] = {on.acceleration[k].x, on.acceleration[k].y, on.acceleration[k].z};
        double b[3] = {off.acceleration[k].x, off.acceleration[k].y, off.acceleration[k].z};
        for (c = 0; c < 3; ++c) {
            momentum[c] += on.velocity[k].mass * a[c];
            scale += fabs(on.velocity[k].mass * a[c]);
            change += fabs(a[c] - b[c]);
            size += fabs(a[c]);
        }
    }
    /* the term alone, GPU against reference: the difference each makes, on less off (the shared
       comparison's scale is the pressure's, a thousand times this term's). The GPU's difference
       also carries the float rounding of the pressure terms it shares a sum with, which a driver
       may round differently in the two runs (NVIDIA's contracts the sum into fused multiply-adds:
       3.4e-3 m/s^2 of a 10 m/s^2 term on an H100): allowed at 1e-7 (a float epsilon) of the particle's term
       magnitudes on top of 1e-4 of the largest term. */
    for (k = 0; k < on.n; ++k) {
        double g[3] = {on.acceleration[k].x - off.acceleration[k].x, on.acceleration[k].y - off.acceleration[k].y,
                       on.acceleration[k].z - off.acceleration[k].z};
        for (c = 0; c < 3; ++c) {
            double r = ref_on[k].acceleration[c] - ref_off[k].acceleration[c];
            largest = fmax(largest, fabs(r));
            worst = fmax(worst, fabs(g[c] - r) - 1e-7 * (ref_on[k].acceleration_abs + ref_off[k].acceleration_abs));
        }
    }
    CHECKF(largest > 0.0 && worst <= 1e-4 * largest, "the artificial viscosity's term differs from the reference by %.3g m/s^2 "
           "beyond the pressure's rounding (largest term %.3g)", worst, largest);
    CHECKF(fabs(momentum[0]) + fabs(momentum[1]) + fabs(momentum[2]) < 1e-5 * scale,
           "the artificial viscosity's forces sum to (%.3g, %.3g, %.3g) N, against %.3g N of terms", momentum[0], momentum[1],
           momentum[2], scale);
    CHECKF(change > 0.5 * size, "the artificial viscosity changed the accelerations by %.3g of %.3g: hardly there", change, size);
    free(ref_on); free(ref_off);
    sph_state_free(&on); sph_state_free(&off);
}

/* A particle on a threshold (cpu_sph_particle.ambiguous): the continuity model counts a particle
   as free surface when the summation density of the positions around it is under 0.75 rho0, and
   a float GPU and the double reference may decide a particle within rounding of that either way
   (bench/RESULTS.md, the H100's run: DEM's contacts had the same kind). An 8 x 8 x 8 block on the
   lattice with random velocities of up to 1 m/s, no gravity, no walls, the particle at the middle
   of one face moved a tenth of a spacing out (so that it alone fills its kernel so much: 0.79 of
   rho0 at the material's own), the rest density chosen so that it sits exactly on 0.75 rho0 (the
   float of it): the reference marks it (1) and its neighbours (2, they take its pressure), the
   comparison sets them aside and finds every other particle within 1e-4, and a particle not on a
   threshold is not marked. */
static void test_sph_reference_threshold_set_aside(void) {
    const double corner[3] = {0.0, 0.0, 0.0};
    gp_particle_position* lattice = sph_lattice(8, 8, 8, 0.5 * SPH_CELL, corner);
    gp_fluid_material m = sph_default_material();
    gp_world_desc d;
    gp_world* w;
    gp_particles_desc pd;
    sph_setup s;
    sph_state st;
    cpu_sph_particle* ref;
    float xyz[3 * 512], vel[3 * 512];
    uint64_t state = 11;
    const uint32_t face = 0 + 8 * 4 + 64 * 4;   /* (0, 4, 4): the middle of the face x = 0 */
    uint32_t k, marked = 0, touched = 0, slot = UINT32_MAX;
    double summation = 0.0, mass;
    sph_error e;
    memset(&d, 0, sizeof d);
    memset(&s, 0, sizeof s);
    d.max_particles = 512;
    d.grid.cell_size = SPH_CELL;
    if (!(w = fixture_world(&d))) { free(lattice); return; }
    m.density_model = GP_DENSITY_CONTINUITY;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK && gp_fluid_material_get(w, 0, &m) == GP_OK);
    mass = m.mass;
    lattice[face].x -= (float)(0.05 * SPH_CELL);   /* a tenth of a spacing out: no other particle fills as much */
    for (k = 0; k < 512; ++k) {
        double dx = lattice[k].x - lattice[face].x, dy = lattice[k].y - lattice[face].y, dz = lattice[k].z - lattice[face].z;
        summation += mass * cpu_sph_w(sqrt(dx * dx + dy * dy + dz * dz), m.smoothing_radius);
        xyz[3 * k] = lattice[k].x; xyz[3 * k + 1] = lattice[k].y; xyz[3 * k + 2] = lattice[k].z;
        vel[3 * k] = (float)(2.0 * sph_unit(&state) - 1.0); vel[3 * k + 1] = (float)(2.0 * sph_unit(&state) - 1.0);
        vel[3 * k + 2] = (float)(2.0 * sph_unit(&state) - 1.0);
    }
    CHECKF(summation > 0.75 * m.rest_density && summation < 0.85 * m.rest_density, "the face's particle fills %.3f of its kernel",
           summation / m.rest_density);
    m.rest_density = (float)(summation / 0.75);   /* its own particles keep their mass: the face's particle on 0.75 rho0 */
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    s.gravity[1] = 1e-30f;   /* none, to float rounding (a zero gravity means the default) */
    sph_apply(w, &s);
    memset(&pd, 0, sizeof pd);
    pd.count = 512; pd.positions = xyz; pd.velocities = vel; pd.kind = GP_KIND_FLUID; pd.radius = 0.01f; pd.mass = (float)mass;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    ref = sph_compute_with_reference(w, &s, &st);
    for (k = 0; k < st.n; ++k) {
        if (st.info[k].id == face) slot = k;
        marked += (ref[k].ambiguous & 1u) != 0;
        touched += ref[k].ambiguous == 2u;
    }
    CHECKF(slot < st.n && ref[slot].ambiguous == 1u && marked == 1 && touched >= 10,
           "the face's particle on the free-surface threshold: marked %u (1 due), %u particles marked, %u neighbours marked",
           slot < st.n ? ref[slot].ambiguous : 99u, marked, touched);
    e = sph_compare(&st, ref, "a particle on the free-surface threshold");
    CHECKF(e.set_aside == marked + touched && e.compared + e.set_aside == 512, "%u set aside of %u marked, %u compared", e.set_aside,
           marked + touched, e.compared);
    free(ref);
    free(lattice);
    sph_state_free(&st);
    gp_world_destroy(w);
}

/* Fluid and solids (issue 10, gpuparticle.h section >>coupling): a jittered block of 512 fluid
   particles with random velocities, a rigid box of 64 particles beside it, moving and spinning,
   and three grains at its other side, as wide as the fluid's spacing (narrower than its smoothing
   radius: the fluid drags them, coupling_drag; two of them 0.012 m apart, within the fluid's
   smoothing radius, so that each counts the other in the crowd sharing its fluid). The GPU's density, pressure and acceleration of
   every fluid particle (the body's particles as its boundary particles, the grains' pull back on
   it) and the acceleration of every solid particle (the equal and opposite force over its mass; a
   grain's the drag and buoyancy, with gravity, which dem_contact adds) against the
   double-precision reference (tests/cpu_sph.c), to 1e-4 of the terms' magnitudes; at least 16
   solid particles (of 67) within reach of the fluid, the three grains among them. */
static void test_sph_coupling_matches_reference(void) {
    uint64_t state = 1234;
    const double corner[3] = {0.0, 0.0, 0.0};
    gp_world* w = fixture_grid_world(1000, 0.02f, 0);
    gp_fluid_material m;
    gp_granular_material g;
    const float box_half[3] = {0.02f, 0.02f, 0.02f}, box_at[3] = {0.103f, 0.041f, 0.038f};
    const float box_velocity[3] = {-0.3f, 0.2f, 0.0f}, box_spin[3] = {0.0f, 4.0f, -2.0f};
    gp_particles_desc pd;
    gp_particle_position* lattice;
    sph_setup setup;
    sph_state st;
    cpu_sph_particle* ref;
    float xyz[3 * 512], vel[3 * 512], grains[9] = {-0.012f, 0.02f, 0.03f, -0.013f, 0.05f, 0.05f, -0.011f, 0.029f, 0.038f};
    uint32_t k, solids = 0, bad = 0, dragged = 0, set_aside = 0;
    double worst = 0.0;
    if (!w) return;
    memset(&setup, 0, sizeof setup);
    sph_apply(w, &setup);
    memset(&m, 0, sizeof m);
    m.spacing = 0.01f;
    m.viscosity = 0.001f;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    setup.materials[0] = cpu_sph_material_make(&m);
    lattice = sph_lattice(8, 8, 8, 0.01, corner);
    for (k = 0; k < 512; ++k) {
        xyz[3 * k] = lattice[k].x + (float)(0.002 * (sph_unit(&state) - 0.5));
        xyz[3 * k + 1] = lattice[k].y + (float)(0.002 * (sph_unit(&state) - 0.5));
        xyz[3 * k + 2] = lattice[k].z + (float)(0.002 * (sph_unit(&state) - 0.5));
        vel[3 * k] = (float)(sph_unit(&state) - 0.5); vel[3 * k + 1] = (float)(sph_unit(&state) - 0.5);
        vel[3 * k + 2] = (float)(sph_unit(&state) - 0.5);
    }
    free(lattice);
    memset(&pd, 0, sizeof pd);
    pd.count = 512; pd.positions = xyz; pd.velocities = vel; pd.kind = GP_KIND_FLUID; pd.radius = 0.005f; pd.mass = m.mass;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    memset(&g, 0, sizeof g);
    g.diameter = 0.01f;
    g.density = 800.0f;
    CHECK(gp_granular_material_set(w, 0, &g) == GP_OK);
    fixture_box_body(w, 0, box_half, box_at, box_velocity, box_spin, NULL);
    memset(&pd, 0, sizeof pd);
    pd.count = 3; pd.positions = grains; pd.kind = GP_KIND_GRANULAR; pd.radius = 0.005f;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    ref = sph_compute_with_reference(w, &setup, &st);
    sph_compare(&st, ref, "fluid beside solids");
    for (k = 0; k < st.n; ++k) {
        uint32_t kind = st.info[k].kind & 0xffu, c;
        double a[3] = {ref[k].acceleration[0], ref[k].acceleration[1], ref[k].acceleration[2]}, e = 0.0;
        const float* got = &st.acceleration[k].x;
        if (kind != GP_KIND_GRANULAR && kind != GP_KIND_RIGID) continue;
        if (ref[k].ambiguous) { ++set_aside; continue; }   /* a fluid neighbour's threshold within rounding (sph_compare) */
        if (kind == GP_KIND_GRANULAR) a[1] += setup.gravity[1];
        for (c = 0; c < 3; ++c) e += (got[c] - a[c]) * (got[c] - a[c]);
        e = sqrt(e) / (ref[k].acceleration_abs + (kind == GP_KIND_GRANULAR ? fabs(setup.gravity[1]) : 0.0) + 1e-30);   /* + g's rounding */
        worst = fmax(worst, e);
        if (!(e <= SPH_TOLERANCE) && bad++ < 3)
            fprintf(stderr, "    solid slot %u: acceleration (%g %g %g), reference (%g %g %g), scale %g\n", k, got[0], got[1], got[2],
                    a[0], a[1], a[2], ref[k].acceleration_abs);
        solids += ref[k].acceleration_abs > 0.0;
        dragged += kind == GP_KIND_GRANULAR && ref[k].acceleration_abs > 0.0;
    }
    CHECKF(dragged == 3, "%u of the 3 grains feel the fluid's drag", dragged);
    CHECKF(bad == 0 && solids >= 16, "%u of the solids' fluid forces differ from the reference (worst %.3g of the terms), %u solids "
           "feel the fluid", bad, worst, solids);
    sph_check_set_aside("the solids beside the fluid", set_aside, solids);
    free(ref);
    sph_state_free(&st);
    gp_world_destroy(w);
}

/* The presets (gp_fluid_preset_material): their documented values, refused values, and a small
   dam break with each (a column 0.06 m wide and 0.12 m high in a tank 0.6 m long, spacing 0.01 m,
   0.3 s): every particle stays finite and slower than 3 x 2 sqrt(g H), and the front runs farther the
   thinner the fluid: water (nu 1e-6) ahead of oil (9e-5), oil of honey (7e-3), honey of lava
   (0.1), each by at least half a spacing (measured on llvmpipe: 0.452, 0.425, 0.134, 0.063 m). */
static void test_sph_presets(void) {
    static const float density[] = {1000.0f, 910.0f, 1420.0f, 2700.0f}, viscosity[] = {1.0e-6f, 9.0e-5f, 7.0e-3f, 0.1f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.06f, 0.12f, 0.04f};
    double front[4] = {0, 0, 0, 0}, fastest = 0.0, bound = 3.0 * 2.0 * sqrt(9.81 * 0.12);
    gp_fluid_material m;
    uint32_t bad = 0;
    int p;
    {   /* refused, and said on stderr: there is no world, so no logger of the user's to call */
        char said[512];
        int caught = fixture_stderr_begin();
        CHECK(gp_fluid_preset_material((gp_fluid_preset)99, 0.01f, &m) == GP_ERROR_INVALID_ARGUMENT);
        fixture_stderr_end(said, sizeof said);
        CHECKF(!caught || strstr(said, "preset 99 is not a gp_fluid_preset"), "stderr said: %s", said);
        caught = fixture_stderr_begin();
        CHECK(gp_fluid_preset_material(GP_FLUID_WATER, 0.01f, NULL) == GP_ERROR_INVALID_ARGUMENT);
        fixture_stderr_end(said, sizeof said);
        CHECKF(!caught || strstr(said, "material is NULL"), "stderr said: %s", said);
        CHECK(caught);
    }
    CHECK(gp_fluid_preset_material(GP_FLUID_PRESET_DEFAULT, 0.02f, &m) == GP_OK && m.spacing == 0.02f && m.viscosity == 0.0f);
    for (p = 0; p < 4; ++p) {
        gp_world_desc d;
        gp_world* w;
        gp_collider_desc tank = sph_box(0.3f, 0.1f, 0.02f, 0.3f, 0.1f, 0.02f, 1);
        gp_collider handle;
        gp_particle_position* pos;
        gp_particle_velocity* vel;
        uint32_t n, k, frame;
        memset(&d, 0, sizeof d);
        d.max_particles = 400;
        d.grid.cell_size = 0.02f;
        if (!(w = fixture_world(&d))) return;
        CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
        CHECK(gp_fluid_preset_material((gp_fluid_preset)(GP_FLUID_WATER + p), 0.01f, &m) == GP_OK);
        CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK && gp_fluid_material_get(w, 0, &m) == GP_OK);
        CHECKF(m.rest_density == density[p] && m.viscosity == viscosity[p] && m.density_model == GP_DENSITY_CONTINUITY,
               "preset %d: %g kg/m^3, %g m^2/s, model %d", p, m.rest_density, m.viscosity, (int)m.density_model);
        CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, NULL) == GP_OK);
        n = gp_particle_count(w);
        for (frame = 0; frame < 18; ++frame) {
            fixture_run(w, 1);
        }
        pos = (gp_particle_position*)sph_alloc((size_t)n * sizeof *pos);
        vel = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *vel);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, pos) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, vel) == GP_OK);
        for (k = 0; k < n; ++k) {
            double speed = sqrt((double)vel[k].x * vel[k].x + (double)vel[k].y * vel[k].y + (double)vel[k].z * vel[k].z);
            if (!isfinite(speed) || !isfinite(pos[k].x)) { ++bad; continue; }
            fastest = fmax(fastest, speed);
            if (pos[k].y < 0.02f) front[p] = fmax(front[p], pos[k].x);
        }
        if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    preset %d: front %.4f m at 0.3 s\n", p, front[p]);
        free(pos); free(vel);
        gp_world_destroy(w);
    }
    CHECKF(bad == 0 && fastest < bound, "%u particles not finite, the fastest at %.2f m/s (bound %.2f)", bad, fastest, bound);
    CHECKF(front[0] >= front[1] + 0.005 && front[1] >= front[2] + 0.005 && front[2] >= front[3] + 0.005,
           "fronts at 0.3 s: water %.3f, oil %.3f, honey %.3f, lava %.3f m", front[0], front[1], front[2], front[3]);
}

/* The dam break of issue 10 with water (gp_fluid_preset_material's GP_FLUID_WATER: the continuity
   model, nu = 1e-6 m^2/s, no other setting; what the default is to become): a column a = 0.1 m wide, 2a high and 0.1 m deep at the end of a closed tank
   `length` long and 0.3 m high, spacing l0 (the block fills its box on the lattice). *n receives
   the particle count. */
static gp_world* sph_dam_world(float l0, float length, uint32_t* n) {
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.2f, 0.1f};
    memset(&d, 0, sizeof d);
    d.max_particles = (uint32_t)gp_lattice_block_count(l0, lo, hi);
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return NULL;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK);
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.5f * length, 0.15f, 0.05f, 0.5f * length, 0.15f, 0.05f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, n) == GP_OK);
    return w;
}

/* What a dam break's frame shows: positions, velocities and densities read back, and from them
   the energy (kinetic, potential over the floor, and the internal energy the fluid's compression
   stores, e(rho) = k (ln(rho / rho0) + rho0 / rho - 1) per kilogram for eq. 5's p = k (rho - rho0)
   above rho0, zero below, where the pressure is clamped), the fastest speed, the particles that
   are not finite, the front (the farthest particle within 0.02 m of the floor, plus half a
   spacing) and the column's height at the back wall (the highest particle within 0.02 m of it,
   plus half a spacing). */
typedef struct sph_dam_frame { double energy, fastest, front, height; uint32_t bad; } sph_dam_frame;
static sph_dam_frame sph_dam_read(gp_world* w, uint32_t n, float l0, gp_particle_position* p, gp_particle_velocity* v, float* rho) {
    sph_dam_frame f;
    gp_fluid_material m;
    uint32_t k;
    memset(&f, 0, sizeof f);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_DENSITY, 0, n, rho) == GP_OK);
    for (k = 0; k < n; ++k) {
        double s2 = (double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z, r = rho[k] / m.rest_density;
        if (!isfinite(s2) || !isfinite(p[k].x) || !isfinite(p[k].y) || !isfinite(p[k].z) || !isfinite(r)) { ++f.bad; continue; }
        f.fastest = fmax(f.fastest, sqrt(s2));
        f.energy += v[k].mass * (0.5 * s2 + 9.81 * p[k].y);
        f.energy += fixture_compression_energy(&m, v[k].mass, rho[k]);
        if (p[k].y < 0.02f) f.front = fmax(f.front, p[k].x + 0.5 * l0);
        if (p[k].x < 0.02f) f.height = fmax(f.height, p[k].y + 0.5 * l0);
    }
    return f;
}

/* Energy in a closed tank never grows (issue 10), with water: the dam break in a tank
   0.4 m long at spacing 0.02 m, sampled every frame of 1/60 s over 2 s of its collapse, its
   impact on the far wall and its sloshing. Counted: kinetic, potential and the compression's
   internal energy (sph_dam_read), so that what compressibility exchanges is inside the sum; the
   bound stated for what is left (the sampling between substeps, the diffusion's density moves):
   the energy never above its start by 0.5%, and never more than 1% of the start above the least
   it had before (measured on llvmpipe: never above the start, at most 0.5% back up after a dip;
   2 s end at 36% of the start). Every particle stays finite, and no particle is ever faster
   than the ideal front 2 sqrt(g H) (2.8 m/s, H = 0.2 m): not the surge, nor what the far wall
   throws up (measured on llvmpipe: 2.62 m/s at most, 2.72 since blocks start hydrostatic, 2.77 since the density's 0.5% floor (bench/RESULTS.md: this scene's first impact sits on the bound, in other tank lengths over it); single spray particles reached 3.5 m/s
   before the free surface carried no pressure, sph_continuity; the walls' old continuity term,
   half the mirror's, pumped this dam break to 1,320 m/s).
   Before 0.4.0 the walls' particles entered the density rate once, as if at rest, while their
   pressure pushed as the particle's mirror: energy came in at every wall contact (this dam
   break without diffusion: 3% before the far wall, 40% after). */
static void test_sph_dam_break_energy(void) {
    const float l0 = 0.02f;
    const double bound = 2.0 * sqrt(9.81 * 0.2);
    uint32_t n = 0, frame, bad = 0;
    gp_world* w = sph_dam_world(l0, 0.4f, &n);
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    double start = 0.0, least = 0.0, most = 0.0, regain = 0.0, surge = 0.0, fastest = 0.0;
    bool hit = false;
    if (!w) return;
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    for (frame = 1; frame <= 120; ++frame) {
        sph_dam_frame f;
        fixture_run(w, 1);
        f = sph_dam_read(w, n, l0, p, v, rho);
        if (frame == 1) start = least = f.energy;
        most = fmax(most, f.energy);
        regain = fmax(regain, f.energy - least);
        least = fmin(least, f.energy);
        hit = hit || f.front > 0.4 - 2.0 * l0;
        if (!hit) surge = fmax(surge, f.fastest);
        fastest = fmax(fastest, f.fastest);
        bad += f.bad;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    t %.3f s: energy %.5f J (%.4f of the start), fastest %.2f m/s, front %.3f m\n", frame / 60.0, f.energy,
                    f.energy / start, f.fastest, f.front);
    }
    CHECKF(bad == 0 && gp_particle_count(w) == n, "%u particle frames not finite; %u particles of %u", bad, gp_particle_count(w), n);
    CHECKF(most <= 1.005 * start && regain <= 0.01 * start, "the energy went from %.5f J to %.5f J at most, and came back up "
           "%.5f J (%.2f%% of the start) after a dip", start, most, regain, 100.0 * regain / start);
    CHECKF(hit && surge < bound, "the surge (before the far wall: %s) has a particle at %.2f m/s; the ideal front moves at %.2f",
           hit ? "met" : "never met", surge, bound);
    CHECKF(fastest < bound, "after the impact a particle reaches %.2f m/s (2 sqrt(g H) = %.2f)", fastest, bound);
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* The positions' own density of a read-back state: the double-precision reference (tests/cpu_sph.c)
   with material fm's summation model on st's positions and the given colliders. Free the result. */
static cpu_sph_particle* sph_positions_density(const sph_state* st, const gp_fluid_material* fm, const gp_collider_desc* colliders,
                                               uint32_t collider_count) {
    gp_fluid_material summation = *fm;
    cpu_sph_material m;
    cpu_sph_scene scene;
    cpu_sph_particle* out = (cpu_sph_particle*)sph_alloc((size_t)st->n * sizeof *out);
    summation.density_model = GP_DENSITY_SUMMATION;
    m = cpu_sph_material_make(&summation);
    memset(&scene, 0, sizeof scene);
    scene.count = st->n;
    scene.position = st->position;
    scene.velocity = st->velocity;
    scene.info = st->info;
    scene.materials = &m;
    scene.material_count = 1;
    scene.colliders = colliders;
    scene.collider_count = collider_count;
    cpu_sph_compute(&scene, out);
    return out;
}

/* The fluid keeps its volume while it sloshes (issue 10: water by default). A dam break of water
   0.1 x 0.2 x 0.03 m at spacing 0.01 m in a tank 0.2 m long, watched 1.5 s (its surge meets the
   far wall at about 0.15 s and sloshes back and forth): then the positions' own summation density
   (eq. 4 with the walls' share, eq. 13: the double-precision reference, tests/cpu_sph.c, run on
   the read-back positions with the summation model) over the particles with fluid at least re
   and half a spacing above them (the ones whose kernel the fluid fills). A fluid that keeps its
   volume has it at rho0 to within the continuity model's own swings ((u / c0)^2, under 1%) and
   the kernel's sampling of a disordered arrangement. Measured on llvmpipe: 0.9989 rho0 (the
   densities the particles carry: 1.0006 rho0) since the carried density relaxes towards the
   positions' where a particle's kernel is whole (sph_continuity.comp, 2026-11-28); 0.952 before
   (5% more room than the fluid has: the spiky kernel of the density's rate reads a disordered
   packing as denser, and the floor forgets expansions), and 0.910 before the carried density's
   floor let it remember an expansion (the issue's dam break in its 0.4 m tank, 0.1 m wide, by
   this measure: 20% after 4 s of sloshing, 10.5% with the floor; bench/RESULTS.md, "The floor at
   0.5%" and "Interior relaxation"). Tested: the mean within 1.5% of rho0, which both earlier
   forms fail. (A tank 0.05 m wide and 2 s, as first written: 0.942 against 0.905, at twice the
   time.) */
static void test_sph_dam_break_keeps_volume(void) {
    const float l0 = 0.01f, lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.2f, 0.03f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material fm;
    gp_collider_desc tank = sph_box(0.1f, 0.15f, 0.015f, 0.1f, 0.15f, 0.015f, 1);
    gp_collider handle;
    cpu_sph_particle* out;
    sph_state st;
    uint32_t n = 0, i, j, inner = 0;
    double sum = 0.0, carried = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 1000;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &fm) == GP_OK && gp_fluid_material_set(w, 0, &fm) == GP_OK);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 600);
    fixture_run(w, 90);
    st = sph_read(w, 1);
    CHECK(gp_fluid_material_get(w, 0, &fm) == GP_OK);
    out = sph_positions_density(&st, &fm, &tank, 1);
    for (i = 0; i < st.n; ++i) {   /* the highest particle of i's column, within a spacing across */
        double top = st.position[i].y;
        for (j = 0; j < st.n; ++j)
            if (fabs(st.position[j].x - st.position[i].x) < l0 && fabs(st.position[j].z - st.position[i].z) < l0)
                top = fmax(top, st.position[j].y);
        if (st.position[i].y + fm.smoothing_radius + 0.5 * l0 > top) continue;
        sum += out[i].density / fm.rest_density;
        carried += st.density[i] / fm.rest_density;
        ++inner;
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    after 1.5 s: %u particles under re of fluid; their summation density %.4f rho0, carried %.4f rho0\n", inner,
                sum / (inner ? inner : 1), carried / (inner ? inner : 1));
    CHECKF(inner >= n / 4, "only %u of %u particles have re of fluid above them", inner, n);
    CHECKF(fabs(sum / (inner ? inner : 1) - 1.0) < 0.015, "the fluid's positions stand at %.4f rho0 (the particles carry %.4f rho0): "
           "its volume grew by %.1f%%", sum / (inner ? inner : 1), carried / (inner ? inner : 1), 100.0 * (inner ? inner / sum - 1.0 : 0.0));
    free(out);
    sph_state_free(&st);
    gp_world_destroy(w);
}

/* A block of water (GP_FLUID_WATER) 0.12 m wide dropped from 0.3 m onto the floor of a box tank
   0.4 m wide, spacing 0.02 m, watched 1.5 s, every frame: its energy (kinetic, potential and
   compression, sph_dam_read's) never above its start by 0.5%, every particle finite, and the
   fastest particle below three times the impact speed sqrt(2 g h) = 2.4 m/s. Before the free
   surface's cap (sph_continuity.comp) the splash pumped itself up: 4.35 times its energy at 1.5 s,
   particles at 10.9 m/s, the puddle's densities all above rho0. Measured on llvmpipe after: the
   energy falls at the impact (to about a quarter: the splash and the walls' pushes) and keeps
   falling; the fastest particle 3.4 m/s (5.1 before the floor of 2026-11-28), below 2 m/s by
   1.4 s. Read every frame since 2026-11-28: a 2% density floor tried then threw a droplet at
   8.5 m/s in a frame between the third ones that were read. The fastest droplet of one start is
   a noisy figure (bench/RESULTS.md, "The floor at 0.5%"): over 14 starting heights it ranged
   3.2-9.8 m/s with the old floor, 3.3-6.8 with the one that landed (4.9 on average with both):
   a run whose float sums differ (another GPU) may throw one past the bound. */
/* Two free-surface particles almost on top of each other part gently. Water at 0.02 m, five
   particles as `sph_dam_break_energy`'s sloshing had them at t = 0.917 s with each cell in order
   of id (2026-11-28): two of them in the tank's vertical edge at x = 0, held at half a spacing
   from the side wall z = 0, 0.0016 m apart and closing (on the free surface neither has pressure,
   so nothing keeps them apart), the other three around them. A frame later the two are 0.0007 m
   apart (0.035 spacing); with the walls they fill a neighbourhood and carry pressure, and the
   continuity model's diffusion between them divided by r^2 while the spiky kernel's slope stays
   finite at r = 0: they traded 40-64 kg/m^3 in a substep and flew apart at 2.35 and 2.6 m/s (that
   run's energy rose by 1.7% of its start in one frame). The diffusion now divides by at least
   (0.1 h)^2 (h = re / 2; the eta^2 of DualSPHysics and of this library's artificial viscosity),
   which no pair a tenth of a spacing apart or more feels. Tested over a frame of 28 substeps: no
   particle faster than the fastest start (0.68 m/s) plus what gravity gives, plus 0.5 m/s
   (measured: 0.67 m/s; without the floor 3.24). */
static void test_sph_pair_on_top_parts_gently(void) {
    const float l0 = 0.02f, dt = 1.0f / 1680.0f;
    const float xyz[15] = {0.0195f, 0.1136f, 0.0100f, 0.0187f, 0.1151f, 0.0100f, 0.0358f, 0.1142f, 0.0100f,
                           0.0274f, 0.0891f, 0.0350f, 0.0410f, 0.1048f, 0.0393f};
    const float vel[15] = {-0.27f, 0.62f, 0.0f, -0.25f, 0.50f, 0.0f, -0.39f, 0.22f, 0.0f, 0.40f, 0.20f, 0.35f, -0.32f, 0.44f, -0.11f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particles_desc pd;
    gp_particle_velocity v[5];
    int step;
    double fastest = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 16;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK);
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.2f, 0.15f, 0.05f, 0.2f, 0.15f, 0.05f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 5; pd.positions = xyz; pd.velocities = vel; pd.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    for (step = 0; step < 28; ++step) {
        gp_step_desc st;
        int k;
        memset(&st, 0, sizeof st);
        st.dt = dt;
        st.substeps = 1;
        CHECK(gp_world_step(w, &st) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 5, v) == GP_OK);
        for (k = 0; k < 5; ++k)
            fastest = fmax(fastest, sqrt((double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z));
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    the fastest particle over a frame: %.3f m/s\n", fastest);
    CHECKF(fastest < sqrt(0.27 * 0.27 + 0.62 * 0.62) + 9.81 * 28.0 * dt + 0.5, "two particles on top of each other flew apart at %.2f m/s",
           fastest);
    gp_world_destroy(w);
}

static void test_sph_water_drop(void) {
    const float l0 = 0.02f, lo[3] = {0.14f, 0.3f, 0.14f}, hi[3] = {0.26f, 0.42f, 0.26f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    uint32_t n = 0, frame, bad = 0;
    double start = 0.0, most = 0.0, fastest = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 1000;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK && gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.2f, 0.3f, 0.2f, 0.2f, 0.3f, 0.2f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 216);
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    for (frame = 1; frame <= 90; ++frame) {
        sph_dam_frame f;
        fixture_run(w, 1);
        f = sph_dam_read(w, n, l0, p, v, rho);
        if (frame == 1) start = f.energy;
        most = fmax(most, f.energy);
        fastest = fmax(fastest, f.fastest);
        bad += f.bad;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    t %.2f s: energy %.4f of the start, fastest %.2f m/s\n", frame / 60.0, f.energy / start, f.fastest);
    }
    CHECKF(bad == 0 && most <= 1.005 * start, "%u particles not finite; the energy went from %.4f J to %.4f J", bad, start, most);
    CHECKF(fastest < 3.0 * sqrt(2.0 * 9.81 * 0.3), "a particle reached %.2f m/s (impact speed %.2f)", fastest, sqrt(2.0 * 9.81 * 0.3));
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* The fluid's own viscosity against a closed form: Taylor and Green's (1937) decaying vortex,
   u = U sin(kx) cos(ky), v = -U cos(kx) sin(ky), w = 0, k = pi / L, an exact solution of the
   Navier-Stokes equations whose amplitude decays as exp(-2 nu k^2 t) (its pressure, rho U^2 / 4
   (cos 2kx + cos 2ky), is 4e-5 Pa here: the flow is linear). The cell [0, L]^2 has no flow
   through its sides, so a free block of fluid L x L x 0.1 m (no walls, no gravity; spacing
   0.01 m, L = 0.16 m, 2,560 particles) holds the vortex; the amplitude is the field's projection
   on the mode over the particles at least 0.03 m (1.5 smoothing radii) from the block's free
   faces, where the kernel's deficit there does not reach. After 0.1 s (6 frames, nu = 2e-3 m^2/s:
   13% of the amplitude gone) the decay gives the fluid's effective viscosity. Measured on
   llvmpipe: 0.93-0.94 of the material's nu, at every block from 0.16 to 0.24 m wide (the discrete
   Laplacian of Mueller's viscosity kernel on the lattice at re = 2 spacings; its continuous
   moment is exactly 1); over the whole block, free faces included, 0.75-0.81. Tested within
   0.85-1.05: a viscosity term off by a factor (a weight, a mass, a density) fails it. */
static void test_sph_taylor_green_viscosity(void) {
    const double L = 0.16, k = 3.14159265358979 / L, U = 0.01, nu = 2e-3, depth = 0.1, margin = 0.03;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {(float)L, (float)L, (float)depth}, none[3] = {0.0f, 0.0f, 0.0f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_particle_position* p;
    gp_particle_velocity* v;
    uint32_t n = 0, i, frame;
    double amplitude[2] = {0.0, 0.0}, effective;
    memset(&d, 0, sizeof d);
    d.max_particles = 4000;
    d.grid.cell_size = 0.02f;   /* the smoothing radius: the default 0.1 m cell held the whole fluid (54 s, not 8) */
    if (!(w = fixture_world(&d))) return;
    memset(&m, 0, sizeof m);
    m.spacing = 0.01f;
    m.viscosity = (float)nu;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK && gp_gravity_set(w, none) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 2560);
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    for (i = 0; i < n; ++i) {
        v[i].x = (float)(U * sin(k * p[i].x) * cos(k * p[i].y));
        v[i].y = (float)(-U * cos(k * p[i].x) * sin(k * p[i].y));
        v[i].z = 0.0f;
    }
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    for (frame = 0; frame <= 6; frame += 6) {
        double along = 0.0, norm = 0.0;
        if (frame) fixture_run(w, 6);
        CHECK(gp_particle_count(w) == n);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
        for (i = 0; i < n; ++i) {
            double fx = sin(k * p[i].x) * cos(k * p[i].y), fy = -cos(k * p[i].x) * sin(k * p[i].y);
            if (p[i].x < margin || p[i].x > L - margin || p[i].y < margin || p[i].y > L - margin || p[i].z < margin ||
                p[i].z > depth - margin)
                continue;
            along += v[i].x * fx + v[i].y * fy;
            norm += fx * fx + fy * fy;
        }
        amplitude[frame / 6] = norm > 0.0 ? along / norm : NAN;
    }
    effective = -log(amplitude[1] / amplitude[0]) / (2.0 * k * k * 0.1);
    CHECKF(fabs(amplitude[0] / U - 1.0) < 0.01, "the vortex was set up with amplitude %.5f m/s, not %.5f", amplitude[0], U);
    CHECKF(effective >= 0.85 * nu && effective <= 1.05 * nu, "Taylor-Green's vortex decays as a viscosity of %.3g m^2/s (%.2f of the material's %.3g)",
           effective, effective / nu, nu);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    Taylor-Green: amplitude %.5f -> %.5f m/s in 0.1 s: nu %.4g, %.3f of the material's\n", amplitude[0], amplitude[1],
                effective, effective / nu);
    free(p); free(v);
    gp_world_destroy(w);
}

/* The classic dam break with water, against the experiment: Martin and Moyce (1952), "An
   experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil. Trans.
   R. Soc. A 244, 312-324, their column of square base n^2 = 2 (height 2a): the surge front
   Z = x / a against T = t sqrt(2 g / a), and the column's remaining height at the back wall
   H / 2a against tau = t sqrt(g / a), read from their figures. Here a = 0.1 m, spacing 0.01 m,
   a tank long enough (0.6 m) that the front runs free over the 0.25 s watched (T to 3.5, tau to
   2.5), compared at every frame inside the data's range by linear interpolation between its
   points. Measured on llvmpipe: the height within 0-16% (it drains slower than the experiment
   late: +12% at tau = 2, +16% at 2.5; at spacing 0.005 +7% and +9%; 0-17.4% since blocks start
   hydrostatic, 2026-11-27, as the experiment's column did; -1% to +16% since blocks start
   squeezed and the carried density relaxes, 2026-11-28), the front 4-18% ahead from
   T = 0.9 on (as far ahead at spacing 0.005: not the resolution's). Computations of this flow
   commonly run ahead of Martin and Moyce's front, which their gate's opening and the floor's
   friction hold back. Tested: both within 20%, and the front never faster than the ideal
   2 sqrt(g H) between frames; issue 10 asks 10% for both, which is open. The front's lead is a
   constant delay (2026-11-27): from Z = 1.4 to 4 the computed front reaches each of the
   experiment's positions 0.21-0.25 earlier in T (12 ms at their a = 2.25 in), as a late start
   (their gate's opening) would give; the column's slow drain late is the other way, so no shift
   of time is applied here. Nor is it stray particles: the front is whole across the tank's width
   (the median of its 10 lanes within 0.5% of the farthest). Against Koshizuka and Oka's
   experiment (1996, Nucl. Sci. Eng. 123, 421-434: a = 0.146 m, their front as PySPH tabulates
   it) the same front is 5-19% ahead, and against Martin and Moyce's smaller column (a = 1.125
   in) 14% at T = 1.6: every experiment's front is slower than this free-slip floor's. A smooth
   floor's turbulent friction (the log law on the first layer, tried) slowed it by 1% only. */
static double sph_curve(const double (*data)[2], int count, double x) {
    int k;
    for (k = 0; k + 1 < count; ++k)
        if (x >= data[k][0] && x <= data[k + 1][0])
            return data[k][1] + (data[k + 1][1] - data[k][1]) * (x - data[k][0]) / (data[k + 1][0] - data[k][0]);
    return NAN;
}
static void test_sph_dam_break_martin_moyce(void) {
    static const double front[][2] = {{0.41, 1.11}, {0.84, 1.22}, {1.19, 1.44}, {1.43, 1.67}, {1.63, 1.89}, {1.83, 2.11},
                                      {1.98, 2.33}, {2.20, 2.56}, {2.32, 2.78}, {2.51, 3.00}, {2.65, 3.22}, {2.83, 3.44},
                                      {2.98, 3.67}, {3.11, 3.89}, {3.33, 4.11}};
    static const double height[][2] = {{0.56, 0.94}, {0.77, 0.89}, {0.93, 0.83}, {1.08, 0.78}, {1.28, 0.72}, {1.46, 0.67},
                                       {1.66, 0.61}, {1.84, 0.56}, {2.00, 0.50}, {2.21, 0.44}, {2.45, 0.39}, {2.70, 0.33},
                                       {3.06, 0.28}, {3.44, 0.22}, {4.20, 0.17}, {5.25, 0.11}, {7.40, 0.06}};
    const float l0 = 0.01f;
    const double a = 0.1, g = 9.81, bound = 2.0 * sqrt(g * 2.0 * a);
    uint32_t n = 0, frame, compared = 0;
    gp_world* w = sph_dam_world(l0, 0.6f, &n);
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    double worst_front = 0.0, worst_height = 0.0, fastest_front = 0.0, last = 0.0;
    if (!w) return;
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    last = a;
    for (frame = 1; frame <= 15; ++frame) {
        gp_step_desc step;
        sph_dam_frame f;
        double t = frame / 60.0, z, h;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60;
        CHECK(gp_world_step(w, &step) == GP_OK);
        f = sph_dam_read(w, n, l0, p, v, rho);
        z = sph_curve(front, 15, t * sqrt(2.0 * g / a));
        h = sph_curve(height, 17, t * sqrt(g / a));
        if (z == z) { worst_front = fmax(worst_front, fabs(f.front / a / z - 1.0)); ++compared; }
        if (h == h) worst_height = fmax(worst_height, fabs(f.height / (2.0 * a) / h - 1.0));
        fastest_front = fmax(fastest_front, (f.front - last) * 60.0);
        last = f.front;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    T %.2f: Z %.3f (experiment %.3f); tau %.2f: H %.3f (experiment %.3f)\n", t * sqrt(2.0 * g / a),
                    f.front / a, z, t * sqrt(g / a), f.height / (2.0 * a), h);
    }
    CHECKF(compared >= 10 && worst_front <= 0.2, "the front is %.1f%% off Martin and Moyce's (%u frames compared)", 100.0 * worst_front, compared);
    CHECKF(worst_height <= 0.2, "the column's height is %.1f%% off Martin and Moyce's", 100.0 * worst_height);
    CHECKF(fastest_front < bound, "the front moved at %.2f m/s between two frames; the ideal front 2 sqrt(g H) moves at %.2f",
           fastest_front, bound);
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* Random blocks of 1, 7, 333 and 2,000 particles in each configuration; 600 in one cell. */
static void test_sph_compute_matches_reference(void) {
    static const uint32_t sizes[] = {1, 7, 333, 2000};
    uint32_t config, k;
    for (config = 0; config < SPH_ONE_CELL; ++config)
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) sph_compute_case((int)config, sizes[k], 100 + config * 10 + k);
    sph_compute_case(SPH_ONE_CELL, 600, 7);
}

/* An empty world computes and steps without a message, and its statistics are zero. */
static void test_sph_empty_world(void) {
    gp_world* w = fixture_grid_world(64, SPH_CELL, 0);
    gp_step_desc step;
    gp_fluid_stats stats;
    int logged;
    if (!w) return;
    logged = fixture_log_count;
    CHECK(gp_fluid_compute(w, SPH_COMPUTE_DT) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    CHECK(gp_world_step(w, &step) == GP_OK);
    CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
    CHECKF(stats.max_speed == 0.0f && stats.wall_pushes == 0 && stats.nonfinite == 0 && stats.substeps >= 1,
           "empty world: max_speed %g, %u pushes, %u nonfinite, %u substeps", stats.max_speed, stats.wall_pushes,
           stats.nonfinite, stats.substeps);
    CHECKF(fixture_log_count == logged, "an empty world logged: %s", fixture_log);
    CHECK(gp_particle_count(w) == 0);
    gp_world_destroy(w);
}

/* One substep of gp_world_step against the reference's substep: the accelerations it stored and
   where each id went, for both integrators. Position and velocity are held to float rounding of
   x + v dt plus the acceleration's tolerance carried through dt (and dt^2). */
static void test_sph_step_matches_reference(void) {
    int integrator;
    for (integrator = GP_INTEGRATOR_SYMPLECTIC_EULER; integrator <= GP_INTEGRATOR_EXPLICIT_EULER; ++integrator) {
        const double dt = 2e-4;
        const char* what = integrator == GP_INTEGRATOR_EXPLICIT_EULER ? "explicit step" : "symplectic step";
        sph_setup s;
        gp_world* w = sph_random_world(SPH_SOFT_WALLS_FORCES, 333, 55 + (uint64_t)integrator, &s);
        sph_state before, after;
        cpu_sph_particle* ref;
        gp_particle_position* x;
        gp_particle_velocity* v;
        cpu_sph_scene scene;
        gp_step_desc step;
        uint32_t *slot, k, bad = 0, set_aside = 0;
        double worst = 0.0;
        if (!w) return;
        before = sph_read(w, 0);
        memset(&step, 0, sizeof step);
        step.dt = (float)dt;
        step.substeps = 1;
        step.max_cfl = 10.0f;
        step.integrator = (gp_integrator)integrator;
        CHECKF(gp_world_step(w, &step) == GP_OK, "%s: %s", what, fixture_log);
        after = sph_read(w, 1);
        scene = sph_scene(&before, &s, (double)(float)dt);
        ref = (cpu_sph_particle*)sph_alloc((size_t)before.n * sizeof *ref);
        x = (gp_particle_position*)sph_alloc((size_t)before.n * 16);
        v = (gp_particle_velocity*)sph_alloc((size_t)before.n * 16);
        cpu_sph_compute(&scene, ref);
        cpu_sph_integrate(&scene, ref, (gp_integrator)integrator, x, v);
        slot = sph_slots_by_id(&after, before.n);
        for (k = 0; k < before.n; ++k) {
            uint32_t to = slot[before.info[k].id];
            const gp_particle_position* X = after.position + to;
            const gp_particle_velocity* V = after.velocity + to;
            double speed = sqrt((double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z);
            double reach = sqrt((double)x[k].x * x[k].x + (double)x[k].y * x[k].y + (double)x[k].z * x[k].z);
            double ex, ev, tx, tv, ea = 0.0;
            if (to == UINT32_MAX) { ++bad; continue; }
            if (ref[k].ambiguous) { ++set_aside; continue; }   /* a threshold within rounding (sph_compare) */
            ex = sqrt(pow(X->x - x[k].x, 2) + pow(X->y - x[k].y, 2) + pow(X->z - x[k].z, 2));
            ev = sqrt(pow(V->x - v[k].x, 2) + pow(V->y - v[k].y, 2) + pow(V->z - v[k].z, 2));
            tx = 1e-6 * (reach + speed * dt) + SPH_TOLERANCE * ref[k].acceleration_abs * dt * dt;
            tv = 1e-6 * speed + SPH_TOLERANCE * ref[k].acceleration_abs * dt;
            if ((before.info[k].kind & 0xffu) == GP_KIND_FLUID) {
                ea = sqrt(pow(after.acceleration[to].x - ref[k].acceleration[0], 2) + pow(after.acceleration[to].y - ref[k].acceleration[1], 2) +
                          pow(after.acceleration[to].z - ref[k].acceleration[2], 2)) / ref[k].acceleration_abs;
                ea += fabs(after.density[to] - ref[k].density) / ref[k].density_abs;
            } else if ((before.info[k].kind & 0xffu) == GP_KIND_EFFECT) {   /* their own stage moves them (test_effects.c) */
                if (!cpu_finite3(&X->x) && bad++ < 3) fprintf(stderr, "    %s: effect particle %u is not finite\n", what, before.info[k].id);
                continue;
            } else {   /* others do not move */
                tx = tv = 0.0;
            }
            if (!(ex <= tx && ev <= tv && ea <= SPH_TOLERANCE) && bad++ < 3)
                fprintf(stderr, "    %s: id %u at (%.7g %.7g %.7g) v (%.7g %.7g %.7g), reference (%.7g %.7g %.7g) v (%.7g %.7g %.7g); "
                        "acceleration and density error %.3g\n", what, before.info[k].id, X->x, X->y, X->z, V->x, V->y, V->z,
                        x[k].x, x[k].y, x[k].z, v[k].x, v[k].y, v[k].z, ea);
            worst = ex / (tx > 0 ? tx : 1e-30) > worst ? ex / (tx > 0 ? tx : 1e-30) : worst;
        }
        CHECKF(bad == 0 && after.n == before.n, "%s: %u of %u particles differ from the reference substep", what, bad, before.n);
        sph_check_set_aside(what, set_aside, before.n - set_aside);
        if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    %s: largest position error / tolerance %.2e\n", what, worst);
        free(slot); free(ref); free(x); free(v);
        sph_state_free(&before);
        sph_state_free(&after);
        gp_world_destroy(w);
    }
}

/* gp_boundary_distance evaluates every shape as the reference does (float against double). */
static void test_sph_boundary_distance_matches_reference(void) {
    sph_setup s;
    gp_world* w = sph_random_world(SPH_STIFF_WALLS, 1, 3, &s);
    uint64_t state = 99;
    float points[3 * 500], distances[500];
    uint32_t k, bad = 0;
    if (!w) return;
    s.colliders[3].shape = GP_SHAPE_SPHERE;   /* and an obstacle sphere */
    s.colliders[3].center[0] = 0.02f;
    s.colliders[3].radius = 0.01f;
    {
        gp_collider handle;
        CHECK(gp_collider_add(w, s.colliders + 3, &handle) == GP_OK);
    }
    s.collider_count = 4;
    for (k = 0; k < 3 * 500; ++k) points[k] = (float)(0.1 * sph_unit(&state) - 0.02);
    CHECK(gp_boundary_distance(w, points, 500, distances) == GP_OK);
    for (k = 0; k < 500; ++k) {
        double x[3] = {points[3 * k], points[3 * k + 1], points[3 * k + 2]}, n[3];
        double d = cpu_sph_boundary(s.colliders, s.collider_count, x, n);
        if (!(fabs(distances[k] - d) <= 1e-6) && bad++ < 3)
            fprintf(stderr, "    boundary at (%g %g %g): %.8g, reference %.8g\n", x[0], x[1], x[2], distances[k], d);
    }
    CHECKF(bad == 0, "%u of 500 boundary distances differ from the reference by more than 1e-6 m", bad);
    gp_world_destroy(w);
}

/* ---- bad input ------------------------------------------------------------------------------- */

/* Each refusal returns its result, leaves the world as it was, and logs a message naming the
   problem. */
static void test_sph_rejects_bad_input(void) {
    gp_world* w = fixture_grid_world(100, SPH_CELL, 0);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.2f, 0.2f, 0.2f}, rest[3] = {0.0f, 0.0f, 0.0f};
    float bad[3];
    gp_fluid_material m, got;
    gp_step_desc step;
    uint32_t added = 12345;
    int logged, a;
    if (!w) return;
    /* NaN and infinite block corners and velocity */
    for (a = 0; a < 3; ++a) {
        memcpy(bad, lo, sizeof bad);
        bad[a] = a == 1 ? INFINITY : NAN;
        CHECKF(gp_fluid_add_block(w, 0, bad, hi, rest, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE),
               "NaN min: %s", fixture_log);
        CHECKF(gp_fluid_add_block(w, 0, lo, bad, rest, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE),
               "NaN max: %s", fixture_log);
        CHECKF(gp_fluid_add_block(w, 0, lo, hi, bad, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE),
               "NaN velocity: %s", fixture_log);
    }
    CHECK(gp_particle_count(w) == 0);
    CHECK(gp_fluid_add_block(w, GP_MAX_FLUID_MATERIALS, lo, hi, rest, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    /* materials: zero spacing is the default; negative, NaN, re above the cell size are refused */
    memset(&m, 0, sizeof m);
    CHECK(gp_fluid_material_set(w, 2, &m) == GP_OK && gp_fluid_material_get(w, 2, &got) == GP_OK);
    CHECKF(got.spacing == 0.5f * SPH_CELL && got.smoothing_radius == SPH_CELL && got.mass > 0.0f,
           "defaults: spacing %g, re %g, mass %g", got.spacing, got.smoothing_radius, got.mass);
    m.spacing = -0.01f;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.spacing = NAN;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.spacing = 0.05f;
    m.smoothing_radius = 1.5f * SPH_CELL;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_CELL_TOO_SMALL), "log: %s", fixture_log);
    m.smoothing_radius = 0.0f;
    m.spacing = 0.08f;   /* the default re, 2 * spacing, would exceed the cell */
    CHECKF(gp_fluid_material_set(w, 2, &m) != GP_OK || (gp_fluid_material_get(w, 2, &got) == GP_OK && got.smoothing_radius <= SPH_CELL),
           "spacing 0.08 accepted with re %g above the cell size", got.smoothing_radius);
    m.spacing = 0.05f;
    m.stiffness = -1.0f;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.stiffness = 0.0f;   /* the density model: a value out of the enum, a diffusion out of (0, 1] or NaN */
    m.density_model = (gp_density_model)7;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE), "log: %s", fixture_log);
    m.density_model = GP_DENSITY_CONTINUITY;
    m.diffusion = 1.5f;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.diffusion = NAN;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.diffusion = -0.1f;
    CHECKF(gp_fluid_material_set(w, 2, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "log: %s", fixture_log);
    m.diffusion = 0.0f;   /* the default, 0.1 */
    CHECK(gp_fluid_material_set(w, 2, &m) == GP_OK && gp_fluid_material_get(w, 2, &got) == GP_OK && got.diffusion == 0.1f &&
          got.density_model == GP_DENSITY_CONTINUITY);
    m.density_model = GP_DENSITY_DEFAULT;   /* water: the continuity model */
    CHECK(gp_fluid_material_set(w, 2, &m) == GP_OK && gp_fluid_material_get(w, 2, &got) == GP_OK &&
          got.density_model == GP_DENSITY_CONTINUITY && got.viscosity == 1e-6f);
    m.stiffness = 0.0f;
    CHECK(gp_fluid_material_set(w, GP_MAX_FLUID_MATERIALS, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    CHECK(gp_fluid_material_get(w, 2, &got) == GP_OK && got.spacing == 0.5f * SPH_CELL);   /* unchanged by the refusals */
    /* time steps */
    CHECK(gp_fluid_add_block(w, 0, lo, hi, rest, &added) == GP_OK && added == 64 && gp_particle_count(w) == 64);
    memset(&step, 0, sizeof step);
    for (a = 0; a < 4; ++a) {
        const float dts[4] = {0.0f, -0.01f, NAN, INFINITY};
        step.dt = dts[a];
        CHECKF(gp_world_step(w, &step) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE), "dt %g: %s", dts[a], fixture_log);
    }
    CHECK(gp_world_step(w, NULL) == GP_ERROR_INVALID_ARGUMENT);
    /* one substep of 10 ms: CFL = 31.6 m/s * 0.01 s / 0.05 m = 6.3, above the default 1: a warning, then done */
    step.dt = 0.01f;
    step.substeps = 1;
    logged = fixture_log_count;
    CHECKF(gp_world_step(w, &step) == GP_OK && fixture_log_count > logged && fixture_log_level == GP_LOG_WARNING &&
           fixture_logged_item(GP_LOG_ITEM_CFL_EXCEEDED), "oversized step: %s", fixture_log);
    {
        gp_fluid_stats stats;
        CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.cfl > 6.0f && stats.substeps == 1 && fabsf(stats.substep - 0.01f) < 1e-9f, "stats: cfl %g, %u substeps of %g s",
               stats.cfl, stats.substeps, stats.substep);
    }
    CHECK(gp_particle_count(w) == 64);
    gp_world_destroy(w);
}

/* A store that fills: a block beyond capacity is refused whole; a pour adds what fits, reports
   full, warns once, and the count is the capacity. */
static void test_sph_full_store(void) {
    gp_world* w = fixture_grid_world(100, SPH_CELL, 0);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.25f, 0.25f, 0.25f}, small[3] = {0.15f, 0.15f, 0.15f};
    gp_pour_desc pd;
    gp_pour pour;
    gp_pour_state ps;
    gp_step_desc step;
    uint32_t added = 0, k, count_after;
    int warnings = 0, logged;
    if (!w) return;
    CHECKF(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_ERROR_CAPACITY && fixture_logged_item(GP_LOG_ITEM_STORE_FULL),
           "a block of 125 into 100 slots: %s", fixture_log);
    CHECK(gp_particle_count(w) == 0);
    CHECK(gp_fluid_add_block(w, 0, lo, small, NULL, &added) == GP_OK && added == 27 && gp_particle_count(w) == 27);
    memset(&pd, 0, sizeof pd);
    pd.position[0] = 0.5f; pd.position[1] = 0.5f; pd.position[2] = 0.5f;
    pd.rate = 20000.0f;
    pd.speed = 2.0f;
    CHECK(gp_pour_add(w, &pd, &pour) == GP_OK && pour.id != 0);
    memset(&step, 0, sizeof step);
    step.dt = 0.005f;
    for (k = 0; k < 40; ++k) {
        logged = fixture_log_count;
        CHECK(gp_world_step(w, &step) == GP_OK);
        warnings += fixture_log_count > logged && fixture_logged_item(GP_LOG_ITEM_POUR_STOPPED);
    }
    CHECK(gp_pour_state_get(w, pour, &ps) == GP_OK);
    CHECKF(ps.full && gp_particle_count(w) == 100 && ps.emitted == 73, "pour: full %d, emitted %llu, count %u", ps.full,
           (unsigned long long)ps.emitted, gp_particle_count(w));
    CHECKF(warnings == 1, "the full pour warned %d times (once expected); last: %s", warnings, fixture_log);
    count_after = gp_particle_count(w);
    CHECK(gp_world_step(w, &step) == GP_OK && gp_particle_count(w) == count_after);
    CHECK(gp_pour_remove(w, pour) == GP_OK);
    CHECK(gp_pour_state_get(w, pour, &ps) == GP_ERROR_INVALID_ARGUMENT);   /* a stale handle */
    pd.rate = 0.0f;
    CHECK(gp_pour_add(w, &pd, &pour) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    gp_world_destroy(w);
}

/* ---- tanks ------------------------------------------------------------------------------------ */

/* A world with a box tank of the given centre and half extents, cells of 0.05 m (spacing 0.025,
   re 0.05); s receives the setup. */
static gp_world* sph_tank_world(uint32_t capacity, const float centre[3], const float half[3], int deterministic, sph_setup* s) {
    gp_world* w = fixture_grid_world(capacity, 0.05f, deterministic);
    memset(s, 0, sizeof *s);
    s->colliders[0] = sph_box(centre[0], centre[1], centre[2], half[0], half[1], half[2], 1);
    s->collider_count = 1;
    if (w) sph_apply(w, s);
    return w;
}

/* The smallest boundary distance of count positions, computed on the CPU (analytically); NaN
   if any is NaN. */
static double sph_min_boundary(const gp_particle_position* p, uint32_t count, const sph_setup* s) {
    double least = INFINITY;
    uint32_t k;
    for (k = 0; k < count; ++k) {
        double x[3] = {p[k].x, p[k].y, p[k].z}, n[3];
        double d = cpu_sph_boundary(s->colliders, s->collider_count, x, n);
        if (!(d >= least)) least = d;
    }
    return least;
}

/* A dam break in a box tank, 2,000 substeps (0.5 s), with either density model: after every
   substep no particle is in the wall by more than 1e-5 m (its distance computed on the CPU); the
   front reaches the far wall; at the end every id is there once, with its own mass bit for bit. */
static void sph_dam_break_run(gp_density_model model) {
    const float centre[3] = {0.2f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.15f, 0.2f, 0.15f};
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 0, &s);
    gp_fluid_material material;
    gp_step_desc step;
    sph_state first, st;
    gp_particle_position* now;
    uint32_t added = 0, k, *slot, lost = 0, wrong_mass = 0, in_wall_steps = 0;
    double worst = INFINITY, front = 0.0;
    int worst_step = -1, i;
    if (!w) return;
    CHECK(gp_fluid_material_get(w, 0, &material) == GP_OK);
    material.density_model = model;
    CHECK(gp_fluid_material_set(w, 0, &material) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 8 * 6);
    first = sph_read(w, 0);
    now = (gp_particle_position*)sph_alloc((size_t)added * 16);
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f;   /* CFL (31.6 + v) * 2.5e-4 / 0.025 = 0.32 + 0.01 v */
    step.substeps = 1;
    for (i = 0; i < 2000; ++i) {
        double least;
        CHECK(gp_world_step(w, &step) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, added, now) == GP_OK);
        least = sph_min_boundary(now, added, &s);
        if (!(least >= -1e-5)) ++in_wall_steps;
        if (!(least >= worst)) { worst = least; worst_step = i; }
        for (k = 0; k < added; ++k) front = now[k].x > front ? now[k].x : front;
    }
    CHECKF(in_wall_steps == 0, "%u of 2000 substeps left a particle in the wall (deepest %.3g m at substep %d)", in_wall_steps,
           worst, worst_step);
    CHECKF(front > 0.3, "the front got to x = %.3g m only: the fluid hardly flowed (0.15 m at the start)", front);
    st = sph_read(w, 0);
    slot = sph_slots_by_id(&st, added);
    for (k = 0; k < added; ++k) {
        if (slot[k] == UINT32_MAX) { ++lost; continue; }
        wrong_mass += memcmp(&st.velocity[slot[k]].mass, &first.velocity[k].mass, 4) != 0;   /* first: slots = ids */
    }
    CHECKF(st.n == added && lost == 0 && wrong_mass == 0, "after 2000 substeps: %u particles of %u, %u ids lost, %u masses changed",
           st.n, added, lost, wrong_mass);
    {
        double mass0 = 0.0, mass1 = 0.0;
        for (k = 0; k < added; ++k) { mass0 += first.velocity[k].mass; mass1 += st.velocity[k].mass; }
        CHECKF(mass0 == mass1, "total mass %.17g, was %.17g", mass1, mass0);
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    dam break (model %d): least boundary distance %.3g m (substep %d), front at %.3g m\n", (int)model, worst,
                worst_step, front);
    free(slot);
    free(now);
    sph_state_free(&first);
    sph_state_free(&st);
    gp_world_destroy(w);
}
static void test_sph_dam_break_conserves(void) { sph_dam_break_run(GP_DENSITY_SUMMATION); }
static void test_sph_dam_break_continuity(void) { sph_dam_break_run(GP_DENSITY_CONTINUITY); }

/* The continuity model repeats bit for bit: two deterministic worlds, the same dam break, 300
   substeps; every position, velocity and density equal in every bit (the carried densities go
   through the grid's reorder with the particles). */
static void test_sph_continuity_repeats(void) {
    const float centre[3] = {0.2f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.15f, 0.2f, 0.15f};
    sph_setup s[2];
    gp_world* w[2];
    sph_state st[2];
    gp_step_desc step;
    uint32_t added = 0, k, differ = 0;
    int i, run;
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f;
    step.substeps = 1;
    for (run = 0; run < 2; ++run) {
        gp_fluid_material material;
        w[run] = sph_tank_world(1000, centre, half, 1, &s[run]);
        if (!w[run]) return;
        CHECK(gp_fluid_material_get(w[run], 0, &material) == GP_OK);
        material.density_model = GP_DENSITY_CONTINUITY;
        CHECK(gp_fluid_material_set(w[run], 0, &material) == GP_OK);
        CHECK(gp_fluid_add_block(w[run], 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 8 * 6);
        for (i = 0; i < 300; ++i) CHECK(gp_world_step(w[run], &step) == GP_OK);
        st[run] = sph_read(w[run], 1);
    }
    for (k = 0; k < st[0].n && st[0].n == st[1].n; ++k)
        differ += memcmp(st[0].position + k, st[1].position + k, 16) != 0 || memcmp(st[0].velocity + k, st[1].velocity + k, 16) != 0 ||
                  memcmp(st[0].density + k, st[1].density + k, 4) != 0;
    CHECKF(st[0].n == added && st[1].n == added && differ == 0, "%u of %u particles differ between two deterministic runs", differ,
           added);
    for (k = 0, differ = 0; k < st[0].n; ++k) differ += fabsf(st[0].density[k] - st[0].density[0]) > 0.1f;
    CHECKF(differ > 0, "every density equals the first (%g): the run did nothing to check", st[0].density[0]);
    for (run = 0; run < 2; ++run) {
        sph_state_free(&st[run]);
        gp_world_destroy(w[run]);
    }
}

/* A block added at the rest density: without gravity at the moment of the add (under gravity a
   block starts hydrostatic, sph_block_starts_at_rest), the library's default gravity after. */
static void sph_add_block_at_rest_density(gp_world* w, const float lo[3], const float hi[3], uint32_t* added) {
    const float none[3] = {0.0f, 0.0f, 0.0f}, down[3] = {0.0f, -9.81f, 0.0f};
    CHECK(gp_gravity_set(w, none) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, added) == GP_OK);
    CHECK(gp_gravity_set(w, down) == GP_OK);
}

/* A NaN written into one particle's position (gp_particles_write refuses it, so through the raw
   buffer, as a user's shader could): stepping keeps every particle and the bad one, says so, and
   the others move as in a twin world that never had it (both deterministic: the same sums in the
   same order, so the only tolerance is for float rounding, 1e-6 m after 100 substeps). */
static void test_sph_nan_particle_is_kept(void) {
    const float centre[3] = {0.2f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.15f, 0.2f, 0.15f};
    const uint32_t victim = 100;
    sph_setup s, s2;
    gp_world* w = sph_tank_world(1000, centre, half, 1, &s);
    gp_world* twin = sph_tank_world(1000, centre, half, 1, &s2);
    gp_particles_desc d;
    gp_particle_position bad;
    gp_step_desc step;
    gp_fluid_stats stats;
    sph_state st, a, b;
    float* xyz;
    uint32_t added = 0, k, n = 0, *slot_a, *slot_b, differ = 0;
    double worst = 0.0;
    int i, logged, said = 0;
    if (!w || !twin) return;
    sph_add_block_at_rest_density(w, lo, hi, &added);   /* as the twin's gp_particles_add */
    CHECK(added > victim);
    st = sph_read(w, 0);   /* no build yet: slot = id */
    xyz = (float*)sph_alloc((size_t)added * 12);
    for (k = 0; k < added; ++k)
        if (k != victim) { xyz[3 * n] = st.position[k].x; xyz[3 * n + 1] = st.position[k].y; xyz[3 * n + 2] = st.position[k].z; ++n; }
    memset(&d, 0, sizeof d);
    d.count = n;
    d.positions = xyz;
    d.kind = GP_KIND_FLUID;
    d.mass = st.velocity[0].mass;
    d.radius = st.position[0].radius;
    CHECK(gp_particles_add(twin, &d, NULL) == GP_OK);
    bad = st.position[victim];
    bad.y = NAN;
    CHECKF(gp_particles_write(w, GP_ATTRIBUTE_POSITION, victim, 1, &bad) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE),
           "NaN through gp_particles_write: %s", fixture_log);
    CHECK(gp_buffer_write(w, gp_world_buffers(w).position, (size_t)victim * 16, 16, &bad) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 20 * 2.5e-4f;
    step.substeps = 20;
    for (i = 0; i < 5; ++i) {
        logged = fixture_log_count;
        CHECK(gp_world_step(w, &step) == GP_OK && gp_world_step(twin, &step) == GP_OK);
        said += fixture_log_count > logged && fixture_logged_item(GP_LOG_ITEM_PARTICLES_NOT_FINITE);
    }
    CHECKF(said >= 1, "stepping with a NaN particle logged no message about it (last: %s)", fixture_log);
    CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
    CHECKF(stats.nonfinite == 0, "gp_fluid_stats.nonfinite = %u: no update of a finite particle failed", stats.nonfinite);
    {
        gp_grid_stats grid;
        CHECK(gp_grid_stats_read(w, &grid) == GP_OK);
        CHECKF(grid.nonfinite == 1, "gp_grid_stats.nonfinite = %u", grid.nonfinite);
    }
    a = sph_read(w, 0);
    b = sph_read(twin, 0);
    slot_a = sph_slots_by_id(&a, added);
    slot_b = sph_slots_by_id(&b, n);
    CHECKF(a.n == added && slot_a[victim] != UINT32_MAX && !cpu_finite3(&a.position[slot_a[victim]].x),
           "%u particles of %u; the NaN one %s", a.n, added, slot_a[victim] == UINT32_MAX ? "lost" : "changed");
    for (k = 0; k < added; ++k) {
        const gp_particle_position *p, *q;
        double e;
        if (k == victim) continue;
        if (slot_a[k] == UINT32_MAX || slot_b[k < victim ? k : k - 1] == UINT32_MAX) { ++differ; continue; }
        p = a.position + slot_a[k];
        q = b.position + slot_b[k < victim ? k : k - 1];
        e = fabs((double)p->x - q->x) + fabs((double)p->y - q->y) + fabs((double)p->z - q->z);
        if (!(e <= 1e-6) || !(sph_min_boundary(p, 1, &s) >= -1e-5)) ++differ;
        worst = e > worst || e != e ? e : worst;
    }
    CHECKF(differ == 0, "%u of %u other particles moved differently from the twin world without the NaN (largest %.3g m) "
           "or left the tank", differ,
           added - 1, worst);
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    nan: largest difference from the twin %.3g m\n", worst);
    free(xyz); free(slot_a); free(slot_b);
    sph_state_free(&st); sph_state_free(&a); sph_state_free(&b);
    gp_world_destroy(w);
    gp_world_destroy(twin);
}

/* The mirror test's run: a column of 6 x 8 x 6 spacings centred on x = 0 in a tank symmetric
   about x = 0, made of exactly mirrored float positions (ids 2k and 2k + 1 are mirror images),
   in a deterministic world, with a uniform acceleration push_x along x on top of gravity; after
   400 substeps of 2.5e-4 s, the largest |x_a + x_b| + |y_a - y_b| + |z_a - z_b| over the pairs
   (infinity if a particle is lost), and the widest |x|. */
static double sph_mirror_run(float push_x, double* widest) {
    const float centre[3] = {0.0f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float l0 = 0.025f;
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 1, &s);
    gp_particles_desc d;
    gp_step_desc step;
    gp_force push;
    float xyz[3 * 6 * 8 * 6];
    uint32_t i, j, k, n = 0, *slot;
    sph_state st;
    double worst = 0.0;
    *widest = 0.0;
    if (!w) return INFINITY;
    for (k = 0; k < 6; ++k)   /* 3 columns each side of x = 0, 8 layers, the tank's full depth */
        for (j = 0; j < 8; ++j)
            for (i = 0; i < 3; ++i) {
                float x = ((float)i + 0.5f) * l0, y = ((float)j + 0.5f) * l0, z = ((float)k + 0.5f) * l0;
                xyz[3 * n] = x; xyz[3 * n + 1] = y; xyz[3 * n + 2] = z; ++n;
                xyz[3 * n] = -x; xyz[3 * n + 1] = y; xyz[3 * n + 2] = z; ++n;
            }
    memset(&d, 0, sizeof d);
    d.count = n;
    d.positions = xyz;
    d.kind = GP_KIND_FLUID;
    d.mass = (float)s.materials[0].mass;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    memset(&push, 0, sizeof push);
    push.type = GP_FORCE_UNIFORM;
    push.vector[0] = push_x;
    CHECK(gp_forces_set(w, &push, push_x != 0.0f) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f * 40;
    step.substeps = 40;
    for (i = 0; i < 10; ++i) CHECK(gp_world_step(w, &step) == GP_OK);
    st = sph_read(w, 0);
    slot = sph_slots_by_id(&st, n);
    for (k = 0; k < n; k += 2) {
        const gp_particle_position *a = st.position + slot[k], *b = st.position + slot[k + 1];
        double e = slot[k] == UINT32_MAX || slot[k + 1] == UINT32_MAX ? INFINITY
                 : fabs((double)a->x + b->x) + fabs((double)a->y - b->y) + fabs((double)a->z - b->z);
        worst = e > worst || e != e ? e : worst;
        if (e < INFINITY) *widest = fabs(a->x) > *widest ? fabs(a->x) : *widest;
    }
    free(slot);
    sph_state_free(&st);
    gp_world_destroy(w);
    return worst;
}

/* A mirror-symmetric start stays symmetric: after 400 substeps every pair is mirrored to
   SPH_MIRROR_TOLERANCE. Why that much: mirrored particles sum their neighbours in other orders,
   so float rounding differs between them at every substep; a position is rounded by up to
   6e-8 * 0.2 m = 1.2e-8 m per substep, 5e-6 m over 400 substeps if every rounding pushed the
   same way. The tolerance is twice that; measured on llvmpipe: 2e-8 m at substep 40, growing
   steadily to 1.6e-7 m at 400. The test shows it can see an asymmetry: a uniform push of 1% of g
   along x, a small one-sided error, breaks it by 9e-4 m (0.5 * 0.098 m/s^2 * (0.1 s)^2 = 5e-4 m
   and more). A real one-sided bug (a neighbour missed on one side, a wall normal or table wrong
   on one side) moves particles by much of l0 = 0.025 m. */
#define SPH_MIRROR_TOLERANCE 1e-5
static void test_sph_mirror_symmetry(void) {
    double widest, pushed_widest;
    double worst = sph_mirror_run(0.0f, &widest), pushed = sph_mirror_run(0.0981f, &pushed_widest);
    CHECKF(worst <= SPH_MIRROR_TOLERANCE, "mirror pairs broke symmetry after 400 substeps by up to %.3g m (tolerance %g)", worst,
           SPH_MIRROR_TOLERANCE);
    CHECKF(widest > 0.08, "the column did not spread: widest |x| %.3g m, 0.0625 at the start", widest);   /* it moved */
    CHECKF(pushed > SPH_MIRROR_TOLERANCE && pushed < INFINITY, "a push of 1%% of g along x went unseen: asymmetry %.3g m", pushed);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    mirror: largest asymmetry %.3g m (pushed %.3g m), widest |x| %.3g m\n", worst, pushed, widest);
}

/* A closed tank filled with a block on the lattice, 6 x 8 x 6 spacings, added at the rest density
   (without gravity; under it a block starts hydrostatic), is at rest density
   everywhere, its faces, edges and corners included: after a substep of 1 microsecond every
   density is rho0 within 1e-5 (float rounding of about 30 terms is 1e-7). Summing the faces'
   tables alone gives 3% more along the edges and 8.8% in the corners: 30 and 88 kPa at the
   default stiffness, a blast that scrambled every tank's lattice at its first substep.
   The walls' pressure: at zero pressure (a free surface) every particle falls at g, walls or
   not (within 2%: float rounding leaves pressures of +-0.2 Pa); the walls' hydrostatic part
   once held particles along a side wall up at 0.15 g. At 1,000 Pa everywhere (a rest pressure)
   it acts: the lid does not pull the top layer's particles away from the side walls (they fall
   at g; a lid that took the continuation pulled them up at half of g), a side wall holds its
   particles up, and under the lid by exactly half as much, the side's wall particles above
   being behind the lid too. */
static void test_sph_tank_rest_density(void) {
    const float l0 = 0.025f, centre[3] = {0.0f, 4 * 0.025f, 0.0f}, half[3] = {3 * 0.025f, 4 * 0.025f, 3 * 0.025f};
    const float lo[3] = {-3 * 0.025f, 0.0f, -3 * 0.025f}, hi[3] = {3 * 0.025f, 8 * 0.025f, 3 * 0.025f};
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 0, &s);
    gp_fluid_material material;
    gp_step_desc step;
    sph_state st;
    uint32_t added = 0, k, corners = 0, under_lid = 0, sides = 0, edges = 0;
    double worst = 0.0, worst_fall = 0.0, side_fall = 0.0, edge_fall = 0.0, rho0;
    if (!w) return;
    sph_add_block_at_rest_density(w, lo, hi, &added);
    CHECK(added == 6 * 8 * 6);
    rho0 = s.materials[0].rest_density;
    memset(&step, 0, sizeof step);
    step.dt = 1e-6f;
    step.substeps = 1;
    CHECK(gp_world_step(w, &step) == GP_OK);
    st = sph_read(w, 1);
    for (k = 0; k < st.n; ++k) {   /* rest density; at zero pressure every particle falls at g, walls or not */
        double e = fabs(st.density[k] / rho0 - 1.0);
        double fall = fabs(st.acceleration[k].y / -9.81 - 1.0) + fabs(st.acceleration[k].x / 9.81) + fabs(st.acceleration[k].z / 9.81);
        worst = e > worst || e != e ? e : worst;
        worst_fall = fall > worst_fall || fall != fall ? fall : worst_fall;
        corners += fabs(st.position[k].x) > 2.4f * l0 && fabs(st.position[k].z) > 2.4f * l0 &&
                   (st.position[k].y < l0 || st.position[k].y > 7 * l0);
    }
    CHECKF(st.n == added && corners == 8, "%u particles, %u in the tank's corners", st.n, corners);
    CHECKF(worst < 1e-5, "a tank filled on the lattice: a density off by %.3g of rho0", worst);
    CHECKF(worst_fall < 0.02, "at zero pressure a particle's acceleration is off g by up to %.3g of g", worst_fall);
    sph_state_free(&st);

    /* 1,000 Pa everywhere (rest pressure): the fluid's and the walls' mirrored terms cancel, the
       walls' hydrostatic part remains */
    CHECK(gp_fluid_material_get(w, 0, &material) == GP_OK);
    material.rest_pressure = 1000.0f;
    CHECK(gp_fluid_material_set(w, 0, &material) == GP_OK);
    CHECK(gp_world_step(w, &step) == GP_OK);
    st = sph_read(w, 1);
    worst_fall = 0.0;
    for (k = 0; k < st.n; ++k) {
        double fall = st.acceleration[k].y / -9.81;
        if (st.position[k].y > 7 * l0 && fabs(st.position[k].x) < l0 && fabs(st.position[k].z) < l0) {   /* under the lid */
            double off = fabs(fall - 1.0) + fabs(st.acceleration[k].x / 9.81) + fabs(st.acceleration[k].z / 9.81);
            worst_fall = off > worst_fall || off != off ? off : worst_fall;
            ++under_lid;
        }
        if (fabs(fabs(st.position[k].x) - 2.5 * l0) > 0.1 * l0 || fabs(st.position[k].z) > l0) continue;
        if (fabs(st.position[k].y - 4.5 * l0) < 0.1 * l0) { side_fall += fall; ++sides; }   /* one side wall, mid-height */
        if (st.position[k].y > 7 * l0) { edge_fall += fall; ++edges; }                      /* and under the lid */
    }
    side_fall /= sides ? sides : 1;
    edge_fall /= edges ? edges : 1;
    CHECKF(under_lid == 4 && worst_fall < 0.02, "under the lid (%u particles): acceleration off g by up to %.3g of g", under_lid,
           worst_fall);
    CHECKF(sides == 4 && edges == 4 && side_fall < 0.95 && fabs((1.0 - edge_fall) / (1.0 - side_fall) - 0.5) < 0.01,
           "a side wall holds its particles up (they fall at %.4f g), under the lid by half as much (expected, the side's wall "
           "particles above being behind the lid too): they fall at %.4f g", side_fall, edge_fall);
    sph_state_free(&st);
    gp_world_destroy(w);
}

/* A column 6 x 12 x 6 spacings filling a tank's floor, of the default material with the given
   density model and viscosity, settles
   for 0.6 s and is watched over `more` steps of 0.01 s; then, below the top layer, each
   particle's p / (rho0 |g| depth), depth from the free surface (the top layer's mean height +
   l0/2): worst and mean returned, and the worst layer's mean (layers l0 thick from the floor);
   the fastest particle's speed while watched in max_speed, the root mean square speed at the end
   in rms_speed. GP_TEST_VERBOSE prints the layers' means and spreads. */
typedef struct sph_column { double worst, worst_inner, mean, worst_layer, rms_speed; float max_speed; uint32_t below, bad; } sph_column;
/* The column's tank (centre, half extents) and block (lo, hi): 6 x 12 x 6 spacings. */
#define SPH_COLUMN_SPACING 0.025f
static const float sph_column_centre[3] = {0.0f, 0.25f, 0.0f}, sph_column_half[3] = {3 * 0.025f, 0.25f, 3 * 0.025f};
static const float sph_column_lo[3] = {-3 * 0.025f, 0.0f, -3 * 0.025f}, sph_column_hi[3] = {3 * 0.025f, 12 * 0.025f, 3 * 0.025f};
static sph_column sph_hydrostatic_run(gp_density_model model, float viscosity, int more) {
    const float l0 = SPH_COLUMN_SPACING, *lo = sph_column_lo, *hi = sph_column_hi;
    sph_setup s;
    gp_world* w = sph_tank_world(1000, sph_column_centre, sph_column_half, 0, &s);
    gp_step_desc step;
    gp_fluid_stats stats;
    sph_state st;
    uint32_t added = 0, k, bad = 0, below = 0, top = 0;
    double y_max = -INFINITY, surface = 0.0, worst = 0.0, worst_inner = 0.0, ratio = 0.0, rho0, g = 9.81;
    float max_speed = 0.0f;
    int i;
    gp_fluid_material material;
    sph_column out;
    memset(&out, 0, sizeof out);
    if (!w) return out;
    CHECK(gp_fluid_material_get(w, 0, &material) == GP_OK);
    material.density_model = model;
    material.viscosity = viscosity;
    CHECK(gp_fluid_material_set(w, 0, &material) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 12 * 6);
    rho0 = s.materials[0].rest_density;
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (i = 0; i < 60; ++i) CHECK(gp_world_step(w, &step) == GP_OK);   /* 0.6 s to settle */
    for (i = 0; i < more; ++i) {   /* it stays */
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        max_speed = stats.max_speed > max_speed ? stats.max_speed : max_speed;
    }
    st = sph_read(w, 1);
    for (k = 0; k < st.n; ++k) y_max = st.position[k].y > y_max ? st.position[k].y : y_max;
    for (k = 0; k < st.n; ++k)
        if (st.position[k].y > y_max - 0.5 * l0) { surface += st.position[k].y; ++top; }
    surface = surface / (top ? top : 1) + 0.5 * l0;
    for (k = 0; k < st.n; ++k) {
        double depth = surface - st.position[k].y, expected = rho0 * g * depth, e;
        if (st.position[k].y > y_max - 0.5 * l0) continue;   /* the top layer */
        ++below;
        e = fabs(st.pressure[k] - expected) / expected;
        ratio += st.pressure[k] / expected;
        if (!(e <= 0.05) && bad++ < 3 && getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    hydrostatic: depth %.4f m: pressure %.1f Pa, rho0 g depth %.1f Pa (%.1f%%)\n", depth,
                    st.pressure[k], expected, 100.0 * e);
        worst = e > worst || e != e ? e : worst;
        if (fabs(st.position[k].x) < sph_column_half[0] - 2.0 * l0 && fabs(st.position[k].z) < sph_column_half[2] - 2.0 * l0)
            worst_inner = e > worst_inner || e != e ? e : worst_inner;
    }
    for (i = 0; i < 11; ++i) {   /* the layers below the top one */
        double ps = 0.0, es = 0.0;
        for (k = 0; k < st.n; ++k)
            if ((int)floor(st.position[k].y / l0) == i && st.position[k].y <= y_max - 0.5 * l0) {
                ps += st.pressure[k];
                es += rho0 * g * (surface - st.position[k].y);
            }
        if (es > 0.0 && !(fabs(ps / es - 1.0) <= out.worst_layer)) out.worst_layer = fabs(ps / es - 1.0);
    }
    for (k = 0; k < st.n; ++k)
        out.rms_speed += (double)st.velocity[k].x * st.velocity[k].x + (double)st.velocity[k].y * st.velocity[k].y +
                         (double)st.velocity[k].z * st.velocity[k].z;
    out.rms_speed = sqrt(out.rms_speed / (st.n ? st.n : 1));
    out.worst = worst;
    out.worst_inner = worst_inner;
    out.mean = ratio / (below ? below : 1);
    out.max_speed = max_speed;
    out.below = below;
    out.bad = bad;
    CHECKF(below >= added / 2 && top > 0, "%u particles below the top layer, %u in it, of %u", below, top, added);
    if (getenv("GP_TEST_VERBOSE")) {   /* layer by layer: the mean, the spread and the mean's ratio */
        int layer;
        for (layer = 0; layer < 12; ++layer) {
            double ys = 0.0, ps = 0.0, least = INFINITY, most = -INFINITY;
            uint32_t in = 0;
            for (k = 0; k < st.n; ++k) {
                if ((int)floor(st.position[k].y / l0) != layer) continue;
                ys += st.position[k].y; ps += st.pressure[k]; ++in;
                least = st.pressure[k] < least ? st.pressure[k] : least;
                most = st.pressure[k] > most ? st.pressure[k] : most;
            }
            if (in) fprintf(stderr, "    hydrostatic: layer %2d: %2u particles at %.4f m: p %7.1f Pa [%7.1f, %7.1f], rho0 g depth %7.1f (%.3f)\n",
                            layer, in, ys / in, ps / in, least, most, rho0 * g * (surface - ys / in), ps / in / (rho0 * g * (surface - ys / in)));
        }
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    hydrostatic: surface %.4f m, worst %.2f%%, worst layer %.2f%%, max speed %.3g m/s, rms %.3g m/s\n", surface,
                100.0 * worst, 100.0 * out.worst_layer, max_speed, out.rms_speed);
    sph_state_free(&st);
    gp_world_destroy(w);
    return out;
}

/* The continuity model with a viscosity of 0.02 m^2/s holds the column hydrostatic particle by particle: settled at 0.6 s and
   watched to 2 s, the fastest particle below 0.01 m/s all along, and at 2 s every pressure below
   the top layer within 5% of rho0 |g| depth. Measured on llvmpipe: worst 0.06%, 1.2e-4 m/s.
   (Later, from about 3 s, the simple cubic lattice slowly re-packs, and the worst particle drifts
   to 4.5-5.3%, in the second layer, where rho0 g depth is 320 Pa.) What makes it so: the density
   is carried, so the pressure does not follow every detail of the packing; the diffusion (less
   its hydrostatic part) smooths what noise there is; and the walls' particles carry the
   pressure a fluid at rest would have behind the wall, so that the particles along the walls
   feel the same pressure gradient as those inside (without them: 9% too much everywhere). */
/* Water (the continuity model, nu = 1e-6 m^2/s, the preset's): the issue's "a column at rest
   stays hydrostatic within 3%". With water's viscosity nothing damps the particles' small
   re-packing of the simple cubic lattice, so single particles scatter (+-100 Pa, tens of % in the
   top layers, where rho0 g depth is a few hundred Pa): what stays hydrostatic is the pressure of
   every layer, its mean within 3% of rho0 |g| depth at its particles' depths, and the column
   stays at rest as a whole (root mean square speed below 2% of sqrt(g H) = 1.7 m/s, the speed
   scale of a 0.3 m column's collapse). Measured on llvmpipe: worst layer 2.1%, rms 0.019 m/s. */
static void test_sph_hydrostatic_water(void) {
    sph_column c = sph_hydrostatic_run(GP_DENSITY_CONTINUITY, 1e-6f, 140);
    CHECKF(c.worst_layer <= 0.03, "water: a layer's mean pressure is %.2f%% off rho0 g depth (3%% allowed)", 100.0 * c.worst_layer);
    CHECKF(c.rms_speed < 0.02 * sqrt(9.81 * 0.3), "water: the column at rest moves at %.3g m/s (root mean square)", c.rms_speed);
}

/* Water added as a block starts at rest (gp_fluid_add_block: the continuity model's carried density
   of a column at rest, rho0 + rho0 |g| depth / k): the column of sph_hydrostatic_run (6 x 12 x 6
   spacings of 0.025 m, 0.3 m deep, water) watched from its first step of 0.01 s for 0.25 s. Its
   fastest particle stays under 0.01 m/s (0.6% of sqrt(g H)), and the pressure at its floor, the
   bottom layer's mean, is rho0 |g| depth within 3% from the first step on. Measured on llvmpipe:
   fastest 0.0034 m/s, the floor's pressure within 0.7%; started at the rest density (before this
   change) the same column fell into its own compression and rang: 0.093 m/s, the floor's pressure
   swinging from 0.2 to 1.84 times the hydrostatic. (From about 0.3 s on, with water's viscosity,
   the simple cubic lattice begins to re-pack, as sph_hydrostatic_water says: 0.09 m/s at 0.5 s,
   either way.) */
/* The mean, over a column's particles whose kernel lies wholly in the fluid (re from its walls and
   its surface), of their carried density less their positions' summation density
   (sph_positions_density), over rho0. */
static double sph_block_density_gap(const sph_state* st, const gp_fluid_material* fm, const sph_setup* s, float l0) {
    cpu_sph_particle* out = sph_positions_density(st, fm, s->colliders, s->collider_count);
    double gap = 0.0, top = -INFINITY;
    uint32_t k, in = 0;
    for (k = 0; k < st->n; ++k) top = fmax(top, st->position[k].y + 0.5 * l0);
    for (k = 0; k < st->n; ++k) {
        const gp_particle_position* p = &st->position[k];
        if (fabs(p->x) > sph_column_half[0] - fm->smoothing_radius || fabs(p->z) > sph_column_half[2] - fm->smoothing_radius ||
            p->y < fm->smoothing_radius || p->y > top - fm->smoothing_radius)
            continue;
        gap += (st->density[k] - out[k].density) / fm->rest_density;
        ++in;
    }
    free(out);
    return in ? gap / in : NAN;
}

static void test_sph_block_starts_at_rest(void) {
    const float l0 = SPH_COLUMN_SPACING, *lo = sph_column_lo, *hi = sph_column_hi;
    sph_setup s;
    gp_world* w = sph_tank_world(1000, sph_column_centre, sph_column_half, 0, &s);
    gp_fluid_material m;
    gp_step_desc step;
    uint32_t added = 0;
    double fastest = 0.0, worst = 0.0, gap = NAN;
    int i;
    if (!w) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK && gp_fluid_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 12 * 6);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (i = 0; i < 25; ++i) {
        sph_state st;
        double p = 0.0, expected = 0.0;
        uint32_t k, in = 0;
        CHECK(gp_world_step(w, &step) == GP_OK);
        st = sph_read(w, 1);
        for (k = 0; k < st.n; ++k) {
            double speed = sqrt((double)st.velocity[k].x * st.velocity[k].x + (double)st.velocity[k].y * st.velocity[k].y +
                                (double)st.velocity[k].z * st.velocity[k].z);
            fastest = speed > fastest || speed != speed ? speed : fastest;
            if (st.position[k].y < l0) { p += st.pressure[k]; expected += m.rest_density * 9.81 * (12 * l0 - st.position[k].y); ++in; }
        }
        if (in) worst = fmax(worst, fabs(p / expected - 1.0));
        else worst = INFINITY;
        if (i == 0) gap = sph_block_density_gap(&st, &m, &s, l0);
        sph_state_free(&st);
    }
    CHECKF(fabs(gap) < 0.0005, "a block of water at rest in its tank: its interior particles carry %.3f%% of rho0 more than their "
           "positions' summation density: the block was not squeezed by its own weight", 100.0 * gap);
    CHECKF(fastest < 0.01, "a block of water at rest in its tank: its fastest particle reached %.4f m/s in 0.25 s", fastest);
    CHECKF(worst < 0.03, "a block of water at rest in its tank: the pressure at its floor is %.1f%% off rho0 g depth", 100.0 * worst);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    from the start: fastest %.4f m/s, the floor's pressure within %.2f%%, carried less summation density %+.4f%%\n",
                fastest, 100.0 * worst, 100.0 * gap);
    gp_world_destroy(w);
}

/* The default stiffness follows the scene's depth (issue 10: water at the scale of the scene). A
   column of water 1 m high and 0.2 m wide (spacing 0.05 m) let go in a closed tank 1 m long, the
   material left at its defaults: its first block sets the stiffness to 400 |g| H (sound ten times
   the ideal front 2 sqrt(g H)), 3,924 here, and the fluid squeezes about a quarter as much as
   with the old default 1000 (set explicitly here, and kept: no message): the densest particle's
   excess over rho0, averaged over the 48 frames of the first 0.8 s (the column's own weight, the
   surge, its impact on the far wall at 0.4 s), is tested under half the old default's and under
   1% (measured on llvmpipe: 0.42% against 1.45%; the column's floor at rest g H / k, 0.25%
   against 0.98%). A shallow block (0.2 m) keeps 1000; a deeper block added after the first leaves
   the stiffness and says so (GP_LOG_ITEM_FLUID_TOO_DEEP). */
static double sph_deep_column(float stiffness, float* resolved) {
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.2f, 1.0f, 0.1f};
    gp_world* w = fixture_grid_world(400, 0.1f, 1);
    gp_collider_desc tank = sph_box(0.5f, 0.75f, 0.05f, 0.5f, 0.75f, 0.05f, 1);
    gp_collider handle;
    gp_fluid_material m;
    double squeeze = 0.0;
    uint32_t added = 0;
    int frame;
    if (!w) return NAN;
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    memset(&m, 0, sizeof m);
    m.stiffness = stiffness;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 4 * 20 * 2);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    *resolved = m.stiffness;
    for (frame = 0; frame < 48; ++frame) {
        gp_fluid_stats stats;
        fixture_run(w, 1);
        CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
        squeeze += (stats.max_density / m.rest_density - 1.0) / 48.0;
    }
    gp_world_destroy(w);
    return squeeze;
}

static void test_sph_default_stiffness_follows_depth(void) {
    const float lo[3] = {0.0f, 0.0f, 0.0f}, shallow[3] = {0.2f, 0.2f, 0.2f}, deep[3] = {0.2f, 0.6f, 0.2f};
    float automatic = 0.0f, old = 0.0f;
    double squeeze_auto = sph_deep_column(0.0f, &automatic), squeeze_old = sph_deep_column(1000.0f, &old);
    gp_world* w = fixture_grid_world(2000, 0.1f, 0);
    gp_fluid_material m;
    CHECKF(fabs(automatic / (400.0 * 9.81 * 1.0) - 1.0) < 1e-5, "a 1 m column of the default water set its stiffness to %g, not 400 |g| H = %g",
           automatic, 400.0 * 9.81);
    CHECKF(old == 1000.0f, "an explicit stiffness of 1000 became %g", old);
    CHECKF(squeeze_auto < 0.01 && squeeze_auto < 0.5 * squeeze_old,
           "the 1 m dam break squeezed its densest particle by %.2f%% on average (%.2f%% with the old default)", 100.0 * squeeze_auto,
           100.0 * squeeze_old);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    1 m column: stiffness %g, the densest particle %.3f%% over rho0 on average; with 1000: %.3f%%\n", automatic,
                100.0 * squeeze_auto, 100.0 * squeeze_old);
    if (!w) return;
    CHECK(gp_fluid_add_block(w, 0, lo, shallow, NULL, NULL) == GP_OK && gp_fluid_material_get(w, 0, &m) == GP_OK);
    CHECKF(m.stiffness == 1000.0f, "a block 0.2 m deep set the default stiffness to %g (1000 suits it)", m.stiffness);
    CHECK(gp_fluid_add_block(w, 0, lo, deep, NULL, NULL) == GP_OK && gp_fluid_material_get(w, 0, &m) == GP_OK);
    CHECKF(m.stiffness == 1000.0f && fixture_logged_item(GP_LOG_ITEM_FLUID_TOO_DEEP),
           "a deeper block after the first: stiffness %g (kept 1000?), warned: %d", m.stiffness, fixture_logged_item(GP_LOG_ITEM_FLUID_TOO_DEEP));
    gp_world_destroy(w);
}

static void test_sph_hydrostatic_column(void) {
    sph_column c = sph_hydrostatic_run(GP_DENSITY_CONTINUITY, 0.02f, 140);
    CHECKF(c.worst <= 0.05 && c.bad == 0, "continuity model: %u of %u particles below the top layer are off rho0 g depth by "
           "more than 5%% (worst %.2f%%, %.2f%% at least re from the side walls; mean ratio %.4f)", c.bad, c.below,
           100.0 * c.worst, 100.0 * c.worst_inner, c.mean);
    CHECKF(c.max_speed < 0.01f, "continuity model: the settled column still moves at %.4g m/s", c.max_speed);
}

/* The paper's summation model does not reach 5% (README, "The design in a paragraph"): the
   column starts at rest density, edges and corners included (sph_tank_rest_density), but the
   simple cubic lattice does not outlast gravity's squeeze; between 0.1 and 0.2 s the layers re-pack, and
   from then on densities scatter by about 0.2% around their layer's, which the default
   stiffness (1000) makes +-2000 Pa, while rho0 g depth is 120-2800 Pa. What is checked, and
   fails on a factor-2 pressure gradient or a column that does not settle: the mean of
   p / (rho0 g depth) below the top layer within 25% of 1 (layer means measured 0.87-1.07), the column
   below 0.1 m/s. */
/* Two fluids at rest, one on the other (issue 10: presets that meet): olive oil (910 kg/m^3)
   0.1 m deep on water 0.1 m deep in a tank 0.1 m wide, spacing 0.02 m, both given a syrup's
   viscosity (0.02 m^2/s) so that the start's ringing (the water's block starts short of the oil's
   weight) dies out, watched 1.5 s. Measured on llvmpipe: the bottom layer 0.6% under the weight
   above it, nothing faster than 1e-4 m/s, the interface's two layers 0.02003 m apart. (The interior
   relaxation, sph_continuity.comp, leaves particles with another fluid in their kernel alone,
   whose summation density mixes the two fluids' masses; without that rule this scene reads the
   same, 0.7% and 0.02005 m: the water's side of the interface squeezes as much as the oil's
   stretches, so the rule is checked against the CPU reference only, `sph_compute_matches_reference`'s
   two materials.) Tested: the two stay layered (no water
   above 0.1 m + a spacing, no oil below 0.1 m - a spacing), the water's bottom layer presses with
   the weight above it, rho_w g h_w + rho_o g h_o, within 3%, and nothing moves faster than
   0.01 m/s at the end. */
static void test_sph_two_fluids_at_rest(void) {
    const float l0 = 0.02f, water_lo[3] = {0.0f, 0.0f, 0.0f}, water_hi[3] = {0.1f, 0.1f, 0.1f}, oil_lo[3] = {0.0f, 0.1f, 0.0f},
                oil_hi[3] = {0.1f, 0.2f, 0.1f};
    gp_world* w = fixture_grid_world(1000, 2.0f * l0, 1);
    gp_collider_desc tank = sph_box(0.05f, 0.15f, 0.05f, 0.05f, 0.15f, 0.05f, 1);
    gp_collider handle;
    gp_fluid_material water, oil;
    sph_state st;
    uint32_t k, mixed = 0, bottom = 0, n = 0, below = 0, above = 0;
    double p = 0.0, expected = 0.0, fastest = 0.0, top = 0.0, water_top = 0.0, oil_bottom = 0.0;
    if (!w) return;
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &water) == GP_OK && gp_fluid_preset_material(GP_FLUID_OIL, l0, &oil) == GP_OK);
    water.viscosity = oil.viscosity = 0.02f;
    CHECK(gp_fluid_material_set(w, 0, &water) == GP_OK && gp_fluid_material_set(w, 1, &oil) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, water_lo, water_hi, NULL, NULL) == GP_OK && gp_fluid_add_block(w, 1, oil_lo, oil_hi, NULL, &n) == GP_OK);
    fixture_run(w, 90);
    st = sph_read(w, 1);
    for (k = 0; k < st.n; ++k) top = fmax(top, st.position[k].y + 0.5 * l0);   /* the oil's surface */
    for (k = 0; k < st.n; ++k) {
        double speed = sqrt((double)st.velocity[k].x * st.velocity[k].x + (double)st.velocity[k].y * st.velocity[k].y +
                            (double)st.velocity[k].z * st.velocity[k].z);
        int is_oil = (st.info[k].kind >> 16) == 1u;
        fastest = speed > fastest || speed != speed ? speed : fastest;
        if (is_oil ? st.position[k].y < 0.1f - l0 : st.position[k].y > 0.1f + l0) ++mixed;
        if (!is_oil && st.position[k].y > 0.1f - l0) { water_top += st.position[k].y; ++below; }   /* the interface's two layers */
        if (is_oil && st.position[k].y < 0.1f + l0) { oil_bottom += st.position[k].y; ++above; }
        if (!is_oil && st.position[k].y < l0) {
            p += st.pressure[k];
            expected += 9.81 * (1000.0 * (0.1 - st.position[k].y) + 910.0 * (top - 0.1));
            ++bottom;
        }
    }
    p = bottom ? p / bottom : NAN;
    expected = bottom ? expected / bottom : NAN;
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    two fluids: %u of %u particles across the interface, the floor's pressure %.1f Pa (%.1f expected), "
                "fastest %.4f m/s, the interface's layers %.5f m apart\n", mixed, st.n, p, expected, fastest,
                oil_bottom / (above ? above : 1) - water_top / (below ? below : 1));
    CHECKF(st.n == 2 * n && mixed == 0, "oil on water at rest: %u of %u particles crossed the interface", mixed, st.n);
    CHECKF(fabs(p / expected - 1.0) < 0.03, "oil on water at rest: the water's bottom layer presses with %.1f Pa, the layers' weight "
           "%.1f Pa (%.1f%% off)", p, expected, 100.0 * (p / expected - 1.0));
    CHECKF(fastest < 0.01, "oil on water at rest: a particle moves at %.4f m/s after 1.5 s", fastest);
    sph_state_free(&st);
    gp_world_destroy(w);
}

static void test_sph_hydrostatic_summation(void) {
    sph_column c = sph_hydrostatic_run(GP_DENSITY_SUMMATION, 0.02f, 10);
    CHECKF(fabs(c.mean - 1.0) < 0.25, "summation model: mean p / (rho0 g depth) %.3f below the top layer (%u of %u particles "
           "off by more than 5%%, worst %.1f%%)", c.mean, c.bad, c.below, 100.0 * c.worst);
    CHECKF(c.max_speed < 0.1f, "summation model: the settled column still moves at %.4g m/s", c.max_speed);
}

/* gp_world_step never waits for the step it just sent: the host plans a step's substeps from the
   fastest particle after the step before last, and the GPU shortens each substep that the speeds
   left by the one before need shorter (step_clock), within the step. A lone particle falls at
   2,500 m/s^2 (50 m/s more per step of 0.02 s, two steps' more than the host knows of):
   - every substep starts with a CFL number of at most max_cfl (1), as the GPU measured it;
   - the time the step's substeps could not run is owed (lag) and nothing else is lost: the
     particle's speed is g (t - lag), t the calls' time, to float rounding;
   - the host's count for step k is ceil((dt + lag_{k-2}) (sound + v_{k-2}) / l0), in the
     header's own float arithmetic (v_{-2} = v_{-1} = 0, no lag);
   - once the fall stops (gravity 0), the next steps run what is owed: within three steps the
     lag is 0 and the particle has flown exactly the calls' time.
   (Before the GPU's clock, the substeps followed the speed two steps late: CFL numbers up to 3.)
   A particle added between two steps counts in both of the next two. */
static void test_sph_substeps_two_steps_behind(void) {
    const float gravity[3] = {0.0f, -2500.0f, 0.0f}, none[3] = {0.0f, 0.0f, 0.0f}, lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.025f, 0.025f, 0.025f};
    gp_world* w = fixture_grid_world(16, 0.05f, 0);
    gp_fluid_material m;
    gp_step_desc step;
    gp_fluid_stats stats;
    gp_particle_velocity v;
    float speed[12] = {0.0f}, lag[12] = {0.0f};
    uint32_t added = 0;
    int k;
    if (!w) return;
    CHECK(gp_gravity_set(w, gravity) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 1);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);   /* the block set its stiffness: 400 |g| H */
    memset(&step, 0, sizeof step);
    step.dt = 0.02f;
    for (k = 0; k < 10; ++k) {
        float behind = k >= 2 ? speed[k - 2] : 0.0f, owed = k >= 2 ? lag[k - 2] : 0.0f;
        uint32_t expected = (uint32_t)ceil(((double)step.dt + owed) * (sqrtf(m.stiffness) + behind) / ((double)1.0f * m.spacing));
        double fallen;   /* seconds of falling the particle has run */
        if (k == 6) CHECK(gp_gravity_set(w, none) == GP_OK);
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK);
        speed[k] = stats.max_speed;
        lag[k] = stats.lag;
        fallen = k < 6 ? (k + 1) * (double)step.dt - stats.lag : 6 * (double)step.dt - lag[5];
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    step %d: %u substeps, CFL reached %.4f, owed %.6f s, %.3f m/s\n", k, stats.substeps, stats.cfl_reached,
                    stats.lag, -v.y);
        CHECKF(stats.substeps == expected, "step %d: %u substeps, %u expected from the speed two steps before (%g m/s) and %g s owed",
               k, stats.substeps, expected, behind, owed);
        CHECKF(stats.cfl_reached <= 1.0f + 1e-5f && stats.cfl_reached > 0.5f, "step %d: a substep started at CFL %g (max_cfl 1)", k,
               stats.cfl_reached);
        CHECKF(fabs(-v.y - 2500.0 * fallen) <= 1e-4 * 2500.0 * (k + 1) * step.dt,
               "step %d: the particle falls at %g m/s; %g s of falling (the calls' time less %g s owed) give %g", k, -v.y, fallen,
               stats.lag, 2500.0 * fallen);
        if (k >= 1 && k < 6) CHECKF(stats.lag > 0.0f, "step %d: the speed grew by two steps' worth, yet nothing is owed", k);
        if (k >= 9) CHECKF(stats.lag == 0.0f, "step %d: %g s still owed three steps after the speed stopped growing", k, stats.lag);
    }
    /* a particle added at 400 m/s between two steps (far from the first): the next two steps,
       whose statistics are from before it, still count it */
    {
        const float far[3] = {1.0f, 1.0f, 1.0f}, fast[3] = {400.0f, 0.0f, 0.0f};
        gp_particles_desc d;
        memset(&d, 0, sizeof d);
        d.count = 1;
        d.positions = far;
        d.velocities = fast;
        d.mass = m.mass;
        d.kind = GP_KIND_FLUID;
        CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        for (k = 0; k < 2; ++k) {
            uint32_t least = (uint32_t)ceil((double)step.dt * (sqrtf(m.stiffness) + 400.0f) / ((double)1.0f * m.spacing));
            CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
            CHECKF(stats.substeps >= least, "step %d after a particle was added at 400 m/s: %u substeps, at least %u expected", k,
                   stats.substeps, least);
        }
    }
    gp_world_destroy(w);
}

/* When even a step's 1,000 substeps cannot keep a limit (here the lava preset's viscous limit,
   0.05 re^2 / nu = 5e-5 s at spacing 0.005 m, against steps of 0.2 s: 4,000 substeps' worth), the
   GPU's clock shortens them and the world owes time; the debt stops at four steps' dt, and
   beyond it the world runs slower than the calls rather than owe ever more (each step runs
   1,000 x 5e-5 = 0.05 s of the 0.2). A lone particle falls freely meanwhile: its speed is g times
   the time run, 0.05 s a step. The first step warns that the limits ask for more than 1,000
   substeps (GP_LOG_ITEM_SUBSTEPS_CAPPED), once while it lasts: no other warning in six steps;
   then a step of 1 ms (10 substeps), and the next capped step warns again. */
static void test_sph_step_owes_at_most_four_steps(void) {
    const float at[3] = {0.0f, 0.0f, 0.0f};
    gp_world* w = fixture_grid_world(4, 0.01f, 0);
    gp_fluid_material m;
    gp_particles_desc d;
    gp_fluid_stats stats;
    gp_particle_velocity v;
    gp_step_desc step;
    int k, logged;
    if (!w) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_LAVA, 0.005f, &m) == GP_OK && gp_fluid_material_set(w, 0, &m) == GP_OK);
    memset(&d, 0, sizeof d);
    d.count = 1; d.positions = at; d.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    logged = fixture_log_count;
    for (k = 0; k < 6; ++k) {
        memset(&step, 0, sizeof step);
        step.dt = 0.2f;
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        if (k == 0) CHECKF(fixture_logged_item(GP_LOG_ITEM_SUBSTEPS_CAPPED), "the first capped step did not warn: %s", fixture_log);
        CHECKF(stats.substeps == 1000 && stats.lag > 0.0f && stats.lag <= 4.0f * step.dt * (1.0f + 1e-6f),
               "step %d: %u substeps, %g s owed (at most 4 x %g)", k, stats.substeps, stats.lag, step.dt);
    }
    CHECKF(stats.lag >= 0.8f * (1.0f - 1e-5f), "after 6 steps %g s owed: the debt should have reached its cap, 0.8 s", stats.lag);
    CHECKF(fixture_log_count == logged + 1, "six capped steps logged %d warnings, one due (the last: %s)", fixture_log_count - logged, fixture_log);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK);
    CHECKF(fabs(-v.y - 9.81 * 6 * 0.05) <= 1e-3 * 9.81 * 6 * 0.05, "the particle falls at %g m/s after 6 steps of 0.05 s run; g t = %g",
           -v.y, 9.81 * 6 * 0.05);
    memset(&step, 0, sizeof step);   /* a step the limits fit (what is owed stays owed: a fixed count) */
    step.dt = 1e-3f;
    step.substeps = 10;
    CHECK(gp_world_step(w, &step) == GP_OK);
    step.dt = 0.2f;
    step.substeps = 0;
    logged = fixture_log_count;
    CHECK(gp_world_step(w, &step) == GP_OK);
    CHECKF(fixture_log_count == logged + 1 && fixture_logged_item(GP_LOG_ITEM_SUBSTEPS_CAPPED),
           "a capped step after a step within the limits did not warn again (%d messages)", fixture_log_count - logged);
    gp_world_destroy(w);
}

/* A column 6 x 8 x 6 spacings on a tank's floor, of the default material less what the test
   changes (m: in, the changes made to the resolved defaults; out, the material as resolved),
   stepped 0.01 s at a time for `steps` steps with automatic substeps: the last step's statistics
   and the fastest particle over all. */
static gp_fluid_stats sph_column_run(gp_fluid_material* m, int steps, float* fastest) {
    const float centre[3] = {0.0f, 0.25f, 0.0f}, half[3] = {3 * 0.025f, 0.25f, 3 * 0.025f};
    const float lo[3] = {-3 * 0.025f, 0.0f, -3 * 0.025f}, hi[3] = {3 * 0.025f, 8 * 0.025f, 3 * 0.025f};
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 0, &s);
    gp_step_desc step;
    gp_fluid_stats stats;
    uint32_t added = 0;
    int i;
    memset(&stats, 0, sizeof stats);
    *fastest = 0.0f;
    if (!w) return stats;
    CHECK(gp_fluid_material_set(w, 0, m) == GP_OK && gp_fluid_material_get(w, 0, m) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 8 * 6);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (i = 0; i < steps; ++i) {
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        *fastest = stats.max_speed > *fastest || stats.max_speed != stats.max_speed ? stats.max_speed : *fastest;
    }
    gp_world_destroy(w);
    return stats;
}

/* The continuity model's diffusion takes the substeps it needs: at diffusion 1 (ten times the
   default) its limit, 0.05 re / (diffusion c0) = 8e-5 s, asks 122 substeps for 0.01 s where the
   CFL number asks 13; with them a column in a tank stays sound over 0.1 s (densities within 5%
   of rest, slower than 0.5 m/s). Without the limit it blew up (3,000 m/s, densities 10 to 1e11
   kg/m^3), and diffusion 0.3 already did. */
static void test_sph_diffusion_substeps(void) {
    gp_fluid_material m;
    gp_fluid_stats stats;
    float fastest;
    memset(&m, 0, sizeof m);
    m.density_model = GP_DENSITY_CONTINUITY;
    m.diffusion = 1.0f;
    stats = sph_column_run(&m, 10, &fastest);
    CHECKF(stats.substeps >= 100, "%u substeps for 0.01 s at diffusion 1: the diffusion's limit asks about 122", stats.substeps);
    CHECKF(fastest < 0.5f && stats.min_density > 0.95f * m.rest_density && stats.max_density < 1.05f * m.rest_density,
           "diffusion 1: the column reached %.3g m/s, densities %.1f to %.1f kg/m^3 at the last substep", fastest,
           stats.min_density, stats.max_density);
}

/* A syrupy material (nu = 1 m^2/s, 50 times the default) takes the substeps its viscosity needs:
   gp_world_step picks at least dt / (0.05 re^2 / nu) of them, and a column in a tank stays
   bounded and settles. Without the viscous limit the substeps follow the CFL number alone (4 for
   dt 0.01 s) and the explicit viscosity diverges within a few steps (measured: 221 m/s). */
static void test_sph_viscous_substeps(void) {
    gp_fluid_material m;
    gp_fluid_stats stats;
    float fastest;
    uint32_t least;
    memset(&m, 0, sizeof m);
    m.viscosity = 1.0f;
    stats = sph_column_run(&m, 30, &fastest);
    least = (uint32_t)ceil(0.01 / (0.05 * m.smoothing_radius * m.smoothing_radius / m.viscosity) - 1e-6);
    CHECKF(stats.substeps >= least, "%u substeps for dt 0.01 s at nu 1 m^2/s: at least %u keep the viscosity stable",
           stats.substeps, least);
    CHECKF(fastest < 0.5f && stats.nonfinite == 0, "the syrupy column reached %.3g m/s (%u non-finite)", fastest, stats.nonfinite);
    CHECKF(stats.max_speed < 0.02f, "the syrupy column still moves at %.3g m/s after 0.3 s", stats.max_speed);
}

/* gp_lattice_block_count and gp_lattice_ball_count say what gp_fluid_add_block and
   gp_fluid_add_ball add, without a world: random blocks and balls of odd sizes (some empty,
   some a fraction of a spacing), then bad input (zero, negative and NaN spacing, NaN corner,
   negative radius) counts 0. */
static void test_sph_lattice_counts(void) {
    gp_world* w = fixture_grid_world(20000, 0.05f, 0);
    gp_fluid_material m;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    const float nan = NAN, lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.1f, 0.1f}, bad[3] = {0.0f, NAN, 0.0f};
    int t, mismatches = 0;
    if (!w) return;
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    for (t = 0; t < 24; ++t) {
        float a[3], b[3], c[3], radius;
        uint32_t added = 0, before = gp_particle_count(w);
        uint64_t expected;
        int k;
        for (k = 0; k < 3; ++k) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[k] = (float)((seed >> 40) % 1000) * 1e-4f - 0.05f;
            b[k] = a[k] + (float)((seed >> 20) % 1000) * (t % 4 == 0 ? 1e-5f : 1.3e-4f);
            c[k] = 0.5f * (a[k] + b[k]);
        }
        radius = 0.37f * (b[0] - a[0]) + 0.003f;
        if (t % 2) {
            expected = gp_lattice_block_count(m.spacing, a, b);
            CHECK(gp_fluid_add_block(w, 0, a, b, NULL, &added) == GP_OK);
        } else {
            expected = gp_lattice_ball_count(m.spacing, c, radius);
            CHECK(gp_fluid_add_ball(w, 0, c, radius, NULL, &added) == GP_OK);
        }
        mismatches += expected != added || gp_particle_count(w) != before + added;
    }
    CHECKF(mismatches == 0, "%d of 24 counts differ from what was added", mismatches);
    CHECKF(gp_particle_count(w) > 0, "no particle added in 24 scenes: the test saw nothing");
    CHECK(gp_lattice_block_count(0.01f, lo, hi) == 1000);
    CHECK(gp_lattice_block_count(0.0f, lo, hi) == 0 && gp_lattice_block_count(-0.01f, lo, hi) == 0);
    CHECK(gp_lattice_block_count(nan, lo, hi) == 0 && gp_lattice_block_count(0.01f, bad, hi) == 0);
    CHECK(gp_lattice_block_count(0.01f, hi, lo) == 0 && gp_lattice_block_count(0.01f, NULL, hi) == 0);
    CHECK(gp_lattice_ball_count(0.01f, lo, -1.0f) == 0 && gp_lattice_ball_count(0.01f, bad, 1.0f) == 0);
    CHECK(gp_lattice_ball_count(0.01f, lo, 0.0f) == 0 && gp_lattice_ball_count(0.01f, lo, 0.05f) > 0);
    gp_world_destroy(w);
}

const gp_test_case sph_tests[] = {
    {"sph_reference_self_check", test_sph_reference_self_check},
    {"sph_compute_matches_reference", test_sph_compute_matches_reference},
    {"sph_empty_world", test_sph_empty_world},
    {"sph_artificial_viscosity", test_sph_artificial_viscosity},
    {"sph_reference_threshold_set_aside", test_sph_reference_threshold_set_aside},
    {"sph_coupling_matches_reference", test_sph_coupling_matches_reference},
    {"sph_presets", test_sph_presets},
    {"sph_dam_break_energy", test_sph_dam_break_energy},
    {"sph_dam_break_martin_moyce", test_sph_dam_break_martin_moyce},
    {"sph_block_starts_at_rest", test_sph_block_starts_at_rest},
    {"sph_default_stiffness_follows_depth", test_sph_default_stiffness_follows_depth},
    {"sph_water_drop", test_sph_water_drop},
    {"sph_pair_on_top_parts_gently", test_sph_pair_on_top_parts_gently},
    {"sph_dam_break_keeps_volume", test_sph_dam_break_keeps_volume},
    {"sph_taylor_green_viscosity", test_sph_taylor_green_viscosity},
    {"sph_step_matches_reference", test_sph_step_matches_reference},
    {"sph_boundary_distance_matches_reference", test_sph_boundary_distance_matches_reference},
    {"sph_rejects_bad_input", test_sph_rejects_bad_input},
    {"sph_full_store", test_sph_full_store},
    {"sph_nan_particle_is_kept", test_sph_nan_particle_is_kept},
    {"sph_dam_break_conserves", test_sph_dam_break_conserves},
    {"sph_mirror_symmetry", test_sph_mirror_symmetry},
    {"sph_tank_rest_density", test_sph_tank_rest_density},
    {"sph_dam_break_continuity", test_sph_dam_break_continuity},
    {"sph_continuity_repeats", test_sph_continuity_repeats},
    {"sph_substeps_two_steps_behind", test_sph_substeps_two_steps_behind},
    {"sph_step_owes_at_most_four_steps", test_sph_step_owes_at_most_four_steps},
    {"sph_diffusion_substeps", test_sph_diffusion_substeps},
    {"sph_hydrostatic_column", test_sph_hydrostatic_column},
    {"sph_two_fluids_at_rest", test_sph_two_fluids_at_rest},
    {"sph_hydrostatic_water", test_sph_hydrostatic_water},
    {"sph_hydrostatic_summation", test_sph_hydrostatic_summation},
    {"sph_viscous_substeps", test_sph_viscous_substeps},
    {"sph_lattice_counts", test_sph_lattice_counts},
};
const int sph_test_count = (int)(sizeof sph_tests / sizeof sph_tests[0]);
