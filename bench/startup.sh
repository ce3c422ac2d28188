#!/usr/bin/env bash
# Start-up of `ikpose view` with the bundled character in a real X window (Xvfb, llvmpipe):
# first_frame_ms is from program start (before main) to the first frame swapped on screen, as
# the viewer reports it; the wall time adds exec, dynamic linking and exit. Medians of RUNS, and
# of where each start-up step ended (the report's startup_ms). MODEL: another model to open
# ("" for the bundled one); LIBRARY: a pose library folder (default: an empty one).
#   bench/startup.sh [IKPOSE] [RUNS] [MODEL] [LIBRARY]
set -euo pipefail
exe=${1:-build/release/src/app/ikpose}
runs=${2:-15}
model=${3:-}
library=${4:-}
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$exe" "$runs" "$model" "$library"
fi
[ -n "$library" ] || library=$(mktemp -d)
report=$(mktemp)
steps=$(mktemp)
trap 'rm -f "$report" "$steps"; [ -n "${4:-}" ] || rmdir "$library"' EXIT
"$exe" view ${model:+"$model"} --library "$library" --quit-after-frames 1 >/dev/null  # warm the cache
first=() wall=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$exe" view ${model:+"$model"} --library "$library" --quit-after-frames 1 --report "$report"
  wall+=($((($(date +%s%N) - start) / 1000000)))
  first+=("$(grep -o '"first_frame_ms": *[0-9.]*' "$report" | grep -o '[0-9.]*$' | cut -d. -f1)")
  python3 -c 'import json,sys; [print(f"{s}\t{ms:.1f}") for s, ms in json.load(open(sys.argv[1]))["viewer"].get("startup_ms", [])]' "$report" >>"$steps"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "first frame (ms): ${first[*]}"
echo "whole run (ms):   ${wall[*]}"
echo "where start-up goes (median ms from program start to the end of each step):"
python3 -c '
import statistics, sys
order, ms = [], {}
for line in open(sys.argv[1]):
    step, value = line.rstrip("\n").split("\t")
    if step not in ms: order.append(step)
    ms.setdefault(step, []).append(float(value))
for step in order: print(f"  {statistics.median(ms[step]):7.1f}  {step}")' "$steps"
echo "median: first frame on screen $(median "${first[@]}") ms, whole run $(median "${wall[@]}") ms"
