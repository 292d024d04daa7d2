/* gpuparticle.h v0.1.0 - particle physics on the GPU with OpenGL 4.3 compute shaders. MIT licence.

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

   gpuparticle.h does NOT:
       - open a window or create a GL context: make yours current, then create a world;
       - need a GL loader, and it declares no gl* or GL_* name, so it sits beside glad, GLEW
         or GL/gl.h in the same file;
       - touch GL state you did not hand it, except as listed under "GL state" below;
       - ask you for glMemoryBarrier: every gp_ call issues the barriers its reads and writes
         need, before and after, so buffers are ready to draw or read when it returns.

   CONTENTS (each section has a grep-able anchor, >>name)
       >>docs       step by step, the particle layout, GL state, errors
       >>api        the public declarations
       >>loader     the private table of GL 4.3 entry points
       >>logging    messages to the user's logger
       >>memory     the user's allocator
       >>buffers    GPU buffers and the particle store
       >>shaders    the embedded compute shaders (generated) and their compilation
       >>pipeline   dispatches, barriers, timer queries
       >>scan       exclusive prefix sum, stream compaction, indirect arguments
       >>sort       bitonic sort of (key, value) pairs
       >>grid       the neighbour grid: counting sort, bounded and hashed
       >>public     world creation and the particle store's public functions
   Planned, one section each as its issue lands: sph, dem, rigid, cloth, emitter, multi-device.

   >>docs ===================================================================================

   STEP BY STEP

       gp_world* world = NULL;
       gp_world_desc desc = {0};
       desc.max_particles = 100000;
       desc.get_proc_address = glfwGetProcAddress;      // or eglGetProcAddress; SDL2's with a cast
       desc.grid.cell_size = 0.1f;                      // no dims: an unbounded, hashed grid
       if (gp_world_create(&desc, &world) != GP_OK) return 1;   // the logger said why

       gp_particles_desc block = {0};
       block.count = n; block.positions = xyz;          // n * 3 floats
       gp_particles_add(world, &block, NULL);

       gp_grid_build(world);                            // every frame, after particles move
       gp_buffers b = gp_world_buffers(world);          // names change after each build
       glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b.position);   // draw b.count points
       gp_world_destroy(world);

   THE PARTICLE STORE is a struct of arrays, one shader storage buffer per attribute, of
   max_particles elements; slots [0, count) are live. After gp_grid_build they are in cell
   order. Particles of every kind share it, and the one grid over it, so that all can interact.

       attribute  GLSL (std430)  C mirror              contents
       position   vec4           gp_particle_position  x, y, z (metres), radius (metres)
       velocity   vec4           gp_particle_velocity  x, y, z (m/s), mass (kg)
       info       uvec4          gp_particle_info      id, kind | flags << 8 | phase << 16,
                                                       owner (body, cloth or emitter), user
       life       vec2           gp_particle_life      age (s), lifetime (s, 0 = forever)

   An id is unique among live particles and below max_particles; it stays with the particle
   while slots change. slot_of_id (a uint per id) says where each particle is after a build.

   THE GRID files every particle under a bucket by counting sort: cell_start (a uint per bucket,
   plus two) gives bucket b the slots [cell_start[b], cell_start[b + 1]). Bounded: one bucket per
   cell of a box of dims cells from origin; particles outside are clamped into the border cells
   and counted, never dropped. Hashed: any position; 4 x 4 x 4 blocks of cells hash into a table of
   `buckets` (a power of two), a block's 64 cells side by side so that neighbouring cells stay near
   in memory, and a neighbour loop skips candidates whose own cell is not the cell it visits, so
   distant cells that share a bucket never meet. Either way a particle with a NaN or infinite coordinate goes to the
   extra bucket past the last, is counted, and meets no one. No cap on particles per cell.
   shaders_embedded/grid_neighbors.comp is the neighbour loop every solver follows.

   GL STATE. A gp_ call may change: the buffers bound to GL_SHADER_STORAGE_BUFFER (and its
   indexed bindings 0-7), GL_UNIFORM_BUFFER (and its binding 0), GL_COPY_READ_BUFFER and
   GL_COPY_WRITE_BUFFER. It restores the current program, and touches nothing else.

   ERRORS come in three layers: every function that can fail returns a gp_result
   (gp_result_string names it); the logger in the desc receives a message that names the
   function and the problem, with the driver's log when a shader fails to compile; and
   gp_world_last_result keeps the last result. Nothing fails silently; nothing is half done:
   a call that fails has changed nothing, unless its message says otherwise.
*/

#ifndef GPUPARTICLE_H_INCLUDED
#define GPUPARTICLE_H_INCLUDED

/* >>api ==================================================================================== */

#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 1
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

/* Receives every message. message is one line, or several for a shader's compile log, and is
   valid during the call only. Default: warnings and errors to stderr. */
typedef struct gp_logger {
    void (*func)(gp_log_level level, const char* message, void* user_data);
    void* user_data;
} gp_logger;

/* Host memory for the world's own bookkeeping (small: the GPU holds the particles).
   Default: malloc and free. Give both functions or neither. */
typedef struct gp_allocator {
    void* (*alloc)(size_t size, void* user_data);
    void (*free)(void* ptr, void* user_data);
    void* user_data;
} gp_allocator;

/* A GL function pointer, as glfwGetProcAddress and eglGetProcAddress return it. */
typedef void (*gp_proc)(void);
typedef gp_proc (*gp_get_proc_address_fn)(const char* name);

typedef enum gp_grid_mode {
    GP_GRID_DEFAULT = 0,   /* BOUNDED when dims are given, else HASHED */
    GP_GRID_BOUNDED,       /* a box of dims cells from origin; outside particles clamped, counted */
    GP_GRID_HASHED         /* unbounded: cells hashed into a table of `buckets` buckets */
} gp_grid_mode;

/* The neighbour grid shared by every kind of particle. */
typedef struct gp_grid_desc {
    gp_grid_mode mode;
    float cell_size;       /* metres, at least the largest interaction radius; default 0.1 */
    float origin[3];       /* bounded: lowest corner, metres; default (0, 0, 0) */
    uint32_t dims[3];      /* bounded: cells along x, y and z */
    uint32_t buckets;      /* hashed: table size, rounded up to a power of two;
                              default max(4096, next power of two >= max_particles) */
} gp_grid_desc;

/* Everything a world needs, zero-initialised for the defaults. Copied: need not outlive the call. */
typedef struct gp_world_desc {
    uint32_t max_particles;                 /* capacity of the particle store; default 65,536 */
    gp_grid_desc grid;
    bool deterministic;                     /* order particles in a cell by id, so that two runs
                                               from one state are bit-identical; default false */
    bool gpu_timings;                       /* record per-stage GPU times; default false */
    gp_get_proc_address_fn get_proc_address; /* default: the dlsym fallback (see the top) */
    gp_allocator allocator;
    gp_logger logger;
    const char* shader_prelude;             /* GLSL put after #version in every library shader,
                                               for experiments; default none */
} gp_world_desc;

typedef struct gp_world gp_world;

/* desc with every zero replaced by its default, as gp_world_create will see it. */
GP_API_DECL gp_world_desc gp_query_world_defaults(const gp_world_desc* desc);

/* Creates a world in the GL context current on this thread. Checks the context (OpenGL 4.3 or
   newer, compute and buffer limits), loads the entry points, compiles the shaders and allocates
   the store. On failure *world is NULL and the logger has said why. */
GP_API_DECL gp_result gp_world_create(const gp_world_desc* desc, gp_world** world);
/* Frees every GL object and host allocation of the world; its context must be current. NULL is ignored. */
GP_API_DECL void gp_world_destroy(gp_world* world);
/* The result of the last gp_ call on this world that could fail. */
GP_API_DECL gp_result gp_world_last_result(const gp_world* world);

/* ---- the particle store ---------------------------------------------------------------- */

/* What a particle is. The grid files every kind together; each solver acts on its own kinds.
   v0.1 stores and sorts all kinds; the solvers arrive with their sections (see the README). */
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

/* The C mirrors of the store's std430 layouts (sizes checked in the implementation). */
typedef struct gp_particle_position { float x, y, z, radius; } gp_particle_position;
typedef struct gp_particle_velocity { float x, y, z, mass; } gp_particle_velocity;
typedef struct gp_particle_info {
    uint32_t id;      /* unique among live particles, < max_particles; stable across builds */
    uint32_t kind;    /* bits 0-7 gp_kind, 8-15 flags (reserved, 0), 16-31 phase (material index) */
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
    float radius;              /* metres; default half the grid's cell size */
    float mass;                /* kg; default 1 */
    gp_kind kind;
    uint32_t phase;            /* material index, < 65,536; default 0 */
    uint32_t owner;            /* default GP_NO_OWNER (0 means owner 0 only with .has_owner) */
    bool has_owner;            /* true: .owner is meant, even when 0 */
    uint32_t user;
    float lifetime;            /* seconds, 0 = forever */
} gp_particles_desc;

/* Appends a batch after the live particles. All or nothing: if the batch does not fit, or any
   value is NaN, infinite or out of range, nothing is added and the result says why.
   ids, if not NULL, receives the count ids given to the batch, in order. */
GP_API_DECL gp_result gp_particles_add(gp_world* world, const gp_particles_desc* desc, uint32_t* ids);
/* Live particles. */
GP_API_DECL uint32_t gp_particle_count(const gp_world* world);
/* The store's capacity (max_particles). */
GP_API_DECL uint32_t gp_particle_capacity(const gp_world* world);

typedef enum gp_attribute {
    GP_ATTRIBUTE_POSITION = 1,   /* gp_particle_position */
    GP_ATTRIBUTE_VELOCITY,       /* gp_particle_velocity */
    GP_ATTRIBUTE_INFO,           /* gp_particle_info (read only) */
    GP_ATTRIBUTE_LIFE            /* gp_particle_life */
} gp_attribute;

/* Bytes per particle of an attribute; 0 for an unknown one. */
GP_API_DECL size_t gp_attribute_size(gp_attribute attribute);
/* Copies slots [first, first + count) of an attribute into dst (count * gp_attribute_size). */
GP_API_DECL gp_result gp_particles_read(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, void* dst);
/* Overwrites slots [first, first + count) of position, velocity or life, checked like
   gp_particles_add (finite values, positive radius and mass). Info is the library's. */
GP_API_DECL gp_result gp_particles_write(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, const void* src);

/* The raw GL buffer names, for drawing straight from the GPU (see THE PARTICLE STORE above).
   Attribute names change at every gp_grid_build (the reorder swaps buffers): fetch them again
   after each one. */
typedef struct gp_buffers {
    uint32_t position, velocity, info, life;   /* max_particles elements each */
    uint32_t slot_of_id;                       /* uint per id: the slot it is in after a build */
    uint32_t cell_start;                       /* uint per bucket, plus two */
    uint32_t count;                            /* live particles */
    uint32_t buckets;                          /* buckets, not counting the NaN bucket */
} gp_buffers;
GP_API_DECL gp_buffers gp_world_buffers(const gp_world* world);

/* ---- the neighbour grid ------------------------------------------------------------------ */

/* Sorts the live particles into cell order (every attribute), fills cell_start and slot_of_id. */
GP_API_DECL gp_result gp_grid_build(gp_world* world);

