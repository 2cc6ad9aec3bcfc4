"""What a player meets off the board, walked like a player: the real ``App`` frame loop, posted
mouse and key events only (tools/walk.py), and the frames it draws.

The title offers every unfinished game; the replay opens at the deal and steps as a media player
does; past games fit their rows; the game-over table's columns say what they count; Settings
shows the window's real size; a host's question about ending the table defaults to Stay.
"""
from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest
from support.drawn import Words

from walk import Walk, region, close as _close, free_port, start

from game.scenes.app import App
from game.scenes.title import TitleScene


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]



def _both(*walks: Walk, until) -> None:
    end = time.monotonic() + 20
    while not until():
        assert time.monotonic() < end, [w.scene for w in walks]
        for w in walks:
            w.frames(1)
        time.sleep(0.005)


def _enter(walk: Walk) -> None:
    walk.key(pygame.K_RETURN, "\r")


# ---------------------------------------------------------------------------- ending a hosted table
def test_a_host_asked_about_ending_the_table_stays_on_enter_and_on_esc():
    host = start(name="host", nickname="Ada")
    guest = start(name="guest", nickname="Bea")
    port = free_port()
    host.app.settings.server_port = port
    try:
        host.press("Host a LAN game")
        host.until_scene("LobbyScene")
        host.press("2 players")
        guest.join(port, "Bea")
        _both(host, guest, until=lambda: host.scene == guest.scene == "LeaderChoiceScene")
        server = host.app.server
        for key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            host.press("Leave")                                 # Bea is seated: asked first
            host.until_scene("AskScene")
            assert host.app.stack.top.title == "Your friend is still here"   # (one friend)
            host.key(key, "\r" if key != pygame.K_ESCAPE else "")
            assert host.scene == "LeaderChoiceScene" and host.app.server is server, key
            assert not server.room_of("Ada").finished and "Ada" in server.room_of("Ada").online
        # closing the window: asked; Enter stays, and so does a repeat of a key held down
        host.frames(1, [pygame.event.Event(pygame.QUIT)])
        assert host.scene == "AskScene" and host.app.running
        host.frames(1, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        host.frames(2)
        assert host.app.running and host.scene == "LeaderChoiceScene" and host.app.server is server
        # the dark (main) button of the question is Stay
        host.press("Leave")
        host.until_scene("AskScene")
        ask = host.app.stack.top
        assert ask.default == "stay"
        assert "@menu" in ask.widgets["stay"].get_class_ids() and "@menu" not in ask.widgets["leave"].get_class_ids()
        host.press("Leave the table")
        host.until_scene("TitleScene")
    finally:
        _close(guest.app)
        _close(host.app)


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


def _server(config, data: Path, port: int = 0):
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    server = Server(config, ServerOptions(host="127.0.0.1", port=port, data_dir=data, announce=False))
    server.start()
    return server


@pytest.mark.timeout(150)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_title_returns_to_a_game_on_a_server_and_forgets_one_the_server_lost(size, tmp_path):
    from game.match import RemoteMatch
    from game.client.session import GameSession
    walk = start(size, nickname="Ada")
    server = _server(walk.app.config, tmp_path / "srv")
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
        server = _server(walk.app.config, tmp_path / "srv2", port)
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


# ---------------------------------------------------------------------------- the log of a table left and rejoined
def _to_the_board(*walks: Walk) -> None:
    """Frames for every player until each sees the board; the second player takes their resource."""
    end = time.monotonic() + 30
    while not all(w.scene == "BoardScene" for w in walks):
        assert time.monotonic() < end, [w.scene for w in walks]
        for w in walks:
            if w.scene == "LeaderChoiceScene" and w.button_at("Keep these") is None:
                for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):
                    w.key(k)
            if w.scene == "ResourceChoiceScene" and w.button_at("Take it") is None:
                w.click(w.app.stack.top.token_rects["Coin"].center)
                for label in ("Bottom", "Take it"):
                    if w.scene == "ResourceChoiceScene" and w.button_at(label) is not None:
                        w.click(w.button_at(label))
            w.frames(1)
        time.sleep(0.005)


