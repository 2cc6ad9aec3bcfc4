"""The market plan panel, walked like a player (the real ``App`` frame loop, posted events): its
words are never smaller than the log's, and a picked resource that no shelf can take says why.
"""
from __future__ import annotations


import pygame
import pytest

from walk import Walk, board_geometry

from game.scenes.app import App
from game.client import board_input as BI

pytestmark = pytest.mark.timeout(120)
SIZES = [(1024, 640), (1920, 1080)]


@pytest.fixture
def words(monkeypatch):
    """Every line the plan panel draws, with its type size: [(words, size)] (what the player reads)."""
    from game.scenes.art import fonts as F
    from game.scenes.panels.plan import PlanPanel
    seen: list[tuple[str, int]] = []
    inside = [False]
    render, draw = F.render, PlanPanel.draw

    def spy_render(text, size, *a, **k):
        if inside[0]:
            seen.append((str(text), int(size)))
        return render(text, size, *a, **k)

    def spy_draw(self, *a, **k):
        inside[0] = True
        try:
            return draw(self, *a, **k)
        finally:
            inside[0] = False
    monkeypatch.setattr(F, "render", spy_render)
    monkeypatch.setattr(PlanPanel, "draw", spy_draw)
    return seen


def _close(app: App) -> None:
    while app.stack.top is not None:
        app.stack.pop()


def _two_stone(size, first_row=("Stone", "Stone", "Faith", "Zero")) -> tuple[Walk, object]:
    """A solo board, shelves empty; the market's first row gives 2 Stone (and a faith)."""
    from support.table import Table, mid_game

    from game.rules import default_config
    from game.scenes.board import BoardScene
    from game.client.session import GameSession
    game = mid_game(["Ada"], 3, 0)
    for shelf in game.player("Ada").shelves:
        shelf.content = {}
    game.market[:len(first_row)] = list(first_row)
    app = App(headless=True, size=size)
    walk = Walk(app, None, "plan")
    app.stack.push(BoardScene(app, GameSession(Table(game, "Ada"), default_config(), "Ada")))
    walk.frames(2)
    app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    return walk, game


def _shelves(size, game) -> list[pygame.Rect]:
    from types import SimpleNamespace

    from game.rules.views import player_view
    from game.scenes.layout import board_layout
    from game.scenes.panels.player_board import PlayerBoardPanel
    from game.client.view_model import ViewModel
    vm = ViewModel("Ada")
    vm.feed(player_view(game, "Ada"))
    L = board_layout(size, 1, True)
    rects = PlayerBoardPanel(L.board, L.unit).shelf_rects(SimpleNamespace(vm=vm), vm.me)
    return [rects[cid] for cid in vm.me["warehouseShelves"]]


def _items(walk: Walk) -> list[pygame.Rect]:
    return [h.rect for h in walk.app.stack.top.plan_panel.hits(walk.app.stack.top.context()) if isinstance(h.target, BI.Item)]


def _log_size(size) -> int:
    from game.scenes.layout import board_layout
    from game.scenes.panels.log import LogPanel
    L = board_layout(size, 1, True)
    return LogPanel(L.log, L.unit).size


