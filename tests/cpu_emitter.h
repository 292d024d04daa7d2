/* cpu_emitter.h: an emitter's birth in double precision, as emitter_emit (shaders_embedded/)
   computes it: the same counter-based random numbers (pcg3d of the seed, the birth's serial number
   and a stream), the shape's position, the direction within the spread (or a cone's tilt), the
   speed and the lifetime drawn from their ranges. */
#ifndef GP_CPU_EMITTER_H
#define GP_CPU_EMITTER_H
#include "gpuparticle.h"

/* pcg3d (Jarzynski and Olano 2020) on three words, in place. */
void cpu_pcg3d(uint32_t v[3]);
/* Birth `serial` of an emitter of resolved desc d (gp_emitter_get's): its position, velocity and
   lifetime. */
void cpu_emit(const gp_emitter_desc* d, uint32_t serial, double position[3], double velocity[3], double* lifetime);
/* The same for a mesh emitter (d's shape GP_EMITTER_MESH; its mesh given here, as gp_emitter_add
   took it): the triangle drawn by area, the point on it, the direction about its normal. *triangle
   receives the index of the triangle drawn. */
void cpu_emit_mesh(const gp_emitter_desc* d, const float* vertices, const uint32_t* triangles, uint32_t triangle_count,
                   uint32_t serial, double position[3], double velocity[3], double* lifetime, uint32_t* triangle);
#endif
