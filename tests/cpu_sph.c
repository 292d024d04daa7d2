/* cpu_sph.c: see cpu_sph.h. The comment above each function states the formula it implements:
   Müller, Charypar and Gross 2003 kernels, paper 001's WCSPH with wall weight functions. Double
   precision throughout; the inputs are the GPU's floats. */
#include "cpu_sph.h"
#include "cpu_collider.h"
#include "cpu_reference.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CPU_SPH_PI 3.14159265358979323846

/* W(r) = 315 / (64 pi re^9) (re^2 - r^2)^3 for r < re (poly6, 001 eq. 10) */
double cpu_sph_w(double r, double re) {
    double q = re * re - r * r;
    return r < re ? 315.0 / (64.0 * CPU_SPH_PI * pow(re, 9.0)) * q * q * q : 0.0;
}

/* grad W(r) = -45 / (pi re^6) (re - |r|)^2 r / |r| for 0 < |r| < re (spiky, 001 eq. 8) */
void cpu_sph_grad_w(const double r[3], double re, double out[3]) {
    double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    double s = len > 0.0 && len < re ? -45.0 / (CPU_SPH_PI * pow(re, 6.0)) * (re - len) * (re - len) / len : 0.0;
    out[0] = s * r[0]; out[1] = s * r[1]; out[2] = s * r[2];
}

/* lap W(r) = 45 / (pi re^6) (re - r) for r < re (viscosity kernel, 001 eq. 9) */
double cpu_sph_lap_w(double r, double re) { return r < re ? 45.0 / (CPU_SPH_PI * pow(re, 6.0)) * (re - r) : 0.0; }

/* Lattice points (a, b, c) * spacing can be closer than re only for |a|, |b|, |c| <= this. */
static int sph_lattice_reach(double spacing, double re) { return (int)ceil(re / spacing) + 1; }

double cpu_sph_mass(double spacing, double re, double rho0) {
    int A = sph_lattice_reach(spacing, re), a, b, c;
    double sum = 0.0;
    for (a = -A; a <= A; ++a)
        for (b = -A; b <= A; ++b)
            for (c = -A; c <= A; ++c) {
                double r = sqrt((double)(a * a + b * b + c * c)) * spacing;
                if (r < re) sum += cpu_sph_w(r, re);
            }
    return rho0 / sum;
}

/* G = sum over lattice points j != 0 within re of (m / rho0) 45 / (pi re^6) (re - r)^2 y^2 / r:
   with it, -sum_j V_j (p_j - p_i) gradW / G recovers a pressure gradient along y exactly on the
   rest lattice (without it, a column at rest holds 1 / G times its hydrostatic pressure). */
double cpu_sph_gradient_norm(double spacing, double re, double mass, double rho0) {
    int A = sph_lattice_reach(spacing, re), a, b, c;
    double sum = 0.0;
    for (a = -A; a <= A; ++a)
        for (b = -A; b <= A; ++b)
            for (c = -A; c <= A; ++c) {
                double r = sqrt((double)(a * a + b * b + c * c)) * spacing, y = b * spacing;
                if (r > 0.0 && r < re) sum += 45.0 / (CPU_SPH_PI * pow(re, 6.0)) * (re - r) * (re - r) * y * y / r;
            }
    return mass / rho0 * sum;
}

/* The wall's lattice seen from (0, 0, d): points (a l0, b l0, -(c + 1/2) l0), c >= 0 (001 eq. 13).
   Returns sum W (viscosity 0) or sum lapW (viscosity 1). */
enum { SPH_WALL_DENSITY, SPH_WALL_VISCOSITY, SPH_WALL_GRADIENT, SPH_WALL_NORMAL, SPH_WALL_TANGENT };

/* |grad W_press(r)| / r with the normalised spiky gradient (0 at and beyond re). */
static double sph_spiky_over_r(const cpu_sph_material* m, double r) {
    double re = m->smoothing_radius;
    return r < re && r > 0.0 ? 45.0 / (CPU_SPH_PI * pow(re, 6.0)) / m->gradient_norm * (re - r) * (re - r) / r : 0.0;
}

/* One of the wall's sums (e = x_i - x_w = (-a l0, -b l0, d + (c + 1/2) l0)): sum W, sum lapW,
   sum K e_z, sum K e_z^2, sum K e_x^2 with K = |grad W_press| / r. */
static double sph_wall_sum(const cpu_sph_material* m, double d, int which) {
    double l0 = m->spacing, re = m->smoothing_radius, sum = 0.0;
    int A = sph_lattice_reach(l0, re), a, b, c;
    if (d < 0.0) d = 0.0;
    for (a = -A; a <= A; ++a)
        for (b = -A; b <= A; ++b)
            for (c = 0; c <= A; ++c) {
                double dz = d + ((double)c + 0.5) * l0, ex = a * l0;
                double r = sqrt((double)(a * a + b * b) * l0 * l0 + dz * dz), K = sph_spiky_over_r(m, r);
                if (!(r < re)) continue;
                switch (which) {
                case SPH_WALL_DENSITY: sum += cpu_sph_w(r, re); break;
                case SPH_WALL_VISCOSITY: sum += cpu_sph_lap_w(r, re); break;
                case SPH_WALL_GRADIENT: sum += K * dz; break;
                case SPH_WALL_NORMAL: sum += K * dz * dz; break;
                default: sum += K * ex * ex; break;
                }
            }
    return sum;
}

double cpu_sph_wall_density_exact(const cpu_sph_material* m, double d) { return m->mass * sph_wall_sum(m, d, SPH_WALL_DENSITY); }
double cpu_sph_wall_viscosity_exact(const cpu_sph_material* m, double d) {
    return m->mass / m->rest_density * sph_wall_sum(m, d, SPH_WALL_VISCOSITY);
}

/* Linear interpolation between samples d_k = k s; d <= 0 reads sample 0, d >= re gives 0. */
static double sph_table(const double* table, double s, double re, double d) {
    double t;
    int k;
    if (!(d < re)) return 0.0;
    if (d < 0.0) d = 0.0;
    t = d / s;
    k = (int)t;
    if (k >= CPU_SPH_WALL_SAMPLES - 1) return table[CPU_SPH_WALL_SAMPLES - 1];
    return table[k] + (table[k + 1] - table[k]) * (t - (double)k);
}

double cpu_sph_wall_density(const cpu_sph_material* m, double d) {
    return sph_table(m->wall_density, m->table_spacing, m->smoothing_radius, d);
}
double cpu_sph_wall_viscosity(const cpu_sph_material* m, double d) {
    return sph_table(m->wall_viscosity, m->table_spacing, m->smoothing_radius, d);
}

