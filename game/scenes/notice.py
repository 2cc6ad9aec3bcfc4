"""A few words over whatever page is on top, for a few seconds: what the app tells the player
once, as a page hands over to the next (why the server seated them where it did, who is away),
so that it is on the first frame of that page whichever it is (the board, the choice of leaders, …).

:class:`Notice` is the words and when they go; :func:`draw_notice` paints them on a strip of
paper at the top centre of the page, or of the place the page gives it (the board's log, which
keeps the same words: see :meth:`game.scenes.scene.Scene.notice_area`). The app keeps one (:meth:`game.scenes.app.App.tell`),
draws it after the scenes and puts it away at a click on it; it wakes for the frame that takes it
away.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import pygame

from .art import fonts
from .backdrop import INK, OXBLOOD, PANEL, blit_lines, wrap
from .scene import unit_of

SECONDS = 8.0
"""How long a notice stays up (it reads in a few seconds; the board's log keeps it too)."""


@dataclass
class Notice:
    """``words`` shown for :data:`SECONDS` from the first frame that shows them, until ``until``
    (a :func:`time.monotonic` time; None: not drawn yet). The clock starts there, not when the
    words were given: the page they go over may take seconds to make (a board, on a slow machine)."""

    words: str
    until: float | None = None
    rect: pygame.Rect | None = None      # where it was last drawn

    def left(self, now: float | None = None) -> float:
        """Seconds before it goes (0: gone)."""
        if self.until is None:
            return SECONDS
        return max(0.0, self.until - (time.monotonic() if now is None else now))


def draw_notice(surface: pygame.Surface, notice: Notice, area: pygame.Rect | None = None) -> pygame.Rect:
    """Paint ``notice`` on a strip of paper at the top centre of ``area`` (the page's place for it:
    see :meth:`game.scenes.scene.Scene.notice_area`; None: the window's top centre), no wider
    than it; returns the strip. The first time starts its clock."""
    if notice.until is None:
        notice.until = time.monotonic() + SECONDS
    w, _h = surface.get_size()
    u = unit_of(surface.get_size())
    size = max(13, round(21 * u if area is None else 18 * u))
    pad = max(6, round(14 * u if area is None else 8 * u))
    room = round(w * 0.6) if area is None else area.width - 2 * pad - 2 * max(2, round(4 * u))
    lines = wrap(notice.words, size, room, "italic")
    font = fonts.font(size, "italic")
    width = max((font.size(line)[0] for line in lines), default=0)
    strip = pygame.Rect(0, 0, width + 2 * pad, len(lines) * round(size * 1.18) + 2 * pad)
    if area is None:
        strip.midtop = (w // 2, max(4, round(8 * u)))
    else:
        strip.midtop = (area.centerx, area.y + max(2, round(4 * u)))
    layer = pygame.Surface(strip.size, pygame.SRCALPHA)
    radius = max(3, round(8 * u))
    pygame.draw.rect(layer, (*PANEL, 245), layer.get_rect(), border_radius=radius)
    pygame.draw.rect(layer, (*OXBLOOD, 255), layer.get_rect(), max(1, round(2 * u)), border_radius=radius)
    surface.blit(layer, strip)
    blit_lines(surface, lines, size, INK, strip.centerx, strip.y + pad, "italic", align="center")
    notice.rect = strip
    return strip
