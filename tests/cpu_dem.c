/* cpu_dem.c: see cpu_dem.h. The comment above each function states the formula it implements
   (paper 000: contact eqs. 10-13 at the contact points, rigid bodies eqs. 1-8 and 14-20; the
   model as gpuparticle.h section >>dem implements it). Double precision throughout; the inputs
   are the GPU's floats. The walls are each collider on its own (cpu_collider_distance), not
   cpu_sph_boundary's minimum (the fluid's, not the contacts'). */
#include "cpu_dem.h"
#include "cpu_collider.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CPU_DEM_PI 3.14159265358979323846
#define CPU_DEM_ROUNDING 1e-12   /* relative: what a shape's inertia tensor treats as its rounding */

static double dem_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double dem_length(const double a[3]) { return sqrt(dem_dot(a, a)); }
static void dem_cross(const double a[3], const double b[3], double out[3]) {
    double c[3];
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
    memcpy(out, c, sizeof c);
}
static int dem_finite3(const double a[3]) { return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]); }

/* ---- materials and the closed-form collision ----------------------------------------------- */

/* m = rho pi d^3 / 6, k = 200 m / d^2, eta = 2 zeta sqrt(m_eff k) with m_eff = m / 2 and
   zeta = -ln 0.5 / sqrt(pi^2 + ln^2 0.5) (restitution 0.5), k_t = eta, mu = 0.5, k_s = 2k / 7
   (the spring model). */
cpu_dem_material cpu_dem_material_default(double diameter) {
    cpu_dem_material m;
    double ln_e = log(0.5), zeta = -ln_e / sqrt(CPU_DEM_PI * CPU_DEM_PI + ln_e * ln_e);
    m.diameter = diameter;
    m.density = 2500.0;
    m.mass = m.density * CPU_DEM_PI * diameter * diameter * diameter / 6.0;
    m.stiffness = 200.0 * m.mass / (diameter * diameter);
    m.damping = 2.0 * zeta * sqrt(0.5 * m.mass * m.stiffness);
    m.shear = m.damping;
    m.friction = 0.3;
    m.tangential_stiffness = 2.0 * m.stiffness / 7.0;
    m.viscous = 0;
    return m;
}

double cpu_dem_material_ks(const cpu_dem_material* m) { return m->viscous ? 0.0 : m->tangential_stiffness; }

/* m_eff x'' = -k x - eta x': x = (v0 / w) e^{-g t} sin(w t) returns to 0 at t_c = pi / w with
   the velocity -v0 e^{-g t_c}. */
double cpu_dem_contact_duration(double k, double eta, double m1, double m2) {
    double m_eff = m1 * m2 / (m1 + m2), w0 = sqrt(k / m_eff), g = eta / (2.0 * m_eff);
    if (w0 <= g) return CPU_DEM_PI / w0;
    return CPU_DEM_PI / sqrt(w0 * w0 - g * g);
}

double cpu_dem_restitution(double k, double eta, double m1, double m2) {
    double m_eff = m1 * m2 / (m1 + m2), w0 = sqrt(k / m_eff), g = eta / (2.0 * m_eff);
    if (w0 <= g) return 0.0;
    return exp(-g * CPU_DEM_PI / sqrt(w0 * w0 - g * g));
}

double cpu_dem_material_substep(const cpu_dem_material* m) {
    return cpu_dem_contact_duration(m->stiffness, m->damping, m->mass, m->mass) / 12.0;
}

/* ---- contact forces ------------------------------------------------------------------------- */

/* vn = v_rel . n, v_t = v_rel - vn n; xi = xi - (xi . n) n + v_t h; f_t = k_s xi + k_t v_t
   capped at mu max(0, k delta - eta vn) (Coulomb; sliding: xi = (f_t - k_t v_t) / k_s);
   f = (eta vn - k delta) n + f_t (eqs. 10-13 with the spring) */
int cpu_dem_contact(const double n[3], double delta, const double v_rel[3], double k, double eta, double kt, double mu,
                    double ks, double h, double xi[3], double f[3]) {
    double vt[3], ft[3], len, vn = dem_dot(v_rel, n), xn = dem_dot(xi, n), limit = mu * fmax(0.0, k * delta - eta * vn);
    int c, sliding = 0;
    for (c = 0; c < 3; ++c) {
        vt[c] = v_rel[c] - vn * n[c];
        xi[c] = xi[c] - xn * n[c] + vt[c] * h;
        ft[c] = ks * xi[c] + kt * vt[c];
    }
    len = dem_length(ft);
    if (len > limit) {   /* Coulomb; limit 0 -> f_t = 0 */
        double scale = len > 0.0 ? limit / len : 0.0;
        sliding = 1;
        for (c = 0; c < 3; ++c) {
            ft[c] *= scale;
            if (ks > 0.0) xi[c] = (ft[c] - kt * vt[c]) / ks;   /* sliding: the spring holds the Coulomb force */
        }
    }
    for (c = 0; c < 3; ++c) f[c] = (eta * vn - k * delta) * n[c] + ft[c];
    return sliding;
}

/* ---- the springs' history --------------------------------------------------------------------- */

uint32_t cpu_dem_wall_key(uint32_t collider, uint32_t face) { return collider * 8u + face; }

static int dem_spring_order(uint32_t id, uint32_t wall, uint32_t partner, const cpu_dem_spring* s) {
    if (id != s->id) return id < s->id ? -1 : 1;
    if (wall != s->wall) return wall < s->wall ? -1 : 1;
    if (partner != s->partner) return partner < s->partner ? -1 : 1;
    return 0;
}

static int dem_spring_compare(const void* a, const void* b) {
    const cpu_dem_spring* s = (const cpu_dem_spring*)a;
    return dem_spring_order(s->id, s->wall, s->partner, (const cpu_dem_spring*)b);
}

