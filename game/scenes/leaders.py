"""The first step of a game's set-up: four leader cards dealt, large; the player keeps two.

The scene reads only the view model and sends one request (the leaders kept); when the answer
moves the session to another stage, the scene hands over (see :func:`router.follow`). A refusal
is shown in words under the choice.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client.words import leader_words
from game.i18n import _, ngettext, pgettext

from .art import fonts
from .backdrop import FADED, GOLD, GOLD_LIGHT, INK, OXBLOOD, SEPIA, blit_lines, glow, title_block, tracked, wrap
from .router import SessionScene, leave_game

if TYPE_CHECKING:
    from game.client.session import GameSession


class LeaderChoiceScene(SessionScene):
    """Four leader cards, large; click two to keep them; confirm."""

    stage = "leaders"

    def __init__(self, app, session: "GameSession") -> None:
        super().__init__(app, session)
        self.selected: list[int] = []
        self.hover: int | None = None
        self.sent = False
        self.card_rects: list[pygame.Rect] = []
        self.card_h = 0
        self.t = 0.0

    @property
    def hand(self) -> list[int]:
        return list(self.session.vm.me["leadersHand"])

    @property
    def keep(self) -> int:
        return int(self.session.vm.me["setup"].get("chosenLeadersCount", 2))

    def productions(self) -> dict[int, dict]:
        return {p["id"]: p for p in self.session.vm.game["productions"]}

    def layout(self) -> None:
        from .art import card_parts
        w, h = self.app.size
        u = self.unit
        n = max(1, len(self.hand))
        gap = round(36 * u)
        ratio = card_parts.card_width(1000) / 1000
        ch = round(min(h * 0.47, (w * 0.84 - (n - 1) * gap) / n / ratio))
        cw = card_parts.card_width(ch)
        self.card_h = ch
        total = n * cw + (n - 1) * gap
        x0 = (w - total) // 2
        y = round(h * 0.26)
        self.card_rects = [pygame.Rect(x0 + i * (cw + gap), y, cw, ch) for i in range(n)]
        bw, bh = round(300 * u), round(52 * u)
        self.button("confirm", pygame.Rect(w // 2 - bw // 2, h - bh - round(56 * u), bw, bh),
                    ngettext("Keep this leader", "Keep these {n} leaders", self.keep).format(n=self.keep),
                    enabled=self.can_confirm)
        lw = round(130 * u)
        self.button("leave", pygame.Rect(round(52 * u), h - round(48 * u) - round(56 * u), lw, round(44 * u)),
                    _("Leave"), "@quiet", tooltip=_("Leave the game (a solo game stays saved)"))

    @property
    def can_confirm(self) -> bool:
        return len(self.selected) == self.keep and not self.sent

    def _refresh_confirm(self) -> None:
        b = self.widgets.get("confirm")
        if b is not None:
            b.enable() if self.can_confirm else b.disable()

    def toggle(self, lid: int) -> None:
        """Select or unselect a leader; selecting one more than allowed drops the oldest choice."""
        if self.sent:
            return
        if lid in self.selected:
            self.selected.remove(lid)
        else:
            self.selected.append(lid)
            if len(self.selected) > self.keep:
                self.selected.pop(0)
        self.session.dismiss()
        self._refresh_confirm()

    def card_at(self, pos: tuple[int, int]) -> int | None:
        hand = self.hand
        for i, r in enumerate(self.card_rects):
            lid = hand[i] if i < len(hand) else None
            rr = r.move(0, -self.px(26)) if lid in self.selected else r
            if rr.collidepoint(pos) or r.collidepoint(pos):
                return i
        return None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.card_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.card_at(event.pos)
            if i is not None and i < len(self.hand):
                self.toggle(self.hand[i])
        elif event.type == pygame.KEYDOWN:
            if pygame.K_1 <= event.key <= pygame.K_4:
                i = event.key - pygame.K_1
                if i < len(self.hand):
                    self.toggle(self.hand[i])
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.can_confirm:
                self.confirm()

    def on_button(self, name: str) -> None:
        if name == "confirm" and self.can_confirm:
            self.confirm()
        elif name == "leave":
            leave_game(self.app, self.session)

    def confirm(self) -> None:
        self.sent = True
        self._refresh_confirm()
        self.session.choose_leaders(self.selected)

    def tick(self, dt: float) -> None:
        self.t += dt
        if self.sent and self.session.error:
            self.sent = False          # refused: the choice can be changed and sent again
            self._refresh_confirm()

    # drawing -----------------------------------------------------------------------------
    def paint(self, surface: pygame.Surface) -> None:
        from .art import leader_cards
        w, h = surface.get_size()
        u = self.unit
        vm = self.session.vm
        bottom = title_block(surface, _("Choose your leaders"), None, w // 2, round(h * 0.06), u, size=60)
        sub = _("Keep {keep} of these {n}. Once played, a leader gives a lasting power; to play it you must own "
                "what it asks for.").format(keep=self.keep, n=len(self.hand))
        small = max(12, round(21 * u))
        blit_lines(surface, wrap(sub, small, round(w * 0.7), "italic"), small, SEPIA, w // 2, bottom + round(4 * u),
                   "italic", align="center")
        prods = self.productions()
        lift = self.px(26)
        full = len(self.selected) >= self.keep
        for i, (lid, rect) in enumerate(zip(self.hand, self.card_rects)):
            ld = vm.leader(lid)
            chosen = lid in self.selected
            r = rect.move(0, -lift) if chosen else rect
            radius = max(4, round(rect.w * 0.06))
            if chosen:
                halo = glow(r.size, radius, GOLD_LIGHT, self.px(22))
                surface.blit(halo, halo.get_rect(center=r.center))
            else:
                sh = glow(r.size, radius, (60, 38, 18), self.px(12))
                surface.blit(sh, sh.get_rect(center=(r.centerx + self.px(4), r.centery + self.px(6))))
            img = leader_cards.leader_card(ld, prods, rect.h, dimmed=full and not chosen)
            surface.blit(img, r)
            if self.hover == i and not chosen:
                pygame.draw.rect(surface, GOLD, r.inflate(self.px(6), self.px(6)), max(2, self.px(3)),
                                 border_radius=radius)
            # a numbered tag under each card (keys 1-4 select too)
            tag_y = rect.bottom + self.px(14)
            label = pgettext("leader card", "kept") if chosen else f"{i + 1}"
            tag = tracked(label, max(11, round(18 * u)), OXBLOOD if chosen else FADED, max(1, round(2 * u)))
            surface.blit(tag, tag.get_rect(midtop=(rect.centerx, tag_y)))
        # the words of the hovered (or last selected) leader
        focus = None
        if self.hover is not None and self.hover < len(self.hand):
            focus = self.hand[self.hover]
        elif self.selected:
            focus = self.selected[-1]
        text_top = self.card_rects[0].bottom + self.px(50) if self.card_rects else h // 2
        if self.session.error:
            err = wrap(self.session.error, small, round(w * 0.7), "italic")
            blit_lines(surface, err, small, OXBLOOD, w // 2, text_top, "italic", align="center")
        elif self.sent:
            blit_lines(surface, [_("Sent \u2014 waiting for the table\u2026")], small, SEPIA, w // 2, text_top,
                       "italic", align="center")
        elif focus is not None:
            name, ability, need, vp = leader_words(vm.leader(focus), prods)
            size = max(13, round(25 * u))
            head = fonts.render(ngettext("{name}  \u00b7  {vp} victory point", "{name}  \u00b7  {vp} victory points",
                                         vp).format(name=name, vp=vp), size, INK)
            surface.blit(head, head.get_rect(midtop=(w // 2, text_top)))
            lines = wrap(f"{ability} {need}", small, round(w * 0.72), "italic")
            blit_lines(surface, lines, small, SEPIA, w // 2, text_top + head.get_height(), "italic", align="center")
        else:
            left = self.keep - len(self.selected)
            hint = ngettext("Click a card to keep it \u2014 {n} to choose.", "Click a card to keep it \u2014 {n} to choose.",
                            left).format(n=left)
            blit_lines(surface, [hint], small, FADED, w // 2, text_top, "italic", align="center")
        # the hovered card, enlarged beside itself
        if self.hover is not None and self.hover < len(self.hand):
            self._paint_zoom(surface, self.hover, prods)

    def _paint_zoom(self, surface: pygame.Surface, i: int, prods: dict) -> None:
        """The hovered card, enlarged where it lies (over its neighbours, never over the words)."""
        from .art import card_parts, leader_cards
        w, h = surface.get_size()
        rect = self.card_rects[i]
        top_limit = round(h * 0.15)
        bottom_limit = rect.bottom + self.px(40)
        zh = min(round(self.card_h * 1.4), bottom_limit - top_limit)
        if zh < self.card_h * 1.08:
            return          # no room to enlarge: the highlight and the words are enough
        zw = card_parts.card_width(zh)
        x = max(self.px(30), min(rect.centerx - zw // 2, w - zw - self.px(30)))
        y = max(top_limit, min(rect.centery - zh // 2 - self.px(20), bottom_limit - zh))
        zoom = pygame.Rect(x, y, zw, zh)
        radius = max(4, round(zw * 0.06))
        sh = glow(zoom.size, radius, (30, 18, 8), self.px(18))
        surface.blit(sh, sh.get_rect(center=(zoom.centerx + self.px(6), zoom.centery + self.px(10))))
        lid = self.hand[i]
        if lid in self.selected:
            halo = glow(zoom.size, radius, GOLD_LIGHT, self.px(22))
            surface.blit(halo, halo.get_rect(center=zoom.center))
        surface.blit(leader_cards.leader_card(self.session.vm.leader(lid), prods, zh), zoom)
