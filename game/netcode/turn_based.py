"""Turn-based tables (our extension): a time per move, seats kept by player key, My games.

A turn-based table (``moveTime``: an hour, a day or three days a move, chosen at its creation;
wire in :mod:`.turn_wire`) plays the same game as any other, but its people come and go: a player
who closes the game keeps the seat (nobody is marked away, the turn waits for them), and the game
goes on whenever the player whose turn it is moves. Only a player who joined with a key
(:mod:`.ratings`) opens or sits at one, and takes the seat back by that key (``ReqJoin {key,
game}``), whatever connection they come back on.

The clock
    A move is awaited from the players who owe one: in setup, each person who has not chosen yet;
    in play, the current player. When someone new owes a move (or a turn ends), the deadline is
    now + the table's time per move (:attr:`seconds`: ``moveTime`` times the server's
    ``move_time_scale``, which tests set small). The deadline is wall-clock time (``clock()``,
    ``time.time`` unless a test gives another), since it must outlive the process.
    One timer per game (``call_at``) looks at it when it falls due. A player out of time is played
    by the computer at the table's level (its bots' level, else ``medium``) for the rest of that
    turn (:attr:`Room.stand_ins`, which the bot scheduler plays like bots), and is told kindly,
    at once if connected, else on return. :data:`~.turn_wire.MISSED_IN_A_ROW` turns run out in a
    row and the seat is the computer's for good (a bot seat of the room: its points stay the
    seat's, nobody can take it back).

Kept (the game's journal, :mod:`.store`)
    The log's header has ``turnBased {moveTime, table, level}`` and ``owners {nickname: player
    id}`` (the player ids of :mod:`.player_store`, never a key); each time the move awaited changes,
    a ``["turns", "", {owing, deadline, missed, stood, given, standIns}]`` line keeps the clock
    (written before anyone hears of it: a ``kill -9`` loses no deadline told). At restore the last
    such line gives the deadline back (at least ``restart_grace`` away: the server's time down is
    nobody's fault), the seats given to the computer and the turns played for those away.

My games (``ReqMyGames {key}``)
    Every unfinished game of the key's player on this server, real-time and turn-based, whose
    turn it is first (least time left first): :meth:`TurnBased.my_games`. Each game started with
    keyed players keeps its owners, so real-time games are listed too, and taken back by key.

Limits: turn-based tables and games per address (``turn_tables_per_address``), games per key
(``games_per_key``), both checked when a table is opened or sat at (:meth:`TurnBased.table_problem`).
"""
from __future__ import annotations

import heapq
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from game.rules.engine import PLAY, SETUP

from . import protocol as P
from . import turn_wire as T
from .room import SERVER_VOICE, Room
from .server_messages import update_chat
from .server_words import said

log = logging.getLogger("mor.server")

WAKE_SLICE = 0.004
"""Seconds of one wake-up spent at most on replaying games left in their files (see ``_wake_some``)."""
DEFAULT_LEVEL = "medium"
"""The computer's level for a player out of time at a table without bots."""
END_TURN = "ReqEndTurn"


@dataclass(frozen=True)
class TurnTable:
    """What a turn-based table was opened with: its time per move, the computer's level, its name,
    and whether it is private (watched only with its invite ``code``): kept in the game's log, so
    that its game is watched after a restart as before."""

    move_time: int
    level: str = DEFAULT_LEVEL
    name: str = ""
    private: bool = False
    code: str = ""

    @classmethod
    def of(cls, tb: dict[str, Any]) -> "TurnTable":
        """From a log header's ``turnBased`` (its ``moveTime`` checked by the caller)."""
        level = tb.get("level") if isinstance(tb.get("level"), str) else DEFAULT_LEVEL
        return cls(tb["moveTime"], level, str(tb.get("table") or ""), tb.get("private") is True,
                   str(tb.get("code") or ""))


