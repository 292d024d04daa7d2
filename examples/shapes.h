/* shapes.h: closed triangle meshes made procedurally: torus, surface of revolution (lathe),
   chess-piece-like pawn, rook and bishop, box, open box (a square glass) and UV sphere. For the
   rigid-body examples (a pile of tori and chess pieces falling into a box, GPU Gems 3 ch. 29,
   fig. 29-1; glasses filled with water, fig. 29-11) and for the tests that voxelize meshes into
   particles. Not part of the library: gpuparticle.h never needs it.

   Header-only C99 (compiles as C++ too): every function is static inline, nothing is global,
   only libc and libm are used. Include it where you need it; there is no implementation macro.

   Every mesh is closed and watertight:
     - vertices are shared (indexed): each edge is used by exactly two triangles, once in each
       direction, and no vertex is duplicated or left unused;
     - triangles wind counter-clockwise seen from outside: right-hand normals point out, and the
       signed volume (divergence theorem) is positive;
     - no triangle is degenerate; the poles of a lathe are closed with triangle fans.
   Curved surfaces are inscribed: every vertex lies on the exact surface, so a mesh's volume is a
   little below the analytic one (see each generator for the exact ratio).

   Step by step:
       shape_mesh m;
       if (shape_torus(0.05f, 0.015f, 24, 12, &m) == SHAPE_OK) {
           ... m.vertices: x y z per vertex (m.vertex_count), metres
           ... m.indices: 3 per triangle (m.triangle_count)
           shape_mesh_free(&m);
       }

   Configuration (define before including):
       SHAPE_MALLOC(bytes), SHAPE_FREE(p)   the allocator (default malloc, free)
       SHAPE_PIECE_SEGMENTS                 segments around the chess pieces (default 24)

   Every generator returns SHAPE_OK (0), SHAPE_BAD_ARGUMENT or SHAPE_OUT_OF_MEMORY, and on
   failure leaves *out empty (all zero), so shape_mesh_free(out) is always safe.

   shapes.h does NOT: compute normals, texture coordinates or mass properties; merge, weld or
   transform meshes; draw anything; check that a mesh you built yourself is closed.

   Contents: >>mesh  >>lathe  >>pieces  >>torus  >>box  >>sphere */
#ifndef SHAPES_H_INCLUDED
#define SHAPES_H_INCLUDED
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#if defined(SHAPE_MALLOC) != defined(SHAPE_FREE)
#error "shapes.h: define both SHAPE_MALLOC and SHAPE_FREE, or neither"
#endif
#ifndef SHAPE_MALLOC
#define SHAPE_MALLOC(bytes) malloc(bytes)
#define SHAPE_FREE(p) free(p)
#endif
#ifndef SHAPE_PIECE_SEGMENTS
#define SHAPE_PIECE_SEGMENTS 24
#endif

#define SHAPE_OK 0
#define SHAPE_BAD_ARGUMENT 1
#define SHAPE_OUT_OF_MEMORY 2

/* The fewest segments a generator takes: fewer would not enclose a volume. */
#define SHAPE_MIN_SEGMENTS 3      /* around an axis, and around a torus' tube */
#define SHAPE_MIN_STACKS 2        /* pole to pole on a UV sphere */
#define SHAPE_MIN_PROFILE 3       /* points in a lathe profile */
#define SHAPE_PI 3.14159265358979323846

/* ============================================================================================== */
/* >>mesh                                                                                          */
/* ============================================================================================== */

/* An indexed triangle mesh owned by the caller once a generator returned SHAPE_OK; free it with
   shape_mesh_free. */
typedef struct shape_mesh {
    float* vertices;          /* x y z per vertex, metres */
    uint32_t vertex_count;
    uint32_t* indices;        /* 3 vertex indices per triangle, counter-clockwise seen from outside */
    uint32_t triangle_count;
} shape_mesh;

