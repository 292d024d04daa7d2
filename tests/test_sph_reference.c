/* test_sph_reference.c: the SPH fluid (paper 001) against tests/cpu_sph.c, a double-precision
   reference written from the formulas alone:
     - the reference checks itself (lattice density, walls, momentum, brute force = grid);
     - gp_fluid_compute's density, pressure and acceleration on random blocks of 1 to 2,000
       particles, two materials, colliders, user forces, a bounded grid with particles outside it,
       all particles in one cell, and the empty world; artificial viscosity; a particle on the
       free-surface threshold; fluid beside solids (the coupling's terms);
     - one substep of gp_world_step, and gp_boundary_distance_read on every shape.
   Comparisons are relative to the sum of the magnitudes of the terms behind each value (see
   cpu_sph.h): the GPU sums in float, so a value that cancels is only known that well. */
#include "test_sph.h"

#define SPH_TOLERANCE 1e-4   /* relative to the terms' magnitudes: float sums are good to ~1e-6 */
/* The substep given to gp_fluid_compute (the accelerations do not depend on it: the wall push
   of eq. 11 is a displacement of the integration). */
#define SPH_COMPUTE_DT 0.005f

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
void test_sph_reference_self_check(void) {
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
void test_sph_artificial_viscosity(void) {
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
void test_sph_reference_threshold_set_aside(void) {
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

/* Fluid and solids (gpuparticle.h section >>coupling): a jittered block of 512 fluid
   particles with random velocities, a rigid box of 64 particles beside it, moving and spinning,
   and three grains at its other side, as wide as the fluid's spacing (narrower than its smoothing
   radius: the fluid drags them, coupling_drag; two of them 0.012 m apart, within the fluid's
   smoothing radius, so that each counts the other in the crowd sharing its fluid). The GPU's density, pressure and acceleration of
   every fluid particle (the body's particles as its boundary particles, the grains' pull back on
   it) and the acceleration of every solid particle (the equal and opposite force over its mass; a
   grain's the drag and buoyancy, with gravity, which dem_contact adds) against the
   double-precision reference (tests/cpu_sph.c), to 1e-4 of the terms' magnitudes; at least 16
   solid particles (of 67) within reach of the fluid, the three grains among them. */
void test_sph_coupling_matches_reference(void) {
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

/* Random blocks of 1, 7, 333 and 2,000 particles in each configuration; 600 in one cell. */
void test_sph_compute_matches_reference(void) {
    static const uint32_t sizes[] = {1, 7, 333, 2000};
    uint32_t config, k;
    for (config = 0; config < SPH_ONE_CELL; ++config)
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) sph_compute_case((int)config, sizes[k], 100 + config * 10 + k);
    sph_compute_case(SPH_ONE_CELL, 600, 7);
}

/* An empty world computes and steps without a message, and its statistics are zero. */
void test_sph_empty_world(void) {
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
void test_sph_step_matches_reference(void) {
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

/* gp_boundary_distance_read evaluates every shape as the reference does (float against double). */
void test_sph_boundary_distance_matches_reference(void) {
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
    CHECK(gp_boundary_distance_read(w, points, 500, distances) == GP_OK);
    for (k = 0; k < 500; ++k) {
        double x[3] = {points[3 * k], points[3 * k + 1], points[3 * k + 2]}, n[3];
        double d = cpu_sph_boundary(s.colliders, s.collider_count, x, n);
        if (!(fabs(distances[k] - d) <= 1e-6) && bad++ < 3)
            fprintf(stderr, "    boundary at (%g %g %g): %.8g, reference %.8g\n", x[0], x[1], x[2], distances[k], d);
    }
    CHECKF(bad == 0, "%u of 500 boundary distances differ from the reference by more than 1e-6 m", bad);
    gp_world_destroy(w);
}
