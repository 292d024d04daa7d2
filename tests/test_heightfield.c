/* test_heightfield.c: height fields (GP_SHAPE_HEIGHTFIELD, gp_heightfield_add; after 002
   section 4.6): the distance the solvers see against a double-precision reference
   (tests/cpu_collider.c) on a random, odd-sized field and points in, on and beyond it; bad input
   refused whole; and every kind meeting one: a grain slides down a sloped field exactly as down
   the plane it samples, and water poured onto a bumpy field stays above it. */
#include "fixture.h"
#include "cpu_collider.h"
#include <math.h>
#include <stdio.h>

/* The GPU's distance (gp_boundary_distance_read) against cpu_collider_distance at 2,000 points: a
   7 x 5 field of random heights (+-0.1 m over 0.5 x 0.3 m, base 0.2 m), points spread over twice
   its rectangle (so a third lie beyond its edges), a tenth exactly on its grid lines and points,
   where the slope has a kink and either side's distance is right (the reference is taken 1e-7 m
   to each side too). */
static void test_heightfield_distance_against_cpu(void) {
    gp_world* w = fixture_grid_world(16, 0.1f, 0);
    gp_collider_desc d;
    gp_collider handle;
    float heights[35], points[3 * 2000], got[2000];
    uint64_t state = 12345;
    double worst = 0.0;
    int k;
    if (!w) return;
    for (k = 0; k < 35; ++k) heights[k] = (float)((double)(fixture_random(&state) >> 11) / 9007199254740992.0 * 0.2 - 0.1);
    memset(&d, 0, sizeof d);
    d.shape = GP_SHAPE_HEIGHTFIELD;
    d.center[0] = 0.05f; d.center[1] = 0.2f; d.center[2] = -0.1f;
    d.half_extents[0] = 0.25f; d.half_extents[2] = 0.15f;
    d.samples[0] = 7; d.samples[1] = 5;
    d.heights = heights;
    CHECK(gp_collider_add(w, &d, &handle) == GP_OK);
    for (k = 0; k < 2000; ++k) {
        double r[3];
        int a;
        for (a = 0; a < 3; ++a) r[a] = (double)(fixture_random(&state) >> 11) / 9007199254740992.0;
        points[3 * k] = (float)(d.center[0] + (2.0 * r[0] - 1.0) * 2.0 * d.half_extents[0]);
        points[3 * k + 1] = (float)(0.2 + (2.0 * r[1] - 1.0) * 0.3);
        points[3 * k + 2] = (float)(d.center[2] + (2.0 * r[2] - 1.0) * 2.0 * d.half_extents[2]);
        if (k % 10 == 0) {   /* on a grid point, or on a line between two */
            points[3 * k] = d.center[0] - d.half_extents[0] + (float)(k / 10 % 7) * (2.0f * d.half_extents[0] / 6.0f);
            if (k % 20 == 0) points[3 * k + 2] = d.center[2] - d.half_extents[2] + (float)(k / 20 % 5) * (2.0f * d.half_extents[2] / 4.0f);
        }
    }
    CHECK(gp_boundary_distance_read(w, points, 2000, got) == GP_OK);
    for (k = 0; k < 2000; ++k) {   /* on a grid line the slope has a kink: either side's value is right */
        double e = INFINITY, want = NAN;
        int side;
        for (side = 0; side < 5; ++side) {
            double x[3] = {points[3 * k], points[3 * k + 1], points[3 * k + 2]}, n[3], v;
            if (side) x[side <= 2 ? 0 : 2] += (side % 2 ? 1e-7 : -1e-7);
            v = cpu_collider_distance(&d, x, n);
            if (fabs(got[k] - v) < e) { e = fabs(got[k] - v); want = v; }
        }
        if (e > worst) worst = e;
        if (e > 2e-6 && e - 2e-6 > 0.0 && worst == e && getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    at (%g %g %g): GPU %.7f, CPU %.7f\n", points[3 * k], points[3 * k + 1], points[3 * k + 2], got[k], want);
    }
    CHECKF(worst <= 2e-6, "the GPU's distance to the height field differs from the reference's by %.3g m", worst);
    gp_world_destroy(w);
}

/* Refused whole, naming the problem: no heights, fewer than 2 x 2 points, a NaN height, an empty
   rectangle; nothing is added (the boundary stays empty: no wall within 1e30 m). */
static void test_heightfield_rejects_bad_input(void) {
    gp_world* w = fixture_grid_world(16, 0.1f, 0);
    float heights[6] = {0, 0, 0, 0, 0, 0}, far[3] = {0.0f, 0.0f, 0.0f}, distance = 0.0f;
    gp_collider handle = {7};
    if (!w) return;
    CHECK(gp_heightfield_add(w, NULL, 3, 2, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, &handle) == GP_ERROR_INVALID_ARGUMENT &&
          fixture_logged("heights (NULL)") && handle.id == 0);
    CHECK(gp_heightfield_add(w, heights, 1, 6, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, &handle) == GP_ERROR_INVALID_ARGUMENT &&
          fixture_logged("1 x 6"));
    heights[4] = NAN;
    CHECK(gp_heightfield_add(w, heights, 3, 2, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, &handle) == GP_ERROR_INVALID_ARGUMENT &&
          fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE) && fixture_logged("height of particle 4"));
    heights[4] = 0.0f;
    CHECK(gp_heightfield_add(w, heights, 3, 2, 1.0f, 1.0f, 0.0f, 1.0f, 0.0f, &handle) == GP_ERROR_INVALID_ARGUMENT &&
          fixture_logged("rectangle"));
    CHECK(gp_boundary_distance_read(w, far, 1, &distance) == GP_OK && distance > 1e30f);
    CHECK(gp_heightfield_add(w, heights, 3, 2, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, &handle) == GP_OK && handle.id != 0);
    CHECK(gp_boundary_distance_read(w, far, 1, &distance) == GP_OK && fabsf(distance) < 1e-6f);
    CHECK(gp_collider_remove(w, handle) == GP_OK && gp_boundary_distance_read(w, far, 1, &distance) == GP_OK && distance > 1e30f);
    gp_world_destroy(w);
}

