// gp_coupling.glsl: the fluid and the solids (grains, rigid bodies' particles) as one another see
// them (Akinci et al. 2012, "Versatile rigid-fluid coupling for incompressible SPH").
// A solid particle b is a boundary particle to the fluid: it stands for the volume psi_b it fills,
// as if that volume held fluid of the fluid's own material at rest (the mass m psi_b / l0^3, the
// material's lattice-scaled mass, so that a fluid particle beside a body sampled at the fluid's
// spacing sees the rest density). A rigid particle fills the voxel of its body's shape, (2 r)^3;
// a grain its sphere, pi (2 r)^3 / 6, so that a lone grain feels Archimedes' buoyancy for its own
// volume and a bed of grains leaves its pores to the fluid. Its pressure p_b is its own, one value
// a substep: the fluid's around it continued hydrostatically and weighted by the density kernel
// (coupling_pressure, after Adami et al. 2012's wall particles), never below 0; its velocity its
// own. (It was the pressure of each fluid neighbour i continued to b, p_i - rho0 g . (x_i - x_b), a
// pair's own: a force whose curl, g x grad W, fed energy into a flow around a body, 0.0015 J in
// coupling_energy_never_grows against 0.0012 J now, and held a body of 1,200 in water where it
// now sinks, if slowly.) Its terms enter the fluid's density (sph_density), density rate
// (sph_continuity) and force (sph_force); in the density rate twice, as the walls' (gp_sph.glsl):
// the pair pushes with p_i + p_b, and p_b follows p_i as a mirror image's pressure would, which
// closes on the particle at twice the speed, so that what the pair's pressure does is what the
// density stores (counted once, it fed energy in at every contact: 0.008 J there); the equal and
// opposite force on b is summed by coupling_solid, from the same
// functions, so that the pair's forces cancel to the float rounding. Needs gp_sph.glsl first.

// A grain narrower than a fluid material's smoothing radius re (re2 = re^2) is one particle the
// fluid cannot flow around (as a boundary particle it sank through water at an eighth of the
// speed a sphere does): to that fluid it is no boundary (m_b 0) but meets it through a drag
// law and the fluid's pressure gradient (coupling_drag, coupling_drag_fluid). Rigid particles,
// which resolve their body's shape together, and grains as wide as re or wider are boundaries.
bool gp_drag_grain(float r, float re2, uint kind) { return kind == GP_KIND_GRANULAR && 4.0 * r * r < re2; }

// The mark of a bucket near a solid. cell_count is free once the grid's scan has read it, and the
// next build clears it: coupling_pressure marks the buckets of the 27 cells around every live
// solid particle there (with the substep's grid, before anything moves), and coupling_guard
// passes over a fluid particle whose own bucket is unmarked: no solid lies in its 27 cells, where
// its sweep would look (the same cells, so the same result). So the guard sweeps only the fluid
// near solids, where it swept every fluid particle's neighbours (1.3 of 12.7 ms of a substep of
// coupling_floating_and_sinking on llvmpipe, whose box is near most of its tank's water). No
// count reaches the mark (a bucket holds at most the store's capacity).
const uint GP_SOLID_BUCKET = 0xffffffffu;

// Bucket b's stamp in gp_drag (DRAG role): component b % 4 of vec4 capacity + b / 4, read and written.
#ifdef GP_BINDING_DRAG
uint gp_drag_bucket_word(uint bucket) { return floatBitsToUint(gp_drag[gp_counts.z + bucket / 4u][bucket % 4u]); }
void gp_drag_bucket_stamp(uint bucket, uint stamp) { gp_drag[gp_counts.z + bucket / 4u][bucket % 4u] = uintBitsToFloat(stamp); }
#endif

// m_b: the fluid mass that solid particle b of kind `kind` and radius r stands for, with scale =
// gp_solid_scale of the fluid material's particle mass and spacing (re2: its smoothing radius^2).
float gp_solid_scale(float mass, float spacing) { return mass / (spacing * spacing * spacing); }
float gp_solid_mass(float scale, float re2, float r, uint kind) {
    float d = 2.0 * r, cube = scale * d * d * d;
    if (gp_drag_grain(r, re2, kind)) return 0.0;
    return kind == GP_KIND_RIGID ? cube : 0.52359878 * cube;   // pi / 6: a grain's sphere
}

// The pair's pressure and viscosity sums for fluid particle i (at p, velocity vi, pressure pi, of
// a material with smoothing radius re, kernel coefficients spiky and laplacian, rest density
// rho0) and solid b (at q, velocity vb, pressure pb, mass mb), in sph_force's form: i's acceleration gains
// (pressure + mu viscosity) / rho_i, its force m_i times that, and b's force is minus i's.
// d = p - q, with 0 < r2 = |d|^2 < re^2.
void gp_coupling_terms(float re, float spiky, float laplacian, float rho0, vec3 d, float r2, vec3 vi, float pi, vec3 vb,
                       float pb, float mb, inout vec3 pressure, inout vec3 viscosity) {
    float r = sqrt(r2), x = re - r, volume = mb / rho0;
    pressure += (volume * (pi + pb) * spiky * x * x / r) * d;
    viscosity += (volume * laplacian * x) * (vb - vi);
}
