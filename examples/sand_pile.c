/* sand_pile.c: grains poured onto one spot pile up into a cone, paper 000's granular matter
   (GPU Gems 3, ch. 29, section 29.3.1). Friction between the grains, and with the floor, lets the
   heap stand as a cone; with little friction (mu 0.05) the same grains spread into a flat layer
   from wall to wall.

   The stream is a small block of grains (gp_granular_add_block: the material's cubic lattice,
   spacing one diameter) added 0.8 m above the middle of a box every few frames, moving down,
   shifted by a fraction of a grain each time so that the grains do not land in columns. Each
   grain moves by the springs, dashpots and capped shear of its contacts (000 eqs. 10-13) and the
   walls' (the box of example_box_open, inside = true). Every frame the grains come back
   (gp_particles_read) and the example measures the heap: its height, and the angle of its slope
   from a straight line fitted to the height of its surface against the distance from the axis.

   The shear of eq. 12 is viscous: it grows with the sliding speed, so it slows grains on a slope
   but never holds them still, and once the pour stops the cone slowly slumps. A shear three times
   the default keeps it steeper for longer: 31 to 41 degrees while it is poured, 23 degrees a
   second after the pour stops, and still settling.

   Run: build/examples/sand_pile [--headless --frames N --out DIR] [--particles N].
   The default, 5,000 grains (poured by frame 276, about 0.1 s a frame on llvmpipe), suits a
   software renderer; a GPU takes hundreds of thousands (--particles; the stream grows with
   it). Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define DIAMETER 0.04f    /* metres, a grain */
#define FRICTION 0.6f     /* Coulomb's mu, grain on grain and grain on wall (default 0.5) */
#define SHEAR 3.0f        /* k_t of eq. 12 over the default (the damping); see the top */
#define FRAMES_APART 2    /* between two blocks of the stream */

/* xorshift32: the same heap on every run. */
static float random01(uint32_t* state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (float)(*state >> 8) / 16777216.0f;
}

/* The heap's height (m above the floor) and the angle of its slope (degrees), from the grains
   slower than 1 m/s (not the stream, nor grains bouncing off the heap): the surface is the
   highest grain top in rings one diameter wide about the axis (x, z); the cone's foot is the
   outermost ring whose surface is two grains high or more; the slope is the least squares line
   through the rings from a third of the way out (past the stream's footprint) to the foot.
   Returns 0 when there is no heap yet. */
static int measure(const gp_particle_position* p, const gp_particle_velocity* v, uint32_t n, const float axis[2],
                   float* height, float* angle) {
    enum { RINGS = 256 };
    float surface[RINGS] = {0.0f}, sr = 0.0f, sh = 0.0f, srr = 0.0f, srh = 0.0f;
    int foot = 0, k, used = 0;
    uint32_t i;
    for (i = 0; i < n; ++i) {
        float dx = p[i].x - axis[0], dz = p[i].z - axis[1], top = p[i].y + p[i].radius;
        int ring = (int)(sqrtf(dx * dx + dz * dz) / DIAMETER);
        if (ring < RINGS && v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z < 1.0f && top > surface[ring])
            surface[ring] = top;
    }
    *height = 0.0f;
    for (k = 0; k < RINGS; ++k) {
        if (surface[k] >= 2.0f * DIAMETER) foot = k + 1;
        *height = surface[k] > *height ? surface[k] : *height;
    }
    for (k = foot / 3; k < foot; ++k, ++used) {
        float r = ((float)k + 0.5f) * DIAMETER;
        sr += r; sh += surface[k]; srr += r * r; srh += r * surface[k];
    }
    if (used < 3) return 0;
    *angle = 57.29578f * atanf(-(used * srh - sr * sh) / (used * srr - sr * sr));
    return 1;
}

