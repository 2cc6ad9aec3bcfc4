"""Plans built from a player's view produce requests the engine accepts."""
import random

import pytest

from game.rules import Game, default_config, player_view
from game.rules.choices import affordable_cards
from game.rules.errors import GameError
from game.rules.playout import steps
from game.rules.shadow import shadow_game
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan

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
    events = []
    for r in (request if isinstance(request, list) else [request]):   # a plan's requests, in order
        events = copy.apply(copy.current_player.nickname, r)
    return events[-1]["type"] == "UpdateAction"


@pytest.mark.parametrize("seed", range(3))
def test_market_plans_are_accepted_and_store_what_they_say(seed):
    for g in _states(["A", "B"], seed):
        me = g.current_player.nickname
        sh = shadow_game(player_view(g, me), CFG, me)
        for is_row, n in ((True, 3), (False, 4)):
            for i in range(n):
                plan = MarketPlan.start(sh, sh.player(me), is_row, i)
                assert _accepts(g, plan.requests())
                # every item can be moved to any of its legal targets and still be accepted
                for k in range(len(plan.items)):
                    for cid in plan.targets_for(k):
                        plan.put(k, cid)
                        assert _accepts(g, plan.requests())
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
    assert plan.discard_warning() == "Discarding 2 Coins, 2 Stones: everyone else gains 4 Faith."


def test_a_resource_stuck_on_its_shelf_says_the_clicks_or_the_command_that_move_it():
    """2 Stones taken onto shelf 2: one of them can go on no other shelf (one kind per shelf). The
    board says which clicks move both; the text client says the command that does the same; a
    full shelf says so. None of it is found by looking for an English word (Italian says it too)."""
    from game import i18n
    from support.table import mid_game
    game = mid_game(["Ada"], 3, 0)
    for shelf in game.player("Ada").shelves:
        shelf.content = {}
    game.market[:4] = ["Stone", "Stone", "Faith", "Zero"]
    sh = shadow_game(player_view(game, "Ada"), CFG, "Ada")
    plan = MarketPlan.start(sh, sh.player("Ada"), True, 0)
    shelves = [s.id for s in sh.player("Ada").shelves]
    assert plan.target == [shelves[1], shelves[1]]
    said = "Stones are also on shelf 2: click shelf 2, then shelf 3, to move 2 Stones"
    assert plan.why_not(0, shelves[2]) == said
    assert plan.why_stuck(0) == said
    assert plan.why_not(0, shelves[2], typed=True) == "Stones are also on shelf 2: say move 2 3 to move 2 Stones"
    assert plan.why_not(0, shelves[0]) == "Stones are also on shelf 2 (one kind per shelf), and shelf 1 holds only 1"
    try:
        i18n.use("it")
        assert plan.why_stuck(0) == ("Ci sono Pietre anche nel ripiano 2: fai clic sul ripiano 2, poi sul ripiano 3, "
                                      "per spostare 2 Pietre")
    finally:
        i18n.use("en")


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


def _crowded(seed: int = 5):
    """A 2-player game at A's turn: a lone Stone on the big shelf, two Coins on the middle one; the
    first market row holds three Shields and a white marble."""
    g = Game.new(CFG, ["A", "B"], seed)
    g.market = ["Shield", "Shield", "Shield", "Zero"] + ["Zero"] * 8
    for p in g.players:
        p.chose_leaders = p.chose_resources = True
    g.phase = "play"
    p = g.current_player
    p.shelves[0].content, p.shelves[1].content, p.shelves[2].content = {}, {"Coin": 2}, {"Stone": 1}
    return g, p.nickname


def test_the_market_plan_rearranges_the_shelves_rather_than_discard():
    g, me = _crowded()
    sh = shadow_game(player_view(g, me), CFG, me)
    real = {c.id: dict(c.content) for c in sh.player(me).depot_like()}
    plan = MarketPlan.start(sh, sh.player(me), True, 0)
    assert plan.discarded == 0 and plan.moves                     # the Stone moves to make room
    assert {c.id: dict(c.content) for c in sh.player(me).depot_like()} == real   # the caller's game untouched
    requests = plan.requests()
    assert requests[:-1] == plan.moves and requests[-1] == plan.request()
    for r in requests:
        g.apply(me, r)
    p = g.player(me)
    assert p.shelves[0].content == {"Stone": 1} and p.shelves[2].content == {"Shield": 3}


def test_the_player_rearranges_during_the_plan_and_can_undo_it():
    g, me = _crowded()
    sh = shadow_game(player_view(g, me), CFG, me)
    plan = MarketPlan.start(sh, sh.player(me), True, 0)
    plan.reset_arrangement()                                     # the shelves as they are: 2 Shields lost
    assert plan.moves == [] and plan.discarded == 2
    s1, s2, s3 = (s.id for s in sh.player(me).shelves)
    plan.rearrange(__import__("game.rules.actions", fromlist=["x"]).ReqSwapShelves(s1, s3))
    assert plan.arranged()[s1] == {"Stone": 1} and plan.discarded == 0
    with pytest.raises(ValueError):                              # 2 Coins do not fit the 1-shelf
        plan.rearrange(__import__("game.rules.actions", fromlist=["x"]).ReqSwapShelves(s2, s1))
    assert len(plan.moves) == 1
    for r in plan.requests():
        g.apply(me, r)
    assert g.player(me).shelves[2].content == {"Shield": 3}


def test_swapping_two_shelves_that_hold_only_planned_resources_moves_those():
    from game.rules.actions import ReqSwapShelves
    g, me = _crowded()
    g.market[:4] = ["Shield", "Shield", "Zero", "Zero"]
    p = g.player(me)
    p.shelves[1].content, p.shelves[2].content = {}, {}
    sh = shadow_game(player_view(g, me), CFG, me)
    plan = MarketPlan.start(sh, sh.player(me), True, 0)
    s1, s2, s3 = (s.id for s in sh.player(me).shelves)
    (where,) = plan.placement()
    other = s3 if where != s3 else s2
    plan.rearrange(ReqSwapShelves(where, other))
    assert plan.placement() == {other: {"Shield": 2}}
    assert plan.moves == [] and plan.discarded == 0          # nothing to send for that
    with pytest.raises(ValueError):                          # two do not fit the 1-shelf
        plan.rearrange(ReqSwapShelves(other, s1))
    assert plan.placement() == {other: {"Shield": 2}}
