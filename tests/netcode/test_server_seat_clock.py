"""Clocks on the seats of real-time games (issue 28, finding 7): silent players held games for
ever. Each attack is bounded in time and checks that the honest players are served. The clocks
are made short here (``setup_time``, ``seat_time``); other loopback addresses stand for other
machines."""
from __future__ import annotations

import random
import time

import pytest

from game.netcode.seat_clock import HURRY, PLAYED_FOR, SEAT_GIVEN, UPDATE_SEAT_CLOCK
from game.rules.playout import choose

from conftest import Peer, Player, room_of, start_game, undoable, wait_until
from table_requests import sit

SHORT = {"setup_time": 0.6, "seat_time": 0.6, "bot_delay": 0.0}


def owes(game, nick: str) -> bool:
    if game.phase == "setup":
        p = game.player(nick)
        return p.active and not (p.chose_leaders and p.chose_resources)
    return game.phase == "play" and game.current_player.nickname == nick


def serve(server, honest: list[Player], done, timeout: float, rng: random.Random) -> list[float]:
    """The honest players play whenever they owe a move, until ``done(game)``; returns the time
    each of their requests took to be answered (each must be answered, none refused)."""
    room = room_of(server, honest[0].nickname)
    waits = []
    deadline = time.monotonic() + timeout
    while not done(room.game):
        assert time.monotonic() < deadline, f"not done within {timeout} s: {room.game.phase}"
        moved = False
        for p in honest:
            with room.lock:
                action = choose(room.game, p.nickname, rng) if owes(room.game, p.nickname) else None
            if action is None:
                continue
            t0 = time.monotonic()
            answer = p.request(action)
            waits.append(time.monotonic() - t0)
            assert answer[-1]["type"] == "UpdateAction", answer[-1]
            moved = True
        if not moved:
            time.sleep(0.01)
    return waits


def clock_news(p: Player, last: tuple[str, str] | None = None) -> list[dict]:
    """The ``UpdateSeatClock`` messages ``p`` got, read up to the one of ``last`` (code, player)."""
    def news() -> list[dict]:
        return [m for m in p.received if m["type"] == UPDATE_SEAT_CLOCK]
    if last is not None and not any((m["code"], m["player"]) == last for m in news()):
        p.until(lambda m: m["type"] == UPDATE_SEAT_CLOCK and (m["code"], m["player"]) == last)
    return news()


@pytest.mark.timeout(40)
def test_a_quick_game_head_that_answers_only_heartbeats_holds_nobody(make_server, players):
    """The head of the Quick game asks for 4 players, then only answers heartbeats: the game it
    makes with three honest joiners gets past setup within its clock, the computer playing the
    head's turns; the third turn run out in a row gives the seat to the computer for good."""
    srv = make_server(**SHORT)
    silent, *honest = players(srv.address, "silent", "ann", "bob", "cy")
    silent.join()
    silent.send({"type": "ReqNewGame", "playersCount": 4})
    for p in honest:
        p.join()
    for p in honest:
        p.until_type("UpdateGame")
    rng = random.Random(7)
    t0 = time.monotonic()
    waits = serve(srv, honest, lambda g: g.phase != "setup", 5, rng)
    assert time.monotonic() - t0 < 3                      # setup's clock (0.6 s), the computer's choices
    room = room_of(srv, "ann")
    waits += serve(srv, honest, lambda g: "silent" in room.bots, 15, rng)
    assert max(waits) < 1.0                               # every honest request answered at once
    news = clock_news(honest[0], (SEAT_GIVEN, "silent"))
    assert [(m["code"], m.get("missed")) for m in news if m["player"] == "silent"] == [
        (PLAYED_FOR, 1), (PLAYED_FOR, 2), (SEAT_GIVEN, 3)]
    assert news[0] == {"player": "silent", "code": PLAYED_FOR, "level": "medium", "missed": 1, "setup": True,
                       "type": UPDATE_SEAT_CLOCK}
    mine = [m for m in clock_news(silent, (SEAT_GIVEN, "silent")) if m["player"] == "silent"]
    assert mine[0]["code"] == HURRY and mine[-1]["code"] == SEAT_GIVEN   # told first, kindly
    wait_until(lambda: srv.by_nick["silent"].room is None)             # in no game any more
    silent.send({"type": "ReqEndTurn"})
    assert silent.until(lambda m: m["type"].startswith("Err"))[-1]["type"] == "ErrNickname"
    serve(srv, honest, lambda g: g.current_player.nickname == "silent" or g.ended, 10, rng)   # and plays on
    srv.stop()
    again = room_of(make_server(**SHORT), "ann")            # a restart keeps the seat the computer's
    assert again.bots == {"silent": "medium"} and set(again.humans) == {"ann", "bob", "cy"}


