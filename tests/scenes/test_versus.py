"""Playing against the computer on this machine: the title page's entry, a whole game against
three bots through the real frame loop, the save and its resumption, the pace of the bots' moves."""
from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import orjson
import pygame
import pytest

from game.match import BotMatch
from game.rules import default_config
from game.rules.actions import ReqChooseLeaders
from game.scenes.app import App
from game.settings import BOT_PACES
from game.client import board_input as BI
from support.wait import frames_until
from walk import click, click_at, frames

CFG = default_config()
pytestmark = [pytest.mark.timeout(240), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


@pytest.fixture
def app():
    a = App(headless=True, size=(1280, 800))
    yield a
    while a.stack.top is not None:
        a.stack.pop()


def first_frame_ok(app: App) -> None:
    w, h = app.window.get_size()
    colours = {tuple(app.window.get_at((x * w // 23, y * h // 17)))[:3] for x in range(23) for y in range(17)}
    assert len(colours) > 40


def setup_with_the_mouse(app: App) -> None:
    """Keep two leaders and (if the seat has any) take the starting resources, by clicks."""
    from game.scenes.leaders import LeaderChoiceScene
    from game.scenes.resources import ResourceChoiceScene
    frames_until(app, lambda: isinstance(app.stack.top, LeaderChoiceScene))
    leaders = app.stack.top
    click_at(app, leaders.card_rects[0].center)
    click_at(app, leaders.card_rects[2].center)
    click(app, "confirm")
    frames_until(app, lambda: app.stack.top is not leaders)   # a remote game answers later
    if isinstance(app.stack.top, ResourceChoiceScene):
        res = app.stack.top
        kind = next(iter(res.token_rects))
        for _ in range(res.count):
            click_at(app, res.token_rects[kind].center)
        click(app, f"shelf_{kind}_{res.valid_shelves(kind)[-1]}")
        click(app, "confirm")
        frames_until(app, lambda: not isinstance(app.stack.top, ResourceChoiceScene))


def play_to_the_end(app: App, session, between=lambda: None) -> int:
    """Play the player's turns on the board with the mouse (a market line, then end the turn)
    until the game-over scene; ``between()`` runs at every frame of waiting. Returns the turns."""
    from game.scenes.board import BoardScene
    from game.scenes.game_over import GameOverScene

    def waiting() -> bool:
        between()
        board = app.stack.top
        if isinstance(board, BoardScene) and board.over_for is not None:   # the end, seen on the board
            click_at(app, board.buttons["scores"].rect.center)
        return session.vm.my_turn or isinstance(app.stack.top, GameOverScene)

    frames_until(app, lambda: between() or isinstance(app.stack.top, BoardScene), timeout=60)
    board = app.stack.top
    first_frame_ok(app)
    turns = 0
    while not isinstance(app.stack.top, GameOverScene):
        frames_until(app, waiting, timeout=60)
        if isinstance(app.stack.top, GameOverScene):
            break
        line = next(h.rect.center for h in board.hits if h.target == BI.Line(turns % 2 == 0, turns % 3))
        click_at(app, line)
        click_at(app, board.buttons["confirm"].rect.center)
        if board.confirm_dialog is not None:
            click_at(app, board.confirm_dialog.confirm_button.rect.center)
        frames_until(app, lambda: between() or session.error or session.vm.game["isMandatoryActionDone"]
                     or not isinstance(app.stack.top, BoardScene))   # a remote game answers later
        if not isinstance(app.stack.top, BoardScene) or board.over_for is not None:
            continue
        assert session.vm.game["isMandatoryActionDone"], session.error
        click_at(app, board.buttons["end"].rect.center)
        frames_until(app, lambda: between() or not session.vm.game["isMandatoryActionDone"]   # the turn passed
                     or not isinstance(app.stack.top, BoardScene) or board.over_for is not None)
        turns += 1
        assert turns < 120
    return turns


def open_versus(app: App):
    from game.scenes.title import TitleScene
    from game.scenes.versus import VersusScene
    app.stack.push(TitleScene(app))
    frames(app, 2)
    click(app, "versus")
    scene = app.stack.top
    assert isinstance(scene, VersusScene)
    first_frame_ok(app)
    return scene


def test_a_game_against_three_bots_from_the_title_to_the_end_with_the_mouse(app, monkeypatch):
    from game.scenes.game_over import GameOverScene
    from game.scenes.leaders import LeaderChoiceScene
    monkeypatch.setitem(BOT_PACES, "normal", 0.0)
    app.settings.confirm_end_turn = False
    scene = open_versus(app)
    click(app, "count_3")
    for i in range(3):
        click(app, f"level_{i}_easy")
    assert scene.levels == ["easy", "easy", "easy"]
    click(app, "start")
    assert isinstance(app.stack.top, LeaderChoiceScene)
    session = app.stack.top.session
    match = session.match
    assert isinstance(match, BotMatch) and sorted(match.bots.values()) == ["easy"] * 3
    setup_with_the_mouse(app)
    turns = play_to_the_end(app, session)
    assert isinstance(app.stack.top, GameOverScene)
    first_frame_ok(app)
    assert session.vm.game["ended"] and match.game.ended
    assert turns > 3
    # the bots' moves were told in the log like anyone's, one line each
    for bot, level in match.bots.items():        # by the one name of a bot: "Cosimo (easy)"
        named = f"{bot.removesuffix(' (bot)')} ({level})"
        assert any(named in line for line in session.log), named
    assert not (app.data_dir / "bots-game.json").exists()   # a finished game is not offered again


def test_the_game_is_saved_after_every_move_and_continued_from_the_title(app, monkeypatch):
    from game.scenes.leaders import LeaderChoiceScene
    monkeypatch.setitem(BOT_PACES, "normal", 0.0)
    open_versus(app)
    click(app, "count_2")
    click(app, "level_1_hard")
    click(app, "start")
    session = app.stack.top.session
    match = session.match
    assert sorted(match.bots.values()) == ["hard", "medium"]
    path = app.data_dir / "bots-game.json"
    saved = orjson.loads(path.read_bytes())
    assert saved["bots"] == match.bots and saved["player"] == match.nickname
    session.send(ReqChooseLeaders(tuple(session.vm.me["leadersHand"][:2])))
    frames(app, 2)
    assert len(orjson.loads(path.read_bytes())["game"]["history"]) >= 1
    # leave for the title; the title offers the saved game through "Play against the computer"
    from game.scenes.router import leave_game
    leave_game(app, session)
    history = orjson.loads(path.read_bytes())["game"]["history"]
    scene = open_versus(app)
    assert scene.saved and "continue" in scene.widgets
    click(app, "continue")
    again = app.stack.top.session.match
    assert isinstance(again, BotMatch) and again.bots == match.bots
    assert [list(h[:2]) for h in again.game.history] == [h[:2] for h in history]
    # past the leaders kept before leaving (the bots' own choices may still be under way)
    assert not isinstance(app.stack.top, LeaderChoiceScene) and app.stack.top.session.stage() != "leaders"
    again.close()


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_the_bots_think_in_a_worker_process_that_ends_when_the_game_is_left_or_the_window_closed(app, monkeypatch):
    from game.scenes.router import leave_game
    monkeypatch.setitem(BOT_PACES, "normal", 0.0)
    open_versus(app)
    click(app, "count_3")
    for i in range(3):
        click(app, f"level_{i}_hard")
    click(app, "start")
    session = app.stack.top.session
    match = session.match
    frames_until(app, lambda: len(match.decided_in) > 0, timeout=60)   # the bots' setup choices
    assert match.bot_mode == "processes" and match.why_threads is None
    (worker,) = match.decided_in
    assert worker != os.getpid() and match.worker_pids() == [worker] and alive(worker)
    leave_game(app, session)
    assert not alive(worker) and match.worker_pids() == []
    # continued from the title, then the window is closed: its worker ends with it
    open_versus(app)
    click(app, "continue")
    again = app.stack.top.session.match
    frames_until(app, lambda: again.worker_pids(), timeout=30)        # started with the game
    (worker,) = again.worker_pids()
    assert worker != os.getpid() and alive(worker)
    monkeypatch.setattr(pygame, "quit", lambda: None)   # (the other tests' fonts stay usable)
    app.shutdown()                                       # what closing the window ends with
    assert not alive(worker)
    assert [p for p in multiprocessing.active_children() if p.pid == worker] == []


def test_a_saved_game_is_never_replaced_without_asking_and_a_broken_one_is_reported(app):
    path = app.data_dir / "bots-game.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"format": "mor-bots/1", "player": "Ada", "bots": {"X (bot)": "easy"}, "game": {}}')
    scene = open_versus(app)
    click(app, "continue")
    assert app.stack.top is scene and "could not be opened" in scene.message
    assert path.read_bytes().startswith(b'{"format": "mor-bots/1"')      # left as it was
    click(app, "start")
    ask = app.stack.top                                                 # asks first
    assert type(ask).__name__ == "AskScene" and [a[0] for a in ask.answers] == ["continue", "new", "cancel"]
    click(app, "cancel")
    assert app.stack.top is scene
    assert path.read_bytes().startswith(b'{"format": "mor-bots/1", "player": "Ada"')
    path.write_bytes(b"not json at all")
    app.stack.pop()
    scene = open_versus(app)
    assert scene.problem and "continue" not in scene.widgets
    click(app, "start")
    ask = app.stack.top                                                 # cannot be read: no Continue
    assert type(ask).__name__ == "AskScene" and [a[0] for a in ask.answers] == ["new", "cancel"]
    click(app, "new")
    frames_until(app, lambda: app.stack.top is not scene)
    assert app.stack.top is not scene
    assert orjson.loads(path.read_bytes())["format"] == "mor-bots/1"
    app.stack.top.session.match.close()


def test_the_pace_is_a_setting(app):
    from game.scenes.settings_page import SettingsScene
    app.stack.push(SettingsScene(app))
    frames(app, 2)
    assert app.stack.top.widgets["bot_pace"].text == "Normal"
    click(app, "bot_pace")
    assert app.stack.top.widgets["bot_pace"].text == "Slow"
    click(app, "save")
    assert app.settings.bot_pace == "slow"
    from game.settings import Settings
    assert Settings.load().bot_pace == "slow"


def test_a_hosted_lan_game_with_a_remote_client_and_a_bot_the_host_seated(app, monkeypatch):
    """The host opens a game of 3, seats an easy bot in the waiting room, a friend joins over
    loopback: the game starts with the three of them and is played to the end."""
    import random

    from walk import free_port

    from game.match import RemoteMatch
    from game.rules.playout import choose
    from game.scenes.game_over import GameOverScene
    from game.scenes.lobby import LobbyScene
    from game.scenes.title import TitleScene
    monkeypatch.setitem(BOT_PACES, "normal", 0.0)
    app.settings.confirm_end_turn = False
    app.settings.server_port = free_port()    # (below the ephemeral range: a port 0 of another test never lands there)
    app.stack.push(TitleScene(app))
    frames(app, 2)
    click(app, "host")
    frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top.choosing)
    lobby = app.stack.top
    session = lobby.session
    click(app, "players_3")
    frames_until(app, lambda: lobby.seating and "bot_1_easy" in lobby.widgets)
    first_frame_ok(app)
    # the levels under the next free seat only (QA: a bot asked for under seat 4 sat in seat 2)
    assert {"bot_1_medium", "bot_1_hard"} <= set(lobby.widgets) and not any(n.startswith("bot_2_") for n in lobby.widgets)
    click(app, "bot_1_medium")
    frames_until(app, lambda: session.lobby.bots == ["medium"] and "unbot_0" in lobby.widgets)
    click(app, "unbot_0")                                  # changed their mind: an easy one instead
    frames_until(app, lambda: session.lobby.bots == [] and "bot_1_easy" in lobby.widgets)
    click(app, "bot_1_easy")
    frames_until(app, lambda: session.lobby.bots == ["easy"] and "bot_2_easy" in lobby.widgets)
    assert "unbot_0" in lobby.widgets and not any(n.startswith("bot_1_") for n in lobby.widgets)
    assert app.server.pending_count == 3 and app.server.pending_bots == ("easy",)
    (app.data_dir / "bea").mkdir()       # Bea's own computer: her own player key (one key, one seat)
    friend = RemoteMatch("127.0.0.1", app.server.address[1], "Bea", token_file=app.data_dir / "bea" / "bea.json")
    rng = random.Random(3)

    def bea_plays() -> None:
        friend.poll()
        room = app.server.room_of("Bea")
        if room is None:
            return
        with room.lock:
            g = room.game
            p = g.player("Bea")
            mine = (g.phase == "setup" and not (p.chose_leaders and p.chose_resources)) or (
                g.phase == "play" and g.current_player is p)
            action = choose(g, "Bea", rng) if mine and not g.ended else None
            version = g.version
        sent = getattr(friend, "_sent_at", None)   # (version, when): once per state, again after a while
        if action is not None and (sent is None or sent[0] != version or time.monotonic() - sent[1] > 1.0):
            friend._sent_at = (version, time.monotonic())
            friend.send(action)

    try:
        frames_until(app, lambda: bea_plays() or app.server.room_of("Bea") is not None)
        room = app.server.room_of("Bea")
        assert set(room.humans) == {session.nickname, "Bea"} and list(room.bots.values()) == ["easy"]
        assert room.bot_pace == BOT_PACES["normal"] == 0.0     # the host's pace setting (botPace)
        setup_with_the_mouse(app)
        play_to_the_end(app, session, between=bea_plays)
        assert isinstance(app.stack.top, GameOverScene) and room.game.ended
        bot, level = next(iter(room.bots.items()))
        assert sum(1 for h in room.game.history if h[0] == "apply" and h[1] == bot) > 10
        assert any(f"{bot.removesuffix(' (bot)')} ({level})" in line for line in session.log)
        pool = app.server.bots.pool           # the hosted server's bots think in a worker process
        assert pool.mode == "processes" and pool.worker_pids() and os.getpid() not in pool.worker_pids()
        workers = pool.worker_pids()
        app.server.stop()
        app.server = None
        assert not any(alive(pid) for pid in workers)
    finally:
        friend.close()
        if app.server is not None:
            app.server.stop()
            app.server = None


@pytest.mark.logs_errors("the engine refused", "cannot find a move")
def test_a_bot_that_cannot_go_on_says_so_in_the_log_and_leaves_the_table(app, monkeypatch):
    """Every request of the bots refused, the easy bot's too: the player reads why in the log,
    sees them leave, and plays on (the game does not hang)."""
    from game.bots import driver
    from game.rules.actions import ReqEndTurn
    from game.scenes.board import BoardScene
    from game.scenes.router import scene_for
    from game.client.session import GameSession
    monkeypatch.setattr(driver, "think", lambda job, config, level=None: driver.Answer(
        job, ReqEndTurn(), "broken on purpose", level or job.level, 0.0))
    match = BotMatch(CFG, "Ada", ["medium", "hard"], seed=3, save_path=app.data_dir / "bots-game.json",
                     pace=0.0, processes=False)
    session = GameSession(match, CFG, "Ada")
    session.pump()
    match.on_message = app.wake
    app.stack.reset(scene_for(app, session))
    frames_until(app, lambda: len(match.retired) == 2, timeout=30)
    frames(app, 3)
    text = [str(line) for line in session.log]
    for bot, level in match.bots.items():
        named = f"{bot.removesuffix(' (bot)')} ({level})"
        assert any(named in t and "leave the table" in t for t in text), text
        assert any(named in t and "left the table" in t for t in text), text
    setup_with_the_mouse(app)                                   # the player plays on
    frames_until(app, lambda: isinstance(app.stack.top, BoardScene) and session.vm.my_turn)
    first_frame_ok(app)
    saved = orjson.loads((app.data_dir / "bots-game.json").read_bytes())
    assert {tuple(h[1:]) for h in saved["game"]["history"] if h[0] == "active"} == {(b, False) for b in match.bots}
    match.close()
