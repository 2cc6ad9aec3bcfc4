"""The faith track: 25 spaces, the Vatican sections and pope spaces, every player's marker,
Lorenzo's black cross, the player's favor tiles under their sections and, beside each, the
opponents' tiles of that section, small, in their colours."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from game.client import board_input as BI
from game.client.words import joined
from game.i18n import _, ngettext

from .. import art
from ..art import fonts as F
from ..art import icons as I
from ..art import palette as P
from ..art import tiles as T
from .base import PLAYER_COLORS, Context, Hit, Panel, glow


class FaithPanel(Panel):
    def geometry(self, ctx: Context) -> tuple[pygame.Rect, int, int, int]:
        """(inner rect, space width, space height, top of the spaces). The spaces stand under the
        pawns' row (:meth:`pawn_row`), the favor tiles under the spaces."""
        inner = self.rect.inflate(-self.px(20), -self.px(20))
        sw = inner.w // (ctx.g["faithTrack"]["maxFaith"] + 1)
        row_top, d = self.pawn_row(ctx)
        top = row_top + d + self.px(7)
        sh = min(round(sw * 1.25), self.rect.bottom - top - self.px(40))
        return inner, sw, sh, top

    def pawn_row(self, ctx: Context) -> tuple[int, int]:
        """(top, height) of the row above the spaces where the pawns and Lorenzo's cross stand:
        a pawn as large as that, over its space, covers neither its number nor its points."""
        sw = self.rect.inflate(-self.px(20), 0).w // (ctx.g["faithTrack"]["maxFaith"] + 1)
        return self.rect.y + self.px(7), min(round(sw * 0.72), self.px(24))

    @staticmethod
    def sections_of(g: dict) -> list[dict]:
        return sorted(g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])

    def sections(self, ctx: Context) -> list[dict]:
        return self.sections_of(ctx.g)

    def favor_rects(self, ctx: Context) -> list[pygame.Rect]:
        """Where the favor tiles sit: under the middle of their Vatican sections."""
        inner, sw, sh, top = self.geometry(ctx)
        tsize = min(self.px(36), self.rect.bottom - self.px(6) - (top + sh + self.px(2)))
        out = []
        for sec in self.sections(ctx):
            cx = inner.x + ((sec["faithPointsBeginning"] + sec["faithPointsEnd"]) / 2) * sw + sw // 2
            r = pygame.Rect(0, 0, tsize, tsize)
            r.midtop = (int(cx), top + sh + self.px(2))
            out.append(r)
        return out

    def opponents(self, ctx: Context) -> list[tuple[int, dict]]:
        """(seat, player) of everyone but the player, in seat order."""
        return [(seat, p) for seat, p in enumerate(ctx.g["players"]) if p["nickname"] != ctx.nickname]

    def mini_rects(self, ctx: Context) -> list[dict[str, pygame.Rect]]:
        """Per section, where each opponent's tile sits: small squares beside the player's own
        tile, two to a row ({nickname: rect})."""
        out = []
        others = self.opponents(ctx)
        for tile in self.favor_rects(ctx):
            m = max(8, round(tile.h * 0.46))
            gap = max(2, self.px(3))
            row: dict[str, pygame.Rect] = {}
            for k, (_seat, p) in enumerate(others):
                row[p["nickname"]] = pygame.Rect(tile.right + gap + (k % 2) * (m + gap),
                                                 tile.y + (k // 2) * (m + gap), m, m)
            out.append(row)
        return out

    def pawn_groups(self, ctx: Context) -> list[tuple[int, dict[int | str, tuple[int, int, int]]]]:
        """Who stands on each occupied space, [(the space's centre x, {who: (x, y, radius)})]:
        ``who`` is a player's seat, or "lorenzo" for his black cross in a solo game. The pawns stand
        in the row above the track (over nothing printed on it), those of one space side by side
        and never on each other; groups that would touch move apart, each kept over its own space,
        and all pawns shrink a little only when that cannot be done at full size."""
        inner, sw, _sh, _top = self.geometry(ctx)
        row_top, d1 = self.pawn_row(ctx)
        gap, apart = max(1, self.px(2)), max(2, self.px(5))
        here: dict[int, list[int | str]] = {}
        for seat, p in enumerate(ctx.g["players"]):
            here.setdefault(p["faithPoints"], []).append(seat)
        if len(ctx.g["players"]) == 1:
            here.setdefault(int(ctx.g.get("blackPoints") or 0), []).append("lorenzo")
        groups = sorted(here.items())
        centres = [inner.x + space * sw + sw // 2 - 1 for space, _who in groups]
        lo, hi = inner.x - self.px(3), inner.x + (ctx.g["faithTrack"]["maxFaith"] + 1) * sw + self.px(3)
        for d in range(d1, 5, -1):
            widths = [len(who) * d + (len(who) - 1) * gap for _space, who in groups]
            lefts = spread(list(zip(centres, widths)), apart, lo, hi)
            if all(abs(left + w / 2 - c) <= sw * 0.4 for left, w, c in zip(lefts, widths, centres)):
                break
        out = []
        for (_space, who), c, left in zip(groups, centres, lefts):
            out.append((c, {one: (round(left) + k * (d + gap) + d // 2, row_top + d1 - d // 2 - 1, d // 2)
                            for k, one in enumerate(who)}))
        return out

    def pawn_spots(self, ctx: Context) -> dict[int | str, tuple[int, int, int]]:
        """Where each pawn stands, {seat or "lorenzo": (x, y, radius)} (see :meth:`pawn_groups`)."""
        return {who: spot for _c, spots in self.pawn_groups(ctx) for who, spot in spots.items()}

    def hits(self, ctx: Context) -> list[Hit]:
        return [Hit(rect, BI.Favor(i)) for i, rect in enumerate(self.favor_rects(ctx))]

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        ft = ctx.g["faithTrack"]
        last = ft["maxFaith"]
        inner, sw, sh, top = self.geometry(ctx)
        sections = self.sections(ctx)
        vps = {t["faithPoints"]: t["victoryPoints"] for t in ft["yellowTiles"]}
        for n in range(last + 1):
            in_sec = any(s["faithPointsBeginning"] <= n <= s["faithPointsEnd"] for s in sections)
            pope = any(s["faithPointsEnd"] == n for s in sections)
            img = art.board.faith_space(n, sw - 2, sh, pope=pope, section=in_sec, vp=vps.get(n))
            surface.blit(img, (inner.x + n * sw, top))
        for c, spots in self.pawn_groups(ctx):
            xs = [x for x, _y, _r in spots.values()]
            r = next(iter(spots.values()))[2]
            foot = max(y for _x, y, _r in spots.values()) + r + 1   # a stand under the group, pointing at its space
            t = max(2, self.px(4))
            pygame.draw.line(surface, P.INK, (min(min(xs) - r // 2, c - t), foot), (max(max(xs) + r // 2, c + t), foot),
                             max(1, self.px(2)))
            pygame.draw.polygon(surface, P.INK, [(c - t, foot), (c + t, foot), (c, foot + t)])
            for who, (x, y, r) in spots.items():
                if who == "lorenzo":   # his black cross, as large as a pawn
                    img = I.black_cross(2 * r + 2)
                    surface.blit(img, img.get_rect(center=(x, y)))
                else:
                    pawn(surface, (x, y), r, PLAYER_COLORS[int(who) % 4])
        tiles = ctx.me.get("favorTiles", ["DOWN"] * len(sections))
        for i, rect in enumerate(self.favor_rects(ctx)):
            state = tiles[i] if i < len(tiles) else "DOWN"
            surface.blit(T.favor_tile(sections[i]["victoryPoints"], state, rect.h), rect)
        seats = {p["nickname"]: seat for seat, p in self.opponents(ctx)}
        for i, row in enumerate(self.mini_rects(ctx)):
            for nick, rect in row.items():
                theirs = ctx.vm.player(nick).get("favorTiles") or []
                self.draw_mini(surface, rect, sections[i]["victoryPoints"], theirs[i] if i < len(theirs) else "DOWN",
                               seats[nick])

    def draw_mini(self, surface: pygame.Surface, rect: pygame.Rect, vp: int, state: str, seat: int) -> None:
        """An opponent's tile, ringed in their colour."""
        surface.blit(T.favor_tile(vp, state, rect.h), rect)
        self.ring(surface, rect, seat)

    def ring(self, surface: pygame.Surface, rect: pygame.Rect, seat: int) -> None:
        """The player's colour around their tile, with a line of ink between the two (an amber
        ring stays apart from a gold tile)."""
        w = max(2, self.px(2))
        pygame.draw.rect(surface, PLAYER_COLORS[seat % 4], rect.inflate(2, 2), width=w,
                         border_radius=max(2, rect.h // 5))
        pygame.draw.rect(surface, P.INK, rect.inflate(2 - 2 * w, 2 - 2 * w), width=1,
                         border_radius=max(2, rect.h // 5))


def spread(items: list[tuple[float, float]], apart: float, lo: float, hi: float) -> list[float]:
    """Lay out along a line things of given widths, each wished centred at a point ([(centre,
    width)], in order of their centres): the left edge of each, none closer than ``apart`` to the
    next, all between ``lo`` and ``hi``; things that would touch are moved apart as a block, centred
    where their members wish to be on average."""
    blocks: list[list] = []   # [first, last, left]
    for i, (c, w) in enumerate(items):
        blocks.append([i, i, c - w / 2])
        while True:
            last = blocks[-1]
            span = sum(items[j][1] for j in range(last[0], last[1] + 1)) + apart * (last[1] - last[0])
            off, wish = 0.0, 0.0
            for j in range(last[0], last[1] + 1):
                wish += items[j][0] - (off + items[j][1] / 2)
                off += items[j][1] + apart
            last[2] = min(max(wish / (last[1] - last[0] + 1), lo), hi - span)
            if len(blocks) < 2:
                break
            prev = blocks[-2]
            right = prev[2] + sum(items[j][1] for j in range(prev[0], prev[1] + 1)) + apart * (prev[1] - prev[0])
            if right + apart <= last[2]:
                break
            blocks[-2:] = [[prev[0], last[1], 0.0]]
    lefts: list[float] = []
    for first, last_i, left in blocks:
        for j in range(first, last_i + 1):
            lefts.append(left)
            left += items[j][1] + apart
    return lefts


def pawn(surface: pygame.Surface, at: tuple[int, int], r: int, colour) -> None:
    """A player's pawn seen from above: their colour in a gold ring, inside a line of ink that
    keeps it apart from the track and from a neighbour, with a spot of light."""
    x, y = at
    pygame.draw.circle(surface, P.INK, (x, y), r)
    pygame.draw.circle(surface, P.GOLD_LIGHT, (x, y), r - 1)
    pygame.draw.circle(surface, colour, (x, y), max(1, r - max(2, r // 4)))
    if r >= 8:   # (smaller, the spot would blur the colour)
        pygame.draw.circle(surface, (255, 255, 255), (x - r // 3, y - r // 3), max(1, r // 5))


@dataclass
class VaticanMoment:
    """A Vatican report being shown: which section, who turned the tile face up, who lost it,
    and how long it has been shown."""
    index: int
    vp: int
    gained: list[str]
    lost: list[str]
    mine: str                     # the player's own tile now: "UP" or "REMOVED"
    t: float = 0.0

    DURATION = 4.0
    FLIP = 0.9                    # seconds the tile takes to turn over (or fade away)

    @property
    def done(self) -> bool:
        return self.t >= self.DURATION

    @classmethod
    def of(cls, ctx: Context, section_id: Any) -> "VaticanMoment | None":
        """The moment for the report of section ``section_id`` as the view model has it now."""
        sections = FaithPanel.sections_of(ctx.g)
        index = next((i for i, s in enumerate(sections) if s.get("id") == section_id), None)
        if index is None:
            return None
        sec = sections[index]
        gained = list(sec.get("bonusGivenPlayers") or [])
        lost = [p["nickname"] for p in ctx.g["players"] if p["nickname"] not in gained]
        mine = "UP" if ctx.nickname in gained else "REMOVED"
        return cls(index, sec["victoryPoints"], gained, lost, mine)

    def words(self, me: str) -> str:
        """The banner's words: "you, Ada and Bruno turn the tile face up: +2 VP; Cora loses it"."""

        parts = []
        gainers = [n for n in self.gained if n != me]
        if me in self.gained and not gainers:
            parts.append(_("you turn the tile face up: +{vp} VP").format(vp=self.vp))
        elif me in self.gained:
            # TRANSLATORS: {names} starts with "you" ("you, Ada and Bruno")
            parts.append(_("{names} turn the tile face up: +{vp} VP").format(
                names=joined([_("you"), *gainers]), vp=self.vp))
        elif gainers:
            parts.append(ngettext("{names} turns the tile face up: +{vp} VP", "{names} turn the tile face up: +{vp} VP",
                                  len(gainers)).format(names=joined(gainers), vp=self.vp))
        others = [n for n in self.lost if n != me]
        if others:
            parts.append(ngettext("{names} loses it", "{names} lose it", len(others)).format(names=joined(others)))
        if me in self.lost:
            parts.append(_("you were not in the section: your tile is removed"))
        return "; ".join(parts)


def _turn(surface: pygame.Surface, backdrop: pygame.Surface | None, tile: pygame.Rect, vp: int, up: bool,
          k: float) -> None:
    """One frame of a favor tile at ``tile`` turning face up (``up``) or being taken away, ``k``
    of the way through (0..1): the paper under it, then the tile rising off the board."""
    if backdrop is not None:
        surface.blit(backdrop, tile.inflate(6, 6), tile.inflate(6, 6))   # the paper under the tile
    pop = 1 + 0.7 * math.sin(math.pi * k)          # the tile rises off the board while it moves
    size = max(4, round(tile.h * pop))
    if up:                      # the tile turns over: narrows to an edge, widens showing its face
        face = "DOWN" if k < 0.5 else "UP"
        wk = abs(1 - 2 * k)
        img = T.favor_tile(vp, face, size)
        img = pygame.transform.smoothscale(img, (max(1, round(size * wk)), size))
        surface.blit(img, img.get_rect(center=tile.center))
    else:                       # the tile is taken away: it fades and sinks
        img = T.favor_tile(vp, "DOWN", size).copy()
        img.set_alpha(round(255 * (1 - k)))
        surface.blit(img, img.get_rect(center=tile.move(0, round(tile.h * 0.6 * k)).center))
        if k >= 1:
            surface.blit(T.favor_tile(vp, "REMOVED", tile.h), tile)


def draw_moment(surface: pygame.Surface, ctx: Context, panel: FaithPanel, moment: VaticanMoment,
                backdrop: pygame.Surface | None, room: pygame.Rect | None = None) -> None:
    """The report's moment over the track: its section lights up, the player's tile and every
    opponent's turn face up or fade away, and a banner says who got what: in ``room`` (free space
    under the track, below the section's tile) when it fits there, so that it covers no other
    section's tile."""
    inner, sw, sh, top = panel.geometry(ctx)
    sec = panel.sections(ctx)[moment.index]
    pulse = 0.5 + 0.5 * math.sin(moment.t * 6.0)
    span = pygame.Rect(inner.x + sec["faithPointsBeginning"] * sw - 3, top - 3,
                       (sec["faithPointsEnd"] - sec["faithPointsBeginning"] + 1) * sw + 4, sh + 6)
    layer = pygame.Surface(span.size, pygame.SRCALPHA)
    layer.fill((*P.GOLD_LIGHT, round(70 + 80 * pulse)))
    surface.blit(layer, span)
    glow(surface, span, P.GOLD_LIGHT[:3] if moment.mine == "UP" else P.OXBLOOD[:3], width=4)
    tile = panel.favor_rects(ctx)[moment.index]
    k = min(1.0, moment.t / moment.FLIP)
    _turn(surface, backdrop, tile, moment.vp, moment.mine == "UP", k)
    if k >= 1 and moment.mine == "UP":
        glow(surface, tile, P.GOLD_LIGHT[:3], width=3)
    # every opponent's tile of the section turns (or goes) at the same moment, ringed in their
    # colour, lit gold or red while the report is shown
    seats = {p["nickname"]: seat for seat, p in panel.opponents(ctx)}
    minis = panel.mini_rects(ctx)[moment.index]
    for nick, rect in minis.items():
        _turn(surface, backdrop, rect, moment.vp, nick in moment.gained, k)
    for nick, rect in minis.items():
        panel.ring(surface, rect, seats[nick])
        glow(surface, rect, (P.GOLD_LIGHT if nick in moment.gained else P.OXBLOOD)[:3], width=2, radius=3)
    tile = tile.unionall(list(minis.values())) if minis else tile
    # the banner, hanging under the track beside the section's tile
    size = max(14, panel.px(24))
    head = F.render(_("Vatican report {n}").format(n=moment.index + 1), size, P.GOLD_LIGHT, "caps")
    small = max(12, panel.px(18))
    words = moment.words(ctx.nickname)
    if room is not None:           # wrapped to the room's width, under the section
        from ..backdrop import wrap
        texts = wrap(words, small, room.w - panel.px(36), "italic")
    else:
        texts = [words]
    lines = [F.render(t, small, P.PARCHMENT, "italic") for t in texts]
    line_h = round(small * 1.2)
    w = max([head.get_width()] + [ln.get_width() for ln in lines]) + panel.px(36)
    h = head.get_height() + line_h * len(lines) + panel.px(14)
    if room is not None and h <= room.h:
        box = pygame.Rect(0, 0, min(w, room.w), h)
        box.midtop = (tile.centerx, room.y)
        box.clamp_ip(room)
    else:
        lines = lines[:1]
        box = pygame.Rect(0, 0, min(w, panel.rect.w - panel.px(20)), head.get_height() + line_h + panel.px(14))
        if span.centerx < inner.centerx:
            box.topleft = (tile.right + panel.px(16), tile.y)
        else:
            box.topright = (tile.x - panel.px(16), tile.y)
        box.clamp_ip(panel.rect.inflate(-panel.px(8), 4 * h))
    alpha = 235 if moment.t < moment.DURATION - 0.5 else round(235 * max(0.0, moment.DURATION - moment.t) / 0.5)
    bg = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(bg, (*P.INK, alpha), bg.get_rect(), border_radius=8)
    pygame.draw.rect(bg, (*P.GOLD, alpha), bg.get_rect(), width=2, border_radius=8)
    surface.blit(bg, box)
    if alpha > 40:
        surface.blit(head, head.get_rect(midtop=(box.centerx, box.y + panel.px(3))))
        y = box.y + panel.px(3) + head.get_height()
        for line in lines:
            if line.get_width() > box.w - panel.px(12):
                line = pygame.transform.smoothscale(line, (box.w - panel.px(12), line.get_height()))
            surface.blit(line, line.get_rect(midtop=(box.centerx, y)))
            y += line_h
