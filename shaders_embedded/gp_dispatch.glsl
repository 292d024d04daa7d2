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
