"""The host's waiting room in the window, through the real ``App`` frame loop, with a stand-in
router on 127.0.0.1: it says in words what the router did with the port (forwarded: where friends
on the internet join, and the link to send takes that address; refused: why, and what to do), and
the Settings switch turned off asks no router and says how to forward the port by hand."""
from __future__ import annotations

import pytest
from support.router import OUTSIDE, StandInRouter
from walk import close, free_port, start

from game.client import port_words as W

pytestmark = pytest.mark.timeout(60)


def _host(walk):
    walk.app.settings.server_port = free_port()
    walk.press("Host a LAN game")
    walk.until(lambda: walk.scene == "LobbyScene" or getattr(walk.app.stack.top, "error", None), 30, "hosted")
    assert walk.scene == "LobbyScene", walk.app.stack.top.error
    return walk.app.stack.top


def _hosted_open(walk):
    """Hosted, and the router said to forward the port: (the waiting room, the port)."""
    lobby = _host(walk)
    walk.until(lambda: (lobby.port_words() or "").startswith("Friends on the internet"), 10, "the port open")
    return lobby, walk.app.server.address[1]


def test_the_waiting_room_says_where_friends_on_the_internet_join(monkeypatch):
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        walk = start(nickname="Ada")
        try:
            lobby, port = _hosted_open(walk)
            assert lobby.port_words() == W.OPEN.format(where=f"{OUTSIDE}:{port}", via="UPnP")
            assert lobby.share_link() == f"mor://{OUTSIDE}:{port}"
            assert lobby.port_words(short=True) == W.SHORT_OPEN.format(where=f"{OUTSIDE}:{port}")   # (the page's line)
            walk.frames(2)                 # (drawn with the words, and the page rebuilt for them)
            link = lobby.seat_link()       # the host's own seat: over TLS, its game's certificate shown
            assert link is not None and link.fingerprint == walk.app.server.tls_fingerprint
            walk.press("Stop hosting")
            walk.until_scene("TitleScene")
            router.wait_for(lambda: router.mappings() == [], "the mapping removed")
        finally:
            close(walk.app)


def test_a_refusal_is_said_with_what_to_do(monkeypatch):
    with StandInRouter(natpmp=False, mode="refuse") as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        walk = start(nickname="Ada")
        try:
            lobby = _host(walk)
            walk.until(lambda: "refused" in (lobby.port_words() or ""), 10, "the refusal said")
            assert "forward TCP port" in lobby.port_words() and "Action not authorized" in lobby.port_words()
            walk.frames(2)
            walk.move(lobby.words_rect.center)     # the line under the link: its whole sentence shows
            walk.frames(2)
            assert lobby.words_rect.w > 0 and lobby.words_rect.collidepoint(lobby.mark.pointer)
            assert lobby.share_link().startswith("mor://") and OUTSIDE not in lobby.share_link()
            walk.frames(2)
        finally:
            close(walk.app)


def test_the_switch_off_asks_no_router(monkeypatch):
    with StandInRouter() as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        walk = start(nickname="Ada")
        walk.app.settings.open_port = False
        try:
            lobby = _host(walk)
            walk.frames(3)
            assert lobby.port_words().startswith("Opening the port by itself is off (Settings)")
            assert router.requests == []
        finally:
            close(walk.app)


def test_the_settings_switch_is_kept():
    from game.settings import Settings
    walk = start(nickname="Ada")
    try:
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        page = walk.app.stack.top
        widget = page.widgets["open_port"]
        assert widget.text == "On"                       # on by default
        walk.click(widget.rect.center)
        assert page.widgets["open_port"].text == "Off"
        walk.press("Save")
        assert walk.app.settings.open_port is False and Settings.load().open_port is False
    finally:
        close(walk.app)


def test_the_switch_turned_while_hosting_removes_the_mapping_and_the_page_says_so(monkeypatch):
    """Settings, reached while this app hosts (from the title, once the host has left a game under
    way), saved with the switch off: the mapping goes and the host's page says so; on again: the
    router is asked again."""
    from game.scenes.settings_page import SettingsScene
    with StandInRouter(natpmp=False) as router:
        monkeypatch.setenv("MOR_ROUTER", router.env())
        walk = start(nickname="Ada")
        try:
            lobby, port = _hosted_open(walk)
            router.wait_for(lambda: len(router.mappings()) == 2, "the two ports forwarded")
            for on in (False, True):
                walk.app.stack.push(SettingsScene(walk.app))
                walk.until_scene("SettingsScene")
                page = walk.app.stack.top
                walk.click(page.widgets["open_port"].rect.center)
                assert page.widgets["open_port"].text == ("On" if on else "Off")
                walk.press("Save")
                walk.app.stack.pop()
                walk.until_scene("LobbyScene")
                if not on:
                    router.wait_for(lambda: router.mappings() == [], "the mapping removed")
                    said = W.REMOVED.format(port=port, lan=lobby.addresses[0]) + " " + W.TLS_TOO.format(
                        tls=walk.app.server.tls_address[1])        # (the TLS port to forward by hand too)
                    walk.until(lambda: lobby.port_words() == said, 5, "the page saying it")
                    assert lobby.share_link() == f"mor://{lobby.addresses[0]}:{port}"
                else:
                    router.wait_for(lambda: len(router.mappings()) == 2, "the two ports forwarded again")
                    walk.until(lambda: lobby.port_words() == W.OPEN.format(where=f"{OUTSIDE}:{port}", via="UPnP"),
                               5, "the page saying it")
                walk.frames(2)
        finally:
            close(walk.app)
        router.wait_for(lambda: router.mappings() == [], "the mapping removed with the app")
