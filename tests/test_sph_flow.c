/* test_sph_flow.c: the SPH fluid in motion, against physics and experiment: dam breaks (energy
   never grows in a closed tank, the volume is kept, the front against Martin and Moyce 1952,
   particles, ids and masses exactly conserved with no particle in a wall after any substep), a
   drop of water, two particles on top of each other, Taylor and Green's decaying vortex, the
   continuity model repeating bit for bit, and a mirror-symmetric start staying symmetric. */
#include "test_sph.h"

/* The dam break with water (gp_fluid_preset_material's GP_FLUID_WATER: the continuity model, nu =
   1e-6 m^2/s, no other setting; the default material is the same): a column a = 0.1 m wide, 2a high
   and 0.1 m deep at the end of a closed tank `length` long and 0.3 m high, spacing l0 (the block
   fills its box on the lattice). *n receives the particle count. */
static gp_world* sph_dam_world(float l0, float length, uint32_t* n) {
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.2f, 0.1f};
    memset(&d, 0, sizeof d);
    d.max_particles = (uint32_t)gp_lattice_block_count(l0, lo, hi);
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return NULL;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK);
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.5f * length, 0.15f, 0.05f, 0.5f * length, 0.15f, 0.05f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, n) == GP_OK);
    return w;
}

/* What a dam break's frame shows: positions, velocities and densities read back, and from them
   the energy (kinetic, potential over the floor, and the internal energy the fluid's compression
   stores, e(rho) = k (ln(rho / rho0) + rho0 / rho - 1) per kilogram for eq. 5's p = k (rho - rho0)
   above rho0, zero below, where the pressure is clamped), the fastest speed, the particles that
   are not finite, the front (the farthest particle within 0.02 m of the floor, plus half a
   spacing) and the column's height at the back wall (the highest particle within 0.02 m of it,
   plus half a spacing). */
typedef struct sph_dam_frame { double energy, fastest, front, height; uint32_t bad; } sph_dam_frame;
static sph_dam_frame sph_dam_read(gp_world* w, uint32_t n, float l0, gp_particle_position* p, gp_particle_velocity* v, float* rho) {
    sph_dam_frame f;
    gp_fluid_material m;
    uint32_t k;
    memset(&f, 0, sizeof f);
    CHECK(gp_fluid_material_get(w, 0, &m) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_DENSITY, 0, n, rho) == GP_OK);
    for (k = 0; k < n; ++k) {
        double s2 = (double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z, r = rho[k] / m.rest_density;
        if (!isfinite(s2) || !isfinite(p[k].x) || !isfinite(p[k].y) || !isfinite(p[k].z) || !isfinite(r)) { ++f.bad; continue; }
        f.fastest = fmax(f.fastest, sqrt(s2));
        f.energy += v[k].mass * (0.5 * s2 + 9.81 * p[k].y);
        f.energy += fixture_compression_energy(&m, v[k].mass, rho[k]);
        if (p[k].y < 0.02f) f.front = fmax(f.front, p[k].x + 0.5 * l0);
        if (p[k].x < 0.02f) f.height = fmax(f.height, p[k].y + 0.5 * l0);
    }
    return f;
}

/* Energy in a closed tank never grows (energy entering from nowhere is what once made a dam break's
   front outrun any real fluid), with water: the dam break in a tank 0.4 m long at spacing 0.02 m,
   sampled every frame of 1/60 s over 2 s of its collapse, its impact on the far wall and its
   sloshing. Counted: kinetic, potential and the compression's
   internal energy (sph_dam_read), so that what compressibility exchanges is inside the sum; the
   bound stated for what is left (the sampling between substeps, the diffusion's density moves):
   the energy never above its start by 0.5%, and never more than 1% of the start above the least
   it had before (measured on llvmpipe: never above the start, at most 0.5% back up after a dip;
   2 s end at 36% of the start). Every particle stays finite, and no particle is ever faster
   than the ideal front 2 sqrt(g H) (2.8 m/s, H = 0.2 m): not the surge, nor what the far wall
   throws up (measured on llvmpipe: 2.62 m/s at most, 2.72 since blocks start hydrostatic, 2.77 since the density's 0.5% floor (bench/RESULTS.md: this scene's first impact sits on the bound, in other tank lengths over it); single spray particles reached 3.5 m/s
   before the free surface carried no pressure, sph_continuity; the walls' old continuity term,
   half the mirror's, pumped this dam break to 1,320 m/s).
   Before 0.4.0 the walls' particles entered the density rate once, as if at rest, while their
   pressure pushed as the particle's mirror: energy came in at every wall contact (this dam
   break without diffusion: 3% before the far wall, 40% after). */