const double* cpu_dem_history_find(const cpu_dem_history* history, uint32_t id, uint32_t wall, uint32_t partner) {
    uint32_t lo = 0, hi = history ? history->count : 0;
    while (lo < hi) {   /* binary search of the sorted array */
        uint32_t mid = lo + (hi - lo) / 2;
        int o = dem_spring_order(id, wall, partner, history->springs + mid);
        if (o == 0) return history->springs[mid].xi;
        if (o < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

/* Appends a spring (unsorted: dem_history_sort after the pass). Returns 0 for no memory. */
static int dem_history_add(cpu_dem_history* h, uint32_t id, uint32_t wall, uint32_t partner, uint32_t sliding, const double xi[3]) {
    cpu_dem_spring* s;
    if (h->count == h->capacity) {
        uint32_t capacity = h->capacity ? 2 * h->capacity : 64;
        cpu_dem_spring* grown = (cpu_dem_spring*)realloc(h->springs, (size_t)capacity * sizeof *grown);
        if (!grown) return 0;
        h->springs = grown;
        h->capacity = capacity;
    }
    s = h->springs + h->count++;
    s->id = id;
    s->wall = wall;
    s->partner = partner;
    s->sliding = sliding;
    memcpy(s->xi, xi, sizeof s->xi);
    return 1;
}

static void dem_history_sort(cpu_dem_history* h) {
    if (h->count > 1) qsort(h->springs, h->count, sizeof *h->springs, dem_spring_compare);
}

int cpu_dem_history_copy(cpu_dem_history* to, const cpu_dem_history* from) {
    memset(to, 0, sizeof *to);
    if (!from->count) return 1;
    to->springs = (cpu_dem_spring*)malloc((size_t)from->count * sizeof *to->springs);
    if (!to->springs) return 0;
    memcpy(to->springs, from->springs, (size_t)from->count * sizeof *to->springs);
    to->count = to->capacity = from->count;
    return 1;
}

void cpu_dem_history_free(cpu_dem_history* history) {
    free(history->springs);
    memset(history, 0, sizeof *history);
}

/* A contact at lever (from the particle's centre, along n): u = v + w x lever (w NULL: v). */
static void dem_surface_velocity(const double v[3], const double w[3], const double lever[3], double u[3]) {
    int c;
    if (w) dem_cross(w, lever, u);
    else u[0] = u[1] = u[2] = 0.0;
    for (c = 0; c < 3; ++c) u[c] += v[c];
}

/* The relative tolerance of "touching": float finds an overlap of rounding's size, or none,
   within it of r_i + r_j (or of a wall at r). */
#define CPU_DEM_TOUCHING 1e-6

/* d = x_b - x_a, n = d / |d|, delta = r_a + r_b - |d|, the contact point at
   lever_a = (r_a - delta/2) n from a and lever_b = -(r_b - delta/2) n from b; u = v + w x lever;
   f_a = contact(n, delta, u_b - u_a, xi), f_b = -f_a; torques lever x f. Each of k, eta, k_t, mu,
   k_s the mean of both materials: both particles compute the same numbers in a's frame. */
void cpu_dem_pair_force(const double xa[3], const double va[3], const double wa[3], double ra, const cpu_dem_material* ma,
                        const double xb[3], const double vb[3], const double wb[3], double rb, const cpu_dem_material* mb,
                        const double xi_old[3], double h, double damping, cpu_dem_pair* out) {
    double d[3], n[3], la[3], lb[3], ua[3], ub[3], v[3], fb[3], dist, delta, reach = ra + rb;
    double k = 0.5 * (ma->stiffness + mb->stiffness), eta = 0.5 * (ma->damping + mb->damping) * damping;
    double kt = 0.5 * (ma->shear + mb->shear) * damping, mu = 0.5 * (ma->friction + mb->friction);
    double ks = 0.5 * (cpu_dem_material_ks(ma) + cpu_dem_material_ks(mb)), kept = xi_old ? dem_length(xi_old) : 0.0;
    int c, touching, borderline;
    memset(out, 0, sizeof *out);
    out->ks = ks;
    for (c = 0; c < 3; ++c) d[c] = xb[c] - xa[c];
    dist = dem_length(d);
    touching = dist != 0.0 && dist < reach;   /* NaN fails the test: meets no one */
    borderline = dist != 0.0 && fabs(dist - reach) <= CPU_DEM_TOUCHING * reach;
    if (!touching && !borderline) return;
    delta = touching ? reach - dist : 0.0;   /* borderline and apart: the force it would have at contact */
    for (c = 0; c < 3; ++c) {
        n[c] = d[c] / dist;
        la[c] = (ra - 0.5 * delta) * n[c];
        lb[c] = -(rb - 0.5 * delta) * n[c];
        out->xi[c] = xi_old ? xi_old[c] : 0.0;
    }
    dem_surface_velocity(va, wa, la, ua);
    dem_surface_velocity(vb, wb, lb, ub);
    for (c = 0; c < 3; ++c) v[c] = ub[c] - ua[c];
    out->sliding = cpu_dem_contact(n, delta, v, k, eta, kt, mu, ks, h, out->xi, out->force);
    for (c = 0; c < 3; ++c) fb[c] = -out->force[c];
    dem_cross(la, out->force, out->torque_a);
    dem_cross(lb, fb, out->torque_b);
    if (borderline) out->ambiguous = dem_length(out->force);
    if (!touching) {   /* only what float may count */
        double ambiguous = out->ambiguous;
        memset(out, 0, sizeof *out);
        out->ks = ks;
        out->ambiguous = ambiguous;
        out->magnitude = k * (reach + dist) + ks * kept;
        return;
    }
    out->touching = 1;
    out->magnitude = k * (reach + dist) + (eta + kt + ks * h) * (dem_length(ua) + dem_length(ub)) + ks * kept;
}

double cpu_dem_damping_scale(double ma, double mb, double Ma, double Mb) {
    double m = mb > 0.0 ? ma * mb / (ma + mb) : ma, M = Mb > 0.0 ? Ma * Mb / (Ma + Mb) : Ma;
    return sqrt(M / m);
}

/* One wall at distance phi with normal n_w (towards the particle): a still partner in
   direction n = -n_w, overlap r - phi, its own spring under key `wall`. Adds force and torque,
   returns the magnitudes' sum (size: the sizes in phi's sum). */
static double dem_wall(double phi, const double n_w[3], double size, const double v[3], const double w[3], double r,
                       const cpu_dem_material* m, uint32_t id, uint32_t wall, const cpu_dem_history* old, cpu_dem_history* next,
                       double h, double damping, double f[3], double torque[3], double* ambiguous) {
    double n[3], lever[3], u[3], fc[3], t[3], xi[3] = {0.0, 0.0, 0.0}, delta = r - phi, ks = cpu_dem_material_ks(m), kept;
    const double* xi_old = old ? cpu_dem_history_find(old, id, 1, wall) : NULL;
    int c, sliding, touching = delta > 0.0, borderline = fabs(delta) <= CPU_DEM_TOUCHING * (r + size);
    if (xi_old) memcpy(xi, xi_old, sizeof xi);
    kept = dem_length(xi);
    if (!touching && !borderline) return 0.0;   /* NaN: neither */
    if (!touching) delta = 0.0;   /* borderline and apart: the force it would have at contact */
    for (c = 0; c < 3; ++c) {
        n[c] = -n_w[c];
        lever[c] = (r - 0.5 * delta) * n[c];
    }
    dem_surface_velocity(v, w, lever, u);
    for (c = 0; c < 3; ++c) u[c] = -u[c];   /* the wall's surface (at rest) relative to the particle's */
    sliding = cpu_dem_contact(n, delta, u, m->stiffness, m->damping * damping, m->shear * damping, m->friction, ks, h, xi, fc);
    if (borderline && ambiguous) *ambiguous += dem_length(fc);   /* float may count it or not */
    if (!touching) return m->stiffness * (r + size) + ks * kept;
    if (next && ks > 0.0) dem_history_add(next, id, 1, wall, (uint32_t)sliding, xi);
    for (c = 0; c < 3; ++c) f[c] += fc[c];
    if (torque) {
        dem_cross(lever, fc, t);
        for (c = 0; c < 3; ++c) torque[c] += t[c];
    }
    return m->stiffness * (r + size) + ((m->damping + m->shear) * damping + ks * h) * dem_length(u) + ks * kept;
}

double cpu_dem_wall_force(const gp_collider_desc* colliders, uint32_t collider_count, const double x[3], const double v[3],
                          const double w[3], double r, const cpu_dem_material* m, uint32_t id, const cpu_dem_history* old,
                          cpu_dem_history* next, double h, double damping, double f[3], double torque[3], double* ambiguous) {
    double sum = 0.0;
    uint32_t k;
    int a;
    if (!dem_finite3(x)) return 0.0;
    for (k = 0; k < collider_count; ++k) {
        const gp_collider_desc* c = colliders + k;
        double d[3], n[3], size, phi;
        for (a = 0; a < 3; ++a) d[a] = x[a] - c->center[a];
        if (c->shape == GP_SHAPE_BOX && c->inside) {   /* six plane walls: h_a + d_a below (face 2a), h_a - d_a above (2a + 1) */
            for (a = 0; a < 3; ++a) {
                double e[3] = {0.0, 0.0, 0.0};
                size = (double)c->half_extents[a] + fabs(d[a]);
                e[a] = 1.0;
                sum += dem_wall(c->half_extents[a] + d[a], e, size, v, w, r, m, id, cpu_dem_wall_key(k, 2u * (uint32_t)a), old, next,
                                h, damping, f, torque, ambiguous);
                e[a] = -1.0;
                sum += dem_wall(c->half_extents[a] - d[a], e, size, v, w, r, m, id, cpu_dem_wall_key(k, 2u * (uint32_t)a + 1u), old,
                                next, h, damping, f, torque, ambiguous);
            }
            continue;
        }
        phi = cpu_collider_distance(c, x, n);
        size = dem_length(d);
        if (c->shape == GP_SHAPE_SPHERE || c->shape == GP_SHAPE_CAPSULE) size += c->radius;
        if (c->shape == GP_SHAPE_BOX) {
            double hx[3] = {c->half_extents[0], c->half_extents[1], c->half_extents[2]};
            size += dem_length(hx);
        }
        if (c->shape == GP_SHAPE_CAPSULE) {
            size += 2.0 * c->half_height;
        }
        if (isfinite(phi))
            sum += dem_wall(phi, n, size, v, w, r, m, id, cpu_dem_wall_key(k, 6u), old, next, h, damping, f, torque, ambiguous);
    }
    return sum;
}

/* ---- quaternions ---------------------------------------------------------------------------- */

/* [a_s, a] [b_s, b] = [a_s b_s - a.b, a_s b + b_s a + a x b] */
void cpu_dem_quat_mul(const double a[4], const double b[4], double out[4]) {
    double r[4];
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3];
    r[3] = a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1];
    memcpy(out, r, sizeof r);
}

void cpu_dem_quat_conj(const double q[4], double out[4]) {
    out[0] = q[0]; out[1] = -q[1]; out[2] = -q[2]; out[3] = -q[3];
}

void cpu_dem_quat_normalize(double q[4]) {
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    int c;
    if (len > 0.0)
        for (c = 0; c < 4; ++c) q[c] /= len;
}

void cpu_dem_quat_to_matrix(const double q[4], double m[9]) {
    double s = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1.0 - 2.0 * (y * y + z * z); m[1] = 2.0 * (x * y - s * z);       m[2] = 2.0 * (x * z + s * y);
    m[3] = 2.0 * (x * y + s * z);       m[4] = 1.0 - 2.0 * (x * x + z * z); m[5] = 2.0 * (y * z - s * x);
    m[6] = 2.0 * (x * z - s * y);       m[7] = 2.0 * (y * z + s * x);       m[8] = 1.0 - 2.0 * (x * x + y * y);
}

/* Shepperd's method: from the largest of 4 s^2, 4 x^2, 4 y^2, 4 z^2 (trace and diagonal), so
   no division by a small number; then the sign that makes s >= 0. */
void cpu_dem_quat_from_matrix(const double m[9], double q[4]) {
    double t[4], r;
    int big = 0, c;
    t[0] = 1.0 + m[0] + m[4] + m[8];
    t[1] = 1.0 + m[0] - m[4] - m[8];
    t[2] = 1.0 - m[0] + m[4] - m[8];
    t[3] = 1.0 - m[0] - m[4] + m[8];
    for (c = 1; c < 4; ++c)
        if (t[c] > t[big]) big = c;
    r = 0.5 * sqrt(t[big]);   /* |q_big| */
    switch (big) {
    case 0:
        q[0] = r; q[1] = (m[7] - m[5]) / (4.0 * r); q[2] = (m[2] - m[6]) / (4.0 * r); q[3] = (m[3] - m[1]) / (4.0 * r);
        break;
    case 1:
        q[1] = r; q[0] = (m[7] - m[5]) / (4.0 * r); q[2] = (m[1] + m[3]) / (4.0 * r); q[3] = (m[2] + m[6]) / (4.0 * r);
        break;
    case 2:
        q[2] = r; q[0] = (m[2] - m[6]) / (4.0 * r); q[1] = (m[1] + m[3]) / (4.0 * r); q[3] = (m[5] + m[7]) / (4.0 * r);
        break;
    default:
        q[3] = r; q[0] = (m[3] - m[1]) / (4.0 * r); q[1] = (m[2] + m[6]) / (4.0 * r); q[2] = (m[5] + m[7]) / (4.0 * r);
        break;
    }
    if (q[0] < 0.0)
        for (c = 0; c < 4; ++c) q[c] = -q[c];
    cpu_dem_quat_normalize(q);
}

static void dem_matrix_apply(const double m[9], const double v[3], double out[3]) {
    double r[3];
    int a;
    for (a = 0; a < 3; ++a) r[a] = m[3 * a] * v[0] + m[3 * a + 1] * v[1] + m[3 * a + 2] * v[2];
    memcpy(out, r, sizeof r);
}
static void dem_matrix_apply_transposed(const double m[9], const double v[3], double out[3]) {
    double r[3];
    int a;
    for (a = 0; a < 3; ++a) r[a] = m[a] * v[0] + m[3 + a] * v[1] + m[6 + a] * v[2];
    memcpy(out, r, sizeof r);
}

void cpu_dem_quat_rotate(const double q[4], const double v[3], double out[3]) {
    double m[9];
    cpu_dem_quat_to_matrix(q, m);
    dem_matrix_apply(m, v, out);
}

/* ---- shapes ----------------------------------------------------------------------------------- */

/* Cyclic Jacobi on a symmetric 3x3 a (destroyed): A' = P^T A P with the rotation of the (p, q)
   plane that zeroes a_pq (Numerical Recipes' jacobi: theta = (a_qq - a_pp) / 2 a_pq,
   t = sgn(theta) / (|theta| + sqrt(theta^2 + 1)), c = 1 / sqrt(t^2 + 1), s = t c; P_pp = P_qq = c,
   P_pq = s, P_qp = -s), V = V P, until the off-diagonal part is negligible. Eigenvalues on the
   diagonal of a, eigenvectors in the columns of v. */
static void dem_jacobi(double a[3][3], double v[3][3]) {
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    int sweep, e, i, j, l;
    memset(v, 0, 9 * sizeof(double));
    v[0][0] = v[1][1] = v[2][2] = 1.0;
    for (sweep = 0; sweep < 64; ++sweep) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off == 0.0 || off <= 1e-18 * diag) break;
        for (e = 0; e < 3; ++e) {
            int p = pairs[e][0], q = pairs[e][1];
            double theta, t, c, s, P[3][3], tmp[3][3];
            if (a[p][q] == 0.0) continue;
            theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            t = fabs(theta) > 1e150 ? 0.5 / theta : (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
            c = 1.0 / sqrt(t * t + 1.0);
            s = t * c;
            memset(P, 0, sizeof P);
            P[0][0] = P[1][1] = P[2][2] = 1.0;
            P[p][p] = P[q][q] = c;
            P[p][q] = s;
            P[q][p] = -s;
            for (i = 0; i < 3; ++i)   /* tmp = A P */
                for (j = 0; j < 3; ++j) {
                    tmp[i][j] = 0.0;
                    for (l = 0; l < 3; ++l) tmp[i][j] += a[i][l] * P[l][j];
                }
            for (i = 0; i < 3; ++i)   /* A = P^T tmp */
                for (j = 0; j < 3; ++j) {
                    a[i][j] = 0.0;
                    for (l = 0; l < 3; ++l) a[i][j] += P[l][i] * tmp[l][j];
                }
            a[p][q] = a[q][p] = 0.0;   /* zero by construction; rounding left aside */
            for (i = 0; i < 3; ++i) {   /* keep it exactly symmetric */
                a[i][p] = a[p][i];
                a[i][q] = a[q][i];
            }
            for (i = 0; i < 3; ++i)   /* V = V P */
                for (j = 0; j < 3; ++j) {
                    tmp[i][j] = 0.0;
                    for (l = 0; l < 3; ++l) tmp[i][j] += v[i][l] * P[l][j];
                }
            memcpy(v, tmp, sizeof tmp);
        }
    }
}

