/* hostile.c: the whole API against hostile input (`make hostile`, not part of `make test`).
   Small worlds take random calls of every kind (fluid, grains, bodies, pours, emitters,
   colliders with meshes and height fields, forces, gravity, wind, writes and removals, steps with
   random dt, substeps and integrators, the primitives on random GL names and sizes), their values
   drawn now and then from NaN, infinities, 1e30, -0, 1e-30, zero and negative ones, unknown enum
   values and sizes near SIZE_MAX. After every call it checks what the library promises: a refusal
   carries a log message, no call reports a GL error, no call runs past an alarm, and every 25
   calls gp_particles_check finds no particle misplaced. --count leaves out what gives birth or
   death on its own (lifetimes, emitters, pours) and checks the exact particle count after every
   call: no particle is ever lost. Build it with the sanitizers to look for memory errors too
   (HOSTILE_CFLAGS="-O0 -g -fsanitize=address,undefined"). Prints each failure and a closing line;
   exits 1 on any failure.

     build/hostile [--seed N] [--worlds N] [--calls N] [--hostile PERCENT] [--count] [--alarm S]

   Found on its first runs (2026-11-29): gp_buffer_destroy deleting a buffer of the world's inside,
   gp_buffer_create passing a size above 2^63 to GL, a crowd clamped into a bounded grid's border
   cells slowing every step in silence, gp_fluid_preset_material refusing without a word. */
#define _POSIX_C_SOURCE 200809L
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include "gp_egl.h"
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static char hostile_last[1024];
static const char* hostile_call = "";
static long hostile_index;

static void hostile_logger(gp_log_level level, gp_log_item item, const char* message, void* user_data) {
    (void)item; (void)user_data;
    if (level == GP_LOG_INFO) return;
    ++hostile_logs;
    snprintf(hostile_last, sizeof hostile_last, "%s", message);
}
static void hostile_alarm(int signal_number) {
    (void)signal_number;
    fprintf(stderr, "FAIL call %ld (%s): still running at the alarm\n", hostile_index, hostile_call);
    _exit(1);
}
static void hostile_fail(const char* what) {
    ++hostile_failures;
    fprintf(stderr, "FAIL call %ld (%s): %s\n", hostile_index, hostile_call, what);
}
/* Checks one call's result; `logged` is the log count before it. */
static gp_result hostile_check(gp_result r, int logged) {
    char what[1200];
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
    case 1: HOSTILE(gp_boundary_distance(h->world, points, n, distances)); break;
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

/* ---- the run --------------------------------------------------------------------------------- */

static void hostile_audit(hostile_world* h) {
    uint32_t misplaced = 0;
    char what[128];
    if (HOSTILE(gp_particles_check(h->world, &misplaced)) == GP_OK && misplaced) {
        snprintf(what, sizeof what, "%u particles misplaced in the store", misplaced);
        hostile_fail(what);
    }
}

static void hostile_world_run(long calls, bool counting, unsigned alarm_seconds) {
    typedef void (*hostile_op)(hostile_world*);
    static const hostile_op ops[] = {hostile_fluid, hostile_fluid, hostile_fluid_material, hostile_grains, hostile_bodies,
                                     hostile_particles, hostile_slots, hostile_remove, hostile_collider, hostile_births,
                                     hostile_forces, hostile_step, hostile_step, hostile_step, hostile_buffers};
    hostile_world h;
    gp_world_desc d;
    memset(&h, 0, sizeof h);
    memset(&d, 0, sizeof d);
    d.max_particles = h.capacity = 2000u + hostile_random() % 6000u;
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
    h.counting = counting;
    if (gp_world_create(&d, &h.world) != GP_OK) {
        hostile_fail(hostile_last);
        return;
    }
    for (hostile_index = 0; hostile_index < calls; ++hostile_index) {
        uint32_t before = 0, after = 0;
        hostile_op op = ops[hostile_random() % (sizeof ops / sizeof ops[0])];
        if (counting && (op == hostile_remove || op == hostile_buffers)) op = hostile_step;   /* removals and raw writes change the count */
        if (counting) gp_particle_count_read(h.world, &before);
        h.added = 0;
        alarm(alarm_seconds);
        op(&h);
        alarm(0);
        if (counting && gp_particle_count_read(h.world, &after) == GP_OK && after != before + h.added) {
            char what[128];
            snprintf(what, sizeof what, "the count went from %u to %u with %u added", before, after, h.added);
            hostile_fail(what);
        }
        if (hostile_index % 25 == 24) hostile_audit(&h);
    }
    if (!hostile_quiet) fprintf(stderr, "world: %u particles, %d bodies, %d colliders\n", gp_particle_count(h.world), h.body_count, h.collider_count);
    gp_world_destroy(h.world);
}

int main(int argc, char** argv) {
    gp_egl egl;
    long calls = 150;
    int worlds = 2, i;
    unsigned alarm_seconds = 300;
    bool counting = false;
    for (i = 1; i < argc; ++i) {
        const char* value = i + 1 < argc ? argv[i + 1] : "0";
        if (!strcmp(argv[i], "--seed")) { hostile_state = strtoull(value, NULL, 10) * 2654435761ull + 1u; ++i; }
        else if (!strcmp(argv[i], "--worlds")) { worlds = atoi(value); ++i; }
        else if (!strcmp(argv[i], "--calls")) { calls = atol(value); ++i; }
        else if (!strcmp(argv[i], "--hostile")) { hostile_percent = atoi(value); ++i; }
        else if (!strcmp(argv[i], "--alarm")) { alarm_seconds = (unsigned)atoi(value); ++i; }
        else if (!strcmp(argv[i], "--count")) counting = true;
        else if (!strcmp(argv[i], "--quiet")) hostile_quiet = 1;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--worlds N] [--calls N] [--hostile PERCENT] [--count] [--alarm S] [--quiet]\n", argv[0]);
            return 2;
        }
    }
    if (!hostile_state) hostile_state = 1u;
    signal(SIGALRM, hostile_alarm);
    if (gp_egl_open(&egl, 4, 3)) return 2;
    for (i = 0; i < worlds; ++i) hostile_world_run(calls, counting, alarm_seconds);
    gp_egl_close(&egl);
    printf("%d worlds of %ld calls, %d%% hostile%s: %d failures\n", worlds, calls, hostile_percent, counting ? ", counted" : "",
           hostile_failures);
    return hostile_failures != 0;
}
