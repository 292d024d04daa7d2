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
layout(location = 0) uniform uint u_count;
layout(location = 1) uniform uint u_descending;

// True when pair a must come after pair b.
bool gp_sort_out_of_order(uint a_key, uint a_value, uint b_key, uint b_value) {
    bool greater = a_key > b_key || (a_key == b_key && a_value > b_value);
    bool less = a_key < b_key || (a_key == b_key && a_value < b_value);
    return u_descending != 0u ? less : greater;
}

// The two elements comparator t of a step touches, for a flip (j == 0, block size k) or a
// half-cleaner of distance j.
uvec2 gp_sort_pair(uint t, uint k, uint j) {
    if (j == 0u) {
        uint half_k = k >> 1u;
        uint block = (t / half_k) * k;
        uint o = t % half_k;
        return uvec2(block + o, block + k - 1u - o);
    }
    uint i = (t / j) * (j << 1u) + t % j;
    return uvec2(i, i + j);
}
