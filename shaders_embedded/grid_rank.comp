#version 430 core
// grid_rank: the deterministic build's order, each bucket's particles by ascending id, without a
// sort. grid_count gave each particle its bucket (cell_key) and left its id in order; the scan
// gave each bucket its range (cell_start). Three modes (u_mode):
//   0, the plan (one invocation): unless a bucket is crowded (stat_crowded, grid_count), the
//      next two modes' arguments are one invocation per particle and the sort's are zero; when
//      one is, the other way round (the sort's invocations come from the host), since a
//      particle's rank below costs as many reads as its bucket holds. Both ways give the one
//      order (bucket, then id), so which one ran never shows in the results.
//   1, filing: each particle writes (id, slot) into its bucket's range, at a place its bucket's
//      count, counted down with an atomic, gives it (cell_count is spent once the scan has read it,
//      and the next build clears it).
//   2, ranking: each filed particle counts the ids below its own in its bucket's range; that is its
//      place: order[cell_start + that] = its slot (the gather form the reorder takes).
#include "gp_common.glsl"
#include "gp_world.glsl"
#include "gp_buffers.glsl"
#include "gp_dispatch.glsl"
layout(local_size_x = GP_GROUP_SIZE) in;

layout(location = 0) uniform uint u_mode;
layout(location = 1) uniform uint u_sort_local;     // the sort's invocations: in its local passes,
layout(location = 2) uniform uint u_sort_half;      // its flips and single levels,
layout(location = 3) uniform uint u_sort_quarter;   // its double levels (>>sort)

// The three words of dispatch `which` (GP_ARGS_*: the header's order of gp_world.grid_args).
void gp_rank_args(uint which, uvec3 groups) {
    args[3u * which] = groups.x; args[3u * which + 1u] = groups.y; args[3u * which + 2u] = groups.z;
}

void main() {
    if (u_mode == 0u) {
        if (gp_global_index() != 0u) return;   // one workgroup is dispatched; one invocation plans
        bool crowded = stat_crowded != 0u;
        uvec3 none = uvec3(0u, 1u, 1u), each = gp_dispatch_groups(gp_counts.x, uint(GP_GROUP_SIZE));
        gp_rank_args(GP_ARGS_RANK, crowded ? none : each);   // filing and ranking
        gp_rank_args(GP_ARGS_IDS, crowded ? each : none);
        gp_rank_args(GP_ARGS_SORT_LOCAL, crowded ? gp_dispatch_groups(u_sort_local, uint(GP_GROUP_SIZE)) : none);
        gp_rank_args(GP_ARGS_SORT_HALF, crowded ? gp_dispatch_groups(u_sort_half, uint(GP_GROUP_SIZE)) : none);
        gp_rank_args(GP_ARGS_SORT_QUARTER, crowded ? gp_dispatch_groups(u_sort_quarter, uint(GP_GROUP_SIZE)) : none);
        return;
    }
    uint i = gp_global_index();
    if (i >= gp_counts.x) return;
    if (u_mode == 1u) {
        uint key = cell_key[i];
        uint place = atomicAdd(cell_count[key], 0xffffffffu) - 1u;   // the count down to 0, each once
        ranked[cell_start[key] + place] = uvec2(order[i], i);
        return;
    }
    uvec2 own = ranked[i];
    uint key = cell_key[own.y], begin = cell_start[key], end = cell_start[key + 1u], below = 0u;
    for (uint k = begin; k < end; ++k) below += uint(ranked[k].x < own.x);
    order[begin + below] = own.y;
}