cpu_sph_material cpu_sph_material_make(const gp_fluid_material* resolved) {
    cpu_sph_material m;
    double j;
    int k;
    memset(&m, 0, sizeof m);
    m.spacing = resolved->spacing;
    m.smoothing_radius = resolved->smoothing_radius;
    m.rest_density = resolved->rest_density;
    m.stiffness = resolved->stiffness;
    m.viscosity = resolved->viscosity;
    m.rest_pressure = resolved->rest_pressure;
    m.allow_tension = resolved->allow_tension;
    m.mass = cpu_sph_mass(m.spacing, m.smoothing_radius, m.rest_density);
    m.gradient_norm = cpu_sph_gradient_norm(m.spacing, m.smoothing_radius, m.mass, m.rest_density);
    j = floor((CPU_SPH_WALL_SAMPLES - 1) * m.spacing / (2.0 * m.smoothing_radius));
    m.table_spacing = j >= 1.0 ? m.spacing / (2.0 * j) : m.smoothing_radius / (CPU_SPH_WALL_SAMPLES - 1);
    m.density_model = resolved->density_model;
    m.diffusion = resolved->diffusion;
    m.artificial_viscosity = resolved->artificial_viscosity;
    for (k = 0; k < CPU_SPH_WALL_SAMPLES; ++k) {
        double d = (double)k * m.table_spacing, volume = m.mass / m.rest_density;
        m.wall_density[k] = cpu_sph_wall_density_exact(&m, d);
        m.wall_viscosity[k] = cpu_sph_wall_viscosity_exact(&m, d);
        m.wall_gradient[k] = volume * sph_wall_sum(&m, d, SPH_WALL_GRADIENT);
        m.wall_normal[k] = volume * sph_wall_sum(&m, d, SPH_WALL_NORMAL);
        m.wall_tangent[k] = volume * sph_wall_sum(&m, d, SPH_WALL_TANGENT);
    }
    return m;
}

static double sph_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double sph_length(const double a[3]) { return sqrt(sph_dot(a, a)); }

double cpu_sph_boundary(const gp_collider_desc* colliders, uint32_t count, const double x[3], double normal[3]) {
    double best = INFINITY, n[3];
    uint32_t k;
    normal[0] = normal[1] = normal[2] = 0.0;
    for (k = 0; k < count; ++k) {
        double s = cpu_collider_distance(colliders + k, x, n);
        if (s < best) { best = s; memcpy(normal, n, sizeof n); }
    }
    return best;
}

/* What the walls' particles add for a fluid particle at x (gp_wall in gp_sph.glsl): they
   continue the lattice behind each wall at rest density, with the pressure a fluid at rest would
   have there, p_w = p_i + rho0 g . (x_w - x_i). With e = x_i - x_w, K = |grad W_press| / r and
   V = m / rho0: share = (sum m W, sum V lapW), a = sum V K e, mg = sum V K e (g . e), so that
   the pressure term is 2 p_i a - rho0 mg and the continuity term -2 rho0 v_i . a (the walls'
   particles are the particle's mirror images: its pressure, its normal velocity reversed). A plane wall
   (normal n, distance d) from the tables: a = A n, mg = M_n (g.n) n + M_t (g - (g.n) n); a
   container box face by face, less its edges, plus its corners, summed point by point. A wall
   the fluid hangs under (g . n > 0) takes no hydrostatic part along its normal: its table terms
   take g less that component, the edges' and corners' sums g whole (so that the points behind
   several faces end up with g less the components away from each of them).
   a_abs, mg_abs: the magnitudes of their terms, for the comparison's scale. */
typedef struct sph_wall { double share[2], a[3], mg[3], a_abs, mg_abs; } sph_wall;

static void sph_wall_plane(const cpu_sph_material* m, const double g[3], const double n[3], double d, sph_wall* w) {
    double A, Mn, Mt, gn = sph_dot(g, n), re = m->smoothing_radius;
    int c;
    if (!(d < re)) return;
    A = sph_table(m->wall_gradient, m->table_spacing, re, d);
    Mn = sph_table(m->wall_normal, m->table_spacing, re, d);
    Mt = sph_table(m->wall_tangent, m->table_spacing, re, d);
    w->share[0] += cpu_sph_wall_density(m, d);
    w->share[1] += cpu_sph_wall_viscosity(m, d);
    for (c = 0; c < 3; ++c) {
        w->a[c] += A * n[c];
        w->mg[c] += Mn * fmin(gn, 0.0) * n[c] + Mt * (g[c] - gn * n[c]);   /* no pull from a lid (g . n > 0) */
    }
    w->a_abs += fabs(A);
    w->mg_abs += (Mn + 2.0 * Mt) * sph_length(g);
}

/* One wall particle at e = x_i - x_w, counted sign times (+1 or -1). */
static void sph_wall_point(const cpu_sph_material* m, const double g[3], const double e[3], double sign, sph_wall* w) {
    double r = sph_length(e), re = m->smoothing_radius, V = m->mass / m->rest_density, K, ge;
    int c;
    if (!(r < re)) return;
    K = V * sph_spiky_over_r(m, r);
    ge = sph_dot(g, e);
    w->share[0] += sign * m->mass * cpu_sph_w(r, re);
    w->share[1] += sign * V * cpu_sph_lap_w(r, re);
    for (c = 0; c < 3; ++c) {
        w->a[c] += sign * K * e[c];
        w->mg[c] += sign * K * ge * e[c];
    }
    w->a_abs += K * r;
    w->mg_abs += K * r * r * sph_length(g);
}

/* The wall particles behind two faces (normals na, nb at distances da, db; c l0 along the edge),
   or behind three (a corner: distances d[k] along normals sign[k] times axis k), counted sign times. */
static void sph_wall_edge(const cpu_sph_material* m, const double gravity[3], const double na[3], double da, const double nb[3],
                          double db, double sign, sph_wall* w) {
    double l0 = m->spacing, along[3];
    const double* g = gravity;
    int A = sph_lattice_reach(l0, m->smoothing_radius), a, b, c, k;
    along[0] = na[1] * nb[2] - na[2] * nb[1];
    along[1] = na[2] * nb[0] - na[0] * nb[2];
    along[2] = na[0] * nb[1] - na[1] * nb[0];
    for (a = 0; a <= A; ++a)
        for (b = 0; b <= A; ++b)
            for (c = -A; c <= A; ++c) {
                double e[3], x = fmax(da, 0.0) + (a + 0.5) * l0, y = fmax(db, 0.0) + (b + 0.5) * l0;
                for (k = 0; k < 3; ++k) e[k] = x * na[k] + y * nb[k] + c * l0 * along[k];
                sph_wall_point(m, g, e, sign, w);
            }
}

static void sph_wall_corner(const cpu_sph_material* m, const double gravity[3], const double d[3], const double normal[3],
                            sph_wall* w) {
    double l0 = m->spacing;
    const double* g = gravity;
    int A = sph_lattice_reach(l0, m->smoothing_radius), a, b, c;
    for (a = 0; a <= A; ++a)
        for (b = 0; b <= A; ++b)
            for (c = 0; c <= A; ++c) {
                double e[3];
                e[0] = normal[0] * (fmax(d[0], 0.0) + (a + 0.5) * l0);
                e[1] = normal[1] * (fmax(d[1], 0.0) + (b + 0.5) * l0);
                e[2] = normal[2] * (fmax(d[2], 0.0) + (c + 0.5) * l0);
                sph_wall_point(m, g, e, 1.0, w);
            }
}

