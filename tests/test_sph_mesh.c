/* test_sph_mesh.c: closed triangle meshes as walls (GP_SHAPE_MESH), through the public API on the
   GPU, against the analytic shapes the meshes approximate:
     - gp_boundary_distance_read of an odd UV sphere and of a rotated, subdivided cube, as obstacles
       and as tanks, at random points inside, outside, near the surface and beyond the field;
       the cube again as an unwelded soup with every other triangle reversed;
     - fluid dropped onto a sphere mesh in a tank that is a box mesh: after every substep no
       particle is in either wall, nor nearer to it than the push's rest distance (distances
       computed on the CPU from the sphere and the box), ids and masses conserved, and the fluid
       flowed round the sphere;
     - bad meshes refused with a result and a message, adding nothing (not even host memory).
   The meshes, and a brute-force distance to them, are built here; the library makes each mesh a
   distance field on the host (>>sph, gp__mesh_field_build) that the GPU interpolates. */
#include "fixture.h"
#include <math.h>

#define MESH_PI 3.14159265358979323846

/* ---- meshes ---------------------------------------------------------------------------------- */

typedef struct mesh_data { float* v; uint32_t* t; uint32_t nv, nt; } mesh_data;

static mesh_data mesh_new(uint32_t nv, uint32_t nt) {
    mesh_data m;
    m.v = (float*)calloc((size_t)nv * 3 + 1, sizeof(float));
    m.t = (uint32_t*)calloc((size_t)nt * 3 + 1, sizeof(uint32_t));
    m.nv = nv;
    m.nt = nt;
    return m;
}

static void mesh_free(mesh_data* m) { free(m->v); free(m->t); }

static void mesh_triangle(mesh_data* m, uint32_t i, uint32_t a, uint32_t b, uint32_t c) {
    m->t[3 * i] = a; m->t[3 * i + 1] = b; m->t[3 * i + 2] = c;
}

/* A rigid motion: x -> rotation x + centre. */
typedef struct mesh_pose { double rotation[3][3], centre[3]; } mesh_pose;

/* Rz(az) Ry(ay) Rx(ax), then the centre. */
static mesh_pose mesh_pose_make(double ax, double ay, double az, double cx, double cy, double cz) {
    mesh_pose p;
    p.rotation[0][0] = cos(az) * cos(ay);
    p.rotation[0][1] = cos(az) * sin(ay) * sin(ax) - sin(az) * cos(ax);
    p.rotation[0][2] = cos(az) * sin(ay) * cos(ax) + sin(az) * sin(ax);
    p.rotation[1][0] = sin(az) * cos(ay);
    p.rotation[1][1] = sin(az) * sin(ay) * sin(ax) + cos(az) * cos(ax);
    p.rotation[1][2] = sin(az) * sin(ay) * cos(ax) - cos(az) * sin(ax);
    p.rotation[2][0] = -sin(ay);
    p.rotation[2][1] = cos(ay) * sin(ax);
    p.rotation[2][2] = cos(ay) * cos(ax);
    p.centre[0] = cx; p.centre[1] = cy; p.centre[2] = cz;
    return p;
}

/* Local coordinates (the shape's frame) of a world point: rotation^T (x - centre). */
static void mesh_to_local(const mesh_pose* p, const double x[3], double q[3]) {
    int a;
    for (a = 0; a < 3; ++a)
        q[a] = p->rotation[0][a] * (x[0] - p->centre[0]) + p->rotation[1][a] * (x[1] - p->centre[1]) +
               p->rotation[2][a] * (x[2] - p->centre[2]);
}

static void mesh_set_vertex(mesh_data* m, uint32_t i, const mesh_pose* p, const double q[3]) {
    int a;
    for (a = 0; a < 3; ++a)
        m->v[3 * i + a] = (float)(p->centre[a] + p->rotation[a][0] * q[0] + p->rotation[a][1] * q[1] + p->rotation[a][2] * q[2]);
}

/* The box [-half, half] of the pose, each face an n x n grid of quads cut into two triangles,
   counter-clockwise seen from outside. Vertices are the (n+1)^3 lattice (the inner ones unused),
   so faces meeting at an edge share its vertices: the mesh is closed. */
static mesh_data mesh_box(const double half[3], uint32_t n, const mesh_pose* pose) {
    const uint32_t L = n + 1;
    mesh_data m = mesh_new(L * L * L, 12 * n * n);
    uint32_t i, j, k, axis, side, t = 0;
    for (k = 0; k < L; ++k)
        for (j = 0; j < L; ++j)
            for (i = 0; i < L; ++i) {
                double q[3];
                q[0] = half[0] * (2.0 * i / n - 1.0);
                q[1] = half[1] * (2.0 * j / n - 1.0);
                q[2] = half[2] * (2.0 * k / n - 1.0);
                mesh_set_vertex(&m, i + L * (j + L * k), pose, q);
            }
    for (axis = 0; axis < 3; ++axis)
        for (side = 0; side < 2; ++side)
            for (j = 0; j < n; ++j)
                for (i = 0; i < n; ++i) {
                    /* (axis, u, v) is cyclic, so e_u x e_v = e_axis: (00, 10, 11) is counter-clockwise
                       seen from the + side */
                    uint32_t c[4], corner;
                    for (corner = 0; corner < 4; ++corner) {
                        uint32_t g[3];
                        g[axis] = side ? n : 0;
                        g[(axis + 1) % 3] = i + (corner == 1 || corner == 2);
                        g[(axis + 2) % 3] = j + (corner >= 2);
                        c[corner] = g[0] + L * (g[1] + L * g[2]);
                    }
                    if (side) { mesh_triangle(&m, t++, c[0], c[1], c[2]); mesh_triangle(&m, t++, c[0], c[2], c[3]); }
                    else { mesh_triangle(&m, t++, c[0], c[2], c[1]); mesh_triangle(&m, t++, c[0], c[3], c[2]); }
                }
    return m;
}

