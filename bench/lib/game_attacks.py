"""Attacks through games in progress (``bench/server_attacks.py``): a table whose players say
nothing once seated, rejoins and replays of a game with 1,000 requests taken back, and requests
taken back and made again at the line rate."""
from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

from .attack_kit import ROOT, Client, Server


def silent_table(server: Server, stop: threading.Event) -> dict:
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


def rejoin_loop(server: Server, stop: threading.Event) -> dict:
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


def replays(server: Server, stop: threading.Event) -> dict:
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


def churn(server: Server, stop: threading.Event) -> dict:
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
