/* test_emitters.c: emitters (002 section 4.1): counts exact for rates and bursts
   over many steps and substeps, never drifting; the steady state of a constant rate; every
   shape's births against a double-precision CPU reference (the same counter-based random
   numbers) and their distributions (inside the shape, directions within the spread, uniform in
   volume and angle); the same seed gives the same particles; births with no room refused and
   counted; grains poured as a stream; bad input refused. */
#include "fixture.h"
#include "cpu_emitter.h"
#include <math.h>
#include <stdio.h>

#define EMIT_DT (1.0f / 60.0f)

static void emit_step(gp_world* w, uint32_t substeps) {
    gp_step_desc step;
    memset(&step, 0, sizeof step);
    step.dt = EMIT_DT;
    step.substeps = substeps;
    CHECK(gp_world_step(w, &step) == GP_OK);
}

/* A world of effect particles only, without gravity (they fly straight). */
static gp_world* emit_world(uint32_t capacity) {
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    gp_world* w = fixture_grid_world(capacity, 0.1f, 0);
    if (w) CHECK(gp_gravity_set(w, zero) == GP_OK);
    return w;
}

/* A rate of 37.3 per second, particles that live forever: after every step of 1/60 s (in 1, 2,
   then 3 substeps) the store holds floor(37.3 t) plus the bursts (25 at step 20, 1000 at step 50),
   on the host's count and the GPU's, over 90 steps; the emitter's count says the same. */
static void test_emitter_counts_exact(void) {
    gp_world* w = emit_world(8192);
    gp_emitter_desc d;
    gp_emitter e;
    gp_emitter_stats stats;
    double t = 0.0;
    uint64_t bursts = 0;
    uint32_t n, exact = 0, wrong = 0;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.rate = 37.3f;
    d.speed[0] = 0.5f;
    d.spread = 3.1415926f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    for (n = 1; n <= 90; ++n) {
        uint64_t expected;
        if (n == 20) { CHECK(gp_emitter_burst(w, e, 25) == GP_OK); bursts += 25; }
        if (n == 50) { CHECK(gp_emitter_burst(w, e, 1000) == GP_OK); bursts += 1000; }
        emit_step(w, n <= 30 ? 1u : n <= 60 ? 2u : 3u);
        t += (double)EMIT_DT;
        expected = (uint64_t)floor((double)d.rate * t) + bursts;
        CHECK(gp_particle_count_read(w, &exact) == GP_OK);
        if (exact != expected || gp_particle_count(w) != expected) {
            if (!wrong) fprintf(stderr, "    step %u: GPU %u, host %u, floor(r t) + bursts %llu\n", n, exact, gp_particle_count(w),
                                (unsigned long long)expected);
            ++wrong;
        }
    }
    CHECKF(wrong == 0, "%u of 90 steps held another count than floor(r t) plus the bursts", wrong);
    CHECK(gp_emitter_stats_get(w, e, &stats) == GP_OK && stats.emitted == exact && stats.refused == 0);
    gp_world_destroy(w);
}

/* 600 per second living 0.5 s each, in steps of 1/60 s of 4 substeps: from 0.5 s on the store
   holds rate x lifetime = 300 particles, less the births of at most one substep (births come in
   whole substeps' batches at the substeps' starts: 2.5 each, so 297 to 300), every step to 2 s;
   no step reads anything back. */
static void test_emitter_steady_state(void) {
    gp_world* w = emit_world(4096);
    gp_emitter_desc d;
    gp_emitter e;
    uint32_t n, count = 0, low = 0xffffffffu, high = 0;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.rate = 600.0f;
    d.lifetime[0] = d.lifetime[1] = 0.5f;
    d.speed[0] = 1.0f;
    d.spread = 3.1415926f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    for (n = 1; n <= 120; ++n) {
        uint32_t readbacks = gp_world_readbacks(w);
        emit_step(w, 4);
        CHECKF(gp_world_readbacks(w) == readbacks, "step %u read back from the GPU", n);
        if (n < 31) continue;
        CHECK(gp_particle_count_read(w, &count) == GP_OK);
        if (count < low) low = count;
        if (count > high) high = count;
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    steady state %u to %u particles\n", low, high);
    CHECKF(low >= 297 && high <= 300, "a rate of 600/s living 0.5 s held %u to %u particles, not 297 to 300", low, high);
    gp_world_destroy(w);
}

/* A burst of n from emitter e, one substep: the store read back (n particles exactly), and the
   first id of the burst (ids are never-used ones, in birth order: a birth's serial is its id
   less it). */
static uint32_t emit_burst_read(gp_world* w, gp_emitter e, uint32_t n, gp_particle_position* p, gp_particle_velocity* v,
                                gp_particle_info* info, gp_particle_life* life) {
    uint32_t i, count = 0, first = 0xffffffffu;
    CHECK(gp_emitter_burst(w, e, n) == GP_OK);
    emit_step(w, 1);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count == n);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, n, life) == GP_OK);
    for (i = 0; i < n; ++i) if (info[i].id < first) first = info[i].id;
    return first;
}

/* A burst of 2,000 from each shape (seed 42, speeds 1 to 3 m/s, lifetimes 1 to 2 s, spread 0.6
   rad; the cone 0.8 rad), flown one substep of 1/60 s without gravity: every particle where the
   double-precision reference puts it (x0 + v h) to 1e-5 m, its velocity to 1e-5 m/s, its lifetime
   to 1e-6 s; and the distributions: inside the shape, every direction within the spread, the
   cosine about the axis uniform (its mean (1 + cos spread) / 2 within 2%), the ball filled
   uniformly (mean of r^3 / R^3 one half within 3%). */
