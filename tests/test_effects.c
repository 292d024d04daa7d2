/* test_effects.c: effect particles (002 sections 4.2 and 4.6): a flight under gravity
   and linear drag against its closed form, a bounce on a height field keeping the stated
   restitution within 1%, friction stopping a slide as Coulomb says, their material's checks. */
#include "fixture.h"
#include "cpu_effects.h"
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

/* The wind (gp_wind_set) as the effect particles feel it: with a drag of 10^4 / s and no gravity
   one step of 1/60 s leaves each particle at the air's speed where it started (e^(-k h) = 0), so
   its velocity reads the wind there. A 3 x 4 x 2 grid of random velocities, 0.5 m apart, plus a
   uniform (0.5, 0, 0): exact at the nodes and trilinear between them, the nearest face's beyond
   (checked against a CPU trilinear in double at every node, 40 random points inside and 6
   outside, to 1e-5 m/s); then a Rankine vortex about +y (2 m/s at radius 0.5 m): 1, 2 and 1 m/s
   at radii 0.25, 0.5 and 1 m, counter-clockwise seen from above. Bad winds are refused whole. */
static void effects_wind_cpu(const gp_wind_desc* d, const double p[3], double out[3]) {
    double g[3], f[3];
    int c[3], a, n;
    for (a = 0; a < 3; ++a) {
        g[a] = (p[a] - d->origin[a]) / d->cell;
        g[a] = g[a] < 0.0 ? 0.0 : g[a] > d->dims[a] - 1.0 ? d->dims[a] - 1.0 : g[a];
        c[a] = (int)g[a] < (int)d->dims[a] - 2 ? (int)g[a] : (int)d->dims[a] - 2;
        f[a] = g[a] - c[a];
        out[a] = d->uniform[a];
    }
    for (n = 0; n < 8; ++n) {   /* the eight nodes around, weighted */
        int o[3] = {n & 1, (n >> 1) & 1, (n >> 2) & 1};
        double weight = 1.0;
        size_t at;
        for (a = 0; a < 3; ++a) weight *= o[a] ? f[a] : 1.0 - f[a];
        at = 3 * ((size_t)(c[0] + o[0]) + d->dims[0] * ((size_t)(c[1] + o[1]) + d->dims[1] * (size_t)(c[2] + o[2])));
        for (a = 0; a < 3; ++a) out[a] += weight * d->grid[at + a];
    }
}

