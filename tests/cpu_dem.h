/* cpu_dem.h: a double-precision, single-threaded CPU reference of one DEM substep, granular
   grains and rigid bodies made of particles (paper 000: Harada's linear spring-dashpot contact,
   eqs. 10-13, with a Coulomb limit on its tangential part and, by default, a tangential spring
   with history: static friction after Cundall & Strack 1979, as LAMMPS gran/hooke/history keeps
   it; rigid bodies, eqs. 1-8 and 14-20), written from the formulas of the model gpuparticle.h
   implements and nothing else: materials' defaults, shapes' inertia and principal frames are
   derived here, not read from the library. Contacts act at the contact points, with the
   surfaces' velocities there (a rigid particle spins with its body), so a contact also has a
   torque about the particle's centre; walls are every collider on its own, a container box face
   by face.

   Two versions of the contact pass give the same results (to rounding): cpu_dem_forces pairs
   every particle with every other, O(n^2), the tests' truth; cpu_dem_forces_grid finds partners
   through a hashed grid of cells, O(n), the single-threaded CPU column of `make bench`. Both
   read the scene's springs (its history) as the last pass left them and leave this pass's.

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
    double friction;   /* mu, default 0.3 */
    double tangential_stiffness;   /* k_s, N/m, the shear spring; default 2/7 stiffness */
    int viscous;       /* 1: GP_SHEAR_VISCOUS, the paper's eq. 12 alone (k_s taken as 0); default 0 */
    double mass;       /* derived: rho pi d^3 / 6, kg */
} cpu_dem_material;

/* The material's k_s as contacts use it: 0 for a viscous one. */
double cpu_dem_material_ks(const cpu_dem_material* m);

cpu_dem_material cpu_dem_material_default(double diameter);

/* The linear spring-dashpot's head-on collision in closed form, m_eff = m1 m2 / (m1 + m2),
   w0^2 = k / m_eff, g = eta / (2 m_eff), w = sqrt(w0^2 - g^2): the contact lasts t_c = pi / w
   and the restitution is e = exp(-g t_c). Overdamped (w0 <= g): t_c = pi / w0, the bound the
   substep is held to, and e = 0 (the overlap never returns to 0; e -> 0 as g -> w0). */
double cpu_dem_restitution(double k, double eta, double m1, double m2);
double cpu_dem_contact_duration(double k, double eta, double m1, double m2);
/* The largest substep a material allows: t_c / 12 of two of its grains (m1 = m2 = mass). */
double cpu_dem_material_substep(const cpu_dem_material* m);

/* One contact (the library's gp_contact, shaders_embedded/gp_dem.glsl), in the pair's canonical
   frame: a is the particle with the lower id (at a wall, the particle), unit normal n from a
   towards b, overlap delta > 0, v_rel = u_b - u_a the partner's surface velocity minus a's at the
   contact point, the pair's k, eta, k_t, mu and k_s, h the substep; xi: in, the spring kept from
   the last substep (zeros for a contact that was not kept); out, this substep's:
       vn = v_rel . n,  v_t = v_rel - vn n
       xi = xi - (xi . n) n + v_t h          (last substep's spring turned into today's plane)
       f_t = k_s xi + k_t v_t,  limit = mu max(0, k delta - eta vn)
       if |f_t| > limit: f_t *= limit / |f_t|, and if k_s > 0: xi = (f_t - k_t v_t) / k_s (sliding)
       f = (eta vn - k delta) n + f_t         (on a; eqs. 10-13 with the spring)
   With k_s = 0 this is the viscous model exactly (xi is then meaningless: not kept). Writes f;
   returns 1 when the cap acted (sliding), else 0. */
int cpu_dem_contact(const double n[3], double delta, const double v_rel[3], double k, double eta, double kt, double mu,
                    double ks, double h, double xi[3], double f[3]);

/* The springs kept between contact passes (the history): one xi per contact that touched at the
   last pass with k_s > 0, keyed by (id, wall, partner): a pair of particles as (lower id, 0,
   higher id), a particle at a wall as (its id, 1, cpu_dem_wall_key). Kept as an array sorted by
   key, looked up by binary search; a pass builds the next one whole (appended, then sorted), so
   that every contact of the pass reads the last pass's xi, never one written in this pass. Keyed
   by ids, not slots: a scene reloaded from the GPU's store in another slot order keeps it. (A
   spring that finds no host memory is dropped.) */
