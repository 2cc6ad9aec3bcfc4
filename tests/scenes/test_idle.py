"""Idle when idle: the real frame loop (``App.run``) sleeps while nothing happens, and wakes at
once for input, for a message from a server, and as often as an animating scene asks.

Each test runs ``App.run`` on the test's thread and acts on it from another thread the way the
outside world does: by posting pygame events, or through a real server over loopback.
"""
from __future__ import annotations

import threading
import time

import pygame
import pytest

from game.match import RemoteMatch
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from game.scenes import app as app_module
from game.scenes.app import App
from game.scenes.scene import Scene

pytestmark = pytest.mark.timeout(60)
CFG = default_config()


@pytest.fixture
def linger(monkeypatch):
    monkeypatch.setattr(app_module, "LINGER", 0.3)   # shorter than a player's, to keep tests quick


SEEN_AT_ONCE = 2.0
"""Seconds within which a sleeping app must have handled what woke it (a click, a server's
message): 0.1 s on a quiet machine, 0.51 s seen in a loaded suite. Missed, it would wait for
its idle tick, which :func:`long_tick` puts 15 s away (5 s in the game): far above this."""


@pytest.fixture
def long_tick(monkeypatch):
    monkeypatch.setattr(app_module, "IDLE_TICK", 15.0)


