"""The lobby of a server: where players wait for a game, and the limits on what they start.

Two ways into a game (see :mod:`game.netcode.server` for the wire):

* the **Quick game**: one waiting list, shared with reference clients (``UpdateBookedSeats``); its
  head sets the next game's size (and, our extension, its bots and their pace) with
  ``ReqNewGame``, and the game starts when enough people wait (a game of one person, solo or with
  bots only, anyone in the list starts at once: nobody waits for it). Only the first :meth:`Lobby.told`
  of the list hear of its changes; a head that does not choose within ``head_time`` goes to the
  back (:meth:`Lobby.watch_head`);
* the **open tables** (our extension; seated by :class:`~.table_lobby.TableLobby`, a part of the
  lobby in a module of its own, and kept in :mod:`.tables`): a table is opened, sat at by name or
  invite code, resized by its host; its game starts once people and bots fill it.

A ``ReqJoin`` whose nickname holds a seat in an unfinished game goes back to it (:meth:`.games.Games.rejoin`).
Every new game or table is checked against the per-address limits (games and bot seats started
from one address) and the server's bots (seats in total, and the workers' pace:
:meth:`.bot_scheduler.BotScheduler.at_pace`). A game that cannot be saved (a full disk) does not
start: nothing changes, and the janitor tries again every second (:meth:`Lobby.retry_start`).

No socket here: a player is a :class:`~.games.Client`, whose ``send``/``push`` queue messages.
"""
from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any, Callable

import orjson

from game.rules.components import GameConfig

from . import protocol as P
from .bot_scheduler import BotScheduler, bots_at_work
from .names import fold, reserved
from .client_messages import ReqJoin, ReqNewGame, validate_nickname
from .event_log import EventLog
from .framing import encode
from .games import Client, Games, token_message
from .server_messages import (
    err_new_game,
    err_nickname,
    err_table,
    update_booked_seats,
    update_chat,
    update_join_game,
)
from .server_words import SERVER_VOICE, said
from .table_lobby import CANNOT_START, TableLobby
from .tables import Table, TableBook

log = logging.getLogger("mor.server")


