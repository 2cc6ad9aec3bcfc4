"""The replay of the game that just ended, from the game-over page: made here for a game run on
this machine, asked of the server for a remote one (:class:`FetchReplayScene` waits for it), then
shown by the replay's screen (:mod:`.replay`, asked of the app by name).
"""
from __future__ import annotations

from typing import Any

import pygame

from game.i18n import _

from game.client.notices import ReplayArrived, ReplayRefused
from game.client.replay import Replay, ReplayError, keep_finished
from game.client.session import GameSession

from .art import fonts
from .backdrop import SEPIA, PaintedScene, title_block
from .scene import Scene


def watch_finished(app: Any, session: GameSession) -> Scene:
    """The screen of the replay of the game that just ended: made here for a game run on this
    machine, asked of the server for a remote one (our servers answer ``ReqReplay``; the scene
    waits for it)."""
    record = session.match.replay_record()
    if record is not None:                   # solo, or against the computer: the engine is here
        return app.scene("replay", Replay(record, app.config))
    return FetchReplayScene(app, session)


class FetchReplayScene(PaintedScene):
    """Waits for the server's ``UpdateReplay`` (a moment), then shows the replay; or says why not."""

    def __init__(self, app: Any, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        self.message = _("Asking the server for the game's replay…")
        self.record: Any = None              # the replay the server sent
        self.refused: str | None = None      # or why it has none, in words
        self.listen(session, ReplayArrived, self._arrived)
        self.listen(session, ReplayRefused, self._refused)
        if not session.match.fetch_replay():
            self.message = _("This server does not keep replays (it is not one of ours).")

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        self.button("back", pygame.Rect(w // 2 - round(140 * u), h - round(120 * u), round(280 * u), round(48 * u)),
                    _("Back"), "@menu_quiet")

    def frame_interval(self) -> float | None:
        return 0.1

    def update(self, dt: float) -> None:
        self.session.pump()
        record, error = self.record, self.refused
        if error:
            self.message = error
        elif record is not None:
            try:
                replay = Replay(record, self.app.config, self.session.nickname)
            except ReplayError as e:
                self.message = str(e)
                self.record = None
                return
            if self.app.server is None:   # a game hosted here is kept by its server already
                keep_finished(replay, self.app.data_dir)
            self.app.stack.replace(self.app.scene("replay", replay))

    def _arrived(self, notice: ReplayArrived) -> None:
        self.record = notice.record

    def _refused(self, notice: ReplayRefused) -> None:
        self.refused = notice.words

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        title_block(surface, _("Replay"), None, w // 2, round(h * 0.06), u, size=56)
        img = fonts.render(self.message, max(12, round(20 * u)), SEPIA, "italic")
        surface.blit(img, img.get_rect(midtop=(w // 2, round(h * 0.4))))

    def on_button(self, name: str) -> None:
        self.app.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()
