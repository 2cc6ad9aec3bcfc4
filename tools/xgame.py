"""Play a whole 4-player game against 3 bots in a REAL window (an X display) and record the
client's memory and idle CPU as a player meets them.

    DISPLAY=:9 .venv/bin/python tools/xgame.py --size 1600x900 --out notes/bench/x-1600.jsonl

The game runs as ``main.py`` runs it: ``App(size=...)`` and its real frame loop ``App.run`` on the
display's window, with the player's settings (bots at their normal pace, the End-turn question).
A driver thread plays the player's seat with the X server's pointer and keyboard (``xdotool``),
as a person would: Play against the computer, 3 opponents (medium by default), two leaders, the
starting resources, then each turn *Hint* -> *Confirm* (-> yes), and *End turn*. When the hint
gives no main action (e.g. a leader played, or shelves rearranged) it asks again; after three
hints without one it takes a market line by its arrow and Enter (so a turn where Produce and End
turn are both greyed never stalls). At the end: *See the scores*, the game-over page, *Back to the
title*. The driver only reads the scenes to know where to click (like ``tools/walk.py``); every
input goes through X.

Each line of ``--out`` is one JSON object: ``{"at": "round", "round": n, "rss_mb", "hwm_mb",
"worker_mb", "load"}`` at the start of each of the player's turns (one round of the table), and
``{"at": "idle", "where": "board"|"game_over"|"title", "cpu_pct", "frames", "rss_mb", "hwm_mb", "load"}``
for 10 s (``--idle``) without input with the pointer parked on empty backdrop; the last line
sums it up (``peak_hwm_mb``, the rounds, ``creep_mb_per_round`` as a least-squares slope of RSS
over rounds 5..end). ``--census`` adds, per round, the count of live Python objects by type and
the caches' bytes (costs time: for finding what grows, not for the figures).

Two of these can run at once on one display side by side (``--at X,Y`` places the window): the
pointer is shared, so every click holds a lock file (``/tmp/xgame-pointer.lock``).
"""
from __future__ import annotations

import argparse
import fcntl
import gc
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOCK = "/tmp/xgame-pointer.lock"


def status(pid: int | str = "self") -> dict[str, float]:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS", "VmHWM")):
                    out[line[:5]] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return out


def children_rss() -> float:
    total = 0.0
    me = os.getpid()
    try:
        pids = open(f"/proc/{me}/task/{me}/children").read().split()
    except OSError:
        return 0.0
    for p in pids:
        total += status(p).get("VmRSS", 0.0)
    return total


