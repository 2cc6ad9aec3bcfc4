"""The message catalogue: what may cross the wire, with the reference server's names and shapes.

Client to server
    :func:`parse_client_message` turns a decoded line (see :mod:`game.netcode.framing`) into either a
    small frozen dataclass for the network and lobby messages (:class:`ReqWelcome`, :class:`ReqJoin`,
    ...) or a game request from :mod:`game.rules.actions` (``ReqTakeFromMarket``, ...). Unknown extra
    fields are ignored, as the reference does.

Server to client
    Builders (``res_welcome()``, ``update_booked_seats(...)``, ``err_protocol(msg)``, ...) return
    dicts with the exact reference field names and ``type`` as the **last** key, as the reference
    writes them. Game updates (``UpdateGame``, ``UpdateMarket``, ...) come from the rules engine,
    already in wire shape; :func:`visible_to` says who may see each of them.

Refusals use the reference server's fixed ``ErrProtocol`` texts:

* unknown type, or a server-to-client type sent by a client:
  ``Event type "X" as subclass of "VCEvent" does not exist.``
* known type with a wrong field type or a missing required field: ``Invalid attribute types.``

Differences from the reference, on purpose:

* A game request with a missing field (``{"type":"ReqTakeFromMarket"}``) is refused with
  ``Invalid attribute types.``; the reference filled in Java defaults and then either answered a lobby
  error or crashed silently. ``ReqJoin`` without ``nickname`` still parses (``nickname=None``) so the
  server can answer ``ErrNickname NOT_SET`` as the reference does.
* ``ReqJoin`` may carry an optional string ``token`` (our reconnection secret). The reference ignores
  unknown fields, so a reference-style client simply never sends it.

>>> parse_client_message({"type": "ReqJoin", "nickname": "alice"})
ReqJoin(nickname='alice', token=None, table=None)
>>> update_booked_seats(1, "alice")
{'bookedSeats': 1, 'canPrepareNewGame': 'alice', 'type': 'UpdateBookedSeats'}
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Union

from game.rules.actions import Action
from game.rules.errors import MalformedRequest

from .framing import (  # re-exported: the whole ErrProtocol vocabulary is available here
    EMPTY_INPUT,
    INVALID_SYNTAX,
    LINE_TOO_LONG,
    TYPE_NOT_FOUND,
    ProtocolError,
)

INVALID_TYPES = MalformedRequest.INVALID_TYPES  # "Invalid attribute types."
UNKNOWN_TYPE = 'Event type "{}" as subclass of "VCEvent" does not exist.'
CHAT_TOO_FAST = "Too many chat messages; wait a moment."
CANNOT_SAVE = "The server cannot save the game right now (its disk is full): nothing was played. Try again in a moment."
"""``ErrProtocol.msg`` of a request that could not be saved (refused as if never sent; see room.py)."""
ERR_PROTOCOL_TEXTS = frozenset({EMPTY_INPUT, INVALID_SYNTAX, TYPE_NOT_FOUND, INVALID_TYPES, LINE_TOO_LONG,
                                CHAT_TOO_FAST})
"""Every fixed ``ErrProtocol.msg`` (plus :data:`UNKNOWN_TYPE` filled with the offending type)."""

# --- message types -------------------------------------------------------------------------------
# Network level (both directions use the first four and ReqGoodbye).
REQ_WELCOME = "ReqWelcome"
RES_WELCOME = "ResWelcome"
REQ_HEARTBEAT = "ReqHeartbeat"
RES_HEARTBEAT = "ResHeartbeat"
REQ_GOODBYE = "ReqGoodbye"
RES_GOODBYE = "ResGoodbye"
# Lobby, client to server.
REQ_QUIT = "ReqQuit"
REQ_JOIN = "ReqJoin"
REQ_NEW_GAME = "ReqNewGame"
# Game requests, client to server (parsed by game.rules.actions).
REQ_CHOOSE_LEADERS = "ReqChooseLeaders"
REQ_CHOOSE_RESOURCES = "ReqChooseResources"
REQ_SWAP_SHELVES = "ReqSwapShelves"
REQ_LEADER_ACTION = "ReqLeaderAction"
REQ_TAKE_FROM_MARKET = "ReqTakeFromMarket"
REQ_BUY_DEV_CARD = "ReqBuyDevCard"
REQ_ACTIVATE_PRODUCTIONS = "ReqActivateProductions"
REQ_END_TURN = "ReqEndTurn"
# Server to client: lobby and connection.
RES_QUIT = "ResQuit"
UPDATE_BOOKED_SEATS = "UpdateBookedSeats"
UPDATE_JOIN_GAME = "UpdateJoinGame"
UPDATE_PLAYER_STATUS = "UpdatePlayerStatus"
# Server to client: game state.
UPDATE_GAME = "UpdateGame"
UPDATE_SETUP_DONE = "UpdateSetupDone"
UPDATE_ACTION = "UpdateAction"
UPDATE_CURRENT_PLAYER = "UpdateCurrentPlayer"
UPDATE_MARKET = "UpdateMarket"
UPDATE_RESOURCE_CONTAINER = "UpdateResourceContainer"
UPDATE_FAITH_POINTS = "UpdateFaithPoints"
UPDATE_VICTORY_POINTS = "UpdateVictoryPoints"
UPDATE_VATICAN_SECTION = "UpdateVaticanSection"
UPDATE_LEADERS_HAND = "UpdateLeadersHand"
UPDATE_LEADERS_HAND_COUNT = "UpdateLeadersHandCount"
UPDATE_DEV_SLOT = "UpdateDevSlot"
UPDATE_DEV_CARD_GRID = "UpdateDevCardGrid"
UPDATE_ACTION_TOKEN = "UpdateActionToken"
UPDATE_LAST_ROUND = "UpdateLastRound"
UPDATE_GAME_END = "UpdateGameEnd"
UPDATE_ACTIVATE_LEADER = "UpdateActivateLeader"  # in the reference source, never seen on the wire
# Our extensions (a reference client never sends nor receives them).
REQ_CHAT = "ReqChat"          # client to server: {"text": "..."}
UPDATE_CHAT = "UpdateChat"    # server to the players of a game: {"player": nick, "text": "..."}
CHAT_MAX = 200
BOT_PACE_MAX = 10.0           # ReqNewGame's botPace: seconds between two bot moves, 0 to this
REQ_UNDO = "ReqUndo"          # client to server: take back my last request of this turn
UPDATE_UNDO = "UpdateUndo"    # server to our clients: {"player": nick, "action": name}, then an UpdateGame each
ERR_UNDO = "ErrUndo"          # server to the requester: {"reason": code} (see game.rules.errors)
REQ_REPLAY = "ReqReplay"      # client to server: {} (my game, over) or {"game": id, "token": seat token}
UPDATE_REPLAY = "UpdateReplay"  # server to the requester: {"game": id, "replay": {mor-replay/1 record}}
ERR_REPLAY = "ErrReplay"      # server to the requester: {"reason": one of REPLAY_REASONS}
REPLAY_NOT_FINISHED = "NOT_FINISHED"   # the game is not over (its replay would show hidden cards)
REPLAY_NO_SUCH_GAME = "NO_SUCH_GAME"   # no finished game of that number here
REPLAY_NOT_YOURS = "NOT_YOURS"         # the token is not one of that game's seats
UPDATE_SERVER_STOPPING = "UpdateServerStopping"   # server to our clients, as it stops: {"reason": HOST_STOPPED}
HOST_STOPPED = "HOST_STOPPED"  # ... its host (or operator) stopped it on purpose: no crash, the games are kept
UPDATE_PLAYER_AWAY = "UpdatePlayerAway"   # server to our clients at a table: {"player", "seconds"}: not
                              # connected; their seat (and turn) waits that many seconds more for them
REQ_TABLES = "ReqTables"      # client to server, any time: {"from": n} (optional) lists the open tables
UPDATE_TABLES = "UpdateTables"  # server to the asker: {tables: [...], from, total, queue: {waiting, playersCount}}
ERR_TABLE = "ErrTable"        # server to the asker: {reason: one of TABLE_REASONS, msg: words}
TABLE_NAME_MAX = 32           # a table's name, in characters (printable, surrounding spaces dropped)
TABLES_PAGE = 20              # tables in one UpdateTables at most
TABLE_NO_SUCH = "NO_SUCH_TABLE"    # no open table of that name, or no table with that code
TABLE_PRIVATE = "PRIVATE"          # a private table is joined with its code, not its name
TABLE_NAME_TAKEN = "NAME_TAKEN"    # an open table has that name already
TABLE_BAD = "INVALID"              # the name, the count or the bots asked for are not acceptable
TABLE_LIMIT = "LIMIT"              # too many tables and games from this address
TABLE_EXTENSION = "EXTENSION"      # tables are for clients that join with a token
TABLE_REASONS = frozenset({TABLE_NO_SUCH, TABLE_PRIVATE, TABLE_NAME_TAKEN, TABLE_BAD, TABLE_LIMIT, TABLE_EXTENSION})
"""Longest chat message, in characters, after stripping surrounding whitespace."""
# Server to client: errors.
ERR_PROTOCOL = "ErrProtocol"
ERR_NICKNAME = "ErrNickname"
ERR_NEW_GAME = "ErrNewGame"
ERR_ACTION = "ErrAction"
ERR_OBJECT_NOT_OWNED = "ErrObjectNotOwned"
ERR_NO_SUCH_ENTITY = "ErrNoSuchEntity"
ERR_INITIAL_CHOICE = "ErrInitialChoice"
ERR_RESOURCE_TRANSFER = "ErrResourceTransfer"
ERR_REPLACED_TRANS_RECIPE = "ErrReplacedTransRecipe"
ERR_BUY_DEV_CARD = "ErrBuyDevCard"
ERR_CARD_REQUIREMENTS = "ErrCardRequirements"
ERR_ACTIVE_LEADER_DISCARDED = "ErrActiveLeaderDiscarded"  # source only
ERR_INVALID_RESOURCE_TRANSACTION = "ErrInvalidResourceTransaction"  # source only

GAME_REQUEST_TYPES = frozenset({
    REQ_CHOOSE_LEADERS, REQ_CHOOSE_RESOURCES, REQ_SWAP_SHELVES, REQ_LEADER_ACTION,
    REQ_TAKE_FROM_MARKET, REQ_BUY_DEV_CARD, REQ_ACTIVATE_PRODUCTIONS, REQ_END_TURN,
})
"""The reference's game requests. The engine may accept more (its extensions, e.g. ReqMoveResources)."""

