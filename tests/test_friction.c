/* test_friction.c: static friction: the shear spring of Cundall and
   Strack (1979) kept per contact, capped by Coulomb, against closed forms and measured piles:
     - a box body on an incline below its friction angle stays put for 10 s; above it, it slides at
       g (sin - mu cos); the paper's viscous shear (000 eq. 12) creeps, no slower than its dashpots
       alone would let it;
     - a grain pressed against a wall and pushed along it by less than mu N does not move; by more,
       it slides at (push - mu N) / m (a plane and a container box's floor);
     - eight boxes dropped in two layers into a container come to rest and stay at rest for 5 s;
     - grains poured from a point form a heap that keeps its angle for 5 s once the pour stops, and
       the angle of repose grows with the friction coefficient.
   Every scene runs with the substeps the library picks (gp_step_desc.substeps 0) in steps of
   1/60 s, in a world of the default cell (0.1 m) and grains or body particles of its width. */
#include "fixture.h"
#include <math.h>
#include <stdio.h>

#define FRICTION_PI 3.14159265358979323846
#define FRICTION_G 9.81

static int friction_verbose(void) { return getenv("GP_TEST_VERBOSE") != NULL; }

/* Steps `seconds` in steps of 1/60 s, the substeps the library's. */
static void friction_run(gp_world* w, double seconds) {
    fixture_run(w, (int)(seconds * 60.0 + 0.5));
}

/* A plane collider through `point` with unit normal n. */
static void friction_plane(gp_world* w, const double point[3], const double n[3]) {
    gp_collider_desc c;
    gp_collider handle;
    int k;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_PLANE;
    for (k = 0; k < 3; ++k) { c.center[k] = (float)point[k]; c.normal[k] = (float)n[k]; }
    CHECK(gp_collider_add(w, &c, &handle) == GP_OK);
}

