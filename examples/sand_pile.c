/* sand_pile.c: sand poured from a nozzle piles up into a cone at sand's angle of repose, 30 to
   35 degrees, and keeps it once the pour stops: granular matter as Harada 2007 (GPU Gems 3,
   ch. 29, section 29.3.1) simulates it, with static friction.

   The nozzle is an emitter (gp_emitter_add, shape GP_EMITTER_POUR, kind GP_KIND_GRANULAR): it
   gives birth on the GPU to a layer of 3 x 3 grains across the stream every DIAMETER / SPEED
   seconds (108 grains a second), leaving downwards at SPEED, each point jittered by JITTER
   diameters each way (grains landing exactly on a lattice would stack as columns). As a funnel
   is raised while sand piles under it, the example keeps the nozzle ABOVE diameters over the
   heap's summit (gp_emitter_set), so that the grains land gently on its top and run down its
   flanks; once the nozzle has poured them all, the example removes it. The pour decides the
   angle: 800 grains poured as a stream five grains wide (21 a layer) stand at 29.5 degrees, not
   34.5; poured fast from a nozzle fixed 0.4 m up (grains 0.04 m wide, 19 a layer at 0.5 m/s, 240
   a second), 600 splash into a mound five grains high at 27 degrees, and 300 into one three high
   at 14.

   The grains are the library's default sand, only their diameter set: each contact a spring
   and dashpot across it and a shear spring kept from substep to substep while the contact
   lasts (Cundall and Strack 1979, GP_SHEAR_SPRING), capped by Coulomb's friction (the default mu
   0.3). The shear spring holds a contact still until its shear reaches mu times its push, so the
   cone keeps its slope once the pour stops. The walls (the box of example_box_open, inside =
   true) push the same way.

   Every frame the grains come back (gp_particles_read) and the example measures the heap
   (measure): its height, and the slope of its outline between the summit and the toe. Each line
   prints the slope the heap had when it came to rest (no grain faster than AT_REST) beside
   today's, and the grains in the box beside those poured. The default, 1,000 grains, rests 8
   grains high at 33.7 degrees (`make test` pours it, and checks 28 degrees or more, held within
   2 degrees once at rest, and no grain lost); 800 at 33 to 35 from three jitters; 600 at 30
   to 33 (the smaller the heap, the more a few grains decide its slope). A fit through every
   grain on the surface instead of the outline (tests/test_friction.c's) gives 3 to 10 degrees
   less on these heaps: 31 for 1,000 grains, 25 to 28 for 800.

   Run: build/examples/sand_pile [--headless --frames N --out DIR] [--particles N].
   The default pours for 9 s and is at rest by frame 640 (about 0.06 s a frame on llvmpipe);
   --particles N pours N grains at the same rate, in a box sized to the heap.
   Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define DIAMETER 0.1f        /* metres, a grain: wider ones take fewer substeps (longer contacts) */
#define SPEED 1.2f           /* m/s: the stream leaves the nozzle downwards, a layer every DIAMETER / SPEED s */
#define LAYER 9              /* grains a layer: a 3 x 3 stream */
#define ABOVE 1.5f           /* diameters: the nozzle above the heap's summit, where each layer is born */
#define JITTER 0.15f         /* the nozzle's jitter across the stream, in diameters (see main) */
#define AT_REST 0.05f        /* m/s: the heap is at rest once no grain is faster */

/* The heap's height (m above the floor), its summit (the top of its surface within three
   diameters of the axis, under the stream) and the angle of its slope (degrees), from the grains
   slower than 1 m/s (not the stream, nor grains bouncing off the heap). The surface is the highest
   grain top in rings half a diameter wide about the axis (x, z): the heap's outline seen from the
   side. The slope is the least squares line through that outline from the summit (past the last
   ring above four fifths of the height: the stream flattens the top) out to the toe (up to the
   first ring below a fifth of the height or 1.5 diameters: the first layer runs out beyond the
   cone). Returns 0 when there is no heap yet. */
