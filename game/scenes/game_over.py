"""The end of a game: who won and why, and every player's score by category.

Scores come from the rules engine (:func:`game.client.outcome.final_scores`) on the final view, so
the table always adds up the way the engine counted. In solo, Lorenzo has no score: the player's is shown
with where the black cross stopped.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client.outcome import final_scores, outcome_words
from game.client.words import LORENZO
from game.i18n import N_, _, ngettext

from .art import fonts
from .backdrop import FADED, GOLD, GOLD_LIGHT, INK, OXBLOOD, SEPIA, blit_lines, panel, title_block, tracked, wrap
from .router import SessionScene, leave_game

if TYPE_CHECKING:
    from game.client.session import GameSession

ROMAN = ("i", "ii", "iii", "iv", "v", "vi")
COLUMNS = (("cards", N_("Cards")), ("faith_track", N_("Faith track")), ("favors", N_("Favor tiles")),
           ("leaders", N_("Leaders")), ("resource_vp", N_("Resources (VP)")), ("total", N_("Total")),
           ("resources", N_("Left (tie-break)")))
"""The score sheet's columns: (key, heading marked for the catalogue, said with ``_``)."""


LEAVE_KEYS = (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)
GUARD = 1.0
"""Seconds after the scores appear during which Enter and Esc do not leave them."""


