/* sparks.c: bursts of sparks bouncing on hilly ground, the effect particles of paper 002: each
   half second a burst of sparks (GP_KIND_EFFECT) leaves a point above a height-field terrain in
   a cone, flies under gravity and air drag in a gusty breeze (gp_wind_set), and bounces off the hills
   with the restitution and friction of its material (gp_effect_material_set), coloured by speed.

   The ground is gp_heightfield_add: heights on a 33 x 33 grid, here two hills and a hollow, which
   every kind of particle meets as it meets any collider. Effect particles do not die yet (issue
   11: their lifetime, emitters and removal come with the live count on the GPU), so the bursts
   stop when the store is full.

   Run: build/examples/sparks [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define GRID 33
#define FRAMES_APART 30

/* The terrain's height at (x, z) in [0, 2] x [0, 2]: two hills and a hollow, metres. */
static float sparks_ground(float x, float z) {
    float a = (x - 0.6f) * (x - 0.6f) + (z - 0.7f) * (z - 0.7f), b = (x - 1.4f) * (x - 1.4f) + (z - 1.3f) * (z - 1.3f);
    float c = (x - 1.2f) * (x - 1.2f) + (z - 0.5f) * (z - 0.5f);
    return 0.25f * expf(-a / 0.08f) + 0.35f * expf(-b / 0.12f) - 0.1f * expf(-c / 0.05f) + 0.1f;
}

/* The terrain as a wireframe: its grid's lines through the heights, drawn with the camera's
   matrices (the library draws particles, not colliders). */
static void sparks_draw_ground(const float* heights, const float view[16], const float projection[16]) {
    static GLuint program, vao, vbo;
    static const char* vertex =
        "#version 430 core\n"
        "layout(location = 0) in vec3 position; uniform mat4 view, projection;\n"
        "void main() { gl_Position = projection * view * vec4(position, 1.0); }\n";
    static const char* fragment =
        "#version 430 core\nout vec4 result;\nvoid main() { result = vec4(0.45, 0.38, 0.28, 1.0); }\n";
    static float lines[2 * GRID * (GRID - 1) * 2 * 3];
    int i, k, n = 0, e;
    if (!program) {
        for (k = 0; k < GRID; ++k)
            for (i = 0; i + 1 < GRID; ++i)
                for (e = 0; e < 2; ++e) {   /* a segment along x in row k, then along z in column k */
                    int a = e ? k : i, b = e ? i : k, a1 = e ? k : i + 1, b1 = e ? i + 1 : k;
                    float* p = lines + 6 * n++;
                    p[0] = 2.0f * (float)a / (GRID - 1); p[1] = heights[a + GRID * b]; p[2] = 2.0f * (float)b / (GRID - 1);
                    p[3] = 2.0f * (float)a1 / (GRID - 1); p[4] = heights[a1 + GRID * b1]; p[5] = 2.0f * (float)b1 / (GRID - 1);
                }
        program = example_program(vertex, fragment);
        glGenVertexArrays(1, &vao);
        glGenBuffers(1, &vbo);
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glBufferData(GL_ARRAY_BUFFER, sizeof lines, lines, GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, 0);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "view"), 1, GL_FALSE, view);
    glUniformMatrix4fv(glGetUniformLocation(program, "projection"), 1, GL_FALSE, projection);
    glBindVertexArray(vao);
    glDrawArrays(GL_LINES, 0, (GLsizei)(sizeof lines / (3 * sizeof(float))));
    glBindVertexArray(0);
    glUseProgram(0);
}

/* A burst of n sparks from (1, 1.2, 1), in a cone of half-angle 35 degrees around +y, at 3 to
   5 m/s, from a fixed sequence of pseudo-random numbers. */
