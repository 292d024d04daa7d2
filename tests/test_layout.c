/* test_layout.c: the C structs that mirror GLSL blocks, field by field, against the offsets the
   driver reports (their padding is explicit and a static check holds their size, but only the
   driver knows where its std140 or std430 rules put each member): gp__world_params against uniform
   block gp_world_block, gp__solver_params and gp__fluid_params against gp_solver_block (std140),
   gp__body_gpu against struct gp_body (std430), gp__stats against gp_stats_block (std430). Each
   block's members are all checked, every element of an array of structs included, and the block's
   size; a member GL reports that no row here names fails.

   The mirrors are private, so this file holds its own static copy of the implementation
   (GP_STATIC), and compiles one library program as the library does, its main renamed, followed
   by a main that makes the blocks active and a buffer of gp_body to introspect. */
#include <glad/gl.h>
#define GP_STATIC
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "fixture.h"
#include <stddef.h>
#include <stdio.h>

/* One GLSL member and where its C mirror keeps it. */
typedef struct layout_field {
    const char* name;        /* as GL names it; %u stands for the element of an array of structs */
    char type;               /* 'f', 'i' or 'u': the components' type on both sides */
    size_t offset;           /* C offset of the member in element 0 */
    size_t bytes;            /* C size of the member (the whole array for an array member) */
    unsigned elements;       /* elements of the array of structs it belongs to (1: none) */
    size_t element_stride;   /* C bytes between two such elements */
} layout_field;

#define LAYOUT_FIELD(name, type, s, member, bytes) {name, type, offsetof(s, member), bytes, 1, 0}
#define LAYOUT_ELEMENT(name, type, s, member, bytes, elements, stride) {name, type, offsetof(s, member), bytes, elements, stride}
#define LAYOUT_COUNT(a) ((int)(sizeof a / sizeof a[0]))
#define LAYOUT_FLUID(glsl, member)                                                                                 \
    LAYOUT_ELEMENT("gp_fluids[%u]." glsl, 'f', gp__solver_params, fluids[0].member,                                \
                   sizeof(((gp__fluid_params*)0)->member), GP_MAX_FLUID_MATERIALS, sizeof(gp__fluid_params))
#define LAYOUT_VEC4_OF(array, glsl, member, at, elements)                                                          \
    LAYOUT_ELEMENT(array "[%u]." glsl, 'f', gp__solver_params, member[0][at], 4 * sizeof(float), elements,         \
                   sizeof(((gp__solver_params*)0)->member[0]))

static const layout_field layout_world[] = {
    LAYOUT_FIELD("gp_grid_origin", 'f', gp__world_params, grid_origin, sizeof(float[4])),
    LAYOUT_FIELD("gp_grid_dims", 'i', gp__world_params, grid_dims, sizeof(int32_t[4])),
    LAYOUT_FIELD("gp_counts", 'u', gp__world_params, counts, sizeof(uint32_t[4])),
};