class GameOverScene(SessionScene):
    """Final scores, by category."""

    stage = "ended"

    def __init__(self, app, session: "GameSession") -> None:
        super().__init__(app, session)
        self.rows = final_scores(session)
        self.headline, self.why = outcome_words(session, self.rows)
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self.age = 0.0                  # seconds shown
        self._held: set[int] = set()    # keys down that must be released before they count

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        n = len(self.rows)
        sw = round(min(w * 0.86, 1040 * u))
        sh = round((124 + 58 * n) * u) + (round(70 * u) if n == 1 else 0)
        self.sheet = pygame.Rect((w - sw) // 2, round(h * 0.33), sw, sh)
        bw, bh = round(280 * u), round(52 * u)
        gap = round(16 * u)
        left = w // 2 - bw // 2 - gap - bw
        self.button("board", pygame.Rect(left, h - bh - round(60 * u), bw, bh), _("See the final board"),
                    "@menu_quiet", tooltip=_("Every player's board as the game ended (Back returns here)"))
        self.button("replay", pygame.Rect(left + bw + gap, h - bh - round(60 * u), bw, bh), _("Watch the replay"),
                    "@menu_quiet", tooltip=_("The whole game again, move by move, forward and back"))
        self.button("title", pygame.Rect(left + 2 * (bw + gap), h - bh - round(60 * u), bw, bh), _("Back to the title"))

    def enter(self) -> None:
        super().enter()
        self.age = 0.0
        pressed = pygame.key.get_pressed()   # a key still down from the scene before (Enter on Confirm)
        self._held = {k for k in LEAVE_KEYS if pressed[k]}

    def update(self, dt: float) -> None:
        self.session.pump()     # the game is over: nothing changes the stage any more
        self.age += dt

    def on_button(self, name: str) -> None:
        if name == "title":
            leave_game(self.app, self.session)
        elif name == "board":
            self.app.stack.push(self.app.scene("board", self.session, final=True))
        elif name == "replay":
            self.app.stack.push(self.app.scene("watch", self.session))

    def handle_event(self, event: pygame.event.Event) -> None:
        """Enter or Esc back to the title, once the scores have been seen: a key pressed within
        :data:`GUARD` seconds of the scene appearing (the second press of a double Enter on the
        board, a key held down) is ignored until it is released and pressed again."""
        if event.type == pygame.KEYUP:
            self._held.discard(event.key)
        elif event.type == pygame.KEYDOWN and event.key in LEAVE_KEYS:
            if self.age < GUARD or event.key in self._held:
                self._held.add(event.key)
                return
            leave_game(self.app, self.session)

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        g = self.session.vm.game
        lorenzo_won = self.headline.startswith(LORENZO)
        kicker = _("the game is over")
        bottom = title_block(surface, self.headline, kicker, w // 2, round(h * 0.075), u, size=76)
        small = max(12, round(22 * u))
        blit_lines(surface, wrap(self.why, small, round(w * 0.7), "italic"), small, OXBLOOD if lorenzo_won else SEPIA,
                   w // 2, bottom + round(6 * u), "italic", align="center")
        surface.blit(panel(self.sheet.w, self.sheet.h, u), self.sheet.topleft)
        # the table
        pad = round(40 * u)
        inner = self.sheet.inflate(-2 * pad, -2 * round(28 * u))
        solo = len(self.rows) == 1
        columns = COLUMNS[:-1] if solo else COLUMNS      # no tie-break in solo
        name_w = round(inner.w * 0.24)
        col_w = (inner.w - name_w) / len(columns)
        y = inner.y
        cap = max(10, round(16 * u))
        for i, (_key, label) in enumerate(columns):
            cx = round(inner.x + name_w + col_w * (i + 0.5))
            lines = wrap(_(label).lower(), cap, round(col_w - 6 * u), "caps")
            blit_lines(surface, lines, cap, OXBLOOD if _key == "total" else SEPIA, cx,
                       y + (2 - len(lines)) * round(cap * 0.6), "caps", align="center", leading=1.1)
        y += round(56 * u)
        pygame.draw.line(surface, SEPIA, (inner.x, y - round(8 * u)), (inner.right, y - round(8 * u)),
                         max(1, round(1.5 * u)))
        size = max(13, round(26 * u))
        winner = g.get("winnerPlayer") if g else None
        row_h = round(58 * u)
        for rank, (nick, s) in enumerate(self.rows):
            won = nick == winner or (not lorenzo_won and winner is None and rank == 0)
            row = pygame.Rect(inner.x - round(12 * u), y - round(6 * u), inner.w + round(24 * u), row_h - round(8 * u))
            if won:
                band = pygame.Surface(row.size, pygame.SRCALPHA)
                band.fill((*GOLD_LIGHT, 90))
                surface.blit(band, row)
                pygame.draw.rect(surface, GOLD, row, max(1, round(1.5 * u)), border_radius=round(6 * u))
            label = (_("{name} (you)").format(name=self.session.shown_name(nick))
                     if nick == self.session.nickname and len(self.rows) > 1 else self.session.shown_name(nick))
            x = inner.x
            if not solo:
                numeral = fonts.render(ROMAN[rank] if rank < len(ROMAN) else str(rank + 1), max(11, round(18 * u)),
                                       OXBLOOD, "caps")
                surface.blit(numeral, numeral.get_rect(midleft=(x, row.centery)))
                x += round(40 * u)
            img = fonts.render(label, fonts.fit(label, name_w - (x - inner.x) - round(10 * u), size), INK)
            surface.blit(img, img.get_rect(midleft=(x, row.centery)))
            for i, (key, _label) in enumerate(columns):
                cx = round(inner.x + name_w + col_w * (i + 0.5))
                v = s[key]
                colour = INK if key == "total" else (FADED if v == 0 else SEPIA)
                if key == "resources":
                    colour = FADED
                txt = fonts.render(str(v), size + (round(4 * u) if key == "total" else 0), colour,
                                   "regular" if key != "resources" else "italic")
                surface.blit(txt, txt.get_rect(center=(cx, row.centery)))
            y += row_h
        if solo and g is not None:
            max_faith = int(g.get("faithTrack", {}).get("maxFaith", 24))
            line = (_("Lorenzo's black cross stopped at {n} of {most} on the faith track.").format(
                n=g.get("blackPoints", 0), most=max_faith)
                    if not lorenzo_won or int(g.get("blackPoints", 0)) < max_faith
                    else _("Lorenzo's black cross reached {most}, the end of the faith track.").format(most=max_faith))
            score = self.rows[0][1]["total"]
            you = ngettext("Your score: {n} victory point.", "Your score: {n} victory points.", score).format(n=score) + " "
            from .art import icons
            cross = icons.black_cross(round(40 * u))
            lines = wrap(you + line, small, inner.w - cross.get_width() - round(20 * u), "italic")
            text_w = max(fonts.font(small, "italic").size(t)[0] for t in lines)
            left = self.sheet.centerx - (text_w + cross.get_width() + round(14 * u)) // 2
            surface.blit(cross, cross.get_rect(midleft=(left, y + round(10 * u) + len(lines) * small // 2)))
            blit_lines(surface, lines, small, SEPIA, left + cross.get_width() + round(14 * u), y + round(10 * u),
                       "italic")
        note = tracked(_("resources left break a tie"), max(10, round(15 * u)), FADED, max(1, round(2 * u)))
        below = self.sheet.bottom + round(10 * u)
        if len(self.rows) > 1:
            surface.blit(note, note.get_rect(midtop=(self.sheet.centerx, below)))
            below += note.get_height() + round(6 * u)
        if self.session.rating_change:     # the server rated the game (or kept a solo best)
            img = fonts.render(self.session.rating_change, small, INK, "italic")
            surface.blit(img, img.get_rect(midtop=(self.sheet.centerx, below)))
