"""QA findings on the board, walked like a player (tools/walk.py), continued: greyed buttons say
why, a plan says what is left to do, part of a shelf moved outside a plan, an opponent's board,
and a bot of a server game named with its level."""
from __future__ import annotations

import pygame
import pygame_gui
import pytest

from walk import Walk, close as _close
from support.board_walk import (changed_box, changed_rects, hover, leader_rects, shelf_boxes, solo_board,
                                solo_with_a_stone_depot, table_board)

from game.scenes.app import App
from game.client import board_input as BI


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]


# ---------------------------------------------------------------------------- greyed buttons say why
def _tip_after_hover(walk: Walk, pointer: list, pos) -> tuple[pygame.Rect | None, str | None]:
    """Hover ``pos`` for a second: the box of what appeared, and the board's words for it."""
    hover(walk, pointer, pos)
    walk.frames(2)
    before = walk.app.window.copy()
    walk.frames(60)
    box = changed_box(before, walk.app.window)
    return box, walk.app.stack.top.greyed_tip()


def _button(walk: Walk, label: str):
    return next(el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UIButton) and el.visible and str(el.text).startswith(label))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_the_first_turn_produce_is_greyed_and_says_why(size, pointer):
    """A new solo game: the player owns nothing, so nothing can be produced."""
    from game.scenes.layout import board_layout
    walk = solo_board(size)
    L = board_layout(size, 1, True)
    try:
        produce = _button(walk, "Produce")
        assert not produce.is_enabled
        box, words = _tip_after_hover(walk, pointer, produce.rect.center)
        assert words is not None and "nothing" in words.lower()
        assert box is not None and box.bottom <= L.actions.top and box.w >= 2 * box.h    # above the bar, wide
        hover(walk, pointer, (3, 3))
        walk.frames(3)
        assert walk.app.stack.top.greyed_tip() is None
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_leaders_greyed_play_says_what_is_missing_and_its_card_stays_small(size, pointer):
    """A fresh solo board (nothing owned): a leader clicked opens Play (greyed) and Discard; the
    pointer still on the card shows no enlarged card over the board; hovering Play says why."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.scenes.layout import board_layout
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 0)
    app = App(headless=True, size=size)
    walk = Walk(app, None, "leader")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    L = board_layout(size, 1, True)
    try:
        for card in leader_rects(size, game):
            hover(walk, pointer, (3, 3))
            walk.frames(2)
            calm = walk.app.window.copy()
            hover(walk, pointer, card.center)
            walk.click(card.center)                          # the pointer stays on the card
            walk.frames(2)
            for r in changed_rects(calm, walk.app.window):  # the card marked, the bar changed: no more
                assert card.inflate(20, 20).contains(r) or L.actions.contains(r), (r, card)
            play = _button(walk, "Play")
            assert not play.is_enabled
            box, words = _tip_after_hover(walk, pointer, play.rect.center)
            assert words is not None and words.startswith("Needs"), words
            assert box is not None and not box.colliderect(play.rect)
            walk.key(pygame.K_ESCAPE)
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_leader_the_engine_refuses_is_said_in_the_players_words(size, monkeypatch, caplog):
    """A leader that asks for 5 of a resource, and 5 on the board; the game moves on behind the
    board's back (a server's answer to a stale view): Play is refused, and the board says what is
    missing and what the player can do, never the engine's "Requirements not met" (in the log)."""
    import logging

    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes import board_base as board_module
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    caplog.set_level(logging.INFO)
    on_board: list[str] = []
    text = board_module.text
    monkeypatch.setattr(board_module, "text", lambda surface, w, *a, **k: (on_board.append(str(w)),
                                                                           text(surface, w, *a, **k))[1])
    game = mid_game(["Ada"], 3, 0)
    lid = next(ld.id for ld in game.config.leaders if ld.kind == "extra_depot" and ld.requires_resources)
    (res, n), = game.config.leaders[lid].requires_resources.items()
    p = game.player("Ada")
    p.hand, p.active_leaders = [lid], []
    for shelf in p.shelves:
        shelf.content = {}
    p.strongbox.content = {res: n}
    app = App(headless=True, size=size)
    walk = Walk(app, None, "leader")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    try:
        p.strongbox.content = {res: n - 2}                     # gone, and the board does not know yet
        walk.click(leader_rects(size, game)[0].center)
        on_board.clear()
        walk.press("Play")
        walk.move((3, 3))
        walk.frames(2)
        assert lid not in p.active_leaders
        said = walk.app.stack.top.session.error
        assert said == (f"You cannot play this leader yet: it needs 2 more {res}s. "
                        "You can keep it for later, or discard it."), said
        assert said in " ".join(on_board), on_board             # on the board (wrapped on two lines)
        assert not any("Requirements" in w or "missing" in w for w in on_board), on_board
        assert "Requirements not met" in caplog.text
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_grid_cards_hover_card_covers_neither_the_grid_nor_the_markets_arrows(size, pointer):
    """The pointer on each card of the grid in turn: its enlarged card is drawn, whole, beside the
    grid: over none of the grid's cards (what may be clicked next), the market's row and column
    arrows, the log or the action bar."""
    walk, _game = table_board(size)
    board = walk.app.stack.top
    try:
        cards = [h for h in board.hits if isinstance(h.target, BI.Card)]
        arrows = [h.rect for h in board.hits if isinstance(h.target, BI.Line)]
        assert len(cards) == 12 and len(arrows) == 7
        L = board.layout
        for hit in cards:
            hover(walk, pointer, hit.rect.center)
            walk.frames(2)
            shown = board.hover_rect
            assert shown is not None and shown.w >= hit.rect.w, (hit.target, shown)   # enlarged
            for keep in [*arrows, L.grid, L.log, L.actions]:
                assert not shown.colliderect(keep), (hit.target, shown, keep)
        hover(walk, pointer, (3, 3))
        walk.frames(2)
        assert board.hover_rect is None
    finally:
        _close(walk.app)


