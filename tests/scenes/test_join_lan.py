"""The Join page lists the games announced on the network and joins one with a click (loopback
only: ``MOR_LAN_INTERFACES`` is 127.0.0.1 in the tests)."""
from __future__ import annotations

import time

import pytest

from game.match import RemoteMatch
from game.netcode.discovery import NO_MULTICAST, Browser
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from support.wait import frames_until, until
from walk import click_at

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_a_hosted_game_is_listed_and_joined_with_a_click(app, tmp_path, size):
    from game.scenes.lobby import LobbyScene
    from game.scenes.join import JoinScene
    app.resize(size)
    assert app.size == size
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                              announce_name="Ada's table", announce_host="Ada", seed=3))
    host, port = server.start()
    ada = RemoteMatch("127.0.0.1", port, "Ada", token_file=tmp_path / "ada.json")
    try:
        app.settings.nickname = "Bea"
        app.stack.push(JoinScene(app))
        scene = app.stack.top
        first = scene.lan.status()
        assert first.startswith("Looking for games") and 0 < scene.frame_interval() <= 0.5
        app.wake_event.clear()
        wait = time.monotonic() + 15
        while not any(g.port == port and g.info.taken == 1 for g in scene.lan.games()):
            assert time.monotonic() < wait
            time.sleep(0.02)
        assert app.wake_event.is_set()      # the idle frame loop is woken by the news
        frames_until(app, lambda: any(g.port == port and g.info.taken == 1 for _, g in scene.lan.rows))
        rect, game = next((r, g) for r, g in scene.lan.rows if g.port == port)
        assert game.info.name == "Ada's table" and game.info.host == "Ada" and game.info.free == 3
        assert scene.lan_rect.contains(rect) and rect.bottom <= scene.sheet.top
        assert 0 <= rect.left and rect.right <= app.size[0]
        click_at(app, rect.center, 0)
        assert scene.widgets["address"].get_text() == f"127.0.0.1:{port}"
        lobby = frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top)
        frames_until(app, lambda: lobby.session.lobby.booked == 2)
        assert lobby.session.lobby.head == "Ada"
        assert scene.lan.browser is None          # the search stopped with the page
    finally:
        ada.close()
        while app.stack.top is not None:
            app.stack.pop()
        server.stop()


def test_a_game_hosted_from_the_title_announces_itself(app):
    from game.scenes.lobby import LobbyScene
    from game.scenes.host import HostScene
    from walk import free_port
    app.settings.server_port = free_port()   # (below the ephemeral range: no other test's port 0 lands there)
    app.settings.nickname = "Cora"
    b = Browser()
    try:
        app.stack.push(HostScene(app))
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
        port = app.server.address[1]
        frames_until(app, lambda: any(g.port == port and g.info.name == "Cora's table" and g.info.host == "Cora"
                                      and g.info.taken == 1 for g in b.games()))
    finally:
        b.close()


def test_without_multicast_the_page_says_why_and_the_address_still_joins(app, monkeypatch, tmp_path):
    from game.scenes.lobby import LobbyScene
    from game.scenes.join import JoinScene
    monkeypatch.setenv("MOR_LAN_INTERFACES", "192.0.2.77")     # an interface this machine lacks
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv"))
    host, port = server.start()
    try:
        app.settings.nickname = "Dario"
        app.stack.push(JoinScene(app))
        scene = app.stack.top
        frames_until(app, lambda: scene.lan.status() == NO_MULTICAST)
        assert scene.lan.rows == []
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        click_at(app, scene.widgets["join"].rect.center, 0)
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene))
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        server.stop()


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_waiting_for_a_seat_at_a_table_playing_says_it_is_for_the_next_game(app, tmp_path, monkeypatch, size):
    """Ada plays solo at her table; Bea clicks "Wait for a seat": the waiting room says the game
    there is under way and Bea is first in line for the next (it only asked "How many players?")."""
    from game.scenes import lobby as lobby_module
    from game.scenes.lobby import LobbyScene
    from game.scenes.join import JoinScene
    app.resize(size)
    drawn: list[str] = []
    blit_lines = lobby_module.blit_lines
    monkeypatch.setattr(lobby_module, "blit_lines",
                        lambda surface, lines, *a, **k: (drawn.extend(lines), blit_lines(surface, lines, *a, **k))[1])
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                              announce_name="Ada's table", announce_host="Ada", seed=3))
    host, port = server.start()
    ada = RemoteMatch("127.0.0.1", port, "Ada", token_file=tmp_path / "ada.json")
    try:
        until(lambda: any(m.get("type") == "UpdateBookedSeats" for m in ada.poll()), what="the waiting room")
        ada.new_game(1)
        app.settings.nickname = "Bea"
        app.stack.push(JoinScene(app))
        scene = app.stack.top
        frames_until(app, lambda: any(g.port == port and g.info.started and not g.info.free
                                      for _, g in scene.lan.rows))
        i, (rect, _game) = next((i, row) for i, row in enumerate(scene.lan.rows) if row[1].port == port)
        assert scene.lan.actions[i] == "Wait for a seat"
        click_at(app, rect.center, 0)
        lobby = frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top)
        frames_until(app, lambda: lobby.session.lobby.booked == 1 and lobby.choosing)
        drawn.clear()
        lobby.build()
        app.frame(1 / 60)
        said = " ".join(drawn)
        assert "already under way" in said and "first in line for the next" in said, drawn
    finally:
        ada.close()
        while app.stack.top is not None:
            app.stack.pop()
        server.stop()


