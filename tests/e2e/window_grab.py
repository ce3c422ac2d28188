#!/usr/bin/env python3
"""Grabs the character's body in the real viewer window with real mouse events (xdotool) and
checks through the report ikpose writes on exit:
  foot: hovering the left shin names it (and tints it; screenshot WORKDIR/hover.png); dragging
        the shin ON THE MESH (half way between knee and ankle, well away from the foot's target
        sphere) moves the left leg's target with the mouse and the foot follows, in one undo step;
  head: dragging the head sideways turns the head and neck (nothing below), selects it, and
        shows its rings (screenshot WORKDIR/rings.png); then, after a click that selects the
        head and turns nothing, dragging its white view ring 47 degrees round the joint with
        Ctrl held (a snapped 45 degrees) turns the head to its limit, 22.5 degrees.
Run under xvfb-run. Usage: window_grab.py IKPOSE SEND_CLOSE WORKDIR foot|head"""
import math
import os
import subprocess
import sys
import time

from viewer_window import drag, run_viewer as run_window, xdo

exe, send_close, work, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
assert mode in ("foot", "head"), f"unknown mode {mode}"
os.makedirs(work, exist_ok=True)


def run_viewer(name, actions):
    return run_window(exe, send_close, os.path.join(work, name), actions)


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def bone(report, name):
    return next(b for b in report["pose"]["bones"] if b["name"] == name)


def quat_angle_deg(a, b):
    d = abs(sum(x * y for x, y in zip(a, b)))
    return math.degrees(2 * math.acos(min(1.0, d)))


def screenshot(path):
    subprocess.run(["import", "-window", "root", path], check=True)


before = run_viewer("before.json", lambda wid, origin: None)
height = before["height"]
px = before["bones_px"]


def lerp(a, b, t):
    return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]


if mode == "foot":
    shin_px = lerp(px["calf_l"], px["foot_l"], 0.5)
    sphere_px = before["limbs"]["left_leg"]["target_px"]
    print("left shin on screen at", shin_px, "foot target sphere at", sphere_px)
    assert distance(shin_px, sphere_px) > 40, "the grab point must be away from the sphere"

    def hover(wid, origin):
        xdo("mousemove", origin[0] + round(shin_px[0]), origin[1] + round(shin_px[1]))
        time.sleep(0.8)
        screenshot(os.path.join(work, "hover.png"))

    hovered = run_viewer("hover.json", hover)
    assert hovered["hover_bone"] == "calf_l", f"hovering the shin names {hovered['hover_bone']!r}"
    print("ok: hovering the shin names calf_l; screenshot", os.path.join(work, "hover.png"))

    offset = (-40, -60)
    after = run_viewer("after.json", lambda wid, origin: drag(origin, shin_px, offset))
    leg0, leg = before["limbs"]["left_leg"], after["limbs"]["left_leg"]
    print("target", leg0["target"], "->", leg["target"], "end", leg["end"], "history",
          after["history"], "selected", after["selected_bone"])
    assert after["selected_bone"] == "calf_l", after["selected_bone"]
    moved_px = (leg["target_px"][0] - leg0["target_px"][0], leg["target_px"][1] - leg0["target_px"][1])
    assert abs(moved_px[0] - offset[0]) <= 6 and abs(moved_px[1] - offset[1]) <= 6, \
        f"the target moved {moved_px} on screen, the mouse {offset}"
    assert distance(leg["end"], leg0["end"]) > 0.02 * height, "the foot did not move"
    assert leg["error"] < 1e-3 * height, "the foot did not follow its target"
    assert after["history"]["undo_steps"] == 1, "the whole drag should be one undo step"
    assert after["history"]["undo_label"] == "move left_leg target", after["history"]
    print("ok: grabbing the shin on the mesh dragged the foot with the mouse")
    sys.exit(0)

head_px = px["head"]
neck_px = px["neck_01"]
grab_px = lerp(neck_px, head_px, 2.0)  # above the head joint: the middle of the head
shot = os.path.join(work, "rings.png")


def turn_head(wid, origin):
    drag(origin, grab_px, (50, 0))
    xdo("mousemove", origin[0] + 700, origin[1] + 650)  # away, so no hover tint in the picture
    time.sleep(0.8)
    screenshot(shot)


after = run_viewer("head.json", turn_head)
turned = quat_angle_deg(bone(before, "head")["rotation_ls"], bone(after, "head")["rotation_ls"])
print("head turned", turned, "deg; selected", after["selected_bone"], "history", after["history"])
assert after["selected_bone"] == "head", after["selected_bone"]
assert turned > 5.0, "the head did not turn"
# The joint limits spread the turn over the neck and head (each within its share of the neck's
# range): the neck turns with the head, nothing below it.
assert quat_angle_deg(bone(before, "neck_01")["rotation_ls"],
                      bone(after, "neck_01")["rotation_ls"]) > 1.0, "the neck shared the turn"
for still in ("spine_03", "pelvis"):
    assert quat_angle_deg(bone(before, still)["rotation_ls"], bone(after, still)["rotation_ls"]) < 0.05, still
    assert distance(bone(before, still)["position_ms"], bone(after, still)["position_ms"]) < 1e-5, still
assert after["history"]["undo_steps"] == 1 and after["history"]["undo_label"] == "turn bones", \
    after["history"]
print("ok: dragging the head turned it; rings screenshot", shot)


# The view ring: 1.25 times the axis rings' radius (2.5 pick radii = 0.1 of the model's height),
# on screen at the head's pixels-per-unit (from the neck-to-head bone, seen from the front).
per_unit = distance(head_px, neck_px) / distance(bone(before, "head")["position_ms"],
                                                  bone(before, "neck_01")["position_ms"])
ring_px = 1.25 * 0.1 * height * per_unit


def snap_turn_by_ring(wid, origin):
    x, y = origin[0] + round(grab_px[0]), origin[1] + round(grab_px[1])
    xdo("mousemove", x, y)
    time.sleep(0.3)
    xdo("click", 1)  # selects the head, turns nothing
    time.sleep(0.5)
    cx, cy = origin[0] + head_px[0], origin[1] + head_px[1]
    at = lambda deg: (round(cx + ring_px * math.cos(math.radians(deg))),
                      round(cy - ring_px * math.sin(math.radians(deg))))
    xdo("mousemove", *at(0))
    time.sleep(0.3)
    xdo("keydown", "ctrl")
    xdo("mousedown", 1)
    for deg in range(4, 48, 4):
        xdo("mousemove", *at(min(deg, 47)))
        time.sleep(0.05)
    xdo("mousemove", *at(47))
    time.sleep(0.2)
    xdo("mouseup", 1)
    xdo("keyup", "ctrl")
    time.sleep(0.5)


ringed = run_viewer("ring.json", snap_turn_by_ring)
turned = quat_angle_deg(bone(before, "head")["rotation_ls"], bone(ringed, "head")["rotation_ls"])
print("view ring with Ctrl: head turned", turned, "deg; history", ringed["history"])
# The snapped 45 degrees about the view axis is a side bend: the head stops at its share of the
# neck's 45 degrees.
assert abs(turned - 22.5) < 0.1, f"the head turned {turned} degrees, not its limit 22.5"
assert ringed["history"]["undo_steps"] == 1, "the click should add no step, the ring drag one"
print("ok: the view ring turned the head to its limit")
