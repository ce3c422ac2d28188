#!/usr/bin/env python3
"""Ready poses in the real window with real X events (xdotool), checked through the report
ikpose writes on exit:
  - the Ready poses section shows its eight pictures, "crawl" and "push up" among them;
  - a click on "crawl" is one undo step ("ready pose crawl") that puts the character on hands
    and knees: four contacts, every limb on its target, the pelvis tilted forward and down
    by more than a third of its standing height;
  - "reach up" and then "crawl" give the same pose as "crawl" alone (a ready pose after another
    poses as from the rest; "reach up" leaves its limbs asking no help of the body).
Run under xvfb-run with XDG_STATE_HOME set. Usage: window_ready.py IKPOSE SEND_CLOSE WORKDIR"""
import os
import sys

from viewer_window import click_and_wait, run_viewer

exe, send_close, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def report(name, actions):
    return run_viewer(exe, send_close, os.path.join(work, name), actions, cwd=work)


def pelvis(r):
    name = r["pose"]["humanoid"]["pelvis"] if "humanoid" in r["pose"] else "pelvis"
    return next(b for b in r["pose"]["bones"] if b["name"] == name)["position_ms"]


# The Limbs section, open at start, is closed first, so that the pictures fit in the window.
start = report("start.json", lambda w, o: None)
limbs = start["panel_px"]["Limbs"]
header = report("closed.json", lambda w, o: click_and_wait(w, o, limbs))["panel_px"]["Ready poses"]


def open_section(wid, origin):
    click_and_wait(wid, origin, limbs)
    click_and_wait(wid, origin, header)


section = report("section.json", open_section)
for name in ("stand", "sit on a box", "kneel", "run", "climb a rung", "reach up", "crawl",
             "push up"):
    assert name in section["panel_px"], (name, sorted(section["panel_px"]))
crawl_px, reach_px = section["panel_px"]["crawl"], section["panel_px"]["reach up"]
assert crawl_px[3] < 700, ("the pictures are in the window", crawl_px)


def crawl(wid, origin):
    open_section(wid, origin)
    click_and_wait(wid, origin, crawl_px)


crawled = report("crawl.json", crawl)
assert crawled["history"]["undo_label"] == "ready pose crawl", crawled["history"]
help = crawled["pose"]["body_help"]
assert help["four_contacts"], help
assert help["pelvis_tilt_deg"] > 5.0, help
height = crawled["height"]
for limb, chain in crawled["pose"]["chains"].items():
    assert chain["error"] < 0.01 * height, (limb, chain["error"])
standing, down = pelvis(start)[1], pelvis(crawled)[1]
assert standing - down > 0.33 * standing, ("the body came down", standing, down)
print("crawl: pelvis from", standing, "to", down, "tilted", help["pelvis_tilt_deg"])


def reach_then_crawl(wid, origin):
    open_section(wid, origin)
    click_and_wait(wid, origin, reach_px)
    click_and_wait(wid, origin, crawl_px)


again = report("again.json", reach_then_crawl)
assert again["history"]["undo_label"] == "ready pose crawl", again["history"]
apart = sum((a - b) ** 2 for a, b in zip(pelvis(again), pelvis(crawled))) ** 0.5
assert apart < 1e-4 * height, ("after reach up, crawl poses as from the rest", apart)
print("ready poses in the window: ok")
