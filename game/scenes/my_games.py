"""My games: the player's games on the servers they play on (from the title: every server where
they have turn-based games; from the Tables page: that server), those awaiting their move first,
with the time left. A click on a game takes its seat (by the player's key) and opens it.

The lists come from :func:`game.client.my_games.my_games` on a short-lived thread (the frame loop
never waits for the network); *Refresh* asks again. Words are in :mod:`game.client.my_games_words`.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.client.address import describe_connect_error, hostport
from game.client.my_games import MyGame, NoGames, my_games, turn_servers
from game.client.tables import Seating
from game.i18n import _

from .art import fonts
from .backdrop import (FADED, GOLD, INK, OXBLOOD, PANEL, SEPIA, PaintedScene, blit_lines, mix, panel, title_block,
                       tracked, wrap)
from .fetching import Fetch

ROWS = 8
"""Games shown at once (the first: those awaiting the player's move)."""


class MyGamesScene(PaintedScene):
    """The player's games at ``servers`` (``[(host, port)]``; None: every server where they have
    turn-based games, :func:`~game.client.my_games.turn_servers`)."""

    def __init__(self, app: Any, servers: list[tuple[str, int]] | None = None, tls_port: int | None = None) -> None:
        super().__init__(app)
        self.servers = servers
        self.tls_port = tls_port if servers is not None and len(servers) == 1 else None
        self.games: list[tuple[str, int, int | None, MyGame]] | None = None   # (host, port, tls port, game)
        self.problems: list[str] = []
        self.answered = 0                # servers that answered the last ask
        self.rows: list[tuple[pygame.Rect, tuple[str, int, int | None, MyGame]]] = []
        self.sheet = pygame.Rect(0, 0, 0, 0)
        self.seating: Seating | None = None
        self.busy: str | None = None
        self._fetch = Fetch("my-games")

    def enter(self) -> None:
        super().enter()
        self.refresh()

    def frame_interval(self) -> float | None:
        base = super().frame_interval()
        busy = 0.1 if self._fetch.pending or self.seating is not None else None
        return min((i for i in (busy, base) if i is not None), default=None)

    def refresh(self) -> None:
        """Ask every server again (on a thread; :meth:`update` takes the answers)."""
        servers = list(self.servers) if self.servers is not None else turn_servers(self.app.data_dir)
        tls = self.tls_port

        def ask() -> tuple[list[tuple[str, int, int | None, MyGame]], list[str], int]:
            games, problems, answered = [], [], 0
            for host, port in servers:
                try:
                    listing = my_games(host, port, tls_port=tls, folder=self.app.data_dir)
                except NoGames as e:
                    problems.append(f"{hostport(host, port)}: {e}")
                    continue
                except OSError as e:
                    problems.append(describe_connect_error(e, host, port))
                    continue
                games += [(host, port, listing.tls_port, g) for g in listing.games]
                answered += 1
            games.sort(key=lambda r: (not r[3].your_turn, r[3].time_left if r[3].time_left is not None else 1e18))
            return games, problems, answered
        self._fetch.start(ask)

    def update(self, dt: float) -> None:
        if self.seating is not None:
            self._follow_seat()
            return
        result = self._fetch.take()
        if result is None:
            return
        if isinstance(result, OSError):
            self.games, self.problems, self.answered = [], [str(result)], 0
        else:
            self.games, self.problems, self.answered = result
        self.rebuild()

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self.build()

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        sw = min(round(860 * u), w - round(80 * u))
        top = round(h * 0.06) + round(128 * u)
        self.sheet = pygame.Rect((w - sw) // 2, top, sw, h - top - round(110 * u))
        bh, bw = round(44 * u), round(200 * u)
        by = h - round(70 * u)
        self.button("back", pygame.Rect(w // 2 - bw - round(10 * u), by, bw, bh),
                    _("Cancel") if self.seating is not None else _("Back"), "@menu_quiet")
        self.button("refresh", pygame.Rect(w // 2 + round(10 * u), by, bw, bh), _("Refresh"), "@menu_quiet",
                    tooltip=_("Ask for your games again"), enabled=self.seating is None)

    def on_button(self, name: str) -> None:
        if name == "back":
            if self.seating is not None:
                self.seating.cancel()
                self.seating, self.busy = None, None
                self.rebuild()
                return
            self.app.stack.pop()
        elif name == "refresh" and self.seating is None:
            self.refresh()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_button("back")
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.seating is None:
            row = next((r for rect, r in self.rows if rect.collidepoint(event.pos)), None)
            if row is not None:
                self.open(row)

    def open(self, row: tuple[str, int, int | None, MyGame]) -> None:
        """Take the seat of that game (by key) and go to it."""
        host, port, tls_port, game = row
        if game.given:
            self.problems = [game.line]
            return
        self.busy = _("Opening \u201c{name}\u201d\u2026").format(name=game.table or game.game)
        self.seating = Seating(host, port, game.nickname, self.app.config, self.app.wake, tls_port=tls_port,
                               game=game.game, table_name=game.table)
        self.rebuild()

    def _follow_seat(self) -> None:
        seating = self.seating
        assert seating is not None
        state = seating.poll()
        if state == "failed":
            self.seating, self.busy = None, None
            self.problems = [seating.error or _("The server did not take you.")]
            self.refresh()
            self.rebuild()
        elif state == "seated":
            from .router import seated_scene
            session = seating.session
            self.seating = None
            self.app.stack.replace(seated_scene(self.app, session, way_back=[("my_games", (self.servers,))]))

    def paint(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        u = self.unit
        bottom = title_block(surface, _("My games"), None, w // 2, round(h * 0.06), u, size=64)
        servers = self.servers
        where = (_("at {where}").format(where=hostport(*servers[0])) if servers is not None and len(servers) == 1 else
                 _("on the servers you play on"))
        sub = fonts.render(where, max(12, round(22 * u)), SEPIA, "italic")
        surface.blit(sub, sub.get_rect(midtop=(w // 2, bottom + round(u))))   # (its "g" clear of the sheet)
        r = self.sheet
        surface.blit(panel(r.w, r.h, u), r.topleft)
        small, size = max(11, round(18 * u)), max(11, round(21 * u))
        inner = r.inflate(-round(56 * u), 0)
        k = tracked(_("your move first"), small, OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midtop=(r.centerx, r.y + round(18 * u))))
        y = r.y + round(18 * u) + k.get_height() + round(14 * u)
        self.rows = []
        games = self.games
        if self.busy:
            blit_lines(surface, [self.busy], size, SEPIA, r.centerx, y + round(20 * u), "italic", align="center")
        elif not games:
            text = (_("Asking for your games\u2026") if games is None else
                    _("Your games could not be listed: why is said below.") if self.problems and
                    not self.answered else
                    _("You have no game in progress on these servers.") if self.servers is None or self.servers else
                    _("You have no game in progress."))
            blit_lines(surface, wrap(text, size, inner.w, "italic")[:3], size, SEPIA, r.centerx, y + round(20 * u),
                       "italic", align="center")
        else:
            row_h = round(34 * u)
            several = len({(g[0], g[1]) for g in games}) > 1
            for row in games[:ROWS]:
                game = row[3]
                line = pygame.Rect(inner.x, y, inner.w, row_h)
                if game.your_turn:
                    pygame.draw.rect(surface, mix(PANEL, GOLD, 0.3), line, border_radius=round(6 * u))
                text = game.line + (f" \u00b7 {hostport(row[0], row[1])}" if several else "")
                img = fonts.render(text, fonts.fit(text, inner.w - round(16 * u), size), INK if not game.given else FADED)
                surface.blit(img, img.get_rect(midleft=(line.x + round(8 * u), line.centery)))
                self.rows.append((line, row))
                y += row_h + round(4 * u)
        if self.problems:
            lines = [x for p in self.problems for x in wrap(p, small, inner.w, "italic")][:4]
            blit_lines(surface, lines, small, OXBLOOD, r.centerx, r.bottom - round(24 * u) - len(lines) * round(small * 1.2),
                       "italic", align="center")
