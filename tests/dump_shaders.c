/* dump_shaders.c: what gpuparticle.h hands GL for each embedded program. Needs no GL context.
     dump_shaders DIR   every program to DIR/<stage file> exactly as the driver receives it: the
                        stage file's #version line, the header's defines (the constants C and GLSL
                        share, the program's row of the binding plan), then the stage file's lines
                        and its snippets', each range after a #line directive. `make shaders`
                        writes them to build/shaders/, where tools/check.sh checks them. */
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
