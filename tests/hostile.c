/* hostile.c: the whole API against hostile input (`make hostile`, not part of `make test`).
   Small worlds take random calls of every kind (fluid, grains, bodies, pours, emitters,
   colliders with meshes and height fields, forces, gravity, wind, writes and removals, steps with
   random dt, substeps and integrators, the primitives on random GL names and sizes, the getters,
   statistics and queries on live, stale and garbage handles, grid builds and neighbour counts,
   and the three draws into a small frame buffer with random cameras), their values
   drawn now and then from NaN, infinities, 1e30, -0, 1e-30, zero and negative ones, unknown enum
   values and sizes near SIZE_MAX. After every call it checks what the library promises: a refusal
   carries a log message, gp_world_last_result gives the call's result, no call reports a GL
   error or runs past an alarm, the caller's GL state is as the header's "GL STATE" says
   (hostile_gl_scramble sets a random one before each call), and every 25 calls
   gp_particles_check finds no particle misplaced and no pass that wrote past a buffer's end (the
   Makefile builds it with GP_BUFFER_GUARD; the guards are read then and at each world's end).
   --count leaves out what gives birth or death on its own (lifetimes, emitters, pours) and
   checks the exact particle count after every call: no particle is ever lost. Build it with the sanitizers to look for memory errors too
   (HOSTILE_CFLAGS="-O0 -g -fsanitize=address,undefined,float-cast-overflow"). Prints each
   failure and a closing line; exits 1 on any failure.

     build/hostile [--seed N] [--worlds N] [--calls N] [--hostile PERCENT] [--count] [--alarm S]
                   [--slow S] [--pair] [--quiet]

   --pair keeps two worlds alive in the one context and makes each call on either at random.
   A call that takes longer than --slow seconds (10) is named with the world's particle count
   (not a failure: llvmpipe is slow; a world that crawls is worth a look).

   Found on its first runs (2026-11-29): gp_buffer_destroy deleting a buffer of the world's inside,
   gp_buffer_create passing a size above 2^63 to GL, a crowd clamped into a bounded grid's border
   cells slowing every step in silence, gp_fluid_preset_material refusing without a word. */
#define _POSIX_C_SOURCE 200809L
#define GPUPARTICLE_IMPLEMENTATION
#include <glad/gl.h>   /* the probe's own GL calls (a frame buffer to draw into) */
#include "gpuparticle.h"
#include "gp_egl.h"
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- random values, hostile now and then --------------------------------------------------- */

static uint64_t hostile_state = 88172645463325252ull;
static int hostile_percent = 8;

static uint32_t hostile_random(void) {
    hostile_state ^= hostile_state << 13;
    hostile_state ^= hostile_state >> 7;
    hostile_state ^= hostile_state << 17;
    return (uint32_t)(hostile_state >> 11);
}
static float hostile_unit(void) { return (float)(hostile_random() & 0xffffffu) / 16777216.0f; }
static int hostile_now(void) { return (int)(hostile_random() % 100u) < hostile_percent; }

/* A float in [lo, hi], or now and then one a caller should never send. */
static float hostile_float(float lo, float hi) {
    static const float bad[] = {0.0f, -0.0f, 1e-30f, -1.0f, 1e30f, 3.4e38f, -1e30f, NAN, INFINITY, -INFINITY, 1e6f, -1e-6f};
    if (hostile_now()) return bad[hostile_random() % (sizeof bad / sizeof bad[0])];
    return lo + (hi - lo) * hostile_unit();
}
/* A count or index below n, or now and then an extreme one. */
static uint32_t hostile_uint(uint32_t n) {
    static const uint32_t bad[] = {0u, 1u, 0xffffffffu, 0x7fffffffu, 65536u, 1000000u};
    if (hostile_now()) return bad[hostile_random() % (sizeof bad / sizeof bad[0])];
    return n ? hostile_random() % n : 0u;
}
static size_t hostile_size(void) {
    static const size_t sizes[] = {0, 1, 3, 4, 16, 64, 4096, 65536, (size_t)-1, (size_t)-4, (size_t)1 << 31, 0x7fffffff};
    return sizes[hostile_random() % (sizeof sizes / sizeof sizes[0])];
}
static void hostile_vec3(float v[3], float lo, float hi) {
    int k;
    for (k = 0; k < 3; ++k) v[k] = hostile_float(lo, hi);
}

/* ---- what every call is checked for -------------------------------------------------------- */

static int hostile_logs, hostile_failures, hostile_quiet;
static double hostile_slow = 10.0;   /* seconds: a call that takes longer is named (--slow) */
static char hostile_last[1024];
static const char* hostile_call = "";
static long hostile_index;

static void hostile_fail(const char* what) {
    ++hostile_failures;
    fprintf(stderr, "FAIL call %ld (%s): %s\n", hostile_index, hostile_call, what);
}
/* A pass that wrote past a buffer's end (the probe builds the library with GP_BUFFER_GUARD: the
   guards are read at every gp_particles_check and when a world is destroyed) is a failure. */
static void hostile_logger(gp_log_level level, gp_log_item item, const char* message, void* user_data) {
    (void)user_data;
    if (item == GP_LOG_ITEM_BUFFER_OVERRUN) hostile_fail(message);
    if (level == GP_LOG_INFO) return;
    ++hostile_logs;
    snprintf(hostile_last, sizeof hostile_last, "%s", message);
}
static char hostile_detail[160];   /* what a step asked for, for the alarm's and --slow's messages */
static void hostile_alarm(int signal_number) {
    (void)signal_number;
    fprintf(stderr, "FAIL call %ld (%s%s): still running at the alarm\n", hostile_index, hostile_call, hostile_detail);
    _exit(1);
}
/* The world every HOSTILE call is made on: gp_world_last_result must then give the call's result. */
static const gp_world* hostile_current;
/* Checks one call's result; `logged` is the log count before it. */
static gp_result hostile_check(gp_result r, int logged) {
    char what[1200];
    if (hostile_current && gp_world_last_result(hostile_current) != r) {
        snprintf(what, sizeof what, "returned %s, but gp_world_last_result says %s", gp_result_string(r),
                 gp_result_string(gp_world_last_result(hostile_current)));
        hostile_fail(what);
    }
    if (r == GP_ERROR_GL) {
        snprintf(what, sizeof what, "a GL error: %s", hostile_last);
        hostile_fail(what);
    } else if (r != GP_OK && hostile_logs == logged) {
        snprintf(what, sizeof what, "%s without a log message", gp_result_string(r));
        hostile_fail(what);
    }
    return r;
}
#define HOSTILE(expr) (hostile_call = #expr, hostile_check((expr), hostile_logs))

