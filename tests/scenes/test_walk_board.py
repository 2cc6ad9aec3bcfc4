"""QA findings on the board, walked like a player: the real ``App`` frame loop, posted events, and
the frames it draws (tools/walk.py).

Tooltips of the action bar are wide and never cover its buttons.
"""
from __future__ import annotations


import pygame
import pygame_gui
import pytest

from walk import Walk, close as _close

from game.scenes.app import App
from game.scenes.title import TitleScene
from game.client import board_input as BI


pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)
SIZES = [(1024, 640), (1920, 1080)]


@pytest.fixture
def pointer(monkeypatch):
    """Where the system pointer is (pygame_gui reads it for hovering; a headless display has none):
    set by :func:`hover`."""
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    return at


def hover(walk: Walk, pointer: list, pos) -> None:
    pointer[0] = (int(pos[0]), int(pos[1]))
    walk.move(pointer[0])


def _solo_board(size) -> Walk:
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


def _rects(walk: Walk) -> dict[str, pygame.Rect]:
    return {str(el.text): pygame.Rect(el.rect) for el in walk.app.stack.top.ui.get_sprite_group().sprites()
            if isinstance(el, __import__("pygame_gui").elements.UIButton) and el.visible}


def _changed_box(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pixels that differ between two frames."""
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)   # pixels equal in a and b...
    diff = pygame.mask.Mask(a.get_size(), fill=True)
    diff.erase(mask, (0, 0))                                               # ... taken away
    rects = diff.get_bounding_rects()
    if not rects:
        return None
    return rects[0].unionall(rects[1:])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hint_tooltip_is_wide_and_covers_no_button_of_the_action_bar(size, pointer):
    walk = _solo_board(size)
    try:
        buttons = _rects(walk)
        for label in ("Hint", "Rules", "Produce…"):
            hover(walk, pointer, buttons[label].center)
            walk.frames(2)
            before = walk.app.window.copy()                 # hovered, no tooltip yet
            walk.frames(60)                                  # a second: the tooltip is up
            after = walk.app.window.copy()
            box = _changed_box(before, after)
            assert box is not None, f"no tooltip for {label}"
            assert box.w >= 1.8 * box.h, f"{label}'s tooltip is narrow and tall: {box}"
            for other, rect in buttons.items():
                assert not box.colliderect(rect), f"{label}'s tooltip covers {other}"
            hover(walk, pointer, (3, 3))
            walk.frames(3)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- leaders and reports
def _table(size, nicks=("Ada", "Bruno", "Cora"), faith: int | None = None) -> tuple[Walk, object]:
    """A board in the middle of a game (Ada to play, a card in her second slot, two leaders in
    hand), through the real frame loop; ``faith``: Ada one step before the first pope space."""
    from support.table import Table, mid_game

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


def _leader_rects(size, game) -> list[pygame.Rect]:
    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    L = board_layout(size, len(game.players), len(game.players) == 1)
    return list(PlayerBoardPanel(L.board, L.unit).leader_rects(player_view(game, "Ada")["players"][0]
                                                                 if len(game.players) == 1 else
                                                                 next(p for p in player_view(game, "Ada")["players"]
                                                                      if p["nickname"] == "Ada")).values())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_leaders_play_and_discard_cover_nothing_on_the_board(size):
    from game.scenes.layout import board_layout
    walk, game = _table(size)
    L = board_layout(size, 3, False)
    try:
        leaders = _leader_rects(size, game)
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
            box = _changed_box(calm, walk.app.window)
            assert box is not None
            changed = [r for r in _changed_rects(calm, walk.app.window)]
            for r in changed:          # only the chosen leader (marked) and the action bar change
                assert card.inflate(20, 20).contains(r) or L.actions.contains(r), (r, card, L.actions)
            assert walk.button_at("Produce") is None and walk.button_at("End turn") is None
            walk.key(pygame.K_ESCAPE)
            walk.move((3, 3))
            walk.frames(2)
            assert _changed_box(calm, walk.app.window) is None    # all as it was
    finally:
        _close(walk.app)


def _changed_rects(a: pygame.Surface, b: pygame.Surface) -> list[pygame.Rect]:
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)
    diff = pygame.mask.Mask(a.get_size(), fill=True)
    diff.erase(mask, (0, 0))
    return diff.get_bounding_rects()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_vatican_report_banner_covers_no_other_sections_tile(size):
    from types import SimpleNamespace

    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.faith import FaithPanel
    walk, game = _table(size, faith=7)
    L = board_layout(size, 3, False)
    try:
        view = SimpleNamespace(g=player_view(game, "Ada"), nickname="Ada")
        track = FaithPanel(L.faith, L.unit)
        others = [r for i, r in enumerate(track.favor_rects(view)) if i != 0]
        others += [r for i, row in enumerate(track.mini_rects(view)) if i != 0 for r in row.values()]
        calm = walk.app.window.copy()
        walk.click(_leader_rects(size, game)[0].center)
        walk.press("Discard (+1 Faith)")                       # +1 faith: Ada reaches the pope space
        assert game.player("Ada").faith == 8
        below = False
        for _ in range(8):                                     # the moment plays
            walk.app.frame(0.15)
            walk.move((3, 3))
            for r in _changed_rects(calm, walk.app.window):
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
    walk, _game = _table(size)
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
        picked = _changed_rects(chose_first, walk.app.window)
        assert picked and all(L.log.contains(r) for r in picked)
        walk.click((back.x + 3, back.y + 3))
        walk.move((3, 3))
        walk.frames(2)
        assert _changed_box(chose_first, walk.app.window) is None
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- part of a shelf, in a plan
def _solo_with_a_stone_depot(size) -> tuple[Walk, object]:
    """A solo board: shelves empty, 2 Coin, 3 Stone; a played leader's empty depot for 2 Stone;
    the market's first row all white (taking it stores nothing)."""
    from support.table import Table, mid_game

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


def _boxes(size, game) -> tuple[list[pygame.Rect], pygame.Rect]:
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
    walk, game = _solo_with_a_stone_depot(size)
    try:
        shelves, depot = _boxes(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)    # a market line: the plan
        walk.move((3, 3))
        walk.frames(2)
        planned = walk.app.window.copy()
        walk.click(shelves[2].center)                              # 3 Stone cannot swap with a depot
        walk.click(depot.center)                                   # of 2: two of them move over
        walk.move((3, 3))
        walk.frames(2)
        assert not _changed_box(planned, walk.app.window).colliderect(walk.app.window.get_rect().move(0, 10 ** 4))
        assert any(r.colliderect(depot) for r in _changed_rects(planned, walk.app.window))   # shown at once
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
    walk, game = _solo_with_a_stone_depot(size)
    try:
        shelves, depot = _boxes(size, game)
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
        changed = _changed_rects(before, walk.app.window)
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
        walk, game = _table(size, nicks)
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
    assert _changed_box(*cards) is None


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
            box = _changed_box(calm, walk.app.window)
            assert box is not None, f"nothing shown on hovering {where}"
            assert not box.colliderect(L.faith) and not box.colliderect(L.market), box   # the track stays in view
            walk.move((3, 3))
            walk.frames(2)
        words = board.top_bar.pile_words(board.context())
        assert "2 Purple" in words and "2 Green" in words and "black cross" in words
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- greyed buttons say why
def _tip_after_hover(walk: Walk, pointer: list, pos) -> tuple[pygame.Rect | None, str | None]:
    """Hover ``pos`` for a second: the box of what appeared, and the board's words for it."""
    hover(walk, pointer, pos)
    walk.frames(2)
    before = walk.app.window.copy()
    walk.frames(60)
    box = _changed_box(before, walk.app.window)
    return box, walk.app.stack.top.greyed_tip()


def _button(walk: Walk, label: str):
    return next(el for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                if isinstance(el, pygame_gui.elements.UIButton) and el.visible and str(el.text).startswith(label))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_the_first_turn_produce_is_greyed_and_says_why(size, pointer):
    """A new solo game: the player owns nothing, so nothing can be produced."""
    from game.scenes.layout import board_layout
    walk = _solo_board(size)
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
        for card in _leader_rects(size, game):
            hover(walk, pointer, (3, 3))
            walk.frames(2)
            calm = walk.app.window.copy()
            hover(walk, pointer, card.center)
            walk.click(card.center)                          # the pointer stays on the card
            walk.frames(2)
            for r in _changed_rects(calm, walk.app.window):  # the card marked, the bar changed: no more
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
        walk.click(_leader_rects(size, game)[0].center)
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
    walk, _game = _table(size)
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
    walk = _solo_board((1024, 640))
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
    walk, game = _table(size)
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
        for r in _changed_rects(calm, walk.app.window):
            assert not any(r.colliderect(s) for s in slots_with_cards), (r, slots_with_cards)
    finally:
        _close(walk.app)


# ---------------------------------------------------------------------------- the plan says what is left to do
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_market_plan_placed_by_the_suggestion_says_so(size):
    from game.scenes.panels.plan import market_headline
    from walk import board_geometry
    walk, game = _table(size)
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
    walk, game = _solo_with_a_stone_depot(size)
    p = game.player("Ada")
    try:
        shelves, depot = _boxes(size, game)
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
    walk, _game = _table(size)
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
