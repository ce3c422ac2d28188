#!/usr/bin/env python3
"""Props in the real window with real X events (xdotool), checked through the report ikpose
writes on exit:
  - the Props section's "box" adds the bundled box in front of the character (one undo step);
  - dragging the box in the view slides it over the floor, the point grabbed staying under the
    cursor, as one undo step ("move prop"); Ctrl+Z puts it back.
Run under xvfb-run with XDG_STATE_HOME set. Usage: window_props.py IKPOSE SEND_CLOSE WORKDIR"""
import os
import sys
import time

from viewer_window import click_and_wait, drag, run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def click(wid, origin, rect):
    click_and_wait(wid, origin, rect)


def report(name, actions):
    return run_viewer(exe, send_close, os.path.join(work, name), actions, cwd=work)


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
print("ok: a bundled box added, dragged over the floor as one step, and undone")