static void test_effects_wind(void) {
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    gp_world* w = fixture_grid_world(128, 0.5f, 1);
    gp_effect_material m;
    gp_wind_desc d;
    gp_particles_desc pd;
    float grid[3 * 24], xyz[3 * 70];
    gp_particle_velocity v[70];
    gp_particle_info info[70];
    uint64_t state = 99;
    double worst = 0.0;
    uint32_t n = 0, k;
    int i, j, l;
    if (!w) return;
    CHECK(gp_gravity_set(w, zero) == GP_OK);
    memset(&m, 0, sizeof m);
    m.drag = 1e4f;
    CHECK(gp_effect_material_set(w, 0, &m) == GP_OK);
    for (k = 0; k < 72; ++k) grid[k] = (float)((double)(fixture_random(&state) >> 11) / 9007199254740992.0 * 4.0 - 2.0);
    memset(&d, 0, sizeof d);
    d.uniform[0] = 0.5f;
    d.grid = grid; d.dims[0] = 3; d.dims[1] = 4; d.dims[2] = 2; d.cell = 0.5f;
    d.origin[0] = -1.0f; d.origin[1] = 0.0f; d.origin[2] = 0.25f;
    CHECK(gp_wind_set(w, &d) == GP_OK);
    for (l = 0; l < 2; ++l) for (j = 0; j < 4; ++j) for (i = 0; i < 3; ++i) {   /* the nodes */
        xyz[3 * n] = -1.0f + 0.5f * i; xyz[3 * n + 1] = 0.5f * j; xyz[3 * n + 2] = 0.25f + 0.5f * l; ++n;
    }
    for (k = 0; k < 46; ++k, ++n) {   /* inside, then 6 beyond the grid */
        double r[3];
        int a;
        for (a = 0; a < 3; ++a) r[a] = (double)(fixture_random(&state) >> 11) / 9007199254740992.0;
        xyz[3 * n] = (float)(-1.0 + r[0] * (k < 40 ? 1.0 : 3.0) - (k < 40 ? 0.0 : 1.0));
        xyz[3 * n + 1] = (float)(r[1] * (k < 40 ? 1.5 : 3.0) - (k < 40 ? 0.0 : 0.75));
        xyz[3 * n + 2] = (float)(0.25 + r[2] * (k < 40 ? 0.5 : 2.0) - (k < 40 ? 0.0 : 0.75));
    }
    memset(&pd, 0, sizeof pd);
    pd.count = n; pd.positions = xyz; pd.kind = GP_KIND_EFFECT; pd.radius = 0.001f;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    fixture_run(w, 1);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
    for (k = 0; k < n; ++k) {   /* the store is in cell order: each particle by its id */
        uint32_t id = info[k].id;
        double p[3] = {xyz[3 * id], xyz[3 * id + 1], xyz[3 * id + 2]}, want[3];
        effects_wind_cpu(&d, p, want);
        worst = fmax(worst, fmax(fabs(v[k].x - want[0]), fmax(fabs(v[k].y - want[1]), fabs(v[k].z - want[2]))));
    }
    CHECKF(worst <= 1e-5, "the wind the particles took is %.3g m/s off the grid's trilinear values", worst);
    gp_world_destroy(w);
    /* the vortex */
    w = fixture_grid_world(8, 0.5f, 1);
    if (!w) return;
    CHECK(gp_gravity_set(w, zero) == GP_OK && gp_effect_material_set(w, 0, &m) == GP_OK);
    memset(&d, 0, sizeof d);
    d.vortex_speed = 2.0f; d.vortex_radius = 0.5f;   /* axis zero: +y */
    CHECK(gp_wind_set(w, &d) == GP_OK);
    {
        const float at[9] = {0.25f, 0.3f, 0.0f, 0.0f, -0.2f, 0.5f, -1.0f, 0.0f, 0.0f};
        const double speed[3] = {1.0, 2.0, 1.0};
        memset(&pd, 0, sizeof pd);
        pd.count = 3; pd.positions = at; pd.kind = GP_KIND_EFFECT; pd.radius = 0.001f;
        CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
        fixture_run(w, 1);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 3, v) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, 3, info) == GP_OK);
        for (k = 0; k < 3; ++k) {
            uint32_t id = info[k].id;
            double rx = at[3 * id], rz = at[3 * id + 2], r = sqrt(rx * rx + rz * rz);
            double want[3] = {speed[id] * rz / r, 0.0, -speed[id] * rx / r};   /* (0, 1, 0) x (rx, 0, rz) = (rz, 0, -rx) */
            CHECKF(fabs(v[k].x - want[0]) <= 1e-5 && fabs(v[k].y) <= 1e-5 && fabs(v[k].z - want[2]) <= 1e-5,
                   "vortex at radius %.2f: wind (%g %g %g), expected (%g 0 %g)", r, v[k].x, v[k].y, v[k].z, want[0], want[2]);
        }
    }
    d.vortex_radius = 0.0f;
    CHECK(gp_wind_set(w, &d) == GP_ERROR_INVALID_ARGUMENT && fixture_logged("radius 0"));
    memset(&d, 0, sizeof d);
    d.grid = grid; d.dims[0] = 1; d.dims[1] = 4; d.dims[2] = 2; d.cell = 0.5f;
    CHECK(gp_wind_set(w, &d) == GP_ERROR_INVALID_ARGUMENT && fixture_logged("1 x 4 x 2"));
    d.dims[0] = 3; grid[7] = NAN;
    CHECK(gp_wind_set(w, &d) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    CHECK(gp_wind_set(w, NULL) == GP_OK);
    gp_world_destroy(w);
}

/* The wind a set of effect particles takes in one step (drag 10^4 / s, no gravity): their
   velocities by id, into out (3 per point). */