def cpu_seconds() -> float:
    with open("/proc/self/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> float:
    return round(os.getloadavg()[0], 2)


class Driver:
    """The player's seat, by the X pointer and keyboard."""

    def __init__(self, app, args) -> None:
        self.app = app
        self.args = args
        self.win = None
        self.out = open(args.out, "a") if args.out else None
        self.lines: list[dict] = []
        self.error: str | None = None

    # ------------------------------------------------------------ output
    def emit(self, **row) -> None:
        row = {"size": self.args.size, "commit": self.args.commit, **row}
        self.lines.append(row)
        text = json.dumps(row)
        print(text, flush=True)
        if self.out:
            self.out.write(text + "\n")
            self.out.flush()

    # ------------------------------------------------------------ X input
    def xdo(self, *words: str) -> None:
        subprocess.run(["xdotool", *words], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def click(self, pos, hold: float = 0.06) -> None:
        x, y = int(pos[0]), int(pos[1])
        with open(LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.xdo("mousemove", "--window", str(self.win), str(x), str(y))
            time.sleep(0.12)
            self.xdo("mousedown", "1")
            time.sleep(hold)
            self.xdo("mouseup", "1")
            time.sleep(0.08)
        time.sleep(0.25)

    def key(self, name: str) -> None:
        with open(LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.xdo("mousemove", "--window", str(self.win), "3", "3")   # the focus follows the pointer
            self.xdo("key", "--window", str(self.win), name)
        time.sleep(0.3)

    def park(self) -> None:
        """The pointer on the window's top left corner (the backdrop: no hover, no tooltip)."""
        with open(LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.xdo("mousemove", "--window", str(self.win), "2", "2")

    def shot(self, name: str) -> None:
        subprocess.run(["import", "-window", str(self.win), f"/tmp/xgame-{name}.png"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # ------------------------------------------------------------ reading the screen
    @property
    def top(self):
        return self.app.stack.top

    def kind(self) -> str:
        return type(self.top).__name__

    def until(self, cond, timeout: float, what: str) -> None:
        end = time.monotonic() + timeout
        while True:
            try:
                if cond():
                    return
            except Exception:   # the main thread was changing what we read: look again
                pass
            if time.monotonic() > end:
                raise TimeoutError(f"timed out waiting for {what} (at {self.kind()})")
            time.sleep(0.05)

    def button(self, label: str):
        import pygame_gui
        top = self.top
        for el in list(top.ui.get_sprite_group().sprites()):
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible and el.is_enabled \
                    and str(el.text).startswith(label):
                return el.rect.center
        return None

    def press(self, label: str, timeout: float = 20.0) -> None:
        self.until(lambda: self.button(label) is not None, timeout, f"a button {label!r}")
        self.click(self.button(label))

    def answer_questions(self) -> None:
        """An AskScene on top (End turn? discard?): its first answer (yes)."""
        for _ in range(3):
            top = self.top
            if type(top).__name__ != "AskScene":
                return
            b = top.confirm_button
            if b is None:
                return
            self.click(b.rect.center)
            time.sleep(0.3)

    # ------------------------------------------------------------ measuring
    def rss_row(self, **row) -> None:
        st = status()
        self.emit(**row, rss_mb=round(st.get("VmRSS", 0), 1), hwm_mb=round(st.get("VmHWM", 0), 1),
                  worker_mb=round(children_rss(), 1), load=load())

    def idle(self, where: str) -> None:
        self.park()
        time.sleep(3.0)          # LINGER and any flash after the last input
        f0, c0, t0 = self.app.drawn, cpu_seconds(), time.perf_counter()
        time.sleep(self.args.idle)
        f1, c1, t1 = self.app.drawn, cpu_seconds(), time.perf_counter()
        st = status()
        self.emit(at="idle", where=where, cpu_pct=round(100 * (c1 - c0) / (t1 - t0), 2), frames=f1 - f0,
                  rss_mb=round(st.get("VmRSS", 0), 1), hwm_mb=round(st.get("VmHWM", 0), 1), load=load())

    def census(self, rnd: int) -> None:
        from collections import Counter

        from game.scenes import memory
        counts = Counter(type(o).__name__ for o in gc.get_objects())
        if self.prev_census is not None:
            grew = {k: v - self.prev_census.get(k, 0) for k, v in counts.items() if v - self.prev_census.get(k, 0)}
            top = dict(sorted(grew.items(), key=lambda kv: -abs(kv[1]))[:15])
        else:
            top = {}
        self.prev_census = counts
        import pygame
        seen: dict[int, tuple[int, str]] = {}
        for o in gc.get_objects():
            for r in gc.get_referents(o):
                if isinstance(r, pygame.Surface) and id(r) not in seen:
                    seen[id(r)] = (r.get_width() * r.get_height() * r.get_bytesize(), type(o).__name__)
        holders = Counter()
        for size, holder in seen.values():
            holders[holder] += size
        rollup = {}
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if parts[0] in ("Rss:", "Anonymous:", "Shared_Clean:", "Private_Clean:", "Private_Dirty:"):
                    rollup[parts[0][:-1]] = round(int(parts[1]) / 1024, 1)
        row = dict(at="census", round=rnd, objects=sum(counts.values()), grew=top,
                   surfaces=len(seen), surfaces_mb=round(sum(s for s, _ in seen.values()) / 2**20, 2),
                   surface_holders_mb={k: round(v / 2**20, 2) for k, v in holders.most_common(6)},
                   smaps=rollup, cached_mb=round(memory.cached_bytes() / 2**20, 2),
                   caches={k.rsplit(".", 1)[-1]: v["count"] for k, v in memory.caches().items() if v["count"]})
        if self.args.trace:
            import tracemalloc
            snap = tracemalloc.take_snapshot()
            if self.prev_snap is not None:
                row["trace"] = [f"{d.traceback[0].filename.rsplit('/', 2)[-1]}:{d.traceback[0].lineno} "
                                f"{d.size_diff / 1024:+.0f} KB ({d.count_diff:+d})"
                                for d in snap.compare_to(self.prev_snap, "lineno")[:12]]
            row["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 2)
            self.prev_snap = snap
        self.emit(**row)

    prev_census = None

    def heap(self, rnd: int) -> None:
        """Where the resident memory is (smaps, by kind of mapping) and what glibc's arenas hold
        (``malloc_info``: the bytes each arena has from the system, and how many of them are free)."""
        import ctypes
        import re

        from game.scenes import memory
        kinds: dict[str, float] = {}
        anon_regions = 0
        name = ""
        with open("/proc/self/smaps") as f:
            for line in f:
                first = line.split(None, 1)[0]
                if "-" in first and not first.endswith(":"):
                    parts = line.split()
                    path = parts[5] if len(parts) > 5 else ""
                    name = ("heap" if path == "[heap]" else "anon" if path == "" else
                            "shm" if path.startswith("/SYSV") or "(deleted)" in line else
                            "stack" if path.startswith("[stack") else "file")
                    if name == "anon":
                        anon_regions += 1
                elif first == "Rss:":
                    kinds[name] = kinds.get(name, 0.0) + int(line.split()[1]) / 1024
        libc = ctypes.CDLL("libc.so.6")
        libc.fopen.restype = ctypes.c_void_p
        libc.fclose.argtypes = [ctypes.c_void_p]
        libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
        path = f"/tmp/xgame-malloc-{os.getpid()}.xml"
        fp = libc.fopen(path.encode(), b"w")
        libc.malloc_info(0, fp)
        libc.fclose(fp)
        xml = open(path).read()
        os.unlink(path)
        tail = xml[xml.rfind("</heap>"):]
        total = lambda key: int(m.group(1)) if (m := re.search(rf'<total type="{key}" count="\d+" size="(\d+)"', tail)) else 0
        sysm = re.search(r'<system type="current" size="(\d+)"', tail)
        self.emit(at="heap", round=rnd, smaps_mb={k: round(v, 1) for k, v in kinds.items()}, anon_regions=anon_regions,
                  arenas=xml.count("<heap nr="), malloc_system_mb=round(int(sysm.group(1)) / 2**20, 1) if sysm else None,
                  malloc_free_mb=round((total("fast") + total("rest")) / 2**20, 1),
                  mmapped_mb=round(total("mmap") / 2**20, 1), threads=threading.active_count(),
                  cached_mb=round(memory.cached_bytes() / 2**20, 1),
                  caches_mb={k.rsplit(".", 1)[-1]: round(v["bytes"] / 2**20, 2)
                             for k, v in memory.caches().items() if v["bytes"] > 2**19})
    prev_snap = None

    # ------------------------------------------------------------ playing
    def run(self) -> None:
        try:
            self._run()
        except Exception:
            self.error = traceback.format_exc()
            print(self.error, file=sys.stderr, flush=True)
        finally:
            self.app.running = False
            self.app.wake()

    def watch(self) -> None:
        """Every 0.1 s: when the peak (VmHWM) rose, by how much and on which scene (``--watch``)."""
        last = 0.0
        while self.app.running:
            hwm = status().get("VmHWM", 0.0)
            if hwm >= last + 1.0:
                self.emit(at="peak", hwm_mb=round(hwm, 1), scene=self.kind(), round=self.round,
                          scenes=[type(s).__name__ for s in list(self.app.stack.scenes)])
                last = hwm
            time.sleep(0.1)

    round = 0

    def _run(self) -> None:
        import pygame
        if self.args.watch:
            threading.Thread(target=self.watch, daemon=True).start()
        self.until(lambda: self.app.drawn > 2, 30, "the first frame")
        self.win = pygame.display.get_wm_info()["window"]
        time.sleep(1.0)
        self.rss_row(at="title")
        self.press("Play against the computer")
        self.until(lambda: self.kind() == "VersusScene", 10, "the versus page")
        time.sleep(0.5)
        vs = self.top
        self.click(vs.widgets["count_3"].rect.center)
        for i in range(3):
            self.click(vs.widgets[f"level_{i}_{self.args.level}"].rect.center)
        self.click(vs.widgets["start"].rect.center)
        self.until(lambda: self.kind() == "LeaderChoiceScene", 30, "the leader choice")
        time.sleep(1.0)
        leaders = self.top
        for i in (0, 2):
            self.click(leaders.card_rects[i].center)
        self.click(leaders.widgets["confirm"].rect.center)
        self.until(lambda: self.top is not leaders, 30, "after the leaders")
        if self.kind() == "ResourceChoiceScene":
            time.sleep(0.8)
            res = self.top
            kind = next(iter(res.token_rects))
            for _ in range(res.count):
                self.click(res.token_rects[kind].center)
            self.click(res.widgets[f"shelf_{kind}_{res.valid_shelves(kind)[-1]}"].rect.center)
            self.click(res.widgets["confirm"].rect.center)
        del vs, leaders   # the driver keeps no scene the game has left (its widgets' pictures with it)
        res = None
        self.until(lambda: self.kind() in ("BoardScene", "GameOverScene"), 60, "the board")
        board = self.top
        vm = board.session.vm
        rnd = 0
        idle_round = self.args.idle_round
        while True:
            self.until(lambda: self.kind() != "BoardScene" or board.over_for is not None
                       or (vm.my_turn and board.plan is None and self.kind() == "BoardScene"), 600, "my turn")
            if self.kind() != "BoardScene" or board.over_for is not None:
                break
            rnd += 1
            self.round = rnd
            time.sleep(0.3)
            self.rss_row(at="round", round=rnd)
            if self.args.census:
                self.census(rnd)
            if self.args.heap:
                self.heap(rnd)
            if rnd == idle_round:
                self.idle("board")
            self.play_turn(board, vm)
        self.until(lambda: board.over_for is not None or self.kind() == "GameOverScene", 30, "the end")
        if self.kind() == "BoardScene":
            time.sleep(1.5)
            self.press("See the scores", 30)
        self.until(lambda: self.kind() == "GameOverScene", 30, "the game-over page")
        time.sleep(2.0)
        self.rss_row(at="game_over", round=rnd)
        if self.args.heap:
            self.heap(rnd)
        self.idle("game_over")
        del board, vm
        self.press("Back to the title")
        self.until(lambda: self.kind() == "TitleScene", 30, "the title")
        time.sleep(2.0)
        self.rss_row(at="title_after", round=rnd)
        if self.args.heap:
            self.heap(rnd)
        self.idle("title")
        rows = [r for r in self.lines if r.get("at") == "round"]
        xs = [r["round"] for r in rows if r["round"] >= 5]
        ys = [r["rss_mb"] for r in rows if r["round"] >= 5]
        slope = None
        if len(xs) > 2:
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        idles = {r["where"]: r["cpu_pct"] for r in self.lines if r.get("at") == "idle"}
        st = status()
        self.emit(at="summary", rounds=rnd, peak_hwm_mb=round(st.get("VmHWM", 0), 1),
                  game_over_rss_mb=next(r["rss_mb"] for r in self.lines if r.get("at") == "game_over"),
                  title_after_rss_mb=next(r["rss_mb"] for r in self.lines if r.get("at") == "title_after"),
                  worker_max_mb=max((r.get("worker_mb", 0) for r in self.lines), default=0),
                  creep_mb_per_round=None if slope is None else round(slope, 3),
                  idle_cpu_pct=idles, driver=os.environ.get("SDL_VIDEODRIVER") or "x11",
                  display=os.environ.get("DISPLAY"), load=load())

    def main_done(self, board) -> bool:
        g = board.session.vm.game
        return bool(g["isMandatoryActionDone"])

    def play_turn(self, board, vm) -> None:
        from game.scenes.board import BoardScene  # noqa: F401
        version = board.session.version
        for _attempt in range(3):
            if self.main_done(board) or not vm.my_turn:
                break
            self.until(lambda: board.buttons["hint"].is_enabled and board.buttons["hint"].visible, 30, "Hint")
            self.click(board.buttons["hint"].rect.center)
            try:
                self.until(lambda: board.plan is not None, 60, "the hint's plan")
            except TimeoutError:
                continue
            try:
                self.until(lambda: board.buttons["confirm"].is_enabled, 10, "Confirm")
                version = board.session.version
                self.click(board.buttons["confirm"].rect.center)
                time.sleep(0.3)
                self.answer_questions()
                self.until(lambda: board.session.version != version or board.plan is None, 20, "the move sent")
            except TimeoutError as e:   # a plan that cannot be sent as it is: dropped (Esc)
                self.shot(f"stuck-{self.args.size}")
                self.emit(at="stuck", what=str(e))
                self.key("Escape")
                self.answer_questions()
            time.sleep(0.4)
        if not self.main_done(board) and vm.my_turn and self.kind() == "BoardScene":
            self.take_market_line(board)
        if board.over_for is not None or self.kind() != "BoardScene":
            return
        self.until(lambda: self.main_done(board), 30, "the main action done")
        self.until(lambda: board.buttons["end"].is_enabled and board.buttons["end"].visible, 20, "End turn")
        self.click(board.buttons["end"].rect.center)
        time.sleep(0.3)
        self.answer_questions()
        self.until(lambda: not vm.my_turn or board.over_for is not None or self.kind() != "BoardScene", 30,
                   "the turn passed")

    def take_market_line(self, board) -> None:
        """A market line by its arrow, then Enter (the suggested placement; yes to a discard)."""
        from game.client.board_input import Line
        arrows = [h.rect.center for h in list(board.hits) if isinstance(h.target, Line)]
        self.click(arrows[0])
        self.until(lambda: board.plan is not None, 10, "the market plan")
        self.key("Return")
        self.answer_questions()
        if board.plan is not None:
            self.key("Return")
            self.answer_questions()
        self.until(lambda: self.main_done(board), 20, "the market line taken")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1600x900")
    ap.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    ap.add_argument("--out", default=None, help="append the JSON lines to this file")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of each idle window")
    ap.add_argument("--idle-round", type=int, default=5, help="the round whose turn starts with an idle window")
    ap.add_argument("--at", default=None, help="X,Y: where the window goes on the display")
    ap.add_argument("--census", action="store_true", help="count live objects and cached pictures each round")
    ap.add_argument("--watch", action="store_true", help="say on which scene the peak rises (1 MB steps)")
    ap.add_argument("--heap", action="store_true", help="where the resident memory is, each round (cheap)")
    ap.add_argument("--trace", action="store_true", help="with --census: tracemalloc's growth per round too")
    ap.add_argument("--commit", default=None)
    args = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        ap.error("needs an X display (DISPLAY)")
    if args.commit is None:
        args.commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                                     capture_output=True, text=True).stdout.strip()
    home = tempfile.mkdtemp(prefix="xgame-")   # a fresh player: settings and saves of its own
    os.environ["MOR_CONFIG_DIR"] = os.path.join(home, "config")
    os.environ["MOR_DATA_DIR"] = os.path.join(home, "data")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.at:
        os.environ["SDL_VIDEO_WINDOW_POS"] = args.at
    w, h = (int(v) for v in args.size.split("x"))
    if args.trace:
        import tracemalloc
        tracemalloc.start(4)
    import logging
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()
    from game.scenes.title import TitleScene
    app = App(size=(w, h))
    driver = Driver(app, args)
    threading.Thread(target=driver.run, daemon=True).start()
    app.run(TitleScene(app))
    return 1 if driver.error else 0


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()
    sys.exit(main())
