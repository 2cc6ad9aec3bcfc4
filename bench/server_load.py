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
import gc
import heapq
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from itertools import permutations
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.lib.connection_group import ConnectionGroup, Peer  # noqa: E402
from game.netcode.client import CONNECTION_LOST  # noqa: E402

SERVER = ROOT / "server.py"

LOBBY_WINDOW = 32          # clients waiting in the lobby at once (each join is broadcast to all of them)
BUY_PROBABILITY = 0.6      # chance to buy a card when one is affordable

END_TURN = b'{"type":"ReqEndTurn"}\n'
REQ_QUIT = b'{"type":"ReqQuit"}\n'
REQ_GOODBYE = b'{"type":"ReqGoodbye"}\n'
MAIN_ACTIONS = frozenset({"TAKE_MARKET_RESOURCES", "BUY_DEVELOPMENT_CARD", "ACTIVATE_PRODUCTION"})


def dumps(msg: dict[str, Any]) -> bytes:
    return orjson.dumps(msg) + b"\n"


# ----------------------------------------------------------------------------- server process
LIFTED = ["--max-per-address", "0", "--tables-per-address", "0", "--line-rate", "0", "--join-time", "0",
          "--lobby-time", "0", "--max-connections", "20000"]
"""The limits meant for strangers, lifted: every client of the load generator comes from
127.0.0.1, and a closed loop of few games sends more lines a second than a person does."""


class ServerProcess:
    """``server.py`` as a subprocess, with a thread sampling its RSS and thread count."""

    def __init__(self, data_dir: Path, pin: int | None, extra_args: list[str] | None = None,
                 server: Path = SERVER) -> None:
        self.data_dir = data_dir
        self.stderr_path = data_dir / "server.stderr"
        self._stderr = open(self.stderr_path, "wb")
        cmd = [sys.executable, str(server), "--host", "127.0.0.1", "--port", "0",
               "--data-dir", str(data_dir / "data"), "--log-level", "WARNING", *LIFTED, *(extra_args or [])]
        preexec = (lambda: os.sched_setaffinity(0, {pin})) if pin is not None else None
        self.proc = subprocess.Popen(cmd, cwd=str(server.parent), stdout=subprocess.PIPE, stderr=self._stderr,
                                     stdin=subprocess.DEVNULL, preexec_fn=preexec)
        self.pid = self.proc.pid
        self.port = self._read_port(timeout=20.0)
        self.idle_rss_mb = self.rss_mb()
        self.peak_rss_mb = self.idle_rss_mb
        self.peak_threads = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, name="rss-sampler", daemon=True)
        self._sampler.start()

    def _read_port(self, timeout: float) -> int:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                line = self.proc.stdout.readline().decode(errors="replace").strip()
                if not line:
                    break
                if "listening on" in line:
                    return int(line.rsplit(":", 1)[1])
            if self.proc.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"server did not start: {self.stderr_tail()}")

    def _status(self) -> dict[str, str]:
        out = {}
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    k, _, v = line.partition(":")
                    out[k] = v.strip()
        except OSError:
            pass
        return out

    def rss_mb(self) -> float:
        v = self._status().get("VmRSS")
        return int(v.split()[0]) / 1024 if v else 0.0

    def cpu_seconds(self) -> tuple[float, float]:
        """(user, system) CPU seconds of the server so far, all its threads."""
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            tick = os.sysconf("SC_CLK_TCK")
            return int(fields[11]) / tick, int(fields[12]) / tick
        except (OSError, IndexError, ValueError):
            return 0.0, 0.0

    def context_switches(self) -> int:
        """Voluntary + involuntary context switches summed over the server's live threads."""
        total = 0
        try:
            tasks = os.listdir(f"/proc/{self.pid}/task")
        except OSError:
            return 0
        for tid in tasks:
            try:
                with open(f"/proc/{self.pid}/task/{tid}/status") as f:
                    for line in f:
                        if line.endswith("ctxt_switches:", 0, line.find(":") + 1):
                            total += int(line.split()[1])
            except (OSError, ValueError):
                pass
        return total

    def sample(self) -> bool:
        """Update the peaks; False once the process is gone."""
        st = self._status()
        if not st:
            return False
        rss = st.get("VmRSS")
        if rss:
            self.peak_rss_mb = max(self.peak_rss_mb, int(rss.split()[0]) / 1024)
        thr = st.get("Threads")
        if thr:
            self.peak_threads = max(self.peak_threads, int(thr))
        return True

    def _sample(self) -> None:
        while self.sample() and not self._stop.wait(0.1):
            pass

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, n: int = 2000) -> str:
        try:
            return self.stderr_path.read_bytes()[-n:].decode(errors="replace")
        except OSError:
            return ""

    def stop(self) -> int | None:
        self._stop.set()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.send_signal(signal.SIGCONT)   # in case it was stopped
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()
        return self.proc.returncode