/* I = sum_k m_p (|e_k|^2 E - e_k e_k^T) + N (2/5) m_p r_p^2 E, then I = Q diag(lambda) Q^T with
   the conventions of cpu_dem.h, r0_k = Q^T e_k. */
int cpu_dem_shape_make(const double* points, uint32_t n, double particle_radius, double particle_mass, cpu_dem_shape* out) {
    double I[3][3], V[3][3], lambda[3], sphere;
    int order[3] = {0, 1, 2}, a, b, col;
    uint32_t k;
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    out->r0 = (double*)malloc((size_t)n * 3 * sizeof(double));
    if (!out->r0) return 0;
    out->count = n;
    out->particle_mass = particle_mass;
    out->particle_radius = particle_radius;
    out->mass = (double)n * particle_mass;
    for (k = 0; k < n; ++k)
        for (a = 0; a < 3; ++a) out->com[a] += points[3 * (size_t)k + a];
    for (a = 0; a < 3; ++a) out->com[a] /= (double)n;
    memset(I, 0, sizeof I);
    for (k = 0; k < n; ++k) {
        double e[3], e2;
        for (a = 0; a < 3; ++a) e[a] = points[3 * (size_t)k + a] - out->com[a];
        e2 = dem_dot(e, e);
        for (a = 0; a < 3; ++a)
            for (b = 0; b < 3; ++b) I[a][b] += particle_mass * ((a == b ? e2 : 0.0) - e[a] * e[b]);
    }
    sphere = (double)n * 0.4 * particle_mass * particle_radius * particle_radius;
    for (a = 0; a < 3; ++a) I[a][a] += sphere;
    for (a = 0; a < 3; ++a)   /* a symmetric shape's rounding, not a product of inertia */
        for (b = 0; b < 3; ++b)
            if (a != b && fabs(I[a][b]) <= CPU_DEM_ROUNDING * (fabs(I[a][a]) + fabs(I[b][b]))) I[a][b] = 0.0;
    dem_jacobi(I, V);
    for (a = 0; a < 3; ++a) lambda[a] = I[a][a];
    for (a = 1; a < 3; ++a) {   /* stable insertion sort, ascending; equal within rounding keep their order */
        int o = order[a];
        for (b = a; b > 0 && lambda[order[b - 1]] - lambda[o] > CPU_DEM_ROUNDING * fabs(lambda[o]); --b) order[b] = order[b - 1];
        order[b] = o;
    }
    for (col = 0; col < 3; ++col) {
        out->inertia[col] = lambda[order[col]];
        for (a = 0; a < 3; ++a) out->axes[3 * a + col] = V[a][order[col]];
    }
    for (col = 0; col < 2; ++col) {   /* the largest component (the first on a tie) positive */
        int big = 0;
        for (a = 1; a < 3; ++a)
            if (fabs(out->axes[3 * a + col]) > fabs(out->axes[3 * big + col])) big = a;
        if (out->axes[3 * big + col] < 0.0)
            for (a = 0; a < 3; ++a) out->axes[3 * a + col] = -out->axes[3 * a + col];
    }
    {   /* column 2 = column 0 x column 1: det +1 */
        double c0[3], c1[3], c2[3];
        for (a = 0; a < 3; ++a) { c0[a] = out->axes[3 * a]; c1[a] = out->axes[3 * a + 1]; }
        dem_cross(c0, c1, c2);
        for (a = 0; a < 3; ++a) out->axes[3 * a + 2] = c2[a];
    }
    cpu_dem_quat_from_matrix(out->axes, out->q_principal);
    for (k = 0; k < n; ++k) {
        double e[3];
        for (a = 0; a < 3; ++a) e[a] = points[3 * (size_t)k + a] - out->com[a];
        dem_matrix_apply_transposed(out->axes, e, out->r0 + 3 * (size_t)k);
    }
    return 1;
}

