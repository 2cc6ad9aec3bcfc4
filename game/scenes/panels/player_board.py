"""A player's board: warehouse shelves and leader depots, strongbox, base production, the three
card slots (with what lies under each top card) and the leaders. The same panel shows the
player's own board and, larger, an opponent's."""
from __future__ import annotations

from typing import Any

import pygame

from game.client import board_input as BI
from game.i18n import _, pgettext
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan

from .. import art
from ..art import cards as C
from ..art import leader_cards as L
from ..art.card_parts import card_width
from ..art import icons as I
from ..art import palette as P
from ..layout import board_parts
from .base import RESOURCES, Context, Hit, Panel, glow, text, veil


class PlayerBoardPanel(Panel):
    def __init__(self, rect: pygame.Rect, unit: float) -> None:
        super().__init__(rect, unit)
        self.warehouse, self.strongbox, self.base_production, self.slots, self.leaders = board_parts(self.rect, unit)

    # ------------------------------------------------------------------ geometry
    def shelf_rects(self, ctx: Context, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        r = self.warehouse
        title = self.px(24)
        caps = [ctx.vm.container(cid)["size"] for cid in p["warehouseShelves"]]
        depots = p.get("leaderDepots", [])
        rows = len(caps) + (1 if depots else 0)
        h = min(self.px(52), (r.h - title) // max(1, rows) - self.px(4))
        cell = h - self.px(8)
        out = {}
        for i, (cid, cap) in enumerate(zip(p["warehouseShelves"], caps)):
            w = cap * cell + (cap + 1) * self.px(6)
            out[cid] = pygame.Rect(r.centerx - w // 2, r.y + title + i * (h + self.px(4)), w, h)
        return out

    def depot_rects(self, ctx: Context, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        depots = p.get("leaderDepots", [])
        if not depots:
            return {}
        shelves = self.shelf_rects(ctx, p)
        last = max(shelves.values(), key=lambda r: r.bottom)
        gap = self.px(8)
        w = (self.warehouse.w - gap * (len(depots) - 1)) // len(depots)
        w = min(w, round(last.h * 2.6))
        x0 = self.warehouse.centerx - (len(depots) * w + (len(depots) - 1) * gap) // 2
        return {cid: pygame.Rect(x0 + i * (w + gap), last.bottom + self.px(4), w, last.h)
                for i, cid in enumerate(depots)}

    def slot_card_rect(self, slot: int, index: int, count: int) -> pygame.Rect:
        """Card ``index`` (0 = bottom) of a slot: covered cards peek out above the top card."""
        r = self.slots[slot]
        peek = self.px(22)
        h = min(r.h - peek * 2 - self.px(8), int(r.w / 0.66))
        w = card_width(h)
        bottom = r.bottom - self.px(6)
        return pygame.Rect(r.centerx - w // 2, bottom - h - (count - 1 - index) * peek, w, h)

    def leader_rects(self, p: dict[str, Any]) -> dict[int, pygame.Rect]:
        """Leaders side by side or stacked, whichever shows them larger."""
        r = self.leaders
        ids = list(p["leadersHand"])
        if not ids:
            return {}
        n = len(ids)
        gap = self.px(8)
        label = self.px(16)   # room for "in hand" above each card
        side = min(r.h - label, int((r.w - gap * (n - 1)) / n / 0.66))
        stacked = min((r.h - gap * (n - 1)) // n - label, int(r.w / 0.66))
        out = {}
        if stacked > side:
            w = card_width(stacked)
            for i, lid in enumerate(ids):
                out[lid] = pygame.Rect(r.centerx - w // 2, r.y + label + i * (stacked + gap + label), w, stacked)
        else:
            w = card_width(side)
            x0 = r.centerx - (n * w + (n - 1) * gap) // 2
            for i, lid in enumerate(ids):
                out[lid] = pygame.Rect(x0 + i * (w + gap), r.y + (r.h - side) // 2, w, side)
        return out

    def hits(self, ctx: Context, p: dict[str, Any] | None = None) -> list[Hit]:
        p = p if p is not None else ctx.me
        out: list[Hit] = []
        for cid, rect in self.shelf_rects(ctx, p).items():
            out.append(Hit(rect, BI.Shelf(cid)))
        for cid, rect in self.depot_rects(ctx, p).items():
            out.append(Hit(rect, BI.Shelf(cid)))
        out.append(Hit(self.strongbox, BI.Strongbox(p["strongbox"])))
        out.append(Hit(self.base_production, BI.Production(p["baseProduction"])))
        for i, rect in enumerate(self.slots):
            slot = p["devSlots"][i]
            out.append(Hit(rect, BI.Slot(i)))
            if slot:
                top = ctx.cards[slot[-1]]
                out.append(Hit(self.slot_card_rect(i, len(slot) - 1, len(slot)), BI.Production(top["production"])))
        for lid, rect in self.leader_rects(p).items():
            out.append(Hit(rect, BI.Leader(lid)))
            ld = ctx.leaders[lid]
            if ld["active"] and ld["leaderType"] == "PRODUCTION":
                out.append(Hit(rect, BI.Production(ld["production"])))
        return out

    # ------------------------------------------------------------------ drawing
    def draw_static(self, surface: pygame.Surface) -> None:
        """The board's frame: walnut, parchment, the warehouse's heading."""
        surface.blit(art.board.wood_panel(self.rect.w, self.rect.h), self.rect)
        inner = self.rect.inflate(-self.px(10), -self.px(10))
        surface.blit(art.board.parchment(inner.w, inner.h), inner)
        pygame.draw.rect(surface, P.GOLD, inner, width=2, border_radius=4)
        text(surface, _("Warehouse"), (self.warehouse.x, self.warehouse.y), self.px(18), P.SEPIA, "caps")

    def draw(self, surface: pygame.Surface, ctx: Context, p: dict[str, Any] | None = None) -> None:
        own = p is None
        p = ctx.me if p is None else p
        if not own:
            self.draw_static(surface)
        plan = ctx.plan if own else None
        paying: dict[int, dict[str, int]] = {}
        if isinstance(plan, BuyPlan):
            paying = plan.payment.taken
        elif isinstance(plan, ProductionPlan) and plan.selected:
            paying = plan.get_payment().taken
        changed = {c.key for c in ctx.changed("container")}
        self._draw_shelves(surface, ctx, p, own, paying, changed)
        self._draw_strongbox(surface, ctx, p, paying, changed)
        self._draw_base(surface, ctx, p, own)
        self._draw_slots(surface, ctx, p, own)
        self._draw_leaders(surface, ctx, p, own)

    def _draw_shelves(self, surface, ctx: Context, p, own: bool, paying, changed) -> None:
        plan = ctx.plan if own else None
        pending: dict[int, dict[str, int]] = plan.placement() if isinstance(plan, MarketPlan) else {}
        targets: set[int] = set()
        if isinstance(plan, MarketPlan) and ctx.selected_item is not None:
            targets = set(plan.targets_for(ctx.selected_item))
        arranged = plan.arranged() if isinstance(plan, MarketPlan) and plan.moves else {}
        for cid, rect in {**self.shelf_rects(ctx, p), **self.depot_rects(ctx, p)}.items():
            c = ctx.vm.container(cid)
            cap = c["size"]
            surface.blit(art.board.shelf(cap, rect.w, rect.h), rect)
            cell = rect.h - self.px(10)
            items: list[tuple[str, str]] = []
            for res, n in arranged.get(cid, c["content"]).items():   # as the plan rearranges them
                items += [(res, "held")] * n
            for res, n in pending.get(cid, {}).items():
                items += [(res, "new")] * n
            for res, n in paying.get(cid, {}).items():
                for k in range(len(items)):
                    if items[k] == (res, "held") and n > 0:
                        items[k] = (res, "paid")
                        n -= 1
            step = (rect.w - self.px(6)) / max(1, cap)
            for k, (res, state) in enumerate(items[:cap]):
                icon = I.resource_icon(res, cell)
                ir = icon.get_rect(center=(int(rect.x + self.px(3) + step * (k + 0.5)), rect.centery))
                surface.blit(icon, ir)
                if state == "new":
                    glow(surface, ir, P.HIGHLIGHT[:3], width=2, radius=cell // 2)
                elif state == "paid":
                    veil(surface, ir, 150, radius=cell // 2)
            if c.get("boundedResType") and cid in p.get("leaderDepots", []) and not c["content"]:
                ghost = I.resource_icon(c["boundedResType"], cell).copy()
                ghost.set_alpha(70)
                surface.blit(ghost, ghost.get_rect(center=rect.center))
            if cid in targets:
                glow(surface, rect, P.HIGHLIGHT[:3])
            elif own and ctx.selected_shelf == cid:
                glow(surface, rect, P.OXBLOOD[:3])
            elif cid in changed:
                glow(surface, rect, P.GOLD_LIGHT[:3], width=2)

    def held_at(self, ctx: Context, cid: int, pos: tuple[int, int]) -> str | None:
        """The resource already stored on shelf or depot ``cid`` (as a market plan rearranges it)
        whose marble is under ``pos``, or None (an empty place, a planned one, or elsewhere)."""
        p = ctx.me
        rect = {**self.shelf_rects(ctx, p), **self.depot_rects(ctx, p)}.get(cid)
        if rect is None or not rect.collidepoint(pos):
            return None
        plan = ctx.plan
        content = (plan.arranged() if isinstance(plan, MarketPlan) and plan.moves else {}).get(
            cid, ctx.vm.container(cid)["content"])
        held = [res for res, n in content.items() for _k in range(n)]
        cap = ctx.vm.container(cid)["size"]
        step = (rect.w - self.px(6)) / max(1, cap)
        k = int((pos[0] - rect.x - self.px(3)) // step) if step else -1
        return held[k] if 0 <= k < len(held) else None

    def _draw_strongbox(self, surface, ctx: Context, p, paying, changed) -> None:
        sb = self.strongbox
        pygame.draw.rect(surface, P.OAK, sb, border_radius=8)
        pygame.draw.rect(surface, P.WALNUT_DARK, sb, width=2, border_radius=8)
        text(surface, _("Strongbox"), (sb.x + self.px(8), sb.y + self.px(3)), self.px(16), P.PARCHMENT, "caps")
        box = ctx.vm.container(p["strongbox"])["content"]
        isz = min(self.px(30), sb.h - self.px(30))
        bx = sb.x + self.px(8)
        for res in RESOURCES:
            n = box.get(res, 0)
            icon = I.resource_icon(res, isz)
            surface.blit(icon, (bx, sb.bottom - isz - self.px(6)))
            text(surface, f"{n}", (bx + isz + self.px(3), sb.bottom - isz - self.px(4)), self.px(20),
                 P.PARCHMENT if n else P.PARCHMENT_DARK)
            taken = paying.get(p["strongbox"], {}).get(res, 0)
            if taken:
                text(surface, f"−{taken}", (bx + isz + self.px(3), sb.bottom - isz - self.px(22)), self.px(15),
                     P.GOLD_LIGHT)
            bx += (sb.w - self.px(16)) // 4
        if p["strongbox"] in changed:
            glow(surface, sb, P.GOLD_LIGHT[:3], width=2)

    def _draw_base(self, surface, ctx: Context, p, own: bool) -> None:
        """Base production: "? ? → ?" in a framed strip above the strongbox."""
        bp = self.base_production
        pygame.draw.rect(surface, P.PARCHMENT_DARK, bp, border_radius=8)
        pygame.draw.rect(surface, P.GOLD, bp, width=2, border_radius=8)
        text(surface, pgettext("production", "Base"), (bp.x + self.px(8), bp.centery), self.px(16), P.SEPIA, "caps", anchor="midleft")
        label_w = self.px(58)
        gap = self.px(4)
        q = max(8, min(bp.h - self.px(12), (bp.w - label_w - self.px(10) - 3 * gap) // 4))
        any_icon = I.resource_icon("Any", q)
        x = bp.x + label_w
        for img in (any_icon, any_icon, I.arrow("right", q), any_icon):
            surface.blit(img, img.get_rect(midleft=(x, bp.centery)))
            x += q + gap
        self._production_marks(surface, ctx, bp, p["baseProduction"], own)

    def _draw_slots(self, surface, ctx: Context, p, own: bool) -> None:
        plan = ctx.plan if own else None
        prods = ctx.productions()
        for i, rect in enumerate(self.slots):
            pygame.draw.rect(surface, (*P.PARCHMENT_DARK[:3],), rect, border_radius=8)
            pygame.draw.rect(surface, P.SEPIA, rect, width=1, border_radius=8)
            slot = p["devSlots"][i]
            level = ctx.cards[slot[-1]]["level"] if slot else 0
            hint = _("takes level {n}").format(n=level + 1) if level < 3 else pgettext("slot", "full")
            free = (self.slot_card_rect(i, 0, len(slot)).top if slot else rect.bottom) - rect.top
            if free >= self.px(48):   # the room above the cards says what the slot takes next
                mid = rect.top + free // 2 if slot else rect.centery
                text(surface, _("Slot {n}").format(n=i + 1), (rect.centerx, mid - self.px(10)), self.px(18), P.SEPIA, "italic",
                     anchor="center")
                text(surface, hint, (rect.centerx, mid + self.px(12)), self.px(14), P.SEPIA, "italic", anchor="center")
            for k, cid in enumerate(slot):
                cr = self.slot_card_rect(i, k, len(slot))
                surface.blit(C.dev_card(ctx.cards[cid], prods, cr.h), cr)
            if slot:
                top_rect = self.slot_card_rect(i, len(slot) - 1, len(slot))
                self._production_marks(surface, ctx, top_rect, ctx.cards[slot[-1]]["production"], own)
            if isinstance(plan, BuyPlan) and i in plan.slots:
                glow(surface, rect, P.OXBLOOD[:3] if plan.slot == i else P.HIGHLIGHT[:3],
                     width=3 if plan.slot == i else 2)
            if any(c.key == (p["nickname"], i) for c in ctx.changed("slot")):
                glow(surface, rect, P.GOLD_LIGHT[:3], width=2)

    def _draw_leaders(self, surface, ctx: Context, p, own: bool) -> None:
        """A played leader stands in full colour in a gold frame, a "Played" ribbon over it; a leader in
        hand is held back under a veil with a dashed outline; an opponent's hidden leaders are
        shown by their backs."""
        prods = ctx.productions()
        rects = self.leader_rects(p)
        for lid, rect in rects.items():
            ld = ctx.leaders[lid]
            surface.blit(L.leader_card(ld, prods, rect.h), rect)
            if ld["active"]:
                pygame.draw.rect(surface, P.GOLD, rect.inflate(6, 6), width=max(2, self.px(4)), border_radius=8)
                glow(surface, rect.inflate(6, 6), P.GOLD_LIGHT[:3], width=3)
                place = self.sash_rect(rect)
                surface.blit(played_sash(rect.w, place.h), place)
                if ld["leaderType"] == "PRODUCTION":
                    self._production_marks(surface, ctx, rect, ld["production"], own)
            else:
                veil(surface, rect, 95, radius=8)
                dashed_outline(surface, rect.inflate(4, 4), P.SEPIA, max(1, self.px(2)))
                text(surface, _("in hand"), (rect.centerx, rect.y - self.px(2)), self.px(14), P.SEPIA, "italic",
                     anchor="midbottom")
        hidden = p["leadersHandCount"] - len(p["leadersHand"])
        if hidden > 0 and not own:
            floor = self.leaders.bottom - self.px(20)            # above the caption
            ceiling = max((r.bottom for r in rects.values()), default=self.leaders.y) + self.px(8)
            h = max(12, min(self.leaders.h // 3, self.px(90), floor - ceiling))
            back = C.card_back("leader", h)
            x = self.leaders.centerx - (hidden * back.get_width() + (hidden - 1) * self.px(6)) // 2
            y = floor - h
            for i in range(hidden):
                surface.blit(back, (x + i * (back.get_width() + self.px(6)), y))
            text(surface, _("{n} in hand, hidden").format(n=hidden), (self.leaders.centerx, self.leaders.bottom),
                 self.px(15), P.SEPIA, "italic", anchor="midbottom")

    def sash_rect(self, card: pygame.Rect) -> pygame.Rect:
        """Where a played leader's "Played" ribbon goes: above the card, where "in hand" is
        written for a leader in hand (on the card it hid the requirement)."""
        h = max(10, self.px(13))
        r = pygame.Rect(0, 0, max(20, round(card.w * 0.8)), h)
        r.midbottom = (card.centerx, card.y - self.px(3))
        return r

    def _production_marks(self, surface, ctx: Context, rect: pygame.Rect, pid: int, own: bool) -> None:
        plan = ctx.plan
        if not own or not isinstance(plan, ProductionPlan):
            return
        if pid in plan.selected:
            glow(surface, rect, P.OXBLOOD[:3], width=4)
        elif pid in plan.runnable:   # only what could run is offered (nothing rings when nothing can)
            glow(surface, rect, P.HIGHLIGHT[:3], width=2)

    def draw_hover(self, surface: pygame.Surface, ctx: Context) -> None:
        t = ctx.hover
        if not isinstance(t, (BI.Shelf, BI.Leader)) or not ctx.can_act:
            return
        rect = next((h.rect for h in self.hits(ctx) if h.target == t), None)
        if rect is not None:
            glow(surface, rect, P.GOLD_LIGHT[:3], width=2)


def dashed_outline(surface: pygame.Surface, rect: pygame.Rect, color, width: int = 2) -> None:
    """A dashed rectangle (a card held back, not on the table)."""
    dash = max(4, width * 4)
    for x in range(rect.x, rect.right, dash * 2):
        for y in (rect.y, rect.bottom - width):
            pygame.draw.rect(surface, color, (x, y, min(dash, rect.right - x), width))
    for y in range(rect.y, rect.bottom, dash * 2):
        for x in (rect.x, rect.right - width):
            pygame.draw.rect(surface, color, (x, y, width, min(dash, rect.bottom - y)))


def played_sash(width: int, height: int) -> pygame.Surface:
    """The oxblood ribbon across the top of a played leader: "Played"."""
    from ..art.card_parts import ribbon
    return ribbon(pgettext("leader", "Played"), max(20, round(width * 0.8)), height, P.OXBLOOD)