/* Frees what a generator allocated and zeroes the mesh; NULL and an empty mesh are fine. */
static inline void shape_mesh_free(shape_mesh* mesh) {
    if (!mesh) return;
    SHAPE_FREE(mesh->vertices);
    SHAPE_FREE(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}

/* Allocates the arrays, refusing counts whose index or float arrays would not fit 32 bits. */
static inline int shape__mesh_alloc(shape_mesh* out, uint64_t vertex_count, uint64_t triangle_count) {
    if (vertex_count * 3 > UINT32_MAX || triangle_count * 3 > UINT32_MAX) return SHAPE_BAD_ARGUMENT;
    out->vertices = (float*)SHAPE_MALLOC((size_t)vertex_count * 3 * sizeof(float));
    out->indices = (uint32_t*)SHAPE_MALLOC((size_t)triangle_count * 3 * sizeof(uint32_t));
    if (!out->vertices || !out->indices) {
        shape_mesh_free(out);
        return SHAPE_OUT_OF_MEMORY;
    }
    out->vertex_count = (uint32_t)vertex_count;
    out->triangle_count = (uint32_t)triangle_count;
    return SHAPE_OK;
}

static inline int shape__finite(double x) { return x == x && x - x == 0.0; }

/* The quad between two rings of a surface of revolution, as two triangles: a and b on the lower
   ring (b one step further around), d and c above them. Going around is +angle in x = r cos,
   z = r sin, which makes (a, c, b) and (a, d, c) wind outward when the profile runs
   counter-clockwise in the (radius, height) plane. A pole is a ring whose vertices are all one:
   then one triangle of the two is degenerate and is left out (the fan). Returns the end. */
static inline uint32_t* shape__quad(uint32_t* t, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    if (a != b) { t[0] = a; t[1] = c; t[2] = b; t += 3; }
    if (c != d) { t[0] = a; t[1] = d; t[2] = c; t += 3; }
    return t;
}

/* ============================================================================================== */
/* >>lathe                                                                                         */
/* ============================================================================================== */

/* (b - a) x (c - a) in the profile plane: > 0 when a, b, c turn counter-clockwise. */
static inline double shape__orient(const float* a, const float* b, const float* c) {
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

/* Whether c, known to be on the line through a and b, lies within the segment. */
static inline int shape__within(const float* a, const float* b, const float* c) {
    return c[0] >= fminf(a[0], b[0]) && c[0] <= fmaxf(a[0], b[0]) && c[1] >= fminf(a[1], b[1]) &&
           c[1] <= fmaxf(a[1], b[1]);
}

/* Whether segments ab and cd share any point (touching counts). */
static inline int shape__segments_meet(const float* a, const float* b, const float* c, const float* d) {
    double d1 = shape__orient(c, d, a), d2 = shape__orient(c, d, b);
    double d3 = shape__orient(a, b, c), d4 = shape__orient(a, b, d);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 1;
    return (d1 == 0 && shape__within(c, d, a)) || (d2 == 0 && shape__within(c, d, b)) ||
           (d3 == 0 && shape__within(a, b, c)) || (d4 == 0 && shape__within(a, b, d));
}

/* A profile makes a closed, outward surface when its outline, closed by the axis from the top
   pole back to the bottom one, is a simple polygon run counter-clockwise in (radius, height):
   finite points, radius 0 at the ends and > 0 between (a point on the axis would pinch the
   surface), no two consecutive points equal, no edge folding back on the one before, no two
   other edges meeting, positive area. O(count^2): profiles are tens to hundreds of points. */
static inline int shape__profile_valid(const float* p, uint32_t n) {
    uint32_t i, j;
    double area = 0.0;
    for (i = 0; i < n; ++i) {
        const float* a = p + 2 * i;
        const float* b = p + 2 * ((i + 1) % n);
        const float* c = p + 2 * ((i + 2) % n);
        if (!shape__finite(a[0]) || !shape__finite(a[1])) return 0;
        if ((i == 0 || i == n - 1) ? a[0] != 0.0f : !(a[0] > 0.0f)) return 0;
        if (a[0] == b[0] && a[1] == b[1]) return 0;
        /* b turns back along ab: collinear and pointing the other way */
        if (shape__orient(a, b, c) == 0.0 &&
            ((double)b[0] - a[0]) * ((double)c[0] - b[0]) + ((double)b[1] - a[1]) * ((double)c[1] - b[1]) < 0.0)
            return 0;
        area += (double)a[0] * b[1] - (double)b[0] * a[1];
    }
    for (i = 0; i < n; ++i)
        for (j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue;   /* adjacent through the closing edge */
            if (shape__segments_meet(p + 2 * i, p + 2 * ((i + 1) % n), p + 2 * j, p + 2 * ((j + 1) % n))) return 0;
        }
    return area > 0.0;
}

/* The lathe without the profile check, for profiles made here. */
static inline int shape__revolve(const float* profile, uint32_t count, uint32_t segments, shape_mesh* out) {
    uint32_t rings = count - 2, k, i;
    uint32_t top, *t;
    float* v;
    int result = shape__mesh_alloc(out, (uint64_t)rings * segments + 2, (uint64_t)2 * segments * rings);
    if (result != SHAPE_OK) return result;
    top = out->vertex_count - 1;
    v = out->vertices;
    v[0] = 0.0f; v[1] = profile[1]; v[2] = 0.0f;
    for (k = 1; k <= rings; ++k)
        for (i = 0; i < segments; ++i) {
            double angle = 2.0 * SHAPE_PI * i / segments;
            float* x = v + 3 * (1 + (size_t)(k - 1) * segments + i);
            x[0] = (float)(profile[2 * k] * cos(angle));
            x[1] = profile[2 * k + 1];
            x[2] = (float)(profile[2 * k] * sin(angle));
        }
    v[3 * top] = 0.0f; v[3 * top + 1] = profile[2 * count - 1]; v[3 * top + 2] = 0.0f;
    t = out->indices;
    for (k = 0; k <= rings; ++k)   /* from ring k (0: the bottom pole) up to ring k + 1 */
        for (i = 0; i < segments; ++i) {
            uint32_t next = (i + 1) % segments;
            uint32_t a = k == 0 ? 0 : 1 + (k - 1) * segments + i;
            uint32_t b = k == 0 ? 0 : 1 + (k - 1) * segments + next;
            uint32_t d = k == rings ? top : 1 + k * segments + i;
            uint32_t c = k == rings ? top : 1 + k * segments + next;
            t = shape__quad(t, a, b, c, d);
        }
    return SHAPE_OK;
}

/* A surface of revolution about y: profile holds count (radius, height) points, metres, from the
   bottom pole (radius 0) to the top pole (radius 0), radius > 0 between. The outline may go down
   again (a cup) as long as, closed by the axis, it does not cross or touch itself and runs
   counter-clockwise (outward, then up, then back in); a profile given top to bottom is refused.
   Layout: vertex 0 is the bottom pole, then one ring of segments vertices per interior profile
   point (ring k - 1 for point k, vertex i at angle 2 pi i / segments from +x towards +z), and the
   top pole last: (count - 2) * segments + 2 vertices, 2 * segments * (count - 2) triangles.
   The mesh's volume is the profile's volume of revolution times n sin(2 pi / n) / (2 pi),
   n = segments: each horizontal slice is a regular n-gon inscribed in the slice's circle.
   count >= SHAPE_MIN_PROFILE, segments >= SHAPE_MIN_SEGMENTS. */
static inline int shape_lathe(const float* profile, uint32_t count, uint32_t segments, shape_mesh* out) {
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!profile || count < SHAPE_MIN_PROFILE || segments < SHAPE_MIN_SEGMENTS) return SHAPE_BAD_ARGUMENT;
    if (!shape__profile_valid(profile, count)) return SHAPE_BAD_ARGUMENT;
    return shape__revolve(profile, count, segments, out);
}

/* ============================================================================================== */
/* >>pieces                                                                                        */
/* ============================================================================================== */

/* A piece's profile under construction, in units of its height. */
typedef struct shape__outline {
    float p[2 * 64];
    uint32_t n;
} shape__outline;

static inline void shape__point(shape__outline* o, double r, double y) {
    if (o->n > 0 && fabs(o->p[2 * o->n - 2] - r) < 1e-6 && fabs(o->p[2 * o->n - 1] - y) < 1e-6) return;   /* arcs meet */
    if (o->n >= 64) return;   /* the pieces below stay far under; shape_lathe would refuse a clipped outline */
    o->p[2 * o->n] = (float)r;
    o->p[2 * o->n + 1] = (float)y;
    ++o->n;
}

/* Points on the ellipse (cr + ar sin t, cy - ay cos t), t from t0 to t1 in steps, both ends
   included (a start on the last point is not repeated): t = 0 is the ellipse's bottom, pi/2 its
   outermost point, pi its top. */
static inline void shape__arc(shape__outline* o, double cr, double cy, double ar, double ay, double t0, double t1,
                              int steps) {
    int s;
    for (s = 0; s <= steps; ++s) {
        double t = t0 + (t1 - t0) * s / steps;
        double r = cr + ar * sin(t);
        shape__point(o, s == steps && t1 == SHAPE_PI && cr == 0.0 ? 0.0 : r, cy - ay * cos(t));
    }
}

/* The foot the three pieces share: a wide disc with a rounded rim and a bead above it, up to
   the start of the stem at radius stem (height 0.19). Radius 0.25: the piece is two of its
   widths tall. */
static inline void shape__foot(shape__outline* o, double stem) {
    shape__point(o, 0.0, 0.0);
    shape__point(o, 0.25, 0.0);
    shape__point(o, 0.25, 0.045);
    shape__arc(o, 0.215, 0.045, 0.035, 0.035, SHAPE_PI / 2, SHAPE_PI, 3);   /* rounded rim, in to 0.215 */
    shape__arc(o, 0.19, 0.115, 0.03, 0.03, 0.0, SHAPE_PI, 4);              /* the bead */
    shape__point(o, stem, 0.19);
}

/* Scales an outline to height metres and revolves it. */
static inline int shape__piece(const shape__outline* o, float height, shape_mesh* out) {
    float p[2 * 64];
    uint32_t i;
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!(height > 0.0f) || !shape__finite(height)) return SHAPE_BAD_ARGUMENT;
    for (i = 0; i < 2 * o->n; ++i) p[i] = o->p[i] * height;
    return shape_lathe(p, o->n, SHAPE_PIECE_SEGMENTS, out);
}

