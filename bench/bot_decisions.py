"""Computer opponents' thinking time on a fixed set of positions: the same positions every run.

The positions are the views of seeded games played by the medium bot (solo, 2 and 4 players),
taken every few requests where the player has a main action to choose (the decision the hard bot
searches). Each level is asked once per position, with the generator the seat driver would give
it; the time is the processor time of this thread. Since the positions and generators are fixed,
two runs (say, before and after a change to the engine or the bots) time the same decisions, and
``*_requests_digest`` says whether the decisions themselves stayed the same.

Prints one line per level, then as its LAST line one JSON object: per level (``medium_``,
``hard_``): ``decision_p50_ms``, ``decision_p95_ms``, ``decision_mean_ms``, ``requests_digest``
(a fingerprint of every request and reason it gave); then ``positions`` (by table size),
``hard_budget``, ``collector`` (``policy``: the garbage collector set up as in the bots' worker
processes, :mod:`game.runtime`; ``default`` with ``--default-collector``), ``seconds``.

Usage: ``python bench/bot_decisions.py [--levels medium,hard] [--per-table N] [--budget P]
[--repeat R] [--default-collector]`` (``--repeat`` times each decision R times and keeps the
fastest, to damp the noise of a shared machine; default 1).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from game import runtime  # noqa: E402
from game.bots import make_bot  # noqa: E402
from game.bots.arena import who_acts  # noqa: E402
from game.rules.components import default_config  # noqa: E402
from game.rules.engine import PLAY, Game  # noqa: E402
from game.rules.views import player_view  # noqa: E402

TABLES = {1: 40_000, 2: 41_000, 4: 42_000}   # table size -> first seed of its games
STRIDE = 7                                     # a position every STRIDE requests of a game


def positions(config, per_table: int) -> list[tuple[int, dict, str, str]]:
    """(table size, view, nickname, generator seed) of ``per_table`` positions per table size."""
    out = []
    medium = make_bot("medium", config)
    for n, first in TABLES.items():
        got = 0
        seed = first
        while got < per_table:
            nicks = [f"Bot{i + 1}" for i in range(n)]
            game = Game.new(config, nicks, seed)
            counts = dict.fromkeys(nicks, 0)
            step = 0
            while got < per_table:
                nick = who_acts(game)
                if nick is None:
                    break
                view = player_view(game, nick)
                key = f"{seed}:{nick}:{counts[nick]}"
                counts[nick] += 1
                step += 1
                if game.phase == PLAY and not game.main_done and step % STRIDE == 0:
                    out.append((n, view, nick, key))
                    got += 1
                game.apply(nick, medium.decide(view, nick, random.Random(key)).action)
            seed += 1
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="medium,hard")
    ap.add_argument("--per-table", type=int, default=12, help="positions per table size (1, 2, 4 players)")
    ap.add_argument("--budget", type=int, default=None, help="hard's playouts per decision (default: its own)")
    ap.add_argument("--repeat", type=int, default=1, help="time each decision this many times, keep the fastest")
    ap.add_argument("--default-collector", action="store_true",
                    help="leave Python's garbage collector as it comes (default: the policy of the bots' "
                         "worker processes, game/runtime.py, applied once the positions and the bots are ready)")
    args = ap.parse_args(argv)
    config = default_config()
    start = time.perf_counter()
    pos = positions(config, args.per_table)
    out: dict = {}
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    bots = {level: make_bot(level, config, budget=args.budget) for level in levels}
    if not args.default_collector:
        runtime.settle_collector()
    for level in levels:
        bot = bots[level]
        times = []
        h = hashlib.sha256()
        for n, view, nick, key in pos:
            best = None
            for _ in range(max(1, args.repeat)):
                rng = random.Random(key)
                c0 = time.thread_time()
                d = bot.decide(view, nick, rng)
                t = time.thread_time() - c0
                best = t if best is None else min(best, t)
            times.append(best)
            h.update(orjson.dumps([d.action.to_dict(), d.why], option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))
        fig = {f"{level}_decision_p50_ms": round(percentile(times, 0.5) * 1000, 2),
               f"{level}_decision_p95_ms": round(percentile(times, 0.95) * 1000, 2),
               f"{level}_decision_mean_ms": round(sum(times) / len(times) * 1000, 2),
               f"{level}_requests_digest": h.hexdigest()[:16]}
        print(f"{level}: {len(times)} decisions, " + ", ".join(f"{k} {v}" for k, v in fig.items()), flush=True)
        out.update(fig)
    out["positions"] = {str(n): sum(1 for p in pos if p[0] == n) for n in TABLES}
    out["hard_budget"] = args.budget if args.budget is not None else "default"
    out["collector"] = "default" if args.default_collector else "policy"
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