def machine_busy_seconds() -> float:
    """CPU seconds spent busy by the whole machine so far (all cores, from /proc/stat)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------------------- scripted client
class Table:
    """One game as the load generator knows it: its clients (in seat order), whose turn it is, and
    the public state they all see (the market, flat, row by row; the top cards of the grid)."""

    __slots__ = ("key", "clients", "by_nick", "done", "current", "market", "columns", "top_cards")

    def __init__(self, key: tuple[str, ...]) -> None:
        self.key = key
        self.clients: list[Client] = []
        self.by_nick: dict[str, Client] = {}
        self.done = False
        self.current = ""
        self.market: list[str] = []
        self.columns = 4
        self.top_cards: dict[str, list[int | None]] = {}

    def set_market(self, grid: list[list[str]]) -> None:
        self.columns = len(grid[0])
        self.market = [m for row in grid for m in row]


class Client:
    __slots__ = ("nick", "peer", "rng", "table", "state", "asked", "pending",
                 "pending_kind", "sent_at", "fallback_tried", "shelves", "strongbox", "containers",
                 "slots", "main_done", "turns", "done", "ended",
                 "setup_done", "bonus", "hand", "lost", "said_goodbye", "scheduled")

    def __init__(self, nick: str, seed: int) -> None:
        self.nick = nick
        self.peer: Peer | None = None
        self.rng = random.Random(seed)
        self.table: Table | None = None
        self.state = "connected"        # connected, waiting, game, quitting, closed
        self.asked = False              # sent ReqNewGame as head of the waiting list
        self.pending: bytes | None = None
        self.pending_kind = ""          # setup, main, end, quit
        self.sent_at = 0.0
        self.fallback_tried = False
        self.shelves: list[int] = []
        self.strongbox = -1
        self.containers: dict[int, tuple[dict[str, int], int]] = {}   # own: id -> (content, size)
        self.slots: list[list[int]] = []
        self.main_done = False
        self.turns = 0
        self.done = False
        self.ended = False
        self.setup_done = False
        self.bonus = 0
        self.hand: list[int] = []
        self.lost = False
        self.said_goodbye = False
        self.scheduled = False          # a think-time timer will call maybe_act


def shelf_state(c: Client) -> tuple[tuple[int, str | None, int], ...]:
    """The client's shelves, in order, as (size, type held or None, count held)."""
    out = []
    for sid in c.shelves:
        content, size = c.containers[sid]
        held = None
        total = 0
        for r, n in content.items():
            if n:
                held = r
                total += n
        out.append((size, held, total))
    return tuple(out)


Plan = tuple[tuple[int, str, int], ...]      # (shelf index, resource, count)
_placements: dict[tuple, tuple[Plan, int]] = {}


