"""Games over real sockets: refusals, whole games, drops, rejoins, quitting, cleanup, slow clients.

Whole games are played by :func:`conftest.drive`, which picks each request with the engine's own
random policy and checks that every request gets exactly one answer.
"""
from __future__ import annotations

import json
import logging
import random
import socket
import time

import pytest

from game import i18n
from game.client.server_words import chat_said
from game.netcode import server as server_mod
from game.netcode import outbox
from game.netcode.store import GameLog, GameStore
from game.rules.actions import (ReqActivateProductions, ProductionRequest, ReqBuyDevCard, ReqChooseLeaders,
                                ReqEndTurn, ReqLeaderAction, ReqSwapShelves, ReqTakeFromMarket)
from game.rules.playout import choose
from game.rules.views import player_view

from conftest import acting, drive, room_of, start_game, step, wait_until

pytestmark = pytest.mark.timeout(30)

MARKET = ReqTakeFromMarket(True, 0, {}, {})   # take the first row and discard it all: always legal


def wire(msg):
    """A message as it is after a trip over the wire (string keys, lists)."""
    return json.loads(json.dumps(msg))


def finish_setup(server, group, rng):
    drive(room_of(server, group[0].nickname).game, group, rng, stop=lambda g: g.phase != "setup")


def err(answer, type_, **fields):
    assert len(answer) == 1, f"expected one error, got {answer}"
    assert answer[0]["type"] == type_, answer
    for k, v in fields.items():
        assert answer[0].get(k) == v, answer
    return answer[0]


class TestRefusals:
    def test_wrong_phase_and_out_of_turn(self, server, players):
        a, b = group = players(server.address, "a", "b")
        start_game(a, b)
        game = room_of(server, "a").game
        for req in (ReqEndTurn(), MARKET, ReqSwapShelves(0, 1)):
            err(a.request(req), "ErrAction", reason="EARLY_MANDATORY_ACTION")
        finish_setup(server, group, random.Random(1))
        cur = a if game.current_player.nickname == "a" else b
        other = b if cur is a else a
        for req in (MARKET, ReqEndTurn(), ReqSwapShelves(0, 1)):
            err(other.request(req), "ErrAction", reason="NOT_CURRENT_PLAYER")
        err(cur.request(ReqEndTurn()), "ErrAction", reason="EARLY_TURN_END")
        hand = game.player(cur.nickname).hand
        err(cur.request(ReqChooseLeaders(tuple(hand))), "ErrAction", reason="LATE_SETUP_ACTION")
        assert cur.request(MARKET)[-1]["type"] == "UpdateAction"
        other.until_type("UpdateAction")
        err(cur.request(MARKET), "ErrAction", reason="LATE_MANDATORY_ACTION")
        err(cur.request(ReqBuyDevCard("Green", 1, 0, {})), "ErrAction", reason="LATE_MANDATORY_ACTION")
        for p in group:
            p.probe()
        # errors are unicast: nobody hears of the other's refusals
        reasons = {p: [m["reason"] for m in p.received if m["type"] == "ErrAction"] for p in group}
        assert "NOT_CURRENT_PLAYER" not in reasons[cur]
        assert not {"EARLY_TURN_END", "LATE_SETUP_ACTION", "LATE_MANDATORY_ACTION"} & set(reasons[other])

    def test_ids_that_do_not_exist_or_are_not_yours(self, server, players):
        a, b = group = players(server.address, "a", "b")
        start_game(a, b)
        game = room_of(server, "a").game
        finish_setup(server, group, random.Random(2))
        cur = a if game.current_player.nickname == "a" else b
        me, them = game.player(cur.nickname), game.player(b.nickname if cur is a else a.nickname)
        mine, theirs = me.shelves[0].id, them.shelves[0].id
        before = game.snapshot()
        err(cur.request(ReqSwapShelves(mine, theirs)), "ErrObjectNotOwned", id=theirs, objectType="Shelf")
        err(cur.request(ReqSwapShelves(mine, 999)), "ErrObjectNotOwned", id=999, objectType="Shelf")
        err(cur.request(ReqSwapShelves(mine, -1)), "ErrObjectNotOwned", id=-1, objectType="Shelf")
        err(cur.request(ReqSwapShelves(mine, me.strongbox.id)), "ErrObjectNotOwned", objectType="Shelf")
        err(cur.request(ReqLeaderAction(them.hand[0], True)), "ErrObjectNotOwned", id=them.hand[0],
            objectType="LeaderCard")
        err(cur.request(ReqLeaderAction(999, False)), "ErrObjectNotOwned", id=999, objectType="LeaderCard")
        for index, is_row in ((3, True), (-1, True), (4, False)):
            err(cur.request(ReqTakeFromMarket(is_row, index, {}, {})), "ErrNoSuchEntity",
                originalEntity="MARKET_INDEX", id=index)
        err(cur.request(ReqTakeFromMarket(True, 0, {}, {theirs: {"Coin": 1}})), "ErrObjectNotOwned",
            id=theirs, objectType="Shelf")
        err(cur.request(ReqBuyDevCard("Black", 1, 0, {})), "ErrNoSuchEntity", originalEntity="COLOR",
            code="Black")
        err(cur.request(ReqBuyDevCard("Green", 1, 7, {})), "ErrObjectNotOwned", id=7)
        err(cur.request(ReqActivateProductions((ProductionRequest(999, {}, {}, {}),))), "ErrObjectNotOwned",
            id=999, objectType="ReducedProductionRequest")
        base = game.config.base_production.id
        pay_from_theirs = ProductionRequest(base, {them.strongbox.id: {"Coin": 2}}, {}, {"Stone": 1})
        err(cur.request(ReqActivateProductions((pay_from_theirs,))), "ErrObjectNotOwned",
            id=them.strongbox.id, objectType="ResourceContainer")
        for p in group:
            p.probe()
        assert game.snapshot() == before


