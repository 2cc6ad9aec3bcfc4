"""“Connection lost — reconnecting…”: a veil over the game while the match reconnects.

The board stays in view behind it, blurred and darkened as behind every question of the game
(:func:`game.scenes.ask.dim`); the card itself is opaque paper. It keeps pumping the
session (the scene under it is paused), pops itself as soon as the session reports it is back,
and says so plainly when reconnection has failed. "Leave" goes back to the title.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from game.i18n import _

from game.client.flow.presence import back_words, stopped_heading, stopped_words

from .art import fonts
from .backdrop import FADED, INK, OXBLOOD, PANEL, SEPIA, PaintedScene, blit_lines, dim, panel, tracked, wrap

if TYPE_CHECKING:
    from game.client.session import GameSession


class ConnectionOverlay(PaintedScene):
    """Shown over a game scene while its connection is down."""

    def __init__(self, app, session: "GameSession") -> None:
        super().__init__(app)
        self.session = session
        self.t = 0.0
        self.card = pygame.Rect(0, 0, 0, 0)
        self._failed_shown = False
        self._stopped_shown = False
        # (size, session version, failed, the dimmed screen behind with the card and its words
        # drawn on it): what every frame starts from, drawn again only when one of those changes
        self._still: tuple | None = None

    @property
    def opaque(self) -> bool:   # type: ignore[override]
        """Whether the screen is drawn from this scene alone: once the game behind is dimmed into
        :attr:`_still` (the game behind is paused), it is not drawn again every frame under it."""
        return self._still is not None and self._still[:-1] == self._still_key()

    def _still_key(self) -> tuple:
        return (self.app.size, self.session.version, bool(self.failed), self.session.server_stopped)

    @property
    def heading(self) -> str:
        """The card's heading while it waits: the host stopped hosting (the server said so as it
        stopped), or the connection was lost."""
        if self.session.server_stopped:
            return stopped_heading(self.session.match.host_name or None)
        return _("Connection lost \u2014 reconnecting")

    @property
    def note(self) -> str:
        """What will be back (the board, or the choice of leaders or resources under way)."""
        return back_words(self.session.stage())

    @property
    def failed(self) -> str | None:
        return self.session.reconnect_failed

    def layout(self) -> None:
        w, h = self.app.size
        u = self.unit
        warning = self.session.reconnect_warning   # a warning of a few sentences: the card fits them
        cw, ch = round((760 if warning else 620) * u), round(270 * u)
        if warning is not None:
            small = max(12, round(21 * u))
            lines = wrap(warning.text, small, cw - round(80 * u), "italic")
            ch = max(ch, round(200 * u) + len(lines) * round(small * 1.18))
        elif self.session.server_stopped and not self.failed:     # what a stop on purpose means, too
            small = max(12, round(20 * u))
            lines = wrap(stopped_words(self.session.match.host_name or None), small,
                         cw - round(80 * u), "italic")
            ch += len(lines) * round(small * 1.18) + round(4 * u)
        self._stopped_shown = bool(self.session.server_stopped)
        self.card = pygame.Rect((w - cw) // 2, (h - ch) // 2, cw, ch)
        bw, bh = round(200 * u), round(48 * u)
        label = _("Back to the title") if self.failed else _("Leave")
        self.button("leave", pygame.Rect(self.card.centerx - bw // 2, self.card.bottom - bh - round(34 * u), bw, bh),
                    label, "@menu_quiet" if not self.failed else "@menu",
                    tooltip=None if self.failed else _("Stop waiting and go back to the title"))
        self._failed_shown = bool(self.failed)

    def frame_interval(self) -> float | None:
        return None if self.failed else 1 / 10   # the breathing dots, while it reconnects

    def update(self, dt: float) -> None:
        self.t += dt
        self.session.pump()
        if not self.session.connection_lost and not self.failed:
            if self.app.stack.top is self:
                self.app.stack.pop()
            return
        if bool(self.failed) != self._failed_shown or bool(self.session.server_stopped) != self._stopped_shown:
            self.ui.clear_and_reset()
            self.build()

    def draw(self, surface: pygame.Surface) -> None:
        key = self._still_key()
        if self._still is None or self._still[:-1] != key:   # the game behind was drawn under: dim it once
            dim(surface)
            self._paint_card(surface)
            self._still = (*key, surface.copy())
        else:
            surface.blit(self._still[-1], (0, 0))
        if not self.failed:
            self._dots(surface)

    def _paint_card(self, surface: pygame.Surface) -> None:
        """The card and its words, which stay as they are while it waits."""
        u = self.unit
        edge = max(2, round(6 * u))    # opaque paper: nothing behind shows through the words
        pygame.draw.rect(surface, PANEL, self.card.inflate(-2 * edge, -2 * edge), border_radius=edge)
        surface.blit(panel(self.card.w, self.card.h, u), self.card.topleft)
        cx = self.card.centerx
        y = self.card.y + round(40 * u)
        size = max(14, round(34 * u))
        if self.failed:
            warning = self.session.reconnect_warning   # not the server the game was on: what to do
            title = warning.title if warning else _("Could not reconnect")
            head = fonts.render(title, fonts.fit(title, self.card.w - round(60 * u), size), OXBLOOD)
            surface.blit(head, head.get_rect(midtop=(cx, y)))
            text = warning.text if warning else failure_words(self.failed, self.session.match.host)
            small = max(12, round(21 * u))
            lines = wrap(text, small, self.card.w - round(80 * u), "italic")
            blit_lines(surface, lines, small, SEPIA, cx, y + head.get_height() + round(12 * u), "italic",
                       align="center")
            return
        rect, size = self._head()
        surface.blit(fonts.render(self.heading, size, INK), rect)
        y = rect.bottom + round(12 * u)
        if self.session.server_stopped:     # on purpose: what it means, before whom it waits for
            small = max(12, round(20 * u))
            lines = wrap(stopped_words(self.session.match.host_name or None), small,
                         self.card.w - round(80 * u), "italic")
            y = blit_lines(surface, lines, small, INK, cx, y, "italic", align="center") + round(4 * u)
        waiting = waiting_words(self.session.match)
        if waiting:   # whom (or what) it waits for, as far as this client knows
            small = max(12, round(20 * u))
            lines = wrap(waiting, small, self.card.w - round(80 * u), "italic")[:2]
            y = blit_lines(surface, lines, small, SEPIA, cx, y, "italic", align="center") + round(4 * u)
        note = tracked(self.note, max(11, round(17 * u)), FADED, max(1, round(2 * u)))
        surface.blit(note, note.get_rect(midtop=(cx, y + round(4 * u))))

    def _head(self) -> tuple[pygame.Rect, int]:
        """Where the heading ("Connection lost — reconnecting") is, and its type size (a long one
        made smaller to fit the card, the dots after it)."""
        u = self.unit
        size = fonts.fit(self.heading, self.card.w - round(110 * u), max(14, round(34 * u)))
        head = fonts.font(size).size(self.heading)
        rect = pygame.Rect(0, 0, *head)
        rect.midtop = (self.card.centerx - round(12 * u), self.card.y + round(40 * u))
        return rect, size

    def _dots(self, surface: pygame.Surface) -> None:
        """A subtle ellipsis after the heading: three dots that brighten in turn."""
        rect, size = self._head()
        for i in range(3):
            phase = (math.sin(self.t * 3.2 - i * 0.9) + 1) / 2
            colour = tuple(round(a + (b - a) * phase) for a, b in zip(FADED, INK))
            dot = fonts.render(".", size, colour)
            surface.blit(dot, (rect.right + i * round(size * 0.28), rect.y))

    def on_button(self, name: str) -> None:
        if name == "leave":
            from .router import leave_game
            leave_game(self.app, self.session)


def waiting_words(match: Any) -> str | None:
    """Whom a lost connection waits for: the host by name when the table was joined from the
    network's list and is a player's ("Waiting for Ada to host the table again (192.0.2.2:51015)"),
    else the table or the address; None for a game on this machine."""
    if not match.host:
        return None
    where = f"{match.host}:{match.port}"
    name, table = match.host_name, match.table_name
    if name and table == f"{name}'s table" and name != match.nickname:   # (the announcement's words: the server's)
        return _("Waiting for {name} to host the table again ({where})").format(name=name, where=where)
    if table:
        return _("Waiting for \u201c{table}\u201d to come back ({where})").format(table=table, where=where)
    return _("Waiting for the game at {where} to come back").format(where=where)


def failure_words(reason: str, host: str | None) -> str:
    """Why reconnecting failed, in plain words, and what the player can do."""
    if reason == "server unreachable":
        first = (_("The game server at {host} could not be reached again.").format(host=host) if host else
                 _("The game server could not be reached again."))
    elif reason == "TAKEN":
        first = _("The server no longer recognises this seat as yours.")
    elif reason == "NOT_IN_GAME":
        first = _("The game is no longer on the server.")
    else:
        first = (_("The game server at {host} did not take us back ({why}).").format(host=host, why=reason) if host
                 else _("The game server did not take us back ({why}).").format(why=reason))
    return first + " " + _("Go back to the title; the others can go on without you.")


ReconnectOverlay = ConnectionOverlay
"""The name the board scene uses."""
