"""The release's last play-test, walked like a player: the real ``App`` frame loop, posted mouse
and key events only (tools/walk.py), and the frames it draws.

The waiting room of a table of 2 draws 2 seats; back on the title, the line under the menu
explains the entry under the pointer, not the one clicked before.
"""
from __future__ import annotations


import pygame
import pytest

from walk import Walk, close as _close, free_port, host_for_two, start



pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]



# ---------------------------------------------------------------------------- the waiting room's seats
def _pawns_drawn(walk: Walk) -> int:
    """How many pawns (taken or free seats) the waiting room's sheet shows, from the frame's
    pixels: runs of columns, across the sheet, where the pawns' row differs from the paper."""
    scene = walk.app.stack.top
    frame = walk.app.window
    _seats, r, cy, _xs = scene._seat_geometry()
    inset = round(24 * scene.unit)
    left, right = scene.sheet.x + inset, scene.sheet.right - inset
    paper = frame.get_at((left + 2, cy))[:3]
    runs, inside = 0, False
    for x in range(left, right):
        drawn = any(max(abs(a - b) for a, b in zip(frame.get_at((x, y))[:3], paper)) > 24
                    for y in range(cy - r, cy + r, 2))
        if drawn and not inside:
            runs += 1
        inside = drawn
    return runs


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_waiting_room_of_a_table_of_two_shows_two_seats(size):
    """QA (release): a game for 2 drew 4 pawns, the last two faded; a player counts the seats of
    the table. Before the number is chosen the room shows 4 places (the most a table seats)."""
    walk = start(size, name="host", nickname="Ada")
    walk.app.settings.server_port = free_port()
    try:
        walk.press("Host a LAN game")
        walk.until_scene("LobbyScene")
        walk.frames(2)
        assert _pawns_drawn(walk) == 4
        walk.press("2 players")
        walk.until(lambda: walk.button_at("Easy bot") is not None, 10, "the bot buttons")
        walk.frames(2)
        assert _pawns_drawn(walk) == 2
        walk.press("Easy bot")
        walk.until(lambda: walk.scene != "LobbyScene", 10, "the game for 2 to start")
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the title's caption
def test_back_on_the_title_the_caption_is_not_the_entry_clicked_before(monkeypatch):
    """QA (release): after How to play and its Back (or Esc), the title still said "The rules in
    eight short pages" under the menu, with the pointer far from that entry: the caption followed
    the last place the pointer moved on the title. Back on the title, it follows where the
    pointer is now."""
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    monkeypatch.setattr(pygame.mouse, "get_focused", lambda: True)
    walk = start()
    try:
        title = walk.app.stack.top
        help_at = walk.button_at("How to play")
        walk.move(help_at)
        walk.frames(2)
        assert title.caption_rect is not None          # the caption of the entry under the pointer
        at[0] = help_at
        walk.press("How to play")
        walk.until_scene("HelpScene")
        back = walk.button_at("Back")
        at[0] = back
        walk.press("Back")
        walk.until_scene("TitleScene")
        walk.frames(2)
        assert title.hovered() is None, (back, title.hovered())
        assert title.caption_rect is None
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- settings: the window's size
def test_a_size_chosen_in_settings_is_applied_even_when_it_is_the_saved_one():
    """QA (release): started with --size 1024x640 (or the window dragged to another size), the
    player chose 1280 x 800 in Settings and saved: "Saved.", and the window stayed as it was,
    because 1280 x 800 was already the saved setting. The window takes the size chosen."""
    import pygame_gui
    walk = start((1024, 640))
    assert tuple(walk.app.settings.window_size) == (1280, 800)      # the saved (first) setting
    try:
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        dd = next(el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                  if isinstance(el, pygame_gui.elements.UIDropDownMenu))
        walk.click(dd.rect.center)                                   # open the list
        walk.press("1280 \u00d7 800")
        walk.press("Save")
        walk.frames(2)
        assert walk.app.size == (1280, 800) and walk.app.window.get_size() == (1280, 800)
        assert tuple(walk.app.settings.window_size) == (1280, 800)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- waiting to reconnect
def test_waiting_to_reconnect_redraws_only_the_card_over_the_board_dimmed_once(monkeypatch):
    """QA (release): "Connection lost — reconnecting…" took 6 % of a core at 1920x1080 for as
    long as it waited (the host away for minutes): ten times a second the whole board was drawn
    again under it, then covered by its own dimmed copy. The board is drawn and dimmed once; then
    only the card and its breathing dots. Once reconnecting has failed nothing moves, and the
    app sleeps."""
    from support.table import mid_game, session_for

    from game.scenes.board import BoardScene
    walk = start((1920, 1080))
    drawn: list[int] = []
    board_draw = BoardScene.draw
    monkeypatch.setattr(BoardScene, "draw", lambda self, surface: (drawn.append(1), board_draw(self, surface)))
    try:
        session = session_for(mid_game(["Ada", "Bruno"], 3, 30), "Ada")
        walk.app.stack.reset(BoardScene(walk.app, session))
        walk.frames(2)
        session.connection_lost = True
        walk.until_scene("ConnectionOverlay")
        walk.frames(2)
        first = walk.app.window.copy()
        drawn.clear()
        for _ in range(20):                                  # two seconds of breathing dots
            walk.app.frame(1 / 10)
        assert drawn == [], f"the board was drawn {len(drawn)} times under the card"
        overlay = walk.app.stack.top
        outside = [(40, 40), (1880, 1040), (300, 900), (1700, 200)]   # the dimmed board around the card
        assert all(walk.app.window.get_at(p) == first.get_at(p) for p in outside)
        assert overlay.frame_interval() == 1 / 10
        session.reconnect_failed = "server unreachable"
        walk.frames(2)
        assert walk.scene == "ConnectionOverlay" and overlay.frame_interval() is None
        assert walk.button_at("Back to the title") is not None
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- a double click on the setup
@pytest.mark.timeout(150)
def test_a_double_click_on_keep_these_leaders_does_not_leave_the_table():
    """QA (release): the waiting page's Leave sat where "Keep these 2 leaders" (and "Take it")
    had been, so the second click of a double click left the table (the host was asked about
    stranding his friends). Leave is in the corner where the choosing pages have it."""
    ada, bea = start(name="ada", nickname="Ada"), start(name="bea", nickname="Bea")
    try:
        host_for_two(ada, bea, "Bea")
        for w in (ada, bea):
            w.until_scene("LeaderChoiceScene", 20)
        first = next(w for w in (ada, bea) if not w.app.stack.top.session.vm.me["setup"].get("initialResources"))
        for k in (pygame.K_1, pygame.K_3):
            first.key(k)
        keep = first.button_at("Keep these")
        first.click(keep, after=1)
        first.until_scene("WaitingScene", 10)
        first.click(keep)                                  # the second click of a double click
        first.frames(3)
        assert first.scene == "WaitingScene"
        leave = first.button_at("Leave")
        assert leave is not None and first.app.stack.top.widgets["leave"].rect.right < keep[0]
    finally:
        _close(bea.app)
        _close(ada.app)
