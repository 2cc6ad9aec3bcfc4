"""Connections opened and closed in a loop: what does the server keep of them?

Starts ``server.py`` as its own process, reads its idle RSS, then opens and closes ``--cycles``
connections (half of them send a ``ReqJoin`` before they close, so they enter and leave the
waiting list), from ``--parallel`` threads, as fast as the machine allows (or at ``--rate``
connections a second). It reads the server's RSS right after the churn and again ``--settle``
seconds later. The target (issue 20): within 10 MB of idle once settled, whatever the rate.

Prints a line per phase, then as its LAST line one JSON object: ``cycles``, ``seconds``,
``cycles_per_s``, ``idle_rss_mb``, ``after_rss_mb``, ``settled_rss_mb``, ``growth_mb`` (settled
minus idle), ``refused`` (connections the server would not take), ``errors``, ``load``.

Usage: ``python bench/server_churn.py [--cycles 20000] [--parallel 4] [--rate 0] [--settle 30]``
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lib.server_process import ServerProcess  # noqa: E402


def churn(port: int, n: int, rate: float, counts: dict[str, int], lock: threading.Lock, tag: int) -> None:
    t0 = time.monotonic()
    for i in range(n):
        if rate > 0:
            ahead = t0 + i / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            try:
                if i % 2:
                    c.sendall(b'{"type":"ReqJoin","nickname":"c%d_%d"}\n' % (tag, i))
                first = c.recv(200)
                if b"ErrProtocol" in first:
                    with lock:
                        counts["refused"] += 1
            finally:
                c.close()
        except OSError:
            with lock:
                counts["errors"] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=20_000)
    ap.add_argument("--parallel", type=int, default=4, help="threads opening and closing connections")
    ap.add_argument("--rate", type=float, default=0.0, help="connections a second in all (0: as fast as it goes)")
    ap.add_argument("--settle", type=float, default=30.0, help="seconds to wait before the last reading")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mor-churn-"))
    server = ServerProcess(tmp, None)
    counts = {"refused": 0, "errors": 0}
    lock = threading.Lock()
    try:
        time.sleep(1.0)
        idle = server.rss_mb()
        print(f"idle: {idle:.1f} MB", flush=True)
        per = args.cycles // args.parallel
        rate = args.rate / args.parallel if args.rate > 0 else 0.0
        threads = [threading.Thread(target=churn, args=(server.port, per, rate, counts, lock, k), daemon=True)
                   for k in range(args.parallel)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.monotonic() - t0
        after = server.rss_mb()
        print(f"{per * args.parallel} cycles in {seconds:.1f} s: {after:.1f} MB", flush=True)
        time.sleep(args.settle)
        settled = server.rss_mb()
        print(f"{args.settle:g} s later: {settled:.1f} MB", flush=True)
        alive = server.alive()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    cycles = per * args.parallel
    print(json.dumps({"cycles": cycles, "seconds": round(seconds, 2), "cycles_per_s": round(cycles / seconds),
                      "idle_rss_mb": round(idle, 1), "after_rss_mb": round(after, 1),
                      "settled_rss_mb": round(settled, 1), "growth_mb": round(settled - idle, 1),
                      "refused": counts["refused"], "errors": counts["errors"] + (0 if alive else 1),
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
