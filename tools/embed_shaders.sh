#!/bin/sh
# embed_shaders.sh: writes the shaders of shaders_embedded/ into gpuparticle.h, each file once.
#
#   tools/embed_shaders.sh header DIR HEADER   print HEADER with its generated region rewritten
#   tools/embed_shaders.sh list DIR            print each program and the files it is made of
#
# DIR holds shared snippets (*.glsl) and one file per program stage: *.comp (a compute program),
# *.vert and *.frag (the draw helper's stages). A stage file names each snippet it needs with a line
#     #include "gp_common.glsl"
# anywhere in it (a snippet may be included inside a function body: the neighbour loop is). Every
# file goes into the header once, as an array of lines (one C string literal per line: C99 allows
# 4,095 characters in one literal, not in an array); each stage becomes a list of line ranges of
# those files, which gpuparticle.h hands to GL with a `#line LINE FILE` before each range, so a
# driver's log names the right file and line. Snippets include nothing; a program includes a
# snippet once. The generator refuses a missing snippet, a nested or repeated include, a line of
# more than 4,000 characters, and a program of more than GP__SHADER_MAX_LINES lines or GP__SHADER_MAX_RANGES
# ranges (the header's static limits, below), so that no limit is met at run time. POSIX sh and awk only.
set -eu
mode=${1:-}; dir=${2:-}; target=${3:-}
usage() { echo "usage: $0 header DIR HEADER | list DIR" >&2; exit 2; }
[ -n "$mode" ] && [ -d "$dir" ] || usage
max_lines=2048   # GP__SHADER_MAX_LINES: lines of one program, with its #line directives
max_ranges=32    # GP__SHADER_MAX_RANGES: ranges of one program

