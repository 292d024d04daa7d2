/* cpu_dem.h: a double-precision, single-threaded CPU reference of one DEM substep, granular
   grains and rigid bodies made of particles (paper 000: Harada's linear spring-dashpot contact,
   eqs. 10-13, with a Coulomb limit on its tangential part; rigid bodies, eqs. 1-8 and 14-20),
   written from the formulas of the model gpuparticle.h implements and nothing else: materials'
   defaults, shapes' inertia and principal frames are derived here, not read from the library.
   Contacts act at the contact points, with the surfaces' velocities there (a rigid particle
   spins with its body), so a contact also has a torque about the particle's centre; walls are
   every collider on its own, a container box face by face.

   Two versions of the contact pass give the same results (to rounding): cpu_dem_forces pairs
   every particle with every other, O(n^2), the tests' truth; cpu_dem_forces_grid finds partners
   through a hashed grid of cells, O(n), the single-threaded CPU column of `make bench`.

   Quaternions are [s, x, y, z], the Hamilton product; R(q) rotates a vector by q v q*, so
   R(a * b) = R(a) R(b). (The library's are (x, y, z, w): the same product, another order.)
   Matrices are 9 doubles, row-major: m[3 row + column].

   Besides each force it returns the sum of the magnitudes of the terms that made it, so that a
   test can hold the GPU's float result to a tolerance relative to how well conditioned each sum
   is: |gpu - cpu| <= tolerance * magnitude (see cpu_dem_pair_force for what counts). */
#ifndef GP_CPU_DEM_H
#define GP_CPU_DEM_H
#include "gpuparticle.h"
#include <stdint.h>

/* A DEM material in double. Granular grains and rigid bodies' particles alike read it through
   their phase. cpu_dem_material_default fills every field from the diameter. */
typedef struct cpu_dem_material {
    double diameter;   /* d, metres */
    double density;    /* rho, kg/m^3, default 2500 */
    double stiffness;  /* k, N/m, default 200 m / d^2 (equal grains meeting at 1 m/s overlap d / 20) */
    double damping;    /* eta, N s/m, default: restitution 0.5 for two equal grains */
    double shear;      /* k_t, N s/m, default eta */
    double friction;   /* mu, default 0.5 */
    double mass;       /* derived: rho pi d^3 / 6, kg */
} cpu_dem_material;

cpu_dem_material cpu_dem_material_default(double diameter);

/* The linear spring-dashpot's head-on collision in closed form, m_eff = m1 m2 / (m1 + m2),
   w0^2 = k / m_eff, g = eta / (2 m_eff), w = sqrt(w0^2 - g^2): the contact lasts t_c = pi / w
   and the restitution is e = exp(-g t_c). Overdamped (w0 <= g): t_c = pi / w0, the bound the
   substep is held to, and e = 0 (the overlap never returns to 0; e -> 0 as g -> w0). */
double cpu_dem_restitution(double k, double eta, double m1, double m2);
double cpu_dem_contact_duration(double k, double eta, double m1, double m2);
/* The largest substep a material allows: t_c / 12 of two of its grains (m1 = m2 = mass). */
double cpu_dem_material_substep(const cpu_dem_material* m);

/* One contact (the spec's gp_contact): unit normal n from i towards the partner, overlap
   delta > 0, v_ij the partner's surface velocity minus i's at the contact point; k, eta, k_t,
   mu of the pair:
       vn = v_ij . n,  f_t = k_t (v_ij - vn n), capped at mu max(0, k delta - eta vn) (Coulomb)
       f = (eta vn - k delta) n + f_t                     (eqs. 10-13, dashpot on the normal part)
   Writes f. */
void cpu_dem_contact(const double n[3], double delta, const double v_ij[3], double k, double eta, double kt, double mu,
                     double f[3]);

