"""Undo on the server, our extension: ``ReqUndo`` takes back the sender's last request of the turn;
every player gets the game as it now is (our clients ``UpdateUndo`` then their ``UpdateGame``,
reference clients the ``UpdateGame`` alone); refusals are one ``ErrUndo`` to the sender; the log
records the undo, so a restarted server serves the undone state."""
from __future__ import annotations

import copy
import json
import random

import pytest

from game.netcode import protocol as P
from game.netcode.client_messages import ReqUndo
from game.netcode.server_messages import err_protocol
from game.rules.choices import legal_actions
from game.rules.engine import Game
from game.rules.views import player_view

from conftest import CONFIG, drive, room_of

pytestmark = pytest.mark.timeout(30)


def wire(msg):
    return json.loads(json.dumps(msg))


def seat(group):
    """A two-player game: the first joined with a token (our client), the second without."""
    a, b = group
    a.join("")
    b.join(None)
    a.send({"type": "ReqNewGame", "playersCount": 2})
    a.until_type("UpdateGame")
    b.until_type("UpdateGame")
    return a, b


def undoable(game: Game, nick: str):
    """A legal request of ``nick`` that can be taken back (tried on a copy)."""
    for action in legal_actions(game, nick):
        trial = copy.deepcopy(game)
        trial.apply(nick, action)
        if trial.can_undo(nick):
            return action
    pytest.fail("no request that can be taken back")


def to_turn_of(game, group, nick, rng):
    drive(game, group, rng, stop=lambda g: g.phase == "play" and g.current_player.nickname == nick
          and not g.main_done)


def test_undo_sends_everyone_the_table_as_it_was(server, players):
    a, b = seat(players(server.address, "ours", "ref"))
    game = room_of(server, "ours").game
    to_turn_of(game, [a, b], "ours", random.Random(3))
    views = {"ours": wire(player_view(game, "ours")),
             "ref": wire(room_of(server, "ours").view("ref"))}   # the reference's points, no cardsLeft
    assert "cardsLeft" not in views["ref"]["devCardGrid"]
    action = undoable(game, "ours")
    a.request(action)
    b.until_type("UpdateAction")
    a.send(ReqUndo())
    mine = a.until_type("UpdateGame")
    assert [m["type"] for m in mine] == [P.UPDATE_UNDO, "UpdateGame"]
    name = getattr(action, "action_name", action.ACTION)
    assert mine[0] == {"player": "ours", "action": name, "type": P.UPDATE_UNDO}
    assert mine[1] == views["ours"]
    theirs = b.until_type("UpdateGame")
    assert theirs == [views["ref"]]          # a reference client: the whole game, nothing else
    a.probe()
    b.probe()
    assert game.history[-1] == ("undo", "ours", None)


def test_refusals_go_to_the_sender_alone(server, players):
    a, b = seat(players(server.address, "ours", "ref"))
    game = room_of(server, "ours").game
    to_turn_of(game, [a, b], "ours", random.Random(4))
    before = game.snapshot()
    a.send(ReqUndo())
    assert a.until(lambda m: m["type"].startswith("Err")) == [{"reason": "NOTHING_TO_UNDO", "type": P.ERR_UNDO}]
    b.send(ReqUndo())   # a reference client does not know this request
    err = b.until(lambda m: m["type"].startswith("Err"))[-1]
    assert err == err_protocol(P.UNKNOWN_TYPE.format(P.REQ_UNDO))
    a.probe()
    b.probe()
    assert game.snapshot() == before


def test_a_restart_restores_the_undone_state(make_server, players):
    srv = make_server()
    a, b = seat(players(srv.address, "ours", "ref"))
    game = room_of(srv, "ours").game
    to_turn_of(game, [a, b], "ours", random.Random(5))
    g0 = copy.deepcopy(game)
    first = undoable(game, "ours")
    a.request(first)
    second = undoable(game, "ours")
    a.request(second)
    a.send(ReqUndo())
    a.until_type("UpdateGame")
    expected = Game.replay(CONFIG, game.nicknames, game.seed, game.history)
    g0.apply("ours", first)
    assert {k: v for k, v in expected.snapshot().items() if k != "version"} == \
        {k: v for k, v in g0.snapshot().items() if k != "version"}
    token = a.token
    srv.stop()
    srv2 = make_server()
    # (nobody is marked away while the players have the restart grace to come back)
    (back,) = players(srv2.address, "ours")
    answer = back.join(token)
    expected.set_active("ours", True)
    assert answer[-1] == wire(player_view(expected, "ours"))
    assert room_of(srv2, "ours").game.snapshot() == expected.snapshot()
