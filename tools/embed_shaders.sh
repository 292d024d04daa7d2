#!/bin/sh
# embed_shaders.sh: writes the compute shaders of shaders_embedded/ into gpuparticle.h.
#
#   tools/embed_shaders.sh header DIR HEADER   print HEADER with its generated region rewritten
#   tools/embed_shaders.sh expand DIR OUT      write each DIR/*.comp, includes expanded, to OUT/
#
# Each DIR/NAME.comp becomes one program. `#include "x.glsl"` lines are replaced by DIR/x.glsl
# (one level deep) between `#line` directives, so a driver's error "S:L" means line L of source S,
# where the header's table lists S = 0 for the .comp and 1, 2, ... for its snippets in include
# order. The GL_GOOGLE_include_directive line, which lets glslangValidator read the .comp as it
# is, is dropped. The region between the >>shaders-generated and <<shaders-generated lines of the
# header is replaced; nothing else is touched. POSIX sh and awk only.
set -eu
mode=${1:-}; dir=${2:-}; target=${3:-}
[ -n "$mode" ] && [ -d "$dir" ] && [ -n "$target" ] || {
    echo "usage: $0 header DIR HEADER | expand DIR OUT" >&2; exit 2; }

# expand FILE: the shader with its includes expanded, on stdout.
expand() {
    awk -v dir="$dir" -v me="$(basename "$1")" '
        /^[ \t]*#[ \t]*extension[ \t]+GL_GOOGLE_include_directive/ { print ""; next }
        /^[ \t]*#[ \t]*include[ \t]+"/ {
            split($0, q, "\""); path = dir "/" q[2]; ++files
            print "#line 1 " files
            while ((getline line < path) > 0) {
                if (line ~ /^[ \t]*#[ \t]*include/) { print "nested include in " path > "/dev/stderr"; exit 1 }
                print line
            }
            close(path)
            print "#line " (NR + 1) " 0"
            next
        }
        { print }
    ' "$1"
}

# files FILE: the legend "0 x.comp, 1 a.glsl, ..." of the sources in one shader.
files() {
    awk -v me="$(basename "$1")" '
        BEGIN { out = "0 " me }
        /^[ \t]*#[ \t]*include[ \t]+"/ { split($0, q, "\""); out = out ", " (++n) " " q[2] }
        END { print out }' "$1"
}

region() {
    echo "/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/."
    echo "   Do not edit: change the .comp and .glsl files there and run \`make shaders\`. */"
    for f in "$dir"/*.comp; do
        name=$(basename "$f" .comp)
        echo "static const char* const gp__shader_$name[] = {"
        expand "$f" | awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "    \"" $0 "\\n\"," }'
        echo "    0"
        echo "};"
    done
    echo "typedef enum gp__program_id {"
    for f in "$dir"/*.comp; do
        name=$(basename "$f" .comp)
        echo "    GP__PROGRAM_$(echo "$name" | tr 'a-z' 'A-Z'),"
    done
    echo "    GP__PROGRAM_COUNT"
    echo "} gp__program_id;"
    echo "static const gp__shader_source gp__shader_sources[GP__PROGRAM_COUNT] = {"
    for f in "$dir"/*.comp; do
        name=$(basename "$f" .comp)
        echo "    { \"$name\", \"$(files "$f")\", gp__shader_$name },"
    done
    echo "};"
    echo "/* <<shaders-generated */"
}

case "$mode" in
header)
    [ -f "$target" ] || { echo "$0: no header $target" >&2; exit 2; }
    grep -q '>>shaders-generated' "$target" && grep -q '<<shaders-generated' "$target" || {
        echo "$0: $target has no >>shaders-generated ... <<shaders-generated region" >&2; exit 2; }
    tmp=${TMPDIR:-/tmp}/gp_region.$$
    region > "$tmp"
    awk -v region="$tmp" '
        /\/\* >>shaders-generated/ { while ((getline line < region) > 0) print line; skip = 1; next }
        skip && /<<shaders-generated/ { skip = 0; next }
        !skip { print }' "$target"
    rm -f "$tmp" ;;
expand)
    mkdir -p "$target"
    for f in "$dir"/*.comp; do expand "$f" > "$target/$(basename "$f")"; done ;;
*)
    echo "usage: $0 header DIR HEADER | expand DIR OUT" >&2; exit 2 ;;
esac