/* A UV sphere of radius r at the pose: poles on its z axis, seg vertices per ring, stacks bands,
   2 seg (stacks - 1) triangles, counter-clockwise seen from outside. */
static mesh_data mesh_uv_sphere(double r, uint32_t seg, uint32_t stacks, const mesh_pose* pose) {
    mesh_data m = mesh_new(2 + seg * (stacks - 1), 2 * seg * (stacks - 1));
    uint32_t i, j, t = 0;
    double q[3] = {0.0, 0.0, r};
    mesh_set_vertex(&m, 0, pose, q);
    q[2] = -r;
    mesh_set_vertex(&m, 1, pose, q);
    for (j = 1; j < stacks; ++j)
        for (i = 0; i < seg; ++i) {
            double th = MESH_PI * j / stacks, ph = 2.0 * MESH_PI * i / seg;
            q[0] = r * sin(th) * cos(ph);
            q[1] = r * sin(th) * sin(ph);
            q[2] = r * cos(th);
            mesh_set_vertex(&m, 2 + (j - 1) * seg + i, pose, q);
        }
    for (i = 0; i < seg; ++i) {
        uint32_t i1 = (i + 1) % seg;
        mesh_triangle(&m, t++, 0, 2 + i, 2 + i1);
        for (j = 1; j + 1 < stacks; ++j) {
            uint32_t a = 2 + (j - 1) * seg + i, b = 2 + (j - 1) * seg + i1, c = a + seg, d = b + seg;
            mesh_triangle(&m, t++, a, c, d);
            mesh_triangle(&m, t++, a, d, b);
        }
        mesh_triangle(&m, t++, 1, 2 + (stacks - 2) * seg + i1, 2 + (stacks - 2) * seg + i);
    }
    return m;
}

/* The same surface as a triangle soup: every triangle with its own three vertices, every other
   one wound the other way. The header builds the same field from it (welding and orientation do
   not matter to it). */
static mesh_data mesh_soup(const mesh_data* src) {
    mesh_data m = mesh_new(3 * src->nt, src->nt);
    uint32_t i, k;
    for (i = 0; i < src->nt; ++i)
        for (k = 0; k < 3; ++k) {
            uint32_t from = src->t[3 * i + ((i & 1) ? 2 - k : k)];
            memcpy(m.v + 3 * (3 * i + k), src->v + 3 * from, 3 * sizeof(float));
            m.t[3 * i + k] = 3 * i + k;
        }
    return m;
}

/* ---- distances on the CPU -------------------------------------------------------------------- */

static double mesh_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double mesh_segment_dist2(const double p[3], const double a[3], const double b[3]) {
    double ab[3], ap[3], d[3], s, l2;
    int k;
    for (k = 0; k < 3; ++k) { ab[k] = b[k] - a[k]; ap[k] = p[k] - a[k]; }
    l2 = mesh_dot(ab, ab);
    s = l2 > 0.0 ? mesh_dot(ap, ab) / l2 : 0.0;
    s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    for (k = 0; k < 3; ++k) d[k] = p[k] - (a[k] + s * ab[k]);
    return mesh_dot(d, d);
}

/* Squared distance from p to a triangle: the plane's when p projects inside it, else the nearest
   edge's (a different method from the header's Voronoi regions; from the scratch suite). */
static double mesh_triangle_dist2(const double p[3], const double* v[3]) {
    double ab[3], ac[3], n[3], ap[3], q[3], nn, s, best, d;
    int k, e, inside = 1;
    for (k = 0; k < 3; ++k) { ab[k] = v[1][k] - v[0][k]; ac[k] = v[2][k] - v[0][k]; ap[k] = p[k] - v[0][k]; }
    n[0] = ab[1] * ac[2] - ab[2] * ac[1];
    n[1] = ab[2] * ac[0] - ab[0] * ac[2];
    n[2] = ab[0] * ac[1] - ab[1] * ac[0];
    nn = mesh_dot(n, n);
    if (nn > 1e-30) {
        s = mesh_dot(ap, n) / nn;
        for (k = 0; k < 3; ++k) q[k] = p[k] - s * n[k];
        for (e = 0; e < 3; ++e) {
            const double *a = v[e], *b = v[(e + 1) % 3];
            double ed[3], f[3], g[3];
            for (k = 0; k < 3; ++k) { ed[k] = b[k] - a[k]; f[k] = q[k] - a[k]; }
            g[0] = ed[1] * f[2] - ed[2] * f[1];
            g[1] = ed[2] * f[0] - ed[0] * f[2];
            g[2] = ed[0] * f[1] - ed[1] * f[0];
            if (mesh_dot(g, n) < 0.0) inside = 0;
        }
        if (inside) return s * s * nn;
    }
    best = mesh_segment_dist2(p, v[0], v[1]);
    d = mesh_segment_dist2(p, v[1], v[2]); if (d < best) best = d;
    d = mesh_segment_dist2(p, v[2], v[0]); if (d < best) best = d;
    return best;
}

