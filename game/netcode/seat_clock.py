"""Clocks on the seats of real-time games: no silent player holds a table up (issue 28, finding 7).

A player at a real-time table who stops answering (a stranger answering only heartbeats, a
friend who walked away) used to hold the game for ever: setup waited for their choices, the
table for their turn. Now each seat that owes a move has a time: ``setup_time`` for the setup
choices (leaders and starting resources together), ``seat_time`` for each turn. The turn-based
tables' machinery does the rest (:mod:`.turn_based`): who owes a move is
:meth:`.turn_based.TurnBased.owing`, a player out of time is played by the computer for that turn
(:attr:`Room.stand_ins`, which the bot scheduler plays like bots), and ``seat_given_after`` turns
run out in a row give the seat to the computer for good (a bot seat of the room; a rated game
counts it as the player's leaving; 0 on a host's own server: a friend who walked away finds the
seat theirs, the computer having played only the turns run out). The clock here is ``time.monotonic()`` and kept in memory
only: a real-time game's clock starts again when the game is brought back after a restart (the
seats given to the computer are kept in its log, a ``turns`` line, and given again).

Tells our clients (never reference clients) ``UpdateSeatClock {player, code, ...}``, which they
word (:mod:`game.client.seat_clock_words`): ``HURRY {seconds, setup}`` to the player who owes a
move when a quarter of its time (30 s at most) is left, ``PLAYED_FOR {level, missed, setup}`` to
the table when the computer plays a turn for a player out of time, ``SEAT_GIVEN {level, missed}``
when the seat is the computer's for good. The player whose seat is given leaves the game as
after a quit (their connection is in no game any more); the table goes on with the others, and a
table whose people are all gone is removed as any empty game (``grace``), its bots paused.

Solo games have no clock (nobody else waits for them); with ``seat_clock_bots`` off (a host's own
server: its bots are its own) neither has a game of one person with bots. A clock counts only
while a person is at the table.
"""
from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from game.rules.engine import SETUP

from .room import Room
from .turn_based import DEFAULT_LEVEL, TurnBased

log = logging.getLogger("mor.server")

UPDATE_SEAT_CLOCK = "UpdateSeatClock"
HURRY = "HURRY"            # the player who owes a move: little time is left
PLAYED_FOR = "PLAYED_FOR"  # the computer plays this turn (or the setup choices) for a player out of time
SEAT_GIVEN = "SEAT_GIVEN"  # the computer plays that seat to the end
WARN_BEFORE = 30.0
"""Seconds before the deadline the player owing a move is warned (a quarter of its time, if less)."""


def update_seat_clock(player: str, code: str, **args: Any) -> dict[str, Any]:
    return {"player": player, "code": code, **args, "type": UPDATE_SEAT_CLOCK}


@dataclass(slots=True)
class SeatClock:
    """Where the moves of one real-time game stand."""

    level: str                          # the computer's level for a player out of time
    owing: tuple[str, ...] = ()         # who a move is awaited from
    deadline: float | None = None       # by when (time.monotonic()), None: nobody owes one
    setup: bool = True                  # the deadline is setup's
    warned: bool = False                # the owing players were told their time is short
    timer_at: float | None = None       # when the game's timer looks next (the one that counts)
    missed: dict[str, int] = field(default_factory=dict)   # turns run out in a row, per player