static sph_wall sph_walls(const cpu_sph_scene* s, const cpu_sph_material* m, const double x[3]) {
    double re = m->smoothing_radius;
    sph_wall w;
    uint32_t k;
    memset(&w, 0, sizeof w);
    for (k = 0; k < s->collider_count; ++k) {
        const gp_collider_desc* c = s->colliders + k;
        double d[6], n[6][3];   /* d[2 f + side], n: the face on the low (0) and high (1) side of axis f */
        int f, g, side[3];
        if (!(c->shape == GP_SHAPE_BOX && c->inside)) {
            d[0] = cpu_collider_distance(c, x, n[0]);
            sph_wall_plane(m, s->gravity, n[0], d[0], &w);
            continue;
        }
        memset(n, 0, sizeof n);
        for (f = 0; f < 3; ++f) {
            d[2 * f] = (double)c->half_extents[f] + (x[f] - c->center[f]);
            d[2 * f + 1] = (double)c->half_extents[f] - (x[f] - c->center[f]);
            n[2 * f][f] = 1.0;
            n[2 * f + 1][f] = -1.0;
        }
        for (f = 0; f < 6; ++f) sph_wall_plane(m, s->gravity, n[f], d[f], &w);
        for (f = 0; f < 6; ++f)        /* edges: faces of two different axes */
            for (g = f + 1; g < 6; ++g)
                if (f / 2 != g / 2 && d[f] < re && d[g] < re) sph_wall_edge(m, s->gravity, n[f], d[f], n[g], d[g], -1.0, &w);
        for (side[0] = 0; side[0] < 2; ++side[0])   /* corners: a face of each axis */
            for (side[1] = 0; side[1] < 2; ++side[1])
                for (side[2] = 0; side[2] < 2; ++side[2]) {
                    double dc[3], normal[3];
                    for (f = 0; f < 3; ++f) { dc[f] = d[2 * f + side[f]]; normal[f] = side[f] ? -1.0 : 1.0; }
                    if (dc[0] < re && dc[1] < re && dc[2] < re) sph_wall_corner(m, s->gravity, dc, normal, &w);
                }
    }
    return w;
}

/* The fluid particles of a scene with finite positions, in the order the neighbour search wants
   them, and what the passes compute for them. */
typedef struct sph_work {
    const cpu_sph_scene* scene;
    uint32_t n;
    uint32_t* slot;                    /* the scene's slot of each */
    double *x, *v, *m;                 /* 3, 3, 1 per particle */
    const cpu_sph_material** material;
    double *rho, *p, *pabs, *wall, *normal;   /* wall: D(x); normal: 3 per particle */
    double* carried;                   /* the continuity model's carried density (its rest density when unset) */
    double* solid;                     /* 0 for fluid; a rigid particle's radius, minus a grain's */
    uint8_t* ambiguous;                /* cpu_sph_particle.ambiguous's 1: its own threshold; a solid: one of its fluid's */
    /* the grid (cpu_sph_compute_grid); NULL grid: every particle is a candidate of every other */
    const cpu_grid* grid;
    uint32_t* cell_start;
    int32_t* cell;                     /* 3 per particle */
} sph_work;

/* The candidates of particle i: up to 27 ranges of particles (each bucket of the 27 cells
   around i's once, however many of those cells share a bucket). */
typedef struct sph_ranges {
    uint32_t count, begin[27], end[27];
    int32_t cell[3];                   /* the cell they are for */
    int valid;
} sph_ranges;

static void sph_candidates(const sph_work* w, uint32_t i, sph_ranges* r) {
    uint32_t buckets[27], nb = 0, k;
    int32_t dx, dy, dz;
    if (!w->grid) {
        r->count = 1; r->begin[0] = 0; r->end[0] = w->n;
        return;
    }
    if (r->valid && memcmp(r->cell, w->cell + 3 * (size_t)i, sizeof r->cell) == 0) return;
    memcpy(r->cell, w->cell + 3 * (size_t)i, sizeof r->cell);
    r->valid = 1;
    for (dz = -1; dz <= 1; ++dz)
        for (dy = -1; dy <= 1; ++dy)
            for (dx = -1; dx <= 1; ++dx) {
                int32_t c[3];
                uint32_t b, at;
                c[0] = r->cell[0] + dx; c[1] = r->cell[1] + dy; c[2] = r->cell[2] + dz;
                b = cpu_grid_bucket(w->grid, c);
                for (at = 0; at < nb && buckets[at] < b; ++at) {}
                if (at < nb && buckets[at] == b) continue;
                memmove(buckets + at + 1, buckets + at, (nb - at) * sizeof *buckets);
                buckets[at] = b;
                ++nb;
            }
    r->count = nb;
    for (k = 0; k < nb; ++k) { r->begin[k] = w->cell_start[buckets[k]]; r->end[k] = w->cell_start[buckets[k] + 1]; }
}

/* Kernel constants of one material. */
typedef struct sph_kernel { double re, re2, poly6, spiky, visc; } sph_kernel;
static sph_kernel sph_kernel_of(const cpu_sph_material* m) {
    sph_kernel k;
    k.re = m->smoothing_radius;
    k.re2 = k.re * k.re;
    k.poly6 = 315.0 / (64.0 * CPU_SPH_PI * pow(k.re, 9.0));
    k.visc = 45.0 / (CPU_SPH_PI * pow(k.re, 6.0));
    k.spiky = k.visc / m->gradient_norm;
    return k;
}

/* The neighbour loop both passes share (the CPU side of gp_neighbors.glsl): sph_visit_begin
   stands on particle i (its material, kernel constants, walls and output); each sph_visit_next
   moves to the next particle j within re of it, i itself included, in the candidates' order,
   with d = x_i - x_j and r2 = |d|^2, and returns 0 after the last. sph_pass runs a pass's
   function so for every particle. */
typedef struct sph_visit {
    uint32_t i;
    const cpu_sph_material* m;
    sph_kernel K;
    const double *xi, *vi;
    sph_wall walls;
    cpu_sph_particle* out;
    uint32_t j;                        /* the neighbour, its position, velocity and offset */
    const double *xj, *vj;
    double d[3], r2;
    const sph_work* w;                 /* where the visit stands in i's candidates */
    sph_ranges* ranges;
    uint32_t range, next;
} sph_visit;

