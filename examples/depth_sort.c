/* depth_sort.c: sorting particles by view depth on the GPU and drawing them back to front,
   straight from the library's buffers (UberFlow's depth sort, paper 002, section 4).

   Translucent particles blend correctly only when drawn far to near. Each frame a tiny compute
   shader of ours writes (depth key, slot) pairs for the camera, gp_sort_pairs sorts them, and
   the sorted slots serve as the index buffer of one glDrawElements that reads positions from the
   particle store's SSBO. Nothing comes back to the CPU.

   Run: make demo, or build/examples/depth_sort [--headless --frames N --out DIR]. Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include <math.h>

#define PARTICLES 40000

/* depth key = the view depth's bits made sortable as unsigned (gp_float_sort_key in GLSL) */
static const char* key_shader =
    "#version 430 core\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer P { vec4 position[]; };\n"
    "layout(std430, binding = 1) writeonly buffer K { uint keys[]; };\n"
    "layout(std430, binding = 2) writeonly buffer V { uint slots[]; };\n"
    "uniform vec3 eye; uniform vec3 forward; uniform uint count;\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i >= count) return;\n"
    "    uint bits = floatBitsToUint(dot(position[i].xyz - eye, forward));\n"
    "    keys[i] = (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;\n"
    "    slots[i] = i;\n"
    "}\n";

static const char* vertex_shader =
    "#version 430 core\n"
    "layout(std430, binding = 0) readonly buffer P { vec4 position[]; };\n"
    "uniform mat4 view_projection; uniform float pixels_per_metre;\n"
    "out vec3 colour;\n"
    "void main() {\n"
    "    vec4 p = position[gl_VertexID];\n"   /* gl_VertexID is the sorted slot from the index buffer */
    "    gl_Position = view_projection * vec4(p.xyz, 1.0);\n"
    "    gl_PointSize = max(2.0, p.w * pixels_per_metre / gl_Position.w);\n"
    "    float t = clamp(length(p.xz) / 1.2, 0.0, 1.0);\n"
    "    colour = mix(vec3(1.0, 0.85, 0.5), vec3(0.25, 0.45, 1.0), t);\n"
    "}\n";

static const char* fragment_shader =
    "#version 430 core\n"
    "in vec3 colour; out vec4 result;\n"
    "void main() {\n"
    "    float r = length(gl_PointCoord - 0.5) * 2.0;\n"
    "    if (r > 1.0) discard;\n"
    "    result = vec4(colour * (1.2 - 0.6 * r), 0.35 * (1.0 - r * r));\n"
    "}\n";

/* A two-armed spiral of particles, a few metres across. */
static void make_galaxy(float* xyz, float* radii, uint32_t n) {
    uint32_t i;
    uint64_t s = 12345;
    for (i = 0; i < n; ++i) {
        float u, v, w, arm, r, angle;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; u = (float)(s % 100000) / 100000.0f;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; v = (float)(s % 100000) / 100000.0f - 0.5f;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; w = (float)(s % 100000) / 100000.0f - 0.5f;
        arm = (float)(i % 2) * 3.14159265f;
        r = 0.1f + 1.3f * u;
        angle = arm + 2.6f * r + 0.35f * v;
        xyz[3 * i + 0] = r * cosf(angle);
        xyz[3 * i + 1] = 0.12f * w * (1.5f - r);
        xyz[3 * i + 2] = r * sinf(angle);
        radii[i] = 0.012f + 0.02f * (1.0f - u);
    }
}

/* Column-major perspective * look-at, enough for an orbiting camera. */
static void view_projection(float out[16], const float eye[3], const float forward[3], float aspect) {
    const float up[3] = {0.0f, 1.0f, 0.0f};
    float side[3] = {forward[1] * up[2] - forward[2] * up[1], forward[2] * up[0] - forward[0] * up[2], forward[0] * up[1] - forward[1] * up[0]};
    float l = sqrtf(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]), u[3], f = 1.0f / tanf(0.5f * 0.9f);
    float near_ = 0.05f, far_ = 20.0f, view[16], proj[16];
    int r, c, k;
    side[0] /= l; side[1] /= l; side[2] /= l;
    u[0] = side[1] * forward[2] - side[2] * forward[1];
    u[1] = side[2] * forward[0] - side[0] * forward[2];
    u[2] = side[0] * forward[1] - side[1] * forward[0];
    memset(view, 0, sizeof view);
    memset(proj, 0, sizeof proj);
    for (k = 0; k < 3; ++k) { view[4 * k + 0] = side[k]; view[4 * k + 1] = u[k]; view[4 * k + 2] = -forward[k]; }
    view[12] = -(side[0] * eye[0] + side[1] * eye[1] + side[2] * eye[2]);
    view[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    view[14] = forward[0] * eye[0] + forward[1] * eye[1] + forward[2] * eye[2];
    view[15] = 1.0f;
    proj[0] = f / aspect; proj[5] = f; proj[10] = (far_ + near_) / (near_ - far_); proj[11] = -1.0f;
    proj[14] = 2.0f * far_ * near_ / (near_ - far_);
    for (c = 0; c < 4; ++c)
        for (r = 0; r < 4; ++r) {
            out[4 * c + r] = 0.0f;
            for (k = 0; k < 4; ++k) out[4 * c + r] += proj[4 * k + r] * view[4 * c + k];
        }
}