/* Chess-piece-like solids of revolution, height metres tall and about half as wide (the foot's
   diameter), standing on y = 0 with their axis along y. Each is a shape_lathe of
   SHAPE_PIECE_SEGMENTS segments, with its layout. A pawn: foot, tapering stem, collar, ball. */
static inline int shape_pawn(float height, shape_mesh* out) {
    shape__outline o;
    o.n = 0;
    shape__foot(&o, 0.14);
    shape__point(&o, 0.105, 0.28);
    shape__point(&o, 0.085, 0.40);
    shape__point(&o, 0.075, 0.52);
    shape__arc(&o, 0.075, 0.565, 0.065, 0.035, 0.0, SHAPE_PI, 4);   /* collar, out to 0.14 */
    shape__point(&o, 0.065, 0.63);
    shape__arc(&o, 0.0, 0.84, 0.16, 0.16, asin(0.065 / 0.16), SHAPE_PI, 10);   /* the ball, top at 1 */
    return shape__piece(&o, height, out);
}

/* A rook: foot, a thick straight tower, a collar, and a wide crown hollowed into a cup (a lathe
   cannot cut crenellations; the cup reads as the battlements' inside). */
static inline int shape_rook(float height, shape_mesh* out) {
    shape__outline o;
    o.n = 0;
    shape__foot(&o, 0.175);
    shape__point(&o, 0.15, 0.26);
    shape__arc(&o, 0.135, 0.69, 0.04, 0.03, 0.0, SHAPE_PI, 4);   /* collar, out to 0.175 */
    shape__point(&o, 0.15, 0.75);
    shape__point(&o, 0.19, 0.80);
    shape__point(&o, 0.19, 1.0);    /* the crown's rim */
    shape__point(&o, 0.135, 1.0);
    shape__point(&o, 0.135, 0.90);  /* the cup's wall and floor */
    shape__point(&o, 0.0, 0.90);
    return shape__piece(&o, height, out);
}