static double friction_dot(const float a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The box body of these tests: 0.4 x 0.2 x 0.4 m of particles 0.1 m wide (the default material in
   a world of the default cell, 0.1 m), so 4 x 2 x 4 = 32 particles, 16 of them on its bottom face. */
static gp_body_shape friction_box_shape(gp_world* w, gp_body_shape_info* info) {
    gp_shape_desc box;
    gp_body_shape shape;
    memset(&box, 0, sizeof box);
    box.shape = GP_SHAPE_BOX;
    box.half_extents[0] = 0.2f; box.half_extents[1] = 0.1f; box.half_extents[2] = 0.2f;
    memset(&shape, 0, sizeof shape);
    memset(info, 0, sizeof *info);
    CHECK(gp_body_shape_create(w, &box, &shape) == GP_OK && gp_body_shape_info_get(w, shape, info) == GP_OK);
    CHECK(info->particles == 32);
    return shape;
}

/* One box body of friction_box_shape resting on a plane tilted theta about z (the default
   material, mu 0.5, or the paper's viscous shear), its bottom face on the plane. Steps `settle`
   seconds, then `seconds` more; returns how far its centre of mass moved down the slope over those
   and its speed down the slope at their start and end. */
typedef struct friction_slide { double moved, v0, v1, mass, particle_mass, shear, friction; } friction_slide;
static friction_slide friction_box_on_incline(double theta, gp_shear_model model, double settle, double seconds) {
    const double n[3] = {sin(theta), cos(theta), 0.0}, down[3] = {cos(theta), -sin(theta), 0.0}, origin[3] = {0.0, 0.0, 0.0};
    gp_world* w = fixture_grid_world(256, 0.1f, 1);
    friction_slide out;
    gp_granular_material m;
    gp_body_shape_info info;
    gp_body_desc body;
    gp_body handle;
    gp_body_state a, b;
    int k;
    memset(&out, 0, sizeof out);
    if (!w) return out;
    memset(&m, 0, sizeof m);
    m.shear_model = model;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    m = gp_query_granular_material_defaults(w, &m);
    friction_plane(w, origin, n);
    memset(&body, 0, sizeof body);
    body.shape = friction_box_shape(w, &info);
    for (k = 0; k < 3; ++k) body.position[k] = (float)(0.1 * n[k]);   /* the bottom particles just touch */
    body.orientation[2] = (float)sin(-theta / 2);
    body.orientation[3] = (float)cos(-theta / 2);
    CHECK(gp_bodies_add(w, &body, 1, &handle) == GP_OK);
    friction_run(w, settle);
    CHECK(gp_bodies_read(w, &handle, 1, &a) == GP_OK);
    friction_run(w, seconds);
    CHECK(gp_bodies_read(w, &handle, 1, &b) == GP_OK);
    out.moved = friction_dot(b.center_of_mass, down) - friction_dot(a.center_of_mass, down);
    out.v0 = friction_dot(a.velocity, down);
    out.v1 = friction_dot(b.velocity, down);
    out.mass = info.mass;
    out.particle_mass = info.mass / info.particles;
    out.shear = m.shear;
    out.friction = m.friction;
    gp_world_destroy(w);
    return out;
}

/* The default friction mu (0.3). */
static double friction_default_mu(void) { return gp_query_granular_material_defaults(NULL, NULL).friction; }

/* A box on a plane at atan(0.93 mu) (15.6 degrees at the default mu 0.3) stays put: after 1 s of settling
   (placed just touching, it slips about 2 cm while its contacts load up) its centre moves less than
   0.1 mm over the next 10 s (about 7,800 substeps). The bound is 7% of the springs' own stretch
   under the load, which the box takes up once while it settles (the 16 bottom contacts share
   M g sin: each spring stretches M g sin / (16 k_s), about a millimetre at the default k_s = 2/7 k),
   so the test passes only if the springs hold still, not creep (see the verbose line). With the paper's
   viscous shear instead the same box creeps, at least at the speed at which its 16 bottom dashpots
   carry the load, v = M g sin / (16 k_t sqrt(M / m)) (k_t = the default `shear`, scaled for a
   body of 32 particles of mass m against a wall by sqrt(M / m), gp_dem.glsl; a Coulomb cap on a
   contact only lowers its resistance, so the creep is no slower): checked over 1 s after 0.5 s to
   2% below that speed (at mu 0.5 and 25 degrees measured 38% above it: the shear's torque tips
   the load onto the front rows, and the back rows slide at their caps). At atan(1.4 mu) (22.8
   degrees) the box slides with Coulomb's g (sin - mu cos), measured from its speeds at 0.5 s and
   1.5 s, within 2%. */
static void test_friction_block_on_incline(void) {
    const double below = atan(0.93 * friction_default_mu()), above = atan(1.4 * friction_default_mu());
    friction_slide hold = friction_box_on_incline(below, GP_SHEAR_DEFAULT, 1.0, 10.0);
    friction_slide creep = friction_box_on_incline(below, GP_SHEAR_VISCOUS, 0.5, 1.0);
    friction_slide slide = friction_box_on_incline(above, GP_SHEAR_DEFAULT, 0.5, 1.0);
    double v_dashpots = creep.mass * FRICTION_G * sin(below) / (16.0 * creep.shear * sqrt(creep.mass / creep.particle_mass));
    double a_slide = slide.v1 - slide.v0;
    double a_coulomb = FRICTION_G * (sin(above) - slide.friction * cos(above));
    CHECKF(fabs(hold.moved) < 1e-4, "at atan(0.93 mu) the box moved %.3g m down the slope in 10 s (bound 1e-4 m)", hold.moved);
    CHECKF(creep.moved > 0.98 * v_dashpots && creep.v0 > 0.98 * v_dashpots && creep.v1 > 0.98 * v_dashpots,
           "the viscous shear creeps at %.4f to %.4f m/s, %.4f m in 1 s; its dashpots alone carry the load at %.4f m/s", creep.v0,
           creep.v1, creep.moved, v_dashpots);
    CHECKF(fabs(a_slide / a_coulomb - 1.0) < 0.02, "at atan(1.4 mu) the box slides at %.4f m/s^2; g (sin - mu cos) = %.4f", a_slide,
           a_coulomb);
    if (friction_verbose())
        fprintf(stderr, "    incline: at atan(0.93 mu) moved %.3g m in 10 s; viscous creep %.4f..%.4f m/s, %.4f m in 1 s (M g sin / 16 k_t = %.4f); "
                "at atan(1.4 mu) %.4f m/s^2 (g (sin - mu cos) = %.4f)\n", hold.moved, creep.v0, creep.v1, creep.moved, v_dashpots, a_slide,
                a_coulomb);
}

/* One grain of the default material (0.1 m, mu 0.5) touching a wall: the plane through the origin
   with normal n, or with `box` the floor of a container box 2 m wide (a box face: its own kept
   spring). Gravity g and the user's uniform acceleration `push` (gp_forces_set) act on it. Steps
   `settle` seconds, then `seconds` more; returns how far it moved along `along` over those and its
   speeds along it at their start and end. */
static friction_slide friction_grain_on_wall(const double n[3], int box, const float g[3], const float push[3], const double along[3],
                                             double settle, double seconds) {
    const double origin[3] = {0.0, 0.0, 0.0};
    gp_world* w = fixture_grid_world(16, 0.1f, 1);
    friction_slide out;
    gp_particles_desc d;
    gp_force force;
    gp_particle_position a, b;
    gp_particle_velocity va, vb;
    float xyz[3];
    int k;
    memset(&out, 0, sizeof out);
    if (!w) return out;
    if (box) {   /* the box [-1, 1] x [0, 2] x [-1, 1]: the grain on its floor, at x = -0.8 */
        gp_collider_desc c;
        gp_collider handle;
        memset(&c, 0, sizeof c);
        c.shape = GP_SHAPE_BOX;
        c.center[1] = 1.0f;
        c.half_extents[0] = c.half_extents[1] = c.half_extents[2] = 1.0f;
        c.inside = true;
        CHECK(gp_collider_add(w, &c, &handle) == GP_OK);
        xyz[0] = -0.8f; xyz[1] = 0.05f; xyz[2] = 0.0f;
    } else {
        friction_plane(w, origin, n);
        for (k = 0; k < 3; ++k) xyz[k] = (float)(0.05 * n[k]);
    }
    CHECK(gp_gravity_set(w, g) == GP_OK);
    memset(&force, 0, sizeof force);
    force.type = GP_FORCE_UNIFORM;
    memcpy(force.vector, push, sizeof force.vector);
    CHECK(gp_forces_set(w, &force, 1) == GP_OK);
    memset(&d, 0, sizeof d);
    d.count = 1;
    d.positions = xyz;
    d.kind = GP_KIND_GRANULAR;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    friction_run(w, settle);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &a) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &va) == GP_OK);
    friction_run(w, seconds);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &b) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &vb) == GP_OK);
    out.moved = (b.x - a.x) * along[0] + (b.y - a.y) * along[1] + (b.z - a.z) * along[2];
    out.v0 = va.x * along[0] + va.y * along[1] + va.z * along[2];
    out.v1 = vb.x * along[0] + vb.y * along[1] + vb.z * along[2];
    gp_world_destroy(w);
    return out;
}