@pytest.mark.timeout(150)
def test_a_returning_player_reads_the_chat_in_order_and_the_others_read_their_turns_passed(tmp_path):
    from walk import play_market_turn
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    back = None
    server = _server(ada.app.config, tmp_path / "srv")
    port = server.address[1]
    try:
        ada.join(port, "Ada")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        _to_the_board(ada, bea)
        # Bea says something at the table, then Ada leaves it
        bea.click(bea.entry_at(0))
        bea.type("hello from Bea")
        bea.key(pygame.K_RETURN, "\r")
        log_of = lambda w: [str(line) for line in w.app.stack.top.session.log]   # noqa: E731
        ada.until(lambda: "Bea: hello from Bea" in log_of(ada), 10, "the chat line")
        ada.press("Leave")
        ada.until_scene("TitleScene")
        _close(ada.app)
        # Bea plays on; each time the turn passes over Ada, her log says so
        turns, end = 0, time.monotonic() + 60
        while sum("Ada is away" in line for line in log_of(bea)) < 2:
            assert turns < 3 and time.monotonic() < end, log_of(bea)[-6:]
            bea.frames(2)
            session = bea.app.stack.top.session
            if session.vm.my_turn and not session.vm.game["isMandatoryActionDone"]:   # as Bea's board shows it
                play_market_turn(bea, 2, line=turns)
                turns += 1
            time.sleep(0.01)
        away = [line for line in log_of(bea) if "Ada is away" in line]
        assert all(line.endswith(("it is your turn.", "it is your turn again.")) for line in away), away
        assert not any(line.endswith("ended the turn.") for line in log_of(bea)[-4:]), log_of(bea)[-4:]
        # Ada comes back on a new start of the game: her log has the chat line where it was said
        back = start(name="back", nickname="Ada")
        back.join(port, "Ada")
        back.press("Back to that game")        # asked first: the server keeps her seat there
        back.until_scene("BoardScene", 15)
        taken = ("Bea took row", "Bea took column")        # Bea's turns, played after she spoke
        back.until(lambda: any(line.startswith(taken) for line in log_of(back)), 10, "the history")
        told = log_of(back)
        said = told.index("Bea: hello from Bea")
        after = [i for i, line in enumerate(told) if line.startswith(taken)]
        assert after and said < min(after), told
        assert told.count("Bea: hello from Bea") == 1
    finally:
        for w in (back, bea, ada):
            if w is not None:
                _close(w.app)
        server.stop()


# ---------------------------------------------------------------------------- stopping hosting on one's turn
@pytest.mark.timeout(150)
def test_a_host_who_stops_hosting_on_his_turn_finds_it_waiting_when_he_hosts_again():
    """Ada hosts, Bea joins; on Ada's turn she stops hosting (asked first) and hosts again from
    the title: the game waits for her as after a server restart. It is still her turn, nothing
    of hers was skipped, and Bea (connected the whole time, back by herself) reads no turn of
    Ada's passed and no "While you were away" line."""
    from walk import play_market_turn
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    port = free_port()
    ada.app.settings.server_port = port
    log_of = lambda w: [str(line) for line in w.app.stack.top.session.log]   # noqa: E731
    try:
        ada.press("Host a LAN game")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        _to_the_board(ada, bea)
        game = ada.app.server.room_of("Ada").game
        if game.current_player.nickname == "Bea":      # Bea plays first: her turn, then Ada's
            play_market_turn(bea, 2)
        ada.until(lambda: game.current_player.nickname == "Ada", 10, "Ada's turn")
        # the server's game says so at once; her board says so when her client has read it
        ada.until(lambda: ada.button_at("Hint") is not None, 10, "Ada's board on her turn")
        ada.press("Leave")
        ada.until_scene("AskScene")
        assert "the game waits, kept as it is (your turn too), until you host again" in ada.app.stack.top.text
        ada.press("Stop hosting")
        ada.until_scene("TitleScene")
        assert not any(kind == "active" for kind, _n, _a in game.history[-3:]), game.history[-3:]
        # the title says what its offer does: nothing is hosted now, the game is hosted again
        assert ada.app.stack.top.captions["return"] == "Host your unfinished game again and take your seat back"
        ada.press("Return to your LAN game")
        ada.until_scene("BoardScene", 15)
        game = ada.app.server.room_of("Ada").game
        _both(ada, bea, until=lambda: "Bea" in ada.app.server.room_of("Ada").online
              and bea.scene == "BoardScene" and not bea.app.stack.top.session.connection_lost)
        ada.frames(3)
        bea.frames(3)
        assert game.current_player.nickname == "Ada" and all(p.active for p in game.players)
        ada.until(lambda: ada.button_at("Hint") is not None, 10, "her turn still, on her board")
        assert not any("skipped" in line for line in log_of(ada)), log_of(ada)[-5:]
        assert not any("Ada is away" in line or "skipped" in line for line in log_of(bea)), log_of(bea)[-5:]
    finally:
        _close(bea.app)
        _close(ada.app)


