// gp_solver.glsl: the solvers' parameters, one std140 uniform block at binding 1.
// Mirrored by gp__solver_params in gpuparticle.h (section >>sph); keep both in step.
#define GP_MAX_FLUID_MATERIALS 8u
#define GP_MAX_FORCES 8u
#define GP_MAX_COLLIDERS 32u
#define GP_WALL_SAMPLES 32u

// One fluid material (001): its constants, kernel coefficients and wall weight tables.
struct gp_fluid {
    vec4 shape;               // x spacing l0 (m), y smoothing radius re (m), z rest density (kg/m^3), w stiffness k
    vec4 flow;                // x kinematic viscosity nu (m^2/s), y rest pressure p0 (Pa), z mass (kg), w 1 = allow tension
    vec4 kernel;              // x poly6 315/(64 pi re^9), y spiky gradient 45/(pi re^6), z viscosity Laplacian 45/(pi re^6), w re^2
    vec4 wall_density[8];     // Z_rho (eq. 13) at d = k re / 31, k = 0..31, four per vec4 (kg/m^3)
    vec4 wall_viscosity[8];   // the wall's share of the viscosity sum at the same distances (1/m^2)
};

// A user force: a = (center xyz, type 1 uniform / 2 radial), b = (vector xyz or strength in x, radius).
struct gp_force_field { vec4 a; vec4 b; };

// A collider (section >>sph of gpuparticle.h fills these):
//   a = (centre xyz, or mesh field origin xyz; shape type)
//   b = sphere (0, 0, 0, radius); box (half extents, 0); capsule (end xyz, radius); plane (unit
//       normal, 0); mesh (samples along x, y, z as floats, voxel size)
//   c = (side: -1 keeps particles inside the shape, +1 outside; mesh: first sample's index as
//       float bits; unused, unused)
struct gp_collider_shape { vec4 a; vec4 b; vec4 c; };

layout(std140, binding = 1) uniform gp_solver_block {
    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)
    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit Euler)
    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];
    gp_force_field gp_forces[GP_MAX_FORCES];
    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];
};

#define GP_SHAPE_SPHERE 1.0
#define GP_SHAPE_BOX 2.0
#define GP_SHAPE_CAPSULE 3.0
#define GP_SHAPE_PLANE 4.0
#define GP_SHAPE_MESH 5.0