CLIENT_TYPES = frozenset({
    REQ_WELCOME, RES_WELCOME, REQ_HEARTBEAT, RES_HEARTBEAT, REQ_GOODBYE, REQ_QUIT, REQ_JOIN,
    REQ_NEW_GAME,
}) | GAME_REQUEST_TYPES
"""Every type a client may send (the reference catalogue)."""

SERVER_TYPES = frozenset({
    REQ_WELCOME, RES_WELCOME, REQ_HEARTBEAT, RES_HEARTBEAT, REQ_GOODBYE, RES_GOODBYE, RES_QUIT,
    UPDATE_BOOKED_SEATS, UPDATE_JOIN_GAME, UPDATE_PLAYER_STATUS,
    UPDATE_GAME, UPDATE_SETUP_DONE, UPDATE_ACTION, UPDATE_CURRENT_PLAYER, UPDATE_MARKET,
    UPDATE_RESOURCE_CONTAINER, UPDATE_FAITH_POINTS, UPDATE_VICTORY_POINTS, UPDATE_VATICAN_SECTION,
    UPDATE_LEADERS_HAND, UPDATE_LEADERS_HAND_COUNT, UPDATE_DEV_SLOT, UPDATE_DEV_CARD_GRID,
    UPDATE_ACTION_TOKEN, UPDATE_LAST_ROUND, UPDATE_GAME_END, UPDATE_ACTIVATE_LEADER,
    ERR_PROTOCOL, ERR_NICKNAME, ERR_NEW_GAME, ERR_ACTION, ERR_OBJECT_NOT_OWNED, ERR_NO_SUCH_ENTITY,
    ERR_INITIAL_CHOICE, ERR_RESOURCE_TRANSFER, ERR_REPLACED_TRANS_RECIPE, ERR_BUY_DEV_CARD,
    ERR_CARD_REQUIREMENTS, ERR_ACTIVE_LEADER_DISCARDED, ERR_INVALID_RESOURCE_TRANSACTION,
})
"""Every type a server may send (observed on the wire, plus the few that exist only in the source)."""