void cpu_dem_shape_free(cpu_dem_shape* shape) {
    free(shape->r0);
    memset(shape, 0, sizeof *shape);
}

/* ---- bodies ----------------------------------------------------------------------------------- */

/* out = R(q) diag(scale) R(q)^T v (scale: lambda or 1 / lambda) */
static void dem_body_tensor(const double q[4], const double scale[3], const double v[3], double out[3]) {
    double R[9], local[3];
    int a;
    cpu_dem_quat_to_matrix(q, R);
    dem_matrix_apply_transposed(R, v, local);
    for (a = 0; a < 3; ++a) local[a] *= scale[a];
    dem_matrix_apply(R, local, out);
}

static void dem_inverse_inertia(const cpu_dem_shape* s, double out[3]) {
    int a;
    for (a = 0; a < 3; ++a) out[a] = 1.0 / s->inertia[a];
}

cpu_dem_body cpu_dem_body_place(const cpu_dem_shape* shape, const double origin[3], const double q_user[4],
                                const double velocity[3], const double angular_velocity[3]) {
    cpu_dem_body b;
    double qu[4], c[3];
    int a;
    memset(&b, 0, sizeof b);
    b.shape = shape;
    memcpy(qu, q_user, sizeof qu);
    cpu_dem_quat_normalize(qu);
    cpu_dem_quat_rotate(qu, shape->com, c);
    for (a = 0; a < 3; ++a) {
        b.X[a] = origin[a] + c[a];
        b.P[a] = shape->mass * velocity[a];
    }
    cpu_dem_quat_mul(qu, shape->q_principal, b.q);
    dem_body_tensor(b.q, shape->inertia, angular_velocity, b.L);
    return b;
}

