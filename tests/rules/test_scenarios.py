"""Acceptance tests: scenarios S01-S50 of ``shared/reference/scenarios.md``, one by one.

Each test builds the scenario's "Given" with :mod:`builders`, sends the "When" through
``Game.apply`` and checks every "Then". "Rejected" cases assert the exact error type (and its
protocol fields where they matter) and that ``g.snapshot()`` did not change.

Seats follow the scenarios: ``A, B, C, D = names(g)`` are seats 1-4 in turn order (A has the
inkwell). Rows, columns and slots are 1-based in the builders, as in the scenario text.
"""
from __future__ import annotations

import pytest

from builders import (CFG, DOWN, M0, M1, REMOVED, UP, buy, card_id, cid, deck_sizes, give_cards,
                      give_leader, market_rows, names, neutral_main, neutral_turn, of_type,
                      pay_cost, play_game, player, prod, produce, put_on_top, refused, set_deck,
                      set_depot, set_faith, set_favors, set_market, set_reports, set_shelves,
                      set_strongbox, set_tokens, slide_letter, storage, take_col, take_row, token_id,
                      turn_to)
from game.rules.actions import (ProductionRequest, ReqChooseLeaders,
                                ReqChooseResources, ReqEndTurn, ReqLeaderAction, ReqMoveResources,
                                ReqSwapShelves)
from game.rules.engine import Game, Score, Termination
from game.rules.errors import (ErrAction, ErrActiveLeaderDiscarded, ErrBuyDevCard, ErrCardRequirements,
                               ErrInitialChoice, ErrInvalidResourceTransaction, ErrObjectNotOwned,
                               ErrReplacedTransRecipe, ErrResourceTransfer)

EMPTY = {"D1": {}, "D2": {}, "D3": {}, "SB": {}}


def faiths(g: Game) -> list[int]:
    return [p.faith for p in g.players]


def faith_and_reports(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] in ("UpdateFaithPoints", "UpdateVaticanSection")]


# ============================================================================ Market


def test_s01_take_a_row_no_leaders_red_and_white_marble():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)
    set_faith(g, 0, 0)

    events = g.apply(A, take_row(g, A, 3, D1={"Stone": 1}, D2={"Coin": 1}))

    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {"Coin": 1}, "D3": {}, "SB": {}}
    assert faiths(g) == [1, 0]
    assert market_rows(g) == ["W Y G B", "B P P W", "Y W R W"] and slide_letter(g) == "G"
    assert of_type(events, "UpdateFaithPoints") == [
        {"player": A, "isBlackCross": False, "faithPoints": 1, "type": "UpdateFaithPoints"}]
    assert events[-1] == {"action": "TAKE_MARKET_RESOURCES", "player": A, "type": "UpdateAction"}


def test_s02_take_a_column_pushes_from_the_bottom():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)

    g.apply(A, take_col(g, A, 2, D1={"Servant": 1}, D2={"Coin": 2}))

    assert storage(g, A) == {"D1": {"Servant": 1}, "D2": {"Coin": 2}, "D3": {}, "SB": {}}
    assert market_rows(g) == ["W P G B", "B Y P W", "G W W R"] and slide_letter(g) == "Y"
    assert player(g, B).faith == 0


def test_s03_rulebook_market_example():
    g = play_game(2)
    A, B = names(g)
    set_market(g, ["W P B R", "P G W W", "W G Y Y"], slide="B")

    g.apply(A, take_row(g, A, 3, D1={"Stone": 1}, D2={"Coin": 2}))

    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {"Coin": 2}, "D3": {}, "SB": {}}
    assert market_rows(g) == ["W P B R", "P G W W", "G Y Y B"] and slide_letter(g) == "W"
    assert faiths(g) == [0, 0]


def test_s04_one_white_marble_leader_converts_automatically():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)
    give_leader(g, A, "leader_white_marble_shield")

    g.apply(A, take_row(g, A, 2, replacements={}, D2={"Shield": 2}, D3={"Servant": 2}))

    assert storage(g, A) == {"D1": {}, "D2": {"Shield": 2}, "D3": {"Servant": 2}, "SB": {}}
    assert market_rows(g)[1] == "P P W W" and slide_letter(g) == "B"
    assert faiths(g) == [0, 0]  # nothing was discarded


def test_s05_two_white_marble_leaders_one_choice_per_white():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M1)
    give_leader(g, A, "leader_white_marble_coin")
    give_leader(g, A, "leader_white_marble_stone")

    # rejected: 6 resources from 3 whites
    err = refused(g, A, take_row(g, A, 1, {"Coin": 3, "Stone": 3}), ErrReplacedTransRecipe)
    assert err.to_dict() == {"isInput": False, "resType": "", "replacedCount": 3, "shelvesChoiceResCount": 6,
                             "isIllegalDiscardedOut": False, "type": "ErrReplacedTransRecipe"}
    # rejected: Shield is not a resource of either leader
    err = refused(g, A, take_row(g, A, 1, {"Shield": 3}), ErrInvalidResourceTransaction)
    assert err.to_dict() == {"isInput": False, "isReplacement": True, "reason": "EXCLUDED",
                             "type": "ErrInvalidResourceTransaction"}
    err = refused(g, A, take_row(g, A, 1, {"Coin": 2, "Shield": 1}), ErrInvalidResourceTransaction)
    # rejected: a white left unassigned (C7), or none assigned at all
    err = refused(g, A, take_row(g, A, 1, {"Coin": 2}), ErrReplacedTransRecipe)
    assert (err.fields["replacedCount"], err.fields["shelvesChoiceResCount"]) == (3, 2)
    refused(g, A, take_row(g, A, 1, {}), ErrReplacedTransRecipe)

    g.apply(A, take_row(g, A, 1, {"Coin": 2, "Stone": 1}, D2={"Coin": 2}, D3={"Stone": 2}))

    assert storage(g, A) == {"D1": {}, "D2": {"Coin": 2}, "D3": {"Stone": 2}, "SB": {}}
    assert market_rows(g)[0] == "W W G W" and slide_letter(g) == "W"
    assert faiths(g) == [0, 0]


def test_s06_white_marble_leader_in_hand_has_no_effect():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M1)
    give_leader(g, A, "leader_white_marble_coin", active=False)
    set_faith(g, 2, 3)

    refused(g, A, take_row(g, A, 1, {"Coin": 3}), ErrInvalidResourceTransaction)
    g.apply(A, take_row(g, A, 1, D1={"Stone": 1}))

    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {}, "D3": {}, "SB": {}}
    assert faiths(g) == [2, 3]


def test_s07_an_unwanted_converted_resource_is_a_discard():
    g = play_game(3)
    A, B, C = names(g)
    set_market(g, M1)
    give_leader(g, A, "leader_white_marble_servant")
    set_shelves(g, A, {"Coin": 1}, {"Shield": 2}, {"Stone": 3})
    set_faith(g, 0, 0, 1)

    err = refused(g, A, take_row(g, A, 1, D1={"Servant": 1}), ErrResourceTransfer)
    assert err.fields["resType"] == "Servant"
    g.apply(A, take_row(g, A, 1))

    assert faiths(g) == [0, 4, 5]
    assert storage(g, A) == {"D1": {"Coin": 1}, "D2": {"Shield": 2}, "D3": {"Stone": 3}, "SB": {}}


