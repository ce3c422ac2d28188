#!/usr/bin/env python3
"""Poses the bundled character in the real viewer window (drags the left foot's target with real
mouse events), presses E (the panel's "export pose"), and checks that the viewer wrote
character-posed.glb in its working directory with the foot joint where the viewer showed it.
Run under xvfb-run. Usage: window_export.py IKPOSE SEND_CLOSE WORKDIR"""
import json
import os
import subprocess
import sys
import time

from viewer_window import drag, run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
exported = os.path.join(work, "character-posed.glb")
if os.path.exists(exported):
    os.remove(exported)

before = run_viewer(exe, send_close, os.path.join(work, "before.json"), lambda wid, origin: None,
                    cwd=work)
start_px = before["limbs"]["left_leg"]["target_px"]


def drag_and_export(wid, origin):
    drag(origin, start_px, (-40, -60))
    xdo("key", "e")
    time.sleep(1.0)


after = run_viewer(exe, send_close, os.path.join(work, "after.json"), drag_and_export, cwd=work)
assert os.path.exists(exported), "pressing E wrote no character-posed.glb"
leg = after["limbs"]["left_leg"]
moved = sum((a - b) ** 2 for a, b in zip(leg["target"], before["limbs"]["left_leg"]["target"]))
assert moved ** 0.5 > 0.02 * after["height"], "the target did not move"


def inspect(*model):
    out = subprocess.run([exe, "inspect", *model, "--json"], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


foot_name = inspect()["chains"]["left_leg"]["joints"][2]  # on the bundled character
position = next(b["rest_position_ms"] for b in inspect(exported)["bones"]
                if b["name"] == foot_name)
error = sum((a - b) ** 2 for a, b in zip(position, leg["end"])) ** 0.5
print("exported", exported, "foot", foot_name, "at", position, "viewer showed", leg["end"])
assert error < 1e-4 * after["height"], f"the exported foot is {error} from where the viewer had it"
print("ok: the exported file holds the pose on screen")