static void test_emitter_shapes_against_cpu(void) {
    const gp_emitter_shape shapes[5] = {GP_EMITTER_POINT, GP_EMITTER_SPHERE, GP_EMITTER_BOX, GP_EMITTER_DISC, GP_EMITTER_CONE};
    const uint32_t n = 2000;
    gp_particle_position* p = (gp_particle_position*)malloc(n * sizeof *p);
    gp_particle_velocity* v = (gp_particle_velocity*)malloc(n * sizeof *v);
    gp_particle_info* info = (gp_particle_info*)malloc(n * sizeof *info);
    gp_particle_life* life = (gp_particle_life*)malloc(n * sizeof *life);
    int k;
    for (k = 0; k < 5; ++k) {
        gp_world* w = emit_world(4096);
        gp_emitter_desc d, r;
        gp_emitter e;
        uint32_t i, first, outside = 0;
        double worst_x = 0.0, worst_v = 0.0, worst_life = 0.0, cosines = 0.0, cubes = 0.0;
        if (!w) break;
        memset(&d, 0, sizeof d);
        d.shape = shapes[k];
        d.position[0] = 0.3f; d.position[1] = 1.0f; d.position[2] = -0.2f;
        d.direction[0] = 1.0f; d.direction[1] = 2.0f; d.direction[2] = 0.5f;
        d.spread = shapes[k] == GP_EMITTER_CONE ? 0.8f : 0.6f;
        d.radius = 0.25f;
        d.half_extents[0] = 0.1f; d.half_extents[1] = 0.2f; d.half_extents[2] = 0.3f;
        d.speed[0] = 1.0f; d.speed[1] = 3.0f;
        d.lifetime[0] = 1.0f; d.lifetime[1] = 2.0f;
        d.seed = 42;
        CHECK(gp_emitter_add(w, &d, &e) == GP_OK && gp_emitter_get(w, e, &r) == GP_OK);
        first = emit_burst_read(w, e, n, p, v, info, life);
        for (i = 0; i < n; ++i) {
            double x[3], u[3], lifetime, gx[3], gu[3], rel[3], along = 0.0, speed = 0.0, r3 = 0.0;
            int c;
            uint32_t serial = info[i].id - first;   /* never-used ids, given in birth order */
            cpu_emit(&r, serial, x, u, &lifetime);
            gx[0] = p[i].x; gx[1] = p[i].y; gx[2] = p[i].z;
            gu[0] = v[i].x; gu[1] = v[i].y; gu[2] = v[i].z;
            for (c = 0; c < 3; ++c) {
                double start = gx[c] - gu[c] * (double)EMIT_DT;   /* where it was born */
                worst_x = fmax(worst_x, fabs(gx[c] - (x[c] + u[c] * (double)EMIT_DT)));
                worst_v = fmax(worst_v, fabs(gu[c] - u[c]));
                rel[c] = start - r.position[c];
                along += gu[c] * r.direction[c];
                speed += gu[c] * gu[c];
                r3 += rel[c] * rel[c];
            }
            worst_life = fmax(worst_life, fabs(life[i].lifetime - lifetime));
            speed = sqrt(speed);
            cosines += along / speed;
            r3 = pow(r3, 1.5) / pow(r.radius, 3.0);
            cubes += r3;
            if (shapes[k] != GP_EMITTER_CONE && along / speed < cos(r.spread) - 1e-5) ++outside;
            if (shapes[k] == GP_EMITTER_POINT && r3 > 1e-9) ++outside;
            if (shapes[k] == GP_EMITTER_SPHERE && r3 > 1.0 + 1e-4) ++outside;
            if (shapes[k] == GP_EMITTER_BOX && (fabs(rel[0]) > 0.1 + 1e-5 || fabs(rel[1]) > 0.2 + 1e-5 || fabs(rel[2]) > 0.3 + 1e-5)) ++outside;
            if ((shapes[k] == GP_EMITTER_DISC || shapes[k] == GP_EMITTER_CONE) &&
                (r3 > 1.0 + 1e-4 || fabs(rel[0] * r.direction[0] + rel[1] * r.direction[1] + rel[2] * r.direction[2]) > 1e-5))
                ++outside;
            if (shapes[k] == GP_EMITTER_CONE && along / speed < cos(r.spread) - 1e-5) ++outside;
            if (speed < 1.0 - 1e-5 || speed > 3.0 + 1e-5 || life[i].lifetime < 1.0f || life[i].lifetime > 2.0f) ++outside;
        }
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    shape %d: %.3g m, %.3g m/s, %.3g s off; mean cosine %.4f, mean r^3/R^3 %.4f\n", (int)shapes[k], worst_x, worst_v,
                    worst_life, cosines / n, cubes / n);
        CHECKF(worst_x <= 1e-5 && worst_v <= 1e-5 && worst_life <= 1e-6, "shape %d: births %.3g m, %.3g m/s, %.3g s from the reference",
               (int)shapes[k], worst_x, worst_v, worst_life);
        CHECKF(outside == 0, "shape %d: %u births outside the shape, the spread or the ranges", (int)shapes[k], outside);
        if (shapes[k] != GP_EMITTER_CONE)
            CHECKF(fabs(cosines / n / (0.5 * (1.0 + cos(r.spread))) - 1.0) <= 0.02, "shape %d: the mean cosine %.4f is not (1 + cos s) / 2 = %.4f",
                   (int)shapes[k], cosines / n, 0.5 * (1.0 + cos(r.spread)));
        if (shapes[k] == GP_EMITTER_SPHERE) CHECKF(fabs(cubes / n - 0.5) <= 0.015, "the ball's mean r^3 / R^3 is %.4f, not 1/2", cubes / n);
        gp_world_destroy(w);
    }
    free(p); free(v); free(info); free(life);
}

/* The same seed gives the same particles, a new seed others: two worlds with the same emitter,
   stepped differently (1 and 5 substeps), hold bit-identical lifetimes id for id, and a third with
   another seed differs. */
static void emit_lifetimes(uint32_t seed, uint32_t substeps, float* out) {
    gp_world* w = emit_world(1024);
    gp_emitter_desc d;
    gp_emitter e;
    gp_particle_info info[300];
    gp_particle_life life[300];
    uint32_t i, count = 0;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.rate = 6000.0f;
    d.lifetime[0] = 1.0f; d.lifetime[1] = 3.0f;
    d.seed = seed;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    for (i = 0; i < 3; ++i) emit_step(w, substeps);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count == 300);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, 300, info) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, 300, life) == GP_OK);
    for (i = 0; i < 300; ++i) if (info[i].id < 300) out[info[i].id] = life[i].lifetime;
    gp_world_destroy(w);
}

static void test_emitter_seed_repeats(void) {
    float a[300], b[300], c[300];
    memset(a, 0, sizeof a); memset(b, 0, sizeof b); memset(c, 0, sizeof c);
    emit_lifetimes(7, 1, a);
    emit_lifetimes(7, 5, b);
    emit_lifetimes(8, 1, c);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
}

/* A store of 200 and an emitter of 1,000 per second: it fills and stays full, never past 200; the
   births refused are counted (two steps late) as everything emitted beyond the 200. */
static void test_emitter_full_store(void) {
    gp_world* w = emit_world(200);
    gp_emitter_desc d;
    gp_emitter e;
    gp_emitter_stats stats;
    uint32_t i, count = 0;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.rate = 1000.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    for (i = 0; i < 30; ++i) emit_step(w, 2);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count == 200 && gp_particle_count(w) == 200);
    CHECK(gp_emitter_remove(w, e) == GP_OK);
    for (i = 0; i < 2; ++i) emit_step(w, 1);   /* the statistics of the last emitting steps arrive */
    CHECK(gp_emitter_stats_get(w, e, &stats) == GP_ERROR_INVALID_ARGUMENT);   /* removed */
    CHECKF(w != NULL && gp_particle_count(w) == 200, "the host counts %u", gp_particle_count(w));
    {
        gp_emitter e2;
        CHECK(gp_emitter_add(w, &d, &e2) == GP_OK && gp_emitter_stats_get(w, e2, &stats) == GP_OK);
        CHECKF(stats.refused == 500 - 200, "%u births were counted refused; 500 were planned for a store of 200", stats.refused);
    }
    gp_world_destroy(w);
}

