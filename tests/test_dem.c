/* test_dem.c: granular matter and rigid bodies (000) on the GPU:
     - a head-on collision of two grains gives the linear spring-dashpot's restitution and contact
       duration (closed form from k, eta and the masses);
     - a free body spinning about a non-principal axis keeps its angular momentum and energy;
     - a body resting on the floor stays at rest over 10,000 substeps;
     - a one-particle ball rolls down an incline at 5/7 g sin(theta);
     - total momentum is conserved among grains and bodies in a closed box without gravity;
     - bad input is refused, whole, with a message; nothing is lost. */
#include "gp_test.h"
#include "fixture.h"
#include "gpuparticle.h"
#include "../examples/shapes.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void dem_no_gravity(gp_world* w) {
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    CHECK(gp_gravity_set(w, zero) == GP_OK);
}

/* Advances by one substep of h. */
static void dem_substep(gp_world* w, float h) {
    gp_step_desc step;
    memset(&step, 0, sizeof step);
    step.dt = h;
    step.substeps = 1;
    CHECK(gp_world_step(w, &step) == GP_OK);
}

/* The linear spring-dashpot between masses m1 and m2: restitution and contact duration. */
static void dem_analytic(double k, double eta, double m1, double m2, double* restitution, double* duration) {
    double meff = m1 * m2 / (m1 + m2), w0 = sqrt(k / meff), g = eta / (2.0 * meff), w = sqrt(w0 * w0 - g * g);
    *duration = 3.14159265358979323846 / w;
    *restitution = exp(-g * *duration);
}

/* Reads both particles of a two-grain world in id order. */
static void dem_read_pair(gp_world* w, gp_particle_position p[2], gp_particle_velocity v[2]) {
    gp_particle_info info[2];
    gp_particle_position pp[2];
    gp_particle_velocity vv[2];
    int k;
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 2, pp) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 2, vv) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, 2, info) == GP_OK);
    for (k = 0; k < 2; ++k) { p[info[k].id & 1u] = pp[k]; v[info[k].id & 1u] = vv[k]; }
}

/* Two grains of different masses (densities 2500 and 7800 kg/m^3, one k and eta) meet head-on
   at 0.6 m/s; substeps of t_c / 400. Restitution (relative speed after over before) and contact
   duration (substeps with overlap, times the substep) within 2% of the closed form. */
static void test_dem_head_on_collision(void) {
    gp_world* w = fixture_grid_world(16, 0.05f, 1);
    gp_granular_material a, b;
    gp_particles_desc d;
    gp_particle_position p[2];
    gp_particle_velocity v[2];
    float xyz[6] = {-0.03f, 0.0f, 0.0f, 0.03f, 0.0f, 0.0f}, vel[6] = {0.3f, 0.0f, 0.0f, -0.3f, 0.0f, 0.0f};
    double e, tc, h, before, after, touching = 0.0;
    int s;
    if (!w) return;
    dem_no_gravity(w);
    memset(&a, 0, sizeof a);
    a.diameter = 0.04f;
    a.stiffness = 50.0f;   /* damping 0: the default, restitution 0.5 between two grains of a */
    CHECK(gp_granular_material_set(w, 0, &a) == GP_OK && gp_granular_material_get(w, 0, &a) == GP_OK);
    b = a;
    b.density = 7800.0f;
    b.mass = 0.0f;
    CHECK(gp_granular_material_set(w, 1, &b) == GP_OK && gp_granular_material_get(w, 1, &b) == GP_OK);
    dem_analytic(a.stiffness, a.damping, a.mass, b.mass, &e, &tc);
    memset(&d, 0, sizeof d);
    d.count = 1; d.kind = GP_KIND_GRANULAR; d.radius = 0.02f;
    d.positions = xyz; d.velocities = vel; d.mass = a.mass; d.phase = 0;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    d.positions = xyz + 3; d.velocities = vel + 3; d.mass = b.mass; d.phase = 1;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    h = tc / 400.0;
    before = 0.6;
    for (s = 0; s < 4000; ++s) {
        dem_substep(w, (float)h);
        dem_read_pair(w, p, v);
        if (p[1].x - p[0].x < 0.04f) touching += h;
        else if (touching > 0.0) break;
    }
    after = v[1].x - v[0].x;
    CHECKF(fabs(after / before / e - 1.0) < 0.02, "restitution %.5f, the closed form %.5f (k %g N/m, eta %g N s/m, masses %g, %g kg)",
           after / before, e, a.stiffness, a.damping, a.mass, b.mass);
    CHECKF(fabs(touching / tc - 1.0) < 0.02, "contact lasted %.6f s, the closed form %.6f s", touching, tc);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    head-on: restitution %.5f (closed form %.5f), duration %.6f s (%.6f)\n", after / before, e, touching, tc);
    gp_world_destroy(w);
}

/* The first body's state after gp_bodies_read, and its kinetic energy 1/2 (M V^2 + W . L). */
static gp_body_state dem_body(gp_world* w) {
    gp_body_state st;
    memset(&st, 0, sizeof st);
    CHECK(gp_bodies_read(w, NULL, 1, &st) == GP_OK);
    return st;
}
static double dem_energy(const gp_body_state* st, double mass) {
    double e = 0.0;
    int a;
    for (a = 0; a < 3; ++a) e += 0.5 * (mass * st->velocity[a] * st->velocity[a] + st->angular_velocity[a] * st->angular_momentum[a]);
    return e;
}

/* A box body of 6 x 4 x 2 particles, no gravity, no walls, spinning at 3 rad/s about an axis
   that is not principal ((1, 2, 3) normalised) while it drifts: over 2,000 substeps of 1 ms its
   angular momentum stays what it was to float rounding (no torque acts: the sums add zeros), and
   its kinetic energy within 1e-5 (the split free rotation; measured 2e-6; the explicit update of
   000 eqs. 6-8 drifted 0.0x%),
   its centre moves at its velocity, its orientation stays a unit quaternion. */
static void test_dem_free_spin(void) {
    gp_world* w = fixture_grid_world(256, 0.05f, 1);
    gp_shape_desc shape;
    gp_body_shape handle;
    gp_body_shape_info info;
    gp_body_desc body;
    gp_body_state start, end;
    double e0, e1, drift = 0.0, norm = 0.0, dl = 0.0, l0 = 0.0, axis = sqrt(14.0);
    int s, a;
    if (!w) return;
    dem_no_gravity(w);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.half_extents[0] = 0.15f; shape.half_extents[1] = 0.1f; shape.half_extents[2] = 0.05f;   /* diameter 0.05 */
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_OK && gp_body_shape_info_get(w, handle, &info) == GP_OK);
    CHECKF(info.particles == 48, "a 0.3 x 0.2 x 0.1 m box of 0.05 m voxels holds %u particles, not 48", info.particles);
    memset(&body, 0, sizeof body);
    body.shape = handle;
    body.position[1] = 1.0f;
    body.velocity[0] = 0.2f;
    body.angular_velocity[0] = (float)(3.0 / axis); body.angular_velocity[1] = (float)(6.0 / axis); body.angular_velocity[2] = (float)(9.0 / axis);
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK && gp_particle_count(w) == 48);
    start = dem_body(w);
    e0 = dem_energy(&start, info.mass);
    for (s = 0; s < 2000; ++s) dem_substep(w, 0.001f);
    end = dem_body(w);
    e1 = dem_energy(&end, info.mass);
    for (a = 0; a < 3; ++a) {
        dl += fabs((double)end.angular_momentum[a] - start.angular_momentum[a]);
        l0 += fabs((double)start.angular_momentum[a]);
        drift += fabs(end.center_of_mass[a] - (start.center_of_mass[a] + 2.0 * start.velocity[a]));
    }
    for (a = 0; a < 4; ++a) norm += (double)end.orientation[a] * end.orientation[a];
    CHECKF(dl <= 1e-6 * l0, "angular momentum moved by %.3g of %.3g kg m^2/s without a torque", dl, l0);
    CHECKF(fabs(e1 / e0 - 1.0) < 1e-5, "kinetic energy %.6g J, %.6g J at the start (%.5f%%)", e1, e0, 100.0 * (e1 / e0 - 1.0));
    CHECKF(drift < 1e-4, "the centre of mass strayed %.3g m from its straight line", drift);
    CHECKF(fabs(norm - 1.0) < 1e-5, "|q|^2 = %.7f", norm);
    CHECKF(fabs(end.angular_velocity[0] / start.angular_velocity[0] - 1.0) > 1e-3, "the spin axis did not precess: the test "
           "would not see a wrong inertia tensor");
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    free spin: energy %+.4f%%, |dL| %.3g, inertia %g %g %g\n", 100.0 * (e1 / e0 - 1.0), dl, info.inertia[0],
                info.inertia[1], info.inertia[2]);
    gp_world_destroy(w);
}

