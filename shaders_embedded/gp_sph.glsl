// gp_sph.glsl: what the SPH passes share (001): their buffers beyond the particle store, the
// kernels and the wall weight tables. Needs gp_common.glsl, gp_world.glsl, gp_grid.glsl,
// gp_particles.glsl and gp_solver.glsl first.
//
// Between two grid builds the store's spare buffers are free: the density pass writes (density,
// pressure) into the 8-byte spare (bound at 3, where gp_life would be; the SPH passes do not touch
// life) and the force pass writes accelerations into the 16-byte spare (at 4). Both stay readable
// until the next build, which reuses them.
layout(std430, binding = 3) buffer gp_density_block { vec2 gp_density[]; };           // kg/m^3, Pa
layout(std430, binding = 4) buffer gp_acceleration_block { vec4 gp_acceleration[]; }; // m/s^2, 0
layout(std430, binding = 5) readonly buffer cell_start_block { uint cell_start[]; };
// The words of the world's statistics buffer: the grid's three, then the fluid's.
layout(std430, binding = 7) buffer gp_stats_block {
    uint stat_outside; uint stat_nonfinite; uint stat_truncated;
    uint stat_max_speed;      // float bits of the largest speed (non-negative floats order as uints)
    uint stat_min_density;    // float bits
    uint stat_max_density;    // float bits
    uint stat_wall_pushes;    // particles put back out of a wall in the last substep
    uint stat_bad_updates;    // non-finite updates since the world was made
};

// The material of a particle; phases beyond the table were refused when the particle was added.
uint gp_material_of(uvec4 info) { return min(gp_phase_of(info), GP_MAX_FLUID_MATERIALS - 1u); }

// Müller's kernels (001 eqs. 8-10), r2 = |r|^2 < re^2 checked by the caller.
float gp_poly6(gp_fluid f, float r2) { float x = f.kernel.w - r2; return f.kernel.x * x * x * x; }
// |spiky gradient| / |r|: the gradient of W_press at r is -this * r.
float gp_spiky_gradient(gp_fluid f, float r) { float x = f.shape.y - r; return f.kernel.y * x * x / r; }
float gp_viscosity_laplacian(gp_fluid f, float r) { return f.kernel.z * (f.shape.y - r); }

// The wall weight tables at distance d from the wall, (density, viscosity), linear between their
// 32 samples over [0, re]; 0 from re on (the last samples are 0).
vec2 gp_wall_tables(uint m, float d) {
    float x = clamp(d / gp_fluids[m].shape.y, 0.0, 1.0) * float(GP_WALL_SAMPLES - 1u);
    uint k = min(uint(x), GP_WALL_SAMPLES - 2u);
    uint k1 = k + 1u;
    vec2 a = vec2(gp_fluids[m].wall_density[k >> 2u][k & 3u], gp_fluids[m].wall_viscosity[k >> 2u][k & 3u]);
    vec2 b = vec2(gp_fluids[m].wall_density[k1 >> 2u][k1 & 3u], gp_fluids[m].wall_viscosity[k1 >> 2u][k1 & 3u]);
    return mix(a, b, x - float(k));
}

// Pressure from density, eq. 5, clamped at 0 unless the material allows tension.
float gp_pressure(gp_fluid f, float rho) {
    float p = f.flow.y + f.shape.w * (rho - f.shape.z);
    return f.flow.w != 0.0 ? p : max(p, 0.0);
}

// The walls' shares of density (eq. 13) and of viscosity at p, summed over the walls within re:
// each collider counts at its own distance, except a container box, whose six faces count each as
// a plane wall, so that a particle in a tank's edge or corner sees the wall particles of two or
// three faces (the nearest face alone leaves it 16% or 30% short of the rest density there).
vec2 gp_wall_share(uint m, float d) {
    return d < gp_fluids[m].shape.y ? gp_wall_tables(m, d) : vec2(0.0);
}
vec2 gp_wall_shares(uint m, vec3 p) {
    vec2 sum = vec2(0.0);
    for (uint c = 0u; c < gp_solver_counts.x; ++c) {
        gp_collider_shape s = gp_colliders[c];
        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {
            vec3 low = s.b.xyz + (p - s.a.xyz), high = s.b.xyz - (p - s.a.xyz);   // to each face
            sum += gp_wall_share(m, low.x) + gp_wall_share(m, high.x) + gp_wall_share(m, low.y)
                 + gp_wall_share(m, high.y) + gp_wall_share(m, low.z) + gp_wall_share(m, high.z);
        } else {
            sum += gp_wall_share(m, gp_collider_distance(c, p).w);
        }
    }
    return sum;
}
