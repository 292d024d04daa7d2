// gp_sort.glsl: the compare-exchange of the bitonic sort of (key, value) pairs, shared by
// sort_global and sort_local. Needs gp_common.glsl first.
//
// The network is the bitonic sorter drawn with every comparator facing the same way: each stage
// of block size k starts with a "flip" (element o of a block against element k - 1 - o) and goes
// on with half-cleaners (i against i + j, j = k/4 ... 1). Because no comparator ever faces the
// other way, any length n works without padding: the missing elements past n count as +infinity
// (ascending) or -infinity (descending), already in their place, so a comparator whose upper
// element is past n is skipped. Pairs are ordered by key, then by value, so the sorted order is
// unique and two runs agree bit for bit.
//
// No shared memory and no barrier (a barrier costs llvmpipe a fixed ~8 microseconds per
// workgroup): steps shorter than GP_SORT_RUN run in one invocation's registers (sort_local),
// longer ones as passes over the buffers, two half-cleaner levels per pass (sort_global).

layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_descending;

// True when pair a must come after pair b.
bool gp_sort_out_of_order(uint a_key, uint a_value, uint b_key, uint b_value) {
    bool greater = a_key > b_key || (a_key == b_key && a_value > b_value);
    bool less = a_key < b_key || (a_key == b_key && a_value < b_value);
    return u_descending != 0u ? less : greater;
}
