#version 430 core
#extension GL_GOOGLE_include_directive : require
// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds
// every primitive against: it moves the same bytes with no work in between.
#include "gp_common.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer source_block { uint source[]; };
layout(std430, binding = 1) writeonly buffer destination_block { uint destination[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint i = gp_global_index();
    if (i < u_count) destination[i] = source[i];
}
