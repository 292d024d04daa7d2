// gp_scan.glsl: what scan_reduce and scan_block share. Needs gp_common.glsl first.
//
// The scan has no shared memory and no barrier: each invocation owns a chunk of GP_SCAN_CHUNK (32)
// consecutive elements, eight uvec4. scan_reduce writes each chunk's sum; the host scans those sums
// with the same two shaders (a level 32 times shorter, recursively); scan_block adds each chunk's
// scanned offset to the running sum of its own elements. A workgroup barrier costs Mesa's
// llvmpipe a fixed ~8 microseconds (it runs a workgroup as coroutines), which made barrier-based
// block scans five times slower than a copy there; without barriers the scan reads its input
// twice and writes once, at the full streaming speed of each device, and no invocation ever waits
// for another.

layout(location = 0) uniform uint u_count;   // elements in this level
layout(location = 1) uniform uint u_flags;   // 1: the values are flags, counted as (value != 0)

// The input, read 16 bytes at a time where four whole elements remain (twice the speed of single
// words on llvmpipe, and the natural width of GPU loads), one word at a time in the ragged tail:
// the buffer need not be a multiple of 16 bytes long.
layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input_block { uint scan_input[]; };
layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input4_block { uvec4 scan_input4[]; };

uvec4 gp_scan_load4(uint e) {   // elements e ... e + 3 (e a multiple of 4); 0 past u_count
    uvec4 v;
    if (e + 3u < u_count) v = scan_input4[e >> 2u];
    else v = uvec4(e < u_count ? scan_input[e] : 0u, e + 1u < u_count ? scan_input[e + 1u] : 0u,
                   e + 2u < u_count ? scan_input[e + 2u] : 0u, 0u);
    return u_flags != 0u ? uvec4(notEqual(v, uvec4(0u))) : v;
}
