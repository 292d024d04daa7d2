/* test_plan.c: the binding plan (gpuparticle.h, section >>shaders) against what the driver
   reports for every program: each active storage block sits at a binding whose role in the
   program's row lists that block, no binding holds two roles, every role of a row has its block
   in the program (a driver may drop a block the code never reads; Mesa keeps them all), and
   every program fits GL 4.3's guaranteed minimums (8 storage blocks per compute shader, 16 KiB
   per uniform block, 12 uniform blocks; no storage block in the draw helper's vertex and fragment
   stages, whose minimum is 0). The plan is private, so this file holds its own static copy of the
   implementation (GP_STATIC), as test_layout.c does. */
#include <glad/gl.h>
#define GP_STATIC
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "fixture.h"
#include <stdio.h>
#include <math.h>
#include <string.h>

/* True when the space-separated list holds name. */
static int plan_lists(const char* list, const char* name) {
    size_t n = strlen(name);
    const char* p = list;
    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return 1;
        p += n;
    }
    return 0;
}

/* Checks one linked program against its row (NULL: no storage block allowed). */
static void plan_check_program(GLuint program, const char* name, const gp__binding_plan* row) {
    GLint blocks = 0, uniforms = 0, k;
    int used[GP__MAX_BINDINGS] = {0}, b;
    const GLenum binding_prop = GL_BUFFER_BINDING, size_prop = GL_BUFFER_DATA_SIZE;
    glGetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    CHECKF(blocks <= 8, "%s: %d storage blocks, GL 4.3 guarantees 8", name, blocks);
    CHECKF(row || blocks == 0, "%s: %d storage blocks in a draw program (GL 4.3 guarantees none there)", name, blocks);
    for (k = 0; row && k < blocks; ++k) {
        char block[128];
        GLint binding = -1;
        glGetProgramResourceName(program, GL_SHADER_STORAGE_BLOCK, (GLuint)k, sizeof block, NULL, block);
        glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, (GLuint)k, 1, &binding_prop, 1, NULL, &binding);
        if (binding < 0 || binding >= GP__MAX_BINDINGS) { CHECKF(0, "%s: %s at binding %d", name, block, binding); continue; }
        CHECKF(row->roles[binding] != 0 && plan_lists(gp__role_blocks[row->roles[binding]], block),
               "%s: block %s at binding %d, where the plan has role %s", name, block, binding, gp__role_names[row->roles[binding]]);
        used[binding] = 1;
    }
    for (b = 0; row && b < GP__MAX_BINDINGS; ++b)
        CHECKF(!row->roles[b] || used[b], "%s: the plan binds %s at %d, which the program does not declare", name,
               gp__role_names[row->roles[b]], b);
    glGetProgramInterfaceiv(program, GL_UNIFORM_BLOCK, GL_ACTIVE_RESOURCES, &uniforms);
    CHECKF(uniforms <= 12, "%s: %d uniform blocks", name, uniforms);
    for (k = 0; k < uniforms; ++k) {
        GLint size = 0;
        glGetProgramResourceiv(program, GL_UNIFORM_BLOCK, (GLuint)k, 1, &size_prop, 1, NULL, &size);
        CHECKF(size > 0 && size <= 16384, "%s: a uniform block of %d bytes, GL 4.3 guarantees 16,384", name, size);
    }
}

static void test_plan_matches_every_program(void) {
    gp_world* w = fixture_world(NULL);
    GLuint draw[2] = {0, 0};
    int p, q, seen;
    if (!w) return;
    for (p = 0; p < GP__PROGRAM_COUNT; ++p) {   /* every program has exactly one row */
        for (q = 0, seen = 0; q < GP__PROGRAM_COUNT; ++q) seen += gp__binding_plans[q].program == (gp__program_id)p;
        CHECKF(seen == 1, "%s: %d rows in the binding plan", gp__shader_sources[p].name, seen);
    }
    for (p = 0; p < GP__PROGRAM_COUNT; ++p)
        plan_check_program(w->programs[p], gp__shader_sources[p].name, gp__plan_of((gp__program_id)p));
    CHECK(gp__link(w, GP__SHADER_DRAW_PARTICLES_VERT, GP__SHADER_DRAW_PARTICLES_FRAG, &draw[0]) == GP_OK);
    CHECK(gp__link(w, GP__SHADER_DRAW_BODIES_VERT, GP__SHADER_DRAW_BODIES_FRAG, &draw[1]) == GP_OK);
    for (p = 0; p < 2; ++p)
        if (draw[p]) { plan_check_program(draw[p], p ? "draw_bodies" : "draw_particles", NULL); glDeleteProgram(draw[p]); }
    /* the world queried the limits at creation; the plan needs at most eight blocks */
    CHECK(gp__plan_blocks() <= 8 && gp__plan_blocks() > 0);
    gp_world_destroy(w);
}

/* A driver's compile log, as Mesa, NVIDIA and AMD/Intel write it, comes out naming the embedded
   file and its own line: line L of source F is numbered (F + 1) * 10000 + L, and a line below
   10,000 (the #version line) is the stage file's. The severity word is kept; other lines pass. */
