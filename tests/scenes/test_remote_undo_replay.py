"""Undo and replays with a real server over loopback: the client's Undo takes back a move on our
server and the board shows the table as it was; once the game is over, Watch the replay fetches
the replay from the server (in the real frame loop) and keeps it for the Past games page."""
from __future__ import annotations

import random

import pytest

from game.client import replay as C
from game.rules import default_config
from game.rules.playout import choose
from game.rules.views import player_view
from game.scenes.app import App
from game.scenes.fetch_replay import watch_finished
from game.scenes.replay import ReplayScene
from support.remote import solo_session
from support.wait import pump_until

CFG = default_config()
pytestmark = pytest.mark.timeout(120)


def test_undo_and_the_replay_of_a_game_on_our_server(server, tmp_path):
    session = solo_session(server, "Ada", tmp_path / "seats.json")
    match = session.match
    assert match.supports_undo
    game = server.room_of("Ada").game
    rng = random.Random(5)
    undone = 0
    while not game.ended:
        version = game.version
        if session.can_undo and undone < 3 and rng.random() < 0.5:
            before = session.vm.snapshot()
            session.undo()
            pump_until(session, lambda: game.version != version and session.vm.game == player_view(game, "Ada"))
            assert session.log[-1].startswith("You took back your ")
            undone += 1
            assert session.vm.game != before
            continue
        assert session.can_undo == game.can_undo("Ada")
        session.send(choose(game, "Ada", rng))
        pump_until(session, lambda: game.version != version and session.vm.game == player_view(game, "Ada"))
    assert undone == 3
    app = App(headless=True, size=(1024, 640))
    try:
        app.stack.push(watch_finished(app, session))
        pump_until(session, lambda: isinstance(app.stack.top, ReplayScene), app=app)
        replay = app.stack.top.replay
        assert replay.final.snapshot() == game.snapshot() and replay.viewer == "Ada"
        assert [g.kind for g in C.past_games(app.data_dir)] == ["server"]
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        match.close()