/* A step of an absurd dt (1e30 s: the API takes any finite one) with an emitter of 600 a second:
   its births, past any count (and past uint64_t: the tally's conversion overflowed before,
   undefined behaviour that make test's sanitized run catches with float-cast-overflow), are the
   store's room, 300; the tally then starts again, so
   that once the 300 are removed (and a build has taken them out), three steps of 0.05 s give
   floor(600 x 0.15) = 90, no more. */
static void test_emitter_absurd_dt(void) {
    gp_world* w = emit_world(300);
    gp_emitter_desc d;
    gp_emitter e;
    gp_step_desc step;
    uint32_t ids[300], i, count = 0;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.rate = 600.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 1e30f;
    step.substeps = 1;
    CHECK(gp_world_step(w, &step) == GP_OK);
    CHECKF(gp_particle_count_read(w, &count) == GP_OK && count == 300, "%u particles after the step of 1e30 s, 300 due", count);
    for (i = 0; i < 300; ++i) ids[i] = i;
    CHECK(gp_particles_remove(w, ids, 300) == GP_OK && gp_grid_build(w) == GP_OK);   /* the build takes them out */
    step.dt = 0.05f;
    for (i = 0; i < 3; ++i) CHECK(gp_world_step(w, &step) == GP_OK);
    CHECKF(gp_particle_count_read(w, &count) == GP_OK && count == 90, "%u particles 0.15 s later, 90 due", count);
    gp_world_destroy(w);
}

/* Grains 2 cm wide poured as a stream from a disc 10 cm wide, 60 a second at 1 m/s downwards (a
   grain 1.7 cm behind the one before, anywhere on the disc: some touch at birth): after 1 s all 60
   are in the store, between the floor and the nozzle, their material's size. */
static void test_emitter_pours_grains(void) {
    gp_world* w = fixture_grid_world(4096, 0.05f, 0);
    gp_emitter_desc d;
    gp_emitter e;
    gp_collider_desc floor;
    gp_collider handle;
    gp_granular_material m;
    uint32_t count = 0, below = 0, i;
    gp_particle_position* p;
    if (!w) return;
    memset(&m, 0, sizeof m);
    m.diameter = 0.02f;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    memset(&floor, 0, sizeof floor);
    floor.shape = GP_SHAPE_PLANE; floor.normal[1] = 1.0f;
    CHECK(gp_collider_add(w, &floor, &handle) == GP_OK);
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_DISC;
    d.kind = GP_KIND_GRANULAR;
    d.position[1] = 0.3f;
    d.direction[1] = -1.0f;
    d.radius = 0.05f;
    d.speed[0] = 1.0f;
    d.rate = 60.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    fixture_run(w, 60);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count == 60);
    p = (gp_particle_position*)malloc(count * sizeof *p);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK);
    for (i = 0; i < count; ++i) below += !(p[i].y > 0.0f && p[i].y < 0.31f) || p[i].radius != 0.01f;
    CHECKF(below == 0, "%u of %u grains are below the floor, above the nozzle or not their material's size", below, count);
    free(p);
    gp_world_destroy(w);
}

/* Bad input: refused with a reason, and a stale handle refused. */
static void test_emitter_misuse(void) {
    gp_world* w = emit_world(64);
    gp_emitter_desc d;
    gp_emitter e, stale, all[GP_MAX_EMITTERS];
    int i;
    if (!w) return;
    memset(&d, 0, sizeof d);
    CHECK(gp_emitter_add(w, NULL, &e) == GP_ERROR_INVALID_ARGUMENT && gp_emitter_add(w, &d, NULL) == GP_ERROR_INVALID_ARGUMENT);
    d.rate = -1.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.rate = 1.0f; d.spread = 4.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT);
    d.spread = 0.0f; d.position[0] = NAN;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    d.position[0] = 0.0f; d.kind = GP_KIND_RIGID;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT);
    d.kind = GP_KIND_EFFECT; d.shape = (gp_emitter_shape)99;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    d.shape = GP_EMITTER_POINT; d.lifetime[1] = 2.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT);   /* a range from 0 */
    d.lifetime[1] = 0.0f;
    CHECK(gp_emitter_add(w, &d, &stale) == GP_OK && gp_emitter_number(w, stale) == 0 && gp_emitter_remove(w, stale) == GP_OK);
    CHECK(gp_emitter_remove(w, stale) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_HANDLE_INVALID));
    CHECK(gp_emitter_number(w, stale) == GP_NO_OWNER && gp_emitter_burst(w, stale, 1) == GP_ERROR_INVALID_ARGUMENT);
    for (i = 0; i < GP_MAX_EMITTERS; ++i) CHECK(gp_emitter_add(w, &d, &all[i]) == GP_OK);
    CHECK(gp_emitter_set(w, stale, &d) == GP_ERROR_INVALID_ARGUMENT);   /* its slot has a new emitter */
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_CAPACITY && fixture_logged_item(GP_LOG_ITEM_TABLE_FULL));
    CHECK(gp_emitter_burst(w, all[0], 65) == GP_ERROR_INVALID_ARGUMENT);
    gp_world_destroy(w);
}

/* A frame buffer of 64 x 64 (RGBA8 and depth) for the drawing tests, bound; 0 if GL cannot. */
static GLuint emit_framebuffer(GLuint* color, GLuint* depth) {
    GLuint fb = 0;
    glGenFramebuffers(1, &fb);
    glGenRenderbuffers(1, color);
    glGenRenderbuffers(1, depth);
    glBindRenderbuffer(GL_RENDERBUFFER, *color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glBindRenderbuffer(GL_RENDERBUFFER, *depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 64, 64);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, *depth);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, 64, 64);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return fb;
}

static void emit_framebuffer_delete(GLuint fb, GLuint color, GLuint depth) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glDeleteRenderbuffers(1, &color);
    glDeleteRenderbuffers(1, &depth);
}

/* A perspective projection (column-major, 60 degrees, square, near 0.1, far 100). */
#define EMIT_NEAR 0.1f    /* emit_projection's near and far planes (m) */
#define EMIT_FAR 100.0f
static void emit_projection(float m[16]) {
    float f = 1.0f / tanf(0.5236f), n = EMIT_NEAR, fa = EMIT_FAR;
    memset(m, 0, 16 * sizeof(float));
    m[0] = f; m[5] = f; m[10] = (fa + n) / (n - fa); m[11] = -1.0f; m[14] = 2.0f * fa * n / (n - fa);
}

/* 700 effect particles of two emitters (a ball and a box, size curves 1-2-3-4 and 2-1-1-0.5,
   colour curves of their own), 150 boundary particles among them, drawn alpha blended by a
   camera looking down a slanted axis: the sprites are the effect particles and only they (the
   others, and the slots past the count, draw nothing), back to front (each no nearer than the
   next: their depths in the order of a CPU sort of the store's), each its radius times its
   emitter's size curve at its age and its colour curve there (against a CPU evaluation, to 1e-5). */
