/* glasses.c: water poured into a stack of glasses, then a glass thrown into the stack: paper
   000's figure 29-11 (top), the fluid and the rigid bodies pushing each other (gpuparticle.h's
   >>coupling). Five square glasses stand in two tiers in a closed tank, four on the floor and
   one on their rims; a nozzle above pours water into the top one for POUR_SECONDS, which fills
   and spills into the glasses below and onto the floor; at THROW_SECONDS a sixth glass is
   thrown, spinning, at the top of the stack.

   A glass is a closed mesh from shapes.h (shape_open_box: an open box whose walls and bottom
   are one fluid spacing thick) made into a gp_body_shape (GP_SHAPE_MESH) once and placed six
   times with gp_bodies_add, the sixth with a velocity and a spin while the world runs. The
   water comes from a pour (gp_pour_add), removed once it has given the example's count. As in
   boats.c, a glass's particles are of a granular material whose diameter is the fluid's
   spacing; a rigid particle weighs density pi d^3 / 6 but stands for a voxel of d^3, so glass
   of effective density D takes the material density D * 6 / pi. The water is example_app.h's
   tank water, drawn coloured by density, the glasses over it, translucent (gp_draw_bodies with
   blending). The fluid is the library's default, water (--summation: the paper's summation
   density with a syrup's viscosity).

   Run: build/examples/glasses [--headless --frames N --out DIR] [--particles N] [--summation].
   The default pours 1,500 fluid particles 2 cm apart (the glasses take 1,056 more), which suits
   a software renderer: 0.4 to 2 s a frame on llvmpipe, about a minute for the headless default
   of 60 frames (the first second of the pour); the whole scene, the pour, the throw and the
   stack's fall, takes --frames 200 (about 5 minutes). --particles N pours N, finer (a GPU takes
   hundreds of thousands). Each frame prints the fluid particles against those poured (none may
   be lost), how many glasses hold water (at least a layer on their floor), the fluid particles
   in glasses, how many glasses stand upright (within 20 degrees), how many particles are
   outside the tank (none should be) and the fastest particle, fluid or solid. Drag with the
   left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#include "shapes.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define GLASSES 6              /* four below, one on their rims, one thrown */
#define GLASS_DENSITY 2500.0f  /* kg/m^3 of a glass's walls: it sinks once it is full */
#define WATER 0.012f           /* m^3 poured (with --particles N, N particles of it) */
#define NOZZLE_RADIUS 0.035f   /* m: the stream, a little narrower than a glass's mouth */
#define POUR_SECONDS 2.0f
#define THROW_SECONDS 2.5f

/* Where p (world) is in the body's own frame: the conjugate of its orientation q = (x, y, z, w)
   turns v = p - origin, v' = v + 2 w c + 2 u x c with u = -(x, y, z) and c = u x v. */
static void to_body_frame(const gp_body_state* body, const float p[3], float local[3]) {
    const float u[3] = {-body->orientation[0], -body->orientation[1], -body->orientation[2]}, w = body->orientation[3];
    const float v[3] = {p[0] - body->position[0], p[1] - body->position[1], p[2] - body->position[2]};
    const float c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    local[0] = v[0] + 2.0f * w * c[0] + 2.0f * (u[1] * c[2] - u[2] * c[1]);
    local[1] = v[1] + 2.0f * w * c[1] + 2.0f * (u[2] * c[0] - u[0] * c[2]);
    local[2] = v[2] + 2.0f * w * c[2] + 2.0f * (u[0] * c[1] - u[1] * c[0]);
}

