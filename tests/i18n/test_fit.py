"""Italian fits (issue 29): Italian runs 20-30% longer than English. At 1024x640 and 1920x1080,
on the pages a new player sees first (title, Settings, Join, the leaders' choice, the board),
every button's words fit its button in Italian, and no text the board draws is cut short ("…")
nor drawn outside the window."""
from __future__ import annotations

import pygame
import pytest

from game import i18n
from support.fit_scenes import hint_position

SIZES = [(1024, 640), (1920, 1080)]


def _buttons(walk) -> list[tuple[str, int, int]]:
    """(words, their width in the button's font, the room the button has) of every visible button."""
    import pygame_gui
    out = []
    for el in walk.app.stack.top.ui.get_sprite_group().sprites():
        if isinstance(el, pygame_gui.elements.UIButton) and el.visible and str(el.text) and el.font is not None:
            out.append((str(el.text), el.font.size(str(el.text))[0], el.rect.w - 4))
    return out


@pytest.mark.seed(1)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_italian_fits_its_buttons_and_the_board(monkeypatch, size):
    from support.drawn import Words
    from walk import close, start
    from game.scenes.art import fonts
    drawn: list[tuple[str, int]] = []
    real = fonts.render

    def render(text, size_, *args, **kw):
        img = real(text, size_, *args, **kw)
        drawn.append((str(text), img.get_width()))
        return img
    monkeypatch.setattr(fonts, "render", render)
    Words(monkeypatch)
    monkeypatch.setenv("LANGUAGE", "it")        # the system's language: the game speaks it by itself
    i18n.use("it")
    walk = start(size, nickname="Ada")
    pages: dict[str, list] = {}
    try:
        walk.frames(3)
        pages["title"] = _buttons(walk)
        for page, scene in (("Impostazioni", "SettingsScene"), ("Unisciti a una partita", "JoinScene"),
                            ("Come si gioca", "HelpScene"), ("Gioca contro il computer", "VersusScene"),
                            ("Partite passate", "PastGamesScene")):
            walk.press(page)
            walk.until_scene(scene)
            walk.frames(3)
            pages[scene] = _buttons(walk)
            walk.key(pygame.K_ESCAPE)
            walk.until_scene("TitleScene")
        walk.press("Gioca in solitario")
        walk.until_scene("LeaderChoiceScene")
        walk.key(pygame.K_1, "1")
        walk.key(pygame.K_3, "3")
        walk.frames(3)
        pages["leaders"] = _buttons(walk)
        walk.key(pygame.K_RETURN, "\r")
        walk.until_scene("BoardScene", timeout=20)
        walk.frames(5)
        walk.app.frame(5.0)
        drawn.clear()
        walk.frames(3)
        pages["board"] = _buttons(walk)
        board_drawn = list(drawn)
    finally:
        close(walk.app)
        i18n.use("en")
    too_long = [(page, words, need, room) for page, buttons in pages.items()
                for words, need, room in buttons if need > room]
    assert not too_long, f"Italian words wider than their button at {size}: {too_long}"
    cut = [t for t, _w in board_drawn if t.rstrip().endswith("\u2026") and len(t) > 3]
    assert not cut, f"the board's words cut short at {size}: {cut}"
    wide = [(t, w) for t, w in board_drawn if w > size[0]]
    assert not wide, f"wider than the window at {size}: {wide}"


@pytest.mark.seed(3)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hint_of_a_purchase_or_production_fits_in_italian(monkeypatch, size):
    """The hint's reason under its plan: whole (not cut short), over no other line of the panel."""
    from support.table import Table

    from game.client.session import GameSession
    from game.rules import default_config
    from game.scenes.app import App
    from game.scenes.board import BoardScene
    from game.scenes.panels import plan as plan_panel
    drawn: list[tuple[str, pygame.Rect]] = []
    real = plan_panel.text

    def text(surface, words, *args, **kw):
        r = real(surface, words, *args, **kw)
        drawn.append((str(words), r))
        return r
    monkeypatch.setattr(plan_panel, "text", text)
    monkeypatch.setenv("LANGUAGE", "it")
    i18n.use("it")
    try:
        game, decision = hint_position()
        app = App(headless=True, size=size)
        board = BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada"))
        app.stack.push(board)
        for _ in range(3):
            app.frame(1 / 60)
        board.input.take_hint(decision.action, decision.why, decision.then)
        board._rev += 1
        drawn.clear()
        for _ in range(3):
            app.frame(1 / 60)
    finally:
        i18n.use("en")
    said = " ".join(" ".join(w for w, _r in drawn).split())
    assert " ".join(("Suggerimento: " + decision.why).split()) in said, f"the hint not whole at {size}: {said}"
    cut = [w for w, _r in drawn if w.rstrip().endswith("\u2026")]
    assert not cut, f"cut short at {size}: {cut}"
    shown = {(w, tuple(r)) for w, r in drawn}
    rects = [(w, pygame.Rect(r)) for w, r in shown]
    over = [(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1:]
            if ra.inflate(-2, -2).colliderect(rb.inflate(-2, -2))]
    assert not over, f"lines drawn over each other at {size}: {over}"