/* Quaternion helpers in double for the spin test: v rotated by q (x, y, z, w), and its inverse. */
static void dem_rotate(const double q[4], const double v[3], int inverse, double out[3]) {
    double u[3] = {inverse ? -q[0] : q[0], inverse ? -q[1] : q[1], inverse ? -q[2] : q[2]}, t[3], c[3];
    int a;
    c[0] = u[1] * v[2] - u[2] * v[1]; c[1] = u[2] * v[0] - u[0] * v[2]; c[2] = u[0] * v[1] - u[1] * v[0];
    for (a = 0; a < 3; ++a) t[a] = c[a] + q[3] * v[a];
    c[0] = u[1] * t[2] - u[2] * t[1]; c[1] = u[2] * t[0] - u[0] * t[2]; c[2] = u[0] * t[1] - u[1] * t[0];
    for (a = 0; a < 3; ++a) out[a] = v[a] + 2.0 * c[a];
}

/* Euler's equations of a free body in its principal frame, I dw/dt = (I w) x w. */
static void dem_euler(const double inertia[3], const double w[3], double dw[3]) {
    dw[0] = (inertia[1] - inertia[2]) * w[1] * w[2] / inertia[0];
    dw[1] = (inertia[2] - inertia[0]) * w[2] * w[0] / inertia[1];
    dw[2] = (inertia[0] - inertia[1]) * w[0] * w[1] / inertia[2];
}

/* The body-frame angular velocity of a body's state (the principal frame: its orientation times
   the shape's principal rotation). */
static void dem_body_frame(const gp_body_state* st, const gp_body_shape_info* info, double w[3]) {
    double q[4], a[4], b[4], world[3];
    int k;
    for (k = 0; k < 4; ++k) { a[k] = st->orientation[k]; b[k] = info->principal[k]; }
    q[0] = a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1];
    q[1] = a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2];
    q[2] = a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0];
    q[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    for (k = 0; k < 3; ++k) world[k] = st->angular_velocity[k];
    dem_rotate(q, world, 1, w);
}

/* A body spun freely flips true and keeps its energy: a box of 12 x 8 x 4 particles (384; principal
   moments about 1 : 2 : 2.6) spun at 10 rad/s about its intermediate axis, 1% off it, with no
   gravity and nothing to touch, at 600 substeps a second for 10 s: it flips over and back with the
   period that a fine integration of Euler's equations in double precision gives (RK4 at 10 us; the
   mean time between the intermediate component's sign changes, several of them) within 1%, and
   keeps its kinetic energy within 1e-4 and its angular momentum's size within 1e-5 all along. The
   explicit update of 000 eqs. 6-8 gained 17% of the energy in 8 s here and flipped three times as
   often. */
static void test_dem_intermediate_axis_flips(void) {
    gp_world* w = fixture_grid_world(512, 0.05f, 1);
    gp_shape_desc shape;
    gp_body_shape handle;
    gp_body_shape_info info;
    gp_body_desc body;
    gp_body_state st;
    double inertia[3], wr[3], e0 = 0.0, l0 = 0.0, worst_e = 0.0, worst_l = 0.0, t = 0.0;
    double gpu_first = -1.0, gpu_last = 0.0, ref_first = -1.0, ref_last = 0.0, gpu_prev, ref_prev;
    int gpu_flips = 0, ref_flips = 0, frame, k, a;
    if (!w) return;
    dem_no_gravity(w);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.half_extents[0] = 0.3f; shape.half_extents[1] = 0.2f; shape.half_extents[2] = 0.1f;
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_OK && gp_body_shape_info_get(w, handle, &info) == GP_OK);
    CHECKF(info.particles == 384, "the box holds %u particles, not 384", info.particles);
    memset(&body, 0, sizeof body);
    body.shape = handle;
    body.position[1] = 1.0f;
    body.angular_velocity[1] = 10.0f;   /* the intermediate axis (y: moments 80, 160, 208 d^2 m) */
    body.angular_velocity[0] = 0.1f;
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
    st = dem_body(w);
    for (k = 0; k < 3; ++k) inertia[k] = info.inertia[k];
    dem_body_frame(&st, &info, wr);
    for (k = 0; k < 3; ++k) { e0 += 0.5 * inertia[k] * wr[k] * wr[k]; l0 += inertia[k] * inertia[k] * wr[k] * wr[k]; }
    l0 = sqrt(l0);
    gpu_prev = wr[1]; ref_prev = wr[1];
    for (frame = 1; frame <= 600; ++frame) {   /* 10 s in steps of 1/60 s, 10 substeps each */
        gp_step_desc step;
        double wg[3], e = 0.0, l = 0.0;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60.0f;
        step.substeps = 10;
        CHECK(gp_world_step(w, &step) == GP_OK);
        for (k = 0; k < 1667; ++k) {   /* the reference: RK4 over the frame, h = 1/60/1667 s */
            double h = 1.0 / 60.0 / 1667.0, k1[3], k2[3], k3[3], k4[3], x[3];
            dem_euler(inertia, wr, k1);
            for (a = 0; a < 3; ++a) x[a] = wr[a] + 0.5 * h * k1[a];
            dem_euler(inertia, x, k2);
            for (a = 0; a < 3; ++a) x[a] = wr[a] + 0.5 * h * k2[a];
            dem_euler(inertia, x, k3);
            for (a = 0; a < 3; ++a) x[a] = wr[a] + h * k3[a];
            dem_euler(inertia, x, k4);
            for (a = 0; a < 3; ++a) wr[a] += h / 6.0 * (k1[a] + 2.0 * k2[a] + 2.0 * k3[a] + k4[a]);
        }
        t = frame / 60.0;
        st = dem_body(w);
        dem_body_frame(&st, &info, wg);
        for (a = 0; a < 3; ++a) { e += 0.5 * inertia[a] * wg[a] * wg[a]; l += inertia[a] * inertia[a] * wg[a] * wg[a]; }
        worst_e = fmax(worst_e, fabs(e / e0 - 1.0));
        worst_l = fmax(worst_l, fabs(sqrt(l) / l0 - 1.0));
        if ((wg[1] > 0.0) != (gpu_prev > 0.0)) { if (gpu_first < 0.0) gpu_first = t; gpu_last = t; ++gpu_flips; }
        if ((wr[1] > 0.0) != (ref_prev > 0.0)) { if (ref_first < 0.0) ref_first = t; ref_last = t; ++ref_flips; }
        gpu_prev = wg[1]; ref_prev = wr[1];
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    flips: GPU %d (%.3f to %.3f s), reference %d (%.3f to %.3f s); energy %.2g, |L| %.2g\n", gpu_flips, gpu_first,
                gpu_last, ref_flips, ref_first, ref_last, worst_e, worst_l);
    CHECKF(ref_flips >= 4, "the reference flips only %d times in 10 s: the test sees little", ref_flips);
    CHECKF(gpu_flips == ref_flips, "the body flipped %d times, Euler's equations %d", gpu_flips, ref_flips);
    if (gpu_flips == ref_flips && ref_flips >= 2)
        CHECKF(fabs((gpu_last - gpu_first) / (ref_last - ref_first) - 1.0) <= 0.01, "the flips' period is %.4f s, Euler's %.4f s",
               (gpu_last - gpu_first) / (gpu_flips - 1), (ref_last - ref_first) / (ref_flips - 1));
    CHECKF(worst_e <= 1e-4, "the kinetic energy moved by %.3g of itself", worst_e);
    CHECKF(worst_l <= 1e-5, "|L| moved by %.3g of itself", worst_l);
    gp_world_destroy(w);
}

