/* dam_break.c: a dam break, the scene of paper 001's figure 9. A block of water stands in one
   corner of a closed box tank and collapses under gravity: a surge runs along the floor to the
   far walls, breaks and washes back.

   The tank is a box collider with inside = true (example_tank_open in example_app.h creates the
   world, the bounded grid over the tank and the walls); the water is one gp_fluid_add_block on
   the material's lattice. Each frame gp_world_step advances 1/60 s in as many substeps as the CFL
   number allows, and example_tank_show draws it with gp_draw_particles, coloured by density
   (white sparse, blue dense), and prints gp_fluid_stats_read's figures.

   Run: make demo, or build/examples/dam_break [--headless --frames N --out DIR] [--particles N].
   The default, about 3,000 particles, suits a software renderer; on a GPU raise it with
   --particles (figure 9 has 4,194,304).
   Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.4f, 1.4f, 1.2f}};
    const float block_min[3] = {0.0f, 0.0f, 0.0f}, block_max[3] = {0.8f, 1.0f, 0.6f};
    unsigned n;
    if (example_open(&app, "gpuparticle.h: dam break", argc, argv)) return 1;
    n = example_particles(&app, 3000);
    tank.spacing = cbrtf(0.8f * 1.0f * 0.6f / (float)n);   /* n particles fill the block */
    if (example_tank_open(&app, &tank, (uint32_t)gp_lattice_block_count(tank.spacing, block_min, block_max))) return 1;
    if (gp_fluid_add_block(tank.world, 0, block_min, block_max, NULL, NULL) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the CFL limit needs */
        if (gp_world_step(tank.world, &step) != GP_OK || !example_tank_show(&app, &tank)) return 1;
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
