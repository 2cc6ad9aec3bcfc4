"""My games, when no server answers: the page says the games could not be listed (and why, at its
foot), never "You have no game in progress", which told a player whose server was down that their
games were gone. Through the real frame loop, asking 127.0.0.1 at a port nobody listens on."""
from __future__ import annotations

import pytest

from support.drawn import Words
from support.wait import frames_until
from walk import free_port

from game.scenes.app import App
from game.scenes.my_games import MyGamesScene

pytestmark = pytest.mark.timeout(60)


def test_games_not_listed_because_no_server_answered_are_not_said_to_be_none(monkeypatch):
    app = App(headless=True, size=(1024, 640))
    try:
        page = MyGamesScene(app, servers=[("127.0.0.1", free_port())])
        app.stack.push(page)
        frames_until(app, lambda: page.problems, what="the answer: nobody listens there")
        seen = Words(monkeypatch)
        app.frame(1 / 60)
        assert "Your games could not be listed" in seen
        assert "no game in progress" not in seen
        assert "Nobody is listening" in seen
    finally:
        while app.stack.top is not None:
            app.stack.pop()