static void effects_wind_read(const gp_wind_desc* wind, const float* xyz, uint32_t n, float* out) {
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    gp_world* w = fixture_grid_world(n, 0.5f, 1);
    gp_effect_material m;
    gp_particles_desc pd;
    gp_particle_velocity* v = (gp_particle_velocity*)malloc((size_t)n * sizeof *v);
    gp_particle_info* info = (gp_particle_info*)malloc((size_t)n * sizeof *info);
    uint32_t k;
    if (w) {
        memset(&m, 0, sizeof m);
        m.drag = 1e4f;
        memset(&pd, 0, sizeof pd);
        pd.count = n; pd.positions = xyz; pd.kind = GP_KIND_EFFECT; pd.radius = 0.001f;
        CHECK(gp_gravity_set(w, zero) == GP_OK && gp_effect_material_set(w, 0, &m) == GP_OK && gp_wind_set(w, wind) == GP_OK &&
              gp_particles_add(w, &pd, NULL) == GP_OK);
        fixture_run(w, 1);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
        for (k = 0; k < n; ++k) { out[3 * info[k].id] = v[k].x; out[3 * info[k].id + 1] = v[k].y; out[3 * info[k].id + 2] = v[k].z; }
        gp_world_destroy(w);
    }
    free(v); free(info);
}

/* Curl-noise turbulence (noise_speed 1 m/s, features 0.5 m): its rms speed over 512 points
   spread over 8 features a side within 25% of noise_speed; divergence-free: at 64 points the
   divergence from six neighbours 5 mm away is under 5% of the typical gradient, rms / scale;
   the same seed gives the same gusts bit for bit, another seed others. (GP_CURL_RMS in
   effects_move.comp was set from this measure.) */
static void test_effects_wind_noise(void) {
    gp_wind_desc d;
    float* xyz = (float*)malloc(3 * 512 * sizeof *xyz), *a = (float*)malloc(3 * 512 * sizeof *a), *b = (float*)malloc(3 * 512 * sizeof *b);
    float around[3 * 64 * 6], wind[3 * 64 * 6];
    double sum = 0.0, rms, worst = 0.0;
    uint32_t k, same = 1, differ = 0;
    int c;
    for (k = 0; k < 512; ++k) { xyz[3 * k] = 0.5f * (k % 8) + 0.13f; xyz[3 * k + 1] = 0.5f * (k / 8 % 8) + 0.31f; xyz[3 * k + 2] = 0.5f * (k / 64) + 0.07f; }
    memset(&d, 0, sizeof d);
    d.noise_speed = 1.0f; d.noise_scale = 0.5f; d.noise_seed = 7u;
    effects_wind_read(&d, xyz, 512, a);
    effects_wind_read(&d, xyz, 512, b);
    for (k = 0; k < 3 * 512; ++k) { sum += (double)a[k] * a[k]; same &= a[k] == b[k]; }
    rms = sqrt(sum / 512);
    d.noise_seed = 8u;
    effects_wind_read(&d, xyz, 512, b);
    for (k = 0; k < 3 * 512; ++k) differ += fabsf(a[k] - b[k]) > 0.05f;
    for (k = 0; k < 64; ++k)
        for (c = 0; c < 6; ++c) {
            float* p = around + 3 * (6 * k + c);
            memcpy(p, xyz + 3 * (7 * k), 3 * sizeof(float));
            p[c / 2] += c % 2 ? 0.005f : -0.005f;
        }
    d.noise_seed = 7u;
    effects_wind_read(&d, around, 64 * 6, wind);
    for (k = 0; k < 64; ++k) {
        double div = 0.0;
        for (c = 0; c < 3; ++c) div += (wind[3 * (6 * k + 2 * c + 1) + c] - wind[3 * (6 * k + 2 * c) + c]) / 0.01;
        worst = fmax(worst, fabs(div) * 0.5 / rms);
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    rms %.4f m/s, worst divergence %.4f of rms / scale, %u of 1536 differ\n", rms, worst, differ);
    CHECKF(fabs(rms - 1.0) <= 0.25, "curl noise of 1 m/s has an rms speed of %.3f m/s", rms);
    CHECKF(worst <= 0.05, "the curl noise's divergence reaches %.3f of rms / scale", worst);
    CHECKF(same && differ > 1000, "the same seed %s the same wind; another seed changed %u of 1536 components", same ? "gave" : "did not give", differ);
    free(xyz); free(a); free(b);
}

/* Riding the fluid: a block of water (the default material, spacing 0.02 m) flying at (1, 0.5,
   0) m/s through empty space without gravity, two effect particles at rest inside it and one
   far away, all of phase 0 with a ride of 10^4 / s: after one frame those inside move with the
   water (within 1e-4 m/s: Shepard's interpolation of a uniform flow is exact), the one away
   from the fluid keeps its rest. The same with no ride: the water is not felt. */
static void effects_ride_case(float ride, gp_particle_velocity out[3]) {
    const float zero[3] = {0.0f, 0.0f, 0.0f}, lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.2f, 0.2f, 0.2f}, flow[3] = {1.0f, 0.5f, 0.0f};
    const float at[9] = {0.1f, 0.1f, 0.1f, 0.07f, 0.13f, 0.11f, 2.0f, 2.0f, 2.0f};
    gp_world* w = fixture_grid_world(2000, 0.04f, 1);
    gp_fluid_material fm;
    gp_effect_material m;
    gp_particles_desc pd;
    gp_particle_velocity* v;
    gp_particle_info* info;
    uint32_t ids[3], n, k;
    int e;
    memset(out, 0, 3 * sizeof *out);
    if (!w) return;
    memset(&fm, 0, sizeof fm);
    fm.spacing = 0.02f;
    memset(&m, 0, sizeof m);
    m.ride = ride;
    CHECK(gp_gravity_set(w, zero) == GP_OK && gp_fluid_material_set(w, 0, &fm) == GP_OK && gp_effect_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, flow, NULL) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 3; pd.positions = at; pd.kind = GP_KIND_EFFECT; pd.radius = 0.001f;
    CHECK(gp_particles_add(w, &pd, ids) == GP_OK);
    fixture_run(w, 1);
    n = gp_particle_count(w);
    v = (gp_particle_velocity*)malloc((size_t)n * sizeof *v);
    info = (gp_particle_info*)malloc((size_t)n * sizeof *info);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
    for (k = 0; k < n; ++k)
        for (e = 0; e < 3; ++e)
            if (info[k].id == ids[e]) out[e] = v[k];
    free(v); free(info);
    gp_world_destroy(w);
}

