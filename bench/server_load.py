"""Server load benchmark: N concurrent 2-player games played by scripted clients over loopback.

The server runs as its own process (``server.py``), so its memory is its own: its VmRSS is read
from ``/proc/<pid>/status`` every 100 ms and the peak is kept. On a machine with two or more cores
the server is pinned to one core and this load generator to another (``--no-pin`` to let the
scheduler decide). A fresh server and data directory are used for each size.

The load generator is one thread: ``bench/lib/connection_group.py``'s :class:`ConnectionGroup`
(non-blocking sockets with TCP_NODELAY on one selector; it answers ``ReqWelcome`` and
``ReqHeartbeat`` by itself). When it has a core of its own (pinned, the default) it polls without
sleeping during the timed phase, so that the server is not charged for waking it up: on loopback
the sender's ``send`` does the receiver's TCP work and wake-up, which over a real network happen
on the client's machine (measured: the server spends about 15 us less per request).
The clients of one game share a small mirror of it, built from their ``UpdateGame`` and the
updates that follow (market, dev-card grid, each client's own containers and dev slots), and make
only legal requests from it, without any access to the server's state. While playing, only the
connection of the player whose turn it is decodes the updates: the others are *muted* (the client
library still reads every line, answers the server's requests and delivers errors, but drops the
broadcasts undecoded), and the turn passes in seat order after each ``ReqEndTurn`` is answered.
The server's work is the same either way; the load generator's is about a fifth less
(``--no-mute``: every client decodes everything, as a real client does).

* setup: the first 2 leaders of its hand; its starting resources (if any) as Coin in its largest shelf;
* each turn: now and then buy an affordable development card (paid from its shelves, at most 6
  cards so the game does not end), otherwise take the market line that wastes least (discards plus
  faith), placed with the engine's placement rule; then ``ReqEndTurn``. So a turn is 2 requests.

Phases per size N: connect 2N clients and form N games through the single lobby (the head of the
waiting list sends ``ReqNewGame``), then the setup; both untimed. Then the timed play phase:
every game plays ``--turns`` turns per player at once, closed loop (a client sends its next
request as soon as the previous one is answered; ``--think-ms`` adds a pause). Then ``ReqQuit``
and ``ReqGoodbye``, untimed. A phase that stops making progress for 30 s (15 s when quitting) is
abandoned and what it left unanswered is counted as errors; a dead server is reported too.

Prints a few human-readable lines, then as its LAST line one JSON object ``{"runs": [...]}``, one
entry per N with ``games``, ``requests_per_s`` (play-phase requests answered / play-phase wall
time), ``p50_ms``, ``p99_ms`` (latency of one request: from sending it to the arrival of its
final reply, ``UpdateAction`` by this player or the error, in the client's socket: the kernel's
receive timestamp, ``SO_TIMESTAMPNS``, where there is one), ``server_peak_rss_mb`` and ``errors``
(requests answered with an error or never answered, undecodable lines, lost connections, a dead
server), plus diagnostics: ``app_p50_ms`` / ``app_p99_ms`` (the same latency up to the moment
this program read the reply: it adds the time the load generator, busy with other clients' replies,
took to get to it), ``requests``, ``max_ms``, ``play_s``, ``lobby_s``,
``games_ended_early``, ``server_idle_rss_mb``, ``server_threads_peak``, ``setup_p99_ms``, and
over the play phase ``server_cpu_pct`` / ``server_sys_pct`` (percent of one core),
``server_cpu_us_per_req``, ``server_ctxsw_per_req``, ``loadgen_cpu_pct`` (about 100 when it
polls without sleeping), ``loadgen_busy_pct`` (the part of the phase it spent handling messages),
``loadgen_busy_us_per_req``
and ``other_cpu_pct`` (CPU used by everything else on the machine: above ~15 % the figures are
not clean). When
something went wrong: ``error_kinds``, ``status``, ``server_died``, ``failure``.

Targets (2-core machine): 300 concurrent 2-player games at p99 <= 25 ms, server RSS <= 100 MB,
zero errors.

Usage: ``python bench/server_load.py [--sizes 10,100,300] [--turns 20] [--think-ms 0] [--quick]``
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.load_generator import LoadGenerator, percentile  # noqa: E402
from bench.lib.server_process import ServerProcess, machine_busy_seconds  # noqa: E402


def run(games: int, turns: int, seed: int, pin: int | None, think: float = 0.0,
        mute: bool = True) -> dict[str, Any]:
    """One size: a fresh server (pinned to core ``pin`` unless None) and ``games`` games."""
    tmp = Path(tempfile.mkdtemp(prefix="mor-load-"))
    result: dict[str, Any] = {"games": games}
    server = None
    gen = None
    try:
        server = ServerProcess(tmp, pin)
        gen = LoadGenerator("127.0.0.1", server.port, server, turns, seed, think, spin=pin is not None,
                            mute=mute)
        t0 = time.perf_counter()
        gen.connect_all(2 * games)
        lobby_status = gen.lobby(games, limit=120.0 + 0.5 * games)
        lobby_s = time.perf_counter() - t0
        server.sample()
        if lobby_status != "ok":
            gen.fail_outstanding(f"lobby {lobby_status}")
        print(f"  {games} games: lobby + setup {lobby_s:.2f} s ({lobby_status}), "
              f"server RSS {server.rss_mb():.1f} MB", flush=True)

        cpu0, (su0, ss0), sw0 = time.process_time(), server.cpu_seconds(), server.context_switches()
        busy0 = machine_busy_seconds()
        t1 = time.perf_counter()
        play_status = gen.play(limit=300.0 + 2.0 * games) if not gen.server_dead else "server died"
        play_s = time.perf_counter() - t1
        server.sample()
        cpu1, (su1, ss1), sw1 = time.process_time(), server.cpu_seconds(), server.context_switches()
        other = machine_busy_seconds() - busy0 - (cpu1 - cpu0) - (su1 - su0 + ss1 - ss0)
        if not server.alive():
            gen.server_dead = True
        if play_status != "ok":
            gen.fail_outstanding(f"play {play_status}")
        quit_status = gen.quit_all(limit=60.0) if not gen.server_dead else "server died"
        if quit_status != "ok":
            gen.fail_outstanding(f"quit {quit_status}")
        if not server.alive():
            gen.server_dead = True
        if gen.server_dead:
            gen.error("server died")
        skipped = gen.skipped_lines()
        if skipped:
            gen.error("undecodable line", skipped)

        lat = sorted(gen.latencies)
        app = sorted(gen.app_latencies)
        ended = sum(1 for t in gen.tables.values() if any(c.ended for c in t.clients))
        result.update({
            "requests_per_s": round(gen.answered / play_s, 1) if play_s > 0 else 0.0,
            "p50_ms": round(percentile(lat, 0.50), 2),
            "p99_ms": round(percentile(lat, 0.99), 2),
            "server_peak_rss_mb": round(server.peak_rss_mb, 1),
            "errors": gen.errors,
            "requests": gen.answered,
            "max_ms": round(lat[-1], 2) if lat else 0.0,
            "app_p50_ms": round(percentile(app, 0.50), 2),
            "app_p99_ms": round(percentile(app, 0.99), 2),
            "play_s": round(play_s, 2),
            "lobby_s": round(lobby_s, 2),
            "games_ended_early": ended,
            "server_idle_rss_mb": round(server.idle_rss_mb, 1),
            "server_threads_peak": server.peak_threads,
            "setup_p99_ms": round(percentile(sorted(gen.setup_latencies), 0.99), 2),
        })
        if play_s > 0 and gen.answered and not gen.server_dead:   # CPU use during the play phase
            scpu = su1 - su0 + ss1 - ss0
            result.update({
                "server_cpu_pct": round(100 * scpu / play_s, 1),
                "server_sys_pct": round(100 * (ss1 - ss0) / play_s, 1),
                "server_cpu_us_per_req": round(1e6 * scpu / gen.answered, 1),
                "server_ctxsw_per_req": round((sw1 - sw0) / gen.answered, 1),
                "loadgen_cpu_pct": round(100 * (cpu1 - cpu0) / play_s, 1),
                "loadgen_busy_pct": round(100 * gen.busy / play_s, 1),
                "loadgen_busy_us_per_req": round(1e6 * gen.busy / gen.answered, 1),
                "other_cpu_pct": round(max(0.0, 100 * other / play_s), 1),
            })
        if gen.error_kinds:
            result["error_kinds"] = gen.error_kinds
        status = {"lobby": lobby_status, "play": play_status, "quit": quit_status}
        if any(v != "ok" for v in status.values()):
            result["status"] = status
    except Exception as e:  # a broken run still reports
        result.setdefault("requests_per_s", 0.0)
        result.setdefault("p50_ms", 0.0)
        result.setdefault("p99_ms", 0.0)
        result.setdefault("server_peak_rss_mb", round(server.peak_rss_mb, 1) if server else 0.0)
        result["errors"] = (gen.errors if gen else 0) + 1
        result["failure"] = f"{type(e).__name__}: {e}"
    finally:
        if gen is not None:
            gen.close()
        if server is not None:
            died = not server.alive()
            code = server.stop()
            if died:
                result["server_died"] = True
                result["server_exit"] = code
                result["server_stderr"] = server.stderr_tail(800)
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,100,300", help="comma-separated numbers of concurrent games")
    ap.add_argument("--turns", type=int, default=20, help="turns each player plays (2 requests each)")
    ap.add_argument("--quick", action="store_true", help="smoke run: 10 games, 4 turns each")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think-ms", type=float, default=0.0,
                    help="mean pause before each request (uniform 0.5x-1.5x); default 0: closed loop")
    ap.add_argument("--no-pin", action="store_true", help="do not pin server and load generator to cores")
    ap.add_argument("--no-mute", action="store_true",
                    help="every client decodes every update (as a real client does), not only the current player")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    turns = args.turns
    if args.quick:
        sizes, turns = [10], 4
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pin = cores[0] if not args.no_pin and len(cores) >= 2 else None
    if pin is not None:
        os.sched_setaffinity(0, {cores[1]})   # the server gets cores[0], this process cores[1]
    runs = []
    start = time.perf_counter()
    for n in sizes:
        r = run(n, turns, args.seed, pin, args.think_ms / 1000, mute=not args.no_mute)
        runs.append(r)
        print(f"{n} games: {r.get('requests', 0)} requests in {r.get('play_s', 0)} s = "
              f"{r['requests_per_s']:.0f}/s, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
              f"server peak RSS {r['server_peak_rss_mb']:.1f} MB, errors {r['errors']}"
              + (f" {r['error_kinds']}" if r.get("error_kinds") else "")
              + (f" FAILED: {r['failure']}" if r.get("failure") else ""))
        if r.get("play_s", 0) < 0.5:
            continue   # CPU figures come in 10 ms ticks: too coarse to judge a short phase
        if r.get("loadgen_busy_pct", 0) > 85:
            print("  warning: the load generator was near saturation (one core); the server may be "
                  "faster than these figures show", flush=True)
        if r.get("other_cpu_pct", 0) > 15:
            print(f"  warning: other processes used {r['other_cpu_pct']:.0f}% of a core during the "
                  f"play phase; the figures are not clean", flush=True)
    print(f"total {time.perf_counter() - start:.1f} s ({turns} turns per player, "
          f"{'pinned' if pin is not None else 'not pinned'}, think {args.think_ms:g} ms)")
    print(json.dumps({"runs": runs}))


if __name__ == "__main__":
    main()
