"""The open tables' side of the lobby (our extension): opening a table, sitting at it, its host
resizing it, telling its people where it stands, leaving it.

A table is opened by a ``ReqJoin`` that asks for one, sat at by its name (a public table) or its
invite code (any table), resized by its host with ``ReqNewGame``; its game starts once people and
bots fill it (:meth:`TableLobby.table_changed`), and its last player out closes it. A table's
changes reach its people only, at most :data:`TABLE_TELL_RATE` times a second past a burst;
``ReqTables`` lists a page of the tables (:meth:`TableLobby.list_tables`). The tables and their
indexes are :mod:`.tables`'; a new table is checked against the lobby's limits as a Quick game is.

A part of :class:`~.lobby.Lobby` (a mixin: its state is the lobby's). No socket here: a player is
a :class:`~.games.Client`, whose ``send``/``push`` queue messages.
"""
from __future__ import annotations

import logging
import secrets
import time
from typing import Any, Callable

from . import protocol as P
from .client_messages import ReqTables, TableChoice, clean_table_name
from .framing import encode
from .games import Client, Games, token_message
from .names import fold
from .server_messages import err_new_game, err_table, update_booked_seats, update_chat, update_join_game, update_tables
from .server_words import SERVER_VOICE, said
from .tables import Table, TableBook

log = logging.getLogger("mor.server")

TABLE_TELL_BURST = 4
TABLE_TELL_RATE = 1.0
"""A table's changes reach its people at once up to ``TABLE_TELL_BURST`` in a row, then at most
``TABLE_TELL_RATE`` times a second, the latest state last: strangers sitting and leaving in a
loop sent its host ~4,300 lines a second, until it was dropped as a slow reader (issue 28,
finding 5). Who just sat is always told at once."""
CANNOT_START = said("save.cannot_start")


class TableLobby:
    """The open tables of :class:`~.lobby.Lobby` (which provides the state below, ``lock``, and
    the limits: ``_bots_problem``, ``_pace_problem`` and ``_limits_words``)."""

    config: Any
    lock: Any
    by_nick: Any
    games: Games
    tables: TableBook
    events: Any
    watchers: Any
    turns: Any
    waiting: list[Any]
    pending_count: int | None
    player_of: Callable[[Any], Any]
    call_at: Callable[..., None] | None
    rating_of: Callable[[str], int | None] | None
    _start_failing: bool

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
