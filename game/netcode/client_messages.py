"""What a client sends: :func:`parse_client_message` turns a decoded line (see
:mod:`game.netcode.framing`) into either a small frozen dataclass for the network and lobby
messages (:class:`ReqWelcome`, :class:`ReqJoin`, ...) or a game request from
:mod:`game.rules.actions` (``ReqTakeFromMarket``, ...); the checks of what a player types
(nickname, chat line, table name). Unknown extra fields are ignored, as the reference does. The
names and refusal texts are in :mod:`.protocol`.

Differences from the reference, on purpose:

* A game request with a missing field (``{"type":"ReqTakeFromMarket"}``) is refused with
  ``Invalid attribute types.``; the reference filled in Java defaults and then either answered a lobby
  error or crashed silently. ``ReqJoin`` without ``nickname`` still parses (``nickname=None``) so the
  server can answer ``ErrNickname NOT_SET`` as the reference does.
* ``ReqJoin`` may carry an optional string ``token`` (our reconnection secret). The reference ignores
  unknown fields, so a reference-style client simply never sends it.

>>> parse_client_message({"type": "ReqJoin", "nickname": "alice"})
ReqJoin(nickname='alice', token=None, table=None, game=None)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Union

from game.rules.actions import Action
from game.rules.errors import MalformedRequest

from .framing import INVALID_SYNTAX, TYPE_NOT_FOUND, ProtocolError
from .names import MAX_MARKS, cap_marks, marks_run
from .ratings_wire import ReqRatings, join_key
from .turn_wire import game_field, move_time_field
from .protocol import (
    CHAT_MAX,
    INVALID_TYPES,
    NICKNAME_MAX,
    REQ_CHAT,
    REQ_GOODBYE,
    REQ_HEARTBEAT,
    REQ_JOIN,
    REQ_NEW_GAME,
    REQ_QUIT,
    REQ_REPLAY,
    REQ_TABLES,
    REQ_UNDO,
    REQ_WELCOME,
    RES_HEARTBEAT,
    RES_WELCOME,
    TABLE_NAME_MAX,
    UNKNOWN_TYPE,
)


class ClientMessage:
    """Base of the network and lobby requests. ``TYPE`` is the wire type."""

    TYPE: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The wire message (``type`` last, fields that are None left out)."""
        return {"type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ClientMessage":
        return cls()


@dataclass(frozen=True, slots=True)
class ReqWelcome(ClientMessage):
    """Handshake: the receiver answers ``ResWelcome``.

    ``tls`` (our extension, ``"tls": true``): the client speaks TLS and asks where the server does;
    our server then answers ``ResWelcome {tlsPort}`` if it serves TLS. A reference client never
    sends it, so it never sees the field.
    """

    TYPE: ClassVar[str] = REQ_WELCOME
    tls: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"tls": True, "type": self.TYPE} if self.tls else {"type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqWelcome":
        return cls(d.get("tls") is True)


@dataclass(frozen=True, slots=True)
class ResWelcome(ClientMessage):
    TYPE: ClassVar[str] = RES_WELCOME


@dataclass(frozen=True, slots=True)
class ReqHeartbeat(ClientMessage):
    """Liveness probe: the receiver answers ``ResHeartbeat``."""

    TYPE: ClassVar[str] = REQ_HEARTBEAT


@dataclass(frozen=True, slots=True)
class ResHeartbeat(ClientMessage):
    TYPE: ClassVar[str] = RES_HEARTBEAT


@dataclass(frozen=True, slots=True)
class ReqGoodbye(ClientMessage):
    """The client is about to close; the server answers ``ResGoodbye`` and closes."""

    TYPE: ClassVar[str] = REQ_GOODBYE


@dataclass(frozen=True, slots=True)
class ReqQuit(ClientMessage):
    """Leave the lobby or game; the server answers ``ResQuit``."""

    TYPE: ClassVar[str] = REQ_QUIT


@dataclass(frozen=True, slots=True)
class ReqJoin(ClientMessage):
    """Join the lobby, or rejoin one's game with the same nickname.

    ``nickname`` is None when the field is missing or null (the server answers ``NOT_SET``); it is
    not cleaned here, see :func:`validate_nickname`. ``token`` is our optional reconnection secret.
    """

    TYPE: ClassVar[str] = REQ_JOIN
    nickname: str | None = None
    token: str | None = None
    table: "TableChoice | None" = None
    key: str | None = field(default=None, repr=False)   # the player's key (our extension, over TLS
                                                        # only: see .ratings_wire); a secret, never in a log
    game: int | None = None   # take the seat of the key's player in this game again (see .turn_wire)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.nickname is not None:
            out["nickname"] = self.nickname
        if self.token is not None:
            out["token"] = self.token
        if self.table is not None:
            out["table"] = self.table.to_dict()
        if self.key is not None:
            out["key"] = self.key
        if self.game is not None:
            out["game"] = self.game
        out["type"] = self.TYPE
        return out

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqJoin":
        table = d.get("table")
        return cls(_opt_str(d, "nickname"), _opt_str(d, "token"),
                   None if table is None else TableChoice.parse(table), join_key(d), game_field(d))


@dataclass(frozen=True, slots=True)
class TableChoice:
    """Where a ``ReqJoin`` asks to sit (our extension, the ``table`` field): an open table by its
    ``name`` (a public one), any table by its invite ``code``, or a new table (``create``: its
    name) of ``players_count`` seats, ``private`` or not, with ``bots`` (levels) in some of them
    at ``bot_pace``. Without it a client joins the waiting list (the Quick game, seed 004's
    random-players queue, which reference clients share).

    >>> TableChoice.parse({"create": "Ada's table", "playersCount": 3, "private": True})
    TableChoice(name=None, code=None, create="Ada's table", players_count=3, private=True, bots=(), bot_pace=None, move_time=None)
    """

    name: str | None = None
    code: str | None = None
    create: str | None = None
    players_count: int | None = None
    private: bool = False
    bots: tuple[str, ...] = ()
    bot_pace: Any = None
    move_time: int | None = None   # seconds per move at a turn-based table (None: real-time; see .turn_wire)

    def to_dict(self) -> dict[str, Any]:
        if self.create is not None:
            out: dict[str, Any] = {"create": self.create, "playersCount": self.players_count,
                                   "private": self.private}
            if self.bots:
                out["bots"] = list(self.bots)
            if self.bot_pace is not None:
                out["botPace"] = self.bot_pace
            if self.move_time is not None:
                out["moveTime"] = self.move_time
            return out
        return {"code": self.code} if self.code is not None else {"name": self.name}

    @classmethod
    def parse(cls, d: Any) -> "TableChoice":
        if not isinstance(d, Mapping):
            raise ProtocolError(INVALID_TYPES, "table must be an object")
        name, code, create = (_opt_str(d, k) for k in ("name", "code", "create"))
        if sum(v is not None for v in (name, code, create)) != 1:
            raise ProtocolError(INVALID_TYPES, "table needs one of name, code or create")
        if any(v is not None and len(v) > 64 for v in (name, code, create)):
            raise ProtocolError(INVALID_TYPES, "table names and codes are short")
        if create is None:
            return cls(name, code)
        n = d.get("playersCount")
        private = d.get("private", False)
        if type(n) is not int or type(private) is not bool:
            raise ProtocolError(INVALID_TYPES, "a new table needs playersCount (an integer) and private (true or false)")
        bots = d.get("bots") or []
        if type(bots) is not list or len(bots) > 8 or any(type(b) is not str or len(b) > 24 for b in bots):
            raise ProtocolError(INVALID_TYPES, "bots must be a list of levels")
        pace = d.get("botPace")
        if isinstance(pace, (str, list, dict)) and len(pace) > 64:
            pace = "(too long)"
        return cls(None, None, create, n, private, tuple(bots), pace, move_time_field(d))


@dataclass(frozen=True, slots=True)
class ReqTables(ClientMessage):
    """Ask for the open tables (our extension; also before ``ReqJoin``): answered with
    ``UpdateTables``, at most :data:`TABLES_PAGE` tables from the ``from``-th on."""

    TYPE: ClassVar[str] = REQ_TABLES
    start: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.start, "type": self.TYPE} if self.start else {"type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqTables":
        start = d.get("from", 0)
        if type(start) is not int or not 0 <= start < 2 ** 53:   # (past sys.maxsize, a slice fails)
            raise ProtocolError(INVALID_TYPES, "from must be a number of tables")
        return cls(start)


def clean_table_name(text: Any) -> str | None:
    """A table's name with surrounding whitespace removed and inner runs made one space, or None if
    it is not 1 to :data:`TABLE_NAME_MAX` printable characters.

    >>> clean_table_name("  Ada's   table ")
    "Ada's table"
    """
    if type(text) is not str:
        return None
    text = cap_marks(" ".join(text.split()))
    if not 1 <= len(text) <= TABLE_NAME_MAX or not text.isprintable():
        return None
    return text


@dataclass(frozen=True, slots=True)
class ReqChat(ClientMessage):
    """A line of chat for the other players of one's game (our extension). ``text`` is checked and
    cleaned by :func:`clean_chat`."""

    TYPE: ClassVar[str] = REQ_CHAT
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqChat":
        text = clean_chat(d.get("text"))
        if text is None:
            raise ProtocolError(INVALID_TYPES, f"text must be 1 to {CHAT_MAX} printable characters")
        return cls(text)


def clean_chat(text: Any) -> str | None:
    """A chat line with surrounding whitespace removed and inner runs of whitespace made one space,
    or None if it is not a string of 1 to :data:`CHAT_MAX` printable characters. A character
    keeps at most :data:`~.names.MAX_MARKS` combining marks (the first ones)."""
    if type(text) is not str:
        return None
    text = cap_marks(" ".join(text.split()))
    if not 1 <= len(text) <= CHAT_MAX or not text.isprintable():
        return None
    return text


@dataclass(frozen=True, slots=True)
class ReqUndo(ClientMessage):
    """Take back one's last request of this turn (our extension; see ``Game.undo``)."""

    TYPE: ClassVar[str] = REQ_UNDO


@dataclass(frozen=True, slots=True)
class ReqReplay(ClientMessage):
    """Ask for the replay of a finished game one played (our extension): one's game, once it is
    over (``game`` None), or a game of the server's record by number, with that seat's token."""

    TYPE: ClassVar[str] = REQ_REPLAY
    game: int | None = None
    token: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.game is not None:
            out["game"] = self.game
        if self.token is not None:
            out["token"] = self.token
        out["type"] = self.TYPE
        return out

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqReplay":
        game = d.get("game")
        if game is not None and (type(game) is not int or game < 0):
            raise ProtocolError(INVALID_TYPES, "game must be a game number")
        return cls(game, _opt_str(d, "token"))


@dataclass(frozen=True, slots=True)
class ReqNewGame(ClientMessage):
    """Ask for a game of ``players_count`` players (only the head of the waiting list may).

    ``bots`` (our extension, None when the field is absent) asks for computer players, one level
    each (``"easy"``, ``"medium"``, ``"hard"``), in as many of the game's seats: the game then
    starts when ``players_count - len(bots)`` people wait. The levels are checked by the server.

    ``bot_pace`` (``botPace``, our extension, None when absent) asks for that many seconds at least
    between two bot moves of the game (the server's ``--bot-delay`` otherwise). Kept as sent: the
    server checks it (a number from 0 to :data:`BOT_PACE_MAX`) and refuses anything else with
    ``ErrNewGame``.
    """

    TYPE: ClassVar[str] = REQ_NEW_GAME
    players_count: int
    bots: tuple[str, ...] | None = None
    bot_pace: Any = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"playersCount": self.players_count}
        if self.bots is not None:
            out["bots"] = list(self.bots)
        if self.bot_pace is not None:
            out["botPace"] = self.bot_pace
        out["type"] = self.TYPE
        return out

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqNewGame":
        n = d.get("playersCount")
        if type(n) is not int:
            raise ProtocolError(INVALID_TYPES, "playersCount must be an integer")
        bots = d.get("bots")
        pace = d.get("botPace")
        if isinstance(pace, (str, list, dict)) and len(pace) > 64:
            pace = "(too long)"    # refused by the server; not worth keeping whole
        if bots is None:
            return cls(n, None, pace)
        if type(bots) is not list or len(bots) > 8 or any(type(b) is not str or len(b) > 24 for b in bots):
            raise ProtocolError(INVALID_TYPES, "bots must be a list of levels")
        return cls(n, tuple(bots), pace)


