"""Resource icons and small emblems, each recognisable by shape as well as colour.

Every function returns a square ``SRCALPHA`` surface of the requested size (cached: do not draw
on it, copy it first). Shapes are drawn several times larger and smooth-scaled down.
"""
from __future__ import annotations

import math

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import (tdraw, bezier, canvas, down, drop_shadow, ellipse_points, inset, linear_gradient, clip_to,
                    radial_gradient, ss_factor, star, transform)
from .palette import (GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, OXBLOOD, PARCHMENT, RESOURCE_COLORS, WALNUT,
                      WALNUT_DARK, OAK, mix, shade)

RESOURCES = ("Coin", "Servant", "Shield", "Stone", "Faith")

# -- unit shapes (centred on the origin, about 1.0 across) ---------------------------------------
# Marbles reuse these as flat symbols.


def lily_polys() -> list[list[tuple[float, float]]]:
    """A Florentine lily (the florin's mark): three petals, a band and a foot."""
    centre = [(0, -0.48), (0.07, -0.36), (0.1, -0.2), (0.08, -0.02), (0.04, 0.08), (-0.04, 0.08),
              (-0.08, -0.02), (-0.1, -0.2), (-0.07, -0.36)]
    right = ([(0.05, 0.06)] + bezier((0.06, 0.02), (0.16, -0.3), (0.36, -0.24), 8)
             + bezier((0.36, -0.24), (0.44, -0.12), (0.34, -0.04), 5)
             + [(0.3, -0.1), (0.24, -0.12)] + bezier((0.24, -0.12), (0.16, -0.08), (0.13, 0.06), 5))
    left = [(-x, y) for x, y in right]
    band = [(-0.26, 0.06), (0.26, 0.06), (0.26, 0.16), (-0.26, 0.16)]
    foot = [(-0.04, 0.16), (0.04, 0.16), (0.06, 0.34), (0.0, 0.46), (-0.06, 0.34)]
    foot_r = [(0.06, 0.16), (0.14, 0.16)] + bezier((0.14, 0.16), (0.3, 0.2), (0.3, 0.36), 5) + [(0.2, 0.3), (0.1, 0.22)]
    foot_l = [(-x, y) for x, y in foot_r]
    return [centre, right, left, band, foot, foot_r, foot_l]


def hood_polys() -> list[list[tuple[float, float]]]:
    """A hooded servant: the robe (bell) and the hood with its peak."""
    robe = ([(-0.14, -0.08)] + bezier((-0.14, -0.08), (-0.3, 0.0), (-0.34, 0.44), 8)
            + bezier((-0.34, 0.44), (0.0, 0.52), (0.34, 0.44), 8)
            + bezier((0.34, 0.44), (0.3, 0.0), (0.14, -0.08), 8))
    hood = ([(0.0, -0.5)] + bezier((0.0, -0.5), (0.22, -0.42), (0.2, -0.16), 8)
            + bezier((0.2, -0.16), (0.18, 0.0), (0.0, 0.02), 6)
            + bezier((0.0, 0.02), (-0.18, 0.0), (-0.2, -0.16), 6)
            + bezier((-0.2, -0.16), (-0.2, -0.38), (0.0, -0.5), 8))
    return [robe, hood]


def heater_poly() -> list[tuple[float, float]]:
    """A heater shield: a slightly arched top and curved sides meeting in a point."""
    top = bezier((-0.36, -0.4), (0.0, -0.46), (0.36, -0.4), 8)
    right = bezier((0.36, -0.4), (0.38, 0.18), (0.0, 0.48), 14)
    left = bezier((0.0, 0.48), (-0.38, 0.18), (-0.36, -0.4), 14)
    return top + right[1:] + left[1:]


def cube_polys() -> tuple[list, list, list]:
    """A rough-hewn block seen from above: top, left and right faces."""
    top = [(0.0, -0.42), (0.4, -0.22), (0.02, -0.02), (-0.4, -0.2)]
    left = [(-0.4, -0.2), (0.02, -0.02), (0.02, 0.44), (-0.38, 0.24)]
    right = [(0.02, -0.02), (0.4, -0.22), (0.38, 0.22), (0.02, 0.44)]
    return top, left, right


def cross_poly(flare: float = 0.2, arm: float = 0.46, waist: float = 0.1) -> list[tuple[float, float]]:
    """A cross formée: four straight arms that flare out in concave curves towards their ends."""
    one = [(waist, -waist)] + bezier((waist, -arm * 0.42), (waist * 1.05, -arm * 0.85), (flare, -arm), 8)
    one += [(-x, y) for x, y in reversed(one)]
    pts = []
    for k in range(4):
        a = k * math.pi / 2
        ca, sa = math.cos(a), math.sin(a)
        pts += [(x * ca - y * sa, x * sa + y * ca) for x, y in one[:-1]]
    return pts