static int sparks_burst(gp_world* world, unsigned n, unsigned* seed) {
    float* xyz = (float*)malloc(3 * n * sizeof(float));
    float* v = (float*)malloc(3 * n * sizeof(float));
    gp_particles_desc d;
    gp_result r;
    unsigned k;
    for (k = 0; k < n && xyz && v; ++k) {
        float u[3], speed, theta, phi;
        int c;
        for (c = 0; c < 3; ++c) { *seed = *seed * 1664525u + 1013904223u; u[c] = (float)(*seed >> 8) / 16777216.0f; }
        theta = 0.61f * sqrtf(u[0]); phi = 6.2831853f * u[1]; speed = 3.0f + 2.0f * u[2];
        xyz[3 * k] = 1.0f; xyz[3 * k + 1] = 1.2f; xyz[3 * k + 2] = 1.0f;
        v[3 * k] = speed * sinf(theta) * cosf(phi); v[3 * k + 1] = speed * cosf(theta); v[3 * k + 2] = speed * sinf(theta) * sinf(phi);
    }
    memset(&d, 0, sizeof d);
    d.count = n; d.positions = xyz; d.velocities = v; d.kind = GP_KIND_EFFECT; d.radius = 0.012f; d.mass = 1e-4f; d.lifetime = 0.0f;
    r = xyz && v ? gp_particles_add(world, &d, NULL) : GP_ERROR_OUT_OF_MEMORY;
    free(xyz); free(v);
    return r == GP_OK;
}

int main(int argc, char** argv) {
    example_app app;
    example_tank box = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.0f, 2.0f, 2.0f}};
    gp_effect_material sparks;
    gp_wind_desc wind;
    gp_collider ground;
    float heights[GRID * GRID];
    unsigned n, per_burst, seed = 12345u;
    int i, k;
    if (example_open(&app, "gpuparticle.h: sparks", argc, argv)) return 1;
    n = example_particles(&app, 2000);
    per_burst = n / 10 ? n / 10 : 1;
    if (example_box_open(&app, &box, n, 0.1f)) return 1;
    for (k = 0; k < GRID; ++k)
        for (i = 0; i < GRID; ++i) heights[i + GRID * k] = sparks_ground(2.0f * (float)i / (GRID - 1), 2.0f * (float)k / (GRID - 1));
    memset(&sparks, 0, sizeof sparks);
    sparks.drag = 0.4f;          /* 1/s: a spark's terminal speed g / k = 25 m/s */
    sparks.restitution = 0.6f;
    sparks.friction = 0.2f;
    memset(&wind, 0, sizeof wind);
    wind.uniform[0] = 1.5f;      /* m/s: a breeze along +x, which the drag carries the sparks with, */
    wind.noise_speed = 0.8f;     /* with gusts of about 0.8 m/s, */
    wind.noise_scale = 0.4f;     /* 0.4 m wide (curl noise) */
    if (gp_heightfield_add(box.world, heights, GRID, GRID, 0.0f, 2.0f, 0.0f, 2.0f, 0.0f, &ground) != GP_OK ||
        gp_effect_material_set(box.world, 0, &sparks) != GP_OK || gp_wind_set(box.world, &wind) != GP_OK)
        return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};
        gp_fluid_stats stats;
        gp_draw_desc draw;
        if (app.frame % FRAMES_APART == 0 && gp_particle_count(box.world) + per_burst <= n && !sparks_burst(box.world, per_burst, &seed))
            return 1;
        if (gp_world_step(box.world, &step) != GP_OK || gp_fluid_stats_read(box.world, &stats) != GP_OK) return 1;
        example_tank_begin(&app, &box, &draw);
        sparks_draw_ground(heights, draw.view, draw.projection);
        draw.color_by = GP_COLOR_SPEED;
        draw.range[0] = 0.0f;    /* m/s: white at rest, blue at 5 m/s */
        draw.range[1] = 5.0f;
        if (gp_draw_particles(box.world, &draw) != GP_OK) return 1;
        printf("frame %4d  sparks %5u  substeps %u  fastest %5.2f m/s  bounced %u\n", app.frame, gp_particle_count(box.world),
               stats.substeps, stats.max_speed, stats.wall_pushes);
        fflush(stdout);
    } while (example_end_frame(&app));
    return example_tank_close(&app, &box);
}