/* A bishop: foot, slender stem, collar, a tall pointed mitre (an egg, narrow end up) and a small
   ball on top. */
static inline int shape_bishop(float height, shape_mesh* out) {
    shape__outline o;
    o.n = 0;
    shape__foot(&o, 0.13);
    shape__point(&o, 0.095, 0.28);
    shape__point(&o, 0.075, 0.40);
    shape__point(&o, 0.065, 0.50);
    shape__arc(&o, 0.065, 0.54, 0.065, 0.03, 0.0, SHAPE_PI, 4);   /* collar, out to 0.13 */
    shape__point(&o, 0.06, 0.58);
    /* the mitre: lower half of an ellipse 0.125 wide, then a longer, narrower upper half */
    shape__arc(&o, 0.0, 0.70, 0.125, 0.10, asin(0.06 / 0.125), SHAPE_PI / 2, 4);
    shape__arc(&o, 0.0, 0.70, 0.125, 0.22, SHAPE_PI / 2, SHAPE_PI * 0.86, 5);
    shape__arc(&o, 0.0, 0.96, 0.04, 0.04, asin(0.02 / 0.04), SHAPE_PI, 5);   /* the ball, top at 1 */
    return shape__piece(&o, height, out);
}

/* ============================================================================================== */
/* >>torus                                                                                         */
/* ============================================================================================== */