/* Unsigned distance from p to the mesh, by brute force. */
static double mesh_distance(const mesh_data* m, const double p[3]) {
    double best = INFINITY, x[3][3];
    const double* v[3];
    uint32_t i;
    int c, k;
    for (i = 0; i < m->nt; ++i) {
        for (c = 0; c < 3; ++c) {
            for (k = 0; k < 3; ++k) x[c][k] = m->v[3 * m->t[3 * i + c] + k];
            v[c] = x[c];
        }
        best = fmin(best, mesh_triangle_dist2(p, v));
    }
    return sqrt(best);
}

static double mesh_sphere_sdf(const double p[3], const double c[3], double r) {
    double d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    return sqrt(mesh_dot(d, d)) - r;
}

/* The signed distance to the box [-half, half] of the pose; *linear_within receives the radius
   of the ball around p on which that distance is one linear function (one face's plane), 0 where
   p is at a crease (edges, corners, the inside's medial planes). */
static double mesh_box_sdf(const double p[3], const mesh_pose* pose, const double half[3], double* linear_within) {
    double q[3], e[3], out = 0.0, first = -INFINITY, second = -INFINITY, margin;
    int a, k = 0;
    mesh_to_local(pose, p, q);
    for (a = 0; a < 3; ++a) {
        e[a] = fabs(q[a]) - half[a];
        if (e[a] > 0.0) out += e[a] * e[a];
        if (e[a] > first) { second = first; first = e[a]; k = a; }
        else if (e[a] > second) second = e[a];
    }
    /* face k's plane holds on the ball of radius R when every other e_j + R <= min(e_k - R, 0),
       and q_k keeps its sign there */
    margin = fmin(0.5 * (first - second), -second);
    margin = fmin(margin, fabs(q[k]));
    if (linear_within) *linear_within = margin > 0.0 ? margin : 0.0;
    return first > 0.0 ? sqrt(out) : first;
}

/* ---- helpers ---------------------------------------------------------------------------------- */

/* A uniform random number in [0, 1). */
static double mesh_unit(uint64_t* state) { return (double)(fixture_random(state) >> 11) * 0x1p-53; }

/* A host allocator that counts live blocks: what the library keeps, and what a refusal leaks. */
typedef struct mesh_heap { long live; } mesh_heap;
static void* mesh_heap_alloc(size_t size, void* user) {
    mesh_heap* h = (mesh_heap*)user;
    void* p = malloc(size);
    if (p) ++h->live;
    return p;
}
static void mesh_heap_free(void* p, void* user) {
    mesh_heap* h = (mesh_heap*)user;
    if (p) --h->live;
    free(p);
}

/* A world with cells of 0.05 m (default material: spacing 0.025, re 0.05; default voxel 0.025)
   whose host memory goes through heap. */
static gp_world* mesh_world(uint32_t capacity, mesh_heap* heap) {
    gp_world_desc d;
    memset(&d, 0, sizeof d);
    d.max_particles = capacity;
    d.grid.cell_size = 0.05f;
    d.allocator.alloc = mesh_heap_alloc;
    d.allocator.free = mesh_heap_free;
    d.allocator.user_data = heap;
    return fixture_world(&d);
}

static gp_collider_desc mesh_desc(const mesh_data* m, int inside) {
    gp_collider_desc c;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_MESH;
    c.vertices = m->v;
    c.vertex_count = m->nv;
    c.triangles = m->t;
    c.triangle_count = m->nt;
    c.inside = inside != 0;
    return c;
}

/* ---- gp_boundary_distance_read against the analytic shapes ------------------------------------------ */

#define MESH_VOXEL 0.025      /* the default: half the cell */
#define MESH_RE 0.05          /* the default material's smoothing radius: the field covers at least this */
#define MESH_FLOAT_SLACK 2e-5 /* metres: float positions and samples (~1e-7 relative) and the GPU's sums */
enum { MESH_NEAR, MESH_INSIDE, MESH_OUTSIDE, MESH_BEYOND, MESH_BINS };
static const char* const mesh_bin_names[MESH_BINS] = {"near the surface", "inside", "outside", "beyond the field"};
static const uint32_t mesh_bin_size[MESH_BINS] = {1500, 600, 600, 300};
#define MESH_POINTS 3000

/* The shape a mesh approximates: an analytic signed distance (negative inside). */
typedef struct mesh_shape {
    const char* name;
    int is_box;
    mesh_pose pose;
    double size;      /* sphere radius, or the cube's half side */
    double half[3];   /* the cube's: size, size, size */
    double faceting;  /* sphere: r - (distance from the centre to the mesh), the most the mesh's
                         distance can exceed the sphere's anywhere; cube: 0 */
} mesh_shape;

static double mesh_shape_sdf(const mesh_shape* s, const double p[3], double* linear_within) {
    if (s->is_box) return mesh_box_sdf(p, &s->pose, s->half, linear_within);
    if (linear_within) *linear_within = 0.0;
    return mesh_sphere_sdf(p, s->pose.centre, s->size);
}

