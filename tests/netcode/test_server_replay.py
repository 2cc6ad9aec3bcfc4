"""Replays from the server, our extension: ``ReqReplay`` gives a player the replay of their finished
game (their game once it is over, or one of the record by number with a seat's token); a game in
progress, someone else's game or an unknown one is refused with ``ErrReplay``."""
from __future__ import annotations

import random
import shutil
import threading

import pytest

from game.netcode import protocol as P
from game.netcode.client_messages import ReqReplay
from game.netcode.server_messages import err_protocol
from game.client.replay import Replay

from conftest import CONFIG, drive, room_of, round_trips, start_game, still_served

pytestmark = pytest.mark.timeout(60)


def answer(p):
    return p.until(lambda m: m["type"] in (P.UPDATE_REPLAY, P.ERR_REPLAY) or m["type"].startswith("Err"))[-1]


def test_a_player_fetches_the_replay_of_their_finished_game(make_server, players):
    srv = make_server()
    a, b = players(srv.address, "ra", "rb")
    start_game(a, b)
    room = room_of(srv, "ra")
    game = room.game
    a.send(ReqReplay())
    assert answer(a) == {"reason": P.REPLAY_NOT_FINISHED, "type": P.ERR_REPLAY}   # no peeking at the decks
    drive(game, [a, b], random.Random(2))
    assert game.ended
    final = game.snapshot()   # (players who leave later are marked away: not part of the game)
    a.send(ReqReplay())
    got = answer(a)
    assert got["type"] == P.UPDATE_REPLAY and got["game"] == room.id
    replay = Replay(got["replay"], CONFIG)
    assert replay.viewer == "ra" and replay.final.snapshot() == final
    token, theirs = b.token, a.token
    gid = room.id
    a.close()
    b.close()
    srv.stop()
    # later, from the record: with a seat's token, and not without it
    srv2 = make_server()
    (c,) = players(srv2.address, "somebody")
    c.join()
    c.send(ReqReplay(gid, token))
    got = answer(c)
    assert got["type"] == P.UPDATE_REPLAY
    replay = Replay(got["replay"], CONFIG)
    assert replay.viewer == "rb" and replay.final.snapshot() == final
    c.send(ReqReplay(gid, "wrong"))
    assert answer(c) == {"reason": P.REPLAY_NOT_YOURS, "type": P.ERR_REPLAY}
    c.send(ReqReplay(gid + 50, token))
    assert answer(c) == {"reason": P.REPLAY_NO_SUCH_GAME, "type": P.ERR_REPLAY}
    c.send({"type": P.REQ_REPLAY, "game": "x"})
    assert answer(c) == err_protocol(P.INVALID_TYPES)


def test_a_finished_game_asked_for_again_and_again_is_read_once(make_server, players, monkeypatch):
    """Issue 28, finding 1: each ``ReqReplay`` of a finished game read and replayed its whole log
    (~72 ms of the loop for a long game, 8 in flight stalled everyone); now it is read once, and
    each seat still gets its own viewer."""
    srv = make_server()
    a, b = players(srv.address, "ra", "rb")
    start_game(a, b)
    room = room_of(srv, "ra")
    drive(room.game, [a, b], random.Random(2))
    tokens, gid, final = {"ra": a.token, "rb": b.token}, room.id, room.game.snapshot()
    a.close()
    b.close()
    srv.stop()
    srv2 = make_server()
    reads = []
    real = srv2.games._finished_game
    monkeypatch.setattr(srv2.games, "_finished_game", lambda data: reads.append(1) or real(data))
    (c,) = players(srv2.address, "somebody")
    c.join()
    for nick in ("rb", "ra", "rb", "ra", "rb", "ra"):
        c.send(ReqReplay(gid, tokens[nick]))
        replay = Replay(answer(c)["replay"], CONFIG)
        assert replay.viewer == nick and replay.final.snapshot() == final
    c.send(ReqReplay(gid, "wrong"))
    assert answer(c) == {"reason": P.REPLAY_NOT_YOURS, "type": P.ERR_REPLAY}
    assert len(reads) == 1


def test_a_reference_client_does_not_know_the_request(server, players):
    (r,) = players(server.address, "ref")
    r.join(None)
    r.send(ReqReplay())
    assert answer(r) == err_protocol(P.UNKNOWN_TYPE.format(P.REQ_REPLAY))


