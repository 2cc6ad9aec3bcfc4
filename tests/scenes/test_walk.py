"""Walk like a player: the real frame loop from the title, posted mouse and key events only.

Every walk saves the first frame of each scene it passes through (to a temporary folder) and
checks the FIRST frame of each board: the grid's cards, the market's arrows, the faith track,
the player's board and the action bar are all drawn. Solo (new, then resumed) and a hosted LAN
game joined by a second client over loopback (both first boards, a rejoin, the host hosting
again), at 1024x640 and 1920x1080.
"""
from __future__ import annotations

import time

import pygame
import pytest

from walk import (ServerProcess, Walk, all_to_the_board, board_check, close, host_for_two, play_market_turn, region,
                  start)

from game.scenes.app import App

SIZES = [(1024, 640), (1920, 1080)]
ALL = {"cards": True, "arrows": True, "track": True, "board": True, "actions": True}




def _keep_two_leaders(walk: Walk) -> None:
    walk.until_scene("LeaderChoiceScene")
    walk.key(pygame.K_1, "1")
    walk.key(pygame.K_3, "3")
    walk.key(pygame.K_RETURN, "\r")


@pytest.mark.seed(1)
@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_solo_game_from_the_title_shows_a_whole_board_on_its_first_frame(size, tmp_path):
    walk = start(size, tmp_path / "frames", "solo")
    try:
        walk.press("Play solo")
        _keep_two_leaders(walk)
        walk.until_scene("BoardScene")
        assert board_check(walk.first("BoardScene"), 1) == ALL
        walk.press("Leave")                           # saved; back at the title
        walk.until_scene("TitleScene")
        walk.press("Continue solo game")              # resumed
        walk.until_scene("BoardScene")
        assert board_check(walk.first("BoardScene", 1), 1) == ALL
        saved = walk.save()          # the first frames, as the kit writes them for a failed test
        assert [p.name for p in saved if p.name.endswith("-BoardScene.png")] == \
            ["solo-03-BoardScene.png", "solo-05-BoardScene.png"], [p.name for p in saved]
        assert all(p.stat().st_size > 10_000 for p in saved)
    finally:
        close(walk.app)


@pytest.mark.seed(1)
@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_resumed_solo_game_shows_lorenzos_pile_and_the_log_as_they_were(size, tmp_path):
    """Turns played with the mouse until Lorenzo has shown two tokens since his last shuffle;
    left, then continued from the title: the first board frame shows the same pile (every token
    face up, how many are left) and the same log, from the first move."""
    from game.match import LocalMatch
    from game.rules import default_config
    from game.scenes.layout import board_layout
    walk = start(size, tmp_path / "frames", "resume")
    app = walk.app
    try:
        walk.press("Play solo")
        _keep_two_leaders(walk)
        walk.until_scene("BoardScene")
        for turn in range(14):
            play_market_turn(walk, 1, turn)
            assert walk.scene == "BoardScene", "the game ended before Lorenzo showed two tokens"
            if len(LocalMatch.load(default_config(), app.solo_save_path).revealed) >= 2:
                break
        saved = LocalMatch.load(default_config(), app.solo_save_path)
        assert len(saved.revealed) >= 2 and len(saved.history) >= 5
        L = board_layout(size, 1, True)
        walk.move((2, 2))
        walk.frames(90)                               # past the glow of the last change
        pile, log = region(app.window, L.token), region(app.window, L.log)
        seen = board_check(app.window, 1)             # (Lorenzo may have emptied a deck of the grid)
        assert {k: v for k, v in seen.items() if k != "cards"} == {k: v for k, v in ALL.items() if k != "cards"}
        walk.press("Leave")
        walk.until_scene("TitleScene")
        walk.press("Continue solo game")
        walk.until_scene("BoardScene")
        first = walk.first("BoardScene", 1)
        assert board_check(first, 1) == seen
        assert region(first, L.token) == pile         # the tokens face up since the shuffle, all of them
        assert region(first, L.log) == log            # the log as it was, not "The game begins."
    finally:
        close(app)



