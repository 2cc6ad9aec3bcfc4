"""Who is away, and how long their seat waits, told by the window from the session's PlayerAway
notice (game.client.notices): over the page a while and in the game's log, once per notice,
whichever scene shows the game; one away before the first frame is told on it."""
from __future__ import annotations

from support.table import Feed

from game.client.flow.presence import away_words
from game.client.games import default_config
from game.client.notices import PlayerAway
from game.client.session import GameSession, Note
from game.rules.engine import Game
from game.rules.views import player_view
from game.scenes.app import App

CFG = default_config()


def _away_lines(session: GameSession) -> list[str]:
    return [str(line) for line in session.log if isinstance(line, Note) and "is away" in line]


def test_the_window_tells_who_is_away_from_the_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
    app = App(headless=True, size=(1024, 640))
    view = {**player_view(Game.new(CFG, ["Ada", "Bruno", "Cy"], 3), "Ada"), "isSetupDone": True,
            "currentPlayer": "Bruno"}
    feed = Feed("Ada", [view, {"type": "UpdatePlayerAway", "player": "Cy", "seconds": 20}])
    session = GameSession(feed, CFG, "Ada")
    session.pump()                               # (as seating does, before the first frame)
    try:
        app.stack.reset(app.scene("board", session))
        app.frame(1 / 60)
        assert app.notice is not None and app.notice.words == away_words("Cy", 20)
        feed.out = [{"type": "UpdatePlayerAway", "player": "Bruno", "seconds": 30}]
        for _ in range(3):
            app.frame(1 / 60)
        assert app.notice.words == away_words("Bruno", 30)
        assert _away_lines(session) == [away_words("Cy", 20), away_words("Bruno", 30)]
        assert session.notices.listening(PlayerAway) == 1
        feed.out = [{"type": "UpdatePlayerAway", "player": "Ada", "seconds": 30}]   # never oneself
        app.frame(1 / 60)
        assert len(_away_lines(session)) == 2
    finally:
        app.stack.reset(app.scene("title"))