static void test_emitter_sprites_back_to_front(void) {
    gp_world* w = emit_world(2048);
    gp_emitter_desc d;
    gp_emitter e[2];
    gp_particles_desc pd;
    gp_draw_desc draw;
    float xyz[150 * 3], (*sprites)[8];
    double* cpu_depth;
    GLuint fb, color, depth;
    uint32_t i, count = 0, effects = 0, wrong = 0, unsorted = 0;
    gp_particle_position* p;
    gp_particle_info* info;
    gp_particle_life* life;
    uint64_t state = 3;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_SPHERE; d.radius = 0.5f; d.speed[0] = 0.2f; d.spread = 3.14159f;
    d.lifetime[0] = 0.5f; d.lifetime[1] = 1.5f; d.particle_radius = 0.02f;
    d.size[0] = 1.0f; d.size[1] = 2.0f; d.size[2] = 3.0f; d.size[3] = 4.0f;
    for (i = 0; i < 16; ++i) d.color[i / 4][i % 4] = 0.05f * (float)i;
    CHECK(gp_emitter_add(w, &d, &e[0]) == GP_OK && gp_emitter_burst(w, e[0], 400) == GP_OK);
    d.shape = GP_EMITTER_BOX; d.half_extents[0] = 0.3f; d.half_extents[1] = 0.6f; d.half_extents[2] = 0.2f; d.position[0] = 0.4f;
    d.size[0] = 2.0f; d.size[1] = 1.0f; d.size[2] = 1.0f; d.size[3] = 0.5f;
    for (i = 0; i < 16; ++i) d.color[i / 4][i % 4] = 1.0f - 0.04f * (float)i;
    CHECK(gp_emitter_add(w, &d, &e[1]) == GP_OK && gp_emitter_burst(w, e[1], 300) == GP_OK);
    for (i = 0; i < 450; ++i) xyz[i] = (float)(fixture_random(&state) % 1000) * 1e-3f - 0.5f;
    memset(&pd, 0, sizeof pd);
    pd.count = 150; pd.positions = xyz; pd.kind = GP_KIND_BOUNDARY;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    for (i = 0; i < 20; ++i) emit_step(w, 1);   /* a third of a second: ages spread over the curves */
    fb = emit_framebuffer(&color, &depth);
    memset(&draw, 0, sizeof draw);
    {   /* the camera at (1, 2, 3) looking at the origin */
        const float eye[3] = {1.0f, 2.0f, 3.0f};
        float f[3], s[3], u[3], len;
        int k;
        for (k = 0; k < 3; ++k) f[k] = -eye[k];
        len = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        for (k = 0; k < 3; ++k) f[k] /= len;
        s[0] = f[2]; s[1] = 0.0f; s[2] = -f[0];   /* f x (0, 1, 0) */
        len = sqrtf(s[0] * s[0] + s[2] * s[2]);
        s[0] /= len; s[2] /= len;
        u[0] = s[1] * f[2] - s[2] * f[1]; u[1] = s[2] * f[0] - s[0] * f[2]; u[2] = s[0] * f[1] - s[1] * f[0];
        for (k = 0; k < 3; ++k) { draw.view[4 * k] = s[k]; draw.view[4 * k + 1] = u[k]; draw.view[4 * k + 2] = -f[k]; }
        draw.view[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
        draw.view[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
        draw.view[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
        draw.view[15] = 1.0f;
        emit_projection(draw.projection);
    }
    CHECK(gp_draw_effects(w, &draw) == GP_OK);
    CHECK(gp_particle_count_read(w, &count) == GP_OK);
    p = (gp_particle_position*)malloc(count * sizeof *p);
    info = (gp_particle_info*)malloc(count * sizeof *info);
    life = (gp_particle_life*)malloc(count * sizeof *life);
    sprites = (float(*)[8])malloc((size_t)gp_particle_count(w) * 32);
    cpu_depth = (double*)malloc(count * sizeof *cpu_depth);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, count, life) == GP_OK);
    glBindBuffer(GL_COPY_READ_BUFFER, gp_world_buffers(w).sprites);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)gp_particle_count(w) * 32, sprites);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    for (i = 0; i < count; ++i) {   /* the CPU's depths of the effect particles, farthest first */
        if ((info[i].kind & 0xffu) != GP_KIND_EFFECT) continue;
        cpu_depth[effects++] = -(draw.view[2] * p[i].x + draw.view[6] * p[i].y + draw.view[10] * p[i].z + draw.view[14]);
    }
    for (i = 1; i < effects; ++i) {   /* insertion sort, descending */
        double v = cpu_depth[i];
        uint32_t j = i;
        while (j > 0 && cpu_depth[j - 1] < v) { cpu_depth[j] = cpu_depth[j - 1]; --j; }
        cpu_depth[j] = v;
    }
    CHECKF(effects == 700 && count == 850, "%u effect particles of %u; 700 of 850 were made", effects, count);
    for (i = 0; i < gp_particle_count(w); ++i) {
        const float* g = sprites[i];
        if (i >= effects) { wrong += g[3] != 0.0f; continue; }
        {   /* the particle at this sprite's centre, and what the curves give it */
            double sprite_depth = -(draw.view[2] * g[0] + draw.view[6] * g[1] + draw.view[10] * g[2] + draw.view[14]);
            uint32_t k, found = count;
            for (k = 0; k < count && found == count; ++k)
                if (p[k].x == g[0] && p[k].y == g[1] && p[k].z == g[2] && (info[k].kind & 0xffu) == GP_KIND_EFFECT) found = k;
            if (found == count) { ++wrong; continue; }
            if (fabs(sprite_depth - cpu_depth[i]) > 1e-5) ++unsorted;
            {
                gp_emitter_desc r;
                double t = 3.0 * fmin(fmax(life[found].age / life[found].lifetime, 0.0), 1.0), wgt, size;
                int key = t >= 3.0 ? 2 : (int)t, c;
                CHECK(gp_emitter_get(w, e[info[found].owner == gp_emitter_number(w, e[0]) ? 0 : 1], &r) == GP_OK);
                wgt = t - key;
                size = r.size[key] + (r.size[key + 1] - r.size[key]) * wgt;
                if (fabs(g[3] - p[found].radius * size) > 1e-5) ++wrong;
                for (c = 0; c < 4; ++c)
                    if (fabs(g[4 + c] - (r.color[key][c] + (r.color[key + 1][c] - r.color[key][c]) * wgt)) > 1e-5) ++wrong;
            }
        }
    }
    CHECKF(wrong == 0, "%u sprites are not the effect particles, their size or their colour", wrong);
    CHECKF(unsorted == 0, "%u sprites are out of back-to-front order (against a CPU sort)", unsorted);
    emit_framebuffer_delete(fb, color, depth);
    free(p); free(info); free(life); free(sprites); free(cpu_depth);
    gp_world_destroy(w);
}

/* Two sprites on the camera's axis, red (alpha 0.5) 2 m away and green (alpha 0.5) 1 m away,
   over black: alpha blended back to front, the centre pixel is green over red, (0.25, 0.5, 0),
   whichever order the emitters were added in; added, (0.5, 0.5, 0). With a caller's state
   left in the way (faces culled with a clockwise front, so that the sprites face away; the
   blend equation reverse-subtract; polygons as lines) the pixel is the same, and that state is
   there again after the draw. */
