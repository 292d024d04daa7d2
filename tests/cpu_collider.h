/* cpu_collider.h: one collider's signed distance in double precision, the one version the CPU
   references share (cpu_sph.c takes the minimum over the colliders, cpu_dem.c meets each collider
   on its own). */
#ifndef GP_CPU_COLLIDER_H
#define GP_CPU_COLLIDER_H
#include "gpuparticle.h"

/* One collider's signed distance at x, positive on the particles' side, and its unit gradient
   n (towards the free side), as gp_boundary.glsl's gp_collider_distance evaluates them: sphere,
   box, capsule (segment center..end), plane, height field (its heights from the desc's own
   pointer), turned inside out for inside = true (planes and height fields ignore it). Meshes are
   not supported: +infinity and a zero n. */
double cpu_collider_distance(const gp_collider_desc* collider, const double x[3], double n[3]);
#endif
