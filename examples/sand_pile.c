/* sand_pile.c: a stream of sand poured from a nozzle piles up into a cone that keeps its slope
   once the pour stops: paper 000's granular matter (GPU Gems 3, ch. 29, section 29.3.1) with
   static friction (issue 13).

   The nozzle is an emitter (gp_emitter_add, shape GP_EMITTER_POUR, kind GP_KIND_GRANULAR): 0.4 m
   above the middle of a box it gives birth on the GPU to a layer of grains across the stream
   every layer's spacing / speed seconds, leaving downwards at 0.5 m/s, at a rate that pours them
   all in POUR_SECONDS (at 300 grains); once it has, the example removes it. The layer's points
   are jittered by JITTER diameters each way (the lattice then 1 + 2 JITTER diameters apart, so
   that no two are born overlapping): grains landing exactly on a lattice would stack as columns.
   The grains are the library's default sand, only their diameter set: each contact a spring and
   dashpot across it (000 eqs. 10-11) and a shear spring kept from substep to substep while the
   contact lasts (Cundall and Strack, GP_SHEAR_SPRING), capped by Coulomb (the default mu 0.3, at
   which these grains, which do not spin, pile at sand's 30-35 degrees in heaps of a few thousand).
   The walls (the box of example_box_open, inside = true) push the same way. Every frame the grains
   come back (gp_particles_read) and the example measures the heap: its height, and the angle of
   its slope from a straight line fitted to the height of its surface against the distance from
   the axis.

   The shear spring holds a contact still until its shear reaches mu times its push, so the cone
   stands once the pour stops: 300 grains come to rest 0.14 m high at 12 degrees (a heap four
   grains high, whose slope is a matter of a few grains: 19 degrees when the grid's cells take any
   order, gp_world_desc.any_order), 600 0.2 m high at 23-24 either way (the bigger the heap, the
   nearer sand's angle), and keep them to the degree. The
   paper's viscous shear (GP_SHEAR_VISCOUS) only slows sliding: there the grains spread into a
   low mound. Each line prints the slope the heap had when it came to rest after the pour (no
   grain faster than AT_REST) beside today's, and the grains in the box beside those poured:
   `make test` pours 600 and checks a slope of 15 to 60 degrees that holds within 2 degrees for 30
   frames and more once at rest, and that no grain is lost.

   Run: build/examples/sand_pile [--headless --frames N --out DIR] [--particles N].
   The default, 300 grains (poured in 2 s, at rest by frame 165, about 0.04 s a frame on
   llvmpipe); --particles N pours more (in 2 s times the cube root of N / 300, the stream wider).
   Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define DIAMETER 0.04f       /* metres, a grain */
#define POUR_SECONDS 2.0f    /* the pour's length at 300 grains; longer for more (see main) */
#define JITTER 0.3f          /* the nozzle's jitter across the stream, in diameters (see main) */
#define AT_REST 0.05f        /* m/s: the heap is at rest once no grain is faster */

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
    gp_emitter_desc nozzle;
    gp_emitter emitter;
    gp_emitter_stats emitted;
    gp_particle_position* positions;
    gp_particle_velocity* velocities;
    float axis[2], scale, pour_seconds, rest_angle = 0.0f;   /* where the stream falls (x, z) */
    uint32_t grains, capacity, poured = 0;
    int pouring = 1, rested = -1;   /* rested: the first frame at rest after the pour */
    if (example_open(&app, "gpuparticle.h: sand pile", argc, argv)) return 1;
    grains = example_particles(&app, 300);
    /* 300 grains in 2 s; more take longer (the cube root: a taller heap), the stream wider */
    pour_seconds = POUR_SECONDS * cbrtf((float)grains / 300.0f);
    /* A box 2 m wide and 1 m high for the default, wider and higher with more grains (a heap's
       size goes with the cube root of its grains), the nozzle above its middle. */
    scale = cbrtf((float)grains / 5000.0f) > 1.0f ? cbrtf((float)grains / 5000.0f) : 1.0f;
    memset(&tank, 0, sizeof tank);
    tank.max[0] = tank.max[2] = 2.0f * scale;
    tank.max[1] = 1.0f * scale;
    axis[0] = axis[1] = 1.0f * scale;
    /* room for the grains and the layer the nozzle may give beyond them before it is removed */
    capacity = grains + (uint32_t)((float)grains / pour_seconds * DIAMETER / 2.0f) + 64u;
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
    nozzle.position[1] = 0.4f * scale;
    nozzle.position[2] = axis[1];
    nozzle.direction[1] = -1.0f;      /* down, */
    nozzle.speed[0] = 0.5f;           /* m/s: a layer every DIAMETER / 0.5 s */
    /* jittered across the stream (the library spaces the lattice so that none overlap) */
    nozzle.radius = JITTER;
    nozzle.rate = (float)grains / pour_seconds;
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
        float height, angle;
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
        now = example_seconds();
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_UNIFORM;
        draw.color[0] = 0.86f; draw.color[1] = 0.72f; draw.color[2] = 0.46f; draw.color[3] = 1.0f;   /* sand */
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        printf("frame %4d  grains %6u of %6u poured  substeps %3u  max speed %5.2f m/s", app.frame, n, poured, stats.substeps,
               stats.max_speed);
        if (measure(positions, velocities, n, axis, &height, &angle)) {
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
