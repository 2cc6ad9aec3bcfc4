"""QA findings on the board, walked like a player: the real ``App`` frame loop, posted events, and
the frames it draws (tools/walk.py). The action bar's tooltips, a leader's play and discard and
the Vatican reports, the production picker, part of a shelf moved in a plan, the last move seen
before the scores, the lost connection's card, Lorenzo's pile (more in test_walk_board_says_why.py).
"""
from __future__ import annotations

import pygame
import pytest

from walk import Walk, close as _close
from support.board_walk import (button_rects, changed_box, changed_rects, hover, leader_rects, shelf_boxes,
                                solo_board, solo_with_a_stone_depot, table_board)

from game.scenes.app import App


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hint_tooltip_is_wide_and_covers_no_button_of_the_action_bar(size, pointer):
    walk = solo_board(size)
    try:
        buttons = button_rects(walk)
        for label in ("Hint", "Rules", "Produce…"):
            hover(walk, pointer, buttons[label].center)
            walk.frames(2)
            before = walk.app.window.copy()                 # hovered, no tooltip yet
            walk.frames(60)                                  # a second: the tooltip is up
            after = walk.app.window.copy()
            box = changed_box(before, after)
            assert box is not None, f"no tooltip for {label}"
            assert box.w >= 1.8 * box.h, f"{label}'s tooltip is narrow and tall: {box}"
            for other, rect in buttons.items():
                assert not box.colliderect(rect), f"{label}'s tooltip covers {other}"
            hover(walk, pointer, (3, 3))
            walk.frames(3)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- leaders and reports
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_leaders_play_and_discard_cover_nothing_on_the_board(size):
    from game.scenes.layout import board_layout
    walk, game = table_board(size)
    L = board_layout(size, 3, False)
    try:
        leaders = leader_rects(size, game)
        assert len(leaders) == 2
        for card in leaders:
            calm = walk.app.window.copy()
            walk.click(card.center)
            walk.move((3, 3))                                  # the enlarged card goes with the pointer
            walk.frames(2)
            assert walk.button_at("Discard (+1 Faith)") is not None
            play = next(el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                        if getattr(el, "text", None) == "Play")
            assert play.visible
            box = changed_box(calm, walk.app.window)
            assert box is not None
            changed = [r for r in changed_rects(calm, walk.app.window)]
            for r in changed:          # only the chosen leader (marked) and the action bar change
                assert card.inflate(20, 20).contains(r) or L.actions.contains(r), (r, card, L.actions)
            assert walk.button_at("Produce") is None and walk.button_at("End turn") is None
            walk.key(pygame.K_ESCAPE)
            walk.move((3, 3))
            walk.frames(2)
            assert changed_box(calm, walk.app.window) is None    # all as it was
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_vatican_report_banner_covers_no_other_sections_tile(size):
    from types import SimpleNamespace

    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.faith import FaithPanel
    walk, game = table_board(size, faith=7)
    L = board_layout(size, 3, False)
    try:
        view = SimpleNamespace(g=player_view(game, "Ada"), nickname="Ada")
        track = FaithPanel(L.faith, L.unit)
        others = [r for i, r in enumerate(track.favor_rects(view)) if i != 0]
        others += [r for i, row in enumerate(track.mini_rects(view)) if i != 0 for r in row.values()]
        calm = walk.app.window.copy()
        walk.click(leader_rects(size, game)[0].center)
        walk.press("Discard (+1 Faith)")                       # +1 faith: Ada reaches the pope space
        assert game.player("Ada").faith == 8
        below = False
        for _ in range(8):                                     # the moment plays
            walk.app.frame(0.15)
            walk.move((3, 3))
            for r in changed_rects(calm, walk.app.window):
                for tile in others:
                    assert not r.colliderect(tile), f"the report covers another section's tile: {r} over {tile}"
                below |= r.top > L.faith.bottom and not L.actions.colliderect(r) and not L.log.colliderect(r)
        assert below                                           # the banner, under the track
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the production picker
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_base_production_picker_has_cells_to_click_comfortably(size):
    from game.scenes.layout import board_layout
    from game.scenes.panels.plan import picker_cells
    from game.scenes.panels.player_board import PlayerBoardPanel
    walk, _game = table_board(size)
    L = board_layout(size, 3, False)
    try:
        walk.click(PlayerBoardPanel(L.board, L.unit).base_production.center)   # pay ? ? -> get ?
        groups = picker_cells(L.log, L.unit, 3)
        cells = [c for g in groups for c in g]
        assert all(c.w >= 28 and c.h >= 28 and L.log.contains(c) for c in cells)
        assert not any(a.colliderect(b) for i, a in enumerate(cells) for b in cells[i + 1:])
        walk.move((3, 3))
        walk.frames(2)
        chose_first = walk.app.window.copy()
        first = walk.app.stack.top.plan.output_blanks[0][0]    # what the base production gives at first
        kinds = ("Coin", "Servant", "Shield", "Stone")
        back = groups[2][kinds.index(first)]
        other = groups[2][3] if first != "Stone" else groups[2][0]
        walk.click((other.right - 3, other.bottom - 3))      # near a corner still picks it
        walk.move((3, 3))
        walk.frames(2)
        picked = changed_rects(chose_first, walk.app.window)
        assert picked and all(L.log.contains(r) for r in picked)
        walk.click((back.x + 3, back.y + 3))
        walk.move((3, 3))
        walk.frames(2)
        assert changed_box(chose_first, walk.app.window) is None
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- part of a shelf, in a plan
def _confirm(walk: Walk, game) -> list:
    before = len(game.history)
    walk.key(pygame.K_RETURN)                                  # confirmed: the moves, then the take
    if walk.scene == "AskScene":
        walk.key(pygame.K_RETURN)
    return [a for kind, _n, a in game.history[before:] if kind == "apply"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_a_plan_a_click_moves_what_fits_into_a_leaders_depot(size):
    from game.rules.actions import ReqMoveResources, ReqTakeFromMarket
    from walk import board_geometry
    walk, game = solo_with_a_stone_depot(size)
    try:
        shelves, depot = shelf_boxes(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)    # a market line: the plan
        walk.move((3, 3))
        walk.frames(2)
        planned = walk.app.window.copy()
        walk.click(shelves[2].center)                              # 3 Stone cannot swap with a depot
        walk.click(depot.center)                                   # of 2: two of them move over
        walk.move((3, 3))
        walk.frames(2)
        assert not changed_box(planned, walk.app.window).colliderect(walk.app.window.get_rect().move(0, 10 ** 4))
        assert any(r.colliderect(depot) for r in changed_rects(planned, walk.app.window))   # shown at once
        sent = _confirm(walk, game)
        assert isinstance(sent[0], ReqMoveResources) and (sent[0].res_type, sent[0].count) == ("Stone", 2)
        assert isinstance(sent[-1], ReqTakeFromMarket)
        p = game.player("Ada")
        assert p.depots[-1].content == {"Stone": 2} and p.shelves[2].content.get("Stone", 0) <= 1 + 2
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_a_plan_one_resource_dragged_onto_a_depot_moves_alone(size):
    from game.rules.actions import ReqMoveResources, ReqTakeFromMarket
    from walk import board_geometry
    walk, game = solo_with_a_stone_depot(size)
    try:
        shelves, depot = shelf_boxes(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        stone = (shelves[2].x + shelves[2].w // 6, shelves[2].centery)    # the first Stone
        walk.move(stone)
        walk.frames(1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=stone, button=1)])
        for k in range(1, 6):
            walk.move((stone[0] + k * (depot.centerx - stone[0]) // 5, stone[1] + k * (depot.centery - stone[1]) // 5))
        walk.frames(2, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=depot.center, button=1)])
        sent = _confirm(walk, game)
        assert isinstance(sent[0], ReqMoveResources) and (sent[0].res_type, sent[0].count) == ("Stone", 1)
        assert isinstance(sent[-1], ReqTakeFromMarket)
        assert game.player("Ada").depots[-1].content.get("Stone", 0) >= 1
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the last move is seen
def _solo_near_the_end(size) -> tuple[Walk, object]:
    """A solo board, main action done, Lorenzo's black cross at 22 and his next token a +2 move:
    ending the turn ends the game (the cross reaches 24, the third report)."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 6)
    game.black_cross = 22
    move = next(t.id for t in game.config.solo_tokens if t.kind == "move" and t.spaces == 2)
    game.tokens.remove(move)
    game.tokens.insert(0, move)
    game.main_done = True
    app = App(headless=True, size=size)
    app.settings.confirm_end_turn = False
    walk = Walk(app, None, "end")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    return walk, game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lorenzos_last_move_is_seen_on_the_board_before_the_scores(size):
    from game.scenes.layout import board_layout
    walk, game = _solo_near_the_end(size)
    L = board_layout(size, 1, True)
    try:
        before = walk.app.window.copy()
        walk.press("End turn")
        walk.frames(30)
        assert game.phase == "ended" and game.black_cross == 24
        assert walk.scene == "BoardScene"                       # the board stays, with his move on it
        assert walk.button_at("End turn") is None and walk.button_at("Produce") is None
        scores = walk.button_at("See the scores")
        assert scores is not None and L.actions.collidepoint(scores)
        changed = changed_rects(before, walk.app.window)
        assert any(r.colliderect(L.faith) for r in changed)     # the black cross moved on the track
        assert any(r.colliderect(L.top_bar) for r in changed)   # his token, face up
        walk.key(pygame.K_RETURN)                               # an Enter at once does not skip it
        assert walk.scene == "BoardScene"
        walk.press("See the scores")
        walk.until_scene("GameOverScene")
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- connection lost
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_connection_lost_card_is_opaque_over_a_blurred_board(size):
    """Over two different boards, the card reads the same, pixel for pixel: nothing of the board
    ghosts through it; around it the board is blurred (no sharp edge of it is left)."""
    cards = []
    for nicks in (("Ada", "Bruno", "Cora"), ("Ada",)):
        walk, game = table_board(size, nicks)
        try:
            plain = walk.app.window.copy()
            walk.app.stack.top.session.match.out.append({"type": "ConnectionLost"})
            walk.frames(3)
            assert walk.scene == "ConnectionOverlay"
            walk.move((3, 3))
            walk.frames(2)
            card = walk.app.stack.top.card
            cards.append(walk.app.window.subsurface(card.inflate(-40, -40)).copy())
            strip = pygame.Rect(0, card.bottom + 10, size[0], size[1] - card.bottom - 20)   # the board under it
            sharp = sum(abs(plain.get_at((x, y))[0] - plain.get_at((x + 1, y))[0]) > 40
                        for x in range(strip.x, strip.right - 1, 2) for y in range(strip.y, strip.bottom, 4))
            blurred = sum(abs(walk.app.window.get_at((x, y))[0] - walk.app.window.get_at((x + 1, y))[0]) > 40
                          for x in range(strip.x, strip.right - 1, 2) for y in range(strip.y, strip.bottom, 4))
            assert blurred < sharp / 5, (sharp, blurred)
        finally:
            _close(walk.app)
    assert changed_box(*cards) is None


# ---------------------------------------------------------------------------- Lorenzo's pile
def _solo_with_tokens_face_up(size) -> tuple[Walk, object]:
    """A solo board where Lorenzo has turned up a -2 Purple, a +2 and a -2 Green since the shuffle
    (his last one the -2 Green)."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 6)
    toks = game.config.solo_tokens
    up = [next(t.id for t in toks if t.kind == "discard" and t.color == "Purple"),
          next(t.id for t in toks if t.kind == "move"),
          next(t.id for t in toks if t.kind == "discard" and t.color == "Green")]
    game.tokens = [t for t in game.tokens if t not in up] + up
    game.revealed = list(up)
    game.last_token = up[-1]
    app = App(headless=True, size=size)
    walk = Walk(app, None, "pile")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    return walk, game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lorenzos_face_up_tokens_are_readable_and_say_what_they_are_on_hover(size):
    from game.scenes.layout import board_layout
    walk, game = _solo_with_tokens_face_up(size)
    L = board_layout(size, 1, True)
    board = walk.app.stack.top
    try:
        ctx = board.context()
        chips = board.top_bar.revealed_rects(ctx)
        assert [tid for tid, _r in chips] == game.revealed
        for _tid, r in chips:
            assert r.h >= 18 and r.w >= 2 * r.h and L.top_bar.contains(r), r     # a chip with words
        assert not any(a.colliderect(b) for i, (_t, a) in enumerate(chips) for _u, b in chips[i + 1:])
        big = board.top_bar.token_rect()
        for where in [r.center for _t, r in chips] + [big.center]:
            calm = walk.app.window.copy()
            walk.move(where)
            walk.frames(2)
            box = changed_box(calm, walk.app.window)
            assert box is not None, f"nothing shown on hovering {where}"
            assert not box.colliderect(L.faith) and not box.colliderect(L.market), box   # the track stays in view
            walk.move((3, 3))
            walk.frames(2)
        words = board.top_bar.pile_words(board.context())
        assert "2 Purple" in words and "2 Green" in words and "black cross" in words
    finally:
        _close(walk.app)