/* How far the GPU's distance may be from the analytic one at p (d the analytic distance), and why:
     - the mesh is not the shape: a sphere mesh's distance lies in [sdf, sdf + faceting] (its
       facets lie between the inscribed ball and the sphere); the cube mesh is the cube;
     - the field's samples are exact within 3 voxels of the surface, at most 0.08 voxel above the
       truth beyond (header's contract; 0.1 voxel allowed) where a cell corner (sqrt(3) voxels away)
       may be beyond the band;
     - trilinear interpolation between samples: zero where the shape's distance is one linear
       function over the cell (a cube's face region: every sample within sqrt(3) voxels of p is on
       that plane); for the sphere's smooth distance |x - c| - r, whose Hessian has trace 2 / |x - c|,
       at most h^2 / 8 per axis times the second derivative: h^2 / (4 rho) with rho the least
       |x - c| over the cell; and for any 1-Lipschitz function at most the weighted mean distance
       to the corners, sqrt(3) h / 2 at most: the bound used at a cube's creases;
     - MESH_FLOAT_SLACK. */
static double mesh_tolerance(const mesh_shape* s, const double p[3], double d, double linear_within) {
    const double h = MESH_VOXEL, reach = sqrt(3.0) * h;
    double tol = s->faceting + MESH_FLOAT_SLACK, interpolation = 0.5 * reach;
    if (fabs(d) > 3.0 * h - reach) tol += 0.1 * h;
    if (s->is_box) {
        if (linear_within >= reach) interpolation = 0.0;
    } else {
        double rho = mesh_sphere_sdf(p, s->pose.centre, 0.0) - reach;
        if (rho > 0.0) interpolation = fmin(interpolation, h * h / (4.0 * rho));
    }
    return tol + interpolation;
}

typedef struct mesh_points {
    float xyz[3 * MESH_POINTS];
    double sdf[MESH_POINTS], tol[MESH_POINTS];
    int bin[MESH_POINTS];
    uint32_t count, exact;   /* exact: points where the tolerance has no interpolation term */
} mesh_points;

/* Points at random around the shape until each bin is full: near, |d| <= 1.5 voxels; inside;
   outside within re of the surface (the field's documented reach); beyond that, up to 0.4 m. */
static void mesh_points_make(const mesh_shape* s, uint64_t seed, mesh_points* pts) {
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 5;
    uint32_t filled[MESH_BINS] = {0, 0, 0, 0}, guard;
    const double reach = (s->is_box ? sqrt(3.0) : 1.0) * s->size + 0.4;
    memset(pts, 0, sizeof *pts);
    for (guard = 0; pts->count < MESH_POINTS && guard < 50000000u; ++guard) {
        double p[3], d, linear;
        int a, bin;
        for (a = 0; a < 3; ++a) p[a] = s->pose.centre[a] + reach * (2.0 * mesh_unit(&state) - 1.0);
        for (a = 0; a < 3; ++a) p[a] = (float)p[a];   /* the point the GPU sees */
        d = mesh_shape_sdf(s, p, &linear);
        bin = fabs(d) <= 1.5 * MESH_VOXEL ? MESH_NEAR : d < 0.0 ? MESH_INSIDE : d <= MESH_RE ? MESH_OUTSIDE
            : d <= 0.4 ? MESH_BEYOND : -1;
        if (bin < 0 || filled[bin] == mesh_bin_size[bin]) continue;
        ++filled[bin];
        for (a = 0; a < 3; ++a) pts->xyz[3 * pts->count + a] = (float)p[a];
        pts->sdf[pts->count] = d;
        pts->tol[pts->count] = mesh_tolerance(s, p, d, linear);
        pts->exact += pts->tol[pts->count] < 0.1 * MESH_VOXEL;
        pts->bin[pts->count++] = bin;
    }
    CHECKF(pts->count == MESH_POINTS, "%s: only %u points drawn", s->name, pts->count);
}

/* Compares the GPU's distances with side * the shape's (side -1: a tank). Within the field both
   ways; beyond it one way: the header extends the field by the distance to it, which can only
   overestimate (never put a wall nearer than it is), and the sign must hold. */
static void mesh_compare(const mesh_shape* s, const mesh_points* pts, const float* gpu, double side, const char* what) {
    double worst[MESH_BINS] = {0, 0, 0, 0}, worst_exact = 0.0;
    uint32_t bad = 0, k;
    for (k = 0; k < pts->count; ++k) {
        double want = side * pts->sdf[k], e = gpu[k] - want, ratio;
        int b = pts->bin[k], ok;
        if (b == MESH_BEYOND) {
            e = -side * e;   /* how far the GPU puts the wall nearer than the shape */
            ok = e <= pts->tol[k] && (gpu[k] > 0.0f) == (side > 0.0);
        } else {
            ok = fabs(e) <= pts->tol[k] && (fabs(want) <= pts->tol[k] || (gpu[k] > 0.0f) == (want > 0.0));
        }
        ratio = (b == MESH_BEYOND ? fmax(e, 0.0) : fabs(e)) / pts->tol[k];
        if (!(ratio <= worst[b])) worst[b] = ratio;
        if (pts->tol[k] < 0.1 * MESH_VOXEL && !(fabs(e) <= worst_exact)) worst_exact = fabs(e);
        if (!ok && bad++ < 4)
            fprintf(stderr, "    %s, %s: at (%.6g %.6g %.6g) (%s): GPU %.7g m, shape %.7g m, tolerance %.3g m\n", s->name, what,
                    pts->xyz[3 * k], pts->xyz[3 * k + 1], pts->xyz[3 * k + 2], mesh_bin_names[b], gpu[k], want, pts->tol[k]);
    }
    CHECKF(bad == 0, "%s, %s: %u of %u distances off the shape's by more than their tolerance", s->name, what, bad, pts->count);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    %s, %s: largest |error| / tolerance: near %.3f, inside %.3f, outside %.3f, beyond %.3f (one-sided); "
                "%u points where the field is exact: largest |error| %.2e m\n", s->name, what, worst[MESH_NEAR],
                worst[MESH_INSIDE], worst[MESH_OUTSIDE], worst[MESH_BEYOND], pts->exact, worst_exact);
}