static void test_effects_ride_the_fluid(void) {
    gp_particle_velocity v[3];
    int e;
    effects_ride_case(1e4f, v);
    for (e = 0; e < 2; ++e)
        CHECKF(fabsf(v[e].x - 1.0f) <= 1e-4f && fabsf(v[e].y - 0.5f) <= 1e-4f && fabsf(v[e].z) <= 1e-4f,
               "an effect particle riding in water that flows at (1, 0.5, 0) m/s moves at (%g %g %g)", v[e].x, v[e].y, v[e].z);
    CHECKF(v[2].x == 0.0f && v[2].y == 0.0f && v[2].z == 0.0f, "one far from the water moves at (%g %g %g)", v[2].x, v[2].y, v[2].z);
    effects_ride_case(0.0f, v);
    CHECKF(v[0].x == 0.0f && v[0].y == 0.0f && v[0].z == 0.0f, "without a ride the water moved a particle at (%g %g %g)", v[0].x, v[0].y, v[0].z);
}

/* Collisions between effect particles (gp_effect_material.collide; 002 sections 4.3-4.5): no
   gravity, no walls. A pair, elastic (collide 1), of masses 1 and 3 g and radii 2 cm, meeting off
   centre at 1.5 m/s: after they part, momentum and kinetic energy as before to 1e-5, and the
   collision happened (the light one turned). Then a cloud of 400 particles in a 0.3 m cube with
   random velocities, restitution 0.5: over 0.5 s the total momentum stays within 1e-5 of its
   scale (sum of |m v|) while the kinetic energy falls (the collisions are inelastic). */
