"""The pieces every card is made of: its frame, ribbons, amounts of resources, a production's
panel and level pips; and the frozen (hashable) form of the ``UpdateGame`` dicts the card caches
are keyed by."""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import bezier, canvas, clip_to, down, inset, linear_gradient, paper, transform
from .icons import resource_icon
from .palette import GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, PARCHMENT, PARCHMENT_DARK, SEPIA, mix, shade


CARD_RATIO = 0.66
_RES_ORDER = ("Coin", "Servant", "Shield", "Stone", "Faith")


def card_width(height: int) -> int:
    """The width of a card ``height`` px tall."""
    return max(1, round(int(height) * CARD_RATIO))


# -- freezing dict arguments ----------------------------------------------------------------------


def freeze(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return ("{", tuple(sorted(((str(k), freeze(v)) for k, v in obj.items()), key=lambda kv: kv[0])))
    if isinstance(obj, (list, tuple)):
        return ("[", tuple(freeze(v) for v in obj))
    return obj


def thaw(obj: Any) -> Any:
    if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == "{":
        return {k: thaw(v) for k, v in obj[1]}
    if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == "[":
        return [thaw(v) for v in obj[1]]
    return obj


def production_for(productions: Any, pid: Any) -> dict | None:
    if pid is None or pid == -1 or productions is None:
        return None
    if isinstance(productions, Mapping):
        return productions.get(pid) or productions.get(str(pid)) or (
            productions.get(int(pid)) if str(pid).lstrip("-").isdigit() else None)
    for p in productions:  # a list, as in the message
        if p.get("id") == pid:
            return p
    return None


def item_list(amounts: Mapping[str, int] | None) -> list[tuple[str, int]]:
    amounts = amounts or {}
    return sorted(((r, int(n)) for r, n in amounts.items() if n),
                  key=lambda rn: _RES_ORDER.index(rn[0]) if rn[0] in _RES_ORDER else 99)


# -- shared pieces ------------------------------------------------------------------------------------


def supersample(h: int) -> int:
    return 4 if h <= 90 else 3 if h <= 220 else 2


def blit_centered(dst: pygame.Surface, src: pygame.Surface, center) -> pygame.Rect:
    return dst.blit(src, src.get_rect(center=(round(center[0]), round(center[1]))))


def card_frame(W: int, H: int, outer, border, body_top, body_bottom, seed: int, *, radius_k: float = 0.055,
           border_k: float = 0.03) -> tuple[pygame.Surface, pygame.Rect]:
    """A card blank: dark edge, gilded border with a bright inner line, textured body. Returns (surf, body)."""
    surf = canvas(W, H)
    rad = round(W * radius_k)
    pygame.draw.rect(surf, outer, (0, 0, W, H), border_radius=rad)
    edge = max(1, round(H * 0.006))
    gilt = pygame.Rect(edge, edge, W - 2 * edge, H - 2 * edge)
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), gilt, border_radius=max(0, rad - edge))
    surf.blit(clip_to(linear_gradient(W, H, shade(border, 0.25), shade(border, -0.2)), shape), (0, 0))
    b = max(2, round(H * border_k))
    body = gilt.inflate(-2 * b, -2 * b)
    pygame.draw.rect(surf, shade(border, -0.45), body.inflate(max(2, edge * 2), max(2, edge * 2)),
                     border_radius=max(0, rad - b))
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), body, border_radius=max(0, rad - b - edge))
    tex = canvas(W, H)
    tex.blit(paper(body.w, body.h, seed, body_top, body_bottom, vig_alpha=70), body.topleft)
    surf.blit(clip_to(tex, shape), (0, 0))
    return surf, body


def count_medallion(n: int, d: int) -> pygame.Surface:
    """An ivory disc with an ink number, for counts laid over icons."""
    s = canvas(d, d)
    pygame.draw.circle(s, INK, (d / 2, d / 2), d / 2)
    pygame.draw.circle(s, IVORY, (d / 2, d / 2), d / 2 - max(1, d * 0.09))
    t = fonts.figures(str(n), round(d * 0.62), INK, bold=True)
    blit_centered(s, t, (d / 2, d / 2))
    return s


