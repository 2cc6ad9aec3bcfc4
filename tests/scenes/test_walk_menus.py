"""QA findings off the board, walked like a player: the real ``App`` frame loop, posted events, and
the frames it draws (tools/walk.py).

The waiting room lays out without overlaps at every offered window size; the scores are not
skipped by an Enter carried over from the board; questions dim and hold the screen behind them.
"""
from __future__ import annotations


import pygame
import pytest

from walk import Walk, close as _close, free_port

from game.scenes.app import WINDOW_SIZES, App
from game.scenes.backdrop import BACKDROP
from game.scenes.title import TitleScene


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


def _start(size=(1024, 640), name="walk") -> Walk:
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, name)
    app.stack.push(TitleScene(app))
    walk.frames(2)
    return walk


# ---------------------------------------------------------------------------- the waiting room
def _runs_above(frame: pygame.Surface, button: pygame.Rect) -> list[tuple[bool, int]]:
    """Going up from just above ``button``, across its width: runs of (drawn, rows), where a row is
    "drawn" when any pixel differs from the bare page (the backdrop, painted the same way)."""
    page = pygame.Surface(frame.get_size())
    BACKDROP.draw(page)
    runs: list[tuple[bool, int]] = []
    for y in range(button.top - 1, max(0, button.top - 400), -1):
        drawn = any(max(abs(a - b) for a, b in zip(frame.get_at((x, y))[:3], page.get_at((x, y))[:3])) > 10
                    for x in range(button.left, button.right))
        if runs and runs[-1][0] == drawn:
            runs[-1] = (drawn, runs[-1][1] + 1)
        else:
            runs.append((drawn, 1))
    return runs


def _you_line_stands_free(walk: Walk, label: str) -> None:
    """Above the Leave/Stop hosting button: bare page, the "you are ..." line, bare page, the sheet."""
    button = pygame.Rect(0, 0, 0, 0)
    pos = walk.button_at(label)
    assert pos is not None, f"no {label} button at {walk.app.size}"
    for el in walk.app.stack.top.ui.get_sprite_group().sprites():
        if getattr(el, "text", None) == label:
            button = el.rect
    runs = _runs_above(walk.app.window, button)
    size = walk.app.size
    assert not runs[0][0] and runs[0][1] >= 2, f"{size}: something touches the top of {label!r}: {runs[:4]}"
    assert runs[1][0] and runs[1][1] >= 5, f"{size}: no line above {label!r}: {runs[:4]}"
    assert not runs[2][0] and runs[2][1] >= 2, f"{size}: the line above {label!r} touches the sheet: {runs[:4]}"
    assert runs[3][0]


def test_the_waiting_room_overlaps_nothing_at_any_offered_window_size():
    walk = _start()
    walk.app.settings.server_port = free_port()
    try:
        walk.press("Host a LAN game")
        walk.until_scene("LobbyScene")
        walk.frames(3)
        for state in ("choosing", "seating"):
            if state == "seating":
                walk.app.resize((1024, 640))
                walk.frames(2)
                walk.press("2 players")
                walk.until(lambda: walk.button_at("Easy bot") is not None, 10, "the bot buttons")
            for size in WINDOW_SIZES:
                walk.app.resize(size)
                walk.frames(2)
                _you_line_stands_free(walk, "Stop hosting")
                if state == "seating":   # the bot buttons say their words whole
                    for el in walk.app.stack.top.ui.get_sprite_group().sprites():
                        if str(getattr(el, "text", "")).endswith(" bot"):
                            assert el.font.size(el.text)[0] <= el.rect.w - 6, f"{el.text!r} is cut at {size}"
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the scores
def _scores(walk: Walk) -> None:
    from support.table import played_out, session_for

    from game.scenes.game_over import GameOverScene
    walk.app.stack.push(GameOverScene(walk.app, session_for(played_out(["Ada", "Bruno"], 4), "Ada")))