# ---------------------------------------------------------------------------- the Join list holds still
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_join_list_holds_still_under_the_pointer_while_tables_come_and_go(size, monkeypatch):
    """Two tables listed; the pointer on the second. The first leaves the network and a third
    appears: the second's row is drawn where it was, pixel for pixel, and a click on it joins
    the second table (QA: a click joined the table that slid under the pointer). A click on the
    row of the table that left joins nothing and says why."""
    from game.netcode.discovery import FoundGame, TableInfo
    from game.scenes import lan_list

    def table(name: str, port: int) -> FoundGame:
        return FoundGame(service=f"{name} ({port})", address="127.0.0.1", port=port,
                         info=TableInfo(name=name, host=name.split("'")[0], taken=1, free=1), seen=time.monotonic())

    class Network:
        games: list[FoundGame] = []

    class FakeBrowser:
        problem = ""
        version = 1

        def __init__(self, on_change=None) -> None:
            self.started = time.monotonic() - 10

        def games(self):
            return list(Network.games)

        def close(self):
            pass

    monkeypatch.setattr(lan_list, "Browser", FakeBrowser)
    ada, bea, cy = table("Ada's table", free_port()), table("Bea's table", free_port()), table("Cy's table", free_port())
    Network.games = [ada, bea]
    walk = start(size)
    try:
        walk.press("Join a game")
        walk.until_scene("JoinScene")
        walk.frames(2)
        lan = walk.app.stack.top.lan
        (row1, _), (row2, _) = lan.rows
        walk.move(row2.center)
        walk.frames(2)
        before = region(walk.app.window, row2)
        Network.games = [cy, bea]                  # Ada's table leaves, Cy's appears (found first)
        walk.move((row2.centerx + 3, row2.centery))
        walk.frames(2)
        assert region(walk.app.window, row2) == before
        walk.click(row2.center)
        assert walk.app.stack.top.widgets["address"].get_text() == f"127.0.0.1:{bea.port}"
        walk.until(lambda: walk.app.stack.top.busy is None, 10, "the knock to end")
        walk.click(row1.center)                    # the row of the table that left
        assert walk.app.stack.top.widgets["address"].get_text() == f"127.0.0.1:{bea.port}"
        assert "no longer on the network" in (walk.app.stack.top.error or "")
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- a bot sits where asked
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_bot_asked_for_in_the_waiting_room_sits_under_the_buttons_clicked(size, monkeypatch):
    """QA (s6-host4b-1920): the bot levels were under every empty seat, and "Easy bot" under the
    fourth seat seated the bot in the second. The levels are under the next free seat only; a
    click seats the bot there, and the levels move on to the seat after it; the pointer resting
    where it clicked brings up no tooltip over them."""
    import pygame_gui
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])   # (a headless display has no pointer)
    walk = start(size, name="host", nickname="Ada")
    walk.app.settings.server_port = free_port()

    def levels() -> list[tuple[int, int]]:
        top = walk.app.stack.top
        return [el.rect.center for el in top.ui.get_sprite_group().sprites()
                if str(getattr(el, "text", "")) == "Easy bot" and el.visible]

    try:
        walk.press("Host a LAN game")
        walk.until_scene("LobbyScene")
        walk.press("4 players")
        walk.until(lambda: walk.button_at("Easy bot") is not None, 10, "the bot buttons")
        _seats, _r, _cy, xs = walk.app.stack.top._seat_geometry()
        assert [x for x, _y in levels()] == [xs[1]]
        at[0] = walk.button_at("Easy bot")
        walk.press("Easy bot")
        walk.until(lambda: walk.app.server.pending_bots == ("easy",) and [x for x, _ in levels()] == [xs[2]],
                   10, "the bot seated and the levels under the next seat")
        free = walk.button_at("Free the seat")
        assert free is not None and free[0] == xs[1]
        walk.frames(150)                                # the pointer rests on "Free the seat"
        top = walk.app.stack.top
        tips = [el.rect for el in top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UITooltip) and el.visible]
        buttons = [el.rect for el in top.ui.get_sprite_group().sprites()
                   if str(getattr(el, "text", "")).endswith(" bot") and el.visible]
        assert not any(t.colliderect(b) for t in tips for b in buttons), (tips, buttons)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- a new table or the old game
