"""Edge cases E1-E30 (RULES.md section 14), conventions C1-C7 (section 15), setup, turn order and
the exact protocol fields of refusals.

Where a scenario of ``test_scenarios.py`` already pins a case, the test here checks another
instance of the same rule (another line, another leader, another seat count...).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders import (CFG, DOWN, M0, M1, REMOVED, UP, by_key, buy, card_id, cid, deck_sizes,
                      give_cards, give_leader, market_rows, names, neutral_main, neutral_turn,
                      of_type, pay_cost, play_game, player, prod, produce, put_on_top, refused, set_deck,
                      set_depot, set_faith, set_favors, set_market, set_reports, set_shelves, set_strongbox,
                      set_tokens, slide_letter, storage, take_col, take_row, token_id, turn_to)
from game.rules.actions import (ProductionRequest, ReqActivateProductions, ReqBuyDevCard, ReqChooseLeaders,
                                ReqChooseResources, ReqEndTurn, ReqLeaderAction, ReqMoveResources,
                                ReqSwapShelves, ReqTakeFromMarket)
from game.rules.engine import Game, Termination
from game.rules.errors import (ErrAction, ErrBuyDevCard, ErrCardRequirements,
                               ErrInitialChoice, ErrInvalidResourceTransaction, ErrNoSuchEntity,
                               ErrObjectNotOwned, ErrReplacedTransRecipe, ErrResourceTransfer)

GAME_DATA = Path(__file__).parent / "data" / "game-data.json"
EMPTY = {"D1": {}, "D2": {}, "D3": {}, "SB": {}}
RICH = {"Coin": 20, "Servant": 20, "Shield": 20, "Stone": 20}
# Row 1 yields exactly the resources named; the rest of the market is a valid mix.
ONE_COIN = ["W Y W W", "B P P G", "G Y B R"]          # row 1: 1 Coin
THREE_RES = ["Y G B W", "B P P W", "G Y W R"]         # row 1: Coin, Stone, Shield
TWO_RES = ["Y G W W", "B P P W", "G Y B R"]           # row 1: Coin, Stone
TOKENS_REST = ["token_discard_blue", "token_discard_green", "token_discard_yellow", "token_discard_purple",
               "token_black_cross_plus2_b", "token_black_cross_plus1_shuffle"]


def faiths(g: Game) -> list[int]:
    return [p.faith for p in g.players]


def solo_game(seed: int = 1) -> tuple[Game, str]:
    g = play_game(1, seed)
    return g, names(g)[0]


def finish_round(g: Game) -> None:
    """Mark the final round and let the last seat play a neutral turn, which ends the game."""
    g.last_round = True
    last = len(g.players) - 1
    turn_to(g, last)
    neutral_turn(g, last)
    assert g.phase == "ended"


# ============================================================================ E1-E10


def test_e01_column_four_pushes_from_the_bottom():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)                     # column 4 reads B W R
    g.apply(A, take_col(g, A, 4, D1={"Shield": 1}))
    assert market_rows(g) == ["W Y G W", "B P P R", "G Y W W"] and slide_letter(g) == "B"


def test_e01_middle_row_pushes_from_the_right():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M1, slide="R")          # row 2 reads B B Y Y
    g.apply(A, take_row(g, A, 2, D2={"Shield": 2}, D3={"Coin": 2}))
    assert market_rows(g) == ["W W W G", "B Y Y R", "P P G R"] and slide_letter(g) == "B"


def test_e02_white_marbles_without_leader_are_not_discards():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 0, 0, 0)
    set_market(g, M1)                     # column 1 reads W B P
    refused(g, A, take_col(g, A, 1, {"Coin": 1}), ErrInvalidResourceTransaction)
    g.apply(A, take_col(g, A, 1))          # keep nothing
    assert faiths(g) == [0, 2, 2]          # Shield and Servant only; the white gives nothing
    assert storage(g, A) == EMPTY


def _e03_game() -> tuple[Game, str, str, str]:
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 0, 0, 0)
    set_market(g, M0)                     # row 1: W Y G B
    give_leader(g, A, "leader_white_marble_stone")
    return g, A, B, C


def test_e03_single_white_leader_converts_without_being_asked():
    g, A, B, C = _e03_game()
    g.apply(A, take_row(g, A, 1, D1={"Coin": 1}, D2={"Shield": 1}, D3={"Stone": 2}))
    assert storage(g, A) == {"D1": {"Coin": 1}, "D2": {"Shield": 1}, "D3": {"Stone": 2}, "SB": {}}
    assert faiths(g) == [0, 0, 0]


def test_e03_converted_resource_not_kept_is_a_discard():
    g, A, B, C = _e03_game()
    g.apply(A, take_row(g, A, 1, D1={"Coin": 1}, D2={"Shield": 1}, D3={"Stone": 1}))
    assert faiths(g) == [0, 1, 1]


def test_e04_two_white_leaders_one_white_marble_one_resource():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)                     # row 2: B P P W
    give_leader(g, A, "leader_white_marble_servant")
    give_leader(g, A, "leader_white_marble_shield")
    err = refused(g, A, take_row(g, A, 2, {"Servant": 1, "Shield": 1}), ErrReplacedTransRecipe)
    assert (err.fields["replacedCount"], err.fields["shelvesChoiceResCount"]) == (1, 2)
    refused(g, A, take_row(g, A, 2, {"Shield": 1}, D2={"Servant": 2}, D3={"Shield": 3}), ErrReplacedTransRecipe)
    g.apply(A, take_row(g, A, 2, {"Shield": 1}, D2={"Servant": 2}, D3={"Shield": 2}))
    assert storage(g, A) == {"D1": {}, "D2": {"Servant": 2}, "D3": {"Shield": 2}, "SB": {}}
    assert faiths(g) == [0, 0]


def test_e05_leader_played_after_the_market_action_does_not_convert_it():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 0, 0)
    set_market(g, M1)
    lid = give_leader(g, A, "leader_white_marble_coin", active=False)
    give_cards(g, A, [["dev_purple_l1_vp1", "dev_purple_l2_vp5"], ["dev_green_l1_vp1"]])

    g.apply(A, take_row(g, A, 1, D1={"Stone": 1}))
    g.apply(A, ReqLeaderAction(lid, True))
    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {}, "D3": {}, "SB": {}}
    assert faiths(g) == [0, 0]

    turn_to(g, A)                          # next turn: now the whites convert
    assert market_rows(g)[0] == "W W G W"
    g.apply(A, take_row(g, A, 1, D3={"Coin": 3}))
    assert storage(g, A)["D3"] == {"Coin": 3}
    assert faiths(g) == [0, 1]             # the Stone had no room


def test_e06_red_marble_faith_needs_no_room_and_is_not_a_discard():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 0, 0)
    set_market(g, M0)                     # column 4: B W R
    set_shelves(g, A, {"Coin": 1}, {"Stone": 2}, {"Servant": 3})
    err = refused(g, A, take_col(g, A, 4, D1={"Faith": 1}), ErrInvalidResourceTransaction)
    assert err.to_dict() == {"isInput": False, "isReplacement": False, "reason": "ILLEGAL_NON_STORABLE",
                             "type": "ErrInvalidResourceTransaction"}
    g.apply(A, take_col(g, A, 4))
    assert faiths(g) == [1, 1]             # B gains 1 for the Shield only


def test_e07_leader_depot_may_share_a_type_with_the_warehouse_but_takes_only_its_own():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_stone")
    set_shelves(g, A, {"Coin": 1}, None, {"Stone": 3})
    d1, d3, ld = cid(g, A, "D1"), cid(g, A, "D3"), cid(g, A, "LD_Stone")

    g.apply(A, ReqMoveResources(d3, ld, "Stone", 1))
    assert storage(g, A) == {"D1": {"Coin": 1}, "D2": {}, "D3": {"Stone": 2}, "SB": {}, "LD_Stone": {"Stone": 1}}
    err = refused(g, A, ReqMoveResources(d1, ld, "Coin", 1), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Coin", "isAdded": True, "reason": "BOUNDED_RESTYPE_DIFFER",
                             "type": "ErrResourceTransfer"}
    err = refused(g, A, ReqMoveResources(d3, cid(g, A, "D2"), "Stone", 1), ErrResourceTransfer)
    assert err.fields["reason"] == "DUPLICATE_BOUNDED_RESOURCE"


def test_e07_two_depot_leaders_give_two_separate_depots():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_coin")
    give_leader(g, A, "leader_depot_servant")
    set_market(g, ["Y Y P W", "B W W B", "G G P R"], slide="W")
    g.apply(A, take_row(g, A, 1, LD_Coin={"Coin": 2}, LD_Servant={"Servant": 1}))
    assert storage(g, A) == {**EMPTY, "LD_Coin": {"Coin": 2}, "LD_Servant": {"Servant": 1}}


def test_e08_nothing_moves_between_depots_and_strongbox():
    g = play_game(2)
    A = names(g)[0]
    set_market(g, ONE_COIN)
    set_shelves(g, A, {"Stone": 1})
    set_strongbox(g, A, {"Coin": 2})
    d1, sb = cid(g, A, "D1"), cid(g, A, "SB")
    refused(g, A, take_row(g, A, 1, SB={"Coin": 1}), ErrObjectNotOwned)
    refused(g, A, ReqMoveResources(d1, sb, "Stone", 1), ErrObjectNotOwned)
    refused(g, A, ReqSwapShelves(d1, sb), ErrObjectNotOwned)
    refused(g, A, ReqSwapShelves(sb, d1), ErrObjectNotOwned)


def test_e09_discount_never_applies_to_leader_resource_requirements():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_discount_servant")
    lid = give_leader(g, A, "leader_depot_shield", active=False)    # needs 5 Servant
    set_strongbox(g, A, {"Servant": 4})
    err = refused(g, A, ReqLeaderAction(lid, True), ErrCardRequirements)
    assert err.fields["missingResources"] == {"Servant": 1}


def test_e09_discount_never_applies_to_production_inputs():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_discount_servant")
    give_cards(g, A, [["dev_blue_l1_vp1", "dev_blue_l2_vp5"]])      # 1 Servant -> 2 Faith
    set_strongbox(g, A, {"Servant": 1})
    err = refused(g, A, produce(prod(g, A, "dev_blue_l2_vp5")), ErrReplacedTransRecipe)
    assert err.fields["isInput"] is True and err.fields["resType"] == "Servant"
    g.apply(A, produce(prod(g, A, "dev_blue_l2_vp5", SB={"Servant": 1})))
    assert storage(g, A)["SB"] == {}


def test_e09_discount_reduces_only_its_own_part_of_a_mixed_cost():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_discount_stone")
    give_cards(g, A, [["dev_green_l1_vp1"]])
    put_on_top(g, "dev_yellow_l2_vp6")                              # 2 Shield + 3 Stone
    set_strongbox(g, A, {"Shield": 2, "Stone": 3})
    assert g.card_cost(player(g, A), g.top_card("Yellow", 2)) == {"Shield": 2, "Stone": 2}
    err = refused(g, A, buy(g, A, "Yellow", 2, 1, SB={"Shield": 2, "Stone": 3}), ErrReplacedTransRecipe)
    assert (err.fields["resType"], err.fields["replacedCount"], err.fields["shelvesChoiceResCount"]) == ("Stone", 2, 3)
    g.apply(A, buy(g, A, "Yellow", 2, 1, SB={"Shield": 2, "Stone": 2}))
    assert storage(g, A)["SB"] == {"Stone": 1}


def test_e10_only_level_three_fits_on_level_two_tops():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5"], ["dev_blue_l1_vp1", "dev_blue_l2_vp5"],
                      ["dev_yellow_l1_vp1", "dev_yellow_l2_vp5"]])
    set_strongbox(g, A, RICH)
    for level in (1, 2):
        for slot in (1, 2, 3):
            assert refused(g, A, pay_cost(g, A, "Purple", level, slot), ErrBuyDevCard).fields == {
                "isStackEmpty": False}
    top = g.top_card("Purple", 3).id
    g.apply(A, pay_cost(g, A, "Purple", 3, 2))
    assert player(g, A).slots[1] == [card_id("dev_blue_l1_vp1"), card_id("dev_blue_l2_vp5"), top]


def test_e10_a_full_slot_takes_nothing_more():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5", "dev_green_l3_vp9"]])
    set_strongbox(g, A, RICH)
    for level in (1, 2, 3):
        refused(g, A, pay_cost(g, A, "Blue", level, 1), ErrBuyDevCard)


def test_e10_empty_deck_cannot_be_bought():
    g = play_game(2)
    A = names(g)[0]
    set_deck(g, "Blue", 1, 0)
    set_strongbox(g, A, RICH)
    err = refused(g, A, buy(g, A, "Blue", 1, 1), ErrBuyDevCard)
    assert err.to_dict() == {"isStackEmpty": True, "type": "ErrBuyDevCard"}


# ============================================================================ E11-E20


def test_e11_covered_level_two_card_in_a_full_slot_cannot_produce():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1", "dev_green_l2_vp5", "dev_green_l3_vp9"]])
    set_strongbox(g, A, {"Stone": 1, "Coin": 2})
    refused(g, A, produce(prod(g, A, "dev_green_l2_vp5", SB={"Stone": 1})), ErrObjectNotOwned)
    g.apply(A, produce(prod(g, A, "dev_green_l3_vp9", SB={"Coin": 2})))
    assert storage(g, A)["SB"] == {"Stone": 4}


def test_e11_a_production_leader_runs_at_most_once_per_action():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_production_stone")
    set_strongbox(g, A, {"Stone": 2})
    err = refused(g, A, produce(prod(g, A, "leader_production_stone", {"Coin": 1}, SB={"Stone": 1}),
                                prod(g, A, "leader_production_stone", {"Coin": 1}, SB={"Stone": 1})),
                  ErrObjectNotOwned)
    assert err.fields == {"id": by_key(CFG, "leader_production_stone").production.id,
                          "objectType": "ReducedProductionRequest"}


def test_e11_base_output_cannot_feed_a_card_in_the_same_action():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1"]])                          # 1 Coin -> 1 Faith
    set_strongbox(g, A, {"Stone": 2})
    refused(g, A, produce(prod(g, A, "base", {"Coin": 1}, SB={"Stone": 2}),
                          prod(g, A, "dev_green_l1_vp1", SB={"Coin": 1})), ErrResourceTransfer)


def test_e11_inputs_of_all_productions_are_paid_together():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_yellow_l1_vp2"], ["dev_blue_l1_vp1"]])  # both take 1 Shield
    set_shelves(g, A, {"Shield": 1})
    err = refused(g, A, produce(prod(g, A, "dev_yellow_l1_vp2", D1={"Shield": 1}),
                                prod(g, A, "dev_blue_l1_vp1", D1={"Shield": 1})), ErrResourceTransfer)
    assert err.to_dict() == {"resType": "Shield", "isAdded": False, "reason": "CAPACITY_REACHED",
                             "type": "ErrResourceTransfer"}


def test_e11_production_with_no_power_is_refused():
    g = play_game(2)
    A = names(g)[0]
    refused(g, A, ReqActivateProductions(()), ErrReplacedTransRecipe)


def test_e12_faith_is_never_an_any_resource():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_production_coin")
    set_strongbox(g, A, {"Coin": 3, "Stone": 2})
    for req in (
        prod(g, A, "leader_production_coin", {"Faith": 1}, SB={"Coin": 1}),
        ProductionRequest(CFG.base_production.id, {cid(g, A, "SB"): {"Stone": 1}}, {"Faith": 1}, {"Coin": 1}),
        prod(g, A, "base", {"Faith": 1}, SB={"Stone": 2}),
    ):
        refused(g, A, produce(req), ErrInvalidResourceTransaction)
    # the free output must be exactly one resource
    refused(g, A, produce(prod(g, A, "leader_production_coin", {}, SB={"Coin": 1})), ErrReplacedTransRecipe)
    refused(g, A, produce(prod(g, A, "leader_production_coin", {"Stone": 2}, SB={"Coin": 1})),
            ErrReplacedTransRecipe)
    g.apply(A, produce(prod(g, A, "leader_production_coin", {"Stone": 1}, SB={"Coin": 1})))
    assert storage(g, A)["SB"] == {"Coin": 2, "Stone": 3}


def test_e13_covered_cards_of_two_levels_satisfy_a_two_card_requirement():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_white_marble_servant", active=False)   # 2 Yellow + 1 Blue
    give_cards(g, A, [["dev_yellow_l1_vp1", "dev_yellow_l2_vp5", "dev_blue_l3_vp9"]])
    g.apply(A, ReqLeaderAction(lid, True))
    assert player(g, A).active_leaders == [lid]


def test_e13_covered_card_satisfies_a_discount_leader():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_discount_shield", active=False)         # 1 Blue + 1 Purple
    give_cards(g, A, [["dev_blue_l1_vp1", "dev_purple_l2_vp5"]])
    g.apply(A, ReqLeaderAction(lid, True))
    assert player(g, A).active_leaders == [lid]


def test_e14_resource_requirement_counts_leader_depots_and_is_not_spent():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_stone")
    lid = give_leader(g, A, "leader_depot_servant", active=False)           # needs 5 Stone
    set_shelves(g, A, None, None, {"Stone": 3})
    set_depot(g, "Stone", {"Stone": 2})
    g.apply(A, ReqLeaderAction(lid, True))
    assert storage(g, A) == {"D1": {}, "D2": {}, "D3": {"Stone": 3}, "SB": {},
                             "LD_Stone": {"Stone": 2}, "LD_Servant": {}}


def test_e15_discard_gives_faith_to_the_discarder_only_before_or_after_the_main_action():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 0, 0, 0)
    l1 = give_leader(g, A, "leader_discount_coin", active=False)
    l2 = give_leader(g, A, "leader_discount_stone", active=False)
    other = give_leader(g, B, "leader_depot_coin", active=False)

    refused(g, A, ReqLeaderAction(other, False), ErrObjectNotOwned)
    g.apply(A, ReqLeaderAction(l1, False))
    neutral_main(g, A)
    g.apply(A, ReqLeaderAction(l2, False))

    assert faiths(g) == [2, 0, 0]
    assert player(g, A).hand == []
    refused(g, A, ReqLeaderAction(l1, True), ErrObjectNotOwned)
    refused(g, A, ReqLeaderAction(l1, False), ErrObjectNotOwned)


def test_e16_report_fired_by_an_opponent_passing_the_pope_space_on_my_turn():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 4, 6, 3)
    set_market(g, THREE_RES)
    events = g.apply(A, take_row(g, A, 1))        # 3 discards: B 6 -> 9 (passes 8), C 3 -> 6
    assert faiths(g) == [4, 9, 6]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 0, "bonusGivenPlayers": [B, C], "type": "UpdateVaticanSection"}]
    assert [player(g, x).favors[0] for x in (A, B, C)] == [REMOVED, UP, UP]

    # A arrives later: nothing happens
    g.apply(A, ReqEndTurn())
    turn_to(g, A)
    set_faith(g, 7)
    lid = give_leader(g, A, "leader_discount_coin", active=False)
    events = g.apply(A, ReqLeaderAction(lid, False))
    assert player(g, A).faith == 8 and of_type(events, "UpdateVaticanSection") == []
    assert player(g, A).favors[0] == REMOVED


@pytest.mark.parametrize("position, vp", [(1, 0), (5, 1), (6, 2), (11, 4), (15, 9), (16, 9), (21, 16),
                                          (22, 16)])
def test_e17_faith_track_vp_not_a_running_total(position, vp):
    g = play_game(2)
    B = names(g)[1]
    set_faith(g, 0, position)
    assert g.score(B).faith_track == vp


def _six_cards(g: Game, who: str, c1: str, c2: str) -> None:
    c1, c2 = c1.lower(), c2.lower()
    give_cards(g, who, [[f"dev_{c1}_l1_vp1", f"dev_{c1}_l2_vp5", f"dev_{c1}_l3_vp9"],
                        [f"dev_{c2}_l1_vp1", f"dev_{c2}_l2_vp5", f"dev_{c2}_l3_vp9"]])
    set_strongbox(g, who, RICH)


def test_e18_inkwell_seat_trigger_lets_everyone_else_play_once():
    g = play_game(3)
    A, B, C = names(g)
    _six_cards(g, A, "Green", "Blue")
    g.apply(A, pay_cost(g, A, "Yellow", 1, 3))
    assert g.last_round
    g.apply(A, ReqEndTurn())
    assert g.current == 1
    neutral_turn(g, B)
    assert g.current == 2 and g.phase == "play"
    neutral_turn(g, C)
    assert g.phase == "ended" and g.outcome().termination is Termination.ROUND_COMPLETED


def test_e18_two_players_second_seat_trigger_ends_with_its_turn():
    g = play_game(2)
    A, B = names(g)
    _six_cards(g, B, "Green", "Blue")
    neutral_turn(g, A)
    g.apply(B, pay_cost(g, B, "Yellow", 1, 3))
    assert g.phase == "play"
    g.apply(B, ReqEndTurn())
    assert g.phase == "ended"


def test_e19_discards_push_an_opponent_to_24_on_my_turn():
    g = play_game(4)
    A, B, C, D = names(g)
    set_reports(g, True, True)
    set_faith(g, 10, 0, 22, 1)
    set_market(g, TWO_RES)
    events = g.apply(A, take_row(g, A, 1))
    assert faiths(g) == [10, 2, 24, 3]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 1, "bonusGivenPlayers": [C], "type": "UpdateVaticanSection"}]
    assert [player(g, x).favors[2] for x in (A, B, C, D)] == [REMOVED, REMOVED, UP, REMOVED]
    assert g.last_round and g.phase == "play"
    g.apply(A, ReqEndTurn())
    for seat, who in ((1, B), (2, C), (3, D)):
        assert g.current == seat and g.phase == "play"
        neutral_turn(g, who)
    assert g.phase == "ended"


def test_e20_tie_break_favours_more_resources_even_in_a_later_seat():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 0, 0)
    give_cards(g, A, [["dev_green_l1_vp4", "dev_green_l2_vp6"]])         # 10
    give_cards(g, B, [["dev_blue_l1_vp4", "dev_blue_l2_vp5"]])           # 9
    set_strongbox(g, A, {"Coin": 4})                                     # 0 VP
    set_strongbox(g, B, {"Coin": 9})                                     # 1 VP
    finish_round(g)
    out = g.outcome()
    assert (out.scores[A].total, out.scores[B].total) == (10, 10)
    assert out.winners == (B,)


# ============================================================================ E21-E30


def test_e21_resource_vp_adds_every_type_and_container_first():
    g = play_game(2)
    A = names(g)[0]
    give_leader(g, A, "leader_depot_coin")
    set_shelves(g, A, None, None, {"Coin": 3})
    set_depot(g, "Coin", {"Coin": 1})
    set_strongbox(g, A, {"Servant": 4, "Shield": 4, "Stone": 4})
    score = g.score(A)
    assert (score.resources, score.resource_vp) == (16, 3)


def test_e22_solo_converted_whites_not_kept_feed_lorenzo():
    g, P = solo_game()
    set_faith(g, 0, lorenzo=0)
    give_leader(g, P, "leader_white_marble_coin")
    set_market(g, M1)
    events = g.apply(P, take_row(g, P, 1, D1={"Stone": 1}))
    assert (g.black_cross, player(g, P).faith) == (3, 0)
    assert of_type(events, "UpdateFaithPoints") == [
        {"isBlackCross": True, "faithPoints": 3, "type": "UpdateFaithPoints"}]


@pytest.mark.parametrize("position, favor", [(12, UP), (11, REMOVED)])
def test_e23_own_discard_lets_lorenzo_fire_report_two(position, favor):
    g, P = solo_game()
    set_reports(g, True)
    set_favors(g, P, UP)
    set_faith(g, position, lorenzo=15)
    set_market(g, ONE_COIN)
    events = g.apply(P, take_row(g, P, 1))
    assert g.black_cross == 16 and g.fired == [True, True, False]
    assert player(g, P).favors == [UP, favor, DOWN]
    assert of_type(events, "UpdateVaticanSection") == [
        {"vaticanSection": 2, "bonusGivenPlayers": [P] if favor == UP else [], "type": "UpdateVaticanSection"}]
    assert g.phase == "play"


def test_e24_token_that_empties_a_colour_exactly_makes_lorenzo_win():
    g, P = solo_game()
    set_deck(g, "Blue", 1, 0)
    set_deck(g, "Blue", 2, 1)
    set_deck(g, "Blue", 3, 1)
    set_tokens(g, ["token_discard_blue", "token_discard_green", "token_discard_yellow", "token_discard_purple",
                   "token_black_cross_plus2_a", "token_black_cross_plus2_b", "token_black_cross_plus1_shuffle"])
    neutral_main(g, P)
    g.apply(P, ReqEndTurn())
    assert deck_sizes(g, "Blue") == (0, 0, 0)
    out = g.outcome()
    assert out.lorenzo_won and out.termination is Termination.LORENZO_COLOR


def test_e24_discard_token_skips_an_empty_level():
    g, P = solo_game()
    set_deck(g, "Blue", 1, 1)
    set_deck(g, "Blue", 2, 0)
    level3 = list(g.decks["Blue"][3])
    set_tokens(g, ["token_discard_blue", "token_discard_green", "token_discard_yellow", "token_discard_purple",
                   "token_black_cross_plus2_a", "token_black_cross_plus2_b", "token_black_cross_plus1_shuffle"])
    neutral_main(g, P)
    g.apply(P, ReqEndTurn())
    assert deck_sizes(g, "Blue") == (0, 0, 3) and g.decks["Blue"][3] == level3[:-1]
    assert g.phase == "play"


def test_e25_revealed_tokens_return_only_with_the_shuffle():
    g, P = solo_game(seed=11)
    set_faith(g, 0, lorenzo=0)
    set_tokens(g, ["token_black_cross_plus1_shuffle", "token_discard_blue", "token_discard_green",
                   "token_discard_yellow", "token_discard_purple", "token_black_cross_plus2_a",
                   "token_black_cross_plus2_b"])
    neutral_main(g, P)
    events = g.apply(P, ReqEndTurn())
    assert g.black_cross == 1 and sorted(g.tokens) == list(range(7))
    assert {"actionToken": token_id("token_black_cross_plus1_shuffle"), "type": "UpdateActionToken"} in events

    shuffle = token_id("token_black_cross_plus1_shuffle")
    seen = []
    for _ in range(7):
        neutral_main(g, P)
        ev = g.apply(P, ReqEndTurn())
        seen += [e["actionToken"] for e in of_type(ev, "UpdateActionToken")]
        if seen[-1] == shuffle:
            break
    assert seen[-1] == shuffle
    assert len(seen) == len(set(seen)) <= 7


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_e26_every_solo_game_has_seven_tokens_two_of_them_plus_two(seed):
    g = Game.new(CFG, ["solo"], seed)
    assert sorted(g.tokens) == list(range(7))
    tokens = [CFG.solo_tokens[t] for t in g.tokens]
    assert sum(1 for t in tokens if t.kind == "move" and t.spaces == 2) == 2
    assert Game.new(CFG, ["a", "b"], seed).tokens == []


def test_e27_reaching_24_by_production_wins_at_once_without_a_token():
    g, P = solo_game()
    set_reports(g, True, True)
    set_favors(g, P, UP, UP)
    set_faith(g, 22, lorenzo=5)
    give_cards(g, P, [["dev_green_l1_vp1", "dev_green_l2_vp5"]])
    set_strongbox(g, P, {"Stone": 1})
    set_tokens(g, ["token_black_cross_plus2_a", *TOKENS_REST])
    tokens = list(g.tokens)

    events = g.apply(P, produce(prod(g, P, "dev_green_l2_vp5", SB={"Stone": 1})))

    out = g.outcome()
    assert out.termination is Termination.SOLO_FAITH and out.winners == (P,)
    assert g.black_cross == 5 and g.tokens == tokens and of_type(events, "UpdateActionToken") == []
    assert refused(g, P, ReqEndTurn(), ErrAction).fields == {"reason": "GAME_ENDED"}


def test_e28_black_cross_is_capped_at_24():
    g, P = solo_game()
    set_reports(g, True, True)
    set_faith(g, 10, lorenzo=23)
    set_tokens(g, ["token_black_cross_plus2_a", *TOKENS_REST])
    neutral_main(g, P)
    events = g.apply(P, ReqEndTurn())
    assert g.black_cross == 24
    assert {"isBlackCross": True, "faithPoints": 24, "type": "UpdateFaithPoints"} in events
    assert g.outcome().termination is Termination.LORENZO_FAITH


def test_e28_opponent_marker_is_capped_at_24():
    g = play_game(2)
    A, B = names(g)
    set_reports(g, True, True)
    set_faith(g, 0, 23)
    set_market(g, THREE_RES)
    g.apply(A, take_row(g, A, 1))
    assert faiths(g) == [0, 24]


def test_e29_setup_resources_follow_the_depot_rules():
    g = Game.new(CFG, list("abcd"), seed=9)
    A, B, C, D = names(g)
    assert g.fired == [False, False, False] and max(faiths(g)) == 1
    err = refused(g, B, ReqChooseResources({cid(g, B, "D1"): {"Coin": 1}, cid(g, B, "D2"): {"Stone": 1}}),
                  ErrReplacedTransRecipe)
    assert err.to_dict() == {"isInput": False, "resType": "", "replacedCount": 1, "shelvesChoiceResCount": 2,
                             "isIllegalDiscardedOut": False, "type": "ErrReplacedTransRecipe"}
    refused(g, B, ReqChooseResources({}), ErrReplacedTransRecipe)
    refused(g, D, ReqChooseResources({cid(g, D, "D3"): {"Coin": 1}}), ErrReplacedTransRecipe)
    g.apply(B, ReqChooseResources({cid(g, B, "D2"): {"Stone": 1}}))
    err = refused(g, B, ReqChooseResources({cid(g, B, "D1"): {"Stone": 1}}), ErrInitialChoice)
    assert err.to_dict() == {"isLeadersChoice": False, "missingLeadersCount": 0, "type": "ErrInitialChoice"}
    g.apply(D, ReqChooseResources({cid(g, D, "D1"): {"Coin": 1}, cid(g, D, "D3"): {"Servant": 1}}))
    assert storage(g, D) == {"D1": {"Coin": 1}, "D2": {}, "D3": {"Servant": 1}, "SB": {}}
    assert storage(g, B) == {"D1": {}, "D2": {"Stone": 1}, "D3": {}, "SB": {}}


def test_e30_reference_card_data_is_used():
    cards = {c.key: c for c in CFG.dev_cards}
    assert dict(cards["dev_green_l1_vp1"].production.input) == {"Coin": 1}
    assert dict(cards["dev_blue_l1_vp3"].production.output) == {"Coin": 1, "Servant": 1, "Shield": 1}
    assert dict(cards["dev_blue_l2_vp5"].cost) == {"Coin": 4}
    assert dict(cards["dev_yellow_l2_vp5"].cost) == {"Stone": 4}
    assert dict(cards["dev_green_l3_vp12"].production.output) == {"Coin": 3, "Shield": 1}
    assert dict(cards["dev_green_l3_vp9"].production.input) == {"Coin": 2}
    data = {c["id"]: c for c in json.loads(GAME_DATA.read_text(encoding="utf-8"))["development_cards"]}
    for key, card in cards.items():
        ref = data[key]
        assert (card.color, card.level, card.victory_points, dict(card.cost)) == (
            ref["color"], ref["level"], ref["victory_points"], ref["cost"]), key
        assert dict(card.production.input) == ref["production"]["input"], key
        assert dict(card.production.output) == ref["production"]["output"], key


def test_e30_blue_level_two_vp5_costs_four_coins_in_play():
    g = play_game(2)
    A = names(g)[0]
    give_cards(g, A, [["dev_green_l1_vp1"]])
    put_on_top(g, "dev_blue_l2_vp5")
    set_strongbox(g, A, {"Coin": 1})
    err = refused(g, A, buy(g, A, "Blue", 2, 1, SB={"Coin": 1}), ErrCardRequirements)
    assert err.to_dict() == {"missingResources": {"Coin": 3}, "type": "ErrCardRequirements"}


# ============================================================================ C1-C7


def test_c1_red_marble_report_resolves_before_the_discards_arrive():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 7, 3, 4)
    set_market(g, ["R Y G W", "B P P W", "G Y B W"], slide="W")
    set_shelves(g, A, {"Servant": 1}, {"Coin": 2}, {"Stone": 3})
    events = g.apply(A, take_row(g, A, 1))
    assert faiths(g) == [8, 5, 6]
    assert [player(g, x).favors[0] for x in (A, B, C)] == [UP, REMOVED, REMOVED]
    assert [e["type"] for e in events if e["type"] in ("UpdateFaithPoints", "UpdateVaticanSection")] == [
        "UpdateFaithPoints", "UpdateVaticanSection", "UpdateFaithPoints", "UpdateFaithPoints"]


def test_c1_discards_are_checked_too_after_the_red_marble():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 5, 7)
    set_market(g, ["R Y W W", "B P P G", "G Y B W"], slide="W")
    events = g.apply(A, take_row(g, A, 1))     # A 5 -> 6 (no report), then B 7 -> 8
    assert faiths(g) == [6, 8]
    assert [e for e in events if e["type"] in ("UpdateFaithPoints", "UpdateVaticanSection")] == [
        {"player": A, "isBlackCross": False, "faithPoints": 6, "type": "UpdateFaithPoints"},
        {"player": B, "isBlackCross": False, "faithPoints": 8, "type": "UpdateFaithPoints"},
        {"vaticanSection": 0, "bonusGivenPlayers": [A, B], "type": "UpdateVaticanSection"}]


def test_c2_stored_resources_cannot_be_discarded():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 0, 0)
    set_shelves(g, A, {"Coin": 1})
    set_market(g, ["P W W W", "B Y Y G", "G B P R"], slide="W")   # row 1: 1 Servant
    refused(g, A, take_row(g, A, 1, D1={"Servant": 1}), ErrResourceTransfer)
    err = refused(g, A, take_row(g, A, 1, D1={"Coin": -1}, D2={"Servant": 1}), ErrInvalidResourceTransaction)
    assert err.fields["reason"] == "NEGATIVE_VALUES"
    refused(g, A, take_row(g, A, 1, D1={"Coin": 1}), ErrReplacedTransRecipe)
    g.apply(A, take_row(g, A, 1))
    assert storage(g, A)["D1"] == {"Coin": 1} and faiths(g) == [0, 1]


def test_c3_leader_actions_before_and_after_the_main_action_only_on_ones_turn():
    g = play_game(2)
    A, B = names(g)
    give_cards(g, A, [["dev_yellow_l1_vp1"], ["dev_purple_l1_vp1"]])
    play = give_leader(g, A, "leader_discount_coin", active=False)       # Yellow + Purple
    drop = give_leader(g, A, "leader_discount_stone", active=False)
    assert refused(g, B, ReqLeaderAction(play, True), ErrAction).fields == {"reason": "NOT_CURRENT_PLAYER"}
    g.apply(A, ReqLeaderAction(play, True))
    neutral_main(g, A)
    g.apply(A, ReqLeaderAction(drop, False))
    assert player(g, A).active_leaders == [play] and player(g, A).hand == [play]
    g.apply(A, ReqEndTurn())
    assert refused(g, A, ReqLeaderAction(play, False), ErrAction).fields == {"reason": "NOT_CURRENT_PLAYER"}


def test_c4_seventh_card_at_level_three_emptying_purple_loses():
    g, P = solo_game()
    give_cards(g, P, [["dev_green_l1_vp1", "dev_green_l2_vp5", "dev_green_l3_vp9"],
                      ["dev_blue_l1_vp1", "dev_blue_l2_vp5"], ["dev_yellow_l1_vp1"]])
    set_deck(g, "Purple", 1, 0)
    set_deck(g, "Purple", 2, 0)
    set_deck(g, "Purple", 3, 1)
    set_strongbox(g, P, RICH)
    g.apply(P, pay_cost(g, P, "Purple", 3, 2))
    out = g.outcome()
    assert player(g, P).card_count() == 7
    assert out.lorenzo_won and out.termination is Termination.LORENZO_COLOR and out.winners == ()


def test_c5_full_tie_is_a_shared_victory():
    g = play_game(3)
    A, B, C = names(g)
    set_faith(g, 0, 0, 0)
    give_cards(g, A, [["dev_green_l1_vp4"]])
    give_cards(g, B, [["dev_yellow_l1_vp1"]])
    give_cards(g, C, [["dev_blue_l1_vp4"]])
    set_strongbox(g, A, {"Coin": 3})
    set_strongbox(g, C, {"Stone": 3})
    turn_to(g, C)
    g.last_round = True
    events = neutral_turn(g, C)
    out = g.outcome()
    assert out.winners == (A, C)
    assert of_type(events, "UpdateGameEnd") == [{"winner": A, "type": "UpdateGameEnd"}]


def test_c6_production_leader_is_not_satisfied_by_a_level_three_card():
    g = play_game(2)
    A = names(g)[0]
    lid = give_leader(g, A, "leader_production_coin", active=False)       # Green level 2
    give_cards(g, A, [["dev_blue_l1_vp1", "dev_blue_l2_vp5", "dev_green_l3_vp9"]])
    err = refused(g, A, ReqLeaderAction(lid, True), ErrCardRequirements)
    assert err.fields["missingDevCards"] == [{"color": "Green", "quantity": 1, "level": 2}]


def test_c7_a_single_white_leader_cannot_be_declined():
    g = play_game(2)
    A, B = names(g)
    set_faith(g, 0, 0)
    give_leader(g, A, "leader_white_marble_coin")
    set_market(g, M1)
    err = refused(g, A, take_row(g, A, 1, {"Coin": 1}), ErrReplacedTransRecipe)
    assert (err.fields["replacedCount"], err.fields["shelvesChoiceResCount"]) == (3, 1)
    g.apply(A, take_row(g, A, 1))
    assert faiths(g) == [0, 4]             # 3 Coins + 1 Stone discarded


# ============================================================================ Setup


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_bonus_and_faith_by_seat(n):
    g = Game.new(CFG, list("abcd"[:n]), seed=4)
    assert [p.bonus for p in g.players] == [0, 1, 1, 2][:n]
    assert faiths(g) == [0, 0, 1, 1][:n]
    assert [p.chose_resources for p in g.players] == [True, False, False, False][:n]
    assert g.black_cross == 0 and g.phase == "setup"


def test_setup_leader_draft_keeps_exactly_two_of_the_four_dealt():
    g = Game.new(CFG, list("abcd"), seed=4)
    hands = [list(p.hand) for p in g.players]
    assert all(len(h) == 4 for h in hands) and len({i for h in hands for i in h}) == 16
    for p, h in zip(g.players, hands):
        events = g.apply(p.nickname, ReqChooseLeaders((h[2], h[0])))
        assert sorted(p.hand) == sorted([h[2], h[0]]) and p.active_leaders == []
        assert {"player": p.nickname, "leaders": p.hand, "type": "UpdateLeadersHand"} in events
        err = refused(g, p.nickname, ReqChooseLeaders((h[2], h[0])), ErrInitialChoice)
        assert err.to_dict() == {"isLeadersChoice": True, "missingLeadersCount": 0, "type": "ErrInitialChoice"}
    assert faiths(g) == [0, 0, 1, 1]


@pytest.mark.parametrize("pick, missing", [((0,), 1), ((0, 1, 2), -1), ((0, 0), 1), ((), 2),
                                           ((0, 1, 2, 3), -2)])
def test_setup_choose_leaders_wrong_count(pick, missing):
    g = Game.new(CFG, ["a", "b"], seed=4)
    a = g.players[0]
    err = refused(g, a.nickname, ReqChooseLeaders(tuple(a.hand[i] for i in pick)), ErrInitialChoice)
    assert err.to_dict() == {"isLeadersChoice": True, "missingLeadersCount": missing, "type": "ErrInitialChoice"}


def test_setup_choose_a_leader_of_another_player():
    g = Game.new(CFG, ["a", "b"], seed=4)
    a, b = g.players
    err = refused(g, a.nickname, ReqChooseLeaders((a.hand[0], b.hand[0])), ErrObjectNotOwned)
    assert err.to_dict() == {"id": b.hand[0], "objectType": "LeaderCard", "type": "ErrObjectNotOwned"}


# ============================================================================ Turn order


def test_turn_order_early_mandatory_action_during_setup():
    g = Game.new(CFG, ["a", "b"], seed=4)
    first = g.players[0].nickname
    for req in (ReqTakeFromMarket(True, 0, {}, {}), ReqBuyDevCard("Green", 1, 0, {}),
                ReqActivateProductions((ProductionRequest(0, {}, {}, {"Coin": 1}),)),
                ReqLeaderAction(g.players[0].hand[0], False), ReqSwapShelves(0, 1), ReqEndTurn()):
        err = refused(g, first, req, ErrAction)
        assert err.to_dict() == {"reason": "EARLY_MANDATORY_ACTION", "type": "ErrAction"}


def test_turn_order_not_current_player():
    g = play_game(3)
    A, B, C = names(g)
    lid = give_leader(g, B, "leader_discount_coin", active=False)
    for req in (take_col(g, B, 1), ReqEndTurn(), ReqLeaderAction(lid, False),
                ReqSwapShelves(cid(g, B, "D1"), cid(g, B, "D2")), pay_cost(g, B, "Green", 1, 1)):
        assert refused(g, B, req, ErrAction).fields == {"reason": "NOT_CURRENT_PLAYER"}
    neutral_main(g, A)
    # not the current player comes before "main action already done"
    assert refused(g, C, take_col(g, C, 1), ErrAction).fields == {"reason": "NOT_CURRENT_PLAYER"}


def test_turn_order_late_mandatory_action_for_each_main_action():
    g = play_game(2)
    A = names(g)[0]
    set_strongbox(g, A, RICH)
    neutral_main(g, A)
    for req in (take_col(g, A, 1), pay_cost(g, A, "Green", 1, 1),
                produce(prod(g, A, "base", {"Coin": 1}, SB={"Stone": 2}))):
        err = refused(g, A, req, ErrAction)
        assert err.to_dict() == {"reason": "LATE_MANDATORY_ACTION", "type": "ErrAction"}
    # rearranging is still allowed
    g.apply(A, ReqSwapShelves(cid(g, A, "D1"), cid(g, A, "D2")))


def test_turn_order_early_turn_end_and_passing_the_turn():
    g = play_game(3)
    A, B, C = names(g)
    assert refused(g, A, ReqEndTurn(), ErrAction).fields == {"reason": "EARLY_TURN_END"}
    g.apply(A, ReqLeaderAction(give_leader(g, A, "leader_discount_coin", active=False), False))
    assert refused(g, A, ReqEndTurn(), ErrAction).fields == {"reason": "EARLY_TURN_END"}
    events = neutral_turn(g, A)
    assert g.current == 1 and not g.main_done
    assert events[-2:] == [{"player": B, "type": "UpdateCurrentPlayer"},
                           {"action": "END_TURN", "player": A, "type": "UpdateAction"}]
    neutral_turn(g, B)
    neutral_turn(g, C)
    assert g.current == 0 and g.phase == "play"


def test_turn_order_game_ended_refuses_everything():
    g = play_game(2)
    A, B = names(g)
    lid = give_leader(g, A, "leader_discount_coin", active=False)
    finish_round(g)
    for who, req in ((A, take_col(g, A, 1)), (A, ReqEndTurn()), (A, ReqLeaderAction(lid, False)),
                     (B, ReqEndTurn()), (A, ReqSwapShelves(cid(g, A, "D1"), cid(g, A, "D2")))):
        err = refused(g, who, req, ErrAction)
        assert err.to_dict() == {"reason": "GAME_ENDED", "type": "ErrAction"}


def test_turn_order_late_setup_action():
    g = play_game(2)
    A, B = names(g)
    for who, req in ((A, ReqChooseLeaders((0, 1))), (B, ReqChooseResources({cid(g, B, "D1"): {"Coin": 1}}))):
        err = refused(g, who, req, ErrAction)
        assert err.to_dict() == {"reason": "LATE_SETUP_ACTION", "type": "ErrAction"}


# ============================================================================ Protocol fields


def test_error_fields_market_index_and_unknown_resource():
    g = play_game(2)
    A = names(g)[0]
    for is_row, index in ((True, -1), (True, 3), (False, 4), (False, 7)):
        err = refused(g, A, ReqTakeFromMarket(is_row, index, {}, {}), ErrNoSuchEntity)
        assert err.to_dict() == {"originalEntity": "MARKET_INDEX", "id": index, "type": "ErrNoSuchEntity"}
    err = refused(g, A, ReqTakeFromMarket(True, 0, {}, {cid(g, A, "D3"): {"Gold": 1}}), ErrNoSuchEntity)
    assert err.to_dict() == {"originalEntity": "RESOURCE", "id": -1, "code": "Gold", "type": "ErrNoSuchEntity"}


def test_error_fields_not_owned_containers_and_leaders():
    g = play_game(2)
    A, B = names(g)
    err = refused(g, A, ReqSwapShelves(cid(g, A, "D1"), 999), ErrObjectNotOwned)
    assert err.to_dict() == {"id": 999, "objectType": "Shelf", "type": "ErrObjectNotOwned"}
    err = refused(g, A, ReqSwapShelves(cid(g, A, "D1"), cid(g, B, "D2")), ErrObjectNotOwned)
    assert err.to_dict() == {"id": cid(g, B, "D2"), "objectType": "Shelf", "type": "ErrObjectNotOwned"}
    # an inactive leader's depot is nobody's
    err = refused(g, A, take_row(g, A, 1, LD_Coin={"Coin": 1}), ErrObjectNotOwned)
    assert err.fields == {"id": cid(g, A, "LD_Coin"), "objectType": "Shelf"}
    other = give_leader(g, B, "leader_depot_coin", active=False)
    err = refused(g, A, ReqLeaderAction(other, True), ErrObjectNotOwned)
    assert err.to_dict() == {"id": other, "objectType": "LeaderCard", "type": "ErrObjectNotOwned"}


def test_lower_case_resource_names_are_accepted():
    g = play_game(2)
    A = names(g)[0]
    set_market(g, ["W G B B", "Y P P W", "G Y W R"], slide="W")
    g.apply(A, ReqTakeFromMarket(True, 0, {}, {cid(g, A, "D2"): {"shield": 2}, cid(g, A, "D1"): {"stone": 1}}))
    assert storage(g, A) == {"D1": {"Stone": 1}, "D2": {"Shield": 2}, "D3": {}, "SB": {}}


def test_accepted_requests_end_with_update_action():
    g = play_game(2)
    A, B = names(g)
    set_market(g, M0)
    for req, name in ((take_row(g, A, 3, D1={"Stone": 1}), "TAKE_MARKET_RESOURCES"),
                      (ReqSwapShelves(cid(g, A, "D1"), cid(g, A, "D3")), "SWAP_SHELVES"),
                      (ReqMoveResources(cid(g, A, "D3"), cid(g, A, "D1"), "Stone", 1), "SWAP_SHELVES"),
                      (ReqEndTurn(), "END_TURN")):
        events = g.apply(A, req)
        assert events[-1] == {"action": name, "player": A, "type": "UpdateAction"}


# Observed behaviour of the reference server (shared/protocol/reference-transcripts/errors.jsonl),
# which errors.py promises to reproduce field for field.

def test_reference_unknown_leader_id_when_choosing_leaders():
    g = Game.new(CFG, ["solo"], seed=4)
    p = g.players[0]
    err = refused(g, "solo", ReqChooseLeaders((999, p.hand[0])), ErrObjectNotOwned)
    assert err.to_dict() == {"id": 999, "objectType": "LeaderCard", "type": "ErrObjectNotOwned"}


def test_reference_unknown_leader_id_in_a_leader_action():
    g, P = solo_game()
    err = refused(g, P, ReqLeaderAction(999, True), ErrObjectNotOwned)
    assert err.to_dict() == {"id": 999, "objectType": "LeaderCard", "type": "ErrObjectNotOwned"}


def test_reference_unknown_production_id():
    g, P = solo_game()
    err = refused(g, P, ReqActivateProductions((ProductionRequest(999, {}, {}, {}),)), ErrObjectNotOwned)
    assert err.to_dict() == {"id": 999, "objectType": "ReducedProductionRequest", "type": "ErrObjectNotOwned"}


def test_reference_empty_resource_choice_for_a_seat_without_bonus():
    g = Game.new(CFG, ["solo"], seed=4)
    events = g.apply("solo", ReqChooseResources({}))
    assert events[-1] == {"action": "CHOOSE_RESOURCES", "player": "solo", "type": "UpdateAction"}
    assert g.phase == "setup"


def test_reference_placing_more_than_the_market_line_gives():
    g, P = solo_game()
    set_market(g, ["Y P G W", "G B B W", "R W Y P"], slide="W")   # row 1: Coin, Servant, Stone
    err = refused(g, P, ReqTakeFromMarket(True, 0, {}, {cid(g, P, "D1"): {"Coin": 1}, cid(g, P, "D2"): {"Stone": 2},
                                                        cid(g, P, "D3"): {"Shield": 3}}), ErrReplacedTransRecipe)
    assert err.to_dict() == {"isInput": False, "resType": "", "replacedCount": 3, "shelvesChoiceResCount": 6,
                             "isIllegalDiscardedOut": False, "type": "ErrReplacedTransRecipe"}