typedef struct gp_grid_stats {
    uint32_t particles;    /* filed by the last build */
    uint32_t outside;      /* finite, but outside the bounded box (or the hash's range) */
    uint32_t nonfinite;    /* with a NaN or infinite coordinate, in the extra bucket */
    uint32_t truncated;    /* particles whose neighbour loop the driver cut short since the build
                              (llvmpipe stops a shader's loops after 65,535 iterations: about
                              500,000 candidates for one particle); 0 on any sane input */
    uint32_t buckets;      /* not counting the extra bucket */
} gp_grid_stats;
/* What the last gp_grid_build found, and what neighbour passes since met (reads back a few
   words: it waits for the GPU). Logs a warning when truncated is not 0. */
GP_API_DECL gp_result gp_grid_stats_read(gp_world* world, gp_grid_stats* stats);

/* For each live slot k, writes to out_buffer[k] how many other particles lie closer than
   radius (<= cell size), through the grid built last. The neighbour loop of every solver. */
GP_API_DECL gp_result gp_grid_count_neighbors(gp_world* world, float radius, uint32_t out_buffer);

/* ---- primitives on your own buffers ------------------------------------------------------
   GL buffer names of uint32 arrays; counts in elements, offsets in bytes. Each checks that the
   buffers exist and are large enough, and returns GP_ERROR_INVALID_ARGUMENT otherwise. */

/* Exclusive prefix sum: output[i] = input[0] + ... + input[i - 1], modulo 2^32. output may be
   input. Any count, 0 included; reduce-then-scan, no workgroup ever waits on another. */
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

/* A plain streaming pass, destination[i] = source[i]: the yardstick of `make bench`. */
GP_API_DECL gp_result gp_copy(gp_world* world, uint32_t source, uint32_t destination, uint32_t count);

/* Buffer helpers that issue the barriers for you. gp_buffer_create takes data or NULL. */
GP_API_DECL gp_result gp_buffer_create(gp_world* world, size_t bytes, const void* data, uint32_t* buffer);
GP_API_DECL void gp_buffer_destroy(gp_world* world, uint32_t buffer);
GP_API_DECL gp_result gp_buffer_write(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, const void* src);
GP_API_DECL gp_result gp_buffer_read(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, void* dst);

/* ---- timings ------------------------------------------------------------------------------ */

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
typedef char gp__GLchar;
typedef unsigned char gp__GLboolean;
typedef unsigned char gp__GLubyte;

#define GP__GL_NO_ERROR 0
#define GP__GL_VERSION 0x1F02
#define GP__GL_RENDERER 0x1F01
#define GP__GL_MAJOR_VERSION 0x821B
#define GP__GL_MINOR_VERSION 0x821C
#define GP__GL_SHADER_STORAGE_BUFFER 0x90D2
#define GP__GL_UNIFORM_BUFFER 0x8A11
#define GP__GL_COPY_READ_BUFFER 0x8F36
#define GP__GL_COPY_WRITE_BUFFER 0x8F37
#define GP__GL_BUFFER_SIZE 0x8764
#define GP__GL_DYNAMIC_COPY 0x88EA
#define GP__GL_COMPUTE_SHADER 0x91B9
#define GP__GL_COMPILE_STATUS 0x8B81
#define GP__GL_LINK_STATUS 0x8B82
#define GP__GL_CURRENT_PROGRAM 0x8B8D
#define GP__GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS 0x90EB
#define GP__GL_MAX_COMPUTE_WORK_GROUP_SIZE 0x91BF
#define GP__GL_MAX_COMPUTE_SHARED_MEMORY_SIZE 0x8262
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
    X(void, BufferSubData, (gp__GLenum target, gp__GLintptr offset, gp__GLsizeiptr size, const void* data)) \
    X(void, GetBufferSubData, (gp__GLenum target, gp__GLintptr offset, gp__GLsizeiptr size, void* data)) \
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
    X(void, DispatchCompute, (gp__GLuint x, gp__GLuint y, gp__GLuint z)) \
    X(void, MemoryBarrier, (gp__GLbitfield barriers)) \
    X(void, GenQueries, (gp__GLsizei n, gp__GLuint* ids)) \
    X(void, DeleteQueries, (gp__GLsizei n, const gp__GLuint* ids)) \
    X(void, QueryCounter, (gp__GLuint id, gp__GLenum target)) \
    X(void, GetQueryObjectui64v, (gp__GLuint id, gp__GLenum pname, gp__GLuint64* params))

#define GP__GL_MEMBER(ret, name, args) ret (GP__APIENTRY *fn##name) args;
typedef struct gp__gl {
    GP__GL_FUNCTIONS(GP__GL_MEMBER)
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
static void gp__default_log(gp_log_level level, const char* message, void* user_data) {
    (void)user_data;
    if (level <= GP_LOG_WARNING) fprintf(stderr, "%s\n", message);
}

/* Formats "gpuparticle: <fmt>" and hands it to the logger. Long messages (a shader's compile log)
   are cut at 8 KiB; the logger sees the start, which has the first errors. */
static void gp__log(const gp_logger* logger, gp_log_level level, const char* fmt, ...) {
    char message[8192];
    va_list args;
    int used = snprintf(message, sizeof message, "gpuparticle: ");
    va_start(args, fmt);
    vsnprintf(message + used, sizeof message - (size_t)used, fmt, args);
    va_end(args);
    if (logger && logger->func) logger->func(level, message, logger->user_data);
    else gp__default_log(level, message, NULL);
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

/* The world. Buffer names are GL's; sizes in bytes. */
#define GP__SCAN_MAX_LEVELS 8   /* 2^32 elements, chunks of 32 */
#define GP__TIMER_MAX_PENDING 1024
#define GP__TIMER_MAX_STAGES 32

/* The std140 uniform block of shaders_embedded/gp_world.glsl, field for field. */
typedef struct gp__world_params {
    float grid_origin[4];   /* xyz lowest corner, w cell size */
    int32_t grid_dims[4];   /* xyz cells per axis, w mode */
    uint32_t counts[4];     /* live particles, buckets, capacity, flags */
} gp__world_params;
GP__STATIC_ASSERT(world_params_is_std140, sizeof(gp__world_params) == 48);

typedef struct gp__timer { const char* stage; gp__GLuint begin, end; } gp__timer;

struct gp_world {
    gp_world_desc desc;                   /* resolved */
    gp__gl gl;
    gp_result last_result;
    gp__GLint64 max_block_bytes;          /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
    gp__GLuint programs[32];
    /* the particle store */
    uint32_t capacity, count;
    gp__GLuint position, velocity, info, life;
    gp__GLuint spare16, spare8;           /* reorder targets, swapped with the attribute */
    gp__GLuint slot_of_id;
    /* the grid */
    uint32_t buckets;                     /* not counting the NaN bucket */
    gp__GLuint cell_key, order;           /* uint per particle */
    gp__GLuint cell_count, cell_start;    /* uint per bucket, plus two */
    gp__GLuint grid_stats;                /* outside, nonfinite, truncated */
    gp__GLuint params;                    /* the uniform block */
    gp__world_params params_host;
    bool grid_built;
    uint32_t grid_particles;
    /* scratch, grown on demand */
    gp__GLuint scan_sums[GP__SCAN_MAX_LEVELS];
    size_t scan_sums_bytes[GP__SCAN_MAX_LEVELS];
    /* timer queries */
    gp__timer pending[GP__TIMER_MAX_PENDING];
    uint32_t pending_count;
    gp_timing totals[GP__TIMER_MAX_STAGES];
    uint32_t total_count;
    /* the state saved by gp__begin */
    gp__GLint saved_program;
    const char* call;                     /* the public function running, for messages */
};

#define GP__LOG(w, level, ...) gp__log(&(w)->desc.logger, level, __VA_ARGS__)

/* Logs an error of the running call and returns it; the usual exit of a failing check. */
static gp_result gp__fail(gp_world* w, gp_result result, const char* fmt, ...) {
    char message[7168];   /* room for a shader compile log (6 KiB) */
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    GP__LOG(w, GP_LOG_ERROR, "%s: %s (%s)", w->call ? w->call : "gpuparticle", message, gp_result_string(result));
    w->last_result = result;
    return result;
}

/* >>buffers ================================================================================ */

/* A new buffer of bytes (contents undefined unless data), or 0 with the reason logged. */
static gp_result gp__buffer_new(gp_world* w, size_t bytes, const void* data, const char* what, gp__GLuint* out) {
    gp__gl* gl = &w->gl;
    gp__GLuint buffer = 0;
    *out = 0;
    if ((gp__GLint64)bytes > w->max_block_bytes)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "%s needs %zu bytes; this GL allows %lld per shader storage block",
                        what, bytes, (long long)w->max_block_bytes);
    while (gl->fnGetError() != GP__GL_NO_ERROR) {}
    gl->fnGenBuffers(1, &buffer);
    gl->fnBindBuffer(GP__GL_SHADER_STORAGE_BUFFER, buffer);
    gl->fnBufferData(GP__GL_SHADER_STORAGE_BUFFER, (gp__GLsizeiptr)bytes, data, GP__GL_DYNAMIC_COPY);
    gl->fnBindBuffer(GP__GL_SHADER_STORAGE_BUFFER, 0);
    if (gl->fnGetError() != GP__GL_NO_ERROR) {
        gl->fnDeleteBuffers(1, &buffer);
        return gp__fail(w, GP_ERROR_GPU_OUT_OF_MEMORY, "GL could not allocate %zu bytes for %s", bytes, what);
    }
    *out = buffer;
    return GP_OK;
}

static void gp__buffer_delete(gp_world* w, gp__GLuint* buffer) {
    if (*buffer) w->gl.fnDeleteBuffers(1, buffer);
    *buffer = 0;
}

/* Grows a scratch buffer to at least bytes (its contents are not kept). */
static gp_result gp__scratch(gp_world* w, gp__GLuint* buffer, size_t* size, size_t bytes, const char* what) {
    gp_result r;
    if (*buffer && *size >= bytes) return GP_OK;
    gp__buffer_delete(w, buffer);
    *size = 0;
    r = gp__buffer_new(w, bytes ? bytes : 4, NULL, what, buffer);
    if (r == GP_OK) *size = bytes;
    return r;
}

/* Checks that a user's buffer exists and holds at least bytes. role names it in the message. */
static gp_result gp__check_buffer(gp_world* w, gp__GLuint buffer, size_t bytes, const char* role) {
    gp__gl* gl = &w->gl;
    gp__GLint64 size = 0;
    if (buffer == 0 || !gl->fnIsBuffer(buffer))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "%s %u is not a GL buffer", role, buffer);
    gl->fnBindBuffer(GP__GL_COPY_READ_BUFFER, buffer);
    gl->fnGetBufferParameteri64v(GP__GL_COPY_READ_BUFFER, GP__GL_BUFFER_SIZE, &size);
    gl->fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
    if ((uint64_t)size < (uint64_t)bytes)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "%s %u holds %lld bytes; this call needs %zu",
                        role, buffer, (long long)size, bytes);
    return GP_OK;
}

