#!/bin/sh
# check.sh shaders | compile: the static checks of `make test`, one "ok NAME" or "FAIL NAME"
# line per check (read by tools/run_tests.sh).
#   shaders: shaders_embedded/ holds sources only (no generated text), gpuparticle.h's generated
#            region holds every file of it, no shader file restates a constant or a binding,
#            and every program, assembled in build/shaders/ exactly as the driver receives it,
#            carries #line directives that name its files' real lines and passes glslangValidator.
#   compile: the header compiles cleanly as C99 and C++, links once from several files,
#            sits after glad's gl.h and GL/gl.h, and its #error checks fire.
set -u
CC=${CC:-cc}
CXX=${CXX:-c++}
B=build/check/${1:-none}   # one folder a check, so that make test runs the two side by side
mkdir -p "$B"
WARN="-Wall -Wextra -Wpedantic -Werror -Wshadow"

. tools/report.sh   # report NAME STATUS [LOG]

shaders() {
    # Every line of shaders_embedded/ is written once: no stage file holds a generated region or a
    # snippet's pasted body (the programs are assembled under build/shaders/ instead).
    sh tools/embed_shaders.sh sources shaders_embedded > "$B/log" 2>&1
    report "shaders: shaders_embedded/ holds sources only (no generated region, no snippet's body in a stage file)" $? "$B/log"
    sh tools/embed_shaders.sh header shaders_embedded gpuparticle.h > "$B/gpuparticle.h.generated" 2> "$B/embed.log"
    if [ ! -s "$B/gpuparticle.h.generated" ]; then s=1
    elif cmp -s "$B/gpuparticle.h.generated" gpuparticle.h; then s=0; else
        diff gpuparticle.h "$B/gpuparticle.h.generated" > "$B/embed.log" 2>&1
        echo "gpuparticle.h has drifted from shaders_embedded/: run 'make shaders'" >> "$B/embed.log"; s=1; fi
    report "shaders: header in step with shaders_embedded/ (each file once, every limit met)" $s "$B/embed.log"
    # The header hands GL one string per line, and Mesa's preprocessor then rejects a backslash
    # line continuation that glslang accepts: none may appear.
    grep -n '\\$' shaders_embedded/* > "$B/log"
    [ -s "$B/log" ]; report "shaders: no backslash line continuations (Mesa rejects them here)" $((1 - $?)) "$B/log"
    # One source for each fact: the constants C and GLSL share come from the header, the storage
    # blocks' bindings from its binding plan, both injected as each program's defines; no shader
    # file writes either as a number.
    grep -nE '^[[:space:]]*#[[:space:]]*define[[:space:]]+GP_(GROUP_SIZE|KIND_|GRID_BOUNDED|GRID_HASHED|MAX_|WALL_SAMPLES|SHAPE_|SCAN_CHUNK|SORT_RUN|FLAG_|INTEGRATOR_MASK|BINDING_)|std430, binding = [0-9]' \
        shaders_embedded/* > "$B/log"
    [ -s "$B/log" ]; report "shaders: no shared constant or storage binding written in a shader file" $((1 - $?)) "$B/log"
    # Every program as the driver receives it (the header's gp__shader_strings: #version, the
    # defines from C, the snippets, #line directives), written by tests/dump_shaders.c.
    rm -rf build/shaders; mkdir -p build/shaders
    if $CC -std=c99 -I. tests/dump_shaders.c -o "$B/dump_shaders" -lm -ldl > "$B/log" 2>&1 &&
       "$B/dump_shaders" build/shaders >> "$B/log" 2>&1; then
        # After `#line (F + 1) * 10000 + L F` each line is line L, L + 1, ... of source F, the
        # F-th file of shaders_embedded/ in the generator's order; before the first, the stage
        # file's own line 1. So a driver's log names the line a developer edits.
        files=$(ls shaders_embedded/*.glsl shaders_embedded/*.comp shaders_embedded/*.vert shaders_embedded/*.frag | LC_ALL=C sort)
        : > "$B/log"
        for f in build/shaders/*; do
            # shellcheck disable=SC2086
            awk -v program="$f" -v stage="$(basename "$f")" '
                FILENAME != program { if (FNR == 1) { name = FILENAME; sub(/.*\//, "", name); called[nfiles] = name; number[name] = nfiles++ }
                                      text[nfiles - 1, FNR] = $0; next }
                FNR == 1 { source = number[stage]; line = 1 }
                /^#line / { n = $2; source = $3; line = source < nfiles ? n - (source + 1) * 10000 : -1; next }
                line < 0 { next }   # the header'"'"'s defines and the user'"'"'s prelude
                {
                    if ($0 != text[source, line]) { print program ":" FNR ": not line " line " of shaders_embedded/" called[source]; bad = 1; exit }
                    ++line
                }
                END { exit bad }' $files "$f" >> "$B/log" 2>&1 || true
        done
        [ -s "$B/log" ]; report "shaders: the programs' #line directives name their files' real lines" $((1 - $?)) "$B/log"
        for f in build/shaders/*; do
            glslangValidator -S "${f##*.}" "$f" > "$B/glslang.log" 2>&1
            report "shaders: glslangValidator accepts $(basename "$f") as the driver sees it" $? "$B/glslang.log"
        done
    else
        report "shaders: the programs could be assembled for glslangValidator" 1 "$B/log"
    fi
}

compile() {
    I="-I. -Ibuild/glad/include"
    printf '#define GPUPARTICLE_IMPLEMENTATION\n#include "gpuparticle.h"\nint main(void) { return 0; }\n' > "$B/impl.c"
    cp "$B/impl.c" "$B/impl.cc"
    $CC -std=c99 $WARN -Wstrict-prototypes $I -c "$B/impl.c" -o "$B/c99.o" > "$B/log" 2>&1
    report "compile: implementation as C99, -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes" $? "$B/log"
    $CC -std=c11 $WARN -Wstrict-prototypes $I -c "$B/impl.c" -o "$B/c11.o" > "$B/log" 2>&1
    report "compile: implementation as C11" $? "$B/log"
    $CXX -std=c++11 $WARN $I -c "$B/impl.cc" -o "$B/cxx11.o" > "$B/log" 2>&1
    report "compile: implementation as C++11" $? "$B/log"
    $CXX -std=c++17 $WARN $I -c "$B/impl.cc" -o "$B/cxx17.o" > "$B/log" 2>&1
    report "compile: implementation as C++17" $? "$B/log"
    $CXX -std=c++11 $WARN -DGP_BUFFER_GUARD=256 $I -c "$B/impl.cc" -o "$B/guard.o" > "$B/log" 2>&1
    report "compile: implementation with GP_BUFFER_GUARD=256 as C++11 (the tests build it as C99)" $? "$B/log"
    { for f in impl use_a use_b main; do $CC -std=c99 $WARN $I -c tests/compile/$f.c -o "$B/$f.o" || exit 1; done
      $CC "$B/impl.o" "$B/use_a.o" "$B/use_b.o" "$B/main.o" -o "$B/linkage" -lm -ldl && "$B/linkage"; } > "$B/log" 2>&1
    report "compile: linkage, implementation in one file used from two others" $? "$B/log"
    if $CC "$B/use_a.o" "$B/use_b.o" "$B/main.o" -o "$B/linkage_without" -lm -ldl > "$B/log" 2>&1; then s=1
        echo "linking without impl.c succeeded: the declarations carry an implementation" >> "$B/log"; else s=0; fi
    report "compile: linkage fails without the implementation file" $s "$B/log"
    $CC -std=c99 $WARN $I tests/compile/after_glad.c build/glad/src/gl.c -o "$B/after_glad" -lm -ldl > "$B/log" 2>&1
    report "compile: implementation after glad's gl.h" $? "$B/log"
    $CC -std=c99 $WARN $I tests/compile/after_gl.c -o "$B/after_gl" -lGL -lm -ldl > "$B/log" 2>&1
    report "compile: implementation after GL/gl.h and GL/glext.h with prototypes" $? "$B/log"
    { $CC -std=c99 $WARN -Wstrict-prototypes $I tests/compile/static.c -o "$B/static" -lm -ldl && "$B/static"; } > "$B/log" 2>&1
    report "compile: GP_STATIC" $? "$B/log"
    if $CC -std=c99 -DGP_GROUP_SIZE=100 $I -c "$B/impl.c" -o "$B/bad.o" > "$B/log" 2>&1; then s=1; else
        grep -q "GP_GROUP_SIZE must be a power of two" "$B/log"; s=$?; fi
    report "compile: #error on GP_GROUP_SIZE=100" $s "$B/log"
    if $CC -std=c99 -DGP_BUFFER_GUARD=100 $I -c "$B/impl.c" -o "$B/bad.o" > "$B/log" 2>&1; then s=1; else
        grep -q "GP_BUFFER_GUARD must be a multiple of 16" "$B/log"; s=$?; fi
    report "compile: #error on GP_BUFFER_GUARD=100" $s "$B/log"
    if $CC -std=c99 -DGP_STATIC -DGP_API_DECL=extern $I -c "$B/impl.c" -o "$B/bad.o" > "$B/log" 2>&1; then s=1; else
        grep -q "GP_STATIC or GP_API_DECL" "$B/log"; s=$?; fi
    report "compile: #error on GP_STATIC with GP_API_DECL" $s "$B/log"
    : > "$B/log"
    for f in $(sed -n '/#define GP__GL_FUNCTIONS(X)/,/^$/p' gpuparticle.h | grep -o 'X([^,]*, [A-Za-z0-9_]*' | awk '{print $NF}'); do
        grep -q "fn$f(" gpuparticle.h || echo "gl$f is loaded but never called" >> "$B/log"
    done
    for f in $(grep -o 'fn[A-Z][A-Za-z0-9_]*(' gpuparticle.h | sort -u | sed 's/^fn//; s/($//'); do
        grep -q "X([^,]*, $f," gpuparticle.h || echo "gl$f is called but not in GP__GL_FUNCTIONS" >> "$B/log"
    done
    [ -s "$B/log" ]; report "compile: the GL table holds exactly the entry points the library calls" $((1 - $?)) "$B/log"
    : > "$B/log"
    for item in $(sed -n '/^#define GP_LOG_ITEMS(X)/,/^typedef enum gp_log_item/p' gpuparticle.h | grep -o 'X([A-Z_]*,' | sed 's/X(//; s/,//'); do
        [ "$item" = NONE ] && continue
        [ "$(grep -c "GP_LOG_ITEM_$item\b" gpuparticle.h)" -ge 1 ] || echo "GP_LOG_ITEM_$item is listed but no message carries it" >> "$B/log"
    done
    [ -s "$B/log" ]; report "compile: every log item is carried by some message" $((1 - $?)) "$B/log"
    python3 tools/check_calls.py gpuparticle.h > "$B/log" 2>&1
    report "compile: sections read top down (no function called above its definition)" $? "$B/log"
    grep -nE '^[[:space:]]*#[[:space:]]*define[[:space:]]+(gl[A-Z]|GL_)' gpuparticle.h > "$B/log"
    [ -s "$B/log" ]; report "compile: the header defines no gl* or GL_* macro" $((1 - $?)) "$B/log"
}

case "${1:-}" in
shaders) shaders ;;
compile) compile ;;
*) echo "usage: $0 shaders | compile" >&2; exit 2 ;;
esac
