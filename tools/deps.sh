#!/bin/sh
# deps.sh: makes sure the Debian packages that the build, the tests, the benchmark and the
# examples need are installed. As root it installs what is missing with apt-get; otherwise it
# prints the exact command and fails. The library itself needs none of them: only libc and a
# GL 4.3 context.
set -eu
packages="gcc g++ make libc6-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libglfw3-dev python3-glad glslang-tools xvfb xauth mesa-utils"
# xauth: xvfb-run needs it, and xvfb only recommends it (recommends are not installed here)
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps.sh: not a Debian system; make sure these (or their equivalents) are installed: $packages"
    exit 0
fi
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps.sh: installing$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "deps.sh: these Debian packages are missing:$missing"
    echo "install them with:"
    echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing"
    exit 1
fi