/* The force on particle i (centre xi, velocity vi, spin wi: its body's angular velocity, NULL
   for a grain; radius ri) from its contact with j, the pair's material the arithmetic mean of
   both (so that the force on j is exactly the negative):
       r_ij = x_j - x_i, dist = |r_ij|; none when dist == 0, dist >= r_i + r_j or not finite
       n = r_ij / dist, delta = r_i + r_j - dist
       lever_i = (r_i - delta / 2) n, lever_j = -(r_j - delta / 2) n   (the same contact point)
       u_i = v_i + w_i x lever_i, u_j = v_j + w_j x lever_j
       f = cpu_dem_contact(n, delta, u_j - u_i);  torque about i's centre = lever_i x f
   Adds to f and to torque (may be NULL). Returns the magnitudes of the terms that made it:
   k (r_i + r_j + dist) (the spring's two terms, k (r_i + r_j) and k dist, whose difference is
   k delta: float's rounding of the distance is relative to the distance, not the overlap) plus
   (eta + k_t) (|u_i| + |u_j|) (the velocity terms); 0 when they do not touch, except that a
   pair within 1e-6 (relative) of touching still returns the spring's terms, where float may
   find an overlap of rounding's size (or none) that double does not. */
double cpu_dem_pair_force(const double xi[3], const double vi[3], const double wi[3], double ri, const cpu_dem_material* mi,
                          const double xj[3], const double vj[3], const double wj[3], double rj, const cpu_dem_material* mj,
                          double f[3], double torque[3]);

/* The walls' force on a particle of its own material, spin w (NULL: none): every collider on its
   own whose distance phi < r touches it, and a container box (GP_SHAPE_BOX, inside) as six
   plane walls, one per face at distance h_a +- (x_a - c_a). A wall with normal n_w is a partner
   at rest in direction n = -n_w, overlap delta = r - phi, lever (r - delta / 2) n:
   f = cpu_dem_contact(n, delta, -(v + w x lever)), torque += lever x f. Adds to f and torque
   (may be NULL). Returns the magnitudes' sum: per wall touched, k (r + s) with s the sizes in the
   distance's sum (|x - center| plus the shape's radius, half extents' length or segment length)
   plus (eta + k_t) |v + w x lever|, and k (r + s) for a wall within 1e-6 (relative to r + s) of
   touching that does not; nothing for a position that is not finite. */
double cpu_dem_wall_force(const gp_collider_desc* colliders, uint32_t collider_count, const double x[3], const double v[3],
                          const double w[3], double r, const cpu_dem_material* m, double f[3], double torque[3]);

/* Quaternions [s, x, y, z]. rotate and to_matrix take a unit quaternion. from_matrix takes a
   proper rotation and returns the quaternion with s >= 0 (of the two, q and -q). */
void cpu_dem_quat_mul(const double a[4], const double b[4], double out[4]);
void cpu_dem_quat_conj(const double q[4], double out[4]);
void cpu_dem_quat_normalize(double q[4]);
void cpu_dem_quat_to_matrix(const double q[4], double m[9]);
void cpu_dem_quat_from_matrix(const double m[9], double q[4]);
void cpu_dem_quat_rotate(const double q[4], const double v[3], double out[3]);

/* A rigid body's shape: N particle offsets p_k in its own frame, one radius and one mass each.
     M = N m_p, c = (1/N) sum p_k,
     I = sum_k m_p (|e_k|^2 E - e_k e_k^T) + N (2/5) m_p r_p^2 E,  e_k = p_k - c
   (each particle's own sphere inertia included: a one-particle body is a solid ball),
     I = Q diag(lambda) Q^T,  r0_k = Q^T e_k,  q_principal the quaternion of Q.
   Q comes from cyclic Jacobi rotations, its columns sorted by lambda ascending. Rounding: an
   off-diagonal element of I within 1e-12 of its two diagonal elements' sum is taken as 0 before
   Jacobi starts, and eigenvalues within 1e-12 of each other (relative) count as equal and keep
   Jacobi's order (a stable sort); so a shape whose I is diagonal up to rounding keeps the
   shape's axes in order, e.g. a cube: Q = identity. Signs: the largest component (the first, on
   a tie) of columns 0 and 1 is positive, column 2 = column 0 x column 1, so det Q = +1. Where
   eigenvalues are equal the principal axes are not unique: compare bodies through world
   quantities or cpu_dem_body_origin, not through q. */