/* A grain pressed against a wall and pushed along it, Coulomb's law for one contact: held while
   the push is below mu N, sliding at (push - mu N) / m above it (grains do not spin here, so
   they cannot roll). Two walls: a vertical plane, the grain pressed onto it by the user's
   force (N = m a_n) and pushed down along it by gravity; and a container box's floor, the grain
   pressed by gravity (N = m g) and pushed sideways by the user's force. The pushes are 0.8 mu N
   (held) and 1.25 mu N (slides at 0.25 mu N / m, 0.74 m/s^2 on the floor at the default mu 0.3).
   Held: after 0.5 s of settling (the spring stretches by push / k_s, and the shear
   dashpot damps the grain's tangential oscillation, damping ratio 0.29), it moves less than 1e-5 m in 2 s (measured: see the verbose
   line), against 0.74 m/s^2 x (2 s)^2 / 2 = 1.5 m were it to slide at the other push. Sliding:
   its acceleration from its speeds at 0.2 s and 0.7 s within 2% of Coulomb's. */
static void test_friction_grain_against_wall(void) {
    const double mu = friction_default_mu(), g = FRICTION_G, wall[3] = {1.0, 0.0, 0.0}, ground[3] = {0.0, 1.0, 0.0};
    const double down[3] = {0.0, -1.0, 0.0}, sideways[3] = {1.0, 0.0, 0.0};
    const float gravity[3] = {0.0f, (float)-g, 0.0f};
    int held;
    for (held = 1; held >= 0; --held) {
        /* the push over mu N; sliding, the acceleration: on the wall the push is g and mu N = g / ratio,
           on the floor mu N = mu g and the push ratio mu g */
        double ratio = held ? 0.8 : 1.25, a_wall = g * (1.0 - 1.0 / ratio), a_floor = (ratio - 1.0) * mu * g;
        const float press[3] = {(float)(-g / (ratio * mu)), 0.0f, 0.0f}, push[3] = {(float)(ratio * mu * g), 0.0f, 0.0f};
        friction_slide on_wall = friction_grain_on_wall(wall, 0, gravity, press, down, held ? 0.5 : 0.2, held ? 2.0 : 0.5);
        friction_slide on_floor = friction_grain_on_wall(ground, 1, gravity, push, sideways, held ? 0.5 : 0.2, held ? 2.0 : 0.5);
        double slide_wall = (on_wall.v1 - on_wall.v0) / 0.5, slide_floor = (on_floor.v1 - on_floor.v0) / 0.5;
        if (held) {
            CHECKF(fabs(on_wall.moved) < 1e-5, "pressed against a wall and pushed along it by 0.8 mu N, the grain moved %.3g m in 2 s", on_wall.moved);
            CHECKF(fabs(on_floor.moved) < 1e-5, "on a box's floor and pushed sideways by 0.8 mu N, the grain moved %.3g m in 2 s", on_floor.moved);
        } else {
            CHECKF(fabs(slide_wall / a_wall - 1.0) < 0.02, "pushed along the wall by 1.25 mu N, the grain slides at %.4f m/s^2; Coulomb: "
                   "%.4f", slide_wall, a_wall);
            CHECKF(fabs(slide_floor / a_floor - 1.0) < 0.02, "pushed along the floor by 1.25 mu N, the grain slides at %.4f m/s^2; "
                   "Coulomb: %.4f", slide_floor, a_floor);
        }
        if (friction_verbose()) {
            if (held) fprintf(stderr, "    held at 0.8 mu N: moved %.3g m on the wall, %.3g m on the floor in 2 s\n", on_wall.moved, on_floor.moved);
            else fprintf(stderr, "    pushed at 1.25 mu N: %.4f m/s^2 on the wall (Coulomb %.4f), %.4f on the floor (Coulomb %.4f)\n", slide_wall,
                         a_wall, slide_floor, a_floor);
        }
    }
}

