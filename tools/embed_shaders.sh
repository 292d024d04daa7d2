#!/bin/sh
# embed_shaders.sh: keeps shaders_embedded/ and gpuparticle.h in step, each shader fact written once.
#
#   tools/embed_shaders.sh header DIR HEADER        print HEADER with its generated region rewritten
#   tools/embed_shaders.sh sync DIR DEFINES [OUT]   rewrite the generated regions of every stage file
#                                                   of DIR (into OUT, a directory, when given)
#   tools/embed_shaders.sh list DIR                 print each program and the line ranges it is made of
#
# DIR holds shared snippets (*.glsl) and one file per program stage: *.comp (a compute program),
# *.vert and *.frag (the draw helpers' stages). A stage file's own code names each snippet it
# needs with a region
#     // >>include gp_common.glsl
#     // <<include gp_common.glsl
# (a region may sit inside a function body: the neighbour loop's does), and a compute stage has,
# after its #version line, a region
#     // >>defines
#     // <<defines
# `sync` fills the regions: each include region with the snippet's text, the defines region with
# DEFINES/<stage file>, the defines gpuparticle.h gives that program when it compiles it (its
# constants and its row of the binding plan, written from C by tests/dump_shaders.c). So every
# stage file is, as it stands, the program a driver compiles (glslangValidator checks it, and any
# GLSL tool reads it), while the snippets stay the one place each fact is edited: the regions are
# generated, and `make check` fails when they drift.
#
# The header receives every file once: a snippet whole, a stage file without its regions' bodies;
# each stage becomes a list of line ranges, handed to GL with a `#line` before each range that
# names the file and its line, so a driver's log names the right file and line. The generator
# refuses a missing snippet, an include in a snippet, a repeated include, an unclosed region, a
# line of more than 4,000 characters (C99's limit for one string literal), and a program over the
# header's static limits (GP__SHADER_MAX_LINES lines, GP__SHADER_MAX_RANGES ranges). POSIX sh and
# awk only.
set -eu
mode=${1:-}; dir=${2:-}; target=${3:-}
usage() { echo "usage: $0 header DIR HEADER | sync DIR DEFINES [OUT] | list DIR" >&2; exit 2; }
[ -n "$mode" ] && [ -d "$dir" ] || usage
max_lines=2048   # GP__SHADER_MAX_LINES: lines of one program, with its #line directives
max_ranges=32    # GP__SHADER_MAX_RANGES: ranges of one program

files() { ls "$dir"/*.glsl "$dir"/*.comp "$dir"/*.vert "$dir"/*.frag 2>/dev/null | LC_ALL=C sort; }

# The region, or with LIST=1 the program listing. Every file is read by one awk.
region() {
    # shellcheck disable=SC2046
    awk -v max_lines="$max_lines" -v max_ranges="$max_ranges" -v list="${LIST:-0}" -v sync="${SYNC:-0}" \
        -v defines="${DEFINES:-}" -v outdir="${OUTDIR:-}" '
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
                for (l = 1; l <= count[name]; ++l)
                    if (text[name, l] ~ /^[ \t]*\/\/ (>>|<<)(include|defines)/ && !is_stage)
                        fail(name ":" l ": snippets include nothing; include every snippet from the stage file")
                if (is_stage) stage[++stages] = name
            }
            # Each stage file: its own lines kept (stored[name, k], raw line rawline[name, k]), the
            # bodies and markers of its regions dropped; ranges of (file, first stored line 0-based,
            # count, raw 1-based line of the first).
            for (f = 1; f <= nfiles; ++f) {
                name = order[f]; kept = 0
                if (name !~ /\.(comp|vert|frag)$/) {
                    for (l = 1; l <= count[name]; ++l) { stored[name, ++kept] = text[name, l]; rawline[name, kept] = l }
                    kept_count[name] = kept
                    continue
                }
                inside = ""
                for (l = 1; l <= count[name]; ++l) {
                    line = text[name, l]
                    if (inside != "") {
                        if (line ~ /^[ \t]*\/\/ <</) {
                            closing = line; sub(/^[ \t]*\/\/ <</, "", closing)
                            if (closing != inside) fail(name ":" l ": region " inside " closed by <<" closing)
                            inside = ""
                        }
                        continue
                    }
                    if (line ~ /^[ \t]*\/\/ >>(include |defines)/) {
                        inside = line; sub(/^[ \t]*\/\/ >>/, "", inside)
                        # the regions standing before stored line kept + 1, in order
                        region_at[name, kept + 1] = ((name SUBSEP (kept + 1)) in region_at ? region_at[name, kept + 1] "|" : "") inside
                        continue
                    }
                    stored[name, ++kept] = line; rawline[name, kept] = l
                }
                if (inside != "") fail(name ": region " inside " is not closed")
                kept_count[name] = kept
            }
            for (s = 1; s <= stages; ++s) {
                name = stage[s]; nr = 0; start = 1; lines = 0; delete seen
                for (k = 1; k <= kept_count[name] + 1; ++k) {
                    regions = (name SUBSEP k) in region_at ? region_at[name, k] : ""
                    if (k <= kept_count[name] && regions == "") continue   # a range ends at every region (line numbers stay contiguous)
                    if (k > start) { ++nr; rf[s, nr] = name; r0[s, nr] = start - 1; rn[s, nr] = k - start; rl[s, nr] = rawline[name, start]; lines += k - start + 1 }
                    start = k
                    nregions = split(regions, region, "|")
                    for (g = 1; g <= nregions; ++g) {
                        if (region[g] !~ /^include /) continue
                        snippet = region[g]; sub(/^include /, "", snippet)
                        if (!(snippet in count)) fail(name ": no snippet " snippet " in the shader directory")
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
            if (sync) {   # every stage file with its regions filled
                for (s = 1; s <= stages; ++s) {
                    name = stage[s]; out = outdir "/" name; inside = ""
                    printf "" > out
                    for (l = 1; l <= count[name]; ++l) {
                        line = text[name, l]
                        if (inside != "") { if (line ~ /^[ \t]*\/\/ <</) { print line > out; inside = "" } ; continue }
                        print line > out
                        if (line !~ /^[ \t]*\/\/ >>(include |defines)/) continue
                        inside = line; sub(/^[ \t]*\/\/ >>/, "", inside)
                        if (inside ~ /^include /) {
                            snippet = inside; sub(/^include /, "", snippet)
                            for (k = 1; k <= count[snippet]; ++k) print text[snippet, k] > out
                        } else {
                            path = defines "/" name
                            if ((getline d < path) <= 0) { print "embed_shaders.sh: no defines " path > "/dev/stderr"; failed = 1; exit 1 }
                            do print d > out; while ((getline d < path) > 0)
                            close(path)
                        }
                    }
                    close(out)
                }
                exit 0
            }
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
sync)
    [ -d "${target:-}" ] || usage
    SYNC=1 DEFINES=$target OUTDIR=${4:-$dir} region ;;
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
