/* cpu_effects.h: one substep of the effect particles in double precision, as effects_collide and
   effects_move (shaders_embedded/) compute it: their collisions (a Jacobi sweep of hard-sphere
   impulses), then each one's flight under gravity, drag and the wind's uniform and vortex terms
   (exact for a constant force), backed up and bounced where it crossed a collider. Neither the
   user's forces, the wind's grid and noise nor the ride are modelled (the test's scene has none). */
#ifndef GP_CPU_EFFECTS_H
#define GP_CPU_EFFECTS_H
#include "gpuparticle.h"

typedef struct cpu_effects_scene {
    double gravity[3], h;
    gp_effect_material materials[GP_MAX_EFFECT_MATERIALS];   /* resolved */
    gp_wind_desc wind;                                        /* uniform and vortex only */
    const gp_collider_desc* colliders;
    uint32_t collider_count;
} cpu_effects_scene;

/* One substep of n particles (positions xyz + radius, velocities xyz + mass, their phases), in
   place; every particle is an effect particle. */
void cpu_effects_substep(const cpu_effects_scene* s, double (*position)[4], double (*velocity)[4], const uint32_t* phase, uint32_t n);
#endif
