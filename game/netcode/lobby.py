"""The lobby of a server: where players wait for a game, and the limits on what they start.

Two ways into a game (see :mod:`game.netcode.server` for the wire):

* the **Quick game**: one waiting list, shared with reference clients (``UpdateBookedSeats``); its
  head sets the next game's size (and, our extension, its bots and their pace) with
  ``ReqNewGame``, and the game starts when enough people wait (a game of one person, solo or with
  bots only, anyone in the list starts at once: nobody waits for it). Only the first :meth:`Lobby.told`
  of the list hear of its changes; a head that does not choose within ``head_time`` goes to the
  back (:meth:`Lobby.watch_head`);
* the **open tables** (:mod:`.tables`, our extension): a table is opened, sat at by name or
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
from .client_messages import ReqJoin, ReqNewGame, ReqTables, TableChoice, clean_table_name, validate_nickname
from .event_log import EventLog
from .framing import encode
from .games import Client, Games, token_message
from .room import SERVER_VOICE
from .server_messages import (
    err_new_game,
    err_nickname,
    err_table,
    update_booked_seats,
    update_chat,
    update_join_game,
    update_tables,
)
from .server_words import said
from .tables import Table, TableBook

log = logging.getLogger("mor.server")

TABLE_TELL_BURST = 4
TABLE_TELL_RATE = 1.0
"""A table's changes reach its people at once up to ``TABLE_TELL_BURST`` in a row, then at most
``TABLE_TELL_RATE`` times a second, the latest state last: strangers sitting and leaving in a
loop sent its host ~4,300 lines a second, until it was dropped as a slow reader (issue 28,
finding 5). Who just sat is always told at once."""
CANNOT_START = said("save.cannot_start")


class Lobby:
    """The waiting list and the open tables of one server (see the module's docstring).

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

    def list_tables(self, s: Client, msg: ReqTables) -> None:
        """``ReqTables``: a page of the open tables and the Quick game's queue (any time, also
        before ``ReqJoin``: a client looks before it chooses where to sit)."""
        s.send(update_tables(self.tables.page(msg.start, P.TABLES_PAGE, self.rating_of), msg.start, len(self.tables),
                             len(self.waiting), self.pending_count))

    def _enter_table(self, s: Client, nick: str, h: str, token: str | None, choice: TableChoice) -> None:
        """``ReqJoin {table}``: sit at an open table (by name or code), or open one. Refused with
        ``ErrTable`` (nothing taken: the client may join again on the same connection), also when
        someone at it is called ``nick`` already, or a name that reads the same."""
        table = None
        if token is None:
            problem = (P.TABLE_EXTENSION, said("table.extension"))
        elif choice.create is not None:
            problem, table = self._open_table(s, choice)
        elif choice.code is not None:
            table = self.tables.by_code(choice.code)
            problem = None if table is not None else (
                P.TABLE_NO_SUCH, said("table.no_such_code"))
        else:
            table = self.tables.by_name(choice.name or "")
            if table is None:
                problem = (P.TABLE_NO_SUCH, said("table.no_such_name", name=choice.name))
            elif table.private:
                problem = (P.TABLE_PRIVATE, said("table.private", name=table.name))
            else:
                problem = None
        if problem is None and table is not None and table.move_time is not None and choice.create is None:
            problem = self.turns.table_problem(s, table.move_time, s.ip, 0, opening=False)
        if problem is None and table is not None and any(fold(o.nickname or "") == fold(nick) for o in table.seats):
            problem = (P.TABLE_NICKNAME_TAKEN, said("table.nickname_taken", name=table.name, nickname=nick))
        if problem is None and table is not None and table.move_time is not None and self._key_sits(s, table.seats):
            problem = (P.TABLE_IN_USE, said("table.key_seated", name=table.name))
        if problem is not None or table is None:
            self._refuse_table(s, problem or (P.TABLE_NO_SUCH, said("table.no_such")))
            return
        s.nickname, s.handle = nick, h
        s.token = secrets.token_urlsafe(16)
        self.by_nick[h] = s
        s.table = table
        s.since = time.monotonic()
        table.seats.append(s)
        s.send(token_message(s.token))
        self.events.event("sits at tables", s.ip, "%s sat at table %r (%d of %d)", nick, table.name,
                          len(table.seats), table.people)
        self.table_changed(table, newcomer=s)

    def _key_sits(self, s: Client, seats: list[Any]) -> bool:
        """Whether the player ``s`` joined as (by key) has a seat among ``seats`` already: one key,
        one seat at a turn-based table, whose seats are the keys' (in real time two windows of
        one player may sit together: such a game is not rated, :meth:`.ratings.Ratings.started`)."""
        p = self.player_of(s)
        return p is not None and any(self.player_of(o) is p for o in seats)

    def _refuse_table(self, s: Client, problem: tuple[str, str]) -> None:
        reason, words = problem
        self.events.event("tables refused", s.ip, "%r: table refused (%s): %s", s, reason, words)
        s.send(err_table(reason, words))

    def _open_table(self, s: Client, choice: TableChoice) -> tuple[tuple[str, str] | None, Table | None]:
        """Open the table a ``ReqJoin`` asks for: (None, the table), or (the refusal, None)."""
        name = clean_table_name(choice.create)
        count = choice.players_count or 0
        bots = choice.bots
        if name is None:
            return (P.TABLE_BAD, said("table.bad_name", most=P.TABLE_NAME_MAX)), None
        if self.tables.by_name(name) is not None:
            return (P.TABLE_NAME_TAKEN, said("table.name_taken", name=name)), None
        if not self.config.min_players <= count <= self.config.max_players:
            return (P.TABLE_BAD, said("table.seats", least=self.config.min_players, most=self.config.max_players)), None
        if choice.move_time is not None and self.turns is not None:   # a turn-based table
            turn_problem = self.turns.table_problem(s, choice.move_time, s.ip,
                                                    self.tables.opened_from(s.ip, True), opening=True)
            if turn_problem is not None:
                return turn_problem, None
        problem = self._bots_problem(s, count, bots) if bots else None
        if problem is None and choice.bot_pace is not None:
            problem = self._pace_problem(s, choice.bot_pace)
        if problem is not None:
            return (P.TABLE_BAD, problem.get("reason") or said("table.bots_refused")), None
        why = self._limits_words(s, bots, turn_based=choice.move_time is not None)
        if why is not None:
            return (P.TABLE_LIMIT, why), None
        pace = None if choice.bot_pace is None or not bots else float(choice.bot_pace)
        table = self.tables.add(name, count, private=choice.private, bots=bots, pace=pace, origin=s.ip,
                                move_time=choice.move_time if self.turns is not None else None)
        self.events.event("tables opened", s.ip, "%r opened table %r (%d seats, %d bots%s)", s, name, count,
                          len(bots), ", private" if choice.private else "")
        return None, table

    def _table_new_game(self, s: Client, table: Table, count: int, bots: tuple[str, ...], pace: Any) -> None:
        """``ReqNewGame`` from the host of a table: the table's size and bots change (as the head
        of the waiting list sets them for the next game)."""
        if table.seats[0] is not s:
            s.send(err_new_game(False, said("table.host_chooses")))
        elif not self.config.min_players <= count <= self.config.max_players:
            s.send(err_new_game(True, said("table.seats", least=self.config.min_players, most=self.config.max_players)))
        elif len(table.seats) + len(bots) > count:
            s.send(err_new_game(True, said("table.too_few_seats", n=len(table.seats), seats=len(table.seats) + len(bots))))
        elif bots and (problem := self._bots_problem(s, count, bots)) is not None:
            s.send(problem)
        elif pace is not None and (problem := self._pace_problem(s, pace)) is not None:
            s.send(problem)
        elif bots and (why := self._limits_words(s, bots, table)) is not None:
            s.send(err_new_game(False, why))
        else:
            table.count, table.bots = count, bots
            table.pace = None if pace is None or not bots else float(pace)
            self.table_changed(table)

    def table_changed(self, table: Table, newcomer: Any = None) -> None:
        """Start the table's game once people and bots fill it; else tell its people (and them
        only) where it stands: ``UpdateJoinGame`` when its size or bots changed for them, then
        ``UpdateBookedSeats`` with the table. Changes come to them at most every
        :data:`TABLE_TELL_RATE` a second past a burst, but to the ``newcomer`` who just sat, at once."""
        if table.full:
            players = table.seats[:table.people]
            try:
                self.games.start(players, table.bots, table.pace, origin=table.origin, turn=self._turn_of(table))
            except OSError as e:   # it cannot be saved: nothing changed; the janitor tries again
                if not self._start_failing:
                    self._start_failing = True
                    log.warning("cannot save a new game (%s): it starts once it can", e)
                    data = encode(update_chat(SERVER_VOICE, CANNOT_START))
                    for w in players:
                        w.push(data)
                return
            if self._start_failing:
                self._start_failing = False
                log.warning("saving again: the game waiting to start has started")
            self.tables.remove(table)
            for p in players:
                p.table = None
            if self.watchers is not None and players[0].room is not None:
                self.watchers.started(table, players[0].room)
            return
        now = time.monotonic()
        allowance = min(TABLE_TELL_BURST, table.allowance + (now - table.refilled) * TABLE_TELL_RATE)
        table.allowance, table.refilled = allowance, now
        if table.telling or (self.call_at is not None and allowance < 1):
            if newcomer is not None:   # who just sat is told at once; the others with the next telling
                self._tell_table(table, now, [newcomer])
            if not table.telling:      # people sitting and leaving in a loop: told at most so often
                table.telling = True
                self.call_at(now + (1 - allowance) / TABLE_TELL_RATE, self._tell_later, table)
            return
        self._tell_table(table, now)

    def _tell_later(self, table: Table) -> None:
        with self.lock:
            table.telling = False
            if table.seats and not table.full and self.tables.by_name(table.name) is table:
                now = time.monotonic()
                table.allowance += (now - table.refilled) * TABLE_TELL_RATE
                table.refilled = now
                self._tell_table(table, now)

    def _tell_table(self, table: Table, now: float, only: list[Any] | None = None) -> None:
        """Tell the table's people (and them only; ``only``: just those) where it stands (see
        :meth:`table_changed`)."""
        if only is None:
            table.allowance -= 1
        bots = list(table.bots)
        booked = encode(update_booked_seats(len(table.seats), table.host,
                                            [w.nickname or "" for w in table.seats], table.seated()))
        for w in only if only is not None else table.seats:
            said = (table.count, table.bots)
            if w.announced != said:
                w.announced = said
                w.send(update_join_game(table.count, bots))
            if w.booked != booked:   # (a newcomer told at once is not told the same again)
                w.booked = booked
                w.push(booked)
        if self.watchers is not None and only is None:
            self.watchers.table_changed(table)

    @staticmethod
    def _turn_of(table: Table) -> Any:
        """What a turn-based table's game keeps of it (None: a real-time table)."""
        if table.move_time is None:
            return None
        from .turn_based import DEFAULT_LEVEL, TurnTable
        return TurnTable(table.move_time, table.bots[0] if table.bots else DEFAULT_LEVEL, table.name, table.private,
                         table.code)

    def leave_table(self, s: Client) -> None:
        """A player leaves their table (quits, or their connection ends): the next becomes its host;
        the last one out closes it."""
        table = s.table
        assert table is not None
        s.table = None
        if s in table.seats:
            table.seats.remove(s)
        if not table.seats:
            self.tables.remove(table)
            self.events.event("tables closed", s.ip, "table %r closed: its last player left", table.name)
            if self.watchers is not None:
                self.watchers.table_closed(table)
        else:
            self.table_changed(table)

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
