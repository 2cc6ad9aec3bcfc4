"""Sessions seated at a game server of ours over loopback (a ``server`` fixture's), through the
client's :class:`~game.match.RemoteMatch`, as a front end seats them."""
from __future__ import annotations

import random
from pathlib import Path

from game.client.session import GameSession
from game.client.tables import Seating
from game.match import RemoteMatch
from game.rules import default_config
from game.rules.playout import choose

from .wait import pump_until, until

CFG = default_config()


def started_server(config, data: Path, port: int = 0):
    """A server of ours in this process on 127.0.0.1 (``port`` 0: a free one), its games kept in
    ``data``, announcing nothing; the caller stops it."""
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    server = Server(config, ServerOptions(host="127.0.0.1", port=port, data_dir=data, announce=False))
    server.start()
    return server


def solo_session(server, nick: str, token_file: Path) -> GameSession:
    """``nick`` alone at a new solo game on ``server`` (its seat's token kept in ``token_file``)."""
    host, port = server.address
    match = RemoteMatch(host, port, nick, token_file=token_file, retry_delays=(0.1, 0.2, 0.5, 1, 1, 2))
    session = GameSession(match, CFG, nick)
    pump_until(session, lambda: session.lobby.head == nick)
    match.new_game(1)
    pump_until(session, lambda: session.vm.has_game)
    return session


def table_of_two(server, tmp_path: Path) -> tuple[GameSession, GameSession]:
    """Ada and Bruno, each with their own client, seated at a 2-player game on ``server``."""
    host, port = server.address
    a = GameSession(RemoteMatch(host, port, "Ada", token_file=tmp_path / "a.json"), CFG, "Ada")
    pump_until(a, lambda: a.lobby.head == "Ada")
    b = GameSession(RemoteMatch(host, port, "Bruno", token_file=tmp_path / "b.json"), CFG, "Bruno")
    pump_until(b, lambda: b.lobby.booked == 2)
    a.match.new_game(2)
    pump_until(a, lambda: a.vm.has_game)
    pump_until(b, lambda: b.vm.has_game)
    return a, b


def named_table_of_two(server, tmp_path: Path, name: str = "Salon") -> tuple[GameSession, GameSession]:
    """Ada and Bea, each with their own client, at the public table ``name`` of ``server``, its
    game started (both sessions have it)."""
    sessions = []
    for nick, where in (("Ada", {"create": name, "players": 2, "private": False}), ("Bea", {"name": name})):
        seat = Seating(*server.address, nick, CFG, token_file=tmp_path / f"{nick}.json", **where)
        until(lambda: seat.poll() in ("seated", "failed"), what=f"{nick}'s seat")
        assert seat.state == "seated", seat.error
        sessions.append(seat.session)
    for s in sessions:
        pump_until(s, lambda: s.vm.has_game)
    return sessions[0], sessions[1]


def play_requests(server, sessions: list[GameSession], rng: random.Random, n: int) -> None:
    """``n`` requests of the game the first session sits in, chosen by the engine's random policy
    from the server's game, each sent by its player's session and waited for at the server."""
    room = server.room_of(sessions[0].nickname)
    by_nick = {s.nickname: s for s in sessions}
    for _ in range(n):
        g = room.game
        if g.ended:
            return
        if g.phase == "setup":
            nick = next(p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        else:
            nick = g.current_player.nickname
        before = len(g.history)
        by_nick[nick].send(choose(g, nick, rng))
        until(lambda: len(room.game.history) > before, *(s.pump for s in sessions), what="the request played")
