/* depth_sort.c: sorting particles by view depth on the GPU and drawing them back to front,
   straight from the library's buffers (UberFlow's depth sort, paper 002, section 4).

   Translucent particles blend correctly only when drawn far to near. Each frame a tiny compute
   shader of ours writes (depth key, slot) pairs for the camera, gp_sort_pairs sorts them, and
   the sorted slots serve as the index buffer of one glDrawElements that reads positions from the
   particle store's SSBO. Nothing comes back to the CPU.

   Run: build/examples/depth_sort [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
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

int main(int argc, char** argv) {
    example_app app;
    gp_world_desc desc;
    gp_world* world = NULL;
    gp_particles_desc batch;
    example_camera camera = {.target = {0.0f, 0.0f, 0.0f}, .distance = 2.82f, .yaw = 1.0f, .pitch = 0.4f, .fov = 0.9f};
    float* xyz;
    float* radii;
    uint32_t keys, slots, n;
    GLuint key_program, draw_program, vao;
    if (example_open(&app, "gpuparticle.h: depth sort", argc, argv)) return 1;
    n = example_particles(&app, PARTICLES);

    memset(&desc, 0, sizeof desc);
    desc.max_particles = n;
    desc.get_proc_address = app.headless ? eglGetProcAddress : glfwGetProcAddress;   /* both have gp's type */
    desc.gpu_timings = true;
    if (gp_world_create(&desc, &world) != GP_OK) return 1;   /* the logger said why */
    xyz = (float*)malloc(3 * sizeof *xyz * n);
    radii = (float*)malloc(sizeof *radii * n);
    if (!xyz || !radii) return 1;
    make_galaxy(xyz, radii, n);
    memset(&batch, 0, sizeof batch);
    batch.count = n;
    batch.positions = xyz;
    batch.radii = radii;
    if (gp_particles_add(world, &batch, NULL) != GP_OK) return 1;
    free(xyz);
    free(radii);
    if (gp_buffer_create(world, n * 4, NULL, &keys) != GP_OK || gp_buffer_create(world, n * 4, NULL, &slots) != GP_OK)
        return 1;

    key_program = example_program(key_shader, NULL);
    draw_program = example_program(vertex_shader, fragment_shader);
    glGenVertexArrays(1, &vao);
    do {
        static const float background[3] = {0.02f, 0.02f, 0.05f};
        float eye[3], forward[3], view[16], projection[16], vp[16];
        gp_buffers b = gp_world_buffers(world);
        gp_timing timing[8];
        uint32_t t, stages, k;
        double sort_ms = 0.0;
        camera.yaw -= 0.03f;   /* a slow orbit; drag to turn it further */
        example_begin_frame(&app, &camera, background, view, projection, eye);
        example_multiply(vp, projection, view);
        for (k = 0; k < 3; ++k) forward[k] = (camera.target[k] - eye[k]) / camera.distance;
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
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glEnable(GL_PROGRAM_POINT_SIZE);
        glUseProgram(draw_program);
        glUniformMatrix4fv(glGetUniformLocation(draw_program, "view_projection"), 1, GL_FALSE, vp);
        glUniform1f(glGetUniformLocation(draw_program, "pixels_per_metre"), (float)app.height * 1.1f);
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