/* ---- the GL state a call must leave as it found it (gpuparticle.h, "GL STATE") ---------------- */

/* Before every call the tool binds a program, a vertex array, buffers and blend, depth, cull and
   other state of its own, drawn at random; after it, everything the header does not list as
   changed must read the same. The single values and the capabilities: */
static const GLenum hostile_gl_values[] = {
    GL_CURRENT_PROGRAM, GL_VERTEX_ARRAY_BINDING, GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING,
    GL_DRAW_INDIRECT_BUFFER_BINDING, GL_PIXEL_PACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING,
    GL_ATOMIC_COUNTER_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_DRAW_FRAMEBUFFER_BINDING,
    GL_READ_FRAMEBUFFER_BINDING, GL_RENDERBUFFER_BINDING, GL_ACTIVE_TEXTURE, GL_TEXTURE_BINDING_2D,
    GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB,
    GL_BLEND_EQUATION_ALPHA, GL_DEPTH_WRITEMASK, GL_DEPTH_FUNC, GL_CULL_FACE_MODE, GL_FRONT_FACE,
    GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT, GL_POLYGON_MODE};
static const char* const hostile_gl_value_names[] = {
    "the current program", "the vertex array", "GL_ARRAY_BUFFER", "GL_ELEMENT_ARRAY_BUFFER", "GL_DRAW_INDIRECT_BUFFER",
    "GL_PIXEL_PACK_BUFFER", "GL_PIXEL_UNPACK_BUFFER", "GL_ATOMIC_COUNTER_BUFFER", "GL_TRANSFORM_FEEDBACK_BUFFER",
    "the draw framebuffer", "the read framebuffer", "the renderbuffer", "the active texture unit", "the 2D texture",
    "the blend's source RGB", "the blend's destination RGB", "the blend's source alpha", "the blend's destination alpha",
    "the blend equation (RGB)", "the blend equation (alpha)", "the depth write mask", "the depth function",
    "the culled face", "the front face", "GL_UNPACK_ALIGNMENT", "GL_PACK_ALIGNMENT", "the polygon mode"};
static const GLenum hostile_gl_caps[] = {GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_SCISSOR_TEST, GL_STENCIL_TEST,
                                         GL_RASTERIZER_DISCARD, GL_PRIMITIVE_RESTART, GL_POLYGON_OFFSET_FILL,
                                         GL_PROGRAM_POINT_SIZE};
static const char* const hostile_gl_cap_names[] = {"GL_BLEND", "GL_DEPTH_TEST", "GL_CULL_FACE", "GL_SCISSOR_TEST",
                                                   "GL_STENCIL_TEST", "GL_RASTERIZER_DISCARD", "GL_PRIMITIVE_RESTART",
                                                   "GL_POLYGON_OFFSET_FILL", "GL_PROGRAM_POINT_SIZE"};
enum { HOSTILE_GL_VALUES = sizeof hostile_gl_values / sizeof hostile_gl_values[0],
       HOSTILE_GL_CAPS = sizeof hostile_gl_caps / sizeof hostile_gl_caps[0], HOSTILE_GL_CAP_POINT_SIZE = HOSTILE_GL_CAPS - 1 };

typedef struct hostile_gl_state {
    GLint values[HOSTILE_GL_VALUES][2];   /* two for the polygon mode's front and back */
    GLboolean caps[HOSTILE_GL_CAPS], color_mask[4];
    GLint viewport[4], uniform3, storage8;   /* bindings the library may not touch: uniform 3, storage 8 */
} hostile_gl_state;

static struct {
    GLuint program, vertex_array, buffers[4], framebuffer;
    GLint storage_bindings;
} hostile_gl;

static void hostile_gl_read(hostile_gl_state* s) {
    int k;
    memset(s, 0, sizeof *s);
    for (k = 0; k < HOSTILE_GL_VALUES; ++k) glGetIntegerv(hostile_gl_values[k], s->values[k]);
    for (k = 0; k < HOSTILE_GL_CAPS; ++k) s->caps[k] = glIsEnabled(hostile_gl_caps[k]);
    glGetBooleanv(GL_COLOR_WRITEMASK, s->color_mask);
    glGetIntegerv(GL_VIEWPORT, s->viewport);
    glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 3, &s->uniform3);
    if (hostile_gl.storage_bindings > 8) glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 8, &s->storage8);
}

/* Objects of the tool's own to bind: a program (an empty compute shader), a vertex array with an
   element buffer, and buffers. */
static void hostile_gl_make(void) {
    static const char* const source = "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    hostile_gl.program = glCreateProgram();
    glAttachShader(hostile_gl.program, shader);
    glLinkProgram(hostile_gl.program);
    glDeleteShader(shader);
    glGenVertexArrays(1, &hostile_gl.vertex_array);
    glGenBuffers(4, hostile_gl.buffers);
    glBindVertexArray(hostile_gl.vertex_array);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, hostile_gl.buffers[0]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    glBindVertexArray(0);
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &hostile_gl.storage_bindings);
}

/* Binds and sets the tool's state, each part at random: what a caller's renderer might leave. */
static void hostile_gl_scramble(void) {
    static const GLenum factors[] = {GL_ONE, GL_ZERO, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_DST_COLOR};
    static const GLenum equations[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT, GL_MIN, GL_MAX};
    static const GLenum depth[] = {GL_LESS, GL_LEQUAL, GL_ALWAYS, GL_GREATER};
    int k;
    for (k = 0; k < HOSTILE_GL_CAPS; ++k) (hostile_random() % 2 ? glEnable : glDisable)(hostile_gl_caps[k]);
    glDisable(GL_RASTERIZER_DISCARD);   /* a draw would still be checked, but show nothing */
    if (hostile_random() % 8 == 0) glEnable(GL_RASTERIZER_DISCARD);
    glUseProgram(hostile_random() % 2 ? hostile_gl.program : 0u);
    glBindVertexArray(hostile_random() % 2 ? hostile_gl.vertex_array : 0u);
    glBindBuffer(GL_ARRAY_BUFFER, hostile_random() % 2 ? hostile_gl.buffers[1] : 0u);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, hostile_random() % 2 ? hostile_gl.buffers[2] : 0u);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, hostile_random() % 2 ? hostile_gl.buffers[3] : 0u);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, hostile_random() % 2 ? hostile_gl.buffers[3] : 0u);
    glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, hostile_random() % 2 ? hostile_gl.buffers[2] : 0u);
    glBindBufferBase(GL_UNIFORM_BUFFER, 3, hostile_random() % 2 ? hostile_gl.buffers[1] : 0u);
    if (hostile_gl.storage_bindings > 8) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 8, hostile_random() % 2 ? hostile_gl.buffers[2] : 0u);
    glBindFramebuffer(GL_FRAMEBUFFER, hostile_gl.framebuffer);
    glBlendFuncSeparate(factors[hostile_random() % 5], factors[hostile_random() % 5], factors[hostile_random() % 5], factors[hostile_random() % 5]);
    glBlendEquationSeparate(equations[hostile_random() % 5], equations[hostile_random() % 5]);
    glDepthMask(hostile_random() % 2 ? GL_TRUE : GL_FALSE);
    glDepthFunc(depth[hostile_random() % 4]);
    glCullFace(hostile_random() % 2 ? GL_BACK : GL_FRONT);
    glFrontFace(hostile_random() % 2 ? GL_CCW : GL_CW);
    glPolygonMode(GL_FRONT_AND_BACK, hostile_random() % 4 ? GL_FILL : GL_LINE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, hostile_random() % 2 ? 4 : 1);
    glPixelStorei(GL_PACK_ALIGNMENT, hostile_random() % 2 ? 4 : 8);
    glColorMask(hostile_random() % 2, hostile_random() % 2, hostile_random() % 2, GL_TRUE);
    glViewport(0, 0, 16 + (GLsizei)(hostile_random() % 49), 16 + (GLsizei)(hostile_random() % 49));
    while (glGetError() != GL_NO_ERROR) {}
}

