"""The turn-based part of ``server_scale.py`` (issue 31): ``--turn-based GAMES`` stored turn-based
games (two players each, past their set-up: :mod:`.turn_games`) held by ``server.py`` while
``--online`` players are connected over TLS, each at one of their games: they take their seat by
key (``ReqJoin {key, game}``), then, each after a think time, make their move (a main action,
then ``ReqEndTurn``) and ask for their games (``ReqMyGames``) now and then until ``--seconds`` are
over. Measured: how long a request waits for its answer (p50, p99), the server's peak RSS, how
long the server takes to answer its first request when it starts with the games stored, and
again once the run is over (a restart).

All the traffic is on 127.0.0.1; one thread drives every player (non-blocking TLS sockets, one
selector). The limits meant for strangers are lifted (every player comes from 127.0.0.1).
"""
from __future__ import annotations

import json
import os
import random
import selectors
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .load_generator import percentile
from .server_process import ServerProcess
from .turn_games import StoredGame, make_stored_games

ARRIVALS = 60.0
"""Seconds over which the players take their seats (people come back over time, not at once): 33
seats taken a second, each a game replayed from its file and its history sent. ``steady`` is
measured on the requests sent after them."""
TURN_LIFTED = ["--tls-handshake-rate", "0", "--keys-per-address", "0", "--turn-tables-per-address", "0",
               "--games-per-key", "0", "--heartbeat", "30"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cert(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class _Server(ServerProcess):
    """``server.py`` given time to bring its stored games back before it listens."""

    def _read_port(self, timeout: float) -> int:
        return super()._read_port(300.0)


def first_answer(port: int, timeout: float = 300.0) -> float:
    """Seconds until the plain port answers a ``ReqTables`` (polled every 20 ms)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b'{"type":"ReqTables"}\n')
                data = b""
                while b"UpdateTables" not in data:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                if b"UpdateTables" in data:
                    return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.02)
    return float("inf")


class Player:
    """One player at one of their games: a non-blocking TLS socket and where it stands."""

    def __init__(self, ctx: ssl.SSLContext, port: int, nick: str, key: str, game: int, move: dict) -> None:
        raw = socket.create_connection(("127.0.0.1", port))
        self.sock = ctx.wrap_socket(raw, server_hostname="127.0.0.1")   # the handshake, blocking: at start
        self.sock.setblocking(False)
        self.nick, self.key, self.game, self.move = nick, key, game, move
        self.buf = b""
        self.out = b""
        self.step = "join"
        self.sent_at = 0.0
        self.due = 0.0
        self.waiting: str | None = None     # what answer is awaited
        self.index = 0

    def send(self, msg: dict[str, Any]) -> None:
        self.out += json.dumps(msg).encode() + b"\n"
        self.flush()

    def flush(self) -> None:
        while self.out:
            try:
                n = self.sock.send(self.out)
            except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
                return
            self.out = self.out[n:]

    def read(self) -> list[dict[str, Any]]:
        while True:
            try:
                chunk = self.sock.recv(65536)
            except (ssl.SSLWantReadError, BlockingIOError):
                break
            if not chunk:
                raise ConnectionError(f"{self.nick}: closed")
            self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        return [json.loads(x) for x in lines if x.strip()]


def run(games: int, online: int, seconds: float, think: tuple[float, float], keep: Path | None = None,
        wake_batch: int = 4, stall_ms: float = 0.0) -> dict[str, Any]:
    """``keep``: a folder where the stored games are made once and kept (a later run with the same
    folder and sizes uses them again, as the restart left them)."""
    work = keep or Path(tempfile.mkdtemp(prefix="turn-scale-"))
    listing = work / f"stored-{games}-{online}.json"
    t = time.monotonic()
    pristine = work / f"stored-{games}-{online}"
    if listing.exists():
        stored = [StoredGame(g["game"], tuple(g["nicknames"]), tuple(g["keys"]), g["mover"], g["move"])
                  for g in json.loads(listing.read_text())]
    else:
        shutil.rmtree(pristine, ignore_errors=True)
        pristine.mkdir(parents=True)
        stored = make_stored_games(pristine, games, max(2, online))
        listing.write_text(json.dumps([g.__dict__ for g in stored]))
    made = time.monotonic() - t
    shutil.rmtree(work / "data", ignore_errors=True)
    shutil.copytree(pristine, work / "data")     # as they were stored (a run moves in them)
    print(f"{games} turn-based games stored in {made:.1f} s", flush=True)
    cert, key = _cert(work)
    tls_port = _free_port()
    args = [*TURN_LIFTED, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-port", str(tls_port),
            "--no-announce", "--wake-batch", str(wake_batch)] + (["--stall-log", str(stall_ms)] if stall_ms else [])
    spawned = time.monotonic()
    server = _Server(work, None, args)
    start_s = time.monotonic() - spawned
    start_s = max(start_s, first_answer(server.port) + 0.0)
    print(f"the server answered {start_s:.1f} s after its start, RSS {server.rss_mb():.0f} MB", flush=True)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    mine: dict[str, Any] = {}
    for g in stored:
        nick = g.nicknames[g.mover]
        mine.setdefault(nick, g)
    chosen = list(mine.items())[:online]
    rng = random.Random(7)
    sel = selectors.DefaultSelector()
    players: list[Player] = []
    for nick, g in chosen:
        p = Player(ctx, tls_port, nick, g.keys[g.mover], g.game, g.move)
        p.index = len(players)
        players.append(p)
        sel.register(p.sock, selectors.EVENT_READ, p)
    print(f"{len(players)} players connected over TLS", flush=True)
    began = time.monotonic()
    steady: list[float] = []
    for p in players:      # they come to their games over half a minute from now (not as they connected)
        p.due = began + rng.uniform(0, ARRIVALS)
    lat: dict[str, list[float]] = {"move": [], "end": [], "games": [], "join": []}
    cpu0 = sum(server.cpu_seconds())
    gen0 = time.process_time()
    errors: list[str] = []
    end = time.monotonic() + seconds
    import heapq
    due = [(p.due, i) for i, p in enumerate(players)]
    heapq.heapify(due)
    while time.monotonic() < end:
        now = time.monotonic()
        while due and due[0][0] <= now:
            p = players[heapq.heappop(due)[1]]
            if p.waiting is None:
                p.sent_at = now
                if p.step == "join":
                    p.send({"type": "ReqJoin", "nickname": p.nick, "token": "", "key": p.key, "game": p.game})
                    p.waiting = "join"
                elif p.step == "move":
                    p.send(p.move)
                    p.waiting = "move"
                elif p.step == "end":
                    p.send({"type": "ReqEndTurn"})
                    p.waiting = "end"
                else:
                    p.send({"type": "ReqMyGames", "key": p.key})
                    p.waiting = "games"
        for p in players:
            if p.out:
                p.flush()
        for sk, _ in sel.select(timeout=0.002):
            p = sk.data
            try:
                msgs = p.read()
            except (ConnectionError, OSError, ValueError) as e:
                errors.append(str(e))
                sel.unregister(p.sock)
                continue
            for m in msgs:
                kind = m.get("type")
                if kind == "ReqHeartbeat":
                    p.send({"type": "ResHeartbeat"})
                    continue
                w = p.waiting
                done = (w == "join" and kind in ("UpdateGame", "ErrTable", "ErrNickname")
                        or w in ("move", "end") and (kind == "UpdateAction" and m.get("player") == p.nick
                                                     or kind.startswith("Err"))
                        or w == "games" and kind in ("UpdateMyGames", "ErrMyGames"))
                if not done:
                    continue
                got = time.monotonic()
                lat[w].append(got - p.sent_at)
                if p.sent_at > began + ARRIVALS + 2:
                    steady.append(got - p.sent_at)
                if kind.startswith("Err"):
                    errors.append(f"{p.nick} {w}: {m}")
                p.waiting = None
                p.step = {"join": "move", "move": "end", "end": "games", "games": "games"}[w]
                if kind.startswith("Err") and w == "move":
                    p.step = "games"
                p.due = got + rng.uniform(*think)
                heapq.heappush(due, (p.due, p.index))
    for p in players:
        try:
            p.sock.close()
        except OSError:
            pass
    peak = server.peak_rss_mb
    rss = server.rss_mb()
    server_cpu = (sum(server.cpu_seconds()) - cpu0) / seconds
    gen_cpu = (time.process_time() - gen0) / seconds
    server.stop()
    spawned = time.monotonic()
    again = _Server(work, None, args)
    restart_s = max(time.monotonic() - spawned, first_answer(again.port))
    again.stop()
    every = sorted(x for v in lat.values() for x in v)
    out = {
        "turn_games": games, "online": len(players), "seconds": seconds, "requests": len(every),
        "p50_ms": round(1000 * percentile(every, 0.5), 2) if every else None,
        "p99_ms": round(1000 * percentile(every, 0.99), 2) if every else None,
        "p99_ms_by_kind": {k: round(1000 * percentile(sorted(v), 0.99), 2) for k, v in lat.items() if v},
        "steady": {"requests": len(steady), "p50_ms": round(1000 * percentile(sorted(steady), 0.5), 2),
                   "p99_ms": round(1000 * percentile(sorted(steady), 0.99), 2)} if steady else None,
        "server_peak_rss_mb": round(peak, 1), "server_rss_mb": round(rss, 1),
        "start_s": round(start_s, 2), "restart_s": round(restart_s, 2), "stored_in_s": round(made, 1),
        "server_cpu_pct": round(100 * server_cpu, 1), "loadgen_cpu_pct": round(100 * gen_cpu, 1),
        "errors": len(errors), "first_errors": errors[:3], "load": round(os.getloadavg()[0], 2),
    }
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return out
