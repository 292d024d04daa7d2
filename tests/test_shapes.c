/* test_shapes.c: examples/shapes.h, the procedural meshes, on the CPU alone (no GL). Each
   generator, at its minimum, odd and large segment counts:
     - closed: every directed edge once and its reverse once, no degenerate triangle, no index out
       of range, no vertex unused or duplicated, Euler characteristic 2 (0 for the torus);
     - outward: positive signed volume (divergence theorem), and each face's normal points away
       from the centre (sphere, box) or from the tube's centre circle (torus);
     - volume: the inscribed mesh's exact volume, the analytic one times the area ratio
       f(n) = n sin(2 pi / n) / (2 pi) of a regular n-gon to its circle (torus 2 pi^2 R r^2,
       lathe pi * integral r^2 dy of its profile), and the analytic bounds that follow from the
       tessellation (sphere: between the inscribed and the circumscribed balls);
     - voxelizable: ray parity says inside exactly where the analytic solid is, away from the
       tessellated surface (to float precision), and from the analytic one by more than the
       tessellation's sagitta;
     - the chess pieces: standing on y = 0, height as asked, about twice as tall as wide, the foot
       their widest part and much wider than the neck, three different solids;
     - bad arguments and failed allocations refused, with *out left empty and nothing leaked. */
#include "gp_test.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* A counting allocator that can be told to fail, to see the out-of-memory paths and leaks. */
static long shapes_live;              /* allocations not yet freed */
static int shapes_fail_after = -1;    /* this many more allocations succeed, then they fail (-1: never) */
static void* shapes_malloc(size_t bytes) {
    void* p;
    if (shapes_fail_after == 0) return NULL;
    if (shapes_fail_after > 0) --shapes_fail_after;
    p = malloc(bytes);
    if (p) ++shapes_live;
    return p;
}
static void shapes_free(void* p) {
    if (p) --shapes_live;
    free(p);
}
#define SHAPE_MALLOC(bytes) shapes_malloc(bytes)
#define SHAPE_FREE(p) shapes_free(p)
#include "../examples/shapes.h"

extern const gp_test_case shape_tests[];
extern const int shape_test_count;

#define SHAPES_PI 3.14159265358979323846
#define SHAPES_EXACT 2e-5   /* relative: float vertices, double sums */
#define SHAPES_BROKEN (-1000)   /* shapes_check_closed: indices out of range, nothing more to check */

/* The area of a regular n-gon over that of its circumcircle. */
static double shapes_f(uint32_t n) { return n * sin(2.0 * SHAPES_PI / n) / (2.0 * SHAPES_PI); }

/* ---- closed and outward ----------------------------------------------------------------------- */

static int shapes_compare_u64(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

static int shapes_compare_point(const void* a, const void* b) {
    const float* p = (const float*)a;
    const float* q = (const float*)b;
    int k;
    for (k = 0; k < 3; ++k)
        if (p[k] != q[k]) return p[k] < q[k] ? -1 : 1;
    return 0;
}

/* The bounding box's diagonal. */
static double shapes_extent(const shape_mesh* m) {
    double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30}, d = 0.0;
    uint32_t v;
    int k;
    for (v = 0; v < m->vertex_count; ++v)
        for (k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], m->vertices[3 * v + k]);
            hi[k] = fmax(hi[k], m->vertices[3 * v + k]);
        }
    for (k = 0; k < 3; ++k) d += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    return sqrt(d);
}

/* (b - a) x (c - a) of triangle t, in double. */
static void shapes_normal(const shape_mesh* m, uint32_t t, double n[3], double centroid[3]) {
    const float* a = m->vertices + 3 * m->indices[3 * t];
    const float* b = m->vertices + 3 * m->indices[3 * t + 1];
    const float* c = m->vertices + 3 * m->indices[3 * t + 2];
    double e[3], f[3];
    int k;
    for (k = 0; k < 3; ++k) {
        e[k] = (double)b[k] - a[k];
        f[k] = (double)c[k] - a[k];
        centroid[k] = ((double)a[k] + b[k] + c[k]) / 3.0;
    }
    n[0] = e[1] * f[2] - e[2] * f[1];
    n[1] = e[2] * f[0] - e[0] * f[2];
    n[2] = e[0] * f[1] - e[1] * f[0];
}

/* Checks that the mesh is closed and consistently wound, as shapes.h promises; returns its Euler
   characteristic V - E + F (2 for a sphere's topology, 0 for a torus'), or SHAPES_BROKEN when
   it cannot be looked at further (no arrays, an index out of range). */
static int shapes_check_closed(const shape_mesh* m, const char* what) {
    uint32_t n = m->triangle_count * 3, t, k, bad = 0;
    uint64_t* edges;
    float* points;
    unsigned char* used;
    double extent;
    CHECKF(m->vertices && m->indices && m->vertex_count >= 4 && m->triangle_count >= 4, "%s: an empty mesh", what);
    if (!m->vertices || !m->indices || m->triangle_count == 0) return SHAPES_BROKEN;
    extent = shapes_extent(m);
    edges = (uint64_t*)malloc((size_t)n * sizeof *edges);
    used = (unsigned char*)calloc(m->vertex_count, 1);
    for (t = 0; t < m->triangle_count; ++t) {
        const uint32_t* i = m->indices + 3 * t;
        double normal[3], centroid[3];
        for (k = 0; k < 3; ++k) {
            if (i[k] >= m->vertex_count) {
                CHECKF(0, "%s: triangle %u's vertex %u is out of range (%u vertices)", what, t, i[k], m->vertex_count);
                free(edges); free(used);
                return SHAPES_BROKEN;
            }
            used[i[k]] = 1;
            edges[3 * t + k] = (uint64_t)i[k] << 32 | i[(k + 1) % 3];
        }
        shapes_normal(m, t, normal, centroid);
        if (i[0] == i[1] || i[1] == i[2] || i[2] == i[0] ||
            !(sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]) > 1e-9 * extent * extent))
            ++bad;
    }
    CHECKF(bad == 0, "%s: %u degenerate triangles", what, bad);
    for (k = 0, bad = 0; k < m->vertex_count; ++k) bad += !used[k];
    CHECKF(bad == 0, "%s: %u vertices used by no triangle", what, bad);
    qsort(edges, n, sizeof *edges, shapes_compare_u64);
    for (k = 0, bad = 0; k + 1 < n; ++k) bad += edges[k] == edges[k + 1];
    CHECKF(bad == 0, "%s: %u directed edges used twice (a fold or an inconsistent winding)", what, bad);
    for (k = 0, bad = 0; k < n; ++k) {
        uint64_t reverse = edges[k] << 32 | edges[k] >> 32;
        bad += bsearch(&reverse, edges, n, sizeof *edges, shapes_compare_u64) == NULL;
    }
    CHECKF(bad == 0, "%s: %u directed edges without their reverse (a hole or a seam)", what, bad);
    points = (float*)malloc((size_t)m->vertex_count * 3 * sizeof(float));
    memcpy(points, m->vertices, (size_t)m->vertex_count * 3 * sizeof(float));
    qsort(points, m->vertex_count, 3 * sizeof(float), shapes_compare_point);
    for (k = 0, bad = 0; k + 1 < m->vertex_count; ++k) bad += shapes_compare_point(points + 3 * k, points + 3 * k + 3) == 0;
    CHECKF(bad == 0, "%s: %u vertices duplicated (not shared)", what, bad);
    for (k = 0, bad = 0; k < 3 * m->vertex_count; ++k) bad += !isfinite(m->vertices[k]);
    CHECKF(bad == 0, "%s: %u coordinates not finite", what, bad);
    free(points);
    free(edges);
    free(used);
    return (int)((int64_t)m->vertex_count - n / 2 + m->triangle_count);
}