static const layout_field layout_solver[] = {
    LAYOUT_FIELD("gp_gravity", 'f', gp__solver_params, gravity, sizeof(float[4])),
    LAYOUT_FIELD("gp_solver_counts", 'u', gp__solver_params, counts, sizeof(uint32_t[4])),
    LAYOUT_FLUID("shape", shape),
    LAYOUT_FLUID("flow", flow),
    LAYOUT_FLUID("kernel", kernel),
    LAYOUT_FLUID("table", table),
    LAYOUT_FLUID("wall_density[0]", wall_density),
    LAYOUT_FLUID("wall_viscosity[0]", wall_viscosity),
    LAYOUT_FLUID("wall_gradient[0]", wall_gradient),
    LAYOUT_FLUID("wall_normal[0]", wall_normal),
    LAYOUT_FLUID("wall_tangent[0]", wall_tangent),
    LAYOUT_VEC4_OF("gp_forces", "a", forces, 0, GP_MAX_FORCES),
    LAYOUT_VEC4_OF("gp_forces", "b", forces, 4, GP_MAX_FORCES),
    LAYOUT_VEC4_OF("gp_colliders", "a", colliders, 0, GP_MAX_COLLIDERS),
    LAYOUT_VEC4_OF("gp_colliders", "b", colliders, 4, GP_MAX_COLLIDERS),
    LAYOUT_VEC4_OF("gp_colliders", "c", colliders, 8, GP_MAX_COLLIDERS),
    LAYOUT_VEC4_OF("gp_granulars", "contact", granular, 0, GP_MAX_GRANULAR_MATERIALS),
    LAYOUT_VEC4_OF("gp_granulars", "grain", granular, 4, GP_MAX_GRANULAR_MATERIALS),
    LAYOUT_VEC4_OF("gp_effects", "motion", effects, 0, GP_MAX_EFFECT_MATERIALS),
    LAYOUT_VEC4_OF("gp_effects", "contact", effects, 4, GP_MAX_EFFECT_MATERIALS),
    LAYOUT_FIELD("gp_wind[0]", 'f', gp__solver_params, wind, sizeof(float[6][4])),
};

/* In the test's own buffer, gp_layout_bodies[] (std430, as gp_rigid holds the bodies). */
static const layout_field layout_body[] = {
    LAYOUT_FIELD("gp_layout_bodies[0].x", 'f', gp__body_gpu, x, sizeof(float[4])),
    LAYOUT_FIELD("gp_layout_bodies[0].q", 'f', gp__body_gpu, q, sizeof(float[4])),
    LAYOUT_FIELD("gp_layout_bodies[0].p", 'f', gp__body_gpu, p, sizeof(float[4])),
    LAYOUT_FIELD("gp_layout_bodies[0].l", 'f', gp__body_gpu, l, sizeof(float[4])),
    LAYOUT_FIELD("gp_layout_bodies[0].inertia", 'f', gp__body_gpu, inertia, sizeof(float[4])),
    LAYOUT_FIELD("gp_layout_bodies[0].particles", 'u', gp__body_gpu, particles, sizeof(uint32_t[4])),
};

/* The world's statistics (std430, the STATS role), word for word. */
#define LAYOUT_STAT(glsl, member) LAYOUT_FIELD(glsl, 'u', gp__stats, member, sizeof(uint32_t))
static const layout_field layout_stats[] = {
    LAYOUT_STAT("stat_outside", outside), LAYOUT_STAT("stat_nonfinite", nonfinite), LAYOUT_STAT("stat_truncated", truncated),
    LAYOUT_STAT("stat_max_speed", max_speed), LAYOUT_STAT("stat_min_density", min_density),
    LAYOUT_STAT("stat_max_density", max_density), LAYOUT_STAT("stat_wall_pushes", wall_pushes),
    LAYOUT_STAT("stat_bad_updates", bad_updates),
    LAYOUT_STAT("clock_start", clock_start), LAYOUT_STAT("clock_dt", clock_dt), LAYOUT_STAT("clock_planned", clock_planned),
    LAYOUT_STAT("clock_substeps", clock_substeps), LAYOUT_STAT("clock_speed", clock_speed), LAYOUT_STAT("clock_sound", clock_sound),
    LAYOUT_STAT("clock_spacing", clock_spacing), LAYOUT_STAT("clock_max_cfl", clock_max_cfl), LAYOUT_STAT("clock_limit", clock_limit),
    LAYOUT_STAT("clock_remaining", clock_remaining), LAYOUT_STAT("clock_left", clock_left), LAYOUT_STAT("clock_clean", clock_clean),
    LAYOUT_STAT("clock_h", clock_h), LAYOUT_STAT("clock_lag", clock_lag), LAYOUT_STAT("clock_cfl", clock_cfl),
    LAYOUT_STAT("stat_unkept", unkept), LAYOUT_STAT("stat_solid_gap", solid_gap), LAYOUT_STAT("stat_solid_radius", solid_radius),
    LAYOUT_STAT("clock_contact", clock_contact), LAYOUT_STAT("clock_free", clock_free), LAYOUT_STAT("clock_reach", clock_reach),
    LAYOUT_STAT("clock_accel", clock_accel), LAYOUT_STAT("clock_near", clock_near), LAYOUT_STAT("stat_crowded", crowded),
};

