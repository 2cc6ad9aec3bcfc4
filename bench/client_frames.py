"""Client benchmark: start-up time, frame times of the busiest board, memory.

Prints readable lines, then as its LAST line one JSON object:
``first_frame_s`` (from process start to the first drawn frame of the title scene, headless),
``frame_p50_ms``/``frame_p95_ms`` (the 4-player board mid-game at 1600x900 with the mouse moving
over it, dummy video driver), ``peak_rss_mb`` (of the process drawing those frames).
Targets: first frame <= 1.0 s, p95 <= 8 ms, RSS <= 150 MB.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}

FIRST_FRAME = """
import os, sys, time, tempfile
t0 = float(os.environ["MOR_T0"])
os.environ["MOR_CONFIG_DIR"] = os.environ["MOR_DATA_DIR"] = tempfile.mkdtemp()
from game.scenes.app import App
from game.scenes.menus import TitleScene
app = App(headless=True, size=(1280, 800))
app.stack.push(TitleScene(app))
app.frame(0.016)
print(time.time() - t0)
"""

FRAMES = """
import os, random, resource, sys, time, json
sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"], "tools"))
import pygame
from screenshots import mid_game, session_for
from game.scenes.app import App
from game.scenes.board import BoardScene
app = App(headless=True, size=(1600, 900))
game = mid_game(["Ada", "Bruno", "Cora", "Dario"], 11, 120)
app.stack.push(BoardScene(app, session_for(game, "Ada")))
rng = random.Random(1)
times = []
for i in range(400):
    pos = (rng.randrange(1600), rng.randrange(900))
    ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]
    t = time.perf_counter()
    app.frame(0.016, ev)
    times.append((time.perf_counter() - t) * 1000)
times = sorted(times[50:])
scene = app.stack.top
redraw = []
for i in range(100):   # frames where the whole board must be drawn again (a state change)
    scene._rev += 1
    t = time.perf_counter()
    app.frame(0.016)
    redraw.append((time.perf_counter() - t) * 1000)
redraw.sort()
print(json.dumps({"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95)],
                  "redraw_p50": redraw[50], "redraw_p95": redraw[95],
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def first_frame() -> float:
    best = []
    for _ in range(3):
        env = {**ENV, "MOR_T0": repr(time.time())}
        out = subprocess.run([sys.executable, "-c", FIRST_FRAME], env=env, capture_output=True, text=True, check=True)
        best.append(float(out.stdout.strip().splitlines()[-1]))
    return min(best)


def frames() -> dict:
    out = subprocess.run([sys.executable, "-c", FRAMES], env=ENV, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ff = first_frame()
    fr = frames()
    print(f"first frame: {ff:.3f} s (best of 3)")
    print(f"4-player board at 1600x900: p50 {fr['p50']:.2f} ms, p95 {fr['p95']:.2f} ms; peak RSS {fr['rss']:.0f} MB")
    print(f"frames that redraw the whole board (after a change): p50 {fr['redraw_p50']:.2f} ms, "
          f"p95 {fr['redraw_p95']:.2f} ms")
    print(json.dumps({"first_frame_s": round(ff, 3), "frame_p50_ms": round(fr["p50"], 2),
                      "frame_p95_ms": round(fr["p95"], 2), "peak_rss_mb": round(fr["rss"], 1),
                      "redraw_p50_ms": round(fr["redraw_p50"], 2), "redraw_p95_ms": round(fr["redraw_p95"], 2)}))


if __name__ == "__main__":
    main()
