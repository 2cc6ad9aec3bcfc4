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

from game.client.lan import saved_hosted_players
from game.client.words import joined

if TYPE_CHECKING:
    from game.client.session import GameSession

    from .app_port import AppPort as App


def others_at_table(app: "App", me: str | None = None) -> list[str]:
    """The people connected to the server this app hosts (waiting or seated), but ``me``."""
    server = app.server
    if server is None:
        return []
    me = me if me is not None else app.settings.nickname.strip()
    return server.host_view().others(me)


def hosted_game_open(app: "App", me: str | None = None) -> bool:
    """Whether the server this app hosts has an unfinished game with ``me`` at it, or, when it does
    not host now, whether its data directory keeps one (hosting again brings it back)."""
    me = me if me is not None else app.settings.nickname.strip()
    server = app.server
    if server is not None:
        return me in server.host_view().seated
    return me in saved_hosted_players(app.data_dir / "server")


def ask_before_leaving(app: "App", session: "GameSession | None", leave: Callable[[bool], None]) -> bool:
    """If this app hosts a game with other people at it, ask the host first and return True;
    ``leave(stop_server)`` is called with the answer (not at all for "Stay"). Returns False when
    there is nobody to ask about (the caller leaves at once)."""
    people = others_at_table(app, session.nickname if session is not None else None)
    if not people:
        return False
    from .ask import AskScene
    who = joined(people)
    verb = "is" if len(people) == 1 else "are"
    in_game = session is not None and session.vm.has_game and not session.vm.game["ended"]
    if in_game:
        text = (f"{who} {verb} at your table. If you leave the table, the game goes on without you on this "
                f"computer's server and your turns are skipped until you return (\u201cReturn to your LAN game\u201d "
                f"on the title). If you stop hosting, {who} {verb} disconnected and the game waits, kept as it "
                f"is (your turn too), until you host again.")
        answers = [("leave", "Leave the table", None), ("stop", "Stop hosting", None), ("stay", "Stay", None)]
    elif session is not None and session.vm.has_game:
        text = (f"{who} {verb} still at the table, looking at the final scores. Stopping the game server "
                f"disconnects {'them' if len(people) > 1 else 'them'}.")
        answers = [("stop", "Stop hosting", None), ("stay", "Stay", None)]
    else:
        text = (f"{who} {verb} in your waiting room. Stopping the game server sends "
                f"{'them' if len(people) > 1 else 'them'} away; they can join when you host again.")
        answers = [("stop", "Stop hosting", None), ("stay", "Stay", None)]

    def then(answer: str) -> None:
        if answer in ("leave", "stop"):
            leave(answer == "stop")
    app.stack.push(AskScene(app, "Your friends are still here", text, answers, then, warning=True, default="stay"))
    return True


QUIT_TITLE = "Quit while hosting?"


def ask_before_quitting(app: "App") -> bool:
    """Quitting closes the server this app hosts: with other people at it, ask first (True)."""
    if app.server is None:
        return False
    top = app.stack.top
    session = top.session if top is not None else None
    people = others_at_table(app, session.nickname if session is not None else None)
    if not people:
        return False
    from .ask import AskScene
    if isinstance(top, AskScene) and top.title == QUIT_TITLE:
        return False         # closing the window again while asked: quit

    who = joined(people)
    verb = "is" if len(people) == 1 else "are"
    text = (f"{who} {verb} playing on the game server of this computer. Quitting closes it: {who} "
            f"{verb} disconnected. The game is kept and goes on when you host it again.")

    def then(answer: str) -> None:
        if answer == "quit":
            app.running = False
    app.stack.push(AskScene(app, QUIT_TITLE, text, [("quit", "Quit", None), ("stay", "Stay", None)],
                            then, warning=True, default="stay"))
    return True
