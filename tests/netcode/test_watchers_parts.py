"""The watchers (issue 31) below the transport, without a socket: a lobby, its games and their
watchers driven with plain objects that keep what they are told."""
from __future__ import annotations

import random

from game.netcode.client_messages import ReqJoin, ReqNewGame, TableChoice
from game.netcode import watch_wire as W
from game.netcode.watchers import Watchers
from game.rules.playout import choose
from game.rules.views import player_view

from fakes import Fake, parts


class Watcher(Fake):
    """A connection as the watchers see it: what is queued for it (``backlog``) and whether it was
    closed (``aborted``)."""

    def __init__(self, ip: str = "10.0.0.9") -> None:
        super().__init__(ip=ip)
        self.watching = None
        self.backlog = 0
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


def watched(**options):
    """A lobby, its games, and their watchers (timers run at once)."""
    lobby, games, timers = parts(**options)
    watchers = Watchers(games.options, lobby.tables, lambda when, fn, *a: fn(*a))
    lobby.watchers = watchers
    return lobby, games, watchers


def open_table(lobby, name: str = "Salon", count: int = 2, private: bool = False) -> list[Fake]:
    host = Fake()
    lobby.join(host, ReqJoin("Ada", token="", table=TableChoice(create=name, players_count=count, private=private)))
    return [host]


def test_a_waiting_table_then_its_game_then_only_public_updates():
    lobby, games, watchers = watched()
    ada, = open_table(lobby)
    w = Watcher()
    watchers.watch(w, W.ReqWatch("Wes", name="salon"))
    assert w.told == [W.update_watching("Salon", False, ["Ada"], 2, [], False, 1)]
    bea = Fake()
    lobby.join(bea, ReqJoin("Bea", token="", table=TableChoice(name="Salon")))
    (room,) = games.rooms.values()
    assert w.types()[-2:] == [W.UPDATE_WATCHING, "UpdateGame"]
    assert w.told[-1] == player_view(room.game, None) and room.watch is not None
    rng = random.Random(3)
    for _ in range(40):
        nick = room.game.current_player.nickname if room.game.phase == "play" else next(
            p.nickname for p in room.game.players if not (p.chose_leaders and p.chose_resources))
        room.submit(nick, choose(room.game, nick, rng))
    assert "UpdateLeadersHand" in ada.types() and "UpdateLeadersHand" not in w.types()
    after = ada.told[ada.types().index("UpdateGame") + 1:]
    assert w.told[3:] == [m for m in after if m["type"] != "UpdateLeadersHand"]


def test_the_count_is_told_once_a_tick_and_a_watcher_behind_is_dropped():
    lobby, games, watchers = watched(watcher_output=100)
    ada, = open_table(lobby)
    bea = Fake()
    lobby.join(bea, ReqJoin("Bea", token="", table=TableChoice(name="Salon")))
    (room,) = games.rooms.values()
    fast, slow = Watcher(), Watcher()
    watchers.watch(fast, W.ReqWatch("F", name="Salon"))
    watchers.watch(slow, W.ReqWatch("S", name="Salon"))
    assert W.UPDATE_WATCHERS not in ada.types()
    watchers.tick()
    assert ada.told[-1] == W.update_watchers(2) and bea.told[-1] == W.update_watchers(2)
    watchers.tick()
    assert ada.types().count(W.UPDATE_WATCHERS) == 1                       # nothing changed: nothing told
    slow.backlog = 101
    nick = next(p.nickname for p in room.game.players if not p.chose_leaders)
    room.submit(nick, choose(room.game, nick, random.Random(1)))
    assert slow.aborted and slow.watching is None and watchers.count == 1
    assert not fast.aborted and fast.types()[-1] == "UpdateAction"


