"""Joining and hosting from the window, headless: joining explains failures, the waiting room
names everyone, hosting asks before it stops a friend's game, the head of the waiting list
chooses the game's size and the others wait."""
from __future__ import annotations

import socket

import pygame
import pytest

from game.client.session import GameSession
from game.client.join_words import NAME_TAKEN, REFUSED
from game.settings import Settings

from walk import click, frames, free_port
from walk import close as _close  # (every scene closed, the hosted server stopped)
from support.hosting import host_with_bruno
from support.sessions import LAN_HOST
from support.table import Feed
from support.wait import frames_until

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


# ---------------------------------------------------------------------------- join & host
class TestJoin:
    def _open(self, app):
        from game.scenes.join import JoinScene
        app.stack.push(JoinScene(app))
        frames(app, 2)
        return app.stack.top

    def test_nobody_listening(self, app):
        scene = self._open(app)
        port = free_port()
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        click(app, "join")
        frames_until(app, lambda: scene.busy is None)
        assert scene.error == REFUSED.format(where=f"127.0.0.1:{port}")

    def test_an_address_without_a_port_knocks_at_the_games_port_not_the_players_own(self, app):
        app.settings.server_port = 51017      # where this player hosts: not where the friend does
        scene = self._open(app)
        knocked = []     # where it knocks, not what answers there (a game hosted at 51015 meanwhile did)
        scene._knock = lambda target, nickname, chose: knocked.append(target)
        scene.widgets["address"].set_text("127.0.0.1")
        click(app, "join")
        assert knocked == [("127.0.0.1", 51015)]

    @pytest.mark.parametrize("text", ["", "not an address!", "10.0.0.1:port", "10.0.0.1:0", "[::1"])
    def test_bad_addresses(self, app, text):
        scene = self._open(app)
        scene.widgets["address"].set_text(text)
        click(app, "join")
        assert scene.busy is None and scene.errors["address"]

    def test_parse_address(self):
        from game.client.address import parse_address
        assert parse_address("192.168.1.2", 51015) == ("192.168.1.2", 51015)
        assert parse_address(" host.lan:4000 ", 1) == ("host.lan", 4000)
        assert parse_address("[fe80::1]:7", 1) == ("fe80::1", 7)
        assert parse_address("::1", 9) == ("::1", 9)

    def test_joining_a_server_and_a_taken_nickname(self, app, dirs):
        from game.netcode.server import Server
        from game.netcode.server_options import ServerOptions
        from game.scenes.lobby import LobbyScene
        from game.match import RemoteMatch
        server = Server(app.config, ServerOptions(host="127.0.0.1", port=0))
        host, port = server.start()
        other = None
        try:
            other = RemoteMatch("127.0.0.1", port, "Ada")
            scene = self._open(app)
            scene.widgets["address"].set_text(f"127.0.0.1:{port}")
            scene.widgets["nickname"].set_text("Ada")
            click(app, "join")
            frames_until(app, lambda: scene.busy is None)
            assert scene.errors["nickname"] == NAME_TAKEN.format(nickname="Ada", where=f"127.0.0.1:{port}")
            assert scene.widgets["join_as"].text == "Join as Ada 2"
            scene.widgets["nickname"].set_text("Bea")
            click(app, "join")
            frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
            lobby = app.stack.top
            frames_until(app, lambda: lobby.session.lobby.booked == 2)
            assert lobby.session.lobby.head == "Ada" and not lobby.choosing
            assert Settings.load().last_address == f"127.0.0.1:{port}"
        finally:
            if other is not None:
                other.close()
            _close(app)
            server.stop()


