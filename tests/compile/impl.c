/* impl.c: the one file of the linkage test that holds the implementation. */
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