def suggest_placement(shelves: tuple[tuple[int, str | None, int], ...],
                      intake: tuple[tuple[str, int], ...]) -> tuple[Plan, int]:
    """The engine's placement rule (``choices.suggest_placement``, no leader depots) on the client's
    own mirror: fill shelves already holding a type, then the best assignment of the other types
    to empty shelves. Returns (placement by shelf index, number of resources placed); memoized,
    since the shelf states and market lines that occur are few."""
    key = (shelves, intake)
    hit = _placements.get(key)
    if hit is not None:
        return hit
    left = dict(intake)
    plan: list[tuple[int, str, int]] = []
    placed = 0
    empty: list[tuple[int, int]] = []
    held_types = set()
    for i, (size, held, total) in enumerate(shelves):
        if held is None:
            empty.append((i, size))
            continue
        held_types.add(held)
        want = left.get(held, 0)
        if want and total < size:
            n = min(want, size - total)
            plan.append((i, held, n))
            left[held] = want - n
            placed += n
    todo = [r for r, n in left.items() if n > 0 and r not in held_types]
    if todo and empty:
        best_n = -1
        best: tuple = ()
        k = min(len(todo), len(empty))
        for types in permutations(todo, k):
            for shelves_ in permutations(empty, k):
                stored = sum(min(left[r], size) for r, (_, size) in zip(types, shelves_))
                if stored > best_n:
                    best_n, best = stored, tuple(zip(types, shelves_))
        for r, (i, size) in best:
            n = min(left[r], size)
            plan.append((i, r, n))
            placed += n
    result = (tuple(plan), placed)
    if len(_placements) < 200_000:
        _placements[key] = result
    return result


_shelf_ids: dict[tuple, int] = {}                 # shelf states seen -> a small number
_line_choices: dict[tuple, tuple[int, Plan]] = {}  # (shelf state number, *marbles) -> choice


def line_choice(shelves: tuple[tuple[int, str | None, int], ...], marbles: list[str]) -> tuple[int, Plan]:
    """What taking a market line does for these shelves: (waste, placement). Discards move the
    opponent and faith marbles move us along the track: both bring the end of the game closer,
    so the load generator keeps them few (the games should last ``--turns`` turns)."""
    intake: dict[str, int] = {}
    faith = taken = 0
    for m in marbles:
        if m == "Faith":
            faith += 1
        elif m != "Zero":
            intake[m] = intake.get(m, 0) + 1
            taken += 1
    plan, placed = suggest_placement(shelves, tuple(sorted(intake.items())))
    return taken - placed + faith, plan


