/* test_sph.c: the SPH fluid's tests (paper 001), in tests/test_sph_*.c by topic, run in the order
   of the list below; here what they share (declared in tests/test_sph.h):
     - tests/test_sph_reference.c: gp_fluid_compute and one substep against tests/cpu_sph.c, a
       double-precision reference written from the formulas alone, which checks itself first;
     - tests/test_sph_input.c: the presets, bad input refused, a full store, a NaN kept and
       reported, the lattice's counts;
     - tests/test_sph_flow.c: the fluid in motion against physics and experiment (dam breaks, a
       drop, a decaying vortex, mirror symmetry, conservation, repeatability);
     - tests/test_sph_rest.c: the fluid at rest (rest density in a tank, hydrostatic columns,
       two fluids layered, the default stiffness);
     - tests/test_sph_substeps.c: the step's clock (substeps planned from statistics two steps late,
       the limits that set them). */
#include "test_sph.h"

/* ---- the store read back -------------------------------------------------------------------- */

void* sph_alloc(size_t bytes) { return calloc(1, bytes + 16); }

sph_state sph_read(gp_world* w, int computed) {
    sph_state s;
    memset(&s, 0, sizeof s);
    s.n = gp_particle_count(w);
    s.position = (gp_particle_position*)sph_alloc((size_t)s.n * 16);
    s.velocity = (gp_particle_velocity*)sph_alloc((size_t)s.n * 16);
    s.info = (gp_particle_info*)sph_alloc((size_t)s.n * 16);
    if (s.n == 0) return s;
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, s.n, s.position) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, s.n, s.velocity) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, s.n, s.info) == GP_OK);
    if (computed) {
        s.density = (float*)sph_alloc((size_t)s.n * 4);
        s.pressure = (float*)sph_alloc((size_t)s.n * 4);
        s.acceleration = (gp_particle_position*)sph_alloc((size_t)s.n * 16);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_DENSITY, 0, s.n, s.density) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_PRESSURE, 0, s.n, s.pressure) == GP_OK);
        CHECK(gp_particles_read(w, GP_ATTRIBUTE_ACCELERATION, 0, s.n, s.acceleration) == GP_OK);
    }
    return s;
}

void sph_state_free(sph_state* s) {
    free(s->position); free(s->velocity); free(s->info); free(s->density); free(s->pressure); free(s->acceleration);
}

uint32_t* sph_slots_by_id(const sph_state* s, uint32_t ids) {
    uint32_t* slot = (uint32_t*)sph_alloc((size_t)ids * 4);
    uint32_t k;
    memset(slot, 0xff, (size_t)ids * 4);
    for (k = 0; k < s->n; ++k)
        if (s->info[k].id < ids) slot[s->info[k].id] = k;
    return slot;
}

/* ---- a world's fluid setup, mirrored on the CPU --------------------------------------------- */

void sph_apply(gp_world* w, sph_setup* s) {
    uint32_t k;
    gp_collider handle;
    for (k = 0; k < s->collider_count; ++k) CHECK(gp_collider_add(w, s->colliders + k, &handle) == GP_OK && handle.id != 0);
    CHECK(gp_forces_set(w, s->forces, s->force_count) == GP_OK);
    if (s->gravity[0] == 0.0f && s->gravity[1] == 0.0f && s->gravity[2] == 0.0f) s->gravity[1] = -9.81f;
    CHECK(gp_gravity_set(w, s->gravity) == GP_OK);
    for (k = 0; k < GP_MAX_FLUID_MATERIALS; ++k) {
        gp_fluid_material m;
        CHECK(gp_fluid_material_get(w, k, &m) == GP_OK);
        s->materials[k] = cpu_sph_material_make(&m);
        CHECKF(fabs(m.mass / s->materials[k].mass - 1.0) < 1e-6, "phase %u: the world's mass %.9g, the reference's %.9g", k,
               m.mass, s->materials[k].mass);
    }
}

gp_collider_desc sph_box(float cx, float cy, float cz, float hx, float hy, float hz, int inside) {
    gp_collider_desc c;
    memset(&c, 0, sizeof c);
    c.shape = GP_SHAPE_BOX;
    c.center[0] = cx; c.center[1] = cy; c.center[2] = cz;
    c.half_extents[0] = hx; c.half_extents[1] = hy; c.half_extents[2] = hz;
    c.inside = inside != 0;
    return c;
}

