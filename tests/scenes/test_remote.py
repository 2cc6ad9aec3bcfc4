"""A remote game in the window: a dropped socket shows the reconnection overlay, and the client
rejoins by itself (the session's side of remote games: tests/client/test_remote_session.py)."""
from __future__ import annotations

import pytest

from game.rules.views import player_view
from game.scenes.app import App
from support.remote import solo_session
from support.wait import pump_until


@pytest.mark.timeout(60)
def test_a_dropped_socket_shows_the_overlay_and_the_client_rejoins(server, tmp_path):
    from game.rules.actions import ReqChooseLeaders
    from game.scenes.board import BoardScene
    from game.scenes.overlay import ReconnectOverlay
    session = solo_session(server, "Ada", tmp_path / "seats.json")
    session.send(ReqChooseLeaders(tuple(session.vm.me["leadersHand"][:2])))
    pump_until(session, lambda: session.stage() == "board")
    app = App(headless=True, size=(1280, 800))
    app.stack.push(BoardScene(app, session))
    app.frame(0.016)
    session.match.conn._sock.shutdown(2)          # the network goes away under the client
    pump_until(session, lambda: isinstance(app.stack.top, ReconnectOverlay), app=app)
    pump_until(session, lambda: not session.connection_lost and isinstance(app.stack.top, BoardScene), app=app)
    room = server.room_of("Ada")
    pump_until(session, lambda: session.vm.game == player_view(room.game, "Ada"), app=app)
