"""A dropped player's grace (``away_grace``): the same whether the connection closed or went
silent, counted from the player's last message; meanwhile the seat and the turn wait, and our
clients at the table are told who is away and for how long (``UpdatePlayerAway``). A host back
at a kept game is told the same of the guests not back yet."""
from __future__ import annotations

import random
import time

import pytest

from conftest import drive, room_of, start_game, wait_until

pytestmark = pytest.mark.timeout(30)


def in_play(srv, a, b, seed: int):
    game = room_of(srv, a.nickname).game
    drive(game, [a, b], random.Random(seed), stop=lambda g: g.phase == "play" and g.version >= 8)
    return game


def test_a_closed_connection_keeps_the_seat_and_turn_for_the_grace_and_the_others_are_told(make_server, players):
    srv = make_server(away_grace=1.5)
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = in_play(srv, a, b, 21)
    gone = a if game.current_player.nickname == "a" else b      # the current player's game crashes
    stays = b if gone is a else a
    gone.close()
    t0 = time.monotonic()
    told = stays.until_type("UpdatePlayerAway")[-1]
    assert told["player"] == gone.nickname and 1 <= told["seconds"] <= 2
    time.sleep(0.5)
    assert game.player(gone.nickname).active and game.current_player.nickname == gone.nickname  # the turn waits
    passed = stays.until(lambda m: m["type"] == "UpdatePlayerStatus")[-1]
    assert passed == {"player": gone.nickname, "isActive": False, "type": "UpdatePlayerStatus"}
    assert 1.2 <= time.monotonic() - t0 <= 3.0
    wait_until(lambda: game.current_player.nickname == stays.nickname)


def test_a_silent_connection_gets_the_same_grace_counted_from_its_last_message(make_server, players, peers):
    srv = make_server(away_grace=2.0, heartbeat=0.4)   # silent for 0.8 s: closed; 1.2 s of grace are left
    (b,) = players(srv.address, "b")
    quiet = peers(srv.address).welcome()
    quiet.join("a", token="")                          # our client, which then stops answering
    b.join()
    quiet.send({"type": "ReqNewGame", "playersCount": 2})
    last_word = time.monotonic()
    b.until_type("UpdateGame")
    told = b.until_type("UpdatePlayerAway", timeout=5)[-1]
    assert told["player"] == "a" and 1 <= told["seconds"] <= 2   # what is left of the same 2 s
    b.until(lambda m: m["type"] == "UpdatePlayerStatus" and not m["isActive"], timeout=5)
    assert 1.8 <= time.monotonic() - last_word <= 3.5


def test_back_within_the_grace_nothing_is_skipped_and_the_others_hear_it(make_server, players):
    srv = make_server(away_grace=5.0)
    a, b = players(srv.address, "a", "b")
    start_game(a, b)
    game = in_play(srv, a, b, 22)
    token = a.token
    a.close()
    b.until_type("UpdatePlayerAway")
    (again,) = players(srv.address, "a")
    again.join(token=token)
    back = b.until(lambda m: m["type"] == "UpdatePlayerStatus")[-1]
    assert back == {"player": "a", "isActive": True, "type": "UpdatePlayerStatus"}
    assert game.player("a").active and not room_of(srv, "a").away
    b.probe()                                          # and nothing more: never marked away


def test_a_host_back_at_a_kept_game_is_told_which_guests_are_not_connected(make_server, players):
    srv = make_server()
    host, guest = players(srv.address, "host", "guest")
    start_game(host, guest)
    tokens = {p.nickname: p.token for p in (host, guest)}
    srv.stop()                                         # Stop hosting: the game is kept
    srv2 = make_server(restart_grace=20)               # hosted again
    (back,) = players(srv2.address, "host")
    back.join(token=tokens["host"])
    told = back.until_type("UpdatePlayerAway")[-1]
    assert told["player"] == "guest" and 15 <= told["seconds"] <= 20
    assert set(srv2.host_view().away) == {"guest"}
    (guest2,) = players(srv2.address, "guest")
    guest2.join(token=tokens["guest"])
    seen = back.until(lambda m: m["type"] == "UpdatePlayerStatus")[-1]
    assert seen == {"player": "guest", "isActive": True, "type": "UpdatePlayerStatus"}
    assert srv2.host_view().away == {}
