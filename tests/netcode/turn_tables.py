"""Turn-based tables as the server tests use them (TLS, player keys): sitting and coming back by
key, My games, a table of people with keys whose game has started, and their set-up choices.
The servers come from the ``turn_server`` fixture, the people from ``keyed`` (conftest)."""
from __future__ import annotations

import random
from typing import Any

from game.netcode import turn_wire as T
from game.rules.playout import choose

from conftest import KeyedPlayer

HOUR = 3600


def sit(p: KeyedPlayer, table: dict[str, Any]) -> list[dict[str, Any]]:
    """``p`` opens or sits at a table; returns what came until its seat, game or refusal."""
    p.send({"type": "ReqJoin", "nickname": p.nickname, "token": "", "key": p.key, "table": table})
    return p.until(lambda m: m["type"] in ("UpdateBookedSeats", "ErrTable", "UpdateGame", "ErrNickname"))


def back(p: KeyedPlayer, gid: int) -> list[dict[str, Any]]:
    """``p`` takes its seat in game ``gid`` again, by key."""
    p.send({"type": "ReqJoin", "nickname": p.nickname, "token": "", "key": p.key, "game": gid})
    return p.until(lambda m: m["type"] in ("UpdateGame", "ErrTable", "ErrNickname"))


def my_games(p: KeyedPlayer) -> dict[str, Any]:
    """``ReqMyGames`` with ``p``'s key: the answer."""
    p.send(T.ReqMyGames(p.key).to_dict())
    return p.until(lambda m: m["type"] in (T.UPDATE_MY_GAMES, T.ERR_MY_GAMES))[-1]


def turn_table(srv, keyed, *names: str, move_time: int = HOUR) -> tuple[list[KeyedPlayer], int]:
    """People with keys at a new turn-based table "Salon" that starts as the last sits: them, the game."""
    group = [keyed(srv.tls_address, n) for n in names]
    said = sit(group[0], {"create": "Salon", "playersCount": len(group), "private": False, "moveTime": move_time})
    assert said[-1]["type"] == "UpdateBookedSeats" and said[-1]["table"]["moveTime"] == move_time
    for p in group[1:]:
        assert sit(p, {"name": "Salon"})[-1]["type"] == "UpdateGame"
    group[0].until_type("UpdateGame")
    (gid,) = [g for g, r in srv.rooms.items() if r.turn_time is not None and not r.finished]
    return group, gid


def setup_choice(srv, gid: int, p: KeyedPlayer, rng: random.Random) -> None:
    """``p`` makes its set-up choices (the engine's policy on the served game)."""
    game = srv.rooms[gid].game
    while not (game.player(p.nickname).chose_leaders and game.player(p.nickname).chose_resources):
        answer = p.request(choose(game, p.nickname, rng))
        assert not answer[-1]["type"].startswith("Err"), answer[-1]
