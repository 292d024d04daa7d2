#!/usr/bin/env python3
"""check_calls.py: no forward calls in gpuparticle.h's implementation. Every
private function (gp__*) and public one is defined above its first caller, so that the sections read
top down and no lower section calls into a later one; a prototype never stands in for the order.
Prints "ok   ..." or "FAIL ..." and the offending calls (callee, its section, caller's line)."""
import re, sys

path = sys.argv[1] if len(sys.argv) > 1 else "gpuparticle.h"
text = open(path).read()
start = text.index("#ifdef GPUPARTICLE_IMPLEMENTATION")
lines = text[start:].split("\n")
offset = text[:start].count("\n")
definition = {}
section = {}
current = "?"
sections = []
for n, line in enumerate(lines):
    m = re.match(r"/\* >>([a-z-]+) =", line)
    if m: current = m.group(1)
    sections.append(current)
    m = re.match(r"^(?:static |GP_API_DECL |GP__API )?[A-Za-z_][\w \*]*?\b(gp_{1,2}\w+)\((?!\*)[^;]*$", line)
    if m and not line.startswith(" ") and m.group(1) not in definition and "{" in line + (lines[n + 1] if n + 1 < len(lines) else ""):
        definition[m.group(1)] = n
        section[m.group(1)] = current
problems = []
for n, line in enumerate(lines):
    if line.lstrip().startswith(("/*", "*", "//")): continue
    code = re.sub(r'"([^"\\]|\\.)*"', '""', line)
    code = re.sub(r"/\*.*?\*/", "", code)
    for m in re.finditer(r"\b(gp_{1,2}\w+)\s*\(", code):
        f = m.group(1)
        if f in definition and n < definition[f]:
            problems.append("%s (defined in >>%s, line %d) called at line %d in >>%s" %
                            (f, section[f], definition[f] + offset + 1, n + offset + 1, sections[n]))
if problems:
    print("FAIL sections: no function is called above its definition (no forward calls)")
    for p in problems[:20]: print("    " + p)
    sys.exit(1)
print("ok   sections: no function is called above its definition (no forward calls)")