# -- helpers -----------------------------------------------------------------------------------


def _poly(surf, color, pts, width=0):
    if len(pts) >= 3:
        pygame.draw.polygon(surf, color, pts, width)


def _finish(big: pygame.Surface, size: int, shadow: bool = True) -> pygame.Surface:
    small = down(big, (size, size))
    if shadow and size >= 14:
        small = drop_shadow(small, (max(1, size // 28), max(1, size // 22)), max(1, size // 24), 90)
    return small


# -- resource icons ------------------------------------------------------------------------------


def _draw_coin(S: int) -> pygame.Surface:
    big = canvas(S, S)
    c = S / 2
    r = S * 0.43
    col = RESOURCE_COLORS["Coin"]
    pygame.draw.circle(big, mix(GOLD_DARK, (0, 0, 0), 0.25), (c, c), r)
    face = canvas(S, S)
    pygame.draw.circle(face, (255, 255, 255), (c, c), r * 0.93)
    grad = linear_gradient(S, S, shade(col, 0.35), shade(col, -0.28))
    big.blit(clip_to(grad, face), (0, 0))
    # rim and beads
    pygame.draw.circle(big, shade(col, -0.35), (c, c), r * 0.76, max(1, round(S * 0.018)))
    for i in range(24):
        a = i * math.tau / 24
        pygame.draw.circle(big, shade(col, -0.3), (c + math.cos(a) * r * 0.845, c + math.sin(a) * r * 0.845),
                           S * 0.016)
    # embossed lily: dark offset then light
    for off, colr in ((S * 0.014, shade(col, -0.45)), (-S * 0.01, shade(col, 0.55)), (0, shade(col, 0.12))):
        for p in lily_polys():
            _poly(big, colr, transform(p, c + off, c + off, S * 0.5))
    # specular glint
    tdraw(big, "ellipse", (255, 250, 220, 90), (c - r * 0.62, c - r * 0.78, r * 0.6, r * 0.3))
    return big


def _draw_servant(S: int) -> pygame.Surface:
    big = canvas(S, S)
    col = RESOURCE_COLORS["Servant"]
    edge = shade(col, -0.6)
    robe, hood = hood_polys()
    sc = S * 0.92
    cx, cy = S * 0.5, S * 0.5
    rp = transform(robe, cx, cy, sc)
    hp = transform(hood, cx, cy, sc)
    w = S * 0.03
    _poly(big, edge, rp)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inset(rp, w))
    grad = linear_gradient(S, S, shade(col, 0.25), shade(col, -0.25), vertical=False)
    big.blit(clip_to(grad, layer), (0, 0))
    # robe folds
    for fx in (-0.12, 0.0, 0.12):
        pts = transform([(fx * 0.6, 0.05), (fx, 0.3), (fx * 1.2, 0.44)], cx, cy, sc)
        pygame.draw.lines(big, shade(col, -0.35), False, pts, max(1, round(S * 0.015)))
    # cord belt
    pygame.draw.lines(big, GOLD_LIGHT, False, transform([(-0.24, 0.14), (0.0, 0.18), (0.24, 0.14)], cx, cy, sc),
                      max(1, round(S * 0.03)))
    _poly(big, edge, hp)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inset(hp, w))
    grad = linear_gradient(S, S, shade(col, 0.35), shade(col, -0.15), vertical=False)
    big.blit(clip_to(grad, layer), (0, 0))
    # shadowed face opening
    face = ellipse_points(0.0, -0.16, 0.11, 0.13, 24)
    _poly(big, shade(col, -0.7), transform(face, cx, cy, sc))
    _poly(big, (214, 170, 130), transform(ellipse_points(0.0, -0.13, 0.065, 0.085, 20), cx, cy, sc))
    return big


def _draw_shield(S: int) -> pygame.Surface:
    big = canvas(S, S)
    col = RESOURCE_COLORS["Shield"]
    pts = transform(heater_poly(), S / 2, S * 0.5, S * 0.98)
    _poly(big, (40, 44, 52), pts)
    _poly(big, (196, 200, 206), inset(pts, S * 0.035))
    inner = inset(pts, S * 0.08)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inner)
    grad = linear_gradient(S, S, shade(col, 0.3), shade(col, -0.3), vertical=False)
    big.blit(clip_to(grad, layer), (0, 0))
    # a silver bend (diagonal band), clipped to the field
    band = canvas(S, S)
    bw = S * 0.09
    pygame.draw.polygon(band, (220, 224, 230), [(S * 0.1, S * 0.1 - bw), (S * 0.1, S * 0.1 + bw),
                                               (S * 0.9, S * 0.9 + bw), (S * 0.9, S * 0.9 - bw)])
    big.blit(clip_to(band, layer), (0, 0))
    pygame.draw.circle(big, (60, 64, 72), (S * 0.5, S * 0.46), S * 0.075)
    pygame.draw.circle(big, (230, 232, 236), (S * 0.49, S * 0.45), S * 0.05)
    return big


