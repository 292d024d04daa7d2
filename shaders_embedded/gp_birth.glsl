// gp_birth.glsl: where a birth goes and what it is written as, for every emitter's pass
// (emitter_emit, emitter_mesh, emitter_pour, spray_emit). Needs gp_emitter.glsl and gp_buffers.glsl
// (the store's attributes, STORE, FREE_IDS, SLOT_OF_ID) first. Birth j of the pass takes slot
// store_count + j, after every particle in the store, and a never-used id (fresh of them, from
// first: the host's range) or else the j-th oldest given back (the free-id queue); false when
// there is no room or no id: store_count, which follows, counts it refused.
bool gp_birth(uint j, uint fresh, uint first, out uint slot, out uint id) {
    slot = store_count + j;
    id = 0u;
    if (slot >= gp_counts.z) return false;
    if (j < fresh) { id = first + j; return true; }
    uint k = j - fresh;
    if (k >= store_free_count) return false;
    id = free_ids[(store_free_head + k) % (2u * gp_counts.z)];
    return true;
}

// Writes birth `id` at slot: position p, velocity v, its radius and mass, its info's three other
// words (kind and phase, owner, user), age 0 and the lifetime; slot_of_id follows it.
void gp_birth_write(uint slot, uint id, vec3 p, vec3 v, vec2 radius_mass, uvec3 words, float lifetime) {
    gp_position[slot] = vec4(p, radius_mass.x);
    gp_velocity[slot] = vec4(v, radius_mass.y);
    gp_info[slot] = uvec4(id, words);
    gp_life[slot] = vec2(0.0, lifetime);
    slot_of_id[id] = slot;
}