static void test_plan_shader_log_names_files(void) {
    char out[2048], expect[256];
    const unsigned common = GP__FILE_GP_COMMON_GLSL;
    char log[512];
    snprintf(log, sizeof log, "0:%u(5): error: Mesa's\n%u(%u) : error C0000: NVIDIA's\nERROR: 0:%u: 'x' : AMD's\n"
             "WARNING: 0:%u: a warning\n0:1(10): error: the version line\nno number here\n0:%u(1): error: the prelude",
             (common + 1) * 10000 + 13, common, (common + 1) * 10000 + 7, (common + 1) * 10000 + 2, (common + 1) * 10000 + 3,
             (GP__SOURCE_PRELUDE + 1) * 10000 + 1);
    gp__shader_log(log, GP__PROGRAM_SPH_FORCE, out, sizeof out);
    snprintf(expect, sizeof expect, "shaders_embedded/gp_common.glsl:13: error: Mesa's\n");
    CHECKF(strstr(out, expect) != NULL, "no %s in:\n%s", expect, out);
    CHECKF(strstr(out, "shaders_embedded/gp_common.glsl:7: error C0000: NVIDIA's\n") != NULL, "NVIDIA's line in:\n%s", out);
    CHECKF(strstr(out, "ERROR: shaders_embedded/gp_common.glsl:2: 'x' : AMD's\n") != NULL, "AMD's line in:\n%s", out);
    CHECKF(strstr(out, "WARNING: shaders_embedded/gp_common.glsl:3: a warning\n") != NULL, "the warning in:\n%s", out);
    CHECKF(strstr(out, "shaders_embedded/sph_force.comp:1: error: the version line\n") != NULL, "the version line in:\n%s", out);
    CHECKF(strstr(out, "no number here\n") != NULL, "the plain line in:\n%s", out);
    CHECKF(strstr(out, "the shader_prelude of gp_world_desc:1: error: the prelude") != NULL, "the prelude in:\n%s", out);
    gp__shader_log(log, GP__PROGRAM_SPH_FORCE, out, 40);   /* a short buffer: cut, terminated */
    CHECK(strlen(out) < 40);
}

/* The draw helpers' default camera (a zero view and projection) is finite and frames the scene:
   an empty world, a far particle (1e20 m, whose box's diagonal overflows a float), a plane alone,
   a viewport of aspect 0 (none bound). The scene box's centre lands at the middle of the screen. */
static void plan_camera_finite(gp_world* w, float aspect, const char* what) {
    float view[16], projection[16], clip[4] = {0, 0, 0, 0}, lo[3], hi[3], c[4];
    int k, r;
    gp__frame_scene(w, aspect, view, projection);
    for (k = 0; k < 16; ++k) CHECKF(isfinite(view[k]) && isfinite(projection[k]), "%s: matrix entry %d not finite", what, k);
    gp__scene_box(w, lo, hi);
    for (k = 0; k < 3; ++k) c[k] = 0.5f * (lo[k] + hi[k]);
    c[3] = 1.0f;
    if (!(fabsf(c[0]) + fabsf(c[1]) + fabsf(c[2]) < 1e6f)) return;   /* far out: a float view cannot resolve it; finite is all */
    for (r = 0; r < 4; ++r) {
        float v = view[r] * c[0] + view[4 + r] * c[1] + view[8 + r] * c[2] + view[12 + r];
        for (k = 0; k < 4; ++k) clip[k] += projection[4 * r + k] * v;
    }
    CHECKF(clip[3] > 0.0f && fabsf(clip[0] / clip[3]) < 1e-3f && fabsf(clip[1] / clip[3]) < 1e-3f && fabsf(clip[2] / clip[3]) < 1.0f,
           "%s: the scene's centre at clip (%g, %g, %g, %g)", what, clip[0], clip[1], clip[2], clip[3]);
}
static void test_plan_default_camera(void) {
    gp_world* w = fixture_world(NULL);
    gp_particles_desc d;
    gp_collider_desc plane;
    gp_collider handle;
    const float far_away[3] = {1e20f, 0.0f, 0.0f};
    if (!w) return;
    plan_camera_finite(w, 1.6f, "empty world");
    plan_camera_finite(w, 0.0f, "aspect 0");
    memset(&plane, 0, sizeof plane);
    plane.shape = GP_SHAPE_PLANE; plane.normal[1] = 1.0f;
    CHECK(gp_collider_add(w, &plane, &handle) == GP_OK);
    plan_camera_finite(w, 1.0f, "a plane alone");
    memset(&d, 0, sizeof d);
    d.count = 1; d.positions = far_away; d.radius = 0.01f; d.mass = 0.001f; d.kind = GP_KIND_GRANULAR;
    CHECK(gp_particles_add(w, &d, NULL) == GP_OK);
    plan_camera_finite(w, 1.0f, "one particle and 1e20 m");
    gp_world_destroy(w);
}

const gp_test_case plan_tests[] = {
    {"plan_matches_every_program", test_plan_matches_every_program},
    {"plan_shader_log_names_files", test_plan_shader_log_names_files},
    {"plan_default_camera", test_plan_default_camera},
};
const int plan_test_count = (int)(sizeof plan_tests / sizeof plan_tests[0]);
