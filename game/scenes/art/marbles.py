"""Glass marbles for the market tray, each with an etched symbol so they read without colour."""
from __future__ import annotations

import math

import pygame

from ._draw import tdraw, canvas, clip_to, down, radial_gradient, ss_factor, star, transform, blur
from .icons import cross_poly, cube_polys, heater_poly, hood_polys, lily_polys
from .palette import MARBLE_COLORS, shade
from ..memory import surface_cache

KINDS = ("Zero", "Shield", "Stone", "Coin", "Servant", "Faith")


def _sphere_fn(col):
    """The shading of a glass ball of colour ``col`` at (u, v) in [0, 1]^2 (plain float arithmetic,
    written out channel by channel: it runs for every cell of the gradient grid)."""
    lo = shade(col, -0.55)
    hi = shade(col, 0.55)
    bright = shade(col, 0.4)
    dark = shade(col, -0.7)
    (l0, l1, l2), (c0, c1, c2) = lo, col[:3]
    (h0, h1, h2), (b0, b1, b2), (d0, d1, d2) = hi, bright, dark
    hypot = math.hypot

    def fn(u, v):
        x, y = u * 2 - 1, v * 2 - 1
        r = hypot(x, y)
        # light from the upper left; a darker limb; a bright caustic at the lower right
        lit = 1 - hypot(x + 0.38, y + 0.42) / 1.55
        lit = lit if lit > 0.0 else 0.0
        caustic = 1 - hypot(x - 0.38, y - 0.46) / 0.55
        caustic = (caustic if caustic > 0.0 else 0.0) ** 2
        t1 = lit * 1.5
        t1 = t1 if t1 < 1.0 else 1.0
        t2, t3 = lit ** 3 * 0.8, caustic * 0.6
        t4 = r - 0.8
        t4 = (t4 if t4 > 0.0 else 0.0) * 2.5
        c = l0 + (c0 - l0) * t1
        c += (h0 - c) * t2
        c += (b0 - c) * t3
        c += (d0 - c) * t4
        red = round(c)
        c = l1 + (c1 - l1) * t1
        c += (h1 - c) * t2
        c += (b1 - c) * t3
        c += (d1 - c) * t4
        green = round(c)
        c = l2 + (c2 - l2) * t1
        c += (h2 - c) * t2
        c += (b2 - c) * t3
        c += (d2 - c) * t4
        blue = round(c)
        return (red if 0 <= red <= 255 else (0 if red < 0 else 255),
                green if 0 <= green <= 255 else (0 if green < 0 else 255),
                blue if 0 <= blue <= 255 else (0 if blue < 0 else 255), 255)
    return fn


@surface_cache(2, 16, kept=True)
def _shading(kind: str) -> pygame.Surface:
    """The ball's shading on a 56x56 grid, computed once per kind and scaled for every size."""
    return radial_gradient(56, 56, _sphere_fn(MARBLE_COLORS.get(kind, MARBLE_COLORS["Zero"])), grid=56)


def _symbol_polys(kind: str):
    if kind == "Coin":
        return [transform(p, 0, 0, 0.8) for p in lily_polys()], None
    if kind == "Servant":
        return [transform(p, 0, 0.02, 0.8) for p in hood_polys()], None
    if kind == "Shield":
        return [transform(heater_poly(), 0, 0, 0.78)], None
    if kind == "Stone":
        return None, [transform(p, 0, 0, 0.78) for p in cube_polys()]
    if kind == "Faith":
        return [transform(cross_poly(), 0, 0, 0.8)], None
    return None, [transform(star(6, 0.34, 0.16), 0, 0, 1.0)]


@surface_cache(3, 128, kept=True)
def marble(kind: str, diameter: int) -> pygame.Surface:
    """A shaded glass marble of ``kind`` (Zero, Shield, Stone, Coin, Servant, Faith), ``diameter`` square."""
    d = max(1, int(diameter))
    k = ss_factor(d)
    S = d * k
    col = MARBLE_COLORS.get(kind, MARBLE_COLORS["Zero"])
    out = canvas(S, S)
    c = S / 2
    R = S * 0.44
    cy = S * 0.47
    # soft contact shadow under the ball
    sh = canvas(S, S)
    pygame.draw.ellipse(sh, (20, 12, 6, 120), (c - R * 0.9, cy + R * 0.55, R * 1.8, R * 0.55))
    out.blit(blur(sh, max(1, S // 30)), (0, 0))
    ball = canvas(S, S)
    pygame.draw.circle(ball, (255, 255, 255), (c, cy), R)
    shading = pygame.transform.smoothscale(_shading(kind), (max(1, round(2 * R)), max(1, round(2 * R))))
    body = canvas(S, S)
    body.blit(shading, (c - R, cy - R))
    body = clip_to(body, ball)
    # the etched symbol: a dark groove under a pale fill
    fills, lines = _symbol_polys(kind)
    sym = canvas(S, S)
    ink_dark = (*shade(col, -0.6), 200) if kind != "Zero" else (120, 118, 112, 150)
    ink_light = (255, 255, 255, 175) if kind != "Zero" else (255, 255, 255, 110)
    scale = R * 0.95
    off = max(1.0, S * 0.012)
    for dx, dy, color in ((off, off, ink_dark), (0, 0, ink_light)):
        if fills:
            for p in fills:
                pygame.draw.polygon(sym, color, transform(p, c + dx, cy + dy, scale))
        if lines:
            for p in lines:
                pygame.draw.polygon(sym, color, transform(p, c + dx, cy + dy, scale), max(1, round(S * 0.03)))
    if kind == "Zero":
        pygame.draw.circle(sym, (150, 146, 140, 110), (c + off, cy + off), R * 0.6, max(1, round(S * 0.022)))
        pygame.draw.circle(sym, (255, 255, 255, 120), (c, cy), R * 0.6, max(1, round(S * 0.022)))
    body.blit(sym, (0, 0))
    # rim, specular highlight and a small secondary glint
    tdraw(body, "circle", (*shade(col, -0.75), 200), (c, cy), R, max(1, round(S * 0.018)))
    hl = canvas(S, S)
    pygame.draw.ellipse(hl, (255, 255, 255, 220), (c - R * 0.62, cy - R * 0.74, R * 0.62, R * 0.4))
    hl = blur(hl, max(1, S // 40))
    body.blit(hl, (0, 0))
    tdraw(body, "circle", (255, 255, 255, 150), (c + R * 0.45, cy + R * 0.5), R * 0.07)
    out.blit(body, (0, 0))
    return down(out, (d, d))
