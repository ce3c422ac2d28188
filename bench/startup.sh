#!/usr/bin/env bash
# Time from starting `ikpose view` to its first frame on screen (swapped), with the bundled
# character, in a real X window (Xvfb, llvmpipe). Prints each run and the median in ms.
#   bench/startup.sh [IKPOSE] [RUNS]
set -euo pipefail
exe=${1:-build/release/src/app/ikpose}
runs=${2:-15}
if [ -z "${DISPLAY:-}" ]; then exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$exe" "$runs"; fi
"$exe" view --quit-after-frames 1 >/dev/null  # warm the file cache
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$exe" view --quit-after-frames 1
  times+=($((($(date +%s%N) - start) / 1000000)))
done
echo "runs (ms): ${times[*]}"
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median start-up to first frame: " a[int((NR+1)/2)] " ms"}'
