/* cpu_emitter.c: see cpu_emitter.h. */
#include "cpu_emitter.h"
#include <math.h>

void cpu_pcg3d(uint32_t v[3]) {
    int i;
    for (i = 0; i < 3; ++i) v[i] = v[i] * 1664525u + 1013904223u;
    v[0] += v[1] * v[2]; v[1] += v[2] * v[0]; v[2] += v[0] * v[1];
    for (i = 0; i < 3; ++i) v[i] ^= v[i] >> 16;
    v[0] += v[1] * v[2]; v[1] += v[2] * v[0]; v[2] += v[0] * v[1];
}

static void cpu_random3(uint32_t seed, uint32_t serial, uint32_t stream, double u[3]) {
    uint32_t v[3];
    int i;
    v[0] = seed; v[1] = serial; v[2] = stream;
    cpu_pcg3d(v);
    for (i = 0; i < 3; ++i) u[i] = (double)(v[i] >> 8) / 16777216.0;
}

/* Duff et al. 2017, as gp_basis. */
static void cpu_basis(const double n[3], double t[3], double b[3]) {
    double s = n[2] >= 0.0 ? 1.0 : -1.0, a = -1.0 / (s + n[2]), c = n[0] * n[1] * a;
    t[0] = 1.0 + s * n[0] * n[0] * a; t[1] = s * c; t[2] = -s * n[0];
    b[0] = c; b[1] = s + n[1] * n[1] * a; b[2] = -n[1];
}

void cpu_emit(const gp_emitter_desc* d, uint32_t serial, double position[3], double velocity[3], double* lifetime) {
    const double two_pi = 6.283185307179586;
    double a[3], b[3], c[3], t[3], s[3], axis[3], dir[3], phi, rim = 0.0, speed;
    int k;
    cpu_random3(d->seed, serial, 0, a);
    cpu_random3(d->seed, serial, 1, b);
    cpu_random3(d->seed, serial, 2, c);
    for (k = 0; k < 3; ++k) { axis[k] = d->direction[k]; position[k] = d->position[k]; }
    cpu_basis(axis, t, s);
    phi = two_pi * a[1];
    if (d->shape == GP_EMITTER_SPHERE) {
        double z = 2.0 * a[0] - 1.0, r = d->radius * cbrt(a[2]), q = sqrt(fmax(1.0 - z * z, 0.0));
        position[0] += r * q * cos(phi); position[1] += r * q * sin(phi); position[2] += r * z;
    } else if (d->shape == GP_EMITTER_BOX) {
        for (k = 0; k < 3; ++k) position[k] += (2.0 * a[k] - 1.0) * d->half_extents[k];
    } else if (d->shape == GP_EMITTER_DISC || d->shape == GP_EMITTER_CONE) {
        rim = sqrt(a[0]);
        for (k = 0; k < 3; ++k) position[k] += d->radius * rim * (cos(phi) * t[k] + sin(phi) * s[k]);
    }
    if (d->shape == GP_EMITTER_CONE) {
        double tilt = tan(fmin(d->spread, 1.5)) * rim, len = 0.0;
        for (k = 0; k < 3; ++k) { dir[k] = axis[k] + tilt * (cos(phi) * t[k] + sin(phi) * s[k]); len += dir[k] * dir[k]; }
        for (k = 0; k < 3; ++k) dir[k] /= sqrt(len);
    } else {
        double cosine = 1.0 - b[0] * (1.0 - cos(d->spread)), sine = sqrt(fmax(1.0 - cosine * cosine, 0.0)), psi = two_pi * b[1];
        for (k = 0; k < 3; ++k) dir[k] = cosine * axis[k] + sine * (cos(psi) * t[k] + sin(psi) * s[k]);
    }
    speed = d->speed[0] + (d->speed[1] - d->speed[0]) * b[2];
    for (k = 0; k < 3; ++k) velocity[k] = speed * dir[k];
    *lifetime = d->lifetime[0] + (d->lifetime[1] - d->lifetime[0]) * c[0];
}

void cpu_emit_mesh(const gp_emitter_desc* d, const float* vertices, const uint32_t* triangles, uint32_t triangle_count,
                   uint32_t serial, double position[3], double velocity[3], double* lifetime, uint32_t* triangle) {
    const double two_pi = 6.283185307179586;
    double a[3], b[3], c[3], total = 0.0, sum = 0.0, area[64], n[3], t[3], s[3], len, r, cosine, sine, psi, speed;
    float share[64];
    uint32_t i, k, pick = 0;
    int m;
    cpu_random3(d->seed, serial, 0, a);
    cpu_random3(d->seed, serial, 1, b);
    cpu_random3(d->seed, serial, 2, c);
    for (i = 0; i < triangle_count && i < 64; ++i) {   /* the shares as the library stores them (floats) */
        const float* p0 = vertices + 3 * triangles[3 * i], *p1 = vertices + 3 * triangles[3 * i + 1], *p2 = vertices + 3 * triangles[3 * i + 2];
        double e1[3], e2[3];
        for (m = 0; m < 3; ++m) { e1[m] = (double)p1[m] - p0[m]; e2[m] = (double)p2[m] - p0[m]; }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1]; n[1] = e1[2] * e2[0] - e1[0] * e2[2]; n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        area[i] = 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        total += area[i];
    }
    for (i = 0; i < triangle_count && i < 64; ++i) {
        sum += area[i];
        share[i] = i + 1 == triangle_count ? 1.0f : (float)(sum / total);
    }
    while (pick + 1 < triangle_count && (double)share[pick] <= a[0]) ++pick;   /* the first whose share exceeds a.x */
    *triangle = pick;
    {
        const float* p0 = vertices + 3 * triangles[3 * pick], *p1 = vertices + 3 * triangles[3 * pick + 1], *p2 = vertices + 3 * triangles[3 * pick + 2];
        double e1[3], e2[3];
        r = sqrt(a[1]);
        for (m = 0; m < 3; ++m) {
            position[m] = d->position[m] + (1.0 - r) * p0[m] + r * (1.0 - a[2]) * p1[m] + r * a[2] * p2[m];
            e1[m] = (double)p1[m] - p0[m]; e2[m] = (double)p2[m] - p0[m];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1]; n[1] = e1[2] * e2[0] - e1[0] * e2[2]; n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (m = 0; m < 3; ++m) n[m] /= len;
    }
    cpu_basis(n, t, s);
    cosine = 1.0 - b[0] * (1.0 - cos(d->spread)); sine = sqrt(fmax(1.0 - cosine * cosine, 0.0)); psi = two_pi * b[1];
    speed = d->speed[0] + (d->speed[1] - d->speed[0]) * b[2];
    for (k = 0; k < 3; ++k) velocity[k] = speed * (cosine * n[k] + sine * (cos(psi) * t[k] + sin(psi) * s[k]));
    *lifetime = d->lifetime[0] + (d->lifetime[1] - d->lifetime[0]) * c[0];
}
