"""A LAN table that goes away, walked like a player (the real ``App`` frame loop, posted events):
Bea joined Ada's table from the network's list; Ada stops hosting; Bea's card says Ada stopped
hosting the game (on purpose, not a lost connection) and whom it waits for, by name and address.
"""
from __future__ import annotations


import pygame
import pytest

from walk import Walk, all_to_the_board, close as _close, free_port

from game.scenes.app import App
from game.scenes.title import TitleScene


def _start(size, nickname: str) -> Walk:
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    app.settings.nickname = nickname
    walk = Walk(app, None, nickname)
    app.stack.push(TitleScene(app))
    walk.frames(2)
    return walk


def _keep_two_leaders(walk: Walk) -> None:
    walk.until_scene("LeaderChoiceScene")
    walk.key(pygame.K_1, "1")
    walk.key(pygame.K_3, "3")
    walk.key(pygame.K_RETURN, "\r")


@pytest.mark.seed(1)
@pytest.mark.timeout(150)
def test_the_lost_connection_card_names_the_host_who_stopped_hosting(monkeypatch):
    from game.scenes import overlay
    said: list[str] = []
    blit_lines = overlay.blit_lines

    def spy(surface, lines, *a, **k):
        said.extend(lines)
        return blit_lines(surface, lines, *a, **k)
    monkeypatch.setattr(overlay, "blit_lines", spy)
    size = (1024, 640)
    host, guest = _start(size, "Ada"), _start(size, "Bea")
    port = free_port()
    host.app.settings.server_port = port
    try:
        host.press("Host a LAN game")
        host.until_scene("LobbyScene")
        host.press("2 players")
        guest.press("Join a game")
        guest.until_scene("JoinScene")
        rows = lambda: [r for r, g in guest.app.stack.top.lan.rows if g.port == port]   # noqa: E731
        guest.until(lambda: bool(rows()), 20, "Ada's table in the list")
        guest.click(rows()[0].center)                          # joined from the list, by a click
        _keep_two_leaders(host)
        _keep_two_leaders(guest)
        all_to_the_board(host, guest)
        host.press("Leave")
        host.until_scene("AskScene")
        host.press("Stop hosting")
        host.until_scene("TitleScene")
        guest.until_scene("ConnectionOverlay", 15)
        guest.frames(3)                                        # (its words are drawn once, then kept)
        words = " ".join(said)
        assert f"Waiting for Ada to host the table again (127.0.0.1:{port})" in words, said
        # the server said it stops on purpose: the card says the host stopped, not a lost connection
        card = guest.app.stack.top
        assert card.heading == "Ada stopped hosting the game"
        assert "On purpose, not a crash: the game is kept, with your seat" in words, said
        assert all(card.card.contains(r) for r in (card._head()[0],))
    finally:
        _close(guest.app)
        _close(host.app)


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lost_connection_card_keeps_its_words_inside_it(size, monkeypatch):
    """A table joined by its typed address: the card names the address; every line it draws is
    inside the card and none is smaller than the log's type."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes import overlay
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    drawn: list[tuple[str, pygame.Rect]] = []
    blit_lines = overlay.blit_lines

    def spy(surface, lines, size_, colour, x, y, *a, **k):
        bottom = blit_lines(surface, lines, size_, colour, x, y, *a, **k)
        from game.scenes.art import fonts
        for i, line in enumerate(lines):
            w = fonts.font(size_, a[0] if a else "italic").size(line)[0]
            drawn.append((line, pygame.Rect(x - w // 2, y + i * round(size_ * 1.18), w, size_)))
        assert size_ >= 12
        return bottom
    monkeypatch.setattr(overlay, "blit_lines", spy)
    game = mid_game(["Ada", "Bea"], 3, 10)
    match = Table(game, "Bea")
    match.host, match.port, match.nickname = "192.0.2.2", 51015, "Bea"
    app = App(headless=True, size=size)
    walk = Walk(app, None, "lost")
    try:
        app.stack.push(BoardScene(app, GameSession(match, default_config(), "Bea")))
        walk.frames(3)
        match.out.append({"type": "ConnectionLost"})
        walk.until_scene("ConnectionOverlay")
        walk.frames(2)
        card = app.stack.top.card
        assert drawn and all(card.contains(r) for _w, r in drawn), (card, drawn)
        assert "Waiting for the game at 192.0.2.2:51015 to come back" in " ".join(w for w, _r in drawn)
    finally:
        _close(app)
