"""Turn-based tables and a player's games (our extensions): their messages, fields and words.

A table is real-time (as ever) or **turn-based**: each player has a time per move (one of
:data:`MOVE_TIMES`: an hour, a day or three days), may close the game and come back, and the game
goes on whenever the player whose turn it is moves (see :mod:`game.netcode.turn_based`). A seat at
a turn-based table is kept by the player's key (:mod:`.ratings_wire`), so only a player who joined
with a key opens or sits at one. Reference clients never send nor receive any of this.

Client to server
    * ``ReqJoin {…, key, table: {create, playersCount, …, moveTime}}``: a new turn-based table
      (``moveTime`` in seconds, one of :data:`MOVE_TIMES`); without ``moveTime`` a table is real-time.
    * ``ReqJoin {…, key, game: N}``: take one's seat again in game N (turn-based or real-time) as
      the player of ``key`` (the nickname is the seat's, whatever is sent). Refused with ``ErrTable``.
    * ``ReqMyGames {key}`` (any time, also before ``ReqJoin``; over TLS, as every key):
      ``UpdateMyGames`` or ``ErrMyGames``.

Server to client
    * ``UpdateTables`` rows and ``UpdateBookedSeats.table`` gain ``moveTime`` at a turn-based table.
    * ``UpdateMyGames {games: [{game, table, nickname, players, moveTime, yourTurn, timeLeft,
      phase, givenToBot, botLevels?}]}``: the key's unfinished games on the server, whose turn it
      is first (the least time left first), then the others by number. ``moveTime`` null:
      real-time; ``timeLeft`` (seconds) only where a move is awaited at a turn-based table;
      ``botLevels``: {bot nickname: level} of a game with bots, as in its ``UpdateGame``.
    * ``UpdateTurnClock {deadline, timeLeft, players}``: to the players of a turn-based table each
      time the move awaited changes: who owes it (``players``) and the seconds they have.
    * ``ErrMyGames {reason, msg}``.
    * The computer's turns for a player out of time come as ``UpdateChat {player: "Server", text,
      notice: {id, n, level, nick}}``: ``text`` in English, ``notice`` for a client to say them in
      its player's language (``id``: :data:`STOOD_NOW`, :data:`STOOD` or :data:`GIVEN`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .framing import ProtocolError
from .protocol import INVALID_TYPES
from .ratings_wire import join_key
from .server_words import said, with_say

MOVE_TIMES = {3600: "1 hour", 86400: "1 day", 259200: "3 days"}
"""The times per move a turn-based table may have (seconds -> how it reads)."""
MISSED_IN_A_ROW = 3
"""Turns a player may let run out in a row: at the next, their seat goes to the computer for good."""

REQ_MY_GAMES = "ReqMyGames"
UPDATE_MY_GAMES = "UpdateMyGames"
UPDATE_TURN_CLOCK = "UpdateTurnClock"
ERR_MY_GAMES = "ErrMyGames"
CLIENT_TYPES = frozenset({REQ_MY_GAMES})
SERVER_TYPES = frozenset({UPDATE_MY_GAMES, UPDATE_TURN_CLOCK, ERR_MY_GAMES})

MY_GAMES_MAX = 100
"""Games in one ``UpdateMyGames`` at most (``--games-per-key`` keeps a player under it)."""

# ErrMyGames reasons
NO_KEY = "NO_KEY"             # no key, a bad one, or a plain connection: nobody to list games for
TOO_FAST = "TOO_FAST"         # asked too often

# words (the server's; our client words its own from the reasons)
NEEDS_KEY = said("turns.needs_key")
BAD_MOVE_TIME = said("turns.bad_move_time")
NOT_YOUR_GAME = said("turns.not_your_game")
SEAT_IN_USE = said("turns.seat_in_use")
MY_GAMES_NO_KEY = said("my_games.no_key")


# the notices' ids (UpdateChat.notice.id)
STOOD_NOW = "STOOD_IN_NOW"   # your time ran out: the computer plays this turn {level}
STOOD = "STOOD_IN"           # while you were away the computer played {n} turns {level}
GIVEN = "GIVEN_TO_BOT"       # {nick} let {n} turns run out in a row: the seat is the computer's {level}


def notice(chat: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
    """The server's words at a turn-based table (``chat``: its ``UpdateChat`` from ``Server``),
    with what a client needs to say them in its own words."""
    return {**chat, "notice": {"id": kind, **fields}}


def _bad(detail: str) -> ProtocolError:
    return ProtocolError(INVALID_TYPES, detail)


def move_time_field(d: Mapping[str, Any]) -> int | None:
    """A new table's ``moveTime`` (None: real-time). One of :data:`MOVE_TIMES` is checked by the lobby,
    which words the refusal; here only its type.

    :raises ProtocolError: not an integer."""
    v = d.get("moveTime")
    if v is not None and type(v) is not int:
        raise _bad("moveTime must be a number of seconds")
    return v


def game_field(d: Mapping[str, Any]) -> int | None:
    """A ``ReqJoin``'s ``game`` (the game whose seat to take again by key), None when absent.

    :raises ProtocolError: not a game number."""
    v = d.get("game")
    if v is not None and (type(v) is not int or not 0 <= v < 2 ** 53):
        raise _bad("game must be a game number")
    return v


@dataclass(frozen=True, slots=True)
class ReqMyGames:
    TYPE: ClassVar[str] = REQ_MY_GAMES
    key: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqMyGames":
        return cls(join_key(d))


PARSERS = {REQ_MY_GAMES: ReqMyGames.parse}
"""Each client type of this module -> what reads it (``ProtocolError`` when it cannot)."""


def update_my_games(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"games": games, "type": UPDATE_MY_GAMES}


def update_turn_clock(deadline: float | None, time_left: float | None, players: list[str]) -> dict[str, Any]:
    return {"deadline": deadline, "timeLeft": time_left, "players": players, "type": UPDATE_TURN_CLOCK}


def err_my_games(reason: str, msg: str) -> dict[str, Any]:
    return with_say({"reason": reason, "msg": msg, "type": ERR_MY_GAMES}, msg)
