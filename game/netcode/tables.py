"""The open tables of a server (our extension): named games waiting for their players.

A player creates a table with a name, a number of seats, computer players in some of them, and
whether it is private; the others sit at it by its name (a public table) or by its invite code
(any table). The game starts the moment people and bots fill it. This module keeps the tables
and their indexes; the server (:mod:`game.netcode.server`) seats the players and starts the games.

Nothing here costs more than the table it touches: finding a table by name or code is a dict
lookup, a seat taken or left tells that table's people only, and a listing is one page
(:data:`~game.netcode.protocol.TABLES_PAGE` tables at most), never the whole list.

>>> book = TableBook()
>>> t = book.add("Ada's table", 3, private=False, bots=(), pace=None, origin="10.0.0.1")
>>> book.by_name("ADA'S TABLE") is t, book.by_code(t.code.lower()) is t
(True, True)
"""
from __future__ import annotations

import secrets
import time
from itertools import islice
from typing import Any, Callable

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits of an invite code: none that reads like another (no I/1, O/0, L)."""
CODE_LENGTH = 8
"""Characters of an invite code (31⁸, about 8.5·10¹¹ codes), shown as two groups of four."""


def new_code() -> str:
    """A fresh invite code, e.g. ``"K7QF-M2XD"``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def code_key(text: str) -> str:
    """An invite code as typed or pasted (any case, spaces or dashes anywhere) in its stored form.

    >>> code_key(" k7qf m2xd "), code_key("K7QF-M2XD")
    ('K7QF-M2XD', 'K7QF-M2XD')
    """
    raw = "".join(ch for ch in text.upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == CODE_LENGTH else raw


class Table:
    """One open table: its name and code, its size and bots, the people seated (the host first)."""

    __slots__ = ("name", "key", "code", "private", "count", "bots", "pace", "seats", "origin", "opened", "move_time",
                 "allowance", "refilled", "telling")

    def __init__(self, name: str, code: str, count: int, private: bool, bots: tuple[str, ...],
                 pace: float | None, origin: str, move_time: int | None = None) -> None:
        self.move_time = move_time  # seconds per move at a turn-based table (None: real-time; see .turn_based)
        self.name = name
        self.key = name.casefold()
        self.code = code
        self.private = private
        self.count = count
        self.bots = bots
        self.pace = pace
        self.seats: list[Any] = []   # the server's connections seated, host first (read here: .nickname)
        self.origin = origin        # the address of whoever created it (the per-address limits)
        self.opened = time.monotonic()
        self.allowance = 4.0        # tellings of its changes its people may be sent now (table_lobby.TABLE_TELL_BURST)
        self.refilled = self.opened
        self.telling = False        # a telling of its latest changes is on the loop's clock

    def __repr__(self) -> str:
        return f"<Table {self.name!r} {len(self.seats)}+{len(self.bots)}/{self.count}>"

    @property
    def host(self) -> str:
        """The first person seated (its creator, until they leave)."""
        return (self.seats[0].nickname or "") if self.seats else ""

    @property
    def people(self) -> int:
        """The seats left for people: the game starts once that many sit."""
        return self.count - len(self.bots)

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.people

    def listing(self, seated_row: Callable[[Any], dict[str, Any]] | None = None) -> dict[str, Any]:
        """What ``UpdateTables`` says of it (never its code); with ``seated_row``, the people seated
        (``seated``: each one's row, see :mod:`.ratings_wire`)."""
        taken = len(self.seats) + len(self.bots)
        out = {"name": self.name, "host": self.host, "players": self.count, "taken": taken,
               "free": max(0, self.count - taken), "bots": list(self.bots), "private": self.private}
        if self.move_time is not None:
            out["moveTime"] = self.move_time
        if seated_row is not None:
            out["seated"] = [seated_row(s) for s in self.seats]
        return out

    def seated(self) -> dict[str, Any]:
        """What its people are told of it (``UpdateBookedSeats.table``): the code of a private one,
        to share."""
        out: dict[str, Any] = {"name": self.name, "private": self.private}
        if self.private:
            out["code"] = self.code
        if self.move_time is not None:
            out["moveTime"] = self.move_time
        return out


class TableBook:
    """The open tables, by name (case-insensitive) and by code, in the order they were opened."""

    def __init__(self) -> None:
        self._by_key: dict[str, Table] = {}
        self._by_code: dict[str, Table] = {}
        self._per_origin: dict[str, int] = {}
        self._turn_origin: dict[str, int] = {}   # turn-based tables among them

    def __len__(self) -> int:
        return len(self._by_key)

    def __iter__(self):
        return iter(list(self._by_key.values()))

    def add(self, name: str, count: int, *, private: bool, bots: tuple[str, ...], pace: float | None,
            origin: str, move_time: int | None = None) -> Table:
        """Open a table (its name must be free: see :meth:`by_name`)."""
        code = new_code()
        while code in self._by_code:
            code = new_code()
        table = Table(name, code, count, private, bots, pace, origin, move_time)
        self._by_key[table.key] = table
        self._by_code[code] = table
        self._per_origin[origin] = self._per_origin.get(origin, 0) + 1
        if move_time is not None:
            self._turn_origin[origin] = self._turn_origin.get(origin, 0) + 1
        return table

    def remove(self, table: Table) -> None:
        if self._by_key.get(table.key) is not table:
            return
        del self._by_key[table.key]
        del self._by_code[table.code]
        for counts in (self._per_origin, self._turn_origin) if table.move_time is not None else (self._per_origin,):
            left = counts.get(table.origin, 0) - 1
            if left > 0:
                counts[table.origin] = left
            else:
                counts.pop(table.origin, None)

    def by_name(self, name: str) -> Table | None:
        return self._by_key.get(name.casefold())

    def by_code(self, code: str) -> Table | None:
        return self._by_code.get(code_key(code))

    def opened_from(self, origin: str, turn_based: bool = False) -> int:
        """How many open tables (``turn_based``: turn-based tables) were created from that address."""
        return (self._turn_origin if turn_based else self._per_origin).get(origin, 0)

    def page(self, start: int, size: int, seated_row: Callable[[Any], dict[str, Any]] | None = None
             ) -> list[dict[str, Any]]:
        """The listings of ``size`` tables at most from the ``start``-th on (see :meth:`Table.listing`)."""
        return [t.listing(seated_row) for t in islice(self._by_key.values(), start, start + size)]
