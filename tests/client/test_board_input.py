"""The board's input (game/client/board_input.py), driven with typed targets and no display: a
click starts a plan, edits it, or sends a request, and what the engine would refuse is said in
words before anything is sent."""
from __future__ import annotations

from game.client.board_input import (BoardInput, Card, Favor, Item, Leader, Line, Opponent, Production,
                                     Shelf, Suggest)
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.session import GameSession
from game.rules import Game, default_config
from support.table import Table, past_setup

CFG = default_config()


def table(players=("Ada", "Bruno"), seed=3) -> tuple[Game, GameSession, BoardInput]:
    """A game just past its set-up, on Ada's first turn."""
    game = past_setup(Game.new(CFG, list(players), seed), "Ada", seed)
    session = GameSession(Table(game, "Ada"), CFG, "Ada")
    session.pump()
    return game, session, BoardInput(session)


def test_a_market_line_becomes_a_plan_that_sends_the_take_on_confirm():
    game, session, board = table()
    assert board.can_act()
    board.click(Line(True, 0))
    assert isinstance(board.plan, MarketPlan) and board.selected_item == board.next_unplaced()
    board.click(Item(0))                         # a resource picked, to be placed
    assert board.selected_item == 0
    board.click(Suggest())                       # every resource where the rules advise
    before = len(game.history)
    board.send_plan()
    session.pump()
    assert board.plan is None and session.error is None
    assert game.main_done and len(game.history) > before


def test_a_card_and_a_production_start_their_plans_and_cancel_drops_them():
    _game, _session, board = table()
    board.click(Card("Green", 1))
    assert isinstance(board.plan, BuyPlan)
    board.cancel()
    assert board.plan is None
    base = board.vm.me["baseProduction"]
    board.click(Production(base))
    assert isinstance(board.plan, ProductionPlan) and base in board.plan.selected


def test_two_shelves_clicked_outside_a_plan_are_swapped():
    game, session, board = table()
    shelves = board.vm.me["warehouseShelves"]
    held = {s.id: s.total() for s in game.player("Ada").shelves}
    assert held == {shelves[0]: 0, shelves[1]: 0, shelves[2]: 1}      # (the deal of seed 3)
    board.click(Shelf(shelves[0]))
    assert board.selected_shelf == shelves[0]
    board.click(Favor(0))                        # a click on nothing clickable keeps it picked
    assert board.selected_shelf == shelves[0]
    board.click(Shelf(shelves[2]))
    session.pump()
    assert board.selected_shelf is None and session.error is None
    assert {s.id: s.total() for s in game.player("Ada").shelves} == {shelves[0]: 1, shelves[1]: 0, shelves[2]: 0}
    board.click(Shelf(shelves[1]))
    board.click(None)                            # a click on the table drops the pick
    assert board.selected_shelf is None


def test_a_leader_in_hand_offers_play_and_discard_and_says_why_not_yet():
    game, session, board = table()
    lid = board.vm.me["leadersHand"][0]
    board.click(Leader(lid))
    assert board.leader_menu == lid
    assert session.leader_refusal(lid) == "Needs 1 more level-2 green card"     # (the deal of seed 3)
    board.click(Line(False, 1))                  # anything else closes it
    assert board.leader_menu is None
    board.cancel()
    board.click(Leader(lid))
    board.leader_action(lid, False)              # discarded for a step on the faith track
    session.pump()
    assert board.leader_menu is None and lid not in game.player("Ada").hand


def test_an_opponent_is_looked_at_and_nothing_moves_out_of_turn():
    game, session, board = table()
    board.click(Opponent("Bruno"))
    assert board.viewing == "Bruno"
    board.click(Line(True, 0))                   # the first click only closes their board
    assert board.viewing is None and board.plan is None
    board.click(Line(True, 0))
    board.send_plan()
    session.end_turn()
    session.pump()
    assert not board.can_act()
    board.click(Line(True, 0))
    assert board.plan is None


def test_the_session_answers_what_the_board_asks_of_the_rules():
    _game, session, _board = table()
    line = session.market_line(True, 0)
    assert line.is_row and line.index == 0
    assert all(isinstance(c, str) and isinstance(lv, int) for c, lv in session.buyable())
    assert isinstance(session.can_produce(), bool)
    assert session.purchase_words("Green", 1) == "You need 1 Servant, 1 Shield more."   # (the deal of seed 3)
    assert session.purchase_words("Green", 2) == "No slot has a level-1 card on top to take a level-2 card."
