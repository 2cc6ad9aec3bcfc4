"""The padlock that says whether the connection to a server is encrypted, and to whom: a shut
gilded lock and "secure · certificate 5F:3A:9C:02…", or an open faded one and "not encrypted";
its whole story (the whole fingerprint) on a dark label while the pointer rests on it.

Drawn from :class:`game.client.security.Link` (the session's or the tables list's), on the
Tables page, in the waiting room and on the board's top bar.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import _, pgettext

from .art import fonts
from .art import icons
from .art.palette import GOLD, INK, PARCHMENT
from .backdrop import FADED, GREEN_INK, wrap

if TYPE_CHECKING:
    from game.client.security import Link


READABLE = 15
"""The smallest size of the mark's words, in pixels: EB Garamond's italic is small for its size,
and under this "secure" blurs into a smudge (the board's was 12 at 1024x640)."""


class LinkMark:
    """A padlock and a few words for a :class:`~game.client.security.Link`; :meth:`paint` puts it
    on a page, :meth:`paint_tip` draws its details while :attr:`pointer` is on it."""

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)     # where it was painted last (empty: not painted)
        self.link: "Link | None" = None
        self.pointer: tuple[int, int] | None = None

    def words(self, link: "Link", detail: bool) -> str:
        if not link.secure:
            return pgettext("connection", "not encrypted")
        return _("secure \u00b7 certificate {short}").format(short=link.short) if detail else pgettext("connection", "secure")

    def surface(self, link: "Link", size: int, detail: bool = True) -> pygame.Surface:
        """The lock and its words as one image, ``size`` pixels high (the words' size; at least
        :data:`READABLE`)."""
        size = max(size, READABLE)
        lock = icons.padlock(round(size * 1.1), link.secure)
        words = fonts.render(self.words(link, detail), size, GREEN_INK if link.secure else FADED, "italic")
        gap = max(2, size // 4)
        out = pygame.Surface((lock.get_width() + gap + words.get_width(), max(lock.get_height(), words.get_height())),
                             pygame.SRCALPHA)
        out.blit(lock, lock.get_rect(midleft=(0, out.get_height() // 2 - 1)))
        out.blit(words, words.get_rect(midleft=(lock.get_width() + gap, out.get_height() // 2)))
        return out

    def paint(self, surface: pygame.Surface, link: "Link | None", size: int, **anchor: tuple[int, int]) -> None:
        """Paint the mark with one of ``rect``'s anchors (``midtop=(x, y)``…); nothing for None."""
        self.link = link
        if link is None:
            self.rect = pygame.Rect(0, 0, 0, 0)
            return
        img = self.surface(link, size)
        self.rect = img.get_rect(**anchor)
        surface.blit(img, self.rect)

    def hovered(self) -> bool:
        return self.link is not None and self.pointer is not None and self.rect.collidepoint(self.pointer)

    def paint_tip(self, surface: pygame.Surface, unit: float) -> None:
        """The details on a dark label under (or above) the mark, while the pointer is on it."""
        if not self.hovered():
            return
        assert self.link is not None
        tip(surface, self.link.details, self.rect, unit)


def tip(surface: pygame.Surface, text: str, near: pygame.Rect, unit: float) -> None:
    """``text`` on a dark label below ``near`` (above it where there is no room), on the screen."""
    w, h = surface.get_size()
    size = max(12, round(18 * unit))
    width = min(round(520 * unit), w - 20)
    lines = [line for part in text.split("\n") for line in wrap(part, size, width - round(24 * unit), "italic")]
    lead = round(size * 1.2)
    label = pygame.Rect(0, 0, max(fonts.font(size, "italic").size(ln)[0] for ln in lines) + round(24 * unit),
                        len(lines) * lead + round(16 * unit))
    label.midtop = (near.centerx, near.bottom + round(6 * unit))
    if label.bottom > h - 4:
        label.midbottom = (near.centerx, near.y - round(6 * unit))
    label.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, INK, label, border_radius=6)
    pygame.draw.rect(surface, GOLD, label, width=1, border_radius=6)
    for i, line in enumerate(lines):
        img = fonts.render(line, size, PARCHMENT, "italic")
        surface.blit(img, (label.x + round(12 * unit), label.y + round(8 * unit) + i * lead))


def warn(app, warning) -> None:
    """Put a :class:`~game.client.security.IdentityWarning` (a server that is not the one met
    before) over the screen: its title, what happened and what to do, and one answer."""
    from .ask import AskScene
    app.stack.push(AskScene(app, warning.title, warning.text,
                            [("back", _("Back"), _("Nothing was sent to that server"))], lambda _answer: None,
                            warning=True))
