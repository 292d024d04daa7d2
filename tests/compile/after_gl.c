/* after_gl.c: the implementation compiled after GL/gl.h and GL/glext.h with every prototype
   declared, so any gl* or GL_* name of the library's would clash. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
int main(void) { return gp_result_string(GP_OK)[0] == 'G' ? 0 : 1; }
