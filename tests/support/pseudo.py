"""A pseudo-language that marks every translated word, to find words left in English.

Its catalogue says every message of the code with each letter turned into a look-alike that is
not ASCII ("Coin" becomes "Çóíñ"), placeholders (``{n}``) left as they are. Under it, a word
drawn or printed in plain ASCII letters was never translated (player names, chat and numbers
aside): :func:`unmarked` lists them.

``python -m support.pseudo ARGS`` (with ``tests`` on the path) runs the text client under it.
"""
from __future__ import annotations

import gettext
import re
import sys

LOWER = "áƀçďéƒğĥíĵķĺɱñóƥʠŕšťúʋŵẋýž"
UPPER = "ÁƁÇĎÉƑĞĤÍĴĶĹṀÑÓƤǪŔŠŤÚƲŴẌÝŽ"
_TABLE = str.maketrans("abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ", LOWER + UPPER)
_FIELD = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z])")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0250-\u02af]+")


def mark(message: str) -> str:
    """``message`` in the pseudo-language: its letters turned, its placeholders kept.

    >>> mark("{n} Coins left")
    '{n} Çóíñš ĺéƒť'
    """
    return "".join(part if _FIELD.fullmatch(part) else part.translate(_TABLE) for part in _FIELD.split(message))


class Pseudo(gettext.NullTranslations):
    """The pseudo-language's catalogue: every message marked."""

    def gettext(self, message: str) -> str:
        return mark(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return mark(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return mark(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return mark(singular if n == 1 else plural)


def install() -> None:
    """Speak the pseudo-language from now on, whatever language is asked for later (Settings,
    ``--lang``, the system's)."""
    from game import i18n
    i18n.translations = lambda code: Pseudo()            # type: ignore[assignment]
    i18n.choose = lambda wanted: "it"                    # type: ignore[assignment]
    i18n._state.update(code="en", catalogue=gettext.NullTranslations())
    i18n.use("it")


def use_pseudo_language(monkeypatch) -> None:
    """:func:`install` for one test (``monkeypatch`` puts everything back after it)."""
    from game import i18n
    monkeypatch.setattr(i18n, "translations", lambda code: Pseudo())
    monkeypatch.setattr(i18n, "choose", lambda wanted: "it")
    monkeypatch.setattr(i18n, "_state", {"code": "en", "catalogue": gettext.NullTranslations()})
    i18n.use("it")


def unmarked(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The words of ``text`` in plain ASCII letters (never translated), but ``allowed`` ones
    (player names, ...).

    >>> unmarked(mark("Your turn") + ", Ada: 3 Coins", {"Ada"})
    ['Coins']
    """
    return [w for w in _WORD.findall(text) if w.isascii() and w not in allowed]


if __name__ == "__main__":       # the text client under the pseudo-language
    install()
    from game.text.terminal import main
    sys.exit(main(sys.argv[1:]))
