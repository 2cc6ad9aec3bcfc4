"""The market: 12 marbles on a tray, the slide marble, and an arrow at the end of each row and
column (click one to take that line)."""
from __future__ import annotations

import pygame

from game.i18n import _, pgettext

from game.client import board_input as BI
from game.client.plans import MarketPlan
from game.client.words import market_gives

from ..art import fonts as F
from ..art import icons as I
from ..art import marbles as M
from ..art import palette as P
from .base import Context, Hit, Panel, Target, glow, text, veil


class MarketPanel(Panel):
    def geometry(self, ctx: Context) -> tuple[int, int, int, int]:
        """(marble diameter, grid left, grid top, gap)."""
        grid = ctx.g["market"]["grid"]
        rows, cols = len(grid), len(grid[0])
        r = self.rect.inflate(-self.px(24), -self.px(24))
        d = int(min((r.w - 40 * self.unit) / (cols + 1.6), (r.h - 30 * self.unit) / (rows + 1.9)))
        gap = max(2, d // 8)
        gw = cols * d + (cols - 1) * gap
        left = r.x + (r.w - gw - d) // 2
        top = r.y + round(d * 1.05) + self.px(18)
        return d, left, top, gap

    def marble_rect(self, ctx: Context, row: int, col: int) -> pygame.Rect:
        d, left, top, gap = self.geometry(ctx)
        return pygame.Rect(left + col * (d + gap), top + row * (d + gap), d, d)

    def arrow_rects(self, ctx: Context) -> list[tuple[Target, pygame.Rect]]:
        """(("line", is_row, index), rect) for every row (at its right end) and column (below it)."""
        d, left, top, gap = self.geometry(ctx)
        grid = ctx.g["market"]["grid"]
        out: list[tuple[Target, pygame.Rect]] = []
        for ri, row in enumerate(grid):
            out.append((BI.Line(True, ri), pygame.Rect(left + len(row) * (d + gap), top + ri * (d + gap), d, d)))
        for ci in range(len(grid[0])):
            out.append((BI.Line(False, ci),
                        pygame.Rect(left + ci * (d + gap), top + len(grid) * (d + gap), d, round(d * 0.8))))
        return out

    def hits(self, ctx: Context) -> list[Hit]:
        grid = ctx.g["market"]["grid"]
        out = []
        for ri, row in enumerate(grid):
            for ci, _marble in enumerate(row):
                out.append(Hit(self.marble_rect(ctx, ri, ci), BI.Marble(ri, ci)))
        out += [Hit(rect, t) for t, rect in self.arrow_rects(ctx)]
        return out

    def draw_static(self, surface: pygame.Surface) -> None:
        text(surface, _("Market"), (self.rect.x + self.px(14), self.rect.y + self.px(6)), self.px(22), P.INK, "caps")

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        d, left, top, gap = self.geometry(ctx)
        grid = ctx.g["market"]["grid"]
        tray = pygame.Rect(left - gap * 2, top - gap * 2, len(grid[0]) * (d + gap) + gap * 3,
                           len(grid) * (d + gap) + gap * 3)
        pygame.draw.rect(surface, P.WALNUT, tray, border_radius=self.px(10))
        pygame.draw.rect(surface, P.GOLD, tray, width=2, border_radius=self.px(10))
        active_line = None
        if isinstance(ctx.plan, MarketPlan):
            active_line = (ctx.plan.is_row, ctx.plan.index)
        for ri, row in enumerate(grid):
            for ci, kind in enumerate(row):
                rect = self.marble_rect(ctx, ri, ci)
                surface.blit(M.marble(kind, d), rect)
                if active_line and ((active_line[0] and active_line[1] == ri) or (not active_line[0] and active_line[1] == ci)):
                    glow(surface, rect.inflate(2, 2), P.HIGHLIGHT[:3], radius=d // 2)
        slide = pygame.Rect(left + len(grid[0]) * (d + gap), top - d - gap * 3, d, d)   # above the top-right corner
        surface.blit(M.marble(ctx.g["market"]["slide"], d), slide)
        text(surface, pgettext("market", "slide"), (slide.centerx, slide.y - self.px(2)), self.px(14), P.SEPIA, "italic", anchor="midbottom")
        can = ctx.main_open and ctx.plan is None
        for line, rect in self.arrow_rects(ctx):
            is_row = line.is_row
            img = I.arrow("left" if is_row else "up", min(rect.w, rect.h))
            r = img.get_rect(center=rect.center)
            surface.blit(img, r)
            if not can:
                veil(surface, r, 90, radius=r.w // 2)
        if ctx.changed("market"):
            glow(surface, tray, P.GOLD_LIGHT[:3])

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        t = ctx.hover
        if not isinstance(t, BI.Line) or not ctx.main_open or ctx.plan is not None:
            return
        grid = ctx.g["market"]["grid"]
        for ri, row in enumerate(grid):
            for ci, _marble in enumerate(row):
                if (t.is_row and ri == t.index) or (not t.is_row and ci == t.index):
                    r = self.marble_rect(ctx, ri, ci)
                    glow(surface, r.inflate(2, 2), P.HIGHLIGHT[:3], radius=r.w // 2)
        rect = dict(self.arrow_rects(ctx))[t]
        glow(surface, rect, P.HIGHLIGHT[:3], radius=rect.w // 2)
        self._tip(surface, ctx, t)

    def _tip(self, surface: pygame.Surface, ctx: Context, t: BI.Line) -> None:
        tip = market_gives(ctx.session.market_line(t.is_row, t.index))
        img = F.render(tip, F.fit(tip, self.rect.w - self.px(30), self.px(17), "italic"), P.PARCHMENT, "italic")
        r = img.get_rect(midbottom=(self.rect.centerx, self.rect.bottom - self.px(6)))
        pygame.draw.rect(surface, P.INK, r.inflate(14, 6), border_radius=6)
        surface.blit(img, r)