/* The signed volume by the divergence theorem: the sum of the tetrahedra from a point (the
   vertices' mean, to keep the terms small) to each triangle. Positive when wound outward. */
static double shapes_volume(const shape_mesh* m) {
    double o[3] = {0, 0, 0}, volume = 0.0;
    uint32_t v, t;
    int k;
    for (v = 0; v < m->vertex_count; ++v)
        for (k = 0; k < 3; ++k) o[k] += m->vertices[3 * v + k] / (double)m->vertex_count;
    for (t = 0; t < m->triangle_count; ++t) {
        double p[3][3];
        for (v = 0; v < 3; ++v)
            for (k = 0; k < 3; ++k) p[v][k] = m->vertices[3 * m->indices[3 * t + v] + k] - o[k];
        volume += p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) - p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                  p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
    }
    return volume / 6.0;
}

/* What every tessellated shape promises: vertices and triangles as counted, closed and
   consistently wound with Euler characteristic euler (2: a sphere's topology, 0: a torus'), and
   outward (a positive signed volume, written to volume). Returns 0 when the mesh cannot be
   looked at further. */
static int shapes_check_mesh(const shape_mesh* m, const char* what, uint32_t vertices, uint32_t triangles, int euler,
                             double* volume) {
    int e;
    CHECKF(m->vertex_count == vertices && m->triangle_count == triangles, "%s: %u vertices, %u triangles, not %u and %u", what,
           m->vertex_count, m->triangle_count, vertices, triangles);
    e = shapes_check_closed(m, what);
    CHECKF(e == euler, "%s: Euler characteristic %d, not %d", what, e, euler);
    if (e == SHAPES_BROKEN) return 0;
    *volume = shapes_volume(m);
    CHECKF(*volume > 0.0, "%s: signed volume %g: wound inward", what, *volume);
    return 1;
}

/* pi * integral of r^2 dy around the outline closed by the axis (Green's theorem): the volume
   of revolution of the region it bounds, also when it runs down again. */
static double shapes_profile_volume(const float* p, uint32_t count) {
    double v = 0.0;
    uint32_t k;
    for (k = 0; k + 1 < count; ++k) {
        double r0 = p[2 * k], r1 = p[2 * k + 2], h = (double)p[2 * k + 3] - p[2 * k + 1];
        v += h * (r0 * r0 + r0 * r1 + r1 * r1);
    }
    return SHAPES_PI * v / 3.0;
}

/* ---- inside by ray parity, as a voxelizer asks ------------------------------------------------ */

/* Whether the ray from p along a fixed, generic direction crosses the mesh an odd number of
   times (Moller-Trumbore, in double). */
static int shapes_inside(const shape_mesh* m, const double p[3]) {
    static const double d[3] = {0.3713906763541037, 0.7427813527082074, 0.5570860145311556};
    uint32_t t, crossings = 0;
    int k;
    for (t = 0; t < m->triangle_count; ++t) {
        double a[3], e1[3], e2[3], s[3], h[3], q[3], det, u, v, dist;
        for (k = 0; k < 3; ++k) {
            a[k] = m->vertices[3 * m->indices[3 * t] + k];
            e1[k] = m->vertices[3 * m->indices[3 * t + 1] + k] - a[k];
            e2[k] = m->vertices[3 * m->indices[3 * t + 2] + k] - a[k];
            s[k] = p[k] - a[k];
        }
        h[0] = d[1] * e2[2] - d[2] * e2[1]; h[1] = d[2] * e2[0] - d[0] * e2[2]; h[2] = d[0] * e2[1] - d[1] * e2[0];
        det = e1[0] * h[0] + e1[1] * h[1] + e1[2] * h[2];
        if (det == 0.0) continue;
        u = (s[0] * h[0] + s[1] * h[1] + s[2] * h[2]) / det;
        if (u < 0.0 || u > 1.0) continue;
        q[0] = s[1] * e1[2] - s[2] * e1[1]; q[1] = s[2] * e1[0] - s[0] * e1[2]; q[2] = s[0] * e1[1] - s[1] * e1[0];
        v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
        if (v < 0.0 || u + v > 1.0) continue;
        dist = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
        crossings += dist > 0.0;
    }
    return crossings & 1;
}

/* Signed distance of (radius, height) to the solid's outline, > 0 outside: for a solid of
   revolution whose outline (closed by the axis) is profile. */
