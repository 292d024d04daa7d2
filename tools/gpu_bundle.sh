#!/bin/sh
# gpu_bundle.sh: packs what `make test`, `make bench`, `make soak`, `make sink` and `make hostile`
# run on the GPU side (build/gp_tests, build/bench, build/soak, build/sink, build/hostile,
# build/examples/*) with the shared libraries the examples link beyond a GL driver (GLFW and the X
# libraries), glvnd's Debian packages (libEGL and its dispatch, for a machine whose driver comes
# without them) and the checks' own files, into build/gpu_bundle/, for a machine that has a GPU
# driver but no build tools. There, from the repository root:
#     sh build/gpu_bundle/run.sh [tests|examples|long|bench|soak|sink|diag|hostile|all ...]
# with $OUT naming a folder for the logs (default build/gpu_out). `all` is tests, bench, examples,
# long, diag and hostile, in that order: on an NVIDIA H100 the tests take about 2 minutes in 8
# processes sharing them, tests and examples together 5, the bench 1.5; give `all` 9 minutes. The
# soak (SOAK_ARGS, default the 0.01 m spacing, every material) is apart: it is long. On a machine
# held for a fixed time that hands back only a few files, bound the run and pack its logs:
#     RUN_SECONDS=560 RUN_TAR=/path/to/logs.tgz sh build/gpu_bundle/run.sh all soak
# With RUN_TAR the logs are written to a folder of their own and packed into that one file.
set -eu
make -s build/gp_tests build/bench build/soak build/sink build/hostile examples
bundle=build/gpu_bundle
rm -rf "$bundle"
mkdir -p "$bundle/bin/examples" "$bundle/lib" "$bundle/debs"
cp build/gp_tests build/bench build/soak build/sink build/hostile "$bundle/bin/"
cp build/examples/* "$bundle/bin/examples/"
cp tools/long_examples.txt tools/check_png.py "$bundle/"
for library in libglfw.so.3 libX11.so.6 libxcb.so.1 libXau.so.6 libXdmcp.so.6 libbsd.so.0 libmd.so.0; do
    path=$(ldconfig -p | awk -v l="$library" '$1 == l { print $NF; exit }')
    [ -n "$path" ] && cp -L "$path" "$bundle/lib/"
done
# glvnd's libEGL and dispatch (Debian's, amd64): unpacked there only when the machine lacks them.
(cd "$bundle/debs" && apt-get -q download libegl1 libglvnd0 libopengl0 libgl1 libglx0 > /dev/null 2>&1) ||
    echo "gpu_bundle: could not download glvnd's packages; the GPU machine must have libEGL.so.1"
cat > "$bundle/run.sh" <<'RUN'
#!/bin/sh
# Runs the bundled GPU checks; logs in $OUT; each mode prints its ok/FAIL lines and a summary.
#   tests     build/gp_tests in 8 processes sharing the tests (GP_TEST_CLAIMS)
#   examples  every example headless, 3 frames: it runs and its last frame shows particles
#   long      the longer example runs of long_examples.txt, their printed figures checked
#   bench     the benchmark's sections, each in a process of its own
#   soak      build/soak $SOAK_ARGS (default: --spacings 0.01)
#   sink      build/sink once per ';'-separated argument list of $SINK_RUNS (default: the
#             ball of density 1,200 in settled water, a tank 0.25 x 0.8 m, at smoothing radii 2, 2.5, 3;
#             then in a syrup (nu 0.02) in a cylinder 0.2 m across for 5 s, against Stokes'
#             speed, at 2 and 3, each beside a neutral ball)
#   diag      gp_tests $DIAG_TESTS verbose (default: the checks that have shown or may show a
#             driver's difference: the store's audit, the SPH references and their set-aside
#             counts), then bench $DIAG_BENCH (what a failure asks for)
#   hostile   build/hostile once per ';'-separated argument list of $HOSTILE_RUNS (default: three
#             seeds, counted, two worlds at once, plain): the whole API against hostile input
#             and a caller's GL state, which a vendor's driver may keep differently
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-build/gpu_out}
if [ -n "${RUN_TAR:-}" ]; then OUT=$(mktemp -d)/gpu_out; fi   # packed into $RUN_TAR at the end
mkdir -p "$OUT" build
if ! ldconfig -p | grep -q 'libEGL.so.1 '; then
    for package in "$here"/debs/*.deb; do [ -f "$package" ] && dpkg -x "$package" /; done
    ldconfig
fi
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$nvidia" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$nvidia"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
[ $# -gt 0 ] || set -- all
modes=
for mode in "$@"; do   # all: its modes in place (all soak: then the soak)
    [ "$mode" = all ] && mode="tests bench examples long diag hostile"
    modes="$modes $mode"
done
# shellcheck disable=SC2086
set -- $modes
start=$(date +%s)
# RUN_SECONDS: the time the whole run may take; each mode's timeouts are cut to what is left and a
# mode that starts with under 20 s left is skipped, saying so. RUN_TAR: a file to pack $OUT into at
# the end, for a machine that hands back only a few files.
cap() {   # the smaller of $1 and the seconds left
    [ "${RUN_SECONDS:-0}" -gt 0 ] || { echo "$1"; return; }
    left=$((RUN_SECONDS - ($(date +%s) - start)))
    [ "$left" -lt 1 ] && left=1   # timeout 0 would mean none
    [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}
for mode in "$@"; do
    if [ "$(cap 20)" -lt 20 ]; then echo "run.sh: $mode skipped: the run's $RUN_SECONDS s are spent"; continue; fi
    case "$mode" in
    tests)
        rm -rf build/test_claims && mkdir -p build/test_claims
        for shard in 1 2 3 4 5 6 7 8; do
            GP_TEST_CLAIMS=build/test_claims timeout "$(cap 400)" "$here/bin/gp_tests" > "$OUT/gp_tests.$shard.log" 2>&1 &
        done
        wait
        cat "$OUT"/gp_tests.*.log | grep -E '^FAIL'
        cat "$OUT"/gp_tests.*.log | awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
            END { printf "gp_tests: %d passed, %d failed (%d of 8 processes finished)\n", p, f, n }' ;;
    examples)
        for example in "$here"/bin/examples/*; do
            name=$(basename "$example")
            if timeout "$(cap 120)" "$example" --headless --frames 3 --out "$OUT/frames/$name" < /dev/null > "$OUT/$name.log" 2>&1 &&
               python3 "$here/check_png.py" "$OUT/frames/$name/frame_0002.png" > /dev/null 2>&1; then
                echo "ok   example $name"
            else
                echo "FAIL example $name (see $OUT/$name.log)"
            fi
        done ;;
    long)
        while IFS='|' read -r name arguments last awk_test what; do
            case "$name" in ''|'#'*) continue ;; esac
            # shellcheck disable=SC2086
            if timeout "$(cap 300)" "$here/bin/examples/$name" --headless $arguments --out "$OUT/long/$name" < /dev/null > "$OUT/${name}_long.log" 2>&1 &&
               grep '^frame ' "$OUT/${name}_long.log" | tail -1 | awk "{ exit !($awk_test) }" &&
               ! grep -q 'not finite' "$OUT/${name}_long.log" &&
               python3 "$here/check_png.py" "$OUT/long/$name/frame_$last.png" > /dev/null 2>&1; then
                echo "ok   example $name: $what"
            else
                echo "FAIL example $name: $what"; grep '^frame ' "$OUT/${name}_long.log" | tail -1
            fi
        done < "$here/long_examples.txt" ;;
    bench)
        # The sections in processes of their own, so that one section's failure stops no other.
        for section in "--sizes 65536,1048576 --no-sph --no-dem --no-coupling --no-effects" \
                       "--sizes 4194304 --no-sph --no-dem --no-coupling --no-effects" \
                       "--sph-only" "--dem-only" "--coupling-only" "--effects-only"; do
            # shellcheck disable=SC2086
            GP_BENCH_MAX_PARTICLES=${GP_BENCH_MAX_PARTICLES:-4194304} timeout "$(cap 600)" "$here/bin/bench" $section >> "$OUT/bench.log" 2>&1 ||
                echo "FAIL bench $section"
            cp build/bench.csv "$OUT/bench$(echo "$section" | tr -cd 'a-z0-9').csv" 2>/dev/null || true
        done
        grep -v '^bench:' "$OUT/bench.log" | tail -60
        # A world made after the hashed 1M world, in one process: NVIDIA's driver once computed
        # nothing there, a symptom of host uploads racing the GPU (bench/notes/nvidia_host_uploads_race.md)
        if timeout "$(cap 120)" "$here/bin/bench" --sizes 1048576,65536 --no-sph --no-dem --no-coupling --no-effects > "$OUT/bench_after.log" 2>&1; then
            echo "ok   bench: a world after the hashed 1,048,576 world computes (one process)"
        else
            echo "FAIL bench: a world after the hashed 1,048,576 world (see $OUT/bench_after.log)"
        fi ;;
    diag)
        # DIAG_TESTS (test names, run verbose, one process) and DIAG_BENCH (bench arguments): the
        # checks a failure asks for
        # shellcheck disable=SC2086
        GP_TEST_VERBOSE=1 timeout "$(cap 300)" "$here/bin/gp_tests" ${DIAG_TESTS:-store_check_finds_misplaced sph_reference_threshold_set_aside \
            sph_compute_matches_reference sph_coupling_matches_reference} 2>&1 | tee -a "$OUT/diag.log" | tail -40
        # shellcheck disable=SC2086
        [ -n "${DIAG_BENCH:-}" ] && timeout "$(cap 300)" "$here/bin/bench" $DIAG_BENCH 2>&1 | tee -a "$OUT/diag.log" | grep -v "^bench:" | tail -40 ;;
    soak)
        # shellcheck disable=SC2086
        timeout "$(cap 3000)" "$here/bin/soak" ${SOAK_ARGS:---spacings 0.01} > "$OUT/soak.log" 2>&1 || echo "FAIL soak (see $OUT/soak.log)"
        tail -20 "$OUT/soak.log" ;;
    sink)
        # the syrup's ball against a neutral one from the same start: their difference is the
        # settling speed (bench/notes/viscous_ball_against_stokes.md)
        stokes="--tank cylinder --width 0.2 --height 0.35 --viscosity 0.02 --frames 300"
        runs=${SINK_RUNS:-"--settle 60 --width 0.25 --height 0.8 --frames 90 --reach 2;--settle 60 --width 0.25 --height 0.8 --frames 90 --reach 2.5;--settle 60 --width 0.25 --height 0.8 --frames 90 --reach 3;$stokes --reach 2;$stokes --reach 2 --density 1000;$stokes --reach 3;$stokes --reach 3 --density 1000"}
        number=0
        while [ -n "$runs" ]; do
            arguments=${runs%%;*}
            [ "$arguments" = "$runs" ] && runs= || runs=${runs#*;}
            number=$((number + 1))
            echo "sink $number: $arguments"
            # shellcheck disable=SC2086
            timeout "$(cap 300)" "$here/bin/sink" $arguments > "$OUT/sink.$number.log" 2>&1 || echo "FAIL sink $arguments (see $OUT/sink.$number.log)"
            awk 'NR <= 4 || /^t [0-9.]+0 s/ || /^the body/' "$OUT/sink.$number.log" | cut -c1-110
        done ;;
    hostile)
        runs=${HOSTILE_RUNS:-"--seed 1 --count;--seed 2 --pair;--seed 3"}
        while [ -n "$runs" ]; do
            arguments=${runs%%;*}
            [ "$arguments" = "$runs" ] && runs= || runs=${runs#*;}
            # shellcheck disable=SC2086
            timeout "$(cap 150)" "$here/bin/hostile" --worlds 1 --calls 150 --alarm 60 --quiet $arguments >> "$OUT/hostile.log" 2>&1 ||
                echo "FAIL hostile $arguments (see $OUT/hostile.log)"
        done
        grep -E '^FAIL|failures' "$OUT/hostile.log" | tail -20 ;;
    *) echo "run.sh: no mode $mode (tests, examples, long, bench, soak, sink, diag, hostile, all)"; exit 2 ;;
    esac
done
echo "run.sh: $* in $(( $(date +%s) - start )) s"
[ -n "${RUN_TAR:-}" ] && tar czf "$RUN_TAR" -C "$(dirname "$OUT")" "$(basename "$OUT")"
exit 0
RUN
echo "$bundle: $(du -sh "$bundle" | cut -f1); run there: sh $bundle/run.sh [tests|examples|long|bench|soak|sink|diag|hostile|all]"
