"""What a player meets off the board, walked like a player: the real ``App`` frame loop, posted
mouse and key events only (tools/walk.py), and the frames it draws.

The title offers every unfinished game; the replay opens at the deal and steps as a media player
does; past games fit their rows; the game-over table's columns say what they count; Settings
shows the window's real size. (Hosting and tables: test_walk_hosting.py.)
"""
from __future__ import annotations

import time

import pygame
import pytest
from support.drawn import Words
from support.remote import started_server

from walk import Walk, close as _close, start

from game.scenes.app import App
from game.scenes.title import TitleScene


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]


# ---------------------------------------------------------------------------- what a frame says
def _scores(walk: Walk, players: list[str], turns: int = 4) -> None:
    from support.table import played_out, session_for

    from game.scenes.game_over import GameOverScene
    walk.app.stack.push(GameOverScene(walk.app, session_for(played_out(players, turns), players[0])))


# ---------------------------------------------------------------------------- the game-over table
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_scores_tell_resource_points_from_resources_left(size, monkeypatch):
    walk = start(size)
    try:
        words = Words(monkeypatch)
        _scores(walk, ["Ada", "Bruno", "Carla", "Dario"])
        walk.frames(2)
        heads = " ".join(s for s in words.seen if s == s.lower() and len(s) < 30)   # the column heads
        assert "leaders resources (vp) total left (tie-break)" in heads, heads
        assert "resources left" not in heads
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- settings
def _dropdown(walk: Walk):
    import pygame_gui
    return next(el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UIDropDownMenu))


