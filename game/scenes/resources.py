"""The set-up's starting resources: the second player and those after pick theirs and the shelf
each goes on.

The scene reads only the view model and sends one request (the resources chosen); when the
answer moves the session to another stage, the scene hands over (see :func:`router.follow`). A
refusal is shown in words under the choice.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client.words import resource_name
from game.i18n import _, ngettext, pgettext

from .art import fonts
from .backdrop import FADED, GOLD, GOLD_LIGHT, INK, OXBLOOD, SEPIA, blit_lines, glow, title_block, tracked, wrap
from .router import SessionScene, leave_game

if TYPE_CHECKING:
    from game.client.session import GameSession


class ResourceChoiceScene(SessionScene):
    """Pick the starting resource(s) and the shelf each goes on."""

    stage = "resources"

    def __init__(self, app, session: "GameSession") -> None:
        super().__init__(app, session)
        self.picks: list[str] = []
        self.shelf_of: dict[str, int] = {}     # resource -> index in the warehouse (0 top .. 2 bottom)
        self.sent = False
        self.token_rects: dict[str, pygame.Rect] = {}
        self.pick_rects: list[pygame.Rect] = []
        self.shelf_rects: list[pygame.Rect] = []
        self.hover: str | None = None
        self.ware = pygame.Rect(0, 0, 0, 0)

    # the facts -------------------------------------------------------------------------
    @property
    def setup_info(self) -> dict:
        return self.session.vm.me["setup"]

    @property
    def count(self) -> int:
        return int(self.setup_info.get("initialResources", 0))

    def choices(self) -> list[str]:
        g = self.session.vm.game
        excluded = set(self.setup_info.get("initialExcludedResources", [])) | {"Faith", "Zero"}
        return [r["name"] for r in g["resourceTypes"] if r.get("isStorable", True) and r["name"] not in excluded]

    def shelves(self) -> list[dict]:
        vm = self.session.vm
        return [vm.container(cid) for cid in vm.me["warehouseShelves"]]

    def groups(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.picks:
            out[r] = out.get(r, 0) + 1
        return out

    def valid_shelves(self, res: str) -> list[int]:
        """The shelves ``res`` may go on: big enough for how many were picked."""
        n = self.groups().get(res, 0)
        return [i for i, c in enumerate(self.shelves()) if c["size"] >= n]

    def _place(self) -> None:
        """Keep a valid placement: each picked type on its own shelf, big enough (smallest first)."""
        groups = self.groups()
        self.shelf_of = {r: s for r, s in self.shelf_of.items() if r in groups}
        shelves = self.shelves()
        used: set[int] = set()
        for r in sorted(groups, key=lambda r: -groups[r]):
            s = self.shelf_of.get(r)
            if s is not None and shelves[s]["size"] >= groups[r] and s not in used:
                used.add(s)
                continue
            free = [i for i, c in enumerate(shelves) if c["size"] >= groups[r] and i not in used]
            if free:
                self.shelf_of[r] = free[0]
                used.add(free[0])

    def put(self, res: str, shelf: int) -> None:
        """Move ``res`` to ``shelf``; a type already there swaps to ``res``'s old shelf if it fits."""
        if shelf not in self.valid_shelves(res):
            return
        other = next((r for r, s in self.shelf_of.items() if s == shelf and r != res), None)
        old = self.shelf_of.get(res)
        self.shelf_of[res] = shelf
        if other is not None:
            if old is not None and self.shelves()[old]["size"] >= self.groups()[other]:
                self.shelf_of[other] = old
            else:
                del self.shelf_of[other]
                self._place()
        self._changed()

    def pick(self, res: str) -> None:
        if self.sent or res not in self.choices():
            return
        if len(self.picks) >= self.count:
            if self.count == 0:
                return
            self.picks.pop()
        self.picks.append(res)
        self._place()
        self._changed()

    def unpick(self, index: int) -> None:
        if self.sent or not 0 <= index < len(self.picks):
            return
        self.picks.pop(index)
        self._place()
        self._changed()

    @property
    def ready(self) -> bool:
        groups = self.groups()
        return (len(self.picks) == self.count and not self.sent and all(r in self.shelf_of for r in groups)
                and len(set(self.shelf_of[r] for r in groups)) == len(groups))

    def placement(self) -> dict[int, dict[str, int]]:
        """The resources chosen, by shelf id: {shelf: {resource: count}}."""
        ids = self.session.vm.me["warehouseShelves"]
        return {ids[self.shelf_of[r]]: {r: n} for r, n in self.groups().items()}

    def _changed(self) -> None:
        self.session.dismiss()
        self.ui.clear_and_reset()
        self.build()

    # widgets ---------------------------------------------------------------------------
    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        names = self.choices()
        ts = round(min(96 * u, h * 0.12))
        gap = round(30 * u)
        left = pygame.Rect(round(w * 0.07), round(h * 0.29), round(w * 0.44), round(h * 0.5))
        total = len(names) * ts + (len(names) - 1) * gap
        x = left.centerx - total // 2
        self.token_rects = {r: pygame.Rect(x + i * (ts + gap), left.y + round(40 * u), ts, ts)
                            for i, r in enumerate(names)}
        ps = round(ts * 0.8)
        py = left.y + round(40 * u) + ts + round(96 * u)
        ptotal = max(1, self.count) * ps + (max(1, self.count) - 1) * gap
        self.pick_rects = [pygame.Rect(left.centerx - ptotal // 2 + i * (ps + gap), py, ps, ps)
                           for i in range(self.count)]
        # the warehouse on the right
        ww, wh = round(w * 0.3), round(h * 0.42)
        self.ware = pygame.Rect(round(w * 0.6), round(h * 0.27), ww, wh)
        rows = self.shelves()
        pad = round(wh * 0.1)
        row_h = (wh - 2 * pad) // max(1, len(rows))
        self.shelf_rects = []
        for i, c in enumerate(rows):
            size = max(1, c["size"])
            sw = round(ww * (0.34 + 0.22 * (size - 1)))
            self.shelf_rects.append(pygame.Rect(self.ware.centerx - sw // 2, self.ware.y + pad + i * row_h,
                                                sw, row_h - round(6 * u)))
        # a row of shelf buttons for each picked type
        bw, bh = round(92 * u), round(38 * u)
        y = self.ware.bottom + round(22 * u)
        for r in self.groups():
            valid = self.valid_shelves(r)
            for i in range(len(rows)):
                self.button(f"shelf_{r}_{i}", pygame.Rect(self.ware.x + round(110 * u) + i * (bw + round(8 * u)),
                                                            y, bw, bh),
                                [_("Top"), _("Middle"), _("Bottom")][i] if i < 3 else _("Shelf {n}").format(n=i + 1),
                                None if self.shelf_of.get(r) == i else "@quiet",
                                tooltip=None if i in valid else _("Two {resource} need a shelf with room for "
                                                                  "two").format(resource=resource_name(r)),
                                enabled=i in valid and not self.sent)
            y += bh + round(10 * u)
        cw, chh = round(300 * u), round(52 * u)
        label = _("Take them") if self.count != 1 else _("Take it")
        self.button("confirm", pygame.Rect(w // 2 - cw // 2, h - chh - round(56 * u), cw, chh),
                    label if self.count else _("Continue"), enabled=self.ready)
        self.button("leave", pygame.Rect(round(52 * u), h - round(48 * u) - round(56 * u), round(130 * u),
                                         round(44 * u)), _("Leave"), "@quiet")

    def on_button(self, name: str) -> None:
        if name == "confirm" and self.ready:
            self.sent = True
            self.session.choose_resources(self.placement())
            self._changed()
        elif name == "leave":
            leave_game(self.app, self.session)
        elif name.startswith("shelf_"):
            _shelf, res, idx = name.split("_")
            self.put(res, int(idx))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.hover = next((r for r, rect in self.token_rects.items() if rect.collidepoint(event.pos)), None)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for r, rect in self.token_rects.items():
                if rect.collidepoint(event.pos):
                    self.pick(r)
                    return
            for i, rect in enumerate(self.pick_rects):
                if rect.collidepoint(event.pos) and i < len(self.picks):
                    self.unpick(i)
                    return
            for i, rect in enumerate(self.shelf_rects):
                if rect.collidepoint(event.pos) and self.picks:
                    self.put(self.picks[-1], i)
                    return

    def tick(self, dt: float) -> None:
        if self.sent and self.session.error:
            self.sent = False
            self.ui.clear_and_reset()
            self.build()

    # drawing -----------------------------------------------------------------------------
    def paint(self, surface: pygame.Surface) -> None:
        from .art import icons
        w, h = surface.get_size()
        u = self.unit
        vm = self.session.vm
        bottom = title_block(surface, _("Your starting resources"), None, w // 2, round(h * 0.06), u, size=60)
        seat = vm.game["players"].index(vm.me)
        faith = int(vm.me.get("faithPoints", 0))
        n = self.count
        seat_words = [_("As the first player"), _("As the second player"), _("As the third player"),
                      _("As the fourth player")][seat] if seat < 4 else _("As the next player")
        if faith:
            take = ngettext("{seat} you take {n} resource of your choice and start {faith} step along the faith "
                            "track.", "{seat} you take {n} resources of your choice (two may be the same) and start "
                            "{faith} step along the faith track.", n) if faith == 1 else \
                ngettext("{seat} you take {n} resource of your choice and start {faith} steps along the faith "
                         "track.", "{seat} you take {n} resources of your choice (two may be the same) and start "
                         "{faith} steps along the faith track.", n)
        else:
            take = ngettext("{seat} you take {n} resource of your choice.",
                            "{seat} you take {n} resources of your choice (two may be the same).", n)
        sub = take.format(seat=seat_words, n=n, faith=faith)
        small = max(12, round(21 * u))
        blit_lines(surface, wrap(sub, small, round(w * 0.72), "italic"), small, SEPIA, w // 2, bottom + round(4 * u),
                   "italic", align="center")
        # the resources to pick from
        cap = max(11, round(18 * u))
        k = tracked(pgettext("starting resources", "choose"), cap, OXBLOOD, max(1, round(2 * u)))
        first = next(iter(self.token_rects.values()), None)
        if first is not None:
            lx = (min(r.x for r in self.token_rects.values()) + max(r.right for r in self.token_rects.values())) // 2
            surface.blit(k, k.get_rect(midbottom=(lx, first.y - round(10 * u))))
        for r, rect in self.token_rects.items():
            lifted = rect.move(0, -self.px(6)) if self.hover == r else rect
            if self.hover == r:
                halo = glow(rect.size, rect.w // 2, GOLD_LIGHT, self.px(12))
                surface.blit(halo, halo.get_rect(center=lifted.center))
            surface.blit(icons.resource_icon(r, rect.w), lifted)
            name = fonts.render(resource_name(r, 1), max(12, round(20 * u)), INK)
            surface.blit(name, name.get_rect(midtop=(rect.centerx, rect.bottom + round(8 * u))))
        # what was picked
        if self.pick_rects:
            lx = (self.pick_rects[0].x + self.pick_rects[-1].right) // 2
            k2 = tracked(_("your choice"), cap, OXBLOOD, max(1, round(2 * u)))
            surface.blit(k2, k2.get_rect(midbottom=(lx, self.pick_rects[0].y - round(10 * u))))
        for i, rect in enumerate(self.pick_rects):
            if i < len(self.picks):
                surface.blit(icons.resource_icon(self.picks[i], rect.w), rect)
            else:
                _dashed_circle(surface, rect, FADED, u)
        if self.pick_rects:
            hint = (_("Click a resource above to choose it") if len(self.picks) < n
                    else _("Click your choice to put it back"))
            blit_lines(surface, [hint], cap, FADED, (self.pick_rects[0].x + self.pick_rects[-1].right) // 2,
                       self.pick_rects[0].bottom + round(12 * u), "italic", align="center")
        self._paint_warehouse(surface)
        # labels for the shelf buttons
        y = self.ware.bottom + round(22 * u)
        bh = round(38 * u)
        for r in self.groups():
            icon = icons.resource_icon(r, round(bh * 0.95))
            surface.blit(icon, icon.get_rect(midleft=(self.ware.x, y + bh // 2)))
            lab = fonts.render(_("goes on"), max(11, round(19 * u)), SEPIA, "italic")
            surface.blit(lab, lab.get_rect(midleft=(self.ware.x + round(bh * 1.05), y + bh // 2)))
            y += bh + round(10 * u)
        # a refusal, or that the choice is on its way, under the picks
        lx = (min(r.x for r in self.token_rects.values()) + max(r.right for r in self.token_rects.values())) // 2 \
            if self.token_rects else w // 4
        ly = (self.pick_rects[0].bottom if self.pick_rects else round(h * 0.6)) + self.px(48)
        if self.session.error:
            err = wrap(self.session.error, small, round(w * 0.42), "italic")
            blit_lines(surface, err, small, OXBLOOD, lx, ly, "italic", align="center")
        elif self.sent:
            blit_lines(surface, [_("Sent \u2014 waiting for the table\u2026")], small, SEPIA, lx, ly, "italic",
                       align="center")

    def _paint_warehouse(self, surface: pygame.Surface) -> None:
        """The warehouse: a walnut cabinet with three shelves of 1, 2 and 3 places."""
        from .art import icons
        u = self.unit
        cab = self.ware
        k = tracked(_("your warehouse"), max(11, round(18 * u)), OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midbottom=(cab.centerx, cab.y - round(10 * u))))
        body = cab.inflate(round(16 * u), round(8 * u))
        shadow = glow(body.size, self.px(14), (40, 24, 10), self.px(10))
        surface.blit(shadow, shadow.get_rect(center=(body.centerx + self.px(5), body.centery + self.px(7))))
        pygame.draw.rect(surface, (96, 60, 34), body, border_radius=self.px(14))
        for i in range(0, body.h, max(3, self.px(5))):       # a hint of wood grain
            shade = (104, 66, 38) if (i // max(3, self.px(5))) % 3 == 0 else (90, 56, 31)
            pygame.draw.line(surface, shade, (body.x + self.px(10), body.y + i), (body.right - self.px(10), body.y + i))
        pygame.draw.rect(surface, GOLD, body, max(2, self.px(3)), border_radius=self.px(14))
        where = {s: r for r, s in self.shelf_of.items()}
        groups = self.groups()
        for i, (rect, c) in enumerate(zip(self.shelf_rects, self.shelves())):
            pygame.draw.rect(surface, (232, 214, 176), rect, border_radius=self.px(8))
            pygame.draw.rect(surface, (70, 44, 24), rect, max(1, self.px(2)), border_radius=self.px(8))
            pygame.draw.line(surface, (60, 36, 18), (rect.x + self.px(6), rect.bottom - self.px(4)),
                             (rect.right - self.px(6), rect.bottom - self.px(4)), max(2, self.px(4)))
            size = max(1, c["size"])
            d = min(rect.h - self.px(14), (rect.w - self.px(12)) // size - self.px(8))
            res = where.get(i)
            filled = groups.get(res, 0) if res else 0
            valid = bool(self.picks) and i in self.valid_shelves(self.picks[-1])
            for j in range(size):
                cx = rect.x + (rect.w * (2 * j + 1)) // (2 * size)
                spot = pygame.Rect(0, 0, d, d)
                spot.center = (cx, rect.centery - self.px(2))
                if j < filled and res:
                    surface.blit(icons.resource_icon(res, d), spot)
                else:
                    pygame.draw.circle(surface, (214, 192, 150), spot.center, d // 2 - self.px(2))
                    pygame.draw.circle(surface, (160, 130, 92), spot.center, d // 2 - self.px(2), max(1, self.px(1)))
            if valid and where.get(i) != self.picks[-1]:
                pygame.draw.rect(surface, GOLD_LIGHT, rect, max(1, self.px(2)), border_radius=self.px(8))


def _dashed_circle(surface: pygame.Surface, rect: pygame.Rect, colour, u: float) -> None:
    import math
    r = rect.w // 2 - max(1, round(3 * u))
    n = 24
    for i in range(0, n, 2):
        a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
        pygame.draw.arc(surface, colour, pygame.Rect(rect.centerx - r, rect.centery - r, 2 * r, 2 * r), a0, a1,
                        max(1, round(2 * u)))
