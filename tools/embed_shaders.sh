#!/bin/sh
# embed_shaders.sh: writes the shaders of shaders_embedded/ into gpuparticle.h, each file once.
#
#   tools/embed_shaders.sh header DIR HEADER   print HEADER with its generated region rewritten
#   tools/embed_shaders.sh sources DIR         check that DIR holds sources only (prints nothing)
#   tools/embed_shaders.sh list DIR            print each program and the line ranges it is made of
#
# DIR holds shared snippets (*.glsl) and one file per program stage: *.comp (a compute program),
# *.vert and *.frag (the draw helpers' stages). A stage file is its #version line, a comment
# saying what the stage does, one line per snippet it needs, and its own code:
#     #include "gp_common.glsl"
# The C preprocessor's form, which a reader and GLSL tools know (glslang reads it under
# GL_GOOGLE_include_directive); an include may sit inside a function body, as the neighbour
# loop's does. No driver sees that line: the header replaces it by the snippet's lines.
#
# The header receives every file once: a snippet whole, a stage file without its include lines;
# each stage becomes a list of line ranges, handed to GL after its #version line and the defines
# the header writes from C (the constants C and GLSL share, the program's row of the binding plan),
# with a `#line` before each range that names the file and its line, so that a driver's log names
# the line a developer edits. tests/dump_shaders.c writes each program as the driver receives it
# (`make shaders` puts them in build/shaders/, where tools/check.sh has glslangValidator check them).
#
# Every line of DIR is written once, by hand. The generator refuses what breaks that or the
# header's limits: a generated region (a line `// >>include x`, `// <<include x`, `// >>defines`
# or `// <<defines`, the markers of a pasted copy), a stage file that repeats three lines of a
# snippet in a row (40 characters or more together: a pasted body), a missing snippet, an include
# in a snippet, a snippet included twice, a stage file whose first line is not #version, a line of
# more than 4,000 characters (C99's limit for one string literal), and a program over the header's
# static limits (GP__SHADER_MAX_LINES lines, GP__SHADER_MAX_RANGES ranges). POSIX sh and awk only.
set -eu
mode=${1:-}; dir=${2:-}; target=${3:-}
usage() { echo "usage: $0 header DIR HEADER | sources DIR | list DIR" >&2; exit 2; }
[ -n "$mode" ] && [ -d "$dir" ] || usage
max_lines=2048   # GP__SHADER_MAX_LINES: lines of one program, with its #line directives
max_ranges=32    # GP__SHADER_MAX_RANGES: ranges of one program

