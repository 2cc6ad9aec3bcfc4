"""Which scene fits a game session now, and what every game scene does each frame.

:func:`scene_for` maps :meth:`GameSession.stage` to a scene (by name, from the registry).
:func:`follow` is the per-frame duty of a scene that shows a game: take the messages that
arrived, say who is away (and how long their seat waits), cover the screen with the reconnecting
overlay when the connection drops, and hand over to the next scene when the stage changes.
:class:`SessionScene` does it in ``update``, and the board in its own; both ring for the
player's turn through :func:`ring_on_turns`.
"""
from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, Callable

from game.client.flow.presence import away_words
from game.client.notices import PlayerAway, TurnStarted

from .backdrop import PaintedScene
from .scene import Scene

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.client.notices import Subscription
    from game.client.session import GameSession

    from .app_port import AppPort as App


STAGES = ("lobby", "leaders", "resources", "waiting", "board", "ended")
"""The stages of a game (:meth:`GameSession.stage`), each the name of its screen in the registry."""


def scene_for(app: "App", session: "GameSession", way_back: "Sequence[tuple[str, tuple]]" = ()) -> Scene | None:
    """The scene for the session's current stage (None for a stage this client does not know).
    ``way_back``: the pages that lead back to where the seat was asked, for the waiting room
    (see :class:`.lobby.LobbyScene`) to go back to when it is left."""
    stage = session.stage()
    if stage == "lobby" and way_back:
        return app.scene(stage, session, way_back=way_back)
    return app.scene(stage, session) if stage in STAGES else None


def seated_scene(app: "App", session: "GameSession", why: str | None = None,
                 way_back: "Sequence[tuple[str, tuple]]" = ()) -> Scene | None:
    """The scene for a session the server has just seated (see :func:`scene_for`); ``why`` (see
    :func:`game.client.flow.seats.why_seated`), when the seat is not the one asked for, is said
    on that scene's first frame (over it for a few seconds) and kept as a line of the game's log."""
    if why:
        from game.client.session import Note
        session.log.append(Note(why))
        app.tell(why)
    return scene_for(app, session, way_back)


def follow(scene: Scene, session: "GameSession", stays: "str | Callable[[str], bool] | None") -> bool:
    """One frame of a game scene's duty, the one place it is written; True if ``scene`` was replaced
    or covered (by the connection's overlay).

    ``stays``: the stage ``scene`` shows, or a test of the stages it stays on (None: it does not
    change scene by stage); on any other stage the scene for it takes its place.
    """
    app = scene.app
    _tell_who_is_away(app, session)
    session.pump()
    if session.connection_lost or session.reconnect_failed:
        if app.stack.top is scene:
            app.stack.push(app.scene("connection", session))
        return True
    stage = session.stage()
    if stays is not None and not (stays(stage) if callable(stays) else stage == stays):
        nxt = scene_for(app, session)
        if nxt is not None and app.stack.top is scene:
            app.stack.replace(nxt)
            return True
    return False


_AWAY: "weakref.WeakKeyDictionary[GameSession, Subscription[PlayerAway]]" = weakref.WeakKeyDictionary()
"""The sessions whose away players the app tells, each once (for as long as the session lives)."""


def _tell_who_is_away(app: "App", session: "GameSession") -> None:
    """From the first frame a game scene follows ``session``: who is away and how long their seat
    waits, in the game's log and over the page a while, for those away already (the session's
    state) and then for each :class:`~game.client.notices.PlayerAway` notice."""
    if session in _AWAY:
        return
    tell = functools.partial(_away, weakref.ref(app), weakref.ref(session))
    _AWAY[session] = session.notices.subscribe(PlayerAway, tell)
    for who, seconds in session.away.items():
        tell(PlayerAway(who, seconds))


def _away(app_ref: "weakref.ref[App]", session_ref: "weakref.ref[GameSession]", notice: PlayerAway) -> None:
    app, session = app_ref(), session_ref()
    if app is None or session is None or notice.player == session.nickname:
        return
    from game.client.session import Note
    words = away_words(notice.player, notice.seconds)
    session.log.append(Note(words))
    app.tell(words)


def ring_on_turns(scene: Scene, session: "GameSession") -> None:
    """While ``scene`` is on the stack, the app rings (a sound, the title's flash) when it becomes
    the player's turn (a :class:`~game.client.notices.TurnStarted` notice): every scene that
    shows a game asks for it once."""
    scene.listen(session, TurnStarted, functools.partial(_ring, weakref.ref(scene)))


def _ring(scene_ref: "weakref.ref[Scene]", notice: TurnStarted) -> None:
    scene = scene_ref()
    if scene is not None and scene in scene.app.stack.scenes:
        scene.app.notify_turn()


def leave_game(app: "App", session: "GameSession | None", *, ask: bool = True, stop_server: bool = True) -> None:
    """Leave the game (closing the match, and the server if this computer hosts it and
    ``stop_server``) for the title. With other people at a table this computer hosts, the host is
    asked first (``ask``; see :mod:`.hosting`): leave the table and let them play on, stop hosting,
    or stay."""
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
    app.stack.reset(app.scene("title"))


class SessionScene(PaintedScene):
    """A painted scene that shows one stage of a game (see :func:`follow`)."""

    stage: str | None = None

    def __init__(self, app: "App", session: "GameSession") -> None:
        super().__init__(app)
        self.session = session
        ring_on_turns(self, session)

    def update(self, dt: float) -> None:
        if follow(self, self.session, self.stage):
            return
        self.tick(dt)

    def tick(self, dt: float) -> None:
        """Advance the scene when it is still the right one (after :func:`follow`)."""