static double shapes_profile_distance(const float* p, uint32_t count, double r, double y) {
    double best = 1e30;
    uint32_t k, crossings = 0;
    for (k = 0; k < count; ++k) {
        const float* a = p + 2 * k;
        const float* b = p + 2 * ((k + 1) % count);
        double ex = (double)b[0] - a[0], ey = (double)b[1] - a[1];
        double t = ((r - a[0]) * ex + (y - a[1]) * ey) / (ex * ex + ey * ey);
        double dx, dy;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        dx = r - (a[0] + t * ex);
        dy = y - (a[1] + t * ey);
        best = fmin(best, sqrt(dx * dx + dy * dy));
        if ((a[1] > y) != (b[1] > y) && r < a[0] + (y - a[1]) / ey * ex) ++crossings;
    }
    return crossings & 1 ? -best : best;
}

/* A solid of revolution as the generators tessellate it: outline (closed by its last edge)
   revolved with each horizontal slice a regular n-gon, vertices at angles 2 pi i / n. Seen from
   the axis in direction phi, that n-gon's edge is at cos(pi/n) / cos(phi - middle of its wedge)
   of the circle's radius, so a point is inside the mesh exactly when, its radius divided by
   that, it is inside the outline. */
typedef struct shapes_solid { const float* outline; uint32_t count, segments; } shapes_solid;

static double shapes_solid_distance(const double p[3], const void* user) {
    const shapes_solid* s = (const shapes_solid*)user;
    double wedge = 2.0 * SHAPES_PI / s->segments, phi = atan2(p[2], p[0]);
    double off = fmod(phi + 2.0 * SHAPES_PI, wedge) - wedge / 2;
    return shapes_profile_distance(s->outline, s->count, sqrt(p[0] * p[0] + p[2] * p[2]) * cos(off) / cos(wedge / 2), p[1]);
}

/* Samples an n^3 grid over the bounding box (offset off the lattice of the vertices) and
   compares ray parity with distance(point) < 0 wherever |distance| > margin. */
static void shapes_check_parity(const shape_mesh* m, double (*distance)(const double p[3], const void* user),
                                const void* user, double margin, int n, const char* what) {
    double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
    uint32_t v, checked = 0, wrong = 0, inside = 0;
    int i, j, l, k;
    for (v = 0; v < m->vertex_count; ++v)
        for (k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], m->vertices[3 * v + k]);
            hi[k] = fmax(hi[k], m->vertices[3 * v + k]);
        }
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j)
            for (l = 0; l < n; ++l) {
                double p[3], d;
                int idx[3] = {i, j, l};
                for (k = 0; k < 3; ++k)   /* 5% beyond the box on each side */
                    p[k] = lo[k] + (hi[k] - lo[k]) * ((idx[k] + 0.5 + 0.0137 * (k + 1)) / n * 1.1 - 0.05);
                d = distance(p, user);
                if (fabs(d) <= margin) continue;
                ++checked;
                inside += d < 0.0;
                if (shapes_inside(m, p) != (d < 0.0)) {
                    if (wrong == 0) CHECKF(0, "%s: (%g %g %g), %g from the surface, parity says %s", what, p[0], p[1], p[2], d,
                                           d < 0.0 ? "outside" : "inside");
                    ++wrong;
                }
            }
    CHECKF(wrong == 0, "%s: %u of %u points on the wrong side", what, wrong, checked);
    CHECKF(inside > (uint32_t)n && checked > inside + (uint32_t)n, "%s: too few points decided (%u inside of %u)", what,
           inside, checked);
}

/* Ray parity of a mesh revolved from outline (count points, segments around it): against the
   tessellated solid to float precision, and, where distance is not NULL, against that analytic
   solid (user) wherever it is more than margin from its surface. name: "torus parity 3 x 3"... */
static void shapes_check_revolved_parity(const shape_mesh* m, const float* outline, uint32_t count, uint32_t segments,
                                         double (*distance)(const double p[3], const void* user), const void* user,
                                         double margin, const char* name) {
    shapes_solid solid;
    char what[96];
    solid.outline = outline;
    solid.count = count;
    solid.segments = segments;
    snprintf(what, sizeof what, "%s, tessellated", name);
    shapes_check_parity(m, shapes_solid_distance, &solid, 1e-6, 16, what);
    if (!distance) return;
    snprintf(what, sizeof what, "%s, analytic", name);
    shapes_check_parity(m, distance, user, margin, 16, what);
}

/* ---- torus ------------------------------------------------------------------------------------ */

typedef struct shapes_torus_size { double major, minor; } shapes_torus_size;

static double shapes_torus_distance(const double p[3], const void* user) {
    const shapes_torus_size* s = (const shapes_torus_size*)user;
    double q = sqrt(p[0] * p[0] + p[2] * p[2]) - s->major;
    return sqrt(q * q + p[1] * p[1]) - s->minor;
}

static void test_shape_torus(void) {
    static const uint32_t counts[][2] = {{3, 3}, {3, 4}, {4, 3}, {5, 7}, {7, 5}, {12, 5}, {48, 24}, {129, 65}};
    static const float sizes[][2] = {{0.05f, 0.02f}, {1.0f, 0.999f}, {0.3f, 0.01f}};
    uint32_t c, s, v, t;
    for (s = 0; s < 3; ++s)
        for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            shape_mesh m;
            char what[96];
            double R = sizes[s][0], r = sizes[s][1], analytic = 2.0 * SHAPES_PI * SHAPES_PI * R * r * r;
            double ratio = shapes_f(counts[c][0]) * shapes_f(counts[c][1]), volume, worst = 0.0;
            uint32_t inward = 0;
            snprintf(what, sizeof what, "torus R %g r %g, %u x %u", R, r, counts[c][0], counts[c][1]);
            CHECKF(shape_torus(sizes[s][0], sizes[s][1], counts[c][0], counts[c][1], &m) == SHAPE_OK, "%s: refused", what);
            if (!m.vertices) continue;
            if (!shapes_check_mesh(&m, what, counts[c][0] * counts[c][1], 2 * counts[c][0] * counts[c][1], 0, &volume)) {
                shape_mesh_free(&m);
                continue;
            }
            CHECKF(fabs(volume / (analytic * ratio) - 1.0) < SHAPES_EXACT, "%s: volume %.9g, the inscribed tube's %.9g",
                   what, volume, analytic * ratio);
            /* the tolerance from the tessellation: the inscribed polygons lose 1 - ratio, no more */
            CHECKF(volume <= analytic && volume >= analytic * ratio * (1.0 - SHAPES_EXACT),
                   "%s: volume %.9g outside [%.9g, %.9g]", what, volume, analytic * ratio, analytic);
            if (counts[c][0] >= 48 && counts[c][1] >= 24)
                CHECKF(fabs(volume / analytic - 1.0) < 0.015, "%s: volume %.9g, analytic %.9g", what, volume, analytic);
            for (v = 0; v < m.vertex_count; ++v) {
                double p[3] = {m.vertices[3 * v], m.vertices[3 * v + 1], m.vertices[3 * v + 2]};
                shapes_torus_size size = {R, r};
                worst = fmax(worst, fabs(shapes_torus_distance(p, &size)));
            }
            CHECKF(worst < 1e-6 * R, "%s: a vertex %g off the torus", what, worst);
            for (t = 0; t < m.triangle_count; ++t) {
                /* away from the middle of the tube's centre chord in the face's wedge: the wedge
                   of tube between two meridian planes is convex and holds it */
                double n[3], o[3], out[3], wedge = 2.0 * SHAPES_PI / counts[c][0];
                double middle;
                shapes_normal(&m, t, n, o);
                middle = (floor(fmod(atan2(o[2], o[0]) + 2.0 * SHAPES_PI, 2.0 * SHAPES_PI) / wedge) + 0.5) * wedge;
                out[0] = o[0] - R * cos(wedge / 2) * cos(middle);
                out[1] = o[1];
                out[2] = o[2] - R * cos(wedge / 2) * sin(middle);
                inward += n[0] * out[0] + n[1] * out[1] + n[2] * out[2] <= 0.0;
            }
            CHECKF(inward == 0, "%s: %u faces facing the tube's centre", what, inward);
            shape_mesh_free(&m);
        }
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

