"""Attacks on the front door and the lobby (``bench/server_attacks.py``): a silent head of the
waiting list, thousands of joiners, a tiny-line flood, connections that never join, tables of
bots opened and left, strangers sitting and leaving, squatters, look-alike names, one IPv6 /56
and a TLS handshake flood."""
from __future__ import annotations

import select
import socket
import subprocess
import sys
import threading
import time

from .attack_kit import ROOT, Client, InProcess, Server


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


def sit_leave(server: Server, stop: threading.Event) -> dict:
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


def squatters(server: Server, stop: threading.Event) -> dict:
    row = [Client(server.port, source="127.0.0.2") for _ in range(4)]
    for i, c in enumerate(row):
        c.send({"type": "ReqJoin", "nickname": f"squat{i}", "token": ""})
    stop.wait()
    for c in row:
        c.close()
    return {"squatters": len(row)}


def names(server: Server, stop: threading.Event) -> dict:
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


def bot_tables_left(server: Server, stop: threading.Event) -> dict:
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


def tls_flood(server: Server, stop: threading.Event, seconds: float, quiet: float) -> dict:
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


def ipv6_56(server: InProcess, stop: threading.Event) -> dict:
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
