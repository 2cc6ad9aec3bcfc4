"""What the player must read now stays in view, in the real frame loop (posted events, the frames
drawn): no tooltip covers a refusal or an export's "Saved as…"."""
from __future__ import annotations


import pygame
import pygame_gui
import pytest

from support.table import Table, mid_game
from walk import Walk, close

from game.client.session import GameSession
from game.rules import default_config
from game.rules.playout import random_game
from game.scenes.app import App
from game.scenes.board import BoardScene
from game.client import board_input as BI

pytestmark = pytest.mark.timeout(120)
CFG = default_config()
SIZES = [(1024, 640), (1600, 900), (1920, 1080)]


@pytest.fixture
def pointer(monkeypatch):
    """Where the system pointer is (pygame_gui reads it for hovering; a headless display has none)."""
    at = [(3, 3)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    return at


def rest_on(walk: Walk, pointer: list, pos, frames: int = 60) -> None:
    """The pointer moves to ``pos`` and stays there a second (past every tooltip's delay)."""
    pointer[0] = (int(pos[0]), int(pos[1]))
    walk.move(pointer[0])
    walk.frames(frames)


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect.clip(surface.get_rect())), "RGB")


def tips(scene) -> list[pygame.Rect]:
    return [pygame.Rect(el.rect) for el in scene.ui.get_sprite_group().sprites()
            if isinstance(el, pygame_gui.elements.UITooltip) and el.visible]



@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_tooltip_of_the_action_bar_covers_a_refusal(size, pointer):
    """A refusal at the foot of the card slots; the pointer rests on End turn (greyed: the board's
    own reason), then on Hint and Rules (pygame_gui's tooltips): the refusal stays whole."""
    from game.rules.actions import ReqBuyDevCard
    app = App(headless=True, size=size)
    walk = Walk(app, None, "refusal")
    session = GameSession(Table(mid_game(["Ada", "Bruno"], 3, 20), "Ada"), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.push(scene)
    try:
        walk.frames(2)
        app.frame(5.0)                                      # past the glow of the first frame
        session.send(ReqBuyDevCard("Green", 3, 0, {}))
        walk.frames(2)
        assert session.error
        box = scene.keep_readable()[0]
        calm = pixels(app.window, box)
        end = scene.buttons["end"]
        assert end.visible and not end.is_enabled
        rest_on(walk, pointer, end.rect.center)
        assert scene.greyed_tip(), "End turn says nothing"
        assert pixels(app.window, box) == calm, "the reason End turn is greyed covers the refusal"
        for key in ("hint", "rules"):
            rest_on(walk, pointer, (3, 3), 3)
            rest_on(walk, pointer, scene.buttons[key].rect.center)
            shown = tips(scene)
            assert shown, f"no tooltip on {key}"
            assert not any(t.colliderect(box) for t in shown), f"{key}'s tooltip covers the refusal"
            assert pixels(app.window, box) == calm
    finally:
        close(app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_export_tooltip_leaves_saved_as_readable(size, pointer, tmp_path):
    """A replay exported with its button, the pointer still on it: "Saved as…" stays whole."""
    from game.scenes.replay import ReplayScene
    app = App(headless=True, size=size)
    walk = Walk(app, None, "export")
    game = random_game(CFG, ["Ada", "Bruno"], seed=12)
    from game import replays as R
    R.save_finished(game, app.data_dir / R.REPLAYS, "bots", "Ada")
    from game.client.replay import past_games
    (record,) = past_games(app.data_dir)
    scene = ReplayScene(app, __import__("game.client.replay", fromlist=["open_replay"]).open_replay(
        record.path, app.config, "Ada"), export_dir=tmp_path / "out")
    (tmp_path / "out").mkdir()
    app.stack.push(scene)
    try:
        walk.frames(2)
        export = scene.buttons["rules"]
        assert export.text == "Export"
        rest_on(walk, pointer, export.rect.center, 2)
        walk.frames(1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pointer[0], button=1)])
        walk.frames(2, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pointer[0], button=1)])
        assert (scene.session.error or "").startswith("Saved as")
        assert list((tmp_path / "out").glob("*.json"))
        box = scene.keep_readable()[0]
        walk.frames(60)                                     # the pointer stays on Export
        shown = tips(scene)
        assert shown, "no tooltip on Export"
        assert not any(t.colliderect(box) for t in shown), "Export's tooltip covers Saved as"
        app.draw()
        calm = pixels(app.window, box)
        rest_on(walk, pointer, (3, 3), 30)
        assert not tips(scene)
        app.draw()
        assert pixels(app.window, box) == calm
    finally:
        close(app)


