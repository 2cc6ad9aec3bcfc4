"""The attacks of issue 20 against ``server.py`` run with its defaults, one after the other.

Each attack runs against a fresh server process (its own data directory, the limits as an
operator gets them), with an honest player beside it, and reports what the attacker got and
what the honest player got:

* ``silent_head``: the head of the waiting list joins and answers heartbeats only; a second
  player asks ``ReqNewGame`` once a second. Seconds until that player's game starts (None: not
  within ``--limit``).
* ``joiners``: ``--joiners`` connections join the waiting list one after another and stay.
  The server's CPU seconds for it, ``UpdateBookedSeats`` messages sent, and how long a newcomer
  then waits for its ``UpdateBookedSeats``.
* ``line_flood``: one connection pours empty lines for ``--seconds`` while a player in a solo
  game sends a request and waits for its answer, again and again: the player's round trips
  (count, p99) and the flooder's lines answered.
* ``connections``: ``--connections`` connections from 127.0.0.1 that never join; how many the
  server keeps, and whether a newcomer from another address (127.0.0.2) is welcomed.
* ``bot_tables``: ``--bot-tables`` connections each ask a 4-player game with three hard bots;
  how many games start.

The attacks of issue 28 fixed since, each a few seconds long, with a player (127.0.0.1) doing
heartbeat round trips throughout (``honest_p99_ms``) and then starting a solo game
(``new_game_s``):

* ``sit_leave``: two connections (127.0.0.2) sit at a host's public table and leave, in a loop;
  also the messages the host received.
* ``squatters``: four connections of one address (127.0.0.2) join the Quick game's waiting list
  and say nothing more; the player's new game is what the head rules give it.
* ``names``: connections (127.0.0.2-9) join with names folded onto "hon" (Cyrillic, case) or
  "Server", and one chats lines of a letter and 199 combining marks; refused ones counted.
* ``bot_tables_left``: five addresses (127.0.0.2-6) open games with a bot and leave them at once;
  whether the player's own bot game then starts (``bot_game_s``).
* ``ipv6_56``: one home line's IPv6 /56 opens 31 connections from each of 130 /64s (4,030; the
  loopback has none: accepted sockets are handed to an in-process server's door as if they came
  from them); how many the server keeps, and how many of 18 newcomers (127.0.0.2-19) are welcomed.
* ``rejoin_loop`` (finding 2): a solo game left with ``--undos`` (1,000) swaps taken back in its
  log; from 127.0.0.2, connect / ``ReqJoin`` with its token / close, 4 every 0.25 s: each rejoin's
  time to its last ``UpdateHistory`` (p50, max) and size.
* ``replays`` (finding 1): the same game played to its end (``games/finished/``); 8 connections
  (127.0.0.2-9, each in a solo game) ask its ``ReqReplay`` by id and token again and again.
* ``silent_table`` (finding 7): a public table of four, its host and three strangers
  (127.0.0.2-4) silent once seated, the server's seat clocks at 3 s (``--setup-time``,
  ``--seat-time``; ``--bot-delay 0.1``), for 40 s: seconds to the end of setup and to a seat given
  to the computer (a server without the clocks: neither, ever).
* ``churn`` (finding 12): 4 addresses (127.0.0.2-5) x 8 solo games (written before the server
  starts, past their setup) take back and make again one request at the line rate for 30 s:
  requests answered, the resident size and the games' logs grown per request.
* ``tls_flood``: 40 addresses (127.0.0.2-41) open TLS handshakes as fast as two processes can;
  the server's resident size idle, at the end of the flood and ``--quiet-seconds`` (12) after
  (the memory is given back once the door has been quiet 10 s).

Prints a line per attack, then as its LAST line one JSON object with a key per attack and the
load average. ``--server PATH`` runs another tree's ``server.py`` (to measure a "before").

Usage: ``python bench/server_attacks.py [--server server.py] [--only silent_head,line_flood]
[--server-args '--max-per-address 0']`` (``joiners`` from one address meet ``--max-per-address``
first: lift it to see what the waiting list itself costs).
"""
from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def silent_head(server: Server, limit: float) -> dict:
    head = Client(server.port)
    head.send({"type": "ReqJoin", "nickname": "silent"})
    other = Client(server.port)
    other.send({"type": "ReqJoin", "nickname": "other"})
    t0 = time.monotonic()
    started = None
    while started is None and time.monotonic() - t0 < limit:
        head.send({"type": "ReqHeartbeat"})
        other.send({"type": "ReqNewGame", "playersCount": 1})
        tick = time.monotonic() + 1.0
        while time.monotonic() < tick:
            m = other.recv(max(0.0, tick - time.monotonic()))
            if m is None:
                break
            if m["type"] == "UpdateGame":
                started = time.monotonic() - t0
                break
    head.close()
    other.close()
    return {"game_started_after_s": None if started is None else round(started, 1), "limit_s": limit}