static void gp__buffer_upload(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, const void* src) {
    if (!bytes) return;
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, buffer);
    w->gl.fnBufferSubData(GP__GL_COPY_WRITE_BUFFER, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes, src);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
}

static void gp__buffer_download(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes, void* dst) {
    if (!bytes) return;
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, buffer);
    w->gl.fnGetBufferSubData(GP__GL_COPY_READ_BUFFER, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes, dst);
    w->gl.fnBindBuffer(GP__GL_COPY_READ_BUFFER, 0);
}

/* Fills bytes at offset with zeros (offset and bytes multiples of 4). */
static void gp__buffer_zero(gp_world* w, gp__GLuint buffer, size_t offset, size_t bytes) {
    const uint32_t zero = 0;
    if (!bytes) return;
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, buffer);
    w->gl.fnClearBufferSubData(GP__GL_COPY_WRITE_BUFFER, GP__GL_R32UI, (gp__GLintptr)offset, (gp__GLsizeiptr)bytes,
                               GP__GL_RED_INTEGER, GP__GL_UNSIGNED_INT, &zero);
    w->gl.fnBindBuffer(GP__GL_COPY_WRITE_BUFFER, 0);
}

/* >>shaders ================================================================================ */
typedef struct gp__shader_source {
    const char* name;                /* shaders_embedded/<name>.comp */
    const char* const* const* parts; /* NULL-terminated arrays of NULL-terminated lines: the
                                        .comp's own lines and, where it includes a snippet, the
                                        snippet's (stored once for every shader); line 0 is #version */
} gp__shader_source;

/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/.
   Do not edit: change the .comp and .glsl files there and run `make shaders`. */