def _confirm(walk: Walk) -> None:
    walk.key(pygame.K_RETURN)
    if walk.scene == "AskScene":
        walk.key(pygame.K_RETURN)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_market_plans_words_are_never_smaller_than_the_logs(size, words):
    """The help line under the plan (how to rearrange first) and the headline are at least the
    log's size at every window size: a line too long wraps, it is never shrunk."""
    walk, _game = _two_stone(size)
    try:
        floor = _log_size(size)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        walk.move((3, 3))
        walk.frames(2)
        assert walk.app.stack.top.plan is not None
        said = " ".join(w for w, _s in words)
        assert "rearrange" in said.lower() and "Taking row 1" in said, said
        small = [(w, s) for w, s in words if s < floor]
        assert not small, f"shrunk below the log's {floor} px: {small}"
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_picked_resource_no_shelf_can_take_says_why_and_a_click_elsewhere_starts_no_swap(size, words):
    """2 Stone taken, both placed on shelf 2. One Stone picked: no other shelf can take it alone
    (the other stays on shelf 2, one kind per shelf), and the panel says so and what to do. A
    click on the empty shelf 3 says why and selects nothing (no ring, no swap). Then doing what
    it says (shelf 2, then shelf 3) moves both Stone to shelf 3."""
    walk, game = _two_stone(size)
    try:
        floor = _log_size(size)
        shelves = _shelves(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        walk.move((3, 3))
        walk.frames(2)
        words.clear()
        walk.click(_items(walk)[0].center)                         # one Stone picked
        walk.move((3, 3))
        walk.frames(2)
        said = [(w, s) for w, s in words if "shelf 2" in w]
        assert said and all(s >= floor for _w, s in said), words
        assert "Stones are also on shelf 2" in " ".join(w for w, _s in words), words
        picked = walk.app.window.copy()
        words.clear()
        walk.click(shelves[2].center)                              # the empty shelf 3, which does not glow
        walk.move((3, 3))
        walk.frames(2)
        seen = walk.app.window
        ring, above = shelves[2].inflate(12, 12), shelves[1].inflate(12, 12)   # (shelf 2 stops glowing)
        changed = [(x, y) for x in range(ring.x, ring.right, 2) for y in range(ring.y, ring.bottom, 2)
                   if not above.collidepoint(x, y) and picked.get_at((x, y)) != seen.get_at((x, y))]
        assert not changed, f"shelf 3 was marked (a swap begun): {changed[:4]}"
        assert "click shelf 2, then shelf 3" in " ".join(w for w, _s in words), words
        walk.click(shelves[1].center)                              # as it says: shelf 2, then shelf 3
        walk.click(shelves[2].center)
        _confirm(walk)
        p = game.player("Ada")
        assert p.shelves[2].content == {"Stone": 2} and not p.shelves[1].content, [s.content for s in p.shelves]
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_refused_shelf_can_still_be_dragged(size):
    """With a resource picked, a press on a shelf it cannot go to, then a drag onto another
    shelf, still moves that shelf (the refusal is only for a click)."""
    walk, game = _two_stone(size)
    try:
        shelves = _shelves(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        walk.click(_items(walk)[0].center)                         # one Stone picked
        a, b = shelves[1].center, shelves[2].center                # shelf 2 (both Stone) onto shelf 3
        walk.move(b)
        walk.frames(1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=b, button=1)])
        for k in range(1, 6):
            walk.move((b[0] + k * (a[0] - b[0]) // 5, b[1] + k * (a[1] - b[1]) // 5))
        walk.frames(2, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=a, button=1)])
        _confirm(walk)
        p = game.player("Ada")
        assert p.shelves[2].content == {"Stone": 2}, [s.content for s in p.shelves]
    finally:
        _close(walk.app)