void cpu_dem_body_origin(const cpu_dem_body* body, double origin[3], double q_user[4]) {
    double conj[4], c[3];
    int a;
    cpu_dem_quat_conj(body->shape->q_principal, conj);
    cpu_dem_quat_mul(body->q, conj, q_user);
    cpu_dem_quat_rotate(q_user, body->shape->com, c);
    for (a = 0; a < 3; ++a) origin[a] = body->X[a] - c[a];
}

void cpu_dem_body_velocity(const cpu_dem_body* body, double V[3], double W[3]) {
    double inv[3];
    int a;
    for (a = 0; a < 3; ++a) V[a] = body->P[a] / body->shape->mass;
    dem_inverse_inertia(body->shape, inv);
    dem_body_tensor(body->q, inv, body->L, W);
}

double cpu_dem_body_kinetic_energy(const cpu_dem_body* body) {
    double V[3], W[3];
    cpu_dem_body_velocity(body, V, W);
    return 0.5 * dem_dot(body->P, V) + 0.5 * dem_dot(body->L, W);
}

/* r_k = R(q) r0_k, x_k = X + r_k, v_k = V + W x r_k (eqs. 18-20) */
void cpu_dem_body_particle(const cpu_dem_body* body, uint32_t k, double x[3], double v[3], double r[3]) {
    double rk[3], V[3], W[3], wr[3];
    int a;
    cpu_dem_quat_rotate(body->q, body->shape->r0 + 3 * (size_t)k, rk);
    if (r) memcpy(r, rk, sizeof rk);
    if (x)
        for (a = 0; a < 3; ++a) x[a] = body->X[a] + rk[a];
    if (v) {
        cpu_dem_body_velocity(body, V, W);
        dem_cross(W, rk, wr);
        for (a = 0; a < 3; ++a) v[a] = V[a] + wr[a];
    }
}

/* F = sum_k f_k + M external, tau = sum_k (r_k x f_k + t_k) (eqs. 14, 15; t_k: the contacts'
   torques about particle k's centre, their forces acting at the contact points) */
void cpu_dem_body_sums(const cpu_dem_body* body, const double* force, const double* torque, const double external[3],
                       double F[3], double tau[3]) {
    double R[9];
    uint32_t k;
    int a;
    cpu_dem_quat_to_matrix(body->q, R);
    for (a = 0; a < 3; ++a) F[a] = tau[a] = 0.0;
    for (k = 0; k < body->shape->count; ++k) {
        double r[3], t[3];
        dem_matrix_apply(R, body->shape->r0 + 3 * (size_t)k, r);
        dem_cross(r, force + 3 * (size_t)k, t);
        for (a = 0; a < 3; ++a) {
            F[a] += force[3 * (size_t)k + a];
            tau[a] += t[a] + (torque ? torque[3 * (size_t)k + a] : 0.0);
        }
    }
    for (a = 0; a < 3; ++a) F[a] += body->shape->mass * external[a];
}

/* P += F h, L += tau h, X += P / M h; W from the old q and the new L; q = dq(W h) * q, q /= |q|
   (eqs. 1-8). Not finite: X and q kept, P = L = 0 (as body_update.comp). */
int cpu_dem_body_update(cpu_dem_body* body, const double F[3], const double tau[3], double h) {
    cpu_dem_body next = *body;
    double inv[3], W[3], w, dq[4];
    int a;
    for (a = 0; a < 3; ++a) {
        next.P[a] += F[a] * h;
        next.L[a] += tau[a] * h;
        next.X[a] += next.P[a] / body->shape->mass * h;
    }
    dem_inverse_inertia(body->shape, inv);
    dem_body_tensor(body->q, inv, next.L, W);
    w = dem_length(W);
    if (w * h > 0.0) {
        double half = 0.5 * w * h, s = sin(half) / w;
        dq[0] = cos(half); dq[1] = W[0] * s; dq[2] = W[1] * s; dq[3] = W[2] * s;
    } else {
        dq[0] = 1.0; dq[1] = dq[2] = dq[3] = 0.0;
    }
    cpu_dem_quat_mul(dq, body->q, next.q);
    cpu_dem_quat_normalize(next.q);
    if (!dem_finite3(next.X) || !dem_finite3(next.P) || !dem_finite3(next.L) || !dem_finite3(next.q) || !isfinite(next.q[3])) {
        for (a = 0; a < 3; ++a) body->P[a] = body->L[a] = 0.0;
        return 0;
    }
    *body = next;
    return 1;
}

