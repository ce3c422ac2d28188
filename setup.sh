#!/usr/bin/env bash
# ikpose set-up on Debian 12. Installs the Debian packages that are missing (nothing when all
# are there), builds with CMake presets, then:
#   ./setup.sh [ARGS...]   builds Release and opens the viewer (ARGS go to `ikpose`)
#   ./setup.sh test        builds Release and ASan/UBSan, runs the whole suite in both, and
#                          runs each libFuzzer target (clang) for 20 s with a fixed seed
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  build-essential cmake pkg-config ccache git
  libglm-dev libsdl2-dev libimgui-dev libassimp-dev libstb-dev nlohmann-json3-dev libcli11-dev libasio-dev
  libembree-dev
  libgtest-dev libgmock-dev libbenchmark-dev python3-glad
  libgl-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libx11-dev
  xvfb xauth xdotool imagemagick assimp-utils assimp-testmodels
  clang-14 libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

# The glTF validator the asset tests call, pinned by tools/validator/package-lock.json.
if [ -f tools/validator/package-lock.json ] && [ ! -d tools/validator/node_modules ]; then
  npm ci --prefix tools/validator --no-audit --no-fund
fi

jobs=$(nproc)
build() {
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$jobs"
}

if [ "${1:-}" = "test" ]; then
  build asan
  ctest --preset asan -j "$jobs"
  # Fuzzing between the two suites, so the command still ends with ctest's summary line.
  build fuzz
  fuzz/run.sh build/fuzz 20
  build release
  ctest --preset release -j "$jobs"
else
  build release
  exec build/release/src/app/ikpose "$@"
fi
