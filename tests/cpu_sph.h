/* cpu_sph.h: a double-precision, single-threaded CPU reference of one SPH substep, written from
   the formulas the GPU implements (Müller's kernels, WCSPH, wall weight functions: paper 001
   eqs. 4-13) and nothing else: the material's mass and wall weight tables are derived here, not
   read from the library. Two versions give the same results (to rounding): cpu_sph_compute pairs
   every particle with every other (the tests' truth), cpu_sph_compute_grid finds neighbours
   through a hashed grid of cells (the single-threaded CPU column of `make bench`).

   Besides each result it returns the sum of the magnitudes of the terms that made it, so that a
   test can hold the GPU's float result to a tolerance relative to how well conditioned each sum
   is: |gpu - cpu| <= tolerance * magnitude. */
#ifndef GP_CPU_SPH_H
#define GP_CPU_SPH_H
#include "gpuparticle.h"
#include <stdint.h>

#define CPU_SPH_WALL_SAMPLES 32   /* samples of each wall weight table, d_k = k table_spacing */

/* A fluid material in double, with what the reference derives from it. */
typedef struct cpu_sph_material {
    double spacing;           /* l0, metres */
    double smoothing_radius;  /* re, metres */
    double rest_density;      /* rho0, kg/m^3 */
    double stiffness;         /* k, Pa per kg/m^3 */
    double viscosity;         /* nu, m^2/s */
    double rest_pressure;     /* p0, Pa */
    int allow_tension;        /* 0: pressure clamped at 0 */
    double mass;              /* derived: cpu_sph_mass */
    double gradient_norm;     /* derived: cpu_sph_gradient_norm; the pressure gradient's kernel is
                                 divided by it */
    double table_spacing;     /* derived: l0 / 2j, the largest whole j with 31 l0 / 2j >= re (re / 31
                                 if there is none), so that l0 / 2 is a sample */
    double wall_density[CPU_SPH_WALL_SAMPLES];     /* Zrho(d_k), kg/m^3 */
    double wall_viscosity[CPU_SPH_WALL_SAMPLES];   /* Zvis(d_k), 1/m^2 */
    double wall_gradient[CPU_SPH_WALL_SAMPLES];    /* A, M_n, M_t (d_k) of the walls' pressure term, see cpu_sph.c */
    double wall_normal[CPU_SPH_WALL_SAMPLES];
    double wall_tangent[CPU_SPH_WALL_SAMPLES];
    gp_density_model density_model;                /* summation or continuity */
    double diffusion;                              /* delta of the continuity model */
    double artificial_viscosity;                   /* Monaghan's alpha; 0: none */
} cpu_sph_material;

/* The kernels (poly6, spiky's gradient, viscosity's Laplacian) at distance r (vector r for the
   gradient) for smoothing radius re; 0 at and beyond re. */
double cpu_sph_w(double r, double re);
void cpu_sph_grad_w(const double r[3], double re, double out[3]);
double cpu_sph_lap_w(double r, double re);

/* The mass that gives a particle inside a block on the spacing's cubic lattice rest_density:
   rest_density / sum of W over every lattice point closer than re (itself included). */
double cpu_sph_mass(double spacing, double smoothing_radius, double rest_density);
/* G, what the spiky gradient's coefficient is divided by so that the rest lattice recovers a
   unit pressure gradient exactly: sum over the lattice points j != 0 closer than re of
   (mass / rest_density) 45 / (pi re^6) (re - r_j)^2 y_j^2 / r_j (about 0.947 at re = 2 l0). */
double cpu_sph_gradient_norm(double spacing, double smoothing_radius, double mass, double rest_density);
/* The wall's share of density (Zrho) and of the viscosity sum (Zvis, without mu) for a particle
   at distance d from a plane wall, summed exactly over the wall's lattice: the half space
   behind the wall filled on the continuation of the fluid's lattice. */
double cpu_sph_wall_density_exact(const cpu_sph_material* m, double d);
double cpu_sph_wall_viscosity_exact(const cpu_sph_material* m, double d);
/* The same through the 32-sample tables, linearly interpolated, as the solver evaluates them:
   d <= 0 reads d = 0, d >= re gives 0. */
double cpu_sph_wall_density(const cpu_sph_material* m, double d);
double cpu_sph_wall_viscosity(const cpu_sph_material* m, double d);
/* A material from a resolved gp_fluid_material (its mass is ignored): mass and tables derived. */
cpu_sph_material cpu_sph_material_make(const gp_fluid_material* resolved);

/* The boundary's signed distance at x (positive on the particles' side): the minimum of
   cpu_collider_distance over the colliders (meshes are not supported), and in normal the unit
   gradient of the collider that gave it. No collider: +infinity and a zero normal. */
