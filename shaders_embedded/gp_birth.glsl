// gp_birth.glsl: where a birth goes, for every emitter's pass (emitter_emit, spray_emit). Needs
// gp_emitter.glsl and gp_buffers.glsl (STORE, FREE_IDS) first. Birth j of the substep takes slot
// store_count + j, after every particle in the store, and a never-used id (the host's range in
// gp_emission) or else the j-th oldest given back (the free-id queue); false when there is no room
// or no id: store_count, which follows, counts it refused.
bool gp_birth(uint j, out uint slot, out uint id) {
    slot = store_count + j;
    id = 0u;
    if (slot >= gp_counts.z) return false;
    if (j < gp_emission.z) { id = gp_emission.w + j; return true; }
    uint k = j - gp_emission.z;
    if (k >= store_free_count) return false;
    id = free_ids[(store_free_head + k) % (2u * gp_counts.z)];
    return true;
}
