"""The server's request path without the network: CPU per request from a request line to its
replies queued and its log line written.

``server_load.py`` measures the whole system over loopback, where the kernel's TCP work and the
load generator share the figures and the host's noise moves them by tens of percent. This script
isolates what the server's own Python code costs: it builds a real :class:`~game.netcode.server.Server`
(never started: no sockets are polled), seats two players per game on socket pairs, and feeds
each game's requests to the loop's own line handler (``_handle_line``), round-robin over the
games as the loop would, with a real log in a temporary data directory (so each request includes
its ``write``). The replies queued for each player are counted and dropped instead of sent.

The requests are whole random games (the engine's random policy: every kind of request, setup to
the end), recorded first on a copy of each game, so the server accepts every one of them; an
error reply would be reported as one.

Prints a few lines, then as its LAST line one JSON object: ``requests``, ``us_per_request``
(mean wall time per request), ``p50_us``, ``p99_us``, ``bytes_per_request`` (replies queued, all
players), ``errors``.

Usage: ``python bench/server_path.py [--games 100] [--seed 1] [--repeat 3]``
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.netcode.framing import encode  # noqa: E402
from game.netcode.connection import Session  # noqa: E402
from game.netcode.server import Server  # noqa: E402
from game.netcode.server_options import ServerOptions  # noqa: E402
from game.rules import default_config  # noqa: E402
from game.rules.engine import Game  # noqa: E402
from game.rules.playout import steps  # noqa: E402


def record(config, nicks: list[str], seed: int) -> list[tuple[str, bytes]]:
    """A whole random game as (nickname, request line) pairs."""
    game = Game.new(config, nicks, seed)
    script = []
    for nick, action in steps(game, random.Random(seed)):
        game.apply(nick, action)
        script.append((nick, encode(action.to_dict())[:-1]))
    return script


def run_once(config, scripts: list[list[tuple[str, bytes]]], seeds: list[int]) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="mor-path-"))
    pairs: list[socket.socket] = []
    try:
        server = Server(config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp / "data"))
        server._loop_thread_id = threading.get_ident()   # we are the loop: pushes are direct
        tables = []
        for g, (script, seed) in enumerate(zip(scripts, seeds)):
            nicks = [f"g{g}a", f"g{g}b"]
            game = Game.new(config, nicks, seed)
            tokens = {n: "" for n in nicks}
            gid = server.store.next_id()
            room = server.games.new_room(gid, game, server.store.create(gid, config, game, tokens), tokens)
            sessions = {}
            for i, nick in enumerate(nicks):
                a, b = socket.socketpair()
                pairs += (a, b)
                s = Session(server, a, ("bench", i), len(pairs))
                s.nickname = nick
                s.room = room
                server.by_nick[nick] = s
                sessions[nick] = s
            room.start(nicks)
            tables.append((sessions, iter(script)))
        drop(server)
        handle = server._handle_line
        times: list[float] = []
        queued = errors = 0
        perf = time.perf_counter
        gc.collect()
        gc.freeze()
        start = perf()
        live = tables
        while live:
            nxt = []
            for sessions, it in live:
                step = next(it, None)
                if step is None:
                    continue
                nick, line = step
                t0 = perf()
                handle(sessions[nick], line)
                times.append(perf() - t0)
                q, e = drop(server)
                queued += q
                errors += e
                nxt.append((sessions, it))
            live = nxt
        wall = perf() - start
        gc.unfreeze()
        times.sort()
        n = len(times)
        return {"requests": n, "us_per_request": round(1e6 * wall / n, 2),
                "p50_us": round(1e6 * times[n // 2], 2), "p99_us": round(1e6 * times[int(n * 0.99)], 2),
                "bytes_per_request": round(queued / n), "errors": errors}
    finally:
        for s in pairs:
            s.close()
        shutil.rmtree(tmp, ignore_errors=True)


def drop(server: Server) -> tuple[int, int]:
    """Empty every output buffer as a flush would, without sending: (bytes, error replies)."""
    queued = errors = 0
    for s in server._dirty:
        queued += len(s.out)
        errors += s.out.count(b'"type":"Err')
        s.out.clear()
        s.dirty = False
    server._dirty.clear()
    return queued, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="2-player games played at once")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    args = ap.parse_args()
    config = default_config()
    seeds = [args.seed * 1000 + g for g in range(args.games)]
    scripts = [record(config, [f"g{g}a", f"g{g}b"], seed) for g, seed in enumerate(seeds)]
    best = None
    for i in range(args.repeat):
        r = run_once(config, scripts, seeds)
        print(f"run {i + 1}: {r['requests']} requests, {r['us_per_request']:.1f} us/request "
              f"(p50 {r['p50_us']:.1f}, p99 {r['p99_us']:.1f}), {r['bytes_per_request']} B queued "
              f"per request, errors {r['errors']}", flush=True)
        if best is None or r["us_per_request"] < best["us_per_request"]:
            best = r
    print(json.dumps(best))


if __name__ == "__main__":
    main()