/* A plane collider through the origin with unit normal n. */
static void dem_plane(gp_world* w, double nx, double ny, double nz) {
    gp_collider_desc c;
    gp_collider handle;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_PLANE;
    c.normal[0] = (float)nx; c.normal[1] = (float)ny; c.normal[2] = (float)nz;
    CHECK(gp_collider_add(w, &c, &handle) == GP_OK);
}

/* One body of a shape at the origin, at rest; returns its shape's info. */
static gp_body_shape_info dem_one_body(gp_world* w, const gp_shape_desc* shape, const float position[3]) {
    gp_body_shape handle;
    gp_body_shape_info info;
    gp_body_desc body;
    memset(&info, 0, sizeof info);
    CHECK(gp_body_shape_create(w, shape, &handle) == GP_OK && gp_body_shape_info_get(w, handle, &info) == GP_OK);
    memset(&body, 0, sizeof body);
    body.shape = handle;
    memcpy(body.position, position, sizeof body.position);
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
    return info;
}

/* A ball (a one-particle body: a solid sphere, I = 2/5 m r^2) on a plane tilted 20 degrees, the
   default friction (0.3, more than the 2/7 tan(20) = 0.10 rolling needs): between 0.2 s and
   0.6 s its centre accelerates down the slope at 5/7 g sin(theta) within 5%, and it spins at
   its speed over its radius within 5% (it rolls; a sliding ball would accelerate at
   g (sin - mu cos) = 0 here, a frictionless one at g sin). */
static void test_dem_ball_rolls_down_incline(void) {
    const double theta = 20.0 * 3.14159265358979323846 / 180.0, g = 9.81, r = 0.025;
    const double down[3] = {cos(theta), -sin(theta), 0.0}, n[3] = {sin(theta), cos(theta), 0.0};
    gp_world* w = fixture_grid_world(16, 0.05f, 1);
    gp_shape_desc ball;
    gp_step_desc step;
    gp_body_state a, b;
    float at[3];
    double va = 0.0, vb = 0.0, acceleration, spin;
    int i, k;
    if (!w) return;
    dem_plane(w, n[0], n[1], n[2]);
    memset(&ball, 0, sizeof ball);
    ball.shape = GP_SHAPE_SPHERE;
    ball.radius = (float)r;   /* the default diameter is the cell, 0.05 m: one particle */
    for (k = 0; k < 3; ++k) at[k] = (float)(r * n[k]);
    CHECK(dem_one_body(w, &ball, at).particles == 1);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (i = 0; i < 20; ++i) CHECK(gp_world_step(w, &step) == GP_OK);
    a = dem_body(w);
    for (i = 0; i < 40; ++i) CHECK(gp_world_step(w, &step) == GP_OK);
    b = dem_body(w);
    for (k = 0; k < 3; ++k) { va += a.velocity[k] * down[k]; vb += b.velocity[k] * down[k]; }
    acceleration = (vb - va) / 0.4;
    spin = fabs(b.angular_velocity[2]) * r / vb;
    CHECKF(fabs(acceleration / (5.0 / 7.0 * g * sin(theta)) - 1.0) < 0.05, "the ball accelerates at %.4f m/s^2 down the slope; "
           "rolling: 5/7 g sin = %.4f, sliding freely: %.4f", acceleration, 5.0 / 7.0 * g * sin(theta), g * sin(theta));
    CHECKF(fabs(spin - 1.0) < 0.05, "spin times radius over speed %.4f: it does not roll", spin);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    incline: %.4f m/s^2 (5/7 g sin %.4f), spin r / v %.4f\n", acceleration, 5.0 / 7.0 * g * sin(theta), spin);
    gp_world_destroy(w);
}

/* A box body (0.2 x 0.1 x 0.2 m, 4 x 2 x 4 particles) dropped 1 cm onto the floor settles for
   0.5 s; over the next 10,000 substeps its centre moves less than 0.5 mm, it turns less than
   1 mrad and it ends slower than 1 mm/s (measured on llvmpipe: see the verbose line). */
static void test_dem_body_rests_on_floor(void) {
    gp_world* w = fixture_grid_world(64, 0.05f, 1);
    gp_shape_desc box;
    gp_step_desc step;
    gp_body_state a, b;
    const float at[3] = {0.0f, 0.06f, 0.0f};
    uint32_t substeps = 0;
    double moved = 0.0, turned, dot = 0.0, speed = 0.0;
    int k;
    if (!w) return;
    dem_plane(w, 0.0, 1.0, 0.0);
    memset(&box, 0, sizeof box);
    box.shape = GP_SHAPE_BOX;
    box.half_extents[0] = 0.1f; box.half_extents[1] = 0.05f; box.half_extents[2] = 0.1f;
    CHECK(dem_one_body(w, &box, at).particles == 32);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (k = 0; k < 50; ++k) CHECK(gp_world_step(w, &step) == GP_OK);
    a = dem_body(w);
    while (substeps < 10000) {
        gp_fluid_stats stats;
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        if (stats.substeps == 0) break;
        substeps += stats.substeps;
    }
    b = dem_body(w);
    for (k = 0; k < 3; ++k) {
        moved += pow(b.center_of_mass[k] - a.center_of_mass[k], 2);
        speed += pow(b.velocity[k], 2);
    }
    for (k = 0; k < 4; ++k) dot += (double)a.orientation[k] * b.orientation[k];
    turned = 2.0 * acos(fmin(1.0, fabs(dot)));
    CHECKF(substeps >= 10000, "only %u substeps", substeps);
    CHECKF(sqrt(moved) < 5e-4 && turned < 1e-3 && sqrt(speed) < 1e-3, "the resting box moved %.3g m, turned %.3g rad, ends at "
           "%.3g m/s over %u substeps", sqrt(moved), turned, sqrt(speed), substeps);
    CHECKF(a.center_of_mass[1] > 0.04f && a.center_of_mass[1] < 0.051f, "the box rests with its centre at %.4f m (0.05 touching)",
           a.center_of_mass[1]);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    resting: moved %.3g m, turned %.3g rad, speed %.3g m/s, height %.5f m, %u substeps\n", sqrt(moved),
                turned, sqrt(speed), b.center_of_mass[1], substeps);
    gp_world_destroy(w);
}

/* Bad input gets a result and a message naming the problem, and changes nothing: materials,
   grains, shapes, bodies. Then two grains of an absurd stiffness (1e38 N/m) pressed together
   beside a grain at 1e30 m/s: the pair is flung apart at the largest speeds a float holds (an
   update that overflowed would be refused and counted: either way no NaN), the runaway flies
   on, and every grain is still in the store, finite. */