static void sph_visit_begin(const sph_work* w, uint32_t i, sph_ranges* ranges, cpu_sph_particle* out, sph_visit* v) {
    v->i = i;
    v->m = w->material[i];
    v->K = sph_kernel_of(v->m);
    v->xi = w->x + 3 * (size_t)i;
    v->vi = w->v + 3 * (size_t)i;
    v->walls = sph_walls(w->scene, v->m, v->xi);
    v->out = out + w->slot[i];
    v->w = w;
    v->ranges = ranges;
    sph_candidates(w, i, ranges);
    v->range = 0;
    v->next = ranges->count ? ranges->begin[0] : 0;
}

static int sph_visit_next(sph_visit* v) {
    const sph_ranges* r = v->ranges;
    while (v->range < r->count) {
        uint32_t j = v->next;
        if (j >= r->end[v->range]) {
            if (++v->range < r->count) v->next = r->begin[v->range];
            continue;
        }
        ++v->next;
        v->xj = v->w->x + 3 * (size_t)j;
        v->vj = v->w->v + 3 * (size_t)j;
        v->d[0] = v->xi[0] - v->xj[0]; v->d[1] = v->xi[1] - v->xj[1]; v->d[2] = v->xi[2] - v->xj[2];
        v->r2 = sph_dot(v->d, v->d);
        if (!(v->r2 < v->K.re2)) continue;
        v->j = j;
        return 1;
    }
    return 0;
}

/* Whether a grain of radius r (negative, sph_work.solid) is one material m drags rather than
   meets as a boundary: narrower than its smoothing radius (gp_coupling.glsl's gp_drag_grain). */
static int sph_drag_grain(const cpu_sph_material* m, double r) { return r < 0.0 && 4.0 * r * r < m->smoothing_radius * m->smoothing_radius; }

/* The fluid mass a solid particle of radius r stands for to material m (gp_coupling.glsl):
   m's lattice-scaled mass times (2 r / l0)^3, the voxel a rigid particle fills, or pi / 6 of
   that, a grain's sphere; none for a grain m drags. r is negative for a grain (sph_work.solid). */
static double sph_solid_mass(const cpu_sph_material* m, double r) {
    double d = 2.0 * fabs(r) / m->spacing, cube = m->mass * d * d * d;
    if (sph_drag_grain(m, r)) return 0.0;
    return r > 0.0 ? cube : (double)0.52359878f * cube;
}

/* gp_coupling_terms: the pressure (terms 0-2) and viscosity (3-5, without mu) sums that solid b
   (velocity vb, pressure pb, mass mb) adds for fluid particle i of material m (velocity vi,
   pressure pi), with d = x_i - x_b at length len (0 < len < re): volume mb / rho0. */
static void sph_coupling_terms(const cpu_sph_material* m, const struct sph_kernel* K, const double d[3], double len,
                               const double vi[3], double pi, const double vb[3], double pb, double mb, double terms[6]) {
    double volume = mb / m->rest_density, x = K->re - len, c;
    int a;
    c = volume * (pi + pb) * K->spiky * x * x / len;
    for (a = 0; a < 3; ++a) { terms[a] = c * d[a]; terms[3 + a] = volume * K->visc * x * (vb[a] - vi[a]); }
}

/* Summation: rho_i = sum_j m_j W(|x_i - x_j|) over fluid j within re (j = i included) + the walls'
   share (001 eqs. 4, 10, 13). Continuity: rho_i' = rho_i + dt (sum_j m_j (v_i - v_j) . grad W_ij
   - 2 rho0 v_i . a + delta re c0 sum_j 2 V_j (rho_i - rho_j - rho0 g . x_ij / c0^2) (x_ij . grad W_ij)
   / max(r_ij^2, (0.1 h)^2)), h = re / 2, the last sum over j of i's material, rho the carried densities (sph_continuity.comp).
   p_i = p0 + k (rho_i - rho0), clamped at 0 without tension (eq. 5). */
static void sph_density(sph_work* w, sph_visit* v) {
    const cpu_sph_scene* s = w->scene;
    const cpu_sph_material* m = v->m;
    uint32_t i = v->i, c;
    double rho = 0.0, magnitude, rate = 0.0, rate_abs = 0.0, diffusion = 0.0, diffusion_abs = 0.0, moment[3] = {0.0, 0.0, 0.0};
    double relax_abs = 0.0;   /* what the interior relaxation moved, in magnitude */
    double moment_abs = 0.0;  /* the first moment's terms, in magnitude */
    uint32_t neighbors = 0;
    int mixed = 0;
    while (sph_visit_next(v)) {
        uint32_t j = v->j;
        const double *d = v->d, *vj = v->vj;
        double r2 = v->r2, q = v->K.re2 - r2, K2, grad[3], dv[3], t;
        double mj = w->solid[j] != 0.0 ? sph_solid_mass(m, w->solid[j]) : w->m[j];   /* a solid: gp_coupling.glsl's */
        rho += mj * v->K.poly6 * q * q * q;
        ++neighbors;
        /* as on the GPU, a particle on top of another adds no rate */
        if (j == i || r2 == 0.0 || m->density_model != GP_DENSITY_CONTINUITY) continue;
        K2 = sph_spiky_over_r(m, sqrt(r2));   /* grad_i W = -K2 d: towards j */
        for (c = 0; c < 3; ++c) { grad[c] = -K2 * d[c]; dv[c] = v->vi[c] - vj[c]; moment[c] += mj / m->rest_density * grad[c]; }
        moment_abs += mj / m->rest_density * K2 * sqrt(r2);
        mixed |= w->solid[j] == 0.0 && w->material[j] != m;   /* a fluid of another material */
        mj *= w->solid[j] != 0.0 ? 2.0 : 1.0;   /* a solid closes as the particle's mirror (gp_coupling.glsl) */
        rate += mj * sph_dot(dv, grad);
        rate_abs += mj * sph_length(dv) * K2 * sqrt(r2);
        if (w->material[j] != m) continue;   /* a solid has none: no diffusion */
        t = 2.0 * w->m[j] / w->carried[j] * sph_dot(d, grad) / fmax(r2, 0.0025 * v->K.re2);   /* never below (0.1 h)^2 */
        diffusion += t * (w->carried[i] - w->carried[j] - m->rest_density / m->stiffness * sph_dot(s->gravity, d));
        diffusion_abs += fabs(t) * (w->carried[i] + w->carried[j] + m->rest_density / m->stiffness * sph_length(s->gravity) * sqrt(r2));
    }
    w->wall[i] = cpu_sph_boundary(s->colliders, s->collider_count, v->xi, w->normal + 3 * (size_t)i);
    rho += v->walls.share[0];
    magnitude = rho;
    if (m->density_model == GP_DENSITY_CONTINUITY) {   /* the continuity equation, delta-SPH, the walls' particles */
        double c0 = sqrt(m->stiffness), scale = m->diffusion * m->smoothing_radius * c0;
        rate += scale * diffusion - 2.0 * m->rest_density * sph_dot(v->vi, v->walls.a);
        rate_abs += scale * diffusion_abs + 2.0 * m->rest_density * sph_length(v->vi) * v->walls.a_abs;
        rho = w->carried[i] + s->dt * rate;
        {   /* no tension: at a free surface (the positions' summation density, in magnitude,
               below 0.75 rho0) never below the density of zero pressure, elsewhere never below
               that or the summation density, whichever is lower, nor more than 0.005 rho0 under it;
               at a free surface no more than the density of zero pressure (sph_continuity.comp) */
            double least = m->allow_tension ? 0.01 * m->rest_density
                                            : fmax(m->rest_density - m->rest_pressure / m->stiffness, 0.01 * m->rest_density);
            int surface = !m->allow_tension && magnitude < 0.75 * m->rest_density;
            double floor_density = m->allow_tension || surface ? least : fmax(fmin(least, magnitude), least - 0.005 * m->rest_density);
            /* where the kernel is whole (one material, the first moment less the walls' under 0.3 /
               re), towards the positions' summation density at the rate 0.01 c0 / re */
            double relax = 0.0, edge[3];
            for (c = 0; c < 3; ++c) edge[c] = moment[c] - v->walls.a[c];
            if (!surface && !mixed && sph_length(edge) * m->smoothing_radius < 0.3) relax = fmin(0.01 * c0 * s->dt / m->smoothing_radius, 1.0);
            /* within rounding of either threshold a float GPU may decide the other way */
            w->ambiguous[i] = (!m->allow_tension && fabs(magnitude - 0.75 * m->rest_density) <= CPU_SPH_AMBIGUOUS * magnitude) ||
                              (!surface && !mixed && fabs(sph_length(edge) - 0.3 / m->smoothing_radius) <=
                                                      CPU_SPH_AMBIGUOUS * (moment_abs + v->walls.a_abs));
            rho += relax * (magnitude - rho);
            relax_abs = relax * (magnitude + fabs(rho));
            rho = isfinite(rho) ? fmax(rho, floor_density) : w->carried[i];
            if (surface) rho = fmin(rho, least);
        }
        magnitude = w->carried[i] + s->dt * rate_abs + relax_abs;
    }
    w->rho[i] = rho;
    w->p[i] = m->rest_pressure + m->stiffness * (rho - m->rest_density);
    if (!m->allow_tension && w->p[i] < 0.0) w->p[i] = 0.0;
    w->pabs[i] = fabs(m->rest_pressure) + m->stiffness * (magnitude + m->rest_density);
    v->out->density = rho;
    v->out->density_abs = magnitude;
    v->out->pressure = w->p[i];
    v->out->pressure_abs = w->pabs[i];
    v->out->boundary = w->wall[i];
    v->out->neighbors = neighbors;
    v->out->ambiguous = w->ambiguous[i];
}

