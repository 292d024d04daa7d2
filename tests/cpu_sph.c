/* cpu_sph.c: see cpu_sph.h. The comment above each function states the formula it implements:
   Müller, Charypar and Gross 2003 kernels, paper 001's WCSPH with wall weight functions. Double
   precision throughout; the inputs are the GPU's floats. */
#include "cpu_sph.h"
#include "cpu_reference.h"
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
static double sph_wall_sum(const cpu_sph_material* m, double d, int viscosity) {
    double l0 = m->spacing, re = m->smoothing_radius, sum = 0.0;
    int A = sph_lattice_reach(l0, re), a, b, c;
    if (d < 0.0) d = 0.0;
    for (a = -A; a <= A; ++a)
        for (b = -A; b <= A; ++b)
            for (c = 0; c <= A; ++c) {
                double dz = d + ((double)c + 0.5) * l0;
                double r = sqrt((double)(a * a + b * b) * l0 * l0 + dz * dz);
                if (r < re) sum += viscosity ? cpu_sph_lap_w(r, re) : cpu_sph_w(r, re);
            }
    return sum;
}

double cpu_sph_wall_density_exact(const cpu_sph_material* m, double d) { return m->mass * sph_wall_sum(m, d, 0); }
double cpu_sph_wall_viscosity_exact(const cpu_sph_material* m, double d) {
    return m->mass / m->rest_density * sph_wall_sum(m, d, 1);
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

/* Adds the terms of wall particles at (x, y, z0 + c l0) over c for c = 0 (along 0) or whole c. */
static void sph_wall_line(const cpu_sph_material* m, double x, double y, double z0, int whole, double out[2]) {
    double l0 = m->spacing, re = m->smoothing_radius;
    int c;
    for (c = whole ? -sph_lattice_reach(l0, re) : 0; c <= (whole ? sph_lattice_reach(l0, re) : 0); ++c) {
        double z = z0 + c * l0, r = sqrt(x * x + y * y + z * z);
        if (r < re) {
            out[0] += m->mass * cpu_sph_w(r, re);
            out[1] += m->mass / m->rest_density * cpu_sph_lap_w(r, re);
        }
    }
}

void cpu_sph_wall_edge(const cpu_sph_material* m, double da, double db, double out[2]) {
    double l0 = m->spacing;
    int A = sph_lattice_reach(l0, m->smoothing_radius), a, b;
    out[0] = out[1] = 0.0;
    for (a = 0; a <= A; ++a)
        for (b = 0; b <= A; ++b)
            sph_wall_line(m, fmax(da, 0.0) + (a + 0.5) * l0, fmax(db, 0.0) + (b + 0.5) * l0, 0.0, 1, out);
}

void cpu_sph_wall_corner(const cpu_sph_material* m, double da, double db, double dc, double out[2]) {
    double l0 = m->spacing;
    int A = sph_lattice_reach(l0, m->smoothing_radius), a, b, c;
    out[0] = out[1] = 0.0;
    for (a = 0; a <= A; ++a)
        for (b = 0; b <= A; ++b)
            for (c = 0; c <= A; ++c)
                sph_wall_line(m, fmax(da, 0.0) + (a + 0.5) * l0, fmax(db, 0.0) + (b + 0.5) * l0, fmax(dc, 0.0) + (c + 0.5) * l0, 0,
                              out);
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
    for (k = 0; k < CPU_SPH_WALL_SAMPLES; ++k) {
        double d = (double)k * m.table_spacing;
        m.wall_density[k] = cpu_sph_wall_density_exact(&m, d);
        m.wall_viscosity[k] = cpu_sph_wall_viscosity_exact(&m, d);
    }
    return m;
}

static double sph_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double sph_length(const double a[3]) { return sqrt(sph_dot(a, a)); }

/* One collider's signed distance, positive on the particles' side, and its unit gradient. */
static double sph_collider(const gp_collider_desc* c, const double x[3], double n[3]) {
    double d[3], s = INFINITY, len;
    int a;
    n[0] = n[1] = n[2] = 0.0;
    for (a = 0; a < 3; ++a) d[a] = x[a] - c->center[a];
    switch (c->shape) {
    case GP_SHAPE_SPHERE:
        len = sph_length(d);
        s = len - c->radius;
        if (len > 0.0) { n[0] = d[0] / len; n[1] = d[1] / len; n[2] = d[2] / len; } else n[1] = 1.0;
        break;
    case GP_SHAPE_BOX: {   /* q = |d| - h: outside, the length of max(q, 0); inside, the largest q */
        double q[3], outside[3];
        int largest = 0;
        for (a = 0; a < 3; ++a) {
            q[a] = fabs(d[a]) - c->half_extents[a];
            outside[a] = q[a] > 0.0 ? q[a] : 0.0;
            if (q[a] > q[largest]) largest = a;
        }
        len = sph_length(outside);
        if (len > 0.0) {
            s = len;
            for (a = 0; a < 3; ++a) n[a] = (d[a] < 0.0 ? -outside[a] : outside[a]) / len;
        } else {
            s = q[largest];
            n[largest] = d[largest] < 0.0 ? -1.0 : 1.0;
        }
        break;
    }
    case GP_SHAPE_CAPSULE: {   /* distance to the closest point of the segment center..end */
        double ab[3], t, ab2;
        for (a = 0; a < 3; ++a) ab[a] = (double)c->end[a] - c->center[a];
        ab2 = sph_dot(ab, ab);
        t = ab2 > 0.0 ? sph_dot(d, ab) / ab2 : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        for (a = 0; a < 3; ++a) d[a] -= t * ab[a];
        len = sph_length(d);
        s = len - c->radius;
        if (len > 0.0) { n[0] = d[0] / len; n[1] = d[1] / len; n[2] = d[2] / len; } else n[1] = 1.0;
        break;
    }
    case GP_SHAPE_PLANE: {   /* planes ignore inside */
        double normal[3] = {c->normal[0], c->normal[1], c->normal[2]};
        len = sph_length(normal);
        for (a = 0; a < 3; ++a) n[a] = normal[a] / len;
        return sph_dot(d, n);
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

double cpu_sph_boundary(const gp_collider_desc* colliders, uint32_t count, const double x[3], double normal[3]) {
    double best = INFINITY, n[3];
    uint32_t k;
    normal[0] = normal[1] = normal[2] = 0.0;
    for (k = 0; k < count; ++k) {
        double s = sph_collider(colliders + k, x, n);
        if (s < best) { best = s; memcpy(normal, n, sizeof n); }
    }
    return best;
}

/* The walls' shares of density and viscosity at x, as the GPU sums them: each collider at its own
   distance; a container box face by face (each face a plane wall), less its edges, plus its
   corners (cpu_sph_wall_edge); every term within re. */
static void sph_wall_shares(const cpu_sph_scene* s, const cpu_sph_material* m, const double x[3], double* zrho, double* zvis) {
    double re = m->smoothing_radius, share[2];
    uint32_t k;
    *zrho = *zvis = 0.0;
    for (k = 0; k < s->collider_count; ++k) {
        const gp_collider_desc* c = s->colliders + k;
        double d[6], n[3];
        int f, faces = 1, g, h;
        if (c->shape == GP_SHAPE_BOX && c->inside) {
            for (f = 0; f < 3; ++f) {   /* d[2 f + side]: the face on the low (0) and high (1) side of axis f */
                d[2 * f] = (double)c->half_extents[f] + (x[f] - c->center[f]);
                d[2 * f + 1] = (double)c->half_extents[f] - (x[f] - c->center[f]);
            }
            faces = 6;
        } else {
            d[0] = sph_collider(c, x, n);
        }
        for (f = 0; f < faces; ++f)
            if (d[f] < re) {
                *zrho += cpu_sph_wall_density(m, d[f]);
                *zvis += cpu_sph_wall_viscosity(m, d[f]);
            }
        if (faces == 1) continue;
        for (f = 0; f < 6; ++f)        /* edges: faces of two different axes */
            for (g = f + 1; g < 6; ++g)
                if (f / 2 != g / 2 && d[f] < re && d[g] < re) {
                    cpu_sph_wall_edge(m, d[f], d[g], share);
                    *zrho -= share[0];
                    *zvis -= share[1];
                }
        for (f = 0; f < 2; ++f)        /* corners: a face of each axis */
            for (g = 2; g < 4; ++g)
                for (h = 4; h < 6; ++h)
                    if (d[f] < re && d[g] < re && d[h] < re) {
                        cpu_sph_wall_corner(m, d[f], d[g], d[h], share);
                        *zrho += share[0];
                        *zvis += share[1];
                    }
    }
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

/* rho_i = sum_j m_j W(|x_i - x_j|) over fluid j within re (j = i included) + Zrho(D(x_i));
   p_i = p0 + k (rho_i - rho0), clamped at 0 without tension (001 eqs. 4, 5, 10, 13). */
static void sph_density_pass(sph_work* w, cpu_sph_particle* out) {
    const cpu_sph_scene* s = w->scene;
    sph_ranges r;
    uint32_t i, k, j;
    r.valid = 0;
    for (i = 0; i < w->n; ++i) {
        const cpu_sph_material* m = w->material[i];
        sph_kernel K = sph_kernel_of(m);
        const double* xi = w->x + 3 * (size_t)i;
        double rho = 0.0, zrho, zvis;
        uint32_t neighbors = 0;
        cpu_sph_particle* o = out + w->slot[i];
        sph_candidates(w, i, &r);
        for (k = 0; k < r.count; ++k)
            for (j = r.begin[k]; j < r.end[k]; ++j) {
                const double* xj = w->x + 3 * (size_t)j;
                double d0 = xi[0] - xj[0], d1 = xi[1] - xj[1], d2 = xi[2] - xj[2];
                double r2 = d0 * d0 + d1 * d1 + d2 * d2, q;
                if (!(r2 < K.re2)) continue;
                q = K.re2 - r2;
                rho += w->m[j] * K.poly6 * q * q * q;
                ++neighbors;
            }
        w->wall[i] = cpu_sph_boundary(s->colliders, s->collider_count, xi, w->normal + 3 * (size_t)i);
        sph_wall_shares(s, m, xi, &zrho, &zvis);
        rho += zrho;
        w->rho[i] = rho;
        w->p[i] = m->rest_pressure + m->stiffness * (rho - m->rest_density);
        if (!m->allow_tension && w->p[i] < 0.0) w->p[i] = 0.0;
        w->pabs[i] = fabs(m->rest_pressure) + m->stiffness * (rho + m->rest_density);
        o->density = o->density_abs = rho;
        o->pressure = w->p[i];
        o->pressure_abs = w->pabs[i];
        o->boundary = w->wall[i];
        o->neighbors = neighbors;
    }
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
static void sph_force_pass(sph_work* w, cpu_sph_particle* out) {
    const cpu_sph_scene* s = w->scene;
    sph_ranges r;
    uint32_t i, k, j, c;
    r.valid = 0;
    for (i = 0; i < w->n; ++i) {
        const cpu_sph_material* m = w->material[i];
        sph_kernel K = sph_kernel_of(m);
        const double *xi = w->x + 3 * (size_t)i, *vi = w->v + 3 * (size_t)i;
        double mu = m->viscosity * m->rest_density, pi = w->p[i], Pi = w->pabs[i];
        double fp[3] = {0.0, 0.0, 0.0}, fv[3] = {0.0, 0.0, 0.0}, fp_abs = 0.0, fv_abs = 0.0, zrho, zvis, external;
        cpu_sph_particle* o = out + w->slot[i];
        sph_candidates(w, i, &r);
        for (k = 0; k < r.count; ++k)
            for (j = r.begin[k]; j < r.end[k]; ++j) {
                const double *xj = w->x + 3 * (size_t)j, *vj = w->v + 3 * (size_t)j;
                double d[3], r2, len, grad, lap, pc, vc, dv[3];
                d[0] = xi[0] - xj[0]; d[1] = xi[1] - xj[1]; d[2] = xi[2] - xj[2];
                r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if (j == i || !(r2 < K.re2)) continue;
                len = sqrt(r2);
                grad = K.spiky * (K.re - len) * (K.re - len);   /* |gradW| */
                lap = K.visc * (K.re - len);
                pc = w->m[j] / w->rho[j] * grad;
                if (len > 0.0)
                    for (c = 0; c < 3; ++c) fp[c] += pc * (pi + w->p[j]) * d[c] / len;   /* -(...)(-grad d/len) */
                fp_abs += pc * (Pi + w->pabs[j]);
                vc = mu * w->m[j] / w->rho[j] * lap;
                for (c = 0; c < 3; ++c) { dv[c] = vj[c] - vi[c]; fv[c] += vc * dv[c]; }
                fv_abs += vc * sph_length(dv);
            }
        sph_wall_shares(s, m, w->x + 3 * (size_t)i, &zrho, &zvis);
        for (c = 0; c < 3; ++c) fv[c] -= mu * vi[c] * zvis;
        fv_abs += mu * sph_length(vi) * zvis;
        for (c = 0; c < 3; ++c) o->acceleration[c] = (fp[c] + fv[c]) / w->rho[i];
        external = sph_external(s, xi, o->acceleration);
        o->pressure_force_abs = fp_abs;
        o->viscosity_force_abs = fv_abs;
        o->acceleration_abs = (fp_abs + fv_abs) / w->rho[i] + external;
    }
}

static int sph_is_fluid(const cpu_sph_scene* s, uint32_t k) { return (s->info[k].kind & 0xffu) == GP_KIND_FLUID; }

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
    w.cell = use_grid ? (int32_t*)malloc((size_t)nf * 12 + 12) : NULL;
    for (k = 0; k < nf; ++k) {
        uint32_t from = fluid[order ? order[k] : k];
        const gp_particle_position* P = s->position + from;
        const gp_particle_velocity* V = s->velocity + from;
        w.slot[k] = from;
        w.x[3 * (size_t)k] = P->x; w.x[3 * (size_t)k + 1] = P->y; w.x[3 * (size_t)k + 2] = P->z;
        w.v[3 * (size_t)k] = V->x; w.v[3 * (size_t)k + 1] = V->y; w.v[3 * (size_t)k + 2] = V->z;
        w.m[k] = V->mass;
        w.material[k] = s->materials + (s->info[from].kind >> 16);
        if (use_grid) cpu_grid_cell(&grid, &P->x, w.cell + 3 * (size_t)k);
    }
    sph_density_pass(&w, out);
    sph_force_pass(&w, out);
    free(fluid); free(order); free(w.slot); free(w.cell_start); free(w.x); free(w.v); free(w.m); free((void*)w.material);
    free(w.rho); free(w.p); free(w.pabs); free(w.wall); free(w.normal); free(w.cell);
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