static const char* const gp__snippet_gp_common[] = {
    "// gp_common.glsl: included first by every gpuparticle.h compute shader.\n",
    "// Workgroup size and the flat index of a workgroup in a dispatch that the host split into x * y\n",
    "// groups (GL guarantees only 65,535 groups per axis, and 16M elements need 65,536 groups of 256).\n",
    "#ifndef GP_GROUP_SIZE\n",
    "#define GP_GROUP_SIZE 256\n",
    "#endif\n",
    "\n",
    "uint gp_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }\n",
    "uint gp_global_index() { return gp_group_index() * uint(GP_GROUP_SIZE) + gl_LocalInvocationID.x; }\n",
    "\n",
    "// True when no component is NaN or infinite. Tested on the bits so that no compiler may assume\n",
    "// finite math and fold it away.\n",
    "bool gp_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }\n",
    "bool gp_finite3(vec3 v) { return gp_finite(v.x) && gp_finite(v.y) && gp_finite(v.z); }\n",
    0
};
static const char* const gp__snippet_gp_grid[] = {
    "// gp_grid.glsl: cell addressing shared by the grid build and every neighbour loop.\n",
    "// Needs gp_common.glsl and gp_world.glsl first.\n",
    "//\n",
    "// A bucket is a cell of the bounded grid (x + nx * (y + ny * z)) or a slot of the hash table.\n",
    "// Bucket gp_counts.y, one past the last, holds particles whose position is NaN or infinite:\n",
    "// they stay in the store, sorted last, and no neighbour loop visits them.\n",
    "// Hashed cell coordinates are clamped to +-GP_HASH_CELL_LIMIT so that integer maths never\n",
    "// overflows; a particle beyond that is counted as outside, like one outside a bounded grid.\n",
    "#define GP_HASH_CELL_LIMIT 1073741823.0\n",
    "\n",
    "// The unclamped cell coordinates of a finite position, as floats (no integer overflow).\n",
    "vec3 gp_grid_cell_float(vec3 p) { return floor((p - gp_grid_origin.xyz) / gp_grid_origin.w); }\n",
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
    0
};
static const char* const gp__snippet_gp_particles[] = {
    "// gp_particles.glsl: the particle store, struct of arrays, one SSBO per attribute.\n",
    "// Mirrored by gp_particle_position, gp_particle_velocity, gp_particle_info and gp_particle_life in\n",
    "// gpuparticle.h (section >>buffers). Slots [0, gp_counts.x) are live; after a grid build they are\n",
    "// in cell order.\n",
    "layout(std430, binding = 0) buffer gp_position_block { vec4 gp_position[]; };  // xyz metres, w radius\n",
    "layout(std430, binding = 1) buffer gp_velocity_block { vec4 gp_velocity[]; };  // xyz m/s, w mass kg\n",
    "layout(std430, binding = 2) buffer gp_info_block { uvec4 gp_info[]; };         // id, kind|flags<<8|phase<<16, owner, user\n",
    "layout(std430, binding = 3) buffer gp_life_block { vec2 gp_life[]; };          // age s, lifetime s (0 forever)\n",
    0
};
static const char* const gp__snippet_gp_scan[] = {
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
    "#define GP_SCAN_CHUNK 32u\n",
    "\n",
    "layout(location = 0) uniform uint u_count;   // elements in this level\n",
    "layout(location = 1) uniform uint u_flags;   // 1: the values are flags, counted as (value != 0)\n",
    "\n",
    "// The input, read 16 bytes at a time where four whole elements remain (twice the speed of single\n",
    "// words on llvmpipe, and the natural width of GPU loads), one word at a time in the ragged tail:\n",
    "// the buffer need not be a multiple of 16 bytes long.\n",
    "layout(std430, binding = 0) readonly buffer scan_input_block { uint scan_input[]; };\n",
    "layout(std430, binding = 0) readonly buffer scan_input4_block { uvec4 scan_input4[]; };\n",
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
static const char* const gp__snippet_gp_sort[] = {
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
    "#define GP_SORT_RUN 16u\n",
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
static const char* const gp__snippet_gp_world[] = {
    "// gp_world.glsl: the world's parameters, one std140 uniform block at binding 0.\n",
    "// Mirrored by gp__world_params in gpuparticle.h (section >>grid); keep both in step.\n",
    "layout(std140, binding = 0) uniform gp_world_block {\n",
    "    vec4  gp_grid_origin;   // xyz lowest corner of a bounded grid (metres), w cell size (metres)\n",
    "    ivec4 gp_grid_dims;     // xyz cells per axis of a bounded grid, w mode (1 bounded, 2 hashed)\n",
    "    uvec4 gp_counts;        // x live particles, y buckets, z capacity, w flags (1 deterministic)\n",
    "};\n",
    "\n",
    "#define GP_GRID_BOUNDED 1\n",
    "#define GP_GRID_HASHED 2\n",
    0
};
static const char* const gp__shader_copy_own0[] = {
    "#version 430 core\n",
    "// copy: a plain streaming pass, destination[i] = source[i]. The yardstick that `make bench` holds\n",
    "// every primitive against: the same bytes moved as fast as this library knows how, with no work in\n",
    "// between: 16 elements per invocation, 16 bytes per access, single words only in a ragged tail.\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_copy_own1[] = {
    "// <<include gp_common.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 0) readonly buffer source_block { uint source[]; };\n",
    "layout(std430, binding = 0) readonly buffer source4_block { uvec4 source4[]; };\n",
    "layout(std430, binding = 1) writeonly buffer destination_block { uint destination[]; };\n",
    "layout(std430, binding = 1) writeonly buffer destination4_block { uvec4 destination4[]; };\n",
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
static const char* const* const gp__shader_copy[] = {
    gp__shader_copy_own0,
    gp__snippet_gp_common,
    gp__shader_copy_own1,
    0
};
static const char* const gp__shader_dispatch_args_own0[] = {
    "#version 430 core\n",
    "// dispatch_args: turns an element count that lives on the GPU into the three words of\n",
    "// glDispatchComputeIndirect: ceil(count / group size) workgroups, split as x * y when they exceed\n",
    "// 65,535 (the shader then takes gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x).\n",
    "layout(local_size_x = 1) in;\n",
    "\n",
    "layout(std430, binding = 0) readonly buffer count_block { uint count_words[]; };\n",
    "layout(std430, binding = 1) writeonly buffer args_block { uint args[]; };\n",
    "layout(location = 0) uniform uint u_count_word;\n",
    "layout(location = 1) uniform uint u_args_word;\n",
    "layout(location = 2) uniform uint u_group_size;\n",
    "\n",
    "void main() {\n",
    "    uint count = count_words[u_count_word];\n",
    "    uint groups = count / u_group_size + uint(count % u_group_size != 0u);\n",
    "    uint x = min(groups, 65535u);\n",
    "    uint y = x == 0u ? 1u : (groups + x - 1u) / x;\n",
    "    args[u_args_word + 0u] = x;\n",
    "    args[u_args_word + 1u] = groups == 0u ? 0u : y;\n",
    "    args[u_args_word + 2u] = 1u;\n",
    "}\n",
    0
};
static const char* const* const gp__shader_dispatch_args[] = {
    gp__shader_dispatch_args_own0,
    0
};
static const char* const gp__shader_grid_count_own0[] = {
    "#version 430 core\n",
    "// grid_count: first pass of the counting sort that builds the neighbour grid. Each live particle\n",
    "// gets its bucket key and bumps that bucket's count with an atomic add, whose result is its rank\n",
    "// in the bucket: order[i] = rank, so that grid_reorder places it at cell_start[key] + rank with no\n",
    "// second atomic. Particles outside a bounded grid are clamped into border cells and counted;\n",
    "// particles with a NaN or infinite coordinate go to the extra bucket past the last and are\n",
    "// counted. None is dropped. In deterministic mode order[i] is the particle's id instead, the value\n",
    "// of the (bucket, id) sort that follows (the rank depends on timing).\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_grid_count_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_world.glsl\n",
    0
};
static const char* const gp__shader_grid_count_own2[] = {
    "// <<include gp_world.glsl\n",
    "// >>include gp_grid.glsl\n",
    0
};
static const char* const gp__shader_grid_count_own3[] = {
    "// <<include gp_grid.glsl\n",
    "// >>include gp_particles.glsl\n",
    0
};
static const char* const gp__shader_grid_count_own4[] = {
    "// <<include gp_particles.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 4) writeonly buffer cell_key_block { uint cell_key[]; };\n",
    "layout(std430, binding = 5) buffer cell_count_block { uint cell_count[]; };\n",
    "layout(std430, binding = 6) buffer grid_stats_block { uint stat_outside; uint stat_nonfinite; uint stat_truncated; };\n",
    "layout(std430, binding = 7) writeonly buffer order_block { uint order[]; };\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    vec3 p = gp_position[i].xyz;\n",
    "    uint key;\n",
    "    if (!gp_finite3(p)) {\n",
    "        key = gp_grid_invalid_bucket();\n",
    "        atomicAdd(stat_nonfinite, 1u);\n",
    "    } else {\n",
    "        vec3 c = gp_grid_cell_float(p);\n",
    "        if (!gp_grid_inside(c)) atomicAdd(stat_outside, 1u);\n",
    "        key = gp_grid_bucket(gp_grid_clamp_cell(c));\n",
    "    }\n",
    "    cell_key[i] = key;\n",
    "    uint rank = atomicAdd(cell_count[key], 1u);\n",
    "    order[i] = (gp_counts.w & 1u) != 0u ? gp_info[i].x : rank;\n",
    "}\n",
    0
};
static const char* const* const gp__shader_grid_count[] = {
    gp__shader_grid_count_own0,
    gp__snippet_gp_common,
    gp__shader_grid_count_own1,
    gp__snippet_gp_world,
    gp__shader_grid_count_own2,
    gp__snippet_gp_grid,
    gp__shader_grid_count_own3,
    gp__snippet_gp_particles,
    gp__shader_grid_count_own4,
    0
};
static const char* const gp__shader_grid_ids_own0[] = {
    "#version 430 core\n",
    "// grid_ids: deterministic mode, after the sort of (bucket, id) pairs: order[k] holds an id; the\n",
    "// slot of that particle replaces it, which turns the sorted ids into the gather order of the\n",
    "// reorder (grid_count wrote the ids).\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_grid_ids_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_world.glsl\n",
    0
};
static const char* const gp__shader_grid_ids_own2[] = {
    "// <<include gp_world.glsl\n",
    "// >>include gp_particles.glsl\n",
    0
};
static const char* const gp__shader_grid_ids_own3[] = {
    "// <<include gp_particles.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 7) buffer order_block { uint order[]; };\n",
    "layout(std430, binding = 6) readonly buffer slot_of_id_block { uint slot_of_id[]; };\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    order[i] = slot_of_id[order[i]];\n",
    "}\n",
    0
};
static const char* const* const gp__shader_grid_ids[] = {
    gp__shader_grid_ids_own0,
    gp__snippet_gp_common,
    gp__shader_grid_ids_own1,
    gp__snippet_gp_world,
    gp__shader_grid_ids_own2,
    gp__snippet_gp_particles,
    gp__shader_grid_ids_own3,
    0
};
static const char* const gp__shader_grid_neighbors_own0[] = {
    "#version 430 core\n",
    "// grid_neighbors: for every particle, how many other particles lie closer than u_radius\n",
    "// (u_radius <= cell size), found through the grid: the 27 cells around its own. This loop is the\n",
    "// pattern every solver's neighbour sum follows:\n",
    "// - with hashing, a bucket also holds particles of distant cells; gp_grid_same_cell drops them;\n",
    "// - candidates are visited 8 per loop iteration, because some drivers (Mesa's llvmpipe) end an\n",
    "//   invocation's loops after 65,535 iterations in all, silently; 8 at a time lets one particle\n",
    "//   meet about 500,000 candidates there, and no cap applies on other drivers;\n",
    "// - the loop counts what it visited, and a shortfall (a loop the driver cut) is counted in\n",
    "//   stat_truncated, which gp_grid_stats_read reports, instead of passing for a right answer.\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_grid_neighbors_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_world.glsl\n",
    0
};
static const char* const gp__shader_grid_neighbors_own2[] = {
    "// <<include gp_world.glsl\n",
    "// >>include gp_grid.glsl\n",
    0
};
static const char* const gp__shader_grid_neighbors_own3[] = {
    "// <<include gp_grid.glsl\n",
    "// >>include gp_particles.glsl\n",
    0
};
static const char* const gp__shader_grid_neighbors_own4[] = {
    "// <<include gp_particles.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 5) readonly buffer cell_start_block { uint cell_start[]; };\n",
    "layout(std430, binding = 6) buffer grid_stats_block { uint stat_outside; uint stat_nonfinite; uint stat_truncated; };\n",
    "layout(std430, binding = 7) writeonly buffer neighbor_count_block { uint neighbor_count[]; };\n",
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
    "        ivec3 home = gp_grid_cell(p);\n",
    "        float radius2 = u_radius * u_radius;\n",
    "        uint expected = 0u, visited = 0u, cells = 0u;\n",
    "        for (int c = 0; c < 27; ++c) {\n",
    "            ++cells;\n",
    "            ivec3 cell = home + ivec3(c % 3, (c / 3) % 3, c / 9) - 1;\n",
    "            if (!gp_grid_cell_exists(cell)) continue;\n",
    "            uint bucket = gp_grid_bucket(cell);\n",
    "            uint begin = cell_start[bucket], end = cell_start[bucket + 1u];\n",
    "            expected += end - begin;\n",
    "            for (uint k = begin; k < end; k += 8u) {\n",
    "                found += gp_near(k, end, i, p, cell, radius2) + gp_near(k + 1u, end, i, p, cell, radius2)\n",
    "                       + gp_near(k + 2u, end, i, p, cell, radius2) + gp_near(k + 3u, end, i, p, cell, radius2)\n",
    "                       + gp_near(k + 4u, end, i, p, cell, radius2) + gp_near(k + 5u, end, i, p, cell, radius2)\n",
    "                       + gp_near(k + 6u, end, i, p, cell, radius2) + gp_near(k + 7u, end, i, p, cell, radius2);\n",
    "                visited += min(8u, end - k);\n",
    "            }\n",
    "        }\n",
    "        if (visited != expected || cells != 27u) atomicAdd(stat_truncated, 1u);\n",
    "    }\n",
    "    neighbor_count[i] = found;\n",
    "}\n",
    0
};
static const char* const* const gp__shader_grid_neighbors[] = {
    gp__shader_grid_neighbors_own0,
    gp__snippet_gp_common,
    gp__shader_grid_neighbors_own1,
    gp__snippet_gp_world,
    gp__shader_grid_neighbors_own2,
    gp__snippet_gp_grid,
    gp__shader_grid_neighbors_own3,
    gp__snippet_gp_particles,
    gp__shader_grid_neighbors_own4,
    0
};
static const char* const gp__shader_grid_reorder_own0[] = {
    "#version 430 core\n",
    "// grid_reorder: moves particle attributes into cell order, 16 bytes at a time. Three passes cover\n",
    "// the store with its two spares: position with life (the one 8-byte attribute, u_life 1),\n",
    "// velocity, and info (u_info 1), whose first word is the id: that pass also records where each\n",
    "// particle now lives, slot_of_id[id] = slot. Bodies, cloth and the deterministic sort find\n",
    "// particles by id through it.\n",
    "// Scatter (u_scatter 1, the usual path): particle i goes to cell_start[key] + rank; the first pass\n",
    "// (u_life 1) computes that from grid_count's rank in order[i] and leaves it there for the others.\n",
    "// Random stores cost a CPU renderer less than random loads, which stall.\n",
    "// Gather (u_scatter 0, deterministic): slot k takes the particle order[k] (grid_ids wrote it).\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_grid_reorder_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_world.glsl\n",
    0
};
static const char* const gp__shader_grid_reorder_own2[] = {
    "// <<include gp_world.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 0) readonly buffer source_block { uvec4 source[]; };\n",
    "layout(std430, binding = 1) writeonly buffer destination_block { uvec4 destination[]; };\n",
    "layout(std430, binding = 2) readonly buffer life_source_block { uvec2 life_source[]; };\n",
    "layout(std430, binding = 3) writeonly buffer life_destination_block { uvec2 life_destination[]; };\n",
    "layout(std430, binding = 4) readonly buffer cell_key_block { uint cell_key[]; };\n",
    "layout(std430, binding = 5) readonly buffer cell_start_block { uint cell_start[]; };\n",
    "layout(std430, binding = 6) writeonly buffer slot_of_id_block { uint slot_of_id[]; };\n",
    "layout(std430, binding = 7) buffer order_block { uint order[]; };\n",
    "layout(location = 0) uniform uint u_life;\n",
    "layout(location = 1) uniform uint u_info;\n",
    "layout(location = 2) uniform uint u_scatter;\n",
    "\n",
    "void main() {\n",
    "    uint i = gp_global_index();\n",
    "    if (i >= gp_counts.x) return;\n",
    "    uint from = i, to = i;\n",
    "    if (u_scatter == 0u) from = order[i];\n",
    "    else if (u_life != 0u) { to = cell_start[cell_key[i]] + order[i]; order[i] = to; }\n",
    "    else to = order[i];\n",
    "    uvec4 v = source[from];\n",
    "    destination[to] = v;\n",
    "    if (u_life != 0u) life_destination[to] = life_source[from];\n",
    "    if (u_info != 0u) slot_of_id[v.x] = to;\n",
    "}\n",
    0
};
static const char* const* const gp__shader_grid_reorder[] = {
    gp__shader_grid_reorder_own0,
    gp__snippet_gp_common,
    gp__shader_grid_reorder_own1,
    gp__snippet_gp_world,
    gp__shader_grid_reorder_own2,
    0
};
static const char* const gp__shader_scan_block_own0[] = {
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
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_scan_block_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_scan.glsl\n",
    0
};
static const char* const gp__shader_scan_block_own2[] = {
    "// <<include gp_scan.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 1) writeonly buffer scan_output_block { uint scan_output[]; };\n",
    "layout(std430, binding = 1) writeonly buffer scan_output4_block { uvec4 scan_output4[]; };\n",
    "layout(std430, binding = 2) readonly buffer chunk_offsets_block { uint chunk_offsets[]; };\n",
    "layout(std430, binding = 3) writeonly buffer count_block { uint count_words[]; };\n",
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
static const char* const* const gp__shader_scan_block[] = {
    gp__shader_scan_block_own0,
    gp__snippet_gp_common,
    gp__shader_scan_block_own1,
    gp__snippet_gp_scan,
    gp__shader_scan_block_own2,
    0
};
static const char* const gp__shader_scan_reduce_own0[] = {
    "#version 430 core\n",
    "// scan_reduce: first pass of the exclusive prefix sum (see gp_scan.glsl): chunk_sums[c] = the sum\n",
    "// of chunk c's GP_SCAN_CHUNK inputs (or of its non-zero flags, compacting).\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_scan_reduce_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_scan.glsl\n",
    0
};
static const char* const gp__shader_scan_reduce_own2[] = {
    "// <<include gp_scan.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 2) writeonly buffer chunk_sums_block { uint chunk_sums[]; };\n",
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
static const char* const* const gp__shader_scan_reduce[] = {
    gp__shader_scan_reduce_own0,
    gp__snippet_gp_common,
    gp__shader_scan_reduce_own1,
    gp__snippet_gp_scan,
    gp__shader_scan_reduce_own2,
    0
};
static const char* const gp__shader_sort_global_own0[] = {
    "#version 430 core\n",
    "// sort_global: one or two steps of the bitonic network (see gp_sort.glsl) whose comparators reach\n",
    "// GP_SORT_RUN or further, straight on the buffers. u_distance 0: the flip of stage u_block, one\n",
    "// comparator per invocation. Otherwise half-cleaners: with u_levels 1, distance j, one comparator\n",
    "// per invocation; with u_levels 2, distances j and j/2 together, four elements per invocation\n",
    "// (i, i + j/2, i + j, i + 3j/2), which halves the passes over the buffers.\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_sort_global_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_sort.glsl\n",
    0
};
static const char* const gp__shader_sort_global_own2[] = {
    "// <<include gp_sort.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 0) buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = 1) buffer values_block { uint values[]; };\n",
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
static const char* const* const gp__shader_sort_global[] = {
    gp__shader_sort_global_own0,
    gp__snippet_gp_common,
    gp__shader_sort_global_own1,
    gp__snippet_gp_sort,
    gp__shader_sort_global_own2,
    0
};
static const char* const gp__shader_sort_local_own0[] = {
    "#version 430 core\n",
    "// sort_local: the steps of the bitonic network (see gp_sort.glsl) that stay inside one run of\n",
    "// GP_SORT_RUN elements, done in one invocation's registers. With u_block 0 it sorts each run from\n",
    "// scratch (every stage k = 2 ... GP_SORT_RUN); otherwise it finishes stage u_block with the\n",
    "// half-cleaners j = GP_SORT_RUN / 2 ... 1 after sort_global did the longer ones.\n",
    "// >>include gp_common.glsl\n",
    0
};
static const char* const gp__shader_sort_local_own1[] = {
    "// <<include gp_common.glsl\n",
    "// >>include gp_sort.glsl\n",
    0
};
static const char* const gp__shader_sort_local_own2[] = {
    "// <<include gp_sort.glsl\n",
    "layout(local_size_x = GP_GROUP_SIZE) in;\n",
    "\n",
    "layout(std430, binding = 0) buffer keys_block { uint keys[]; };\n",
    "layout(std430, binding = 1) buffer values_block { uint values[]; };\n",
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
static const char* const* const gp__shader_sort_local[] = {
    gp__shader_sort_local_own0,
    gp__snippet_gp_common,
    gp__shader_sort_local_own1,
    gp__snippet_gp_sort,
    gp__shader_sort_local_own2,
    0
};
typedef enum gp__program_id {
    GP__PROGRAM_COPY,
    GP__PROGRAM_DISPATCH_ARGS,
    GP__PROGRAM_GRID_COUNT,
    GP__PROGRAM_GRID_IDS,
    GP__PROGRAM_GRID_NEIGHBORS,
    GP__PROGRAM_GRID_REORDER,
    GP__PROGRAM_SCAN_BLOCK,
    GP__PROGRAM_SCAN_REDUCE,
    GP__PROGRAM_SORT_GLOBAL,
    GP__PROGRAM_SORT_LOCAL,
    GP__PROGRAM_COUNT
} gp__program_id;
static const gp__shader_source gp__shader_sources[GP__PROGRAM_COUNT] = {
    { "copy", gp__shader_copy },
    { "dispatch_args", gp__shader_dispatch_args },
    { "grid_count", gp__shader_grid_count },
    { "grid_ids", gp__shader_grid_ids },
    { "grid_neighbors", gp__shader_grid_neighbors },
    { "grid_reorder", gp__shader_grid_reorder },
    { "scan_block", gp__shader_scan_block },
    { "scan_reduce", gp__shader_scan_reduce },
    { "sort_global", gp__shader_sort_global },
    { "sort_local", gp__shader_sort_local },
};
/* <<shaders-generated */

GP__STATIC_ASSERT(program_table_fits, GP__PROGRAM_COUNT <= 32);

/* Compiles and links one embedded shader. Its strings go to GL as they are; after the #version
   line come the library's defines and the user's prelude, then "#line 2 0", so that the line
   numbers in the driver's log are those of shaders_embedded/<name>.comp. */
static gp_result gp__compile(gp_world* w, gp__program_id id) {
    const gp__shader_source* source = &gp__shader_sources[id];
    gp__gl* gl = &w->gl;
    const gp__GLchar* strings[1024];
    char defines[64];
    gp__GLsizei count = 0;
    gp__GLint ok = 0;
    gp__GLuint shader, program;
    const char* const* const* part;
    const char* const* line;
    snprintf(defines, sizeof defines, "#define GP_GROUP_SIZE %d\n", GP_GROUP_SIZE);
    strings[count++] = source->parts[0][0];
    strings[count++] = defines;
    if (w->desc.shader_prelude) { strings[count++] = w->desc.shader_prelude; strings[count++] = "\n"; }
    strings[count++] = "#line 2 0\n";
    for (part = source->parts; *part; ++part)
        for (line = *part == source->parts[0] ? *part + 1 : *part; *line; ++line) {
            if (count == 1024)
                return gp__fail(w, GP_ERROR_SHADER_COMPILE, "shader '%s' has more than 1,019 lines; raise the limit in gp__compile",
                                source->name);
            strings[count++] = *line;
        }
    shader = gl->fnCreateShader(GP__GL_COMPUTE_SHADER);
    gl->fnShaderSource(shader, count, strings, NULL);
    gl->fnCompileShader(shader);
    gl->fnGetShaderiv(shader, GP__GL_COMPILE_STATUS, &ok);
    program = gl->fnCreateProgram();
    if (ok) {
        gl->fnAttachShader(program, shader);
        gl->fnLinkProgram(program);
        gl->fnGetProgramiv(program, GP__GL_LINK_STATUS, &ok);
    }
    if (!ok) {
        char info_log[6144];
        info_log[0] = 0;
        gl->fnGetShaderInfoLog(shader, (gp__GLsizei)sizeof info_log, NULL, info_log);
        if (info_log[0] == 0) gl->fnGetProgramInfoLog(program, (gp__GLsizei)sizeof info_log, NULL, info_log);
        gl->fnDeleteShader(shader);
        gl->fnDeleteProgram(program);
        return gp__fail(w, GP_ERROR_SHADER_COMPILE, "shader '%s' failed to compile (lines of shaders_embedded/%s.comp):\n%s",
                        source->name, source->name, info_log[0] ? info_log : "(the driver gave no log)");
    }
    gl->fnDeleteShader(shader);
    w->programs[id] = program;
    return GP_OK;
}

/* >>pipeline ===============================================================================
   Every public call that touches the GPU runs between gp__begin and gp__end. Barriers: all bits
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
        GP__LOG(w, GP_LOG_WARNING, "%s: GL error 0x%04x was pending before this call (not the library's)", call, error);
    gl->fnGetIntegerv(GP__GL_CURRENT_PROGRAM, &w->saved_program);
    gl->fnMemoryBarrier(GP__GL_ALL_BARRIER_BITS);
    gl->fnBindBufferBase(GP__GL_UNIFORM_BUFFER, 0, w->params);
}

static gp_result gp__end(gp_world* w, gp_result result) {
    gp__gl* gl = &w->gl;
    gp__GLenum error;
    gl->fnMemoryBarrier(GP__GL_ALL_BARRIER_BITS);
    gl->fnUseProgram((gp__GLuint)w->saved_program);
    while ((error = gl->fnGetError()) != GP__GL_NO_ERROR)
        if (result == GP_OK) result = gp__fail(w, GP_ERROR_GL, "GL error 0x%04x", error);
    w->last_result = result;
    w->call = NULL;
    return result;
}

static void gp__use(gp_world* w, gp__program_id id) { w->gl.fnUseProgram(w->programs[id]); }

static void gp__bind(gp_world* w, gp__GLuint binding, gp__GLuint buffer) {
    w->gl.fnBindBufferBase(GP__GL_SHADER_STORAGE_BUFFER, binding, buffer);
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

static uint32_t gp__groups(uint32_t items, uint32_t per_group) {
    return (uint32_t)(((uint64_t)items + per_group - 1) / per_group);
}

/* Adds the pending timer pairs' times to the per-stage totals (waits for the GPU). */
static void gp__timers_collect(gp_world* w) {
    uint32_t i, s;
    for (i = 0; i < w->pending_count; ++i) {
        gp__timer* t = &w->pending[i];
        gp__GLuint64 begin = 0, end = 0;
        gp__GLuint queries[2];
        w->gl.fnGetQueryObjectui64v(t->begin, GP__GL_QUERY_RESULT, &begin);
        w->gl.fnGetQueryObjectui64v(t->end, GP__GL_QUERY_RESULT, &end);
        queries[0] = t->begin; queries[1] = t->end;
        w->gl.fnDeleteQueries(2, queries);
        for (s = 0; s < w->total_count && w->totals[s].stage != t->stage; ++s) {}
        if (s == w->total_count) {
            if (s == GP__TIMER_MAX_STAGES) continue;
            w->totals[s].stage = t->stage;
            w->totals[s].milliseconds = 0.0;
            w->totals[s].runs = 0;
            ++w->total_count;
        }
        w->totals[s].milliseconds += (double)(end - begin) * 1e-6;
        w->totals[s].runs += 1;
    }
    w->pending_count = 0;
}

/* Timestamps around a stage, with desc.gpu_timings. stage must be a string literal. */
static uint32_t gp__timer_begin(gp_world* w, const char* stage) {
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

/* >>scan ===================================================================================
   Exclusive prefix sum by reduce-then-scan (shaders_embedded/gp_scan.glsl, scan_reduce.comp,
   scan_block.comp). A level of n elements is cut into chunks of 16, one per invocation;
   scan_reduce writes each chunk's sum, the sums are scanned by the same method one level down (in
   place, 32 times shorter), and scan_block scans each chunk from its offset. No shared memory, no
   barrier, no invocation waiting on another, so no forward-progress guarantee is needed (neither
   GL nor llvmpipe gives one). Inputs are read twice and outputs written once: about 1.6 times the
   traffic of a copy. Stream compaction is the same passes over the flags, scan_block writing
   indices instead of sums: no scanned array is ever stored. */
#define GP__SCAN_CHUNK 32u
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
        r = gp__scratch(w, &w->scan_sums[level], &w->scan_sums_bytes[level], (size_t)chunks * 4, "the scan's chunk sums");
        if (r != GP_OK) return r;
        gp__use(w, GP__PROGRAM_SCAN_REDUCE);
        gl->fnUniform1ui(0, count);
        gl->fnUniform1ui(1, compact);
        gp__bind(w, 0, input);
        gp__bind(w, 2, w->scan_sums[level]);
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
    gp__bind(w, 0, input);
    gp__bind(w, 1, output);
    gp__bind(w, 2, chunks > 1 ? w->scan_sums[level] : input);   /* bound but unread for one chunk */
    gp__bind(w, 3, compact ? count_buffer : output);
    gp__dispatch(w, groups);
    return GP_OK;
}
gp_result gp_scan_exclusive(gp_world* world, uint32_t input, uint32_t output, uint32_t count) {
    gp_result r;
    uint32_t timer;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_scan_exclusive");
    if (count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, input, (size_t)count * 4, "input buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, output, (size_t)count * 4, "output buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, "scan");
    r = gp__scan_level(world, input, output, count, false, 0, 0, 0);
    gp__timer_end(world, timer);
    return gp__end(world, r);
}

gp_result gp_compact(gp_world* world, uint32_t flags, uint32_t count, uint32_t indices, uint32_t count_buffer, size_t count_offset) {
    gp_result r;
    uint32_t timer;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_compact");
    if (count_offset % 4 != 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "count_offset %zu is not a multiple of 4", count_offset));
    if (count_offset / 4 >= 0xffffffffu)   /* the shader addresses 32-bit words with a uint */
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "count_offset %zu is too large", count_offset));
    if (indices == flags || count_buffer == flags)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "the flags buffer cannot also be the indices or count buffer"));
    if (count_buffer == indices && count_offset < (size_t)count * 4)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "the count word at %zu overlaps the %u indices", count_offset, count));
    if ((r = gp__check_buffer(world, count_buffer, count_offset + 4, "count buffer")) != GP_OK) return gp__end(world, r);
    if (count == 0) {
        gp__buffer_zero(world, count_buffer, count_offset, 4);
        return gp__end(world, GP_OK);
    }
    if ((r = gp__check_buffer(world, flags, (size_t)count * 4, "flags buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, indices, (size_t)count * 4, "indices buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, "compact");
    r = gp__scan_level(world, flags, indices, count, true, count_buffer, (uint32_t)(count_offset / 4), 0);
    gp__timer_end(world, timer);
    return gp__end(world, r);
}

gp_result gp_indirect_args(gp_world* world, uint32_t count_buffer, size_t count_offset, uint32_t group_size,
                           uint32_t args_buffer, size_t args_offset) {
    gp_result r;
    gp__gl* gl;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gl = &world->gl;
    gp__begin(world, "gp_indirect_args");
    if (count_offset % 4 != 0 || args_offset % 4 != 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "offsets %zu and %zu must be multiples of 4", count_offset, args_offset));
    if (group_size == 0)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "group_size is 0"));
    if (count_offset / 4 >= 0xffffffffu || args_offset / 4 >= 0xfffffffdu)   /* uint word indices */
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "offsets %zu and %zu are too large", count_offset, args_offset));
    if (count_buffer == args_buffer && count_offset + 4 > args_offset && args_offset + 12 > count_offset)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "the count word overlaps the arguments"));
    if ((r = gp__check_buffer(world, count_buffer, count_offset + 4, "count buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, args_buffer, args_offset + 12, "args buffer")) != GP_OK) return gp__end(world, r);
    gp__use(world, GP__PROGRAM_DISPATCH_ARGS);
    gl->fnUniform1ui(0, (uint32_t)(count_offset / 4));
    gl->fnUniform1ui(1, (uint32_t)(args_offset / 4));
    gl->fnUniform1ui(2, group_size);
    gp__bind(world, 0, count_buffer);
    gp__bind(world, 1, args_buffer);
    gp__dispatch(world, 1);
    return gp__end(world, GP_OK);
}

gp_result gp_copy(gp_world* world, uint32_t source, uint32_t destination, uint32_t count) {
    gp_result r;
    uint32_t timer;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_copy");
    if (count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, source, (size_t)count * 4, "source buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, destination, (size_t)count * 4, "destination buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, "copy");
    gp__use(world, GP__PROGRAM_COPY);
    world->gl.fnUniform1ui(0, count);
    gp__bind(world, 0, source);
    gp__bind(world, 1, destination);
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
   of the stage in registers again (sort_local). O(count log^2 count) work. */
#define GP__SORT_RUN 16u

static void gp__sort_global_pass(gp_world* w, uint32_t block, uint32_t distance, uint32_t levels, uint64_t padded) {
    uint32_t invocations = (uint32_t)(padded / (distance && levels == 2 ? 4u : 2u));
    w->gl.fnUniform1ui(2, block);
    w->gl.fnUniform1ui(3, distance);
    w->gl.fnUniform1ui(4, invocations);
    w->gl.fnUniform1ui(5, levels);
    gp__dispatch(w, gp__groups(invocations, GP_GROUP_SIZE));
}

static void gp__sort_local_pass(gp_world* w, uint32_t count, bool descending, uint32_t block) {
    gp__use(w, GP__PROGRAM_SORT_LOCAL);
    w->gl.fnUniform1ui(0, count);
    w->gl.fnUniform1ui(1, descending);
    w->gl.fnUniform1ui(2, block);
    gp__dispatch(w, gp__groups(gp__groups(count, GP__SORT_RUN), GP_GROUP_SIZE));
}

static void gp__sort(gp_world* w, gp__GLuint keys, gp__GLuint values, uint32_t count, bool descending) {
    uint64_t padded = GP__SORT_RUN, k, j;
    if (count < 2) return;
    while (padded < count) padded <<= 1;
    gp__bind(w, 0, keys);
    gp__bind(w, 1, values);
    gp__sort_local_pass(w, count, descending, 0);
    for (k = 2u * GP__SORT_RUN; k <= padded; k <<= 1) {
        gp__use(w, GP__PROGRAM_SORT_GLOBAL);
        w->gl.fnUniform1ui(0, count);
        w->gl.fnUniform1ui(1, descending);
        gp__sort_global_pass(w, (uint32_t)k, 0, 1, padded);
        for (j = k / 4; j >= GP__SORT_RUN; j >>= 2) {
            if (j / 2 >= GP__SORT_RUN) {
                gp__sort_global_pass(w, (uint32_t)k, (uint32_t)j, 2, padded);
            } else {
                gp__sort_global_pass(w, (uint32_t)k, (uint32_t)j, 1, padded);
                break;
            }
        }
        gp__sort_local_pass(w, count, descending, (uint32_t)k);
    }
}

gp_result gp_sort_pairs(gp_world* world, uint32_t keys, uint32_t values, uint32_t count, gp_sort_order order) {
    gp_result r;
    uint32_t timer;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_sort_pairs");
    if (order != GP_SORT_DEFAULT && order != GP_SORT_ASCENDING && order != GP_SORT_DESCENDING)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "order %d is not a gp_sort_order", (int)order));
    if (count > 0x80000000u)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "count %u is above 2^31", count));
    if (count == 0) return gp__end(world, GP_OK);
    if (keys == values)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "keys and values are the same buffer %u", keys));
    if ((r = gp__check_buffer(world, keys, (size_t)count * 4, "keys buffer")) != GP_OK) return gp__end(world, r);
    if ((r = gp__check_buffer(world, values, (size_t)count * 4, "values buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, "sort");
    gp__sort(world, keys, values, count, order == GP_SORT_DESCENDING);
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
        NaN ones go to the extra bucket `buckets`).
     2. gp__scan_level: cell_start = exclusive scan of the counts (buckets + 2 words, the last
        count being 0, so cell_start[buckets + 1] = count).
     3. Deterministic only: grid_count wrote each id to order instead of the rank; sort the
        (key, id) pairs (gp__sort), then grid_ids maps the ids to slots (the gather form,
        order[slot] = particle).
     4. grid_reorder, three passes: spare[cell_start[key] + rank] = attribute[i] (scatter; the
        first pass turns the rank in order into the slot for the others) or spare[k] =
        attribute[order[k]] (gather), then the two names swap; position carries life along, and
        the info pass also writes slot_of_id[id] = slot. On a CPU renderer random stores cost less
        than random loads, so the usual path scatters.
   Memory per particle: 56 bytes of attributes, 24 of spares, 12 of key, order and slot. */

static void gp__params_upload(gp_world* w) {
    w->params_host.counts[0] = w->count;
    gp__buffer_upload(w, w->params, 0, sizeof w->params_host, &w->params_host);
}

static void gp__swap(gp__GLuint* a, gp__GLuint* b) { gp__GLuint t = *a; *a = *b; *b = t; }

/* Gathers a 16-byte attribute into cell order through spare16, then swaps the two names. The
   position pass carries life along (through spare8); the info pass writes slot_of_id. */
static void gp__reorder(gp_world* w, gp__GLuint* attribute) {
    bool life = attribute == &w->position, info = attribute == &w->info;
    w->gl.fnUniform1ui(0, life);
    w->gl.fnUniform1ui(1, info);
    w->gl.fnUniform1ui(2, !w->desc.deterministic);   /* order holds ranks (scatter) or sources (gather) */
    gp__bind(w, 0, *attribute);
    gp__bind(w, 1, w->spare16);
    gp__bind(w, 2, life ? w->life : *attribute);   /* bound but unread without life */
    gp__bind(w, 3, life ? w->spare8 : w->spare16);
    gp__dispatch(w, gp__groups(w->count, GP_GROUP_SIZE));
    gp__swap(attribute, &w->spare16);
    if (life) gp__swap(&w->life, &w->spare8);
}

gp_result gp_grid_build(gp_world* world) {
    uint32_t groups, timer;
    size_t table_bytes;
    gp_result r;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_grid_build");
    groups = gp__groups(world->count, GP_GROUP_SIZE);
    table_bytes = ((size_t)world->buckets + 2) * 4;

    timer = gp__timer_begin(world, "grid_count");
    gp__buffer_zero(world, world->cell_count, 0, table_bytes);   /* GL orders its own clears before */
    gp__buffer_zero(world, world->grid_stats, 0, 12);             /* later shader reads: no barrier */
    gp__use(world, GP__PROGRAM_GRID_COUNT);
    gp__bind(world, 0, world->position);
    gp__bind(world, 2, world->info);
    gp__bind(world, 4, world->cell_key);
    gp__bind(world, 5, world->cell_count);
    gp__bind(world, 6, world->grid_stats);
    gp__bind(world, 7, world->order);
    gp__dispatch(world, groups);
    gp__timer_end(world, timer);

    timer = gp__timer_begin(world, "grid_scan");
    r = gp__scan_level(world, world->cell_count, world->cell_start, world->buckets + 2, false, 0, 0, 0);
    gp__timer_end(world, timer);
    if (r != GP_OK) return gp__end(world, r);
    if (world->count == 0) goto done;

    if (world->desc.deterministic) {
        /* grid_count wrote (bucket, id) pairs; sorting them orders each cell by id whatever the
           timing, and grid_ids turns the ids into slots. */
        timer = gp__timer_begin(world, "grid_sort");
        gp__sort(world, world->cell_key, world->order, world->count, false);
        gp__use(world, GP__PROGRAM_GRID_IDS);
        gp__bind(world, 2, world->info);
        gp__bind(world, 6, world->slot_of_id);
        gp__bind(world, 7, world->order);
        gp__dispatch(world, groups);
        gp__timer_end(world, timer);
    }

    timer = gp__timer_begin(world, "grid_reorder");
    gp__use(world, GP__PROGRAM_GRID_REORDER);
    gp__bind(world, 4, world->cell_key);
    gp__bind(world, 5, world->cell_start);
    gp__bind(world, 6, world->slot_of_id);
    gp__bind(world, 7, world->order);
    gp__reorder(world, &world->position);
    gp__reorder(world, &world->velocity);
    gp__reorder(world, &world->info);
    gp__timer_end(world, timer);
done:
    world->grid_built = true;
    world->grid_particles = world->count;
    return gp__end(world, GP_OK);
}

gp_result gp_grid_stats_read(gp_world* world, gp_grid_stats* stats) {
    uint32_t words[3];
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_grid_stats_read");
    if (!stats) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "stats is NULL"));
    if (!world->grid_built) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, "no grid was built yet: call gp_grid_build first"));
    gp__buffer_download(world, world->grid_stats, 0, sizeof words, words);
    stats->particles = world->grid_particles;
    stats->outside = words[0];
    stats->nonfinite = words[1];
    stats->truncated = words[2];
    stats->buckets = world->buckets;
    if (words[2])
        GP__LOG(world, GP_LOG_WARNING, "gp_grid_stats_read: the driver cut the neighbour loop of %u particles short "
                "(llvmpipe allows 65,535 loop iterations per invocation): their sums are incomplete", words[2]);
    return gp__end(world, GP_OK);
}

