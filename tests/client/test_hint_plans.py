"""The hint's plans, without a window: each kind of bot request becomes the plan a player would
have built by hand (game.client.hint), and a rearranging decision keeps the take it is for on
its way back from the bot's worker process. (The Hint button on the board: tests/scenes/test_hint.py.)"""
from __future__ import annotations

import copy
import random

import pytest

from support.bot_games import a_rearranging_decision
from support.table import mid_game

from game.bots import make_bot
from game.client import hint as H
from game.rules import default_config, player_view
from game.rules.actions import ReqActivateProductions, ReqBuyDevCard, ReqTakeFromMarket
from game.rules.shadow import shadow_game

CFG = default_config()
pytestmark = pytest.mark.timeout(120)


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


def test_a_rearranging_decision_keeps_its_take_through_a_worker_process():
    from game.bots.driver import BotPool, Job
    game, nick, decision = a_rearranging_decision()
    # the worker's own answer is the point: time enough for it (spawned, then thinking) on a loaded
    # machine, where the 8 s of play let the easy bot answer in its place (pid 0, seen)
    pool = BotPool(CFG, processes=True, time_limit=60)
    got = []
    try:
        import threading
        done = threading.Event()
        pool.submit(Job(nick, "medium", player_view(game, nick), "s", 0, 0, None, CFG.path, language="it"),
                    lambda a: (got.append(a), done.set()))
        assert done.wait(90)
    finally:
        pool.close()
    answer = got[0]
    assert answer is not None and pool.mode == "processes" and answer.pid
    assert (answer.action, answer.then) == (decision.action, decision.then)
    # the hint's reason in the player's language (the worker speaks the job's), the same reason
    assert decision.why.startswith("Rearrange the warehouse first, so that ")
    assert answer.why.startswith("Prima riordina il Magazzino, così "), answer.why
    from game import i18n
    assert i18n.current() == "en"                                  # this process's language untouched
