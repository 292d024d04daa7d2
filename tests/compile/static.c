/* static.c: GP_STATIC gives this file a private copy; every function used here compiles. */
#define GP_STATIC
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
int main(void) { return gp_result_string(GP_OK)[0] == 'G' && gp_attribute_size(GP_ATTRIBUTE_LIFE) == 8 ? 0 : 1; }