@dataclass(slots=True)
class Clock:
    """Where the moves of one turn-based game stand (see the module's docstring)."""

    table: TurnTable
    owing: tuple[str, ...] = ()          # who a move is awaited from
    deadline: float | None = None        # by when (clock(): wall-clock seconds), None: nobody owes one
    missed: dict[str, int] = field(default_factory=dict)   # turns run out in a row, per player
    stood: dict[str, int] = field(default_factory=dict)    # turns the computer played for them, not told yet
    timer_at: float | None = None        # when the game's timer looks next (time.monotonic())

    def state(self, room: Room) -> dict[str, Any]:
        """The ``turns`` line kept in the game's log."""
        return {"owing": list(self.owing), "deadline": self.deadline, "missed": dict(self.missed),
                "stood": dict(self.stood), "given": {n: room.bots[n] for n in room.humans_given},
                "standIns": dict(room.stand_ins)}


class TurnBased:
    """The turn-based games and the players' games of one server (see the module's docstring).

    :param rooms: the server's games by id (read only).
    :param call_at: ``call_at(when, fn, *args)``: run ``fn`` on the loop at ``time.monotonic()`` ``when``.
    :param ratings: the players' keys and ratings (:class:`~.ratings.Ratings`): the keyed player of
        a connection, and a seat given to the computer counts as one left (last place).
    :param bots: the bot scheduler: its ``step(room)`` asks the computer for the next move if it is
        due, its ``pause(room)`` drops the decision under way.
    :param origin: game id -> the address it was started from (the games', read only).
    :param clock: wall-clock seconds (``time.time``; a test may pass its own).
    """

    def __init__(self, options: Any, rooms: dict[int, Room], call_at: Callable[..., None],
                 ratings: Any, bots: Any, origin: dict[int, str],
                 clock: Callable[[], float] = time.time) -> None:
        self.options = options
        self.rooms = rooms
        self._call_at = call_at
        self.player_of = ratings.of.get
        self.ratings = ratings
        self._step = bots.step
        self._pause = bots.pause
        self.origin = origin
        self.clock = clock
        self.clocks: dict[int, Clock] = {}                # turn-based game -> its clock
        self.owners: dict[int, dict[str, int]] = {}       # game -> {nickname: player id} (keyed seats)
        self.games_of: dict[int, set[int]] = {}           # player id -> their games (unfinished)
        self.asleep: dict[int, Any] = {}                  # games left in their files at start (:class:`.store.Kept`)
        self._asleep_due: list[tuple[float, int]] = []    # their deadlines, a heap (one timer for them all)
        self._asleep_by: dict[str, int] = {}              # their table's name (casefolded) or invite code -> game
        self.bring_back: Callable[[Any], Room | None] = lambda kept: None   # replays one (the games')

    # ------------------------------------------------------------------ the clock
    def seconds(self, table: TurnTable) -> float:
        """The time one move is given at ``table``, in seconds (scaled for tests)."""
        return table.move_time * self.options.move_time_scale

    def is_turn_based(self, room: Room) -> bool:
        return room.id in self.clocks

    @staticmethod
    def settle(room: Room, c: Any) -> tuple[bool, tuple[str, ...]] | None:
        """After a call saved, for ``room``'s clock ``c`` (this one's, or a real-time seat clock's,
        :mod:`.seat_clock`): None if nobody new owes a move and no turn ended; else (whether a
        turn ended, who owes a move now), with each stand-in whose turn is over let go and the
        misses of each player who played their own turn cleared."""
        history = room.game.history
        turn_ended = bool(history) and history[-1][0] == "apply" and getattr(history[-1][2], "TYPE", "") == END_TURN
        owing = TurnBased.owing(room)
        if owing == c.owing and not turn_ended:
            return None
        for nick in c.owing:
            if nick in owing and not turn_ended:
                continue
            if room.stand_ins.pop(nick, None) is None and nick not in room.bots:
                c.missed[nick] = 0      # played by its player
        return turn_ended, owing

    @staticmethod
    def owing(room: Room) -> tuple[str, ...]:
        """The people a move is awaited from now (the computer's seats excluded)."""
        game = room.game
        if game.phase == SETUP:
            return tuple(p.nickname for p in game.players if p.active and p.nickname not in room.bots
                         and not (p.chose_leaders and p.chose_resources))
        if game.phase == PLAY:
            p = game.current_player
            if p.active and p.nickname not in room.bots:
                return (p.nickname,)
        return ()

    def _moved(self, room: Room) -> None:
        """After each call saved in a turn-based game (under its lock: nothing here takes it): a new
        deadline when someone new owes a move or a turn ended; a turn the computer played for
        someone ends its stand-in; a turn a player played themselves clears their misses."""
        c = self.clocks.get(room.id)
        moved = None if c is None else self.settle(room, c)
        if moved is None:
            return
        turn_ended, owing = moved
        fresh = turn_ended or any(n not in c.owing for n in owing)
        c.owing = owing
        if fresh or not owing:
            c.deadline = self.clock() + self.seconds(c.table) if owing else None
        self._keep(room, c)
        self._tell_clock(room, c)
        self._arm(room.id, c)

    def _arm(self, gid: int, c: Clock) -> None:
        """One timer per game, at its deadline (a later deadline is looked at when it falls due)."""
        if c.deadline is None or c.timer_at is not None:
            return
        c.timer_at = time.monotonic() + max(0.0, c.deadline - self.clock())
        self._call_at(c.timer_at, self._due, gid)

    def _due(self, gid: int) -> None:
        """The game's timer: the players who still owe the move past its deadline are played by the
        computer this turn (told at once, or on return); the third turn in a row, for good."""
        c = self.clocks.get(gid)
        if c is not None:
            c.timer_at = None
        room = self.wake(gid) if gid in self.asleep else self.rooms.get(gid)
        c = self.clocks.get(gid)
        if c is None or room is None:
            return
        if room.closed or room.finished or c.deadline is None:
            return
        left = c.deadline - self.clock()
        if left > 0.0005:
            self._arm(gid, c)
            return
        level = c.table.level
        with room.lock:
            for nick in c.owing:
                if nick in room.stand_ins or nick in room.bots:
                    continue
                c.missed[nick] = c.missed.get(nick, 0) + 1
                if c.missed[nick] >= T.MISSED_IN_A_ROW:
                    room.bots[nick] = level
                    room.humans = tuple(n for n in room.nicknames if n not in room.bots)
                    room.humans_given = room.humans_given + (nick,)
                    self.ratings.gave_up.setdefault(room.game.seed, set()).add(nick)
                    words = said("turns.given_to_bot", nick=nick, n=c.missed[nick], level=level)
                    log.info("game %d: %s's seat goes to the computer (%d turns run out)", gid, nick, c.missed[nick])
                    notice = T.notice(update_chat(SERVER_VOICE, words), T.GIVEN, nick=nick, n=c.missed[nick], level=level)
                    for other in room.nicknames:
                        room.send(other, [notice])
                else:
                    room.stand_ins[nick] = level
                    c.stood[nick] = c.stood.get(nick, 0) + 1
                    log.info("game %d: %s's time ran out: the computer plays this turn", gid, nick)
                    if nick in room.online:
                        c.stood.pop(nick)
                        chat = update_chat(SERVER_VOICE, said("turns.stood_now", level=level))
                        room.send(nick, [T.notice(chat, T.STOOD_NOW, level=level)])
            self._keep(room, c)
        self._step(room)

    def _keep(self, room: Room, c: Clock) -> None:
        """Write the clock to the game's log (a ``turns`` line); a failure is logged: at restore the
        deadline is then counted again from the start."""
        if room.log is None:
            return
        try:
            room.log.append(["turns", "", c.state(room)])
        except OSError as e:
            log.warning("game %d: cannot keep its clock: %s", room.id, e)
        if not room.online:   # nobody at the table: its file is closed until the next line
            room.log.release()

    def _tell_clock(self, room: Room, c: Clock) -> None:
        msg = self.clock_message(c)
        for nick in room.nicknames:
            room.send(nick, [msg])

    def clock_message(self, c: Clock) -> dict[str, Any]:
        left = None if c.deadline is None else max(0.0, round(c.deadline - self.clock(), 1))
        return T.update_turn_clock(c.deadline, left, list(c.owing))

    # ------------------------------------------------------------------ games coming and going
    def header(self, players: list[Any], turn: TurnTable | None) -> dict[str, Any]:
        """What a new game's log header keeps of it here: the keyed seats, the table's clock."""
        out: dict[str, Any] = {}
        owners = {p.nickname: k.id for p in players if p.nickname and (k := self.player_of(p)) is not None}
        if owners:
            out["owners"] = owners
        if turn is not None:
            out["turnBased"] = {"moveTime": turn.move_time, "level": turn.level, "table": turn.name,
                                "private": turn.private, "code": turn.code}
        return out

    def started(self, room: Room, header: dict[str, Any], restoring: bool = False) -> None:
        """A game started (or restored: its clock is then :meth:`restored`'s) with the log
        ``header``: its owners and, at a turn-based table, its clock."""
        owners = header.get("owners")
        if isinstance(owners, dict):
            kept = {str(n): v for n, v in owners.items() if n in room.nicknames and type(v) is int}
            if kept:
                self.owners[room.id] = kept
                for nick, pid in kept.items():
                    self.games_of.setdefault(pid, set()).add(room.id)
        tb = header.get("turnBased")
        if not isinstance(tb, dict) or tb.get("moveTime") not in T.MOVE_TIMES:
            return
        table = TurnTable.of(tb)
        old = self.clocks.get(room.id)   # (its clock while it was left in its file: its timer)
        self.clocks[room.id] = Clock(table, timer_at=old.timer_at if old is not None else None)
        room.turn_time = table.move_time
        with room.lock:
            room.on_move = lambda: self._moved(room)
            if not restoring:
                self._moved(room)

    def restored(self, room: Room, header: dict[str, Any], kept: Any) -> None:
        """A game brought back at start, with its last ``turns`` line (``kept``, if any)."""
        self.started(room, header, restoring=True)
        c = self.clocks.get(room.id)
        if c is None:
            return
        if not isinstance(kept, dict):   # no clock kept (a line lost): counted from now
            with room.lock:
                self._moved(room)
            kept = None
        with room.lock:
            kept = kept or {"owing": list(c.owing), "deadline": c.deadline}
            given = kept.get("given") if isinstance(kept.get("given"), dict) else {}
            for nick, level in given.items():
                if nick in room.nicknames and isinstance(level, str):
                    room.bots[nick] = level
                    room.humans_given = room.humans_given + (nick,)
                    self.ratings.gave_up.setdefault(room.game.seed, set()).add(nick)
            room.humans = tuple(n for n in room.nicknames if n not in room.bots)
            stand_ins = kept.get("standIns") if isinstance(kept.get("standIns"), dict) else {}
            room.stand_ins.update({n: v for n, v in stand_ins.items() if n in room.humans and isinstance(v, str)})
            for name in ("missed", "stood"):
                got = kept.get(name)
                if isinstance(got, dict):
                    getattr(c, name).update({n: v for n, v in got.items() if n in room.nicknames and type(v) is int})
            owing = self.owing(room)
            deadline = kept.get("deadline")
            if tuple(kept.get("owing") or ()) == owing and type(deadline) in (int, float):
                c.owing = owing
                c.deadline = max(float(deadline), self.clock() + min(self.options.restart_grace, self.seconds(c.table)))
            else:
                c.owing = ()
                self._moved(room)
        self._arm(room.id, c)
        if room.log is not None:
            room.log.release()   # no descriptor held while nobody plays (20,000 games wait at once)
        self._call_at(time.monotonic(), self._step, room)   # the computer's seats play on at once

    # ------------------------------------------------------------------ games left in their files
    def kept(self, games: list[Any]) -> None:
        """The turn-based games left in their files at start (:class:`.store.Kept`): their owners
        and clocks from their header and last ``turns`` line, their timers armed; each is replayed
        when someone needs it (:meth:`wake`), and meanwhile ``wake_batch`` at a time."""
        now = self.clock()
        due: list[tuple[float, int]] = []
        for k in games:
            tb = k.header.get("turnBased") if isinstance(k.header, dict) else None
            if not isinstance(tb, dict) or tb.get("moveTime") not in T.MOVE_TIMES:
                continue
            gid = k.game_id
            self.asleep[gid] = k
            owners = k.header.get("owners")
            for nick, pid in (owners.items() if isinstance(owners, dict) else ()):
                if type(pid) is int:
                    self.owners.setdefault(gid, {})[str(nick)] = pid
                    self.games_of.setdefault(pid, set()).add(gid)
            c = self.clocks[gid] = Clock(TurnTable.of(tb))
            if c.table.name:        # a watcher may ask for it before it is replayed
                self._asleep_by[c.table.name.casefold()] = gid
            if c.table.code:
                self._asleep_by[c.table.code] = gid
            turns = k.turns if isinstance(k.turns, dict) else {}
            c.owing = tuple(str(n) for n in turns.get("owing") or ())
            deadline = turns.get("deadline")
            if not c.owing or k.header.get("bots") or turns.get("given") or turns.get("standIns"):
                due.append((now, gid))      # the computer plays there (bots, turns run out): replayed now
            elif type(deadline) in (int, float):
                c.deadline = max(float(deadline), now + min(self.options.restart_grace, self.seconds(c.table)))
                due.append((c.deadline, gid))
        # one timer for them all, at the first deadline (each game's own once it is replayed)
        heapq.heapify(due)
        self._asleep_due = due
        if due:
            self._call_at(time.monotonic() + max(0.0, due[0][0] - now), self._asleep_deadlines)
        self.ratings.hold(self.asleep)
        if self.asleep:
            log.info("%d turn-based games kept in their files, brought back as they are needed", len(self.asleep))
            if self.options.wake_batch:
                self._call_at(time.monotonic(), self._wake_some)

    def _asleep_deadlines(self) -> None:
        """The first deadlines of games still in their files have come: those games are replayed
        (their own timers then play the turns run out)."""
        due, now = self._asleep_due, self.clock()
        while due and due[0][0] <= now + 0.0005:
            _, gid = heapq.heappop(due)
            if gid in self.asleep:
                room = self.wake(gid)
                c = self.clocks.get(gid)
                if room is not None and c is not None:
                    c.timer_at = None
                    self._arm(gid, c)
        if due:
            self._call_at(time.monotonic() + max(0.001, due[0][0] - now), self._asleep_deadlines)

    def wake_table(self, name: str | None = None, code: str | None = None) -> None:
        """A watcher asks for the table ``name`` or invite ``code``: its game, if still in its file,
        is replayed now (and so may be watched: see :meth:`.watchers.Watchers.restored`)."""
        gid = self._asleep_by.pop(code if code is not None else (name or "").casefold(), None)
        if gid is not None and gid in self.asleep:
            self.wake(gid)

    def wake(self, gid: int) -> Room | None:
        """The room of game ``gid``, replayed from its file first if it was left there."""
        k = self.asleep.pop(gid, None)
        if k is not None:
            room = self.bring_back(k)
            if room is None:        # over, or damaged: nobody's game any more
                self.clocks.pop(gid, None)
                for nick, pid in self.owners.pop(gid, {}).items():
                    self.games_of.get(pid, set()).discard(gid)
            return room
        return self.rooms.get(gid)

    def _wake_some(self) -> None:
        """A few games left in their files replayed, ``wake_batch`` at most and for at most
        :data:`WAKE_SLICE` seconds, then the loop is left to everyone else for four times that."""
        began = time.perf_counter()
        for gid in sorted(self.asleep)[:self.options.wake_batch]:
            self.wake(gid)
            if time.perf_counter() - began >= WAKE_SLICE:
                break
        if self.asleep:
            spent = time.perf_counter() - began
            self._call_at(time.monotonic() + max(0.002, 4 * spent), self._wake_some)

    def left(self, room: Room, nick: str) -> None:
        """A player of a turn-based game closed it: their seat stays theirs, their turn waits; the
        last one out closes its file until the next line."""
        room.go_offline(nick)
        if not room.online and room.log is not None:
            room.log.release()

    def returned(self, s: Any, room: Room, nick: str) -> None:
        """A player is back at their turn-based game: the turns the computer played for them are
        told (kindly), the computer stops playing for them, and the clock is said."""
        c = self.clocks.get(room.id)
        if c is None:
            return
        with room.lock:
            n = c.stood.pop(nick, 0)
            took_over = room.stand_ins.pop(nick, None) is not None
            if took_over:   # back in the middle of the turn the computer plays for them: theirs again
                c.deadline = self.clock() + self.seconds(c.table)
                self._keep(room, c)
        if took_over:
            self._pause(room)
            self._step(room)
            self._arm(room.id, c)
        if n:
            level = c.table.level
            s.send(T.notice(update_chat(SERVER_VOICE, said("turns.stood", n=n, level=level)), T.STOOD, n=n, level=level))
        s.send(self.clock_message(c))

    def _kept_row(self, gid: int, k: Any, nick: str, now: float) -> dict[str, Any]:
        """A row of ``UpdateMyGames`` for a game still in its file."""
        c = self.clocks[gid]
        turns = k.turns if isinstance(k.turns, dict) else {}
        given = turns.get("given") if isinstance(turns.get("given"), dict) else {}
        yours = nick in c.owing
        return {"game": gid, "table": c.table.name, "nickname": nick, "players": list(k.header.get("nicknames") or ()),
                "moveTime": c.table.move_time, "yourTurn": yours,
                "timeLeft": max(0.0, round(c.deadline - now, 1)) if yours and c.deadline is not None else None,
                "phase": "", "givenToBot": nick in given,   # (its phase is known once it is replayed)
                **_bot_levels(k.header.get("bots"))}

    def removed(self, room: Room) -> None:
        """A game is removed (finished, or closed): its owners and clock are forgotten."""
        self.clocks.pop(room.id, None)
        for nick, pid in self.owners.pop(room.id, {}).items():
            games = self.games_of.get(pid)
            if games is not None:
                games.discard(room.id)
                if not games:
                    del self.games_of[pid]

    def ended(self, room: Room) -> None:
        """A game is over: it is no player's game in progress any more."""
        self.removed(room)

    # ------------------------------------------------------------------ seats by key
    def seat_of(self, s: Any, gid: int) -> tuple[Room | None, str | None, tuple[str, str] | None]:
        """The room and seat of ``s``'s player in game ``gid``: (room, nickname, None), or the
        refusal (``ErrTable`` reason, words)."""
        p = self.player_of(s)
        if p is None:
            return None, None, (P.TABLE_NEEDS_KEY, T.NEEDS_KEY)
        nick = next((n for n, pid in self.owners.get(gid, {}).items() if pid == p.id), None)
        room = self.wake(gid) if nick is not None else None
        if room is None or nick is None or room.finished or room.closed:
            return None, None, (P.TABLE_NO_SUCH, T.NOT_YOUR_GAME)
        if nick in room.bots:
            c = self.clocks.get(gid)
            return None, None, (P.TABLE_NO_SUCH, said(
                "turns.given_to_bot", nick=nick, n=T.MISSED_IN_A_ROW, level=c.table.level if c else DEFAULT_LEVEL))
        if nick in room.online or ((o := room.conns.get(nick)) is not None and not o.closed and not o.left):
            return None, None, (P.TABLE_IN_USE, T.SEAT_IN_USE)
        return room, nick, None

    def seat_by_token(self, s: Any, nick: str, token: str | None) -> Room | None:
        """The turn-based game where ``s``'s player holds ``nick`` with the seat's ``token`` (a
        client coming back after a drop, as to any seat), or None."""
        p = self.player_of(s)
        if p is None or not token:
            return None
        pid = p.id
        for gid in sorted(self.games_of.get(pid, ())):
            room = self.wake(gid) if gid in self.asleep and self.owners.get(gid, {}).get(nick) == pid else self.rooms.get(gid)
            if (room is not None and gid in self.clocks and self.owners[gid].get(nick) == pid and not room.finished
                    and not room.closed and nick not in room.online and nick not in room.bots
                    and secrets.compare_digest((room.tokens.get(nick) or "").encode(), token.encode())):
                return room
        return None

    def table_problem(self, s: Any, move_time: int | None, ip: str, tables_from: int, opening: bool) -> tuple[str, str] | None:
        """Why ``s`` may not open (``opening``) or sit at a turn-based table of ``move_time``, or
        None. ``tables_from``: turn-based tables open from ``ip``."""
        if opening and move_time not in T.MOVE_TIMES:
            return P.TABLE_BAD, T.BAD_MOVE_TIME
        p = self.player_of(s)
        if p is None:
            return P.TABLE_NEEDS_KEY, T.NEEDS_KEY
        o = self.options
        if opening and o.turn_tables_per_address:
            live = sum(1 for gid in self.clocks if (r := self.rooms.get(gid)) is not None and not r.finished
                       and self.origin.get(gid) == ip)
            if live + tables_from >= o.turn_tables_per_address:
                return P.TABLE_LIMIT, said("limits.turn_tables", most=o.turn_tables_per_address)
        if o.games_per_key and len(self.games_of.get(p.id, ())) >= o.games_per_key:
            return P.TABLE_LIMIT, said("limits.games_per_key", most=o.games_per_key)
        return None

    # ------------------------------------------------------------------ My games
    def my_games(self, s: Any, key: str | None, find: Callable[[str], Any]) -> None:
        """``ReqMyGames {key}``: the unfinished games of the key's player, whose turn it is first.
        ``find(key)``: the player of a key (None: unknown), over TLS only."""
        from .ratings_wire import check_key
        if not s.tls or (key is not None and check_key(key) is not None) or (key is None and self.player_of(s) is None):
            s.send(T.err_my_games(T.NO_KEY, T.MY_GAMES_NO_KEY))
            return
        p = find(key) if key is not None else self.player_of(s)
        if p is None:    # a key this server has not met: no games
            s.send(T.update_my_games([]))
            return
        out = []
        now = self.clock()
        for gid in sorted(self.games_of.get(p.id, ())):
            room = self.rooms.get(gid)
            nick = next((n for n, pid in self.owners.get(gid, {}).items() if pid == p.id), None)
            k = self.asleep.get(gid)
            if k is not None and nick is not None:   # still in its file: as its header and clock say
                out.append(self._kept_row(gid, k, nick, now))
                continue
            if room is None or nick is None or room.finished or room.closed:
                continue
            c = self.clocks.get(gid)
            if c is not None:
                yours = nick in c.owing
                left = max(0.0, round(c.deadline - now, 1)) if yours and c.deadline is not None else None
            else:
                yours = nick in self.owing(room)
                left = None
            out.append({"game": gid, "table": c.table.name if c is not None else "", "nickname": nick,
                        "players": list(room.nicknames), "moveTime": c.table.move_time if c is not None else None,
                        "yourTurn": yours, "timeLeft": left, "phase": room.game.phase,
                        "givenToBot": nick in room.bots, **_bot_levels(room.bots)})
        out.sort(key=lambda g: (not g["yourTurn"], g["timeLeft"] if g["timeLeft"] is not None else float("inf"),
                                g["game"]))
        s.send(T.update_my_games(out[:T.MY_GAMES_MAX]))


def _bot_levels(bots: Any) -> dict[str, Any]:
    """A row's ``botLevels`` ({bot nickname: level}, as the game's ``UpdateGame`` has): none without bots."""
    return {"botLevels": {str(n): str(v) for n, v in bots.items()}} if isinstance(bots, dict) and bots else {}
