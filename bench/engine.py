"""Rules-engine benchmark: seeded random legal games, on one core.

Prints a few human-readable lines, then as its LAST line one JSON object:
``solo_games_per_s``, ``four_player_games_per_s`` (complete games per second, random legal
play by :mod:`game.rules.playout`, the request choice included), ``apply_median_us`` and
``apply_p99_us`` (the time of one ``Game.apply`` alone, over every request of those games),
``undo_median_us`` (one ``Game.undo`` in four-player games, once setup is over and before the
last round, its events included: an ``UpdateGame`` per player), ``apply_fastest_median_us`` and
``apply_fastest_p99_us`` (the same requests replayed ``--repeat`` times, each one's fastest
time: what the request costs, without the host's interruptions), and ``default_collector``: the
first five figures again, measured before the others under Python's collector as it comes.

The figures are measured under the collector's policy of every program that plays the game
(:func:`game.runtime.settle_collector`: what start-up loaded frozen, a young generation of
10,000); the human lines also give them under Python's default collector, how often the
collector ran in each case and for how long, and the ``apply`` figures by request kind (its
share of the requests, median and p99), which say where the median and the p99 fall.

Targets (issue 19, 2-core machine, one core, quiet): >= 800 solo games/s, >= 300 four-player
games/s, apply median <= 8 us, p99 <= 40 us, undo median <= 200 us. The figures are times on the
clock: on a shared machine they follow its load (see bench/README.md for figures in processor
time and instruction counts).

Usage: ``python bench/engine.py [--seconds S] [--seeds N] [--repeat R]``
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import runtime  # noqa: E402
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


def apply_times(config, seeds: range) -> tuple[list[float], list[str]]:
    """Each ``apply`` of random games (solo and four players per seed), timed, and its kind."""
    out: list[float] = []
    kinds: list[str] = []
    clock = time.perf_counter_ns
    for seed in seeds:
        for players in (["A"], ["A", "B", "C", "D"]):
            game = Game.new(config, players, seed)
            rng = random.Random(seed ^ 0x5EED)
            size = f" {len(players)}p"
            for nick, action in steps(game, rng):
                t0 = clock()
                game.apply(nick, action)
                out.append((clock() - t0) / 1000)
                kinds.append(type(action).__name__ + size)
    return out, kinds


def fastest_apply_times(config, seeds: range, repeat: int) -> list[float]:
    """The requests of :func:`apply_times` applied again ``repeat`` times to new games, each
    request's fastest time kept: what the request itself costs, the host's interruptions (another
    process, the hypervisor, a timer) left out."""
    games = []
    for seed in seeds:
        for players in (["A"], ["A", "B", "C", "D"]):
            game = Game.new(config, players, seed)
            requests = []
            for nick, action in steps(game, random.Random(seed ^ 0x5EED)):
                game.apply(nick, action)
                requests.append((nick, action))
            games.append((players, seed, requests))
    best: list[float] | None = None
    clock = time.perf_counter_ns
    for _ in range(repeat):
        out = []
        for players, seed, requests in games:
            game = Game.new(config, players, seed)
            for nick, action in requests:
                t0 = clock()
                game.apply(nick, action)
                out.append((clock() - t0) / 1000)
        best = out if best is None else [min(a, b) for a, b in zip(best, out)]
    return best or []


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


class Collections:
    """The cyclic collector's runs while it is installed (``gc.callbacks``): count and time."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.ns = 0
        self._t0 = 0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._t0 = time.perf_counter_ns()
        else:
            self.ns += time.perf_counter_ns() - self._t0
            self.count[info["generation"]] += 1

    def __enter__(self) -> "Collections":
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def p99(xs: list[float]) -> float:
    return sorted(xs)[int(len(xs) * 0.99)]


