"""A game that ends while one of its players is away is still theirs to see: coming back with the
seat's token gives the final state; without it, the waiting room (a new game)."""
from __future__ import annotations

import json
import random

import pytest

from game.rules.playout import choose
from game.rules.views import player_view

from conftest import room_of, start_game, wait_until

pytestmark = pytest.mark.timeout(60)


def wire(msg):
    return json.loads(json.dumps(msg))


def play_alone_to_the_end(srv, players):
    a, b = players(srv.address, "ea", "eb")
    start_game(a, b)
    game = room_of(srv, "ea").game
    token = b.token
    b.close()                                   # b is away for the rest of the game
    wait_until(lambda: not game.player("eb").active)
    rng = random.Random(8)
    for _ in range(3000):
        if game.ended:
            break
        action = choose(game, "ea", rng)
        answer = a.request(action)
        assert answer[-1]["type"] == "UpdateAction", answer
    assert game.ended
    return game, token


def test_coming_back_with_the_token_shows_the_final_state(server, players):
    game, token = play_alone_to_the_end(server, players)
    (back,) = players(server.address, "eb")
    answer = back.join(token=token)
    assert answer[-1]["type"] == "UpdateGame" and answer[-1]["ended"] is True
    assert answer[-1] == wire(player_view(game, "eb"))


@pytest.mark.parametrize("token", ["", None])
def test_coming_back_without_it_is_a_new_start(server, players, token):
    play_alone_to_the_end(server, players)
    (back,) = players(server.address, "eb")
    answer = back.join(token=token)
    assert answer[-1]["type"] == "UpdateBookedSeats"