void test_sph_dam_break_energy(void) {
    const float l0 = 0.02f;
    const double bound = 2.0 * sqrt(9.81 * 0.2);
    uint32_t n = 0, frame, bad = 0;
    gp_world* w = sph_dam_world(l0, 0.4f, &n);
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    double start = 0.0, least = 0.0, most = 0.0, regain = 0.0, surge = 0.0, fastest = 0.0;
    bool hit = false;
    if (!w) return;
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    for (frame = 1; frame <= 120; ++frame) {
        sph_dam_frame f;
        fixture_run(w, 1);
        f = sph_dam_read(w, n, l0, p, v, rho);
        if (frame == 1) start = least = f.energy;
        most = fmax(most, f.energy);
        regain = fmax(regain, f.energy - least);
        least = fmin(least, f.energy);
        hit = hit || f.front > 0.4 - 2.0 * l0;
        if (!hit) surge = fmax(surge, f.fastest);
        fastest = fmax(fastest, f.fastest);
        bad += f.bad;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    t %.3f s: energy %.5f J (%.4f of the start), fastest %.2f m/s, front %.3f m\n", frame / 60.0, f.energy,
                    f.energy / start, f.fastest, f.front);
    }
    CHECKF(bad == 0 && gp_particle_count(w) == n, "%u particle frames not finite; %u particles of %u", bad, gp_particle_count(w), n);
    CHECKF(most <= 1.005 * start && regain <= 0.01 * start, "the energy went from %.5f J to %.5f J at most, and came back up "
           "%.5f J (%.2f%% of the start) after a dip", start, most, regain, 100.0 * regain / start);
    CHECKF(hit && surge < bound, "the surge (before the far wall: %s) has a particle at %.2f m/s; the ideal front moves at %.2f",
           hit ? "met" : "never met", surge, bound);
    CHECKF(fastest < bound, "after the impact a particle reaches %.2f m/s (2 sqrt(g H) = %.2f)", fastest, bound);
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* The fluid keeps its volume while it sloshes (water, the default, is nearly incompressible). A dam
   break of water 0.1 x 0.2 x 0.03 m at spacing 0.01 m in a tank 0.2 m long, watched 1.5 s (its
   surge meets the far wall at about 0.15 s and sloshes back and forth): then the positions' own
   summation density (eq. 4 with the walls' share, eq. 13: the double-precision reference,
   tests/cpu_sph.c, run on the read-back positions with the summation model) over the particles with
   fluid at least re and half a spacing above them (the ones whose kernel the fluid fills). A fluid
   that keeps its volume has it at rho0 to within the continuity model's own swings ((u / c0)^2,
   under 1%) and the kernel's sampling of a disordered arrangement. Measured on llvmpipe: 0.9989
   rho0 (the densities the particles carry: 1.0006 rho0) since the carried density relaxes towards
   the positions' where a particle's kernel is whole (sph_continuity.comp, 2026-11-28); 0.952 before
   (5% more room than the fluid has: the spiky kernel of the density's rate reads a disordered
   packing as denser, and the floor forgets expansions), and 0.910 before the carried density's
   floor let it remember an expansion (sph_dam_break_energy's dam break in its 0.4 m tank, 0.1 m
   wide, by this measure: 20% after 4 s of sloshing, 10.5% with the floor; bench/notes/
   fluid_volume_growth_while_sloshing.md). Tested: the mean within 1.5% of rho0, which both
   earlier forms fail. (A tank 0.05 m wide and 2 s, as first written: 0.942 against 0.905, at twice
   the time.) */