/* xorshift64* in [0, 1): the same pile on every run. */
static double friction_random(uint64_t* state) { return (double)(fixture_random(state) >> 11) / 9007199254740992.0; }

/* The 32 particle centres of a box body of friction_box_shape placed by desc: the lattice points
   (+-0.05, +-0.15) x (+-0.05) x (+-0.05, +-0.15) m, turned by its quaternion, about its position. */
static void friction_box_particles(const gp_body_desc* desc, double out[32][3]) {
    const float* q = desc->orientation;
    int i, j, k, n = 0;
    for (i = 0; i < 4; ++i)
        for (j = 0; j < 2; ++j)
            for (k = 0; k < 4; ++k, ++n) {
                double v[3] = {0.1 * i - 0.15, 0.1 * j - 0.05, 0.1 * k - 0.15}, t[3], r[3];
                /* r = v + 2 q.xyz x (q.xyz x v + w v) */
                t[0] = q[1] * v[2] - q[2] * v[1] + q[3] * v[0];
                t[1] = q[2] * v[0] - q[0] * v[2] + q[3] * v[1];
                t[2] = q[0] * v[1] - q[1] * v[0] + q[3] * v[2];
                r[0] = v[0] + 2.0 * (q[1] * t[2] - q[2] * t[1]);
                r[1] = v[1] + 2.0 * (q[2] * t[0] - q[0] * t[2]);
                r[2] = v[2] + 2.0 * (q[0] * t[1] - q[1] * t[0]);
                out[n][0] = desc->position[0] + r[0]; out[n][1] = desc->position[1] + r[1]; out[n][2] = desc->position[2] + r[2];
            }
}

/* Whether body i's particles touch an earlier body's, or the container's walls (|x|, |z| within
   half_width, above the floor y = 0). */
static int friction_box_clashes(double at[8][32][3], int i, double half_width) {
    int j, a, b;
    for (a = 0; a < 32; ++a)
        if (fabs(at[i][a][0]) > half_width - 0.05 || fabs(at[i][a][2]) > half_width - 0.05 || at[i][a][1] < 0.05) return 1;
    for (j = 0; j < i; ++j)
        for (a = 0; a < 32; ++a)
            for (b = 0; b < 32; ++b) {
                double dx = at[i][a][0] - at[j][b][0], dy = at[i][a][1] - at[j][b][1], dz = at[i][a][2] - at[j][b][2];
                if (dx * dx + dy * dy + dz * dz < 0.1 * 0.1) return 1;
            }
    return 0;
}

/* Eight boxes of friction_box_shape (0.4 x 0.2 x 0.4 m, 32 particles each) dropped in two layers
   of four, each turned at random (Shoemake's uniform rotations, redrawn until it overlaps nothing),
   into a container box 1.2 m wide (a collider with inside = true): the first layer's centres 0.35 m
   above its floor, the second's 0.95 m, so that they land on each other askew. From 6 s to 11 s
   after the drop, read every frame (300 times), no body's centre of mass moves faster than 1 mm/s
   and none turns faster than 0.01 rad/s (a box's corner, 0.3 m from its centre, then moves under
   3 mm/s), and none has left the container. Measured: under 1 mm/s from 4.5 s, at most 0.34 mm/s and
   0.0015 rad/s in the window, under 0.06 mm/s from 7.5 s. The paper's viscous shear in the same
   scene creeps at 1.6 to 4 cm/s from 2.5 s to 8 s, until a box slides off another (0.28 m/s at
   8.5 s).
   The default material. Its dashpots give two grains a restitution of 0.5; a rigid particle's
   contact scales them by sqrt(M / m) (gp_dem.glsl, gp_body_damping: the bodies' reduced mass over
   the particles'), so that a contact damps a body as it damps a grain. Without that a box rocking
   on its 8-particle side on the contacts' springs (which, static, no longer slide) had a damping
   ratio of about 0.02 (normal dashpots sum(eta z^2) over 2 sqrt(k_theta I)), and a pile of them
   still moved at 1 to 3 cm/s 10 s after the drop. */