def test_an_enter_carried_over_from_the_board_does_not_skip_the_scores():
    walk = _start()
    try:
        _scores(walk)
        walk.key(pygame.K_RETURN, "\r", after=0)        # the second Enter of a double press on the board
        walk.frames(1)
        assert walk.scene == "GameOverScene"
        seen = walk.first("GameOverScene")
        assert pygame.image.tobytes(walk.app.window, "RGB") == pygame.image.tobytes(seen, "RGB")
        # a key held down since then: its repeats do nothing, even once the scores have been up a while
        walk.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        walk.frames(80)
        walk.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        walk.frames(2)
        assert walk.scene == "GameOverScene"
        # released and pressed anew: back to the title
        walk.frames(1, [pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        walk.key(pygame.K_RETURN, "\r")
        assert walk.scene == "TitleScene"
    finally:
        _close(walk.app)


def test_esc_right_after_the_scores_appear_is_ignored_and_works_a_moment_later():
    walk = _start()
    try:
        _scores(walk)
        walk.key(pygame.K_ESCAPE, after=1)
        assert walk.scene == "GameOverScene"
        walk.frames(70)                                   # more than a second of frames
        walk.key(pygame.K_ESCAPE)
        assert walk.scene == "TitleScene"
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- questions are modal
def _luma(surface: pygame.Surface, rect: pygame.Rect) -> tuple[float, float]:
    """(mean brightness, sharpness) in ``rect``: sharpness is the mean step between neighbouring
    pixels over the spread of the brightness (a veil scales both alike; a blur lowers it)."""
    rows = [[sum(surface.get_at((x, y))[:3]) / 3 for x in range(rect.x, rect.right)] for y in range(rect.y, rect.bottom, 3)]
    vals = [v for row in rows for v in row]
    mean = sum(vals) / len(vals)
    spread = (sum((v - mean) ** 2 for v in vals) / len(vals)) ** 0.5
    steps = [abs(a - b) for row in rows for a, b in zip(row, row[1:])]
    return mean, sum(steps) / len(steps) / max(spread, 1e-6)


def _dimmed(before: pygame.Surface, after: pygame.Surface, rect: pygame.Rect) -> None:
    """The screen behind the question is darker, and blurred so that it does not compete with it."""
    m0, s0 = _luma(before, rect)
    m1, s1 = _luma(after, rect)
    assert m1 < 0.7 * m0, f"not darkened behind the question: {m0:.0f} -> {m1:.0f}"
    assert s1 < 0.5 * s0, f"the screen behind the question is still sharp: {s0:.3f} -> {s1:.3f}"


def _rect_of(walk: Walk, label: str) -> pygame.Rect:
    for el in walk.app.stack.top.ui.get_sprite_group().sprites():
        if str(getattr(el, "text", "")).startswith(label) and el.visible:
            return pygame.Rect(el.rect)
    raise AssertionError(f"no {label!r} on {walk.scene}")


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_damaged_save_question_dims_the_title_and_holds_it(size, tmp_path):
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "solo-game.json").write_text("{broken")
    walk = _start(size)
    try:
        quit_, settings = _rect_of(walk, "Quit"), _rect_of(walk, "Settings")
        walk.move((3, 3))
        title = walk.app.window.copy()
        walk.press("Play solo")
        walk.until_scene("AskScene")
        card_top = walk.app.window.copy()
        _dimmed(title, card_top, quit_.union(settings))
        for behind in (quit_.center, settings.center):      # clicks behind the question do nothing
            walk.click(behind)
            assert walk.scene == "AskScene" and walk.app.running
        walk.press("Cancel")
        assert walk.scene == "TitleScene"
    finally:
        _close(walk.app)


def test_the_board_asks_over_a_dimmed_board_that_takes_no_clicks():
    from walk import board_geometry
    walk = _start((1024, 640))
    walk.app.settings.confirm_end_turn = True
    try:
        walk.press("Play solo")
        walk.until_scene("LeaderChoiceScene")
        for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):
            walk.key(k)
        walk.until_scene("BoardScene")
        arrows = board_geometry(walk.app.size, 1)["arrows"]
        walk.click(arrows[0].center)                       # take a line ...
        walk.key(pygame.K_RETURN)                          # ... confirmed with Enter
        if walk.scene == "AskScene":                       # something is discarded: asked first
            walk.press("Discard and take")
        walk.until_scene("BoardScene")
        walk.frames(120)                                   # past the glow of the change
        walk.move((3, 3))
        board = walk.app.window.copy()
        walk.press("End turn")
        walk.until_scene("AskScene")
        _dimmed(board, walk.app.window, pygame.Rect(0, 0, 300, 200))
        walk.click(arrows[1].center)                       # a click on the market behind does nothing
        walk.click(_rect_of(walk, "Back").center)
        walk.until_scene("BoardScene")
        walk.move((3, 3))
        walk.frames(2)
        assert pygame.image.tobytes(walk.app.window, "RGB") == pygame.image.tobytes(board, "RGB")   # no plan began
        walk.press("End turn")
        walk.until_scene("AskScene")
        walk.key(pygame.K_RETURN)                          # Enter answers the question: the turn ends
        walk.until_scene("BoardScene")
        walk.frames(120)
        walk.move((3, 3))
        walk.frames(2)
        assert pygame.image.tobytes(walk.app.window, "RGB") != pygame.image.tobytes(board, "RGB")
    finally:
        _close(walk.app)