void test_sph_dam_break_keeps_volume(void) {
    const float l0 = 0.01f, lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.2f, 0.03f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material fm;
    gp_collider_desc tank = sph_box(0.1f, 0.15f, 0.015f, 0.1f, 0.15f, 0.015f, 1);
    gp_collider handle;
    cpu_sph_particle* out;
    sph_state st;
    uint32_t n = 0, i, j, inner = 0;
    double sum = 0.0, carried = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 1000;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &fm) == GP_OK && gp_fluid_material_set(w, 0, &fm) == GP_OK);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 600);
    fixture_run(w, 90);
    st = sph_read(w, 1);
    CHECK(gp_fluid_material_get(w, 0, &fm) == GP_OK);
    out = sph_positions_density(&st, &fm, &tank, 1);
    for (i = 0; i < st.n; ++i) {   /* the highest particle of i's column, within a spacing across */
        double top = st.position[i].y;
        for (j = 0; j < st.n; ++j)
            if (fabs(st.position[j].x - st.position[i].x) < l0 && fabs(st.position[j].z - st.position[i].z) < l0)
                top = fmax(top, st.position[j].y);
        if (st.position[i].y + fm.smoothing_radius + 0.5 * l0 > top) continue;
        sum += out[i].density / fm.rest_density;
        carried += st.density[i] / fm.rest_density;
        ++inner;
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    after 1.5 s: %u particles under re of fluid; their summation density %.4f rho0, carried %.4f rho0\n", inner,
                sum / (inner ? inner : 1), carried / (inner ? inner : 1));
    CHECKF(inner >= n / 4, "only %u of %u particles have re of fluid above them", inner, n);
    CHECKF(fabs(sum / (inner ? inner : 1) - 1.0) < 0.015, "the fluid's positions stand at %.4f rho0 (the particles carry %.4f rho0): "
           "its volume grew by %.1f%%", sum / (inner ? inner : 1), carried / (inner ? inner : 1), 100.0 * (inner ? inner / sum - 1.0 : 0.0));
    free(out);
    sph_state_free(&st);
    gp_world_destroy(w);
}

/* Two free-surface particles almost on top of each other part gently. Water at 0.02 m, five
   particles as `sph_dam_break_energy`'s sloshing had them at t = 0.917 s with each cell in order
   of id (2026-11-28): two of them in the tank's vertical edge at x = 0, held at half a spacing
   from the side wall z = 0, 0.0016 m apart and closing (on the free surface neither has pressure,
   so nothing keeps them apart), the other three around them. A frame later the two are 0.0007 m
   apart (0.035 spacing); with the walls they fill a neighbourhood and carry pressure, and the
   continuity model's diffusion between them divided by r^2 while the spiky kernel's slope stays
   finite at r = 0: they traded 40-64 kg/m^3 in a substep and flew apart at 2.35 and 2.6 m/s (that
   run's energy rose by 1.7% of its start in one frame). The diffusion now divides by at least
   (0.1 h)^2 (h = re / 2; the eta^2 of DualSPHysics and of this library's artificial viscosity),
   which no pair a tenth of a spacing apart or more feels. Tested over a frame of 28 substeps: no
   particle faster than the fastest start (0.68 m/s) plus what gravity gives, plus 0.5 m/s
   (measured: 0.67 m/s; without the floor 3.24). */
void test_sph_pair_on_top_parts_gently(void) {
    const float l0 = 0.02f, dt = 1.0f / 1680.0f;
    const float xyz[15] = {0.0195f, 0.1136f, 0.0100f, 0.0187f, 0.1151f, 0.0100f, 0.0358f, 0.1142f, 0.0100f,
                           0.0274f, 0.0891f, 0.0350f, 0.0410f, 0.1048f, 0.0393f};
    const float vel[15] = {-0.27f, 0.62f, 0.0f, -0.25f, 0.50f, 0.0f, -0.39f, 0.22f, 0.0f, 0.40f, 0.20f, 0.35f, -0.32f, 0.44f, -0.11f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particles_desc pd;
    gp_particle_velocity v[5];
    int step;
    double fastest = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 16;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK);
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.2f, 0.15f, 0.05f, 0.2f, 0.15f, 0.05f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 5; pd.positions = xyz; pd.velocities = vel; pd.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    for (step = 0; step < 28; ++step) {
        gp_step_desc st;
        int k;
        memset(&st, 0, sizeof st);
        st.dt = dt;
        st.substeps = 1;
        CHECK(gp_world_step(w, &st) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 5, v) == GP_OK);
        for (k = 0; k < 5; ++k)
            fastest = fmax(fastest, sqrt((double)v[k].x * v[k].x + (double)v[k].y * v[k].y + (double)v[k].z * v[k].z));
    }
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    the fastest particle over a frame: %.3f m/s\n", fastest);
    CHECKF(fastest < sqrt(0.27 * 0.27 + 0.62 * 0.62) + 9.81 * 28.0 * dt + 0.5, "two particles on top of each other flew apart at %.2f m/s",
           fastest);
    gp_world_destroy(w);
}

