/* test_driver.c: what a vendor's driver may do that Mesa's llvmpipe never shows.
 *
 * GL orders a pass's shader writes before a later glBufferSubData (glMemoryBarrier's
 * GL_BUFFER_UPDATE_BARRIER_BIT), but not its reads: a driver may write the new data while a
 * dispatch sent earlier has still to read the old. llvmpipe runs every dispatch to its end before
 * the next command, so the hazard is invisible here; NVIDIA's driver (580, on an H100) showed it:
 * a particle add's second chunk overwrote the staging that the first chunk's store_append had yet
 * to read, and 70 tests failed there that pass here. The library now sends every host upload
 * through fresh storage and a copy in command order (gp__buffer_upload).
 *
 * Fresh storage for the same buffer (glBufferData again) did not hold there either: 400 adds of
 * one particle, each staging the same 64 bytes, had 21 store_appends read the next add's data
 * (each such particle lost and its neighbour in the store twice; effects_against_cpu failed), and
 * a million grains staged in equal chunks alike. Every upload now takes a buffer of its own.
 *
 * The test watches the GL calls themselves through the loader (gp_world_desc.get_proc_address):
 * a buffer that any dispatch or draw had bound, as storage or uniform block, is "in flight"; a
 * host write into one (glBufferSubData, glMapBufferRange for writing, glMapBuffer) is the hazard,
 * and so is a second glBufferData on any buffer name before it is deleted. A workload of every
 * system (fluid, grains, bodies, colliders, an emitter, removals, writes, material changes, adds of
 * one particle, steps) must make none; the test writes into a world buffer itself, and specifies
 * one twice, through the same watched entry points to show that the watch sees both. */
#include "fixture.h"
#include <EGL/egl.h>
#include <stdio.h>

#define WATCH_NAMES 65536
#define WATCH_BINDINGS 16
typedef void (*watch_proc)(void);
typedef void (*bind_base_fn)(GLenum, GLuint, GLuint);
typedef void (*bind_fn)(GLenum, GLuint);
typedef void (*buffer_data_fn)(GLenum, GLsizeiptr, const void*, GLenum);
typedef void (*delete_buffers_fn)(GLsizei, const GLuint*);
typedef void (*buffer_sub_data_fn)(GLenum, GLintptr, GLsizeiptr, const void*);
typedef void* (*map_range_fn)(GLenum, GLintptr, GLsizeiptr, GLbitfield);
typedef void* (*map_fn)(GLenum, GLenum);
typedef void (*dispatch_fn)(GLuint, GLuint, GLuint);
typedef void (*dispatch_indirect_fn)(GLintptr);
typedef void (*draw_arrays_fn)(GLenum, GLint, GLsizei);
typedef void (*draw_arrays_indirect_fn)(GLenum, const void*);
typedef void (*draw_elements_fn)(GLenum, GLsizei, GLenum, const void*);
typedef void (*draw_elements_instanced_fn)(GLenum, GLsizei, GLenum, const void*, GLsizei);
typedef void (*draw_arrays_instanced_fn)(GLenum, GLint, GLsizei, GLsizei);

static struct {
    bind_base_fn bind_base;
    bind_fn bind;
    buffer_data_fn buffer_data;
    delete_buffers_fn delete_buffers;
    buffer_sub_data_fn buffer_sub_data;
    map_range_fn map_range;
    map_fn map;
    dispatch_fn dispatch;
    dispatch_indirect_fn dispatch_indirect;
    draw_arrays_fn draw_arrays;
    draw_arrays_indirect_fn draw_arrays_indirect;
    draw_elements_fn draw_elements;
    draw_elements_instanced_fn draw_elements_instanced;
    draw_arrays_instanced_fn draw_arrays_instanced;
    GLuint storage[WATCH_BINDINGS], uniform[WATCH_BINDINGS];   /* what each binding point holds */
    GLuint copy_write, copy_read, shader_storage, uniform_target, array, element, indirect, dispatch_target;
    unsigned char in_flight[WATCH_NAMES], specified[WATCH_NAMES];
    uint32_t hazards, host_writes, dispatches, respecified, specifications, unwatched;
    GLuint first_hazard, first_respecified;
} watch;

