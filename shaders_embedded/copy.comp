#version 430 core
// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds
// every primitive against: the same bytes moved as fast as this library knows how, with no work in
// between: 16 elements per invocation, 16 bytes per access, single words only in a ragged tail.
#include "gp_common.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source_block { uint source[]; };
layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source4_block { uvec4 source4[]; };
layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination_block { uint destination[]; };
layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination4_block { uvec4 destination4[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint first = gp_group_index() * 16u * uint(GP_GROUP_SIZE);
    for (uint r = 0u; r < 4u; ++r) {
        uint e = first + 4u * (r * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x);
        if (e + 3u < u_count) destination4[e >> 2u] = source4[e >> 2u];
        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) destination[e + c] = source[e + c];
    }
}