/* Ray parity against the tessellated torus (a regular n-gon tube revolved as a lathe is), to
   float precision, and against the analytic torus away from it by more than the sagitta. */
static void test_shape_torus_parity(void) {
    static const uint32_t counts[][2] = {{3, 3}, {7, 5}, {40, 16}};
    shapes_torus_size size = {0.05, 0.02};
    float tube[2 * 16];
    uint32_t c, j;
    for (c = 0; c < 3; ++c) {
        shape_mesh m;
        char name[64];
        double sagitta = size.major * (1.0 - cos(SHAPES_PI / counts[c][0])) + size.minor * (1.0 - cos(SHAPES_PI / counts[c][1]));
        for (j = 0; j < counts[c][1]; ++j) {
            tube[2 * j] = (float)(size.major + size.minor * cos(2.0 * SHAPES_PI * j / counts[c][1]));
            tube[2 * j + 1] = (float)(size.minor * sin(2.0 * SHAPES_PI * j / counts[c][1]));
        }
        CHECK(shape_torus((float)size.major, (float)size.minor, counts[c][0], counts[c][1], &m) == SHAPE_OK);
        snprintf(name, sizeof name, "torus parity %u x %u", counts[c][0], counts[c][1]);
        shapes_check_revolved_parity(&m, tube, counts[c][1], counts[c][0], c == 2 ? shapes_torus_distance : NULL, &size,
                                     sagitta + 1e-6, name);
        shape_mesh_free(&m);
    }
}

/* ---- UV sphere -------------------------------------------------------------------------------- */

static double shapes_sphere_distance(const double p[3], const void* user) {
    return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) - *(const double*)user;
}

static void test_shape_uv_sphere(void) {
    static const uint32_t counts[][2] = {{2, 3}, {2, 4}, {3, 3}, {5, 7}, {7, 5}, {33, 64}, {100, 3}};
    static const float radii[] = {0.5f, 0.013f, 40.0f};
    uint32_t c, s, v, t, k;
    for (s = 0; s < 3; ++s)
        for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            shape_mesh m;
            char what[96];
            uint32_t stacks = counts[c][0], slices = counts[c][1], inward = 0;
            double r = radii[s], analytic = 4.0 / 3.0 * SHAPES_PI * r * r * r, half_polygon = 0.0, volume, worst = 0.0;
            double inner = r * cos(SHAPES_PI / (2 * stacks)) * cos(SHAPES_PI / slices);
            snprintf(what, sizeof what, "sphere r %g, %u stacks %u slices", r, stacks, slices);
            CHECKF(shape_uv_sphere(radii[s], stacks, slices, &m) == SHAPE_OK, "%s: refused", what);
            if (!m.vertices) continue;
            if (!shapes_check_mesh(&m, what, (stacks - 1) * slices + 2, 2 * slices * (stacks - 1), 2, &volume)) {
                shape_mesh_free(&m);
                continue;
            }
            /* the half polygon revolved (frustums), its slices inscribed n-gons */
            for (k = 0; k < stacks; ++k) {
                double a0 = SHAPES_PI * k / stacks, a1 = SHAPES_PI * (k + 1) / stacks;
                double r0 = r * sin(a0), r1 = r * sin(a1), h = r * (cos(a0) - cos(a1));
                half_polygon += SHAPES_PI / 3.0 * h * (r0 * r0 + r0 * r1 + r1 * r1);
            }
            CHECKF(fabs(volume / (half_polygon * shapes_f(slices)) - 1.0) < SHAPES_EXACT, "%s: volume %.9g, the inscribed %.9g",
                   what, volume, half_polygon * shapes_f(slices));
            /* the tolerance from the tessellation: between the inscribed ball and the sphere */
            CHECKF(volume <= analytic && volume >= 4.0 / 3.0 * SHAPES_PI * inner * inner * inner * (1.0 - SHAPES_EXACT),
                   "%s: volume %.9g outside [%.9g, %.9g]", what, volume, 4.0 / 3.0 * SHAPES_PI * inner * inner * inner, analytic);
            if (stacks >= 33 && slices >= 64)
                CHECKF(fabs(volume / analytic - 1.0) < 0.005, "%s: volume %.9g, analytic %.9g", what, volume, analytic);
            for (v = 0; v < m.vertex_count; ++v) {
                double p[3] = {m.vertices[3 * v], m.vertices[3 * v + 1], m.vertices[3 * v + 2]};
                worst = fmax(worst, fabs(shapes_sphere_distance(p, &r)));
            }
            CHECKF(worst < 1e-6 * r, "%s: a vertex %g off the sphere", what, worst);
            CHECKF(m.vertices[1] == -radii[s] && m.vertices[3 * (m.vertex_count - 1) + 1] == radii[s],
                   "%s: the poles are not first and last", what);
            for (t = 0; t < m.triangle_count; ++t) {
                double n[3], o[3];
                shapes_normal(&m, t, n, o);
                inward += n[0] * o[0] + n[1] * o[1] + n[2] * o[2] <= 0.0;
            }
            CHECKF(inward == 0, "%s: %u faces facing the centre", what, inward);
            shape_mesh_free(&m);
        }
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