static int measure(const gp_particle_position* p, const gp_particle_velocity* v, uint32_t n, const float axis[2],
                   float* height, float* summit, float* angle) {
    enum { RINGS = 512 };
    float surface[RINGS] = {0.0f}, sr = 0.0f, sh = 0.0f, srr = 0.0f, srh = 0.0f, toe;
    int k, outer = 0, used = 0;
    uint32_t i;
    for (i = 0; i < n; ++i) {
        float dx = p[i].x - axis[0], dz = p[i].z - axis[1], top = p[i].y + p[i].radius;
        int ring = (int)(sqrtf(dx * dx + dz * dz) / (0.5f * DIAMETER));
        if (ring < RINGS && v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z < 1.0f && top > surface[ring])
            surface[ring] = top;
    }
    *height = 0.0f;
    for (k = 0; k < RINGS; ++k) *height = surface[k] > *height ? surface[k] : *height;
    for (k = 0; k < RINGS; ++k) outer = surface[k] > 0.8f * *height ? k : outer;
    for (*summit = 0.0f, k = 0; k < 6; ++k) *summit = surface[k] > *summit ? surface[k] : *summit;
    toe = 0.2f * *height > 1.5f * DIAMETER ? 0.2f * *height : 1.5f * DIAMETER;
    for (k = outer + 1; k < RINGS && surface[k] >= toe; ++k, ++used) {
        float r = ((float)k + 0.5f) * 0.5f * DIAMETER;
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
    gp_emitter_desc nozzle;
    gp_emitter emitter;
    gp_emitter_stats emitted;
    gp_particle_position* positions;
    gp_particle_velocity* velocities;
    float axis[2], half, rest_angle = 0.0f;   /* axis: where the stream falls (x, z) */
    uint32_t grains, capacity, poured = 0;
    int pouring = 1, rested = -1;   /* rested: the first frame at rest after the pour */
    if (example_open(&app, "gpuparticle.h: sand pile", argc, argv)) return 1;
    grains = example_particles(&app, 1000);
    /* The heap's foot lies about cbrt(grains) diameters from its axis: a box half as wide again
       as the heap, half as high as it is wide, the nozzle above its middle. */
    half = 1.5f * DIAMETER * cbrtf((float)grains);
    memset(&tank, 0, sizeof tank);
    tank.max[0] = tank.max[2] = 2.0f * half;
    tank.max[1] = half;
    axis[0] = axis[1] = half;
    capacity = grains + LAYER + 64u;   /* room for the grains and the layer the nozzle may give beyond them */
    if (example_box_open(&app, &tank, capacity, DIAMETER)) return 1;   /* cells one grain wide */
    tank.camera.pitch = 0.25f;   /* lower than the fluid examples': the heap's profile shows */
    example_camera_fit(&tank.camera, tank.min, tank.max, (float)app.width / (float)app.height);
    memset(&sand, 0, sizeof sand);   /* the library's sand: every contact parameter its default */
    sand.diameter = DIAMETER;
    if (gp_granular_material_set(tank.world, 0, &sand) != GP_OK) return 1;
    memset(&nozzle, 0, sizeof nozzle);
    nozzle.shape = GP_EMITTER_POUR;
    nozzle.kind = GP_KIND_GRANULAR;   /* radius and mass: the material's */
    nozzle.position[0] = axis[0];
    nozzle.position[1] = ABOVE * DIAMETER;   /* raised with the heap (below) */
    nozzle.position[2] = axis[1];
    nozzle.direction[1] = -1.0f;      /* down, */
    nozzle.speed[0] = SPEED;
    nozzle.rate = LAYER * SPEED / DIAMETER;   /* grains a second: LAYER at every layer */
    /* jittered across the stream (the library spaces the lattice so that none overlap) */
    nozzle.radius = JITTER;
    nozzle.seed = 7;                  /* the same heap on every run */
    if (gp_emitter_add(tank.world, &nozzle, &emitter) != GP_OK) return 1;
    positions = (gp_particle_position*)malloc(capacity * sizeof *positions);
    velocities = (gp_particle_velocity*)malloc(capacity * sizeof *velocities);
    if (!positions || !velocities) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as a contact needs */
        gp_fluid_stats stats;   /* the fastest grain, and the substeps */
        gp_draw_desc draw;
        uint32_t n;
        float height, summit, angle = 0.0f;
        int heap;
        double now;
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK) return 1;
        if (pouring) {   /* the births the nozzle made: all of them once it has made the grains */
            if (gp_emitter_stats_get(tank.world, emitter, &emitted) != GP_OK) return 1;
            poured = (uint32_t)emitted.emitted;
            if (poured >= grains) {
                if (gp_emitter_remove(tank.world, emitter) != GP_OK) return 1;
                pouring = 0;
            }
        }
        if (gp_particle_count_read(tank.world, &n) != GP_OK ||   /* the exact count, this step's */
            gp_particles_read(tank.world, GP_ATTRIBUTE_POSITION, 0, n, positions) != GP_OK ||
            gp_particles_read(tank.world, GP_ATTRIBUTE_VELOCITY, 0, n, velocities) != GP_OK)
            return 1;
        heap = measure(positions, velocities, n, axis, &height, &summit, &angle);
        /* The nozzle rises with the heap, ABOVE diameters over its summit, as a funnel is raised
           as sand piles under it (never lowered: a layer would be born into the one before). */
        if (pouring && summit + ABOVE * DIAMETER > nozzle.position[1]) {
            nozzle.position[1] = summit + ABOVE * DIAMETER;
            if (gp_emitter_set(tank.world, emitter, &nozzle) != GP_OK) return 1;
        }
        now = example_seconds();
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_UNIFORM;
        draw.color[0] = 0.86f; draw.color[1] = 0.72f; draw.color[2] = 0.46f; draw.color[3] = 1.0f;   /* sand */
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        printf("frame %4d  grains %6u of %6u poured  substeps %3u  max speed %5.2f m/s", app.frame, n, poured, stats.substeps,
               stats.max_speed);
        if (heap) {
            /* the slope the heap is held to: when it first came to rest after the pour */
            if (rested < 0 && !pouring && stats.max_speed < AT_REST) {
                rested = app.frame;
                rest_angle = angle;
            }
            printf("  heap %.3f m high, slope %4.1f degrees", height, angle);
            if (rested >= 0) printf(" (at rest %3d frames: %4.1f then, %+4.1f since)", app.frame - rested, rest_angle, angle - rest_angle);
            else printf(" (%s)", pouring ? "pouring" : "settling");
        } else {
            printf("  no heap yet");
        }
        printf("  step %6.1f ms\n", 1000.0 * (now - app.frame_end));
        fflush(stdout);
    } while (example_end_frame(&app));
    free(positions);
    free(velocities);
    return example_tank_close(&app, &tank);
}
