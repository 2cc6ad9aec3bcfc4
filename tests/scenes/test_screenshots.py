"""``make screenshots`` (tools/screenshots.py): each named picture is of the scene it is named for,
still on the screen two frames after it was put there, and no two pictures are the same (QA found
``waiting.png`` byte for byte ``starting-resources.png``: the waiting page handed over at once)."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from screenshots import shots  # noqa: E402

from game.scenes.app import App  # noqa: E402

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


def test_every_screenshot_shows_its_own_scene(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
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
