"""A host whose kept game is hosted again on another port (the first one taken meanwhile by
another program, any free port chosen) takes their own seat back: the host's seat token is kept
for the game this computer hosts, not for a port. QA: the text client and the window answered
"That nickname is already playing"."""
from __future__ import annotations

import socket

import pytest

from support.text import text_client
from support.wait import pump_until, until
from walk import free_port

from game.client.games import default_config
from game.client.session import GameSession
from game.match import RemoteMatch
from game.settings import Settings

pytestmark = pytest.mark.timeout(60)


def _menu_entry(said, words: str) -> str:
    return next(line for line in reversed(said) if words in line).split(".")[0]


def test_a_kept_game_hosted_again_on_another_port_gives_the_host_their_seat(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_SEED", "5")
    port = free_port()
    ada, said = text_client(None, tmp_path / "data", settings=Settings(nickname="Ada", server_port=port))
    bea = busy = None
    try:
        ada.line(_menu_entry(said, "Host a game on this network"))
        until(lambda: said.has("You choose how many play"), ada.tick)
        bea = GameSession(RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea.json", retry_delays=()),
                          default_config(), "Bea")
        pump_until(bea, lambda: bea.lobby.booked == 2)
        ada.line("players 2")
        until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
        ada.line("leave")
        ada.line("2")                                   # stop hosting: the game is kept
        assert ada.server is None
        bea.close()
        bea = None
        busy = socket.create_server(("0.0.0.0", port))   # another program took the port meanwhile
        n = len(said)
        ada.line(_menu_entry(said, "Return to your LAN game"))
        until(lambda: said.has("press Enter for any free port", n), ada.tick, what="the port refused")
        ada.line("")                                    # any free port
        until(lambda: said.has("Bea is away", n) or said.has("already playing", n), ada.tick,
              what="back at the kept game, or refused")
        assert ada.server is not None and ada.server.address[1] != port
        assert not said.has("already playing", n), said[n:]
        assert said.has("Bea is away", n)
    finally:
        ada.close()
        if bea is not None:
            bea.close()
        if busy is not None:
            busy.close()
