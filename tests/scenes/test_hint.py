"""The Hint button: the hard bot's next request, thought about off the frame loop, shown as the
plan the player would have built by hand, with the bot's reason; confirmed like any plan."""
from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from screenshots import TableMatch, mid_game  # noqa: E402

from game.bots import make_bot  # noqa: E402
from game.match import LocalMatch  # noqa: E402
from game.rules import default_config, player_view  # noqa: E402
from game.rules.actions import ReqActivateProductions, ReqBuyDevCard, ReqTakeFromMarket  # noqa: E402
from game.rules.views import shadow_game  # noqa: E402
from game.scenes import hint as H  # noqa: E402
from game.scenes.app import App  # noqa: E402
from game.scenes.board import BoardScene  # noqa: E402
from game.scenes.session import GameSession  # noqa: E402

CFG = default_config()
pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(H, "HINT_BUDGET", 8)      # a small search: the test is about the flow


def click(app: App, pos, frames: int = 2) -> None:
    ev = pygame.event.Event
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                      ev(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])
    app.frame(0.016, [ev(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    for _ in range(frames):
        app.frame(0.016)


def ask_hint(app: App, board: BoardScene) -> int:
    """Press Hint and run frames until its plan shows; returns the frames run while it thought."""
    assert board.buttons["hint"].is_enabled
    click(app, board.buttons["hint"].rect.center, frames=0)
    waited = 0
    end = time.monotonic() + 60
    while board.plan is None:
        assert time.monotonic() < end, "no hint came"
        t0 = time.perf_counter()
        app.frame(0.016)
        assert time.perf_counter() - t0 < 0.5      # the frame loop never waits for the bot
        waited += 1
        time.sleep(0.005)
    return waited


@pytest.mark.parametrize("players", [1, 2])
def test_a_hint_is_a_plan_with_a_reason_that_the_player_confirms(players, tmp_path):
    app = App(headless=True, size=(1280, 800))
    nicks = ["Ada", "Bruno"][:players]
    game = mid_game(nicks, 21, 30 if players == 1 else 60)
    match = TableMatch(game, "Ada")
    session = GameSession(match, CFG, "Ada")
    board = BoardScene(app, session)
    app.stack.push(board)
    app.frame(0.016)
    before = len(game.history)
    ask_hint(app, board)
    plan = board.plan
    assert plan.why and isinstance(plan.why, str)
    assert getattr(plan, "ready", True)
    # the hard bot, asked the same question directly, gives this very request
    expected = make_bot("hard", CFG, budget=8).decide(player_view(game, "Ada"), "Ada",
                                                      random.Random(f"hint:Ada:{session.version}")).action
    if isinstance(expected, (ReqTakeFromMarket, ReqBuyDevCard)):
        assert plan.request() == expected
    else:
        assert type(plan.request()) is type(expected)
    app.draw()                                      # the plan panel shows it (with its reason)
    click(app, board.buttons["confirm"].rect.center)
    if board.confirm_dialog is not None:
        click(app, board.confirm_dialog.confirm_button.rect.center)
    assert session.error is None
    assert len(game.history) == before + 1 and game.history[-1][1] == "Ada"


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
    click(app, board.buttons["back"].rect.center)
    assert board.plan is None and match.game.history[-1][0] == "apply" and len(match.game.history) == 1
    # asked, then the game moves before the answer is taken: no plan appears
    assert board.hinter.ask(board.g, "Ada", session.version)
    line = next(h.rect.center for h in board.hits if h.target == ("line", True, 0))
    session.version += 1                            # as if an update had arrived meanwhile
    end = time.monotonic() + 30
    while board.hinter.thinking or board.hinter._asked is not None:
        assert time.monotonic() < end
        app.frame(0.016)
        time.sleep(0.005)
    assert board.plan is None
    click(app, line)
    assert board.plan is not None and not getattr(board.plan, "why", None)


def test_each_kind_of_request_becomes_its_plan():
    """Across seeded games: the plan built for a bot's request sends the same request (market,
    purchase) or one the engine accepts with the same effect on the player's resources."""
    rng = random.Random(5)
    bot = make_bot("medium", CFG)
    kinds = set()
    for seed in range(6):
        game = mid_game(["Ada", "Bruno"], 40 + seed, 20 + 10 * seed)
        for _ in range(30):
            if game.ended:
                break
            nick = game.current_player.nickname
            view = player_view(game, nick)
            decision = bot.decide(view, nick, rng)
            sh = shadow_game(view, CFG, nick)
            plan = H.plan_for(decision.action, decision.why, sh, sh.player(nick))
            assert plan.why == decision.why
            kinds.add(type(plan).__name__)
            req = plan.request()
            if isinstance(decision.action, (ReqTakeFromMarket, ReqBuyDevCard)):
                assert req == decision.action
            elif isinstance(decision.action, ReqActivateProductions):
                mine, theirs = copy.deepcopy(game), copy.deepcopy(game)
                mine.apply(nick, req)
                theirs.apply(nick, decision.action)
                assert mine.player(nick).resource_totals() == theirs.player(nick).resource_totals()
            else:
                assert req == decision.action and plan.text
            game.apply(nick, decision.action)
    assert {"MarketPlan", "BuyPlan", "HintPlan"} <= kinds, kinds