static void emit_two_sprites(int green_first, gp_blend blend, int callers_state, float out[3]) {
    gp_world* w = emit_world(64);
    gp_emitter_desc d;
    gp_emitter e;
    gp_draw_desc draw;
    GLuint fb, color, depth;
    unsigned char pixel[4] = {0, 0, 0, 0};
    int k, c;
    if (!w) return;
    for (k = 0; k < 2; ++k) {
        int green = k == 0 ? green_first : !green_first;
        memset(&d, 0, sizeof d);
        d.position[2] = green ? -1.0f : -2.0f;
        d.particle_radius = 0.3f;
        for (c = 0; c < 4; ++c) { d.color[c][green ? 1 : 0] = 1.0f; d.color[c][3] = 0.5f; }
        CHECK(gp_emitter_add(w, &d, &e) == GP_OK && gp_emitter_burst(w, e, 1) == GP_OK);
    }
    emit_step(w, 1);
    fb = emit_framebuffer(&color, &depth);
    memset(&draw, 0, sizeof draw);
    draw.view[0] = draw.view[5] = draw.view[10] = draw.view[15] = 1.0f;
    emit_projection(draw.projection);
    draw.blend = blend;
    if (callers_state) {
        glEnable(GL_CULL_FACE);
        glFrontFace(GL_CW);
        glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    }
    CHECK(gp_draw_effects(w, &draw) == GP_OK);
    if (callers_state) {
        GLint equation = 0, front = 0, mode[2] = {0, 0};
        glGetIntegerv(GL_BLEND_EQUATION_RGB, &equation);
        glGetIntegerv(GL_FRONT_FACE, &front);
        glGetIntegerv(GL_POLYGON_MODE, mode);
        CHECKF(glIsEnabled(GL_CULL_FACE) && front == GL_CW && equation == GL_FUNC_REVERSE_SUBTRACT && mode[0] == GL_LINE,
               "the caller's state after the draw: culling %d, front face 0x%x, equation 0x%x, polygon mode 0x%x",
               (int)glIsEnabled(GL_CULL_FACE), front, equation, mode[0]);
        glDisable(GL_CULL_FACE);
        glFrontFace(GL_CCW);
        glBlendEquation(GL_FUNC_ADD);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
    glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    for (c = 0; c < 3; ++c) out[c] = (float)pixel[c] / 255.0f;
    emit_framebuffer_delete(fb, color, depth);
    gp_world_destroy(w);
}

static void test_emitter_sprites_blend(void) {
    float a[3], b[3], s[3], c[3];
    emit_two_sprites(0, GP_BLEND_ALPHA, 0, a);
    emit_two_sprites(1, GP_BLEND_ALPHA, 0, b);
    emit_two_sprites(1, GP_BLEND_ADDITIVE, 0, s);
    emit_two_sprites(0, GP_BLEND_ALPHA, 1, c);
    CHECKF(fabsf(c[0] - a[0]) < 0.02f && fabsf(c[1] - a[1]) < 0.02f && fabsf(c[2] - a[2]) < 0.02f,
           "with the caller's culling, blend equation and polygon mode in the way: (%.3f, %.3f, %.3f), not (%.3f, %.3f, %.3f)",
           c[0], c[1], c[2], a[0], a[1], a[2]);
    CHECKF(fabsf(a[0] - 0.25f) < 0.02f && fabsf(a[1] - 0.5f) < 0.02f && fabsf(a[2]) < 0.02f, "red added first: (%.3f, %.3f, %.3f)", a[0], a[1], a[2]);
    CHECKF(fabsf(b[0] - 0.25f) < 0.02f && fabsf(b[1] - 0.5f) < 0.02f && fabsf(b[2]) < 0.02f, "green added first: (%.3f, %.3f, %.3f)", b[0], b[1], b[2]);
    CHECKF(fabsf(s[0] - 0.5f) < 0.02f && fabsf(s[1] - 0.5f) < 0.02f, "added: (%.3f, %.3f, %.3f)", s[0], s[1], s[2]);
}

/* The eye-space depth (m, negative ahead) of the depth buffer's value at a pixel, for
   emit_projection's near and far planes. */
static double emit_eye_depth(float window) {
    const double n = EMIT_NEAR, f = EMIT_FAR, ndc = 2.0 * window - 1.0;
    return -2.0 * f * n / ((f + n) - ndc * (f - n));
}

/* gp_draw_particles and gp_draw_bodies into a 64 x 64 frame buffer, depth-tested, by a camera at
   the origin looking down -z (emit_projection): a particle of radius 0.3 m at 2 m, drawn as a lit
   sphere impostor, covers the centre pixel, not the corner, and writes the depth of its sphere's
   near point (1.7 m, to 2 mm: "its true depth written"); a sphere body of radius 0.3 m there,
   drawn with the caller's back faces culled (GL's default counter-clockwise front), shows its
   near side (its mesh within 1 cm of the sphere), so its triangles face outward; with the front
   faces culled instead it shows its far side (2.3 m). Neither changes the depth function, the
   culling or the blend it found. */
static void test_draw_particles_and_bodies_depth(void) {
    static const float centre[3] = {0.0f, 0.0f, -2.0f};
    gp_draw_desc draw;
    GLuint fb, color, depth;
    int pass;
    memset(&draw, 0, sizeof draw);
    draw.view[0] = draw.view[5] = draw.view[10] = draw.view[15] = 1.0f;
    emit_projection(draw.projection);
    draw.color_by = GP_COLOR_UNIFORM;
    draw.color[0] = draw.color[1] = draw.color[2] = draw.color[3] = 1.0f;
    for (pass = 0; pass < 3; ++pass) {   /* the particle; the body, back faces culled; front faces culled */
        gp_world* w = emit_world(4096);
        unsigned char pixel[4] = {0, 0, 0, 0}, corner[4] = {0, 0, 0, 0};
        float at = 1.0f, edge = 0.0f;
        double z, due = pass == 2 ? -2.3 : -1.7, tolerance = pass == 0 ? 0.002 : 0.01;
        const char* what = pass == 0 ? "the particle" : pass == 1 ? "the body, back faces culled" : "the body, front faces culled";
        gp_result r;
        if (!w) return;
        if (pass == 0) {
            gp_particles_desc d;
            memset(&d, 0, sizeof d);
            d.count = 1; d.positions = centre; d.kind = GP_KIND_FLUID; d.radius = 0.3f;
            CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        } else {
            gp_shape_desc shape;
            gp_body_shape ball;
            gp_body_desc body;
            memset(&shape, 0, sizeof shape);
            shape.shape = GP_SHAPE_SPHERE; shape.radius = 0.3f;
            CHECK(gp_body_shape_create(w, &shape, &ball) == GP_OK);
            memset(&body, 0, sizeof body);
            body.shape = ball;
            memcpy(body.position, centre, sizeof centre);
            body.orientation[3] = 1.0f;
            CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
        }
        CHECK(gp_grid_build(w) == GP_OK);
        fb = emit_framebuffer(&color, &depth);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        if (pass) { glEnable(GL_CULL_FACE); glCullFace(pass == 1 ? GL_BACK : GL_FRONT); }
        r = pass == 0 ? gp_draw_particles(w, &draw) : gp_draw_bodies(w, &draw);
        CHECKF(r == GP_OK, "%s: %s", what, fixture_log);
        CHECKF(glIsEnabled(GL_DEPTH_TEST) && glIsEnabled(GL_CULL_FACE) == (pass != 0) && !glIsEnabled(GL_BLEND),
               "%s: the caller's depth test, culling or blend changed", what);
        glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
        glReadPixels(32, 32, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &at);
        glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, corner);
        glReadPixels(1, 1, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &edge);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        z = emit_eye_depth(at);
        CHECKF(pixel[0] + pixel[1] + pixel[2] > 30 && corner[0] + corner[1] + corner[2] == 0 && edge == 1.0f,
               "%s: the centre pixel (%u, %u, %u), the corner's (%u, %u, %u) at depth %g", what, pixel[0], pixel[1], pixel[2],
               corner[0], corner[1], corner[2], (double)edge);
        CHECKF(fabs(z - due) <= tolerance, "%s: the centre pixel's depth is %.4f m, the sphere's %s point %.4f", what, z,
               pass == 2 ? "far" : "near", due);
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    %s: centre (%u, %u, %u) at %.4f m\n", what, pixel[0], pixel[1], pixel[2], z);
        emit_framebuffer_delete(fb, color, depth);
        gp_world_destroy(w);
    }
}