/* A block of water (GP_FLUID_WATER) 0.12 m wide dropped from 0.3 m onto the floor of a box tank
   0.4 m wide, spacing 0.02 m, watched 1.5 s, every frame: its energy (kinetic, potential and
   compression, sph_dam_read's) never above its start by 0.5%, every particle finite, and the
   fastest particle below three times the impact speed sqrt(2 g h) = 2.4 m/s. Before the free
   surface's cap (sph_continuity.comp) the splash pumped itself up: 4.35 times its energy at 1.5 s,
   particles at 10.9 m/s, the puddle's densities all above rho0. Measured on llvmpipe after: the
   energy falls at the impact (to about a quarter: the splash and the walls' pushes) and keeps
   falling; the fastest particle 3.4 m/s (5.1 before the floor of 2026-11-28), below 2 m/s by
   1.4 s. Read every frame since 2026-11-28: a 2% density floor tried then threw a droplet at
   8.5 m/s in a frame between the third ones that were read. The fastest droplet of one start is
   a noisy figure (bench/notes/fluid_volume_growth_while_sloshing.md): over 14 starting heights it ranged
   3.2-9.8 m/s with the old floor, 3.3-6.8 with the one that landed (4.9 on average with both):
   a run whose float sums differ (another GPU) may throw one past the bound. */

void test_sph_water_drop(void) {
    const float l0 = 0.02f, lo[3] = {0.14f, 0.3f, 0.14f}, hi[3] = {0.26f, 0.42f, 0.26f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    uint32_t n = 0, frame, bad = 0;
    double start = 0.0, most = 0.0, fastest = 0.0;
    memset(&d, 0, sizeof d);
    d.max_particles = 1000;
    d.grid.cell_size = 2.0f * l0;
    if (!(w = fixture_world(&d))) return;
    CHECK(gp_fluid_preset_material(GP_FLUID_WATER, l0, &m) == GP_OK && gp_fluid_material_set(w, 0, &m) == GP_OK);
    tank = sph_box(0.2f, 0.3f, 0.2f, 0.2f, 0.3f, 0.2f, 1);
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 216);
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    for (frame = 1; frame <= 90; ++frame) {
        sph_dam_frame f;
        fixture_run(w, 1);
        f = sph_dam_read(w, n, l0, p, v, rho);
        if (frame == 1) start = f.energy;
        most = fmax(most, f.energy);
        fastest = fmax(fastest, f.fastest);
        bad += f.bad;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    t %.2f s: energy %.4f of the start, fastest %.2f m/s\n", frame / 60.0, f.energy / start, f.fastest);
    }
    CHECKF(bad == 0 && most <= 1.005 * start, "%u particles not finite; the energy went from %.4f J to %.4f J", bad, start, most);
    CHECKF(fastest < 3.0 * sqrt(2.0 * 9.81 * 0.3), "a particle reached %.2f m/s (impact speed %.2f)", fastest, sqrt(2.0 * 9.81 * 0.3));
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* The fluid's own viscosity against a closed form: Taylor and Green's (1937) decaying vortex,
   u = U sin(kx) cos(ky), v = -U cos(kx) sin(ky), w = 0, k = pi / L, an exact solution of the
   Navier-Stokes equations whose amplitude decays as exp(-2 nu k^2 t) (its pressure, rho U^2 / 4
   (cos 2kx + cos 2ky), is 4e-5 Pa here: the flow is linear). The cell [0, L]^2 has no flow
   through its sides, so a free block of fluid L x L x 0.1 m (no walls, no gravity; spacing
   0.01 m, L = 0.16 m, 2,560 particles) holds the vortex; the amplitude is the field's projection
   on the mode over the particles at least 0.03 m (1.5 smoothing radii) from the block's free
   faces, where the kernel's deficit there does not reach. After 0.1 s (6 frames, nu = 2e-3 m^2/s:
   13% of the amplitude gone) the decay gives the fluid's effective viscosity. Measured on
   llvmpipe: 0.93-0.94 of the material's nu, at every block from 0.16 to 0.24 m wide (the discrete
   Laplacian of Mueller's viscosity kernel on the lattice at re = 2 spacings; its continuous
   moment is exactly 1); over the whole block, free faces included, 0.75-0.81. Tested within
   0.85-1.05: a viscosity term off by a factor (a weight, a mass, a density) fails it. */