def outcome_winner(game):
    out = game.outcome()
    assert out is not None
    return None if out.lorenzo_won else out.winners[0]


def check_end(server, group, game):
    winner = outcome_winner(game)
    for p in group:
        ends = [m for m in p.received if m["type"] == "UpdateGameEnd"]
        assert len(ends) == 1, p
        assert ends[0].get("winner") == winner
    for p in group:   # the game is over for everyone
        err(p.request(ReqEndTurn()), "ErrAction", reason="GAME_ENDED")


class TestWholeGames:
    @pytest.mark.parametrize("nicks, seed", [(("solo",), 1), (("solo",), 2), (("ann", "bob"), 3),
                                             (("ann", "bob", "cid", "dee"), 4)])
    def test_played_to_the_end(self, server, players, nicks, seed):
        group = players(server.address, *nicks)
        start_game(*group)
        game = room_of(server, nicks[0]).game
        n = drive(game, group, random.Random(seed))
        assert n > 10 and game.ended
        check_end(server, group, game)
        for p in group:   # every accepted request was answered with exactly one UpdateAction each
            actions = [m for m in p.received if m["type"] == "UpdateAction"]
            assert len(actions) == n

    def test_several_games_at_once(self, server, players):
        g1 = players(server.address, "x1", "x2")
        g2 = players(server.address, "y1")
        g3 = players(server.address, "z1", "z2", "z3")
        for g in (g1, g2, g3):
            start_game(*g)
        games = [(g, room_of(server, g[0].nickname).game, random.Random(i)) for i, g in enumerate((g1, g2, g3))]
        while any(not game.ended for _, game, _ in games):   # interleave the three games
            for g, game, rng in games:
                if not game.ended:
                    step(game, g, rng)
        for g, game, _ in games:
            check_end(server, g, game)
            names = {p.nickname for p in g}
            for p in g:
                assert all(m.get("player", p.nickname) in names for m in p.received)


