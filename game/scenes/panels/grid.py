"""The development card grid: the top card of each deck (colour by level), how many are left,
which the player can buy now."""
from __future__ import annotations

import pygame

from game.i18n import _, pgettext

from game.client import board_input as BI
from game.client.plans import BuyPlan

from ..art import cards as C
from ..art.card_parts import card_width
from ..art import palette as P
from .base import Context, Hit, Panel, glow, text, veil

COLOR_ORDER = ["Green", "Blue", "Yellow", "Purple"]


class GridPanel(Panel):
    def colors(self, ctx: Context) -> list[str]:
        colors = list(ctx.g["devCardGrid"]["topCards"])
        return [c for c in COLOR_ORDER if c in colors] + [c for c in colors if c not in COLOR_ORDER]

    def card_rects(self, ctx: Context) -> list[tuple[str, int, pygame.Rect]]:
        """(colour, level, rect) of every deck, level 3 on top."""
        r = self.rect.inflate(-self.px(16), -self.px(34))
        colors = self.colors(ctx)
        levels = ctx.g["devCardGrid"]["levelsCount"]
        gap = self.px(6)
        h = min((r.h - gap * (levels - 1)) // levels, int((r.w - gap * (len(colors) - 1)) / len(colors) / 0.66))
        w = card_width(h)
        left = r.x + (r.w - (len(colors) * w + (len(colors) - 1) * gap)) // 2
        top = self.rect.y + self.px(26)
        out = []
        for ci, color in enumerate(colors):
            for row in range(levels):
                out.append((color, levels - row, pygame.Rect(left + ci * (w + gap), top + row * (h + gap), w, h)))
        return out

    def hits(self, ctx: Context) -> list[Hit]:
        return [Hit(rect, BI.Card(color, level)) for color, level, rect in self.card_rects(ctx)]

    def draw_static(self, surface: pygame.Surface) -> None:
        text(surface, _("Development cards"), (self.rect.x + self.px(14), self.rect.y + self.px(4)), self.px(20),
             P.INK, "caps")

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        prods = ctx.productions()
        can = ctx.main_open and ctx.plan is None
        buyable = ctx.buyable() if can else set()
        top = ctx.g["devCardGrid"]["topCards"]
        left_counts = ctx.g["devCardGrid"].get("cardsLeft", {})
        for color, level, rect in self.card_rects(ctx):
            cid = top[color][level] if level < len(top[color]) else None
            if cid is None:
                pygame.draw.rect(surface, P.PARCHMENT_DARK, rect, border_radius=8)
                pygame.draw.rect(surface, P.SEPIA, rect, width=1, border_radius=8)
                text(surface, pgettext("deck", "empty"), rect.center, self.px(16), P.SEPIA, "italic", anchor="center")
                continue
            surface.blit(C.dev_card(ctx.cards[cid], prods, rect.h), rect)
            n = left_counts.get(color, [0, 0, 0, 0])[level] if left_counts else None
            if n:
                badge = pygame.Rect(0, 0, self.px(26), self.px(20))
                badge.bottomright = (rect.right - self.px(3), rect.bottom - self.px(3))
                pygame.draw.rect(surface, P.INK, badge, border_radius=6)
                text(surface, f"×{n}", badge.center, self.px(14), P.PARCHMENT, "regular", anchor="center")
            if can and (color, level) not in buyable:
                veil(surface, rect, 80)
            elif (color, level) in buyable:
                glow(surface, rect, P.GOLD_LIGHT[:3], width=2)
            if isinstance(ctx.plan, BuyPlan) and ctx.plan.card.id == cid:
                glow(surface, rect, P.OXBLOOD[:3], width=4)
        if ctx.changed("grid"):
            glow(surface, self.rect, P.GOLD_LIGHT[:3])

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        t = ctx.hover
        if not isinstance(t, BI.Card) or not ctx.main_open or ctx.plan is not None:
            return
        if (t.color, t.level) in ctx.buyable():
            rect = next(r for c, lv, r in self.card_rects(ctx) if (c, lv) == (t.color, t.level))
            glow(surface, rect, P.HIGHLIGHT[:3])