void test_sph_taylor_green_viscosity(void) {
    const double L = 0.16, k = 3.14159265358979 / L, U = 0.01, nu = 2e-3, depth = 0.1, margin = 0.03;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {(float)L, (float)L, (float)depth}, none[3] = {0.0f, 0.0f, 0.0f};
    gp_world_desc d;
    gp_world* w;
    gp_fluid_material m;
    gp_particle_position* p;
    gp_particle_velocity* v;
    uint32_t n = 0, i, frame;
    double amplitude[2] = {0.0, 0.0}, effective;
    memset(&d, 0, sizeof d);
    d.max_particles = 4000;
    d.grid.cell_size = 0.02f;   /* the smoothing radius: the default 0.1 m cell held the whole fluid (54 s, not 8) */
    if (!(w = fixture_world(&d))) return;
    memset(&m, 0, sizeof m);
    m.spacing = 0.01f;
    m.viscosity = (float)nu;
    CHECK(gp_fluid_material_set(w, 0, &m) == GP_OK && gp_gravity_set(w, none) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &n) == GP_OK && n == 2560);
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    for (i = 0; i < n; ++i) {
        v[i].x = (float)(U * sin(k * p[i].x) * cos(k * p[i].y));
        v[i].y = (float)(-U * cos(k * p[i].x) * sin(k * p[i].y));
        v[i].z = 0.0f;
    }
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
    for (frame = 0; frame <= 6; frame += 6) {
        double along = 0.0, norm = 0.0;
        if (frame) fixture_run(w, 6);
        CHECK(gp_particle_count(w) == n);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, n, v) == GP_OK);
        for (i = 0; i < n; ++i) {
            double fx = sin(k * p[i].x) * cos(k * p[i].y), fy = -cos(k * p[i].x) * sin(k * p[i].y);
            if (p[i].x < margin || p[i].x > L - margin || p[i].y < margin || p[i].y > L - margin || p[i].z < margin ||
                p[i].z > depth - margin)
                continue;
            along += v[i].x * fx + v[i].y * fy;
            norm += fx * fx + fy * fy;
        }
        amplitude[frame / 6] = norm > 0.0 ? along / norm : NAN;
    }
    effective = -log(amplitude[1] / amplitude[0]) / (2.0 * k * k * 0.1);
    CHECKF(fabs(amplitude[0] / U - 1.0) < 0.01, "the vortex was set up with amplitude %.5f m/s, not %.5f", amplitude[0], U);
    CHECKF(effective >= 0.85 * nu && effective <= 1.05 * nu, "Taylor-Green's vortex decays as a viscosity of %.3g m^2/s (%.2f of the material's %.3g)",
           effective, effective / nu, nu);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    Taylor-Green: amplitude %.5f -> %.5f m/s in 0.1 s: nu %.4g, %.3f of the material's\n", amplitude[0], amplitude[1],
                effective, effective / nu);
    free(p); free(v);
    gp_world_destroy(w);
}

/* The classic dam break with water, against the experiment: Martin and Moyce (1952), "An
   experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil. Trans.
   R. Soc. A 244, 312-324, their column of square base n^2 = 2 (height 2a): the surge front
   Z = x / a against T = t sqrt(2 g / a), and the column's remaining height at the back wall
   H / 2a against tau = t sqrt(g / a), read from their figures. Here a = 0.1 m, spacing 0.01 m,
   a tank long enough (0.6 m) that the front runs free over the 0.25 s watched (T to 3.5, tau to
   2.5), compared at every frame inside the data's range by linear interpolation between its
   points. Measured on llvmpipe: the height within 0-16% (it drains slower than the experiment
   late: +12% at tau = 2, +16% at 2.5; at spacing 0.005 +7% and +9%; 0-17.4% since blocks start
   hydrostatic, 2026-11-27, as the experiment's column did; -1% to +16% since blocks start
   squeezed and the carried density relaxes, 2026-11-28), the front 4-18% ahead from
   T = 0.9 on (as far ahead at spacing 0.005: not the resolution's). Computations of this flow
   commonly run ahead of Martin and Moyce's front, which their gate's opening and the floor's
   friction hold back. Tested: both within 20%, and the front never faster than the ideal
   2 sqrt(g H) between frames; 10% for both, the aim, is not reached. The front's lead is a
   constant delay (2026-11-27): from Z = 1.4 to 4 the computed front reaches each of the
   experiment's positions 0.21-0.25 earlier in T (12 ms at their a = 2.25 in), as a late start
   (their gate's opening) would give; the column's slow drain late is the other way, so no shift
   of time is applied here. Nor is it stray particles: the front is whole across the tank's width
   (the median of its 10 lanes within 0.5% of the farthest). Against Koshizuka and Oka's
   experiment (1996, Nucl. Sci. Eng. 123, 421-434: a = 0.146 m, their front as PySPH tabulates
   it) the same front is 5-19% ahead, and against Martin and Moyce's smaller column (a = 1.125
   in) 14% at T = 1.6: every experiment's front is slower than this free-slip floor's. A smooth
   floor's turbulent friction (the log law on the first layer, tried) slowed it by 1% only. */
