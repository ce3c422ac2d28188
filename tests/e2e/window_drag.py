#!/usr/bin/env python3
"""Drags the left foot's target in the real viewer window with real mouse events (xdotool) and
checks, through the report ikpose writes on exit, that the foot joint reached the drop point.
With `undo`, it then checks with real key presses that ctrl+z takes the whole drag back (the
foot is where it started; a screenshot of the window is kept as WORKDIR/undo.png) and that
ctrl+shift+z and ctrl+y bring it back to the drop point.
Run under xvfb-run. Usage: window_drag.py IKPOSE SEND_CLOSE WORKDIR [undo]"""
import os
import subprocess
import sys
import time

from viewer_window import drag as drag_by, run_viewer as run_window, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
mode = sys.argv[4] if len(sys.argv) > 4 else "drag"
assert mode in ("drag", "undo"), f"unknown mode {mode}"
os.makedirs(work, exist_ok=True)


def run_viewer(report, actions):
    return run_window(exe, send_close, report, actions)


before = run_viewer(os.path.join(work, "before.json"), lambda wid, origin: None)
leg = before["limbs"]["left_leg"]
start_px = leg["target_px"]
print("left foot target at", leg["target"], "on screen", start_px)
assert leg["error"] < 1e-4 * before["height"], "the foot should sit on its target before dragging"

drop_offset = (-40, -60)  # up and toward screen-left: a reachable spot in front of the hip


def drag(wid, origin):
    drag_by(origin, start_px, drop_offset)


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def check_at_drop_point(report, what):
    leg_now = report["limbs"]["left_leg"]
    solved = report["pose"]["chains"]["left_leg"]  # the pose report lists the dragged limb
    assert distance(solved["c"], leg_now["end"]) < 1e-5 * before["height"], solved
    print(what + ": target", leg_now["target"], "end", leg_now["end"], "error", leg_now["error"],
          "reach", leg_now.get("reach"), "history", report["history"])
    assert distance(leg_now["target"], leg["target"]) > 0.02 * before["height"], \
        what + ": the target did not move"
    px = leg_now["target_px"]
    expected = (round(start_px[0]) + drop_offset[0], round(start_px[1]) + drop_offset[1])
    assert abs(px[0] - expected[0]) <= 2.5 and abs(px[1] - expected[1]) <= 2.5, \
        f"{what}: target is at {px} on screen, dropped at {expected}"
    assert leg_now["reach"] == "reachable", leg_now
    assert leg_now["error"] < 1e-4 * before["height"], \
        what + ": the foot joint is not on the drop point"


if mode == "drag":
    after = run_viewer(os.path.join(work, "after.json"), drag)
    check_at_drop_point(after, "after the drag")
    assert after["history"]["undo_steps"] == 1, "the whole drag should be one undo step"
    assert after["history"]["undo_label"] == "move left_leg target", after["history"]
    print("ok: the foot followed the drag to the drop point")
    sys.exit(0)


def drag_then_keys(*keys, screenshot=None):
    def actions(wid, origin):
        drag(wid, origin)
        for key in keys:
            xdo("key", key)
            time.sleep(0.5)
        if screenshot:
            subprocess.run(["import", "-window", "root", screenshot], check=True)
    return actions


shot = os.path.join(work, "undo.png")
undone = run_viewer(os.path.join(work, "undone.json"), drag_then_keys("ctrl+z", screenshot=shot))
leg_undone = undone["limbs"]["left_leg"]
print("after the drag and ctrl+z: target", leg_undone["target"], "end", leg_undone["end"],
      "history", undone["history"])
assert distance(leg_undone["target"], leg["target"]) < 1e-6 * before["height"], \
    "ctrl+z did not put the target back where it started"
assert distance(leg_undone["end"], leg["end"]) < 1e-4 * before["height"], \
    "ctrl+z did not put the foot joint back where it started"
history = undone["history"]
assert history["undo_steps"] == 0 and history["redo_steps"] == 1, \
    f"one ctrl+z should take back the whole drag: {history}"
assert history["redo_label"] == "move left_leg target", history
print("ok: ctrl+z took the whole drag back; screenshot", shot)

for redo_key in ("ctrl+shift+z", "ctrl+y"):
    redone = run_viewer(os.path.join(work, "redone.json"), drag_then_keys("ctrl+z", redo_key))
    check_at_drop_point(redone, "after ctrl+z, " + redo_key)
    assert redone["history"]["undo_steps"] == 1 and redone["history"]["redo_steps"] == 0, \
        redone["history"]
    print("ok:", redo_key, "brought the foot back to the drop point")
