// gp_integrate.glsl: one particle's time step, shared by the solvers' integration passes
// (sph_integrate, dem_integrate; the bodies integrate whole in body_update). Needs
// gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (POSITION, VELOCITY and STATS) first.

// x, v advanced by the acceleration a over the substep gp_gravity.w: symplectic Euler (velocity
// first), or explicit Euler when the integrator is 2. A non-finite result keeps the particle
// where it was, at rest, and is counted in stat_bad_updates: one bad particle never spreads NaN.
void gp_integrate(vec3 x, vec3 v, vec3 a, out vec3 xn, out vec3 vn) {
    float dt = gp_gravity.w;
    if ((gp_solver_counts.z & GP_INTEGRATOR_MASK) == 2u) { xn = x + v * dt; vn = v + a * dt; }
    else { vn = v + a * dt; xn = x + vn * dt; }
    if (!gp_finite3(xn) || !gp_finite3(vn)) {
        xn = x; vn = vec3(0.0);
        atomicAdd(stat_bad_updates, 1u);
    }
}

// Writes slot i's new position and velocity (its radius and mass kept) and its speed into the
// statistics, from which the host picks the next step's substeps.
void gp_integrate_store(uint i, vec3 xn, vec3 vn) {
    gp_position[i].xyz = xn;
    gp_velocity[i].xyz = vn;
    atomicMax(stat_max_speed, floatBitsToUint(length(vn)));
}
