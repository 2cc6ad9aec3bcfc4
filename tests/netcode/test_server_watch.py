"""Watching a table (issue 31, our extension): a watcher sees what every player sees of the
others and nothing more, live, from the middle of a game too; a private table only with its code;
the players know how many watch; the watchers' chat is their own channel, which a player may hide.
The limits are tried as attacks in ``test_server_watch_limits.py``."""
from __future__ import annotations

import random

import pytest

from game.netcode import watch_wire as W
from game.rules.views import player_view

from conftest import TIMEOUT, drive, wait_until
from table_requests import seat, table_of_two, watch


def updates(msgs: list[dict]) -> list[dict]:
    return [m for m in msgs if m["type"].startswith("Update") and m["type"] not in (
        W.UPDATE_WATCHERS, "UpdateChat", W.UPDATE_WATCHER_CHAT, "UpdateSessionToken")]


class TestWhatAWatcherSees:
    @pytest.mark.timeout(60)
    def test_a_watcher_mid_game_gets_the_table_then_every_public_update_and_never_a_hand(self, server, players):
        """A whole seeded game of two, watched from its tenth request on: the watcher's table is,
        player by player, what the other player sees of each; from then on it is sent exactly the
        updates each player is sent but for their own hand (so, the same for both), and no leader
        still in a hand ever reaches it (nor a deck: the grid shows top cards only, as to players)."""
        ada, bea, _ = table_of_two(server, players)
        room = server.room_of("Ada")
        rng = random.Random(31)
        drive(room.game, [ada, bea], rng, stop=lambda g: len(g.history) >= 10)
        w, = players(server.address, "Wes")
        with server.lock:   # what each player sees of the other at the moment the watcher comes
            seen_by = {n: player_view(room.game, n) for n in ("Ada", "Bea")}
        got = watch(w, name="Salon")
        assert got[0]["type"] == W.UPDATE_WATCHING and got[0]["players"] == ["Ada", "Bea"] and got[0]["started"]
        view = got[1]
        assert view["type"] == "UpdateGame"
        for i, nick in enumerate(("Ada", "Bea")):
            other = "Bea" if nick == "Ada" else "Ada"
            assert view["players"][i] == seen_by[other]["players"][i], nick   # what the other sees of them
            assert view["players"][i] != seen_by[nick]["players"][i]          # not what they see of themselves
        history = [m for line in got if line["type"] == "UpdateHistory" for m in line["messages"]]
        assert history[0]["type"] == "UpdateGame" and not [m for m in history if m["type"] == "UpdateLeadersHand"]
        assert [m for m in history if m["type"] == "UpdateAction"] == [
            m for m in ada.received if m["type"] == "UpdateAction"]
        ada.received.clear()
        bea.received.clear()
        drive(room.game, [ada, bea], rng)                                    # to the end
        w.until(lambda m: m["type"] == "UpdateGameEnd")
        w.until(lambda m: m["type"] == "UpdateAction")
        watched = updates(w.received[len(got):])
        for p in (ada, bea):
            mine = [m for m in updates(p.received) if not (m["type"] == "UpdateLeadersHand")]
            assert watched == mine, p.nickname
        hands = {lid for p in room.game.players for lid in p.hand if lid not in p.active_leaders}
        assert hands                                                         # some leaders were never played
        for m in w.received:
            if m["type"] == "UpdateGame":
                assert all(set(p["leadersHand"]) <= set(p["activeLeaders"]) for p in m["players"])
            assert m["type"] != "UpdateLeadersHand"
        assert not [m for m in watched if m["type"] == "UpdateGame"]

    @pytest.mark.timeout(20)
    def test_a_waiting_table_shows_who_sits_then_its_game(self, server, players):
        ada, bea, cy, w = players(server.address, "Ada", "Bea", "Cy", "Wes")
        seat(ada, create="Trio", playersCount=3, private=False)
        got = watch(w, name="trio")
        assert got[-1] == W.update_watching("Trio", False, ["Ada"], 3, [], False, 1)
        seat(bea, name="Trio")
        assert w.until_type(W.UPDATE_WATCHING)[-1]["players"] == ["Ada", "Bea"]
        assert seat(cy, name="Trio")[-1]["type"] == "UpdateGame"
        started = w.until_type("UpdateGame")
        assert started[-2]["type"] == W.UPDATE_WATCHING and started[-2]["started"]
        assert started[-1]["currentPlayer"] == "Ada" and len(started[-1]["players"]) == 3
        ada.until_type("UpdateGame")
        w.until(lambda m: m == W.update_watchers(1))                         # the watchers' own count

    @pytest.mark.timeout(20)
    def test_a_private_table_is_watched_with_its_code_only(self, server, players):
        ada, bea, table = table_of_two(server, players, "Hush", private=True)
        w, = players(server.address, "Wes")
        err = watch(w, name="Hush")[-1]
        assert (err["type"], err["reason"]) == (W.ERR_WATCH, W.PRIVATE)
        w.send(W.ReqWatchList().to_dict())
        assert w.until_type(W.UPDATE_WATCH_LIST)[-1]["tables"] == []        # never listed
        got = watch(w, code=table["code"].lower().replace("-", " "))
        assert got[0]["started"] and got[1]["type"] == "UpdateGame"
        err = watch(players(server.address, "Xu")[0], code="AAAA-AAAA")[-1]
        assert err["reason"] == W.NO_SUCH

    @pytest.mark.timeout(20)
    def test_the_list_of_games_to_watch(self, server, players):
        table_of_two(server, players)
        w, = players(server.address, "Wes")
        w.send(W.ReqWatchList().to_dict())
        assert w.until_type(W.UPDATE_WATCH_LIST)[-1] == W.update_watch_list(
            [{"name": "Salon", "players": ["Ada", "Bea"], "watchers": 0}], 0, 1)
        w.send({"type": W.REQ_WATCH_LIST, "from": "x"})
        assert w.until_type("ErrProtocol")[-1]["msg"] == "Invalid attribute types."