@pytest.mark.seed(1)
@pytest.mark.timeout(180)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_hosted_game_joined_over_loopback_shows_whole_boards_on_their_first_frames(size, tmp_path):
    frames = tmp_path / "frames"
    host = start(size, frames, "host")
    guest = start(size, frames, "guest")
    try:
        port = host_for_two(host, guest, "Bea")
        guest.until_scene("LeaderChoiceScene")
        host.until_scene("LeaderChoiceScene")
        _keep_two_leaders(host)
        _keep_two_leaders(guest)
        all_to_the_board(host, guest)
        assert board_check(host.first("BoardScene"), 2) == ALL
        assert board_check(guest.first("BoardScene"), 2) == ALL
        # the guest leaves and comes back: its seat, and a whole board at once
        guest.press("Leave")
        guest.until_scene("TitleScene")
        guest.join(port, "Bea")
        guest.press("Back to that game")       # (asked first: the server keeps her seat there)
        guest.until_scene("BoardScene")
        assert board_check(guest.first("BoardScene", 1), 2) == ALL
        # the host stops hosting (asked first: Bea is at the table) and hosts again: the same game,
        # a whole board at once
        host.press("Leave")
        host.until_scene("AskScene")
        host.press("Stop hosting")
        host.until_scene("TitleScene")
        host.press("Return to your LAN game")   # (Host a LAN game would ask: continue it or a new table)
        host.until_scene("BoardScene", timeout=15)
        assert board_check(host.first("BoardScene", 1), 2) == ALL
    finally:
        close(guest.app)
        close(host.app)


@pytest.mark.timeout(120)
def test_from_the_scores_the_final_board_of_every_player(tmp_path):
    from support.table import played_out, session_for

    from game.scenes.game_over import GameOverScene
    app = App(headless=True, size=(1024, 640))
    walk = Walk(app, tmp_path / "frames", "end")
    try:
        app.stack.push(GameOverScene(app, session_for(played_out(["Ada", "Bruno", "Cora"], 4), "Ada")))
        walk.frames(2)
        walk.press("See the final board")
        walk.until_scene("BoardScene")
        assert {k: v for k, v in board_check(walk.first("BoardScene"), 3).items() if k != "actions"} == \
            {k: v for k, v in ALL.items() if k != "actions"}
        assert walk.button_at("Produce") is None and walk.button_at("End turn") is None
        assert not [b for b in app.stack.top.ui.get_sprite_group().sprites() if getattr(b, "text", None) in ("Hint", "Undo") and b.visible]
        before = app.window.copy()
        for nick in ("Bruno", "Cora"):                 # each opponent's board, from their chip
            from game.scenes.layout import board_layout
            chips = board_layout(app.size, 3, False).opponents
            walk.click(chips[0 if nick == "Bruno" else 1].center)
            walk.frames(2)
            assert pygame.image.tobytes(app.window, "RGB") != pygame.image.tobytes(before, "RGB")
            walk.click((3, 3))                          # a click closes it
        walk.press("Scores")
        walk.until_scene("GameOverScene")
        walk.press("See the final board")
        walk.until_scene("BoardScene")
        walk.key(pygame.K_ESCAPE)
        assert walk.scene == "GameOverScene"
    finally:
        close(app)


def _my_turn(walk: Walk) -> bool:
    """Whether it is this player's turn, main action still to take (Hint is enabled only on the
    player's turn; End turn only once the main action is done)."""
    walk.frames(1)
    return walk.scene == "BoardScene" and walk.button_at("Hint") is not None and walk.button_at("End turn") is None