/* Compares the state after a call with before it; `drew` is a draw of particles or bodies, which
   may leave GL_PROGRAM_POINT_SIZE enabled. */
static void hostile_gl_compare(const hostile_gl_state* before, bool drew) {
    hostile_gl_state after;
    char what[160];
    int k;
    hostile_gl_read(&after);
    for (k = 0; k < HOSTILE_GL_VALUES; ++k)
        if (memcmp(before->values[k], after.values[k], sizeof after.values[k])) {
            snprintf(what, sizeof what, "%s changed from %d to %d", hostile_gl_value_names[k], before->values[k][0], after.values[k][0]);
            hostile_fail(what);
        }
    for (k = 0; k < HOSTILE_GL_CAPS; ++k)
        if (before->caps[k] != after.caps[k] && !(k == HOSTILE_GL_CAP_POINT_SIZE && drew && after.caps[k])) {
            snprintf(what, sizeof what, "%s was %s and is %s", hostile_gl_cap_names[k], before->caps[k] ? "on" : "off", after.caps[k] ? "on" : "off");
            hostile_fail(what);
        }
    if (memcmp(before->color_mask, after.color_mask, sizeof after.color_mask)) hostile_fail("the colour mask changed");
    if (memcmp(before->viewport, after.viewport, sizeof after.viewport)) hostile_fail("the viewport changed");
    if (before->uniform3 != after.uniform3) hostile_fail("uniform buffer binding 3 changed");
    if (before->storage8 != after.storage8) hostile_fail("shader storage binding 8 changed");
}

/* ---- one world's handles ------------------------------------------------------------------- */

enum { HOSTILE_HANDLES = 8 };
typedef struct hostile_world {
    gp_world* world;
    uint32_t capacity;
    bool counting;
    gp_body_shape shapes[HOSTILE_HANDLES];
    gp_collider colliders[HOSTILE_HANDLES];
    gp_pour pours[HOSTILE_HANDLES];
    gp_emitter emitters[HOSTILE_HANDLES];
    gp_body bodies[HOSTILE_HANDLES];   /* the first bodies added (and destroyed shapes' bodies live on) */
    int shape_count, collider_count, pour_count, emitter_count, body_count;
    uint32_t added;   /* particles the last call added (--count) */
} hostile_world;

static void hostile_fluid(hostile_world* h) {
    float lo[3], hi[3], velocity[3], center[3];
    uint32_t added = 0;
    int k;
    hostile_vec3(lo, -0.05f, 0.3f);
    for (k = 0; k < 3; ++k) hi[k] = lo[k] + hostile_float(0.0f, 0.12f);
    hostile_vec3(velocity, -2.0f, 2.0f);
    hostile_vec3(center, 0.0f, 0.4f);
    if (hostile_random() % 3)
        HOSTILE(gp_fluid_add_block(h->world, hostile_uint(9), lo, hi, hostile_random() % 2 ? velocity : NULL, &added));
    else
        HOSTILE(gp_fluid_add_ball(h->world, hostile_uint(9), center, hostile_float(0.0f, 0.08f), NULL, &added));
    h->added = added;
}

static void hostile_fluid_material(hostile_world* h) {
    gp_fluid_material m;
    memset(&m, 0, sizeof m);
    if (hostile_random() % 4 == 0) {   /* no world: a refusal is said on stderr (sph_presets checks it) */
        if (gp_fluid_preset_material((gp_fluid_preset)hostile_uint(6), hostile_float(0.0f, 0.03f), &m) != GP_OK) return;
    } else {
        if (hostile_random() % 2) m.spacing = hostile_float(0.005f, 0.03f);
        if (hostile_random() % 3 == 0) m.smoothing_radius = hostile_float(0.01f, 0.06f);
        if (hostile_random() % 3 == 0) m.rest_density = hostile_float(500.0f, 3000.0f);
        if (hostile_random() % 3 == 0) m.stiffness = hostile_float(100.0f, 1e5f);
        if (hostile_random() % 3 == 0) m.viscosity = hostile_float(0.0f, 0.1f);
        if (hostile_random() % 4 == 0) m.rest_pressure = hostile_float(-100.0f, 1000.0f);
        m.allow_tension = hostile_random() % 4 == 0;
        m.density_model = (gp_density_model)hostile_uint(3);
        if (hostile_random() % 3 == 0) m.diffusion = hostile_float(0.0f, 1.0f);
        if (hostile_random() % 3 == 0) m.artificial_viscosity = hostile_float(0.0f, 1.0f);
    }
    HOSTILE(gp_fluid_material_set(h->world, hostile_uint(9), &m));
}