/* Adds the mesh with inside = side < 0, evaluates the points, compares, removes it: the world's
   host memory is back where it was and the boundary is empty again. gpu receives the distances. */
static void mesh_evaluate(gp_world* w, mesh_heap* heap, const mesh_data* m, const mesh_shape* s, const mesh_points* pts,
                          double side, const char* what, float* gpu) {
    gp_collider_desc c = mesh_desc(m, side < 0.0);
    gp_collider handle;
    long live = heap->live;
    float probe = 0.0f;
    CHECKF(gp_collider_add(w, &c, &handle) == GP_OK && handle.id != 0, "%s, %s: gp_collider_add: %s", s->name, what, fixture_log);
    CHECKF(heap->live == live + 1, "%s: the field holds %ld host blocks (1 expected)", s->name, heap->live - live);
    CHECK(gp_boundary_distance_read(w, pts->xyz, pts->count, gpu) == GP_OK);
    mesh_compare(s, pts, gpu, side, what);
    CHECK(gp_collider_remove(w, handle) == GP_OK);
    CHECKF(heap->live == live, "%s: %ld host blocks left after gp_collider_remove", s->name, heap->live - live);
    CHECK(gp_boundary_distance_read(w, pts->xyz, 1, &probe) == GP_OK);
    CHECKF(probe > 1e38f, "%s: with the mesh removed the boundary is at %g m (none expected)", s->name, probe);
}

/* gp_boundary_distance_read of two meshes, each as an obstacle (inside = false) and as a tank (true),
   against the analytic shape at 3,000 random points (see mesh_tolerance for each point's
   tolerance):
     - a UV sphere, r 0.11 m, 19 segments x 11 stacks, tilted and off the grid: faceting 0.0026 m;
     - a cube, half side 0.1855 m (not a whole number of voxels), each face 3 x 3 quads, rotated
       about all three axes and off the grid: exact where the box's distance is one plane over
       the cell around the point (there the GPU must agree to MESH_FLOAT_SLACK).
   A tank's distances are the obstacle's negated, bit for bit; the cube as an unwelded soup with
   mixed winding gives the same distances (1e-6 m). */
