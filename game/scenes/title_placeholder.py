"""A placeholder title card, drawn entirely by code.

It stands in for the menu until the real scenes exist: a parchment page with
a double-ruled border, corner ornaments, the title set in EB Garamond and a
line saying what is being built. It holds no game state and reads no input;
``main.py`` owns the window and the event loop.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pygame

TITLE = "Masters of Renaissance"
KICKER = "A digital edition of the board game"
SUBTITLE = "The board is coming \u2014 the rules engine is being built first."
FOOTER = "Press Esc to leave"

# Palette: paper, iron-gall ink, oxblood and a muted gold leaf.
PAPER_TOP = (246, 236, 212)
PAPER_BOTTOM = (226, 204, 160)
VIGNETTE = (92, 58, 24)
INK = (52, 32, 18)
SEPIA = (98, 66, 38)
OXBLOOD = (122, 42, 30)
GOLD = (168, 128, 58)

REGULAR = "EBGaramond12-Regular.ttf"
ITALIC = "EBGaramond12-Italic.ttf"
SMALL_CAPS = "EBGaramondSC12-Regular.ttf"

# Ornaments are drawn at this multiple of the final size and scaled down,
# which antialiases every shape at once.
_SUPERSAMPLE = 2


class TitlePlaceholder:
    """Draws the title card onto any surface, at any size.

    The finished picture is cached per surface size, so a frame costs one blit
    until the window is resized.

    :param fonts_dir: folder holding the EB Garamond files named above.
    :raises FileNotFoundError: if a font file is missing.
    """

    def __init__(self, fonts_dir: Path) -> None:
        self._fonts_dir = Path(fonts_dir)
        for name in (REGULAR, ITALIC, SMALL_CAPS):
            if not (self._fonts_dir / name).is_file():
                raise FileNotFoundError(self._fonts_dir / name)
        self._fonts: dict[tuple[str, int], pygame.font.Font] = {}
        self._cache: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole card onto ``surface``; changes nothing else."""
        size = surface.get_size()
        if self._cache is None or self._cache.get_size() != size:
            self._cache = self._render(size)
        surface.blit(self._cache, (0, 0))

    # -- composition -------------------------------------------------------

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        w, h = size
        card = pygame.Surface(size)
        _paint_paper(card)
        card.blit(_ornaments(size), (0, 0))

        unit = min(w / 1280, h / 800)  # 1.0 at the default window size
        cx = w // 2
        title_h = max(24, round(100 * unit))
        title = self._font(REGULAR, title_h).render(TITLE, True, INK)
        title_y = round(h * 0.44) - title.get_height() // 2

        kicker = _tracked(self._font(SMALL_CAPS, max(12, round(26 * unit))),
                          KICKER.lower(), OXBLOOD, max(1, round(3 * unit)))
        card.blit(kicker, kicker.get_rect(midbottom=(cx, title_y - round(2 * unit))))

        # A faint pressed-in shadow under the title, like ink on soft paper.
        shadow = self._font(REGULAR, title_h).render(TITLE, True, (214, 190, 146))
        card.blit(shadow, shadow.get_rect(midtop=(cx + max(1, round(2 * unit)),
                                                  title_y + max(1, round(2 * unit)))))
        title_rect = card.blit(title, title.get_rect(midtop=(cx, title_y)))

        rule_y = title_rect.bottom + round(18 * unit)
        card.blit(_divider(round(520 * unit), unit), _centered(cx, rule_y, round(520 * unit), unit))

        subtitle = self._font(ITALIC, max(12, round(30 * unit))).render(SUBTITLE, True, SEPIA)
        card.blit(subtitle, subtitle.get_rect(midtop=(cx, rule_y + round(30 * unit))))

        footer = _tracked(self._font(SMALL_CAPS, max(10, round(20 * unit))),
                          FOOTER.lower(), _mix(SEPIA, PAPER_BOTTOM, 0.35), max(1, round(2 * unit)))
        card.blit(footer, footer.get_rect(midbottom=(cx, h - round(62 * unit))))
        return card

    def _font(self, name: str, px: int) -> pygame.font.Font:
        key = (name, px)
        if key not in self._fonts:
            self._fonts[key] = pygame.font.Font(self._fonts_dir / name, px)
        return self._fonts[key]


