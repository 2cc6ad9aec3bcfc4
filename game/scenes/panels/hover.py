"""The enlarged art shown for what the mouse is over (a card, a leader, a favor tile, Lorenzo's
token, a marble), with a line of words under it."""
from __future__ import annotations

import pygame

from ..art import cards as C
from ..art import fonts as F
from ..art import marbles as M
from ..art import palette as P
from ..plans import BuyPlan
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
    if t[0] == "card":
        cid = g["devCardGrid"]["topCards"][t[1]][t[2]]
        if cid is not None:
            img = C.dev_card(ctx.cards[cid], prods, big)
            if not isinstance(ctx.plan, BuyPlan) and ctx.can_act:
                sh = ctx.session.shadow()
                card = sh.top_card(t[1], t[2])
                if card is not None:
                    words = BuyPlan.start(sh, sh.player(ctx.nickname), card).problem() or "Click to buy"
    elif t[0] == "leader":
        ld = ctx.leaders[t[1]]
        img = C.leader_card(ld, prods, big)
        from ..narration import leader_ability
        words = leader_ability(ld)
    elif t[0] == "production" and t[1] in {c["production"] for c in g["developmentCards"]}:
        card = next(c for c in g["developmentCards"] if c["production"] == t[1])
        img = C.dev_card(card, prods, big)
    elif t[0] == "favor":
        sec = sorted(g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])[t[1]]
        state = ctx.me.get("favorTiles", ["DOWN"] * 3)[t[1]]
        img = C.favor_tile(sec["victoryPoints"], state, round(110 * unit))
        words = {"UP": f"Yours: {sec['victoryPoints']} VP",
                 "REMOVED": "Lost: you were before space {0} when the report came".format(sec["faithPointsBeginning"]),
                 }.get(state, f"Vatican report {t[1] + 1}: {sec['victoryPoints']} VP if you are on space "
                              f"{sec['faithPointsBeginning']} or beyond when a marker reaches {sec['faithPointsEnd']}")
    elif t[0] == "token":
        tokens = {k["id"]: k for k in g.get("actionTokens", [])}
        tok = tokens.get(g.get("lastActionToken"))
        if tok is not None:
            img = C.token(tok, round(120 * unit))
            from ..narration import TOKEN_WORDS
            words = "Lorenzo " + TOKEN_WORDS.get(tok["kind"], "played a token").format(
                color=tok.get("discardedDevCardColor", ""))
    elif t[0] == "marble":
        kind = g["market"]["grid"][t[1]][t[2]]
        img = M.marble(kind, round(90 * unit))
        words = {"Zero": "White marble: nothing, unless a white-marble leader is active",
                 "Faith": "Red marble: 1 faith at once"}.get(kind, f"{kind}")
    return img, words


def draw_hover_card(surface: pygame.Surface, ctx: Context, unit: float, mouse: tuple[int, int]) -> pygame.Rect | None:
    """Draw the hovered target's enlarged art beside the pointer; its rect, or None."""
    img, words = hover_art(ctx, unit)
    if img is None:
        return None
    mx, my = mouse
    r = img.get_rect()
    r.topleft = (mx + 18, my - r.h // 2)
    if r.right > surface.get_width() - 8:
        r.right = mx - 18
    r.clamp_ip(surface.get_rect())
    surface.blit(img, r)
    if words:
        size = round(17 * unit)
        tip = F.render(words, size, P.PARCHMENT, "italic")
        tr = tip.get_rect(midtop=(r.centerx, r.bottom + 4))
        tr.clamp_ip(surface.get_rect().inflate(-20, -12))
        bg = tr.inflate(16, 8)
        pygame.draw.rect(surface, P.INK, bg, border_radius=6)
        surface.blit(tip, tr)
    return r