static void effects_state(gp_world* w, uint32_t n, double momentum[3], double* energy, double* scale) {
    gp_particle_velocity* v = (gp_particle_velocity*)malloc((size_t)n * sizeof *v);
    uint32_t k;
    momentum[0] = momentum[1] = momentum[2] = *energy = *scale = 0.0;
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    for (k = 0; k < n; ++k) {
        double s2 = (double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z;
        momentum[0] += v[k].mass * (double)v[k].x; momentum[1] += v[k].mass * (double)v[k].y; momentum[2] += v[k].mass * (double)v[k].z;
        *energy += 0.5 * v[k].mass * s2;
        *scale += v[k].mass * sqrt(s2);
    }
    free(v);
}

static void test_effects_collisions(void) {
    const float zero[3] = {0.0f, 0.0f, 0.0f}, xyz[6] = {0.0f, 0.0f, 0.0f, 0.2f, 0.015f, 0.0f}, vel[6] = {1.0f, 0.0f, 0.0f, -0.5f, 0.0f, 0.0f};
    const float masses[2] = {0.001f, 0.003f};
    gp_world* w = fixture_grid_world(512, 0.05f, 1);
    gp_effect_material m;
    gp_particles_desc pd;
    gp_particle_velocity v[2];
    double p0[3], p1[3], e0, e1, scale, drift = 0.0;
    float* cloud;
    uint64_t state = 5;
    int frame, c;
    uint32_t k;
    if (!w) return;
    memset(&m, 0, sizeof m);
    m.collide = 1.0f;
    CHECK(gp_gravity_set(w, zero) == GP_OK && gp_effect_material_set(w, 0, &m) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 2; pd.positions = xyz; pd.velocities = vel; pd.masses = masses; pd.radius = 0.02f; pd.kind = GP_KIND_EFFECT;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    effects_state(w, 2, p0, &e0, &scale);
    for (frame = 0; frame < 240; ++frame) {
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 600;
        CHECK(gp_world_step(w, &step) == GP_OK);
    }
    effects_state(w, 2, p1, &e1, &scale);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 2, v) == GP_OK);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    pair: momentum (%.6g %.6g) -> (%.6g %.6g), energy %.7g -> %.7g\n", p0[0], p0[1], p1[0], p1[1], e0, e1);
    for (c = 0; c < 3; ++c) drift = fmax(drift, fabs(p1[c] - p0[c]));
    CHECKF(drift <= 1e-5 * scale && fabs(e1 - e0) <= 1e-5 * e0, "an elastic pair: momentum moved %.3g of %.3g, energy %.7g to %.7g",
           drift, scale, e0, e1);
    CHECKF(fabsf(v[0].y) > 0.01f || fabsf(v[1].y) > 0.01f, "the pair never collided: velocities (%g %g) and (%g %g)", v[0].x, v[0].y, v[1].x, v[1].y);
    gp_world_destroy(w);

    w = fixture_grid_world(512, 0.05f, 1);
    if (!w) return;
    m.collide = 0.5f;
    CHECK(gp_gravity_set(w, zero) == GP_OK && gp_effect_material_set(w, 0, &m) == GP_OK);
    cloud = (float*)malloc(6 * 400 * sizeof *cloud);
    for (k = 0; k < 6 * 400; ++k) {
        double r = (double)(fixture_random(&state) >> 11) / 9007199254740992.0;
        cloud[k] = k < 3 * 400 ? (float)(0.3 * r) : (float)(2.0 * r - 1.0);
    }
    memset(&pd, 0, sizeof pd);
    pd.count = 400; pd.positions = cloud; pd.velocities = cloud + 3 * 400; pd.radius = 0.012f; pd.mass = 0.002f; pd.kind = GP_KIND_EFFECT;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    effects_state(w, 400, p0, &e0, &scale);
    drift = 0.0;
    for (frame = 0; frame < 30; ++frame) {
        fixture_run(w, 1);
        effects_state(w, 400, p1, &e1, &scale);
        for (c = 0; c < 3; ++c) drift = fmax(drift, fabs(p1[c] - p0[c]));
    }
    effects_state(w, 400, p0, &e1, &scale);
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    cloud: momentum drift %.3g of %.3g, energy %.5g -> %.5g\n", drift, scale, e0, e1);
    CHECKF(drift <= 1e-5 * scale, "400 colliding particles: the momentum moved %.3g of %.3g", drift, scale);
    CHECKF(e1 < 0.98 * e0, "inelastic collisions (restitution 0.5) left the energy at %.5g of %.5g", e1, e0);
    free(cloud);
    gp_world_destroy(w);
}

