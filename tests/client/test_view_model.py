"""The client's view model, fed only by events, always equals the engine's view for that player."""
from __future__ import annotations

import random

import pytest

from game.netcode.server_messages import visible_to
from game.rules.components import default_config
from game.rules.engine import Game
from game.rules.playout import steps
from game.rules.views import player_view
from game.client.view_model import ViewModel

CFG = default_config()


def _play_and_compare(nicks: list[str], seed: int, drop: str | None = None) -> int:
    game = Game.new(CFG, nicks, seed)
    models = {n: ViewModel(n) for n in nicks}
    for n in nicks:
        models[n].feed(player_view(game, n))
    rng = random.Random(seed)
    checked = 0
    for i, (nick, action) in enumerate(steps(game, rng)):
        batches = [game.apply(nick, action)]
        if drop and i == 30:
            batches.append(game.set_active(drop, False))
        if drop and i == 45:
            batches.append(game.set_active(drop, True))
        for events in batches:
            for n, vm in models.items():
                for e in events:
                    if visible_to(e, n):
                        vm.feed(e)
        for n, vm in models.items():
            assert vm.game == player_view(game, n), f"step {i}: {nick} {action!r} diverged for {n}"
            checked += 1
    assert game.ended
    return checked


@pytest.mark.parametrize("nicks", [["Ada"], ["Ada", "Bruno"], ["Ada", "Bruno", "Cora"], ["Ada", "Bruno", "Cora", "Dario"]])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_view_model_follows_the_engine(nicks: list[str], seed: int) -> None:
    assert _play_and_compare(nicks, seed) > 20


def test_view_model_follows_a_player_leaving_and_returning() -> None:
    assert _play_and_compare(["Ada", "Bruno", "Cora"], 11, drop="Bruno") > 20


def test_errors_are_kept_for_display() -> None:
    vm = ViewModel("Ada")
    vm.feed({"reason": "NOT_CURRENT_PLAYER", "type": "ErrAction"})
    assert vm.errors == [{"reason": "NOT_CURRENT_PLAYER", "type": "ErrAction"}]


@pytest.mark.parametrize("seed,size,drop", [(13, 3, "Bruno"), (16, 4, "Cora"), (35, 2, "Bruno")])
def test_leaders_played_in_another_order_than_kept_stay_in_step(seed: int, size: int, drop: str) -> None:
    """Games where someone plays their leaders in another order than they keep them: the others
    list them in the order played, as their view model learns of them (found by a long run)."""
    nicks = ["Ada", "Bruno", "Cora", "Dario"][:size]
    assert _play_and_compare(nicks, seed, drop=drop) > 20


def test_a_whole_game_changes_the_records_a_scene_kept_in_place() -> None:
    """An UpdateGame (an undo, a rejoin, a replay's step) is one more message: the game, its players,
    containers, leaders and cards stay the objects a scene took, with the new game's contents."""
    game = Game.new(CFG, ["Ada"], 2)
    rng = random.Random(2)
    vm = ViewModel("Ada")
    vm.feed(player_view(game, "Ada"))
    kept = (vm.game, vm.me, vm.container(0), vm.leader(1), vm.cards[1])
    for nick, action in steps(game, rng):
        game.apply(nick, action)
        if len(game.history) == 40:
            break
    vm.feed(player_view(game, "Ada"))
    assert vm.game == player_view(game, "Ada")
    assert all(a is b for a, b in zip(kept, (vm.game, vm.me, vm.container(0), vm.leader(1), vm.cards[1])))
    view = player_view(game, "Ada")
    view["leaderCards"] = [ld for ld in view["leaderCards"] if ld["id"] != 1]   # a record the game no longer has
    vm.feed(view)
    assert vm.leaders.get(1) is None and vm.game == view