def _region_changed(a: pygame.Surface, b: pygame.Surface, rect: pygame.Rect, skip: pygame.Rect) -> bool:
    return any(a.get_at((x, y)) != b.get_at((x, y)) for x in range(rect.x, rect.right, 2)
               for y in range(rect.y, rect.bottom, 2) if not skip.collidepoint(x, y))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_picked_shelf_is_forgotten_when_a_plan_begins_and_when_the_turn_ends(size):
    """Shelf 1 clicked (ringed as the first of a swap), then a market line taken: the ring goes.
    Confirmed, shelf 1 clicked again, End turn: on the next turn shelf 1 is plain again."""
    walk, game = _two_stone(size)
    walk.app.settings.confirm_end_turn = False
    try:
        shelves = _shelves(size, game)
        ring, below = shelves[0].inflate(12, 12), shelves[1].inflate(12, 12)
        calm = walk.app.window.copy()
        walk.click(shelves[0].center)
        walk.move((3, 3))
        walk.frames(2)
        assert _region_changed(calm, walk.app.window, ring, below)        # ringed
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        walk.move((3, 3))
        walk.frames(2)
        assert walk.app.stack.top.plan is not None
        assert not _region_changed(calm, walk.app.window, ring, below), "shelf 1 still ringed in the plan"
        _confirm(walk)
        walk.click(shelves[0].center)
        walk.press("End turn")
        walk.frames(3)
        walk.app.frame(5.0)                                               # past the glow of the change
        walk.move((3, 3))
        walk.frames(2)
        assert game.player("Ada") is game.current_player and not game.main_done   # the next turn
        assert not _region_changed(calm, walk.app.window, ring, below), "shelf 1 still ringed next turn"
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_a_plan_a_swap_that_cannot_be_says_why_in_the_plan_in_plain_words(size, words, monkeypatch):
    """Shelves 1 Coin / 2 Servant / 3 Stone, a line taken: shelf 1 clicked, then shelf 2 (2 Servants
    cannot go on a shelf of 1, and a Coin cannot join the Servant): the plan panel says so in
    plain words, at the log's size; nothing is written over the player's board."""
    from game.scenes import board_base as board_module
    on_board: list[str] = []
    text = board_module.text

    def spy(surface, w, *a, **k):
        on_board.append(str(w))
        return text(surface, w, *a, **k)
    monkeypatch.setattr(board_module, "text", spy)
    walk, game = _two_stone(size, ("Zero", "Zero", "Zero", "Faith"))
    for shelf, content in zip(game.player("Ada").shelves, [{"Coin": 1}, {"Servant": 2}, {"Stone": 3}]):
        shelf.content = dict(content)
    walk.app.stack.top.session.match.out.append(__import__("game.rules.views", fromlist=["x"]).player_view(game, "Ada"))
    walk.frames(3)
    try:
        floor = _log_size(size)
        shelves = _shelves(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        assert walk.app.stack.top.plan is not None
        words.clear()
        on_board.clear()
        walk.click(shelves[0].center)
        walk.click(shelves[1].center)
        walk.move((3, 3))
        walk.frames(2)
        said = [(w, s) for w, s in words if "Servant" in w]
        assert any("2 Servants do not fit on shelf 1" in w for w, _s in said), words
        assert all(s >= floor for _w, s in said), said
        assert not any("Cannot" in w or "depot" in w for w in on_board), on_board
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_outside_a_plan_a_refused_rearrangement_is_said_on_a_label_clear_of_the_warehouse(size, monkeypatch,
                                                                                              caplog):
    """No plan, shelves 1 Coin / 2 Servant / 3 Stone: shelf 2 clicked, then shelf 1. Nothing moves;
    a label at the foot of the slots says so in the plan's words ("2 Servants do not fit on shelf 1:
    it holds 1."), never the engine's ("Cannot add …: the depot is full"), which go to the log."""
    import logging
    caplog.set_level(logging.INFO)
    from game.scenes import board_base as board_module
    on_board: list[tuple[str, int]] = []
    text = board_module.text

    def spy(surface, w, pos, s, *a, **k):
        on_board.append((str(w), int(s)))
        return text(surface, w, pos, s, *a, **k)
    monkeypatch.setattr(board_module, "text", spy)
    walk, game = _two_stone(size)
    for shelf, content in zip(game.player("Ada").shelves, [{"Coin": 1}, {"Servant": 2}, {"Stone": 3}]):
        shelf.content = dict(content)
    walk.app.stack.top.session.match.out.append(__import__("game.rules.views", fromlist=["x"]).player_view(game, "Ada"))
    walk.frames(3)
    walk.app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    board = walk.app.stack.top
    try:
        shelves = _shelves(size, game)
        calm = walk.app.window.copy()
        on_board.clear()
        walk.click(shelves[1].center)                       # 2 Servant onto the shelf of 1 holding a Coin
        walk.click(shelves[0].center)
        walk.move((3, 3))
        walk.frames(2)
        assert [s.content for s in game.player("Ada").shelves][:2] == [{"Coin": 1}, {"Servant": 2}]
        said = [(w, s) for w, s in on_board if w == board.session.error]
        assert said and all(s >= _log_size(size) for _w, s in said), on_board
        assert board.session.error == "2 Servants do not fit on shelf 1: it holds 1."
        assert not any("Cannot" in w or "depot" in w for w, _s in on_board), on_board
        assert "Cannot add Servant" in caplog.text              # the engine's words, in the log
        keep = [board.player_board.warehouse, board.player_board.strongbox]
        mask = pygame.mask.from_threshold(calm, (0, 0, 0), (1, 1, 1, 255), walk.app.window, 1)
        diff = pygame.mask.Mask(calm.get_size(), fill=True)
        diff.erase(mask, (0, 0))
        changed = diff.get_bounding_rects()
        assert changed
        for r in changed:
            for k in keep:
                assert not r.colliderect(k.inflate(-4, -4)), f"written over the warehouse or strongbox: {r} / {k}"
    finally:
        _close(walk.app)


def _rich(size) -> tuple[Walk, object]:
    """A solo board: 1 Coin, 2 Servant, 3 Stone on the shelves and 5 of each in the strongbox."""
    walk, game = _two_stone(size)
    p = game.player("Ada")
    for shelf, content in zip(p.shelves, [{"Coin": 1}, {"Servant": 2}, {"Stone": 3}]):
        shelf.content = dict(content)
    p.strongbox.content = {r: 5 for r in ("Coin", "Servant", "Shield", "Stone")}
    walk.app.stack.top.session.match.out.append(__import__("game.rules.views", fromlist=["x"]).player_view(game, "Ada"))
    walk.frames(3)
    walk.app.frame(5.0)
    walk.move((3, 3))
    walk.frames(2)
    return walk, game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_purchase_and_productions_plans_words_are_never_smaller_than_the_logs(size, words):
    """A card paid from the shelves, with buttons to pay from the strongbox instead; then the base
    production's picker: every word the plan panel draws is at least the log's size, and the
    buttons' words fit inside them."""
    walk, game = _rich(size)
    board = walk.app.stack.top
    try:
        floor = _log_size(size)
        cards = [h for h in board.grid.hits(board.context()) if isinstance(h.target, BI.Card)]

        def cost_of(h):
            card = game.top_card(h.target.color, h.target.level)
            return card.cost if card is not None else {}
        pick = next(h for h in cards if set(cost_of(h)) & {"Coin", "Servant", "Stone"})
        words.clear()
        walk.click(pick.rect.center)
        walk.move((3, 3))
        walk.frames(2)
        assert type(board.plan).__name__ == "BuyPlan"
        said = " ".join(w for w, _s in words)
        assert "Paying" in said and "from the strongbox" in said, words
        assert "from shelf" in said and "the shelf" not in said, words        # "from shelf 3", never "from the shelf 3"
        small = [(w, s) for w, s in words if s < floor]
        assert not small, f"shrunk below the log's {floor} px: {small}"
        for h in board.plan_panel.hits(board.context()):
            assert board.layout.log.contains(h.rect), h
        walk.key(pygame.K_ESCAPE)
        words.clear()
        walk.click(board.player_board.base_production.center)
        walk.move((3, 3))
        walk.frames(2)
        assert type(board.plan).__name__ == "ProductionPlan"
        small = [(w, s) for w, s in words if s < floor]
        assert words and not small, f"shrunk below the log's {floor} px: {small}"
    finally:
        _close(walk.app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_a_plan_a_first_click_on_a_full_shelf_starts_the_swap_the_footer_offers(size, words):
    """Shelves 1 Servant / 2 Stone, Stone / 3 Shield, a line of 2 Coin taken (they fit nowhere;
    a Coin is picked): a click on shelf 2, full, picks it for a swap and says so; a click on
    shelf 3 swaps them (the first click only said "Shelf 2 is full", and the second was taken
    as the start of a swap the wrong way round)."""
    walk, game = _two_stone(size, ("Coin", "Coin", "Zero", "Zero"))
    ada = game.player("Ada")
    for shelf, content in zip(ada.shelves, [{"Servant": 1}, {"Stone": 2}, {"Shield": 1}]):
        shelf.content = dict(content)
    walk.app.stack.top.session.match.out.append(__import__("game.rules.views", fromlist=["x"]).player_view(game, "Ada"))
    walk.frames(3)
    board = walk.app.stack.top
    try:
        shelves = _shelves(size, game)
        walk.click(board_geometry(size, 1)["arrows"][0].center)
        plan = board.plan
        assert plan is not None and board.selected_item is not None          # the Coin, picked
        words.clear()
        walk.click(shelves[1].center)
        walk.move((3, 3))
        walk.frames(2)
        assert board.selected_shelf == ada.shelves[1].id
        said = " ".join(w for w, _s in words)
        assert "Click another shelf to swap shelf 2" in said, words
        walk.click(shelves[2].center)
        walk.frames(2)
        assert plan.arranged()[ada.shelves[2].id] == {"Stone": 2}             # swapped, before the take
        assert plan.arranged()[ada.shelves[1].id] == {"Shield": 1}
    finally:
        _close(walk.app)