/* Ray parity against the tessellated sphere (a half polygon revolved), to float precision, and
   against the ball away from the sphere by more than the sagitta. */
static void test_shape_sphere_parity(void) {
    static const uint32_t counts[][2] = {{2, 3}, {5, 7}, {16, 32}};
    double r = 0.3;
    float half_polygon[2 * 17];
    uint32_t c, k;
    for (c = 0; c < 3; ++c) {
        shape_mesh m;
        char name[64];
        double margin = r * (1.0 - cos(SHAPES_PI / (2 * counts[c][0])) * cos(SHAPES_PI / counts[c][1])) + 1e-6;
        for (k = 0; k <= counts[c][0]; ++k) {
            half_polygon[2 * k] = (float)(r * sin(SHAPES_PI * k / counts[c][0]));
            half_polygon[2 * k + 1] = (float)(-r * cos(SHAPES_PI * k / counts[c][0]));
        }
        CHECK(shape_uv_sphere((float)r, counts[c][0], counts[c][1], &m) == SHAPE_OK);
        snprintf(name, sizeof name, "sphere parity %u x %u", counts[c][0], counts[c][1]);
        shapes_check_revolved_parity(&m, half_polygon, counts[c][0] + 1, counts[c][1], c == 2 ? shapes_sphere_distance : NULL, &r,
                                     margin, name);
        shape_mesh_free(&m);
    }
}

/* ---- box -------------------------------------------------------------------------------------- */

typedef struct shapes_half { double h[3]; } shapes_half;

static double shapes_box_distance(const double p[3], const void* user) {
    const shapes_half* b = (const shapes_half*)user;
    double d = -1e30;
    int k;
    for (k = 0; k < 3; ++k) d = fmax(d, fabs(p[k]) - b->h[k]);
    return d;   /* exact inside, a lower bound outside: enough for the sign */
}

