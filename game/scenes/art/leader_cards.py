"""Leader cards: their frame and title, what they require (cards, resources) and what they give
(a discount, a depot, a white marble's resource, a production), with the colour emblems that
let a player who tells colours apart badly read a card by shape."""
from __future__ import annotations

import math
from typing import Any

import pygame

from game.i18n import N_, _

from ..memory import surface_cache
from . import fonts
from ._draw import (bezier, canvas, clip_to, down, drop_shadow, ellipse_points, inset, linear_gradient, star,
                    transform)
from .card_parts import (amount_row, blit_centered, card_frame, card_width, freeze, item_list, pips_strip,
                         production_for, ribbon, supersample, thaw)
from .icons import heater_poly, level_pips, resource_icon, vp_badge
from .marbles import marble
from .palette import (CARD_COLORS, GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, OXBLOOD, PARCHMENT,
                      PARCHMENT_DARK, RESOURCE_COLORS, SEPIA, WALNUT, WALNUT_DARK, mix, shade)


_LEADER_TITLES = {"DISCOUNT": N_("Patron"), "DEPOT": N_("Steward"), "ZERO": N_("Alchemist"), "PRODUCTION": N_("Artisan")}
"""The ribbon's word on a leader card, by its kind, marked for the catalogue (the card's name
begins with it: "Steward of Coin")."""


def leader_card(leader: dict, productions: Any, height: int, *, dimmed: bool = False) -> pygame.Surface:
    """A leader card ``height`` px tall; ``dimmed`` greys it (e.g. not playable, or discarded)."""
    prod = production_for(productions, leader.get("production"))
    word = _LEADER_TITLES.get(leader.get("leaderType") or "DISCOUNT")
    title = _(word) if word else _("Leader")
    return _card(freeze(leader), freeze(prod), int(height), bool(dimmed), title)


KEPT_HEIGHT = 240
"""Cards up to this height (the board's, the title's fan, the hover's) are kept between games:
every game and every language draws the same ones, keyed by all that draws them (the ribbon's
word included). The leader choice's large cards are the scene's, and go with it."""


def _card(leader_key, prod_key, height: int, dimmed: bool, title: str) -> pygame.Surface:
    cache = _kept_leader_card if height <= KEPT_HEIGHT else _leader_card
    return cache(leader_key, prod_key, height, dimmed, title)


_EMBLEMS = {"Green": "triangle", "Blue": "circle", "Yellow": "diamond", "Purple": "star"}
"""A shape for each card colour, drawn beside the colour everywhere a colour matters, so that
players who tell some colours apart badly can read the cards by shape."""


@surface_cache(2, 64, kept=True)
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


def mini_card(color: str, w: int, h: int, level: int) -> pygame.Surface:
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
        blit_centered(s, level_pips(level, round(w * 0.9)), (w / 2, h * 0.62))
    side = round(min(inner.w, inner.h) * (0.55 if level else 0.7))
    if side >= 5:
        blit_centered(s, color_emblem(color, side), (w / 2, inner.top + (h * 0.28 if level else inner.h / 2)))
    return s


def _requirement(leader: dict, w: int, h: int) -> pygame.Surface:
    s = canvas(w, h)
    dev = (leader.get("devCardRequirement") or {}).get("entries") or []
    res = item_list((leader.get("resourceRequirement") or {}).get("requirements"))
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
                g.blit(drop_shadow(mini_card(e.get("color"), cw, ch, 0), (1, 1), 1, 80), (i * round(cw * 0.45), 0))
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
        blit_centered(surf, m, (cx, cy - S * 0.1))
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
            blit_centered(s, ghost, well.center)
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
        items_in = item_list((prod or {}).get("input")) if prod else [(res, 1)]
        blanks = int((prod or {}).get("outputBlanks") or (1 if not prod else 0))
        outs = item_list((prod or {}).get("output")) if prod else [("Faith", 1)]
        ic = round(h * 0.66)
        ns = round(h * 0.85)
        left = amount_row(items_in, ic, ns)
        parts_out = [("Any", blanks)] if blanks else []
        right = amount_row(parts_out + outs, ic, ns)
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


