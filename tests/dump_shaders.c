/* dump_shaders.c: writes every embedded program of gpuparticle.h to DIR/<name> exactly as the
   header hands it to GL (its defines, its binding plan's row, its #line directives), so that
   tools/check.sh validates with glslangValidator what a driver compiles. Needs no GL context.
   Usage: dump_shaders DIR */
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include <stdio.h>

int main(int argc, char** argv) {
    int id, k, count;
    char defines[GP__SHADER_DEFINES_BYTES], directives[GP__SHADER_MAX_RANGES][24], path[1024];
    const char* strings[GP__SHADER_MAX_LINES + 8];
    if (argc != 2) { fprintf(stderr, "usage: %s DIR\n", argv[0]); return 2; }
    for (id = 0; id < GP__SHADER_COUNT; ++id) {
        FILE* f;
        snprintf(path, sizeof path, "%s/%s", argv[1], gp__shader_sources[id].name);
        if (!(f = fopen(path, "w"))) { perror(path); return 1; }
        count = gp__shader_strings((gp__program_id)id, NULL, defines, directives, strings);
        for (k = 0; k < count; ++k) fputs(strings[k], f);
        fclose(f);
    }
    return 0;
}
