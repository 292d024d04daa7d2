/* test_sph_substeps.c: the step's clock for the fluid: gp_world_step plans its substeps from
   statistics two steps late without waiting, owes at most four steps when it cannot keep a limit,
   and takes the substeps that diffusion and viscosity need. */
#include "test_sph.h"

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
void test_sph_substeps_two_steps_behind(void) {
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
void test_sph_step_owes_at_most_four_steps(void) {
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
void test_sph_diffusion_substeps(void) {
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
void test_sph_viscous_substeps(void) {
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