static GLuint* watch_target(GLenum target) {
    switch (target) {
    case GL_COPY_WRITE_BUFFER: return &watch.copy_write;
    case GL_COPY_READ_BUFFER: return &watch.copy_read;
    case GL_SHADER_STORAGE_BUFFER: return &watch.shader_storage;
    case GL_UNIFORM_BUFFER: return &watch.uniform_target;
    case GL_ARRAY_BUFFER: return &watch.array;
    case GL_ELEMENT_ARRAY_BUFFER: return &watch.element;
    case GL_DRAW_INDIRECT_BUFFER: return &watch.indirect;
    case GL_DISPATCH_INDIRECT_BUFFER: return &watch.dispatch_target;
    default: return NULL;
    }
}

static void watch_mark_bound(void) {
    int b;
    ++watch.dispatches;
    for (b = 0; b < WATCH_BINDINGS; ++b) {
        if (watch.storage[b] < WATCH_NAMES) watch.in_flight[watch.storage[b]] = 1;
        if (watch.uniform[b] < WATCH_NAMES) watch.in_flight[watch.uniform[b]] = 1;
    }
    if (watch.dispatch_target < WATCH_NAMES) watch.in_flight[watch.dispatch_target] = 1;
    if (watch.indirect < WATCH_NAMES) watch.in_flight[watch.indirect] = 1;
    watch.in_flight[0] = 0;
}

static void watch_host_write(GLenum target) {
    GLuint* t = watch_target(target);
    GLuint name = t ? *t : 0;
    ++watch.host_writes;
    if (name && name < WATCH_NAMES && watch.in_flight[name]) {
        if (!watch.hazards++) watch.first_hazard = name;
    }
}

static void watch_bind_base(GLenum target, GLuint index, GLuint buffer) {
    if (index < WATCH_BINDINGS && target == GL_SHADER_STORAGE_BUFFER) watch.storage[index] = buffer;
    if (index < WATCH_BINDINGS && target == GL_UNIFORM_BUFFER) watch.uniform[index] = buffer;
    GLuint* t = watch_target(target);
    if (t) *t = buffer;   /* glBindBufferBase binds the generic point too */
    watch.bind_base(target, index, buffer);
}
static void watch_bind(GLenum target, GLuint buffer) {
    GLuint* t = watch_target(target);
    if (t) *t = buffer;
    watch.bind(target, buffer);
}
static void watch_buffer_data(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
    GLuint* t = watch_target(target);
    ++watch.specifications;
    if (t && *t >= WATCH_NAMES) ++watch.unwatched;
    if (t && *t && *t < WATCH_NAMES) {
        if (watch.specified[*t] && !watch.respecified++) watch.first_respecified = *t;
        watch.specified[*t] = 1;
        watch.in_flight[*t] = 0;
    }
    watch.buffer_data(target, size, data, usage);
}
static void watch_delete_buffers(GLsizei n, const GLuint* names) {
    GLsizei i;
    for (i = 0; i < n; ++i)
        if (names[i] < WATCH_NAMES) watch.specified[names[i]] = watch.in_flight[names[i]] = 0;
    watch.delete_buffers(n, names);
}
static void watch_buffer_sub_data(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
    watch_host_write(target);
    watch.buffer_sub_data(target, offset, size, data);
}
static void* watch_map_range(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
    if (access & GL_MAP_WRITE_BIT) watch_host_write(target);
    return watch.map_range(target, offset, length, access);
}
static void* watch_map(GLenum target, GLenum access) {
    if (access != GL_READ_ONLY) watch_host_write(target);
    return watch.map(target, access);
}
static void watch_dispatch(GLuint x, GLuint y, GLuint z) { watch_mark_bound(); watch.dispatch(x, y, z); }
static void watch_dispatch_indirect(GLintptr offset) { watch_mark_bound(); watch.dispatch_indirect(offset); }
static void watch_draw_arrays(GLenum mode, GLint first, GLsizei count) { watch_mark_bound(); watch.draw_arrays(mode, first, count); }
static void watch_draw_arrays_indirect(GLenum mode, const void* at) { watch_mark_bound(); watch.draw_arrays_indirect(mode, at); }
static void watch_draw_elements(GLenum mode, GLsizei count, GLenum type, const void* at) {
    watch_mark_bound();
    watch.draw_elements(mode, count, type, at);
}
static void watch_draw_elements_instanced(GLenum mode, GLsizei count, GLenum type, const void* at, GLsizei n) {
    watch_mark_bound();
    watch.draw_elements_instanced(mode, count, type, at, n);
}
static void watch_draw_arrays_instanced(GLenum mode, GLint first, GLsizei count, GLsizei n) {
    watch_mark_bound();
    watch.draw_arrays_instanced(mode, first, count, n);
}