def test_undo_after_a_resume_says_why_it_is_greyed(pointer):
    """A move made, the game left and continued from the title: Undo is greyed, and says that
    nothing can be taken back since the game was resumed."""
    from walk import board_geometry
    walk = solo_board((1024, 640))
    try:
        walk.click(board_geometry((1024, 640), 1)["arrows"][0].center)
        walk.key(pygame.K_RETURN)
        if walk.scene == "AskScene":
            walk.key(pygame.K_RETURN)
        assert walk.button_at("Undo") is not None            # the take can be undone now
        walk.press("Leave")
        walk.until_scene("TitleScene")
        walk.press("Continue solo game")
        walk.until_scene("BoardScene")
        walk.frames(60)
        undo = _button(walk, "Undo")
        assert not undo.is_enabled
        _box, words = _tip_after_hover(walk, pointer, undo.rect.center)
        assert words is not None and "resumed" in words, words
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_production_picker_rings_only_what_can_run(size):
    """Ada owns nothing: Produce is greyed; a click on her base production still opens the
    picker (to see what it would take), and no other production is ringed as if it could run."""
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    walk, game = table_board(size)
    p = game.player("Ada")
    for c in [*p.shelves, *p.depots, p.strongbox]:
        c.content = {}
    walk.app.stack.top.session.match.out.append(__import__("game.rules.views", fromlist=["x"]).player_view(game, "Ada"))
    walk.frames(3)
    walk.app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    L = board_layout(size, 3, False)
    panel = PlayerBoardPanel(L.board, L.unit)
    try:
        assert walk.button_at("Produce") is None
        calm = walk.app.window.copy()
        walk.click(panel.base_production.center)
        walk.move((3, 3))
        walk.frames(2)
        assert walk.button_at("Confirm") is None and walk.button_at("Back") is not None   # the picker is open
        slots_with_cards = [r for r, slot in zip(panel.slots, walk.app.stack.top.me["devSlots"]) if slot]
        assert slots_with_cards
        for r in changed_rects(calm, walk.app.window):
            assert not any(r.colliderect(s) for s in slots_with_cards), (r, slots_with_cards)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the plan says what is left to do
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_market_plan_placed_by_the_suggestion_says_so(size):
    from game.scenes.panels.plan import market_headline
    from walk import board_geometry
    walk, game = table_board(size)
    try:
        walk.click(board_geometry(size, 3)["arrows"][0].center)
        board = walk.app.stack.top
        plan = board.plan
        assert plan is not None and plan.items
        head = market_headline(plan)
        assert "placed as suggested" in head and "glowing shelf" not in head, head
        placed = next(h for h in board.hits if isinstance(h.target, BI.Item) and plan.target[h.target.index] is not None)
        walk.click(placed.rect.center)                             # a resource picked...
        discard = next(h for h in board.hits if h.target == BI.Discard())
        walk.click(discard.rect.center)                            # ... and discarded by hand
        head = market_headline(plan)
        assert "as suggested" not in head, head
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- part of a shelf, outside a plan
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_outside_a_plan_a_drag_moves_what_fits_and_a_click_click_too(size):
    """No plan: one Stone dragged onto the leader's depot moves alone (no swap of whole shelves,
    which the rules refuse: 3 Stone do not fit a depot of 2); then shelf 3 clicked, then the
    depot: one more Stone moves (what fits). An impossible move says why."""
    from game.rules.actions import ReqMoveResources
    walk, game = solo_with_a_stone_depot(size)
    p = game.player("Ada")
    try:
        shelves, depot = shelf_boxes(size, game)
        stone = (shelves[2].x + shelves[2].w // 6, shelves[2].centery)
        walk.move(stone)
        before = len(game.history)
        walk.frames(1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=stone, button=1)])
        for k in range(1, 6):
            walk.move((stone[0] + k * (depot.centerx - stone[0]) // 5, stone[1] + k * (depot.centery - stone[1]) // 5))
        walk.frames(3, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=depot.center, button=1)])
        sent = [a for kind, _n, a in game.history[before:] if kind == "apply"]
        assert [type(a) for a in sent] == [ReqMoveResources] and sent[0].count == 1, sent
        assert p.depots[-1].content == {"Stone": 1} and p.shelves[2].content == {"Stone": 2}
        walk.click(shelves[2].center)
        walk.click(depot.center)
        assert p.depots[-1].content == {"Stone": 2} and p.shelves[2].content == {"Stone": 1}
        walk.click(shelves[1].center)                          # 2 Coin onto a full Stone depot: no
        walk.click(depot.center)
        assert p.shelves[1].content == {"Coin": 2} and p.depots[-1].content == {"Stone": 2}
        assert walk.app.stack.top.session.error                # said in words
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- an opponent's board
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_opponents_board_keeps_its_caption_off_the_faith_track(size):
    """Click an opponent in the top bar: their board opens under its own header; the faith track
    (with every player's favor tiles) is only veiled, nothing is drawn over it."""
    from game.scenes.layout import board_layout
    walk, _game = table_board(size)
    L = board_layout(size, 3, False)
    try:
        calm = walk.app.window.copy()
        walk.click(L.opponents[0].center)
        walk.move((3, 3))
        walk.frames(2)
        assert walk.app.stack.top.viewing == "Bruno"
        veiled = calm.copy()
        veil = pygame.Surface(size, pygame.SRCALPHA)
        veil.fill((20, 12, 6, 150))
        veiled.blit(veil, (0, 0))
        seen = walk.app.window
        track = L.faith.inflate(-4, -4)
        off = [(x, y) for x in range(track.x, track.right, 3) for y in range(track.y, track.bottom, 3)
               if max(abs(a - b) for a, b in zip(seen.get_at((x, y))[:3], veiled.get_at((x, y))[:3])) > 6]
        assert not off, f"drawn over the track at {off[:5]} ... ({len(off)} points)"
        walk.click((3, 3))                                   # a click closes it
        assert walk.app.stack.top.viewing is None
    finally:
        _close(walk.app)


def test_a_bot_of_a_server_game_is_named_with_the_level_the_server_says():
    """Our server tells our clients the bots' levels (UpdateGame.botLevels): the name cards use them."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.rules.views import player_view
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada", "Piero (bot)"], 3, 20)
    match = Table(game, "Ada")
    match.out = [{**player_view(game, "Ada"), "botLevels": {"Piero (bot)": "hard"}}]
    app = App(headless=True, size=(1024, 640))
    walk = Walk(app, None, "levels")
    try:
        app.stack.push(BoardScene(app, GameSession(match, default_config(), "Ada")))
        walk.frames(3)
        assert walk.app.stack.top.session.shown_name("Piero (bot)") == "Piero (hard)"
    finally:
        _close(app)
