/* cpu_collider.c: see cpu_collider.h. */
#include "cpu_collider.h"
#include <math.h>

static double collider_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double collider_length(const double a[3]) { return sqrt(collider_dot(a, a)); }

/* d = x - center. Sphere |d| - R; box outside |max(|d| - h, 0)|, inside the largest |d_a| - h_a
   (the first axis on a tie, as the GPU's >= tests pick); capsule the sphere at the segment's
   closest point; plane d . n (n normalised). A gradient that does not exist (x at a sphere's
   centre, on a capsule's segment) is +y. */
double cpu_collider_distance(const gp_collider_desc* c, const double x[3], double n[3]) {
    double d[3], s = INFINITY, len;
    int a;
    n[0] = n[1] = n[2] = 0.0;
    for (a = 0; a < 3; ++a) d[a] = x[a] - c->center[a];
    switch (c->shape) {
    case GP_SHAPE_SPHERE:
        len = collider_length(d);
        s = len - c->radius;
        if (len > 0.0) { n[0] = d[0] / len; n[1] = d[1] / len; n[2] = d[2] / len; } else n[1] = 1.0;
        break;
    case GP_SHAPE_BOX: {
        double q[3], outside[3];
        int largest;
        for (a = 0; a < 3; ++a) {
            q[a] = fabs(d[a]) - c->half_extents[a];
            outside[a] = q[a] > 0.0 ? q[a] : 0.0;
        }
        len = collider_length(outside);
        if (len > 0.0) {
            s = len;
            for (a = 0; a < 3; ++a) n[a] = (d[a] < 0.0 ? -outside[a] : outside[a]) / len;
        } else {
            largest = q[0] >= q[1] && q[0] >= q[2] ? 0 : q[1] >= q[2] ? 1 : 2;
            s = q[largest];
            n[largest] = d[largest] < 0.0 ? -1.0 : 1.0;
        }
        break;
    }
    case GP_SHAPE_CAPSULE: {
        /* from end A = center - half_height u to end B = center + half_height u, u the unit axis
           ((0, 1, 0) when zero), as the library documents it */
        double ab[3], t, ab2, u[3] = {c->axis[0], c->axis[1], c->axis[2]}, ul = collider_length(u);
        if (ul > 0.0) { u[0] /= ul; u[1] /= ul; u[2] /= ul; } else { u[0] = 0.0; u[1] = 1.0; u[2] = 0.0; }
        for (a = 0; a < 3; ++a) {
            ab[a] = 2.0 * (double)c->half_height * u[a];
            d[a] += (double)c->half_height * u[a];   /* d from end A */
        }
        ab2 = collider_dot(ab, ab);
        t = ab2 > 0.0 ? collider_dot(d, ab) / ab2 : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        for (a = 0; a < 3; ++a) d[a] -= t * ab[a];
        len = collider_length(d);
        s = len - c->radius;
        if (len > 0.0) { n[0] = d[0] / len; n[1] = d[1] / len; n[2] = d[2] / len; } else n[1] = 1.0;
        break;
    }
    case GP_SHAPE_PLANE: {
        double normal[3];
        for (a = 0; a < 3; ++a) normal[a] = c->normal[a];
        len = collider_length(normal);
        for (a = 0; a < 3; ++a) n[a] = normal[a] / len;
        return collider_dot(d, n);
    }
    case GP_SHAPE_HEIGHTFIELD: {
        /* bilinear between the points, the edge's height and slope beyond the rectangle; the
           height above along the tangent plane's normal: (y - h) / sqrt(1 + |grad h|^2) */
        double dx = 2.0 * c->half_extents[0] / (c->samples[0] - 1), dz = 2.0 * c->half_extents[2] / (c->samples[1] - 1);
        double u[2], g[2], f[2], h00, h10, h01, h11, h, sx, sz, len2;
        size_t i0[2], nx = c->samples[0];
        int b;
        u[0] = (x[0] - ((double)c->center[0] - c->half_extents[0])) / dx;
        u[1] = (x[2] - ((double)c->center[2] - c->half_extents[2])) / dz;
        for (b = 0; b < 2; ++b) {
            double cells = (double)c->samples[b] - 1.0;
            g[b] = u[b] < 0.0 ? 0.0 : u[b] > cells ? cells : u[b];
            i0[b] = (size_t)(floor(g[b]) < cells - 1.0 ? floor(g[b]) : cells - 1.0);
            f[b] = g[b] - (double)i0[b];
        }
        h00 = c->heights[i0[0] + nx * i0[1]]; h10 = c->heights[i0[0] + 1 + nx * i0[1]];
        h01 = c->heights[i0[0] + nx * (i0[1] + 1)]; h11 = c->heights[i0[0] + 1 + nx * (i0[1] + 1)];
        h = (h00 * (1.0 - f[0]) + h10 * f[0]) * (1.0 - f[1]) + (h01 * (1.0 - f[0]) + h11 * f[0]) * f[1];
        sx = ((h10 - h00) * (1.0 - f[1]) + (h11 - h01) * f[1]) / dx;
        sz = ((h01 - h00) * (1.0 - f[0]) + (h11 - h10) * f[0]) / dz;
        len2 = 1.0 + sx * sx + sz * sz;
        n[0] = -sx / sqrt(len2); n[1] = 1.0 / sqrt(len2); n[2] = -sz / sqrt(len2);
        return (x[1] - c->center[1] - h) * n[1];   /* the free side is above, inside or not */
    }
    default:
        return INFINITY;
    }
    if (c->inside) {
        s = -s;
        n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2];
    }
    return s;
}
