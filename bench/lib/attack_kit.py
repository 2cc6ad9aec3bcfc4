"""What every attack of ``bench/server_attacks.py`` is made with: a server in a process of its
own (or in this one), a blocking line client, and the honest player beside an attack
(:func:`beside`: its round trips, a newcomer's solo game after, the server's resident size)."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, script: Path, extra: list[str], prepare=None) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="mor-attack-"))
        self.kept = prepare(self.tmp / "data") if prepare is not None else None   # what is stored before it starts
        self.cert_dir: Path | None = None   # tls_server's certificate, removed with the server
        self.proc = subprocess.Popen(
            [sys.executable, str(script), "--host", "127.0.0.1", "--port", "0", "--data-dir",
             str(self.tmp / "data"), "--log-level", "WARNING", "--no-announce", *extra],
            cwd=str(script.parent), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        line = self.proc.stdout.readline().decode()
        self.port = int(line.rsplit(":", 1)[1])

    def cpu(self) -> float:
        return _cpu(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.cert_dir is not None:
            shutil.rmtree(self.cert_dir, ignore_errors=True)


class Client:
    """A blocking line client."""

    def __init__(self, port: int, source: str | None = None, timeout: float = 10.0) -> None:
        self.sock = socket.socket()
        if source:
            self.sock.bind((source, 0))
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.buf = b""

    def send(self, msg: dict) -> None:
        self.sock.sendall(json.dumps(msg).encode() + b"\n")

    def recv(self, timeout: float = 10.0) -> dict | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except (TimeoutError, socket.timeout):
                return None
            except OSError:
                return {"type": "Closed"}
            if not data:
                return {"type": "Closed"}
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def until(self, types: set[str], timeout: float = 10.0) -> dict | None:
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.0, deadline - time.monotonic()))
            if m is None or m["type"] in types or m["type"] == "Closed":
                return m

    def close(self) -> None:
        self.sock.close()


# ------------------------------------------------------------------ issue 28: the honest player
NEWCOMER_WAIT = [10.0]
"""How long a newcomer waits for its solo game (``--newcomer-wait``)."""


def solo_game(port: int, nick: str) -> float | None:
    """Seconds from a connection to its solo game's ``UpdateGame`` (None: not within
    ``--newcomer-wait``, 10 s)."""
    t0 = time.monotonic()
    c = Client(port)
    try:
        c.send({"type": "ReqJoin", "nickname": nick, "token": ""})
        c.until({"UpdateBookedSeats"})
        c.send({"type": "ReqNewGame", "playersCount": 1})
        m = c.until({"UpdateGame"}, timeout=NEWCOMER_WAIT[0])
        return round(time.monotonic() - t0, 3) if m and m["type"] == "UpdateGame" else None
    finally:
        c.close()


AFTER_SECONDS = [30.0]
"""Seconds of quiet after each attack before the server's resident size is read again (``--after-seconds``)."""


def beside(server: Server, seconds: float, attack, *args) -> dict:
    """Run ``attack(server, stop, *args)`` (returns a dict) in a thread for ``seconds`` while a
    player in a solo game does heartbeat round trips; then a newcomer starts a solo game. For a
    server in a process of its own, ``rss_mb``: its resident size idle, at the most during the
    attack, and ``--after-seconds`` after it (issue 28: back within 10 MB of idle)."""
    from game.netcode.heap import pid_rss_mb
    pid = server.proc.pid if hasattr(server, "proc") else None
    rss = [pid_rss_mb(pid)] * 2 if pid else None
    stop = threading.Event()
    result: dict = {}
    t = threading.Thread(target=lambda: result.update(attack(server, stop, *args) or {}), daemon=True)
    player = Client(server.port)
    player.send({"type": "ReqJoin", "nickname": "honest", "token": ""})
    player.until({"UpdateBookedSeats"})
    player.send({"type": "ReqNewGame", "playersCount": 1})   # in a game of its own: not the list's head
    player.until({"UpdateGame"})
    t.start()
    time.sleep(0.3)
    waits = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        s = time.monotonic()
        player.send({"type": "ReqHeartbeat"})
        waits.append(5.0 if player.until({"ResHeartbeat"}, timeout=5) is None else time.monotonic() - s)
        if rss and len(waits) % 20 == 0:
            rss[1] = max(rss[1], pid_rss_mb(pid))
        time.sleep(0.025)   # under the line rate (50 a second): the player is not slowed by its own pace
    new_game = solo_game(server.port, "newcomer")
    stop.set()
    t.join(15)
    player.close()
    if rss:
        rss[1] = max(rss[1], pid_rss_mb(pid))
        time.sleep(AFTER_SECONDS[0])
        rss.append(pid_rss_mb(pid))
    waits.sort()
    return {"honest_p99_ms": round(1000 * waits[int(0.99 * (len(waits) - 1))], 1), "round_trips": len(waits),
            "new_game_s": new_game, **({"rss_mb": [round(r, 1) for r in rss]} if rss else {}), **result}


class InProcess:
    """A server in this process with the command line's defaults (``ipv6_56`` hands it sockets)."""

    def __init__(self, extra: list[str]) -> None:
        sys.path.insert(0, str(ROOT))
        from game.netcode.cli import build_parser
        from game.netcode.server import Server as GameServer
        from game.netcode.server_options import ServerOptions
        from game.rules import default_config
        args = build_parser().parse_args(extra)
        self.tmp = Path(tempfile.mkdtemp(prefix="mor-attack-"))
        group = next(g for g in build_parser()._action_groups if g.title == "limits")
        limits = {a.dest: getattr(args, a.dest) for a in group._group_actions}
        self.server = GameServer(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=self.tmp / "data",
                                                               **limits))
        self.port = self.server.start()[1]

    def stop(self) -> None:
        self.server.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def tls_server(script: Path, extra: list[str]) -> Server:
    """A server with TLS on a port of its own (a certificate made with ``openssl req``)."""
    folder = Path(tempfile.mkdtemp(prefix="mor-attack-cert-"))
    cert, key = folder / "c.pem", folder / "c.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Server(script, [*extra, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-port", str(port)])
    server.tls_port = port
    server.cert_dir = folder
    return server
