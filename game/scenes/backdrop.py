"""The painted background of the menu scenes, and the base class those scenes share.

Everything here is drawn by code: a parchment page (gradient, vignette and grain) with a
double-ruled border, corner fleurons and edge marks; paper panels for forms and tables; a
tapering divider; letter-spaced small capitals. Pictures are cached per size, so a frame costs a
few blits until the window is resized.

:class:`PaintedScene` is the base of every non-board scene: it paints the backdrop, keeps its
pygame_gui manager themed at the window's scale (``config/theme.json`` with fonts and borders
multiplied by :attr:`PaintedScene.unit`, so widgets stay readable from 1024x640 to 4K), and names
its widgets so events and tests can find them (:attr:`PaintedScene.widgets`).
"""
from __future__ import annotations

import functools
import math
import random
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from .art import fonts
from .scene import Scene, scaled_theme, theme, unit_of  # noqa: F401  (re-exported)
from .memory import surface_cache

# The title card's palette: paper, iron-gall ink, oxblood and a muted gold leaf.
PAPER_TOP = (246, 236, 212)
PAPER_BOTTOM = (226, 204, 160)
PANEL = (250, 243, 226)
VIGNETTE = (92, 58, 24)
INK = (52, 32, 18)
SEPIA = (98, 66, 38)
OXBLOOD = (122, 42, 30)
GOLD = (168, 128, 58)
GOLD_LIGHT = (232, 198, 118)
FADED = (150, 120, 86)
GREEN_INK = (46, 96, 58)

# Ornaments are drawn at this multiple of the final size and scaled down, which antialiases
# every shape at once.
_SUPERSAMPLE = 2


def mix(a, b, t: float) -> tuple[int, int, int]:
    """Blend colour ``a`` towards ``b`` by ``t`` (0 gives ``a``)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a[:3], b[:3]))  # type: ignore[return-value]


# ---------------------------------------------------------------------------- the page
class Backdrop:
    """The parchment page with its border, drawn onto any surface at any size (cached)."""

    def __init__(self) -> None:
        self._cache: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole page onto ``surface``; changes nothing else."""
        size = surface.get_size()
        if self._cache is None or self._cache.get_size() != size:
            self._cache = _render_page(size)
        surface.blit(self._cache, (0, 0))


BACKDROP = Backdrop()
"""One backdrop for every menu scene, so the page is painted once per window size."""


def _render_page(size: tuple[int, int]) -> pygame.Surface:
    page = pygame.Surface(size)
    paint_paper(page)
    page.blit(ornaments(size), (0, 0))
    return page


def paint_paper(card: pygame.Surface) -> None:
    """Fill ``card`` with a vertical parchment gradient, a vignette and grain."""
    w, h = card.get_size()
    for y in range(h):
        t = y / max(1, h - 1)
        card.fill(mix(PAPER_TOP, PAPER_BOTTOM, t * t * 0.6 + t * 0.4), (0, y, w, 1))

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

    # Paper grain: faint flecks, always the same for a given size. Drawn on a tile that repeats,
    # so a 4K page costs no more than a small one.
    tile = _grain_tile()
    for y in range(0, h, tile.get_height()):
        for x in range(0, w, tile.get_width()):
            card.blit(tile, (x, y))