class TestDropAndRejoin:
    def test_drop_mid_turn_then_rejoin_with_the_token(self, server, players):
        a, b = players(server.address, "a", "b")
        start_game(a, b)
        by = {"a": a, "b": b}
        game = room_of(server, "a").game
        rng = random.Random(5)
        drive(game, [a, b], rng, stop=lambda g: g.phase == "play" and g.version >= 8 and not g.main_done)
        cur = by[game.current_player.nickname]
        other = b if cur is a else a
        while not game.main_done:       # half a turn: the main action, not the end of the turn
            step(game, [a, b], rng)
        cur.close()
        lost = other.until_type("UpdateCurrentPlayer")
        assert {"player": cur.nickname, "isActive": False, "type": "UpdatePlayerStatus"} in lost
        assert lost[-1]["player"] == other.nickname
        assert game.current_player.nickname == other.nickname and not game.main_done
        while not isinstance(step(game, [other], rng)[1], ReqEndTurn):
            pass
        assert game.current_player.nickname == other.nickname   # the absent player's turn is skipped
        (back,) = players(server.address, cur.nickname)
        answer = back.join(token=cur.token)
        assert [m["type"] for m in answer] == ["UpdateSessionToken", "UpdatePlayerStatus", "UpdateSetupDone",
                                               "UpdateGame"]
        assert answer[1] == {"player": cur.nickname, "isActive": True, "type": "UpdatePlayerStatus"}
        assert answer[0]["token"] == cur.token
        assert answer[-1] == wire(player_view(game, cur.nickname))
        other.until(lambda m: m == {"player": cur.nickname, "isActive": True, "type": "UpdatePlayerStatus"})
        drive(game, [other, back], rng)
        check_end(server, [other, back], game)

    def test_drop_during_setup_gets_default_choices(self, server, players):
        a, b = players(server.address, "a", "b")
        start_game(a, b)
        game = room_of(server, "a").game
        b.close()
        a.until_type("UpdatePlayerStatus")
        rng = random.Random(6)
        while game.phase == "setup":
            step(game, [a], rng)
        assert game.player("b").chose_leaders and len(game.player("b").hand) == 2
        assert "UpdateSetupDone" in [m["type"] for m in a.received]

    def test_quit_then_rejoin_on_a_new_connection(self, server, players):
        a, b = players(server.address, "a", "b")
        start_game(a, b)
        game = room_of(server, "a").game
        a.send({"type": "ReqQuit"})
        a.until_type("ResQuit")
        b.until(lambda m: m == {"player": "a", "isActive": False, "type": "UpdatePlayerStatus"})
        assert not game.player("a").active
        err(a.request(ReqEndTurn()), "ErrNickname", reason="NOT_IN_GAME")
        assert a.join(token=a.token)[-1] == {"reason": "ALREADY_SET", "type": "ErrNickname"}
        (a2,) = players(server.address, "a")
        answer = a2.join(token=a.token)
        assert [m["type"] for m in answer] == ["UpdateSessionToken", "UpdatePlayerStatus", "UpdateGame"]  # in setup
        assert game.player("a").active

    @pytest.mark.parametrize("compat", [False, True])
    def test_rejoin_protection(self, make_server, players, compat):
        srv = make_server(compat_rejoin=compat)
        a, b = players(srv.address, "a", "b")
        start_game(a, b)
        # a connected player's seat cannot be taken, whatever the token
        (thief,) = players(srv.address, "a")
        for token in (None, "", "wrong", a.token):
            assert thief.join(token=token)[-1] == {"reason": "TAKEN", "type": "ErrNickname"}
        a.close()
        b.until_type("UpdatePlayerStatus")
        for token in ("", "wrong", a.token[:-1]):
            (p,) = players(srv.address, "a")
            assert p.join(token=token)[-1] == {"reason": "TAKEN", "type": "ErrNickname"}
        (p,) = players(srv.address, "a")
        answer = p.join(token=None)        # a reference client: nickname only
        if compat:
            assert [m["type"] for m in answer] == ["UpdatePlayerStatus", "UpdateGame"]
        else:
            assert answer[-1] == {"reason": "TAKEN", "type": "ErrNickname"}
            assert players(srv.address, "a")[0].join(token=a.token)[-1]["type"] == "UpdateGame"
        b.until(lambda m: m == {"player": "a", "isActive": True, "type": "UpdatePlayerStatus"})


class TestCleanup:
    def test_an_empty_game_is_removed_after_the_grace_period(self, make_server, players, tmp_path):
        srv = make_server(grace=5.0)
        a, b = players(srv.address, "a", "b")
        start_game(a, b)
        gid = room_of(srv, "a").id
        a.close()
        assert srv.sweep(now=time.monotonic() + 60) == []      # b is still there
        b.close()
        wait_until(lambda: srv.rooms[gid].empty_since is not None)
        assert srv.sweep(now=time.monotonic() + 1) == []
        assert srv.sweep(now=time.monotonic() + 6) == [gid]
        assert gid not in srv.rooms and "a" not in srv.seats
        assert not (tmp_path / "data" / "games" / f"{gid}.jsonl").exists()
        last = (tmp_path / "data" / "games" / "finished" / f"{gid}.jsonl").read_bytes().splitlines()[-1]
        assert json.loads(last) == ["end"]                      # never restored
        (again,) = players(srv.address, "a")
        assert again.join(token=None)[-1]["type"] == "UpdateBookedSeats"

    def test_a_finished_game_is_removed_once_everyone_left(self, server, players):
        (p,) = players(server.address, "s")
        start_game(p)
        room = room_of(server, "s")
        drive(room.game, [p], random.Random(8))
        assert server.sweep() == []
        p.close()
        wait_until(lambda: room.id in server.sweep() or room.id not in server.rooms)  # or the janitor did
        assert room.closed and "s" not in server.seats