static void test_sph_mesh_boundary_distance(void) {
    mesh_heap heap = {0};
    gp_world* w = mesh_world(100, &heap);
    mesh_shape shapes[2];
    mesh_data meshes[2];
    mesh_points* pts = (mesh_points*)malloc(sizeof *pts);
    float *out = (float*)malloc(MESH_POINTS * sizeof(float)), *in = (float*)malloc(MESH_POINTS * sizeof(float));
    float* soup_out = (float*)malloc(MESH_POINTS * sizeof(float));
    uint32_t s, k;
    if (!w) { free(pts); free(out); free(in); free(soup_out); return; }
    memset(shapes, 0, sizeof shapes);
    shapes[0].name = "sphere mesh";
    shapes[0].pose = mesh_pose_make(0.3, -0.5, 0.2, 0.0137, -0.0071, 0.0093);
    shapes[0].size = 0.11;
    meshes[0] = mesh_uv_sphere(shapes[0].size, 19, 11, &shapes[0].pose);
    shapes[0].faceting = shapes[0].size - mesh_distance(&meshes[0], shapes[0].pose.centre);
    shapes[1].name = "cube mesh";
    shapes[1].is_box = 1;
    shapes[1].pose = mesh_pose_make(0.7, 0.4, 1.1, -0.0123, 0.0217, 0.0071);
    shapes[1].size = 0.1855;
    shapes[1].half[0] = shapes[1].half[1] = shapes[1].half[2] = shapes[1].size;
    meshes[1] = mesh_box(shapes[1].half, 3, &shapes[1].pose);
    CHECKF(shapes[0].faceting > 0.0 && shapes[0].faceting < 0.2 * MESH_VOXEL, "the sphere mesh's faceting %.4g m", shapes[0].faceting);
    for (s = 0; s < 2; ++s) {
        uint32_t differ = 0;
        mesh_points_make(&shapes[s], 17 + s, pts);
        mesh_evaluate(w, &heap, &meshes[s], &shapes[s], pts, 1.0, "obstacle", out);
        mesh_evaluate(w, &heap, &meshes[s], &shapes[s], pts, -1.0, "tank", in);
        for (k = 0; k < pts->count; ++k) differ += in[k] != -out[k];
        CHECKF(differ == 0, "%s: %u of %u tank distances are not the obstacle's negated", shapes[s].name, differ, pts->count);
        if (s == 1) {
            mesh_data soup = mesh_soup(&meshes[1]);
            double diff = 0.0;
            mesh_evaluate(w, &heap, &soup, &shapes[1], pts, 1.0, "obstacle, unwelded mixed-winding soup", soup_out);
            for (k = 0; k < pts->count; ++k) diff = fabs((double)soup_out[k] - out[k]) > diff ? fabs((double)soup_out[k] - out[k]) : diff;
            CHECKF(diff <= 1e-6, "the cube as a soup differs from the welded cube by up to %.3g m", diff);
            mesh_free(&soup);
        }
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    sphere mesh faceting %.5f m (voxel %g m)\n", shapes[0].faceting, MESH_VOXEL);
    mesh_free(&meshes[0]);
    mesh_free(&meshes[1]);
    free(pts); free(out); free(in); free(soup_out);
    gp_world_destroy(w);
    CHECKF(heap.live == 0, "%ld host blocks left after gp_world_destroy", heap.live);
}

/* ---- fluid on a mesh obstacle ------------------------------------------------------------------ */

/* A column of fluid (5 x 10 x 5 spacings) dropped onto a UV sphere mesh (r 0.08 m, 17 x 9, tilted,
   off centre, wider than the column) in a tank that is itself a mesh (a box 0.3 x 0.5 x 0.3 m,
   5 x 5 quads a face, inside = true), 2,000 substeps of 0.25 ms (0.5 s). After every substep,
   on the CPU, from the analytic sphere and box:
     - no particle is in a wall: inside the sphere by more than ball_tol, the sphere's faceting
       plus the field's interpolation error there, h^2 / (4 (r - sqrt(3) h)) (see
       mesh_tolerance), plus 1e-5 m (the mesh lies inside the sphere, the field only
       approximates the mesh); beyond the tank's walls by more than 1e-5 m (the box's distance is
       convex, a max of planes, so trilinear interpolation of its samples, exact near the walls,
       never puts a wall further than it is: the field can only keep particles further in);
     - every particle is at least the push's rest distance, half a spacing, from each wall (what
       the push promises), less the same tolerances: this is what sees a push that goes the
       wrong way or too late (the "never end inside" guard alone keeps them out of the wall);
   and at the end every id is there once with its mass bit for bit, and at least a fifth of the
   fluid has flowed below the sphere's centre (it went round the obstacle, not through it or
   stuck on it). */
static void test_sph_mesh_obstacle_in_tank(void) {
    const double r = 0.08, half[3] = {0.15, 0.25, 0.15};
    const float lo[3] = {-0.0625f, 0.22f, -0.0625f}, hi[3] = {0.0625f, 0.47f, 0.0625f};
    mesh_heap heap = {0};
    gp_world* w = mesh_world(2000, &heap);
    mesh_pose ball_pose = mesh_pose_make(0.4, 0.2, -0.3, 0.011, 0.12, -0.007), tank_pose = mesh_pose_make(0, 0, 0, 0, half[1], 0);
    mesh_data ball = mesh_uv_sphere(r, 17, 9, &ball_pose), tank = mesh_box(half, 5, &tank_pose);
    gp_collider_desc cd;
    gp_collider handle;
    gp_step_desc step;
    gp_fluid_stats stats;
    gp_particle_position* now = NULL;
    gp_particle_velocity* vel0 = NULL, *vel1 = NULL;
    gp_particle_info* info = NULL;
    const float gravity[3] = {0.0f, -9.81f, 0.0f};
    double faceting = r - mesh_distance(&ball, ball_pose.centre), ball_tol, least_ball = INFINITY, least_tank = INFINITY, rest;
    uint32_t added = 0, k, n, in_wall_steps = 0, near_steps = 0, below = 0, lost = 0, wrong_mass = 0, pushes = 0;
    gp_fluid_material m;
    uint32_t* slot = NULL;
    int i, worst_step = -1;
    if (!w) { mesh_free(&ball); mesh_free(&tank); return; }
    ball_tol = faceting + MESH_VOXEL * MESH_VOXEL / (4.0 * (r - sqrt(3.0) * MESH_VOXEL)) + 1e-5;
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    rest = 0.5 * m.spacing;
    cd = mesh_desc(&tank, 1);
    CHECKF(gp_collider_add(w, &cd, &handle) == GP_OK, "tank: %s", fixture_log);
    cd = mesh_desc(&ball, 0);
    CHECKF(gp_collider_add(w, &cd, &handle) == GP_OK, "ball: %s", fixture_log);
    CHECK(gp_gravity_set(w, gravity) == GP_OK);
    CHECKF(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 5 * 10 * 5, "%u particles added", added);
    n = added;
    now = (gp_particle_position*)calloc((size_t)n + 1, sizeof *now);
    vel0 = (gp_particle_velocity*)calloc((size_t)n + 1, sizeof *vel0);
    vel1 = (gp_particle_velocity*)calloc((size_t)n + 1, sizeof *vel1);
    info = (gp_particle_info*)calloc((size_t)n + 1, sizeof *info);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, vel0) == GP_OK);   /* no build yet: slot = id */
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f;   /* CFL (31.6 + v) 2.5e-4 / 0.025 = 0.32 + 0.01 v */
    step.substeps = 1;
    for (i = 0; i < 2000; ++i) {
        double ball_least = INFINITY, tank_least = INFINITY;
        CHECK(gp_world_step(w, &step) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, now) == GP_OK);
        CHECK(gp_fluid_stats_read(w, &stats) == GP_OK);
        pushes += stats.wall_pushes;
        for (k = 0; k < n; ++k) {
            double p[3] = {now[k].x, now[k].y, now[k].z}, db = mesh_sphere_sdf(p, ball_pose.centre, r),
                   dt = -mesh_box_sdf(p, &tank_pose, half, NULL);
            if (!(db >= ball_least)) ball_least = db;
            if (!(dt >= tank_least)) tank_least = dt;
        }
        if (!(ball_least >= -ball_tol && tank_least >= -1e-5)) ++in_wall_steps;
        if (!(ball_least >= rest - ball_tol && tank_least >= rest - 1e-5)) ++near_steps;
        if (!(ball_least >= least_ball)) { least_ball = ball_least; worst_step = i; }
        if (!(tank_least >= least_tank)) least_tank = tank_least;
    }
    CHECKF(in_wall_steps == 0, "%u of 2000 substeps left a particle in a wall: deepest %.3g m into the sphere (tolerance %.3g m, "
           "substep %d), %.3g m beyond the tank's walls (tolerance 1e-5 m)", in_wall_steps, -least_ball, ball_tol, worst_step,
           -least_tank);
    CHECKF(near_steps == 0, "%u of 2000 substeps left a particle closer to a wall than the push's %.4g m: %.4g m from the sphere "
           "(tolerance %.3g m, substep %d), %.6g m from the tank's walls (tolerance 1e-5 m)", near_steps, rest, least_ball, ball_tol,
           worst_step, least_tank);
    CHECKF(pushes > 0, "no wall push in 2000 substeps: the fluid never touched a wall");
    CHECK(gp_particle_count(w) == n);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, n, info) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, vel1) == GP_OK);
    slot = (uint32_t*)malloc((size_t)n * sizeof *slot + 4);
    memset(slot, 0xff, (size_t)n * sizeof *slot);
    for (k = 0; k < n; ++k) if (info[k].id < n) slot[info[k].id] = k;
    for (k = 0; k < n; ++k) {
        if (slot[k] == UINT32_MAX) { ++lost; continue; }
        wrong_mass += memcmp(&vel1[slot[k]].mass, &vel0[k].mass, sizeof(float)) != 0;
        below += now[slot[k]].y < ball_pose.centre[1];
    }
    CHECKF(lost == 0 && wrong_mass == 0, "after 2000 substeps: %u ids lost, %u masses changed", lost, wrong_mass);
    {
        double mass0 = 0.0, mass1 = 0.0;
        for (k = 0; k < n; ++k) { mass0 += vel0[k].mass; mass1 += vel1[k].mass; }
        CHECKF(mass0 == mass1, "total mass %.17g, was %.17g", mass1, mass0);
    }
    CHECKF(below >= n / 5, "only %u of %u particles got below the sphere's centre in 0.5 s", below, n);
    CHECKF(stats.nonfinite == 0, "%u particle updates were not finite", stats.nonfinite);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    obstacle: %u particles; least distance to the sphere %.5g m (substep %d; push to %.4g m, "
                "tolerance %.3g m, faceting %.4f m), to the tank's walls %.7g m; %u of %u below the sphere's centre; %u wall "
                "pushes\n", n, least_ball, worst_step, rest, ball_tol, faceting, least_tank, below, n, pushes);
    free(slot); free(now); free(vel0); free(vel1); free(info);
    mesh_free(&ball);
    mesh_free(&tank);
    gp_world_destroy(w);
}

