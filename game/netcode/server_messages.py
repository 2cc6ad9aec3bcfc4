"""What a server sends: builders (``res_welcome()``, ``update_booked_seats(...)``,
``err_protocol(msg)``, ...) return dicts with the exact reference field names and ``type`` as the
**last** key, as the reference writes them; and :func:`visible_to`, who may see each update. Game
updates (``UpdateGame``, ``UpdateMarket``, ...) come from the rules engine, already in wire shape.
The names and reason codes are in :mod:`.protocol`.

>>> update_booked_seats(1, "alice")
{'bookedSeats': 1, 'canPrepareNewGame': 'alice', 'type': 'UpdateBookedSeats'}
"""
from __future__ import annotations

from typing import Any, Mapping

from .protocol import (
    ERR_NEW_GAME,
    ERR_NICKNAME,
    ERR_PROTOCOL,
    ERR_TABLE,
    HOST_STOPPED,
    NICKNAME_REASONS,
    PRIVATE_UPDATES,
    REQ_GOODBYE,
    REQ_HEARTBEAT,
    REQ_WELCOME,
    RES_GOODBYE,
    RES_HEARTBEAT,
    RES_QUIT,
    RES_WELCOME,
    TABLE_REASONS,
    UPDATE_BOOKED_SEATS,
    UPDATE_CHAT,
    UPDATE_JOIN_GAME,
    UPDATE_PLAYER_AWAY,
    UPDATE_PLAYER_STATUS,
    UPDATE_SERVER_STOPPING,
    UPDATE_TABLES,
)
from .server_words import with_say


def _msg(type_: str, **fields: Any) -> dict[str, Any]:
    fields["type"] = type_
    return fields


def req_welcome() -> dict[str, Any]:
    """Sent by the server right after accepting a connection."""
    return _msg(REQ_WELCOME)


def res_welcome(tls_port: int | None = None, outside: tuple[str, int] | None = None) -> dict[str, Any]:
    """``tls_port`` (our extension, only to a client that asked with ``ReqWelcome {tls: true}``):
    where the server speaks TLS; ``outside`` (a hosted game whose router forwards the TLS port
    under another number): the router's outside address and that number, for a client that came
    through the router (``tlsOutside: {host, port}``)."""
    if tls_port is None:
        return _msg(RES_WELCOME)
    if outside is None:
        return _msg(RES_WELCOME, tlsPort=tls_port)
    return _msg(RES_WELCOME, tlsPort=tls_port, tlsOutside={"host": outside[0], "port": outside[1]})


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
    """A line said at a table; words the server wrote (:func:`.server_words.said`) carry their code."""
    return with_say(_msg(UPDATE_CHAT, player=player, text=text), text)


def update_server_stopping(reason: str = HOST_STOPPED) -> dict[str, Any]:
    """Our extension, to our clients as the server stops on purpose (never on a crash)."""
    return _msg(UPDATE_SERVER_STOPPING, reason=reason)


def update_player_away(player: str, seconds: float) -> dict[str, Any]:
    """Our extension: ``player`` is not connected; their seat waits ``seconds`` more (whole
    seconds, rounded up), then their turns are skipped until they come back."""
    return _msg(UPDATE_PLAYER_AWAY, player=player, seconds=max(0, -int(-seconds // 1)))


def err_protocol(msg: str) -> dict[str, Any]:
    """A request not understood or not taken; words the server wrote (a limit) carry their code."""
    return with_say(_msg(ERR_PROTOCOL, msg=msg), msg)


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
    return with_say(_msg(ERR_NEW_GAME, isInvalidPlayersCount=is_invalid_players_count, reason=reason), reason)


def err_table(reason: str, msg: str) -> dict[str, Any]:
    """``ErrTable`` (our extension): a ``ReqJoin`` with a ``table`` refused (nothing changed: the
    nickname is not taken, the client may join again), with a reason code and words.

    :raises ValueError: an unknown reason."""
    if reason not in TABLE_REASONS:
        raise ValueError(f"unknown ErrTable reason {reason!r}")
    return with_say(_msg(ERR_TABLE, reason=reason, msg=msg), msg)


def visible_to(msg: Mapping[str, Any], nickname: str | None) -> bool:
    """Whether ``nickname`` may receive this game update.

    Private updates (``UpdateLeadersHand``) go only to ``msg["player"]``; everything else to all.
    """
    if msg.get("type") in PRIVATE_UPDATES:
        return msg.get("player") == nickname
    return True