static void test_dem_rejects_bad_input(void) {
    gp_world* w = fixture_grid_world(64, 0.05f, 0);
    gp_granular_material m, before;
    gp_shape_desc shape;
    gp_body_shape handle, good, unused;
    gp_body_shape_info info;
    gp_body_desc body;
    gp_body_state state;
    gp_body first, second, stale;
    gp_particles_desc d;
    gp_fluid_stats stats;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.5f, 0.5f, 0.5f}, small_hi[3] = {0.1f, 0.1f, 0.05f}, nan3[3] = {NAN, 0.0f, 0.0f};
    const float tri_vertices[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const uint32_t bad_triangles[3] = {0, 1, 7}, good_triangle[3] = {0, 1, 2};
    gp_collider_desc collider;
    gp_collider wall;
    float xyz[9] = {1.0f, 0.5f, 0.0f, 1.001f, 0.5f, 0.0f, 0.0f, 0.3f, 0.0f}, vel[9] = {0, 0, 0, 0, 0, 0, 0.0f, 1e30f, 0.0f};
    gp_particle_position after[7];
    uint32_t added = 7, count, runaways;
    int i;
    if (!w) return;
    CHECK(gp_granular_material_get(w, 0, &before) == GP_OK);
    m = before; m.stiffness = -1.0f;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    m = before; m.friction = NAN;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    m = before; m.diameter = 0.06f;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_CELL_TOO_SMALL));
    m = before; m.tangential_stiffness = -1.0f;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    m = before; m.rolling_friction = -0.1f;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    m = before; m.shear_model = (gp_shear_model)7;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    CHECK(gp_granular_material_set(w, 8, &before) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    CHECK(gp_granular_material_get(w, 0, &m) == GP_OK && memcmp(&m, &before, sizeof m) == 0);
    CHECK(gp_granular_add_block(w, 0, lo, hi, NULL, &added) == GP_ERROR_CAPACITY && added == 0 && fixture_logged_item(GP_LOG_ITEM_STORE_FULL));
    CHECK(gp_granular_add_block(w, 0, nan3, hi, NULL, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    CHECK(gp_granular_add_block(w, 9, lo, hi, NULL, &added) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    CHECK(gp_particle_count(w) == 0);
    memset(&shape, 0, sizeof shape);
    CHECK(gp_body_shape_create(w, NULL, &handle) == GP_ERROR_INVALID_ARGUMENT && handle.id == 0);
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    shape.shape = GP_SHAPE_SPHERE;
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    shape.radius = 0.001f; shape.half_height = 0.0f;
    shape.shape = GP_SHAPE_BOX; shape.half_extents[0] = shape.half_extents[1] = shape.half_extents[2] = 0.001f;
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_OK);   /* a box smaller than a voxel: its one centre is inside */
    shape.shape = GP_SHAPE_SPHERE; shape.radius = 0.03f;   /* 2 x 2 x 2 voxels, their centres 0.043 m out */
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_SHAPE_VOXELS) && handle.id == 0);
    shape.shape = GP_SHAPE_MESH;
    shape.vertices = tri_vertices; shape.vertex_count = 3; shape.triangles = bad_triangles; shape.triangle_count = 1;
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
    shape.triangles = good_triangle;   /* one triangle: open */
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_NOT_CLOSED));
    memset(&collider, 0, sizeof collider);
    collider.shape = GP_SHAPE_MESH;
    collider.vertices = tri_vertices; collider.vertex_count = 3; collider.triangles = good_triangle; collider.triangle_count = 1;
    CHECK(gp_collider_add(w, &collider, &wall) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_NOT_CLOSED) && wall.id == 0);
    shape.vertices = NULL;
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX; shape.half_extents[0] = 0.1f; shape.half_extents[1] = 0.1f; shape.half_extents[2] = 0.1f;
    CHECK(gp_body_shape_create(w, &shape, &good) == GP_OK && good.id != 0);   /* 4 x 4 x 4 = 64 particles */
    memset(&body, 0, sizeof body);
    body.shape = good;
    CHECK(gp_bodies_add(w, NULL, 2, &first) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NULL));
    body.shape.id = 12345;
    CHECK(gp_bodies_add(w, &body, 1, &first) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_HANDLE_INVALID));
    body.shape = good; body.position[1] = NAN;
    CHECK(gp_bodies_add(w, &body, 1, &first) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    body.position[1] = 0.0f; body.orientation[0] = INFINITY;
    CHECK(gp_bodies_add(w, &body, 1, &first) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    body.orientation[0] = 0.0f;
    CHECK(gp_bodies_add(w, &body, 1, &first) == GP_OK && first.id != 0 && gp_body_number(w, first) == 0 && gp_particle_count(w) == 64);
    CHECK(gp_bodies_add(w, &body, 1, &second) == GP_ERROR_CAPACITY && fixture_logged_item(GP_LOG_ITEM_STORE_FULL) && gp_body_count(w) == 1);
    /* handles: the one made reads; 0, another generation, a number past the last are refused */
    CHECK(gp_bodies_read(w, &first, 1, &state) == GP_OK);
    stale.id = first.id ^ (1u << 24);
    CHECK(gp_body_number(w, stale) == GP_NO_OWNER);
    CHECK(gp_bodies_read(w, &stale, 1, &state) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_HANDLE_INVALID));
    stale.id = 0;
    CHECK(gp_bodies_read(w, &stale, 1, &state) == GP_ERROR_INVALID_ARGUMENT && gp_body_number(w, stale) == GP_NO_OWNER);
    stale.id = first.id + 1;
    CHECK(gp_bodies_read(w, &stale, 1, &state) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_bodies_read(w, NULL, 2, &state) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_SLOTS_NOT_LIVE));
    CHECK(gp_bodies_read(w, &first, 1, NULL) == GP_ERROR_INVALID_ARGUMENT);
    /* a shape in use stays; an unused one goes, and its handle is refused after */
    CHECK(gp_body_shape_destroy(w, good) == GP_ERROR_INVALID_STATE && fixture_logged_item(GP_LOG_ITEM_SHAPE_IN_USE));
    CHECK(gp_body_shape_info_get(w, good, &info) == GP_OK);
    shape.half_extents[0] = 0.05f;
    CHECK(gp_body_shape_create(w, &shape, &unused) == GP_OK);
    CHECK(gp_body_shape_destroy(w, unused) == GP_OK);
    CHECK(gp_body_shape_info_get(w, unused, &info) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_body_shape_destroy(w, unused) == GP_ERROR_INVALID_ARGUMENT);
    body.shape = unused;
    CHECK(gp_bodies_add(w, &body, 1, &second) == GP_ERROR_INVALID_ARGUMENT && gp_body_count(w) == 1);
    gp_world_destroy(w);

    /* an overflowing pair and a runaway among grains on a floor */
    w = fixture_grid_world(64, 0.05f, 0);
    if (!w) return;
    dem_plane(w, 0.0, 1.0, 0.0);
    m = before;
    m.stiffness = 1e38f;
    CHECK(gp_granular_material_set(w, 1, &m) == GP_OK);
    CHECK(gp_granular_add_block(w, 0, lo, small_hi, NULL, &added) == GP_OK && added == 4);
    memset(&d, 0, sizeof d);
    d.count = 2; d.positions = xyz; d.velocities = vel; d.kind = GP_KIND_GRANULAR; d.radius = 0.025f; d.mass = before.mass;
    d.phase = 1;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    d.count = 1; d.positions = xyz + 6; d.velocities = vel + 6; d.phase = 0;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    for (i = 0; i < 20; ++i) {
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = 0.01f;
        step.substeps = 4;
        CHECK(gp_world_step(w, &step) == GP_OK);
    }
    CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
    count = gp_particle_count(w);
    added = 0;
    CHECKF(count == 7, "%u grains (7 added)", count);
    runaways = 0;
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 7, after) == GP_OK);
    for (i = 0; i < 7; ++i) {
        CHECKF(isfinite(after[i].x) && isfinite(after[i].y) && isfinite(after[i].z), "grain in slot %d at (%g, %g, %g)", i,
               after[i].x, after[i].y, after[i].z);
        if (fabs(after[i].x) > 1e20f) ++added;   /* the pair, flung */
        if (after[i].y > 1e25f) ++runaways;      /* the runaway */
    }
    CHECKF(runaways == 1 && (added == 2 || stats.nonfinite >= 2), "runaway found %u times; the pair flung %u times, %u updates refused",
           runaways, added, stats.nonfinite);
    gp_world_destroy(w);
}

/* The height a grain of radius r dropped from rest with its bottom h0 above a floor rises to
   after its first bounce, the floor's linear spring-dashpot (F = k overlap - eta v) acting under
   gravity g through the contact: the equation of motion integrated with RK4 in steps of 1 us. */
static double dem_bounce_reference(double r, double h0, double m, double k, double eta, double g) {
    double y = r + h0, v = 0.0, dt = 1e-6, top = -1.0;
    bool bounced = false;
    int n;
    for (n = 0; n < 10000000 && top < 0.0; ++n) {
        double ky[4], kv[4], yy = y, vv = v;
        int j;
        for (j = 0; j < 4; ++j) {
            double step = j == 0 ? 0.0 : j == 3 ? dt : 0.5 * dt;
            if (j) { yy = y + step * ky[j - 1]; vv = v + step * kv[j - 1]; }
            ky[j] = vv;
            kv[j] = -g + (yy < r ? (k * (r - yy) - eta * vv) / m : 0.0);
        }
        y += dt / 6.0 * (ky[0] + 2.0 * ky[1] + 2.0 * ky[2] + ky[3]);
        v += dt / 6.0 * (kv[0] + 2.0 * kv[1] + 2.0 * kv[2] + kv[3]);
        if (v > 0.0) bounced = true;
        if (bounced && v <= 0.0) top = y - r;
    }
    return top;
}