static void hostile_grains(hostile_world* h) {
    gp_granular_material m;
    float lo[3], hi[3];
    uint32_t added = 0;
    int k;
    memset(&m, 0, sizeof m);
    if (hostile_random() % 2) m.diameter = hostile_float(0.005f, 0.03f);
    if (hostile_random() % 3 == 0) m.density = hostile_float(100.0f, 5000.0f);
    if (hostile_random() % 4 == 0) m.stiffness = hostile_float(1.0f, 1e5f);
    if (hostile_random() % 4 == 0) m.friction = hostile_float(0.0f, 1.0f);
    if (hostile_random() % 4 == 0) m.rolling_friction = hostile_float(0.0f, 1.0f);
    m.shear_model = (gp_shear_model)hostile_uint(4);
    if (hostile_random() % 2) {
        HOSTILE(gp_granular_material_set(h->world, hostile_uint(9), &m));
        return;
    }
    hostile_vec3(lo, -0.05f, 0.3f);
    for (k = 0; k < 3; ++k) hi[k] = lo[k] + hostile_float(0.0f, 0.1f);
    HOSTILE(gp_granular_add_block(h->world, hostile_uint(9), lo, hi, NULL, &added));
    h->added = added;
}

static void hostile_bodies(hostile_world* h) {
    gp_body_desc bodies[4];
    gp_body handles[4];
    uint32_t count = hostile_uint(5), i;
    if (h->shape_count < HOSTILE_HANDLES && hostile_random() % 2) {
        gp_shape_desc s;
        memset(&s, 0, sizeof s);
        s.shape = (gp_shape)hostile_uint(6);
        s.phase = hostile_uint(9);
        s.radius = hostile_float(0.005f, 0.05f);
        hostile_vec3(s.half_extents, 0.005f, 0.05f);
        s.half_height = hostile_float(0.0f, 0.05f);
        s.surface_only = hostile_random() % 2;
        if (HOSTILE(gp_body_shape_create(h->world, &s, &h->shapes[h->shape_count])) == GP_OK) ++h->shape_count;
        return;
    }
    if (count > 4) count = 4;
    if (h->body_count > 48) return;
    memset(bodies, 0, sizeof bodies);
    for (i = 0; i < 4; ++i) {
        bodies[i].shape = h->shape_count ? h->shapes[hostile_random() % (uint32_t)h->shape_count] : (gp_body_shape){hostile_random() % 3};
        hostile_vec3(bodies[i].position, 0.0f, 0.3f);
        if (hostile_random() % 2) { bodies[i].orientation[0] = hostile_float(-1.0f, 1.0f); bodies[i].orientation[3] = hostile_float(-1.0f, 1.0f); }
        hostile_vec3(bodies[i].velocity, -3.0f, 3.0f);
        hostile_vec3(bodies[i].angular_velocity, -30.0f, 30.0f);
    }
    if (HOSTILE(gp_bodies_add(h->world, bodies, count, handles)) != GP_OK) return;
    for (i = 0; i < count; ++i)
        if (h->body_count + (int)i < HOSTILE_HANDLES) h->bodies[h->body_count + (int)i] = handles[i];
    h->body_count += (int)count;
    for (i = 0; i < count; ++i) {
        gp_body_shape_info info;
        if (gp_body_shape_info_get(h->world, bodies[i].shape, &info) == GP_OK) h->added += info.particles;
    }
}

static void hostile_particles(hostile_world* h) {
    float xyz[3 * 64], velocities[3 * 64], radii[64];
    gp_particles_desc d;
    uint32_t count = hostile_uint(65), i;
    if (count > 64) count = 64;
    for (i = 0; i < 3 * 64; ++i) { xyz[i] = hostile_float(-0.1f, 0.4f); velocities[i] = hostile_float(-2.0f, 2.0f); }
    for (i = 0; i < 64; ++i) radii[i] = hostile_float(0.001f, 0.02f);
    memset(&d, 0, sizeof d);
    d.count = count;
    d.positions = hostile_random() % 20 ? xyz : NULL;
    d.velocities = hostile_random() % 2 ? velocities : NULL;
    d.radii = hostile_random() % 3 ? NULL : radii;
    d.kind = (gp_kind)hostile_uint(8);
    d.phase = hostile_uint(9);
    d.radius = hostile_float(0.0f, 0.02f);
    d.mass = hostile_float(0.0f, 0.01f);
    d.lifetime = !h->counting && hostile_random() % 2 ? hostile_float(0.0f, 1.0f) : 0.0f;
    d.owner = hostile_uint(70);
    d.has_owner = hostile_random() % 4 == 0;
    if (HOSTILE(gp_particles_add(h->world, &d, NULL)) == GP_OK) h->added = count;
}

static void hostile_slots(hostile_world* h) {
    uint32_t count = gp_particle_count(h->world), ids[16], slots[16], n = hostile_uint(17), i;
    float points[3 * 16], distances[16];
    unsigned char data[64 * 32];
    if (n > 16) n = 16;
    for (i = 0; i < 16; ++i) ids[i] = hostile_uint(2u * h->capacity + 5u);
    for (i = 0; i < 3 * 16; ++i) points[i] = hostile_float(-0.1f, 0.5f);
    switch (hostile_random() % 4) {
    case 0: HOSTILE(gp_particles_slots_read(h->world, ids, n, slots)); break;
    case 1: HOSTILE(gp_boundary_distance_read(h->world, points, n, distances)); break;
    default:
        if (count) {
            uint32_t first = hostile_random() % count, span = 1u + hostile_random() % (count - first < 32u ? count - first : 32u);
            gp_attribute a = (gp_attribute)(hostile_random() % 8u);
            size_t size = gp_attribute_size(a);
            if (size == 0 || size * span > sizeof data) break;
            for (i = 0; i < size * span / 4u; ++i) { float f = hostile_float(-1.0f, 1.0f); memcpy(data + 4u * i, &f, 4); }
            if (hostile_random() % 2) HOSTILE(gp_particles_write(h->world, a, first, span, data));
            else HOSTILE(gp_particles_read(h->world, a, first, span, data));
        }
    }
}

static void hostile_remove(hostile_world* h) {
    uint32_t ids[16], n = hostile_uint(17), i, fb = 0, count = gp_particle_count(h->world);
    uint32_t* flags;
    if (hostile_random() % 2) {
        if (n > 16) n = 16;
        for (i = 0; i < 16; ++i) ids[i] = hostile_uint(2u * h->capacity + 5u);
        HOSTILE(gp_particles_remove(h->world, ids, n));
        return;
    }
    if (!(flags = (uint32_t*)calloc((size_t)count + 9u, 4))) return;
    for (i = 0; i < count + 9u; ++i) flags[i] = hostile_random() % 50u == 0u;
    if (gp_buffer_create(h->world, (size_t)(hostile_random() % 4 ? count + 8u : count / 2u) * 4u + 4u, flags, &fb) == GP_OK) {
        HOSTILE(gp_particles_remove_flagged(h->world, fb));
        gp_buffer_destroy(h->world, fb);
    }
    free(flags);
}