typedef struct cpu_dem_spring {
    uint32_t id;       /* the pair's lower id, or the particle's at a wall */
    uint32_t wall;     /* 0: a pair; 1: a wall */
    uint32_t partner;  /* the higher id, or the wall's key */
    uint32_t sliding;  /* 1: the contact slid at the pass that kept it (the spring holds the Coulomb force) */
    double xi[3];      /* metres */
} cpu_dem_spring;
typedef struct cpu_dem_history {
    cpu_dem_spring* springs;   /* sorted by (id, wall, partner) */
    uint32_t count, capacity;
} cpu_dem_history;

/* A wall's key: collider index * 8 + face; a container box's faces in the order of
   cpu_dem_wall_force, axis a's low face 2a and high face 2a + 1; any other collider face 6. */
uint32_t cpu_dem_wall_key(uint32_t collider, uint32_t face);
/* The kept xi of a contact, or NULL. */
const double* cpu_dem_history_find(const cpu_dem_history* history, uint32_t id, uint32_t wall, uint32_t partner);
/* Copies from into to (to's old contents are not freed); returns 1, or 0 for no memory. */
int cpu_dem_history_copy(cpu_dem_history* to, const cpu_dem_history* from);
void cpu_dem_history_free(cpu_dem_history* history);

/* One pair's contact, a and b in canonical order (a the lower id): a's centre xa, velocity va,
   spin wa (its body's angular velocity; NULL for a grain), radius ra; the pair's k, eta, k_t,
   mu, k_s the arithmetic means of both materials' (a viscous material's k_s counts as 0):
       d = x_b - x_a, dist = |d|; none when dist == 0, dist >= r_a + r_b or not finite
       n = d / dist, delta = r_a + r_b - dist
       lever_a = (r_a - delta / 2) n, lever_b = -(r_b - delta / 2) n   (the same contact point)
       u_a = v_a + w_a x lever_a, u_b = v_b + w_b x lever_b
       f_a = cpu_dem_contact(n, delta, u_b - u_a, ..., xi), f_b = -f_a exactly
       torque_a = lever_a x f_a, torque_b = lever_b x f_b   (about each one's centre)
   xi_old: the pair's kept spring (NULL: none); h the substep. magnitude: k (r_a + r_b + dist)
   (the spring's two terms, k (r_a + r_b) and k dist, whose difference is k delta: float's
   rounding of the distance is relative to the distance, not the overlap) plus (eta + k_t)
   (|u_a| + |u_b|) (the velocity terms) plus k_s (|xi_old| + h (|u_a| + |u_b|)) (the spring's);
   0 when they do not touch, except that a pair within 1e-6 (relative) of touching still counts
   k (r_a + r_b + dist) + k_s |xi_old|, where float may find an overlap of rounding's size (or
   none) that double does not. */
typedef struct cpu_dem_pair {
    double force[3];      /* f_a, N */
    double torque_a[3];   /* N m */
    double torque_b[3];
    double xi[3];         /* the spring after this substep, metres */
    double ks;            /* the pair's k_s: the spring is kept when touching and ks > 0 */
    double magnitude;
    double ambiguous;     /* within 1e-6 (relative) of touching, either side: |f_a| at that distance, the
                             force a float computation may count or not (its dashpots' share is no
                             rounding: a closing pair's dashpot acts in full from the first overlap) */
    int touching;
    int sliding;          /* the Coulomb cap acted */
} cpu_dem_pair;
/* damping: the dashpots' scale (eta and k_t times it), sqrt(M / m) with m the pair's reduced
   mass and M the same with each rigid particle's body's mass in place of its own (1 for grains):
   a contact keeps the damping ratio the material gives two grains (cpu_dem_damping_scale). */
void cpu_dem_pair_force(const double xa[3], const double va[3], const double wa[3], double ra, const cpu_dem_material* ma,
                        const double xb[3], const double vb[3], const double wb[3], double rb, const cpu_dem_material* mb,
                        const double xi_old[3], double h, double damping, cpu_dem_pair* out);