/* The contacts' substeps only where a contact may begin (step_clock.comp's look-ahead): a grain
   of sand 2 cm across (in cells of 5 cm) dropped 0.2 m onto a floor in steps of 1/240 s, the
   library picking the substeps. Falling clear it takes the few substeps its speed needs (1 a
   step), not the contacts' (13); at the floor the GPU's clock shortens them to the contacts' one substep ahead
   of the touch, and the bounce rises to the height the equation of motion gives (RK4, 1 us:
   within 2%) and to what a run at the contacts' substeps throughout gives (within 1%); the time
   the shortened substeps could not run is owed and run by the next steps (none owed at the
   end). A grain placed on the floor between steps is taken as touching at once. */
static void test_dem_contact_lookahead(void) {
    const float dt = 1.0f / 240.0f, r = 0.01f;
    double top[2] = {-1.0, -1.0}, reference, duration, e;
    gp_granular_material m;
    uint32_t contact_count = 0, most_clear = 0, run;
    float lag = 0.0f;
    for (run = 0; run < 2; ++run) {
        gp_world* w = fixture_grid_world(16, 0.05f, 1);
        gp_particles_desc d;
        gp_step_desc step;
        float xyz[3] = {0.0f, 0.2f + r, 0.0f};
        double highest = -1.0;
        bool bounced = false;
        int k;
        if (!w) return;
        dem_plane(w, 0.0, 1.0, 0.0);
        memset(&m, 0, sizeof m);
        m.diameter = 2.0f * r;   /* narrower than the cell (0.05 m), which the contact search sees whole */
        CHECK(gp_granular_material_set(w, 0, &m) == GP_OK && gp_granular_material_get(w, 0, &m) == GP_OK);
        dem_analytic(m.stiffness, m.damping, m.mass, m.mass, &e, &duration);
        contact_count = (uint32_t)ceil(dt / (duration / 12.0));
        memset(&d, 0, sizeof d);
        d.count = 1; d.positions = xyz; d.kind = GP_KIND_GRANULAR; d.radius = r; d.mass = m.mass;
        CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        memset(&step, 0, sizeof step);
        step.dt = dt;
        step.substeps = run == 0 ? 0u : contact_count;   /* run 1: the contacts' substeps throughout */
        for (k = 0; k < 240; ++k) {
            gp_particle_position p;
            gp_particle_velocity v;
            gp_fluid_stats stats;
            CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
            CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, &p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK);
            if (run == 0 && k >= 3 && p.y - r > 0.05f && !bounced && stats.substeps > most_clear) most_clear = stats.substeps;
            if (v.y > 0.0f) bounced = true;
            if (bounced) highest = fmax(highest, p.y - r);
            if (run == 0) lag = stats.lag;
        }
        top[run] = highest;
        gp_world_destroy(w);
    }
    {   /* a grain put 0.5 mm into the floor between two steps of a world whose one grain falls clear */
        gp_world* w = fixture_grid_world(16, 0.05f, 1);
        gp_particles_desc d;
        gp_step_desc step;
        const float overlap = 0.0005f;
        float high[3] = {0.0f, 1.0f, 0.0f}, on[3] = {0.2f, r - overlap, 0.0f};
        double rise = 0.0, allowed = 0.5 * m.stiffness * overlap * overlap / (m.mass * 9.81) - overlap;
        gp_particle_position p[2];
        gp_fluid_stats stats;
        int k, j;
        if (!w) return;
        dem_plane(w, 0.0, 1.0, 0.0);
        CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
        memset(&d, 0, sizeof d);
        d.count = 1; d.positions = high; d.kind = GP_KIND_GRANULAR; d.radius = r; d.mass = m.mass;
        CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        memset(&step, 0, sizeof step);
        step.dt = dt;
        for (k = 0; k < 6; ++k) CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        CHECKF(stats.substeps == 1, "the lone grain falling clear took %u substeps a step", stats.substeps);
        {   /* an emitter of grains: they are born unseen by the contact passes, each substep while it lives */
            gp_emitter_desc source;
            gp_emitter emitter;
            memset(&source, 0, sizeof source);
            source.shape = GP_EMITTER_SPHERE;
            source.position[0] = -0.4f; source.position[1] = 1.0f;
            source.radius = 0.001f;
            source.rate = 30.0f;
            source.kind = GP_KIND_GRANULAR;
            CHECK(gp_emitter_add(w, &source, &emitter) == GP_OK);
            for (k = 0; k < 4; ++k) {
                CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
                CHECKF(stats.substeps >= contact_count, "%u substeps a step while an emitter gives birth to grains; contacts take %u",
                       stats.substeps, contact_count);
            }
            CHECK(gp_emitter_remove(w, emitter) == GP_OK);
        }
        d.positions = on;
        CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        for (k = 0; k < 24; ++k) {
            CHECK(gp_world_step(w, &step) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 2, p) == GP_OK);
            for (j = 0; j < 2; ++j)
                if (p[j].x > 0.1f) rise = isfinite(p[j].y) ? fmax(rise, p[j].y - r) : INFINITY;
        }
        CHECKF(rise <= allowed, "a grain put %.1f mm into the floor rose %.4f m; its spring's energy lifts it %.4f m at most",
               1000.0 * overlap, rise, allowed);
        gp_world_destroy(w);
    }
    {   /* two grains meeting head-on in open space, no gravity: the pairs' look-ahead (no wall near) */
        gp_world* w = fixture_grid_world(16, 0.05f, 1);
        gp_particles_desc d;
        gp_step_desc step;
        float xyz[6] = {-0.2f, 0.0f, 0.0f, 0.2f, 0.0f, 0.0f}, vel[6] = {1.0f, 0.0f, 0.0f, -1.0f, 0.0f, 0.0f};
        gp_particle_position p[2];
        gp_particle_velocity v[2];
        gp_fluid_stats stats;
        uint32_t fewest = UINT32_MAX;
        double after;
        int k;
        if (!w) return;
        dem_no_gravity(w);
        CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
        memset(&d, 0, sizeof d);
        d.count = 2; d.positions = xyz; d.velocities = vel; d.kind = GP_KIND_GRANULAR; d.radius = r; d.mass = m.mass;
        CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
        memset(&step, 0, sizeof step);
        step.dt = dt;
        for (k = 0; k < 72; ++k) {   /* 0.3 s: they meet at about 0.09 s */
            CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
            if (k >= 3 && k < 12 && stats.substeps < fewest) fewest = stats.substeps;
        }
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 2, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 2, v) == GP_OK);
        after = fabs((double)v[1].x - v[0].x) / 2.0;
        CHECKF(fewest == 1, "two grains 0.3 m apart closing at 2 m/s took %u substeps a step", fewest);
        CHECKF(fabs(after / e - 1.0) < 0.06 && (p[1].x - p[0].x) * (v[1].x - v[0].x) > 0.0f,
               "two grains met head-on at 2 m/s and part at %.4f m/s: restitution %.4f, the closed form's %.4f", 2.0 * after, after, e);
        if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    head-on: restitution %.4f (closed form %.4f), %u substeps a step apart\n", after, e, fewest);
        gp_world_destroy(w);
    }
    reference = dem_bounce_reference(r, 0.2, m.mass, m.stiffness, m.damping, 9.81);
    CHECKF(most_clear >= 1 && 2 * most_clear <= contact_count, "falling clear, %u substeps a step; the contacts take %u", most_clear, contact_count);
    CHECKF(fabs(top[0] / reference - 1.0) < 0.03 && fabs(top[1] / reference - 1.0) < 0.03,
           "the bounce rose %.4f m (at the contacts' substeps throughout %.4f); the equation of motion says %.4f", top[0], top[1], reference);
    CHECKF(lag == 0.0f, "%g s still owed at the end", (double)lag);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    falling clear: %u substeps a step (contacts %u); bounce %.5f m, throughout %.5f, RK4 %.5f\n", most_clear,
                contact_count, top[0], top[1], reference);
}

/* A material with a shear 100 times its damping: gp_world_step takes substeps of at most m_eff /
   (damping + shear), and a grain sliding on the floor at 1 m/s slows down without overshooting
   (explicit viscous shear at a longer substep reverses the slip each substep and grows). */
