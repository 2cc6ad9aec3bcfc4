"""Sessions seated at a game server of ours over loopback (a ``server`` fixture's), through the
client's :class:`~game.match.RemoteMatch`, as a front end seats them."""
from __future__ import annotations

from pathlib import Path

from game.client.session import GameSession
from game.match import RemoteMatch
from game.rules import default_config

from .wait import pump_until

CFG = default_config()


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