def test_a_table_announced_with_tls_is_marked_and_its_tables_asked_over_tls(app, tmp_path, certs, monkeypatch):
    """The row of a server that speaks TLS has the padlock and says "encrypted"; its Tables page
    asks straight at the TLS port the announcement gave (the plain port is not asked first)."""
    from game.scenes.join import JoinScene
    from game.scenes.tables import TablesScene
    cert, key = certs["one"]
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                              announce_name="Ada's table", announce_host="Ada", tls_cert=cert,
                                              tls_key=key, tls_port=0))
    host, port = server.start()
    try:
        app.settings.nickname = "Bea"
        app.stack.push(JoinScene(app))
        scene = app.stack.top
        frames_until(app, lambda: any(g.port == port for _, g in scene.lan.rows))
        i = next(i for i, (_, g) in enumerate(scene.lan.rows) if g.port == port)
        assert scene.lan.notes[i].endswith("\u00b7 encrypted") and len(scene.lan.locks) == 1
        assert scene.lan.rows[i][0].contains(scene.lan.locks[0])
        scene.widgets["address"].set_text(f"127.0.0.1:{port}")
        scene.on_button("tables")
        page = app.stack.top
        assert isinstance(page, TablesScene) and page.tls_port == server.tls_address[1]
        frames_until(app, lambda: page.listing is not None)
        assert page.listing.link.fingerprint == server.tls_fingerprint
        # a seat from this page goes there too, the plain port never asked
        import game.match.remote
        asked: list = []
        monkeypatch.setattr(game.match.remote, "offered_tls_port", lambda *a, **k: asked.append(a))
        page.on_button("quick")
        seating = page.seating
        frames_until(app, lambda: seating.state in ("seated", "failed"))
        assert seating.state == "seated" and asked == [] and seating.remote.secure
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        server.stop()


def test_a_click_on_a_table_announced_with_tls_sits_there_over_tls_at_once(app, tmp_path, certs, monkeypatch):
    """The row of a server that announces TLS is joined at its TLS port straight away: its plain
    port is never asked (that would be a round trip in clear), and the seat is secure."""
    import game.match.remote
    from game.scenes.lobby import LobbyScene
    from game.scenes.join import JoinScene
    cert, key = certs["one"]
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                              announce_name="Ada's table", announce_host="Ada", tls_cert=cert,
                                              tls_key=key, tls_port=0))
    host, port = server.start()
    asked: list = []
    monkeypatch.setattr(game.match.remote, "offered_tls_port", lambda *a, **k: asked.append(a))
    try:
        app.settings.nickname = "Bea"
        app.stack.push(JoinScene(app))
        scene = app.stack.top
        frames_until(app, lambda: any(g.port == port for _, g in scene.lan.rows))
        rect = next(r for r, g in scene.lan.rows if g.port == port)
        click_at(app, rect.center, 0)
        lobby = frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top)
        assert asked == [] and scene.remote.secure and scene.remote.tls_port == server.tls_address[1]
        assert scene.remote.server_fingerprint == server.tls_fingerprint
        frames_until(app, lambda: lobby.session.lobby.booked == 1)
    finally:
        while app.stack.top is not None:
            app.stack.pop()
        server.stop()


def test_the_list_shows_no_table_another_test_run_announces(app, tmp_path):
    """A test reading the list saw another run's tables (2 padlocks where its table had 1): each
    run's worker "gw0" announced under the same service type, on the same loopback. Another
    test of another run announces here at the same time; this test's list shows its own table
    only."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from game.scenes.join import JoinScene
    from support.processes import reaped
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "MOR_SERVICE_TYPE"}   # as another run starts
    server = Server(app.config, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", announce=True,
                                              announce_name="Ada's table", announce_host="Ada"))
    with reaped(subprocess.Popen([sys.executable, str(Path(__file__).with_name("lan_neighbour.py"))], cwd=root,
                                 env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)) as neighbour:
        try:
            line = ""
            while not line.startswith("announced"):
                line = neighbour.stdout.readline()
                assert line, "the neighbour did not announce its table"
            theirs = int(line.split()[1])
            host, port = server.start()
            app.stack.push(JoinScene(app))
            scene = app.stack.top
            frames_until(app, lambda: any(g.port == port for _, g in scene.lan.rows))
            end = time.monotonic() + 2.0          # announcements come within a second or two
            while time.monotonic() < end:
                app.frame(1 / 60)
                time.sleep(0.02)
            assert [g.port for g in scene.lan.games()] == [port], (theirs, [g.info.name for g in scene.lan.games()])
        finally:
            while app.stack.top is not None:
                app.stack.pop()
            server.stop()
            neighbour.stdin.close()              # it stops its server and ends
            neighbour.wait(timeout=30)
