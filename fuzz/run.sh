#!/usr/bin/env bash
# Runs every libFuzzer target in fuzz/ for a bounded time with a fixed seed:
#   fuzz/run.sh [BUILD_DIR] [SECONDS_EACH]     (defaults: build/fuzz, 20)
# Seeds: fuzz/corpus/<target>/ (committed) plus, for the glTF clip reader, the bundled character
# and the animated glTF files of Debian's assimp-testmodels. What the fuzzer learns goes to
# BUILD_DIR/corpus/<target>/; a crash, a timeout or an allocation over the limit fails the run,
# with the input saved under BUILD_DIR/artifacts/ (add it to the tests as a regression case).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/fuzz}
seconds=${2:-20}

mkdir -p "$build/artifacts"
work="$build/corpus/gltf_clips"
mkdir -p "$work" "$build/corpus/gltf_check"
cp -f assets/character.glb "$work/"
cp -f assets/character.glb "$build/corpus/gltf_check/"
for f in /usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf \
         /usr/share/assimp/models/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf; do
  [ -f "$f" ] && cp -f "$f" "$work/" && cp -f "$f" "$build/corpus/gltf_check/"
done

status=0
for target in scenario pose_file solve_line gltf_clips gltf_check trace_file format_precheck targets_stream \
              model_wire library_files; do
  exe="$build/fuzz/fuzz_$target"
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  seeds=()
  [ -d "fuzz/corpus/$target" ] && seeds=("fuzz/corpus/$target")
  log="$build/fuzz_$target.log"
  if "$exe" -seed=1 -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
       -timeout=10 -max_len=2000000 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/${target}-" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$target: ${runs:-?} inputs in ${seconds} s, no failure"
  else
    echo "fuzz_$target: FAILED (log: $log)"
    tail -n 30 "$log"
    status=1
  fi
done
exit $status
