#version 430 core
// store_count: the store's count, on the GPU (section >>grid). After a build (u_added 0) it drops
// the dead that store_free gave back; after an append (store_append: u_ids = u_added, the host
// gave every id and checked the room) or the emitters' births (emitter_emit: u_added births, u_ids
// of them with never-used ids, the rest taking given-back ones, oldest first; a spray emitter's:
// at most store_spray of them) it takes in those that found room and an id, pops the given-back
// ids they took, and counts the others refused; the never-used ids set aside for births that did
// not happen go to the free-id queue (none is lost, so ids never run out while the store has room).
// Then it writes the indirect arguments every pass over the store dispatches with, and those of
// the draw. One invocation; the host then copies store_count into gp_counts.x, where every pass
// reads it.
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_grid.glsl"
#include "gp_dispatch.glsl"
#include "gp_buffers.glsl"
layout(local_size_x = 1) in;
layout(location = 0) uniform uint u_added;
layout(location = 1) uniform uint u_ids;
layout(location = 2) uniform uint u_spray;   // 1: a spray emitter's births, at most store_spray of the u_added
layout(location = 3) uniform uint u_first;   // the first of the u_ids never-used ids

void main() {
    if (u_added == 0u) {
        uint live = cell_start[gp_grid_dead_bucket()], died = store_count - live;
        store_died += died;
        store_free_count += died;
        store_count = live;
    } else {
        uint wanted = u_spray != 0u ? min(u_added, store_spray) : u_added;
        uint added = min(min(wanted, gp_counts.z - store_count), u_ids + store_free_count);
        uint taken = added > u_ids ? added - u_ids : 0u, used = min(added, u_ids);
        store_free_head = (store_free_head + taken) % (2u * gp_counts.z);
        store_free_count -= taken;
        for (uint k = used; k < u_ids; ++k)   // never-used ids set aside for births that did not happen: to the queue
            free_ids[(store_free_head + store_free_count + (k - used)) % (2u * gp_counts.z)] = u_first + k;
        store_free_count += u_ids - used;
        store_refused_births += wanted - added;
        store_count += added;
    }
    uvec3 groups = gp_dispatch_groups(store_count, uint(GP_GROUP_SIZE));
    store_dispatch_x = groups.x;
    store_dispatch_y = groups.y;
    store_dispatch_z = groups.z;
    store_draw_count = store_count;
    store_draw_instances = 1u;
    store_draw_first = 0u;
    store_draw_base = 0u;
}