def _quiet(walk: Walk) -> None:
    """The pointer away and the glow of the last change gone."""
    walk.move((2, 2))
    walk.frames(90)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_players_come_back_after_the_standalone_server_is_killed_and_restarted(size, tmp_path):
    """A standalone server (``server.py`` in a child process, 127.0.0.1, a temporary data folder);
    Ada and Bea at a 2-player table and Cid alone against Lorenzo, each in a real App, turns played
    with the mouse. The server is killed (-9) and started again on the same data. Bea's client
    stays open and takes its seat back by itself; Ada and Cid come back with new clients through
    Join, by their saved tokens. Each first board frame after the restart: every panel drawn, the
    log from the first move, the track and Lorenzo's pile as they were."""
    from game.scenes.layout import board_layout
    frames = tmp_path / "frames"
    data = tmp_path / "srv"
    server = ServerProcess(data, log_path=tmp_path / "server.log")
    port = server.port
    ada, bea, cid = (start(size, frames, n) for n in ("ada", "bea", "cid"))
    walks = [ada, bea, cid]
    try:
        ada.join(port, "Ada")
        ada.until_scene("LobbyScene")
        ada.press("2 players")
        bea.join(port, "Bea")
        for w in (ada, bea):
            _keep_two_leaders(w)
        all_to_the_board(ada, bea)
        cid.join(port, "Cid")
        cid.until_scene("LobbyScene")
        cid.press("Solo")
        _keep_two_leaders(cid)
        cid.until_scene("BoardScene")
        for turn in range(4):                         # two turns each, with the mouse
            end = time.monotonic() + 15
            while not (_my_turn(ada) or _my_turn(bea)):
                assert time.monotonic() < end, "nobody's turn"
                time.sleep(0.01)
            play_market_turn(ada if _my_turn(ada) else bea, 2, turn + 3)
            if turn % 2:
                play_market_turn(cid, 1, turn)
        for w in walks:
            _quiet(w)
        told = {w.name: list(w.app.stack.top.session.log) for w in walks}
        assert all(len(lines) >= 5 for lines in told.values()), told
        two, one = board_layout(size, 2, False), board_layout(size, 1, True)
        before = {"ada": region(ada.app.window, two.faith), "bea": region(bea.app.window, two.faith),
                  "cid": region(cid.app.window, one.token), "cid-track": region(cid.app.window, one.faith)}
        panels = {w.name: board_check(w.app.window, 1 if w is cid else 2) for w in walks}
        assert panels["ada"] == panels["bea"] == ALL  # (Lorenzo may have emptied a deck of Cid's grid)
        assert {k: v for k, v in panels["cid"].items() if k != "cards"} == \
            {k: v for k, v in ALL.items() if k != "cards"}
        close(ada.app)                               # Ada and Cid close the game while it is down
        close(cid.app)
        server.kill()
        bea.until(lambda: bea.scene != "BoardScene", 15, "the reconnecting page")
        server = ServerProcess(data, port=port, log_path=tmp_path / "server.log")
        bea.until_scene("BoardScene", timeout=30)     # Bea's client took the seat back by itself
        ada, cid = start(size, frames, "ada-back"), start(size, frames, "cid-back")
        for w in (ada, cid):   # the board's own pixels: no notice of why the seat over them (test_walk_flow)
            w.app.tell = lambda words: None
        walks = [ada, bea, cid]
        for w, nick in ((ada, "Ada"), (cid, "Cid")):
            w.join(port, nick)
            w.press("Back to that game")           # (asked first: the server keeps the seat there)
            w.until_scene("BoardScene", timeout=15)
        for w, n, was in ((ada, 2, "ada"), (bea, 2, "bea"), (cid, 1, "cid")):
            first = w.first("BoardScene", 1 if w is bea else 0)
            assert board_check(first, n) == panels[was], w.name
        # the log from the first move: every line told before the restart, in order, then the news
        for w, name in ((ada, "ada"), (cid, "cid")):
            log = [str(x) for x in w.app.stack.top.session.log]
            assert log[:len(told[name])] == [str(x) for x in told[name]], name
            L = two if w is ada else one
            from game.scenes.panels.log import LogPanel
            lines = _inked_rows(w.first("BoardScene"), L.log) / LogPanel(L.log, L.unit).line_h
            assert lines > 2, name                    # lines of writing, not "The game begins." alone
        # the track and Lorenzo's pile as they were (the first frame: nothing glows on a fresh board)
        assert region(ada.first("BoardScene"), two.faith) == before["ada"]
        assert region(cid.first("BoardScene"), one.token) == before["cid"]
        assert region(cid.first("BoardScene"), one.faith) == before["cid-track"]
        _quiet(bea)
        assert region(bea.app.window, two.faith) == before["bea"]
    finally:
        for w in walks:
            close(w.app)
        server.stop()


def _inked_rows(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixel rows of ``rect`` with writing in them (dark ink on the paper): a log of one line
    ("The game begins.") has a handful, a log of many lines many."""
    rect = rect.inflate(-rect.w // 10, -8)
    return sum(any(sum(tuple(surface.get_at((x, y)))[:3]) < 330 for x in range(rect.x, rect.right, 2))
               for y in range(rect.y, rect.bottom))
