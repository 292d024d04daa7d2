/* pour.c: pouring fluid into a tank, the scene of paper 001's figures 5 and 8. A pour, a nozzle
   near the top of an empty tank, adds a disc of particles each time its stream has moved one
   spacing, at a fixed rate, until the particle store is full; then its state reports full, and
   this example says so and removes it.

   gp_pour_add takes the nozzle's position, direction, speed and rate; gp_world_step feeds it at
   every substep, so the stream is as smooth at any frame rate. The store's capacity is what the
   pour may fill: --particles N sets it. The tank and the frame are example_app.h's
   (example_tank_open, example_tank_show).

   Run: build/examples/pour [--headless --frames N --out DIR] [--particles N]; the pour runs for
   about 1.2 s (headless: --frames 120). Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {1.2f, 1.0f, 0.8f}};
    gp_pour_desc nozzle = {.position = {0.35f, 0.85f, 0.4f}, .direction = {0.25f, -1.0f, 0.0f}, .speed = 3.0f};
    gp_pour pour;
    unsigned n;
    if (example_open(&app, "gpuparticle.h: pour", argc, argv)) return 1;
    n = example_particles(&app, 3000);
    tank.spacing = cbrtf(0.2f / (float)n);   /* n particles make 0.2 m^3 of water */
    if (example_tank_open(&app, &tank, n)) return 1;
    nozzle.rate = (float)n / 1.2f;            /* particles per second: the store is full in 1.2 s */
    if (gp_pour_add(tank.world, &nozzle, &pour) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the CFL limit needs */
        gp_pour_state state;
        if (gp_world_step(tank.world, &step) != GP_OK || !example_tank_show(&app, &tank)) return 1;
        if (pour.id != 0 && gp_pour_state_get(tank.world, pour, &state) == GP_OK && state.full) {
            printf("the store is full: the pour stopped after %llu particles, at %.2f s\n",
                   (unsigned long long)state.emitted, (double)(app.frame + 1) / 60.0);
            gp_pour_remove(tank.world, pour);
            pour.id = 0;   /* never a valid pour */
        }
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
