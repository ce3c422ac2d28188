#!/usr/bin/env python3
"""Opens the ladder climb in the real viewer window, presses Ctrl+B (the panel's "bake clip")
and checks that the viewer wrote the baked clip beside the scene, and that the baked file plays
back what `ikpose pose --scene S --time t` gives at several times.
Run under xvfb-run. Usage: window_bake.py IKPOSE SEND_CLOSE WORKDIR SOURCE_DIR"""
import json
import os
import subprocess
import sys
import time

from viewer_window import run_viewer, xdo

exe, send_close, work, source = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)
with open(os.path.join(source, "assets", "scenes", "ladder_climb.json")) as f:
    scene = json.load(f)
scene["model"] = os.path.join(source, "assets", "character.glb")
scene_path = os.path.join(work, "ladder_climb.json")
with open(scene_path, "w") as f:
    json.dump(scene, f)
baked = os.path.join(work, "character-ladder_climb-baked.glb")
if os.path.exists(baked):
    os.remove(baked)


def bake(wid, origin):
    xdo("mousemove", origin[0] + 450, origin[1] + 350)  # over the viewport, not the panel
    xdo("key", "ctrl+b")
    for _ in range(120):
        if os.path.exists(baked):
            break
        time.sleep(0.25)
    time.sleep(0.5)


report = run_viewer(exe, send_close, os.path.join(work, "report.json"), bake, cwd=work,
                    args=("--scene", scene_path))
assert os.path.exists(baked), "Ctrl+B wrote no " + baked
assert report["bake"]["last_file"].endswith("character-ladder_climb-baked.glb"), report["bake"]
assert report["bake"]["frames"] == 61, report["bake"]  # 2 s at 30 fps
assert not report["bake"]["running"]


def pose(*args):
    out = subprocess.run([exe, "pose", *args, "--json"], capture_output=True, text=True,
                         check=True).stdout
    return {b["name"]: b["position_ms"] for b in json.loads(out)["bones"]}


clips = json.loads(subprocess.run([exe, "inspect", baked, "--json"], capture_output=True,
                                  text=True, check=True).stdout)["clips"]
assert [c["name"] for c in clips] == ["idle", "walk", "ladder_climb"], clips
worst = 0.0
for t in ("0", "0.5", "1.0", "1.5"):
    a = pose("--scene", scene_path, "--time", t)
    b = pose(baked, "--clip", "ladder_climb", "--time", t)
    for name, p in a.items():
        worst = max(worst, sum((x - y) ** 2 for x, y in zip(p, b[name])) ** 0.5)
print("baked", baked, "largest joint difference from pose --scene:", worst)
assert worst < 1e-4 * report["height"], f"the baked clip is {worst} off the one road's pose"
print("ok: Ctrl+B baked the clip on screen")
