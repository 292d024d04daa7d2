/* pile_of_bodies.c: rigid bodies made of particles piling up in a box, the scene of paper 000's
   figure 29-1 (GPU Gems 3, ch. 29): tori and chess pieces rain down in layers, with random
   orientations, and come to rest in a heap.

   Each kind of body is a closed triangle mesh from shapes.h (torus, pawn, rook, bishop) turned
   into a gp_body_shape with GP_SHAPE_MESH: the mesh is cut into voxels of the granular
   material's diameter and each voxel inside it becomes a particle (000 section 29.1.3), here 24
   to 32 per body. The shapes are made once; gp_bodies_add places many bodies of each. Every
   substep the particles' contacts (springs, dashpots and friction, 000 section 29.1.5) are summed
   into each body's force and torque, and the bodies move as wholes. gp_draw_bodies draws each
   body's mesh from its position and quaternion on the GPU. The tank is example_app.h's box
   (example_box_open): a box collider with inside = true, its grid's cells one particle wide.

   Run: build/examples/pile_of_bodies [--headless --frames N --out DIR] [--particles N].
   The default, 240 bodies of 6,256 particles, suits a software renderer (about 0.1 s a frame on
   llvmpipe): the last layer drops at frame 90 and the heap is all but still by frame 150.
   --particles N makes about N / 25 bodies (a GPU takes thousands) in a wider box. Each frame
   prints how many bodies there are, how many left the box (none should), how many are at rest
   and the highest of those. Drag with the left button to orbit, scroll to zoom, Esc quits. */
#include "example_app.h"
#include "shapes.h"
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"

#define DIAMETER 0.05f     /* metres: a particle of a body, and the voxel its mesh is cut into */
#define STIFFNESS 2.0f     /* times the material's default stiffness (see main) */
#define KINDS 4            /* torus, pawn, rook, bishop */
#define LAYERS 12          /* about how many layers are dropped */
#define FRAMES_APART 10    /* between two layers */
#define DROP_SPEED 2.0f    /* m/s downwards: by the next layer, the last is more than a body lower */

/* xorshift32: the same pile on every run. */
static float random01(uint32_t* state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (float)(*state >> 8) / 16777216.0f;
}

/* A uniformly random orientation (Shoemake's method), as (x, y, z, w). */
static void random_orientation(uint32_t* state, float q[4]) {
    float u = random01(state), a = 6.2831853f * random01(state), b = 6.2831853f * random01(state);
    q[0] = sqrtf(1.0f - u) * sinf(a);
    q[1] = sqrtf(1.0f - u) * cosf(a);
    q[2] = sqrtf(u) * sinf(b);
    q[3] = sqrtf(u) * cosf(b);
}

/* The four meshes, 7 particle diameters tall or wide, centred on the origin so that a body turns
   about the middle of its bounds. */
static int make_shape(gp_world* world, int kind, gp_body_shape* shape, gp_body_shape_info* info) {
    const float height = 7.0f * DIAMETER;
    shape_mesh mesh;
    gp_shape_desc desc;
    uint32_t i;
    int ok = kind == 0 ? shape_torus(0.25f * height, 0.11f * height, 24, 12, &mesh)
           : kind == 1 ? shape_pawn(height, &mesh)
           : kind == 2 ? shape_rook(height, &mesh)
                       : shape_bishop(height, &mesh);
    if (ok != SHAPE_OK) return 0;
    if (kind != 0)   /* a piece stands on y = 0: lower its middle to the origin */
        for (i = 0; i < mesh.vertex_count; ++i) mesh.vertices[3 * i + 1] -= 0.5f * height;
    memset(&desc, 0, sizeof desc);
    desc.shape = GP_SHAPE_MESH;
    desc.phase = 0;   /* the material whose diameter is the voxel */
    desc.vertices = mesh.vertices;
    desc.vertex_count = mesh.vertex_count;
    desc.triangles = mesh.indices;
    desc.triangle_count = mesh.triangle_count;
    ok = gp_body_shape_create(world, &desc, shape) == GP_OK && gp_body_shape_info_get(world, *shape, info) == GP_OK;
    shape_mesh_free(&mesh);
    return ok;
}

