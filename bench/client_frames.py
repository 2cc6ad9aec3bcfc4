"""Client benchmark: start-up time, frame times of the busiest board, memory.

Prints readable lines, then as its LAST line one JSON object:
``first_frame_s`` (from process start to the first drawn frame of the title scene, headless),
``frame_p50_ms``/``frame_p95_ms`` (the 4-player board mid-game at 1600x900 with the mouse moving
over it, dummy video driver), ``peak_rss_mb`` (the larger of: the process drawing those frames;
the client through a whole 4-player game against 3 medium bots at 1600x900 as a player meets it:
from the title, by the mouse, its turns played on the board by Hint and Confirm (a market line
when the hint's move is not the turn's main action) with the mouse moving every frame, to the
game-over page and back to the title; in a real window when ``$DISPLAY`` is set (``--dummy``: SDL's
dummy driver anyway), ``game_driver`` says which video driver drew it; ``game_peak_rss_mb`` alone,
``game_over_rss_mb`` and ``title_after_game_rss_mb`` the RSS on those pages, ``game_peak_rss_1920_mb``
the same game at 1920x1080, ``bots_worker_rss_mb`` the bots' worker process (not the client's memory),
``cached_pictures_mb`` the most the caches of pictures held, see ``game/scenes/memory.py``), ``idle_cpu_title_pct`` and
``idle_cpu_board_pct`` (the CPU of the whole process, in % of one core, over 10 s of the real frame
loop ``App.run`` with no input, on the title at 1280x800 and on the 4-player board at 1600x900,
3 s after its first frame).
``bot_frame_p95_none_ms``/``bot_frame_p95_thread_ms``/``bot_frame_p95_process_ms`` (the same board
at 60 frames a second, the mouse moving, while the hard bot thinks back to back about a 4-player
decision: not at all, on a thread of the UI process as the client did before, in a worker process
as it does now) and ``bot_ui_cpu_thread_pct``/``bot_ui_cpu_process_pct`` (the UI process's CPU
meanwhile, in % of one core), ``bot_decisions_thread``/``bot_decisions_process`` (how many
decisions were made meanwhile).
Targets: first frame <= 1.0 s, p95 <= 8 ms, RSS <= 150 MB, idle <= 3 % of a core; while a bot
thinks, p95 as without one.

``--idle-seconds N`` measures idle over N seconds instead of 10; ``--bots-only`` measures the
frames while a bot thinks and nothing else; ``--game-only`` the whole game's memory only.
``--quick``: every part runs, briefly (a few frames, one round, 0.5 s idle, the whole game at
1600x900 only and to the player's first turn, the hard bot and the hint at a tiny budget), to check
that the bench works: no figure of it
is one to compare (the JSON says ``"quick": true``). Games are dealt from ``MOR_SEED`` (5 unless set).
The whole game here draws a frame after every event and never sleeps (the worst case: a player
whose mouse never rests); ``tools/xgame.py`` plays one through the X server with the real frame
loop, which sleeps, and gives memory back, between bursts.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {"MOR_SEED": "5", **os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "PYTHONPATH": str(ROOT)}
REAL = {**ENV}
"""The environment of the whole game's process: a real window on ``$DISPLAY`` when there is one
(see :func:`main`'s ``--dummy``), SDL's dummy driver otherwise."""

FIRST_FRAME = """
import os, sys, time, tempfile
t0 = float(os.environ["MOR_T0"])
os.environ["MOR_CONFIG_DIR"] = os.environ["MOR_DATA_DIR"] = tempfile.mkdtemp()
from game.scenes.app import App
from game.scenes.catalog import register_scenes
register_scenes()
from game.scenes.title import TitleScene
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
from game.scenes.catalog import register_scenes
register_scenes()
from game.scenes.board import BoardScene
app = App(headless=True, size=(1600, 900))
game = mid_game(["Ada", "Bruno", "Cora", "Dario"], 11, 120)
app.stack.push(BoardScene(app, session_for(game, "Ada")))
rng = random.Random(1)
times = []
quick = os.environ.get("MOR_BENCH_QUICK") == "1"
for i in range(24 if quick else 400):
    pos = (rng.randrange(1600), rng.randrange(900))
    ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]
    t = time.perf_counter()
    app.frame(0.016, ev)
    times.append((time.perf_counter() - t) * 1000)
