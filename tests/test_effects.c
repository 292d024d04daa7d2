/* test_effects.c: effect particles (issue 11; 002 sections 4.2 and 4.6): a flight under gravity
   and linear drag against its closed form, a bounce on a height field keeping the stated
   restitution within 1%, friction stopping a slide as Coulomb says, their material's checks. */
#include "fixture.h"
#include <math.h>
#include <stdio.h>

/* One effect particle of the given phase at `at` with velocity `v0`, in a world with no fluid. */
static gp_world* effects_world(const float at[3], const float v0[3], uint32_t phase) {
    gp_world* w = fixture_grid_world(8, 0.1f, 1);
    gp_particles_desc d;
    if (!w) return NULL;
    memset(&d, 0, sizeof d);
    d.count = 1; d.positions = at; d.velocities = v0; d.kind = GP_KIND_EFFECT; d.phase = phase; d.radius = 0.01f;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    return w;
}

/* dv/dt = g - k v from (x0, v0): v(t) = g / k + (v0 - g / k) e^(-k t), x(t) = x0 + g t / k +
   (v0 - g / k) (1 - e^(-k t)) / k, with k = 2 / s, over 1.5 s in frames of 1/60 s (one substep
   each: there is no fluid to shorten them): within 1e-5 of the scale (m, m/s) at every frame,
   and the particle's age the time flown (to 2e-5 s: 90 float additions near 1.5 s). */
static void test_effects_flight_with_drag(void) {
    const float at[3] = {0.1f, 2.0f, -0.3f}, v0[3] = {3.0f, 5.0f, -1.0f};
    const double g[3] = {0.0, -9.81, 0.0}, k = 2.0;
    gp_world* w = effects_world(at, v0, 2);
    gp_effect_material m;
    double worst_x = 0.0, worst_v = 0.0, worst_age = 0.0;
    int frame, c;
    if (!w) return;
    memset(&m, 0, sizeof m);
    m.drag = (float)k;
    CHECK(gp_effect_material_set(w, 2, &m) == GP_OK);
    for (frame = 1; frame <= 90; ++frame) {
        gp_particle_position p;
        gp_particle_velocity v;
        gp_particle_life life;
        double t = frame / 60.0;
        fixture_run(w, 1);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK &&
              gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, 1, &life) == GP_OK);
        for (c = 0; c < 3; ++c) {
            double terminal = g[c] / k, decay = exp(-k * t);
            double x = at[c] + terminal * t + (v0[c] - terminal) * (1.0 - decay) / k, u = terminal + (v0[c] - terminal) * decay;
            double gx = c == 0 ? p.x : c == 1 ? p.y : p.z, gv = c == 0 ? v.x : c == 1 ? v.y : v.z;
            worst_x = fmax(worst_x, fabs(gx - x));
            worst_v = fmax(worst_v, fabs(gv - u));
        }
        worst_age = fmax(worst_age, fabs(life.age - t));
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    worst: %.3g m, %.3g m/s, age %.3g s\n", worst_x, worst_v, worst_age);
    CHECKF(worst_x <= 1e-5 * 5.0 && worst_v <= 1e-5 * 5.0, "the flight is %.3g m and %.3g m/s off its closed form", worst_x, worst_v);
    CHECKF(worst_age <= 2e-5, "the particle's age is %.3g s off the time flown", worst_age);   /* 90 float sums near 1.5 s */
    gp_world_destroy(w);
}

/* Dropped from rest 1 m above a flat height field (its radius 0.01 m above it at contact), with
   restitution e = 0.8 and no drag nor friction: it rises again to e^2 of the height it fell, the
   apex taken over steps of 1/600 s: the restitution sqrt(rise / fall) within 1% of 0.8, over
   the first two bounces (measured on llvmpipe: 0.8000 both). */
static void test_effects_bounce_keeps_restitution(void) {
    const float at[3] = {0.05f, 1.0f, 0.05f}, rest[3] = {0.0f, 0.0f, 0.0f}, heights[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    gp_world* w = effects_world(at, rest, 0);
    gp_effect_material m;
    gp_collider ground;
    double fall = 1.0 - 0.01, apex[2] = {0.0, 0.0}, last = 1.0;
    int frame, bounce = 0, rising = 0;
    if (!w) return;
    memset(&m, 0, sizeof m);
    m.restitution = 0.8f; m.friction = 1e-9f;
    CHECK(gp_effect_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_heightfield_add(w, heights, 2, 2, -1.0f, 1.0f, -1.0f, 1.0f, 0.0f, &ground) == GP_OK);
    for (frame = 0; frame < 3000 && bounce < 2; ++frame) {
        gp_step_desc step;
        gp_particle_position p;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 600;
        CHECK(gp_world_step(w, &step) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &p) == GP_OK);
        if (p.y > last) rising = 1;
        if (rising && p.y > apex[bounce]) apex[bounce] = p.y;
        if (rising && p.y < last) { rising = 0; ++bounce; }   /* past the apex */
        last = p.y;
    }
    {
        double e1 = sqrt((apex[0] - 0.01) / fall), e2 = sqrt((apex[1] - 0.01) / (apex[0] - 0.01));
        if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    apexes %.5f, %.5f m: restitution %.5f, %.5f\n", apex[0], apex[1], e1, e2);
        CHECKF(bounce == 2 && fabs(e1 / 0.8 - 1.0) <= 0.01 && fabs(e2 / 0.8 - 1.0) <= 0.01,
               "%d bounces; restitution %.4f and %.4f, stated 0.8", bounce, e1, e2);
    }
    gp_world_destroy(w);
}

