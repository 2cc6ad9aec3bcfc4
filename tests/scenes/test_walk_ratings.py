"""Ratings and the player's key in the window, walked like a player: the real ``App`` frame loop
from the title, posted events only (tools/walk.py). The Tables page names who sits with their
ratings and opens the Leaderboard (the best players, the player's place); Settings take a key
pasted from another machine, and refuse a bad one in words."""
from __future__ import annotations

import pytest

from walk import close, start

from game.client.keys import key_file
from game.netcode import ratings_wire as W
from game.netcode.player_key import read_key
from support.ratings import rated_and_seated

pytestmark = pytest.mark.timeout(120)


def test_the_tables_show_ratings_and_open_the_leaderboard(tls_server, tmp_path):
    host, port = tls_server.address
    ada = rated_and_seated(tls_server, tmp_path)
    walk = start(name="ratings")
    try:
        walk.fill_join_page(port, "Wes")
        walk.press("Tables")
        walk.until_scene("TablesScene")
        walk.until(lambda: walk.app.stack.top.rows, 10, "the row of Ada's table")
        (_, table), = walk.app.stack.top.rows
        assert table.rated and table.seated_words == "Ada (rated 0)"
        walk.frames(2)
        walk.press("Leaderboard")
        walk.until_scene("LeaderboardScene")
        page = walk.app.stack.top
        walk.until(lambda: page.board is not None, 10, "the leaderboard")
        assert [(r.place, r.name, r.rating) for r in page.board.rows] == [(1, "Ann", 11), (2, "Bob", 3)]
        assert page.board.standing.startswith("You have no rated game here yet") and page.error is None
        assert read_key(key_file()) is not None          # made to ask for the player's place, over TLS
        walk.frames(3)
        walk.press("Back")
        walk.until_scene("TablesScene")
    finally:
        close(walk.app)
        ada.close()


def test_settings_take_a_key_from_another_machine_and_refuse_a_bad_one_in_words():
    walk = start(name="settings-key")
    try:
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        page = walk.app.stack.top
        assert page.draft["player_key"] == ""            # none made yet: nothing shown
        other = W.make_key()
        walk.click(walk.entry_at(2))                     # nickname, port, then the key
        walk.type(other[:-1] + ("0" if other[-1] != "0" else "1"))
        walk.press("Save")
        assert page.status.startswith("Not saved: That key has a mistake in it")
        assert read_key(key_file()) is None              # nothing kept
        walk.frames(2)
        walk.click(walk.entry_at(2))
        walk.type(other)
        walk.press("Save")
        assert page.status == "Saved." and read_key(key_file()) == other
        walk.frames(2)
    finally:
        close(walk.app)
