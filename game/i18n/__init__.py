"""Every word a player reads, in the player's language: GNU gettext message catalogues.

The game's words are written in English in the code and marked for translation::

    from game.i18n import _, ngettext, npgettext, pgettext

    _("Your turn.")
    ngettext("{n} card", "{n} cards", n).format(n=n)
    pgettext("market", "Take")           # one English word, two Italian ones: a context tells them apart

Each call looks the words up in the current language's catalogue *when it is made*, so switching
language (:func:`use`) changes every word said afterwards, without a restart. A word kept in a
constant at import time would stay in the language of that moment: mark it with :func:`N_` (it
stays English) and say it with ``_(CONSTANT)`` where it is shown, or make it a function.

The catalogues are ``game/locale/<code>/LC_MESSAGES/mor.po`` (see ``docs/translating.md``), compiled
to ``mor.mo`` by ``make`` (:mod:`game.i18n.catalogues`). English is the language of the code and
needs no catalogue. Pure Python, below everything else that speaks to a player.
"""
from __future__ import annotations

import gettext as _gettext
import logging

from .catalogues import translations
from .system import system_language

__all__ = ["LANGUAGES", "SOURCE", "N_", "NN_", "NP_", "_", "choose", "current", "ngettext", "npgettext", "pgettext",
           "system_language", "use"]

log = logging.getLogger("mor.i18n")

SOURCE = "en"
"""The language the code's words are written in: it needs no catalogue."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
}
"""Every language the game speaks, by code, each named in itself (Settings lists them so). A new
language is a catalogue ``game/locale/<code>/LC_MESSAGES/mor.po`` and one line here."""

_state: dict[str, object] = {"code": SOURCE, "catalogue": _gettext.NullTranslations()}


def choose(wanted: str | None) -> str:
    """The language to speak for a wish: ``wanted`` if the game speaks it ("it", "it_IT.UTF-8" and
    "it-IT" all say Italian), else the system's (:func:`system_language`), else English."""
    for code in (wanted, system_language()):
        base = (code or "").replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
        if base in LANGUAGES:
            return base
    return SOURCE


def use(wanted: str | None = None) -> str:
    """Speak ``wanted`` from now on (None or "": the system's language; see :func:`choose`), and
    return the code now spoken. A catalogue that cannot be read leaves English, with a warning in
    the log."""
    code = choose(wanted)
    if code != _state["code"]:
        _state["catalogue"] = translations(code) if code != SOURCE else _gettext.NullTranslations()
        _state["code"] = code
    return code


def current() -> str:
    """The code of the language spoken now ("en", "it")."""
    return str(_state["code"])


def _(message: str) -> str:
    """``message`` in the current language."""
    return _state["catalogue"].gettext(message)  # type: ignore[attr-defined, no-any-return]


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language (Italian and
    English have two forms; other languages have their own count, from the catalogue's header)."""
    return _state["catalogue"].ngettext(singular, plural, n)  # type: ignore[attr-defined, no-any-return]


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as it is said in ``context``."""
    return _state["catalogue"].pgettext(context, message)  # type: ignore[attr-defined, no-any-return]


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` in a ``context``."""
    return _state["catalogue"].npgettext(context, singular, plural, n)  # type: ignore[attr-defined, no-any-return]


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (it is said later with ``_``)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark the two forms of words where a number meets a noun for the catalogue, without
    translating them now; said later with ``ngettext(*marked, n)``."""
    return singular, plural


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark ``message`` in ``context`` for the catalogue; said later with ``pgettext(*marked)``."""
    return context, message
