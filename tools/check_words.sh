#!/bin/sh
# check_words.sh [FILE_OR_DIR ...]: the product speaks of itself. A reader of the header, its
# shaders, tests, tools, examples, benchmarks and documents meets what the code does and why, not
# the bookkeeping of how it was made: no work-item numbers, no numbered or unnumbered work
# periods, no numbers of a style guide the repository does not hold, no briefs, leases or lent
# machines. One "ok NAME" or "FAIL NAME" line (read by tools/run_tests.sh) with the offending
# lines, FILE:LINE: TEXT, below it and all of them in build/check/words.log; exits 1 on a
# failure. Without arguments it reads the repository's own text (the list below).
#
# What is flagged (grep -E; the words must stand alone, so "release" or "known issues" are not):
#   work items:  the word "issue" or "item", singular or plural, before a number (with or
#                without "#"); "the issue asks" / "the issue says" (a work item without its number)
#   work periods: the word for one, singular or plural ("the tenth one" of them)
#   style guide: "STYLE" before a number, and "STYLE.md"
#   briefs:      "briefs", and "brief" as a noun after an article ("the brief asks", "a brief,"):
#                "in brief" and "a brief look" are English
#   leases:      "lease", "leases", "leased", "leasing"
#   lent:        "lent" ("a lent GPU", "no GPU was lent")
set -u
B=build/check
mkdir -p "$B"

. tools/report.sh   # report NAME STATUS [LOG]

if [ $# -eq 0 ]; then
    set --
    for path in gpuparticle.h shaders_embedded tests tools examples bench Makefile README.md CHANGELOG.md HACKING.md; do
        [ -e "$path" ] && set -- "$@" "$path"
    done
fi

work='\b[Ii]ssues? #?[0-9]+|\b[Ii]tems? [0-9]+\b|\b[Tt]he issue(.s)? (asks|asked|says|said|wants|wanted)\b'
periods='\b[Ss]es''sions?\b'   # split so that this line does not match itself
style='\bSTYLE( [0-9]+\b|\.md\b)'
articles='[Tt]he|[Tt]his|[Tt]hat|[Aa]|[Ee]ach|[Ee]very|[Ii]ts|[Oo]ur|[Yy]our|[Mm]y'
verbs='asks|asked|says|said|wants|wanted|names|named|lists|listed|gives|gave|requires|required'
briefs="\\b[Bb]riefs\\b|\\b($articles) brief(.s)?( ($verbs)\\b|[,.;:)])"
leases='\b[Ll]eas(e|es|ed|ing)\b'
lent='\b[Ll]ent\b'

: > "$B/words.log"
grep -rnHEI --exclude=check_words.sh "$work|$periods|$style|$briefs|$leases|$lent" "$@" >> "$B/words.log" 2>/dev/null
count=$(wc -l < "$B/words.log")
files=$(cut -d: -f1 "$B/words.log" | sort -u | wc -l)
if [ "$count" -gt 0 ]; then
    cut -c1-200 "$B/words.log" > "$B/words_short.log"
    echo "$count line(s) in $files file(s) speak of work items, work periods, a style guide's numbers, briefs, leases or lent machines (all of them: $B/words.log); write the reason each stood for" >> "$B/words_short.log"
fi
[ "$count" -gt 0 ]; report "words: the product speaks of itself (no work items, work periods, style-guide numbers, briefs, leases, lent machines)" $((1 - $?)) "$B/words_short.log"
exit $failed