@surface_cache(1, 64, kept=True)
def arrow_glyph(size: int) -> pygame.Surface:
    """A gilded production arrow (flat, for inline use)."""
    s = canvas(size, size)
    ar = [(-0.46, -0.13), (0.06, -0.13), (0.06, -0.36), (0.48, 0.0), (0.06, 0.36), (0.06, 0.13), (-0.46, 0.13)]
    pts = transform(ar, size / 2, size / 2, size)
    pygame.draw.polygon(s, GOLD_DARK, pts)
    pygame.draw.polygon(s, GOLD, inset(pts, max(1, size * 0.06)))
    return s


@surface_cache(12, 256)
def _leader_card(leader_key, prod_key, height: int, dimmed: bool, title: str) -> pygame.Surface:
    """A card taller than :data:`KEPT_HEIGHT`, for the scene that shows it."""
    return _draw_leader_card(leader_key, prod_key, height, dimmed, title)


@surface_cache(4, 128, kept=True)
def _kept_leader_card(leader_key, prod_key, height: int, dimmed: bool, title: str) -> pygame.Surface:
    """A card of at most :data:`KEPT_HEIGHT`, kept between games (see there)."""
    return _draw_leader_card(leader_key, prod_key, height, dimmed, title)


def _draw_leader_card(leader_key, prod_key, height: int, dimmed: bool, title: str) -> pygame.Surface:
    """(``title``: the ribbon's word in the current language, a part of the caches' keys)"""
    if dimmed:
        base = _card(leader_key, prod_key, height, False, title)
        g = pygame.transform.grayscale(base)
        g.fill((196, 184, 164, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return g
    leader, prod = thaw(leader_key), thaw(prod_key)
    h = max(8, height)
    w = card_width(h)
    k = supersample(h)
    W, H = w * k, h * k
    surf, body = card_frame(W, H, shade(OXBLOOD, -0.55), GOLD, IVORY, PARCHMENT_DARK, seed=int(leader.get("id", 0)) + 101)
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
    blit_centered(req_panel, req, inner.center)
    surf.blit(req_panel, band.topleft)
    if compact:  # thumbnail: requirement, a smaller emblem, the ability pictogram, the points
        es = round(H * 0.4)
        blit_centered(surf, _emblem(kind, res, es), (body.centerx, band.bottom + es * 0.52))
        if h >= 56:
            ah = round(H * 0.2)
            strip = pygame.Rect(body.x + W * 0.03, body.bottom - ah - H * 0.025, body.w - W * 0.06, ah)
            pygame.draw.rect(surf, shade(SEPIA, -0.1), strip, border_radius=ah // 4)
            pygame.draw.rect(surf, IVORY, strip.inflate(-max(2, k * 2), -max(2, k * 2)), border_radius=ah // 4)
            blit_centered(surf, _ability(leader, prod, round(strip.w * 0.94), round(strip.h * 0.84)), strip.center)
            blit_centered(surf, vp_badge(int(leader.get("victoryPoints") or 0), round(W * 0.36)),
                    (body.right - W * 0.12, strip.top - W * 0.1))
        else:
            blit_centered(surf, vp_badge(int(leader.get("victoryPoints") or 0), round(W * 0.5)),
                    (body.centerx, body.bottom - W * 0.25))
        return down(surf, (w, h))
    # emblem
    es = round(min(body.w * 0.98, H * 0.335))
    em = _emblem(kind, res, es)
    ey = band.bottom + H * 0.012
    surf.blit(drop_shadow(em, (0, max(1, H // 200)), max(1, H // 150), 70), (body.centerx - es // 2, round(ey)))
    # title ribbon
    rib_h = round(H * 0.062)
    rib = ribbon(title if h >= 250 else "", round(body.w * 0.86), rib_h, OXBLOOD)
    rib_y = ey + es - H * 0.012
    blit_centered(surf, rib, (body.centerx, rib_y))
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
    blit_centered(ab, _ability(leader, prod, round(ir.w * 0.94), round(ir.h * 0.8)), ir.center)
    ay = rib_y + rib_h / 2 + H * 0.018
    surf.blit(drop_shadow(ab, (0, max(1, H // 160)), max(1, H // 120), 70), (body.centerx - aw // 2, round(ay)))
    vp_size = round(H * 0.16)
    blit_centered(surf, vp_badge(int(leader.get("victoryPoints") or 0), vp_size),
            (body.centerx, max(ay + ah + vp_size * 0.42, body.bottom - H * 0.07)))
    return down(surf, (w, h))