def icon_with_count(res: str, n: int, size: int) -> pygame.Surface:
    """An icon of ``size`` with a count medallion on its top-right shoulder (for n > 1 or always)."""
    m = round(size * 0.68)
    s = canvas(size + m // 3, size + m // 3)
    s.blit(resource_icon(res, size), (0, m // 3))
    s.blit(count_medallion(n, m), (size + m // 3 - m, 0))
    return s


def amount_row(items: list[tuple[str, int]], icon: int, num_size: int, color=INK, gap: float = 0.15,
                halo=None) -> pygame.Surface:
    """"2 (icon)  1 (icon)" laid out in a row."""
    parts = []
    for res, n in items:
        t = fonts.figures(str(n), round(num_size * 0.55), color, halo=halo, bold=True)
        parts.append((t, resource_icon(res, icon)))
    g = round(icon * gap)
    w = sum(t.get_width() + g // 2 + ic.get_width() for t, ic in parts) + g * max(0, len(parts) - 1)
    s = canvas(max(1, w), icon)
    x = 0
    for t, ic in parts:
        s.blit(t, (x, (icon - t.get_height()) // 2))
        x += t.get_width() + g // 2
        s.blit(ic, (x, 0))
        x += ic.get_width() + g
    return s


def amount_stack(items: list[tuple[str, int]], blanks: int, icon: int, num_size: int, max_h: int) -> pygame.Surface:
    """A column of "n (icon)" lines; blanks are "?" medallions."""
    lines = [(r, n) for r, n in items] + ([("Any", blanks)] if blanks else [])
    if not lines:
        return canvas(1, 1)
    step = min(icon * 1.12, max_h / len(lines))
    ic = min(icon, round(step / 1.08))
    ns = min(num_size, round(ic * 1.25))
    rows = [amount_row([(r, n)], ic, ns) for r, n in lines]
    w = max(r.get_width() for r in rows)
    h = round(step * (len(lines) - 1) + ic)
    s = canvas(w, h)
    for i, r in enumerate(rows):
        s.blit(r, (w - r.get_width(), round(i * step)))  # right-align numbers+icons
    return s


def production_panel(prod: dict | None, w: int, h: int) -> pygame.Surface:
    """Parchment cartouche: inputs column, a gilded brace and arrow, outputs column."""
    s = canvas(w, h)
    rad = round(min(w, h) * 0.12)
    pygame.draw.rect(s, shade(SEPIA, -0.1), (0, 0, w, h), border_radius=rad)
    inner = pygame.Rect(0, 0, w, h).inflate(-max(2, w // 60) * 2, -max(2, w // 60) * 2)
    shape = canvas(w, h)
    pygame.draw.rect(shape, (255, 255, 255), inner, border_radius=max(0, rad - 2))
    s.blit(clip_to(linear_gradient(w, h, IVORY, mix(PARCHMENT, PARCHMENT_DARK, 0.35)), shape), (0, 0))
    pygame.draw.rect(s, GOLD, inner.inflate(-max(2, w // 30), -max(2, w // 30)), max(1, w // 120),
                     border_radius=max(0, rad - 4))
    if prod is None:
        return s
    icon = round(min(h * 0.31, w * 0.24))
    num = round(icon * 1.2)
    colw = round(w * 0.42)
    left = amount_stack(item_list(prod.get("input")), int(prod.get("inputBlanks") or 0), icon, num, round(h * 0.86))
    right = amount_stack(item_list(prod.get("output")), int(prod.get("outputBlanks") or 0), icon, num, round(h * 0.86))
    blit_centered(s, left, (colw * 0.55, h / 2))
    blit_centered(s, right, (w - colw * 0.55, h / 2))
    # a gilded brace and arrow between the columns
    cx = w / 2
    ah = h * 0.5
    brace = bezier((cx - w * 0.05, h / 2 - ah / 2), (cx + w * 0.0, h / 2 - ah / 2), (cx - w * 0.02, h / 2), 10) \
        + bezier((cx - w * 0.02, h / 2), (cx + w * 0.0, h / 2 + ah / 2), (cx - w * 0.05, h / 2 + ah / 2), 10)
    pygame.draw.lines(s, GOLD_DARK, False, brace, max(1, round(w * 0.014)))
    ar = [(-0.5, -0.16), (0.1, -0.16), (0.1, -0.42), (0.62, 0.0), (0.1, 0.42), (0.1, 0.16), (-0.5, 0.16)]
    pts = transform(ar, cx + w * 0.035, h / 2, w * 0.08)
    pygame.draw.polygon(s, GOLD_DARK, pts)
    pygame.draw.polygon(s, GOLD, inset(pts, max(1, w * 0.006)))
    return s


def ribbon(text: str, w: int, h: int, fill, ink_col=IVORY) -> pygame.Surface:
    """A small banner with swallow-tailed ends carrying ``text`` in small capitals."""
    s = canvas(w, h)
    tail = h * 0.6
    body = [(tail * 0.6, 0), (w - tail * 0.6, 0), (w - tail * 0.6, h), (tail * 0.6, h)]
    lt = [(0, h * 0.15), (tail, h * 0.15), (tail, h * 1.0), (0, h * 1.0), (tail * 0.45, h * 0.58)]
    rt = [(w - x, y) for x, y in lt]
    for p in (lt, rt):
        pygame.draw.polygon(s, shade(fill, -0.45), p)
    pygame.draw.polygon(s, shade(GOLD_DARK, -0.2), body)
    pygame.draw.polygon(s, fill, inset(body, max(1, h * 0.08)))
    if text:
        size = fonts.fit(text, round(w - tail * 2.2), round(h * 0.95), "caps")
        blit_centered(s, fonts.ink(text, size, ink_col, "caps"), (w / 2, h / 2))
    else:  # too small for words: three gold beads
        for i in (-1, 0, 1):
            pygame.draw.circle(s, GOLD_LIGHT, (w / 2 + i * h * 0.7, h / 2), max(1, h * 0.16))
    return s


@surface_cache(2, 64, kept=True)
def pips_strip(level: int, w: int, h: int) -> pygame.Surface:
    """``level`` gold diamonds in a row, as big as fit in ``w``×``h``."""
    w, h = max(1, int(w)), max(1, int(h))
    k = 4
    S = canvas(w * k, h * k)
    n = max(0, int(level))
    if n:
        d = min(h * k, w * k / (n * 1.35))
        gap = d * 0.35
        x0 = (w * k - (n * d + (n - 1) * gap)) / 2 + d / 2
        for i in range(n):
            x = x0 + i * (d + gap)
            pts = transform([(0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0)], x, h * k / 2, d)
            pygame.draw.polygon(S, shade(GOLD_DARK, -0.4), pts)
            pygame.draw.polygon(S, GOLD_LIGHT, inset(pts, d * 0.1))
            pygame.draw.polygon(S, GOLD, transform([(0, 0), (0.5, 0), (0, 0.5), (-0.5, 0)], x, h * k / 2, d * 0.8))
    return down(S, (w, h))
