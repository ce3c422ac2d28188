#!/usr/bin/env python3
"""The viewer after a crash, and the panel's mirror, in the real window with real X events
(xdotool), checked through the report ikpose writes on exit and the files it writes:
  - an autosave left by a window that is gone is offered back; "restore it" puts its edits on
    screen and removes it;
  - R R turns the selected head freely (trackball): a sideways mouse move in the front view turns
    it about the vertical;
  - Ctrl+Q with unsaved edits asks; S saves the scene (restored edits and the turn) and quits;
  - the Mirror section's "left to right" mirrors the pose and starts no bake (the mirror commands
    once fell through into the bake command);
  - a reference image given with --reference is drawn behind the character in F12's picture;
  - the pose library, read once the window is up, shows up in the panel;
  - a field of view typed into the Picture section, and F12 at a chosen size.
Run under xvfb-run with XDG_STATE_HOME set. Usage: window_restore.py IKPOSE SEND_CLOSE WORKDIR"""
import glob
import json
import math
import os
import struct
import subprocess
import sys
import time
import zlib

from viewer_window import click_and_wait, run_viewer, xdo

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
for old in glob.glob(os.path.join(work, "*.png")) + glob.glob(os.path.join(work, "*.glb")):
    os.remove(old)
folder = os.path.join(os.environ["XDG_STATE_HOME"], "ikpose")
os.makedirs(folder, exist_ok=True)
for old in glob.glob(os.path.join(folder, "autosave*")):
    os.remove(old)
scene_file = os.path.join(work, "ikpose-scene.json")
if os.path.exists(scene_file):
    os.remove(scene_file)

# A window that crashed left this: its file, and a lock nobody holds.
orphan = os.path.join(folder, "autosave-999999999.json")
lifted = [0.12, 0.35, 0.15]
with open(orphan, "w") as f:
    json.dump({"limbs": {"left_leg": {"target": lifted}}}, f)


def press(wid, *keys):
    for key in keys:
        xdo("key", "--window", wid, key)
        time.sleep(0.15)


def click(wid, origin, rect):
    click_and_wait(wid, origin, rect)


def window_of(app):
    return subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                           "--pid", str(app.pid), "--name", "^ikpose$"], capture_output=True,
                          text=True, check=True).stdout.split()[0]


def origin_of(wid):
    geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                              capture_output=True, text=True, check=True).stdout
    g = dict(line.split("=") for line in geometry.split())
    return int(g["X"]), int(g["Y"])


def front_view(wid, origin):
    press(wid, "1")


# Where things are: the offer's button, and the head in the front view.
before = run_viewer(exe, send_close, os.path.join(work, "before.json"), front_view, cwd=work)
assert before["restore_offered"], "an autosave whose window is gone was not offered back"
assert os.path.exists(orphan), "an offer not answered must keep the autosave"
restore_px = before["panel_px"]["restore it"]
head_px = before["bones_px"]["head"]
print("restore button at", restore_px, "head at", head_px)

# Restore, turn the head as a trackball, then Ctrl+Q and S: saved and closed by the window itself.
report = os.path.join(work, "restored.json")
if os.path.exists(report):
    os.remove(report)
app = subprocess.Popen([exe, "view", "--size", "900x700", "--report", report], cwd=work)
try:
    wid = window_of(app)
    time.sleep(0.8)  # the title says the panel is laid out; a moment for focus
    origin = origin_of(wid)
    press(wid, "1")
    click(wid, origin, restore_px)
    for _ in range(50):  # the click is applied on the next frame, which may be slow
        if not os.path.exists(orphan):
            break
        time.sleep(0.1)
    assert not os.path.exists(orphan), "restoring did not remove the crash's autosave"
    xdo("mousemove", origin[0] + round(head_px[0]), origin[1] + round(head_px[1]))
    time.sleep(0.2)
    xdo("click", 1)  # select the head
    time.sleep(0.3)
    press(wid, "r", "r")
    for step in range(1, 7):
        xdo("mousemove", origin[0] + round(head_px[0]) + 12 * step, origin[1] + round(head_px[1]))
        time.sleep(0.05)
    xdo("click", 1)  # apply the turn
    time.sleep(0.3)
    press(wid, "ctrl+q")
    time.sleep(0.4)
    assert app.poll() is None, "Ctrl+Q with unsaved edits quit without asking"
    press(wid, "s")
    code = app.wait(timeout=15)
finally:
    if app.poll() is None:
        app.kill()
assert code == 0, f"ikpose exited with {code}"
with open(report) as f:
    restored = json.load(f)
leg = restored["viewer"]["limbs"]["left_leg"]["target"]
assert max(abs(a - b) for a, b in zip(leg, lifted)) < 1e-4, f"restored foot target {leg}"
with open(scene_file) as f:
    saved = json.load(f)
