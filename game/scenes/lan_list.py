"""The list of games found on the local network, drawn on the *Join* page.

A :class:`LanGames` owns a :class:`~game.client.lan.Browser` (zeroconf's threads keep its
list up to date); each frame it only reads that list, so it never holds up the frame loop. It
paints one row per table (its name, its host, the seats taken and free, its address) and tells
which row a click hit. A table where this player still holds a seat (a token in ``seats.json``, kept
by :class:`~game.match.RemoteMatch`, e.g. after the game was closed or crashed) says *Rejoin*, not
*Wait for a seat*.
"""
from __future__ import annotations

import time
from pathlib import Path

import orjson
import pygame

from game.i18n import _

from game.client.lan import Browser, FoundGame
from game.client.lan_words import found_name, found_seats
from game.settings import data_dir

from .art import fonts, icons
from .backdrop import FADED, GOLD, GREEN_INK, INK, OXBLOOD, PANEL, SEPIA, mix, panel, tracked, wrap

SEARCH_SECONDS = 4.0
"""How long "looking…" is shown before "nothing found" (announcements come within a second or two)."""

MAX_ROWS = 3


class LanGames:
    """The games on the network, as rows on a panel."""

    def __init__(self, on_change=None, seat_file: Path | None = None) -> None:
        self.on_change = on_change           # called from zeroconf's threads when the list changes
        self.browser: Browser | None = None
        self.seat_file = seat_file if seat_file is not None else data_dir() / "seats.json"
        self._seats: dict[str, list[str]] = {}   # "address:port" -> nicknames holding a seat there
        self.rows: list[tuple[pygame.Rect, FoundGame]] = []
        self.actions: list[str] = []             # what each painted row offers ("Join", "Rejoin as Bob"...)
        self.notes: list[str] = []               # each painted row's line under its name
        self.locks: list[pygame.Rect] = []       # the padlocks painted (tables that speak TLS)
        self.hover: str | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._slots: list[str] = []               # the services painted, row by row, in the order found
        self._last: dict[str, FoundGame] = {}     # each service as it was last announced
        self.pointer: tuple[int, int] | None = None   # where the mouse is (the scene tells)
        self.gone_rows: list[pygame.Rect] = []    # painted rows of tables that left while pointed at

    def start(self) -> None:
        self._seats = _read_seats(self.seat_file)
        if self.browser is None:
            self.browser = Browser(on_change=self.on_change)

    def seated(self, g: FoundGame) -> list[str]:
        """The nicknames this player holds a seat under at that table (read when the list starts)."""
        return self._seats.get(f"{g.address}:{g.port}", [])

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None

    def games(self) -> list[FoundGame]:
        """The games on the network now, in the order of their rows (see :meth:`listing`)."""
        return [g for g, here in self.listing() if here]

    def listing(self) -> list[tuple[FoundGame, bool]]:
        """The rows: each table found, in the order it was first seen (a table found later goes at
        the end), and whether it is still on the network. While the pointer is over the list a
        table that leaves keeps its row (greyed, not joinable), so no row moves or changes under
        the pointer; once the pointer is elsewhere the rows close up."""
        found = self.browser.games() if self.browser is not None else []
        live = {g.service: g for g in found}
        self._last.update(live)
        held = self.pointer is not None and self.rect.collidepoint(self.pointer)
        if not held:
            self._slots = [s for s in self._slots if s in live]
        for g in found:
            if g.service not in self._slots:
                self._slots.append(g.service)
        for gone in set(self._last) - set(self._slots):
            del self._last[gone]
        return [(self._last[s], s in live) for s in self._slots]

    @property
    def version(self) -> int:
        return self.browser.version if self.browser is not None else 0

    def at(self, pos: tuple[int, int]) -> FoundGame | None:
        """The game whose row is under ``pos`` (None over the row of a table that has left)."""
        for rect, game in self.rows:
            if rect.collidepoint(pos):
                return game
        return None

    def gone_at(self, pos: tuple[int, int]) -> bool:
        """Whether ``pos`` is on the row of a table that left the network while pointed at."""
        return any(r.collidepoint(pos) for r in self.gone_rows)

    @property
    def searching(self) -> bool:
        """Whether "looking…" is still shown (it turns into "nothing found" by itself)."""
        b = self.browser
        return b is not None and not b.problem and time.monotonic() - b.started < SEARCH_SECONDS + 0.5

    def status(self) -> str:
        """One sentence about the search when no game is listed."""
        b = self.browser
        if b is None:
            return ""
        if b.problem:
            return b.problem
        if time.monotonic() - b.started < SEARCH_SECONDS:
            return _("Looking for games on this network\u2026")
        return _("No game found on this network yet. Games hosted with this edition appear here by "
                 "themselves, unless a firewall blocks their announcements (multicast DNS, UDP port "
                 "5353): then type the host's address below.")

    def paint(self, surface: pygame.Surface, rect: pygame.Rect, u: float, enabled: bool = True) -> None:
        self.rect = rect
        surface.blit(panel(rect.w, rect.h, u), rect.topleft)
        small = max(11, round(18 * u))
        k = tracked(_("games on this network"), small, OXBLOOD, max(1, round(2 * u)))
        surface.blit(k, k.get_rect(midtop=(rect.centerx, rect.y + round(18 * u))))
        listing = self.listing()
        games = [g for g, _here in listing]
        self.rows = []
        self.gone_rows = []
        self.actions = []
        self.notes = []
        self.locks = []
        top = rect.y + round(18 * u) + k.get_height() + round(12 * u)
        inner = rect.inflate(-round(60 * u), 0)
        if not games:
            colour = OXBLOOD if self.browser is not None and self.browser.problem else SEPIA
            size = max(11, round(20 * u))
            y = top + round(12 * u)
            for line in wrap(self.status(), size, inner.w, "italic")[:3]:
                img = fonts.render(line, size, colour, "italic")
                surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
                y += round(size * 1.2)
            return
        row_h = round(50 * u)
        gap = round(6 * u)
        name_size, note_size = max(12, round(23 * u)), max(10, round(17 * u))
        for i, (g, here) in enumerate(listing[:MAX_ROWS]):
            r = pygame.Rect(inner.x, top + i * (row_h + gap), inner.w, row_h)
            if not here:                      # left the network while pointed at: its row stays, greyed
                self.gone_rows.append(r)
                self.actions.append("")
                pygame.draw.rect(surface, mix(PANEL, FADED, 0.08), r, border_radius=round(8 * u))
                pad = round(14 * u)
                name = fonts.render(found_name(g), name_size, FADED)
                surface.blit(name, name.get_rect(midleft=(r.x + pad, r.centery - round(9 * u))))
                gone = _("no longer on the network \u00b7 {address}:{port}").format(address=g.address, port=g.port)
                note = fonts.render(gone, note_size, FADED, "italic")
                surface.blit(note, note.get_rect(midleft=(r.x + pad, r.centery + round(13 * u))))
                act = fonts.render(_("Closed"), name_size, FADED, "italic")
                surface.blit(act, act.get_rect(midright=(r.right - pad, r.centery)))
                continue
            self.rows.append((r, g))
            hot = enabled and self.hover == g.service
            mine = self.seated(g) if g.info.started else []
            full = g.info.started and not g.info.free and not mine
            fill = mix(PANEL, GOLD, 0.28 if hot else 0.12)
            pygame.draw.rect(surface, fill, r, border_radius=round(8 * u))
            pygame.draw.rect(surface, GOLD if hot else mix(PANEL, GOLD, 0.5), r, max(1, round(2 * u)),
                             border_radius=round(8 * u))
            pad = round(14 * u)
            name = fonts.render(found_name(g), name_size, FADED if full else INK)
            at = name.get_rect(midleft=(r.x + pad, r.centery - round(9 * u)))
            surface.blit(name, at)
            if g.info.tls:                    # it speaks TLS: joined encrypted
                lock = icons.padlock(round(name_size * 0.9))
                self.locks.append(lock.get_rect(midleft=(at.right + round(8 * u), at.centery)))
                surface.blit(lock, self.locks[-1])
            seats = found_seats(g)
            where = f"{g.address}:{g.port}"   # tells apart tables of the same name; the host's plaque shows it
            host = _("host {name}").format(name=g.info.host) + " \u00b7 " if g.info.host else ""
            secure = " \u00b7 " + _("encrypted") if g.info.tls else ""
            self.notes.append(f"{host}{seats} \u00b7 {where}{secure}")
            note = fonts.render(self.notes[-1], note_size, SEPIA, "italic")
            surface.blit(note, note.get_rect(midleft=(r.x + pad, r.centery + round(13 * u))))
            action = (_("Rejoin as {name}").format(name=mine[0]) if len(mine) == 1 else _("Rejoin")) if mine else \
                (_("Wait for a seat") if full else _("Join"))
            self.actions.append(action)
            act = fonts.render(action + " \u203a", name_size, GREEN_INK if not full else FADED)
            surface.blit(act, act.get_rect(midright=(r.right - pad, r.centery)))
        more = len(games) - MAX_ROWS
        if more > 0:
            img = fonts.render(_("and {n} more\u2026").format(n=more), note_size, SEPIA, "italic")
            surface.blit(img, img.get_rect(midtop=(rect.centerx, top + MAX_ROWS * (row_h + gap))))


def _read_seats(path: Path) -> dict[str, list[str]]:
    """The seats saved by :class:`~game.match.RemoteMatch` ("host:port/nickname" -> token), by table."""
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    out: dict[str, list[str]] = {}
    if isinstance(data, dict):
        for key, token in data.items():
            where, _sep, nickname = str(key).rpartition("/")
            if where and nickname and token:
                out.setdefault(where, []).append(nickname)
    return out