static double sph_curve(const double (*data)[2], int count, double x) {
    int k;
    for (k = 0; k + 1 < count; ++k)
        if (x >= data[k][0] && x <= data[k + 1][0])
            return data[k][1] + (data[k + 1][1] - data[k][1]) * (x - data[k][0]) / (data[k + 1][0] - data[k][0]);
    return NAN;
}
void test_sph_dam_break_martin_moyce(void) {
    static const double front[][2] = {{0.41, 1.11}, {0.84, 1.22}, {1.19, 1.44}, {1.43, 1.67}, {1.63, 1.89}, {1.83, 2.11},
                                      {1.98, 2.33}, {2.20, 2.56}, {2.32, 2.78}, {2.51, 3.00}, {2.65, 3.22}, {2.83, 3.44},
                                      {2.98, 3.67}, {3.11, 3.89}, {3.33, 4.11}};
    static const double height[][2] = {{0.56, 0.94}, {0.77, 0.89}, {0.93, 0.83}, {1.08, 0.78}, {1.28, 0.72}, {1.46, 0.67},
                                       {1.66, 0.61}, {1.84, 0.56}, {2.00, 0.50}, {2.21, 0.44}, {2.45, 0.39}, {2.70, 0.33},
                                       {3.06, 0.28}, {3.44, 0.22}, {4.20, 0.17}, {5.25, 0.11}, {7.40, 0.06}};
    const float l0 = 0.01f;
    const double a = 0.1, g = 9.81, bound = 2.0 * sqrt(g * 2.0 * a);
    uint32_t n = 0, frame, compared = 0;
    gp_world* w = sph_dam_world(l0, 0.6f, &n);
    gp_particle_position* p;
    gp_particle_velocity* v;
    float* rho;
    double worst_front = 0.0, worst_height = 0.0, fastest_front = 0.0, last = 0.0;
    if (!w) return;
    p = (gp_particle_position*)sph_alloc((size_t)n * sizeof *p);
    v = (gp_particle_velocity*)sph_alloc((size_t)n * sizeof *v);
    rho = (float*)sph_alloc((size_t)n * sizeof *rho);
    last = a;
    for (frame = 1; frame <= 15; ++frame) {
        gp_step_desc step;
        sph_dam_frame f;
        double t = frame / 60.0, z, h;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60;
        CHECK(gp_world_step(w, &step) == GP_OK);
        f = sph_dam_read(w, n, l0, p, v, rho);
        z = sph_curve(front, 15, t * sqrt(2.0 * g / a));
        h = sph_curve(height, 17, t * sqrt(g / a));
        if (z == z) { worst_front = fmax(worst_front, fabs(f.front / a / z - 1.0)); ++compared; }
        if (h == h) worst_height = fmax(worst_height, fabs(f.height / (2.0 * a) / h - 1.0));
        fastest_front = fmax(fastest_front, (f.front - last) * 60.0);
        last = f.front;
        if (getenv("GP_TEST_VERBOSE"))
            fprintf(stderr, "    T %.2f: Z %.3f (experiment %.3f); tau %.2f: H %.3f (experiment %.3f)\n", t * sqrt(2.0 * g / a),
                    f.front / a, z, t * sqrt(g / a), f.height / (2.0 * a), h);
    }
    CHECKF(compared >= 10 && worst_front <= 0.2, "the front is %.1f%% off Martin and Moyce's (%u frames compared)", 100.0 * worst_front, compared);
    CHECKF(worst_height <= 0.2, "the column's height is %.1f%% off Martin and Moyce's", 100.0 * worst_height);
    CHECKF(fastest_front < bound, "the front moved at %.2f m/s between two frames; the ideal front 2 sqrt(g H) moves at %.2f",
           fastest_front, bound);
    free(p); free(v); free(rho);
    gp_world_destroy(w);
}

/* A dam break in a box tank, 2,000 substeps (0.5 s), with either density model: after every
   substep no particle is in the wall by more than 1e-5 m (its distance computed on the CPU); the
   front reaches the far wall; at the end every id is there once, with its own mass bit for bit. */
