#version 430 core
// >>defines
#define GP_GROUP_SIZE 256
#define GP_KIND_FLUID 1u
#define GP_KIND_GRANULAR 2u
#define GP_KIND_RIGID 3u
#define GP_KIND_EFFECT 5u
#define GP_GRID_BOUNDED 1
#define GP_GRID_HASHED 2
#define GP_MAX_FLUID_MATERIALS 8u
#define GP_MAX_FORCES 8u
#define GP_MAX_COLLIDERS 32u
#define GP_MAX_GRANULAR_MATERIALS 8u
#define GP_MAX_EFFECT_MATERIALS 8u
#define GP_WALL_SAMPLES 32u
#define GP_FLAG_DETERMINISTIC 1u
#define GP_KIND_CLOTH 4u
#define GP_PARTICLE_DEAD 256u
#define GP_NO_SLOT 4294967295u
#define GP_MAX_EMITTERS 32u
#define GP_EMITTER_SPHERE 2.0
#define GP_EMITTER_BOX 3.0
#define GP_EMITTER_DISC 4.0
#define GP_EMITTER_CONE 5.0
#define GP_INTEGRATOR_MASK 3u
#define GP_FLAG_ARTIFICIAL_VISCOSITY 256u
#define GP_SHAPE_SPHERE 1.0
#define GP_SHAPE_BOX 2.0
#define GP_SHAPE_CAPSULE 3.0
#define GP_SHAPE_PLANE 4.0
#define GP_SHAPE_MESH 5.0
#define GP_SHAPE_HEIGHTFIELD 6.0
#define GP_SCAN_CHUNK 32u
#define GP_SORT_RUN 16u
#define GP_GRID_CROWD 256u
#define GP_ARGS_RANK 0u
#define GP_ARGS_IDS 1u
#define GP_ARGS_SORT_LOCAL 2u
#define GP_ARGS_SORT_HALF 3u
#define GP_ARGS_SORT_QUARTER 4u
#define GP_BINDING_COUNT_WORDS 0
#define GP_BINDING_ARGS 1
// <<defines
// dispatch_args: turns an element count that lives on the GPU into the three words of
// glDispatchComputeIndirect (gp_dispatch.glsl).
// >>include gp_dispatch.glsl
// gp_dispatch.glsl: glDispatchComputeIndirect's three words for one invocation per element of a
// count that lives on the GPU: ceil(count / group size) workgroups, split as x * y when they exceed
// 65,535 (the shader then takes gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x, as
// gp_global_index does).
uvec3 gp_dispatch_groups(uint count, uint group_size) {
    uint groups = count / group_size + uint(count % group_size != 0u);
    uint x = min(groups, 65535u);
    uint y = x == 0u ? 1u : (groups + x - 1u) / x;
    return uvec3(x, groups == 0u ? 0u : y, 1u);
}
#ifdef GP_BINDING_ARGS
layout(std430, binding = GP_BINDING_ARGS) writeonly buffer args_block { uint args[]; };
#endif
// <<include gp_dispatch.glsl
layout(local_size_x = 1) in;

layout(std430, binding = GP_BINDING_COUNT_WORDS) readonly buffer count_block { uint count_words[]; };
layout(location = 0) uniform uint u_count_word;
layout(location = 1) uniform uint u_args_word;
layout(location = 2) uniform uint u_group_size;

void main() {
    uvec3 groups = gp_dispatch_groups(count_words[u_count_word], u_group_size);
    args[u_args_word + 0u] = groups.x;
    args[u_args_word + 1u] = groups.y;
    args[u_args_word + 2u] = groups.z;
}
