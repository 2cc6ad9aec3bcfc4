"""The faith track shows every player's favor tiles, and a Vatican report turns them all, through
the frame loop: the opponents' small tiles (beside the player's own, ringed in their colours)
turn face up or are taken away in the same moment as the player's own."""
from __future__ import annotations


import pygame
import pytest

from support.table import Table, mid_game

from game.rules import default_config
from game.scenes.app import App
from game.scenes.art import tiles as C
from game.scenes.board import BoardScene
from game.client.session import GameSession
from game.client import board_input as BI

CFG = default_config()
SIZES = [(1024, 640), (1920, 1080)]


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect.clip(surface.get_rect())), "RGB")


def click(app: App, pos) -> None:
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])
    app.frame(0.001, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_report_turns_every_players_tile_on_the_track(size):
    app = App(headless=True, size=size)
    game = mid_game(["Ada", "Bruno", "Cora"], 3, 6)
    for p in game.players:   # Ada one space before the pope space; Bruno in the section, Cora out of it
        p.faith = {"Ada": 7, "Bruno": 6, "Cora": 2}[p.nickname]
    scene = BoardScene(app, GameSession(Table(game, "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    app.frame(0.001)
    app.frame(5.0)
    minis = scene.faith.mini_rects(scene.context())
    assert [sorted(row) for row in minis] == [["Bruno", "Cora"]] * 3
    bruno, cora = minis[0]["Bruno"], minis[0]["Cora"]
    own = scene.faith.favor_rects(scene.context())[0]
    for r in (bruno, cora):
        assert scene.layout.faith.contains(r) and not r.colliderect(own)
    calm = {n: pixels(app.window, r.inflate(8, 8)) for n, r in (("Bruno", bruno), ("Cora", cora))}
    leader = next(h for h in scene.hits if isinstance(h.target, BI.Leader))
    click(app, leader.rect.center)
    app.frame(0.001)
    discard = next(b for b in scene._leader_buttons if b.text.startswith("Discard"))
    click(app, discard.rect.center)                      # +1 faith: Ada reaches the pope space
    assert not game.fired[0]
    app.frame(0.001)                                     # the button's event: the discard is sent
    assert game.fired[0] and game.player("Bruno").favors[0] == 1 and game.player("Cora").favors[0] == 2
    # the first frame after the report: the moment is on, and both opponents' tiles are lit
    assert scene.moments and scene.moments[0].t < 0.1
    first = {n: pixels(app.window, r.inflate(8, 8)) for n, r in (("Bruno", bruno), ("Cora", cora))}
    assert first["Bruno"] != calm["Bruno"] and first["Cora"] != calm["Cora"]
    seen: dict[str, set] = {"Bruno": set(), "Cora": set()}
    for _ in range(6):                                   # they turn and fade, frame after frame
        app.frame(0.15)
        for n, r in (("Bruno", bruno), ("Cora", cora)):
            seen[n].add(pixels(app.window, r))
    assert len(seen["Bruno"]) >= 4 and len(seen["Cora"]) >= 4
    for _ in range(40):
        app.frame(0.15)
    assert not scene.moments
    # settled: Bruno's tile face up, Cora's gone (what the panel draws for those states)
    after = {n: pixels(app.window, r.inflate(8, 8)) for n, r in (("Bruno", bruno), ("Cora", cora))}
    assert after["Bruno"] != calm["Bruno"] and after["Cora"] != calm["Cora"]
    vp = CFG.vatican_sections[0].favor_vp

    def as_if(rect: pygame.Rect, state: str) -> bytes:
        """The middle of ``rect`` with a tile of ``state`` drawn over what is shown (the same if
        it shows that state already: the middle of a tile is opaque)."""
        probe = app.window.copy()
        probe.blit(C.favor_tile(vp, state, rect.h), rect)
        return pixels(probe, rect.inflate(-rect.w // 2, -rect.h // 2))

    def middle(rect: pygame.Rect) -> bytes:
        return pixels(app.window, rect.inflate(-rect.w // 2, -rect.h // 2))

    assert middle(bruno) == as_if(bruno, "UP") != as_if(bruno, "DOWN")
    assert middle(cora) != as_if(cora, "DOWN") and middle(cora) != as_if(cora, "UP")


@pytest.mark.parametrize("size", [(1024, 640), (1600, 900), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_points_disc_hides_a_space_number_or_the_last_cross(size):
    """QA at 1600x900: the point discs hid the spaces' numbers, and the "20" disc overlapped the
    cross on space 24. Every space of the track, at the size the board draws it, has its number,
    its points and its cross each in a part of its own, and the number as tall as on a plain space."""
    from game.scenes.art.board import faith_space_parts
    app = App(headless=True, size=size)
    scene = BoardScene(app, GameSession(Table(mid_game(["Ada"], 3, 6), "Ada"), CFG, "Ada"))
    app.stack.push(scene)
    try:
        app.frame(0.001)
        ctx = scene.context()
        ft = ctx.g["faithTrack"]
        _inner, sw, sh, _top = scene.faith.geometry(ctx)
        vps = {t["faithPoints"]: t["victoryPoints"] for t in ft["yellowTiles"]}
        popes = {s["faithPointsEnd"] for s in scene.faith.sections(ctx)}
        plain = faith_space_parts(1, sw - 2, sh)["number"].h
        for n in range(ft["maxFaith"] + 1):
            parts = faith_space_parts(n, sw - 2, sh, pope=n in popes, vp=vps.get(n))
            assert ("points" in parts) == (n in vps) and ("cross" in parts) == (n in popes)
            box = pygame.Rect(0, 0, sw - 2, sh)
            for key, r in parts.items():
                assert box.contains(r), (n, key, r, box)
            names = sorted(parts)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    assert not parts[a].colliderect(parts[b]), f"space {n}: {a} {parts[a]} over {b} {parts[b]}"
            if n not in popes:
                assert parts["number"].h >= plain - 1, (n, parts["number"], plain)
            if n in vps:
                assert parts["points"].w >= 0.38 * min(sw - 2, sh), (n, parts["points"])
    finally:
        app.stack.pop()