/* ---- bad meshes -------------------------------------------------------------------------------- */

/* Expects gp_collider_add to refuse c with GP_ERROR_INVALID_ARGUMENT, a zero handle, an error
   logged whose text contains each of the words, no host memory kept, and the boundary still
   empty. */
static void mesh_expect_refused(gp_world* w, mesh_heap* heap, const gp_collider_desc* c, const char* what, gp_log_item item) {
    gp_collider handle;
    long live = heap->live;
    int logged = fixture_log_count;
    const float point[3] = {0.0f, 0.0f, 0.0f};
    float distance = 0.0f;
    gp_result r;
    handle.id = 77;
    fixture_log[0] = '\0';
    r = gp_collider_add(w, c, &handle);
    CHECKF(r == GP_ERROR_INVALID_ARGUMENT && handle.id == 0 && gp_world_last_result(w) == GP_ERROR_INVALID_ARGUMENT,
           "%s: %s, handle %u", what, gp_result_string(r), handle.id);
    CHECKF(fixture_log_count > logged && fixture_log_level == GP_LOG_ERROR && fixture_logged_item(item),
           "%s: the message \"%s\" should be %s", what, fixture_log, gp_log_item_string(item));
    CHECKF(heap->live == live, "%s: %ld host blocks kept", what, heap->live - live);
    CHECK(gp_boundary_distance_read(w, point, 1, &distance) == GP_OK);
    CHECKF(distance > 1e38f, "%s: the boundary is at %g m after the refusal (none expected)", what, distance);
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    %s: %s\n", what, fixture_log);
}

