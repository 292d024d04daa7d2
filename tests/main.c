/* main.c: the GPU test program. Opens a headless OpenGL 4.3 core context through EGL, loads
   glad for the tests' own GL calls, and holds the library's implementation, compiled here after
   glad's gl.h on purpose (it must not clash with a loader). Arguments filter tests by name. */
#define _POSIX_C_SOURCE 199309L   /* clock_gettime: each test's wall-clock time (gp_test.h) */
#include <glad/gl.h>
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#define GP_TEST_MAIN
#include "fixture.h"
#include "gp_egl.h"
#include <stdio.h>

char fixture_log[8192];
int fixture_log_count;
gp_log_level fixture_log_level;
gp_log_item fixture_log_item;
gp_egl fixture_egl;
int fixture_overrun_expected;

/* Also fails the running test when the library reports a pass that wrote past a buffer's end
   (the tests build it with GP_BUFFER_GUARD: every world is checked at gp_particles_check, so at
   every fixture_run, and when it is destroyed), unless the test writes one on purpose. */
void fixture_logger(gp_log_level level, gp_log_item item, const char* message, void* user_data) {
    (void)user_data;
    if (item == GP_LOG_ITEM_BUFFER_OVERRUN && !fixture_overrun_expected) CHECKF(0, "%s", message);
    if (level == GP_LOG_INFO) return;
    snprintf(fixture_log, sizeof fixture_log, "%s", message);
    fixture_log_level = level;
    fixture_log_item = item;
    ++fixture_log_count;
    if (getenv("GP_TEST_VERBOSE")) fprintf(stderr, "    [log] %s\n", message);
}

gp_world* fixture_grid_world(uint32_t capacity, float cell, int deterministic) {
    gp_world_desc d;
    memset(&d, 0, sizeof d);
    d.max_particles = capacity;
    d.grid.cell_size = cell;
    d.any_order = deterministic == 0;
    return fixture_world(&d);
}

gp_world_desc fixture_desc(const gp_world_desc* desc) {
    gp_world_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (!d.get_proc_address) d.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    d.logger.func = fixture_logger;
    return d;
}

gp_world* fixture_world(const gp_world_desc* desc) {
    gp_world_desc d = fixture_desc(desc);
    gp_world* w = NULL;
    gp_result r = gp_world_create(&d, &w);
    CHECKF(r == GP_OK, "gp_world_create: %s: %s", gp_result_string(r), fixture_log);
    return w;
}

void fixture_run(gp_world* w, int frames) {
    int frame;
    for (frame = 0; frame < frames; ++frame) {
        gp_step_desc step;
        memset(&step, 0, sizeof step);
        step.dt = 1.0f / 60;
        CHECK(gp_world_step(w, &step) == GP_OK);
    }
    {   /* and the store holds every particle once (a driver's fault would show here on a GPU) */
        uint32_t misplaced = 0;
        CHECK(gp_particles_check(w, &misplaced) == GP_OK);
        CHECKF(misplaced == 0, "%u particles misplaced in the store after %d frames", misplaced, frames);
    }
}

gp_body fixture_box_body(gp_world* w, uint32_t phase, const float half[3], const float at[3], const float velocity[3],
                         const float spin[3], gp_body_shape_info* info) {
    gp_shape_desc shape;
    gp_body_shape handle;
    gp_body_desc body;
    gp_body out = {0};
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.phase = phase;
    memcpy(shape.half_extents, half, sizeof shape.half_extents);
    CHECK(gp_body_shape_create(w, &shape, &handle) == GP_OK);
    if (info) CHECK(gp_body_shape_info_get(w, handle, info) == GP_OK);
    memset(&body, 0, sizeof body);
    body.shape = handle;
    memcpy(body.position, at, sizeof body.position);
    if (velocity) memcpy(body.velocity, velocity, sizeof body.velocity);
    if (spin) memcpy(body.angular_velocity, spin, sizeof body.angular_velocity);
    CHECK(gp_bodies_add(w, &body, 1, &out) == GP_OK);
    return out;
}

double fixture_compression_energy(const gp_fluid_material* m, double mass, double density) {
    double r = density / m->rest_density;
    return r > 1.0 ? mass * m->stiffness * (log(r) + 1.0 / r - 1.0) : 0.0;
}