def joiners(server: Server, n: int) -> dict:
    cpu0 = server.cpu()
    socks = []
    t0 = time.monotonic()
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b'{"type":"ReqJoin","nickname":"j%d"}\n' % i)
        socks.append(s)
    joined = time.monotonic() - t0
    t1 = time.monotonic()
    newcomer = Client(server.port, timeout=30)
    newcomer.send({"type": "ReqJoin", "nickname": "late"})
    m = newcomer.until({"UpdateBookedSeats"}, timeout=30)
    wait = time.monotonic() - t1
    time.sleep(1.0)
    booked = 0
    for s in socks:
        s.setblocking(False)
        try:
            while chunk := s.recv(1 << 20):
                booked += chunk.count(b"UpdateBookedSeats")
        except OSError:
            pass
    cpu = server.cpu() - cpu0
    for s in socks:
        s.close()
    newcomer.close()
    return {"joiners": n, "joins_s": round(joined, 1), "server_cpu_s": round(cpu, 2),
            "booked_seats_sent": booked, "newcomer_wait_s": round(wait, 3) if m else None}


def line_flood(server: Server, seconds: float) -> dict:
    player = Client(server.port)
    player.send({"type": "ReqJoin", "nickname": "player"})
    player.until({"UpdateBookedSeats"})
    player.send({"type": "ReqNewGame", "playersCount": 1})
    player.until({"UpdateGame"})
    flood = socket.create_connection(("127.0.0.1", server.port))
    flood.setblocking(False)
    stop = threading.Event()
    got = [0]

    def pour() -> None:
        chunk = b"\n" * 8192
        while not stop.is_set():
            try:
                flood.send(chunk)
            except BlockingIOError:
                select.select([flood], [flood], [], 0.05)
            except OSError:
                return
            try:
                while data := flood.recv(1 << 20):
                    got[0] += data.count(b"\n")
            except (BlockingIOError, OSError):
                pass
    t = threading.Thread(target=pour, daemon=True)
    t.start()
    waits = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        s = time.monotonic()
        player.send({"type": "ReqHeartbeat"})
        if player.until({"ResHeartbeat"}, timeout=5) is None:
            waits.append(5.0)
        else:
            waits.append(time.monotonic() - s)
    stop.set()
    t.join(5)
    flood.close()
    player.close()
    waits.sort()
    return {"seconds": seconds, "player_round_trips": len(waits),
            "player_p99_ms": round(1000 * waits[int(0.99 * (len(waits) - 1))], 1),
            "flood_lines_answered": got[0]}


def connections(server: Server, n: int) -> dict:
    socks = []
    for _ in range(n):
        try:
            socks.append(socket.create_connection(("127.0.0.1", server.port), timeout=2))
        except OSError:
            break
    time.sleep(1.0)
    kept = 0
    for s in socks:
        s.setblocking(False)
        try:
            data = s.recv(4096)
            kept += bool(data) and b"ErrProtocol" not in data
        except BlockingIOError:
            kept += 1   # nothing yet: in the backlog, not refused
        except OSError:
            pass
    t0 = time.monotonic()
    try:
        fresh = Client(server.port, source="127.0.0.2", timeout=5)
        welcomed = fresh.recv(5)
        wait = time.monotonic() - t0 if welcomed and welcomed["type"] == "ReqWelcome" else None
        fresh.close()
    except OSError:
        wait = None
    for s in socks:
        s.close()
    return {"opened": len(socks), "held": kept, "newcomer_welcome_s": None if wait is None else round(wait, 3)}


