"""Rules-engine benchmark: seeded random legal games, on one core.

Prints a few human-readable lines, then as its LAST line one JSON object:
``solo_games_per_s``, ``four_player_games_per_s`` (complete games per second, random legal
play by :mod:`game.rules.playout`, the request choice included), ``apply_median_us`` and
``apply_p99_us`` (the time of one ``Game.apply`` alone, over every request of those games),
``undo_median_us`` (one ``Game.undo`` in four-player games, once setup is over and before the
last round, its events included: an ``UpdateGame`` per player).

Targets (issue 19, 2-core machine, one core, quiet): >= 800 solo games/s, >= 300 four-player
games/s, apply median <= 8 us, p99 <= 40 us, undo median <= 200 us. The figures are times on the
clock: on a shared machine they follow its load (see bench/README.md for figures in processor
time and instruction counts).

Usage: ``python bench/engine.py [--seconds S]``
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.rules.components import default_config  # noqa: E402
from game.rules.engine import Game  # noqa: E402
from game.rules.playout import random_game, steps  # noqa: E402


def games_per_second(config, players: list[str], seconds: float) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        random_game(config, players, seed=n)
        n += 1
    return n / (time.perf_counter() - start), n


def apply_times(config, seeds: range) -> list[float]:
    out: list[float] = []
    clock = time.perf_counter_ns
    for seed in seeds:
        for players in (["A"], ["A", "B", "C", "D"]):
            game = Game.new(config, players, seed)
            rng = random.Random(seed ^ 0x5EED)
            for nick, action in steps(game, rng):
                t0 = clock()
                game.apply(nick, action)
                out.append((clock() - t0) / 1000)
    return out


def undo_times(config, seeds: range) -> list[float]:
    """Every request of four-player random games that can be taken back is: timed, then replayed."""
    out: list[float] = []
    clock = time.perf_counter_ns
    for seed in seeds:
        game = Game.new(config, ["A", "B", "C", "D"], seed)
        rng = random.Random(seed ^ 0x5EED)
        for nick, action in steps(game, rng):
            game.apply(nick, action)
            if game.can_undo(nick) and not game.last_round:
                t0 = clock()
                game.undo(nick)
                out.append((clock() - t0) / 1000)
                game.apply(nick, action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time spent on each games/s figure")
    args = ap.parse_args()
    config = default_config()
    random_game(config, ["A", "B"], seed=0)  # warm up
    solo, n_solo = games_per_second(config, ["A"], args.seconds)
    four, n_four = games_per_second(config, ["A", "B", "C", "D"], args.seconds)
    times = apply_times(config, range(200))
    times.sort()
    median = statistics.median(times)
    p99 = times[int(len(times) * 0.99)]
    undos = undo_times(config, range(100))
    undo_median = statistics.median(undos)
    print(f"solo: {solo:.0f} games/s over {n_solo} games")
    print(f"4 players: {four:.0f} games/s over {n_four} games")
    print(f"apply: median {median:.1f} us, p99 {p99:.1f} us over {len(times)} requests")
    print(f"undo: median {undo_median:.1f} us over {len(undos)} undos (4 players)")
    print(json.dumps({"solo_games_per_s": round(solo, 1), "four_player_games_per_s": round(four, 1),
                      "apply_median_us": round(median, 2), "apply_p99_us": round(p99, 2),
                      "undo_median_us": round(undo_median, 2)}))


if __name__ == "__main__":
    main()