def _opt_str(d: Mapping[str, Any], key: str) -> str | None:
    v = d.get(key)
    if v is not None and type(v) is not str:
        raise ProtocolError(INVALID_TYPES, f"{key} must be a string")
    return v


_NETWORK: dict[str, Any] = {
    cls.TYPE: cls
    for cls in (ReqWelcome, ResWelcome, ReqHeartbeat, ResHeartbeat, ReqGoodbye, ReqQuit, ReqJoin,
                ReqNewGame, ReqChat, ReqUndo, ReqReplay, ReqTables, ReqRatings)
}

AnyClientMessage = Union[ClientMessage, Action]


def parse_client_message(d: Mapping[str, Any]) -> AnyClientMessage:
    """Turn a decoded client line into a message value or a game request.

    >>> parse_client_message({"type": "ReqEndTurn", "extra": 1})
    ReqEndTurn()

    :raises ProtocolError: ``Field "type" not found.`` when ``type`` is missing or not a string;
        ``Event type "X" as subclass of "VCEvent" does not exist.`` for a type a client may not send;
        ``Invalid attribute types.`` for a wrong or missing field (the reason is in ``.detail``).
    """
    if not isinstance(d, Mapping):
        raise ProtocolError(INVALID_SYNTAX, f"top-level {type(d).__name__}, not an object")
    t = d.get("type")
    if type(t) is not str:
        raise ProtocolError(TYPE_NOT_FOUND, "missing" if "type" not in d else "not a string")
    kind = _NETWORK.get(t)
    if kind is not None:
        return kind.parse(d)
    if t in Action.REGISTRY:
        try:
            return Action.from_dict(d)
        except MalformedRequest as e:
            raise ProtocolError(INVALID_TYPES, e.detail or str(e)) from None
    raise ProtocolError(UNKNOWN_TYPE.format(t))


def validate_nickname(s: Any) -> str | None:
    """Return the nickname stripped of surrounding whitespace, or None if it is not acceptable.

    Refused: not a string, blank, longer than :data:`NICKNAME_MAX` characters, holding a
    non-printable character (control, format or separator characters other than the plain space),
    or a character with more than :data:`~.names.MAX_MARKS` combining marks.

    >>> validate_nickname("  Zoë ")
    'Zoë'
    >>> validate_nickname("a\\tb") is None
    True
    """
    if type(s) is not str:
        return None
    s = s.strip()
    if not s or len(s) > NICKNAME_MAX or not s.isprintable() or marks_run(s) > MAX_MARKS:
        return None
    return s
