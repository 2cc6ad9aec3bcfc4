"""One player key, one seat at a table, over 127.0.0.1 (TLS): the attack where two connections
with one key ("kk" and "kk2") sat at one turn-based table and started a rated game against
themselves. The second seat is refused in the player's words at a turn-based table (its seats
are the keys'); in real time two windows of one player may sit together, and such a game, like
any with one key in two seats, is not rated; players without a key (reference clients) are as
before."""
from __future__ import annotations

from typing import Any

import pytest

from game import i18n
from game.client.lobby import Lobby
from game.netcode import ratings_wire as W
from game.netcode.protocol import TABLE_IN_USE

from conftest import KeyedPlayer, start_game
from fakes import Fake, finished, ratings
from turn_tables import HOUR, sit

pytestmark = pytest.mark.timeout(60)


def quick(p: KeyedPlayer) -> dict[str, Any]:
    """``p`` joins the Quick game's waiting list with its key; the answer (its seat or a refusal)."""
    p.send({"type": "ReqJoin", "nickname": p.nickname, "token": "", "key": p.key})
    return p.until(lambda m: m["type"] in ("UpdateBookedSeats", "ErrTable", "ErrNickname", "UpdateGame"))[-1]


def test_one_key_sits_once_at_a_turn_based_table_and_is_told_why_in_its_language(turn_server, keyed):
    srv = turn_server()
    kk = keyed(srv.tls_address, "kk")
    assert sit(kk, {"create": "TB2", "playersCount": 2, "private": False, "moveTime": HOUR})[-1]["type"] \
        == "UpdateBookedSeats"
    kk2 = keyed(srv.tls_address, "kk2", kk.key)       # the same key, another name, another connection
    refused = sit(kk2, {"name": "TB2"})[-1]
    assert refused["type"] == "ErrTable" and refused["reason"] == TABLE_IN_USE
    assert "one seat at a table" in refused["msg"] and refused["say"]["code"] == "table.key_seated"
    assert not srv.rooms                               # no game started with one key in both seats
    i18n.use("it")
    try:
        assert Lobby().take(refused).startswith("Siedi gi\u00e0 a \u00abTB2\u00bb")
    finally:
        i18n.use("en")
    bea = keyed(srv.tls_address, "Bea")                # another key takes the seat: the game starts
    assert sit(bea, {"name": "TB2"})[-1]["type"] == "UpdateGame"
    (gid,) = srv.rooms
    assert sorted(srv.turns.owners[gid]) == ["Bea", "kk"] and len(set(srv.turns.owners[gid].values())) == 2
    kk2.send({"type": "ReqJoin", "nickname": "kk2", "token": "", "key": kk.key, "game": gid})
    assert kk2.until_type("ErrTable")[-1]["reason"] == TABLE_IN_USE   # kk's seat, connected already


def test_two_windows_of_one_key_may_play_in_real_time_but_are_never_rated(turn_server, keyed):
    """At a real-time table and in the Quick game (a LAN game's too) two windows of one player
    may sit together (the walks of the window play so: two installs of one account), and the
    game they start is not rated: nobody is rated against themselves."""
    srv = turn_server()
    kk = keyed(srv.tls_address, "kk")
    assert sit(kk, {"create": "RT", "playersCount": 2, "private": False})[-1]["type"] == "UpdateBookedSeats"
    kk2 = keyed(srv.tls_address, "kk2", kk.key)
    assert sit(kk2, {"name": "RT"})[-1]["type"] == "UpdateGame"
    (gid,) = srv.rooms
    assert sorted(srv.rooms[gid].nicknames) == ["kk", "kk2"] and gid not in srv.ratings.games
    kk3, kk4 = keyed(srv.tls_address, "kk3", kk.key), keyed(srv.tls_address, "kk4", kk.key)
    assert quick(kk3)["type"] == "UpdateBookedSeats" and quick(kk4)["type"] == "UpdateBookedSeats"
    kk3.send({"type": "ReqNewGame", "playersCount": 2})
    kk3.until_type("UpdateGame"), kk4.until_type("UpdateGame")
    (quick_gid,) = set(srv.rooms) - {gid}
    assert quick_gid not in srv.ratings.games


def test_players_without_a_key_are_as_before(turn_server, players):
    srv = turn_server()
    kk, kk2 = players(srv.address, "kk", "kk2")         # reference clients: no token, no key
    start_game(kk, kk2, token=None)
    (room,) = srv.rooms.values()
    assert sorted(room.nicknames) == ["kk", "kk2"] and not srv.ratings.games


def test_a_game_with_one_key_in_two_seats_is_not_rated():
    r, told = ratings()
    one, two = Fake("kk"), Fake("kk2")
    key = W.make_key()
    assert r.identify(one, key) is r.identify(two, key) is not None
    game = finished(["kk", "kk2"])
    r.started(1, game, {}, [one, two])
    r.ended(1, game)
    assert not r.games and told == [] and r.of[one].games == 0 and r.store.seats() == {}


def test_a_game_kept_with_one_key_in_two_seats_is_not_rated_when_it_ends_after_a_restart(tmp_path):
    r, told = ratings(tmp_path / "p.sqlite3")
    one, two = Fake("kk"), Fake("kk2")
    key = W.make_key()
    p = r.identify(one, key)
    assert p is r.identify(two, key) is not None
    game = finished(["kk", "kk2"])
    r.store.seat(1, game.seed, {"kk": p, "kk2": p})   # seated twice by a server before the fix
    r.load()
    r.restored(1, game)
    r.ended(1, game)
    assert told == [] and p.games == 0 and r.store.seats() == {}