files() { ls "$dir"/*.glsl "$dir"/*.comp "$dir"/*.vert "$dir"/*.frag 2>/dev/null | LC_ALL=C sort; }

# The region, or with LIST=1 the program listing, or with SOURCES=1 nothing but the refusals.
# Every file is read by one awk.
region() {
    # shellcheck disable=SC2046
    awk -v max_lines="$max_lines" -v max_ranges="$max_ranges" -v list="${LIST:-0}" -v sources="${SOURCES:-0}" '
        function fail(message) { print "embed_shaders.sh: " message > "/dev/stderr"; failed = 1 }
        function base(path) { sub(/.*\//, "", path); return path }
        function ident(name) { name = toupper(name); gsub(/[^A-Z0-9]/, "_", name); return name }
        function cname(name) { name = tolower(name); gsub(/[^a-z0-9]/, "_", name); return name }
        function escape(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
        function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
        # the snippet an include line names, or "" for any other line
        function included(line) {
            if (line !~ /^[ \t]*#[ \t]*include[ \t]/) return ""
            if (line !~ /^[ \t]*#[ \t]*include[ \t]+"[^"]+"[ \t]*$/) return "?"
            sub(/^[^"]*"/, "", line); sub(/".*/, "", line); return line
        }
        FNR == 1 { name = base(FILENAME); order[++nfiles] = name; is_stage[name] = name ~ /\.(comp|vert|frag)$/ }
        {
            if (length($0) > 4000) fail(name ":" FNR ": a line of more than 4,000 characters")
            if (FNR >= 10000) fail(name ": 10,000 lines or more (the header numbers line L of file F as (F + 1) * 10000 + L)")
            if ($0 ~ /^[ \t]*\/\/ (>>|<<)(include|defines)/)
                fail(name ":" FNR ": a generated region (" trim($0) "): a file here holds its own lines only; the programs are assembled under build/shaders/")
            text[name, FNR] = $0; count[name] = FNR
        }
        END {
            if (failed) exit 1
            # Three lines in a row of each snippet (not all blank or braces), to find a pasted body.
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]
                if (is_stage[name]) continue
                for (l = 1; l + 2 <= count[name]; ++l) {
                    a = trim(text[name, l]); b = trim(text[name, l + 1]); c = trim(text[name, l + 2])
                    if (length(a) + length(b) + length(c) >= 40) window[a SUBSEP b SUBSEP c] = name ":" l
                }
            }
            stages = 0
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]
                for (l = 1; l <= count[name]; ++l)
                    if (included(text[name, l]) != "" && !is_stage[name])
                        fail(name ":" l ": snippets include nothing; include every snippet from the stage file")
                if (!is_stage[name]) continue
                stage[++stages] = name
                if (text[name, 1] !~ /^#version /) fail(name ":1: a stage file begins with its #version line")
                pasted = 0   # one message for each run of repeated lines
                for (l = 1; l + 2 <= count[name]; ++l) {
                    key = trim(text[name, l]) SUBSEP trim(text[name, l + 1]) SUBSEP trim(text[name, l + 2])
                    if (!(key in window)) { pasted = 0; continue }
                    if (!pasted) fail(name ":" l ": lines from here repeat " window[key] " on; include the snippet instead of pasting it")
                    pasted = 1
                }
            }
            if (failed) exit 1
            # Each stage file: its own lines kept (stored[name, k], raw line rawline[name, k]), its
            # include lines dropped; ranges of (file, first stored line 0-based, count, raw 1-based
            # line of the first).
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]; kept = 0
                for (l = 1; l <= count[name]; ++l) {
                    snippet = is_stage[name] ? included(text[name, l]) : ""
                    if (snippet == "?") { fail(name ":" l ": write an include as #include \"name.glsl\""); continue }
                    if (snippet != "") {   # the snippets standing before stored line kept + 1, in order
                        before = (name SUBSEP (kept + 1)) in includes_at ? includes_at[name, kept + 1] "|" : ""
                        includes_at[name, kept + 1] = before snippet
                        continue
                    }
                    stored[name, ++kept] = text[name, l]; rawline[name, kept] = l
                }
                kept_count[name] = kept
            }
            if (failed) exit 1
            for (s = 1; s <= stages; ++s) {
                name = stage[s]; nr = 0; start = 1; lines = 0; delete seen
                for (k = 1; k <= kept_count[name] + 1; ++k) {
                    here = (name SUBSEP k) in includes_at ? includes_at[name, k] : ""
                    if (k <= kept_count[name] && here == "") continue   # a range ends at every include (line numbers stay contiguous)
                    if (k > start) { ++nr; rf[s, nr] = name; r0[s, nr] = start - 1; rn[s, nr] = k - start; rl[s, nr] = rawline[name, start]; lines += k - start + 1 }
                    start = k
                    nincludes = split(here, snippets, "|")
                    for (g = 1; g <= nincludes; ++g) {
                        snippet = snippets[g]
                        if (!(snippet in count) || is_stage[snippet]) { fail(name ": no snippet " snippet " in the shader directory"); continue }
                        if (snippet in seen) fail(name ": " snippet " is included twice")
                        seen[snippet] = 1
                        ++nr; rf[s, nr] = snippet; r0[s, nr] = 0; rn[s, nr] = count[snippet]; rl[s, nr] = 1; lines += count[snippet] + 1
                    }
                }
                ranges[s] = nr; total[s] = lines
                if (lines > max_lines) fail(name ": " lines " lines with its snippets; the header allows " max_lines " (GP__SHADER_MAX_LINES)")
                if (lines > most) most = lines
                if (nr > max_ranges) fail(name ": " nr " ranges (includes and the parts between); the header allows " max_ranges " (GP__SHADER_MAX_RANGES)")
                if (nr > most_ranges) most_ranges = nr
            }
            if (failed) exit 1
            if (sources) exit 0
            if (list) {
                for (s = 1; s <= stages; ++s) {
                    printf "%s (%d lines):", stage[s], total[s]
                    for (r = 1; r <= ranges[s]; ++r) printf " %s:%d+%d", rf[s, r], rl[s, r], rn[s, r]
                    printf "\n"
                }
                exit 0
            }
            print "/* >>shaders-generated: written by tools/embed_shaders.sh from shaders_embedded/."
            print "   Do not edit: change the files there and run `make shaders`. Each file once, a string a line. */"
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]
                print "static const char* const gp__file_" cname(name) "[] = {"
                for (k = 1; k <= kept_count[name]; ++k) print "    \"" escape(stored[name, k]) "\\n\","
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
                    print "    { GP__FILE_" ident(rf[s, r]) ", " r0[s, r] ", " rn[s, r] ", " rl[s, r] " },"
                print "    { GP__FILE_COUNT, 0, 0, 0 }"
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
sources)
    SOURCES=1 region ;;
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
