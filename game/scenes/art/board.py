"""Board furniture: the walnut player board, parchment, warehouse shelves and faith-track spaces."""
from __future__ import annotations

import math
from typing import Any

import pygame

from ..memory import surface_cache
from . import fonts
from ._draw import tdraw, canvas, clip_to, down, linear_gradient, paper, radial_gradient, wood, \
    transform
from .icons import cross_poly, vp_badge
from .palette import (FELT, GOLD, GOLD_DARK, GOLD_LIGHT, INK, IVORY, OAK, OXBLOOD, PARCHMENT_DARK,
                      SEPIA, WALNUT, WALNUT_DARK, mix, shade)


@surface_cache(6, 32, kept=True)   # the board's panels use theirs once, into the board's cached frame
def parchment(w: int, h: int) -> pygame.Surface:
    """An opaque sheet of parchment (gradient, mottling, vignette, grain), cached by size."""
    return paper(max(1, int(w)), max(1, int(h)), 1592)


@surface_cache(4, 32, kept=True)    # the window-sized one is drawn once into the board's cached frame
def wood_panel(w: int, h: int, inset: str = "parchment") -> pygame.Surface:
    """A walnut frame (mitred, bevelled, with gilt inner fillet) around a parchment inset.

    ``inset="felt"`` gives a green-blue baize inset instead (for the table/market tray).

    Each layer is blended in place and let go as soon as it is used: a window-sized panel once
    held about nine window-sized scratch surfaces at a time (50 MB at 1600x900).
    """
    w, h = max(4, int(w)), max(4, int(h))
    fw = max(3, round(min(w, h) * 0.045))
    rad = max(2, fw // 2)
    # frame: horizontal grain on top/bottom rails, vertical on the stiles, mitred corners. Only
    # the two stiles' columns of the vertical grain are kept, and the rounded corners are cut
    # from the corners alone: at most three window-sized pictures are alive at once (five were:
    # 40 MB at 1920x1080 when the board's table is drawn).
    cw = min(w, fw + 2)
    vert = wood(w, h, WALNUT, seed=5, vertical=True, bands=((0, cw), (w - cw, w)))
    stiles = []
    for x0, pts in ((0, [(0, 0), (fw, fw), (fw, h - fw), (0, h)]),
                    (w - cw, [(w, 0), (w - fw, fw), (w - fw, h - fw), (w, h)])):
        piece = vert.subsurface((x0, 0, cw, h)).copy()
        mask = canvas(cw, h, _CLEAR_WHITE)   # masks: white, opaque where the shape is
        pygame.draw.polygon(mask, (255, 255, 255), [(x - x0, y) for x, y in pts])
        piece.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        stiles.append((x0, piece))
    del vert, piece, mask
    # the rails: below them the inset covers the frame, when there is one (see below)
    covered = w - 2 * fw > 2 and h - 2 * fw > 2
    frame = wood(w, h, WALNUT, seed=3, bands=((0, fw + 1), (h - fw - 1, h)) if covered else None)
    for x0, piece in stiles:
        frame.blit(piece, (x0, 0))
    del stiles
    corners = _round_corners(w, h, rad)
    for r, mask in corners:
        frame.subsurface(r).blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    s = canvas(w, h)
    s.blit(frame, (0, 0))
    del frame
    # bevel: light top/left, dark bottom/right, mitre lines
    bw = max(1, fw // 5)
    bev = canvas(w, h)
    for i in range(bw):
        a = round(120 * (1 - i / bw))
        pygame.draw.line(bev, (255, 226, 180, a), (i, i), (w - i, i))
        pygame.draw.line(bev, (255, 226, 180, a // 2), (i, i + 1), (i, h - i))
        pygame.draw.line(bev, (0, 0, 0, a), (i, h - 1 - i), (w - i, h - 1 - i))
        pygame.draw.line(bev, (0, 0, 0, a * 2 // 3), (w - 1 - i, i + 1), (w - 1 - i, h - i - 1))
    for r, mask in corners:
        bev.subsurface(r).blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    s.blit(bev, (0, 0))
    del bev
    for a, b in (((0, 0), (fw, fw)), ((w, 0), (w - fw, fw)), ((0, h), (fw, h - fw)), ((w, h), (w - fw, h - fw))):
        tdraw(s, "line", (*WALNUT_DARK, 160), a, b, max(1, fw // 12))
    tdraw(s, "rect", (*WALNUT_DARK, 200), (0, 0, w, h), max(1, fw // 10), border_radius=rad)
    # the inset with a gilt fillet and an inner shadow
    r = pygame.Rect(fw, fw, w - 2 * fw, h - 2 * fw)
    if covered:   # (opaque: every pixel of the frame under it is replaced)
        if inset == "felt":
            tex = radial_gradient(r.w, r.h, lambda u, v, a=shade(FELT, 0.15), b=shade(FELT, -0.4): (*mix(a, b, min(
                1, math.hypot(u - 0.5, v - 0.5) * 1.5)), 255), 32)
        else:   # parchment(), not kept: only this panel shows it
            tex = paper(r.w, r.h, 1592)
        s.blit(tex, r.topleft)
        del tex
        g = max(1, fw // 6)
        pygame.draw.rect(s, GOLD_DARK, r.inflate(2 * g, 2 * g), g)
        pygame.draw.rect(s, GOLD_LIGHT, r.inflate(g, g), max(1, g // 2))
        shadow = canvas(r.w, r.h)
        depth = max(2, fw // 2)
        for i in range(depth):
            a = round(80 * (1 - i / depth) ** 2)
            pygame.draw.line(shadow, (30, 18, 8, a), (0, i), (r.w, i))
            pygame.draw.line(shadow, (30, 18, 8, a * 2 // 3), (i, 0), (i, r.h))
        s.blit(shadow, r.topleft)
    return s


_CLEAR_WHITE = (255, 255, 255, 0)


def _round_corners(w: int, h: int, rad: int) -> list[tuple[pygame.Rect, pygame.Surface]]:
    """The four corners of a ``w`` x ``h`` rectangle rounded by ``rad``, each as (its place, a mask
    to multiply there): white where the rounded rectangle is, clear white outside it. Elsewhere
    the whole rectangle's mask would be plain white, which changes nothing."""
    n = min(w, h, rad + 2)
    out = []
    for x0, y0 in ((0, 0), (w - n, 0), (0, h - n), (w - n, h - n)):
        mask = canvas(n, n, _CLEAR_WHITE)
        pygame.draw.rect(mask, (255, 255, 255), (-x0, -y0, w, h), border_radius=rad)
        out.append((pygame.Rect(x0, y0, n, n), mask))
    return out


@surface_cache(4, 64, kept=True)
def shelf(capacity: int, w: int, h: int) -> pygame.Surface:
    """A wooden warehouse shelf ``w``×``h`` with ``capacity`` recessed round spots."""
    w, h = max(4, int(w)), max(4, int(h))
    k = 3 if max(w, h) < 300 else 2
    W, H = w * k, h * k
    s = canvas(W, H)
    rad = round(H * 0.18)
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), (0, 0, W, H), border_radius=rad)
    s.blit(clip_to(wood(W, H, OAK, seed=11 + capacity, contrast=1.2), shape), (0, 0))
    # bevel and a darker front lip
    lip = max(2, H // 8)
    tdraw(s, "rect", (0, 0, 0, 70), (0, H - lip, W, lip), border_bottom_left_radius=rad,
                     border_bottom_right_radius=rad)
    tdraw(s, "rect", (255, 236, 200, 80), (0, 0, W, max(1, H // 14)), border_top_left_radius=rad,
                     border_top_right_radius=rad)
    pygame.draw.rect(s, WALNUT_DARK, (0, 0, W, H), max(1, H // 24), border_radius=rad)
    n = max(0, int(capacity))
    if n:
        d = min(H * 0.7, W / n * 0.78)
        step = W / n
        for i in range(n):
            cx, cy = step * (i + 0.5), H * 0.46
            hole = canvas(W, H)
            pygame.draw.circle(hole, (255, 255, 255), (cx, cy), d / 2)
            grad = radial_gradient(W, H, lambda u, v, cy=cy / H, a=shade(WALNUT, -0.55), b=shade(OAK, -0.15): (*mix(
                a, b, max(0.0, min(1.0, (v - cy) * H / d + 0.5))), 255), 24)
            s.blit(clip_to(grad, hole), (0, 0))
            tdraw(s, "circle", (*WALNUT_DARK, 220), (cx, cy), d / 2, max(1, H // 30))
            tdraw(s, "arc", (255, 230, 190, 120), (cx - d / 2, cy - d / 2, d, d), math.pi * 1.1, math.pi * 1.9,
                            max(1, H // 30))
    return down(s, (w, h))


@surface_cache(6, 256, kept=True)
def faith_space(n: int, w: int, h: int, *, pope: bool = False, section: bool = False,
                vp: int | None = None) -> pygame.Surface:
    """Space ``n`` of the faith track: parchment, ochre inside a Vatican section, oxblood with a gold
    cross on a Pope space; ``vp`` adds the victory points scored from there. The number, the
    points and the cross each have their own part of the space (:func:`faith_space_parts`): none
    covers another at any size."""
    w, h = max(4, int(w)), max(4, int(h))
    k = 4 if max(w, h) < 120 else 2
    W, H = w * k, h * k
    s = canvas(W, H)
    m = max(1, round(min(W, H) * 0.04))
    r = pygame.Rect(m, m, W - 2 * m, H - 2 * m)
    rad = round(min(W, H) * 0.12)
    if pope:
        top, bottom, edge, num = shade(OXBLOOD, 0.2), shade(OXBLOOD, -0.3), GOLD, GOLD_LIGHT
    elif section:
        top, bottom, edge, num = (238, 204, 132), (206, 160, 84), GOLD_DARK, INK
    else:
        top, bottom, edge, num = IVORY, PARCHMENT_DARK, SEPIA, SEPIA
    pygame.draw.rect(s, shade(edge, -0.3), r, border_radius=rad)
    shape = canvas(W, H)
    pygame.draw.rect(shape, (255, 255, 255), r.inflate(-2 * m, -2 * m), border_radius=max(0, rad - m))
    s.blit(clip_to(linear_gradient(W, H, top, bottom), shape), (0, 0))
    parts = {key: pygame.Rect(p.x * k, p.y * k, p.w * k, p.h * k)
             for key, p in faith_space_parts(n, w, h, pope=pope, vp=vp).items()}
    if "cross" in parts:
        c = parts["cross"]
        scale = c.w / 0.92    # (the cross's arms reach 0.46 of its scale either side)
        pygame.draw.polygon(s, shade(GOLD_DARK, -0.3), transform(cross_poly(), c.centerx, c.centery, scale))
        pygame.draw.polygon(s, GOLD_LIGHT, transform(cross_poly(0.16, 0.42, 0.075), c.centerx, c.centery, scale))
    t = fonts.figures(str(n), parts["number"].h, num, bold=True)
    s.blit(t, t.get_rect(center=parts["number"].center))
    if vp:
        p = parts["points"]
        if min(w, h) < 40:   # (a small window: a star-burst's number would be ~3 px) a plain gold disc
            pygame.draw.circle(s, shade(GOLD_DARK, -0.2), p.center, p.w / 2)
            pygame.draw.circle(s, GOLD_LIGHT, p.center, p.w / 2 - max(2, k))
            f = fonts.figures(str(vp), round(p.w * (0.56 if vp < 10 else 0.46)), INK, bold=True)
            s.blit(f, f.get_rect(center=p.center))
        else:
            b = vp_badge(int(vp), p.w)
            s.blit(b, b.get_rect(center=p.center))
    return down(s, (w, h))


def faith_space_parts(n: int, w: int, h: int, *, pope: bool = False,
                      vp: int | None = None) -> dict[str, pygame.Rect]:
    """Where the parts of a ``w`` x ``h`` faith space go, none over another: ``number`` (the box
    of its figures), ``points`` (the square of the victory points' disc, when ``vp``) and
    ``cross`` (the square of a Pope space's cross).

    A space with points has its number at the top and the disc under it; the Pope space with
    points (the last one) has the disc and the number side by side at the top, the cross under
    them; another Pope space, the cross in the middle and the number in a corner.
    """
    pad = max(1, round(min(w, h) * 0.09))
    inner = pygame.Rect(pad, pad, w - 2 * pad, h - 2 * pad)
    gap = max(1, round(min(w, h) * 0.05))

    def number(height: int, room: int | None = None, **anchor: Any) -> pygame.Rect:
        """The number's box, ``height`` tall (less, if it would be wider than ``room``)."""
        height = max(2, height)
        img = fonts.figures(str(n), height, INK, bold=True)
        while room is not None and img.get_width() > room and height > 2:
            height -= 1
            img = fonts.figures(str(n), height, INK, bold=True)
        r = pygame.Rect((0, 0), img.get_size())
        for key, at in anchor.items():
            setattr(r, key, at)
        return r

    if pope and vp:
        band = round(inner.h * 0.48)
        d = min(band, round(inner.w * 0.55))
        points = pygame.Rect(inner.x, inner.y, d, d)
        num = number(round(d * 0.55), inner.w - d - gap, midright=(inner.right, points.centery))
        left = inner.bottom - (points.bottom + gap)
        size = min(inner.w, left)
        cross = pygame.Rect(0, 0, size, size)
        cross.midbottom = (inner.centerx, inner.bottom)
        return {"number": num, "points": points, "cross": cross}
    if pope:
        size = round(min(w, h) * 0.57)
        cross = pygame.Rect(0, 0, size, size)
        cross.center = (round(w / 2), round(h * 0.45))
        return {"number": number(round(min(w, h) * 0.2), bottomright=inner.bottomright), "cross": cross}
    if vp:
        num = number(round(min(w, h) * 0.3), midtop=(inner.centerx, inner.y))
        d = min(inner.bottom - (num.bottom + gap), inner.w)
        points = pygame.Rect(0, 0, d, d)
        points.midbottom = (inner.centerx, inner.bottom)
        return {"number": num, "points": points}
    return {"number": number(round(min(w, h) * 0.3), center=(round(w / 2), round(h / 2)))}