class Loop:
    """``App.run`` on this thread, driven from a helper thread by ``script(loop)``."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.error: BaseException | None = None
        self.drawn_at: list[float] = []
        app.on_frame.append(lambda a: self.drawn_at.append(time.perf_counter()))
        app.shutdown = lambda: None   # keep pygame up for the next test (fonts are cached)

    def run(self, first: Scene, script) -> None:
        def driver():
            try:
                script(self)
            except BaseException as e:   # reported on the test's thread
                self.error = e
            finally:
                self.app.quit()
                self.app.wake()
        t = threading.Thread(target=driver, daemon=True)
        t.start()
        self.app.run(first)
        t.join(5)
        while self.app.stack.top is not None:
            self.app.stack.pop()
        if self.error is not None:
            raise self.error

    def frames_between(self, t0: float, t1: float) -> int:
        return sum(1 for t in self.drawn_at if t0 <= t < t1)

    def wait_for(self, cond, timeout: float = 5.0) -> float:
        """Seconds until ``cond()`` held (polled from this helper thread)."""
        start = time.perf_counter()
        while not cond():
            assert time.perf_counter() - start < timeout, "timed out"
            time.sleep(0.005)
        return time.perf_counter() - start


def post_click(pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    time.sleep(0.05)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    time.sleep(0.05)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_the_title_sleeps_and_a_click_wakes_it(linger, long_tick):
    from game.scenes.settings_page import SettingsScene
    from game.scenes.title import TitleScene
    app = App(headless=True, size=(1280, 800))
    loop = Loop(app)
    seen = {}

    def script(lp: Loop) -> None:
        lp.wait_for(lambda: app.drawn > 0)
        time.sleep(0.6)                          # past the linger after the first frame
        t0 = time.perf_counter()
        time.sleep(1.0)
        seen["idle_frames"] = lp.frames_between(t0, time.perf_counter())
        button = app.stack.top.widgets["settings"]
        post_click(button.rect.center)
        seen["latency"] = lp.wait_for(lambda: isinstance(app.stack.top, SettingsScene), timeout=10)

    loop.run(TitleScene(app), script)
    assert seen["idle_frames"] == 0              # a second of nothing: not one frame drawn
    assert seen["latency"] < SEEN_AT_ONCE        # the click was seen at once


def test_a_message_from_the_server_wakes_a_sleeping_waiting_room(linger, long_tick, tmp_path):
    from game.scenes.lobby import LobbyScene
    from game.client.session import GameSession
    srv = Server(CFG, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", heartbeat=5))
    srv.start()
    try:
        host, port = srv.address
        app = App(headless=True, size=(1280, 800))
        loop = Loop(app)
        match = RemoteMatch(host, port, "Ada", token_file=tmp_path / "a.json")
        session = GameSession(match, CFG, "Ada")
        seen = {}

        def script(lp: Loop) -> None:
            lp.wait_for(lambda: session.lobby.head == "Ada")
            time.sleep(0.8)                      # asleep now
            t0 = time.perf_counter()
            time.sleep(0.5)
            seen["idle_frames"] = lp.frames_between(t0, time.perf_counter())
            other = RemoteMatch(host, port, "Bruno", token_file=tmp_path / "b.json")
            try:
                joined = time.perf_counter()
                lp.wait_for(lambda: session.lobby.booked == 2, timeout=10)
                seen["latency"] = time.perf_counter() - joined
                # ... and the frame that shows it is drawn at once too
                lp.wait_for(lambda: any(t > joined + seen["latency"] for t in lp.drawn_at))
            finally:
                other.close()

        loop.run(LobbyScene(app, session), script)
        session.close()
    finally:
        srv.stop()
    assert seen["idle_frames"] == 0
    assert seen["latency"] < SEEN_AT_ONCE   # without the wake-up it would wait for the idle tick


class Breathing(Scene):
    """A scene that animates at 20 frames a second."""

    def frame_interval(self) -> float | None:
        return 0.05


def test_an_animating_scene_gets_the_frames_it_asks_for_and_no_more(linger):
    app = App(headless=True, size=(1024, 640))
    loop = Loop(app)
    seen = {}

    def script(lp: Loop) -> None:
        lp.wait_for(lambda: app.drawn > 0)
        time.sleep(0.6)
        t0 = time.perf_counter()
        time.sleep(1.0)
        seen["frames"] = lp.frames_between(t0, time.perf_counter())

    loop.run(Breathing(app), script)
    assert 10 <= seen["frames"] <= 25, seen


def test_a_focused_text_entry_keeps_its_cursor_blinking(linger, monkeypatch):
    from game.scenes.join import JoinScene
    # Browse an interface this machine lacks: games announced by other servers on this machine
    # (news that rightly wakes the page) must not count as the cursor's frames.
    monkeypatch.setenv("MOR_LAN_INTERFACES", "192.0.2.77")
    app = App(headless=True, size=(1024, 640))
    loop = Loop(app)
    seen = {}

    def script(lp: Loop) -> None:
        lp.wait_for(lambda: app.drawn > 0)       # the address field has the focus (it is empty)
        time.sleep(0.6)
        t0 = time.perf_counter()
        time.sleep(1.0)
        seen["frames"] = lp.frames_between(t0, time.perf_counter())

    loop.run(JoinScene(app), script)
    assert 2 <= seen["frames"] <= 10, seen   # five a second (a loaded machine may drop one or two)


def test_the_tables_page_sleeps_between_two_looks_at_the_list(linger, tmp_path, monkeypatch):
    """The Tables page asks the server for its list again and again; each answer costs a frame or
    two, not a burst of them (an answer that woke the app drew 90 frames every 5 s: 10 % of a core)."""
    from game.scenes import tables
    from game.scenes.catalog import register_scenes
    register_scenes()
    monkeypatch.setattr(tables, "REFRESH_SECONDS", 0.4)
    srv = Server(CFG, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", heartbeat=5))
    srv.start()
    try:
        app = App(headless=True, size=(1280, 800))
        loop = Loop(app)
        seen = {}
        asked = []
        listed = tables.list_tables
        monkeypatch.setattr(tables, "list_tables", lambda *a, **k: (asked.append(1), listed(*a, **k))[1])

        def script(lp: Loop) -> None:
            lp.wait_for(lambda: app.stack.top is not None and app.stack.top.listing is not None)
            time.sleep(0.5)
            t0, n0 = time.perf_counter(), len(asked)
            time.sleep(2.0)
            seen["frames"] = lp.frames_between(t0, time.perf_counter())
            seen["asked"] = len(asked) - n0

        loop.run(tables.TablesScene(app, *srv.address, "Ada"), script)
    finally:
        srv.stop()
    assert seen["asked"] >= 3                 # the list was asked for again and again
    assert seen["frames"] <= 4 * seen["asked"] + 2   # a few frames for each answer, no burst