typedef struct cpu_dem_shape {
    uint32_t count;              /* N */
    double* r0;                  /* 3 N: offsets from the centre of mass in the principal frame */
    double mass;                 /* M, kg */
    double particle_mass;        /* m_p, kg */
    double particle_radius;      /* r_p, metres */
    double inertia[3];           /* lambda, ascending, kg m^2 */
    double com[3];               /* c, the shape's frame */
    double axes[9];              /* Q, row-major: column a is principal axis a in the shape's frame */
    double q_principal[4];       /* q_Q, s >= 0 */
} cpu_dem_shape;

/* points: 3 n doubles. Returns 1, or 0 (out cleared) for n == 0 or no memory. */
int cpu_dem_shape_make(const double* points, uint32_t n, double particle_radius, double particle_mass, cpu_dem_shape* out);
void cpu_dem_shape_free(cpu_dem_shape* shape);

/* A rigid body's state: position of its centre of mass, orientation (principal frame ->
   world), linear and angular momentum. Its particle k has id first_id + k. */
typedef struct cpu_dem_body {
    double X[3];                 /* centre of mass, metres */
    double q[4];                 /* unit quaternion */
    double P[3];                 /* M V, kg m/s */
    double L[3];                 /* I(t) W, kg m^2/s */
    const cpu_dem_shape* shape;
    uint32_t first_id;
} cpu_dem_body;

/* The body of a shape placed at origin o with orientation q_u (shape frame -> world; normalised
   here), moving at velocity V and angular velocity W (world): X = o + R(q_u) c, q = q_u * q_Q,
   P = M V, L = R(q) diag(lambda) R(q)^T W. first_id 0. */
cpu_dem_body cpu_dem_body_place(const cpu_dem_shape* shape, const double origin[3], const double q_user[4],
                                const double velocity[3], const double angular_velocity[3]);
/* The inverse: o = X - R(q_u) c, q_u = q * conj(q_Q). */
void cpu_dem_body_origin(const cpu_dem_body* body, double origin[3], double q_user[4]);
/* V = P / M, W = R(q) diag(1/lambda) R(q)^T L. */
void cpu_dem_body_velocity(const cpu_dem_body* body, double V[3], double W[3]);
/* P^2 / 2M + L.W / 2. */
double cpu_dem_body_kinetic_energy(const cpu_dem_body* body);
/* Stage 1 (eqs. 18-20) for particle k: r_k = R(q) r0_k, x_k = X + r_k, v_k = V + W x r_k.
   x, v, r may each be NULL. */
void cpu_dem_body_particle(const cpu_dem_body* body, uint32_t k, double x[3], double v[3], double r[3]);
/* Stage 4 (eqs. 14, 15, with the contacts' own torques): F = sum_k f_k + M external,
   tau = sum_k (r_k x f_k + t_k), summed from 0 in k order (force, torque: 3 N doubles, the body's
   particles' contact forces and contact torques about their centres in k order; torque may be
   NULL), r_k = R(q) r0_k (the current q), external the acceleration at X (gravity and the
   user's forces there). */
void cpu_dem_body_sums(const cpu_dem_body* body, const double* force, const double* torque, const double external[3],
                       double F[3], double tau[3]);
/* Stage 5 (eqs. 1-8): P += F h; L += tau h; X += (P / M) h with the new P;
   W = R(q) diag(1/lambda) R(q)^T L with the old q and the new L; theta = |W| h;
   dq = [cos(theta/2), W / |W| sin(theta/2)] (identity for theta = 0); q = dq * q; q /= |q|.
   An update that is not finite is not applied: X and q stay, P = L = 0; returns 0 then, else 1. */
int cpu_dem_body_update(cpu_dem_body* body, const double F[3], const double tau[3], double h);

/* One substep's state: the store in double (slots in any order) and the bodies. The arrays
   belong to the scene (cpu_dem_scene_alloc); everything else is borrowed. A particle takes part
   in contacts when its kind is GRANULAR or RIGID and its phase < material_count. A rigid
   particle spins with body `owner` when owner < body_count, and is that body's particle k when
   also 0 <= id - first_id = k < its count; its slot may be anywhere. */
