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

const gp_test_case plan_tests[] = {
    {"plan_matches_every_program", test_plan_matches_every_program},
};
const int plan_test_count = (int)(sizeof plan_tests / sizeof plan_tests[0]);