int main(int argc, char** argv) {
    example_app app;
    example_tank tank;
    gp_granular_material sand;
    gp_particle_position* positions;
    gp_particle_velocity* velocities;
    const float down[3] = {0.0f, -2.0f, 0.0f};   /* how fast the stream starts */
    float axis[2], scale;   /* where the stream falls (x, z); the scene's size over the default's */
    uint32_t seed = 7, grains, poured = 0, side;
    if (example_open(&app, "gpuparticle.h: sand pile", argc, argv)) return 1;
    grains = example_particles(&app, 5000);
    /* A layer of side x side grains every FRAMES_APART frames: all poured in about 280 frames,
       the stream wider for more grains. */
    side = (uint32_t)(sqrtf((float)grains / 140.0f) + 0.5f);
    if (side < 2) side = 2;
    /* A box 2 m wide and 1 m high for the default, wider and higher with more grains (a heap's
       size goes with the cube root of its grains), the stream above its middle. */
    scale = cbrtf((float)grains / 5000.0f) > 1.0f ? cbrtf((float)grains / 5000.0f) : 1.0f;
    memset(&tank, 0, sizeof tank);
    tank.max[0] = tank.max[2] = 2.0f * scale;
    tank.max[1] = 1.0f * scale;
    axis[0] = axis[1] = 1.0f * scale;
    if (example_box_open(&app, &tank, grains, DIAMETER)) return 1;   /* cells one grain wide */
    tank.camera.pitch = 0.25f;   /* lower than the fluid examples': the heap's profile shows */
    example_camera_fit(&tank.camera, tank.min, tank.max, (float)app.width / (float)app.height);
    memset(&sand, 0, sizeof sand);   /* density, stiffness and damping (restitution 0.5): the defaults */
    sand.diameter = DIAMETER;
    sand.friction = FRICTION;
    sand.shear = SHEAR * gp_query_granular_material_defaults(tank.world, &sand).damping;
    if (gp_granular_material_set(tank.world, 0, &sand) != GP_OK) return 1;
    positions = (gp_particle_position*)malloc(grains * sizeof *positions);
    velocities = (gp_particle_velocity*)malloc(grains * sizeof *velocities);
    if (!positions || !velocities) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as a contact needs */
        gp_fluid_stats stats;   /* the fastest grain, and the substeps */
        gp_draw_desc draw;
        uint32_t n;
        float height, angle;
        double now;
        if (app.frame % FRAMES_APART == 0 && grains - poured >= side * side) {
            /* The next block, one grain thick, 0.8 m up (scaled), shifted by up to a quarter of
               a grain each way. It has fallen more than a grain by the next one. */
            float lo[3], hi[3], extent = (float)side * DIAMETER;
            uint32_t added;
            lo[0] = axis[0] - 0.5f * extent + 0.5f * DIAMETER * (random01(&seed) - 0.5f);
            lo[1] = 0.8f * scale;
            lo[2] = axis[1] - 0.5f * extent + 0.5f * DIAMETER * (random01(&seed) - 0.5f);
            hi[0] = lo[0] + extent;
            hi[1] = lo[1] + DIAMETER;
            hi[2] = lo[2] + extent;
            if (gp_granular_add_block(tank.world, 0, lo, hi, down, &added) != GP_OK) return 1;
            poured += added;
        }
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK) return 1;
        n = gp_particle_count(tank.world);
        if (gp_particles_read(tank.world, GP_ATTRIBUTE_POSITION, 0, n, positions) != GP_OK ||
            gp_particles_read(tank.world, GP_ATTRIBUTE_VELOCITY, 0, n, velocities) != GP_OK)
            return 1;
        now = example_seconds();
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_UNIFORM;
        draw.color[0] = 0.86f; draw.color[1] = 0.72f; draw.color[2] = 0.46f; draw.color[3] = 1.0f;   /* sand */
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        printf("frame %4d  grains %6u  substeps %3u  max speed %5.2f m/s", app.frame, n, stats.substeps, stats.max_speed);
        if (measure(positions, velocities, n, axis, &height, &angle))
            printf("  heap %.3f m high, slope %4.1f degrees", height, angle);
        else
            printf("  no heap yet                       ");
        printf("  step %6.1f ms\n", 1000.0 * (now - app.frame_end));
        fflush(stdout);
    } while (example_end_frame(&app));
    free(positions);
    free(velocities);
    return example_tank_close(&app, &tank);
}