def test_s08_discards_give_faith_to_every_other_player():
    g = play_game(4)
    A, B, C, D = names(g)
    set_market(g, ["P P Y G", "B W W G", "Y B R W"], slide="W")
    set_shelves(g, A, None, {"Coin": 2}, {"Stone": 3})
    set_faith(g, 3, 2, 4, 0)

    # no placement stores more than the one Servant
    err = refused(g, A, take_row(g, A, 1, D1={"Servant": 1}, D2={"Coin": 1}), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Coin", "isAdded": True, "reason": "CAPACITY_REACHED",
                             "type": "ErrResourceTransfer"}
    refused(g, A, take_row(g, A, 1, D1={"Servant": 2}), ErrResourceTransfer)
    refused(g, A, take_row(g, A, 1, D3={"Stone": 1}), ErrResourceTransfer)

    events = g.apply(A, take_row(g, A, 1, D1={"Servant": 1}))

    assert storage(g, A) == {"D1": {"Servant": 1}, "D2": {"Coin": 2}, "D3": {"Stone": 3}, "SB": {}}
    assert faiths(g) == [3, 5, 7, 3]
    assert of_type(events, "UpdateVaticanSection") == [] and g.fired == [False, False, False]
    assert market_rows(g)[0] == "P Y G W" and slide_letter(g) == "P"


def _s09_game() -> tuple[Game, str, str]:
    g = play_game(2)
    A, B = names(g)
    set_market(g, ["Y P G W", "B W W B", "G Y P R"], slide="W")
    set_shelves(g, A, {"Servant": 1}, {"Coin": 1}, {"Stone": 3})
    set_faith(g, 0, 0)
    return g, A, B


def test_s09a_rulebook_warehouse_example_keep_the_coin():
    g, A, B = _s09_game()
    refused(g, A, take_row(g, A, 1, D1={"Servant": 1}, D2={"Coin": 1}), ErrResourceTransfer)
    refused(g, A, take_row(g, A, 1, D2={"Coin": 1, "Servant": 1}), ErrResourceTransfer)

    g.apply(A, take_row(g, A, 1, D2={"Coin": 1}))

    assert storage(g, A) == {"D1": {"Servant": 1}, "D2": {"Coin": 2}, "D3": {"Stone": 3}, "SB": {}}
    assert faiths(g) == [0, 2]


def test_s09b_rulebook_warehouse_example_keep_the_servant():
    g, A, B = _s09_game()
    g.apply(A, ReqSwapShelves(cid(g, A, "D1"), cid(g, A, "D2")))
    assert storage(g, A)["D1"] == {"Coin": 1} and storage(g, A)["D2"] == {"Servant": 1}
    refused(g, A, take_row(g, A, 1, D1={"Coin": 1}, D2={"Servant": 1}), ErrResourceTransfer)

    g.apply(A, take_row(g, A, 1, D2={"Servant": 1}))

    assert storage(g, A) == {"D1": {"Coin": 1}, "D2": {"Servant": 2}, "D3": {"Stone": 3}, "SB": {}}
    assert faiths(g) == [0, 2]


# ============================================================================ Warehouse


def _s10_game() -> tuple[Game, str, str]:
    g = play_game(2)
    A, B = names(g)
    set_market(g, ["W Y W W", "B P P G", "G Y B R"], slide="W")   # row 1 yields 1 Coin
    set_shelves(g, A, None, {"Coin": 1}, None)
    return g, A, B


def test_s10_no_two_warehouse_depots_hold_the_same_type():
    g, A, B = _s10_game()
    err = refused(g, A, take_row(g, A, 1, D3={"Coin": 1}), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Coin", "isAdded": True, "reason": "DUPLICATE_BOUNDED_RESOURCE",
                             "type": "ErrResourceTransfer"}

    g.apply(A, take_row(g, A, 1, D2={"Coin": 1}))
    assert storage(g, A) == {"D1": {}, "D2": {"Coin": 2}, "D3": {}, "SB": {}}


def test_s10_move_first_then_store_in_the_bigger_depot():
    g, A, B = _s10_game()
    g.apply(A, ReqSwapShelves(cid(g, A, "D2"), cid(g, A, "D3")))
    g.apply(A, take_row(g, A, 1, D3={"Coin": 1}))
    assert storage(g, A) == {"D1": {}, "D2": {}, "D3": {"Coin": 2}, "SB": {}}
    assert faiths(g) == [0, 0]


def test_s11_leader_depot_is_exempt_from_the_distinct_type_rule():
    g = play_game(2)
    A, B = names(g)
    set_market(g, ["Y Y G W", "B W W B", "G P P R"], slide="W")
    give_leader(g, A, "leader_depot_coin")
    set_shelves(g, A, None, {"Coin": 2}, None)

    err = refused(g, A, take_row(g, A, 1, LD_Coin={"Stone": 1}, D1={}), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Stone", "isAdded": True, "reason": "BOUNDED_RESTYPE_DIFFER",
                             "type": "ErrResourceTransfer"}

    g.apply(A, take_row(g, A, 1, LD_Coin={"Coin": 2}, D1={"Stone": 1}))

    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {"Coin": 2}, "D3": {}, "SB": {},
                             "LD_Coin": {"Coin": 2}}
    assert faiths(g) == [0, 0]


def test_s11_variant_strongbox_coin_cannot_move_into_the_leader_depot():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_depot_coin")
    set_strongbox(g, A, {"Coin": 1})
    sb, ld = cid(g, A, "SB"), cid(g, A, "LD_Coin")

    err = refused(g, A, ReqMoveResources(sb, ld, "Coin", 1), ErrObjectNotOwned)
    assert err.to_dict() == {"id": sb, "objectType": "Shelf", "type": "ErrObjectNotOwned"}
    refused(g, A, ReqSwapShelves(sb, ld), ErrObjectNotOwned)


# ============================================================================ Setup


def test_s12_bonus_resources_and_faith_by_seat():
    g = Game.new(CFG, ["ann", "ben", "cat", "dan"], seed=5)
    A, B, C, D = names(g)
    assert [p.bonus for p in g.players] == [0, 1, 1, 2]
    assert faiths(g) == [0, 0, 1, 1]
    for p in g.players:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
    assert g.phase == "setup"

    # D's 2 Shields must share one depot
    err = refused(g, D, ReqChooseResources({cid(g, D, "D1"): {"Shield": 1}, cid(g, D, "D2"): {"Shield": 1}}),
                  ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Shield", "isAdded": True, "reason": "DUPLICATE_BOUNDED_RESOURCE",
                             "type": "ErrResourceTransfer"}
    refused(g, D, ReqChooseResources({cid(g, D, "D1"): {"Shield": 2}}), ErrResourceTransfer)
    # Faith is not a resource; the strongbox is not for bonus resources
    err = refused(g, B, ReqChooseResources({cid(g, B, "D1"): {"Faith": 1}}), ErrInvalidResourceTransaction)
    assert err.fields["reason"] == "ILLEGAL_NON_STORABLE"
    err = refused(g, B, ReqChooseResources({cid(g, B, "SB"): {"Coin": 1}}), ErrObjectNotOwned)
    assert err.to_dict() == {"id": cid(g, B, "SB"), "objectType": "Shelf", "type": "ErrObjectNotOwned"}

    g.apply(B, ReqChooseResources({cid(g, B, "D1"): {"Coin": 1}}))
    g.apply(C, ReqChooseResources({cid(g, C, "D3"): {"Servant": 1}}))
    assert g.phase == "setup"
    g.apply(D, ReqChooseResources({cid(g, D, "D2"): {"Shield": 2}}))

    assert g.phase == "play" and g.current == 0
    assert storage(g, A) == EMPTY
    assert storage(g, B) == {"D1": {"Coin": 1}, "D2": {}, "D3": {}, "SB": {}}
    assert storage(g, C) == {"D1": {}, "D2": {}, "D3": {"Servant": 1}, "SB": {}}
    assert storage(g, D) == {"D1": {}, "D2": {"Shield": 2}, "D3": {}, "SB": {}}
    assert faiths(g) == [0, 0, 1, 1]


