"""Undo on the board: the Undo button and Ctrl+Z take back the last move of the turn in the real
frame loop; the view model takes the restored table cleanly; the log says who took what back.
(The session's side of undo: tests/client/test_session_undo.py.)"""
from __future__ import annotations


import pygame
import pytest

from support.table import Table, mid_game

from game.rules import default_config, player_view
from game.rules.engine import Game
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()


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
    session = GameSession(Table(game, "Ada", undo=True), CFG, "Ada")
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
    assert session.log[-1] == "You took back your warehouse move."
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
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.016)
    assert not scene.buttons["undo"].visible
