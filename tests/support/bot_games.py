"""Seeded games between bots that tests look into at a chosen moment."""
from __future__ import annotations

import copy
import random

from game.bots import make_bot
from game.bots.base import Decision
from game.rules import Game, default_config, player_view


def a_rearranging_decision() -> tuple[Game, str, Decision]:
    """A seeded game between two medium bots, just before a decision that rearranges the
    warehouse for a market take (``Decision.then``): (that game, who decides, the decision)."""
    from game.bots import arena
    config = default_config()
    before: list = [None]
    found: list = []

    def seen(game, nick, decision):
        if found:
            return
        if decision.then:
            found.append((before[0], nick, decision))
        before[0] = copy.deepcopy(game)

    arena.play(config, ["medium", "medium"], 1, on_decision=seen)
    assert found, "the seeded game has no rearranging decision any more: choose another seed"
    game, nick, decision = found[0]
    assert player_view(game, nick) and decision.action == make_bot("medium", config).decide(
        player_view(game, nick), nick, random.Random()).action
    return game, nick, decision