@surface_cache(1, 1, kept=True)
def _grain_tile() -> pygame.Surface:
    rng = random.Random(1592)
    w, h = 512, 384
    grain = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(w * h // 90):
        x, y = rng.randrange(w), rng.randrange(h)
        shade = rng.choice(((120, 90, 50), (255, 248, 230)))
        grain.set_at((x, y), (*shade, rng.randint(10, 34)))
    return grain


def ornaments(size: tuple[int, int]) -> pygame.Surface:
    """The double-ruled border, corner fleurons and edge marks.

    The rules are axis-aligned and drawn at full size; the round ornaments are drawn on small
    supersampled sprites (so a 4K page does not need a 4K x 2 scratch surface).
    """
    w, h = size
    unit = unit_of(size)
    layer = pygame.Surface((w, h), pygame.SRCALPHA)

    def px(v: float) -> int:
        return max(1, round(v * unit))

    outer = pygame.Rect(0, 0, w, h).inflate(-2 * px(24), -2 * px(24))
    inner = outer.inflate(-2 * px(9), -2 * px(9))
    pygame.draw.rect(layer, SEPIA, outer, px(2.2))
    pygame.draw.rect(layer, GOLD, inner, px(1.1))
    innermost = inner.inflate(-2 * px(5), -2 * px(5))
    pygame.draw.rect(layer, (*SEPIA, 150), innermost, px(0.8))

    rosette = _sprite(px(15) * 2 + 4, lambda l, c, s: fleuron(l, c, round(px(15) * s)))
    mark = _sprite(px(7) * 2 + 4, lambda l, c, s: (diamond(l, c, round(px(7) * s), OXBLOOD),
                                                   diamond(l, c, round(px(3) * s), GOLD)))
    for corner in (outer.topleft, outer.topright, outer.bottomleft, outer.bottomright):
        layer.blit(rosette, rosette.get_rect(center=corner))
    for mid in (outer.midtop, outer.midbottom, outer.midleft, outer.midright):
        layer.blit(mark, mark.get_rect(center=mid))
    return layer


def _sprite(side: int, paint) -> pygame.Surface:
    """A ``side`` x ``side`` antialiased sprite: ``paint(layer, centre, scale)`` at 4x, scaled down."""
    k = 4
    big = pygame.Surface((side * k, side * k), pygame.SRCALPHA)
    paint(big, (side * k // 2, side * k // 2), k)
    return pygame.transform.smoothscale(big, (side, side))


def diamond(layer: pygame.Surface, center: tuple[int, int], r: int, colour) -> None:
    x, y = center
    pygame.draw.polygon(layer, colour, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)])


def fleuron(layer: pygame.Surface, center: tuple[int, int], r: int) -> None:
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


@surface_cache(2, 32, kept=True)
def divider(width: int, unit: float) -> pygame.Surface:
    """A rule that thins out to each side with a lozenge at its centre."""
    s = _SUPERSAMPLE
    W, H = width * s, max(8, round(28 * unit)) * s
    layer = pygame.Surface((W, H), pygame.SRCALPHA)
    mid_x, mid_y = W // 2, H // 2
    r = H // 3
    thick = max(2, round(2.4 * unit * s))
    half = thick / 2
    span = max(1, W // 2 - r * 2 - s)
    for i in range(span):
        t = 1 - i / span  # 1 next to the lozenge, 0 at the far end
        hh = max(0.5, half * (0.25 + 0.75 * t))
        alpha = round(255 * min(1.0, 0.25 + t))
        for x in (mid_x - r * 2 - i, mid_x + r * 2 + i):
            pygame.draw.line(layer, (*SEPIA, alpha), (x, round(mid_y - hh)), (x, round(mid_y + hh)))
    for side in (-1, 1):
        dot = mid_x + side * round(r * 1.45)
        pygame.draw.circle(layer, GOLD, (dot, mid_y), max(2, r // 4))
    diamond(layer, (mid_x, mid_y), r, OXBLOOD)
    diamond(layer, (mid_x, mid_y), max(2, r // 2), GOLD)
    return pygame.transform.smoothscale(layer, (width, H // s))


def tracked(text: str, size: int, colour, tracking: int, style: str = "caps") -> pygame.Surface:
    """Render ``text`` with ``tracking`` extra pixels between letters (cached: do not draw on it)."""
    return _tracked(str(text), int(size), tuple(colour), int(tracking), style)


@surface_cache(1, 256, kept=True)   # (keyed by its words: the pages set theirs at every frame, a glyph at a time)
def _tracked(text: str, size: int, colour: tuple, tracking: int, style: str) -> pygame.Surface:
    font = fonts.font(size, style)
    glyphs = [font.render(ch, True, colour) for ch in text]
    width = sum(g.get_width() for g in glyphs) + tracking * (len(glyphs) - 1)
    out = pygame.Surface((max(1, width), font.get_height()), pygame.SRCALPHA)
    x = 0
    for g in glyphs:
        out.blit(g, (x, 0))
        x += g.get_width() + tracking
    return out


@surface_cache(12, 16)
def panel(w: int, h: int, unit: float, tint: tuple[int, int, int] = PANEL) -> pygame.Surface:
    """A sheet of lighter paper with a soft shadow and a thin double rule (the same size as
    ``w`` x ``h``; the shadow falls inside the margin it leaves)."""
    sh = max(2, round(6 * unit))
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    # the shadow: drawn small and scaled up, which blurs it for free
    k = 4
    small = pygame.Surface((max(1, w // k), max(1, h // k)), pygame.SRCALPHA)
    body_small = pygame.Rect(0, 0, (w - sh) // k, (h - sh) // k).move(max(1, sh // k), max(1, sh // k))
    pygame.draw.rect(small, (*VIGNETTE, 70), body_small, border_radius=max(1, round(10 * unit) // k))
    out.blit(pygame.transform.smoothscale(small, (w, h)), (0, 0))
    # the sheet, supersampled for smooth corners (not needed, and slow, on big screens)
    s = _SUPERSAMPLE if w * h < 1_200_000 else 1
    bw, bh = w - sh, h - sh
    big = pygame.Surface((bw * s, bh * s), pygame.SRCALPHA)
    rad = max(4, round(10 * unit * s))
    body = big.get_rect()
    pygame.draw.rect(big, (*tint, 246), body, border_radius=rad)
    pygame.draw.rect(big, (*SEPIA, 220), body, max(2, round(1.6 * unit * s)), border_radius=rad)
    inner = body.inflate(-round(14 * unit * s), -round(14 * unit * s))
    pygame.draw.rect(big, (*GOLD, 200), inner, max(1, round(1.0 * unit * s)), border_radius=max(2, rad // 2))
    out.blit(pygame.transform.smoothscale(big, (bw, bh)) if s > 1 else big, (0, 0))
    return out


@surface_cache(8, 64)
def glow(size: tuple[int, int], radius: int, colour, spread: int) -> pygame.Surface:
    """A soft halo of ``colour`` around a rounded rect of ``size``, ``spread`` pixels wide on each side
    (a glow for lifted cards, or a shadow in a dark colour). Its centre goes on the rect's centre.
    Cached: do not draw on it."""
    w, h = size
    small = pygame.Surface((max(1, (w + 2 * spread) // 4), max(1, (h + 2 * spread) // 4)), pygame.SRCALPHA)
    r = pygame.Rect(spread // 4, spread // 4, w // 4, h // 4)
    for i in range(spread // 4, 0, -1):
        a = round(150 * (1 - i / (spread / 4)) ** 1.6)
        pygame.draw.rect(small, (*colour, a), r.inflate(2 * i, 2 * i), border_radius=max(1, radius // 4 + i))
    pygame.draw.rect(small, (*colour, 190), r, border_radius=max(1, radius // 4))
    return pygame.transform.smoothscale(small, (w + 2 * spread, h + 2 * spread))


def title_block(surface: pygame.Surface, text: str, kicker: str | None, center_x: int, top: int,
                unit: float, size: float = 100) -> int:
    """The big title with its kicker above and a divider below; returns the divider's bottom."""
    title_h = max(24, round(size * unit))
    y = top
    t = fonts.render(text, title_h, INK)
    if kicker:
        k = tracked(kicker.lower(), max(12, round(26 * unit * size / 100)), OXBLOOD, max(1, round(3 * unit)))
        surface.blit(k, k.get_rect(midtop=(center_x, y)))
        # the title's capitals stand clear of the kicker's letters (a smaller title has less room
        # above its capitals inside its line: it was set against the kicker)
        ink_gap = max(6, round(10 * unit))
        y = max(y + k.get_height() - round(4 * unit),
                y + k.get_bounding_rect().bottom + ink_gap - t.get_bounding_rect().top)
    shadow = fonts.render(text, title_h, (214, 190, 146))
    off = max(1, round(2 * unit))
    surface.blit(shadow, shadow.get_rect(midtop=(center_x + off, y + off)))
    r = surface.blit(t, t.get_rect(midtop=(center_x, y)))
    rule_w = round(min(520 * unit * size / 100, surface.get_width() * 0.6))
    rule_y = r.bottom + round(6 * unit)
    d = divider(rule_w, unit)
    surface.blit(d, (center_x - rule_w // 2, rule_y))
    return rule_y + d.get_height()


def wrap(text: str, size: int, width: int, style: str = "regular") -> list[str]:
    """``text`` broken into lines no wider than ``width`` at this font size."""
    return list(_wrapped(text, size, width, style))


@functools.lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int, style: str) -> tuple[str, ...]:
    """(:func:`wrap`'s lines, measured once: the pages wrap their words at every frame, a
    measure of the font per word, a tenth of a menu's frame.)"""
    font = fonts.font(size, style)
    lines: list[str] = []
    for para in text.split("\n"):
        words, line = para.split(" "), ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if line and font.size(trial)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return tuple(lines)


def wrap_within(text: str, size: int, width: int, height: int, smallest: int, style: str = "regular",
                leading: float = 1.18) -> tuple[list[str], int]:
    """``text`` wrapped at the largest size from ``size`` down to ``smallest`` whose lines stand
    within ``height``: (the lines, their size); at ``smallest`` if none does."""
    for s in range(size, smallest - 1, -1):
        lines = wrap(text, s, width, style)
        if len(lines) * round(s * leading) <= height:
            break
    return lines, s


def blit_lines(surface: pygame.Surface, lines: list[str], size: int, colour, x: int, y: int,
               style: str = "regular", align: str = "left", leading: float = 1.18) -> int:
    """Draw ``lines`` from ``y`` (left-aligned at ``x``, or centred on it); return the bottom."""
    step = round(size * leading)
    for line in lines:
        img = fonts.render(line, size, colour, style)
        rect = img.get_rect(midtop=(x, y)) if align == "center" else img.get_rect(topleft=(x, y))
        surface.blit(img, rect)
        y += step
    return y


# ---------------------------------------------------------------------------- base scene
class PaintedScene(Scene):
    """A menu-like scene: the parchment page, scaled widgets found by name.

    Subclasses override :meth:`layout` (create the widgets for ``self.app.size``) and
    :meth:`paint` (draw text and art over the page); widgets they create with :meth:`button` and
    :meth:`entry` are kept in :attr:`widgets` under their name.
    """

    def __init__(self, app) -> None:
        super().__init__(app)
        self.widgets: dict[str, Any] = {}

    @property
    def unit(self) -> float:
        return unit_of(self.app.size)

    def px(self, v: float) -> int:
        """``v`` design pixels at the current window size."""
        return max(1, round(v * self.unit))

    def build(self) -> None:
        if round(self.unit, 2) != self._ui_scale or tuple(self.ui.window_resolution) != tuple(self.app.size):
            self.fit_ui(self.app.size)
        self.widgets = {}
        self.layout()

    def layout(self) -> None:
        """Create the widgets for the current window size."""

    def draw(self, surface: pygame.Surface) -> None:
        BACKDROP.draw(surface)
        self.paint(surface)

    def paint(self, surface: pygame.Surface) -> None:
        """Draw this scene's text and art over the page (widgets are drawn after)."""

    # widgets -----------------------------------------------------------------------------
    def button(self, name: str, rect: pygame.Rect, text: str, cls: str | None = "@menu",
               tooltip: str | None = None, enabled: bool = True) -> pygame_gui.elements.UIButton:
        b = pygame_gui.elements.UIButton(rect, text, self.ui, tool_tip_text=tooltip,
                                         object_id=ObjectID(class_id=cls, object_id="#" + name))
        if not enabled:
            b.disable()
        self.widgets[name] = b
        return b

    def entry(self, name: str, rect: pygame.Rect, text: str = "", limit: int | None = None
              ) -> pygame_gui.elements.UITextEntryLine:
        e = pygame_gui.elements.UITextEntryLine(rect, self.ui, object_id=ObjectID(object_id="#" + name))
        if limit is not None:
            e.set_text_length_limit(limit)
        e.set_text(text)
        self.widgets[name] = e
        return e

    def read_entries(self, draft: dict[str, str]) -> None:
        """Copy into ``draft`` what is typed in the entries named by its keys (those on screen)."""
        for name in draft:
            widget = self.widgets.get(name)
            if widget is not None:
                draft[name] = widget.get_text()

    def name_of(self, element: Any) -> str | None:
        """The name a widget was created under (None if it is not one of ours)."""
        for name, w in self.widgets.items():
            if w is element:
                return name
        return None

    def on_ui(self, event: pygame.event.Event) -> Any:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            name = self.name_of(event.ui_element)
            if name is not None:
                self.on_button(name)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            name = self.name_of(event.ui_element)
            if name is not None:
                self.on_enter(name)

    def on_button(self, name: str) -> None:
        """The button called ``name`` was pressed."""

    def on_enter(self, name: str) -> None:
        """Return was pressed in the entry called ``name``."""

    def column(self, center_x: int, top: int, width: int, height: int, gap: int, count: int
               ) -> list[pygame.Rect]:
        """``count`` rects of ``width`` x ``height`` stacked from ``top``, centred on ``center_x``."""
        return [pygame.Rect(center_x - width // 2, top + i * (height + gap), width, height) for i in range(count)]


VEIL = (30, 20, 12, 175)
BLUR = 6
"""The screen behind a question is drawn this many times smaller and scaled back up (a blur)."""


def dim(surface: pygame.Surface) -> None:
    """Blur and darken what is on ``surface``: the screen behind a modal question. Done in place:
    no window-sized picture is made (two were made every frame a question was up)."""
    w, h = surface.get_size()
    small = pygame.transform.smoothscale(surface, (max(1, w // BLUR), max(1, h // BLUR)))
    try:
        pygame.transform.smoothscale(small, (w, h), surface)
    except (ValueError, pygame.error):   # a surface smoothscale cannot write into
        surface.blit(pygame.transform.smoothscale(small, (w, h)), (0, 0))
    # the veil: VEIL's colour over everything at VEIL's alpha (out = behind * (1 - a) + colour * a)
    a = VEIL[3]
    surface.fill((256 - a,) * 3, special_flags=pygame.BLEND_RGB_MULT)
    surface.fill(tuple(round(c * a / 255) for c in VEIL[:3]), special_flags=pygame.BLEND_RGB_ADD)