def test_the_waiting_room_names_everyone_under_their_pawn(app, monkeypatch):
    """Ada waits at a server; Bea joins from the app: both names are drawn under the pawns (only
    the first pawn had a name: the host could not see who had joined). A reference client is
    told only the count and the head, as the reference server tells it."""
    from game.netcode.client import Connection
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    from game.scenes.art import fonts
    from game.scenes.lobby import LobbyScene
    from game.match import RemoteMatch
    drawn: list[str] = []
    render = fonts.render
    monkeypatch.setattr(fonts, "render", lambda text, *a, **k: (drawn.append(str(text)), render(text, *a, **k))[1])
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0))
    host, port = server.start()
    other = plain = None
    try:
        other = RemoteMatch("127.0.0.1", port, "Ada")
        plain = Connection("127.0.0.1", port)
        plain.send({"type": "ReqJoin", "nickname": "Cy"})
        scene = TestJoin()._open(app)
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        scene.widgets["nickname"].set_text("Bea")
        click(app, "join")
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
        lobby = app.stack.top
        frames_until(app, lambda: lobby.session.lobby.booked == 3)
        drawn.clear()
        lobby.build()
        frames(app, 2)
        assert lobby.session.lobby.players == ["Ada", "Cy", "Bea"]
        assert {"Ada", "Cy", "Bea"} <= set(drawn), drawn
        seen = plain.wait_for(lambda m: m["type"] == "UpdateBookedSeats" and m["bookedSeats"] == 3, timeout=5)
        assert "players" not in seen
    finally:
        for c in (other, plain):
            if c is not None:
                c.close()
        _close(app)
        server.stop()


class TestHost:
    def test_port_in_use(self, app):
        from game.scenes.host import HostScene
        with socket.socket() as busy:
            busy.bind(("0.0.0.0", 0))
            busy.listen()
            port = busy.getsockname()[1]
            app.settings.server_port = port
            app.stack.push(HostScene(app))
            frames(app, 3)
            scene = app.stack.top
            assert isinstance(scene, HostScene)
            assert scene.error == (f"Port {port} is already in use on this computer. "
                                   "Choose another port in Settings.")
            assert app.server is None

    def test_host_a_solo_game_through_the_lobby(self, app):
        from game.scenes.lobby import LobbyScene
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        app.settings.server_port = free_port()
        app.stack.push(TitleScene(app))
        frames(app, 2)
        click(app, "host")
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
        assert app.server is not None
        lobby = app.stack.top
        frames_until(app, lambda: lobby.choosing)
        click(app, "players_1")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        click(app, "leave")
        assert app.server is None and isinstance(app.stack.top, TitleScene)

    def test_stopping_a_hosted_waiting_room_with_a_friend_in_it_asks_first(self, app, tmp_path):
        from game.scenes.ask import AskScene
        from game.scenes.lobby import LobbyScene
        from game.scenes.title import TitleScene
        bruno = host_with_bruno(app, tmp_path)
        click(app, "leave")
        ask = app.stack.top
        assert isinstance(ask, AskScene) and "Bruno" in ask.text and "waiting room" in ask.text
        click(app, "stay")
        assert isinstance(app.stack.top, LobbyScene) and app.server is not None
        click(app, "leave")
        click(app, "stop")
        assert isinstance(app.stack.top, TitleScene) and app.server is None
        bruno.close()

    def test_the_host_leaves_the_table_the_game_goes_on_and_the_title_brings_them_back(self, app, tmp_path):
        from game.scenes.ask import AskScene
        from game.scenes.title import TitleScene
        from game.scenes.leaders import LeaderChoiceScene
        bruno = host_with_bruno(app, tmp_path)
        click(app, "players_2")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        click(app, "leave")
        ask = app.stack.top
        assert isinstance(ask, AskScene) and set(ask.widgets) == {"leave", "stop", "stay"}
        assert "Bruno is at your table" in ask.text and "skipped" in ask.text
        click(app, "leave")
        title = app.stack.top
        assert isinstance(title, TitleScene) and app.server is not None   # the game goes on for Bruno
        assert "return" in title.widgets
        room = app.server.room_of("Bruno")
        assert room is not None and not room.finished
        click(app, "return")
        frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
        assert app.settings.nickname in room.online
        # quitting the window while Bruno plays asks too; Stay keeps everything
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert isinstance(app.stack.top, AskScene) and app.running and "Quit" in app.stack.top.title
        click(app, "stay")
        assert app.running and isinstance(app.stack.top, LeaderChoiceScene)
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        click(app, "quit")
        assert not app.running
        app.running = True                       # closing the window twice quits without a third ask
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert app.running and isinstance(app.stack.top, AskScene)
        frames(app, 1, [pygame.event.Event(pygame.QUIT)])
        assert not app.running
        bruno.close()


