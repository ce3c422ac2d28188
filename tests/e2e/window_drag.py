#!/usr/bin/env python3
"""Drags the left foot's target in the real viewer window with real mouse events (xdotool) and
checks, through the report ikpose writes on exit, that the foot joint reached the drop point.
Run under xvfb-run. Usage: window_drag.py IKPOSE SEND_CLOSE WORKDIR"""
import os
import sys
import time

from viewer_window import run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


before = run_viewer(exe, send_close, os.path.join(work, "before.json"), lambda wid, origin: None)
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


after = run_viewer(exe, send_close, os.path.join(work, "after.json"), drag)
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