/* ---- scenes ----------------------------------------------------------------------------------- */

double cpu_dem_error(double off, double ambiguous, double magnitude) {
    off = fmax(0.0, off - ambiguous);
    return magnitude > 0.0 ? off / magnitude : off > 0.0 ? INFINITY : 0.0;
}

int cpu_dem_scene_alloc(cpu_dem_scene* scene, uint32_t count) {
    size_t n = (size_t)count + 1;
    memset(scene, 0, sizeof *scene);
    scene->x = (double(*)[3])calloc(n, sizeof *scene->x);
    scene->v = (double(*)[3])calloc(n, sizeof *scene->v);
    scene->radius = (double*)calloc(n, sizeof *scene->radius);
    scene->mass = (double*)calloc(n, sizeof *scene->mass);
    scene->info = (gp_particle_info*)calloc(n, sizeof *scene->info);
    scene->ambiguous = (double*)calloc(n, sizeof *scene->ambiguous);
    if (!scene->x || !scene->v || !scene->radius || !scene->mass || !scene->info || !scene->ambiguous) {
        cpu_dem_scene_free(scene);
        return 0;
    }
    scene->count = count;
    return 1;
}

void cpu_dem_scene_free(cpu_dem_scene* scene) {
    free(scene->x); free(scene->v); free(scene->radius); free(scene->mass); free(scene->info); free(scene->ambiguous);
    cpu_dem_history_free(&scene->history);
    memset(scene, 0, sizeof *scene);
}

void cpu_dem_scene_load(cpu_dem_scene* scene, const gp_particle_position* position, const gp_particle_velocity* velocity,
                        const gp_particle_info* info) {
    uint32_t i;
    for (i = 0; i < scene->count; ++i) {
        scene->x[i][0] = position[i].x; scene->x[i][1] = position[i].y; scene->x[i][2] = position[i].z;
        scene->radius[i] = position[i].radius;
        scene->v[i][0] = velocity[i].x; scene->v[i][1] = velocity[i].y; scene->v[i][2] = velocity[i].z;
        scene->mass[i] = velocity[i].mass;
        if (info) scene->info[i] = info[i];
    }
}

void cpu_dem_scene_store(const cpu_dem_scene* scene, gp_particle_position* position, gp_particle_velocity* velocity,
                         gp_particle_info* info) {
    uint32_t i;
    for (i = 0; i < scene->count; ++i) {
        if (position) {
            position[i].x = (float)scene->x[i][0]; position[i].y = (float)scene->x[i][1]; position[i].z = (float)scene->x[i][2];
            position[i].radius = (float)scene->radius[i];
        }
        if (velocity) {
            velocity[i].x = (float)scene->v[i][0]; velocity[i].y = (float)scene->v[i][1]; velocity[i].z = (float)scene->v[i][2];
            velocity[i].mass = (float)scene->mass[i];
        }
        if (info) info[i] = scene->info[i];
    }
}

void cpu_dem_scene_add_body(cpu_dem_scene* scene, uint32_t body, uint32_t first_slot, uint32_t phase) {
    const cpu_dem_body* b = scene->bodies + body;
    uint32_t k;
    for (k = 0; k < b->shape->count; ++k) {
        uint32_t i = first_slot + k;
        scene->info[i].id = b->first_id + k;
        scene->info[i].kind = (uint32_t)GP_KIND_RIGID | phase << 16;
        scene->info[i].owner = body;
        scene->info[i].user = 0;
        scene->radius[i] = b->shape->particle_radius;
        scene->mass[i] = b->shape->particle_mass;
        cpu_dem_body_particle(b, k, scene->x[i], scene->v[i], NULL);
    }
}

static uint32_t dem_kind(const cpu_dem_scene* s, uint32_t i) { return s->info[i].kind & 0xffu; }
static uint32_t dem_phase(const cpu_dem_scene* s, uint32_t i) { return s->info[i].kind >> 16; }

/* The particle k of a body, or -1: a RIGID particle whose owner is a body and id one of its. */
static int64_t dem_body_index(const cpu_dem_scene* s, uint32_t i) {
    const cpu_dem_body* b;
    uint32_t k;
    if (dem_kind(s, i) != GP_KIND_RIGID || s->info[i].owner >= s->body_count) return -1;
    b = s->bodies + s->info[i].owner;
    k = s->info[i].id - b->first_id;
    return s->info[i].id >= b->first_id && k < b->shape->count ? (int64_t)k : -1;
}

void cpu_dem_scene_body_particles(cpu_dem_scene* scene) {
    uint32_t i;
    for (i = 0; i < scene->count; ++i) {
        int64_t k = dem_body_index(scene, i);
        if (k >= 0) cpu_dem_body_particle(scene->bodies + scene->info[i].owner, (uint32_t)k, scene->x[i], scene->v[i], NULL);
    }
}

/* uniform: a += vector where radius <= 0 or |center - x| < radius; radial: a += strength
   (1 - l / radius, or 1 for radius <= 0) (center - x) / l where 0 < l (< radius) */
double cpu_dem_user_forces(const cpu_dem_scene* s, const double x[3], double a[3]) {
    double magnitude = 0.0;
    uint32_t f;
    int c;
    for (f = 0; f < s->force_count; ++f) {
        const gp_force* F = s->forces + f;
        double d[3], len, radius = F->radius;
        for (c = 0; c < 3; ++c) d[c] = (double)F->center[c] - x[c];
        len = dem_length(d);
        if (F->type == GP_FORCE_UNIFORM) {
            double vec[3] = {F->vector[0], F->vector[1], F->vector[2]};
            if (radius <= 0.0 || len < radius) {
                for (c = 0; c < 3; ++c) a[c] += vec[c];
                magnitude += dem_length(vec);
            }
        } else if (F->type == GP_FORCE_RADIAL && len > 0.0 && (radius <= 0.0 || len < radius)) {
            double strength = F->strength * (radius > 0.0 ? 1.0 - len / radius : 1.0);
            for (c = 0; c < 3; ++c) a[c] += strength * d[c] / len;
            magnitude += fabs(strength);
        }
    }
    return magnitude;
}

