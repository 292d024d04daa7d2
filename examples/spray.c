/* spray.c: spray and foam thrown up by a dam break, the effect particles of paper 002 on the fluid
   of paper 001, through the one store and grid. A spray emitter (GP_EMITTER_SPRAY) watches the
   water: wherever a fluid particle moves faster than 1.2 m/s (the surge, the breaking wave at the
   far wall) it gives birth, by chance, to a droplet that leaves with the water's velocity plus a
   kick; the droplets fly under gravity and air drag, and those that fall back into the water ride
   it as foam (their material's ride: they take its velocity, and, half as dense as water, the
   water buoys them back to its surface), fading out within a second. The water is drawn as
   impostors (every kind but effects: gp_draw_desc.kinds), the spray as white sprites sorted back
   to front (gp_draw_effects).

   Run: build/examples/spray [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.4f, 1.4f, 1.2f}};
    const float block_min[3] = {0.0f, 0.0f, 0.0f}, block_max[3] = {0.8f, 1.0f, 0.6f};
    gp_effect_material droplet;
    gp_emitter_desc spray;
    gp_emitter emitter;
    unsigned n, water;
    int k;
    if (example_open(&app, "gpuparticle.h: spray", argc, argv)) return 1;
    n = example_particles(&app, 3000);
    tank.spacing = cbrtf(0.8f * 1.0f * 0.6f / (float)n);   /* n particles of water fill the block */
    water = (unsigned)gp_lattice_block_count(tank.spacing, block_min, block_max);
    if (example_tank_open(&app, &tank, water + water / 2)) return 1;   /* room for the spray too */
    if (gp_fluid_add_block(tank.world, 0, block_min, block_max, NULL, NULL) != GP_OK) return 1;
    memset(&droplet, 0, sizeof droplet);
    droplet.drag = 1.0f;          /* 1/s: air slows a droplet */
    droplet.restitution = 0.2f;
    droplet.ride = 40.0f;         /* 1/s: in the water, it takes the water's velocity, rising at (2 - 1) g / 40 */
    memset(&spray, 0, sizeof spray);
    spray.shape = GP_EMITTER_SPRAY;
    spray.speed[0] = 1.2f;        /* m/s: water faster than this throws spray, */
    spray.speed[1] = 0.6f;        /* each droplet kicked by up to 0.6 m/s, */
    spray.rate = 6.0f;            /* six a second per fast fluid particle, */
    spray.max_per_substep = water / 200 ? water / 200 : 1;   /* a few per substep at most */
    spray.radius = 0.5f * tank.spacing;
    spray.lifetime[0] = 0.4f; spray.lifetime[1] = 0.9f;
    spray.particle_radius = 0.6f * tank.spacing;
    spray.mass = 500.0f * 4.18879f * spray.particle_radius * spray.particle_radius * spray.particle_radius;   /* kg: foam, half water's density */
    spray.size[0] = spray.size[1] = spray.size[2] = 1.0f; spray.size[3] = 0.5f;
    for (k = 0; k < 4; ++k) {     /* white, fading over the last third of its life */
        spray.color[k][0] = spray.color[k][1] = spray.color[k][2] = 1.0f;
        spray.color[k][3] = k == 3 ? 0.0f : 0.9f;
    }
    if (gp_effect_material_set(tank.world, 0, &droplet) != GP_OK || gp_emitter_add(tank.world, &spray, &emitter) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};
        gp_fluid_stats stats;
        gp_draw_desc draw;
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK) return 1;
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_DENSITY;
        draw.range[0] = 700.0f;   /* kg/m^3: white sparse, blue dense */
        draw.range[1] = 1000.0f;
        draw.kinds = ~(1u << GP_KIND_EFFECT);   /* the water as impostors (a little smaller: the spray shows between), */
        draw.radius_scale = 0.8f;
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        draw.blend = GP_BLEND_ALPHA;            /* the spray as sprites over it */
        if (gp_draw_effects(tank.world, &draw) != GP_OK) return 1;
        printf("frame %4d  particles %6u (two frames late)  substeps %3u  fastest %5.2f m/s\n", app.frame, gp_particle_count(tank.world),
               stats.substeps, stats.max_speed);
        fflush(stdout);
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
