"""The app rings (a sound, the title's flash) once each time it becomes the player's turn: the
scenes of a game hear the session's TurnStarted notice (game.client.notices); none resets a flag."""
from __future__ import annotations

from support.table import Feed

from game.client.games import default_config
from game.client.notices import TurnStarted
from game.client.session import GameSession
from game.rules.engine import Game
from game.rules.views import player_view
from game.scenes.app import App

CFG = default_config()


def test_the_app_rings_once_for_each_turn_whichever_scene_shows_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
    app = App(headless=True, size=(1024, 640))
    rings: list[str] = []
    app.notify_turn = lambda: rings.append(type(app.stack.top).__name__)   # type: ignore[method-assign]
    feed = Feed("Ada")
    session = GameSession(feed, CFG, "Ada")
    try:
        app.stack.reset(app.scene("lobby", session))
        app.frame(1 / 60)
        view = player_view(Game.new(CFG, ["Ada", "Bruno"], 3), "Ada")
        feed.out = [{**view, "isSetupDone": True, "currentPlayer": "Bruno"}]
        for _ in range(3):
            app.frame(1 / 60)
        assert type(app.stack.top).__name__ == "BoardScene" and rings == []
        for who in ("Ada", "Bruno", "Ada"):
            feed.out.append({"type": "UpdateCurrentPlayer", "player": who})
            for _ in range(2):
                app.frame(1 / 60)
        assert rings == ["BoardScene", "BoardScene"]
        assert session.notices.listening(TurnStarted) == 1   # the lobby's bell went with the lobby
    finally:
        app.stack.reset(app.scene("title"))
