/* test_world.c: world creation and the checks it makes (GL version, entry points, limits,
   shaders, allocator), the loader fallback, the particle store's validation and round trips,
   result strings, defaults and timer queries. */
#include "fixture.h"
#include <float.h>
#include "gp_egl.h"
#include <math.h>

extern gp_egl fixture_egl;

static void test_world_defaults(void) {
    gp_world_desc d;
    gp_world_desc in;
    memset(&in, 0, sizeof in);
    d = gp_query_world_defaults(&in);
    CHECK(d.max_particles == 65536);
    CHECK(d.grid.mode == GP_GRID_HASHED && d.grid.cell_size == 0.1f && d.grid.buckets == 65536);
    CHECK(d.allocator.alloc != NULL && d.allocator.free != NULL);
    CHECK(d.get_proc_address != NULL);   /* the dlsym fallback found EGL's */
    in.grid.dims[0] = in.grid.dims[1] = in.grid.dims[2] = 4;
    in.max_particles = 10;
    d = gp_query_world_defaults(&in);
    CHECK(d.grid.mode == GP_GRID_BOUNDED && d.grid.buckets == 0 && d.max_particles == 10);
    in.grid.dims[0] = 0;
    in.grid.mode = GP_GRID_HASHED;
    d = gp_query_world_defaults(&in);
    CHECK(d.grid.buckets == 4096);
    in.grid.buckets = 7;   /* tables are powers of two: the hash masks */
    CHECK(gp_query_world_defaults(&in).grid.buckets == 8);
    in.grid.buckets = 4097;
    CHECK(gp_query_world_defaults(&in).grid.buckets == 8192);
    in.grid.buckets = 1;
    CHECK(gp_query_world_defaults(&in).grid.buckets == 1);
}

static void test_result_strings_are_distinct(void) {
    int a, b;
    for (a = 0; a < GP_RESULT_COUNT; ++a) {
        CHECK(strncmp(gp_result_string((gp_result)a), "GP_", 3) == 0);
        CHECK(strcmp(gp_result_string((gp_result)a), "GP_RESULT_UNKNOWN") != 0);
        for (b = 0; b < a; ++b) CHECK(strcmp(gp_result_string((gp_result)a), gp_result_string((gp_result)b)) != 0);
    }
    CHECK(strcmp(gp_result_string((gp_result)999), "GP_RESULT_UNKNOWN") == 0);
    CHECK(strcmp(gp_result_string(GP_ERROR_CAPACITY), "GP_ERROR_CAPACITY") == 0);
    /* log items likewise, each named after itself */
    for (a = 0; a < GP_LOG_ITEM_COUNT; ++a) {
        CHECK(strncmp(gp_log_item_string((gp_log_item)a), "GP_LOG_ITEM_", 12) == 0);
        CHECK(strcmp(gp_log_item_string((gp_log_item)a), "GP_LOG_ITEM_UNKNOWN") != 0);
        for (b = 0; b < a; ++b) CHECK(strcmp(gp_log_item_string((gp_log_item)a), gp_log_item_string((gp_log_item)b)) != 0);
    }
    CHECK(strcmp(gp_log_item_string((gp_log_item)GP_LOG_ITEM_COUNT), "GP_LOG_ITEM_UNKNOWN") == 0);
    CHECK(strcmp(gp_log_item_string(GP_LOG_ITEM_WORLD_NULL), "GP_LOG_ITEM_WORLD_NULL") == 0);
}

/* A context that reports OpenGL 3.3 is refused with GP_ERROR_GL_VERSION and a message naming
   4.3. (Mesa answers a request for a 3.3 core context with its newest core version, so the test
   context is made to report 3.3 through the loader, which is the only way the library asks.) */
typedef void (*get_integerv_fn)(GLenum, GLint*);
static get_integerv_fn real_get_integerv;
static void get_integerv_reporting_3_3(GLenum name, GLint* data) {
    real_get_integerv(name, data);
    if (name == GL_MAJOR_VERSION) *data = 3;
    if (name == GL_MINOR_VERSION) *data = 3;
}
static gp_proc loader_reporting_3_3(const char* name) {
    if (strcmp(name, "glGetIntegerv") == 0) {
        real_get_integerv = (get_integerv_fn)eglGetProcAddress(name);
        return (gp_proc)get_integerv_reporting_3_3;
    }
    return (gp_proc)eglGetProcAddress(name);
}