def measure(config, args: argparse.Namespace) -> dict:
    with Collections() as gcs:
        solo, n_solo = games_per_second(config, ["A"], args.seconds)
        four, n_four = games_per_second(config, ["A", "B", "C", "D"], args.seconds)
        with Collections() as during:
            times, kinds = apply_times(config, range(args.seeds))
        undos = undo_times(config, range(args.seeds // 2 or 1))
    return {"solo": solo, "n_solo": n_solo, "four": four, "n_four": n_four, "times": times, "kinds": kinds,
            "median": statistics.median(times), "p99": p99(times), "undo": statistics.median(undos),
            "n_undo": len(undos), "gc": gcs, "gc_apply": during}


def gc_words(gcs: Collections, applies: int | None = None) -> str:
    young, middle, full = gcs.count
    per = f" ({1000 * young / applies:.2f} a 1,000 requests)" if applies else ""
    return f"young / middle / full collections {young}{per} / {middle} / {full}, {gcs.ns / 1e6:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time spent on each games/s figure")
    ap.add_argument("--seeds", type=int, default=200, help="seeds of the apply figures (half as many for undo)")
    ap.add_argument("--repeat", type=int, default=5, help="replays of the apply figures for the fastest times")
    args = ap.parse_args()
    config = default_config()
    random_game(config, ["A", "B"], seed=0)  # warm up
    default = measure(config, args)   # Python's collector as it comes
    runtime.settle_collector()        # the policy of every program that plays (game/runtime.py)
    m = measure(config, args)
    fastest = sorted(fastest_apply_times(config, range(args.seeds), args.repeat))
    n = len(m["times"])
    print(f"solo: {m['solo']:.0f} games/s over {m['n_solo']} games")
    print(f"4 players: {m['four']:.0f} games/s over {m['n_four']} games")
    print(f"apply: median {m['median']:.1f} us, p99 {m['p99']:.1f} us over {n} requests")
    print(f"undo: median {m['undo']:.1f} us over {m['n_undo']} undos (4 players)")
    print(f"apply, each request's fastest of {args.repeat} replays (the host's interruptions left out): "
          f"median {statistics.median(fastest):.1f} us, p99 {p99(fastest):.1f} us")
    print("apply by request kind (share of the requests, median / p99 us):")
    by: dict[str, list[float]] = {}
    for kind, t in zip(m["kinds"], m["times"]):
        by.setdefault(kind, []).append(t)
    for kind, ts in sorted(by.items(), key=lambda kv: -len(kv[1])):
        print(f"  {kind:26s} {100 * len(ts) / n:5.1f} %  {statistics.median(ts):6.1f} / {p99(ts):6.1f}")
    print(f"collector, the product's policy (game/runtime.py), over the whole measure: {gc_words(m['gc'])}; "
          f"during the apply figures: {gc_words(m['gc_apply'], n)}")
    print(f"collector as Python sets it (no freeze, threshold 700), measured first: solo {default['solo']:.0f}, "
          f"4 players {default['four']:.0f} games/s, apply median {default['median']:.1f} us, "
          f"p99 {default['p99']:.1f} us, undo median {default['undo']:.1f} us; "
          f"over the whole measure: {gc_words(default['gc'])}; "
          f"during the apply figures: {gc_words(default['gc_apply'], n)}")
    print(json.dumps({"solo_games_per_s": round(m["solo"], 1), "four_player_games_per_s": round(m["four"], 1),
                      "apply_median_us": round(m["median"], 2), "apply_p99_us": round(p99(m["times"]), 2),
                      "undo_median_us": round(m["undo"], 2),
                      "apply_fastest_median_us": round(statistics.median(fastest), 2),
                      "apply_fastest_p99_us": round(p99(fastest), 2),
                      "default_collector": {"solo_games_per_s": round(default["solo"], 1),
                                            "four_player_games_per_s": round(default["four"], 1),
                                            "apply_median_us": round(default["median"], 2),
                                            "apply_p99_us": round(default["p99"], 2),
                                            "undo_median_us": round(default["undo"], 2)}}))


if __name__ == "__main__":
    main()
