"""The medium policy does not try a warehouse rearranging that stores exactly what the same market
take stores without it: such a take reaches a position of the same value, which ranks below the
take without rearranging, so no decision can change. Checked against the policy that tries them all."""
from __future__ import annotations

import random

import pytest

from game.bots import medium
from game.bots.medium import Policy
from game.rules import Game, default_config
from game.rules.playout import steps

CFG = default_config()


def _ranked(g: Game, policy: Policy, *, every: bool, monkeypatch) -> list:
    with monkeypatch.context() as m:
        if every:
            m.setattr(medium, "_stored", lambda plan: object())     # never equal: nothing skipped
        return policy.ranked(g, g.current_player)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_rearrangings_left_untried_could_not_have_been_chosen(players, monkeypatch):
    policy = Policy(CFG)
    g = Game.new(CFG, [f"P{i}" for i in range(players)], 70 + players)
    skipped = 0
    for k, (nick, action) in enumerate(steps(g, random.Random(players))):
        g.apply(nick, action)
        if g.phase != "play" or g.main_done or k % 3:
            continue
        every = _ranked(g, policy, every=True, monkeypatch=monkeypatch)
        some = _ranked(g, policy, every=False, monkeypatch=monkeypatch)
        key = lambda c: (c.pre, c.main)      # noqa: E731
        assert key(some[0]) == key(every[0])                       # the medium decision
        assert [key(c) for c in some if not c.pre] == [key(c) for c in every if not c.pre]   # the hard's
        kept = {str(key(c)) for c in some}
        line = lambda a: str((a.is_row, a.index, a.replacements))      # noqa: E731
        plain = {line(c.main): c.value for c in every if not c.pre and hasattr(c.main, "is_row")}
        for c in every:
            if str(key(c)) not in kept:
                skipped += 1
                assert c.pre and c.value == plain[line(c.main)]     # worth what the take alone is
    assert skipped > 10
