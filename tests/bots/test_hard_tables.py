"""The hard bot's play at tables of two and four players is pinned: changes to its solo play
(its budget, horizon, width and judge against Lorenzo) must leave these games request for request
as they were when the digests were taken (main at 5ad526b)."""
from __future__ import annotations

import hashlib

import orjson
import pytest

from game.bots.arena import play
from game.rules import default_config

CFG = default_config()


def requests_digest(levels: list[str], seed: int, budget: int) -> str:
    h = hashlib.sha256()

    def seen(game, nick, decision):
        h.update(orjson.dumps([nick, decision.action.to_dict()], option=orjson.OPT_SORT_KEYS))

    play(CFG, levels, seed=seed, budget=budget, on_decision=seen)
    return h.hexdigest()[:16]


@pytest.mark.parametrize("levels, seed, budget, digest", [
    (["hard", "medium"], 20000, 8, "a58f50a849ef5252"),
    (["hard", "medium", "easy", "hard"], 30000, 4, "d09d8a8afd5b917f"),
])
def test_hard_plays_two_and_four_player_games_as_before(levels, seed, budget, digest):
    assert requests_digest(levels, seed, budget) == digest
