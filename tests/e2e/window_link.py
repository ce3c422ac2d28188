"""`ikpose view --listen` in a real window under Xvfb: examples/link_sender plays the left-leg
sweep to it in real time as a game would; the window records every frame of it on its timeline
and flags the seed's pop with its cause as it happens (screenshot in WORKDIR/link.png). The test
waits for ikpose to have read what a game sent (the kernel's connection table), never a fixed
time, so a loaded machine records the same. Then a game sends a
bad line: it is disconnected with the reason, and the window carries on. The game's frames
leave no undo steps.
Usage: window_link.py IKPOSE SEND_CLOSE WORKDIR LINK_SENDER SWEEP.jsonl"""
import json
import os
import subprocess
import sys
import time

from link_wait import wait_until_read

exe, send_close, workdir, sender, sweep = sys.argv[1:6]



os.makedirs(workdir, exist_ok=True)
report = os.path.join(workdir, "report.json")
if os.path.exists(report):
    os.remove(report)

app = subprocess.Popen([exe, "view", "--size", "900x700", "--policy", "seed", "--listen",
                        "127.0.0.1:0", "--report", report], stderr=subprocess.PIPE, text=True)
try:
    line = app.stderr.readline()
    assert line.startswith("ikpose: listening on 127.0.0.1:"), line
    port = line.strip().rsplit(":", 1)[1]
    wid = subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                          "--name", "^ikpose$"], capture_output=True, text=True,
                         check=True).stdout.split()[0]
    time.sleep(1.0)
    # One second of path, played in real time.
    sent = subprocess.run([sender, "--port", port, sweep], capture_output=True, text=True,
                          timeout=30)
    assert sent.returncode == 0, sent.stderr
    print(sent.stdout.strip())
    wait_until_read(port)
    time.sleep(0.5)  # for the picture only: the window draws what it took
    subprocess.run(["import", "-window", "root", os.path.join(workdir, "link.png")], check=True)
    # A game with a bad line after a good one.
    bad = os.path.join(workdir, "bad.jsonl")
    with open(bad, "w") as f:
        f.write('{"time": 5, "limbs": {}}\nnot json\n')
    subprocess.run([sender, "--port", port, "--raw", bad], capture_output=True, timeout=30)
    wait_until_read(port)
    subprocess.run([send_close, wid], check=True)
    code = app.wait(timeout=15)
finally:
    if app.poll() is None:
        app.kill()
assert code == 0, f"ikpose exited with {code}"
with open(report) as f:
    viewer = json.load(f)["viewer"]
link, timeline = viewer["link"], viewer["timeline"]
print("link:", json.dumps(link))
print("timeline: %d frames, pops %s" % (timeline["frames"],
                                        [(p["limb"], p["cause"]) for p in timeline["pops"]]))
assert link["received"] == 62, link  # the sweep's 61 lines and the bad game's good one
assert link["connections"] == 2 and link["dropped"] == 0, link
assert link["last_error"] == "link:2: not valid JSON", link
assert link["applied"] + link["skipped"] == 62, link
# Every frame of the game is on the timeline, however slowly the window draws: the sweep's 61
# after the first situation seen (the bad game's good line changes nothing).
assert link["merged"] == 0, link
assert timeline["frames"] == 62, timeline["frames"]
# The one pop `ikpose trace --policy seed` finds in the sweep, at its frame (30, after the
# baseline), with its cause.
pops = [p for p in timeline["pops"] if p["limb"] == "left_leg"]
assert len(pops) == 1, pops
assert pops[0]["cause"] == "knee_reference_crossed_axis", pops
assert pops[0]["index"] == 31, pops
# The game's frames are not the user's edits: none of them is an undo step.
history = viewer["history"]
assert history["undo_steps"] == 0, history
print("ok")
