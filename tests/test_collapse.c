/* test_collapse.c: a granular column collapse (issue 13, item 6) against the experiments' scaling
   law. A cylinder of the default sand (static friction: the shear spring) is filled, settled and
   cut to height H0 = a R0, then the cylinder is lifted at once and the column spreads on the
   floor until it rests. Lube, Huppert, Sparks and Hallworth (2004, J. Fluid Mech. 508, 175-199)
   found the normalised runout of axisymmetric columns, whatever the grains,
       (R_inf - R0) / R0 = 1.24 a       for a < 1.7,
                         = 1.6 a^(1/2)  for a > 1.7,
   and Lajeunesse, Mangeney-Castelnau and Vilotte (2004, Phys. Fluids 16, 2371-2381) the same
   within their scatter (about 2 a^(1/2) above a = 0.74, with glass beads). bench/RESULTS.md has
   the library's figures at a = 0.5 to 4 and the scene in full. */
#include "fixture.h"
#include <math.h>
#include <stdio.h>

#define COLLAPSE_D 0.04          /* metres, a grain (the default material otherwise) */
#define COLLAPSE_RADIUS 6.0      /* R0, in diameters */
#define COLLAPSE_ASPECT 2.0      /* a = H0 / R0 */
#define COLLAPSE_SETTLE 40       /* frames of 1/60 s the filled cylinder settles */
#define COLLAPSE_FRAMES 240      /* at most, after the lift */

static double collapse_uniform(uint64_t* state) { return (double)(fixture_random(state) >> 11) * (1.0 / 9007199254740992.0); }

/* The cylinder filled by random sequential addition (no two grains closer than 1.02 d) to 1.8 H0,
   a volume fraction of about a third, that settles to about 0.6 (as a poured column), then is cut
   at H0: grains whose centre is above H0 - d/2 removed. Returns the grains left. */
static uint32_t collapse_column(gp_world* w, double r0, double h0) {
    const double d = COLLAPSE_D, rc = r0 - 0.5 * d, top = 1.8 * h0;
    uint32_t want = (uint32_t)(0.6 * r0 * r0 * h0 / (d * d * d / 6.0)), n = 0, i, cut = 0;
    float* xyz = (float*)malloc((size_t)want * 12);
    gp_particle_position* p = (gp_particle_position*)malloc((size_t)want * sizeof *p);
    gp_particle_info* info = (gp_particle_info*)malloc((size_t)want * sizeof *info);
    uint32_t* ids = (uint32_t*)malloc((size_t)want * 4);
    uint64_t state = 13;
    gp_particles_desc grains;
    long tries;
    for (tries = 0; n < want && tries < 4000000; ++tries) {
        double x = (2.0 * collapse_uniform(&state) - 1.0) * rc, z = (2.0 * collapse_uniform(&state) - 1.0) * rc;
        double y = 0.5 * d + collapse_uniform(&state) * (top - d);
        int free_place = x * x + z * z <= rc * rc;
        for (i = 0; i < n && free_place; ++i) {
            double dx = xyz[3 * i] - x, dy = xyz[3 * i + 1] - y, dz = xyz[3 * i + 2] - z;
            free_place = dx * dx + dy * dy + dz * dz >= 1.0404 * d * d;
        }
        if (!free_place) continue;
        xyz[3 * n] = (float)x; xyz[3 * n + 1] = (float)y; xyz[3 * n + 2] = (float)z;
        ++n;
    }
    memset(&grains, 0, sizeof grains);
    grains.count = n;
    grains.positions = xyz;
    grains.kind = GP_KIND_GRANULAR;
    CHECK(gp_particles_add(w, &grains, NULL) == GP_OK);
    fixture_run(w, COLLAPSE_SETTLE);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
    for (i = 0; i < n; ++i)
        if (p[i].y > h0 - 0.5 * d) ids[cut++] = info[i].id;
    CHECKF(cut > 0 && cut < n / 4, "the settled column is %u grains, %u of them above H0", n, cut);
    if (cut) CHECK(gp_particles_remove(w, ids, cut) == GP_OK);
    free(xyz); free(p); free(info); free(ids);
    return n - cut;
}

