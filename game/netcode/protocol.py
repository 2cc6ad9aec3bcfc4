"""The wire's vocabulary: every message type's name, the reason codes, the fixed refusal texts and
the limits, with the reference server's spelling; and which types each side may send.

What is done with them lives beside: :mod:`.client_messages` (what a client sends: parsing and
checking) and :mod:`.server_messages` (what a server sends: the builders, and who may see an update).
Our extensions (a reference client never sends nor receives them) are marked below;
``docs/compatibility.md`` lists every difference.

Refusals use the reference server's fixed ``ErrProtocol`` texts:

* unknown type, or a server-to-client type sent by a client:
  ``Event type "X" as subclass of "VCEvent" does not exist.`` (:data:`UNKNOWN_TYPE`)
* known type with a wrong field type or a missing required field: ``Invalid attribute types.``
  (:data:`INVALID_TYPES`)
"""
from __future__ import annotations

from game.rules.errors import MalformedRequest

from .framing import (  # re-exported: the whole ErrProtocol vocabulary is available here
    EMPTY_INPUT,
    INVALID_SYNTAX,
    LINE_TOO_LONG,
    TYPE_NOT_FOUND,
)
from .server_words import said

INVALID_TYPES = MalformedRequest.INVALID_TYPES  # "Invalid attribute types."
UNKNOWN_TYPE = 'Event type "{}" as subclass of "VCEvent" does not exist.'
CHAT_TOO_FAST = "Too many chat messages; wait a moment."
CANNOT_SAVE = said("save.cannot_save")
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
CHAT_MAX = 200                # longest chat message, in characters, after stripping surrounding whitespace
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
TABLE_NEEDS_KEY = "NEEDS_KEY"      # a turn-based table (or a seat taken by key) needs a player key (see turn_wire)
TABLE_IN_USE = "IN_USE"            # the seat asked for by key is connected already, or the key sits there
TABLE_NICKNAME_TAKEN = "NICKNAME_TAKEN"   # someone at the table has that nickname (or one that reads the same)
TABLE_REASONS = frozenset({TABLE_NO_SUCH, TABLE_PRIVATE, TABLE_NAME_TAKEN, TABLE_BAD, TABLE_LIMIT, TABLE_EXTENSION,
                           TABLE_NEEDS_KEY, TABLE_IN_USE, TABLE_NICKNAME_TAKEN})
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