/* A GL type's component type ('f', 'i', 'u'; 0 for any other) and its size in bytes. */
static char layout_type(GLint type, size_t* bytes) {
    static const struct { GLint type; char c; size_t bytes; } types[] = {
        {GL_FLOAT, 'f', 4}, {GL_FLOAT_VEC2, 'f', 8}, {GL_FLOAT_VEC3, 'f', 12}, {GL_FLOAT_VEC4, 'f', 16},
        {GL_INT, 'i', 4}, {GL_INT_VEC2, 'i', 8}, {GL_INT_VEC3, 'i', 12}, {GL_INT_VEC4, 'i', 16},
        {GL_UNSIGNED_INT, 'u', 4}, {GL_UNSIGNED_INT_VEC2, 'u', 8}, {GL_UNSIGNED_INT_VEC3, 'u', 12},
        {GL_UNSIGNED_INT_VEC4, 'u', 16},
    };
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (types[i].type == type) { *bytes = types[i].bytes; return types[i].c; }
    *bytes = 0;
    return 0;
}

/* The body_update program's text as the library hands it to GL, its main renamed, then `extra`.
   0 (and a failed check) if it does not link. */
static GLuint layout_program_of(gp__program_id id, const char* extra) {
    char log[4096];
    GLint ok = 0;
    GLuint shader, program;
    static const char* strings[GP__SHADER_MAX_LINES + 16];
    static char defines[GP__SHADER_DEFINES_BYTES], directives[GP__SHADER_MAX_RANGES][24];
    GLsizei count = gp__shader_strings(id, "#define main gp_layout_library_main", defines, directives, strings);
    strings[count++] = "\n#undef main\n";
    strings[count++] = extra;
    shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, count, strings, NULL);
    glCompileShader(shader);
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    log[0] = 0;
    if (!ok) glGetShaderInfoLog(shader, sizeof log, NULL, log);
    program = glCreateProgram();
    glAttachShader(program, shader);
    if (ok) {
        glLinkProgram(program);
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (!ok) glGetProgramInfoLog(program, sizeof log, NULL, log);
    }
    glDeleteShader(shader);
    CHECKF(ok, "the layout program does not build:\n%s", log);
    if (!ok) { glDeleteProgram(program); return 0; }
    return program;
}

static GLuint layout_program(const char* extra) { return layout_program_of(GP__PROGRAM_BODY_UPDATE, extra); }

/* Checks every row of fields against member_interface's resources of block (of block_interface),
   that the block holds no member the rows do not name, and that its size is c_size. For a block
   whose one member is an array of structs, each member's top-level array stride must be
   top_level_stride (0: not checked). */
