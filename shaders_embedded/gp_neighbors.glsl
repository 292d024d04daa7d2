// gp_neighbors.glsl: the neighbour loop, written once for every pass that visits neighbours
// (grid_neighbors, sph_density, sph_continuity, sph_force, dem_contact). It visits the 27 cells
// around gp_center's cell (skipping those outside a bounded grid), reads each cell's bucket from
// cell_start, and hands every candidate slot of it to the pass's hook. A pass includes it inside
// its main(), after it has
//   vec3 gp_center;                          the position whose neighbourhood is visited (finite)
//   #define GP_NEIGHBOR_VISIT(k, end, cell)  a statement for candidate slot k of bucket end's
//                                            visited cell: it checks k < end (a batch runs past
//                                            the end), k's own cell (gp_grid_same_cell: distant
//                                            cells share hashed buckets) and the distance
//   #define GP_NEIGHBOR_BATCH 8 or 1         candidates per iteration: 8 where the terms are
//                                            cheap (fluid), 1 where they are not (contacts)
// or, where the terms are summed, instead of GP_NEIGHBOR_VISIT
//   #define GP_NEIGHBOR_TERM(k, end, cell)   candidate k's term (0 when it is no neighbour)
//   #define GP_NEIGHBOR_SUM                  the sum a batch's terms are added to, as one
//                                            expression (t0 + ... + t7): the order the
//                                            floating-point sum had before it was shared
// Why it is written so: with hashing, a bucket also holds particles of distant cells, which
// gp_grid_same_cell drops; candidates go 8 per iteration where terms are cheap, because some
// drivers (Mesa's llvmpipe) end an invocation's loops after 65,535 iterations in all, silently,
// and 8 at a time lets one particle meet about 500,000 candidates there (no cap elsewhere); the
// loop counts what it visited, and a shortfall (a loop the driver cut) is counted in
// stat_truncated, which gp_grid_stats_read reports, instead of passing for a right answer.
// Needs gp_grid.glsl and the CELL_START and STATS roles.
{
    ivec3 gp_home = gp_grid_cell(gp_center);
    uint gp_expected = 0u, gp_visited = 0u, gp_cells = 0u;
    for (int gp_c = 0; gp_c < 27; ++gp_c) {
        ++gp_cells;
        ivec3 gp_cell = gp_grid_around(gp_home, gp_c);
        if (!gp_grid_cell_exists(gp_cell)) continue;
        uint gp_bucket = gp_grid_bucket(gp_cell);
        uint gp_begin = cell_start[gp_bucket], gp_end = cell_start[gp_bucket + 1u];
        gp_expected += gp_end - gp_begin;
        for (uint gp_k = gp_begin; gp_k < gp_end; gp_k += uint(GP_NEIGHBOR_BATCH)) {
#if defined(GP_NEIGHBOR_TERM) && GP_NEIGHBOR_BATCH == 8
            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 1u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 2u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 3u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 4u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 5u, gp_end, gp_cell)
                             + GP_NEIGHBOR_TERM(gp_k + 6u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 7u, gp_end, gp_cell);
#elif defined(GP_NEIGHBOR_TERM)
            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell);
#elif GP_NEIGHBOR_BATCH == 8
            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 1u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 2u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 3u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 4u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 5u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 6u, gp_end, gp_cell);
            GP_NEIGHBOR_VISIT(gp_k + 7u, gp_end, gp_cell);
#elif GP_NEIGHBOR_BATCH == 1
            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);
#else
#error GP_NEIGHBOR_BATCH must be 8 or 1
#endif
            gp_visited += min(uint(GP_NEIGHBOR_BATCH), gp_end - gp_k);
        }
    }
    if (gp_visited != gp_expected || gp_cells != 27u) atomicAdd(stat_truncated, 1u);
}
#ifdef GP_NEIGHBOR_VISIT
#undef GP_NEIGHBOR_VISIT
#endif
#undef GP_NEIGHBOR_BATCH
#ifdef GP_NEIGHBOR_TERM
#undef GP_NEIGHBOR_TERM
#undef GP_NEIGHBOR_SUM
#endif
