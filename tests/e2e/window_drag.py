#!/usr/bin/env python3
"""Drags the left foot's target in the real viewer window with real mouse events (xdotool) and
checks, through the report ikpose writes on exit, that the foot joint reached the drop point.
Run under xvfb-run. Usage: window_drag.py IKPOSE SEND_CLOSE WORKDIR"""
import json
import os
import subprocess
import sys
import time

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def run_viewer(report, actions):
    """Starts the viewer, runs actions(window_id, (x, y)), closes it like a user, returns the report."""
    if os.path.exists(report):
        os.remove(report)
    app = subprocess.Popen([exe, "view", "--size", "900x700", "--report", report])
    try:
        wid = subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                              "--name", "^ikpose$"], capture_output=True, text=True,
                             check=True).stdout.split()[0]
        time.sleep(1.5)
        geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                                  capture_output=True, text=True, check=True).stdout
        g = dict(line.split("=") for line in geometry.split())
        actions(wid, (int(g["X"]), int(g["Y"])))
        subprocess.run([send_close, wid], check=True)
        code = app.wait(timeout=15)
    finally:
        if app.poll() is None:
            app.kill()
    assert code == 0, f"ikpose exited with {code}"
    with open(report) as f:
        return json.load(f)


def xdo(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)


before = run_viewer(os.path.join(work, "before.json"), lambda wid, origin: None)
leg = before["chains"]["left_leg"]
start_px = leg["target_px"]
print("left foot target at", leg["target"], "on screen", start_px)
assert leg["error"] < 1e-4 * before["height"], "the foot should sit on its target before dragging"

drop_offset = (-40, -60)  # up and toward screen-left: a reachable spot in front of the hip


def drag(wid, origin):
    x0, y0 = origin[0] + round(start_px[0]), origin[1] + round(start_px[1])
    xdo("mousemove", x0, y0)
    time.sleep(0.3)
    xdo("mousedown", 1)
    for step in range(1, 11):
        xdo("mousemove", x0 + drop_offset[0] * step // 10, y0 + drop_offset[1] * step // 10)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.5)


after = run_viewer(os.path.join(work, "after.json"), drag)
leg_after = after["chains"]["left_leg"]
print("after the drag: target", leg_after["target"], "end", leg_after["end"],
      "error", leg_after["error"], "reach", leg_after.get("reach"))
moved = [a - b for a, b in zip(leg_after["target"], leg["target"])]
assert sum(m * m for m in moved) ** 0.5 > 0.02 * before["height"], "the target did not move"
px = leg_after["target_px"]
expected = (round(start_px[0]) + drop_offset[0], round(start_px[1]) + drop_offset[1])
assert abs(px[0] - expected[0]) <= 2.5 and abs(px[1] - expected[1]) <= 2.5, \
    f"target is at {px} on screen, dropped at {expected}"
assert leg_after["reach"] == "reachable", leg_after
assert leg_after["error"] < 1e-4 * before["height"], "the foot joint did not reach the drop point"
print("ok: the foot followed the drag to the drop point")