@pytest.mark.timeout(150)
def test_host_with_a_kept_game_asks_to_continue_it_or_end_it_for_a_new_table():
    """QA (s6-r-c-host3a): with a hosted game kept unfinished, "Host a LAN game" went straight
    back into it. Now it asks: Continue it (the old board), or New table, end it (a fresh
    waiting room; the old game is not brought back any more, and the title stops offering it)."""
    ada = start(name="ada", nickname="Ada")
    bea = start(name="bea", nickname="Bea")
    port = free_port()
    ada.app.settings.server_port = port
    try:
        ada.press("Host a LAN game")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        _to_the_board(ada, bea)
        for answer in ("Continue it", "New table, end it"):
            ada.press("Leave")
            ada.until_scene("AskScene")
            ada.press("Stop hosting")
            ada.until_scene("TitleScene")
            assert ada.button_at("Return to your LAN game") is not None
            ada.press("Host a LAN game")
            ada.until_scene("AskScene")
            ask = ada.app.stack.top
            assert ask.title == "Your LAN game is not finished" and "with Bea" in ask.text
            ada.press(answer)
            if answer == "Continue it":
                ada.until_scene("BoardScene", 15)
                _both(ada, bea, until=lambda: "Bea" in ada.app.server.room_of("Ada").online)
        ada.until_scene("LobbyScene", 15)
        ada.until(lambda: ada.app.stack.top.choosing, 10, "a new table's waiting room")
        assert ada.app.server.room_of("Ada") is None
        games = ada.app.data_dir / "server" / "games"
        assert not list(games.glob("*.jsonl")) and list((games / "finished").glob("*.jsonl"))
        ada.press("Stop hosting")
        ada.until_scene("TitleScene")
        assert ada.button_at("Return to your LAN game") is None
    finally:
        _close(bea.app)
        _close(ada.app)


# ---------------------------------------------------------------------------- a seat kept for another game
@pytest.mark.timeout(120)
def test_a_seat_kept_for_another_game_at_the_same_address_is_told_as_such(tmp_path):
    """QA (s6-r-b-rejoined): the seat kept on this computer for "Bea" at an address was for
    another game there; joining as Bea said she "is already playing at this table" although
    her seat was empty. It says the kept seat is not this table's."""
    import orjson

    from game.match import RemoteMatch
    from game.client.session import GameSession
    walk = start(nickname="Bea")
    server = _server(walk.app.config, tmp_path / "srv")
    port = server.address[1]
    ada = bea = None
    try:
        ada = GameSession(RemoteMatch("127.0.0.1", port, "Ada", token_file=tmp_path / "ada" / "seats.json"),
                          walk.app.config, "Ada")
        walk.until(lambda: (ada.pump() or True) and ada.lobby.head == "Ada", 10, "Ada waiting")
        ada.match.new_game(2)
        bea = GameSession(RemoteMatch("127.0.0.1", port, "Bea", token_file=tmp_path / "bea" / "seats.json"),
                          walk.app.config, "Bea")
        walk.until(lambda: (ada.pump() or bea.pump() or True) and server.room_of("Bea") is not None, 10, "the game")
        bea.close()                                    # Bea's other install leaves: her seat is empty
        seats = walk.app.data_dir / "seats.json"       # this install's seat there: another game's
        seats.parent.mkdir(parents=True, exist_ok=True)
        seats.write_bytes(orjson.dumps({f"127.0.0.1:{port}/Bea": "a-token-of-another-game"}))
        walk.join(port, "Bea")
        walk.until(lambda: "nickname" in walk.app.stack.top.errors, 10, "the answer")
        said = walk.app.stack.top.errors["nickname"]
        assert "not the one this computer kept" in said and "already playing" not in said, said
    finally:
        for s in (ada, bea):
            if s is not None:
                s.close()
        server.stop()
        _close(walk.app)
