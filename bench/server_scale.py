"""Server scale benchmark: many 4-player tables played like people, in an open loop.

``server_load.py`` is a closed loop (every game always has a request in flight). Here each
request comes after a think time drawn between ``--think`` seconds (2 to 8 by default), like
people: the load is the number of tables over the mean think time, whatever the server's speed,
and what is measured is how long a request waits for its answer at that load.

``server.py`` runs as its own process with the operator's limits, except those per address
(every honest client comes from 127.0.0.1). ``--players`` clients connect and form
``--players / 4`` four-player tables through the waiting list, play their setup, then each plays
``--turns`` turns (a main action and ``ReqEndTurn``, each after a think time), and quits.
With ``--attack``, during the play phase, four attackers run alongside (issue 20, section 2):
a tiny-line flood (one connection from 127.0.0.2 pouring empty lines), ``--silent`` silent
joiners (from 127.0.0.3: they join the waiting list and only answer heartbeats), a flood of
heartbeat requests from 127.0.0.4 that never reads its answers, and a flood of connections
from 127.0.0.5, each opened and closed at once (``--churn-rate`` a second, from a process of its
own so that the load generator keeps its own time).

``--watch-share`` of the tables (10 % by default) are watched, each by ``--watchers`` watchers
(10) that read everything they are sent (issue 31): ``watchers`` says how many watched, were
refused or dropped, and what they received.

Prints what it does, then as its LAST line one JSON object: ``players``, ``tables``,
``requests``, ``requests_per_s``, ``p50_ms``, ``p99_ms`` (send to the arrival of the answer in
the client's socket), ``app_p99_ms``, ``server_peak_rss_mb``, ``server_cpu_pct``, ``errors``,
``attack`` (what the attackers sent and were answered), ``load`` (the load average at the end:
other work on the machine counts in the figures); and to tell where time goes,
``server_cpu_us_per_req`` (the server's CPU over the play phase, per request answered),
``stalls`` (the server's ``--stall-log`` lines of the play phase: how many wake-ups took longer
than ``--stall-ms``, the longest on the clock and in the loop's CPU, and the timers that ran in
them), ``loadgen_cpu_pct`` and ``loadgen_late_p99_ms`` (how late the load generator acted on the
end of a think time: when it is busy, this grows first).

Targets (issue 20, section 6): 10,000 players at 2,500 tables, p99 <= 25 ms, RSS <= 400 MB,
0 errors; with the attackers, p99 <= 50 ms. On a shared 2-core machine, scale ``--players`` down
to what the load generator (one Python thread) can drive, and say at which load it ran.

``--turn-based 20000 --online 2000`` measures instead 20,000 stored turn-based games held while
2,000 players are online over TLS (issue 31; :mod:`bench.lib.turn_scale` says how).

Usage: ``python bench/server_scale.py [--players 2000] [--turns 4] [--think 2,8] [--attack]
[--server-log FILE] [--server OTHER_TREE/server.py --stall-ms 0]``;
``python bench/server_scale.py --turn-based 20000 --online 2000 [--seconds 120] [--think 10,30]
[--keep DIR] [--wake-batch 4]``
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lib.load_generator import LoadGenerator, percentile  # noqa: E402
from bench.lib.server_process import ServerProcess  # noqa: E402

OPERATOR = ["--line-rate", "50", "--lobby-time", "1800"]
"""The operator's defaults again, after server_load's LIFTED (the last flag given wins); the
per-address limits stay lifted, since every honest client comes from 127.0.0.1, and so does the
time to join: the load generator connects everyone first, then joins them a few at a time."""


CHURN = r"""
import signal, socket, struct, sys, time
port, rate = int(sys.argv[1]), float(sys.argv[2])
done = []
signal.signal(signal.SIGTERM, lambda *a: done.append(1))
n = errors = 0
start = time.monotonic()
while not done:
    wait = start + n / rate - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    try:
        c = socket.socket()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # no TIME_WAIT
        c.bind(("127.0.0.5", 0))
        c.connect(("127.0.0.1", port))
        c.close()
    except OSError:
        errors += 1
    n += 1
