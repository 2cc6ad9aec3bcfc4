"""The faith track: 25 spaces, the Vatican sections and pope spaces, every player's marker,
Lorenzo's black cross, and the player's favor tiles under their sections."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from .. import art
from ..art import cards as C
from ..art import fonts as F
from ..art import icons as I
from ..art import palette as P
from .base import PLAYER_COLORS, Context, Hit, Panel, glow


class FaithPanel(Panel):
    def geometry(self, ctx: Context) -> tuple[pygame.Rect, int, int, int]:
        """(inner rect, space width, space height, top of the spaces)."""
        inner = self.rect.inflate(-self.px(20), -self.px(20))
        sw = inner.w // (ctx.g["faithTrack"]["maxFaith"] + 1)
        sh = min(round(sw * 1.25), inner.h - self.px(40))
        return inner, sw, sh, inner.y + self.px(6)

    @staticmethod
    def sections_of(g: dict) -> list[dict]:
        return sorted(g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])

    def sections(self, ctx: Context) -> list[dict]:
        return self.sections_of(ctx.g)

    def favor_rects(self, ctx: Context) -> list[pygame.Rect]:
        """Where the favor tiles sit: under the middle of their Vatican sections."""
        inner, sw, sh, top = self.geometry(ctx)
        tsize = min(self.px(36), inner.bottom - (top + sh) - self.px(2))
        out = []
        for sec in self.sections(ctx):
            cx = inner.x + ((sec["faithPointsBeginning"] + sec["faithPointsEnd"]) / 2) * sw + sw // 2
            r = pygame.Rect(0, 0, tsize, tsize)
            r.midtop = (int(cx), top + sh + self.px(2))
            out.append(r)
        return out

    def hits(self, ctx: Context) -> list[Hit]:
        return [Hit(rect, ("favor", i)) for i, rect in enumerate(self.favor_rects(ctx))]

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
        players = ctx.g["players"]
        marker = max(6, sw // 3)
        for seat, p in enumerate(players):
            x = inner.x + p["faithPoints"] * sw + sw // 2
            y = top + sh - marker - 2 - (seat % 2) * (marker // 2) - (seat // 2) * marker
            pygame.draw.circle(surface, (20, 12, 6), (x + 1, y + 2), marker // 2 + 2)
            pygame.draw.circle(surface, PLAYER_COLORS[seat % 4], (x, y), marker // 2 + 1)
            pygame.draw.circle(surface, P.GOLD_LIGHT, (x, y), marker // 2 + 1, width=2)
        if len(players) == 1:
            img = I.black_cross(marker + 6)
            x = inner.x + ctx.g["blackPoints"] * sw + sw // 2
            surface.blit(img, img.get_rect(center=(x, top + marker)))
        tiles = ctx.me.get("favorTiles", ["DOWN"] * len(sections))
        for i, rect in enumerate(self.favor_rects(ctx)):
            state = tiles[i] if i < len(tiles) else "DOWN"
            surface.blit(C.favor_tile(sections[i]["victoryPoints"], state, rect.h), rect)


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
        def name(n: str) -> str:
            return "you" if n == me else n
        parts = []
        if self.gained:
            parts.append(f"{' and '.join(name(n) for n in self.gained)} turn{'s' * (len(self.gained) == 1 and self.gained[0] != me)}"
                         f" the tile face up: +{self.vp} VP")
        if self.lost:
            parts.append(f"{' and '.join(name(n) for n in self.lost)} lose{'s' * (len(self.lost) == 1 and self.lost[0] != me)} it")
        return "; ".join(parts)


def draw_moment(surface: pygame.Surface, ctx: Context, panel: FaithPanel, moment: VaticanMoment,
                backdrop: pygame.Surface | None) -> None:
    """The report's moment over the track: its section lights up, the player's tile turns face
    up or fades away, and a banner says who got what."""
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
    if backdrop is not None:
        surface.blit(backdrop, tile.inflate(6, 6), tile.inflate(6, 6))   # the paper under the tile
    k = min(1.0, moment.t / moment.FLIP)
    pop = 1 + 0.7 * math.sin(math.pi * k)          # the tile rises off the board while it moves
    size = max(4, round(tile.h * pop))
    if moment.mine == "UP":     # the tile turns over: narrows to an edge, widens showing its face
        face = "DOWN" if k < 0.5 else "UP"
        wk = abs(1 - 2 * k)
        img = C.favor_tile(moment.vp, face, size)
        img = pygame.transform.smoothscale(img, (max(1, round(size * wk)), size))
        surface.blit(img, img.get_rect(center=tile.center))
        if k >= 1:
            glow(surface, tile, P.GOLD_LIGHT[:3], width=3)
    else:                       # the tile is taken away: it fades and sinks
        img = C.favor_tile(moment.vp, "DOWN", size).copy()
        img.set_alpha(round(255 * (1 - k)))
        surface.blit(img, img.get_rect(center=tile.move(0, round(tile.h * 0.6 * k)).center))
        if k >= 1:
            surface.blit(C.favor_tile(moment.vp, "REMOVED", tile.h), tile)
    # the banner, hanging under the track beside the section's tile
    size = max(14, panel.px(24))
    head = F.render(f"Vatican report {moment.index + 1}", size, P.GOLD_LIGHT, "caps")
    line = F.render(moment.words(ctx.nickname), max(12, panel.px(18)), P.PARCHMENT, "italic")
    w = max(head.get_width(), line.get_width()) + panel.px(36)
    h = head.get_height() + line.get_height() + panel.px(14)
    box = pygame.Rect(0, 0, min(w, panel.rect.w - panel.px(20)), h)
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
        if line.get_width() > box.w - panel.px(12):
            line = pygame.transform.smoothscale(line, (box.w - panel.px(12), line.get_height()))
        surface.blit(line, line.get_rect(midbottom=(box.centerx, box.bottom - panel.px(4))))