/* One grain let go 2 mm above a slope of 40 degrees (above the friction's 16.7), at x = -0.3 (it
   slides about 0.4 m down in 0.5 s, staying on the field), on a height
   field that samples the plane y = 0.3 - 0.84 x (9 x 9 points over 0.8 x 0.8 m), and the same
   grain on that plane as a GP_SHAPE_PLANE collider: both slide down the same way, their paths
   within 1e-4 m over 0.5 s (the field's distance and normal are the plane's, to float rounding),
   and the grain on the field has gone downhill (+x) more than 5 cm. */
static void heightfield_slide(int as_field, float slope, float gap, gp_shear_model shear, float out[3]) {
    gp_world* w = fixture_grid_world(16, 0.05f, 1);
    const float x0 = -0.3f, r = 0.01f;
    gp_collider handle;
    gp_granular_material g;
    gp_particles_desc pd;
    gp_particle_position p;
    float heights[81], at[3];
    int i, k;
    out[0] = out[1] = out[2] = NAN;
    if (!w) return;
    memset(&g, 0, sizeof g);
    g.diameter = 2.0f * r;
    g.shear_model = shear;
    CHECK(gp_granular_material_set(w, 0, &g) == GP_OK);
    if (as_field) {
        for (k = 0; k < 9; ++k)
            for (i = 0; i < 9; ++i) heights[i + 9 * k] = -slope * (-0.4f + 0.1f * (float)i);
        CHECK(gp_heightfield_add(w, heights, 9, 9, -0.4f, 0.4f, -0.4f, 0.4f, 0.3f, &handle) == GP_OK);
    } else {
        gp_collider_desc d;
        memset(&d, 0, sizeof d);
        d.shape = GP_SHAPE_PLANE;
        d.center[1] = 0.3f;
        d.normal[0] = slope; d.normal[1] = 1.0f;
        CHECK(gp_collider_add(w, &d, &handle) == GP_OK);
    }
    at[0] = x0;
    at[1] = 0.3f - slope * x0 + (r + gap) * sqrtf(1.0f + slope * slope);
    at[2] = 0.0f;
    memset(&pd, 0, sizeof pd);
    pd.count = 1; pd.positions = at; pd.kind = GP_KIND_GRANULAR;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    fixture_run(w, 30);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &p) == GP_OK);
    out[0] = p.x; out[1] = p.y; out[2] = p.z;
    gp_world_destroy(w);
}

static void test_heightfield_grain_slides_as_on_its_plane(void) {
    float field[3], plane[3];
    double gap;
    heightfield_slide(1, 0.84f, 0.002f, GP_SHEAR_DEFAULT, field);
    heightfield_slide(0, 0.84f, 0.002f, GP_SHEAR_DEFAULT, plane);
    gap = sqrt(((double)field[0] - plane[0]) * (field[0] - plane[0]) + ((double)field[1] - plane[1]) * (field[1] - plane[1]) +
               ((double)field[2] - plane[2]) * (field[2] - plane[2]));
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    after 0.5 s: on the field (%.5f %.5f %.5f), on the plane (%.5f %.5f %.5f)\n", field[0], field[1], field[2],
                plane[0], plane[1], plane[2]);
    CHECKF(gap <= 1e-4, "the grain on the height field ends %.3g m from the grain on its plane", gap);
    CHECKF(field[0] > -0.3f + 0.05f, "the grain on a 40-degree height field moved from x = -0.3 to %.4f: it should slide down (+x)", field[0]);
}

/* Static friction on a height field (the shear spring holds against every collider, height fields included):
   the grain of heightfield_slide set down touching a slope of 15 degrees (below the default
   friction's atan 0.3 = 16.7 degrees) of the same field holds: in 0.5 s it moves no more than its
   springs give under its weight (measured 6.1e-5 m, as on the plane the field samples; allowed
   1e-4). With the paper's viscous shear (GP_SHEAR_VISCOUS) a contact cannot hold: the grain
   creeps down at the speed its dashpot allows, further than that (checked here too). */
