"""The faith track: 25 spaces, the Vatican sections and pope spaces, every player's marker,
Lorenzo's black cross, and the player's favor tiles under their sections."""
from __future__ import annotations

import pygame

from .. import art
from ..art import cards as C
from ..art import icons as I
from ..art import palette as P
from .base import PLAYER_COLORS, Context, Hit, Panel


class FaithPanel(Panel):
    def geometry(self, ctx: Context) -> tuple[pygame.Rect, int, int, int]:
        """(inner rect, space width, space height, top of the spaces)."""
        inner = self.rect.inflate(-self.px(20), -self.px(20))
        sw = inner.w // (ctx.g["faithTrack"]["maxFaith"] + 1)
        sh = min(round(sw * 1.25), inner.h - self.px(40))
        return inner, sw, sh, inner.y + self.px(6)

    def sections(self, ctx: Context) -> list[dict]:
        return sorted(ctx.g["faithTrack"]["vaticanSections"].values(), key=lambda s: s["faithPointsEnd"])

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