static void test_world_refuses_old_context(void) {
    gp_world_desc d;
    gp_world* w = (gp_world*)&d;
    d = fixture_desc(NULL);
    d.get_proc_address = loader_reporting_3_3;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_GL_VERSION);
    CHECK(w == NULL);
    CHECKF(fixture_logged_item(GP_LOG_ITEM_GL_VERSION) && fixture_logged_item(GP_LOG_ITEM_GL_VERSION), "log: %s", fixture_log);
    if (w) gp_world_destroy(w);
}

static void test_world_needs_a_current_context(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    d = fixture_desc(NULL);
    eglMakeCurrent(fixture_egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    CHECK(gp_world_create(&d, &w) == GP_ERROR_NO_CONTEXT && w == NULL);
    CHECKF(fixture_logged_item(GP_LOG_ITEM_GL_NO_CONTEXT), "log: %s", fixture_log);
    eglMakeCurrent(fixture_egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, fixture_egl.context);
}

/* A loader that has everything but one entry point. */
static gp_proc loader_without_clear(const char* name) {
    if (strcmp(name, "glClearBufferSubData") == 0) return NULL;
    return (gp_proc)eglGetProcAddress(name);
}

static void test_world_reports_missing_entry_point(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    d = fixture_desc(NULL);
    d.get_proc_address = loader_without_clear;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_GL_MISSING_FUNCTION && w == NULL);
    CHECKF(fixture_logged_item(GP_LOG_ITEM_GL_MISSING_FUNCTION), "log: %s", fixture_log);
}

/* Without get_proc_address the library finds eglGetProcAddress in the process itself. */
static void test_world_loader_fallback(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    uint32_t a, b, words[3] = {1, 2, 3};
    d = fixture_desc(NULL);
    d.get_proc_address = NULL;   /* the fallback's to find */
    CHECK(gp_world_create(&d, &w) == GP_OK && w != NULL);
    if (!w) return;
    CHECK(gp_buffer_create(w, 12, words, &a) == GP_OK && gp_buffer_create(w, 12, NULL, &b) == GP_OK);
    CHECK(gp_scan_exclusive(w, a, b, 3) == GP_OK && gp_buffer_read(w, b, 0, 12, words) == GP_OK);
    CHECK(words[0] == 0 && words[1] == 1 && words[2] == 3);
    gp_buffer_destroy(w, a);
    gp_buffer_destroy(w, b);
    gp_world_destroy(w);
}

/* Hostile input found by a probe of the whole API (2026-11-27), each refused with its reason or
   carried out, never a hang, a silent GP_OK for nothing, or a NaN:
   - a block or ball of 1e16 to 1e40 lattice points: counted per axis, not point by point (it hung),
     and refused for room; a span of +-3e38 (a float's overflow: it added nothing with GP_OK);
   - a pour at 1e30 m/s owes 1e29 layers a substep (it hung): 64 are laid, the rest dropped with a
     warning; an emitter's rate of 1e30 (its births' count overflowed: nothing emitted) refused;
   - a body whose momentum overflows a float (mass times 1e38 m/s: it lost its speed; FLT_MAX with a
     spin left orphan particles) refused, nothing added;
   - a fluid particle 1e30 m out in a box tank (the box's distance overflowed: NaN) stays finite;
   - an effect particle of phase 200 (the shaders clamped it to material 7);
   - a closed mesh collider that encloses no volume (flat, or every vertex in one place: accepted);
   - the draw helpers' NaN colours, ranges and lights, and a negative radius scale (accepted);
   - the world's own buffers refused by gp_buffer_destroy (deleted, every later step failed). */
