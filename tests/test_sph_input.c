/* test_sph_input.c: what the SPH fluid's calls accept and refuse: the presets' documented values,
   bad input refused (or warned about) with a result and a message naming the problem, a store that
   fills, a NaN written into the store kept and reported without harming any other particle, and
   the lattice's counts against what the adds add. */
#include "test_sph.h"

/* The presets (gp_fluid_preset_material): their documented values, refused values, and a small
   dam break with each (a column 0.06 m wide and 0.12 m high in a tank 0.6 m long, spacing 0.01 m,
   0.3 s): every particle stays finite and slower than 3 x 2 sqrt(g H), and the front runs farther the
   thinner the fluid: water (nu 1e-6) ahead of oil (9e-5), oil of honey (7e-3), honey of lava
   (0.1), each by at least half a spacing (measured on llvmpipe: 0.452, 0.425, 0.134, 0.063 m). */
void test_sph_presets(void) {
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

/* ---- bad input ------------------------------------------------------------------------------- */

/* Each refusal returns its result, leaves the world as it was, and logs a message naming the
   problem. */
void test_sph_rejects_bad_input(void) {
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
void test_sph_full_store(void) {
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

/* A NaN written into one particle's position (gp_particles_write refuses it, so through the raw
   buffer, as a user's shader could): stepping keeps every particle and the bad one, says so, and
   the others move as in a twin world that never had it (both deterministic: the same sums in the
   same order, so the only tolerance is for float rounding, 1e-6 m after 100 substeps). */
void test_sph_nan_particle_is_kept(void) {
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

/* gp_lattice_block_count and gp_lattice_ball_count say what gp_fluid_add_block and
   gp_fluid_add_ball add, without a world: random blocks and balls of odd sizes (some empty,
   some a fraction of a spacing), then bad input (zero, negative and NaN spacing, NaN corner,
   negative radius) counts 0. */
void test_sph_lattice_counts(void) {
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