/* A torus about y, centred on the origin: the tube's centre circle has major_radius, the tube
   minor_radius (0 < minor < major, metres). Vertex i * segments_minor + j is at angle
   2 pi i / segments_major around y (from +x towards +z) and 2 pi j / segments_minor around the
   tube (from its outer equator, upwards). The volume is 2 pi^2 R r^2 times
   f(segments_major) f(segments_minor), f(n) = n sin(2 pi / n) / (2 pi): an inscribed regular
   polygon tube, revolved as a lathe is. Both counts >= SHAPE_MIN_SEGMENTS. */
static inline int shape_torus(float major_radius, float minor_radius, uint32_t segments_major, uint32_t segments_minor,
                              shape_mesh* out) {
    uint32_t i, j, *t;
    int result;
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!shape__finite(major_radius) || !(minor_radius > 0.0f) || !(minor_radius < major_radius) ||
        segments_major < SHAPE_MIN_SEGMENTS || segments_minor < SHAPE_MIN_SEGMENTS)
        return SHAPE_BAD_ARGUMENT;
    result = shape__mesh_alloc(out, (uint64_t)segments_major * segments_minor, (uint64_t)2 * segments_major * segments_minor);
    if (result != SHAPE_OK) return result;
    for (i = 0; i < segments_major; ++i) {
        double around = 2.0 * SHAPE_PI * i / segments_major;
        for (j = 0; j < segments_minor; ++j) {
            double tube = 2.0 * SHAPE_PI * j / segments_minor;
            double r = major_radius + minor_radius * cos(tube);
            float* x = out->vertices + 3 * ((size_t)i * segments_minor + j);
            x[0] = (float)(r * cos(around));
            x[1] = (float)(minor_radius * sin(tube));
            x[2] = (float)(r * sin(around));
        }
    }
    /* The tube's section runs counter-clockwise in (radius, height), as a lathe profile does. */
    t = out->indices;
    for (i = 0; i < segments_major; ++i)
        for (j = 0; j < segments_minor; ++j) {
            uint32_t i1 = (i + 1) % segments_major, j1 = (j + 1) % segments_minor;
            t = shape__quad(t, i * segments_minor + j, i1 * segments_minor + j, i1 * segments_minor + j1,
                            i * segments_minor + j1);
        }
    return SHAPE_OK;
}

/* ============================================================================================== */
/* >>box                                                                                           */
/* ============================================================================================== */

/* An axis-aligned box centred on the origin, half_extents[3] > 0 metres: 8 vertices (vertex
   x + 2y + 4z, a bit set meaning the + side), 12 triangles, volume 8 hx hy hz exactly. */
static inline int shape_box(const float half_extents[3], shape_mesh* out) {
    /* each face's corners counter-clockwise seen from outside: -x +x -y +y -z +z */
    static const uint8_t faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    uint32_t v, f, k;
    int result;
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!half_extents) return SHAPE_BAD_ARGUMENT;
    for (k = 0; k < 3; ++k)
        if (!(half_extents[k] > 0.0f) || !shape__finite(half_extents[k])) return SHAPE_BAD_ARGUMENT;
    result = shape__mesh_alloc(out, 8, 12);
    if (result != SHAPE_OK) return result;
    for (v = 0; v < 8; ++v)
        for (k = 0; k < 3; ++k) out->vertices[3 * v + k] = (v >> k & 1) ? half_extents[k] : -half_extents[k];
    for (f = 0; f < 6; ++f) {
        const uint8_t* q = faces[f];
        uint32_t* t = out->indices + 6 * f;
        t[0] = q[0]; t[1] = q[1]; t[2] = q[2];
        t[3] = q[0]; t[4] = q[2]; t[5] = q[3];
    }
    return SHAPE_OK;
}

