"""A nickname the game can use and draw: the server's rules, and letters our fonts have (a helper
of the scenes that ask for one: the settings, hosting, joining, the game against the computer)."""
from __future__ import annotations

import pygame

from game.client.words import NICKNAME_MAX, validate_nickname
from game.i18n import _, ngettext

from .art import fonts


def check_nickname(text: str) -> str | None:
    """The problem with a nickname, in words, or None if it is fine."""
    s = text.strip()
    if not s:
        return _("Type a nickname.")
    if len(s) > NICKNAME_MAX:
        return ngettext("At most {n} letter.", "At most {n} letters.", NICKNAME_MAX).format(n=NICKNAME_MAX)
    if validate_nickname(s) is None:
        return _("Use letters, digits, spaces and punctuation only.")
    if undrawable(s):        # (not quoted: it would be drawn as a box here too)
        return _("Emoji and some signs show as empty boxes: leave them out.")
    return None


def undrawable(text: str) -> str:
    """The characters of ``text`` the game's letters have no drawing for (emoji, most scripts
    beyond Latin, Greek and Cyrillic), in order, each once; "" when every one can be drawn."""
    f = fonts.font(20)

    def ink(ch: str) -> tuple:
        img = f.render(ch, False, (0, 0, 0))
        return img.get_size(), pygame.image.tobytes(img, "RGBA")
    box = ink("\U000F0000")        # a private-use sign no font draws: the font's empty box
    out = ""
    for ch in text:
        if ch not in out and not ch.isspace() and (ch in "\ufe0f\u200d" or ink(ch) == box):
            out += ch
    return out