PRIVATE_UPDATES = frozenset({UPDATE_LEADERS_HAND, UPDATE_GAME})
"""Updates that go only to the player named in their ``player`` field (an ``UpdateGame`` among
events is the whole table as one player sees it, as after an undo)."""

# ErrNickname reasons.
NOT_SET = "NOT_SET"
ALREADY_SET = "ALREADY_SET"
TAKEN = "TAKEN"
NOT_IN_GAME = "NOT_IN_GAME"
NICKNAME_REASONS = frozenset({NOT_SET, ALREADY_SET, TAKEN, NOT_IN_GAME})

NICKNAME_MAX = 24
"""Longest nickname, in characters, after stripping surrounding whitespace."""


# --- client to server ----------------------------------------------------------------------------

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

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.nickname is not None:
            out["nickname"] = self.nickname
        if self.token is not None:
            out["token"] = self.token
        if self.table is not None:
            out["table"] = self.table.to_dict()
        out["type"] = self.TYPE
        return out

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqJoin":
        table = d.get("table")
        return cls(_opt_str(d, "nickname"), _opt_str(d, "token"),
                   None if table is None else TableChoice.parse(table))


@dataclass(frozen=True, slots=True)
class TableChoice:
    """Where a ``ReqJoin`` asks to sit (our extension, the ``table`` field): an open table by its
    ``name`` (a public one), any table by its invite ``code``, or a new table (``create``: its
    name) of ``players_count`` seats, ``private`` or not, with ``bots`` (levels) in some of them
    at ``bot_pace``. Without it a client joins the waiting list (the Quick game, seed 004's
    random-players queue, which reference clients share).

    >>> TableChoice.parse({"create": "Ada's table", "playersCount": 3, "private": True})
    TableChoice(name=None, code=None, create="Ada's table", players_count=3, private=True, bots=(), bot_pace=None)
    """

    name: str | None = None
    code: str | None = None
    create: str | None = None
    players_count: int | None = None
    private: bool = False
    bots: tuple[str, ...] = ()
    bot_pace: Any = None

    def to_dict(self) -> dict[str, Any]:
        if self.create is not None:
            out: dict[str, Any] = {"create": self.create, "playersCount": self.players_count,
                                   "private": self.private}
            if self.bots:
                out["bots"] = list(self.bots)
            if self.bot_pace is not None:
                out["botPace"] = self.bot_pace
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
        return cls(None, None, create, n, private, tuple(bots), pace)


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
        if type(start) is not int or start < 0:
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
    text = " ".join(text.split())
    if not 1 <= len(text) <= TABLE_NAME_MAX or not text.isprintable():
        return None
    return text