static void test_dem_strong_shear_substeps(void) {
    gp_world* w = fixture_grid_world(16, 0.05f, 0);
    gp_granular_material m;
    gp_particles_desc d;
    gp_step_desc step;
    gp_fluid_stats stats;
    gp_particle_velocity v;
    float xyz[3] = {0.0f, 0.0245f, 0.0f}, vel[3] = {1.0f, 0.0f, 0.0f};
    double fastest = 0.0, least;
    int i;
    if (!w) return;
    dem_plane(w, 0.0, 1.0, 0.0);
    CHECK(gp_granular_material_get(w, 0, &m) == GP_OK);
    m.shear = 100.0f * m.damping;
    m.friction = 1e6f;   /* no Coulomb cap: the shear alone acts */
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK && gp_granular_material_get(w, 0, &m) == GP_OK);
    memset(&d, 0, sizeof d);
    d.count = 1; d.positions = xyz; d.velocities = vel; d.kind = GP_KIND_GRANULAR; d.radius = 0.025f; d.mass = m.mass;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    least = 0.01 / (0.5 * m.mass / ((double)m.damping + m.shear));
    for (i = 0; i < 10; ++i) {
        CHECK(gp_world_step(w, &step) == GP_OK && gp_fluid_stats_read(w, &stats) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 1, &v) == GP_OK);
        fastest = fabs(v.x) > fastest || v.x != v.x ? fabs(v.x) : fastest;
    }
    CHECKF(stats.substeps + 1e-6 >= least, "%u substeps per 0.01 s; the shear needs %.1f", stats.substeps, least);
    CHECKF(fastest <= 1.0 && isfinite(fastest), "the sliding grain reached %.3g m/s (started at 1)", fastest);
    gp_world_destroy(w);
}

/* Shapes from closed meshes: a box mesh gives the box primitive's particles (32, their centres
   strictly inside), mass and inertia; a torus mesh the voxel centres inside the true torus on the
   same grid, but for centres within the tessellation's sagitta of the surface (at most 3%);
   surface_only keeps the voxels with an outside face neighbour (a 4 x 4 x 4 box: 56 of 64). And a
   substep longer than the grains' limit is warned about. */
static void test_dem_shapes_from_meshes(void) {
    gp_world* w = fixture_grid_world(64, 0.05f, 0);
    const float half[3] = {0.1f, 0.1f, 0.05f}, cube[3] = {0.1f, 0.1f, 0.1f};
    shape_mesh box, torus;
    gp_shape_desc d;
    gp_body_shape a, b;
    gp_body_shape_info ia, ib;
    double big = 0.2, small = 0.07, lo[3], hi[3];
    uint32_t i, j, k, dims[3], expected = 0;
    int axis;
    if (!w) return;
    CHECK(shape_box(half, &box) == SHAPE_OK && shape_torus((float)big, (float)small, 48, 24, &torus) == SHAPE_OK);
    memset(&d, 0, sizeof d);
    d.shape = GP_SHAPE_MESH;
    d.vertices = box.vertices; d.vertex_count = box.vertex_count; d.triangles = box.indices; d.triangle_count = box.triangle_count;
    CHECK(gp_body_shape_create(w, &d, &a) == GP_OK && gp_body_shape_info_get(w, a, &ia) == GP_OK);
    memset(&d, 0, sizeof d);
    d.shape = GP_SHAPE_BOX;
    memcpy(d.half_extents, half, sizeof half);
    CHECK(gp_body_shape_create(w, &d, &b) == GP_OK && gp_body_shape_info_get(w, b, &ib) == GP_OK);
    CHECKF(ia.particles == 32 && ib.particles == 32 && fabs(ia.mass / ib.mass - 1.0) < 1e-6, "box mesh %u particles (%g kg), "
           "box %u (%g kg); 32 expected", ia.particles, ia.mass, ib.particles, ib.mass);
    for (axis = 0; axis < 3; ++axis)
        CHECKF(fabs(ia.inertia[axis] / ib.inertia[axis] - 1.0) < 1e-5, "principal moment %d: mesh %g, box %g", axis,
               ia.inertia[axis], ib.inertia[axis]);
    memcpy(d.half_extents, cube, sizeof cube);
    d.surface_only = true;
    CHECK(gp_body_shape_create(w, &d, &b) == GP_OK && gp_body_shape_info_get(w, b, &ib) == GP_OK);
    CHECKF(ib.particles == 56, "a 4 x 4 x 4 box's surface has %u particles, not 56", ib.particles);
    d.surface_only = false;
    CHECK(gp_body_shape_create(w, &d, &b) == GP_OK && gp_body_shape_info_get(w, b, &ib) == GP_OK && ib.particles == 64);
    /* the torus: the same grid as the library (over the mesh's bounds), the true torus inside */
    for (axis = 0; axis < 3; ++axis) { lo[axis] = INFINITY; hi[axis] = -INFINITY; }
    for (i = 0; i < torus.vertex_count; ++i)
        for (axis = 0; axis < 3; ++axis) {
            lo[axis] = fmin(lo[axis], torus.vertices[3 * i + axis]);
            hi[axis] = fmax(hi[axis], torus.vertices[3 * i + axis]);
        }
    for (axis = 0; axis < 3; ++axis) dims[axis] = (uint32_t)fmax(1.0, ceil((hi[axis] - lo[axis]) / 0.05 - 1e-6));
    for (k = 0; k < dims[2]; ++k)
        for (j = 0; j < dims[1]; ++j)
            for (i = 0; i < dims[0]; ++i) {
                double x = 0.5 * (lo[0] + hi[0]) + 0.05 * (i - 0.5 * (dims[0] - 1.0));
                double y = 0.5 * (lo[1] + hi[1]) + 0.05 * (j - 0.5 * (dims[1] - 1.0));
                double z = 0.5 * (lo[2] + hi[2]) + 0.05 * (k - 0.5 * (dims[2] - 1.0));
                double ring = big - sqrt(x * x + z * z);
                expected += ring * ring + y * y <= small * small;
            }
    memset(&d, 0, sizeof d);
    d.shape = GP_SHAPE_MESH;
    d.vertices = torus.vertices; d.vertex_count = torus.vertex_count; d.triangles = torus.indices; d.triangle_count = torus.triangle_count;
    CHECK(gp_body_shape_create(w, &d, &a) == GP_OK && gp_body_shape_info_get(w, a, &ia) == GP_OK);
    CHECKF(expected > 50 && fabs((double)ia.particles - expected) <= 0.03 * expected, "the torus mesh gave %u particles; %u voxel "
           "centres lie inside the true torus", ia.particles, expected);
    CHECKF(fabs(ia.center_of_mass[0]) < 1e-3 && fabs(ia.center_of_mass[1]) < 1e-3 && fabs(ia.center_of_mass[2]) < 1e-3 &&
           ia.inertia[0] < ia.inertia[2] * 0.75, "torus: centre (%g, %g, %g), moments %g %g %g", ia.center_of_mass[0],
           ia.center_of_mass[1], ia.center_of_mass[2], ia.inertia[0], ia.inertia[1], ia.inertia[2]);
    {   /* a substep of 0.1 s is far beyond the grains' limit: warned */
        gp_body_desc body;
        gp_step_desc step;
        memset(&body, 0, sizeof body);
        body.shape = b;
        CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
        memset(&step, 0, sizeof step);
        step.dt = 0.1f;
        step.substeps = 1;
        CHECK(gp_world_step(w, &step) == GP_OK && fixture_logged_item(GP_LOG_ITEM_SUBSTEP_TOO_LONG_FOR_GRAINS));
    }
    shape_mesh_free(&box);
    shape_mesh_free(&torus);
    gp_world_destroy(w);
}

/* Grains on a plane tilted 14 degrees (below the default friction's 16.7), in rows of three that
   lean on each other down the slope, while 600 effect particles rain through the grid around them
   so that the grains change slots from build to build (the grid moves each one's kept springs
   with it, grid_carry: scatter, and gather in deterministic mode). With the springs kept they do
   not move: under 0.1 mm over 0.75 s. Without them (GP_SHEAR_VISCOUS) a grain creeps at the speed
   where its dashpot holds its weight's pull, m g sin / k_t, about 3 cm/s with the defaults: the
   same scene must move more than 1.5 cm, so the bound has teeth. */