class TestSlowClient:
    @pytest.mark.timeout(30)
    def test_a_client_that_stops_reading_is_dropped_and_the_game_goes_on(
            self, make_server, peers, players, monkeypatch, caplog):
        monkeypatch.setattr(outbox, "MAX_QUEUED_BYTES", 4 * 1024)
        srv = make_server()
        (good,) = players(srv.address, "good")
        good.join()
        good.send({"type": "ReqNewGame", "playersCount": 2})
        good.until_type("UpdateJoinGame")
        stuck = peers(srv.address, rcvbuf=1024)          # it never reads a byte
        stuck.send({"type": "ReqJoin", "nickname": "stuck"})
        good.until_type("UpdateGame")
        (session,) = [s for s in srv.sessions if s.nickname == "stuck"]
        session.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        game = room_of(srv, "good").game
        rng = random.Random(9)
        caplog.set_level(logging.WARNING, logger="mor.server")
        while game.player("stuck").active and not game.ended:
            nick = acting(game, rng)
            action = choose(game, nick, rng)
            if nick == "good":
                assert good.request(action)[-1]["type"] == "UpdateAction"
            else:
                version = game.version
                try:
                    stuck.send(action)
                except OSError:
                    break
                wait_until(lambda: game.version > version or not game.player("stuck").active)
        wait_until(lambda: not game.player("stuck").active)
        assert not game.ended
        assert any("is not reading" in r.getMessage() for r in caplog.records)
        gone = {"player": "stuck", "isActive": False, "type": "UpdatePlayerStatus"}
        if gone not in good.received:   # (a request of good's may have read it already)
            good.until(lambda m: m == gone)
        drive(game, [good], rng)            # the other player plays on, alone, to the end
        check_end(srv, [good], game)


class TestFailures:
    def test_a_game_that_cannot_be_saved_starts_once_it_can(self, server, players, monkeypatch):
        a, b = players(server.address, "a", "b")
        a.join()
        b.join()
        a.until_type("UpdateBookedSeats")

        def disk_full(*args, **kw):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(GameStore, "create", disk_full)
        a.send({"type": "ReqNewGame", "playersCount": 2})
        said = a.until(lambda m: m["type"] == "UpdateChat")[-1]
        assert said == {"player": server_mod.SERVER_VOICE, "text": server_mod.CANNOT_START, "type": "UpdateChat",
                        "say": {"code": "save.cannot_start", "args": {}}}
        i18n.use("it")                            # our client says it in its player's language
        assert chat_said(said) == ("Server", "Il server non può salvare una nuova partita in questo momento (il suo "
                                             "disco è pieno): la partita comincerà appena possibile.")
        i18n.use("en")
        assert [s.nickname for s in server.waiting] == ["a", "b"] and not server.rooms
        monkeypatch.undo()
        for p in (a, b):                          # started by the server, nobody asked again
            p.until_type("UpdateGame")

    def test_a_request_whose_log_line_fails_is_refused_and_the_game_goes_on(self, server, players, monkeypatch):
        a, b = players(server.address, "a", "b")
        (c,) = players(server.address, "c")
        start_game(a, b)
        start_game(c)
        game = room_of(server, "a").game
        hand = game.player("a").hand
        version = game.version
        monkeypatch.setattr(GameLog, "record", lambda *args: (_ for _ in ()).throw(OSError(5, "I/O error")))
        err(a.request(ReqChooseLeaders(tuple(hand[:2]))), "ErrProtocol", msg=server_mod.CANNOT_SAVE)
        assert not room_of(server, "a").closed and room_of(server, "a").game.version == version
        assert not room_of(server, "a").game.player("a").chose_leaders       # taken back
        monkeypatch.undo()
        solo = room_of(server, "c").game
        assert c.request(choose(solo, "c", random.Random(1)))[-1]["type"] == "UpdateAction"  # others go on
        assert a.request(ReqChooseLeaders(tuple(hand[:2])))[-1]["type"] == "UpdateAction"   # and so does it