# ---------------------------------------------------------------------------- lobby
def test_lobby_head_chooses_and_others_wait(app):
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    head = GameSession(Feed("Ada", [booked], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, head))
    frames(app, 2)
    assert app.stack.top.choosing
    click(app, "players_3")
    assert head.match.sent == [("new_game", 3)]
    head.match.say({"type": "UpdateJoinGame", "playersCount": 3})
    frames(app, 2)
    assert "players_3" not in app.stack.top.widgets
    other = GameSession(Feed("Bea", [booked], host=LAN_HOST), app.config, "Bea")
    app.stack.reset(LobbyScene(app, other))
    frames(app, 2)
    assert not app.stack.top.choosing and "players_1" not in app.stack.top.widgets


def test_the_count_buttons_say_how_many_more_are_awaited_counting_those_waiting(app):
    """Two already wait (the host and a friend): 2 players starts at once, 3 waits for 1 more,
    4 for 2 more (they said "1 more" for 2 players, counting from the host alone)."""
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    head = GameSession(Feed("Ada", [booked], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, head))
    frames(app, 2)
    tips = {n: app.stack.top.widgets[f"players_{n}"].tool_tip_text for n in (1, 2, 3, 4)}
    assert tips[1] == "Play alone against Lorenzo il Magnifico"
    assert tips[2] == "Start at once with the 2 waiting"
    assert tips[3] == "Wait for 1 more to join" and tips[4] == "Wait for 2 more to join"
    head.match.say({"type": "UpdateBookedSeats", "bookedSeats": 3, "canPrepareNewGame": "Ada"})
    frames(app, 2)
    tips = {n: app.stack.top.widgets[f"players_{n}"].tool_tip_text for n in (2, 3, 4)}
    assert tips == {2: "Start at once with the first 2 waiting", 3: "Start at once with the 3 waiting",
                    4: "Wait for 1 more to join"}


def test_a_lost_waiting_room_shows_nobody_still_waiting(app, monkeypatch):
    """The host gone (the connection lost), the waiting room no longer draws the host's pawn and
    name as if they still waited there: the seats are empty under "The connection to the server
    was lost."."""
    from support.drawn import Words
    from game.scenes.lobby import LobbyScene
    booked = {"type": "UpdateBookedSeats", "bookedSeats": 2, "canPrepareNewGame": "Ada"}
    bea = GameSession(Feed("Bea", [booked], host=LAN_HOST), app.config, "Bea")
    app.stack.push(LobbyScene(app, bea))
    frames(app, 2)
    seen = Words(monkeypatch)
    frames(app, 1)
    assert "Ada" in seen                                   # the host's pawn is named while she waits
    bea.match.say({"type": "ConnectionLost"})
    frames(app, 2)
    assert app.stack.top.lost
    seen.seen.clear()
    frames(app, 1)
    assert "The connection to the server was lost." in seen and "Ada" not in seen


def test_lobby_leave_closes_the_match(app):
    from game.scenes.lobby import LobbyScene
    from game.scenes.title import TitleScene
    s = GameSession(Feed("Ada", [], host=LAN_HOST), app.config, "Ada")
    app.stack.push(LobbyScene(app, s))
    frames(app, 2)
    click(app, "leave")
    assert s.match.closed and isinstance(app.stack.top, TitleScene)
