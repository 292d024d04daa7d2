/* use_a.c: a user of the declarations only (linkage test). */
#include "gpuparticle.h"
#include "gpuparticle.h" /* twice: the declaration guard holds */
const char* use_a(void);
const char* use_a(void) { return gp_result_string(GP_ERROR_CAPACITY); }
