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
    """The shading of a glass ball of colour ``col`` at (u, v) in [0, 1]^2 (plain float arithmetic:
    it runs for every cell of the gradient grid)."""
    lo = shade(col, -0.55)
    hi = shade(col, 0.55)
    bright = shade(col, 0.4)
    dark = shade(col, -0.7)

    def fn(u, v):
        x, y = u * 2 - 1, v * 2 - 1
        r = math.hypot(x, y)
        # light from the upper left; a darker limb; a bright caustic at the lower right
        lit = max(0.0, 1 - math.hypot(x + 0.38, y + 0.42) / 1.55)
        caustic = max(0.0, 1 - math.hypot(x - 0.38, y - 0.46) / 0.55) ** 2
        t1, t2, t3, t4 = min(1.0, lit * 1.5), lit ** 3 * 0.8, caustic * 0.6, max(0.0, r - 0.8) * 2.5
        out = []
        for i in range(3):
            c = lo[i] + (col[i] - lo[i]) * t1
            c += (hi[i] - c) * t2
            c += (bright[i] - c) * t3
            c += (dark[i] - c) * t4
            out.append(max(0, min(255, round(c))))
        return (*out, 255)
    return fn


@surface_cache(2, 16)
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


@surface_cache(3, 128)
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
