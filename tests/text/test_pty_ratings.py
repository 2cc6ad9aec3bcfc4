"""Keys and ratings in the text client, in a real pseudo-terminal: ``mor-text key`` prints the key
and how to keep it, a server's tables name who sits there with their ratings, and ``ratings``
reads its leaderboard and the player's own standing."""
from __future__ import annotations

import pytest

from game.netcode import ratings_wire as W
from game.netcode.player_key import KEY_FILE, read_key
from game.settings import data_dir
from support.pty import PtyProgram
from support.ratings import rated_and_seated

pytestmark = pytest.mark.timeout(60)


def test_mor_text_key_prints_the_key_and_how_to_copy_it():
    p = PtyProgram(["key"], seed=1)
    try:
        key = p.expect(".")
        assert W.check_key(key.strip()) is None
        p.expect("servers know you by it")
        p.expect("copy the key there")
        assert p.wait() == 0
    finally:
        p.kill()
    assert read_key(data_dir() / KEY_FILE) == key.strip()     # made on first use, kept


def test_the_tables_say_who_sits_with_their_ratings_and_ratings_reads_the_leaderboard(tls_server, tmp_path):
    host, port = tls_server.address
    ada = rated_and_seated(tls_server, tmp_path)
    p = PtyProgram(["--plain", "--name", "Wes"], seed=1)
    try:
        p.expect("Main menu")
        join = p.expect("Join a game on the network")
        p.send(join.split(".")[0], f"tables {host}:{port}")
        assert p.expect("1. Ada's") == "1. Ada's, opened by Ada: 1 of 3 seats taken (Ada (rated 0))."
        p.expect("ratings for the leaderboard")
        p.send("ratings")
        assert p.expect("Leaderboard of") == f"Leaderboard of {host}:{port}:"
        assert p.expect("1. ") == "1. Ann: 11 (1 game)"
        assert p.expect("2. ") == "2. Bob: 3 (1 game)"
        p.expect("You have no rated game here yet")
        p.expect("leaving before the end counts as last place")
        p.send("menu")
        p.quit()
    finally:
        p.kill()
        ada.close()
