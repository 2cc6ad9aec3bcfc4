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


def test_the_kit_catches_a_game_dealt_by_the_os(monkeypatch):
    """What makes a test that plays an unseeded deal fail (tests/conftest.py ``seeded_deals``)."""
    from game.match import LocalMatch
    from game.rules.components import default_config
    from support import deals
    monkeypatch.delenv("MOR_SEED", raising=False)
    LocalMatch(default_config(), "Ada")
    assert [where.split(":")[0] for where in deals.take()] == ["test_seeds.py"]
    monkeypatch.setenv("MOR_SEED", "5")
    LocalMatch(default_config(), "Ada")
    assert deals.take() == []