/* The loader: the real entry point, or the watch in front of it (the real one kept). */
#define WATCH_ENTRY(gl_name, field, wrapper, type) \
    if (strcmp(name, gl_name) == 0) { watch.field = (type)real; return (gp_proc)(void (*)(void))wrapper; }
static gp_proc watch_loader(const char* name) {
    gp_proc real = (gp_proc)eglGetProcAddress(name);
    if (!real) return real;
    WATCH_ENTRY("glBindBufferBase", bind_base, watch_bind_base, bind_base_fn)
    WATCH_ENTRY("glBindBuffer", bind, watch_bind, bind_fn)
    WATCH_ENTRY("glBufferData", buffer_data, watch_buffer_data, buffer_data_fn)
    WATCH_ENTRY("glDeleteBuffers", delete_buffers, watch_delete_buffers, delete_buffers_fn)
    WATCH_ENTRY("glBufferSubData", buffer_sub_data, watch_buffer_sub_data, buffer_sub_data_fn)
    WATCH_ENTRY("glMapBufferRange", map_range, watch_map_range, map_range_fn)
    WATCH_ENTRY("glMapBuffer", map, watch_map, map_fn)
    WATCH_ENTRY("glDispatchCompute", dispatch, watch_dispatch, dispatch_fn)
    WATCH_ENTRY("glDispatchComputeIndirect", dispatch_indirect, watch_dispatch_indirect, dispatch_indirect_fn)
    WATCH_ENTRY("glDrawArrays", draw_arrays, watch_draw_arrays, draw_arrays_fn)
    WATCH_ENTRY("glDrawArraysIndirect", draw_arrays_indirect, watch_draw_arrays_indirect, draw_arrays_indirect_fn)
    WATCH_ENTRY("glDrawElements", draw_elements, watch_draw_elements, draw_elements_fn)
    WATCH_ENTRY("glDrawElementsInstanced", draw_elements_instanced, watch_draw_elements_instanced, draw_elements_instanced_fn)
    WATCH_ENTRY("glDrawArraysInstanced", draw_arrays_instanced, watch_draw_arrays_instanced, draw_arrays_instanced_fn)
    return real;
}