/* One substep of 400 effect particles against the double-precision reference (tests/cpu_effects.c,
   as every kernel has one): a box tank with a ball inside it, gravity, a uniform wind and a vortex, three
   materials (drag, restitution, friction and collisions of their own; one does not collide),
   random sizes, masses and velocities up to 3 m/s, crowded into a corner of the tank so that many
   head into the walls, the ball and each other; a step of 1/60 s (one substep: effects alone).
   Every particle's position within 2e-6 m and velocity within 2e-5 m/s of the reference's. */
static void test_effects_against_cpu(void) {
    const float zero_forces_gravity[3] = {0.0f, -9.81f, 0.0f};
    gp_world* w = fixture_grid_world(512, 0.05f, 1);
    gp_collider_desc colliders[2];
    gp_collider handles[2];
    cpu_effects_scene scene;
    gp_particles_desc pd;
    float xyz[3 * 400], vel[3 * 400], radii[400], masses[400];
    uint32_t phases[400], n = 0, k, bad = 0, collided = 0;
    double (*x)[4] = (double (*)[4])malloc(400 * sizeof *x), (*v)[4] = (double (*)[4])malloc(400 * sizeof *v), worst_x = 0.0, worst_v = 0.0;
    gp_particle_position* gp = (gp_particle_position*)malloc(400 * sizeof *gp);
    gp_particle_velocity* gv = (gp_particle_velocity*)malloc(400 * sizeof *gv);
    gp_particle_info* gi = (gp_particle_info*)malloc(400 * sizeof *gi);
    uint64_t state = 2024;
    int p, c;
    if (!w) return;
    memset(&scene, 0, sizeof scene);
    memset(colliders, 0, sizeof colliders);
    colliders[0].shape = GP_SHAPE_BOX; colliders[0].inside = true;
    for (c = 0; c < 3; ++c) { colliders[0].center[c] = 0.5f; colliders[0].half_extents[c] = 0.5f; }
    colliders[1].shape = GP_SHAPE_SPHERE; colliders[1].radius = 0.15f;
    colliders[1].center[0] = 0.5f; colliders[1].center[1] = 0.3f; colliders[1].center[2] = 0.5f;
    for (c = 0; c < 2; ++c) CHECK(gp_collider_add(w, &colliders[c], &handles[c]) == GP_OK);
    CHECK(gp_gravity_set(w, zero_forces_gravity) == GP_OK);
    for (p = 0; p < 3; ++p) {
        gp_effect_material m;
        memset(&m, 0, sizeof m);
        m.drag = p == 0 ? 0.5f : p == 1 ? 0.0f : 2.0f;
        m.restitution = p == 0 ? 0.7f : p == 1 ? 0.3f : 1e-6f;
        m.friction = p == 0 ? 0.2f : p == 1 ? 0.5f : 0.05f;
        m.collide = p == 0 ? 0.9f : p == 1 ? 0.0f : 0.5f;
        CHECK(gp_effect_material_set(w, (uint32_t)p, &m) == GP_OK && gp_effect_material_get(w, (uint32_t)p, &scene.materials[p]) == GP_OK);
    }
    memset(&scene.wind, 0, sizeof scene.wind);
    scene.wind.uniform[0] = 0.3f; scene.wind.uniform[2] = -0.2f;
    scene.wind.vortex_center[0] = 0.5f; scene.wind.vortex_center[2] = 0.5f; scene.wind.vortex_speed = 1.0f; scene.wind.vortex_radius = 0.2f;
    CHECK(gp_wind_set(w, &scene.wind) == GP_OK);
    while (n < 400) {   /* in the tank, clear of its walls and the ball */
        double r[8], dx, dy, dz;
        for (c = 0; c < 8; ++c) r[c] = (double)(fixture_random(&state) >> 11) / 9007199254740992.0;
        radii[n] = (float)(0.01 + 0.01 * r[3]);
        xyz[3 * n] = (float)(0.03 + 0.5 * r[0]); xyz[3 * n + 1] = (float)(0.03 + 0.5 * r[1]); xyz[3 * n + 2] = (float)(0.03 + 0.5 * r[2]);
        dx = xyz[3 * n] - 0.5; dy = xyz[3 * n + 1] - 0.3; dz = xyz[3 * n + 2] - 0.5;
        if (sqrt(dx * dx + dy * dy + dz * dz) < 0.15 + radii[n] + 0.005) continue;
        vel[3 * n] = (float)(6.0 * r[4] - 3.0); vel[3 * n + 1] = (float)(6.0 * r[5] - 3.0); vel[3 * n + 2] = (float)(6.0 * r[6] - 3.0);
        masses[n] = (float)(1e-4 + 9e-4 * r[7]);
        phases[n] = (uint32_t)(fixture_random(&state) % 3u);
        ++n;
    }
    for (k = 0; k < n; ++k) {   /* one at a time: a batch has one phase */
        memset(&pd, 0, sizeof pd);
        pd.count = 1; pd.positions = xyz + 3 * k; pd.velocities = vel + 3 * k; pd.radii = radii + k; pd.masses = masses + k;
        pd.kind = GP_KIND_EFFECT; pd.phase = phases[k];
        CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
        for (c = 0; c < 3; ++c) { x[k][c] = xyz[3 * k + c]; v[k][c] = vel[3 * k + c]; }
        x[k][3] = radii[k]; v[k][3] = masses[k];
    }
    for (c = 0; c < 3; ++c) scene.gravity[c] = zero_forces_gravity[c];
    scene.h = (double)(1.0f / 60.0f);
    scene.colliders = colliders;
    scene.collider_count = 2;
    {
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60.0f;
        CHECK(gp_world_step(w, &step) == GP_OK);
    }
    cpu_effects_substep(&scene, x, v, phases, n);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, gp) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, gv) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, gi) == GP_OK);
    for (k = 0; k < n; ++k) {
        uint32_t id = gi[k].id;
        double ex = fmax(fabs(gp[k].x - x[id][0]), fmax(fabs(gp[k].y - x[id][1]), fabs(gp[k].z - x[id][2])));
        double ev = fmax(fabs(gv[k].x - v[id][0]), fmax(fabs(gv[k].y - v[id][1]), fabs(gv[k].z - v[id][2])));
        double moved = fabs(v[id][0] - vel[3 * id]) + fabs(v[id][2] - vel[3 * id + 2]);
        collided += moved > 0.05;
        worst_x = fmax(worst_x, ex);
        worst_v = fmax(worst_v, ev);
        if ((ex > 2e-6 || ev > 2e-5) && bad++ < 3)
            fprintf(stderr, "    effect %u: GPU (%.7f %.7f %.7f) v (%.6f %.6f %.6f), reference (%.7f %.7f %.7f) v (%.6f %.6f %.6f)\n", id, gp[k].x,
                    gp[k].y, gp[k].z, gv[k].x, gv[k].y, gv[k].z, x[id][0], x[id][1], x[id][2], v[id][0], v[id][1], v[id][2]);
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    worst %.3g m, %.3g m/s; %u of %u turned by a wall or a partner\n", worst_x, worst_v, collided, n);
    CHECKF(bad == 0, "%u of %u effect particles differ from the reference substep (worst %.3g m, %.3g m/s)", bad, n, worst_x, worst_v);
    CHECKF(collided >= 10, "only %u particles met a wall or a partner: the scene tests too little", collided);
    free(x); free(v); free(gp); free(gv); free(gi);
    gp_world_destroy(w);
}

