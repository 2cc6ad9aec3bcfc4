"""Hosting a LAN game from the client: who is at the table, and asking before anyone is left
stranded.

A host's game runs on a server inside this process (``app.server``). Leaving the table keeps it
running (the others play on, the host's turns are skipped, and the title offers "Return to your
LAN game"); stopping it, or quitting the application, disconnects everyone (the game is kept in
the data directory as it stands, nobody's departure recorded, and goes on when it is hosted
again: the turn waits for its player as after a server restart). Either way, with other people at the
table the host is asked first and told what happens to them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from game.client.flow.hosting import QUIT_TITLE, leaving_question, people_at, quitting_question
from game.client.lan import saved_hosted_players
from game.i18n import _

from .asking import ask

if TYPE_CHECKING:
    from game.client.session import GameSession

    from .app_port import AppPort as App


def others_at_table(app: "App", me: str | None = None) -> list[str]:
    """The people connected to the server this app hosts (waiting or seated), but ``me``."""
    return people_at(app.server, me if me is not None else app.settings.nickname.strip())


def hosted_game_open(app: "App", me: str | None = None) -> bool:
    """Whether the server this app hosts has an unfinished game with ``me`` at it, or, when it does
    not host now, whether its data directory keeps one (hosting again brings it back)."""
    me = me if me is not None else app.settings.nickname.strip()
    server = app.server
    if server is not None:
        return me in server.host_view().seated
    return me in saved_hosted_players(app.data_dir / "server")


def ask_before_leaving(app: "App", session: "GameSession | None", leave: Callable[[bool], None]) -> bool:
    """If this app hosts a game with other people at it, ask the host first
    (:func:`~game.client.flow.hosting.leaving_question`) and return True; ``leave(stop_server)``
    is called with the answer (not at all for "Stay"). Returns False when there is nobody to ask
    about (the caller leaves at once)."""
    people = others_at_table(app, session.nickname if session is not None else None)
    has_game = session is not None and session.vm.has_game
    stage = "waiting" if not has_game else "ended" if session.vm.game["ended"] else "game"
    question = leaving_question(people, stage)
    if question is None:
        return False

    def then(answer: str) -> None:
        if answer in ("leave", "stop"):
            leave(answer == "stop")
    ask(app, question, then)
    return True


def ask_before_quitting(app: "App") -> bool:
    """Quitting closes the server this app hosts: with other people at it, ask first (True)."""
    if app.server is None:
        return False
    top = app.stack.top
    session = top.session if top is not None else None
    question = quitting_question(others_at_table(app, session.nickname if session is not None else None))
    if question is None:
        return False
    from .ask import AskScene
    if isinstance(top, AskScene) and top.title == _(QUIT_TITLE):
        return False         # closing the window again while asked: quit

    def then(answer: str) -> None:
        if answer == "quit":
            app.running = False
    ask(app, question, then)
    return True
