"""The Hint button: the hard bot's next request, thought about off the frame loop, shown as the
plan the player would have built by hand, with the bot's reason; confirmed like any plan."""
from __future__ import annotations

import os
import random
import time

import pytest

from support.bot_games import a_rearranging_decision
from support.table import Table, mid_game
from walk import click_at

from game.bots import make_bot
from game.bots.driver import BotPool
from game.match import LocalMatch
from game.rules import default_config, player_view
from game.rules.actions import ReqBuyDevCard, ReqTakeFromMarket
from game.rules.shadow import shadow_game
from game.client import hint as H
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()
pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _small_hint(monkeypatch):
    monkeypatch.setattr(H, "HINT_BUDGET", 8)      # a small search: the test is about the flow


def ask_hint(app: App, board: BoardScene) -> int:
    """Press Hint and run frames until its plan shows; returns the frames run while it thought.

    The question is held back from the bot's worker at first: frames go on, with no plan and the
    hint thinking, so the frame loop never waits for the bot (a loop that did would hang here and
    time out); then the question goes to the worker and its answer becomes the plan."""
    assert board.buttons["hint"].is_enabled
    held: list[tuple] = []
    submit = BotPool.submit
    BotPool.submit = lambda pool, job, callback: held.append((pool, job, callback))
    try:
        click_at(app, board.buttons["hint"].rect.center, after=0)
        for _ in range(5):
            app.frame(0.016)
        assert len(held) == 1, "the hint was not asked of the bot's worker"
        assert board.plan is None and board.hinter.thinking
    finally:
        BotPool.submit = submit
    submit(*held[0])
    waited = 5
    end = time.monotonic() + 60
    while board.plan is None:
        assert time.monotonic() < end, "no hint came"
        app.frame(0.016)
        waited += 1
        time.sleep(0.005)
    return waited


@pytest.mark.parametrize("players", [1, 2])
def test_a_hint_is_a_plan_with_a_reason_that_the_player_confirms(players):
    app = App(headless=True, size=(1280, 800))
    nicks = ["Ada", "Bruno"][:players]
    game = mid_game(nicks, 21, 30 if players == 1 else 60)
    match = Table(game, "Ada")
    session = GameSession(match, CFG, "Ada")
    board = BoardScene(app, session)
    app.stack.push(board)
    app.frame(0.016)
    before = len(game.history)
    ask_hint(app, board)
    plan = board.plan
    assert plan.why and isinstance(plan.why, str)
    assert getattr(plan, "ready", True)
    # the bot thought in a worker process, by the rules the session reads from the game's messages
    # (which no file holds: the worker once failed to load them and the hint fell back to a thread)
    assert board.hinter._pool.mode == "processes" and not os.path.isfile(session.config.path)
    # the hard bot, asked the same question directly, gives this very request
    decided = make_bot("hard", CFG, budget=8).decide(player_view(game, "Ada"), "Ada",
                                                     random.Random(f"hint:Ada:{session.version}"))
    expected = decided.action
    if decided.then:                                # a rearranging, and the take it is for: one plan
        assert plan.requests() == [expected, *decided.then]
    elif isinstance(expected, (ReqTakeFromMarket, ReqBuyDevCard)):
        assert plan.request() == expected
    else:
        assert type(plan.request()) is type(expected)
    app.draw()                                      # the plan panel shows it (with its reason)
    click_at(app, board.buttons["confirm"].rect.center)
    if board.confirm_dialog is not None:
        click_at(app, board.confirm_dialog.confirm_button.rect.center)
    assert session.error is None
    assert len(game.history) == before + 1 + len(decided.then) and game.history[-1][1] == "Ada"


def test_a_stale_hint_is_dropped_and_back_drops_a_hint(tmp_path):
    app = App(headless=True, size=(1024, 640))
    match = LocalMatch(CFG, "Ada", seed=5, save_path=tmp_path / "solo.json")
    session = GameSession(match, CFG, "Ada")
    session.pump()
    from game.rules.actions import ReqChooseLeaders
    session.send(ReqChooseLeaders(tuple(session.vm.me["leadersHand"][:2])))
    session.pump()
    board = BoardScene(app, session)
    app.stack.push(board)
    app.frame(0.016)
    ask_hint(app, board)
    click_at(app, board.buttons["back"].rect.center)
    assert board.plan is None and match.game.history[-1][0] == "apply" and len(match.game.history) == 1
    # asked, then the game moves before the answer is taken: no plan appears
    assert board.hinter.ask(board.g, "Ada", session.version)
    line = next(h.rect.center for h in board.hits if h.target == BI.Line(True, 0))
    session.version += 1                            # as if an update had arrived meanwhile
    end = time.monotonic() + 30
    while board.hinter.thinking or board.hinter._asked is not None:
        assert time.monotonic() < end
        app.frame(0.016)
        time.sleep(0.005)
    assert board.plan is None
    click_at(app, line)
    assert board.plan is not None and not getattr(board.plan, "why", None)


def test_a_hint_that_rearranges_the_warehouse_first_is_one_plan_with_the_take_it_is_for():
    """QA: Confirm on 'Rearrange the warehouse first…' did the swap alone, and the next Hint often
    proposed another swap: the player needed three hints for one take. Now the rearranging and
    the take are one market plan, sent together on Confirm."""
    from game.rules.actions import ReqSwapShelves
    game, nick, decision = a_rearranging_decision()
    assert isinstance(decision.action, ReqSwapShelves) and isinstance(decision.then[-1], ReqTakeFromMarket)
    sh = shadow_game(player_view(game, nick), CFG, nick)
    plan = H.plan_for(decision.action, decision.why, sh, sh.player(nick), decision.then)
    assert type(plan).__name__ == "MarketPlan" and plan.why == decision.why
    assert plan.requests() == [decision.action, *decision.then]
    # through the board: the answer comes, the plan shows, one Confirm sends every request
    app = App(headless=True, size=(1280, 800))
    session = GameSession(Table(game, nick), CFG, nick)
    board = BoardScene(app, session)
    app.stack.push(board)
    app.frame(0.016)
    from game.bots.driver import Answer

    class Answered:                                  # the hard bot's answer, as the worker gives it
        thinking = False

        def take(self):
            return session.version, Answer(None, decision.action, decision.why, "hard", 0.1,
                                           then=decision.then)

        def close(self):
            pass

    board.hinter = Answered()
    app.frame(0.016)
    assert board.plan is not None and board.plan.requests() == [decision.action, *decision.then]
    app.draw()
    before = len(game.history)
    click_at(app, board.buttons["confirm"].rect.center)
    if board.confirm_dialog is not None:
        click_at(app, board.confirm_dialog.confirm_button.rect.center)
    assert session.error is None
    sent = [h for h in game.history[before:] if h[1] == nick]
    assert len(sent) == 1 + len(decision.then)      # the swaps and the take, from one Confirm
    assert game.main_done
