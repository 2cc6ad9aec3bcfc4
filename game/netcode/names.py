"""What a name may be, and when two names are the same to the players who read them.

A nickname is shown to people, so "hon", "HON" and "hоn" (with a Cyrillic о) are one name to
them, and "Server" is the server's own voice (its notices come as chat from that name). The
server compares names by their :func:`fold`: compatibility-normalised (NFKC), case-folded,
each letter that looks like a Latin one taken as that letter (Unicode's confusables: the
little of them :mod:`.lookalikes` keeps, made from ``confusable_homoglyphs`` by
``tools/latin_lookalikes.py``), accents left out. :class:`NickBook` (the server's nicknames in
use) keeps that index beside the names, so a join costs one lookup however many players there are.

A nickname is a display name, unique per table (issue 31): a player known by key
(:mod:`.ratings`) may be called "Ann" at one table while another keyed "Ann" plays at another.
The server's books of connections and seats are kept by :func:`handle` instead: the nickname
itself for a player without a key (a reference client: the nickname is who they are, unique on
the server among those), the nickname and the player's number for a player with one. Only the
people of one table (or of the Quick game's waiting list) must read as different names.

A base character may carry at most :data:`MAX_MARKS` combining marks: one letter with 199 of
them ("Zalgo" text) draws over the lines around it. A nickname with more is refused; a chat
line keeps the first ones.
"""
from __future__ import annotations

import unicodedata
from typing import Any

from .lookalikes import BY_LETTER

MAX_MARKS = 3
"""Combining marks one character may carry (Vietnamese needs two; more is decoration)."""
RESERVED = ("Server",)
"""Names nobody may take: the server's voice (``room.SERVER_VOICE``)."""


_LATIN = {ord(ch): letter for letter, chars in BY_LETTER.items() for ch in chars}
"""Each character that reads as a Latin letter -> that letter (``str.translate``'s table)."""


def fold(name: str) -> str:
    """The form in which two names are the same to a reader (for comparing only, never shown)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = text.translate(_LATIN)
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return "".join(text.split()).casefold()


_RESERVED = frozenset(fold(n) for n in RESERVED)


def reserved(name: str) -> bool:
    """Whether ``name`` reads as one nobody may take (the server's own voice)."""
    return fold(name) in _RESERVED


def marks_run(text: str) -> int:
    """The most combining marks one character of ``text`` carries."""
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) else 0
        most = max(most, run)
    return most


def cap_marks(text: str, limit: int = MAX_MARKS) -> str:
    """``text`` with at most ``limit`` combining marks on each character (the first ones kept)."""
    if marks_run(text) <= limit:
        return text
    out, run = [], 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) else 0
        if run <= limit:
            out.append(ch)
    return "".join(out)


HANDLE_MARK = "\x00"
"""What parts a keyed player's nickname from their number in a :func:`handle` (no nickname holds it)."""


def handle(nick: str, player: int | None) -> str:
    """The name the server's books keep a player under (see the module's docstring): ``nick``
    for a player without a key, else ``nick`` and their player number, apart by a character no
    nickname may hold (so no keyless name ever reads as a keyed player's handle).

    >>> handle("Ann", None), handle("Ann", 7)
    ('Ann', 'Ann\\x007')
    """
    return nick if player is None else f"{nick}{HANDLE_MARK}{player}"


def shown(handle_: str) -> str:
    """The nickname a :func:`handle` was made of."""
    return handle_.split(HANDLE_MARK, 1)[0]


class NickBook(dict):
    """The nicknames in use (nickname -> its connection), with the index of their :func:`fold`:
    :meth:`like` finds one a new name would be read as. Only ``[]=``, ``del`` and ``pop`` change it."""

    def __init__(self) -> None:
        super().__init__()
        self._folds: dict[str, str] = {}

    def __setitem__(self, nick: str, value: Any) -> None:
        if nick not in self:
            self._folds[fold(nick)] = nick
        super().__setitem__(nick, value)

    def __delitem__(self, nick: str) -> None:
        super().__delitem__(nick)
        self._forget(nick)

    def pop(self, nick: str, *default: Any) -> Any:
        had = nick in self
        value = super().pop(nick, *default)
        if had:
            self._forget(nick)
        return value

    def _forget(self, nick: str) -> None:
        key = fold(nick)
        if self._folds.get(key) == nick:
            del self._folds[key]

    def like(self, nick: str) -> str | None:
        """The nickname in use that ``nick`` would be read as (itself included), or None."""
        return self._folds.get(fold(nick))

    def setdefault(self, *a: Any) -> Any:   # (not used: would bypass the index)
        raise NotImplementedError

    def update(self, *a: Any, **k: Any) -> None:
        raise NotImplementedError