double cpu_sph_boundary(const gp_collider_desc* colliders, uint32_t count, const double x[3], double normal[3]);

/* One substep's input: the store as the GPU holds it (slots in any order). */
typedef struct cpu_sph_scene {
    uint32_t count;
    const gp_particle_position* position;
    const gp_particle_velocity* velocity;    /* .mass is the particle's own mass, m_j */
    const gp_particle_info* info;            /* kind (fluid or not) and phase */
    const cpu_sph_material* materials;       /* indexed by phase */
    uint32_t material_count;
    const gp_collider_desc* colliders;
    uint32_t collider_count;
    const gp_force* forces;
    uint32_t force_count;
    double gravity[3];
    double dt;                               /* the substep (cpu_sph_integrate; the continuity model's density) */
    const float* carried;                    /* the continuity model: the density each particle carries
                                                (NULL, or 0 for one: its rest density) */
} cpu_sph_scene;

/* What one substep computes for a particle, and the magnitudes of the terms behind it. For a
   particle that is not fluid every field is 0; for a fluid particle with a NaN or infinite
   position (it meets no one) every field is NaN. */
typedef struct cpu_sph_particle {
    double density;            /* rho_i = sum_j m_j W + Zrho (eqs. 4, 10, 13) */
    double pressure;           /* p0 + k (rho - rho0), clamped at 0 without tension (eq. 5) */
    double acceleration[3];    /* (f_press + f_vis) / rho + g + forces, with f_press = -sum_j m_j
                                  (p_i + p_j) / rho_j gradW / G (eq. 6 without its 1/2, see
                                  cpu_sph.c) and f_vis of eq. 7 plus the wall's share; the wall
                                  push of eq. 11 is a displacement, in cpu_sph_integrate */
    double boundary;           /* D(x_i) */
    /* Sums of term magnitudes. density_abs = sum_j m_j W + Zrho (all terms are positive).
       pressure_abs = |p0| + k (rho + rho0): the terms of eq. 5, whose cancellation the float
       density's rounding is amplified by. pressure_force_abs = sum_j m_j (P_i + P_j) / rho_j
       |gradW| with P = pressure_abs, viscosity_force_abs = mu (sum_j m_j |v_j - v_i| /
       rho_j lapW + |v_i| Zvis). acceleration_abs = (pressure_force_abs + viscosity_force_abs) /
       rho + |g| + sum of |force|: the scale of the acceleration's rounding. */
    double density_abs, pressure_abs, pressure_force_abs, viscosity_force_abs, acceleration_abs;
    uint32_t neighbors;        /* fluid and solid particles within re, itself included */
    uint32_t ambiguous;        /* where a float GPU may decide one of the continuity model's
                                  thresholds the other way (cpu_sph.c, sph_density): 1 its own, the
                                  free-surface test at 0.75 rho0 or the relaxation's first moment
                                  at 0.3 / re, within CPU_SPH_AMBIGUOUS of its terms' magnitude;
                                  2 a neighbour's (its pressure, or a solid's pressure taken from
                                  it, enters this one's force); 0 otherwise */
} cpu_sph_particle;

/* How near a threshold, relative to its terms' magnitude, the reference calls a decision
   ambiguous: a float sum of a few dozen positive terms is good to a few 1e-6 of them. */
#define CPU_SPH_AMBIGUOUS 1e-5

/* Density, pressure and acceleration of every particle: every pair tried, O(n^2). Grains and rigid
   particles (kinds GRANULAR, RIGID) are the fluid's boundary particles (gpuparticle.h's
   gp_coupling.glsl: the fluid mass (2 r / l0)^3 m, the pressure continued hydrostatically, their
   own velocity); a solid's acceleration is the fluid's force on it over its mass (coupling_solid),
   without its contacts or gravity. */
void cpu_sph_compute(const cpu_sph_scene* scene, cpu_sph_particle* out);
/* The same through a hashed grid of cells the size of the largest smoothing radius, O(n). */
void cpu_sph_compute_grid(const cpu_sph_scene* scene, cpu_sph_particle* out);

/* Integrates one substep from computed accelerations (scene->dt): symplectic or explicit Euler
   (an update that is not finite keeps the old position and stops the particle), then the wall
   push of eq. 11 as a displacement: a fluid particle closer to a wall than l0/2 is moved out to
   l0/2, its velocity into the wall removed. Particles of other kinds are copied unchanged.
   position and velocity receive count each. */
void cpu_sph_integrate(const cpu_sph_scene* scene, const cpu_sph_particle* computed, gp_integrator integrator,
                       gp_particle_position* position, gp_particle_velocity* velocity);
#endif