static void hostile_collider(hostile_world* h) {
    static const float cube[24] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    static const uint32_t faces[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                       2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    gp_collider_desc c;
    float vertices[24], heights[64], scale = hostile_float(0.01f, 0.2f);
    uint32_t triangles[36], i, nx = 2u + hostile_uint(7), nz = 2u + hostile_uint(7);
    if (h->collider_count == HOSTILE_HANDLES) {
        HOSTILE(gp_collider_remove(h->world, h->colliders[hostile_random() % HOSTILE_HANDLES]));   /* stale ones too */
        return;
    }
    memset(&c, 0, sizeof c);
    c.shape = (gp_shape)hostile_uint(8);
    hostile_vec3(c.center, 0.0f, 0.5f);
    hostile_vec3(c.half_extents, 0.01f, 0.3f);
    c.radius = hostile_float(0.01f, 0.2f);
    c.half_height = hostile_float(0.0f, 0.1f);
    hostile_vec3(c.axis, -1.0f, 1.0f);
    hostile_vec3(c.normal, -1.0f, 1.0f);
    c.inside = hostile_random() % 2;
    switch (hostile_random() % 3) {
    case 0:
        for (i = 0; i < 24; ++i) vertices[i] = cube[i] * scale + c.center[i % 3];
        for (i = 0; i < 36; ++i) triangles[i] = hostile_random() % 40 ? faces[i] : hostile_uint(10);
        c.shape = GP_SHAPE_MESH;
        c.vertices = vertices; c.vertex_count = hostile_random() % 20 ? 8u : hostile_uint(9);
        c.triangles = triangles; c.triangle_count = hostile_random() % 20 ? 12u : hostile_uint(13);
        c.voxel = hostile_random() % 3 ? 0.0f : hostile_float(0.001f, 0.05f);
        break;
    case 1:
        for (i = 0; i < 64; ++i) heights[i] = hostile_float(-0.05f, 0.05f);
        if (nx * nz > 64u) return;
        if (HOSTILE(gp_heightfield_add(h->world, heights, nx, nz, hostile_float(-0.1f, 0.1f), hostile_float(0.2f, 0.5f),
                                       hostile_float(-0.1f, 0.1f), hostile_float(0.2f, 0.5f), hostile_float(0.0f, 0.1f),
                                       &h->colliders[h->collider_count])) == GP_OK)
            ++h->collider_count;
        return;
    default: break;
    }
    if (HOSTILE(gp_collider_add(h->world, &c, &h->colliders[h->collider_count])) == GP_OK) ++h->collider_count;
}

static void hostile_births(hostile_world* h) {
    gp_emitter_desc e;
    gp_pour_desc p;
    if (h->counting) return;   /* they give birth on their own */
    if (hostile_random() % 2) {
        memset(&p, 0, sizeof p);
        p.phase = hostile_uint(9);
        hostile_vec3(p.position, 0.0f, 0.5f);
        hostile_vec3(p.direction, -1.0f, 1.0f);
        p.rate = hostile_float(0.0f, 3000.0f);
        p.speed = hostile_float(0.0f, 3.0f);
        if (h->pour_count < HOSTILE_HANDLES && hostile_random() % 2) {
            if (HOSTILE(gp_pour_add(h->world, &p, &h->pours[h->pour_count])) == GP_OK) ++h->pour_count;
        } else if (h->pour_count) {
            HOSTILE(gp_pour_remove(h->world, h->pours[hostile_random() % (uint32_t)h->pour_count]));
        }
        return;
    }
    memset(&e, 0, sizeof e);
    e.shape = (gp_emitter_shape)hostile_uint(10);
    hostile_vec3(e.position, 0.0f, 0.5f);
    hostile_vec3(e.direction, -1.0f, 1.0f);
    e.spread = hostile_float(0.0f, 3.2f);
    e.radius = hostile_float(0.0f, 0.05f);
    hostile_vec3(e.half_extents, 0.0f, 0.05f);
    e.speed[0] = hostile_float(0.0f, 3.0f); e.speed[1] = hostile_float(0.0f, 3.0f);
    e.lifetime[0] = hostile_float(0.0f, 2.0f); e.lifetime[1] = hostile_float(0.0f, 2.0f);
    e.rate = hostile_float(0.0f, 2000.0f);
    e.kind = (gp_kind)hostile_uint(8);
    e.phase = hostile_uint(9);
    e.particle_radius = hostile_float(0.0f, 0.02f);
    e.max_per_substep = hostile_uint(100);
    if (h->emitter_count < HOSTILE_HANDLES && hostile_random() % 2) {
        if (HOSTILE(gp_emitter_add(h->world, &e, &h->emitters[h->emitter_count])) == GP_OK) ++h->emitter_count;
    } else if (h->emitter_count) {
        gp_emitter one = h->emitters[hostile_random() % (uint32_t)h->emitter_count];
        switch (hostile_random() % 3) {
        case 0: HOSTILE(gp_emitter_set(h->world, one, &e)); break;
        case 1: HOSTILE(gp_emitter_burst(h->world, one, hostile_uint(500))); break;
        default: HOSTILE(gp_emitter_remove(h->world, one));
        }
    }
}

static void hostile_forces(hostile_world* h) {
    gp_force forces[GP_MAX_FORCES + 2];
    gp_wind_desc wind;
    gp_effect_material m;
    float gravity[3];
    uint32_t i;
    switch (hostile_random() % 4) {
    case 0:
        hostile_vec3(gravity, -20.0f, 20.0f);
        HOSTILE(gp_gravity_set(h->world, gravity));
        break;
    case 1:
        memset(forces, 0, sizeof forces);
        for (i = 0; i < GP_MAX_FORCES + 2; ++i) {
            forces[i].type = (gp_force_type)hostile_uint(4);
            hostile_vec3(forces[i].center, 0.0f, 0.3f);
            hostile_vec3(forces[i].vector, -30.0f, 30.0f);
            forces[i].strength = hostile_float(-30.0f, 30.0f);
            forces[i].radius = hostile_float(0.0f, 0.3f);
        }
        HOSTILE(gp_forces_set(h->world, forces, hostile_uint(GP_MAX_FORCES + 2)));
        break;
    case 2:
        memset(&wind, 0, sizeof wind);
        hostile_vec3(wind.uniform, -5.0f, 5.0f);
        wind.vortex_speed = hostile_float(0.0f, 3.0f);
        wind.vortex_radius = hostile_float(0.0f, 0.3f);
        wind.noise_speed = hostile_float(0.0f, 2.0f);
        wind.noise_scale = hostile_float(0.0f, 1.0f);
        HOSTILE(gp_wind_set(h->world, &wind));
        break;
    default:
        memset(&m, 0, sizeof m);
        m.drag = hostile_float(0.0f, 5.0f);
        m.restitution = hostile_float(0.0f, 1.0f);
        m.friction = hostile_float(0.0f, 1.0f);
        m.ride = hostile_float(0.0f, 10.0f);
        m.collide = hostile_float(0.0f, 1.0f);
        HOSTILE(gp_effect_material_set(h->world, hostile_uint(9), &m));
    }
}

static void hostile_step(hostile_world* h) {
    gp_step_desc s;
    memset(&s, 0, sizeof s);
    s.dt = hostile_float(0.001f, 1.0f / 30.0f);
    if (hostile_random() % 4 == 0) s.substeps = hostile_uint(30);
    if (hostile_random() % 4 == 0) s.max_cfl = hostile_float(0.1f, 2.0f);
    s.integrator = (gp_integrator)hostile_uint(4);
    snprintf(hostile_detail, sizeof hostile_detail, "; dt %g s, %u substeps asked, max_cfl %g", (double)s.dt, s.substeps, (double)s.max_cfl);
    HOSTILE(gp_world_step(h->world, &s));
}

/* The primitives and buffer calls on random names (the world's own among them) and sizes. */
static void hostile_buffers(hostile_world* h) {
    static unsigned char bytes[65536];
    gp_buffers own = gp_world_buffers(h->world);
    uint32_t names[3], k, mine = 0;
    for (k = 0; k < 3; ++k) {
        uint32_t pick = hostile_random() % 4;
        names[k] = pick == 0 ? own.position : pick == 1 ? 0u : hostile_random() % 200u;
    }
    switch (hostile_random() % 8) {
    case 0:
        if (HOSTILE(gp_buffer_create(h->world, hostile_random() % 2 ? hostile_size() : (size_t)(hostile_random() % 16384u) * 4u, NULL, &mine)) == GP_OK)
            HOSTILE(gp_buffer_destroy(h->world, mine));
        break;
    case 1: HOSTILE(gp_buffer_destroy(h->world, names[0])); break;
    case 2: { size_t at = hostile_size(), n = hostile_size(); if (n <= sizeof bytes) HOSTILE(gp_buffer_write(h->world, names[0], at, n, bytes)); } break;
    case 3: { size_t at = hostile_size(), n = hostile_size(); if (n <= sizeof bytes) HOSTILE(gp_buffer_read(h->world, names[0], at, n, bytes)); } break;
    case 4: HOSTILE(gp_scan_exclusive(h->world, names[0], names[1], hostile_uint(5000))); break;
    case 5: HOSTILE(gp_compact(h->world, names[0], hostile_uint(5000), names[1], names[2], hostile_size())); break;
    case 6: HOSTILE(gp_sort_pairs(h->world, names[0], names[1], hostile_uint(5000), (gp_sort_order)hostile_uint(4))); break;
    default: HOSTILE(gp_indirect_args(h->world, names[0], hostile_size(), hostile_uint(2048), names[1], hostile_size()));
    }
}

/* A handle of kind T: one the world gave (live or since removed), or garbage. */
static uint32_t hostile_handle(const uint32_t* given, int count) {
    if (count && hostile_random() % 5) return given[hostile_random() % (uint32_t)count];
    return hostile_uint(100);
}

/* The getters, statistics, counts and queries, on live, stale and garbage handles and phases;
   NULL outputs now and then. gp_float_sort_key is checked for its promise (it orders as the
   floats do), the strings for being there. */
static void hostile_queries(hostile_world* h) {
    union { gp_fluid_material fluid; gp_granular_material grains; gp_effect_material effect; gp_emitter_desc emitter;
            gp_emitter_stats emitted; gp_pour_state pour; gp_fluid_stats fluid_stats; gp_dem_stats dem; gp_grid_stats grid;
            gp_world_desc world; gp_body_state bodies[4]; gp_timing timings[64]; } out;
    void* to = hostile_random() % 12 ? (void*)&out : NULL;
    uint32_t phase = hostile_uint(9), i;
    gp_body bodies[4];
    gp_emitter e;
    gp_pour pour;
    e.id = hostile_handle(&h->emitters[0].id, h->emitter_count);
    pour.id = hostile_handle(&h->pours[0].id, h->pour_count);
    switch (hostile_random() % 16) {
    case 0: HOSTILE(gp_fluid_material_get(h->world, phase, (gp_fluid_material*)to)); break;
    case 1: HOSTILE(gp_granular_material_get(h->world, phase, (gp_granular_material*)to)); break;
    case 2: HOSTILE(gp_effect_material_get(h->world, phase, (gp_effect_material*)to)); break;
    case 3: HOSTILE(gp_emitter_get(h->world, e, (gp_emitter_desc*)to)); break;
    case 4: HOSTILE(gp_emitter_stats_get(h->world, e, (gp_emitter_stats*)to)); (void)gp_emitter_number(h->world, e); break;
    case 5: HOSTILE(gp_pour_state_get(h->world, pour, (gp_pour_state*)to)); break;
    case 6: HOSTILE(gp_fluid_stats_read(h->world, (gp_fluid_stats*)to)); break;
    case 7: HOSTILE(gp_dem_stats_read(h->world, (gp_dem_stats*)to)); break;
    case 8: HOSTILE(gp_grid_stats_read(h->world, (gp_grid_stats*)to)); break;
    case 9: {
        uint32_t count = hostile_uint(5);
        if (count > 4) count = 4;
        for (i = 0; i < 4; ++i) bodies[i].id = hostile_handle(&h->bodies[0].id, h->body_count < HOSTILE_HANDLES ? h->body_count : HOSTILE_HANDLES);
        HOSTILE(gp_bodies_read(h->world, to ? bodies : NULL, count, to ? out.bodies : NULL));
        if (gp_body_number(h->world, bodies[0]) != GP_NO_OWNER && gp_body_number(h->world, bodies[0]) >= gp_body_count(h->world))
            hostile_fail("a body's number is not below the body count");
        break;
    }
    case 10:
        if (h->shape_count) {   /* destroyed, the handle stays in the list: used stale from then on */
            gp_body_shape shape = h->shapes[hostile_random() % (uint32_t)h->shape_count];
            HOSTILE(gp_body_shape_destroy(h->world, shape));
        }
        break;
    case 11: {
        gp_fluid_material m;
        gp_granular_material g;
        gp_world_desc d;
        memset(&m, 0, sizeof m); memset(&g, 0, sizeof g); memset(&d, 0, sizeof d);
        m.spacing = hostile_float(0.0f, 0.05f); m.viscosity = hostile_float(0.0f, 0.1f); m.smoothing_radius = hostile_float(0.0f, 0.1f);
        g.diameter = hostile_float(0.0f, 0.05f); g.density = hostile_float(0.0f, 5000.0f);
        d.max_particles = hostile_uint(100000); d.grid.cell_size = hostile_float(0.0f, 0.1f);
        (void)gp_query_fluid_material_defaults(hostile_random() % 2 ? h->world : NULL, hostile_random() % 4 ? &m : NULL);
        (void)gp_query_granular_material_defaults(hostile_random() % 2 ? h->world : NULL, hostile_random() % 4 ? &g : NULL);
        (void)gp_query_world_defaults(hostile_random() % 4 ? &d : NULL);
        break;
    }
    case 12: {
        float lo[3], hi[3], center[3], spacing = hostile_float(0.001f, 0.05f);
        hostile_vec3(lo, -0.5f, 0.5f); hostile_vec3(hi, -0.5f, 0.5f); hostile_vec3(center, -0.5f, 0.5f);
        (void)gp_lattice_block_count(spacing, lo, hi);
        (void)gp_lattice_ball_count(spacing, center, hostile_float(0.0f, 0.3f));
        break;
    }
    case 13: {
        float a = hostile_float(-10.0f, 10.0f), b = hostile_float(-10.0f, 10.0f);
        if (!gp_log_item_string((gp_log_item)hostile_uint(80)) || !gp_result_string((gp_result)((int)hostile_uint(30) - 15)))
            hostile_fail("a NULL string for an enum value");
        if (a == a && b == b && a < b && !(gp_float_sort_key(a) < gp_float_sort_key(b)))
            hostile_fail("gp_float_sort_key does not order two floats as they are");
        break;
    }
    case 14:
        (void)gp_timings_read(h->world, to ? out.timings : NULL, hostile_uint(65) > 64u ? 64u : hostile_uint(65));
        (void)gp_particle_capacity(h->world); (void)gp_world_readbacks(h->world); (void)gp_world_last_result(h->world);
        break;
    default:
        HOSTILE(gp_fluid_compute(h->world, hostile_float(1e-5f, 0.01f)));
    }
}

/* The grid's own calls: a build, a neighbour count into a buffer of the right size, a short one
   or a random name, and a streaming copy between buffers of any size. */
static void hostile_grid(hostile_world* h) {
    uint32_t count = gp_particle_count(h->world), out = 0, other = 0;
    size_t words = hostile_random() % 4 ? (size_t)count + 1u : (size_t)count / 2u + 1u;
    switch (hostile_random() % 3) {
    case 0: HOSTILE(gp_grid_build(h->world)); break;
    case 1:
        if (hostile_random() % 5 == 0) { HOSTILE(gp_grid_count_neighbors(h->world, hostile_float(0.0f, 0.1f), hostile_random() % 200u)); break; }
        if (gp_buffer_create(h->world, 4u * words, NULL, &out) != GP_OK) break;
        HOSTILE(gp_grid_count_neighbors(h->world, hostile_float(0.0f, 0.1f), out));
        gp_buffer_destroy(h->world, out);
        break;
    default:
        if (gp_buffer_create(h->world, 4u * words, NULL, &out) != GP_OK) break;
        if (gp_buffer_create(h->world, 4u * (hostile_random() % 2 ? words : words / 2u + 1u), NULL, &other) == GP_OK) {
            HOSTILE(gp_copy(h->world, hostile_random() % 10 ? out : hostile_random() % 200u, other, hostile_uint((uint32_t)words + 2u)));
            gp_buffer_destroy(h->world, other);
        }
        gp_buffer_destroy(h->world, out);
    }
}

/* The three draws into a small frame buffer (bound by hostile_gl_scramble), with random cameras,
   colourings, kinds and blends. */
static bool hostile_drew_points;   /* the call was gp_draw_particles or gp_draw_bodies */
static void hostile_draw(hostile_world* h) {
    gp_draw_desc d;
    int k;
    memset(&d, 0, sizeof d);
    if (hostile_random() % 2)
        for (k = 0; k < 16; ++k) { d.view[k] = hostile_float(-1.0f, 1.0f); d.projection[k] = hostile_float(-1.0f, 1.0f); }
    d.color_by = (gp_color_by)hostile_uint(6);
    d.range[0] = hostile_float(0.0f, 2000.0f); d.range[1] = hostile_float(0.0f, 2000.0f);
    for (k = 0; k < 4; ++k) d.color[k] = hostile_float(0.0f, 1.0f);
    hostile_vec3(d.light, -1.0f, 1.0f);
    d.radius_scale = hostile_float(0.0f, 3.0f);
    d.kinds = hostile_random() % 2 ? 0u : hostile_random();
    d.blend = (gp_blend)hostile_uint(4);
    switch (hostile_random() % 3) {
    case 0: HOSTILE(gp_draw_particles(h->world, hostile_random() % 20 ? &d : NULL)); hostile_drew_points = true; break;
    case 1: HOSTILE(gp_draw_bodies(h->world, hostile_random() % 20 ? &d : NULL)); hostile_drew_points = true; break;
    default: HOSTILE(gp_draw_effects(h->world, hostile_random() % 20 ? &d : NULL));
    }
    if (glGetError() != GL_NO_ERROR) hostile_fail("a draw left a GL error behind");
}

/* A frame buffer of 64 x 64 (colour and depth) for hostile_draw; 0 if GL cannot make one. */
static GLuint hostile_framebuffer_make(void) {
    GLuint fb = 0, rb[2];
    glGenFramebuffers(1, &fb);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 64, 64);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    glViewport(0, 0, 64, 64);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE ? fb : 0;
}

