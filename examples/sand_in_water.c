/* sand_in_water.c: a handful of sand thrown into a tank of water sinks through it as sand does,
   and settles into a bed on the floor (gpuparticle.h's >>coupling). The water is example_app.h's
   tank water; the sand, grains half the water's spacing wide, is dropped as a cube above it.

   A grain narrower than the fluid's smoothing radius (twice its spacing by default) is one
   particle the fluid cannot flow around: the fluid drags it (a sphere's drag curve against the
   fluid's velocity there, and Archimedes' buoyancy), and the fluid takes the drag's opposite, so
   the grains stir the water as they fall through it and the water slows them to their terminal
   speed (a 1 cm grain of sand sinks at about 0.6 m/s). Wider grains, and rigid bodies, are the
   fluid's boundary instead (boats.c, glasses.c).

   Run: build/examples/sand_in_water [--headless --frames N --out DIR] [--particles N]: N water
   particles (default 2,500, a software renderer's share; raise it on a GPU), a twelfth as many
   grains. Each frame prints the grains' highest and lowest point, how many have reached the
   bed (within 5 cm of the floor) and the fastest grain. Drag to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

int main(int argc, char** argv) {
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {0.4f, 0.5f, 0.3f}};
    const float water_top = 0.25f;
    unsigned n, side, grains, k, count, settled;
    float* xyz;
    gp_granular_material sand = {0};
    gp_particles_desc add = {0};
    gp_particle_position* at;
    gp_particle_velocity* v;
    if (example_open(&app, "gpuparticle.h: sand in water", argc, argv)) return 1;
    n = example_particles(&app, 2500);
    tank.spacing = cbrtf(0.4f * water_top * 0.3f / (float)n);
    for (side = 1; (side + 1) * (side + 1) * (side + 1) <= n / 12; ++side) {}
    grains = side * side * side;
    if (example_tank_open(&app, &tank, n + grains + 64)) return 1;
    {
        const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.4f, water_top, 0.3f};
        if (gp_fluid_add_block(tank.world, 0, lo, hi, NULL, NULL) != GP_OK) return 1;
    }
    sand.diameter = 0.5f * tank.spacing;   /* the default sand otherwise: 2,500 kg/m^3 */
    if (gp_granular_material_set(tank.world, 0, &sand) != GP_OK) return 1;
    xyz = (float*)malloc((size_t)grains * 12);
    at = (gp_particle_position*)malloc((size_t)(n + grains + 64) * sizeof *at);
    v = (gp_particle_velocity*)malloc((size_t)(n + grains + 64) * sizeof *v);
    if (!xyz || !at || !v) return 1;
    for (k = 0; k < grains; ++k) {   /* a cube of sand, 1.1 grains apart, centred above the water */
        xyz[3 * k] = 0.2f + 1.1f * sand.diameter * ((float)(k % side) - 0.5f * (float)side);
        xyz[3 * k + 1] = water_top + 0.08f + 1.1f * sand.diameter * (float)(k / side % side);
        xyz[3 * k + 2] = 0.15f + 1.1f * sand.diameter * ((float)(k / (side * side)) - 0.5f * (float)side);
    }
    add.count = grains;
    add.positions = xyz;
    add.kind = GP_KIND_GRANULAR;
    if (gp_particles_add(tank.world, &add, NULL) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};
        gp_draw_desc draw;
        float low = 1e9f, high = -1e9f, fastest = 0.0f;
        if (gp_world_step(tank.world, &step) != GP_OK) return 1;
        count = gp_particle_count(tank.world);
        if (gp_particles_read(tank.world, GP_ATTRIBUTE_POSITION, 0, count, at) != GP_OK ||
            gp_particles_read(tank.world, GP_ATTRIBUTE_VELOCITY, 0, count, v) != GP_OK)
            return 1;
        example_tank_begin(&app, &tank, &draw);   /* the water by its density, white to blue, small, */
        draw.kinds = 1u << GP_KIND_FLUID;
        draw.radius_scale = 0.35f;                /* so that the sand shows through it */
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        draw.kinds = 1u << GP_KIND_GRANULAR;      /* the sand in sand's colour */
        draw.radius_scale = 1.0f;
        draw.color_by = GP_COLOR_UNIFORM;
        draw.color[0] = 0.85f; draw.color[1] = 0.7f; draw.color[2] = 0.4f; draw.color[3] = 1.0f;
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        settled = 0;
        for (k = 0; k < count; ++k) {   /* the grains: a quarter spacing in radius, the water half */
            float s = sqrtf(v[k].x * v[k].x + v[k].y * v[k].y + v[k].z * v[k].z);
            if (at[k].radius > 0.3f * tank.spacing) continue;
            low = at[k].y < low ? at[k].y : low;
            high = at[k].y > high ? at[k].y : high;
            fastest = s > fastest ? s : fastest;
            settled += at[k].y < 0.05f;
        }
        printf("frame %4d  grains %u  from %.3f to %.3f m  in the bed %u  fastest %.2f m/s\n", app.frame, grains, (double)low,
               (double)high, settled, (double)fastest);
        fflush(stdout);
    } while (example_end_frame(&app));
    free(xyz);
    free(at);
    free(v);
    return example_tank_close(&app, &tank);
}
