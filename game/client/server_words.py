"""The server's words in the player's language: a refusal or a limit the server sends as a code
with its arguments (the ``say`` extension field, :mod:`game.netcode.server_words`) is said from
the catalogue; words without a code, or with one this client does not know (a newer server), are
said as the server wrote them (in English)."""
from __future__ import annotations

from typing import Any, Mapping

from game.i18n import _, ngettext, pgettext
from game.netcode import turn_wire as T
from game.netcode.server_words import SAY, SERVER_VOICE, WORDS, say_field

from .words import bot_level

__all__ = ["chat_said", "said_words", "server_said"]


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
        args = {str(k): v for k, v in say["args"].items()} if isinstance(say.get("args"), dict) else {}
        words = WORDS[say["code"]]
        try:
            if "level" in args:             # a bot's level: in this client's words
                args["level"] = bot_level(str(args["level"]))
            if isinstance(words, tuple):
                if type(args["n"]) is not int:
                    raise ValueError("n is not a number")
                return ngettext(words[0], words[1], args["n"]).format(**args)
            return _(words).format(**args)
        except (KeyError, IndexError, ValueError):   # arguments that do not fit: the words as sent
            pass
    return str(text)


_NOTICES = {T.STOOD_NOW: "turns.stood_now", T.STOOD: "turns.stood", T.GIVEN: "turns.given_to_bot"}
"""A turn-based table's ``UpdateChat.notice`` id -> the code of its words."""


def chat_said(m: Mapping[str, Any]) -> tuple[str, str]:
    """Who said a line at the table (``UpdateChat``) and what, in the player's language: a
    player's name and words as they are; the server's own notices (from ``Server``: a game that
    cannot be saved, the computer's turns at a turn-based table) and a bot's farewell in words of
    this client when it knows their code.

    >>> chat_said({"player": "Server", "text": "The server can save the game again: play on.",
    ...            "say": {"code": "save.again", "args": {}}})
    ('Server', 'The server can save the game again: play on.')
    >>> chat_said({"player": "Bea", "text": "ciao"})
    ('Bea', 'ciao')
    """
    who, text = str(m.get("player") or ""), str(m.get("text") or "")
    notice = m.get("notice")     # a turn-based table's notice: a server of ours sent it before say
    if SAY not in m and isinstance(notice, dict) and notice.get("id") in _NOTICES:
        args = {k: notice[k] for k in ("n", "level", "nick") if k in notice}
        m = {SAY: {"code": _NOTICES[notice["id"]], "args": args}}
    words = server_said(m, text)
    if who == SERVER_VOICE:
        # TRANSLATORS: the name the server's own notices are said under in the game's chat
        who = pgettext("chat", "Server")
    return who, words


def said_words(text: object) -> str:
    """Words of the server's vocabulary met outside a message (e.g. why a key pasted in is not
    one, :func:`game.netcode.ratings_wire.check_key`) in the player's language."""
    field = say_field(text)
    return server_said({SAY: field} if field is not None else {}, text)
