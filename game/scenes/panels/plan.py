"""The plan being built (it takes the log's place): what a market line gives and where each
resource goes, the card being bought and how it is paid, the productions chosen and their free
choices. Nothing is sent until Confirm."""
from __future__ import annotations

from typing import Any

import pygame

from game.client import board_input as BI
from game.client.hint import HintPlan
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.words import amount, amounts, colour_name, resource_name
from game.i18n import _, ngettext, pgettext

from ..art import icons as I
from ..art import marbles as M
from ..art import fonts as F
from ..art import palette as P
from ..backdrop import wrap
from .base import RESOURCES, Context, Hit, Panel, fit_lines, glow, panel, reading_size, text, veil

HINT_INK = (46, 96, 58)
"""The green ink of a hint's reason."""


class PlanPanel(Panel):
    def hits(self, ctx: Context) -> list[Hit]:
        out: list[Hit] = []
        r = self.rect
        size = self.px(34)
        plan = ctx.plan
        x, y = r.x + self.px(12), r.y + self.px(36)
        if isinstance(plan, MarketPlan):
            y = self._market_head(plan)[2]
            for i, _item in enumerate(plan.items):
                out.append(Hit(pygame.Rect(x + i * (size + self.px(6)), y, size, size), BI.Item(i)))
            x2 = x + max(1, len(plan.items)) * (size + self.px(6)) + self.px(12)
            out.append(Hit(pygame.Rect(x2, y, self.px(90), size), BI.Discard()))
            out.append(Hit(pygame.Rect(x2 + self.px(100), y, self.px(90), size), BI.Suggest()))
            for i, _white in enumerate(plan.white_choice):
                out.append(Hit(pygame.Rect(x + i * (size + self.px(6)), y + size + self.px(8), size, size), BI.White(i)))
        elif isinstance(plan, BuyPlan):
            if not plan.problem():
                out += self._pay_layout(ctx, plan.payment, self._buy_head(plan)[2])[2]
        elif isinstance(plan, ProductionPlan):
            out += self.picker_hits(ctx)
            if plan.selected and not plan.problem():
                out += self._pay_layout(ctx, plan.get_payment(), self._production_lines(ctx)[1])[2]
        return out

    def picker_hits(self, ctx: Context) -> list[Hit]:
        """A picker of the four resources for each free choice of the chosen productions: one
        target per resource, ``Blank(production, "in"/"out", index, resource)``."""
        plan = ctx.plan
        groups = [(pid, side, i) for pid in plan.selected
                  for side, blanks in (("in", plan.input_blanks.get(pid, [])), ("out", plan.output_blanks.get(pid, [])))
                  for i, _blank in enumerate(blanks)]
        if not groups:
            return []
        out = []
        for (pid, side, i), cells in zip(groups, picker_cells(self.rect, self.unit, len(groups))):
            for res, cell in zip(RESOURCES, cells):
                out.append(Hit(cell, BI.Blank(pid, side, i, res)))
        return out

    def picker_bottom(self, ctx: Context) -> int:
        """The foot of the picker (where the lines under it start)."""
        cells = [h.rect for h in self.picker_hits(ctx)]
        return max((c.bottom for c in cells), default=self.rect.y + self.px(28)) + self.px(4)

    def draw(self, surface: pygame.Surface, ctx: Context) -> None:
        r = self.rect
        panel(surface, r, fill=P.PARCHMENT, border=P.OXBLOOD)
        plan = ctx.plan
        x = r.x + self.px(12)
        hits = self.hits(ctx)
        width = r.w - self.px(24)
        if isinstance(plan, MarketPlan):
            size, lines, _y = self._market_head(plan)
            for i, line in enumerate(lines):
                text(surface, line, (x, r.y + self.px(8) + i * round(size * 1.2)), size, P.INK, "italic")
            for hit in hits:
                t = hit.target
                if isinstance(t, BI.Item):
                    res = plan.items[t.index]
                    surface.blit(I.resource_icon(res, hit.rect.h), hit.rect)
                    if plan.target[t.index] is None:
                        veil(surface, hit.rect, 120, radius=hit.rect.w // 2)
                        text(surface, "✕", hit.rect.center, self.px(16), P.OXBLOOD, anchor="center")
                    if ctx.selected_item == t.index:
                        glow(surface, hit.rect, P.OXBLOOD[:3], radius=hit.rect.w // 2)
                elif isinstance(t, (BI.Discard, BI.Suggest)):
                    pygame.draw.rect(surface, P.PARCHMENT_DARK, hit.rect, border_radius=6)
                    pygame.draw.rect(surface, P.SEPIA, hit.rect, width=1, border_radius=6)
                    text(surface, _("Discard it") if isinstance(t, BI.Discard) else _("Suggest"), hit.rect.center,
                         max(self.px(16), reading_size(self.unit)), P.INK, anchor="center")
                elif isinstance(t, BI.White):
                    surface.blit(M.marble("Zero", hit.rect.h), hit.rect)
                    icon = I.resource_icon(plan.white_choice[t.index], hit.rect.h // 2)
                    surface.blit(icon, icon.get_rect(center=hit.rect.center))
            self._market_foot(surface, ctx, plan, max(h.rect.bottom for h in hits) + self.px(6))
            return
        floor = reading_size(self.unit)
        above = r.y + self.px(32)          # the foot of what the plan shows (the hint goes under it)
        if isinstance(plan, BuyPlan):
            size, lines, y = self._buy_head(plan)
            for i, line in enumerate(lines):
                text(surface, line, (x, r.y + self.px(8) + i * round(size * 1.2)), size, P.INK, "italic")
            problem = plan.problem()
            if problem:
                above = self._lines(surface, problem, max(floor, self.px(17)), y, P.OXBLOOD, 2)
            else:
                above = self._payment(surface, ctx, plan.payment, y)
        elif isinstance(plan, ProductionPlan):
            ins = amounts(plan.total_input(), "—")
            outs = amounts(plan.total_output(), "—")
            blanks = any(plan.input_blanks.get(p) or plan.output_blanks.get(p) for p in plan.selected)
            pay_get = _("Pay {pays}  →  get {gives}").format(pays=ins, gives=outs)
            head = (_("Click the productions to run (base, top cards, leaders)") if not plan.selected
                    else pay_get + ("  " + _("(click a resource below to change a free choice)") if blanks else ""))
            if blanks and F.fit(head, width, self.px(18), "italic") < floor:   # too long: the hint goes
                head = pay_get
            if F.fit(head, width, self.px(18), "italic") < floor:
                head = _cut(head + " …", floor, width)
            text(surface, head, (x, r.y + self.px(8)), self.px(18), P.INK, "italic", max_width=width)
            owned = ctx.vm_totals()
            for hit in hits:
                t = hit.target
                if not isinstance(t, BI.Blank):
                    continue
                pid, side, i, res = t.production, t.side, t.index, t.res
                chosen = (plan.input_blanks if side == "in" else plan.output_blanks)[pid][i] == res
                if res == RESOURCES[0]:
                    square = hit.rect.unionall([h.rect for h in hits if isinstance(h.target, BI.Blank)
                                                and h.target.production == pid and h.target.side == side
                                                and h.target.index == i])
                    text(surface, pgettext("production", "pay") if side == "in" else pgettext("production", "get"),
                         (square.x - self.px(4), square.centery),
                         max(floor, self.px(14)), P.SEPIA, "italic", anchor="midright")
                surface.blit(I.resource_icon(res, hit.rect.h), hit.rect)
                if side == "in":
                    n = owned.get(res, 0)
                    if not n:
                        veil(surface, hit.rect, 140, radius=hit.rect.w // 2)
                    side_px = max(16, self.px(15))
                    badge = pygame.Rect(0, 0, side_px, side_px)
                    badge.center = (hit.rect.right - 2, hit.rect.bottom - 3)
                    pygame.draw.ellipse(surface, P.INK if n else P.OXBLOOD, badge)
                    text(surface, str(n), badge.center, max(floor, self.px(12)), P.PARCHMENT, anchor="center")
                if chosen:
                    glow(surface, hit.rect, P.OXBLOOD[:3], width=3, radius=hit.rect.w // 2)
            note_y, pay_y = self._production_lines(ctx)
            above = pay_y
            if ctx.note:
                above = self._lines(surface, ctx.note, max(floor, self.px(15)), note_y, P.OXBLOOD, 2)
            problem = plan.problem()
            if problem and plan.selected:
                above = self._lines(surface, problem, max(floor, self.px(16)), pay_y, P.OXBLOOD, 2)
            elif plan.selected:
                above = self._payment(surface, ctx, plan.get_payment(), pay_y)
        elif isinstance(plan, HintPlan):
            text(surface, _("{hint} — Confirm to do it, Back to drop it").format(hint=plan.text), (x, r.y + self.px(8)),
                 self.px(18),
                 P.INK, "italic", max_width=width)
        why = getattr(plan, "why", None)
        if why:   # a hint's plan: the hard bot's reason, whole, between the plan and the panel's foot
            said = _("Hint: {why}").format(why=why)
            top = r.y + self.px(40) if isinstance(plan, HintPlan) else above + self.px(4)
            room = r.bottom - self.px(6) - top
            size, lines = floor, wrap(said, floor, width, "italic")
            for s in range(max(floor, self.px(16)), floor - 1, -1):   # the largest type that says it all
                lines = wrap(said, s, width, "italic")
                if len(lines) * round(s * 1.2) <= room:
                    size = s
                    break
            step = round(size * 1.2)
            rows = max(1, room // step)
            if len(lines) > rows:            # (no room for it all even at the log's size: said cut)
                lines = lines[:rows]
                lines[-1] = _cut(lines[-1] + " …", size, width)
            y = top if isinstance(plan, HintPlan) else r.bottom - self.px(6) - len(lines) * step
            for i, line in enumerate(lines):
                text(surface, line, (x, y + i * step), size, HINT_INK, "italic")

    def _market_head(self, plan: MarketPlan) -> tuple[int, list[str], int]:
        """The market plan's headline: its type size, its lines (one, or two when one line would
        have to be smaller than the log's type), and the y where the row of resources starts."""
        width = self.rect.w - self.px(24)
        size, lines = fit_lines(market_headline(plan), self.px(18), reading_size(self.unit), width, 1)
        lines = lines[:2]
        return size, lines, self.rect.y + self.px(8) + len(lines) * round(size * 1.2) + self.px(6)

    def _market_foot(self, surface: pygame.Surface, ctx: Context, plan: MarketPlan, top: int) -> None:
        """Under the row of resources, from the bottom up: the line that says what the plan does
        (a discard's cost, the rearranging planned, or how to rearrange), above it why the picked
        resource cannot go where it was asked, above that a hint's reason. None is ever smaller
        than the log's type: a line that does not fit wraps; a hint's reason is said whole, in
        smaller type down to the log's, then in the place of the how-to-rearrange tip; only what
        then finds no room is cut short."""
        r = self.rect
        x, width = r.x + self.px(12), r.w - self.px(24)
        floor = reading_size(self.unit)
        warn = plan.discard_warning()
        tip = False
        if warn:
            foot, ink = warn, P.OXBLOOD
        elif plan.moves:   # the shelves are shown as they will be; say so
            n = len(plan.moves)
            foot, ink = ngettext("Your shelves are rearranged first ({n} move, sent with the take).",
                                 "Your shelves are rearranged first ({n} moves, sent with the take).", n).format(n=n), P.SEPIA
        else:
            foot, ink, tip = _("To rearrange first: click a shelf, then another, or drag a resource onto a shelf."), P.SEPIA, True
        note = ctx.note or (plan.why_stuck(ctx.selected_item) if ctx.selected_item is not None else None)
        why = getattr(plan, "why", None)
        hint = _("Hint: {why}").format(why=why) if why else None
        blocks = [(foot, ink, 2), (note, P.OXBLOOD, 2), (hint, HINT_INK, 99)]

        def room(size: int) -> int:
            return max(1, (r.bottom - self.px(6) - top) // round(size * 1.2))

        def needed(size: int, blocks) -> int:
            return sum(min(most, len(wrap(words, size, width, "italic"))) for words, _c, most in blocks if words)
        size = max(floor, self.px(16))
        if hint:                             # the largest type that says the hint whole, the tip too
            size = next((s for s in range(size, floor - 1, -1) if needed(s, blocks) <= room(s)), floor)
            if tip and needed(size, blocks) > room(size):
                blocks[0] = (None, ink, 0)   # (the tip gives way to the hint's reason)
        step = round(size * 1.2)
        placed: list[tuple[list[str], tuple]] = []
        left = room(size)
        for words, colour, most in blocks:   # by priority: what the plan does, the refusal, the hint
            if not words or left <= 0:
                continue
            lines = wrap(words, size, width, "italic")
            keep = min(most, left, len(lines))
            if keep < len(lines):
                lines = lines[:keep]
                lines[-1] = _cut(lines[-1] + " …", size, width)
            placed.append((lines, colour))
            left -= keep
        y = r.bottom - self.px(6) - step
        for lines, colour in placed:         # drawn from the bottom up
            for line in reversed(lines):
                text(surface, line, (x, y + (step - size) // 2), size, colour, "italic")
                y -= step

    def _production_lines(self, ctx: Context) -> tuple[int, int]:
        """(y of the note on a refused choice, y of the payment line) under the picker."""
        top = self.picker_bottom(ctx) if ctx.plan is not None and ctx.plan.selected else self.rect.y + self.px(32)
        if not ctx.note:
            return top, top
        size = max(reading_size(self.unit), self.px(15))
        n = len(wrap(ctx.note, size, self.rect.w - self.px(24), "italic")[:2])
        return top, top + n * round(size * 1.2) + self.px(2)

    def _buy_head(self, plan: BuyPlan) -> tuple[int, list[str], int]:
        """The purchase's headline (one line, or two rather than smaller than the log's type) and
        the y under it."""
        c = plan.card
        cost = amounts(plan.cost, _("free"))
        head = (_("Buying a level {level} {colour} card for {cost} — choose a glowing slot") if len(plan.slots) > 1
                else _("Buying a level {level} {colour} card for {cost}")).format(
            level=c.level, colour=colour_name(c.color), cost=cost)
        floor = max(reading_size(self.unit), self.px(16))   # (never smaller than the payment under it)
        size, lines = fit_lines(head, self.px(18), floor, self.rect.w - self.px(24), 1)
        lines = lines[:2]
        return size, lines, self.rect.y + self.px(8) + len(lines) * round(size * 1.2) + self.px(4)

    def _lines(self, surface: pygame.Surface, words: str, size: int, y: int, colour, most: int) -> int:
        """``words`` wrapped from ``y`` (``most`` lines, the last cut short if need be, none below
        the panel's foot); the y under them."""
        r = self.rect
        width = r.w - self.px(24)
        step = round(size * 1.2)
        lines = wrap(words, size, width, "italic")
        room = max(1, min(most, (r.bottom - self.px(4) - y) // step))
        if len(lines) > room:
            lines = lines[:room]
            lines[-1] = _cut(lines[-1] + " …", size, width)
        for i, line in enumerate(lines):
            text(surface, line, (r.x + self.px(12), y + i * step), size, colour, "italic")
        return y + len(lines) * step

    def _names(self, ctx: Context) -> dict[int, str]:
        me = ctx.me
        names = {cid: _("shelf {n}").format(n=i + 1) for i, cid in enumerate(me["warehouseShelves"])}
        names[me["strongbox"]] = _("the strongbox")
        for cid in me.get("leaderDepots", []):
            names[cid] = _("the leader's depot")
        return names

    def _pay_layout(self, ctx: Context, pay: Any, y: int) -> tuple[int, list[str], list[Hit], list[str]]:
        """Where the payment goes from ``y``: (type size, its lines, the buttons that take a
        resource from elsewhere instead, their words), the buttons as wide as their words at the
        log's type or larger, flowing onto a second row when one is full."""
        r = self.rect
        floor = reading_size(self.unit)
        width = r.w - self.px(24)
        names = self._names(ctx)
        parts = [_("{what} from {where}").format(what=", ".join(amount(n, res) for res, n in m.items()),
                                                 where=names.get(cid, cid)) for cid, m in pay.taken.items()]
        size = max(floor, self.px(16))
        lines = wrap(_("Paying {what}").format(what="; ".join(parts) or _("nothing")), size, width, "italic")[:2]
        by = y + len(lines) * round(size * 1.2) + self.px(4)
        bsize = max(floor, self.px(13))
        h = max(self.px(22), bsize + 8)
        x0 = r.x + self.px(12)
        cx = x0
        hits, labels = [], []
        for res in sorted(pay.cost):
            srcs = pay.sources(res)
            for cid, held, taken in srcs:
                if taken < held:
                    donor = next((c for c, _h, t in srcs if t > 0 and c != cid), None)
                    if donor is not None:
                        label = _("{what} from {where}").format(what=resource_name(res, 1), where=names.get(cid, cid))
                        w = F.font(bsize, "regular").size(label)[0] + self.px(16)
                        if cx > x0 and cx + w > x0 + width:
                            cx, by = x0, by + h + self.px(4)
                        hits.append(Hit(pygame.Rect(cx, by, w, h), BI.Pay(res, donor, cid)))
                        labels.append(label)
                        cx += w + self.px(6)
        return size, lines, hits, labels

    def _payment(self, surface: pygame.Surface, ctx: Context, pay: Any, y: int) -> int:
        """The payment's lines and buttons from ``y``; the y under them."""
        size, lines, hits, labels = self._pay_layout(ctx, pay, y)
        step = round(size * 1.2)
        for i, line in enumerate(lines):
            text(surface, line, (self.rect.x + self.px(12), y + i * step), size, P.SEPIA, "italic")
        bottom = y + len(lines) * step
        bsize = max(reading_size(self.unit), self.px(13))
        for hit, label in zip(hits, labels):
            if hit.rect.bottom > self.rect.bottom - 2:
                continue   # (no room left in the panel)
            pygame.draw.rect(surface, P.PARCHMENT_DARK, hit.rect, border_radius=6)
            pygame.draw.rect(surface, P.SEPIA, hit.rect, width=1, border_radius=6)
            text(surface, label, hit.rect.center, bsize, P.INK, anchor="center")
            bottom = max(bottom, hit.rect.bottom)
        return bottom


def _cut(line: str, size: int, width: int) -> str:
    """``line`` (ending in " …") shortened word by word until it fits ``width``."""
    from ..art import fonts as F
    font = F.font(size, "italic")
    while font.size(line)[0] > width and " " in line[:-2]:
        line = line[:-2].rsplit(" ", 1)[0] + " …"
    return line


def market_headline(plan: MarketPlan) -> str:
    """The market plan's first line: which line, and what is left to do (nothing to place when the
    suggestion, or a hint, has already placed what is taken)."""
    where = (_("row {n}") if plan.is_row else _("column {n}")).format(n=plan.index + 1)
    head = (_("Taking {line} ({faith})").format(line=where, faith=amount(plan.faith, "Faith", signed=True)) if plan.faith
            else _("Taking {line}").format(line=where))
    if not plan.items:
        return _("{taking} — nothing to store").format(taking=head)
    placed = all(t is not None for t in plan.target)
    if plan.as_suggested and any(t is not None for t in plan.target):
        return (_("{taking} — placed as suggested: click a resource to move it") if placed else
                _("{taking} — placed as suggested, the rest discarded: click a resource to move it")).format(taking=head)
    if placed:
        return _("{taking} — all placed: click a resource to move it").format(taking=head)
    return _("{taking} — click a resource, then a glowing shelf").format(taking=head)


PICK = 28
"""The smallest side of a picker cell, in pixels (comfortable for a mouse at any window size)."""


def picker_cells(rect: pygame.Rect, unit: float, n: int) -> list[list[pygame.Rect]]:
    """For ``n`` free choices, the four cells (one per resource) of each, left to right under the
    plan's headline: four in a row when they fit at a comfortable size, else a 2x2 square (the
    plan panel is short and narrow at 1024x640); never smaller than :data:`PICK` pixels."""
    def px(v: float) -> int:
        return max(1, round(v * unit))
    if n <= 0:
        return []
    label, gap, sep = px(30), max(3, px(6)), px(12)
    x0, y0 = rect.x + px(12), rect.y + px(30)
    room = rect.w - px(24)
    size = max(PICK, px(30))
    row = n * (label + 4 * size + 3 * gap + sep) <= room
    if not row:       # a square of 2x2 per choice: as large as fits, at least PICK
        size = max(PICK, min(px(30), (room // n - label - sep - gap) // 2))
    out = []
    x = x0
    for _k in range(n):
        x += label
        if row:
            out.append([pygame.Rect(x + k * (size + gap), y0, size, size) for k in range(4)])
            x += 4 * size + 3 * gap + sep
        else:
            out.append([pygame.Rect(x + (k % 2) * (size + gap), y0 + (k // 2) * (size + gap), size, size)
                        for k in range(4)])
            x += 2 * size + gap + sep
    return out
