/* thrown_ball.c: a ball of fluid thrown into a tank of water, the scene of paper 001's figure 6.
   The ball leaves the upper left of the tank at 3.2 m/s, up and to the right, flies its parabola and
   plunges into the water, throwing up a crown and a wave that runs to the far wall.

   The throw is the velocity argument of gp_fluid_add_ball: every particle of the ball starts
   with it (gp_fluid_add_block and gp_particles_add take velocities the same way). The tank and
   the frame are example_app.h's (example_tank_open, example_tank_show).

   Run: build/examples/thrown_ball [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    const float water_min[3] = {0.0f, 0.0f, 0.0f}, water_max[3] = {2.0f, 0.3f, 0.6f};
    const float center[3] = {0.3f, 0.8f, 0.3f}, radius = 0.22f, velocity[3] = {3.0f, 1.0f, 0.0f};
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.0f, 1.2f, 0.6f}};
    unsigned n;
    float volume = 2.0f * 0.3f * 0.6f + 4.18879f * radius * radius * radius;
    if (example_open(&app, "gpuparticle.h: thrown ball", argc, argv)) return 1;
    n = example_particles(&app, 3000);
    tank.spacing = cbrtf(volume / (float)n);    /* n particles in the water and the ball */
    n = (unsigned)(gp_lattice_block_count(tank.spacing, water_min, water_max) + gp_lattice_ball_count(tank.spacing, center, radius));
    if (example_tank_open(&app, &tank, n)) return 1;   /* the store holds the scene exactly */
    if (gp_fluid_add_block(tank.world, 0, water_min, water_max, NULL, NULL) != GP_OK ||
        gp_fluid_add_ball(tank.world, 0, center, radius, velocity, NULL) != GP_OK)
        return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the CFL limit needs */
        if (gp_world_step(tank.world, &step) != GP_OK || !example_tank_show(&app, &tank)) return 1;
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