static void test_world_hostile_input(void) {
    const float lo[3] = {-1e4f, -1e4f, -1e4f}, hi[3] = {1e4f, 1e4f, 1e4f}, wide_lo[3] = {-3e38f, 0.0f, 0.0f};
    const float wide_hi[3] = {3e38f, 0.1f, 0.1f}, center[3] = {0.0f, 0.0f, 0.0f};
    gp_world* w = fixture_grid_world(2000, 0.1f, 0);
    gp_pour_desc pd;
    gp_pour pour;
    gp_emitter_desc ed;
    gp_emitter emitter;
    gp_shape_desc shape;
    gp_body_shape box;
    gp_body_desc body;
    gp_collider_desc tank;
    gp_collider handle;
    gp_particles_desc far;
    gp_particle_position p[2];
    gp_buffers own;
    gp_draw_desc draw;
    float far_xyz[6] = {1e30f, 0.1f, 0.05f, 0.05f, 0.05f, 0.05f};
    uint32_t n, added = 7;
    if (!w) return;
    CHECK(gp_lattice_block_count(0.05f, lo, hi) >= 63990000000000000ull && gp_lattice_block_count(0.05f, lo, hi) <= 64000000000000000ull);   /* about 400,000^3, at once */
    CHECK(gp_lattice_ball_count(0.1f, center, 1e30f) > 0xffffffffull);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, &added) == GP_ERROR_CAPACITY && added == 0);
    CHECK(gp_fluid_add_block(w, 0, wide_lo, wide_hi, NULL, NULL) == GP_ERROR_CAPACITY);
    CHECK(gp_fluid_add_ball(w, 0, center, 1e4f, NULL, NULL) == GP_ERROR_CAPACITY);
    CHECK(gp_granular_add_block(w, 0, lo, hi, NULL, NULL) == GP_ERROR_CAPACITY);
    CHECK(gp_particle_count(w) == 0);

    memset(&ed, 0, sizeof ed);
    ed.kind = GP_KIND_EFFECT;
    ed.rate = 1e30f;
    CHECK(gp_emitter_add(w, &ed, &emitter) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));

    memset(&pd, 0, sizeof pd);
    pd.position[1] = 0.5f;
    pd.rate = 1000.0f;
    pd.speed = 1e30f;
    CHECK(gp_pour_add(w, &pd, &pour) == GP_OK);
    fixture_run(w, 1);   /* returns: at most 64 layers a substep */
    CHECK(fixture_logged_item(GP_LOG_ITEM_LAYERS_DROPPED));
    CHECK(gp_particle_count(w) <= 2000);
    CHECK(gp_pour_remove(w, pour) == GP_OK);
    gp_world_destroy(w);

    w = fixture_grid_world(2000, 0.1f, 0);
    if (!w) return;
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_BOX;
    shape.half_extents[0] = shape.half_extents[1] = shape.half_extents[2] = 0.1f;
    CHECK(gp_body_shape_create(w, &shape, &box) == GP_OK);
    memset(&body, 0, sizeof body);
    body.shape = box;
    body.velocity[1] = -1e38f;
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    body.velocity[1] = 0.0f;
    body.velocity[0] = FLT_MAX;
    body.angular_velocity[2] = -FLT_MAX;
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    CHECK(gp_particle_count(w) == 0 && gp_body_count(w) == 0);
    memset(&far, 0, sizeof far);   /* an effect particle of a phase beyond the effects' materials (clamped to the last) */
    far.count = 1; far.positions = far_xyz + 3; far.kind = GP_KIND_EFFECT; far.phase = 200;
    CHECK(gp_particles_add(w, &far, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));

    memset(&tank, 0, sizeof tank);
    tank.shape = GP_SHAPE_BOX; tank.inside = true;
    tank.center[0] = tank.center[1] = tank.center[2] = 0.5f;
    tank.half_extents[0] = tank.half_extents[1] = tank.half_extents[2] = 0.5f;
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    memset(&far, 0, sizeof far);
    far.count = 2; far.positions = far_xyz; far.kind = GP_KIND_FLUID;
    CHECK(gp_particles_add(w, &far, NULL) == GP_OK);
    fixture_run(w, 3);
    n = gp_particle_count(w);
    CHECK(n == 2 && gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, n, p) == GP_OK);
    CHECKF(isfinite(p[0].x) && isfinite(p[0].y) && isfinite(p[1].x) && isfinite(p[1].y),
           "a particle 1e30 m out of a box tank ended at (%g, %g), (%g, %g)", p[0].x, p[0].y, p[1].x, p[1].y);

    memset(&draw, 0, sizeof draw);   /* the draw helpers' floats: finite, the radius scale not negative */
    draw.range[1] = NAN;
    CHECK(gp_draw_particles(w, &draw) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    draw.range[1] = 0.0f;
    draw.light[0] = INFINITY;
    CHECK(gp_draw_bodies(w, &draw) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    draw.light[0] = 0.0f;
    draw.radius_scale = -1.0f;
    CHECK(gp_draw_particles(w, &draw) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    {   /* a closed mesh that encloses nothing: two triangles back to back (flat, on an axis and tilted),
           a tetrahedron in one point, a tilted flat one in its plane; a thin tetrahedron is kept */
        static const float flat[9] = {0.0f, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f, 0.0f, 0.1f, 0.0f},
                           tilted[9] = {0.0f, 0.0f, 0.0f, 0.1f, 0.05f, 0.03f, 0.02f, 0.1f, 0.07f},
                           tilted_tetrahedron[12] = {0.0f, 0.0f, 0.0f, 0.1f, 0.05f, 0.03f, 0.02f, 0.1f, 0.07f, 0.12f, 0.15f, 0.1f},
                           thin[12] = {0.0f, 0.0f, 0.0f, 0.1f, 0.05f, 0.03f, 0.02f, 0.1f, 0.07f, 0.06f, 0.075f, 0.0502f}, point[12] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0.2f,
                                                                                                 0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
        static const uint32_t back_to_back[6] = {0, 1, 2, 0, 2, 1}, tetrahedron[12] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
        gp_collider_desc mesh;
        memset(&mesh, 0, sizeof mesh);
        mesh.shape = GP_SHAPE_MESH;
        mesh.vertices = flat; mesh.vertex_count = 3; mesh.triangles = back_to_back; mesh.triangle_count = 2;
        CHECK(gp_collider_add(w, &mesh, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
        mesh.vertices = tilted;
        CHECK(gp_collider_add(w, &mesh, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
        mesh.vertices = point; mesh.vertex_count = 4; mesh.triangles = tetrahedron; mesh.triangle_count = 4;
        CHECK(gp_collider_add(w, &mesh, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
        mesh.vertices = tilted_tetrahedron;   /* its fourth vertex is the sum of two others: in their plane */
        CHECK(gp_collider_add(w, &mesh, &handle) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_MESH_INVALID));
        mesh.vertices = thin;   /* 0.2 mm out of that plane: a solid, if thin */
        CHECK(gp_collider_add(w, &mesh, &handle) == GP_OK && gp_collider_remove(w, handle) == GP_OK);
    }
    own = gp_world_buffers(w);
    CHECK(gp_buffer_destroy(w, own.position) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_buffer_destroy(w, own.store) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_buffer_destroy(w, 0) == GP_OK && gp_buffer_destroy(NULL, 1) != GP_OK);
    fixture_run(w, 1);   /* still steps */
    gp_world_destroy(w);
}

/* Every buffer the world makes for itself is its own: gp_buffer_destroy refuses each one, not only
   gp_world_buffers' (a deleted internal buffer, a scan's sums or the rigid bodies' table, failed
   every later call with a GL error: found by a hostile-input run, 2026-11-29), the world steps on
   after the attempts, and gp_world_destroy leaves none behind. Found through GL: the names that
   became buffers while the world was made and used (fluid, a body, an emitter, a scan). */
static void test_world_keeps_every_buffer_it_made(void) {
    enum { NAMES = 8192 };
    static unsigned char before[NAMES];
    const float lo[3] = {0.1f, 0.1f, 0.1f}, hi[3] = {0.2f, 0.2f, 0.2f}, tank_center[3] = {0.2f, 0.2f, 0.2f};
    gp_world_desc d;
    gp_world* w;
    gp_collider_desc tank;
    gp_shape_desc shape;
    gp_body_shape ball;
    gp_body_desc body;
    gp_emitter_desc sparks;
    gp_emitter emitter;
    gp_collider handle;
    uint32_t name, mine = 0, refused = 0, left = 0, user = 0, huge = 99, count;
    for (name = 1; name < NAMES; ++name) before[name] = glIsBuffer(name) != GL_FALSE;
    memset(&d, 0, sizeof d);
    d.max_particles = 4096;
    d.grid.cell_size = 0.04f;
    w = fixture_world(&d);
    if (!w) return;
    memset(&tank, 0, sizeof tank);
    tank.shape = GP_SHAPE_BOX; tank.inside = true;
    memcpy(tank.center, tank_center, sizeof tank_center);
    tank.half_extents[0] = tank.half_extents[1] = tank.half_extents[2] = 0.2f;
    CHECK(gp_collider_add(w, &tank, &handle) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, NULL) == GP_OK);
    memset(&shape, 0, sizeof shape);
    shape.shape = GP_SHAPE_SPHERE; shape.radius = 0.05f;
    CHECK(gp_body_shape_create(w, &shape, &ball) == GP_OK);
    memset(&body, 0, sizeof body);
    body.shape = ball; body.position[0] = 0.3f; body.position[1] = 0.3f; body.position[2] = 0.2f;
    CHECK(gp_bodies_add(w, &body, 1, NULL) == GP_OK);
    memset(&sparks, 0, sizeof sparks);
    sparks.position[0] = sparks.position[1] = sparks.position[2] = 0.2f;
    sparks.rate = 600.0f; sparks.lifetime[0] = 0.1f; sparks.speed[0] = 0.5f;
    CHECK(gp_emitter_add(w, &sparks, &emitter) == GP_OK);
    fixture_run(w, 3);
    CHECK(gp_buffer_create(w, 4 * 5000, NULL, &user) == GP_OK);
    CHECK(gp_scan_exclusive(w, user, user, 5000) == GP_OK);   /* the scan's sums */
    CHECK(gp_buffer_create(w, (size_t)-1, NULL, &huge) == GP_ERROR_GL_LIMITS && huge == 0 && fixture_logged_item(GP_LOG_ITEM_GL_LIMIT));
    for (name = 1; name < NAMES; ++name) {
        if (before[name] || name == user || !glIsBuffer(name)) continue;
        ++mine;
        refused += gp_buffer_destroy(w, name) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID);
    }
    CHECKF(mine >= 20 && refused == mine, "%u of the world's %u buffers refused", refused, mine);
    CHECK(gp_buffer_destroy(w, user) == GP_OK && !glIsBuffer(user));   /* the user's own goes */
    CHECK(gp_particle_count_read(w, &count) == GP_OK);
    fixture_run(w, 2);   /* still steps, without a GL error */
    CHECK(glGetError() == GL_NO_ERROR);
    gp_world_destroy(w);
    for (name = 1; name < NAMES; ++name) left += !before[name] && glIsBuffer(name);
    CHECKF(left == 0, "gp_world_destroy left %u buffers", left);
}

static void test_world_rejects_bad_desc(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    d = fixture_desc(NULL);
    d.grid.cell_size = -1.0f;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.cell_size = NAN;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    /* finite, but the default materials' masses would be 0 or infinite (1e-45: a sanitizer abort) */
    d.grid.cell_size = 1e-45f;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.cell_size = 1e-30f;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.cell_size = 1e30f;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.cell_size = 0.0f;
    d.grid.mode = GP_GRID_BOUNDED;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.dims[0] = d.grid.dims[1] = d.grid.dims[2] = 2000;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    d.grid.dims[0] = d.grid.dims[1] = d.grid.dims[2] = 4;
    d.grid.origin[1] = INFINITY;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    d.grid.origin[1] = 0.0f;
    d.grid.mode = (gp_grid_mode)7;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    d.grid.mode = GP_GRID_DEFAULT;
    d.allocator.free = NULL;
    d.allocator.alloc = NULL;
    d.allocator.user_data = &d;
    d.max_particles = 0x40000001u;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    /* larger than this GL's shader storage blocks (2^30 particles of 16 bytes) */
    d.max_particles = 0x40000000u;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_GL_LIMITS && fixture_logged_item(GP_LOG_ITEM_GL_LIMIT));
    CHECK(w == NULL);
    CHECK(gp_world_create(&d, NULL) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_world_create(NULL, &w) == GP_ERROR_INVALID_ARGUMENT);
    gp_world_destroy(NULL);   /* ignored, as documented */
    CHECK(gp_particle_count(NULL) == 0 && gp_world_last_result(NULL) == GP_ERROR_INVALID_ARGUMENT);
}

/* A shader that fails to compile reaches the logger with its name and the driver's log, each line's
   GLSL source number turned into the file it came from: the user's prelude, or the embedded file and
   its line (the header hands GL a #line per included range). */
static int line_of(const char* path, const char* text) {   /* 1-based line of text in path; 0: none */
    char line[4096];
    int n = 0;
    FILE* f = fopen(path, "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) { ++n; if (strstr(line, text)) { fclose(f); return n; } }
    fclose(f);
    return 0;
}
static void test_world_reports_shader_compile_errors(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    char where[128];
    int line = line_of("shaders_embedded/gp_common.glsl", "bool gp_finite(float x)");
    d = fixture_desc(NULL);
    d.shader_prelude = "this is not GLSL;";
    CHECK(gp_world_create(&d, &w) == GP_ERROR_SHADER_COMPILE && w == NULL);
    /* the first shader compiled names itself, and the driver's log names the prelude's line 1 */
    CHECKF(fixture_logged("shader body_particles.comp failed to compile") && fixture_logged("the shader_prelude of gp_world_desc:1: ") &&
           fixture_logged_item(GP_LOG_ITEM_SHADER_COMPILE), "log: %s", fixture_log);
    /* an error inside a snippet is reported at that snippet's own line */
    d.shader_prelude = "#define floatBitsToUint gp_no_such_function";
    CHECK(line > 0);
    snprintf(where, sizeof where, "shaders_embedded/gp_common.glsl:%d: ", line);
    CHECK(gp_world_create(&d, &w) == GP_ERROR_SHADER_COMPILE && w == NULL);
    CHECKF(fixture_logged(where) && fixture_logged_item(GP_LOG_ITEM_SHADER_COMPILE), "expected %s in log: %s", where, fixture_log);
    d.shader_prelude = "#define GP_TEST_PRELUDE 1";   /* a harmless prelude compiles */
    CHECK(gp_world_create(&d, &w) == GP_OK);
    gp_world_destroy(w);
}

typedef struct counting_allocator { long allocations, frees, fail_after; } counting_allocator;
static void* counting_alloc(size_t size, void* user) {
    counting_allocator* a = (counting_allocator*)user;
    if (a->fail_after >= 0 && a->allocations >= a->fail_after) return NULL;
    ++a->allocations;
    return malloc(size);
}
static void counting_free(void* p, void* user) {
    ++((counting_allocator*)user)->frees;
    free(p);
}

/* Every host allocation goes through the user's allocator and is given back; a failing one is
   reported. */
static void test_world_uses_the_allocator(void) {
    counting_allocator a = {0, 0, -1};
    gp_world_desc d;
    gp_world* w = NULL;
    gp_particles_desc pd;
    float xyz[6] = {0, 0, 0, 1, 1, 1};
    d = fixture_desc(NULL);
    d.allocator.alloc = counting_alloc;
    d.allocator.free = counting_free;
    d.allocator.user_data = &a;
    CHECK(gp_world_create(&d, &w) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 2;
    pd.positions = xyz;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    gp_world_destroy(w);
    CHECKF(a.allocations > 1 && a.allocations == a.frees, "%ld allocations, %ld frees", a.allocations, a.frees);
    a.allocations = a.frees = 0;
    a.fail_after = 0;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_OUT_OF_MEMORY && w == NULL);
    a.fail_after = 1;   /* the world, but not the staging of a batch */
    CHECK(gp_world_create(&d, &w) == GP_OK);
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_OUT_OF_MEMORY && gp_particle_count(w) == 0);
    gp_world_destroy(w);
    CHECK(a.allocations == a.frees);
    d.allocator.free = NULL;
    CHECK(gp_world_create(&d, &w) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ALLOCATOR_INVALID));
}

/* Adds round-trip exactly; bad batches are refused whole with a message naming the particle;
   a full store refuses a batch and keeps what it has. */
static void test_particles_add_read_write(void) {
    gp_world_desc d;
    gp_world* w;
    gp_particles_desc pd;
    float xyz[3 * 10], vel[3 * 10];
    uint32_t ids[10], i;
    gp_particle_position pos[10];
    gp_particle_velocity v[10];
    gp_particle_info info[10];
    gp_particle_life life[10];
    memset(&d, 0, sizeof d);
    d.max_particles = 16;
    w = fixture_world(&d);
    if (!w) return;
    for (i = 0; i < 30; ++i) { xyz[i] = (float)i * 0.1f; vel[i] = -(float)i; }
    memset(&pd, 0, sizeof pd);
    pd.count = 10;
    pd.positions = xyz;
    pd.velocities = vel;
    pd.kind = GP_KIND_GRANULAR;
    pd.phase = 65535;
    pd.owner = 0;
    pd.has_owner = true;
    pd.lifetime = 2.5f;
    pd.kind = GP_KIND_FLUID;   /* a fluid's phase is one of GP_MAX_FLUID_MATERIALS materials */
    CHECK(gp_particles_add(w, &pd, ids) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    pd.kind = GP_KIND_GRANULAR;   /* a grain's one of GP_MAX_GRANULAR_MATERIALS */
    CHECK(gp_particles_add(w, &pd, ids) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    pd.kind = GP_KIND_RIGID;      /* rigid particles come with bodies */
    CHECK(gp_particles_add(w, &pd, ids) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ATTRIBUTE_READ_ONLY));
    pd.kind = GP_KIND_EFFECT;     /* an effect's one of GP_MAX_EFFECT_MATERIALS (65,535 was clamped to the last) */
    CHECK(gp_particles_add(w, &pd, ids) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    pd.phase = GP_MAX_EFFECT_MATERIALS - 1;
    CHECK(gp_particles_add(w, &pd, ids) == GP_OK);
    CHECK(gp_particle_count(w) == 10 && gp_particle_capacity(w) == 16);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 10, pos) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 10, v) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 0, 10, info) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_LIFE, 0, 10, life) == GP_OK);
    for (i = 0; i < 10; ++i) {
        CHECK(ids[i] == i && info[i].id == i);
        CHECK(pos[i].x == xyz[3 * i] && pos[i].y == xyz[3 * i + 1] && pos[i].z == xyz[3 * i + 2] && pos[i].radius == 0.05f);
        CHECK(v[i].x == vel[3 * i] && v[i].z == vel[3 * i + 2] && v[i].mass == 1.0f);
        CHECK(info[i].kind == ((uint32_t)GP_KIND_EFFECT | (GP_MAX_EFFECT_MATERIALS - 1u) << 16) && info[i].owner == 0 && info[i].user == 0);
        CHECK(life[i].age == 0.0f && life[i].lifetime == 2.5f);
    }
    /* full: 10 of 16 live, 10 more refused, nothing added */
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_CAPACITY && fixture_logged_item(GP_LOG_ITEM_STORE_FULL));
    CHECK(gp_particle_count(w) == 10);
    /* bad values: refused whole, naming the particle */
    pd.count = 3;
    xyz[4] = NAN;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    xyz[4] = 0.0f;
    vel[8] = INFINITY;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    vel[8] = 0.0f;
    pd.radius = -1.0f;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    pd.radius = 0.0f;
    pd.kind = (gp_kind)42;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    pd.kind = GP_KIND_DEFAULT;
    pd.phase = 70000;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_PHASE_INVALID));
    pd.phase = 0;
    pd.lifetime = -1.0f;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    pd.lifetime = 0.0f;
    pd.positions = NULL;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NULL));
    CHECK(gp_particles_add(w, NULL, NULL) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_particle_count(w) == 10);
    /* exactly full is fine, with default kind and owner */
    pd.positions = xyz;
    pd.count = 6;
    pd.has_owner = false;
    CHECK(gp_particles_add(w, &pd, ids) == GP_OK && gp_particle_count(w) == 16 && ids[5] == 15);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_INFO, 15, 1, info) == GP_OK);
    CHECK(info[0].kind == (uint32_t)GP_KIND_EFFECT && info[0].owner == GP_NO_OWNER);
    pd.count = 1;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_CAPACITY);
    /* read and write ranges and attributes */
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 10, 7, pos) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_SLOTS_NOT_LIVE));
    CHECK(gp_particles_read(w, (gp_attribute)0, 0, 1, pos) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 1, NULL) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_INFO, 0, 1, info) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ATTRIBUTE_READ_ONLY));
    pos[0].x = 7.0f; pos[0].radius = 0.2f;
    pos[1].y = NAN;
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_POSITION, 3, 2, pos) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_NOT_FINITE));
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_POSITION, 3, 1, pos) == GP_OK);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 3, 1, pos + 5) == GP_OK && pos[5].x == 7.0f && pos[5].radius == 0.2f);
    v[0].mass = 0.0f;
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_VELOCITY, 0, 1, v) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    life[0].age = -1.0f;
    CHECK(gp_particles_write(w, GP_ATTRIBUTE_LIFE, 0, 1, life) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_attribute_size(GP_ATTRIBUTE_LIFE) == 8 && gp_attribute_size((gp_attribute)9) == 0);
    gp_world_destroy(w);
}