def test_s12_fourth_seat_may_put_two_shields_in_d3():
    g = Game.new(CFG, ["ann", "ben", "cat", "dan"], seed=5)
    D = names(g)[3]
    g.apply(D, ReqChooseResources({cid(g, D, "D3"): {"Shield": 2}}))
    assert storage(g, D)["D3"] == {"Shield": 2}


def test_s12_solo_player_gets_nothing():
    g = Game.new(CFG, ["solo"], seed=5)
    p = g.players[0]
    assert (p.bonus, p.faith, g.black_cross) == (0, 0, 0)
    g.apply("solo", ReqChooseLeaders(tuple(p.hand[:2])))
    assert g.phase == "play"
    assert storage(g, "solo") == EMPTY
    assert (p.faith, g.black_cross) == (0, 0)


def test_s13_leader_draft():
    g = Game.new(CFG, ["ann", "ben"], seed=3)
    A, B = names(g)
    pa, pb = player(g, A), player(g, B)
    dealt = list(pa.hand)
    assert len(dealt) == 4 and len(set(dealt) | set(pb.hand)) == 8

    err = refused(g, A, ReqChooseLeaders((dealt[0],)), ErrInitialChoice)
    assert err.to_dict() == {"isLeadersChoice": True, "missingLeadersCount": 1, "type": "ErrInitialChoice"}
    err = refused(g, A, ReqChooseLeaders(tuple(dealt[:3])), ErrInitialChoice)
    assert err.to_dict() == {"isLeadersChoice": True, "missingLeadersCount": -1, "type": "ErrInitialChoice"}
    err = refused(g, A, ReqChooseLeaders((dealt[0], pb.hand[0])), ErrObjectNotOwned)
    assert err.to_dict() == {"id": pb.hand[0], "objectType": "LeaderCard", "type": "ErrObjectNotOwned"}

    g.apply(A, ReqChooseLeaders((dealt[1], dealt[3])))
    assert pa.hand == [dealt[1], dealt[3]] and pa.active_leaders == []
    g.apply(B, ReqChooseLeaders(tuple(pb.hand[:2])))
    g.apply(B, ReqChooseResources({cid(g, B, "D1"): {"Stone": 1}}))
    assert g.phase == "play"
    # the two cards not kept left the game and gave no faith
    assert faiths(g) == [0, 0]
    assert all(dealt[i] not in q.hand for i in (0, 2) for q in g.players)
    refused(g, A, ReqLeaderAction(dealt[0], False), ErrObjectNotOwned)
    refused(g, A, ReqLeaderAction(dealt[2], True), ErrObjectNotOwned)


# ============================================================================ Buying cards


def test_s14_discount_leader():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_discount_shield")
    give_cards(g, A, [["dev_green_l1_vp1"]])
    set_shelves(g, A, None, {"Shield": 2}, {"Coin": 3})
    put_on_top(g, "dev_green_l2_vp8")

    refused(g, A, buy(g, A, "Green", 2, 1, D2={"Shield": 2}, D3={"Coin": 2}), ErrReplacedTransRecipe)
    g.apply(A, buy(g, A, "Green", 2, 1, D2={"Shield": 2}, D3={"Coin": 3}))

    assert storage(g, A) == EMPTY
    assert player(g, A).slots[0] == [card_id("dev_green_l1_vp1"), card_id("dev_green_l2_vp8")]
    assert g.score(A).cards == 9


def test_s15_discount_on_a_resource_the_card_does_not_cost_does_nothing():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_discount_servant")
    set_shelves(g, A, None, None, {"Coin": 3})
    put_on_top(g, "dev_blue_l1_vp3")

    err = refused(g, A, buy(g, A, "Blue", 1, 1, D3={"Coin": 2}), ErrReplacedTransRecipe)
    assert err.to_dict() == {"isInput": True, "resType": "Coin", "replacedCount": 3, "shelvesChoiceResCount": 2,
                             "isIllegalDiscardedOut": False, "type": "ErrReplacedTransRecipe"}
    g.apply(A, buy(g, A, "Blue", 1, 1, D3={"Coin": 3}))

    assert storage(g, A) == EMPTY
    assert player(g, A).slots[0] == [card_id("dev_blue_l1_vp3")]


def test_s16_two_discounts_stack_and_never_go_below_zero():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_discount_coin")
    give_leader(g, A, "leader_discount_stone")
    p = player(g, A)
    assert g.card_cost(p, CFG.dev_cards[card_id("dev_blue_l3_vp12")]) == {"Coin": 3, "Stone": 3}
    assert g.card_cost(p, CFG.dev_cards[card_id("dev_blue_l1_vp2")]) == {"Servant": 1}

    put_on_top(g, "dev_blue_l1_vp2")
    set_strongbox(g, A, {"Servant": 1})
    g.apply(A, buy(g, A, "Blue", 1, 1, SB={"Servant": 1}))
    assert storage(g, A) == EMPTY and p.slots[0] == [card_id("dev_blue_l1_vp2")]


def test_s16_level_three_card_bought_at_the_discounted_cost():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_discount_coin")
    give_leader(g, A, "leader_discount_stone")
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5"]])
    put_on_top(g, "dev_blue_l3_vp12")
    set_strongbox(g, A, {"Coin": 3, "Stone": 3})

    g.apply(A, buy(g, A, "Blue", 3, 1, SB={"Coin": 3, "Stone": 3}))

    assert storage(g, A) == EMPTY
    assert player(g, A).slots[0][-1] == card_id("dev_blue_l3_vp12")


RICH = {"Coin": 20, "Servant": 20, "Shield": 20, "Stone": 20}


def _s17_game() -> tuple[Game, str]:
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1"], [], ["dev_purple_l1_vp2", "dev_blue_l2_vp6"]])
    set_strongbox(g, A, RICH)
    return g, A


def test_s17_placement_depends_only_on_level_rejections():
    g, A = _s17_game()
    for level, bad_slots in ((1, (1, 3)), (2, (2, 3)), (3, (1, 2))):
        for slot in bad_slots:
            err = refused(g, A, pay_cost(g, A, "Yellow", level, slot), ErrBuyDevCard)
            assert err.to_dict() == {"isStackEmpty": False, "type": "ErrBuyDevCard"}


@pytest.mark.parametrize("level, slot", [(1, 2), (2, 1), (3, 3)])
@pytest.mark.parametrize("color", ["Green", "Blue", "Yellow", "Purple"])
def test_s17_placement_depends_only_on_level_accepted(color, level, slot):
    g, A = _s17_game()
    top = g.top_card(color, level).id
    before = [list(s) for s in player(g, A).slots]
    g.apply(A, pay_cost(g, A, color, level, slot))
    before[slot - 1].append(top)
    assert player(g, A).slots == before