def bot_tables(server: Server, n: int) -> dict:
    clients = []
    started = 0
    for i in range(n):
        c = Client(server.port)
        c.send({"type": "ReqJoin", "nickname": f"b{i}", "token": ""})
        c.until({"UpdateBookedSeats"})
        c.send({"type": "ReqNewGame", "playersCount": 4, "bots": ["hard"] * 3})
        m = c.until({"UpdateGame", "ErrNewGame"})
        if m and m["type"] == "UpdateGame":
            started += 1
            clients.append(c)
        else:
            c.send({"type": "ReqQuit"})
            c.close()
    time.sleep(2.0)
    for c in clients:
        c.close()
    return {"asked": n, "started": started, "bot_seats": 3 * started}


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


def _sit_leave(server: Server, stop: threading.Event) -> dict:
    host = Client(server.port)
    host.send({"type": "ReqJoin", "nickname": "host", "token": "",
               "table": {"create": "Open", "playersCount": 4}})
    host.until({"UpdateBookedSeats"})
    host.sock.setblocking(False)
    told = [0]
    sits = [0]

    def drain() -> None:
        try:
            while data := host.sock.recv(1 << 20):
                told[0] += data.count(b"\n")
        except OSError:
            pass

    def loop(k: int) -> None:
        i = 0
        while not stop.is_set():
            i += 1
            try:
                c = Client(server.port, source="127.0.0.2")
                c.send({"type": "ReqJoin", "nickname": f"s{k}x{i}", "token": "", "table": {"name": "Open"}})
                c.until({"UpdateBookedSeats", "ErrTable"}, timeout=2)
                c.close()
                sits[0] += 1
            except OSError:
                time.sleep(0.01)
            drain()
    loops = [threading.Thread(target=loop, args=(k,), daemon=True) for k in range(2)]
    for t in loops:
        t.start()
    for t in loops:
        t.join()
    drain()
    host.close()
    return {"sits": sits[0], "host_messages": told[0]}


def _squatters(server: Server, stop: threading.Event) -> dict:
    row = [Client(server.port, source="127.0.0.2") for _ in range(4)]
    for i, c in enumerate(row):
        c.send({"type": "ReqJoin", "nickname": f"squat{i}", "token": ""})
    stop.wait()
    for c in row:
        c.close()
    return {"squatters": len(row)}


def _names(server: Server, stop: threading.Event) -> dict:
    refused = joined = 0
    zalgo = "a" + "\u0301" * 199
    names = ["hon", "HON", "h\u043en", "Server", "server", "h\u200bon"]
    i = 0
    while not stop.is_set():
        i += 1
        try:
            c = Client(server.port, source=f"127.0.0.{2 + i % 8}")
            c.send({"type": "ReqJoin", "nickname": names[i % len(names)], "token": ""})
            m = c.until({"UpdateBookedSeats", "ErrNickname"}, timeout=2)
            if m and m["type"] == "UpdateBookedSeats":
                joined += 1
                c.send({"type": "ReqChat", "text": zalgo})
            else:
                refused += 1
            c.close()
        except OSError:
            time.sleep(0.01)
    return {"names_joined": joined, "names_refused": refused}