static void test_shape_box(void) {
    static const float sizes[][3] = {{0.5f, 0.5f, 0.5f}, {0.01f, 2.0f, 0.3f}, {3.0f, 0.001f, 1.0f}};
    uint32_t s, v, t, k;
    for (s = 0; s < 3; ++s) {
        shape_mesh m;
        char what[96];
        double exact = 8.0 * sizes[s][0] * sizes[s][1] * sizes[s][2], volume;
        shapes_half half;
        uint32_t inward = 0, off = 0;
        snprintf(what, sizeof what, "box %g x %g x %g", sizes[s][0], sizes[s][1], sizes[s][2]);
        CHECKF(shape_box(sizes[s], &m) == SHAPE_OK, "%s: refused", what);
        if (!m.vertices) continue;
        if (!shapes_check_mesh(&m, what, 8, 12, 2, &volume)) { shape_mesh_free(&m); continue; }
        CHECKF(fabs(volume / exact - 1.0) < 1e-6, "%s: volume %.9g, exactly %.9g", what, volume, exact);
        for (v = 0; v < 8; ++v)
            for (k = 0; k < 3; ++k) off += fabsf(m.vertices[3 * v + k]) != sizes[s][k];
        CHECKF(off == 0, "%s: %u coordinates off the faces", what, off);
        for (t = 0; t < 12; ++t) {
            double n[3], o[3];
            shapes_normal(&m, t, n, o);
            inward += n[0] * o[0] + n[1] * o[1] + n[2] * o[2] <= 0.0;
        }
        CHECKF(inward == 0, "%s: %u faces facing the centre", what, inward);
        for (k = 0; k < 3; ++k) half.h[k] = sizes[s][k];
        shapes_check_parity(&m, shapes_box_distance, &half, 1e-6 * (sizes[s][0] + sizes[s][1] + sizes[s][2]), 12, what);
        shape_mesh_free(&m);
    }
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

/* shape_open_box, the glass of glasses.c and of paper 000's figure 29-11: closed (Euler 2: a
   box with a dent, no hole), 16 vertices and 28 triangles, wound outward, its volume exactly the
   outer box's less the cavity's, on odd sizes; refused when the walls leave no cavity. */
static void test_shape_open_box(void) {
    static const float sizes[][4] = {{0.06f, 0.08f, 0.06f, 0.01f}, {0.3f, 0.05f, 0.11f, 0.013f}, {1.0f, 2.0f, 0.5f, 0.2f}};
    const float thick[3] = {0.02f, 0.5f, 0.02f};
    uint32_t s;
    for (s = 0; s < 3; ++s) {
        shape_mesh m;
        char what[96];
        const float* z = sizes[s];
        double volume, exact = (double)z[0] * z[1] * z[2] - ((double)z[0] - 2.0 * z[3]) * ((double)z[1] - z[3]) * ((double)z[2] - 2.0 * z[3]);
        snprintf(what, sizeof what, "open box %g x %g x %g, wall %g", z[0], z[1], z[2], z[3]);
        CHECKF(shape_open_box(z, z[3], &m) == SHAPE_OK, "%s: refused", what);
        if (!m.vertices) continue;
        if (shapes_check_mesh(&m, what, 16, 28, 2, &volume))
            CHECKF(fabs(volume / exact - 1.0) < 1e-5, "%s: volume %.9g, exactly %.9g", what, volume, exact);
        shape_mesh_free(&m);
    }
    {
        shape_mesh m;
        CHECK(shape_open_box(thick, 0.01f, &m) == SHAPE_BAD_ARGUMENT && m.vertices == NULL);   /* walls meet: no cavity */
        CHECK(shape_open_box(sizes[0], 0.0f, &m) == SHAPE_BAD_ARGUMENT && shape_open_box(NULL, 0.01f, &m) == SHAPE_BAD_ARGUMENT);
    }
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

/* ---- lathe and the chess pieces --------------------------------------------------------------- */

/* Everything a lathe of profile promises: closed, outward, the documented layout (each vertex
   at its profile point's radius and height), the volume of revolution times f(segments), and
   ray parity that agrees with the tessellated profile. Returns 0 when the mesh is broken. */
static int shapes_check_lathe(const shape_mesh* m, const float* profile, uint32_t count, uint32_t segments, int parity,
                               const char* what) {
    uint32_t rings = count - 2, k, i, off = 0;
    double volume, expected = shapes_profile_volume(profile, count) * shapes_f(segments);
    shapes_solid solid;
    if (!shapes_check_mesh(m, what, rings * segments + 2, 2 * segments * rings, 2, &volume) || m->vertex_count != rings * segments + 2)
        return 0;
    CHECKF(fabs(volume / expected - 1.0) < SHAPES_EXACT, "%s: volume %.9g, the profile's revolved and inscribed %.9g", what,
           volume, expected);
    off += m->vertices[0] != 0.0f || m->vertices[1] != profile[1] || m->vertices[2] != 0.0f;
    off += m->vertices[3 * (m->vertex_count - 1)] != 0.0f || m->vertices[3 * (m->vertex_count - 1) + 1] != profile[2 * count - 1];
    for (k = 1; k <= rings; ++k)
        for (i = 0; i < segments; ++i) {
            const float* x = m->vertices + 3 * (1 + (k - 1) * segments + i);
            double angle = atan2(x[2], x[0]), want = 2.0 * SHAPES_PI * i / segments;
            double turn = fabs(remainder(angle - want, 2.0 * SHAPES_PI));
            double radius = sqrt((double)x[0] * x[0] + (double)x[2] * x[2]);
            off += x[1] != profile[2 * k + 1] || fabs(radius - profile[2 * k]) > 1e-6 * profile[2 * k] || turn > 1e-5;
        }
    CHECKF(off == 0, "%s: %u vertices not where the layout puts them", what, off);
    if (parity) {
        solid.outline = profile;
        solid.count = count;
        solid.segments = segments;
        shapes_check_parity(m, shapes_solid_distance, &solid, 1e-6 * shapes_extent(m), 14, what);
    }
    return 1;
}

static void test_shape_lathe(void) {
    static const float cone[] = {0, 0, 1.0f, 0.5f, 0, 1.0f};   /* a double cone: the fewest points */
    static const float cylinder[] = {0, -0.2f, 0.1f, -0.2f, 0.1f, 0.2f, 0, 0.2f};
    static const float cup[] = {0, 0, 0.3f, 0, 0.35f, 0.4f, 0.3f, 0.4f, 0.28f, 0.1f, 0, 0.1f};   /* runs down again */
    static const float vase[] = {0, 0.01f, 0.05f, 0.01f, 0.05f, 0.02f, 0.03f, 0.03f, 0.06f, 0.07f,
                                 0.02f, 0.12f, 0.02f, 0.14f, 0.025f, 0.15f, 0, 0.15f};
    static const float spindle[] = {0, -1.0f, 0.2f, 0.0f, 0, 1.0f};
    static const struct { const char* name; const float* p; uint32_t count; } profiles[] = {
        {"double cone", cone, 3}, {"cylinder", cylinder, 4}, {"cup", cup, 6}, {"vase", vase, 9}, {"spindle", spindle, 3}};
    static const uint32_t segments[] = {3, 4, 7, 33};
    uint32_t p, s;
    for (p = 0; p < sizeof profiles / sizeof profiles[0]; ++p)
        for (s = 0; s < 4; ++s) {
            shape_mesh m;
            char what[96];
            snprintf(what, sizeof what, "lathe %s, %u segments", profiles[p].name, segments[s]);
            CHECKF(shape_lathe(profiles[p].p, profiles[p].count, segments[s], &m) == SHAPE_OK, "%s: refused", what);
            if (!m.vertices) continue;
            shapes_check_lathe(&m, profiles[p].p, profiles[p].count, segments[s], 1, what);
            shape_mesh_free(&m);
        }
    {   /* the cylinder against its analytic volume, pi r^2 h times the inscribed polygon's ratio */
        shape_mesh m;
        CHECK(shape_lathe(cylinder, 4, 7, &m) == SHAPE_OK);
        CHECKF(fabs(shapes_volume(&m) / (SHAPES_PI * 0.01 * 0.4 * shapes_f(7)) - 1.0) < SHAPES_EXACT, "cylinder volume %.9g",
               shapes_volume(&m));
        shape_mesh_free(&m);
    }
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

typedef int (*shapes_piece_fn)(float height, shape_mesh* out);

static void test_shape_pieces(void) {
    static const struct { const char* name; shapes_piece_fn make; } pieces[] = {
        {"pawn", shape_pawn}, {"rook", shape_rook}, {"bishop", shape_bishop}};
    static const float heights[] = {1.0f, 0.05f, 0.0173f};
    double unit_volume[3] = {0, 0, 0};
    uint32_t p, h, v, k;
    for (p = 0; p < 3; ++p)
        for (h = 0; h < 3; ++h) {
            shape_mesh m;
            char what[96];
            float* profile;
            uint32_t count;
            double H = heights[h], ymin = 1e30, ymax = -1e30, width = 0.0, foot = 0.0, neck = 1e30, volume;
            snprintf(what, sizeof what, "%s %g m", pieces[p].name, H);
            CHECKF(pieces[p].make(heights[h], &m) == SHAPE_OK, "%s: refused", what);
            if (!m.vertices) continue;
            CHECKF((m.vertex_count - 2) % SHAPE_PIECE_SEGMENTS == 0, "%s: %u vertices", what, m.vertex_count);
            /* the profile back from the layout: the poles and each ring's vertex at angle 0 */
            count = (m.vertex_count - 2) / SHAPE_PIECE_SEGMENTS + 2;
            profile = (float*)malloc((size_t)count * 2 * sizeof(float));
            profile[0] = 0.0f;
            profile[1] = m.vertices[1];
            for (k = 1; k + 1 < count; ++k) {
                profile[2 * k] = m.vertices[3 * (1 + (k - 1) * SHAPE_PIECE_SEGMENTS)];
                profile[2 * k + 1] = m.vertices[3 * (1 + (k - 1) * SHAPE_PIECE_SEGMENTS) + 1];
            }
            profile[2 * count - 2] = 0.0f;
            profile[2 * count - 1] = m.vertices[3 * (m.vertex_count - 1) + 1];
            if (!shapes_check_lathe(&m, profile, count, SHAPE_PIECE_SEGMENTS, h == 1, what)) {
                free(profile);
                shape_mesh_free(&m);
                continue;
            }
            volume = shapes_volume(&m);
            if (h == 0) unit_volume[p] = volume;
            else
                CHECKF(fabs(volume / (unit_volume[p] * H * H * H) - 1.0) < 1e-4, "%s: volume %.9g does not scale as height^3",
                       what, volume);
            for (v = 0; v < m.vertex_count; ++v) {
                const float* x = m.vertices + 3 * v;
                double r = sqrt((double)x[0] * x[0] + (double)x[2] * x[2]);
                ymin = fmin(ymin, x[1]);
                ymax = fmax(ymax, x[1]);
                width = fmax(width, 2.0 * r);
                if (x[1] < 0.1 * H) foot = fmax(foot, r);
                if (x[1] > 0.25 * H && x[1] < 0.7 * H) neck = fmin(neck, r);
            }
            CHECKF(ymin == 0.0 && fabs(ymax / H - 1.0) < 1e-6, "%s: spans y %g to %g", what, ymin, ymax);
            CHECKF(H / width > 1.8 && H / width < 2.2, "%s: %g tall, %g wide", what, H, width);
            CHECKF(foot > 1.5 * neck, "%s: foot radius %g, neck %g", what, foot, neck);
            CHECKF(2.0 * foot >= width * (1.0 - 1e-6), "%s: foot radius %g, but %g wide above it", what, foot, width);
            CHECKF(volume > 0.01 * H * H * H && volume < SHAPES_PI * width * width / 4 * H, "%s: volume %g", what, volume);
            free(profile);
            shape_mesh_free(&m);
        }
    for (p = 0; p < 3; ++p)   /* three different solids */
        CHECKF(fabs(unit_volume[p] / unit_volume[(p + 1) % 3] - 1.0) > 0.05, "%s and %s: volumes %g and %g", pieces[p].name,
               pieces[(p + 1) % 3].name, unit_volume[p], unit_volume[(p + 1) % 3]);
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

/* ---- refusals --------------------------------------------------------------------------------- */

/* out must come back empty whatever it held. */
static int shapes_refused(int result, const shape_mesh* m) {
    return result == SHAPE_BAD_ARGUMENT && !m->vertices && !m->indices && m->vertex_count == 0 && m->triangle_count == 0;
}

static void shapes_garbage(shape_mesh* m) {
    memset(m, 0, sizeof *m);
    m->vertices = (float*)(uintptr_t)0x1234;
    m->indices = (uint32_t*)(uintptr_t)0x5678;
    m->vertex_count = 77;
    m->triangle_count = 99;
}

static void test_shape_rejects_bad_arguments(void) {
    static const float good[] = {0, 0, 0.1f, 0.05f, 0, 0.1f};
    static const float open_bottom[] = {0.05f, 0, 0.1f, 0.05f, 0, 0.1f};
    static const float open_top[] = {0, 0, 0.1f, 0.05f, 0.01f, 0.1f};
    static const float pinched[] = {0, 0, 0.1f, 0.05f, 0, 0.1f, 0.1f, 0.15f, 0, 0.2f};
    static const float negative[] = {0, 0, -0.1f, 0.05f, 0, 0.1f};
    static const float reversed[] = {0, 0.1f, 0.1f, 0.05f, 0, 0};   /* top to bottom: would wind inward */
    static const float repeated[] = {0, 0, 0.1f, 0.05f, 0.1f, 0.05f, 0, 0.1f};
    static const float crossing[] = {0, 0, 0.2f, 0.1f, 0.2f, 0, 0.1f, 0.2f, 0, 0.2f};   /* crosses itself */
    static const float bowtie[] = {0, 0, 0.1f, 0.1f, 0.1f, 0, 0, 0.1f};   /* crosses the axis edge's span */
    static const float folded[] = {0, 0, 0.1f, 0.05f, 0.2f, 0.1f, 0.15f, 0.075f, 0, 0.2f};   /* doubles back on itself */
    static const float touching[] = {0, 0, 0.2f, 0, 0.2f, 0.2f, 0.1f, 0.1f, 0.2f, 0.1f, 0.2f, 0.3f, 0, 0.3f};   /* touches itself */
    static const float poles_meet[] = {0, 0, 0.1f, 0.05f, 0, 0};
    float nan_profile[6] = {0, 0, 0.1f, 0.05f, 0, 0.1f};
    float half[3] = {0.1f, 0.2f, 0.3f};
    shape_mesh m;
    int k;
    nan_profile[3] = nanf("");
    CHECK(shape_torus(0.05f, 0.02f, 3, 3, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_lathe(good, 3, 3, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_pawn(1.0f, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_rook(1.0f, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_bishop(1.0f, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_box(half, NULL) == SHAPE_BAD_ARGUMENT);
    CHECK(shape_uv_sphere(1.0f, 2, 3, NULL) == SHAPE_BAD_ARGUMENT);
#define REFUSED(call, why)                                                         \
    do {                                                                           \
        shapes_garbage(&m);                                                        \
        CHECKF(shapes_refused(call, &m), "%s accepted (%s)", #call, why);          \
    } while (0)
    REFUSED(shape_torus(0.05f, 0.02f, 2, 3, &m), "2 segments around");
    REFUSED(shape_torus(0.05f, 0.02f, 3, 2, &m), "a 2-gon tube");
    REFUSED(shape_torus(0.05f, 0.02f, 0, 0, &m), "no segments");
    REFUSED(shape_torus(0.05f, 0.05f, 8, 8, &m), "a tube as wide as the ring: it pinches at the axis");
    REFUSED(shape_torus(0.02f, 0.05f, 8, 8, &m), "a tube wider than the ring");
    REFUSED(shape_torus(0.05f, 0.0f, 8, 8, &m), "no tube");
    REFUSED(shape_torus(0.05f, -0.01f, 8, 8, &m), "a negative tube");
    REFUSED(shape_torus(-0.05f, 0.01f, 8, 8, &m), "a negative ring");
    REFUSED(shape_torus(nanf(""), 0.01f, 8, 8, &m), "NaN");
    REFUSED(shape_torus(0.05f, nanf(""), 8, 8, &m), "NaN");
    REFUSED(shape_torus(INFINITY, 0.01f, 8, 8, &m), "infinite");
    REFUSED(shape_torus(0.05f, 0.01f, 100000, 100000, &m), "more than 32-bit indices can count");
    REFUSED(shape_lathe(NULL, 3, 8, &m), "no profile");
    REFUSED(shape_lathe(good, 2, 8, &m), "2 points");
    REFUSED(shape_lathe(good, 3, 2, &m), "2 segments");
    REFUSED(shape_lathe(good, 3, 0xffffffffu, &m), "more than 32-bit indices can count");
    REFUSED(shape_lathe(open_bottom, 3, 8, &m), "bottom off the axis");
    REFUSED(shape_lathe(open_top, 3, 8, &m), "top off the axis");
    REFUSED(shape_lathe(pinched, 5, 8, &m), "an interior point on the axis");
    REFUSED(shape_lathe(negative, 3, 8, &m), "a negative radius");
    REFUSED(shape_lathe(reversed, 3, 8, &m), "top to bottom");
    REFUSED(shape_lathe(repeated, 4, 8, &m), "a point repeated");
    REFUSED(shape_lathe(crossing, 5, 8, &m), "an outline crossing itself");
    REFUSED(shape_lathe(bowtie, 4, 8, &m), "an outline crossing itself");
    REFUSED(shape_lathe(folded, 5, 8, &m), "an outline folding back on itself");
    REFUSED(shape_lathe(touching, 7, 8, &m), "an outline touching itself");
    REFUSED(shape_lathe(poles_meet, 3, 8, &m), "both poles at one point");
    REFUSED(shape_lathe(nan_profile, 3, 8, &m), "NaN");
    REFUSED(shape_pawn(0.0f, &m), "zero height");
    REFUSED(shape_rook(-1.0f, &m), "negative height");
    REFUSED(shape_bishop(nanf(""), &m), "NaN height");
    REFUSED(shape_pawn(INFINITY, &m), "infinite height");
    REFUSED(shape_box(NULL, &m), "no extents");
    for (k = 0; k < 3; ++k) {
        float h[3] = {0.1f, 0.2f, 0.3f};
        h[k] = 0.0f;
        REFUSED(shape_box(h, &m), "a flat box");
        h[k] = -0.1f;
        REFUSED(shape_box(h, &m), "a negative extent");
        h[k] = nanf("");
        REFUSED(shape_box(h, &m), "NaN");
        h[k] = INFINITY;
        REFUSED(shape_box(h, &m), "infinite");
    }
    REFUSED(shape_uv_sphere(1.0f, 1, 8, &m), "1 stack");
    REFUSED(shape_uv_sphere(1.0f, 8, 2, &m), "2 slices");
    REFUSED(shape_uv_sphere(0.0f, 8, 8, &m), "zero radius");
    REFUSED(shape_uv_sphere(-1.0f, 8, 8, &m), "negative radius");
    REFUSED(shape_uv_sphere(nanf(""), 8, 8, &m), "NaN");
    REFUSED(shape_uv_sphere(INFINITY, 8, 8, &m), "infinite");
    REFUSED(shape_uv_sphere(1.0f, 70000, 70000, &m), "more than 32-bit indices can count");
#undef REFUSED
    /* freeing an empty mesh twice, and NULL, is fine */
    memset(&m, 0, sizeof m);
    shape_mesh_free(&m);
    shape_mesh_free(&m);
    shape_mesh_free(NULL);
    CHECKF(shapes_live == 0, "%ld allocations leaked", shapes_live);
}

static void test_shape_out_of_memory(void) {
    static const float profile[] = {0, 0, 0.1f, 0.05f, 0, 0.1f};
    float half[3] = {0.1f, 0.2f, 0.3f};
    int fail, which;
    for (which = 0; which < 7; ++which)
        for (fail = 0; fail < 4; ++fail) {
            shape_mesh m;
            int result = -1;
            shapes_garbage(&m);
            shapes_fail_after = fail;
            switch (which) {
            case 0: result = shape_torus(0.05f, 0.02f, 5, 3, &m); break;
            case 1: result = shape_lathe(profile, 3, 5, &m); break;
            case 2: result = shape_pawn(1.0f, &m); break;
            case 3: result = shape_rook(1.0f, &m); break;
            case 4: result = shape_bishop(1.0f, &m); break;
            case 5: result = shape_box(half, &m); break;
            default: result = shape_uv_sphere(1.0f, 3, 5, &m); break;
            }
            /* the sphere allocates its profile too: three allocations, the others two */
            if (fail < (which == 6 ? 3 : 2))
                CHECKF(result == SHAPE_OUT_OF_MEMORY && !m.vertices && !m.indices && m.vertex_count == 0 && m.triangle_count == 0,
                       "generator %d, allocation %d failing: result %d", which, fail, result);
            else
                CHECKF(result == SHAPE_OK && m.vertices && m.indices, "generator %d, %d allocations allowed: result %d", which,
                       fail, result);
            shapes_fail_after = -1;
            if (result == SHAPE_OK) shape_mesh_free(&m);
            CHECKF(shapes_live == 0, "generator %d, allocation %d failing: %ld allocations leaked", which, fail, shapes_live);
        }
}

const gp_test_case shape_tests[] = {
    {"shape_torus", test_shape_torus},
    {"shape_torus_parity", test_shape_torus_parity},
    {"shape_uv_sphere", test_shape_uv_sphere},
    {"shape_sphere_parity", test_shape_sphere_parity},
    {"shape_box", test_shape_box},
    {"shape_open_box", test_shape_open_box},
    {"shape_lathe", test_shape_lathe},
    {"shape_pieces", test_shape_pieces},
    {"shape_rejects_bad_arguments", test_shape_rejects_bad_arguments},
    {"shape_out_of_memory", test_shape_out_of_memory},
};
const int shape_test_count = (int)(sizeof shape_tests / sizeof shape_tests[0]);