def test_limits_and_refusals():
    lobby, games, watchers = watched(max_watchers_per_table=2, max_watchers=3, watch_rate=0.5)
    open_table(lobby, "Open")
    open_table_two = Fake()
    lobby.join(open_table_two, ReqJoin("Cy", token="", table=TableChoice(create="Hush", players_count=2,
                                                                             private=True)))
    code = lobby.tables.by_name("Hush").code
    ws = [Watcher(f"10.0.1.{i}") for i in range(5)]
    for w in ws[:3]:
        watchers.watch(w, W.ReqWatch("w", name="Open"))
    assert [w.told[-1]["type"] for w in ws[:3]] == [W.UPDATE_WATCHING, W.UPDATE_WATCHING, W.ERR_WATCH]
    assert ws[2].told[-1]["reason"] == W.FULL
    watchers.watch(ws[3], W.ReqWatch("w", name="Hush"))
    assert ws[3].told[-1]["reason"] == W.PRIVATE
    watchers.watch(ws[3], W.ReqWatch("w", code=code))
    assert ws[3].told[-1]["type"] == W.UPDATE_WATCHING and watchers.count == 3
    watchers.watch(ws[4], W.ReqWatch("w", code=code))
    assert ws[4].told[-1]["reason"] == W.BUSY
    watchers.watch(ws[4], W.ReqWatch("", code=code))
    assert ws[4].told[-1]["reason"] == W.BAD
    flood = Watcher("10.0.2.1")
    for _ in range(12):
        watchers.watch(flood, W.ReqWatch("f", name="Nowhere"))
    assert [m["reason"] for m in flood.told] == [W.NO_SUCH] * 10 + [W.TOO_FAST] * 2


def test_an_open_table_that_closes_tells_its_watchers():
    lobby, games, watchers = watched()
    ada, = open_table(lobby, count=3)
    w = Watcher()
    watchers.watch(w, W.ReqWatch("Wes", name="Salon"))
    lobby.leave(ada)
    assert w.told[-1]["closed"] is True and w.watching is None and watchers.count == 0


def test_a_quick_game_is_listed_and_watched_by_its_number():
    lobby, games, watchers = watched()
    ann, bob = Fake(), Fake()
    lobby.join(ann, ReqJoin("Ann", token=""))
    lobby.new_game(ann, ReqNewGame(2))
    lobby.join(bob, ReqJoin("Bob", token=""))
    (room,) = games.rooms.values()
    w = Watcher()
    watchers.watch_list(w, W.ReqWatchList())
    assert w.told[-1]["tables"] == [{"name": f"Quick game {room.id + 1}", "players": list(room.nicknames),
                                     "watchers": 0, "quick": room.id + 1}]     # counted from 1, as players count
    watchers.watch(w, W.ReqWatch("Wes", name=f"quick game {room.id + 1}"))
    assert w.types()[1:3] == [W.UPDATE_WATCHING, "UpdateGame"] and watchers.count == 1


def test_lists_of_games_count_among_the_watch_requests():
    lobby, games, watchers = watched(watch_rate=0.5)
    w = Watcher("10.0.3.1")
    for _ in range(11):
        watchers.watch_list(w, W.ReqWatchList())
    assert w.types() == [W.UPDATE_WATCH_LIST] * 10 + [W.ERR_WATCH]


def test_an_undo_and_an_absence_reach_the_watchers_as_nobodys_seat_sees_them():
    lobby, games, watchers = watched()
    ada, = open_table(lobby)
    bea = Fake()
    lobby.join(bea, ReqJoin("Bea", token="", table=TableChoice(name="Salon")))
    (room,) = games.rooms.values()
    w = Watcher()
    watchers.watch(w, W.ReqWatch("Wes", name="Salon"))
    rng = random.Random(2)
    while room.game.phase == "setup" or room.game.undoable_action(room.game.current_player.nickname) is None:
        g = room.game
        nick = g.current_player.nickname if g.phase == "play" else next(
            p.nickname for p in g.players if not (p.chose_leaders and p.chose_resources))
        room.submit(nick, choose(g, nick, rng))
    told = len(w.told)
    assert room.undo(room.game.current_player.nickname, {"Ada", "Bea"})
    assert [m["type"] for m in w.told[told:]] == ["UpdateUndo", "UpdateGame"]
    assert w.told[-1] == player_view(room.game, None)
    room.drop("Bea", until=1e12)
    assert w.told[-1]["type"] == "UpdatePlayerAway" and w.told[-1]["player"] == "Bea"