def _bot_tables_left(server: Server, stop: threading.Event) -> dict:
    opened = 0
    i = 0
    while not stop.is_set():
        i += 1
        try:
            c = Client(server.port, source=f"127.0.0.{2 + i % 5}")
            c.send({"type": "ReqJoin", "nickname": f"b{i}", "token": ""})
            c.until({"UpdateBookedSeats"}, timeout=2)
            c.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["hard"]})
            m = c.until({"UpdateGame", "ErrNewGame"}, timeout=2)
            opened += bool(m and m["type"] == "UpdateGame")
            c.close()
        except OSError:
            time.sleep(0.01)
        time.sleep(0.05)
    t0 = time.monotonic()
    c = Client(server.port)
    c.send({"type": "ReqJoin", "nickname": "botplayer", "token": ""})
    c.until({"UpdateBookedSeats"})
    c.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["easy"]})
    m = c.until({"UpdateGame", "ErrNewGame"}, timeout=10)
    c.close()
    return {"bot_games_opened_and_left": opened,
            "bot_game_s": round(time.monotonic() - t0, 3) if m and m["type"] == "UpdateGame" else None}


def _silent_table(server: Server, stop: threading.Event) -> dict:
    """Finding 7: a host opens a public table of four and three strangers (127.0.0.2-4) sit; then
    nobody plays (the host included: it only reads). Seconds from the game's start to the end of
    setup (the computer chose for the silent seats), and to a seat given to it."""
    host = Client(server.port)
    host.send({"type": "ReqJoin", "nickname": "host", "token": "",
               "table": {"create": "Open", "playersCount": 4}})
    host.until({"UpdateBookedSeats"})
    strangers = []
    for k in range(3):
        c = Client(server.port, source=f"127.0.0.{2 + k}")
        c.send({"type": "ReqJoin", "nickname": f"x{k}", "token": "", "table": {"name": "Open"}})
        strangers.append(c)
    host.until({"UpdateGame"})
    t0 = time.monotonic()
    setup = given = None
    while not stop.is_set() and given is None:
        m = host.recv(0.2)
        if m is None:
            continue
        if setup is None and m["type"] == "UpdateSetupDone":
            setup = time.monotonic() - t0
        if m["type"] == "UpdateSeatClock" and m.get("code") == "SEAT_GIVEN":
            given = time.monotonic() - t0
    for c in [host, *strangers]:
        c.close()
    return {"setup_over_s": None if setup is None else round(setup, 1),
            "seat_given_s": None if given is None else round(given, 1)}


# ------------------------------------------------------------------ findings 1 and 2: a long game
LONG_NICK, LONG_TOKEN = "long", "long-game-token"


def long_game(data_dir: Path, undos: int, finish: bool) -> dict:
    """A solo game's log as a player who swapped and undid ``undos`` times leaves it (played to
    its end when ``finish``: then in ``games/finished/``), written before the server starts
    (as an older server kept it: one without compaction, or the worst case before one): its id,
    nickname and seat token."""
    sys.path.insert(0, str(ROOT))
    import random
    from game.netcode.store import GameStore
    from game.rules import default_config
    from game.rules.engine import Game
    from game.rules.playout import choose
    config = default_config()
    game = Game.new(config, [LONG_NICK], 28)
    store = GameStore(data_dir)
    gid = store.next_id()
    glog = store.create(gid, config, game, {LONG_NICK: LONG_TOKEN})
    rng = random.Random(28)
    left = undos
    while not game.ended and (finish or left):
        action = choose(game, LONG_NICK, rng)
        game.apply(LONG_NICK, action)
        glog.record("apply", LONG_NICK, action)
        if left and game.can_undo(LONG_NICK):
            for i in range(left):   # taken back and made again, and again
                game.undo(LONG_NICK)
                glog.record("undo", LONG_NICK, None)
                if i < left - 1:
                    game.apply(LONG_NICK, action)
                    glog.record("apply", LONG_NICK, action)
            left = 0
    if game.ended:
        glog.finish()
    else:
        glog.close()
    return {"game": gid, "calls": len(game.history), "ended": game.ended}


