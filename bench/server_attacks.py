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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lib.attack_kit import AFTER_SECONDS, NEWCOMER_WAIT, ROOT, InProcess, Server, beside, tls_server  # noqa: E402
from bench.lib.door_attacks import (bot_tables_left, ipv6_56, names, sit_leave, squatters,  # noqa: E402
                                    tls_flood, bot_tables, connections, joiners, line_flood, silent_head)
from bench.lib.game_attacks import churn, rejoin_loop, replays, silent_table, churn_games, long_game  # noqa: E402

ISSUE_28 = {"sit_leave": sit_leave, "squatters": squatters, "names": names,
            "bot_tables_left": bot_tables_left}
LONG_GAME = {"rejoin_loop": rejoin_loop, "replays": replays}
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
                r = beside(server, max(args.attack_seconds, args.clock_seconds), silent_table)
            elif name == "ipv6_56":
                r = beside(server, args.attack_seconds, ipv6_56)
            elif name == "churn":
                r = beside(server, max(args.attack_seconds, 0.75 * args.clock_seconds), churn)
            elif name == "tls_flood":
                r = beside(server, args.attack_seconds, tls_flood, args.attack_seconds, args.quiet_seconds)
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
