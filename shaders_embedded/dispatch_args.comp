#version 430 core
// dispatch_args: turns an element count that lives on the GPU into the three words of
// glDispatchComputeIndirect (gp_dispatch.glsl).
#include "gp_dispatch.glsl"
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
