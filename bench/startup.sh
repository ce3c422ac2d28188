#!/usr/bin/env bash
# Start-up of `ikpose view` with the bundled character in a real X window (Xvfb, llvmpipe):
# first_frame_ms is from program start (before main) to the first frame swapped on screen, as
# the viewer reports it; the wall time adds exec, dynamic linking and exit. Medians of RUNS.
#   bench/startup.sh [IKPOSE] [RUNS]
set -euo pipefail
exe=${1:-build/release/src/app/ikpose}
runs=${2:-15}
if [ -z "${DISPLAY:-}" ]; then exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$exe" "$runs"; fi
report=$(mktemp)
trap 'rm -f "$report"' EXIT
"$exe" view --quit-after-frames 1 >/dev/null  # warm the file cache
first=() wall=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$exe" view --quit-after-frames 1 --report "$report"
  wall+=($((($(date +%s%N) - start) / 1000000)))
  first+=("$(grep -o '"first_frame_ms": *[0-9.]*' "$report" | grep -o '[0-9.]*$' | cut -d. -f1)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "first frame (ms): ${first[*]}"
echo "whole run (ms):   ${wall[*]}"
echo "median: first frame on screen $(median "${first[@]}") ms, whole run $(median "${wall[@]}") ms"
