// gp_solver.glsl: the solvers' parameters, one std140 uniform block at binding 1.
// Mirrored by gp__solver_params in gpuparticle.h (section >>structs), checked field by field by a test.

// One fluid material (Harada et al. 2007a): its constants, kernel coefficients and wall weight
// tables.
struct gp_fluid {
    vec4 shape;               // x spacing l0 (m), y smoothing radius re (m), z rest density (kg/m^3), w stiffness k
    vec4 flow;                // x kinematic viscosity nu (m^2/s), y rest pressure p0 (Pa), z mass (kg), w 1 = allow tension
    vec4 kernel;              // x poly6 315/(64 pi re^9), y spiky gradient 45/(pi re^6), z viscosity Laplacian 45/(pi re^6), w re^2
    vec4 table;               // x the tables' sample spacing s (m): l0 / 2j with j whole, so that l0 / 2 is a sample
    vec4 wall_density[8];     // Z_rho (eq. 13) at d = k s, k = 0..31, four per vec4 (kg/m^3)
    vec4 wall_viscosity[8];   // the wall's share of the viscosity sum at the same distances (1/m^2)
    vec4 wall_gradient[8];    // A, M_n and M_t of the walls' pressure term (gp_sph.glsl, gp_wall)
    vec4 wall_normal[8];
    vec4 wall_tangent[8];
};

// One granular material (Harada 2007): the contact parameters of its grains and of rigid particles
// of its phase. contact = (stiffness k N/m, damping eta N s/m, shear k_t N s/m, friction mu),
// grain = (diameter m, mass kg, shear spring k_s N/m (0: the viscous model), rolling friction mu_r).
struct gp_granular { vec4 contact; vec4 grain; };

// A user force: a = (center xyz, type 1 uniform / 2 radial), b = (vector xyz or strength in x, radius).
struct gp_force_field { vec4 a; vec4 b; };

// A collider (section >>colliders of gpuparticle.h fills these):
//   a = (centre xyz, a capsule's first end xyz, a plane's point xyz, a mesh field's origin xyz, or
//       a height field's first point (x, base y, z); shape type)
//   b = sphere (0, 0, 0, radius); box (half extents, 0); capsule (its second end xyz, radius: the
//       ends are centre -+ half_height axis); plane (unit normal, 0); mesh (samples along x, y, z
//       as floats, voxel size); height field (points along x, along z, dx, dz)
//   c = (side: -1 keeps particles inside the shape, +1 outside; mesh, height field: first
//       sample's index as float bits; unused, unused)
struct gp_collider_shape { vec4 a; vec4 b; vec4 c; };

// One effect material (gp_effect_material_set): motion = (drag k 1/s, restitution e of a bounce,
// friction mu, ride 1/s), contact = (restitution of collisions between effect particles, 0: none;
// unused x3).
struct gp_effect { vec4 motion; vec4 contact; };

layout(std140, binding = 1) uniform gp_solver_block {
    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)
    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit
                              // Euler; GP_INTEGRATOR_MASK) | GP_FLAG_ARTIFICIAL_VISCOSITY, w bodies
    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];
    gp_force_field gp_forces[GP_MAX_FORCES];
    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];
    gp_granular gp_granulars[GP_MAX_GRANULAR_MATERIALS];
    gp_effect gp_effects[GP_MAX_EFFECT_MATERIALS];
    vec4 gp_wind[6];   // the wind (gp_wind_set): uniform xyz; vortex centre xyz, speed; its unit axis xyz,
                       // radius; the grid's first node xyz, cell (0: no grid); its nodes along x, y, z,
                       // its first float in gp_field (uint bits);
                       // curl noise: speed (0: none), scale, seed (uint bits)
};

// The user's forces at p (gp_forces_set).
vec3 gp_user_forces(vec3 p) {
    vec3 a = vec3(0.0);
    for (uint f = 0u; f < gp_solver_counts.y; ++f) {
        vec4 fa = gp_forces[f].a, fb = gp_forces[f].b;
        vec3 d = fa.xyz - p;
        float l = length(d);
        if (fa.w == 1.0) {
            if (fb.w <= 0.0 || l < fb.w) a += fb.xyz;
        } else if (l > 0.0 && (fb.w <= 0.0 || l < fb.w)) {
            a += (fb.x * (fb.w > 0.0 ? 1.0 - l / fb.w : 1.0) / l) * d;
        }
    }
    return a;
}
