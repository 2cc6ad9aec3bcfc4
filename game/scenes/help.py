"""How to play: the rules in eight short pages, in plain words, beside the game's own pictures.

Reached from the title page. Previous / Next (or the arrow keys) turn the pages; Back or Esc
returns. Every number in the text comes from the game's configuration, so the page cannot
disagree with the rules the engine applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pygame

from game.i18n import _, pgettext

from game.client.games import sample_view

from .art import cards as C
from .art import icons as I
from .art import marbles as M
from .art import leader_cards as L
from .art import tiles as T
from .art.palette import INK, OXBLOOD, SEPIA
from .backdrop import PaintedScene, blit_lines, title_block, tracked, wrap


@dataclass(frozen=True)
class Page:
    title: str
    paragraphs: tuple[str, ...]
    art: str   # which picture goes beside the text (see HelpScene._art)


def pages(config) -> list[Page]:
    """The pages, with the numbers of ``config`` filled in."""
    secs = config.vatican_sections
    spaces = ", ".join(str(s.pope_space) for s in secs)
    firsts = ", ".join(str(s.first_space) for s in secs)
    favors = ", ".join(str(s.favor_vp) for s in secs)
    last = config.last_space
    per_vp = config.resources_per_vp
    kept, dealt = config.leaders_kept, config.leaders_dealt
    return [
        Page(_("The goal"), (
            _("You are a merchant of Renaissance Florence. Whoever has the most victory points when the "
              "game ends wins."),
            _("Points come from the development cards you buy, from how far you go on the faith track, "
              "from the Pope's favor tiles you keep, from the leaders you play, and one for every "
              "{n} resources you have left.").format(n=per_vp),
            _("The end comes when a player buys a seventh card or reaches space {last} of the faith "
              "track: the round is played out, so that everyone has had as many turns.").format(last=last),
        ), "goal"),
        Page(_("Your turn"), (
            _("On your turn you do one main action: take resources from the market, buy one development "
              "card, or run your productions."),
            _("Before it and after it you may play a leader or discard one (a discarded leader gives one "
              "faith), and swap your shelves around."),
            _("Then you end your turn. Nothing you plan on the board is sent until you confirm it."),
        ), "turn"),
        Page(_("The market"), (
            _("Click an arrow to take a row or a column of marbles. Yellow is a coin, grey a stone, blue "
              "a shield, purple a servant; red is one step on the faith track; white is nothing, unless "
              "a leader turns it into a resource."),
            _("The marble on the slide is pushed in, and the one that falls out takes its place."),
            _("Resources go on your shelves: each shelf holds one kind, the shelves hold 1, 2 and 3, and "
              "no two shelves hold the same kind. What does not fit is thrown away, and every other "
              "player moves one step of faith for each resource you throw away."),
        ), "market"),
        Page(_("Development cards"), (
            _("Buy the top card of a deck by paying its cost from your shelves and your strongbox."),
            _("A level 1 card goes on an empty slot, a level 2 card on a level 1, a level 3 card on a "
              "level 2. Only the top card of each slot can produce, and the cards underneath still count "
              "for points."),
            _("Each colour also has a shape: green triangle, blue circle, yellow diamond, purple star."),
        ), "cards"),
        Page(_("Production"), (
            _("Choose any of your productions and run them together: the one printed on your board "
              "(two resources of your choice into one of your choice), the top card of each slot, and "
              "the production leaders you have played."),
            _("Pay every input at once from your shelves and strongbox. What you make goes to the "
              "strongbox, which holds any amount of anything; faith moves your marker at once."),
        ), "production"),
        Page(_("Leaders"), (
            _("You are dealt {dealt} leaders and keep {kept}. Play one when you own what it asks for "
              "(cards of some colours, or some resources: you keep them).").format(dealt=dealt, kept=kept),
            _("Once played, a leader gives a lasting power: a discount on cards, an extra shelf for one "
              "kind, white marbles turned into a resource, or an extra production. A leader not played "
              "can be discarded for one step of faith."),
        ), "leaders"),
        Page(_("Faith and the Vatican"), (
            _("Faith moves your marker along the track. When any marker reaches a pope's space ({spaces}), "
              "the Vatican reports on that section.").format(spaces=spaces),
            _("Everyone whose marker is inside the section (from space {firsts}, in order) turns that "
              "favor tile face up: {favors} points. Everyone behind loses it for good.").format(
                firsts=firsts, favors=favors),
        ), "faith"),
        Page(_("Solo against Lorenzo"), (
            _("After each of your turns, Lorenzo il Magnifico reveals a token: he throws away two cards "
              "of one colour from the grid (lowest level first), or moves his black cross two spaces, or "
              "one space and shuffles his tokens."),
            _("Lorenzo wins if his cross reaches space {last}, or if every card of one colour is gone. "
              "You win by buying your seventh card or reaching space {last} first. The black cross "
              "triggers Vatican reports too.").format(last=last),
        ), "solo"),
    ]


class HelpScene(PaintedScene):
    """The rules, one page at a time."""

    def __init__(self, app, page: int = 0) -> None:
        super().__init__(app)
        self.pages = pages(app.config)
        self.page = max(0, min(page, len(self.pages) - 1))

    # ------------------------------------------------------------------ widgets
    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        bw, bh = round(190 * u), round(46 * u)
        y = h - round(110 * u)
        self.button("prev", pygame.Rect(w // 2 - bw - round(110 * u), y, bw, bh), _("Previous"), "@menu_quiet",
                    enabled=self.page > 0)
        last = self.page == len(self.pages) - 1
        self.button("next", pygame.Rect(w // 2 + round(110 * u), y, bw, bh), _("Done") if last else _("Next"),
                    "@menu")
        self.button("back", pygame.Rect(round(60 * u), y, round(140 * u), bh), _("Back"), "@menu_quiet")

    def on_button(self, name: str) -> None:
        if name == "prev":
            self.turn(-1)
        elif name == "next":
            if self.page == len(self.pages) - 1:
                self.app.stack.pop()
            else:
                self.turn(1)
        elif name == "back":
            self.app.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        if event.key == pygame.K_ESCAPE:
            self.app.stack.pop()
        elif event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE):
            self.turn(1)
        elif event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
            self.turn(-1)

    def turn(self, step: int) -> None:
        page = max(0, min(self.page + step, len(self.pages) - 1))
        if page != self.page:
            self.page = page
            self.build()

    # ------------------------------------------------------------------ drawing
    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        page = self.pages[self.page]
        kicker = _("how to play \u00b7 {n} of {total}").format(n=self.page + 1, total=len(self.pages))
        top = title_block(surface, page.title, kicker, w // 2, round(h * 0.07), u, size=74) + round(28 * u)
        text_w = round(w * 0.46)
        x = round(w * 0.09)
        size = max(12, round(23 * u))
        y = top
        for para in page.paragraphs:
            lines = wrap(para, size, text_w, "regular")
            y = blit_lines(surface, lines, size, INK, x, y, "regular") + round(14 * u)
        art = self._art(page.art, round(w * 0.34), h - top - round(150 * u))
        if art is not None:
            surface.blit(art, art.get_rect(center=(round(w * 0.76), top + (h - top - round(150 * u)) // 2)))
        r, gap = max(3, round(6 * u)), round(22 * u)   # where we are: a diamond per page
        cy = h - round(138 * u)
        x0 = w // 2 - gap * (len(self.pages) - 1) // 2
        for i in range(len(self.pages)):
            cx = x0 + i * gap
            pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            pygame.draw.polygon(surface, OXBLOOD if i == self.page else SEPIA, pts, 0 if i == self.page else 1)

    def _art(self, kind: str, w: int, h: int) -> pygame.Surface | None:
        """The picture beside a page, at most ``w`` x ``h``."""
        view = sample_view(self.app.config)
        prods = view["productions"]
        cards = view["developmentCards"]
        leaders = view["leaderCards"]
        u = self.unit
        out = pygame.Surface((w, h), pygame.SRCALPHA)

        def row(items: list[pygame.Surface], y: int, gap: int) -> int:
            total = sum(i.get_width() for i in items) + gap * (len(items) - 1)
            x = (w - total) // 2
            for i in items:
                out.blit(i, (x, y))
                x += i.get_width() + gap
            return y + max(i.get_height() for i in items)

        def card_of(color: str, level: int) -> dict:
            return next(c for c in cards if c["color"] == color and c["level"] == level)

        def caption(text: str, y: int) -> int:
            size = max(10, round(17 * u))
            img = tracked(text.lower(), size, SEPIA, max(1, round(2 * u)))
            out.blit(img, img.get_rect(midtop=(w // 2, y)))
            return y + img.get_height()

        ch = min(h - round(40 * u), round(w / 0.66 * 0.5))

        def goal() -> None:
            y = row([C.dev_card(card_of("Purple", 3), prods, ch)], 0, 0) + round(16 * u)
            row([T.favor_tile(s.favor_vp, "UP", round(56 * u)) for s in self.app.config.vatican_sections],
                y, round(12 * u))

        def turn() -> None:
            d = round(60 * u)
            y = row([M.marble("Coin", d), M.marble("Shield", d), M.marble("Faith", d)], round(10 * u), round(8 * u))
            y = caption(_("take from the market"), y + round(6 * u)) + round(18 * u)
            y = row([C.dev_card(card_of("Blue", 1), prods, round(ch * 0.6))], y, 0)
            caption(_("or buy a card, or produce"), y + round(6 * u))

        def market() -> None:
            d = round(min(w / 7.5, 70 * u))
            kinds = [("Coin", pgettext("marble", "coin")), ("Stone", pgettext("marble", "stone")),
                     ("Shield", pgettext("marble", "shield")), ("Servant", pgettext("marble", "servant")),
                     ("Faith", pgettext("marble", "faith")), ("Zero", pgettext("marble", "nothing"))]
            gap = round(d * 0.22)
            x = (w - len(kinds) * d - gap * (len(kinds) - 1)) // 2
            y0 = round(20 * u)
            size = max(10, round(15 * u))
            for kind, word in kinds:   # each marble, what it gives, and the word for it
                out.blit(M.marble(kind, d), (x, y0))
                cx = x + d // 2
                y = y0 + d + round(10 * u)
                if kind != "Zero":
                    icon = I.resource_icon(kind, round(d * 0.6))
                    out.blit(icon, icon.get_rect(midtop=(cx, y)))
                label = tracked(word, size, SEPIA, max(1, round(1.5 * u)))
                out.blit(label, label.get_rect(midtop=(cx, y + round(d * 0.6) + round(8 * u))))
                x += d + gap

        def cards_() -> None:
            gap = round(10 * u)
            side = min(round(ch * 0.62), int((w - 3 * gap) / 4 / 0.68))   # four side by side, inside the area
            row([C.dev_card(card_of(c, 1), prods, side) for c in ("Green", "Blue", "Yellow", "Purple")],
                round(20 * u), gap)

        def production() -> None:
            row([C.dev_card(card_of("Yellow", 2), prods, ch)], round(10 * u), 0)

        def leaders_() -> None:
            row([L.leader_card(leaders[i], prods, round(ch * 0.8)) for i in (0, 5)], round(10 * u), round(14 * u))

        def faith() -> None:
            y = row([T.favor_tile(s.favor_vp, "UP", round(70 * u)) for s in self.app.config.vatican_sections],
                    round(30 * u), round(18 * u))
            vps = [str(s.favor_vp) for s in self.app.config.vatican_sections]
            caption(_("favor tiles: {values} points").format(values=_("{others} and {last}").format(
                others=", ".join(vps[:-1]), last=vps[-1])), y + round(14 * u))

        def solo() -> None:
            by_kind = {}
            for t in view.get("actionTokens", []):
                by_kind.setdefault(t["kind"], t)
            row([T.token(t, round(90 * u)) for t in list(by_kind.values())[:3]], round(30 * u), round(16 * u))

        pictures: dict[str, Callable[[], None]] = {
            "goal": goal, "turn": turn, "market": market, "cards": cards_, "production": production,
            "leaders": leaders_, "faith": faith, "solo": solo}
        draw = pictures.get(kind)
        if draw is None:
            return None
        draw()
        return out