/* Foam floats, grit sinks, a droplet of the fluid's density hangs (the ride's buoyancy:
   Archimedes as far as the particle is in the fluid): three effect particles 1 cm wide of 100,
   3,000 and 1,000 kg/m^3 let go at rest inside still water 12 cm deep (spacing 2 cm, riding at
   200/s, an air drag of 2/s): after 0.75 s the foam is at the surface (above 9 cm, below 17 cm: it
   floats, it does not fly off), the grit has sunk at the terminal speed of the ride's linear drag,
   g (1 - rho / rho_grit) / ride = 3.27 cm/s (to 3 mm of the 2.45 cm that gives), and the droplet is
   within 1.5 cm of where it was. */
static void test_effects_foam_floats(void) {
    gp_world* w = fixture_grid_world(2048, 0.05f, 0);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.2f, 0.12f, 0.2f};
    const float at[9] = {0.1f, 0.03f, 0.1f, 0.1f, 0.09f, 0.1f, 0.1f, 0.06f, 0.1f};
    const float densities[3] = {100.0f, 3000.0f, 1000.0f};
    float masses[3];
    gp_fluid_material fm;
    gp_effect_material m;
    gp_particles_desc d;
    gp_collider_desc tank;
    gp_collider collider;
    gp_particle_position p[2048];
    gp_particle_info info[2048];
    uint32_t count = 0;
    float y[3] = {-1.0f, -1.0f, -1.0f};
    int k;
    if (!w) return;
    memset(&tank, 0, sizeof tank);
    tank.shape = GP_SHAPE_BOX; tank.inside = true;
    tank.center[0] = 0.1f; tank.center[1] = 0.2f; tank.center[2] = 0.1f;
    tank.half_extents[0] = 0.1f; tank.half_extents[1] = 0.2f; tank.half_extents[2] = 0.1f;
    CHECK(gp_collider_add(w, &tank, &collider) == GP_OK);
    memset(&fm, 0, sizeof fm);
    fm.spacing = 0.02f;
    CHECK(gp_fluid_material_set(w, 0, &fm) == GP_OK && gp_fluid_add_block(w, 0, lo, hi, NULL, NULL) == GP_OK);
    memset(&m, 0, sizeof m);
    m.ride = 200.0f;   /* 1/s: foam rises through the water at (rho / rho_foam - 1) g / ride = 0.44 m/s */
    m.drag = 2.0f;     /* 1/s: air slows what leaves the water */
    CHECK(gp_effect_material_set(w, 0, &m) == GP_OK);
    for (k = 0; k < 3; ++k) masses[k] = densities[k] * 4.18879f * 0.005f * 0.005f * 0.005f;
    memset(&d, 0, sizeof d);
    d.count = 3; d.positions = at; d.masses = masses; d.radius = 0.005f; d.kind = GP_KIND_EFFECT;
    d.users = NULL; d.user = 0;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    fixture_run(w, 45);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count <= 2048);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) == GP_OK);
    {   /* the three by their ids: the last three added */
        uint32_t ids[3], slots[3];
        for (k = 0; k < 3; ++k) ids[k] = count - 3 + (uint32_t)k;
        CHECK(gp_particles_slots_read(w, ids, 3, slots) == GP_OK);
        for (k = 0; k < 3; ++k) if (slots[k] < count) y[k] = p[slots[k]].y;
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    after 0.75 s: foam at %.4f m, grit at %.4f m, droplet at %.4f m\n", y[0], y[1], y[2]);
    CHECKF(y[0] > 0.09f && y[0] < 0.17f, "the foam is at %.4f m: it should float at the surface (12 cm)", y[0]);
    {
        double sink = 9.81 * (1.0 - 1000.0 / 3000.0) / 200.0 * 0.75;
        CHECKF(fabs(y[1] - (0.09 - sink)) < 0.003, "the grit is at %.4f m; sinking at g (1 - rho / rho_grit) / ride puts it at %.4f m",
               y[1], 0.09 - sink);
    }
    CHECKF(fabsf(y[2] - 0.06f) < 0.015f, "the droplet moved from 6 cm to %.4f m in still water", y[2]);
    gp_world_destroy(w);
}

const gp_test_case effects_tests[] = {
    {"effects_flight_with_drag", test_effects_flight_with_drag},
    {"effects_bounce_keeps_restitution", test_effects_bounce_keeps_restitution},
    {"effects_friction_stops_a_slide", test_effects_friction_stops_a_slide},
    {"effects_material_rejects_bad_input", test_effects_material_rejects_bad_input},
    {"effects_wind", test_effects_wind},
    {"effects_wind_noise", test_effects_wind_noise},
    {"effects_ride_the_fluid", test_effects_ride_the_fluid},
    {"effects_foam_floats", test_effects_foam_floats},
    {"effects_collisions", test_effects_collisions},
    {"effects_against_cpu", test_effects_against_cpu},
};
const int effects_test_count = (int)(sizeof effects_tests / sizeof effects_tests[0]);