/* ---- the run --------------------------------------------------------------------------------- */

static void hostile_audit(hostile_world* h) {
    uint32_t misplaced = 0;
    char what[128];
    if (HOSTILE(gp_particles_check(h->world, &misplaced)) == GP_OK && misplaced) {
        snprintf(what, sizeof what, "%u particles misplaced in the store", misplaced);
        hostile_fail(what);
    }
}

/* Makes a small world of random capacity, cell size, grid mode and build order; false if it fails. */
static bool hostile_world_make(hostile_world* h, bool counting) {
    gp_world_desc d;
    memset(h, 0, sizeof *h);
    memset(&d, 0, sizeof d);
    d.max_particles = h->capacity = 2000u + hostile_random() % 6000u;
    d.grid.cell_size = 0.02f + 0.03f * hostile_unit();
    if (hostile_random() % 2) {
        d.grid.mode = GP_GRID_BOUNDED;
        d.grid.dims[0] = 20u + hostile_random() % 20u;
        d.grid.dims[1] = 20u + hostile_random() % 20u;
        d.grid.dims[2] = 5u + hostile_random() % 20u;
        d.grid.origin[0] = d.grid.origin[1] = d.grid.origin[2] = -0.1f;
    }
    d.any_order = hostile_random() % 2;
    d.get_proc_address = (gp_get_proc_address_fn)eglGetProcAddress;
    d.logger.func = hostile_logger;
    h->counting = counting;
    if (gp_world_create(&d, &h->world) == GP_OK) return true;
    hostile_fail(hostile_last);
    return false;
}