static double dem_slope_creep(int deterministic, gp_shear_model model, uint32_t* slot_changes) {
    const double theta = 14.0 * 3.14159265358979323846 / 180.0, r = 0.025;
    const double n[3] = {sin(theta), cos(theta), 0.0}, down[3] = {cos(theta), -sin(theta), 0.0};
    gp_world* w = fixture_grid_world(4096, 0.05f, deterministic);
    gp_granular_material m;
    gp_particles_desc d;
    float grains[3 * 12], effects[3 * 600], rain[3 * 600];
    gp_particle_position before[12], after[12];
    gp_particle_info info[12];
    uint32_t ids[12], slots[2][12], count, i, k;
    uint64_t rng = 7;
    double most = 0.0;
    int frame;
    if (!w) return -1.0;
    memset(&m, 0, sizeof m);
    m.shear_model = model;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    dem_plane(w, n[0], n[1], n[2]);
    for (i = 0; i < 12; ++i)   /* four rows across the slope (z), three grains touching down it */
        for (k = 0; k < 3; ++k)
            grains[3 * i + k] = (float)(r * n[k] + 2.0 * r * (double)(i % 3) * down[k] + (k == 2 ? 0.1 * (double)(i / 3) : 0.0));
    memset(&d, 0, sizeof d);
    d.count = 12; d.positions = grains; d.radius = (float)r; d.mass = m.mass; d.kind = GP_KIND_GRANULAR;
    CHECK(gp_granular_material_get(w, 0, &m) == GP_OK);
    d.mass = m.mass;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    for (i = 0; i < 600; ++i) {   /* a cloud above and around the rows, falling through them */
        effects[3 * i] = (float)(-0.2 + 0.4 * (double)(fixture_random(&rng) % 1000) / 1000.0);
        effects[3 * i + 1] = (float)(0.05 + 0.5 * (double)(fixture_random(&rng) % 1000) / 1000.0);
        effects[3 * i + 2] = (float)(-0.1 + 0.5 * (double)(fixture_random(&rng) % 1000) / 1000.0);
        rain[3 * i] = 0.0f; rain[3 * i + 1] = -(float)(0.5 + (double)(fixture_random(&rng) % 1000) / 1000.0); rain[3 * i + 2] = 0.0f;
    }
    memset(&d, 0, sizeof d);
    d.count = 600; d.positions = effects; d.velocities = rain; d.radius = 0.005f; d.mass = 1e-4f; d.kind = GP_KIND_EFFECT;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    fixture_run(w, 12);   /* settle into their contacts */
    count = gp_particle_count(w);
    {   /* the grains' ids, and where they sit now */
        gp_particle_info* all = (gp_particle_info*)calloc(count, sizeof *all);
        uint32_t found = 0;
        CHECK(all && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, count, all) == GP_OK);
        for (i = 0; all && i < count && found < 12; ++i)
            if ((all[i].kind & 0xffu) == GP_KIND_GRANULAR) ids[found++] = all[i].id;
        CHECK(found == 12);
        free(all);
    }
    CHECK(gp_particles_slots_read(w, ids, 12, slots[0]) == GP_OK);
    for (i = 0; i < 12; ++i) CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, slots[0][i], 1, &before[i]) == GP_OK);
    *slot_changes = 0;
    for (frame = 0; frame < 45; ++frame) {
        fixture_run(w, 1);
        CHECK(gp_particles_slots_read(w, ids, 12, slots[1]) == GP_OK);
        for (i = 0; i < 12; ++i) *slot_changes += slots[1][i] != slots[0][i];
        memcpy(slots[0], slots[1], sizeof slots[0]);
    }
    for (i = 0; i < 12; ++i) {
        double moved = 0.0;
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, slots[1][i], 1, &after[i]) == GP_OK &&
              gp_particles_read(w, GP_ATTRIBUTE_INFO, slots[1][i], 1, &info[i]) == GP_OK && info[i].id == ids[i]);
        moved = sqrt(pow(after[i].x - before[i].x, 2) + pow(after[i].y - before[i].y, 2) + pow(after[i].z - before[i].z, 2));
        if (moved > most) most = moved;
    }
    CHECKF(gp_particle_count(w) == 612, "%u particles of 612", gp_particle_count(w));
    gp_world_destroy(w);
    return most;
}

static void test_dem_springs_follow_particles(void) {
    uint32_t changes[3];
    double held = dem_slope_creep(0, GP_SHEAR_DEFAULT, &changes[0]), held_sorted = dem_slope_creep(1, GP_SHEAR_DEFAULT, &changes[1]);
    double crept = dem_slope_creep(0, GP_SHEAR_VISCOUS, &changes[2]);
    CHECKF(held >= 0.0 && held < 1e-4, "with the springs kept, a grain on the slope moved %.3g m in 0.75 s", held);
    CHECKF(held_sorted >= 0.0 && held_sorted < 1e-4, "deterministic order: a grain moved %.3g m in 0.75 s", held_sorted);
    CHECKF(crept > 0.015, "the viscous model's grains crept only %.3g m: the scene does not tell the models apart", crept);
    CHECKF(changes[0] > 100 && changes[1] > 100, "the grains changed slots only %u and %u times: the carry is not exercised",
           changes[0], changes[1]);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    slope: held %.3g m (sorted %.3g m), viscous crept %.3g m; slot changes %u, %u\n", held, held_sorted,
                crept, changes[0], changes[1]);
}

/* contact_slots 1 in a settled lattice of 4 x 4 x 4 grains on a floor (up to 6 neighbours and a
   wall each): contacts find no free slot; they are counted and warned about, and nothing is lost.
   The default 12 keeps every contact. Above 64 the world is refused. */
static void dem_block_stats(uint32_t slots, gp_dem_stats* stats, int* warned) {
    gp_world_desc desc;
    gp_world* w;
    const float lo[3] = {-0.1f, 0.0f, -0.1f}, hi[3] = {0.1f, 0.2f, 0.1f};
    uint32_t added = 0;
    int frame;
    memset(&desc, 0, sizeof desc);
    desc.max_particles = 256;
    desc.grid.cell_size = 0.05f;
    desc.contact_slots = slots;
    w = fixture_world(&desc);
    memset(stats, 0, sizeof *stats);
    *warned = 0;
    fixture_log_item = GP_LOG_ITEM_COUNT;   /* no message yet from this world */
    if (!w) return;
    dem_plane(w, 0.0, 1.0, 0.0);
    CHECK(gp_granular_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 64);
    for (frame = 0; frame < 12; ++frame) {
        fixture_run(w, 1);
        *warned |= fixture_logged_item(GP_LOG_ITEM_CONTACT_SLOTS_FULL);
    }
    CHECK(gp_dem_stats_read(w, stats) == GP_OK);
    CHECKF(gp_particle_count(w) == 64, "%u grains of 64", gp_particle_count(w));
    gp_world_destroy(w);
}

