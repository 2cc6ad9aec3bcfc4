"""``make screenshots`` (tools/screenshots.py): each named picture is of the scene it is named for,
still on the screen two frames after it was put there, and no two pictures are the same (QA found
``waiting.png`` byte for byte ``starting-resources.png``: the waiting page handed over at once);
and a picture is the same at every run, byte for byte (the first boards were dealt a new game each
time)."""
from __future__ import annotations

import hashlib

import pygame
import pytest

from screenshots import first_board, shots

from game.scenes.app import App

pytestmark = pytest.mark.timeout(180)

# the scene class each picture must show (the ones not named here are checked for difference only)
SCENES = {
    "title": "TitleScene",
    "settings": "SettingsScene",
    "join": "JoinScene",
    "lobby": "LobbyScene",
    "leader-choice": "LeaderChoiceScene",
    "starting-resources": "ResourceChoiceScene",
    "waiting": "WaitingScene",
    "board-solo": "BoardScene",
    "game-over-solo": "GameOverScene",
}


def test_every_screenshot_shows_its_own_scene():
    app = App(headless=True, size=(1024, 640))
    seen: dict[str, str] = {}
    try:
        for name, make in shots(app).items():
            make()
            app.frame(0.016)
            app.frame(0.016)
            app.draw()      # what app.screenshot saves
            top = type(app.stack.top).__name__
            if name in SCENES:
                assert top == SCENES[name], f"{name}.png would show {top}"
            digest = hashlib.sha1(bytes(app.window.get_view("1"))).hexdigest()
            assert digest not in seen, f"{name}.png is the same picture as {seen.get(digest)}.png"
            seen[digest] = name
    finally:
        while app.stack.top is not None:
            app.stack.pop()
    assert {"waiting", "starting-resources", "board-solo"} <= set(seen.values())


def drawn(name: str) -> bytes:
    """The picture ``name`` of :func:`shots`, drawn by an app of its own."""
    app = App(headless=True, size=(1024, 640))
    try:
        shots(app)[name]()
        app.frame(0.016)
        app.frame(0.016)
        app.draw()
        return pygame.image.tobytes(app.window, "RGB")
    finally:
        while app.stack.top is not None:
            app.stack.pop()


def test_the_first_board_and_the_waiting_page_are_drawn_the_same_at_every_run(monkeypatch):
    monkeypatch.delenv("MOR_SEED", raising=False)        # as on a developer's machine
    boards = [pygame.image.tobytes(first_board((1024, 640)), "RGB") for _ in range(2)]
    assert boards[0] == boards[1], "first-board-solo-1024x640.png is not the same picture twice"
    assert drawn("waiting") == drawn("waiting")