/* An open box, a square glass: outside size[0] x size[1] x size[2] metres (x, y, z), its bottom's
   centre on the origin, standing on y = 0 and open at the top; its four walls and its bottom are
   wall metres thick (2 wall < size[0] and size[2], wall < size[1]). 16 vertices, four corners
   each on four rings: outer bottom (0-3), outer rim (4-7), inner rim (8-11), inner bottom
   (12-15), corner c at (-x, -z), (+x, -z), (+x, +z), (-x, +z) for c = 0 to 3; 28 triangles.
   Volume exactly size[0] size[1] size[2] less the cavity's (size[0] - 2 wall) (size[1] - wall)
   (size[2] - 2 wall). With size and wall whole multiples of a voxel and the voxels aligned with
   the origin, every face lies between voxel centres, so voxelizing it loses no wall. */
static inline int shape_open_box(const float size[3], float wall, shape_mesh* out) {
    static const float corner[4][2] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};
    uint32_t ring, c, *t;
    int result;
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!size || !shape__finite(wall) || !(wall > 0.0f)) return SHAPE_BAD_ARGUMENT;
    for (c = 0; c < 3; ++c)
        if (!shape__finite(size[c]) || !((c == 1 ? 1.0f : 2.0f) * wall < size[c])) return SHAPE_BAD_ARGUMENT;
    result = shape__mesh_alloc(out, 16, 28);
    if (result != SHAPE_OK) return result;
    for (ring = 0; ring < 4; ++ring)
        for (c = 0; c < 4; ++c) {
            float* v = out->vertices + 3 * (4 * ring + c);
            float inset = ring < 2 ? 0.0f : wall;
            v[0] = corner[c][0] * (0.5f * size[0] - inset);
            v[1] = ring == 0 ? 0.0f : ring == 3 ? wall : size[1];
            v[2] = corner[c][1] * (0.5f * size[2] - inset);
        }
    t = out->indices;
    t[0] = 0; t[1] = 1; t[2] = 2; t[3] = 0; t[4] = 2; t[5] = 3;   /* outer bottom, facing down */
    t += 6;
    for (c = 0; c < 4; ++c) {
        uint32_t n = (c + 1) % 4;
        t = shape__quad(t, c, n, 4 + n, 4 + c);           /* outer side */
        t = shape__quad(t, 4 + c, 4 + n, 8 + n, 8 + c);   /* rim */
        t = shape__quad(t, 8 + c, 8 + n, 12 + n, 12 + c); /* inner side */
    }
    t[0] = 12; t[1] = 14; t[2] = 13; t[3] = 12; t[4] = 15; t[5] = 14;   /* inner bottom, facing up */
    return SHAPE_OK;
}

/* ============================================================================================== */
/* >>sphere                                                                                        */
/* ============================================================================================== */

/* A UV sphere centred on the origin, poles on y: stacks bands from pole to pole
   (>= SHAPE_MIN_STACKS), slices around (>= SHAPE_MIN_SEGMENTS); the lathe of a half polygon, so
   with shape_lathe's layout and volume ratio. Every vertex is on the sphere: the mesh lies
   between the sphere and the sphere scaled by cos(pi / (2 stacks)) cos(pi / slices). */
static inline int shape_uv_sphere(float radius, uint32_t stacks, uint32_t slices, shape_mesh* out) {
    float* profile;
    uint32_t k;
    int result;
    if (!out) return SHAPE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!(radius > 0.0f) || !shape__finite(radius) || stacks < SHAPE_MIN_STACKS || slices < SHAPE_MIN_SEGMENTS ||
        stacks >= UINT32_MAX / 2)
        return SHAPE_BAD_ARGUMENT;
    profile = (float*)SHAPE_MALLOC(((size_t)stacks + 1) * 2 * sizeof(float));
    if (!profile) return SHAPE_OUT_OF_MEMORY;
    for (k = 0; k <= stacks; ++k) {
        double polar = SHAPE_PI * k / stacks;   /* from the bottom pole */
        profile[2 * k] = k == 0 || k == stacks ? 0.0f : (float)(radius * sin(polar));
        profile[2 * k + 1] = k == 0 ? -radius : k == stacks ? radius : (float)(-radius * cos(polar));
    }
    result = shape__revolve(profile, stacks + 1, slices, out);
    SHAPE_FREE(profile);
    return result;
}

#endif /* SHAPES_H_INCLUDED */
