/* test_sph.h: what the SPH fluid's test files share (tests/test_sph*.c): a world's store read
   back, its fluid setup mirrored for the double-precision reference (tests/cpu_sph.c), tanks, and
   every test's function, listed in tests/test_sph.c in the order they run. */
#ifndef GP_TEST_SPH_H
#define GP_TEST_SPH_H
#include "fixture.h"
#include "cpu_sph.h"
#include <math.h>

#define SPH_CELL 0.1f

/* ---- the store read back -------------------------------------------------------------------- */

typedef struct sph_state {
    uint32_t n;
    gp_particle_position* position;
    gp_particle_velocity* velocity;
    gp_particle_info* info;
    float *density, *pressure;          /* NULL unless read with computed */
    gp_particle_position* acceleration;
} sph_state;

/* calloc with 16 bytes to spare (so that a count of 0 still allocates). */
void* sph_alloc(size_t bytes);
/* Every live slot; with computed, also what the last fluid substep computed. */
sph_state sph_read(gp_world* w, int computed);
void sph_state_free(sph_state* s);
/* The slot of each id (ids < n in these tests); UINT32_MAX for a missing id. Free the result. */
uint32_t* sph_slots_by_id(const sph_state* s, uint32_t ids);

/* ---- a world's fluid setup, mirrored on the CPU --------------------------------------------- */

typedef struct sph_setup {
    gp_collider_desc colliders[4];
    uint32_t collider_count;
    gp_force forces[2];
    uint32_t force_count;
    float gravity[3];
    cpu_sph_material materials[GP_MAX_FLUID_MATERIALS];   /* filled by sph_apply from the world's */
} sph_setup;

/* Gives the world the setup's colliders, forces and gravity (a zero gravity: the default) and
   reads its materials, as resolved, into the setup. */
void sph_apply(gp_world* w, sph_setup* s);
/* A box collider: centre, half extents, and whether the fluid is kept inside it (a tank). */
gp_collider_desc sph_box(float cx, float cy, float cz, float hx, float hy, float hz, int inside);
/* The positions' own density of a read-back state: the double-precision reference (tests/cpu_sph.c)
   with material fm's summation model on st's positions and the given colliders. Free the result. */
cpu_sph_particle* sph_positions_density(const sph_state* st, const gp_fluid_material* fm, const gp_collider_desc* colliders,
                                        uint32_t collider_count);

/* ---- tanks ------------------------------------------------------------------------------------ */

/* A world with a box tank of the given centre and half extents, cells of 0.05 m (spacing 0.025,
   re 0.05); s receives the setup. */
gp_world* sph_tank_world(uint32_t capacity, const float centre[3], const float half[3], int deterministic, sph_setup* s);
/* The smallest boundary distance of count positions, computed on the CPU (analytically); NaN
   if any is NaN. */
double sph_min_boundary(const gp_particle_position* p, uint32_t count, const sph_setup* s);
/* A block added at the rest density: without gravity at the moment of the add (under gravity a
   block starts hydrostatic, sph_block_starts_at_rest), the library's default gravity after. */
void sph_add_block_at_rest_density(gp_world* w, const float lo[3], const float hi[3], uint32_t* added);

/* ---- the tests, by file ------------------------------------------------------------------------ */

/* tests/test_sph_reference.c */
void test_sph_reference_self_check(void);
void test_sph_artificial_viscosity(void);
void test_sph_reference_threshold_set_aside(void);
void test_sph_coupling_matches_reference(void);
void test_sph_compute_matches_reference(void);
void test_sph_empty_world(void);
void test_sph_step_matches_reference(void);
void test_sph_boundary_distance_matches_reference(void);
/* tests/test_sph_input.c */
void test_sph_presets(void);
void test_sph_rejects_bad_input(void);
void test_sph_full_store(void);
void test_sph_nan_particle_is_kept(void);
void test_sph_lattice_counts(void);
/* tests/test_sph_flow.c */
void test_sph_dam_break_energy(void);
void test_sph_dam_break_keeps_volume(void);
void test_sph_pair_on_top_parts_gently(void);
void test_sph_water_drop(void);
void test_sph_taylor_green_viscosity(void);
void test_sph_dam_break_martin_moyce(void);
void test_sph_dam_break_conserves(void);
void test_sph_dam_break_continuity(void);
void test_sph_continuity_repeats(void);
void test_sph_mirror_symmetry(void);
/* tests/test_sph_rest.c */
void test_sph_tank_rest_density(void);
void test_sph_hydrostatic_water(void);
void test_sph_block_starts_at_rest(void);
void test_sph_default_stiffness_follows_depth(void);
void test_sph_hydrostatic_column(void);
void test_sph_two_fluids_at_rest(void);
void test_sph_hydrostatic_summation(void);
/* tests/test_sph_substeps.c */
void test_sph_substeps_two_steps_behind(void);
void test_sph_step_owes_at_most_four_steps(void);
void test_sph_diffusion_substeps(void);
void test_sph_viscous_substeps(void);
#endif