int main(int argc, char** argv) {
    example_app app;
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_particles_desc batch;
    static float xyz[3 * PARTICLES], radii[PARTICLES];
    uint32_t keys, slots;
    GLuint key_program, draw_program, vao;
    if (example_open(&app, "gpuparticle.h: depth sort", argc, argv)) return 1;

    memset(&desc, 0, sizeof desc);
    desc.max_particles = PARTICLES;
    desc.get_proc_address = app.headless ? eglGetProcAddress : glfwGetProcAddress;   /* both have gp's type */
    desc.gpu_timings = true;
    if (gp_world_create(&desc, &world) != GP_OK) return 1;   /* the logger said why */
    make_galaxy(xyz, radii, PARTICLES);
    memset(&batch, 0, sizeof batch);
    batch.count = PARTICLES;
    batch.positions = xyz;
    batch.radii = radii;
    if (gp_particles_add(world, &batch, NULL) != GP_OK) return 1;
    if (gp_buffer_create(world, PARTICLES * 4, NULL, &keys) != GP_OK || gp_buffer_create(world, PARTICLES * 4, NULL, &slots) != GP_OK)
        return 1;

    key_program = example_program(key_shader, NULL);
    draw_program = example_program(vertex_shader, fragment_shader);
    glGenVertexArrays(1, &vao);
    do {
        float angle = 0.6f + 0.03f * (float)app.frame, eye[3], forward[3], vp[16];
        gp_buffers b = gp_world_buffers(world);
        gp_timing timing[8];
        uint32_t t, stages;
        double sort_ms = 0.0;
        int width = app.width, height = app.height;
        eye[0] = 2.6f * cosf(angle); eye[1] = 1.1f; eye[2] = 2.6f * sinf(angle);
        forward[0] = -eye[0]; forward[1] = -eye[1]; forward[2] = -eye[2];
        {
            float l = sqrtf(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
            forward[0] /= l; forward[1] /= l; forward[2] /= l;
        }
        /* 1. our keys: the view depth of every particle */
        glUseProgram(key_program);
        glUniform3fv(glGetUniformLocation(key_program, "eye"), 1, eye);
        glUniform3fv(glGetUniformLocation(key_program, "forward"), 1, forward);
        glUniform1ui(glGetUniformLocation(key_program, "count"), b.count);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b.position);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, keys);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, slots);
        glDispatchCompute((b.count + 255) / 256, 1, 1);
        /* 2. far first; the library issues the barriers on both sides */
        if (gp_sort_pairs(world, keys, slots, b.count, GP_SORT_DESCENDING) != GP_OK) return 1;
        /* 3. draw in that order, the sorted slots as indices */
        if (!app.headless) glfwGetFramebufferSize(app.window, &width, &height);
        glViewport(0, 0, width, height);
        glClearColor(0.02f, 0.02f, 0.05f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glEnable(GL_PROGRAM_POINT_SIZE);
        view_projection(vp, eye, forward, (float)width / (float)height);
        glUseProgram(draw_program);
        glUniformMatrix4fv(glGetUniformLocation(draw_program, "view_projection"), 1, GL_FALSE, vp);
        glUniform1f(glGetUniformLocation(draw_program, "pixels_per_metre"), (float)height * 1.1f);
        glBindVertexArray(vao);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b.position);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, slots);
        glDrawElements(GL_POINTS, (GLsizei)b.count, GL_UNSIGNED_INT, NULL);
        stages = gp_timings_read(world, timing, 8);
        for (t = 0; t < stages && t < 8; ++t) sort_ms += timing[t].milliseconds;
        printf("frame %4d  particles %u  sort %.2f ms (GPU)\n", app.frame, b.count, sort_ms);
    } while (example_end_frame(&app));

    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(key_program);
    glDeleteProgram(draw_program);
    gp_buffer_destroy(world, keys);
    gp_buffer_destroy(world, slots);
    gp_world_destroy(world);
    example_close(&app);
    return 0;
}
