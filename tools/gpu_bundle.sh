#!/bin/sh
# gpu_bundle.sh: packs what `make test` and `make bench` run on the GPU side (build/gp_tests,
# build/bench, build/examples/*) with the shared libraries the examples link beyond a GL driver
# (GLFW and the X libraries), into build/gpu_bundle/, for a machine that has a GPU driver but no
# build tools (a lent GPU machine). There: `sh build/gpu_bundle/run.sh [tests|examples|bench|all]`
# from the repository root, with $OUT naming a folder for the logs (default build/gpu_out).
# The libEGL of glvnd must be there too; bring its Debian packages (libegl1, libglvnd0,
# libopengl0, libgl1, libglx0) and unpack them first when the machine lacks them.
set -eu
make -s build/gp_tests build/bench examples
bundle=build/gpu_bundle
rm -rf "$bundle"
mkdir -p "$bundle/bin/examples" "$bundle/lib"
cp build/gp_tests build/bench "$bundle/bin/"
cp build/examples/* "$bundle/bin/examples/"
for library in libglfw.so.3 libX11.so.6 libxcb.so.1 libXau.so.6 libXdmcp.so.6 libbsd.so.0 libmd.so.0; do
    path=$(ldconfig -p | awk -v l="$library" '$1 == l { print $NF; exit }')
    [ -n "$path" ] && cp -L "$path" "$bundle/lib/"
done
cat > "$bundle/run.sh" <<'RUN'
#!/bin/sh
# Runs the bundled GPU tests, examples (headless, 60 frames each) and benchmark; logs in $OUT.
here=$(dirname "$0")
OUT=${OUT:-build/gpu_out}
mkdir -p "$OUT" build
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$nvidia" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$nvidia"
mode=${1:-all}
if [ "$mode" = tests ] || [ "$mode" = all ]; then
    timeout 600 "$here/bin/gp_tests" > "$OUT/gp_tests.log" 2>&1
    grep -E '^FAIL|passed, .* failed$' "$OUT/gp_tests.log"
fi
if [ "$mode" = examples ] || [ "$mode" = all ]; then
    for example in "$here"/bin/examples/*; do
        name=$(basename "$example")
        timeout 120 "$example" --headless --frames 60 --out "$OUT/frames/$name" > "$OUT/$name.log" 2>&1 &&
            python3 tools/check_png.py "$OUT/frames/$name/frame_0059.png" > /dev/null 2>&1 &&
            echo "ok   example $name" || echo "FAIL example $name (see $OUT/$name.log)"
    done
fi
if [ "$mode" = bench ] || [ "$mode" = all ]; then
    # The sections in processes of their own: see bench/RESULTS.md on NVIDIA's world-after-world bug.
    for section in "--sizes 65536,1048576 --no-sph --no-dem --no-coupling" "--sizes 4194304 --no-sph --no-dem --no-coupling" \
                   "--sph-only" "--dem-only" "--coupling-only"; do
        GP_BENCH_MAX_PARTICLES=${GP_BENCH_MAX_PARTICLES:-4194304} timeout 600 "$here/bin/bench" $section >> "$OUT/bench.log" 2>&1 ||
            echo "FAIL bench $section"
    done
    grep -v '^bench:' "$OUT/bench.log" | tail -40
fi
RUN
echo "$bundle: $(du -sh "$bundle" | cut -f1); run there: sh $bundle/run.sh"
