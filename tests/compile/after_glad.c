/* after_glad.c: the implementation compiled after glad's gl.h, which #defines every gl* name. */
#include <glad/gl.h>
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
int main(void) { return gp_result_string(GP_OK)[0] == 'G' ? 0 : 1; }
