"""A server's leaderboard: its best players (50 at most, a page of :data:`ROWS` at a time) and the
player's own place, reached from the Tables page (its *Leaderboard* button).

The board comes from :func:`game.client.ratings.leaderboard` on a short-lived thread (the frame
loop never waits for the network); *Refresh* asks again. Words are in
:mod:`game.client.rating_words`.
"""
from __future__ import annotations


import pygame

from game.client.address import describe_connect_error, hostport
from game.i18n import _, ngettext, pgettext
from game.client.rating_words import LEADERBOARD_TITLE, RATINGS_NOTE, number
from game.client.ratings import Leaderboard, NoRatings, leaderboard
from game.client.security import identity_warning

from .art import fonts
from .backdrop import (FADED, GOLD, INK, OXBLOOD, PANEL, SEPIA, PaintedScene, blit_lines, mix, panel, title_block,
                       tracked, wrap)
from .fetching import Fetch

ROWS = 7
"""Players shown at once; *Next* and *Previous* page through the rest."""


class LeaderboardScene(PaintedScene):
    """The leaderboard of the server at ``host:port`` (``tls_port``: where it speaks TLS)."""

    def __init__(self, app, host: str, port: int, tls_port: int | None = None) -> None:
        super().__init__(app)
        self.host, self.port, self.tls_port = host, port, tls_port
        self.where = hostport(host.removeprefix("tls://"), port)
        self.board: Leaderboard | None = None
        self.error: str | None = None
        self.first = 0
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self._fetch = Fetch("leaderboard")

    def enter(self) -> None:
        super().enter()
        self.refresh()

    def frame_interval(self) -> float | None:
        base = super().frame_interval()
        return min((i for i in (0.1 if self._fetch.pending else None, base) if i is not None), default=None)

    def refresh(self) -> None:
        """Ask the server again (on a thread; :meth:`update` takes the answer)."""
        self._fetch.start(lambda: leaderboard(self.host, self.port, tls_port=self.tls_port))

    def update(self, dt: float) -> None:
        result = self._fetch.take()
        if result is None:
            return
        if isinstance(result, NoRatings):
            self.error = str(result)
        elif isinstance(result, OSError):
            warning = identity_warning(result)
            self.error = warning.line if warning else describe_connect_error(result, self.host, self.port)
        else:
            self.board, self.error = result, None
            mine = result.mine
            self.first = ((mine - 1) // ROWS) * ROWS if mine else 0    # the page with the player on it
        self.rebuild()

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self.build()

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw = min(round(760 * u), w - round(80 * u))
        top = round(h * 0.06) + round(128 * u)
        self.sheet = pygame.Rect((w - sw) // 2, top, sw, h - top - round(110 * u))
        bh, bw = round(44 * u), round(200 * u)
        total = len(self.board.rows) if self.board is not None else 0
        if total > ROWS:
            nw, ny = round(130 * u), self.sheet.bottom - round(52 * u)
            self.button("previous", pygame.Rect(self.sheet.x + round(22 * u), ny, nw, round(36 * u)),
                        pgettext("paging", "\u2039 Previous"), "@quiet", enabled=self.first > 0)
            self.button("next", pygame.Rect(self.sheet.right - round(22 * u) - nw, ny, nw, round(36 * u)),
                        _("Next \u203a"), "@quiet", enabled=self.first + ROWS < total)
        by = h - round(70 * u)
        self.button("back", pygame.Rect(w // 2 - bw - round(10 * u), by, bw, bh), _("Back"), "@menu_quiet")
        self.button("refresh", pygame.Rect(w // 2 + round(10 * u), by, bw, bh), _("Refresh"), "@menu_quiet",
                    tooltip=_("Ask the server for its leaderboard again"))

    def on_button(self, name: str) -> None:
        if name == "back":
            self.app.stack.pop()
        elif name == "refresh":
            self.refresh()
        elif name in ("previous", "next"):
            self.first = max(0, self.first + (ROWS if name == "next" else -ROWS))
            self.rebuild()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.stack.pop()

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, _(LEADERBOARD_TITLE), None, w // 2, round(h * 0.06), u, size=64)
        sub = fonts.render(_("at {where}").format(where=self.where), max(12, round(22 * u)), SEPIA, "italic")
        surface.blit(sub, sub.get_rect(midtop=(w // 2, bottom + round(6 * u))))
        r = self.sheet
        surface.blit(panel(r.w, r.h, u), r.topleft)
        small, size = max(11, round(18 * u)), max(11, round(21 * u))
        inner = r.inflate(-round(56 * u), 0)
        k = tracked(_("best players"), small, OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midtop=(r.centerx, r.y + round(18 * u))))
        y = r.y + round(18 * u) + k.get_height() + round(14 * u)
        board = self.board
        if board is None or not board.rows:
            text = self.error or (board.empty_words if board is not None else _("Asking the server for its leaderboard\u2026"))
            blit_lines(surface, wrap(text, size, inner.w, "italic")[:4], size, OXBLOOD if self.error else SEPIA,
                       r.centerx, y + round(20 * u), "italic", align="center")
        else:
            row_h = round(30 * u)
            for row in board.rows[self.first:self.first + ROWS]:
                line = pygame.Rect(inner.x, y, inner.w, row_h)
                if row.place == board.mine:
                    pygame.draw.rect(surface, mix(PANEL, GOLD, 0.3), line, border_radius=round(6 * u))
                place = fonts.render(f"{row.place}.", size, FADED)
                surface.blit(place, place.get_rect(midright=(line.x + round(46 * u), line.centery)))
                name = fonts.render(row.name, fonts.fit(row.name, inner.w - round(300 * u), size), INK)
                surface.blit(name, name.get_rect(midleft=(line.x + round(60 * u), line.centery)))
                games = fonts.render(ngettext("{n} game", "{n} games", row.games).format(n=row.games), small, SEPIA, "italic")
                surface.blit(games, games.get_rect(midright=(line.right - round(90 * u), line.centery)))
                rating = fonts.render(number(row.rating), size, INK)
                surface.blit(rating, rating.get_rect(midright=(line.right - round(8 * u), line.centery)))
                y += row_h + round(4 * u)
        if board is not None:
            standing = wrap(board.standing, size, inner.w, "italic")[:2]
            note = wrap(_(RATINGS_NOTE), small, inner.w, "italic")[:3]
            ny = r.bottom - round(64 * u) - len(note) * round(small * 1.2)
            blit_lines(surface, note, small, FADED, r.centerx, ny, "italic", align="center")
            ny -= len(standing) * round(size * 1.2) + round(8 * u)
            blit_lines(surface, standing, size, INK, r.centerx, ny, "italic", align="center")