/* Each bad mesh is refused, names its problem, and adds nothing: no collider (the boundary stays
   empty), no host memory. NULL vertices or triangles, zero vertices or triangles, an index out
   of range (the vertex count itself, and 2^32 - 1), a NaN or infinite vertex (also an unused
   one), a voxel that is negative or NaN, and one so fine that the field would exceed its 2^24
   samples. Then the same world takes the good cube, whose field is 1 host block and whose inside
   is in its wall, and gives both back on removal. */
static void test_sph_mesh_rejects_bad_input(void) {
    mesh_heap heap = {0};
    gp_world* w = mesh_world(100, &heap);
    mesh_pose pose = mesh_pose_make(0, 0, 0, 0, 0, 0);
    const double tenth[3] = {0.1, 0.1, 0.1};
    mesh_data cube = mesh_box(tenth, 1, &pose);
    mesh_data bad = mesh_new(9, 12);
    gp_collider_desc c;
    gp_collider handle;
    const float point[3] = {0.0f, 0.0f, 0.0f};
    float distance = 0.0f;
    long live;
    if (!w) { mesh_free(&cube); mesh_free(&bad); return; }
    CHECK(cube.nv == 8 && cube.nt == 12);
    c = mesh_desc(&cube, 0);
    c.vertices = NULL;
    mesh_expect_refused(w, &heap, &c, "NULL vertices", GP_LOG_ITEM_MESH_INVALID);
    c = mesh_desc(&cube, 0);
    c.triangles = NULL;
    mesh_expect_refused(w, &heap, &c, "NULL triangles", GP_LOG_ITEM_MESH_INVALID);
    c = mesh_desc(&cube, 0);
    c.vertex_count = 0;
    mesh_expect_refused(w, &heap, &c, "zero vertices", GP_LOG_ITEM_MESH_INVALID);
    c = mesh_desc(&cube, 1);
    c.triangle_count = 0;
    mesh_expect_refused(w, &heap, &c, "zero triangles", GP_LOG_ITEM_MESH_INVALID);
    memcpy(bad.v, cube.v, 24 * sizeof(float));
    memcpy(bad.t, cube.t, 36 * sizeof(uint32_t));
    bad.t[3 * 7 + 1] = 8;
    c = mesh_desc(&bad, 0);
    c.vertex_count = 8;
    mesh_expect_refused(w, &heap, &c, "index 8 of 8 vertices", GP_LOG_ITEM_MESH_INVALID);
    bad.t[3 * 7 + 1] = UINT32_MAX;
    mesh_expect_refused(w, &heap, &c, "index 2^32 - 1", GP_LOG_ITEM_MESH_INVALID);
    memcpy(bad.t, cube.t, 36 * sizeof(uint32_t));
    bad.v[3 * 5 + 1] = NAN;
    mesh_expect_refused(w, &heap, &c, "NaN vertex", GP_LOG_ITEM_MESH_INVALID);
    bad.v[3 * 5 + 1] = -INFINITY;
    mesh_expect_refused(w, &heap, &c, "infinite vertex", GP_LOG_ITEM_MESH_INVALID);
    bad.v[3 * 5 + 1] = cube.v[3 * 5 + 1];
    bad.v[3 * 8] = NAN;   /* vertex 8: no triangle uses it */
    c.vertex_count = 9;
    mesh_expect_refused(w, &heap, &c, "NaN unused vertex", GP_LOG_ITEM_MESH_INVALID);
    c = mesh_desc(&cube, 0);
    c.voxel = -0.01f;
    mesh_expect_refused(w, &heap, &c, "negative voxel", GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE);
    c.voxel = NAN;
    mesh_expect_refused(w, &heap, &c, "NaN voxel", GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE);
    c.voxel = 1e-3f;   /* (0.2 + 2 (0.05 + 0.002)) / 0.001 = 305 samples a side: 2.8e7 > 2^24 */
    mesh_expect_refused(w, &heap, &c, "too fine a voxel", GP_LOG_ITEM_MESH_INVALID);
    CHECKF(gp_collider_add(w, NULL, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NULL), "NULL desc: %s", fixture_log);
    /* the good cube, after all that */
    live = heap.live;
    c = mesh_desc(&cube, 0);
    CHECKF(gp_collider_add(w, &c, &handle) == GP_OK && handle.id != 0, "the cube after the refusals: %s", fixture_log);
    CHECKF(heap.live == live + 1, "the cube's field holds %ld host blocks (1 expected)", heap.live - live);
    CHECK(gp_boundary_distance_read(w, point, 1, &distance) == GP_OK);
    CHECKF(fabs(distance + 0.1) < 1e-5, "the cube's centre is %g m from its wall (-0.1 expected)", distance);
    CHECK(gp_collider_remove(w, handle) == GP_OK && heap.live == live);
    CHECK(gp_collider_remove(w, handle) == GP_ERROR_INVALID_ARGUMENT);   /* a stale handle */
    mesh_free(&cube);
    mesh_free(&bad);
    gp_world_destroy(w);
    CHECKF(heap.live == 0, "%ld host blocks left after gp_world_destroy", heap.live);
}

const gp_test_case sph_mesh_tests[] = {
    {"sph_mesh_boundary_distance", test_sph_mesh_boundary_distance},
    {"sph_mesh_obstacle_in_tank", test_sph_mesh_obstacle_in_tank},
    {"sph_mesh_rejects_bad_input", test_sph_mesh_rejects_bad_input},
};
const int sph_mesh_test_count = (int)(sizeof sph_mesh_tests / sizeof sph_mesh_tests[0]);
