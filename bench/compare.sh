#!/usr/bin/env bash
# Before and after in one go: builds another commit's benchmarks (default: the previous
# commit's) in a temporary git worktree under build/, then runs each benchmark of that commit
# and of this tree alternately, ROUNDS times each, on the same machine in the same minutes.
# `startup` runs bench/startup.sh on both ikpose binaries. Arguments after `--` go to every
# Google Benchmark program (e.g. --benchmark_filter=...).
#   bench/compare.sh [REF] [ROUNDS] [BENCH...] [-- BENCHMARK_ARGS...]
#   bench/compare.sh HEAD~1 3 bench_trace bench_frame bench_pick bench_bake startup
set -euo pipefail
root=$(git rev-parse --show-toplevel)
ref=${1:-HEAD~1}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
benches=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  benches+=("$1")
  shift
done
[ $# -gt 0 ] && shift
bench_args=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(bench_trace bench_bake bench_frame bench_pick startup)

sha=$(git -C "$root" rev-parse --short "$ref")
base="$root/build/compare-base"
git -C "$root" worktree remove --force "$base" 2>/dev/null || true
git -C "$root" worktree add --detach "$base" "$ref" >/dev/null
trap 'git -C "$root" worktree remove --force "$base"' EXIT

targets=()
for b in "${benches[@]}"; do
  if [ "$b" = startup ]; then targets+=(ikpose); else targets+=("$b"); fi
done
# The same depth below the ccache base directory as this tree's build: unchanged files hit
# the cache.
# The other commit's tree is built without its tests; this tree keeps its own settings (a
# cache left with IKPOSE_TESTS=OFF would leave ctest's tests unbuilt here).
build() {  # build TREE TESTS(off|keep) TARGET...
  local tests=()
  [ "$2" = off ] && tests=(-DIKPOSE_TESTS=OFF)
  (cd "$1" && cmake --preset release "${tests[@]}" >/dev/null &&
    cmake --build --preset release -j2 --target "${@:3}" >/dev/null)
}
missing=()
for t in "${targets[@]}"; do
  build "$base" off "$t" || missing+=("$t")  # not in that commit
done
build "$root" keep "${targets[@]}"

run() {  # run SIDE_ROOT BENCH
  if [ "$2" = startup ]; then
    (cd "$1" && "$root/bench/startup.sh" build/release/src/app/ikpose 9 | head -2)
  else
    "$1/build/release/bench/$2" --benchmark_counters_tabular=true "${bench_args[@]}" 2>/dev/null |
      grep -E '^(BM_|Benchmark)'
  fi
}
for b in "${benches[@]}"; do
  t=$b
  [ "$b" = startup ] && t=ikpose
  for r in $(seq "$rounds"); do
    if [[ " ${missing[*]} " == *" $t "* ]]; then
      echo "== $b, round $r: $sha has no $t"
    else
      echo "== $b, round $r: $sha (before)"
      run "$base" "$b"
    fi
    echo "== $b, round $r: this tree (after)"
    run "$root" "$b"
  done
done
