"""TLS as a player sees it, walked through the real ``App`` frame loop with posted events only
(tools/walk.py): the tables of a server that speaks TLS come over TLS and the page says so, the
waiting room's first frame and the board's first frame show the gilded padlock, and a server
whose certificate changed is refused with a warning over the Join page."""
from __future__ import annotations


import pygame
import pytest

from walk import Walk, board_check, close, start

from game.netcode.tls import fingerprint
from game.settings import data_dir

pytestmark = pytest.mark.timeout(120)


def shows_lock(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether the shut padlock is drawn at the left of ``rect``, where a mark puts it: the light
    gold of its shackle (the pages' paper is paler, their ink darker, the open lock grey)."""
    area = pygame.Rect(rect.x, rect.y, rect.h, rect.h).clip(surface.get_rect())
    gold = [c for c in (tuple(surface.get_at((x, y)))[:3] for x in range(area.x, area.right)
                        for y in range(area.y, area.bottom))
            if c[0] > 180 and c[0] - c[2] > 95]
    return len(gold) >= 4


def _to_board_solo(walk: Walk) -> None:
    walk.press("Quick game")
    walk.until_scene("LobbyScene")
    walk.until(lambda: walk.button_at("Solo") is not None, 10, "the count buttons")
    walk.press("Solo")
    walk.until_scene("LeaderChoiceScene")
    walk.key(pygame.K_1, "1")
    walk.key(pygame.K_3, "3")
    walk.key(pygame.K_RETURN, "\r")
    walk.until_scene("BoardScene", 20)


def test_a_tls_server_is_played_with_the_padlock_in_view(tls_server):
    ada = start(name="ada")
    try:
        ada.fill_join_page(tls_server.address[1], "Ada")
        ada.press("Tables")
        ada.until_scene("TablesScene")
        page = ada.app.stack.top
        ada.until(lambda: page.listing is not None, 10, "the list of tables")
        link = page.listing.link
        assert link.secure and link.fingerprint == tls_server.tls_fingerprint and page.tls_port is not None
        ada.frames(1)
        assert page.mark.rect.w > 0 and shows_lock(ada.app.window, page.mark.rect)
        ada.move(page.mark.rect.center)                               # the tooltip: the whole fingerprint
        ada.frames(1)
        assert page.mark.hovered()
        _to_board_solo(ada)
        lobby_frame = ada.first("LobbyScene")
        board = ada.app.stack.top
        ctx = board.context()
        assert ctx.link is not None and ctx.link.secure and ctx.link.fingerprint == tls_server.tls_fingerprint
        lock = board.top_bar.lock_rect(ctx)
        first = ada.first("BoardScene")
        assert lock is not None and shows_lock(first, lock)           # the first board frame has it
        assert board_check(first, 1)["cards"]
        assert lobby_frame is not None
        # the server now shows another certificate: the game's return is refused with the warning
        key = f"127.0.0.1:{tls_server.address[1]}"
        (data_dir() / "known_servers").write_text(f"{key} {fingerprint(b'another')}\n", encoding="utf-8")
        board.session.match.resync()
        ada.until(lambda: ada.scene == "ConnectionOverlay" and ada.app.stack.top.failed is not None, 15,
                  "the refused return")
        ada.frames(2)
        overlay = ada.app.stack.top
        assert "not the server you met" in overlay.session.reconnect_warning.title
        assert overlay.card.h >= 300 * overlay.unit          # the card holds the whole warning
    finally:
        close(ada.app)


@pytest.mark.parametrize("kind", ["tls_server", "server"])
def test_the_waiting_room_says_on_its_first_frame_whether_it_is_encrypted(kind, request):
    """A server that speaks TLS: the gilded padlock and "secure"; a plain one: an open, faded lock
    and "not encrypted", nothing louder."""
    srv = request.getfixturevalue(kind)
    bea = start(name="bea")
    try:
        bea.join(srv.address[1], "Bea")
        bea.until_scene("LobbyScene")
        mark = bea.app.stack.top.mark
        assert mark.link is not None and mark.link.label == ("secure" if kind == "tls_server" else "not encrypted")
        assert mark.rect.w > 0 and shows_lock(bea.first("LobbyScene"), mark.rect) == (kind == "tls_server")
    finally:
        close(bea.app)


def test_a_changed_certificate_is_a_warning_that_says_what_to_do(tls_server):
    key = f"127.0.0.1:{tls_server.address[1]}"
    path = data_dir() / "known_servers"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{key} {fingerprint(b'the one met before')}\n", encoding="utf-8")
    cy = start(name="cy")
    try:
        cy.join(tls_server.address[1], "Cy")
        cy.until_scene("AskScene")
        ask = cy.app.stack.top
        assert "not the server you met" in ask.title and ask.warning
        assert str(path) in ask.text and "then join again" in ask.text
        cy.press("Back")
        cy.until_scene("JoinScene")
        assert "changed its certificate" in cy.app.stack.top.error and "Cy" not in tls_server.by_nick
    finally:
        close(cy.app)

