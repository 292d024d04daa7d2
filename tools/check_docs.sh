#!/bin/sh
# check_docs.sh [HEADER]: the checks that keep gpuparticle.h's own documentation true, one
# "ok NAME" or "FAIL NAME" line each with indented reasons (read by tools/run_tests.sh); exits 1
# when one fails.
#   version:    GP_VERSION_MAJOR/MINOR/PATCH, line 1, README's "Status: vX.Y.Z" and
#               CHANGELOG's first "## X.Y.Z" heading say the same version.
#   anchors:    every >>name in the CONTENTS block has a section banner, every banner is listed.
#   licence:    the last comment block is the MIT licence, and nothing but #endif follows it.
#   references: a REFERENCES block holds every work the comments cite by author and year
#               ("Harada et al. 2007a") and every paper number (000-004) the shaders cite.
set -u
H=${1:-gpuparticle.h}
B=build/check
mkdir -p "$B"

. tools/report.sh   # report NAME STATUS [LOG]

# ---- one version ----
: > "$B/docs.log"
v=$(awk '$1 == "#define" && $2 ~ /^GP_VERSION_(MAJOR|MINOR|PATCH)$/ && !($2 in n) { n[$2] = $3; ++count }
         END { if (count == 3) print n["GP_VERSION_MAJOR"] "." n["GP_VERSION_MINOR"] "." n["GP_VERSION_PATCH"] }' "$H")
if [ -z "$v" ]; then
    echo "$H does not define all of GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH" >> "$B/docs.log"
else
    first=$(sed -n '1s/.*gpuparticle\.h v\([0-9][0-9.]*[0-9]\).*/\1/p' "$H")
    [ "$first" = "$v" ] || echo "$H line 1 says v${first:-(no version)}, GP_VERSION_* say $v" >> "$B/docs.log"
    status=$(sed -n 's/.*Status: v\([0-9][0-9.]*[0-9]\).*/\1/p' README.md | head -1)
    [ "$status" = "$v" ] || echo "README.md says \"Status: v${status:-(none)}\", GP_VERSION_* say $v" >> "$B/docs.log"
    log=$(awk '/^## [0-9]/ { print $2; exit }' CHANGELOG.md)
    [ "$log" = "$v" ] || echo "CHANGELOG.md's first version heading is \"## ${log:-(none)}\", GP_VERSION_* say $v" >> "$B/docs.log"
fi
[ -s "$B/docs.log" ]; report "docs: one version (${v:-?}) in the macros, line 1, README.md and CHANGELOG.md" $((1 - $?)) "$B/docs.log"

# ---- anchors: CONTENTS against the banners (/* >>name ==== or, inside the top comment, >>name ====) ----
awk '/^ *CONTENTS/ { on = 1; next }
     on && /^(\/\* |   )>>[a-z0-9-]+ =/ { exit }
     on && /^ +>>[a-z0-9-]+ / { sub(/^ +>>/, ""); sub(/ .*/, ""); print }' "$H" | sort > "$B/docs_contents"
grep -E '^(/\* |   )>>[a-z0-9-]+ =' "$H" | sed 's/^\/\* //; s/^   //; s/^>>//; s/ .*//' | sort > "$B/docs_banners"
: > "$B/docs.log"
[ -s "$B/docs_contents" ] || echo "no CONTENTS block listing >>name anchors" >> "$B/docs.log"
{ comm -23 "$B/docs_contents" "$B/docs_banners" | sed 's/^/>>/; s/$/ is in CONTENTS but has no section banner/'
  comm -13 "$B/docs_contents" "$B/docs_banners" | uniq | sed 's/^/>>/; s/$/ has a section banner but is not in CONTENTS/'
  uniq -d "$B/docs_banners" | sed 's/^/>>/; s/$/ has more than one section banner/'; } >> "$B/docs.log"
[ -s "$B/docs.log" ]; report "docs: the CONTENTS anchors and the section banners match" $((1 - $?)) "$B/docs.log"

# ---- the licence closes the file ----
# The last comment of more than one line, and what follows it: only blank lines and #endif.
awk 'open { text = text "\n" $0; if (index($0, "*/")) { open = 0; last = text; after = "" } next }
     { s = $0; sub(/\/\*.*\*\//, "", s) }
     index(s, "/*") { open = 1; text = $0; next }
     $0 !~ /^[ \t]*$/ && $0 !~ /^#endif/ { after = after "\n" $0 }
     END {
         if (index(last, "Permission is hereby granted, free of charge") == 0 || index(last, "WITHOUT WARRANTY OF ANY KIND") == 0)
             print "the last comment block is not the MIT licence (\"Permission is hereby granted, free of charge ... WITHOUT WARRANTY OF ANY KIND\")"
         else if (after != "") print "code follows the licence:" substr(after, 1, 200)
     }' "$H" > "$B/docs.log"
[ -s "$B/docs.log" ]; report "docs: the MIT licence text closes the header" $((1 - $?)) "$B/docs.log"

# ---- every cited work is in REFERENCES ----
# A citation is a surname, then "et al." or "and" and another surname or nothing, then a year:
# "Harada et al. 2007a", "Cundall and Strack 1979", "Monaghan 1992". Each must name an entry of
# REFERENCES (a line indented three spaces, and the lines indented deeper below it) that holds its
# first surname and its year as a word. The shader sources cite the five papers of their origin by
# number (000-004, standing alone: "001 eq. 4", "(000)"; not 0.001, 1,000 or 0x001): REFERENCES
# must hold each number cited so too.
: > "$B/docs.log"
awk '/^ *REFERENCES *$/ { on = 1; next } on && index($0, "*/") { exit } on' "$H" > "$B/docs_references"
[ -s "$B/docs_references" ] || echo "no REFERENCES block (a comment line \"REFERENCES\", the works below it)" >> "$B/docs.log"
awk '/^   [^ ]/ { if (entry != "") print entry; entry = $0; next } { entry = entry " " $0 }
     END { if (entry != "") print entry }' "$B/docs_references" > "$B/docs_entries"
awk '/^ *REFERENCES *$/ { on = 1 } on && index($0, "*/") { on = 0; next } !on' "$H" |
    LC_ALL=C grep -oE "(^|[^A-Za-z0-9_])[A-Z]([A-Za-z'-]|[^ -~])*( et al\.| and [A-Z]([A-Za-z'-]|[^ -~])*)? (1[89][0-9]{2}|20[0-9]{2})[a-z]?" |
    LC_ALL=C sed 's/^[^A-Z]*//' | sort -u > "$B/docs_citations"
[ -s "$B/docs_citations" ] || echo "no citation of the form \"Author et al. YEAR\" found" >> "$B/docs.log"
while IFS= read -r c; do
    awk -v name="${c%% *}" -v year="${c##* }" '
        index($0, name) && match($0, "(^|[^0-9A-Za-z])" year "([^0-9A-Za-z]|$)") { found = 1 }
        END { exit !found }' "$B/docs_entries" ||
        echo "\"$c\" is cited but no REFERENCES entry holds ${c%% *} and ${c##* }" >> "$B/docs.log"
done < "$B/docs_citations"
# shellcheck disable=SC2013
for id in $(grep -oE '(^|[^0-9.,x])00[0-4]([^0-9]|$)' "$H" | grep -oE '00[0-4]' | sort -u); do
    grep -qE "(^|[^0-9.,x])$id([^0-9]|$)" "$B/docs_references" || echo "paper $id is cited but not in REFERENCES" >> "$B/docs.log"
done
[ -s "$B/docs.log" ]; report "docs: REFERENCES holds every work the comments cite" $((1 - $?)) "$B/docs.log"
# ---- README.md is a front door: two screens of short lines, links that resolve ----
# Outside ``` blocks no line is over 120 characters (a UTF-8 character counts once), and the file
# stays under 250 lines. Every relative link or image names a file or folder of the repository,
# and every >>name it mentions is a section banner of the header.
LC_ALL=C sed 's/[\x80-\xbf]//g' README.md |
    awk '/^```/ { code = !code; next }
         !code && length($0) > 120 { print "README.md line " NR ": " length($0) " characters, over 120 outside code blocks" }
         END { if (NR >= 250) print "README.md has " NR " lines: keep it under 250 (the detail belongs in the header or RESULTS)" }' > "$B/docs.log"
[ -s "$B/docs.log" ]; report "docs: README.md is under 250 lines, none over 120 characters outside code" $((1 - $?)) "$B/docs.log"
: > "$B/docs.log"
# shellcheck disable=SC2013
for target in $(grep -oE '\]\([^) ]+\)' README.md | sed 's/^](//; s/)$//; s/#.*//' | sort -u); do
    case $target in http://*|https://*|mailto:*|'') continue ;; esac
    [ -e "$target" ] || echo "README.md links to $target, which is not in the repository" >> "$B/docs.log"
done
# shellcheck disable=SC2013
for name in $(grep -oE '>>[a-z0-9-]+' README.md | sed 's/^>>//' | sort -u); do
    grep -qx "$name" "$B/docs_banners" || echo "README.md names >>$name, which is no section banner of $H" >> "$B/docs.log"
done
[ -s "$B/docs.log" ]; report "docs: README.md's links name files that exist and the header's own anchors" $((1 - $?)) "$B/docs.log"
exit $failed
