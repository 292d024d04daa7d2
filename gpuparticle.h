/* gpuparticle.h v0.5.0 - particle physics on the GPU with OpenGL 4.3 compute shaders. MIT licence.

   DO THIS in exactly one C or C++ file, after any GL header you use (or none):

       #define GPUPARTICLE_IMPLEMENTATION
       #include "gpuparticle.h"

   and include it without the define wherever else you need it. Link nothing new: the library
   loads its own GL entry points through the getProcAddress you pass (glfwGetProcAddress,
   eglGetProcAddress, SDL_GL_GetProcAddress...). On POSIX, when you pass none, it finds
   eglGetProcAddress or glXGetProcAddressARB in the process with dlsym (link -ldl on glibc older
   than 2.34, or define GP_NO_PROC_FALLBACK and always pass one).

   Configuration macros, all optional, defined before the #include that has the implementation:
       GP_API_DECL          declaration prefix of every public function      default: extern
       GP_STATIC            make every public function static (private copy)  default: off
       GP_ASSERT(c)         internal consistency checks                       default: assert(c)
       GP_GROUP_SIZE        invocations per compute workgroup, 64..1024,
                            a power of two                                    default: 256
       GP_NO_PROC_FALLBACK  no dlsym fallback for a missing get_proc_address  default: off
       GP_NO_DRAW           leave out gp_draw_particles and its GL entry points default: off
       GP_BUFFER_GUARD      bytes of a known pattern after the end of every buffer the world
                            makes, a multiple of 16 up to 65536; gp_particles_check and
                            gp_world_destroy then report any a pass wrote over
                            (GP_LOG_ITEM_BUFFER_OVERRUN), and new buffers start filled with
                            the pattern, not zeros: for tests and debug builds default: 0

   gpuparticle.h does NOT:
       - open a window or create a GL context: make yours current, then create a world;
       - need a GL loader, and it declares no gl* or GL_* name, so it sits beside glad, GLEW
         or GL/gl.h in the same file;
       - touch GL state you did not hand it, except as listed under "GL state" below;
       - ask you for glMemoryBarrier: every gp_ call issues the barriers its reads and writes
         need, before and after, so buffers are ready to draw or read when it returns.

   CONTENTS (each section has a grep-able anchor, >>name; a section calls only those above it)
       >>docs       step by step, the particle store, the grid, GL state, errors, conventions;
                    then the design of each system: walls, fluid, grains and bodies, the fluid
                    and the solids, effects and emitters, the step's clock
       >>api        the public declarations, in the order of the sections below
       >>loader     the private table of GL 4.3 entry points
       >>logging    messages to the user's logger, result names
       >>memory     the user's allocator
       >>shaders    the embedded shaders (generated from shaders_embedded/), the constants C and
                    GLSL share, the binding plan of every program
       >>structs    the world, one state struct per system, the C mirrors of the shaders' blocks
       >>buffers    GPU buffers and uploads
       >>pipeline   compiling the programs, gp__begin/gp__end, dispatches, barriers, timer queries
       >>scan       exclusive prefix sum, stream compaction, indirect arguments
       >>sort       bitonic sort of (key, value) pairs
       >>grid       the neighbour grid (counting sort, bounded and hashed), which also takes the
                    dead out of the store
       >>store      the store's births and deaths: the checked add, removals, ageing, the count
                    on the GPU
       >>mesh       closed triangle meshes: closedness, inside and outside, signed distance fields
       >>colliders  the walls every system meets: analytic shapes and mesh fields
       >>sph        SPH fluid (Harada et al. 2007a): materials, scenes, pours, the fluid's
                    stages of a substep
       >>dem        granular matter (Harada 2007): materials, grains, the contacts of grains and
                    rigid particles, their stages
       >>rigid      rigid bodies made of particles (Harada 2007): shapes, bodies, their stages
       >>coupling   the fluid and the solids: the solids' share of their forces (Harada 2007
                    section 29.3.3), the fluid's drag on grains too small to be its boundary
       >>effects    effect particles (Kipfer et al. 2004): materials, their flight and bounce
       >>emitters   emitters (Kipfer et al. 2004): births on the GPU at exact rates and in bursts
       >>step       gravity and forces, the world's substep as a pipeline of every system's
                    stages, gp_world_step
       >>draw       sphere impostors and body meshes straight from the GPU buffers
       >>public     world creation and the particle store's public functions
       >>references the papers the comments cite
       >>licence    MIT
   Cloth, the fluid's surface and several devices are planned; none is in this version.

   >>docs ===================================================================================

   STEP BY STEP

       gp_world* world = NULL;
       gp_world_desc desc = {0};
       desc.max_particles = 100000;
       desc.get_proc_address = glfwGetProcAddress;      // or eglGetProcAddress; SDL2's with a cast
       desc.grid.cell_size = 0.1f;                      // no dims: an unbounded, hashed grid
       if (gp_world_create(&desc, &world) != GP_OK) return 1;   // the logger said why

       gp_collider_desc tank = {0};                     // fluid kept inside a 1 m box
       tank.shape = GP_SHAPE_BOX; tank.inside = true;
       tank.center[1] = 0.5f; tank.half_extents[0] = tank.half_extents[1] = tank.half_extents[2] = 0.5f;
       gp_collider wall; gp_collider_add(world, &tank, &wall);
       float lo[3] = {-0.5f, 0, -0.5f}, hi[3] = {0, 0.6f, 0};
       gp_fluid_add_block(world, 0, lo, hi, NULL, NULL); // phase 0: the default fluid material

       gp_step_desc step = {0};
       step.dt = 1.0f / 60;                             // substeps picked from the CFL number
       gp_world_step(world, &step);                     // every frame
       gp_draw_desc draw = {0};                         // zero view: a camera framing the scene
       gp_draw_particles(world, &draw);                 // or draw from gp_world_buffers(world)
       gp_world_destroy(world);

   THE PARTICLE STORE is a struct of arrays, one shader storage buffer per attribute, of
   max_particles elements; slots [0, count) are live. After gp_grid_build they are in cell
   order. Particles of every kind share it, and the one grid over it, so that all can interact
   with no second neighbour search and no copy between systems; systems meet only through the
   store, the grid and the colliders.

       attribute  GLSL (std430)  C mirror              contents
       position   vec4           gp_particle_position  x, y, z (metres), radius (metres)
       velocity   vec4           gp_particle_velocity  x, y, z (m/s), mass (kg)
       info       uvec4          gp_particle_info      id, kind | flags << 8 | phase << 16,
                                                       owner (body, cloth or emitter), user
       life       vec2           gp_particle_life      age (s: kept for effects and particles
                                                       with a lifetime), lifetime (s, 0 = forever)

   An id is unique among live particles and below twice max_particles; it stays with the particle
   while slots change. slot_of_id (a uint per id) says where each particle is after a build, and
   GP_NO_SLOT for an id that names no particle.

   BIRTH AND DEATH. The count lives on the GPU, so that particles can be born and die there and no
   call reads it back to decide what to dispatch: every pass over the store is an indirect
   dispatch of that count. A particle dies when its age reaches its lifetime (it ages at the start
   of each substep by the substep, so after a step the store holds exactly those whose age is below
   their lifetime) or when gp_particles_remove marks it (GP_PARTICLE_DEAD); the next grid build, the
   first thing of every substep, takes the dead out (its counting sort files them after every live
   particle and cuts them off the count: the store's compaction), keeps every survivor's
   attributes, id and slot_of_id, and gives their ids back. A given-back id is given again (to a
   particle added or emitted) only when every never-used id is taken, and then oldest first: since
   ids run to twice max_particles, at least max_particles - 1 other ids are given between an id's
   death and its return, and until then the stale id is detectable (gp_particles_slots_read:
   GP_NO_SLOT).
   The host learns the count two steps late, without waiting (gp_particle_count: that count plus
   every particle added since, a bound that is exact while nothing dies); gp_particle_count_read
   waits for the exact one. Slots past the count hold particles that died, flagged GP_PARTICLE_DEAD.

   THE GRID files every particle under a bucket by counting sort: cell_start (a uint per bucket,
   plus two) gives bucket b the slots [cell_start[b], cell_start[b + 1]). Bounded: one bucket per
   cell of a box of dims cells from origin; particles outside are clamped into the border cells
   and counted, never dropped. Hashed: any position; 4 x 4 x 4 blocks of cells hash into a table of
   `buckets` (a power of two), a block's 64 cells side by side so that neighbouring cells stay near
   in memory, and a neighbour loop skips candidates whose own cell is not the cell it visits, so
   distant cells that share a bucket never meet. Either way a particle with a NaN or infinite
   coordinate goes to the extra bucket past the last, is counted, and meets no one. No cap on
   particles per cell, but a neighbour loop visits every particle of the buckets around it:
   particles clamped into a bounded grid's border cells, or heaped in one bucket, cost time as
   their number squared, and gp_world_step warns of both once while they last
   (PARTICLES_OUTSIDE_GRID, BUCKETS_CROWDED). shaders_embedded/gp_neighbors.glsl is the neighbour
   loop, written once: every pass that visits neighbours includes it with its own term as a hook.
   The order within a cell is by id (unless gp_world_desc.any_order): the GPU's atomics file a
   cell's particles in whatever order they meet, and every sum over neighbours would then round
   differently from run to run. Ranking each bucket's particles by id costs two light passes a
   build (a sort where a bucket is crowded), and makes every run from one state bit-identical,
   which the tests and anyone comparing two runs rely on.

   GL STATE. A gp_ call may change: the buffers bound to GL_SHADER_STORAGE_BUFFER (and its
   indexed bindings 0-7), GL_UNIFORM_BUFFER (and its bindings 0 and 1), GL_COPY_READ_BUFFER,
   GL_COPY_WRITE_BUFFER and GL_DISPATCH_INDIRECT_BUFFER (left 0), and gp_world_step with an emitter
   GL_UNIFORM_BUFFER's binding 2. It restores the current program,
   and touches nothing else, except gp_draw_particles, which restores the vertex array,
   GL_ARRAY_BUFFER and GL_DRAW_INDIRECT_BUFFER bindings it changes and leaves
   GL_PROGRAM_POINT_SIZE enabled, and gp_draw_effects, which restores the vertex array,
   GL_ARRAY_BUFFER, GL_BLEND, the blend function and equation, the depth write mask,
   GL_CULL_FACE and the polygon mode it changes. (`make hostile` checks this after every call.)
   Host data reaches the GPU in command order: each upload fills a buffer of its own (a new name,
   the last deleted) and the GPU copies it into place, never glBufferSubData, nor glBufferData
   again, on a buffer that passes already sent may still read (a driver may write before they
   have read it). Do the same when you write a buffer you handed the library.

   PLATFORMS. NVIDIA's driver flushes subnormal floats to zero and its GLSL division is not
   correctly rounded (GLSL allows both): the cell a particle falls in must be the same on every
   device and in the CPU references, so the grid multiplies by a reciprocal rounded once on the
   host. llvmpipe's shader storage blocks
   stop at 128 MiB, so a world there holds at most 8M particles; gp_world_create refuses a larger
   one with GP_ERROR_GL_LIMITS rather than failing later.

   ERRORS come in three layers: every function that can fail returns a gp_result
   (gp_result_string names it); the logger in the desc receives a message that names the
   function and the problem, with the driver's log when a shader fails to compile, and beside
   it a gp_log_item, a stable id of the problem to match instead of the wording (GP_LOG_ITEMS
   lists them; the declarations name them without the GP_LOG_ITEM_ prefix); and
   gp_world_last_result keeps the last result. A call given a NULL world has no logger: it
   returns GP_ERROR_INVALID_ARGUMENT and says so on stderr (the default logger). Nothing fails
   silently; nothing is half done: a call that fails has changed nothing, unless its message
   says otherwise.

   CONVENTIONS. `_read` functions copy GPU state into your memory and wait for the GPU to finish
   what it was sent (a stall: call them when you need the values, not every frame); `_get`
   functions copy host state and never touch the GPU; `_set` stores host state that the next
   step uploads; `_add` / `_remove` make and unmake sub-objects, which are typed handles (0 never
   valid; a removed object's handle is refused: colliders, pours and shapes never reuse an id,
   bodies carry a generation). Handles are per world: another world's may name one of yours.
   Counts go in and out as uint32_t; "pass NULL to get the count" where a function fills an
   array. Units are SI: metres, seconds, kilograms.

   WALLS (>>colliders). Every wall is one signed distance function, the union of the colliders',
   so that each system meets analytic shapes, meshes and height fields alike through one value and
   its gradient. The fluid does not sample walls with particles (Harada et al. 2007a sections 3.3,
   4.4): within the smoothing radius of a wall a particle takes the wall's share of density from a
   precomputed wall weight table (eq. 13) and of viscosity from a second table, and the walls'
   share of the pressure force from three more: the wall's particles continue the fluid's lattice
   with the pressure a fluid at rest would have there, p_i + rho0 g . (x_w - x_i) (after
   Adami et al. 2012), so that a wall holds the fluid up as fluid would and a column at rest stands at
   p = rho g depth. A wall the fluid hangs under (a lid) takes the particle's own pressure, so
   that it never pulls, and the continuation fades out at a free surface, where it would fall
   below zero. The tables' samples fall on l0 / 2, where particles rest against a wall. A box
   container counts its six faces as plane walls, less the wall particles its edges count twice,
   plus those its corners miss, so that a tank filled on the lattice has the rest density
   everywhere. Other shapes read the plane wall's tables at the nearest point: a curved container
   wall is not exact, and a lattice cut to it leaves gaps at the wall that the carried densities
   never learn of, so fluid filled into a capsule stands about a tenth off hydrostatic. At the end
   of each substep a particle closer to a wall than half a spacing is moved back to that distance
   along the normal and loses its velocity into the wall (eq. 11's push applied as the displacement
   it stands for: as a force, its velocity would outlast the substep and pump energy into the
   fluid), so no particle ends a substep inside a wall. Grains and bodies' particles meet walls
   through the same contact as each other (GRAINS AND BODIES); effect particles bounce (EFFECTS
   AND EMITTERS).

   THE FLUID (>>sph) is weakly compressible SPH after Harada et al. 2007a, with the kernels of
   Müller et al. 2003: pressure follows density through a stiff equation of state (eq. 5), and the
   speed of sound, sqrt(stiffness), must stay about ten times the fastest flow. The default 1000
   (about 32 m/s) is ten times the ideal dam-break front 2 sqrt(g H) of fluid up to 0.25 m deep;
   a deeper first block or ball raises it to 400 |g| H (Monaghan 1994; Crespo et al. 2015), since
   a softer fluid squeezes visibly where it hits a wall.
   By default each particle carries its density and advances it (GP_DENSITY_CONTINUITY) instead of
   summing it over positions as the paper does: the sum follows every detail of the packing, so a
   column at rest re-packs and its pressures scatter, and as its density comes from poly6 while its
   force comes from the spiky gradient, the force is not the gradient of the fluid's internal
   energy and a fluid of low viscosity gains energy (the summation model wants a syrup's
   viscosity). The continuity model's density rate takes the same spiky gradient as the force, and
   the walls' mirror particles enter both: an energy-consistent pair, so a dam break sloshing in a
   closed tank never gains energy; its delta-SPH diffusion (Antuono et al. 2012, less its
   hydrostatic part) smooths pressure noise.
   Three guards keep a carried density honest. A particle at a free surface (its neighbourhood
   less than 3/4 filled; Marrone et al. 2010) carries no more than the density of zero pressure, as
   incompressible solvers clamp it (Ihmsen et al. 2014; Bender and Koschier 2015): otherwise spray
   landing on a surface presses back and a dropped block pumps itself up. Without tension the
   carried density falls no more than 0.5% of rho0 below that density, and only where the positions
   show an expansion: a hard floor at that density forgets expansions and the fluid grows as it
   sloshes. And where a particle's kernel lies wholly in one fluid, its carried density relaxes
   towards its positions' summation density at 0.01 c0 / re (a hundred times the time sound takes
   to cross the kernel), since the spiky kernel reads a disordered packing as denser and the
   carried density would otherwise drift from the volume: a sloshing fluid keeps its volume.
   Departures from the paper's text, each so that a column at rest holds p = rho g depth: eq. 6
   takes p_i + p_j whole (its average estimates half of grad p), the spiky gradient is normalised
   on the rest lattice, and a particle's mass is chosen so that the lattice has the rest density.
   Blocks and balls start hydrostatic (their density and their positions squeezed by the fluid
   above) rather than at the rest density, from which they would fall into their own compression
   and ring for a second. The smoothing radius defaults to 2 spacings: the particles then hold
   their lattice against slow flow (a yield stress of some pascals: a body a few tenths denser
   than the fluid sinks too slowly, a tipped pool keeps part of its slope, and the same happens to
   a blob of a second fluid, so it is the lattice's, not the coupling's). No radius near 2 both
   frees the pool and keeps a column at rest from re-packing. At 3 spacings (3.4 times the
   neighbours) slow flow is right, a ball settling in syrup at Stokes' speed, and 3 becomes the
   default once it also keeps the fluid's energy (a splash there gains some: the density
   diffusion lacks its hydrostatic part, which Antuono et al. 2012's renormalised gradient would
   supply at the cost of a place in the store), stops the fluid pressing into bodies, and keeps
   the jets after a far wall no faster than at 2. No bound on every particle's speed holds at a
   resolved first impact: the jet where the surface meets a wall is singular in the theory of
   liquid impact (Cooker and Peregrine 1995) and grows as the spacing shrinks, so the stiffness is
   sized by the ideal front, not by that jet.

   GRAINS AND BODIES (>>dem, >>rigid). Grains and the particles of rigid bodies touch through the
   discrete element method of Harada 2007 section 29.1.5 in one contact pass, so that sand, bodies
   and walls meet through one law. The normal dashpot damps the normal part of the relative
   velocity only (the paper's damps all of it), and the shear force acts on the tangential part,
   capped at friction times the normal push: without the Coulomb cap sand cannot hold a slope.
   The paper's shear is a dashpot, which creeps (heaps flatten, blocks slide slowly), so by
   default each contact also keeps a shear spring (Cundall and Strack 1979) from substep to
   substep while it lasts: up to contact_slots contacts a particle (12, the most equal spheres can
   touch), each pair kept by its particle of lower id. The tangential stiffness defaults to 2/7 of
   the normal one, which gives both oscillations one period; the normal stiffness defaults to
   200 m / d^2, a 5% overlap for two grains meeting at 1 m/s. Grains do not spin, so their rolling
   is fully resisted and friction 0.3 piles them at sand's 30-35 degrees; bodies' particles spin
   with their body, and rolling_friction (after Ai et al. 2011) brings round bodies to rest. A
   body's particle moves with its whole body, so its contacts scale damping and shear by
   sqrt(M / m) to keep the damping ratio two grains have. A substep must be under a twelfth of a
   contact's period, which the step's clock takes only where solids touch.
   A rigid body is its particles (Harada 2007 section 29.2): voxels of the material's diameter
   inside its shape, so that it meets grains, other bodies, walls and fluid through the same
   particles. It sums their forces and torques (eqs. 14-15) and moves as one (eqs. 1-5); its free
   rotation is a fourth-order splitting (McLachlan 1993; Dullweber et al. 1997; Yoshida 1990) that
   keeps |L| exactly and the energy without drift, so a spinning body neither speeds up nor flips
   where it should not; then its particles follow (eqs. 18-20).
   Not modelled: grains that spin and roll (they act rougher than sand; round grains can be ball
   bodies with rolling friction), and squat granular columns (height below width) run out shorter
   than Lube et al. 2004's law.

   THE FLUID AND THE SOLIDS (>>coupling). A rigid body's particle, or a grain as wide as the
   fluid's smoothing radius or wider, is a boundary particle to the fluid (Akinci et al. 2012;
   Harada 2007 section 29.3.3): the volume it fills at the fluid's rest density, with its own
   velocity, in the fluid's density, density rate and force, through the one grid. Between the
   fluid's density and its force each such particle gets a pressure of its own, the fluid's around
   it continued hydrostatically (Adami et al. 2012's wall pressure), which the pair pushes with, and
   then the equal and opposite force, added to its contacts' before grains and bodies move: the
   solids enter as the walls' mirror images do, keeping the energy-consistent pair. A grain
   narrower than the smoothing radius is one particle the fluid cannot flow around, and as a
   boundary it would sink far too slowly: the fluid drags it instead, by a sphere's drag curve
   (Schiller and Naumann 1933) against the fluid's velocity there, with Archimedes' buoyancy,
   both as far as the grain is in the fluid, and the fluid particles near it take the opposite
   force. After every move a guard puts back any fluid particle left inside a wide grain or a
   body. Not modelled: a dense bed's crowding of the drag (Di Felice 1994), added mass, and the
   pressure gradient of an accelerating flow on a dragged grain.

   EFFECTS AND EMITTERS (>>effects, >>emitters) follow Kipfer et al. 2004. Effect particles fly on
   their own: each substep they age, feel gravity and your forces less a linear drag towards the
   wind (section 4.2), integrated exactly for a constant force so that a flight follows its closed
   form at any substep, and bounce off every collider (section 4.6: backed up to where they
   crossed, the normal velocity reversed and scaled by the restitution, the tangential slowed by
   Coulomb friction). With a ride they take the fluid's velocity where they are in it (Shepard-
   interpolated through the one grid, weighted by how full of fluid their neighbourhood is) and
   are buoyed by the fluid they displace; those whose materials collide bounce off each other as
   hard spheres, each pair's impulses equal and opposite. Emitters give birth on the GPU, after
   the store's count, so that nothing is read back: the host plans each step's births exactly
   (floor of rate times the time, the time summed in double precision so it never drifts), spreads
   them over the substeps as evenly as whole numbers allow, and a birth without room or id is
   refused and counted. The random numbers are a hash of the emitter's seed and each particle's
   serial number (pcg3d, Jarzynski and Olano 2020), so the same seed gives the same particles at
   any substep and on any device. A pour is an emitter that lays the fluid's lattice layer by
   layer, since fluid particles born closer than the spacing push apart hard. Sprites are sorted
   back to front on the GPU (the bitonic sort by view depth) and drawn from the sorted order.

   THE STEP'S CLOCK (>>step). gp_world_step never waits for the GPU: the fastest particle that
   sizes its substeps is the one after the step before last (plus any particle added or written
   since), read behind a fence two calls later, the same in every run. Each substep is bounded by
   every system's limit: the CFL number with the speed of sound included (the Courant condition
   of the multi-GPU chapter), the fluid's viscosity (0.05 re^2 / nu) and diffusion (about 0.05 re
   / (diffusion c0)), and where solids touch or may touch within the substep, a twelfth of a
   contact. So that a speed that jumps within a step (a blast, a fast body hitting water) cannot
   outrun the plan, the GPU checks every substep before it runs (step_clock) against the speeds
   the substep before left and shortens it to keep the CFL number at max_cfl; what the step could
   not run is owed (gp_fluid_stats.lag) and run by the next steps: the world lags the calls by that
   much for a few steps and loses none of it. A step takes at most 1,000 substeps; beyond, it owes
   up to four steps' dt and then runs slower than the calls, and warns (SUBSTEPS_CAPPED). The
   contacts' short substeps are taken only where needed: the contact passes note the smallest gap
   between two solids and between a solid and a wall, and the clock shortens the substep to the
   contacts' where that gap is within twice what the fastest particle, gravity and the forces
   could close in the substep that would otherwise run. The host plans them (two steps late) while
   the step before last had one, for the step after any particle is added or written or a
   collider added, and while an emitter gives birth to grains. Two solids more than a grid cell
   apart are not seen by the contact pass, so the look-ahead counts on the cell less the two
   largest radii: grains as wide as the cell take the contacts' substeps throughout, and a body
   floating clear of everything runs at the fluid's.
*/

#ifndef GPUPARTICLE_H_INCLUDED
#define GPUPARTICLE_H_INCLUDED

/* >>api ====================================================================================
   The public declarations, in the order of the implementation's sections (each block names its
   own), the world and its step first after the logger and the allocator. */

#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 5
#define GP_VERSION_PATCH 0
#define GP_VERSION ((GP_VERSION_MAJOR * 10000) + (GP_VERSION_MINOR * 100) + GP_VERSION_PATCH)

#include <stddef.h>
#include <stdint.h>
#if !defined(__cplusplus)
#include <stdbool.h>
#endif

#if defined(GP_STATIC) && defined(GP_API_DECL)
#error "gpuparticle.h: define GP_STATIC or GP_API_DECL, not both"
#endif
#ifndef GP_API_DECL
#if defined(GP_STATIC) && (defined(__GNUC__) || defined(__clang__))
#define GP_API_DECL static __attribute__((unused))
#elif defined(GP_STATIC)
#define GP_API_DECL static
#else
#define GP_API_DECL extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- loading GL (>>loader) ---------------------------------------------------------------- */

/* A GL function pointer, as glfwGetProcAddress and eglGetProcAddress return it. */
typedef void (*gp_proc)(void);
typedef gp_proc (*gp_get_proc_address_fn)(const char* name);

/* ---- results and messages (>>logging) ---------------------------------------------------- */

/* The result of every function that can fail. GP_OK is 0. */
typedef enum gp_result {
    GP_OK = 0,
    GP_ERROR_INVALID_ARGUMENT,     /* a parameter is out of range, NULL, NaN or inconsistent */
    GP_ERROR_INVALID_STATE,        /* the call needs something done first (e.g. a grid build) */
    GP_ERROR_OUT_OF_MEMORY,        /* the host allocator returned NULL */
    GP_ERROR_GPU_OUT_OF_MEMORY,    /* GL could not allocate a buffer */
    GP_ERROR_CAPACITY,             /* the particle store is full; nothing was added */
    GP_ERROR_NO_CONTEXT,           /* no GL context is current on this thread */
    GP_ERROR_GL_VERSION,           /* the context is older than OpenGL 4.3 */
    GP_ERROR_GL_MISSING_FUNCTION,  /* get_proc_address found no pointer for an entry point */
    GP_ERROR_GL_LIMITS,            /* a compute or buffer limit of this GL is too small */
    GP_ERROR_SHADER_COMPILE,       /* a library shader failed to compile or link */
    GP_ERROR_GL,                   /* GL reported an error during the call */
    GP_RESULT_COUNT
} gp_result;

/* "GP_OK", "GP_ERROR_CAPACITY", ...; "GP_RESULT_UNKNOWN" for a value outside the enum. */
GP_API_DECL const char* gp_result_string(gp_result result);

typedef enum gp_log_level {
    GP_LOG_ERROR = 1,
    GP_LOG_WARNING,
    GP_LOG_INFO
} gp_log_level;

/* What a message is about: a stable id beside its text (as sokol's log items), for programs and
   tests to match instead of wording. The item names the problem; the text names the function,
   the argument and its value. New items are added at the end. */
#define GP_LOG_ITEMS(X)                                                                                     \
    X(NONE, "information, no problem")                                                                     \
    X(CONTEXT, "the GL context a world was created in (information)")                                      \
    X(WORLD_NULL, "a call was given a NULL world")                                                         \
    X(ARGUMENT_NULL, "a pointer the call needs is NULL")                                                   \
    X(ARGUMENT_NOT_FINITE, "a value is NaN or infinite")                                                   \
    X(ARGUMENT_OUT_OF_RANGE, "a value is outside its allowed range")                                       \
    X(NOT_AN_ENUM_VALUE, "a value is not one of its enum's")                                               \
    X(ALLOCATOR_INVALID, "the desc's allocator has one of alloc and free")                                 \
    X(BUFFER_INVALID, "a GL buffer given is not one, is too small, misaligned or overlaps another")        \
    X(HANDLE_INVALID, "a handle is not one of this world's live objects")                                  \
    X(PHASE_INVALID, "a phase is beyond the material tables")                                              \
    X(CELL_TOO_SMALL, "a material's reach exceeds the grid's cell size")                                   \
    X(STORE_FULL, "particles do not fit in the store; nothing was added")                                  \
    X(TABLE_FULL, "a fixed table (colliders, pours, bodies) is full")                                      \
    X(SLOTS_NOT_LIVE, "slots or bodies asked for do not all exist")                                        \
    X(ATTRIBUTE_READ_ONLY, "the library's own values cannot be written or added that way")                 \
    X(GRID_STALE, "the grid is older than the particles: build it first")                                  \
    X(FLUID_VALUES_STALE, "densities and accelerations are older than the slots")                          \
    X(MESH_INVALID, "a mesh has no vertices or triangles, or an index out of range")                       \
    X(MESH_NOT_CLOSED, "a mesh is not closed")                                                             \
    X(SHAPE_VOXELS, "a body shape is too small or too large for its material's diameter")                  \
    X(SHAPE_IN_USE, "a body shape still has bodies")                                                       \
    X(BODIES_PARTIALLY_ADDED, "some bodies' particles were added before a failure")                        \
    X(HOST_OUT_OF_MEMORY, "the allocator returned NULL")                                                   \
    X(GPU_OUT_OF_MEMORY, "GL could not allocate a buffer")                                                 \
    X(GL_NO_CONTEXT, "no GL context is current")                                                           \
    X(GL_VERSION, "the context is older than OpenGL 4.3")                                                  \
    X(GL_MISSING_FUNCTION, "an entry point could not be loaded")                                           \
    X(GL_LIMIT, "a limit of this GL is below what the library needs")                                      \
    X(GL_ERROR, "GL reported an error during the call")                                                    \
    X(GL_ERROR_PENDING, "a GL error was pending before the call (not the library's)")                      \
    X(SHADER_COMPILE, "an embedded shader failed to compile (the driver's log follows)")                   \
    X(SHADER_LINK, "an embedded program failed to link (the driver's log follows)")                        \
    X(DRAW_COMPILED_OUT, "the draw helpers were compiled out (GP_NO_DRAW)")                                \
    X(CFL_EXCEEDED, "the CFL number is above the step's limit: take more substeps")                        \
    X(SUBSTEP_TOO_LONG_FOR_GRAINS, "the substep is longer than the grains' contacts allow")                \
    X(CONTACT_SLOTS_FULL, "contacts found no free slot to keep their shear spring in")                    \
    X(STEP_BEHIND, "a step's substeps were shortened on the GPU: the world owes time, the next catch up")  \
    X(PARTICLES_NOT_FINITE, "particles have a NaN or infinite position (kept, not simulated)")             \
    X(POUR_STOPPED, "a pour stopped: the store is full")                                                   \
    X(NEIGHBOR_LOOP_TRUNCATED, "the driver cut a neighbour loop short")                                    \
    X(STATS_WAIT_FAILED, "waiting for the step's statistics failed")                                     \
    X(REMOVAL_REFUSED, "a removal named particles not in the store, or a body's or cloth's; none removed") \
    X(IDS_USED_UP, "every id is given and none was given back: nothing was added")                        \
    X(LAYERS_DROPPED, "a pour or emitter owed more layers in a substep than one lays: the rest dropped")   \
    X(STORE_CORRUPT, "gp_particles_check found particles written twice or lost: a driver or memory fault") \
    X(FLUID_TOO_DEEP, "fluid deeper than its material's stiffness suits: it squeezes where it hits a wall") \
    X(PARTICLES_OUTSIDE_GRID, "particles left the bounded grid's box (or the hash's range): clamped to its edge") \
    X(BUCKETS_CROWDED, "a bucket holds more than GP_GRID_CROWD particles: its neighbour loops slow down") \
    X(SUBSTEPS_CAPPED, "a step's limits ask for more than 1,000 substeps: the world falls behind the calls") \
    X(BUFFER_OVERRUN, "a pass wrote past the end of a buffer of the world's (GP_BUFFER_GUARD builds)")
typedef enum gp_log_item {
#define GP__LOG_ITEM_ENUM(name, text) GP_LOG_ITEM_##name,
    GP_LOG_ITEMS(GP__LOG_ITEM_ENUM)
#undef GP__LOG_ITEM_ENUM
    GP_LOG_ITEM_COUNT
} gp_log_item;
/* "GP_LOG_ITEM_WORLD_NULL" for GP_LOG_ITEM_WORLD_NULL; "GP_LOG_ITEM_UNKNOWN" past the list. */
GP_API_DECL const char* gp_log_item_string(gp_log_item item);

/* Receives every message. message is one line, or several for a shader's compile log, and is
   valid during the call only. Default: warnings and errors to stderr. */
typedef struct gp_logger {
    void (*func)(gp_log_level level, gp_log_item item, const char* message, void* user_data);
    void* user_data;
} gp_logger;

/* ---- host memory (>>memory) --------------------------------------------------------------- */

/* Host memory for the world's own bookkeeping (small: the GPU holds the particles).
   Default: malloc and free. Give both functions or neither. */
typedef struct gp_allocator {
    void* (*alloc)(size_t size, void* user_data);
    void (*free)(void* ptr, void* user_data);
    void* user_data;
} gp_allocator;

/* ---- the world (>>structs, >>step, >>public) --------------------------------------------- */

/* A world: the particle store, its grid and every system's state, in one GL context. */
typedef struct gp_world gp_world;

typedef enum gp_grid_mode {
    GP_GRID_DEFAULT = 0,   /* BOUNDED when dims are given, else HASHED */
    GP_GRID_BOUNDED,       /* a box of dims cells from origin; outside particles clamped, counted */
    GP_GRID_HASHED         /* unbounded: cells hashed into a table of `buckets` buckets */
} gp_grid_mode;

/* The neighbour grid shared by every kind of particle (see THE GRID). */
typedef struct gp_grid_desc {
    gp_grid_mode mode;
    float cell_size;       /* metres (1e-6 to 1e6), at least the largest interaction radius; default 0.1 */
    float origin[3];       /* bounded: lowest corner, metres; default (0, 0, 0) */
    uint32_t dims[3];      /* bounded: cells along x, y and z */
    uint32_t buckets;      /* hashed: table size, rounded up to a power of two;
                              default max(4096, next power of two >= max_particles) */
} gp_grid_desc;

/* Everything a world needs, zero-initialised for the defaults. Copied: need not outlive the call. */
typedef struct gp_world_desc {
    uint32_t max_particles;                 /* capacity of the particle store; default 65,536 */
    gp_grid_desc grid;
    bool any_order;                         /* true: a cell's particles take the order the GPU's
                                               atomics give, and two runs from one state may differ
                                               in the last bits. Default false: every run from one
                                               state is bit-identical (THE GRID) */
    bool gpu_timings;                       /* record per-stage GPU times; default false */
    gp_get_proc_address_fn get_proc_address; /* default: the dlsym fallback (see the top) */
    gp_allocator allocator;
    gp_logger logger;
    const char* shader_prelude;             /* GLSL put after #version in every library shader,
                                               for experiments; default none */
    uint32_t contact_slots;                 /* contacts a grain or rigid particle keeps from substep
                                               to substep (GP_SHEAR_SPRING); default 12, at most 64.
                                               32 (contact_slots + 1) bytes of GPU memory per
                                               particle of capacity, allocated with the first grain
                                               or body. A contact with no free slot is counted
                                               (gp_dem_stats_read, CONTACT_SLOTS_FULL) and acts as a
                                               new one every substep */
} gp_world_desc;

/* desc with every zero replaced by its default, as gp_world_create will see it. */
GP_API_DECL gp_world_desc gp_query_world_defaults(const gp_world_desc* desc);

/* Creates a world in the GL context current on this thread. Checks the context (OpenGL 4.3 or
   newer, compute and buffer limits), loads the entry points, compiles the shaders and allocates
   the store. On failure *world is NULL and the logger has said why. */
GP_API_DECL gp_result gp_world_create(const gp_world_desc* desc, gp_world** world);
/* Frees every GL object and host allocation of the world; its context must be current. NULL is
   ignored. GP_BUFFER_GUARD builds first log each buffer a pass wrote past (BUFFER_OVERRUN). */
GP_API_DECL void gp_world_destroy(gp_world* world);
/* The result of the last gp_ call on this world that could fail. */
GP_API_DECL gp_result gp_world_last_result(const gp_world* world);

typedef enum gp_integrator {
    GP_INTEGRATOR_DEFAULT = 0,       /* symplectic Euler */
    GP_INTEGRATOR_SYMPLECTIC_EULER,  /* v += a dt, then x += v dt with the new v (stable) */
    GP_INTEGRATOR_EXPLICIT_EULER     /* x += v dt with the old v, then v += a dt (eq. 14 of
                                        Harada et al. 2007a as named; its data flow is the
                                        symplectic one) */
} gp_integrator;

typedef struct gp_step_desc {
    float dt;                  /* seconds the call advances; required, > 0 */
    uint32_t substeps;         /* 0 (default): as many as every system's limit asks (THE STEP'S
                                  CLOCK), each shortened on the GPU when speeds jump within the
                                  step; N: N substeps of dt / N, as they are */
    float max_cfl;             /* (speed of sound + fastest particle) * substep / spacing: the
                                  spacings a signal may cross in a substep; default 1; a step of
                                  fixed substeps warns above it (CFL_EXCEEDED) */
    gp_integrator integrator;
} gp_step_desc;

/* Advances the world by desc->dt in substeps, each running every system's stages in one order
   (>>step). Never waits for the GPU. Afterwards the store is in the cell order of the last
   substep's grid build, and GP_ATTRIBUTE_DENSITY, _PRESSURE and _ACCELERATION match its slots.
   A particle whose update is not finite keeps its last position, stops and is counted
   (gp_fluid_stats.nonfinite). Takes at most 1,000 substeps; time it could not run is owed
   (gp_fluid_stats.lag, up to four steps' dt) and run by the next steps. Logs CFL_EXCEEDED,
   SUBSTEP_TOO_LONG_FOR_GRAINS, SUBSTEPS_CAPPED, PARTICLES_OUTSIDE_GRID and BUCKETS_CROWDED (once
   while they last), and two steps late what its statistics report: STEP_BEHIND (info),
   PARTICLES_NOT_FINITE, CONTACT_SLOTS_FULL, REMOVAL_REFUSED. */
GP_API_DECL gp_result gp_world_step(gp_world* world, const gp_step_desc* desc);

/* Reads of GPU memory that waited for the GPU since the world was made: every _read call and
   the adds and removals said to wait. gp_world_step makes none. */
GP_API_DECL uint32_t gp_world_readbacks(const gp_world* world);

/* ---- buffers of yours (>>buffers) --------------------------------------------------------
   GL buffer names; sizes and offsets in bytes. Each call issues the barriers for you. */

/* Makes a buffer of `bytes`, filled from data (NULL: contents undefined). */
GP_API_DECL gp_result gp_buffer_create(gp_world* world, size_t bytes, const void* data, uint32_t* buffer);
/* Deletes a buffer of yours (0: nothing); a buffer of the world's own (gp_world_buffers' and
   those it keeps inside) is refused with GP_ERROR_INVALID_ARGUMENT and kept. */
GP_API_DECL gp_result gp_buffer_destroy(gp_world* world, uint32_t buffer);
GP_API_DECL gp_result gp_buffer_write(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, const void* src);
/* Waits for the GPU. */
GP_API_DECL gp_result gp_buffer_read(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, void* dst);

/* ---- timings (>>pipeline) ------------------------------------------------------------------ */

/* GPU time of one stage, summed over its runs since the last read. */
typedef struct gp_timing {
    const char* stage;    /* "scan", "grid_count", ...; a string of the library's */
    double milliseconds;
    uint32_t runs;
} gp_timing;

/* With desc.gpu_timings: writes up to max stage totals to timings and returns how many there
   are; the totals start again from zero. timings NULL: only the count, nothing is reset.
   Waits for the GPU. Without gpu_timings: 0. */
GP_API_DECL uint32_t gp_timings_read(gp_world* world, gp_timing* timings, uint32_t max);

/* ---- primitives on your own buffers (>>scan, >>sort) ---------------------------------------
   GL buffer names of uint32 arrays; counts in elements, offsets in bytes. Each checks that the
   buffers exist and are large enough, and returns GP_ERROR_INVALID_ARGUMENT otherwise. None waits. */

/* Exclusive prefix sum: output[i] = input[0] + ... + input[i - 1], modulo 2^32. output may be
   input. Any count, 0 included. */
GP_API_DECL gp_result gp_scan_exclusive(gp_world* world, uint32_t input, uint32_t output, uint32_t count);

/* Stream compaction: for every i < count with flags[i] != 0, in increasing i, its index goes to
   indices (which must hold count words); the number of them goes to the word at count_offset
   of count_buffer and stays on the GPU (see gp_indirect_args). */
GP_API_DECL gp_result gp_compact(gp_world* world, uint32_t flags, uint32_t count, uint32_t indices,
                                 uint32_t count_buffer, size_t count_offset);

/* Writes the three words of glDispatchComputeIndirect for ceil(count / group_size) workgroups,
   count read on the GPU from count_buffer at count_offset. Above 65,535 groups they are split
   x * y; take gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x in the shader. */
GP_API_DECL gp_result gp_indirect_args(gp_world* world, uint32_t count_buffer, size_t count_offset,
                                       uint32_t group_size, uint32_t args_buffer, size_t args_offset);

/* A plain streaming pass, destination[i] = source[i]: the yardstick of `make bench`. */
GP_API_DECL gp_result gp_copy(gp_world* world, uint32_t source, uint32_t destination, uint32_t count);

typedef enum gp_sort_order {
    GP_SORT_DEFAULT = 0,   /* ascending */
    GP_SORT_ASCENDING,
    GP_SORT_DESCENDING
} gp_sort_order;

/* Bitonic sort of count (key, value) pairs in place, by key and then by value, so the result is
   unique. Any count up to 2^31. For a depth sort, key = gp_float_sort_key(depth). */
GP_API_DECL gp_result gp_sort_pairs(gp_world* world, uint32_t keys, uint32_t values, uint32_t count,
                                    gp_sort_order order);
/* A uint32 key that sorts as the float does (negative values too). */
GP_API_DECL uint32_t gp_float_sort_key(float value);

/* ---- the neighbour grid (>>grid) ------------------------------------------------------------ */

/* Sorts the live particles into cell order (every attribute), fills cell_start and slot_of_id,
   and takes the dead out of the store (THE GRID). gp_world_step builds it at every substep. */
GP_API_DECL gp_result gp_grid_build(gp_world* world);

typedef struct gp_grid_stats {
    uint32_t particles;    /* filed by the last build: the live ones (the dead were taken out) */
    uint32_t outside;      /* finite, but outside the bounded box (or the hash's range) */
    uint32_t nonfinite;    /* with a NaN or infinite coordinate, in the extra bucket */
    uint32_t truncated;    /* particles whose neighbour loop the driver cut short since the build
                              (llvmpipe stops a shader's loops after 65,535 iterations: about
                              500,000 candidates for one particle); 0 on any sane input */
    uint32_t buckets;      /* not counting the extra bucket */
    uint32_t crowded;      /* particles past the GP_GRID_CROWD-th of their bucket (the NaN and the
                              dead ones' buckets too): every neighbour loop there visits them all */
} gp_grid_stats;
/* A bucket holding more particles than this is crowded (gp_grid_stats.crowded). */
#define GP_GRID_CROWD 256u
/* What the last gp_grid_build found, and what neighbour passes since met (reads back a few
   words: it waits for the GPU). Logs NEIGHBOR_LOOP_TRUNCATED when truncated is not 0. */
GP_API_DECL gp_result gp_grid_stats_read(gp_world* world, gp_grid_stats* stats);

/* For each live slot k, writes to out_buffer[k] how many other particles lie closer than
   radius (<= cell size), through the grid built last: the neighbour loop of every solver. */
GP_API_DECL gp_result gp_grid_count_neighbors(gp_world* world, float radius, uint32_t out_buffer);

/* ---- the particle store (>>store; see THE PARTICLE STORE, BIRTH AND DEATH) ------------------ */

/* What a particle is. The grid files every kind together; each solver acts on its own kinds:
   fluid (>>sph), grains (>>dem), rigid particles (>>rigid, with >>dem's contacts), effects
   (>>effects). Cloth and boundary particles are stored and filed in the grid, but no solver
   moves them yet (cloth is planned). */
typedef enum gp_kind {
    GP_KIND_DEFAULT = 0,   /* resolves to GP_KIND_EFFECT */
    GP_KIND_FLUID,         /* SPH fluid */
    GP_KIND_GRANULAR,      /* DEM grains */
    GP_KIND_RIGID,         /* a particle of a rigid body (owner: the body) */
    GP_KIND_CLOTH,         /* a cloth vertex (owner: the cloth) */
    GP_KIND_EFFECT,        /* emitted effect particles with a lifetime */
    GP_KIND_BOUNDARY,      /* static particles that others collide with */
    GP_KIND_COUNT
} gp_kind;

#define GP_NO_OWNER 0xffffffffu
#define GP_NO_SLOT 0xffffffffu        /* slot_of_id of an id that names no particle */
#define GP_PARTICLE_DEAD (1u << 8)    /* info.kind's flag: removed, or past its lifetime; gone at the next build */

/* The C mirrors of the store's std430 layouts (sizes checked in the implementation). */
typedef struct gp_particle_position { float x, y, z, radius; } gp_particle_position;
typedef struct gp_particle_velocity { float x, y, z, mass; } gp_particle_velocity;
typedef struct gp_particle_info {
    uint32_t id;      /* unique among live particles, < 2 max_particles; stable across builds */
    uint32_t kind;    /* bits 0-7 gp_kind, 8-15 flags (GP_PARTICLE_DEAD; others reserved, 0),
                         16-31 phase (material index) */
    uint32_t owner;   /* body, cloth or emitter; GP_NO_OWNER for none */
    uint32_t user;    /* yours; carried along, never read by the library */
} gp_particle_info;
typedef struct gp_particle_life { float age, lifetime; } gp_particle_life;

/* A batch of particles for gp_particles_add. Arrays are count long; NULL ones take the
   batch's single value. */
typedef struct gp_particles_desc {
    uint32_t count;
    const float* positions;    /* count * 3 floats, metres; required when count > 0 */
    const float* velocities;   /* count * 3 floats, m/s; NULL: at rest */
    const float* radii;        /* count floats, metres; NULL: .radius */
    const float* masses;       /* count floats, kg; NULL: .mass */
    const uint32_t* users;     /* count words copied to info.user; NULL: .user */
    float radius;              /* metres; default a grain's or fluid particle's material's (half its
                                  diameter or spacing), for other kinds half the grid's cell size */
    float mass;                /* kg; default a grain's or fluid particle's material's, for other
                                  kinds 1 */
    gp_kind kind;
    uint32_t phase;            /* material index in its kind's table (8 each); default 0 */
    uint32_t owner;            /* default GP_NO_OWNER (0 means owner 0 only with .has_owner) */
    bool has_owner;            /* true: .owner is meant, even when 0 */
    uint32_t user;
    float lifetime;            /* seconds, 0 = forever (bodies' and cloth's particles: must be 0) */
} gp_particles_desc;

/* Appends a batch after the live particles (on the GPU: after however many are alive there). All
   or nothing: if the batch does not fit (GP_ERROR_CAPACITY), or any value is NaN, infinite or out
   of range, nothing is added and the result says why. ids, if not NULL, receives the count ids
   given to the batch, in order (consecutive while never-used ids remain). Waits for the GPU only
   when the store may be too full to tell otherwise (gp_particle_count + count > max_particles). */
GP_API_DECL gp_result gp_particles_add(gp_world* world, const gp_particles_desc* desc, uint32_t* ids);
/* Removes particles of any kind but bodies' and cloth's (they live as long as their owner), all
   or nothing, at the next grid build: until then they are flagged GP_PARTICLE_DEAD. The ids are
   checked on the GPU and the call waits for that check: an id that names no particle, or a
   body's or cloth's particle, refuses the whole list (GP_ERROR_INVALID_ARGUMENT, SLOTS_NOT_LIVE). */
GP_API_DECL gp_result gp_particles_remove(gp_world* world, const uint32_t* ids, uint32_t count);
/* The same by a GL buffer of a uint per slot, [0, gp_particle_count()), not 0 for the particles to
   remove; nothing is read back. A buffer that flags a body's or cloth's particle removes nothing,
   and gp_world_step says so two steps later (REMOVAL_REFUSED). */
GP_API_DECL gp_result gp_particles_remove_flagged(gp_world* world, uint32_t flag_buffer);
/* The host's count, without waiting: the count on the GPU two steps ago plus every particle
   added since; a bound of the live count, exact while nothing dies. */
GP_API_DECL uint32_t gp_particle_count(const gp_world* world);
/* The exact count on the GPU (a wait): the live particles of the last build plus those added
   since (and those removed since, until the next build). */
GP_API_DECL gp_result gp_particle_count_read(gp_world* world, uint32_t* count);
/* The slot of each id (GP_NO_SLOT: the id names no particle; it died, or was never given), as of
   the last grid build or add (a wait). */
GP_API_DECL gp_result gp_particles_slots_read(gp_world* world, const uint32_t* ids, uint32_t count, uint32_t* slots);
/* The store's audit (a wait, one pass over the store; for tests and debug builds): counts into
   *misplaced the live slots whose particle the id table places elsewhere (or whose id is out of
   range), particles written twice or over one another, which no call of the library makes: 0 in
   a healthy world. Non-zero means a driver or memory fault; it is logged as an error
   (STORE_CORRUPT) and the call still returns GP_OK. Built with GP_BUFFER_GUARD, it also logs each
   buffer of the world's that a pass wrote past the end of (BUFFER_OVERRUN, an error; still
   GP_OK): GL drops such a write on llvmpipe and lets it land in other memory on a GPU. */
GP_API_DECL gp_result gp_particles_check(gp_world* world, uint32_t* misplaced);
/* The store's capacity (max_particles). */
GP_API_DECL uint32_t gp_particle_capacity(const gp_world* world);

typedef enum gp_attribute {
    GP_ATTRIBUTE_POSITION = 1,   /* gp_particle_position */
    GP_ATTRIBUTE_VELOCITY,       /* gp_particle_velocity */
    GP_ATTRIBUTE_INFO,           /* gp_particle_info (read only) */
    GP_ATTRIBUTE_LIFE,           /* gp_particle_life */
    GP_ATTRIBUTE_DENSITY,        /* float, kg/m^3, computed by the last fluid substep (read only) */
    GP_ATTRIBUTE_PRESSURE,       /* float, Pa, of that density (Harada et al. 2007a eq. 5; read
                                    only); a grain's or a body's particle: the pressure it pushes
                                    the fluid with */
    GP_ATTRIBUTE_ACCELERATION    /* gp_particle_position's layout, m/s^2 in xyz, of the last
                                    substep (read only) */
} gp_attribute;

/* Bytes per particle of an attribute; 0 for an unknown one. */
GP_API_DECL size_t gp_attribute_size(gp_attribute attribute);
/* Copies slots [first, first + count) of an attribute into dst (count * gp_attribute_size); a wait. */
GP_API_DECL gp_result gp_particles_read(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, void* dst);
/* Overwrites slots [first, first + count) of position, velocity or life, checked like
   gp_particles_add (finite values, positive radius and mass); info is the library's. Both calls
   check the range against gp_particle_count, the host's bound: slots of particles that died in
   the last two steps are in range, read as dead (GP_PARTICLE_DEAD) and take a write to no effect. */
GP_API_DECL gp_result gp_particles_write(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, const void* src);

/* The raw GL buffer names, for drawing straight from the GPU. Attribute names change at every
   grid build (the reorder swaps buffers): fetch them again after each step or build. */
typedef struct gp_buffers {
    uint32_t position, velocity, info, life;   /* max_particles elements each */
    uint32_t density;                          /* float per particle, of the last fluid substep */
    uint32_t slot_of_id;                       /* uint per id (2 max_particles): the slot it is in */
    uint32_t cell_start;                       /* uint per bucket, plus three (the NaN bucket's
                                                  start, the dead's start = the live count, the end) */
    uint32_t count;                            /* gp_particle_count */
    uint32_t buckets;                          /* buckets, not counting the NaN bucket */
    uint32_t sprites;                          /* gp_draw_effects' sprites in drawing order (0 before the first) */
    uint32_t store;                            /* the count on the GPU: a uint at offset 0, and
                                                  glDrawArraysIndirect's command (count, 1, 0, 0)
                                                  at GP_STORE_DRAW_OFFSET: draw the live particles
                                                  without reading the count back */
} gp_buffers;
#define GP_STORE_DRAW_OFFSET 32
GP_API_DECL gp_buffers gp_world_buffers(const gp_world* world);

/* ---- colliders (>>mesh, >>colliders; see WALLS) -------------------------------------------
   The walls every kind of particle meets: one signed distance, positive where particles may be
   and negative in a wall, the union of every collider's. Analytic shapes are evaluated exactly, a
   closed triangle mesh becomes a signed distance field, a height field is ground. */
typedef enum gp_shape {
    GP_SHAPE_NONE = 0,
    GP_SHAPE_SPHERE,           /* center, radius */
    GP_SHAPE_BOX,              /* center, half_extents (axis-aligned); the domain box is one */
    GP_SHAPE_CAPSULE,          /* the segment center +- half_height along the axis, radius around it */
    GP_SHAPE_PLANE,            /* a point `center`, `normal` pointing to the free side */
    GP_SHAPE_MESH,             /* a closed triangle mesh, made into a distance field */
    GP_SHAPE_HEIGHTFIELD       /* ground: heights over a rectangle (Kipfer et al. 2004 section 4.6),
                                  colliders only */
} gp_shape;

typedef struct gp_collider_desc {
    gp_shape shape;
    float center[3];           /* metres; a plane: a point on it */
    float half_extents[3];     /* box, metres */
    float radius;              /* sphere, capsule, metres */
    float half_height;         /* capsule: its segment runs from center - half_height axis to
                                  center + half_height axis (as a body shape's, along y), metres */
    float axis[3];             /* capsule: the segment's direction; default (0, 1, 0); normalised */
    float normal[3];           /* plane: towards the free side; normalised */
    bool inside;               /* true: particles are kept inside the shape (a tank);
                                  false (default): outside it (an obstacle). Planes ignore it */
    /* GP_SHAPE_MESH: vertices (3 floats each) and triangles (3 indices each, counter-clockwise
       seen from outside); a closed mesh. The field covers its bounds plus a margin of the
       largest smoothing radius, voxel metres apart (default half the grid's cell size). */
    const float* vertices;
    uint32_t vertex_count;
    const uint32_t* triangles;
    uint32_t triangle_count;
    float voxel;
    /* GP_SHAPE_HEIGHTFIELD: ground at y = center[1] + heights[i + samples[0] k] above the grid
       point x = center[0] - half_extents[0] + i dx, z = center[2] - half_extents[2] + k dz of
       samples[0] x samples[1] points (at least 2 x 2) spanning the rectangle 2 half_extents[0] by
       2 half_extents[2] (dx = 2 half_extents[0] / (samples[0] - 1), dz likewise); between the
       points the height is interpolated bilinearly; beyond the rectangle the edge's height and
       slope go on (clamped, so that the distance has no jump at the edge: wall a field in, or keep
       particles over it). Particles stay above it (inside is ignored). The distance the solvers
       see is the height above the ground along its normal (the local tangent plane's), exact on a
       plane and close on a gentle one. gp_heightfield_add fills this. */
    const float* heights;
    uint32_t samples[2];
} gp_collider_desc;
typedef struct gp_collider { uint32_t id; } gp_collider;   /* 0 is never valid */
#define GP_MAX_COLLIDERS 32

/* Adds a collider (at most GP_MAX_COLLIDERS: GP_ERROR_CAPACITY, TABLE_FULL), refused with a
   reason for a value that is not finite or out of range, or a mesh that is invalid or not closed
   (MESH_INVALID, MESH_NOT_CLOSED). */
GP_API_DECL gp_result gp_collider_add(gp_world* world, const gp_collider_desc* desc, gp_collider* collider);
/* A height field (GP_SHAPE_HEIGHTFIELD): samples_x x samples_z heights (metres, row by row
   along x) over the rectangle [min_x, max_x] x [min_z, max_z], added to base_y; copied. */
GP_API_DECL gp_result gp_heightfield_add(gp_world* world, const float* heights, uint32_t samples_x, uint32_t samples_z,
                                         float min_x, float max_x, float min_z, float max_z, float base_y, gp_collider* collider);
GP_API_DECL gp_result gp_collider_remove(gp_world* world, gp_collider collider);
/* The walls' signed distance (metres, negative inside a wall) at count points, evaluated on the
   GPU as the solvers see it (a wait); distances gets count floats. With no collider: +infinity. */
GP_API_DECL gp_result gp_boundary_distance_read(gp_world* world, const float* points, uint32_t count, float* distances);

/* ---- SPH fluid (>>sph; see THE FLUID) ------------------------------------------------------
   Weakly compressible SPH (Harada et al. 2007a) on the shared grid. Fluid particles are
   GP_KIND_FLUID; their phase picks one of GP_MAX_FLUID_MATERIALS materials. Phase 0 is water
   until set. Rigid bodies' particles and grains at least as wide as the smoothing radius are the
   fluid's moving boundary; narrower grains it drags (THE FLUID AND THE SOLIDS). */

#define GP_MAX_FLUID_MATERIALS 8

/* How a fluid particle's density is found. */
typedef enum gp_density_model {
    GP_DENSITY_DEFAULT = 0,    /* continuity */
    GP_DENSITY_SUMMATION,      /* Harada et al. 2007a eq. 4: rho_i = sum_j m_j W(r_ij) plus the walls'
                                  share, from the positions alone; wants a viscosity of about
                                  0.02 m^2/s (it gains energy when viscosity is low) */
    GP_DENSITY_CONTINUITY      /* each particle carries its density and changes it by the continuity
                                  equation, d rho_i / dt = sum_j m_j (v_i - v_j) . grad W, plus a
                                  delta-SPH diffusion; smooth, hydrostatic pressures. 8 more bytes
                                  per particle of GPU memory */
} gp_density_model;

/* A fluid. Zero fields take their defaults, resolved by gp_query_fluid_material_defaults. */
typedef struct gp_fluid_material {
    float spacing;           /* l0: metres between neighbours at rest; default half the cell size */
    float smoothing_radius;  /* r_e of the kernels, metres; default 2 * spacing, at most the cell
                                size (THE FLUID says why 2, and what 3 changes) */
    float rest_density;      /* rho_0, kg/m^3; default 1000 */
    float stiffness;         /* k of eq. 5, Pa per kg/m^3 (the square of the speed of sound);
                                default 1000 (sound at about 32 m/s), raised to 400 |g| H by the
                                material's first block or ball H > 0.25 m deep; a later, deeper
                                one logs FLUID_TOO_DEEP and leaves it. For fluid that comes
                                otherwise (pours, emitters, gp_particles_add) deeper than 0.25 m,
                                set about 400 |g| H yourself */
    float viscosity;         /* nu of eq. 7, kinematic, m^2/s; default 1e-6 (water at 20 C) */
    float rest_pressure;     /* p_0 of eq. 5, Pa; default 0 */
    bool allow_tension;      /* false (default): negative pressures are clamped to 0, so that the
                                free surface does not clump; true: eq. 5 as it is */
    gp_density_model density_model;   /* default continuity. Particles added under it start at the
                                         rest density (a block's or ball's at rest under gravity);
                                         a material switched to it starts from the densities its
                                         particles carried before, the rest density if none */
    float diffusion;         /* delta of the continuity model's density diffusion, 0 to 1; default 0.1 */
    float artificial_viscosity;   /* alpha of Monaghan 1992's artificial viscosity, 0 to 1; default 0
                                     (none). A pair closing at v_ij . r_ij < 0 adds the pseudo-pressure
                                     Pi_ij = alpha c h mu_ij / rho_ij, mu_ij = h v_ij . r_ij / (r^2 +
                                     0.01 h^2), h = re / 2, c = sqrt(stiffness): about alpha h c / 10
                                     of kinematic viscosity in 3D; the walls do not take part */
    float mass;              /* derived, ignored on input: kg per particle, chosen so that a particle
                                inside a block on the spacing's cubic lattice has rest_density */
} gp_fluid_material;

/* Common fluids as material values (zero fields keep their defaults; spacing is yours, 0 for the
   default): the continuity model, the fluid's kinematic viscosity at about 20 C and the default
   speed of sound. GP_FLUID_WATER is the default material's values. */
typedef enum gp_fluid_preset {
    GP_FLUID_PRESET_DEFAULT = 0,   /* the default material */
    GP_FLUID_WATER,                /* 1000 kg/m^3, nu 1.0e-6 m^2/s */
    GP_FLUID_OIL,                  /* olive oil: 910 kg/m^3, nu 9.0e-5 m^2/s (0.08 Pa s) */
    GP_FLUID_HONEY,                /* 1420 kg/m^3, nu 7.0e-3 m^2/s (10 Pa s) */
    GP_FLUID_LAVA                  /* lava-like: 2700 kg/m^3, nu 0.1 m^2/s (270 Pa s); its viscous
                                      limit takes many substeps (83 per 1/60 s at spacing 0.01 m) */
} gp_fluid_preset;
/* Writes the preset's material to *material; GP_ERROR_INVALID_ARGUMENT (nothing written) for a
   value that is not a gp_fluid_preset or a NULL material, said on stderr (there is no world). */
GP_API_DECL gp_result gp_fluid_preset_material(gp_fluid_preset preset, float spacing, gp_fluid_material* material);
/* The material with every zero replaced by its default and mass derived, for this world. */
GP_API_DECL gp_fluid_material gp_query_fluid_material_defaults(const gp_world* world, const gp_fluid_material* material);
/* Sets material `phase` (< GP_MAX_FLUID_MATERIALS) and recomputes its wall tables. Refused when
   the smoothing radius exceeds the grid's cell size (CELL_TOO_SMALL). Particles keep their own
   mass: set the material before adding them. */
GP_API_DECL gp_result gp_fluid_material_set(gp_world* world, uint32_t phase, const gp_fluid_material* material);
/* The material in use for `phase`, resolved. */
GP_API_DECL gp_result gp_fluid_material_get(gp_world* world, uint32_t phase, gp_fluid_material* material);

/* A block fills the box [min, max] with particles on the material's cubic lattice, at
   min + (i + 1/2) * spacing, so that a block filling a container sits at rest on its walls; a
   ball keeps the lattice points inside the sphere. Under the continuity model with gravity they
   start hydrostatic: each at the density of a column at rest whose surface is half a spacing above
   the highest particle, moved down by the compression of the fluid below it. Each block is its
   own column. All or nothing: GP_ERROR_CAPACITY when they do not fit. added (may be NULL) receives
   the number of particles; their ids follow the last given. */
GP_API_DECL gp_result gp_fluid_add_block(gp_world* world, uint32_t phase, const float min[3], const float max[3],
                                         const float velocity[3], uint32_t* added);
GP_API_DECL gp_result gp_fluid_add_ball(gp_world* world, uint32_t phase, const float center[3], float radius,
                                        const float velocity[3], uint32_t* added);
/* How many particles a block or a ball holds on the lattice of `spacing`: what gp_fluid_add_block
   and gp_fluid_add_ball add with a material of that spacing. No world needed, so that you can
   size max_particles first. 0 when spacing is not positive or an argument is not finite. */
GP_API_DECL uint64_t gp_lattice_block_count(float spacing, const float min[3], const float max[3]);
GP_API_DECL uint64_t gp_lattice_ball_count(float spacing, const float center[3], float radius);

/* A pour: a nozzle that feeds fluid during every gp_world_step, one disc-shaped layer of
   particles each time the stream has moved one spacing, born on the GPU (GP_EMITTER_POUR), until
   it is removed or the store is full. Full, it adds what fits, logs POUR_STOPPED once and reports
   full in its state. Waits for the GPU only when the store may be full and particles may have died. */
typedef struct gp_pour_desc {
    uint32_t phase;
    float position[3];   /* the nozzle's centre, metres */
    float direction[3];  /* the stream's direction (normalised for you); default (0, -1, 0) */
    float rate;          /* particles per second; required */
    float speed;         /* m/s along direction; default 1 */
} gp_pour_desc;
typedef struct gp_pour { uint32_t id; } gp_pour;   /* 0 is never a valid pour */
typedef struct gp_pour_state {
    uint64_t emitted;    /* particles it has added */
    bool full;           /* it stopped because the store is full */
} gp_pour_state;
/* Adds a pour (at most 16 at once: GP_ERROR_CAPACITY, TABLE_FULL); refused for a phase beyond the
   fluid materials, or a rate or speed that is not positive and finite. */
GP_API_DECL gp_result gp_pour_add(gp_world* world, const gp_pour_desc* desc, gp_pour* pour);
GP_API_DECL gp_result gp_pour_remove(gp_world* world, gp_pour pour);
GP_API_DECL gp_result gp_pour_state_get(gp_world* world, gp_pour pour, gp_pour_state* state);

typedef struct gp_fluid_stats {
    float max_speed;        /* m/s, fastest particle after the last substep (fluid, grains and bodies'
                               particles alike: the speed the substeps are sized by) */
    float cfl;              /* the last substep's CFL number, as gp_step_desc defines it */
    float substep;          /* seconds */
    uint32_t substeps;      /* of the last gp_world_step */
    float min_density, max_density;   /* kg/m^3 over fluid particles at the last substep */
    uint32_t wall_pushes;   /* particles the last substep put back out of a wall or a solid */
    uint32_t nonfinite;     /* updates that were not finite since the world was made (a particle
                               counted at each substep it failed) */
    float cfl_reached;      /* the largest CFL number a substep of the last step started with, from
                               the speeds on the GPU then (at most max_cfl when the step picks the
                               substeps) */
    float lag;              /* seconds the last step could not run and owes, 0 in a calm flow; at
                               most four steps' dt (THE STEP'S CLOCK) */
} gp_fluid_stats;
/* Reads the fluid's and the step's statistics (waits for the GPU). */
GP_API_DECL gp_result gp_fluid_stats_read(gp_world* world, gp_fluid_stats* stats);

/* ---- granular matter (>>dem; see GRAINS AND BODIES) ----------------------------------------
   Grains (GP_KIND_GRANULAR) and rigid bodies' particles (GP_KIND_RIGID) touch through the
   discrete element method of Harada 2007 section 29.1.5: a spring and a dashpot along the normal
   (eqs. 10-11), a shear force across it (eqs. 12-13) capped by Coulomb friction. Colliders push
   the same way. Their phase picks one of GP_MAX_GRANULAR_MATERIALS materials. */
#define GP_MAX_GRANULAR_MATERIALS 8
/* How a contact resists shear. */
typedef enum gp_shear_model {
    GP_SHEAR_DEFAULT = 0,    /* resolves to GP_SHEAR_SPRING */
    GP_SHEAR_SPRING,         /* a spring across each contact (Cundall and Strack 1979), its stretch
                                kept from substep to substep while the contact lasts (up to
                                gp_world_desc.contact_slots contacts per particle), plus the
                                `shear` dashpot, capped by Coulomb: heaps and blocks hold still */
    GP_SHEAR_VISCOUS,        /* eq. 12: the dashpot alone, capped by Coulomb; nothing kept, but
                                contacts creep (heaps flatten, blocks slide slowly) */
    GP_SHEAR_COUNT
} gp_shear_model;

typedef struct gp_granular_material {
    float diameter;          /* m, of a grain or a rigid particle; default the grid's cell size,
                                at most the cell size (the contact search covers one cell) */
    float density;           /* kg/m^3 of the grain's material; default 2500 (sand, glass) */
    float stiffness;         /* k of eq. 10, N/m; default 200 m / d^2: two grains meeting at
                                1 m/s overlap by 5% of the diameter */
    float damping;           /* eta of eq. 11, N s/m; default: restitution 0.5 between two grains.
                                A body's particle scales it and shear by sqrt(M / m) (the pair's
                                reduced mass with the bodies' masses over that with the particles') */
    float shear;             /* k_t of eq. 12, N s/m: the shear's dashpot; default = damping */
    float friction;          /* Coulomb's mu, the shear's cap over the normal push; default 0.3
                                (grains do not roll: they pile at 30-35 degrees; at 0.5, 42-52) */
    float tangential_stiffness; /* k_s, N/m: the shear spring, which holds a contact until the shear
                                reaches mu times the push (static friction); default 2/7 of
                                stiffness (tangential and normal oscillations of equal period) */
    gp_shear_model shear_model; /* GP_SHEAR_SPRING (the default) or GP_SHEAR_VISCOUS */
    float rolling_friction;  /* mu_r: a torque of mu_r r N against the relative spin of a contact's
                                spheres (r the pair's r_a r_b / (r_a + r_b), N the push): a ball
                                rolling on a floor decelerates at 5/7 mu_r g. Default 0 (off).
                                Grains do not spin: their rolling is always fully resisted */
    float mass;              /* derived, read only: density pi d^3 / 6 */
} gp_granular_material;

/* material with its zero fields replaced by the defaults (material may be NULL). */
GP_API_DECL gp_granular_material gp_query_granular_material_defaults(const gp_world* world, const gp_granular_material* material);
/* Sets material `phase` (< GP_MAX_GRANULAR_MATERIALS); phase 0 has the defaults until set.
   Refused when the diameter exceeds the grid's cell size (CELL_TOO_SMALL). Two particles in
   contact use the mean of their materials' k, eta, k_t, mu and k_s (a viscous material's k_s
   counting as 0; a pair whose mean is 0 keeps nothing). Particles keep their own radius and
   mass: set the material before adding grains or shapes. */
GP_API_DECL gp_result gp_granular_material_set(gp_world* world, uint32_t phase, const gp_granular_material* material);
GP_API_DECL gp_result gp_granular_material_get(gp_world* world, uint32_t phase, gp_granular_material* material);
/* Grains on the material's cubic lattice (spacing = diameter, so that neighbours just touch)
   filling [min, max], all or nothing, like gp_fluid_add_block; gp_lattice_block_count with the
   diameter says how many. */
GP_API_DECL gp_result gp_granular_add_block(gp_world* world, uint32_t phase, const float min[3], const float max[3],
                                            const float velocity[3], uint32_t* added);

/* The contacts' statistics (GP_SHEAR_SPRING's kept springs). */
typedef struct gp_dem_stats {
    uint32_t contacts_kept;       /* contacts whose spring the last substep kept (pairs and walls) */
    uint32_t contacts_unkept;     /* contacts that found no free slot, since the world was made: each acted as
                                     a new contact that substep (CONTACT_SLOTS_FULL, two steps late) */
    uint32_t contact_slots;       /* gp_world_desc.contact_slots */
    uint64_t history_bytes;       /* GPU memory of the kept contacts: 32 (contact_slots + 1) max_particles, 0 before
                                     the first substep with grains or bodies */
} gp_dem_stats;
/* Reads them from the GPU (waits for it; for tests and tools, not every frame). */
GP_API_DECL gp_result gp_dem_stats_read(gp_world* world, gp_dem_stats* stats);

/* ---- rigid bodies (>>rigid; see GRAINS AND BODIES) ----------------------------------------- */

/* A shape: the particles that make up a rigid body, made once and shared by many bodies
   (Harada 2007 section 29.1.3). Space is cut into voxels of the material's diameter, and a voxel
   whose centre is inside the closed mesh (by ray parity) or the analytic shape gets a particle; a
   sphere no wider than a voxel is one particle. surface_only keeps the voxels with an outside
   face neighbour. Mass, centre of mass and inertia come from the particles (each a solid ball of
   the material); the body turns about its principal axes. */
typedef struct gp_shape_desc {
    gp_shape shape;            /* GP_SHAPE_SPHERE, _BOX, _CAPSULE or _MESH */
    uint32_t phase;            /* granular material: diameter, density, contact parameters */
    float radius;              /* sphere, capsule */
    float half_extents[3];     /* box */
    float half_height;         /* capsule: its segment runs along y, from -half_height to +half_height */
    const float* vertices;     /* mesh: 3 floats each, in the shape's own frame */
    uint32_t vertex_count;
    const uint32_t* triangles; /* mesh: 3 indices each; closed */
    uint32_t triangle_count;
    bool surface_only;
} gp_shape_desc;
typedef struct gp_body_shape { uint32_t id; } gp_body_shape;   /* 0 is never valid */
typedef struct gp_body_shape_info {
    uint32_t particles;
    float mass;                /* kg */
    float center_of_mass[3];   /* in the shape's frame */
    float inertia[3];          /* principal moments, kg m^2, ascending */
    float principal[4];        /* the principal axes as a rotation of the shape's frame, (x, y, z, w) */
} gp_body_shape_info;
/* Makes a shape; refused (SHAPE_VOXELS) when it is too small or too large for its material's
   diameter. */
GP_API_DECL gp_result gp_body_shape_create(gp_world* world, const gp_shape_desc* desc, gp_body_shape* shape);
GP_API_DECL gp_result gp_body_shape_info_get(gp_world* world, gp_body_shape shape, gp_body_shape_info* info);
/* Destroys a shape; refused (GP_ERROR_INVALID_STATE, SHAPE_IN_USE) while a body uses it. Its
   handle is not valid afterwards; its GPU offsets stay until the world is destroyed. */
GP_API_DECL gp_result gp_body_shape_destroy(gp_world* world, gp_body_shape shape);

/* A body: a shape placed in the world. Orientations are unit quaternions (x, y, z, w) that turn
   the shape's frame into the world's; position is where the shape's origin goes. */
typedef struct gp_body_desc {
    gp_body_shape shape;
    float position[3];         /* m */
    float orientation[4];      /* default (all 0) the identity */
    float velocity[3];         /* m/s, of the centre of mass */
    float angular_velocity[3]; /* rad/s, world frame */
} gp_body_desc;
/* A body's handle. 0 is never valid, nor is a handle that names no body of this world; the high 8
   bits are the generation of the body's slot (every generation is 1: bodies cannot be removed).
   Its particles' owner field is the body's number, gp_body_number(body): bodies are numbered
   0, 1, ... in the order added. */
typedef struct gp_body { uint32_t id; } gp_body;
/* Adds count bodies, all or nothing (their particles must fit in the store); bodies (may be NULL)
   receives count handles. Each body's particles take consecutive ids. Fluid already where a body
   is added is not moved out: leave the body's place out of the fluid. */
GP_API_DECL gp_result gp_bodies_add(gp_world* world, const gp_body_desc* descs, uint32_t count, gp_body* bodies);
/* The bodies added so far (bodies cannot be removed). */
GP_API_DECL uint32_t gp_body_count(const gp_world* world);
/* The body's number (its particles' owner), or GP_NO_OWNER for a handle that is not valid. */
GP_API_DECL uint32_t gp_body_number(const gp_world* world, gp_body body);
typedef struct gp_body_state {
    float position[3];         /* the shape's origin in the world, m */
    float orientation[4];      /* (x, y, z, w) */
    float center_of_mass[3];   /* m */
    float velocity[3];         /* of the centre of mass, m/s */
    float angular_velocity[3]; /* rad/s */
    float angular_momentum[3]; /* kg m^2 / s, about the centre of mass */
} gp_body_state;
/* Reads count bodies' states (waits for the GPU): those of the handles in bodies, or with bodies
   NULL the first count bodies in the order added. */
GP_API_DECL gp_result gp_bodies_read(gp_world* world, const gp_body* bodies, uint32_t count, gp_body_state* states);

/* ---- effect particles (>>effects; see EFFECTS AND EMITTERS) --------------------------------
   Effect particles (GP_KIND_EFFECT: sparks, spray, dust, smoke) fly on their own each substep:
   they age, feel gravity, your forces and the wind through a linear drag, may ride the fluid and
   bounce off each other, and bounce off every collider. Their phase picks one of
   GP_MAX_EFFECT_MATERIALS materials. Emitters give birth to them on the GPU; they die at the end
   of their lifetime; gp_draw_effects draws them as sprites. */
#define GP_MAX_EFFECT_MATERIALS 8
typedef struct gp_effect_material {
    float drag;          /* k, 1/s: dv/dt = gravity + forces - k (v - wind); default 0 (none); a
                            terminal speed of g / k */
    float restitution;   /* the normal speed a bounce keeps, 0 to 1; default 0.5 (0 picks the
                            default: for no bounce at all take 1e-6) */
    float friction;      /* Coulomb's mu of a bounce: the tangential speed loses mu (1 + e) times
                            the normal speed it hit with, down to rest; default 0.3 */
    float ride;          /* 1/s: in fluid, the rate at which the particle takes the fluid's velocity
                            there, and the fluid buoys it up with the weight of the fluid it
                            displaces (a sphere of its radius: foam lighter than the fluid floats);
                            default 0 (the fluid is not felt) */
    float collide;       /* the restitution of collisions between effect particles whose materials
                            collide (Kipfer et al. 2004 sections 4.3-4.5): the mean of the pair's,
                            up to 1 (elastic), momentum kept; default 0 (they pass through) */
} gp_effect_material;
/* The wind the effect particles feel through their drag (no drag, no wind): the sum of a uniform
   wind, a vortex, a grid of velocities you upload (set it again each frame to animate it) and
   curl-noise turbulence. */
typedef struct gp_wind_desc {
    float uniform[3];            /* m/s everywhere */
    /* a Rankine vortex about the line through vortex_center along vortex_axis (normalised; zero:
       +y): the air turns counter-clockwise seen from the axis' tip, at vortex_speed m/s at
       vortex_radius from the line, as a solid body inside it and falling as 1/r outside;
       vortex_speed 0: none */
    float vortex_center[3], vortex_axis[3], vortex_speed, vortex_radius;
    /* a grid of velocities: dims[0] x dims[1] x dims[2] nodes (at least 2 each), `cell` metres
       apart from the node at `origin`, three floats (m/s) per node, x fastest, then y, then z;
       trilinear between the nodes, the nearest face's values beyond the grid; NULL: none. Copied */
    const float* grid;
    uint32_t dims[3];
    float origin[3], cell;
    /* curl-noise turbulence (Bridson et al. 2007): divergence-free gusts of about noise_speed m/s
       rms, features noise_scale metres wide (default 1 m), the same for the same noise_seed;
       noise_speed 0: none */
    float noise_speed, noise_scale;
    uint32_t noise_seed;
} gp_wind_desc;
/* Replaces the wind (NULL: none); refused whole with a reason for a value that is not finite, a
   grid of fewer than 2 nodes a side or more than 2^24, a cell or vortex radius that is not
   positive. */
GP_API_DECL gp_result gp_wind_set(gp_world* world, const gp_wind_desc* wind);

/* Sets material `phase` (< GP_MAX_EFFECT_MATERIALS) of the effect particles; refused with a
   reason for a negative or non-finite value or a restitution above 1. */
GP_API_DECL gp_result gp_effect_material_set(gp_world* world, uint32_t phase, const gp_effect_material* material);
GP_API_DECL gp_result gp_effect_material_get(gp_world* world, uint32_t phase, gp_effect_material* material);

/* ---- emitters (>>emitters; see EFFECTS AND EMITTERS) ----------------------------------------
   An emitter gives birth to particles on the GPU in every substep of gp_world_step, at its rate
   and in bursts, with nothing read back: each is written after the store's count, placed in the
   emitter's shape, sent along its direction within its spread at a speed drawn from its range,
   with a lifetime drawn from its range. A rate r emits floor(r t) particles in the t seconds of
   steps since it was set; a burst comes at the next step's first substep. The same seed gives the
   same particles at any substep and on any device. A birth the store has no room or id for is
   refused and counted (gp_emitter_stats_get). Any kind but bodies' and cloth's: effects (the
   default), grains, fluid (GP_EMITTER_POUR places it on its lattice; other shapes at random,
   where particles born closer than the spacing push apart hard). */
#define GP_MAX_EMITTERS 32
typedef struct gp_emitter { uint32_t id; } gp_emitter;   /* 0 is never valid */
typedef enum gp_emitter_shape {
    GP_EMITTER_DEFAULT = 0,   /* resolves to GP_EMITTER_POINT */
    GP_EMITTER_POINT,         /* at position */
    GP_EMITTER_SPHERE,        /* anywhere in a ball of radius about position */
    GP_EMITTER_BOX,           /* anywhere in a box of half_extents about position (axis-aligned) */
    GP_EMITTER_DISC,          /* anywhere on a disc of radius about position, across direction */
    GP_EMITTER_CONE,          /* from a disc as DISC, each particle tilted outwards by its distance
                                 from the centre, up to spread at the rim: a cone's spray */
    GP_EMITTER_SPRAY,         /* from the fluid where it moves fast (a breaking wave, a splash):
                                 each fluid particle faster than speed[0] gives birth at `rate`
                                 per second (a chance each substep), the newborn within radius of
                                 it with its velocity plus a random part of up to speed[1] m/s;
                                 effect particles only; position, direction, spread unused */
    GP_EMITTER_MESH,          /* anywhere on a triangle mesh's surface (uniform by area), leaving
                                 along each triangle's normal within spread; effects and grains */
    GP_EMITTER_POUR           /* a pour (as gp_pour_add's): a layer of the lattice across direction
                                 (the fluid's spacing, a grain's diameter, an effect's two radii
                                 apart) every spacing / speed[0] seconds, of the births its rate
                                 gives by then, in square rings about position within the disc
                                 they fill, leaving at speed[0]; radius: each point's jitter across
                                 the stream, in spacings (0: on the lattice; grains want some, or
                                 they stand in columns; fluid's lattice is then 1 + 2 radius
                                 spacings apart, so that none are born overlapping); spread,
                                 half_extents unused. The nozzle does not look where it pours: a
                                 heap that reaches it is poured into */
} gp_emitter_shape;
typedef struct gp_emitter_desc {
    gp_emitter_shape shape;
    float position[3];        /* metres */
    float direction[3];       /* the axis particles leave along (a disc's normal); default +y; normalised */
    float spread;             /* radians, 0 to pi: the half-angle of the directions about it (uniform
                                 over that cap of the sphere); 0 along it, pi every way; a cone's
                                 tilt at its rim */
    float radius;             /* sphere, disc, cone: metres; a pour: its jitter, in spacings */
    float half_extents[3];    /* box: metres */
    float speed[2];           /* m/s: each particle's drawn uniformly from [speed[0], speed[1]]
                                 (speed[1] below speed[0]: speed[0]) */
    float lifetime[2];        /* s, drawn the same way; 0 0: forever */
    float rate;               /* particles per second, 0 to 1e12 */
    gp_kind kind;             /* default GP_KIND_EFFECT */
    uint32_t phase;
    float particle_radius;    /* metres; default as gp_particles_add's (the material's) */
    float mass;               /* kg; default as gp_particles_add's */
    uint32_t user;            /* each particle's info.user */
    uint32_t seed;
    /* How gp_draw_effects draws its effect particles, over each one's lifetime (read by the GPU
       from the emitters' table at the particle's owner: no cost per particle): */
    float size[4];            /* the radius's factor at ages 0, 1/3, 2/3 and 1 of the lifetime, linear
                                 between; all 0: 1 throughout */
    float color[4][4];        /* RGBA (0 to 1) at the same ages; all 0: opaque white throughout */
    uint32_t max_per_substep; /* GP_EMITTER_SPRAY: births per substep at most (the host's bound of the
                                 count grows by it each substep); default capacity / 64 */
    /* GP_EMITTER_MESH: vertices (3 floats each, metres, about position) and triangles (3 indices
       each; their normal counter-clockwise seen from the side particles leave on), copied; any
       mesh, closed or not. gp_emitter_get gives them back NULL; gp_emitter_set with them NULL keeps
       the emitter's mesh. */
    const float* vertices;
    uint32_t vertex_count;
    const uint32_t* triangles;
    uint32_t triangle_count;
} gp_emitter_desc;
/* Adds an emitter (at most GP_MAX_EMITTERS at once); checked like gp_particles_add's values and
   refused with a reason. Its particles' owner is its number, gp_emitter_number. */
GP_API_DECL gp_result gp_emitter_add(gp_world* world, const gp_emitter_desc* desc, gp_emitter* emitter);
/* Changes it from the next step; a new rate counts its time from then. */
GP_API_DECL gp_result gp_emitter_set(gp_world* world, gp_emitter emitter, const gp_emitter_desc* desc);
GP_API_DECL gp_result gp_emitter_get(gp_world* world, gp_emitter emitter, gp_emitter_desc* desc);
/* count more particles at the next step's first substep, at once. */
GP_API_DECL gp_result gp_emitter_burst(gp_world* world, gp_emitter emitter, uint32_t count);
/* Stops it; the particles it gave birth to live on (their owner number may go to a later emitter). */
GP_API_DECL gp_result gp_emitter_remove(gp_world* world, gp_emitter emitter);
/* Its number (the owner of its particles, < GP_MAX_EMITTERS), or GP_NO_OWNER for a stale handle. */
GP_API_DECL uint32_t gp_emitter_number(const gp_world* world, gp_emitter emitter);
typedef struct gp_emitter_stats {
    uint64_t emitted;         /* births planned since it was added (the host knows them exactly; a
                                 spray emitter's the GPU decides: 0) */
    uint32_t refused;         /* births the store had no room or id for, every emitter's, since the
                                 world was made: two steps late, with the step's statistics */
} gp_emitter_stats;
GP_API_DECL gp_result gp_emitter_stats_get(gp_world* world, gp_emitter emitter, gp_emitter_stats* stats);

/* ---- forces and inspection (>>step) ---------------------------------------------------------- */

/* Your forces, applied to fluid and effect particles at every substep on top of gravity. */
typedef enum gp_force_type {
    GP_FORCE_NONE = 0,
    GP_FORCE_UNIFORM,    /* acceleration `vector` (m/s^2) for particles within `radius` of
                            `center` (radius 0: everywhere) */
    GP_FORCE_RADIAL      /* acceleration `strength` (m/s^2) towards `center` (negative: away),
                            falling linearly to 0 at `radius` (0: no falloff) */
} gp_force_type;
typedef struct gp_force {
    gp_force_type type;
    float center[3], vector[3], strength, radius;
} gp_force;
#define GP_MAX_FORCES 8
/* Replaces the set of forces with `count` of them (0 clears). */
GP_API_DECL gp_result gp_forces_set(gp_world* world, const gp_force* forces, uint32_t count);
/* Gravity, m/s^2; default (0, -9.81, 0). */
GP_API_DECL gp_result gp_gravity_set(gp_world* world, const float gravity[3]);
/* Runs a substep of dt seconds without moving anything (no pour, no integration), for inspection
   and tests: the grid build, the fluid's density and acceleration, the grains' contact forces
   for the current positions. A continuity-model material's density is the one its particles
   would carry after dt; they keep the one they carry. */
GP_API_DECL gp_result gp_fluid_compute(gp_world* world, float dt);

/* ---- drawing (>>draw; compiled out by GP_NO_DRAW) ------------------------------------------
   Draws straight from the store's buffers (no copy, nothing read back) into the framebuffer and
   viewport that are bound, depth-tested if you enabled it, after a step or build. Each draw call
   fails with GP_ERROR_INVALID_STATE (DRAW_COMPILED_OUT) when built with GP_NO_DRAW, and keeps
   the GL state rules of GL STATE. To draw yourself instead, gp_world_buffers names every buffer. */
typedef enum gp_color_by {
    GP_COLOR_DEFAULT = 0,   /* density */
    GP_COLOR_DENSITY,       /* white at range[0], blue at range[1] (Harada et al. 2007a figures 4-5) */
    GP_COLOR_SPEED,         /* white at range[0] m/s, blue at range[1] */
    GP_COLOR_KIND,          /* a fixed colour per gp_kind */
    GP_COLOR_UNIFORM        /* desc.color */
} gp_color_by;
typedef enum gp_blend {
    GP_BLEND_DEFAULT = 0,    /* resolves to GP_BLEND_ALPHA */
    GP_BLEND_ALPHA,          /* over what is behind, sorted back to front (smoke, dust, spray) */
    GP_BLEND_ADDITIVE        /* added, in any order (sparks, fire, glow) */
} gp_blend;
typedef struct gp_draw_desc {
    float view[16];          /* column-major, as glUniformMatrix4fv takes it without transposing */
    float projection[16];    /* column-major perspective projection; with view, all zero (the
                                default): a camera that frames the colliders and the particles
                                added so far, for the viewport's aspect */
    gp_color_by color_by;
    float range[2];          /* values mapped to white and to blue; default: density 0.7 to 1
                                times phase 0's rest density (a white surface over a blue
                                body); speed 0 to 3 m/s */
    float color[4];          /* GP_COLOR_UNIFORM; default (0.3, 0.5, 0.9, 1) */
    float light[3];          /* direction towards the light in view space; default (0.4, 0.7, 0.6) */
    float radius_scale;      /* drawn radius over particle radius; default 1 */
    uint32_t kinds;          /* gp_draw_particles: a bit (1u << kind) for each kind to draw; 0: every
                                kind (draw effects as sprites with gp_draw_effects: all but
                                1u << GP_KIND_EFFECT here) */
    gp_blend blend;          /* gp_draw_effects: alpha blended back to front, or added */
} gp_draw_desc;
/* Draws the live particles as lit sphere impostors: a point per particle, sized from its radius,
   shaded as a sphere, with its true depth written. Leaves GL_PROGRAM_POINT_SIZE enabled. */
GP_API_DECL gp_result gp_draw_particles(gp_world* world, const gp_draw_desc* desc);
/* Draws every rigid body's mesh (the shape's triangles, or a box, sphere or capsule made for
   it), instanced from the bodies' positions and quaternions on the GPU (Harada 2007 eq. 21), lit,
   a colour per body from a palette (GP_COLOR_UNIFORM: desc.color). view, projection and light as
   above; the other fields are ignored. */
GP_API_DECL gp_result gp_draw_bodies(gp_world* world, const gp_draw_desc* desc);
/* Draws the effect particles as camera-facing sprites (soft discs): each its radius times its
   emitter's size curve at its age, in its emitter's colour there (no emitter: its radius,
   white). GP_BLEND_ALPHA sorts them back to front by view depth on the GPU at every call.
   view and projection as gp_draw_particles's, blend; the other fields ignored. Depth tested,
   not written: draw the opaque particles first. Sets the blend state (the equation GL_FUNC_ADD),
   the depth write mask, face culling (off) and the polygon mode (filled) it needs and restores
   them. The sprites stay in gp_world_buffers' `sprites` until the next call (two vec4 each, in
   drawing order: centre and size, colour). */
GP_API_DECL gp_result gp_draw_effects(gp_world* world, const gp_draw_desc* desc);


#ifdef __cplusplus
}
#endif
#endif /* GPUPARTICLE_H_INCLUDED */

/* ============================================================================================
   IMPLEMENTATION
   ============================================================================================ */
#ifdef GPUPARTICLE_IMPLEMENTATION
#ifndef GP__IMPLEMENTATION_INCLUDED
#define GP__IMPLEMENTATION_INCLUDED

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GP_ASSERT
#include <assert.h>
#define GP_ASSERT(c) assert(c)
#endif

#ifndef GP_GROUP_SIZE
#define GP_GROUP_SIZE 256
#endif
#if (GP_GROUP_SIZE < 64) || (GP_GROUP_SIZE > 1024) || ((GP_GROUP_SIZE & (GP_GROUP_SIZE - 1)) != 0)
#error "gpuparticle.h: GP_GROUP_SIZE must be a power of two from 64 to 1024"
#endif
#ifndef GP_BUFFER_GUARD
#define GP_BUFFER_GUARD 0
#endif
#if (GP_BUFFER_GUARD < 0) || (GP_BUFFER_GUARD > 65536) || (GP_BUFFER_GUARD % 16 != 0)
#error "gpuparticle.h: GP_BUFFER_GUARD must be a multiple of 16 from 0 to 65536"
#endif

#if !defined(GP_NO_PROC_FALLBACK) && defined(_WIN32)
#define GP_NO_PROC_FALLBACK   /* no dlsym on Windows: pass get_proc_address (e.g. wglGetProcAddress) */
#endif
#if !defined(GP_NO_PROC_FALLBACK)
#include <dlfcn.h>
#endif

#if defined(_WIN32) && !defined(_WIN64)
#define GP__APIENTRY __stdcall
#else
#define GP__APIENTRY
#endif

#define GP__STATIC_ASSERT(name, cond) typedef char gp__static_assert_##name[(cond) ? 1 : -1]
#define GP__PI 3.14159265358979323846
GP__STATIC_ASSERT(position_is_vec4, sizeof(gp_particle_position) == 16);
GP__STATIC_ASSERT(velocity_is_vec4, sizeof(gp_particle_velocity) == 16);
GP__STATIC_ASSERT(info_is_uvec4, sizeof(gp_particle_info) == 16);
GP__STATIC_ASSERT(life_is_vec2, sizeof(gp_particle_life) == 8);

/* >>loader =================================================================================
   Exactly the GL 4.3 entry points the library calls, one X-macro row each, expanded into a
   private table per world (pointers may differ between contexts on some platforms). Members are
   named fn + the GL name without "gl", which no loader's macros touch. Private constants are
   GP__GL_*; no gl* or GL_* name is declared or defined here. */
typedef unsigned int gp__GLenum;
typedef unsigned int gp__GLuint;
typedef unsigned int gp__GLbitfield;
typedef int gp__GLint;
typedef int gp__GLsizei;
typedef ptrdiff_t gp__GLsizeiptr;
typedef ptrdiff_t gp__GLintptr;
typedef int64_t gp__GLint64;
typedef uint64_t gp__GLuint64;
typedef struct gp__GLsync_object* gp__GLsync;
typedef char gp__GLchar;
typedef unsigned char gp__GLboolean;
typedef unsigned char gp__GLubyte;

#define GP__GL_NO_ERROR 0
#define GP__GL_VERSION 0x1F02
#define GP__GL_RENDERER 0x1F01
#define GP__GL_MAJOR_VERSION 0x821B
#define GP__GL_MINOR_VERSION 0x821C
#define GP__GL_SHADER_STORAGE_BUFFER 0x90D2
#define GP__GL_DISPATCH_INDIRECT_BUFFER 0x90EE
#define GP__GL_DRAW_INDIRECT_BUFFER 0x8F3F
#define GP__GL_DRAW_INDIRECT_BUFFER_BINDING 0x8F43
#define GP__GL_BLEND 0x0BE2
#define GP__GL_ONE 1
#define GP__GL_SRC_ALPHA 0x0302
#define GP__GL_ONE_MINUS_SRC_ALPHA 0x0303
#define GP__GL_BLEND_DST_RGB 0x80C8
#define GP__GL_BLEND_SRC_RGB 0x80C9
#define GP__GL_BLEND_DST_ALPHA 0x80CA
#define GP__GL_BLEND_SRC_ALPHA 0x80CB
#define GP__GL_DEPTH_WRITEMASK 0x0B72
#define GP__GL_TRIANGLE_STRIP 0x0005
#define GP__GL_UNIFORM_BUFFER 0x8A11
#define GP__GL_COPY_READ_BUFFER 0x8F36
#define GP__GL_COPY_WRITE_BUFFER 0x8F37
#define GP__GL_SYNC_GPU_COMMANDS_COMPLETE 0x9117
#define GP__GL_SYNC_FLUSH_COMMANDS_BIT 0x00000001u
#define GP__GL_WAIT_FAILED 0x911D
#define GP__GL_BUFFER_SIZE 0x8764
#define GP__GL_DYNAMIC_COPY 0x88EA
#define GP__GL_STREAM_DRAW 0x88E0
#define GP__GL_COMPUTE_SHADER 0x91B9
#define GP__GL_COMPILE_STATUS 0x8B81
#define GP__GL_LINK_STATUS 0x8B82
#define GP__GL_CURRENT_PROGRAM 0x8B8D
#define GP__GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS 0x90EB
#define GP__GL_MAX_COMPUTE_WORK_GROUP_SIZE 0x91BF
#define GP__GL_MAX_COMPUTE_UNIFORM_BLOCKS 0x91BB
#define GP__GL_MAX_UNIFORM_BLOCK_SIZE 0x8A30
#define GP__GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS 0x90DB
#define GP__GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS 0x90DD
#define GP__GL_MAX_SHADER_STORAGE_BLOCK_SIZE 0x90DE
#define GP__GL_TIMESTAMP 0x8E28
#define GP__GL_QUERY_RESULT 0x8866
#define GP__GL_R32UI 0x8236
#define GP__GL_RED_INTEGER 0x8D94
#define GP__GL_UNSIGNED_INT 0x1405
#define GP__GL_SHADER_STORAGE_BARRIER_BIT 0x00002000u
#define GP__GL_COMMAND_BARRIER_BIT 0x00000040u
#define GP__GL_BUFFER_UPDATE_BARRIER_BIT 0x00000200u
#define GP__GL_UNIFORM_BARRIER_BIT 0x00000004u
#define GP__GL_ALL_BARRIER_BITS 0xFFFFFFFFu
#define GP__GL_VERTEX_SHADER 0x8B31
#define GP__GL_FRAGMENT_SHADER 0x8B30
#define GP__GL_ARRAY_BUFFER 0x8892
#define GP__GL_ARRAY_BUFFER_BINDING 0x8894
#define GP__GL_VERTEX_ARRAY_BINDING 0x85B5
#define GP__GL_VIEWPORT 0x0BA2
#define GP__GL_FLOAT 0x1406
#define GP__GL_POINTS 0x0000
#define GP__GL_TRIANGLES 0x0004
#define GP__GL_ELEMENT_ARRAY_BUFFER 0x8893
#define GP__GL_PROGRAM_POINT_SIZE 0x8642
#define GP__GL_CULL_FACE 0x0B44
#define GP__GL_BLEND_EQUATION_RGB 0x8009
#define GP__GL_BLEND_EQUATION_ALPHA 0x883D
#define GP__GL_FUNC_ADD 0x8006
#define GP__GL_POLYGON_MODE 0x0B40
#define GP__GL_FILL 0x1B02
#define GP__GL_FRONT_AND_BACK 0x0408

#define GP__GL_FUNCTIONS(X) \
    X(const gp__GLubyte*, GetString, (gp__GLenum name)) \
    X(void, GetIntegerv, (gp__GLenum pname, gp__GLint* data)) \
    X(void, GetIntegeri_v, (gp__GLenum target, gp__GLuint index, gp__GLint* data)) \
    X(void, GetInteger64v, (gp__GLenum pname, gp__GLint64* data)) \
    X(gp__GLenum, GetError, (void)) \
    X(void, GenBuffers, (gp__GLsizei n, gp__GLuint* buffers)) \
    X(void, DeleteBuffers, (gp__GLsizei n, const gp__GLuint* buffers)) \
    X(gp__GLboolean, IsBuffer, (gp__GLuint buffer)) \
    X(void, BindBuffer, (gp__GLenum target, gp__GLuint buffer)) \
    X(void, BindBufferBase, (gp__GLenum target, gp__GLuint index, gp__GLuint buffer)) \
    X(void, BufferData, (gp__GLenum target, gp__GLsizeiptr size, const void* data, gp__GLenum usage)) \
    X(void, GetBufferSubData, (gp__GLenum target, gp__GLintptr offset, gp__GLsizeiptr size, void* data)) \
    X(void, CopyBufferSubData, (gp__GLenum readTarget, gp__GLenum writeTarget, gp__GLintptr readOffset, gp__GLintptr writeOffset, gp__GLsizeiptr size)) \
    X(void, GetBufferParameteri64v, (gp__GLenum target, gp__GLenum pname, gp__GLint64* params)) \
    X(void, ClearBufferSubData, (gp__GLenum target, gp__GLenum internalformat, gp__GLintptr offset, gp__GLsizeiptr size, gp__GLenum format, gp__GLenum type, const void* data)) \
    X(gp__GLuint, CreateShader, (gp__GLenum type)) \
    X(void, ShaderSource, (gp__GLuint shader, gp__GLsizei count, const gp__GLchar* const* string, const gp__GLint* length)) \
    X(void, CompileShader, (gp__GLuint shader)) \
    X(void, GetShaderiv, (gp__GLuint shader, gp__GLenum pname, gp__GLint* params)) \
    X(void, GetShaderInfoLog, (gp__GLuint shader, gp__GLsizei size, gp__GLsizei* length, gp__GLchar* log)) \
    X(void, DeleteShader, (gp__GLuint shader)) \
    X(gp__GLuint, CreateProgram, (void)) \
    X(void, AttachShader, (gp__GLuint program, gp__GLuint shader)) \
    X(void, LinkProgram, (gp__GLuint program)) \
    X(void, GetProgramiv, (gp__GLuint program, gp__GLenum pname, gp__GLint* params)) \
    X(void, GetProgramInfoLog, (gp__GLuint program, gp__GLsizei size, gp__GLsizei* length, gp__GLchar* log)) \
    X(void, DeleteProgram, (gp__GLuint program)) \
    X(void, UseProgram, (gp__GLuint program)) \
    X(void, Uniform1ui, (gp__GLint location, gp__GLuint v0)) \
    X(void, Uniform1f, (gp__GLint location, float v0)) \
    X(void, Uniform4f, (gp__GLint location, float v0, float v1, float v2, float v3)) \
    X(void, Uniform4ui, (gp__GLint location, gp__GLuint v0, gp__GLuint v1, gp__GLuint v2, gp__GLuint v3)) \
    X(void, DispatchCompute, (gp__GLuint x, gp__GLuint y, gp__GLuint z)) \
    X(void, DispatchComputeIndirect, (gp__GLintptr indirect)) \
    X(void, MemoryBarrier, (gp__GLbitfield barriers)) \
    X(void, GenQueries, (gp__GLsizei n, gp__GLuint* ids)) \
    X(void, DeleteQueries, (gp__GLsizei n, const gp__GLuint* ids)) \
    X(void, QueryCounter, (gp__GLuint id, gp__GLenum target)) \
    X(void, GetQueryObjectui64v, (gp__GLuint id, gp__GLenum pname, gp__GLuint64* params)) \
    X(gp__GLsync, FenceSync, (gp__GLenum condition, gp__GLbitfield flags)) \
    X(gp__GLenum, ClientWaitSync, (gp__GLsync sync, gp__GLbitfield flags, gp__GLuint64 timeout)) \
    X(void, DeleteSync, (gp__GLsync sync))
/* The draw helper's, loaded unless GP_NO_DRAW. */
#define GP__GL_DRAW_FUNCTIONS(X) \
    X(void, GenVertexArrays, (gp__GLsizei n, gp__GLuint* arrays)) \
    X(void, DeleteVertexArrays, (gp__GLsizei n, const gp__GLuint* arrays)) \
    X(void, BindVertexArray, (gp__GLuint array)) \
    X(void, VertexAttribPointer, (gp__GLuint index, gp__GLint size, gp__GLenum type, gp__GLboolean normalized, gp__GLsizei stride, const void* pointer)) \
    X(void, VertexAttribIPointer, (gp__GLuint index, gp__GLint size, gp__GLenum type, gp__GLsizei stride, const void* pointer)) \
    X(void, EnableVertexAttribArray, (gp__GLuint index)) \
    X(void, Enable, (gp__GLenum cap)) \
    X(void, DrawArraysIndirect, (gp__GLenum mode, const void* indirect)) \
    X(void, DrawArraysInstanced, (gp__GLenum mode, gp__GLint first, gp__GLsizei count, gp__GLsizei instancecount)) \
    X(void, Disable, (gp__GLenum cap)) \
    X(gp__GLboolean, IsEnabled, (gp__GLenum cap)) \
    X(void, BlendFuncSeparate, (gp__GLenum src_rgb, gp__GLenum dst_rgb, gp__GLenum src_alpha, gp__GLenum dst_alpha)) \
    X(void, BlendEquationSeparate, (gp__GLenum mode_rgb, gp__GLenum mode_alpha)) \
    X(void, PolygonMode, (gp__GLenum face, gp__GLenum mode)) \
    X(void, DepthMask, (gp__GLboolean flag)) \
    X(void, GetBooleanv, (gp__GLenum pname, gp__GLboolean* data)) \
    X(void, VertexAttribDivisor, (gp__GLuint index, gp__GLuint divisor)) \
    X(void, DrawElementsInstancedBaseInstance, (gp__GLenum mode, gp__GLsizei count, gp__GLenum type, const void* indices, gp__GLsizei instancecount, gp__GLuint baseinstance)) \
    X(void, UniformMatrix4fv, (gp__GLint location, gp__GLsizei count, gp__GLboolean transpose, const float* value))

#define GP__GL_MEMBER(ret, name, args) ret (GP__APIENTRY *fn##name) args;
typedef struct gp__gl {
    GP__GL_FUNCTIONS(GP__GL_MEMBER)
#if !defined(GP_NO_DRAW)
    GP__GL_DRAW_FUNCTIONS(GP__GL_MEMBER)
#endif
} gp__gl;
#undef GP__GL_MEMBER

#if !defined(GP_NO_PROC_FALLBACK)
/* A function of this process by name, through dlsym; memcpy because ISO C has no cast from an
   object pointer to a function pointer. */
static gp_proc gp__process_symbol(void* self, const char* name) {
    void* symbol = dlsym(self, name);
    gp_proc proc = NULL;
    memcpy(&proc, &symbol, sizeof proc);
    return proc;
}

/* The fallback when desc.get_proc_address is NULL: the getProcAddress of whichever of EGL and
   GLX has a current context in this process, else whichever is loaded at all. */
static gp_get_proc_address_fn gp__fallback_get_proc_address(void) {
    typedef void* (*current_context_fn)(void);
    const char* pairs[2][2] = {{"eglGetCurrentContext", "eglGetProcAddress"},
                               {"glXGetCurrentContext", "glXGetProcAddressARB"}};
    gp_get_proc_address_fn found = NULL;
    void* self = dlopen(NULL, RTLD_LAZY);
    int i;
    if (!self) return NULL;
    for (i = 0; i < 2; ++i) {
        gp_proc current = gp__process_symbol(self, pairs[i][0]);
        gp_proc get = gp__process_symbol(self, pairs[i][1]);
        if (!get) continue;
        if (current && ((current_context_fn)current)() != NULL) { found = (gp_get_proc_address_fn)get; break; }
        if (!found) found = (gp_get_proc_address_fn)get;
    }
    dlclose(self);
    return found;
}
#endif

/* >>logging ================================================================================ */
static void gp__default_log(gp_log_level level, gp_log_item item, const char* message, void* user_data) {
    (void)user_data;
    (void)item;
    if (level <= GP_LOG_WARNING) fprintf(stderr, "%s\n", message);
}

/* Formats "gpuparticle: <fmt>" and hands it to the logger. Long messages (a shader's compile log)
   are cut at 8 KiB; the logger sees the start, which has the first errors. */
static void gp__log(const gp_logger* logger, gp_log_level level, gp_log_item item, const char* fmt, ...) {
    char message[8192];
    va_list args;
    int used = snprintf(message, sizeof message, "gpuparticle: ");
    va_start(args, fmt);
    vsnprintf(message + used, sizeof message - (size_t)used, fmt, args);
    va_end(args);
    if (logger && logger->func) logger->func(level, item, message, logger->user_data);
    else gp__default_log(level, item, message, NULL);
}

const char* gp_result_string(gp_result result) {
    switch (result) {
    case GP_OK: return "GP_OK";
    case GP_ERROR_INVALID_ARGUMENT: return "GP_ERROR_INVALID_ARGUMENT";
    case GP_ERROR_INVALID_STATE: return "GP_ERROR_INVALID_STATE";
    case GP_ERROR_OUT_OF_MEMORY: return "GP_ERROR_OUT_OF_MEMORY";
    case GP_ERROR_GPU_OUT_OF_MEMORY: return "GP_ERROR_GPU_OUT_OF_MEMORY";
    case GP_ERROR_CAPACITY: return "GP_ERROR_CAPACITY";
    case GP_ERROR_NO_CONTEXT: return "GP_ERROR_NO_CONTEXT";
    case GP_ERROR_GL_VERSION: return "GP_ERROR_GL_VERSION";
    case GP_ERROR_GL_MISSING_FUNCTION: return "GP_ERROR_GL_MISSING_FUNCTION";
    case GP_ERROR_GL_LIMITS: return "GP_ERROR_GL_LIMITS";
    case GP_ERROR_SHADER_COMPILE: return "GP_ERROR_SHADER_COMPILE";
    case GP_ERROR_GL: return "GP_ERROR_GL";
    case GP_RESULT_COUNT: break;
    }
    return "GP_RESULT_UNKNOWN";
}

const char* gp_log_item_string(gp_log_item item) {
    static const char* const names[GP_LOG_ITEM_COUNT] = {
#define GP__LOG_ITEM_NAME(name, text) "GP_LOG_ITEM_" #name,
        GP_LOG_ITEMS(GP__LOG_ITEM_NAME)
#undef GP__LOG_ITEM_NAME
    };
    return (int)item >= 0 && item < GP_LOG_ITEM_COUNT ? names[item] : "GP_LOG_ITEM_UNKNOWN";
}

/* >>memory ================================================================================= */
static void* gp__default_alloc(size_t size, void* user_data) { (void)user_data; return malloc(size); }
static void gp__default_free(void* ptr, void* user_data) { (void)user_data; free(ptr); }

static void* gp__alloc(const gp_allocator* allocator, size_t size) {
    return allocator->alloc(size ? size : 1, allocator->user_data);
}
static void gp__free(const gp_allocator* allocator, void* ptr) {
    if (ptr) allocator->free(ptr, allocator->user_data);
}

/* Grows a host array to hold at least needed elements of element bytes, doubling (16 at first);
   its contents are kept. Fails with GP_ERROR_OUT_OF_MEMORY, the array unchanged. */
static gp_result gp__grow(const gp_allocator* allocator, void** array, uint32_t* capacity, uint32_t count, uint32_t needed,
                          size_t element) {
    uint32_t grown = *capacity ? *capacity : 16;
    void* more;
    if (needed <= *capacity) return GP_OK;
    while (grown < needed) grown = grown > 0x7fffffffu ? needed : 2 * grown;
    if (!(more = gp__alloc(allocator, (size_t)grown * element))) return GP_ERROR_OUT_OF_MEMORY;
    if (count) memcpy(more, *array, (size_t)count * element);
    gp__free(allocator, *array);
    *array = more;
    *capacity = grown;
    return GP_OK;
}

/* >>shaders ================================================================================
   The shaders live in shaders_embedded/, each line written once: snippets (*.glsl) and one file
   per program stage (*.comp, and the draw helpers' *.vert and *.frag), which holds its #version
   line, a comment saying what it does, an `#include "x.glsl"` line per snippet it needs and its
   own code. `make shaders` (tools/embed_shaders.sh) embeds each file once below, a stage file
   without its include lines, and resolves each program into ranges of lines (the generated
   region). A program reaches GL as its stage file's #version line, the header's defines (the
   constants C and GLSL share, then the program's row of the binding plan, then the user's
   prelude), and each range after a `#line LINE FILE`, so that a driver's log names the file and
   its line in shaders_embedded/. `make shaders` also writes each program so assembled to
   build/shaders/, which `make check` puts through glslangValidator. */
/* Constants C and GLSL share (injected into every shader by gp__shader_constants). */
#define GP__SCAN_CHUNK 32u      /* elements a scan invocation owns (GLSL: GP_SCAN_CHUNK) */
#define GP__SCAN_MAX_LEVELS 8   /* 2^32 elements, chunks of 32 */
#define GP__SORT_RUN 16u        /* a sort step this short runs in registers (GLSL: GP_SORT_RUN) */
/* The deterministic build's dispatches in gp_world.grid_args, three words each, which
   grid_rank.comp's plan writes (GLSL: GP_ARGS_RANK ...): its filing and ranking, grid_ids, and
   the sort's local, half and quarter passes (>>grid, >>sort). */
enum { GP__ARGS_RANK, GP__ARGS_IDS, GP__ARGS_SORT_LOCAL, GP__ARGS_SORT_HALF, GP__ARGS_SORT_QUARTER, GP__GRID_ARGS };
#define GP__WALL_SAMPLES 32
#define GP__FLAG_DETERMINISTIC 1u
#define GP__INTEGRATOR_MASK 3u                 /* gp__solver_params.counts[2]: 1 symplectic, 2 explicit Euler, */
#define GP__FLAG_ARTIFICIAL_VISCOSITY 256u     /* and this bit when a material has artificial viscosity */   /* a bit of the world's flags, gp__world_params.counts[3] (GLSL: GP_FLAG_DETERMINISTIC) */

typedef struct gp__shader_file {
    const char* name;                /* shaders_embedded/<name> */
    const char* const* lines;        /* NULL-terminated, one string a line */
} gp__shader_file;
/* Lines [first, first + count) of a file as embedded (0-based; a stage file without its include
   lines), the first of them line `line` of the file in shaders_embedded/ (1-based). */
typedef struct gp__shader_range { uint16_t file, first, count, line; } gp__shader_range;
typedef struct gp__shader_source {
    const char* name;                /* the stage file */
    gp__GLenum stage;                /* GP__GL_COMPUTE_SHADER, _VERTEX_ or _FRAGMENT_ */
    const gp__shader_range* ranges;  /* ended by one whose file is GP__FILE_COUNT */
} gp__shader_source;

/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/.
   Do not edit: change the files there and run `make shaders`. Each file once, a string a line. */
static const char* const gp__file_body_particles_comp[] = {
    "#version 430 core\n",
    "// body_particles: stage 1 of Harada 2007's section 29.2, the particle values from the bodies\n",
    "// (eqs. 18-20):\n",
    "//   r_k = q r0_k q*, x_k = X + r_k, v_k = V + W x r_k\n",
    "// for every rigid particle in the store, whose owner is its body and whose id is the body's first\n",
    "// id plus k.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    if (gp_kind_of(info) != GP_KIND_RIGID || info.z >= gp_solver_counts.w) return;\n",
    "    gp_body body = gp_body_load(info.z);\n",
    "    vec3 r = gp_rotate(body.q, gp_offsets[body.particles.z + (info.x - body.particles.x)].xyz);\n",
    "    gp_position[i].xyz = body.x.xyz + r;\n",
    "    vec3 v = body.p.xyz * body.x.w + cross(gp_body_omega(body), r);\n",
    "    gp_velocity[i].xyz = v;\n",
    "    if (gp_finite3(v)) atomicMax(stat_max_speed, floatBitsToUint(length(v)));   // a spinning body's rim too (the clock's speeds)\n",
    "}\n",
    0
};
static const char* const gp__file_body_update_comp[] = {
    "#version 430 core\n",
    "// body_update: stages 4 and 5 of Harada 2007's section 29.2, one invocation per rigid body:\n",
    "//   F = sum_k f_k + M g (+ your forces at the centre of mass), tau = sum_k r_k x f_k  (eqs. 14-15)\n",
    "//   P += F dt, L += tau dt, X += P / M dt                                            (eqs. 1-3, 4)\n",
    "//   W = R diag(1 / lambda) R^T L, q = dq(W dt) * q, normalised                       (eqs. 5-8)\n",
    "// f_k is particle k's contact force (dem_contact's force / mass, times the particle mass), found\n",
    "// through slot_of_id; r_k = R(q) r0_k as body_particles placed it; tau also takes each particle's\n",
    "// contact torque about its own centre (its forces act at contact points, not at its centre). The sums run in k order, so a\n",
    "// run repeats bit for bit. An update that is not finite is not applied: the body keeps its place,\n",
    "// stops, and is counted.\n",
    "// The body's turn over dt under no torque, its angular momentum l (world) fixed: the free rigid\n",
    "// body's Hamiltonian H = sum_i L_i^2 / (2 I_i) (body frame) split into its three terms, each an\n",
    "// exact rotation about principal axis i at L_i / I_i (the body turns by that angle, its L in the\n",
    "// body frame by the opposite), composed symmetrically (1/2, 2/2, 3, 2/2, 1/2: second order), and\n",
    "// that composed at Yoshida's weights (1.35..., -1.70..., 1.35...: fourth order). Every sub-step is\n",
    "// a rotation, so |L| and the orientation's norm stay exact, and the energy has no drift, only an\n",
    "// error of order (|w| dt)^4 that does not grow (McLachlan 1993, \"Explicit Lie-Poisson integration\n",
    "// and the Euler equations\"; Dullweber, Leimkuhler, McLachlan 1997; Yoshida 1990). The explicit\n",
    "// update (Harada 2007, eqs. 6-8) gains energy: 17% in a spin of 8 s at 600 substeps a second.\n",
    "// inverse_inertia: 1 / the principal moments.\n",
    "// (sin x, cos x) to float rounding on every device: small angles (every sub-step's, in practice) by\n",
    "// their series, so that sin^2 + cos^2 = 1 to an ulp. A GPU's sin and cos are approximations\n",
    "// (NVIDIA's cos is good to about 5e-7 absolute): the rotation by an r that is not unit scaled L\n",
    "// with each of the 30,000 sub-steps of 2 s, and a free spin's energy moved 1.3e-5 on an H100.\n",
    "vec2 gp_sin_cos(float x) {\n",
    "    float x2 = x * x;\n",
    "    if (x2 >= 0.01) return vec2(sin(x), cos(x));\n",
    "    return vec2(x * (1.0 - x2 * (1.0 / 6.0) * (1.0 - x2 * (1.0 / 20.0) * (1.0 - x2 * (1.0 / 42.0)))),\n",
    "                1.0 - x2 * 0.5 * (1.0 - x2 * (1.0 / 12.0) * (1.0 - x2 * (1.0 / 30.0) * (1.0 - x2 * (1.0 / 56.0)))));\n",
    "}\n",
    "vec4 gp_body_free_rotation(vec4 q, vec3 l, vec3 inverse_inertia, float dt) {\n",
    "    const float y1 = 1.3512071919596578, y0 = -1.7024143839193155;   // 1 / (2 - 2^(1/3)), -2^(1/3) y1\n",
    "    vec3 lb = gp_rotate(vec4(-q.xyz, q.w), l);\n",
    "    for (int stage = 0; stage < 3; ++stage) {\n",
    "        float tau = (stage == 1 ? y0 : y1) * dt;\n",
    "        for (int s = 0; s < 5; ++s) {\n",
    "            int axis = s < 3 ? s : 4 - s;\n",
    "            float angle = lb[axis] * inverse_inertia[axis] * tau * (s == 2 ? 1.0 : 0.5);\n",
    "            vec2 half_turn = gp_sin_cos(0.5 * angle);\n",
    "            vec4 r = vec4(0.0, 0.0, 0.0, half_turn.y);\n",
    "            r[axis] = half_turn.x;\n",
    "            q = gp_quat_mul(q, r);                      // the body turns about its own axis\n",
    "            lb = gp_rotate(vec4(-r.xyz, r.w), lb);      // its L, seen from it, the other way\n",
    "        }\n",
    "    }\n",
    "    return normalize(q);\n",
    "}\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "void main() {\n",
    "    uint b = gp_global_index();\n",
    "    if (b >= gp_solver_counts.w) return;\n",
    "    gp_body body = gp_body_load(b);\n",
    "    float dt = gp_gravity.w, mass = 1.0 / body.x.w;\n",
    "    vec3 force = vec3(0.0), torque = vec3(0.0);\n",
    "    for (uint k = 0u; k < body.particles.y; ++k) {\n",
    "        uint slot = slot_of_id[body.particles.x + k];\n",
    "        vec3 f = gp_acceleration[slot].xyz * body.p.w;\n",
    "        vec3 r = gp_rotate(body.q, gp_offsets[body.particles.z + k].xyz);\n",
    "        force += f;\n",
    "        torque += cross(r, f) + gp_rigid[slot].xyz;\n",
    "    }\n",
    "    force += mass * (gp_gravity.xyz + gp_user_forces(body.x.xyz));\n",
    "    gp_body next = body;\n",
    "    next.p.xyz = body.p.xyz + force * dt;\n",
    "    next.l.xyz = body.l.xyz + torque * dt;\n",
    "    next.x.xyz = body.x.xyz + next.p.xyz * (body.x.w * dt);\n",
    "    next.q = gp_body_free_rotation(body.q, next.l.xyz, body.inertia.xyz, dt);   // the new angular momentum\n",
    "    if (!gp_finite3(next.x.xyz) || !gp_finite3(next.p.xyz) || !gp_finite3(next.l.xyz) || !gp_finite(next.q.x)\n",
    "        || !gp_finite(next.q.y) || !gp_finite(next.q.z) || !gp_finite(next.q.w)) {\n",
    "        next = body;\n",
    "        next.p.xyz = vec3(0.0);\n",
    "        next.l.xyz = vec3(0.0);\n",
    "        atomicAdd(stat_bad_updates, 1u);\n",
    "    }\n",
    "    gp_body_store(b, next);   // its particles' speeds, its centre's among them, size the substeps (body_particles)\n",
    "}\n",
    0
};
static const char* const gp__file_boundary_distance_comp[] = {
    "#version 430 core\n",
    "// boundary_distance: the boundary's signed distance at u_count points (gp_boundary_distance_read),\n",
    "// exactly as the SPH passes see it.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_POINTS) readonly buffer point_block { vec4 points[]; };\n",
    "layout(std430, binding = GP_BINDING_DISTANCES) writeonly buffer distance_block { float distances[]; };\n",
    "layout(location = 0) uniform uint u_count;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i < u_count) distances[i] = gp_boundary(points[i].xyz).w;\n",
    "}\n",
    0
};
static const char* const gp__file_copy_comp[] = {
    "#version 430 core\n",
    "// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds\n",
    "// every primitive against: the same bytes moved as fast as this library knows how, with no work in\n",
    "// between: 16 elements per invocation, 16 bytes per access, single words only in a ragged tail.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source_block { uint source[]; };\n",
    "layout(std430, binding = GP_BINDING_COPY_SOURCE) readonly buffer source4_block { uvec4 source4[]; };\n",
    "layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination_block { uint destination[]; };\n",
    "layout(std430, binding = GP_BINDING_COPY_DESTINATION) writeonly buffer destination4_block { uvec4 destination4[]; };\n",
    "layout(location = 0) uniform uint u_count;\n",
    "\n",
    "void main() {\n",
    "    uint first = gp_group_index() * 16u * uint(GP_GROUP_SIZE);\n",
    "    for (uint r = 0u; r < 4u; ++r) {\n",
    "        uint e = first + 4u * (r * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x);\n",
    "        if (e + 3u < u_count) destination4[e >> 2u] = source4[e >> 2u];\n",
    "        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) destination[e + c] = source[e + c];\n",
    "    }\n",
    "}\n",
    0
};
static const char* const gp__file_coupling_drag_comp[] = {
    "#version 430 core\n",
    "// coupling_drag: the fluid's pull on every grain it cannot flow around (a grain narrower than the\n",
    "// fluid's smoothing radius, gp_coupling.glsl's gp_drag_grain, which is no boundary particle to\n",
    "// it). The fluid at the grain, gp_fluid_sample's Shepard interpolation of its\n",
    "// velocity u, rest density rho and viscosity nu, and how far the grain is in it,\n",
    "// phi = sum V_j W_j / max(1 - own, 1/2), at most 1 (own: the share one fluid particle at the grain\n",
    "// would add, so that a grain in the hole the fluid left for it, or between its particles, is\n",
    "// wholly in, and one at the free surface about half; the bound for kernels barely wider than the\n",
    "// spacing, where own nears 1), gives\n",
    "//   drag      F_d = beta (u - v), beta = 3 pi mu d (1 + 0.15 Re^0.687) below Re = 1,000 and\n",
    "//             0.44 pi d^2 rho |u - v| / 8 above (the standard drag curve of a sphere, Schiller and\n",
    "//             Naumann 1933, as Clift, Grace and Weber 1978 give it; mu = rho nu, Re = |u - v| d / nu;\n",
    "//             Stokes' 3 pi mu d as Re goes to 0), against the fluid's velocity undisturbed by the\n",
    "//             grain's own pull: the fluid sampled around the grain moves with the opposite of\n",
    "//             the force F, by u_self = c F, c = 1 / (M |u - v| / re + 6 pi mu re / 1.814) (M the\n",
    "//             fluid mass that shares the pull, phi^2 / sum (V_j W_j)^2 / m_j): the steady\n",
    "//             Stokes flow of F spread and sampled by the kernel (1.814 / re the mean inverse\n",
    "//             distance of two points drawn from poly6 within re, a regularized Stokeslet's\n",
    "//             u = F <1/r> / (6 pi mu)), or, when the grain passes the kernel's fluid faster than\n",
    "//             viscosity spreads its pull (M |u - v| / re the larger), the momentum F re / |u - v|\n",
    "//             left in M as it goes by. F = beta (u - v + c F) gives beta / (1 - beta c) for beta\n",
    "//             (beta c at most 0.5; without it a grain in honey sank 30-50% too fast, in water 3%,\n",
    "//             the point-particle coupling's self-induced velocity, Balachandar, Liu and Lakhote\n",
    "//             2019, J. Comput. Phys. 376, 160-185); taken implicitly over the substep h: the impulse\n",
    "//             M (u - v) (1 - exp(-beta h / M)), M the reduced mass of the grain m and its part of\n",
    "//             the fluid that shares the opposite pull (phi^2 / sum (V_j W_j)^2 / m_j over the\n",
    "//             crowd 1 + sum_k (1 - r_k^2 / R^2)^3 of the other grains the fluid drags within R,\n",
    "//             the fluid's largest smoothing radius, u_reach), so that no substep drives v past u,\n",
    "//             nor the crowd's pulls u past v (a fine grain in honey relaxes in microseconds; in a\n",
    "//             bed of grains at rest the fluid in the pores jittered at 0.1-0.3 m/s, each grain's\n",
    "//             impulse bounded as if it alone moved that fluid);\n",
    "//   buoyancy  F_b = -rho V g, V = pi d^3 / 6 (Archimedes, the fluid's hydrostatic pressure on the\n",
    "//             grain's volume);\n",
    "// both times phi. The grain's acceleration gains (F_d + F_b) / m, and gp_drag holds (F_d,\n",
    "// sum V_j W_j) for coupling_drag_fluid, which gives every fluid neighbour its share of -F_d, so\n",
    "// that fluid and grain exchange the drag's momentum exactly (to the float rounding). The buoyancy\n",
    "// stays a field on the grain: the fluid does not take it back, because in it the grain takes no\n",
    "// room (the water does not rise for the sand in it), and the weight of the water a grain would\n",
    "// displace, pressed on the fluid where the grain is, is a body force that no pressure balances\n",
    "// (its curl is not zero at a bed's sides): a bed of sand at rest kept its pore water circling at\n",
    "// 0.1-0.3 m/s. So the floor under a bed carries the water and the grains' weight less their\n",
    "// buoyancy, not the grains' whole weight;\n",
    "// and it stamps the buckets of the grain's 27 cells with this substep's u_stamp, so that\n",
    "// coupling_drag_fluid searches only around fluid whose own bucket a grain stamped.\n",
    "// Left out: the pressure gradient of an accelerating flow beyond the hydrostatic and the added\n",
    "// mass (sampled from the fluid's accelerations, the grain's own reaction, which the fluid's\n",
    "// pressure answers around it, came back as 3% more buoyancy: a grain of the water's density rose),\n",
    "// and the crowding of many grains (Di Felice 1994's voidage factor: a dense bed drags as loose\n",
    "// grains would). Reads the fluid's positions, velocities and materials; runs after coupling_solid\n",
    "// and before every integration (gp__world_substep).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 8) uniform uint u_stamp;   // this substep's number among those with a drag (from 1)\n",
    "layout(location = 9) uniform uint u_reach;   // float bits: the fluid materials' largest smoothing radius R (m)\n",
    "\n",
    "// Candidate slot k: its share of the fluid sample, or, when it is another grain the fluid drags\n",
    "// within R, its part in the crowd that shares that fluid ((1 - r^2 / R^2)^3).\n",
    "void gp_drag_term(uint k, uint end, ivec3 cell, uint self, float reach2, inout gp_fluid_sample s, inout float crowd) {\n",
    "    gp_fluid_sample_term(k, end, cell, s);\n",
    "    if (k >= end || k == self) return;\n",
    "    vec4 q = gp_position[k];\n",
    "    if (gp_kind_of(gp_info[k]) != GP_KIND_GRANULAR || !gp_grid_same_cell(q.xyz, cell) || !(4.0 * q.w * q.w < reach2)) return;\n",
    "    vec3 d = q.xyz - s.p;\n",
    "    float x = 1.0 - dot(d, d) / reach2;\n",
    "    if (x > 0.0) crowd += x * x * x;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    if (gp_kind_of(gp_info[i]) != GP_KIND_GRANULAR || !gp_finite3(p.xyz)) return;\n",
    "    float d = 2.0 * p.w, h = gp_gravity.w;\n",
    "    gp_fluid_sample s = gp_fluid_sample_at(p.xyz, d);\n",
    "    float far = uintBitsToFloat(u_reach), crowd = 1.0;\n",
    "    vec3 gp_center = p.xyz;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_drag_term(k, end, cell, i, far * far, s, crowd)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    if (!(s.filled > 0.0)) { gp_drag[i] = vec4(0.0); return; }\n",
    "    vec3 u = s.velocity / s.filled, w = u - v.xyz;\n",
    "    float rho = s.rho / s.filled, nu = s.nu / s.filled, in_fluid = min(s.filled / max(1.0 - s.own / s.filled, 0.5), 1.0);\n",
    "    float speed = length(w), re = speed * d / nu;\n",
    "    float beta = re < 1000.0 ? 9.42477796 * rho * nu * d * (1.0 + 0.15 * pow(re, 0.687))\n",
    "                             : 0.17278760 * rho * d * d * speed;   // 0.44 pi / 8\n",
    "    float m = v.w, fluid = s.filled * s.filled / s.inertia, reach = s.reach / s.filled;\n",
    "    if (!(m > 0.0)) { gp_drag[i] = vec4(0.0); return; }\n",
    "    float apart = fluid * speed / reach + 10.3888 * rho * nu * reach;   // 1 / c; 6 pi / 1.814\n",
    "    beta /= 1.0 - (apart > 0.0 ? min(beta / apart, 0.5) : 0.0);         // the self-induced velocity\n",
    "    float reduced = 1.0 / (1.0 / m + crowd / fluid), relax = beta * h / reduced;\n",
    "    vec3 drag = relax > 1e-4 ? (reduced / h) * (1.0 - exp(-relax)) * w : beta * w;   // the implicit impulse over h\n",
    "    vec3 pull = in_fluid * drag, lift = -(in_fluid * 0.52359878 * d * d * d * rho) * gp_gravity.xyz;\n",
    "    if (!gp_finite3(pull) || !gp_finite3(lift)) pull = lift = vec3(0.0);\n",
    "    gp_acceleration[i].xyz += (pull + lift) / m;\n",
    "    gp_drag[i] = vec4(pull, s.filled);   // the fluid takes the drag's reaction, not the lift's\n",
    "    ivec3 home = gp_grid_cell(p.xyz);\n",
    "    for (int c = 0; c < 27; ++c) {   // every fluid particle this grain pulls lies in one of these cells\n",
    "        ivec3 cell = gp_grid_around(home, c);\n",
    "        if (!gp_grid_cell_exists(cell)) continue;\n",
    "        gp_drag_bucket_stamp(gp_grid_bucket(cell), u_stamp);   // all writers write the same\n",
    "    }\n",
    "}\n",
    0
};
static const char* const gp__file_coupling_drag_fluid_comp[] = {
    "#version 430 core\n",
    "// coupling_drag_fluid: the grains' pull back on the fluid: every fluid particle j takes its share\n",
    "// of minus the force coupling_drag put on each grain g near it that it drags,\n",
    "// F_g V_j W_j / sum_k V_k W_k (the weights coupling_drag summed, gp_fluid_sample's), as an\n",
    "// acceleration -F_g W_j / (rho0_j sum_k V_k W_k), so that the shares add up to F_g (to the float\n",
    "// rounding) and fluid and grains keep their momentum. A fluid particle whose bucket no grain stamped\n",
    "// this substep (u_stamp) has no such grain within reach and returns at once. Reads gp_drag\n",
    "// (coupling_drag's, this substep); runs after it, before every integration (gp__world_substep).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 8) uniform uint u_stamp;   // coupling_drag's stamp of this substep\n",
    "\n",
    "// Fluid particle j's own: its position, material's poly6 coefficient, re^2 and rest density.\n",
    "struct gp_dragged { vec3 p; float poly6; float re2; float rho0; };\n",
    "\n",
    "// Candidate slot k's pull on j, when k is a grain that j drags.\n",
    "vec3 gp_drag_share(uint k, uint end, ivec3 cell, gp_dragged j) {\n",
    "    if (k >= end) return vec3(0.0);\n",
    "    vec4 q = gp_position[k];\n",
    "    if (!gp_drag_grain(q.w, j.re2, gp_kind_of(gp_info[k])) || !gp_grid_same_cell(q.xyz, cell)) return vec3(0.0);\n",
    "    vec3 d = q.xyz - j.p;\n",
    "    float r2 = dot(d, d);\n",
    "    vec4 f = gp_drag[k];\n",
    "    if (r2 >= j.re2 || !(f.w > 0.0)) return vec3(0.0);\n",
    "    return (gp_poly6_of(j.poly6, j.re2, r2) / (j.rho0 * f.w)) * f.xyz;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec4 p = gp_position[i];\n",
    "    uvec4 info = gp_info[i];\n",
    "    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p.xyz)) return;\n",
    "    if (gp_drag_bucket_word(gp_grid_bucket(gp_grid_cell(p.xyz))) != u_stamp) return;   // no dragged grain within reach\n",
    "    uint m = gp_material_of(info);\n",
    "    gp_dragged j;\n",
    "    j.p = p.xyz;\n",
    "    j.poly6 = gp_fluids[m].kernel.x;\n",
    "    j.re2 = gp_fluids[m].kernel.w;\n",
    "    j.rho0 = gp_fluids[m].shape.z;\n",
    "    vec3 pull = vec3(0.0);\n",
    "    vec3 gp_center = j.p;\n",
    "#define GP_NEIGHBOR_TERM(k, end, cell) gp_drag_share(k, end, cell, j)\n",
    "#define GP_NEIGHBOR_SUM pull\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    gp_acceleration[i].xyz -= pull;\n",
    "}\n",
    0
};
static const char* const gp__file_coupling_guard_comp[] = {
    "#version 430 core\n",
    "// coupling_guard: keeps the fluid out of the solids: after every move of the substep\n",
    "// (the fluid's, the grains', the bodies' particles'), a fluid particle whose centre lies inside a\n",
    "// solid particle's sphere (closer to its centre than its radius r: inside a grain, or inside one\n",
    "// of a body's particles) is put back on that sphere, along the line between the centres, one\n",
    "// sphere after another in the order the loop meets them; a sweep that pushed is followed by\n",
    "// another (3 at most), since a push may end inside a sphere met before it. (Summed in one sweep,\n",
    "// the pushes of overlapping spheres left fluid 0.35 mm inside a solid in\n",
    "// coupling_fluid_stays_out with softer solids.) The spheres do not fill a\n",
    "// body's voxels: a fluid particle at a hole of its lattice (sqrt(3) r from eight of its\n",
    "// particles) is outside every sphere, and is left there;\n",
    "// fluid put inside a body (a body added where the fluid is) stays in it and rides with it, its\n",
    "// weight on the body (coupling_floating_and_sinking: 16 particles, a quarter of a box's mass).\n",
    "// Its velocity is kept: the solid, whose own this pass cannot change, would not take the opposite\n",
    "// impulse, and the total momentum of fluid and solids would drift (the fluid's pressure turns the\n",
    "// particle within the next substeps). The fluid's pressure keeps it out in any flow the substeps\n",
    "// resolve (Akinci et al. 2012's boundary particles); the guard is for what they do not (a body\n",
    "// thrown into water faster than a substep's worth of its particles' spacing, one solid particle of\n",
    "// a thin wall, a sharp corner), as the walls' push is for the colliders (sph_integrate, Harada et\n",
    "// al. 2007, eq. 11). Each push is counted with the walls' (stat_wall_pushes). It reads the solids'\n",
    "// positions, which no invocation writes here, and writes its own fluid particle's only.\n",
    "// The grid is the substep's (its buckets filed before the moves): a substep moves nothing farther\n",
    "// than a cell, so the 27 cells around a fluid particle still hold every solid near it.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// What fluid particle i needs of itself in the loop, and what the solids push it by.\n",
    "struct gp_guard { vec3 p; uint slot; float solids; float re2; };\n",
    "\n",
    "// When candidate slot k is a solid whose sphere holds i's centre, and a boundary to i's material\n",
    "// (a grain narrower than its smoothing radius is not: gp_drag_grain): i put on its sphere.\n",
    "void gp_guard_term(uint k, uint end, ivec3 cell, inout gp_guard g) {\n",
    "    if (k >= end || k == g.slot) return;\n",
    "    uint kind = gp_kind_of(gp_info[k]);\n",
    "    vec4 q = gp_position[k];\n",
    "    if (!gp_is_solid(kind) || gp_drag_grain(q.w, g.re2, kind)) return;\n",
    "    vec3 d = g.p - q.xyz;\n",
    "    float r2 = dot(d, d);\n",
    "    if (!(r2 < q.w * q.w) || !gp_grid_same_cell(q.xyz, cell)) return;\n",
    "    float r = sqrt(r2);\n",
    "    vec3 n = r > 0.0 ? d / r : vec3(0.0, 1.0, 0.0);   // on the very centre: out upwards\n",
    "    g.p += (q.w - r) * n;\n",
    "    g.solids += 1.0;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec4 p = gp_position[i];\n",
    "    if (gp_kind_of(gp_info[i]) != GP_KIND_FLUID || !gp_finite3(p.xyz)) return;\n",
    "    gp_guard g;\n",
    "    g.p = p.xyz;\n",
    "    g.slot = i;\n",
    "    g.re2 = gp_fluids[gp_material_of(gp_info[i])].kernel.w;\n",
    "    if (cell_count[gp_grid_bucket(gp_grid_cell(g.p))] != GP_SOLID_BUCKET) return;   // no solid near (gp_coupling.glsl)\n",
    "    uint sweeps = 0u;\n",
    "    for (; sweeps < 3u; ++sweeps) {   // again while a sweep pushed: a push may end in a sphere met before it\n",
    "        g.solids = 0.0;\n",
    "        vec3 gp_center = g.p;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_guard_term(k, end, cell, g)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "        if (g.solids == 0.0) break;\n",
    "    }\n",
    "    if (sweeps == 0u) return;\n",
    "    gp_position[i].xyz = g.p;\n",
    "    atomicAdd(stat_wall_pushes, 1u);\n",
    "}\n",
    0
};
static const char* const gp__file_coupling_pressure_comp[] = {
    "#version 430 core\n",
    "// coupling_pressure: each solid particle's pressure (Adami et al. 2012's wall pressure), the\n",
    "// fluid's around it continued hydrostatically and weighted by the density kernel,\n",
    "//   p_b = sum_f W_bf (p_f + rho_f g . (x_b - x_f)) / sum_f W_bf, at least 0 (0 with no fluid near),\n",
    "// into the pressure half of its density slot (gp_density[b].y; .x stays 0: not fluid), which the\n",
    "// fluid's force (sph_force) and the solid's (coupling_solid) push with. Runs after the fluid's\n",
    "// density passes and before its force. A grain that every fluid drags (narrower than the smallest\n",
    "// smoothing radius in use, gp_drag_grain) is no boundary: it skips its loop.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 8) uniform uint u_finest;   // float bits: the fluid materials' smallest smoothing radius (m)\n",
    "\n",
    "void gp_pressure_term(uint k, uint end, vec3 b, uint slot, ivec3 cell, inout vec2 sum) {\n",
    "    if (k >= end || k == slot) return;\n",
    "    vec3 q = gp_position[k].xyz;\n",
    "    vec3 d = b - q;\n",
    "    float r2 = dot(d, d);\n",
    "    vec2 rho_p = gp_density[k];\n",
    "    if (rho_p.x <= 0.0 || !gp_grid_same_cell(q, cell)) return;   // not fluid\n",
    "    uint m = gp_material_of(gp_info[k]);\n",
    "    vec4 kernel = gp_fluids[m].kernel;\n",
    "    if (r2 >= kernel.w) return;\n",
    "    sum += gp_poly6_of(kernel.x, kernel.w, r2) * vec2(rho_p.y + rho_p.x * dot(gp_gravity.xyz, d), 1.0);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec4 p = gp_position[i];\n",
    "    uint kind = gp_kind_of(gp_info[i]);\n",
    "    if (!gp_is_solid(kind) || !gp_finite3(p.xyz)) return;\n",
    "    ivec3 home = gp_grid_cell(p.xyz);\n",
    "    for (int c = 0; c < 27; ++c) {   // for coupling_guard (GP_SOLID_BUCKET, gp_coupling.glsl); all writers write the same\n",
    "        ivec3 cell = gp_grid_around(home, c);\n",
    "        if (gp_grid_cell_exists(cell)) cell_count[gp_grid_bucket(cell)] = GP_SOLID_BUCKET;\n",
    "    }\n",
    "    float finest = uintBitsToFloat(u_finest);\n",
    "    if (gp_drag_grain(p.w, finest * finest, kind)) {   // dragged by every fluid: no boundary, no pressure\n",
    "        gp_density[i] = vec2(0.0);\n",
    "        return;\n",
    "    }\n",
    "    vec2 sum = vec2(0.0);\n",
    "    vec3 gp_center = p.xyz;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_pressure_term(k, end, p.xyz, i, cell, sum)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    gp_density[i] = vec2(0.0, sum.y > 0.0 ? max(sum.x / sum.y, 0.0) : 0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_coupling_solid_comp[] = {
    "#version 430 core\n",
    "// coupling_solid: the force the fluid puts on every solid particle (grains, rigid bodies'\n",
    "// particles): minus the sum of the forces that particle puts on its fluid neighbours, from the\n",
    "// terms of gp_coupling.glsl that sph_force added to theirs (the same functions, the fluid's\n",
    "// densities and pressures of this substep, every position and velocity before any moves). It adds\n",
    "// the force / mass to what dem_contact left: a grain's acceleration, a rigid particle's share of\n",
    "// its body's force (body_update sums it and its torque about the centre of mass). Reads the\n",
    "// fluid's density and pressure (the SPH passes) and each fluid material's constants. The pass\n",
    "// runs after dem_contact and before every integration (gp__world_substep).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// What solid particle b needs of itself in the loop.\n",
    "struct gp_solid { vec3 p; vec3 v; float r; float pressure; uint kind; uint slot; };\n",
    "\n",
    "// Subtracts the force that solid b puts on candidate slot k when k is a fluid particle within its\n",
    "// material's smoothing radius.\n",
    "void gp_solid_term(uint k, uint end, gp_solid b, ivec3 cell, inout vec3 force) {\n",
    "    if (k >= end || k == b.slot) return;\n",
    "    vec3 q = gp_position[k].xyz;\n",
    "    vec3 d = q - b.p;   // fluid minus solid, as sph_force takes it\n",
    "    float r2 = dot(d, d);\n",
    "    vec2 rho_p = gp_density[k];\n",
    "    if (rho_p.x <= 0.0 || r2 == 0.0 || !gp_grid_same_cell(q, cell)) return;   // not fluid\n",
    "    uint m = gp_material_of(gp_info[k]);\n",
    "    vec4 shape = gp_fluids[m].shape, kernel = gp_fluids[m].kernel;\n",
    "    if (r2 >= kernel.w) return;\n",
    "    vec4 v = gp_velocity[k];\n",
    "    vec3 pressure = vec3(0.0), viscosity = vec3(0.0);\n",
    "    gp_coupling_terms(shape.y, kernel.y, kernel.z, shape.z, d, r2, v.xyz, rho_p.y, b.v, b.pressure,\n",
    "                      gp_solid_mass(gp_solid_scale(gp_fluids[m].flow.z, shape.x), kernel.w, b.r, b.kind), pressure, viscosity);\n",
    "    force -= (v.w / rho_p.x) * (pressure + gp_fluids[m].flow.x * shape.z * viscosity);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    uint kind = gp_kind_of(gp_info[i]);\n",
    "    if (!gp_is_solid(kind) || !gp_finite3(p.xyz)) return;\n",
    "    gp_solid b;\n",
    "    b.kind = kind;\n",
    "    b.p = p.xyz;\n",
    "    b.v = v.xyz;\n",
    "    b.r = p.w;\n",
    "    b.slot = i;\n",
    "    b.pressure = gp_density[i].y;\n",
    "    vec3 force = vec3(0.0);\n",
    "    vec3 gp_center = b.p;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_solid_term(k, end, b, cell, force)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    gp_acceleration[i].xyz += force / v.w;\n",
    "}\n",
    0
};
static const char* const gp__file_dem_contact_comp[] = {
    "#version 430 core\n",
    "// dem_contact: the contact force on every grain and rigid particle from the others (Harada 2007,\n",
    "// sections 29.1.5, 29.2.5): the spring, dashpot and shear of eqs. 10-13 with Cundall and Strack's\n",
    "// shear spring and a Coulomb cap (gp_dem.glsl, gp_contact) from every granular or rigid particle\n",
    "// that it overlaps, found through the shared grid's 27 cells around it. Two particles of one body\n",
    "// do not touch. Forces act at the contact points, with the surfaces' velocities there (a rigid\n",
    "// particle's includes its body's spin). Each pair is computed in the order of its ids, by both\n",
    "// particles, from the spring its particle of lower id kept last substep, which keeps this\n",
    "// substep's: the forces are exactly opposite. Leaves the force (N) in the acceleration and a rigid\n",
    "// particle's torque about its centre in its torque slot for dem_walls, which adds the walls' and\n",
    "// makes them accelerations.\n",
    "// The grid's cells must be at least as wide as the largest contact distance (checked on the host).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// What particle i needs of itself in the loop.\n",
    "struct gp_self { vec4 p; vec4 v; vec3 w; float body_mass; vec4 c; vec2 spring; uint id; uint owner; bool rigid; uint slot; };\n",
    "\n",
    "// True when candidate k (info) is a solid that i may touch: a grain, or a body's particle of\n",
    "// another body.\n",
    "bool gp_contact_partner(gp_self s, uvec4 info) {\n",
    "    uint kind = gp_kind_of(info);\n",
    "    return gp_is_solid(kind) && !(s.rigid && kind == GP_KIND_RIGID && info.z == s.owner);\n",
    "}\n",
    "\n",
    "// Adds candidate slot k's contact force and torque; kept counts the contacts i keeps, gap keeps\n",
    "// the smallest gap to a partner not touching (0 once one touches) for the clock's look-ahead\n",
    "// (step_clock.comp).\n",
    "void gp_contact_term(uint k, uint end, gp_self s, ivec3 cell, inout vec3 f, inout vec3 torque, inout uint kept, inout float gap) {\n",
    "    if (k >= end || k == s.slot) return;\n",
    "    vec4 q = gp_position[k];\n",
    "    vec3 d = q.xyz - s.p.xyz;\n",
    "    float reach = s.p.w + q.w, r2 = dot(d, d);\n",
    "    if (r2 >= reach * reach || r2 == 0.0 || !gp_grid_same_cell(q.xyz, cell)) {\n",
    "        float within = reach + gap;   // nearer than the nearest so far (nothing once one touches)\n",
    "        if (r2 < within * within && gp_contact_partner(s, gp_info[k])) gap = max(sqrt(r2) - reach, 0.0);\n",
    "        return;\n",
    "    }\n",
    "    uvec4 info = gp_info[k];\n",
    "    uint kind = gp_kind_of(info);\n",
    "    if (!gp_contact_partner(s, info)) return;\n",
    "    gap = 0.0;\n",
    "    gp_granular m = gp_granulars[gp_grain_material(info)];\n",
    "    vec4 v = gp_velocity[k];\n",
    "    vec3 w = vec3(0.0);\n",
    "    float body_mass = v.w;\n",
    "    if (kind == GP_KIND_RIGID) {\n",
    "        gp_body body = gp_body_load(info.z);\n",
    "        w = gp_body_omega(body);\n",
    "        body_mass = 1.0 / body.x.w;\n",
    "    }\n",
    "    vec4 c = gp_body_damping(0.5 * (s.c + m.contact), vec2(gp_reduced_mass(s.v.w, v.w), gp_reduced_mass(s.body_mass, body_mass)));\n",
    "    vec2 spring = 0.5 * (s.spring + m.grain.zw);   // k_s, rolling friction\n",
    "    // the pair from its particle of lower id, a, towards b: one computation for both\n",
    "    bool first = s.id < info.x;\n",
    "    vec4 pa = first ? s.p : q, pb = first ? q : s.p, va = first ? s.v : v, vb = first ? v : s.v;\n",
    "    vec3 wa = first ? s.w : w, wb = first ? w : s.w;\n",
    "    vec3 xi = spring.x > 0.0 ? gp_kept_spring(first ? s.slot : k, first ? s.id : info.x, first ? info.x : s.id) : vec3(0.0);\n",
    "    vec3 ab = pb.xyz - pa.xyz;\n",
    "    float r = sqrt(r2), overlap = reach - r;\n",
    "    vec3 n = ab / r, lever;\n",
    "    vec3 partner = vb.xyz + cross(wb, -(pb.w - 0.5 * overlap) * n);\n",
    "    vec3 force = gp_touch(n, overlap, va.xyz, wa, pa.w, partner, c, spring.x, xi, lever);\n",
    "    vec3 rolling = gp_rolling(wa - wb, pa.w * pb.w / (pa.w + pb.w), va.w * vb.w / (va.w + vb.w), max(0.0, -dot(force, n)), spring.y);\n",
    "    if (first) {\n",
    "        f += force;\n",
    "        torque += cross(lever, force) + rolling;\n",
    "        if (spring.x > 0.0) gp_keep_spring(s.slot, kept, info.x, xi);\n",
    "    } else {\n",
    "        f -= force;\n",
    "        torque += cross((s.p.w - 0.5 * overlap) * -n, -force) - rolling;\n",
    "    }\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    uint kind = gp_kind_of(info);\n",
    "    if (!gp_is_solid(kind)) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    uint kept = 0u;\n",
    "    vec3 f = vec3(0.0), torque = vec3(0.0);\n",
    "    // the gap the clock's look-ahead needs: only below the cell less this particle's diameter, the\n",
    "    // least bound the clock takes for the pairs not seen (a grain as wide as the cell: none)\n",
    "    float cell_size = 1.0 / gp_grid_origin.w, gap = max(cell_size - 2.0 * p.w, 0.0);\n",
    "    bool look = gap > 0.0;\n",
    "    if (gp_finite3(p.xyz)) {   // else it meets no one\n",
    "        gp_granular m = gp_granulars[gp_grain_material(info)];\n",
    "        gp_self s;\n",
    "        s.p = p;\n",
    "        s.v = v;\n",
    "        s.c = m.contact;\n",
    "        s.spring = m.grain.zw;\n",
    "        s.id = info.x;\n",
    "        s.owner = info.z;\n",
    "        s.rigid = kind == GP_KIND_RIGID;\n",
    "        s.slot = i;\n",
    "        s.w = vec3(0.0);\n",
    "        s.body_mass = v.w;\n",
    "        if (s.rigid) {\n",
    "            gp_body body = gp_body_load(s.owner);\n",
    "            s.w = gp_body_omega(body);\n",
    "            s.body_mass = 1.0 / body.x.w;\n",
    "        }\n",
    "        // One candidate per iteration: 4.5 times faster on llvmpipe than the fluid's eight (grains\n",
    "        // keep apart, so a neighbourhood holds tens of candidates).\n",
    "        vec3 gp_center = s.p.xyz;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_contact_term(k, end, s, cell, f, torque, kept, gap)\n",
    "#define GP_NEIGHBOR_BATCH 1\n",
    "    }\n",
    "    gp_history[gp_keep_block(i)] = uvec4(info.x, kept, u_stamp, 0u);\n",
    "    if (look && gap < cell_size - 2.0 * p.w) atomicMin(stat_solid_gap, floatBitsToUint(gap));   // non-negative: bits order\n",
    "    if (gp_finite(p.w)) atomicMax(stat_solid_radius, floatBitsToUint(max(p.w, 0.0)));\n",
    "    gp_acceleration[i] = vec4(f, 0.0);\n",
    "    if (kind == GP_KIND_RIGID) gp_rigid[i] = vec4(torque, 0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_dem_integrate_comp[] = {
    "#version 430 core\n",
    "// dem_integrate: moves every grain by the acceleration of dem_contact over one substep (Harada\n",
    "// 2007, section 29.3.1: contact forces update the grains' velocities directly):\n",
    "//   symplectic Euler (default): v' = v + a dt, x' = x + v' dt\n",
    "//   explicit Euler:             x' = x + v dt, v' = v + a dt\n",
    "// An update that is not finite is not applied: the grain keeps its position, stops, and is\n",
    "// counted, so that nothing is lost and nothing spreads NaN to its neighbours.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x || gp_kind_of(gp_info[i]) != GP_KIND_GRANULAR) return;\n",
    "    vec3 x = gp_position[i].xyz;\n",
    "    if (!gp_finite3(x)) return;   // kept where it is, in the grid's extra bucket\n",
    "    vec3 xn, vn;\n",
    "    gp_integrate(x, gp_velocity[i].xyz, gp_acceleration[i].xyz, xn, vn);\n",
    "    gp_integrate_store(i, xn, vn);\n",
    "}\n",
    0
};
static const char* const gp__file_dem_walls_comp[] = {
    "#version 430 core\n",
    "// dem_walls: the walls' contact force on every grain and rigid particle (Harada 2007, section\n",
    "// 29.1.5, with the shear spring of gp_dem.glsl): every collider within a particle's radius pushes,\n",
    "// and a container box's six faces each push as a plane wall (a grain in a corner touches three).\n",
    "// Walls are still; each wall a particle touches keeps its own spring, in the particle's block after\n",
    "// its pairs'. Then the sums become what the moves read: a grain's acceleration (force / mass plus\n",
    "// gravity and your forces), a rigid particle's contact force / mass and its contact torque about\n",
    "// its centre, which body_update sums.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// One wall (unit normal n towards the wall, overlap) of particle `slot`, keyed `key`: v = (velocity,\n",
    "// mass), spring = (k_s, rolling friction).\n",
    "void gp_wall_touch(uint slot, uint id, uint key, vec3 n, float overlap, vec4 v, vec3 w, float r, vec4 c, vec2 spring,\n",
    "                   inout vec3 f, inout vec3 torque, inout uint kept) {\n",
    "    vec3 xi = spring.x > 0.0 ? gp_kept_spring(slot, id, key) : vec3(0.0), lever;\n",
    "    vec3 force = gp_touch(n, overlap, v.xyz, w, r, vec3(0.0), c, spring.x, xi, lever);\n",
    "    f += force;\n",
    "    torque += cross(lever, force) + gp_rolling(w, r, v.w, max(0.0, -dot(force, n)), spring.y);\n",
    "    if (spring.x > 0.0) gp_keep_spring(slot, kept, key, xi);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    uint kind = gp_kind_of(info);\n",
    "    if (!gp_is_solid(kind)) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    bool rigid = kind == GP_KIND_RIGID;\n",
    "    vec3 f = gp_acceleration[i].xyz, torque = rigid ? gp_rigid[i].xyz : vec3(0.0);\n",
    "    if (gp_finite3(p.xyz)) {   // else it meets no wall\n",
    "        gp_granular m = gp_granulars[gp_grain_material(info)];\n",
    "        vec3 w = vec3(0.0);\n",
    "        vec4 c = m.contact;\n",
    "        if (rigid) {   // its body's mass against the wall's infinite one\n",
    "            gp_body body = gp_body_load(info.z);\n",
    "            w = gp_body_omega(body);\n",
    "            c = gp_body_damping(c, vec2(v.w, 1.0 / body.x.w));\n",
    "        }\n",
    "        uint head = gp_keep_block(i), kept = gp_history[head].y;\n",
    "        float gap = 3.4e38;\n",
    "        for (uint k = 0u; k < gp_solver_counts.x; ++k) {\n",
    "            gp_collider_shape s = gp_colliders[k];\n",
    "            if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {\n",
    "                vec3 low = s.b.xyz + (p.xyz - s.a.xyz), high = s.b.xyz - (p.xyz - s.a.xyz);   // to each face\n",
    "                for (int a = 0; a < 3; ++a) {\n",
    "                    vec3 e = vec3(0.0);\n",
    "                    e[a] = 1.0;\n",
    "                    if (low[a] < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, uint(2 * a)), -e, p.w - low[a], v, w, p.w, c, m.grain.zw, f, torque, kept);\n",
    "                    if (high[a] < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, uint(2 * a + 1)), e, p.w - high[a], v, w, p.w, c, m.grain.zw, f, torque, kept);\n",
    "                    gap = min(gap, min(low[a], high[a]) - p.w);\n",
    "                }\n",
    "            } else {\n",
    "                vec4 d = gp_collider_distance(k, p.xyz);\n",
    "                if (d.w < p.w) gp_wall_touch(i, info.x, gp_wall_key(k, 6u), -d.xyz, p.w - d.w, v, w, p.w, c, m.grain.zw, f, torque, kept);\n",
    "                gap = min(gap, d.w - p.w);\n",
    "            }\n",
    "        }\n",
    "        gp_history[head].y = kept;\n",
    "        // the clock's look-ahead (step_clock.comp): the nearest wall, 0 when touching; NaN: touching\n",
    "        atomicMin(stat_solid_gap, floatBitsToUint(gap > 0.0 ? gap : 0.0));\n",
    "    }\n",
    "    vec3 a = f / v.w;\n",
    "    if (!rigid && gp_finite3(p.xyz)) a += gp_gravity.xyz + gp_user_forces(p.xyz);   // a NaN grain: 0, unmoved\n",
    "    if (rigid) gp_rigid[i] = vec4(torque, 0.0);\n",
    "    gp_acceleration[i] = vec4(a, 0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_dispatch_args_comp[] = {
    "#version 430 core\n",
    "// dispatch_args: turns an element count that lives on the GPU into the three words of\n",
    "// glDispatchComputeIndirect (gp_dispatch.glsl).\n",
    "layout(local_size_x = 1) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_COUNT_WORDS) readonly buffer count_block { uint count_words[]; };\n",
    "layout(location = 0) uniform uint u_count_word;\n",
    "layout(location = 1) uniform uint u_args_word;\n",
    "layout(location = 2) uniform uint u_group_size;\n",
    "\n",
    "void main() {\n",
    "    uvec3 groups = gp_dispatch_groups(count_words[u_count_word], u_group_size);\n",
    "    args[u_args_word + 0u] = groups.x;\n",
    "    args[u_args_word + 1u] = groups.y;\n",
    "    args[u_args_word + 2u] = groups.z;\n",
    "}\n",
    0
};
static const char* const gp__file_draw_bodies_frag[] = {
    "#version 430 core\n",
    "// draw_bodies.frag: a body's colour, one for all or a palette by body, lit by one light.\n",
    "layout(location = 2) uniform vec4 u_color;\n",
    "layout(location = 3) uniform vec4 u_mode;   // x 1: one colour, else a palette by body\n",
    "layout(location = 4) uniform vec4 u_light;\n",
    "in vec3 v_normal;\n",
    "flat in uint v_body;\n",
    "out vec4 o_color;\n",
    "void main() {\n",
    "    const vec3 palette[6] = vec3[6](vec3(0.85, 0.55, 0.3), vec3(0.35, 0.6, 0.85), vec3(0.8, 0.8, 0.75),\n",
    "                                    vec3(0.55, 0.75, 0.4), vec3(0.8, 0.4, 0.45), vec3(0.6, 0.5, 0.8));\n",
    "    vec3 base = u_mode.x == 1.0 ? u_color.rgb : palette[(v_body * 2654435761u >> 16u) % 6u];\n",
    "    vec3 n = normalize(v_normal);\n",
    "    float lambert = max(dot(n, normalize(u_light.xyz)), 0.0);\n",
    "    o_color = vec4(base * (0.3 + 0.7 * lambert), u_color.a);\n",
    "}\n",
    0
};
static const char* const gp__file_draw_bodies_vert[] = {
    "#version 430 core\n",
    "// draw_bodies.vert: gp_draw_bodies, each body's mesh instanced from its record (Harada 2007,\n",
    "// eq. 21).\n",
    "layout(location = 0) in vec3 a_vertex;   // principal frame, from the centre of mass\n",
    "layout(location = 1) in vec3 a_normal;\n",
    "layout(location = 2) in vec4 a_center;   // per body: X, 1 / M\n",
    "layout(location = 3) in vec4 a_rotation;   // per body: q (x, y, z, w)\n",
    "layout(location = 0) uniform mat4 u_view;\n",
    "layout(location = 1) uniform mat4 u_projection;\n",
    "layout(location = 5) uniform uint u_first;   // the run's first body, for its colour\n",
    "out vec3 v_normal;\n",
    "flat out uint v_body;\n",
    "void main() {\n",
    "    vec3 world = a_center.xyz + gp_rotate(a_rotation, a_vertex);   // eq. 21\n",
    "    v_normal = mat3(u_view) * gp_rotate(a_rotation, a_normal);\n",
    "    v_body = u_first + uint(gl_InstanceID);\n",
    "    gl_Position = u_projection * u_view * vec4(world, 1.0);\n",
    "}\n",
    0
};
static const char* const gp__file_draw_particles_frag[] = {
    "#version 430 core\n",
    "// draw_particles.frag: shades a point of draw_particles.vert as a lit sphere and writes its depth.\n",
    "in vec3 v_color;\n",
    "in vec3 v_center;\n",
    "in float v_radius;\n",
    "layout(location = 1) uniform mat4 u_projection;\n",
    "layout(location = 2) uniform vec4 u_color;\n",
    "layout(location = 4) uniform vec4 u_light;\n",
    "out vec4 o_color;\n",
    "void main() {\n",
    "    vec2 c = gl_PointCoord * 2.0 - 1.0;\n",
    "    c.y = -c.y;\n",
    "    float r2 = dot(c, c);\n",
    "    if (r2 > 1.0) discard;\n",
    "    vec3 n = vec3(c, sqrt(1.0 - r2));\n",
    "    vec4 clip = u_projection * vec4(v_center + n * v_radius, 1.0);\n",
    "    gl_FragDepth = clip.z / clip.w * 0.5 + 0.5;\n",
    "    vec3 l = normalize(u_light.xyz);\n",
    "    float diffuse = max(dot(n, l), 0.0);\n",
    "    float specular = pow(max(dot(n, normalize(l + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);\n",
    "    o_color = vec4(v_color * (0.35 + 0.65 * diffuse) + 0.25 * specular, u_color.a);\n",
    "}\n",
    0
};
static const char* const gp__file_draw_particles_vert[] = {
    "#version 430 core\n",
    "// draw_particles.vert: gp_draw_particles' sphere impostors, one point per live slot, straight\n",
    "// from the store: the attribute buffers are the vertex arrays (position, the fluid's (density,\n",
    "// pressure), velocity, info), each point sized to the particle's projected diameter (Harada et\n",
    "// al. 2007, Kipfer et al. 2004).\n",
    "layout(location = 0) in vec4 a_position;   // xyz, radius\n",
    "layout(location = 1) in vec2 a_density;   // density, pressure\n",
    "layout(location = 2) in vec4 a_velocity;\n",
    "layout(location = 3) in uvec4 a_info;\n",
    "layout(location = 0) uniform mat4 u_view;\n",
    "layout(location = 1) uniform mat4 u_projection;\n",
    "layout(location = 2) uniform vec4 u_color;\n",
    "layout(location = 3) uniform vec4 u_mode;   // colour mode, range low, range high, radius scale\n",
    "layout(location = 4) uniform vec4 u_light;   // towards the light (view space), viewport height\n",
    "layout(location = 5) uniform uint u_kinds;   // a bit per kind to draw\n",
    "out vec3 v_color;\n",
    "out vec3 v_center;\n",
    "out float v_radius;\n",
    "const vec3 kinds[7] = vec3[7](vec3(0.8), vec3(0.2, 0.45, 0.95), vec3(0.85, 0.7, 0.4), vec3(0.8, 0.3, 0.25),\n",
    "                              vec3(0.6, 0.4, 0.8), vec3(1.0, 0.6, 0.2), vec3(0.5));\n",
    "void main() {\n",
    "    vec4 view = u_view * vec4(a_position.xyz, 1.0);\n",
    "    v_center = view.xyz;\n",
    "    v_radius = a_position.w * u_mode.w;\n",
    "    gl_Position = u_projection * view;\n",
    "    gl_PointSize = clamp(u_projection[1][1] * v_radius * u_light.w / max(gl_Position.w, 1e-6), 1.0, 256.0);\n",
    "    float value = u_mode.x == 1.0 ? a_density.x : length(a_velocity.xyz);\n",
    "    float t = clamp((value - u_mode.y) / max(u_mode.z - u_mode.y, 1e-20), 0.0, 1.0);\n",
    "    v_color = mix(vec3(0.95, 0.97, 1.0), vec3(0.1, 0.3, 0.95), t);   // white low, blue high (Harada et al. 2007a, figs. 4-5)\n",
    "    if (u_mode.x == 3.0) v_color = kinds[min(a_info.y & 255u, 6u)];\n",
    "    if (u_mode.x == 4.0) v_color = u_color.rgb;\n",
    "    bool drawn = (u_kinds & (1u << min(a_info.y & 255u, 31u))) != 0u && (a_info.y & 256u) == 0u;   // 256: GP_PARTICLE_DEAD\n",
    "    if (!drawn) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);   // another kind, or removed (until the next build): clipped\n",
    "}\n",
    0
};
static const char* const gp__file_draw_sprites_frag[] = {
    "#version 430 core\n",
    "// draw_sprites.frag: a soft disc, its colour's alpha falling off as (1 - r^2)^2 to its rim.\n",
    "in vec2 v_corner;\n",
    "in vec4 v_color;\n",
    "out vec4 o_color;\n",
    "void main() {\n",
    "    float r2 = dot(v_corner, v_corner);\n",
    "    if (r2 > 1.0) discard;\n",
    "    o_color = vec4(v_color.rgb, v_color.a * (1.0 - r2) * (1.0 - r2));\n",
    "}\n",
    0
};
static const char* const gp__file_draw_sprites_vert[] = {
    "#version 430 core\n",
    "// draw_sprites.vert: gp_draw_effects, a camera-facing square per sprite (sprite_gather wrote them in\n",
    "// drawing order), two triangles from gl_VertexID, as wide as the sprite's size in view space.\n",
    "layout(location = 0) in vec4 a_sprite;   // centre (m), size (m)\n",
    "layout(location = 1) in vec4 a_color;\n",
    "layout(location = 0) uniform mat4 u_view;\n",
    "layout(location = 1) uniform mat4 u_projection;\n",
    "out vec2 v_corner;\n",
    "out vec4 v_color;\n",
    "void main() {\n",
    "    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;\n",
    "    vec4 view = u_view * vec4(a_sprite.xyz, 1.0);\n",
    "    view.xy += corner * a_sprite.w;\n",
    "    gl_Position = u_projection * view;\n",
    "    v_corner = corner;\n",
    "    v_color = a_color;\n",
    "}\n",
    0
};
static const char* const gp__file_effects_collide_comp[] = {
    "#version 430 core\n",
    "// effects_collide: collisions between effect particles (Kipfer et al. 2004, sections 4.3-4.5),\n",
    "// through the one grid rather than the paper's row sort, so that no collision is missed for a lack\n",
    "// of partners: for an effect particle of a material that collides (gp_effects[m].contact.x > 0),\n",
    "// every other such effect particle that overlaps it (closer than the sum of their radii) and\n",
    "// approaches it gives it the impulse of a hard-sphere collision with restitution e, the mean of\n",
    "// the two materials':\n",
    "//   J = -(1 + e) (v_ij . n) / (1 / m_i + 1 / m_j),  n = (x_i - x_j) / |x_i - x_j|,\n",
    "//   dv_i = J n / m_i,\n",
    "// summed over its partners (all from the velocities before the substep's collisions, as a\n",
    "// Jacobi sweep); its partner computes the same J with n reversed, so each pair's impulses cancel\n",
    "// and the momentum is kept to the float rounding; with e = 1 a lone pair keeps its kinetic\n",
    "// energy. The velocity change goes into the store's acceleration spare (dv / h, the slot's own),\n",
    "// which effects_move adds before the flight (0 for a particle that met none). The materials'\n",
    "// collision restitution is gp_effect_material.collide (0: the material does not collide).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// The collision restitution of an effect particle's material, 0 when it does not collide.\n",
    "float gp_collide_of(uvec4 info) { return gp_effects[min(gp_phase_of(info), GP_MAX_EFFECT_MATERIALS - 1u)].contact.x; }\n",
    "\n",
    "struct gp_hit { vec3 p; vec3 v; float r; float m; float e; uint slot; vec3 dv; };\n",
    "\n",
    "void gp_collide_term(uint k, uint end, ivec3 cell, inout gp_hit s) {\n",
    "    if (k >= end || k == s.slot) return;\n",
    "    uvec4 info = gp_info[k];\n",
    "    if (gp_kind_of(info) != GP_KIND_EFFECT) return;\n",
    "    float e = gp_collide_of(info);\n",
    "    if (e <= 0.0) return;\n",
    "    vec4 q = gp_position[k];\n",
    "    vec3 d = s.p - q.xyz;\n",
    "    float r2 = dot(d, d), reach = s.r + q.w;\n",
    "    if (r2 >= reach * reach || r2 == 0.0 || !gp_grid_same_cell(q.xyz, cell)) return;\n",
    "    vec4 v = gp_velocity[k];\n",
    "    vec3 n = d * inversesqrt(r2);\n",
    "    float vn = dot(s.v - v.xyz, n);\n",
    "    if (vn >= 0.0) return;   // parting\n",
    "    float j = -(1.0 + 0.5 * (s.e + e)) * vn / (1.0 / s.m + 1.0 / v.w);\n",
    "    s.dv += (j / s.m) * n;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    if (gp_kind_of(info) != GP_KIND_EFFECT) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    gp_hit s;\n",
    "    s.e = gp_collide_of(info);\n",
    "    s.dv = vec3(0.0);\n",
    "    if (s.e > 0.0 && gp_finite3(p.xyz)) {\n",
    "        s.p = p.xyz; s.v = v.xyz; s.r = p.w; s.m = v.w; s.slot = i;\n",
    "        vec3 gp_center = p.xyz;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_collide_term(k, end, cell, s)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    }\n",
    "    gp_acceleration[i] = vec4(gp_gravity.w > 0.0 ? s.dv / gp_gravity.w : vec3(0.0), 0.0);   // a substep of 0 (the clock's) moves nothing\n",
    "}\n",
    0
};
static const char* const gp__file_effects_move_comp[] = {
    "#version 430 core\n",
    "// effects_move: the effect particles' motion (Kipfer et al. 2004, section 4.2) and their bounce off\n",
    "// the colliders (section 4.6), the effects' own stage at the end of the substep (the header's\n",
    "// section >>effects). Each effect particle of phase m (its gp_effects[m] row: linear drag k,\n",
    "// restitution e, friction mu) flies under a = gravity + the user's forces + k wind(x), less k v\n",
    "// (the wind, gp_wind_at, taken where the substep starts):\n",
    "//   v(h) = a / k + (v - a / k) e^(-k h),  x(h) = x + a h / k + (v - a / k) (1 - e^(-k h)) / k\n",
    "// (exact for a constant a, in a form that keeps its digits: gp_effect_fly; k = 0: v + a h,\n",
    "// x + v h + a h^2 / 2), so that a flight matches its closed form at any substep. A particle whose move ends closer to a collider than its radius\n",
    "// (gp_boundary, every collider, height fields included) backs up to where it crossed that\n",
    "// distance (the paper's back-up: the fraction of the move, linear in the distances at its two\n",
    "// ends), its velocity there reflected: the normal part reversed and scaled by e, the tangential\n",
    "// part slowed by Coulomb friction (mu (1 + e) |v_n|, to rest at most); the rest of the substep is\n",
    "// flown from there with the new velocity. A particle that starts inside a wall is put on it.\n",
    "// Non-finite results keep the old state and are counted (stat_bad_updates), as the solvers do.\n",
    "// The speed it leaves goes into stat_max_speed, which sizes the substeps; each bounce is counted\n",
    "// with the walls' pushes (stat_wall_pushes). Another system's data it reads: the fluid's\n",
    "// particles (positions, velocities, masses, materials) through the grid, for the ride; it writes\n",
    "// effect particles only.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// A node of the wind's grid of velocities (gp_wind_set): three floats a node, x fastest, in the\n",
    "// FIELDS buffer after the colliders' fields, from float gp_wind[4].w's bits on.\n",
    "vec3 gp_wind_node(ivec3 c, ivec3 dims) {\n",
    "    uint at = floatBitsToUint(gp_wind[4].w) + 3u * uint(c.x + dims.x * (c.y + dims.y * c.z));\n",
    "    return vec3(gp_field[at], gp_field[at + 1u], gp_field[at + 2u]);\n",
    "}\n",
    "\n",
    "// Value noise in [-1, 1] at q (noise units): random values on the integer lattice (the grid's\n",
    "// hash, gp_hash_mix, of the corner and the seed), blended by the quintic 6t^5 - 15t^4 + 10t^3,\n",
    "// whose first and second derivatives are continuous.\n",
    "float gp_noise_corner(ivec3 c, uint seed) {\n",
    "    uint h = gp_hash_mix(uint(c.x) * 0x8da6b343u ^ gp_hash_mix(uint(c.y) * 0xd8163841u ^ gp_hash_mix(uint(c.z) * 0xcb1ab31fu ^ seed)));\n",
    "    return float(h >> 8) / 8388607.5 - 1.0;\n",
    "}\n",
    "float gp_value_noise(vec3 q, uint seed) {\n",
    "    vec3 i = floor(q), f = q - i;\n",
    "    vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);\n",
    "    ivec3 c = ivec3(i);\n",
    "    float x00 = mix(gp_noise_corner(c, seed), gp_noise_corner(c + ivec3(1, 0, 0), seed), u.x);\n",
    "    float x10 = mix(gp_noise_corner(c + ivec3(0, 1, 0), seed), gp_noise_corner(c + ivec3(1, 1, 0), seed), u.x);\n",
    "    float x01 = mix(gp_noise_corner(c + ivec3(0, 0, 1), seed), gp_noise_corner(c + ivec3(1, 0, 1), seed), u.x);\n",
    "    float x11 = mix(gp_noise_corner(c + ivec3(0, 1, 1), seed), gp_noise_corner(c + ivec3(1, 1, 1), seed), u.x);\n",
    "    return mix(mix(x00, x10, u.y), mix(x01, x11, u.y), u.z);\n",
    "}\n",
    "\n",
    "// Curl-noise turbulence (Bridson et al. 2007): the curl of a potential of three value noises,\n",
    "// so that the air neither gathers nor spreads (divergence-free), with features `scale` metres\n",
    "// wide; derivatives by central differences a hundredth of a feature apart. GP_CURL_RMS makes its\n",
    "// rms speed about `speed` (measured over many features, test effects_wind_noise).\n",
    "#define GP_CURL_RMS 0.50\n",
    "vec3 gp_curl_noise(vec3 p, float scale, float speed, uint seed) {\n",
    "    const float e = 0.01;\n",
    "    vec3 q = p / scale;\n",
    "    vec3 dx = vec3(e, 0.0, 0.0), dy = vec3(0.0, e, 0.0), dz = vec3(0.0, 0.0, e);\n",
    "    float dzy = gp_value_noise(q + dy, seed + 2u) - gp_value_noise(q - dy, seed + 2u);\n",
    "    float dyz = gp_value_noise(q + dz, seed + 1u) - gp_value_noise(q - dz, seed + 1u);\n",
    "    float dxz = gp_value_noise(q + dz, seed) - gp_value_noise(q - dz, seed);\n",
    "    float dzx = gp_value_noise(q + dx, seed + 2u) - gp_value_noise(q - dx, seed + 2u);\n",
    "    float dyx = gp_value_noise(q + dx, seed + 1u) - gp_value_noise(q - dx, seed + 1u);\n",
    "    float dxy = gp_value_noise(q + dy, seed) - gp_value_noise(q - dy, seed);\n",
    "    return (GP_CURL_RMS * speed / (2.0 * e)) * vec3(dzy - dyz, dxz - dzx, dyx - dxy);\n",
    "}\n",
    "\n",
    "// Riding the fluid (foam and spray on a wave): the fluid's velocity at p, how full of\n",
    "// fluid p's neighbourhood is and its density there (for the buoyancy), gp_fluid_sample's.\n",
    "\n",
    "// The wind at p: the uniform wind, the Rankine vortex (solid inside its radius R, falling as 1/r\n",
    "// outside: speed s r / R, then s R / r, counter-clockwise about the axis), the grid's,\n",
    "// trilinear between its nodes, the nearest face's beyond it, and the curl noise.\n",
    "vec3 gp_wind_at(vec3 p) {\n",
    "    vec3 w = gp_wind[0].xyz;\n",
    "    if (gp_wind[1].w != 0.0) {\n",
    "        vec3 axis = gp_wind[2].xyz, d = p - gp_wind[1].xyz;\n",
    "        vec3 radial = d - dot(d, axis) * axis;\n",
    "        float r = length(radial), R = gp_wind[2].w;\n",
    "        if (r > 0.0) w += (gp_wind[1].w * (r < R ? r / R : R / r) / r) * cross(axis, radial);\n",
    "    }\n",
    "    if (gp_wind[3].w > 0.0) {\n",
    "        ivec3 dims = ivec3(gp_wind[4].xyz);\n",
    "        vec3 g = clamp((p - gp_wind[3].xyz) / gp_wind[3].w, vec3(0.0), vec3(dims - 1));\n",
    "        ivec3 c = min(ivec3(g), dims - 2);\n",
    "        vec3 f = g - vec3(c);\n",
    "        vec3 x00 = mix(gp_wind_node(c, dims), gp_wind_node(c + ivec3(1, 0, 0), dims), f.x);\n",
    "        vec3 x10 = mix(gp_wind_node(c + ivec3(0, 1, 0), dims), gp_wind_node(c + ivec3(1, 1, 0), dims), f.x);\n",
    "        vec3 x01 = mix(gp_wind_node(c + ivec3(0, 0, 1), dims), gp_wind_node(c + ivec3(1, 0, 1), dims), f.x);\n",
    "        vec3 x11 = mix(gp_wind_node(c + ivec3(0, 1, 1), dims), gp_wind_node(c + ivec3(1, 1, 1), dims), f.x);\n",
    "        w += mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);\n",
    "    }\n",
    "    if (gp_wind[5].x != 0.0) w += gp_curl_noise(p, gp_wind[5].y, gp_wind[5].x, floatBitsToUint(gp_wind[5].z));\n",
    "    return w;\n",
    "}\n",
    "\n",
    "// A bounce off a wall of unit normal n (pointing to the free side) at velocity v, when v heads\n",
    "// into it: the normal part reversed and scaled by e, the tangential slowed by mu (1 + e) |v_n|\n",
    "// (Coulomb's impulse), to rest at most.\n",
    "vec3 gp_effect_bounce(vec3 v, vec3 n, float e, float mu) {\n",
    "    float vn = dot(v, n);\n",
    "    if (vn >= 0.0) return v;\n",
    "    vec3 tangent = v - vn * n;\n",
    "    float vt = length(tangent), slow = mu * (1.0 + e) * -vn;\n",
    "    return (vt > slow ? tangent * (1.0 - slow / vt) : vec3(0.0)) - e * vn * n;\n",
    "}\n",
    "\n",
    "// The flight of t seconds from (x, v) under a, with linear drag k: exact for a constant a,\n",
    "//   v(t) = v + (a - k v) t phi(z),  x(t) = x + v t phi(z) + a t^2 psi(z),  z = k t,\n",
    "// phi(z) = (1 - e^-z) / z and psi(z) = (1 - phi(z)) / z, by their series below z = 0.1 (where\n",
    "// 1 - e^-z loses the float's digits: the form a / k + (v - a / k) e^-z lost 5e-6 m in a step of\n",
    "// 1/240 s at k = 0.5 / s); at z = 0 the drag-free flight, v + a t and x + v t + a t^2 / 2.\n",
    "void gp_effect_fly(inout vec3 x, inout vec3 v, vec3 a, float k, float t) {\n",
    "    float z = k * t, phi, psi;\n",
    "    if (z < 0.1) {\n",
    "        phi = 1.0 - z * (0.5 - z * (1.0 / 6.0 - z * (1.0 / 24.0 - z * (1.0 / 120.0))));\n",
    "        psi = 0.5 - z * (1.0 / 6.0 - z * (1.0 / 24.0 - z * (1.0 / 120.0 - z * (1.0 / 720.0))));\n",
    "    } else {\n",
    "        phi = (1.0 - exp(-z)) / z;\n",
    "        psi = (1.0 - phi) / z;\n",
    "    }\n",
    "    x += v * (t * phi) + a * (t * t * psi);\n",
    "    v += (a - k * v) * (t * phi);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    if (gp_kind_of(info) != GP_KIND_EFFECT) return;\n",
    "    vec4 p = gp_position[i], v = gp_velocity[i];\n",
    "    if (!gp_finite3(p.xyz)) return;   // kept in the grid's extra bucket, not moved\n",
    "    gp_effect material = gp_effects[min(gp_phase_of(info), GP_MAX_EFFECT_MATERIALS - 1u)];\n",
    "    vec4 m = material.motion;\n",
    "    float h = gp_gravity.w, r = p.w;\n",
    "    vec3 a = gp_gravity.xyz + gp_user_forces(p.xyz) + m.x * gp_wind_at(p.xyz);   // -k (v - wind): the drag's wind part\n",
    "    float k = m.x;\n",
    "    if (m.w > 0.0) {   // riding: a pull of rate ride phi towards the fluid's velocity, on top of the drag\n",
    "        gp_fluid_sample s = gp_fluid_sample_at(p.xyz, 0.0);\n",
    "        vec3 gp_center = p.xyz;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_fluid_sample_term(k, end, cell, s)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "        if (s.filled > 0.0) {   // and Archimedes: the weight of the fluid it displaces (a sphere of radius r), as far as it is in it\n",
    "            float pull = m.w * min(s.filled, 1.0), displaced = 4.18879020479 * r * r * r * (s.rho / s.filled);\n",
    "            a += pull * (s.velocity / s.filled) - gp_gravity.xyz * (displaced / v.w) * min(s.filled, 1.0);\n",
    "            k += pull;\n",
    "        }\n",
    "    }\n",
    "    vec3 x = p.xyz, u = v.xyz;\n",
    "    if (material.contact.x > 0.0) u += gp_acceleration[i].xyz * h;   // its collisions' change (effects_collide)\n",
    "    vec4 before = gp_boundary(x);\n",
    "    if (before.w < r) { x += (r - before.w) * before.xyz; before.w = r; }   // started inside: onto the wall\n",
    "    vec3 start = x, start_v = u;\n",
    "    gp_effect_fly(x, u, a, k, h);\n",
    "    vec4 after = gp_boundary(x);\n",
    "    if (after.w < r) {   // crossed: back up to the crossing, reflect, fly the rest\n",
    "        float f = clamp((before.w - r) / max(before.w - after.w, 1e-30), 0.0, 1.0);\n",
    "        x = start; u = start_v;\n",
    "        gp_effect_fly(x, u, a, k, f * h);\n",
    "        vec4 wall = gp_boundary(x);\n",
    "        if (wall.w < r) x += (r - wall.w) * wall.xyz;\n",
    "        u = gp_effect_bounce(u, wall.xyz, m.y, m.z);\n",
    "        gp_effect_fly(x, u, a, k, (1.0 - f) * h);\n",
    "        wall = gp_boundary(x);\n",
    "        if (wall.w < r) {   // in again (resting on the wall, a corner, a second wall): put on it, bounced\n",
    "            x += (r - wall.w) * wall.xyz;\n",
    "            u = gp_effect_bounce(u, wall.xyz, m.y, m.z);\n",
    "        }\n",
    "    }\n",
    "    if (!gp_finite3(x) || !gp_finite3(u)) { atomicAdd(stat_bad_updates, 1u); return; }\n",
    "    if (after.w < r) atomicAdd(stat_wall_pushes, 1u);   // a bounce, counted with the walls' pushes\n",
    "    gp_position[i] = vec4(x, r);\n",
    "    gp_velocity[i] = vec4(u, v.w);\n",
    "    atomicMax(stat_max_speed, floatBitsToUint(length(u)));\n",
    "}\n",
    0
};
static const char* const gp__file_emitter_emit_comp[] = {
    "#version 430 core\n",
    "// emitter_emit: the emitters' births of a substep (section >>emitters), one invocation each, the\n",
    "// emitters' first stage. Birth j is emitter e's k-th of the substep (gp_emission and each\n",
    "// emitter's births word, which the host wrote); it goes to slot store_count + j, after every\n",
    "// particle in the store, and takes a never-used id (the host's range) or the oldest given back\n",
    "// (the free-id queue); a birth with no room or no id is skipped, and store_count, which follows,\n",
    "// counts it refused. Its random numbers are gp_random3 of the emitter's seed and its serial\n",
    "// number. Position: the emitter's shape (a ball: radius times the cube root of a uniform number\n",
    "// along a uniform direction; a disc: radius times a square root, so both are uniform in area or\n",
    "// volume); direction: uniform over the cap of half-angle spread about the axis (its cosine uniform\n",
    "// in [cos spread, 1]), or for a cone tilted outwards by the distance from the axis; speed and\n",
    "// lifetime uniform in their ranges.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 0) uniform uint u_state;   // 1: the fluid's carried density exists (0 in it: the rest density)\n",
    "\n",
    "void main() {\n",
    "    uint j = gp_global_index();\n",
    "    if (j >= gp_emission.x) return;\n",
    "    uint e = 0u;\n",
    "    while (e + 1u < gp_emission.y && j >= gp_emitters[e].births.x + gp_emitters[e].births.y) ++e;\n",
    "    uint slot, id;\n",
    "    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;\n",
    "    vec4 position = gp_emitters[e].position, axis = gp_emitters[e].axis, extent = gp_emitters[e].extent;\n",
    "    vec4 motion = gp_emitters[e].motion, life = gp_emitters[e].life;\n",
    "    uint seed = gp_emitters[e].info.w, serial = gp_emitters[e].births.z + (j - gp_emitters[e].births.x);\n",
    "    vec3 a = gp_random3(seed, serial, 0u), b = gp_random3(seed, serial, 1u), c = gp_random3(seed, serial, 2u);\n",
    "    vec3 t, s, p = position.xyz;\n",
    "    gp_basis(axis.xyz, t, s);\n",
    "    float phi = 6.28318530718 * a.y, rim = 0.0;\n",
    "    if (position.w == GP_EMITTER_SPHERE) {\n",
    "        float z = 2.0 * a.x - 1.0, r = extent.w * pow(a.z, 1.0 / 3.0);\n",
    "        p += r * vec3(sqrt(max(1.0 - z * z, 0.0)) * vec2(cos(phi), sin(phi)), z);\n",
    "    } else if (position.w == GP_EMITTER_BOX) {\n",
    "        p += (2.0 * a - 1.0) * extent.xyz;\n",
    "    } else if (position.w == GP_EMITTER_DISC || position.w == GP_EMITTER_CONE) {\n",
    "        rim = sqrt(a.x);\n",
    "        p += extent.w * rim * (cos(phi) * t + sin(phi) * s);\n",
    "    }\n",
    "    vec3 direction = position.w == GP_EMITTER_CONE ? normalize(axis.xyz + tan(min(axis.w, 1.5)) * rim * (cos(phi) * t + sin(phi) * s))\n",
    "                                                   : gp_emitter_direction(axis.xyz, t, s, axis.w, b.xy);\n",
    "    gp_birth_write(slot, id, p, mix(motion.x, motion.y, b.z) * direction, motion.zw, gp_emitters[e].info.xyz, mix(life.x, life.y, c.x));\n",
    "    if (u_state != 0u) gp_state[slot] = vec2(0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_emitter_mesh_comp[] = {
    "#version 430 core\n",
    "// emitter_mesh: a mesh emitter's births of a substep (GP_EMITTER_MESH, section >>emitters), one\n",
    "// invocation each: birth j draws its triangle by area (the first of the emitter's whose cumulative\n",
    "// share of the area, w of its first corner, exceeds a uniform number: a binary search) and a point\n",
    "// on it uniform in area (barycentric coordinates 1 - sqrt(u), sqrt(u) (1 - v), sqrt(u) v), and\n",
    "// leaves along the triangle's normal (counter-clockwise seen from that side) within the spread,\n",
    "// at a speed and with a lifetime from the ranges. Slot, id and what is written as every emitter's\n",
    "// (gp_birth.glsl). Effects and grains only: the fluid's carried density is not bound here.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_TRIANGLES) readonly buffer triangle_block { vec4 triangles[]; };   // three corners each\n",
    "layout(location = 0) uniform uint u_emitter;\n",
    "\n",
    "void main() {\n",
    "    uint j = gp_global_index(), e = u_emitter;\n",
    "    if (j >= gp_emission.x) return;\n",
    "    uint slot, id;\n",
    "    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;\n",
    "    uint seed = gp_emitters[e].info.w, serial = gp_emitters[e].births.z + j;\n",
    "    vec3 a = gp_random3(seed, serial, 0u), b = gp_random3(seed, serial, 1u), c = gp_random3(seed, serial, 2u);\n",
    "    uint low = gp_emitters[e].mesh.x, high = low + gp_emitters[e].mesh.y - 1u;\n",
    "    while (low < high) {\n",
    "        uint middle = (low + high) / 2u;\n",
    "        if (triangles[3u * middle].w <= a.x) low = middle + 1u; else high = middle;\n",
    "    }\n",
    "    vec3 p0 = triangles[3u * low].xyz, p1 = triangles[3u * low + 1u].xyz, p2 = triangles[3u * low + 2u].xyz, t, s;\n",
    "    float r = sqrt(a.y);\n",
    "    vec3 p = gp_emitters[e].position.xyz + (1.0 - r) * p0 + r * (1.0 - a.z) * p1 + r * a.z * p2;\n",
    "    vec3 normal = normalize(cross(p1 - p0, p2 - p0));\n",
    "    gp_basis(normal, t, s);\n",
    "    vec4 motion = gp_emitters[e].motion, life = gp_emitters[e].life;\n",
    "    gp_birth_write(slot, id, p, mix(motion.x, motion.y, b.z) * gp_emitter_direction(normal, t, s, gp_emitters[e].axis.w, b.xy), motion.zw,\n",
    "                   gp_emitters[e].info.xyz, mix(life.x, life.y, c.x));\n",
    "}\n",
    0
};
static const char* const gp__file_emitter_pour_comp[] = {
    "#version 430 core\n",
    "// emitter_pour: a pour's layer (a GP_EMITTER_POUR emitter's, or gp_pour_add's: one pass for both,\n",
    "// section >>store), one invocation per particle: birth j takes the j-th point of the lattice across\n",
    "// the stream (spacing apart, in square rings about the centre, each ring's points kept within the\n",
    "// disc that the layer's n points fill), u_lead along the stream, moving at its speed. Slot and id\n",
    "// as every birth's (gp_birth.glsl), from the uniforms' never-used ids. With a jitter, each point moves\n",
    "// across the stream by up to that many spacings each way, drawn by gp_random3 of the emitter's seed,\n",
    "// the layer's serial number and the point (grains stacked exactly on a lattice would stand as\n",
    "// columns: nothing breaks a perfect symmetry).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 0) uniform vec4 u_center;      // xyz the nozzle's centre (m), w the lattice's spacing (m)\n",
    "layout(location = 1) uniform vec4 u_direction;   // xyz the stream's unit direction, w its speed (m/s)\n",
    "layout(location = 2) uniform vec4 u_particle;    // radius (m), mass (kg), lifetime (s), the lead along the stream (m)\n",
    "layout(location = 3) uniform uvec4 u_info;       // kind | phase << 16, owner, user, 1 when the fluid's carried density exists\n",
    "layout(location = 4) uniform uvec4 u_layer;      // the layer's particles, never-used ids among them, the first of those\n",
    "layout(location = 5) uniform uvec4 u_jitter;     // the emitter's seed, the layer's serial number, float bits of the jitter (m)\n",
    "\n",
    "void main() {\n",
    "    uint j = gp_global_index(), n = u_layer.x;\n",
    "    if (j >= n) return;\n",
    "    uint slot, id;\n",
    "    if (!gp_birth(j, u_layer.y, u_layer.z, slot, id)) return;\n",
    "    float disc = sqrt(float(n) / 3.14159265) + 0.5;\n",
    "    int a = 0, b = 0;\n",
    "    uint k = 0u;\n",
    "    bool found = false;\n",
    "    for (int ring = 0; ring < 64 && !found; ++ring)\n",
    "        for (int x = -ring; x <= ring && !found; ++x)\n",
    "            for (int y = -ring; y <= ring && !found; ++y) {\n",
    "                if (x != -ring && x != ring && y != -ring && y != ring) continue;   // the ring's edge only\n",
    "                if (float(x * x + y * y) > disc * disc) continue;\n",
    "                if (k == j) { a = x; b = y; found = true; }\n",
    "                ++k;\n",
    "            }\n",
    "    vec3 t, s;\n",
    "    gp_basis(u_direction.xyz, t, s);\n",
    "    vec3 jitter = uintBitsToFloat(u_jitter.z) * (2.0 * gp_random3(u_jitter.x ^ (u_jitter.y * 0x9e3779b9u), j, 6u) - 1.0);\n",
    "    vec3 p = u_center.xyz + u_center.w * (float(a) + jitter.x) * t + u_center.w * (float(b) + jitter.y) * s + u_particle.w * u_direction.xyz;\n",
    "    gp_birth_write(slot, id, p, u_direction.w * u_direction.xyz, u_particle.xy, u_info.xyz, u_particle.z);\n",
    "    if (u_info.w != 0u) gp_state[slot] = vec2(0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_gp_birth_glsl[] = {
    "// gp_birth.glsl: where a birth goes and what it is written as, for every emitter's pass\n",
    "// (emitter_emit, emitter_mesh, emitter_pour, spray_emit). Needs gp_emitter.glsl and gp_buffers.glsl\n",
    "// (the store's attributes, STORE, FREE_IDS, SLOT_OF_ID) first. Birth j of the pass takes slot\n",
    "// store_count + j, after every particle in the store, and a never-used id (fresh of them, from\n",
    "// first: the host's range) or else the j-th oldest given back (the free-id queue); false when\n",
    "// there is no room or no id: store_count, which follows, counts it refused.\n",
    "bool gp_birth(uint j, uint fresh, uint first, out uint slot, out uint id) {\n",
    "    slot = store_count + j;\n",
    "    id = 0u;\n",
    "    if (slot >= gp_counts.z) return false;\n",
    "    if (j < fresh) { id = first + j; return true; }\n",
    "    uint k = j - fresh;\n",
    "    if (k >= store_free_count) return false;\n",
    "    id = free_ids[(store_free_head + k) % (2u * gp_counts.z)];\n",
    "    return true;\n",
    "}\n",
    "\n",
    "// Writes birth `id` at slot: position p, velocity v, its radius and mass, its info's three other\n",
    "// words (kind and phase, owner, user), age 0 and the lifetime; slot_of_id follows it.\n",
    "void gp_birth_write(uint slot, uint id, vec3 p, vec3 v, vec2 radius_mass, uvec3 words, float lifetime) {\n",
    "    gp_position[slot] = vec4(p, radius_mass.x);\n",
    "    gp_velocity[slot] = vec4(v, radius_mass.y);\n",
    "    gp_info[slot] = uvec4(id, words);\n",
    "    gp_life[slot] = vec2(0.0, lifetime);\n",
    "    slot_of_id[id] = slot;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_boundary_glsl[] = {
    "// gp_boundary.glsl: the boundary's signed distance function (Harada et al. 2007a, section 3.3): the\n",
    "// union of every collider's wall. Needs gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (the\n",
    "// FIELDS role) first.\n",
    "// Each function returns vec4(unit normal towards the free side, distance), the distance positive\n",
    "// where particles may be and negative inside a wall.\n",
    "// Shapes as usual signed distance functions, positive outside the shape, with their gradients.\n",
    "vec4 gp_sphere_sdf(vec3 p, vec3 c, float r) {\n",
    "    vec3 d = p - c;\n",
    "    float l = gp_length(d);\n",
    "    return vec4(l > 0.0 ? d / l : vec3(0.0, 1.0, 0.0), l - r);\n",
    "}\n",
    "\n",
    "vec4 gp_box_sdf(vec3 p, vec3 c, vec3 h) {\n",
    "    vec3 d = p - c;\n",
    "    vec3 s = vec3(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0, d.z < 0.0 ? -1.0 : 1.0);\n",
    "    vec3 q = abs(d) - h;\n",
    "    if (any(greaterThan(q, vec3(0.0)))) {\n",
    "        vec3 o = max(q, vec3(0.0));\n",
    "        float l = gp_length(o);\n",
    "        return vec4(s * o / l, l);\n",
    "    }\n",
    "    // inside: the nearest face\n",
    "    if (q.x >= q.y && q.x >= q.z) return vec4(s.x, 0.0, 0.0, q.x);\n",
    "    if (q.y >= q.z) return vec4(0.0, s.y, 0.0, q.y);\n",
    "    return vec4(0.0, 0.0, s.z, q.z);\n",
    "}\n",
    "\n",
    "vec4 gp_capsule_sdf(vec3 p, vec3 a, vec3 b, float r) {\n",
    "    vec3 ab = b - a;\n",
    "    float len2 = dot(ab, ab);\n",
    "    float t = len2 > 0.0 ? clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;\n",
    "    return gp_sphere_sdf(p, a + t * ab, r);\n",
    "}\n",
    "\n",
    "// A mesh's distance field, trilinear between samples; beyond the field's box, the distance at\n",
    "// the nearest point of the box plus the way there. dims >= 2 on every axis.\n",
    "float gp_field_distance(gp_collider_shape s, vec3 p) {\n",
    "    vec3 dims = s.b.xyz;\n",
    "    vec3 g = (p - s.a.xyz) / s.b.w;\n",
    "    vec3 gc = clamp(g, vec3(0.0), dims - 1.0);\n",
    "    float beyond = gp_length(g - gc) * s.b.w;\n",
    "    ivec3 i0 = min(ivec3(gc), ivec3(dims) - 2);\n",
    "    vec3 f = gc - vec3(i0);\n",
    "    uint nx = uint(dims.x), nxy = nx * uint(dims.y);\n",
    "    uint base = floatBitsToUint(s.c.y) + uint(i0.x) + nx * uint(i0.y) + nxy * uint(i0.z);\n",
    "    float c00 = mix(gp_field[base], gp_field[base + 1u], f.x);\n",
    "    float c10 = mix(gp_field[base + nx], gp_field[base + nx + 1u], f.x);\n",
    "    float c01 = mix(gp_field[base + nxy], gp_field[base + nxy + 1u], f.x);\n",
    "    float c11 = mix(gp_field[base + nxy + nx], gp_field[base + nxy + nx + 1u], f.x);\n",
    "    return mix(mix(c00, c10, f.y), mix(c01, c11, f.y), f.z) + beyond;\n",
    "}\n",
    "\n",
    "vec4 gp_field_sdf(gp_collider_shape s, vec3 p) {\n",
    "    float h = 0.5 * s.b.w;\n",
    "    vec3 n = vec3(gp_field_distance(s, p + vec3(h, 0.0, 0.0)) - gp_field_distance(s, p - vec3(h, 0.0, 0.0)),\n",
    "                  gp_field_distance(s, p + vec3(0.0, h, 0.0)) - gp_field_distance(s, p - vec3(0.0, h, 0.0)),\n",
    "                  gp_field_distance(s, p + vec3(0.0, 0.0, h)) - gp_field_distance(s, p - vec3(0.0, 0.0, h)));\n",
    "    float l = length(n);\n",
    "    return vec4(l > 0.0 ? n / l : vec3(0.0, 1.0, 0.0), gp_field_distance(s, p));\n",
    "}\n",
    "\n",
    "// A height field (GP_SHAPE_HEIGHTFIELD): a = (its first point x, base y, z), b = (points along x,\n",
    "// along z, dx, dz), c.y the first height's index as float bits. The height is bilinear between\n",
    "// the points; beyond the rectangle the edge's height and slope (clamped: the distance stays\n",
    "// continuous across the edge); the distance is the height above it along the normal of its local\n",
    "// tangent plane, (p.y - h) / sqrt(1 + |grad h|^2).\n",
    "vec4 gp_height_sdf(gp_collider_shape s, vec3 p) {\n",
    "    vec2 cells = s.b.xy - 1.0;\n",
    "    vec2 u = (p.xz - s.a.xz) / s.b.zw;\n",
    "    vec2 g = clamp(u, vec2(0.0), cells);\n",
    "    vec2 i0 = min(floor(g), cells - 1.0);\n",
    "    vec2 f = g - i0;\n",
    "    uint nx = uint(s.b.x), at = floatBitsToUint(s.c.y) + uint(i0.x) + nx * uint(i0.y);\n",
    "    float h00 = gp_field[at], h10 = gp_field[at + 1u], h01 = gp_field[at + nx], h11 = gp_field[at + nx + 1u];\n",
    "    float h = mix(mix(h00, h10, f.x), mix(h01, h11, f.x), f.y);\n",
    "    vec2 slope = vec2(mix(h10 - h00, h11 - h01, f.y) / s.b.z, mix(h01 - h00, h11 - h10, f.x) / s.b.w);\n",
    "    vec3 n = normalize(vec3(-slope.x, 1.0, -slope.y));\n",
    "    return vec4(n, (p.y - s.a.y - h) * n.y);\n",
    "}\n",
    "\n",
    "// One collider's free distance: the shape's own, turned inside out for a container (side -1).\n",
    "vec4 gp_collider_distance(uint index, vec3 p) {\n",
    "    gp_collider_shape s = gp_colliders[index];\n",
    "    vec4 r;\n",
    "    if (s.a.w == GP_SHAPE_SPHERE) r = gp_sphere_sdf(p, s.a.xyz, s.b.w);\n",
    "    else if (s.a.w == GP_SHAPE_BOX) r = gp_box_sdf(p, s.a.xyz, s.b.xyz);\n",
    "    else if (s.a.w == GP_SHAPE_CAPSULE) r = gp_capsule_sdf(p, s.a.xyz, s.b.xyz, s.b.w);\n",
    "    else if (s.a.w == GP_SHAPE_PLANE) r = vec4(s.b.xyz, dot(p - s.a.xyz, s.b.xyz));\n",
    "    else if (s.a.w == GP_SHAPE_HEIGHTFIELD) r = gp_height_sdf(s, p);\n",
    "    else r = gp_field_sdf(s, p);\n",
    "    return s.c.x < 0.0 ? -r : r;\n",
    "}\n",
    "\n",
    "// The boundary at p: the nearest wall over all colliders; distance 3.4e38 with none.\n",
    "vec4 gp_boundary(vec3 p) {\n",
    "    vec4 best = vec4(0.0, 1.0, 0.0, 3.4e38);\n",
    "    for (uint c = 0u; c < gp_solver_counts.x; ++c) {\n",
    "        vec4 r = gp_collider_distance(c, p);\n",
    "        if (r.w < best.w) best = r;\n",
    "    }\n",
    "    return best;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_buffers_glsl[] = {
    "// gp_buffers.glsl: the world's shader storage buffers, each declared once, by role. Which roles a\n",
    "// program binds, and where, is its row of the binding plan (gpuparticle.h, section >>shaders,\n",
    "// gp__binding_plans): the header defines GP_BINDING_<ROLE> for each role of the row and for no\n",
    "// other, so that a pass which reads a buffer its row does not give it fails to compile, and no\n",
    "// binding ever means two buffers inside one program.\n",
    "//\n",
    "// The particle store, struct of arrays (gp_particle_position ... gp_particle_life in the header,\n",
    "// section >>docs). Slots [0, gp_counts.x) are live; after a grid build they are in cell order.\n",
    "#ifdef GP_BINDING_POSITION\n",
    "layout(std430, binding = GP_BINDING_POSITION) buffer gp_position_block { vec4 gp_position[]; };  // xyz metres, w radius\n",
    "#endif\n",
    "#ifdef GP_BINDING_VELOCITY\n",
    "layout(std430, binding = GP_BINDING_VELOCITY) buffer gp_velocity_block { vec4 gp_velocity[]; };  // xyz m/s, w mass kg\n",
    "#endif\n",
    "#ifdef GP_BINDING_INFO\n",
    "layout(std430, binding = GP_BINDING_INFO) buffer gp_info_block { uvec4 gp_info[]; };  // id, kind|flags<<8|phase<<16, owner, user\n",
    "#endif\n",
    "#ifdef GP_BINDING_LIFE\n",
    "layout(std430, binding = GP_BINDING_LIFE) buffer gp_life_block { vec2 gp_life[]; };  // age s, lifetime s (0 forever)\n",
    "#endif\n",
    "// Between two grid builds the store's spare buffers are free for the solvers: the fluid's\n",
    "// (density kg/m^3, pressure Pa) in the 8-byte spare, every solver's acceleration (m/s^2) in the\n",
    "// 16-byte spare. Both stay readable until the next build, which reuses them.\n",
    "#ifdef GP_BINDING_DENSITY\n",
    "layout(std430, binding = GP_BINDING_DENSITY) buffer gp_density_block { vec2 gp_density[]; };\n",
    "#endif\n",
    "#ifdef GP_BINDING_ACCELERATION\n",
    "layout(std430, binding = GP_BINDING_ACCELERATION) buffer gp_acceleration_block { vec4 gp_acceleration[]; };\n",
    "#endif\n",
    "// The continuity model's carried density per slot (kg/m^3; 0: not yet set, the rest density), unused.\n",
    "#ifdef GP_BINDING_FLUID_STATE\n",
    "layout(std430, binding = GP_BINDING_FLUID_STATE) buffer gp_state_block { vec2 gp_state[]; };\n",
    "#endif\n",
    "\n",
    "// The grid (section >>grid): a cell key and an order entry per particle, a count and a start per\n",
    "// bucket (plus two), the slot of each id.\n",
    "#ifdef GP_BINDING_CELL_KEY\n",
    "layout(std430, binding = GP_BINDING_CELL_KEY) buffer cell_key_block { uint cell_key[]; };\n",
    "#endif\n",
    "#ifdef GP_BINDING_CELL_COUNT\n",
    "layout(std430, binding = GP_BINDING_CELL_COUNT) buffer cell_count_block { uint cell_count[]; };\n",
    "#endif\n",
    "#ifdef GP_BINDING_CELL_START\n",
    "layout(std430, binding = GP_BINDING_CELL_START) readonly buffer cell_start_block { uint cell_start[]; };\n",
    "#endif\n",
    "#ifdef GP_BINDING_ORDER\n",
    "layout(std430, binding = GP_BINDING_ORDER) buffer order_block { uint order[]; };\n",
    "#endif\n",
    "// Deterministic builds: each particle's (id, slot) filed in its bucket's range, in no set order\n",
    "// (grid_rank.comp), for the spare8 buffer the reorder fills later.\n",
    "#ifdef GP_BINDING_RANKED\n",
    "layout(std430, binding = GP_BINDING_RANKED) buffer ranked_block { uvec2 ranked[]; };\n",
    "#endif\n",
    "#ifdef GP_BINDING_SLOT_OF_ID\n",
    "layout(std430, binding = GP_BINDING_SLOT_OF_ID) buffer slot_of_id_block { uint slot_of_id[]; };\n",
    "#endif\n",
    "\n",
    "// The store's count and free ids (section >>grid, gp__store_words): the count lives on the GPU, so\n",
    "// that particles are born and die there and no call reads it back to know what to dispatch.\n",
    "#ifdef GP_BINDING_STORE\n",
    "layout(std430, binding = GP_BINDING_STORE) buffer gp_store_block {\n",
    "    uint store_count;         // slots in use: [0, store_count), live, and until the next build the dead\n",
    "    uint store_died;          // particles the builds took out, since the world was made\n",
    "    uint store_free_head;     // the free-id queue: free_ids[(head + k) % (2 capacity)], k < free_count,\n",
    "    uint store_free_count;    // oldest first\n",
    "    uint store_check;         // scratch counts: a removal's check (particles it may not remove), gp_particles_check's\n",
    "    uint store_dispatch_x;    // glDispatchComputeIndirect's three words: one invocation per slot in use\n",
    "    uint store_dispatch_y;\n",
    "    uint store_dispatch_z;\n",
    "    uint store_draw_count;    // glDrawArraysIndirect's four: store_count points from slot 0\n",
    "    uint store_draw_instances;\n",
    "    uint store_draw_first;\n",
    "    uint store_draw_base;\n",
    "    uint store_refused;       // removals by flag buffer refused on the GPU (a body's or cloth's particle flagged)\n",
    "    uint store_refused_births; // emitters' births with no room or no id, since the world was made\n",
    "    uint store_spray;         // a spray emitter's sources this substep (the compaction's count)\n",
    "    uint store_padding;       // the block a whole number of 16 bytes, on every driver\n",
    "};\n",
    "#endif\n",
    "// Ids given back by the builds, waiting to be given again (the queue of gp_store_block), 2 capacity.\n",
    "#ifdef GP_BINDING_FREE_IDS\n",
    "layout(std430, binding = GP_BINDING_FREE_IDS) buffer gp_free_ids_block { uint free_ids[]; };\n",
    "#endif\n",
    "\n",
    "// The world's statistics: the grid's three words, then the solvers'.\n",
    "#ifdef GP_BINDING_STATS\n",
    "layout(std430, binding = GP_BINDING_STATS) buffer gp_stats_block {\n",
    "    uint stat_outside;        // particles outside a bounded grid or the hash's range\n",
    "    uint stat_nonfinite;      // particles with a NaN or infinite coordinate\n",
    "    uint stat_truncated;      // neighbour loops that visited fewer candidates than the buckets held\n",
    "    uint stat_max_speed;      // float bits of the largest speed (non-negative floats order as uints)\n",
    "    uint stat_min_density;    // float bits\n",
    "    uint stat_max_density;    // float bits\n",
    "    uint stat_wall_pushes;    // particles put back out of a wall in the last substep\n",
    "    uint stat_bad_updates;    // non-finite updates since the world was made\n",
    "    // The step's clock (step_clock.comp): the host writes these at the start of a step,\n",
    "    uint clock_start;         // 1: the step's first substep is next (step_clock clears it)\n",
    "    uint clock_dt;            // float bits: the step's dt (s)\n",
    "    uint clock_planned;       // float bits: the host's substep, (dt + time owed) / substeps\n",
    "    uint clock_substeps;      // the step's substeps\n",
    "    uint clock_speed;         // float bits: the fastest speed the host knows of (m/s)\n",
    "    uint clock_sound;         // float bits: the fluids' largest speed of sound (m/s)\n",
    "    uint clock_spacing;       // float bits: the smallest spacing (m) of the CFL condition\n",
    "    uint clock_max_cfl;       // float bits: gp_step_desc's max_cfl; 0: the caller fixed the substeps\n",
    "    uint clock_limit;         // float bits: the longest substep viscosity and diffusion allow (s)\n",
    "    // and step_clock keeps these:\n",
    "    uint clock_remaining;     // float bits: what the step still has to run (s)\n",
    "    uint clock_left;          // substeps left in the step\n",
    "    uint clock_clean;         // 1 while every substep of the step is the host's\n",
    "    uint clock_h;             // float bits: the substep running now (s), copied into gp_gravity.w\n",
    "    uint clock_lag;           // float bits: what the last step could not run, owed to the next (s)\n",
    "    uint clock_cfl;           // float bits: the largest CFL number a substep of the step started with\n",
    "    uint stat_unkept;         // contacts that found no free slot to keep their spring in (gp_dem.glsl), since the world was made\n",
    "    // The contacts' look-ahead: the contact passes (dem_contact, dem_walls) write the first two\n",
    "    // every substep, the host the next three at the start of a step, step_clock the last:\n",
    "    uint stat_solid_gap;      // float bits: the smallest gap (m) the contact passes saw between two solids or a solid and a wall (0: touching)\n",
    "    uint stat_solid_radius;   // float bits: the largest radius of a solid particle (m)\n",
    "    uint clock_contact;       // float bits: the longest substep that resolves a contact (s; above 3e38: none)\n",
    "    uint clock_free;          // float bits: the host's substep without the contacts' limit (s)\n",
    "    uint clock_reach;         // float bits: the grid's cell size (m): solids farther apart than it are not seen\n",
    "    uint clock_accel;         // float bits: the largest acceleration gravity and the forces give (m/s^2)\n",
    "    uint clock_near;          // 1: a substep of the step had a contact, or one that might begin within it\n",
    "    uint stat_crowded;        // particles past the GP_GRID_CROWD-th of their bucket at the last build (grid_count)\n",
    "};\n",
    "#endif\n",
    "\n",
    "// The colliders' mesh distance fields, one after another (section >>colliders).\n",
    "#ifdef GP_BINDING_FIELDS\n",
    "layout(std430, binding = GP_BINDING_FIELDS) readonly buffer gp_field_block { float gp_field[]; };\n",
    "#endif\n",
    "// The DEM's contacts kept from substep to substep (gp_dem.glsl, gp_kept_spring): two blocks per slot.\n",
    "#ifdef GP_BINDING_HISTORY\n",
    "layout(std430, binding = GP_BINDING_HISTORY) buffer gp_history_block { uvec4 gp_history[]; };\n",
    "#endif\n",
    "// The coupling's drag (coupling_drag): per slot of a grain the fluid drags, the force it put on the\n",
    "// grain (N) and the weights it summed, sum V_j W_j (0: no fluid near), for coupling_drag_fluid; then,\n",
    "// from vec4 gp_counts.z (the store's capacity) on, a uint per bucket of the grid (as float bits,\n",
    "// four to a vec4): the substep's stamp where a dragged grain's 27 cells include one of the\n",
    "// bucket's, so that fluid elsewhere skips its search (gp_coupling.glsl's gp_drag_bucket_word).\n",
    "#ifdef GP_BINDING_DRAG\n",
    "layout(std430, binding = GP_BINDING_DRAG) buffer gp_drag_block { vec4 gp_drag[]; };\n",
    "#endif\n",
    "// The rigid bodies' shapes: every shape's particle offsets in its principal frame (section >>rigid).\n",
    "#ifdef GP_BINDING_OFFSETS\n",
    "layout(std430, binding = GP_BINDING_OFFSETS) readonly buffer gp_offsets_block { vec4 gp_offsets[]; };\n",
    "#endif\n",
    "// The rigid bodies' buffer: first a vec4 per slot, the contact torque about the particle's centre\n",
    "// that dem_contact leaves for a rigid particle (N m), then from vec4 gp_counts.z (the store's\n",
    "// capacity) on, six vec4s per body (gp_dem.glsl's gp_body).\n",
    "#ifdef GP_BINDING_BODIES\n",
    "layout(std430, binding = GP_BINDING_BODIES) buffer gp_rigid_block { vec4 gp_rigid[]; };\n",
    "#endif\n",
    0
};
static const char* const gp__file_gp_common_glsl[] = {
    "// gp_common.glsl: included first by every gpuparticle.h compute shader.\n",
    "// The constants that C and GLSL share (GP_GROUP_SIZE, the kinds, the tables' sizes, the shapes,\n",
    "// the chunk and run lengths of the scan and the sort) are not written here: the header defines\n",
    "// them from its own C values after the #version line (section >>shaders, gp__shader_constants).\n",
    "// The flat index of a workgroup in a dispatch that the host split into x * y groups (GL\n",
    "// guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).\n",
    "\n",
    "uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }\n",
    "uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }\n",
    "\n",
    "// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume\n",
    "// finite math and fold it away.\n",
    "bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }\n",
    "bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }\n",
    "\n",
    "// |v| for any finite v: length() squares the components, and a vector longer than about 1.8e19\n",
    "// came out infinite (a particle 1e30 m out of a box collider got an infinite distance, a zero\n",
    "// normal, and from the walls' push 0 * inf, NaN).\n",
    "float gp_length(vec3 v) {\n",
    "    float m = max(abs(v.x), max(abs(v.y), abs(v.z)));\n",
    "    return m > 1e18 ? m * length(v / m) : length(v);\n",
    "}\n",
    "\n",
    "// A uint that orders as the float does, negative values too (gp_float_sort_key in C): the sort\n",
    "// keys of a depth.\n",
    "uint gp_float_key(float x) { uint b = floatBitsToUint(x); return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u); }\n",
    0
};
static const char* const gp__file_gp_coupling_glsl[] = {
    "// gp_coupling.glsl: the fluid and the solids (grains, rigid bodies' particles) as one another see\n",
    "// them (Akinci et al. 2012, \"Versatile rigid-fluid coupling for incompressible SPH\").\n",
    "// A solid particle b is a boundary particle to the fluid: it stands for the volume psi_b it fills,\n",
    "// as if that volume held fluid of the fluid's own material at rest (the mass m psi_b / l0^3, the\n",
    "// material's lattice-scaled mass, so that a fluid particle beside a body sampled at the fluid's\n",
    "// spacing sees the rest density). A rigid particle fills the voxel of its body's shape, (2 r)^3;\n",
    "// a grain its sphere, pi (2 r)^3 / 6, so that a lone grain feels Archimedes' buoyancy for its own\n",
    "// volume and a bed of grains leaves its pores to the fluid. Its pressure p_b is its own, one value\n",
    "// a substep: the fluid's around it continued hydrostatically and weighted by the density kernel\n",
    "// (coupling_pressure, after Adami et al. 2012's wall particles), never below 0; its velocity its\n",
    "// own. (It was the pressure of each fluid neighbour i continued to b, p_i - rho0 g . (x_i - x_b), a\n",
    "// pair's own: a force whose curl, g x grad W, fed energy into a flow around a body, 0.0015 J in\n",
    "// coupling_energy_never_grows against 0.0012 J now, and held a body of 1,200 in water where it\n",
    "// now sinks, if slowly.) Its terms enter the fluid's density (sph_density), density rate\n",
    "// (sph_continuity) and force (sph_force); in the density rate twice, as the walls' (gp_sph.glsl):\n",
    "// the pair pushes with p_i + p_b, and p_b follows p_i as a mirror image's pressure would, which\n",
    "// closes on the particle at twice the speed, so that what the pair's pressure does is what the\n",
    "// density stores (counted once, it fed energy in at every contact: 0.008 J there); the equal and\n",
    "// opposite force on b is summed by coupling_solid, from the same\n",
    "// functions, so that the pair's forces cancel to the float rounding. Needs gp_sph.glsl first.\n",
    "\n",
    "// A grain narrower than a fluid material's smoothing radius re (re2 = re^2) is one particle the\n",
    "// fluid cannot flow around (as a boundary particle it sank through water at an eighth of the\n",
    "// speed a sphere does): to that fluid it is no boundary (m_b 0) but meets it through a drag\n",
    "// law and the fluid's pressure gradient (coupling_drag, coupling_drag_fluid). Rigid particles,\n",
    "// which resolve their body's shape together, and grains as wide as re or wider are boundaries.\n",
    "bool gp_drag_grain(float r, float re2, uint kind) { return kind == GP_KIND_GRANULAR && 4.0 * r * r < re2; }\n",
    "\n",
    "// The mark of a bucket near a solid. cell_count is free once the grid's scan has read it, and the\n",
    "// next build clears it: coupling_pressure marks the buckets of the 27 cells around every live\n",
    "// solid particle there (with the substep's grid, before anything moves), and coupling_guard\n",
    "// passes over a fluid particle whose own bucket is unmarked: no solid lies in its 27 cells, where\n",
    "// its sweep would look (the same cells, so the same result). So the guard sweeps only the fluid\n",
    "// near solids, where it swept every fluid particle's neighbours (1.3 of 12.7 ms of a substep of\n",
    "// coupling_floating_and_sinking on llvmpipe, whose box is near most of its tank's water). No\n",
    "// count reaches the mark (a bucket holds at most the store's capacity).\n",
    "const uint GP_SOLID_BUCKET = 0xffffffffu;\n",
    "\n",
    "// Bucket b's stamp in gp_drag (DRAG role): component b % 4 of vec4 capacity + b / 4, read and written.\n",
    "#ifdef GP_BINDING_DRAG\n",
    "uint gp_drag_bucket_word(uint bucket) { return floatBitsToUint(gp_drag[gp_counts.z + bucket / 4u][bucket % 4u]); }\n",
    "void gp_drag_bucket_stamp(uint bucket, uint stamp) { gp_drag[gp_counts.z + bucket / 4u][bucket % 4u] = uintBitsToFloat(stamp); }\n",
    "#endif\n",
    "\n",
    "// m_b: the fluid mass that solid particle b of kind `kind` and radius r stands for, with scale =\n",
    "// gp_solid_scale of the fluid material's particle mass and spacing (re2: its smoothing radius^2).\n",
    "float gp_solid_scale(float mass, float spacing) { return mass / (spacing * spacing * spacing); }\n",
    "float gp_solid_mass(float scale, float re2, float r, uint kind) {\n",
    "    float d = 2.0 * r, cube = scale * d * d * d;\n",
    "    if (gp_drag_grain(r, re2, kind)) return 0.0;\n",
    "    return kind == GP_KIND_RIGID ? cube : 0.52359878 * cube;   // pi / 6: a grain's sphere\n",
    "}\n",
    "\n",
    "// The pair's pressure and viscosity sums for fluid particle i (at p, velocity vi, pressure pi, of\n",
    "// a material with smoothing radius re, kernel coefficients spiky and laplacian, rest density\n",
    "// rho0) and solid b (at q, velocity vb, pressure pb, mass mb), in sph_force's form: i's acceleration gains\n",
    "// (pressure + mu viscosity) / rho_i, its force m_i times that, and b's force is minus i's.\n",
    "// d = p - q, with 0 < r2 = |d|^2 < re^2.\n",
    "void gp_coupling_terms(float re, float spiky, float laplacian, float rho0, vec3 d, float r2, vec3 vi, float pi, vec3 vb,\n",
    "                       float pb, float mb, inout vec3 pressure, inout vec3 viscosity) {\n",
    "    float r = sqrt(r2), x = re - r, volume = mb / rho0;\n",
    "    pressure += (volume * (pi + pb) * spiky * x * x / r) * d;\n",
    "    viscosity += (volume * laplacian * x) * (vb - vi);\n",
    "}\n",
    0
};
static const char* const gp__file_gp_dem_glsl[] = {
    "// gp_dem.glsl: what the DEM passes share (Harada 2007): the contact model and the rigid bodies'\n",
    "// records.\n",
    "// Needs gp_common.glsl, gp_particles.glsl, gp_solver.glsl, gp_buffers.glsl (the BODIES role) and\n",
    "// gp_quaternion.glsl first (the HISTORY and STATS roles for the contacts kept). A pass's force\n",
    "// output is the ACCELERATION role: after the contact passes (dem_contact, then dem_walls) it holds,\n",
    "// per slot, a grain's acceleration (contact force / mass + gravity + your forces) and a\n",
    "// rigid particle's contact force / mass (its body adds gravity once).\n",
    "\n",
    "// A rigid body (mirrored by gp__body_gpu in gpuparticle.h, section >>structs):\n",
    "//   x = (centre of mass X, 1 / M); q = orientation (x, y, z, s); p = (linear momentum P, particle\n",
    "//   mass); l = (angular momentum L, 0); inertia = (1 / principal moments, 0);\n",
    "//   particles = (first id, count, first offset, shape). Particle k has id first + k and offset\n",
    "//   gp_offsets[first offset + k] in the principal frame.\n",
    "struct gp_body { vec4 x; vec4 q; vec4 p; vec4 l; vec4 inertia; uvec4 particles; };\n",
    "\n",
    "gp_body gp_body_load(uint b) {\n",
    "    uint at = gp_counts.z + 6u * b;\n",
    "    gp_body body;\n",
    "    body.x = gp_rigid[at];\n",
    "    body.q = gp_rigid[at + 1u];\n",
    "    body.p = gp_rigid[at + 2u];\n",
    "    body.l = gp_rigid[at + 3u];\n",
    "    body.inertia = gp_rigid[at + 4u];\n",
    "    body.particles = floatBitsToUint(gp_rigid[at + 5u]);\n",
    "    return body;\n",
    "}\n",
    "void gp_body_store(uint b, gp_body body) {   // what moves\n",
    "    uint at = gp_counts.z + 6u * b;\n",
    "    gp_rigid[at] = body.x;\n",
    "    gp_rigid[at + 1u] = body.q;\n",
    "    gp_rigid[at + 2u] = body.p;\n",
    "    gp_rigid[at + 3u] = body.l;\n",
    "}\n",
    "\n",
    "uint gp_grain_material(uvec4 info) { return min(gp_phase_of(info), GP_MAX_GRANULAR_MATERIALS - 1u); }\n",
    "\n",
    "// The world angular velocity W = I(t)^-1 L = R diag(1 / lambda) R^T L (eqs. 5-6).\n",
    "vec3 gp_body_omega(gp_body b) {\n",
    "    vec4 inverse = vec4(-b.q.xyz, b.q.w);\n",
    "    return gp_rotate(b.q, b.inertia.xyz * gp_rotate(inverse, b.l.xyz));\n",
    "}\n",
    "\n",
    "// The contact force on particle a from a partner in direction n (unit, a to partner), overlapping\n",
    "// by `overlap`, whose surface at the contact point moves at vij relative to a's; c = (k, eta, k_t,\n",
    "// mu), ks the shear spring (N/m; 0: the viscous model). Eqs. 10-13: a spring and a dashpot along n;\n",
    "// across it, Cundall and Strack's spring xi (the tangential displacement since the contact began:\n",
    "// the one kept last substep, turned into today's contact plane by projection, plus this substep's\n",
    "// sliding, as LAMMPS's gran/hooke/history) and the viscous shear; the two capped by Coulomb's mu\n",
    "// times the normal push (never by a pull), and when capped the spring is cut back to hold just the\n",
    "// sliding force (the contact slides). xi is last substep's in, this substep's out. With ks = 0 this\n",
    "// is the paper's viscous shear. The pair passes compute it once per pair, in the order of the ids,\n",
    "// so that the two particles' forces are exactly opposite.\n",
    "vec3 gp_contact(vec3 n, float overlap, vec3 vij, vec4 c, float ks, inout vec3 xi) {\n",
    "    float vn = dot(vij, n);\n",
    "    vec3 vt = vij - vn * n;\n",
    "    xi = xi - dot(xi, n) * n + vt * gp_gravity.w;\n",
    "    vec3 ft = ks * xi + c.z * vt;\n",
    "    float limit = c.w * max(0.0, c.x * overlap - c.y * vn);\n",
    "    float t = length(ft);\n",
    "    if (t > limit) {\n",
    "        ft *= limit / t;\n",
    "        if (ks > 0.0) xi = (ft - c.z * vt) / ks;\n",
    "    }\n",
    "    return (c.y * vn - c.x * overlap) * n + ft;\n",
    "}\n",
    "\n",
    "// One contact of particle a (velocity v, spin w: 0 for a grain; radius r) with a partner in\n",
    "// direction n overlapping by `overlap`, whose surface moves at `partner` at the contact point:\n",
    "// returns the force on a, and in lever the contact point from a's centre, where the two spheres'\n",
    "// surfaces meet halfway through the overlap, (r - overlap / 2) n; the velocities are the surfaces'\n",
    "// there, so that a spinning body's particles roll and grip.\n",
    "vec3 gp_touch(vec3 n, float overlap, vec3 v, vec3 w, float r, vec3 partner, vec4 c, float ks, inout vec3 xi, out vec3 lever) {\n",
    "    lever = (r - 0.5 * overlap) * n;\n",
    "    return gp_contact(n, overlap, partner - (v + cross(w, lever)), c, ks, xi);\n",
    "}\n",
    "\n",
    "// A contact's dashpots (eta, k_t) are the material's for two grains; a rigid particle moves with\n",
    "// its whole body, so a contact's are scaled by sqrt(M / m), M the pair's reduced mass with each\n",
    "// rigid particle's body's mass in place of its own, m with the particles' own (a wall: infinite):\n",
    "// every contact keeps the damping ratio, and so the restitution, that the material gives two\n",
    "// grains, whatever the bodies weigh (LAMMPS's granular pair styles likewise take a rigid body's\n",
    "// mass for its particles). mass = (the particles' reduced mass, the bodies').\n",
    "vec4 gp_body_damping(vec4 c, vec2 mass) { return vec4(c.x, c.yz * sqrt(mass.y / mass.x), c.w); }\n",
    "float gp_reduced_mass(float a, float b) { return a * b / (a + b); }\n",
    "\n",
    "// Rolling resistance (a constant torque against the relative spin, model A of Ai, Chen, Rotter and\n",
    "// Ooi 2011): on particle a, whose spin relative to its partner's is wr, of mean radius\n",
    "// r = r_a r_b / (r_a + r_b) and reduced mass m (m_a m_b / (m_a + m_b)), pressed with `push`\n",
    "// (N), rolling friction mu_r: -mu_r r push along wr, but never more than stops the spin of a\n",
    "// ball of that mass and radius, (2/5) m r^2 |wr| / h, within the substep (no sign flip each substep\n",
    "// once rolling stops: the model's known chatter). A ball rolling on a floor decelerates at\n",
    "// (5/7) mu_r g. The partner gets the opposite torque.\n",
    "vec3 gp_rolling(vec3 wr, float r, float m, float push, float mu_r) {\n",
    "    float spin = length(wr);\n",
    "    if (mu_r <= 0.0 || spin == 0.0) return vec3(0.0);\n",
    "    float torque = min(mu_r * r * push, 0.4 * m * r * r * spin / gp_gravity.w);\n",
    "    return (-torque / spin) * wr;\n",
    "}\n",
    "\n",
    "// The contacts kept from substep to substep (the HISTORY role; section >>dem of gpuparticle.h):\n",
    "// per slot a block of u_slots + 1 uvec4s: a head (the particle's id, contacts kept, the substep's\n",
    "// stamp, 0), then the contacts (the partner's id, or a wall's key; xi as float bits). The blocks\n",
    "// the last substep wrote, moved into this substep's order by the grid build, at [0, capacity);\n",
    "// this substep's at [capacity, 2 capacity). A pair is kept by its particle of lower id.\n",
    "#ifdef GP_BINDING_HISTORY\n",
    "layout(location = 8) uniform uint u_slots;   // contacts a particle keeps (gp_world_desc.contact_slots)\n",
    "layout(location = 9) uniform uint u_stamp;   // this substep's number: the blocks of the last bear u_stamp - 1\n",
    "\n",
    "uint gp_kept_block(uint slot) { return slot * (u_slots + 1u); }\n",
    "uint gp_keep_block(uint slot) { return (gp_counts.z + slot) * (u_slots + 1u); }\n",
    "// A wall's key: 2^31 + 8 collider + face (a container box's faces 0-5, any other collider 6).\n",
    "uint gp_wall_key(uint collider, uint face) { return 0x80000000u | (collider * 8u + face); }\n",
    "\n",
    "// The spring that particle `id`, in `slot`, kept last substep for `partner`; 0 when it kept none.\n",
    "vec3 gp_kept_spring(uint slot, uint id, uint partner) {\n",
    "    uint at = gp_kept_block(slot);\n",
    "    uvec4 head = gp_history[at];\n",
    "    if (head.x != id || head.z != u_stamp - 1u) return vec3(0.0);\n",
    "    uint n = min(head.y, u_slots);\n",
    "    for (uint e = 1u; e <= n; ++e) {\n",
    "        uvec4 kept = gp_history[at + e];\n",
    "        if (kept.x == partner) return uintBitsToFloat(kept.yzw);\n",
    "    }\n",
    "    return vec3(0.0);\n",
    "}\n",
    "\n",
    "// Keeps the spring xi for `partner` as contact number `kept` of the particle in `slot`: counted in\n",
    "// the statistics instead when its slots are full (the contact then starts afresh next substep).\n",
    "void gp_keep_spring(uint slot, inout uint kept, uint partner, vec3 xi) {\n",
    "    if (kept >= u_slots) {\n",
    "        atomicAdd(stat_unkept, 1u);\n",
    "        return;\n",
    "    }\n",
    "    kept += 1u;\n",
    "    gp_history[gp_keep_block(slot) + kept] = uvec4(partner, floatBitsToUint(xi));\n",
    "}\n",
    "#endif\n",
    0
};
static const char* const gp__file_gp_dispatch_glsl[] = {
    "// gp_dispatch.glsl: glDispatchComputeIndirect's three words for one invocation per element of a\n",
    "// count that lives on the GPU: ceil(count / group size) workgroups, split as x * y when they exceed\n",
    "// 65,535 (the shader then takes gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x, as\n",
    "// gp_global_index does).\n",
    "uvec3 gp_dispatch_groups(uint count, uint group_size) {\n",
    "    uint groups = count / group_size + uint(count % group_size != 0u);\n",
    "    uint x = min(groups, 65535u);\n",
    "    uint y = x == 0u ? 1u : (groups + x - 1u) / x;\n",
    "    return uvec3(x, groups == 0u ? 0u : y, 1u);\n",
    "}\n",
    "#ifdef GP_BINDING_ARGS\n",
    "layout(std430, binding = GP_BINDING_ARGS) writeonly buffer args_block { uint args[]; };\n",
    "#endif\n",
    0
};
static const char* const gp__file_gp_emitter_glsl[] = {
    "// gp_emitter.glsl: the emitters' table (section >>emitters), one std140 uniform block at binding 2,\n",
    "// mirrored by gp__emitter_gpu and gp__emission in gpuparticle.h (checked field by field by a\n",
    "// test), and the counter-based random numbers every birth draws.\n",
    "struct gp_emitter {\n",
    "    vec4 position;   // xyz centre (m), w shape (GP_EMITTER_*)\n",
    "    vec4 axis;       // xyz unit direction, w spread: the half-angle of the directions about it (radians)\n",
    "    vec4 extent;     // xyz a box's half extents (m), w a sphere's, disc's or cone's radius (m)\n",
    "    vec4 motion;     // x, y the speed's range (m/s), z the particles' radius (m), w their mass (kg)\n",
    "    vec4 life;       // x, y the lifetime's range (s; 0 0: forever), z, w unused\n",
    "    uvec4 info;      // x kind | phase << 16, y owner (the emitter's number), z user word, w seed\n",
    "    uvec4 births;    // x this substep's first birth that is this emitter's, y how many, z the serial\n",
    "                     // number of its first (the emitter's births before), w unused\n",
    "    vec4 size;       // the radius's factor at ages 0, 1/3, 2/3 and 1 of the lifetime (linear between)\n",
    "    vec4 color[4];   // RGBA at the same ages\n",
    "    uvec4 mesh;      // GP_EMITTER_MESH: x its first triangle in the triangles' buffer, y its triangles\n",
    "};\n",
    "layout(std140, binding = 2) uniform gp_emitter_block {\n",
    "    uvec4 gp_emission;   // x births this substep (every emitter's), y emitters in the table, z births\n",
    "                         // that take never-used ids, w the first of those ids\n",
    "    gp_emitter gp_emitters[GP_MAX_EMITTERS];\n",
    "};\n",
    "\n",
    "// pcg3d (Jarzynski and Olano 2020, \"Hash Functions for GPU Rendering\", JCGT 9(3)): three\n",
    "// well-mixed words from three, the counter-based random numbers of the births: (seed, serial,\n",
    "// stream) gives the same numbers on every device and at any substep.\n",
    "uvec3 gp_pcg3d(uvec3 v) {\n",
    "    v = v * 1664525u + 1013904223u;\n",
    "    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;\n",
    "    v ^= v >> 16u;\n",
    "    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;\n",
    "    return v;\n",
    "}\n",
    "// Three uniform numbers in [0, 1), 24 bits each (exact in a float).\n",
    "vec3 gp_random3(uint seed, uint serial, uint stream) { return vec3(gp_pcg3d(uvec3(seed, serial, stream)) >> 8u) * (1.0 / 16777216.0); }\n",
    "\n",
    "// A direction uniform over the cap of half-angle spread about the unit axis (its cosine uniform in\n",
    "// [cos spread, 1]), from two uniform numbers u; t and s complete the axis to a basis.\n",
    "vec3 gp_emitter_direction(vec3 axis, vec3 t, vec3 s, float spread, vec2 u) {\n",
    "    float cosine = 1.0 - u.x * (1.0 - cos(spread)), sine = sqrt(max(1.0 - cosine * cosine, 0.0)), psi = 6.28318530718 * u.y;\n",
    "    return cosine * axis + sine * (cos(psi) * t + sin(psi) * s);\n",
    "}\n",
    "\n",
    "// Two unit vectors completing n (unit) to an orthonormal basis (Duff et al. 2017, \"Building an\n",
    "// Orthonormal Basis, Revisited\", JCGT 6(1)).\n",
    "void gp_basis(vec3 n, out vec3 t, out vec3 b) {\n",
    "    float s = n.z >= 0.0 ? 1.0 : -1.0, a = -1.0 / (s + n.z), c = n.x * n.y * a;\n",
    "    t = vec3(1.0 + s * n.x * n.x * a, s * c, -s * n.x);\n",
    "    b = vec3(c, s + n.y * n.y * a, -n.y);\n",
    "}\n",
    "\n",
    "// An emitter's curve at a particle's age: the four keys at 0, 1/3, 2/3 and 1 of its lifetime,\n",
    "// linear between (a lifetime of 0, forever: the first key). Returns the size factor; color gets\n",
    "// the colour.\n",
    "float gp_emitter_look(uint e, vec2 life, out vec4 color) {\n",
    "    float t = life.y > 0.0 ? 3.0 * clamp(life.x / life.y, 0.0, 1.0) : 0.0;\n",
    "    uint k = min(uint(t), 2u);\n",
    "    float w = t - float(k);\n",
    "    color = mix(gp_emitters[e].color[k], gp_emitters[e].color[k + 1u], w);\n",
    "    return mix(gp_emitters[e].size[k], gp_emitters[e].size[k + 1u], w);\n",
    "}\n",
    0
};
static const char* const gp__file_gp_fluid_sample_glsl[] = {
    "// gp_fluid_sample.glsl: the fluid at a point that is not one of its particles (an effect particle\n",
    "// riding it, a grain it drags), through the one grid: Shepard's interpolation with each fluid\n",
    "// particle j's material's poly6 W_j and volume V_j = m_j / rho0_j,\n",
    "//   filled       phi = sum V_j W_j            (about 1 inside the fluid, 0 away from it)\n",
    "//   velocity     sum V_j W_j v_j              (over phi: the fluid's velocity there)\n",
    "//   rho          sum V_j W_j rho0_j           (over phi: its rest density)\n",
    "//   nu           sum V_j W_j nu_j             (over phi: its kinematic viscosity)\n",
    "//   reach        sum V_j W_j re_j             (over phi: its smoothing radius)\n",
    "//   own          sum V_j W_j V_j W_j(0)       (over phi: what one fluid particle at the point\n",
    "//                                              would add to phi, so that phi / (1 - own) is 1 in a\n",
    "//                                              hole the size of one of its particles)\n",
    "//   inertia      sum (V_j W_j)^2 / m_j        (phi^2 over it: the fluid mass whose sampled velocity\n",
    "//                                              a force shared as coupling_drag_fluid shares it moves)\n",
    "// over the fluid particles within their material's smoothing radius re of p whose re is more than\n",
    "// `width` (a grain as wide as re or wider is the fluid's boundary instead, gp_coupling.glsl).\n",
    "// Needs gp_sph.glsl (gp_poly6_of) and the POSITION, VELOCITY and INFO roles.\n",
    "struct gp_fluid_sample { vec3 p; float width; float filled; vec3 velocity; float rho; float nu; float reach; float own; float inertia; };\n",
    "\n",
    "gp_fluid_sample gp_fluid_sample_at(vec3 p, float width) {\n",
    "    gp_fluid_sample s;\n",
    "    s.p = p; s.width = width; s.filled = 0.0; s.velocity = vec3(0.0); s.rho = 0.0; s.nu = 0.0; s.reach = 0.0; s.own = 0.0; s.inertia = 0.0;\n",
    "    return s;\n",
    "}\n",
    "\n",
    "// Candidate slot k's share, when it is a fluid particle near enough.\n",
    "void gp_fluid_sample_term(uint k, uint end, ivec3 cell, inout gp_fluid_sample s) {\n",
    "    if (k >= end) return;\n",
    "    vec4 q = gp_position[k];\n",
    "    uvec4 info = gp_info[k];\n",
    "    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_grid_same_cell(q.xyz, cell)) return;\n",
    "    uint m = gp_material_of(info);\n",
    "    vec3 d = s.p - q.xyz;\n",
    "    float r2 = dot(d, d), re2 = gp_fluids[m].kernel.w;\n",
    "    if (r2 >= re2 || !(s.width * s.width < re2)) return;   // as gp_drag_grain decides\n",
    "    vec4 v = gp_velocity[k];\n",
    "    float weight = v.w / gp_fluids[m].shape.z * gp_poly6_of(gp_fluids[m].kernel.x, re2, r2);\n",
    "    s.velocity += weight * v.xyz;\n",
    "    s.filled += weight;\n",
    "    s.rho += weight * gp_fluids[m].shape.z;\n",
    "    s.nu += weight * gp_fluids[m].flow.x;\n",
    "    s.reach += weight * gp_fluids[m].shape.y;\n",
    "    s.own += weight * (v.w / gp_fluids[m].shape.z * gp_poly6_of(gp_fluids[m].kernel.x, re2, 0.0));\n",
    "    s.inertia += weight * weight / v.w;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_grid_glsl[] = {
    "// gp_grid.glsl: cell addressing shared by the grid build and every neighbour loop.\n",
    "// Needs gp_common.glsl and gp_world.glsl first.\n",
    "//\n",
    "// A bucket is a cell of the bounded grid (x + nx * (y + ny * z)) or a slot of the hash table.\n",
    "// Bucket gp_counts.y, one past the last, holds particles whose position is NaN or infinite:\n",
    "// they stay in the store, after every other live particle, and no neighbour loop visits them.\n",
    "// Hashed cell coordinates are clamped to +-GP_HASH_CELL_LIMIT so that integer maths never\n",
    "// overflows; a particle beyond that is counted as outside, like one outside a bounded grid.\n",
    "#define GP_HASH_CELL_LIMIT 1073741823.0\n",
    "\n",
    "// The unclamped cell coordinates of a finite position, as floats (no integer overflow).\n",
    "// A product with the host's reciprocal, not a division: GLSL allows a division 2.5 ULP (NVIDIA's\n",
    "// is not correctly rounded), and a particle on a cell's edge must fall in the same cell on every\n",
    "// device and in the CPU references (tests/cpu_reference.c), as a product rounded once does.\n",
    "// precise: no compiler may fuse the difference and the product into p * w - origin * w.\n",
    "vec3 gp_grid_cell_float(vec3 p) {\n",
    "    precise vec3 offset = p - gp_grid_origin.xyz;\n",
    "    precise vec3 cells = offset * gp_grid_origin.w;\n",
    "    return floor(cells);\n",
    "}\n",
    "\n",
    "// The cell of unclamped coordinates c. Bounded: clamped into the border cells, so a particle\n",
    "// outside the box still has a cell and is found by its neighbours (clamping never moves two cells\n",
    "// apart). Hashed: clamped into the hash's range.\n",
    "ivec3 gp_grid_clamp_cell(vec3 c) {\n",
    "    if (gp_grid_dims.w == GP_GRID_BOUNDED)\n",
    "        return clamp(ivec3(clamp(c, vec3(-1.0), vec3(gp_grid_dims.xyz))), ivec3(0), gp_grid_dims.xyz - 1);\n",
    "    return ivec3(clamp(c, vec3(-GP_HASH_CELL_LIMIT), vec3(GP_HASH_CELL_LIMIT)));\n",
    "}\n",
    "\n",
    "// The cell a finite position lies in.\n",
    "ivec3 gp_grid_cell(vec3 p) { return gp_grid_clamp_cell(gp_grid_cell_float(p)); }\n",
    "// The c-th (0 to 26) of the 27 cells around home, home itself among them.\n",
    "ivec3 gp_grid_around(ivec3 home, int c) { return home + ivec3(c % 3, (c / 3) % 3, c / 9) - 1; }\n",
    "\n",
    "// True when unclamped coordinates c lie inside the grid's domain (the box, or the hash's range).\n",
    "bool gp_grid_inside(vec3 c) {\n",
    "    if (gp_grid_dims.w == GP_GRID_BOUNDED)\n",
    "        return all(greaterThanEqual(c, vec3(0.0))) && all(lessThan(c, vec3(gp_grid_dims.xyz)));\n",
    "    return all(lessThanEqual(abs(c), vec3(GP_HASH_CELL_LIMIT)));\n",
    "}\n",
    "\n",
    "// True when cell c can hold particles: inside the box (bounded) or inside the hash's range.\n",
    "bool gp_grid_cell_exists(ivec3 c) {\n",
    "    if (gp_grid_dims.w == GP_GRID_BOUNDED)\n",
    "        return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, gp_grid_dims.xyz));\n",
    "    return all(lessThanEqual(abs(c), ivec3(int(GP_HASH_CELL_LIMIT))));\n",
    "}\n",
    "\n",
    "// Finaliser of MurmurHash3: spreads neighbouring cells over the whole table.\n",
    "uint gp_hash_mix(uint h) {\n",
    "    h ^= h >> 16; h *= 0x85ebca6bu;\n",
    "    h ^= h >> 13; h *= 0xc2b2ae35u;\n",
    "    h ^= h >> 16;\n",
    "    return h;\n",
    "}\n",
    "\n",
    "// Hashed: the 4 x 4 x 4 block of cells is hashed, and its 64 cells take 64 consecutive buckets,\n",
    "// so that cells next to each other stay near each other in memory (a particle that crosses into a\n",
    "// neighbouring cell moves a short way in the store; a neighbour loop reads nearby buckets). The\n",
    "// table is a power of two: a mask, not a division (which CPU SIMD lacks).\n",
    "uint gp_grid_bucket(ivec3 c) {\n",
    "    if (gp_grid_dims.w == GP_GRID_BOUNDED)\n",
    "        return uint(c.x) + uint(gp_grid_dims.x) * (uint(c.y) + uint(gp_grid_dims.y) * uint(c.z));\n",
    "    ivec3 block = c >> 2;   // arithmetic shift: floor division by 4, negative cells included\n",
    "    uint h = gp_hash_mix(uint(block.x) * 0x8da6b343u ^ gp_hash_mix(uint(block.y) * 0xd8163841u ^ gp_hash_mix(uint(block.z) * 0xcb1ab31fu)));\n",
    "    uint local = (uint(c.x) & 3u) | (uint(c.y) & 3u) << 2u | (uint(c.z) & 3u) << 4u;\n",
    "    return (h << 6u | local) & (gp_counts.y - 1u);\n",
    "}\n",
    "\n",
    "// With hashing, distant cells share buckets: a neighbour loop keeps a candidate only when its own\n",
    "// cell is the cell being visited. A bounded grid has one cell per bucket and needs no test.\n",
    "bool gp_grid_same_cell(vec3 candidate, ivec3 cell) {\n",
    "    return gp_grid_dims.w == GP_GRID_BOUNDED || gp_grid_cell(candidate) == cell;\n",
    "}\n",
    "\n",
    "uint gp_grid_invalid_bucket() { return gp_counts.y; }\n",
    "// The bucket after it holds the dead (gp_dead): the build's counting sort puts them after every\n",
    "// live particle, where store_free gives their ids back and store_count cuts them off the count.\n",
    "uint gp_grid_dead_bucket() { return gp_counts.y + 1u; }\n",
    0
};
static const char* const gp__file_gp_integrate_glsl[] = {
    "// gp_integrate.glsl: one particle's time step, shared by the solvers' integration passes\n",
    "// (sph_integrate, dem_integrate; the bodies integrate whole in body_update). Needs\n",
    "// gp_common.glsl, gp_solver.glsl and gp_buffers.glsl (POSITION, VELOCITY and STATS) first.\n",
    "\n",
    "// x, v advanced by the acceleration a over the substep gp_gravity.w: symplectic Euler (velocity\n",
    "// first), or explicit Euler when the integrator is 2. A non-finite result keeps the particle\n",
    "// where it was, at rest, and is counted in stat_bad_updates: one bad particle never spreads NaN.\n",
    "void gp_integrate(vec3 x, vec3 v, vec3 a, out vec3 xn, out vec3 vn) {\n",
    "    float dt = gp_gravity.w;\n",
    "    if ((gp_solver_counts.z & GP_INTEGRATOR_MASK) == 2u) { xn = x + v * dt; vn = v + a * dt; }\n",
    "    else { vn = v + a * dt; xn = x + vn * dt; }\n",
    "    if (!gp_finite3(xn) || !gp_finite3(vn)) {\n",
    "        xn = x; vn = vec3(0.0);\n",
    "        atomicAdd(stat_bad_updates, 1u);\n",
    "    }\n",
    "}\n",
    "\n",
    "// Writes slot i's new position and velocity (its radius and mass kept) and its speed into the\n",
    "// statistics, from which the host picks the next step's substeps.\n",
    "void gp_integrate_store(uint i, vec3 xn, vec3 vn) {\n",
    "    gp_position[i].xyz = xn;\n",
    "    gp_velocity[i].xyz = vn;\n",
    "    atomicMax(stat_max_speed, floatBitsToUint(length(vn)));\n",
    "}\n",
    0
};
static const char* const gp__file_gp_neighbors_glsl[] = {
    "// gp_neighbors.glsl: the neighbour loop, written once for every pass that visits neighbours\n",
    "// (grid_neighbors, sph_density, sph_continuity, sph_force, dem_contact). It visits the 27 cells\n",
    "// around gp_center's cell (skipping those outside a bounded grid), reads each cell's bucket from\n",
    "// cell_start, and hands every candidate slot of it to the pass's hook. A pass includes it inside\n",
    "// its main(), after it has\n",
    "//   vec3 gp_center;                          the position whose neighbourhood is visited (finite)\n",
    "//   #define GP_NEIGHBOR_VISIT(k, end, cell)  a statement for candidate slot k of bucket end's\n",
    "//                                            visited cell: it checks k < end (a batch runs past\n",
    "//                                            the end), k's own cell (gp_grid_same_cell: distant\n",
    "//                                            cells share hashed buckets) and the distance\n",
    "//   #define GP_NEIGHBOR_BATCH 8 or 1         candidates per iteration: 8 where the terms are\n",
    "//                                            cheap (fluid), 1 where they are not (contacts)\n",
    "// or, where the terms are summed, instead of GP_NEIGHBOR_VISIT\n",
    "//   #define GP_NEIGHBOR_TERM(k, end, cell)   candidate k's term (0 when it is no neighbour)\n",
    "//   #define GP_NEIGHBOR_SUM                  the sum a batch's terms are added to, as one\n",
    "//                                            expression (t0 + ... + t7): the order the\n",
    "//                                            floating-point sum had before it was shared\n",
    "// Why it is written so: with hashing, a bucket also holds particles of distant cells, which\n",
    "// gp_grid_same_cell drops; candidates go 8 per iteration where terms are cheap, because some\n",
    "// drivers (Mesa's llvmpipe) end an invocation's loops after 65,535 iterations in all, silently,\n",
    "// and 8 at a time lets one particle meet about 500,000 candidates there (no cap elsewhere); the\n",
    "// loop counts what it visited, and a shortfall (a loop the driver cut) is counted in\n",
    "// stat_truncated, which gp_grid_stats_read reports, instead of passing for a right answer.\n",
    "// Needs gp_grid.glsl and the CELL_START and STATS roles.\n",
    "{\n",
    "    ivec3 gp_home = gp_grid_cell(gp_center);\n",
    "    uint gp_expected = 0u, gp_visited = 0u, gp_cells = 0u;\n",
    "    for (int gp_c = 0; gp_c < 27; ++gp_c) {\n",
    "        ++gp_cells;\n",
    "        ivec3 gp_cell = gp_grid_around(gp_home, gp_c);\n",
    "        if (!gp_grid_cell_exists(gp_cell)) continue;\n",
    "        uint gp_bucket = gp_grid_bucket(gp_cell);\n",
    "        uint gp_begin = cell_start[gp_bucket], gp_end = cell_start[gp_bucket + 1u];\n",
    "        gp_expected += gp_end - gp_begin;\n",
    "        for (uint gp_k = gp_begin; gp_k < gp_end; gp_k += uint(GP_NEIGHBOR_BATCH)) {\n",
    "#if defined(GP_NEIGHBOR_TERM) && GP_NEIGHBOR_BATCH == 8\n",
    "            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 1u, gp_end, gp_cell)\n",
    "                             + GP_NEIGHBOR_TERM(gp_k + 2u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 3u, gp_end, gp_cell)\n",
    "                             + GP_NEIGHBOR_TERM(gp_k + 4u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 5u, gp_end, gp_cell)\n",
    "                             + GP_NEIGHBOR_TERM(gp_k + 6u, gp_end, gp_cell) + GP_NEIGHBOR_TERM(gp_k + 7u, gp_end, gp_cell);\n",
    "#elif defined(GP_NEIGHBOR_TERM)\n",
    "            GP_NEIGHBOR_SUM += GP_NEIGHBOR_TERM(gp_k, gp_end, gp_cell);\n",
    "#elif GP_NEIGHBOR_BATCH == 8\n",
    "            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 1u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 2u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 3u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 4u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 5u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 6u, gp_end, gp_cell);\n",
    "            GP_NEIGHBOR_VISIT(gp_k + 7u, gp_end, gp_cell);\n",
    "#elif GP_NEIGHBOR_BATCH == 1\n",
    "            GP_NEIGHBOR_VISIT(gp_k, gp_end, gp_cell);\n",
    "#else\n",
    "#error GP_NEIGHBOR_BATCH must be 8 or 1\n",
    "#endif\n",
    "            gp_visited += min(uint(GP_NEIGHBOR_BATCH), gp_end - gp_k);\n",
    "        }\n",
    "    }\n",
    "    if (gp_visited != gp_expected || gp_cells != 27u) atomicAdd(stat_truncated, 1u);\n",
    "}\n",
    "#ifdef GP_NEIGHBOR_VISIT\n",
    "#undef GP_NEIGHBOR_VISIT\n",
    "#endif\n",
    "#undef GP_NEIGHBOR_BATCH\n",
    "#ifdef GP_NEIGHBOR_TERM\n",
    "#undef GP_NEIGHBOR_TERM\n",
    "#undef GP_NEIGHBOR_SUM\n",
    "#endif\n",
    0
};
static const char* const gp__file_gp_particles_glsl[] = {
    "// gp_particles.glsl: a particle's info word (gp_particle_info in gpuparticle.h): info.y holds the\n",
    "// kind (bits 0-7, GP_KIND_*), the flags (bits 8-15) and the phase (bits 16-31). The store's buffers\n",
    "// are in gp_buffers.glsl.\n",
    "uint gp_kind_of(uvec4 info) { return info.y & 0xffu; }\n",
    "uint gp_phase_of(uvec4 info) { return info.y >> 16u; }\n",
    "// Grains and rigid bodies' particles: the DEM's kinds, and the fluid's boundary (gp_coupling.glsl).\n",
    "bool gp_is_solid(uint kind) { return kind == GP_KIND_GRANULAR || kind == GP_KIND_RIGID; }\n",
    "// Dead: removed (GP_PARTICLE_DEAD, set by gp_particles_remove) or as old as its lifetime (0:\n",
    "// forever). The next grid build takes it out of the store and gives its id back (section >>grid).\n",
    "bool gp_dead(uvec4 info, vec2 life) { return (info.y & GP_PARTICLE_DEAD) != 0u || (life.y > 0.0 && life.x >= life.y); }\n",
    "// Bodies' and cloth's particles live as long as their owner: never aged, never removed alone.\n",
    "bool gp_owned(uint kind) { return kind == GP_KIND_RIGID || kind == GP_KIND_CLOTH; }\n",
    0
};
static const char* const gp__file_gp_quaternion_glsl[] = {
    "// gp_quaternion.glsl: rotations by unit quaternions (x, y, z, s), for the bodies' passes and\n",
    "// their drawing (Harada 2007, section 29.2).\n",
    "// v rotated by q (eq. 18), and the product a * b (its appendix).\n",
    "vec3 gp_rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }\n",
    "vec4 gp_quat_mul(vec4 a, vec4 b) { return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz)); }\n",
    0
};
static const char* const gp__file_gp_scan_glsl[] = {
    "// gp_scan.glsl: what scan_reduce and scan_block share. Needs gp_common.glsl first.\n",
    "//\n",
    "// The scan has no shared memory and no barrier: each invocation owns a chunk of GP_SCAN_CHUNK (32)\n",
    "// consecutive elements, eight uvec4. scan_reduce writes each chunk's sum; the host scans those sums\n",
    "// with the same two shaders (a level 32 times shorter, recursively); scan_block adds each chunk's\n",
    "// scanned offset to the running sum of its own elements. A workgroup barrier costs Mesa's\n",
    "// llvmpipe a fixed ~8 microseconds (it runs a workgroup as coroutines), which made barrier-based\n",
    "// block scans five times slower than a copy there; without barriers the scan reads its input\n",
    "// twice and writes once, at the full streaming speed of each device, and no invocation ever waits\n",
    "// for another.\n",
    "\n",
    "layout(location = 0) uniform uint u_count;   // elements in this level\n",
    "layout(location = 1) uniform uint u_flags;   // 1: the values are flags, counted as (value != 0)\n",
    "\n",
    "// The input, read 16 bytes at a time where four whole elements remain (twice the speed of single\n",
    "// words on llvmpipe, and the natural width of GPU loads), one word at a time in the ragged tail:\n",
    "// the buffer need not be a multiple of 16 bytes long.\n",
    "layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input_block { uint scan_input[]; };\n",
    "layout(std430, binding = GP_BINDING_SCAN_INPUT) readonly buffer scan_input4_block { uvec4 scan_input4[]; };\n",
    "\n",
    "uvec4 gp_scan_load4(uint e) {   // elements e ... e + 3 (e a multiple of 4); 0 past u_count\n",
    "    uvec4 v;\n",
    "    if (e + 3u < u_count) v = scan_input4[e >> 2u];\n",
    "    else v = uvec4(e < u_count ? scan_input[e] : 0u, e + 1u < u_count ? scan_input[e + 1u] : 0u,\n",
    "                   e + 2u < u_count ? scan_input[e + 2u] : 0u, 0u);\n",
    "    return u_flags != 0u ? uvec4(notEqual(v, uvec4(0u))) : v;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_solver_glsl[] = {
    "// gp_solver.glsl: the solvers' parameters, one std140 uniform block at binding 1.\n",
    "// Mirrored by gp__solver_params in gpuparticle.h (section >>structs), checked field by field by a test.\n",
    "\n",
    "// One fluid material (Harada et al. 2007a): its constants, kernel coefficients and wall weight\n",
    "// tables.\n",
    "struct gp_fluid {\n",
    "    vec4 shape;               // x spacing l0 (m), y smoothing radius re (m), z rest density (kg/m^3), w stiffness k\n",
    "    vec4 flow;                // x kinematic viscosity nu (m^2/s), y rest pressure p0 (Pa), z mass (kg), w 1 = allow tension\n",
    "    vec4 kernel;              // x poly6 315/(64 pi re^9), y spiky gradient 45/(pi re^6), z viscosity Laplacian 45/(pi re^6), w re^2\n",
    "    vec4 table;               // x the tables' sample spacing s (m): l0 / 2j with j whole, so that l0 / 2 is a sample\n",
    "    vec4 wall_density[8];     // Z_rho (eq. 13) at d = k s, k = 0..31, four per vec4 (kg/m^3)\n",
    "    vec4 wall_viscosity[8];   // the wall's share of the viscosity sum at the same distances (1/m^2)\n",
    "    vec4 wall_gradient[8];    // A, M_n and M_t of the walls' pressure term (gp_sph.glsl, gp_wall)\n",
    "    vec4 wall_normal[8];\n",
    "    vec4 wall_tangent[8];\n",
    "};\n",
    "\n",
    "// One granular material (Harada 2007): the contact parameters of its grains and of rigid particles\n",
    "// of its phase. contact = (stiffness k N/m, damping eta N s/m, shear k_t N s/m, friction mu),\n",
    "// grain = (diameter m, mass kg, shear spring k_s N/m (0: the viscous model), rolling friction mu_r).\n",
    "struct gp_granular { vec4 contact; vec4 grain; };\n",
    "\n",
    "// A user force: a = (center xyz, type 1 uniform / 2 radial), b = (vector xyz or strength in x, radius).\n",
    "struct gp_force_field { vec4 a; vec4 b; };\n",
    "\n",
    "// A collider (section >>colliders of gpuparticle.h fills these):\n",
    "//   a = (centre xyz, a capsule's first end xyz, a plane's point xyz, a mesh field's origin xyz, or\n",
    "//       a height field's first point (x, base y, z); shape type)\n",
    "//   b = sphere (0, 0, 0, radius); box (half extents, 0); capsule (its second end xyz, radius: the\n",
    "//       ends are centre -+ half_height axis); plane (unit normal, 0); mesh (samples along x, y, z\n",
    "//       as floats, voxel size); height field (points along x, along z, dx, dz)\n",
    "//   c = (side: -1 keeps particles inside the shape, +1 outside; mesh, height field: first\n",
    "//       sample's index as float bits; unused, unused)\n",
    "struct gp_collider_shape { vec4 a; vec4 b; vec4 c; };\n",
    "\n",
    "// One effect material (gp_effect_material_set): motion = (drag k 1/s, restitution e of a bounce,\n",
    "// friction mu, ride 1/s), contact = (restitution of collisions between effect particles, 0: none;\n",
    "// unused x3).\n",
    "struct gp_effect { vec4 motion; vec4 contact; };\n",
    "\n",
    "layout(std140, binding = 1) uniform gp_solver_block {\n",
    "    vec4 gp_gravity;          // xyz m/s^2, w the substep (s)\n",
    "    uvec4 gp_solver_counts;   // x colliders, y forces, z integrator (1 symplectic, 2 explicit\n",
    "                              // Euler; GP_INTEGRATOR_MASK) | GP_FLAG_ARTIFICIAL_VISCOSITY, w bodies\n",
    "    gp_fluid gp_fluids[GP_MAX_FLUID_MATERIALS];\n",
    "    gp_force_field gp_forces[GP_MAX_FORCES];\n",
    "    gp_collider_shape gp_colliders[GP_MAX_COLLIDERS];\n",
    "    gp_granular gp_granulars[GP_MAX_GRANULAR_MATERIALS];\n",
    "    gp_effect gp_effects[GP_MAX_EFFECT_MATERIALS];\n",
    "    vec4 gp_wind[6];   // the wind (gp_wind_set): uniform xyz; vortex centre xyz, speed; its unit axis xyz,\n",
    "                       // radius; the grid's first node xyz, cell (0: no grid); its nodes along x, y, z,\n",
    "                       // its first float in gp_field (uint bits);\n",
    "                       // curl noise: speed (0: none), scale, seed (uint bits)\n",
    "};\n",
    "\n",
    "// The user's forces at p (gp_forces_set).\n",
    "vec3 gp_user_forces(vec3 p) {\n",
    "    vec3 a = vec3(0.0);\n",
    "    for (uint f = 0u; f < gp_solver_counts.y; ++f) {\n",
    "        vec4 fa = gp_forces[f].a, fb = gp_forces[f].b;\n",
    "        vec3 d = fa.xyz - p;\n",
    "        float l = length(d);\n",
    "        if (fa.w == 1.0) {\n",
    "            if (fb.w <= 0.0 || l < fb.w) a += fb.xyz;\n",
    "        } else if (l > 0.0 && (fb.w <= 0.0 || l < fb.w)) {\n",
    "            a += (fb.x * (fb.w > 0.0 ? 1.0 - l / fb.w : 1.0) / l) * d;\n",
    "        }\n",
    "    }\n",
    "    return a;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_sort_glsl[] = {
    "// gp_sort.glsl: the compare-exchange of the bitonic sort of (key, value) pairs, shared by\n",
    "// sort_global and sort_local. Needs gp_common.glsl first.\n",
    "//\n",
    "// The network is the bitonic sorter drawn with every comparator facing the same way: each stage\n",
    "// of block size k starts with a \"flip\" (element o of a block against element k - 1 - o) and goes\n",
    "// on with half-cleaners (i against i + j, j = k/4 ... 1). Because no comparator ever faces the\n",
    "// other way, any length n works without padding: the missing elements past n count as +infinity\n",
    "// (ascending) or -infinity (descending), already in their place, so a comparator whose upper\n",
    "// element is past n is skipped. Pairs are ordered by key, then by value, so the sorted order is\n",
    "// unique and two runs agree bit for bit.\n",
    "//\n",
    "// No shared memory and no barrier (a barrier costs llvmpipe a fixed ~8 microseconds per\n",
    "// workgroup): steps shorter than GP_SORT_RUN run in one invocation's registers (sort_local),\n",
    "// longer ones as passes over the buffers, two half-cleaner levels per pass (sort_global).\n",
    "\n",
    "layout(location = 0) uniform uint u_count;\n",
    "layout(location = 1) uniform uint u_descending;\n",
    "\n",
    "// True when pair a must come after pair b.\n",
    "bool gp_sort_out_of_order(uint a_key, uint a_value, uint b_key, uint b_value) {\n",
    "    bool greater = a_key > b_key || (a_key == b_key && a_value > b_value);\n",
    "    bool less = a_key < b_key || (a_key == b_key && a_value < b_value);\n",
    "    return u_descending != 0u ? less : greater;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_sph_glsl[] = {
    "// gp_sph.glsl: what the SPH passes share (Harada et al. 2007a): the kernels and the wall weight\n",
    "// tables. Needs gp_common.glsl, gp_world.glsl, gp_grid.glsl, gp_particles.glsl, gp_solver.glsl and\n",
    "// gp_buffers.glsl first.\n",
    "\n",
    "// The material of a particle; phases beyond the table were refused when the particle was added.\n",
    "uint gp_material_of(uvec4 info) { return min(gp_phase_of(info), GP_MAX_FLUID_MATERIALS - 1u); }\n",
    "\n",
    "// Müller's kernels (Harada et al. 2007a, eqs. 8-10), r2 = |r|^2 < re^2 checked by the caller.\n",
    "// poly6 from its coefficient c = 315 / (64 pi re^9) and re^2, at r^2 < re^2: c (re^2 - r^2)^3. The\n",
    "// passes that sum it pass c and re^2 alone: a whole gp_fluid per call is slow on a software GL.\n",
    "float gp_poly6_of(float c, float re2, float r2) { float x = re2 - r2; return c * x * x * x; }\n",
    "float gp_poly6(gp_fluid f, float r2) { return gp_poly6_of(f.kernel.x, f.kernel.w, r2); }\n",
    "// |spiky gradient| / |r|: the gradient of W_press at r is -this * r.\n",
    "float gp_spiky_gradient(gp_fluid f, float r) { float x = f.shape.y - r; return f.kernel.y * x * x / r; }\n",
    "float gp_viscosity_laplacian(gp_fluid f, float r) { return f.kernel.z * (f.shape.y - r); }\n",
    "\n",
    "// The wall tables at distance d from a plane wall, linear between their 32 samples d = k s,\n",
    "// s = table.x, which reach re; 0 from re on (the last samples are 0): x density share, y\n",
    "// viscosity share, z A, w M_n, and in the second vec4 x M_t (see gp_wall below).\n",
    "void gp_wall_tables(uint m, float d, out vec4 first, out float second) {\n",
    "    // gp_fluids[m] read field by field: a copy of the whole material is slow on a software GL\n",
    "    float x = clamp(d / gp_fluids[m].table.x, 0.0, float(GP_WALL_SAMPLES - 1u));\n",
    "    uint k = min(uint(x), GP_WALL_SAMPLES - 2u), k1 = k + 1u, a = k >> 2u, b = k & 3u, c = k1 >> 2u, e = k1 & 3u;\n",
    "    first = mix(vec4(gp_fluids[m].wall_density[a][b], gp_fluids[m].wall_viscosity[a][b], gp_fluids[m].wall_gradient[a][b],\n",
    "                     gp_fluids[m].wall_normal[a][b]),\n",
    "                vec4(gp_fluids[m].wall_density[c][e], gp_fluids[m].wall_viscosity[c][e], gp_fluids[m].wall_gradient[c][e],\n",
    "                     gp_fluids[m].wall_normal[c][e]), x - float(k));\n",
    "    second = mix(gp_fluids[m].wall_tangent[a][b], gp_fluids[m].wall_tangent[c][e], x - float(k));\n",
    "}\n",
    "\n",
    "// Pressure from density, eq. 5, clamped at 0 unless the material allows tension.\n",
    "float gp_pressure(gp_fluid f, float rho) {\n",
    "    float p = f.flow.y + f.shape.w * (rho - f.shape.z);\n",
    "    return f.flow.w != 0.0 ? p : max(p, 0.0);\n",
    "}\n",
    "\n",
    "// What the walls' particles add for a fluid particle: they continue the fluid's lattice behind\n",
    "// each wall, at rest, at the rest density, with the pressure p_w = p_i + rho0 g . (x_w - x_i)\n",
    "// that a fluid at rest would have there (the hydrostatic continuation, as Adami et al. 2012 do\n",
    "// with wall particles). With e = x_i - x_w and K(r) e = -grad W_press (spiky, normalised):\n",
    "//   share.x  sum_w m W(r)                   the density share (eq. 13)\n",
    "//   share.y  sum_w V lap W_vis(r)           the viscosity share (V = m / rho0)\n",
    "//   a        sum_w V K(r) e                 so that the walls' pressure term of the force is\n",
    "//   mg       sum_w V K(r) e (g . e)         sum_w V (p_i + p_w) K e = 2 p_i a - rho0 mg\n",
    "// and the continuity model's wall term -2 rho0 v_i . a: the walls' particles are the particle's\n",
    "// mirror images, which share its pressure (the force's 2 p_i a) and close on it at twice its\n",
    "// speed along the normal, sum_w m (v_i - v_w) . grad W with v_w = v_i - 2 (v_i . n) n. The\n",
    "// pair is energy-consistent: what the walls' pressure takes from the particle's kinetic energy\n",
    "// is what its density stores (p_i / rho_i^2 per unit of density and mass). Counted once, as the\n",
    "// walls at rest, the continuity term stored half of it, and every wall contact that the walls'\n",
    "// pressure pushed back returned energy the fluid never gave (a dam break gained 3% before it\n",
    "// met the far wall and 40% after). For a plane wall\n",
    "// with normal n (towards the fluid) these come from the tables (tangent t): a = A(d) n,\n",
    "// mg = M_n(d) (g . n) n + M_t(d) (g - (g . n) n), A = sum V K e.n, M_n = sum V K (e.n)^2,\n",
    "// M_t = sum V K (e.t)^2. On the rest lattice with a uniform pressure the walls' and the fluid's\n",
    "// terms cancel exactly, and with p = rho0 |g| depth they hold the fluid up: a column at rest is\n",
    "// hydrostatic particle by particle. A wall the fluid hangs under (g . n > 0: a lid, an overhang)\n",
    "// takes no hydrostatic part along its normal, p_w = p_i there: the continuation would give it\n",
    "// less pressure than the particle and make it pull the fluid up against itself. Its table terms\n",
    "// take g less that component; an edge's or a corner's point sums take g whole, so that what\n",
    "// they correct ends up counted with g less the components away from every face it lies behind.\n",
    "// Above a free surface the continuation's pressure would be below zero and hold a particle with\n",
    "// no pressure up along a wall (it fell at 0.8 g, 0.7 g in a corner): the hydrostatic part is\n",
    "// scaled by gp_surface_fade, which is 1 inside the fluid and falls to 0 at zero pressure.\n",
    "struct gp_wall { vec2 share; vec3 a; vec3 mg; };\n",
    "\n",
    "// How much of the walls' hydrostatic part a particle with pressure p takes: all of it from the\n",
    "// pressure of a quarter spacing of fluid at rest (the top layer of a column at rest has twice\n",
    "// that), none at zero pressure, linearly between: at a free surface the wall particles above it\n",
    "// would carry negative pressure and pull.\n",
    "float gp_surface_fade(uint m, float p) {\n",
    "    float full = 0.25 * gp_fluids[m].shape.z * length(gp_gravity.xyz) * gp_fluids[m].shape.x;\n",
    "    return full > 0.0 ? clamp(p / full, 0.0, 1.0) : 1.0;\n",
    "}\n",
    "\n",
    "gp_wall gp_wall_none() { gp_wall w; w.share = vec2(0.0); w.a = vec3(0.0); w.mg = vec3(0.0); return w; }\n",
    "\n",
    "void gp_wall_add(inout gp_wall sum, gp_wall w, float sign) {\n",
    "    sum.share += sign * w.share; sum.a += sign * w.a; sum.mg += sign * w.mg;\n",
    "}\n",
    "\n",
    "// A plane wall at distance d with normal n, from the tables.\n",
    "gp_wall gp_wall_plane(uint m, vec3 n, float d) {\n",
    "    gp_wall w = gp_wall_none();\n",
    "    if (!(d < gp_fluids[m].shape.y)) return w;\n",
    "    vec4 t;\n",
    "    float tangent;\n",
    "    gp_wall_tables(m, d, t, tangent);\n",
    "    float gn = dot(gp_gravity.xyz, n);\n",
    "    w.share = t.xy;\n",
    "    w.a = t.z * n;\n",
    "    w.mg = t.w * min(gn, 0.0) * n + tangent * (gp_gravity.xyz - gn * n);\n",
    "    return w;\n",
    "}\n",
    "\n",
    "// One wall particle at e = x_i - x_w, added when within re; g: gravity.\n",
    "void gp_wall_point(uint m, vec3 e, vec3 g, inout gp_wall sum) {\n",
    "    vec4 shape = gp_fluids[m].shape, flow = gp_fluids[m].flow, kernel = gp_fluids[m].kernel;\n",
    "    float r2 = dot(e, e);\n",
    "    if (r2 >= kernel.w) return;\n",
    "    float r = sqrt(r2), x = shape.y - r, volume = flow.z / shape.z, q = kernel.w - r2;\n",
    "    float k = volume * kernel.y * x * x / r;\n",
    "    sum.share += vec2(flow.z * kernel.x * q * q * q, volume * kernel.z * x);\n",
    "    sum.a += k * e;\n",
    "    sum.mg += k * dot(g, e) * e;\n",
    "}\n",
    "\n",
    "// Two faces of a box meet at an edge: the wall particles behind both, (a + 1/2) l0 + da and\n",
    "// (b + 1/2) l0 + db behind them (a, b >= 0), c l0 along the edge, were counted by both faces'\n",
    "// tables, and are taken once away; three faces meet at a corner, where the particles behind all\n",
    "// three were counted three times and taken away three times, and are added once. On the rest\n",
    "// lattice (da = db = dc = l0 / 2) this is exactly the lattice outside the fluid. Summed here\n",
    "// rather than tabled: a few terms (12 and 1 at re = 2 l0), for particles within re of an edge.\n",
    "gp_wall gp_wall_edge(uint m, vec3 na, float da, vec3 nb, float db) {\n",
    "    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;\n",
    "    vec3 along = cross(na, nb), g = gp_gravity.xyz;\n",
    "    gp_wall sum = gp_wall_none();\n",
    "    for (int a = 0; ; ++a) {\n",
    "        float x = max(da, 0.0) + (float(a) + 0.5) * l0;\n",
    "        if (x * x >= re2) break;\n",
    "        for (int b = 0; ; ++b) {\n",
    "            float y = max(db, 0.0) + (float(b) + 0.5) * l0;\n",
    "            if (x * x + y * y >= re2) break;\n",
    "            vec3 e = x * na + y * nb;\n",
    "            gp_wall_point(m, e, g, sum);\n",
    "            for (int c = 1; x * x + y * y + float(c * c) * l0 * l0 < re2; ++c) {\n",
    "                gp_wall_point(m, e + float(c) * l0 * along, g, sum);\n",
    "                gp_wall_point(m, e - float(c) * l0 * along, g, sum);\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "    return sum;\n",
    "}\n",
    "gp_wall gp_wall_corner(uint m, vec3 d, vec3 normal) {\n",
    "    float l0 = gp_fluids[m].shape.x, re2 = gp_fluids[m].kernel.w;\n",
    "    vec3 o = max(d, vec3(0.0)) + 0.5 * l0, g = gp_gravity.xyz;\n",
    "    gp_wall sum = gp_wall_none();\n",
    "    for (int a = 0; ; ++a) {\n",
    "        float x = o.x + float(a) * l0;\n",
    "        if (x * x >= re2) break;\n",
    "        for (int b = 0; ; ++b) {\n",
    "            float y = o.y + float(b) * l0;\n",
    "            if (x * x + y * y >= re2) break;\n",
    "            for (int c = 0; ; ++c) {\n",
    "                float z = o.z + float(c) * l0;\n",
    "                if (x * x + y * y + z * z >= re2) break;\n",
    "                gp_wall_point(m, normal * vec3(x, y, z), g, sum);\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "    return sum;\n",
    "}\n",
    "\n",
    "// An edge's or a corner's share, taken away or added when every distance is within re.\n",
    "void gp_wall_edge_add(uint m, vec3 na, float da, vec3 nb, float db, inout gp_wall sum) {\n",
    "    float re = gp_fluids[m].shape.y;\n",
    "    if (da < re && db < re) gp_wall_add(sum, gp_wall_edge(m, na, da, nb, db), -1.0);\n",
    "}\n",
    "void gp_wall_corner_add(uint m, vec3 d, vec3 normal, inout gp_wall sum) {\n",
    "    if (all(lessThan(d, vec3(gp_fluids[m].shape.y)))) gp_wall_add(sum, gp_wall_corner(m, d, normal), 1.0);\n",
    "}\n",
    "\n",
    "// A container box: six plane walls, less what their edges counted twice, plus what their corners\n",
    "// then missed. low and high: the distances to the faces on the low and high side of each axis,\n",
    "// whose normals towards the fluid are +axis and -axis. Written out face by face, edge by edge:\n",
    "// a software GL runs local arrays indexed by loop counters very slowly.\n",
    "gp_wall gp_wall_box(uint m, vec3 low, vec3 high) {\n",
    "    const vec3 X = vec3(1.0, 0.0, 0.0), Y = vec3(0.0, 1.0, 0.0), Z = vec3(0.0, 0.0, 1.0);\n",
    "    float re = gp_fluids[m].shape.y;\n",
    "    gp_wall sum = gp_wall_plane(m, X, low.x);\n",
    "    gp_wall_add(sum, gp_wall_plane(m, -X, high.x), 1.0);\n",
    "    gp_wall_add(sum, gp_wall_plane(m, Y, low.y), 1.0);\n",
    "    gp_wall_add(sum, gp_wall_plane(m, -Y, high.y), 1.0);\n",
    "    gp_wall_add(sum, gp_wall_plane(m, Z, low.z), 1.0);\n",
    "    gp_wall_add(sum, gp_wall_plane(m, -Z, high.z), 1.0);\n",
    "    vec3 near = min(low, high);\n",
    "    if (int(near.x < re) + int(near.y < re) + int(near.z < re) < 2) return sum;   // near no edge\n",
    "    gp_wall_edge_add(m, X, low.x, Y, low.y, sum);\n",
    "    gp_wall_edge_add(m, X, low.x, -Y, high.y, sum);\n",
    "    gp_wall_edge_add(m, -X, high.x, Y, low.y, sum);\n",
    "    gp_wall_edge_add(m, -X, high.x, -Y, high.y, sum);\n",
    "    gp_wall_edge_add(m, Y, low.y, Z, low.z, sum);\n",
    "    gp_wall_edge_add(m, Y, low.y, -Z, high.z, sum);\n",
    "    gp_wall_edge_add(m, -Y, high.y, Z, low.z, sum);\n",
    "    gp_wall_edge_add(m, -Y, high.y, -Z, high.z, sum);\n",
    "    gp_wall_edge_add(m, Z, low.z, X, low.x, sum);\n",
    "    gp_wall_edge_add(m, Z, low.z, -X, high.x, sum);\n",
    "    gp_wall_edge_add(m, -Z, high.z, X, low.x, sum);\n",
    "    gp_wall_edge_add(m, -Z, high.z, -X, high.x, sum);\n",
    "    gp_wall_corner_add(m, vec3(low.x, low.y, low.z), vec3(1.0, 1.0, 1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(high.x, low.y, low.z), vec3(-1.0, 1.0, 1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(low.x, high.y, low.z), vec3(1.0, -1.0, 1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(high.x, high.y, low.z), vec3(-1.0, -1.0, 1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(low.x, low.y, high.z), vec3(1.0, 1.0, -1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(high.x, low.y, high.z), vec3(-1.0, 1.0, -1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(low.x, high.y, high.z), vec3(1.0, -1.0, -1.0), sum);\n",
    "    gp_wall_corner_add(m, vec3(high.x, high.y, high.z), vec3(-1.0, -1.0, -1.0), sum);\n",
    "    return sum;\n",
    "}\n",
    "\n",
    "// Every collider's wall at p: each at its own distance and normal, a container box face by face\n",
    "// (so that a particle in a tank's edge or corner sees the wall particles of two or three faces;\n",
    "// the nearest face alone leaves it 16% or 30% short of the rest density there).\n",
    "gp_wall gp_walls(uint m, vec3 p) {\n",
    "    gp_wall sum = gp_wall_none();\n",
    "    for (uint c = 0u; c < gp_solver_counts.x; ++c) {\n",
    "        gp_collider_shape s = gp_colliders[c];\n",
    "        if (s.a.w == GP_SHAPE_BOX && s.c.x < 0.0) {\n",
    "            gp_wall_add(sum, gp_wall_box(m, s.b.xyz + (p - s.a.xyz), s.b.xyz - (p - s.a.xyz)), 1.0);\n",
    "        } else {\n",
    "            vec4 d = gp_collider_distance(c, p);\n",
    "            gp_wall_add(sum, gp_wall_plane(m, d.xyz, d.w), 1.0);\n",
    "        }\n",
    "    }\n",
    "    return sum;\n",
    "}\n",
    0
};
static const char* const gp__file_gp_world_glsl[] = {
    "// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.\n",
    "// Mirrored by gp__world_params in gpuparticle.h (section >>structs), checked field by field by a test.\n",
    "layout(std140, binding = 0) uniform gp_world_block {\n",
    "    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cells per metre (1 / cell size)\n",
    "    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)\n",
    "    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (GP_FLAG_DETERMINISTIC)\n",
    "};\n",
    0
};
static const char* const gp__file_grid_carry_comp[] = {
    "#version 430 core\n",
    "// grid_carry: after grid_reorder, moves a system's per-slot blocks with their particles\n",
    "// (gp__grid_carry): the block of u_stride uvec4s that old slot s wrote at (capacity + s) u_stride\n",
    "// goes to the particle's new slot s' at s' u_stride, its head (the first uvec4) and the y of them\n",
    "// that follow it (at most u_stride - 1). Scatter (u_scatter 1): order[s] holds the new slot;\n",
    "// gather: order[s'] holds the old one.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_CARRY) buffer carry_block { uvec4 carried[]; };\n",
    "layout(location = 0) uniform uint u_stride;\n",
    "layout(location = 1) uniform uint u_scatter;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uint from = u_scatter != 0u ? i : order[i], to = u_scatter != 0u ? order[i] : i;\n",
    "    uint source = (gp_counts.z + from) * u_stride, destination = to * u_stride;\n",
    "    uvec4 head = carried[source];\n",
    "    carried[destination] = head;\n",
    "    uint n = min(head.y, u_stride - 1u);\n",
    "    for (uint k = 1u; k <= n; ++k) carried[destination + k] = carried[source + k];\n",
    "}\n",
    0
};
static const char* const gp__file_grid_count_comp[] = {
    "#version 430 core\n",
    "// grid_count: first pass of the counting sort that builds the neighbour grid. Each particle in the\n",
    "// store gets its bucket key and bumps that bucket's count with an atomic add, whose result is its\n",
    "// rank in the bucket: order[i] = rank, so that grid_reorder places it at cell_start[key] + rank\n",
    "// with no second atomic. Particles outside a bounded grid are clamped into border cells and\n",
    "// counted; particles with a NaN or infinite coordinate go to the extra bucket past the last and\n",
    "// are counted; the dead (gp_dead) go to the bucket after it, so that the build leaves them after\n",
    "// every live particle (the store's compaction). None is dropped. In deterministic mode order[i] is\n",
    "// the particle's id instead (the rank depends on timing), which grid_rank turns into the order of\n",
    "// ids in each bucket; when a bucket is crowded (more than GP_GRID_CROWD particles, counted in\n",
    "// stat_crowded) a (bucket, id) sort does it instead, over the host's bound of the count, u_slots:\n",
    "// the slots past the count take the last key and values of their own.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(location = 0) uniform uint u_slots;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= u_slots) return;\n",
    "    if (i >= gp_counts.x) {\n",
    "        cell_key[i] = 0xffffffffu;\n",
    "        order[i] = 2u * gp_counts.z + i;\n",
    "        return;\n",
    "    }\n",
    "    uvec4 info = gp_info[i];\n",
    "    vec3 p = gp_position[i].xyz;\n",
    "    uint key;\n",
    "    if (gp_dead(info, gp_life[i])) {\n",
    "        key = gp_grid_dead_bucket();\n",
    "    } else if (!gp_finite3(p)) {\n",
    "        key = gp_grid_invalid_bucket();\n",
    "        atomicAdd(stat_nonfinite, 1u);\n",
    "    } else {\n",
    "        vec3 c = gp_grid_cell_float(p);\n",
    "        if (!gp_grid_inside(c)) atomicAdd(stat_outside, 1u);\n",
    "        key = gp_grid_bucket(gp_grid_clamp_cell(c));\n",
    "    }\n",
    "    cell_key[i] = key;\n",
    "    uint rank = atomicAdd(cell_count[key], 1u);\n",
    "    if (rank >= uint(GP_GRID_CROWD)) atomicAdd(stat_crowded, 1u);   // grid_rank's plan, gp_grid_stats.crowded\n",
    "    order[i] = (gp_counts.w & GP_FLAG_DETERMINISTIC) != 0u ? info.x : rank;\n",
    "}\n",
    0
};
static const char* const gp__file_grid_ids_comp[] = {
    "#version 430 core\n",
    "// grid_ids: deterministic mode with a crowded bucket (grid_rank.comp), after the sort of (bucket,\n",
    "// id) pairs: order[k] holds an id; the slot of that particle replaces it, which turns the sorted\n",
    "// ids into the gather order of the reorder (grid_count wrote the ids).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    order[i] = slot_of_id[order[i]];\n",
    "}\n",
    0
};
static const char* const gp__file_grid_neighbors_comp[] = {
    "#version 430 core\n",
    "// grid_neighbors: for every particle, how many other particles lie closer than u_radius\n",
    "// (u_radius <= cell size), found through the grid with the neighbour loop every solver shares\n",
    "// (gp_neighbors.glsl), its hook counting the candidates within the radius.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_NEIGHBOR_COUNT) writeonly buffer neighbor_count_block { uint neighbor_count[]; };\n",
    "layout(location = 0) uniform float u_radius;\n",
    "\n",
    "// 1 when candidate slot k (< end, not self, in the visited cell) lies within the radius.\n",
    "uint gp_near(uint k, uint end, uint self, vec3 p, ivec3 cell, float radius2) {\n",
    "    if (k >= end || k == self) return 0u;\n",
    "    vec3 q = gp_position[k].xyz;\n",
    "    if (!gp_grid_same_cell(q, cell)) return 0u;\n",
    "    vec3 d = q - p;\n",
    "    return uint(dot(d, d) < radius2);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec3 p = gp_position[i].xyz;\n",
    "    uint found = 0u;\n",
    "    if (gp_finite3(p)) {\n",
    "        float radius2 = u_radius * u_radius;\n",
    "        vec3 gp_center = p;\n",
    "#define GP_NEIGHBOR_TERM(k, end, cell) gp_near(k, end, i, p, cell, radius2)\n",
    "#define GP_NEIGHBOR_SUM found\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    }\n",
    "    neighbor_count[i] = found;\n",
    "}\n",
    0
};
static const char* const gp__file_grid_rank_comp[] = {
    "#version 430 core\n",
    "// grid_rank: the deterministic build's order, each bucket's particles by ascending id, without a\n",
    "// sort. grid_count gave each particle its bucket (cell_key) and left its id in order; the scan\n",
    "// gave each bucket its range (cell_start). Three modes (u_mode):\n",
    "//   0, the plan (one invocation): unless a bucket is crowded (stat_crowded, grid_count), the\n",
    "//      next two modes' arguments are one invocation per particle and the sort's are zero; when\n",
    "//      one is, the other way round (the sort's invocations come from the host), since a\n",
    "//      particle's rank below costs as many reads as its bucket holds. Both ways give the one\n",
    "//      order (bucket, then id), so which one ran never shows in the results.\n",
    "//   1, filing: each particle writes (id, slot) into its bucket's range, at a place its bucket's\n",
    "//      count, counted down with an atomic, gives it (cell_count is spent once the scan has read it,\n",
    "//      and the next build clears it).\n",
    "//   2, ranking: each filed particle counts the ids below its own in its bucket's range; that is its\n",
    "//      place: order[cell_start + that] = its slot (the gather form the reorder takes).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(location = 0) uniform uint u_mode;\n",
    "layout(location = 1) uniform uint u_sort_local;     // the sort's invocations: in its local passes,\n",
    "layout(location = 2) uniform uint u_sort_half;      // its flips and single levels,\n",
    "layout(location = 3) uniform uint u_sort_quarter;   // its double levels (>>sort)\n",
    "\n",
    "// The three words of dispatch `which` (GP_ARGS_*: the header's order of gp_world.grid_args).\n",
    "void gp_rank_args(uint which, uvec3 groups) {\n",
    "    args[3u * which] = groups.x; args[3u * which + 1u] = groups.y; args[3u * which + 2u] = groups.z;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    if (u_mode == 0u) {\n",
    "        if (gp_global_index() != 0u) return;   // one workgroup is dispatched; one invocation plans\n",
    "        bool crowded = stat_crowded != 0u;\n",
    "        uvec3 none = uvec3(0u, 1u, 1u), each = gp_dispatch_groups(gp_counts.x, uint(GP_GROUP_SIZE));\n",
    "        gp_rank_args(GP_ARGS_RANK, crowded ? none : each);   // filing and ranking\n",
    "        gp_rank_args(GP_ARGS_IDS, crowded ? each : none);\n",
    "        gp_rank_args(GP_ARGS_SORT_LOCAL, crowded ? gp_dispatch_groups(u_sort_local, uint(GP_GROUP_SIZE)) : none);\n",
    "        gp_rank_args(GP_ARGS_SORT_HALF, crowded ? gp_dispatch_groups(u_sort_half, uint(GP_GROUP_SIZE)) : none);\n",
    "        gp_rank_args(GP_ARGS_SORT_QUARTER, crowded ? gp_dispatch_groups(u_sort_quarter, uint(GP_GROUP_SIZE)) : none);\n",
    "        return;\n",
    "    }\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    if (u_mode == 1u) {\n",
    "        uint key = cell_key[i];\n",
    "        uint place = atomicAdd(cell_count[key], 0xffffffffu) - 1u;   // the count down to 0, each once\n",
    "        ranked[cell_start[key] + place] = uvec2(order[i], i);\n",
    "        return;\n",
    "    }\n",
    "    uvec2 own = ranked[i];\n",
    "    uint key = cell_key[own.y], begin = cell_start[key], end = cell_start[key + 1u], below = 0u;\n",
    "    for (uint k = begin; k < end; ++k) below += uint(ranked[k].x < own.x);\n",
    "    order[begin + below] = own.y;\n",
    "}\n",
    0
};
static const char* const gp__file_grid_reorder_comp[] = {
    "#version 430 core\n",
    "// grid_reorder: moves particle attributes into cell order, 16 bytes at a time, and an 8-byte one\n",
    "// alongside when u_carry is 1. Three passes cover the store with its two spares: position (u_first\n",
    "// 1) carrying life, velocity carrying the fluid's density state when there is one, and info\n",
    "// (u_info 1), whose first word is the id: that pass also records where each particle now lives,\n",
    "// slot_of_id[id] = slot. Bodies, cloth and the deterministic sort find particles by id through it.\n",
    "// Scatter (u_scatter 1, the usual path): particle i goes to cell_start[key] + rank; the first pass\n",
    "// (u_first 1) computes that from grid_count's rank in order[i] and leaves it there for the others.\n",
    "// Random stores cost a CPU renderer less than random loads, which stall.\n",
    "// Gather (u_scatter 0, deterministic): slot k takes the particle order[k] (grid_ids wrote it).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_REORDER_SOURCE) readonly buffer source_block { uvec4 source[]; };\n",
    "layout(std430, binding = GP_BINDING_REORDER_DESTINATION) writeonly buffer destination_block { uvec4 destination[]; };\n",
    "layout(std430, binding = GP_BINDING_CARRIED_SOURCE) readonly buffer carried_source_block { uvec2 carried_source[]; };\n",
    "layout(std430, binding = GP_BINDING_CARRIED_DESTINATION) writeonly buffer carried_destination_block { uvec2 carried_destination[]; };\n",
    "layout(location = 0) uniform uint u_first;\n",
    "layout(location = 1) uniform uint u_info;\n",
    "layout(location = 2) uniform uint u_scatter;\n",
    "layout(location = 3) uniform uint u_carry;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uint from = i, to = i;\n",
    "    if (u_scatter == 0u) from = order[i];\n",
    "    else if (u_first != 0u) { to = cell_start[cell_key[i]] + order[i]; order[i] = to; }\n",
    "    else to = order[i];\n",
    "    uvec4 v = source[from];\n",
    "    destination[to] = v;\n",
    "    if (u_carry != 0u) carried_destination[to] = carried_source[from];\n",
    "    if (u_info != 0u) slot_of_id[v.x] = to;\n",
    "}\n",
    0
};
static const char* const gp__file_scan_block_comp[] = {
    "#version 430 core\n",
    "// scan_block: last pass of the exclusive prefix sum and of stream compaction (see gp_scan.glsl).\n",
    "// Invocation c scans its chunk of u_chunk inputs starting from chunk_offsets[c], the scanned sum\n",
    "// of every chunk before it. u_chunk is GP_SCAN_CHUNK, or for a short level (up to 1,024) the\n",
    "// whole level, scanned from 0 by invocation 0 alone: cheaper than two more dispatches.\n",
    "// Scan (u_flags 0): scan_output[i] = the sum of the inputs before i. Output may alias input:\n",
    "//   an invocation reads its chunk before it writes it, and no other touches them.\n",
    "// Compaction (u_flags 1): the inputs are flags; each flagged i is written to\n",
    "//   scan_output[its place], and the invocation holding the last element writes how many were\n",
    "//   flagged to count_words[u_count_word], where an indirect dispatch can read it.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_SCAN_OUTPUT) writeonly buffer scan_output_block { uint scan_output[]; };\n",
    "layout(std430, binding = GP_BINDING_SCAN_OUTPUT) writeonly buffer scan_output4_block { uvec4 scan_output4[]; };\n",
    "layout(std430, binding = GP_BINDING_CHUNK_OFFSETS) readonly buffer chunk_offsets_block { uint chunk_offsets[]; };\n",
    "layout(std430, binding = GP_BINDING_COUNT_WORDS) writeonly buffer count_block { uint count_words[]; };\n",
    "layout(location = 2) uniform uint u_has_offsets;   // 0: a single chunk, no offsets buffer bound\n",
    "layout(location = 3) uniform uint u_count_word;\n",
    "layout(location = 4) uniform uint u_chunk;         // elements per invocation, a multiple of 4\n",
    "\n",
    "// Writes the exclusive sums of one uvec4 of inputs v (elements e ... e + 3), or, compacting, the\n",
    "// indices of the flagged ones; returns the running sum after them.\n",
    "uint gp_scan_store4(uint e, uvec4 v, uint running) {\n",
    "    uvec4 sums = uvec4(running, running + v.x, running + v.x + v.y, running + v.x + v.y + v.z);\n",
    "    if (u_flags == 0u) {\n",
    "        if (e + 3u < u_count) scan_output4[e >> 2u] = sums;\n",
    "        else for (uint c = 0u; c < 3u; ++c) if (e + c < u_count) scan_output[e + c] = sums[c];\n",
    "    } else {\n",
    "        for (uint c = 0u; c < 4u; ++c) {\n",
    "            if (e + c >= u_count) break;\n",
    "            if (v[c] != 0u) scan_output[sums[c]] = e + c;\n",
    "            if (e + c == u_count - 1u) count_words[u_count_word] = sums[c] + v[c];\n",
    "        }\n",
    "    }\n",
    "    return sums.w + v.w;\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint chunk = gp_global_index();\n",
    "    uint first = chunk * u_chunk;\n",
    "    if (first >= u_count) return;\n",
    "    uint running = u_has_offsets != 0u ? chunk_offsets[chunk] : 0u;\n",
    "    for (uint k = 0u; k < u_chunk && first + k < u_count; k += 4u)\n",
    "        running = gp_scan_store4(first + k, gp_scan_load4(first + k), running);\n",
    "}\n",
    0
};
static const char* const gp__file_scan_reduce_comp[] = {
    "#version 430 core\n",
    "// scan_reduce: first pass of the exclusive prefix sum (see gp_scan.glsl): chunk_sums[c] = the sum\n",
    "// of chunk c's GP_SCAN_CHUNK inputs (or of its non-zero flags, compacting).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_CHUNK_SUMS) writeonly buffer chunk_sums_block { uint chunk_sums[]; };\n",
    "\n",
    "void main() {\n",
    "    uint chunk = gp_global_index();\n",
    "    uint first = chunk * GP_SCAN_CHUNK;\n",
    "    if (first >= u_count) return;\n",
    "    uvec4 s = uvec4(0u);\n",
    "    for (uint k = 0u; k < GP_SCAN_CHUNK; k += 4u) s += gp_scan_load4(first + k);\n",
    "    chunk_sums[chunk] = s.x + s.y + s.z + s.w;\n",
    "}\n",
    0
};
static const char* const gp__file_sort_global_comp[] = {
    "#version 430 core\n",
    "// sort_global: one or two steps of the bitonic network (see gp_sort.glsl) whose comparators reach\n",
    "// GP_SORT_RUN or further, straight on the buffers. u_distance 0: the flip of stage u_block, one\n",
    "// comparator per invocation. Otherwise half-cleaners: with u_levels 1, distance j, one comparator\n",
    "// per invocation; with u_levels 2, distances j and j/2 together, four elements per invocation\n",
    "// (i, i + j/2, i + j, i + 3j/2), which halves the passes over the buffers.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_SORT_KEYS) buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = GP_BINDING_SORT_VALUES) buffer values_block { uint values[]; };\n",
    "layout(location = 2) uniform uint u_block;      // k, the stage's block size\n",
    "layout(location = 3) uniform uint u_distance;   // j, or 0 for the stage's flip\n",
    "layout(location = 4) uniform uint u_invocations;\n",
    "layout(location = 5) uniform uint u_levels;\n",
    "\n",
    "void gp_compare_exchange(uint p, uint q) {\n",
    "    if (q >= u_count) return;\n",
    "    uint ak = keys[p], av = values[p], bk = keys[q], bv = values[q];\n",
    "    if (gp_sort_out_of_order(ak, av, bk, bv)) {\n",
    "        keys[p] = bk; values[p] = bv;\n",
    "        keys[q] = ak; values[q] = av;\n",
    "    }\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint t = gp_global_index();\n",
    "    if (t >= u_invocations) return;\n",
    "    uint j = u_distance;\n",
    "    if (j == 0u) {\n",
    "        uint half_k = u_block >> 1u;\n",
    "        uint block = (t / half_k) * u_block, o = t % half_k;\n",
    "        gp_compare_exchange(block + o, block + u_block - 1u - o);\n",
    "    } else if (u_levels == 1u) {\n",
    "        uint i = (t / j) * (j << 1u) + t % j;\n",
    "        gp_compare_exchange(i, i + j);\n",
    "    } else {\n",
    "        uint h = j >> 1u;\n",
    "        uint i = (t / h) * (j << 1u) + t % h;   // bits j and j/2 of i are clear\n",
    "        gp_compare_exchange(i, i + j);\n",
    "        gp_compare_exchange(i + h, i + j + h);\n",
    "        gp_compare_exchange(i, i + h);\n",
    "        gp_compare_exchange(i + j, i + j + h);\n",
    "    }\n",
    "}\n",
    0
};
static const char* const gp__file_sort_local_comp[] = {
    "#version 430 core\n",
    "// sort_local: the steps of the bitonic network (see gp_sort.glsl) that stay inside one run of\n",
    "// GP_SORT_RUN elements, done in one invocation's registers. With u_block 0 it sorts each run from\n",
    "// scratch (every stage k = 2 ... GP_SORT_RUN); otherwise it finishes stage u_block with the\n",
    "// half-cleaners j = GP_SORT_RUN / 2 ... 1 after sort_global did the longer ones.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = GP_BINDING_SORT_KEYS) buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = GP_BINDING_SORT_VALUES) buffer values_block { uint values[]; };\n",
    "layout(location = 2) uniform uint u_block;\n",
    "\n",
    "uint run_keys[GP_SORT_RUN];\n",
    "uint run_values[GP_SORT_RUN];\n",
    "uint run_base;\n",
    "\n",
    "void gp_run_compare_exchange(uint p, uint q) {\n",
    "    if (run_base + q >= u_count) return;\n",
    "    if (gp_sort_out_of_order(run_keys[p], run_values[p], run_keys[q], run_values[q])) {\n",
    "        uint k = run_keys[p], v = run_values[p];\n",
    "        run_keys[p] = run_keys[q]; run_values[p] = run_values[q];\n",
    "        run_keys[q] = k; run_values[q] = v;\n",
    "    }\n",
    "}\n",
    "\n",
    "// Each step is a loop of 8 comparators with a constant distance, so that the compiler unrolls it\n",
    "// and the run stays in registers (a variable index would put it in memory).\n",
    "#define GP_RUN_FLIP(k) for (uint t = 0u; t < GP_SORT_RUN / 2u; ++t) { uint o = t % ((k) / 2u), b = t / ((k) / 2u) * (k); gp_run_compare_exchange(b + o, b + (k) - 1u - o); }\n",
    "#define GP_RUN_HALF_CLEANER(j) for (uint t = 0u; t < GP_SORT_RUN / 2u; ++t) { uint i = t / (j) * 2u * (j) + t % (j); gp_run_compare_exchange(i, i + (j)); }\n",
    "\n",
    "void main() {\n",
    "    run_base = gp_global_index() * GP_SORT_RUN;\n",
    "    if (run_base >= u_count) return;\n",
    "    for (uint e = 0u; e < GP_SORT_RUN; ++e) {\n",
    "        bool live = run_base + e < u_count;\n",
    "        run_keys[e] = live ? keys[run_base + e] : 0u;\n",
    "        run_values[e] = live ? values[run_base + e] : 0u;\n",
    "    }\n",
    "    if (u_block == 0u) {   // stages 2, 4, 8, 16 from scratch\n",
    "        GP_RUN_FLIP(2u)\n",
    "        GP_RUN_FLIP(4u) GP_RUN_HALF_CLEANER(1u)\n",
    "        GP_RUN_FLIP(8u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)\n",
    "        GP_RUN_FLIP(16u) GP_RUN_HALF_CLEANER(4u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)\n",
    "    } else {               // the end of stage u_block\n",
    "        GP_RUN_HALF_CLEANER(8u) GP_RUN_HALF_CLEANER(4u) GP_RUN_HALF_CLEANER(2u) GP_RUN_HALF_CLEANER(1u)\n",
    "    }\n",
    "    for (uint e = 0u; e < GP_SORT_RUN; ++e)\n",
    "        if (run_base + e < u_count) { keys[run_base + e] = run_keys[e]; values[run_base + e] = run_values[e]; }\n",
    "}\n",
    0
};
static const char* const gp__file_sph_continuity_comp[] = {
    "#version 430 core\n",
    "// sph_continuity: the new density and pressure of every fluid particle of a continuity-model\n",
    "// material (sph_density does the others):\n",
    "//   rho_i' = rho_i + dt (sum_j m_j (v_i - v_j) . grad W_ij - 2 rho0 v_i . a + delta re c0 D_i)\n",
    "// from the density the particle carries (gp_state, 0: not yet set, rest density), with\n",
    "// D_i = sum_j 2 V_j (rho_i - rho_j - (rho_i^H - rho_j^H)) (x_ij . grad W_ij) / r_ij^2 over\n",
    "// neighbours of its material, the delta-SPH diffusion (Antuono et al. 2012) less its hydrostatic\n",
    "// part rho^H_i - rho^H_j = rho0 g . x_ij / c0^2, so that a column at rest keeps its pressure\n",
    "// gradient; -2 rho0 v_i . a is the walls' particles' term (gp_wall in gp_sph.glsl), with the same\n",
    "// normalised spiky gradient; where i's kernel lies wholly in its fluid, rho_i' also moves towards\n",
    "// the positions' summation density (the interior relaxation, below). sph_integrate stores rho_i'\n",
    "// as the new carried density; p_i from eq. 5. A pass of its own: llvmpipe runs a loop that no\n",
    "// invocation of a group takes, so one pass for both models made the summation model's substep\n",
    "// 50% slower. The neighbour loop is gp_neighbors.glsl's: 27 cells, 8 candidates per iteration,\n",
    "// shortfalls counted.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// What particle i needs of itself in the neighbour loop.\n",
    "struct gp_flow { vec3 p; vec3 v; float rho; float re; float re2; float spiky; float poly6; float hydro; float solid; float volume; uint slot; uint m; };\n",
    "\n",
    "// The kernel's first moment over the neighbours, sum_j V_j grad W_ij (V_j = m_j / rho0 of i's\n",
    "// material; solids as their volume), and whether a fluid of another material is among them:\n",
    "// what says that i's kernel is whole (below). Per invocation, summed by gp_continuity_term.\n",
    "vec3 gp_moment;\n",
    "bool gp_mixed;\n",
    "\n",
    "// The density particle k carries, its material's rest density until it has one.\n",
    "float gp_carried(uint k, uint m) { float r = gp_state[k].x; return r > 0.0 ? r : gp_fluids[m].shape.z; }\n",
    "\n",
    "// Adds candidate slot k's (m_k (v_i - v_k) . grad W, diffusion term, m_k W) when it is a fluid\n",
    "// particle of the visited cell; the diffusion only between particles of one material; the last,\n",
    "// the summation density of the positions (poly6), says whether i is at a free surface.\n",
    "void gp_continuity_term(uint k, uint end, gp_flow s, ivec3 cell, inout vec3 sum) {\n",
    "    if (k >= end || k == s.slot) return;\n",
    "    vec4 q = gp_position[k];\n",
    "    vec3 d = s.p - q.xyz;\n",
    "    float r2 = dot(d, d);\n",
    "    if (r2 >= s.re2 || !gp_grid_same_cell(q.xyz, cell)) return;\n",
    "    uvec4 info = gp_info[k];\n",
    "    uint kind = gp_kind_of(info);\n",
    "    if (kind != GP_KIND_FLUID && !gp_is_solid(kind)) return;\n",
    "    vec4 v = gp_velocity[k];\n",
    "    float mass = kind == GP_KIND_FLUID ? v.w : gp_solid_mass(s.solid, s.re2, q.w, kind);\n",
    "    sum.z += mass * gp_poly6_of(s.poly6, s.re2, r2);\n",
    "    if (r2 == 0.0) return;   // on top of another: no rate\n",
    "    float r = sqrt(r2), x = s.re - r;\n",
    "    vec3 grad = -(s.spiky * x * x / r) * d;   // grad_i W(x_i - x_k): towards k\n",
    "    if (kind != GP_KIND_FLUID) {   // a solid: its mass as gp_coupling.glsl has it, as a mirror (twice), no diffusion\n",
    "        sum.x += 2.0 * mass * dot(s.v - v.xyz, grad);\n",
    "        gp_moment += (mass * s.volume) * grad;\n",
    "        return;\n",
    "    }\n",
    "    uint m = gp_material_of(info);\n",
    "    sum.x += v.w * dot(s.v - v.xyz, grad);\n",
    "    gp_moment += (v.w * s.volume) * grad;\n",
    "    gp_mixed = gp_mixed || m != s.m;\n",
    "    if (m == s.m) {\n",
    "        float rho = gp_carried(k, m);\n",
    "        // over r^2, but never below (0.1 h)^2 (h = re / 2; the artificial viscosity's eta^2): the\n",
    "        // spiky kernel's slope stays finite at r = 0, and two free-surface particles that drifted\n",
    "        // within 0.03 spacing traded 40 kg/m^3 in a substep and flew apart at 2.7 m/s\n",
    "        // (sph_pair_on_top_parts_gently). No pair a tenth of a spacing apart or more feels it.\n",
    "        sum.y += 2.0 * (v.w / rho) * (s.rho - rho - s.hydro * dot(gp_gravity.xyz, d)) * dot(d, grad) / max(r2, 0.0025 * s.re2);\n",
    "    }\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    vec3 p = gp_position[i].xyz;\n",
    "    uint m = gp_material_of(info);\n",
    "    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p) || gp_fluids[m].table.y == 0.0) return;   // sph_density's\n",
    "    vec4 shape = gp_fluids[m].shape, kernel = gp_fluids[m].kernel, table = gp_fluids[m].table;   // not the whole material: slow\n",
    "    gp_flow s;\n",
    "    s.p = p;\n",
    "    s.v = gp_velocity[i].xyz;\n",
    "    s.rho = gp_carried(i, m);\n",
    "    s.re = shape.y;\n",
    "    s.re2 = kernel.w;\n",
    "    s.spiky = kernel.y;\n",
    "    s.poly6 = kernel.x;\n",
    "    s.hydro = shape.z / shape.w;   // rho0 / c0^2\n",
    "    s.solid = gp_solid_scale(gp_fluids[m].flow.z, shape.x);\n",
    "    s.volume = 1.0 / shape.z;\n",
    "    s.slot = i;\n",
    "    s.m = m;\n",
    "    vec3 sum = vec3(0.0);\n",
    "    gp_moment = vec3(0.0);\n",
    "    gp_mixed = false;\n",
    "    vec3 gp_center = p;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_continuity_term(k, end, s, cell, sum)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    // the walls' particles, the particle's mirror images: -2 rho0 v_i . a (gp_wall)\n",
    "    gp_wall walls = gp_walls(m, p);\n",
    "    float rate = sum.x + table.z * s.re * sqrt(shape.w) * sum.y - 2.0 * shape.z * dot(s.v, walls.a);\n",
    "    float rho = s.rho + gp_gravity.w * rate;\n",
    "    // Without tension the carried density has a floor. At a free surface (spray) it is the\n",
    "    // density of zero pressure, rho0 - p0 / k: where the flow spreads there a particle keeps the\n",
    "    // density at which it presses back as soon as it is squeezed again. Unclamped, spray fell to\n",
    "    // rho0 / 100 and had to be compressed 100 times before it pushed back: a dam break blew up\n",
    "    // where it met the far wall. The clamp of incompressible SPH's densities (Ihmsen\n",
    "    // et al. 2014, Bender and Koschier 2015). Elsewhere the floor lets the density remember an\n",
    "    // expansion of up to 0.005 rho0 below that, as far as the positions' own summation density\n",
    "    // (filled, below) shows one: a floor at the density of zero pressure forgot every expansion,\n",
    "    // and a flow that spreads and closes again over and over grew (a dam break's fluid took 10%\n",
    "    // more room than its volume after 2 s of sloshing, 6% with this floor). 0.005 rho0 is about\n",
    "    // a weakly compressible flow's own density swing, (u / c0)^2: remembered a little at each\n",
    "    // swing, the expansion is given back over the swings, and 0.2-2% floors gave back about as\n",
    "    // much. Deeper floors threw faster splashes: a block of water dropped onto a floor, started\n",
    "    // at 14 heights, threw its fastest droplet at 4.9 m/s on average with this floor as with\n",
    "    // none, 5.5 with 1% and 6.3 with 2% (bench/RESULTS.md). With tension, rho0 / 100. A\n",
    "    // blow-up keeps the old density.\n",
    "    // At a free surface the pressure is zero: a particle whose neighbourhood the fluid fills less\n",
    "    // than 3/4 (the summation density of the positions, its own share, the solids' and the walls'\n",
    "    // included, below 0.75 rho0: the threshold Marrone et al. 2010 put on their free-surface\n",
    "    // indicator) carries no more than the density of zero pressure. The clamp above keeps a\n",
    "    // density that the flow took away, so a surface particle that leaves the fluid and comes back\n",
    "    // is squeezed from rho0 each time, and the fluid pumped itself up: a block of water dropped\n",
    "    // onto a floor splashed at 10 m/s and its energy grew fourfold in 1.5 s. Without\n",
    "    // tension only.\n",
    "    bool tension = gp_fluids[m].flow.w != 0.0;\n",
    "    float least = tension ? 0.01 * shape.z : max(shape.z - gp_fluids[m].flow.y / shape.w, 0.01 * shape.z);\n",
    "    float filled = sum.z + gp_velocity[i].w * gp_poly6_of(s.poly6, s.re2, 0.0) + walls.share.x;   // its own mass too\n",
    "    bool surface = !tension && filled < 0.75 * shape.z;\n",
    "    float floor_density = tension || surface ? least : max(min(least, filled), least - 0.005 * shape.z);\n",
    "    // The carried density drifts from the positions': the rate is the spiky kernel's, which reads a\n",
    "    // disordered packing of the same particles as denser (it is convex; sigma = 0.15 spacings of\n",
    "    // disorder reads 4% denser through it, 0.9% through poly6), and the floor above forgets\n",
    "    // expansions; nothing brought the two together again, and a sloshing fluid took 5% more room\n",
    "    // than its volume (sph_dam_break_keeps_volume), a floating box rode 6 mm high. Where i's\n",
    "    // kernel is whole (one material, the first moment |sum_j V_j grad W_ij - a| re under 0.3:\n",
    "    // a half space gives 1.5, a particle half a smoothing radius under a free surface 0.28), its\n",
    "    // carried density moves towards the positions' summation density (filled) at the rate\n",
    "    // 0.01 c0 / re, a hundred times the time sound takes to cross the kernel: slow against the\n",
    "    // pressure waves, fast against the drift (bench/notes/fluid_volume_growth_while_sloshing.md).\n",
    "    if (!surface && !gp_mixed && length(gp_moment - walls.a) * s.re < 0.3)\n",
    "        rho += min(0.01 * sqrt(shape.w) * gp_gravity.w / s.re, 1.0) * (filled - rho);\n",
    "    rho = gp_finite(rho) ? max(rho, floor_density) : s.rho;\n",
    "    if (surface) rho = min(rho, least);\n",
    "    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));\n",
    "    atomicMin(stat_min_density, floatBitsToUint(rho));\n",
    "    atomicMax(stat_max_density, floatBitsToUint(rho));\n",
    "}\n",
    0
};
static const char* const gp__file_sph_density_comp[] = {
    "#version 430 core\n",
    "// sph_density: density and pressure of every fluid particle of a summation-model material (Harada\n",
    "// et al. 2007, section 4.4; sph_continuity does the others):\n",
    "// rho_i = sum_j m_j W(r_ij) over fluid neighbours within re, itself included (eqs. 4, 10), plus\n",
    "// the wall weight function at the particle's distance to the boundary (eq. 13); p_i from eq. 5.\n",
    "// Other kinds get (0, 0), which tells the force pass to skip them. The neighbour loop is\n",
    "// gp_neighbors.glsl's: 27 cells, 8 candidates per iteration, shortfalls counted.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// m_k W(|x_k - p|) when candidate slot k (< end) is a fluid particle of the visited cell, or a\n",
    "// solid one with the mass it stands for (gp_coupling.glsl; solid: gp_solid_scale of i's material).\n",
    "float gp_density_term(uint k, uint end, vec3 p, ivec3 cell, float re2, float poly6, float solid) {\n",
    "    if (k >= end) return 0.0;\n",
    "    vec4 q = gp_position[k];\n",
    "    vec3 d = q.xyz - p;\n",
    "    float r2 = dot(d, d);\n",
    "    if (r2 >= re2 || !gp_grid_same_cell(q.xyz, cell)) return 0.0;\n",
    "    uint kind = gp_kind_of(gp_info[k]);\n",
    "    float mass = kind == GP_KIND_FLUID ? gp_velocity[k].w : gp_is_solid(kind) ? gp_solid_mass(solid, re2, q.w, kind) : 0.0;\n",
    "    return mass * gp_poly6_of(poly6, re2, r2);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    vec3 p = gp_position[i].xyz;\n",
    "    if (gp_kind_of(info) != GP_KIND_FLUID || !gp_finite3(p)) { gp_density[i] = vec2(0.0); return; }\n",
    "    uint m = gp_material_of(info);\n",
    "    if (gp_fluids[m].table.y != 0.0) return;   // the continuity model: sph_continuity's\n",
    "    float re2 = gp_fluids[m].kernel.w, poly6 = gp_fluids[m].kernel.x, solid = gp_solid_scale(gp_fluids[m].flow.z, gp_fluids[m].shape.x);\n",
    "    float rho = 0.0;\n",
    "    vec3 gp_center = p;\n",
    "#define GP_NEIGHBOR_TERM(k, end, cell) gp_density_term(k, end, p, cell, re2, poly6, solid)\n",
    "#define GP_NEIGHBOR_SUM rho\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    rho += gp_walls(m, p).share.x;\n",
    "    gp_density[i] = vec2(rho, gp_pressure(gp_fluids[m], rho));\n",
    "    atomicMin(stat_min_density, floatBitsToUint(rho));\n",
    "    atomicMax(stat_max_density, floatBitsToUint(rho));\n",
    "}\n",
    0
};
static const char* const gp__file_sph_force_comp[] = {
    "#version 430 core\n",
    "// sph_force: the acceleration of every fluid particle (Harada et al. 2007a, section 4.5):\n",
    "//   pressure force  f_p = -sum_j m_j (p_i + p_j) / (2 rho_j) grad W_press(r_ij)   (eqs. 6, 8)\n",
    "//                   + 2 p_i a - rho0 mg, the walls' particles with the pressure of a fluid at\n",
    "//                     rest continued behind the wall (gp_wall in gp_sph.glsl)\n",
    "//   viscosity force f_v = mu sum_j m_j (v_j - v_i) / rho_j lap W_vis(r_ij)         (eqs. 7, 9)\n",
    "//                         + mu (0 - v_i) Z_vis(d), the walls' share (static walls)\n",
    "//   artificial viscosity (Monaghan 1992, per material, default off): p_i + p_j gains\n",
    "//                   rho_i rho_j Pi_ij for a closing pair, Pi_ij = alpha c h mu_ij / rho_ij\n",
    "//   a = (f_p + f_v) / rho_i + gravity + the user's forces\n",
    "// with mu = nu rho0 and j over the fluid neighbours within re (density > 0, set by sph_density).\n",
    "// The pressure gradient is Müller's spiky (re - r)^2 (the paper prints the power as 3), the\n",
    "// viscosity Laplacian 45 / (pi re^6) (re - r). Eq. 6 halves p_i + p_j; that average estimates\n",
    "// only half of grad p in a full neighbourhood (the p_i half sums to about zero), so that a column\n",
    "// at rest would hold twice the hydrostatic pressure: the sum here takes p_i + p_j whole. The\n",
    "// walls' push of eq. 11 is applied in sph_integrate, as the displacement it stands for: a last\n",
    "// guard, since the walls' pressure term holds particles off the wall.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "// What particle i needs of itself in the loop.\n",
    "struct gp_self { vec3 p; vec3 v; float pressure; float rho; float re; float re2; float spiky; float laplacian; float av; float h;\n",
    "                 float rho0; float solid; bool any_av; uint slot; };\n",
    "\n",
    "// Adds candidate slot k's pressure and viscosity terms (without the coefficients mu and 1/rho_i).\n",
    "void gp_force_term(uint k, uint end, gp_self s, ivec3 cell, inout vec3 pressure, inout vec3 viscosity) {\n",
    "    if (k >= end || k == s.slot) return;\n",
    "    vec3 q = gp_position[k].xyz;\n",
    "    vec3 d = s.p - q;\n",
    "    float r2 = dot(d, d);\n",
    "    if (r2 >= s.re2 || r2 == 0.0 || !gp_grid_same_cell(q, cell)) return;\n",
    "    vec2 rho_p = gp_density[k];\n",
    "    vec4 v = gp_velocity[k];\n",
    "    if (rho_p.x <= 0.0) {   // not fluid: a solid is a boundary particle (gp_coupling.glsl)\n",
    "        uint kind = gp_kind_of(gp_info[k]);\n",
    "        if (gp_is_solid(kind))\n",
    "            gp_coupling_terms(s.re, s.spiky, s.laplacian, s.rho0, d, r2, s.v, s.pressure, v.xyz, rho_p.y,\n",
    "                              gp_solid_mass(s.solid, s.re2, gp_position[k].w, kind), pressure, viscosity);\n",
    "        return;\n",
    "    }\n",
    "    float r = sqrt(r2), x = s.re - r;\n",
    "    float mass_over_rho = v.w / rho_p.x;\n",
    "    // Monaghan's artificial viscosity: a closing pair's pseudo-pressure rho_i rho_j Pi_ij, with the\n",
    "    // pair's mean alpha c and h, so that the pair's forces stay equal and opposite across materials\n",
    "    float closing = dot(s.v - v.xyz, d), pseudo = 0.0;\n",
    "    if (s.any_av && closing < 0.0) {\n",
    "        uint mk = gp_material_of(gp_info[k]);\n",
    "        float hk = 0.5 * gp_fluids[mk].shape.y, h = 0.5 * (s.h + hk);\n",
    "        float av = 0.5 * (s.av + gp_fluids[mk].table.w * sqrt(gp_fluids[mk].shape.w) * hk);\n",
    "        pseudo = -av * (h * closing / (r2 + 0.01 * h * h)) * s.rho * rho_p.x / (0.5 * (s.rho + rho_p.x));\n",
    "    }\n",
    "    pressure += (mass_over_rho * (s.pressure + rho_p.y + pseudo) * s.spiky * x * x / r) * d;\n",
    "    viscosity += (mass_over_rho * s.laplacian * x) * (v.xyz - s.v);\n",
    "}\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec2 own = gp_density[i];\n",
    "    if (own.x <= 0.0) { gp_acceleration[i] = vec4(0.0); return; }   // not fluid, or not finite\n",
    "    uint m = gp_material_of(gp_info[i]);\n",
    "    gp_self s;\n",
    "    s.p = gp_position[i].xyz;\n",
    "    s.v = gp_velocity[i].xyz;\n",
    "    s.pressure = own.y;\n",
    "    s.re = gp_fluids[m].shape.y;\n",
    "    s.re2 = gp_fluids[m].kernel.w;\n",
    "    s.spiky = gp_fluids[m].kernel.y;\n",
    "    s.laplacian = gp_fluids[m].kernel.z;\n",
    "    s.rho = own.x;\n",
    "    s.h = 0.5 * s.re;\n",
    "    s.av = gp_fluids[m].table.w * sqrt(gp_fluids[m].shape.w) * s.h;   // alpha c h\n",
    "    s.any_av = (gp_solver_counts.z & GP_FLAG_ARTIFICIAL_VISCOSITY) != 0u;\n",
    "    s.rho0 = gp_fluids[m].shape.z;\n",
    "    s.solid = gp_solid_scale(gp_fluids[m].flow.z, gp_fluids[m].shape.x);\n",
    "    s.slot = i;\n",
    "    vec3 pressure = vec3(0.0), viscosity = vec3(0.0);\n",
    "    vec3 gp_center = s.p;\n",
    "#define GP_NEIGHBOR_VISIT(k, end, cell) gp_force_term(k, end, s, cell, pressure, viscosity)\n",
    "#define GP_NEIGHBOR_BATCH 8\n",
    "    gp_wall walls = gp_walls(m, s.p);\n",
    "    viscosity -= walls.share.y * s.v;\n",
    "    // the walls' particles (gp_wall); their hydrostatic part fades out at the free surface\n",
    "    pressure += 2.0 * s.pressure * walls.a - gp_surface_fade(m, s.pressure) * gp_fluids[m].shape.z * walls.mg;\n",
    "    float mu = gp_fluids[m].flow.x * gp_fluids[m].shape.z;\n",
    "    vec3 a = (pressure + mu * viscosity) / own.x + gp_gravity.xyz + gp_user_forces(s.p);\n",
    "    gp_acceleration[i] = vec4(a, 0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_sph_integrate_comp[] = {
    "#version 430 core\n",
    "// sph_integrate: moves every fluid particle by the acceleration of sph_force over one substep\n",
    "// (Harada et al. 2007a, section 4.6), then keeps it off the walls:\n",
    "//   symplectic Euler (default): v' = v + a dt, x' = x + v' dt\n",
    "//   explicit Euler (eq. 14):    x' = x + v dt, v' = v + a dt\n",
    "// then the walls' push (eq. 11, below); a particle of the continuity model keeps the density\n",
    "// sph_continuity found for this substep as the one it carries. An\n",
    "// update that is not finite (a blow-up) is not applied: the particle keeps its position, stops,\n",
    "// and is counted, so that nothing is lost and nothing spreads NaN to its neighbours.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    if (gp_density[i].x <= 0.0) return;   // not fluid, or its position is not finite\n",
    "    vec3 x = gp_position[i].xyz, xn, vn;\n",
    "    gp_integrate(x, gp_velocity[i].xyz, gp_acceleration[i].xyz, xn, vn);\n",
    "    // Eq. 11: F = m (d - |r_iw|) n / dt^2 moves a particle closer than the rest distance d back\n",
    "    // to it within the substep. Applied as that displacement (its velocity into the wall\n",
    "    // removed) rather than as a force whose velocity would outlast the substep and pump energy\n",
    "    // into the fluid at every wall contact. d is half a spacing: a particle touching the wall,\n",
    "    // the lattice the wall weight tables assume. A few rounds settle corners where walls meet.\n",
    "    float rest = 0.5 * gp_fluids[gp_material_of(gp_info[i])].shape.x;\n",
    "    vec4 wall = gp_boundary(xn);\n",
    "    if (wall.w < rest) {\n",
    "        for (int round = 0; round < 4 && wall.w < rest; ++round) {\n",
    "            xn += (rest - wall.w) * wall.xyz;\n",
    "            float into = dot(vn, wall.xyz);\n",
    "            if (into < 0.0) vn -= into * wall.xyz;\n",
    "            wall = gp_boundary(xn);\n",
    "        }\n",
    "        if (wall.w < 0.0 && gp_boundary(x).w >= wall.w) { xn = x; vn = vec3(0.0); }   // never end inside\n",
    "        atomicAdd(stat_wall_pushes, 1u);\n",
    "    }\n",
    "    if (gp_fluids[gp_material_of(gp_info[i])].table.y != 0.0) gp_state[i] = vec2(gp_density[i].x, 0.0);\n",
    "    gp_integrate_store(i, xn, vn);\n",
    "}\n",
    0
};
static const char* const gp__file_spray_emit_comp[] = {
    "#version 430 core\n",
    "// spray_emit: the second pass of a spray emitter (section >>emitters): birth j of the substep\n",
    "// (j below both the sources the compaction listed, store_spray, and the emitter's limit u_limit)\n",
    "// springs from source j, the fluid particle at slot sources[j]: an effect particle within the\n",
    "// emitter's radius of it, with its velocity plus a random part of up to speed[1] m/s in a uniform\n",
    "// direction, a lifetime from the range. Slot and id as emitter_emit's: after the store's count,\n",
    "// a never-used id or the oldest given back. Reads the fluid's particles (>>sph's kind).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_SCAN_OUTPUT) readonly buffer scan_output_block { uint sources[]; };\n",
    "layout(location = 0) uniform uint u_limit;\n",
    "layout(location = 1) uniform uint u_emitter;\n",
    "\n",
    "void main() {\n",
    "    uint j = gp_global_index();\n",
    "    if (j >= min(u_limit, store_spray)) return;\n",
    "    uint slot, id;\n",
    "    if (!gp_birth(j, gp_emission.z, gp_emission.w, slot, id)) return;\n",
    "    uint source = sources[j];\n",
    "    vec4 extent = gp_emitters[u_emitter].extent, motion = gp_emitters[u_emitter].motion, life = gp_emitters[u_emitter].life;\n",
    "    uvec4 info = gp_emitters[u_emitter].info;\n",
    "    uint seed = info.w ^ (gp_emitters[u_emitter].births.z * 0x9e3779b9u);   // the substep's serial mixed in\n",
    "    vec3 a = gp_random3(seed, j, 3u), b = gp_random3(seed, j, 4u);\n",
    "    float z = 2.0 * a.x - 1.0, phi = 6.28318530718 * a.y, z2 = 2.0 * b.x - 1.0, psi = 6.28318530718 * b.y;\n",
    "    vec3 offset = extent.w * pow(a.z, 1.0 / 3.0) * vec3(sqrt(max(1.0 - z * z, 0.0)) * vec2(cos(phi), sin(phi)), z);\n",
    "    vec3 kick = motion.y * b.z * vec3(sqrt(max(1.0 - z2 * z2, 0.0)) * vec2(cos(psi), sin(psi)), z2);\n",
    "    gp_birth_write(slot, id, gp_position[source].xyz + offset, gp_velocity[source].xyz + kick, motion.zw, info.xyz,\n",
    "                   mix(life.x, life.y, gp_random3(seed, j, 5u).x));\n",
    "}\n",
    0
};
static const char* const gp__file_spray_flags_comp[] = {
    "#version 430 core\n",
    "// spray_flags: the first pass of a spray emitter (GP_EMITTER_SPRAY, section >>emitters): a flag per\n",
    "// slot of the host's bound of the count, 1 where a fluid particle faster than the emitter's speed\n",
    "// gives birth this substep (a chance of rate x h, drawn by gp_random3 of the emitter's seed, the\n",
    "// particle's id and the substep's serial number: the same in every run), 0 elsewhere and past the\n",
    "// count. The library's compaction then lists the flagged slots in order (the spray's sources).\n",
    "// Reads the fluid's particles (>>sph's kind).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_SCAN_INPUT) writeonly buffer scan_input_block { uint flags[]; };\n",
    "layout(location = 0) uniform uint u_slots;\n",
    "layout(location = 1) uniform uint u_emitter;\n",
    "layout(location = 2) uniform float u_chance;   // rate x h: a source's chance of a birth this substep\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= u_slots) return;\n",
    "    uint flag = 0u;\n",
    "    if (i < gp_counts.x) {\n",
    "        uvec4 info = gp_info[i], e = gp_emitters[u_emitter].info;\n",
    "        vec3 v = gp_velocity[i].xyz;\n",
    "        if (gp_kind_of(info) == GP_KIND_FLUID && (info.y & GP_PARTICLE_DEAD) == 0u && gp_finite3(v) &&\n",
    "            dot(v, v) > gp_emitters[u_emitter].motion.x * gp_emitters[u_emitter].motion.x &&\n",
    "            gp_random3(e.w, info.x, gp_emitters[u_emitter].births.z).x < u_chance)\n",
    "            flag = 1u;\n",
    "    }\n",
    "    flags[i] = flag;\n",
    "}\n",
    0
};
static const char* const gp__file_sprite_depth_comp[] = {
    "#version 430 core\n",
    "// sprite_depth: the first pass of gp_draw_effects (section >>draw): a sort key and a value per\n",
    "// slot of the host's bound of the count. A live effect particle's key orders by its distance in\n",
    "// front of the camera, the farthest first (the key of minus its depth: alpha blending draws back\n",
    "// to front); every other slot (another kind, dead, or past the count) takes the last key and is\n",
    "// not drawn. The value is the slot, which the sort carries along.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_SORT_KEYS) writeonly buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = GP_BINDING_SORT_VALUES) writeonly buffer values_block { uint values[]; };\n",
    "layout(location = 0) uniform uint u_slots;\n",
    "layout(location = 1) uniform vec4 u_view_z;   // the view matrix's third row: view-space z = dot(row, (p, 1))\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= u_slots) return;\n",
    "    uint key = 0xffffffffu;\n",
    "    if (i < gp_counts.x) {\n",
    "        uvec4 info = gp_info[i];\n",
    "        if (gp_kind_of(info) == GP_KIND_EFFECT && !gp_dead(info, gp_life[i]))\n",
    "            key = min(gp_float_key(dot(u_view_z, vec4(gp_position[i].xyz, 1.0))), 0xfffffffeu);   // -depth: the farthest first\n",
    "    }\n",
    "    keys[i] = key;\n",
    "    values[i] = i;\n",
    "}\n",
    0
};
static const char* const gp__file_sprite_gather_comp[] = {
    "#version 430 core\n",
    "// sprite_gather: the second pass of gp_draw_effects (section >>draw), after the sort: sprite k\n",
    "// draws the particle the k-th value names, in drawing order: its centre and its radius times its\n",
    "// emitter's size curve at its age, its emitter's colour there (an effect particle of no emitter:\n",
    "// its radius, white). A slot with the last key (no live effect particle) gets size 0: no pixel.\n",
    "// Reads the emitters' curves (>>emitters) and the effect particles' store.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_SORT_KEYS) readonly buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = GP_BINDING_SORT_VALUES) readonly buffer values_block { uint values[]; };\n",
    "layout(std430, binding = GP_BINDING_SPRITES) writeonly buffer sprite_block { vec4 sprites[]; };   // centre and size, colour\n",
    "layout(location = 0) uniform uint u_slots;\n",
    "\n",
    "void main() {\n",
    "    uint k = gp_global_index();\n",
    "    if (k >= u_slots) return;\n",
    "    if (keys[k] == 0xffffffffu) { sprites[2u * k] = vec4(0.0); sprites[2u * k + 1u] = vec4(0.0); return; }\n",
    "    uint i = values[k], owner = gp_info[i].z;\n",
    "    vec4 p = gp_position[i], color = vec4(1.0);\n",
    "    float size = 1.0;\n",
    "    if (owner < GP_MAX_EMITTERS) size = gp_emitter_look(owner, gp_life[i], color);\n",
    "    sprites[2u * k] = vec4(p.xyz, p.w * size);\n",
    "    sprites[2u * k + 1u] = color;\n",
    "}\n",
    0
};
static const char* const gp__file_step_clock_comp[] = {
    "#version 430 core\n",
    "// step_clock: the length of the substep about to run, chosen on the GPU from the speeds the\n",
    "// substep before left: a speed that jumps within a step must shorten the substeps of that step,\n",
    "// not those of the step after next, where the host's statistics arrive. One\n",
    "// invocation, first in every moving substep (section >>step, gp__step_clock); the host copies\n",
    "// clock_h into the solvers' block (gp_gravity.w), which every later pass reads as the substep.\n",
    "//\n",
    "// The host writes at the start of each step: clock_start 1, the step's dt, its planned substep\n",
    "// H = dt / n (plus the time owed, below) and count n, the fastest speed it knows of (its own\n",
    "// estimate, particles it added or wrote), the speed of sound, the spacing and max_cfl of the\n",
    "// CFL condition (max_cfl 0: the caller fixed the substeps, keep them), the substep limit that\n",
    "// no speed changes (viscosity, diffusion), and the contacts' limit with what decides where it\n",
    "// applies (clock_contact, clock_free, clock_reach, clock_accel). Then, substep by substep:\n",
    "//   h = H while nothing has shortened a substep of the step and nothing is owed (clean: the\n",
    "//       host's substeps bit for bit); otherwise the time still to run over the substeps left;\n",
    "//   h = min(h, limit, max_cfl spacing / (sound + v)), v the fastest particle after the substep before\n",
    "//       (stat_max_speed, any kind; the integrators write it) or the host's speed;\n",
    "//   h = min(h, contact) where two solids, or a solid and a wall, touch or might touch within the\n",
    "//       substep: the smallest gap the contact passes saw in the substep before (solids farther\n",
    "//       apart than a cell are not seen: their gap is at least the cell less two of the largest\n",
    "//       radius) is at most twice what a pair can close in the substep that would run without\n",
    "//       contacts (the host's plan without them, or h if longer), 2 v h + a h^2 (both moving at v, both accelerated by gravity and the\n",
    "//       forces, a). Only then do grains and bodies cost the contacts' short substeps: a body\n",
    "//       floating clear of everything moves at the fluid's substeps. clock_near tells the host\n",
    "//       (two steps late, with the statistics) to plan the contacts' substeps itself;\n",
    "//   a substep never runs past what the step owes. What the step could not run within its\n",
    "//   substeps is owed (clock_lag), up to four steps' dt, and run by the next steps, whose host\n",
    "//   plans its substeps for it (it reads clock_lag two steps late, with the statistics); beyond\n",
    "//   that (more than the 1,000 substeps a step takes at most would need) the world runs slower\n",
    "//   than the calls' time rather than owe ever more. clock_cfl keeps the largest CFL\n",
    "//   number a substep of the step started with, for gp_fluid_stats.\n",
    "layout(local_size_x = 1) in;\n",
    "\n",
    "void main() {\n",
    "    float dt = uintBitsToFloat(clock_dt), planned = uintBitsToFloat(clock_planned);\n",
    "    float speed = uintBitsToFloat(stat_max_speed);\n",
    "    if (clock_start != 0u) {   // the step's first substep: what it owes, the speeds the host knows\n",
    "        clock_start = 0u;\n",
    "        float owed = uintBitsToFloat(clock_lag);\n",
    "        clock_remaining = floatBitsToUint(dt + owed);\n",
    "        clock_left = clock_substeps;\n",
    "        clock_clean = owed == 0.0 ? 1u : 0u;\n",
    "        clock_cfl = 0u;\n",
    "        clock_near = 0u;\n",
    "        speed = max(speed, uintBitsToFloat(clock_speed));\n",
    "    }\n",
    "    float remaining = uintBitsToFloat(clock_remaining);\n",
    "    uint left = max(clock_left, 1u);\n",
    "    float h = clock_clean != 0u ? planned : remaining / float(left);\n",
    "    h = min(h, uintBitsToFloat(clock_limit));\n",
    "    float cfl = uintBitsToFloat(clock_max_cfl), sound = uintBitsToFloat(clock_sound), spacing = uintBitsToFloat(clock_spacing);\n",
    "    bool adapt = cfl > 0.0 && gp_finite(speed) && sound + speed > 0.0;\n",
    "    if (adapt) h = min(h, cfl * spacing / (sound + speed));\n",
    "    float contact = uintBitsToFloat(clock_contact);\n",
    "    if (contact < 3.0e38) {\n",
    "        float free_h = min(uintBitsToFloat(clock_free), uintBitsToFloat(clock_limit));   // what runs where nothing touches\n",
    "        if (adapt) free_h = min(free_h, cfl * spacing / (sound + speed));\n",
    "        free_h = max(free_h, h);\n",
    "        float gap = min(uintBitsToFloat(stat_solid_gap), uintBitsToFloat(clock_reach) - 2.0 * uintBitsToFloat(stat_solid_radius));\n",
    "        float closing = 2.0 * speed * free_h + uintBitsToFloat(clock_accel) * free_h * free_h;\n",
    "        if (!(gap > 2.0 * closing)) {   // NaN too\n",
    "            h = min(h, contact);\n",
    "            clock_near = 1u;\n",
    "        }\n",
    "    }\n",
    "    if (h != planned) clock_clean = 0u;\n",
    "    if (clock_clean == 0u) h = min(h, remaining);\n",
    "    h = max(h, 0.0);\n",
    "    remaining = clock_clean != 0u && left == 1u ? 0.0 : remaining - h;\n",
    "    clock_remaining = floatBitsToUint(remaining);\n",
    "    clock_left = left - 1u;\n",
    "    if (left == 1u) clock_lag = floatBitsToUint(clamp(remaining, 0.0, 4.0 * dt));   // beyond: slower, not owed\n",
    "    clock_h = floatBitsToUint(h);\n",
    "    if (adapt) clock_cfl = max(clock_cfl, floatBitsToUint(h * (sound + speed) / spacing));   // non-negative: bits order\n",
    "}\n",
    0
};
static const char* const gp__file_store_age_comp[] = {
    "#version 430 core\n",
    "// store_age: the first stage of a substep when the world has effect particles or particles with a\n",
    "// lifetime (section >>store): each of those ages by the substep, so that its age is the one it\n",
    "// will have at the substep's end; the grid build that follows takes out those whose age reached\n",
    "// their lifetime (gp_dead, lifetime not 0). A particle thus lives through every substep that ends\n",
    "// before its lifetime and is gone from the one that reaches it: after a step, the store holds\n",
    "// exactly the particles whose age is below their lifetime. Bodies' and cloth's particles never age\n",
    "// (gp_owned), nor do others that live forever (lifetime 0) but effects.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec2 life = gp_life[i];\n",
    "    uint kind = gp_kind_of(gp_info[i]);\n",
    "    if ((life.y > 0.0 || kind == GP_KIND_EFFECT) && !gp_owned(kind)) gp_life[i].x = life.x + gp_gravity.w;\n",
    "}\n",
    0
};
static const char* const gp__file_store_append_comp[] = {
    "#version 430 core\n",
    "// store_append: writes u_count particles that the host staged (gp_particles_add, section >>store)\n",
    "// after the store's count, where the GPU has it: the host never needs to know how many died. The\n",
    "// staged buffer holds the positions [0, n), the velocities [n, 2n), the infos (ids given by the\n",
    "// host) [2n, 3n), then the lives two to a uvec4, then (u_state 2) the fluid's carried densities\n",
    "// four to a uvec4. store_count then moves the count past them.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_STAGING) readonly buffer staged_block { uvec4 staged[]; };\n",
    "layout(location = 0) uniform uint u_count;\n",
    "layout(location = 1) uniform uint u_state;   // the fluid's carried density: 0 none; 1 the rest density (0 in it); 2 the staged one\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= u_count) return;\n",
    "    uint slot = store_count + i;\n",
    "    uvec4 info = staged[2u * u_count + i], life = staged[3u * u_count + i / 2u];\n",
    "    gp_position[slot] = uintBitsToFloat(staged[i]);\n",
    "    gp_velocity[slot] = uintBitsToFloat(staged[u_count + i]);\n",
    "    gp_info[slot] = info;\n",
    "    gp_life[slot] = uintBitsToFloat((i & 1u) == 0u ? life.xy : life.zw);\n",
    "    slot_of_id[info.x] = slot;\n",
    "    if (u_state == 1u) gp_state[slot] = vec2(0.0);\n",
    "    if (u_state == 2u) gp_state[slot] = vec2(uintBitsToFloat(staged[3u * u_count + (u_count + 1u) / 2u + i / 4u][i % 4u]), 0.0);\n",
    "}\n",
    0
};
static const char* const gp__file_store_check_comp[] = {
    "#version 430 core\n",
    "// store_check: gp_particles_check (section >>store), the store's own audit. Every particle lives\n",
    "// in one slot, and the id table (slot_of_id, which every append, birth and grid build writes)\n",
    "// says which: each slot below the count whose id is outside the id space, or whose id the table\n",
    "// places in another slot, is counted into store_check. A particle written twice (the table keeps\n",
    "// one of its slots) or over another shows so; 0 in a healthy store. NVIDIA's driver once wrote an\n",
    "// add's staging before the add before it had read its own, and such particles were lost silently.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= store_count) return;\n",
    "    uint id = gp_info[i].x;\n",
    "    if (id >= 2u * gp_counts.z || slot_of_id[id] != i) atomicAdd(store_check, 1u);\n",
    "}\n",
    0
};
static const char* const gp__file_store_count_comp[] = {
    "#version 430 core\n",
    "// store_count: the store's count, on the GPU (section >>grid). After a build (u_added 0) it drops\n",
    "// the dead that store_free gave back; after an append (store_append: u_ids = u_added, the host\n",
    "// gave every id and checked the room) or the emitters' births (emitter_emit: u_added births, u_ids\n",
    "// of them with never-used ids, the rest taking given-back ones, oldest first; a spray emitter's:\n",
    "// at most store_spray of them) it takes in those that found room and an id, pops the given-back\n",
    "// ids they took, and counts the others refused; the never-used ids set aside for births that did\n",
    "// not happen go to the free-id queue (none is lost, so ids never run out while the store has room).\n",
    "// Then it writes the indirect arguments every pass over the store dispatches with, and those of\n",
    "// the draw. One invocation; the host then copies store_count into gp_counts.x, where every pass\n",
    "// reads it.\n",
    "layout(local_size_x = 1) in;\n",
    "layout(location = 0) uniform uint u_added;\n",
    "layout(location = 1) uniform uint u_ids;\n",
    "layout(location = 2) uniform uint u_spray;   // 1: a spray emitter's births, at most store_spray of the u_added\n",
    "layout(location = 3) uniform uint u_first;   // the first of the u_ids never-used ids\n",
    "\n",
    "void main() {\n",
    "    if (u_added == 0u) {\n",
    "        uint live = cell_start[gp_grid_dead_bucket()], died = store_count - live;\n",
    "        store_died += died;\n",
    "        store_free_count += died;\n",
    "        store_count = live;\n",
    "    } else {\n",
    "        uint wanted = u_spray != 0u ? min(u_added, store_spray) : u_added;\n",
    "        uint added = min(min(wanted, gp_counts.z - store_count), u_ids + store_free_count);\n",
    "        uint taken = added > u_ids ? added - u_ids : 0u, used = min(added, u_ids);\n",
    "        store_free_head = (store_free_head + taken) % (2u * gp_counts.z);\n",
    "        store_free_count -= taken;\n",
    "        for (uint k = used; k < u_ids; ++k)   // never-used ids set aside for births that did not happen: to the queue\n",
    "            free_ids[(store_free_head + store_free_count + (k - used)) % (2u * gp_counts.z)] = u_first + k;\n",
    "        store_free_count += u_ids - used;\n",
    "        store_refused_births += wanted - added;\n",
    "        store_count += added;\n",
    "    }\n",
    "    uvec3 groups = gp_dispatch_groups(store_count, uint(GP_GROUP_SIZE));\n",
    "    store_dispatch_x = groups.x;\n",
    "    store_dispatch_y = groups.y;\n",
    "    store_dispatch_z = groups.z;\n",
    "    store_draw_count = store_count;\n",
    "    store_draw_instances = 1u;\n",
    "    store_draw_first = 0u;\n",
    "    store_draw_base = 0u;\n",
    "}\n",
    0
};
static const char* const gp__file_store_free_comp[] = {
    "#version 430 core\n",
    "// store_free: a pass of the grid build when particles may have died (section >>grid). The build's\n",
    "// counting sort filed the dead (gp_dead) in the bucket after every live particle, so they sit in\n",
    "// slots [live, count), where live = cell_start[gp_grid_dead_bucket()]. Each gives its id to the\n",
    "// back of the free-id queue in slot order (the build's order: the same in every run in\n",
    "// deterministic mode), its id's slot becomes GP_NO_SLOT (a stale id finds no particle), and its\n",
    "// info is marked dead for whoever reads past the count. store_count then cuts them off the count.\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index(), live = cell_start[gp_grid_dead_bucket()];\n",
    "    if (i < live || i >= gp_counts.x) return;\n",
    "    uvec4 info = gp_info[i];\n",
    "    free_ids[(store_free_head + store_free_count + (i - live)) % (2u * gp_counts.z)] = info.x;\n",
    "    slot_of_id[info.x] = GP_NO_SLOT;\n",
    "    gp_info[i].y = info.y | GP_PARTICLE_DEAD;\n",
    "}\n",
    0
};
static const char* const gp__file_store_remove_comp[] = {
    "#version 430 core\n",
    "// store_remove: gp_particles_remove (section >>store), all or nothing, in two dispatches. The check\n",
    "// (u_mark 0) counts into store_check every listed id that names no particle in the store, and\n",
    "// every listed or flagged particle of a body or a cloth (they live as long as their owner); the\n",
    "// mark (u_mark 1) then flags each one GP_PARTICLE_DEAD only if the check counted none, and the next\n",
    "// grid build takes them out. By ids (u_count > 0: staged_ids holds them) or by the user's flag\n",
    "// buffer (u_count 0: a uint per slot, not 0 for the particles to remove; a refusal is counted in\n",
    "// store_refused, which the step's statistics report).\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "layout(std430, binding = GP_BINDING_STAGING) readonly buffer staged_ids_block { uint staged_ids[]; };\n",
    "layout(std430, binding = GP_BINDING_FLAGS) readonly buffer flags_block { uint flags[]; };\n",
    "layout(location = 0) uniform uint u_count;\n",
    "layout(location = 1) uniform uint u_mark;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index(), slot = GP_NO_SLOT;\n",
    "    bool bad = false;\n",
    "    if (u_count != 0u) {\n",
    "        if (i >= u_count) return;\n",
    "        uint id = staged_ids[i];\n",
    "        if (id < 2u * gp_counts.z) slot = slot_of_id[id];\n",
    "        bad = slot >= store_count || gp_info[slot].x != id;\n",
    "    } else {\n",
    "        if (i >= store_count || flags[i] == 0u) return;\n",
    "        slot = i;\n",
    "    }\n",
    "    if (u_mark == 0u) {\n",
    "        if (bad || gp_owned(gp_kind_of(gp_info[slot]))) atomicAdd(store_check, 1u);\n",
    "    } else if (store_check == 0u) {\n",
    "        gp_info[slot].y |= GP_PARTICLE_DEAD;\n",
    "    } else if (u_count == 0u && i == 0u) {\n",
    "        atomicAdd(store_refused, 1u);\n",
    "    }\n",
    "}\n",
    0
};
typedef enum gp__shader_file_id {
    GP__FILE_BODY_PARTICLES_COMP,
    GP__FILE_BODY_UPDATE_COMP,
    GP__FILE_BOUNDARY_DISTANCE_COMP,
    GP__FILE_COPY_COMP,
    GP__FILE_COUPLING_DRAG_COMP,
    GP__FILE_COUPLING_DRAG_FLUID_COMP,
    GP__FILE_COUPLING_GUARD_COMP,
    GP__FILE_COUPLING_PRESSURE_COMP,
    GP__FILE_COUPLING_SOLID_COMP,
    GP__FILE_DEM_CONTACT_COMP,
    GP__FILE_DEM_INTEGRATE_COMP,
    GP__FILE_DEM_WALLS_COMP,
    GP__FILE_DISPATCH_ARGS_COMP,
    GP__FILE_DRAW_BODIES_FRAG,
    GP__FILE_DRAW_BODIES_VERT,
    GP__FILE_DRAW_PARTICLES_FRAG,
    GP__FILE_DRAW_PARTICLES_VERT,
    GP__FILE_DRAW_SPRITES_FRAG,
    GP__FILE_DRAW_SPRITES_VERT,
    GP__FILE_EFFECTS_COLLIDE_COMP,
    GP__FILE_EFFECTS_MOVE_COMP,
    GP__FILE_EMITTER_EMIT_COMP,
    GP__FILE_EMITTER_MESH_COMP,
    GP__FILE_EMITTER_POUR_COMP,
    GP__FILE_GP_BIRTH_GLSL,
    GP__FILE_GP_BOUNDARY_GLSL,
    GP__FILE_GP_BUFFERS_GLSL,
    GP__FILE_GP_COMMON_GLSL,
    GP__FILE_GP_COUPLING_GLSL,
    GP__FILE_GP_DEM_GLSL,
    GP__FILE_GP_DISPATCH_GLSL,
    GP__FILE_GP_EMITTER_GLSL,
    GP__FILE_GP_FLUID_SAMPLE_GLSL,
    GP__FILE_GP_GRID_GLSL,
    GP__FILE_GP_INTEGRATE_GLSL,
    GP__FILE_GP_NEIGHBORS_GLSL,
    GP__FILE_GP_PARTICLES_GLSL,
    GP__FILE_GP_QUATERNION_GLSL,
    GP__FILE_GP_SCAN_GLSL,
    GP__FILE_GP_SOLVER_GLSL,
    GP__FILE_GP_SORT_GLSL,
    GP__FILE_GP_SPH_GLSL,
    GP__FILE_GP_WORLD_GLSL,
    GP__FILE_GRID_CARRY_COMP,
    GP__FILE_GRID_COUNT_COMP,
    GP__FILE_GRID_IDS_COMP,
    GP__FILE_GRID_NEIGHBORS_COMP,
    GP__FILE_GRID_RANK_COMP,
    GP__FILE_GRID_REORDER_COMP,
    GP__FILE_SCAN_BLOCK_COMP,
    GP__FILE_SCAN_REDUCE_COMP,
    GP__FILE_SORT_GLOBAL_COMP,
    GP__FILE_SORT_LOCAL_COMP,
    GP__FILE_SPH_CONTINUITY_COMP,
    GP__FILE_SPH_DENSITY_COMP,
    GP__FILE_SPH_FORCE_COMP,
    GP__FILE_SPH_INTEGRATE_COMP,
    GP__FILE_SPRAY_EMIT_COMP,
    GP__FILE_SPRAY_FLAGS_COMP,
    GP__FILE_SPRITE_DEPTH_COMP,
    GP__FILE_SPRITE_GATHER_COMP,
    GP__FILE_STEP_CLOCK_COMP,
    GP__FILE_STORE_AGE_COMP,
    GP__FILE_STORE_APPEND_COMP,
    GP__FILE_STORE_CHECK_COMP,
    GP__FILE_STORE_COUNT_COMP,
    GP__FILE_STORE_FREE_COMP,
    GP__FILE_STORE_REMOVE_COMP,
    GP__FILE_COUNT
} gp__shader_file_id;
/* By #line source number: shaders_embedded/<name>. */
static const gp__shader_file gp__shader_files[GP__FILE_COUNT] = {
    { "body_particles.comp", gp__file_body_particles_comp },
    { "body_update.comp", gp__file_body_update_comp },
    { "boundary_distance.comp", gp__file_boundary_distance_comp },
    { "copy.comp", gp__file_copy_comp },
    { "coupling_drag.comp", gp__file_coupling_drag_comp },
    { "coupling_drag_fluid.comp", gp__file_coupling_drag_fluid_comp },
    { "coupling_guard.comp", gp__file_coupling_guard_comp },
    { "coupling_pressure.comp", gp__file_coupling_pressure_comp },
    { "coupling_solid.comp", gp__file_coupling_solid_comp },
    { "dem_contact.comp", gp__file_dem_contact_comp },
    { "dem_integrate.comp", gp__file_dem_integrate_comp },
    { "dem_walls.comp", gp__file_dem_walls_comp },
    { "dispatch_args.comp", gp__file_dispatch_args_comp },
    { "draw_bodies.frag", gp__file_draw_bodies_frag },
    { "draw_bodies.vert", gp__file_draw_bodies_vert },
    { "draw_particles.frag", gp__file_draw_particles_frag },
    { "draw_particles.vert", gp__file_draw_particles_vert },
    { "draw_sprites.frag", gp__file_draw_sprites_frag },
    { "draw_sprites.vert", gp__file_draw_sprites_vert },
    { "effects_collide.comp", gp__file_effects_collide_comp },
    { "effects_move.comp", gp__file_effects_move_comp },
    { "emitter_emit.comp", gp__file_emitter_emit_comp },
    { "emitter_mesh.comp", gp__file_emitter_mesh_comp },
    { "emitter_pour.comp", gp__file_emitter_pour_comp },
    { "gp_birth.glsl", gp__file_gp_birth_glsl },
    { "gp_boundary.glsl", gp__file_gp_boundary_glsl },
    { "gp_buffers.glsl", gp__file_gp_buffers_glsl },
    { "gp_common.glsl", gp__file_gp_common_glsl },
    { "gp_coupling.glsl", gp__file_gp_coupling_glsl },
    { "gp_dem.glsl", gp__file_gp_dem_glsl },
    { "gp_dispatch.glsl", gp__file_gp_dispatch_glsl },
    { "gp_emitter.glsl", gp__file_gp_emitter_glsl },
    { "gp_fluid_sample.glsl", gp__file_gp_fluid_sample_glsl },
    { "gp_grid.glsl", gp__file_gp_grid_glsl },
    { "gp_integrate.glsl", gp__file_gp_integrate_glsl },
    { "gp_neighbors.glsl", gp__file_gp_neighbors_glsl },
    { "gp_particles.glsl", gp__file_gp_particles_glsl },
    { "gp_quaternion.glsl", gp__file_gp_quaternion_glsl },
    { "gp_scan.glsl", gp__file_gp_scan_glsl },
    { "gp_solver.glsl", gp__file_gp_solver_glsl },
    { "gp_sort.glsl", gp__file_gp_sort_glsl },
    { "gp_sph.glsl", gp__file_gp_sph_glsl },
    { "gp_world.glsl", gp__file_gp_world_glsl },
    { "grid_carry.comp", gp__file_grid_carry_comp },
    { "grid_count.comp", gp__file_grid_count_comp },
    { "grid_ids.comp", gp__file_grid_ids_comp },
    { "grid_neighbors.comp", gp__file_grid_neighbors_comp },
    { "grid_rank.comp", gp__file_grid_rank_comp },
    { "grid_reorder.comp", gp__file_grid_reorder_comp },
    { "scan_block.comp", gp__file_scan_block_comp },
    { "scan_reduce.comp", gp__file_scan_reduce_comp },
    { "sort_global.comp", gp__file_sort_global_comp },
    { "sort_local.comp", gp__file_sort_local_comp },
    { "sph_continuity.comp", gp__file_sph_continuity_comp },
    { "sph_density.comp", gp__file_sph_density_comp },
    { "sph_force.comp", gp__file_sph_force_comp },
    { "sph_integrate.comp", gp__file_sph_integrate_comp },
    { "spray_emit.comp", gp__file_spray_emit_comp },
    { "spray_flags.comp", gp__file_spray_flags_comp },
    { "sprite_depth.comp", gp__file_sprite_depth_comp },
    { "sprite_gather.comp", gp__file_sprite_gather_comp },
    { "step_clock.comp", gp__file_step_clock_comp },
    { "store_age.comp", gp__file_store_age_comp },
    { "store_append.comp", gp__file_store_append_comp },
    { "store_check.comp", gp__file_store_check_comp },
    { "store_count.comp", gp__file_store_count_comp },
    { "store_free.comp", gp__file_store_free_comp },
    { "store_remove.comp", gp__file_store_remove_comp },
};
static const gp__shader_range gp__ranges_body_particles_comp[] = {
    { GP__FILE_BODY_PARTICLES_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_QUATERNION_GLSL, 0, 5, 1 },
    { GP__FILE_GP_DEM_GLSL, 0, 137, 1 },
    { GP__FILE_BODY_PARTICLES_COMP, 6, 13, 15 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_body_update_comp[] = {
    { GP__FILE_BODY_UPDATE_COMP, 0, 10, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_QUATERNION_GLSL, 0, 5, 1 },
    { GP__FILE_GP_DEM_GLSL, 0, 137, 1 },
    { GP__FILE_BODY_UPDATE_COMP, 10, 66, 19 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_boundary_distance_comp[] = {
    { GP__FILE_BOUNDARY_DISTANCE_COMP, 0, 3, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_BOUNDARY_DISTANCE_COMP, 3, 10, 8 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_copy_comp[] = {
    { GP__FILE_COPY_COMP, 0, 4, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_COPY_COMP, 4, 16, 6 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_coupling_drag_comp[] = {
    { GP__FILE_COUPLING_DRAG_COMP, 0, 50, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_GP_FLUID_SAMPLE_GLSL, 0, 44, 1 },
    { GP__FILE_COUPLING_DRAG_COMP, 50, 27, 61 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_COUPLING_DRAG_COMP, 77, 23, 89 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_coupling_drag_fluid_comp[] = {
    { GP__FILE_COUPLING_DRAG_FLUID_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_COUPLING_DRAG_FLUID_COMP, 8, 36, 18 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_COUPLING_DRAG_FLUID_COMP, 44, 2, 55 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_coupling_guard_comp[] = {
    { GP__FILE_COUPLING_GUARD_COMP, 0, 23, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_COUPLING_GUARD_COMP, 23, 37, 33 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_COUPLING_GUARD_COMP, 60, 6, 71 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_coupling_pressure_comp[] = {
    { GP__FILE_COUPLING_PRESSURE_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_COUPLING_PRESSURE_COMP, 8, 36, 18 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_COUPLING_PRESSURE_COMP, 44, 2, 55 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_coupling_solid_comp[] = {
    { GP__FILE_COUPLING_SOLID_COMP, 0, 9, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_COUPLING_SOLID_COMP, 9, 41, 19 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_COUPLING_SOLID_COMP, 50, 2, 61 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_dem_contact_comp[] = {
    { GP__FILE_DEM_CONTACT_COMP, 0, 12, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_QUATERNION_GLSL, 0, 5, 1 },
    { GP__FILE_GP_DEM_GLSL, 0, 137, 1 },
    { GP__FILE_DEM_CONTACT_COMP, 12, 97, 21 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_DEM_CONTACT_COMP, 109, 7, 119 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_dem_integrate_comp[] = {
    { GP__FILE_DEM_INTEGRATE_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_INTEGRATE_GLSL, 0, 24, 1 },
    { GP__FILE_DEM_INTEGRATE_COMP, 7, 10, 14 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_dem_walls_comp[] = {
    { GP__FILE_DEM_WALLS_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_QUATERNION_GLSL, 0, 5, 1 },
    { GP__FILE_GP_DEM_GLSL, 0, 137, 1 },
    { GP__FILE_DEM_WALLS_COMP, 8, 59, 18 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_dispatch_args_comp[] = {
    { GP__FILE_DISPATCH_ARGS_COMP, 0, 3, 1 },
    { GP__FILE_GP_DISPATCH_GLSL, 0, 13, 1 },
    { GP__FILE_DISPATCH_ARGS_COMP, 3, 13, 5 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_bodies_frag[] = {
    { GP__FILE_DRAW_BODIES_FRAG, 0, 16, 1 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_bodies_vert[] = {
    { GP__FILE_DRAW_BODIES_VERT, 0, 12, 1 },
    { GP__FILE_GP_QUATERNION_GLSL, 0, 5, 1 },
    { GP__FILE_DRAW_BODIES_VERT, 12, 6, 14 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_particles_frag[] = {
    { GP__FILE_DRAW_PARTICLES_FRAG, 0, 22, 1 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_particles_vert[] = {
    { GP__FILE_DRAW_PARTICLES_VERT, 0, 34, 1 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_sprites_frag[] = {
    { GP__FILE_DRAW_SPRITES_FRAG, 0, 10, 1 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_draw_sprites_vert[] = {
    { GP__FILE_DRAW_SPRITES_VERT, 0, 17, 1 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_effects_collide_comp[] = {
    { GP__FILE_EFFECTS_COLLIDE_COMP, 0, 15, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_EFFECTS_COLLIDE_COMP, 15, 39, 22 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_EFFECTS_COLLIDE_COMP, 54, 3, 62 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_effects_move_comp[] = {
    { GP__FILE_EFFECTS_MOVE_COMP, 0, 19, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_EFFECTS_MOVE_COMP, 19, 47, 28 },
    { GP__FILE_GP_FLUID_SAMPLE_GLSL, 0, 44, 1 },
    { GP__FILE_EFFECTS_MOVE_COMP, 66, 73, 76 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_EFFECTS_MOVE_COMP, 139, 33, 150 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_emitter_emit_comp[] = {
    { GP__FILE_EMITTER_EMIT_COMP, 0, 12, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BIRTH_GLSL, 0, 26, 1 },
    { GP__FILE_EMITTER_EMIT_COMP, 12, 31, 19 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_emitter_mesh_comp[] = {
    { GP__FILE_EMITTER_MESH_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BIRTH_GLSL, 0, 26, 1 },
    { GP__FILE_EMITTER_MESH_COMP, 8, 25, 15 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_emitter_pour_comp[] = {
    { GP__FILE_EMITTER_POUR_COMP, 0, 9, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BIRTH_GLSL, 0, 26, 1 },
    { GP__FILE_EMITTER_POUR_COMP, 9, 32, 16 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_carry_comp[] = {
    { GP__FILE_GRID_CARRY_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GRID_CARRY_COMP, 6, 16, 10 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_count_comp[] = {
    { GP__FILE_GRID_COUNT_COMP, 0, 12, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GRID_COUNT_COMP, 12, 29, 18 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_ids_comp[] = {
    { GP__FILE_GRID_IDS_COMP, 0, 4, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GRID_IDS_COMP, 4, 7, 9 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_neighbors_comp[] = {
    { GP__FILE_GRID_NEIGHBORS_COMP, 0, 4, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GRID_NEIGHBORS_COMP, 4, 25, 10 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_GRID_NEIGHBORS_COMP, 29, 3, 36 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_rank_comp[] = {
    { GP__FILE_GRID_RANK_COMP, 0, 14, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_DISPATCH_GLSL, 0, 13, 1 },
    { GP__FILE_GRID_RANK_COMP, 14, 37, 19 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_grid_reorder_comp[] = {
    { GP__FILE_GRID_REORDER_COMP, 0, 10, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GRID_REORDER_COMP, 10, 23, 14 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_scan_block_comp[] = {
    { GP__FILE_SCAN_BLOCK_COMP, 0, 10, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_SCAN_GLSL, 0, 27, 1 },
    { GP__FILE_SCAN_BLOCK_COMP, 10, 35, 13 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_scan_reduce_comp[] = {
    { GP__FILE_SCAN_REDUCE_COMP, 0, 3, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_SCAN_GLSL, 0, 27, 1 },
    { GP__FILE_SCAN_REDUCE_COMP, 3, 12, 6 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sort_global_comp[] = {
    { GP__FILE_SORT_GLOBAL_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_SORT_GLSL, 0, 24, 1 },
    { GP__FILE_SORT_GLOBAL_COMP, 6, 38, 9 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sort_local_comp[] = {
    { GP__FILE_SORT_LOCAL_COMP, 0, 5, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_SORT_GLSL, 0, 24, 1 },
    { GP__FILE_SORT_LOCAL_COMP, 5, 43, 8 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sph_continuity_comp[] = {
    { GP__FILE_SPH_CONTINUITY_COMP, 0, 15, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_SPH_CONTINUITY_COMP, 15, 78, 25 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_SPH_CONTINUITY_COMP, 93, 51, 104 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sph_density_comp[] = {
    { GP__FILE_SPH_DENSITY_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_SPH_DENSITY_COMP, 7, 29, 17 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_SPH_DENSITY_COMP, 36, 5, 47 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sph_force_comp[] = {
    { GP__FILE_SPH_FORCE_COMP, 0, 17, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_COUPLING_GLSL, 0, 64, 1 },
    { GP__FILE_SPH_FORCE_COMP, 17, 62, 27 },
    { GP__FILE_GP_NEIGHBORS_GLSL, 0, 69, 1 },
    { GP__FILE_SPH_FORCE_COMP, 79, 8, 90 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sph_integrate_comp[] = {
    { GP__FILE_SPH_INTEGRATE_COMP, 0, 9, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BOUNDARY_GLSL, 0, 102, 1 },
    { GP__FILE_GP_SPH_GLSL, 0, 216, 1 },
    { GP__FILE_GP_INTEGRATE_GLSL, 0, 24, 1 },
    { GP__FILE_SPH_INTEGRATE_COMP, 9, 28, 19 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_spray_emit_comp[] = {
    { GP__FILE_SPRAY_EMIT_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_GP_BIRTH_GLSL, 0, 26, 1 },
    { GP__FILE_SPRAY_EMIT_COMP, 7, 21, 14 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_spray_flags_comp[] = {
    { GP__FILE_SPRAY_FLAGS_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_SPRAY_FLAGS_COMP, 7, 20, 13 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sprite_depth_comp[] = {
    { GP__FILE_SPRITE_DEPTH_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_SPRITE_DEPTH_COMP, 6, 18, 11 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_sprite_gather_comp[] = {
    { GP__FILE_SPRITE_GATHER_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_EMITTER_GLSL, 0, 60, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_SPRITE_GATHER_COMP, 6, 17, 12 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_step_clock_comp[] = {
    { GP__FILE_STEP_CLOCK_COMP, 0, 31, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STEP_CLOCK_COMP, 31, 44, 34 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_age_comp[] = {
    { GP__FILE_STORE_AGE_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_SOLVER_GLSL, 0, 70, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_AGE_COMP, 8, 9, 14 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_append_comp[] = {
    { GP__FILE_STORE_APPEND_COMP, 0, 6, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_APPEND_COMP, 6, 18, 10 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_check_comp[] = {
    { GP__FILE_STORE_CHECK_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_CHECK_COMP, 7, 8, 11 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_count_comp[] = {
    { GP__FILE_STORE_COUNT_COMP, 0, 11, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_DISPATCH_GLSL, 0, 13, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_COUNT_COMP, 11, 33, 17 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_free_comp[] = {
    { GP__FILE_STORE_FREE_COMP, 0, 7, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_GRID_GLSL, 0, 80, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_FREE_COMP, 7, 10, 13 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
static const gp__shader_range gp__ranges_store_remove_comp[] = {
    { GP__FILE_STORE_REMOVE_COMP, 0, 8, 1 },
    { GP__FILE_GP_COMMON_GLSL, 0, 26, 1 },
    { GP__FILE_GP_WORLD_GLSL, 0, 7, 1 },
    { GP__FILE_GP_PARTICLES_GLSL, 0, 12, 1 },
    { GP__FILE_GP_BUFFERS_GLSL, 0, 152, 1 },
    { GP__FILE_STORE_REMOVE_COMP, 8, 26, 13 },
    { GP__FILE_COUNT, 0, 0, 0 }
};
typedef enum gp__program_id {
    GP__PROGRAM_BODY_PARTICLES,
    GP__PROGRAM_BODY_UPDATE,
    GP__PROGRAM_BOUNDARY_DISTANCE,
    GP__PROGRAM_COPY,
    GP__PROGRAM_COUPLING_DRAG,
    GP__PROGRAM_COUPLING_DRAG_FLUID,
    GP__PROGRAM_COUPLING_GUARD,
    GP__PROGRAM_COUPLING_PRESSURE,
    GP__PROGRAM_COUPLING_SOLID,
    GP__PROGRAM_DEM_CONTACT,
    GP__PROGRAM_DEM_INTEGRATE,
    GP__PROGRAM_DEM_WALLS,
    GP__PROGRAM_DISPATCH_ARGS,
    GP__PROGRAM_EFFECTS_COLLIDE,
    GP__PROGRAM_EFFECTS_MOVE,
    GP__PROGRAM_EMITTER_EMIT,
    GP__PROGRAM_EMITTER_MESH,
    GP__PROGRAM_EMITTER_POUR,
    GP__PROGRAM_GRID_CARRY,
    GP__PROGRAM_GRID_COUNT,
    GP__PROGRAM_GRID_IDS,
    GP__PROGRAM_GRID_NEIGHBORS,
    GP__PROGRAM_GRID_RANK,
    GP__PROGRAM_GRID_REORDER,
    GP__PROGRAM_SCAN_BLOCK,
    GP__PROGRAM_SCAN_REDUCE,
    GP__PROGRAM_SORT_GLOBAL,
    GP__PROGRAM_SORT_LOCAL,
    GP__PROGRAM_SPH_CONTINUITY,
    GP__PROGRAM_SPH_DENSITY,
    GP__PROGRAM_SPH_FORCE,
    GP__PROGRAM_SPH_INTEGRATE,
    GP__PROGRAM_SPRAY_EMIT,
    GP__PROGRAM_SPRAY_FLAGS,
    GP__PROGRAM_SPRITE_DEPTH,
    GP__PROGRAM_SPRITE_GATHER,
    GP__PROGRAM_STEP_CLOCK,
    GP__PROGRAM_STORE_AGE,
    GP__PROGRAM_STORE_APPEND,
    GP__PROGRAM_STORE_CHECK,
    GP__PROGRAM_STORE_COUNT,
    GP__PROGRAM_STORE_FREE,
    GP__PROGRAM_STORE_REMOVE,
    GP__PROGRAM_COUNT,   /* compute programs above; the draw helper's stages below */
    GP__SHADER_DRAW_BODIES_FRAG = GP__PROGRAM_COUNT,
    GP__SHADER_DRAW_BODIES_VERT,
    GP__SHADER_DRAW_PARTICLES_FRAG,
    GP__SHADER_DRAW_PARTICLES_VERT,
    GP__SHADER_DRAW_SPRITES_FRAG,
    GP__SHADER_DRAW_SPRITES_VERT,
    GP__SHADER_COUNT
} gp__program_id;
static const gp__shader_source gp__shader_sources[GP__SHADER_COUNT] = {
    { "body_particles.comp", GP__GL_COMPUTE_SHADER, gp__ranges_body_particles_comp },
    { "body_update.comp", GP__GL_COMPUTE_SHADER, gp__ranges_body_update_comp },
    { "boundary_distance.comp", GP__GL_COMPUTE_SHADER, gp__ranges_boundary_distance_comp },
    { "copy.comp", GP__GL_COMPUTE_SHADER, gp__ranges_copy_comp },
    { "coupling_drag.comp", GP__GL_COMPUTE_SHADER, gp__ranges_coupling_drag_comp },
    { "coupling_drag_fluid.comp", GP__GL_COMPUTE_SHADER, gp__ranges_coupling_drag_fluid_comp },
    { "coupling_guard.comp", GP__GL_COMPUTE_SHADER, gp__ranges_coupling_guard_comp },
    { "coupling_pressure.comp", GP__GL_COMPUTE_SHADER, gp__ranges_coupling_pressure_comp },
    { "coupling_solid.comp", GP__GL_COMPUTE_SHADER, gp__ranges_coupling_solid_comp },
    { "dem_contact.comp", GP__GL_COMPUTE_SHADER, gp__ranges_dem_contact_comp },
    { "dem_integrate.comp", GP__GL_COMPUTE_SHADER, gp__ranges_dem_integrate_comp },
    { "dem_walls.comp", GP__GL_COMPUTE_SHADER, gp__ranges_dem_walls_comp },
    { "dispatch_args.comp", GP__GL_COMPUTE_SHADER, gp__ranges_dispatch_args_comp },
    { "effects_collide.comp", GP__GL_COMPUTE_SHADER, gp__ranges_effects_collide_comp },
    { "effects_move.comp", GP__GL_COMPUTE_SHADER, gp__ranges_effects_move_comp },
    { "emitter_emit.comp", GP__GL_COMPUTE_SHADER, gp__ranges_emitter_emit_comp },
    { "emitter_mesh.comp", GP__GL_COMPUTE_SHADER, gp__ranges_emitter_mesh_comp },
    { "emitter_pour.comp", GP__GL_COMPUTE_SHADER, gp__ranges_emitter_pour_comp },
    { "grid_carry.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_carry_comp },
    { "grid_count.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_count_comp },
    { "grid_ids.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_ids_comp },
    { "grid_neighbors.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_neighbors_comp },
    { "grid_rank.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_rank_comp },
    { "grid_reorder.comp", GP__GL_COMPUTE_SHADER, gp__ranges_grid_reorder_comp },
    { "scan_block.comp", GP__GL_COMPUTE_SHADER, gp__ranges_scan_block_comp },
    { "scan_reduce.comp", GP__GL_COMPUTE_SHADER, gp__ranges_scan_reduce_comp },
    { "sort_global.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sort_global_comp },
    { "sort_local.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sort_local_comp },
    { "sph_continuity.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sph_continuity_comp },
    { "sph_density.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sph_density_comp },
    { "sph_force.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sph_force_comp },
    { "sph_integrate.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sph_integrate_comp },
    { "spray_emit.comp", GP__GL_COMPUTE_SHADER, gp__ranges_spray_emit_comp },
    { "spray_flags.comp", GP__GL_COMPUTE_SHADER, gp__ranges_spray_flags_comp },
    { "sprite_depth.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sprite_depth_comp },
    { "sprite_gather.comp", GP__GL_COMPUTE_SHADER, gp__ranges_sprite_gather_comp },
    { "step_clock.comp", GP__GL_COMPUTE_SHADER, gp__ranges_step_clock_comp },
    { "store_age.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_age_comp },
    { "store_append.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_append_comp },
    { "store_check.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_check_comp },
    { "store_count.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_count_comp },
    { "store_free.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_free_comp },
    { "store_remove.comp", GP__GL_COMPUTE_SHADER, gp__ranges_store_remove_comp },
    { "draw_bodies.frag", GP__GL_FRAGMENT_SHADER, gp__ranges_draw_bodies_frag },
    { "draw_bodies.vert", GP__GL_VERTEX_SHADER, gp__ranges_draw_bodies_vert },
    { "draw_particles.frag", GP__GL_FRAGMENT_SHADER, gp__ranges_draw_particles_frag },
    { "draw_particles.vert", GP__GL_VERTEX_SHADER, gp__ranges_draw_particles_vert },
    { "draw_sprites.frag", GP__GL_FRAGMENT_SHADER, gp__ranges_draw_sprites_frag },
    { "draw_sprites.vert", GP__GL_VERTEX_SHADER, gp__ranges_draw_sprites_vert },
};
#define GP__SHADER_MOST_LINES 964   /* the longest program, with its #line directives */
#define GP__SHADER_MOST_RANGES 14   /* the most ranges of one program */
/* <<shaders-generated */

/* Lines one program may have (checked by tools/embed_shaders.sh, which refuses a longer one). */
#define GP__SHADER_MAX_LINES 2048
#define GP__SHADER_MAX_RANGES 32
GP__STATIC_ASSERT(shader_lines_fit, GP__SHADER_MOST_LINES <= GP__SHADER_MAX_LINES && GP__SHADER_MOST_RANGES <= GP__SHADER_MAX_RANGES);

/* THE BINDING PLAN. A role is what a storage buffer holds. Each program's row says which role sits
   at each of its eight bindings, GL 4.3's guaranteed minimum of storage blocks per compute shader
   (GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS): a role at most once, no binding with two meanings. The
   shaders declare a role's block only where the row defines GP_BINDING_<ROLE>
   (shaders_embedded/gp_buffers.glsl; a primitive's own roles in its .comp), and gp__bind binds by
   role through the same row, so the host and the shader cannot disagree. Each role's blocks are
   listed (a role may have two views, e.g. uint and uvec4 words) for the test that compares every
   program's active blocks with its row. A new system that needs more than eight buffers in one
   pass splits the pass or shares a buffer between roles of one meaning, never a binding. */
#define GP__ROLES(X)                                                                             \
    X(POSITION, "gp_position_block")        X(VELOCITY, "gp_velocity_block")                     \
    X(INFO, "gp_info_block")                X(LIFE, "gp_life_block")                             \
    X(DENSITY, "gp_density_block")          X(ACCELERATION, "gp_acceleration_block")             \
    X(FLUID_STATE, "gp_state_block")        X(CELL_KEY, "cell_key_block")                        \
    X(CELL_COUNT, "cell_count_block")       X(CELL_START, "cell_start_block")                    \
    X(ORDER, "order_block")                 X(SLOT_OF_ID, "slot_of_id_block")                    \
    X(STATS, "gp_stats_block")              X(FIELDS, "gp_field_block")                          \
    X(OFFSETS, "gp_offsets_block")          X(BODIES, "gp_rigid_block")                          \
    X(SCAN_INPUT, "scan_input_block scan_input4_block")                                          \
    X(SCAN_OUTPUT, "scan_output_block scan_output4_block")                                       \
    X(CHUNK_SUMS, "chunk_sums_block")       X(CHUNK_OFFSETS, "chunk_offsets_block")              \
    X(COUNT_WORDS, "count_block")           X(ARGS, "args_block")                                \
    X(STORE, "gp_store_block")              X(FREE_IDS, "gp_free_ids_block")                     \
    X(STAGING, "staged_block staged_ids_block") X(FLAGS, "flags_block")                          \
    X(SPRITES, "sprite_block")              X(TRIANGLES, "triangle_block")                       \
    X(COPY_SOURCE, "source_block source4_block")                                                 \
    X(COPY_DESTINATION, "destination_block destination4_block")                                  \
    X(SORT_KEYS, "keys_block")              X(SORT_VALUES, "values_block")                       \
    X(REORDER_SOURCE, "source_block")       X(REORDER_DESTINATION, "destination_block")          \
    X(CARRIED_SOURCE, "carried_source_block") X(CARRIED_DESTINATION, "carried_destination_block") \
    X(NEIGHBOR_COUNT, "neighbor_count_block")                                                    \
    X(POINTS, "point_block")                X(DISTANCES, "distance_block")                       \
    X(HISTORY, "gp_history_block")          X(CARRY, "carry_block")                              \
    X(DRAG, "gp_drag_block")                X(RANKED, "ranked_block")
typedef enum gp__role {
    GP__ROLE_NONE = 0,
#define GP__ROLE_ENUM(name, blocks) GP__ROLE_##name,
    GP__ROLES(GP__ROLE_ENUM)
#undef GP__ROLE_ENUM
    GP__ROLE_COUNT
} gp__role;
static const char* const gp__role_names[GP__ROLE_COUNT] = {
    "NONE",
#define GP__ROLE_NAME(name, blocks) #name,
    GP__ROLES(GP__ROLE_NAME)
#undef GP__ROLE_NAME
};
static const char* const gp__role_blocks[GP__ROLE_COUNT] = {
    "",
#define GP__ROLE_BLOCKS(name, blocks) blocks,
    GP__ROLES(GP__ROLE_BLOCKS)
#undef GP__ROLE_BLOCKS
};

#define GP__MAX_BINDINGS 8
typedef struct gp__binding_plan { gp__program_id program; uint8_t roles[GP__MAX_BINDINGS]; } gp__binding_plan;
#define GP__R(name) GP__ROLE_##name
static const gp__binding_plan gp__binding_plans[GP__PROGRAM_COUNT] = {
    /* program                         the roles at bindings 0-3, then 4-7 (0: none; trailing ones left out) */
    { GP__PROGRAM_SCAN_REDUCE,       { GP__R(SCAN_INPUT), 0, GP__R(CHUNK_SUMS) } },
    { GP__PROGRAM_SCAN_BLOCK,        { GP__R(SCAN_INPUT), GP__R(SCAN_OUTPUT), GP__R(CHUNK_OFFSETS), GP__R(COUNT_WORDS) } },
    { GP__PROGRAM_DISPATCH_ARGS,     { GP__R(COUNT_WORDS), GP__R(ARGS) } },
    { GP__PROGRAM_COPY,              { GP__R(COPY_SOURCE), GP__R(COPY_DESTINATION) } },
    { GP__PROGRAM_SORT_LOCAL,        { GP__R(SORT_KEYS), GP__R(SORT_VALUES) } },
    { GP__PROGRAM_SORT_GLOBAL,       { GP__R(SORT_KEYS), GP__R(SORT_VALUES) } },
    { GP__PROGRAM_GRID_COUNT,        { GP__R(POSITION), GP__R(LIFE), GP__R(INFO), 0,
                                       GP__R(CELL_KEY), GP__R(CELL_COUNT), GP__R(STATS), GP__R(ORDER) } },
    { GP__PROGRAM_GRID_CARRY,        { 0, 0, 0, 0,
                                       GP__R(CARRY), 0, 0, GP__R(ORDER) } },
    { GP__PROGRAM_GRID_IDS,          { 0, 0, GP__R(INFO), 0,
                                       0, 0, GP__R(SLOT_OF_ID), GP__R(ORDER) } },
    { GP__PROGRAM_GRID_RANK,         { GP__R(RANKED), GP__R(ARGS), GP__R(CELL_START), 0,
                                       GP__R(CELL_KEY), GP__R(CELL_COUNT), GP__R(STATS), GP__R(ORDER) } },
    { GP__PROGRAM_GRID_REORDER,      { GP__R(REORDER_SOURCE), GP__R(REORDER_DESTINATION), GP__R(CARRIED_SOURCE), GP__R(CARRIED_DESTINATION),
                                       GP__R(CELL_KEY), GP__R(CELL_START), GP__R(SLOT_OF_ID), GP__R(ORDER) } },
    { GP__PROGRAM_STORE_FREE,        { 0, 0, GP__R(INFO), 0,
                                       GP__R(FREE_IDS), GP__R(CELL_START), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_STORE_COUNT,       { 0, 0, 0, 0,
                                       GP__R(FREE_IDS), GP__R(CELL_START), 0, GP__R(STORE) } },
    { GP__PROGRAM_STORE_APPEND,      { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(LIFE),
                                       GP__R(FLUID_STATE), GP__R(STAGING), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_STORE_CHECK,       { 0, 0, GP__R(INFO), 0,
                                       0, 0, GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_STORE_REMOVE,      { 0, 0, GP__R(INFO), 0,
                                       GP__R(FLAGS), GP__R(STAGING), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_STORE_AGE,         { 0, 0, GP__R(INFO), GP__R(LIFE) } },
    { GP__PROGRAM_SPRITE_DEPTH,      { GP__R(POSITION), 0, GP__R(INFO), GP__R(LIFE),
                                       GP__R(SORT_KEYS), GP__R(SORT_VALUES) } },
    { GP__PROGRAM_SPRITE_GATHER,     { GP__R(POSITION), 0, GP__R(INFO), GP__R(LIFE),
                                       GP__R(SORT_KEYS), GP__R(SORT_VALUES), GP__R(SPRITES) } },
    { GP__PROGRAM_SPRAY_FLAGS,       { 0, GP__R(VELOCITY), GP__R(INFO), 0,
                                       GP__R(SCAN_INPUT) } },
    { GP__PROGRAM_SPRAY_EMIT,        { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(LIFE),
                                       GP__R(SCAN_OUTPUT), GP__R(FREE_IDS), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_EMITTER_MESH,      { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(LIFE),
                                       GP__R(TRIANGLES), GP__R(FREE_IDS), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_EMITTER_POUR,      { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(LIFE),
                                       GP__R(FLUID_STATE), GP__R(FREE_IDS), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_EMITTER_EMIT,      { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(LIFE),
                                       GP__R(FLUID_STATE), GP__R(FREE_IDS), GP__R(SLOT_OF_ID), GP__R(STORE) } },
    { GP__PROGRAM_GRID_NEIGHBORS,    { GP__R(POSITION), 0, 0, 0,
                                       0, GP__R(CELL_START), GP__R(STATS), GP__R(NEIGHBOR_COUNT) } },
    { GP__PROGRAM_BOUNDARY_DISTANCE, { GP__R(POINTS), GP__R(DISTANCES), 0, 0,
                                       0, 0, GP__R(FIELDS) } },
    { GP__PROGRAM_SPH_DENSITY,       { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DENSITY),
                                       0, GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_SPH_CONTINUITY,    { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DENSITY),
                                       GP__R(FLUID_STATE), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_SPH_FORCE,         { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DENSITY),
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_SPH_INTEGRATE,     { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DENSITY),
                                       GP__R(ACCELERATION), GP__R(FLUID_STATE), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_DEM_CONTACT,       { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(BODIES),
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(HISTORY), GP__R(STATS) } },
    { GP__PROGRAM_DEM_WALLS,         { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(BODIES),
                                       GP__R(ACCELERATION), GP__R(FIELDS), GP__R(HISTORY), GP__R(STATS) } },
    { GP__PROGRAM_DEM_INTEGRATE,     { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), 0,
                                       GP__R(ACCELERATION), 0, 0, GP__R(STATS) } },
    { GP__PROGRAM_BODY_UPDATE,       { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(BODIES),
                                       GP__R(ACCELERATION), GP__R(SLOT_OF_ID), GP__R(OFFSETS), GP__R(STATS) } },
    { GP__PROGRAM_BODY_PARTICLES,    { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(BODIES),
                                       GP__R(ACCELERATION), GP__R(SLOT_OF_ID), GP__R(OFFSETS), GP__R(STATS) } },
    { GP__PROGRAM_COUPLING_PRESSURE, { GP__R(POSITION), 0, GP__R(INFO), GP__R(DENSITY),
                                       GP__R(CELL_COUNT), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_COUPLING_SOLID,    { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DENSITY),
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_COUPLING_DRAG,     { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), GP__R(DRAG),
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_COUPLING_DRAG_FLUID, { GP__R(POSITION), 0, GP__R(INFO), GP__R(DRAG),
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_COUPLING_GUARD,    { GP__R(POSITION), 0, GP__R(INFO), 0,
                                       GP__R(CELL_COUNT), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
    { GP__PROGRAM_STEP_CLOCK,        { 0, 0, 0, 0,
                                       0, 0, 0, GP__R(STATS) } },
    { GP__PROGRAM_EFFECTS_COLLIDE,   { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), 0,
                                       GP__R(ACCELERATION), GP__R(CELL_START), 0, GP__R(STATS) } },
    { GP__PROGRAM_EFFECTS_MOVE,      { GP__R(POSITION), GP__R(VELOCITY), GP__R(INFO), 0,
                                       GP__R(ACCELERATION), GP__R(CELL_START), GP__R(FIELDS), GP__R(STATS) } },
};
#undef GP__R

/* The most storage blocks one program of the plan binds. */
static int gp__plan_blocks(void) {
    int most = 0, p, b, n;
    for (p = 0; p < GP__PROGRAM_COUNT; ++p) {
        for (b = 0, n = 0; b < GP__MAX_BINDINGS; ++b) n += gp__binding_plans[p].roles[b] != 0;
        if (n > most) most = n;
    }
    return most;
}

/* The plan's row of a program. */
static const gp__binding_plan* gp__plan_of(gp__program_id id) {
    uint32_t p;
    for (p = 0; p < GP__PROGRAM_COUNT; ++p)
        if (gp__binding_plans[p].program == id) return &gp__binding_plans[p];
    GP_ASSERT(!"a program without a row in gp__binding_plans");
    return &gp__binding_plans[0];
}

/* The constants C and GLSL share, from their C values: GLSL never restates one. */
static int gp__shader_constants(char* out, size_t size) {
    return snprintf(out, size,
        "#define GP_GROUP_SIZE %d\n#define GP_KIND_FLUID %uu\n#define GP_KIND_GRANULAR %uu\n#define GP_KIND_RIGID %uu\n#define GP_KIND_EFFECT %uu\n"
        "#define GP_GRID_BOUNDED %d\n#define GP_GRID_HASHED %d\n#define GP_MAX_FLUID_MATERIALS %uu\n#define GP_MAX_FORCES %uu\n"
        "#define GP_MAX_COLLIDERS %uu\n#define GP_MAX_GRANULAR_MATERIALS %uu\n#define GP_MAX_EFFECT_MATERIALS %uu\n"
        "#define GP_WALL_SAMPLES %uu\n#define GP_FLAG_DETERMINISTIC %uu\n#define GP_KIND_CLOTH %uu\n#define GP_PARTICLE_DEAD %uu\n#define GP_NO_SLOT %uu\n"
        "#define GP_MAX_EMITTERS %uu\n#define GP_EMITTER_SPHERE %d.0\n#define GP_EMITTER_BOX %d.0\n#define GP_EMITTER_DISC %d.0\n#define GP_EMITTER_CONE %d.0\n"
        "#define GP_INTEGRATOR_MASK %uu\n#define GP_FLAG_ARTIFICIAL_VISCOSITY %uu\n"
        "#define GP_SHAPE_SPHERE %d.0\n#define GP_SHAPE_BOX %d.0\n#define GP_SHAPE_CAPSULE %d.0\n#define GP_SHAPE_PLANE %d.0\n"
        "#define GP_SHAPE_MESH %d.0\n#define GP_SHAPE_HEIGHTFIELD %d.0\n#define GP_SCAN_CHUNK %uu\n#define GP_SORT_RUN %uu\n"
        "#define GP_GRID_CROWD %uu\n#define GP_ARGS_RANK %du\n#define GP_ARGS_IDS %du\n#define GP_ARGS_SORT_LOCAL %du\n"
        "#define GP_ARGS_SORT_HALF %du\n#define GP_ARGS_SORT_QUARTER %du\n",
        GP_GROUP_SIZE, (unsigned)GP_KIND_FLUID, (unsigned)GP_KIND_GRANULAR, (unsigned)GP_KIND_RIGID, (unsigned)GP_KIND_EFFECT,
        (int)GP_GRID_BOUNDED, (int)GP_GRID_HASHED, (unsigned)GP_MAX_FLUID_MATERIALS, (unsigned)GP_MAX_FORCES,
        (unsigned)GP_MAX_COLLIDERS, (unsigned)GP_MAX_GRANULAR_MATERIALS, (unsigned)GP_MAX_EFFECT_MATERIALS,
        (unsigned)GP__WALL_SAMPLES, GP__FLAG_DETERMINISTIC, (unsigned)GP_KIND_CLOTH, GP_PARTICLE_DEAD, GP_NO_SLOT,
        (unsigned)GP_MAX_EMITTERS, (int)GP_EMITTER_SPHERE, (int)GP_EMITTER_BOX, (int)GP_EMITTER_DISC, (int)GP_EMITTER_CONE,
        GP__INTEGRATOR_MASK, GP__FLAG_ARTIFICIAL_VISCOSITY,
        (int)GP_SHAPE_SPHERE, (int)GP_SHAPE_BOX, (int)GP_SHAPE_CAPSULE, (int)GP_SHAPE_PLANE, (int)GP_SHAPE_MESH,
        (int)GP_SHAPE_HEIGHTFIELD, (unsigned)GP__SCAN_CHUNK, (unsigned)GP__SORT_RUN, GP_GRID_CROWD,
        GP__ARGS_RANK, GP__ARGS_IDS, GP__ARGS_SORT_LOCAL, GP__ARGS_SORT_HALF, GP__ARGS_SORT_QUARTER);
}

/* A program's text as GL receives it: strings[] (at most GP__SHADER_MAX_LINES + 8 of them) point
   into the embedded lines and into defines, which receives the header's defines (4 KiB is
   ample: the constants and eight bindings take under 1 KiB). prelude: the user's, or NULL.
   Returns the count of strings. tests/ calls this too, to hand glslangValidator each program
   exactly as the driver sees it. */
#define GP__SHADER_DEFINES_BYTES 4096
#define GP__SOURCE_PRELUDE 900   /* GLSL source numbers past the files' */
#define GP__SOURCE_DEFINES 901
GP__STATIC_ASSERT(source_numbers_free, GP__FILE_COUNT < GP__SOURCE_PRELUDE);
/* Line numbers carry the file too: line L of source number F is numbered (F + 1) * 10000 + L,
   since some drivers (Mesa 22 among them) report every semantic error as source 0; a line below
   10,000 is the stage file's #version line, the only one before a #line. gp__shader_log decodes
   them; tools/embed_shaders.sh refuses a file of 10,000 lines. */
#define GP__LINES_PER_SOURCE 10000u
static const char gp__line_prelude[] = "#line 9010001 900\n";
static const char gp__line_defines[] = "#line 9020001 901\n";
static int gp__shader_strings(gp__program_id id, const char* prelude, char* defines, char (*directives)[24],
                              const char** strings) {
    const gp__shader_source* source = &gp__shader_sources[id];
    const gp__shader_range* range;
    int count = 0, used, b;
    used = gp__shader_constants(defines, GP__SHADER_DEFINES_BYTES);
    if (id < GP__PROGRAM_COUNT) {
        const gp__binding_plan* plan = gp__plan_of(id);
        for (b = 0; b < GP__MAX_BINDINGS; ++b)
            if (plan->roles[b])
                used += snprintf(defines + used, GP__SHADER_DEFINES_BYTES - (size_t)used, "#define GP_BINDING_%s %d\n",
                                 gp__role_names[plan->roles[b]], b);
    }
    GP_ASSERT(used < GP__SHADER_DEFINES_BYTES);
    for (range = source->ranges; range->file != GP__FILE_COUNT; ++range) {
        const char* const* lines = gp__shader_files[range->file].lines + range->first;
        uint32_t line = range->line, n = range->count, k;
        if (range == source->ranges) {   /* the #version line, then the header's and the user's defines */
            strings[count++] = lines[0];
            strings[count++] = gp__line_defines;
            strings[count++] = defines;
            if (prelude) { strings[count++] = gp__line_prelude; strings[count++] = prelude; strings[count++] = "\n"; }
            ++lines; ++line; --n;
        }
        snprintf(directives[range - source->ranges], 24, "#line %u %u\n", (range->file + 1u) * GP__LINES_PER_SOURCE + line,
                 (unsigned)range->file);
        strings[count++] = directives[range - source->ranges];
        for (k = 0; k < n; ++k) strings[count++] = lines[k];
    }
    return count;
}

/* >>structs ================================================================================
   The world, and the state of each system in it; the C mirrors of the shaders' blocks. */

/* The world. Buffer names are GL's; sizes in bytes. */
#define GP__TIMER_MAX_PENDING 1024
/* The stages gp_timings_read reports, in the order it lists them: the totals' table is sized by
   this list, so no stage can fall off it. */
#define GP__STAGES(X)                                                                                   \
    X(SCAN, "scan") X(COMPACT, "compact") X(SORT, "sort") X(COPY, "copy")                              \
    X(GRID_COUNT, "grid_count") X(GRID_SCAN, "grid_scan") X(GRID_ORDER, "grid_order")                  \
    X(GRID_REORDER, "grid_reorder") X(NEIGHBORS, "neighbors")                                          \
    X(SPH_DENSITY, "sph_density") X(SPH_CONTINUITY, "sph_continuity") X(SPH_FORCE, "sph_force")        \
    X(SPH_INTEGRATE, "sph_integrate") X(DEM_CONTACT, "dem_contact") X(DEM_WALLS, "dem_walls")          \
    X(DEM_INTEGRATE, "dem_integrate") X(GRID_CARRY, "grid_carry")                                      \
    X(BODY_UPDATE, "body_update") X(BODY_PARTICLES, "body_particles") X(COUPLING_SOLID, "coupling_solid") \
    X(COUPLING_PRESSURE, "coupling_pressure")                                                          \
    X(COUPLING_DRAG, "coupling_drag") X(COUPLING_DRAG_FLUID, "coupling_drag_fluid")                    \
    X(COUPLING_GUARD, "coupling_guard") X(STEP_CLOCK, "step_clock") X(EFFECTS_COLLIDE, "effects_collide") \
    X(EFFECTS_MOVE, "effects_move") X(STORE_AGE, "store_age") X(STORE_COUNT, "store_count")           \
    X(STORE_APPEND, "store_append") X(STORE_REMOVE, "store_remove") X(STORE_CHECK, "store_check")      \
    X(EMITTER_EMIT, "emitter_emit")                                                                       \
    X(EMITTER_SPRAY, "emitter_spray") X(SPRITES, "sprites")
typedef enum gp__stage {
#define GP__STAGE_ENUM(name, text) GP__STAGE_##name,
    GP__STAGES(GP__STAGE_ENUM)
#undef GP__STAGE_ENUM
    GP__STAGE_COUNT
} gp__stage;

/* The std140 uniform block of shaders_embedded/gp_world.glsl, field for field. */
typedef struct gp__world_params {
    float grid_origin[4];   /* xyz lowest corner, w cells per metre (1 / cell size, see gp_grid.glsl) */
    int32_t grid_dims[4];   /* xyz cells per axis, w mode */
    uint32_t counts[4];     /* slots in use (the GPU's: store_count copies it here), buckets, capacity, flags */
} gp__world_params;
GP__STATIC_ASSERT(world_params_is_std140, sizeof(gp__world_params) == 48);

/* The world's statistics, the STATS role (shaders_embedded/gp_buffers.glsl's gp_stats_block), word
   for word: the grid's three, reset by every build; the solvers' four, reset every substep; the
   non-finite updates, kept; then the step's clock (step_clock.comp): what the host writes at the
   start of a step (clock_start ... clock_limit), and what the GPU keeps. Floats as their bits
   (non-negative floats order as uints). */
typedef struct gp__stats {
    uint32_t outside, nonfinite, truncated;
    uint32_t max_speed, min_density, max_density, wall_pushes;
    uint32_t bad_updates;
    uint32_t clock_start, clock_dt, clock_planned, clock_substeps, clock_speed, clock_sound, clock_spacing,
             clock_max_cfl, clock_limit;
    uint32_t clock_remaining, clock_left, clock_clean, clock_h, clock_lag, clock_cfl;
    uint32_t unkept;    /* contacts with no free slot to keep their spring in, since the world was made */
    uint32_t solid_gap, solid_radius;   /* the contact passes' look-ahead, reset every substep */
    uint32_t clock_contact, clock_free, clock_reach, clock_accel, clock_near;
    uint32_t crowded;   /* particles past the GP_GRID_CROWD-th of their bucket, reset by every build */
} gp__stats;
GP__STATIC_ASSERT(stats_is_std430, sizeof(gp__stats) == 128);
#define GP__STATS_GRID_BYTES 12u                                      /* outside, nonfinite, truncated */
#define GP__STATS_SUBSTEP_AT offsetof(gp__stats, max_speed)           /* 16 bytes reset every substep */
/* What each step copies for the step after next: outside, nonfinite, truncated, max_speed, then clock_lag. */
#define GP__STATS_STEP_AT offsetof(gp__stats, outside)
#define GP__STATS_STEP_BYTES 16u
/* What each step copies for the step after next (gp__step_state.stats): those four words (the
   last build's particles outside the grid first), then clock_lag, the store's count, its refused
   removals and refused births, the contacts unkept, clock_near (a substep of the step had a
   contact or one about to begin), and the last build's particles past the GP_GRID_CROWD-th of
   their bucket. */
typedef struct gp__step_words {
    uint32_t outside, nonfinite, truncated, max_speed, lag, count, refused, refused_births, unkept, near, crowded;
} gp__step_words;

/* The store's words on the GPU, the STORE role (gp_buffers.glsl's gp_store_block), word for word:
   the count and the free-id queue, a removal's check, and the indirect arguments of every pass
   over the store and of the draw (store_count writes them). */
typedef struct gp__store_words {
    uint32_t count, died, free_head, free_count, check;
    uint32_t dispatch[3];
    uint32_t draw[4];
    uint32_t refused, refused_births, spray;
    uint32_t padding;
} gp__store_words;
GP__STATIC_ASSERT(store_words_is_std430, sizeof(gp__store_words) == 64);
GP__STATIC_ASSERT(store_draw_offset, offsetof(gp__store_words, draw) == GP_STORE_DRAW_OFFSET);

/* The std140 uniform block of shaders_embedded/gp_emitter.glsl (binding 2), field for field: the
   substep's emission, then each emitter. */
typedef struct gp__emitter_gpu {
    float position[4];    /* xyz centre, w shape */
    float axis[4];        /* xyz unit direction, w spread */
    float extent[4];      /* xyz half extents, w radius */
    float motion[4];      /* speed range, particle radius, mass */
    float life[4];        /* lifetime range, 0, 0 */
    uint32_t info[4];     /* kind | phase << 16, owner, user, seed */
    uint32_t births[4];   /* first birth of the substep, births, serial of the first, 0 */
    float size[4];        /* the size curve's keys */
    float color[4][4];    /* the colour curve's keys */
    uint32_t mesh[4];     /* first triangle, triangles, 0, 0 */
} gp__emitter_gpu;
typedef struct gp__emitter_block {
    uint32_t emission[4];   /* births, emitters, births with never-used ids, the first of those ids */
    gp__emitter_gpu emitters[GP_MAX_EMITTERS];
} gp__emitter_block;
GP__STATIC_ASSERT(emitter_block_is_std140, sizeof(gp__emitter_block) == 16 + 208 * GP_MAX_EMITTERS);

/* The std140 uniform block of shaders_embedded/gp_solver.glsl, field for field. */
typedef struct gp__fluid_params {
    float shape[4];                            /* l0, re, rho0, k */
    float flow[4];                             /* nu, p0, mass, 1 = tension allowed */
    float kernel[4];                           /* poly6, spiky gradient, viscosity Laplacian coefficients, re^2 */
    float table[4];                            /* the tables' sample spacing s, continuity 1 / summation 0, diffusion,
                                                  artificial viscosity alpha */
    float wall_density[GP__WALL_SAMPLES];      /* Z_rho at d = k s */
    float wall_viscosity[GP__WALL_SAMPLES];
    float wall_gradient[GP__WALL_SAMPLES];     /* A, M_n, M_t of the walls' pressure term (gp_wall in gp_sph.glsl) */
    float wall_normal[GP__WALL_SAMPLES];
    float wall_tangent[GP__WALL_SAMPLES];
} gp__fluid_params;
typedef struct gp__solver_params {
    float gravity[4];                          /* xyz, w the substep */
    uint32_t counts[4];                        /* colliders, forces, integrator, unused */
    gp__fluid_params fluids[GP_MAX_FLUID_MATERIALS];
    float forces[GP_MAX_FORCES][8];
    float colliders[GP_MAX_COLLIDERS][12];
    float granular[GP_MAX_GRANULAR_MATERIALS][8];   /* k, eta, k_t, mu, diameter, mass, 0, 0 */
    float effects[GP_MAX_EFFECT_MATERIALS][8];      /* drag k, restitution, friction, ride; collide, 0, 0, 0 */
    float wind[6][4];                               /* gp_solver.glsl's gp_wind: the wind's terms */
} gp__solver_params;
GP__STATIC_ASSERT(solver_params_is_std140, sizeof(gp__solver_params) == 32 + 704 * 8 + 32 * 8 + 48 * 32 + 32 * 8 + 32 * 8 + 16 * 6);

/* A rigid body's shape (section >>rigid): its particles' offsets in the principal frame, here and
   from first_offset in w->offsets. */
typedef struct gp__body_shape {
    uint32_t id, phase, particles, first_offset;
    float mass, particle_mass, particle_radius;
    float reach;                               /* the farthest particle's distance from the centre of mass (m) */
    float com[3], inertia[3], principal[4];   /* shape frame; principal moments; (x, y, z, w) */
    float* offsets;                            /* 4 floats per particle */
    gp__GLuint draw_vertices, draw_indices;    /* gp_draw_bodies' mesh, principal frame */
    uint32_t draw_index_count;
} gp__body_shape;
/* Bodies [first, first + count) share a shape: gp_draw_bodies draws each run in one call. */
typedef struct gp__body_run { uint32_t shape, first, count; } gp__body_run;
/* A rigid body on the GPU: shaders_embedded/gp_dem.glsl's gp_body, field for field. */
typedef struct gp__body_gpu {
    float x[4], q[4], p[4], l[4], inertia[4];
    uint32_t particles[4];
} gp__body_gpu;
GP__STATIC_ASSERT(body_is_std430, sizeof(gp__body_gpu) == 96);

/* A collider as added; a mesh keeps its distance field's samples here and in w->fields. */
typedef struct gp__collider {
    uint32_t id;
    gp_collider_desc desc;                     /* the mesh pointers cleared */
    float field_origin[3], field_voxel;
    uint32_t field_dims[3];
    float* field_samples;                      /* NULL for analytic shapes */
} gp__collider;

typedef struct gp__pour {
    uint32_t id;
    gp_pour_desc desc;                         /* direction normalised */
    double clock;                              /* seconds since the last layer */
    bool layers_dropped;                       /* warned once that it owed more layers than a substep lays */
    double owed;                               /* particles due but not yet emitted (fractions) */
    gp_pour_state state;
} gp__pour;
#define GP__MAX_POURS 16

typedef struct gp__timer { gp__stage stage; gp__GLuint begin, end; } gp__timer;

/* Each system's state, one struct each; the world holds one of every kind. A new system adds its
   struct here and a member to gp_world, and reaches the others only through the store and the grid. */

/* The walls (section >>colliders): every collider, every mesh's distance field. */
typedef struct gp__collider_system {
    gp__collider list[GP_MAX_COLLIDERS];
    uint32_t count, next_id;
    gp__GLuint fields;                    /* every mesh's distance field, one after another */
    gp__GLuint points, distances;         /* gp_boundary_distance_read's scratch */
    size_t points_bytes, distances_bytes;
} gp__collider_system;

/* The SPH fluid (section >>sph). */
typedef struct gp__fluid_system {
    gp_fluid_material materials[GP_MAX_FLUID_MATERIALS];   /* resolved */
    uint32_t phases;                      /* bit per phase that fluid particles were added with */
    uint32_t stiffness_auto;              /* bit per phase whose stiffness was left to its default: the
                                             first block or ball of it sets it (gp__fluid_stiffness_for) */
    bool valid;                           /* density, pressure, acceleration match the slots */
    uint32_t count;                       /* slots they cover */
    gp__GLuint state;                     /* vec2 per particle: the continuity model's density (0: not yet
                                             set, rest density), unused; made with the first such material */
    gp__pour pours[GP__MAX_POURS];
    uint32_t pour_count, next_pour_id;
} gp__fluid_system;

/* Granular matter (section >>dem): the contact model of grains and rigid particles. */
typedef struct gp__dem_system {
    gp_granular_material materials[GP_MAX_GRANULAR_MATERIALS];   /* resolved */
    uint32_t phases;                      /* bit per phase that grains or rigid particles use */
    bool grains;                          /* grains were added (not only bodies' particles) */
    bool warned;                          /* warned since the substep was last short enough for the grains */
    gp__GLuint history;                   /* the contacts kept (gp_dem.glsl): two blocks of contact_slots + 1
                                             uvec4s per slot; made with the first grain or body */
    uint32_t stamp;                       /* the substeps with contacts so far, plus one (gp_dem.glsl's u_stamp) */
    uint32_t unkept;                      /* contacts that found no free slot, as last reported */
    bool unkept_warned;                   /* warned, and contacts have kept finding no slot since */
} gp__dem_system;

/* The fluid and the solids (section >>coupling). */
typedef struct gp__coupling_system {
    gp__GLuint drag;                      /* vec4 per slot: coupling_drag's force on a grain the fluid drags and
                                             its weights, then a stamp per bucket (gp_buffers.glsl's gp_drag);
                                             made with the first substep that has fluid and grains */
    uint32_t stamp;                       /* the substeps that ran the drag, plus one (the shaders' u_stamp) */
} gp__coupling_system;

/* Effect particles (section >>effects). */
typedef struct gp__effects_system {
    gp_effect_material materials[GP_MAX_EFFECT_MATERIALS];   /* resolved */
    bool any;                             /* effect particles were added: the stage runs */
    bool collide;                         /* a material collides: effects_collide runs */
    float* wind_grid;                     /* the host copy of the wind's grid (3 floats a node), in the FIELDS buffer */
    size_t wind_nodes;
} gp__effects_system;

/* Rigid bodies (section >>rigid). */
typedef struct gp__rigid_system {
    gp__body_shape* shapes;
    uint32_t shape_count, shape_capacity, next_shape_id;
    gp__GLuint offsets;                   /* every shape's particle offsets, one after another */
    size_t offsets_bytes;
    uint32_t offset_count;
    gp__GLuint bodies;                    /* a vec4 per slot (contact torques), then a gp__body_gpu
                                             per body: gp_dem.glsl's gp_rigid */
    size_t bodies_bytes;
    uint32_t body_count;
    uint8_t* generations;                 /* per body number: the generation in its handles (1 and up) */
    uint32_t generation_capacity;
    gp__body_run* runs;
    uint32_t run_count, run_capacity;
} gp__rigid_system;

/* The step (section >>step): what picks the substeps, and the statistics read two steps late. */
typedef struct gp__step_state {
    float max_speed;                      /* of the last substep of the step before last */
    gp__GLuint stats[2];                  /* after each of the last two steps: the statistics' words 0-3, clock_lag,
                                             the store's count and refused removals (gp__step_words) */
    gp__GLsync fence[2];                  /* signalled when that copy is done; NULL: none pending */
    uint32_t slot;                        /* where this step's copy goes: the older of the two */
    float added_speed;                    /* fastest particle added or written from the host since the last step */
    float added_before;                   /* the same for the step before: not yet in the statistics read */
    uint32_t nonfinite_warned;            /* non-finite positions the step last warned about */
    bool outside_warned, crowded_warned;  /* warned, and particles have stayed outside the grid / crowded since */
    float lag;                            /* seconds the step before last left owed (clock_lag) */
    bool lag_warned;                      /* warned since the world last owed nothing */
    bool capped_warned;                   /* warned since a step last needed 1,000 substeps or fewer */
    uint32_t last_substeps;
    float last_substep, last_cfl;
    bool cfl_warned;                      /* warned since the CFL number was last fine */
    bool near;                            /* the step before last had a contact, or one about to begin
                                             (clock_near): plan the contacts' substeps; true until known */
    bool moved;                           /* particles added or written, or a collider added, since the
                                             last step: the contact passes' last look is out of date */
} gp__step_state;

/* The store's births and deaths (sections >>grid and >>store): its count lives on the GPU
   (gp__store_words); the host keeps a bound of it (gp_world.count: the GPU's count of the step
   before last, from the statistics, plus everything appended since) and the ids it gives. */
typedef struct gp__store_state {
    gp__GLuint words;                     /* gp__store_words */
    gp__GLuint free_ids;                  /* the free-id queue, id_space uints */
    uint32_t id_space;                    /* 2 capacity: every id is below it */
    uint32_t next_id;                     /* the first never-used id */
    bool mortal;                          /* a particle may die (added with a lifetime, life written,
                                             a removal): the builds then give the dead back */
    uint64_t added;                       /* particles appended since the world was made */
    uint64_t added_at[2];                 /* `added` when each of the two step statistics' copies was made */
    uint32_t refused;                     /* store_refused as the statistics last showed it */
    uint32_t refused_births;              /* store_refused_births, the same way */
    uint32_t readbacks;                   /* waits for the GPU (gp_world_readbacks) */
} gp__store_state;

/* Emitters (section >>emitters). */
typedef struct gp__emitter {
    gp_emitter_desc desc;                 /* resolved */
    uint32_t generation;                  /* of the slot: a handle is (generation << 8) | (slot + 1) */
    bool live;
    double time;                          /* seconds of steps since its rate was set */
    uint64_t by_rate;                     /* births its rate gave in that time: floor(rate time) */
    uint64_t emitted;                     /* births planned since it was added */
    uint32_t burst;                       /* births waiting for the next step's first substep */
    uint32_t step_births;                 /* this step's by its rate, spread over its substeps */
    uint32_t step_burst;                  /* this step's burst, all in its first substep */
    uint32_t serial;                      /* the serial number of its next birth */
    float* triangles;                     /* GP_EMITTER_MESH: 12 floats a triangle (three corners, the
                                             first's w its cumulative share of the area) */
    uint32_t triangle_count, first_triangle;
    uint32_t mesh_births;                 /* this substep's, for its own pass */
    double clock, owed;                   /* GP_EMITTER_POUR: seconds since its last layer, births due */
    bool layers_dropped;                  /* warned once that it owed more layers than a substep lays */
} gp__emitter;
typedef struct gp__emitter_system {
    gp__emitter emitters[GP_MAX_EMITTERS];
    gp__GLuint table;                     /* gp__emitter_block, the uniform block at binding 2 */
    gp__emitter_block block;
    uint32_t substep, substeps;           /* where the step is: births are spread over its substeps */
    float h;                              /* the step's planned substep (a spray's chance is rate h) */
    gp__GLuint flags, sources;            /* a spray's: a flag and a source slot per slot (with a spray emitter) */
    gp__GLuint triangles;                 /* every mesh emitter's triangles, one after another */
    size_t triangles_bytes;
    bool any;                             /* an emitter was added: the stage runs */
} gp__emitter_system;

/* The draw helpers (section >>draw), made on the first draw. */
typedef struct gp__draw_state {
    gp__GLuint particles, vao, bodies;
    gp__GLuint sprites_program, sprites_vao;
    gp__GLuint keys, values, sprites;     /* gp_draw_effects': a sort key and value and a sprite per slot */
} gp__draw_state;

/* Buffer names a world keeps without an allocation (gp__buffer_own): a new world and its first
   particles make 22, so that it stays one allocation; one with fluid, a body, an emitter and a scan
   makes 30, and the rest go to the heap (world_keeps_every_buffer_it_made runs both ways). */
#define GP__OWNED_INSIDE 24
/* A buffer the world made: its name, what it holds (for messages), whether GP_BUFFER_GUARD's
   pattern follows its end (not the uploads'). */
typedef struct gp__owned_buffer {
    gp__GLuint name;
    bool guarded;
    const char* what;
} gp__owned_buffer;

struct gp_world {
    gp_world_desc desc;                   /* resolved */
    gp__gl gl;
    gp_result last_result;
    gp__GLint64 max_block_bytes;          /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
    gp__GLuint programs[GP__PROGRAM_COUNT];   /* the compute programs by gp__program_id */
    gp__program_id current;               /* the program gp__use made current */
    /* the particle store */
    uint32_t capacity, count;             /* count: the host's bound of the GPU's (gp__store_state) */
    gp__store_state store;
    gp__GLuint position, velocity, info, life;
    gp__GLuint spare16, spare8;           /* reorder targets, swapped with the attribute */
    gp__GLuint slot_of_id;
    float added_lo[3], added_hi[3];       /* the extent of every particle added from the host (lo > hi: none) */
    /* the grid */
    uint32_t buckets;                     /* not counting the NaN bucket */
    gp__GLuint cell_key, order;           /* uint per particle */
    gp__GLuint carried;                   /* a system's blocks per slot that the build moves with the
                                             particles (gp__grid_carry); 0: none */
    uint32_t carried_stride;              /* uvec4s per block */
    gp__GLuint cell_count, cell_start;    /* uint per bucket, plus three (NaN, dead, the end); the
                                             counts, then (read by the scan) the solids' marks
                                             (GP_SOLID_BUCKET, gp_coupling.glsl) */
    gp__GLuint grid_stats;                /* outside, nonfinite, truncated, then the solvers' 5 words */
    gp__GLuint grid_args;                 /* a deterministic build's dispatches (grid_rank's plan): its
                                             ranking's, grid_ids', the sort's three sizes (5 x 3 words) */
    gp__GLuint params;                    /* the uniform block */
    gp__GLuint upload;                    /* the last host upload's own buffer (gp__upload_storage) */
    gp__owned_buffer* owned;              /* every buffer the world made for itself (gp__buffer_own): */
    gp__owned_buffer owned_inside[GP__OWNED_INSIDE];   /* here while they fit (no allocation), else on the heap */
    uint32_t owned_count, owned_capacity;
    gp__world_params params_host;
    bool grid_built;
    /* the solvers' parameters: materials, forces, colliders (gp_solver.glsl) */
    gp__GLuint solver;                    /* the uniform block */
    gp__solver_params solver_host;
    /* the systems */
    gp__collider_system colliders;
    gp__fluid_system fluid;
    gp__dem_system dem;
    gp__rigid_system rigid;
    gp__coupling_system coupling;
    gp__effects_system effects;
    gp__emitter_system emitters;
    gp__step_state step;
    gp__draw_state draw;
    /* scratch, grown on demand */
    gp__GLuint scan_sums[GP__SCAN_MAX_LEVELS];
    size_t scan_sums_bytes[GP__SCAN_MAX_LEVELS];
    /* timer queries */
    gp__timer pending[GP__TIMER_MAX_PENDING];
    uint32_t pending_count;
    gp_timing totals[GP__STAGE_COUNT];    /* runs 0: not timed since the last read */
    /* the state saved by gp__begin */
    gp__GLint saved_program;
    const char* call;                     /* the public function running, for messages */
};

#define GP__LOG(w, level, ...) gp__log(&(w)->desc.logger, level, __VA_ARGS__)

/* A call given no world has no logger to tell: the default one (stderr) says so. */
static gp_result gp__no_world(const char* call) {
    gp__log(NULL, GP_LOG_ERROR, GP_LOG_ITEM_WORLD_NULL, "%s: world is NULL (GP_ERROR_INVALID_ARGUMENT)", call);
    return GP_ERROR_INVALID_ARGUMENT;
}

/* Logs an error of the running call and returns it; the usual exit of a failing check. */
static gp_result gp__fail(gp_world* w, gp_result result, gp_log_item item, const char* fmt, ...) {
    char message[7168];   /* room for a shader compile log (6 KiB) */
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    GP__LOG(w, GP_LOG_ERROR, item, "%s: %s (%s)", w->call ? w->call : "gpuparticle", message, gp_result_string(result));
    w->last_result = result;
    return result;
}

/* >>buffers ================================================================================ */

/* The names of every buffer the world made for itself (gp__buffer_new, the uploads), so that
   gp_buffer_destroy refuses them all, not only gp_world_buffers' (a user's call that deleted an
   internal one, a scan's sums, say, failed every later call of the world with a GL error: found by
   a hostile-input run, 2026-11-29), gp_world_destroy deletes whatever is left, and a
   GP_BUFFER_GUARD build checks each one's guard. A few dozen: searched in order. */
static bool gp__buffer_owned(const gp_world* w, gp__GLuint buffer) {
    uint32_t i;
    for (i = 0; i < w->owned_count; ++i)
        if (w->owned[i].name == buffer) return true;
    return false;
}

static gp_result gp__buffer_own(gp_world* w, gp__GLuint buffer, bool guarded, const char* what) {
    if (!w->owned) {
        w->owned = w->owned_inside;
        w->owned_capacity = GP__OWNED_INSIDE;
    }
    if (w->owned_count == w->owned_capacity) {
        gp__owned_buffer* more = (gp__owned_buffer*)gp__alloc(&w->desc.allocator, 2u * w->owned_capacity * sizeof *more);
        if (!more) return GP_ERROR_OUT_OF_MEMORY;
        memcpy(more, w->owned, w->owned_count * sizeof *more);
        if (w->owned != w->owned_inside) gp__free(&w->desc.allocator, w->owned);
        w->owned = more;
        w->owned_capacity *= 2u;
    }
    w->owned[w->owned_count].name = buffer;
    w->owned[w->owned_count].guarded = guarded;
    w->owned[w->owned_count].what = what;
    ++w->owned_count;
    return GP_OK;
}

static void gp__buffer_disown(gp_world* w, gp__GLuint buffer) {
    uint32_t i;
    for (i = 0; i < w->owned_count; ++i)
        if (w->owned[i].name == buffer) {
            w->owned[i] = w->owned[--w->owned_count];
            return;
        }
}

static void gp__buffer_delete(gp_world* w, gp__GLuint* buffer) {
    if (*buffer) {
        gp__buffer_disown(w, *buffer);
        w->gl.fnDeleteBuffers(1, buffer);
    }
    *buffer = 0;
}

/* Fills bytes at offset with word (offset and bytes multiples of 4). */
static void gp__buffer_fill(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, uint32_t word) {
    if (!bytes) return;
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, buffer);
    w->gl.fnClearBufferSubData(GP__GL_COPY_WRITE_BUFFER, GP__GL_R32UI, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes,
                               GP__GL_RED_INTEGER, GP__GL_UNSIGNED_INT, &word);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
}

static void gp__buffer_zero(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes) { gp__buffer_fill(w, buffer, offset, bytes, 0u); }

/* Host data into a buffer that passes already sent may still be reading. GL's barriers order a
   shader's writes before a later glBufferSubData, not its reads, and a driver may carry the update
   out before them: NVIDIA's (580, on an H100) did, and a particle add's second chunk overwrote the
   staging that the first chunk's store_append had yet to read. Giving the same buffer fresh
   storage (glBufferData) was not enough there either: 400 adds of one particle each, the same 64
   bytes staged each time, left 21 particles read from the next add's staging (each such particle
   lost, its neighbour in the store twice; the bench's million grains staged in equal chunks
   alike), as if the driver wrote the new data in place while the dispatch that read the old was
   still queued. So every upload gets a buffer of its own: the last one is deleted (GL keeps its
   storage until the commands sent with it have run) and a new name takes the data, which the GPU
   then copies into place in command order. No buffer's storage is specified twice, and no call
   writes a world buffer with glBufferSubData (test driver_no_host_write_in_flight watches both).
   gp__buffer_stage alone leaves the data in the upload buffer, where a pass that binds the STAGING
   role reads it (a particle add, a removal by ids): no copy. Restaging before that pass is sent
   would lose the data; after it, the pass keeps the buffer it was sent with. */
static void gp__upload_storage(gp_world* w, size_t bytes, const void* src) {
    gp__buffer_delete(w, &w->upload);
    w->gl.fnGenBuffers(1, &w->upload);
    (void)gp__buffer_own(w, w->upload, false, "an upload");   /* without host memory only gp_buffer_destroy's refusal misses it */
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, w->upload);
    w->gl.fnBufferData(GP__GL_COPY_READ_BUFFER, (gp__GLsizeiptr)(bytes ? bytes : 4), src, GP__GL_STREAM_DRAW);
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
}

/* Stages bytes (src NULL: room only) for a pass that binds the STAGING role; the reason logged
   when GL has no room for them. */
static gp_result gp__buffer_stage(gp_world* w, size_t bytes, const void* src, const char* what) {
    while (w->gl.fnGetError() != GP__GL_NO_ERROR) {}
    gp__upload_storage(w, bytes, src);
    if (w->gl.fnGetError() != GP__GL_NO_ERROR)
        return gp__fail(w, GP_ERROR_GPU_OUT_OF_MEMORY, GP_LOG_ITEM_GPU_OUT_OF_MEMORY, "GL could not allocate %zu bytes for %s", bytes, what);
    return GP_OK;
}

static void gp__buffer_upload(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, const void* src) {
    if (!bytes) return;
    gp__upload_storage(w, bytes, src);   /* a GL error is left for gp__end to report */
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, w->upload);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, buffer);
    w->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, 0, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes);
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
}

/* GP_BUFFER_GUARD's pattern: a NaN as a float, so that a pass reading past a buffer's end reads
   what the statistics count as non-finite, and a word no pass writes by chance. */
#define GP__GUARD_WORD 0x7fa5a5a5u

/* A new buffer of bytes (contents undefined unless data), or 0 with the reason logged; the
   world's own unless user (gp_buffer_create). The world's own carry GP_BUFFER_GUARD bytes of
   GP__GUARD_WORD right after their end (the next multiple of 4), and without data start filled
   with it, so that a pass that reads what no pass wrote reads NaN, not llvmpipe's zeros (their
   data, if any, comes through an upload: world creation and shapes, where no stage waits for
   its pass). */
static gp_result gp__buffer_make(gp_world* w, size_t bytes, const void* data, const char* what, bool user, gp__GLuint* out) {
    gp__gl* gl = &w->gl;
    gp__GLuint buffer = 0;
    size_t guard = user ? 0 : (size_t)GP_BUFFER_GUARD, end = guard ? (bytes + 3u) & ~(size_t)3u : bytes;
    *out = 0;
    if ((uint64_t)bytes > (uint64_t)w->max_block_bytes - (guard ? guard + 3u : 0u))   /* unsigned: (size_t)-1 is not -1 bytes */
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "%s needs %zu bytes; this GL allows %lld per shader storage block",
                        what, bytes, (long long)w->max_block_bytes);
    while (gl->fnGetError() != GP__GL_NO_ERROR) {}
    gl->fnGenBuffers(1, &buffer);
    gl->fnBindBuffer(GP__GL_SHADER_STORAGE_BUFFER, buffer);
    gl->fnBufferData(GP__GL_SHADER_STORAGE_BUFFER, (gp__GLsizeiptr)(end + guard), guard ? NULL : data, GP__GL_DYNAMIC_COPY);
    gl->fnBindBuffer(GP__GL_SHADER_STORAGE_BUFFER, 0);
    if (gl->fnGetError() != GP__GL_NO_ERROR) {
        gl->fnDeleteBuffers(1, &buffer);
        return gp__fail(w, GP_ERROR_GPU_OUT_OF_MEMORY, GP_LOG_ITEM_GPU_OUT_OF_MEMORY,
                        "GL could not allocate %zu bytes for %s", bytes, what);
    }
    if (guard) {
        gp__buffer_fill(w, buffer, data ? end : 0, data ? guard : end + guard, GP__GUARD_WORD);
        if (data) gp__buffer_upload(w, buffer, 0, bytes, data);
    }
    if (!user && gp__buffer_own(w, buffer, guard > 0, what) != GP_OK) {
        gl->fnDeleteBuffers(1, &buffer);
        return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY, "no host memory to keep the name of %s", what);
    }
    *out = buffer;
    return GP_OK;
}

static gp_result gp__buffer_new(gp_world* w, size_t bytes, const void* data, const char* what, gp__GLuint* out) {
    return gp__buffer_make(w, bytes, data, what, false, out);
}

/* Grows a GPU buffer to hold at least bytes, keeping its first keep bytes: one that keeps its
   contents (an array appended to) doubles, so that appends cost amortised O(1); a scratch
   buffer (keep 0, contents not kept) takes exactly bytes. size: its bytes now. */
static gp_result gp__buffer_grow(gp_world* w, gp__GLuint* buffer, size_t* size, size_t bytes, size_t keep, const char* what) {
    gp__GLuint grown = 0;
    size_t target = keep ? (*size ? *size : 1024) : bytes ? bytes : 4;
    gp_result r;
    if (*buffer && *size >= bytes) return GP_OK;
    while (target < bytes) target *= 2;
    if ((r = gp__buffer_new(w, target, NULL, what, &grown)) != GP_OK) return r;
    if (*buffer && keep) {
        w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, *buffer);
        w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, grown);
        w->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, 0, 0, (gp__GLsizeiptr)keep);
        w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
        w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
    }
    gp__buffer_delete(w, buffer);
    *buffer = grown;
    *size = target;
    return GP_OK;
}

/* Checks that a user's buffer exists and holds at least bytes. role names it in the message. */
static gp_result gp__check_buffer(gp_world* w, gp__GLuint buffer, size_t bytes, const char* role) {
    gp__gl* gl = &w->gl;
    gp__GLint64 size = 0;
    if (buffer == 0 || !gl->fnIsBuffer(buffer))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID, "%s %u is not a GL buffer", role, buffer);
    gl->fnBindBuffer(GP__GL_COPY_READ_BUFFER, buffer);
    gl->fnGetBufferParameteri64v(GP__GL_COPY_READ_BUFFER, GP__GL_BUFFER_SIZE, &size);
    gl->fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
    if ((uint64_t)size < (uint64_t)bytes)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID, "%s %u holds %lld bytes; this call needs %zu",
                        role, buffer, (long long)size, bytes);
    return GP_OK;
}

/* The contact passes' last look (the smallest gap between solids, step_clock's look-ahead) is out
   of date: particles were added, written or born since. The next substep takes the contacts'
   limit, as if two solids touched. Any system that adds solids calls it (the statistics' word,
   gp__stats.solid_gap, that dem_contact and dem_walls write). */
static void gp__contacts_unseen(gp_world* w) {
    const uint32_t touching = 0u;
    gp__buffer_upload(w, w->grid_stats, offsetof(gp__stats, solid_gap), sizeof touching, &touching);
}

/* Uploads the solvers' uniform block whole (materials, colliders, forces: section >>structs). */
static void gp__solver_upload(gp_world* w) {
    gp__buffer_upload(w, w->solver, 0, sizeof w->solver_host, &w->solver_host);
}

static void gp__buffer_read(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, void* dst) {
    if (!bytes) return;
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, buffer);
    w->gl.fnGetBufferSubData(GP__GL_COPY_READ_BUFFER, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes, dst);
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
}

/* A readback that waits for the GPU to finish what it was sent (counted: gp_world_readbacks). The
   step's statistics come through gp__buffer_read alone, from a copy a fence says is done. */
static void gp__buffer_download(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, void* dst) {
    ++w->store.readbacks;
    gp__buffer_read(w, buffer, offset, bytes, dst);
}

/* GP_BUFFER_GUARD builds: reads the guard after the end of every buffer the world made and logs
   each one that a pass wrote over (GP_LOG_ITEM_BUFFER_OVERRUN, naming the buffer and the first
   word written). llvmpipe drops a write past the end of a bound
   buffer, and a GPU may put it in whatever memory follows: only the guard shows it. */
#if GP_BUFFER_GUARD > 0
/* What a buffer the world made holds now: the store's attributes and spares trade names at each
   grid build (gp__reorder), so its first purpose may no longer be its own. */
static const char* gp__buffer_purpose(const gp_world* w, const gp__owned_buffer* b) {
    if (b->name == w->position) return "the position buffer";
    if (b->name == w->velocity) return "the velocity buffer";
    if (b->name == w->info) return "the info buffer";
    if (b->name == w->life) return "the life buffer";
    if (b->name == w->spare16) return "the 16-byte spare (the accelerations, a reorder's)";
    if (b->name == w->spare8) return "the 8-byte spare (the densities, a reorder's)";
    if (b->name == w->fluid.state) return "the fluid's density state";
    return b->what;
}

static void gp__buffer_guards_check(gp_world* w, const char* call) {
    uint32_t words[GP_BUFFER_GUARD / 4], i, k;
    for (i = 0; i < w->owned_count; ++i) {
        gp__GLint64 size = 0;
        if (!w->owned[i].guarded) continue;
        w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, w->owned[i].name);
        w->gl.fnGetBufferParameteri64v(GP__GL_COPY_READ_BUFFER, GP__GL_BUFFER_SIZE, &size);
        w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
        gp__buffer_download(w, w->owned[i].name, (size_t)size - GP_BUFFER_GUARD, GP_BUFFER_GUARD, words);
        for (k = 0; k < GP_BUFFER_GUARD / 4 && words[k] == GP__GUARD_WORD; ++k) {}
        if (k < GP_BUFFER_GUARD / 4)
            GP__LOG(w, GP_LOG_ERROR, GP_LOG_ITEM_BUFFER_OVERRUN,
                    "%s: a pass wrote past the end of %s (buffer %u of %lld bytes, its guard's word %u of %u is 0x%08x): "
                    "a library bug, please report it", call, gp__buffer_purpose(w, &w->owned[i]), w->owned[i].name,
                    (long long)size - GP_BUFFER_GUARD, k, (uint32_t)(GP_BUFFER_GUARD / 4), words[k]);
    }
}
#else
static void gp__buffer_guards_check(gp_world* w, const char* call) {
    (void)w;
    (void)call;
}
#endif

/* >>pipeline ===============================================================================
   Compiling the embedded programs; the frame of every public call that touches the GPU
   (gp__begin and gp__end); dispatches, barriers and timer queries. */

/* Compiles one stage of an embedded program; 0 with the driver's log in log on failure. */
static gp__GLuint gp__compile_stage(gp_world* w, gp__program_id id, char* log, size_t log_size) {
    char directives[GP__SHADER_MAX_RANGES][24];          /* a #line string per range */
    gp__gl* gl = &w->gl;
    const char* strings[GP__SHADER_MAX_LINES + 8];
    char defines[GP__SHADER_DEFINES_BYTES];
    gp__GLint ok = 0;
    int count = gp__shader_strings(id, w->desc.shader_prelude, defines, directives, strings);
    gp__GLuint shader = gl->fnCreateShader(gp__shader_sources[id].stage);
    gl->fnShaderSource(shader, count, (const gp__GLchar* const*)strings, NULL);
    gl->fnCompileShader(shader);
    gl->fnGetShaderiv(shader, GP__GL_COMPILE_STATUS, &ok);
    if (ok) return shader;
    gl->fnGetShaderInfoLog(shader, (gp__GLsizei)log_size, NULL, log);
    gl->fnDeleteShader(shader);
    return 0;
}

/* The name of GLSL source number n: a file, the user's prelude, or the header's defines. */
static const char* gp__shader_source_name(unsigned long n) {
    if (n < GP__FILE_COUNT) return gp__shader_files[n].name;
    if (n == GP__SOURCE_PRELUDE) return "the shader_prelude of gp_world_desc";
    if (n == GP__SOURCE_DEFINES) return "gpuparticle.h's defines";
    return NULL;
}

/* A driver's log with each line's number turned into its file and line: "N:L(C): ..." (Mesa),
   "N(L) : ..." (NVIDIA) and "ERROR: N:L: ..." (AMD, Intel) become "shaders_embedded/NAME:L: ...",
   the file read from L ((F + 1) * 10000 + line) whatever source number N the driver printed; the
   severity word (ERROR, WARNING) kept in front. */
static void gp__shader_log(const char* log, gp__program_id id, char* out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    while (*log && used + 1 < size) {
        const char* end = strchr(log, '\n');
        const char* p = log;
        const char* name;
        char* after;
        unsigned long file, line = 0;
        int n, severity = 0;
        if (!end) end = log + strlen(log);
        if (!strncmp(p, "ERROR: ", 7) || !strncmp(p, "WARNING: ", 9)) { p = strchr(p, ' ') + 1; severity = (int)(p - log); }
        file = strtoul(p, &after, 10);
        name = NULL;
        if (after != p && (*after == ':' || *after == '(')) {
            line = strtoul(after + 1, &after, 10);
            file = line < GP__LINES_PER_SOURCE ? gp__shader_sources[id].ranges[0].file : line / GP__LINES_PER_SOURCE - 1u;
            line = line < GP__LINES_PER_SOURCE ? 1u : line % GP__LINES_PER_SOURCE;
            name = gp__shader_source_name(file);
        }
        if (name && (*after == ')' || *after == '(' || *after == ':')) {
            if (*after == '(') while (*after && *after != ')' && after < end) ++after;   /* Mesa's column */
            if (*after == ')' || *after == ':') ++after;
            while (*after == ' ' || *after == ':') ++after;
            n = snprintf(out + used, size - used, "%.*s%s%s:%lu: %.*s\n", severity, log, file < GP__FILE_COUNT ? "shaders_embedded/" : "",
                         name, line, (int)(end - after), after);
        } else {
            n = snprintf(out + used, size - used, "%.*s\n", (int)(end - log), log);
        }
        if (n < 0) break;
        used += (size_t)n < size - used ? (size_t)n : size - used - 1;
        log = *end ? end + 1 : end;
    }
}

/* Compiles and links embedded shaders into a program: one compute stage, or a vertex and a
   fragment stage (the draw helper's). Fails naming the files, with the driver's log. */
static gp_result gp__link(gp_world* w, gp__program_id first, gp__program_id second, gp__GLuint* out) {
    gp__gl* gl = &w->gl;
    char log[6144], named[7168];
    gp__GLint ok = 0;
    gp__GLuint program, stages[2] = {0, 0};
    int k, count = second == first ? 1 : 2;
    log[0] = 0;
    *out = 0;
    for (k = 0; k < count; ++k)
        if (!(stages[k] = gp__compile_stage(w, k ? second : first, log, sizeof log))) {
            if (k) gl->fnDeleteShader(stages[0]);
            gp__shader_log(log[0] ? log : "(the driver gave no log)", k ? second : first, named, sizeof named);
            return gp__fail(w, GP_ERROR_SHADER_COMPILE, GP_LOG_ITEM_SHADER_COMPILE,
                            "shader %s failed to compile:\n%s", gp__shader_sources[k ? second : first].name, named);
        }
    program = gl->fnCreateProgram();
    for (k = 0; k < count; ++k) gl->fnAttachShader(program, stages[k]);
    gl->fnLinkProgram(program);
    for (k = 0; k < count; ++k) gl->fnDeleteShader(stages[k]);
    gl->fnGetProgramiv(program, GP__GL_LINK_STATUS, &ok);
    if (!ok) {
        gl->fnGetProgramInfoLog(program, (gp__GLsizei)sizeof log, NULL, log);
        gl->fnDeleteProgram(program);
        return gp__fail(w, GP_ERROR_SHADER_COMPILE, GP_LOG_ITEM_SHADER_LINK,
                        "program %s failed to link:\n%s", gp__shader_sources[first].name,
                        log[0] ? log : "(the driver gave no log)");
    }
    *out = program;
    return GP_OK;
}

static gp_result gp__compile(gp_world* w, gp__program_id id) { return gp__link(w, id, id, &w->programs[id]); }

/* Barriers: all bits
   on entry (whatever the user wrote before is visible to us) and on exit (whatever we wrote is
   ready for any use: drawing, vertex pulling, indirect commands, readback); between our own
   passes, storage, command and buffer-update bits. */
#define GP__BARRIER_BETWEEN_PASSES \
    (GP__GL_SHADER_STORAGE_BARRIER_BIT | GP__GL_COMMAND_BARRIER_BIT | GP__GL_BUFFER_UPDATE_BARRIER_BIT | GP__GL_UNIFORM_BARRIER_BIT)

static void gp__begin(gp_world* w, const char* call) {
    gp__gl* gl = &w->gl;
    gp__GLenum error;
    w->call = call;
    while ((error = gl->fnGetError()) != GP__GL_NO_ERROR)
        GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_GL_ERROR_PENDING,
                "%s: GL error 0x%04x was pending before this call (not the library's)", call, error);
    gl->fnGetIntegerv(GP__GL_CURRENT_PROGRAM, &w->saved_program);
    gl->fnMemoryBarrier(GP__GL_ALL_BARRIER_BITS);
    gl->fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 0, w->params);
    gl->fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 1, w->solver);
}

static gp_result gp__end(gp_world* w, gp_result result) {
    gp__gl* gl = &w->gl;
    gp__GLenum error;
    gl->fnMemoryBarrier(GP__GL_ALL_BARRIER_BITS);
    gl->fnUseProgram((gp__GLuint)w->saved_program);
    while ((error = gl->fnGetError()) != GP__GL_NO_ERROR)
        if (result == GP_OK) result = gp__fail(w, GP_ERROR_GL, GP_LOG_ITEM_GL_ERROR, "GL error 0x%04x", error);
    w->last_result = result;
    w->call = NULL;
    return result;
}

/* The buffer that holds a world role now (names swap in the grid's reorder); 0 for a pass's own
   roles, which it binds after gp__use. */
static gp__GLuint gp__role_buffer(const gp_world* w, gp__role role) {
    switch (role) {
    case GP__ROLE_POSITION: return w->position;
    case GP__ROLE_VELOCITY: return w->velocity;
    case GP__ROLE_INFO: return w->info;
    case GP__ROLE_LIFE: return w->life;
    case GP__ROLE_DENSITY: return w->spare8;
    case GP__ROLE_ACCELERATION: return w->spare16;
    case GP__ROLE_FLUID_STATE: return w->fluid.state ? w->fluid.state : w->spare8;   /* unread without one */
    case GP__ROLE_CELL_KEY: return w->cell_key;
    case GP__ROLE_CELL_COUNT: return w->cell_count;
    case GP__ROLE_CELL_START: return w->cell_start;
    case GP__ROLE_ORDER: return w->order;
    case GP__ROLE_SLOT_OF_ID: return w->slot_of_id;
    case GP__ROLE_STATS: return w->grid_stats;
    case GP__ROLE_RANKED: return w->spare8;   /* free during a build: the reorder fills it later */
    case GP__ROLE_ARGS: return w->grid_args;  /* gp_indirect_args binds the caller's */
    case GP__ROLE_FIELDS: return w->colliders.fields;
    case GP__ROLE_OFFSETS: return w->rigid.offsets;
    case GP__ROLE_BODIES: return w->rigid.bodies;   /* 0 before the first body: then no rigid particle reads it */
    case GP__ROLE_STORE: return w->store.words;
    case GP__ROLE_FREE_IDS: return w->store.free_ids;
    case GP__ROLE_HISTORY: return w->dem.history;   /* 0 before the first grain or body: then no pass reads it */
    case GP__ROLE_DRAG: return w->coupling.drag;     /* 0 before the first substep with fluid and grains: then unread */
    case GP__ROLE_STAGING: return w->upload ? w->upload : w->store.words;   /* gp__buffer_stage's; unread without one */
    case GP__ROLE_FLAGS: return w->store.words;   /* the caller binds the user's; unread otherwise */
    default: return 0;
    }
}

/* Makes a program current and binds every world role of its row of the binding plan. */
static void gp__use(gp_world* w, gp__program_id id) {
    const gp__binding_plan* plan = gp__plan_of(id);
    int b;
    w->gl.fnUseProgram(w->programs[id]);
    w->current = id;
    for (b = 0; b < GP__MAX_BINDINGS; ++b)
        if (plan->roles[b])
            w->gl.fnBindBufferBase(GP__GL_SHADER_STORAGE_BUFFER, (gp__GLuint)b, gp__role_buffer(w, (gp__role)plan->roles[b]));
}

/* Binds buffer where the current program's row of the binding plan puts role. */
static void gp__bind(gp_world* w, gp__role role, gp__GLuint buffer) {
    const gp__binding_plan* plan = gp__plan_of(w->current);
    int b;
    for (b = 0; b < GP__MAX_BINDINGS && plan->roles[b] != role; ++b) {}
    GP_ASSERT(b < GP__MAX_BINDINGS);   /* the role is in the program's row */
    w->gl.fnBindBufferBase(GP__GL_SHADER_STORAGE_BUFFER, (gp__GLuint)b, buffer);
}

/* Runs groups workgroups of the bound program, then the barrier between passes. Above 65,535 (the
   most GL promises per axis) they are split evenly as x * y, at most y - 1 of them idle past the
   end (the shaders take gp_group_index() and check it). */
static void gp__dispatch(gp_world* w, uint32_t groups) {
    uint32_t y = (groups + 65534u) / 65535u, x;
    if (groups == 0) return;
    x = (groups + y - 1) / y;
    w->gl.fnDispatchCompute(x, y, 1);
    w->gl.fnMemoryBarrier(GP__BARRIER_BETWEEN_PASSES);
}

/* Runs as many workgroups as the three words at offset of buffer say (a GPU pass wrote them),
   then the barrier between passes. */
static void gp__dispatch_indirect(gp_world* w, gp__GLuint buffer, size_t offset) {
    w->gl.fnBindBuffer(GP__GL_DISPATCH_INDIRECT_BUFFER, buffer);
    w->gl.fnDispatchComputeIndirect((gp__GLintptr)offset);
    w->gl.fnBindBuffer(GP__GL_DISPATCH_INDIRECT_BUFFER, 0);
    w->gl.fnMemoryBarrier(GP__BARRIER_BETWEEN_PASSES);
}

/* One invocation per slot in use, however many the GPU holds (store_count's indirect arguments):
   every pass over the store dispatches so, and no call needs the count on the host. */
static void gp__dispatch_store(gp_world* w) { gp__dispatch_indirect(w, w->store.words, offsetof(gp__store_words, dispatch)); }

static uint32_t gp__groups(uint32_t items, uint32_t per_group) {
    return (uint32_t)(((uint64_t)items + per_group - 1) / per_group);
}

/* Adds the pending timer pairs' times to the per-stage totals (waits for the GPU). */
static void gp__timers_collect(gp_world* w) {
    uint32_t i;
    for (i = 0; i < w->pending_count; ++i) {
        gp__timer* t = &w->pending[i];
        gp__GLuint64 begin = 0, end = 0;
        gp__GLuint queries[2];
        w->gl.fnGetQueryObjectui64v(t->begin, GP__GL_QUERY_RESULT, &begin);
        w->gl.fnGetQueryObjectui64v(t->end, GP__GL_QUERY_RESULT, &end);
        queries[0] = t->begin; queries[1] = t->end;
        w->gl.fnDeleteQueries(2, queries);
        w->totals[t->stage].milliseconds += (double)(end - begin) * 1e-6;
        w->totals[t->stage].runs += 1;
    }
    w->pending_count = 0;
}

/* Timestamps around a stage, with desc.gpu_timings. */
static uint32_t gp__timer_begin(gp_world* w, gp__stage stage) {
    gp__timer* t;
    if (!w->desc.gpu_timings) return 0;
    if (w->pending_count == GP__TIMER_MAX_PENDING) gp__timers_collect(w);
    t = &w->pending[w->pending_count];
    t->stage = stage;
    w->gl.fnGenQueries(1, &t->begin);
    w->gl.fnGenQueries(1, &t->end);
    w->gl.fnQueryCounter(t->begin, GP__GL_TIMESTAMP);
    return w->pending_count++;
}

static void gp__timer_end(gp_world* w, uint32_t timer) {
    if (!w->desc.gpu_timings) return;
    w->gl.fnQueryCounter(w->pending[timer].end, GP__GL_TIMESTAMP);
}

/* A stage over every slot in use: its program, one invocation per slot, timed as `stage`. */
/* The same with `count` uint uniforms of the program, at locations 8, 9, ... (a pass's u_ words). */
static void gp__stage_run_with(gp_world* w, gp__stage stage, gp__program_id program, uint32_t count, const uint32_t* values) {
    uint32_t timer = gp__timer_begin(w, stage), k;
    gp__use(w, program);
    for (k = 0; k < count; ++k) w->gl.fnUniform1ui(8 + (gp__GLint)k, values[k]);
    gp__dispatch_store(w);
    gp__timer_end(w, timer);
}
static void gp__stage_run(gp_world* w, gp__stage stage, gp__program_id program) { gp__stage_run_with(w, stage, program, 0, NULL); }

/* >>scan ===================================================================================
   Exclusive prefix sum by reduce-then-scan (shaders_embedded/gp_scan.glsl, scan_reduce.comp,
   scan_block.comp). A level of n elements is cut into chunks of 32, one per invocation;
   scan_reduce writes each chunk's sum, the sums are scanned by the same method one level down (in
   place, 32 times shorter), and scan_block scans each chunk from its offset. No shared memory, no
   barrier, no invocation waiting on another, so no forward-progress guarantee is needed (neither
   GL nor llvmpipe gives one). Inputs are read twice and outputs written once: about 1.6 times the
   traffic of a copy. Stream compaction is the same passes over the flags, scan_block writing
   indices instead of sums: no scanned array is ever stored. */
#define GP__SCAN_SERIAL 1024u   /* a level this short is scanned by one invocation */

/* One level: compact (flags in input, indices to output, the count to count_buffer's word
   count_word) or scan. Levels below the first always scan their block sums in place. */
static gp_result gp__scan_level(gp_world* w, gp__GLuint input, gp__GLuint output, uint32_t count, bool compact,
                                gp__GLuint count_buffer, uint32_t count_word, uint32_t level) {
    bool serial = count <= GP__SCAN_SERIAL;
    uint32_t chunks = serial ? 1 : gp__groups(count, GP__SCAN_CHUNK), groups = gp__groups(chunks, GP_GROUP_SIZE);
    gp__gl* gl = &w->gl;
    gp_result r;
    if (count == 0) return GP_OK;
    if (!serial) {
        GP_ASSERT(level < GP__SCAN_MAX_LEVELS);
        r = gp__buffer_grow(w, &w->scan_sums[level], &w->scan_sums_bytes[level], (size_t)chunks * 4, 0, "the scan's chunk sums");
        if (r != GP_OK) return r;
        gp__use(w, GP__PROGRAM_SCAN_REDUCE);
        gl->fnUniform1ui(0, count);
        gl->fnUniform1ui(1, compact);
        gp__bind(w, GP__ROLE_SCAN_INPUT, input);
        gp__bind(w, GP__ROLE_CHUNK_SUMS, w->scan_sums[level]);
        gp__dispatch(w, groups);
        r = gp__scan_level(w, w->scan_sums[level], w->scan_sums[level], chunks, false, 0, 0, level + 1);
        if (r != GP_OK) return r;
    }
    gp__use(w, GP__PROGRAM_SCAN_BLOCK);
    gl->fnUniform1ui(0, count);
    gl->fnUniform1ui(1, compact);
    gl->fnUniform1ui(2, chunks > 1);
    gl->fnUniform1ui(3, count_word);
    gl->fnUniform1ui(4, serial ? (count + 3u) & ~3u : GP__SCAN_CHUNK);
    gp__bind(w, GP__ROLE_SCAN_INPUT, input);
    gp__bind(w, GP__ROLE_SCAN_OUTPUT, output);
    gp__bind(w, GP__ROLE_CHUNK_OFFSETS, chunks > 1 ? w->scan_sums[level] : input);   /* bound but unread for one chunk */
    gp__bind(w, GP__ROLE_COUNT_WORDS, compact ? count_buffer : output);
    gp__dispatch(w, groups);
    return GP_OK;
}
gp_result gp_scan_exclusive(gp_world* world, uint32_t input, uint32_t output, uint32_t count) {
    gp_result r;
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_scan_exclusive");
    if (count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, input, (size_t)count * 4, "input buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, output, (size_t)count * 4, "output buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, GP__STAGE_SCAN);
    r = gp__scan_level(world, input, output, count, false, 0, 0, 0);
    gp__timer_end(world, timer);
    return gp__end(world, r);
}

gp_result gp_compact(gp_world* world, uint32_t flags, uint32_t count, uint32_t indices, uint32_t count_buffer, size_t count_offset) {
    gp_result r;
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_compact");
    if (count_offset % 4 != 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "count_offset %zu is not a multiple of 4", count_offset));
    if (count_offset / 4 >= 0xffffffffu)   /* the shader addresses 32-bit words with a uint */
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "count_offset %zu is too large", count_offset));
    if (indices == flags || count_buffer == flags)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "the flags buffer cannot also be the indices or count buffer"));
    if (count_buffer == indices && count_offset < (size_t)count * 4)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "the count word at %zu overlaps the %u indices", count_offset, count));
    if ((r = gp__check_buffer(world, count_buffer, count_offset + 4, "count buffer")) != GP_OK) return gp__end(world, r);
    if (count == 0) {
        gp__buffer_zero(world, count_buffer, count_offset, 4);
        return gp__end(world, GP_OK);
    }
    if ((r = gp__check_buffer(world, flags, (size_t)count * 4, "flags buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, indices, (size_t)count * 4, "indices buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, GP__STAGE_COMPACT);
    r = gp__scan_level(world, flags, indices, count, true, count_buffer, (uint32_t)(count_offset / 4), 0);
    gp__timer_end(world, timer);
    return gp__end(world, r);
}

gp_result gp_indirect_args(gp_world* world, uint32_t count_buffer, size_t count_offset, uint32_t group_size,
                           uint32_t args_buffer, size_t args_offset) {
    gp_result r;
    gp__gl* gl;
    if (!world) return gp__no_world(__func__);
    gl = &world->gl;
    gp__begin(world, "gp_indirect_args");
    if (count_offset % 4 != 0 || args_offset % 4 != 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "offsets %zu and %zu must be multiples of 4", count_offset, args_offset));
    if (group_size == 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE, "group_size is 0"));
    if (count_offset / 4 >= 0xffffffffu || args_offset / 4 >= 0xfffffffdu)   /* uint word indices */
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "offsets %zu and %zu are too large", count_offset, args_offset));
    if (count_buffer == args_buffer && count_offset + 4 > args_offset && args_offset + 12 > count_offset)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "the count word overlaps the arguments"));
    if ((r = gp__check_buffer(world, count_buffer, count_offset + 4, "count buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, args_buffer, args_offset + 12, "args buffer")) != GP_OK) return gp__end(world, r);
    gp__use(world, GP__PROGRAM_DISPATCH_ARGS);
    gl->fnUniform1ui(0, (uint32_t)(count_offset / 4));
    gl->fnUniform1ui(1, (uint32_t)(args_offset / 4));
    gl->fnUniform1ui(2, group_size);
    gp__bind(world, GP__ROLE_COUNT_WORDS, count_buffer);
    gp__bind(world, GP__ROLE_ARGS, args_buffer);
    gp__dispatch(world, 1);
    return gp__end(world, GP_OK);
}

gp_result gp_copy(gp_world* world, uint32_t source, uint32_t destination, uint32_t count) {
    gp_result r;
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_copy");
    if (count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, source, (size_t)count * 4, "source buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, destination, (size_t)count * 4, "destination buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, GP__STAGE_COPY);
    gp__use(world, GP__PROGRAM_COPY);
    world->gl.fnUniform1ui(0, count);
    gp__bind(world, GP__ROLE_COPY_SOURCE, source);
    gp__bind(world, GP__ROLE_COPY_DESTINATION, destination);
    gp__dispatch(world, gp__groups(count, 16u * GP_GROUP_SIZE));
    gp__timer_end(world, timer);
    return gp__end(world, GP_OK);
}

/* >>sort ===================================================================================
   Bitonic sort of (key, value) pairs, every comparator facing one way (see
   shaders_embedded/gp_sort.glsl), so any count sorts in place without padding. No shared memory,
   no barrier: runs of 16 pairs are first sorted in each invocation's registers (sort_local); then
   for each stage k = 32 ... N (N the power of two >= count), the flip runs as one global pass, the
   half-cleaners of distance >= 16 as global passes of two levels each (sort_global), and the rest
   of the stage in registers again (sort_local). O(count log^2 count) work.
   A deterministic grid build sorts only when a bucket is crowded, which the GPU decides (>>grid):
   its passes then take their workgroups from the arguments grid_rank wrote (args), zero or all. */

/* groups workgroups, or with args the GPU's count of them in its triple `which` (GP__ARGS_*). */
static void gp__dispatch_planned(gp_world* w, uint32_t groups, gp__GLuint args, int which) {
    if (args) gp__dispatch_indirect(w, args, (size_t)which * 12);
    else gp__dispatch(w, groups);
}

/* The power of two the network runs over: at least count and GP__SORT_RUN. */
static uint64_t gp__sort_padded(uint32_t count) {
    uint64_t padded = GP__SORT_RUN;
    while (padded < count) padded <<= 1;
    return padded;
}

/* The invocations of the sort's passes of one kind (GP__ARGS_SORT_LOCAL, _HALF or _QUARTER) over
   count pairs: what the direct dispatches run, and what grid_rank's plan gives the planned ones. */
static uint32_t gp__sort_invocations(uint32_t count, int which) {
    if (which == GP__ARGS_SORT_LOCAL) return gp__groups(count, GP__SORT_RUN);
    return (uint32_t)(gp__sort_padded(count) / (which == GP__ARGS_SORT_QUARTER ? 4u : 2u));
}

static void gp__sort_global_pass(gp_world* w, uint32_t block, uint32_t distance, uint32_t levels, uint32_t count, gp__GLuint args) {
    int which = distance && levels == 2 ? GP__ARGS_SORT_QUARTER : GP__ARGS_SORT_HALF;
    uint32_t invocations = gp__sort_invocations(count, which);
    w->gl.fnUniform1ui(2, block);
    w->gl.fnUniform1ui(3, distance);
    w->gl.fnUniform1ui(4, invocations);
    w->gl.fnUniform1ui(5, levels);
    gp__dispatch_planned(w, gp__groups(invocations, GP_GROUP_SIZE), args, which);
}

/* Makes a sort program current with the pairs bound. */
static void gp__sort_use(gp_world* w, gp__program_id id, gp__GLuint keys, gp__GLuint values) {
    gp__use(w, id);
    gp__bind(w, GP__ROLE_SORT_KEYS, keys);
    gp__bind(w, GP__ROLE_SORT_VALUES, values);
}

static void gp__sort_local_pass(gp_world* w, gp__GLuint keys, gp__GLuint values, uint32_t count, bool descending, uint32_t block,
                                gp__GLuint args) {
    gp__sort_use(w, GP__PROGRAM_SORT_LOCAL, keys, values);
    w->gl.fnUniform1ui(0, count);
    w->gl.fnUniform1ui(1, descending);
    w->gl.fnUniform1ui(2, block);
    gp__dispatch_planned(w, gp__groups(gp__sort_invocations(count, GP__ARGS_SORT_LOCAL), GP_GROUP_SIZE), args, GP__ARGS_SORT_LOCAL);
}

/* args: 0, or the buffer of a deterministic build's planned dispatches (gp_world.grid_args). */
static void gp__sort(gp_world* w, gp__GLuint keys, gp__GLuint values, uint32_t count, bool descending, gp__GLuint args) {
    uint64_t padded = gp__sort_padded(count), k, j;
    if (count < 2) return;
    gp__sort_local_pass(w, keys, values, count, descending, 0, args);
    for (k = 2u * GP__SORT_RUN; k <= padded; k <<= 1) {
        gp__sort_use(w, GP__PROGRAM_SORT_GLOBAL, keys, values);
        w->gl.fnUniform1ui(0, count);
        w->gl.fnUniform1ui(1, descending);
        gp__sort_global_pass(w, (uint32_t)k, 0, 1, count, args);
        for (j = k / 4; j >= GP__SORT_RUN; j >>= 2) {
            if (j / 2 >= GP__SORT_RUN) {
                gp__sort_global_pass(w, (uint32_t)k, (uint32_t)j, 2, count, args);
            } else {
                gp__sort_global_pass(w, (uint32_t)k, (uint32_t)j, 1, count, args);
                break;
            }
        }
        gp__sort_local_pass(w, keys, values, count, descending, (uint32_t)k, args);
    }
}

gp_result gp_sort_pairs(gp_world* world, uint32_t keys, uint32_t values, uint32_t count, gp_sort_order order) {
    gp_result r;
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_sort_pairs");
    if (order != GP_SORT_DEFAULT && order != GP_SORT_ASCENDING && order != GP_SORT_DESCENDING)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                                       "order %d is not a gp_sort_order", (int)order));
    if (count > 0x80000000u)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "count %u is above 2^31", count));
    if (count == 0) return gp__end(world, GP_OK);
    if (keys == values)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "keys and values are the same buffer %u", keys));
    if ((r = gp__check_buffer(world, keys, (size_t)count * 4, "keys buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, values, (size_t)count * 4, "values buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, GP__STAGE_SORT);
    gp__sort(world, keys, values, count, order == GP_SORT_DESCENDING, 0);
    gp__timer_end(world, timer);
    return gp__end(world, GP_OK);
}

uint32_t gp_float_sort_key(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    /* Negative floats sort backwards as integers: flip all their bits; flip the sign of the rest. */
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

/* >>grid ===================================================================================
   The neighbour grid by counting sort, over every live particle whatever its kind:
     1. grid_count: each particle's bucket key; per-bucket counts by atomic add, whose result is
        the particle's rank in its bucket (kept in order); outside and NaN particles counted (the
        NaN ones go to the extra bucket `buckets`), the dead to the one after it, `buckets + 1`.
     2. gp__scan_level: cell_start = exclusive scan of the counts (buckets + 3 words, the last
        count being 0): cell_start[buckets + 1] is the live count, cell_start[buckets + 2] the
        count before the build.
     3. Deterministic only: grid_count wrote each id to order instead of the rank, and counted
        the particles past the GP_GRID_CROWD-th of their bucket (stat_crowded). grid_rank plans
        on the GPU: with no bucket crowded, it files each particle's (id, slot) in its bucket's
        range (spare8) and ranks it among them by id, O(bucket) reads a particle, three
        dispatches; else the (key, id) pairs are sorted (gp__sort, about 4 log2(count) dispatches)
        and grid_ids maps the ids to slots. Either way order[slot] = particle (the gather form),
        each bucket by ascending id: the same order, so the choice never shows in the results.
        The plan gives the other way's dispatches no workgroups (a zero indirect dispatch costs a
        driver next to nothing; llvmpipe 0.2 us against 30-50 for a real one).
     4. grid_reorder, three passes: spare[cell_start[key] + rank] = attribute[i] (scatter; the
        first pass turns the rank in order into the slot for the others) or spare[k] =
        attribute[order[k]] (gather), then the two names swap; position carries life along, and
        the info pass also writes slot_of_id[id] = slot. On a CPU renderer random stores cost less
        than random loads, so the usual path scatters. Then grid_carry moves a system's blocks per
        slot that live longer than a substep (the DEM's kept contacts) the same way
        (gp__grid_carry).
     5. The store's compaction, when a particle may have died (gp__store_state.mortal): store_free
        gives the ids of the dead, now in slots [live, count), to the free-id queue, and
        store_count cuts the count to the live (gp__store_count).
   Every pass but grid_count runs over the GPU's count (gp__dispatch_store or the plan's);
   grid_count runs over the host's bound of it, since the deterministic sort needs its keys past
   the count too.
   Memory per particle: 56 bytes of attributes, 24 of spares, 8 of key and order, 16 of ids (two
   ids per slot: slot_of_id and the free-id queue); the solvers keep their per-substep values in
   the spares (see >>sph), so 104 bytes in all. */

/* The world's block, once, at creation: its count (0 then) is the GPU's from then on, which
   gp__store_count copies in. */
static void gp__params_upload(gp_world* w) {
    w->params_host.counts[0] = 0;
    gp__buffer_upload(w, w->params, 0, sizeof w->params_host, &w->params_host);
}

/* The store's count after a build (added 0: the dead cut off), or after store_append or the
   emitters wrote added particles past it, `ids` of them with never-used ids from `first` (the rest
   take given-back ones; a spray emitter's: at most its sources; the never-used ids of births that
   did not happen go to the free-id queue); then copied into the world's block, where every pass
   reads gp_counts.x. */
static void gp__store_count(gp_world* w, uint32_t added, uint32_t ids, uint32_t first, bool spray) {
    uint32_t timer = gp__timer_begin(w, GP__STAGE_STORE_COUNT);
    gp__use(w, GP__PROGRAM_STORE_COUNT);
    w->gl.fnUniform1ui(0, added);
    w->gl.fnUniform1ui(1, ids);
    w->gl.fnUniform1ui(2, spray);
    w->gl.fnUniform1ui(3, first);
    gp__dispatch(w, 1);   /* its barrier orders the copy after the write */
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, w->store.words);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, w->params);
    w->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__store_words, count),
                              offsetof(gp__world_params, counts), 4);
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
    gp__timer_end(w, timer);
}

static void gp__swap(gp__GLuint* a, gp__GLuint* b) { gp__GLuint t = *a; *a = *b; *b = t; }

/* Gathers a 16-byte attribute into cell order through spare16, then swaps the two names. The
   position pass carries life along (through spare8), the velocity pass the fluid's density state
   when there is one (through spare8 again, free by then); the info pass writes slot_of_id. */
static void gp__reorder(gp_world* w, gp__GLuint* attribute) {
    bool first = attribute == &w->position, info = attribute == &w->info;
    gp__GLuint* carried = first ? &w->life : attribute == &w->velocity && w->fluid.state ? &w->fluid.state : NULL;
    w->gl.fnUniform1ui(0, first);
    w->gl.fnUniform1ui(1, info);
    w->gl.fnUniform1ui(2, w->desc.any_order);   /* order holds ranks (scatter) or sources (gather) */
    w->gl.fnUniform1ui(3, carried != NULL);
    gp__bind(w, GP__ROLE_REORDER_SOURCE, *attribute);
    gp__bind(w, GP__ROLE_REORDER_DESTINATION, w->spare16);
    gp__bind(w, GP__ROLE_CARRIED_SOURCE, carried ? *carried : *attribute);   /* bound but unread when nothing is carried */
    gp__bind(w, GP__ROLE_CARRIED_DESTINATION, carried ? w->spare8 : w->spare16);
    gp__dispatch_store(w);
    gp__swap(attribute, &w->spare16);
    if (carried) gp__swap(carried, &w->spare8);
}

/* A system's data per slot that lives longer than a substep moves with the particles: its buffer
   holds two halves of capacity blocks of carried_stride uvec4s each, the block a slot wrote during
   the last substep in the upper half, in the old order; grid_carry moves each to the lower half at
   the particle's new slot (a block's first uvec4 says how many follow it, in y). The DEM's contact
   history is one (>>dem); a system registers its buffer in w->carried. */
static void gp__grid_carry(gp_world* w) {
    uint32_t timer;
    if (!w->carried) return;
    timer = gp__timer_begin(w, GP__STAGE_GRID_CARRY);
    gp__use(w, GP__PROGRAM_GRID_CARRY);
    w->gl.fnUniform1ui(0, w->carried_stride);
    w->gl.fnUniform1ui(1, w->desc.any_order);   /* order holds new slots (scatter) or old ones (gather) */
    gp__bind(w, GP__ROLE_CARRY, w->carried);
    gp__dispatch_store(w);   /* the count before the build: every old slot */
    gp__timer_end(w, timer);
}

/* The build, inside a gp__begin/gp__end pair. Fluid values of the last substep belong to the
   old order: they are marked stale. */
static gp_result gp__grid_build(gp_world* world) {
    uint32_t groups, timer;
    size_t table_bytes;
    gp_result r;
    world->fluid.valid = false;
    groups = gp__groups(world->count, GP_GROUP_SIZE);
    table_bytes = ((size_t)world->buckets + 3) * 4;

    timer = gp__timer_begin(world, GP__STAGE_GRID_COUNT);
    gp__buffer_zero(world, world->cell_count, 0, table_bytes);   /* GL orders its own clears before */
    gp__buffer_zero(world, world->grid_stats, 0, GP__STATS_GRID_BYTES);   /* later shader reads: no barrier */
    gp__buffer_zero(world, world->grid_stats, offsetof(gp__stats, crowded), 4);
    gp__use(world, GP__PROGRAM_GRID_COUNT);
    world->gl.fnUniform1ui(0, world->count);
    gp__dispatch(world, groups);
    gp__timer_end(world, timer);

    timer = gp__timer_begin(world, GP__STAGE_GRID_SCAN);
    r = gp__scan_level(world, world->cell_count, world->cell_start, world->buckets + 3, false, 0, 0, 0);
    gp__timer_end(world, timer);
    if (r != GP_OK) return r;
    if (world->count == 0) goto done;

    if (!world->desc.any_order) {
        /* grid_count wrote (bucket, id) pairs; each cell in order of id, whatever the timing:
           grid_rank ranks each particle among its bucket's, or when a bucket is crowded the pairs
           are sorted and grid_ids turns the ids into slots. The GPU plans which (the other's
           dispatches get no workgroups): the order is the same either way. */
        timer = gp__timer_begin(world, GP__STAGE_GRID_ORDER);
        gp__use(world, GP__PROGRAM_GRID_RANK);
        world->gl.fnUniform1ui(0, 0);
        world->gl.fnUniform1ui(1, gp__sort_invocations(world->count, GP__ARGS_SORT_LOCAL));   /* the sort's, by pass */
        world->gl.fnUniform1ui(2, gp__sort_invocations(world->count, GP__ARGS_SORT_HALF));
        world->gl.fnUniform1ui(3, gp__sort_invocations(world->count, GP__ARGS_SORT_QUARTER));
        gp__dispatch(world, 1);   /* the plan; its barrier orders the arguments before their use */
        world->gl.fnUniform1ui(0, 1);
        gp__dispatch_planned(world, 0, world->grid_args, GP__ARGS_RANK);   /* filing */
        world->gl.fnUniform1ui(0, 2);
        gp__dispatch_planned(world, 0, world->grid_args, GP__ARGS_RANK);   /* ranking */
        gp__sort(world, world->cell_key, world->order, world->count, false, world->grid_args);
        gp__use(world, GP__PROGRAM_GRID_IDS);
        gp__dispatch_planned(world, 0, world->grid_args, GP__ARGS_IDS);
        gp__timer_end(world, timer);
    }

    timer = gp__timer_begin(world, GP__STAGE_GRID_REORDER);
    gp__use(world, GP__PROGRAM_GRID_REORDER);
    gp__reorder(world, &world->position);
    gp__reorder(world, &world->velocity);
    gp__reorder(world, &world->info);
    gp__timer_end(world, timer);
    gp__grid_carry(world);

    if (world->store.mortal) {   /* the store's compaction: the dead are past the live now */
        timer = gp__timer_begin(world, GP__STAGE_STORE_COUNT);
        gp__use(world, GP__PROGRAM_STORE_FREE);
        gp__dispatch_store(world);   /* still the count before the build */
        gp__timer_end(world, timer);
        gp__store_count(world, 0, 0, 0, false);
    }
done:
    world->grid_built = true;
    return GP_OK;
}

gp_result gp_grid_build(gp_world* world) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_grid_build");
    return gp__end(world, gp__grid_build(world));
}

gp_result gp_grid_stats_read(gp_world* world, gp_grid_stats* stats) {
    gp__stats words;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_grid_stats_read");
    if (!stats) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "stats is NULL"));
    if (!world->grid_built) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, GP_LOG_ITEM_GRID_STALE,
                                                           "no grid was built yet: call gp_grid_build first"));
    gp__buffer_download(world, world->grid_stats, 0, sizeof words, &words);
    gp__buffer_download(world, world->store.words, offsetof(gp__store_words, count), 4, &stats->particles);
    stats->outside = words.outside;
    stats->nonfinite = words.nonfinite;
    stats->truncated = words.truncated;
    stats->buckets = world->buckets;
    stats->crowded = words.crowded;
    if (words.truncated)
        GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_NEIGHBOR_LOOP_TRUNCATED,
                "gp_grid_stats_read: the driver cut the neighbour loop of %u particles short "
                "(llvmpipe allows 65,535 loop iterations per invocation): their sums are incomplete", words.truncated);
    return gp__end(world, GP_OK);
}

gp_result gp_grid_count_neighbors(gp_world* world, float radius, uint32_t out_buffer) {
    gp_result r;
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_grid_count_neighbors");
    if (!(radius > 0.0f) || !(radius <= world->desc.grid.cell_size))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "radius %g must be positive and at most the cell size %g",
                                       (double)radius, (double)world->desc.grid.cell_size));
    if (!world->grid_built)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, GP_LOG_ITEM_GRID_STALE,
                                       "the grid is older than the particles: call gp_grid_build first"));
    if (world->count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, out_buffer, (size_t)world->count * 4, "out buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, GP__STAGE_NEIGHBORS);
    gp__use(world, GP__PROGRAM_GRID_NEIGHBORS);
    world->gl.fnUniform1f(0, radius);
    gp__bind(world, GP__ROLE_NEIGHBOR_COUNT, out_buffer);
    gp__dispatch_store(world);
    gp__timer_end(world, timer);
    return gp__end(world, GP_OK);
}

/* >>store ==================================================================================
   The store's births and deaths. Its count lives on the GPU (gp__store_words): an add stages the
   particles and store_append writes them after however many the GPU holds; a removal flags them
   (store_remove) and a particle with a lifetime ages at the start of each substep (store_age); the
   next grid build takes the dead out and gives their ids back (>>grid). The host keeps a bound of
   the count (gp_world.count: the GPU's of the step before last plus everything added since) and
   waits for the exact one only when the bound says the store may be full. Before the add, the
   checks every system's scenes share. */

#define GP__STAGING_CHUNK 65536u   /* particles an add stages at a time (3.5 MiB) */

/* The free slots when n more are wanted: the host's bound's, or where that says n do not fit and
   particles may have died, the exact count's (a wait). Then the room for n, failing with the
   reason. */
static uint32_t gp__store_free_slots(gp_world* w, uint64_t n) {
    if (n > (uint64_t)(w->capacity - w->count) && w->store.mortal)   /* the bound says no; the GPU's count may not */
        gp__buffer_download(w, w->store.words, offsetof(gp__store_words, count), 4, &w->count);
    return w->capacity - w->count;
}

static gp_result gp__store_room(gp_world* w, uint64_t n, const char* what) {
    if (n <= gp__store_free_slots(w, n)) return GP_OK;
    return gp__fail(w, GP_ERROR_CAPACITY, GP_LOG_ITEM_STORE_FULL, "%llu %s do not fit: %u of %u slots are in use; nothing was added",
                    (unsigned long long)n, what, w->count, w->capacity);
}

/* n given-back ids, oldest first, off the GPU's free-id queue (a wait): once the never-used ids
   are gone. */
static gp_result gp__store_take_ids(gp_world* w, uint32_t n, uint32_t* out) {
    gp__store_words words;
    uint32_t first, before_wrap;
    gp__buffer_download(w, w->store.words, 0, sizeof words, &words);
    if (words.free_count < n)
        return gp__fail(w, GP_ERROR_CAPACITY, GP_LOG_ITEM_IDS_USED_UP,
                        "%u particles need ids: all %u are given and %u were given back; nothing was added", n,
                        w->store.id_space, words.free_count);
    first = words.free_head;
    before_wrap = n < w->store.id_space - first ? n : w->store.id_space - first;
    gp__buffer_download(w, w->store.free_ids, (size_t)first * 4, (size_t)before_wrap * 4, out);
    gp__buffer_download(w, w->store.free_ids, 0, (size_t)(n - before_wrap) * 4, out + before_wrap);
    words.free_head = (first + n) % w->store.id_space;
    words.free_count -= n;
    gp__buffer_upload(w, w->store.words, offsetof(gp__store_words, free_head), 8, &words.free_head);
    return GP_OK;
}

/* The host's side of `births` births on the GPU after the count: how many take never-used ids
   (returned; *first the first of them), the rest taking given-back ones there; the host's bound of
   the count grows by them all. */
static uint32_t gp__store_births(gp_world* w, uint32_t births, uint32_t* first) {
    uint32_t fresh = births < w->store.id_space - w->store.next_id ? births : w->store.id_space - w->store.next_id;
    *first = w->store.next_id;
    w->store.next_id += fresh;
    w->count = (uint64_t)w->count + births > w->capacity ? w->capacity : w->count + births;
    w->store.added += births;
    w->grid_built = false;
    return fresh;
}

/* A pour's layer, gp_pour_add's or a GP_EMITTER_POUR emitter's (emitter_pour.comp): n particles on
   the lattice across the stream, after the GPU's count. */
typedef struct gp__layer {
    float center[3], direction[3];   /* the nozzle, the stream's unit direction */
    float spacing, speed, lead;      /* the lattice's spacing (m), the stream's speed (m/s), how far along it (m) */
    float radius, mass, lifetime;
    uint32_t n, kind, owner, user;   /* kind | phase << 16 */
    float jitter;                    /* spacings each way across the stream, drawn per point */
    uint32_t seed, serial;           /* the emitter's seed, the layer's serial number */
} gp__layer;
static void gp__store_layer(gp_world* w, const gp__layer* l) {
    uint32_t first, fresh, timer;
    if (l->n == 0) return;
    fresh = gp__store_births(w, l->n, &first);
    timer = gp__timer_begin(w, GP__STAGE_EMITTER_EMIT);
    gp__use(w, GP__PROGRAM_EMITTER_POUR);
    w->gl.fnUniform4f(0, l->center[0], l->center[1], l->center[2], l->spacing);
    w->gl.fnUniform4f(1, l->direction[0], l->direction[1], l->direction[2], l->speed);
    w->gl.fnUniform4f(2, l->radius, l->mass, l->lifetime, l->lead);
    w->gl.fnUniform4ui(3, l->kind, l->owner, l->user, w->fluid.state != 0);
    w->gl.fnUniform4ui(4, l->n, fresh, first, 0u);
    {
        uint32_t jitter;
        memcpy(&jitter, &l->jitter, 4);
        w->gl.fnUniform4ui(5, l->seed, l->serial, jitter, 0u);
    }
    gp__dispatch(w, gp__groups(l->n, GP_GROUP_SIZE));
    gp__timer_end(w, timer);
    gp__store_count(w, l->n, fresh, first, false);
}

/* ---- the checks every add shares ---- */

static bool gp__finite3(const float v[3]) { return v && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static gp_result gp__check_vector(gp_world* w, const char* what, const float* v) {
    if (!v) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "%s is NULL", what);
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                        "%s (%g, %g, %g) is not finite", what, (double)v[0], (double)v[1], (double)v[2]);
    return GP_OK;
}

static gp_result gp__check_dt(gp_world* w, float dt) {
    if (!(dt > 0.0f) || !isfinite(dt))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "dt %g must be positive and finite", (double)dt);
    return GP_OK;
}

/* The size of an analytic shape, as colliders and body shapes both take it: a sphere's or a
   capsule's radius positive, a capsule's half_height 0 or positive, a box's half_extents positive;
   all finite. */
static gp_result gp__check_size(gp_world* w, gp_shape shape, float radius, const float half_extents[3], float half_height) {
    gp_result r;
    if (shape == GP_SHAPE_BOX) {
        if ((r = gp__check_vector(w, "half_extents", half_extents)) != GP_OK) return r;
        if (!(half_extents[0] > 0.0f && half_extents[1] > 0.0f && half_extents[2] > 0.0f))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "half_extents (%g, %g, %g) must be positive", (double)half_extents[0],
                            (double)half_extents[1], (double)half_extents[2]);
        return GP_OK;
    }
    if (!(radius > 0.0f) || !isfinite(radius))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "radius %g must be positive and finite", (double)radius);
    if (shape == GP_SHAPE_CAPSULE && (!(half_height >= 0.0f) || !isfinite(half_height)))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "half_height %g must be 0 or positive, and finite", (double)half_height);
    return GP_OK;
}

/* Checks n particles' values as gp_particles_add and gp_particles_write take them; names the
   first bad one. what: "position", "velocity", "life". stride in floats. */
static gp_result gp__check_values(gp_world* w, const char* what, const float* v, uint32_t n, uint32_t stride,
                                  uint32_t components, bool last_positive) {
    uint32_t i, c;
    for (i = 0; v && i < n; ++i) {
        for (c = 0; c < components; ++c)
            if (!isfinite(v[(size_t)i * stride + c]))
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                                "%s of particle %u, component %u, is %g; nothing was changed",
                                what, i, c, (double)v[(size_t)i * stride + c]);
        if (last_positive && !(v[(size_t)i * stride + components - 1] > 0.0f))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "%s of particle %u must be positive, not %g; nothing was changed",
                            what, i, (double)v[(size_t)i * stride + components - 1]);
    }
    return GP_OK;
}

/* The mass of a grain of radius r of a material of the given density (kg/m^3): its sphere's. */
static float gp__grain_mass(float density, float r) { return (float)((double)density * 4.0 / 3.0 * GP__PI * (double)r * r * r); }

/* ---- the add, the removals, the count ---- */

/* The add, inside a gp__begin/gp__end pair (also used by every system's scenes and pours);
   densities, when not NULL, the fluid's carried density of each (kg/m^3, the continuity model's;
   else they start at the rest density). */
static gp_result gp__particles_append(gp_world* world, const gp_particles_desc* desc, const float* densities, uint32_t* ids) {
    gp_particles_desc d;
    gp_result r = GP_OK;
    uint32_t *given = NULL, *words;
    uint32_t i, done, first_id, chunk;
    size_t bytes;
    float grain_density = 0.0f;   /* > 0: each grain's mass is its material's density times its sphere */
    bool owned;
    int k;
    if (!desc) return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL");
    d = *desc;
    if (d.count == 0) return GP_OK;
    if (d.kind == GP_KIND_DEFAULT) d.kind = GP_KIND_EFFECT;
    if (d.kind == GP_KIND_GRANULAR && d.phase < GP_MAX_GRANULAR_MATERIALS) {   /* its material's grain */
        if (d.radius == 0.0f) d.radius = 0.5f * world->dem.materials[d.phase].diameter;
        if (d.mass == 0.0f && !d.masses) grain_density = world->dem.materials[d.phase].density;
    } else if (d.kind == GP_KIND_FLUID && d.phase < GP_MAX_FLUID_MATERIALS) {   /* its material's particle */
        if (d.radius == 0.0f) d.radius = 0.5f * world->fluid.materials[d.phase].spacing;
        if (d.mass == 0.0f) d.mass = world->fluid.materials[d.phase].mass;
    }
    if (d.radius == 0.0f) d.radius = 0.5f * world->desc.grid.cell_size;
    if (d.mass == 0.0f) d.mass = 1.0f;
    if (!d.has_owner) d.owner = GP_NO_OWNER;
    if ((r = gp__store_room(world, d.count, "particles")) != GP_OK) return r;
    if (!d.positions) return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                      "positions is NULL for %u particles", d.count);
    if ((int)d.kind <= (int)GP_KIND_DEFAULT || (int)d.kind >= (int)GP_KIND_COUNT)
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE, "kind %d is not a gp_kind", (int)d.kind);
    if (d.phase > 0xffffu) return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                                           "phase %u is above 65,535", d.phase);
    if (d.kind == GP_KIND_FLUID && d.phase >= GP_MAX_FLUID_MATERIALS)
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "fluid phase %u: a fluid's phase picks one of %d materials",
                        d.phase, GP_MAX_FLUID_MATERIALS);
    if ((d.kind == GP_KIND_GRANULAR || d.kind == GP_KIND_RIGID) && d.phase >= GP_MAX_GRANULAR_MATERIALS)
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "granular phase %u: a grain's phase picks one of %d materials",
                        d.phase, GP_MAX_GRANULAR_MATERIALS);
    if (d.kind == GP_KIND_EFFECT && d.phase >= GP_MAX_EFFECT_MATERIALS)   /* the shaders clamped it to the last */
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "effect phase %u: an effect particle's phase picks one of %d materials",
                        d.phase, GP_MAX_EFFECT_MATERIALS);
    if (!(d.radius > 0.0f) || !isfinite(d.radius) || !(d.mass > 0.0f) || !isfinite(d.mass))
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "radius %g and mass %g must be positive and finite",
                        (double)d.radius, (double)d.mass);
    if (!(d.lifetime >= 0.0f) || !isfinite(d.lifetime))
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "lifetime %g must be 0 (forever) or positive", (double)d.lifetime);
    if ((d.kind == GP_KIND_RIGID || d.kind == GP_KIND_CLOTH) && d.lifetime != 0.0f)
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "lifetime %g: a body's or cloth's particle lives as long as its owner (0)", (double)d.lifetime);
    if ((r = gp__check_values(world, "position", d.positions, d.count, 3, 3, false)) != GP_OK ||
        (r = gp__check_values(world, "velocity", d.velocities, d.count, 3, 3, false)) != GP_OK ||
        (r = gp__check_values(world, "radius", d.radii, d.count, 1, 1, true)) != GP_OK ||
        (r = gp__check_values(world, "mass", d.masses, d.count, 1, 1, true)) != GP_OK)
        return r;
    for (i = 0; grain_density > 0.0f && i < d.count; ++i) {
        float mass = gp__grain_mass(grain_density, d.radii ? d.radii[i] : d.radius);
        if (!(mass > 0.0f) || !isfinite(mass))
            return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "grain %u's radius %g gives mass %g kg at its material's density: not a "
                            "float; nothing was added", i, (double)(d.radii ? d.radii[i] : d.radius), (double)mass);
    }

    /* Room first (host memory for a chunk, the staging buffer), so that nothing fails halfway. */
    if (!world->fluid.state) densities = NULL;   /* no carried density to set */
    chunk = d.count < GP__STAGING_CHUNK ? d.count : GP__STAGING_CHUNK;
    bytes = (size_t)chunk * 48 + (size_t)(chunk + 1) / 2 * 16 + (densities ? (size_t)(chunk + 3) / 4 * 16 : 0);   /* store_append's layout */
    words = (uint32_t*)gp__alloc(&world->desc.allocator, bytes);
    owned = d.kind == GP_KIND_RIGID || d.kind == GP_KIND_CLOTH;
    if (!words) return gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                "no host memory to stage %u particles; nothing was added", d.count);
    r = gp__buffer_stage(world, bytes, NULL, "the staging of an add");   /* the largest chunk's room */
    /* Ids: never-used ones while they last (consecutive, as bodies need); then given-back ones,
       oldest first, which only the GPU knows (a wait). */
    first_id = world->store.next_id;
    if (r == GP_OK && (uint64_t)first_id + d.count > world->store.id_space) {
        if (owned)
            r = gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_IDS_USED_UP,
                         "%u particles of a body or cloth need consecutive never-used ids; %u of %u are left; "
                         "nothing was added", d.count, world->store.id_space - first_id, world->store.id_space);
        else if (!(given = (uint32_t*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *given)))
            r = gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                         "no host memory for %u ids; nothing was added", d.count);
        else
            r = gp__store_take_ids(world, d.count, given);
    } else if (r == GP_OK) {
        world->store.next_id += d.count;
    }
    for (done = 0; done < d.count && r == GP_OK; done += chunk) {
        uint32_t n = d.count - done < chunk ? d.count - done : chunk, timer;
        size_t at = (size_t)n * 12;   /* the lives' first word */
        for (i = 0; i < n; ++i) {
            uint32_t j = done + i;
            const float* p = d.positions + (size_t)j * 3;
            const float* v = d.velocities ? d.velocities + (size_t)j * 3 : NULL;
            float position[4], velocity[4], life[2];
            uint32_t info[4];
            position[0] = p[0]; position[1] = p[1]; position[2] = p[2];
            position[3] = d.radii ? d.radii[j] : d.radius;
            velocity[0] = v ? v[0] : 0.0f; velocity[1] = v ? v[1] : 0.0f; velocity[2] = v ? v[2] : 0.0f;
            velocity[3] = d.masses ? d.masses[j] : grain_density > 0.0f ? gp__grain_mass(grain_density, position[3]) : d.mass;
            info[0] = given ? given[j] : first_id + j;
            info[1] = (uint32_t)d.kind | (d.phase << 16);
            info[2] = d.owner;
            info[3] = d.users ? d.users[j] : d.user;
            life[0] = 0.0f;
            life[1] = d.lifetime;
            memcpy(words + (size_t)i * 4, position, 16);
            memcpy(words + ((size_t)n + i) * 4, velocity, 16);
            memcpy(words + ((size_t)2 * n + i) * 4, info, 16);
            memcpy(words + at + (size_t)i * 2, life, 8);
            if (densities) memcpy(words + at + (size_t)(n + 1) / 2 * 4 + i, densities + j, 4);
            if (ids) ids[j] = info[0];
            for (k = 0; k < 3; ++k) {   /* the extent the default camera frames */
                if (p[k] < world->added_lo[k]) world->added_lo[k] = p[k];
                if (p[k] > world->added_hi[k]) world->added_hi[k] = p[k];
            }
            if (v) {   /* any kind: the substeps are sized by every kind's speed */
                float speed = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                if (speed > world->step.added_speed) world->step.added_speed = speed;
            }
        }
        world->step.moved = true;
        if ((r = gp__buffer_stage(world, at * 4 + (size_t)(n + 1) / 2 * 16 + (densities ? (size_t)(n + 3) / 4 * 16 : 0), words,
                                  "the staging of an add")) != GP_OK)
            break;
        timer = gp__timer_begin(world, GP__STAGE_STORE_APPEND);
        gp__use(world, GP__PROGRAM_STORE_APPEND);
        world->gl.fnUniform1ui(0, n);
        world->gl.fnUniform1ui(1, densities ? 2u : world->fluid.state != 0);
        gp__dispatch(world, gp__groups(n, GP_GROUP_SIZE));
        gp__timer_end(world, timer);
        gp__store_count(world, n, n, 0, false);   /* every id the host's: none set aside */
        world->count += n;
        world->store.added += n;
    }
    gp__free(&world->desc.allocator, words);
    gp__free(&world->desc.allocator, given);
    if (r != GP_OK) return r;
    world->grid_built = false;
    if (d.lifetime > 0.0f) world->store.mortal = true;
    if (d.kind == GP_KIND_FLUID) world->fluid.phases |= 1u << d.phase;
    if (d.kind == GP_KIND_GRANULAR || d.kind == GP_KIND_RIGID) world->dem.phases |= 1u << d.phase;
    if (d.kind == GP_KIND_GRANULAR) world->dem.grains = true;
    if (d.kind == GP_KIND_EFFECT) world->effects.any = true;
    return GP_OK;
}
static gp_result gp__particles_add(gp_world* world, const gp_particles_desc* desc, uint32_t* ids) {
    return gp__particles_append(world, desc, NULL, ids);
}

/* A removal's two passes (store_remove.comp): the check counts what may not go, then the mark
   flags the rest dead only if the check counted nothing. by_ids: staging holds count ids; else
   the user's flag buffer is bound, over the store. */
static void gp__store_remove(gp_world* w, uint32_t count, gp__GLuint flags) {
    uint32_t timer = gp__timer_begin(w, GP__STAGE_STORE_REMOVE), mark;
    gp__buffer_zero(w, w->store.words, offsetof(gp__store_words, check), 4);
    gp__use(w, GP__PROGRAM_STORE_REMOVE);
    if (flags) gp__bind(w, GP__ROLE_FLAGS, flags);
    w->gl.fnUniform1ui(0, count);
    for (mark = 0; mark < 2; ++mark) {
        w->gl.fnUniform1ui(1, mark);
        if (count) gp__dispatch(w, gp__groups(count, GP_GROUP_SIZE));
        else gp__dispatch_store(w);
    }
    gp__timer_end(w, timer);
    w->store.mortal = true;   /* the builds now look for the dead */
    w->grid_built = false;
}

gp_result gp_particles_remove(gp_world* world, const uint32_t* ids, uint32_t count) {
    uint32_t i, refused = 0;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_remove");
    if (count == 0) return gp__end(world, GP_OK);
    if (!ids) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "ids is NULL"));
    if (count > world->capacity)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "%u ids: the store holds at most %u particles; nothing was removed", count, world->capacity));
    for (i = 0; i < count; ++i)
        if (ids[i] >= world->store.id_space)
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SLOTS_NOT_LIVE,
                                           "ids[%u] = %u is not an id (they are below %u); nothing was removed", i, ids[i],
                                           world->store.id_space));
    if ((r = gp__buffer_stage(world, (size_t)count * 4, ids, "the ids to remove")) != GP_OK) return gp__end(world, r);
    gp__store_remove(world, count, 0);
    gp__buffer_download(world, world->store.words, offsetof(gp__store_words, check), 4, &refused);
    if (refused)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SLOTS_NOT_LIVE,
                                       "%u of the %u ids name no particle in the store, or a body's or cloth's particle "
                                       "(those live as long as their owner); nothing was removed", refused, count));
    return gp__end(world, GP_OK);
}

gp_result gp_particles_remove_flagged(gp_world* world, uint32_t flag_buffer) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_remove_flagged");
    if (world->count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, flag_buffer, (size_t)world->count * 4, "flag buffer")) != GP_OK) return gp__end(world, r);
    gp__store_remove(world, 0, flag_buffer);
    return gp__end(world, GP_OK);
}

gp_result gp_particle_count_read(gp_world* world, uint32_t* count) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particle_count_read");
    if (!count) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "count is NULL"));
    gp__buffer_download(world, world->store.words, offsetof(gp__store_words, count), 4, count);
    return gp__end(world, GP_OK);
}

gp_result gp_particles_slots_read(gp_world* world, const uint32_t* ids, uint32_t count, uint32_t* slots) {
    uint32_t i, low = 0xffffffffu, high = 0, *span;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_slots_read");
    if (count == 0) return gp__end(world, GP_OK);
    if (!ids || !slots) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "ids or slots is NULL"));
    for (i = 0; i < count; ++i) {
        if (ids[i] < world->store.id_space && ids[i] < low) low = ids[i];
        if (ids[i] < world->store.id_space && ids[i] > high) high = ids[i];
    }
    if (low > high) {   /* none is an id */
        for (i = 0; i < count; ++i) slots[i] = GP_NO_SLOT;
        return gp__end(world, GP_OK);
    }
    if ((uint64_t)high - low > 16u * (uint64_t)count + 4096u) {   /* far apart: one word each */
        for (i = 0; i < count; ++i) {
            slots[i] = GP_NO_SLOT;
            if (ids[i] < world->store.id_space) gp__buffer_download(world, world->slot_of_id, (size_t)ids[i] * 4, 4, &slots[i]);
        }
        return gp__end(world, GP_OK);
    }
    span = (uint32_t*)gp__alloc(&world->desc.allocator, ((size_t)high - low + 1) * 4);
    if (!span) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                              "no host memory for %u ids' slots", high - low + 1));
    gp__buffer_download(world, world->slot_of_id, (size_t)low * 4, ((size_t)high - low + 1) * 4, span);   /* one wait */
    for (i = 0; i < count; ++i) slots[i] = ids[i] < world->store.id_space ? span[ids[i] - low] : GP_NO_SLOT;
    gp__free(&world->desc.allocator, span);
    return gp__end(world, GP_OK);
}

uint32_t gp_world_readbacks(const gp_world* world) { return world ? world->store.readbacks : 0; }

/* ---- the store's stage of the substep ---- */

/* Effect particles and every particle with a lifetime age by the substep, before the grid build
   that takes out those whose age reached it (store_age.comp); nothing to do in a world of neither. */
static void gp__store_age(gp_world* w) {
    if (w->store.mortal || w->effects.any) gp__stage_run(w, GP__STAGE_STORE_AGE, GP__PROGRAM_STORE_AGE);
}

/* >>mesh ===================================================================================
   Triangle meshes, for every system: the check of their arrays, the check that a mesh is closed,
   inside and outside by ray parity, and signed distance fields (colliders of GP_SHAPE_MESH,
   rigid bodies' shapes; emitters' surfaces need not be closed). */

/* Vertices and triangles given, every index in range, every vertex finite. */
static gp_result gp__mesh_check(gp_world* w, const float* vertices, uint32_t vertex_count, const uint32_t* triangles, uint32_t triangle_count) {
    uint64_t i;   /* 3 * triangle_count overflows 32 bits above 1,431,655,765 triangles */
    if (!vertices || !triangles || vertex_count == 0 || triangle_count == 0)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID,
                        "a mesh needs vertices and triangles (%u vertices, %u triangles, %s, %s)", vertex_count, triangle_count,
                        vertices ? "vertices given" : "vertices NULL", triangles ? "triangles given" : "triangles NULL");
    for (i = 0; i < 3 * (uint64_t)triangle_count; ++i)
        if (triangles[i] >= vertex_count)
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID, "triangle %u: index %u is out of range (%u vertices)",
                            (uint32_t)(i / 3), triangles[i], vertex_count);
    return gp__check_values(w, "vertex", vertices, vertex_count, 3, 3, false);
}

/* A closed mesh uses every edge, by its endpoints' positions (so that unwelded copies of a vertex
   count as one), an even number of times. Returns GP_OK, or fails naming an open edge. Indices
   must be in range (checked before). */
typedef struct gp__edge { float a[3], b[3]; } gp__edge;
static int gp__edge_order(const void* x, const void* y) {
    const float* p = (const float*)x;
    const float* q = (const float*)y;
    int k;
    for (k = 0; k < 6; ++k)
        if (p[k] != q[k]) return p[k] < q[k] ? -1 : 1;
    return 0;
}
/* A closed mesh must enclose something: its vertices may not all lie in one plane, whichever way
   it is tilted (a soup may mix windings, so no signed volume). The plane is that of the vertex
   farthest from the first, and the vertex farthest from their line; every vertex is measured
   against it, in double precision. Flat means within 1e-6 of the mesh's extent (float vertices on
   a tilted plane stray from it by about 1e-7 of their size). */
static gp_result gp__mesh_check_solid(gp_world* w, const float* vertices, const uint32_t* triangles, size_t corners) {
    double o[3], u[3] = {0.0, 0.0, 0.0}, normal[3] = {0.0, 0.0, 0.0}, extent = 0.0, width = 0.0, best = 0.0;
    size_t i;
    int a;
    for (a = 0; a < 3; ++a) o[a] = vertices[3 * (size_t)triangles[0] + a];
    for (i = 0; i < corners; ++i) {   /* the farthest vertex from the first: the mesh's extent */
        const float* p = vertices + 3 * (size_t)triangles[i];
        double d[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]}, l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l > extent) { extent = l; for (a = 0; a < 3; ++a) u[a] = d[a] / l; }
    }
    for (i = 0; i < corners && extent > 0.0; ++i) {   /* the farthest from that line: the plane's normal */
        const float* p = vertices + 3 * (size_t)triangles[i];
        double d[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]}, c[3], l;
        c[0] = u[1] * d[2] - u[2] * d[1]; c[1] = u[2] * d[0] - u[0] * d[2]; c[2] = u[0] * d[1] - u[1] * d[0];
        l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        if (l > best) { best = l; for (a = 0; a < 3; ++a) normal[a] = c[a] / l; }
    }
    for (i = 0; i < corners && best > 0.0; ++i) {   /* how far the mesh reaches out of that plane */
        const float* p = vertices + 3 * (size_t)triangles[i];
        double d = fabs((p[0] - o[0]) * normal[0] + (p[1] - o[1]) * normal[1] + (p[2] - o[2]) * normal[2]);
        if (d > width) width = d;
    }
    if (!(width > 1e-6 * extent))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID,
                        "the mesh is closed but encloses no volume: its vertices lie within %g m of one plane (%g m across)",
                        width, extent);
    return GP_OK;
}

static gp_result gp__mesh_check_closed(gp_world* w, const float* vertices, const uint32_t* triangles, uint32_t triangle_count) {
    size_t n = 3 * (size_t)triangle_count, i, run;
    gp__edge* edges = (gp__edge*)gp__alloc(&w->desc.allocator, n * sizeof *edges);
    gp_result r = GP_OK;
    if (!edges) return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                "no host memory to check a mesh of %u triangles", triangle_count);
    for (i = 0; i < n; ++i) {
        const float* p = vertices + 3 * (size_t)triangles[i];
        const float* q = vertices + 3 * (size_t)triangles[i % 3 == 2 ? i - 2 : i + 1];
        if (p[0] < q[0] || (p[0] == q[0] && (p[1] < q[1] || (p[1] == q[1] && p[2] <= q[2])))) {   /* a before b */
            memcpy(edges[i].a, p, 12); memcpy(edges[i].b, q, 12);
        } else {
            memcpy(edges[i].a, q, 12); memcpy(edges[i].b, p, 12);
        }
    }
    qsort(edges, n, sizeof *edges, gp__edge_order);
    for (i = 0; i < n && r == GP_OK; i += run) {
        for (run = 1; i + run < n && gp__edge_order(&edges[i], &edges[i + run]) == 0; ++run) {}
        if (run % 2)
            r = gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_NOT_CLOSED,
                         "the mesh is not closed: the edge (%g, %g, %g)-(%g, %g, %g) borders %u "
                         "triangle%s", (double)edges[i].a[0], (double)edges[i].a[1], (double)edges[i].a[2], (double)edges[i].b[0],
                         (double)edges[i].b[1], (double)edges[i].b[2], (unsigned)run, run == 1 ? "" : "s");
    }
    gp__free(&w->desc.allocator, edges);
    if (r == GP_OK) r = gp__mesh_check_solid(w, vertices, triangles, n);
    return r;
}

/* mesh_sdf.c - signed distance field of a closed triangle mesh, for gpuparticle.h (>>mesh section).

   Two entry points:
       gp__mesh_inside       inside/outside of grid samples by ray parity along +x, one pass per column
       gp__mesh_field_build  the signed distance field: exact in a band, propagated beyond it

   How the field is built, and why:
     1. Band: every triangle visits the samples in its bounding box grown by the band and keeps the
        exact point-triangle distance where it beats the sample's best. A sample whose true distance
        d <= band lies in the grown box of its nearest triangle (the closest point is in the box),
        so it is visited by that triangle: any stored value <= band is exact.
     2. Beyond the band: sweeps in the 8 octant orders carry each sample's closest surface point
        (and its triangle) to its downstream neighbours, which keep whichever candidate point is
        nearest to them (vector propagation); then each sample measures the exact distance to the
        triangle it ended with. Values there are the exact distance to one real triangle, so never
        below the true distance, and in the tests at most 0.08 voxel above it.
     3. Sign: ray parity per (y, z) column of samples, made exact for rays through edges and
        vertices (see gp__mesh_ray_side).

   C99 and C++11; no globals; memory only through the caller's alloc/release. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct gp__mesh_field {
    float origin[3];   /* position of sample (0,0,0), metres */
    float voxel;       /* metres between samples */
    uint32_t dims[3];  /* samples along x, y, z */
    float* samples;    /* dims[0]*dims[1]*dims[2] floats, x fastest: index x + dims[0]*(y + dims[1]*z) */
} gp__mesh_field;

/* Half-width of the exact band, in voxels (the contract promises at least 2). */
#define GP__MESH_BAND_VOXELS 3.0
#define GP__MESH_NO_TRIANGLE 0xFFFFFFFFu

/* ---- inside / outside ------------------------------------------------------------------------ */

/* Side of the column's ray with respect to the directed projected edge A->B, in the (y, z) plane
   with the ray at the origin: +1 left, -1 right, 0 only when A == B (no side at all).

   Exactness: A and B are floats, so each product is exact in double (24 + 24 bits) and the
   correctly rounded difference has the exact sign; side(B, A) == -side(A, B) always. The two
   triangles sharing an edge therefore never disagree about which side of it the ray is on.
   Ties: when the ray lies exactly on the edge's line, the ray is treated as moved by the
   infinitesimal (+e, +e^2) in (y, z) (simulation of simplicity). That is the same for every
   triangle, so each ray crosses a closed surface an exact, consistent number of times: through
   a shared edge or vertex it is counted once, and grazing a silhouette it is counted 0 or 2. */
static int gp__mesh_ray_side(float ay, float az, float by, float bz) {
    double e = (double)ay * (double)bz - (double)az * (double)by;
    if (e > 0.0) return 1;
    if (e < 0.0) return -1;
    /* orient(A, B, (e, e^2)) = e - (bz - az) * eps + (by - ay) * eps^2 */
    if (bz != az) return bz < az ? 1 : -1;
    if (by != ay) return by > ay ? 1 : -1;
    return 0;
}

/* For a grid of sample points origin + voxel * (x, y, z), x < dims[0] ..., writes inside[i] = 1 for
   points inside the closed mesh, 0 outside (ray parity along +x per column). Index i is
   x + dims[0] * (y + dims[1] * z). Trusts its input: indices in range, finite vertices, voxel > 0,
   and grid and mesh within float range (gp__mesh_field_build checks all that for its own call).
   A sample exactly on the surface may come out either way. Orientation and vertex welding do not
   matter; the mesh must be closed (every edge shared by an even number of triangles).
   Each triangle visits only the columns its (y, z) bounding box covers, so the cost is about the
   mesh's projected area in voxels plus one pass over the samples; no memory besides `inside`. */
static void gp__mesh_inside(const float* vertices, const uint32_t* triangles, uint32_t triangle_count,
                            const float origin[3], float voxel, const uint32_t dims[3], unsigned char* inside) {
    const size_t nx = dims[0], ny = dims[1], nz = dims[2];
    const double h = (double)voxel;
    size_t i, col, t;
    if (nx == 0 || ny == 0 || nz == 0) return;
    memset(inside, 0, nx * ny * nz);
    /* Pass 1: each crossing at x = c toggles the first sample of its column with x > c. */
    for (t = 0; t < triangle_count; ++t) {
        const float* v0 = vertices + 3 * (size_t)triangles[3 * t + 0];
        const float* v1 = vertices + 3 * (size_t)triangles[3 * t + 1];
        const float* v2 = vertices + 3 * (size_t)triangles[3 * t + 2];
        double lo[2], hi[2];
        size_t first[2] = {0, 0}, last[2] = {0, 0}, y, z;
        int a, empty = 0;
        for (a = 0; a < 2; ++a) {
            double mn = v0[a + 1], mx = v0[a + 1];
            if (v1[a + 1] < mn) mn = v1[a + 1];
            if (v1[a + 1] > mx) mx = v1[a + 1];
            if (v2[a + 1] < mn) mn = v2[a + 1];
            if (v2[a + 1] > mx) mx = v2[a + 1];
            /* floor/ceil widen the range by up to a column; the exact test below rejects extras */
            lo[a] = floor((mn - (double)origin[a + 1]) / h);
            hi[a] = ceil((mx - (double)origin[a + 1]) / h);
            if (lo[a] < 0.0) lo[a] = 0.0;
            if (hi[a] > (double)(dims[a + 1] - 1)) hi[a] = (double)(dims[a + 1] - 1);
            if (!(lo[a] <= hi[a])) empty = 1;   /* also catches NaN */
            else { first[a] = (size_t)lo[a]; last[a] = (size_t)hi[a]; }
        }
        if (empty) continue;
        for (z = first[1]; z <= last[1]; ++z) {
            const double pz = (double)origin[2] + h * (double)z;
            for (y = first[0]; y <= last[0]; ++y) {
                const double py = (double)origin[1] + h * (double)y;
                /* Vertices relative to the ray, rounded to float: the same position always gives
                   the same float, so the projected mesh stays closed, and gp__mesh_ray_side is exact
                   on these values. The rounding moves vertices by about 1e-7 of their distance
                   from the ray, which can only matter for samples that close to the surface. */
                const float y0 = (float)((double)v0[1] - py), z0 = (float)((double)v0[2] - pz);
                const float y1 = (float)((double)v1[1] - py), z1 = (float)((double)v1[2] - pz);
                const float y2 = (float)((double)v2[1] - py), z2 = (float)((double)v2[2] - pz);
                const int s0 = gp__mesh_ray_side(y1, z1, y2, z2);
                const int s1 = gp__mesh_ray_side(y2, z2, y0, z0);
                const int s2 = gp__mesh_ray_side(y0, z0, y1, z1);
                double w0, w1, w2, cx, tx;
                size_t k;
                if (s0 == 0 || s0 != s1 || s0 != s2) continue;   /* ray misses the triangle */
                /* Barycentric weights of the ray in the projection. They share one sign and at least
                   one is nonzero (a projected-degenerate triangle is never hit), so the sum is not 0. */
                w0 = (double)y1 * z2 - (double)z1 * y2;
                w1 = (double)y2 * z0 - (double)z2 * y0;
                w2 = (double)y0 * z1 - (double)z0 * y1;
                cx = (w0 * v0[0] + w1 * v1[0] + w2 * v2[0]) / (w0 + w1 + w2);
                tx = (cx - (double)origin[0]) / h;
                if (!(tx < (double)(nx - 1))) continue;   /* no sample lies beyond the crossing */
                k = tx < 0.0 ? 0 : (size_t)floor(tx) + 1;   /* first sample with x > crossing */
                inside[k + nx * (y + ny * z)] ^= 1;
            }
        }
    }
    /* Pass 2: a sample is inside when an odd number of crossings lie before it on its column. */
    for (col = 0; col < ny * nz; ++col) {
        unsigned char* row = inside + col * nx;
        unsigned char parity = 0;
        for (i = 0; i < nx; ++i) { parity ^= row[i]; row[i] = parity; }
    }
}

/* ---- point-triangle distance --------------------------------------------------------------- */

/* A triangle prepared for repeated distance queries, in double. */
typedef struct gp__mesh_tri {
    double a[3], ab[3], ac[3];
    double n[3];                  /* unit normal; unused when degenerate */
    double ab_ab, ab_ac, ac_ac;   /* dot products of the edges from a */
    double center[3], radius;     /* bounding sphere about the centroid */
    int degenerate;               /* zero or near-zero area: measured as three segments */
} gp__mesh_tri;

static double gp__mesh_dot(const double u[3], const double v[3]) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

static void gp__mesh_tri_prepare(gp__mesh_tri* t, const float* p0, const float* p1, const float* p2) {
    double c[3], c2;
    int k;
    for (k = 0; k < 3; ++k) {
        t->a[k] = p0[k];
        t->ab[k] = (double)p1[k] - p0[k];
        t->ac[k] = (double)p2[k] - p0[k];
    }
    t->ab_ab = gp__mesh_dot(t->ab, t->ab);
    t->ab_ac = gp__mesh_dot(t->ab, t->ac);
    t->ac_ac = gp__mesh_dot(t->ac, t->ac);
    c[0] = t->ab[1] * t->ac[2] - t->ab[2] * t->ac[1];
    c[1] = t->ab[2] * t->ac[0] - t->ab[0] * t->ac[2];
    c[2] = t->ab[0] * t->ac[1] - t->ab[1] * t->ac[0];
    c2 = gp__mesh_dot(c, c);
    /* A sliver with sin(angle) below 1e-10 is a segment for any practical purpose, and treating it
       as one keeps every division below away from zero. */
    t->degenerate = !(c2 > 1e-20 * t->ab_ab * t->ac_ac);
    for (k = 0; k < 3; ++k) t->n[k] = t->degenerate ? 0.0 : c[k] / sqrt(c2);
    for (k = 0; k < 3; ++k) t->center[k] = ((double)p0[k] + p1[k] + p2[k]) / 3.0;
    c2 = 0.0;   /* now the largest squared distance from the centroid to a vertex */
    for (k = 0; k < 3; ++k) {
        const float* v = k == 0 ? p0 : k == 1 ? p1 : p2;
        const double d[3] = {v[0] - t->center[0], v[1] - t->center[1], v[2] - t->center[2]};
        if (gp__mesh_dot(d, d) > c2) c2 = gp__mesh_dot(d, d);
    }
    t->radius = sqrt(c2) * (1.0 + 1e-9);   /* rounding slack: the sphere must contain the triangle */
}

/* Squared distance from the point a + ap to the segment a + [0, 1] * d; r = the point minus its
   closest point on the segment. */
static double gp__mesh_segment_dist2(const double ap[3], const double d[3], double d_d, double r[3]) {
    double s = 0.0;
    int k;
    if (d_d > 0.0) {
        s = gp__mesh_dot(ap, d) / d_d;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    }
    for (k = 0; k < 3; ++k) r[k] = ap[k] - s * d[k];
    return gp__mesh_dot(r, r);
}

/* Squared distance from p to the triangle, and r = p minus its closest point on the triangle.
   Finds which Voronoi region of the triangle (3 vertices, 3 edges, the face) holds p's projection
   from dot products with the edges (Ericson, Real-Time Collision Detection, 5.1.5), then measures
   to that feature. */
static double gp__mesh_tri_dist2(const gp__mesh_tri* t, const double p[3], double r[3]) {
    double ap[3], d1, d2, d3, d4, d5, d6, va, vb, vc, s, denom;
    int k;
    for (k = 0; k < 3; ++k) ap[k] = p[k] - t->a[k];
    if (t->degenerate) {
        double bp[3], bc[3], e[3], best, d;
        for (k = 0; k < 3; ++k) { bp[k] = ap[k] - t->ab[k]; bc[k] = t->ac[k] - t->ab[k]; }
        best = gp__mesh_segment_dist2(ap, t->ab, t->ab_ab, r);
        d = gp__mesh_segment_dist2(ap, t->ac, t->ac_ac, e);
        if (d < best) { best = d; for (k = 0; k < 3; ++k) r[k] = e[k]; }
        d = gp__mesh_segment_dist2(bp, bc, gp__mesh_dot(bc, bc), e);
        if (d < best) { best = d; for (k = 0; k < 3; ++k) r[k] = e[k]; }
        return best;
    }
    d1 = gp__mesh_dot(t->ab, ap);
    d2 = gp__mesh_dot(t->ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {                                        /* vertex a */
        for (k = 0; k < 3; ++k) r[k] = ap[k];
        return gp__mesh_dot(r, r);
    }
    d3 = d1 - t->ab_ab;                                                  /* ab . (p - b) */
    d4 = d2 - t->ab_ac;                                                  /* ac . (p - b) */
    if (d3 >= 0.0 && d4 <= d3) {                                         /* vertex b */
        for (k = 0; k < 3; ++k) r[k] = ap[k] - t->ab[k];
        return gp__mesh_dot(r, r);
    }
    vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {                          /* edge ab; d1 - d3 = |ab|^2 > 0 */
        s = d1 / (d1 - d3);
        for (k = 0; k < 3; ++k) r[k] = ap[k] - s * t->ab[k];
        return gp__mesh_dot(r, r);
    }
    d5 = d1 - t->ab_ac;                                                  /* ab . (p - c) */
    d6 = d2 - t->ac_ac;                                                  /* ac . (p - c) */
    if (d6 >= 0.0 && d5 <= d6) {                                         /* vertex c */
        for (k = 0; k < 3; ++k) r[k] = ap[k] - t->ac[k];
        return gp__mesh_dot(r, r);
    }
    vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {                          /* edge ac; d2 - d6 = |ac|^2 > 0 */
        s = d2 / (d2 - d6);
        for (k = 0; k < 3; ++k) r[k] = ap[k] - s * t->ac[k];
        return gp__mesh_dot(r, r);
    }
    va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {                /* edge bc */
        denom = (d4 - d3) + (d5 - d6);
        s = denom > 0.0 ? (d4 - d3) / denom : 0.0;
        for (k = 0; k < 3; ++k) r[k] = ap[k] - t->ab[k] - s * (t->ac[k] - t->ab[k]);
        return gp__mesh_dot(r, r);
    }
    s = gp__mesh_dot(t->n, ap);                                          /* face: along the normal */
    for (k = 0; k < 3; ++k) r[k] = s * t->n[k];
    return s * s;
}

/* ---- the field -------------------------------------------------------------------------------- */

static int gp__mesh_fail(char* why, const char* message) {
    if (why) snprintf(why, 256, "%s", message);
    return -1;
}

/* Signed distance field of a closed triangle mesh: negative inside the mesh, positive outside,
   |value| = exact Euclidean distance to the nearest triangle within GP__MESH_BAND_VOXELS (3) voxels
   of the surface, and beyond that the exact distance to a triangle found by propagation from the
   neighbours: never below the true distance and within a small fraction of a voxel of it.
   The grid covers the mesh's bounding box grown by `margin` (>= 0) on every side, samples `voxel`
   apart, origin = bounding box minimum - margin (so a grid aligned with the mesh stays aligned).
   The mesh must be closed (every edge shared by an even number of triangles); orientation and
   vertex welding do not matter. On success returns 0 and out->samples, allocated with `alloc`,
   belongs to the caller (free it with release(out->samples, user)). Returns -1 on bad input (NULL,
   zero counts, index out of range, non-finite vertex, voxel <= 0, bad margin, more than
   max_samples samples) or failed allocation, with a one-line reason in `why` (size 256) and *out
   zeroed. */
static int gp__mesh_field_build(const float* vertices, uint32_t vertex_count, const uint32_t* triangles,
                                uint32_t triangle_count, float voxel, float margin, uint32_t max_samples,
                                void* (*alloc)(size_t, void*), void (*release)(void*, void*), void* user,
                                gp__mesh_field* out, char* why) {
    double bmin[3], bmax[3], extent, cells, total = 1.0, h, inv_h, band, wide;
    size_t n, nx, ny, nxy, i, t, scratch_bytes, tri_bytes;
    unsigned char* scratch;
    gp__mesh_tri* tris;
    float* closest;
    uint32_t* nearest;
    unsigned char* inside;
    float* dist;
    float band_f;
    int a, oct;

    if (why) why[0] = '\0';
    if (!out) return gp__mesh_fail(why, "mesh field: out is NULL");
    memset(out, 0, sizeof *out);
    if (!vertices || !triangles) return gp__mesh_fail(why, "mesh field: vertices or triangles is NULL");
    if (!alloc || !release) return gp__mesh_fail(why, "mesh field: alloc or release is NULL");
    if (vertex_count == 0 || triangle_count == 0) return gp__mesh_fail(why, "mesh field: no vertices or no triangles");
    if (!(voxel > 0.0f) || !isfinite(voxel)) return gp__mesh_fail(why, "mesh field: voxel must be finite and > 0");
    if (!(margin >= 0.0f) || !isfinite(margin)) return gp__mesh_fail(why, "mesh field: margin must be finite and >= 0");
    for (i = 0; i < 3 * (size_t)triangle_count; ++i) {
        if (triangles[i] >= vertex_count) {
            if (why) snprintf(why, 256, "mesh field: triangle %lu uses vertex %lu, but there are only %lu vertices",
                              (unsigned long)(i / 3), (unsigned long)triangles[i], (unsigned long)vertex_count);
            return -1;
        }
    }
    /* Bounding box of the vertices the triangles use; unused vertices must still be finite. */
    for (i = 0; i < 3 * (size_t)vertex_count; ++i) {
        if (!isfinite(vertices[i])) {
            if (why) snprintf(why, 256, "mesh field: vertex %lu is not finite", (unsigned long)(i / 3));
            return -1;
        }
    }
    for (a = 0; a < 3; ++a) bmin[a] = bmax[a] = vertices[3 * (size_t)triangles[0] + (size_t)a];
    for (i = 0; i < 3 * (size_t)triangle_count; ++i) {
        for (a = 0; a < 3; ++a) {
            double c = vertices[3 * (size_t)triangles[i] + (size_t)a];
            if (c < bmin[a]) bmin[a] = c;
            if (c > bmax[a]) bmax[a] = c;
        }
    }
    for (a = 0; a < 3; ++a)
        if (bmin[a] - (double)margin < -FLT_MAX || bmax[a] + (double)margin > FLT_MAX)
            return gp__mesh_fail(why, "mesh field: the mesh grown by the margin exceeds the float range");
    h = (double)voxel;
    inv_h = 1.0 / h;
    for (a = 0; a < 3; ++a) {
        out->origin[a] = (float)(bmin[a] - (double)margin);
        /* from the float origin, so the last sample really reaches bmax + margin */
        extent = bmax[a] + (double)margin - (double)out->origin[a];
        cells = ceil(extent / h);
        if (!(cells < 4294967295.0)) cells = 4294967295.0;   /* too many: caught just below */
        if (cells < 0.0) cells = 0.0;
        out->dims[a] = (uint32_t)cells + (cells < 4294967295.0 ? 1u : 0u);
        total *= (double)out->dims[a];
    }
    /* bytes per sample: the field, plus closest point, nearest triangle and inside flag of scratch */
    if (total > (double)max_samples ||
        total * (double)(4 * sizeof(float) + sizeof(uint32_t) + 1) > (double)SIZE_MAX / 2) {
        if (why) snprintf(why, 256, "mesh field: %lu x %lu x %lu samples exceed max_samples (%lu)",
                          (unsigned long)out->dims[0], (unsigned long)out->dims[1], (unsigned long)out->dims[2],
                          (unsigned long)max_samples);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->voxel = voxel;
    nx = out->dims[0];
    ny = out->dims[1];
    nxy = nx * ny;
    n = nxy * out->dims[2];
    if ((double)triangle_count * (double)sizeof(gp__mesh_tri) > (double)SIZE_MAX / 4) {   /* 32-bit hosts */
        memset(out, 0, sizeof *out);
        return gp__mesh_fail(why, "mesh field: too many triangles for this address space");
    }
    tri_bytes = (size_t)triangle_count * sizeof(gp__mesh_tri);
    scratch_bytes = tri_bytes + n * (3 * sizeof(float) + sizeof(uint32_t) + 1);
    dist = (float*)alloc(n * sizeof(float), user);
    scratch = dist ? (unsigned char*)alloc(scratch_bytes, user) : NULL;
    if (!scratch) {
        if (dist) release(dist, user);
        memset(out, 0, sizeof *out);
        return gp__mesh_fail(why, "mesh field: out of memory");
    }
    /* Layout keeps alignment: the doubles first, then the 4-byte arrays, then bytes. */
    tris = (gp__mesh_tri*)(void*)scratch;
    closest = (float*)(void*)(scratch + tri_bytes);
    nearest = (uint32_t*)(void*)(scratch + tri_bytes + n * 3 * sizeof(float));
    inside = scratch + tri_bytes + n * (3 * sizeof(float) + sizeof(uint32_t));

    /* Per sample: dist = distance to the best triangle so far, nearest = that triangle,
       closest = its closest point to the sample (what the propagation carries). */
    for (i = 0; i < n; ++i) { dist[i] = INFINITY; nearest[i] = GP__MESH_NO_TRIANGLE; }
    band = GP__MESH_BAND_VOXELS * h;
    band_f = (float)band;
    wide = band * (1.0 + 1e-7);   /* the band for culling, with slack for rounding */

    /* 1. The band: exact distances from each triangle to the samples near it. Each triangle visits
       the samples of its bounding box grown by the band, row by row along x, and each row only over
       the x interval where the sample can be within the band: inside the bounding sphere grown by
       the band, and inside the slab |distance to the plane| <= band. The intervals are widened to
       whole samples, so they never drop a sample that belongs to the band. */
    for (t = 0; t < triangle_count; ++t) {
        const float* p[3];
        gp__mesh_tri* tri = &tris[t];
        size_t first[3] = {0, 0, 0}, last[3] = {0, 0, 0}, x, y, z;
        double reach, inv_nx;
        int k, empty = 0;
        for (k = 0; k < 3; ++k) p[k] = vertices + 3 * (size_t)triangles[3 * t + (size_t)k];
        gp__mesh_tri_prepare(tri, p[0], p[1], p[2]);
        reach = wide + tri->radius;
        inv_nx = !tri->degenerate && fabs(tri->n[0]) > 1e-12 ? 1.0 / tri->n[0] : 0.0;
        for (a = 0; a < 3; ++a) {
            double mn = p[0][a], mx = p[0][a], lo, hi;
            if (p[1][a] < mn) mn = p[1][a];
            if (p[1][a] > mx) mx = p[1][a];
            if (p[2][a] < mn) mn = p[2][a];
            if (p[2][a] > mx) mx = p[2][a];
            lo = floor((mn - band - (double)out->origin[a]) / h);   /* floor/ceil: err wide */
            hi = ceil((mx + band - (double)out->origin[a]) / h);
            if (lo < 0.0) lo = 0.0;
            if (hi > (double)(out->dims[a] - 1)) hi = (double)(out->dims[a] - 1);
            if (!(lo <= hi)) empty = 1;
            else { first[a] = (size_t)lo; last[a] = (size_t)hi; }
        }
        if (empty) continue;
        for (z = first[2]; z <= last[2]; ++z) {
            for (y = first[1]; y <= last[1]; ++y) {
                const size_t row = nx * (y + ny * z);
                double q[3], r[3], dx, dy, dz, rest, half, lo, hi;
                size_t x0, x1;
                q[1] = (double)out->origin[1] + h * (double)y;
                q[2] = (double)out->origin[2] + h * (double)z;
                dy = q[1] - tri->center[1];
                dz = q[2] - tri->center[2];
                rest = reach * reach - dy * dy - dz * dz;
                if (rest < 0.0) continue;
                half = sqrt(rest);
                lo = tri->center[0] - half;
                hi = tri->center[0] + half;
                if (!tri->degenerate) {
                    /* plane distance along the row: s(x) = base + n.x * (x - a.x) */
                    const double base = tri->n[1] * (q[1] - tri->a[1]) + tri->n[2] * (q[2] - tri->a[2]);
                    if (inv_nx != 0.0) {
                        double u = tri->a[0] + (-wide - base) * inv_nx, w = tri->a[0] + (wide - base) * inv_nx;
                        if (u > w) { double swap = u; u = w; w = swap; }
                        if (u > lo) lo = u;
                        if (w < hi) hi = w;
                    } else if (fabs(base) > wide) {
                        continue;
                    }
                }
                /* to sample indices, widened to whole samples; clamped first, so truncation is floor */
                lo = (lo - (double)out->origin[0]) * inv_h;
                hi = (hi - (double)out->origin[0]) * inv_h;
                if (lo < (double)first[0]) lo = (double)first[0];
                if (hi > (double)last[0]) hi = (double)last[0];
                if (!(lo <= hi)) continue;
                x0 = (size_t)lo;
                x1 = (size_t)hi;
                if ((double)x1 < hi) ++x1;
                for (x = x0; x <= x1; ++x) {
                    double cur = dist[row + x], d2;
                    q[0] = (double)out->origin[0] + h * (double)x;
                    /* Lower bounds on the distance to the triangle, from its bounding sphere and its
                       plane: skip the samples this triangle cannot improve. */
                    dx = q[0] - tri->center[0];
                    if (dx * dx + dy * dy + dz * dz >= (cur + tri->radius) * (cur + tri->radius)) continue;
                    if (!tri->degenerate) {
                        double s = tri->n[0] * (q[0] - tri->a[0]) + tri->n[1] * (q[1] - tri->a[1]) +
                                   tri->n[2] * (q[2] - tri->a[2]);
                        if (fabs(s) >= cur) continue;
                    }
                    d2 = gp__mesh_tri_dist2(tri, q, r);
                    if (d2 < cur * cur) {
                        dist[row + x] = (float)sqrt(d2);
                        nearest[row + x] = (uint32_t)t;
                        for (k = 0; k < 3; ++k) closest[3 * (row + x) + (size_t)k] = (float)(q[k] - r[k]);
                    }
                }
            }
        }
    }

    /* 2. Beyond the band: closest-point propagation. In each of the 8 sweep orders, a sample looks
       at its 7 upstream neighbours (the corner of the 2x2x2 block behind it) and adopts the
       neighbour's closest surface point, and its triangle, when that point is nearer than its
       own. Comparing points costs a few flops where a point-triangle test costs ~50. One round of
       the 8 sweeps is enough: in the tests, more rounds did not lower the worst error. The final
       distance is then measured exactly to the adopted triangle. Samples with a value <= band are
       exact (see the top of the file) and are never touched. */
    for (oct = 0; oct < 8; ++oct) {
        const int sx = (oct & 1) ? -1 : 1, sy = (oct & 2) ? -1 : 1, sz = (oct & 4) ? -1 : 1;
        const ptrdiff_t step[3] = {-sx, -sy * (ptrdiff_t)nx, -sz * (ptrdiff_t)nxy};
        ptrdiff_t offset[8];
        size_t kx, ky, kz;
        for (i = 1; i < 8; ++i)
            offset[i] = ((i & 1) ? step[0] : 0) + ((i & 2) ? step[1] : 0) + ((i & 4) ? step[2] : 0);
        for (kz = 0; kz < out->dims[2]; ++kz) {
            const size_t z = sz > 0 ? kz : out->dims[2] - 1 - kz;
            const int okz = sz > 0 ? z > 0 : z + 1 < out->dims[2];   /* upstream neighbour exists */
            const double qz = (double)out->origin[2] + h * (double)z;
            for (ky = 0; ky < ny; ++ky) {
                const size_t y = sy > 0 ? ky : ny - 1 - ky;
                const int oky = sy > 0 ? y > 0 : y + 1 < ny;
                const double qy = (double)out->origin[1] + h * (double)y;
                for (kx = 0; kx < nx; ++kx) {
                    const size_t x = sx > 0 ? kx : nx - 1 - kx;
                    const int okx = sx > 0 ? x > 0 : x + 1 < nx;
                    const int ok = okx | (oky << 1) | (okz << 2);
                    const size_t s = x + nx * y + nxy * z;
                    const double qx = (double)out->origin[0] + h * (double)x;
                    double best = INFINITY;
                    size_t best_j = s;
                    int m;
                    if (dist[s] <= band_f) continue;
                    if (nearest[s] != GP__MESH_NO_TRIANGLE) {
                        const float* c = closest + 3 * s;
                        best = (qx - c[0]) * (qx - c[0]) + (qy - c[1]) * (qy - c[1]) + (qz - c[2]) * (qz - c[2]);
                    }
                    for (m = 1; m < 8; ++m) {
                        size_t j;
                        const float* c;
                        double d2;
                        if ((m & ok) != m) continue;   /* off the grid */
                        j = (size_t)((ptrdiff_t)s + offset[m]);
                        if (nearest[j] == GP__MESH_NO_TRIANGLE) continue;
                        c = closest + 3 * j;
                        d2 = (qx - c[0]) * (qx - c[0]) + (qy - c[1]) * (qy - c[1]) + (qz - c[2]) * (qz - c[2]);
                        if (d2 < best) { best = d2; best_j = j; }
                    }
                    if (best_j != s) {
                        nearest[s] = nearest[best_j];
                        closest[3 * s + 0] = closest[3 * best_j + 0];
                        closest[3 * s + 1] = closest[3 * best_j + 1];
                        closest[3 * s + 2] = closest[3 * best_j + 2];
                    }
                }
            }
        }
    }
    /* The exact distance to the adopted triangle (never more than to the carried point). Every
       sample has a triangle by now: each triangle seeds at least the sample nearest to it (the grid
       covers the mesh, so that one is within sqrt(3)/2 voxel < band), and the sweeps reach every
       sample from there; the brute-force branch is a guard should that reasoning ever break. */
    for (i = 0; i < n; ++i) {
        double q[3], r[3], best = INFINITY;
        if (dist[i] <= band_f) continue;
        q[0] = (double)out->origin[0] + h * (double)(i % nx);
        q[1] = (double)out->origin[1] + h * (double)((i / nx) % ny);
        q[2] = (double)out->origin[2] + h * (double)(i / nxy);
        if (nearest[i] != GP__MESH_NO_TRIANGLE) {
            best = gp__mesh_tri_dist2(&tris[nearest[i]], q, r);
        } else {
            for (t = 0; t < triangle_count; ++t) {
                double d2 = gp__mesh_tri_dist2(&tris[t], q, r);
                if (d2 < best) best = d2;
            }
        }
        dist[i] = (float)sqrt(best);
    }

    /* 3. The sign. */
    gp__mesh_inside(vertices, triangles, triangle_count, out->origin, voxel, out->dims, inside);
    for (i = 0; i < n; ++i)
        if (inside[i]) dist[i] = -dist[i];

    release(scratch, user);
    out->samples = dist;
    return 0;
}


/* >>colliders ==============================================================================
   The walls every system meets: analytic shapes, mesh distance fields (Harada et al. 2007a
   section 3.3) and height fields (Kipfer et al. 2004 section 4.6). Colliders sit in the solver's
   uniform block (three vec4 each, see gp_solver.glsl); mesh distance fields and height fields' heights one after another in
   w->colliders.fields (the FIELDS role), then the wind's grid (>>effects), rebuilt from the host
   copies on each change of either. */

static gp__collider* gp__find_collider(gp_world* w, gp_collider collider) {
    uint32_t i;
    for (i = 0; i < w->colliders.count; ++i)
        if (collider.id != 0 && w->colliders.list[i].id == collider.id) return &w->colliders.list[i];
    return NULL;
}

/* Writes every collider into the uniform block and every field into w->fields. */
static gp_result gp__colliders_upload(gp_world* w) {
    size_t total = 0, offset = 0;
    uint32_t i;
    int k;
    gp_result r = GP_OK;
    for (i = 0; i < w->colliders.count; ++i) {
        const gp__collider* c = &w->colliders.list[i];
        if (c->field_samples) total += (size_t)c->field_dims[0] * c->field_dims[1] * c->field_dims[2];
    }
    total += 3 * w->effects.wind_nodes;   /* the wind's grid (>>effects) after the colliders' fields */
    gp__buffer_delete(w, &w->colliders.fields);
    if ((r = gp__buffer_new(w, total ? total * 4 : 4, NULL, "the distance fields", &w->colliders.fields)) != GP_OK) return r;
    for (i = 0; i < w->colliders.count; ++i) {
        const gp__collider* c = &w->colliders.list[i];
        const gp_collider_desc* d = &c->desc;
        float* g = w->solver_host.colliders[i];
        uint32_t first = (uint32_t)offset;
        memset(g, 0, 12 * sizeof(float));
        g[3] = (float)d->shape;
        g[8] = d->inside && d->shape != GP_SHAPE_PLANE ? -1.0f : 1.0f;
        switch (d->shape) {
        case GP_SHAPE_SPHERE: memcpy(g, d->center, 12); g[7] = d->radius; break;
        case GP_SHAPE_BOX: memcpy(g, d->center, 12); memcpy(g + 4, d->half_extents, 12); break;
        case GP_SHAPE_CAPSULE:   /* the segment's two ends */
            for (k = 0; k < 3; ++k) {
                g[k] = d->center[k] - d->half_height * d->axis[k];
                g[4 + k] = d->center[k] + d->half_height * d->axis[k];
            }
            g[7] = d->radius;
            break;
        case GP_SHAPE_PLANE: memcpy(g, d->center, 12); memcpy(g + 4, d->normal, 12); break;
        case GP_SHAPE_HEIGHTFIELD:   /* the first point (x, base, z); samples along x, z; dx, dz */
            memcpy(g, c->field_origin, 12);
            g[4] = (float)c->field_dims[0]; g[5] = (float)c->field_dims[1];
            g[6] = 2.0f * d->half_extents[0] / (float)(c->field_dims[0] - 1);
            g[7] = 2.0f * d->half_extents[2] / (float)(c->field_dims[1] - 1);
            memcpy(&g[9], &first, 4);
            gp__buffer_upload(w, w->colliders.fields, offset * 4, (size_t)c->field_dims[0] * c->field_dims[1] * 4, c->field_samples);
            offset += (size_t)c->field_dims[0] * c->field_dims[1];
            break;
        default: {
            size_t n = (size_t)c->field_dims[0] * c->field_dims[1] * c->field_dims[2];
            memcpy(g, c->field_origin, 12);
            g[4] = (float)c->field_dims[0]; g[5] = (float)c->field_dims[1]; g[6] = (float)c->field_dims[2];
            g[7] = c->field_voxel;
            memcpy(&g[9], &first, 4);   /* the first sample's index, as float bits */
            gp__buffer_upload(w, w->colliders.fields, offset * 4, n * 4, c->field_samples);
            offset += n;
        }
        }
    }
    if (w->effects.wind_nodes) {   /* its first float's index, as float bits */
        uint32_t first = (uint32_t)offset;
        memcpy(&w->solver_host.wind[4][3], &first, 4);
        gp__buffer_upload(w, w->colliders.fields, offset * 4, 3 * w->effects.wind_nodes * 4, w->effects.wind_grid);
    }
    w->solver_host.counts[0] = w->colliders.count;
    gp__solver_upload(w);
    return r;
}

/* The largest smoothing radius among the materials: a field's margin. */
static float gp__largest_smoothing_radius(const gp_world* w) {
    float re = 0.0f;
    int i;
    for (i = 0; i < GP_MAX_FLUID_MATERIALS; ++i) if (w->fluid.materials[i].smoothing_radius > re) re = w->fluid.materials[i].smoothing_radius;
    return re;
}

/* Normalises v in place; a zero v fails naming it, unless fallback (then v becomes it). */
static gp_result gp__check_direction(gp_world* w, const char* what, float v[3], const float* fallback) {
    gp_result r;
    float len;
    if ((r = gp__check_vector(w, what, v)) != GP_OK) return r;
    len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0.0f) && fallback) { memcpy(v, fallback, 3 * sizeof *v); return GP_OK; }
    if (!(len > 0.0f) || !isfinite(len)) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                                         "%s is zero", what);
    v[0] /= len; v[1] /= len; v[2] /= len;
    return GP_OK;
}

static gp_result gp__collider_check(gp_world* w, gp_collider_desc* d) {
    static const float up[3] = {0.0f, 1.0f, 0.0f};
    gp_result r;
    if ((r = gp__check_vector(w, "center", d->center)) != GP_OK) return r;
    switch (d->shape) {
    case GP_SHAPE_SPHERE:
    case GP_SHAPE_CAPSULE:
    case GP_SHAPE_BOX:
        if ((r = gp__check_size(w, d->shape, d->radius, d->half_extents, d->half_height)) != GP_OK) return r;
        return d->shape == GP_SHAPE_CAPSULE ? gp__check_direction(w, "axis", d->axis, up) : GP_OK;
    case GP_SHAPE_PLANE:
        return gp__check_direction(w, "normal", d->normal, NULL);
    case GP_SHAPE_MESH:
        return GP_OK;   /* checked while its field is built */
    case GP_SHAPE_HEIGHTFIELD:
        if (!d->heights || d->samples[0] < 2 || d->samples[1] < 2 || (double)d->samples[0] * d->samples[1] > (double)(1u << 24))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "a height field needs heights (%s) on at least 2 x 2 and at most 16,777,216 points, not %u x %u",
                            d->heights ? "given" : "NULL", d->samples[0], d->samples[1]);
        if (!(d->half_extents[0] > 0.0f) || !(d->half_extents[2] > 0.0f) || !isfinite(d->half_extents[0]) || !isfinite(d->half_extents[2]))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "a height field's rectangle (half extents %g along x, %g along z) must be positive and finite",
                            (double)d->half_extents[0], (double)d->half_extents[2]);
        return gp__check_values(w, "height", d->heights, d->samples[0] * d->samples[1], 1, 1, false);
    default:
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE, "shape %d is not a gp_shape", (int)d->shape);
    }
}

gp_result gp_collider_add(gp_world* world, const gp_collider_desc* desc, gp_collider* collider) {
    gp__collider c;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_collider_add");
    world->step.moved = true;   /* the contact passes' last look (step_clock's look-ahead) is out of date */
    if (!desc || !collider) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                           "%s is NULL", desc ? "collider" : "desc"));
    collider->id = 0;
    if (world->colliders.count == GP_MAX_COLLIDERS)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_TABLE_FULL,
                                       "there are already %d colliders", GP_MAX_COLLIDERS));
    memset(&c, 0, sizeof c);
    c.desc = *desc;
    if ((r = gp__collider_check(world, &c.desc)) != GP_OK) return gp__end(world, r);
    if (c.desc.shape == GP_SHAPE_MESH) {
        gp__mesh_field field;
        char why[256];
        float voxel = c.desc.voxel == 0.0f ? 0.5f * world->desc.grid.cell_size : c.desc.voxel;
        if (!(voxel > 0.0f) || !isfinite(voxel))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                           "voxel %g must be positive and finite", (double)voxel));
        if (gp__mesh_field_build(c.desc.vertices, c.desc.vertex_count, c.desc.triangles, c.desc.triangle_count, voxel,
                                 gp__largest_smoothing_radius(world) + 2.0f * voxel, 1u << 24, world->desc.allocator.alloc,
                                 world->desc.allocator.free, world->desc.allocator.user_data, &field, why) != 0)
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID, "%s", why));
        if ((r = gp__mesh_check_closed(world, c.desc.vertices, c.desc.triangles, c.desc.triangle_count)) != GP_OK) {
            gp__free(&world->desc.allocator, field.samples);
            return gp__end(world, r);
        }
        memcpy(c.field_origin, field.origin, sizeof c.field_origin);
        c.field_voxel = field.voxel;
        memcpy(c.field_dims, field.dims, sizeof c.field_dims);
        c.field_samples = field.samples;
    } else if (c.desc.shape == GP_SHAPE_HEIGHTFIELD) {   /* a copy of the heights, the first point */
        size_t n = (size_t)c.desc.samples[0] * c.desc.samples[1];
        if (!(c.field_samples = (float*)gp__alloc(&world->desc.allocator, n * sizeof(float))))
            return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                           "no host memory for %u x %u heights", c.desc.samples[0], c.desc.samples[1]));
        memcpy(c.field_samples, c.desc.heights, n * sizeof(float));
        c.field_origin[0] = c.desc.center[0] - c.desc.half_extents[0];
        c.field_origin[1] = c.desc.center[1];
        c.field_origin[2] = c.desc.center[2] - c.desc.half_extents[2];
        c.field_dims[0] = c.desc.samples[0]; c.field_dims[1] = c.desc.samples[1]; c.field_dims[2] = 1;
    }
    c.desc.vertices = NULL;
    c.desc.triangles = NULL;
    c.desc.heights = NULL;
    c.id = ++world->colliders.next_id;
    world->colliders.list[world->colliders.count++] = c;
    if ((r = gp__colliders_upload(world)) != GP_OK) {
        gp__free(&world->desc.allocator, c.field_samples);
        world->colliders.count--;
        gp__colliders_upload(world);
        return gp__end(world, r);
    }
    collider->id = c.id;
    return gp__end(world, GP_OK);
}

gp_result gp_heightfield_add(gp_world* world, const float* heights, uint32_t samples_x, uint32_t samples_z,
                             float min_x, float max_x, float min_z, float max_z, float base_y, gp_collider* collider) {
    gp_collider_desc d;
    memset(&d, 0, sizeof d);
    d.shape = GP_SHAPE_HEIGHTFIELD;
    d.heights = heights;
    d.samples[0] = samples_x;
    d.samples[1] = samples_z;
    d.center[0] = 0.5f * (min_x + max_x);
    d.center[1] = base_y;
    d.center[2] = 0.5f * (min_z + max_z);
    d.half_extents[0] = 0.5f * (max_x - min_x);
    d.half_extents[2] = 0.5f * (max_z - min_z);
    return gp_collider_add(world, &d, collider);
}

gp_result gp_collider_remove(gp_world* world, gp_collider collider) {
    gp__collider* c;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_collider_remove");
    if (!(c = gp__find_collider(world, collider)))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                       "collider %u does not exist (removed, or never added)", collider.id));
    gp__free(&world->desc.allocator, c->field_samples);
    memmove(c, c + 1, (size_t)(world->colliders.list + world->colliders.count - (c + 1)) * sizeof *c);
    world->colliders.count--;
    return gp__end(world, gp__colliders_upload(world));
}

gp_result gp_boundary_distance_read(gp_world* world, const float* points, uint32_t count, float* distances) {
    float* staged;
    uint32_t i;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_boundary_distance_read");
    if (count == 0) return gp__end(world, GP_OK);
    if (!points || !distances) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                              "%s is NULL", points ? "distances" : "points"));
    if ((r = gp__check_values(world, "point", points, count, 3, 3, false)) != GP_OK) return gp__end(world, r);
    if ((r = gp__buffer_grow(world, &world->colliders.points, &world->colliders.points_bytes, (size_t)count * 16, 0, "the points")) != GP_OK ||
        (r = gp__buffer_grow(world, &world->colliders.distances, &world->colliders.distances_bytes, (size_t)count * 4, 0, "the distances")) != GP_OK)
        return gp__end(world, r);
    staged = (float*)gp__alloc(&world->desc.allocator, (size_t)count * 16);
    if (!staged) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                                "no host memory for %u points", count));
    for (i = 0; i < count; ++i) {
        memcpy(staged + 4 * i, points + 3 * i, 12);
        staged[4 * i + 3] = 0.0f;
    }
    gp__buffer_upload(world, world->colliders.points, 0, (size_t)count * 16, staged);
    gp__free(&world->desc.allocator, staged);
    gp__use(world, GP__PROGRAM_BOUNDARY_DISTANCE);
    world->gl.fnUniform1ui(0, count);
    gp__bind(world, GP__ROLE_POINTS, world->colliders.points);
    gp__bind(world, GP__ROLE_DISTANCES, world->colliders.distances);
    gp__dispatch(world, gp__groups(count, GP_GROUP_SIZE));
    gp__buffer_download(world, world->colliders.distances, 0, (size_t)count * 4, distances);
    return gp__end(world, GP_OK);
}

/* >>sph ====================================================================================
   Weakly compressible SPH (Harada et al. 2007a) on the shared grid. A substep (gp__fluid_density,
   gp__fluid_force, then gp__fluid_move):
     1. gp__grid_build: the store in cell order;
     2. sph_density: rho and p per particle of a summation material into the 8-byte spare
        (eqs. 4, 5, 10, 13); sph_continuity, when a material carries its density (fluid_state,
        reordered with the velocities), the same for its particles from the continuity equation;
        then, with solids about, section >>coupling's coupling_pressure gives each solid particle
        its pressure (in the same spare);
     3. sph_force: acceleration into the 16-byte spare (eqs. 6-9, the walls' pressure and
        viscosity, gravity, user forces);
     4. sph_integrate: symplectic or explicit Euler (eq. 14), then particles out of walls (eq. 11);
        the carried densities kept.
   The spares are free between builds (they only serve the reorder), so the fluid costs no
   memory beyond the store: 92 bytes per particle, plus 8 per grid bucket; the continuity model
   (the default's) adds 8 per particle (fluid_state, made when a material first uses the model:
   with the world, for the default).
   Materials live in the solver's uniform block with their wall tables (eq. 13 and the walls'
   pressure), computed here once per material: wall particles on the lattice's continuation
   behind a plane wall. */

static double gp__poly6(double re, double r2) {
    double x = re * re - r2;
    return x > 0.0 ? 315.0 / (64.0 * GP__PI * pow(re, 9.0)) * x * x * x : 0.0;
}
static double gp__viscosity_laplacian(double re, double r) {
    return r < re ? 45.0 / (GP__PI * pow(re, 6.0)) * (re - r) : 0.0;
}

/* The sum of the poly6 kernel over the cubic lattice of spacing l0 around a lattice point,
   itself included: the density of a particle inside a block, per unit mass. */
static double gp__lattice_weight(double l0, double re) {
    int n = (int)ceil(re / l0), a, b, c;
    double sum = 0.0;
    for (a = -n; a <= n; ++a)
        for (b = -n; b <= n; ++b)
            for (c = -n; c <= n; ++c) sum += gp__poly6(re, (double)(a * a + b * b + c * c) * l0 * l0);
    return sum;
}

/* How much of a unit pressure gradient the spiky kernel's sum recovers on the rest lattice:
   sum_j V (y_j)^2 |grad W(r_j)| / r_j for a field p = y, V = m / rho0. Few neighbours (26 at
   re = 2 l0) make it 0.95 rather than 1; the pressure force divides by it, as the mass is chosen
   so that the lattice's density is exact, so that a column at rest holds p = rho g depth. */
static double gp__lattice_gradient(double l0, double re, double volume) {
    int n = (int)ceil(re / l0), a, b, c;
    double sum = 0.0;
    for (a = -n; a <= n; ++a)
        for (b = -n; b <= n; ++b)
            for (c = -n; c <= n; ++c) {
                double r = sqrt((double)(a * a + b * b + c * c)) * l0;
                if (r > 0.0 && r < re) sum += volume * 45.0 / (GP__PI * pow(re, 6.0)) * (re - r) * (re - r) * (b * l0) * (b * l0) / r;
            }
    return sum > 0.0 ? sum : 1.0;
}

gp_result gp_fluid_preset_material(gp_fluid_preset preset, float spacing, gp_fluid_material* material) {
    static const struct { float density, viscosity; } fluids[] = {
        {0.0f, 0.0f}, {1000.0f, 1.0e-6f}, {910.0f, 9.0e-5f}, {1420.0f, 7.0e-3f}, {2700.0f, 0.1f}};
    if (!material) {   /* no world to log to: the default logger's stderr, as for a NULL world */
        gp__log(NULL, GP_LOG_ERROR, GP_LOG_ITEM_ARGUMENT_NULL, "gp_fluid_preset_material: material is NULL (GP_ERROR_INVALID_ARGUMENT)");
        return GP_ERROR_INVALID_ARGUMENT;
    }
    if ((int)preset < (int)GP_FLUID_PRESET_DEFAULT || (int)preset > (int)GP_FLUID_LAVA) {
        gp__log(NULL, GP_LOG_ERROR, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                "gp_fluid_preset_material: preset %d is not a gp_fluid_preset; nothing written (GP_ERROR_INVALID_ARGUMENT)", (int)preset);
        return GP_ERROR_INVALID_ARGUMENT;
    }
    memset(material, 0, sizeof *material);
    material->spacing = spacing;
    if (preset == GP_FLUID_PRESET_DEFAULT) return GP_OK;
    material->rest_density = fluids[preset].density;
    material->viscosity = fluids[preset].viscosity;
    material->density_model = GP_DENSITY_CONTINUITY;
    return GP_OK;
}

gp_fluid_material gp_query_fluid_material_defaults(const gp_world* world, const gp_fluid_material* material) {
    gp_fluid_material m;
    float cell = world ? world->desc.grid.cell_size : 0.1f;
    if (material) m = *material;
    else memset(&m, 0, sizeof m);
    if (m.spacing == 0.0f) m.spacing = 0.5f * cell;
    if (m.smoothing_radius == 0.0f) m.smoothing_radius = 2.0f * m.spacing;
    if (m.rest_density == 0.0f) m.rest_density = 1000.0f;
    if (m.stiffness == 0.0f) m.stiffness = 1000.0f;
    if (m.viscosity == 0.0f) m.viscosity = 1.0e-6f;
    if (m.density_model == GP_DENSITY_DEFAULT) m.density_model = GP_DENSITY_CONTINUITY;
    if (m.diffusion == 0.0f) m.diffusion = 0.1f;
    m.mass = 0.0f;
    if (m.spacing > 0.0f && m.smoothing_radius >= m.spacing && isfinite(m.spacing) && isfinite(m.smoothing_radius) &&
        m.smoothing_radius < 64.0f * m.spacing)
        m.mass = (float)((double)m.rest_density / gp__lattice_weight(m.spacing, m.smoothing_radius));
    return m;
}

/* The wall weight tables' sample spacing: l0 / 2j for the largest whole j that lets 32 samples
   reach re, so that l0 / 2, where the walls' push leaves a particle and where a block's outer
   particles start, is a sample and is read without interpolation error (linear interpolation at
   re / 31 is 0.1% off there, 200 Pa of the default material); re / 31 when re > 15.5 l0. */
static double gp__wall_table_spacing(double l0, double re) {
    double j = floor((GP__WALL_SAMPLES - 1) * l0 / (2.0 * re));
    return j >= 1.0 ? l0 / (2.0 * j) : re / (GP__WALL_SAMPLES - 1);
}

/* The material's block in the solver's uniform buffer: constants, kernel coefficients and the
   wall weight tables of eq. 13 (wall points at (a l0, b l0, -(c + 1/2) l0) behind a wall at z = 0,
   the particle at height d over the lattice point (0, 0)). */
static void gp__fluid_params_fill(gp__fluid_params* f, const gp_fluid_material* m) {
    double l0 = m->spacing, re = m->smoothing_radius, spacing = gp__wall_table_spacing(l0, re);
    int n = (int)ceil(re / l0) + 1, k, a, b, c;
    f->shape[0] = m->spacing; f->shape[1] = m->smoothing_radius; f->shape[2] = m->rest_density; f->shape[3] = m->stiffness;
    f->flow[0] = m->viscosity; f->flow[1] = m->rest_pressure; f->flow[2] = m->mass; f->flow[3] = m->allow_tension ? 1.0f : 0.0f;
    f->kernel[0] = (float)(315.0 / (64.0 * GP__PI * pow(re, 9.0)));
    f->kernel[1] = (float)(45.0 / (GP__PI * pow(re, 6.0)) / gp__lattice_gradient(l0, re, m->mass / m->rest_density));
    f->kernel[2] = (float)(45.0 / (GP__PI * pow(re, 6.0)));
    f->kernel[3] = (float)(re * re);
    f->table[0] = (float)spacing;
    f->table[1] = m->density_model == GP_DENSITY_CONTINUITY ? 1.0f : 0.0f;
    f->table[2] = m->diffusion;
    f->table[3] = m->artificial_viscosity;
    for (k = 0; k < GP__WALL_SAMPLES; ++k) {
        double d = spacing * k, density = 0.0, viscosity = 0.0, gradient = 0.0, normal = 0.0, tangent = 0.0;
        for (c = 0; c <= n; ++c)
            for (a = -n; a <= n; ++a)
                for (b = -n; b <= n; ++b) {
                    double z = d + (c + 0.5) * l0, r2 = (a * a + b * b) * l0 * l0 + z * z, r = sqrt(r2);
                    double K = r < re ? (double)f->kernel[1] * (re - r) * (re - r) / r : 0.0;   /* |grad W_press| / r */
                    density += gp__poly6(re, r2);
                    viscosity += gp__viscosity_laplacian(re, r);
                    gradient += K * z;
                    normal += K * z * z;
                    tangent += K * (a * l0) * (a * l0);
                }
        f->wall_density[k] = (float)(m->mass * density);
        f->wall_viscosity[k] = (float)(m->mass / m->rest_density * viscosity);
        f->wall_gradient[k] = (float)(m->mass / m->rest_density * gradient);
        f->wall_normal[k] = (float)(m->mass / m->rest_density * normal);
        f->wall_tangent[k] = (float)(m->mass / m->rest_density * tangent);
    }
}

static gp_result gp__fluid_material_check(gp_world* w, uint32_t phase, const gp_fluid_material* m) {
    float cell = w->desc.grid.cell_size;
    if (phase >= GP_MAX_FLUID_MATERIALS)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "phase %u: there are %d fluid materials", phase, GP_MAX_FLUID_MATERIALS);
    if (!(m->spacing > 0.0f) || !isfinite(m->spacing))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "spacing %g must be positive and finite", (double)m->spacing);
    if (!(m->smoothing_radius >= m->spacing) || !(m->smoothing_radius < 64.0f * m->spacing))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "smoothing radius %g must be 1 to 64 spacings (%g)",
                        (double)m->smoothing_radius, (double)m->spacing);
    if (m->smoothing_radius > cell * 1.000001f)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_CELL_TOO_SMALL,
                        "smoothing radius %g exceeds the grid's cell size %g: neighbours would "
                        "be missed; make grid.cell_size at least the smoothing radius", (double)m->smoothing_radius, (double)cell);
    if (!(m->rest_density > 0.0f) || !isfinite(m->rest_density))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "rest density %g must be positive and finite", (double)m->rest_density);
    if (!(m->stiffness > 0.0f) || !isfinite(m->stiffness))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "stiffness %g must be positive and finite", (double)m->stiffness);
    if (!(m->viscosity >= 0.0f) || !isfinite(m->viscosity))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "viscosity %g must be 0 or positive, and finite", (double)m->viscosity);
    if (!isfinite(m->rest_pressure))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                        "rest pressure %g is not finite", (double)m->rest_pressure);
    if (m->density_model != GP_DENSITY_SUMMATION && m->density_model != GP_DENSITY_CONTINUITY)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                        "density model %d is not a gp_density_model", (int)m->density_model);
    if (!(m->artificial_viscosity >= 0.0f) || !(m->artificial_viscosity <= 1.0f))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "artificial viscosity %g must be 0 to 1", (double)m->artificial_viscosity);
    if (!(m->diffusion > 0.0f) || !(m->diffusion <= 1.0f))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "diffusion %g must be above 0 and at most 1", (double)m->diffusion);
    if (!(m->mass > 0.0f) || !isfinite(m->mass))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "the derived mass %g is not positive and finite", (double)m->mass);
    return GP_OK;
}


/* The continuity model's carried densities (8 bytes per particle of the store), made once, when a
   material first uses the model (at gp_world_create when the default material does), zero: the
   rest density. */
static gp_result gp__fluid_state_ensure(gp_world* w) {
    gp_result r;
    if (w->fluid.state) return GP_OK;
    if ((r = gp__buffer_new(w, (size_t)w->capacity * 8, NULL, "the fluid's density state", &w->fluid.state)) != GP_OK) return r;
    gp__buffer_zero(w, w->fluid.state, 0, (size_t)w->capacity * 8);
    return GP_OK;
}

gp_result gp_fluid_material_set(gp_world* world, uint32_t phase, const gp_fluid_material* material) {
    gp_fluid_material m;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_material_set");
    if (!material) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                  "material is NULL"));
    m = gp_query_fluid_material_defaults(world, material);
    if ((r = gp__fluid_material_check(world, phase, &m)) != GP_OK) return gp__end(world, r);
    if (m.density_model == GP_DENSITY_CONTINUITY && (r = gp__fluid_state_ensure(world)) != GP_OK) return gp__end(world, r);
    world->fluid.materials[phase] = m;
    if (material->stiffness == 0.0f) world->fluid.stiffness_auto |= 1u << phase;
    else world->fluid.stiffness_auto &= ~(1u << phase);
    gp__fluid_params_fill(&world->solver_host.fluids[phase], &m);
    {   /* the force pass visits a neighbour's material only when some material has artificial viscosity */
        uint32_t k, any = 0;
        for (k = 0; k < GP_MAX_FLUID_MATERIALS; ++k) any |= world->fluid.materials[k].artificial_viscosity > 0.0f;
        world->solver_host.counts[2] = (world->solver_host.counts[2] & GP__INTEGRATOR_MASK) | (any ? GP__FLAG_ARTIFICIAL_VISCOSITY : 0u);
    }
    gp__solver_upload(world);
    return gp__end(world, GP_OK);
}

gp_result gp_fluid_material_get(gp_world* world, uint32_t phase, gp_fluid_material* material) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_material_get");
    if (!material) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                  "material is NULL"));
    if (phase >= GP_MAX_FLUID_MATERIALS)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                                       "phase %u: there are %d fluid materials", phase, GP_MAX_FLUID_MATERIALS));
    *material = world->fluid.materials[phase];
    return gp__end(world, GP_OK);
}

/* The height of point p along -g (|g| = gg > 0), as a column's depth is measured. */
static double gp__height_up(const float* g, double gg, const float* p) {
    return -((double)p[0] * g[0] + (double)p[1] * g[1] + (double)p[2] * g[2]) / gg;
}

/* The carried densities of n fluid particles of material m at rest under gravity g, as a column
   whose free surface is half a spacing above its highest particle: rho0 + rho0 |g| depth / k
   (eq. 5's p = k (rho - rho0) then rho0 |g| depth). NULL (the rest density) without gravity, for
   the summation model, where a density would not be a float, or when no host memory is left.
   With densities, *squeezed receives the particles' positions moved down along g to where that
   column at rest has them (NULL, the lattice's own, when no host memory is left): the height h0
   of a particle over the column's floor (half a spacing under its lowest particle) becomes
   h = ln((1 + a H) / (1 + a (H - h0))) / a, the integral of rho0 / rho over it, a = |g| / k, H the
   column's height (its floor to half a spacing over its highest particle): the squeeze of its
   own weight (0.44 mm at the top of 0.3 m of water at a stiffness of 1,000). The positions'
   summation density is then the carried one, which sph_continuity's relaxation draws it towards
   where a particle's kernel is whole: without the squeeze a block's column lost its pressure to
   it and sank into its own compression (3.3% of the floor's pressure in 0.25 s). */
static float* gp__fluid_at_rest(gp_world* w, const gp_fluid_material* m, const float* xyz, uint32_t n, float** squeezed) {
    const float* g = w->solver_host.gravity;
    double gg = sqrt((double)g[0] * g[0] + (double)g[1] * g[1] + (double)g[2] * g[2]), top = -INFINITY, bottom = INFINITY, up;
    double a, height;
    float *rho, *out;
    uint32_t i;
    int c;
    *squeezed = NULL;
    if (m->density_model != GP_DENSITY_CONTINUITY || !(gg > 0.0) || !isfinite(gg) || n == 0) return NULL;
    if (!(rho = (float*)gp__alloc(&w->desc.allocator, (size_t)n * sizeof(float)))) return NULL;
    for (i = 0; i < n; ++i) {
        up = gp__height_up(g, gg, xyz + 3 * i);
        if (up > top) top = up;
        if (up < bottom) bottom = up;
    }
    top += 0.5 * m->spacing;
    for (i = 0; i < n; ++i) {
        double at_rest;
        up = gp__height_up(g, gg, xyz + 3 * i);
        at_rest = m->rest_density * (1.0 + gg * (top - up) / m->stiffness);
        if (!(at_rest < 3.4e38)) {   /* a gravity or a column beyond a float's density: the rest density */
            gp__free(&w->desc.allocator, rho);
            return NULL;
        }
        rho[i] = (float)at_rest;
    }
    if (!(out = (float*)gp__alloc(&w->desc.allocator, (size_t)n * 3 * sizeof(float)))) return rho;
    a = gg / m->stiffness;
    height = top - bottom + 0.5 * m->spacing;
    for (i = 0; i < n; ++i) {
        double h0 = gp__height_up(g, gg, xyz + 3 * i) - bottom + 0.5 * m->spacing;
        double h = (log1p(a * height) - log1p(a * (height - h0))) / a;   /* log1p: exact for a faint gravity too */
        for (c = 0; c < 3; ++c) out[3 * i + c] = (float)((double)xyz[3 * i + c] + (h0 - h) * g[c] / gg);
    }
    *squeezed = out;
    return rho;
}

/* The default stiffness follows the scene's depth. A material whose stiffness was left at 0 takes
   the first block or ball of it as the fluid its sound must suit: k = 400 |g| H for a column H
   deep (its particles' span along gravity plus a spacing), when that is above the default 1000:
   sound ten times the ideal front 2 sqrt(g H) of such a column's dam break, as weak
   compressibility needs (Monaghan 1994; DualSPHysics, Crespo et al. 2015, likewise takes its
   speed of sound from the fluid's depth). A 1 m column gets 3,924 (63 m/s): the dam_break example's squeezed by 8.8% at
   most where it hit the far wall with 1000, by 3.5% with it (at 1.7 times the substeps). A later block deeper than the stiffness suits leaves it as it is (the particles already
   there carry densities of that stiffness) and says so. */
static void gp__fluid_stiffness_for(gp_world* w, uint32_t phase, const float* xyz, uint32_t n) {
    gp_fluid_material* m = &w->fluid.materials[phase];
    const float* g = w->solver_host.gravity;
    double gg = sqrt((double)g[0] * g[0] + (double)g[1] * g[1] + (double)g[2] * g[2]), top = -INFINITY, bottom = INFINITY, up, depth, k;
    uint32_t i;
    if (!(w->fluid.stiffness_auto & (1u << phase)) || !(gg > 0.0) || !isfinite(gg) || n == 0) return;
    for (i = 0; i < n; ++i) {
        up = gp__height_up(g, gg, xyz + 3 * i);
        top = up > top ? up : top;
        bottom = up < bottom ? up : bottom;
    }
    depth = top - bottom + m->spacing;
    k = 400.0 * gg * depth;
    if (!(k > m->stiffness) || !(k < 3.4e38)) return;
    if (w->fluid.phases & (1u << phase)) {
        GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_FLUID_TOO_DEEP,
                "%s: this fluid is %.3g m deep, and phase %u's default stiffness %g, set by the fluid added before, suits "
                "%.3g m: it will squeeze where it hits a wall; set gp_fluid_material.stiffness to about 400 |g| H = %.3g "
                "before adding any", w->call, depth, phase, (double)m->stiffness, m->stiffness / (400.0 * gg), k);
        return;
    }
    m->stiffness = (float)k;
    gp__fluid_params_fill(&w->solver_host.fluids[phase], m);
    gp__solver_upload(w);
}

/* Adds n fluid particles of phase at xyz (n * 3 floats), all with velocity (may be NULL). */
static gp_result gp__fluid_add(gp_world* w, uint32_t phase, const float* xyz, uint32_t n, const float* velocity) {
    gp_particles_desc d;
    float *velocities = NULL, *rho, *squeezed;
    gp_result r;
    uint32_t i;
    if (velocity && n) {
        velocities = (float*)gp__alloc(&w->desc.allocator, (size_t)n * 3 * sizeof(float));
        if (!velocities) return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                         "no host memory to stage %u particles", n);
        for (i = 0; i < 3 * n; ++i) velocities[i] = velocity[i % 3];
    }
    gp__fluid_stiffness_for(w, phase, xyz, n);
    rho = gp__fluid_at_rest(w, &w->fluid.materials[phase], xyz, n, &squeezed);
    memset(&d, 0, sizeof d);
    d.count = n;
    d.positions = squeezed ? squeezed : xyz;
    d.velocities = velocities;
    d.radius = 0.5f * w->fluid.materials[phase].spacing;
    d.mass = w->fluid.materials[phase].mass;
    d.kind = GP_KIND_FLUID;
    d.phase = phase;
    r = gp__particles_append(w, &d, rho, NULL);
    gp__free(&w->desc.allocator, velocities);
    gp__free(&w->desc.allocator, rho);
    gp__free(&w->desc.allocator, squeezed);
    return r;
}


/* The lattice points of a block or ball: min + (i + 1/2) l0 inside [min, max], and inside the
   ball when radius > 0. Counts first (xyz NULL), then fills. */
static uint64_t gp__lattice(const float min[3], const float max[3], float l0, const float* center, float radius, float* xyz) {
    uint64_t n[3], i, j, k, count = 0;
    double span[3], box = 1.0;
    int a;
    for (a = 0; a < 3; ++a) {   /* in double: a span of +-3e38 overflows a float */
        span[a] = max[a] > min[a] ? floor(((double)max[a] - (double)min[a]) / l0 + 1e-4) : 0.0;
        box *= span[a];
    }
    if (!(box <= 4294967296.0)) {   /* more than any store holds: counted, not visited (a ball as its share pi / 6 of its box) */
        double c = center ? 0.52359878 * box : box;
        return c < 1.8e19 ? (uint64_t)c : UINT64_MAX;
    }
    for (a = 0; a < 3; ++a) n[a] = (uint64_t)span[a];
    for (k = 0; k < n[2]; ++k)
        for (j = 0; j < n[1]; ++j)
            for (i = 0; i < n[0]; ++i) {
                float p[3];
                p[0] = min[0] + ((float)i + 0.5f) * l0;
                p[1] = min[1] + ((float)j + 0.5f) * l0;
                p[2] = min[2] + ((float)k + 0.5f) * l0;
                if (center) {
                    float dx = p[0] - center[0], dy = p[1] - center[1], dz = p[2] - center[2];
                    if (dx * dx + dy * dy + dz * dz > radius * radius) continue;
                }
                if (xyz) memcpy(xyz + 3 * count, p, sizeof p);
                ++count;
            }
    return count;
}

/* Shared by gp_fluid_add_block and gp_fluid_add_ball. */
static gp_result gp__fluid_add_lattice(gp_world* w, uint32_t phase, const float min[3], const float max[3],
                                       const float* center, float radius, const float velocity[3], uint32_t* added) {
    float l0;
    uint64_t n;
    float* xyz;
    gp_result r;
    if (added) *added = 0;
    if (phase >= GP_MAX_FLUID_MATERIALS)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "phase %u: there are %d fluid materials", phase, GP_MAX_FLUID_MATERIALS);
    if (velocity && (r = gp__check_vector(w, "velocity", velocity)) != GP_OK) return r;
    l0 = w->fluid.materials[phase].spacing;
    n = gp__lattice(min, max, l0, center, radius, NULL);
    if ((r = gp__store_room(w, n, "particles")) != GP_OK) return r;
    if (n == 0) return GP_OK;
    xyz = (float*)gp__alloc(&w->desc.allocator, (size_t)n * 3 * sizeof(float));
    if (!xyz) return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                              "no host memory to stage %llu particles", (unsigned long long)n);
    gp__lattice(min, max, l0, center, radius, xyz);
    r = gp__fluid_add(w, phase, xyz, (uint32_t)n, velocity);
    gp__free(&w->desc.allocator, xyz);
    if (r == GP_OK && added) *added = (uint32_t)n;
    return r;
}

gp_result gp_fluid_add_block(gp_world* world, uint32_t phase, const float min[3], const float max[3],
                             const float velocity[3], uint32_t* added) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_add_block");
    if ((r = gp__check_vector(world, "min", min)) != GP_OK || (r = gp__check_vector(world, "max", max)) != GP_OK)
        return gp__end(world, r);
    return gp__end(world, gp__fluid_add_lattice(world, phase, min, max, NULL, 0.0f, velocity, added));
}

gp_result gp_fluid_add_ball(gp_world* world, uint32_t phase, const float center[3], float radius,
                            const float velocity[3], uint32_t* added) {
    float min[3], max[3];
    gp_result r;
    int a;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_add_ball");
    if ((r = gp__check_vector(world, "center", center)) != GP_OK) return gp__end(world, r);
    if (!(radius >= 0.0f) || !isfinite(radius))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "radius %g must be 0 or positive, and finite", (double)radius));
    for (a = 0; a < 3; ++a) { min[a] = center[a] - radius; max[a] = center[a] + radius; }
    return gp__end(world, gp__fluid_add_lattice(world, phase, min, max, center, radius, velocity, added));
}


uint64_t gp_lattice_block_count(float spacing, const float min[3], const float max[3]) {
    if (!(spacing > 0.0f) || !isfinite(spacing) || !gp__finite3(min) || !gp__finite3(max)) return 0;
    return gp__lattice(min, max, spacing, NULL, 0.0f, NULL);
}

uint64_t gp_lattice_ball_count(float spacing, const float center[3], float radius) {
    float min[3], max[3];
    int a;
    if (!(spacing > 0.0f) || !isfinite(spacing) || !gp__finite3(center) || !(radius >= 0.0f) || !isfinite(radius)) return 0;
    for (a = 0; a < 3; ++a) { min[a] = center[a] - radius; max[a] = center[a] + radius; }
    return gp__lattice(min, max, spacing, center, radius, NULL);
}

/* ---- pours ---- */

static gp__pour* gp__find_pour(gp_world* w, gp_pour pour) {
    uint32_t i;
    for (i = 0; i < w->fluid.pour_count; ++i)
        if (pour.id != 0 && w->fluid.pours[i].id == pour.id) return &w->fluid.pours[i];
    return NULL;
}

gp_result gp_pour_add(gp_world* world, const gp_pour_desc* desc, gp_pour* pour) {
    gp__pour* p;
    gp_pour_desc d;
    gp_result r;
    float len;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_pour_add");
    if (!desc || !pour) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                       "%s is NULL", desc ? "pour" : "desc"));
    pour->id = 0;
    d = *desc;
    if (d.direction[0] == 0.0f && d.direction[1] == 0.0f && d.direction[2] == 0.0f) d.direction[1] = -1.0f;
    if (d.speed == 0.0f) d.speed = 1.0f;
    if (d.phase >= GP_MAX_FLUID_MATERIALS)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                                       "phase %u: there are %d fluid materials", d.phase, GP_MAX_FLUID_MATERIALS));
    if ((r = gp__check_vector(world, "position", d.position)) != GP_OK || (r = gp__check_vector(world, "direction", d.direction)) != GP_OK)
        return gp__end(world, r);
    if (!(d.rate > 0.0f) || !isfinite(d.rate) || !(d.speed > 0.0f) || !isfinite(d.speed))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "rate %g (particles/s) and speed %g (m/s) must be positive and finite",
                                       (double)d.rate, (double)d.speed));
    if (world->fluid.pour_count == GP__MAX_POURS)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_TABLE_FULL,
                                       "there are already %d pours", GP__MAX_POURS));
    p = &world->fluid.pours[world->fluid.pour_count];
    memset(p, 0, sizeof *p);
    len = sqrtf(d.direction[0] * d.direction[0] + d.direction[1] * d.direction[1] + d.direction[2] * d.direction[2]);
    d.direction[0] /= len; d.direction[1] /= len; d.direction[2] /= len;
    p->desc = d;
    p->id = ++world->fluid.next_pour_id;
    world->fluid.pour_count++;
    pour->id = p->id;
    return gp__end(world, GP_OK);
}

gp_result gp_pour_remove(gp_world* world, gp_pour pour) {
    gp__pour* p;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_pour_remove");
    if (!(p = gp__find_pour(world, pour)))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                       "pour %u does not exist (removed, or never added)", pour.id));
    *p = world->fluid.pours[--world->fluid.pour_count];
    return gp__end(world, GP_OK);
}

gp_result gp_pour_state_get(gp_world* world, gp_pour pour, gp_pour_state* state) {
    gp__pour* p;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_pour_state_get");
    if (!state) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "state is NULL"));
    if (!(p = gp__find_pour(world, pour)))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                       "pour %u does not exist (removed, or never added)", pour.id));
    *state = p->state;
    return gp__end(world, GP_OK);
}

/* Runs a pour for h seconds: each time the stream has moved a spacing, a layer of the lattice
   points of the nozzle's plane nearest its centre (as many as the rate owes), already moved
   on by the time since it was due: born on the GPU (gp__store_layer, the pass of GP_EMITTER_POUR). */
/* A stream's layers due in a substep are its clock / interval (the interval: its spacing over
   its speed). At most GP__LAYERS_PER_SUBSTEP are laid, each a dispatch: a speed of 1e30 m/s, or
   particles 1e-30 m wide, would owe 1e29 and hang the step. What is over is dropped from the
   clock, with a warning naming the stream (once: a substep's callback each would flood the log):
   its particles are never born, none is lost. */
#define GP__LAYERS_PER_SUBSTEP 64.0
static bool gp__layers_bound(gp_world* w, double* clock, double interval, bool* warned, const char* what, uint32_t id) {
    if (!(interval > 0.0)) { *clock = 0.0; return false; }   /* no width at all: nothing to lay */
    if (!(*clock <= GP__LAYERS_PER_SUBSTEP * interval)) {
        if (!*warned) {
            GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_LAYERS_DROPPED,
                    "gp_world_step: %s %u owes %g layers in one substep (a layer every %g s); %g laid, the rest dropped "
                    "(said once): slow it, or widen its particles", what, id, *clock / interval, interval, GP__LAYERS_PER_SUBSTEP);
        }
        *warned = true;
        *clock = GP__LAYERS_PER_SUBSTEP * interval;
    }
    return true;
}

static gp_result gp__pour_run(gp_world* w, gp__pour* p, float h) {
    const gp_fluid_material* m = &w->fluid.materials[p->desc.phase];
    double interval = m->spacing / p->desc.speed;
    gp__layer l;
    memset(&l, 0, sizeof l);   /* a layer as a GP_EMITTER_POUR's, on the GPU (emitter_pour.comp) */
    memcpy(l.center, p->desc.position, sizeof l.center);
    memcpy(l.direction, p->desc.direction, sizeof l.direction);
    l.spacing = m->spacing; l.speed = p->desc.speed; l.radius = 0.5f * m->spacing; l.mass = m->mass;
    l.kind = (uint32_t)GP_KIND_FLUID | p->desc.phase << 16; l.owner = GP_NO_OWNER;
    p->clock += h;
    if (!gp__layers_bound(w, &p->clock, interval, &p->layers_dropped, "pour", p->id)) return GP_OK;
    while (p->clock >= interval && !p->state.full) {
        uint32_t room;
        p->clock -= interval;
        p->owed += p->desc.rate * interval;
        l.n = p->owed > 1024.0 ? 1024u : (uint32_t)p->owed;
        l.lead = (float)(p->clock * p->desc.speed);
        room = gp__store_free_slots(w, l.n);
        if (l.n > room) {   /* a pour stops at a full store: what fits, then no more */
            l.n = room;
            p->state.full = true;
            GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_POUR_STOPPED,
                    "gp_world_step: pour %u stopped: the store is full (%u particles)", p->id, w->capacity);
        }
        gp__store_layer(w, &l);
        p->state.emitted += l.n;
        p->owed -= l.n;
        if (l.n) {
            float speed = p->desc.speed;
            if (speed > w->step.added_speed) w->step.added_speed = speed;
            w->fluid.phases |= 1u << p->desc.phase;
        }
    }
    return GP_OK;
}

/* The fluid's emitters, the first stage of a substep (section >>step): every pour's layers due. */
static gp_result gp__pours_run(gp_world* w, float h) {
    gp_result r = GP_OK;
    uint32_t i;
    for (i = 0; i < w->fluid.pour_count && r == GP_OK; ++i) r = gp__pour_run(w, &w->fluid.pours[i], h);
    return r;
}

/* ---- the substep ---- */

/* The fluid's stages of a substep, after the grid build (section >>step): gp__fluid_density and
   gp__fluid_force, then once every system's forces are in, gp__fluid_move. They run when there
   is fluid, or no grains either (so that gp_fluid_compute and the statistics see zeros). */
static bool gp__fluid_runs(const gp_world* w) { return w->fluid.phases || !w->dem.phases; }

/* The fluid's density (summation or continuity) and pressure, the solids as boundary particles
   (gp_coupling.glsl). */
static void gp__fluid_density(gp_world* w) {
    if (!gp__fluid_runs(w)) return;
    gp__stage_run(w, GP__STAGE_SPH_DENSITY, GP__PROGRAM_SPH_DENSITY);
    if (w->fluid.state)   /* some material has carried its density: its particles' pass */
        gp__stage_run(w, GP__STAGE_SPH_CONTINUITY, GP__PROGRAM_SPH_CONTINUITY);
}

/* The fluid's acceleration from those pressures, the solids pushing with theirs (section
   >>coupling's coupling_pressure, which runs between the two). */
static void gp__fluid_force(gp_world* w) {
    if (gp__fluid_runs(w)) gp__stage_run(w, GP__STAGE_SPH_FORCE, GP__PROGRAM_SPH_FORCE);
    w->fluid.valid = true;
    w->fluid.count = w->count;
}

/* The fluid's move by the accelerations of gp__fluid_force. */
static void gp__fluid_move(gp_world* w) {
    if (!gp__fluid_runs(w)) return;
    gp__stage_run(w, GP__STAGE_SPH_INTEGRATE, GP__PROGRAM_SPH_INTEGRATE);
}

/* What bounds the substep over the materials in use: the fastest sound, the smallest spacing (the
   CFL number is substep * (sound + fastest particle) / spacing) and the longest substep that
   explicit viscosity stays stable at, GP__VISCOUS_LIMIT re^2 / nu (the viscosity Laplacian sums
   to about 15 / re^2 over a full neighbourhood, the walls' share adds up to as much again, and an
   explicit step of a diffusion is stable below 2 / (nu * that sum)), and that the continuity
   model's density diffusion stays stable at (gp__lattice_spiky_sum). */
#define GP__VISCOUS_LIMIT 0.05f

/* sum_j V |grad W_press(r_j)| / r_j over the rest lattice (the spiky gradient normalised as the
   force pass has it): the continuity model's diffusion, delta re c0 times a Laplacian whose
   coefficients sum to 2 S, is an explicit diffusion whose fastest mode (density alternating
   between neighbours) doubles that: stable while substep < 2 / (delta re c0 4 S). */
static double gp__lattice_spiky_sum(const gp_fluid_material* m) {
    double l0 = m->spacing, re = m->smoothing_radius, volume = m->mass / m->rest_density, sum = 0.0;
    double coefficient = 45.0 / (GP__PI * pow(re, 6.0)) / gp__lattice_gradient(l0, re, volume);
    int n = (int)ceil(re / l0), a, b, c;
    for (a = -n; a <= n; ++a)
        for (b = -n; b <= n; ++b)
            for (c = -n; c <= n; ++c) {
                double r = sqrt((double)(a * a + b * b + c * c)) * l0;
                if (r > 0.0 && r < re) sum += volume * coefficient * (re - r) * (re - r) / r;
            }
    return sum;
}

/* What bounds a substep of the fluids and grains in the world: the largest speed of sound, the
   smallest spacing (a grain's diameter too) and the shortest viscous or diffusion limit. A world
   of no particle yet counts material 0's; effect particles bound nothing (their bounce is exact
   at any substep). */
static void gp__fluid_limits(const gp_world* w, float* sound, float* spacing, float* viscous) {
    int i;
    *sound = 0.0f;
    *spacing = 3.4e38f;
    *viscous = 3.4e38f;
    for (i = 0; i < GP_MAX_FLUID_MATERIALS; ++i) {
        const gp_fluid_material* m = &w->fluid.materials[i];
        if (!(w->fluid.phases & (1u << i)) && !(i == 0 && w->fluid.phases == 0 && w->dem.phases == 0 && !w->effects.any)) continue;
        if (sqrtf(m->stiffness) > *sound) *sound = sqrtf(m->stiffness);
        if (m->spacing < *spacing) *spacing = m->spacing;
        if (m->viscosity > 0.0f && GP__VISCOUS_LIMIT * m->smoothing_radius * m->smoothing_radius / m->viscosity < *viscous)
            *viscous = GP__VISCOUS_LIMIT * m->smoothing_radius * m->smoothing_radius / m->viscosity;
        if (m->density_model == GP_DENSITY_CONTINUITY) {   /* the diffusion's limit, 90% of it (the default's is above the CFL's) */
            double limit = 0.9 * 2.0 / (m->diffusion * m->smoothing_radius * sqrt(m->stiffness) * 4.0 * gp__lattice_spiky_sum(m));
            if (limit < *viscous) *viscous = (float)limit;
        }
    }
    for (i = 0; i < GP_MAX_GRANULAR_MATERIALS; ++i)   /* grains: a diameter is their spacing */
        if ((w->dem.phases & (1u << i)) && w->dem.materials[i].diameter < *spacing) *spacing = w->dem.materials[i].diameter;
}

gp_result gp_fluid_stats_read(gp_world* world, gp_fluid_stats* stats) {
    gp__stats words;
    float sound, spacing, viscous;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_stats_read");
    if (!stats) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "stats is NULL"));
    memset(stats, 0, sizeof *stats);
    gp__buffer_download(world, world->grid_stats, 0, sizeof words, &words);
    memcpy(&stats->max_speed, &words.max_speed, 4);
    memcpy(&stats->min_density, &words.min_density, 4);
    memcpy(&stats->max_density, &words.max_density, 4);
    if (stats->min_density > stats->max_density) stats->min_density = stats->max_density = 0.0f;   /* no fluid */
    stats->wall_pushes = words.wall_pushes;
    stats->nonfinite = words.bad_updates;
    stats->substeps = world->step.last_substeps;
    stats->substep = world->step.last_substep;
    gp__fluid_limits(world, &sound, &spacing, &viscous);
    stats->cfl = world->step.last_substep * (sound + stats->max_speed) / spacing;
    memcpy(&stats->lag, &words.clock_lag, 4);
    memcpy(&stats->cfl_reached, &words.clock_cfl, 4);
    return gp__end(world, GP_OK);
}

/* >>dem ====================================================================================
   Granular matter and rigid bodies made of particles (Harada 2007): materials, grains, shapes
   from voxelized meshes and primitives, bodies, and the DEM part of each substep
   (gp__dem_contacts and gp__dem_move, called by gp_world_step). The shaders: dem_contact (pairs), dem_walls, dem_integrate
   (shaders_embedded/; the contact model in gp_dem.glsl).
   The contact: Harada 2007's spring and dashpot along the normal (eqs. 10-11); across it
   Cundall and Strack 1979's shear spring, its stretch kept from substep to substep while the contact lasts,
   plus eq. 12's viscous shear as its dashpot, the two capped by Coulomb (GP_SHEAR_SPRING; the
   paper's viscous shear alone is GP_SHEAR_VISCOUS); a rolling torque for spinning particles
   (rolling_friction). Memory per particle of capacity: 32 (contact_slots + 1) bytes of kept
   contacts (416 at the default 12), made with the first substep that has grains or bodies. */

gp_granular_material gp_query_granular_material_defaults(const gp_world* world, const gp_granular_material* material) {
    gp_granular_material m;
    double mass, zeta;
    if (material) m = *material;
    else memset(&m, 0, sizeof m);
    if (m.diameter == 0.0f) m.diameter = world ? world->desc.grid.cell_size : 0.1f;
    if (m.density == 0.0f) m.density = 2500.0f;
    mass = (double)gp__grain_mass(m.density, 0.5f * m.diameter);
    if (m.stiffness == 0.0f) m.stiffness = (float)(200.0 * mass / ((double)m.diameter * m.diameter));
    /* restitution e of two equal grains: zeta = -ln e / sqrt(pi^2 + ln^2 e), eta = 2 zeta sqrt(m_eff k) */
    zeta = log(2.0) / sqrt(GP__PI * GP__PI + log(2.0) * log(2.0));
    if (m.damping == 0.0f) m.damping = (float)(2.0 * zeta * sqrt(0.5 * mass * (double)m.stiffness));
    if (m.shear == 0.0f) m.shear = m.damping;
    if (m.friction == 0.0f) m.friction = 0.3f;
    if (m.shear_model == GP_SHEAR_DEFAULT) m.shear_model = GP_SHEAR_SPRING;
    if (m.tangential_stiffness == 0.0f) m.tangential_stiffness = (float)(2.0 / 7.0 * m.stiffness);
    m.mass = (float)mass;
    return m;
}

static void gp__granular_params_fill(float* g, const gp_granular_material* m) {
    g[0] = m->stiffness; g[1] = m->damping; g[2] = m->shear; g[3] = m->friction;
    g[4] = m->diameter; g[5] = m->mass; g[6] = m->shear_model == GP_SHEAR_SPRING ? m->tangential_stiffness : 0.0f;
    g[7] = m->rolling_friction;
}

static gp_result gp__check_phase(gp_world* w, uint32_t phase) {
    if (phase >= GP_MAX_GRANULAR_MATERIALS)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                        "phase %u: there are %d granular materials", phase, GP_MAX_GRANULAR_MATERIALS);
    return GP_OK;
}

gp_result gp_granular_material_set(gp_world* world, uint32_t phase, const gp_granular_material* material) {
    gp_granular_material m;
    const float* f;
    static const char* const names[7] = {"diameter", "density", "stiffness", "damping", "shear", "friction", "tangential_stiffness"};
    int k;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_granular_material_set");
    world->step.moved = true;   /* the contact passes' last look (step_clock's look-ahead) is out of date */
    if ((r = gp__check_phase(world, phase)) != GP_OK) return gp__end(world, r);
    if (!material) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                  "material is NULL"));
    m = gp_query_granular_material_defaults(world, material);
    if (m.shear_model != GP_SHEAR_SPRING && m.shear_model != GP_SHEAR_VISCOUS)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                                       "shear_model %d is not a gp_shear_model", (int)m.shear_model));
    f = &m.diameter;
    for (k = 0; k < 7; ++k)
        if (!(f[k] > 0.0f) || !isfinite(f[k]))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                           "%s %g must be positive and finite (0 picks the default)",
                                           names[k], (double)f[k]));
    if (!(m.rolling_friction >= 0.0f) || !isfinite(m.rolling_friction))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "rolling_friction %g must be 0 or positive, and finite", (double)m.rolling_friction));
    if (m.diameter > world->desc.grid.cell_size)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_CELL_TOO_SMALL,
                                       "diameter %g m exceeds the grid's cell size %g m: contacts "
                                       "would be missed", (double)m.diameter, (double)world->desc.grid.cell_size));
    if (!(m.mass > 0.0f) || !isfinite(m.mass))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "diameter %g and density %g give mass %g kg: not a float",
                                       (double)m.diameter, (double)m.density, (double)m.mass));
    world->dem.materials[phase] = m;
    gp__granular_params_fill(world->solver_host.granular[phase], &m);
    gp__buffer_upload(world, world->solver, 0, sizeof world->solver_host, &world->solver_host);
    return gp__end(world, GP_OK);
}

gp_result gp_granular_material_get(gp_world* world, uint32_t phase, gp_granular_material* material) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_granular_material_get");
    if ((r = gp__check_phase(world, phase)) != GP_OK) return gp__end(world, r);
    if (!material) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                  "material is NULL"));
    *material = world->dem.materials[phase];
    return gp__end(world, GP_OK);
}

gp_result gp_dem_stats_read(gp_world* world, gp_dem_stats* stats) {
    gp__stats words;
    uint32_t n = world ? world->count : 0, i, stride;   /* the host's bound: slots past the GPU's count bear old stamps */
    uint32_t* heads;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_dem_stats_read");
    if (!stats) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "stats is NULL"));
    memset(stats, 0, sizeof *stats);
    stats->contact_slots = world->desc.contact_slots;
    gp__buffer_download(world, world->grid_stats, 0, sizeof words, &words);
    stats->contacts_unkept = words.unkept;
    if (!world->dem.history) return gp__end(world, GP_OK);
    stride = world->desc.contact_slots + 1;
    stats->history_bytes = (uint64_t)2 * world->capacity * stride * 16;
    if (n == 0) return gp__end(world, GP_OK);
    heads = (uint32_t*)gp__alloc(&world->desc.allocator, (size_t)n * stride * 16);
    if (!heads) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                               "no host memory to read %u particles' contacts", n));
    /* the blocks the last substep wrote: a head (id, kept, stamp, 0) each */
    gp__buffer_download(world, world->dem.history, (size_t)world->capacity * stride * 16, (size_t)n * stride * 16, heads);
    for (i = 0; i < n; ++i)
        if (heads[(size_t)i * stride * 4 + 2] == world->dem.stamp - 1) stats->contacts_kept += heads[(size_t)i * stride * 4 + 1];
    gp__free(&world->desc.allocator, heads);
    return gp__end(world, GP_OK);
}

gp_result gp_granular_add_block(gp_world* world, uint32_t phase, const float min[3], const float max[3],
                                const float velocity[3], uint32_t* added) {
    gp_particles_desc d;
    uint64_t n;
    float* xyz;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_granular_add_block");
    if (added) *added = 0;
    if ((r = gp__check_phase(world, phase)) != GP_OK || (r = gp__check_vector(world, "min", min)) != GP_OK ||
        (r = gp__check_vector(world, "max", max)) != GP_OK || (velocity && (r = gp__check_vector(world, "velocity", velocity)) != GP_OK))
        return gp__end(world, r);
    n = gp__lattice(min, max, world->dem.materials[phase].diameter, NULL, 0.0f, NULL);
    if ((r = gp__store_room(world, n, "grains")) != GP_OK) return gp__end(world, r);
    if (n == 0) return gp__end(world, GP_OK);
    xyz = (float*)gp__alloc(&world->desc.allocator, (size_t)n * 3 * sizeof(float));
    if (!xyz) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                             "no host memory to stage %llu grains", (unsigned long long)n));
    gp__lattice(min, max, world->dem.materials[phase].diameter, NULL, 0.0f, xyz);
    memset(&d, 0, sizeof d);
    d.count = (uint32_t)n;
    d.positions = xyz;
    d.radius = 0.5f * world->dem.materials[phase].diameter;
    d.mass = world->dem.materials[phase].mass;
    d.kind = GP_KIND_GRANULAR;
    d.phase = phase;
    if (velocity) {   /* one velocity for the block */
        float* v = (float*)gp__alloc(&world->desc.allocator, (size_t)n * 3 * sizeof(float));
        uint64_t i;
        if (!v) {
            gp__free(&world->desc.allocator, xyz);
            return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                           "no host memory for %llu velocities; nothing was added", (unsigned long long)n));
        }
        for (i = 0; i < n; ++i) memcpy(v + i * 3, velocity, 3 * sizeof(float));
        d.velocities = v;
    }
    r = gp__particles_add(world, &d, NULL);
    gp__free(&world->desc.allocator, (void*)d.velocities);
    gp__free(&world->desc.allocator, xyz);
    if (r == GP_OK && added) *added = (uint32_t)n;
    return gp__end(world, r);
}

/* ---- the substep's DEM passes ---- */

/* The longest substep that resolves every contact: a twelfth of the contact duration of two
   equal particles of each granular material in use (with rigid bodies, their shapes' phases), and
   no longer than m_eff / (damping + shear), half of what keeps the explicit dashpot and shear
   stable (a large shear would otherwise flip the sliding velocity's sign each substep). */
#define GP__STEPS_PER_CONTACT 12.0
static float gp__dem_limit(const gp_world* w) {
    float limit = 3.4e38f;
    int i;
    for (i = 0; i < GP_MAX_GRANULAR_MATERIALS; ++i) {
        const gp_granular_material* m = &w->dem.materials[i];
        double meff = 0.5 * m->mass, w0 = sqrt(m->stiffness / meff), g = m->damping / (2.0 * meff);
        double duration = GP__PI / (w0 > g ? sqrt(w0 * w0 - g * g) : w0), viscous = meff / ((double)m->damping + m->shear);
        if (!(w->dem.phases & (1u << i))) continue;
        if (duration / GP__STEPS_PER_CONTACT < limit) limit = (float)(duration / GP__STEPS_PER_CONTACT);
        if (viscous < limit) limit = (float)viscous;
    }
    return limit;
}

/* The contacts kept from substep to substep (gp_dem.glsl): per slot of the store two blocks of
   contact_slots + 1 uvec4s (the last substep's, moved into this one's order by the grid build, and
   this substep's), so 32 (contact_slots + 1) bytes per particle of capacity; made, zeroed (nothing
   kept), with the first substep that has grains or bodies, and handed to the grid to carry. */
static gp_result gp__dem_history(gp_world* w) {
    size_t bytes = (size_t)2 * w->capacity * (w->desc.contact_slots + 1) * 16;
    gp_result r;
    if (w->dem.history) return GP_OK;
    if ((r = gp__buffer_new(w, bytes, NULL, "the contacts kept (2 max_particles (contact_slots + 1) 16 bytes: "
                            "lower either)", &w->dem.history)) != GP_OK)
        return r;
    gp__buffer_zero(w, w->dem.history, 0, bytes);
    w->dem.stamp = 1;
    w->carried = w->dem.history;
    w->carried_stride = w->desc.contact_slots + 1;
    return GP_OK;
}

/* One contact pass, with the contacts kept: this substep's stamp and the slots per particle. */
static void gp__dem_pass(gp_world* w, gp__stage stage, gp__program_id program) {
    const uint32_t words[2] = {w->desc.contact_slots, w->dem.stamp};   /* gp_dem.glsl's u_slots, u_stamp */
    gp__stage_run_with(w, stage, program, 2, words);
}

/* The DEM's stages of a substep, after the grid build (section >>step): the contact forces of
   every grain and rigid particle (a rigid particle's left in the store's acceleration and the
   bodies' torque slots for the bodies' stage, >>rigid), then the grains' move. */
/* The contact forces of grains and rigid particles: the pairs' (dem_contact), then the walls'
   (dem_walls), each contact from the spring it kept last substep. */
static gp_result gp__dem_contacts(gp_world* w) {
    gp_result r;
    if (!w->dem.phases) return GP_OK;
    if ((r = gp__dem_history(w)) != GP_OK) return r;
    gp__dem_pass(w, GP__STAGE_DEM_CONTACT, GP__PROGRAM_DEM_CONTACT);
    gp__dem_pass(w, GP__STAGE_DEM_WALLS, GP__PROGRAM_DEM_WALLS);
    w->dem.stamp += 1;
    return GP_OK;
}

/* The grains' move by their accelerations (contacts, coupling, gravity). */
static void gp__dem_move(gp_world* w) {
    if (!w->dem.phases) return;
    gp__stage_run(w, GP__STAGE_DEM_INTEGRATE, GP__PROGRAM_DEM_INTEGRATE);
}

/* >>rigid ==================================================================================
   Rigid bodies made of particles (Harada 2007 section 29.2): shapes voxelized from closed meshes and
   primitives (mass, centre of mass, principal inertia), bodies as typed handles, and the bodies'
   stages of a substep (gp__rigid_substep): each body sums its particles' contact forces and
   torques (left by the DEM's contact stage), moves, and places its particles. The shaders:
   body_update, body_particles (shaders_embedded/). */

/* ---- shapes ---- */

/* Quaternions as (x, y, z, w), in double: the product a * b and v rotated by q. */
static void gp__quat_mul(const double a[4], const double b[4], double out[4]) {
    double r[4];
    r[0] = a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2];
    r[2] = a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(out, r, sizeof r);
}
static void gp__quat_rotate(const double q[4], const double v[3], double out[3]) {
    double t[3], r[3];
    int a;
    t[0] = q[1] * v[2] - q[2] * v[1] + q[3] * v[0];
    t[1] = q[2] * v[0] - q[0] * v[2] + q[3] * v[1];
    t[2] = q[0] * v[1] - q[1] * v[0] + q[3] * v[2];
    r[0] = q[1] * t[2] - q[2] * t[1];
    r[1] = q[2] * t[0] - q[0] * t[2];
    r[2] = q[0] * t[1] - q[1] * t[0];
    for (a = 0; a < 3; ++a) out[a] = v[a] + 2.0 * r[a];
}

/* The eigenvectors (columns of v, a proper rotation) and ascending eigenvalues of the symmetric
   3 x 3 matrix a, by cyclic Jacobi rotations. */
static void gp__eigen_symmetric(double a_in[3][3], double v[3][3], double lambda[3]) {
    double a[3][3];
    int sweep, p, q, k, i, j;
    memcpy(a, a_in, sizeof a);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) v[i][j] = i == j ? 1.0 : 0.0;
    for (sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]), scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-15 * scale || off == 0.0) break;
        for (p = 0; p < 2; ++p)
            for (q = p + 1; q < 3; ++q) {
                double theta, t, c, s;
                if (a[p][q] == 0.0) continue;
                theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                c = 1.0 / sqrt(t * t + 1.0);
                s = t * c;
                for (k = 0; k < 3; ++k) {   /* a = J^T a J, v = v J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (k = 0; k < 3; ++k) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (k = 0; k < 3; ++k) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (i = 0; i < 3; ++i) lambda[i] = a[i][i];
    for (i = 0; i < 2; ++i)   /* ascending, columns along */
        for (j = 0; j < 2 - i; ++j)
            if (lambda[j] > lambda[j + 1]) {
                double t = lambda[j];
                lambda[j] = lambda[j + 1]; lambda[j + 1] = t;
                for (k = 0; k < 3; ++k) { t = v[k][j]; v[k][j] = v[k][j + 1]; v[k][j + 1] = t; }
            }
    if (v[0][0] * (v[1][1] * v[2][2] - v[2][1] * v[1][2]) - v[0][1] * (v[1][0] * v[2][2] - v[2][0] * v[1][2]) +
        v[0][2] * (v[1][0] * v[2][1] - v[2][0] * v[1][1]) < 0.0)
        for (k = 0; k < 3; ++k) v[k][2] = -v[k][2];   /* a rotation, not a reflection */
}

/* The quaternion (x, y, z, w) of the rotation matrix m. */
static void gp__quat_from_matrix(double m[3][3], double q[4]) {
    double trace = m[0][0] + m[1][1] + m[2][2], s, n;
    if (trace > 0.0) {
        s = 2.0 * sqrt(trace + 1.0);
        q[3] = 0.25 * s; q[0] = (m[2][1] - m[1][2]) / s; q[1] = (m[0][2] - m[2][0]) / s; q[2] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q[3] = (m[2][1] - m[1][2]) / s; q[0] = 0.25 * s; q[1] = (m[0][1] + m[1][0]) / s; q[2] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q[3] = (m[0][2] - m[2][0]) / s; q[0] = (m[0][1] + m[1][0]) / s; q[1] = 0.25 * s; q[2] = (m[1][2] + m[2][1]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q[3] = (m[1][0] - m[0][1]) / s; q[0] = (m[0][2] + m[2][0]) / s; q[1] = (m[1][2] + m[2][1]) / s; q[2] = 0.25 * s;
    }
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (s = 0; s < 4; ++s) q[(int)s] /= n;
}

#define GP__MAX_SHAPE_VOXELS (1u << 24)

/* The voxel centres inside the shape, in its frame: voxels of side `voxel` over its bounds, a
   whole number of them centred on the bounds' centre; inside[] marks them (dims[0] * dims[1] *
   dims[2]). Returns the count inside, or fails. */
static gp_result gp__shape_voxels(gp_world* w, const gp_shape_desc* d, float voxel, float origin[3], uint32_t dims[3],
                                  unsigned char** inside) {
    double lo[3], hi[3], total = 1.0;
    uint32_t a, i, j, k;
    if (d->shape == GP_SHAPE_MESH) {
        for (a = 0; a < 3; ++a) { lo[a] = INFINITY; hi[a] = -INFINITY; }
        for (i = 0; i < d->vertex_count; ++i)
            for (a = 0; a < 3; ++a) {
                double x = d->vertices[3 * (size_t)i + a];
                lo[a] = x < lo[a] ? x : lo[a];
                hi[a] = x > hi[a] ? x : hi[a];
            }
    } else {
        double ext[3];
        ext[0] = ext[2] = d->shape == GP_SHAPE_BOX ? d->half_extents[0] : d->radius;
        if (d->shape == GP_SHAPE_BOX) ext[2] = d->half_extents[2];
        ext[1] = d->shape == GP_SHAPE_BOX ? d->half_extents[1] : d->shape == GP_SHAPE_CAPSULE ? d->radius + d->half_height : d->radius;
        for (a = 0; a < 3; ++a) { lo[a] = -ext[a]; hi[a] = ext[a]; }
    }
    for (a = 0; a < 3; ++a) {
        double n = ceil((hi[a] - lo[a]) / voxel - 1e-6);
        if (n < 1.0) n = 1.0;
        total *= n;
        if (!(total <= (double)GP__MAX_SHAPE_VOXELS))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SHAPE_VOXELS,
                            "the shape spans more than %u voxels of the material's diameter %g m: "
                            "make it smaller or the diameter larger", GP__MAX_SHAPE_VOXELS, (double)voxel);
        dims[a] = (uint32_t)n;
        origin[a] = (float)(0.5 * (lo[a] + hi[a]) - 0.5 * (n - 1.0) * voxel);
    }
    *inside = (unsigned char*)gp__alloc(&w->desc.allocator, (size_t)total);
    if (!*inside) return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                  "no host memory for %.0f voxels", total);
    if (d->shape == GP_SHAPE_MESH) {
        gp__mesh_inside(d->vertices, d->triangles, d->triangle_count, origin, voxel, dims, *inside);
        return GP_OK;
    }
    for (k = 0; k < dims[2]; ++k)
        for (j = 0; j < dims[1]; ++j)
            for (i = 0; i < dims[0]; ++i) {
                double p[3], y;
                bool in;
                p[0] = origin[0] + (double)voxel * i; p[1] = origin[1] + (double)voxel * j; p[2] = origin[2] + (double)voxel * k;
                if (d->shape == GP_SHAPE_BOX)
                    in = fabs(p[0]) <= d->half_extents[0] && fabs(p[1]) <= d->half_extents[1] && fabs(p[2]) <= d->half_extents[2];
                else {
                    y = d->shape == GP_SHAPE_CAPSULE ? (p[1] > d->half_height ? p[1] - d->half_height : p[1] < -d->half_height
                                                        ? p[1] + d->half_height : 0.0) : p[1];
                    in = p[0] * p[0] + y * y + p[2] * p[2] <= (double)d->radius * d->radius;
                }
                (*inside)[i + (size_t)dims[0] * (j + (size_t)dims[1] * k)] = in;
            }
    return GP_OK;
}

static gp_result gp__shape_check(gp_world* w, const gp_shape_desc* d) {
    gp_result r;
    if (!d) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL");
    if ((r = gp__check_phase(w, d->phase)) != GP_OK) return r;
    switch (d->shape) {
    case GP_SHAPE_SPHERE:
    case GP_SHAPE_CAPSULE:
    case GP_SHAPE_BOX:
        return gp__check_size(w, d->shape, d->radius, d->half_extents, d->half_height);
    case GP_SHAPE_MESH:
        if ((r = gp__mesh_check(w, d->vertices, d->vertex_count, d->triangles, d->triangle_count)) != GP_OK) return r;
        return gp__mesh_check_closed(w, d->vertices, d->triangles, d->triangle_count);
    default:
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                        "shape %d: a body's shape is a sphere, box, capsule or mesh", (int)d->shape);
    }
}

/* Mass, centre of mass, principal inertia and frame from n points (shape frame), each a solid
   ball of mass m and radius r; offsets receives the points in the principal frame (vec4s). */
static void gp__shape_inertia(gp__body_shape* s, const double* points, uint32_t n, double m, double r, float* offsets) {
    double c[3] = {0.0, 0.0, 0.0}, inertia[3][3], axes[3][3], lambda[3], q[4], own = 0.4 * m * r * r;
    uint32_t i;
    int a, b;
    for (i = 0; i < n; ++i)
        for (a = 0; a < 3; ++a) c[a] += points[3 * (size_t)i + a];
    for (a = 0; a < 3; ++a) c[a] /= n;
    memset(inertia, 0, sizeof inertia);
    for (i = 0; i < n; ++i) {
        double e[3], e2;
        for (a = 0; a < 3; ++a) e[a] = points[3 * (size_t)i + a] - c[a];
        e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
        for (a = 0; a < 3; ++a)
            for (b = 0; b < 3; ++b) inertia[a][b] += m * ((a == b ? e2 : 0.0) - e[a] * e[b]);
    }
    for (a = 0; a < 3; ++a) inertia[a][a] += n * own;
    gp__eigen_symmetric(inertia, axes, lambda);
    gp__quat_from_matrix(axes, q);
    s->reach = 0.0f;
    for (i = 0; i < n; ++i) {   /* r0 = Q^T (p - c) */
        double r2 = 0.0;
        for (a = 0; a < 3; ++a) {
            double x = 0.0;
            for (b = 0; b < 3; ++b) x += axes[b][a] * (points[3 * (size_t)i + b] - c[b]);
            offsets[4 * (size_t)i + a] = (float)x;
            offsets[4 * (size_t)i + 3] = 0.0f;
            r2 += x * x;
        }
        if (sqrt(r2) > s->reach) s->reach = (float)sqrt(r2);
    }
    s->mass = (float)(n * m);
    for (a = 0; a < 3; ++a) { s->com[a] = (float)c[a]; s->inertia[a] = (float)lambda[a]; }
    for (a = 0; a < 4; ++a) s->principal[a] = (float)q[a];
}



#if !defined(GP_NO_DRAW)
/* The shape's mesh for gp_draw_bodies, in its principal frame (from the centre of mass): the
   user's triangles, or a box, sphere or capsule made here; smooth normals from the faces around
   each vertex (a box's faces have their own vertices). Kept in two GL buffers. */
static gp_result gp__shape_draw_mesh(gp_world* w, const gp_shape_desc* d, gp__body_shape* s) {
    enum { RINGS = 12, SEGMENTS = 16 };
    uint32_t nv, nt, i, k;
    float* v;      /* 6 per vertex: position, normal */
    uint32_t* t;   /* 3 per triangle */
    double conj[4];
    gp_result r;
    if (d->shape == GP_SHAPE_MESH) { nv = d->vertex_count; nt = d->triangle_count; }
    else if (d->shape == GP_SHAPE_BOX) { nv = 24; nt = 12; }
    else { nv = (RINGS + 2) * (SEGMENTS + 1); nt = (RINGS + 1) * SEGMENTS * 2; }
    v = (float*)gp__alloc(&w->desc.allocator, (size_t)nv * 6 * sizeof(float));
    t = (uint32_t*)gp__alloc(&w->desc.allocator, (size_t)nt * 3 * sizeof(uint32_t));
    if (!v || !t) {
        gp__free(&w->desc.allocator, v);
        gp__free(&w->desc.allocator, t);
        return gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                        "no host memory for the shape's mesh of %u vertices", nv);
    }
    memset(v, 0, (size_t)nv * 6 * sizeof(float));
    if (d->shape == GP_SHAPE_MESH) {
        for (i = 0; i < nv; ++i) memcpy(v + 6 * (size_t)i, d->vertices + 3 * (size_t)i, 3 * sizeof(float));
        memcpy(t, d->triangles, (size_t)nt * 3 * sizeof(uint32_t));
    } else if (d->shape == GP_SHAPE_BOX) {
        for (k = 0; k < 6; ++k) {   /* face k: axis k / 2, side +- */
            int a = (int)k / 2, b = (a + 1) % 3, c = (a + 2) % 3;
            float side = k % 2 ? -1.0f : 1.0f;
            for (i = 0; i < 4; ++i) {
                float* p = v + 6 * (size_t)(4 * k + i);
                float u = (i == 1 || i == 2) ? 1.0f : -1.0f, vv = i >= 2 ? 1.0f : -1.0f;
                p[a] = side * d->half_extents[a];
                p[b] = side * u * d->half_extents[b];   /* counter-clockwise seen from outside */
                p[c] = vv * d->half_extents[c];
            }
            t[6 * k + 0] = 4 * k; t[6 * k + 1] = 4 * k + 1; t[6 * k + 2] = 4 * k + 2;
            t[6 * k + 3] = 4 * k; t[6 * k + 4] = 4 * k + 2; t[6 * k + 5] = 4 * k + 3;
        }
    } else {   /* rings from the bottom pole to the top; a capsule's halves apart by 2 half_height */
        float hh = d->shape == GP_SHAPE_CAPSULE ? d->half_height : 0.0f;
        uint32_t ring, seg, at = 0;
        for (ring = 0; ring < RINGS + 2; ++ring) {
            uint32_t band = ring <= (RINGS + 1) / 2 ? ring : ring - 1;   /* the equator twice, for the capsule */
            double phi = GP__PI * ((double)band / RINGS - 0.5);
            float shift = ring <= (RINGS + 1) / 2 ? -hh : hh;
            for (seg = 0; seg <= SEGMENTS; ++seg, ++at) {
                double theta = 2.0 * GP__PI * seg / SEGMENTS;
                float* p = v + 6 * (size_t)at;
                p[0] = (float)(d->radius * cos(phi) * cos(theta));
                p[1] = (float)(d->radius * sin(phi)) + shift;
                p[2] = (float)(-d->radius * cos(phi) * sin(theta));
            }
        }
        at = 0;
        for (ring = 0; ring < RINGS + 1; ++ring)
            for (seg = 0; seg < SEGMENTS; ++seg) {
                uint32_t a = ring * (SEGMENTS + 1) + seg, b = a + SEGMENTS + 1;
                t[at++] = a; t[at++] = a + 1; t[at++] = b + 1;
                t[at++] = a; t[at++] = b + 1; t[at++] = b;
            }
    }
    for (i = 0; i < nt; ++i) {   /* area-weighted face normals into each vertex */
        float *p0 = v + 6 * (size_t)t[3 * i], *p1 = v + 6 * (size_t)t[3 * i + 1], *p2 = v + 6 * (size_t)t[3 * i + 2];
        float e1[3], e2[3], n[3];
        int a;
        for (a = 0; a < 3; ++a) { e1[a] = p1[a] - p0[a]; e2[a] = p2[a] - p0[a]; }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1]; n[1] = e1[2] * e2[0] - e1[0] * e2[2]; n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (a = 0; a < 3; ++a) { p0[3 + a] += n[a]; p1[3 + a] += n[a]; p2[3 + a] += n[a]; }
    }
    conj[0] = -s->principal[0]; conj[1] = -s->principal[1]; conj[2] = -s->principal[2]; conj[3] = s->principal[3];
    for (i = 0; i < nv; ++i) {   /* to the principal frame: Q^T (p - c), Q^T n */
        double p[3], n[3], out[3], len;
        int a;
        for (a = 0; a < 3; ++a) { p[a] = v[6 * (size_t)i + a] - s->com[a]; n[a] = v[6 * (size_t)i + 3 + a]; }
        gp__quat_rotate(conj, p, out);
        for (a = 0; a < 3; ++a) v[6 * (size_t)i + a] = (float)out[a];
        gp__quat_rotate(conj, n, out);
        len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
        for (a = 0; a < 3; ++a) v[6 * (size_t)i + 3 + a] = len > 0.0 ? (float)(out[a] / len) : 0.0f;
    }
    r = gp__buffer_new(w, (size_t)nv * 24, v, "a shape's mesh vertices", &s->draw_vertices);
    if (r == GP_OK) r = gp__buffer_new(w, (size_t)nt * 12, t, "a shape's mesh triangles", &s->draw_indices);
    s->draw_index_count = 3 * nt;
    gp__free(&w->desc.allocator, v);
    gp__free(&w->desc.allocator, t);
    return r;
}
#endif

gp_result gp_body_shape_create(gp_world* world, const gp_shape_desc* desc, gp_body_shape* shape) {
    gp__body_shape s;
    float origin[3], voxel, *offsets = NULL;
    uint32_t dims[3], i, j, k, n = 0;
    unsigned char* inside = NULL;
    double* points = NULL;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_body_shape_create");
    if (shape) shape->id = 0;
    if (!shape) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "shape is NULL"));
    if ((r = gp__shape_check(world, desc)) != GP_OK) return gp__end(world, r);
    voxel = world->dem.materials[desc->phase].diameter;
    if ((r = gp__shape_voxels(world, desc, voxel, origin, dims, &inside)) != GP_OK) return gp__end(world, r);
    for (k = 0; k < dims[2]; ++k)   /* the surface: an inside voxel with a face neighbour outside */
        for (j = 0; j < dims[1]; ++j)
            for (i = 0; i < dims[0]; ++i) {
                size_t at = i + (size_t)dims[0] * (j + (size_t)dims[1] * k), sx = 1, sy = dims[0], sz = (size_t)dims[0] * dims[1];
                if (!inside[at]) continue;
                if (desc->surface_only && i > 0 && i + 1 < dims[0] && j > 0 && j + 1 < dims[1] && k > 0 && k + 1 < dims[2] &&
                    inside[at - sx] && inside[at + sx] && inside[at - sy] && inside[at + sy] && inside[at - sz] && inside[at + sz])
                    inside[at] |= 2;   /* interior: dropped */
                else
                    ++n;
            }
    if (n == 0) {
        gp__free(&world->desc.allocator, inside);
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SHAPE_VOXELS,
                                       "the shape holds no voxel centre of side %g m (phase %u's "
                                       "diameter): make it larger or the diameter smaller", (double)voxel, desc->phase));
    }
    points = (double*)gp__alloc(&world->desc.allocator, (size_t)n * 3 * sizeof(double));
    offsets = (float*)gp__alloc(&world->desc.allocator, (size_t)n * 4 * sizeof(float));
    if (!points || !offsets) {
        r = gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                     "no host memory for a shape of %u particles", n);
    } else {
        uint32_t at = 0;
        for (k = 0; k < dims[2]; ++k)
            for (j = 0; j < dims[1]; ++j)
                for (i = 0; i < dims[0]; ++i)
                    if (inside[i + (size_t)dims[0] * (j + (size_t)dims[1] * k)] == 1) {
                        points[3 * at + 0] = origin[0] + (double)voxel * i;
                        points[3 * at + 1] = origin[1] + (double)voxel * j;
                        points[3 * at + 2] = origin[2] + (double)voxel * k;
                        ++at;
                    }
        memset(&s, 0, sizeof s);
        s.phase = desc->phase;
        s.particles = n;
        s.particle_radius = 0.5f * voxel;
        s.particle_mass = world->dem.materials[desc->phase].mass;
        gp__shape_inertia(&s, points, n, s.particle_mass, s.particle_radius, offsets);
        s.first_offset = world->rigid.offset_count;
        if (gp__grow(&world->desc.allocator, (void**)&world->rigid.shapes, &world->rigid.shape_capacity, world->rigid.shape_count,
                     world->rigid.shape_count + 1, sizeof *world->rigid.shapes) != GP_OK)
            r = gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                         "no host memory for %u shapes", world->rigid.shape_count + 1);
        if (r == GP_OK)
            r = gp__buffer_grow(world, &world->rigid.offsets, &world->rigid.offsets_bytes, ((size_t)world->rigid.offset_count + n) * 16,
                                (size_t)world->rigid.offset_count * 16, "the shapes' particle offsets");
#if !defined(GP_NO_DRAW)
        if (r == GP_OK) r = gp__shape_draw_mesh(world, desc, &s);
        if (r != GP_OK) {
            gp__buffer_delete(world, &s.draw_vertices);
            gp__buffer_delete(world, &s.draw_indices);
        }
#endif
        if (r == GP_OK) {
            gp__buffer_upload(world, world->rigid.offsets, (size_t)world->rigid.offset_count * 16, (size_t)n * 16, offsets);
            world->rigid.offset_count += n;
            s.id = ++world->rigid.next_shape_id;
            s.offsets = offsets;   /* the shape keeps them, to place its bodies' particles */
            offsets = NULL;
            world->rigid.shapes[world->rigid.shape_count++] = s;
            shape->id = s.id;
        }
    }
    gp__free(&world->desc.allocator, points);
    gp__free(&world->desc.allocator, offsets);
    gp__free(&world->desc.allocator, inside);
    return gp__end(world, r);
}

static gp__body_shape* gp__find_shape(gp_world* w, gp_body_shape shape) {
    uint32_t i;
    for (i = 0; i < w->rigid.shape_count; ++i)
        if (shape.id != 0 && w->rigid.shapes[i].id == shape.id) return &w->rigid.shapes[i];
    return NULL;
}

gp_result gp_body_shape_info_get(gp_world* world, gp_body_shape shape, gp_body_shape_info* info) {
    gp__body_shape* s;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_body_shape_info_get");
    if (!info) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "info is NULL"));
    if (!(s = gp__find_shape(world, shape)))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                       "shape %u is not a shape of this world", shape.id));
    info->particles = s->particles;
    info->mass = s->mass;
    memcpy(info->center_of_mass, s->com, sizeof s->com);
    memcpy(info->inertia, s->inertia, sizeof s->inertia);
    memcpy(info->principal, s->principal, sizeof s->principal);
    return gp__end(world, GP_OK);
}

gp_result gp_body_shape_destroy(gp_world* world, gp_body_shape shape) {
    gp__body_shape* s;
    uint32_t i;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_body_shape_destroy");
    if (!(s = gp__find_shape(world, shape)))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                       "shape %u is not a shape of this world", shape.id));
    for (i = 0; i < world->rigid.run_count; ++i)   /* the runs cover every body */
        if (world->rigid.runs[i].shape == (uint32_t)(s - world->rigid.shapes))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, GP_LOG_ITEM_SHAPE_IN_USE,
                                           "shape %u is used by %u bodies from body %u on; it stays",
                                           shape.id, world->rigid.runs[i].count, world->rigid.runs[i].first));
    /* Bodies name shapes by their place in the array: the place stays, dead (id 0). */
    gp__free(&world->desc.allocator, s->offsets);
    s->offsets = NULL;
    gp__buffer_delete(world, &s->draw_vertices);
    gp__buffer_delete(world, &s->draw_indices);
    s->id = 0;
    return gp__end(world, GP_OK);
}

/* ---- bodies ---- */

/* Where the body records start in w->rigid.bodies: after a vec4 per slot. */
#define GP__BODIES_AT(w) ((size_t)(w)->capacity * 16)

/* Fills a body's GPU record from its desc, and its particles' positions and velocities. */
static void gp__body_place(const gp__body_shape* s, const gp_body_desc* d, const float* offsets, uint32_t first_id,
                           gp__body_gpu* b, float* xyz, float* velocity) {
    double qu[4], qp[4], q[4], c[3], x[3], w[3], l[3], t[3], inverse[4];
    double norm = 0.0;
    uint32_t k;
    int a;
    for (a = 0; a < 4; ++a) norm += (double)d->orientation[a] * d->orientation[a];
    for (a = 0; a < 4; ++a) qu[a] = norm > 0.0 ? d->orientation[a] / sqrt(norm) : (a == 3 ? 1.0 : 0.0);
    for (a = 0; a < 4; ++a) qp[a] = s->principal[a];
    gp__quat_mul(qu, qp, q);
    for (a = 0; a < 3; ++a) c[a] = s->com[a];
    gp__quat_rotate(qu, c, x);
    for (a = 0; a < 3; ++a) { x[a] += d->position[a]; w[a] = d->angular_velocity[a]; }
    /* L = R diag(lambda) R^T w */
    inverse[0] = -q[0]; inverse[1] = -q[1]; inverse[2] = -q[2]; inverse[3] = q[3];
    gp__quat_rotate(inverse, w, t);
    for (a = 0; a < 3; ++a) t[a] *= s->inertia[a];
    gp__quat_rotate(q, t, l);
    for (a = 0; a < 3; ++a) {
        b->x[a] = (float)x[a];
        b->q[a] = (float)q[a];
        b->p[a] = (float)(s->mass * (double)d->velocity[a]);
        b->l[a] = (float)l[a];
        b->inertia[a] = (float)(1.0 / s->inertia[a]);
    }
    b->x[3] = (float)(1.0 / s->mass);
    b->q[3] = (float)q[3];
    b->p[3] = s->particle_mass;
    b->l[3] = 0.0f;
    b->inertia[3] = 0.0f;
    b->particles[0] = first_id;
    b->particles[1] = s->particles;
    b->particles[2] = s->first_offset;
    b->particles[3] = 0;   /* the shape's index: set by the caller */
    for (k = 0; k < s->particles; ++k) {
        double r0[3], r[3];
        for (a = 0; a < 3; ++a) r0[a] = offsets[4 * (size_t)k + a];
        gp__quat_rotate(q, r0, r);
        for (a = 0; a < 3; ++a) xyz[3 * (size_t)k + a] = (float)(x[a] + r[a]);
        velocity[3 * (size_t)k + 0] = (float)(d->velocity[0] + w[1] * r[2] - w[2] * r[1]);
        velocity[3 * (size_t)k + 1] = (float)(d->velocity[1] + w[2] * r[0] - w[0] * r[2]);
        velocity[3 * (size_t)k + 2] = (float)(d->velocity[2] + w[0] * r[1] - w[1] * r[0]);
    }
}

/* A body handle: the body's number plus one in the low 24 bits, its generation in the high 8. */
#define GP__BODY_NUMBER_BITS 24u
#define GP__MAX_BODIES ((1u << GP__BODY_NUMBER_BITS) - 1u)
static gp_body gp__body_handle(const gp_world* w, uint32_t number) {
    gp_body b;
    b.id = (uint32_t)w->rigid.generations[number] << GP__BODY_NUMBER_BITS | (number + 1u);
    return b;
}
uint32_t gp_body_number(const gp_world* world, gp_body body) {
    uint32_t number = (body.id & GP__MAX_BODIES) - 1u;
    if (!world || (body.id & GP__MAX_BODIES) == 0 || number >= world->rigid.body_count ||
        body.id >> GP__BODY_NUMBER_BITS != world->rigid.generations[number])
        return GP_NO_OWNER;
    return number;
}

/* True when a body of shape s moving as d asks keeps its momentum, angular momentum and its
   particles' velocities inside a float (an eighth of the largest, for the sums of the substeps):
   finite but huge, they overflowed to infinity on the way (mass times 1e38 m/s) and the body
   lost its speed, or its particles were added and then refused. */
static bool gp__body_motion_fits(const gp__body_shape* s, const gp_body_desc* d) {
    const double most = 3.4e38 / 8.0;
    double v = 0.0, w = 0.0;
    int a;
    for (a = 0; a < 3; ++a) {
        v += fabs((double)d->velocity[a]);
        w += fabs((double)d->angular_velocity[a]);
        if (s->mass * fabs((double)d->velocity[a]) > most || s->inertia[a] * fabs((double)d->angular_velocity[a]) > most) return false;
    }
    return v + w * s->reach <= most;
}

gp_result gp_bodies_add(gp_world* world, const gp_body_desc* descs, uint32_t count, gp_body* bodies) {
    uint64_t particles = 0;
    uint32_t i, most = 0, at = 0;
    gp__body_gpu* records = NULL;
    float *xyz = NULL, *velocity = NULL;
    gp_result r = GP_OK;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_bodies_add");
    if (count == 0) return gp__end(world, GP_OK);
    if (!descs) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                               "descs is NULL for %u bodies", count));
    for (i = 0; i < count; ++i) {
        const gp_body_desc* d = &descs[i];
        const gp__body_shape* s = gp__find_shape(world, d->shape);
        double norm = 0.0;
        int a;
        if (!s) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                               "body %u: shape %u is not a shape of this world; "
                                               "nothing was added", i, d->shape.id));
        for (a = 0; a < 4; ++a) norm += (double)d->orientation[a] * d->orientation[a];
        if (!gp__finite3(d->position) || !gp__finite3(d->velocity) || !gp__finite3(d->angular_velocity) || !isfinite(norm))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                                           "body %u: a position, velocity, angular velocity or "
                                           "orientation is not finite; nothing was added", i));
        if (!gp__body_motion_fits(s, d))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                           "body %u: its velocity (%g, %g, %g) or angular velocity (%g, %g, %g) is too large for "
                                           "a float's momentum; nothing was added", i, (double)d->velocity[0], (double)d->velocity[1],
                                           (double)d->velocity[2], (double)d->angular_velocity[0], (double)d->angular_velocity[1],
                                           (double)d->angular_velocity[2]));
        particles += s->particles;
        most = s->particles > most ? s->particles : most;
    }
    if ((r = gp__store_room(world, particles, "particles of bodies")) != GP_OK) return gp__end(world, r);
    if ((uint64_t)world->store.next_id + particles > world->store.id_space)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_IDS_USED_UP,
                                       "%u bodies of %llu particles need consecutive never-used ids; %u are left; nothing was added",
                                       count, (unsigned long long)particles, world->store.id_space - world->store.next_id));
    if ((uint64_t)world->rigid.body_count + count > GP__MAX_BODIES)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_TABLE_FULL, "%llu bodies are too many: at most %u",
                                       (unsigned long long)world->rigid.body_count + count, GP__MAX_BODIES));
    /* host room first, every run these bodies could start included, so that nothing fails halfway */
    if (gp__grow(&world->desc.allocator, (void**)&world->rigid.generations, &world->rigid.generation_capacity, world->rigid.body_count,
                 world->rigid.body_count + count, 1) != GP_OK ||
        gp__grow(&world->desc.allocator, (void**)&world->rigid.runs, &world->rigid.run_capacity, world->rigid.run_count,
                 world->rigid.run_count + count, sizeof *world->rigid.runs) != GP_OK)
        return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                       "no host memory for %u bodies", world->rigid.body_count + count));
    records = (gp__body_gpu*)gp__alloc(&world->desc.allocator, (size_t)count * sizeof *records);
    xyz = (float*)gp__alloc(&world->desc.allocator, (size_t)most * 3 * sizeof(float));
    velocity = (float*)gp__alloc(&world->desc.allocator, (size_t)most * 3 * sizeof(float));
    if (!records || !xyz || !velocity)
        r = gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY, "no host memory to stage %u bodies", count);
    if (r == GP_OK)
        r = gp__buffer_grow(world, &world->rigid.bodies, &world->rigid.bodies_bytes, GP__BODIES_AT(world) + ((size_t)world->rigid.body_count + count) *
                            sizeof *records, GP__BODIES_AT(world) + (size_t)world->rigid.body_count * sizeof *records, "the rigid bodies");
    for (i = 0; i < count && r == GP_OK; ++i) {
        const gp__body_shape* s = gp__find_shape(world, descs[i].shape);
        gp_particles_desc p;
        gp__body_place(s, &descs[i], s->offsets, world->store.next_id, &records[i], xyz, velocity);
        records[i].particles[3] = (uint32_t)(s - world->rigid.shapes);
        memset(&p, 0, sizeof p);
        p.count = s->particles;
        p.positions = xyz;
        p.velocities = velocity;
        p.radius = s->particle_radius;
        p.mass = s->particle_mass;
        p.kind = GP_KIND_RIGID;
        p.phase = s->phase;
        p.owner = world->rigid.body_count + i;
        p.has_owner = true;
        r = gp__particles_add(world, &p, NULL);
        ++at;
    }
    for (i = 0; i < count && r == GP_OK; ++i) {   /* runs of one shape, for gp_draw_bodies (room made above) */
        gp__body_run* last = world->rigid.run_count ? &world->rigid.runs[world->rigid.run_count - 1] : NULL;
        if (last && last->shape == records[i].particles[3] && last->first + last->count == world->rigid.body_count + i) {
            ++last->count;
            continue;
        }
        world->rigid.runs[world->rigid.run_count].shape = records[i].particles[3];
        world->rigid.runs[world->rigid.run_count].first = world->rigid.body_count + i;
        world->rigid.runs[world->rigid.run_count++].count = 1;
    }
    if (r == GP_OK) {
        gp__buffer_upload(world, world->rigid.bodies, GP__BODIES_AT(world) + (size_t)world->rigid.body_count * sizeof *records,
                          (size_t)count * sizeof *records, records);
        for (i = 0; i < count; ++i) {
            world->rigid.generations[world->rigid.body_count + i] = 1;
            if (bodies) bodies[i] = gp__body_handle(world, world->rigid.body_count + i);
        }
        world->rigid.body_count += count;
        world->solver_host.counts[3] = world->rigid.body_count;
    } else if (at > 1) {
        r = gp__fail(world, r, GP_LOG_ITEM_BODIES_PARTIALLY_ADDED,
                     "%u of %u bodies' particles were added before the failure; their bodies were not", at - 1, count);
    }
    gp__free(&world->desc.allocator, records);
    gp__free(&world->desc.allocator, xyz);
    gp__free(&world->desc.allocator, velocity);
    return gp__end(world, r);
}

uint32_t gp_body_count(const gp_world* world) { return world ? world->rigid.body_count : 0; }

gp_result gp_bodies_read(gp_world* world, const gp_body* bodies, uint32_t count, gp_body_state* states) {
    gp__body_gpu* records;
    uint32_t i, low = 0, high = count;   /* the body numbers read, [low, high) */
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_bodies_read");
    if (!bodies && count > world->rigid.body_count)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SLOTS_NOT_LIVE,
                                       "%u bodies asked for: there are %u", count, world->rigid.body_count));
    for (i = 0; bodies && i < count; ++i) {
        uint32_t n = gp_body_number(world, bodies[i]);
        if (n == GP_NO_OWNER)
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID,
                                           "bodies[%u] (handle %u) is not a body of this world", i,
                                           bodies[i].id));
        if (i == 0 || n < low) low = n;
        if (i == 0 || n + 1 > high) high = n + 1;
    }
    if (count == 0) return gp__end(world, GP_OK);
    if (!states) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                "states is NULL for %u bodies", count));
    records = (gp__body_gpu*)gp__alloc(&world->desc.allocator, (size_t)(high - low) * sizeof *records);
    if (!records) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                                 "no host memory to read %u bodies", high - low));
    gp__buffer_download(world, world->rigid.bodies, GP__BODIES_AT(world) + (size_t)low * sizeof *records,
                        (size_t)(high - low) * sizeof *records, records);
    for (i = 0; i < count; ++i) {
        const gp__body_gpu* b = &records[(bodies ? gp_body_number(world, bodies[i]) : i) - low];
        const gp__body_shape* s = &world->rigid.shapes[b->particles[3]];
        double q[4], qp[4], qu[4], c[3], oc[3], t[3], w[3], inverse[4];
        int a;
        gp_body_state* o = &states[i];
        for (a = 0; a < 4; ++a) { q[a] = b->q[a]; qp[a] = a < 3 ? -s->principal[a] : s->principal[a]; }
        gp__quat_mul(q, qp, qu);   /* q_u = q * conj(q_Q) */
        for (a = 0; a < 3; ++a) c[a] = s->com[a];
        gp__quat_rotate(qu, c, oc);
        inverse[0] = -q[0]; inverse[1] = -q[1]; inverse[2] = -q[2]; inverse[3] = q[3];
        for (a = 0; a < 3; ++a) c[a] = b->l[a];
        gp__quat_rotate(inverse, c, t);
        for (a = 0; a < 3; ++a) t[a] *= b->inertia[a];
        gp__quat_rotate(q, t, w);
        for (a = 0; a < 3; ++a) {
            o->position[a] = (float)(b->x[a] - oc[a]);
            o->center_of_mass[a] = b->x[a];
            o->velocity[a] = b->p[a] * b->x[3];
            o->angular_velocity[a] = (float)w[a];
            o->angular_momentum[a] = b->l[a];
        }
        for (a = 0; a < 4; ++a) o->orientation[a] = (float)qu[a];
    }
    gp__free(&world->desc.allocator, records);
    return gp__end(world, GP_OK);
}

/* ---- the substep's stages ---- */

/* The bodies' stages of a substep, after the DEM's contacts (section >>step): each body's force,
   torque and move (eqs. 1-8, 14-15), then its particles placed (eqs. 18-20). */
static void gp__rigid_substep(gp_world* w) {
    uint32_t timer;
    if (!w->rigid.body_count) return;
    timer = gp__timer_begin(w, GP__STAGE_BODY_UPDATE);
    gp__use(w, GP__PROGRAM_BODY_UPDATE);
    gp__dispatch(w, gp__groups(w->rigid.body_count, GP_GROUP_SIZE));
    gp__timer_end(w, timer);
    gp__stage_run(w, GP__STAGE_BODY_PARTICLES, GP__PROGRAM_BODY_PARTICLES);
}

/* >>coupling ===============================================================================
   The fluid and the solids (Harada 2007 section 29.3.3; Akinci et al. 2012): a rigid body's
   particle, or a grain as wide as the fluid's smoothing radius or wider, is a boundary particle to the fluid
   (shaders_embedded/gp_coupling.glsl: the volume it fills, a rigid particle its voxel (2 r)^3, a
   grain its sphere, at the fluid's rest density, and its own velocity), which the fluid's own
   passes take into its density, density rate and force. Between the fluid's density and its
   force, coupling_pressure gives each such particle a pressure of its own, the fluid's around it
   continued hydrostatically (Adami et al. 2012's wall pressure), which the pair pushes with. After
   the force, coupling_solid gives each the equal and opposite force, added to its contact force
   before the grains move and the bodies sum their particles' forces and torques. A grain narrower than the fluid's smoothing radius is one particle
   the fluid cannot flow around (as a boundary particle a 2 cm grain of sand sank through water at
   an eighth of a sphere's speed): the fluid drags it instead (coupling_drag: the standard drag
   curve of a sphere against the fluid's velocity there, and Archimedes' buoyancy, both as far as
   it is in the fluid), and every fluid particle near it takes its share of the opposite force
   (coupling_drag_fluid); such a grain and the fluid may overlap. After every move, a guard puts
   back any fluid particle that ended inside a boundary particle's sphere (coupling_guard). Through
   the one grid: no second neighbour search. */

/* The drag's buffer (gp_drag): a vec4 per slot of capacity, then a stamp per bucket (four to a
   vec4), made zeroed (no bucket stamped) with the first substep that has fluid and grains. */
static gp_result gp__coupling_drag_buffer(gp_world* w) {
    size_t bytes = (size_t)w->capacity * 16 + ((size_t)w->buckets + 3) / 4 * 16;
    gp_result r;
    if (w->coupling.drag) return GP_OK;
    if ((r = gp__buffer_new(w, bytes, NULL, "the fluid's drag on grains (16 bytes a particle, 4 a bucket)", &w->coupling.drag)) != GP_OK)
        return r;
    gp__buffer_zero(w, w->coupling.drag, 0, bytes);
    w->coupling.stamp = 1;
    return GP_OK;
}


/* The smallest and the largest smoothing radius of the fluid materials in use (0 with none), as the
   float bits the coupling's passes take in a u_ word. */
static void gp__coupling_radii(const gp_world* w, uint32_t* finest, uint32_t* widest) {
    float low = 0.0f, high = 0.0f;
    uint32_t k;
    for (k = 0; k < GP_MAX_FLUID_MATERIALS; ++k)
        if (w->fluid.phases & (1u << k)) {
            float re = w->fluid.materials[k].smoothing_radius;
            if (low == 0.0f || re < low) low = re;
            if (re > high) high = re;
        }
    memcpy(finest, &low, 4);
    memcpy(widest, &high, 4);
}

static gp_result gp__coupling_substep(gp_world* w) {
    uint32_t words[2], finest;
    gp_result r;
    if (!w->fluid.phases || !w->dem.phases) return GP_OK;   /* needs a fluid and a solid */
    gp__stage_run(w, GP__STAGE_COUPLING_SOLID, GP__PROGRAM_COUPLING_SOLID);
    if (!w->dem.grains) return GP_OK;                        /* bodies only: no grain to drag */
    if ((r = gp__coupling_drag_buffer(w)) != GP_OK) return r;
    gp__coupling_radii(w, &finest, &words[1]);   /* R: the largest smoothing radius of the fluid in use */
    words[0] = w->coupling.stamp;
    gp__stage_run_with(w, GP__STAGE_COUPLING_DRAG, GP__PROGRAM_COUPLING_DRAG, 2, words);   /* u_stamp, u_reach */
    gp__stage_run_with(w, GP__STAGE_COUPLING_DRAG_FLUID, GP__PROGRAM_COUPLING_DRAG_FLUID, 1, words);
    w->coupling.stamp += 1;
    return GP_OK;
}

/* Between the fluid's density and its force: every solid particle's pressure (coupling_pressure),
   which the fluid's force and coupling_solid push with. */
static void gp__coupling_pressure(gp_world* w) {
    uint32_t finest, widest;
    if (!w->fluid.phases || !w->dem.phases) return;
    gp__coupling_radii(w, &finest, &widest);
    gp__stage_run_with(w, GP__STAGE_COUPLING_PRESSURE, GP__PROGRAM_COUPLING_PRESSURE, 1, &finest);   /* u_finest */
}

/* The guard, after every system has moved its particles: no fluid particle ends the substep
   inside a grain or a body. */
static void gp__coupling_guard(gp_world* w) {
    if (!w->fluid.phases || !w->dem.phases) return;
    gp__stage_run(w, GP__STAGE_COUPLING_GUARD, GP__PROGRAM_COUPLING_GUARD);
}

/* >>effects ================================================================================
   Effect particles (Kipfer et al. 2004): their materials, the wind, and their stages of the
   substep, effects_collide (their collisions with each other) and effects_move (motion under
   gravity, forces, drag, wind and the fluid they ride, aging, the bounce off the colliders). They
   meet the others through the store, the grid and the colliders; their births are >>emitters',
   their deaths the store's (>>store), their sprites >>draw's. */

/* Resolves material (NULL: the defaults) into the world's table and the solvers' block. */
static void gp__effect_material_store(gp_world* w, uint32_t phase, const gp_effect_material* material) {
    gp_effect_material m;
    int i;
    if (material) m = *material;
    else memset(&m, 0, sizeof m);
    if (m.restitution == 0.0f) m.restitution = 0.5f;
    if (m.friction == 0.0f) m.friction = 0.3f;
    w->effects.materials[phase] = m;
    w->solver_host.effects[phase][0] = m.drag;
    w->solver_host.effects[phase][1] = m.restitution;
    w->solver_host.effects[phase][2] = m.friction;
    w->solver_host.effects[phase][3] = m.ride;
    w->solver_host.effects[phase][4] = m.collide;
    w->effects.collide = false;
    for (i = 0; i < GP_MAX_EFFECT_MATERIALS; ++i) w->effects.collide |= w->effects.materials[i].collide > 0.0f;
}

gp_result gp_effect_material_set(gp_world* world, uint32_t phase, const gp_effect_material* material) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_effect_material_set");
    if (phase >= GP_MAX_EFFECT_MATERIALS)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID,
                                       "phase %u: there are %d effect materials", phase, GP_MAX_EFFECT_MATERIALS));
    if (!material) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "material is NULL"));
    if (!(material->drag >= 0.0f) || !isfinite(material->drag) || !(material->restitution >= 0.0f) ||
        !(material->restitution <= 1.0f) || !(material->friction >= 0.0f) || !isfinite(material->friction) ||
        !(material->ride >= 0.0f) || !isfinite(material->ride) || !(material->collide >= 0.0f) || !(material->collide <= 1.0f))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "drag %g, friction %g and ride %g must be 0 or positive and finite, restitution %g and "
                                       "collide %g 0 to 1", (double)material->drag, (double)material->friction, (double)material->ride,
                                       (double)material->restitution, (double)material->collide));
    gp__effect_material_store(world, phase, material);
    gp__solver_upload(world);
    return gp__end(world, GP_OK);
}

gp_result gp_effect_material_get(gp_world* world, uint32_t phase, gp_effect_material* material) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_effect_material_get");
    if (phase >= GP_MAX_EFFECT_MATERIALS || !material)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, material ? GP_LOG_ITEM_PHASE_INVALID : GP_LOG_ITEM_ARGUMENT_NULL,
                                       material ? "phase %u: there are %d effect materials" : "material is NULL", phase,
                                       GP_MAX_EFFECT_MATERIALS));
    *material = world->effects.materials[phase];
    return gp__end(world, GP_OK);
}

gp_result gp_wind_set(gp_world* world, const gp_wind_desc* wind) {
    float (*g)[4], *copy = NULL;
    gp_wind_desc d;
    gp_result r;
    size_t nodes = 0;
    double len;
    int a;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_wind_set");
    if (wind) d = *wind;
    else memset(&d, 0, sizeof d);
    if ((r = gp__check_vector(world, "uniform", d.uniform)) != GP_OK || (r = gp__check_vector(world, "vortex_center", d.vortex_center)) != GP_OK ||
        (r = gp__check_vector(world, "vortex_axis", d.vortex_axis)) != GP_OK || (r = gp__check_vector(world, "origin", d.origin)) != GP_OK)
        return gp__end(world, r);
    if (d.noise_scale == 0.0f) d.noise_scale = 1.0f;
    if (!(d.noise_speed >= 0.0f) || !isfinite(d.noise_speed) || !(d.noise_scale > 0.0f) || !isfinite(d.noise_scale))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "noise speed %g must be 0 or positive, its scale %g positive, both finite",
                                       (double)d.noise_speed, (double)d.noise_scale));
    if (!isfinite(d.vortex_speed) || (d.vortex_speed != 0.0f && !(d.vortex_radius > 0.0f && isfinite(d.vortex_radius))))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "vortex speed %g must be finite, and its radius %g positive and finite", (double)d.vortex_speed,
                                       (double)d.vortex_radius));
    if (d.grid) {
        if (d.dims[0] < 2 || d.dims[1] < 2 || d.dims[2] < 2 || (double)d.dims[0] * d.dims[1] * d.dims[2] > (double)(1u << 24) ||
            !(d.cell > 0.0f) || !isfinite(d.cell))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                           "a wind grid needs 2 to 2^24 nodes, at least 2 a side (not %u x %u x %u), and a positive "
                                           "cell (not %g)", d.dims[0], d.dims[1], d.dims[2], (double)d.cell));
        nodes = (size_t)d.dims[0] * d.dims[1] * d.dims[2];
        if ((r = gp__check_values(world, "wind", d.grid, (uint32_t)nodes, 3, 3, false)) != GP_OK) return gp__end(world, r);
        if (!(copy = (float*)gp__alloc(&world->desc.allocator, nodes * 3 * sizeof(float))))
            return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                           "no host memory for the wind's %zu nodes", nodes));
        memcpy(copy, d.grid, nodes * 3 * sizeof(float));
    }
    gp__free(&world->desc.allocator, world->effects.wind_grid);
    world->effects.wind_grid = copy;
    world->effects.wind_nodes = nodes;
    len = sqrt((double)d.vortex_axis[0] * d.vortex_axis[0] + (double)d.vortex_axis[1] * d.vortex_axis[1] + (double)d.vortex_axis[2] * d.vortex_axis[2]);
    g = world->solver_host.wind;
    memset(g, 0, sizeof world->solver_host.wind);
    for (a = 0; a < 3; ++a) {
        g[0][a] = d.uniform[a];
        g[1][a] = d.vortex_center[a];
        g[2][a] = len > 0.0 ? (float)(d.vortex_axis[a] / len) : a == 1 ? 1.0f : 0.0f;
        g[3][a] = d.origin[a];
        g[4][a] = d.grid ? (float)d.dims[a] : 0.0f;
    }
    g[1][3] = d.vortex_speed;
    g[2][3] = d.vortex_radius;
    g[3][3] = d.grid ? d.cell : 0.0f;
    g[5][0] = d.noise_speed;
    g[5][1] = d.noise_scale;
    memcpy(&g[5][2], &d.noise_seed, 4);
    return gp__end(world, gp__colliders_upload(world));   /* the grid into the FIELDS buffer, the block */
}

/* The effects' stages, at the end of the substep's moves: their collisions (when a material
   collides), then their flight. */
static void gp__effects_move(gp_world* w) {
    if (!w->effects.any) return;
    if (w->effects.collide) gp__stage_run(w, GP__STAGE_EFFECTS_COLLIDE, GP__PROGRAM_EFFECTS_COLLIDE);
    gp__stage_run(w, GP__STAGE_EFFECTS_MOVE, GP__PROGRAM_EFFECTS_MOVE);
}

/* >>emitters ===============================================================================
   Emitters (Kipfer et al. 2004 section 4.1): the host plans each step's births from the rates (exactly: floor of
   rate times the time, summed in double precision) and the bursts, spreads them over the step's
   substeps, and uploads each substep's share into the emitters' uniform block; emitter_emit
   writes them after the store's count on the GPU, and store_count takes them in (counting those
   with no room or id refused). The host adds every planned birth to its bound of the count. */

static gp__emitter* gp__find_emitter(gp_world* w, gp_emitter handle) {
    uint32_t slot = (handle.id & 0xffu) - 1u;
    if (handle.id == 0 || slot >= GP_MAX_EMITTERS || !w->emitters.emitters[slot].live ||
        w->emitters.emitters[slot].generation != handle.id >> 8)
        return NULL;
    return &w->emitters.emitters[slot];
}

/* The live emitter of a handle, or NULL with the reason logged. */
static gp__emitter* gp__emitter_or_fail(gp_world* w, gp_emitter handle) {
    gp__emitter* e = gp__find_emitter(w, handle);
    if (!e) gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_HANDLE_INVALID, "emitter %u is not live (removed, or never added)", handle.id);
    return e;
}

/* What the world must run for an emitter's particles: ageing, the effects' stages, a fluid's or
   grains' material in the substeps' limits. */
static void gp__emitter_kinds(gp_world* w, const gp_emitter_desc* d) {
    if (d->lifetime[0] > 0.0f) w->store.mortal = true;
    if (d->kind == GP_KIND_EFFECT) w->effects.any = true;
    if (d->kind == GP_KIND_FLUID) w->fluid.phases |= 1u << d->phase;
    if (d->kind == GP_KIND_GRANULAR) w->dem.phases |= 1u << d->phase;
    if (d->kind == GP_KIND_GRANULAR) w->dem.grains = true;
}

/* desc checked, and its zeros resolved. */
static gp_result gp__emitter_resolve(gp_world* w, const gp_emitter_desc* desc, gp_emitter_desc* out) {
    gp_emitter_desc d;
    double len;
    gp_result r;
    if (!desc) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL");
    d = *desc;
    if (d.shape == GP_EMITTER_DEFAULT) d.shape = GP_EMITTER_POINT;
    if (d.kind == GP_KIND_DEFAULT) d.kind = GP_KIND_EFFECT;
    if ((int)d.shape < (int)GP_EMITTER_POINT || (int)d.shape > (int)GP_EMITTER_POUR)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE, "shape %d is not a gp_emitter_shape", (int)d.shape);
    if ((int)d.kind <= (int)GP_KIND_DEFAULT || (int)d.kind >= (int)GP_KIND_COUNT)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE, "kind %d is not a gp_kind", (int)d.kind);
    if (d.kind == GP_KIND_RIGID || d.kind == GP_KIND_CLOTH)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "kind %d: bodies' and cloth's particles come with their owners, not from emitters", (int)d.kind);
    if (d.shape == GP_EMITTER_SPRAY && d.kind != GP_KIND_EFFECT)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "kind %d: a spray emitter gives birth to effect particles only", (int)d.kind);
    if (d.shape == GP_EMITTER_MESH && d.kind == GP_KIND_FLUID)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "a mesh emitter gives birth to effect particles and grains, not fluid");
    if (d.shape == GP_EMITTER_MESH && d.vertices && (r = gp__mesh_check(w, d.vertices, d.vertex_count, d.triangles, d.triangle_count)) != GP_OK)
        return r;
    if (d.max_per_substep == 0) d.max_per_substep = w->capacity / 64 ? w->capacity / 64 : 1;
    if ((d.kind == GP_KIND_FLUID && d.phase >= GP_MAX_FLUID_MATERIALS) || (d.kind == GP_KIND_GRANULAR && d.phase >= GP_MAX_GRANULAR_MATERIALS) ||
        d.phase > 0xffffu)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_PHASE_INVALID, "phase %u is beyond its kind's materials", d.phase);
    if ((r = gp__check_vector(w, "position", d.position)) != GP_OK || (r = gp__check_vector(w, "direction", d.direction)) != GP_OK ||
        (r = gp__check_vector(w, "half_extents", d.half_extents)) != GP_OK)
        return r;
    if (!(d.spread >= 0.0f && d.spread <= 3.1415927f) || !(d.radius >= 0.0f) || !isfinite(d.radius) ||
        !(d.rate >= 0.0f && d.rate <= 1e12f) ||   /* beyond, floor(rate t) leaves a 64-bit count within days */
        !(d.half_extents[0] >= 0.0f && d.half_extents[1] >= 0.0f && d.half_extents[2] >= 0.0f))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "spread %g (0 to pi), radius %g, half_extents and rate %g (0 to 1e12 a second) out of range",
                        (double)d.spread, (double)d.radius, (double)d.rate);
    if (!(d.speed[0] >= 0.0f) || !isfinite(d.speed[0]) || !isfinite(d.speed[1]) || !(d.lifetime[0] >= 0.0f) || !isfinite(d.lifetime[0]) ||
        !isfinite(d.lifetime[1]))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "speed [%g, %g] and lifetime [%g, %g] must be finite, from 0", (double)d.speed[0], (double)d.speed[1],
                        (double)d.lifetime[0], (double)d.lifetime[1]);
    if (d.speed[1] < d.speed[0]) d.speed[1] = d.speed[0];
    if (d.shape == GP_EMITTER_POUR && !(d.speed[0] > 0.0f))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE, "a pour's speed[0] %g must be positive",
                        (double)d.speed[0]);
    if (d.lifetime[1] < d.lifetime[0]) d.lifetime[1] = d.lifetime[0];
    if (d.lifetime[0] == 0.0f && d.lifetime[1] > 0.0f)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "lifetime [0, %g]: a range from 0 would give some particles no life; 0 0 is forever", (double)d.lifetime[1]);
    len = sqrt((double)d.direction[0] * d.direction[0] + (double)d.direction[1] * d.direction[1] + (double)d.direction[2] * d.direction[2]);
    if (len == 0.0) { d.direction[1] = 1.0f; len = 1.0; }
    d.direction[0] = (float)(d.direction[0] / len); d.direction[1] = (float)(d.direction[1] / len); d.direction[2] = (float)(d.direction[2] / len);
    if (d.kind == GP_KIND_GRANULAR) {   /* as gp_particles_add gives a grain */
        if (d.particle_radius == 0.0f) d.particle_radius = 0.5f * w->dem.materials[d.phase].diameter;
        if (d.mass == 0.0f) d.mass = gp__grain_mass(w->dem.materials[d.phase].density, d.particle_radius);
    } else if (d.kind == GP_KIND_FLUID) {
        if (d.particle_radius == 0.0f) d.particle_radius = 0.5f * w->fluid.materials[d.phase].spacing;
        if (d.mass == 0.0f) d.mass = w->fluid.materials[d.phase].mass;
    }
    if (d.particle_radius == 0.0f) d.particle_radius = 0.5f * w->desc.grid.cell_size;
    if (d.mass == 0.0f) d.mass = 1.0f;
    if (!(d.particle_radius > 0.0f) || !isfinite(d.particle_radius) || !(d.mass > 0.0f) || !isfinite(d.mass))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "particle_radius %g and mass %g must be positive and finite", (double)d.particle_radius, (double)d.mass);
    {   /* the drawing's curves: 0 or more, finite; all zero, the defaults */
        float size_sum = 0.0f, color_sum = 0.0f;
        int k, c;
        for (k = 0; k < 4; ++k) {
            if (!(d.size[k] >= 0.0f) || !isfinite(d.size[k]))
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE, "size[%d] %g must be 0 or more, finite", k,
                                (double)d.size[k]);
            size_sum += d.size[k];
            for (c = 0; c < 4; ++c) {
                if (!(d.color[k][c] >= 0.0f) || !isfinite(d.color[k][c]))
                    return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE, "color[%d][%d] %g must be 0 or more, finite",
                                    k, c, (double)d.color[k][c]);
                color_sum += d.color[k][c];
            }
        }
        for (k = 0; k < 4; ++k) {
            if (size_sum == 0.0f) d.size[k] = 1.0f;
            for (c = 0; c < 4 && color_sum == 0.0f; ++c) d.color[k][c] = 1.0f;
        }
    }
    *out = d;
    return GP_OK;
}

/* A mesh emitter's triangles as the GPU samples them: 12 floats a triangle (three corners about
   the emitter's position), the first corner's w the cumulative share of the area up to and with
   it (the last exactly 1); triangles of no area left out. NULL, logged, for a mesh of no area. */
static float* gp__emitter_mesh(gp_world* w, const gp_emitter_desc* d, uint32_t* count) {
    float* t = (float*)gp__alloc(&w->desc.allocator, (size_t)d->triangle_count * 12 * sizeof(float));
    double total = 0.0, sum = 0.0, *areas;
    uint32_t i, n = 0;
    int c, k;
    *count = 0;
    areas = (double*)gp__alloc(&w->desc.allocator, (size_t)d->triangle_count * sizeof *areas);
    if (!t || !areas) {
        gp__free(&w->desc.allocator, t);
        gp__free(&w->desc.allocator, areas);
        gp__fail(w, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY, "no host memory for %u triangles", d->triangle_count);
        return NULL;
    }
    for (i = 0; i < d->triangle_count; ++i) {
        const float* p[3];
        double e1[3], e2[3], x[3];
        for (k = 0; k < 3; ++k) p[k] = d->vertices + 3 * (size_t)d->triangles[3 * (size_t)i + k];
        for (c = 0; c < 3; ++c) { e1[c] = (double)p[1][c] - p[0][c]; e2[c] = (double)p[2][c] - p[0][c]; }
        x[0] = e1[1] * e2[2] - e1[2] * e2[1]; x[1] = e1[2] * e2[0] - e1[0] * e2[2]; x[2] = e1[0] * e2[1] - e1[1] * e2[0];
        areas[n] = 0.5 * sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (!(areas[n] > 0.0)) continue;
        for (k = 0; k < 3; ++k)
            for (c = 0; c < 4; ++c) t[12 * (size_t)n + 4 * k + c] = c < 3 ? p[k][c] : 0.0f;
        total += areas[n++];
    }
    for (i = 0; i < n; ++i) {
        sum += areas[i];
        t[12 * (size_t)i + 3] = i + 1 == n ? 1.0f : (float)(sum / total);
    }
    gp__free(&w->desc.allocator, areas);
    if (n == 0) {
        gp__free(&w->desc.allocator, t);
        gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID, "the mesh's %u triangles have no area", d->triangle_count);
        return NULL;
    }
    *count = n;
    return t;
}

/* Every live mesh emitter's triangles, one after another, into the triangles' buffer. */
static gp_result gp__emitters_triangles_upload(gp_world* w) {
    size_t total = 0, at = 0;
    uint32_t i;
    gp_result r;
    for (i = 0; i < GP_MAX_EMITTERS; ++i)
        if (w->emitters.emitters[i].live) total += w->emitters.emitters[i].triangle_count;
    if (total == 0) return GP_OK;
    if ((r = gp__buffer_grow(w, &w->emitters.triangles, &w->emitters.triangles_bytes, total * 48, 0, "the emitters' triangles")) != GP_OK)
        return r;
    for (i = 0; i < GP_MAX_EMITTERS; ++i) {
        gp__emitter* e = &w->emitters.emitters[i];
        if (!e->live || !e->triangle_count) continue;
        e->first_triangle = (uint32_t)at;
        gp__buffer_upload(w, w->emitters.triangles, at * 48, (size_t)e->triangle_count * 48, e->triangles);
        at += e->triangle_count;
    }
    return GP_OK;
}

gp_result gp_emitter_add(gp_world* world, const gp_emitter_desc* desc, gp_emitter* emitter) {
    gp_emitter_desc d;
    gp__emitter* e;
    uint32_t slot;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_add");
    world->step.moved = true;   /* its births: the contact passes have not seen them (gp__contacts_unseen) */
    if (!emitter) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "emitter is NULL"));
    emitter->id = 0;
    if ((r = gp__emitter_resolve(world, desc, &d)) != GP_OK) return gp__end(world, r);
    for (slot = 0; slot < GP_MAX_EMITTERS && world->emitters.emitters[slot].live; ++slot) {}
    if (slot == GP_MAX_EMITTERS)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, GP_LOG_ITEM_TABLE_FULL, "%d emitters are live: at most %d",
                                       GP_MAX_EMITTERS, GP_MAX_EMITTERS));
    if (!world->emitters.table &&
        (r = gp__buffer_new(world, sizeof world->emitters.block, NULL, "the emitters' table", &world->emitters.table)) != GP_OK)
        return gp__end(world, r);
    if (d.shape == GP_EMITTER_SPRAY && !world->emitters.flags &&
        ((r = gp__buffer_new(world, (size_t)world->capacity * 4, NULL, "a spray's flags", &world->emitters.flags)) != GP_OK ||
         (r = gp__buffer_new(world, (size_t)world->capacity * 4, NULL, "a spray's sources", &world->emitters.sources)) != GP_OK))
        return gp__end(world, r);
    if (d.shape == GP_EMITTER_MESH && !d.vertices)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID, "a mesh emitter needs its mesh"));
    if (d.shape == GP_EMITTER_MESH) {
        uint32_t n;
        float* t = gp__emitter_mesh(world, &d, &n);
        if (!t) return gp__end(world, world->last_result);
        e = &world->emitters.emitters[slot];
        e->triangles = t;
        e->triangle_count = n;
        e->live = true;
        if ((r = gp__emitters_triangles_upload(world)) != GP_OK) {
            e->live = false;
            gp__free(&world->desc.allocator, e->triangles);
            e->triangles = NULL;
            e->triangle_count = 0;
            return gp__end(world, r);
        }
    }
    e = &world->emitters.emitters[slot];
    e->generation = (e->generation + 1u) & 0xffffffu;
    if (e->generation == 0) e->generation = 1;
    e->live = true;
    d.vertices = NULL; d.triangles = NULL;   /* copied */
    e->desc = d;
    e->time = 0.0;
    e->by_rate = e->emitted = 0;
    e->burst = e->step_births = e->step_burst = e->serial = 0;
    e->clock = e->owed = 0.0;
    e->layers_dropped = false;
    world->emitters.any = true;
    gp__emitter_kinds(world, &d);
    emitter->id = e->generation << 8 | (slot + 1u);
    return gp__end(world, GP_OK);
}

gp_result gp_emitter_set(gp_world* world, gp_emitter emitter, const gp_emitter_desc* desc) {
    gp__emitter* e;
    gp_emitter_desc d;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_set");
    world->step.moved = true;   /* its births: the contact passes have not seen them (gp__contacts_unseen) */
    if (!(e = gp__emitter_or_fail(world, emitter))) return gp__end(world, GP_ERROR_INVALID_ARGUMENT);
    if ((r = gp__emitter_resolve(world, desc, &d)) != GP_OK) return gp__end(world, r);
    if (d.shape == GP_EMITTER_MESH && !d.vertices && !e->triangle_count)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_MESH_INVALID, "a mesh emitter needs its mesh"));
    if (d.shape == GP_EMITTER_MESH && d.vertices) {   /* a new mesh */
        uint32_t n;
        float* t = gp__emitter_mesh(world, &d, &n);
        if (!t) return gp__end(world, world->last_result);
        gp__free(&world->desc.allocator, e->triangles);
        e->triangles = t;
        e->triangle_count = n;
        if ((r = gp__emitters_triangles_upload(world)) != GP_OK) return gp__end(world, r);
    }
    if (d.rate != e->desc.rate) { e->time = 0.0; e->by_rate = 0; }   /* the new rate counts from now */
    d.vertices = NULL; d.triangles = NULL;
    e->desc = d;
    gp__emitter_kinds(world, &d);
    return gp__end(world, GP_OK);
}

gp_result gp_emitter_get(gp_world* world, gp_emitter emitter, gp_emitter_desc* desc) {
    gp__emitter* e;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_get");
    if (!desc) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL"));
    if (!(e = gp__emitter_or_fail(world, emitter))) return gp__end(world, GP_ERROR_INVALID_ARGUMENT);
    *desc = e->desc;
    return gp__end(world, GP_OK);
}

gp_result gp_emitter_burst(gp_world* world, gp_emitter emitter, uint32_t count) {
    gp__emitter* e;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_burst");
    if (!(e = gp__emitter_or_fail(world, emitter))) return gp__end(world, GP_ERROR_INVALID_ARGUMENT);
    if (count > world->capacity - (e->burst < world->capacity ? e->burst : world->capacity))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "a burst of %u after %u waiting: more than the store's %u", count, e->burst, world->capacity));
    e->burst += count;
    return gp__end(world, GP_OK);
}

gp_result gp_emitter_remove(gp_world* world, gp_emitter emitter) {
    gp__emitter* e;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_remove");
    if (!(e = gp__emitter_or_fail(world, emitter))) return gp__end(world, GP_ERROR_INVALID_ARGUMENT);
    e->live = false;
    gp__free(&world->desc.allocator, e->triangles);
    e->triangles = NULL;
    e->triangle_count = 0;
    return gp__end(world, GP_OK);
}

uint32_t gp_emitter_number(const gp_world* world, gp_emitter emitter) {
    uint32_t slot = (emitter.id & 0xffu) - 1u;
    if (!world || emitter.id == 0 || slot >= GP_MAX_EMITTERS || !world->emitters.emitters[slot].live ||
        world->emitters.emitters[slot].generation != emitter.id >> 8)
        return GP_NO_OWNER;
    return slot;
}

gp_result gp_emitter_stats_get(gp_world* world, gp_emitter emitter, gp_emitter_stats* stats) {
    gp__emitter* e;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_emitter_stats_get");
    if (!stats) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "stats is NULL"));
    if (!(e = gp__emitter_or_fail(world, emitter))) return gp__end(world, GP_ERROR_INVALID_ARGUMENT);
    stats->emitted = e->emitted;
    stats->refused = world->store.refused_births;
    return gp__end(world, GP_OK);
}

/* An emitter's row of the table but its births (gp_emitter.glsl's gp_emitter). */
static void gp__emitter_row(const gp__emitter* e, uint32_t number, gp__emitter_gpu* g) {
    const gp_emitter_desc* d = &e->desc;
    g->position[0] = d->position[0]; g->position[1] = d->position[1]; g->position[2] = d->position[2]; g->position[3] = (float)d->shape;
    g->axis[0] = d->direction[0]; g->axis[1] = d->direction[1]; g->axis[2] = d->direction[2]; g->axis[3] = d->spread;
    g->extent[0] = d->half_extents[0]; g->extent[1] = d->half_extents[1]; g->extent[2] = d->half_extents[2]; g->extent[3] = d->radius;
    g->motion[0] = d->speed[0]; g->motion[1] = d->speed[1]; g->motion[2] = d->particle_radius; g->motion[3] = d->mass;
    g->life[0] = d->lifetime[0]; g->life[1] = d->lifetime[1]; g->life[2] = g->life[3] = 0.0f;
    g->info[0] = (uint32_t)d->kind | d->phase << 16; g->info[1] = number; g->info[2] = d->user; g->info[3] = d->seed;
    memcpy(g->size, d->size, sizeof g->size);
    memcpy(g->color, d->color, sizeof g->color);
    g->mesh[0] = e->first_triangle; g->mesh[1] = e->triangle_count; g->mesh[2] = g->mesh[3] = 0;
}

/* A step's births for every emitter: floor(rate t) since its rate was set, less those given, and
   its burst; spread over the step's substeps by gp__emitters_substep. */
static void gp__emitters_plan(gp_world* w, float dt, uint32_t substeps) {
    uint32_t i;
    w->emitters.substep = 0;
    w->emitters.substeps = substeps;
    w->emitters.h = dt / (float)(substeps ? substeps : 1);
    for (i = 0; i < GP_MAX_EMITTERS; ++i) {
        gp__emitter* e = &w->emitters.emitters[i];
        double total;
        uint64_t births;
        e->step_births = 0;
        if (!e->live) continue;
        e->time += (double)dt;
        total = floor((double)e->desc.rate * e->time);
        if (total < 9.0e18) {
            births = (uint64_t)total - e->by_rate;
            e->by_rate = (uint64_t)total;
        } else {   /* an absurd dt (the API takes any finite one): past uint64_t; the store's room is */
            births = w->capacity;   /* born and the tally starts again (time 0, none yet) */
            e->time = 0.0;
            e->by_rate = 0;
        }
        e->step_births = births > w->capacity ? w->capacity : (uint32_t)births;   /* more is refused anyway */
        e->step_burst = e->burst;
        e->burst = 0;
    }
}

/* The substep's births (emitter_emit.comp): substep s of S gives each emitter
   floor(B (s + 1) / S) - floor(B s / S) of the B its rate gives the step, and the first its burst; the host's bound
   of the count grows by them all. */
/* The table's emission word for `births` births (gp__store_births: the ids, the host's bound). */
static uint32_t gp__emitters_ids(gp_world* w, uint32_t births) {
    gp__emitter_block* block = &w->emitters.block;
    uint32_t first, fresh = gp__store_births(w, births, &first);
    block->emission[0] = births; block->emission[2] = fresh; block->emission[3] = first;
    return fresh;
}

/* A pour emitter's layers due in the substep of h seconds: one every spacing / speed, each of the
   births its rate gave by then (at most 1,024), its lead the distance the stream moved since. */
static void gp__emitter_pour(gp_world* w, uint32_t i, double h) {
    gp__emitter* e = &w->emitters.emitters[i];
    const gp_emitter_desc* d = &e->desc;
    gp__layer l;
    float spacing = d->kind == GP_KIND_FLUID ? w->fluid.materials[d->phase].spacing
                  : d->kind == GP_KIND_GRANULAR ? w->dem.materials[d->phase].diameter : 2.0f * d->particle_radius;
    double interval;
    float jitter = d->radius;
    if (d->kind != GP_KIND_FLUID) {   /* jittered grains never born overlapping: the lattice 1 + 2 jitter sizes apart */
        spacing *= 1.0f + 2.0f * d->radius;
        jitter = d->radius / (1.0f + 2.0f * d->radius);   /* the same metres, in the wider lattice's spacings */
    }
    interval = spacing / d->speed[0];
    memset(&l, 0, sizeof l);
    memcpy(l.center, d->position, sizeof l.center);
    memcpy(l.direction, d->direction, sizeof l.direction);
    l.spacing = spacing; l.speed = d->speed[0]; l.radius = d->particle_radius; l.mass = d->mass; l.lifetime = d->lifetime[0];
    l.kind = (uint32_t)d->kind | d->phase << 16; l.owner = i; l.user = d->user;
    l.jitter = jitter; l.seed = d->seed;
    e->clock += h;
    if (!gp__layers_bound(w, &e->clock, interval, &e->layers_dropped, "emitter", i)) return;
    while (e->clock >= interval) {
        e->clock -= interval;
        e->owed += (double)d->rate * interval;
        l.n = e->owed > 1024.0 ? 1024u : (uint32_t)e->owed;
        l.lead = (float)(e->clock * d->speed[0]);
        e->owed -= l.n;
        e->emitted += l.n;
        l.serial = e->serial++;
        gp__store_layer(w, &l);
    }
    if (d->speed[0] > w->step.added_speed) w->step.added_speed = d->speed[0];
}

/* A spray emitter's births (spray_flags, the library's compaction, spray_emit): the fluid particles
   faster than its speed[0] that draw a birth this substep, listed in slot order, each giving one,
   at most max_per_substep (by which the host's bound of the count grows). */
static void gp__emitter_spray(gp_world* w, uint32_t i) {
    gp__emitter* e = &w->emitters.emitters[i];
    gp__emitter_block* block = &w->emitters.block;
    uint32_t slots = w->count, limit = e->desc.max_per_substep < w->capacity ? e->desc.max_per_substep : w->capacity, fresh, timer;
    if (slots == 0) return;
    fresh = gp__emitters_ids(w, limit);
    block->emitters[i].births[2] = e->serial++;   /* the substep's serial: its chances and kicks */
    gp__buffer_upload(w, w->emitters.table, 0, sizeof *block, block);
    w->gl.fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 2, w->emitters.table);
    timer = gp__timer_begin(w, GP__STAGE_EMITTER_SPRAY);
    gp__use(w, GP__PROGRAM_SPRAY_FLAGS);
    gp__bind(w, GP__ROLE_SCAN_INPUT, w->emitters.flags);
    w->gl.fnUniform1ui(0, slots);
    w->gl.fnUniform1ui(1, i);
    w->gl.fnUniform1f(2, e->desc.rate * w->emitters.h);
    gp__dispatch(w, gp__groups(slots, GP_GROUP_SIZE));
    gp__scan_level(w, w->emitters.flags, w->emitters.sources, slots, true, w->store.words,
                   (uint32_t)(offsetof(gp__store_words, spray) / 4), 0);   /* the sources, in order; their count in store_spray */
    gp__use(w, GP__PROGRAM_SPRAY_EMIT);
    gp__bind(w, GP__ROLE_SCAN_OUTPUT, w->emitters.sources);
    w->gl.fnUniform1ui(0, limit);
    w->gl.fnUniform1ui(1, i);
    gp__dispatch(w, gp__groups(limit, GP_GROUP_SIZE));
    gp__timer_end(w, timer);
    gp__store_count(w, limit, fresh, block->emission[3], true);
}

/* A mesh emitter's births of the substep (emitter_mesh.comp), its own pass: the triangles' buffer
   is one role too many for emitter_emit's eight. */
static void gp__emitter_mesh_births(gp_world* w, uint32_t i) {
    gp__emitter* e = &w->emitters.emitters[i];
    gp__emitter_block* block = &w->emitters.block;
    uint32_t births = e->mesh_births, fresh = gp__emitters_ids(w, births), timer;
    block->emitters[i].births[0] = 0;
    block->emitters[i].births[1] = births;
    block->emitters[i].births[2] = e->serial;
    e->serial += births;
    e->emitted += births;
    if (e->desc.speed[1] > w->step.added_speed) w->step.added_speed = e->desc.speed[1];
    gp__buffer_upload(w, w->emitters.table, 0, sizeof *block, block);
    w->gl.fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 2, w->emitters.table);
    timer = gp__timer_begin(w, GP__STAGE_EMITTER_EMIT);
    gp__use(w, GP__PROGRAM_EMITTER_MESH);
    gp__bind(w, GP__ROLE_TRIANGLES, w->emitters.triangles);
    w->gl.fnUniform1ui(0, i);
    gp__dispatch(w, gp__groups(births, GP_GROUP_SIZE));
    gp__timer_end(w, timer);
    gp__store_count(w, births, fresh, block->emission[3], false);
}

/* True while an emitter gives birth to grains: the contact passes have not seen its newborn, so
   every substep takes the contacts' limit (gp__contacts_unseen; the step plans them). */
static bool gp__emitters_grains(const gp_world* w) {
    uint32_t i;
    for (i = 0; i < GP_MAX_EMITTERS; ++i)
        if (w->emitters.emitters[i].live && w->emitters.emitters[i].desc.kind == GP_KIND_GRANULAR) return true;
    return false;
}

static void gp__emitters_substep(gp_world* w) {
    gp__emitter_block* block = &w->emitters.block;
    uint32_t i, n = 0, births = 0, fresh, s = w->emitters.substep++, substeps = w->emitters.substeps ? w->emitters.substeps : 1;
    uint32_t timer;
    if (!w->emitters.any) return;
    for (i = 0; i < GP_MAX_EMITTERS; ++i) {
        gp__emitter* e = &w->emitters.emitters[i];
        gp__emitter_gpu* g = &block->emitters[i];
        uint64_t b = e->step_births;
        uint64_t k = e->live && s < substeps ? b * (s + 1) / substeps - b * s / substeps + (s == 0 ? e->step_burst : 0) : 0;
        const gp_emitter_desc* d = &e->desc;
        if (d->shape == GP_EMITTER_SPRAY) k = 0;   /* the GPU decides its births: below */
        if (d->shape == GP_EMITTER_MESH) { e->mesh_births = (uint32_t)k; k = 0; }   /* its own pass: below */
        if (d->shape == GP_EMITTER_POUR) k = 0;   /* its layers: below */
        if (births + (uint64_t)k > w->capacity) k = w->capacity - births;
        gp__emitter_row(e, i, g);
        g->births[0] = births; g->births[1] = (uint32_t)k; g->births[2] = e->serial; g->births[3] = 0;
        e->serial += (uint32_t)k;
        e->emitted += k;
        births += (uint32_t)k;
        if (e->live) n = i + 1;
        if (k && d->speed[1] > w->step.added_speed) w->step.added_speed = d->speed[1];
    }
    block->emission[1] = n;
    if (gp__emitters_grains(w)) gp__contacts_unseen(w);   /* grains born this substep: the contact passes have not seen them */
    if (births) {
        fresh = gp__emitters_ids(w, births);
        timer = gp__timer_begin(w, GP__STAGE_EMITTER_EMIT);
        gp__buffer_upload(w, w->emitters.table, 0, 16 + (size_t)n * sizeof block->emitters[0], block);
        w->gl.fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 2, w->emitters.table);
        gp__use(w, GP__PROGRAM_EMITTER_EMIT);
        w->gl.fnUniform1ui(0, w->fluid.state != 0);
        gp__dispatch(w, gp__groups(births, GP_GROUP_SIZE));
        gp__timer_end(w, timer);
        gp__store_count(w, births, fresh, block->emission[3], false);
    }
    for (i = 0; i < GP_MAX_EMITTERS; ++i) {
        gp__emitter* e = &w->emitters.emitters[i];
        if (e->live && e->desc.shape == GP_EMITTER_SPRAY) gp__emitter_spray(w, i);
        if (e->live && e->desc.shape == GP_EMITTER_MESH && e->mesh_births) gp__emitter_mesh_births(w, i);
        if (e->live && e->desc.shape == GP_EMITTER_POUR) gp__emitter_pour(w, i, w->emitters.h);
    }
}

/* >>step ===================================================================================
   The world's step. gravity and the user's forces, which every system feels; the substep, a
   pipeline of the systems' stages in one stated order; and gp_world_step, which plans the
   substeps from every system's limit and runs them, each one's length checked first on the GPU
   against the speeds of the moment (the clock, step_clock.comp). */

/* ---- gravity and forces ---- */

gp_result gp_gravity_set(gp_world* world, const float gravity[3]) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_gravity_set");
    if ((r = gp__check_vector(world, "gravity", gravity)) != GP_OK) return gp__end(world, r);
    memcpy(world->solver_host.gravity, gravity, 3 * sizeof(float));
    gp__solver_upload(world);
    return gp__end(world, GP_OK);
}

gp_result gp_forces_set(gp_world* world, const gp_force* forces, uint32_t count) {
    uint32_t i;
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_forces_set");
    if (count > GP_MAX_FORCES) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                                              "%u forces: at most %d", count, GP_MAX_FORCES));
    if (count && !forces) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                         "forces is NULL"));
    for (i = 0; i < count; ++i) {
        const gp_force* f = &forces[i];
        if (f->type != GP_FORCE_UNIFORM && f->type != GP_FORCE_RADIAL)
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                                           "force %u: type %d is not a gp_force_type", i, (int)f->type));
        if ((r = gp__check_vector(world, "a force's center", f->center)) != GP_OK ||
            (r = gp__check_vector(world, "a force's vector", f->vector)) != GP_OK)
            return gp__end(world, r);
        if (!isfinite(f->strength) || !(f->radius >= 0.0f) || !isfinite(f->radius))
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                           "force %u: strength %g must be finite and radius %g 0 or positive",
                                           i, (double)f->strength, (double)f->radius));
    }
    for (i = 0; i < count; ++i) {
        float* g = world->solver_host.forces[i];
        const gp_force* f = &forces[i];
        g[0] = f->center[0]; g[1] = f->center[1]; g[2] = f->center[2]; g[3] = f->type == GP_FORCE_UNIFORM ? 1.0f : 2.0f;
        g[4] = f->type == GP_FORCE_UNIFORM ? f->vector[0] : f->strength;
        g[5] = f->type == GP_FORCE_UNIFORM ? f->vector[1] : 0.0f;
        g[6] = f->type == GP_FORCE_UNIFORM ? f->vector[2] : 0.0f;
        g[7] = f->radius;
    }
    world->solver_host.counts[1] = count;
    gp__solver_upload(world);
    return gp__end(world, GP_OK);
}

/* ---- the step ---- */

/* The largest acceleration gravity and the user's forces give a particle (m/s^2): a bound for
   the clock's look-ahead of the contacts (step_clock.comp). */
static float gp__acceleration_bound(const gp_world* w) {
    const float* g = w->solver_host.gravity;
    double a = sqrt((double)g[0] * g[0] + (double)g[1] * g[1] + (double)g[2] * g[2]);
    uint32_t i;
    for (i = 0; i < w->solver_host.counts[1] && i < GP_MAX_FORCES; ++i) {
        const float* f = w->solver_host.forces[i];
        a += sqrt((double)f[4] * f[4] + (double)f[5] * f[5] + (double)f[6] * f[6]);   /* uniform: the vector; radial: |strength| */
    }
    return (float)a;
}

/* The solvers' statistics of a substep (gp__stats): max speed 0, min density FLT_MAX, max
   density 0, wall pushes 0; the non-finite updates are kept. */
static void gp__stats_reset(gp_world* w) {
    const uint32_t words[4] = {0u, 0x7f7fffffu, 0u, 0u};   /* 0, FLT_MAX, 0, 0 as bits */
    const uint32_t solids[2] = {0x7f7fffffu, 0u};           /* the smallest gap FLT_MAX, the largest radius 0 */
    gp__buffer_upload(w, w->grid_stats, GP__STATS_SUBSTEP_AT, sizeof words, words);
    gp__buffer_upload(w, w->grid_stats, offsetof(gp__stats, solid_gap), sizeof solids, solids);
}

/* The step's clock (step_clock.comp): the substep about to run, from the speeds the one before
   left, written into the solvers' block (gravity.w) on the GPU, without a readback. */
static void gp__step_clock(gp_world* w) {
    uint32_t timer = gp__timer_begin(w, GP__STAGE_STEP_CLOCK);
    gp__use(w, GP__PROGRAM_STEP_CLOCK);
    gp__dispatch(w, 1);   /* its barrier orders the copy after the write */
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, w->grid_stats);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, w->solver);
    w->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__stats, clock_h),
                              offsetof(gp__solver_params, gravity) + 3 * sizeof(float), sizeof(float));
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
    gp__timer_end(w, timer);
}

/* THE SUBSTEP of h seconds: every system's stages in one stated order, the whole pipeline on one
   screen, so that a reader sees every system's place and order at once (HACKING.md). A system
   adds its stages here, in its place, and meets the others only through the store, the grid and
   the documented per-particle fields; no system calls another. The order: emitters, the clock,
   ageing, the grid (which takes the dead out of the store), coupling, fluid, grains and bodies,
   effects (each system integrates its own kinds at the end of its stages; cloth, when it comes,
   takes its place before the effects). A moving substep's length is the clock's,
   chosen on the GPU (h is the host's plan, which it may shorten). integrate false computes
   without moving (gp_fluid_compute): no emitter runs, nothing moves, h is used as it is. */
static gp_result gp__world_substep(gp_world* w, float h, bool integrate) {
    gp_result r = GP_OK;
    if (integrate) r = gp__pours_run(w, h);          /* emitters: the pours (>>sph) */
    if (r != GP_OK) return r;
    if (integrate) gp__emitters_substep(w);          /* and the emitters' births on the GPU (>>emitters) */
    w->solver_host.gravity[3] = h;                   /* the substep and the integrator: the solvers' block's first 32 bytes */
    gp__buffer_upload(w, w->solver, 0, sizeof w->solver_host.gravity + sizeof w->solver_host.counts, &w->solver_host);
    if (integrate) {
        gp__step_clock(w);                           /* the substep's length, from the speeds now (>>step) */
        gp__store_age(w);                            /* lifetimes run: the build below takes out the dead (>>store) */
    }
    if ((r = gp__grid_build(w)) != GP_OK) return r;  /* the one grid over every kind, the store compacted (>>grid) */
    gp__stats_reset(w);
    gp__fluid_density(w);                            /* SPH density and pressure, solids as boundary (>>sph) */
    gp__coupling_pressure(w);                        /* the solids' pressure, from the fluid around them (>>coupling) */
    gp__fluid_force(w);                              /* SPH forces, the solids pushing with it (>>sph) */
    if ((r = gp__dem_contacts(w)) != GP_OK) return r;   /* contacts of grains and rigid particles (>>dem) */
    if ((r = gp__coupling_substep(w)) != GP_OK) return r;   /* the solids' share of the fluid's forces, the grains' drag (>>coupling) */
    if (integrate) {                                 /* every force is in: the moves */
        gp__fluid_move(w);                           /* the fluid (>>sph) */
        gp__dem_move(w);                             /* the grains (>>dem) */
        gp__rigid_substep(w);                        /* the bodies' update and their particles (>>rigid) */
        gp__coupling_guard(w);                       /* no fluid left inside a solid (>>coupling) */
        gp__effects_move(w);                         /* the effect particles fly and bounce (>>effects) */
    }
    w->step.last_substep = h;
    return GP_OK;
}

/* Warns, once while it lasts, when the statistics of the step before last show particles the grid
   files badly: outside a bounded grid's box (or beyond the hash's range), clamped into its edge
   cells, where every neighbour loop visits them all; or buckets holding more than GP_GRID_CROWD. A
   crowd there costs time as the square of its size: nothing is dropped, but a step can take
   minutes (a body thrown out of the box with its 2,608 particles made every step of llvmpipe's
   a matter of minutes; found by a hostile-input run, 2026-11-29). */
static void gp__step_warn_grid(gp_world* w, const gp__step_words* words) {
    bool bounded = w->desc.grid.mode == GP_GRID_BOUNDED;
    if (words->outside && !w->step.outside_warned)
        GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_PARTICLES_OUTSIDE_GRID,
                "gp_world_step: %u particles are %s: they are kept, clamped into its edge cells, where every "
                "neighbour loop visits all of them (time grows as their number squared); %s", words->outside,
                bounded ? "outside the bounded grid's box" : "beyond the hashed grid's range (2^30 cells from the origin)",
                bounded ? "wall them in with a container collider, widen the box (gp_grid_desc.dims) or use a hashed grid"
                        : "keep them within range or remove them");
    w->step.outside_warned = words->outside != 0u;
    if (words->crowded && !w->step.crowded_warned)
        GP__LOG(w, GP_LOG_WARNING, GP_LOG_ITEM_BUCKETS_CROWDED,
                "gp_world_step: %u particles sit past the %u-th of their grid bucket, where every neighbour loop visits "
                "all of them: particles heaped on one spot, a cell (%g m) much wider than their spacing%s",
                words->crowded, GP_GRID_CROWD, (double)w->desc.grid.cell_size,
                bounded ? "" : ", or too few buckets for the particles (gp_grid_desc.buckets)");
    w->step.crowded_warned = words->crowded != 0u;
}

gp_result gp_world_step(gp_world* world, const gp_step_desc* desc) {
    gp_step_desc d;
    float sound, spacing, viscous, h, cfl, dem_limit, limit;
    double needed, owed, free_count;
    bool fixed, capped;
    uint32_t s, i;
    gp__step_words words;
    gp__stats clock;
    gp_result r = GP_OK;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_world_step");
    if (!desc) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL"));
    d = *desc;
    if ((r = gp__check_dt(world, d.dt)) != GP_OK) return gp__end(world, r);
    if (d.max_cfl == 0.0f) d.max_cfl = 1.0f;
    if (d.integrator == GP_INTEGRATOR_DEFAULT) d.integrator = GP_INTEGRATOR_SYMPLECTIC_EULER;
    if (!(d.max_cfl > 0.0f) || !isfinite(d.max_cfl))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "max_cfl %g must be positive and finite", (double)d.max_cfl));
    if (d.integrator != GP_INTEGRATOR_SYMPLECTIC_EULER && d.integrator != GP_INTEGRATOR_EXPLICIT_EULER)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                                       "integrator %d is not a gp_integrator", (int)d.integrator));
    if (d.substeps > 100000u)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                       "%u substeps: at most 100,000", d.substeps));
    /* The fastest particle and the speed of sound bound the substep (CFL). The host plans the
       step's substeps from the fastest particle after the step before last: each step ends by
       copying its statistics into one of two small buffers, behind a fence, and the next step
       but one reads them, so that a step never waits for the GPU to finish the step just sent (a
       stall of a whole frame on a GPU). The waits and copies are the same in every run: the
       substeps do not depend on timing. The GPU's clock (step_clock) then shortens any substep
       that the speeds left by the one before need shorter, within the step; the time that costs
       is owed and run by the next steps (planned here for it, two steps late, from clock_lag). */
    if (world->step.fence[world->step.slot]) {
        gp__GLsync fence = world->step.fence[world->step.slot];
        if (world->gl.fnClientWaitSync(fence, GP__GL_SYNC_FLUSH_COMMANDS_BIT, ~(gp__GLuint64)0) == GP__GL_WAIT_FAILED)
            GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_STATS_WAIT_FAILED,
                    "gp_world_step: waiting for the statistics of the step before last failed; "
                    "reading them anyway");
        world->gl.fnDeleteSync(fence);
        world->step.fence[world->step.slot] = NULL;
        gp__buffer_read(world, world->step.stats[world->step.slot], 0, sizeof words, &words);   /* a finished copy: no wait */
        memcpy(&world->step.max_speed, &words.max_speed, 4);
        memcpy(&world->step.lag, &words.lag, 4);
        /* the count then, and everything appended since: the host's bound of the GPU's */
        world->count = (uint32_t)((uint64_t)words.count + (world->store.added - world->store.added_at[world->step.slot]));
        if (world->count > world->capacity) world->count = world->capacity;
        if (words.refused != world->store.refused)
            GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_REMOVAL_REFUSED,
                    "gp_particles_remove_flagged: a flag buffer flagged a body's or cloth's particle (they live as long "
                    "as their owner): that removal removed nothing (%u refused so far)", words.refused);
        world->store.refused = words.refused;
        world->store.refused_births = words.refused_births;
        if (words.unkept > world->dem.unkept && !world->dem.unkept_warned)
            GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_CONTACT_SLOTS_FULL,
                    "gp_world_step: %u contacts found no free slot to keep their shear spring in (%u so far; "
                    "gp_world_desc.contact_slots is %u): they act as new contacts every substep, without static "
                    "friction", words.unkept - world->dem.unkept, words.unkept, world->desc.contact_slots);
        world->dem.unkept_warned = words.unkept > world->dem.unkept;   /* once while it lasts */
        world->dem.unkept = words.unkept;
        world->step.near = words.near != 0u;
        if (!(world->step.lag >= 0.0f) || !isfinite(world->step.lag)) world->step.lag = 0.0f;
        if (world->step.lag > 0.0f && !world->step.lag_warned)
            GP__LOG(world, GP_LOG_INFO, GP_LOG_ITEM_STEP_BEHIND,
                    "gp_world_step: the GPU shortened a step's substeps to keep their limits (a speed that jumped, to "
                    "about %g m/s, or more substeps than a step's 1,000): the world owes %g s, which the next steps run "
                    "(at most four steps' dt; beyond, it runs slower than the calls)", (double)world->step.max_speed,
                    (double)world->step.lag);
        world->step.lag_warned = world->step.lag > 0.0f;
        if (words.nonfinite != world->step.nonfinite_warned && words.nonfinite)
            GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_PARTICLES_NOT_FINITE,
                    "gp_world_step: %u particles have a position that is not finite (NaN or infinite): "
                    "they stay in the store, in the grid's extra bucket, and are not simulated", words.nonfinite);
        world->step.nonfinite_warned = words.nonfinite;
        gp__step_warn_grid(world, &words);
        if (!isfinite(world->step.max_speed)) world->step.max_speed = 0.0f;
    }
    /* particles added since the step before last (not in its statistics), and what the pours
       will add, may be faster */
    if (world->step.added_speed > world->step.max_speed) world->step.max_speed = world->step.added_speed;
    if (world->step.added_before > world->step.max_speed) world->step.max_speed = world->step.added_before;
    world->step.added_before = world->step.added_speed;
    world->step.added_speed = 0.0f;
    for (i = 0; i < world->fluid.pour_count; ++i)
        if (world->fluid.pours[i].desc.speed > world->step.max_speed) world->step.max_speed = world->fluid.pours[i].desc.speed;
    for (i = 0; i < GP_MAX_EMITTERS; ++i)
        if (world->emitters.emitters[i].live && world->emitters.emitters[i].desc.speed[1] > world->step.max_speed)
            world->step.max_speed = world->emitters.emitters[i].desc.speed[1];
    gp__fluid_limits(world, &sound, &spacing, &viscous);
    owed = (double)d.dt + world->step.lag;   /* the step's time and what the step before last left owed */
    needed = ceil(owed * (sound + world->step.max_speed) / ((double)d.max_cfl * spacing));
    if (ceil(owed / viscous) > needed) needed = ceil(owed / viscous);
    /* The grains' and bodies' contacts need shorter substeps (gp__dem_limit) only where two
       solids, or a solid and a wall, touch or may soon: the host plans them when the step
       before last had one (clock_near), it moved particles since, or an emitter gives birth to
       grains; the GPU's clock shortens the substeps where one begins unplanned, looking one
       substep ahead (step_clock.comp). */
    free_count = needed < 1.0 ? 1.0 : needed > 1000.0 ? 1000.0 : needed;
    dem_limit = gp__dem_limit(world);
    if ((world->step.near || world->step.moved || gp__emitters_grains(world)) && ceil(owed / dem_limit) > needed) needed = ceil(owed / dem_limit);
    fixed = d.substeps != 0;
    if (!fixed) d.substeps = needed < 1.0 ? 1u : needed > 1000.0 ? 1000u : (uint32_t)needed;
    capped = !fixed && needed > 1000.0;
    if (capped && !world->step.capped_warned)   /* once while it lasts */
        GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_SUBSTEPS_CAPPED,
                "gp_world_step: the step's limits ask for %.6g substeps for its %g s and %g s owed (the fastest particle "
                "%g m/s, sound %g m/s, spacing %g m; the longest substep viscosity allows %g s, contacts %g s): it takes "
                "1,000 and owes the rest, at most four steps' dt; beyond that the world runs slower than the calls",
                needed, (double)d.dt, (double)world->step.lag, (double)world->step.max_speed, (double)sound, (double)spacing,
                viscous > 1e30f ? INFINITY : (double)viscous, dem_limit > 1e30f ? INFINITY : (double)dem_limit);
    world->step.capped_warned = capped;
    h = d.dt / (float)d.substeps;
    cfl = h * (sound + world->step.max_speed) / spacing;
    if (cfl > d.max_cfl && fixed && !world->step.cfl_warned && (world->fluid.phases || world->fluid.pour_count))   /* picked by the library: the GPU's clock keeps it */
        GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_CFL_EXCEEDED,
                "gp_world_step: the CFL number is %.3g, above %.3g (substep %g s, sound %g m/s, fastest particle "
                "%g m/s, spacing %g m): the fluid may blow up; take more substeps (0 picks them)", (double)cfl, (double)d.max_cfl,
                (double)h, (double)sound, (double)world->step.max_speed, (double)spacing);
    world->step.cfl_warned = cfl > d.max_cfl && fixed;
    if (h > dem_limit && fixed && !world->dem.warned)
        GP__LOG(world, GP_LOG_WARNING, GP_LOG_ITEM_SUBSTEP_TOO_LONG_FOR_GRAINS,
                "gp_world_step: the substep %g s is longer than the grains' %g s (a twelfth of a contact's "
                "duration, and no longer than m_eff / (damping + shear)): contacts may bounce wrong or blow up; take more substeps "
                "(0 picks them)", (double)h, (double)dem_limit);
    world->dem.warned = h > dem_limit && fixed;
    world->step.last_cfl = cfl;
    world->step.last_substeps = d.substeps;
    world->solver_host.counts[2] = (world->solver_host.counts[2] & ~GP__INTEGRATOR_MASK) | (d.integrator == GP_INTEGRATOR_EXPLICIT_EULER ? 2u : 1u);
    memset(&clock, 0, sizeof clock);   /* the clock's words for the step (step_clock.comp) */
    clock.clock_start = 1u;
    clock.clock_substeps = d.substeps;
    memcpy(&clock.clock_dt, &d.dt, 4);
    memcpy(&clock.clock_planned, &h, 4);
    memcpy(&clock.clock_speed, &world->step.max_speed, 4);
    memcpy(&clock.clock_sound, &sound, 4);
    memcpy(&clock.clock_spacing, &spacing, 4);
    limit = fixed ? 0.0f : d.max_cfl;
    memcpy(&clock.clock_max_cfl, &limit, 4);
    limit = fixed || viscous > 3.4e38f ? 3.4e38f : viscous;
    memcpy(&clock.clock_limit, &limit, 4);
    gp__buffer_upload(world, world->grid_stats, offsetof(gp__stats, clock_start), offsetof(gp__stats, clock_remaining) - offsetof(gp__stats, clock_start),
                      &clock.clock_start);
    limit = fixed || dem_limit > 3.4e38f ? 3.4e38f : dem_limit;   /* the contacts' look-ahead */
    memcpy(&clock.clock_contact, &limit, 4);
    limit = (float)(owed / free_count);
    memcpy(&clock.clock_free, &limit, 4);
    memcpy(&clock.clock_reach, &world->desc.grid.cell_size, 4);
    limit = gp__acceleration_bound(world);
    memcpy(&clock.clock_accel, &limit, 4);
    if (world->step.moved) gp__contacts_unseen(world);
    world->step.moved = false;
    gp__buffer_upload(world, world->grid_stats, offsetof(gp__stats, clock_contact), offsetof(gp__stats, clock_near) - offsetof(gp__stats, clock_contact),
                      &clock.clock_contact);
    gp__emitters_plan(world, d.dt, d.substeps);
    for (s = 0; s < d.substeps && r == GP_OK; ++s) r = gp__world_substep(world, h, true);
    if (r == GP_OK && world->grid_built) {   /* this step's statistics, for the step after next */
        world->gl.fnMemoryBarrier(GP__GL_BUFFER_UPDATE_BARRIER_BIT);
        world->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, world->grid_stats);
        world->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, world->step.stats[world->step.slot]);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, GP__STATS_STEP_AT, 0, GP__STATS_STEP_BYTES);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__stats, clock_lag),
                                      offsetof(gp__step_words, lag), 4);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__stats, unkept),
                                      offsetof(gp__step_words, unkept), 4);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__stats, clock_near),
                                      offsetof(gp__step_words, near), 4);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__stats, crowded),
                                      offsetof(gp__step_words, crowded), 4);
        world->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, world->store.words);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__store_words, count),
                                      offsetof(gp__step_words, count), 4);
        world->gl.fnCopyBufferSubData(GP__GL_COPY_READ_BUFFER, GP__GL_COPY_WRITE_BUFFER, offsetof(gp__store_words, refused),
                                      offsetof(gp__step_words, refused), 8);   /* refused, refused_births */
        world->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
        world->store.added_at[world->step.slot] = world->store.added;
        world->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
        world->step.fence[world->step.slot] = world->gl.fnFenceSync(GP__GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }
    world->step.slot ^= 1u;
    return gp__end(world, r);
}

gp_result gp_fluid_compute(gp_world* world, float dt) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_fluid_compute");
    if ((r = gp__check_dt(world, dt)) != GP_OK) return gp__end(world, r);
    return gp__end(world, gp__world_substep(world, dt, false));
}


/* >>draw ===================================================================================
   Lit sphere impostors straight from the store: the attribute buffers are the vertex arrays
   (position, the fluid's (density, pressure), velocity, info), one point per live slot, sized
   to the particle's projected diameter; the fragment shader shades a sphere and writes its
   depth. Compiled out by GP_NO_DRAW, with its GL entry points. */
#if defined(GP_NO_DRAW)
/* What every draw call says when the draw helpers were compiled out. */
static gp_result gp__draw_compiled_out(gp_world* world, const char* call) {
    if (!world) return gp__no_world(call);
    gp__begin(world, call);
    return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, GP_LOG_ITEM_DRAW_COMPILED_OUT,
                                   "the draw helper was compiled out (GP_NO_DRAW)"));
}
#else
/* The impostor program and the vertex array, made on the first draw. */
static gp_result gp__draw_init(gp_world* w) {
    gp_result r;
    if (w->draw.particles) return GP_OK;
    if ((r = gp__link(w, GP__SHADER_DRAW_PARTICLES_VERT, GP__SHADER_DRAW_PARTICLES_FRAG, &w->draw.particles)) != GP_OK) return r;
    w->gl.fnGenVertexArrays(1, &w->draw.vao);
    return GP_OK;
}

/* The box the default camera frames: every collider but planes, and every particle added from
   the host (the store's extent as last known; particles move, the frame does not follow). */
static void gp__scene_box(const gp_world* w, float lo[3], float hi[3]) {
    uint32_t i;
    int a;
    for (a = 0; a < 3; ++a) { lo[a] = w->added_lo[a]; hi[a] = w->added_hi[a]; }
    for (i = 0; i < w->colliders.count; ++i) {
        const gp_collider_desc* c = &w->colliders.list[i].desc;
        float e[3] = {0.0f, 0.0f, 0.0f}, o[3];
        if (c->shape == GP_SHAPE_PLANE || c->shape == GP_SHAPE_HEIGHTFIELD) continue;   /* ground: the particles frame it */
        for (a = 0; a < 3; ++a) {
            o[a] = c->shape == GP_SHAPE_MESH ? w->colliders.list[i].field_origin[a] : c->center[a];
            e[a] = c->shape == GP_SHAPE_BOX ? c->half_extents[a] : c->shape == GP_SHAPE_MESH ? 0.0f
                 : c->radius + (c->shape == GP_SHAPE_CAPSULE ? c->half_height * fabsf(c->axis[a]) : 0.0f);
        }
        for (a = 0; a < 3; ++a) {
            const gp__collider* f = &w->colliders.list[i];
            float top = c->shape == GP_SHAPE_MESH ? o[a] + f->field_voxel * (float)(f->field_dims[a] - 1) : o[a] + e[a];
            float bottom = o[a] - e[a];
            if (bottom < lo[a]) lo[a] = bottom;
            if (top > hi[a]) hi[a] = top;
        }
    }
    for (a = 0; a < 3; ++a)
        if (!(lo[a] <= hi[a])) { lo[a] = -0.5f; hi[a] = 0.5f; }   /* nothing known: a metre around the origin */
}

/* A view and projection (column-major) that frame the scene box from above and in front, 45
   degrees vertical field of view, for a viewport of aspect width / height. */
static void gp__frame_scene(const gp_world* w, float aspect, float view[16], float projection[16]) {
    float lo[3], hi[3], c[3], eye[3], f[3], s[3], u[3], radius = 0.0f, distance, near_z, far_z, t = 1.0f / tanf(0.3927f);
    const float towards[3] = {0.35f, 0.45f, 0.82f};   /* unit: from the centre to the eye */
    int a;
    if (!(aspect > 0.0f) || !isfinite(aspect)) aspect = 1.0f;
    gp__scene_box(w, lo, hi);
    {   /* in double: a particle far out (1e20 m) must not overflow the box's diagonal to inf; a box
           over 1e15 m (whose near * far would overflow a float) gives way to a metre around the origin */
        double r2 = 0.0, half;
        for (a = 0; a < 3; ++a) {
            half = 0.5 * ((double)hi[a] - lo[a]);
            c[a] = (float)(0.5 * ((double)lo[a] + hi[a]));
            r2 += half * half;
        }
        radius = r2 > 0.0 && r2 < 1e30 ? (float)sqrt(r2) : 0.5f;
        if (!(r2 < 1e30)) c[0] = c[1] = c[2] = 0.0f;
    }
    distance = radius * t * (aspect < 1.0f ? 1.0f / aspect : 1.0f) * 1.1f;
    for (a = 0; a < 3; ++a) { eye[a] = c[a] + distance * towards[a]; f[a] = -towards[a]; }
    s[0] = f[1] * 0.0f - f[2] * 1.0f; s[1] = f[2] * 0.0f - f[0] * 0.0f; s[2] = f[0] * 1.0f - f[1] * 0.0f;   /* f x up */
    { float l = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]); for (a = 0; a < 3; ++a) s[a] /= l; }
    u[0] = s[1] * f[2] - s[2] * f[1]; u[1] = s[2] * f[0] - s[0] * f[2]; u[2] = s[0] * f[1] - s[1] * f[0];
    memset(view, 0, 16 * sizeof *view);
    memset(projection, 0, 16 * sizeof *projection);
    for (a = 0; a < 3; ++a) { view[4 * a] = s[a]; view[4 * a + 1] = u[a]; view[4 * a + 2] = -f[a]; }
    view[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    view[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    view[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    view[15] = 1.0f;
    near_z = distance - 2.0f * radius > 0.01f * radius ? distance - 2.0f * radius : 0.01f * radius;
    far_z = distance + 2.0f * radius;
    projection[0] = t / aspect;
    projection[5] = t;
    projection[10] = (far_z + near_z) / (near_z - far_z);
    projection[11] = -1.0f;
    projection[14] = 2.0f * far_z * near_z / (near_z - far_z);
}

/* What both draw helpers refuse (no desc, a view or projection with a value not finite), and
   their shared default: a view and projection left all zero frame the scene (gp__frame_scene). */
static gp_result gp__draw_resolve(gp_world* world, const gp_draw_desc* desc, gp_draw_desc* d) {
    gp__GLint viewport[4] = {0, 0, 0, 0};
    int k, zero = 1;
    gp_result r;
    if (!desc) return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "desc is NULL");
    for (k = 0; k < 16; ++k) {
        if (!isfinite(desc->view[k]) || !isfinite(desc->projection[k]))
            return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                            "view or projection has a value that is not finite");
        zero &= desc->view[k] == 0.0f && desc->projection[k] == 0.0f;
    }
    if ((r = gp__check_vector(world, "light", desc->light)) != GP_OK) return r;
    for (k = 0; k < 4; ++k)   /* the range and the colour: finite */
        if ((k < 2 && !isfinite(desc->range[k])) || !isfinite(desc->color[k]))
            return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                            "range (%g, %g) or color (%g, %g, %g, %g) is not finite", (double)desc->range[0], (double)desc->range[1],
                            (double)desc->color[0], (double)desc->color[1], (double)desc->color[2], (double)desc->color[3]);
    if (!(desc->radius_scale >= 0.0f) || !isfinite(desc->radius_scale))
        return gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "radius_scale %g must be 0 (the default) or positive, and finite", (double)desc->radius_scale);
    *d = *desc;
    if (zero) {
        world->gl.fnGetIntegerv(GP__GL_VIEWPORT, viewport);
        gp__frame_scene(world, viewport[2] > 0 && viewport[3] > 0 ? (float)viewport[2] / (float)viewport[3] : 1.0f, d->view, d->projection);
    }
    return GP_OK;
}
#endif

gp_result gp_draw_bodies(gp_world* world, const gp_draw_desc* desc) {
#if defined(GP_NO_DRAW)
    (void)desc;
    return gp__draw_compiled_out(world, __func__);
#else
    gp__gl* gl;
    gp_draw_desc d;
    gp__GLint vao = 0, array_buffer = 0;
    gp_result r;
    uint32_t i;
    int k;
    if (!world) return gp__no_world(__func__);
    gl = &world->gl;
    gp__begin(world, "gp_draw_bodies");
    if ((r = gp__draw_resolve(world, desc, &d)) != GP_OK) return gp__end(world, r);
    if (d.color[0] == 0.0f && d.color[1] == 0.0f && d.color[2] == 0.0f && d.color[3] == 0.0f) {
        d.color[0] = 0.3f; d.color[1] = 0.5f; d.color[2] = 0.9f; d.color[3] = 1.0f;
    }
    if (d.light[0] == 0.0f && d.light[1] == 0.0f && d.light[2] == 0.0f) { d.light[0] = 0.4f; d.light[1] = 0.7f; d.light[2] = 0.6f; }
    if (!world->draw.bodies &&
        (r = gp__link(world, GP__SHADER_DRAW_BODIES_VERT, GP__SHADER_DRAW_BODIES_FRAG, &world->draw.bodies)) != GP_OK)
        return gp__end(world, r);
    if ((r = gp__draw_init(world)) != GP_OK) return gp__end(world, r);
    if (world->rigid.body_count == 0) return gp__end(world, GP_OK);
    gl->fnGetIntegerv(GP__GL_VERTEX_ARRAY_BINDING, &vao);
    gl->fnGetIntegerv(GP__GL_ARRAY_BUFFER_BINDING, &array_buffer);
    gl->fnUseProgram(world->draw.bodies);
    gl->fnUniformMatrix4fv(0, 1, 0, d.view);
    gl->fnUniformMatrix4fv(1, 1, 0, d.projection);
    gl->fnUniform4f(2, d.color[0], d.color[1], d.color[2], d.color[3]);
    gl->fnUniform4f(3, d.color_by == GP_COLOR_UNIFORM ? 1.0f : 0.0f, 0.0f, 0.0f, 0.0f);
    gl->fnUniform4f(4, d.light[0], d.light[1], d.light[2], 0.0f);
    gl->fnBindVertexArray(world->draw.vao);
    for (k = 0; k < 4; ++k) gl->fnEnableVertexAttribArray((gp__GLuint)k);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->rigid.bodies);
    gl->fnVertexAttribPointer(2, 4, GP__GL_FLOAT, 0, (gp__GLsizei)sizeof(gp__body_gpu), (const void*)GP__BODIES_AT(world));
    gl->fnVertexAttribPointer(3, 4, GP__GL_FLOAT, 0, (gp__GLsizei)sizeof(gp__body_gpu), (const void*)(GP__BODIES_AT(world) + 16));
    gl->fnVertexAttribDivisor(2, 1);
    gl->fnVertexAttribDivisor(3, 1);
    for (i = 0; i < world->rigid.run_count; ++i) {
        const gp__body_run* run = &world->rigid.runs[i];
        const gp__body_shape* s = &world->rigid.shapes[run->shape];
        gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, s->draw_vertices);
        gl->fnVertexAttribPointer(0, 3, GP__GL_FLOAT, 0, 24, NULL);
        gl->fnVertexAttribPointer(1, 3, GP__GL_FLOAT, 0, 24, (const void*)12);
        gl->fnBindBuffer(GP__GL_ELEMENT_ARRAY_BUFFER, s->draw_indices);
        gl->fnUniform1ui(5, run->first);
        gl->fnDrawElementsInstancedBaseInstance(GP__GL_TRIANGLES, (gp__GLsizei)s->draw_index_count, GP__GL_UNSIGNED_INT, NULL,
                                                (gp__GLsizei)run->count, run->first);
    }
    gl->fnVertexAttribDivisor(2, 0);   /* the impostors share the vertex array */
    gl->fnVertexAttribDivisor(3, 0);
    gl->fnBindBuffer(GP__GL_ELEMENT_ARRAY_BUFFER, 0);
    gl->fnBindVertexArray((gp__GLuint)vao);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, (gp__GLuint)array_buffer);
    return gp__end(world, GP_OK);
#endif
}

gp_result gp_draw_particles(gp_world* world, const gp_draw_desc* desc) {
#if defined(GP_NO_DRAW)
    (void)desc;
    return gp__draw_compiled_out(world, __func__);
#else
    gp__gl* gl;
    gp_draw_desc d;
    gp__GLint vao = 0, array_buffer = 0, indirect = 0, viewport[4] = {0, 0, 0, 0};
    gp_result r;
    float mode;
    int i;
    if (!world) return gp__no_world(__func__);
    gl = &world->gl;
    gp__begin(world, "gp_draw_particles");
    if ((r = gp__draw_resolve(world, desc, &d)) != GP_OK) return gp__end(world, r);
    if (d.color_by == GP_COLOR_DEFAULT) d.color_by = GP_COLOR_DENSITY;
    if ((int)d.color_by < (int)GP_COLOR_DENSITY || (int)d.color_by > (int)GP_COLOR_UNIFORM)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                                       "color_by %d is not a gp_color_by", (int)d.color_by));
    if (d.range[0] == 0.0f && d.range[1] == 0.0f) {
        d.range[0] = d.color_by == GP_COLOR_DENSITY ? 0.7f * world->fluid.materials[0].rest_density : 0.0f;
        d.range[1] = d.color_by == GP_COLOR_DENSITY ? 1.0f * world->fluid.materials[0].rest_density : 3.0f;
    }
    if (d.color[0] == 0.0f && d.color[1] == 0.0f && d.color[2] == 0.0f && d.color[3] == 0.0f) {
        d.color[0] = 0.3f; d.color[1] = 0.5f; d.color[2] = 0.9f; d.color[3] = 1.0f;
    }
    if (d.light[0] == 0.0f && d.light[1] == 0.0f && d.light[2] == 0.0f) { d.light[0] = 0.4f; d.light[1] = 0.7f; d.light[2] = 0.6f; }
    if (d.radius_scale == 0.0f) d.radius_scale = 1.0f;
    if ((r = gp__draw_init(world)) != GP_OK) return gp__end(world, r);
    if (world->count == 0) return gp__end(world, GP_OK);
    /* before any step there is no density to colour by */
    mode = (float)d.color_by;
    if (d.color_by == GP_COLOR_DENSITY && !world->fluid.valid) mode = (float)GP_COLOR_UNIFORM;
    gl->fnGetIntegerv(GP__GL_VERTEX_ARRAY_BINDING, &vao);
    gl->fnGetIntegerv(GP__GL_ARRAY_BUFFER_BINDING, &array_buffer);
    gl->fnGetIntegerv(GP__GL_VIEWPORT, viewport);
    gl->fnUseProgram(world->draw.particles);
    gl->fnUniformMatrix4fv(0, 1, 0, d.view);
    gl->fnUniformMatrix4fv(1, 1, 0, d.projection);
    gl->fnUniform4f(2, d.color[0], d.color[1], d.color[2], d.color[3]);
    gl->fnUniform4f(3, mode, d.range[0], d.range[1], d.radius_scale);
    gl->fnUniform4f(4, d.light[0], d.light[1], d.light[2], (float)viewport[3]);
    gl->fnUniform1ui(5, d.kinds ? d.kinds : 0xffffffffu);
    gl->fnBindVertexArray(world->draw.vao);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->position);
    gl->fnVertexAttribPointer(0, 4, GP__GL_FLOAT, 0, 16, NULL);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->spare8);
    gl->fnVertexAttribPointer(1, 2, GP__GL_FLOAT, 0, 8, NULL);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->velocity);
    gl->fnVertexAttribPointer(2, 4, GP__GL_FLOAT, 0, 16, NULL);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->info);
    gl->fnVertexAttribIPointer(3, 4, GP__GL_UNSIGNED_INT, 16, NULL);
    for (i = 0; i < 4; ++i) gl->fnEnableVertexAttribArray((gp__GLuint)i);
    gl->fnEnable(GP__GL_PROGRAM_POINT_SIZE);
    gl->fnGetIntegerv(GP__GL_DRAW_INDIRECT_BUFFER_BINDING, &indirect);
    gl->fnBindBuffer(GP__GL_DRAW_INDIRECT_BUFFER, world->store.words);   /* the count on the GPU: no readback */
    gl->fnDrawArraysIndirect(GP__GL_POINTS, (const void*)(uintptr_t)offsetof(gp__store_words, draw));
    gl->fnBindBuffer(GP__GL_DRAW_INDIRECT_BUFFER, (gp__GLuint)indirect);
    gl->fnBindVertexArray((gp__GLuint)vao);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, (gp__GLuint)array_buffer);
    return gp__end(world, GP_OK);
#endif
}

gp_result gp_draw_effects(gp_world* world, const gp_draw_desc* desc) {
#if defined(GP_NO_DRAW)
    (void)desc;
    return gp__draw_compiled_out(world, __func__);
#else
    gp__gl* gl;
    gp_draw_desc d;
    gp__GLint vao = 0, array_buffer = 0, blend_rgb[2] = {0, 0}, blend_alpha[2] = {0, 0}, equation[2] = {0, 0};
    gp__GLint polygon_mode[2] = {GP__GL_FILL, GP__GL_FILL};   /* some drivers write two values, front and back */
    gp__GLboolean blending, culling, depth_writes = 1;
    size_t n;
    uint32_t i, slots, timer;
    gp_result r = GP_OK;
    if (!world) return gp__no_world(__func__);
    gl = &world->gl;
    gp__begin(world, "gp_draw_effects");
    if ((r = gp__draw_resolve(world, desc, &d)) != GP_OK) return gp__end(world, r);
    if (d.blend == GP_BLEND_DEFAULT) d.blend = GP_BLEND_ALPHA;
    if (d.blend != GP_BLEND_ALPHA && d.blend != GP_BLEND_ADDITIVE)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE, "blend %d is not a gp_blend", (int)d.blend));
    n = world->capacity;
    if (!world->draw.sprites_program) {   /* made on the first call: a key, a value and a sprite per slot */
        if (r == GP_OK) r = gp__link(world, GP__SHADER_DRAW_SPRITES_VERT, GP__SHADER_DRAW_SPRITES_FRAG, &world->draw.sprites_program);
        if (r == GP_OK) r = gp__buffer_new(world, n * 4, NULL, "the sprites' sort keys", &world->draw.keys);
        if (r == GP_OK) r = gp__buffer_new(world, n * 4, NULL, "the sprites' sort values", &world->draw.values);
        if (r == GP_OK) r = gp__buffer_new(world, n * 32, NULL, "the sprites", &world->draw.sprites);
        if (r == GP_OK) gl->fnGenVertexArrays(1, &world->draw.sprites_vao);
        if (r != GP_OK) return gp__end(world, r);
    }
    slots = world->count;
    if (slots == 0) return gp__end(world, GP_OK);
    for (i = 0; i < GP_MAX_EMITTERS; ++i)   /* the curves of every emitter, as they are now */
        gp__emitter_row(&world->emitters.emitters[i], i, &world->emitters.block.emitters[i]);
    if (!world->emitters.table &&
        (r = gp__buffer_new(world, sizeof world->emitters.block, NULL, "the emitters' table", &world->emitters.table)) != GP_OK)
        return gp__end(world, r);
    gp__buffer_upload(world, world->emitters.table, 0, sizeof world->emitters.block, &world->emitters.block);
    gl->fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 2, world->emitters.table);
    timer = gp__timer_begin(world, GP__STAGE_SPRITES);
    gp__use(world, GP__PROGRAM_SPRITE_DEPTH);   /* keys: minus the depth, for the live effect particles */
    gp__bind(world, GP__ROLE_SORT_KEYS, world->draw.keys);
    gp__bind(world, GP__ROLE_SORT_VALUES, world->draw.values);
    gl->fnUniform1ui(0, slots);
    gl->fnUniform4f(1, d.view[2], d.view[6], d.view[10], d.view[14]);   /* column-major: the third row */
    gp__dispatch(world, gp__groups(slots, GP_GROUP_SIZE));
    if (d.blend == GP_BLEND_ALPHA) gp__sort(world, world->draw.keys, world->draw.values, slots, false, 0);   /* back to front */
    gp__use(world, GP__PROGRAM_SPRITE_GATHER);
    gp__bind(world, GP__ROLE_SORT_KEYS, world->draw.keys);
    gp__bind(world, GP__ROLE_SORT_VALUES, world->draw.values);
    gp__bind(world, GP__ROLE_SPRITES, world->draw.sprites);
    gl->fnUniform1ui(0, slots);
    gp__dispatch(world, gp__groups(slots, GP_GROUP_SIZE));
    gp__timer_end(world, timer);
    gl->fnGetIntegerv(GP__GL_VERTEX_ARRAY_BINDING, &vao);
    gl->fnGetIntegerv(GP__GL_ARRAY_BUFFER_BINDING, &array_buffer);
    blending = gl->fnIsEnabled(GP__GL_BLEND);
    gl->fnGetIntegerv(GP__GL_BLEND_SRC_RGB, &blend_rgb[0]);
    gl->fnGetIntegerv(GP__GL_BLEND_DST_RGB, &blend_rgb[1]);
    gl->fnGetIntegerv(GP__GL_BLEND_SRC_ALPHA, &blend_alpha[0]);
    gl->fnGetIntegerv(GP__GL_BLEND_DST_ALPHA, &blend_alpha[1]);
    gl->fnGetIntegerv(GP__GL_BLEND_EQUATION_RGB, &equation[0]);
    gl->fnGetIntegerv(GP__GL_BLEND_EQUATION_ALPHA, &equation[1]);
    gl->fnGetBooleanv(GP__GL_DEPTH_WRITEMASK, &depth_writes);
    culling = gl->fnIsEnabled(GP__GL_CULL_FACE);
    gl->fnGetIntegerv(GP__GL_POLYGON_MODE, polygon_mode);
    gl->fnUseProgram(world->draw.sprites_program);
    gl->fnUniformMatrix4fv(0, 1, 0, d.view);
    gl->fnUniformMatrix4fv(1, 1, 0, d.projection);
    gl->fnBindVertexArray(world->draw.sprites_vao);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, world->draw.sprites);
    gl->fnVertexAttribPointer(0, 4, GP__GL_FLOAT, 0, 32, NULL);
    gl->fnVertexAttribPointer(1, 4, GP__GL_FLOAT, 0, 32, (const void*)16);
    for (i = 0; i < 2; ++i) {
        gl->fnEnableVertexAttribArray(i);
        gl->fnVertexAttribDivisor(i, 1);
    }
    gl->fnEnable(GP__GL_BLEND);
    gl->fnBlendFuncSeparate(GP__GL_SRC_ALPHA, d.blend == GP_BLEND_ALPHA ? GP__GL_ONE_MINUS_SRC_ALPHA : GP__GL_ONE, GP__GL_ONE,
                            GP__GL_ONE_MINUS_SRC_ALPHA);
    gl->fnBlendEquationSeparate(GP__GL_FUNC_ADD, GP__GL_FUNC_ADD);
    gl->fnDepthMask(0);
    gl->fnDisable(GP__GL_CULL_FACE);   /* a sprite faces the camera, but a caller's front face may be clockwise */
    gl->fnPolygonMode(GP__GL_FRONT_AND_BACK, GP__GL_FILL);
    gl->fnDrawArraysInstanced(GP__GL_TRIANGLE_STRIP, 0, 4, (gp__GLsizei)slots);   /* slots past the effects: size 0, no pixel */
    gl->fnPolygonMode(GP__GL_FRONT_AND_BACK, (gp__GLenum)polygon_mode[0]);
    if (culling) gl->fnEnable(GP__GL_CULL_FACE);
    gl->fnDepthMask(depth_writes);
    gl->fnBlendEquationSeparate((gp__GLenum)equation[0], (gp__GLenum)equation[1]);
    gl->fnBlendFuncSeparate((gp__GLenum)blend_rgb[0], (gp__GLenum)blend_rgb[1], (gp__GLenum)blend_alpha[0], (gp__GLenum)blend_alpha[1]);
    if (!blending) gl->fnDisable(GP__GL_BLEND);
    gl->fnBindVertexArray((gp__GLuint)vao);
    gl->fnBindBuffer(GP__GL_ARRAY_BUFFER, (gp__GLuint)array_buffer);
    return gp__end(world, GP_OK);
#endif
}

/* >>public ================================================================================= */

static uint32_t gp__next_power_of_two(uint32_t v) {
    uint32_t p = 1;
    while (p < v && p < 0x80000000u) p <<= 1;
    return p;
}

gp_world_desc gp_query_world_defaults(const gp_world_desc* desc) {
    gp_world_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (d.max_particles == 0) d.max_particles = 65536;
    if (d.contact_slots == 0) d.contact_slots = 12;
    if (d.grid.cell_size == 0.0f) d.grid.cell_size = 0.1f;
    if (d.grid.mode == GP_GRID_DEFAULT)
        d.grid.mode = (d.grid.dims[0] | d.grid.dims[1] | d.grid.dims[2]) ? GP_GRID_BOUNDED : GP_GRID_HASHED;
    if (d.grid.mode == GP_GRID_HASHED && d.grid.buckets == 0) {
        d.grid.buckets = gp__next_power_of_two(d.max_particles);
        if (d.grid.buckets < 4096) d.grid.buckets = 4096;
    } else if (d.grid.mode == GP_GRID_HASHED && d.grid.buckets <= 0x40000000u) {
        d.grid.buckets = gp__next_power_of_two(d.grid.buckets);   /* the hash masks, never divides */
    }
    if (!d.allocator.alloc && !d.allocator.free) {
        d.allocator.alloc = gp__default_alloc;
        d.allocator.free = gp__default_free;
        d.allocator.user_data = NULL;
    }
#if !defined(GP_NO_PROC_FALLBACK)
    if (!d.get_proc_address) d.get_proc_address = gp__fallback_get_proc_address();
#endif
    return d;
}

/* Checks the resolved desc; the world exists only for its logger. */
static gp_result gp__check_desc(gp_world* w) {
    const gp_world_desc* d = &w->desc;
    const gp_grid_desc* g = &d->grid;
    int a;
    if (!d->allocator.alloc || !d->allocator.free)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ALLOCATOR_INVALID,
                        "allocator: give both alloc and free, or neither");
    if (d->max_particles > 0x40000000u)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "max_particles %u is above 2^30", d->max_particles);
    if (d->contact_slots > 64)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "contact_slots %u is above 64", d->contact_slots);
    if (!(g->cell_size >= 1e-6f && g->cell_size <= 1e6f))   /* the default materials' masses stay finite and nonzero */
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "grid.cell_size %g must be 1e-6 to 1e6 metres", (double)g->cell_size);
    if (g->mode != GP_GRID_BOUNDED && g->mode != GP_GRID_HASHED)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                        "grid.mode %d is not a gp_grid_mode", (int)g->mode);
    if (g->mode == GP_GRID_BOUNDED) {
        uint64_t cells = 1;
        for (a = 0; a < 3; ++a) {
            if (!isfinite(g->origin[a]))
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NOT_FINITE,
                                "grid.origin[%d] is not finite", a);
            if (g->dims[a] == 0 || g->dims[a] > 0x100000u)
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                                "grid.dims[%d] = %u: a bounded grid needs 1 to 2^20 cells per axis", a, g->dims[a]);
            cells *= g->dims[a];
        }
        if (cells > 0x40000000u)
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                            "grid.dims %u x %u x %u = %llu cells, above 2^30",
                            g->dims[0], g->dims[1], g->dims[2], (unsigned long long)cells);
    } else if (g->buckets == 0 || g->buckets > 0x40000000u) {
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                        "grid.buckets %u must be 1 to 2^30", g->buckets);
    }
    if (!d->get_proc_address)
        return gp__fail(w, GP_ERROR_GL_MISSING_FUNCTION, GP_LOG_ITEM_GL_MISSING_FUNCTION,
                        "no get_proc_address given, and none found in the process "
                        "(pass glfwGetProcAddress, eglGetProcAddress or your loader's)");
    return GP_OK;
}

/* Loads the table, then checks the context: version, compute limits, buffer sizes. */
static gp_result gp__load_gl(gp_world* w) {
    gp__gl* gl = &w->gl;
    gp__GLint major = 0, minor = 0, value = 0;
    const gp__GLubyte* version;
    const char* name;
    gp_proc proc;
#define GP__GL_LOAD(ret, fname, args)                                                             \
    name = "gl" #fname;                                                                            \
    proc = w->desc.get_proc_address(name);                                                         \
    if (!proc) return gp__fail(w, GP_ERROR_GL_MISSING_FUNCTION, GP_LOG_ITEM_GL_MISSING_FUNCTION,      \
                               "%s not found: the context is older than "                          \
                               "OpenGL 4.3 or get_proc_address is not the context's", name);       \
    memcpy(&gl->fn##fname, &proc, sizeof proc);
    GP__GL_LOAD(const gp__GLubyte*, GetString, (gp__GLenum))
    version = gl->fnGetString(GP__GL_VERSION);
    if (!version) return gp__fail(w, GP_ERROR_NO_CONTEXT, GP_LOG_ITEM_GL_NO_CONTEXT, "no GL context is current on this thread");
    GP__GL_LOAD(void, GetIntegerv, (gp__GLenum, gp__GLint*))
    gl->fnGetIntegerv(GP__GL_MAJOR_VERSION, &major);
    gl->fnGetIntegerv(GP__GL_MINOR_VERSION, &minor);
    if (major < 4 || (major == 4 && minor < 3))
        return gp__fail(w, GP_ERROR_GL_VERSION, GP_LOG_ITEM_GL_VERSION,
                        "needs OpenGL 4.3 or newer; the context is %d.%d (\"%s\")",
                        major, minor, (const char*)version);
    GP__GL_FUNCTIONS(GP__GL_LOAD)
#if !defined(GP_NO_DRAW)
    GP__GL_DRAW_FUNCTIONS(GP__GL_LOAD)
#endif
#undef GP__GL_LOAD
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &value);
    if (value < GP_GROUP_SIZE)
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS is %d, below GP_GROUP_SIZE %d", value, GP_GROUP_SIZE);
    gl->fnGetIntegeri_v(GP__GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &value);
    if (value < GP_GROUP_SIZE)
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_COMPUTE_WORK_GROUP_SIZE x is %d, below GP_GROUP_SIZE %d", value, GP_GROUP_SIZE);
    /* the binding plan's needs (section >>shaders): GL 4.3's minimums, which a driver may not meet */
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &value);
    if (value < gp__plan_blocks())
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS is %d; the binding plan needs %d", value, gp__plan_blocks());
    gl->fnGetIntegerv(GP__GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &value);
    if (value < GP__MAX_BINDINGS)
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS is %d; the binding plan needs %d", value, GP__MAX_BINDINGS);
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_UNIFORM_BLOCKS, &value);
    if (value < 2)
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_COMPUTE_UNIFORM_BLOCKS is %d; the world and solver blocks need 2", value);
    gl->fnGetIntegerv(GP__GL_MAX_UNIFORM_BLOCK_SIZE, &value);
    if ((size_t)value < sizeof(gp__solver_params))
        return gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                        "GL_MAX_UNIFORM_BLOCK_SIZE is %d bytes; the solver block needs %zu", value, sizeof(gp__solver_params));
    gl->fnGetInteger64v(GP__GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &w->max_block_bytes);
    GP__LOG(w, GP_LOG_INFO, GP_LOG_ITEM_CONTEXT, "OpenGL %d.%d, %s", major, minor, (const char*)gl->fnGetString(GP__GL_RENDERER));
    return GP_OK;
}

/* Allocates the store and the grid; every buffer at once, so that a too large world fails here. */
static gp_result gp__create_buffers(gp_world* w) {
    size_t n = w->capacity, table = ((size_t)w->buckets + 3) * 4;
    gp_result r = GP_OK;
    gp__stats stats;
    gp__store_words store;
    memset(&store, 0, sizeof store);   /* nothing in the store: zero workgroups, zero points */
    store.dispatch[1] = store.dispatch[2] = store.draw[1] = 1u;
    memset(&stats, 0, sizeof stats);   /* the clock too: nothing owed */
    stats.min_density = 0x7f7fffffu;   /* FLT_MAX, as gp__stats_reset leaves it */
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the position buffer", &w->position);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the velocity buffer", &w->velocity);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the info buffer", &w->info);
    if (r == GP_OK) r = gp__buffer_new(w, n * 8, NULL, "the life buffer", &w->life);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "a reorder buffer", &w->spare16);
    if (r == GP_OK) r = gp__buffer_new(w, n * 8, NULL, "a reorder buffer", &w->spare8);
    if (r == GP_OK) r = gp__buffer_new(w, (size_t)w->store.id_space * 4, NULL, "the slot-of-id buffer", &w->slot_of_id);
    if (r == GP_OK) r = gp__buffer_new(w, (size_t)w->store.id_space * 4, NULL, "the free-id queue", &w->store.free_ids);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof store, &store, "the store's count", &w->store.words);
    if (r == GP_OK) r = gp__buffer_new(w, n * 4, NULL, "the cell key buffer", &w->cell_key);
    if (r == GP_OK) r = gp__buffer_new(w, n * 4, NULL, "the order buffer", &w->order);
    if (r == GP_OK) r = gp__buffer_new(w, table, NULL, "the cell count table", &w->cell_count);
    if (r == GP_OK) r = gp__buffer_new(w, table, NULL, "the cell start table", &w->cell_start);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof stats, &stats, "the world's statistics", &w->grid_stats);
    if (r == GP_OK) r = gp__buffer_new(w, GP__GRID_ARGS * 12, NULL, "the grid's dispatches", &w->grid_args);
    w->step.near = true;
    if (r == GP_OK) r = gp__buffer_new(w, sizeof(gp__step_words), NULL, "the step statistics", &w->step.stats[0]);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof(gp__step_words), NULL, "the step statistics", &w->step.stats[1]);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof w->params_host, NULL, "the world parameters", &w->params);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof w->solver_host, &w->solver_host, "the solver parameters", &w->solver);
    if (r == GP_OK) r = gp__buffer_new(w, 4, NULL, "the distance fields", &w->colliders.fields);
    if (r == GP_OK && w->fluid.materials[0].density_model == GP_DENSITY_CONTINUITY) r = gp__fluid_state_ensure(w);
    if (r == GP_OK) {
        gp__buffer_zero(w, w->cell_start, 0, table);
        gp__buffer_fill(w, w->slot_of_id, 0, (size_t)w->store.id_space * 4, GP_NO_SLOT);   /* no id given yet */
        gp__params_upload(w);
    }
    return r;
}

void gp_world_destroy(gp_world* world) {
    gp_allocator allocator;
    size_t i;
    if (!world) return;
    if (world->gl.fnDeleteBuffers) {
        gp__free(&world->desc.allocator, world->effects.wind_grid);
        if (world->desc.gpu_timings) gp__timers_collect(world);
        for (i = 0; i < 2; ++i)
            if (world->step.fence[i]) world->gl.fnDeleteSync(world->step.fence[i]);
        for (i = 0; i < GP__PROGRAM_COUNT; ++i)
            if (world->programs[i]) world->gl.fnDeleteProgram(world->programs[i]);
#if !defined(GP_NO_DRAW)
        if (world->draw.bodies) world->gl.fnDeleteProgram(world->draw.bodies);
        if (world->draw.particles) world->gl.fnDeleteProgram(world->draw.particles);
        if (world->draw.vao) world->gl.fnDeleteVertexArrays(1, &world->draw.vao);
        if (world->draw.sprites_program) world->gl.fnDeleteProgram(world->draw.sprites_program);
        if (world->draw.sprites_vao) world->gl.fnDeleteVertexArrays(1, &world->draw.sprites_vao);
#endif
        /* every buffer the world made, whichever system made it (gp__buffer_own) */
        gp__buffer_guards_check(world, "gp_world_destroy");
        for (i = 0; i < world->owned_count; ++i) world->gl.fnDeleteBuffers(1, &world->owned[i].name);
        world->owned_count = 0;
    }
    if (world->owned != world->owned_inside) gp__free(&world->desc.allocator, world->owned);
    for (i = 0; i < world->colliders.count; ++i) gp__free(&world->desc.allocator, world->colliders.list[i].field_samples);
    for (i = 0; i < world->rigid.shape_count; ++i) gp__free(&world->desc.allocator, world->rigid.shapes[i].offsets);
    gp__free(&world->desc.allocator, world->rigid.shapes);
    gp__free(&world->desc.allocator, world->rigid.runs);
    gp__free(&world->desc.allocator, world->rigid.generations);
    for (i = 0; i < GP_MAX_EMITTERS; ++i) gp__free(&world->desc.allocator, world->emitters.emitters[i].triangles);
    allocator = world->desc.allocator;
    gp__free(&allocator, world);
}

gp_result gp_world_create(const gp_world_desc* desc, gp_world** world) {
    gp_world_desc resolved;
    gp_world* w;
    gp_result r;
    int p;
    if (!world || !desc) {
        gp__log(desc ? &desc->logger : NULL, GP_LOG_ERROR, GP_LOG_ITEM_ARGUMENT_NULL, "gp_world_create: %s is NULL (GP_ERROR_INVALID_ARGUMENT)",
                world ? "desc" : "world");
        return GP_ERROR_INVALID_ARGUMENT;
    }
    *world = NULL;
    resolved = gp_query_world_defaults(desc);
    if (!resolved.allocator.alloc || !resolved.allocator.free) {
        gp__log(&resolved.logger, GP_LOG_ERROR, GP_LOG_ITEM_ALLOCATOR_INVALID,
                "gp_world_create: allocator: give both alloc and free, or neither (GP_ERROR_INVALID_ARGUMENT)");
        return GP_ERROR_INVALID_ARGUMENT;
    }
    w = (gp_world*)gp__alloc(&resolved.allocator, sizeof *w);
    if (!w) {
        gp__log(&resolved.logger, GP_LOG_ERROR, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                "gp_world_create: the allocator returned NULL for %zu bytes (GP_ERROR_OUT_OF_MEMORY)", sizeof *w);
        return GP_ERROR_OUT_OF_MEMORY;
    }
    memset(w, 0, sizeof *w);
    w->desc = resolved;
    w->call = "gp_world_create";
    w->capacity = resolved.max_particles;
    w->store.id_space = 2u * w->capacity;
    w->added_lo[0] = w->added_lo[1] = w->added_lo[2] = 3.4e38f;   /* none added yet */
    w->added_hi[0] = w->added_hi[1] = w->added_hi[2] = -3.4e38f;
    if (resolved.grid.mode == GP_GRID_BOUNDED)
        w->buckets = resolved.grid.dims[0] * resolved.grid.dims[1] * resolved.grid.dims[2];
    else
        w->buckets = resolved.grid.buckets;
    r = gp__check_desc(w);
    if (r == GP_OK) r = gp__load_gl(w);
    if (r == GP_OK) {
        gp__GLint64 largest = (gp__GLint64)w->capacity * 16;
        if ((gp__GLint64)(w->buckets + 2) * 4 > largest) largest = (gp__GLint64)(w->buckets + 2) * 4;
        if (largest > w->max_block_bytes)
            r = gp__fail(w, GP_ERROR_GL_LIMITS, GP_LOG_ITEM_GL_LIMIT,
                         "max_particles %u and %u buckets need %lld-byte buffers; this GL allows %lld "
                         "(GL_MAX_SHADER_STORAGE_BLOCK_SIZE)", w->capacity, w->buckets, (long long)largest, (long long)w->max_block_bytes);
    }
    for (p = 0; r == GP_OK && p < GP__PROGRAM_COUNT; ++p) r = gp__compile(w, (gp__program_id)p);
    if (r == GP_OK) {
        const gp_grid_desc* g = &resolved.grid;
        w->params_host.grid_origin[0] = g->mode == GP_GRID_BOUNDED ? g->origin[0] : 0.0f;
        w->params_host.grid_origin[1] = g->mode == GP_GRID_BOUNDED ? g->origin[1] : 0.0f;
        w->params_host.grid_origin[2] = g->mode == GP_GRID_BOUNDED ? g->origin[2] : 0.0f;
        w->params_host.grid_origin[3] = 1.0f / g->cell_size;
        w->params_host.grid_dims[0] = (int32_t)g->dims[0];
        w->params_host.grid_dims[1] = (int32_t)g->dims[1];
        w->params_host.grid_dims[2] = (int32_t)g->dims[2];
        w->params_host.grid_dims[3] = g->mode == GP_GRID_BOUNDED ? 1 : 2;
        w->params_host.counts[1] = w->buckets;
        w->params_host.counts[2] = w->capacity;
        w->params_host.counts[3] = resolved.any_order ? 0u : GP__FLAG_DETERMINISTIC;
        w->fluid.stiffness_auto = (1u << GP_MAX_FLUID_MATERIALS) - 1u;
        for (p = 0; p < GP_MAX_FLUID_MATERIALS; ++p) {
            w->fluid.materials[p] = gp_query_fluid_material_defaults(w, NULL);
            gp__fluid_params_fill(&w->solver_host.fluids[p], &w->fluid.materials[p]);
        }
        for (p = 0; p < GP_MAX_GRANULAR_MATERIALS; ++p) {
            w->dem.materials[p] = gp_query_granular_material_defaults(w, NULL);
            gp__granular_params_fill(w->solver_host.granular[p], &w->dem.materials[p]);
        }
        for (p = 0; p < GP_MAX_EFFECT_MATERIALS; ++p) gp__effect_material_store(w, (uint32_t)p, NULL);
        w->solver_host.gravity[1] = -9.81f;
        w->solver_host.counts[2] = 1u;
        r = gp__create_buffers(w);
    }
    if (r == GP_OK && w->gl.fnGetError() != GP__GL_NO_ERROR)
        r = gp__fail(w, GP_ERROR_GL, GP_LOG_ITEM_GL_ERROR, "GL reported an error while the world was created");
    if (r != GP_OK) {
        if (w->gl.fnGetError) gp_world_destroy(w);
        else gp__free(&resolved.allocator, w);
        return r;
    }
    w->call = NULL;
    *world = w;
    return GP_OK;
}

gp_result gp_world_last_result(const gp_world* world) { return world ? world->last_result : GP_ERROR_INVALID_ARGUMENT; }
uint32_t gp_particle_count(const gp_world* world) { return world ? world->count : 0; }
uint32_t gp_particle_capacity(const gp_world* world) { return world ? world->capacity : 0; }

gp_buffers gp_world_buffers(const gp_world* world) {
    gp_buffers b;
    memset(&b, 0, sizeof b);
    if (!world) return b;
    b.position = world->position;
    b.velocity = world->velocity;
    b.info = world->info;
    b.life = world->life;
    b.density = world->spare8;
    b.slot_of_id = world->slot_of_id;
    b.cell_start = world->cell_start;
    b.count = world->count;
    b.buckets = world->buckets;
    b.store = world->store.words;
#if !defined(GP_NO_DRAW)
    b.sprites = world->draw.sprites;
#endif
    return b;
}

size_t gp_attribute_size(gp_attribute attribute) {
    switch (attribute) {
    case GP_ATTRIBUTE_POSITION: return sizeof(gp_particle_position);
    case GP_ATTRIBUTE_VELOCITY: return sizeof(gp_particle_velocity);
    case GP_ATTRIBUTE_INFO: return sizeof(gp_particle_info);
    case GP_ATTRIBUTE_LIFE: return sizeof(gp_particle_life);
    case GP_ATTRIBUTE_DENSITY: return sizeof(float);
    case GP_ATTRIBUTE_PRESSURE: return sizeof(float);
    case GP_ATTRIBUTE_ACCELERATION: return sizeof(gp_particle_position);
    }
    return 0;
}

static gp__GLuint gp__attribute_buffer(const gp_world* w, gp_attribute attribute) {
    switch (attribute) {
    case GP_ATTRIBUTE_POSITION: return w->position;
    case GP_ATTRIBUTE_VELOCITY: return w->velocity;
    case GP_ATTRIBUTE_INFO: return w->info;
    case GP_ATTRIBUTE_LIFE: return w->life;
    case GP_ATTRIBUTE_DENSITY: return w->spare8;
    case GP_ATTRIBUTE_PRESSURE: return w->spare8;
    case GP_ATTRIBUTE_ACCELERATION: return w->spare16;
    }
    return 0;
}

gp_result gp_particles_add(gp_world* world, const gp_particles_desc* desc, uint32_t* ids) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_add");
    if (desc && desc->kind == GP_KIND_RIGID && desc->count)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ATTRIBUTE_READ_ONLY,
                                       "rigid particles come with their bodies: gp_bodies_add"));
    return gp__end(world, gp__particles_add(world, desc, ids));
}

/* Checks an attribute and a slot range of the live particles. */
static gp_result gp__check_range(gp_world* w, gp_attribute attribute, uint32_t first, uint32_t count, const void* data) {
    if (gp_attribute_size(attribute) == 0)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_NOT_AN_ENUM_VALUE,
                        "attribute %d is not a gp_attribute", (int)attribute);
    if (first > w->count || count > w->count - first)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_SLOTS_NOT_LIVE,
                        "slots [%u, %llu) are not all live: %u particles are", first,
                        (unsigned long long)first + count, w->count);
    if (count > 0 && !data) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                            "the data pointer is NULL for %u particles", count);
    return GP_OK;
}

gp_result gp_particles_check(gp_world* world, uint32_t* misplaced) {
    uint32_t timer;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_check");
    if (!misplaced) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "misplaced is NULL"));
    gp__buffer_zero(world, world->store.words, offsetof(gp__store_words, check), 4);
    timer = gp__timer_begin(world, GP__STAGE_STORE_CHECK);
    gp__use(world, GP__PROGRAM_STORE_CHECK);
    gp__dispatch_store(world);
    gp__timer_end(world, timer);
    gp__buffer_download(world, world->store.words, offsetof(gp__store_words, check), 4, misplaced);
    gp__buffer_guards_check(world, "gp_particles_check");
    if (*misplaced)
        GP__LOG(world, GP_LOG_ERROR, GP_LOG_ITEM_STORE_CORRUPT,
                "gp_particles_check: %u live slots hold a particle the id table places elsewhere: particles were written "
                "twice or over one another, and some are lost (a driver or memory fault; the library makes none)", *misplaced);
    return gp__end(world, GP_OK);
}

gp_result gp_particles_read(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, void* dst) {
    gp_result r;
    size_t size = gp_attribute_size(attribute);
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_read");
    if ((r = gp__check_range(world, attribute, first, count, dst)) != GP_OK) return gp__end(world, r);
    if (attribute == GP_ATTRIBUTE_DENSITY || attribute == GP_ATTRIBUTE_PRESSURE || attribute == GP_ATTRIBUTE_ACCELERATION) {
        if (!world->fluid.valid || first + count > world->fluid.count)
            return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, GP_LOG_ITEM_FLUID_VALUES_STALE,
                                           "densities, pressures and accelerations come from "
                                           "gp_world_step or gp_fluid_compute; a grid build or new particles since have left "
                                           "slots [%u, %u) without them", first, first + count));
        if (attribute != GP_ATTRIBUTE_ACCELERATION) {
            /* the spare holds (density, pressure) pairs: fetch them, keep one of each */
            float* pairs = (float*)gp__alloc(&world->desc.allocator, (size_t)count * 8);
            uint32_t i;
            if (!pairs) return gp__end(world, gp__fail(world, GP_ERROR_OUT_OF_MEMORY, GP_LOG_ITEM_HOST_OUT_OF_MEMORY,
                                                       "no host memory for %u values", count));
            gp__buffer_download(world, world->spare8, (size_t)first * 8, (size_t)count * 8, pairs);
            for (i = 0; i < count; ++i) ((float*)dst)[i] = pairs[2 * i + (attribute == GP_ATTRIBUTE_PRESSURE)];
            gp__free(&world->desc.allocator, pairs);
            return gp__end(world, GP_OK);
        }
    }
    gp__buffer_download(world, gp__attribute_buffer(world, attribute), (size_t)first * size, (size_t)count * size, dst);
    return gp__end(world, GP_OK);
}

gp_result gp_particles_write(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, const void* src) {
    gp_result r;
    size_t size = gp_attribute_size(attribute);
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_particles_write");
    if ((r = gp__check_range(world, attribute, first, count, src)) != GP_OK) return gp__end(world, r);
    if (attribute == GP_ATTRIBUTE_INFO)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ATTRIBUTE_READ_ONLY,
                                       "info holds the library's ids and cannot be written"));
    if (attribute == GP_ATTRIBUTE_DENSITY || attribute == GP_ATTRIBUTE_PRESSURE || attribute == GP_ATTRIBUTE_ACCELERATION)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ATTRIBUTE_READ_ONLY,
                                       "density, pressure and acceleration are the solver's results: read only"));
    if (attribute == GP_ATTRIBUTE_POSITION) r = gp__check_values(world, "position (x, y, z, radius)", (const float*)src, count, 4, 4, true);
    if (attribute == GP_ATTRIBUTE_VELOCITY) r = gp__check_values(world, "velocity (x, y, z, mass)", (const float*)src, count, 4, 4, true);
    if (attribute == GP_ATTRIBUTE_LIFE) {
        uint32_t i;
        const float* v = (const float*)src;
        r = gp__check_values(world, "life (age, lifetime)", v, count, 2, 2, false);
        for (i = 0; r == GP_OK && i < count; ++i)
            if (v[2 * i] < 0.0f || v[2 * i + 1] < 0.0f)
                r = gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE,
                             "life of particle %u has a negative age or lifetime", i);
    }
    if (r != GP_OK) return gp__end(world, r);
    gp__buffer_upload(world, gp__attribute_buffer(world, attribute), (size_t)first * size, (size_t)count * size, src);
    if (attribute == GP_ATTRIBUTE_POSITION) world->grid_built = false;
    if (attribute == GP_ATTRIBUTE_LIFE) { world->store.mortal = true; world->grid_built = false; }   /* some may die now */
    if (attribute == GP_ATTRIBUTE_VELOCITY) {   /* the next step's substeps must know the fastest */
        const float* v = (const float*)src;
        uint32_t i;
        for (i = 0; i < count; ++i) {
            float speed = sqrtf(v[4 * i] * v[4 * i] + v[4 * i + 1] * v[4 * i + 1] + v[4 * i + 2] * v[4 * i + 2]);
            if (speed > world->step.added_speed) world->step.added_speed = speed;
        }
    }
    world->step.moved = true;
    return gp__end(world, GP_OK);
}

gp_result gp_buffer_create(gp_world* world, size_t bytes, const void* data, uint32_t* buffer) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_buffer_create");
    if (!buffer) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL, "buffer is NULL"));
    r = gp__buffer_make(world, bytes, data, "the requested buffer", true, buffer);
    return gp__end(world, r);
}

gp_result gp_buffer_destroy(gp_world* world, uint32_t buffer) {
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_buffer_destroy");
    if (buffer && gp__buffer_owned(world, buffer))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                       "buffer %u is the world's own (gp_world_buffers' or one it keeps inside): not deleted",
                                       buffer));
    if (buffer) world->gl.fnDeleteBuffers(1, &buffer);
    return gp__end(world, GP_OK);
}

gp_result gp_buffer_write(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, const void* src) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_buffer_write");
    if (bytes && !src) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                      "src is NULL"));
    if (bytes > (size_t)-1 - offset) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                                                    "offset + bytes overflows"));
    if ((r = gp__check_buffer(world, buffer, offset + bytes, "buffer")) != GP_OK) return gp__end(world, r);
    gp__buffer_upload(world, buffer, offset, bytes, src);
    return gp__end(world, GP_OK);
}

gp_result gp_buffer_read(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, void* dst) {
    gp_result r;
    if (!world) return gp__no_world(__func__);
    gp__begin(world, "gp_buffer_read");
    if (bytes && !dst) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_ARGUMENT_NULL,
                                                      "dst is NULL"));
    if (bytes > (size_t)-1 - offset) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, GP_LOG_ITEM_BUFFER_INVALID,
                                                                    "offset + bytes overflows"));
    if ((r = gp__check_buffer(world, buffer, offset + bytes, "buffer")) != GP_OK) return gp__end(world, r);
    gp__buffer_download(world, buffer, offset, bytes, dst);
    return gp__end(world, GP_OK);
}

uint32_t gp_timings_read(gp_world* world, gp_timing* timings, uint32_t max) {
    static const char* const names[GP__STAGE_COUNT] = {
#define GP__STAGE_NAME(name, text) text,
        GP__STAGES(GP__STAGE_NAME)
#undef GP__STAGE_NAME
    };
    uint32_t n = 0, s;
    if (!world || !world->desc.gpu_timings) return 0;
    gp__timers_collect(world);
    for (s = 0; s < GP__STAGE_COUNT; ++s) {
        if (!world->totals[s].runs) continue;
        if (timings && n < max) {
            timings[n] = world->totals[s];
            timings[n].stage = names[s];
        }
        ++n;
    }
    if (timings) memset(world->totals, 0, sizeof world->totals);
    return n;
}

/* >>references =============================================================================
   REFERENCES
   The comments cite a work by its authors and year, as keyed below; a bare "eq. N" in a section
   means the paper of that section (>>sph: Harada et al. 2007a; >>dem and >>rigid: Harada 2007).
   The number beside each is the short name the tests, examples and notes cite it by ("001 eq. 4").
   Harada 2007          000: T. Harada, "Real-Time Rigid Body Simulation on GPUs", GPU Gems 3,
                        chapter 29 (2007). Cited: eqs. 1-8 (momenta, angular velocity, quaternion
                        update), 9 (voxel index), 10-13 (contact spring, dashpot, shear), 14-15 (a
                        body's force and torque), 18-21 (its particles and its drawing); sections
                        29.1.3, 29.1.5, 29.2, 29.3 (granular matter, coupling).
   Harada et al. 2007a  001: T. Harada, S. Koshizuka, Y. Kawaguchi, "Smoothed Particle
                        Hydrodynamics on GPUs", Computer Graphics International (2007). Cited:
                        eqs. 4-5 (density, pressure), 6-7 (pressure and viscosity forces), 8-10
                        (kernels), 11 (the walls' push), 13 (the wall weight function), 14 (the
                        integration); sections 3.3, 4.4-4.6; figures 4-9; Tables 1-2 (the benchmark).
   Kipfer et al. 2004   002: P. Kipfer, M. Segal, R. Westermann, "UberFlow: A GPU-Based Particle
                        Engine", Graphics Hardware (2004). Cited: sections 4.1 (emitters), 4.2
                        (motion), 4.3-4.5 (collisions), 4.6 (height fields, the back-up and
                        reflection); the bitonic sort by view depth; drawing from GPU memory.
   Harada et al. 2007b  003: T. Harada, S. Koshizuka, Y. Kawaguchi, "Real-time Fluid Simulation
                        Coupled with Cloth", IPSJ (2007). Planned: cloth.
   the multi-GPU chapter  004: a book chapter on particle simulation on several GPUs (domain
                        split, ghost and migrating particles). Cited: the Courant condition that
                        bounds a substep. Planned: several GPUs.
   Adami et al. 2012    S. Adami, X. Hu, N. Adams, "A generalized wall boundary condition for
                        smoothed particle hydrodynamics", J. Comput. Phys. 231 (2012): the walls'
                        and the solids' hydrostatic pressure.
   Ai et al. 2011       J. Ai, J.-F. Chen, J. M. Rotter, J. Y. Ooi, "Assessment of rolling
                        resistance models in discrete element simulations", Powder Technol. 206
                        (2011): the rolling resistance.
   Akinci et al. 2012   N. Akinci, M. Ihmsen, G. Akinci, B. Solenthaler, M. Teschner, "Versatile
                        rigid-fluid coupling for incompressible SPH", ACM TOG 31(4) (2012): the
                        solids as the fluid's boundary particles.
   Antuono et al. 2012  M. Antuono, A. Colagrossi, S. Marrone, "Numerical diffusive terms in
                        weakly-compressible SPH schemes", Comput. Phys. Commun. 183 (2012): the
                        delta-SPH diffusion.
   Appleby              A. Appleby, MurmurHash3's finaliser: the grid's hash.
   Balachandar et al. 2019  S. Balachandar, K. Liu, M. Lakhote, "Self-induced velocity correction
                        for improved drag estimation in Euler-Lagrange point-particle
                        simulations", J. Comput. Phys. 376 (2019): the drag's self-induced velocity.
   Bender and Koschier 2015  J. Bender, D. Koschier, "Divergence-free smoothed particle
                        hydrodynamics", SCA (2015): the clamp of a free surface's density.
   Bridson et al. 2007  R. Bridson, J. Hourihan, M. Nordenstam, "Curl-noise for procedural fluid
                        flow", ACM TOG 26(3) (2007): the wind's turbulence.
   Clift, Grace and Weber 1978  R. Clift, J. Grace, M. Weber, "Bubbles, Drops, and Particles"
                        (1978): the drag curve of a sphere.
   Crespo et al. 2015   A. Crespo et al., "DualSPHysics: open-source parallel CFD solver based on
                        smoothed particle hydrodynamics", Comput. Phys. Commun. 187 (2015): the
                        speed of sound from the fluid's depth.
   Cooker and Peregrine 1995  M. Cooker, D. Peregrine, "Pressure-impulse theory for liquid impact
                        problems", J. Fluid Mech. 297 (1995): why no speed bound holds at a resolved
                        first impact.
   Cundall and Strack 1979  P. Cundall, O. Strack, "A discrete numerical model for granular
                        assemblies", Geotechnique 29 (1979): the contacts' shear spring.
   Di Felice 1994       R. Di Felice, "The voidage function for fluid-particle interaction
                        systems", Int. J. Multiphase Flow 20 (1994): a dense bed's drag, not
                        modelled.
   Duff et al. 2017     T. Duff et al., "Building an Orthonormal Basis, Revisited", JCGT 6(1)
                        (2017): the emitters' basis about their direction.
   Dullweber et al. 1997  A. Dullweber, B. Leimkuhler, R. McLachlan, "Symplectic splitting
                        methods for rigid body molecular dynamics", J. Chem. Phys. 107 (1997): the
                        bodies' free rotation.
   Ihmsen et al. 2014   M. Ihmsen, J. Cornelis, B. Solenthaler, C. Horvath, M. Teschner,
                        "Implicit incompressible SPH", IEEE TVCG 20(3) (2014): the clamp of a
                        free surface's density.
   Jarzynski and Olano 2020  M. Jarzynski, M. Olano, "Hash Functions for GPU Rendering", JCGT 9(3)
                        (2020): pcg3d, the emitters' random numbers.
   Lube et al. 2004     G. Lube, H. Huppert, R. Sparks, M. Hallworth, "Axisymmetric collapses of
                        granular columns", J. Fluid Mech. 508 (2004): the runout of a collapsing
                        column.
   Marrone et al. 2010  S. Marrone, A. Colagrossi, D. Le Touze, G. Graziani, "Fast free-surface
                        detection and level-set function definition in SPH solvers", J. Comput.
                        Phys. 229 (2010): the free surface's threshold.
   McLachlan 1993       R. McLachlan, "Explicit Lie-Poisson integration and the Euler
                        equations", Phys. Rev. Lett. 71 (1993): the bodies' free rotation.
   Monaghan 1992        J. Monaghan, "Smoothed particle hydrodynamics", Annu. Rev. Astron.
                        Astrophys. 30 (1992): the artificial viscosity.
   Monaghan 1994        J. Monaghan, "Simulating free surface flows with SPH", J. Comput. Phys.
                        110 (1994): the speed of sound from the fluid's depth.
   Müller et al. 2003   M. Müller, D. Charypar, M. Gross, "Particle-Based Fluid Simulation for
                        Interactive Applications", SCA (2003): the kernels.
   Schiller and Naumann 1933  L. Schiller, A. Naumann, "Ueber die grundlegenden Berechnungen bei
                        der Schwerkraftaufbereitung", Z. Ver. Dtsch. Ing. 77 (1933): the drag curve
                        of a sphere the fluid drags small grains by.
   Taylor and Green 1937  G. Taylor, A. Green, "Mechanism of the production of small eddies from
                        large ones", Proc. R. Soc. A 158 (1937): the decaying vortex the fluid's
                        viscosity is measured by.
   Yoshida 1990         H. Yoshida, "Construction of higher order symplectic integrators", Phys.
                        Lett. A 150 (1990): the bodies' free rotation.
*/

/* >>licence ================================================================================
   MIT License

   Copyright (c) 2026 The gpuparticle.h authors

   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to deal
   in the Software without restriction, including without limitation the rights
   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
   copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all
   copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
   SOFTWARE.
*/

#endif /* GP__IMPLEMENTATION_INCLUDED */
#endif /* GPUPARTICLE_IMPLEMENTATION */