def _s18_game() -> tuple[Game, str]:
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1"], ["dev_blue_l1_vp1"], ["dev_yellow_l1_vp1"]])
    set_strongbox(g, A, RICH)
    put_on_top(g, "dev_purple_l2_vp5")
    return g, A


def test_s18_level_one_card_cannot_be_bought_with_every_slot_occupied():
    g, A = _s18_game()
    for color in CFG.colors:
        for slot in (1, 2, 3):
            err = refused(g, A, pay_cost(g, A, color, 1, slot), ErrBuyDevCard)
            assert err.fields == {"isStackEmpty": False}


@pytest.mark.parametrize("slot", [1, 2, 3])
def test_s18_level_two_card_fits_on_any_level_one(slot):
    g, A = _s18_game()
    g.apply(A, buy(g, A, "Purple", 2, slot, SB={"Servant": 4}))
    assert player(g, A).slots[slot - 1][-1] == card_id("dev_purple_l2_vp5")
    assert storage(g, A)["SB"]["Servant"] == 16


def _s19_game(sb_coins: int) -> tuple[Game, str]:
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_coin")
    set_shelves(g, A, None, None, {"Coin": 3})
    set_depot(g, "Coin", {"Coin": 1})
    set_strongbox(g, A, {"Coin": sb_coins})
    give_cards(g, A, [["dev_blue_l1_vp1"]])
    put_on_top(g, "dev_blue_l2_vp7")
    return g, A


def test_s19_payment_combines_depots_leader_depot_and_strongbox():
    g, A = _s19_game(sb_coins=1)
    g.apply(A, buy(g, A, "Blue", 2, 1, D3={"Coin": 3}, LD_Coin={"Coin": 1}, SB={"Coin": 1}))
    assert storage(g, A) == {**EMPTY, "LD_Coin": {}}
    assert player(g, A).slots[0] == [card_id("dev_blue_l1_vp1"), card_id("dev_blue_l2_vp7")]


def test_s19_variant_four_coins_are_not_enough():
    g, A = _s19_game(sb_coins=0)
    err = refused(g, A, buy(g, A, "Blue", 2, 1, D3={"Coin": 3}, LD_Coin={"Coin": 1}), ErrCardRequirements)
    assert err.to_dict() == {"missingResources": {"Coin": 1}, "type": "ErrCardRequirements"}


# ============================================================================ Production


def test_s20_rulebook_production_example():
    g = play_game(2)
    A, B = names(g)
    set_shelves(g, A, {"Stone": 1}, {"Shield": 2}, {"Coin": 3})
    set_strongbox(g, A, {"Servant": 1, "Stone": 1})
    set_faith(g, 0, 0)
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp6"], ["dev_purple_l1_vp4"], ["dev_purple_l1_vp3"]])

    err = refused(g, A, produce(prod(g, A, "dev_green_l1_vp1", D3={"Coin": 1})), ErrObjectNotOwned)
    assert err.to_dict() == {"id": CFG.dev_cards[card_id("dev_green_l1_vp1")].production.id,
                             "objectType": "ReducedProductionRequest", "type": "ErrObjectNotOwned"}

    g.apply(A, produce(prod(g, A, "dev_green_l2_vp6", D2={"Shield": 1}, SB={"Servant": 1}),
                       prod(g, A, "dev_purple_l1_vp4", D3={"Coin": 1}, D2={"Shield": 1}),
                       prod(g, A, "dev_purple_l1_vp3", D3={"Coin": 2})))

    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {}, "D3": {},
                             "SB": {"Stone": 7, "Servant": 1, "Shield": 1}}
    assert faiths(g) == [1, 0]


def test_s21_outputs_cannot_pay_another_production_in_the_same_action():
    g = play_game(2)
    A = names(g)[0]
    set_shelves(g, A, {"Shield": 1})
    give_cards(g, A, [["dev_yellow_l1_vp2"], ["dev_purple_l1_vp2"]])

    err = refused(g, A, produce(prod(g, A, "dev_yellow_l1_vp2", D1={"Shield": 1}),
                                prod(g, A, "dev_purple_l1_vp2", SB={"Coin": 1})), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Coin", "isAdded": False, "reason": "CAPACITY_REACHED",
                             "type": "ErrResourceTransfer"}

    g.apply(A, produce(prod(g, A, "dev_yellow_l1_vp2", D1={"Shield": 1})))
    assert storage(g, A) == {"D1": {}, "D2": {}, "D3": {}, "SB": {"Coin": 1}}


def test_s22_base_production():
    g = play_game(2)
    A = names(g)[0]
    set_shelves(g, A, None, {"Coin": 1}, {"Stone": 1})

    err = refused(g, A, produce(prod(g, A, "base", {"Faith": 1}, D2={"Coin": 1}, D3={"Stone": 1})),
                  ErrInvalidResourceTransaction)
    assert err.to_dict() == {"isInput": False, "isReplacement": True, "reason": "ILLEGAL_NON_STORABLE",
                             "type": "ErrInvalidResourceTransaction"}
    refused(g, A, produce(prod(g, A, "base", {"Servant": 1}, D2={"Coin": 1}, D3={"Faith": 1})),
            ErrInvalidResourceTransaction)
    refused(g, A, produce(ProductionRequest(CFG.base_production.id, {cid(g, A, "D2"): {"Coin": 1}},
                                            {"Faith": 1}, {"Servant": 1})), ErrInvalidResourceTransaction)

    g.apply(A, produce(prod(g, A, "base", {"Servant": 1}, D2={"Coin": 1}, D3={"Stone": 1})))
    assert storage(g, A) == {"D1": {}, "D2": {}, "D3": {}, "SB": {"Servant": 1}}


def test_s22_base_production_twice_in_one_action():
    g = play_game(2)
    A = names(g)[0]
    set_strongbox(g, A, {"Coin": 4})
    err = refused(g, A, produce(prod(g, A, "base", {"Servant": 1}, SB={"Coin": 2}),
                                prod(g, A, "base", {"Servant": 1}, SB={"Coin": 2})), ErrObjectNotOwned)
    assert err.to_dict() == {"id": CFG.base_production.id, "objectType": "ReducedProductionRequest",
                             "type": "ErrObjectNotOwned"}


def test_s23_extra_production_leader():
    g = play_game(2)
    A, B = names(g)
    give_leader(g, A, "leader_production_shield")
    set_shelves(g, A, None, {"Shield": 2})
    set_faith(g, 3, 0)

    err = refused(g, A, produce(prod(g, A, "leader_production_shield", {"Faith": 1}, D2={"Shield": 1})),
                  ErrInvalidResourceTransaction)
    assert err.fields["reason"] == "ILLEGAL_NON_STORABLE"

    g.apply(A, produce(prod(g, A, "leader_production_shield", {"Coin": 1}, D2={"Shield": 1})))
    assert storage(g, A) == {"D1": {}, "D2": {"Shield": 1}, "D3": {}, "SB": {"Coin": 1}}
    assert faiths(g) == [4, 0]


def test_s24_covered_cards_and_repeated_productions_are_refused():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5"]])
    set_strongbox(g, A, {"Coin": 5, "Stone": 5})
    set_faith(g, 0, 0)

    refused(g, A, produce(prod(g, A, "dev_green_l1_vp1", SB={"Coin": 1})), ErrObjectNotOwned)
    refused(g, A, produce(prod(g, A, "dev_green_l2_vp5", SB={"Stone": 1}),
                          prod(g, A, "dev_green_l2_vp5", SB={"Stone": 1})), ErrObjectNotOwned)

    g.apply(A, produce(prod(g, A, "dev_green_l2_vp5", SB={"Stone": 1})))
    assert storage(g, A)["SB"] == {"Coin": 5, "Stone": 4}
    assert faiths(g) == [2, 0]


