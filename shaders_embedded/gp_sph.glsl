// gp_sph.glsl: what the SPH passes share (Harada et al. 2007a): the kernels and the wall weight
// tables. Needs gp_common.glsl, gp_world.glsl, gp_grid.glsl, gp_particles.glsl, gp_solver.glsl and
// gp_buffers.glsl first.

// The material of a particle; phases beyond the table were refused when the particle was added.
uint gp_material_of(uvec4 info) { return min(gp_phase_of(info), GP_MAX_FLUID_MATERIALS - 1u); }

// Müller's kernels (Harada et al. 2007a, eqs. 8-10), r2 = |r|^2 < re^2 checked by the caller.
// poly6 from its coefficient c = 315 / (64 pi re^9) and re^2, at r^2 < re^2: c (re^2 - r^2)^3. The
// passes that sum it pass c and re^2 alone: a whole gp_fluid per call is slow on a software GL.
float gp_poly6_of(float c, float re2, float r2) { float x = re2 - r2; return c * x * x * x; }
float gp_poly6(gp_fluid f, float r2) { return gp_poly6_of(f.kernel.x, f.kernel.w, r2); }
// |spiky gradient| / |r|: the gradient of W_press at r is -this * r.
float gp_spiky_gradient(gp_fluid f, float r) { float x = f.shape.y - r; return f.kernel.y * x * x / r; }
float gp_viscosity_laplacian(gp_fluid f, float r) { return f.kernel.z * (f.shape.y - r); }

// The wall tables at distance d from a plane wall, linear between their 32 samples d = k s,
// s = table.x, which reach re; 0 from re on (the last samples are 0): x density share, y
// viscosity share, z A, w M_n, and in the second vec4 x M_t (see gp_wall below).
void gp_wall_tables(uint m, float d, out vec4 first, out float second) {
    // gp_fluids[m] read field by field: a copy of the whole material is slow on a software GL
    float x = clamp(d / gp_fluids[m].table.x, 0.0, float(GP_WALL_SAMPLES - 1u));
    uint k = min(uint(x), GP_WALL_SAMPLES - 2u), k1 = k + 1u, a = k >> 2u, b = k & 3u, c = k1 >> 2u, e = k1 & 3u;
    first = mix(vec4(gp_fluids[m].wall_density[a][b], gp_fluids[m].wall_viscosity[a][b], gp_fluids[m].wall_gradient[a][b],
                     gp_fluids[m].wall_normal[a][b]),
                vec4(gp_fluids[m].wall_density[c][e], gp_fluids[m].wall_viscosity[c][e], gp_fluids[m].wall_gradient[c][e],
                     gp_fluids[m].wall_normal[c][e]), x - float(k));
    second = mix(gp_fluids[m].wall_tangent[a][b], gp_fluids[m].wall_tangent[c][e], x - float(k));
}

// Pressure from density, eq. 5, clamped at 0 unless the material allows tension.
float gp_pressure(gp_fluid f, float rho) {
    float p = f.flow.y + f.shape.w * (rho - f.shape.z);
    return f.flow.w != 0.0 ? p : max(p, 0.0);
}

// What the walls' particles add for a fluid particle: they continue the fluid's lattice behind
// each wall, at rest, at the rest density, with the pressure p_w = p_i + rho0 g . (x_w - x_i)
// that a fluid at rest would have there (the hydrostatic continuation, as Adami et al. 2012 do
// with wall particles). With e = x_i - x_w and K(r) e = -grad W_press (spiky, normalised):
//   share.x  sum_w m W(r)                   the density share (eq. 13)
//   share.y  sum_w V lap W_vis(r)           the viscosity share (V = m / rho0)
//   a        sum_w V K(r) e                 so that the walls' pressure term of the force is
//   mg       sum_w V K(r) e (g . e)         sum_w V (p_i + p_w) K e = 2 p_i a - rho0 mg
// and the continuity model's wall term -2 rho0 v_i . a: the walls' particles are the particle's
// mirror images, which share its pressure (the force's 2 p_i a) and close on it at twice its
// speed along the normal, sum_w m (v_i - v_w) . grad W with v_w = v_i - 2 (v_i . n) n. The
// pair is energy-consistent: what the walls' pressure takes from the particle's kinetic energy
// is what its density stores (p_i / rho_i^2 per unit of density and mass). Counted once, as the
// walls at rest, the continuity term stored half of it, and every wall contact that the walls'
// pressure pushed back returned energy the fluid never gave (a dam break gained 3% before it
// met the far wall and 40% after). For a plane wall
// with normal n (towards the fluid) these come from the tables (tangent t): a = A(d) n,
// mg = M_n(d) (g . n) n + M_t(d) (g - (g . n) n), A = sum V K e.n, M_n = sum V K (e.n)^2,
// M_t = sum V K (e.t)^2. On the rest lattice with a uniform pressure the walls' and the fluid's
// terms cancel exactly, and with p = rho0 |g| depth they hold the fluid up: a column at rest is
// hydrostatic particle by particle. A wall the fluid hangs under (g . n > 0: a lid, an overhang)
// takes no hydrostatic part along its normal, p_w = p_i there: the continuation would give it
// less pressure than the particle and make it pull the fluid up against itself. Its table terms
// take g less that component; an edge's or a corner's point sums take g whole, so that what
// they correct ends up counted with g less the components away from every face it lies behind.
// Above a free surface the continuation's pressure would be below zero and hold a particle with
// no pressure up along a wall (it fell at 0.8 g, 0.7 g in a corner): the hydrostatic part is
// scaled by gp_surface_fade, which is 1 inside the fluid and falls to 0 at zero pressure.
struct gp_wall { vec2 share; vec3 a; vec3 mg; };