def _draw_stone(S: int) -> pygame.Surface:
    big = canvas(S, S)
    top, left, right = (transform(p, S / 2, S * 0.52, S * 0.98) for p in cube_polys())
    edge = (50, 48, 46)
    w = max(1, round(S * 0.03))
    for pts, c in ((top, (206, 202, 194)), (left, (152, 148, 140)), (right, (106, 102, 96))):
        _poly(big, c, pts)
    # chisel marks
    rng = [(0.12, -0.26, 0.2, -0.2), (-0.2, -0.22, -0.06, -0.16), (-0.3, 0.0, -0.18, 0.1),
           (-0.2, 0.22, -0.08, 0.28), (0.16, 0.0, 0.26, -0.04), (0.12, 0.24, 0.28, 0.16)]
    for x0, y0, x1, y1 in rng:
        a, b = transform([(x0, y0), (x1, y1)], S / 2, S * 0.52, S * 0.98)
        tdraw(big, "line", (90, 86, 82, 160), a, b, max(1, round(S * 0.012)))
    for pts in (top, left, right):
        pygame.draw.polygon(big, edge, pts, w)
    outline = [top[0], top[1], right[2], right[3], left[3], left[0]]
    pygame.draw.polygon(big, edge, outline, w + 1)
    return big


def _draw_faith(S: int) -> pygame.Surface:
    big = canvas(S, S)
    col = RESOURCE_COLORS["Faith"]
    pts = transform(cross_poly(), S / 2, S / 2, S)
    _poly(big, (70, 12, 10), pts)
    inner = inset(pts, S * 0.04)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inner)
    grad = linear_gradient(S, S, shade(col, 0.3), shade(col, -0.3))
    big.blit(clip_to(grad, layer), (0, 0))
    # gold centre boss
    pygame.draw.circle(big, GOLD_DARK, (S / 2, S / 2), S * 0.08)
    pygame.draw.circle(big, GOLD_LIGHT, (S / 2 - S * 0.01, S / 2 - S * 0.01), S * 0.055)
    return big


def _draw_any(S: int) -> pygame.Surface:
    big = canvas(S, S)
    c = S / 2
    pygame.draw.circle(big, GOLD_DARK, (c, c), S * 0.43)
    pygame.draw.circle(big, GOLD, (c, c), S * 0.40)
    face = canvas(S, S)
    pygame.draw.circle(face, (255, 255, 255), (c, c), S * 0.34)
    big.blit(clip_to(linear_gradient(S, S, IVORY, mix(PARCHMENT, (200, 170, 120), 0.5)), face), (0, 0))
    q = fonts.font(round(S * 0.62), "regular").render("?", True, OXBLOOD)
    big.blit(q, q.get_rect(center=(c, c + S * 0.03)))
    return big


_DRAWERS = {"Coin": _draw_coin, "Servant": _draw_servant, "Shield": _draw_shield, "Stone": _draw_stone,
            "Faith": _draw_faith, "Any": _draw_any}


@surface_cache(4, 512, kept=True)
def resource_icon(name: str, size: int) -> pygame.Surface:
    """The icon of a resource ("Coin", "Servant", "Shield", "Stone", "Faith") or "Any" (a "?")."""
    size = max(1, int(size))
    draw = _DRAWERS.get(name, _draw_any)
    return _finish(draw(size * ss_factor(size)), size)


# -- badges and small emblems ---------------------------------------------------------------------


