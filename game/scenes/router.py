"""Which scene fits a game session now, and what every game scene does each frame.

:func:`scene_for` maps :meth:`GameSession.stage` to a scene. :func:`follow` is the per-frame duty
of a scene that shows a game: take the messages that arrived, ring for the player's turn, cover
the screen with the reconnecting overlay when the connection drops, and hand over to the next
scene when the stage changes. :class:`SessionScene` does it in ``update``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .backdrop import PaintedScene
from .scene import Scene

if TYPE_CHECKING:
    from .app import App
    from game.client.session import GameSession


def scene_for(app: "App", session: "GameSession") -> Scene | None:
    """The scene for the session's current stage (None for a stage this client does not know)."""
    stage = session.stage()
    if stage == "lobby":
        from .lobby import LobbyScene
        return LobbyScene(app, session)
    if stage == "leaders":
        from .setup import LeaderChoiceScene
        return LeaderChoiceScene(app, session)
    if stage == "resources":
        from .setup import ResourceChoiceScene
        return ResourceChoiceScene(app, session)
    if stage == "waiting":
        from .setup import WaitingScene
        return WaitingScene(app, session)
    if stage == "board":
        from .board import BoardScene
        return BoardScene(app, session)
    if stage == "ended":
        from .game_over import GameOverScene
        return GameOverScene(app, session)
    return None


def follow(scene: Scene, session: "GameSession", stage: str | None) -> bool:
    """One frame of a game scene's duty; True if ``scene`` was replaced or covered.

    ``stage`` is the stage ``scene`` shows (None: it does not change scene by stage).
    """
    app = scene.app
    session.pump()
    if session.turn_started:
        session.turn_started = False
        app.notify_turn()
    if session.connection_lost or session.reconnect_failed:
        if app.stack.top is scene:
            from .overlay import ConnectionOverlay
            app.stack.push(ConnectionOverlay(app, session))
        return True
    if stage is not None and session.stage() != stage:
        nxt = scene_for(app, session)
        if nxt is not None and app.stack.top is scene:
            app.stack.replace(nxt)
            return True
    return False


def leave_game(app: "App", session: "GameSession | None", *, ask: bool = True, stop_server: bool = True) -> None:
    """Leave the game (closing the match, and the server if this computer hosts it and
    ``stop_server``) for the title. With other people at a table this computer hosts, the host is
    asked first (``ask``; see :mod:`.hosting`): leave the table and let them play on, stop hosting,
    or stay."""
    from .menus import TitleScene
    if ask and app.server is not None:
        from .hosting import ask_before_leaving
        if ask_before_leaving(app, session, lambda stop: leave_game(app, session, ask=False, stop_server=stop)):
            return
    if app.server is not None and stop_server:
        # the server first: it closes its games before their connections, so that stopping
        # hosting is nobody's departure (as a restart); the host's own goodbye would otherwise
        # be recorded as his leaving, and his turn passed on (QA), before the game is closed
        app.server.stop()
        app.server = None
    if session is not None:
        try:
            session.close()
        except OSError:
            pass
    app.stack.reset(TitleScene(app))


class SessionScene(PaintedScene):
    """A painted scene that shows one stage of a game (see :func:`follow`)."""

    stage: str | None = None

    def __init__(self, app: "App", session: "GameSession") -> None:
        super().__init__(app)
        self.session = session

    def update(self, dt: float) -> None:
        if follow(self, self.session, self.stage):
            return
        self.tick(dt)

    def tick(self, dt: float) -> None:
        """Advance the scene when it is still the right one (after :func:`follow`)."""