int main(int argc, char** argv) {
    example_app app;
    example_tank tank = {.min = {0.0f, 0.0f, 0.0f}, .max = {0.64f, 0.56f, 0.4f}};
    gp_granular_material glass;
    gp_shape_desc desc;
    gp_body_shape_info info;
    gp_body_desc glasses[GLASSES];
    gp_body_state states[GLASSES];
    gp_pour_desc nozzle;
    gp_pour pour;
    gp_pour_state poured = {0, false};
    gp_particle_position* at;
    gp_particle_info* kinds;
    shape_mesh mesh;
    float size[3], layer, pitch, center[2] = {0.42f, 0.2f};
    uint32_t n, per_glass, capacity, margin, bodies = GLASSES - 1, k, i;
    int cells[3];
    memset(&desc, 0, sizeof desc);
    if (example_open(&app, "gpuparticle.h: glasses", argc, argv)) return 1;
    n = example_particles(&app, 1500);
    tank.spacing = cbrtf(WATER / (float)n);
    /* A glass about 12 x 16 x 12 cm outside, in whole spacings (an even number across, so that
       its faces fall between the voxels centred on the shape's origin), its walls one spacing:
       6 x 8 x 6 particles at the default, 176 of them, and 4 x 7 x 4 spacings of room inside
       (a finer --particles makes the walls thinner, the glass lighter). */
    for (k = 0; k < 3; ++k) {
        cells[k] = k == 1 ? (int)fmaxf(2.0f, roundf(0.16f / tank.spacing)) : 2 * (int)fmaxf(2.0f, roundf(0.06f / tank.spacing));
        size[k] = (float)cells[k] * tank.spacing;
    }
    pitch = size[0] + 2.0f * tank.spacing;   /* between the lower glasses' centres: a gap of two spacings */
    /* The pour: layers of pi (r / s)^2 particles each, one every spacing of the stream, at the
       rate that gives n particles in POUR_SECONDS; the speed follows (1.6 m/s at any spacing). */
    layer = fmaxf(1.0f, 3.14159265f * (NOZZLE_RADIUS / tank.spacing) * (NOZZLE_RADIUS / tank.spacing));
    memset(&nozzle, 0, sizeof nozzle);
    nozzle.rate = (float)n / POUR_SECONDS;
    nozzle.speed = nozzle.rate * tank.spacing / layer;
    nozzle.position[0] = center[0];
    nozzle.position[1] = 2.0f * size[1] + 0.1f;   /* 10 cm above the top glass's rim */
    nozzle.position[2] = center[1];
    /* The store: the glasses (their walls' voxels), the water and what the pour may add in the
       frame it is removed. */
    margin = (uint32_t)ceilf(nozzle.rate / 30.0f + 2.0f * layer);
    per_glass = (uint32_t)(cells[0] * cells[1] * cells[2] - (cells[0] - 2) * (cells[1] - 1) * (cells[2] - 2));
    capacity = GLASSES * per_glass + n + margin;
    if (example_tank_open(&app, &tank, capacity)) return 1;
    /* The glass: a granular material of the fluid's spacing, and the mesh made into particles. */
    memset(&glass, 0, sizeof glass);
    glass.diameter = tank.spacing;
    glass.density = GLASS_DENSITY * 6.0f / 3.14159265f;
    if (shape_open_box(size, tank.spacing, &mesh) != SHAPE_OK) return 1;
    desc.shape = GP_SHAPE_MESH;
    desc.vertices = mesh.vertices;
    desc.vertex_count = mesh.vertex_count;
    desc.triangles = mesh.indices;
    desc.triangle_count = mesh.triangle_count;
    memset(glasses, 0, sizeof glasses);
    if (gp_granular_material_set(tank.world, 0, &glass) != GP_OK || gp_body_shape_create(tank.world, &desc, &glasses[0].shape) != GP_OK ||
        gp_body_shape_info_get(tank.world, glasses[0].shape, &info) != GP_OK)
        return 1;
    if (info.particles != per_glass) {   /* the walls are whole voxels: none lost, none added */
        fprintf(stderr, "glasses: a glass has %u particles, not %u\n", info.particles, per_glass);
        return 1;
    }
    shape_mesh_free(&mesh);
    /* The stack: four on the floor, a gap between them, and one on the middle of their rims. */
    for (k = 0; k < GLASSES; ++k) glasses[k].shape = glasses[0].shape;
    for (k = 0; k < 4; ++k) {
        glasses[k].position[0] = center[0] + (k & 1 ? 0.5f : -0.5f) * pitch;
        glasses[k].position[2] = center[1] + (k & 2 ? 0.5f : -0.5f) * pitch;
    }
    glasses[4].position[0] = center[0];
    glasses[4].position[1] = size[1];
    glasses[4].position[2] = center[1];
    /* The thrown one: from the left, level with the top glass's rim, tipped 0.3 rad towards it and spinning. */
    glasses[5].position[0] = 0.6f * size[0];
    glasses[5].position[1] = 1.3f * size[1];
    glasses[5].position[2] = center[1];
    glasses[5].orientation[2] = -sinf(0.15f);
    glasses[5].orientation[3] = cosf(0.15f);
    glasses[5].velocity[0] = 2.5f;
    glasses[5].velocity[1] = 0.8f;
    glasses[5].angular_velocity[2] = -6.0f;
    if (gp_bodies_add(tank.world, glasses, bodies, NULL) != GP_OK || gp_pour_add(tank.world, &nozzle, &pour) != GP_OK) return 1;
    printf("glass: %u particles, %.2f kg, %.1f x %.1f x %.1f cm; water: %u particles %.1f cm apart, poured at %.0f a second, %.2f m/s\n",
           info.particles, (double)info.mass, 100.0 * size[0], 100.0 * size[1], 100.0 * size[2], n, 100.0 * tank.spacing,
           (double)nozzle.rate, (double)nozzle.speed);
    at = (gp_particle_position*)malloc(capacity * sizeof *at);
    kinds = (gp_particle_info*)malloc(capacity * sizeof *kinds);
    if (!at || !kinds) return 1;
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as the fluid and the contacts need */
        gp_fluid_stats stats;
        gp_draw_desc draw;
        uint32_t count, fluid = 0, outside = 0, inside[GLASSES] = {0}, held = 0, holding = 0, upright = 0;
        float t = (float)(app.frame + 1) / 60.0f;   /* seconds, after this frame's step */
        double now;
        if (bodies < GLASSES && t > THROW_SECONDS) {   /* throw the last glass */
            if (gp_bodies_add(tank.world, &glasses[bodies], 1, NULL) != GP_OK) return 1;
            ++bodies;
        }
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK ||
            gp_bodies_read(tank.world, NULL, bodies, states) != GP_OK)
            return 1;
        if (pour.id != 0) {
            if (gp_pour_state_get(tank.world, pour, &poured) != GP_OK) return 1;
            if (poured.emitted >= n) {
                gp_pour_remove(tank.world, pour);
                pour.id = 0;   /* never a valid pour */
            }
        }
        /* Every particle: fluid counted, outside the tank counted, and each fluid particle in a
           glass's cavity (its own frame) counted for that glass. */
        count = gp_particle_count(tank.world);
        if (gp_particles_read(tank.world, GP_ATTRIBUTE_POSITION, 0, count, at) != GP_OK ||
            gp_particles_read(tank.world, GP_ATTRIBUTE_INFO, 0, count, kinds) != GP_OK)
            return 1;
        now = example_seconds();
        for (i = 0; i < count; ++i) {
            const float p[3] = {at[i].x, at[i].y, at[i].z};
            outside += !(p[0] >= tank.min[0] && p[0] <= tank.max[0] && p[1] >= tank.min[1] && p[1] <= tank.max[1] &&
                         p[2] >= tank.min[2] && p[2] <= tank.max[2]);
            if ((kinds[i].kind & 255u) != GP_KIND_FLUID) continue;
            ++fluid;
            for (k = 0; k < bodies; ++k) {
                float local[3];
                to_body_frame(&states[k], p, local);
                if (fabsf(local[0]) < 0.5f * size[0] - tank.spacing && fabsf(local[2]) < 0.5f * size[2] - tank.spacing &&
                    local[1] > tank.spacing && local[1] < size[1])
                    ++inside[k];
            }
        }
        for (k = 0; k < bodies; ++k) {
            const float* q = states[k].orientation;
            upright += 1.0f - 2.0f * (q[0] * q[0] + q[2] * q[2]) > 0.94f;   /* its y axis within 20 degrees of up */
            holding += inside[k] >= (uint32_t)((cells[0] - 2) * (cells[2] - 2));   /* at least a layer on its floor */
            held += inside[k];
        }
        example_tank_begin(&app, &tank, &draw);
        draw.color_by = GP_COLOR_DENSITY;
        draw.range[0] = 700.0f;    /* kg/m^3: white at the surface and in the spray, */
        draw.range[1] = 1000.0f;   /* blue in the bulk */
        draw.radius_scale = 0.85f; /* a glass's own particles stay inside its faces */
        if (gp_draw_particles(tank.world, &draw) != GP_OK) return 1;
        /* the glasses over the water, translucent, without hiding what is behind them */
        draw.color[3] = 0.35f;
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        if (gp_draw_bodies(tank.world, &draw) != GP_OK) return 1;
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
        printf("frame %4d  t %4.2f s  fluid %5u of %5llu poured  glasses %u  holding water %u  in glasses %5u  upright %u"
               "  outside the tank %u  fastest %5.2f m/s  substeps %3u  step %6.1f ms\n",
               app.frame, (double)t, fluid, (unsigned long long)poured.emitted, bodies, holding, held, upright, outside,
               (double)stats.max_speed, stats.substeps, 1000.0 * (now - app.frame_end));
        if (fluid != poured.emitted) printf("  %llu fluid particles lost\n", (unsigned long long)poured.emitted - fluid);
        if (stats.nonfinite) printf("  %u particles stopped after an update that was not finite\n", stats.nonfinite);
        fflush(stdout);
    } while (example_end_frame(&app));
    free(at);
    free(kinds);
    return example_tank_close(&app, &tank);
}