static double heightfield_hold(int as_field, gp_shear_model shear) {
    const float slope = 0.2679f, x0 = -0.3f, r = 0.01f;   /* tan 15 degrees */
    const double start[2] = {x0, 0.3f - slope * x0 + r * sqrtf(1.0f + slope * slope)};
    float end[3];
    heightfield_slide(as_field, slope, 0.0f, shear, end);
    return sqrt((end[0] - start[0]) * (end[0] - start[0]) + (end[1] - start[1]) * (end[1] - start[1]));
}
static void test_heightfield_grain_holds_below_friction(void) {
    double field = heightfield_hold(1, GP_SHEAR_DEFAULT), plane = heightfield_hold(0, GP_SHEAR_DEFAULT);
    double viscous = heightfield_hold(1, GP_SHEAR_VISCOUS);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    on a 15-degree slope after 0.5 s: moved %.3g m on the field, %.3g m on the plane; %.3g m on the field with the "
                "viscous shear\n", field, plane, viscous);
    CHECKF(field < 1e-4 && plane < 1e-4, "a grain on a 15-degree slope (mu 0.3) moved %.3g m on the height field, %.3g m on the "
           "plane: it should hold", field, plane);
    CHECKF(viscous > 1e-4, "with the viscous shear the grain moved only %.3g m: the test would not see a contact that creeps", viscous);
}

/* Water (the default) poured as a block onto a bumpy height field (a bowl of cosine bumps, 0.04 m
   high, 13 x 11 points) inside a box tank: after 0.5 s every particle is finite and above the
   field (its distance at least -1 mm: the walls' push keeps half a spacing, eq. 11 of 001). */
static void test_heightfield_holds_water(void) {
    const float l = 0.02f, lo[3] = {0.06f, 0.12f, 0.06f}, hi[3] = {0.24f, 0.24f, 0.24f};
    gp_world* w = fixture_grid_world(2000, 2.0f * l, 1);
    gp_collider_desc tank;
    gp_collider handle;
    gp_fluid_material m;
    gp_particle_position* p;
    float heights[13 * 11], *xyz, *d;
    uint32_t n = 0, k;
    int i, j, bad = 0;
    double lowest = INFINITY;
    if (!w) return;
    memset(&tank, 0, sizeof tank);
    tank.shape = GP_SHAPE_BOX; tank.inside = true;
    tank.center[0] = 0.15f; tank.center[1] = 0.25f; tank.center[2] = 0.15f;
    tank.half_extents[0] = 0.15f; tank.half_extents[1] = 0.25f; tank.half_extents[2] = 0.15f;
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    for (j = 0; j < 11; ++j)
        for (i = 0; i < 13; ++i) heights[i + 13 * j] = 0.02f * (1.0f - cosf(0.9f * (float)i) * cosf(0.7f * (float)j));
    CHECK(gp_heightfield_add(w, heights, 13, 11, 0.0f, 0.3f, 0.0f, 0.3f, 0.02f, &handle) == GP_OK);
    memset(&m, 0, sizeof m);
    m.spacing = l;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n > 0);
    fixture_run(w, 30);
    p = (gp_particle_position*)malloc((size_t)n * sizeof *p);
    xyz = (float*)malloc((size_t)n * 3 * sizeof *xyz);
    d = (float*)malloc((size_t)n * sizeof *d);
    CHECK(gp_particle_count(w) == n && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK);
    for (k = 0; k < n; ++k) {
        bad += !isfinite(p[k].x) || !isfinite(p[k].y) || !isfinite(p[k].z);
        xyz[3 * k] = p[k].x; xyz[3 * k + 1] = p[k].y; xyz[3 * k + 2] = p[k].z;
    }
    CHECK(gp_collider_remove(w, (gp_collider){1}) == GP_OK);   /* the tank: the field's distance alone */
    CHECK(gp_boundary_distance_read(w, xyz, n, d) == GP_OK);
    for (k = 0; k < n; ++k) lowest = fmin(lowest, d[k]);
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    %u particles, the lowest %.4f m above the field\n", n, lowest);
    CHECKF(bad == 0 && lowest >= -0.001, "%d particles not finite; one is %.4f m below the height field", bad, -lowest);
    free(p); free(xyz); free(d);
    gp_world_destroy(w);
}

const gp_test_case heightfield_tests[] = {
    {"heightfield_distance_against_cpu", test_heightfield_distance_against_cpu},
    {"heightfield_rejects_bad_input", test_heightfield_rejects_bad_input},
    {"heightfield_grain_slides_as_on_its_plane", test_heightfield_grain_slides_as_on_its_plane},
    {"heightfield_grain_holds_below_friction", test_heightfield_grain_holds_below_friction},
    {"heightfield_holds_water", test_heightfield_holds_water},
};
const int heightfield_test_count = (int)(sizeof heightfield_tests / sizeof heightfield_tests[0]);
