/* use_b.c: another user of the declarations only (linkage test). */
#include "gpuparticle.h"
uint32_t use_b(void);
uint32_t use_b(void) { return gp_float_sort_key(-1.0f); }
