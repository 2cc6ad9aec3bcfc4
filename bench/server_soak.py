"""Server memory over time: rounds of concurrent games against one long-running server.

``server_load.py`` starts a fresh server for each size; this script keeps one ``server.py``
process (with the frozen heap of a real deployment) and plays ``--rounds`` rounds of
``--games`` concurrent 2-player games against it, each round with new players who play
``--turns`` turns, quit and say goodbye. The server runs with a short ``--grace``, so the games
left unfinished are removed soon after their players leave. After each round (and the janitor's
next pass) the server's RSS is read. A server that frees what finished games held levels off
after the first rounds; one that keeps them grows by the same amount every round.

Prints a line per round, then as its LAST line one JSON object: ``games_per_round``, ``rounds``,
``rss_mb`` (after each round), ``growth_mb_per_round`` (the mean growth over the second half of
the rounds), ``requests``, ``errors``.

Usage: ``python bench/server_soak.py [--rounds 8] [--games 300] [--turns 20]``
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lib.load_generator import LoadGenerator  # noqa: E402
from bench.lib.server_process import ServerProcess  # noqa: E402

GRACE = 0.5   # seconds an abandoned game is kept (the server's default is 600)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=300, help="concurrent 2-player games per round")
    ap.add_argument("--turns", type=int, default=20, help="turns each player plays per round")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mor-soak-"))
    rss: list[float] = []
    requests = errors = 0
    server = ServerProcess(tmp, None, ["--grace", str(GRACE)])
    try:
        for rnd in range(args.rounds):
            gen = LoadGenerator("127.0.0.1", server.port, server, args.turns, seed=rnd + 1, prefix=f"r{rnd}p")
            try:
                gen.connect_all(2 * args.games)
                status = [gen.lobby(args.games, 120.0), gen.play(300.0), gen.quit_all(60.0)]
                if any(st != "ok" for st in status):
                    gen.fail_outstanding(f"round {rnd + 1} {status}")
            finally:
                gen.close()
            requests += gen.answered
            errors += gen.errors + gen.skipped_lines()
            time.sleep(GRACE + 1.5)   # the janitor runs every second
            rss.append(round(server.rss_mb(), 1))
            print(f"round {rnd + 1}: {gen.answered} requests, errors {gen.errors}, server RSS {rss[-1]} MB",
                  flush=True)
            if not server.alive():
                errors += 1
                break
    finally:
        code = server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if code not in (0, None):
        errors += 1
    half = rss[len(rss) // 2:]
    growth = (half[-1] - half[0]) / (len(half) - 1) if len(half) > 1 else 0.0
    print(json.dumps({"games_per_round": args.games, "rounds": len(rss), "rss_mb": rss,
                      "growth_mb_per_round": round(growth, 2), "requests": requests, "errors": errors}))


if __name__ == "__main__":
    main()