@pytest.mark.parametrize("size", [(1024, 640), (1600, 900)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_settings_shows_the_windows_real_size_in_a_list_as_wide_as_its_button(size):
    import pygame_gui
    walk = start(size)                 # as with --size: the saved setting says another size
    assert tuple(walk.app.settings.window_size) != size
    try:
        walk.press("Settings")
        walk.until_scene("SettingsScene")
        dd = _dropdown(walk)
        shown = dd.selected_option[0] if isinstance(dd.selected_option, tuple) else dd.selected_option
        assert shown == f"{size[0]} \u00d7 {size[1]}"
        walk.click(dd.rect.center)                           # open the list
        lists = [el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                 if isinstance(el, pygame_gui.elements.UISelectionList) and el.visible]
        assert lists, "the list did not open"
        assert abs(lists[0].rect.w - dd.rect.w) <= 2 and abs(lists[0].rect.x - dd.rect.x) <= 2, (lists[0].rect, dd.rect)
        rows = [el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UIButton) and el.visible and "\u00d7" in str(el.text)
                and el.rect.top >= lists[0].rect.top]
        assert rows and all(r.rect.w >= dd.rect.w - 12 for r in rows), [r.rect for r in rows]
        # saving keeps the window as it is
        walk.click(dd.rect.center)
        walk.press("Save")
        assert tuple(walk.app.settings.window_size) == size and walk.app.size == size
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the replay
def _button(walk: Walk, label: str):
    """The visible button whose words are exactly ``label``."""
    import pygame_gui
    for el in walk.app.stack.top.ui.get_sprite_group().sprites():
        if isinstance(el, pygame_gui.elements.UIButton) and el.visible and str(el.text) == label:
            return el
    raise AssertionError(f"no button {label!r} on {walk.scene}")


def _status(words: Words) -> str:
    """The replay's last "Replay — where, move n of m" line drawn."""
    lines = [s for s in words.seen if s.startswith("Replay \u2014")]
    assert lines, "no replay status line drawn"
    return lines[-1]


def _finished_solo(app: App):
    import random

    from game.match import LocalMatch
    from game.rules.playout import choose
    from game.client.session import GameSession
    match = LocalMatch(app.config, "Ada", seed=3, save_path=app.data_dir / "solo-game.json")
    rng = random.Random(3)
    while not match.game.ended:
        match.send(choose(match.game, "Ada", rng))
    session = GameSession(match, app.config, "Ada")
    session.pump()
    return session


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_replay_opens_at_the_deal_and_steps_like_a_media_player(size, monkeypatch):
    import pygame_gui

    from game.scenes.router import scene_for
    walk = start(size)
    try:
        walk.app.stack.reset(scene_for(walk.app, _finished_solo(walk.app)))
        walk.frames(70)                                    # the scores have been up a moment
        words = Words(monkeypatch)
        walk.press("Watch the replay")
        walk.until_scene("ReplayScene")
        walk.frames(1)
        first = _status(words)
        assert first.startswith("Replay \u2014 the deal, move 0 of "), first
        total = int(first.rsplit(" ", 1)[1])
        assert not _button(walk, "\u00ab").is_enabled and not _button(walk, "\u2039").is_enabled
        walk.click(_button(walk, "\u00bb").rect.center)                     # » : to the end
        assert _status(words) == f"Replay \u2014 the end of the game, move {total} of {total}"
        walk.click(_button(walk, "\u00ab").rect.center)                     # « : to the start
        assert _status(words) == f"Replay \u2014 the deal, move 0 of {total}"
        walk.click(_button(walk, "\u203a").rect.center)                     # › : one move
        assert _status(words).endswith(f"move 1 of {total}")
        walk.click(_button(walk, "Next turn \u203a").rect.center)           # a whole turn on
        on = _status(words)
        assert "turn 2 of" in on, on
        moved = int(on.split("move ")[1].split(" ")[0])
        turns = int(on.split("turn 2 of ")[1].split(",")[0])
        walk.click(_button(walk, "\u2039 Previous turn").rect.center)     # a whole turn back: seed 3's
        assert _status(words) == f"Replay \u2014 turn 1 of {turns}, move 1 of {total}"   # turn 1 is moves 1-2
        walk.click(_button(walk, "Next turn \u203a").rect.center)
        walk.click(_button(walk, "\u2039").rect.center)                     # ‹ : one move back
        assert _status(words) == f"Replay \u2014 turn 1 of {turns}, move {moved - 1} of {total}"
        # each control's tooltip (all enabled in mid-game): wide, one or two lines, clear of the controls
        walk.click(_button(walk, "Next turn \u203a").rect.center)
        walk.click(_button(walk, "\u203a").rect.center)
        controls = [_button(walk, t) for t in ("\u00ab", "\u2039", "\u203a", "\u00bb", "\u2039 Previous turn",
                                               "Next turn \u203a")]
        unit = min(size[0] / 1280, size[1] / 800)
        at = [(3, 3)]                  # the system pointer, which pygame_gui reads for hovering
        monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
        for control in controls:
            at[0] = (3, 3)
            walk.move(at[0])
            walk.frames(3)
            at[0] = control.rect.center
            walk.move(at[0])
            walk.frames(45)                                 # longer than the tooltip's delay
            tips = [el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                    if isinstance(el, pygame_gui.elements.UITooltip)]
            assert tips, f"no tooltip on {control.text!r}"
            tip = tips[0].rect
            line = round(18 * unit * 1.4)   # the tooltips' type (config/theme.json), with leading
            assert tip.w >= 200 * unit, f"{control.text!r}: a narrow tooltip {tip}"
            assert tip.h <= 3.2 * line, f"{control.text!r}: more than two lines {tip}"
            assert not any(tip.colliderect(c.rect) for c in controls), f"{control.text!r}: {tip} covers the controls"
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- past games
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_past_games_rows_keep_the_winner_and_fit_their_row(size, monkeypatch):
    from game import replays as R
    from game.client import replay as C
    from game.rules.playout import random_game
    walk = start(size)
    try:
        names = ["Player", "Cosimo (bot)", "Lucrezia (bot)", "Isabella (bot)"]
        long_names = ["Bartolomeo Colleoni", "Federico da Montefeltro", "Sigismondo Malatesta",
                      "Francesco Sforza"]
        levels = {n: "easy" for n in names if n.endswith(" (bot)")}
        for nicks, seed in ((names, 5), (long_names, 6)):
            game = random_game(walk.app.config, nicks, seed=seed)
            R.save_finished(game, walk.app.data_dir / R.REPLAYS, "bots", nicks[0], bots=levels)
            time.sleep(0.01)
        games = C.past_games(walk.app.data_dir)
        words = Words(monkeypatch)
        walk.press("Past games")
        walk.until_scene("PastGamesScene")
        walk.frames(1)
        frame = walk.app.window
        for game in games:
            winner = game.winners[0]
            won = f"{winner.removesuffix(' (bot)')} (easy) won" if winner in levels else f"{winner} won"
            assert won in words.seen, (won, words.seen)                    # the result, whole
            assert any(s.endswith("\u00b7 Against the computer") for s in words.seen)
        full = ", ".join(long_names)
        shown = [s for s in words.seen if s.startswith("Bartolomeo")]
        assert shown and all(s == full or (s.endswith("\u2026") and full.startswith(s[:-1])) for s in shown), shown
        assert "Player, Cosimo (easy), Lucrezia (easy), Isabella (easy)" in words.seen   # a short list whole
        # nothing is cut at a row's edges: just inside its border, the paper is bare
        rows = sorted((el.rect for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                       if getattr(el, "text", None) == "" and el.rect.w > size[0] // 2), key=lambda r: r.y)
        assert len(rows) == 2
        unit = min(size[0] / 1280, size[1] / 800)
        for r in rows:
            assert r.h >= 50 * unit                                            # two lines
            for x in (r.x + round(5 * unit), r.right - round(6 * unit)):
                column = {tuple(frame.get_at((x, y)))[:3] for y in range(r.y + round(5 * unit), r.bottom - round(5 * unit))}
                assert len(column) <= 2, f"something drawn at the row's edge x={x}: {column}"
        walk.click(rows[1].center)                                             # a click opens it
        walk.until_scene("ReplayScene")
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the title's unfinished games
def _title_entries(walk: Walk) -> list[str]:
    import pygame_gui
    return [str(el.text) for el in sorted(walk.app.stack.top.ui.get_sprite_group().sprites(), key=lambda e: e.rect.y)
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible]


def _cut(walk: Walk) -> list[str]:
    """The title's entries whose words do not fit their button."""
    import pygame_gui
    return [str(el.text) for el in walk.app.stack.top.ui.get_sprite_group().sprites()
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible
            and el.font.size(str(el.text))[0] > el.rect.w - 8]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_title_continues_a_saved_game_against_the_computer(size, monkeypatch):
    walk = start(size, nickname="Ada")
    try:
        assert "Continue the game against the computer" not in _title_entries(walk)
        walk.press("Play against the computer")
        walk.until_scene("VersusScene")
        walk.press("Start")
        walk.until_scene("LeaderChoiceScene")
        for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):      # keep two leaders: the game is saved
            walk.key(k)
        walk.until(lambda: walk.scene != "LeaderChoiceScene", 10, "the leaders kept")
        saved = (walk.app.data_dir / "bots-game.json").read_bytes()
        walk.press("Leave")
        walk.until_scene("TitleScene")
        entries = _title_entries(walk)
        assert entries.index("Continue the game against the computer") < entries.index("Play solo")
        assert not _cut(walk), _cut(walk)
        words = Words(monkeypatch)
        walk.press("Continue the game against the computer")      # straight back to the board,
        walk.until(lambda: walk.scene in ("BoardScene", "ResourceChoiceScene"), 10, "the game")
        assert "Opening the saved game\u2026" in words         # saying at once that the click was taken
        assert "take turns here" not in words                # in the footer's place, not printed over it
        assert (walk.app.data_dir / "bots-game.json").exists()
        walk.press("Leave")
        walk.until_scene("TitleScene")
        # a new game against the computer asks before it replaces the saved one
        walk.press("Play against the computer")
        walk.until_scene("VersusScene")
        walk.press("Start")
        walk.until_scene("AskScene")
        assert walk.button_at("New game, lose it") is not None and walk.button_at("Continue it") is not None
        assert (walk.app.data_dir / "bots-game.json").read_bytes()[:40] == saved[:40]
        walk.press("Cancel")
        walk.until_scene("VersusScene")
        assert (walk.app.data_dir / "bots-game.json").read_bytes()[:40] == saved[:40]
    finally:
        _close(walk.app)


@pytest.mark.timeout(150)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_title_returns_to_a_game_on_a_server_and_forgets_one_the_server_lost(size, tmp_path):
    from game.match import RemoteMatch
    from game.client.session import GameSession
    walk = start(size, nickname="Ada")
    server = started_server(walk.app.config, tmp_path / "srv")
    port = server.address[1]
    bea = None
    try:
        walk.join(port, "Ada")
        walk.until_scene("LobbyScene")
        walk.press("2 players")
        bea = GameSession(RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea" / "seats.json"),
                          walk.app.config, "Bea")
        walk.until(lambda: (bea.pump() or True) and walk.scene == "LeaderChoiceScene", 15, "the leaders")
        walk.press("Leave")
        walk.until_scene("TitleScene")
        where = f"Return to your game at 127.0.0.1:{port}"
        entries = _title_entries(walk)
        assert entries[0] == where, entries
        assert not _cut(walk), _cut(walk)
        # the application closed and started again: still offered, and it puts Ada back in her seat
        _close(walk.app)
        walk = start(size)
        assert _title_entries(walk)[0] == where
        walk.press(where)
        walk.until_scene("LeaderChoiceScene", 15)
        assert "Ada" in server.room_of("Ada").online
        walk.press("Leave")
        walk.until_scene("TitleScene")
        # the server loses the game (a new one, with an empty folder, on the same port): Return says
        # so in words, and the title stops offering it
        bea.close()
        server.stop()
        server = started_server(walk.app.config, tmp_path / "srv2", port)
        walk.press(where)
        walk.until(lambda: walk.scene == "JoinScene" and walk.app.stack.top.error is not None, 15, "the answer")
        assert "not running there any more" in walk.app.stack.top.error
        walk.press("Back")
        walk.until_scene("TitleScene")
        walk.app.stack.reset(TitleScene(walk.app))
        walk.frames(2)
        assert where not in _title_entries(walk)
    finally:
        if bea is not None:
            bea.close()
        server.stop()
        _close(walk.app)