@surface_cache(3, 256, kept=True)
def vp_badge(points: int, size: int) -> pygame.Surface:
    """A gold star-burst with a laurel rim and the number of victory points."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    c = S / 2
    big = canvas(S, S)
    _poly(big, GOLD_DARK, transform(star(12, 0.5, 0.41), c, c, S * 0.98))
    _poly(big, GOLD, transform(star(12, 0.46, 0.38), c, c, S * 0.98))
    disc = canvas(S, S)
    pygame.draw.circle(disc, (255, 255, 255), (c, c), S * 0.33)
    big.blit(clip_to(linear_gradient(S, S, GOLD_LIGHT, mix(GOLD, GOLD_LIGHT, 0.2)), disc), (0, 0))
    pygame.draw.circle(big, GOLD_DARK, (c, c), S * 0.33, max(1, round(S * 0.025)))
    small = size < 44
    if not small:  # laurel leaves around the inner disc
        leaf = ellipse_points(0, 0, 0.06, 0.022, 12)
        for side in (-1, 1):
            for k in range(6):
                a = math.pi / 2 + side * (0.45 + k * 0.36)
                x, y = math.cos(a) * 0.27, math.sin(a) * 0.27
                _poly(big, (98, 112, 50), transform(leaf, c + x * S, c + y * S, S, a + side * 1.2))
    txt = str(points)
    fs = round(S * ((0.4 if small else 0.3) if len(txt) == 1 else (0.34 if small else 0.25)))
    t = fonts.figures(txt, fs, INK, bold=small)
    big.blit(t, t.get_rect(center=(c, c)))
    return _finish(big, size)


@surface_cache(2, 128, kept=True)
def level_pips(level: int, size: int) -> pygame.Surface:
    """``level`` gold pips in a row, centred in a ``size`` square."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    big = canvas(S, S)
    n = max(0, int(level))
    if n:
        d = min(S * 0.36, S * 0.94 / (n * 1.25))
        gap = d * 0.25
        total = n * d + (n - 1) * gap
        x0 = (S - total) / 2 + d / 2
        for i in range(n):
            x = x0 + i * (d + gap)
            pts = transform([(0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0)], x, S / 2, d)
            _poly(big, GOLD_DARK, pts)
            _poly(big, GOLD_LIGHT, inset(pts, d * 0.12))
            _poly(big, GOLD, transform([(0, 0), (0.5, 0), (0, 0.5), (-0.5, 0)], x, S / 2, d * 0.76))
    return _finish(big, size, shadow=False)


@surface_cache(1, 64, kept=True)
def black_cross(size: int) -> pygame.Surface:
    """Lorenzo il Magnifico's black cross (with a pale rim so it reads on dark cloth too)."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    big = canvas(S, S)
    pts = transform(cross_poly(), S / 2, S / 2, S)
    _poly(big, (214, 200, 170), pts)
    inner = inset(pts, S * 0.035)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inner)
    big.blit(clip_to(linear_gradient(S, S, (78, 74, 70), (12, 10, 10)), layer), (0, 0))
    pygame.draw.circle(big, (90, 86, 80), (S / 2, S / 2), S * 0.05)
    return _finish(big, size)


@surface_cache(1, 32, kept=True)
def inkwell(size: int) -> pygame.Surface:
    """The first player's inkwell: a squat glass pot with a gold collar and a quill."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    big = canvas(S, S)
    # quill (behind the pot's mouth)
    spine = bezier((0.5, 0.4), (0.62, 0.2), (0.86, 0.04), 16)
    left = bezier((0.52, 0.34), (0.56, 0.1), (0.86, 0.04), 16)
    right = bezier((0.58, 0.36), (0.84, 0.24), (0.86, 0.04), 16)
    vane = [(x * S, y * S) for x, y in left + right[::-1]]
    _poly(big, (120, 110, 96), vane)
    _poly(big, IVORY, inset(vane, S * 0.012))
    pygame.draw.lines(big, (150, 136, 116), False, [(x * S, y * S) for x, y in spine], max(1, round(S * 0.012)))
    # pot
    body = ellipse_points(0.5, 0.7, 0.34, 0.22, 40)
    bp = [(x * S, y * S) for x, y in body]
    _poly(big, (12, 14, 22), bp)
    layer = canvas(S, S)
    _poly(layer, (255, 255, 255), inset(bp, S * 0.02))
    big.blit(clip_to(radial_gradient(S, S, lambda u, v: (*mix((70, 80, 110), (16, 18, 30), min(
        1, math.hypot(u - 0.38, v - 0.58) * 2.2)), 255), 32), layer), (0, 0))
    tdraw(big, "ellipse", (210, 220, 240, 120), (S * 0.26, S * 0.56, S * 0.14, S * 0.07))
    # collar
    pygame.draw.rect(big, GOLD_DARK, (S * 0.36, S * 0.42, S * 0.28, S * 0.1), border_radius=round(S * 0.02))
    pygame.draw.rect(big, GOLD, (S * 0.375, S * 0.43, S * 0.25, S * 0.07), border_radius=round(S * 0.02))
    pygame.draw.ellipse(big, (16, 16, 24), (S * 0.39, S * 0.4, S * 0.22, S * 0.05))
    return _finish(big, size)


