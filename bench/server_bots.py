"""Bots on the server do not slow the other games: the latency of a game of two people, alone
and then beside games where hard bots think without pause.

One in-process server (its loop on a thread) plays a 2-player game of people in a closed loop
(each request sent when the answer to the previous one has come; the requests are chosen by the
engine's random policy). First alone for ``--seconds``, then for as long again beside
``--bot-games`` games of one person and three bots of ``--level`` (bot delay 0), their bots
thinking in worker processes (``--threads``: threads of the server's own process, to compare).
The people in the bot games play their own turns at once.

Prints progress lines, then as its LAST line one JSON object: ``alone_p50_ms``,
``alone_p95_ms``, ``beside_bots_p50_ms``, ``beside_bots_p95_ms`` (per request of the people's
game, send to its UpdateAction), ``bot_moves`` (bot requests applied meanwhile), ``requests``
(of the people's game in each part), ``workers`` ("processes" or "threads"), ``level``.

Usage: ``python bench/server_bots.py [--seconds S] [--bot-games N] [--level hard] [--threads]``
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.netcode.client import Connection  # noqa: E402
from game.netcode.server import Server  # noqa: E402
from game.netcode.server_options import ServerOptions  # noqa: E402
from game.rules.components import default_config  # noqa: E402
from game.rules.playout import choose  # noqa: E402


def my_move(room, nick, rng):
    with room.lock:
        g = room.game
        if g.ended:
            return None
        p = g.player(nick)
        if g.phase == "setup":
            if p.chose_leaders and p.chose_resources:
                return None
        elif g.current_player.nickname != nick:
            return None
        return choose(g, nick, rng)


def wait_for(conn, pred, timeout=30.0):
    end = time.monotonic() + timeout
    while True:
        m = conn.get(max(0.01, end - time.monotonic()))
        if pred(m):
            return m


def join(server, nick):
    c = Connection(*server.address, timeout=5, heartbeat_interval=60)
    c.send({"type": "ReqJoin", "nickname": nick, "token": ""})
    wait_for(c, lambda m: m.get("type") == "UpdateBookedSeats")
    return c


def people_games(server, prefix, seconds, rng):
    """Games of two people in a closed loop, one after the other, for ``seconds``; the latencies (s)."""
    out = []
    end = time.monotonic() + seconds
    k = 0
    while time.monotonic() < end:
        k += 1
        out += people_game(server, [f"{prefix}{k}a", f"{prefix}{k}b"], end - time.monotonic(), rng)
    return out


def people_game(server, names, seconds, rng):
    """Play a game of people in a closed loop for ``seconds``; the latencies (s) of its requests."""
    conns = {n: join(server, n) for n in names}
    conns[names[0]].send({"type": "ReqNewGame", "playersCount": len(names)})
    for c in conns.values():
        wait_for(c, lambda m: m.get("type") == "UpdateGame")
    room = server.room_of(names[0])
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end and not room.game.ended:
        for n in names:
            action = my_move(room, n, rng)
            if action is None:
                continue
            t0 = time.perf_counter()
            conns[n].send(action)
            wait_for(conns[n], lambda m: m.get("type", "").startswith("Err")
                     or (m.get("type") == "UpdateAction" and m.get("player") == n))
            out.append(time.perf_counter() - t0)
    for c in conns.values():
        c.close()
    return out


def bot_game(server, nick, level, stop, rng, counter):
    """One person and three bots; the person plays their turns at once until ``stop``."""
    c = join(server, nick)
    c.send({"type": "ReqNewGame", "playersCount": 4, "bots": [level] * 3})
    wait_for(c, lambda m: m.get("type") == "UpdateGame")
    play_own_turns(c, server.room_of(nick), nick, stop, rng)
    c.close()


def play_own_turns(c, room, nick, stop, rng):
    """``nick`` plays each of its turns at once on connection ``c`` until ``stop`` or the end."""
    while not stop.is_set() and not room.game.ended:
        action = my_move(room, nick, rng)
        if action is not None:
            c.send(action)
            wait_for(c, lambda m: m.get("type", "").startswith("Err")
                     or (m.get("type") == "UpdateAction" and m.get("player") == nick))
        else:
            try:
                c.get(0.05)
            except Exception:
                pass


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--bot-games", type=int, default=2)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--threads", action="store_true")
    args = ap.parse_args()
    server = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, bot_delay=0.0,
                                                    bot_processes=not args.threads, seed=7,
                                                    max_per_address=0, tables_per_address=0,
                                                    bots_per_address=0, max_bots=0))
    server.start()
    rng = random.Random(1)
    try:
        print(f"the people's game alone for {args.seconds:.0f} s", flush=True)
        alone = people_games(server, "Ann", args.seconds, rng)
        stop = threading.Event()
        counter: list[int] = []
        threads = [threading.Thread(target=bot_game, args=(server, f"Host{i}", args.level, stop,
                                                            random.Random(i), counter), daemon=True)
                   for i in range(args.bot_games)]
        for t in threads:
            t.start()
        time.sleep(2.0)   # the bots are under way (and the worker processes started)
        print(f"beside {args.bot_games} games of {args.level} bots for {args.seconds:.0f} s", flush=True)
        beside = people_games(server, "Cy", args.seconds, rng)
        with server.lock:
            counter.append(sum(1 for r in server.rooms.values() for h in r.game.history
                               if r.bots and h[0] == "apply" and h[1] in r.bots))
        stop.set()
        for t in threads:
            t.join(timeout=30)
    finally:
        server.stop()
    print(json.dumps({
        "alone_p50_ms": round(pct(alone, 0.5), 3), "alone_p95_ms": round(pct(alone, 0.95), 3),
        "beside_bots_p50_ms": round(pct(beside, 0.5), 3), "beside_bots_p95_ms": round(pct(beside, 0.95), 3),
        "bot_moves": sum(counter), "requests": [len(alone), len(beside)],
        "workers": "threads" if args.threads else "processes", "level": args.level,
        "mean_alone_ms": round(statistics.mean(alone) * 1000, 3) if alone else 0.0,
    }))


if __name__ == "__main__":
    main()