typedef struct cpu_dem_scene {
    uint32_t count;
    double (*x)[3];                      /* positions, metres */
    double (*v)[3];                      /* velocities, m/s */
    double* radius;                      /* position.w */
    double* mass;                        /* velocity.w; a grain's own mass */
    gp_particle_info* info;              /* id, kind | phase << 16, owner */
    const cpu_dem_material* materials;   /* indexed by phase */
    uint32_t material_count;
    const gp_collider_desc* colliders;   /* static walls (meshes not supported) */
    uint32_t collider_count;
    const gp_force* forces;              /* your forces: on grains at x, on bodies at X */
    uint32_t force_count;
    cpu_dem_body* bodies;                /* owner = index */
    uint32_t body_count;
    double gravity[3];                   /* m/s^2 */
    double dt;                           /* the substep h, seconds */
    uint32_t non_finite;                 /* grains and bodies whose update was not finite (the steps add) */
} cpu_dem_scene;

/* Allocates count particles, all zero (kind GP_KIND_DEFAULT: taking no part), and clears the
   rest of the scene. Returns 1, or 0 for no memory. */
int cpu_dem_scene_alloc(cpu_dem_scene* scene, uint32_t count);
void cpu_dem_scene_free(cpu_dem_scene* scene);
/* From and to the store's float layouts (count each; info may be NULL to keep the scene's). */
void cpu_dem_scene_load(cpu_dem_scene* scene, const gp_particle_position* position, const gp_particle_velocity* velocity,
                        const gp_particle_info* info);
void cpu_dem_scene_store(const cpu_dem_scene* scene, gp_particle_position* position, gp_particle_velocity* velocity,
                         gp_particle_info* info);
/* Writes body b's particles into slots first_slot .. first_slot + N - 1: id first_id + k, kind
   GP_KIND_RIGID | phase << 16, owner b, radius and mass of the shape's particles, x and v of
   stage 1. */
void cpu_dem_scene_add_body(cpu_dem_scene* scene, uint32_t body, uint32_t first_slot, uint32_t phase);
/* Stage 1 for every body: each of its particles' x and v from its body. */
void cpu_dem_scene_body_particles(cpu_dem_scene* scene);
/* The acceleration your forces give at x (the GPU's gp_user_forces): uniform within its radius
   (everywhere for radius 0); radial towards center, falling linearly to 0 at radius. Adds to a;
   returns the sum of their magnitudes. */
double cpu_dem_user_forces(const cpu_dem_scene* scene, const double x[3], double a[3]);

/* The contact force and torque on every particle (count of each; torque and magnitude may be
   NULL): every pair of particles that take part (two RIGID particles of one owner skipped), then
   the walls; particles that take no part, or whose position is not finite, get 0. Reads the
   scene's x and v as they are. magnitude: the sum of the contacts' returns. */
void cpu_dem_forces(const cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);
/* The same through a hashed grid of cells as wide as the largest contact distance (twice the
   largest radius), each particle's partners from the 27 cells around it. */
void cpu_dem_forces_grid(const cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);

/* One substep h = scene->dt, in the GPU's order:
     contact forces from the x and v as they are (a rigid particle's from the last stage 1);
     grains: a = f / m + gravity + your forces at x; v += a h; x += v h (symplectic Euler); a grain
       whose position is not finite is left as it is; an update that is not finite keeps the old
       x, stops the grain and adds to scene->non_finite;
     bodies: stages 4 and 5 (cpu_dem_body_sums, cpu_dem_body_update; one that is not finite adds
       to non_finite); a particle missing from the store adds nothing;
     stage 1: every rigid particle's x and v from its body's new state.
   force, torque and magnitude, when not NULL, receive the contact pass's (count each). */
void cpu_dem_step(cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);
/* The same with cpu_dem_forces_grid. */
void cpu_dem_step_grid(cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);
#endif
