#!/usr/bin/env python3
"""Props in the real window with real X events (xdotool), checked through the report ikpose
writes on exit:
  - the Props section's "box" adds the bundled box in front of the character (one undo step);
  - dragging the box in the view slides it over the floor, the point grabbed staying under the
    cursor, as one undo step ("move prop"); Ctrl+Z puts it back;
  - the selected box shows a turn ring: dragging a quarter of the way round it (seen from above)
    turns the box a quarter turn about the vertical, in place, as one undo step ("turn prop")
    that the saved scenario keeps.
Run under xvfb-run with XDG_STATE_HOME set. Usage: window_props.py IKPOSE SEND_CLOSE WORKDIR"""
import json
import os
import sys
import time

from viewer_window import click_and_wait, drag, run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def click(wid, origin, rect):
    click_and_wait(wid, origin, rect)


def report(name, actions, save=False):
    return run_viewer(exe, send_close, os.path.join(work, name), actions, cwd=work, save=save)


def front(wid):
    xdo("key", "--window", wid, "1")
    time.sleep(0.5)


header = report("start.json", lambda w, o: None)["panel_px"]["Props"]
box_button = report("section.json", lambda w, o: click(w, o, header))["panel_px"]["box"]


def add_box(wid, origin):
    front(wid)
    click(wid, origin, header)
    click(wid, origin, box_button)


added = report("added.json", add_box)
props = added["pose"]["props"]
assert len(props) == 1 and props[0]["file"].endswith("box.glb"), props
assert added["history"]["undo_label"] == "add prop", added["history"]
box_px = added["props_px"][0]
start = props[0]["position_ms"]
print("box added at", start, "on screen at", box_px)


def add_and_drag(undo):
    def actions(wid, origin):
        add_box(wid, origin)
        drag(origin, box_px, (70, 0))
        if undo:
            xdo("key", "--window", wid, "ctrl+z")
            time.sleep(0.8)
    return actions


moved = report("moved.json", add_and_drag(False))
end = moved["pose"]["props"][0]["position_ms"]
print("box dragged to", end)
assert moved["history"]["undo_label"] == "move prop", moved["history"]
assert end[0] - start[0] > 0.05 * added["height"], "dragging right did not move the box right"
assert abs(end[1] - start[1]) < 1e-6, "the box left the floor"
# The point grabbed stays under the cursor: the box's middle moved by the drag on screen.
assert abs(moved["props_px"][0][0] - (box_px[0] + 70)) < 6, (moved["props_px"][0], box_px)

undone = report("undone.json", add_and_drag(True))
assert undone["pose"]["props"][0]["position_ms"] == start, undone["pose"]["props"]
assert undone["history"]["redo_label"] == "move prop", undone["history"]


def top(wid):
    xdo("key", "--window", wid, "7")
    time.sleep(0.5)


def add_box_from_above(wid, origin):
    add_box(wid, origin)
    top(wid)


above = report("above.json", add_box_from_above)
assert above["selected_prop"] == 0, above["selected_prop"]
ring = above["prop_ring_px"]
assert len(ring) == 8, ring
yaw0 = above["pose"]["props"][0]["yaw_deg"]


def along_ring(origin, points, steps=6):
    """Presses on the first point and follows the ring through the others, then releases."""
    def at(p):
        return origin[0] + round(p[0]), origin[1] + round(p[1])
    xdo("mousemove", *at(points[0]))
    time.sleep(0.3)
    xdo("mousedown", 1)
    for a, b in zip(points, points[1:]):
        for step in range(1, steps + 1):
            f = step / steps
            xdo("mousemove", *at((a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))))
            time.sleep(0.04)
    xdo("mouseup", 1)
    time.sleep(0.5)


def add_and_turn(wid, origin):
    add_box_from_above(wid, origin)
    along_ring(origin, [ring[0], ring[1], ring[2]])  # a quarter turn, the way +yaw turns


scene_file = os.path.join(work, "ikpose-scene.json")  # where quitting with S saves
if os.path.exists(scene_file):
    os.remove(scene_file)
turned = report("turned.json", add_and_turn, save=True)
prop = turned["pose"]["props"][0]
print("box turned from", yaw0, "to", prop["yaw_deg"])
assert turned["history"]["undo_label"] == "turn prop", turned["history"]
assert turned["history"]["undo_steps"] == above["history"]["undo_steps"] + 1, turned["history"]
assert abs((prop["yaw_deg"] - yaw0) - 90.0) < 8.0, (yaw0, prop["yaw_deg"])
assert prop["position_ms"] == above["pose"]["props"][0]["position_ms"], "the box moved"
with open(scene_file) as f:
    saved = json.load(f)["props"][0]
assert saved["file"].endswith("box.glb") and abs(saved["yaw_deg"] - prop["yaw_deg"]) < 1e-3, saved
print("ok: a bundled box added, dragged over the floor (undone) and turned by its ring, each as"
      " one step, and saved")
