#!/bin/sh
# embed_shaders.sh: keeps the compute shaders of shaders_embedded/ and gpuparticle.h in step.
#
#   tools/embed_shaders.sh sync DIR            rewrite the include regions of every DIR/*.comp
#   tools/embed_shaders.sh comp DIR FILE       print FILE with its include regions rewritten
#   tools/embed_shaders.sh header DIR HEADER   print HEADER with its generated region rewritten
#
# The shared snippets DIR/*.glsl are the source of truth for what they hold. A .comp names each
# snippet it needs with a pair of lines,
#     // >>include gp_common.glsl
#     // <<include gp_common.glsl
# and `sync` writes the snippet between them, so that every .comp is a complete shader that
# glslangValidator checks as it is and that a driver's line numbers point into. The header's region
# between its >>shaders-generated and <<shaders-generated lines receives each snippet once and each
# .comp as a list of parts (its own lines, and the snippets' arrays where it includes them), every
# line one string literal (C99 limits one literal to 4,095 characters, not an array), plus the
# table of programs. Nothing else is touched. POSIX sh and awk only.
set -eu
mode=${1:-}; dir=${2:-}; target=${3:-}
usage() { echo "usage: $0 sync DIR | comp DIR FILE | header DIR HEADER" >&2; exit 2; }
[ -n "$mode" ] && [ -d "$dir" ] || usage

# comp FILE: the .comp with every include region holding its snippet's current text.
comp() {
    awk -v dir="$dir" -v file="$1" '
        /^\/\/ >>include / {
            print; name = $3; path = dir "/" name; skip = 1
            if ((getline line < path) <= 0) { print file ": no snippet " path > "/dev/stderr"; exit 1 }
            do print line; while ((getline line < path) > 0)
            close(path)
            next
        }
        skip && /^\/\/ <<include / { skip = 0; print; next }
        !skip { print }
        END { if (skip) { print file ": an >>include region has no <<include line" > "/dev/stderr"; exit 1 } }
    ' "$1"
}

# lines FILE: FILE's lines as C string literals, one per line.
lines() { awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "    \"" $0 "\\n\"," }' "$1"; }

# The header's region: each snippet once, as an array of lines; each .comp as a list of parts,
# its own lines (the include markers kept, so line numbers match the file) with each include
# region replaced by the snippet's array.
region() {
    echo "/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/."
    echo "   Do not edit: change the .comp and .glsl files there and run \`make shaders\`. */"
    for f in "$dir"/*.glsl; do
        name=$(basename "$f" .glsl)
        echo "static const char* const gp__snippet_$name[] = {"
        lines "$f"
        echo "    0"
        echo "};"
    done
    for f in "$dir"/*.comp; do
        name=$(basename "$f" .comp)
        # split the .comp at its include regions: own lines go to numbered part files
        rm -rf "$tmpdir/parts"; mkdir -p "$tmpdir/parts"
        awk -v out="$tmpdir/parts" '
            BEGIN { part = 0; file = out "/own0"; printf "" > file; order = "own0" }
            /^\/\/ >>include / { print > file; close(file); order = order " snippet:" $3; skip = 1; next }
            skip && /^\/\/ <<include / { skip = 0; ++part; file = out "/own" part; printf "" > file; order = order " own" part; print > file; next }
            !skip { print > file }
            END { print order > (out "/order") }' "$f"
        for part in $(cat "$tmpdir/parts/order"); do
            case "$part" in own*)
                echo "static const char* const gp__shader_${name}_$part[] = {"
                lines "$tmpdir/parts/$part"
                echo "    0"
                echo "};" ;;
            esac
        done
        echo "static const char* const* const gp__shader_$name[] = {"
        for part in $(cat "$tmpdir/parts/order"); do
            case "$part" in
                own*) echo "    gp__shader_${name}_$part," ;;
                snippet:*) snippet=${part#snippet:}; echo "    gp__snippet_${snippet%.glsl}," ;;
            esac
        done
        echo "    0"
        echo "};"
    done
    echo "typedef enum gp__program_id {"
    for f in "$dir"/*.comp; do
        echo "    GP__PROGRAM_$(basename "$f" .comp | tr 'a-z' 'A-Z'),"
    done
    echo "    GP__PROGRAM_COUNT"
    echo "} gp__program_id;"
    echo "static const gp__shader_source gp__shader_sources[GP__PROGRAM_COUNT] = {"
    for f in "$dir"/*.comp; do
        name=$(basename "$f" .comp)
        echo "    { \"$name\", gp__shader_$name },"
    done
    echo "};"
    echo "/* <<shaders-generated */"
}

case "$mode" in
sync)
    for f in "$dir"/*.comp; do
        comp "$f" > "$f.new"
        if cmp -s "$f" "$f.new"; then rm -f "$f.new"; else mv "$f.new" "$f"; echo "updated $f"; fi
    done ;;
comp)
    [ -f "${target:-}" ] || usage
    comp "$target" ;;
header)
    [ -f "${target:-}" ] || usage
    grep -q '>>shaders-generated' "$target" && grep -q '<<shaders-generated' "$target" || {
        echo "$0: $target has no >>shaders-generated ... <<shaders-generated region" >&2; exit 2; }
    tmpdir=$(mktemp -d)
    tmp=$tmpdir/region
    region > "$tmp"
    awk -v region="$tmp" '
        /\/\* >>shaders-generated/ { while ((getline line < region) > 0) print line; skip = 1; next }
        skip && /<<shaders-generated/ { skip = 0; next }
        !skip { print }' "$target"
    rm -rf "$tmpdir" ;;
*) usage ;;
esac
