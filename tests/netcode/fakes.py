"""The server's parts below the transport, without a socket, for their own tests: a connection
as they see it (:class:`Fake`: what it is told is kept), a lobby and its games with no socket,
disk or loop (:func:`parts`), and the ratings on a store in memory or in a file (:func:`ratings`)."""
from __future__ import annotations

import threading
from typing import Any

import orjson

from game.netcode.bot_scheduler import BotScheduler
from game.netcode.games import Games
from game.netcode.lobby import Lobby
from game.netcode.names import NickBook
from game.netcode.player_store import PlayerStore
from game.netcode.ratings import Ratings
from game.netcode.server_options import ServerOptions
from game.netcode.store import GameStore
from game.rules.engine import Game
from game.rules.playout import random_game

from conftest import CONFIG


class Fake:
    """A connection as the lobby, the games and the ratings see it: ``nickname`` (None until it
    joins), its address, whether it speaks our extensions (``ours``) and came over TLS."""

    def __init__(self, nickname: str | None = None, ip: str = "10.0.0.1", ours: bool = True, tls: bool = True) -> None:
        self.nickname = nickname
        self.token = self.room = self.table = self.announced = self.booked = None
        self.left = False
        self.extensions = ours
        self.ip = ip
        self.tls = tls
        self.since = 0.0
        self.told: list[dict[str, Any]] = []

    def send(self, *msgs: dict[str, Any]) -> None:
        self.told.extend(msgs)

    def push(self, data: bytes) -> None:
        self.told.extend(orjson.loads(line) for line in data.splitlines())

    def types(self) -> list[str]:
        return [m["type"] for m in self.told]


def parts(**options: Any) -> tuple[Lobby, Games, list[tuple]]:
    """A lobby and its games with no socket, no disk and no loop: timers are only recorded."""
    options.setdefault("seed", 7)
    opts = ServerOptions(**options)
    lock = threading.RLock()
    rooms: dict = {}
    by_nick = NickBook()
    timers: list[tuple] = []
    bots = BotScheduler(CONFIG, opts, rooms, lambda fn, *a: fn(*a), lambda *a: timers.append(a),
                        lambda room, data: None, lambda: False)
    games = Games(CONFIG, opts, GameStore(None, False), lock, rooms, by_nick, bots, lambda *a: timers.append(a))
    return Lobby(CONFIG, opts, lock, by_nick, games, bots), games, timers


def ratings(path=None, **options: Any) -> tuple[Ratings, list[tuple]]:
    """The ratings on a store at ``path`` (None: in memory); what they tell a game's players
    (``nickname``, message) is kept in the list returned with them."""
    told: list[tuple] = []
    store = PlayerStore(path, max_rows=options.pop("max_rows", 1000))
    r = Ratings(store, ServerOptions(**options), {})
    r._tell = lambda nick, gid, data: told.append((nick, orjson.loads(data)))    # type: ignore[method-assign]
    return r, told


def finished(nicks: list[str], seed: int = 5) -> Game:
    """A seeded game of ``nicks`` played to its end."""
    return random_game(CONFIG, nicks, seed)
