"""How to play: every page renders at any size with its picture, the buttons and keys turn the
pages, the title page opens it, and the numbers it gives are the configuration's."""
from __future__ import annotations

import pygame
import pytest

from game.rules import default_config
from game.scenes.app import App
from game.scenes.help import HelpScene, pages
from game.scenes.title import TitleScene

from walk import click, click_at, frames, not_flat

SIZES = [(1024, 640), (1920, 1080)]

pytestmark = pytest.mark.timeout(120)


def key(app: App, k: int) -> None:
    frames(app, 2, [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")])


@pytest.mark.parametrize("size", SIZES)
def test_every_page_renders_with_its_picture(app, size):
    app.resize(size)
    for i in range(len(pages(app.config))):
        app.stack.reset(HelpScene(app, i))
        frames(app, 2)
        assert not_flat(app.window)
        scene = app.stack.top
        art = scene._art(scene.pages[i].art, 300, 300)
        assert art is not None and art.get_bounding_rect().w > 20, scene.pages[i].title


def test_buttons_and_keys_turn_the_pages_and_lead_back(app):
    app.stack.reset(TitleScene(app))
    frames(app, 3)
    click(app, "help")
    scene = app.stack.top
    assert isinstance(scene, HelpScene) and scene.page == 0
    assert not scene.widgets["prev"].is_enabled
    click(app, "next")
    assert scene.page == 1 and scene.widgets["prev"].is_enabled
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert scene.page == 3
    key(app, pygame.K_LEFT)
    click(app, "prev")
    assert scene.page == 1
    for _ in range(20):
        key(app, pygame.K_RIGHT)
    assert scene.page == len(scene.pages) - 1 and scene.widgets["next"].text == "Done"
    click(app, "next")
    assert isinstance(app.stack.top, TitleScene)
    click(app, "help")
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, TitleScene)


def test_the_numbers_are_the_configurations():
    cfg = default_config()
    text = {p.title: " ".join(p.paragraphs) for p in pages(cfg)}
    spaces = ", ".join(str(s.pope_space) for s in cfg.vatican_sections)
    assert f"({spaces})" in text["Faith and the Vatican"]
    assert f"one for every {cfg.resources_per_vp} resources" in text["The goal"]
    assert f"space {cfg.last_space}" in text["Solo against Lorenzo"]
    assert f"dealt {cfg.leaders_dealt} leaders and keep {cfg.leaders_kept}" in text["Leaders"]


def test_the_rules_open_over_a_game_and_lead_back_to_it(app):
    from support.table import Table, mid_game
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada", "Bruno"], 5, 30)
    board = BoardScene(app, GameSession(Table(game, "Ada"), app.config, "Ada"))
    app.stack.push(board)
    frames(app, 2)
    click_at(app, board.buttons["rules"].rect.center)
    assert isinstance(app.stack.top, HelpScene)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is board
    key(app, pygame.K_F1)
    assert isinstance(app.stack.top, HelpScene)
    click(app, "back")
    assert app.stack.top is board


def test_every_word_drawn_says_favor_as_the_rules_do(app, monkeypatch):
    """RULES.md says "favor tile", and so does the board: the pages and their pictures' captions too."""
    from game.scenes import backdrop, help as help_module
    from game.scenes.art import fonts
    drawn: list[str] = []
    render, tracked = fonts.render, backdrop.tracked

    def spy_render(text, *a, **k):
        drawn.append(str(text))
        return render(text, *a, **k)

    def spy_tracked(text, *a, **k):
        drawn.append(str(text))
        return tracked(text, *a, **k)
    monkeypatch.setattr(fonts, "render", spy_render)
    monkeypatch.setattr(help_module, "tracked", spy_tracked)
    for i in range(len(pages(app.config))):
        app.stack.reset(HelpScene(app, i))
        frames(app, 2)
    said = " ".join(drawn).lower()
    assert "favor tile" in said and "favour" not in said


def _kicker_to_title_gap(surface: pygame.Surface) -> int:
    """Pixel rows between the kicker's last (oxblood) row and the title's first (ink) row."""
    w, h = surface.get_size()
    x0, x1, y0, y1 = round(w * 0.25), round(w * 0.75), round(h * 0.05), round(h * 0.3)
    band = surface.subsurface((x0, y0, x1 - x0, y1 - y0))
    oxblood = pygame.mask.from_threshold(band, (122, 42, 30), (25, 25, 25, 255))
    ink = pygame.mask.from_threshold(band, (52, 32, 18), (17, 17, 17, 255))
    line = pygame.mask.Mask((x1 - x0, 1), fill=True)
    rows = [(y0 + y, oxblood.overlap_area(line, (0, y)), ink.overlap_area(line, (0, y))) for y in range(y1 - y0)]
    first_ink = next(y for y, _ox, n in rows if n > 8)
    return first_ink - max(y for y, ox, _ink in rows if ox > 2 and y < first_ink)


@pytest.mark.parametrize("size", SIZES)
def test_the_kicker_stands_clear_of_the_title(app, size):
    """'how to play · 3 of 8' sat against the title's capitals (3 to 8 px): a clear line now."""
    app.resize(size)
    for i in range(len(pages(app.config))):
        app.stack.reset(HelpScene(app, i))
        frames(app, 2)
        assert _kicker_to_title_gap(app.window) >= round(size[1] / 80), app.stack.top.pages[i].title
