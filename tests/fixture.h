/* fixture.h: what every GPU test shares: the context, a world with a log catcher, a seeded
   random generator and the input patterns every kernel is checked on (random, sorted, reversed,
   all equal). */
#ifndef GP_FIXTURE_H
#define GP_FIXTURE_H
#include <glad/gl.h>
#include "gpuparticle.h"
#include "gp_test.h"
#include "cpu_reference.h"
#include <stdlib.h>
#include <string.h>

/* The lengths every primitive is checked at. */
static const uint32_t fixture_lengths[] = {0, 1, 2, 255, 256, 257, 1000, 65537, 1048576};
#define FIXTURE_LENGTHS (sizeof fixture_lengths / sizeof fixture_lengths[0])

typedef enum fixture_pattern { PATTERN_RANDOM, PATTERN_SORTED, PATTERN_REVERSED, PATTERN_EQUAL, PATTERN_COUNT } fixture_pattern;
static const char* const fixture_pattern_names[PATTERN_COUNT] = {"random", "sorted", "reversed", "all-equal"};

/* The last message the library logged, and how many it logged. */
extern char fixture_log[8192];
extern int fixture_log_count;
extern gp_log_level fixture_log_level;
extern gp_log_item fixture_log_item;
extern int fixture_overrun_expected;   /* a test that writes past a buffer's end on purpose sets it */
void fixture_logger(gp_log_level level, gp_log_item item, const char* message, void* user_data);

/* desc (may be NULL: all defaults) with the test context's loader where it names none, and the
   log catcher. */
gp_world_desc fixture_desc(const gp_world_desc* desc);
/* A world in the test context: gp_world_create of fixture_desc(desc), which must succeed. */
gp_world* fixture_world(const gp_world_desc* desc);
/* fixture_world with room for capacity particles, a hashed grid of cells `cell` metres wide, and
   deterministic order when asked. */
gp_world* fixture_grid_world(uint32_t capacity, float cell, int deterministic);
/* Steps the world `frames` frames of 1/60 s with the default step (automatic substeps), each
   checked, then audits the store (gp_particles_check: no particle misplaced). */
void fixture_run(gp_world* w, int frames);
/* A box body of half extents `half` made of phase `phase`'s grains, its centre of mass at `at`,
   moving at `velocity` and spinning at `spin` (either NULL: at rest), each call checked; `info`
   (NULL: not wanted) gets its shape's info. Returns its handle. */
gp_body fixture_box_body(gp_world* w, uint32_t phase, const float half[3], const float at[3], const float velocity[3],
                         const float spin[3], gp_body_shape_info* info);
/* The energy a fluid particle of mass `mass` stores compressed to `density` (J): the work of the
   clamped equation of state p = k (rho - rho0), p >= 0, from rest, m k (ln r + 1 / r - 1) with
   r = rho / rho0 above the rest density, 0 below (no tension). The energy tests add it to the
   kinetic and potential energy. */
double fixture_compression_energy(const gp_fluid_material* m, double mass, double density);
/* xorshift64*: the same numbers on every machine for a given seed. */
uint64_t fixture_random(uint64_t* state);
/* count words following pattern: random in [0, range) (range 0: any), sorted, reversed, equal. */
uint32_t* fixture_words(fixture_pattern pattern, uint32_t count, uint32_t range, uint64_t seed);
/* A buffer holding count words (NULL data: zeros). */
uint32_t fixture_buffer(gp_world* w, const uint32_t* data, uint32_t count);
uint32_t* fixture_read(gp_world* w, uint32_t buffer, uint32_t count);
/* Whether the last log message contains text (for what an id cannot say: a driver's log, a line). */
int fixture_logged(const char* text);
/* Whether the last log message carries item: how the tests match what the library said. */
int fixture_logged_item(gp_log_item item);
/* What the library says on stderr between the two (where no logger of yours is there to call: a
   NULL world, a call without one); begin returns 0 when stderr could not be caught (tests/capture.c). */
int fixture_stderr_begin(void);
size_t fixture_stderr_end(char* text, size_t size);

extern const gp_test_case driver_tests[];
extern const int driver_test_count;
extern const gp_test_case primitive_tests[];
extern const int primitive_test_count;
extern const gp_test_case grid_tests[];
extern const int grid_test_count;
extern const gp_test_case sph_tests[];
extern const gp_test_case dem_tests[];
extern const int dem_test_count;
extern const gp_test_case shape_tests[];
extern const int shape_test_count;
extern const gp_test_case dem_reference_tests[];
extern const int dem_reference_test_count;
extern const gp_test_case coupling_tests[];
extern const int coupling_test_count;
extern const gp_test_case sph_mesh_tests[];
extern const int sph_mesh_test_count;
extern const int sph_test_count;
extern const gp_test_case world_tests[];
extern const int world_test_count;
extern const gp_test_case effects_tests[];
extern const int effects_test_count;
extern const gp_test_case heightfield_tests[];
extern const int heightfield_test_count;
extern const gp_test_case store_tests[];
extern const int store_test_count;
extern const gp_test_case emitter_tests[];
extern const int emitter_test_count;
extern const gp_test_case layout_tests[];
extern const int layout_test_count;
extern const gp_test_case plan_tests[];
extern const int plan_test_count;
extern const gp_test_case collapse_tests[];
extern const int collapse_test_count;
extern const gp_test_case friction_tests[];
extern const int friction_test_count;
#endif