/* Whether particle i takes part in contacts: GRANULAR or RIGID with a material, at a finite
   position (one that is not finite meets no one). */
static int dem_takes_part(const cpu_dem_scene* s, uint32_t i) {
    uint32_t kind = dem_kind(s, i);
    return (kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID) && dem_phase(s, i) < s->material_count && dem_finite3(s->x[i]);
}

/* ---- the contact pass: every pair, or through a hashed grid ------------------------------------ */

/* The hashed grid of cpu_dem_forces_grid: the particles that take part, counting-sorted by
   bucket. Cell coordinates are clamped to +-2^30 (as the GPU's hash clamps), so that no integer
   overflows; particles that far out share cells, which costs time, not correctness. */
typedef struct dem_grid {
    double cell;
    uint32_t buckets;     /* a power of two */
    uint32_t* start;      /* buckets + 1 */
    uint32_t* member;     /* slots, bucket by bucket */
} dem_grid;

static void dem_grid_cell(const dem_grid* g, const double x[3], int64_t cell[3]) {
    int a;
    for (a = 0; a < 3; ++a) {
        double c = floor(x[a] / g->cell);
        cell[a] = (int64_t)(c < -1073741824.0 ? -1073741824.0 : c > 1073741824.0 ? 1073741824.0 : c);
    }
}

static uint32_t dem_grid_bucket(const dem_grid* g, const int64_t cell[3]) {
    uint64_t h = (uint64_t)cell[0] * 0x9e3779b97f4a7c15ull ^ (uint64_t)cell[1] * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)cell[2] * 0x165667b19e3779f9ull;
    h ^= h >> 29;
    return (uint32_t)h & (g->buckets - 1);
}

static int dem_grid_build(const cpu_dem_scene* s, dem_grid* g) {
    double largest = 0.0;
    uint32_t i, n = 0, *cursor, *key;
    memset(g, 0, sizeof *g);
    for (i = 0; i < s->count; ++i)
        if (dem_takes_part(s, i)) {
            ++n;
            if (s->radius[i] > largest) largest = s->radius[i];
        }
    g->cell = largest > 0.0 ? 2.0 * largest * (1.0 + 1e-9) : 1.0;   /* a little wider: division's rounding hides no partner */
    for (g->buckets = 64; g->buckets < 2 * n; g->buckets *= 2) {}
    g->start = (uint32_t*)calloc((size_t)g->buckets + 1, sizeof *g->start);
    g->member = (uint32_t*)malloc(((size_t)n + 1) * sizeof *g->member);
    cursor = (uint32_t*)malloc(((size_t)g->buckets + 1) * sizeof *cursor);
    key = (uint32_t*)malloc(((size_t)s->count + 1) * sizeof *key);
    if (!g->start || !g->member || !cursor || !key) {
        free(g->start); free(g->member); free(cursor); free(key);
        return 0;
    }
    for (i = 0; i < s->count; ++i) {
        int64_t c[3];
        if (!dem_takes_part(s, i)) continue;
        dem_grid_cell(g, s->x[i], c);
        key[i] = dem_grid_bucket(g, c);
        ++g->start[key[i] + 1];
    }
    for (i = 0; i < g->buckets; ++i) g->start[i + 1] += g->start[i];
    memcpy(cursor, g->start, ((size_t)g->buckets + 1) * sizeof *cursor);
    for (i = 0; i < s->count; ++i)
        if (dem_takes_part(s, i)) g->member[cursor[key[i]]++] = i;
    free(cursor);
    free(key);
    return 1;
}

/* The distinct buckets of the 27 cells around cell, ascending; returns how many. */
static uint32_t dem_grid_around(const dem_grid* g, const int64_t cell[3], uint32_t buckets[27]) {
    uint32_t nb = 0, at;
    int dx, dy, dz;
    for (dz = -1; dz <= 1; ++dz)
        for (dy = -1; dy <= 1; ++dy)
            for (dx = -1; dx <= 1; ++dx) {
                int64_t c[3];
                uint32_t b;
                c[0] = cell[0] + dx; c[1] = cell[1] + dy; c[2] = cell[2] + dz;
                b = dem_grid_bucket(g, c);
                for (at = 0; at < nb && buckets[at] < b; ++at) {}
                if (at < nb && buckets[at] == b) continue;
                memmove(buckets + at + 1, buckets + at, (nb - at) * sizeof *buckets);
                buckets[at] = b;
                ++nb;
            }
    return nb;
}

/* A particle's spin in contacts: its body's angular velocity (rigid, with a body), zeros (rigid
   without one: it still skips its owner's others), NULL (a grain). */
static const double* dem_spin(const cpu_dem_scene* s, const double (*spin)[3], uint32_t i) {
    static const double none[3] = {0.0, 0.0, 0.0};
    if (dem_kind(s, i) != GP_KIND_RIGID) return NULL;
    return s->info[i].owner < s->body_count ? spin[s->info[i].owner] : none;
}

/* The mass particle i moves with: its body's (rigid, with a body), else its own. */
static double dem_body_mass(const cpu_dem_scene* s, uint32_t i) {
    if (dem_kind(s, i) == GP_KIND_RIGID && s->info[i].owner < s->body_count) return s->bodies[s->info[i].owner].shape->mass;
    return s->mass[i];
}

/* Adds partner j's contact to particle i's sums: the pair computed in canonical order (a the
   lower id, on a tie the lower slot) with its old spring; i = a keeps the new one in next. */
static double dem_partner(const cpu_dem_scene* s, const double (*spin)[3], uint32_t i, uint32_t j, cpu_dem_history* next,
                          double f[3], double t[3], double* ambiguous) {
    cpu_dem_pair p;
    uint32_t a, b;
    int c;
    if (j == i) return 0.0;
    if (dem_kind(s, i) == GP_KIND_RIGID && dem_kind(s, j) == GP_KIND_RIGID && s->info[j].owner == s->info[i].owner) return 0.0;
    a = s->info[i].id < s->info[j].id || (s->info[i].id == s->info[j].id && i < j) ? i : j;
    b = a == i ? j : i;
    cpu_dem_pair_force(s->x[a], s->v[a], dem_spin(s, spin, a), s->radius[a], s->materials + dem_phase(s, a), s->x[b], s->v[b],
                       dem_spin(s, spin, b), s->radius[b], s->materials + dem_phase(s, b),
                       cpu_dem_history_find(&s->history, s->info[a].id, 0, s->info[b].id), s->dt,
                       cpu_dem_damping_scale(s->mass[a], s->mass[b], dem_body_mass(s, a), dem_body_mass(s, b)), &p);
    *ambiguous += p.ambiguous;
    if (!p.touching) return p.magnitude;
    for (c = 0; c < 3; ++c) {
        f[c] += a == i ? p.force[c] : -p.force[c];
        t[c] += a == i ? p.torque_a[c] : p.torque_b[c];
    }
    if (a == i && p.ks > 0.0 && next) dem_history_add(next, s->info[a].id, 0, s->info[b].id, (uint32_t)p.sliding, p.xi);
    return p.magnitude;
}