static void sph_dam_break_run(gp_density_model model) {
    const float centre[3] = {0.2f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.15f, 0.2f, 0.15f};
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 0, &s);
    gp_fluid_material material;
    gp_step_desc step;
    sph_state first, st;
    gp_particle_position* now;
    uint32_t added = 0, k, *slot, lost = 0, wrong_mass = 0, in_wall_steps = 0;
    double worst = INFINITY, front = 0.0;
    int worst_step = -1, i;
    if (!w) return;
    CHECK(gp_fluid_material_get(w, 0, &material) == GP_OK);
    material.density_model = model;
    CHECK(gp_fluid_material_set(w, 0, &material) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 8 * 6);
    first = sph_read(w, 0);
    now = (gp_particle_position*)sph_alloc((size_t)added * 16);
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f;   /* CFL (31.6 + v) * 2.5e-4 / 0.025 = 0.32 + 0.01 v */
    step.substeps = 1;
    for (i = 0; i < 2000; ++i) {
        double least;
        CHECK(gp_world_step(w, &step) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, added, now) == GP_OK);
        least = sph_min_boundary(now, added, &s);
        if (!(least >= -1e-5)) ++in_wall_steps;
        if (!(least >= worst)) { worst = least; worst_step = i; }
        for (k = 0; k < added; ++k) front = now[k].x > front ? now[k].x : front;
    }
    CHECKF(in_wall_steps == 0, "%u of 2000 substeps left a particle in the wall (deepest %.3g m at substep %d)", in_wall_steps,
           worst, worst_step);
    CHECKF(front > 0.3, "the front got to x = %.3g m only: the fluid hardly flowed (0.15 m at the start)", front);
    st = sph_read(w, 0);
    slot = sph_slots_by_id(&st, added);
    for (k = 0; k < added; ++k) {
        if (slot[k] == UINT32_MAX) { ++lost; continue; }
        wrong_mass += memcmp(&st.velocity[slot[k]].mass, &first.velocity[k].mass, 4) != 0;   /* first: slots = ids */
    }
    CHECKF(st.n == added && lost == 0 && wrong_mass == 0, "after 2000 substeps: %u particles of %u, %u ids lost, %u masses changed",
           st.n, added, lost, wrong_mass);
    {
        double mass0 = 0.0, mass1 = 0.0;
        for (k = 0; k < added; ++k) { mass0 += first.velocity[k].mass; mass1 += st.velocity[k].mass; }
        CHECKF(mass0 == mass1, "total mass %.17g, was %.17g", mass1, mass0);
    }
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    dam break (model %d): least boundary distance %.3g m (substep %d), front at %.3g m\n", (int)model, worst,
                worst_step, front);
    free(slot);
    free(now);
    sph_state_free(&first);
    sph_state_free(&st);
    gp_world_destroy(w);
}
void test_sph_dam_break_conserves(void) { sph_dam_break_run(GP_DENSITY_SUMMATION); }
void test_sph_dam_break_continuity(void) { sph_dam_break_run(GP_DENSITY_CONTINUITY); }

/* The continuity model repeats bit for bit: two deterministic worlds, the same dam break, 300
   substeps; every position, velocity and density equal in every bit (the carried densities go
   through the grid's reorder with the particles). */
void test_sph_continuity_repeats(void) {
    const float centre[3] = {0.2f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.15f, 0.2f, 0.15f};
    sph_setup s[2];
    gp_world* w[2];
    sph_state st[2];
    gp_step_desc step;
    uint32_t added = 0, k, differ = 0;
    int i, run;
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f;
    step.substeps = 1;
    for (run = 0; run < 2; ++run) {
        gp_fluid_material material;
        w[run] = sph_tank_world(1000, centre, half, 1, &s[run]);
        if (!w[run]) return;
        CHECK(gp_fluid_material_get(w[run], 0, &material) == GP_OK);
        material.density_model = GP_DENSITY_CONTINUITY;
        CHECK(gp_fluid_material_set(w[run], 0, &material) == GP_OK);
        CHECK(gp_fluid_add_block(w[run], 0, lo, hi, NULL, &added) == GP_OK && added == 6 * 8 * 6);
        for (i = 0; i < 300; ++i) CHECK(gp_world_step(w[run], &step) == GP_OK);
        st[run] = sph_read(w[run], 1);
    }
    for (k = 0; k < st[0].n && st[0].n == st[1].n; ++k)
        differ += memcmp(st[0].position + k, st[1].position + k, 16) != 0 || memcmp(st[0].velocity + k, st[1].velocity + k, 16) != 0 ||
                  memcmp(st[0].density + k, st[1].density + k, 4) != 0;
    CHECKF(st[0].n == added && st[1].n == added && differ == 0, "%u of %u particles differ between two deterministic runs", differ,
           added);
    for (k = 0, differ = 0; k < st[0].n; ++k) differ += fabsf(st[0].density[k] - st[0].density[0]) > 0.1f;
    CHECKF(differ > 0, "every density equals the first (%g): the run did nothing to check", st[0].density[0]);
    for (run = 0; run < 2; ++run) {
        sph_state_free(&st[run]);
        gp_world_destroy(w[run]);
    }
}

/* The mirror test's run: a column of 6 x 8 x 6 spacings centred on x = 0 in a tank symmetric
   about x = 0, made of exactly mirrored float positions (ids 2k and 2k + 1 are mirror images),
   in a deterministic world, with a uniform acceleration push_x along x on top of gravity; after
   400 substeps of 2.5e-4 s, the largest |x_a + x_b| + |y_a - y_b| + |z_a - z_b| over the pairs
   (infinity if a particle is lost), and the widest |x|. */
