#!/usr/bin/env bash
# Opens `ikpose view` in a real X window (run under xvfb-run), screenshots it, checks the
# window shows the viewer, then closes it the way a user does and checks for a clean exit.
# Usage: window_close.sh IKPOSE SEND_CLOSE SCREENSHOT.png
set -euo pipefail
exe=$1 send_close=$2 shot=$3

"$exe" view --size 800x600 &
app=$!
cleanup() { kill "$app" 2>/dev/null || true; }
trap cleanup EXIT

wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^ikpose$' | head -n 1)
[ -n "$wid" ] || { echo "no ikpose window appeared"; exit 1; }
sleep 2  # a few frames
import -window root "$shot"

eval "$(xdotool getwindowgeometry --shell "$wid")"  # sets X Y WIDTH HEIGHT
echo "window $wid at ${X},${Y} size ${WIDTH}x${HEIGHT}"
[ "$WIDTH" -eq 800 ] && [ "$HEIGHT" -eq 600 ] || { echo "window is ${WIDTH}x${HEIGHT}, not 800x600"; exit 1; }
# The bottom-right corner of the window shows the viewer's background, not X's black.
pixel=$(convert "$shot" -crop "1x1+$((X + WIDTH - 20))+$((Y + HEIGHT - 20))" -depth 8 txt:- | tail -n 1)
echo "background pixel: $pixel"
case "$pixel" in *"#000000"*) echo "the window is black: nothing was drawn"; exit 1 ;; esac
# The character stands in the middle of what the docked panel leaves free (at 800 pixels the
# panel takes 45% of the width at the left): its torso is not background.
background=$(echo "$pixel" | grep -o '#[0-9A-F]\{6\}')
torso=$(convert "$shot" -crop "1x1+$((X + WIDTH * 145 / 200))+$((Y + HEIGHT * 2 / 5))" -depth 8 txt:- | tail -n 1)
echo "torso pixel: $torso"
case "$torso" in *"$background"*) echo "no character in the middle of the window"; exit 1 ;; esac

"$send_close" "$wid"
for _ in $(seq 100); do
  kill -0 "$app" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$app" 2>/dev/null; then echo "ikpose did not exit after the close request"; exit 1; fi
trap - EXIT
set +e
wait "$app"
rc=$?
set -e
echo "ikpose exited with $rc"
[ "$rc" -eq 0 ]
