"""Player keys and ratings below the transport, without a socket: the store (SQLite), the rating of a
finished game, the limits on new keys and leaderboards, a full disk."""
from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest

from game.netcode import ratings_wire as W
from game.netcode.player_store import PlayerStore, key_hash
from game.netcode.ratings import Ratings, places

from fakes import Fake, finished, ratings


def keyed(r: Ratings, nick: str, **kw: Any) -> Fake:
    s = Fake(nick, **kw)
    s.key = W.make_key()
    assert r.identify(s, s.key) is not None, s.told
    r.joined(s)
    return s


def test_a_key_is_kept_as_its_hash_and_found_again_after_a_restart(tmp_path):
    path = tmp_path / "players.sqlite3"
    r, _ = ratings(path)
    key = W.make_key()
    s = Fake("Ann")
    p = r.identify(s, key, "Ann")
    r.joined(s)
    assert p is not None and s.told[-1] == W.update_player(0, 0, None, None)
    r.store.close()
    raw = b"".join(f.read_bytes() for f in tmp_path.glob("players.sqlite3*"))
    assert key.encode() not in raw and key_hash(key) in raw      # only the hash is on disk
    again = PlayerStore(path)
    assert again.find(key).id == p.id and again.find(key).name == "Ann"


def test_a_bad_key_or_one_sent_in_the_clear_is_refused_in_words_and_the_player_plays_unrated():
    r, _ = ratings()
    s = Fake("Ann")
    assert r.identify(s, "not a key") is None and s.told[-1]["reason"] == W.KEY_MALFORMED
    key = W.make_key()
    assert r.identify(s, key[:-1] + ("0" if key[-1] != "0" else "1")) is None
    assert "mistake" in s.told[-1]["msg"]
    plain = Fake("Bob", tls=False)
    assert r.identify(plain, W.make_key()) is None and plain.told[-1]["reason"] == W.KEY_NOT_TLS
    assert len(r.store) == 0


def test_places_follow_the_rules_points_then_resources_then_shared_and_leavers_last():
    game = finished(["a", "b", "c"])
    scores = game.outcome().scores
    order = sorted("abc", key=lambda n: (scores[n].total, scores[n].resources), reverse=True)
    got = places(game, "abc")
    assert got[order[0]] == 1 and sorted(got.values())[0] == 1
    for x in "abc":
        for y in "abc":
            kx, ky = (scores[x].total, scores[x].resources), (scores[y].total, scores[y].resources)
            assert (got[x] < got[y]) == (kx > ky) and (got[x] == got[y]) == (kx == ky)
    game.players[game.by_nick[order[0]].seat].active = False   # the winner had left: last
    assert places(game, "abc")[order[0]] == 3


def test_a_finished_game_between_keyed_people_moves_both_ratings_and_is_saved_first(tmp_path):
    r, told = ratings(tmp_path / "p.sqlite3")
    ann, bob = keyed(r, "a"), keyed(r, "b")
    game = finished(["a", "b"])
    r.started(1, game, {}, [ann, bob])
    assert r.store.seats() == {1: (game.seed, {"a": r.of[ann], "b": r.of[bob]})}
    r.ended(1, game)
    pa, pb = r.of[ann], r.of[bob]
    winner, loser = (pa, pb) if places(game, "ab")["a"] == 1 else (pb, pa)
    assert winner.mu > 25 > loser.mu and pa.games == pb.games == 1
    assert r.store.seats() == {}
    (nick, said), _ = told[0], told[1]
    assert said["type"] == W.UPDATE_RATING_CHANGE and {x["player"] for x in said["ratings"]} == {"a", "b"}
    r.store.close()
    again = PlayerStore(tmp_path / "p.sqlite3")
    assert [p.id for p in again.top(50)] == [winner.id, loser.id]
    assert again.place(again.by_id[loser.id]) == 2


def test_games_with_bots_or_one_keyed_player_are_not_rated_and_a_solo_win_keeps_a_best():
    r, told = ratings()
    ann, bob = keyed(r, "a"), Fake("b")
    game = finished(["a", "b"])
    r.started(1, game, {"b": "easy"}, [ann])
    r.started(2, game, {}, [ann, bob])
    assert not r.games
    solo = finished(["a"])
    r.started(3, solo, {}, [ann])
    r.ended(3, solo)
    p = r.of[ann]
    assert p.solo_best == solo.outcome().scores["a"].total and p.games == 0 and p.mu == 25
    assert told[-1][1]["ratings"] == [{"player": "a", "soloBest": p.solo_best, "newBest": True}]


