"""Boards walked like a player (tools/walk.py), for the window's walks of the board: a solo game
begun from the title, a table in the middle of a game, a solo board with a leader's depot; the
pointer resting somewhere, the buttons on screen, where Ada's leaders and shelves are drawn, and
what changed between two frames."""
from __future__ import annotations

import pygame
import pygame_gui

from game.scenes.app import App
from game.scenes.title import TitleScene
from walk import Walk

from .table import Table, mid_game


def hover(walk: Walk, pointer: list, pos) -> None:
    """The pointer (the ``pointer`` fixture's) moves to ``pos``: a frame."""
    pointer[0] = (int(pos[0]), int(pos[1]))
    walk.move(pointer[0])


def solo_board(size) -> Walk:
    """A solo game begun from the title (leaders 1 and 3, Enter), its board past the glow of its first frame."""
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "board")
    app.stack.push(TitleScene(app))
    walk.frames(2)
    walk.press("Play solo")
    walk.until_scene("LeaderChoiceScene")
    for k in (pygame.K_1, pygame.K_3, pygame.K_RETURN):
        walk.key(k)
    walk.until_scene("BoardScene")
    walk.frames(120)                 # past the glow of the first frame
    return walk


def button_rects(walk: Walk) -> dict[str, pygame.Rect]:
    """Every visible button of the top scene, by its words."""
    return {str(el.text): pygame.Rect(el.rect) for el in walk.app.stack.top.ui.get_sprite_group().sprites()
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible}


def changed_box(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pixels that differ between two frames."""
    rects = changed_rects(a, b)
    return rects[0].unionall(rects[1:]) if rects else None


def table_board(size, nicks=("Ada", "Bruno", "Cora"), faith: int | None = None) -> tuple[Walk, object]:
    """A board in the middle of a game (Ada to play, a card in her second slot, two leaders in
    hand), through the real frame loop; ``faith``: Ada one step before the first pope space."""
    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(list(nicks), 3, 40)
    if faith is not None:
        for p in game.players:
            p.faith = faith if p.nickname == "Ada" else 2
    app = App(headless=True, size=size)
    walk = Walk(app, None, "table")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    walk.frames(1)
    app.frame(5.0)                   # past the glow of the first frame
    walk.move((3, 3))
    walk.frames(2)
    return walk, game


def leader_rects(size, game) -> list[pygame.Rect]:
    """Where Ada's leaders are drawn on her board at ``size``."""
    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    L = board_layout(size, len(game.players), len(game.players) == 1)
    return list(PlayerBoardPanel(L.board, L.unit).leader_rects(player_view(game, "Ada")["players"][0]
                                                                 if len(game.players) == 1 else
                                                                 next(p for p in player_view(game, "Ada")["players"]
                                                                      if p["nickname"] == "Ada")).values())


def changed_rects(a: pygame.Surface, b: pygame.Surface) -> list[pygame.Rect]:
    """The boxes of the pixels that differ between two frames."""
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)
    diff = pygame.mask.Mask(a.get_size(), fill=True)
    diff.erase(mask, (0, 0))
    return diff.get_bounding_rects()


def solo_with_a_stone_depot(size) -> tuple[Walk, object]:
    """A solo board: shelves empty, 2 Coin, 3 Stone; a played leader's empty depot for 2 Stone;
    the market's first row all white (taking it stores nothing)."""
    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 6)
    p = game.player("Ada")
    for shelf, content in zip(p.shelves, [{}, {"Coin": 2}, {"Stone": 3}]):
        shelf.content = dict(content)
    lid = next(ld.id for ld in game.config.leaders if ld.kind == "extra_depot" and ld.resource == "Stone")
    if lid in p.hand:
        p.hand.remove(lid)
    p.active_leaders.append(lid)
    depot = game.leader_depot[lid]
    depot.owner, depot.content = p.seat, {}
    p.depots.append(depot)
    cols = game.config.market_columns
    game.market[:cols] = ["Zero"] * cols      # the first row gives nothing: no suggestion to rearrange
    app = App(headless=True, size=size)
    walk = Walk(app, None, "shelves")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    return walk, game


def shelf_boxes(size, game) -> tuple[list[pygame.Rect], pygame.Rect]:
    """The shelves' rects (top to bottom) and the leader depot's, from the board's own geometry."""
    from types import SimpleNamespace

    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    from game.client.view_model import ViewModel
    vm = ViewModel("Ada")
    vm.feed(player_view(game, "Ada"))
    me = vm.me
    L = board_layout(size, 1, True)
    panel, ctx = PlayerBoardPanel(L.board, L.unit), SimpleNamespace(vm=vm)
    shelves = panel.shelf_rects(ctx, me)
    return [shelves[cid] for cid in me["warehouseShelves"]], next(iter(panel.depot_rects(ctx, me).values()))
