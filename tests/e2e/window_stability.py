#!/usr/bin/env python3
"""U in the real viewer window (xdotool) shows where the seed's knee will pop: the stability
slice around the left foot's target, seen from the character's left (Ctrl+3), is the grid that
`ikpose pose --stability left_leg --stability-view 90,0` prints (the same flip edges, the same
largest sensitivity); U again hides it. Checked through the report written on exit, with a
screenshot kept as WORKDIR/stability.png.
Run under xvfb-run. Usage: window_stability.py IKPOSE SEND_CLOSE WORKDIR SWEEP.jsonl"""
import json
import os
import subprocess
import sys
import time

from viewer_window import run_viewer, xdo

exe, send_close, work, sweep = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)

with open(sweep) as f:
    target = json.loads(f.readlines()[23])["limbs"]["left_leg"]["target"]
situation = ["--policy", "seed", "--target", "left_leg=" + ",".join(repr(v) for v in target)]


def press(wid, keys):
    for key in keys:
        xdo("key", "--window", wid, key)
        time.sleep(0.3)


def show(wid, origin):
    press(wid, ["ctrl+KP_3", "u"])
    time.sleep(4.0)  # measured a few cells a frame
    subprocess.run(["import", "-window", wid, os.path.join(work, "stability.png")], check=False)


shown = run_viewer(exe, send_close, os.path.join(work, "shown.json"), show, args=situation)
grid = shown["pose"].get("stability")
assert grid is not None, "U shows the slice"
assert grid["chain"] == "left_leg" and grid["policy"] == "seed", grid["chain"]
assert abs(grid["view"]["yaw_deg"] - 90.0) < 1e-3 and abs(grid["view"]["pitch_deg"]) < 1e-3
expected = json.loads(subprocess.run(
    [exe, "pose", *situation, "--stability", "left_leg", "--stability-view", "90,0", "--json"],
    capture_output=True, text=True, check=True).stdout)["stability"]
assert len(grid["flip_line"]) == len(expected["flip_line"]) > 0, (len(grid["flip_line"]),
                                                                  len(expected["flip_line"]))
assert abs(grid["max_sensitivity"] - expected["max_sensitivity"]) < 0.01 * expected[
    "max_sensitivity"], (grid["max_sensitivity"], expected["max_sensitivity"])
assert [c["flip"] for c in grid["cells"]] == [c["flip"] for c in expected["cells"]]

hidden = run_viewer(exe, send_close, os.path.join(work, "hidden.json"),
                    lambda wid, o: press(wid, ["u", "u"]), args=situation)
assert "stability" not in hidden["pose"], "U twice hides it"
print("stability:", len(grid["flip_line"]), "flip edges, max", grid["max_sensitivity"])