static void layout_check(GLuint program, GLenum block_interface, GLenum member_interface, const char* block, size_t c_size,
                         const layout_field* fields, int field_count, size_t top_level_stride) {
    const GLenum block_props[2] = {GL_BUFFER_DATA_SIZE, GL_NUM_ACTIVE_VARIABLES};
    const GLenum props[6] = {GL_OFFSET, GL_ARRAY_SIZE, GL_ARRAY_STRIDE, GL_TYPE, GL_BLOCK_INDEX, GL_TOP_LEVEL_ARRAY_STRIDE};
    GLint sizes[2] = {0, 0};
    GLuint index = glGetProgramResourceIndex(program, block_interface, block);
    int f, named = 0;
    unsigned e;
    CHECKF(index != GL_INVALID_INDEX, "block %s is not active in the program", block);
    if (index == GL_INVALID_INDEX) return;
    glGetProgramResourceiv(program, block_interface, index, 2, block_props, 2, NULL, sizes);
    CHECKF((size_t)sizes[0] == c_size, "%s: GL's size %d bytes, the C mirror's %zu", block, sizes[0], c_size);
    for (f = 0; f < field_count; ++f)
        for (e = 0; e < fields[f].elements; ++e) {
            const layout_field* field = fields + f;
            size_t offset = field->offset + e * field->element_stride, bytes;
            GLint v[6] = {-1, -1, -1, -1, -1, -1};
            char name[128];
            GLuint member;
            snprintf(name, sizeof name, field->name, e);
            ++named;
            member = glGetProgramResourceIndex(program, member_interface, name);
            CHECKF(member != GL_INVALID_INDEX, "%s: GL reports no member %s", block, name);
            if (member == GL_INVALID_INDEX) continue;
            glGetProgramResourceiv(program, member_interface, member, member_interface == GL_BUFFER_VARIABLE ? 6 : 5, props, 6,
                                   NULL, v);
            CHECKF(v[4] == (GLint)index, "%s: %s is not in this block", block, name);
            CHECKF(v[0] == (GLint)offset, "%s: %s at offset %d in GLSL, %zu in C", block, name, v[0], offset);
            CHECKF(layout_type(v[3], &bytes) == field->type, "%s: %s is of GL type 0x%x, C's components are '%c'", block, name,
                   (unsigned)v[3], field->type);
            if (v[1] > 1 || v[2] > 0) bytes = (size_t)v[1] * (size_t)v[2];   /* an array member: all of it */
            CHECKF(bytes == field->bytes, "%s: %s spans %zu bytes in GLSL, %zu in C", block, name, bytes, field->bytes);
            if (top_level_stride)
                CHECKF((size_t)v[5] == top_level_stride, "%s: %s's array stride %d in GLSL, %zu in C", block, name, v[5],
                       top_level_stride);
        }
    CHECKF(sizes[1] == named, "%s: GL reports %d members, the rows here name %d (a GLSL member without a C check?)", block,
           sizes[1], named);
}

static const char layout_main[] =
    "layout(std430, binding = 7) buffer gp_layout_body_block { gp_body gp_layout_bodies[]; };\n"
    "void main() { gp_layout_bodies[0].x = gp_grid_origin + gp_gravity; }\n";

/* Builds the program and checks one block (layout_check's arguments). */
static void layout_test(GLenum block_interface, GLenum member_interface, const char* block, size_t c_size,
                        const layout_field* fields, int field_count, size_t top_level_stride) {
    GLuint program = layout_program(layout_main);
    if (!program) return;
    layout_check(program, block_interface, member_interface, block, c_size, fields, field_count, top_level_stride);
    glDeleteProgram(program);
}

static void test_layout_world_params(void) {
    layout_test(GL_UNIFORM_BLOCK, GL_UNIFORM, "gp_world_block", sizeof(gp__world_params), layout_world,
                LAYOUT_COUNT(layout_world), 0);
}

static void test_layout_solver_params(void) {
    layout_test(GL_UNIFORM_BLOCK, GL_UNIFORM, "gp_solver_block", sizeof(gp__solver_params), layout_solver,
                LAYOUT_COUNT(layout_solver), 0);
}

/* gp_rigid holds bodies as vec4s that gp_body_load reads in gp_body's field order, so the C mirror
   must match gp_body laid out by std430: the test's own buffer of gp_body shows that layout. */
static void test_layout_body_gpu(void) {
    layout_test(GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "gp_layout_body_block", sizeof(gp__body_gpu), layout_body,
                LAYOUT_COUNT(layout_body), sizeof(gp__body_gpu));
}

/* The host reads and resets the statistics through gp__stats' offsets. */
static void test_layout_stats(void) {
    layout_test(GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "gp_stats_block", sizeof(gp__stats), layout_stats,
                LAYOUT_COUNT(layout_stats), 0);
}

