"""A game's history kept bounded (issue 28, finding 12): swap/undo churn and chat are compacted
away from the game in memory and from its log, the game replays the same after a restart, and
a game past ``max_game_moves`` refuses more, in words."""
from __future__ import annotations

import random

import pytest

from game import i18n
from game.client.refusals import refusal_words

from game.netcode import compaction
from game.rules.views import player_view

from conftest import Player, drive, room_of, round_trips, start_game, still_served, undoable, wait_until


def set_up(srv, players) -> tuple:
    ann, bob = players(srv.address, "ann", "bob")
    start_game(ann, bob)
    room = room_of(srv, "ann")
    drive(room.game, [ann, bob], random.Random(4), stop=lambda g: g.phase != "setup")
    return ann, bob, room


def churn(p: Player, action, times: int) -> None:
    for _ in range(times):
        p.request(action)
        p.send({"type": "ReqUndo"})
        p.until(lambda m: m["type"] == "UpdateUndo")


@pytest.mark.timeout(60)
def test_swap_and_undo_churn_and_chat_are_compacted_and_replay_the_same(make_server, players, monkeypatch, tmp_path):
    monkeypatch.setattr(compaction, "COMPACT_MIN", 40)
    srv = make_server(line_rate=0)
    ann, bob, room = set_up(srv, players)
    live = len(room.game.history)
    cur = room.game.current_player.nickname
    me = ann if cur == "ann" else bob
    with room.lock:
        action = undoable(room.game, cur, random.Random(2))
    me.send({"type": "ReqChat", "text": "before"})
    churn(me, action, 30)
    me.send({"type": "ReqChat", "text": "among"})
    churn(me, action, 30)
    me.request(action)                                    # one that stays
    with room.lock:
        assert room.compactions >= 2
        assert len(room.game.history) <= live + 1 + 2 * compaction.COMPACT_MIN // 2   # not 121 calls more
        view = player_view(room.game, "ann")
        said = list(room.chat)
        assert [text for _who, text, _at in said] == ["before", "among"]
        assert said[0][2] == live                          # said right after setup, still
    log = next((tmp_path / "data" / "games").glob("*.jsonl"))
    lines = log.read_bytes().splitlines()
    assert len(lines) < 1 + len(room.game.history) + 2 + 2 * compaction.COMPACT_MIN   # not ~250
    token = ann.token
    srv.stop()
    srv2 = make_server(line_rate=0)                        # the same data directory
    again = room_of(srv2, "ann")
    assert player_view(again.game, "ann") == view           # the compacted log replays the same game
    (back,) = players(srv2.address, "ann")
    back.join(token)
    history = back.until(lambda m: m["type"] == "UpdateHistory" and m["last"])
    told = [m for h in history if h["type"] == "UpdateHistory" for m in h["messages"]]
    assert [m["text"] for m in told if m["type"] == "UpdateChat"] == ["before", "among"]
    assert not [m for m in told if m["type"] == "UpdateUndo"]


@pytest.mark.timeout(60)
def test_a_game_past_its_length_refuses_more_but_the_end_of_the_turn(make_server, players):
    srv = make_server(line_rate=0)
    ann, bob, room = set_up(srv, players)
    with room.lock:
        room.max_calls = len(room.game.history) + 1
        cur = room.game.current_player.nickname
        action = undoable(room.game, cur, random.Random(2))
    me = ann if cur == "ann" else bob
    assert me.request(action)[-1]["type"] == "UpdateAction"
    refused = me.request(action)[-1]
    assert refused["type"] == "ErrProtocol" and "length the server keeps for one game" in refused["msg"]
    i18n.use("it")                        # our client says why in its player's language
    assert refusal_words(refused).startswith("Questa partita ha raggiunto la lunghezza che il server tiene")
    i18n.use("en")
    assert me.request({"type": "ReqEndTurn"})[-1]["type"] == "UpdateAction"
    wait_until(lambda: room.game.current_player.nickname != cur)


@pytest.mark.timeout(60)
def test_an_undo_weighs_ten_lines_against_the_line_rate(make_server, players):
    """Issue 28, finding 12: an undo sends the whole game to the table, and 32 connections
    churning at the line rate took the loop whole (bench/server_attacks.py churn). An undo now
    counts as ten lines: 60 pairs (660 lines) at 100 lines a second, a burst of 400, take 2.6 s."""
    import time
    srv = make_server(line_rate=100)
    ann, bob, room = set_up(srv, players)
    cur = room.game.current_player.nickname
    me = ann if cur == "ann" else bob
    with room.lock:
        action = undoable(room.game, cur, random.Random(2))
    time.sleep(2.5)                                       # (setup's lines are paid back: a full burst)
    t0 = time.monotonic()
    for _ in range(60):
        me.send(action)
        me.send({"type": "ReqUndo"})
    for _ in range(60):
        me.until(lambda m: m["type"] == "UpdateUndo", timeout=15)
    assert time.monotonic() - t0 > 2.0


@pytest.mark.timeout(60)
def test_moves_an_undo_could_take_back_in_a_row_are_bounded(make_server, players):
    """Finding (stranger 6): swaps without undos are no churn to compact, and every request of a
    turn stays within an undo's reach: a solo player swapping two shelves 19,000 times in one turn
    (no seat clock in a solo game) made each rejoin, or each watch, replay the whole turn: 0.5 s
    of the loop and 4.8 MB each time, in a loop of rejoin and one more swap. Now a player makes
    ``max_turn_moves`` (here 30) requests in a row that an undo could take back, then is refused
    in words (ending the turn and undos are still taken); a rejoin replays at most that many, and
    the players of a game beside it are served as before. Fails before the fix (the 31st swap
    is taken, and the 200 after it)."""
    srv = make_server(line_rate=0, max_turn_moves=30)
    ann, bob, room = set_up(srv, players)
    cur = room.game.current_player.nickname
    me = ann if cur == "ann" else bob
    shelves = next(p["warehouseShelves"] for p in me.view["players"] if p["nickname"] == cur)
    swap = {"type": "ReqSwapShelves", "shelf1": shelves[0], "shelf2": shelves[1]}
    hon, = players(srv.address, "hon")
    start_game(hon)
    other = room_of(srv, "hon")
    rng = random.Random(66)
    before = round_trips(other, [hon], rng, 20)
    answers = []
    for _ in range(230):
        me.send(swap)
        answers.append(me.until(lambda m: m["type"] == "UpdateAction" or m["type"].startswith("Err"))[-1])
    during = round_trips(other, [hon], rng, 20)
    taken = [a for a in answers if a["type"] == "UpdateAction"]
    assert len(taken) <= 30 and room.game.open_requests() <= 30, (len(taken), room.game.open_requests())
    refused = answers[-1]
    assert refused["type"] == "ErrProtocol" and "moves in a row that can still be taken back" in refused["msg"]
    i18n.use("it")                        # our client says why in its player's language
    assert refusal_words(refused).startswith("Hai fatto 30 mosse di fila che si possono ancora annullare")
    i18n.use("en")
    me.send({"type": "ReqUndo"})
    me.until(lambda m: m["type"] == "UpdateUndo")
    assert me.request(swap)[-1]["type"] == "UpdateAction"      # one taken back: one more taken
    still_served(before, during)
