"""What a write to the players' store costs the server's loop (``game/netcode/player_store.py``).

The loop writes to SQLite (WAL, ``synchronous=NORMAL``, checkpoints on a thread of their own)
when a key is first seen (one row) and when a rated game ends (its players' ratings, its seats
removed: one transaction). This times both on the caller's thread, as the loop would, with
``--players`` players kept and a checkpoint thread running, and the leaderboard read from memory.

Prints a line per phase, then as its LAST line one JSON object: ``players``, ``add_ms``
(median, p99, max of a new key's write), ``settle_ms`` (the same for a 4-player game's ratings),
``leaderboard_ms`` (median of the top 50 and a place), ``load``.

Usage: ``python bench/ratings_store.py [--players 5000] [--games 2000]``
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from game.netcode import ratings_wire as W  # noqa: E402
from game.netcode.player_store import Change, PlayerStore  # noqa: E402
from game.netcode.ratings import rate  # noqa: E402


def figures(times: list[float]) -> list[float]:
    ordered = sorted(times)
    return [round(statistics.median(ordered) * 1e3, 3), round(ordered[int(len(ordered) * 0.99)] * 1e3, 3),
            round(ordered[-1] * 1e3, 3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mor-ratings-"))
    rng = random.Random(1)
    try:
        store = PlayerStore(tmp / "players.sqlite3", max_rows=args.players + 1)
        store.start_checkpoints(1.0)
        adds = []
        for i in range(args.players):
            t = time.perf_counter()
            store.add(W.make_key(), f"p{i}")
            adds.append(time.perf_counter() - t)
        print(f"{args.players} keys kept: {figures(adds)} ms (median, p99, max)", flush=True)
        players = list(store.by_id.values())
        settles, boards = [], []
        for g in range(args.games):
            seats = rng.sample(players, 4)
            after = rate({str(i): (p.mu, p.sigma) for i, p in enumerate(seats)}, {str(i): i + 1 for i in range(4)})
            changes = [Change(p, *after[str(i)]) for i, p in enumerate(seats)]
            t = time.perf_counter()
            store.settle(g, changes)
            settles.append(time.perf_counter() - t)
            t = time.perf_counter()
            store.top(W.TOP)
            store.place(seats[0])
            boards.append(time.perf_counter() - t)
        print(f"{args.games} games rated: {figures(settles)} ms (median, p99, max)", flush=True)
        store.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps({"players": args.players, "add_ms": figures(adds), "settle_ms": figures(settles),
                      "leaderboard_ms": figures(boards)[0], "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
