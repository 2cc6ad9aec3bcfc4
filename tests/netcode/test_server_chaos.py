"""Players who come and go at random, in many games at once: every game is played to its end,
every request of a connected player is accepted, and whoever comes back finds exactly the game
the server holds."""
from __future__ import annotations

import json
import random

import pytest

from game.rules.views import player_view

from conftest import acting, room_of, start_game, wait_until
from game.rules.playout import choose

pytestmark = pytest.mark.timeout(120)


def wire(msg):
    return json.loads(json.dumps(msg))


def play_with_drops(srv, players, seed: int, size: int) -> dict[str, int]:
    rng = random.Random(seed)
    nicks = [f"c{seed}n{i}" for i in range(size)]
    group = {n: p for n, p in zip(nicks, players(srv.address, *nicks))}
    start_game(*group.values())
    tokens = {n: p.token for n, p in group.items()}
    game = room_of(srv, nicks[0]).game
    online = set(nicks)
    counts = {"requests": 0, "drops": 0, "rejoins": 0}
    for _ in range(3000):
        if game.ended:
            break
        if len(online) > 1 and rng.random() < 0.06:                       # someone drops
            gone = rng.choice(sorted(online))
            group[gone].close()
            online.discard(gone)
            wait_until(lambda: not game.player(gone).active)
            counts["drops"] += 1
        away = sorted(set(nicks) - online)
        if away and rng.random() < 0.25:                                 # someone comes back
            back = rng.choice(away)
            (p,) = players(srv.address, back)
            answer = p.join(token=tokens[back])
            assert answer[-1]["type"] == "UpdateGame", answer
            assert answer[-1] == wire(player_view(game, back))
            group[back] = p
            online.add(back)
            counts["rejoins"] += 1
        if game.ended:
            break
        nick = acting(game, rng)
        if nick not in online:   # only in setup: a player away is chosen for when setup completes
            continue
        action = choose(game, nick, rng)
        answer = group[nick].request(action)
        assert not [m for m in answer if m["type"].startswith("Err")], (nick, action, answer)
        counts["requests"] += 1
    assert game.ended, f"game {seed} did not end"
    for n in online:   # everyone still there hears the end (or came back to a game already over)
        p = group[n]
        if not any(m["type"] == "UpdateGameEnd" for m in p.received) and not (p.view or {}).get("ended"):
            p.until_type("UpdateGameEnd")
    return counts


@pytest.mark.parametrize("size", [2, 3, 4])
def test_games_with_players_dropping_and_rejoining_at_random_all_end(make_server, players, size):
    srv = make_server()
    totals = {"requests": 0, "drops": 0, "rejoins": 0}
    for seed in range(8):
        for k, v in play_with_drops(srv, players, 100 * size + seed, size).items():
            totals[k] += v
    assert totals["drops"] >= 20 and totals["rejoins"] >= 15, totals