/* Gravity and the user's forces at x: adds to a, returns the sum of their magnitudes. */
static double sph_external(const cpu_sph_scene* s, const double x[3], double a[3]) {
    double magnitude = sph_length(s->gravity);
    uint32_t f, c;
    for (c = 0; c < 3; ++c) a[c] += s->gravity[c];
    for (f = 0; f < s->force_count; ++f) {
        const gp_force* F = s->forces + f;
        double d[3], len;
        for (c = 0; c < 3; ++c) d[c] = (double)F->center[c] - x[c];
        len = sph_length(d);
        if (F->type == GP_FORCE_UNIFORM && (F->radius <= 0.0f || len <= F->radius)) {
            for (c = 0; c < 3; ++c) a[c] += F->vector[c];
            magnitude += sqrt((double)F->vector[0] * F->vector[0] + (double)F->vector[1] * F->vector[1] +
                              (double)F->vector[2] * F->vector[2]);
        } else if (F->type == GP_FORCE_RADIAL && len > 0.0) {   /* towards center, falling to 0 at radius */
            double strength = F->strength;
            if (F->radius > 0.0f) strength *= len < F->radius ? 1.0 - len / F->radius : 0.0;
            for (c = 0; c < 3; ++c) a[c] += strength * d[c] / len;
            magnitude += fabs(strength);
        }
    }
    return magnitude;
}

/* f_press = -sum_{j != i} m_j (p_i + p_j) / rho_j gradW(x_i - x_j) / G                (eqs. 6, 8)
     without the paper's 1/2: (p_i + p_j) / 2 estimates half of grad p in a full neighbourhood
     (the p_i part sums to about 0), so a column at rest would hold twice its hydrostatic
     pressure; G (cpu_sph_gradient_norm) makes the rest lattice's estimate exact
   f_vis = mu sum_{j != i} m_j (v_j - v_i) / rho_j lapW + mu (0 - v_i) Zvis(D)        (eqs. 7, 9)
   a = (f_press + f_vis) / rho + g + forces */
static void sph_force(sph_work* w, sph_visit* v) {
    const cpu_sph_scene* s = w->scene;
    const cpu_sph_material* m = v->m;
    uint32_t i = v->i, c;
    double fp[3] = {0.0, 0.0, 0.0}, fv[3] = {0.0, 0.0, 0.0}, fp_abs = 0.0, fv_abs = 0.0, external;
    double mu = m->viscosity * m->rest_density, pi = w->p[i], Pi = w->pabs[i];
    /* the walls' hydrostatic part fades out at the free surface: all of it from the pressure
       of a quarter spacing of fluid at rest, none at zero pressure (gp_surface_fade) */
    double full = 0.25 * m->rest_density * sph_length(s->gravity) * m->spacing;
    double fade = full > 0.0 ? fmin(fmax(pi / full, 0.0), 1.0) : 1.0;
    while (sph_visit_next(v)) {
        uint32_t j = v->j;
        const double *d = v->d, *vj = v->vj;
        double len, grad, lap, pc, vc, dv[3], closing, pseudo, h = 0.5 * v->K.re;
        if (j == i) continue;
        if (w->ambiguous[j]) v->out->ambiguous |= 2u;
        len = sqrt(v->r2);
        grad = v->K.spiky * (v->K.re - len) * (v->K.re - len);   /* |gradW| */
        lap = v->K.visc * (v->K.re - len);
        if (w->solid[j] != 0.0) {   /* a solid: a boundary particle (gp_coupling.glsl) */
            double terms[6];
            if (len == 0.0) continue;
            sph_coupling_terms(m, &v->K, d, len, v->vi, pi, vj, w->p[j], sph_solid_mass(m, w->solid[j]), terms);
            for (c = 0; c < 3; ++c) { fp[c] += terms[c]; fv[c] += mu * terms[3 + c]; }
            fp_abs += sph_length(terms);
            fv_abs += mu * sph_length(terms + 3);
            continue;
        }
        pc = w->m[j] / w->rho[j] * grad;
        /* Monaghan's artificial viscosity: a closing pair adds rho_i rho_j Pi_ij to p_i + p_j,
           Pi_ij = -alpha c h mu_ij / rho_ij, mu_ij = h v_ij . r_ij / (r^2 + 0.01 h^2), h = re / 2 */
        closing = 0.0;
        for (c = 0; c < 3; ++c) closing += (v->vi[c] - vj[c]) * d[c];
        pseudo = 0.0;
        if (closing < 0.0) {   /* the pair's mean alpha c h and h: equal and opposite across materials */
            const cpu_sph_material* mj = w->material[j];
            double hj = 0.5 * mj->smoothing_radius, hij = 0.5 * (h + hj);
            double av = 0.5 * (m->artificial_viscosity * sqrt(m->stiffness) * h + mj->artificial_viscosity * sqrt(mj->stiffness) * hj);
            pseudo = -av * (hij * closing / (v->r2 + 0.01 * hij * hij)) * w->rho[i] * w->rho[j] / (0.5 * (w->rho[i] + w->rho[j]));
        }
        if (len > 0.0)
            for (c = 0; c < 3; ++c) fp[c] += pc * (pi + w->p[j] + pseudo) * d[c] / len;   /* -(...)(-grad d/len) */
        fp_abs += pc * (Pi + w->pabs[j] + pseudo);
        vc = mu * w->m[j] / w->rho[j] * lap;
        for (c = 0; c < 3; ++c) { dv[c] = vj[c] - v->vi[c]; fv[c] += vc * dv[c]; }
        fv_abs += vc * sph_length(dv);
    }
    for (c = 0; c < 3; ++c) {
        fv[c] -= mu * v->vi[c] * v->walls.share[1];
        fp[c] += 2.0 * pi * v->walls.a[c] - fade * m->rest_density * v->walls.mg[c];
    }
    fv_abs += mu * sph_length(v->vi) * v->walls.share[1];
    fp_abs += 2.0 * Pi * v->walls.a_abs + m->rest_density * v->walls.mg_abs;
    for (c = 0; c < 3; ++c) v->out->acceleration[c] = (fp[c] + fv[c]) / w->rho[i];
    external = sph_external(s, v->xi, v->out->acceleration);
    v->out->pressure_force_abs = fp_abs;
    v->out->viscosity_force_abs = fv_abs;
    v->out->acceleration_abs = (fp_abs + fv_abs) / w->rho[i] + external;
}