gp_result gp_grid_count_neighbors(gp_world* world, float radius, uint32_t out_buffer) {
    gp_result r;
    uint32_t timer;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_grid_count_neighbors");
    if (!(radius > 0.0f) || !(radius <= world->desc.grid.cell_size))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "radius %g must be positive and at most the cell size %g",
                                       (double)radius, (double)world->desc.grid.cell_size));
    if (!world->grid_built || world->grid_particles != world->count)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_STATE, "the grid is older than the particles: call gp_grid_build first"));
    if (world->count == 0) return gp__end(world, GP_OK);
    if ((r = gp__check_buffer(world, out_buffer, (size_t)world->count * 4, "out buffer")) != GP_OK) return gp__end(world, r);
    timer = gp__timer_begin(world, "neighbors");
    gp__use(world, GP__PROGRAM_GRID_NEIGHBORS);
    world->gl.fnUniform1f(0, radius);
    gp__bind(world, 0, world->position);
    gp__bind(world, 5, world->cell_start);
    gp__bind(world, 6, world->grid_stats);
    gp__bind(world, 7, out_buffer);
    gp__dispatch(world, gp__groups(world->count, GP_GROUP_SIZE));
    gp__timer_end(world, timer);
    return gp__end(world, GP_OK);
}

/* >>public ================================================================================= */

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
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "allocator: give both alloc and free, or neither");
    if (d->max_particles > 0x40000000u)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "max_particles %u is above 2^30", d->max_particles);
    if (!(g->cell_size > 0.0f) || !isfinite(g->cell_size))
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.cell_size %g must be positive and finite", (double)g->cell_size);
    if (g->mode != GP_GRID_BOUNDED && g->mode != GP_GRID_HASHED)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.mode %d is not a gp_grid_mode", (int)g->mode);
    if (g->mode == GP_GRID_BOUNDED) {
        uint64_t cells = 1;
        for (a = 0; a < 3; ++a) {
            if (!isfinite(g->origin[a]))
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.origin[%d] is not finite", a);
            if (g->dims[a] == 0 || g->dims[a] > 0x100000u)
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.dims[%d] = %u: a bounded grid needs 1 to 2^20 cells per axis", a, g->dims[a]);
            cells *= g->dims[a];
        }
        if (cells > 0x40000000u)
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.dims %u x %u x %u = %llu cells, above 2^30",
                            g->dims[0], g->dims[1], g->dims[2], (unsigned long long)cells);
    } else if (g->buckets == 0 || g->buckets > 0x40000000u) {
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "grid.buckets %u must be 1 to 2^30", g->buckets);
    }
    if (!d->get_proc_address)
        return gp__fail(w, GP_ERROR_GL_MISSING_FUNCTION, "no get_proc_address given, and none found in the process "
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
    if (!proc) return gp__fail(w, GP_ERROR_GL_MISSING_FUNCTION, "%s not found: the context is older than "        \
                               "OpenGL 4.3 or get_proc_address is not the context's", name);       \
    memcpy(&gl->fn##fname, &proc, sizeof proc);
    GP__GL_LOAD(const gp__GLubyte*, GetString, (gp__GLenum))
    version = gl->fnGetString(GP__GL_VERSION);
    if (!version) return gp__fail(w, GP_ERROR_NO_CONTEXT, "no GL context is current on this thread");
    GP__GL_LOAD(void, GetIntegerv, (gp__GLenum, gp__GLint*))
    gl->fnGetIntegerv(GP__GL_MAJOR_VERSION, &major);
    gl->fnGetIntegerv(GP__GL_MINOR_VERSION, &minor);
    if (major < 4 || (major == 4 && minor < 3))
        return gp__fail(w, GP_ERROR_GL_VERSION, "needs OpenGL 4.3 or newer; the context is %d.%d (\"%s\")",
                        major, minor, (const char*)version);
    GP__GL_FUNCTIONS(GP__GL_LOAD)
#undef GP__GL_LOAD
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &value);
    if (value < GP_GROUP_SIZE)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS is %d, below GP_GROUP_SIZE %d", value, GP_GROUP_SIZE);
    gl->fnGetIntegeri_v(GP__GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &value);
    if (value < GP_GROUP_SIZE)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "GL_MAX_COMPUTE_WORK_GROUP_SIZE x is %d, below GP_GROUP_SIZE %d", value, GP_GROUP_SIZE);
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &value);
    if (value < 16 * GP_GROUP_SIZE)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE is %d bytes; the sort needs %d", value, 16 * GP_GROUP_SIZE);
    gl->fnGetIntegerv(GP__GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &value);
    if (value < 8)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS is %d, below 8", value);
    gl->fnGetIntegerv(GP__GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &value);
    if (value < 8)
        return gp__fail(w, GP_ERROR_GL_LIMITS, "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS is %d, below 8", value);
    gl->fnGetInteger64v(GP__GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &w->max_block_bytes);
    GP__LOG(w, GP_LOG_INFO, "OpenGL %d.%d, %s", major, minor, (const char*)gl->fnGetString(GP__GL_RENDERER));
    return GP_OK;
}

