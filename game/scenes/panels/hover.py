"""The enlarged art shown for what the mouse is over (a card, a leader, a favor tile, a marble),
with a line of words under it. (Lorenzo's tokens are told in words in the top bar itself: see
:meth:`~game.scenes.panels.top_bar.TopBar.draw_hover`.)"""
from __future__ import annotations

import pygame

from game.client import board_input as BI

from ..art import cards as C
from ..art import leader_cards as L
from ..art import fonts as F
from ..art import marbles as M
from ..art import palette as P
from ..art import tiles as T
from ..backdrop import wrap
from .base import Context


def hover_art(ctx: Context, unit: float) -> tuple[pygame.Surface | None, str | None]:
    """(picture, words) for the hovered target, or (None, None)."""
    t = ctx.hover
    img = None
    words = None
    prods = ctx.productions()
    big = round(300 * unit)
    g = ctx.g
    if t is None:
        return None, None
    if isinstance(t, BI.Card):
        cid = g["devCardGrid"]["topCards"][t.color][t.level]
        if cid is not None:
            img = C.dev_card(ctx.cards[cid], prods, big)
            if ctx.plan is None and ctx.can_act:   # (a plan being built says what it pays itself)
                words = ctx.session.purchase_words(t.color, t.level)
    elif isinstance(t, BI.Leader):
        ld = ctx.leaders[t.id]
        img = L.leader_card(ld, prods, big)
        from game.client.words import leader_ability
        words = leader_ability(ld)
    elif isinstance(t, BI.Production) and t.id in {c["production"] for c in g["developmentCards"]}:
        card = next(c for c in g["developmentCards"] if c["production"] == t.id)
        img = C.dev_card(card, prods, big)
    elif isinstance(t, BI.Favor):
        sec = sorted(g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])[t.index]
        state = ctx.me.get("favorTiles", ["DOWN"] * 3)[t.index]
        img = T.favor_tile(sec["victoryPoints"], state, round(110 * unit))
        words = {"UP": f"Yours: {sec['victoryPoints']} VP",
                 "REMOVED": "Lost: you were before space {0} when the report came".format(sec["faithPointsBeginning"]),
                 }.get(state, f"Vatican report {t.index + 1}: {sec['victoryPoints']} VP if you are on space "
                              f"{sec['faithPointsBeginning']} or beyond when a marker reaches {sec['faithPointsEnd']}")
    elif isinstance(t, BI.Marble):
        kind = g["market"]["grid"][t.row][t.col]
        img = M.marble(kind, round(90 * unit))
        words = {"Zero": "White marble: nothing, unless a white-marble leader is active",
                 "Faith": "Red marble: 1 faith at once"}.get(kind, f"{kind}")
    return img, words


def compose(img: pygame.Surface, words: str | None, unit: float) -> pygame.Surface:
    """The picture with its words in a dark label under it, as one surface."""
    if not words:
        return img
    size = round(17 * unit)
    lines = [F.render(line, size, P.PARCHMENT, "italic")
             for line in wrap(words, size, max(img.get_width(), round(260 * unit)) - 16, "italic")]
    lead = round(size * 1.25)
    label = pygame.Rect(0, 0, max(t.get_width() for t in lines) + 16,
                        lead * (len(lines) - 1) + lines[-1].get_height() + 8)
    w = max(img.get_width(), label.w)
    out = pygame.Surface((w, img.get_height() + 4 + label.h), pygame.SRCALPHA)
    out.blit(img, ((w - img.get_width()) // 2, 0))
    label.midtop = (w // 2, img.get_height() + 4)
    pygame.draw.rect(out, P.INK, label, border_radius=6)
    for i, tip in enumerate(lines):
        out.blit(tip, tip.get_rect(midtop=(label.centerx, label.y + 4 + i * lead)))
    return out


def place(size: tuple[int, int], mouse: tuple[int, int], bounds: pygame.Rect,
          avoid: list[pygame.Rect]) -> pygame.Rect | None:
    """Where a picture of ``size`` goes beside the pointer: inside ``bounds``, never over the
    pointer nor over any of ``avoid`` (what the player may be about to click or confirm);
    None if there is no such place."""
    w, h = size
    mx, my = mouse
    pointer = pygame.Rect(mx - 10, my - 10, 20, 20)
    xs = [mx + 18, mx - 18 - w, mx - w // 2]
    xs += [a.left - 6 - w for a in avoid] + [a.right + 6 for a in avoid]
    ys = [my - h // 2, my - h + 40, my - 40, bounds.top, bounds.bottom - h]
    ys += [a.top - 6 - h for a in avoid] + [a.bottom + 6 for a in avoid]
    best = None
    for x in xs:
        for y in ys:
            r = pygame.Rect(x, y, w, h)
            if not bounds.contains(r):
                continue
            if r.colliderect(pointer) or any(r.colliderect(a) for a in avoid):
                continue
            d = abs(r.centery - my) + abs(r.centerx - mx)
            if best is None or d < best[0]:
                best = (d, r)
    return best[1] if best else None


def draw_hover_card(surface: pygame.Surface, ctx: Context, unit: float, mouse: tuple[int, int],
                    avoid: list[pygame.Rect] = ()) -> pygame.Rect | None:  # type: ignore[assignment]
    """Draw the hovered target's enlarged art (and its words) beside the pointer, clear of
    ``avoid``, shrunk if it must be; its rect, or None when nothing is shown."""
    img, words = hover_art(ctx, unit)
    if img is None:
        return None
    bounds = surface.get_rect().inflate(-8, -8)
    avoid = [a for a in avoid if a.w and a.h]
    for scale in (1.0, 0.8, 0.64, 0.5):
        pic = img if scale == 1.0 else pygame.transform.smoothscale(
            img, (max(1, round(img.get_width() * scale)), max(1, round(img.get_height() * scale))))
        whole = compose(pic, words, unit)
        r = place(whole.get_size(), mouse, bounds, list(avoid))
        if r is not None:
            surface.blit(whole, r)
            return r
    return None
