"""The load generator of the server benchmarks: many scripted games over one
:class:`~bench.lib.connection_group.ConnectionGroup`, on one thread (see ``server_load.py``'s
docstring for how it plays and what it measures)."""
from __future__ import annotations

import gc
import heapq
import time
from typing import Any

import orjson

from bench.lib.connection_group import ConnectionGroup, Peer
from bench.lib.scripted_client import Client, Plan, Table, line_choice, line_choices, shelf_ids, shelf_state
from bench.lib.server_process import ServerProcess
from game.netcode.client import CONNECTION_LOST

LOBBY_WINDOW = 32          # clients waiting in the lobby at once (each join is broadcast to all of them)
BUY_PROBABILITY = 0.6      # chance to buy a card when one is affordable

END_TURN = b'{"type":"ReqEndTurn"}\n'
REQ_QUIT = b'{"type":"ReqQuit"}\n'
REQ_GOODBYE = b'{"type":"ReqGoodbye"}\n'
MAIN_ACTIONS = frozenset({"TAKE_MARKET_RESOURCES", "BUY_DEVELOPMENT_CARD", "ACTIVATE_PRODUCTION"})


def dumps(msg: dict[str, Any]) -> bytes:
    return orjson.dumps(msg) + b"\n"


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
        sid = shelf_ids.get(shelves)
        if sid is None:
            sid = shelf_ids[shelves] = len(shelf_ids)
        best: list[tuple[bool, int, Plan]] = []
        best_waste = 99
        choices = line_choices
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


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, int(len(sorted_values) * q))
    return sorted_values[i]