/* Allocates the store and the grid; every buffer at once, so that a too large world fails here. */
static gp_result gp__create_buffers(gp_world* w) {
    size_t n = w->capacity, table = ((size_t)w->buckets + 2) * 4;
    gp_result r = GP_OK;
    uint32_t stats[3] = {0, 0, 0};
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the position buffer", &w->position);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the velocity buffer", &w->velocity);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "the info buffer", &w->info);
    if (r == GP_OK) r = gp__buffer_new(w, n * 8, NULL, "the life buffer", &w->life);
    if (r == GP_OK) r = gp__buffer_new(w, n * 16, NULL, "a reorder buffer", &w->spare16);
    if (r == GP_OK) r = gp__buffer_new(w, n * 8, NULL, "a reorder buffer", &w->spare8);
    if (r == GP_OK) r = gp__buffer_new(w, n * 4, NULL, "the slot-of-id buffer", &w->slot_of_id);
    if (r == GP_OK) r = gp__buffer_new(w, n * 4, NULL, "the cell key buffer", &w->cell_key);
    if (r == GP_OK) r = gp__buffer_new(w, n * 4, NULL, "the order buffer", &w->order);
    if (r == GP_OK) r = gp__buffer_new(w, table, NULL, "the cell count table", &w->cell_count);
    if (r == GP_OK) r = gp__buffer_new(w, table, NULL, "the cell start table", &w->cell_start);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof stats, stats, "the grid statistics", &w->grid_stats);
    if (r == GP_OK) r = gp__buffer_new(w, sizeof w->params_host, NULL, "the world parameters", &w->params);
    if (r == GP_OK) {
        gp__buffer_zero(w, w->cell_start, 0, table);
        gp__params_upload(w);
    }
    return r;
}