def test_new_keys_from_one_address_are_bounded_and_others_still_get_theirs():
    r, _ = ratings(keys_per_address=3)
    first = [keyed(r, f"p{i}") for i in range(3)]
    s = Fake("p3")
    assert r.identify(s, W.make_key()) is None and s.told[-1]["reason"] == W.KEY_LIMIT and len(r.store) == 3
    again = Fake("p0")            # a key already kept is still taken from that address
    assert r.identify(again, first[0].key) is r.of[first[0]]
    elsewhere = Fake("q", ip="10.0.0.2")
    assert r.identify(elsewhere, W.make_key()) is not None and len(r.store) == 4


def test_the_rows_kept_are_bounded_and_the_players_kept_are_still_known():
    r, _ = ratings(max_rows=2, keys_per_address=0)
    a, _b = keyed(r, "a"), keyed(r, "b")
    start = time.thread_time()           # (the work done, whatever the machine's load)
    for i in range(500):                 # a stranger's new keys, from addresses of their own
        s = Fake(f"c{i}", ip=f"10.1.{i // 200}.{i % 200}")
        assert r.identify(s, W.make_key()) is None and s.told[-1]["reason"] == W.KEY_FULL
    assert len(r.store) == 2 and time.thread_time() - start < 2
    again = Fake("a")
    assert r.identify(again, a.key) is r.of[a]       # a player kept is still served


def test_a_full_disk_keeps_the_ratings_waiting_and_tells_nobody_until_they_are_saved(tmp_path, monkeypatch):
    r, told = ratings(tmp_path / "p.sqlite3")
    ann, bob = keyed(r, "a"), keyed(r, "b")
    game = finished(["a", "b"])
    r.started(1, game, {}, [ann, bob])
    real = r.store._db
    full = sqlite3.connect(":memory:")
    full.execute("PRAGMA max_page_count=1")   # any write now fails: SQLITE_FULL

    class Full:
        def __getattr__(self, name):
            return getattr(full, name)

        def execute(self, sql, *a):
            if sql.startswith(("UPDATE", "DELETE", "INSERT")):
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *a)

        def __enter__(self):
            return real.__enter__()

        def __exit__(self, *a):
            return real.__exit__(*a)
    monkeypatch.setattr(r.store, "_db", Full())
    r.ended(1, game)
    assert r.of[ann].games == 0 and not told
    s = Fake("c")
    assert r.identify(s, W.make_key()) is None and s.told[-1]["reason"] == W.KEY_FULL
    monkeypatch.setattr(r.store, "_db", real)
    r.retry()
    assert r.of[ann].games == r.of[bob].games == 1 and told
    assert r.store.seats() == {}


def test_leaderboards_are_bounded_per_connection_and_others_are_still_served():
    r, _ = ratings(ratings_rate=1.0)
    players = [keyed(r, f"p{i}") for i in range(4)]
    game = finished(["p0", "p1", "p2", "p3"])
    r.started(1, game, {}, players)
    r.ended(1, game)
    attacker, other = players[0], players[1]
    start = time.thread_time()   # (the work done: a loaded machine stretches the wall clock tenfold)
    for _ in range(2000):
        r.leaderboard(attacker, None)
    assert time.thread_time() - start < 1.0
    answers = [m["type"] for m in attacker.told if m["type"] in (W.UPDATE_RATINGS, W.ERR_RATINGS)]
    assert answers.count(W.UPDATE_RATINGS) <= 4 and answers[-1] == W.ERR_RATINGS
    r.leaderboard(other, None)
    board = other.told[-1]
    assert board["type"] == W.UPDATE_RATINGS and board["total"] == 4 and len(board["top"]) == 4
    assert board["you"]["place"] in (1, 2, 3, 4) and board["top"][0]["rating"] >= board["top"][-1]["rating"]


@pytest.mark.parametrize("kill", [False, True])
def test_a_game_that_ended_before_its_rating_was_saved_is_rated_at_the_next_start(tmp_path, kill):
    path = tmp_path / "p.sqlite3"
    r, _ = ratings(path)
    ann, bob = keyed(r, "a"), keyed(r, "b")
    game = finished(["a", "b"])
    r.started(7, game, {}, [ann, bob])
    r.store.close()                        # stopped before the game's end was rated
    again, _ = ratings(path)
    again.load()
    again.recover(lambda gid: game if gid == 7 and not kill else None)
    rated = [p.games for p in again.store.by_id.values()]
    assert rated == ([0, 0] if kill else [1, 1]) and again.store.seats() == {}
