"""Development cards, leader cards, card backs, Lorenzo's tokens and the papal favor tiles.

The public functions take plain dicts from the ``UpdateGame`` message; they freeze them into
hashable keys, so each picture is drawn once per (content, size) and then served from a cache
(the same object comes back; copy it before drawing on it).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import (tdraw, bezier, canvas, clip_to, down, drop_shadow, ellipse_points, inset, linear_gradient,
                    paper, radial_gradient, star, transform, grain_tile, tile_over)
from .icons import black_cross, cross_poly, heater_poly, level_pips, resource_icon, vp_badge
from .marbles import marble
from .palette import (CARD_COLORS, GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, OXBLOOD, PARCHMENT, PARCHMENT_DARK,
                      RESOURCE_COLORS, SEPIA, WALNUT, WALNUT_DARK, mix, shade)

CARD_RATIO = 0.66
_RES_ORDER = ("Coin", "Servant", "Shield", "Stone", "Faith")


def card_width(height: int) -> int:
    """The width of a card ``height`` px tall."""
    return max(1, round(int(height) * CARD_RATIO))


# -- freezing dict arguments ----------------------------------------------------------------------


def _freeze(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return ("{", tuple(sorted(((str(k), _freeze(v)) for k, v in obj.items()), key=lambda kv: kv[0])))
    if isinstance(obj, (list, tuple)):
        return ("[", tuple(_freeze(v) for v in obj))
    return obj


def _thaw(obj: Any) -> Any:
    if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == "{":
        return {k: _thaw(v) for k, v in obj[1]}
    if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == "[":
        return [_thaw(v) for v in obj[1]]
    return obj


def _production_for(productions: Any, pid: Any) -> dict | None:
    if pid is None or pid == -1 or productions is None:
        return None
    if isinstance(productions, Mapping):
        return productions.get(pid) or productions.get(str(pid)) or (
            productions.get(int(pid)) if str(pid).lstrip("-").isdigit() else None)
    for p in productions:  # a list, as in the message
        if p.get("id") == pid:
            return p
    return None


def _items(amounts: Mapping[str, int] | None) -> list[tuple[str, int]]:
    amounts = amounts or {}
    return sorted(((r, int(n)) for r, n in amounts.items() if n),
                  key=lambda rn: _RES_ORDER.index(rn[0]) if rn[0] in _RES_ORDER else 99)


# -- shared pieces ------------------------------------------------------------------------------------


def _ss(h: int) -> int:
    return 4 if h <= 90 else 3 if h <= 220 else 2


def _blit_c(dst: pygame.Surface, src: pygame.Surface, center) -> pygame.Rect:
    return dst.blit(src, src.get_rect(center=(round(center[0]), round(center[1]))))


def _frame(W: int, H: int, outer, border, body_top, body_bottom, seed: int, *, radius_k: float = 0.055,
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


def _count_medallion(n: int, d: int) -> pygame.Surface:
    """An ivory disc with an ink number, for counts laid over icons."""
    s = canvas(d, d)
    pygame.draw.circle(s, INK, (d / 2, d / 2), d / 2)
    pygame.draw.circle(s, IVORY, (d / 2, d / 2), d / 2 - max(1, d * 0.09))
    t = fonts.figures(str(n), round(d * 0.62), INK, bold=True)
    _blit_c(s, t, (d / 2, d / 2))
    return s


def _icon_with_count(res: str, n: int, size: int) -> pygame.Surface:
    """An icon of ``size`` with a count medallion on its top-right shoulder (for n > 1 or always)."""
    m = round(size * 0.68)
    s = canvas(size + m // 3, size + m // 3)
    s.blit(resource_icon(res, size), (0, m // 3))
    s.blit(_count_medallion(n, m), (size + m // 3 - m, 0))
    return s


def _amount_row(items: list[tuple[str, int]], icon: int, num_size: int, color=INK, gap: float = 0.15,
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


def _stack(items: list[tuple[str, int]], blanks: int, icon: int, num_size: int, max_h: int) -> pygame.Surface:
    """A column of "n (icon)" lines; blanks are "?" medallions."""
    lines = [(r, n) for r, n in items] + ([("Any", blanks)] if blanks else [])
    if not lines:
        return canvas(1, 1)
    step = min(icon * 1.12, max_h / len(lines))
    ic = min(icon, round(step / 1.08))
    ns = min(num_size, round(ic * 1.25))
    rows = [_amount_row([(r, n)], ic, ns) for r, n in lines]
    w = max(r.get_width() for r in rows)
    h = round(step * (len(lines) - 1) + ic)
    s = canvas(w, h)
    for i, r in enumerate(rows):
        s.blit(r, (w - r.get_width(), round(i * step)))  # right-align numbers+icons
    return s


def _production_panel(prod: dict | None, w: int, h: int) -> pygame.Surface:
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
    left = _stack(_items(prod.get("input")), int(prod.get("inputBlanks") or 0), icon, num, round(h * 0.86))
    right = _stack(_items(prod.get("output")), int(prod.get("outputBlanks") or 0), icon, num, round(h * 0.86))
    _blit_c(s, left, (colw * 0.55, h / 2))
    _blit_c(s, right, (w - colw * 0.55, h / 2))
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


def _ribbon(text: str, w: int, h: int, fill, ink_col=IVORY) -> pygame.Surface:
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
        _blit_c(s, fonts.ink(text, size, ink_col, "caps"), (w / 2, h / 2))
    else:  # too small for words: three gold beads
        for i in (-1, 0, 1):
            pygame.draw.circle(s, GOLD_LIGHT, (w / 2 + i * h * 0.7, h / 2), max(1, h * 0.16))
    return s


@surface_cache(2, 64)
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


# -- development cards ----------------------------------------------------------------------------------


def dev_card(card: dict, productions: Any, height: int) -> pygame.Surface:
    """A development card ``height`` px tall (``card_width(height)`` wide).

    :param card: an entry of the message's ``developmentCards``.
    :param productions: the message's ``productions`` by id (a list of them works too).
    """
    prod = _production_for(productions, card.get("production"))
    return _dev_card(_freeze(card), _freeze(prod), int(height))


@surface_cache(8, 512)
def _dev_card(card_key, prod_key, height: int) -> pygame.Surface:
    card, prod = _thaw(card_key), _thaw(prod_key)
    h = max(8, height)
    w = card_width(h)
    k = _ss(h)
    W, H = w * k, h * k
    col = CARD_COLORS.get(card.get("color"), SEPIA)
    level = int(card.get("level") or 0)
    surf, body = _frame(W, H, shade(GOLD_DARK, -0.5), GOLD, mix(IVORY, col, 0.05),
                        mix(PARCHMENT_DARK, col, 0.12), seed=int(card.get("id", 0)) + 11)
    compact = h < 100
    # colour banner with the cost
    bh = round(H * (0.3 if compact else 0.2))
    banner = pygame.Rect(body.x, body.y, body.w, bh)
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), banner, border_top_left_radius=round(W * 0.03),
                     border_top_right_radius=round(W * 0.03))
    grad = linear_gradient(W, H, shade(col, 0.22), shade(col, -0.25))
    surf.blit(clip_to(grad, shape), (0, 0))
    # damask diamonds on the banner
    pat = canvas(W, H)
    step = max(4, round(W * 0.09))
    for yy in range(banner.top, banner.bottom + step, step):
        for xx in range(banner.left + ((yy // step) % 2) * step // 2, banner.right + step, step):
            pygame.draw.polygon(pat, (*shade(col, 0.4), 34),
                                transform([(0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0)], xx, yy, step * 0.5))
    surf.blit(clip_to(pat, shape), (0, 0))
    pygame.draw.line(surf, GOLD_DARK, (body.left, banner.bottom), (body.right, banner.bottom), max(2, H // 90))
    pygame.draw.line(surf, GOLD_LIGHT, (body.left, banner.bottom + max(2, H // 90)),
                     (body.right, banner.bottom + max(2, H // 90)), max(1, H // 200))
    cost = _items((card.get("cost") or {}).get("requirements"))
    if compact:
        if cost and h >= 50:
            row = _amount_row(cost, round(bh * 0.62), round(bh * 0.7), IVORY, halo=(*shade(col, -0.6), 255))
            if row.get_width() > body.w * 0.94:
                row = down(row, (round(body.w * 0.94), round(row.get_height() * body.w * 0.94 / row.get_width())))
            _blit_c(surf, row, banner.center)
        _blit_c(surf, pips_strip(level, round(body.w * 0.7), round(H * 0.09)),
                (body.centerx, banner.bottom + H * 0.085))
        _blit_c(surf, vp_badge(int(card.get("victoryPoints") or 0), round(W * 0.62)),
                (body.centerx, body.bottom - H * 0.25))
        if h >= 40:
            _blit_c(surf, color_emblem(card.get("color", ""), round(W * 0.24), fill=col),
                    (body.left + W * 0.14, body.bottom - H * 0.085))
        return down(surf, (w, h))
    if cost:
        icon = round(bh * 0.74)
        items = [_icon_with_count(r, n, icon) for r, n in cost]
        gap = round(icon * 0.22)
        tw = sum(i.get_width() for i in items) + gap * (len(items) - 1)
        if tw > body.w * 0.92:
            icon = round(icon * body.w * 0.92 / tw)
            items = [_icon_with_count(r, n, icon) for r, n in cost]
            tw = sum(i.get_width() for i in items) + gap * (len(items) - 1)
        x = body.centerx - tw / 2
        for it in items:
            surf.blit(it, (round(x), round(banner.centery - it.get_height() / 2 - bh * 0.02)))
            x += it.get_width() + gap
    # level pendant hanging from the banner
    tab_w, tab_h = round(W * 0.44), round(H * 0.085)
    tab = pygame.Rect(0, 0, tab_w, tab_h)
    tab.midtop = (body.centerx, banner.bottom)
    pend = [(tab.left, tab.top), (tab.right, tab.top), (tab.right - tab_h * 0.45, tab.bottom),
            (tab.left + tab_h * 0.45, tab.bottom)]
    pygame.draw.polygon(surf, GOLD_DARK, pend)
    pygame.draw.polygon(surf, shade(col, -0.15), inset(pend, max(2, H // 110)))
    _blit_c(surf, pips_strip(level, round(tab_w * 0.7), round(tab_h * 0.72)), (tab.centerx, tab.centery - H * 0.003))
    # production cartouche
    ph = round(H * 0.45)
    pw = round(body.w * 0.94)
    panel = _production_panel(prod, pw, ph)
    surf.blit(drop_shadow(panel, (0, max(1, H // 160)), max(1, H // 120), 70),
              (body.centerx - pw // 2, tab.bottom + round(H * 0.018)))
    # the colour's emblem (bottom left) and a fleuron (bottom right)
    _blit_c(surf, color_emblem(card.get("color", ""), round(H * 0.1), fill=col),
            (body.centerx - body.w * 0.34, body.bottom - H * 0.078))
    tdraw(surf, "polygon", (*GOLD, 210), transform(star(4, 0.5, 0.16, 0), body.centerx + body.w * 0.34,
                                                   body.bottom - H * 0.075, H * 0.055))
    _blit_c(surf, vp_badge(int(card.get("victoryPoints") or 0), round(H * 0.21)),
            (body.centerx, body.bottom - H * 0.092))
    return down(surf, (w, h))


# -- leader cards ------------------------------------------------------------------------------------------


_LEADER_TITLES = {"DISCOUNT": "Patron", "DEPOT": "Steward", "ZERO": "Alchemist", "PRODUCTION": "Artisan"}


def leader_card(leader: dict, productions: Any, height: int, *, dimmed: bool = False) -> pygame.Surface:
    """A leader card ``height`` px tall; ``dimmed`` greys it (e.g. not playable, or discarded)."""
    prod = _production_for(productions, leader.get("production"))
    return _leader_card(_freeze(leader), _freeze(prod), int(height), bool(dimmed))


_EMBLEMS = {"Green": "triangle", "Blue": "circle", "Yellow": "diamond", "Purple": "star"}
"""A shape for each card colour, drawn beside the colour everywhere a colour matters, so that
players who tell some colours apart badly can read the cards by shape."""


@surface_cache(2, 64)
def color_emblem(color: str, size: int, fill=IVORY, edge=None) -> pygame.Surface:
    """The shape of a card colour (``_EMBLEMS``), ``size`` px square, filled with ``fill`` and
    outlined with ``edge`` (the colour's dark shade by default)."""
    k = 4
    S = max(4, size) * k
    s = canvas(S, S)
    col = CARD_COLORS.get(color, SEPIA)
    edge = shade(col, -0.55) if edge is None else edge
    kind = _EMBLEMS.get(color)
    c, r = S / 2, S / 2 - max(1, S * 0.06)
    if kind == "triangle":
        pts = [(c, c - r), (c + r * 0.95, c + r * 0.75), (c - r * 0.95, c + r * 0.75)]
    elif kind == "diamond":
        pts = [(c, c - r), (c + r * 0.8, c), (c, c + r), (c - r * 0.8, c)]
    elif kind == "star":
        pts = transform(star(5, 1.0, 0.45), c, c + r * 0.08, r)
    else:
        pts = None
    width = max(2, round(S * 0.09))
    if pts is None:
        pygame.draw.circle(s, edge, (c, c), r)
        pygame.draw.circle(s, fill, (c, c), r - width)
    else:
        pygame.draw.polygon(s, edge, pts)
        pygame.draw.polygon(s, fill, inset(pts, width))
    return down(s, (size, size))


def _mini_card(color: str, w: int, h: int, level: int) -> pygame.Surface:
    s = canvas(w, h)
    col = CARD_COLORS.get(color, SEPIA)
    r = max(1, w // 6)
    pygame.draw.rect(s, GOLD_DARK, (0, 0, w, h), border_radius=r)
    pygame.draw.rect(s, GOLD_LIGHT, (1, 1, w - 2, h - 2), border_radius=r)
    inner = pygame.Rect(0, 0, w, h).inflate(-max(2, w // 5), -max(2, w // 5))
    pygame.draw.rect(s, col, inner, border_radius=max(0, r - 1))
    pygame.draw.rect(s, shade(col, 0.3), (inner.x, inner.y, inner.w, inner.h // 3),
                     border_top_left_radius=max(0, r - 1), border_top_right_radius=max(0, r - 1))
    if level:
        _blit_c(s, level_pips(level, round(w * 0.9)), (w / 2, h * 0.62))
    side = round(min(inner.w, inner.h) * (0.55 if level else 0.7))
    if side >= 5:
        _blit_c(s, color_emblem(color, side), (w / 2, inner.top + (h * 0.28 if level else inner.h / 2)))
    return s


def _requirement(leader: dict, w: int, h: int) -> pygame.Surface:
    s = canvas(w, h)
    dev = (leader.get("devCardRequirement") or {}).get("entries") or []
    res = _items((leader.get("resourceRequirement") or {}).get("requirements"))
    if dev:
        ch = round(h * 0.92)
        cw = round(ch * 0.7)
        groups = []
        for e in dev:
            n = int(e.get("quantity") or 1)
            lv = int(e.get("level") or 0)
            pw = round(ch * 0.36 * lv * 1.2) if lv else 0
            g = canvas(cw + (n - 1) * round(cw * 0.45) + pw, ch)
            for i in range(n):
                g.blit(drop_shadow(_mini_card(e.get("color"), cw, ch, 0), (1, 1), 1, 80), (i * round(cw * 0.45), 0))
            if lv:  # the required level as gold pips beside the card(s)
                g.blit(pips_strip(lv, pw, round(ch * 0.4)), (g.get_width() - pw, round(ch * 0.3)))
            groups.append(g)
        gap = round(cw * 0.5)
        tw = sum(g.get_width() for g in groups) + gap * (len(groups) - 1)
        x = (w - tw) / 2
        for g in groups:
            s.blit(g, (round(x), (h - ch) // 2))
            x += g.get_width() + gap
    elif res:
        # "5 ×" and the icon
        parts = []
        for r, n in res:
            num = fonts.figures(f"{n} \u00d7", round(h * 0.5), INK, bold=True)
            parts.append((num, resource_icon(r, round(h * 0.82))))
        tw = sum(a.get_width() + b.get_width() + h * 0.15 for a, b in parts)
        x = (w - tw) / 2
        for a, b in parts:
            s.blit(a, (round(x), (h - a.get_height()) // 2))
            x += a.get_width() + h * 0.12
            s.blit(b, (round(x), (h - b.get_height()) // 2))
            x += b.get_width() + h * 0.2
    return s


def _charge(kind: str, S: float, cx: float, cy: float, surf: pygame.Surface, res: str) -> None:
    """The gold device on the escutcheon: scales, tower, orb or cog."""
    edge = shade(GOLD_DARK, -0.35)
    lw = max(1, round(S * 0.035))

    def poly(pts, c=GOLD):
        pygame.draw.polygon(surf, edge, pts)
        pygame.draw.polygon(surf, c, inset(pts, lw))

    if kind == "DISCOUNT":  # a balance
        poly(transform([(-0.04, -0.34), (0.04, -0.34), (0.05, 0.28), (-0.05, 0.28)], cx, cy, S))
        poly(transform([(-0.2, 0.26), (0.2, 0.26), (0.24, 0.36), (-0.24, 0.36)], cx, cy, S))
        poly(transform([(-0.4, -0.27), (0.4, -0.27), (0.4, -0.2), (-0.4, -0.2)], cx, cy, S))
        for sx in (-1, 1):
            x0 = sx * 0.34
            for a in ((x0, -0.22), (x0 - 0.14, 0.06)), ((x0, -0.22), (x0 + 0.14, 0.06)):
                pygame.draw.line(surf, edge, *transform(a, cx, cy, S), lw)
            pan = [(x0 - 0.18, 0.05)] + bezier((x0 - 0.18, 0.05), (x0, 0.26), (x0 + 0.18, 0.05), 10)
            poly(transform(pan, cx, cy, S))
        pygame.draw.circle(surf, edge, transform([(0, -0.38)], cx, cy, S)[0], S * 0.06)
        pygame.draw.circle(surf, GOLD_LIGHT, transform([(0, -0.38)], cx, cy, S)[0], S * 0.04)
    elif kind == "DEPOT":  # a tower
        body = [(-0.24, -0.16), (0.24, -0.16), (0.28, 0.36), (-0.28, 0.36)]
        crown = [(-0.3, -0.34), (-0.18, -0.34), (-0.18, -0.26), (-0.06, -0.26), (-0.06, -0.34), (0.06, -0.34),
                 (0.06, -0.26), (0.18, -0.26), (0.18, -0.34), (0.3, -0.34), (0.3, -0.14), (-0.3, -0.14)]
        poly(transform(body, cx, cy, S))
        poly(transform(crown, cx, cy, S))
        door = [(-0.08, 0.36)] + bezier((-0.08, 0.14), (0.0, 0.02), (0.08, 0.14), 8) + [(0.08, 0.36)]
        pygame.draw.polygon(surf, shade(WALNUT_DARK, -0.2), transform([(-0.08, 0.36), (-0.08, 0.14)] + door[1:],
                                                                       cx, cy, S))
        for x in (-0.13, 0.13):
            pygame.draw.rect(surf, shade(WALNUT_DARK, -0.2), (*transform([(x - 0.025, -0.06)], cx, cy, S)[0],
                                                              S * 0.05, S * 0.1))
    elif kind == "ZERO":  # a white marble on a gold stand
        poly(transform([(-0.2, 0.26), (0.2, 0.26), (0.26, 0.36), (-0.26, 0.36)], cx, cy, S))
        poly(transform([(-0.08, 0.14), (0.08, 0.14), (0.12, 0.27), (-0.12, 0.27)], cx, cy, S))
        m = marble("Zero", max(2, round(S * 0.62)))
        _blit_c(surf, m, (cx, cy - S * 0.1))
    else:  # PRODUCTION: a cog wheel
        teeth = []
        n = 10
        for i in range(n * 2):
            a = i * math.pi / n
            for da, r in ((-0.12, 0.4 if i % 2 == 0 else 0.3), (0.12, 0.4 if i % 2 == 0 else 0.3)):
                teeth.append((math.cos(a + da) * r, math.sin(a + da) * r))
        poly(transform(teeth, cx, cy, S))
        pygame.draw.circle(surf, edge, (cx, cy), S * 0.14)
        pygame.draw.circle(surf, shade(WALNUT_DARK, -0.2), (cx, cy), S * 0.1)
        for i in range(4):
            a = i * math.pi / 2 + math.pi / 4
            pygame.draw.line(surf, edge, (cx + math.cos(a) * S * 0.14, cy + math.sin(a) * S * 0.14),
                             (cx + math.cos(a) * S * 0.27, cy + math.sin(a) * S * 0.27), lw)


def _emblem(kind: str, res: str, S: int) -> pygame.Surface:
    """An escutcheon: the resource's tincture, a red chief with three gold balls, the ability's device,
    a crown above and laurel branches at the sides."""
    s = canvas(S, S)
    col = RESOURCE_COLORS.get(res, SEPIA)
    if res == "Coin":
        col = (196, 150, 40)
    # laurel branches
    leaf = ellipse_points(0, 0, 0.07, 0.026, 12)
    for side in (-1, 1):
        stem = bezier((side * 0.12, 0.46), (side * 0.5, 0.38), (side * 0.44, -0.18), 14)
        pygame.draw.lines(s, (70, 84, 38), False, transform(stem, S / 2, S / 2, S), max(1, S // 90))
        for i in range(2, len(stem) - 1, 2):
            x, y = stem[i]
            a = math.atan2(stem[i + 1][1] - y, stem[i + 1][0] - x)
            for off in (0.7, -0.7):
                pygame.draw.polygon(s, (96, 118, 52) if off > 0 else (78, 98, 44),
                                    transform(leaf, S / 2 + (x + math.cos(a + off) * 0.06) * S,
                                              S / 2 + (y + math.sin(a + off) * 0.06) * S, S, a + off))
    pts = transform(heater_poly(), S / 2, S * 0.56, S * 0.78)
    pygame.draw.polygon(s, shade(GOLD_DARK, -0.4), pts)
    pygame.draw.polygon(s, GOLD, inset(pts, S * 0.02))
    field = inset(pts, S * 0.045)
    layer = canvas(S, S)
    pygame.draw.polygon(layer, (255, 255, 255), field)
    grad = linear_gradient(S, S, shade(col, 0.2), shade(col, -0.3))
    s.blit(clip_to(grad, layer), (0, 0))
    chief = canvas(S, S)
    top = min(p[1] for p in field)
    chief.fill(OXBLOOD, (0, 0, S, round(top + S * 0.15)))
    s.blit(clip_to(chief, layer), (0, 0))
    for i in (-1, 0, 1):
        bx, by = S / 2 + i * S * 0.13, top + S * 0.08
        pygame.draw.circle(s, shade(GOLD_DARK, -0.3), (bx, by), S * 0.042)
        pygame.draw.circle(s, GOLD_LIGHT, (bx - S * 0.006, by - S * 0.006), S * 0.032)
    pygame.draw.line(s, GOLD_DARK, (S * 0.2, top + S * 0.15), (S * 0.8, top + S * 0.15), max(1, S // 80))
    # glint on the field
    gl = canvas(S, S)
    pygame.draw.ellipse(gl, (255, 255, 255, 40), (S * 0.3, top + S * 0.18, S * 0.16, S * 0.3))
    s.blit(clip_to(gl, layer), (0, 0))
    sub = canvas(S, S)
    _charge(kind, S * 0.36, S / 2, S * 0.6, sub, res)
    s.blit(drop_shadow(sub, (max(1, S // 100), max(1, S // 80)), max(1, S // 100), 100), (0, 0))
    # crown
    cw, cy = S * 0.34, S * 0.09
    crown = [(-0.5, 0.5), (-0.5, -0.1), (-0.3, 0.2), (-0.15, -0.35), (0.0, 0.1), (0.15, -0.35), (0.3, 0.2),
             (0.5, -0.1), (0.5, 0.5)]
    cp = transform(crown, S / 2, cy + S * 0.02, cw)
    pygame.draw.polygon(s, shade(GOLD_DARK, -0.4), cp)
    pygame.draw.polygon(s, GOLD, inset(cp, S * 0.012))
    for x in (-0.5, -0.15, 0.15, 0.5):
        pygame.draw.circle(s, GOLD_LIGHT, transform([(x, -0.1 if abs(x) == 0.5 else -0.35)], S / 2, cy + S * 0.02,
                                                    cw)[0], S * 0.018)
    pygame.draw.circle(s, OXBLOOD, (S / 2, cy + S * 0.09), S * 0.018)
    return s


def _ability(leader: dict, prod: dict | None, w: int, h: int) -> pygame.Surface:
    s = canvas(w, h)
    kind = leader.get("leaderType")
    res = leader.get("resourceType") or "Any"
    icon = round(h * 0.86)
    if kind == "DISCOUNT":
        n = int(leader.get("discount") or 1)
        t = fonts.figures(f"\u2212{n}", round(h * 0.6), OXBLOOD, bold=True)
        ic = resource_icon(res, icon)
        tw = t.get_width() + ic.get_width() + h * 0.15
        x = (w - tw) / 2
        s.blit(t, (round(x), round((h - t.get_height()) / 2)))
        s.blit(ic, (round(x + t.get_width() + h * 0.15), (h - ic.get_height()) // 2))
    elif kind == "DEPOT":
        sw = round(h * 0.96)
        gap = round(h * 0.3)
        x0 = (w - 2 * sw - gap) / 2
        for i in range(2):
            r = pygame.Rect(round(x0 + i * (sw + gap)), (h - sw) // 2, sw, sw)
            pygame.draw.rect(s, shade(WALNUT, -0.2), r, border_radius=sw // 4)
            well = r.inflate(-max(2, sw // 10), -max(2, sw // 10))
            shape = canvas(w, h)
            pygame.draw.rect(shape, (255, 255, 255), well, border_radius=sw // 5)
            s.blit(clip_to(linear_gradient(w, h, shade(PARCHMENT_DARK, -0.35), shade(PARCHMENT_DARK, 0.1)), shape),
                   (0, 0))
            ghost = resource_icon(res, round(sw * 0.7)).copy()
            ghost.set_alpha(120)
            _blit_c(s, ghost, well.center)
    elif kind == "ZERO":
        m = marble("Zero", icon)
        a = arrow_glyph(round(h * 0.6))
        ic = resource_icon(res, icon)
        tw = m.get_width() + a.get_width() + ic.get_width() + h * 0.3
        x = (w - tw) / 2
        for part in (m, a, ic):
            s.blit(part, (round(x), (h - part.get_height()) // 2))
            x += part.get_width() + h * 0.15
    else:
        items_in = _items((prod or {}).get("input")) if prod else [(res, 1)]
        blanks = int((prod or {}).get("outputBlanks") or (1 if not prod else 0))
        outs = _items((prod or {}).get("output")) if prod else [("Faith", 1)]
        ic = round(h * 0.66)
        ns = round(h * 0.85)
        left = _amount_row(items_in, ic, ns)
        parts_out = [("Any", blanks)] if blanks else []
        right = _amount_row(parts_out + outs, ic, ns)
        a = arrow_glyph(round(h * 0.46))
        tw = left.get_width() + a.get_width() + right.get_width() + h * 0.3
        if tw > w * 0.96:
            k = w * 0.96 / tw
            left = down(left, (round(left.get_width() * k), round(left.get_height() * k)))
            right = down(right, (round(right.get_width() * k), round(right.get_height() * k)))
            a = down(a, (round(a.get_width() * k), round(a.get_height() * k)))
            tw = w * 0.96
        x = (w - tw) / 2
        for part in (left, a, right):
            s.blit(part, (round(x), (h - part.get_height()) // 2))
            x += part.get_width() + h * 0.15
    return s


@surface_cache(1, 64)
def arrow_glyph(size: int) -> pygame.Surface:
    """A gilded production arrow (flat, for inline use)."""
    s = canvas(size, size)
    ar = [(-0.46, -0.13), (0.06, -0.13), (0.06, -0.36), (0.48, 0.0), (0.06, 0.36), (0.06, 0.13), (-0.46, 0.13)]
    pts = transform(ar, size / 2, size / 2, size)
    pygame.draw.polygon(s, GOLD_DARK, pts)
    pygame.draw.polygon(s, GOLD, inset(pts, max(1, size * 0.06)))
    return s


@surface_cache(12, 256)
def _leader_card(leader_key, prod_key, height: int, dimmed: bool) -> pygame.Surface:
    if dimmed:
        base = _leader_card(leader_key, prod_key, height, False)
        g = pygame.transform.grayscale(base)
        g.fill((196, 184, 164, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return g
    leader, prod = _thaw(leader_key), _thaw(prod_key)
    h = max(8, height)
    w = card_width(h)
    k = _ss(h)
    W, H = w * k, h * k
    surf, body = _frame(W, H, shade(OXBLOOD, -0.55), GOLD, IVORY, PARCHMENT_DARK, seed=int(leader.get("id", 0)) + 101)
    kind = leader.get("leaderType") or "DISCOUNT"
    res = leader.get("resourceType") or "Any"
    compact = h < 96
    # requirement band: oxblood with a gold rule
    rh = round(H * (0.2 if not compact else 0.24))
    band = pygame.Rect(body.x, body.y, body.w, rh)
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), band, border_top_left_radius=round(W * 0.03),
                     border_top_right_radius=round(W * 0.03))
    surf.blit(clip_to(linear_gradient(W, H, shade(OXBLOOD, 0.15), shade(OXBLOOD, -0.3)), shape), (0, 0))
    pygame.draw.line(surf, GOLD_DARK, (body.left, band.bottom), (body.right, band.bottom), max(2, H // 90))
    pygame.draw.line(surf, GOLD_LIGHT, (body.left, band.bottom + max(2, H // 90)),
                     (body.right, band.bottom + max(2, H // 90)), max(1, H // 200))
    req_panel = canvas(band.w, band.h)
    inner = pygame.Rect(0, 0, band.w, band.h).inflate(-band.w * 0.05, -band.h * 0.16)
    pygame.draw.rect(req_panel, (*IVORY, 235), inner, border_radius=round(inner.h * 0.3))
    pygame.draw.rect(req_panel, GOLD, inner, max(1, H // 160), border_radius=round(inner.h * 0.3))
    req = _requirement(leader, round(inner.w * 0.94), round(inner.h * 0.9))
    _blit_c(req_panel, req, inner.center)
    surf.blit(req_panel, band.topleft)
    if compact:  # thumbnail: requirement, a smaller emblem, the ability pictogram, the points
        es = round(H * 0.4)
        _blit_c(surf, _emblem(kind, res, es), (body.centerx, band.bottom + es * 0.52))
        if h >= 56:
            ah = round(H * 0.2)
            strip = pygame.Rect(body.x + W * 0.03, body.bottom - ah - H * 0.025, body.w - W * 0.06, ah)
            pygame.draw.rect(surf, shade(SEPIA, -0.1), strip, border_radius=ah // 4)
            pygame.draw.rect(surf, IVORY, strip.inflate(-max(2, k * 2), -max(2, k * 2)), border_radius=ah // 4)
            _blit_c(surf, _ability(leader, prod, round(strip.w * 0.94), round(strip.h * 0.84)), strip.center)
            _blit_c(surf, vp_badge(int(leader.get("victoryPoints") or 0), round(W * 0.36)),
                    (body.right - W * 0.12, strip.top - W * 0.1))
        else:
            _blit_c(surf, vp_badge(int(leader.get("victoryPoints") or 0), round(W * 0.5)),
                    (body.centerx, body.bottom - W * 0.25))
        return down(surf, (w, h))
    # emblem
    es = round(min(body.w * 0.98, H * 0.335))
    em = _emblem(kind, res, es)
    ey = band.bottom + H * 0.012
    surf.blit(drop_shadow(em, (0, max(1, H // 200)), max(1, H // 150), 70), (body.centerx - es // 2, round(ey)))
    # title ribbon
    rib_h = round(H * 0.062)
    rib = _ribbon(_LEADER_TITLES.get(kind, "Leader") if h >= 250 else "", round(body.w * 0.86), rib_h, OXBLOOD)
    rib_y = ey + es - H * 0.012
    _blit_c(surf, rib, (body.centerx, rib_y))
    # ability cartouche
    ah = round(H * 0.18)
    aw = round(body.w * 0.94)
    ab = canvas(aw, ah)
    pygame.draw.rect(ab, shade(SEPIA, -0.1), (0, 0, aw, ah), border_radius=ah // 4)
    ir = pygame.Rect(0, 0, aw, ah).inflate(-max(2, aw // 60) * 2, -max(2, aw // 60) * 2)
    shape = canvas(aw, ah)
    pygame.draw.rect(shape, (255, 255, 255), ir, border_radius=ah // 4 - 2)
    ab.blit(clip_to(linear_gradient(aw, ah, IVORY, mix(PARCHMENT, PARCHMENT_DARK, 0.4)), shape), (0, 0))
    pygame.draw.rect(ab, GOLD, ir.inflate(-max(2, aw // 30), -max(2, aw // 30)), max(1, aw // 120),
                     border_radius=max(0, ah // 4 - 4))
    _blit_c(ab, _ability(leader, prod, round(ir.w * 0.94), round(ir.h * 0.8)), ir.center)
    ay = rib_y + rib_h / 2 + H * 0.018
    surf.blit(drop_shadow(ab, (0, max(1, H // 160)), max(1, H // 120), 70), (body.centerx - aw // 2, round(ay)))
    vp_size = round(H * 0.16)
    _blit_c(surf, vp_badge(int(leader.get("victoryPoints") or 0), vp_size),
            (body.centerx, max(ay + ah + vp_size * 0.42, body.bottom - H * 0.07)))
    return down(surf, (w, h))


# -- card backs ---------------------------------------------------------------------------------------------


_ROMAN = {1: "I", 2: "II", 3: "III"}


@surface_cache(6, 64)
def card_back(kind: str, height: int, level: int | None = None) -> pygame.Surface:
    """The back of a development card ("dev", optionally of ``level``) or a leader card ("leader")."""
    h = max(8, int(height))
    w = card_width(h)
    k = _ss(h)
    W, H = w * k, h * k
    leader = kind == "leader"
    base = (30, 40, 70) if leader else shade(WALNUT, -0.1)
    surf = canvas(W, H)
    rad = round(W * 0.055)
    pygame.draw.rect(surf, shade(GOLD_DARK, -0.5), (0, 0, W, H), border_radius=rad)
    e = max(1, round(H * 0.006))
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), (e, e, W - 2 * e, H - 2 * e), border_radius=rad - e)
    surf.blit(clip_to(linear_gradient(W, H, GOLD_LIGHT, GOLD_DARK), shape), (0, 0))
    b = max(2, round(H * 0.03))
    body = pygame.Rect(e + b, e + b, W - 2 * (e + b), H - 2 * (e + b))
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), body, border_radius=max(0, rad - b))
    field = canvas(W, H)
    field.blit(radial_gradient(W, H, lambda u, v: (*mix(shade(base, 0.25), shade(base, -0.45), min(
        1.0, math.hypot(u - 0.5, (v - 0.5) * 0.8) * 1.9)), 255), 32), (0, 0))
    # gold lattice
    step = max(6, round(W * 0.16))
    lattice = canvas(W, H)
    for i in range(-H // step - 2, W // step + H // step + 3):
        x = i * step
        pygame.draw.line(lattice, (*GOLD, 70), (x, 0), (x + H, H), max(1, k))
        pygame.draw.line(lattice, (*GOLD, 70), (x, 0), (x - H, H), max(1, k))
    field.blit(lattice, (0, 0))
    dots = canvas(W, H)
    for yy in range(0, H + step, step):
        for xx in range(0, W + step, step):
            pygame.draw.circle(dots, (*GOLD_LIGHT, 90), (xx, yy), max(1, step * 0.06))
    field.blit(dots, (0, 0))
    tile_over(field, grain_tile(3))
    surf.blit(clip_to(field, shape), (0, 0))
    pygame.draw.rect(surf, GOLD, body.inflate(-W * 0.07, -W * 0.07), max(1, H // 150),
                     border_radius=max(0, rad - b))
    # medallion
    md = round(W * 0.62)
    cx, cy = body.center
    pygame.draw.circle(surf, shade(GOLD_DARK, -0.4), (cx, cy), md / 2)
    pygame.draw.circle(surf, GOLD, (cx, cy), md / 2 - max(1, H // 120))
    _poly_star = transform(star(16, 0.5, 0.44), cx, cy, md * 0.92)
    pygame.draw.polygon(surf, GOLD_LIGHT, _poly_star)
    pygame.draw.circle(surf, shade(base, -0.1), (cx, cy), md * 0.38)
    pygame.draw.circle(surf, GOLD_DARK, (cx, cy), md * 0.38, max(1, H // 200))
    if leader:
        em = fonts.ink("M", round(md * 0.62), GOLD_LIGHT, "regular")
        _blit_c(surf, em, (cx, cy + md * 0.06))
        crown = [(-0.5, 0.5), (-0.5, -0.1), (-0.3, 0.2), (-0.15, -0.35), (0.0, 0.1), (0.15, -0.35), (0.3, 0.2),
                 (0.5, -0.1), (0.5, 0.5)]
        cp = transform(crown, cx, cy - md * 0.2, md * 0.24)
        pygame.draw.polygon(surf, GOLD_LIGHT, cp)
        words = fonts.ink("leader", round(H * 0.07), GOLD_LIGHT, "caps")
        _blit_c(surf, words, (cx, body.bottom - H * 0.1))
    else:
        numeral = _ROMAN.get(level or 0, "M")
        t = fonts.ink(numeral, round(md * (0.5 if level else 0.6)), GOLD_LIGHT, "regular", bold=True)
        _blit_c(surf, t, (cx, cy))
        if level:
            _blit_c(surf, level_pips(level, round(W * 0.4)), (cx, body.top + H * 0.1))
            _blit_c(surf, level_pips(level, round(W * 0.4)), (cx, body.bottom - H * 0.1))
    return down(surf, (w, h))


# -- Lorenzo's tokens ------------------------------------------------------------------------------------------


def token(token: dict, size: int) -> pygame.Surface:
    """A round Lorenzo action token (discard two cards of a colour; black cross +2; +1 and shuffle)."""
    return _token(token.get("kind", ""), token.get("discardedDevCardColor"), int(size))


@surface_cache(2, 128)
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
            mc = pygame.transform.rotate(_mini_card(color or "Green", cw, ch, 0), ang)
            _blit_c(s, drop_shadow(mc, (1, 2), 2, 90), (c + dx * S, c - S * 0.04))
        # an oxblood strike and "-2"
        pygame.draw.line(s, OXBLOOD, (c - S * 0.2, c + S * 0.12), (c + S * 0.2, c - S * 0.2), max(2, S // 26))
        t = fonts.figures("\u22122", round(S * 0.14), OXBLOOD, bold=True, halo=(*IVORY, 255))
        _blit_c(s, t, (c, c + S * 0.25))
    else:
        two = kind == "ActionTokenBlackMoveTwo"
        bc = black_cross(round(S * 0.42))
        _blit_c(s, bc, (c - S * 0.08, c - S * 0.02))
        t = fonts.figures("+2" if two else "+1", round(S * 0.17), INK, bold=True, halo=(*IVORY, 255))
        _blit_c(s, t, (c + S * 0.2, c + S * 0.06))
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


@surface_cache(2, 64)
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
        s.blit(clip_to(radial_gradient(S, S, lambda u, v: (*mix(shade(col, 0.35), shade(col, -0.35), min(
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
        _blit_c(s, t, (S / 2, S / 2))
    else:  # DOWN: the back of the tile, sober, with the value in small
        back = mix(col, WALNUT, 0.65)
        s.blit(clip_to(linear_gradient(S, S, shade(back, 0.15), shade(back, -0.3)), shape), (0, 0))
        tdraw(s, "rect", (*GOLD, 150), inner.inflate(-S * 0.1, -S * 0.1), max(1, S // 60), border_radius=rad - 6)
        cp = transform(cross_poly(), S / 2, S * 0.44, S * 0.46)
        tdraw(s, "polygon", (*GOLD, 200), cp)
        t = fonts.figures(str(vp), round(S * 0.16), GOLD_LIGHT, bold=True)
        _blit_c(s, t, (S / 2, S * 0.78))
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