print(n, errors, flush=True)
"""
"""The connection flood: opened and closed at ``rate`` a second until SIGTERM; prints how many."""


class Attackers:
    """The attackers of section 2, on their own thread (the connection flood in its own
    process), until :meth:`finish`."""

    def __init__(self, port: int, silent: int, churn_rate: float = 500.0) -> None:
        self.port = port
        self.silent = silent
        self.churn_rate = churn_rate
        self.churn: subprocess.Popen | None = None
        self.churned = self.churn_errors = 0
        self.stop = threading.Event()
        self.flood_sent = 0
        self.flood_answered = 0
        self.silent_joined = 0
        self.blind_sent = 0
        self.thread = threading.Thread(target=self.run, name="attackers", daemon=True)

    def start(self) -> None:
        self.thread.start()
        if self.churn_rate > 0:
            self.churn = subprocess.Popen([sys.executable, "-c", CHURN, str(self.port), str(self.churn_rate)],
                                          stdout=subprocess.PIPE, text=True)

    def finish(self) -> dict:
        """Stop every attacker; what they sent and were answered."""
        self.stop.set()
        self.thread.join(10)
        if self.churn is not None:
            self.churn.terminate()
            out, _ = self.churn.communicate(timeout=10)
            self.churned, self.churn_errors = (int(x) for x in (out.split() or ["0", "0"])[:2])
            self.churn = None
        return self.report()

    def run(self) -> None:
        socks = []
        try:
            flood = socket.socket()
            flood.bind(("127.0.0.2", 0))
            flood.connect(("127.0.0.1", self.port))
            flood.setblocking(False)
            blind = socket.socket()
            blind.bind(("127.0.0.4", 0))
            blind.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            blind.connect(("127.0.0.1", self.port))
            blind.setblocking(False)
            for i in range(self.silent):
                s = socket.socket()
                s.bind(("127.0.0.3", 0))
                s.connect(("127.0.0.1", self.port))
                s.sendall(b'{"type":"ReqJoin","nickname":"silent%d"}\n' % i)
                s.setblocking(False)
                socks.append(s)
                self.silent_joined += 1
            chunk = b"\n" * 8192
            beats = b'{"type":"ReqHeartbeat"}\n' * 200
            last_beat = time.monotonic()
            while not self.stop.is_set():
                try:
                    self.flood_sent += flood.send(chunk)
                except BlockingIOError:
                    time.sleep(0.005)
                except OSError:
                    pass
                try:
                    while data := flood.recv(1 << 20):
                        self.flood_answered += data.count(b"\n")
                except (BlockingIOError, OSError):
                    pass
                try:
                    self.blind_sent += blind.send(beats)
                except (BlockingIOError, OSError):
                    pass
                if time.monotonic() - last_beat > 5:   # the silent ones stay alive, nothing more
                    last_beat = time.monotonic()
                    for s in socks:
                        try:
                            s.send(b'{"type":"ReqHeartbeat"}\n')
                            while s.recv(65536):
                                pass
                        except OSError:
                            pass
        finally:
            for s in socks:
                s.close()

    def report(self) -> dict:
        return {"flood_bytes_sent": self.flood_sent, "flood_lines_answered": self.flood_answered,
                "silent_joiners": self.silent_joined, "blind_bytes_sent": self.blind_sent,
                "connections_opened_and_closed": self.churned, "connection_flood_errors": self.churn_errors}


WATCH = r"""
import json, selectors, signal, socket, sys
port, tables, per_table = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
done = []
signal.signal(signal.SIGTERM, lambda *a: done.append(1))
out = {"tables": tables, "per_table": per_table, "watching": 0, "refused": 0, "dropped": 0, "bytes": 0}
names, start = [], 0
ask = socket.create_connection(("127.0.0.1", port))
f = ask.makefile("rb")
while len(names) < tables:
    ask.sendall(b'{"type":"ReqWatchList","from":%d}\n' % start)
    while (m := json.loads(f.readline()))["type"] != "UpdateWatchList":
        pass
    names += [t["name"] for t in m["tables"]]
    start += len(m["tables"])
    if not m["tables"] or start >= m["total"]:
        break
ask.close()
sel = selectors.DefaultSelector()
for t, name in enumerate(names[:tables]):
    for i in range(per_table):
        s = socket.socket()
        s.bind((f"127.0.1.{1 + t % 250}", 0))    # an address per table: the operator's watch rate holds
        s.connect(("127.0.0.1", port))
        s.sendall(json.dumps({"type": "ReqWatch", "nickname": f"w{t}-{i}", "name": name}).encode() + b"\n")
        r = s.makefile("rb")
        while (m := json.loads(r.readline()))["type"] not in ("UpdateWatching", "ErrWatch"):
            pass
        if m["type"] == "ErrWatch":
            out["refused"] += 1
            s.close()
            continue
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        out["watching"] += 1
print("ready", flush=True)
while not done:
    for key, _ in sel.select(0.2):
        s = key.fileobj
        try:
            data = s.recv(1 << 16)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if not data:
            sel.unregister(s)
            out["dropped"] += 1
            continue
        out["bytes"] += len(data)
        if b'"ReqHeartbeat"' in data:
            try:
                s.send(b'{"type":"ResHeartbeat"}\n')
            except OSError:
                pass
