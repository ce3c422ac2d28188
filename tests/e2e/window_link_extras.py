"""`ikpose view --listen` in a real window under Xvfb shows what a game sends beside its targets:
examples/link_sender (through include/ikpose_link.h) sends the clip's time, its ladder (where it
stands and its sizes) and a prop it moved; the window's report on exit has them as the link took
them, as the session poses with them, and as the timeline recorded them (screenshot in
WORKDIR/extras.png).
Usage: window_link_extras.py IKPOSE SEND_CLOSE WORKDIR LINK_SENDER BOX.glb"""
import json
import os
import subprocess
import sys
import time

from link_wait import wait_until_read

exe, send_close, workdir, sender, box = sys.argv[1:6]
os.makedirs(workdir, exist_ok=True)
report = os.path.join(workdir, "report.json")
if os.path.exists(report):
    os.remove(report)
game = os.path.join(workdir, "game.jsonl")
LADDER = {"base": [0.05, 0, 0.45], "rung_spacing": 0.28, "first_rung_height": 0.3,
          "rung_radius": 0.025, "rail_width": 0.45, "rung_count": 9}
with open(game, "w") as f:
    for line in [
            {"time": 0, "limbs": {"left_leg": {"target": [0.14, 0.35, 0.25]}}, "clip_time": 0.3},
            {"time": 0.05, "limbs": {}, "ladder": LADDER},
            {"time": 0.1, "limbs": {},
             "props": [{"index": 0, "position": [0.7, 0, 0.9], "yaw_deg": 25}]},
            {"time": 0.15, "limbs": {"left_leg": {"target": [0.15, 0.36, 0.25]}}}]:
        f.write(json.dumps(line) + "\n")

app = subprocess.Popen([exe, "view", "--size", "900x700", "--clip", "walk", "--prop",
                        box + "@1,0,1", "--listen", "127.0.0.1:0", "--report", report],
                       stderr=subprocess.PIPE, text=True)
try:
    line = app.stderr.readline()
    assert line.startswith("ikpose: listening on 127.0.0.1:"), line
    port = line.strip().rsplit(":", 1)[1]
    wid = subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                          "--name", "^ikpose$"], capture_output=True, text=True,
                         check=True).stdout.split()[0]
    sent = subprocess.run([sender, "--port", port, game], capture_output=True, text=True,
                          timeout=30)
    assert sent.returncode == 0, sent.stderr
    wait_until_read(port)
    time.sleep(0.5)  # for the picture only
    subprocess.run(["import", "-window", "root", os.path.join(workdir, "extras.png")], check=True)
    subprocess.run([send_close, wid], check=True)
    code = app.wait(timeout=15)
finally:
    if app.poll() is None:
        app.kill()
assert code == 0, f"ikpose exited with {code}"
with open(report) as f:
    shown = json.load(f)
link, timeline = shown["viewer"]["link"], shown["viewer"]["timeline"]
print("link:", json.dumps(link))


def near(a, b, eps=1e-5):
    if isinstance(a, list):
        return len(a) == len(b) and all(near(x, y, eps) for x, y in zip(a, b))
    return abs(a - b) <= eps


assert link["received"] == 4 and link["dropped"] == 0 and link["last_error"] == "", link
# The link: the newest frame holds all three (the clip plays on from the time sent).
last = link["last"]
assert near(last["clip_time"], 0.3 + 0.15), last
for key, value in LADDER.items():
    assert near(last["ladder"][key], value), (key, last["ladder"])
assert last["props"] == [{"index": 0, "position": last["props"][0]["position"], "yaw_deg": 25.0}]
assert near(last["props"][0]["position"], [0.7, 0, 0.9]), last["props"]
# The session poses with them: the ladder where the game has it, sized as it says; the prop moved.
ladder = shown["ladder"]
assert near(ladder["base_ms"], LADDER["base"]) and ladder["rung_count"] == 9, ladder
for key in ("rung_spacing", "first_rung_height", "rung_radius", "rail_width"):
    assert near(ladder[key], LADDER[key]), (key, ladder)
assert len(shown["props"]) == 1, shown["props"]
assert near(shown["props"][0]["position_ms"], [0.7, 0, 0.9]), shown["props"]
assert near(shown["props"][0]["yaw_deg"], 25), shown["props"]
# The timeline recorded them with the frame shown (the last one).
print("timeline: %d frames, shown %s" % (timeline["frames"], timeline["current_frame"]))
assert timeline["current_frame"] == timeline["frames"] - 1, timeline
assert near(timeline["clip_time"], 0.45, 1e-4), timeline["clip_time"]
assert near(timeline["ladder"]["base"], LADDER["base"]), timeline["ladder"]
assert near(timeline["ladder"]["rail_width"], 0.45), timeline["ladder"]
assert near(timeline["props"][0]["position"], [0.7, 0, 0.9]), timeline["props"]
print("ok")
