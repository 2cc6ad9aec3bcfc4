"""EB Garamond, cached: ``font``, ``render`` and ``fit``.

One ``pygame.font.Font`` per style serves every size (its point size is set before each use):
each Font object holds its own FreeType face, HarfBuzz tables and glyph cache (about 180 KB), and
a game's board and menus use some eighty sizes. Rendered texts are cached, so the font is only
asked for what is new. Take a font, use it, and ask again after calling anything that may ask
for another size."""
from __future__ import annotations

import functools

import pygame

from game.resources import ASSETS_DIR
from ..memory import surface_cache

FONTS_DIR = ASSETS_DIR / "fonts"
_FILES = {
    "regular": "EBGaramond12LF-Regular.ttf",
    "italic": "EBGaramond12LF-Italic.ttf",
    "caps": "EBGaramondSC12LF-Regular.ttf",
}


def font(size: int, style: str = "regular") -> pygame.font.Font:
    """EB Garamond at ``size`` px; ``style`` is "regular", "italic" or "caps" (small capitals).
    The same object for every size of a style (see the module's note)."""
    if not pygame.font.get_init():   # pygame was quit and started again: old Font objects are dead
        pygame.font.init()
        _face.cache_clear()
        _render.cache_clear()
    f = _face(style)
    size = max(1, int(size))
    if f.point_size != size:
        f.point_size = size
    return f


@functools.lru_cache(maxsize=None)
def _face(style: str) -> pygame.font.Font:
    if style not in _FILES:
        raise ValueError(f"unknown font style {style!r}")
    return pygame.font.Font(FONTS_DIR / _FILES[style], 12)


@surface_cache(6, 1024, kept=True)   # a board shows a few hundred texts (0.3 MB of them at 1920x1080), a menu a few
# large titles (300 KB each): 6 MB holds several screens. (16 MB filled up with every log line and
# title of a whole game: the resident memory crept by it, about 0.5 MB a round.)
def _render(text: str, size: int, color: tuple, style: str) -> pygame.Surface:
    return font(size, style).render(text, True, color)


def render(text: str, size: int, color, style: str = "regular") -> pygame.Surface:
    """``text`` rendered antialiased with a transparent background (cached; do not draw on it)."""
    return _render(str(text), int(size), tuple(color), style)


@functools.lru_cache(maxsize=2048)
def fit(text: str, max_width: int, size: int, style: str = "regular") -> int:
    """The largest font size not above ``size`` (and at least 1) at which ``text`` fits ``max_width``."""
    s = int(size)
    while s > 1 and font(s, style).size(text)[0] > max_width:
        s -= 1
    return s


@surface_cache(4, 512, kept=True)
def _ink(text: str, size: int, color: tuple, style: str, halo: tuple | None, bold: bool) -> pygame.Surface:
    f = font(size, style)
    base = f.render(text, True, color)
    w, h = base.get_size()
    pad = max(1, size // 12) + 1
    out = pygame.Surface((w + pad * 2 + 1, h + pad * 2), pygame.SRCALPHA)
    if halo is not None:
        ring = f.render(text, True, halo[:3])
        if len(halo) > 3:
            ring.set_alpha(halo[3])
        r = max(1, size // 14)
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                if dx * dx + dy * dy <= r * r + r:
                    out.blit(ring, (pad + dx, pad + dy))
    out.blit(base, (pad, pad))
    if bold:
        out.blit(base, (pad + max(1, size // 40), pad))
    box = out.get_bounding_rect(min_alpha=8)
    return out.subsurface(box).copy() if box.w and box.h else out


def ink(text: str, size: int, color, style: str = "regular", *, halo=None, bold: bool = False
        ) -> pygame.Surface:
    """``text`` cropped to its inked pixels (for optical centring), optionally with a halo and faux bold."""
    return _ink(str(text), max(1, int(size)), tuple(color), style,
                tuple(halo) if halo is not None else None, bold)


@surface_cache(4, 1024, kept=True)
def _figures(text: str, height: int, color: tuple, halo: tuple | None, bold: bool) -> pygame.Surface:
    size = max(4, round(height / 0.66))  # EB Garamond's cap height is about two thirds of the em
    glyphs = []
    for ch in text:
        if ch == " ":
            glyphs.append(None)
            continue
        g = _ink(ch, size, color, "regular", halo, bold)
        if ch.isdigit() and g.get_height() != height:
            # old-style figures have x-height, ascending and descending forms: set them all to one height
            k = height / g.get_height()
            kw = k if ch in "012" else 1.0 + (k - 1.0) * 0.5
            g = pygame.transform.smoothscale(g, (max(1, round(g.get_width() * min(kw, 1.25))), height))
        glyphs.append(g)
    gap = max(0, round(height * 0.06)) - (max(1, size // 14) if halo else 0)
    space = round(height * 0.3)
    w = sum((g.get_width() if g else space) for g in glyphs) + gap * max(0, len(glyphs) - 1)
    h = max([height] + [g.get_height() for g in glyphs if g])
    out = pygame.Surface((max(1, w), h), pygame.SRCALPHA)
    x = 0
    for g in glyphs:
        if g is None:
            x += space + gap
            continue
        out.blit(g, (x, (h - g.get_height()) // 2))
        x += g.get_width() + gap
    return out


def figures(text: str, height: int, color, *, halo=None, bold: bool = False) -> pygame.Surface:
    """Numbers (with signs such as + − ×) set as even "lining" figures ``height`` px tall, cropped."""
    return _figures(str(text), max(2, int(height)), tuple(color), tuple(halo) if halo is not None else None, bold)
