"""Random requests from a seated player, valid or not: each gets exactly one answer, the
connection stays usable, and the game the server holds is still exactly the replay of what it
accepted (a refused request changes nothing)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.netcode import protocol as P
from game.rules.actions import Action
from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG, drive, room_of, start_game

pytestmark = pytest.mark.timeout(120)

FIELDS = ["text", "isRow", "index", "replacements", "shelves", "color", "level", "devSlot", "resContainers",
          "prodRequests", "production", "inputContainers", "outputRep", "inputNonStorableRep", "leader",
          "isActivate", "leaders", "shelf1", "shelf2", "from", "to", "count", "nickname", "playersCount",
          "token", "type"]
TYPES = sorted((P.CLIENT_TYPES | set(Action.REGISTRY) | {P.REQ_CHAT}) - {P.REQ_QUIT, P.REQ_GOODBYE}) + [
    "UpdateGame", "ResQuit", "ErrAction", "Nonsense", ""]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.integers(-3, 40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
    | st.sampled_from(["Coin", "Servant", "Shield", "Stone", "Faith", "Zero", "Green", "Blue"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.text(max_size=4) | st.sampled_from(["0", "1", "2", "5", "Coin", "Stone"]), children, max_size=4),
    max_leaves=12)

messages = st.builds(lambda t, fields: {**fields, "type": t},
                     st.sampled_from(TYPES), st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5))


def answer_to(player, msg) -> list[dict]:
    """Everything the server sends back to ``msg``, delimited by a heartbeat probe sent after it."""
    player.send(json.dumps(msg).encode() + b"\n")   # stdlib json: integers of any size, as a client may send
    player.send({"type": "ReqHeartbeat"})
    out = player.until_type("ResHeartbeat")[:-1]
    if msg.get("type") == P.REQ_HEARTBEAT:   # its own answer came first
        assert out == [] or out[-1]["type"] != "ResHeartbeat"
        out = player.until_type("ResHeartbeat")[:-1] if not out else out
    return out


def test_random_requests_get_one_answer_each_and_leave_the_game_whole(make_server, players):
    srv = make_server()
    a, b = players(srv.address, "fz1", "fz2")
    start_game(a, b)
    game = room_of(srv, "fz1").game
    drive(game, [a, b], random.Random(3), stop=lambda g: g.phase == "play" and g.version >= 12)
    me = a
    rng = random.Random(4)
    seen = {"errors": 0, "accepted": 0}

    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(msg=messages)
    def one(msg):
        if not game.ended and game.current_player.nickname != "fz1":      # the other plays its turn
            while not game.ended and game.current_player.nickname != "fz1":
                b.request(choose(game, "fz2", rng))
            me.send({"type": "ReqHeartbeat"})
            me.until_type("ResHeartbeat")   # what that turn sent us is read
        if game.ended:
            return
        answer = answer_to(me, msg)
        t = msg["type"]
        if t in (P.RES_WELCOME, P.RES_HEARTBEAT):
            assert answer == []
            return
        if t == P.REQ_HEARTBEAT:
            return
        assert answer, f"no answer to {msg}"
        errors = [m for m in answer if m["type"].startswith("Err")]
        if errors:
            assert len(answer) == 1, f"an error and more for {msg}: {answer}"
            seen["errors"] += 1
        else:
            assert answer[-1]["type"] in ("UpdateAction", "ResWelcome", P.UPDATE_CHAT), (msg, answer)
            if answer[-1]["type"] == P.UPDATE_CHAT:
                assert len(answer) == 1
            seen["accepted"] += 1
        # a refused request changed nothing: the game is exactly the replay of what was accepted
        again = Game.replay(CONFIG, game.nicknames, game.seed, game.history)
        assert again.snapshot() == game.snapshot()

    one()
    assert seen["errors"] > 100, seen
    b.send({"type": "ReqHeartbeat"})
    b.until_type("ResHeartbeat")   # the other player's connection was never disturbed