assert max(abs(a - b) for a, b in zip(saved["limbs"]["left_leg"]["target"], lifted)) < 1e-4, saved
turn = saved["bone_turns"]["head"]  # x, y, z, w: the head's turn in its parent's space
angle = math.degrees(2 * math.acos(min(1.0, abs(turn[3]))))
print("saved head turn", turn, f"{angle:.1f} deg")
assert angle > 10.0, f"the trackball turned the head only {angle:.1f} deg"
# A sideways move in the front view turns it about the vertical (the neck stands upright).
assert abs(turn[1]) > 0.9 * math.sqrt(turn[0] ** 2 + turn[1] ** 2 + turn[2] ** 2), turn
assert not glob.glob(os.path.join(folder, "autosave*")), os.listdir(folder)
print("ok: restored the crash's autosave, trackball turn, Ctrl+Q then S saved and quit")

# The mirror: open its section (where its buttons are drawn), then pick left to right; with a
# reference image behind the character, F12's picture shows it.
reference = os.path.join(work, "green.png")
rows = b"".join(b"\x00" + b"\x00\xff\x00\xff" * 8 for _ in range(16))
png = b"\x89PNG\r\n\x1a\n"
for kind, data in ((b"IHDR", struct.pack(">IIBBBBB", 8, 16, 8, 6, 0, 0, 0)),
                   (b"IDAT", zlib.compress(rows)), (b"IEND", b"")):
    png += struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
with open(reference, "wb") as f:
    f.write(png)
# Every run with the same image (the panel says it shows one, which moves what is below) and a
# pose library of one pose, read on its own thread once the window is up.
library = os.path.join(work, "library")
os.makedirs(library, exist_ok=True)
with open(os.path.join(library, "lifted.json"), "w") as f:
    json.dump(saved, f)
shown = ("--reference", reference, "--library", library)
first = run_viewer(exe, send_close, os.path.join(work, "first.json"), lambda w, o: None, cwd=work,
                   args=shown)
header = first["panel_px"]["Mirror"]
assert "Pose library" in first["panel_px"], "the pose library never showed up"
opened = run_viewer(exe, send_close, os.path.join(work, "opened.json"),
                    lambda wid, origin: click(wid, origin, header), cwd=work, args=shown)
radio = opened["panel_px"]["left to right"]


def mirror_and_picture(wid, origin):
    click(wid, origin, header)
    click(wid, origin, radio)
    press(wid, "n", "F12")  # the picture without the panel
    for _ in range(50):  # written on a later frame, which may be slow
        if glob.glob(os.path.join(work, "character-*.png")):
            break
        time.sleep(0.1)


mirrored = run_viewer(exe, send_close, os.path.join(work, "mirrored.json"), mirror_and_picture,
                      cwd=work, args=shown)
assert mirrored["pose"].get("mirror", {}).get("mode") == "left-to-right", mirrored["pose"].get(
    "mirror")
assert not glob.glob(os.path.join(work, "*baked*")), "picking a mirror started a bake"
assert "bak" not in mirrored["status"], mirrored["status"]
shots = glob.glob(os.path.join(work, "character-*.png"))
assert shots, "F12 wrote no picture"
green = subprocess.run(["convert", shots[0], "-fx", "g>0.6 && r<0.3 && b<0.3 ? 1 : 0",
                        "-format", "%[fx:mean]", "info:"], capture_output=True, text=True,
                       check=True).stdout
print("green share of the picture:", green)
assert float(green) > 0.05, "the reference image is not behind the character in F12's picture"
print("ok: the Mirror section's left to right mirrors without baking; the reference in F12")

# The picture: a field of view typed into its slider (Ctrl+click), and a chosen size instead of
# the window's for F12's picture.
for old in glob.glob(os.path.join(work, "character-*.png")):
    os.remove(old)
picture_header = first["panel_px"]["Picture"]
section = run_viewer(exe, send_close, os.path.join(work, "section.json"),
                     lambda wid, origin: click(wid, origin, picture_header), cwd=work, args=shown)
fov_px, window_size_px = section["panel_px"]["field of view"], section["panel_px"]["window size"]


def chosen_picture(wid, origin):
    click(wid, origin, picture_header)
    xdo("keydown", "ctrl")
    click(wid, origin, fov_px)
    xdo("keyup", "ctrl")
    xdo("type", "--delay", "80", "30")
    press(wid, "Return")
    time.sleep(0.5)
    click(wid, origin, window_size_px)
    xdo("mousemove", origin[0] + 650, origin[1] + 650)  # off the panel: F12 is the viewer's
    time.sleep(0.3)
    press(wid, "F12")
    for _ in range(50):
        if glob.glob(os.path.join(work, "character-*.png")):
            break
        time.sleep(0.1)


pictured = run_viewer(exe, send_close, os.path.join(work, "pictured.json"), chosen_picture,
                      cwd=work, args=shown)
assert abs(pictured["fov_y_deg"] - 30.0) < 1e-3, f"field of view {pictured['fov_y_deg']}"
chosen = pictured["picture"]
assert not chosen["window_size"], chosen
shots = glob.glob(os.path.join(work, "character-*.png"))
assert shots, "F12 wrote no picture"
size = subprocess.run(["identify", "-format", "%w %h", shots[0]], capture_output=True, text=True,
                      check=True).stdout.split()
assert size == [str(chosen["width"]), str(chosen["height"])], f"{size} is not {chosen}"
print("ok: field of view typed in, F12's picture at the chosen", size)