class TestCountAndChat:
    @pytest.mark.timeout(20)
    def test_players_are_told_how_many_watch(self, server, players):
        ada, bea, _ = table_of_two(server, players)
        w1, w2 = players(server.address, "W1", "W2")
        watch(w1, name="Salon")
        watch(w2, name="Salon")
        ada.until(lambda m: m.get("type") == W.UPDATE_WATCHERS and m["count"] == 2, timeout=3)
        w2.send({"type": "ReqQuit"})
        w2.until_type("ResQuit")
        bea.until(lambda m: m.get("type") == W.UPDATE_WATCHERS and m["count"] == 1, timeout=3)
        w1.until(lambda m: m == W.update_watchers(1), timeout=3)

    @pytest.mark.timeout(20)
    def test_a_player_back_at_a_watched_table_is_told_how_many_watch(self, server, players):
        ada, bea, _ = table_of_two(server, players)
        w, = players(server.address, "Wes")
        watch(w, name="Salon")
        ada.until(lambda m: m == W.update_watchers(1), timeout=3)        # told once (the next second)
        ada.send(W.ReqHideWatchers(True).to_dict())
        ada.until(lambda m: m == W.update_watchers(1, True))
        token = next(m["token"] for m in ada.received if m["type"] == "UpdateSessionToken")
        ada.close()
        back, = players(server.address, "Ada")
        back.send({"type": "ReqJoin", "nickname": "Ada", "token": token})
        assert back.until_type(W.UPDATE_WATCHERS)[-1] == W.update_watchers(1, True)

    @pytest.mark.timeout(20)
    def test_watchers_chat_among_themselves_and_a_player_may_hide_them(self, server, players):
        ada, bea, _ = table_of_two(server, players)
        w1, w2 = players(server.address, "W1", "W2")
        watch(w1, name="Salon")
        watch(w2, name="Salon")
        ada.send(W.ReqHideWatchers(True).to_dict())
        assert ada.until_type(W.UPDATE_WATCHERS)[-1]["hidden"] is True
        w1.send({"type": "ReqChat", "text": "nice move"})
        said = W.update_watcher_chat("W1", "nice move")
        for p in (w1, w2, bea):
            p.until(lambda m: m == said)
        bea.send({"type": "ReqChat", "text": "thanks"})
        for p in (w1, w2, ada):
            p.until(lambda m: m == {"player": "Bea", "text": "thanks", "type": "UpdateChat"})
        ada.probe()                                                          # Ada never heard W1
        assert said not in ada.received
        ada.send(W.ReqHideWatchers(False).to_dict())
        ada.until_type(W.UPDATE_WATCHERS)
        w2.send({"type": "ReqChat", "text": "go Ada"})
        ada.until(lambda m: m == W.update_watcher_chat("W2", "go Ada"))

    @pytest.mark.timeout(20)
    def test_a_player_cannot_watch_and_a_watcher_cannot_play(self, server, players):
        ada, bea, _ = table_of_two(server, players)
        err = watch(ada, name="Salon")[-1]
        assert err["reason"] == W.PLAYING
        w, = players(server.address, "Wes")
        watch(w, name="Salon")
        w.send({"type": "ReqEndTurn"})
        assert w.until(lambda m: m["type"].startswith("Err"))[-1] == {"type": "ErrNickname", "reason": "NOT_SET"}
        w.send({"type": "ReqUndo"})
        assert w.until(lambda m: m["type"].startswith("Err"))[-1]["type"] == "ErrProtocol"
        wait_until(lambda: server.watchers.count == 1, timeout=TIMEOUT)


class TestNothingHeld:
    @pytest.mark.timeout(20)
    def test_a_removed_game_is_freed_even_when_it_was_watched(self, make_server, players):
        """A game the server removes is held by no watcher's stage: freed at once (as rooms are,
        without the collector), and its watcher watches nothing any more."""
        import gc
        import time
        import weakref
        srv = make_server(grace=0.01)
        ada, bea, _ = table_of_two(srv, players)
        w, = players(srv.address, "Wes")
        watch(w, name="Salon")
        ref = weakref.ref(srv.room_of("Ada"))
        for p in (ada, bea):
            p.send({"type": "ReqGoodbye"})
            p.until_type("ResGoodbye")
        wait_until(lambda: srv.sweep(time.monotonic() + 60) or not srv.rooms)
        enabled = gc.isenabled()
        gc.disable()
        try:
            assert ref() is None, "a removed game survives in its watchers' stage"
        finally:
            if enabled:
                gc.enable()
        with srv.lock:
            assert srv.watchers.count == 0 and all(s.watching is None for s in srv.sessions)