/* One pass over every particle, as a dispatch runs one invocation a particle: the pass's
   function, standing on each in turn, visits its neighbours through the visit it is given. */
static void sph_pass(sph_work* w, cpu_sph_particle* out, void (*particle)(sph_work* w, sph_visit* v)) {
    sph_ranges r;
    sph_visit v;
    uint32_t i;
    r.valid = 0;
    for (i = 0; i < w->n; ++i) {
        if (w->solid[i] != 0.0) continue;   /* the fluid's passes stand on fluid particles */
        sph_visit_begin(w, i, &r, out, &v);
        particle(w, &v);
    }
}

/* coupling_pressure.comp: every solid particle's pressure, the fluid's around it continued
   hydrostatically and weighted by the density kernel (Adami et al. 2012), p_b = sum_j W_bj (p_j +
   rho_j g . (x_b - x_j)) / sum_j W_bj over fluid j within j's smoothing radius, at least 0 (0 with
   no fluid near); into w->p[b]. */
static void sph_solid_pressure_pass(sph_work* w) {
    sph_ranges r;
    uint32_t b, k, j, c;
    r.valid = 0;
    for (b = 0; b < w->n; ++b) {
        double sum = 0.0, weights = 0.0;
        if (w->solid[b] == 0.0) continue;
        sph_candidates(w, b, &r);
        for (k = 0; k < r.count; ++k)
            for (j = r.begin[k]; j < r.end[k]; ++j) {
                sph_kernel K;
                double d[3], r2, q, weight;
                if (w->solid[j] != 0.0) continue;
                K = sph_kernel_of(w->material[j]);
                for (c = 0; c < 3; ++c) d[c] = w->x[3 * (size_t)b + c] - w->x[3 * (size_t)j + c];
                r2 = sph_dot(d, d);
                if (!(r2 < K.re2)) continue;
                q = K.re2 - r2;
                weight = K.poly6 * q * q * q;
                sum += weight * (w->p[j] + w->rho[j] * sph_dot(w->scene->gravity, d));
                weights += weight;
                w->ambiguous[b] |= w->ambiguous[j];
            }
        w->p[b] = weights > 0.0 ? fmax(sum / weights, 0.0) : 0.0;
    }
}

/* coupling_solid.comp: the force on every solid particle b, minus the sum of what it puts on each
   fluid neighbour j within j's smoothing radius ((m_j / rho_j) (pressure + mu_j viscosity) of
   sph_coupling_terms, with d = x_j - x_b); its acceleration is that force over its mass. */
static void sph_solid_pass(sph_work* w, cpu_sph_particle* out) {
    sph_ranges r;
    uint32_t b, k, j, c;
    r.valid = 0;
    for (b = 0; b < w->n; ++b) {
        double f[3] = {0.0, 0.0, 0.0}, f_abs = 0.0;
        cpu_sph_particle* o = out + w->slot[b];
        if (w->solid[b] == 0.0) continue;
        sph_candidates(w, b, &r);
        for (k = 0; k < r.count; ++k)
            for (j = r.begin[k]; j < r.end[k]; ++j) {
                const cpu_sph_material* m;
                sph_kernel K;
                double d[3], len, terms[6], mu, scale;
                if (w->solid[j] != 0.0) continue;
                m = w->material[j];
                K = sph_kernel_of(m);
                for (c = 0; c < 3; ++c) d[c] = w->x[3 * (size_t)j + c] - w->x[3 * (size_t)b + c];
                len = sph_length(d);
                if (len == 0.0 || !(len * len < K.re2)) continue;
                if (w->ambiguous[j] || w->ambiguous[b]) o->ambiguous |= 2u;
                sph_coupling_terms(m, &K, d, len, w->v + 3 * (size_t)j, w->p[j], w->v + 3 * (size_t)b, w->p[b],
                                   sph_solid_mass(m, w->solid[b]), terms);
                mu = m->viscosity * m->rest_density;
                scale = w->m[j] / w->rho[j];
                for (c = 0; c < 3; ++c) f[c] -= scale * (terms[c] + mu * terms[3 + c]);
                f_abs += scale * (sph_length(terms) + mu * sph_length(terms + 3));
            }
        for (c = 0; c < 3; ++c) o->acceleration[c] = f[c] / w->m[b];
        o->acceleration_abs = f_abs / w->m[b];
    }
}