/* A spray emitter over 400 fluid particles, 5 cm apart, moving at random speeds up to 3 m/s: one
   substep of 1/60 s without gravity gives exactly the births a CPU model of spray_flags and
   spray_emit predicts (each fluid particle faster than 1.5 m/s draws a chance of rate h = 0.5 by
   the hash of its id and the substep; births in slot order up to the limit), each effect
   particle where the model puts it (born within 2 cm of its source with the source's velocity
   plus a kick of up to 0.5 m/s, then flown one substep) to 1e-5; with a limit of 10, the first 10
   sources only. */
static void emit_spray_case(uint32_t limit) {
    const uint32_t n = 400;
    gp_world* w = emit_world(2048);
    gp_fluid_material water;
    gp_particles_desc pd;
    gp_emitter_desc d, r;
    gp_emitter e;
    float xyz[400 * 3], v[400 * 3];
    gp_particle_position p[1024];
    gp_particle_velocity u[1024];
    gp_particle_info info[1024];
    gp_particle_life life[1024];
    uint32_t i, sources[400], found = 0, count = 0, births, wrong = 0;
    uint64_t state = 9;
    const float h = EMIT_DT;
    if (!w) return;
    memset(&water, 0, sizeof water);
    water.spacing = 0.01f;
    CHECK(gp_fluid_material_set(w, 0, &water) == GP_OK);
    for (i = 0; i < n; ++i) {
        int c;
        xyz[3 * i] = 0.05f * (float)(i % 8); xyz[3 * i + 1] = 0.05f * (float)((i / 8) % 8); xyz[3 * i + 2] = 0.05f * (float)(i / 64);
        for (c = 0; c < 3; ++c) v[3 * i + c] = (float)(fixture_random(&state) % 2000) * 1e-3f - 1.0f;
        v[3 * i] *= 2.0f;
    }
    memset(&pd, 0, sizeof pd);
    pd.count = n; pd.positions = xyz; pd.velocities = v; pd.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_SPRAY;
    d.speed[0] = 1.5f; d.speed[1] = 0.5f;
    d.radius = 0.02f;
    d.rate = 30.0f;
    d.lifetime[0] = 0.5f; d.lifetime[1] = 1.0f;
    d.particle_radius = 0.005f;
    d.seed = 77;
    d.max_per_substep = limit;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK && gp_emitter_get(w, e, &r) == GP_OK);
    for (i = 0; i < n; ++i) {   /* the CPU's spray_flags: the sources in slot order (the add's) */
        uint32_t words[3];
        float speed2 = v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2];
        words[0] = r.seed; words[1] = i; words[2] = 0;   /* id i, the substep's serial 0 */
        cpu_pcg3d(words);
        if (speed2 > r.speed[0] * r.speed[0] && (float)(words[0] >> 8) * (1.0f / 16777216.0f) < r.rate * h) sources[found++] = i;
    }
    births = found < limit ? found : limit;
    emit_step(w, 1);
    CHECK(gp_particle_count_read(w, &count) == GP_OK);
    CHECKF(count == n + births, "the spray gave %u births; the CPU model %u (of %u sources, limit %u)", count - n, births, found, limit);
    CHECK(count <= 1024 && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, count, u) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, count, life) == GP_OK);
    for (i = 0; i < count && count <= 1024; ++i) {
        uint32_t j, s, words[3], seed = r.seed ^ (0u * 0x9e3779b9u);
        double a[3], b[3], lifetime = 0.0, x[3], vel[3], z, phi, z2, psi, rr;
        int c, k;
        if ((info[i].kind & 0xffu) != GP_KIND_EFFECT) continue;
        j = info[i].id - n;   /* never-used ids in birth order */
        if (j >= births) { ++wrong; continue; }
        s = sources[j];
        for (k = 3; k <= 5; ++k) {
            words[0] = seed; words[1] = j; words[2] = (uint32_t)k;
            cpu_pcg3d(words);
            for (c = 0; c < 3; ++c) {
                double q = (double)(words[c] >> 8) / 16777216.0;
                if (k == 3) a[c] = q;
                else if (k == 4) b[c] = q;
                else if (c == 0) lifetime = q;
            }
        }
        z = 2.0 * a[0] - 1.0; phi = 6.283185307179586 * a[1]; rr = r.radius * cbrt(a[2]);
        z2 = 2.0 * b[0] - 1.0; psi = 6.283185307179586 * b[1];
        vel[0] = v[3 * s] + r.speed[1] * b[2] * sqrt(fmax(1.0 - z2 * z2, 0.0)) * cos(psi);
        vel[1] = v[3 * s + 1] + r.speed[1] * b[2] * sqrt(fmax(1.0 - z2 * z2, 0.0)) * sin(psi);
        vel[2] = v[3 * s + 2] + r.speed[1] * b[2] * z2;
        x[0] = xyz[3 * s] + rr * sqrt(fmax(1.0 - z * z, 0.0)) * cos(phi) + vel[0] * h;
        x[1] = xyz[3 * s + 1] + rr * sqrt(fmax(1.0 - z * z, 0.0)) * sin(phi) + vel[1] * h;
        x[2] = xyz[3 * s + 2] + rr * z + vel[2] * h;
        lifetime = r.lifetime[0] + (r.lifetime[1] - r.lifetime[0]) * lifetime;
        if (fabs(p[i].x - x[0]) > 1e-5 || fabs(p[i].y - x[1]) > 1e-5 || fabs(p[i].z - x[2]) > 1e-5 || fabs(u[i].x - vel[0]) > 1e-5 ||
            fabs(u[i].y - vel[1]) > 1e-5 || fabs(u[i].z - vel[2]) > 1e-5 || fabs(life[i].lifetime - lifetime) > 1e-6) {
            if (!wrong && getenv("GP_TEST_VERBOSE"))
                fprintf(stderr, "    birth %u of source %u: (%g %g %g) v (%g %g %g) life %g; model (%g %g %g) v (%g %g %g) life %g\n", j, s, p[i].x,
                        p[i].y, p[i].z, u[i].x, u[i].y, u[i].z, life[i].lifetime, x[0], x[1], x[2], vel[0], vel[1], vel[2], lifetime);
            ++wrong;
        }
    }
    CHECKF(wrong == 0, "%u spray particles are not where the CPU model puts them (limit %u)", wrong, limit);
    CHECKF(found > 20, "only %u sources: the case tests little", found);
    gp_world_destroy(w);
}

