"""Where everything sits on the board screen, for any window size.

:func:`board_layout` is a pure function of the window size and the number of players, so the
layout is tested without drawing. Regions are proportional to the window, with a minimum of
1024x640; text and pieces scale with ``unit`` (one "design pixel" at 1280x800 = 1.0).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

Rect = pygame.Rect


@dataclass
class BoardLayout:
    size: tuple[int, int]
    unit: float
    top_bar: Rect
    market: Rect
    grid: Rect
    faith: Rect
    board: Rect
    warehouse: Rect
    strongbox: Rect
    base_production: Rect
    slots: list[Rect]
    leaders: Rect
    log: Rect
    actions: Rect
    opponents: list[Rect] = field(default_factory=list)
    token: Rect | None = None


def _split_h(r: Rect, *parts: float, gap: int = 0) -> list[Rect]:
    """Split a rect left to right by weights."""
    total = sum(parts)
    out, x = [], r.x
    free = r.w - gap * (len(parts) - 1)
    for i, p in enumerate(parts):
        w = round(free * p / total) if i < len(parts) - 1 else r.right - x
        out.append(Rect(x, r.y, w, r.h))
        x += w + gap
    return out


def board_parts(board: Rect, unit: float) -> tuple[Rect, Rect, Rect, list[Rect], Rect]:
    """A player's board split into (warehouse, strongbox, base production, 3 card slots, leaders)."""
    m = round(10 * unit)
    ware, prod, lead = _split_h(board.inflate(-2 * m, -2 * m), 0.26, 0.54, 0.20, gap=m)
    strong_h = round(ware.h * 0.25)
    base_h = round(52 * unit)
    strongbox = Rect(ware.x, ware.bottom - strong_h, ware.w, strong_h)
    base = Rect(ware.x, strongbox.y - m - base_h, ware.w, base_h)
    warehouse = Rect(ware.x, ware.y, ware.w, base.y - m - ware.y)
    slots = _split_h(prod, 1, 1, 1, gap=m)
    return warehouse, strongbox, base, slots, lead


def board_layout(size: tuple[int, int], n_players: int, solo: bool) -> BoardLayout:
    """The regions of the board scene for a window of ``size``."""
    w, h = size
    unit = min(w / 1280, h / 800)
    m = round(10 * unit)                       # margin
    top = Rect(m, m, w - 2 * m, round(64 * unit))
    body_y = top.bottom + m
    bottom_h = round(160 * unit)
    left_w = round(w * 0.355)
    left = Rect(m, body_y, left_w, h - body_y - m)
    market_h = round(left.h * 0.43)
    market = Rect(left.x, left.y, left.w, market_h)
    grid = Rect(left.x, market.bottom + m, left.w, left.bottom - market.bottom - m)
    right = Rect(left.right + m, body_y, w - left.right - 2 * m, h - body_y - m)
    faith = Rect(right.x, right.y, right.w, round(112 * unit))
    lower = Rect(right.x, right.bottom - bottom_h, right.w, bottom_h)
    board = Rect(right.x, faith.bottom + m, right.w, lower.y - faith.bottom - 2 * m)
    warehouse, strongbox, base, slots, lead = board_parts(board, unit)
    log_r, actions = _split_h(lower, 0.62, 0.38, gap=m)
    opponents: list[Rect] = []
    token = None
    title_w = round(top.w * 0.34)
    rest = Rect(top.x + title_w + m, top.y, top.w - title_w - m, top.h)
    if solo:
        tw = min(rest.w, top.h * 13)            # room for his face-up tokens as words
        token = Rect(rest.right - tw, top.y, tw, top.h)
    elif n_players > 1:
        opponents = _split_h(rest, *([1] * (n_players - 1)), gap=m)
    return BoardLayout(size, unit, top, market, grid, faith, board, warehouse, strongbox, base, slots,
                       lead, log_r, actions, opponents, token)
