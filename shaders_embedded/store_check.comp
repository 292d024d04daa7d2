#version 430 core
// store_check: gp_particles_check (section >>store), the store's own audit. Every particle lives
// in one slot, and the id table (slot_of_id, which every append, birth and grid build writes)
// says which: each slot below the count whose id is outside the id space, or whose id the table
// places in another slot, is counted into store_check. A particle written twice (the table keeps
// one of its slots) or over another shows so; 0 in a healthy store. NVIDIA's driver once wrote an
// add's staging before the add before it had read its own, and such particles were lost silently.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

void main() {
    uint i = gp_global_index();
    if (i >= store_count) return;
    uint id = gp_info[i].x;
    if (id >= 2u * gp_counts.z || slot_of_id[id] != i) atomicAdd(store_check, 1u);
}
