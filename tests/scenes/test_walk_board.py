"""QA findings on the board, walked like a player: the real ``App`` frame loop, posted events, and
the frames it draws (tools/walk.py).

Tooltips of the action bar are wide and never cover its buttons.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from walk import Walk  # noqa: E402

from game.scenes.app import App  # noqa: E402
from game.scenes.menus import TitleScene  # noqa: E402

pytestmark = pytest.mark.timeout(120)
SIZES = [(1024, 640), (1920, 1080)]


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def pointer(monkeypatch):
    """Where the system pointer is (pygame_gui reads it for hovering; a headless display has none):
    set by :func:`hover`."""
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    return at


def hover(walk: Walk, pointer: list, pos) -> None:
    pointer[0] = (int(pos[0]), int(pos[1]))
    walk.move(pointer[0])


def _close(app: App) -> None:
    while app.stack.top is not None:
        app.stack.pop()
    if app.server is not None:
        app.server.stop()
        app.server = None


def _solo_board(size) -> Walk:
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "board")
    app.stack.push(TitleScene(app))
    walk.frames(2)
    walk.press("Play solo")
    walk.until_scene("LeaderChoiceScene")
    for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):
        walk.key(k)
    walk.until_scene("BoardScene")
    walk.frames(120)                 # past the glow of the first frame
    return walk


def _rects(walk: Walk) -> dict[str, pygame.Rect]:
    return {str(el.text): pygame.Rect(el.rect) for el in walk.app.stack.top.ui.get_sprite_group().sprites()
            if isinstance(el, __import__("pygame_gui").elements.UIButton) and el.visible}


def _changed_box(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pixels that differ between two frames."""
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)   # pixels equal in a and b...
    diff = pygame.mask.Mask(a.get_size(), fill=True)
    diff.erase(mask, (0, 0))                                               # ... taken away
    rects = diff.get_bounding_rects()
    if not rects:
        return None
    return rects[0].unionall(rects[1:])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hint_tooltip_is_wide_and_covers_no_button_of_the_action_bar(size, pointer):
    walk = _solo_board(size)
    try:
        buttons = _rects(walk)
        for label in ("Hint", "Rules", "Produce…"):
            hover(walk, pointer, buttons[label].center)
            walk.frames(2)
            before = walk.app.window.copy()                 # hovered, no tooltip yet
            walk.frames(60)                                  # a second: the tooltip is up
            after = walk.app.window.copy()
            box = _changed_box(before, after)
            assert box is not None, f"no tooltip for {label}"
            assert box.w >= 1.8 * box.h, f"{label}'s tooltip is narrow and tall: {box}"
            for other, rect in buttons.items():
                assert not box.colliderect(rect), f"{label}'s tooltip covers {other}"
            hover(walk, pointer, (3, 3))
            walk.frames(3)
    finally:
        _close(walk.app)