/* With gpu_timings, each stage's GPU time is recorded; without, nothing is. */
static void test_timings_record_stages(void) {
    gp_world_desc d;
    gp_world* w;
    gp_particles_desc pd;
    gp_timing t[32];
    float xyz[3 * 100];
    uint32_t i, n, found = 0;
    memset(&d, 0, sizeof d);
    d.gpu_timings = true;
    w = fixture_world(&d);
    if (!w) return;
    for (i = 0; i < 300; ++i) xyz[i] = (float)(i % 17) * 0.03f;
    memset(&pd, 0, sizeof pd);
    pd.count = 100;
    pd.positions = xyz;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);
    n = gp_timings_read(w, t, 32);   /* the add's stages: store_append, store_count; the read resets */
    CHECKF(n == 2 && t[0].runs == 1 && t[1].runs == 1, "the add recorded %u stages", n);
    CHECK(gp_grid_build(w) == GP_OK);
    CHECK(gp_grid_build(w) == GP_OK);
    n = gp_timings_read(w, NULL, 0);
    CHECK(n == 4);   /* the build's stages: grid_count, grid_scan, grid_order (each cell by id: the default), grid_reorder */
    CHECK(gp_timings_read(w, t, 32) == n);
    for (i = 0; i < n; ++i) {
        found += strcmp(t[i].stage, "grid_count") == 0 || strcmp(t[i].stage, "grid_scan") == 0 ||
                 strcmp(t[i].stage, "grid_order") == 0 || strcmp(t[i].stage, "grid_reorder") == 0;
        CHECKF(t[i].runs == 2 && t[i].milliseconds >= 0.0, "%s: %u runs, %g ms", t[i].stage, t[i].runs, t[i].milliseconds);
    }
    CHECK(found == 4);
    CHECK(gp_timings_read(w, NULL, 0) == 0);   /* read resets */
    gp_world_destroy(w);
    d.gpu_timings = false;
    w = fixture_world(&d);
    if (!w) return;
    CHECK(gp_grid_build(w) == GP_OK && gp_timings_read(w, t, 32) == 0);
    gp_world_destroy(w);
}