cpu_sph_particle* sph_positions_density(const sph_state* st, const gp_fluid_material* fm, const gp_collider_desc* colliders,
                                        uint32_t collider_count) {
    gp_fluid_material summation = *fm;
    cpu_sph_material m;
    cpu_sph_scene scene;
    cpu_sph_particle* out = (cpu_sph_particle*)sph_alloc((size_t)st->n * sizeof *out);
    summation.density_model = GP_DENSITY_SUMMATION;
    m = cpu_sph_material_make(&summation);
    memset(&scene, 0, sizeof scene);
    scene.count = st->n;
    scene.position = st->position;
    scene.velocity = st->velocity;
    scene.info = st->info;
    scene.materials = &m;
    scene.material_count = 1;
    scene.colliders = colliders;
    scene.collider_count = collider_count;
    cpu_sph_compute(&scene, out);
    return out;
}

/* ---- tanks ------------------------------------------------------------------------------------ */

gp_world* sph_tank_world(uint32_t capacity, const float centre[3], const float half[3], int deterministic, sph_setup* s) {
    gp_world* w = fixture_grid_world(capacity, 0.05f, deterministic);
    memset(s, 0, sizeof *s);
    s->colliders[0] = sph_box(centre[0], centre[1], centre[2], half[0], half[1], half[2], 1);
    s->collider_count = 1;
    if (w) sph_apply(w, s);
    return w;
}

double sph_min_boundary(const gp_particle_position* p, uint32_t count, const sph_setup* s) {
    double least = INFINITY;
    uint32_t k;
    for (k = 0; k < count; ++k) {
        double x[3] = {p[k].x, p[k].y, p[k].z}, n[3];
        double d = cpu_sph_boundary(s->colliders, s->collider_count, x, n);
        if (!(d >= least)) least = d;
    }
    return least;
}

void sph_add_block_at_rest_density(gp_world* w, const float lo[3], const float hi[3], uint32_t* added) {
    const float none[3] = {0.0f, 0.0f, 0.0f}, down[3] = {0.0f, -9.81f, 0.0f};
    CHECK(gp_gravity_set(w, none) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, added) == GP_OK);
    CHECK(gp_gravity_set(w, down) == GP_OK);
}

const gp_test_case sph_tests[] = {
    {"sph_reference_self_check", test_sph_reference_self_check},
    {"sph_compute_matches_reference", test_sph_compute_matches_reference},
    {"sph_empty_world", test_sph_empty_world},
    {"sph_artificial_viscosity", test_sph_artificial_viscosity},
    {"sph_reference_threshold_set_aside", test_sph_reference_threshold_set_aside},
    {"sph_coupling_matches_reference", test_sph_coupling_matches_reference},
    {"sph_presets", test_sph_presets},
    {"sph_dam_break_energy", test_sph_dam_break_energy},
    {"sph_dam_break_martin_moyce", test_sph_dam_break_martin_moyce},
    {"sph_block_starts_at_rest", test_sph_block_starts_at_rest},
    {"sph_default_stiffness_follows_depth", test_sph_default_stiffness_follows_depth},
    {"sph_water_drop", test_sph_water_drop},
    {"sph_pair_on_top_parts_gently", test_sph_pair_on_top_parts_gently},
    {"sph_dam_break_keeps_volume", test_sph_dam_break_keeps_volume},
    {"sph_taylor_green_viscosity", test_sph_taylor_green_viscosity},
    {"sph_step_matches_reference", test_sph_step_matches_reference},
    {"sph_boundary_distance_matches_reference", test_sph_boundary_distance_matches_reference},
    {"sph_rejects_bad_input", test_sph_rejects_bad_input},
    {"sph_full_store", test_sph_full_store},
    {"sph_nan_particle_is_kept", test_sph_nan_particle_is_kept},
    {"sph_dam_break_conserves", test_sph_dam_break_conserves},
    {"sph_mirror_symmetry", test_sph_mirror_symmetry},
    {"sph_tank_rest_density", test_sph_tank_rest_density},
    {"sph_dam_break_continuity", test_sph_dam_break_continuity},
    {"sph_continuity_repeats", test_sph_continuity_repeats},
    {"sph_substeps_two_steps_behind", test_sph_substeps_two_steps_behind},
    {"sph_step_owes_at_most_four_steps", test_sph_step_owes_at_most_four_steps},
    {"sph_diffusion_substeps", test_sph_diffusion_substeps},
    {"sph_hydrostatic_column", test_sph_hydrostatic_column},
    {"sph_two_fluids_at_rest", test_sph_two_fluids_at_rest},
    {"sph_hydrostatic_water", test_sph_hydrostatic_water},
    {"sph_hydrostatic_summation", test_sph_hydrostatic_summation},
    {"sph_viscous_substeps", test_sph_viscous_substeps},
    {"sph_lattice_counts", test_sph_lattice_counts},
};
const int sph_test_count = (int)(sizeof sph_tests / sizeof sph_tests[0]);