def _rejoin_loop(server: Server, stop: threading.Event) -> dict:
    """Finding 2: connect / ``ReqJoin`` with the long game's token / close, 4 every 0.25 s."""
    times: list[float] = []
    sizes: list[int] = []
    refused = 0
    while not stop.is_set():
        tick = time.monotonic() + 0.25
        for _ in range(4):
            t0 = time.monotonic()
            try:
                c = Client(server.port, source="127.0.0.2")
                c.send({"type": "ReqJoin", "nickname": LONG_NICK, "token": LONG_TOKEN})
                size = 0
                while True:
                    m = c.recv(10)
                    if m is None or m["type"] in ("Closed", "ErrNickname"):
                        refused += 1
                        break
                    size += len(json.dumps(m))
                    if m["type"] == "UpdateHistory" and m.get("last"):
                        times.append(time.monotonic() - t0)
                        sizes.append(size)
                        break
                c.close()
            except OSError:
                refused += 1
        time.sleep(max(0.0, tick - time.monotonic()))
    times.sort()
    return {"long_game_calls": server.kept["calls"], "rejoins": len(times), "rejoins_refused": refused,
            "rejoin_p50_ms": round(1000 * times[len(times) // 2], 1) if times else None,
            "rejoin_max_ms": round(1000 * times[-1], 1) if times else None,
            "rejoin_kb": round(max(sizes) / 1024, 1) if sizes else None}


def _replays(server: Server, stop: threading.Event) -> dict:
    """Finding 1: ``ReqReplay`` of the long finished game by its id and token, 8 in flight (each
    asker in a solo game of its own, from 127.0.0.2-9)."""
    gid = server.kept["game"]
    askers = []
    for k in range(8):
        c = Client(server.port, source=f"127.0.0.{2 + k}")
        c.send({"type": "ReqJoin", "nickname": f"r{k}", "token": ""})
        c.until({"UpdateBookedSeats"})
        c.send({"type": "ReqNewGame", "playersCount": 1})
        c.until({"UpdateGame"})
        askers.append(c)
    times: list[float] = []
    refused = [0]
    lock = threading.Lock()

    def ask(c: Client) -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            c.send({"type": "ReqReplay", "game": gid, "token": LONG_TOKEN})
            m = c.until({"UpdateReplay", "ErrReplay", "ErrProtocol"}, timeout=10)
            with lock:
                if m is not None and m["type"] == "UpdateReplay":
                    times.append(time.monotonic() - t0)
                else:
                    refused[0] += 1
    threads = [threading.Thread(target=ask, args=(c,), daemon=True) for c in askers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    for c in askers:
        c.close()
    times.sort()
    return {"long_game_calls": server.kept["calls"], "replays": len(times), "replays_refused": refused[0],
            "replay_p50_ms": round(1000 * times[len(times) // 2], 1) if times else None,
            "replay_p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 1) if times else None}


def _tls_flood(server: Server, stop: threading.Event, seconds: float, quiet: float) -> dict:
    from game.netcode.heap import pid_rss_mb
    idle = pid_rss_mb(server.proc.pid)
    flood = [sys.executable, str(ROOT / "tools" / "tls_flood.py"), str(server.tls_port), str(seconds)]
    floods = [subprocess.Popen([*flood, str(k * 20)], stdout=subprocess.PIPE, text=True) for k in range(2)]
    opened = sum(int(f.communicate(timeout=seconds + 30)[0] or 0) for f in floods)
    peak = pid_rss_mb(server.proc.pid)
    stop.wait()
    time.sleep(quiet)
    return {"handshakes_opened": opened, "rss_idle_mb": round(idle, 1), "rss_flood_mb": round(peak, 1),
            "rss_after_mb": round(pid_rss_mb(server.proc.pid), 1), "after_s": quiet}


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


def _ipv6_56(server: InProcess, stop: threading.Event) -> dict:
    srv = server.server
    lst = socket.create_server(("127.0.0.1", 0))
    ours = []
    for sub in range(130):
        for i in range(31):
            c = socket.create_connection(lst.getsockname())
            conn, _ = lst.accept()
            ours.append(c)
            srv._call_soon(srv._open_session, conn, (f"2001:db8:aa:{sub:x}::{i + 1}", 40000 + len(ours), 0, 0))
    time.sleep(1.0)
    kept = sum(1 for s in list(srv.sessions) if ":" in s.ip)
    welcomed = 0
    for k in range(18):
        c = Client(server.port, source=f"127.0.0.{2 + k}")
        m = c.recv(5)
        n = c.recv(0.3)
        welcomed += bool(m and m["type"] == "ReqWelcome" and not (n and n["type"] == "ErrProtocol"))
        c.close()
    stop.wait()
    for c in ours:
        c.close()
    lst.close()
    return {"ipv6_opened": len(ours), "ipv6_kept": kept, "newcomers_welcomed": f"{welcomed} of 18"}


def churn_games(data_dir: Path) -> dict:
    """32 solo games past their setup, each with a request its player may take back (chosen here,
    from the game written to its log before the server starts): {nickname: (token, request)}."""
    sys.path.insert(0, str(ROOT))
    import random
    from game.netcode.store import GameStore
    from game.rules import default_config
    from game.rules.engine import Game
    from game.rules.playout import choose
    config = default_config()
    store = GameStore(data_dir)
    out = {}
    for k in range(32):
        nick, rng = f"c{k}", random.Random(k)
        game = Game.new(config, [nick], 1000 + k)
        glog = store.create(store.next_id(), config, game, {nick: f"tok{k}"})
        while game.phase == "setup":
            action = choose(game, nick, rng)
            game.apply(nick, action)
            glog.record("apply", nick, action)
        glog.close()
        for _ in range(100):
            action = choose(game, nick, rng)
            copy = Game.replay(config, game.nicknames, game.seed, game.history)
            copy.apply(nick, action)
            if copy.can_undo(nick):
                break
        out[nick] = (f"tok{k}", action.to_dict())
    return out


def _churn(server: Server, stop: threading.Event) -> dict:
    """Finding 12: 4 addresses (127.0.0.2-5) x 8 solo games, each taking back and making again one
    request at the line rate. The server's resident size and its games' logs on disk before and
    after, per request answered."""
    from game.netcode.heap import pid_rss_mb
    games_dir = server.tmp / "data" / "games"

    def disk() -> int:
        return sum(p.stat().st_size for p in games_dir.glob("*.jsonl"))
    players = []
    for k, (nick, (token, action)) in enumerate(server.kept.items()):
        c = Client(server.port, source=f"127.0.0.{2 + k % 4}")
        c.send({"type": "ReqJoin", "nickname": nick, "token": token})
        c.until({"UpdateGame"})
        players.append((c, action))
    time.sleep(1.0)
    rss0, disk0 = pid_rss_mb(server.proc.pid), disk()
    answered = [0]
    lock = threading.Lock()

    def loop(c: Client, action: dict) -> None:
        pair = (json.dumps(action) + "\n" + '{"type":"ReqUndo"}\n').encode()
        c.sock.setblocking(False)
        got = 0
        while not stop.is_set():
            try:
                c.sock.send(pair)
            except (BlockingIOError, OSError):
                pass
            try:
                while data := c.sock.recv(1 << 20):
                    got += data.count(b'"UpdateUndo"')
            except (BlockingIOError, OSError):
                pass
            time.sleep(0.02)
        with lock:
            answered[0] += 2 * got
    threads = [threading.Thread(target=loop, args=p, daemon=True) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    n = max(1, answered[0])
    rss, size = pid_rss_mb(server.proc.pid), disk()
    for c, _ in players:
        c.close()
    return {"churn_requests": answered[0], "churn_rss_mb": [round(rss0, 1), round(rss, 1)],
            "rss_bytes_per_request": round((rss - rss0) * (1 << 20) / n, 1),
            "disk_bytes_per_request": round((size - disk0) / n, 1), "disk_kb_after": round(size / 1024, 1)}


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


ISSUE_28 = {"sit_leave": _sit_leave, "squatters": _squatters, "names": _names,
            "bot_tables_left": _bot_tables_left}
LONG_GAME = {"rejoin_loop": _rejoin_loop, "replays": _replays}
SEAT_CLOCK_ARGS = ["--setup-time", "3", "--seat-time", "3", "--bot-delay", "0.1"]
"""``silent_table``'s server: the seats' clocks short (the defaults, 180 s and 120 s, are a player's)."""


ALL = ("silent_head", "joiners", "line_flood", "connections", "bot_tables", "sit_leave", "squatters", "names",
       "bot_tables_left", "ipv6_56", "tls_flood", "rejoin_loop", "replays", "silent_table", "churn")
"""Every attack, in the order a run makes them."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(ROOT / "server.py"))
    ap.add_argument("--only", default=",".join(ALL), help="the attacks to run, by name, comma-separated "
                                                            "(default: every one)")
    ap.add_argument("--attack-seconds", type=float, default=4.0, help="each issue-28 attack's length")
    ap.add_argument("--after-seconds", type=float, default=30.0,
                    help="quiet seconds after each attack before the server's resident size is read again")
    ap.add_argument("--newcomer-wait", type=float, default=10.0,
                    help="how long the newcomer after each attack waits for its solo game")
    ap.add_argument("--clock-seconds", type=float, default=40.0,
                    help="silent_table's and churn's length at least (a seat's clock must run out three times)")
    ap.add_argument("--quiet-seconds", type=float, default=12.0,
                    help="after the TLS flood, seconds before the resident size is read again")
    ap.add_argument("--limit", type=float, default=20.0)
    ap.add_argument("--joiners", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--connections", type=int, default=1500)
    ap.add_argument("--bot-tables", type=int, default=50)
    ap.add_argument("--undos", type=int, default=1000, help="the long game's swaps taken back (rejoin_loop, replays)")
    ap.add_argument("--server-args", default="", help="more flags for the server, e.g. '--max-per-address 0'")
    args = ap.parse_args()
    NEWCOMER_WAIT[0] = args.newcomer_wait
    AFTER_SECONDS[0] = args.after_seconds
    out = {}
    for name in args.only.split(","):
        script = Path(args.server).resolve()
        if name == "ipv6_56":
            server = InProcess(args.server_args.split())
        elif name == "churn":
            server = Server(script, args.server_args.split(), churn_games)
        elif name == "silent_table":
            server = Server(script, [*SEAT_CLOCK_ARGS, *args.server_args.split()])
        elif name in LONG_GAME:
            finish = name == "replays"
            server = Server(script, args.server_args.split(), lambda d: long_game(d, args.undos, finish))
        else:
            server = (tls_server if name == "tls_flood" else Server)(script, args.server_args.split())
        try:
            if name == "silent_head":
                r = silent_head(server, args.limit)
            elif name == "joiners":
                r = joiners(server, args.joiners)
            elif name == "line_flood":
                r = line_flood(server, args.seconds)
            elif name == "connections":
                r = connections(server, args.connections)
            elif name == "bot_tables":
                r = bot_tables(server, args.bot_tables)
            elif name in ISSUE_28:
                r = beside(server, args.attack_seconds, ISSUE_28[name])
            elif name in LONG_GAME:
                r = beside(server, args.attack_seconds, LONG_GAME[name])
            elif name == "silent_table":
                r = beside(server, max(args.attack_seconds, args.clock_seconds), _silent_table)
            elif name == "ipv6_56":
                r = beside(server, args.attack_seconds, _ipv6_56)
            elif name == "churn":
                r = beside(server, max(args.attack_seconds, 0.75 * args.clock_seconds), _churn)
            elif name == "tls_flood":
                r = beside(server, args.attack_seconds, _tls_flood, args.attack_seconds, args.quiet_seconds)
            else:
                raise SystemExit(f"unknown attack {name!r}")
        finally:
            server.stop()
        out[name] = r
        print(f"{name}: {r}", flush=True)
    out["load"] = os.getloadavg()[0]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