/* `together` worlds (1 or 2) live at once in the one context, each call on one of them at random:
   nothing of one may leak into the other (a cache, a binding, a count). With two, the calls on
   random GL names are left out: a name of the other world's is not one the library can refuse. */
static void hostile_world_run(long calls, bool counting, unsigned alarm_seconds, int together) {
    typedef void (*hostile_op)(hostile_world*);
    static const hostile_op ops[] = {hostile_fluid, hostile_fluid, hostile_fluid_material, hostile_grains, hostile_bodies,
                                     hostile_particles, hostile_slots, hostile_remove, hostile_collider, hostile_births,
                                     hostile_forces, hostile_step, hostile_step, hostile_step, hostile_buffers,
                                     hostile_queries, hostile_queries, hostile_grid, hostile_draw};
    hostile_world worlds[2];
    int k;
    for (k = 0; k < together; ++k)
        if (!hostile_world_make(&worlds[k], counting)) {
            while (k-- > 0) gp_world_destroy(worlds[k].world);
            return;
        }
    for (hostile_index = 0; hostile_index < calls; ++hostile_index) {
        uint32_t before = 0, after = 0;
        struct timespec start, end;
        double seconds;
        hostile_gl_state gl_before;
        hostile_world* h = &worlds[together > 1 ? hostile_random() % (uint32_t)together : 0u];
        hostile_op op = ops[hostile_random() % (sizeof ops / sizeof ops[0])];
        if (counting && (op == hostile_remove || op == hostile_buffers)) op = hostile_step;   /* removals and raw writes change the count */
        if (together > 1 && (op == hostile_buffers || op == hostile_grid)) op = hostile_step;
        if (op == hostile_draw && !hostile_gl.framebuffer) op = hostile_queries;
        hostile_current = h->world;
        if (counting) gp_particle_count_read(h->world, &before);
        h->added = 0;
        hostile_gl_scramble();
        hostile_gl_read(&gl_before);
        hostile_drew_points = false;
        hostile_detail[0] = 0;
        alarm(alarm_seconds);
        clock_gettime(CLOCK_MONOTONIC, &start);
        op(h);
        clock_gettime(CLOCK_MONOTONIC, &end);
        alarm(0);
        hostile_gl_compare(&gl_before, hostile_drew_points);
        seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
        if (seconds > hostile_slow && !hostile_quiet) {   /* not a failure: what made it slow, to look at */
            gp_fluid_stats fs;
            gp_grid_stats gs;
            memset(&fs, 0, sizeof fs); memset(&gs, 0, sizeof gs);
            gp_fluid_stats_read(h->world, &fs);
            gp_grid_stats_read(h->world, &gs);
            fprintf(stderr, "slow call %ld (%s%s): %.1f s, %u particles; %u substeps, fastest %.3g m/s, lag %.3g s; %u outside the grid, %u crowded\n",
                    hostile_index, hostile_call, hostile_detail, seconds, gp_particle_count(h->world), fs.substeps, fs.max_speed, fs.lag, gs.outside, gs.crowded);
        }
        if (counting && gp_particle_count_read(h->world, &after) == GP_OK && after != before + h->added) {
            char what[128];
            snprintf(what, sizeof what, "the count went from %u to %u with %u added", before, after, h->added);
            hostile_fail(what);
        }
        if (hostile_index % 25 == 24)
            for (k = 0; k < together; ++k) { hostile_current = worlds[k].world; hostile_audit(&worlds[k]); }
    }
    hostile_current = NULL;
    for (k = 0; k < together; ++k) {
        if (!hostile_quiet)
            fprintf(stderr, "world: %u particles, %d bodies, %d colliders\n", gp_particle_count(worlds[k].world), worlds[k].body_count,
                    worlds[k].collider_count);
        gp_world_destroy(worlds[k].world);
    }
}

