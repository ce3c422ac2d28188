#!/usr/bin/env python3
"""Presses the view keys in the real viewer window (xdotool): 3 looks at the character's right
side, Ctrl+1 at its back, 5 toggles orthographic, 0 shows the side view in the corner; checked
through the report ikpose writes on exit, with a screenshot of the window kept as
WORKDIR/views.png (the corner view at the bottom right).
Run under xvfb-run. Usage: window_views.py IKPOSE SEND_CLOSE WORKDIR"""
import os
import subprocess
import sys
import time

from viewer_window import run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def press(wid, keys):
    for key in keys:
        xdo("key", "--window", wid, key)
        time.sleep(0.3)


def yaw_from_front(report):
    camera = report["camera"]
    d = (camera["yaw_deg"] - camera["facing_yaw_deg"]) % 360.0
    return d - 360.0 if d > 180.0 else d


before = run_viewer(exe, send_close, os.path.join(work, "before.json"), lambda w, o: None)
assert abs(yaw_from_front(before)) < 1.0, before["camera"]
assert not before["camera"]["orthographic"] and not before["corner_view"]

# The character's right side is to the viewer's left as seen from its front: yaw -90.
right = run_viewer(exe, send_close, os.path.join(work, "right.json"),
                   lambda wid, o: press(wid, ["KP_3"]))
assert abs(yaw_from_front(right) + 90.0) < 1e-3, right["camera"]
assert abs(right["camera"]["pitch_deg"]) < 1e-3, right["camera"]

back = run_viewer(exe, send_close, os.path.join(work, "back.json"),
                  lambda wid, o: press(wid, ["ctrl+KP_1"]))
assert abs(abs(yaw_from_front(back)) - 180.0) < 1e-3, back["camera"]


def ortho_and_corner(wid, origin):
    press(wid, ["KP_7", "KP_1", "5", "0"])
    time.sleep(0.5)
    subprocess.run(["import", "-window", wid, os.path.join(work, "views.png")], check=False)


last = run_viewer(exe, send_close, os.path.join(work, "last.json"), ortho_and_corner)
assert abs(yaw_from_front(last)) < 1e-3, "1 after 7: the front again"
assert last["camera"]["orthographic"], "5 toggles orthographic"
assert last["corner_view"], "0 shows the corner view"
print("views:", right["camera"], back["camera"], last["camera"])
