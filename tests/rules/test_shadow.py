"""A game rebuilt from a player's view offers that player exactly the engine's legal choices."""
import random

import pytest

from game.rules import Game, default_config, player_view
from game.rules.choices import affordable_cards, legal_actions, market_lines, runnable_productions
from game.rules.playout import steps
from game.rules.shadow import shadow_game

CFG = default_config()


@pytest.mark.parametrize("nicks", [["A"], ["A", "B"], ["A", "B", "C", "D"]])
@pytest.mark.parametrize("seed", range(4))
def test_shadow_game_offers_the_same_choices(nicks, seed):
    g = Game.new(CFG, nicks, seed)
    rng = random.Random(seed)
    compared = 0
    for nick, action in steps(g, rng):
        g.apply(nick, action)
        if g.ended:
            break
        me = g.current_player.nickname if g.phase == "play" else nick
        shadow = shadow_game(player_view(g, me), CFG, me)
        assert [a.to_dict() for a in legal_actions(shadow, me)] == [a.to_dict() for a in legal_actions(g, me)]
        p, q = g.player(me), shadow.player(me)
        assert affordable_cards(shadow, q) == affordable_cards(g, p)
        assert market_lines(shadow, q) == market_lines(g, p)
        assert [x.id for x in runnable_productions(shadow, q)] == [x.id for x in runnable_productions(g, p)]
        assert shadow.score(me) == g.score(me)
        compared += 1
    assert compared > 10


def test_shadow_game_hides_what_the_player_cannot_see():
    g = Game.new(CFG, ["A", "B"], 3)
    view = player_view(g, "A")
    shadow = shadow_game(view, CFG, "A")
    assert shadow.player("B").hand == []          # B's leaders in hand are secret
    assert shadow.player("A").hand == g.player("A").hand
    for color in CFG.colors:
        for lv in CFG.levels:
            deck = shadow.decks[color][lv]
            assert len(deck) == len(g.decks[color][lv]) and len(set(deck)) <= 1   # only the top card is known


@pytest.mark.parametrize("nicks", [["ada"], ["ada", "bea"]])
def test_a_seat_with_nothing_to_choose_is_never_offered_an_empty_choice(nicks):
    """The reference server leaves ``hasChosenResources`` false for a seat with no starting
    resource; a client deciding from that view (the playouts' ``choose``, a bot) sent a pointless
    ``ReqChooseResources`` of nothing. After the leaders, such a seat has nothing left to do."""
    from game.rules.actions import ReqChooseLeaders, ReqChooseResources
    from game.rules.playout import choose
    cfg = default_config()
    game = Game.new(cfg, nicks, 5)
    first = next(p for p in game.players if p.bonus == 0)
    game.apply(first.nickname, ReqChooseLeaders(tuple(first.hand[:cfg.leaders_kept])))
    view = player_view(game, first.nickname)
    for p in view["players"]:                      # as the reference sends it
        if not p["setup"]["initialResources"]:
            p["setup"]["hasChosenResources"] = False
    shadow = shadow_game(view, cfg, first.nickname)
    assert not [a for a in legal_actions(shadow, first.nickname) if isinstance(a, ReqChooseResources)]
    assert not isinstance(choose(shadow, first.nickname, random.Random(1)), ReqChooseResources)
    shadow.player(first.nickname).chose_resources = False        # even a game that says so offers none
    assert not [a for a in legal_actions(shadow, first.nickname) if isinstance(a, ReqChooseResources)]