def test_a_finished_game_of_undos_is_sent_without_them_and_encoded_once(make_server, players, tmp_path):
    """Issue 28, finding 1: a finished game with 300 swaps taken back was 600 calls to replay and
    send to each asker, encoded again each time. Its replay leaves out what was taken back (the
    same game), and each seat's answer is encoded once."""
    from game.netcode.store import GameStore
    from game.rules.engine import Game
    from game.rules.playout import choose
    game = Game.new(CONFIG, ["solo"], 5)
    store = GameStore(tmp_path / "data")
    gid = store.next_id()
    glog = store.create(gid, CONFIG, game, {"solo": "tok"})
    rng, churned = random.Random(5), False
    while not game.ended:
        action = choose(game, "solo", rng)
        game.apply("solo", action)
        glog.record("apply", "solo", action)
        for _ in range(300 if not churned and game.can_undo("solo") else 0):
            game.undo("solo")
            glog.record("undo", "solo", None)
            game.apply("solo", action)
            glog.record("apply", "solo", action)
            churned = True
    glog.finish()
    assert churned
    srv = make_server()
    (c,) = players(srv.address, "asker")
    c.join()
    c.send(ReqReplay(gid, "tok"))
    got = answer(c)
    assert len(got["replay"]["history"]) == len(game.history) - 600
    assert not [e for e in got["replay"]["history"] if e[0] == "undo"]
    final = Replay(got["replay"], CONFIG).final.snapshot()
    assert final == {**game.snapshot(), "version": final["version"]}   # (fewer calls: a smaller version)
    (lines,) = [v[3] for k, (v, _size) in srv.games.answers._kept.items() if k[:2] == ("replay", gid)]
    line = lines["solo"]
    for _ in range(2):
        c.send(ReqReplay(gid, "tok"))
        assert answer(c) == got
    assert lines == {"solo": line} and lines["solo"] is line       # the same bytes, encoded once


def test_a_stranger_guessing_game_after_game_costs_no_replay(make_server, players, peers, tmp_path, monkeypatch):
    """Finding (stranger 2): a ``ReqReplay`` of a finished game by number read and replayed its
    whole log before its token was looked at, and the answers kept are a few MB: one connection
    asking for game after game of the record (20,000 kept) with any token cost the loop a whole
    game each time (2.7 ms for a short one; 32 connections of one address at their line rate:
    the loop's whole time). Now a guess reads the log's first line only: 120 guesses at 120
    games replay none, and the players seated meanwhile are served as before. Fails before the
    fix (120 replays)."""
    from game.netcode.store import GameStore
    from game.rules.engine import Game
    from game.rules.playout import choose
    game = Game.new(CONFIG, ["solo"], 6)
    store = GameStore(tmp_path / "data")
    gid = store.next_id()
    glog = store.create(gid, CONFIG, game, {"solo": "tok"})
    rng = random.Random(6)
    while not game.ended:
        action = choose(game, "solo", rng)
        game.apply("solo", action)
        glog.record("apply", "solo", action)
    glog.finish()
    finished = tmp_path / "data" / "games" / "finished"
    for n in range(1, 120):
        shutil.copy(finished / f"{gid}.jsonl", finished / f"{gid + 100 + n}.jsonl")
    games = [gid] + [gid + 100 + n for n in range(1, 120)]
    srv = make_server()
    reads = []
    real = srv.games._finished_game
    monkeypatch.setattr(srv.games, "_finished_game", lambda data: reads.append(1) or real(data))
    ada, bea = players(srv.address, "Ada", "Bea")
    start_game(ada, bea)
    room = room_of(srv, "Ada")
    rng = random.Random(61)
    before = round_trips(room, [ada, bea], rng, 20)
    stranger = peers(srv.address, source="127.0.0.2")
    stranger.welcome().join("guess", token="")
    answers: list[dict] = []

    def guess() -> None:
        for i, g in enumerate(games):
            stranger.send({"type": P.REQ_REPLAY, "game": g, **({"token": f"guess{i}"} if i % 2 else {})})
        for _ in games:
            answers.append(stranger.until(lambda m: m["type"] in (P.UPDATE_REPLAY, P.ERR_REPLAY))[-1])

    attack = threading.Thread(target=guess, daemon=True)
    attack.start()
    during = round_trips(room, [ada, bea], rng, 20)
    attack.join(timeout=20)
    assert not attack.is_alive() and len(answers) == len(games)
    assert all(a == {"reason": P.REPLAY_NOT_YOURS, "type": P.ERR_REPLAY} for a in answers), answers[:3]
    assert reads == [], f"{len(reads)} whole games read and replayed for a stranger's guesses"
    still_served(before, during)
    (c,) = players(srv.address, "solo")     # the seat's own token still gets it, read once
    c.join()
    c.send(ReqReplay(gid, "tok"))
    assert answer(c)["type"] == P.UPDATE_REPLAY and len(reads) == 1