static void test_dem_contact_slots(void) {
    gp_dem_stats one, all;
    gp_world_desc desc;
    gp_world* refused = NULL;
    int warned_one, warned_all;
    dem_block_stats(1, &one, &warned_one);
    dem_block_stats(0, &all, &warned_all);
    CHECKF(one.contact_slots == 1 && one.contacts_unkept > 0 && warned_one && one.contacts_kept > 0 && one.contacts_kept <= 64,
           "one slot: %u kept, %u unkept, warned %d", one.contacts_kept, one.contacts_unkept, warned_one);
    CHECKF(one.history_bytes == 2ull * 256 * 2 * 16, "one slot: %llu bytes of history", (unsigned long long)one.history_bytes);
    /* each grain rests on one below it or on the floor: 48 pairs between the layers, 16 with the floor, at least */
    CHECKF(all.contact_slots == 12 && all.contacts_unkept == 0 && !warned_all && all.contacts_kept >= 64,
           "twelve slots: %u kept, %u unkept, warned %d", all.contacts_kept, all.contacts_unkept, warned_all);
    CHECK(one.contacts_kept + one.contacts_unkept > 0);
    desc = fixture_desc(NULL);
    desc.contact_slots = 65;
    CHECK(gp_world_create(&desc, &refused) == GP_ERROR_INVALID_ARGUMENT && refused == NULL &&
          fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    slots: one: %u kept, %u unkept; twelve: %u kept\n", one.contacts_kept, one.contacts_unkept, all.contacts_kept);
}

/* Rolling resistance: a ball (a one-particle body, I = 2/5 m r^2) rolls on a floor at 0.6 m/s.
   A torque mu_r r N against its spin gives m a = F, I a / r = -F r - mu_r r N, so
   a = -mu_r g / (1 + I / (m r^2)) = -(5/7) mu_r g (a constant deceleration until it stops, at
   t = v0 / a). Measured over its first 0.3 s with mu_r = 0.1: within 3% of 0.7007 m/s^2; it
   stops (below 1 mm/s) within 5% of the predicted time and stays stopped. With the default 0 it
   keeps rolling: under 1% of that deceleration. */
static double dem_roll(float mu_r, double* stopped_at, double* last_speed) {
    const double r = 0.025, v0 = 0.6;
    gp_world* w = fixture_grid_world(16, 0.05f, 1);
    gp_granular_material m;
    gp_shape_desc ball;
    gp_body_shape handle;
    gp_body_desc body;
    gp_step_desc step;
    gp_body_state st;
    double t = 0.0, v_start = 0.0, v_end = 0.0;
    int i;
    *stopped_at = -1.0;
    *last_speed = -1.0;
    if (!w) return 0.0;
    memset(&m, 0, sizeof m);
    m.rolling_friction = mu_r;
    CHECK(gp_granular_material_set(w, 0, &m) == GP_OK);
    dem_plane(w, 0.0, 1.0, 0.0);
    memset(&ball, 0, sizeof ball);
    ball.shape = GP_SHAPE_SPHERE;
    ball.radius = (float)r;
    CHECK(gp_body_shape_create(w, &ball, &handle) == GP_OK);
    memset(&body, 0, sizeof body);
    body.shape = handle;
    body.position[1] = (float)r;
    body.velocity[0] = (float)v0;
    body.angular_velocity[2] = (float)(-v0 / r);   /* rolling along +x */
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 0.01f;
    for (i = 0; i < 130; ++i) {
        CHECK(gp_world_step(w, &step) == GP_OK);
        t += 0.01;
        st = dem_body(w);
        if (i == 4) v_start = st.velocity[0];
        if (i == 34) v_end = st.velocity[0];
        if (*stopped_at < 0.0 && fabs(st.velocity[0]) < 1e-3) *stopped_at = t;
    }
    *last_speed = sqrt(st.velocity[0] * st.velocity[0] + st.velocity[1] * st.velocity[1] + st.velocity[2] * st.velocity[2]);
    gp_world_destroy(w);
    return (v_start - v_end) / 0.3;
}

static void test_dem_rolling_friction(void) {
    const double predicted = 5.0 / 7.0 * 0.1 * 9.81;
    double stop, last, stop_free, last_free;
    double a = dem_roll(0.1f, &stop, &last), a_free = dem_roll(0.0f, &stop_free, &last_free);
    CHECKF(fabs(a / predicted - 1.0) < 0.03, "mu_r 0.1: the ball decelerates at %.4f m/s^2, 5/7 mu_r g = %.4f", a, predicted);
    CHECKF(fabs(stop / (0.6 / predicted) - 1.0) < 0.05 && last < 1e-3, "mu_r 0.1: stopped at %.3f s (predicted %.3f s), "
           "ends at %.3g m/s", stop, 0.6 / predicted, last);
    CHECKF(fabs(a_free) < 0.01 * predicted, "mu_r 0: the ball decelerates at %.4g m/s^2", a_free);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    rolling: %.4f m/s^2 (5/7 mu_r g %.4f), stopped at %.3f s (%.3f), then %.2g m/s; free %.3g m/s^2\n",
                a, predicted, stop, 0.6 / predicted, last, a_free);
}

/* Runs repeat bit for bit: two deterministic worlds given the same grains (a block of 4 x 5 x 4
   dropped askew into a container box) and two boxes, stepped 40 frames with the springs kept,
   hold bit-identical positions, velocities and bodies at the end (the kept contacts are found
   by id, and deterministic order fixes which contact takes which slot). */
static void dem_repeat_run(gp_particle_position* p, gp_particle_velocity* v, gp_particle_info* info, gp_body_state* bodies,
                           uint32_t* count) {
    gp_world* w = fixture_grid_world(512, 0.05f, 1);
    gp_collider_desc c;
    gp_collider handle;
    gp_shape_desc box;
    gp_body_shape shape;
    gp_body_desc b[2];
    const float lo[3] = {-0.1f, 0.3f, -0.1f}, hi[3] = {0.1f, 0.55f, 0.1f}, drift[3] = {0.3f, 0.0f, -0.2f};
    uint32_t added = 0;
    *count = 0;
    if (!w) return;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_BOX;
    c.inside = true;
    c.center[1] = 0.5f;
    c.half_extents[0] = c.half_extents[1] = c.half_extents[2] = 0.5f;
    CHECK(gp_collider_add(w, &c, &handle) == GP_OK);
    CHECK(gp_granular_add_block(w, 0, lo, hi, drift, &added) == GP_OK && added == 80);
    memset(&box, 0, sizeof box);
    box.shape = GP_SHAPE_BOX;
    box.half_extents[0] = 0.1f; box.half_extents[1] = 0.05f; box.half_extents[2] = 0.05f;
    CHECK(gp_body_shape_create(w, &box, &shape) == GP_OK);
    memset(b, 0, sizeof b);
    b[0].shape = b[1].shape = shape;
    b[0].position[0] = 0.25f; b[0].position[1] = 0.2f;
    b[1].position[0] = -0.25f; b[1].position[1] = 0.3f; b[1].orientation[0] = 0.3f; b[1].orientation[3] = 0.95f;
    b[1].angular_velocity[2] = 3.0f;
    CHECK(gp_bodies_add(w, b, 2, NULL) == GP_OK);
    fixture_run(w, 40);
    *count = gp_particle_count(w);
    CHECK(*count <= 512 && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, *count, p) == GP_OK &&
          gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, *count, v) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, *count, info) == GP_OK &&
          gp_bodies_read(w, NULL, 2, bodies) == GP_OK);
    gp_world_destroy(w);
}

static void test_dem_deterministic_runs_repeat(void) {
    static gp_particle_position p[2][512];
    static gp_particle_velocity v[2][512];
    static gp_particle_info info[2][512];
    gp_body_state bodies[2][2];
    uint32_t count[2];
    int r;
    for (r = 0; r < 2; ++r) dem_repeat_run(p[r], v[r], info[r], bodies[r], &count[r]);
    CHECKF(count[0] == 80 + 2 * 16 && count[1] == count[0], "%u and %u particles", count[0], count[1]);
    CHECK(memcmp(p[0], p[1], count[0] * sizeof p[0][0]) == 0 && memcmp(v[0], v[1], count[0] * sizeof v[0][0]) == 0 &&
          memcmp(info[0], info[1], count[0] * sizeof info[0][0]) == 0);
    CHECK(memcmp(bodies[0], bodies[1], sizeof bodies[0]) == 0);
    CHECKF(p[0][0].y < 0.5f, "the grains did not fall (%g)", p[0][0].y);
}

const gp_test_case dem_tests[] = {
    {"dem_head_on_collision", test_dem_head_on_collision},
    {"dem_free_spin", test_dem_free_spin},
    {"dem_intermediate_axis_flips", test_dem_intermediate_axis_flips},
    {"dem_ball_rolls_down_incline", test_dem_ball_rolls_down_incline},
    {"dem_body_rests_on_floor", test_dem_body_rests_on_floor},
    {"dem_rejects_bad_input", test_dem_rejects_bad_input},
    {"dem_strong_shear_substeps", test_dem_strong_shear_substeps},
    {"dem_contact_lookahead", test_dem_contact_lookahead},
    {"dem_shapes_from_meshes", test_dem_shapes_from_meshes},
    {"dem_springs_follow_particles", test_dem_springs_follow_particles},
    {"dem_contact_slots", test_dem_contact_slots},
    {"dem_rolling_friction", test_dem_rolling_friction},
    {"dem_deterministic_runs_repeat", test_dem_deterministic_runs_repeat},
};
const int dem_test_count = (int)(sizeof dem_tests / sizeof dem_tests[0]);