class SeatClocks:
    """The clocks of the real-time games of one server (see the module's docstring).

    :param rooms: the server's games by id (read only).
    :param call_at: ``call_at(when, fn, *args)``: run ``fn`` on the loop at ``time.monotonic()`` ``when``.
    :param ratings: the players' ratings (a seat given to the computer counts as one left).
    :param bots: the bot scheduler: its ``step(room)`` asks the computer for the next move if due.
    """

    def __init__(self, options: Any, rooms: dict[int, Room], call_at: Callable[..., None], ratings: Any,
                 bots: Any) -> None:
        self.options = options
        self.rooms = rooms
        self._call_at = call_at
        self.ratings = ratings
        self._step = bots.step
        self.clocks: dict[int, SeatClock] = {}

    def started(self, room: Room, kept: Any = None) -> None:
        """A real-time game started (or was brought back, with the last ``turns`` line of its log,
        ``kept``: the seats given to the computer before): its clock, if it needs one."""
        o = self.options
        if room.turn_time is not None or room.finished:
            return
        given = kept.get("given") if isinstance(kept, dict) else None
        for nick, level in given.items() if isinstance(given, dict) else ():
            if nick in room.nicknames and nick not in room.bots and isinstance(level, str):
                room.bots[nick] = level
                room.humans_given = room.humans_given + (nick,)
                self.ratings.gave_up.setdefault(room.game.seed, set()).add(nick)
        room.humans = tuple(n for n in room.nicknames if n not in room.bots)
        if not (o.seat_time or o.setup_time):
            return
        people = len(room.humans)
        if people < 1 or len(room.nicknames) < 2 or (people < 2 and not o.seat_clock_bots):
            return
        self.clocks[room.id] = SeatClock(next(iter(room.bots.values()), DEFAULT_LEVEL))
        with room.lock:   # (by its id: a room holding itself would wait for the collector to go)
            room.on_move = functools.partial(self._moved_in, room.id)
            self._moved(room)

    def removed(self, room: Room) -> None:
        self.clocks.pop(room.id, None)

    def seconds(self, setup: bool) -> float:
        return self.options.setup_time if setup else self.options.seat_time

    def _moved_in(self, gid: int) -> None:
        room = self.rooms.get(gid)
        if room is not None:
            self._moved(room)

    def _moved(self, room: Room) -> None:
        """After each call saved (under the room's lock): a new deadline when someone new owes a
        move or a turn ended; a turn the computer played for someone ends its stand-in; a turn a
        player played themselves clears their misses."""
        c = self.clocks.get(room.id)
        moved = None if c is None else TurnBased.settle(room, c)
        if moved is None:
            return
        turn_ended, owing = moved
        setup = room.game.phase == SETUP
        fresh = turn_ended or any(n not in c.owing for n in owing) or setup != c.setup
        c.owing = owing
        if fresh or not owing:
            seconds = self.seconds(setup)
            c.deadline = time.monotonic() + seconds if owing and seconds else None
            c.setup, c.warned = setup, False
        self._arm(room.id, c)

    def _arm(self, gid: int, c: SeatClock) -> None:
        """The game's timer, at the warning or the deadline (a timer armed for later is left to
        find nothing to do)."""
        if c.deadline is None:
            return
        warn = min(WARN_BEFORE, self.seconds(c.setup) / 4)
        when = c.deadline if c.warned else c.deadline - warn
        if c.timer_at is not None and c.timer_at <= when:
            return
        c.timer_at = when
        self._call_at(when, self._due, gid, when)

    def _due(self, gid: int, when: float) -> None:
        c = self.clocks.get(gid)
        if c is None or c.timer_at != when:
            return
        c.timer_at = None
        room = self.rooms.get(gid)
        if room is None or room.closed or room.finished or c.deadline is None:
            return
        now = time.monotonic()
        if not room.humans_online:   # nobody at the table: the game waits, its clock too
            c.deadline = now + self.seconds(c.setup)
            c.warned = False
            self._arm(gid, c)
            return
        if now < c.deadline - 0.0005:
            if not c.warned:
                c.warned = True
                with room.lock:
                    for nick in c.owing:
                        if nick not in room.stand_ins:
                            self._tell(room, update_seat_clock(nick, HURRY, seconds=round(c.deadline - now),
                                                               setup=c.setup), only=nick)
            self._arm(gid, c)
            return
        with room.lock:
            for nick in c.owing:
                if nick in room.stand_ins or nick in room.bots:
                    continue
                c.missed[nick] = missed = c.missed.get(nick, 0) + 1
                given = self.options.seat_given_after
                if given and missed >= given:
                    self._give(room, nick, c.level, missed)
                else:
                    room.stand_ins[nick] = c.level
                    log.info("game %d: %s's time ran out: the computer plays this %s", gid, nick,
                             "setup" if c.setup else "turn")
                    self._tell(room, update_seat_clock(nick, PLAYED_FOR, level=c.level, missed=missed, setup=c.setup))
        self._step(room)

    def _give(self, room: Room, nick: str, level: str, missed: int) -> None:
        """``nick``'s seat is the computer's to the end; its player leaves the game (under the
        room's lock)."""
        self._tell(room, update_seat_clock(nick, SEAT_GIVEN, level=level, missed=missed))
        room.stand_ins.pop(nick, None)
        room.bots[nick] = level
        room.humans = tuple(n for n in room.nicknames if n not in room.bots)
        room.humans_given = room.humans_given + (nick,)
        self.ratings.gave_up.setdefault(room.game.seed, set()).add(nick)
        room.online.discard(nick)
        room.away.pop(nick, None)
        if not room.online:
            room.empty_since = time.monotonic()
        s = room.conns.get(nick)
        if s is not None and s.room is room:
            s.room, s.since = None, time.monotonic()
        log.info("game %d: %s's seat goes to the computer (%d turns run out)", room.id, nick, missed)
        if room.log is not None:   # kept for a restart (the last such line: see store.TURNS)
            try:
                room.log.append(["turns", "", {"given": {n: room.bots[n] for n in room.humans_given}}])
            except OSError as e:
                log.warning("game %d: cannot keep the seats given to the computer: %s", room.id, e)

    def _tell(self, room: Room, msg: dict[str, Any], only: str | None = None) -> None:
        """``msg`` to our clients at the table (``only``: to that player alone), and its watchers."""
        for nick in (only,) if only is not None else room.nicknames:
            if nick in room.online and nick not in room.plain:
                room.send(nick, [msg])
        if only is None and room.watch is not None:
            room.watch(orjson.dumps(msg, option=orjson.OPT_APPEND_NEWLINE))