int main(int argc, char** argv) {
    static const char* names[KINDS] = {"torus", "pawn", "rook", "bishop"};
    const float size = 8.0f * DIAMETER;   /* a body's room in a layer: its bounding sphere and a gap */
    example_app app;
    example_tank tank;
    gp_granular_material material;
    gp_body_shape shapes[KINDS];
    gp_body_shape_info infos[KINDS];
    gp_body_desc* bodies;
    gp_body_state* states;
    uint32_t seed = 2024, count, dropped = 0, side, per_layer, total = 0, k;
    float highest = 0.0f;   /* the highest centre of mass, m */
    int kind;
    memset(&tank, 0, sizeof tank);
    if (example_open(&app, "gpuparticle.h: pile of bodies", argc, argv)) return 1;
    count = example_particles(&app, 6000) / 25;   /* bodies: about 25 particles each */
    if (count < 1) count = 1;
    side = (uint32_t)ceilf(sqrtf((float)count / LAYERS));   /* bodies along x and along z in a layer */
    per_layer = side * side;
    tank.max[0] = tank.max[2] = (float)side * size;
    tank.max[1] = (0.15f * LAYERS + 2.0f) * size;   /* room for the heap and the drop above it */
    /* The world, with room for count bodies of fewer than 64 particles each (checked below). */
    if (example_box_open(&app, &tank, count * 64, DIAMETER)) return 1;
    /* The material: particles of DIAMETER, twice as stiff as the default (which lets two lone
       grains meeting at 1 m/s overlap by 5% of a diameter), because a body lands with the mass of
       all its particles on the few that touch. gp_world_step shortens the substep to match: 36
       substeps a frame instead of 25. */
    memset(&material, 0, sizeof material);
    material.diameter = DIAMETER;
    material.stiffness = STIFFNESS * gp_query_granular_material_defaults(tank.world, &material).stiffness;
    if (gp_granular_material_set(tank.world, 0, &material) != GP_OK) return 1;
    for (kind = 0; kind < KINDS; ++kind) {
        if (!make_shape(tank.world, kind, &shapes[kind], &infos[kind]) || infos[kind].particles >= 64) return 1;
        printf("%-6s %3u particles  %5.2f kg\n", names[kind], infos[kind].particles, infos[kind].mass);
    }
    bodies = (gp_body_desc*)calloc(count, sizeof *bodies);
    states = (gp_body_state*)calloc(count, sizeof *states);
    if (!bodies || !states) return 1;
    /* Every body's kind, place in its layer (x and z; the height is set when the layer drops) and
       orientation, fixed now. */
    for (k = 0; k < count; ++k) {
        uint32_t at = k % per_layer;
        kind = (int)(random01(&seed) * KINDS);
        bodies[k].shape = shapes[kind];
        bodies[k].position[0] = ((float)(at % side) + 0.5f) * size;
        bodies[k].position[2] = ((float)(at / side) + 0.5f) * size;
        random_orientation(&seed, bodies[k].orientation);
        total += infos[kind].particles;
    }
    printf("%u bodies of %u particles in all, dropped in %u layers of %u\n", count, total, (count + per_layer - 1) / per_layer,
           per_layer);
    do {
        gp_step_desc step = {.dt = 1.0f / 60.0f};   /* substeps 0: as many as a contact needs */
        gp_fluid_stats stats;   /* the fastest particle and the substeps, whatever their kind */
        gp_draw_desc draw;
        uint32_t outside = 0, resting = 0, i;
        float top;   /* the highest centre of mass at rest, m */
        double now;
        if (app.frame % FRAMES_APART == 0 && dropped < count) {
            /* The next layer, a body's size above the highest body and below the lid. The last
               layer, if it still falls, is faster than this one starts: they never meet. */
            uint32_t n = count - dropped < per_layer ? count - dropped : per_layer;
            float y = (dropped ? highest : -0.5f * size) + size;
            if (y > tank.max[1] - 0.5f * size) y = tank.max[1] - 0.5f * size;
            for (i = 0; i < n; ++i) {
                bodies[dropped + i].position[1] = y;
                bodies[dropped + i].velocity[1] = -DROP_SPEED;
            }
            if (gp_bodies_add(tank.world, bodies + dropped, n, NULL) != GP_OK) return 1;
            dropped += n;
        }
        if (gp_world_step(tank.world, &step) != GP_OK || gp_fluid_stats_read(tank.world, &stats) != GP_OK ||
            gp_bodies_read(tank.world, NULL, dropped, states) != GP_OK)
            return 1;
        now = example_seconds();
        for (highest = top = 0.0f, i = 0; i < dropped; ++i) {
            const float* c = states[i].center_of_mass;
            const float* v = states[i].velocity;
            outside += !(c[0] > tank.min[0] && c[0] < tank.max[0] && c[1] > tank.min[1] && c[1] < tank.max[1] &&
                         c[2] > tank.min[2] && c[2] < tank.max[2]);
            highest = c[1] > highest ? c[1] : highest;
            if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < 0.05f * 0.05f) {   /* at rest: in the heap */
                ++resting;
                top = c[1] > top ? c[1] : top;
            }
        }
        example_tank_begin(&app, &tank, &draw);
        if (gp_draw_bodies(tank.world, &draw) != GP_OK) return 1;   /* each body's mesh, a colour each */
        printf("frame %4d  bodies %5u  outside the box %u  at rest %5u  highest at rest %.2f m  substeps %3u  max speed %5.2f m/s"
               "  step %6.1f ms\n", app.frame, dropped, outside, resting, top, stats.substeps, stats.max_speed,
               1000.0 * (now - app.frame_end));
        fflush(stdout);
    } while (example_end_frame(&app));
    free(bodies);
    free(states);
    return example_tank_close(&app, &tank);
}