/* The store's words (gp__store_words), as store_count, which binds them, sees them. */
#define LAYOUT_STORE(glsl, member) LAYOUT_FIELD(glsl, 'u', gp__store_words, member, sizeof(uint32_t))
static const layout_field layout_store[] = {
    LAYOUT_STORE("store_count", count), LAYOUT_STORE("store_died", died), LAYOUT_STORE("store_free_head", free_head),
    LAYOUT_STORE("store_free_count", free_count), LAYOUT_STORE("store_check", check),
    LAYOUT_STORE("store_dispatch_x", dispatch[0]), LAYOUT_STORE("store_dispatch_y", dispatch[1]), LAYOUT_STORE("store_dispatch_z", dispatch[2]),
    LAYOUT_STORE("store_draw_count", draw[0]), LAYOUT_STORE("store_draw_instances", draw[1]), LAYOUT_STORE("store_draw_first", draw[2]),
    LAYOUT_STORE("store_draw_base", draw[3]), LAYOUT_STORE("store_refused", refused),
    LAYOUT_STORE("store_refused_births", refused_births), LAYOUT_STORE("store_spray", spray),
    LAYOUT_STORE("store_padding", padding),
};

static void test_layout_store(void) {
    GLuint program = layout_program_of(GP__PROGRAM_STORE_COUNT, "void main() { gp_layout_library_main(); }\n");
    if (!program) return;
    layout_check(program, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "gp_store_block", sizeof(gp__store_words), layout_store,
                 LAYOUT_COUNT(layout_store), 0);
    glDeleteProgram(program);
}

/* The emitters' uniform block (gp__emitter_block), as emitter_emit sees it. */
#define LAYOUT_EMITTER(glsl, type, member, bytes)                                                                    \
    LAYOUT_ELEMENT("gp_emitters[%u]." glsl, type, gp__emitter_block, emitters[0].member, bytes, GP_MAX_EMITTERS, sizeof(gp__emitter_gpu))
static const layout_field layout_emitter[] = {
    LAYOUT_FIELD("gp_emission", 'u', gp__emitter_block, emission, 16),
    LAYOUT_EMITTER("position", 'f', position, 16), LAYOUT_EMITTER("axis", 'f', axis, 16), LAYOUT_EMITTER("extent", 'f', extent, 16),
    LAYOUT_EMITTER("motion", 'f', motion, 16), LAYOUT_EMITTER("life", 'f', life, 16), LAYOUT_EMITTER("info", 'u', info, 16),
    LAYOUT_EMITTER("births", 'u', births, 16), LAYOUT_EMITTER("size", 'f', size, 16),
    LAYOUT_ELEMENT("gp_emitters[%u].color[0]", 'f', gp__emitter_block, emitters[0].color, 64, GP_MAX_EMITTERS, sizeof(gp__emitter_gpu)),
    LAYOUT_EMITTER("mesh", 'u', mesh, 16),
};

static void test_layout_emitter_block(void) {
    GLuint program = layout_program_of(GP__PROGRAM_EMITTER_EMIT, "void main() { gp_layout_library_main(); }\n");
    if (!program) return;
    layout_check(program, GL_UNIFORM_BLOCK, GL_UNIFORM, "gp_emitter_block", sizeof(gp__emitter_block), layout_emitter,
                 LAYOUT_COUNT(layout_emitter), 0);
    glDeleteProgram(program);
}

const gp_test_case layout_tests[] = {
    {"layout_world_params", test_layout_world_params},
    {"layout_solver_params", test_layout_solver_params},
    {"layout_body_gpu", test_layout_body_gpu},
    {"layout_stats", test_layout_stats},
    {"layout_store", test_layout_store},
    {"layout_emitter_block", test_layout_emitter_block},
};
const int layout_test_count = (int)(sizeof layout_tests / sizeof layout_tests[0]);
