"""Development cards and the cards' backs (a leader's, or a development deck's of a level).

The public functions take plain dicts from the ``UpdateGame`` message; they freeze them into
hashable keys, so each picture is drawn once per (content, size) and then served from a cache
(the same object comes back; copy it before drawing on it). Leader cards are in
:mod:`.leader_cards`, Lorenzo's tokens and the favor tiles in :mod:`.tiles`."""
from __future__ import annotations

import math
from typing import Any

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import (tdraw, canvas, clip_to, down, drop_shadow, inset, linear_gradient, radial_gradient, star,
                    transform, grain_tile, tile_over)
from .card_parts import (amount_row, blit_centered, card_frame, card_width, freeze, icon_with_count,
                         item_list, pips_strip, production_for, production_panel, supersample, thaw)
from .icons import level_pips, vp_badge
from .leader_cards import color_emblem
from .palette import (CARD_COLORS, GOLD, GOLD_DARK, GOLD_LIGHT, IVORY, PARCHMENT_DARK, SEPIA, WALNUT, mix,
                      shade)


# -- development cards ----------------------------------------------------------------------------------


def dev_card(card: dict, productions: Any, height: int) -> pygame.Surface:
    """A development card ``height`` px tall (``card_width(height)`` wide).

    :param card: an entry of the message's ``developmentCards``.
    :param productions: the message's ``productions`` by id (a list of them works too).
    """
    prod = production_for(productions, card.get("production"))
    return _dev_card(freeze(card), freeze(prod), int(height))


@surface_cache(8, 512, kept=True)
def _dev_card(card_key, prod_key, height: int) -> pygame.Surface:
    card, prod = thaw(card_key), thaw(prod_key)
    h = max(8, height)
    w = card_width(h)
    k = supersample(h)
    W, H = w * k, h * k
    col = CARD_COLORS.get(card.get("color"), SEPIA)
    level = int(card.get("level") or 0)
    surf, body = card_frame(W, H, shade(GOLD_DARK, -0.5), GOLD, mix(IVORY, col, 0.05),
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
    cost = item_list((card.get("cost") or {}).get("requirements"))
    if compact:
        if cost and h >= 50:
            row = amount_row(cost, round(bh * 0.62), round(bh * 0.7), IVORY, halo=(*shade(col, -0.6), 255))
            if row.get_width() > body.w * 0.94:
                row = down(row, (round(body.w * 0.94), round(row.get_height() * body.w * 0.94 / row.get_width())))
            blit_centered(surf, row, banner.center)
        blit_centered(surf, pips_strip(level, round(body.w * 0.7), round(H * 0.09)),
                (body.centerx, banner.bottom + H * 0.085))
        blit_centered(surf, vp_badge(int(card.get("victoryPoints") or 0), round(W * 0.62)),
                (body.centerx, body.bottom - H * 0.25))
        if h >= 40:
            blit_centered(surf, color_emblem(card.get("color", ""), round(W * 0.24), fill=col),
                    (body.left + W * 0.14, body.bottom - H * 0.085))
        return down(surf, (w, h))
    if cost:
        icon = round(bh * 0.74)
        items = [icon_with_count(r, n, icon) for r, n in cost]
        gap = round(icon * 0.22)
        tw = sum(i.get_width() for i in items) + gap * (len(items) - 1)
        if tw > body.w * 0.92:
            icon = round(icon * body.w * 0.92 / tw)
            items = [icon_with_count(r, n, icon) for r, n in cost]
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
    blit_centered(surf, pips_strip(level, round(tab_w * 0.7), round(tab_h * 0.72)), (tab.centerx, tab.centery - H * 0.003))
    # production cartouche
    ph = round(H * 0.45)
    pw = round(body.w * 0.94)
    panel = production_panel(prod, pw, ph)
    surf.blit(drop_shadow(panel, (0, max(1, H // 160)), max(1, H // 120), 70),
              (body.centerx - pw // 2, tab.bottom + round(H * 0.018)))
    # the colour's emblem (bottom left) and a fleuron (bottom right)
    blit_centered(surf, color_emblem(card.get("color", ""), round(H * 0.1), fill=col),
            (body.centerx - body.w * 0.34, body.bottom - H * 0.078))
    tdraw(surf, "polygon", (*GOLD, 210), transform(star(4, 0.5, 0.16, 0), body.centerx + body.w * 0.34,
                                                   body.bottom - H * 0.075, H * 0.055))
    blit_centered(surf, vp_badge(int(card.get("victoryPoints") or 0), round(H * 0.21)),
            (body.centerx, body.bottom - H * 0.092))
    return down(surf, (w, h))


# -- card backs ---------------------------------------------------------------------------------------------


_ROMAN = {1: "I", 2: "II", 3: "III"}


@surface_cache(6, 64)
def card_back(kind: str, height: int, level: int | None = None) -> pygame.Surface:
    """The back of a development card ("dev", optionally of ``level``) or a leader card ("leader")."""
    h = max(8, int(height))
    w = card_width(h)
    k = supersample(h)
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
    field.blit(radial_gradient(W, H, lambda u, v, a=shade(base, 0.25), b=shade(base, -0.45): (*mix(a, b, min(
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
        blit_centered(surf, em, (cx, cy + md * 0.06))
        crown = [(-0.5, 0.5), (-0.5, -0.1), (-0.3, 0.2), (-0.15, -0.35), (0.0, 0.1), (0.15, -0.35), (0.3, 0.2),
                 (0.5, -0.1), (0.5, 0.5)]
        cp = transform(crown, cx, cy - md * 0.2, md * 0.24)
        pygame.draw.polygon(surf, GOLD_LIGHT, cp)
        words = fonts.ink("leader", round(H * 0.07), GOLD_LIGHT, "caps")
        blit_centered(surf, words, (cx, body.bottom - H * 0.1))
    else:
        numeral = _ROMAN.get(level or 0, "M")
        t = fonts.ink(numeral, round(md * (0.5 if level else 0.6)), GOLD_LIGHT, "regular", bold=True)
        blit_centered(surf, t, (cx, cy))
        if level:
            blit_centered(surf, level_pips(level, round(W * 0.4)), (cx, body.top + H * 0.1))
            blit_centered(surf, level_pips(level, round(W * 0.4)), (cx, body.bottom - H * 0.1))
    return down(surf, (w, h))
