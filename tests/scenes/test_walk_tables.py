"""The tables of a server, walked like a player: the real ``App`` frame loop from the title, posted
events only (tools/walk.py). Ada opens a private table from *Join a game* › *Tables…*; Bea sees a
private table listed, clicks it (it asks for the code), pastes the invite code and reaches her
board. A public table is joined with a click on its row; a refusal is said on the page."""
from __future__ import annotations

import random
import time

import pygame
import pytest

from walk import Walk, board_check, close, start

from game.client import tables as T
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from game.rules.engine import SETUP
from game.rules.playout import choose

pytestmark = pytest.mark.timeout(120)
ALL = {"cards": True, "arrows": True, "track": True, "board": True, "actions": True}


@pytest.fixture
def server(tmp_path):
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", seed=3,
                                                 max_per_address=0, tables_per_address=0, bots_per_address=0))
    srv.start()
    yield srv
    srv.stop()




def _to_tables(walk: Walk, port: int, nickname: str) -> None:
    walk.fill_join_page(port, nickname)
    walk.press("Tables")
    walk.until_scene("TablesScene")
    walk.until(lambda: walk.app.stack.top.listing is not None, 10, "the list of tables")


def _row(walk: Walk, name: str) -> tuple[int, int]:
    walk.until(lambda: any(t.name == name for _r, t in walk.app.stack.top.rows), 10, f"a row for {name}")
    return next(r.center for r, t in walk.app.stack.top.rows if t.name == name)


def _seat(server, tmp_path, nick: str, **where) -> T.Seating:
    """Someone else at the server (the client API, no window)."""
    s = T.Seating(*server.address, nick, default_config(), token_file=tmp_path / f"{nick}.json", **where)
    while s.poll() not in ("seated", "failed"):
        time.sleep(0.01)
    return s


def test_the_tables_page_opens_a_private_table(server):
    ada = start(name="ada")
    try:
        _to_tables(ada, server.address[1], "Ada")
        assert ada.app.stack.top.rows == []                          # nothing open yet
        ada.press("Public")                                          # makes it private
        ada.press("Open the table")
        ada.until_scene("LobbyScene")
        assert ada.app.stack.top.session.lobby.table["name"] == "Ada's table"
        assert server.tables.by_name("Ada's table").private
    finally:
        close(ada.app)


def test_a_private_table_joined_by_pasted_code_reaches_the_board(server, tmp_path):
    """Ada's private table is listed; a click on it asks for the code; the pasted code seats Bea, the
    table fills, and Bea's first board is whole (Ada plays her setup off screen)."""
    ada = _seat(server, tmp_path, "Ada", create="Ada's table", players=2, private=True)
    code = ada.session.lobby.table["code"]
    bea = start(name="bea")
    try:
        _to_tables(bea, server.address[1], "Bea")
        bea.click(_row(bea, "Ada's table"))                          # private: the page asks for the code
        assert bea.scene == "TablesScene" and "invite code" in bea.app.stack.top.note
        bea.click(bea.entry_at(1))
        bea.type(f" {code.lower()} ")
        bea.press("Join")
        bea.until_scene("LeaderChoiceScene")
        bea.key(pygame.K_1, "1")
        bea.key(pygame.K_3, "3")
        bea.key(pygame.K_RETURN, "\r")
        rng = random.Random(5)
        end = time.monotonic() + 20
        while bea.scene != "BoardScene":
            assert time.monotonic() < end, bea.scene
            room = server.room_of("Ada")
            with room.lock:
                setup = choose(room.game, "Ada", rng) if room.game.phase == SETUP else None
            if setup is not None:
                ada.session.match.send(setup)
            ada.session.pump()
            if bea.scene == "ResourceChoiceScene" and bea.button_at("Take it") is None:
                bea.click(bea.app.stack.top.token_rects["Coin"].center)
                for label in ("Bottom", "Take it"):
                    if bea.scene == "ResourceChoiceScene" and bea.button_at(label) is not None:
                        bea.click(bea.button_at(label))
            bea.frames(1)
            time.sleep(0.01)
        assert board_check(bea.first("BoardScene"), 2) == ALL
        assert bea.app.settings.last_address == f"127.0.0.1:{server.address[1]}"
    finally:
        close(bea.app)
        ada.session.close()


def test_a_public_table_is_joined_with_a_click_and_a_refusal_is_said(server, tmp_path):
    cy = _seat(server, tmp_path, "Cy", create="Cy's game", players=3, private=False)
    dee = start(name="dee")
    try:
        _to_tables(dee, server.address[1], "Cy")                   # Cy's name is taken there
        dee.click(_row(dee, "Cy's game"))
        dee.until(lambda: dee.app.stack.top.error is not None, 10, "the refusal")
        assert dee.scene == "TablesScene" and "already playing" in dee.app.stack.top.error
        dee.press("Back")
        dee.until_scene("JoinScene")
        dee.click(dee.entry_at(1))
        dee.type("Dee")
        dee.press("Tables")
        dee.until_scene("TablesScene")
        dee.click(_row(dee, "Cy's game"))
        dee.until_scene("LobbyScene")
        lobby = dee.app.stack.top.session.lobby
        dee.until(lambda: lobby.players == ["Cy", "Dee"], 10, "both at the table")
        assert lobby.players_count == 3 and lobby.head == "Cy"
    finally:
        close(dee.app)
        cy.session.close()