static void test_emitter_spray_against_cpu(void) {
    emit_spray_case(1000);
    emit_spray_case(10);
}

/* A mesh emitter on two triangles of areas 1 and 3 m^2 in the plane y = 0 (shifted up 0.5 m), 2,000
   births, spread 0.3: each where the double-precision reference puts it (the triangle drawn by
   area, the point on it, the direction about its normal) to 1e-5, a quarter of them on the small
   triangle within 3%, every direction within the spread of its triangle's normal. */
static void test_emitter_mesh_against_cpu(void) {
    const float vertices[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, -2.0f, 4.0f, 0.0f, 0.0f, 0.0f, 0.0f, -2.0f};
    const uint32_t triangles[] = {0, 1, 2, 1, 3, 4};   /* normals +y (counter-clockwise from above): 1 m^2 and 3 m^2 */
    const uint32_t n = 2000;
    gp_world* w = emit_world(4096);
    gp_emitter_desc d, r;
    gp_emitter e;
    gp_particle_position* p = (gp_particle_position*)malloc(n * sizeof *p);
    gp_particle_velocity* v = (gp_particle_velocity*)malloc(n * sizeof *v);
    gp_particle_info* info = (gp_particle_info*)malloc(n * sizeof *info);
    gp_particle_life* life = (gp_particle_life*)malloc(n * sizeof *life);
    uint32_t i, first, on_small = 0, wrong = 0;
    double worst = 0.0, small_share;
    if (!w) { free(p); free(v); free(info); free(life); return; }
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_MESH;
    d.position[1] = 0.5f;
    d.vertices = vertices; d.vertex_count = 5; d.triangles = triangles; d.triangle_count = 2;
    d.spread = 0.3f;
    d.speed[0] = 1.0f; d.speed[1] = 2.0f;
    d.lifetime[0] = 1.0f; d.lifetime[1] = 2.0f;
    d.seed = 5;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK && gp_emitter_get(w, e, &r) == GP_OK && r.vertices == NULL);
    first = emit_burst_read(w, e, n, p, v, info, life);
    for (i = 0; i < n; ++i) {
        double x[3], u[3], lifetime, g[3], gu[3], speed;
        uint32_t triangle;
        int c;
        cpu_emit_mesh(&r, vertices, triangles, 2, info[i].id - first, x, u, &lifetime, &triangle);
        g[0] = p[i].x; g[1] = p[i].y; g[2] = p[i].z;
        gu[0] = v[i].x; gu[1] = v[i].y; gu[2] = v[i].z;
        for (c = 0; c < 3; ++c) {
            worst = fmax(worst, fabs(g[c] - (x[c] + u[c] * (double)EMIT_DT)));
            worst = fmax(worst, fabs(gu[c] - u[c]));
        }
        worst = fmax(worst, fabs(life[i].lifetime - lifetime));
        on_small += triangle == 0;
        speed = sqrt(gu[0] * gu[0] + gu[1] * gu[1] + gu[2] * gu[2]);
        if (gu[1] / speed < cos(0.3) - 1e-5) ++wrong;   /* both normals are +y */
    }
    small_share = (double)on_small / n;
    CHECKF(worst <= 1e-5, "mesh births are %.3g from the reference", worst);
    CHECKF(fabs(small_share - 0.25) <= 0.03, "%.3f of the births on the triangle of a quarter of the area", small_share);
    CHECKF(wrong == 0, "%u births leave outside the spread of their triangle's normal", wrong);
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_MESH;
    CHECK(gp_emitter_add(w, &d, &e) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
    free(p); free(v); free(info); free(life);
    gp_world_destroy(w);
}

/* A pour emitter of effect particles (2 cm apart, 0.5 m/s along a slanted axis, 700 a second)
   without gravity: after each of 60 steps the store holds what the layer schedule gives (a layer
   every spacing / speed seconds of the births the rate gave by then, floor of the sum: a CPU model
   of it in the same double arithmetic), and every particle sits on the lattice across the stream
   (its offsets along the two directions across it whole multiples of the spacing, to 1e-4 m);
   with a jitter of 0.3 spacings, the next layers' points sit on a lattice 1.6 spacings apart (so
   that no two are born overlapping) and leave it, by no more than 0.3 spacings. */
