"""Player keys and ratings over 127.0.0.1: two people with keys finish a seeded game over TLS, both
ratings move, and they are still there after a restart and after ``kill -9``; a key is taken over TLS
only; the limits on leaderboards and new keys hold against a stranger while others are served."""
from __future__ import annotations

import random
import signal
import time

import orjson
import pytest

from game.netcode import ratings_wire as W
from game.netcode.ratings import RATINGS_BURST

from game.rules.engine import Game

from conftest import CONFIG, KeyedPlayer, drive, room_of, wait_until
from server_process import TlsServerProcess

pytestmark = pytest.mark.timeout(90)


def play_rated_game(address: tuple[str, int], keyed, game_of) -> tuple[KeyedPlayer, KeyedPlayer, dict]:
    """Two keyed people play a seeded game to its end; returns them and their rating changes."""
    ann, bob = keyed(address, "Ann"), keyed(address, "Bob")
    assert ann.join()[-1] == W.update_player(0, 0, None, None)
    ann.send({"type": "ReqNewGame", "playersCount": 2})
    ann.until_type("UpdateJoinGame")
    assert "UpdateGame" in [m["type"] for m in bob.join()]     # the game starts as Bob sits
    ann.until_type("UpdateGame")
    game = game_of()
    drive(game, [ann, bob], random.Random(31), mirror=game_of.mirror)
    changes = {}
    for p in (ann, bob):
        said = p.until_type(W.UPDATE_RATING_CHANGE)[-1]["ratings"]
        changes = {r["player"]: (r["before"], r["after"]) for r in said}
    return ann, bob, changes


def test_a_rated_game_moves_both_ratings_which_outlive_a_restart(make_server, certs, keyed):
    cert, key = certs["one"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0)
    game_of = lambda: room_of(srv, "Ann").game   # noqa: E731
    game_of.mirror = False
    ann, bob, changes = play_rated_game(srv.tls_address, keyed, game_of)
    assert set(changes) == {"Ann", "Bob"} and all(before == 0 for before, _ in changes.values())
    assert sorted(after for _, after in changes.values()) != [0, 0]
    assert changes["Ann"][1] != changes["Bob"][1]          # the winner above the other
    board = ann.leaderboard()
    assert [r["name"] for r in board["top"]] == sorted(changes, key=lambda n: -changes[n][1])
    ann.close(), bob.close()
    srv.stop()
    again = make_server(tls_cert=cert, tls_key=key, tls_port=0)
    asker = keyed(again.tls_address, "Cy")
    for who in (ann, bob):
        you = asker.leaderboard(who.key)["you"]
        assert you["rating"] == changes[who.nickname][1] and you["games"] == 1
    back = keyed(again.tls_address, "Ann again", ann.key)    # the key, not the nickname, is the player
    assert back.join()[-1]["rating"] == changes["Ann"][1]


def test_a_key_over_a_plain_connection_is_not_taken(server, players):
    (plain,) = players(server.address, "Dee")
    plain.send({"type": "ReqJoin", "nickname": "Dee", "token": "", "key": W.make_key()})
    said = plain.until_type("UpdateBookedSeats")
    assert [m["reason"] for m in said if m["type"] == W.ERR_KEY] == [W.KEY_NOT_TLS]
    assert len(server.ratings.store) == 0


def test_ratings_outlive_kill_9(certs, keyed, tmp_path):
    cert, key = certs["one"]
    data = tmp_path / "data"
    sp = TlsServerProcess(data, tmp_path / "server.log", cert, key)
    try:
        def game_of() -> Game:     # a copy of the served game, kept in step with each answer
            (path,) = (data / "games").glob("*.jsonl")
            head = orjson.loads(path.read_bytes().splitlines()[0])
            return Game.new(CONFIG, head["nicknames"], head["seed"])
        game_of.mirror = True
        ann, bob, changes = play_rated_game(sp.address, keyed, game_of)
        assert sp.kill(signal.SIGKILL) == -signal.SIGKILL
        sp = TlsServerProcess(data, tmp_path / "server.log", cert, key)
        asker = keyed(sp.address, "Cy")
        for who in (ann, bob):
            assert asker.leaderboard(who.key)["you"]["rating"] == changes[who.nickname][1]
        assert sp.kill(signal.SIGTERM) == 0
    finally:
        sp.cleanup()


