"""Every scene of the window, put on an app's stack one after another, for the tests that measure
what each draws (tests/i18n: in English, Italian and the pseudo-language): the ones ``make
screenshots`` draws (tools/screenshots.py), each help page, the pages of the main menu, a replay,
and the board with a hint shown under its plan."""
from __future__ import annotations

import copy
import functools

from game import i18n

from .table import Table, mid_game


def scenes(app) -> dict:
    """name -> a function that puts the scene on the app's stack."""
    import screenshots

    from game.scenes import help as help_
    from game.scenes import my_games, past_games, versus
    out = dict(screenshots.shots(app))
    for n in range(len(help_.pages(app.config))):
        out[f"how-to-play-{n + 1}"] = functools.partial(lambda n: app.stack.reset(help_.HelpScene(app, n)), n)
    out["versus"] = lambda: app.stack.reset(versus.VersusScene(app))
    out["past-games"] = lambda: app.stack.reset(past_games.PastGamesScene(app))
    out["my-games"] = lambda: app.stack.reset(my_games.MyGamesScene(app, servers=[]))
    out["board-hint"] = functools.partial(hint, app)
    out["board-hint-market"] = functools.partial(hint, app, market=True)
    out["replay"] = functools.partial(replay, app)
    out["title-continue"] = functools.partial(title_with_a_saved_game, app)
    out["title-continue-versus"] = functools.partial(title_with_a_saved_game, app, versus=True)
    return out


def title_with_a_saved_game(app, versus: bool = False) -> None:
    """The title with a solo game saved (``versus``: and a game against the computer, whose long
    entry widens the menu): nine entries or ten, the quiet ones in a row (a file where the save is kept is all
    the title looks at)."""
    from game.client.games import bots_save_path
    from game.scenes.title import TitleScene
    path = bots_save_path(app) if versus else app.solo_save_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}")
    app.stack.reset(TitleScene(app))


def replay(app) -> None:
    """A finished game's replay, on its 40th step."""
    from game import replays as R
    from game.client.replay import open_replay
    from game.rules import default_config
    from game.rules.playout import random_game
    from game.scenes.replay import ReplayScene
    saved = R.save_finished(random_game(default_config(), ["Ada", "Bruno"], seed=12), app.data_dir / R.REPLAYS,
                            "bots", "Ada")
    app.stack.reset(ReplayScene(app, open_replay(saved, app.config, "Ada"), step=40))


def hint(app, market: bool = False) -> None:
    """A solo board whose hint (a hard bot's: a purchase or a production; ``market``: a take) is shown
    under its plan."""
    from game.client.session import GameSession
    from game.rules import default_config
    from game.scenes.board import BoardScene
    game, decision = cached_hint(i18n.current(), market)
    board = BoardScene(app, GameSession(Table(copy.deepcopy(game), "Ada"), default_config(), "Ada"))
    app.stack.reset(board)
    app.frame(1 / 60)
    board.input.take_hint(decision.action, decision.why, decision.then)
    board._rev += 1


@functools.lru_cache(maxsize=None)
def cached_hint(lang: str, market: bool):
    """(The hint is thought in the language spoken: one per language.)"""
    return hint_position(market=market)


def hint_position(level_budget: int = 4, market: bool = False):
    """A solo position where the hard bot proposes a purchase or a production (``market``: a take
    from the market), and its decision, thought in the language spoken."""
    import random

    from game.bots import make_bot
    from game.rules import default_config, player_view
    from game.rules.actions import ReqActivateProductions, ReqBuyDevCard, ReqTakeFromMarket
    cfg = default_config()
    kinds = (ReqTakeFromMarket,) if market else (ReqBuyDevCard, ReqActivateProductions)
    for turns in range(2, 14):
        game = mid_game(["Ada"], 3, turns)
        if game.ended or game.main_done:
            continue
        decision = make_bot("hard", cfg, budget=level_budget).decide(player_view(game, "Ada"), "Ada",
                                                                    random.Random(turns))
        if isinstance(decision.action, kinds) and decision.why:
            return game, decision
    raise AssertionError("no position with such a move to hint")


def shown(app, m, only=None):
    """Each scene put on the app's stack and drawn for a frame, ``m`` measuring it alone: yields
    its name. (One frame: a second drew the same words at the same places, with the same
    problems, in every scene at both sizes in both languages; its painted pages drew it all again.)"""
    for name, make in scenes(app).items():
        if only and name not in only:
            continue
        m.clear()
        make()
        app.frame(0.016)
        yield name
