"""A game link as a player meets it in the window, through the real ``App`` frame loop: ``mor
URL`` opens the Join page with the link in its address field, and Join seats the player; a link
pasted whole in that field joins as an address does; a bad link is refused in words under the
field and nothing connects (nor does ``mor BADLINK`` open a window); the host's waiting room
offers its address as a link, and Copy puts it on the clipboard."""
from __future__ import annotations

import pytest
from walk import close, free_port, start

from game.client.links import parse_link
from game.launcher import first_scene, main

pytestmark = pytest.mark.timeout(60)


def test_mor_url_opens_the_join_page_filled_in_and_join_seats(server):
    walk = start(nickname="Ada")
    try:
        link = parse_link(f"mor://127.0.0.1:{server.address[1]}")
        walk.app.stack.pop()                       # as mor URL starts: the title, the Join page over it
        walk.app.stack.push(first_scene(walk.app, link))
        walk.until_scene("JoinScene")
        assert [type(s).__name__ for s in walk.app.stack.scenes] == ["TitleScene", "JoinScene"]
        assert walk.app.stack.top.widgets["address"].get_text() == str(link)
        walk.press("Join")
        walk.until_scene("LobbyScene")
        walk.press("Leave")
        walk.until_scene("TitleScene")
    finally:
        close(walk.app)


def test_a_link_pasted_in_the_address_field_joins(server):
    walk = start(nickname="Ada")
    try:
        walk.press("Join a game")
        walk.until_scene("JoinScene")
        walk.click(walk.entry_at(0))
        walk.type(f"mor://127.0.0.1:{server.address[1]}/")
        walk.press("Join")
        walk.until_scene("LobbyScene")
    finally:
        close(walk.app)


@pytest.mark.parametrize("bad, words", [("mor://127.0.0.1:0", "from 1 to 65535"),
                                        ("mor://a@127.0.0.1:51015", "no user name"),
                                        ("mor://127.0.0.1:51015/$(id)", "no \u201c$()\u201d")])
def test_a_bad_link_in_the_field_is_refused_in_words_and_nothing_connects(bad, words):
    walk = start(nickname="Ada")
    try:
        walk.press("Join a game")
        walk.until_scene("JoinScene")
        walk.click(walk.entry_at(0))
        walk.type(bad)
        walk.press("Join")
        walk.frames(3)
        page = walk.app.stack.top
        assert walk.scene == "JoinScene" and page.seating is None and page.busy is None
        assert words in page.errors["address"], page.errors
    finally:
        close(walk.app)


def test_mor_with_a_bad_link_says_why_and_starts_nothing(capsys, monkeypatch):
    import game.scenes.app as app_module
    monkeypatch.setattr(app_module, "App", None)     # a window opened would fail the test
    assert main(["mor://" + "x" * 10_000 + ":51015"]) == 2
    err = capsys.readouterr().err
    assert "this link cannot be opened" in err and "too long" in err and len(err) < 400
    assert main(["http://203.0.113.7:51015"]) == 2
    assert "\u201chttp:\u201d links are not game links" in capsys.readouterr().err


def test_the_host_copies_the_link_to_the_table():
    from pygame_gui.core.utility import clipboard_copy, clipboard_paste
    walk = start(nickname="Ada")
    walk.app.settings.server_port = free_port()
    try:
        walk.press("Host a LAN game")
        walk.until(lambda: walk.scene == "LobbyScene" or getattr(walk.app.stack.top, "error", None), 30, "hosted")
        assert walk.scene == "LobbyScene", walk.app.stack.top.error
        clipboard_copy("something else")
        walk.press("Copy link")
        lobby = walk.app.stack.top
        pasted = clipboard_paste()
        assert pasted == lobby.share_link() and parse_link(pasted).port == walk.app.server.address[1]
        walk.until(lambda: walk.button_at("Copied") is not None, 5, "the button saying it was copied")
        walk.press("Stop hosting")
        walk.until_scene("TitleScene")
    finally:
        close(walk.app)