/* Every system's uploads between dispatches: none may write host data into a buffer in flight. */
static void test_driver_no_host_write_in_flight(void) {
    gp_world_desc d;
    gp_world* w = NULL;
    gp_step_desc step;
    gp_collider_desc ball;
    gp_collider collider;
    gp_emitter_desc spray;
    gp_emitter emitter;
    gp_fluid_material water;
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.2f, 0.1f, 0.2f};
    const float sand_lo[3] = {0.05f, 0.15f, 0.05f}, sand_hi[3] = {0.1f, 0.2f, 0.1f};
    const float gravity[3] = {0.0f, -9.81f, 0.5f};
    const float box_half[3] = {0.02f, 0.02f, 0.02f}, box_at[3] = {0.15f, 0.2f, 0.05f};
    uint32_t ids[8] = {0, 1, 2, 3, 4, 5, 6, 7}, count, frame, k, buffer = 0;
    gp_particle_velocity v = {0.1f, 0.2f, 0.3f, 0.001f};
    float word = 1.0f;

    memset(&watch, 0, sizeof watch);
    memset(&d, 0, sizeof d);
    d.max_particles = 20000;
    d.get_proc_address = watch_loader;
    d = fixture_desc(&d);
    CHECK(gp_world_create(&d, &w) == GP_OK);
    if (!w) return;
    memset(&ball, 0, sizeof ball);
    ball.shape = GP_SHAPE_SPHERE;
    ball.center[0] = 0.15f; ball.center[1] = 0.05f; ball.center[2] = 0.15f;
    ball.radius = 0.03f;
    CHECK(gp_collider_add(w, &ball, &collider) == GP_OK);
    CHECK(gp_fluid_add_block(w, 0, lo, hi, NULL, NULL) == GP_OK);
    CHECK(gp_granular_add_block(w, 0, sand_lo, sand_hi, NULL, NULL) == GP_OK);
    fixture_box_body(w, 0, box_half, box_at, NULL, NULL, NULL);
    memset(&spray, 0, sizeof spray);
    spray.shape = GP_EMITTER_SPHERE;
    spray.position[1] = 0.3f;
    spray.radius = 0.01f;
    spray.speed[0] = 1.0f;
    spray.lifetime[0] = 0.05f;
    spray.rate = 600.0f;
    CHECK(gp_emitter_add(w, &spray, &emitter) == GP_OK);
    memset(&step, 0, sizeof step);
    step.dt = 1.0f / 60.0f;
    step.substeps = 2;
    for (frame = 0; frame < 6; ++frame) {   /* between the steps, everything a frame may change */
        CHECK(gp_world_step(w, &step) == GP_OK);
        CHECK(gp_gravity_set(w, gravity) == GP_OK);
        CHECK(gp_fluid_material_get(w, 0, &water) == GP_OK);
        water.viscosity *= 1.5f;
        CHECK(gp_fluid_material_set(w, 0, &water) == GP_OK);
        CHECK(gp_particles_write(w, GP_ATTRIBUTE_VELOCITY, frame, 1, &v) == GP_OK);
        CHECK(gp_particles_remove(w, ids + frame, 1) == GP_OK);
        ball.center[0] += 0.002f;
        CHECK(gp_collider_remove(w, collider) == GP_OK);
        CHECK(gp_collider_add(w, &ball, &collider) == GP_OK);
        CHECK(gp_emitter_burst(w, emitter, 10) == GP_OK);
        for (k = 0; k < 5; ++k) {   /* one particle an add, the same bytes staged each time */
            gp_particles_desc one;
            float at[3] = {0.02f * (float)k, 0.25f, 0.01f * (float)frame};
            memset(&one, 0, sizeof one);
            one.count = 1;
            one.positions = at;
            CHECK(gp_particles_add(w, &one, NULL) == GP_OK);
        }
    }
    CHECK(gp_particle_count_read(w, &count) == GP_OK && count > 0);
    CHECK(gp_buffer_create(w, 64, NULL, &buffer) == GP_OK);
    CHECK(gp_buffer_write(w, buffer, 0, 4, &word) == GP_OK);
    CHECK(gp_world_step(w, &step) == GP_OK);
    CHECKF(watch.dispatches > 100, "the watch saw %u dispatches: it is not in front of the library", watch.dispatches);
    CHECKF(watch.hazards == 0, "%u host writes (of %u) went into a buffer a dispatch sent earlier may still read (first: buffer %u)",
           watch.hazards, watch.host_writes, watch.first_hazard);
    CHECKF(watch.respecified == 0, "%u of %u glBufferData gave a buffer that had storage new storage (first: buffer %u)",
           watch.respecified, watch.specifications, watch.first_respecified);
    CHECKF(watch.unwatched == 0 && watch.specifications > 100, "the watch saw %u glBufferData, %u of them on names past its table",
           watch.specifications, watch.unwatched);

    /* The watch sees one: a host write into the positions, which the steps read. */
    {
        gp_buffers buffers = gp_world_buffers(w);
        if (!watch.buffer_sub_data)   /* the library no longer loads it */
            watch.buffer_sub_data = (buffer_sub_data_fn)eglGetProcAddress("glBufferSubData");
        watch.bind(GL_COPY_WRITE_BUFFER, buffers.position);
        watch.copy_write = buffers.position;
        watch_buffer_sub_data(GL_COPY_WRITE_BUFFER, 0, 4, &word);
        watch.bind(GL_COPY_WRITE_BUFFER, 0);
        watch.copy_write = 0;
        CHECKF(watch.hazards == 1, "a write into the positions after the steps went unseen (%u hazards)", watch.hazards);
        watch.bind(GL_COPY_WRITE_BUFFER, buffer);   /* and new storage for a buffer that has some */
        watch.copy_write = buffer;
        watch_buffer_data(GL_COPY_WRITE_BUFFER, 64, NULL, GL_DYNAMIC_COPY);
        watch.bind(GL_COPY_WRITE_BUFFER, 0);
        watch.copy_write = 0;
        CHECKF(watch.respecified == 1, "new storage for a buffer that had some went unseen (%u)", watch.respecified);
    }
    gp_buffer_destroy(w, buffer);
    gp_world_destroy(w);
}

const gp_test_case driver_tests[] = {
    {"driver_no_host_write_in_flight", test_driver_no_host_write_in_flight},
};
const int driver_test_count = (int)(sizeof driver_tests / sizeof driver_tests[0]);