static void test_friction_pile_of_bodies_rests(void) {
    gp_world* w = fixture_grid_world(512, 0.1f, 1);
    gp_granular_material m;
    gp_collider_desc c;
    gp_collider container;
    gp_body_shape_info info;
    gp_body_shape shape;
    gp_body_desc bodies[8];
    gp_body_state states[8];
    double at[8][32][3];
    uint64_t seed = 12345;
    double worst_v = 0.0, worst_w = 0.0, worst_v_at = 0.0, worst_w_at = 0.0;
    int i, k, frame, outside = 0, logs = fixture_log_count;
    if (!w) return;
    memset(&m, 0, sizeof m);
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_BOX;
    c.center[1] = 1.0f;
    c.half_extents[0] = 0.6f; c.half_extents[1] = 1.0f; c.half_extents[2] = 0.6f;
    c.inside = true;
    CHECK(gp_collider_add(w, &c, &container) == GP_OK);
    shape = friction_box_shape(w, &info);
    for (i = 0; i < 8; ++i) {
        int tries;
        memset(&bodies[i], 0, sizeof bodies[i]);
        bodies[i].shape = shape;
        bodies[i].position[0] = (i & 1) ? 0.3f : -0.3f;
        bodies[i].position[1] = i < 4 ? 0.35f : 0.95f;
        bodies[i].position[2] = (i & 2) ? 0.3f : -0.3f;
        for (tries = 0; tries < 1000; ++tries) {
            double u = friction_random(&seed), a = 2.0 * FRICTION_PI * friction_random(&seed), b = 2.0 * FRICTION_PI * friction_random(&seed);
            bodies[i].orientation[0] = (float)(sqrt(1.0 - u) * sin(a));
            bodies[i].orientation[1] = (float)(sqrt(1.0 - u) * cos(a));
            bodies[i].orientation[2] = (float)(sqrt(u) * sin(b));
            bodies[i].orientation[3] = (float)(sqrt(u) * cos(b));
            friction_box_particles(&bodies[i], at[i]);
            if (!friction_box_clashes(at, i, c.half_extents[0])) break;
        }
        CHECK(tries < 1000);
    }
    CHECK(gp_bodies_add(w, bodies, 8, NULL) == GP_OK);
    for (frame = 1; frame <= 660; ++frame) {
        fixture_run(w, 1);
        if (frame <= 360) continue;
        CHECK(gp_bodies_read(w, NULL, 8, states) == GP_OK);
        for (i = 0; i < 8; ++i) {
            double v = 0.0, spin = 0.0;
            for (k = 0; k < 3; ++k) {
                v += (double)states[i].velocity[k] * states[i].velocity[k];
                spin += (double)states[i].angular_velocity[k] * states[i].angular_velocity[k];
                outside |= fabs(states[i].center_of_mass[k] - c.center[k]) > c.half_extents[k];
            }
            if (sqrt(v) > worst_v) { worst_v = sqrt(v); worst_v_at = frame / 60.0; }
            if (sqrt(spin) > worst_w) { worst_w = sqrt(spin); worst_w_at = frame / 60.0; }
        }
    }
    CHECKF(worst_v < 1e-3, "a body moved at %.3g m/s at %.2f s (bound 1 mm/s from 6 s to 11 s)", worst_v, worst_v_at);
    CHECKF(worst_w < 1e-2, "a body turned at %.3g rad/s at %.2f s (bound 0.01 rad/s from 6 s to 11 s)", worst_w, worst_w_at);
    CHECKF(!outside, "a body left the container");
    CHECKF(fixture_log_count == logs, "the library warned: %s", fixture_log);   /* e.g. a contact found no slot to keep its spring */
    if (friction_verbose())
        fprintf(stderr, "    pile: from 6 s to 11 s the fastest body %.3g m/s (at %.2f s), the fastest turn %.3g rad/s (at %.2f s)\n", worst_v,
                worst_v_at, worst_w, worst_w_at);
    gp_world_destroy(w);
}

/* ---- heaps ---------------------------------------------------------------------------------- */

#define HEAP_D 0.1          /* m: the default material's diameter in a world of the default cell */
#define HEAP_RINGS 64

/* The heap's angle (degrees) about the vertical axis through the origin, two ways, from the grains
   slower than 1 m/s (not those still falling or bouncing):
   - its silhouette: the surface is the highest grain top in rings one diameter wide; the foot is
     the outermost ring whose surface is two diameters high or more; the slope is the least-squares line through the rings from a third of the way out (past
     the stream's footprint) to the foot (*silhouette; 0 when there is no heap). One grain standing
     proud near the axis moves it by several degrees (it did at mu 0.35: 43 degrees where the
     surface below gives 34);
   - its surface (returned): the grains no other grain covers (none higher within half their two
     radii, horizontally), the least-squares slope of their tops against their distance from the
     axis, over those whose top lies between 20% and 80% of the heap's height (the summit under the
     stream and the toe left out): a fit through some 150-550 grains, not 5 or 6 rings, which five
     heaps of one material poured from different random jitters gave within +-2 degrees (mu 0.5:
     42.9 to 46.6; the silhouette 48.7 to 52.5).
   height receives the highest top. */
