"""The app's notice strip (game/scenes/notice.py, App.tell) over the board: drawn over the log, whose
newest line keeps the same words, so that the top bar (whose turn, what to do now), the track and
the rest of the board stay in view while it shows; a click on it puts it
away; words told before a frame shows them are shown together. The real App frame loop, with
posted events."""
from __future__ import annotations

import pygame
from support.table import Feed

from game.client.games import default_config
from game.client.session import GameSession
from game.rules.engine import Game
from game.rules.views import player_view
from game.scenes.app import App

CFG = default_config()
WORDS = ("You are back at your unfinished game at 127.0.0.1:51015: the server keeps your seat until it ends, "
         "so it gave you that one rather than the Quick game.")


def _board(tmp_path, monkeypatch) -> App:
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
    app = App(headless=True, size=(1280, 800))
    view = {**player_view(Game.new(CFG, ["Ada", "Bruno"], 3), "Ada"), "isSetupDone": True, "currentPlayer": "Ada"}
    session = GameSession(Feed("Ada", [view]), CFG, "Ada")
    app.stack.reset(app.scene("board", session))
    for _ in range(3):
        app.frame(1 / 60)
    return app


def test_the_top_bar_stays_in_view_while_a_notice_shows(tmp_path, monkeypatch):
    """QA: the notice covered the top bar (whose turn it is, what to do) for 12 s, then the faith
    track for 8 s (a player back after a restart saw their track hidden)."""
    app = _board(tmp_path, monkeypatch)
    try:
        layout = app.stack.top.layout
        bar, log = layout.top_bar, layout.log
        before = app.window.copy()
        app.tell(WORDS)
        app.frame(1 / 60)
        notice = app.notice
        assert notice is not None and notice.rect is not None and log.contains(notice.rect), (notice.rect, log)
        assert not notice.rect.colliderect(bar) and not notice.rect.colliderect(layout.faith)
        after = app.window.copy()
        for picture in (before, after):
            picture.fill((0, 0, 0), log)       # the log aside (its new line, the strip over it)
        assert pygame.image.tobytes(after, "RGB") == pygame.image.tobytes(before, "RGB")   # every pixel of the rest
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=notice.rect.center))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=notice.rect.center))
        app.frame(1 / 60)
        assert app.notice is None                            # a click on it puts it away
    finally:
        app.stack.reset(app.scene("title"))


def test_words_told_before_a_frame_shows_them_are_shown_together(tmp_path, monkeypatch):
    app = _board(tmp_path, monkeypatch)
    try:
        app.tell("Bea is away.")
        app.tell("Cy is away.")
        app.frame(1 / 60)
        assert app.notice.words == "Bea is away. Cy is away."
        app.tell("Dee is away.")                             # once shown, the next words take its place
        assert app.notice.words == "Dee is away."
    finally:
        app.stack.reset(app.scene("title"))