int main(int argc, char** argv) {
    gp_egl egl;
    long calls = 150;
    int worlds = 2, i;
    unsigned alarm_seconds = 300;
    bool counting = false;
    int together = 1;
    for (i = 1; i < argc; ++i) {
        const char* value = i + 1 < argc ? argv[i + 1] : "0";
        if (!strcmp(argv[i], "--seed")) { hostile_state = strtoull(value, NULL, 10) * 2654435761ull + 1u; ++i; }
        else if (!strcmp(argv[i], "--worlds")) { worlds = atoi(value); ++i; }
        else if (!strcmp(argv[i], "--calls")) { calls = atol(value); ++i; }
        else if (!strcmp(argv[i], "--hostile")) { hostile_percent = atoi(value); ++i; }
        else if (!strcmp(argv[i], "--alarm")) { alarm_seconds = (unsigned)atoi(value); ++i; }
        else if (!strcmp(argv[i], "--slow")) { hostile_slow = atof(value); ++i; }
        else if (!strcmp(argv[i], "--count")) counting = true;
        else if (!strcmp(argv[i], "--pair")) together = 2;
        else if (!strcmp(argv[i], "--quiet")) hostile_quiet = 1;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--worlds N] [--calls N] [--hostile PERCENT] [--count] [--alarm S] [--slow S] [--pair] [--quiet]\n", argv[0]);
            return 2;
        }
    }
    if (!hostile_state) hostile_state = 1u;
    signal(SIGALRM, hostile_alarm);
    if (gp_egl_open(&egl, 4, 3) || !gladLoadGL((GLADloadfunc)eglGetProcAddress)) return 2;
    hostile_gl.framebuffer = hostile_framebuffer_make();
    hostile_gl_make();
    for (i = 0; i < worlds; ++i) hostile_world_run(calls, counting, alarm_seconds, together);
    gp_egl_close(&egl);
    printf("%d %s of %ld calls, %d%% hostile%s: %d failures\n", worlds, together > 1 ? "pairs of worlds" : "worlds", calls,
           hostile_percent, counting ? ", counted" : "",
           hostile_failures);
    return hostile_failures != 0;
}
