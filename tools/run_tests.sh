#!/bin/sh
# run_tests.sh: what `make test` runs after building. The static checks (tools/check.sh,
# tools/check_docs.sh, tools/check_words.sh), the GPU tests (build/gp_tests) on whatever GL 4.3 EGL gives (llvmpipe
# without a GPU), and the host code again under AddressSanitizer and UndefinedBehaviorSanitizer
# on the tests that finish quickly.
# Ends with one line: "N passed, N failed".
set -u
log=build/test.log
: > "$log"
passed=0
failed=0

count_checks() {   # the ok/FAIL lines of the check scripts, the examples' runs and step_by_step.sh
    p=$(grep -c '^ok ' "$1"); f=$(grep -c '^FAIL ' "$1")
    passed=$((passed + p)); failed=$((failed + f))
}
count_runner() {   # the closing line of a gp_tests run; a run that dies before it counts as one failure
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
    if [ -z "$line" ]; then failed=$((failed + 1)); echo "FAIL $2 ended before its summary"; return; fi
    passed=$((passed + $(echo "$line" | cut -d' ' -f1))); failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

# Each phase's wall-clock seconds and its programs' CPU seconds (user and system, the shell's
# `times` for its waited-for children), printed at the end: where make test's time goes.
timings=
phase_wall=$(date +%s)
phase_cpu=0
phase() {
    times > build/times.out
    cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' build/times.out)
    now=$(date +%s)
    timings="$timings, $1 $((now - phase_wall)) s ($((cpu - phase_cpu)) s CPU)"
    phase_wall=$now; phase_cpu=$cpu
}

# The two static checks side by side (each one core's work), their lines printed in order.
sh tools/check.sh compile > build/check_compile.out 2>&1 &
compile_check=$!
sh tools/check.sh shaders > build/check_shaders.out 2>&1
wait "$compile_check"
cat build/check_shaders.out build/check_compile.out
count_checks build/check_shaders.out
count_checks build/check_compile.out
sh tools/check_docs.sh | tee build/check_docs.out
count_checks build/check_docs.out
sh tools/check_words.sh | tee build/check_words.out
count_checks build/check_words.out
phase "static checks"

# Two runs side by side, one llvmpipe thread each, each taking the next test nobody has taken
# (GP_TEST_CLAIMS, tests/gp_test.h): one's shader compiles and host work overlap the other's GPU
# work, a third less time on two cores than one run with two threads. Each run's lines are
# printed when it ends.
echo "== GPU tests (build/gp_tests, two runs sharing the tests)"
rm -rf build/test_claims && mkdir -p build/test_claims
GP_TEST_CLAIMS=build/test_claims LP_NUM_THREADS=1 build/gp_tests > build/gp_tests.0.out 2>&1 &
shard=$!
GP_TEST_CLAIMS=build/test_claims LP_NUM_THREADS=1 build/gp_tests > build/gp_tests.1.out 2>&1
wait "$shard"
cat build/gp_tests.0.out build/gp_tests.1.out > build/gp_tests.out
grep -v 'passed, .* failed$' build/gp_tests.out
count_runner build/gp_tests.0.out "gp_tests (run 0)"
count_runner build/gp_tests.1.out "gp_tests (run 1)"
phase "GPU tests"

# Under the sanitizers: the host side (validation, staging, loader, logging, allocator) on every
# small test. Mesa's own allocations are not ours to check: leaks inside the driver are ignored.
echo "== GPU tests under ASan and UBSan (build/gp_tests_sanitized, host code)"
printf 'leak:libLLVM\nleak:libgallium\nleak:mesa\nleak:libEGL\nleak:libGLX\nleak:libGLdispatch\nleak:dri\n' > build/lsan.supp
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=suppressions=build/lsan.supp:print_suppressions=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build/gp_tests_sanitized world particles_ timings reject restore float_sort indirect empty_and_misuse effects_collisions emitter_absurd_dt 2>&1 \
    | tee build/gp_tests_sanitized.out | grep -v 'passed, .* failed$'
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' build/gp_tests_sanitized.out; then
    echo "FAIL sanitizers reported errors (build/gp_tests_sanitized.out)"; failed=$((failed + 1))
fi
count_runner build/gp_tests_sanitized.out gp_tests_sanitized
phase "sanitized tests"

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
# table and the reasons are in tools/long_examples.txt (the GPU bundle runs the same). About 90 s
# on llvmpipe beside the short runs (glasses 32 s, dam_break 27 s, sand_pile 26 s).
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

# The two side by side (the short runs are mostly shader compiles and start-up, one core each),
# each's lines printed when both end.
mkdir -p build/example_frames
long_examples > build/examples_long.out 2>&1 &
long=$!
short_examples > build/examples_short.out 2>&1
wait "$long"
phase "examples"
echo "== examples"
cat build/examples_short.out
count_checks build/examples_short.out

# The header's STEP BY STEP, as README.md shows it, pasted into a GLFW program: it compiles, and
# its one frame under Xvfb shows particles.
echo "== the header's STEP BY STEP"
sh tools/step_by_step.sh | tee build/step_by_step.out
count_checks build/step_by_step.out
phase "STEP BY STEP"

echo "== examples, longer runs"
cat build/examples_long.out
count_checks build/examples_long.out

echo "== time:${timings#,}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
