#!/usr/bin/env python3
"""The viewer keeps its model when the importer crashes on another one, in the real window with
real X events (xdotool): the panel's "load scene" reads a scene naming a second model, whose
import crashes (the importer's test hook), and the report ikpose writes on exit shows the first
model still loaded and one line in the panel's status naming the file and the signal.
Run under xvfb-run. Usage: window_open_crash.py IKPOSE SEND_CLOSE WORKDIR SOURCE_DIR"""
import json
import os
import shutil
import sys
import time

from viewer_window import click_and_wait, run_viewer

exe, send_close, work, source = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)
character = os.path.join(source, "assets", "character.glb")
crashing = os.path.join(work, "crash-me.glb")  # a good file: only the hook crashes its import
shutil.copyfile(character, crashing)
with open(os.path.join(work, "ikpose-scene.json"), "w") as f:
    json.dump({"model": "crash-me.glb"}, f)  # what "load scene" reads, from the working folder
os.environ["IKPOSE_IMPORTER_TEST"] = "crash-on=crash-me"

# Where the button is (the layout is the same at the same size), then the click.
first = run_viewer(exe, send_close, os.path.join(work, "layout.json"), lambda wid, origin: None,
                   cwd=work, args=(character,))
button = first["panel_px"]["load scene"]
after = run_viewer(exe, send_close, os.path.join(work, "after.json"),
                   lambda wid, origin: click_and_wait(wid, origin, button), cwd=work,
                   args=(character,))

assert after["model"] == character, f"the viewer now shows {after['model']}"
status = after["status"]
# The scene names the model relative to its folder (here the working folder).
expected = "could not open crash-me.glb: the importer crashed reading crash-me.glb (signal 11"
assert status.startswith(expected) and "\n" not in status, f"panel status: {status!r}"
assert after["pose"]["bones"], "no pose reported for the model kept"
print("ok: the importer's crash left the model in place and said so in one line:", status)