// How much of the walls' hydrostatic part a particle with pressure p takes: all of it from the
// pressure of a quarter spacing of fluid at rest (the top layer of a column at rest has twice
// that), none at zero pressure, linearly between: at a free surface the wall particles above it
// would carry negative pressure and pull.
float gp_surface_fade(uint m, float p) {
    float full = 0.25 * gp_fluids[m].shape.z * length(gp_gravity.xyz) * gp_fluids[m].shape.x;
    return full > 0.0 ? clamp(p / full, 0.0, 1.0) : 1.0;
}

gp_wall gp_wall_none() { gp_wall w; w.share = vec2(0.0); w.a = vec3(0.0); w.mg = vec3(0.0); return w; }

void gp_wall_add(inout gp_wall sum, gp_wall w, float sign) {
    sum.share += sign * w.share; sum.a += sign * w.a; sum.mg += sign * w.mg;
}

// A plane wall at distance d with normal n, from the tables.
gp_wall gp_wall_plane(uint m, vec3 n, float d) {
    gp_wall w = gp_wall_none();
    if (!(d < gp_fluids[m].shape.y)) return w;
    vec4 t;
    float tangent;
    gp_wall_tables(m, d, t, tangent);
    float gn = dot(gp_gravity.xyz, n);
    w.share = t.xy;
    w.a = t.z * n;
    w.mg = t.w * min(gn, 0.0) * n + tangent * (gp_gravity.xyz - gn * n);
    return w;
}

// One wall particle at e = x_i - x_w, added when within re; g: gravity.
void gp_wall_point(uint m, vec3 e, vec3 g, inout gp_wall sum) {
    vec4 shape = gp_fluids[m].shape, flow = gp_fluids[m].flow, kernel = gp_fluids[m].kernel;
    float r2 = dot(e, e);
    if (r2 >= kernel.w) return;
    float r = sqrt(r2), x = shape.y - r, volume = flow.z / shape.z, q = kernel.w - r2;
    float k = volume * kernel.y * x * x / r;
    sum.share += vec2(flow.z * kernel.x * q * q * q, volume * kernel.z * x);
    sum.a += k * e;
    sum.mg += k * dot(g, e) * e;
}

// Two faces of a box meet at an edge: the wall particles behind both, (a + 1/2) l0 + da and
// (b + 1/2) l0 + db behind them (a, b >= 0), c l0 along the edge, were counted by both faces'
// tables, and are taken once away; three faces meet at a corner, where the particles behind all
// three were counted three times and taken away three times, and are added once. On the rest
// lattice (da = db = dc = l0 / 2) this is exactly the lattice outside the fluid. Summed here
// rather than tabled: a few terms (12 and 1 at re = 2 l0), for particles within re of an edge.
gp_wall gp_wall_edge(uint m, vec3 na, float da, vec3 nb, float db) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec3 along = cross(na, nb), g = gp_gravity.xyz;
    gp_wall sum = gp_wall_none();
    for (int a = 0; ; ++a) {
        float x = max(da, 0.0) + (float(a) + 0.5) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = max(db, 0.0) + (float(b) + 0.5) * l0;
            if (x * x + y * y >= re2) break;
            vec3 e = x * na + y * nb;
            gp_wall_point(m, e, g, sum);
            for (int c = 1; x * x + y * y + float(c * c) * l0 * l0 < re2; ++c) {
                gp_wall_point(m, e + float(c) * l0 * along, g, sum);
                gp_wall_point(m, e - float(c) * l0 * along, g, sum);
            }
        }
    }
    return sum;
}
gp_wall gp_wall_corner(uint m, vec3 d, vec3 normal) {
    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;
    vec3 o = max(d, vec3(0.0)) + 0.5 * l0, g = gp_gravity.xyz;
    gp_wall sum = gp_wall_none();
    for (int a = 0; ; ++a) {
        float x = o.x + float(a) * l0;
        if (x * x >= re2) break;
        for (int b = 0; ; ++b) {
            float y = o.y + float(b) * l0;
            if (x * x + y * y >= re2) break;
            for (int c = 0; ; ++c) {
                float z = o.z + float(c) * l0;
                if (x * x + y * y + z * z >= re2) break;
                gp_wall_point(m, normal * vec3(x, y, z), g, sum);
            }
        }
    }
    return sum;
}

