"""The waiting room of a table on a server, as its messages leave it: who is seated, who chooses
the number of players, the bots asked for, the table sat at, and the last refusal in words.

:data:`HANDLERS` is the table of the waiting room's messages: each takes one into a
:class:`Lobby` and returns the refusal it carries, in words (None for an update).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from game.i18n import _
from game.netcode.protocol import TABLE_NICKNAME_TAKEN

from .join_words import NAME_TAKEN_AT_TABLE
from .server_words import server_said
from .words import NICKNAME_ERRORS, NICKNAME_REFUSED, NOT_THE_HEAD, PLAYERS_COUNT_INVALID, TABLE_REFUSED

Msg = dict[str, Any]


@dataclass
class Lobby:
    booked: int = 0
    head: str = ""
    players_count: int | None = None
    bots: list[str] = field(default_factory=list)   # levels of the bots asked for (our extension)
    error: str | None = None        # the last refusal, shown until the player asks again
    players: list[str] = field(default_factory=list)   # who waits, in order (our extension; else the head only)
    next_game: bool = False    # the table's game was under way when this player sat down: they wait for the next
    table: dict[str, Any] | None = None   # the named table sat at: {name, private, code} (our server's tables)

    def take(self, m: Msg) -> str | None:
        """Take a message of the waiting room (any other is left alone); the refusal it carries,
        in words, also kept in :attr:`error`."""
        handler = HANDLERS.get(m.get("type", ""))
        refusal = handler(self, m) if handler is not None else None
        if refusal is not None:
            self.error = refusal
        return refusal


def _booked_seats(lobby: Lobby, m: Msg) -> None:
    table = m.get("table")
    if not isinstance(table, dict) and lobby.table is None and m["canPrepareNewGame"] != lobby.head:
        # the Quick game has a new head (the last one left, or let its time or its choice's pass):
        # no game is chosen any more, the new head chooses (a table keeps its size, whoever hosts)
        lobby.players_count, lobby.bots = None, []
    lobby.booked, lobby.head = m["bookedSeats"], m["canPrepareNewGame"]
    lobby.players = [str(n) for n in m.get("players") or ()]
    lobby.table = table if isinstance(table, dict) else None


def _join_game(lobby: Lobby, m: Msg) -> None:
    lobby.players_count = m["playersCount"]
    lobby.bots = [str(b) for b in m.get("bots") or ()]


def _nickname_refused(lobby: Lobby, m: Msg) -> str:
    return _(NICKNAME_ERRORS.get(m.get("reason", ""), NICKNAME_REFUSED))


def _table_refused(lobby: Lobby, m: Msg) -> str:
    """A seat at a table refused: nothing taken, the player may choose again (with another name,
    when someone at that table has theirs: a nickname is unique at a table)."""
    if m.get("reason") == TABLE_NICKNAME_TAKEN:
        return _(NAME_TAKEN_AT_TABLE)
    return server_said(m, m.get("msg") or _(TABLE_REFUSED))


def _new_game_refused(lobby: Lobby, m: Msg) -> str:
    if m.get("reason"):
        return server_said(m, m["reason"])
    return _(PLAYERS_COUNT_INVALID if m.get("isInvalidPlayersCount") else NOT_THE_HEAD)


HANDLERS: dict[str, Callable[[Lobby, Msg], str | None]] = {
    "UpdateBookedSeats": _booked_seats,
    "UpdateJoinGame": _join_game,
    "ErrNickname": _nickname_refused,
    "ErrTable": _table_refused,
    "ErrNewGame": _new_game_refused,
}
