"""A host in the text client with a friend at the table is asked before leaving or quitting, as
the window asks (the one question of game.client.flow.hosting): leave the table and let them play
on, stop hosting, or stay. QA: the text client stopped the server at once, disconnecting them.
A kept game hosted again on another port gives the host their seat (QA: "That nickname is already
playing")."""
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

pytestmark = pytest.mark.timeout(120)


def _menu_entry(said, words: str) -> str:
    return next(line for line in reversed(said) if words in line).split(".")[0]


def _hosting_a_game_with_bea(ada, said, tmp_path) -> GameSession:
    """Ada hosts, Bea joins, a game of two begins: Bea's session."""
    ada.line(_menu_entry(said, "Host a game on this network"))
    n = len(said)
    while not until(lambda: said.has("You choose how many play", n) or said.has("is already in use", n),
                    ada.tick, timeout=45, what=f"the table hosted; said: {said[-6:]}") \
            or not said.has("You choose how many play", n):
        n = len(said)                  # a program took the port meanwhile: another, as a player answers
        ada.line(str(free_port()))
    bea = GameSession(RemoteMatch("127.0.0.1", ada.server.address[1], "Bea", token_file=tmp_path / "bea.json",
                                  retry_delays=()), default_config(), "Bea")
    pump_until(bea, lambda: bea.lobby.booked == 2)
    ada.line("players 2")
    until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
    return bea


def test_a_host_with_a_friend_at_the_table_is_asked_before_leaving_or_quitting(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_SEED", "5")
    port = free_port()
    ada, said = text_client(None, tmp_path / "data", settings=Settings(nickname="Ada", server_port=port))
    bea = None
    try:
        bea = _hosting_a_game_with_bea(ada, said, tmp_path)
        server = ada.server
        ada.line("leave")
        assert said[-4].startswith("Your friend is still here. Bea is at your table."), said[-4:]
        # (QA: "on the title", a page of the window the terminal has not: its menu offers the return)
        assert "(\u201cReturn to your LAN game\u201d in the main menu)" in said[-4], said[-4]
        assert said[-3:] == ["1. Leave the table", "2. Stop hosting", "3. Stay"]
        ada.line("3")
        assert said[-1] == "You stay at the table." and ada.shell is not None and ada.server is server
        ada.line("leave")
        ada.line("1")                                   # leave the table: Bea plays on
        assert said.has("Your table stays open on this computer") and ada.server is server
        assert ada.shell is None and said.has("Return to your LAN game")
        ada.line("quit")
        assert said[-3].startswith("Quit while hosting? Bea is playing on the game server of this computer")
        ada.line("2")                                   # stay: the menu again
        assert not ada.done and said[-1].endswith("Quit")
        ada.line(_menu_entry(said, "Return to your LAN game"))
        until(lambda: said.has("Choose the 2 leaders you keep", len(said) - 8), ada.tick)
        ada.line("leave")
        ada.line("2")                                   # stop hosting
        assert said.has("Your table's server stops with you") and ada.server is None
        pump_until(bea, lambda: bea.server_stopped is not None, what="Bea told the host stopped")
        bea.close()
        bea = None
        # the game is kept: the menu offers it first, as the title does, and hosting brings it back
        assert said[-8] == "1. Return to your LAN game (host it again and take your seat back)", said[-9:]
        n = len(said)
        ada.line("1")
        until(lambda: said.has("Bea is away", n), ada.tick, what="back at the kept game, Bea away")
    finally:
        ada.close()
        if bea is not None:
            bea.close()


def test_a_kept_game_hosted_again_on_another_port_gives_the_host_their_seat(tmp_path, monkeypatch):
    """The first port taken by another program meanwhile, any free port chosen: the host's seat
    token is the hosted game's, not the port's. QA: "That nickname is already playing"."""
    monkeypatch.setenv("MOR_SEED", "5")
    port = free_port()
    ada, said = text_client(None, tmp_path / "data", settings=Settings(nickname="Ada", server_port=port))
    bea = busy = None
    try:
        bea = _hosting_a_game_with_bea(ada, said, tmp_path)
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