@pytest.mark.timeout(40)
def test_three_silent_strangers_at_a_public_table_do_not_stop_its_setup(make_server, players, peers):
    """A host opens a public table of four; three strangers from elsewhere sit and say nothing
    more: setup ends within its clock, the host plays on, and the strangers' seats are the
    computer's after three turns run out."""
    srv = make_server(**SHORT)
    (host,) = players(srv.address, "host")
    host.send({"type": "ReqJoin", "nickname": "host", "token": "",
               "table": {"create": "Open", "playersCount": 4, "private": False}})
    host.until_type("UpdateBookedSeats")
    strangers: list[Peer] = []
    for i in range(3):
        s = peers(srv.address, source=f"127.0.0.{i + 2}").welcome()
        sit(s, f"x{i}", name="Open")
        strangers.append(s)
    host.until_type("UpdateGame")
    rng = random.Random(3)
    t0 = time.monotonic()
    waits = serve(srv, [host], lambda g: g.phase != "setup", 5, rng)
    assert time.monotonic() - t0 < 3
    room = room_of(srv, "host")
    waits += serve(srv, [host], lambda g: all(f"x{i}" in room.bots for i in range(3)), 20, rng)
    assert max(waits) < 1.0
    given = {m["player"] for i in range(3) for m in clock_news(host, (SEAT_GIVEN, f"x{i}")) if m["code"] == SEAT_GIVEN}
    assert given == {"x0", "x1", "x2"}
    assert not any(m["type"] == UPDATE_SEAT_CLOCK for s in strangers for m in s.received)   # (not ours)


@pytest.mark.timeout(30)
def test_an_honest_player_who_thinks_has_the_whole_time(make_server, players):
    """A turn played just before its time runs out is the player's own: nothing is played for
    them, their misses start again, and nobody is told anything."""
    srv = make_server(setup_time=1.5, seat_time=1.5)
    ann, bob = players(srv.address, "ann", "bob")
    start_game(ann, bob)
    rng = random.Random(5)
    room = room_of(srv, "ann")
    time.sleep(1.0)                                        # both think, within setup's time
    serve(srv, [ann, bob], lambda g: g.phase != "setup", 5, rng)
    first = room.game.current_player.nickname
    time.sleep(1.0)
    serve(srv, [ann, bob], lambda g: g.current_player.nickname != first, 5, rng)
    assert not room.stand_ins and not room.bots
    for p in (ann, bob):
        assert {m["code"] for m in clock_news(p)} <= {HURRY}


def test_solo_games_and_a_hosts_own_bots_have_no_clock(make_server, players):
    """Nobody else waits in a solo game; a host's own server (``seat_clock_bots`` off) leaves
    a person alone with its bots unclocked too."""
    srv = make_server(**SHORT, seat_clock_bots=False)
    (solo,) = players(srv.address, "solo")
    solo.join()
    solo.send({"type": "ReqNewGame", "playersCount": 1})
    solo.until_type("UpdateGame")
    (pal,) = players(srv.address, "pal")
    pal.join()
    pal.send({"type": "ReqNewGame", "playersCount": 2, "bots": ["easy"]})
    pal.until_type("UpdateGame")
    time.sleep(1.0)
    assert not srv.games.clocks.clocks
    assert not room_of(srv, "solo").stand_ins and not room_of(srv, "pal").stand_ins


@pytest.mark.timeout(30)
def test_swap_and_undo_churn_buys_no_time(make_server, players, monkeypatch):
    """A player who swaps and undoes from the start of their turn (the game compacted meanwhile:
    what was taken back dropped, down to the end of the turn before) still has only the turn's
    time: an undo gives nothing back."""
    from game.netcode import compaction
    monkeypatch.setattr(compaction, "COMPACT_MIN", 20)
    srv = make_server(setup_time=5, seat_time=2.0, line_rate=0)
    ann, bob = players(srv.address, "ann", "bob")
    start_game(ann, bob)
    rng = random.Random(5)
    room = room_of(srv, "ann")
    serve(srv, [ann, bob], lambda g: g.phase != "setup", 5, rng)
    first = room.game.current_player.nickname
    serve(srv, [ann if first == "ann" else bob], lambda g: g.current_player.nickname != first, 5, rng)
    cur = room.game.current_player.nickname
    me = ann if cur == "ann" else bob
    with room.lock:
        action = undoable(room.game, cur, random.Random(2))
        clock = srv.games.clocks.clocks[room.id]
        deadline = clock.deadline
    compacted_in_time = 0        # undos answered in the turn's time after a compaction
    t0 = time.monotonic()
    while not room.stand_ins and time.monotonic() - t0 < 10:
        answer = me.request(action)
        if answer[-1]["type"] != "UpdateAction":
            break                                          # (the computer is playing the turn)
        me.send({"type": "ReqUndo"})
        me.until(lambda m: m["type"] in ("UpdateUndo", "ErrUndo"))
        with room.lock:
            if room.stand_ins or room.game.current_player.nickname != cur:
                break
            assert clock.deadline == deadline              # the turn's time, not a fresh one per compaction
            compacted_in_time += room.compactions >= 1
    assert compacted_in_time >= 1
    assert room.stand_ins or room.game.current_player.nickname != cur
