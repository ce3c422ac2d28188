#!/usr/bin/env python3
"""The viewer as an artist uses it, in the real window with real X events (xdotool), checked
through the report ikpose writes on exit and the files it writes:
  - in the front view (1), dragging the left foot's target straight up the screen moves it up
    and nothing else: no depth (the drag plane is the view's, not the eye ray's);
  - Esc with nothing held leaves the window open with the edit; Esc during a drag puts the
    target back where that drag began;
  - G Z 0.1 Enter on the selected shin moves the leg's target 0.1 along Z, S 0.5 Enter brings
    it half way to the hip; R Z 30 Enter on the
    selected head turns it to its limit about Z (22.5); R then a right click turns nothing;
  - N hides the panel (screenshot WORKDIR/no_panel.png); F12 writes a PNG of the window's size;
  - an autosave found at start (a crash leaves one) is offered back (screenshot
    WORKDIR/offer.png) and kept while unanswered;
  - the autosave holds the edits; closing the window asks (screenshot WORKDIR/question.png),
    Esc answers "stay", a second close and D quit; a clean exit removes the autosave.
Run under xvfb-run with XDG_STATE_HOME set. Usage: window_artist.py IKPOSE SEND_CLOSE WORKDIR"""
import glob
import json
import math
import os
import subprocess
import sys
import time

from viewer_window import run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
folder = os.path.join(os.environ["XDG_STATE_HOME"], "ikpose")
for old in glob.glob(os.path.join(folder, "autosave*")):
    os.remove(old)
# A crash's autosave: a window that is gone left its file and an unheld lock.
autosave = os.path.join(folder, "autosave-999999999.json")
for old in glob.glob(os.path.join(work, "*.png")):
    os.remove(old)


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def bone(report, name):
    return next(b for b in report["pose"]["bones"] if b["name"] == name)


def press(wid, *keys):
    for key in keys:
        xdo("key", "--window", wid, key)
        time.sleep(0.1)


def at(origin, px):
    return origin[0] + round(px[0]), origin[1] + round(px[1])


def screenshot(name):
    subprocess.run(["import", "-window", "root", os.path.join(work, name)], check=True)


# A crash left an autosave: the start offers it back. The same window says where things are on
# screen in the front view.
os.makedirs(os.path.dirname(autosave), exist_ok=True)
with open(autosave, "w") as f:
    json.dump({"limbs": {}}, f)


def look_from_front(wid, origin):
    screenshot("offer.png")
    press(wid, "1")


front = run_viewer(exe, send_close, os.path.join(work, "front.json"), look_from_front)
assert front["restore_offered"], "the autosave a crash left was not offered back"
assert os.path.exists(autosave), "an offer not answered must keep the autosave"
os.remove(autosave)
print("ok: the crash's autosave was offered back")
height = front["height"]
foot_px = front["limbs"]["left_leg"]["target_px"]
foot0 = front["limbs"]["left_leg"]["target"]
shin_px = [(a + b) / 2 for a, b in zip(front["bones_px"]["calf_l"], front["bones_px"]["foot_l"])]
head_px = front["bones_px"]["head"]
head0 = bone(front, "head")["rotation_ls"]
lift_px = 90

state = {}