/* sqrt(M / m) of masses ma, mb (their particles') and Ma, Mb (their bodies', or their own): mb
   and Mb 0 for a wall (infinite mass: m = ma, M = Ma). */
double cpu_dem_damping_scale(double ma, double mb, double Ma, double Mb);

/* The walls' force on particle `id` of its own material (no mean), spin w (NULL: none): every
   collider on its own whose distance phi < r touches it, and a container box (GP_SHAPE_BOX,
   inside) as six plane walls, one per face at distance h_a +- (x_a - c_a). A wall with normal
   n_w is a partner at rest in direction n = -n_w, overlap delta = r - phi, lever
   (r - delta / 2) n: f = cpu_dem_contact(n, delta, -(v + w x lever), ..., xi), torque +=
   lever x f, the particle as a; eta and k_t times damping (cpu_dem_damping_scale with the wall's
   infinite mass). Each wall (face) has its own spring: read from old (NULL: none),
   appended to next when touching with k_s > 0 (NULL: not kept; next is left unsorted, the
   caller sorts: cpu_dem_forces does). h the substep. Adds to f and torque (may be NULL).
   Returns the magnitudes' sum: per wall touched, k (r + s) with s the sizes in the distance's
   sum (|x - center| plus the shape's radius, half extents' length or segment length) plus
   (eta + k_t) |v + w x lever| plus k_s (|xi_old| + h |v + w x lever|), and k (r + s) + k_s
   |xi_old| for a wall within 1e-6 (relative to r + s) of touching that does not; nothing for a
   position that is not finite. ambiguous (may be NULL) gets, for each wall within that 1e-6 of
   touching on either side, the length of its force at contact (cpu_dem_pair.ambiguous's). */
double cpu_dem_wall_force(const gp_collider_desc* colliders, uint32_t collider_count, const double x[3], const double v[3],
                          const double w[3], double r, const cpu_dem_material* m, uint32_t id, const cpu_dem_history* old,
                          cpu_dem_history* next, double h, double damping, double f[3], double torque[3], double* ambiguous);

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
    cpu_dem_history history;             /* the springs the last contact pass kept (owned; cleared by alloc) */
    uint32_t non_finite;                 /* grains and bodies whose update was not finite (the steps add) */
    double* ambiguous;                   /* the last contact pass's, per particle: the sum of its pairs'
                                            and walls' cpu_dem_pair.ambiguous, the force that float may
                                            count or not (a GPU check allows it: bench/bench.c, dem_cpu) */
} cpu_dem_scene;

/* How far a computed value is off the reference's, |computed - reference| = off, over the terms'
   magnitude, less `ambiguous` (the same units: the contacts within rounding of touching, which
   float may count or not, cpu_dem_pair.ambiguous); no terms: exactly 0 due. The GPU checks' one
   rule (tests/test_dem_reference.c, bench/bench.c). */
double cpu_dem_error(double off, double ambiguous, double magnitude);

/* Allocates count particles, all zero (kind GP_KIND_DEFAULT: taking no part), and clears the
   rest of the scene (an empty history). Returns 1, or 0 for no memory. free frees the history
   too. */
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
   NULL): every pair of particles that take part (two RIGID particles of one owner skipped), each
   computed in canonical order (cpu_dem_pair_force, a the lower id; on equal ids the lower slot)
   with the pair's kept spring, then the walls with theirs; particles that take no part, or whose
   position is not finite, get 0. Reads the scene's x and v as they are, and the history as the
   last pass left it; afterwards the history holds exactly the contacts touching now with
   k_s > 0, each with this substep's xi (h = scene->dt). magnitude: the sum of the contacts'
   returns. */
void cpu_dem_forces(cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);
/* The same through a hashed grid of cells as wide as the largest contact distance (twice the
   largest radius), each particle's partners from the 27 cells around it. */
void cpu_dem_forces_grid(cpu_dem_scene* scene, double (*force)[3], double (*torque)[3], double* magnitude);

/* One substep h = scene->dt, in the GPU's order:
     contact forces from the x and v as they are (a rigid particle's from the last stage 1) and
       the history (cpu_dem_forces: the scene's history becomes this substep's);
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
