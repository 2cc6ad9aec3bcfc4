"""Drawing helpers shared by the art modules: supersampling, gradients, masks, shadows, textures.

Nothing here needs a display: every surface is a plain ``SRCALPHA`` surface, never converted.
"""
from __future__ import annotations

import math
import random
import sys
from typing import Callable, Iterable, Sequence

import pygame

from .palette import mix
from ..memory import surface_cache

Point = tuple[float, float]


def canvas(w: int, h: int, fill=(0, 0, 0, 0)) -> pygame.Surface:
    surf = pygame.Surface((max(1, int(w)), max(1, int(h))), pygame.SRCALPHA)
    if fill != (0, 0, 0, 0):
        surf.fill(fill)
    return surf


def ss_factor(size: float) -> int:
    """How much to supersample a drawing whose final size is ``size`` px."""
    if size <= 48:
        return 6
    if size <= 120:
        return 4
    if size <= 300:
        return 3
    return 2


def down(surf: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """Smooth-scale ``surf`` to ``size`` (antialiasing everything drawn at a larger scale)."""
    size = (max(1, int(size[0])), max(1, int(size[1])))
    if surf.get_size() == size:
        return surf
    # Halve step by step: smoothscale over large ratios skips pixels.
    while surf.get_width() >= size[0] * 2 and surf.get_height() >= size[1] * 2:
        surf = pygame.transform.smoothscale(surf, (surf.get_width() // 2, surf.get_height() // 2))
    return pygame.transform.smoothscale(surf, size)


def alpha_mask(surf: pygame.Surface) -> pygame.Surface:
    """White with ``surf``'s alpha: blit it with ``BLEND_RGBA_MULT`` to clip to ``surf``'s shape."""
    m = surf.copy()
    m.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)
    return m


def clip_to(texture: pygame.Surface, shape: pygame.Surface) -> pygame.Surface:
    """``texture`` (same size as ``shape``) with its alpha multiplied by ``shape``'s alpha."""
    out = texture.copy()
    out.blit(alpha_mask(shape), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return out


def silhouette(surf: pygame.Surface, color, alpha: int = 255) -> pygame.Surface:
    """A flat copy of ``surf`` in ``color``, keeping its shape (alpha scaled by ``alpha``/255)."""
    s = surf.copy()
    s.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MIN)  # rgb → 0, alpha kept
    s.fill((*color[:3], 0), special_flags=pygame.BLEND_RGBA_ADD)
    if alpha != 255:
        s.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
    return s


def blur(surf: pygame.Surface, radius: int) -> pygame.Surface:
    """``surf`` blurred. Only the part that holds something is blurred, with room around it for
    the blur's reach (``2 * radius``: the same pixels as blurring the whole, at a fraction of the
    cost for a small shape on a large canvas, such as a marble's shadow)."""
    radius = max(1, int(radius))
    area = surf.get_rect()
    box = _holding(surf).inflate(4 * radius + 2, 4 * radius + 2).clip(area)
    if box == area:
        return pygame.transform.gaussian_blur(surf, radius)
    out = canvas(*area.size)
    if box.w and box.h:   # (added to nothing: copied as it is)
        out.blit(pygame.transform.gaussian_blur(surf.subsurface(box).copy(), radius), box.topleft,
                 special_flags=pygame.BLEND_RGBA_ADD)
    return out


def _holding(surf: pygame.Surface) -> pygame.Rect:
    """The smallest rectangle outside which every pixel of ``surf`` is (0, 0, 0, 0): a see-through
    pixel's colour counts too (the blur mixes it into its neighbours)."""
    box = surf.get_bounding_rect()
    coloured = pygame.mask.from_threshold(surf, (0, 0, 0, 0), (1, 1, 1, 1))   # (alpha not compared)
    coloured.invert()
    tinted = coloured.get_bounding_rects()
    if tinted:
        box = box.unionall(tinted) if box.w and box.h else tinted[0].unionall(tinted)
    return box


def drop_shadow(surf: pygame.Surface, offset: tuple[int, int], radius: int, alpha: int = 110,
                color=(30, 18, 8)) -> pygame.Surface:
    """``surf`` over its own blurred shadow, on a canvas of the same size."""
    w, h = surf.get_size()
    pad = radius * 2 + 2
    out = canvas(w, h)
    out.blit(shadow(w, h, pygame.image.tobytes(surf, "RGBA")[3::4], tuple(offset), radius, alpha, tuple(color)),
             (-pad, -pad))
    out.blit(surf, (0, 0))
    return out


@surface_cache(2, 128, kept=True)   # (icons have theirs too: 32 let the cards' go between two draws)
def shadow(w: int, h: int, shape: bytes, offset: tuple[int, int], radius: int, alpha: int = 110,
           color=(30, 18, 8)) -> pygame.Surface:
    """The blurred shadow of a ``w`` x ``h`` picture whose alpha is ``shape`` (a byte a pixel, row
    after row), moved by ``offset``, on a canvas ``radius * 2 + 2`` pixels larger on every side.

    A shadow depends on the shape alone: the leader cards of one size share their emblem's and
    their cartouche's (each blur of them took 30 ms of the 80 a large card takes)."""
    pad = radius * 2 + 2
    sh = canvas(w + pad * 2, h + pad * 2)
    clear = bytes(w * h)
    sh.blit(silhouette(pixels(w, h, (clear, clear, clear, shape)), color, alpha), (pad + offset[0], pad + offset[1]))
    return blur(sh, radius)


def pixels(w: int, h: int, channels: Sequence[Sequence[int]]) -> pygame.Surface:
    """A canvas of ``w`` x ``h`` pixels from their red, green, blue and alpha values (four
    sequences, row after row, each value 0-255; without the fourth, opaque): one write into the
    surface's memory instead of a ``set_at`` per pixel."""
    surf = canvas(w, h)
    if len(channels) == 3:
        channels = (*channels, bytes([255]) * (w * h))
    data = bytearray(w * h * 4)
    for shift, values in zip(surf.get_shifts(), channels):
        at = shift // 8 if sys.byteorder == "little" else 3 - shift // 8
        data[at::4] = bytes(values)
    surf.get_buffer().write(bytes(data))
    return surf


def linear_gradient(w: int, h: int, top, bottom, vertical: bool = True) -> pygame.Surface:
    """A gradient from ``top`` to ``bottom`` (colours may carry alpha)."""
    top = tuple(top) + ((255,) if len(top) == 3 else ())
    bottom = tuple(bottom) + ((255,) if len(bottom) == 3 else ())
    return pygame.transform.scale(_gradient_strip(h if vertical else w, top, bottom, vertical), (w, h))


@surface_cache(0.5, 256, kept=True)   # (a line of pixels each: every card and panel has its gradients)
def _gradient_strip(n: int, top: tuple, bottom: tuple, vertical: bool) -> pygame.Surface:
    """:func:`linear_gradient`'s colours, a pixel each, along one line of ``n`` pixels."""
    ts = [i / max(1, n - 1) for i in range(n)]
    channels = [[round(a + (b - a) * t) for t in ts] if a != b else [round(a)] * n for a, b in zip(top, bottom)]
    return pixels(1, n, channels) if vertical else pixels(n, 1, channels)


def radial_gradient(w: int, h: int, fn: Callable[[float, float], tuple], grid: int = 48) -> pygame.Surface:
    """Evaluate ``fn(u, v) -> rgba`` on a coarse grid (u, v in [0, 1]) and smooth-scale to ``(w, h)``."""
    gw = min(grid, max(2, w))
    gh = min(grid, max(2, h))
    us = [(i + 0.5) / gw for i in range(gw)]
    cells = [fn(u, (j + 0.5) / gh) for j in range(gh) for u in us]
    small = pixels(gw, gh, list(zip(*cells)))
    return pygame.transform.smoothscale(small, (max(1, w), max(1, h)))


def scaled(points: Iterable[Point], s: float, ox: float = 0.0, oy: float = 0.0) -> list[tuple[float, float]]:
    return [(ox + x * s, oy + y * s) for x, y in points]


def transform(points: Iterable[Point], cx: float, cy: float, scale: float, angle: float = 0.0):
    """Rotate (radians) and scale unit points about the origin, then move them to ``(cx, cy)``."""
    ca, sa = math.cos(angle), math.sin(angle)
    return [(cx + (x * ca - y * sa) * scale, cy + (x * sa + y * ca) * scale) for x, y in points]


def inset(points: Sequence[Point], d: float) -> list[Point]:
    """Shrink a polygon towards its centroid by ``d`` (a cheap offset for rims)."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    out = []
    for x, y in points:
        dx, dy = x - cx, y - cy
        r = math.hypot(dx, dy) or 1.0
        k = max(0.0, (r - d) / r)
        out.append((cx + dx * k, cy + dy * k))
    return out


def bezier(p0: Point, p1: Point, p2: Point, n: int = 12, p3: Point | None = None) -> list[Point]:
    """Points of a quadratic (or cubic, with ``p3``) Bézier curve, ``p0`` included."""
    pts = []
    for i in range(n + 1):
        t = i / n
        if p3 is None:
            x = (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0]
            y = (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1]
        else:
            x = ((1 - t) ** 3 * p0[0] + 3 * (1 - t) ** 2 * t * p1[0] + 3 * (1 - t) * t * t * p2[0]
                 + t ** 3 * p3[0])
            y = ((1 - t) ** 3 * p0[1] + 3 * (1 - t) ** 2 * t * p1[1] + 3 * (1 - t) * t * t * p2[1]
                 + t ** 3 * p3[1])
        pts.append((x, y))
    return pts


def star(n: int, r_out: float, r_in: float, rot: float = -math.pi / 2) -> list[Point]:
    pts = []
    for i in range(n * 2):
        r = r_out if i % 2 == 0 else r_in
        a = rot + i * math.pi / n
        pts.append((math.cos(a) * r, math.sin(a) * r))
    return pts


def ellipse_points(cx, cy, rx, ry, n=48, a0=0.0, a1=2 * math.pi) -> list[Point]:
    return [(cx + math.cos(a0 + (a1 - a0) * i / n) * rx, cy + math.sin(a0 + (a1 - a0) * i / n) * ry)
            for i in range(n + 1)]


# -- textures --------------------------------------------------------------


@surface_cache(2, 16, kept=True)
def grain_tile(seed: int, size: int = 128, density: int = 10, dark=(110, 80, 44), light=(255, 250, 236),
               amax: int = 30) -> pygame.Surface:
    """A tileable square of faint flecks."""
    rng = random.Random(seed)
    tile = canvas(size, size)
    for _ in range(size * size // density):
        x, y = rng.randrange(size), rng.randrange(size)
        c = dark if rng.random() < 0.55 else light
        tile.set_at((x, y), (*c, rng.randint(6, amax)))
    return tile


def tile_over(surf: pygame.Surface, tile: pygame.Surface) -> None:
    tw, th = tile.get_size()
    w, h = surf.get_size()
    for y in range(0, h, th):
        for x in range(0, w, tw):
            surf.blit(tile, (x, y))


def paper(w: int, h: int, seed: int = 1592, top=(246, 236, 212), bottom=(228, 206, 164),
          vignette=(110, 70, 30), vig_alpha: int = 80, blotches: bool = True) -> pygame.Surface:
    """Opaque parchment: gradient, mottling, vignette and grain."""
    w, h = max(1, int(w)), max(1, int(h))
    surf = linear_gradient(w, h, top, bottom)
    rng = random.Random(seed * 7919 + w * 31 + h)
    if blotches and w * h > 64:
        # Mottling: soft blobs drawn small and scaled up.
        sw, sh = max(4, w // 8), max(4, h // 8)
        blot = canvas(sw, sh)
        for _ in range(max(3, (sw * sh) // 30)):
            r = rng.uniform(1.5, max(2.0, min(sw, sh) / 3))
            c = (150, 108, 60, rng.randint(6, 18)) if rng.random() < 0.6 else (255, 248, 230, rng.randint(8, 20))
            pygame.draw.circle(blot, c, (rng.uniform(0, sw), rng.uniform(0, sh)), r)
        blot = pygame.transform.smoothscale(blur(blot, 1) if min(sw, sh) > 4 else blot, (w, h))
        surf.blit(blot, (0, 0))
        del blot              # let go before the vignette's layer is made
    if vig_alpha:   # (radial_gradient's, its coarse grid drawn once for every sheet)
        vig = _vignette(min(32, max(2, w)), min(32, max(2, h)), tuple(vignette), vig_alpha)
        surf.blit(pygame.transform.smoothscale(vig, (w, h)), (0, 0))
    tile_over(surf, grain_tile(seed % 7))
    return surf


GRAIN_REACH = 6
"""How far across the grain a grain line's pixels go from its middle (its wave is 3.6 px at most)."""


@surface_cache(0.25, 32, kept=True)
def _vignette(gw: int, gh: int, vignette: tuple, vig_alpha: int) -> pygame.Surface:
    """The coarse grid of :func:`paper`'s vignette (``gw`` x ``gh`` cells), scaled up to each sheet."""
    def fn(u: float, v: float) -> tuple:
        return (*vignette, round(vig_alpha * min(1.0, math.hypot((u * 2 - 1) * 0.95, (v * 2 - 1))) ** 3.2))
    us = [(i + 0.5) / gw for i in range(gw)]
    return pixels(gw, gh, list(zip(*[fn(u, (j + 0.5) / gh) for j in range(gh) for u in us])))


def wood(w: int, h: int, base=(96, 60, 34), seed: int = 7, vertical: bool = False, contrast: float = 1.0,
         bands: Sequence[tuple[int, int]] | None = None) -> pygame.Surface:
    """Opaque wood: row-by-row tone wander, wavy darker grain lines and a few knots' streaks.

    ``bands``: the only stretches across the grain whose pixels will be used (``(start, end)``
    rows, columns when ``vertical``), such as a frame's rails: the grain lines that cannot reach
    them are not drawn. The same random draws are made, so their pixels are those of the whole
    picture (a window-sized frame drew some 500 lines that its panel then covered)."""
    w, h = max(1, int(w)), max(1, int(h))
    L = w if vertical else h  # across the grain
    A = h if vertical else w  # along the grain
    rng = random.Random(seed * 104729 + L)
    sin = math.sin
    col = canvas(1, L)
    t = 0.0
    for i in range(L):
        t = t * 0.9 + rng.uniform(-1, 1) * 0.35
        band = math.sin(i * 0.9 + rng.uniform(0, 0.4)) * 0.05
        k = (t * 0.10 + band) * contrast
        c = mix(base, (0, 0, 0), -k) if k < 0 else mix(base, (255, 230, 190), k * 0.8)
        col.set_at((0, i), (*c, 255))
    strip = pygame.transform.scale(col, (A, L))
    # grain lines
    lines = canvas(A, L)
    xs = range(0, A + 8, 8)
    for _ in range(max(2, L // 3)):
        y0 = rng.uniform(0, L)
        amp = rng.uniform(0.5, 3.0)
        freq = rng.uniform(0.004, 0.02)
        ph = rng.uniform(0, 6.28)
        dark = rng.random() < 0.7
        c = (*(mix(base, (0, 0, 0), 0.45) if dark else mix(base, (255, 220, 170), 0.3)), rng.randint(40, 110))
        if bands is not None and not any(lo - GRAIN_REACH <= y0 < hi + GRAIN_REACH for lo, hi in bands):
            continue
        ph2 = ph * 2
        pts = [(x, y0 + amp * sin(x * freq + ph) + 0.6 * sin(x * freq * 3.1 + ph2)) for x in xs]
        if len(pts) > 1:
            pygame.draw.lines(lines, c, False, pts, 1)
    strip.blit(lines, (0, 0))
    del lines                 # (one window-sized picture fewer while the strip is turned)
    if vertical:
        strip = pygame.transform.rotate(strip, 90)
    return strip


def tdraw(surf: pygame.Surface, shape: str, color, *args, **kw) -> None:
    """``pygame.draw.<shape>`` that blends a translucent colour over ``surf`` (pygame.draw would
    overwrite the pixels, punching see-through holes into an SRCALPHA surface)."""
    fn = getattr(pygame.draw, shape)
    if len(color) == 4 and color[3] < 255:
        layer = canvas(*surf.get_size())
        fn(layer, color, *args, **kw)
        surf.blit(layer, (0, 0))
    else:
        fn(surf, color, *args, **kw)
