/* test_collapse.c: a granular column collapse against the experiments' scaling
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

/* Collapses a column of aspect ratio a (R0 = 6 d) of the default sand: fills, settles and cuts
   it (collapse_column), lifts the cylinder at once and steps until every grain is slower than
   0.01 sqrt(g d) (6 mm/s) for 10 frames, within COLLAPSE_FRAMES (the viscous shear's column still
   creeps at 6 s); checks that every grain is kept and finite. *runout receives (R - R0) / R0, R
   the radius within which 99% of the grains' outer edges lie (a few grains rolled out alone do not
   count; the covered edge, rings of d covered 30%, gives the same within a grain); *summit the
   deposit's highest grain top over R0. */
static void collapse_run(double a, double* runout, double* summit) {
    const double d = COLLAPSE_D, r0 = COLLAPSE_RADIUS * d, h0 = a * r0, g = 9.81;
    gp_world_desc desc;
    gp_world* w;
    gp_granular_material sand;
    gp_collider_desc c;
    gp_collider floor_, cylinder;
    gp_fluid_stats stats;
    gp_particle_position* p;
    double* edge;
    uint32_t n, count = 0, i;
    int frame, resting = 0;
    *runout = *summit = 0.0;
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
    CHECKF(resting >= 10, "the column of a = %.1f still moves after %d frames: %.3g m/s", a, frame, stats.max_speed);
    CHECK(gp_particle_count_read(w, &count) == GP_OK);
    CHECKF(count == n && stats.nonfinite == 0, "%u of %u grains left, %u non-finite updates", count, n, stats.nonfinite);
    p = (gp_particle_position*)malloc((size_t)count * sizeof *p + 1);
    edge = (double*)malloc((size_t)count * sizeof *edge + 1);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, count, p) == GP_OK);
    for (i = 0; i < count; ++i) {
        double r = sqrt((double)p[i].x * p[i].x + (double)p[i].z * p[i].z) + p[i].radius;
        uint32_t j = i;
        *summit = fmax(*summit, (p[i].y + p[i].radius) / r0);
        while (j > 0 && edge[j - 1] > r) { edge[j] = edge[j - 1]; --j; }   /* insertion: ascending */
        edge[j] = r;
    }
    *runout = count ? (edge[(uint32_t)(0.99 * (count - 1))] - r0) / r0 : 0.0;
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    a = %.1f, %u grains, R0 = %.0f d: at rest after %d frames, runout %.3f (%.2f of Lube's %.3f), summit "
                "%.3f R0 (%.2f H0)\n", a, count, COLLAPSE_RADIUS, frame, *runout, *runout / (1.6 * sqrt(a)), 1.6 * sqrt(a), *summit,
                *summit / a);
    free(p);
    free(edge);
    gp_world_destroy(w);
}

/* Columns of a = 2 and 4 (R0 = 6 d; about 1,400 and 2,800 grains) must come to rest
   (collapse_run), every grain kept, and:
   - the runout within a factor 0.75 to 1.3 of Lube's 1.6 a^(1/2) (2.26 and 3.2). The band: the
     experiments themselves scatter by about 25% at these aspect ratios (Lube's 2.26 against
     Lajeunesse's 2.83 at a = 2), the runout depends on R0 / d as well as on a below R0 of some 30
     grains (Warnett et al. 2014, Granular Matter 16, 115-124), and one grain here is 0.17 of R0;
   - the final height as the experiments': both columns collapsed to a cone (their summits below
     0.9 H0: above a = 0.74 the top does not survive, Lajeunesse et al. 2004), and the deposit's
     height over R0 saturates as a grows (the height normalised by R0 is nearly independent of a,
     Lajeunesse et al. 2004 and Lube et al. 2004, as Mangeney-Castelnau et al. 2005, J. Geophys.
     Res. 110, F03005, reproduce): doubling H0 (a = 2 to 4) may raise it by 30% at most, where a
     deposit that kept the column's shape would double it.
   Measured with the default material (mu 0.3, the friction at which these grains, which do not
   spin, pile at sand's angle of repose): runouts 1.91 and 3.30 (0.84 and 1.03 of the law), summits
   1.03 and 1.03 R0, 30 s on llvmpipe for both; at mu 0.5 a = 2 ran out 1.04 (0.46 of the law) to a
   deposit 1.5 times as tall (bench/RESULTS.md). */
static void test_friction_column_collapse(void) {
    const double aspect[2] = {2.0, 4.0};
    double runout[2], summit[2];
    int k;
    for (k = 0; k < 2; ++k) {
        double lube = 1.6 * sqrt(aspect[k]);
        collapse_run(aspect[k], &runout[k], &summit[k]);
        CHECKF(summit[k] < 0.9 * aspect[k], "the column of a = %.0f stood: its summit %.3f R0 of H0 = %.1f R0", aspect[k], summit[k], aspect[k]);
        CHECKF(runout[k] >= 0.75 * lube && runout[k] <= 1.3 * lube, "a = %.0f: runout (R - R0) / R0 = %.3f, %.2f of Lube's "
               "1.6 a^(1/2) = %.3f (allowed 0.75 to 1.3)", aspect[k], runout[k], runout[k] / lube, lube);
    }
    CHECKF(summit[1] <= 1.3 * summit[0], "the deposit's height grew from %.3f R0 to %.3f R0 when H0 doubled: it should saturate",
           summit[0], summit[1]);
}

const gp_test_case collapse_tests[] = {
    {"friction_column_collapse", test_friction_column_collapse},
};
const int collapse_test_count = (int)(sizeof collapse_tests / sizeof collapse_tests[0]);
