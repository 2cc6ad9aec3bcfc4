"""A market take, productions or a leader's discard valued without being made
(game/bots/quick_value.py) are worth exactly what the engine makes of them, and every one whose faith reaches a Vatican report or the
end of the track is left to the engine."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from game.bots.common import clone
from game.bots.evaluate import Evaluator
from game.bots.medium import Policy
from game.bots.quick_value import Effect, effect_value
from game.rules import Game, default_config
from game.rules.actions import ReqActivateProductions, ReqLeaderAction
from game.rules.playout import steps

CFG = default_config()
EV = Evaluator(CFG)


def _storage(p):
    return [dict(c.content) for c in (*p.shelves, *p.depots, p.strongbox)]


def _takes(g: Game, p):
    """Every market take and set of productions the medium policy weighs here (a take rearranged
    first or not; the playouts' policy too) on the game it is made on, and every discard of a
    leader in hand (after the main action: the discards alone)."""
    if not g.main_done:
        for policy in (Policy(CFG), Policy(CFG, fast=True, quiet=True)):
            for c in policy.candidates(g, p):
                if c.effect is not None:
                    yield (c.start[1] if c.start is not None else g), c
    for lid in p.hand:
        if lid not in p.active_leaders:
            yield g, SimpleNamespace(main=ReqLeaderAction(lid, False), effect=Effect({}, 1, 0, lid))


def _check(g: Game, base: Game, c, counts: dict) -> None:
    nick = g.current_player.nickname
    quick = effect_value(EV, base, base.by_nick[nick], c.effect)
    h = clone(base, share_rng=True)
    h.apply(nick, c.main)                   # (the policy's requests are legal)
    if quick is None:       # left to the engine: it reaches a report or the track's end
        top = max(h.black_cross, *(q.faith for q in h.players))
        assert h.fired != base.fired or h.ended or top >= CFG.last_space
        counts["left"] += 1
        return
    value, q = quick
    p = h.by_nick[nick]
    assert value == EV.value(h, p)
    assert (_storage(q), q.faith, q.vp, q.hand) == (_storage(p), p.faith, p.vp, p.hand)
    counts["valued"] += 1
    counts["productions"] += isinstance(c.main, ReqActivateProductions)
    counts["discards"] += isinstance(c.main, ReqLeaderAction)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_takes_productions_and_discards_valued_without_being_made_are_worth_what_the_engine_makes_of_them(players):
    g = Game.new(CFG, [f"P{i}" for i in range(players)], 90 + players)
    counts = dict.fromkeys(["valued", "left", "productions", "discards"], 0)
    for k, (nick, action) in enumerate(steps(g, random.Random(players))):
        g.apply(nick, action)
        if g.phase != "play" or k % (1 if players == 1 else 3):
            continue
        p = g.current_player
        for base, take in _takes(g, p):
            _check(g, base, take, counts)
        # the same takes with every marker (and Lorenzo's cross) near a report or the end
        near = clone(g, share_rng=True)
        for q in near.players:
            q.faith = max(q.faith, random.Random(k + q.seat).choice([7, 14, 22, CFG.last_space - 1]))
        near.black_cross = max(near.black_cross, CFG.last_space - 2) if near.solo else 0
        if k % 2:                   # (the reports made: the end of the track alone ends things)
            near.fired = [True] * len(near.fired)
        for base, take in _takes(near, near.current_player):
            _check(near, base, take, counts)
    assert counts["valued"] > 200 and counts["left"] > 20 and counts["productions"] > 30 and counts["discards"] > 10, counts
