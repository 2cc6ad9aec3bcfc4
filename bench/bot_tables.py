"""Bot tables admitted at pace (issue 20, section 6): how many games of bots the server admits,
and how long a bot's turn takes with that many.

One in-process server (its loop on a thread, its bots thinking in a worker process, the default
``--bot-delay`` of 0.6 s between two bot moves of a game). Every ``--every`` seconds one more
person asks for a game of four with three bots of ``--level`` (``ReqNewGame``, as the head of
the waiting list), until the server refuses one (``ErrNewGame``: its bots keep the pace of the
games under way, ``--bot-load``) or ``--max-tables`` are running. Each person plays their own
turns at once (the engine's random policy), so the games go at the bots' pace. Then, with as many
tables as were admitted, the bots' turns are timed for ``--seconds``: from the moment the turn
passes to a bot (in play, not in the setup) to the moment it passes on, read off each game every
20 ms. ``--bot-load 0`` lifts the admission, to see what more tables would cost.

Prints progress lines, then as its LAST line one JSON object: ``admitted`` (tables),
``refused`` (the words, or null), ``turns`` (bot turns timed), ``turn_p50_s``, ``turn_p95_s``,
``turn_max_s``, ``bot_load`` (the workers' share of time thinking, as the server measures it,
and its p95 decision wait), ``level``, ``load`` (the load average at the end).

Usage: ``python bench/bot_tables.py [--level hard] [--every 8] [--seconds 60] [--bot-load 0.7]``
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_bots import play_own_turns, wait_for  # noqa: E402

from game.netcode.client import Connection  # noqa: E402
from game.netcode.server import Server  # noqa: E402
from game.netcode.server_options import ServerOptions  # noqa: E402
from game.rules.components import default_config  # noqa: E402
from game.rules.engine import SETUP  # noqa: E402


def table(server, nick, level, stop, rng, answer):
    """One person and three bots; the person plays their turns at once until ``stop``. ``answer``
    gets the server's answer to the game asked for (UpdateGame or ErrNewGame)."""
    c = Connection(*server.address, timeout=5, heartbeat_interval=5)
    try:
        c.send({"type": "ReqJoin", "nickname": nick, "token": ""})
        wait_for(c, lambda m: m.get("type") == "UpdateBookedSeats")
        c.send({"type": "ReqNewGame", "playersCount": 4, "bots": [level] * 3})
        first = wait_for(c, lambda m: m.get("type") in ("UpdateGame", "ErrNewGame"))
        answer.append(first)
        if first["type"] != "UpdateGame":
            return
        play_own_turns(c, server.room_of(nick), nick, stop, rng)
    finally:
        c.close()


def watch(server, stop, turns, since):
    """Time the bots' turns of every game (every 20 ms): (start, seconds) into ``turns``."""
    current: dict[int, tuple[str, float]] = {}
    while not stop.is_set():
        now = time.monotonic()
        with server.lock:
            rooms = [r for r in server.rooms.values() if r.bots]
        for r in rooms:
            with r.lock:
                g = r.game
                who = "" if g.ended or g.phase == SETUP else g.current_player.nickname
            was = current.get(r.id)
            if was is not None and was[0] != who:
                if was[0] in r.bots and was[1] >= since[0]:
                    turns.append((was[1], now - was[1]))
                was = None
            if was is None and who:
                current[r.id] = (who, now)
        time.sleep(0.02)


def pct(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 3) if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--every", type=float, default=8.0, help="seconds between two tables asked for")
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds the turns are timed, once full")
    ap.add_argument("--max-tables", type=int, default=12)
    ap.add_argument("--bot-load", type=float, default=ServerOptions.bot_load)
    args = ap.parse_args()
    server = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, bot_processes=True, seed=7,
                                                    max_per_address=0, tables_per_address=0, bots_per_address=0,
                                                    max_bots=0, bot_load=args.bot_load, status_interval=0))
    server.start()
    stop = threading.Event()
    turns: list[tuple[float, float]] = []
    since = [float("inf")]
    watcher = threading.Thread(target=watch, args=(server, stop, turns, since), daemon=True)
    watcher.start()
    threads = []
    refused = None
    try:
        for i in range(args.max_tables + 1):
            answer: list[dict] = []
            t = threading.Thread(target=table, args=(server, f"Host{i}", args.level, stop, random.Random(i), answer),
                                 daemon=True)
            t.start()
            end = time.monotonic() + 30
            while not answer and time.monotonic() < end:
                time.sleep(0.02)
            if not answer or answer[0]["type"] != "UpdateGame":
                refused = answer[0].get("reason", "ErrNewGame") if answer else "no answer"
                print(f"table {i + 1} refused: {refused}", flush=True)
                break
            threads.append(t)
            load, _each, wait = server.bot_load()
            print(f"table {i + 1} admitted (workers {100 * load:.0f}% busy, decision wait p95 {wait:.2f} s)",
                  flush=True)
            if len(threads) >= args.max_tables:
                break
            time.sleep(args.every)
        since[0] = time.monotonic()
        print(f"timing the bots' turns at {len(threads)} tables for {args.seconds:.0f} s", flush=True)
        time.sleep(args.seconds)
        load, _each, wait = server.bot_load()
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=10)
        server.stop()
    secs = [s for _at, s in turns]
    print(json.dumps({
        "admitted": len(threads), "refused": refused, "turns": len(secs), "turn_p50_s": pct(secs, 0.5),
        "turn_p95_s": pct(secs, 0.95), "turn_max_s": round(max(secs), 3) if secs else 0.0,
        "bot_load": {"busy": round(load, 3), "wait_p95_s": round(wait, 3)}, "level": args.level,
        "load": [round(x, 2) for x in os.getloadavg()],
    }))


if __name__ == "__main__":
    main()