gp_result gp_world_create(const gp_world_desc* desc, gp_world** world) {
    gp_world_desc resolved;
    gp_world* w;
    gp_result r;
    int p;
    if (!world || !desc) {
        gp__log(desc ? &desc->logger : NULL, GP_LOG_ERROR, "gp_world_create: %s is NULL (GP_ERROR_INVALID_ARGUMENT)",
                world ? "desc" : "world");
        return GP_ERROR_INVALID_ARGUMENT;
    }
    *world = NULL;
    resolved = gp_query_world_defaults(desc);
    if (!resolved.allocator.alloc || !resolved.allocator.free) {
        gp__log(&resolved.logger, GP_LOG_ERROR, "gp_world_create: allocator: give both alloc and free, or neither (GP_ERROR_INVALID_ARGUMENT)");
        return GP_ERROR_INVALID_ARGUMENT;
    }
    w = (gp_world*)gp__alloc(&resolved.allocator, sizeof *w);
    if (!w) {
        gp__log(&resolved.logger, GP_LOG_ERROR, "gp_world_create: the allocator returned NULL for %zu bytes (GP_ERROR_OUT_OF_MEMORY)", sizeof *w);
        return GP_ERROR_OUT_OF_MEMORY;
    }
    memset(w, 0, sizeof *w);
    w->desc = resolved;
    w->call = "gp_world_create";
    w->capacity = resolved.max_particles;
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
            r = gp__fail(w, GP_ERROR_GL_LIMITS, "max_particles %u and %u buckets need %lld-byte buffers; this GL allows %lld "
                         "(GL_MAX_SHADER_STORAGE_BLOCK_SIZE)", w->capacity, w->buckets, (long long)largest, (long long)w->max_block_bytes);
    }
    for (p = 0; r == GP_OK && p < GP__PROGRAM_COUNT; ++p) r = gp__compile(w, (gp__program_id)p);
    if (r == GP_OK) {
        const gp_grid_desc* g = &resolved.grid;
        w->params_host.grid_origin[0] = g->mode == GP_GRID_BOUNDED ? g->origin[0] : 0.0f;
        w->params_host.grid_origin[1] = g->mode == GP_GRID_BOUNDED ? g->origin[1] : 0.0f;
        w->params_host.grid_origin[2] = g->mode == GP_GRID_BOUNDED ? g->origin[2] : 0.0f;
        w->params_host.grid_origin[3] = g->cell_size;
        w->params_host.grid_dims[0] = (int32_t)g->dims[0];
        w->params_host.grid_dims[1] = (int32_t)g->dims[1];
        w->params_host.grid_dims[2] = (int32_t)g->dims[2];
        w->params_host.grid_dims[3] = g->mode == GP_GRID_BOUNDED ? 1 : 2;
        w->params_host.counts[1] = w->buckets;
        w->params_host.counts[2] = w->capacity;
        w->params_host.counts[3] = resolved.deterministic ? 1u : 0u;
        r = gp__create_buffers(w);
    }
    if (r == GP_OK && w->gl.fnGetError() != GP__GL_NO_ERROR)
        r = gp__fail(w, GP_ERROR_GL, "GL reported an error while the world was created");
    if (r != GP_OK) {
        if (w->gl.fnGetError) gp_world_destroy(w);
        else gp__free(&resolved.allocator, w);
        return r;
    }
    w->call = NULL;
    *world = w;
    return GP_OK;
}

void gp_world_destroy(gp_world* world) {
    gp_allocator allocator;
    size_t i;
    if (!world) return;
    if (world->gl.fnDeleteBuffers) {
        gp__GLuint* buffers[13];
        buffers[0] = &world->position; buffers[1] = &world->velocity; buffers[2] = &world->info;
        buffers[3] = &world->life; buffers[4] = &world->spare16; buffers[5] = &world->spare8;
        buffers[6] = &world->slot_of_id; buffers[7] = &world->cell_key; buffers[8] = &world->order;
        buffers[9] = &world->cell_count; buffers[10] = &world->cell_start; buffers[11] = &world->grid_stats;
        buffers[12] = &world->params;
        if (world->desc.gpu_timings) gp__timers_collect(world);
        for (i = 0; i < sizeof buffers / sizeof buffers[0]; ++i) gp__buffer_delete(world, buffers[i]);
        for (i = 0; i < GP__SCAN_MAX_LEVELS; ++i) gp__buffer_delete(world, &world->scan_sums[i]);
        for (i = 0; i < GP__PROGRAM_COUNT; ++i)
            if (world->programs[i]) world->gl.fnDeleteProgram(world->programs[i]);
    }
    allocator = world->desc.allocator;
    gp__free(&allocator, world);
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
    b.slot_of_id = world->slot_of_id;
    b.cell_start = world->cell_start;
    b.count = world->count;
    b.buckets = world->buckets;
    return b;
}

