/* falling_balls.c: balls of fluid falling into a tank of water, the scene of paper 001's figures
   4 and 7. A ball is dropped every fifth of a second above a layer of water, so that each one
   lands in the waves the last one left.

   A ball is gp_fluid_add_ball: the lattice points of the material's spacing inside a sphere,
   here at rest. Fluid can be added between any two steps: it joins the one particle store and
   the one grid, and the solver makes no difference between old and new particles. The store is
   made large enough for every ball from the start. The tank and the frame are example_app.h's
   (example_tank_open, example_tank_show).

   Run: build/examples/falling_balls [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define BALLS 4
#define FRAMES_APART 12

int main(int argc, char** argv) {
    static const float centers[BALLS][3] = {{0.35f, 1.1f, 0.35f}, {1.05f, 1.1f, 0.55f}, {0.4f, 1.1f, 0.6f}, {1.0f, 1.1f, 0.3f}};
    const float radius = 0.22f, water_min[3] = {0.0f, 0.0f, 0.0f}, water_max[3] = {1.4f, 0.28f, 0.9f};
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {1.4f, 1.4f, 0.9f}};
    unsigned n, k;
    float volume = 1.4f * 0.28f * 0.9f + BALLS * 4.18879f * radius * radius * radius;
    if (example_open(&app, "gpuparticle.h: falling balls", argc, argv)) return 1;
    n = example_particles(&app, 3500);
    tank.spacing = cbrtf(volume / (float)n);    /* n particles in the water and the balls */
    n = (unsigned)gp_lattice_block_count(tank.spacing, water_min, water_max);
    for (k = 0; k < BALLS; ++k) n += (unsigned)gp_lattice_ball_count(tank.spacing, centers[k], radius);
    if (example_tank_open(&app, &tank, n)) return 1;   /* the store holds the scene exactly */
    if (gp_fluid_add_block(tank.world, 0, water_min, water_max, NULL, NULL) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the CFL limit needs */
        if (app.frame % FRAMES_APART == 0 && app.frame / FRAMES_APART < BALLS &&
            gp_fluid_add_ball(tank.world, 0, centers[app.frame / FRAMES_APART], radius, NULL, NULL) != GP_OK)
            return 1;
        if (gp_world_step(tank.world, &step) != GP_OK || !example_tank_show(&app, &tank)) return 1;
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
