"""Every scene fits, in English and in Italian, at 1024x640 and 1920x1080 (issue 29, Fit): no words
wider than their box, cut short, over other words or outside the window, measured on the boxes
drawn (tests/support/fit.py), not by eye. The scenes are the ones ``make screenshots`` draws
(tools/screenshots.py), each help page, the pages of the main menu, and the board with a hint shown
under its plan (the hint at 1024x640 was once drawn over the payment line and cut mid-sentence)."""
from __future__ import annotations

import copy
import functools

import pytest

from game import i18n

SIZES = [(1024, 640), (1920, 1080)]


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
    out["board-hint"] = functools.partial(_hint, app)
    out["board-hint-market"] = functools.partial(_hint, app, market=True)
    out["replay"] = functools.partial(_replay, app)
    out["title-continue"] = functools.partial(_title_with_a_saved_game, app)
    out["title-continue-versus"] = functools.partial(_title_with_a_saved_game, app, versus=True)
    return out


def _title_with_a_saved_game(app, versus: bool = False) -> None:
    """The title with a solo game saved (``versus``: and a game against the computer, whose long
    entry widens the menu): nine entries or ten, the quiet ones in a row (a file where the save is kept is all
    the title looks at)."""
    from game.client.games import bots_save_path
    from game.scenes.title import TitleScene
    path = bots_save_path(app) if versus else app.solo_save_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}")
    app.stack.reset(TitleScene(app))


def _replay(app) -> None:
    """A finished game's replay, on its 40th step."""
    from game import replays as R
    from game.client.replay import open_replay
    from game.rules import default_config
    from game.rules.playout import random_game
    from game.scenes.replay import ReplayScene
    saved = R.save_finished(random_game(default_config(), ["Ada", "Bruno"], seed=12), app.data_dir / R.REPLAYS,
                            "bots", "Ada")
    app.stack.reset(ReplayScene(app, open_replay(saved, app.config, "Ada"), step=40))


def _hint(app, market: bool = False) -> None:
    """A solo board whose hint (a hard bot's: a purchase or a production; ``market``: a take) is shown
    under its plan."""
    from game.client.session import GameSession
    from game.rules import default_config
    from game.scenes.board import BoardScene
    from support.table import Table
    game, decision = _cached_hint(i18n.current(), market)
    board = BoardScene(app, GameSession(Table(copy.deepcopy(game), "Ada"), default_config(), "Ada"))
    app.stack.reset(board)
    app.frame(1 / 60)
    board.input.take_hint(decision.action, decision.why, decision.then)
    board._rev += 1


@functools.lru_cache(maxsize=None)
def _cached_hint(lang: str, market: bool):
    """(The hint is thought in the language spoken: one per language.)"""
    from test_fit import _hint_position
    return _hint_position(market=market)


@pytest.fixture(scope="module")
def quick_games():
    """The screenshots' games, played out once for all four runs (each run gets its own copy)."""
    import screenshots
    mp = pytest.MonkeyPatch()
    for name in ("mid_game", "_played_out"):
        made = functools.lru_cache(maxsize=None)(lambda *a, _f=getattr(screenshots, name): _f(*a))
        mp.setattr(screenshots, name, lambda nicks, *a, _m=made: copy.deepcopy(_m(tuple(nicks), *a)))
    yield
    mp.undo()


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


def measure_all(monkeypatch, size, lang, only=None) -> list[str]:
    from support.fit import Measure

    from game.scenes.app import App
    from game.scenes.catalog import register_scenes
    register_scenes()
    problems = []
    app = App(headless=True, size=size, language=lang)
    try:
        m = Measure(monkeypatch, app)
        for name in shown(app, m, only):
            problems += [f"{name}: {p}" for p in m.problems()]     # (words meant to end in "…" aside)
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        i18n.use("en")
    return problems


@pytest.mark.seed(3)
@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_scene_fits(monkeypatch, tmp_path, quick_games, size, lang):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path))
    problems = measure_all(monkeypatch, size, lang)
    assert not problems, f"{lang} at {size[0]}x{size[1]}:\n" + "\n".join(problems)
