#!/bin/sh
# run_tests.sh: what `make test` runs (MAKE names the make to build with). The static checks
# (tools/check.sh, tools/check_docs.sh, tools/check_words.sh), the GPU tests (build/gp_tests) on
# whatever GL 4.3 EGL gives (llvmpipe without a GPU), the host code again under AddressSanitizer
# and UndefinedBehaviorSanitizer on the tests that finish quickly, every example, and the header's
# STEP BY STEP. Prints each part's lines in that order, then where the time went, and ends with
# one line: "N passed, N failed".
#
# Two lanes, one per core, that end together. The first builds build/gp_tests and runs the GPU
# tests, which are most of the work; the second builds everything else, runs everything else, and
# then joins the GPU tests: each run takes the next test nobody has taken (GP_TEST_CLAIMS,
# tests/gp_test.h), so the two lanes share what is left of them, and the suite lists its longest
# tests first so that none is left alone at the end. Every GL program runs on llvmpipe's own thread
# (LP_NUM_THREADS=0): the cores are the lanes', and a worker thread per program only costs handing
# over each dispatch (a tenth more CPU time with one worker than with none, measured on three tests).
set -u
MAKE=${MAKE:-make}
export LP_NUM_THREADS=0
passed=0
failed=0
mkdir -p build

count_checks() {   # the ok/FAIL lines of the check scripts, the examples' runs and step_by_step.sh
    p=$(grep -c '^ok ' "$1"); f=$(grep -c '^FAIL ' "$1")
    passed=$((passed + p)); failed=$((failed + f))
}
count_runner() {   # the closing line of a gp_tests run; a run that dies before it counts as one failure
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
    if [ -z "$line" ]; then failed=$((failed + 1)); echo "FAIL $2 ended before its summary"; return; fi
    passed=$((passed + $(echo "$line" | cut -d' ' -f1))); failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

# phase FILE NAME [CPU]: appends ", NAME N s (N s CPU)" to FILE: the wall-clock seconds since the
# last phase and the CPU seconds (user and system) of the programs run since, from the shell's
# `times` for the children it has waited for, or CPU when given (a GPU tests run's: the sum of its
# tests' figures, as the second lane's shell also counts the first lane once it has ended).
start=$(date +%s)
phase_wall=$start
phase_cpu=0
phase() {
    times > "$1.cpu"
    cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1.cpu")
    now=$(date +%s)
    printf ', %s %s s (%s s CPU)' "$2" $((now - phase_wall)) "${3:-$((cpu - phase_cpu))}" >> "$1"
    phase_wall=$now; phase_cpu=$cpu
}
gpu_tests() {   # gpu_tests RUN: one run sharing the GPU tests, its lines in build/gp_tests.RUN.out
    GP_TEST_CLAIMS=build/test_claims build/gp_tests > "build/gp_tests.$1.out" 2>&1
    run_status=$?
    tests_cpu=$(awk -F'[(,]' '/ s CPU\)$/ { sub(/ s CPU\)/, "", $NF); sum += $NF } END { printf "%.0f", sum }' "build/gp_tests.$1.out")
    return $run_status
}
built() {   # built NAME LOG STATUS: a build's failure is a failed check, its log's last lines below it
    if [ "$3" -ne 0 ]; then echo "FAIL build: $1"; sed 's/^/    /' "$2" | tail -20; fi
}

echo "== building and running in two lanes: each part's lines come when both lanes end (the GPU tests'"
echo "   as they run: build/gp_tests.0.out, build/gp_tests.1.out)"

# ---- the first lane: the GPU tests' program, then the GPU tests ----
rm -rf build/test_claims build/lane_ready && mkdir -p build/test_claims
rm -f build/gp_tests.0.out build/gp_tests.1.out
: > build/times_lane0
(
    $MAKE build/gp_tests > build/build_gp_tests.log 2>&1
    status=$?
    built build/gp_tests build/build_gp_tests.log $status > build/build_gp_tests.out
    echo "$status" > build/lane_ready
    phase build/times_lane0 "build gp_tests"
    if [ "$status" -eq 0 ]; then gpu_tests 0; phase build/times_lane0 "GPU tests" "$tests_cpu"; fi
) &
lane0=$!

# ---- the second lane: everything else, then the GPU tests that are left ----
: > build/times_lane1
$MAKE test-programs > build/build_programs.log 2>&1
built "the sanitized tests, the examples, bench, soak and sink" build/build_programs.log $? > build/build_programs.out
phase build/times_lane1 "builds"

{ sh tools/check.sh shaders; sh tools/check.sh compile; sh tools/check_docs.sh; sh tools/check_words.sh; } > build/checks.out 2>&1
phase build/times_lane1 "static checks"

# Under the sanitizers: the host side (validation, staging, loader, logging, allocator) on every
# small test. Mesa's own allocations are not ours to check: leaks inside the driver are ignored.
printf 'leak:libLLVM\nleak:libgallium\nleak:mesa\nleak:libEGL\nleak:libGLX\nleak:libGLdispatch\nleak:dri\n' > build/lsan.supp
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=suppressions=build/lsan.supp:print_suppressions=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build/gp_tests_sanitized world particles_ timings reject restore float_sort indirect empty_and_misuse effects_collisions emitter_absurd_dt \
    > build/gp_tests_sanitized.out 2>&1
phase build/times_lane1 "sanitized tests"

# Every example, headless through EGL and in a real window under Xvfb: it must run, its last
# frame must show particles (tools/check_png.py decodes it independently of the example's writer),
# and its world must end with no pass having written past a buffer's end (make test builds the
# examples with GP_BUFFER_GUARD: gp_world_destroy says so on stderr).
short_examples() {
    for example in build/examples/*; do
        [ -x "$example" ] || continue
        name=$(basename "$example")
        out=build/example_frames/$name
        rm -rf "$out"; mkdir -p "$out"
        if "$example" --headless --frames 3 --out "$out/headless" < /dev/null > "$out.log" 2>&1 &&
           ! grep -q 'wrote past the end' "$out.log" &&
           python3 tools/check_png.py "$out/headless/frame_0002.png" >> "$out.log" 2>&1; then
            echo "ok   example $name runs headless and its frame shows particles"
        else
            echo "FAIL example $name headless:"; sed 's/^/    /' "$out.log" | tail -5
        fi
        if command -v xvfb-run > /dev/null 2>&1; then
            if timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$example" --frames 3 --out "$out/window" < /dev/null > "$out.log" 2>&1 &&
               ! grep -q 'wrote past the end' "$out.log" &&
               python3 tools/check_png.py "$out/window/frame_0002.png" >> "$out.log" 2>&1; then
                echo "ok   example $name runs in a window under Xvfb and its frame shows particles"
            else
                echo "FAIL example $name in a window under Xvfb:"; sed 's/^/    /' "$out.log" | tail -5
            fi
        fi
    done
}

# Some examples run longer, small, and their printed figures must say what a frame cannot: the
# table and the reasons are in tools/long_examples.txt (the GPU bundle runs the same).
long_examples() {
    while IFS='|' read -r name arguments last awk_test what; do
        case "$name" in ''|'#'*) continue ;; esac
        example=build/examples/$name
        out=build/example_frames/${name}_long
        [ -x "$example" ] || continue
        rm -rf "$out"; mkdir -p "$out"
        # shellcheck disable=SC2086
        if "$example" --headless $arguments --out "$out" < /dev/null > "$out.log" 2>&1 &&
           grep '^frame ' "$out.log" | tail -1 | awk "{ exit !($awk_test) }" && ! grep -qE 'not finite|wrote past the end' "$out.log" &&
           python3 tools/check_png.py "$out/frame_$last.png" >> "$out.log" 2>&1; then
            echo "ok   example $name: $what"
        else
            echo "FAIL example $name: $what:"; sed 's/^/    /' "$out.log" | tail -5
        fi
    done < tools/long_examples.txt
}

mkdir -p build/example_frames
short_examples > build/examples_short.out 2>&1
phase build/times_lane1 "examples"
long_examples > build/examples_long.out 2>&1
phase build/times_lane1 "examples, longer runs"

# The header's STEP BY STEP, as README.md shows it, pasted into a GLFW program: it compiles, and
# its one frame under Xvfb shows particles.
sh tools/step_by_step.sh > build/step_by_step.out 2>&1
phase build/times_lane1 "STEP BY STEP"

while [ ! -s build/lane_ready ]; do sleep 1; done
tests_built=$(cat build/lane_ready)
if [ "$tests_built" -eq 0 ]; then gpu_tests 1; phase build/times_lane1 "GPU tests" "$tests_cpu"; fi
wait "$lane0"

# ---- the lines, in order ----
cat build/build_gp_tests.out build/build_programs.out
count_checks build/build_gp_tests.out
count_checks build/build_programs.out
cat build/checks.out
count_checks build/checks.out

echo "== GPU tests (build/gp_tests, two runs sharing the tests)"
if [ "$tests_built" -eq 0 ]; then
    cat build/gp_tests.0.out build/gp_tests.1.out 2> /dev/null > build/gp_tests.out
    grep -v 'passed, .* failed$' build/gp_tests.out
    count_runner build/gp_tests.0.out "gp_tests (run 0)"
    count_runner build/gp_tests.1.out "gp_tests (run 1)"
fi

echo "== GPU tests under ASan and UBSan (build/gp_tests_sanitized, host code)"
grep -v 'passed, .* failed$' build/gp_tests_sanitized.out
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' build/gp_tests_sanitized.out; then
    echo "FAIL sanitizers reported errors (build/gp_tests_sanitized.out)"; failed=$((failed + 1))
fi
count_runner build/gp_tests_sanitized.out gp_tests_sanitized

echo "== examples"
cat build/examples_short.out
count_checks build/examples_short.out

echo "== the header's STEP BY STEP"
cat build/step_by_step.out
count_checks build/step_by_step.out

echo "== examples, longer runs"
cat build/examples_long.out
count_checks build/examples_long.out

phase_wall=$start; phase_cpu=0; : > build/times_all
phase build/times_all "in all"
echo "== time: first lane$(cat build/times_lane0); second lane$(cat build/times_lane1)$(cat build/times_all)" | sed 's/lane, /lane: /g'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