/* coupling_drag.comp and coupling_drag_fluid.comp: every grain b that a fluid neighbour's material
   drags samples the fluid (Shepard, weights V_j W_j with V_j = m_j / rho0_j: S = sum, u, rho0, nu
   over S, own = sum V_j W_j V_j W_j(0) over S, I = sum (V_j W_j)^2 / m_j), is in it by
   phi = min(S / max(1 - own, 1/2), 1), and takes phi (F_d - rho V g), F_d the implicit impulse of
   Schiller and Naumann's drag over the substep M (u - v) (1 - exp(-beta dt / M)) / dt, M the reduced
   mass of m and S^2 / I over the crowd 1 + sum_k (1 - r_k^2 / R^2)^3 of the other dragged grains
   within R, the materials' largest smoothing radius (beta dt / M <= 1e-4: beta (u - v)), beta first divided by 1 - beta c, c the
   self-induced velocity's 1 / (S^2 / I |u - v| / re + 6 pi rho nu re / 1.814) (re over S, beta c
   at most 0.5); each of those fluid
   neighbours j takes -F W_j / (rho0_j S), F = phi F_d (the drag only: the lift stays the grain's). Accelerations and their scales added to out. */
static void sph_drag_pass(sph_work* w, cpu_sph_particle* out, double far) {
    const cpu_sph_scene* s = w->scene;
    sph_ranges r;
    uint32_t b, k, j, c, pass;
    r.valid = 0;
    for (b = 0; b < w->n; ++b) {
        double S = 0.0, u[3] = {0.0, 0.0, 0.0}, rho = 0.0, nu = 0.0, reach = 0.0, own = 0.0, inertia = 0.0, force[3] = {0.0, 0.0, 0.0}, f_abs = 0.0;
        double apart, fluid, crowd = 1.0;
        double d = 2.0 * fabs(w->solid[b]), vb[3], wr[3], speed, re, beta, mass = w->m[b], relax, phi, volume;
        cpu_sph_particle* o = out + w->slot[b];
        if (!(w->solid[b] < 0.0)) continue;
        sph_candidates(w, b, &r);
        for (pass = 0; pass < 2; ++pass) {   /* 0: the sample; 1: the fluid's shares */
            for (k = 0; k < r.count; ++k)
                for (j = r.begin[k]; j < r.end[k]; ++j) {
                    const cpu_sph_material* m;
                    sph_kernel K;
                    double x[3], r2, weight, q;
                    for (c = 0; c < 3; ++c) x[c] = w->x[3 * (size_t)b + c] - w->x[3 * (size_t)j + c];
                    r2 = sph_dot(x, x);
                    if (w->solid[j] < 0.0 && j != b && pass == 0 && 4.0 * w->solid[j] * w->solid[j] < far * far && r2 < far * far) {
                        q = 1.0 - r2 / (far * far);   /* another dragged grain: the crowd */
                        crowd += q * q * q;
                    }
                    if (w->solid[j] != 0.0) continue;
                    m = w->material[j];
                    K = sph_kernel_of(m);
                    if (!(r2 < K.re2) || !sph_drag_grain(m, w->solid[b])) continue;
                    q = K.re2 - r2;
                    weight = K.poly6 * q * q * q;
                    if (pass == 1) {
                        cpu_sph_particle* oj = out + w->slot[j];
                        for (c = 0; c < 3; ++c) oj->acceleration[c] -= force[c] * weight / (m->rest_density * S);
                        oj->acceleration_abs += f_abs * weight / (m->rest_density * S);
                        continue;
                    }
                    weight *= w->m[j] / m->rest_density;
                    S += weight;
                    for (c = 0; c < 3; ++c) u[c] += weight * w->v[3 * (size_t)j + c];
                    rho += weight * m->rest_density;
                    nu += weight * m->viscosity;
                    reach += weight * m->smoothing_radius;
                    own += weight * (w->m[j] / m->rest_density) * K.poly6 * pow(K.re2, 3.0);
                    inertia += weight * weight / w->m[j];
                }
            if (pass == 1 || !(S > 0.0)) break;
            for (c = 0; c < 3; ++c) { vb[c] = w->v[3 * (size_t)b + c]; wr[c] = u[c] / S - vb[c]; }
            rho /= S; nu /= S; own /= S; reach /= S;
            phi = fmin(S / fmax(1.0 - own, 0.5), 1.0);
            speed = sph_length(wr);
            re = speed * d / nu;
            beta = re < 1000.0 ? 3.0 * CPU_SPH_PI * rho * nu * d * (1.0 + 0.15 * pow(re, 0.687)) : 0.44 * CPU_SPH_PI / 8.0 * rho * d * d * speed;
            if (!(mass > 0.0)) break;
            fluid = S * S / inertia;
            apart = fluid * speed / reach + (double)10.3888f * rho * nu * reach;   /* 6 pi / 1.814 */
            beta /= 1.0 - (apart > 0.0 ? fmin(beta / apart, 0.5) : 0.0);   /* the self-induced velocity */
            mass = 1.0 / (1.0 / mass + crowd / fluid);   /* the reduced mass, the fluid shared by the crowd */
            relax = beta * s->dt / mass;
            volume = CPU_SPH_PI / 6.0 * d * d * d;
            for (c = 0; c < 3; ++c) force[c] = phi * (relax > 1e-4 ? mass / s->dt * (1.0 - exp(-relax)) : beta) * wr[c];   /* the drag */
            f_abs = phi * (relax > 1e-4 ? mass / s->dt * (1.0 - exp(-relax)) : beta) * speed;
            for (c = 0; c < 3; ++c) o->acceleration[c] += (force[c] - phi * rho * volume * s->gravity[c]) / w->m[b];   /* and the lift */
            o->acceleration_abs += (f_abs + phi * rho * volume * sph_length(s->gravity)) / w->m[b];
        }
    }
}

static int sph_is_fluid(const cpu_sph_scene* s, uint32_t k) { return (s->info[k].kind & 0xffu) == GP_KIND_FLUID; }
static int sph_is_solid(const cpu_sph_scene* s, uint32_t k) {
    uint32_t kind = s->info[k].kind & 0xffu;
    return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID;
}