# ============================================================================ Leaders


def test_s25_case1_card_requirement_missing_green():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_white_marble_coin", active=False)
    give_cards(g, A, [["dev_purple_l1_vp1", "dev_purple_l2_vp5"]])
    err = refused(g, A, ReqLeaderAction(lid, True), ErrCardRequirements)
    assert err.to_dict() == {"missingDevCards": [{"color": "Green", "quantity": 1, "level": 0}],
                             "type": "ErrCardRequirements"}


def test_s25_case2_covered_cards_count_and_levels_add_up():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_white_marble_coin", active=False)
    give_cards(g, A, [["dev_purple_l1_vp1", "dev_purple_l2_vp5"], ["dev_green_l1_vp2"]])
    events = g.apply(A, ReqLeaderAction(lid, True))
    assert player(g, A).active_leaders == [lid]
    assert {"leader": lid, "player": A, "type": "UpdateActivateLeader"} in events
    assert events[-1] == {"action": "ACTIVATE_LEADER", "player": A, "type": "UpdateAction"}


def test_s26_case1_production_leader_needs_a_level_two_card_of_its_colour():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_production_coin", active=False)
    give_cards(g, A, [["dev_green_l1_vp1", "dev_blue_l2_vp5"]])
    err = refused(g, A, ReqLeaderAction(lid, True), ErrCardRequirements)
    assert err.to_dict() == {"missingDevCards": [{"color": "Green", "quantity": 1, "level": 2}],
                             "type": "ErrCardRequirements"}


def test_s26_case2_covered_green_level_two_counts():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_production_coin", active=False)
    give_cards(g, A, [["dev_blue_l1_vp1", "dev_green_l2_vp5", "dev_yellow_l3_vp9"]])
    g.apply(A, ReqLeaderAction(lid, True))
    assert player(g, A).active_leaders == [lid]


def test_s27_case1_resource_requirement_is_checked_not_paid():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_depot_coin", active=False)
    set_shelves(g, A, None, None, {"Shield": 3})
    set_strongbox(g, A, {"Shield": 2})

    g.apply(A, ReqLeaderAction(lid, True))

    assert storage(g, A) == {"D1": {}, "D2": {}, "D3": {"Shield": 3}, "SB": {"Shield": 2}, "LD_Coin": {}}
    ld = g.leader_depot[lid]
    assert ld.owner == player(g, A).seat and ld.capacity == 2 and ld.bound == "Coin"


def test_s27_case2_one_shield_short():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_depot_coin", active=False)
    set_shelves(g, A, None, None, {"Shield": 3})
    set_strongbox(g, A, {"Shield": 1})
    err = refused(g, A, ReqLeaderAction(lid, True), ErrCardRequirements)
    assert err.to_dict() == {"missingResources": {"Shield": 1}, "type": "ErrCardRequirements"}


def test_s28_discarding_a_leader_gives_faith_and_can_trigger_a_report():
    g = play_game(2)
    A, B = names(g)
    discount = give_leader(g, A, "leader_discount_coin", active=False)
    depot_stone = give_leader(g, A, "leader_depot_stone")
    set_faith(g, 7, 5)

    events = g.apply(A, ReqLeaderAction(discount, False))

    assert faiths(g) == [8, 5]
    assert faith_and_reports(events) == [
        {"player": A, "isBlackCross": False, "faithPoints": 8, "type": "UpdateFaithPoints"},
        {"vaticanSection": 0, "bonusGivenPlayers": [A, B], "type": "UpdateVaticanSection"}]
    assert player(g, A).favors[0] == UP and player(g, B).favors[0] == UP
    assert player(g, A).hand == [depot_stone] == player(g, A).active_leaders  # nothing left in hand
    assert events[-1] == {"action": "DISCARD_LEADER", "player": A, "type": "UpdateAction"}

    err = refused(g, A, ReqLeaderAction(depot_stone, False), ErrActiveLeaderDiscarded)
    assert err.to_dict() == {"type": "ErrActiveLeaderDiscarded"}


# ============================================================================ Faith track


def _s29_game() -> tuple[Game, str, str, str, list[dict]]:
    g = play_game(3)
    A, B, C = names(g)
    set_market(g, ["W R W W", "B G Y P", "P Y G B"], slide="W")
    set_faith(g, 7, 6, 4)
    events = g.apply(A, take_row(g, A, 1))
    return g, A, B, C, events


def test_s29_rulebook_vatican_example():
    g, A, B, C, events = _s29_game()
    assert faiths(g) == [8, 6, 4]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 0, "bonusGivenPlayers": [A, B], "type": "UpdateVaticanSection"}]
    assert [player(g, x).favors[0] for x in (A, B, C)] == [UP, UP, REMOVED]
    assert g.fired == [True, False, False]


def test_s30_each_report_happens_only_once():
    g, A, B, C, _ = _s29_game()
    turn_to(g, C)
    give_cards(g, C, [["dev_green_l1_vp1", "dev_green_l2_vp5"], ["dev_blue_l1_vp1", "dev_blue_l2_vp5"],
                      ["dev_purple_l1_vp1"]])
    set_strongbox(g, C, {"Stone": 2, "Servant": 1})

    events = g.apply(C, produce(prod(g, C, "dev_green_l2_vp5", SB={"Stone": 1}),
                                prod(g, C, "dev_blue_l2_vp5", SB={"Servant": 1}),
                                prod(g, C, "dev_purple_l1_vp1", SB={"Stone": 1})))

    assert player(g, C).faith == 9
    assert of_type(events, "UpdateVaticanSection") == []
    assert player(g, C).favors == [REMOVED, DOWN, DOWN]
    assert g.fired == [True, False, False]
    assert g.score(C).faith_track == 4


def test_s31_one_movement_past_two_pope_spaces_fires_both_reports_in_order():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 7, 7, 4)
    give_cards(g, A, [["dev_yellow_l1_vp1", "dev_yellow_l2_vp5", "dev_green_l3_vp11"],
                      ["dev_blue_l1_vp1", "dev_blue_l2_vp5", "dev_blue_l3_vp11"], ["dev_purple_l1_vp1"]])
    give_leader(g, A, "leader_production_shield")
    give_leader(g, A, "leader_production_servant")
    set_strongbox(g, A, {"Servant": 2, "Stone": 2, "Shield": 1})

    events = g.apply(A, produce(prod(g, A, "dev_green_l3_vp11", SB={"Servant": 1}),
                                prod(g, A, "dev_blue_l3_vp11", SB={"Stone": 1}),
                                prod(g, A, "dev_purple_l1_vp1", SB={"Stone": 1}),
                                prod(g, A, "leader_production_shield", {"Coin": 1}, SB={"Shield": 1}),
                                prod(g, A, "leader_production_servant", {"Coin": 1}, SB={"Servant": 1})))

    assert storage(g, A)["SB"] == {"Coin": 3, "Shield": 1}
    assert faiths(g) == [16, 7, 4]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 0, "bonusGivenPlayers": [A, B], "type": "UpdateVaticanSection"},
        {"vaticanSection": 2, "bonusGivenPlayers": [A], "type": "UpdateVaticanSection"}]
    assert player(g, A).favors == [UP, UP, DOWN]
    assert player(g, B).favors == [UP, REMOVED, DOWN]
    assert player(g, C).favors == [REMOVED, REMOVED, DOWN]
    assert g.fired == [True, True, False]


