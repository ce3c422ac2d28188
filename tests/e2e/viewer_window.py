"""Driving the real ikpose viewer window under Xvfb for the window tests: start it, find its
window, act on it with real X events (xdotool), close it the way a window manager does, and
read the report it writes on exit."""
import json
import os
import subprocess
import time


def xdo(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)


def run_viewer(exe, send_close, report, actions, cwd=None, args=(), save=False, log=None):
    """Starts the viewer (with extra command-line `args`), runs actions(window_id, (x, y)),
    closes it as a user does, and returns the report it wrote. A window with unsaved edits asks
    before it quits: the close is followed by D (quit without saving), which a window that
    closes at once never reads; with `save`, Ctrl+Q then S saves the scene file and quits. With
    `log`, what the viewer prints on stderr goes to that file."""
    if os.path.exists(report):
        os.remove(report)
    stderr = open(log, "w") if log else None
    app = subprocess.Popen([exe, "view", "--size", "900x700", "--report", report, *args], cwd=cwd,
                           stderr=stderr)
    try:
        wid = subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible",
                              "--name", "^ikpose$"], capture_output=True, text=True,
                             check=True).stdout.split()[0]
        time.sleep(0.8)  # the title says the panel is laid out; a moment for focus
        geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                                  capture_output=True, text=True, check=True).stdout
        g = dict(line.split("=") for line in geometry.split())
        actions(wid, (int(g["X"]), int(g["Y"])))
        if save:
            xdo("key", "--window", wid, "ctrl+q")
            time.sleep(0.4)
            xdo("key", "--window", wid, "s")
        else:
            subprocess.run([send_close, wid], check=True)
        if app.poll() is None and not save:
            subprocess.run(["xdotool", "key", "--window", wid, "d"], capture_output=True)
        code = app.wait(timeout=15)
    finally:
        if app.poll() is None:
            app.kill()
        if stderr:
            stderr.close()
    assert code == 0, f"ikpose exited with {code}"
    with open(report) as f:
        written = json.load(f)
    # The window's own state (limbs with their handles on screen, history, height); the pose
    # report of what was drawn (what `ikpose pose --json` prints) is the rest of the file.
    window = written.pop("viewer")
    window["pose"] = written
    return window


def drag(origin, start_px, offset, steps=10):
    """Presses the left button at start_px (window pixels), moves by offset in steps, releases."""
    x0, y0 = origin[0] + round(start_px[0]), origin[1] + round(start_px[1])
    xdo("mousemove", x0, y0)
    time.sleep(0.3)
    xdo("mousedown", 1)
    for step in range(1, steps + 1):
        xdo("mousemove", x0 + offset[0] * step // steps, y0 + offset[1] * step // steps)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.5)


def window_picture(wid):
    """The window's pixels as bytes (to see that a frame showing a change was drawn)."""
    return subprocess.run(["import", "-window", wid, "rgb:-"], capture_output=True,
                          check=True).stdout


def settle(wid, timeout=10.0):
    """Waits until the window shows the same picture twice, a quarter second apart (what was
    asked of it is drawn); returns that picture."""
    deadline = time.time() + timeout
    shown = window_picture(wid)
    while time.time() < deadline:
        time.sleep(0.25)
        now = window_picture(wid)
        if now == shown:
            return now
        shown = now
    return shown


def click_and_wait(wid, origin, rect, timeout=10.0):
    """Clicks the middle of `rect` (window pixels x0, y0, x1, y1) and waits until the window
    shows a different picture (a section opened, a prop added), so that the next action acts on
    what the click made, however slow the frames are."""
    xdo("mousemove", origin[0] + round((rect[0] + rect[2]) / 2),
        origin[1] + round((rect[1] + rect[3]) / 2))
    before = settle(wid)  # what earlier keys and the hover drew, drawn before the click
    xdo("click", 1)
    deadline = time.time() + timeout
    while time.time() < deadline and window_picture(wid) == before:
        time.sleep(0.1)
    time.sleep(0.3)
