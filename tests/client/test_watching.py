"""The client's side of watching a table (issue 31, game/client/watching.py): the games under way
in a server's list, a watcher's session (nobody's seat: the public table, told in the third
person, never its turn), the watchers' chat and a player's switch to hide it; against a real
server on loopback."""
from __future__ import annotations

import random

import orjson
import pytest

from game.client import tables as T
from game.client.watch_words import WATCHER
from game.client.watching import Watching
from game.netcode.watch_wire import update_watching
from game.rules import Game, default_config
from game.rules.views import player_view
from support.remote import named_table_of_two, play_requests
from support.table import Feed, past_setup
from support.wait import pump_until, until

CONFIG = default_config()
pytestmark = pytest.mark.timeout(40)


def watching(server, nick: str, **where) -> Watching:
    w = Watching(*server.address, nick, CONFIG, **where)
    until(lambda: w.poll() in ("seated", "failed"), what=f"{nick} watching")
    return w


@pytest.fixture
def game_of_two(server, tmp_path):
    ada, bea = named_table_of_two(server, tmp_path)
    yield ada, bea
    ada.close()
    bea.close()


def test_a_watcher_follows_the_public_table_in_the_third_person(server, game_of_two):
    ada, bea = game_of_two
    rng = random.Random(11)
    play_requests(server, [ada, bea], rng, 8)
    listed = T.list_tables(*server.address)
    assert listed.playing == (T.PlayingTable("Salon", ("Ada", "Bea"), 0),)
    assert listed.playing[0].players_words == "Ada and Bea play"
    w = watching(server, "Wes", name="Salon")
    assert w.state == "seated", w.error
    session = w.session
    pump_until(session, lambda: session.vm.has_game and session.log)
    play_requests(server, [ada, bea], rng, 12)
    room = server.room_of("Ada")
    public = orjson.loads(orjson.dumps(player_view(room.game, None)))
    pump_until(session, lambda: session.vm.game == public, what="the watcher's table as nobody's seat sees it")
    assert session.watchers.table == "Salon" and session.watchers.started
    assert not session.vm.my_turn and session.vm.me["nickname"] == "Ada"
    session.vm.show("Bea")
    assert session.vm.me["nickname"] == "Bea"
    assert not [line for line in session.log if "your" in line.lower().split() or line.startswith("You ")]
    pump_until(ada, lambda: ada.watchers.count == 1, what="Ada told one watches")
    session.chat("well played")
    pump_until(bea, lambda: WATCHER.format("Wes") + ": well played" in bea.log)
    ada.hide_watchers(True)
    pump_until(ada, lambda: ada.watchers.hidden)
    session.chat("again")
    pump_until(bea, lambda: WATCHER.format("Wes") + ": again" in bea.log)
    ada.pump()
    assert WATCHER.format("Wes") + ": again" not in ada.log
    bea.chat("thanks")
    pump_until(session, lambda: "Bea: thanks" in session.log)
    session.close()


class FedWatching(Watching):
    """:class:`Watching` whose connection is a :class:`Feed` (the server's answer, step by step)."""
    feed: Feed

    def _open(self) -> Feed:
        return self.feed


def test_a_game_under_way_is_watched_once_the_table_as_it_stands_arrived():
    """The server's answer and the game it sends with it may come in two reads: "seated" waits for
    the game, or a line said at once was dropped unsent (the watchers' walk lost "psst" so)."""
    game = past_setup(Game.new(CONFIG, ["Ada", "Bea"], 5), "Ada", 5)
    FedWatching.feed = feed = Feed("Wes", [update_watching("Salon", False, ["Ada", "Bea"], 2, [], True, 1)])
    feed.supports_chat = True
    feed.chat = lambda text: feed.sent.append(("chat", text))
    w = FedWatching("127.0.0.1", 1, "Wes", CONFIG, name="Salon")
    until(lambda: w.poll() != "connecting", what="the stand-in connected")
    assert w.state == "joining" and w.session.watchers.table == "Salon"     # the table named, not yet its game
    feed.say({**player_view(game, None), "type": "UpdateGame"})
    assert w.poll() == "seated" and w.session.vm.has_game
    w.session.chat("psst")
    assert feed.sent == [("chat", "psst")]


def test_a_private_table_by_name_is_refused_in_words(server, tmp_path):
    seat = T.Seating(*server.address, "Ada", CONFIG, token_file=tmp_path / "Ada.json", create="Hush", players=2,
                     private=True)
    until(lambda: seat.poll() == "seated", what="Ada's seat")
    w = watching(server, "Wes", name="Hush")
    assert w.state == "failed" and w.error == "\u201cHush\u201d is private: watch it with the invite code its players share."