/* A grain or a fluid particle added without a radius or a mass takes its material's: half the
   grain's diameter or the fluid's spacing, and for a grain its material's density times the
   sphere of its own radius (4/3 pi r^3 rho, computed here in double); a given mass is kept; a
   radius whose sphere's mass is no float is refused; effects keep half a cell and 1 kg. */
static void test_particles_take_their_material(void) {
    gp_world* w = fixture_grid_world(64, 0.1f, 0);
    gp_granular_material g;
    gp_fluid_material f;
    gp_particles_desc pd;
    float xyz[9] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f}, radii[3] = {0.01f, 0.02f, 0.035f}, huge[3] = {1e20f, 0.01f, 0.01f};
    gp_particle_position pos[12];
    gp_particle_velocity v[12];
    int k;
    if (!w) return;
    memset(&g, 0, sizeof g); g.diameter = 0.06f; g.density = 1500.0f;
    memset(&f, 0, sizeof f); f.spacing = 0.04f;
    CHECK(gp_granular_material_set(w, 2, &g) == GP_OK && gp_granular_material_get(w, 2, &g) == GP_OK);
    CHECK(gp_fluid_material_set(w, 1, &f) == GP_OK && gp_fluid_material_get(w, 1, &f) == GP_OK);
    memset(&pd, 0, sizeof pd);
    pd.count = 3; pd.positions = xyz; pd.kind = GP_KIND_GRANULAR; pd.phase = 2;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);   /* slots 0-2: the material's grain */
    pd.radii = radii;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);   /* 3-5: their own radii, the material's density */
    pd.radii = NULL; pd.mass = 0.25f;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);   /* 6-8: a given mass */
    pd.mass = 0.0f; pd.kind = GP_KIND_FLUID; pd.phase = 1;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_OK);   /* 9-11: the fluid's particle */
    pd.kind = GP_KIND_GRANULAR; pd.phase = 2; pd.radii = huge;
    CHECK(gp_particles_add(w, &pd, NULL) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE) &&
          fixture_logged("grain 0") && gp_particle_count(w) == 12);
    CHECK(gp_particles_read(w, GP_ATTRIBUTE_POSITION, 0, 12, pos) == GP_OK && gp_particles_read(w, GP_ATTRIBUTE_VELOCITY, 0, 12, v) == GP_OK);
    for (k = 0; k < 3; ++k) {
        double sphere = 4.0 / 3.0 * 3.14159265358979 * pow(radii[k], 3.0) * 1500.0;
        CHECKF(pos[k].radius == 0.03f && fabs(v[k].mass - g.mass) <= 1e-6 * g.mass, "grain %d: radius %g, mass %g (material %g)", k, pos[k].radius, v[k].mass, g.mass);
        CHECKF(pos[3 + k].radius == radii[k] && fabs(v[3 + k].mass - sphere) <= 1e-6 * sphere, "grain %d: mass %g, its sphere's %g", 3 + k, v[3 + k].mass, sphere);
        CHECK(pos[6 + k].radius == 0.03f && v[6 + k].mass == 0.25f);
        CHECKF(pos[9 + k].radius == 0.02f && v[9 + k].mass == f.mass, "fluid particle: radius %g mass %g (material %g)", pos[9 + k].radius, v[9 + k].mass, f.mass);
    }
    CHECK(fabs(g.mass - 4.0 / 3.0 * 3.14159265358979 * 0.03 * 0.03 * 0.03 * 1500.0) <= 1e-6 * g.mass);
    gp_world_destroy(w);
}

const gp_test_case world_tests[] = {
    {"world_defaults", test_world_defaults},
    {"result_and_log_item_strings_are_distinct", test_result_strings_are_distinct},
    {"world_refuses_old_context", test_world_refuses_old_context},
    {"world_needs_a_current_context", test_world_needs_a_current_context},
    {"world_reports_missing_entry_point", test_world_reports_missing_entry_point},
    {"world_loader_fallback", test_world_loader_fallback},
    {"world_rejects_bad_desc", test_world_rejects_bad_desc},
    {"world_hostile_input", test_world_hostile_input},
    {"world_keeps_every_buffer_it_made", test_world_keeps_every_buffer_it_made},
    {"world_reports_shader_compile_errors", test_world_reports_shader_compile_errors},
    {"world_uses_the_allocator", test_world_uses_the_allocator},
    {"particles_add_read_write", test_particles_add_read_write},
    {"particles_take_their_material", test_particles_take_their_material},
    {"timings_record_stages", test_timings_record_stages},
};
const int world_test_count = (int)(sizeof world_tests / sizeof world_tests[0]);