def session(wid, origin):
    press(wid, "1")
    # Select the shin: a click on the mesh without a move changes nothing.
    xdo("mousemove", *at(origin, shin_px))
    time.sleep(0.2)
    xdo("click", 1)
    time.sleep(0.2)
    # Straight up the screen from the foot's target.
    x0, y0 = at(origin, foot_px)
    xdo("mousemove", x0, y0)
    time.sleep(0.2)
    xdo("mousedown", 1)
    for step in range(1, 7):
        xdo("mousemove", x0, y0 - lift_px * step // 6)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.3)
    press(wid, "Escape")  # nothing held: must not quit
    assert app_alive(), "Esc closed the viewer"
    # A second drag, cancelled by Esc while the button is still down.
    xdo("mousemove", x0, y0 - lift_px)
    time.sleep(0.2)
    xdo("mousedown", 1)
    for step in range(1, 5):
        xdo("mousemove", x0 + 15 * step, y0 - lift_px - 10 * step)
        time.sleep(0.05)
    press(wid, "Escape")
    xdo("mouseup", 1)
    time.sleep(0.2)
    # The shin is still selected: G Z 0.1 Enter, then S 0.5 Enter (half way to the hip).
    press(wid, "g", "z", "0", "period", "1", "Return", "s", "0", "period", "5", "Return")
    # Select the head, then R Z 3 0 Enter; then R, a mouse move and a right click: nothing.
    xdo("mousemove", *at(origin, head_px))
    time.sleep(0.2)
    xdo("click", 1)
    time.sleep(0.2)
    press(wid, "r", "z", "3", "0", "Return")
    xdo("mousemove_relative", "--", -60, 0)
    time.sleep(0.2)
    press(wid, "r")
    xdo("mousemove_relative", "--", 30, 60)
    time.sleep(0.2)
    screenshot("turning.png")
    xdo("click", 3)
    time.sleep(0.2)
    press(wid, "n", "F12")
    time.sleep(0.7)  # the picture, and an autosave (every 0.3 s here)
    screenshot("no_panel.png")
    own = [p for p in glob.glob(os.path.join(folder, "autosave-*.json")) if p != autosave]
    assert len(own) == 1, f"one window, one autosave: {own}"
    state["own"] = own[0]
    with open(own[0]) as f:
        state["autosaved"] = json.load(f)
    # Closing with unsaved edits asks; Esc stays; the report's close then answers D.
    subprocess.run([send_close, wid], check=True)
    time.sleep(0.4)
    screenshot("question.png")
    assert app_alive(), "the window closed without asking about the unsaved edits"
    press(wid, "Escape")
    time.sleep(0.3)
    assert app_alive(), "Esc in the quit question quit"


def app_alive():
    # The viewer is the newest ikpose window still mapped.
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^ikpose$"],
                           capture_output=True, text=True).stdout.split()
    return bool(found)


after = run_viewer(exe, send_close, os.path.join(work, "after.json"), session, cwd=work,
                   args=("--autosave", "0.3"))
leg = after["limbs"]["left_leg"]
hip = bone(after, "thigh_l")["position_ms"]
# Before S 0.5 the target was twice as far from the hip.
before_s = [h + 2 * (t - h) for h, t in zip(hip, leg["target"])]
print("left foot target", foot0, "->", before_s, "-> S 0.5 ->", leg["target"])
assert before_s[1] - foot0[1] > 0.1 * height, "the foot did not go up"
assert abs(before_s[0] - foot0[0]) < 1e-3 * height, "a vertical drag moved it sideways"
# G Z 0.1 added exactly 0.1 in z; the lift itself added no depth.
assert abs(before_s[2] - (foot0[2] + 0.1)) < 1e-3 * height, \
    f"depth {before_s[2]}: expected {foot0[2] + 0.1} (lift without depth, then G Z 0.1)"
head = bone(after, "head")["rotation_ls"]
turned = math.degrees(2 * math.acos(min(1.0, abs(sum(a * b for a, b in zip(head, head0))))))
print("head turned", turned, "deg")
# The joint limits stop it at the head's share of the neck's 45 degree side bend.
assert abs(turned - 22.5) < 0.5, f"R Z 30 turned the head {turned} deg, not its limit 22.5"
assert not after["panel_shown"], "N did not hide the panel"
pictures = glob.glob(os.path.join(work, "*.png"))
shots = [p for p in pictures if os.path.basename(p).startswith("character-")]
assert shots, f"F12 wrote no picture: {pictures}"
size = subprocess.run(["identify", "-format", "%w %h", shots[0]], capture_output=True, text=True,
                      check=True).stdout.split()
assert size == ["900", "700"], f"the picture is {size}, not the window's 900x700"
limbs = state["autosaved"]["limbs"]
assert distance(limbs["left_leg"]["target"], leg["target"]) < 1e-4 * height, limbs["left_leg"]
assert not os.path.exists(state["own"]), "a clean exit left the autosave behind"
assert not glob.glob(os.path.join(folder, "autosave*")), os.listdir(folder)
print("ok: view-plane lift, Esc, G/S/R typed, right-click cancel, N, F12, autosave, quit question")

