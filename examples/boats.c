/* boats.c: light rigid bodies floating on sloshing water, the fluid and the solids pushing each
   other (gpuparticle.h's >>coupling). Four box boats, each lighter than water (400 to 600
   kg/m^3), are set on the still water of a closed tank. For the first second gravity is tilted
   along x, as if the tank were tipped; then it is set upright and the water sloshes from end to
   end, the boats riding it.

   Fluid (gp_fluid_add_block) and bodies (gp_body_shape_create, gp_bodies_add) share one world:
   a body's particles are a moving boundary to the fluid, which pushes back on them, so a body
   whose mass per voxel volume is below the water's 1000 kg/m^3 floats. A boat's particles are
   of its own granular material (phase k): their diameter is the fluid's spacing, and since a
   rigid particle weighs density pi d^3 / 6 while it stands for a voxel of d^3, a boat of
   effective density D takes the material density D * 6 / pi. The water is example_app.h's
   tank water (example_tank_open), drawn coloured by density, the boats by gp_draw_bodies.

   Run: build/examples/boats [--headless --frames N --out DIR] [--particles N] [--summation].
   The default, about 3,000 fluid particles 0.025 m apart, suits a software renderer; on a GPU
   raise it with --particles. Headless, --frames 120 shows the tip and the first swings back
   (1 to 1.5 s a frame on llvmpipe). Each frame prints how many boats are afloat (their centre
   of mass above the floor by more than their half height) and the fastest fluid particle.
   Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define BOATS 4
#define DEPTH 0.2f        /* metres of water at rest */
#define TILT 0.3f         /* radians gravity leans along x for the first TILT_SECONDS */
#define TILT_SECONDS 1.0f

int main(int argc, char** argv) {
    static const float densities[BOATS] = {400.0f, 470.0f, 530.0f, 600.0f};   /* kg/m^3 */
    const float size[3] = {0.15f, 0.075f, 0.1f};   /* a boat's length, height and beam, m */
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {0.8f, 0.45f, 0.3f}};
    const float water_min[3] = {0.0f, 0.0f, 0.0f}, water_max[3] = {0.8f, DEPTH, 0.3f};
    gp_body_desc boats[BOATS];
    gp_body_state states[BOATS];
    float half[3];
    uint32_t voxels = 1;
    int k;
    if (example_open(&app, "gpuparticle.h: boats", argc, argv)) return 1;
    /* About n particles, a whole number of spacings in 0.1 m: the water fills the tank wall to wall. */
    tank.spacing = 0.1f / fmaxf(1.0f, roundf(0.1f / cbrtf(0.8f * DEPTH * 0.3f / (float)example_particles(&app, 3000))));
    for (k = 0; k < 3; ++k) {   /* a whole number of voxels (one fluid spacing each) along each side */
        float n = roundf(size[k] / tank.spacing);
        half[k] = 0.5f * (n < 1.0f ? 1.0f : n) * tank.spacing;
        voxels *= (uint32_t)(2.0f * half[k] / tank.spacing + 1.5f);   /* +1: room to spare */
    }
    if (example_tank_open(&app, &tank, (uint32_t)gp_lattice_block_count(tank.spacing, water_min, water_max) + BOATS * voxels) ||
        gp_fluid_add_block(tank.world, 0, water_min, water_max, NULL, NULL) != GP_OK)
        return 1;
    /* One material and one box shape per boat; the boats in a row along x, resting on the water. */
    memset(boats, 0, sizeof boats);
    for (k = 0; k < BOATS; ++k) {
        gp_granular_material material;
        gp_shape_desc shape;
        gp_body_shape_info info;
        memset(&material, 0, sizeof material);
        material.diameter = tank.spacing;
        material.density = densities[k] * 6.0f / 3.14159265f;
        memset(&shape, 0, sizeof shape);
        shape.shape = GP_SHAPE_BOX;
        shape.phase = (uint32_t)k;
        memcpy(shape.half_extents, half, sizeof half);
        if (gp_granular_material_set(tank.world, (uint32_t)k, &material) != GP_OK ||
            gp_body_shape_create(tank.world, &shape, &boats[k].shape) != GP_OK ||
            gp_body_shape_info_get(tank.world, boats[k].shape, &info) != GP_OK)
            return 1;
        boats[k].position[0] = (0.5f + (float)k) * tank.max[0] / BOATS;
        boats[k].position[1] = DEPTH + half[1] + 0.1f * tank.spacing;
        boats[k].position[2] = 0.5f * tank.max[2];
        printf("boat %d: %.0f kg/m^3, %u particles, %.3f kg\n", k, (double)densities[k], info.particles, (double)info.mass);
    }
    if (gp_bodies_add(tank.world, boats, BOATS, NULL) != GP_OK) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the fluid and contacts need */
        gp_fluid_stats stats;
        gp_draw_desc draw;
        int afloat = 0;
        double now;
        if (app.frame == 0 || app.frame == (int)(TILT_SECONDS * 60.0f)) {   /* tip the tank, then set it upright */
            float angle = app.frame == 0 ? TILT : 0.0f, gravity[3] = {9.81f * sinf(angle), -9.81f * cosf(angle), 0.0f};
            if (gp_gravity_set(tank.world, gravity) != GP_OK) return 1;
        }
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK ||
            gp_bodies_read(tank.world, NULL, BOATS, states) != GP_OK)
            return 1;
        now = example_seconds();
        for (k = 0; k < BOATS; ++k) afloat += states[k].center_of_mass[1] - tank.min[1] > half[1];
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_DENSITY;
        draw.range[0] = 700.0f;    /* kg/m^3: white at the surface and in the spray, */
        draw.range[1] = 1000.0f;   /* blue in the bulk */
        draw.radius_scale = 0.85f; /* a boat's own particles, drawn too, stay inside its faces */
        if (gp_draw_particles(tank.world, &draw) != GP_OK || gp_draw_bodies(tank.world, &draw) != GP_OK) return 1;
        printf("frame %4d  boats afloat %d of %d  max fluid speed %5.2f m/s  substeps %3u  step %6.1f ms\n", app.frame, afloat,
               BOATS, (double)stats.max_speed, stats.substeps, 1000.0 * (now - app.frame_end));
        if (stats.nonfinite) printf("  %u particles stopped after an update that was not finite\n", stats.nonfinite);
        fflush(stdout);
    } while (example_end_frame(&app));
    return example_tank_close(&app, &tank);
}