// An edge's or a corner's share, taken away or added when every distance is within re.
void gp_wall_edge_add(uint m, vec3 na, float da, vec3 nb, float db, inout gp_wall sum) {
    float re = gp_fluids[m].shape.y;
    if (da < re && db < re) gp_wall_add(sum, gp_wall_edge(m, na, da, nb, db), -1.0);
}
void gp_wall_corner_add(uint m, vec3 d, vec3 normal, inout gp_wall sum) {
    if (all(lessThan(d, vec3(gp_fluids[m].shape.y)))) gp_wall_add(sum, gp_wall_corner(m, d, normal), 1.0);
}

// A container box: six plane walls, less what their edges counted twice, plus what their corners
// then missed. low and high: the distances to the faces on the low and high side of each axis,
// whose normals towards the fluid are +axis and -axis. Written out face by face, edge by edge:
// a software GL runs local arrays indexed by loop counters very slowly.
gp_wall gp_wall_box(uint m, vec3 low, vec3 high) {
    const vec3 X = vec3(1.0, 0.0, 0.0), Y = vec3(0.0, 1.0, 0.0), Z = vec3(0.0, 0.0, 1.0);
    float re = gp_fluids[m].shape.y;
    gp_wall sum = gp_wall_plane(m, X, low.x);
    gp_wall_add(sum, gp_wall_plane(m, -X, high.x), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, Y, low.y), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, -Y, high.y), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, Z, low.z), 1.0);
    gp_wall_add(sum, gp_wall_plane(m, -Z, high.z), 1.0);
    vec3 near = min(low, high);
    if (int(near.x < re) + int(near.y < re) + int(near.z < re) < 2) return sum;   // near no edge
    gp_wall_edge_add(m, X, low.x, Y, low.y, sum);
    gp_wall_edge_add(m, X, low.x, -Y, high.y, sum);
    gp_wall_edge_add(m, -X, high.x, Y, low.y, sum);
    gp_wall_edge_add(m, -X, high.x, -Y, high.y, sum);
    gp_wall_edge_add(m, Y, low.y, Z, low.z, sum);
    gp_wall_edge_add(m, Y, low.y, -Z, high.z, sum);
    gp_wall_edge_add(m, -Y, high.y, Z, low.z, sum);
    gp_wall_edge_add(m, -Y, high.y, -Z, high.z, sum);
    gp_wall_edge_add(m, Z, low.z, X, low.x, sum);
    gp_wall_edge_add(m, Z, low.z, -X, high.x, sum);
    gp_wall_edge_add(m, -Z, high.z, X, low.x, sum);
    gp_wall_edge_add(m, -Z, high.z, -X, high.x, sum);
    gp_wall_corner_add(m, vec3(low.x, low.y, low.z), vec3(1.0, 1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, low.y, low.z), vec3(-1.0, 1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, high.y, low.z), vec3(1.0, -1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, high.y, low.z), vec3(-1.0, -1.0, 1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, low.y, high.z), vec3(1.0, 1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, low.y, high.z), vec3(-1.0, 1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(low.x, high.y, high.z), vec3(1.0, -1.0, -1.0), sum);
    gp_wall_corner_add(m, vec3(high.x, high.y, high.z), vec3(-1.0, -1.0, -1.0), sum);
    return sum;
}

// Every collider's wall at p: each at its own distance and normal, a container box face by face
// (so that a particle in a tank's edge or corner sees the wall particles of two or three faces;
// the nearest face alone leaves it 16% or 30% short of the rest density there).
gp_wall gp_walls(uint m, vec3 p) {
    gp_wall sum = gp_wall_none();
    for (uint c = 0u; c < gp_solver_counts.x; ++c) {
        gp_collider_shape s = gp_colliders[c];
        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {
            gp_wall_add(sum, gp_wall_box(m, s.b.xyz + (p - s.a.xyz), s.b.xyz - (p - s.a.xyz)), 1.0);
        } else {
            vec4 d = gp_collider_distance(c, p);
            gp_wall_add(sum, gp_wall_plane(m, d.xyz, d.w), 1.0);
        }
    }
    return sum;
}