@pytest.mark.parametrize("position, vp", [(0, 0), (2, 0), (3, 1), (8, 2), (14, 6), (17, 9), (20, 12),
                                          (23, 16), (24, 20)])
def test_s32_faith_track_vp_is_the_highest_square_reached(position, vp):
    g = play_game(2)
    A = names(g)[0]
    set_faith(g, position)
    assert g.score(A).faith_track == vp


def test_s33_faith_is_capped_at_24():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 23, 10)
    set_reports(g, True, True)
    set_favors(g, A, UP, UP)
    set_favors(g, B, UP, REMOVED)
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5", "dev_green_l3_vp11"]])
    set_strongbox(g, A, {"Servant": 1})

    events = g.apply(A, produce(prod(g, A, "dev_green_l3_vp11", SB={"Servant": 1})))

    assert faiths(g) == [24, 10]
    assert of_type(events, "UpdateFaithPoints") == [
        {"player": A, "isBlackCross": False, "faithPoints": 24, "type": "UpdateFaithPoints"}]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 1, "bonusGivenPlayers": [A], "type": "UpdateVaticanSection"}]
    assert player(g, A).favors == [UP, UP, UP] and player(g, B).favors == [UP, REMOVED, REMOVED]
    assert g.last_round and of_type(events, "UpdateLastRound") == [{"type": "UpdateLastRound"}]
    assert g.phase == "play"  # A holds the inkwell: B still plays the final round


# ============================================================================ Scoring and end


def test_s34_rulebook_scoring_example():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp6"],
                      ["dev_purple_l1_vp4", "dev_green_l2_vp5", "dev_yellow_l3_vp12"],
                      ["dev_purple_l1_vp3"]])
    set_faith(g, 17)
    set_reports(g, True, True, False)
    set_favors(g, A, UP, UP, DOWN)
    give_leader(g, A, "leader_depot_servant")
    give_leader(g, A, "leader_discount_shield")
    set_shelves(g, A, {"Servant": 1}, {"Coin": 2}, {"Shield": 2})
    set_depot(g, "Servant", {"Servant": 2})
    set_strongbox(g, A, {"Stone": 3, "Shield": 2})

    score = g.score(A)
    assert score == Score(cards=31, faith_track=9, favors=5, leaders=5, resource_vp=2, resources=12)
    assert score.total == 52


@pytest.mark.parametrize("layout, count, vp", [
    ({"SB": {"Coin": 1, "Servant": 1, "Shield": 1, "Stone": 1}}, 4, 0),
    ({"D3": {"Coin": 3}, "SB": {"Servant": 3, "Shield": 3, "Stone": 3}}, 12, 2),
    ({"D1": {"Stone": 1}, "D2": {"Shield": 2}, "D3": {"Coin": 3}, "SB": {"Servant": 4, "Stone": 4}}, 14, 2),
    ({"D3": {"Coin": 3}, "LD": {"Coin": 2}, "SB": {"Stone": 4, "Servant": 3, "Shield": 3}}, 15, 3),
])
def test_s35_resource_vp(layout, count, vp):
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_coin")
    set_shelves(g, A, layout.get("D1"), layout.get("D2"), layout.get("D3"))
    set_depot(g, "Coin", layout.get("LD", {}))
    set_strongbox(g, A, layout.get("SB", {}))
    score = g.score(A)
    assert (score.resources, score.resource_vp) == (count, vp)


def _six_cards(g: Game, who: str, colors: tuple[str, str]) -> None:
    c1, c2 = (c.lower() for c in colors)
    give_cards(g, who, [[f"dev_{c1}_l1_vp1", f"dev_{c1}_l2_vp5", f"dev_{c1}_l3_vp9"],
                        [f"dev_{c2}_l1_vp1", f"dev_{c2}_l2_vp5", f"dev_{c2}_l3_vp9"]])
    set_strongbox(g, who, RICH)


def test_s36_seventh_card_by_seat_two_finishes_the_round():
    g = play_game(4)
    A, B, C, D = names(g)
    _six_cards(g, B, ("Green", "Blue"))
    _six_cards(g, C, ("Yellow", "Purple"))
    turn_to(g, A)  # round 9 starts
    played = []

    played.append(g.players[g.current].nickname)
    neutral_turn(g, A)
    played.append(g.players[g.current].nickname)
    events = g.apply(B, pay_cost(g, B, "Green", 1, 3))
    assert player(g, B).card_count() == 7
    assert g.last_round and {"type": "UpdateLastRound"} in events and g.phase == "play"
    g.apply(B, ReqEndTurn())
    played.append(g.players[g.current].nickname)
    g.apply(C, pay_cost(g, C, "Green", 1, 3))  # C may still buy its own 7th card
    assert player(g, C).card_count() == 7
    g.apply(C, ReqEndTurn())
    played.append(g.players[g.current].nickname)
    assert g.phase == "play"
    events = neutral_turn(g, D)

    assert played == [A, B, C, D]
    assert g.phase == "ended" and g.outcome().termination is Termination.ROUND_COMPLETED
    assert of_type(events, "UpdateGameEnd") and of_type(events, "UpdateCurrentPlayer") == []
    err = refused(g, A, take_col(g, A, 1), ErrAction)  # no 10th turn for A
    assert err.fields == {"reason": "GAME_ENDED"}


def test_s37_trigger_by_the_last_seat_ends_at_once_seventh_card():
    g = play_game(4)
    A, B, C, D = names(g)
    _six_cards(g, D, ("Green", "Blue"))
    turn_to(g, D)

    g.apply(D, pay_cost(g, D, "Yellow", 1, 3))
    assert g.last_round and g.phase == "play"
    events = g.apply(D, ReqEndTurn())

    assert g.phase == "ended" and g.outcome().termination is Termination.ROUND_COMPLETED
    assert of_type(events, "UpdateCurrentPlayer") == [] and len(of_type(events, "UpdateGameEnd")) == 1
    for who in (A, B, C, D):
        assert refused(g, who, ReqEndTurn(), ErrAction).fields == {"reason": "GAME_ENDED"}


def test_s37_trigger_by_the_last_seat_ends_at_once_faith_24():
    g = play_game(4)
    A, B, C, D = names(g)
    set_faith(g, 0, 0, 1, 22)
    set_reports(g, True, True)
    give_cards(g, D, [["dev_green_l1_vp1", "dev_green_l2_vp5"]])
    set_strongbox(g, D, {"Stone": 1})
    turn_to(g, D)

    g.apply(D, produce(prod(g, D, "dev_green_l2_vp5", SB={"Stone": 1})))
    assert player(g, D).faith == 24 and g.last_round and g.phase == "play"
    g.apply(D, ReqEndTurn())
    assert g.phase == "ended"


def test_s38_end_triggered_on_another_players_turn():
    g = play_game(3)
    A, B, C = names(g)
    set_reports(g, True, True)
    for who in (A, B, C):
        set_favors(g, who, UP, UP)
    set_faith(g, 18, 23, 20)
    set_market(g, ["W Y W W", "B P P G", "G Y B R"], slide="W")

    events = g.apply(A, take_row(g, A, 1))  # the Coin is discarded

    assert faiths(g) == [18, 24, 21]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 1, "bonusGivenPlayers": [B, C], "type": "UpdateVaticanSection"}]
    assert [player(g, x).favors[2] for x in (A, B, C)] == [REMOVED, UP, UP]
    assert g.last_round and g.phase == "play"
    g.apply(A, ReqEndTurn())
    assert g.current == 1
    neutral_turn(g, B)
    assert g.current == 2 and g.phase == "play"
    neutral_turn(g, C)
    assert g.phase == "ended"


