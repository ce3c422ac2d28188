#!/usr/bin/env python3
"""A ladder out of the character's reach is said where the user looks, in the real window under
Xvfb: a scenario puts a ladder with rungs 1.2 m apart in front of the bundled 1.8 m character;
the viewer prints the warning on its terminal once and shows it in the panel, drawn in the
warning colour (read back from the window's pixels). The same window without that ladder says
nothing. Usage: window_size_warning.py IKPOSE SEND_CLOSE WORKDIR SOURCE_DIR"""
import json
import os
import subprocess
import sys

from viewer_window import run_viewer, settle

exe, send_close, work, source = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
model = os.path.join(source, "assets", "character.glb")
WARNING = "the ladder's rungs are out of the character's reach"


def scene(name, spacing):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump({"model": model, "ladder": {"enabled": True, "base": [0, 0, 0.45],
                                              "rung_spacing": spacing}}, f)
    return path


def warm_pixels(picture, width, rect):
    """How many pixels inside rect (x0, y0, x1, y1) are the panel's warning amber."""
    count = 0
    for y in range(int(rect[1]), int(rect[3]) + 1):
        for x in range(int(rect[0]), int(rect[2]) + 1):
            r, g, b = picture[3 * (y * width + x):3 * (y * width + x) + 3]
            count += r > 200 and 110 < g < 210 and b < 90
    return count


def open_scene(path, name):
    shown = {}

    def look(wid, origin):
        settle(wid)
        shown["picture"] = subprocess.run(["import", "-window", wid, "-depth", "8", "rgb:-"],
                                          capture_output=True, check=True).stdout
        geometry = dict(line.split("=") for line in subprocess.run(
            ["xdotool", "getwindowgeometry", "--shell", wid], capture_output=True, text=True,
            check=True).stdout.split())
        shown["width"] = int(geometry["WIDTH"])

    log = os.path.join(work, name + ".log")
    window = run_viewer(exe, send_close, os.path.join(work, name + ".json"), look, cwd=work,
                        args=("--scene", path), log=log)
    with open(log) as f:
        return window, shown, f.read()


window, shown, printed = open_scene(scene("wide_scene.json", 1.2), "wide")
warnings = [k for k in window["panel_px"] if k.startswith("size warning")]
assert warnings == ["size warning 0"], window["panel_px"].keys()
assert printed.count("ikpose: warning: " + WARNING) == 1, printed
rect = window["panel_px"]["size warning 0"]
amber = warm_pixels(shown["picture"], shown["width"], rect)
print("warning at", rect, "with", amber, "amber pixels; printed:", printed.strip())
assert amber > 50, f"the warning's place in the panel shows {amber} amber pixels"

window, shown, printed = open_scene(scene("fitting_scene.json", 0.3), "fitting")
assert not [k for k in window["panel_px"] if k.startswith("size warning")], window["panel_px"]
assert WARNING not in printed, printed
print("ok: a ladder out of reach is printed once and shown in the panel; one in reach is not")