static double friction_heap_angle(const gp_particle_position* p, const gp_particle_velocity* v, uint32_t n, double* height, double* silhouette) {
    double surface[HEAP_RINGS] = {0.0}, sr = 0.0, sh = 0.0, srr = 0.0, srh = 0.0;
    int foot = 0, k, used = 0;
    uint32_t i, j;
    for (i = 0; i < n; ++i) {
        double top = p[i].y + p[i].radius, speed2 = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
        int ring = (int)(sqrt((double)p[i].x * p[i].x + (double)p[i].z * p[i].z) / HEAP_D);
        if (ring < HEAP_RINGS && speed2 < 1.0 && top > surface[ring]) surface[ring] = top;
    }
    *height = 0.0;
    for (k = 0; k < HEAP_RINGS; ++k) {
        if (surface[k] >= 2.0 * HEAP_D) foot = k + 1;
        *height = surface[k] > *height ? surface[k] : *height;
    }
    for (k = foot / 3; k < foot; ++k, ++used) {
        double r = (k + 0.5) * HEAP_D;
        sr += r; sh += surface[k]; srr += r * r; srh += r * surface[k];
    }
    *silhouette = used < 3 ? 0.0 : 180.0 / FRICTION_PI * atan(-(used * srh - sr * sh) / (used * srr - sr * sr));
    sr = sh = srr = srh = 0.0;
    used = 0;
    for (i = 0; i < n; ++i) {
        double top = p[i].y + p[i].radius, r = sqrt((double)p[i].x * p[i].x + (double)p[i].z * p[i].z);
        int covered = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z >= 1.0f || top < 0.2 * *height || top > 0.8 * *height;
        for (j = 0; j < n && !covered; ++j) {
            double dx = p[j].x - p[i].x, dz = p[j].z - p[i].z, reach = 0.5 * (p[i].radius + p[j].radius);
            covered = p[j].y > p[i].y && dx * dx + dz * dz < reach * reach && v[j].x * v[j].x + v[j].y * v[j].y + v[j].z * v[j].z < 1.0f;
        }
        if (covered) continue;
        ++used;
        sr += r; sh += top; srr += r * r; srh += r * top;
    }
    if (used < 3) return 0.0;
    return 180.0 / FRICTION_PI * atan(-(used * srh - sr * sh) / (used * srr - sr * sr));
}

/* Pours `grains` grains of the default material but for its friction mu (0: the default, 0.5)
   onto a plane floor from 2.5 diameters above the heap's top on its axis (read back each time):
   point = 0, a stream as sand_pile.c's, every third frame a 3 x 3 layer of grains (the lattice of
   1.2 diameters, jittered by up to 0.15 of one) leaving downwards at 2.2 m/s; point = 1, from a
   point as sand from a funnel, one grain every second frame (jittered alike) leaving at 3.3 m/s,
   1.1 diameters behind the one before. Each grain is left out that would touch one already there
   (a grain bounced into the stream, or the last layer slowed on the heap). The grains' diameters are drawn uniformly from 0.9 to 1.0 of the material's
   (0.1 m), their masses from its density, so that the heap does not order into a lattice. Then
   steps on; angles[k] and silhouettes[k] receive the heap's angles (friction_heap_angle) 1 + k / 2 s
   after the last grain left the nozzle, for k < samples. Returns the seconds the pour took; speed receives the
   fastest grain at the end. rolling > 0: round grains instead, one-particle ball bodies of the
   material's diameter (they spin and roll), with that rolling friction. */
