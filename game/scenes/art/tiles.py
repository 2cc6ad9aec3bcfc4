"""Lorenzo's action tokens and the papal favor tiles."""
from __future__ import annotations

import math

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import (tdraw, canvas, clip_to, down, drop_shadow, ellipse_points, linear_gradient, paper,
                    radial_gradient, transform)
from .card_parts import blit_centered
from .leader_cards import mini_card
from .icons import black_cross, cross_poly
from .palette import (GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, OXBLOOD, PARCHMENT_DARK, SEPIA, WALNUT,
                      WALNUT_DARK, mix, shade)


def token(token: dict, size: int) -> pygame.Surface:
    """A round Lorenzo action token (discard two cards of a colour; black cross +2; +1 and shuffle)."""
    return _token(token.get("kind", ""), token.get("discardedDevCardColor"), int(size))


@surface_cache(2, 128, kept=True)
def _token(kind: str, color: str | None, size: int) -> pygame.Surface:
    size = max(4, size)
    k = 4 if size <= 120 else 2
    S = size * k
    c = S / 2
    s = canvas(S, S)
    pygame.draw.circle(s, shade(WALNUT_DARK, -0.3), (c, c), S * 0.48)
    ring = canvas(S, S)
    pygame.draw.circle(ring, (255, 255, 255), (c, c), S * 0.46)
    s.blit(clip_to(linear_gradient(S, S, GOLD_LIGHT, GOLD_DARK), ring), (0, 0))
    face = canvas(S, S)
    pygame.draw.circle(face, (255, 255, 255), (c, c), S * 0.4)
    s.blit(clip_to(paper(S, S, 5, IVORY, PARCHMENT_DARK, vig_alpha=90), face), (0, 0))
    pygame.draw.circle(s, GOLD_DARK, (c, c), S * 0.4, max(1, S // 80))
    for i in range(16):
        a = i * math.tau / 16
        pygame.draw.circle(s, shade(GOLD_DARK, -0.2), (c + math.cos(a) * S * 0.43, c + math.sin(a) * S * 0.43),
                           S * 0.012)
    if kind == "ActionTokenDiscardTwo":
        cw, ch = round(S * 0.22), round(S * 0.33)
        for i, (dx, ang) in enumerate(((-0.07, 12), (0.07, -12))):
            mc = pygame.transform.rotate(mini_card(color or "Green", cw, ch, 0), ang)
            blit_centered(s, drop_shadow(mc, (1, 2), 2, 90), (c + dx * S, c - S * 0.04))
        # an oxblood strike and "-2"
        pygame.draw.line(s, OXBLOOD, (c - S * 0.2, c + S * 0.12), (c + S * 0.2, c - S * 0.2), max(2, S // 26))
        t = fonts.figures("\u22122", round(S * 0.14), OXBLOOD, bold=True, halo=(*IVORY, 255))
        blit_centered(s, t, (c, c + S * 0.25))
    else:
        two = kind == "ActionTokenBlackMoveTwo"
        bc = black_cross(round(S * 0.42))
        blit_centered(s, bc, (c - S * 0.08, c - S * 0.02))
        t = fonts.figures("+2" if two else "+1", round(S * 0.17), INK, bold=True, halo=(*IVORY, 255))
        blit_centered(s, t, (c + S * 0.2, c + S * 0.06))
        if not two:
            # two curved shuffle arrows around the face
            for a0 in (math.pi * 0.15, math.pi * 1.15):
                pts = ellipse_points(c, c, S * 0.33, S * 0.33, 20, a0, a0 + math.pi * 0.6)
                pygame.draw.lines(s, OXBLOOD, False, pts, max(2, S // 40))
                ex, ey = pts[-1]
                a = a0 + math.pi * 0.6 + math.pi / 2
                head = transform([(0.0, 0.0), (-0.7, -0.45), (-0.7, 0.45)], ex, ey, S * 0.07, a)
                pygame.draw.polygon(s, OXBLOOD, head)
    return drop_shadow(down(s, (size, size)), (max(1, size // 40), max(1, size // 30)), max(1, size // 40), 90) \
        if size >= 20 else down(s, (size, size))


# -- papal favor tiles ----------------------------------------------------------------------------------------


_FAVOR_COLORS = {2: (214, 168, 52), 3: (208, 118, 40), 4: (168, 44, 34)}


@surface_cache(2, 64, kept=True)
def favor_tile(vp: int, state: str, size: int) -> pygame.Surface:
    """A papal favor tile worth ``vp`` (2, 3, 4): "DOWN" (not yet decided), "UP" (earned) or "REMOVED"."""
    size = max(4, int(size))
    k = 4 if size <= 120 else 2
    S = size * k
    s = canvas(S, S)
    m = S * 0.06
    r = pygame.Rect(m, m, S - 2 * m, S - 2 * m)
    rad = round(S * 0.12)
    col = _FAVOR_COLORS.get(int(vp), (150, 100, 60))
    if state == "REMOVED":
        dash = max(2, S // 14)
        pts = []
        per = 2 * (r.w + r.h)
        for i in range(0, per, dash * 2):
            pts.append(i)
        for i in pts:
            for j in (i, min(per, i + dash)):
                pass
            a, b = _perim(r, i), _perim(r, min(per, i + dash))
            tdraw(s, "line", (*SEPIA, 110), a, b, max(1, S // 50))
        return down(s, (size, size))
    pygame.draw.rect(s, shade(GOLD_DARK, -0.5), r, border_radius=rad)
    inner = r.inflate(-S * 0.05, -S * 0.05)
    shape = canvas(S, S)
    pygame.draw.rect(shape, (255, 255, 255), inner, border_radius=rad - 2)
    if state == "UP":
        s.blit(clip_to(linear_gradient(S, S, GOLD_LIGHT, GOLD_DARK), shape), (0, 0))
        face = inner.inflate(-S * 0.08, -S * 0.08)
        shape2 = canvas(S, S)
        pygame.draw.rect(shape2, (255, 255, 255), face, border_radius=rad - 4)
        s.blit(clip_to(radial_gradient(S, S, lambda u, v, a=shade(col, 0.35), b=shade(col, -0.35): (*mix(a, b, min(
            1, math.hypot(u - 0.4, v - 0.35) * 1.6)), 255), 24), shape2), (0, 0))
        # crossed keys behind the number
        for sgn in (-1, 1):
            a = sgn * math.pi / 4
            shaft = transform([(-0.34, -0.03), (0.3, -0.03), (0.3, 0.03), (-0.34, 0.03)], S / 2, S / 2, S, a)
            tdraw(s, "polygon", (*GOLD_LIGHT, 170), shaft)
            bow = transform([(-0.36, 0)], S / 2, S / 2, S, a)[0]
            tdraw(s, "circle", (*GOLD_LIGHT, 170), bow, S * 0.07, max(1, S // 40))
            bit = transform([(0.2, 0.03), (0.3, 0.03), (0.3, 0.12), (0.2, 0.12)], S / 2, S / 2, S, a)
            tdraw(s, "polygon", (*GOLD_LIGHT, 170), bit)
        t = fonts.figures(str(vp), round(S * 0.42), IVORY, bold=True, halo=(*shade(col, -0.6), 255))
        blit_centered(s, t, (S / 2, S / 2))
    else:  # DOWN: the back of the tile, sober, with the value in small
        back = mix(col, WALNUT, 0.65)
        s.blit(clip_to(linear_gradient(S, S, shade(back, 0.15), shade(back, -0.3)), shape), (0, 0))
        tdraw(s, "rect", (*GOLD, 150), inner.inflate(-S * 0.1, -S * 0.1), max(1, S // 60), border_radius=rad - 6)
        cp = transform(cross_poly(), S / 2, S * 0.44, S * 0.46)
        tdraw(s, "polygon", (*GOLD, 200), cp)
        t = fonts.figures(str(vp), round(S * 0.16), GOLD_LIGHT, bold=True)
        blit_centered(s, t, (S / 2, S * 0.78))
    return drop_shadow(down(s, (size, size)), (max(1, size // 40), max(1, size // 30)), max(1, size // 40), 90) \
        if size >= 20 else down(s, (size, size))


def _perim(r: pygame.Rect, d: float) -> tuple[float, float]:
    """The point at distance ``d`` along the rectangle's perimeter, clockwise from the top-left."""
    if d <= r.w:
        return (r.left + d, r.top)
    d -= r.w
    if d <= r.h:
        return (r.right, r.top + d)
    d -= r.h
    if d <= r.w:
        return (r.right - d, r.bottom)
    d -= r.w
    return (r.left, r.bottom - min(d, r.h))
