"""Who is away, and how long their seat waits, said by the text client as the window shows it:
the server tells our clients (``UpdatePlayerAway``) when a player's connection ends without a
goodbye, and gives the seat the same grace whether it closed or went silent."""
from __future__ import annotations

import socket

import pytest

from game.client.session import GameSession
from game.match import RemoteMatch
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from support.text import text_client
from support.wait import pump_until, until

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def graceful(tmp_path):
    """A server of ours on loopback that keeps a dropped player's seat 30 s (as a host's does)."""
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", seed=3,
                                                 announce=False, away_grace=30))
    srv.start()
    yield srv
    srv.stop()


def test_a_player_whose_game_crashed_is_said_away_with_the_seconds_their_seat_waits(graceful, tmp_path):
    host, port = graceful.address
    ada, said = text_client("Ada", tmp_path / "data")
    bea = None
    try:
        ada.join_address(f"{host}:{port}")
        until(lambda: said.has("You choose how many play"), ada.tick)
        bea = GameSession(RemoteMatch(host, port, "Bea", token_file=tmp_path / "bea.json", retry_delays=()),
                          default_config(), "Bea")
        pump_until(bea, lambda: bea.lobby.booked == 2)
        ada.line("players 2")
        until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
        bea.match.conn._sock.shutdown(socket.SHUT_RDWR)          # Bea's game crashed: no goodbye
        until(lambda: said.has("Bea is away"), ada.tick, what="Bea said away")
        line = next(line for line in said if "Bea is away" in line)
        assert line == ("Bea is away: their seat and turn wait up to 30 s for them; after that the game goes on "
                        "without them until they are back."), line
    finally:
        ada.close()
        if bea is not None:
            bea.close()