static double friction_heap(float mu, float rolling, uint32_t grains, int point, int samples, double* angles, double* silhouettes,
                            double* height, double* speed) {
    const double origin[3] = {0.0, 0.0, 0.0}, up[3] = {0.0, 1.0, 0.0};
    gp_world* w = fixture_grid_world(grains + 64, (float)HEAP_D, 1);   /* deterministic: the same heap on every run */
    gp_granular_material m;
    gp_particle_position* p = (gp_particle_position*)malloc((grains + 64) * sizeof *p);
    gp_particle_velocity* v = (gp_particle_velocity*)malloc((grains + 64) * sizeof *v);
    uint64_t seed = 99;
    uint32_t poured = 0, n = 0, i;
    int frame = 0, stopped = -1, k, logs = fixture_log_count;
    if (!w || !p || !v) return 0.0;
    gp_body_shape ball;
    memset(&m, 0, sizeof m);
    m.friction = mu;
    m.rolling_friction = rolling;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    m = gp_query_granular_material_defaults(w, &m);
    friction_plane(w, origin, up);
    memset(&ball, 0, sizeof ball);
    if (rolling > 0.0f) {
        gp_shape_desc d;
        memset(&d, 0, sizeof d);
        d.shape = GP_SHAPE_SPHERE;
        d.radius = (float)(0.5 * HEAP_D);
        CHECK(gp_body_shape_create(w, &d, &ball) == GP_OK);
    }
    for (;;) {
        const int every = point ? 2 : 3;          /* frames between layers */
        const double leave = point ? 3.3 : 2.2;   /* m/s: the layers 1.1 diameters apart in the stream */
        if (poured < grains && frame % every == 0) {
            float xyz[27], radii[9], masses[9], velocities[27];
            gp_particles_desc d;
            double top = 0.0, nozzle;
            uint32_t layer = 0;
            n = gp_particle_count(w);
            if (n) CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
            for (i = 0; i < n; ++i)   /* the heap's top on the axis: resting grains within two diameters of it */
                if ((double)p[i].x * p[i].x + (double)p[i].z * p[i].z < 4.0 * HEAP_D * HEAP_D &&
                    v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z < 0.25f && p[i].y + p[i].radius > top)
                    top = p[i].y + p[i].radius;
            nozzle = top + 2.5 * HEAP_D;
            for (k = point ? 4 : 0; k < (point ? 5 : 9) && poured + layer < grains; ++k) {
                double x = ((k % 3) - 1) * 1.2 * HEAP_D + 0.15 * HEAP_D * (2.0 * friction_random(&seed) - 1.0);
                double z = ((k / 3) - 1) * 1.2 * HEAP_D + 0.15 * HEAP_D * (2.0 * friction_random(&seed) - 1.0);
                double r = 0.5 * HEAP_D * (0.9 + 0.1 * friction_random(&seed));
                int clash = 0;
                for (i = 0; i < n && !clash; ++i) {
                    double dx = p[i].x - x, dy = p[i].y - nozzle, dz = p[i].z - z, reach = p[i].radius + r + 0.002;
                    clash = dx * dx + dy * dy + dz * dz < reach * reach;
                }
                if (clash) continue;
                xyz[3 * layer] = (float)x; xyz[3 * layer + 1] = (float)nozzle; xyz[3 * layer + 2] = (float)z;
                velocities[3 * layer] = 0.0f; velocities[3 * layer + 1] = (float)-leave; velocities[3 * layer + 2] = 0.0f;
                radii[layer] = (float)r;
                masses[layer] = (float)(m.density * 4.0 / 3.0 * FRICTION_PI * r * r * r);
                ++layer;
            }
            if (layer && rolling > 0.0f) {   /* round grains: balls of the material's diameter */
                gp_body_desc b[9];
                memset(b, 0, sizeof b);
                for (k = 0; k < (int)layer; ++k) {
                    b[k].shape = ball;
                    memcpy(b[k].position, xyz + 3 * k, sizeof b[k].position);
                    memcpy(b[k].velocity, velocities + 3 * k, sizeof b[k].velocity);
                }
                CHECK(gp_bodies_add(w, b, layer, NULL) == GP_OK);
            } else if (layer) {
                memset(&d, 0, sizeof d);
                d.count = layer; d.positions = xyz; d.velocities = velocities; d.radii = radii; d.masses = masses;
                d.kind = GP_KIND_GRANULAR;
                CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
            }
            if (layer) {
                poured += layer;
                if (poured == grains) stopped = frame;
            }
        }
        fixture_run(w, 1);
        ++frame;
        if (stopped >= 0 && frame - stopped >= 60 && (frame - stopped) % 30 == 0) {
            k = (frame - stopped) / 30 - 2;
            n = gp_particle_count(w);
            CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
            angles[k] = friction_heap_angle(p, v, n, height, &silhouettes[k]);
            if (k == samples - 1) break;
        }
        if (frame > 60 * 60) { CHECKF(0, "the pour of %u grains did not end in 60 s (%u poured)", grains, poured); break; }
    }
    *speed = 0.0;
    for (i = 0; i < n; ++i) {
        double s2 = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
        *speed = s2 > *speed * *speed ? sqrt(s2) : *speed;
    }
    CHECKF(n == grains, "%u grains in the store after pouring %u", n, grains);
    CHECKF(fixture_log_count == logs, "the library warned: %s", fixture_log);   /* e.g. a contact found no slot to keep its spring */
    free(p);
    free(v);
    gp_world_destroy(w);
    return stopped / 60.0;
}

/* The default sand's angle of repose, poured from a point: 800 grains
   of the zero-initialised material (mu 0.3) poured one at a time (friction_heap, point = 1; the
   fixed-funnel method of measuring a powder's angle of repose, ISO 4324 and ASTM C1444) stand at
   sand's 30-35 degrees (dry sand's angle of repose is 30-35 degrees; e.g. Al-Hashemi and
   Al-Amoudi 2018, Powder Technology 330, 397-417, a review of measured angles), their surface's
   slope (friction_heap_angle) measured 1 s after the pour stops (the grains in the air then have
   landed and the last small avalanche they start has stopped); and the heap keeps that angle
   within 2 degrees every 0.5 s for 5 s more. Measured on llvmpipe: 31.9 degrees (32.4 from another
   jitter), steady to 0.1 degree; the pour takes 44 s of simulated time. With the paper's viscous
   shear (000 eq. 12) a poured heap, 27-32 degrees while poured, flattens to two or three grains'
   height within 4 s of the pour's end (measured). Grains here cannot roll (no spin), so they act
   as rougher grains than sand's: at mu 0.5 such heaps stand at 42-52 degrees. A wide stream
   flattens a small heap's top (800 grains poured as the 3 x 3 stream stand at 27 degrees, 2,000
   at 34: bench/RESULTS.md). */
