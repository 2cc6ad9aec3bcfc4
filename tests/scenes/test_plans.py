"""Plans built from a player's view produce requests the engine accepts."""
import random

import pytest

from game.rules import Game, default_config, player_view
from game.rules.choices import affordable_cards
from game.rules.errors import GameError
from game.rules.playout import steps
from game.rules.views import shadow_game
from game.scenes.plans import BuyPlan, MarketPlan, ProductionPlan

CFG = default_config()


def _states(nicks, seed, every=3):
    g = Game.new(CFG, nicks, seed)
    rng = random.Random(seed)
    for i, (nick, action) in enumerate(steps(g, rng)):
        g.apply(nick, action)
        if g.phase == "play" and not g.main_done and i % every == 0:
            yield g


def _accepts(g, request):
    copy = Game.replay(CFG, list(g.nicknames), g.seed, g.history)
    events = copy.apply(copy.current_player.nickname, request)
    return events[-1]["type"] == "UpdateAction"


@pytest.mark.parametrize("seed", range(3))
def test_market_plans_are_accepted_and_store_what_they_say(seed):
    for g in _states(["A", "B"], seed):
        me = g.current_player.nickname
        sh = shadow_game(player_view(g, me), CFG, me)
        for is_row, n in ((True, 3), (False, 4)):
            for i in range(n):
                plan = MarketPlan.start(sh, sh.player(me), is_row, i)
                assert _accepts(g, plan.request())
                # every item can be moved to any of its legal targets and still be accepted
                for k in range(len(plan.items)):
                    for cid in plan.targets_for(k):
                        plan.put(k, cid)
                        assert _accepts(g, plan.request())
                        break


def test_market_plan_refuses_an_illegal_target_and_words_the_discard():
    g = Game.new(CFG, ["A", "B"], 5)
    g.market = ["Coin", "Coin", "Stone", "Stone"] + ["Zero"] * 8
    for p in g.players:
        p.chose_leaders = p.chose_resources = True
    g.phase = "play"
    me = g.current_player.nickname
    sh = shadow_game(player_view(g, me), CFG, me)
    plan = MarketPlan.start(sh, sh.player(me), True, 0)
    shelf1 = sh.player(me).shelves[0].id
    for i in range(len(plan.items)):
        plan.put(i, None)
    coin = plan.items.index("Coin")
    assert shelf1 in plan.targets_for(coin)
    plan.put(coin, shelf1)
    other_coin = coin + 1
    with pytest.raises(ValueError):
        plan.put(other_coin, shelf1)                   # shelf 1 holds only one
    for i in range(len(plan.items)):
        plan.put(i, None)
    assert plan.discard_warning() == "Discarding 2 Coin, 2 Stone: everyone else gains 4 faith."


@pytest.mark.parametrize("seed", range(4))
def test_buy_and_production_plans_are_accepted(seed):
    bought = produced = 0
    for g in _states(["A"], seed, every=1):
        me = g.current_player.nickname
        sh = shadow_game(player_view(g, me), CFG, me)
        p = sh.player(me)
        for offer in affordable_cards(sh, p):
            plan = BuyPlan.start(sh, p, offer.card)
            assert plan.ready and plan.problem() is None
            assert _accepts(g, plan.request())
            bought += 1
        prod = ProductionPlan.start(sh, p)
        for pid in prod.available:
            prod.toggle(pid)
            if prod.problem() is not None:
                prod.toggle(pid)
        if prod.selected:
            assert prod.ready
            assert _accepts(g, prod.request())
            produced += 1
    assert bought + produced > 0


def test_unaffordable_card_explains_itself():
    g = Game.new(CFG, ["A"], 1)
    g.phase = "play"
    sh = shadow_game(player_view(g, "A"), CFG, "A")
    card = sh.top_card("Green", 1)
    plan = BuyPlan.start(sh, sh.player("A"), card)
    assert not plan.ready
    assert plan.problem().startswith("You need ")
    with pytest.raises(GameError):
        g.apply("A", plan.request())