def _rich_board(size) -> tuple[App, Walk, BoardScene]:
    """Ada's turn mid-game, 5 of each resource in her strongbox (every card can be paid)."""
    app = App(headless=True, size=size)
    walk = Walk(app, None, "rich")
    game = mid_game(["Ada", "Bruno"], 11, 60)
    game.player("Ada").strongbox.content.update({"Coin": 5, "Servant": 5, "Shield": 5, "Stone": 5})
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    walk.frames(2)
    app.frame(5.0)
    return app, walk, scene


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_while_paying_a_hover_card_hides_neither_what_to_do_nor_what_is_paid_from(size, pointer):
    """A card being bought, then productions being chosen: the enlarged card under the pointer
    (another card of the grid, a leader, a production) leaves the top bar's instruction line, the
    warehouse, the strongbox and the plan in view, and is shown."""
    app, walk, scene = _rich_board(size)
    L = scene.layout
    needed = {"the instruction line": L.top_bar, "the warehouse": L.warehouse, "the strongbox": L.strongbox,
              "the plan": L.log, "the action bar": L.actions}
    try:
        card = next(h for h in scene.hits if isinstance(h.target, BI.Card))
        walk.click(card.rect.center)
        assert type(scene.plan).__name__ == "BuyPlan"
        for kind in (BI.Card, BI.Leader, BI.Production, BI.Card):
            if kind is BI.Production:                       # the productions' plan, from the action bar
                walk.key(pygame.K_ESCAPE)
                walk.click(scene.buttons["produce"].rect.center)
                walk.frames(2)
                assert type(scene.plan).__name__ == "ProductionPlan"
            hits = [h for h in scene.hits if isinstance(h.target, kind) and h.target != BI.Production(0)]
            assert hits, kind
            for hit in hits[:4]:
                rest_on(walk, pointer, hit.rect.center, 2)
                shown = scene.hover_rect
                assert shown is not None, f"no enlarged {kind} at {hit.target}"
                for what, rect in needed.items():
                    assert not shown.colliderect(rect), f"the enlarged {kind} {hit.target} covers {what}"
    finally:
        close(app)


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("fingerprint", ["SHA256:0D:D0:81:C7:AA:53:4B:63", None], ids=["secure", "plain"])
def test_the_padlock_and_its_word_are_read_at_the_size_of_the_turn_line(size, fingerprint, monkeypatch):
    """The board's "secure" (or "not encrypted") is as large as the turn's line under the heading
    (at 1024x640 it was 12 px, a smudge), on the heading's line, clear of the heading's words."""
    from game.client.security import Link
    from game.scenes.art import fonts
    from game.scenes.link_mark import READABLE
    monkeypatch.setattr(GameSession, "link", property(lambda s: Link("127.0.0.1:29410", fingerprint)))
    app = App(headless=True, size=size)
    session = GameSession(Table(mid_game(["Ada", "Bruno"], 3, 20), "Ada"), CFG, "Ada")
    scene = BoardScene(app, session)
    app.stack.push(scene)
    drawn: dict[str, tuple[int, pygame.Rect]] = {}     # the top bar's texts: their size and place
    from game.scenes.panels import top_bar
    text = top_bar.text

    def noted(surface, words, pos, size, *a, **k):
        drawn[words] = (size, text(surface, words, pos, size, *a, **k))
        return drawn[words][1]

    monkeypatch.setattr(top_bar, "text", noted)
    try:
        app.frame(1 / 60)
        bar = scene.top_bar
        lock = bar.lock_rect(scene.context())
        word = "secure" if fingerprint else "not encrypted"
        turn_size = next(s for w, (s, _) in drawn.items() if w.startswith("Your turn"))
        assert turn_size >= READABLE
        assert lock is not None and bar.rect.contains(lock)
        assert lock.h >= fonts.render(word, turn_size, (0, 0, 0), "italic").get_height()
        assert abs(lock.centery - bar.heading_middle) <= 2
        head = next(r for w, (_, r) in drawn.items() if w.startswith("Ada \u00b7"))
        assert head.right < lock.left
    finally:
        close(app)
