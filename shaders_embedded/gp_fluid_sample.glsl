// gp_fluid_sample.glsl: the fluid at a point that is not one of its particles (an effect particle
// riding it, a grain it drags), through the one grid: Shepard's interpolation with each fluid
// particle j's material's poly6 W_j and volume V_j = m_j / rho0_j,
//   filled       phi = sum V_j W_j            (about 1 inside the fluid, 0 away from it)
//   velocity     sum V_j W_j v_j              (over phi: the fluid's velocity there)
//   rho          sum V_j W_j rho0_j           (over phi: its rest density)
//   nu           sum V_j W_j nu_j             (over phi: its kinematic viscosity)
//   reach        sum V_j W_j re_j             (over phi: its smoothing radius)
//   own          sum V_j W_j V_j W_j(0)       (over phi: what one fluid particle at the point
//                                              would add to phi, so that phi / (1 - own) is 1 in a
//                                              hole the size of one of its particles)
//   inertia      sum (V_j W_j)^2 / m_j        (phi^2 over it: the fluid mass whose sampled velocity
//                                              a force shared as coupling_drag_fluid shares it moves)
// over the fluid particles within their material's smoothing radius re of p whose re is more than
// `width` (a grain as wide as re or wider is the fluid's boundary instead, gp_coupling.glsl).
// Needs gp_sph.glsl (gp_poly6_of) and the POSITION, VELOCITY and INFO roles.
struct gp_fluid_sample { vec3 p; float width; float filled; vec3 velocity; float rho; float nu; float reach; float own; float inertia; };

gp_fluid_sample gp_fluid_sample_at(vec3 p, float width) {
    gp_fluid_sample s;
    s.p = p; s.width = width; s.filled = 0.0; s.velocity = vec3(0.0); s.rho = 0.0; s.nu = 0.0; s.reach = 0.0; s.own = 0.0; s.inertia = 0.0;
    return s;
}

// Candidate slot k's share, when it is a fluid particle near enough.
void gp_fluid_sample_term(uint k, uint end, ivec3 cell, inout gp_fluid_sample s) {
    if (k >= end) return;
    vec4 q = gp_position[k];
    uvec4 info = gp_info[k];
    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_grid_same_cell(q.xyz, cell)) return;
    uint m = gp_material_of(info);
    vec3 d = s.p - q.xyz;
    float r2 = dot(d, d), re2 = gp_fluids[m].kernel.w;
    if (r2 >= re2 || !(s.width * s.width < re2)) return;   // as gp_drag_grain decides
    vec4 v = gp_velocity[k];
    float weight = v.w / gp_fluids[m].shape.z * gp_poly6_of(gp_fluids[m].kernel.x, re2, r2);
    s.velocity += weight * v.xyz;
    s.filled += weight;
    s.rho += weight * gp_fluids[m].shape.z;
    s.nu += weight * gp_fluids[m].flow.x;
    s.reach += weight * gp_fluids[m].shape.y;
    s.own += weight * (v.w / gp_fluids[m].shape.z * gp_poly6_of(gp_fluids[m].kernel.x, re2, 0.0));
    s.inertia += weight * weight / v.w;
}