def test_a_stranger_asking_for_leaderboards_in_a_loop_is_refused_and_others_are_served(make_server, certs, keyed):
    cert, key = certs["one"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0, ratings_rate=1.0)
    attacker, other = keyed(srv.tls_address, "Eve"), keyed(srv.tls_address, "Fay")
    start = time.monotonic()
    for _ in range(300):
        attacker.send(W.ReqRatings().to_dict())
    answers = [attacker.until(lambda m: m["type"] in (W.UPDATE_RATINGS, W.ERR_RATINGS))[-1]["type"]
               for _ in range(300)]
    elapsed = time.monotonic() - start           # (its lines are read at line_rate, 50 a second)
    assert answers.count(W.UPDATE_RATINGS) <= RATINGS_BURST + elapsed * 1.0 + 1
    assert answers.count(W.ERR_RATINGS) >= 250
    assert other.leaderboard()["type"] == W.UPDATE_RATINGS     # the others are served meanwhile
    assert elapsed < 15


def test_new_keys_from_one_address_are_bounded_and_the_players_still_play(make_server, certs, keyed):
    cert, key = certs["one"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0, keys_per_address=2)
    said = []
    for i in range(4):
        p = keyed(srv.tls_address, f"P{i}")
        p.send({"type": "ReqJoin", "nickname": p.nickname, "token": "", "key": p.key})
        said.append([m["type"] for m in p.until_type("UpdateBookedSeats")])
    assert [W.ERR_KEY in s for s in said] == [False, False, True, True]
    assert len(srv.ratings.store) == 2
    wait_until(lambda: len(srv.waiting) == 4)           # unrated, but seated like everyone


def test_a_rated_game_cut_by_a_restart_is_rated_when_it_ends(make_server, certs, keyed):
    cert, key = certs["one"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0, restart_grace=0)
    ann, bob = keyed(srv.tls_address, "Ann"), keyed(srv.tls_address, "Bob")
    ann.join()
    ann.send({"type": "ReqNewGame", "playersCount": 2})
    ann.until_type("UpdateJoinGame")
    bob.join()
    ann.until_type("UpdateGame")
    rng = random.Random(7)
    drive(room_of(srv, "Ann").game, [ann, bob], rng, stop=lambda g: g.phase == "play" and g.version >= 12)
    tokens = {p.nickname: p.token for p in (ann, bob)}
    ann.close(), bob.close()
    srv.stop()
    again = make_server(tls_cert=cert, tls_key=key, tls_port=0, restart_grace=0)
    back = [keyed(again.tls_address, p.nickname, p.key) for p in (ann, bob)]
    for p in back:
        p.join(tokens[p.nickname])
    drive(room_of(again, "Ann").game, back, rng)
    said = back[0].until_type(W.UPDATE_RATING_CHANGE)[-1]["ratings"]
    assert {r["player"] for r in said} == {"Ann", "Bob"} and {r["before"] for r in said} == {0}
    assert again.ratings.store.seats() == {}


def test_leaving_a_rated_game_before_its_end_counts_as_last_place(make_server, certs, keyed):
    cert, key = certs["one"]
    srv = make_server(tls_cert=cert, tls_key=key, tls_port=0)
    group = [keyed(srv.tls_address, n) for n in ("Ann", "Bob", "Cy")]
    group[0].join()
    group[0].send({"type": "ReqNewGame", "playersCount": 3})
    group[0].until_type("UpdateJoinGame")
    for p in group[1:]:
        p.join()
    for p in group:
        if p.view is None:
            p.until_type("UpdateGame")
    game = room_of(srv, "Ann").game
    rng = random.Random(9)
    drive(game, group, rng, stop=lambda g: g.phase == "play")
    cy = group[2]
    cy.send({"type": "ReqQuit"})                      # Cy leaves before the end
    cy.until_type("ResQuit")
    wait_until(lambda: not game.player("Cy").active)
    drive(game, group[:2], rng)
    said = {r["player"]: r["after"] for r in group[0].until_type(W.UPDATE_RATING_CHANGE)[-1]["ratings"]}
    assert set(said) == {"Ann", "Bob", "Cy"} and said["Cy"] < min(said["Ann"], said["Bob"])
    assert srv.ratings.store.find(cy.key).games == 1