def err_table(reason: str, msg: str) -> dict[str, Any]:
    """``ErrTable`` (our extension): a ``ReqJoin`` with a ``table`` refused (nothing changed: the
    nickname is not taken, the client may join again), with a reason code and words.

    :raises ValueError: an unknown reason."""
    if reason not in TABLE_REASONS:
        raise ValueError(f"unknown ErrTable reason {reason!r}")
    return _msg(ERR_TABLE, reason=reason, msg=msg)


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
    or None if it is not a string of 1 to :data:`CHAT_MAX` printable characters."""
    if type(text) is not str:
        return None
    text = " ".join(text.split())
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


_NETWORK: dict[str, type[ClientMessage]] = {
    cls.TYPE: cls
    for cls in (ReqWelcome, ResWelcome, ReqHeartbeat, ResHeartbeat, ReqGoodbye, ReqQuit, ReqJoin,
                ReqNewGame, ReqChat, ReqUndo, ReqReplay, ReqTables)
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


# --- server to client ----------------------------------------------------------------------------

def _msg(type_: str, **fields: Any) -> dict[str, Any]:
    fields["type"] = type_
    return fields


def req_welcome() -> dict[str, Any]:
    """Sent by the server right after accepting a connection."""
    return _msg(REQ_WELCOME)


def res_welcome(tls_port: int | None = None) -> dict[str, Any]:
    """``tls_port`` (our extension, only to a client that asked with ``ReqWelcome {tls: true}``):
    where the server speaks TLS."""
    if tls_port is None:
        return _msg(RES_WELCOME)
    return _msg(RES_WELCOME, tlsPort=tls_port)


def req_heartbeat() -> dict[str, Any]:
    return _msg(REQ_HEARTBEAT)


def res_heartbeat() -> dict[str, Any]:
    return _msg(RES_HEARTBEAT)


def req_goodbye() -> dict[str, Any]:
    """Server shutting down (exists in the reference source; never seen on its wire)."""
    return _msg(REQ_GOODBYE)


def res_goodbye() -> dict[str, Any]:
    return _msg(RES_GOODBYE)


def res_quit() -> dict[str, Any]:
    return _msg(RES_QUIT)


def update_booked_seats(booked_seats: int, can_prepare_new_game: str,
                        players: list[str] | None = None, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """Waiting-list length and the nickname at its head (who may send ``ReqNewGame``);
    ``players`` (our extension, only for our clients): the nicknames at the front of the list (the
    next game's seats), in its order. ``table`` (our extension, to the people at a table):
    ``{name, private}`` and, at a private table, its invite ``code``; ``bookedSeats`` then counts
    the people at that table and ``canPrepareNewGame`` is its host."""
    if players is None:
        return _msg(UPDATE_BOOKED_SEATS, bookedSeats=booked_seats, canPrepareNewGame=can_prepare_new_game)
    if table is None:
        return _msg(UPDATE_BOOKED_SEATS, bookedSeats=booked_seats, canPrepareNewGame=can_prepare_new_game,
                    players=list(players))
    return _msg(UPDATE_BOOKED_SEATS, bookedSeats=booked_seats, canPrepareNewGame=can_prepare_new_game,
                players=list(players), table=table)


def update_tables(tables: list[dict[str, Any]], start: int, total: int, waiting: int,
                  players_count: int | None) -> dict[str, Any]:
    """``UpdateTables`` (our extension): a page of the open tables (each ``{name, host, players,
    taken, free, bots, private}``), where it starts in the list, how many there are, and the
    Quick game's queue (``waiting`` people, the game their first chose, if any)."""
    return _msg(UPDATE_TABLES, tables=tables, **{"from": start}, total=total,
                queue={"waiting": waiting, "playersCount": players_count})


def update_join_game(players_count: int, bots: list[str] | None = None) -> dict[str, Any]:
    """The size of the game about to start; ``bots`` (our extension, only for our clients): the
    levels of the computer players asked for in it."""
    if bots is None:
        return _msg(UPDATE_JOIN_GAME, playersCount=players_count)
    return _msg(UPDATE_JOIN_GAME, playersCount=players_count, bots=bots)


def update_player_status(player: str, is_active: bool) -> dict[str, Any]:
    return _msg(UPDATE_PLAYER_STATUS, player=player, isActive=is_active)


def update_chat(player: str, text: str) -> dict[str, Any]:
    return _msg(UPDATE_CHAT, player=player, text=text)


def update_server_stopping(reason: str = HOST_STOPPED) -> dict[str, Any]:
    """Our extension, to our clients as the server stops on purpose (never on a crash)."""
    return _msg(UPDATE_SERVER_STOPPING, reason=reason)


def update_player_away(player: str, seconds: float) -> dict[str, Any]:
    """Our extension: ``player`` is not connected; their seat waits ``seconds`` more (whole
    seconds, rounded up), then their turns are skipped until they come back."""
    return _msg(UPDATE_PLAYER_AWAY, player=player, seconds=max(0, -int(-seconds // 1)))


def err_protocol(msg: str) -> dict[str, Any]:
    return _msg(ERR_PROTOCOL, msg=msg)


def err_nickname(reason: str) -> dict[str, Any]:
    """:raises ValueError: if ``reason`` is not one of NOT_SET, ALREADY_SET, TAKEN, NOT_IN_GAME."""
    if reason not in NICKNAME_REASONS:
        raise ValueError(f"unknown ErrNickname reason {reason!r}")
    return _msg(ERR_NICKNAME, reason=reason)


def err_new_game(is_invalid_players_count: bool, reason: str | None = None) -> dict[str, Any]:
    """``True``: the count is out of range; ``False``: the sender may not start a game now.

    ``reason`` (our extension) says in words what was wrong with the bots asked for; it is only
    ever sent to a client that asked for bots."""
    if reason is None:
        return _msg(ERR_NEW_GAME, isInvalidPlayersCount=is_invalid_players_count)
    return _msg(ERR_NEW_GAME, isInvalidPlayersCount=is_invalid_players_count, reason=reason)


def visible_to(msg: Mapping[str, Any], nickname: str) -> bool:
    """Whether ``nickname`` may receive this game update.

    Private updates (``UpdateLeadersHand``) go only to ``msg["player"]``; everything else to all.
    """
    if msg.get("type") in PRIVATE_UPDATES:
        return msg.get("player") == nickname
    return True


def fingerprint(der: bytes) -> str:
    """A TLS certificate's SHA-256 fingerprint (from its DER bytes), as ``openssl x509 -noout
    -fingerprint -sha256`` prints it: what the server logs and our client remembers."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return "SHA256:" + ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def validate_nickname(s: Any) -> str | None:
    """Return the nickname stripped of surrounding whitespace, or None if it is not acceptable.

    Refused: not a string, blank, longer than :data:`NICKNAME_MAX` characters, or holding a
    non-printable character (control, format or separator characters other than the plain space).

    >>> validate_nickname("  Zoë ")
    'Zoë'
    >>> validate_nickname("a\\tb") is None
    True
    """
    if type(s) is not str:
        return None
    s = s.strip()
    if not s or len(s) > NICKNAME_MAX or not s.isprintable():
        return None
    return s