/* Thrown along a flat ground at 2 m/s, touching it, with gravity pressing it down: each bounce's
   friction takes mu (1 + e) times the normal speed it hits with, so that a particle that keeps
   touching loses mu g per second of sliding (Coulomb): with mu = 0.3 it stops after
   v^2 / (2 mu g) = 0.680 m, at rest before 1.2 s, and never goes through. Stepped 1/600 s at a
   time (tested within 2%; measured 0.681 m): in resting contact the friction takes hold at the
   end of each substep, so a substep of 1/60 s slides 2.4% farther. */
static void test_effects_friction_stops_a_slide(void) {
    const float at[3] = {0.0f, 0.0105f, 0.0f}, v0[3] = {2.0f, 0.0f, 0.0f}, heights[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    gp_world* w = effects_world(at, v0, 1);
    gp_effect_material m;
    gp_collider ground;
    gp_particle_position p;
    gp_particle_velocity v;
    int frame;
    double lowest = 1.0;
    if (!w) return;
    memset(&m, 0, sizeof m);
    m.friction = 0.3f; m.restitution = 1e-6f;
    CHECK(gp_effect_material_set(w, 1, &m) == GP_OK);
    CHECK(gp_heightfield_add(w, heights, 2, 2, -5.0f, 5.0f, -5.0f, 5.0f, 0.0f, &ground) == GP_OK);
    for (frame = 0; frame < 720; ++frame) {
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 600;
        CHECK(gp_world_step(w, &step) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &p) == GP_OK);
        lowest = fmin(lowest, p.y);
    }
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK);
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    at x %.4f, speed (%.4f %.4f), lowest %.5f\n", p.x, v.x, v.y, lowest);
    CHECKF(fabsf(v.x) < 1e-3f && lowest >= 0.01 - 1e-4, "after 1.2 s the slide is at %.4f m/s (lowest %.5f m; radius 0.01)", v.x, lowest);
    CHECKF(fabs(p.x / (2.0 * 2.0 / (2.0 * 0.3 * 9.81)) - 1.0) <= 0.02, "the particle slid to x = %.4f; Coulomb with mu 0.3 stops it at %.4f m",
           p.x, 2.0 * 2.0 / (2.0 * 0.3 * 9.81));
    gp_world_destroy(w);
}

/* Refused with a reason: a phase beyond the table, negative drag, restitution above 1, NaN
   friction, NULL; zeros pick the defaults (restitution 0.5, friction 0.3, no drag). */
static void test_effects_material_rejects_bad_input(void) {
    gp_world* w = fixture_grid_world(8, 0.1f, 0);
    gp_effect_material m, got;
    if (!w) return;
    memset(&m, 0, sizeof m);
    CHECK(gp_effect_material_set(w, GP_MAX_EFFECT_MATERIALS, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    CHECK(gp_effect_material_set(w, 0, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NULL));
    m.drag = -1.0f;
    CHECK(gp_effect_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged("drag -1"));
    m.drag = 0.0f; m.restitution = 1.5f;
    CHECK(gp_effect_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged("restitution 1.5"));
    m.restitution = 0.0f; m.friction = NAN;
    CHECK(gp_effect_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged("friction nan"));
    CHECK(gp_effect_material_get(w, 0, &got) == GP_OK && got.drag == 0.0f && got.restitution == 0.5f && got.friction == 0.3f);
    m.friction = 0.0f;
    CHECK(gp_effect_material_set(w, 3, &m) == GP_OK && gp_effect_material_get(w, 3, &got) == GP_OK && got.restitution == 0.5f);
    gp_world_destroy(w);
}

const gp_test_case effects_tests[] = {
    {"effects_flight_with_drag", test_effects_flight_with_drag},
    {"effects_bounce_keeps_restitution", test_effects_bounce_keeps_restitution},
    {"effects_friction_stops_a_slide", test_effects_friction_stops_a_slide},
    {"effects_material_rejects_bad_input", test_effects_material_rejects_bad_input},
};
const int effects_test_count = (int)(sizeof effects_tests / sizeof effects_tests[0]);