uint64_t fixture_random(uint64_t* state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

uint32_t* fixture_words(fixture_pattern pattern, uint32_t count, uint32_t range, uint64_t seed) {
    uint32_t* words = (uint32_t*)malloc((size_t)count * 4 + 4);
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
    uint32_t i, v = (uint32_t)fixture_random(&state) % (range ? range : 0xffffffffu);
    for (i = 0; i < count; ++i) {
        uint32_t r = (uint32_t)(fixture_random(&state) >> 32);
        switch (pattern) {
        case PATTERN_RANDOM: words[i] = range ? r % range : r; break;
        case PATTERN_SORTED: words[i] = range ? (uint32_t)((uint64_t)i * range / (count + 1)) : i * 3u; break;
        case PATTERN_REVERSED: words[i] = range ? (uint32_t)((uint64_t)(count - 1 - i) * range / (count + 1)) : (count - i) * 3u; break;
        default: words[i] = v; break;
        }
    }
    return words;
}

uint32_t fixture_buffer(gp_world* w, const uint32_t* data, uint32_t count) {
    uint32_t buffer = 0;
    uint32_t* zeros = data ? NULL : (uint32_t*)calloc((size_t)count + 1, 4);
    gp_result r = gp_buffer_create(w, (size_t)count * 4, data ? (const void*)data : (const void*)zeros, &buffer);
    CHECKF(r == GP_OK, "gp_buffer_create(%u words): %s", count, gp_result_string(r));
    free(zeros);
    return buffer;
}

uint32_t* fixture_read(gp_world* w, uint32_t buffer, uint32_t count) {
    uint32_t* words = (uint32_t*)malloc((size_t)count * 4 + 4);
    gp_result r = gp_buffer_read(w, buffer, 0, (size_t)count * 4, words);
    CHECKF(r == GP_OK, "gp_buffer_read: %s", gp_result_string(r));
    return words;
}

int fixture_logged(const char* text) {
    if (getenv("GP_TEST_ITEM_MAP")) {   /* maintenance: which item each substring check saw */
        FILE* f = fopen(getenv("GP_TEST_ITEM_MAP"), "a");
        if (f) { fprintf(f, "%s\t%s\t%d\n", text, gp_log_item_string(fixture_log_item), strstr(fixture_log, text) != NULL); fclose(f); }
    }
    return strstr(fixture_log, text) != NULL;
}
int fixture_logged_item(gp_log_item item) { return fixture_log_item == item; }

int main(int argc, char** argv) {
    int passed = 0, failed = 0;
    if (gp_egl_open(&fixture_egl, 4, 3) || !gladLoadGL((GLADloadfunc)eglGetProcAddress)) {
        printf("no OpenGL 4.3 context: nothing could run\n0 passed, 1 failed\n");
        return 1;
    }
    printf("OpenGL %s, %s\n", (const char*)glGetString(GL_VERSION), (const char*)glGetString(GL_RENDERER));
    gp_test_main(world_tests, world_test_count, argc, argv, &passed, &failed);
    gp_test_main(driver_tests, driver_test_count, argc, argv, &passed, &failed);
    /* the suites with the longest tests first, so that two runs sharing the tests (tools/run_tests.sh)
       end together: friction_heap_of_default_sand, 90 s on llvmpipe, claimed last kept one waiting */
    gp_test_main(friction_tests, friction_test_count, argc, argv, &passed, &failed);
    gp_test_main(collapse_tests, collapse_test_count, argc, argv, &passed, &failed);
    gp_test_main(coupling_tests, coupling_test_count, argc, argv, &passed, &failed);
    gp_test_main(primitive_tests, primitive_test_count, argc, argv, &passed, &failed);
    gp_test_main(grid_tests, grid_test_count, argc, argv, &passed, &failed);
    gp_test_main(sph_tests, sph_test_count, argc, argv, &passed, &failed);
    gp_test_main(sph_mesh_tests, sph_mesh_test_count, argc, argv, &passed, &failed);
    gp_test_main(dem_tests, dem_test_count, argc, argv, &passed, &failed);
    gp_test_main(dem_reference_tests, dem_reference_test_count, argc, argv, &passed, &failed);
    gp_test_main(shape_tests, shape_test_count, argc, argv, &passed, &failed);
    gp_test_main(heightfield_tests, heightfield_test_count, argc, argv, &passed, &failed);
    gp_test_main(effects_tests, effects_test_count, argc, argv, &passed, &failed);
    gp_test_main(store_tests, store_test_count, argc, argv, &passed, &failed);
    gp_test_main(emitter_tests, emitter_test_count, argc, argv, &passed, &failed);
    gp_test_main(layout_tests, layout_test_count, argc, argv, &passed, &failed);
    gp_test_main(plan_tests, plan_test_count, argc, argv, &passed, &failed);
    gp_egl_close(&fixture_egl);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
