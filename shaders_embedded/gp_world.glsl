// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.
// Mirrored by gp__world_params in gpuparticle.h (section >>structs), checked field by field by a test.
layout(std140, binding = 0) uniform gp_world_block {
    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cells per metre (1 / cell size)
    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)
    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (GP_FLAG_DETERMINISTIC)
};
