"""Undo on the board: the Undo button and Ctrl+Z take back the last move of the turn in the real
frame loop; the view model takes the restored table cleanly; the log says who took what back;
the session's idea of when Undo may be offered follows the engine's rule exactly."""
from __future__ import annotations

import random

import pygame
import pytest

from screenshots import TableMatch, mid_game

from game.match import LocalMatch, local_undo
from game.netcode.protocol import visible_to
from game.rules import default_config, player_view
from game.rules.actions import ReqSwapShelves
from game.rules.engine import Game
from game.rules.playout import choose
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))


class UndoTable(TableMatch):
    """An in-process table that knows undo, as a local game does."""

    supports_undo = True

    def undo(self) -> None:
        self.out += local_undo(self.game, self.nickname)


def click(app: App, pos: tuple[int, int]) -> None:
    ev = pygame.event.Event
    app.frame(0.016, [ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                      ev(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])
    app.frame(0.016, [ev(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    app.frame(0.016)
    app.frame(0.016)


def ctrl_z(app: App) -> None:
    app.frame(0.016, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL,
                                         unicode="\x1a", scancode=29)])
    app.frame(0.016)


def hit(scene: BoardScene, target) -> tuple[int, int]:
    return next(h.rect.center for h in scene.hits if h.target == target)


def swappable(game: Game) -> tuple[int, int]:
    shelves = game.player("Ada").shelves
    for a in shelves:
        for b in shelves:
            if a is not b and a.total() and a.total() <= b.capacity and b.total() <= a.capacity:
                return a.id, b.id
    return -1, -1


def _swap_game() -> tuple[Game, int, int]:
    for seed in range(1, 60):
        game = mid_game(["Ada", "Bruno"], seed, 30)
        a, b = swappable(game)
        if a >= 0:
            return game, a, b
    raise AssertionError("no seed gives two shelves that can be swapped")


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_undo_button_and_ctrl_z_take_back_moves_on_the_board(size):
    app = App(headless=True, size=size)
    game, a, b = _swap_game()
    before = player_view(game, "Ada")
    session = GameSession(UndoTable(game, "Ada"), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.016)
    undo = scene.buttons["undo"]
    assert undo.visible and not undo.is_enabled            # nothing to take back yet
    click(app, hit(scene, BI.Shelf(a)))
    click(app, hit(scene, BI.Shelf(b)))                    # a swap is sent and accepted
    assert session.vm.game != before and session.can_undo
    assert undo.is_enabled
    click(app, undo.rect.center)
    assert session.vm.game == before == player_view(game, "Ada")
    assert session.log[-1] == "Ada took back their warehouse move."
    assert not undo.is_enabled and session.error is None
    # Ctrl+Z does the same; with a plan open it only drops the plan
    click(app, hit(scene, BI.Shelf(a)))
    click(app, hit(scene, BI.Shelf(b)))
    click(app, hit(scene, BI.Line(True, 0)))
    assert scene.plan is not None
    ctrl_z(app)
    assert scene.plan is None and session.vm.game != before
    ctrl_z(app)
    assert session.vm.game == before == player_view(game, "Ada")


def test_a_game_that_does_not_know_undo_shows_no_button():
    app = App(headless=True, size=(1280, 800))
    game, _, _ = _swap_game()
    scene = BoardScene(app, GameSession(TableMatch(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.016)
    assert not scene.buttons["undo"].visible


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_session_offers_undo_exactly_when_the_engine_allows_it(players):
    """Random play with random undos: after every message, the session's ``can_undo`` equals the
    engine's, and its view model equals the player's view."""
    nicks = ["Ada", "Bruno", "Cora", "Dario"][:players]
    game = Game.new(CFG, nicks, seed=7)
    sessions = {n: GameSession(UndoTable(game, n), CFG, n) for n in nicks}
    rng = random.Random(7)
    undos = 0

    def deliver(events):
        for n, s in sessions.items():
            s.match.out += [{k: v for k, v in e.items() if k != "player"} if e["type"] == "UpdateGame" else e
                            for e in events if visible_to(e, n)]
            s.pump()

    for _ in range(3000):
        if game.ended:
            break
        who = (game.current_player.nickname if game.phase == "play" else
               next(p.nickname for p in game.players if not (p.chose_leaders and p.chose_resources)))
        if game.can_undo(who) and rng.random() < 0.3:
            deliver(game.undo(who))
            undos += 1
        else:
            deliver(game.apply(who, choose(game, who, rng)))
        for n, s in sessions.items():
            assert s.can_undo == game.can_undo(n), (n, game.history[-3:])
            assert s.vm.game == player_view(game, n)
    assert game.ended and undos >= 2


def test_a_local_solo_game_takes_back_and_saves_the_undo(tmp_path):
    save = tmp_path / "solo.json"
    match = LocalMatch(CFG, "Ada", seed=5, save_path=save)
    game = match.game
    for nick, action in _setup_and_a_move(game):
        match.send(action)
    before_undo = game.snapshot()
    match.undo()
    out = match.poll()
    assert [m["type"] for m in out][-2:] == ["UpdateUndo", "UpdateGame"]
    assert "player" not in out[-1]
    resumed = LocalMatch.resume(CFG, save)
    assert resumed.game.snapshot() == game.snapshot() != before_undo
    match.undo()
    assert match.poll()[-1]["type"] == "ErrUndo"


def _setup_and_a_move(game: Game):
    rng = random.Random(1)
    out = []
    trial = Game.new(CFG, list(game.nicknames), game.seed)
    while trial.phase == "setup":
        a = choose(trial, "Ada", rng)
        trial.apply("Ada", a)
        out.append(("Ada", a))
    p = trial.player("Ada")
    a = ReqSwapShelves(p.shelves[0].id, p.shelves[1].id)
    out.append(("Ada", a))
    return out


def test_undo_in_a_game_against_the_computer(tmp_path):
    import time
    from game.match import BotMatch
    from game.rules.actions import ReqEndTurn
    from game.rules.choices import market_lines, take_market_request
    match = BotMatch(CFG, "Ada", ["easy"], seed=4, save_path=tmp_path / "bots.json", pace=0)
    game = match.game
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    taken = False
    while time.monotonic() < deadline and not taken:
        match.poll()
        me = game.player("Ada")
        if game.phase == "setup" and not (me.chose_leaders and me.chose_resources):
            match.send(choose(game, "Ada", rng))
        elif game.phase == "play" and game.current_player is me and not game.main_done:
            before = player_view(game, "Ada")
            match.send(take_market_request(game, me, market_lines(game, me)[0]))
            if game.can_undo("Ada"):
                match.undo()
                out = match.poll()
                assert [m["type"] for m in out[-2:]] == ["UpdateUndo", "UpdateGame"] and out[-1] == before
                assert player_view(game, "Ada") == before
                taken = True
            else:   # the discards moved the bot's faith: final
                match.send(ReqEndTurn())
        time.sleep(0.001)
    match.close()
    assert taken