_ARROW = [(-0.32, -0.1), (0.04, -0.1), (0.04, -0.28), (0.34, 0.0), (0.04, 0.28), (0.04, 0.1), (-0.32, 0.1)]
_ANGLES = {"right": 0.0, "down": math.pi / 2, "left": math.pi, "up": -math.pi / 2}


@surface_cache(2, 64, kept=True)
def arrow(direction: str, size: int) -> pygame.Surface:
    """A carved wooden button with a gilded arrow pointing ``direction`` (left/right/up/down)."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    big = canvas(S, S)
    m = S * 0.06
    rad = round(S * 0.2)
    r = pygame.Rect(m, m, S - 2 * m, S - 2 * m)
    pygame.draw.rect(big, WALNUT_DARK, r, border_radius=rad)
    inner = r.inflate(-S * 0.05, -S * 0.05)
    face = canvas(S, S)
    pygame.draw.rect(face, (255, 255, 255), inner, border_radius=rad)
    big.blit(clip_to(linear_gradient(S, S, shade(OAK, 0.18), shade(WALNUT, -0.1)), face), (0, 0))
    well = inner.inflate(-S * 0.12, -S * 0.12)
    face = canvas(S, S)
    pygame.draw.rect(face, (255, 255, 255), well, border_radius=round(rad * 0.7))
    big.blit(clip_to(linear_gradient(S, S, shade(WALNUT, -0.25), shade(WALNUT, 0.05)), face), (0, 0))
    a = _ANGLES.get(direction, 0.0)
    pts = transform(_ARROW, S / 2, S / 2, S * 0.95, a)
    _poly(big, (20, 12, 6), transform(_ARROW, S / 2 + S * 0.015, S / 2 + S * 0.02, S * 0.95, a))
    _poly(big, GOLD_DARK, pts)
    _poly(big, GOLD_LIGHT, inset(pts, S * 0.02))
    _poly(big, GOLD, inset(pts, S * 0.045))
    return _finish(big, size)


@surface_cache(2, 32, kept=True)
def padlock(size: int, closed: bool = True) -> pygame.Surface:
    """A small padlock: shut and gilded for an encrypted connection, open and in faded bronze for
    one that is not (drawn here; no publisher's art)."""
    size = max(1, int(size))
    S = size * ss_factor(size)
    big = canvas(S, S)
    metal, dark, light = (GOLD, GOLD_DARK, GOLD_LIGHT) if closed else ((168, 150, 120), (110, 96, 74), (200, 186, 160))
    # the shackle: a thick arch whose legs go into the body; an open lock's is lifted, its left leg free
    thick = max(2, round(S * 0.1))
    lift = 0.0 if closed else 0.08
    r, cy = 0.17, 0.32 - lift
    arc = [(0.5 - r * math.cos(a), cy - r * math.sin(a)) for a in (math.pi * i / 16 for i in range(17))]
    path = [(0.5 - r, 0.48 if closed else 0.36 - lift / 2), *arc, (0.5 + r, 0.48)]
    pts = [(x * S, y * S) for x, y in path]
    for colour, width in ((dark, thick + max(2, round(S * 0.05))), (light, thick)):
        pygame.draw.lines(big, colour, False, pts, width)
        for p in pts:                        # round joints and ends
            pygame.draw.circle(big, colour, p, width / 2)
    # the body: a rounded block with a keyhole
    body = pygame.Rect(S * 0.16, S * 0.42, S * 0.68, S * 0.5)
    pygame.draw.rect(big, dark, body, border_radius=round(S * 0.09))
    face = canvas(S, S)
    pygame.draw.rect(face, (255, 255, 255), body.inflate(-S * 0.06, -S * 0.06), border_radius=round(S * 0.07))
    big.blit(clip_to(linear_gradient(S, S, shade(metal, 0.25), shade(metal, -0.2)), face), (0, 0))
    hole = (S * 0.5, S * 0.62)
    pygame.draw.circle(big, INK, hole, S * 0.07)
    _poly(big, INK, [(S * 0.46, S * 0.64), (S * 0.54, S * 0.64), (S * 0.56, S * 0.8), (S * 0.44, S * 0.8)])
    return _finish(big, size, shadow=False)