files() { ls "$dir"/*.glsl "$dir"/*.comp "$dir"/*.vert "$dir"/*.frag 2>/dev/null | LC_ALL=C sort; }

# The region, or with LIST=1 the program listing. Every file is read by one awk.
region() {
    # shellcheck disable=SC2046
    awk -v max_lines="$max_lines" -v max_ranges="$max_ranges" -v list="${LIST:-0}" '
        function fail(message) { print "embed_shaders.sh: " message > "/dev/stderr"; failed = 1; exit 1 }
        function base(path) { sub(/.*\//, "", path); return path }
        function ident(name) { name = toupper(name); gsub(/[^A-Z0-9]/, "_", name); return name }
        function cname(name) { name = tolower(name); gsub(/[^a-z0-9]/, "_", name); return name }
        function escape(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
        FNR == 1 { name = base(FILENAME); order[++nfiles] = name; index_of[name] = nfiles - 1 }
        {
            if (length($0) > 4000) fail(name ":" FNR ": a line of more than 4,000 characters")
            if (FNR >= 10000) fail(name ": 10,000 lines or more (the header numbers line L of file F as (F + 1) * 10000 + L)")
            text[name, FNR] = $0; count[name] = FNR
        }
        END {
            if (failed) exit 1
            stages = 0
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]
                is_stage = name ~ /\.(comp|vert|frag)$/
                for (l = 1; l <= count[name]; ++l) {
                    if (text[name, l] !~ /^[ \t]*#include "/) continue
                    if (!is_stage) fail(name ":" l ": snippets include nothing; include every snippet from the stage file")
                }
                if (is_stage) stage[++stages] = name
            }
            # each stage: ranges of (file, first line 0-based, count)
            for (s = 1; s <= stages; ++s) {
                name = stage[s]; nr = 0; start = 1; lines = 0; delete seen
                for (l = 1; l <= count[name] + 1; ++l) {
                    is_include = l <= count[name] && text[name, l] ~ /^[ \t]*#include "/
                    if (l <= count[name] && !is_include) continue
                    if (l > start) { ++nr; rf[s, nr] = name; r0[s, nr] = start - 1; rn[s, nr] = l - start; lines += l - start + 1 }
                    start = l + 1
                    if (!is_include) continue
                    snippet = text[name, l]; sub(/^[ \t]*#include "/, "", snippet); sub(/".*/, "", snippet)
                    if (!(snippet in count)) fail(name ":" l ": no snippet " snippet " in the shader directory")
                    if (snippet in seen) fail(name ":" l ": " snippet " is included twice")
                    seen[snippet] = 1
                    ++nr; rf[s, nr] = snippet; r0[s, nr] = 0; rn[s, nr] = count[snippet]; lines += count[snippet] + 1
                }
                ranges[s] = nr; total[s] = lines
                if (lines > max_lines) fail(name ": " lines " lines with its snippets; the header allows " max_lines " (GP__SHADER_MAX_LINES)")
                if (lines > most) most = lines
                if (nr > max_ranges) fail(name ": " nr " ranges (includes and the parts between); the header allows " max_ranges " (GP__SHADER_MAX_RANGES)")
                if (nr > most_ranges) most_ranges = nr
            }
            if (list) {
                for (s = 1; s <= stages; ++s) {
                    printf "%s (%d lines):", stage[s], total[s]
                    for (r = 1; r <= ranges[s]; ++r) printf " %s:%d-%d", rf[s, r], r0[s, r] + 1, r0[s, r] + rn[s, r]
                    printf "\n"
                }
                exit 0
            }
            print "/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/."
            print "   Do not edit: change the files there and run `make shaders`. Each file once, a string a line. */"
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]
                print "static const char* const gp__file_" cname(name) "[] = {"
                for (l = 1; l <= count[name]; ++l) print "    \"" escape(text[name, l]) "\\n\","
                print "    0"
                print "};"
            }
            print "typedef enum gp__shader_file_id {"
            for (f = 1; f <= nfiles; ++f) print "    GP__FILE_" ident(order[f]) ","
            print "    GP__FILE_COUNT"
            print "} gp__shader_file_id;"
            print "/* By #line source number: shaders_embedded/<name>. */"
            print "static const gp__shader_file gp__shader_files[GP__FILE_COUNT] = {"
            for (f = 1; f <= nfiles; ++f) print "    { \"" order[f] "\", gp__file_" cname(order[f]) " },"
            print "};"
            for (s = 1; s <= stages; ++s) {
                print "static const gp__shader_range gp__ranges_" cname(stage[s]) "[] = {"
                for (r = 1; r <= ranges[s]; ++r)
                    print "    { GP__FILE_" ident(rf[s, r]) ", " r0[s, r] ", " rn[s, r] " },"
                print "    { GP__FILE_COUNT, 0, 0 }"
                print "};"
            }
            # compute programs first (GP__PROGRAM_*), then the draw helper stages (GP__SHADER_*)
            print "typedef enum gp__program_id {"
            for (s = 1; s <= stages; ++s) if (stage[s] ~ /\.comp$/) { p = stage[s]; sub(/\.comp$/, "", p); print "    GP__PROGRAM_" ident(p) "," }
            print "    GP__PROGRAM_COUNT,   /* compute programs above; the draw helper'"'"'s stages below */"
            first = 1
            for (s = 1; s <= stages; ++s) if (stage[s] !~ /\.comp$/) {
                print "    GP__SHADER_" ident(stage[s]) (first ? " = GP__PROGRAM_COUNT," : ","); first = 0
            }
            print "    GP__SHADER_COUNT"
            print "} gp__program_id;"
            print "static const gp__shader_source gp__shader_sources[GP__SHADER_COUNT] = {"
            for (pass = 0; pass < 2; ++pass)
                for (s = 1; s <= stages; ++s) {
                    compute = stage[s] ~ /\.comp$/
                    if (compute != (pass == 0)) continue
                    kind = compute ? "GP__GL_COMPUTE_SHADER" : stage[s] ~ /\.vert$/ ? "GP__GL_VERTEX_SHADER" : "GP__GL_FRAGMENT_SHADER"
                    print "    { \"" stage[s] "\", " kind ", gp__ranges_" cname(stage[s]) " },"
                }
            print "};"
            print "#define GP__SHADER_MOST_LINES " most "   /* the longest program, with its #line directives */"
            print "#define GP__SHADER_MOST_RANGES " most_ranges "   /* the most ranges of one program */"
            print "/* <<shaders-generated */"
        }' $(files)
}

case "$mode" in
list)
    LIST=1 region ;;
header)
    [ -f "${target:-}" ] || usage
    grep -q '>>shaders-generated' "$target" && grep -q '<<shaders-generated' "$target" || {
        echo "$0: $target has no >>shaders-generated ... <<shaders-generated region" >&2; exit 2; }
    tmp=$(mktemp)
    region > "$tmp" || { rm -f "$tmp"; exit 1; }
    awk -v region="$tmp" '
        /\/\* >>shaders-generated/ { while ((getline line < region) > 0) print line; skip = 1; next }
        skip && /<<shaders-generated/ { skip = 0; next }
        !skip { print }' "$target"
    rm -f "$tmp" ;;
*) usage ;;
esac
