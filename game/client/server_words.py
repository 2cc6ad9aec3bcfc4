"""The server's words in the player's language: a refusal or a limit the server sends as a code
with its arguments (the ``say`` extension field, :mod:`game.netcode.server_words`) is said from
the catalogue; words without a code, or with one this client does not know (a newer server), are
said as the server wrote them (in English)."""
from __future__ import annotations

from typing import Any, Mapping

from game.i18n import _
from game.netcode.server_words import SAY, WORDS

__all__ = ["server_said"]


def server_said(m: Mapping[str, Any], text: object) -> str:
    """What message ``m`` of the server says, in the player's language: its ``say`` code and
    arguments when it has them and this client knows the code, else ``text`` (the message's
    English words, e.g. ``m["msg"]``).

    >>> server_said({"say": {"code": "table.no_such"}}, "No such table.")
    'No such table.'
    >>> server_said({"say": {"code": "a.newer.code", "args": {}}}, "Words of a newer server.")
    'Words of a newer server.'
    """
    say = m.get(SAY)
    if isinstance(say, dict) and isinstance(say.get("code"), str) and say["code"] in WORDS:
        args = say.get("args") if isinstance(say.get("args"), dict) else {}
        try:
            return _(WORDS[say["code"]]).format(**{str(k): v for k, v in args.items()})
        except (KeyError, IndexError, ValueError):   # arguments that do not fit: the words as sent
            pass
    return str(text)