/* The column of a = 2 (R0 = 6 d, about 1,300 grains, 18 s on llvmpipe with two threads) must
   come to rest within COLLAPSE_FRAMES (every grain slower than 0.01 sqrt(g d), 6 mm/s, for 10
   frames: the viscous shear's column still creeps at 6 s), every grain kept and finite, having
   collapsed (its summit below 0.9 H0), with its runout within a factor 0.75 to 1.3 of Lube's
   1.6 a^(1/2) = 2.26. The runout: the radius within which 99% of the grains' outer edges lie (a
   few grains rolled out alone do not count; the covered edge, rings of d covered 30%, gives the
   same within a grain). The band: the experiments themselves scatter by about 25% at this
   aspect ratio (Lube's 2.26 against Lajeunesse's 2.83), the runout depends on R0 / d as well as
   on a below R0 of some 30 grains (Warnett et al. 2014, Granular Matter 16, 115-124), and one
   grain here is 0.17 of R0: 0.75 to 1.3 allows that. Measured with the default material (mu 0.3,
   the friction at which these grains, which do not spin, pile at sand's angle of repose): 1.85,
   0.82 of the law; at mu 0.5 it was 1.04 (0.46 of it), the deposits 1.5 times as tall as Lube's. */
static void test_friction_column_collapse(void) {
    const double d = COLLAPSE_D, r0 = COLLAPSE_RADIUS * d, h0 = COLLAPSE_ASPECT * r0, g = 9.81;
    const double lube = 1.6 * sqrt(COLLAPSE_ASPECT);
    gp_world_desc desc;
    gp_world* w;
    gp_granular_material sand;
    gp_collider_desc c;
    gp_collider floor_, cylinder;
    gp_fluid_stats stats;
    gp_particle_position* p;
    double* edge;
    double summit = 0.0, runout;
    uint32_t n, count = 0, i;
    int frame, resting = 0;
    memset(&desc, 0, sizeof desc);
    desc.max_particles = 4096;
    desc.grid.cell_size = (float)d;   /* hashed */
    w = fixture_world(&desc);
    if (!w) return;
    memset(&sand, 0, sizeof sand);    /* the default sand */
    sand.diameter = (float)d;
    CHECK(gp_granular_material_set(w, 0, &sand) == GP_OK);
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_PLANE;
    c.normal[1] = 1.0f;
    CHECK(gp_collider_add(w, &c, &floor_) == GP_OK);
    /* The cylinder: a capsule kept inside, its lower cap below the floor (full radius from y = 0) */
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_CAPSULE;
    c.inside = true;
    c.radius = (float)r0;
    c.half_height = (float)(1.2 * 1.8 * h0 + r0);
    c.center[1] = (float)(c.half_height - r0);
    CHECK(gp_collider_add(w, &c, &cylinder) == GP_OK);
    n = collapse_column(w, r0, h0);
    CHECK(gp_collider_remove(w, cylinder) == GP_OK);   /* lifted at once */
    for (frame = 0; frame < COLLAPSE_FRAMES && resting < 10; ++frame) {
        fixture_run(w, 1);
        CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
        resting = stats.max_speed < 0.01 * sqrt(g * d) ? resting + 1 : 0;
    }
    CHECKF(resting >= 10, "the column still moves after %d frames: %.3g m/s", frame, stats.max_speed);
    CHECK(gp_particle_count_read(w, &count) == GP_OK);
    CHECKF(count == n && stats.nonfinite == 0, "%u of %u grains left, %u non-finite updates", count, n, stats.nonfinite);
    p = (gp_particle_position*)malloc((size_t)count * sizeof *p + 1);
    edge = (double*)malloc((size_t)count * sizeof *edge + 1);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK);
    for (i = 0; i < count; ++i) {
        double r = sqrt((double)p[i].x * p[i].x + (double)p[i].z * p[i].z) + p[i].radius;
        uint32_t j = i;
        summit = fmax(summit, p[i].y + p[i].radius);
        while (j > 0 && edge[j - 1] > r) { edge[j] = edge[j - 1]; --j; }   /* insertion: ascending */
        edge[j] = r;
    }
    runout = count ? (edge[(uint32_t)(0.99 * (count - 1))] - r0) / r0 : 0.0;
    CHECKF(summit < 0.9 * h0, "the column stood: its summit %.3f m of H0 = %.3f m", summit, h0);
    CHECKF(runout >= 0.75 * lube && runout <= 1.3 * lube, "runout (R - R0) / R0 = %.3f, %.2f of Lube's 1.6 a^(1/2) = %.3f (allowed 0.75 "
           "to 1.3)", runout, runout / lube, lube);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    a = %.1f, %u grains, R0 = %.0f d: at rest after %d frames, runout %.3f (%.2f of Lube's %.3f), summit "
                "%.3f R0 (%.2f H0)\n", COLLAPSE_ASPECT, count, COLLAPSE_RADIUS, frame, runout, runout / lube, lube, summit / r0,
                summit / h0);
    free(p);
    free(edge);
    gp_world_destroy(w);
}

const gp_test_case collapse_tests[] = {
    {"friction_column_collapse", test_friction_column_collapse},
};
const int collapse_test_count = (int)(sizeof collapse_tests / sizeof collapse_tests[0]);
