"""Fixtures of the window's tests (the suite's own, ``dirs`` and the rest, are in tests/conftest.py)."""
from __future__ import annotations

import pygame
import pytest

from game.scenes.app import App
from walk import close


@pytest.fixture
def app():
    """A headless :class:`App` at 1024x640, its folders the test's own (the kit's ``dirs``);
    closed at the test's end as quitting closes it (every scene, and the server it hosts)."""
    a = App(headless=True, size=(1024, 640))
    yield a
    close(a)


@pytest.fixture
def board_module():
    """``game.scenes.board``, imported when a test asks for it (the scenes' own imports first)."""
    import game.scenes.board
    return game.scenes.board


@pytest.fixture
def pointer(monkeypatch):
    """Where the system pointer is (pygame_gui reads it for hovering; a headless display has none):
    set by :func:`support.board_walk.hover`."""
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    return at