static void sph_compute(const cpu_sph_scene* s, cpu_sph_particle* out, int use_grid) {
    sph_work w;
    cpu_grid grid;
    uint32_t* fluid = (uint32_t*)malloc((size_t)s->count * 4 + 4);
    uint32_t* order = NULL;
    uint32_t nf = 0, k, c;
    double max_re = 0.0;
    memset(&w, 0, sizeof w);
    memset(out, 0, (size_t)s->count * sizeof *out);
    w.scene = s;
    for (k = 0; k < s->count; ++k) {
        uint32_t phase = s->info[k].kind >> 16;
        if (sph_is_solid(s, k) && cpu_finite3(&s->position[k].x)) { fluid[nf++] = k; continue; }   /* a boundary to the fluid */
        if (!sph_is_fluid(s, k)) continue;
        if (phase < s->material_count && cpu_finite3(&s->position[k].x)) {
            fluid[nf++] = k;
            if (s->materials[phase].smoothing_radius > max_re) max_re = s->materials[phase].smoothing_radius;
        } else {   /* meets no one: nothing it computes is defined */
            cpu_sph_particle* o = out + k;
            o->density = o->pressure = o->boundary = NAN;
            o->density_abs = o->pressure_abs = o->pressure_force_abs = o->viscosity_force_abs = o->acceleration_abs = NAN;
            for (c = 0; c < 3; ++c) o->acceleration[c] = NAN;
        }
    }
    w.n = nf;
    w.slot = (uint32_t*)malloc((size_t)nf * 4 + 4);
    if (use_grid) {   /* cells a little larger than re, so that float rounding of a cell never hides a neighbour */
        float* xyz = (float*)malloc((size_t)nf * 16 + 16);
        memset(&grid, 0, sizeof grid);
        grid.cell_size = (float)(max_re * 1.000001);
        for (grid.buckets = 64; grid.buckets < 2 * nf; grid.buckets *= 2) {}
        for (k = 0; k < nf; ++k) memcpy(xyz + 4 * (size_t)k, s->position + fluid[k], 16);
        w.grid = &grid;
        w.cell_start = (uint32_t*)malloc(((size_t)grid.buckets + 2) * 4);
        order = (uint32_t*)malloc((size_t)nf * 4 + 4);
        cpu_grid_build(&grid, xyz, nf, w.cell_start, order);
        free(xyz);
    }
    w.x = (double*)malloc((size_t)nf * 24 + 24);
    w.v = (double*)malloc((size_t)nf * 24 + 24);
    w.m = (double*)malloc((size_t)nf * 8 + 8);
    w.material = (const cpu_sph_material**)malloc((size_t)nf * sizeof *w.material + 8);
    w.rho = (double*)malloc((size_t)nf * 8 + 8);
    w.p = (double*)malloc((size_t)nf * 8 + 8);
    w.pabs = (double*)malloc((size_t)nf * 8 + 8);
    w.wall = (double*)malloc((size_t)nf * 8 + 8);
    w.normal = (double*)malloc((size_t)nf * 24 + 24);
    w.carried = (double*)malloc((size_t)nf * 8 + 8);
    w.solid = (double*)malloc((size_t)nf * 8 + 8);
    w.ambiguous = (uint8_t*)calloc((size_t)nf + 1, 1);
    w.cell = use_grid ? (int32_t*)malloc((size_t)nf * 12 + 12) : NULL;
    for (k = 0; k < nf; ++k) {
        uint32_t from = fluid[order ? order[k] : k];
        const gp_particle_position* P = s->position + from;
        const gp_particle_velocity* V = s->velocity + from;
        w.slot[k] = from;
        w.x[3 * (size_t)k] = P->x; w.x[3 * (size_t)k + 1] = P->y; w.x[3 * (size_t)k + 2] = P->z;
        w.v[3 * (size_t)k] = V->x; w.v[3 * (size_t)k + 1] = V->y; w.v[3 * (size_t)k + 2] = V->z;
        w.m[k] = V->mass;
        /* radius 0: a solid that stands for no mass; a grain's radius negative */
        w.solid[k] = !sph_is_solid(s, from) ? 0.0 : (s->info[from].kind & 0xffu) == GP_KIND_RIGID ? fmax(P->radius, DBL_MIN)
                                                                                                  : -fmax(P->radius, DBL_MIN);
        w.material[k] = w.solid[k] != 0.0 ? NULL : s->materials + (s->info[from].kind >> 16);
        w.carried[k] = s->carried && s->carried[from] > 0.0f ? (double)s->carried[from] : w.material[k] ? w.material[k]->rest_density : 0.0;
        if (use_grid) cpu_grid_cell(&grid, &P->x, w.cell + 3 * (size_t)k);
    }
    sph_pass(&w, out, sph_density);
    sph_solid_pressure_pass(&w);
    sph_pass(&w, out, sph_force);
    sph_solid_pass(&w, out);
    sph_drag_pass(&w, out, max_re);
    free(fluid); free(order); free(w.slot); free(w.cell_start); free(w.x); free(w.v); free(w.m); free((void*)w.material);
    free(w.rho); free(w.p); free(w.pabs); free(w.wall); free(w.normal); free(w.cell); free(w.carried); free(w.solid);
    free(w.ambiguous);
}

void cpu_sph_compute(const cpu_sph_scene* scene, cpu_sph_particle* out) { sph_compute(scene, out, 0); }
void cpu_sph_compute_grid(const cpu_sph_scene* scene, cpu_sph_particle* out) { sph_compute(scene, out, 1); }

/* Symplectic: v += a dt, x += v dt. Explicit: x += v_old dt, v += a dt. A result that is not
   finite: the old x, v = 0. Then the wall push of eq. 11 as a displacement, rest = l0/2: up to 4
   rounds of x += (rest - D) n, v -= min(0, v.n) n while D < rest; a particle still inside a wall
   (D < 0) no further out than it was goes back to its old x and stops. */
void cpu_sph_integrate(const cpu_sph_scene* s, const cpu_sph_particle* computed, gp_integrator integrator,
                       gp_particle_position* position, gp_particle_velocity* velocity) {
    uint32_t k, c;
    double dt = s->dt;
    for (k = 0; k < s->count; ++k) {
        const gp_particle_position* P = s->position + k;
        const gp_particle_velocity* V = s->velocity + k;
        double old[3] = {P->x, P->y, P->z}, x[3] = {P->x, P->y, P->z}, v[3] = {V->x, V->y, V->z}, n[3], D, vn, rest;
        uint32_t phase = s->info[k].kind >> 16;
        int round;
        position[k] = *P;
        velocity[k] = *V;
        if (!sph_is_fluid(s, k) || phase >= s->material_count) continue;
        for (c = 0; c < 3; ++c) {
            double a = computed[k].acceleration[c];
            if (integrator == GP_INTEGRATOR_EXPLICIT_EULER) { x[c] += v[c] * dt; v[c] += a * dt; }
            else { v[c] += a * dt; x[c] += v[c] * dt; }
        }
        if (!isfinite(x[0] + x[1] + x[2] + v[0] + v[1] + v[2])) {
            memcpy(x, old, sizeof x);
            v[0] = v[1] = v[2] = 0.0;
        }
        rest = 0.5 * s->materials[phase].spacing;
        D = cpu_sph_boundary(s->colliders, s->collider_count, x, n);
        for (round = 0; round < 4 && D < rest; ++round) {
            for (c = 0; c < 3; ++c) x[c] += (rest - D) * n[c];
            vn = sph_dot(v, n);
            if (vn < 0.0)
                for (c = 0; c < 3; ++c) v[c] -= vn * n[c];
            D = cpu_sph_boundary(s->colliders, s->collider_count, x, n);
        }
        if (D < 0.0 && cpu_sph_boundary(s->colliders, s->collider_count, old, n) >= D) {
            memcpy(x, old, sizeof x);
            v[0] = v[1] = v[2] = 0.0;
        }
        position[k].x = (float)x[0]; position[k].y = (float)x[1]; position[k].z = (float)x[2];
        velocity[k].x = (float)v[0]; velocity[k].y = (float)v[1]; velocity[k].z = (float)v[2];
    }
}