# ----------------------------------------------------------------------------- the load generator
class LoadGenerator:
    def __init__(self, host: str, port: int, server: ServerProcess, turns: int, seed: int,
                 think: float = 0.0, spin: bool = False, mute: bool = True, prefix: str = "p",
                 players: int = 2) -> None:
        self.players = players           # players per game
        self.think_range: tuple[float, float] | None = None   # think times drawn from it (seconds)
        self.new_game = dumps({"playersCount": players, "type": "ReqNewGame"})
        self.host = host
        self.port = port
        self.server = server
        self.turns = turns
        self.seed = seed
        self.think = think
        self.timers: list[tuple[float, int, Client]] = []
        self.spin = spin and not think   # poll without sleeping while playing (own core)
        self.mute = mute                 # while playing, only the player whose turn it is decodes
        self.prefix = prefix             # nicknames are prefix + a number
        self.group = ConnectionGroup(kernel_timestamps=True)
        self.clock = self.group.clock    # the clock of the receive times (the wall clock)
        self.busy = 0.0                  # seconds spent handling messages while playing
        self.clients: list[Client] = []
        self.tables: dict[tuple[str, ...], Table] = {}
        self.cards: dict[int, tuple[str, int, dict[str, int]]] = {}   # id -> (color, level, cost)
        self.playing = False
        self.latencies: list[float] = []       # ms, send to the reply's arrival in the socket
        self.app_latencies: list[float] = []   # ms, send to the reply's read by this program
        self.late: list[float] = []            # ms, how late each think time's end was acted on
        self.setup_latencies: list[float] = []
        self.answered = 0
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.waiting_in_lobby = 0
        self.to_join: list[Client] = []
        self.setup_count = 0
        self.tables_done = 0
        self.last_progress = time.perf_counter()
        self.server_dead = False

    # ------------------------------------------------------------------ errors
    def error(self, kind: str, n: int = 1) -> None:
        self.errors += n
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + n

    # ------------------------------------------------------------------ sockets
    def connect_all(self, count: int) -> None:
        for i in range(count):
            c = Client(f"{self.prefix}{i}", self.seed * 100003 + i)
            c.peer = self.group.connect(self.host, self.port, timeout=10, data=c)
            self.clients.append(c)
            if i % 64 == 63:
                self.poll(0)   # take the ReqWelcome lines as we go

    def send(self, c: Client, data: bytes) -> None:
        if c.lost:
            return
        try:
            c.peer.send(data)   # type: ignore[union-attr]
        except ConnectionError:
            pass                # ConnectionLost comes from the next poll

    def request(self, c: Client, data: bytes, kind: str) -> None:
        c.pending = data
        c.pending_kind = kind
        c.sent_at = self.clock()
        self.send(c, data)

    def lose(self, c: Client, why: str) -> None:
        """The connection is gone. Expected only after ResGoodbye."""
        if c.lost:
            return
        c.lost = True
        if not c.said_goodbye:
            self.error(f"lost connection ({why})")
            if c.pending is not None:
                self.error("unanswered request")
                c.pending = None
            self.abandon(c)
        c.state = "closed"

    def abandon(self, c: Client) -> None:
        """This client can no longer play: its game stops counting (the partner would wait forever)."""
        c.done = True
        t = c.table
        if t is not None and not t.done:
            t.done = True
            self.tables_done += 1
            for o in t.clients:
                o.done = True
        if not c.setup_done and c.state in ("game", "waiting", "connected"):
            c.setup_done = True
            self.setup_count += 1

    def poll(self, timeout: float) -> None:
        start = time.perf_counter()
        if self.group.dispatch(self.on_message, timeout) and self.playing:
            self.busy += time.perf_counter() - start

    def on_message(self, peer: Peer, msg: dict[str, Any]) -> None:
        c: Client = peer.data
        t = msg["type"]
        handler = self.HANDLERS.get(t)
        if handler is not None:
            handler(self, c, msg, peer.received_at)
        elif t == CONNECTION_LOST:
            self.lose(c, msg["reason"])
        elif t.startswith("Err"):
            self.on_error(c, msg, peer.received_at)

    # ------------------------------------------------------------------ replies
    def finish_request(self, c: Client, now: float) -> str:
        """The pending request of ``c`` is answered; ``now`` is when the answer arrived."""
        kind = c.pending_kind
        ms = (now - c.sent_at) * 1000
        if kind in ("main", "end"):
            if self.playing:
                self.latencies.append(ms)
                self.app_latencies.append((c.peer.read_at - c.sent_at) * 1000)   # type: ignore[union-attr]
                self.answered += 1
        elif kind == "setup":
            self.setup_latencies.append(ms)
        c.pending = None
        c.pending_kind = ""
        self.last_progress = time.perf_counter()
        return kind

    def on_error(self, c: Client, msg: dict[str, Any], now: float) -> None:
        detail = msg.get("reason") or msg.get("msg") or ""
        self.error(f"{msg['type']} {detail}".strip())
        if msg["type"] == "ErrNewGame":
            return
        if c.pending is None:
            return
        kind = self.finish_request(c, now)
        if kind == "main" and not c.fallback_tried and self.playing:
            # our mirror was wrong: a market row with nothing placed is always legal on one's turn
            c.fallback_tried = True
            self.request(c, dumps({"type": "ReqTakeFromMarket", "isRow": True, "index": 0,
                                   "replacements": {}, "shelves": {}}), "main")
        elif kind in ("main", "end", "setup"):
            self.abandon(c)

    def on_booked_seats(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if msg.get("canPrepareNewGame") == c.nick and not c.asked and c.state == "waiting":
            c.asked = True
            self.send(c, self.new_game)

    def on_game(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if c.state == "waiting":
            self.waiting_in_lobby -= 1
        c.state = "game"
        if not self.cards:
            for d in msg["developmentCards"]:
                self.cards[d["id"]] = (d["color"], d["level"], dict(d["cost"]["requirements"]))
        players = msg["players"]
        key = tuple(p["nickname"] for p in players)
        t = self.tables.get(key)
        if t is None:
            t = self.tables[key] = Table(key)
        t.clients.append(c)
        t.clients.sort(key=lambda o: key.index(o.nick))
        t.by_nick[c.nick] = c
        c.table = t
        me = next(p for p in players if p["nickname"] == c.nick)
        c.shelves = list(me["warehouseShelves"])
        c.strongbox = me["strongbox"]
        own = set(c.shelves) | {c.strongbox}
        c.containers = {rc["id"]: (dict(rc["content"]), rc["size"]) for rc in msg["resContainers"]
                        if rc["id"] in own}
        c.slots = [list(s) for s in me["devSlots"]]
        c.hand = list(me["leadersHand"])
        c.bonus = me["setup"]["initialResources"]
        t.set_market(msg["market"]["grid"])
        t.top_cards = dict(msg["devCardGrid"]["topCards"])
        t.current = msg["currentPlayer"]
        c.main_done = msg["isMandatoryActionDone"]
        keep = me["setup"]["chosenLeadersCount"]
        self.request(c, dumps({"type": "ReqChooseLeaders", "leaders": c.hand[:keep]}), "setup")
        self.pump_lobby()

    def on_setup_done(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if not c.setup_done:
            c.setup_done = True
            self.setup_count += 1

    def on_container(self, c: Client, msg: dict[str, Any], now: float) -> None:
        rc = msg["resContainer"]
        if rc["id"] in c.containers:
            c.containers[rc["id"]] = (rc["content"], rc["size"])

    def on_market(self, c: Client, msg: dict[str, Any], now: float) -> None:
        c.table.set_market(msg["market"]["grid"])   # type: ignore[union-attr]

    def on_grid(self, c: Client, msg: dict[str, Any], now: float) -> None:
        c.table.top_cards = msg["devCardGrid"]["topCards"]   # type: ignore[union-attr]

    def on_dev_slot(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if msg["player"] == c.nick:
            c.slots[msg["devSlot"]] = msg["devCards"]

    def on_game_end(self, c: Client, msg: dict[str, Any], now: float) -> None:
        for o in c.table.clients if c.table is not None else [c]:
            o.ended = True
            self.client_done(o)

    def on_status(self, c: Client, msg: dict[str, Any], now: float) -> None:
        self.maybe_act(c)

    def on_action(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if msg["player"] == c.nick and c.pending is not None:
            kind = self.finish_request(c, now)
            action = msg["action"]
            if kind == "setup":
                if action == "CHOOSE_LEADERS" and c.bonus > 0:
                    big = max(c.shelves, key=lambda sid: c.containers[sid][1])
                    self.request(c, dumps({"type": "ReqChooseResources",
                                           "shelves": {str(big): {"Coin": c.bonus}}}), "setup")
                    return
            elif action in MAIN_ACTIONS:
                c.main_done = True
                c.fallback_tried = False
            elif action == "END_TURN":
                c.turns += 1
                if c.turns >= self.turns:
                    self.client_done(c)
                self.pass_turn(c)
        self.maybe_act(c)

    def on_quit(self, c: Client, msg: dict[str, Any], now: float) -> None:
        if c.pending_kind == "quit":
            c.pending = None
            c.said_goodbye = True
            self.send(c, REQ_GOODBYE)

    def on_goodbye(self, c: Client, msg: dict[str, Any], now: float) -> None:
        c.said_goodbye = True
        c.pending = None
        c.peer.close()   # type: ignore[union-attr]   (ConnectionLost follows)

    HANDLERS = {
        "UpdateBookedSeats": on_booked_seats,
        "UpdateGame": on_game,
        "UpdateSetupDone": on_setup_done,
        "UpdateResourceContainer": on_container,
        "UpdateMarket": on_market,
        "UpdateDevCardGrid": on_grid,
        "UpdateDevSlot": on_dev_slot,
        "UpdateGameEnd": on_game_end,
        "UpdatePlayerStatus": on_status,
        "UpdateAction": on_action,
        "ResQuit": on_quit,
        "ResGoodbye": on_goodbye,
    }

    # ------------------------------------------------------------------ playing
    def client_done(self, c: Client) -> None:
        c.done = True
        t = c.table
        if t is not None and not t.done and all(o.done for o in t.clients):
            t.done = True
            self.tables_done += 1

    def pass_turn(self, c: Client) -> None:
        """``c`` ended its turn: the next player in seat order has it (nobody leaves during a run,
        so the turn order is fixed). That player's connection takes over following the game."""
        t = c.table
        if t is None:
            return
        order = t.clients
        nxt = order[(order.index(c) + 1) % len(order)]
        t.current = nxt.nick
        nxt.main_done = False
        if self.mute:
            c.peer.protocol.muted = nxt is not c            # type: ignore[union-attr]
            nxt.peer.protocol.muted = False                  # type: ignore[union-attr]
        self.maybe_act(nxt)

    def maybe_act(self, c: Client, now: bool = False) -> None:
        if (not self.playing or c.done or c.pending is not None or c.lost or c.table is None
                or c.table.current != c.nick):
            return
        if self.think and not now:
            if not c.scheduled:
                c.scheduled = True
                lo_hi = self.think_range
                due = time.perf_counter() + (c.rng.uniform(*lo_hi) if lo_hi else self.think * (0.5 + c.rng.random()))
                heapq.heappush(self.timers, (due, id(c), c))
            return
        if c.main_done:
            self.request(c, END_TURN, "end")
        else:
            self.request(c, self.main_action(c), "main")

    def main_action(self, c: Client) -> bytes:
        if c.rng.random() < BUY_PROBABILITY:
            buy = self.buy_request(c)
            if buy is not None:
                return buy
        return self.market_request(c)

    def buy_request(self, c: Client) -> bytes | None:
        """An affordable top card with a slot that takes it, paid from the shelves (and strongbox)."""
        have: dict[str, int] = {}
        for content, _ in c.containers.values():
            for r, n in content.items():
                have[r] = have.get(r, 0) + n
        if sum(have.values()) < 2 or sum(len(s) for s in c.slots) >= 6:
            return None   # (the 7th card would end the game)
        offers = []
        for color, tops in c.table.top_cards.items():   # type: ignore[union-attr]
            for level in range(1, len(tops)):
                cid = tops[level]
                if cid is None:
                    continue
                cost = self.cards[cid][2]
                if any(have.get(r, 0) < n for r, n in cost.items()):
                    continue
                slot = next((i for i, s in enumerate(c.slots)
                             if (not s and level == 1) or (s and self.cards[s[-1]][1] == level - 1)), None)
                if slot is not None:
                    offers.append((color, level, slot, cost))
        if not offers:
            return None
        color, level, slot, cost = c.rng.choice(offers)
        pay: dict[str, dict[str, int]] = {}
        for r, need in cost.items():
            for cid in (*c.shelves, c.strongbox):
                if need <= 0:
                    break
                n = min(c.containers[cid][0].get(r, 0), need)
                if n > 0:
                    pay.setdefault(str(cid), {})[r] = n
                    need -= n
        return dumps({"type": "ReqBuyDevCard", "color": color, "level": level, "devSlot": slot,
                      "resContainers": pay})

    def market_request(self, c: Client) -> bytes:
        """The market line that discards least and gives least faith (ties broken at random), with
        the suggested placement."""
        t = c.table
        market, cols = t.market, t.columns   # type: ignore[union-attr]
        shelves = shelf_state(c)
        sid = _shelf_ids.get(shelves)
        if sid is None:
            sid = _shelf_ids[shelves] = len(_shelf_ids)
        best: list[tuple[bool, int, Plan]] = []
        best_waste = 99
        choices = _line_choices
        rows = len(market) // cols
        for is_row, index, marbles in [(True, i, market[i * cols:(i + 1) * cols]) for i in range(rows)] + \
                [(False, j, market[j::cols]) for j in range(cols)]:
            key = (sid, *marbles)
            hit = choices.get(key)
            if hit is None:
                hit = choices[key] = line_choice(shelves, marbles)
            waste, plan = hit
            if waste < best_waste:
                best_waste, best = waste, [(is_row, index, plan)]
            elif waste == best_waste:
                best.append((is_row, index, plan))
        is_row, index, plan = c.rng.choice(best)
        return dumps({"type": "ReqTakeFromMarket", "isRow": is_row, "index": index, "replacements": {},
                      "shelves": {str(c.shelves[i]): {r: n} for i, r, n in plan}})

    # ------------------------------------------------------------------ phases
    def pump_lobby(self) -> None:
        while self.to_join and self.waiting_in_lobby < LOBBY_WINDOW:
            c = self.to_join.pop()
            c.state = "waiting"
            self.waiting_in_lobby += 1
            self.send(c, dumps({"nickname": c.nick, "type": "ReqJoin"}))

    def run_until(self, done: Any, limit: float, stall: float) -> str:
        """Serve the sockets until ``done()``; returns "ok", "stalled", "timeout" or "server died"."""
        start = time.perf_counter()
        next_check = start + 0.5
        self.last_progress = start
        timers = self.timers
        while not done():
            if timers:
                wait = min(0.05, max(0.0, timers[0][0] - time.perf_counter()))
                self.poll(wait)
                now = time.perf_counter()
                while timers and timers[0][0] <= now:
                    due, _, c = heapq.heappop(timers)
                    if self.playing:
                        self.late.append(1000 * (now - due))
                    c.scheduled = False
                    self.maybe_act(c, now=True)
            else:
                self.poll(0 if self.spin and self.playing else 0.05)
            now = time.perf_counter()
            if now >= next_check:
                next_check = now + 0.5
                if not self.server.alive():
                    self.server_dead = True
                    return "server died"
                if now - start > limit:
                    return "timeout"
                if now - self.last_progress > stall:
                    return "stalled"
        return "ok"

    def fail_outstanding(self, why: str) -> None:
        """Count what a phase that did not complete leaves behind."""
        for c in self.clients:
            if c.lost:
                continue
            if c.pending is not None:
                self.error(f"unanswered request ({why})")
                c.pending = None
            if not c.done:
                self.abandon(c)

    def lobby(self, games: int, limit: float) -> str:
        self.to_join = list(reversed(self.clients[:self.players * games]))
        self.pump_lobby()
        n = self.players * games
        return self.run_until(lambda: self.setup_count >= n, limit, stall=30.0)

    def play(self, limit: float) -> str:
        if self.mute:
            for t in self.tables.values():
                for o in t.clients:
                    o.peer.protocol.muted = o.nick != t.current   # type: ignore[union-attr]
        # The collector's full passes over the load generator's own objects (its mirrors and the
        # placement memo) take tens of ms; they would be charged to the server as latency.
        gc.collect()
        gc.freeze()
        self.playing = True
        for c in self.clients:
            if c.setup_done and not c.done:
                self.maybe_act(c)
        n = len(self.tables)
        status = self.run_until(lambda: self.tables_done >= n, limit, stall=30.0)
        self.playing = False
        for c in self.clients:
            if c.peer is not None:
                c.peer.protocol.muted = False
        return status

    def quit_all(self, limit: float) -> str:
        for c in self.clients:
            if not c.lost:
                c.pending = REQ_QUIT
                c.pending_kind = "quit"
                c.state = "quitting"
                self.send(c, REQ_QUIT)
        return self.run_until(lambda: all(c.lost for c in self.clients), limit, stall=15.0)

    def close(self) -> None:
        for c in self.clients:
            c.lost = True
        self.group.close()

    def skipped_lines(self) -> int:
        """Lines from the server that the client library could not decode (or were oversize)."""
        return sum(c.peer.protocol.skipped for c in self.clients if c.peer is not None)


# ----------------------------------------------------------------------------- one run
def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, int(len(sorted_values) * q))
    return sorted_values[i]


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
