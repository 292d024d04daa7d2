/* smoke.c: smoke rising from a fire in a turbulent breeze, the sorted, alpha-blended sprites of
   paper 002: a disc emitter (gp_emitter_add) breathes puffs of smoke (GP_KIND_EFFECT) that live
   3 to 5 s; the wind (gp_wind_set: a rising draught, a breeze along +x and curl-noise gusts)
   carries them through their drag; each puff grows and fades over its life by its emitter's
   size and colour curves, and gp_draw_effects draws them as soft sprites sorted back to front on
   the GPU every frame. Smoke weighs next to nothing: this scene turns gravity off and lets the
   draught lift it.

   Run: build/examples/smoke [--headless --frames N --out DIR] [--particles N].
   Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    example_app app;
    example_tank box = {.min = {0.0f, 0.0f, 0.0f}, .max = {2.0f, 2.0f, 2.0f}};
    const float no_gravity[3] = {0.0f, 0.0f, 0.0f};
    gp_effect_material smoke;
    gp_wind_desc wind;
    gp_emitter_desc fire;
    gp_emitter emitter;
    unsigned n;
    int k;
    if (example_open(&app, "gpuparticle.h: smoke", argc, argv)) return 1;
    n = example_particles(&app, 3000);
    if (example_box_open(&app, &box, n, 0.1f)) return 1;
    memset(&smoke, 0, sizeof smoke);
    smoke.drag = 2.0f;            /* 1/s: a puff takes the wind's speed within half a second */
    smoke.restitution = 0.1f;     /* it hardly bounces off the tank's walls */
    memset(&wind, 0, sizeof wind);
    wind.uniform[0] = 0.25f;      /* m/s: a breeze along +x, */
    wind.uniform[1] = 0.35f;      /* the fire's draught upwards, */
    wind.noise_speed = 0.3f;      /* and gusts of about 0.3 m/s, */
    wind.noise_scale = 0.35f;     /* 0.35 m wide (curl noise: they swirl, never converge) */
    memset(&fire, 0, sizeof fire);
    fire.shape = GP_EMITTER_DISC;
    fire.position[0] = 0.6f; fire.position[1] = 0.1f; fire.position[2] = 1.0f;
    fire.direction[1] = 1.0f;
    fire.radius = 0.15f;
    fire.spread = 0.4f;
    fire.speed[0] = 0.2f; fire.speed[1] = 0.5f;
    fire.lifetime[0] = 3.0f; fire.lifetime[1] = 5.0f;
    fire.rate = (float)n / 5.0f;  /* per second: at most n alive */
    fire.particle_radius = 0.04f;
    fire.mass = 1e-4f;
    fire.seed = 2026;
    fire.size[0] = 1.0f; fire.size[1] = 2.2f; fire.size[2] = 3.2f; fire.size[3] = 4.0f;   /* puffs spread as they rise */
    for (k = 0; k < 4; ++k) {   /* dark and dense near the fire, lighter and fainter as they rise */
        float grey = 0.25f + 0.15f * (float)k;
        fire.color[k][0] = fire.color[k][1] = fire.color[k][2] = grey;
        fire.color[k][3] = k == 3 ? 0.0f : 0.35f - 0.1f * (float)k;
    }
    if (gp_gravity_set(box.world, no_gravity) != GP_OK || gp_effect_material_set(box.world, 0, &smoke) != GP_OK ||
        gp_wind_set(box.world, &wind) != GP_OK || gp_emitter_add(box.world, &fire, &emitter) != GP_OK)
        return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};
        gp_draw_desc draw;
        if (gp_world_step(box.world, &step) != GP_OK) return 1;
        example_tank_begin(&app, &box, &draw);
        draw.blend = GP_BLEND_ALPHA;   /* sorted back to front on the GPU */
        if (gp_draw_effects(box.world, &draw) != GP_OK) return 1;
        printf("frame %4d  puffs %5u (two frames late)\n", app.frame, gp_particle_count(box.world));
        fflush(stdout);
    } while (example_end_frame(&app));
    return example_tank_close(&app, &box);
}
