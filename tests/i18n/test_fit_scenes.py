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
from support.fit_scenes import shown

SIZES = [(1024, 640), (1920, 1080)]


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