# -- drawing helpers ---------------------------------------------------------


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """Blend colour ``a`` towards ``b`` by ``t`` (0 gives ``a``)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def _paint_paper(card: pygame.Surface) -> None:
    """Fill ``card`` with a vertical parchment gradient, a vignette and grain."""
    w, h = card.get_size()
    for y in range(h):
        t = y / max(1, h - 1)
        card.fill(_mix(PAPER_TOP, PAPER_BOTTOM, t * t * 0.6 + t * 0.4), (0, y, w, 1))

    # Vignette: a tiny alpha map scaled up smoothly, darker towards the edges.
    cols, rows = 64, 40
    small = pygame.Surface((cols, rows), pygame.SRCALPHA)
    for j in range(rows):
        for i in range(cols):
            dx = (i + 0.5) / cols * 2 - 1
            dy = (j + 0.5) / rows * 2 - 1
            d = min(1.0, math.hypot(dx * 0.92, dy))
            small.set_at((i, j), (*VIGNETTE, round(96 * d ** 3.6)))
    card.blit(pygame.transform.smoothscale(small, (w, h)), (0, 0))

    # Paper grain: faint flecks, always the same for a given size.
    rng = random.Random(1592)
    grain = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(w * h // 90):
        x, y = rng.randrange(w), rng.randrange(h)
        shade = rng.choice(((120, 90, 50), (255, 248, 230)))
        grain.set_at((x, y), (*shade, rng.randint(10, 34)))
    card.blit(grain, (0, 0))


def _ornaments(size: tuple[int, int]) -> pygame.Surface:
    """The double-ruled border, corner fleurons and edge marks, antialiased."""
    w, h = size
    s = _SUPERSAMPLE
    unit = min(w / 1280, h / 800) * s
    layer = pygame.Surface((w * s, h * s), pygame.SRCALPHA)

    def px(v: float) -> int:
        return max(1, round(v * unit))

    outer = pygame.Rect(0, 0, w * s, h * s).inflate(-2 * px(24), -2 * px(24))
    inner = outer.inflate(-2 * px(9), -2 * px(9))
    pygame.draw.rect(layer, SEPIA, outer, px(2.2))
    pygame.draw.rect(layer, GOLD, inner, px(1.1))
    innermost = inner.inflate(-2 * px(5), -2 * px(5))
    pygame.draw.rect(layer, (*SEPIA, 150), innermost, px(0.8))

    for corner in (outer.topleft, outer.topright, outer.bottomleft, outer.bottomright):
        _fleuron(layer, corner, px(15))
    for mid in (outer.midtop, outer.midbottom, outer.midleft, outer.midright):
        _diamond(layer, mid, px(7), OXBLOOD)
        _diamond(layer, mid, px(3), GOLD)

    return pygame.transform.smoothscale(layer, size)


def _diamond(layer: pygame.Surface, center: tuple[int, int], r: int, colour) -> None:
    x, y = center
    pygame.draw.polygon(layer, colour, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)])


def _fleuron(layer: pygame.Surface, center: tuple[int, int], r: int) -> None:
    """A small four-petalled rosette sitting on a border corner."""
    x, y = center
    pygame.draw.circle(layer, PAPER_TOP, center, round(r * 1.05))
    for ang in range(0, 360, 90):
        a = math.radians(ang + 45)
        px_, py_ = x + math.cos(a) * r * 0.55, y + math.sin(a) * r * 0.55
        pygame.draw.circle(layer, OXBLOOD, (round(px_), round(py_)), round(r * 0.42))
    pygame.draw.circle(layer, SEPIA, center, round(r * 1.05), max(1, r // 7))
    pygame.draw.circle(layer, GOLD, center, round(r * 0.32))
    pygame.draw.circle(layer, SEPIA, center, round(r * 0.32), max(1, r // 9))


def _divider(width: int, unit: float) -> pygame.Surface:
    """A rule that thins out to each side with a lozenge at its centre."""
    s = _SUPERSAMPLE
    W, H = width * s, max(8, round(28 * unit)) * s
    layer = pygame.Surface((W, H), pygame.SRCALPHA)
    mid_x, mid_y = W // 2, H // 2
    r = H // 3
    thick = max(2, round(2.4 * unit * s))
    # Tapering rules, drawn column by column so they thin out smoothly.
    half = thick / 2
    span = W // 2 - r * 2 - s
    for i in range(span):
        t = 1 - i / span  # 1 next to the lozenge, 0 at the far end
        hh = max(0.5, half * (0.25 + 0.75 * t))
        alpha = round(255 * min(1.0, 0.25 + t))
        for x in (mid_x - r * 2 - i, mid_x + r * 2 + i):
            pygame.draw.line(layer, (*SEPIA, alpha), (x, round(mid_y - hh)), (x, round(mid_y + hh)))
    for side in (-1, 1):
        dot = mid_x + side * round(r * 1.45)
        pygame.draw.circle(layer, GOLD, (dot, mid_y), max(2, r // 4))
    _diamond(layer, (mid_x, mid_y), r, OXBLOOD)
    _diamond(layer, (mid_x, mid_y), max(2, r // 2), GOLD)
    return pygame.transform.smoothscale(layer, (width, H // s))


def _centered(cx: int, top: int, width: int, unit: float) -> tuple[int, int]:
    return cx - width // 2, top


def _tracked(font: pygame.font.Font, text: str, colour, tracking: int) -> pygame.Surface:
    """Render ``text`` with ``tracking`` extra pixels between letters."""
    glyphs = [font.render(ch, True, colour) for ch in text]
    width = sum(g.get_width() for g in glyphs) + tracking * (len(glyphs) - 1)
    out = pygame.Surface((max(1, width), font.get_height()), pygame.SRCALPHA)
    x = 0
    for g in glyphs:
        out.blit(g, (x, 0))
        x += g.get_width() + tracking
    return out