def _s39_game(a_faith: int, a_coins: int) -> tuple[Game, str, str, str]:
    g = play_game(3)
    A, B, C = names(g)
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp8", "dev_green_l3_vp12"],
                      ["dev_blue_l1_vp1", "dev_blue_l2_vp7", "dev_blue_l3_vp12"]])
    give_cards(g, B, [["dev_yellow_l1_vp1", "dev_yellow_l2_vp8", "dev_yellow_l3_vp12"],
                      ["dev_purple_l1_vp1", "dev_purple_l2_vp7", "dev_purple_l3_vp12"]])
    give_cards(g, C, [["dev_green_l1_vp2", "dev_green_l2_vp7", "dev_green_l3_vp11"],
                      ["dev_blue_l1_vp2", "dev_blue_l2_vp8", "dev_blue_l3_vp11"]])
    give_leader(g, A, "leader_production_shield")
    give_leader(g, B, "leader_production_servant")
    give_leader(g, C, "leader_production_stone")
    set_faith(g, a_faith, 0, 0)
    set_strongbox(g, A, {"Coin": a_coins})
    set_strongbox(g, B, {"Coin": 11})
    g.last_round = True
    turn_to(g, C)
    neutral_turn(g, C)
    assert g.phase == "ended"
    return g, A, B, C


def test_s39_tie_break_on_remaining_resources():
    g, A, B, C = _s39_game(a_faith=3, a_coins=8)
    out = g.outcome()
    assert {n: (s.total, s.resources) for n, s in out.scores.items()} == {A: (47, 8), B: (47, 11), C: (45, 0)}
    assert out.winners == (B,) and not out.lorenzo_won


def test_s39_variant_same_resources_share_the_victory():
    g, A, B, C = _s39_game(a_faith=0, a_coins=11)
    out = g.outcome()
    assert {n: (s.total, s.resources) for n, s in out.scores.items()} == {A: (47, 11), B: (47, 11), C: (45, 0)}
    assert out.winners == (A, B)


# ============================================================================ Turn structure


def test_s40_one_main_action_leader_actions_before_and_after_rearranging():
    g = play_game(2)
    A, B = names(g)
    lid = give_leader(g, A, "leader_depot_shield", active=False)   # needs 5 Servant
    set_strongbox(g, A, {"Servant": 5})
    set_shelves(g, A, {"Coin": 1}, {"Stone": 2})
    d1, d2, d3, sb = (cid(g, A, n) for n in ("D1", "D2", "D3", "SB"))

    assert refused(g, A, ReqEndTurn(), ErrAction).fields == {"reason": "EARLY_TURN_END"}
    err = refused(g, A, ReqSwapShelves(d1, d2), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Stone", "isAdded": True, "reason": "CAPACITY_REACHED",
                             "type": "ErrResourceTransfer"}
    g.apply(A, ReqMoveResources(d1, d3, "Coin", 1))
    assert storage(g, A) == {"D1": {}, "D2": {"Stone": 2}, "D3": {"Coin": 1}, "SB": {"Servant": 5}}
    neutral_main(g, A)
    assert refused(g, A, pay_cost(g, A, "Green", 1, 1), ErrAction).fields == {"reason": "LATE_MANDATORY_ACTION"}
    g.apply(A, ReqLeaderAction(lid, True))
    assert player(g, A).active_leaders == [lid]
    refused(g, A, ReqMoveResources(sb, d1, "Servant", 1), ErrObjectNotOwned)
    events = g.apply(A, ReqEndTurn())
    assert g.current == 1 and {"player": B, "type": "UpdateCurrentPlayer"} in events


# ============================================================================ Solo mode


def solo_game(seed: int = 1) -> tuple[Game, str]:
    g = play_game(1, seed)
    return g, names(g)[0]


def test_s41_discards_advance_lorenzo():
    g, P = solo_game()
    set_faith(g, 2, lorenzo=3)
    set_market(g, ["Y G W W", "B P P W", "G Y B R"], slide="W")

    events = g.apply(P, take_row(g, P, 1))

    assert (g.black_cross, player(g, P).faith) == (5, 2)
    assert of_type(events, "UpdateFaithPoints") == [
        {"isBlackCross": True, "faithPoints": 5, "type": "UpdateFaithPoints"}]


@pytest.mark.parametrize("position, favor", [(4, REMOVED), (5, UP)])
def test_s42_lorenzo_triggers_a_vatican_report(position, favor):
    g, P = solo_game()
    set_faith(g, position, lorenzo=6)
    set_tokens(g, ["token_black_cross_plus2_a", "token_discard_blue", "token_discard_green",
                   "token_discard_yellow", "token_discard_purple", "token_black_cross_plus2_b",
                   "token_black_cross_plus1_shuffle"])
    neutral_main(g, P)

    events = g.apply(P, ReqEndTurn())

    assert g.black_cross == 8 and g.fired == [True, False, False]
    assert player(g, P).favors[0] == favor
    assert {"actionToken": token_id("token_black_cross_plus2_a"), "type": "UpdateActionToken"} in events
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 0, "bonusGivenPlayers": [P] if favor == UP else [], "type": "UpdateVaticanSection"}]
    assert g.phase == "play"


def test_s43_discard_token_spills_into_the_next_level():
    g, P = solo_game()
    set_deck(g, "Green", 1, 1)
    level2 = list(g.decks["Green"][2])
    assert deck_sizes(g, "Green") == (1, 4, 4)
    set_tokens(g, ["token_discard_green", "token_discard_blue", "token_discard_yellow", "token_discard_purple",
                   "token_black_cross_plus2_a", "token_black_cross_plus2_b", "token_black_cross_plus1_shuffle"])
    neutral_main(g, P)

    g.apply(P, ReqEndTurn())

    assert deck_sizes(g, "Green") == (0, 3, 4)
    assert g.decks["Green"][2] == level2[:-1]   # the top level-2 card went
    assert g.phase == "play" and g.outcome() is None


PURPLE_FIRST = ["token_discard_purple", "token_discard_blue", "token_discard_yellow", "token_discard_green",
                "token_black_cross_plus2_a", "token_black_cross_plus2_b", "token_black_cross_plus1_shuffle"]


@pytest.mark.parametrize("level3_cards", [2, 1])
def test_s44_cases_1_2_lorenzo_wins_when_a_colour_runs_out(level3_cards):
    g, P = solo_game()
    set_deck(g, "Purple", 1, 0)
    set_deck(g, "Purple", 2, 0)
    set_deck(g, "Purple", 3, level3_cards)
    set_tokens(g, PURPLE_FIRST)
    neutral_main(g, P)

    events = g.apply(P, ReqEndTurn())

    assert deck_sizes(g, "Purple") == (0, 0, 0)
    out = g.outcome()
    assert out is not None and out.lorenzo_won and out.winners == ()
    assert out.termination is Termination.LORENZO_COLOR
    assert events[-2:] == [{"type": "UpdateGameEnd"}, {"action": "END_TURN", "player": P, "type": "UpdateAction"}]


