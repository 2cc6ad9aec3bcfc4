"""Turn-based tables and My games in the window, walked like a player: the real ``App`` frame loop,
posted events only (tools/walk.py). The Tables page opens a turn-based table (its pace button);
the game becoming the player's turn is said over the page and in the window's title; My games,
from the title and from the Tables page, lists it (your move first, the time left) and a click
takes the seat back by key."""
from __future__ import annotations

import pytest

from walk import close, start

from game.client import tables as T
from game.client.my_games import turn_servers
from game.client.session import GameSession
from game.rules import default_config
from support.wait import pump_until, until

pytestmark = pytest.mark.timeout(120)


def test_a_turn_based_table_its_turn_announced_and_my_games_open_it(tls_server, tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_TURN_NEWS", "0.3")
    host, port = tls_server.address
    walk = start(name="my-games")
    bob = None
    try:
        walk.fill_join_page(port, "Wes")
        walk.press("Tables")
        walk.until_scene("TablesScene")
        walk.frames(2)
        walk.press("My games")                        # from the Tables page: this server's games (none yet)
        walk.until_scene("MyGamesScene")
        mine = walk.app.stack.top
        walk.until(lambda: mine.games is not None, 10, "the answer")
        assert mine.games == [] and mine.servers == [(host, port)] and not mine.problems
        walk.frames(2)
        walk.press("Back")
        walk.until_scene("TablesScene")
        walk.frames(2)
        walk.press("Real-time")                       # the pace of a new table: 1 hour a move
        walk.press("Open the table")
        walk.until_scene("LobbyScene")
        assert turn_servers() == [("127.0.0.1", port)]
        bob = GameSession(T.join(host, port, "Bob", name="Wes's table", token_file=tmp_path / "bob" / "seats.json",
                                 tls_port=tls_server.tls_address[1]), default_config(), "Bob")
        pump_until(bob, lambda: bob.vm.has_game)
        walk.until(lambda: walk.app.notice is not None and "Your turn in Wes's table" in walk.app.notice.words,
                   10, "the turn announced over the page")
        assert walk.app.caption.startswith("\u25cf Your turn")
        walk.frames(3)
        for scene in walk.app.stack.scenes:    # the window closed: its connection ends, as when the program ends
            if scene.session is not None:
                scene.session.close()
    finally:
        close(walk.app)
    (room,) = [r for r in tls_server.rooms.values() if r.turn_time]
    until(lambda: "Wes" not in room.online, what="Wes gone with the window")   # the seat kept, nobody away
    assert room.game.player("Wes").active
    walk = start(name="my-games-title")
    try:
        walk.press("My games")                        # from the title: the servers where the player has some
        walk.until_scene("MyGamesScene")
        page = walk.app.stack.top
        walk.until(lambda: page.games or page.problems, 10, "the list of games")
        assert not page.problems, page.problems
        (row,) = page.games
        game = row[3]
        assert (game.table, game.nickname, game.your_turn, game.move_time) == ("Wes's table", "Wes", True, 3600)
        assert game.line.startswith("Wes's table, with Bob: your turn, ")
        walk.frames(2)
        walk.until(lambda: page.rows, 5, "the row drawn")
        walk.click(page.rows[0][0].center)
        walk.until(lambda: walk.scene in ("LeaderChoiceScene", "ResourceChoiceScene") or page.problems, 10, "back at the game")
        assert not page.problems, (page.problems, page.busy)
        assert "Wes" in room.online
    finally:
        close(walk.app)
        if bob is not None:
            bob.close()