class Lobby(TableLobby):
    """The waiting list and the open tables of one server (see the module's docstring; the
    tables' side is :class:`~.table_lobby.TableLobby`'s).

    Public tables (read them under ``lock``): ``waiting`` (the waiting list, head first),
    ``tables`` (the open tables), and the Quick game's next size as its head chose it
    (``pending_count``, None until then; ``pending_bots``, ``pending_pace``).
    """

    def __init__(self, config: GameConfig, options: Any, lock: threading.RLock, by_nick: dict[str, Any],
                 games: Games, bots: BotScheduler, rating_of: Callable[[str], int | None] | None = None,
                 call_at: Callable[..., None] | None = None) -> None:
        self.config = config
        self.call_at = call_at         # the loop's timers (None: every change is told at once)
        self.rating_of = rating_of     # a seated player's rating, shown in the list of tables (None: no key)
        self.options = options
        self.lock = lock
        self.by_nick = by_nick
        self.games = games
        self.bots = bots
        self.waiting: list[Any] = []
        self._waiting_names: dict[str, Any] = {}   # the waiting list's nicknames, folded (names.fold) -> who
        self.tables = TableBook()      # the open tables (our extension), each waiting for its players
        self.events = EventLog(log)    # sits, departures and refusals, summed up past a few (the server's)
        self.pending_count: int | None = None
        self.pending_bots: tuple[str, ...] = ()
        self.pending_pace: float | None = None   # the pending game's botPace (None: bot_delay)
        self._head: tuple[Any, float] = (None, 0.0)   # the head of the list, and since when it is asked
        self._passed: set[Any] = set()   # those of the list that let their time as its head pass
        self._start_failing = False        # the pending game could not be saved: tried again every second
        self.watchers: Any = None          # the tables' watchers (:class:`~.watchers.Watchers`), told of their changes
        self.turns: Any = None             # the turn-based tables' clocks and seats by key (:class:`~.turn_based.TurnBased`)
        self.player_of: Callable[[Any], Any] = lambda s: None   # a connection's player, by its key (None: no key)

    def leave(self, s: Client) -> bool:
        """A player leaves the waiting list or their table (quits, or the connection ended); False
        if they were in neither."""
        if s in self.waiting:
            at = self.waiting.index(s)
            del self.waiting[at]
            self._forget_waiting([s])
            if at == 0 or not self.waiting:
                self.pending_count = None  # the new head chooses the next game's size
                self.pending_bots = ()
                self.pending_pace = None
            self.changed(at)
            return True
        if s.table is not None:
            self.leave_table(s)
            return True
        return False

    def _forget_waiting(self, gone: list[Any]) -> None:
        for w in gone:
            key = fold(w.nickname or "")
            if self._waiting_names.get(key) is w:
                del self._waiting_names[key]

    def retry_start(self) -> None:
        """While the disk is full (every second): start the game waiting to start, if it can be now."""
        if self._start_failing and self.pending_count is not None:
            self.changed(None)
        if self._start_failing:
            for table in self.tables:
                if table.full:
                    self.table_changed(table)

    def chat(self, s: Client, data: bytes) -> None:
        """A line said in a waiting room (``data``: its ``UpdateChat``, encoded): the next game talks
        among itself (the people of the sender's table, or the first of the waiting list); the
        sender's own copy is its answer."""
        table = s.table
        for other in table.seats if table is not None else self.waiting[:self.told()]:
            if other.extensions and other is not s:
                other.push(data)
        s.push(data)

    def in_waiting_room(self, s: Client) -> bool:
        """Whether ``s`` waits for a game (at a table or in the waiting list)."""
        return s.table is not None or s in self.waiting

    def join(self, s: Client, msg: ReqJoin) -> None:
        """``ReqJoin``: a first join puts the player in the waiting list; a seated nickname with
        the right token (or none, under ``compat_rejoin``) goes back to its seat."""
        nick = validate_nickname(msg.nickname)
        with self.lock:
            if s.nickname is None and msg.token is not None:
                s.extensions = True
            if s.nickname is not None:
                s.send(err_nickname(P.ALREADY_SET))
            elif nick is None:
                s.send(err_nickname(P.NOT_SET))
            elif msg.game is not None and self.turns is not None:
                self._sit_by_key(s, msg.game)
            elif (self.by_nick.like(h := self.games.handle_of(s, nick)) is not None or reserved(nick)
                  or self.games.seated_like(h) not in (None, h)):   # one seated that reads the same
                s.send(err_nickname(P.TAKEN))
            elif self.turns is not None and (kept := self.turns.seat_by_token(s, nick, msg.token)) is not None:
                self.games.rejoin(s, nick, kept, msg.token, by_key=True)   # back after a drop, token and key
            else:
                room = self.games.seat(h)
                if room is not None and not room.closed and (
                        not room.finished or (msg.token and self.games.may_retake(room, nick, msg.token))):
                    # a game that ended while its player was away is still theirs to see, with
                    # the token that proves the seat; anyone else starts afresh in the waiting room
                    self.games.rejoin(s, nick, room, msg.token)
                elif msg.table is not None:
                    self._enter_table(s, nick, h, msg.token, msg.table)
                elif fold(nick) in self._waiting_names:   # (the Quick game's people are one table)
                    s.send(err_nickname(P.TAKEN))
                else:
                    self._enter_lobby(s, nick, h, msg.token)

    def _sit_by_key(self, s: Client, gid: int) -> None:
        """``ReqJoin {key, game}`` (our extension): the key's player takes their seat in that game
        again (the nickname is the seat's), or is told why not with ``ErrTable``."""
        room, nick, problem = self.turns.seat_of(s, gid)
        if problem is not None or room is None or nick is None:
            reason, words = problem or (P.TABLE_NO_SUCH, said("game.no_such"))
            self.events.event("seats refused", s.ip, "%r: seat by key refused (%s): %s", s, reason, words)
            s.send(err_table(reason, words))
            return
        self.games.rejoin(s, nick, room, "", by_key=True)

    def _enter_lobby(self, s: Client, nick: str, h: str, token: str | None) -> None:
        s.nickname, s.handle = nick, h
        s.token = secrets.token_urlsafe(16)
        self.by_nick[h] = s
        self.waiting.append(s)
        self._waiting_names[fold(nick)] = s
        s.since = time.monotonic()
        if token is not None:
            s.send(token_message(s.token))
        self.events.event("joins to the waiting list", s.ip, "%s joined the waiting list", nick)
        at = len(self.waiting) - 1
        if at >= self.told():   # the others are not told of one more behind them
            self._tell_booked(s)
        self.changed(at)

    def new_game(self, s: Client, msg: ReqNewGame) -> None:
        """``ReqNewGame``: only the head of the waiting list may set the size of the next game
        (and, our extension, ask for bots in it; see the module docstring)."""
        count = msg.players_count
        bots = msg.bots or ()
        pace = msg.bot_pace
        with self.lock:
            if s.nickname is None:
                s.send(err_nickname(P.NOT_SET))
            elif s.table is not None and not s.left:
                self._table_new_game(s, s.table, count, tuple(bots), pace)
            elif (not self.waiting or self.waiting[0] is not s) and not (count - len(bots) == 1 and s in self.waiting):
                s.send(err_new_game(False, said("bots.only_the_head") if bots else None))
            elif not self.config.min_players <= count <= self.config.max_players:
                s.send(err_new_game(True))
            elif bots and (problem := self._bots_problem(s, count, bots)) is not None:
                s.send(problem)
            elif pace is not None and (problem := self._pace_problem(s, pace)) is not None:
                s.send(problem)
            elif (problem := self._limits_problem(s, bots)) is not None:
                s.send(problem)
            elif self.waiting[0] is not s:   # a game of one person (solo, or with bots): nobody to wait for
                at = self.waiting.index(s)
                if self._start([s], tuple(bots), None if pace is None else float(pace)):
                    del self.waiting[at]
                    self._send_booked_seats(at)
            else:
                if self.pending_count is None:   # the game chosen has the head's time to fill, from now
                    self._head = (s, time.monotonic())
                self.pending_count = count
                self.pending_bots = tuple(bots)
                self.pending_pace = None if pace is None else float(pace)
                s.announced = None          # the head always gets its answer, UpdateJoinGame
                self.changed(None)

    def _bots_problem(self, s: Client, count: int, bots: tuple[str, ...]) -> dict[str, Any] | None:
        """The refusal of a request for ``bots`` in a game of ``count``, or None if it may be had."""
        from game.bots import LEVELS
        if not s.extensions:
            return err_new_game(False, said("bots.extension"))
        unknown = [b for b in bots if b not in LEVELS]
        if unknown:
            return err_new_game(False, said("bots.unknown_level", level=repr(unknown[0]), levels=", ".join(LEVELS)))
        if len(bots) > count - 1:
            return err_new_game(True, said("bots.too_many", count=count, room=count - 1))
        return None

    def _limits_problem(self, s: Client, bots: tuple[str, ...]) -> dict[str, Any] | None:
        """The refusal of a new game past the limits of ``s``'s address or of the server's bots,
        or None. A reference client gets the bare ``ErrNewGame`` (no ``reason``)."""
        why = self._limits_words(s, bots)
        if why is None:
            return None
        self.events.event("new games refused", s.ip, "%r: new game refused: %s", s, why)
        return err_new_game(False, why if s.extensions else None)

    def _limits_words(self, s: Client, bots: tuple[str, ...], table: Table | None = None,
                      turn_based: bool = False) -> str | None:
        """Why a new game (or table) of ``s`` with ``bots`` is past the limits of its address or
        of the server's bots, or None. ``table``: the table whose bots are being changed (not
        counted twice, nor as one more table)."""
        o = self.options
        live = self.games.live_from(s.ip)
        mine = [t for t in self.tables if t.origin == s.ip and t is not table] if bots else []
        if table is None and not turn_based and o.tables_per_address and (   # turn-based: limits of their own
                len(live) + self.tables.opened_from(s.ip) - self.tables.opened_from(s.ip, True)
                >= o.tables_per_address):
            return said("limits.tables", most=o.tables_per_address)
        if bots and o.bots_per_address and (sum(len(r.bots) for r in self.games.live_from(s.ip, turn_based=True))
                                            + sum(len(t.bots) for t in mine) + len(bots) > o.bots_per_address):
            return said("limits.bots", most=o.bots_per_address)
        if bots and o.max_bots and (sum(len(r.bots) for r in self.games.rooms.values() if bots_at_work(r))
                                    + sum(len(t.bots) for t in self.tables if t is not table)
                                    + len(bots) > o.max_bots):
            return said("limits.bots_busy", most=o.max_bots)
        if bots and (table is None or not table.bots):
            return self.bots.at_pace(sum(1 for t in self.tables if t.bots and t is not table))
        return None

    @staticmethod
    def _pace_problem(s: Client, pace: Any) -> dict[str, Any] | None:
        """The refusal of ``botPace: pace`` (seconds between two bot moves), or None if it is good."""
        if not s.extensions:
            return err_new_game(False, said("bots.pace_extension"))
        if type(pace) not in (int, float) or not 0 <= pace <= P.BOT_PACE_MAX:
            shown = orjson.dumps(pace).decode()[:40]
            return err_new_game(False, said("bots.pace_bad", most=f"{P.BOT_PACE_MAX:g}", value=shown))
        return None

    def changed(self, changed: int | None) -> None:
        """Tell the waiting list where it stands; start a game when enough players wait.

        ``changed``: the place in the list where it changed (a join, a departure), or None. Only
        the first :meth:`_told` connections (whose next game it is) are sent ``UpdateBookedSeats``
        on a change among them, so a join or a departure costs the same however long the list
        is; the others were told where they stood when they joined, and are told again when they
        move up among the first. When a game starts, its players leave the list and the new first
        ones are told; while a game is pending, its first players get ``UpdateJoinGame`` once.
        Called under the server lock.
        """
        if changed is not None:
            self._send_booked_seats(changed)
        count = self.pending_count
        if count is None:
            return
        bots = self.pending_bots
        people = count - len(bots)
        if len(self.waiting) >= people:
            if not self._start(self.waiting[:people], bots, self.pending_pace):
                return
            del self.waiting[:people]
            self.pending_count = None
            self.pending_bots = ()
            self.pending_pace = None
            self._send_booked_seats(0)
            return
        for w in self.waiting[:people]:
            said = (count, bots) if w.extensions and bots else count
            if w.announced != said:
                w.announced = said
                w.send(update_join_game(count, list(bots) if w.extensions and bots else None))

    def _start(self, people: list[Client], bots: tuple[str, ...], pace: float | None) -> bool:
        """Start the game of ``people`` (first of them the one who chose it) from the waiting
        list, and forget them there (the caller takes them off the list); False if it cannot be
        saved: nothing changed, they are told, and the janitor tries again."""
        try:
            self.games.start(people, bots, pace)
        except OSError as e:
            if not self._start_failing:
                self._start_failing = True
                log.warning("cannot save a new game (%s): it starts once it can", e)
                data = encode(update_chat(SERVER_VOICE, CANNOT_START))
                for w in people:
                    if w.extensions:
                        w.push(data)
            return False
        if self._start_failing:
            self._start_failing = False
            log.warning("saving again: the game waiting to start has started")
        if self.watchers is not None and people[0].room is not None:
            self.watchers.started_quick(people[0].room)
        self._forget_waiting(people)
        return True

    def told(self) -> int:
        """How many of the waiting list are told of its changes: a game's worth of players."""
        return max(1, self.config.max_players)

    def head_limit(self) -> float:
        """Seconds the head of the waiting list has to choose: ``head_time`` while the list is no
        longer than a game, less as it grows (down to a sixth), so that a long list moves on."""
        head_time, told = self.options.head_time, self.told()
        return max(head_time / 6, head_time * min(1.0, told / max(1, len(self.waiting))))

    def _booked_lines(self) -> tuple[bytes, bytes]:
        """``UpdateBookedSeats`` encoded for a reference client, and for ours (with the names of
        the first :meth:`_told` waiting: the seats their waiting room shows)."""
        head = self.waiting[0].nickname or ""
        plain = encode(update_booked_seats(len(self.waiting), head))
        names = encode(update_booked_seats(len(self.waiting), head,
                                           [w.nickname or "" for w in self.waiting[:self.told()]]))
        return plain, names

    def _tell_booked(self, w: Client) -> None:
        plain, names = self._booked_lines()
        w.push(names if w.extensions else plain)

    def _send_booked_seats(self, changed: int) -> None:
        """``UpdateBookedSeats`` to the first :meth:`_told` of the waiting list, if the list
        changed among them (at ``changed``)."""
        told = self.told()
        if self.waiting and changed < told:
            plain, names = self._booked_lines()     # each encoded once for all of them
            for w in self.waiting[:told]:
                w.push(names if w.extensions else plain)

    def watch_head(self, now: float) -> None:
        """The head of the waiting list chooses the number of players within ``head_time`` while
        others wait behind it; if not, it goes to the back and the next in line is asked. The
        others from the head's address go to the back with it, and behind them those that let
        their time pass before: a row of squatters from one address held the list ``head_time``
        each (issue 28, finding 9); now a newcomer from elsewhere is asked before any of them
        again. The time shrinks as the list grows (:meth:`head_limit`). A head that chose a game
        the list cannot fill yet has as long again from its choice: then its choice lapses and it
        goes to the back the same way, so that a silent head asking for more players than come
        holds the others only so long (they may choose a game they can fill)."""
        waiting = self.waiting
        if not self.options.head_time or len(waiting) < 2:
            self._head = (None, now)
            return
        head, since = self._head
        if head is not waiting[0]:
            self._head = (waiting[0], now)
        elif now - since >= self.head_limit():
            if self.pending_count is not None:
                log.info("%s's game of %d did not fill in %s s: the choice lapses", head.nickname,
                         self.pending_count, f"{self.head_limit():g}")
                self.pending_count, self.pending_bots, self.pending_pace = None, (), None
            self._passed = {w for w in self._passed if w in waiting}   # (those gone are forgotten)
            self._passed.add(head)
            fresh = [w for w in waiting[1:] if w.ip != head.ip and w not in self._passed]
            behind = [w for w in waiting[1:] if w.ip == head.ip or w in self._passed] + [head]
            waiting[:] = fresh + behind
            head.announced = None
            self._head = (waiting[0], now)
            log.info("%s did not choose the number of players in %s s: %s is asked now",
                     head.nickname, f"{self.head_limit():g}", waiting[0].nickname)
            self._send_booked_seats(0)
            for w in waiting[self.told():]:  # at the back, out of those told: told once here
                if w in behind:
                    self._tell_booked(w)