static void test_emitter_pour_layers(void) {
    gp_world* w = emit_world(8192);
    gp_emitter_desc d;
    gp_emitter e;
    double clock = 0.0, owed = 0.0, interval;
    uint64_t expected = 0;
    uint32_t n, count = 0, wrong = 0, off = 0, i;
    if (!w) return;
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_POUR;
    d.position[0] = 0.2f; d.position[1] = 1.0f;
    d.direction[0] = 0.3f; d.direction[1] = -1.0f; d.direction[2] = 0.2f;
    d.speed[0] = 0.5f;
    d.rate = 700.0f;
    d.particle_radius = 0.01f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    interval = 0.02f / d.speed[0];
    for (n = 1; n <= 60; ++n) {
        emit_step(w, 1);
        clock += (double)EMIT_DT;   /* the library's schedule, in its arithmetic */
        while (clock >= interval) {
            uint32_t layer;
            clock -= interval;
            owed += (double)d.rate * interval;
            layer = owed > 1024.0 ? 1024u : (uint32_t)owed;
            owed -= layer;
            expected += layer;
        }
        CHECK(gp_particle_count_read(w, &count) == GP_OK);
        wrong += count != expected;
    }
    CHECKF(wrong == 0, "%u steps held another count than the layers' schedule (%u, %llu at the end)", wrong, count, (unsigned long long)expected);
    {
        gp_particle_position* p = (gp_particle_position*)malloc(count * sizeof *p);
        gp_emitter_desc r;
        double axis[3], t[3], b[3], len;
        int c;
        CHECK(gp_emitter_get(w, e, &r) == GP_OK);
        for (c = 0; c < 3; ++c) axis[c] = r.direction[c];
        {   /* any two directions across the axis: a lattice point's offset is whole in the pour's own basis, */
            double sgn = axis[2] >= 0.0 ? 1.0 : -1.0, a = -1.0 / (sgn + axis[2]), q = axis[0] * axis[1] * a;
            t[0] = 1.0 + sgn * axis[0] * axis[0] * a; t[1] = sgn * q; t[2] = -sgn * axis[0];   /* Duff et al. 2017, as gp_basis */
            b[0] = q; b[1] = sgn + axis[1] * axis[1] * a; b[2] = -axis[1];
        }
        len = 0.0;
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK);
        for (i = 0; i < count; ++i) {
            double rel[3] = {p[i].x - r.position[0], p[i].y - r.position[1], p[i].z - r.position[2]}, u = 0.0, v = 0.0;
            for (c = 0; c < 3; ++c) { u += rel[c] * t[c]; v += rel[c] * b[c]; }
            u /= 0.02; v /= 0.02;
            if (fabs(u - floor(u + 0.5)) > 5e-3 || fabs(v - floor(v + 0.5)) > 5e-3) ++off;
            len = fmax(len, sqrt(u * u + v * v));
        }
        CHECKF(off == 0, "%u of %u pour particles are off the lattice across the stream", off, count);
        CHECKF(len < 10.0, "the pour is %.1f spacings wide: its layers of 14 should fill a disc of about 2", len);
        free(p);
        {   /* a jitter of 0.3 spacings: the next layers' points off the lattice, by no more than that */
            uint32_t before = count, jittered = 0, outside = 0;
            r.radius = 0.3f;
            CHECK(gp_emitter_set(w, e, &r) == GP_OK);
            for (n = 0; n < 5; ++n) emit_step(w, 1);
            CHECK(gp_particle_count_read(w, &count) == GP_OK && count > before);
            p = (gp_particle_position*)malloc(count * sizeof *p);
            {
                gp_particle_info* info = (gp_particle_info*)malloc(count * sizeof *info);
                CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) == GP_OK);
                for (i = 0; i < count; ++i) {
                    double rel[3] = {p[i].x - r.position[0], p[i].y - r.position[1], p[i].z - r.position[2]}, u = 0.0, v = 0.0, du, dv;
                    const double wide = 0.02 * 1.6;   /* the jittered lattice's spacing */
                    if (info[i].id < before) continue;   /* the new layers' */
                    for (c = 0; c < 3; ++c) { u += rel[c] * t[c]; v += rel[c] * b[c]; }
                    du = fabs(u / wide - floor(u / wide + 0.5)) * wide / 0.02; dv = fabs(v / wide - floor(v / wide + 0.5)) * wide / 0.02;
                    jittered += du > 1e-3 || dv > 1e-3;
                    outside += du > 0.3 + 1e-4 || dv > 0.3 + 1e-4;
                }
                CHECKF(jittered > 0 && outside == 0, "jitter 0.3: %u points off the lattice, %u further than 0.3 spacings", jittered, outside);
                {   /* and no two born overlapping (moving together, without gravity, they keep their distances) */
                    double closest = 1.0;
                    uint32_t k;
                    for (i = 0; i < count; ++i)
                        for (k = i + 1; k < count; ++k)
                            if (info[i].id >= before && info[k].id >= before)
                                closest = fmin(closest, sqrt(pow(p[i].x - p[k].x, 2) + pow(p[i].y - p[k].y, 2) + pow(p[i].z - p[k].z, 2)));
                    CHECKF(closest >= 0.02 * (1.0 - 1e-4), "jitter 0.3: two particles born %.4g m apart (diameter 0.02 m)", closest);
                }
                free(info);
            }
            free(p);
        }
    }
    gp_world_destroy(w);
}

/* Never-used ids set aside for births that do not happen go back (store_count queues them): a
   spray emitter whose limit (600 a substep) far exceeds its births, over 40 substeps, sets aside
   24,000 ids in a store of 1,024 (ids below 2,048), yet no birth is ever refused for want of an id,
   and the ids in the store stay distinct. */
static void test_emitter_ids_not_lost(void) {
    gp_world* w = emit_world(1024);
    gp_fluid_material water;
    gp_particles_desc pd;
    gp_emitter_desc d;
    gp_emitter e;
    gp_emitter_stats stats;
    gp_particle_info info[1024];
    float xyz[40 * 3], v[40 * 3];
    uint32_t i, count = 0, repeated = 0;
    static uint8_t seen[2048];
    if (!w) return;
    memset(&water, 0, sizeof water);
    water.spacing = 0.01f;
    CHECK(gp_fluid_material_set(w, 0, &water) == GP_OK);
    for (i = 0; i < 40; ++i) {
        xyz[3 * i] = 0.1f * (float)(i % 8); xyz[3 * i + 1] = 0.1f * (float)(i / 8); xyz[3 * i + 2] = 0.0f;
        v[3 * i] = i % 4 == 0 ? 3.0f : 0.0f; v[3 * i + 1] = v[3 * i + 2] = 0.0f;
    }
    memset(&pd, 0, sizeof pd);
    pd.count = 40; pd.positions = xyz; pd.velocities = v; pd.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    memset(&d, 0, sizeof d);
    d.shape = GP_EMITTER_SPRAY;
    d.speed[0] = 1.0f;
    d.rate = 15.0f;                /* a fast particle's chance: a quarter a substep */
    d.max_per_substep = 600;
    d.lifetime[0] = d.lifetime[1] = 10.0f;
    CHECK(gp_emitter_add(w, &d, &e) == GP_OK);
    for (i = 0; i < 40; ++i) emit_step(w, 1);
    emit_step(w, 1); emit_step(w, 1);   /* the statistics of the 40th step */
    CHECK(gp_emitter_stats_get(w, e, &stats) == GP_OK);
    CHECKF(stats.refused == 0, "%u births refused in a store with room: ids ran out", stats.refused);
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count > 40 && count <= 1024);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, info) == GP_OK);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < count; ++i) {
        if (info[i].id >= 2048 || seen[info[i].id]) ++repeated;
        else seen[info[i].id] = 1;
    }
    CHECKF(repeated == 0, "%u ids out of range or given twice among %u particles", repeated, count);
    gp_world_destroy(w);
}

const gp_test_case emitter_tests[] = {
    {"emitter_counts_exact", test_emitter_counts_exact},
    {"emitter_steady_state", test_emitter_steady_state},
    {"emitter_shapes_against_cpu", test_emitter_shapes_against_cpu},
    {"emitter_seed_repeats", test_emitter_seed_repeats},
    {"emitter_full_store", test_emitter_full_store},
    {"emitter_absurd_dt", test_emitter_absurd_dt},
    {"emitter_pours_grains", test_emitter_pours_grains},
    {"emitter_misuse", test_emitter_misuse},
    {"emitter_sprites_back_to_front", test_emitter_sprites_back_to_front},
    {"emitter_sprites_blend", test_emitter_sprites_blend},
    {"draw_particles_and_bodies_depth", test_draw_particles_and_bodies_depth},
    {"emitter_spray_against_cpu", test_emitter_spray_against_cpu},
    {"emitter_mesh_against_cpu", test_emitter_mesh_against_cpu},
    {"emitter_pour_layers", test_emitter_pour_layers},
    {"emitter_ids_not_lost", test_emitter_ids_not_lost},
};
const int emitter_test_count = (int)(sizeof emitter_tests / sizeof emitter_tests[0]);