def test_continue_on_a_damaged_save_asks_in_words_and_starts_anew(tmp_path):
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "solo-game.json").write_text("{broken")
    walk = _start((1024, 640))
    try:
        walk.press("Continue solo game")
        walk.until_scene("AskScene")                  # no parser error under the menu: a question
        walk.press("Start a new game")
        walk.until_scene("LeaderChoiceScene")
        assert (tmp_path / "data" / "solo-game.damaged.json").read_text() == "{broken"
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- nicknames
def test_a_fresh_install_gets_a_nickname_of_its_own(monkeypatch, tmp_path):
    """QA: two windows on one machine, started with the same MOR_SEED, had the same default
    nickname. Each fresh install draws its own from the OS (not the game's seeded random)."""
    import getpass
    import random

    from game.settings import Settings
    monkeypatch.setattr(getpass, "getuser", lambda: "alice")
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "alice"))
    assert Settings.load().nickname == "Alice"                 # a person's account: their name
    monkeypatch.setattr(getpass, "getuser", lambda: "root")    # an account every machine has
    monkeypatch.setenv("MOR_SEED", "7")
    names = []
    for n in range(5):                                         # five fresh installs on this machine
        monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / f"install-{n}"))
        random.seed(7)
        names.append(Settings.load().nickname)
    assert len(set(names)) > 1, names                          # (all five alike: 1 chance in 900^4)
    assert all(n.startswith("Player ") and n[7:].isdigit() for n in names), names


@pytest.mark.timeout(60)
def test_two_fresh_installs_at_one_table_one_click_joins_the_second_under_another_name():
    """Two apps with the same nickname (two windows of one account, "Alice"): the guest's join is
    refused by name, and the join page offers to join as another name ("Alice 2" for "Alice",
    "Player 695" for "Player 694"), which seats them."""
    host, guest = _start(name="host"), _start(name="guest")
    port = free_port()
    host.app.settings.server_port = port
    host.app.settings.nickname = guest.app.settings.nickname = "Alice"
    try:
        host.press("Host a LAN game")
        host.until_scene("LobbyScene")
        guest.press("Join a game")
        guest.until_scene("JoinScene")
        guest.click(guest.entry_at(0))
        guest.type(f"127.0.0.1:{port}")
        guest.press("Join")
        name = guest.app.settings.nickname
        guest.until(lambda: guest.button_at("Join as") is not None, 10, "the offer of another nickname")
        assert guest.scene == "JoinScene"
        guest.press("Join as")
        guest.until_scene("LobbyScene")
        host.until(lambda: host.app.stack.top.session.lobby.booked == 2, 10, "two in the waiting room")
        assert guest.app.settings.nickname not in ("", name)   # the new name, kept for next time
    finally:
        _close(guest.app)
        _close(host.app)