size_t gp_attribute_size(gp_attribute attribute) {
    switch (attribute) {
    case GP_ATTRIBUTE_POSITION: return sizeof(gp_particle_position);
    case GP_ATTRIBUTE_VELOCITY: return sizeof(gp_particle_velocity);
    case GP_ATTRIBUTE_INFO: return sizeof(gp_particle_info);
    case GP_ATTRIBUTE_LIFE: return sizeof(gp_particle_life);
    }
    return 0;
}

static gp__GLuint gp__attribute_buffer(const gp_world* w, gp_attribute attribute) {
    switch (attribute) {
    case GP_ATTRIBUTE_POSITION: return w->position;
    case GP_ATTRIBUTE_VELOCITY: return w->velocity;
    case GP_ATTRIBUTE_INFO: return w->info;
    case GP_ATTRIBUTE_LIFE: return w->life;
    }
    return 0;
}

/* Checks n particles' values as gp_particles_add and gp_particles_write take them; names the
   first bad one. what: "position", "velocity", "life". stride in floats. */
static gp_result gp__check_values(gp_world* w, const char* what, const float* v, uint32_t n, uint32_t stride,
                                  uint32_t components, bool last_positive) {
    uint32_t i, c;
    for (i = 0; v && i < n; ++i) {
        for (c = 0; c < components; ++c)
            if (!isfinite(v[(size_t)i * stride + c]))
                return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "%s of particle %u, component %u, is %g; nothing was changed",
                                what, i, c, (double)v[(size_t)i * stride + c]);
        if (last_positive && !(v[(size_t)i * stride + components - 1] > 0.0f))
            return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "%s of particle %u must be positive, not %g; nothing was changed",
                            what, i, (double)v[(size_t)i * stride + components - 1]);
    }
    return GP_OK;
}

gp_result gp_particles_add(gp_world* world, const gp_particles_desc* desc, uint32_t* ids) {
    gp_particles_desc d;
    gp_result r = GP_OK;
    gp_particle_position* position = NULL;
    gp_particle_velocity* velocity = NULL;
    gp_particle_info* info = NULL;
    gp_particle_life* life = NULL;
    uint32_t* slots = NULL;
    uint32_t i, first;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_particles_add");
    if (!desc) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "desc is NULL"));
    d = *desc;
    if (d.count == 0) return gp__end(world, GP_OK);
    if (d.radius == 0.0f) d.radius = 0.5f * world->desc.grid.cell_size;
    if (d.mass == 0.0f) d.mass = 1.0f;
    if (d.kind == GP_KIND_DEFAULT) d.kind = GP_KIND_EFFECT;
    if (!d.has_owner) d.owner = GP_NO_OWNER;
    if (d.count > world->capacity - world->count)
        return gp__end(world, gp__fail(world, GP_ERROR_CAPACITY, "%u particles do not fit: %u of %u slots are live; nothing was added",
                                       d.count, world->count, world->capacity));
    if (!d.positions) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "positions is NULL for %u particles", d.count));
    if ((int)d.kind <= (int)GP_KIND_DEFAULT || (int)d.kind >= (int)GP_KIND_COUNT)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "kind %d is not a gp_kind", (int)d.kind));
    if (d.phase > 0xffffu) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "phase %u is above 65,535", d.phase));
    if (!(d.radius > 0.0f) || !isfinite(d.radius) || !(d.mass > 0.0f) || !isfinite(d.mass))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "radius %g and mass %g must be positive and finite",
                                       (double)d.radius, (double)d.mass));
    if (!(d.lifetime >= 0.0f) || !isfinite(d.lifetime))
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "lifetime %g must be 0 (forever) or positive", (double)d.lifetime));
    if ((r = gp__check_values(world, "position", d.positions, d.count, 3, 3, false)) != GP_OK ||
        (r = gp__check_values(world, "velocity", d.velocities, d.count, 3, 3, false)) != GP_OK ||
        (r = gp__check_values(world, "radius", d.radii, d.count, 1, 1, true)) != GP_OK ||
        (r = gp__check_values(world, "mass", d.masses, d.count, 1, 1, true)) != GP_OK)
        return gp__end(world, r);

    position = (gp_particle_position*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *position);
    velocity = (gp_particle_velocity*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *velocity);
    info = (gp_particle_info*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *info);
    life = (gp_particle_life*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *life);
    slots = (uint32_t*)gp__alloc(&world->desc.allocator, (size_t)d.count * sizeof *slots);
    if (!position || !velocity || !info || !life || !slots) {
        r = gp__fail(world, GP_ERROR_OUT_OF_MEMORY, "no host memory to stage %u particles; nothing was added", d.count);
    } else {
        /* Ids are handed out in slot order: live particles hold ids [0, count), a slot each. */
        first = world->count;
        for (i = 0; i < d.count; ++i) {
            const float* p = d.positions + (size_t)i * 3;
            const float* v = d.velocities ? d.velocities + (size_t)i * 3 : NULL;
            position[i].x = p[0]; position[i].y = p[1]; position[i].z = p[2];
            position[i].radius = d.radii ? d.radii[i] : d.radius;
            velocity[i].x = v ? v[0] : 0.0f; velocity[i].y = v ? v[1] : 0.0f; velocity[i].z = v ? v[2] : 0.0f;
            velocity[i].mass = d.masses ? d.masses[i] : d.mass;
            info[i].id = first + i;
            info[i].kind = (uint32_t)d.kind | (d.phase << 16);
            info[i].owner = d.owner;
            info[i].user = d.users ? d.users[i] : d.user;
            life[i].age = 0.0f;
            life[i].lifetime = d.lifetime;
            slots[i] = first + i;
            if (ids) ids[i] = first + i;
        }
        gp__buffer_upload(world, world->position, (size_t)first * 16, (size_t)d.count * 16, position);
        gp__buffer_upload(world, world->velocity, (size_t)first * 16, (size_t)d.count * 16, velocity);
        gp__buffer_upload(world, world->info, (size_t)first * 16, (size_t)d.count * 16, info);
        gp__buffer_upload(world, world->life, (size_t)first * 8, (size_t)d.count * 8, life);
        gp__buffer_upload(world, world->slot_of_id, (size_t)first * 4, (size_t)d.count * 4, slots);
        world->count += d.count;
        world->grid_built = false;
        gp__params_upload(world);
    }
    gp__free(&world->desc.allocator, position);
    gp__free(&world->desc.allocator, velocity);
    gp__free(&world->desc.allocator, info);
    gp__free(&world->desc.allocator, life);
    gp__free(&world->desc.allocator, slots);
    return gp__end(world, r);
}

/* Checks an attribute and a slot range of the live particles. */
static gp_result gp__check_range(gp_world* w, gp_attribute attribute, uint32_t first, uint32_t count, const void* data) {
    if (gp_attribute_size(attribute) == 0)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "attribute %d is not a gp_attribute", (int)attribute);
    if (first > w->count || count > w->count - first)
        return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "slots [%u, %llu) are not all live: %u particles are", first,
                        (unsigned long long)first + count, w->count);
    if (count > 0 && !data) return gp__fail(w, GP_ERROR_INVALID_ARGUMENT, "the data pointer is NULL for %u particles", count);
    return GP_OK;
}

gp_result gp_particles_read(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, void* dst) {
    gp_result r;
    size_t size = gp_attribute_size(attribute);
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_particles_read");
    if ((r = gp__check_range(world, attribute, first, count, dst)) != GP_OK) return gp__end(world, r);
    gp__buffer_download(world, gp__attribute_buffer(world, attribute), (size_t)first * size, (size_t)count * size, dst);
    return gp__end(world, GP_OK);
}

gp_result gp_particles_write(gp_world* world, gp_attribute attribute, uint32_t first, uint32_t count, const void* src) {
    gp_result r;
    size_t size = gp_attribute_size(attribute);
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_particles_write");
    if ((r = gp__check_range(world, attribute, first, count, src)) != GP_OK) return gp__end(world, r);
    if (attribute == GP_ATTRIBUTE_INFO)
        return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "info holds the library's ids and cannot be written"));
    if (attribute == GP_ATTRIBUTE_POSITION) r = gp__check_values(world, "position (x, y, z, radius)", (const float*)src, count, 4, 4, true);
    if (attribute == GP_ATTRIBUTE_VELOCITY) r = gp__check_values(world, "velocity (x, y, z, mass)", (const float*)src, count, 4, 4, true);
    if (attribute == GP_ATTRIBUTE_LIFE) {
        uint32_t i;
        const float* v = (const float*)src;
        r = gp__check_values(world, "life (age, lifetime)", v, count, 2, 2, false);
        for (i = 0; r == GP_OK && i < count; ++i)
            if (v[2 * i] < 0.0f || v[2 * i + 1] < 0.0f)
                r = gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "life of particle %u has a negative age or lifetime", i);
    }
    if (r != GP_OK) return gp__end(world, r);
    gp__buffer_upload(world, gp__attribute_buffer(world, attribute), (size_t)first * size, (size_t)count * size, src);
    if (attribute == GP_ATTRIBUTE_POSITION) world->grid_built = false;
    return gp__end(world, GP_OK);
}

gp_result gp_buffer_create(gp_world* world, size_t bytes, const void* data, uint32_t* buffer) {
    gp_result r;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_buffer_create");
    if (!buffer) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "buffer is NULL"));
    r = gp__buffer_new(world, bytes, data, "the requested buffer", buffer);
    return gp__end(world, r);
}

void gp_buffer_destroy(gp_world* world, uint32_t buffer) {
    if (world && buffer) world->gl.fnDeleteBuffers(1, &buffer);
}

gp_result gp_buffer_write(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, const void* src) {
    gp_result r;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_buffer_write");
    if (bytes && !src) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "src is NULL"));
    if (bytes > (size_t)-1 - offset) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "offset + bytes overflows"));
    if ((r = gp__check_buffer(world, buffer, offset + bytes, "buffer")) != GP_OK) return gp__end(world, r);
    gp__buffer_upload(world, buffer, offset, bytes, src);
    return gp__end(world, GP_OK);
}

gp_result gp_buffer_read(gp_world* world, uint32_t buffer, size_t offset, size_t bytes, void* dst) {
    gp_result r;
    if (!world) return GP_ERROR_INVALID_ARGUMENT;
    gp__begin(world, "gp_buffer_read");
    if (bytes && !dst) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "dst is NULL"));
    if (bytes > (size_t)-1 - offset) return gp__end(world, gp__fail(world, GP_ERROR_INVALID_ARGUMENT, "offset + bytes overflows"));
    if ((r = gp__check_buffer(world, buffer, offset + bytes, "buffer")) != GP_OK) return gp__end(world, r);
    gp__buffer_download(world, buffer, offset, bytes, dst);
    return gp__end(world, GP_OK);
}

uint32_t gp_timings_read(gp_world* world, gp_timing* timings, uint32_t max) {
    uint32_t n, i;
    if (!world || !world->desc.gpu_timings) return 0;
    gp__timers_collect(world);
    n = world->total_count;
    if (!timings) return n;
    for (i = 0; i < n && i < max; ++i) timings[i] = world->totals[i];
    world->total_count = 0;
    return n;
}

#endif /* GP__IMPLEMENTATION_INCLUDED */
#endif /* GPUPARTICLE_IMPLEMENTATION */