times = sorted(times[len(times) // 8:])
scene = app.stack.top
redraw = []
for i in range(6 if quick else 100):   # frames where the whole board must be drawn again (a state change)
    scene._rev += 1
    t = time.perf_counter()
    app.frame(0.016)
    redraw.append((time.perf_counter() - t) * 1000)
redraw.sort()
print(json.dumps({"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95)],
                  "redraw_p50": redraw[len(redraw) // 2], "redraw_p95": redraw[int(len(redraw) * 0.95)],
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


IDLE = """
import os, sys, tempfile, threading, time, json
sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"], "tools"))
os.environ["MOR_CONFIG_DIR"] = os.environ["MOR_DATA_DIR"] = tempfile.mkdtemp()
import pygame
from game.scenes.app import App
from game.scenes.catalog import register_scenes
register_scenes()
which, seconds = sys.argv[1], float(sys.argv[2])
if which == "title":
    from game.scenes.title import TitleScene
    app = App(size=(1280, 800))
    first = TitleScene(app)
else:
    from screenshots import mid_game, session_for
    from game.scenes.board import BoardScene
    app = App(size=(1600, 900))
    first = BoardScene(app, session_for(mid_game(["Ada", "Bruno", "Cora", "Dario"], 11, 120), "Ada"))
out = {}
def measure():
    while app.drawn == 0:
        time.sleep(0.05)
    time.sleep(0.5 if os.environ.get("MOR_BENCH_QUICK") == "1" else 3.0)
    c0, f0, t0 = time.process_time(), app.drawn, time.perf_counter()
    time.sleep(seconds)
    c1, f1, t1 = time.process_time(), app.drawn, time.perf_counter()
    out.update(cpu=100 * (c1 - c0) / (t1 - t0), frames=f1 - f0)
    app.quit()
    app.wake()
threading.Thread(target=measure, daemon=True).start()
app.run(first)
print(json.dumps(out))
"""


BOT_FRAMES = """
import os, random, sys, threading, time, json
sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"], "tools"))
import pygame
from screenshots import mid_game, session_for
from game.bots.driver import BotPool, make_job
from game.rules.components import default_config
from game.scenes.app import App
from game.scenes.catalog import register_scenes
register_scenes()
from game.scenes.board import BoardScene

def main(mode):
    app = App(headless=True, size=(1600, 900))
    game = mid_game(["Ada", "Bruno", "Cora", "Dario"], 11, 120)
    app.stack.push(BoardScene(app, session_for(game, "Ada")))
    quick = os.environ.get("MOR_BENCH_QUICK") == "1"
    job = make_job(game, "Ada", "hard", budget=2 if quick else None)   # the default budget of a 4-player table
    stop, decided = threading.Event(), []
    pool = None
    if mode != "none":
        pool = BotPool(default_config(), processes=(mode == "process"))
        ready = threading.Event()
        def again(answer):
            if answer is not None and not stop.is_set():
                decided.append(answer.seconds)
                ready.set()
                pool.submit(job, again)
        pool.submit(job, again)
        ready.wait(60)               # the worker is up and has decided once
        decided.clear()
    rng = random.Random(1)
    times = []
    c0, t0 = time.process_time(), time.perf_counter()
    for i in range(20 if quick else 360):   # 6 s at 60 frames a second
        pos = (rng.randrange(1600), rng.randrange(900))
        ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))]
        t = time.perf_counter()
        app.frame(0.016, ev)
        took = time.perf_counter() - t
        times.append(took * 1000)
        time.sleep(max(0.0, 1 / 60 - took))
    cpu = 100 * (time.process_time() - c0) / (time.perf_counter() - t0)
    stop.set()
    if pool is not None:
        pool.close()
    times = sorted(times[len(times) // 12:])
    print(json.dumps({"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95)], "cpu": cpu,
                      "decisions": len(decided)}))

if __name__ == "__main__":
    main(sys.argv[1])
"""


def bot_frames(mode: str) -> dict:
    """Frames of the board while the hard bot thinks: ``mode`` none, thread or process."""
    out = subprocess.run([sys.executable, "-c", BOT_FRAMES, mode], env=ENV, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bots_part(rounds: int = 3, side_by_side: int = 1) -> dict:
    """The three modes, interleaved ``rounds`` times (the machine's load varies); each figure is
    the median of its rounds (``side_by_side``: modes measured at once, for ``--quick`` only)."""
    runs: dict[str, list[dict]] = {"none": [], "thread": [], "process": []}
    with ThreadPoolExecutor(side_by_side) as pool:
        for _ in range(rounds):
            for m, res in zip(runs, pool.map(bot_frames, runs)):
                runs[m].append(res)
    res = {m: {k: sorted(r[k] for r in rs)[len(rs) // 2] for k in rs[0]} for m, rs in runs.items()}
    for m, r in res.items():
        print(f"board at 60 fps, the hard bot thinking {'nowhere' if m == 'none' else 'in a ' + m}: "
              f"frame p50 {r['p50']:.2f} ms, p95 {r['p95']:.2f} ms; UI process CPU {r['cpu']:.0f} % of a core; "
              f"{r['decisions']} decisions")
    return {"bot_frame_p95_none_ms": round(res["none"]["p95"], 2),
            "bot_frame_p95_thread_ms": round(res["thread"]["p95"], 2),
            "bot_frame_p95_process_ms": round(res["process"]["p95"], 2),
            "bot_ui_cpu_none_pct": round(res["none"]["cpu"], 1),
            "bot_ui_cpu_thread_pct": round(res["thread"]["cpu"], 1),
            "bot_ui_cpu_process_pct": round(res["process"]["cpu"], 1),
            "bot_decisions_thread": res["thread"]["decisions"], "bot_decisions_process": res["process"]["decisions"]}


def idle(which: str, seconds: float) -> dict:
    out = subprocess.run([sys.executable, "-c", IDLE, which, str(seconds)], env=ENV, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


WHOLE = """
import os, random, sys, tempfile, time, json
sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"], "tools"))
os.environ["MOR_CONFIG_DIR"] = os.environ["MOR_DATA_DIR"] = tempfile.mkdtemp()
import pygame
from game.settings import BOT_PACES
from game.scenes.app import App
from game.scenes.catalog import register_scenes
register_scenes()
from game.scenes.board import BoardScene
from game.scenes.game_over import GameOverScene
from game.scenes import memory
from walk import Walk

def status(pid="self"):
    out = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(("VmRSS", "VmHWM")):
                out[line[:5]] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return out

def children_rss():
    pids = open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split()
    return sum(status(p).get("VmRSS", 0) for p in pids)

BOT_PACES["normal"] = 0.0
if os.environ.get("MOR_BENCH_QUICK") == "1":
    import game.client.hint
    game.client.hint.HINT_BUDGET = 2        # (a hint in a blink: the quick run checks the way, not the figures)
w, h = int(sys.argv[1]), int(sys.argv[2])
most_turns = int(sys.argv[3]) if len(sys.argv) > 3 else 0     # 0: to the game's end
# a real window when the driver is a real one (x11 on $DISPLAY): SDL's window surface and its
# libraries are the player's memory too; the dummy driver draws into a plain surface
app = App(headless=os.environ.get("SDL_VIDEODRIVER") == "dummy", size=(w, h))
driver = pygame.display.get_driver()
app.settings.confirm_end_turn = False
walk = Walk(app)
app.on_frame.remove(walk._record)       # the walk keeps no copies of frames: they are not the game's memory
from game.scenes.title import TitleScene
app.stack.push(TitleScene(app))
walk.frames(3)
walk.press("Play against the computer")
walk.click(app.stack.top.widgets["count_3"].rect.center)
for i in range(3):
    walk.click(app.stack.top.widgets[f"level_{i}_medium"].rect.center)   # the level a player meets first
walk.click(app.stack.top.widgets["start"].rect.center)
walk.until(lambda: app.stack.top.session is not None)   # "Setting up the table…" is drawn first
session = app.stack.top.session
from game.scenes.leaders import LeaderChoiceScene
from game.scenes.resources import ResourceChoiceScene
walk.until(lambda: isinstance(app.stack.top, LeaderChoiceScene))
leaders = app.stack.top
for i in (0, 2):
    walk.click(leaders.card_rects[i].center)
walk.click(leaders.widgets["confirm"].rect.center)
walk.until(lambda: app.stack.top is not leaders, 30)
if isinstance(app.stack.top, ResourceChoiceScene):
    res = app.stack.top
    kind = next(iter(res.token_rects))
    for _ in range(res.count):
        walk.click(res.token_rects[kind].center)
    walk.click(res.widgets[f"shelf_{kind}_{res.valid_shelves(kind)[-1]}"].rect.center)
    walk.click(res.widgets["confirm"].rect.center)
walk.until(lambda: isinstance(app.stack.top, (BoardScene, GameOverScene)), 60)
rng = random.Random(5)
turns, cached, children = 0, 0, 0
board = vm = None
def look():     # the player moves the mouse over the board while the bots play
    global cached, children
    app.frame(1 / 60, [pygame.event.Event(pygame.MOUSEMOTION, pos=(rng.randrange(w), rng.randrange(h)),
                                          rel=(0, 0), buttons=(0, 0, 0))])
    cached = max(cached, memory.cached_bytes())
    children = max(children, children_rss())
    time.sleep(0.002)
    return False
while not isinstance(app.stack.top, GameOverScene) and not (most_turns and turns >= most_turns):
    board, vm = app.stack.top, session.vm
    walk.until(lambda: look() or vm.my_turn or isinstance(app.stack.top, GameOverScene)
               or getattr(board, "over_for", None) is not None, 120)
    if getattr(board, "over_for", None) is not None:    # the last moves, seen on the board
        walk.press("See the scores")
    if isinstance(app.stack.top, GameOverScene):
        break
    for _ in range(2):      # the player asks for a hint and confirms it, as QA plays
        if vm.game["isMandatoryActionDone"]:
            break
        version = session.version
        walk.click(board.buttons["hint"].rect.center)
        walk.until(lambda: look() or board.plan is not None, 60)
        walk.click(board.buttons["confirm"].rect.center)
        if board.confirm_dialog is not None:
            walk.click(board.confirm_dialog.confirm_button.rect.center)
        end = time.monotonic() + 30
        while session.version == version and time.monotonic() < end:
            look()
        if board.plan is not None:      # a plan that could not be sent: dropped (Esc)
            walk.key(pygame.K_ESCAPE)
    if not vm.game["isMandatoryActionDone"]:    # a leader played or shelves swapped: a market line then
        line = next(hit.rect.center for hit in board.hits if hit.target == ("line", turns % 2 == 0, turns % 3))
        walk.click(line)
        walk.click(board.buttons["confirm"].rect.center)
        if board.confirm_dialog is not None:
            walk.click(board.confirm_dialog.confirm_button.rect.center)
    walk.until(lambda: look() or vm.game["isMandatoryActionDone"] or not isinstance(app.stack.top, BoardScene)
               or board.over_for is not None, 60)
    if isinstance(app.stack.top, BoardScene) and board.over_for is None:
        walk.click(board.buttons["end"].rect.center)
        walk.until(lambda: look() or not vm.game["isMandatoryActionDone"] or not isinstance(app.stack.top, BoardScene)
                   or board.over_for is not None, 60)
    turns += 1
walk.frames(10)
over = status()
del board, vm, session, leaders
if isinstance(app.stack.top, GameOverScene):
    walk.press("Back to the title")
walk.frames(10)
title = status()
print(json.dumps({"turns": turns, "last": type(app.stack.top).__name__, "rss": over["VmHWM"], "driver": driver,
                  "rss_over": over["VmRSS"], "rss_title": title["VmRSS"], "children": children,
                  "cached": cached / 2**20, "budget": memory.budget_bytes() / 2**20}))
"""


def whole_game(size: tuple[int, int] = (1600, 900), most_turns: int = 0) -> dict:
    """The whole game's figures at ``size`` (``most_turns``: stopped after that many turns of the player)."""
    out = subprocess.run([sys.executable, "-c", WHOLE, *map(str, size), str(most_turns)], env=REAL,
                         capture_output=True, text=True)
    if out.returncode:      # the game's own traceback, not the bench's
        sys.exit(f"the whole game at {size[0]}x{size[1]} stopped:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def say_whole(size: str, wg: dict) -> None:
    print(f"a whole 4-player game against 3 medium bots at {size}, video driver {wg['driver']} "
          f"({wg['turns']} turns of the player, then {wg['last']}): "
          f"peak RSS {wg['rss']:.1f} MB, {wg['rss_over']:.1f} MB on the game-over page, {wg['rss_title']:.1f} MB "
          f"back on the title; the bots' worker {wg['children']:.0f} MB; cached pictures at most "
          f"{wg['cached']:.0f} MB (budgets {wg['budget']:.0f} MB)")


def first_frame(tries: int = 3) -> float:
    best = []
    for _ in range(tries):
        env = {**ENV, "MOR_T0": repr(time.time())}
        out = subprocess.run([sys.executable, "-c", FIRST_FRAME], env=env, capture_output=True, text=True, check=True)
        best.append(float(out.stdout.strip().splitlines()[-1]))
    return min(best)


def frames() -> dict:
    out = subprocess.run([sys.executable, "-c", FRAMES], env=ENV, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    ap.add_argument("--bots-only", action="store_true", help="only the frames while a bot thinks")
    ap.add_argument("--game-only", action="store_true", help="only the whole game's memory (at both sizes)")
    ap.add_argument("--quick", action="store_true", help="every part, briefly: a check that the bench runs")
    ap.add_argument("--dummy", action="store_true",
                    help="the whole game with SDL's dummy driver even when $DISPLAY is set")
    args = ap.parse_args()
    if args.quick:
        for env in (ENV, REAL):
            env["MOR_BENCH_QUICK"] = "1"
        args.idle_seconds = min(args.idle_seconds, 0.5)
    if os.environ.get("DISPLAY") and not args.dummy:
        REAL.pop("SDL_VIDEODRIVER", None)
    if args.bots_only:
        print(json.dumps(bots_part()))
        return
    if args.game_only:
        res = {}
        for size in ((1600, 900), (1920, 1080)):
            wg = whole_game(size)
            say_whole(f"{size[0]}x{size[1]}", wg)
            res[f"{size[0]}x{size[1]}"] = wg
        print(json.dumps({"game_driver": res["1600x900"]["driver"], "game_peak_rss_mb": round(res["1600x900"]["rss"], 1),
                          "game_over_rss_mb": round(res["1600x900"]["rss_over"], 1),
                          "title_after_game_rss_mb": round(res["1600x900"]["rss_title"], 1),
                          "game_peak_rss_1920_mb": round(res["1920x1080"]["rss"], 1),
                          "title_after_game_rss_1920_mb": round(res["1920x1080"]["rss_title"], 1),
                          "game_turns": res["1600x900"]["turns"],
                          "bots_worker_rss_mb": round(res["1600x900"]["children"], 1),
                          "cached_pictures_mb": round(res["1600x900"]["cached"], 1),
                          "load_avg": round(os.getloadavg()[0], 2)}))
        return
    if args.quick:      # the parts side by side (each is its own process): a check of the way, not figures
        with ThreadPoolExecutor(3) as pool:
            parts = [pool.submit(first_frame, 1), pool.submit(frames), pool.submit(bots_part, 1, 3),
                     pool.submit(whole_game, most_turns=1), pool.submit(idle, "title", args.idle_seconds),
                     pool.submit(idle, "board", args.idle_seconds)]
            ff, fr, bots, whole, title, board = (part.result() for part in parts)
        whole_hd = whole
    else:               # one part at a time: each measures the machine as a player's would be
        ff = first_frame(3)
        fr = frames()
        bots = bots_part(3)
        whole = whole_game()
        whole_hd = whole_game((1920, 1080))
        title, board = idle("title", args.idle_seconds), idle("board", args.idle_seconds)
    print(f"first frame: {ff:.3f} s (best of 3)")
    print(f"4-player board at 1600x900: p50 {fr['p50']:.2f} ms, p95 {fr['p95']:.2f} ms; peak RSS {fr['rss']:.0f} MB")
    for size, wg in (("1600x900", whole),) if args.quick else (("1600x900", whole), ("1920x1080", whole_hd)):
        say_whole(size, wg)
    print(f"idle, {args.idle_seconds:g} s without input: title {title['cpu']:.2f} % of a core ({title['frames']} frames), "
          f"board {board['cpu']:.2f} % ({board['frames']} frames)")
    print(f"frames that redraw the whole board (after a change): p50 {fr['redraw_p50']:.2f} ms, "
          f"p95 {fr['redraw_p95']:.2f} ms")
    print(json.dumps({"first_frame_s": round(ff, 3), "frame_p50_ms": round(fr["p50"], 2),
                      "frame_p95_ms": round(fr["p95"], 2), "peak_rss_mb": round(max(fr["rss"], whole["rss"]), 1),
                      "redraw_p50_ms": round(fr["redraw_p50"], 2), "redraw_p95_ms": round(fr["redraw_p95"], 2),
                      "idle_cpu_title_pct": round(title["cpu"], 2), "idle_cpu_board_pct": round(board["cpu"], 2),
                      "game_peak_rss_mb": round(whole["rss"], 1), "game_over_rss_mb": round(whole["rss_over"], 1),
                      "title_after_game_rss_mb": round(whole["rss_title"], 1),
                      "game_peak_rss_1920_mb": None if args.quick else round(whole_hd["rss"], 1),
                      "bots_worker_rss_mb": round(whole["children"], 1), "quick": args.quick,
                      "game_driver": whole["driver"], "load_avg": round(os.getloadavg()[0], 2),
                      "cached_pictures_mb": round(whole["cached"], 1), **bots}))


if __name__ == "__main__":
    main()