static double sph_mirror_run(float push_x, double* widest) {
    const float centre[3] = {0.0f, 0.15f, 0.075f}, half[3] = {0.2f, 0.15f, 0.075f};
    const float l0 = 0.025f;
    sph_setup s;
    gp_world* w = sph_tank_world(1000, centre, half, 1, &s);
    gp_particles_desc d;
    gp_step_desc step;
    gp_force push;
    float xyz[3 * 6 * 8 * 6];
    uint32_t i, j, k, n = 0, *slot;
    sph_state st;
    double worst = 0.0;
    *widest = 0.0;
    if (!w) return INFINITY;
    for (k = 0; k < 6; ++k)   /* 3 columns each side of x = 0, 8 layers, the tank's full depth */
        for (j = 0; j < 8; ++j)
            for (i = 0; i < 3; ++i) {
                float x = ((float)i + 0.5f) * l0, y = ((float)j + 0.5f) * l0, z = ((float)k + 0.5f) * l0;
                xyz[3 * n] = x; xyz[3 * n + 1] = y; xyz[3 * n + 2] = z; ++n;
                xyz[3 * n] = -x; xyz[3 * n + 1] = y; xyz[3 * n + 2] = z; ++n;
            }
    memset(&d, 0, sizeof d);
    d.count = n;
    d.positions = xyz;
    d.kind = GP_KIND_FLUID;
    d.mass = (float)s.materials[0].mass;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    memset(&push, 0, sizeof push);
    push.type = GP_FORCE_UNIFORM;
    push.vector[0] = push_x;
    CHECK(gp_forces_set(w, &push, push_x != 0.0f) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 2.5e-4f * 40;
    step.substeps = 40;
    for (i = 0; i < 10; ++i) CHECK(gp_world_step(w, &step) == GP_OK);
    st = sph_read(w, 0);
    slot = sph_slots_by_id(&st, n);
    for (k = 0; k < n; k += 2) {
        const gp_particle_position *a = st.position + slot[k], *b = st.position + slot[k + 1];
        double e = slot[k] == UINT32_MAX || slot[k + 1] == UINT32_MAX ? INFINITY
                 : fabs((double)a->x + b->x) + fabs((double)a->y - b->y) + fabs((double)a->z - b->z);
        worst = e > worst || e != e ? e : worst;
        if (e < INFINITY) *widest = fabs(a->x) > *widest ? fabs(a->x) : *widest;
    }
    free(slot);
    sph_state_free(&st);
    gp_world_destroy(w);
    return worst;
}

/* A mirror-symmetric start stays symmetric: after 400 substeps every pair is mirrored to
   SPH_MIRROR_TOLERANCE. Why that much: mirrored particles sum their neighbours in other orders,
   so float rounding differs between them at every substep; a position is rounded by up to
   6e-8 * 0.2 m = 1.2e-8 m per substep, 5e-6 m over 400 substeps if every rounding pushed the
   same way. The tolerance is twice that; measured on llvmpipe: 2e-8 m at substep 40, growing
   steadily to 1.6e-7 m at 400. The test shows it can see an asymmetry: a uniform push of 1% of g
   along x, a small one-sided error, breaks it by 9e-4 m (0.5 * 0.098 m/s^2 * (0.1 s)^2 = 5e-4 m
   and more). A real one-sided bug (a neighbour missed on one side, a wall normal or table wrong
   on one side) moves particles by much of l0 = 0.025 m. */
#define SPH_MIRROR_TOLERANCE 1e-5
void test_sph_mirror_symmetry(void) {
    double widest, pushed_widest;
    double worst = sph_mirror_run(0.0f, &widest), pushed = sph_mirror_run(0.0981f, &pushed_widest);
    CHECKF(worst <= SPH_MIRROR_TOLERANCE, "mirror pairs broke symmetry after 400 substeps by up to %.3g m (tolerance %g)", worst,
           SPH_MIRROR_TOLERANCE);
    CHECKF(widest > 0.08, "the column did not spread: widest |x| %.3g m, 0.0625 at the start", widest);   /* it moved */
    CHECKF(pushed > SPH_MIRROR_TOLERANCE && pushed < INFINITY, "a push of 1%% of g along x went unseen: asymmetry %.3g m", pushed);
    if (getenv("GP_TEST_VERBOSE"))
        fprintf(stderr, "    mirror: largest asymmetry %.3g m (pushed %.3g m), widest |x| %.3g m\n", worst, pushed, widest);
}
