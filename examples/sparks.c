/* sparks.c: a fountain of sparks bouncing on hilly ground, the effect particles of paper 002: an
   emitter (gp_emitter_add) throws sparks (GP_KIND_EFFECT) up from a point above a height-field
   terrain in a cone, at its rate and each second in a burst; they fly under gravity and air drag
   in a gusty breeze (gp_wind_set), bounce off the hills with the restitution and friction of their
   material (gp_effect_material_set), coloured by speed, and die after 1.5 to 2.5 s: births and
   deaths happen on the GPU, the store keeps about rate x lifetime of them.

   The ground is gp_heightfield_add: heights on a 33 x 33 grid, here two hills and a hollow, which
   every kind of particle meets as it meets any collider.

   Run: build/examples/sparks [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define GRID 33
#define FRAMES_APART 60   /* a burst each second */

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

int main(int argc, char** argv) {
    example_app app;
    example_tank box = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.0f, 2.0f, 2.0f}};
    gp_effect_material sparks;
    gp_wind_desc wind;
    gp_emitter_desc fountain;
    gp_emitter emitter;
    gp_collider ground;
    float heights[GRID * GRID];
    unsigned n;
    int i, k;
    if (example_open(&app, "gpuparticle.h: sparks", argc, argv)) return 1;
    n = example_particles(&app, 2000);
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
    memset(&fountain, 0, sizeof fountain);
    fountain.shape = GP_EMITTER_POINT;
    fountain.position[0] = 1.0f; fountain.position[1] = 1.2f; fountain.position[2] = 1.0f;
    fountain.direction[1] = 1.0f;            /* up, */
    fountain.spread = 0.61f;                 /* within 35 degrees, */
    fountain.speed[0] = 3.0f; fountain.speed[1] = 5.0f;   /* m/s */
    fountain.lifetime[0] = 1.5f; fountain.lifetime[1] = 2.5f;
    fountain.rate = 0.3f * (float)n;         /* per second: about 0.6 n alive, the bursts on top */
    fountain.particle_radius = 0.012f;
    fountain.mass = 1e-4f;
    if (gp_heightfield_add(box.world, heights, GRID, GRID, 0.0f, 2.0f, 0.0f, 2.0f, 0.0f, &ground) != GP_OK ||
        gp_effect_material_set(box.world, 0, &sparks) != GP_OK || gp_wind_set(box.world, &wind) != GP_OK ||
        gp_emitter_add(box.world, &fountain, &emitter) != GP_OK)
        return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};
        gp_fluid_stats stats;
        gp_draw_desc draw;
        if (app.frame % FRAMES_APART == 0 && gp_emitter_burst(box.world, emitter, n / 10 ? n / 10 : 1) != GP_OK) return 1;
        if (gp_world_step(box.world, &step) != GP_OK || gp_fluid_stats_read(box.world, &stats) != GP_OK) return 1;
        example_tank_begin(&app, &box, &draw);
        sparks_draw_ground(heights, draw.view, draw.projection);
        draw.color_by = GP_COLOR_SPEED;
        draw.range[0] = 0.0f;    /* m/s: white at rest, blue at 5 m/s */
        draw.range[1] = 5.0f;
        if (gp_draw_particles(box.world, &draw) != GP_OK) return 1;
        printf("frame %4d  sparks %5u (two frames late)  substeps %u  fastest %5.2f m/s  bounced %u\n", app.frame,
               gp_particle_count(box.world), stats.substeps, stats.max_speed, stats.wall_pushes);
        fflush(stdout);
    } while (example_end_frame(&app));
    return example_tank_close(&app, &box);
}
