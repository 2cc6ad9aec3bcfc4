"""A leader played after an Undo, in the real frame loop: the first frame after shows it in play.

The bug a player met: after any Undo (which answers with the whole game), a leader played was
still drawn "in hand" (greyed, dashed frame), and clicking it offered Play and Discard again.
Here the clicks are posted to pygame's queue and the App's own frame loop takes them.
"""
from __future__ import annotations

import random

import pygame
import pytest

from game.client.session import GameSession
from game.match import LocalMatch
from game.rules.choices import activatable_leaders
from game.rules.components import default_config
from game.rules.engine import Game
from game.rules.playout import steps
from game.scenes.app import App
from game.scenes.art import palette as P
from game.scenes.board import BoardScene
from game.client import board_input as BI

CFG = default_config()


def leader_ready() -> tuple[Game, int]:
    """A solo game at the start of Ada's turn, with a leader she can play and none played yet."""
    game = Game.new(CFG, ["Ada"], 2)
    for nick, action in steps(game, random.Random(2)):
        p = game.player("Ada")
        ready = activatable_leaders(game, p)
        if game.phase == "play" and not game.main_done and ready and not p.active_leaders:
            return game, ready[0].id
        game.apply(nick, action)
    raise AssertionError("the seeded game never lets Ada play a leader")


def click(app: App, pos: tuple[int, int]) -> None:
    """A click posted to pygame's queue, taken by the App's frames as a player's would be."""
    post = pygame.event.post
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.frame(0.016)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.frame(0.016)
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame(0.016)    # (a button posts its own event: the next frame takes it)
    app.frame(0.016)


def play_leader(app: App, scene: BoardScene, lid: int) -> None:
    click(app, next(h.rect.center for h in scene.hits if h.target == BI.Leader(lid)))
    assert scene.leader_menu == lid, "a leader in hand opens its Play and Discard"
    play = scene._leader_buttons[0]
    assert play.text == "Play"
    click(app, play.rect.center)


def in_play_frame(app: App, scene: BoardScene, lid: int) -> bool:
    """Whether the frame on screen draws ``lid`` as a played leader: a gold frame around the card."""
    rect = scene.player_board.leader_rects(scene.me)[lid]
    edge = rect.inflate(6, 6)
    border = [app.window.get_at((edge.x + 1, y))[:3] for y in range(edge.y + edge.h // 3, edge.bottom - edge.h // 3)]
    return sum(c == P.GOLD[:3] for c in border) > len(border) // 2


@pytest.mark.parametrize("size", [(1024, 640), (1600, 900)])
def test_a_leader_played_after_an_undo_is_drawn_in_play_at_once(size):
    game, lid = leader_ready()
    app = App(headless=True, size=size)
    session = GameSession(LocalMatch(CFG, "Ada", game=game), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.push(scene)
    app.frame(0.016)
    assert not in_play_frame(app, scene, lid)
    play_leader(app, scene, lid)
    assert in_play_frame(app, scene, lid)        # played: in play
    click(app, scene.buttons["undo"].rect.center)
    assert lid not in game.player("Ada").active_leaders
    assert not in_play_frame(app, scene, lid)    # taken back: in hand again
    play_leader(app, scene, lid)                 # played again, after the undo
    assert lid in game.player("Ada").active_leaders
    assert in_play_frame(app, scene, lid), "the first frame after shows the leader in hand"
    assert session.vm.leader(lid)["active"] and scene.context().leaders[lid]["active"]
    # a click on it opens nothing: a leader in play has no Play or Discard
    click(app, next(h.rect.center for h in scene.hits if h.target == BI.Leader(lid)))
    assert scene.leader_menu is None


@pytest.mark.parametrize("size", [(1024, 640), (1600, 900), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_played_leader_shows_its_whole_card_with_played_above_it(size):
    """QA: the "Played" banner lay across the top of the card, over the leader's requirements.
    Once played, the card on the board is the card's whole picture; the banner stands above it."""
    from game.scenes.art import leader_cards as C
    game, lid = leader_ready()
    app = App(headless=True, size=size)
    scene = BoardScene(app, GameSession(LocalMatch(CFG, "Ada", game=game), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.016)
    play_leader(app, scene, lid)
    click(app, (3, 3))                             # the pointer away: no hover mark on the card
    app.frame(5.0)
    assert in_play_frame(app, scene, lid)
    rect = scene.player_board.leader_rects(scene.me)[lid]
    art = C.leader_card(scene.context().leaders[lid], scene.context().productions(), rect.h)
    inside = pygame.Rect(0, 0, rect.w, rect.h).inflate(-12, -12)   # (the gold frame's glow at the edge)
    drawn = app.window.subsurface(inside.move(rect.topleft))
    want = pygame.Surface(inside.size)
    want.fill((255, 0, 255))
    want.blit(art, (0, 0), inside)
    shown = pygame.Surface(inside.size)
    shown.fill((255, 0, 255))
    shown.blit(drawn, (0, 0))
    differ = sum(max(abs(a - b) for a, b in zip(shown.get_at((x, y))[:3], want.get_at((x, y))[:3])) > 40
                 for x in range(0, inside.w, 2) for y in range(0, inside.h, 2))
    assert differ < inside.w * inside.h // 4 // 12, f"{differ} points of the card are covered"   # (the banner: 1/6)
    sash = scene.player_board.sash_rect(rect)
    assert sash.bottom < rect.y and scene.layout.board.contains(sash)
