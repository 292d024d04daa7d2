/* cpu_effects.c: see cpu_effects.h. */
#include "cpu_effects.h"
#include "cpu_collider.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double fx_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The nearest wall over every collider: its distance, n its normal; none: (0, 1, 0), 3.4e38. */
static double fx_boundary(const cpu_effects_scene* s, const double x[3], double n[3]) {
    double best = 3.4e38;
    uint32_t c;
    n[0] = 0.0; n[1] = 1.0; n[2] = 0.0;
    for (c = 0; c < s->collider_count; ++c) {
        double m[3], d = cpu_collider_distance(&s->colliders[c], x, m);
        if (d < best) { best = d; memcpy(n, m, sizeof m); }
    }
    return best;
}

static void fx_fly(double x[3], double v[3], const double a[3], double k, double t) {
    int c;
    if (k * t < 1e-4) {
        for (c = 0; c < 3; ++c) { x[c] += v[c] * t + 0.5 * a[c] * t * t; v[c] += a[c] * t; }
        return;
    }
    for (c = 0; c < 3; ++c) {
        double terminal = a[c] / k, decay = exp(-k * t);
        x[c] += terminal * t + (v[c] - terminal) * (1.0 - decay) / k;
        v[c] = terminal + (v[c] - terminal) * decay;
    }
}

static void fx_bounce(double v[3], const double n[3], double e, double mu) {
    double vn = fx_dot(v, n), t[3], vt, slow;
    int c;
    if (vn >= 0.0) return;
    for (c = 0; c < 3; ++c) t[c] = v[c] - vn * n[c];
    vt = sqrt(fx_dot(t, t));
    slow = mu * (1.0 + e) * -vn;
    for (c = 0; c < 3; ++c) v[c] = (vt > slow ? t[c] * (1.0 - slow / vt) : 0.0) - e * vn * n[c];
}

static void fx_wind(const gp_wind_desc* w, const double p[3], double out[3]) {
    int c;
    for (c = 0; c < 3; ++c) out[c] = w->uniform[c];
    if (w->vortex_speed != 0.0f) {
        double axis[3] = {w->vortex_axis[0], w->vortex_axis[1], w->vortex_axis[2]}, d[3], radial[3], r, len = sqrt(fx_dot(axis, axis));
        if (len > 0.0) for (c = 0; c < 3; ++c) axis[c] /= len;
        else { axis[0] = 0.0; axis[1] = 1.0; axis[2] = 0.0; }
        for (c = 0; c < 3; ++c) d[c] = p[c] - w->vortex_center[c];
        for (c = 0; c < 3; ++c) radial[c] = d[c] - fx_dot(d, axis) * axis[c];
        r = sqrt(fx_dot(radial, radial));
        if (r > 0.0) {
            double R = w->vortex_radius, scale = w->vortex_speed * (r < R ? r / R : R / r) / r;
            out[0] += scale * (axis[1] * radial[2] - axis[2] * radial[1]);
            out[1] += scale * (axis[2] * radial[0] - axis[0] * radial[2]);
            out[2] += scale * (axis[0] * radial[1] - axis[1] * radial[0]);
        }
    }
}

void cpu_effects_substep(const cpu_effects_scene* s, double (*position)[4], double (*velocity)[4], const uint32_t* phase, uint32_t n) {
    double (*dv)[3] = (double (*)[3])calloc((size_t)n + 1, sizeof *dv);
    uint32_t i, j;
    int c;
    for (i = 0; i < n; ++i) {   /* the collisions, from the velocities before any of them */
        double ei = s->materials[phase[i]].collide;
        if (ei <= 0.0) continue;
        for (j = 0; j < n; ++j) {
            double ej = s->materials[phase[j]].collide, d[3], r2, reach, nn[3], rel[3], vn, impulse;
            if (j == i || ej <= 0.0) continue;
            for (c = 0; c < 3; ++c) d[c] = position[i][c] - position[j][c];
            r2 = fx_dot(d, d);
            reach = position[i][3] + position[j][3];
            if (r2 >= reach * reach || r2 == 0.0) continue;
            for (c = 0; c < 3; ++c) { nn[c] = d[c] / sqrt(r2); rel[c] = velocity[i][c] - velocity[j][c]; }
            vn = fx_dot(rel, nn);
            if (vn >= 0.0) continue;
            impulse = -(1.0 + 0.5 * (ei + ej)) * vn / (1.0 / velocity[i][3] + 1.0 / velocity[j][3]);
            for (c = 0; c < 3; ++c) dv[i][c] += impulse / velocity[i][3] * nn[c];
        }
    }
    for (i = 0; i < n; ++i) {   /* the flights */
        const gp_effect_material* m = &s->materials[phase[i]];
        double x[3], u[3], a[3], w[3], nb[3], na[3], start[3], start_v[3], before, after, r = position[i][3], k = m->drag;
        fx_wind(&s->wind, position[i], w);
        for (c = 0; c < 3; ++c) { x[c] = position[i][c]; u[c] = velocity[i][c] + dv[i][c]; a[c] = s->gravity[c] + k * w[c]; }
        before = fx_boundary(s, x, nb);
        if (before < r) { for (c = 0; c < 3; ++c) x[c] += (r - before) * nb[c]; before = r; }
        memcpy(start, x, sizeof x); memcpy(start_v, u, sizeof u);
        fx_fly(x, u, a, k, s->h);
        after = fx_boundary(s, x, na);
        if (after < r) {
            double f = (before - r) / (before - after > 1e-30 ? before - after : 1e-30), wall[3], dist;
            f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
            memcpy(x, start, sizeof x); memcpy(u, start_v, sizeof u);
            fx_fly(x, u, a, k, f * s->h);
            dist = fx_boundary(s, x, wall);
            if (dist < r) for (c = 0; c < 3; ++c) x[c] += (r - dist) * wall[c];
            fx_bounce(u, wall, m->restitution, m->friction);
            fx_fly(x, u, a, k, (1.0 - f) * s->h);
            dist = fx_boundary(s, x, wall);
            if (dist < r) {
                for (c = 0; c < 3; ++c) x[c] += (r - dist) * wall[c];
                fx_bounce(u, wall, m->restitution, m->friction);
            }
        }
        for (c = 0; c < 3; ++c) { position[i][c] = x[c]; velocity[i][c] = u[c]; }
    }
    free(dv);
}
