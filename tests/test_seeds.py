"""A new game's seed: ``MOR_SEED`` when it is set (the same deal every time), the OS otherwise."""
from __future__ import annotations

import pytest

from game.seeds import BadSeed, new_seed


def test_mor_seed_fixes_the_seed_of_every_new_game(monkeypatch):
    from game.match import LocalMatch
    from game.rules.components import default_config
    monkeypatch.setenv("MOR_SEED", "1592")
    assert new_seed() == new_seed() == 1592
    config = default_config()
    assert LocalMatch(config, "Ada").game.seed == LocalMatch(config, "Ada").game.seed == 1592


def test_a_mor_seed_that_is_not_a_number_is_refused_in_words(monkeypatch):
    monkeypatch.setenv("MOR_SEED", "seven")
    with pytest.raises(BadSeed, match="MOR_SEED must be a whole number .* not 'seven'"):
        new_seed()