print(json.dumps(out), flush=True)
"""
"""The watchers (issue 31), in a process of their own: ``per_table`` at each of ``tables`` games
under way found in ``ReqWatchList``, each from an address of its table's (127.0.1.N), reading
everything they are sent and answering the heartbeats; prints "ready", then at SIGTERM what
happened as JSON."""


class Watchers:
    """The :data:`WATCH` process: started (and watching) before the play phase, ended after it."""

    def __init__(self, port: int, tables: int, per_table: int = 10) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WATCH, str(port), str(tables), str(per_table)],
                                     stdout=subprocess.PIPE, text=True)
        self.ready = self.proc.stdout.readline().strip() == "ready"   # type: ignore[union-attr]

    def finish(self) -> dict:
        if self.proc.poll() is not None and self.proc.returncode != 0:
            return {"error": f"the watchers' process ended ({self.proc.returncode})"}
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=20)
        report = json.loads(out.strip().splitlines()[-1])
        report["mb_received"] = round(report.pop("bytes") / 2 ** 20, 2)
        return report


STALL = re.compile(r"stall: wake-up of ([\d.]+) ms \(CPU ([\d.]+) ms\): (\d+) ready, (\d+) lines, "
                   r"\d+ connections; ([^;]*)")
RAN = re.compile(r"(\w+) x(\d+) ([\d.]+) ms")


def stall_summary(path: Path, start: int) -> dict:
    """What the server's ``--stall-log`` lines of the play phase say: how many wake-ups took
    longer than the threshold, the longest (on the clock and in CPU time), and for the timers and
    calls that ran in them, how often and how much CPU they took."""
    walls, cpus, lines = [], [], []
    ran: dict[str, list[float]] = {}
    with open(path, "rb") as f:
        f.seek(start)
        for raw in f:
            m = STALL.search(raw.decode(errors="replace"))
            if not m:
                continue
            walls.append(float(m[1]))
            cpus.append(float(m[2]))
            lines.append(int(m[4]))
            for name, n, ms in RAN.findall(m[5]):
                r = ran.setdefault(name, [0, 0.0])
                r[0] += int(n)
                r[1] += float(ms)
    walls.sort()
    cpus.sort()
    return {"count": len(walls), "wall_max_ms": walls[-1] if walls else 0.0,
            "wall_p90_ms": percentile(walls, 0.9), "cpu_max_ms": cpus[-1] if cpus else 0.0,
            "cpu_p90_ms": percentile(cpus, 0.9), "lines_max": max(lines, default=0),
            "ran": {k: [v[0], round(v[1], 1)] for k, v in sorted(ran.items(), key=lambda kv: -kv[1][1])}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2000, help="honest players (a multiple of 4)")
    ap.add_argument("--turns", type=int, default=4, help="turns each player plays")
    ap.add_argument("--think", default="2,8", help="think time range in seconds, 'lo,hi'")
    ap.add_argument("--attack", action="store_true", help="run the attackers alongside")
    ap.add_argument("--silent", type=int, default=500, help="silent joiners with --attack")
    ap.add_argument("--churn-rate", type=float, default=500.0,
                    help="connections a second opened and closed at once, with --attack (0: none)")
    ap.add_argument("--watch-share", type=float, default=0.1,
                    help="share of the tables watched, each by --watchers watchers (issue 31; 0: none)")
    ap.add_argument("--watchers", type=int, default=10, help="watchers at each watched table")
    ap.add_argument("--stall-ms", type=float, default=10.0,
                    help="the server logs every wake-up of its loop longer than this (0: off)")
    ap.add_argument("--server-log", type=Path, default=None, help="keep the server's log (stderr) in this file")
    ap.add_argument("--server", type=Path, default=None,
                    help="run another tree's server.py (a 'before'; give --stall-ms 0 if it has no --stall-log)")
    ap.add_argument("--turn-based", type=int, default=0, metavar="GAMES",
                    help="instead: GAMES stored turn-based games held while --online players play (issue 31)")
    ap.add_argument("--online", type=int, default=2000, help="with --turn-based: players connected")
    ap.add_argument("--seconds", type=float, default=60.0, help="with --turn-based: how long they play")
    ap.add_argument("--keep", type=Path, default=None, help="with --turn-based: make the stored games once, here")
    ap.add_argument("--wake-batch", type=int, default=4, help="with --turn-based: the server's --wake-batch")
    args = ap.parse_args()
    lo, hi = (float(x) for x in args.think.split(","))
    if args.turn_based:
        from bench.lib.turn_scale import run as run_turn_based
        print(json.dumps(run_turn_based(args.turn_based, args.online, args.seconds, (lo, hi), args.keep,
                                        args.wake_batch, args.stall_ms)))
        return
    tables = args.players // 4
    tmp = Path(tempfile.mkdtemp(prefix="mor-scale-"))
    watched = max(1, round(tables * args.watch_share)) if args.watch_share > 0 else 0
    flags = OPERATOR + ["--max-connections", str(args.players + args.silent + watched * args.watchers + 200)]
    if args.stall_ms:
        flags += ["--stall-log", str(args.stall_ms)]
    server = ServerProcess(tmp, None, flags, **({"server": args.server.resolve()} if args.server else {}))
    gen = LoadGenerator("127.0.0.1", server.port, server, args.turns, seed=1, think=1.0, players=4)
    gen.think_range = (lo, hi)
    attackers = None
    watchers = None
    result: dict = {"players": 4 * tables, "tables": tables, "think_s": [lo, hi], "attack": None, "watchers": None}
    try:
        t0 = time.perf_counter()
        gen.connect_all(4 * tables)
        status = gen.lobby(tables, limit=300.0 + tables)
        print(f"{4 * tables} players at {tables} tables: lobby and setup {time.perf_counter() - t0:.1f} s "
              f"({status}), server RSS {server.rss_mb():.1f} MB", flush=True)
        if status != "ok":
            gen.fail_outstanding(f"lobby {status}")
        if watched:
            watchers = Watchers(server.port, watched, args.watchers)
            print(f"{args.watchers} watchers at each of {watched} tables ({'ready' if watchers.ready else 'failed'}), "
                  f"server RSS {server.rss_mb():.1f} MB", flush=True)
        if args.attack:
            attackers = Attackers(server.port, args.silent, args.churn_rate)
            attackers.start()
        cpu0 = sum(server.cpu_seconds())
        gen_cpu0 = time.thread_time()
        stall_from = server.stderr_path.stat().st_size
        t1 = time.perf_counter()
        status = gen.play(limit=120.0 + args.turns * 4 * hi * 1.5)
        play_s = time.perf_counter() - t1
        cpu = sum(server.cpu_seconds()) - cpu0
        gen_cpu = time.thread_time() - gen_cpu0
        stalls = stall_summary(server.stderr_path, stall_from)
        if status != "ok":
            gen.fail_outstanding(f"play {status}")
        if attackers is not None:
            result["attack"] = attackers.finish()
        if watchers is not None:
            result["watchers"] = watchers.finish()
        status = gen.quit_all(limit=60.0)
        if status != "ok":
            gen.fail_outstanding(f"quit {status}")
        lat = sorted(gen.latencies)
        app = sorted(gen.app_latencies)
        result.update({
            "requests": gen.answered, "requests_per_s": round(gen.answered / play_s, 1),
            "p50_ms": round(percentile(lat, 0.5), 2), "p99_ms": round(percentile(lat, 0.99), 2),
            "app_p99_ms": round(percentile(app, 0.99), 2), "max_ms": round(lat[-1], 2) if lat else 0.0,
            "server_peak_rss_mb": round(server.peak_rss_mb, 1), "server_cpu_pct": round(100 * cpu / play_s, 1),
            "server_cpu_us_per_req": round(1e6 * cpu / max(1, gen.answered), 1),
            "loadgen_cpu_pct": round(100 * gen_cpu / play_s, 1),
            "loadgen_late_p99_ms": round(percentile(sorted(gen.late), 0.99), 2),
            "stalls": stalls,
            "play_s": round(play_s, 1), "errors": gen.errors + (0 if server.alive() else 1),
        })
        if gen.error_kinds:
            result["error_kinds"] = gen.error_kinds
    finally:
        if watchers is not None and watchers.proc.poll() is None:
            watchers.proc.kill()
            watchers.proc.wait()
        if attackers is not None:
            attackers.stop.set()
            if attackers.churn is not None:
                attackers.churn.kill()
                attackers.churn.wait()
        gen.close()
        server.stop()
        if args.server_log is not None:
            shutil.copyfile(server.stderr_path, args.server_log)
        shutil.rmtree(tmp, ignore_errors=True)
    result["load"] = os.getloadavg()[0]
    print(f"p50 {result.get('p50_ms')} ms, p99 {result.get('p99_ms')} ms, {result.get('requests')} requests, "
          f"RSS {result.get('server_peak_rss_mb')} MB, errors {result.get('errors')}", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
