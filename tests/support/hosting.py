"""A game hosted from the window's title with a friend at its table, for the window's tests of
hosting: the real frame loop, the real server the app starts, and the friend's own client."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from game.client.session import GameSession
from walk import click, frames, free_port

from .wait import frames_until


def host_with_bruno(app: Any, tmp_path: Path) -> GameSession:
    """The app hosts from the title; Bruno joins with his own client, and the host is asked how
    many play. Returns Bruno's session."""
    from game.match import RemoteMatch
    from game.scenes.lobby import LobbyScene
    from game.scenes.title import TitleScene
    app.settings.server_port = free_port()
    app.stack.push(TitleScene(app))
    frames(app, 2)
    click(app, "host")
    frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
    lobby = app.stack.top
    frames_until(app, lambda: lobby.choosing)
    bruno = GameSession(RemoteMatch("127.0.0.1", app.server.address[1], "Bruno",
                                    token_file=tmp_path / "bruno.json"), app.config, "Bruno")
    frames_until(app, lambda: (bruno.pump() or True) and lobby.session.lobby.booked == 2)
    return bruno