static void test_friction_heap_of_default_sand(void) {
    double angles[11], silhouettes[11], height = 0.0, speed = 0.0, worst = 0.0, took;
    int k;
    took = friction_heap(0.0f, 0.0f, 800, 1, 11, angles, silhouettes, &height, &speed);
    for (k = 1; k < 11; ++k) worst = fabs(angles[k] - angles[0]) > worst ? fabs(angles[k] - angles[0]) : worst;
    CHECKF(angles[0] >= 30.0 && angles[0] <= 35.0, "800 grains of the default material poured from a point stand at %.2f degrees",
           angles[0]);
    CHECKF(worst <= 2.0, "the heap's angle moved by %.2f degrees from 1 s to 6 s after the pour (%.2f to %.2f)", worst, angles[0], angles[10]);
    if (friction_verbose()) {
        fprintf(stderr, "    heap (default material, 800 grains from a point, poured in %.2f s), 1 s to 6 s after the pour: surface", took);
        for (k = 0; k < 11; ++k) fprintf(stderr, " %.2f", angles[k]);
        fprintf(stderr, " degrees (moved at most %.2f); silhouette", worst);
        for (k = 0; k < 11; ++k) fprintf(stderr, " %.2f", silhouettes[k]);
        fprintf(stderr, "; %.2f m high; fastest grain %.3g m/s at the end\n", height, speed);
    }
}

/* The angle of repose grows with the friction coefficient: heaps of 400 grains
   poured alike (the 3 x 3 stream, friction_heap, point = 0) at mu 0.2, 0.3 and 0.5, measured 1 s
   after each pour stops, stand at angles that grow with mu, by more than 3 degrees a step (the
   spread over different pours of one material is +-2 degrees; in heaps of 800 measured 12-14, 28
   and 42-47 degrees, and 32-34, 39 at mu 0.35, 0.4; the heaps here are poured in deterministic
   order, so the same on every run: 9, 27 and 39 degrees on llvmpipe). Grains that cannot roll hold
   slopes about as steep as atan(mu) (11, 17, 27 degrees here) and steeper, by geometric
   interlocking; for spheres that roll, too, the angle of repose grows with sliding friction and
   levels off (Zhou, Xu, Yu and Zulli 2002, Powder Technology 125, 45-54). */
static void test_friction_repose_grows_with_mu(void) {
    const float mu[3] = {0.2f, 0.3f, 0.5f};
    double angle[3], unused[1], ignored;
    int k;
    for (k = 0; k < 3; ++k) friction_heap(mu[k], 0.0f, 400, 0, 1, &angle[k], unused, &ignored, &ignored);
    CHECKF(angle[1] > angle[0] + 3.0 && angle[2] > angle[1] + 3.0, "heaps at mu 0.2, 0.3, 0.5 stand at %.2f, %.2f, %.2f degrees",
           angle[0], angle[1], angle[2]);
    if (friction_verbose()) fprintf(stderr, "    repose: mu 0.2, 0.3, 0.5: %.2f, %.2f, %.2f degrees\n", angle[0], angle[1], angle[2]);
}

/* Round grains (one-particle ball bodies, which spin and roll, so only rolling friction heaps
   them): 300 of them poured as the heaps above spread into a single layer without rolling friction
   (they roll off one another: the highest stands under 1.5 diameters) and, with rolling_friction
   0.3, stand as a heap at least three diameters high (measured: one layer, and 0.33 m at about 11
   degrees). */
static void test_friction_round_grains_heap(void) {
    double angle, silhouette, rolling_height = 0.0, free_height = 0.0, speed;
    friction_heap(0.0f, 0.3f, 300, 0, 1, &angle, &silhouette, &rolling_height, &speed);
    CHECKF(rolling_height >= 3.0 * HEAP_D, "300 balls with rolling friction 0.3 stand only %.3f m high", rolling_height);
    friction_heap(0.0f, 1e-30f, 300, 0, 1, &angle, &silhouette, &free_height, &speed);   /* round, no rolling friction to speak of */
    CHECKF(free_height < 1.5 * HEAP_D, "300 balls without rolling friction stand %.3f m high: they should roll apart", free_height);
    if (friction_verbose())
        fprintf(stderr, "    round grains: 300 balls stand %.3f m high with rolling friction 0.3, %.3f m without\n", rolling_height,
                free_height);
}

const gp_test_case friction_tests[] = {
    {"friction_block_on_incline", test_friction_block_on_incline},
    {"friction_grain_against_wall", test_friction_grain_against_wall},
    {"friction_pile_of_bodies_rests", test_friction_pile_of_bodies_rests},
    {"friction_heap_of_default_sand", test_friction_heap_of_default_sand},
    {"friction_repose_grows_with_mu", test_friction_repose_grows_with_mu},
    {"friction_round_grains_heap", test_friction_round_grains_heap},
};
const int friction_test_count = (int)(sizeof friction_tests / sizeof friction_tests[0]);
