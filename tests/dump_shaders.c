/* dump_shaders.c: what gpuparticle.h hands GL for each embedded program. Needs no GL context.
     dump_shaders DIR            every program to DIR/<stage file> exactly as the driver receives it
                                 (its defines, its binding plan's row, its #line directives), for
                                 tools/check.sh to put through glslangValidator
     dump_shaders --defines DIR  each compute program's defines alone to DIR/<stage file>, which
                                 `make shaders` writes into the stage file's defines region */
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    int id, k, count, defines_only = argc == 3 && strcmp(argv[1], "--defines") == 0;
    char defines[GP__SHADER_DEFINES_BYTES], directives[GP__SHADER_MAX_RANGES][24], path[1024];
    const char* strings[GP__SHADER_MAX_LINES + 8];
    if (argc != 2 && !defines_only) { fprintf(stderr, "usage: %s [--defines] DIR\n", argv[0]); return 2; }
    for (id = 0; id < (defines_only ? GP__PROGRAM_COUNT : GP__SHADER_COUNT); ++id) {
        FILE* f;
        size_t n;
        snprintf(path, sizeof path, "%s/%s", argv[argc - 1], gp__shader_sources[id].name);
        if (!(f = fopen(path, "w"))) { perror(path); return 1; }
        count = gp__shader_strings((gp__program_id)id, NULL, defines, directives, strings);
        if (defines_only) {   /* without the final newline: the region's closing marker follows */
            n = strlen(defines);
            fwrite(defines, 1, n && defines[n - 1] == '\n' ? n - 1 : n, f);
            fputs("\n", f);
        } else {
            for (k = 0; k < count; ++k) fputs(strings[k], f);
        }
        fclose(f);
    }
    return 0;
}
