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
// 32 samples d = k s, s = table.x, which reach re; 0 from re on (the last samples are 0).
vec2 gp_wall_tables(uint m, float d) {
    float x = clamp(d / gp_fluids[m].table.x, 0.0, float(GP_WALL_SAMPLES - 1u));
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

// (m W, m / rho0 lap W) of a wall particle at squared distance r2 < re^2.
vec2 gp_wall_term(uint m, float r2) {
    gp_fluid f = gp_fluids[m];
    float x = f.kernel.w - r2;
    return vec2(f.flow.z * f.kernel.x * x * x * x, f.flow.z / f.shape.z * f.kernel.z * (f.shape.y - sqrt(r2)));
}

// Two faces of a box meet at an edge: the wall particles behind both, (a + 1/2) l0 + da and
// (b + 1/2) l0 + db behind them (a, b >= 0), c l0 along the edge, were counted by both faces'
// tables, and are taken once away; three faces meet at a corner, where the particles behind all
// three were counted three times and taken away three times, and are added once. On the rest
// lattice (da = db = dc = l0 / 2) this is exactly the lattice outside the fluid. Summed here
// rather than tabled: a few terms (12 and 1 at re = 2 l0), for particles within re of an edge.
vec2 gp_wall_edge(uint m, float da, float db) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec2 sum = vec2(0.0);
    for (int a = 0; ; ++a) {
        float x = max(da, 0.0) + (float(a) + 0.5) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = max(db, 0.0) + (float(b) + 0.5) * l0, r2 = x * x + y * y;
            if (r2 >= re2) break;
            sum += gp_wall_term(m, r2);
            for (int c = 1; r2 + float(c * c) * l0 * l0 < re2; ++c) sum += 2.0 * gp_wall_term(m, r2 + float(c * c) * l0 * l0);
        }
    }
    return sum;
}
vec2 gp_wall_corner(uint m, vec3 d) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec3 o = max(d, vec3(0.0)) + 0.5 * l0;
    vec2 sum = vec2(0.0);
    for (int a = 0; ; ++a) {
        float x = o.x + float(a) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = o.y + float(b) * l0;
            if (x * x + y * y >= re2) break;
            for (int c = 0; ; ++c) {
                float z = o.z + float(c) * l0, r2 = x * x + y * y + z * z;
                if (r2 >= re2) break;
                sum += gp_wall_term(m, r2);
            }
        }
    }
    return sum;
}

// A container box's share: six plane walls, less what their edges counted twice, plus what their
// corners then missed. low and high: the distances to the faces on the low and high side of each axis.
vec2 gp_wall_box(uint m, vec3 low, vec3 high) {
    float re = gp_fluids[m].shape.y;
    vec3 near[2] = vec3[2](low, high);
    vec2 sum = vec2(0.0);
    for (int s = 0; s < 2; ++s)
        sum += gp_wall_share(m, near[s].x) + gp_wall_share(m, near[s].y) + gp_wall_share(m, near[s].z);
    vec3 nearest = min(low, high);
    if (int(nearest.x < re) + int(nearest.y < re) + int(nearest.z < re) < 2) return sum;   // near no edge
    for (int s = 0; s < 2; ++s)
        for (int t = 0; t < 2; ++t) {
            if (near[s].x < re && near[t].y < re) sum -= gp_wall_edge(m, near[s].x, near[t].y);
            if (near[s].y < re && near[t].z < re) sum -= gp_wall_edge(m, near[s].y, near[t].z);
            if (near[s].z < re && near[t].x < re) sum -= gp_wall_edge(m, near[s].z, near[t].x);
            for (int u = 0; u < 2; ++u)
                if (near[s].x < re && near[t].y < re && near[u].z < re)
                    sum += gp_wall_corner(m, vec3(near[s].x, near[t].y, near[u].z));
        }
    return sum;
}

vec2 gp_wall_shares(uint m, vec3 p) {
    vec2 sum = vec2(0.0);
    for (uint c = 0u; c < gp_solver_counts.x; ++c) {
        gp_collider_shape s = gp_colliders[c];
        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) sum += gp_wall_box(m, s.b.xyz + (p - s.a.xyz), s.b.xyz - (p - s.a.xyz));
        else sum += gp_wall_share(m, gp_collider_distance(c, p).w);
    }
    return sum;
}