/* The pass reads s->history (the last pass's springs) and writes next, which replaces it at the
   end: no contact reads a spring written in this pass. */
static void dem_forces(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude, int use_grid) {
    double(*spin)[3] = (double(*)[3])malloc(((size_t)s->body_count + 1) * sizeof *spin);
    cpu_dem_history next;
    dem_grid g;
    uint32_t i, j, b;
    int grid = use_grid && dem_grid_build(s, &g);
    memset(&next, 0, sizeof next);
    for (b = 0; b < s->body_count; ++b) {
        double V[3];
        cpu_dem_body_velocity(s->bodies + b, V, spin[b]);
    }
    for (i = 0; i < s->count; ++i) {
        double f[3] = {0.0, 0.0, 0.0}, t[3] = {0.0, 0.0, 0.0}, sum = 0.0, ambiguous = 0.0;
        if (dem_takes_part(s, i)) {
            if (grid) {
                uint32_t buckets[27], nb, k;
                int64_t cell[3];
                dem_grid_cell(&g, s->x[i], cell);
                nb = dem_grid_around(&g, cell, buckets);
                for (k = 0; k < nb; ++k)
                    for (j = g.start[buckets[k]]; j < g.start[buckets[k] + 1]; ++j)
                        sum += dem_partner(s, (const double(*)[3])spin, i, g.member[j], &next, f, t, &ambiguous);
            } else {
                for (j = 0; j < s->count; ++j)
                    if (dem_takes_part(s, j)) sum += dem_partner(s, (const double(*)[3])spin, i, j, &next, f, t, &ambiguous);
            }
            sum += cpu_dem_wall_force(s->colliders, s->collider_count, s->x[i], s->v[i], dem_spin(s, (const double(*)[3])spin, i),
                                      s->radius[i], s->materials + dem_phase(s, i), s->info[i].id, &s->history, &next, s->dt,
                                      cpu_dem_damping_scale(s->mass[i], 0.0, dem_body_mass(s, i), 0.0), f, t, &ambiguous);
        }
        memcpy(force[i], f, sizeof f);
        if (torque) memcpy(torque[i], t, sizeof t);
        if (magnitude) magnitude[i] = sum;
        if (s->ambiguous) s->ambiguous[i] = ambiguous;
    }
    dem_history_sort(&next);
    cpu_dem_history_free(&s->history);
    s->history = next;
    if (grid) { free(g.start); free(g.member); }
    free(spin);
}

void cpu_dem_forces(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude) {
    dem_forces(s, force, torque, magnitude, 0);
}
void cpu_dem_forces_grid(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude) {
    dem_forces(s, force, torque, magnitude, 1);
}

/* ---- the substep ------------------------------------------------------------------------------ */

static void dem_step(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude, int use_grid) {
    size_t n = (size_t)s->count + 1;
    double(*f)[3] = force ? force : (double(*)[3])malloc(n * sizeof *f);
    double(*t)[3] = torque ? torque : (double(*)[3])malloc(n * sizeof *t);
    double h = s->dt;
    uint32_t i, b, total = 0, *first = (uint32_t*)malloc(((size_t)s->body_count + 1) * sizeof *first);
    double *fk, *tk;
    int c;
    dem_forces(s, f, t, magnitude, use_grid);
    for (i = 0; i < s->count; ++i) {   /* grains: symplectic Euler */
        double x[3], v[3], a[3];
        if (dem_kind(s, i) != GP_KIND_GRANULAR || dem_phase(s, i) >= s->material_count || !dem_finite3(s->x[i])) continue;
        for (c = 0; c < 3; ++c) a[c] = f[i][c] / s->mass[i] + s->gravity[c];
        cpu_dem_user_forces(s, s->x[i], a);
        for (c = 0; c < 3; ++c) {
            v[c] = s->v[i][c] + a[c] * h;
            x[c] = s->x[i][c] + v[c] * h;
        }
        if (dem_finite3(x) && dem_finite3(v)) {
            memcpy(s->x[i], x, sizeof x);
            memcpy(s->v[i], v, sizeof v);
        } else {
            s->v[i][0] = s->v[i][1] = s->v[i][2] = 0.0;
            ++s->non_finite;
        }
    }
    /* stages 4 and 5: each body's particles' forces and torques gathered in k order (a particle
       missing from the store adds zeros) */
    for (b = 0; b < s->body_count; ++b) { first[b] = total; total += s->bodies[b].shape->count; }
    fk = (double*)calloc(3 * (size_t)total + 3, sizeof *fk);
    tk = (double*)calloc(3 * (size_t)total + 3, sizeof *tk);
    for (i = 0; i < s->count; ++i) {
        int64_t k = dem_body_index(s, i);
        if (k < 0) continue;
        memcpy(fk + 3 * ((size_t)first[s->info[i].owner] + (size_t)k), f[i], 3 * sizeof *fk);
        memcpy(tk + 3 * ((size_t)first[s->info[i].owner] + (size_t)k), t[i], 3 * sizeof *tk);
    }
    for (b = 0; b < s->body_count; ++b) {
        cpu_dem_body* body = s->bodies + b;
        double F[3], tau[3], external[3];
        memcpy(external, s->gravity, sizeof external);
        cpu_dem_user_forces(s, body->X, external);
        cpu_dem_body_sums(body, fk + 3 * (size_t)first[b], tk + 3 * (size_t)first[b], external, F, tau);
        if (!cpu_dem_body_update(body, F, tau, h)) ++s->non_finite;
    }
    cpu_dem_scene_body_particles(s);   /* stage 1 */
    free(fk); free(tk); free(first);
    if (!force) free(f);
    if (!torque) free(t);
}

void cpu_dem_step(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude) {
    dem_step(s, force, torque, magnitude, 0);
}
void cpu_dem_step_grid(cpu_dem_scene* s, double (*force)[3], double (*torque)[3], double* magnitude) {
    dem_step(s, force, torque, magnitude, 1);
}