def test_s44_case3_buying_the_last_card_of_a_colour_loses_at_once():
    g, P = solo_game()
    give_cards(g, P, [["dev_green_l1_vp1", "dev_green_l2_vp5"]])
    set_deck(g, "Yellow", 1, 0)
    set_deck(g, "Yellow", 2, 0)
    set_deck(g, "Yellow", 3, ["dev_yellow_l3_vp9"])
    set_strongbox(g, P, {"Stone": 6})
    set_tokens(g, PURPLE_FIRST)
    tokens = list(g.tokens)
    set_faith(g, 0, lorenzo=3)

    g.apply(P, buy(g, P, "Yellow", 3, 1, SB={"Stone": 6}))

    out = g.outcome()
    assert out is not None and out.lorenzo_won and out.termination is Termination.LORENZO_COLOR
    assert g.tokens == tokens and g.last_token is None and g.black_cross == 3  # no token revealed
    assert refused(g, P, ReqEndTurn(), ErrAction).fields == {"reason": "GAME_ENDED"}


UNREVEALED = {token_id(k) for k in ("token_black_cross_plus2_a", "token_black_cross_plus2_b", "token_discard_yellow")}


def _s45_after_shuffle(seed: int) -> tuple[Game, list[dict]]:
    g, P = solo_game(seed)
    set_faith(g, 0, lorenzo=10)
    set_tokens(g, ["token_discard_blue", "token_discard_green", "token_discard_purple",
                   "token_black_cross_plus1_shuffle", "token_black_cross_plus2_a", "token_black_cross_plus2_b",
                   "token_discard_yellow"])
    for _ in range(3):
        neutral_main(g, P)
        g.apply(P, ReqEndTurn())
    assert g.black_cross == 10 and g.tokens[0] == token_id("token_black_cross_plus1_shuffle")
    neutral_main(g, P)
    return g, g.apply(P, ReqEndTurn())


def test_s45_the_shuffle_token_reshuffles_all_seven():
    g, events = _s45_after_shuffle(seed=1)

    assert g.black_cross == 11
    assert {"actionToken": token_id("token_black_cross_plus1_shuffle"), "type": "UpdateActionToken"} in events
    assert sorted(g.tokens) == list(range(7))   # a face-down stack of all 7


def test_s45_revealed_tokens_are_back_in_the_new_stack():
    # Without a reshuffle of all 7, the next 3 draws would always be the 3 unrevealed tokens.
    firsts = [set(_s45_after_shuffle(seed)[0].tokens[:3]) for seed in range(1, 9)]
    assert any(f != UNREVEALED for f in firsts)


def test_s46_solo_token_set():
    kinds = sorted((t.key, t.kind, t.color, t.amount, t.spaces) for t in CFG.solo_tokens)
    assert kinds == [
        ("token_black_cross_plus1_shuffle", "move_shuffle", None, 0, 1),
        ("token_black_cross_plus2_a", "move", None, 0, 2),
        ("token_black_cross_plus2_b", "move", None, 0, 2),
        ("token_discard_blue", "discard", "Blue", 2, 0),
        ("token_discard_green", "discard", "Green", 2, 0),
        ("token_discard_purple", "discard", "Purple", 2, 0),
        ("token_discard_yellow", "discard", "Yellow", 2, 0),
    ]
    g, _ = solo_game()
    assert sorted(g.tokens) == list(range(7))


def _s47_game() -> tuple[Game, str]:
    g, P = solo_game()
    _six_cards(g, P, ("Green", "Blue"))
    set_faith(g, 0, lorenzo=20)
    set_tokens(g, ["token_black_cross_plus2_a", "token_discard_blue", "token_discard_green",
                   "token_discard_yellow", "token_discard_purple", "token_black_cross_plus2_b",
                   "token_black_cross_plus1_shuffle"])
    return g, P


def test_s47_solo_victory_is_immediate():
    g, P = _s47_game()
    put_on_top(g, "dev_yellow_l1_vp1")
    tokens = list(g.tokens)

    events = g.apply(P, pay_cost(g, P, "Yellow", 1, 3))

    out = g.outcome()
    assert out is not None and out.termination is Termination.SOLO_CARDS
    assert out.winners == (P,) and not out.lorenzo_won
    assert g.black_cross == 20 and g.tokens == tokens and g.last_token is None
    assert out.scores[P] == g.score(P) and out.scores[P].cards == 2 * (1 + 5 + 9) + 1
    assert {"winner": P, "type": "UpdateGameEnd"} in events
    assert refused(g, P, ReqEndTurn(), ErrAction).fields == {"reason": "GAME_ENDED"}


def test_s47_variant_seventh_card_that_empties_a_colour_loses():
    g, P = _s47_game()
    set_deck(g, "Yellow", 1, 1)
    set_deck(g, "Yellow", 2, 0)
    set_deck(g, "Yellow", 3, 0)

    g.apply(P, pay_cost(g, P, "Yellow", 1, 3))

    out = g.outcome()
    assert player(g, P).card_count() == 7
    assert out.lorenzo_won and out.winners == () and out.termination is Termination.LORENZO_COLOR


def test_s48_lorenzo_reaches_24_through_the_players_discards():
    g, P = solo_game()
    set_faith(g, 20, lorenzo=22)
    set_reports(g, True, True)
    set_favors(g, P, UP, UP)
    set_market(g, ["Y G W W", "B P P W", "G Y B R"], slide="W")

    events = g.apply(P, take_row(g, P, 1))

    assert g.black_cross == 24 and player(g, P).faith == 20
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 1, "bonusGivenPlayers": [P], "type": "UpdateVaticanSection"}]
    assert player(g, P).favors == [UP, UP, UP]
    out = g.outcome()
    assert out.lorenzo_won and out.winners == () and out.termination is Termination.LORENZO_FAITH
    assert {"type": "UpdateGameEnd"} in events


def test_s49_player_first_to_24_in_the_same_market_action():
    g, P = solo_game()
    set_faith(g, 23, lorenzo=23)
    set_reports(g, True, True)
    set_favors(g, P, UP, UP)
    set_market(g, ["R Y G W", "B P P W", "G Y B W"], slide="W")
    set_shelves(g, P, {"Servant": 1}, {"Coin": 2}, {"Stone": 3})

    events = g.apply(P, take_row(g, P, 1))

    assert player(g, P).faith == 24
    assert player(g, P).favors == [UP, UP, UP]
    out = g.outcome()
    assert out.termination is Termination.SOLO_FAITH and out.winners == (P,) and not out.lorenzo_won
    assert {"winner": P, "type": "UpdateGameEnd"} in events


# ============================================================================ Conventions


def test_s50_order_of_faith_within_one_market_action():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 7, 4)
    set_shelves(g, A, {"Stone": 1}, {"Shield": 2}, {"Servant": 3})
    set_market(g, ["R Y W W", "B P P G", "G Y B W"], slide="W")

    events = g.apply(A, take_row(g, A, 1))

    assert faith_and_reports(events) == [
        {"player": A, "isBlackCross": False, "faithPoints": 8, "type": "UpdateFaithPoints"},
        {"vaticanSection": 0, "bonusGivenPlayers": [A], "type": "UpdateVaticanSection"},
        {"player": B, "isBlackCross": False, "faithPoints": 5, "type": "UpdateFaithPoints"}]
    assert faiths(g) == [8, 5]
    assert player(g, A).favors[0] == UP and player(g, B).favors[0] == REMOVED
