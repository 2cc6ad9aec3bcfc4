"""What a server says of a table's watchers (issue 31), for the players at the table and for its
watchers: how many watch, whether this player hides their chat, and, to a watcher, the table it
watches (who sits, whether its game has started, whether it closed) or why it may not.

Pure Python, no import of the session: :class:`~game.client.session.GameSession` keeps one
:class:`WatchNews` and hands it these messages (its ``ASIDE`` table), and adds a watcher's chat
line to the log in the words of :mod:`.watch_words`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.i18n import _

from .server_words import server_said
from .watch_words import REFUSED_WATCH, quick_game_name

Msg = dict[str, Any]

UPDATE_WATCHING = "UpdateWatching"
UPDATE_WATCHERS = "UpdateWatchers"
UPDATE_WATCHER_CHAT = "UpdateWatcherChat"
ERR_WATCH = "ErrWatch"
TYPES = frozenset({UPDATE_WATCHING, UPDATE_WATCHERS, UPDATE_WATCHER_CHAT, ERR_WATCH})
"""The watchers' messages a session takes (the wire is :mod:`game.netcode.watch_wire`'s)."""


@dataclass
class WatchNews:
    """The watchers of the table, as the server last said."""

    count: int = 0                    # how many watch the table
    hidden: bool = False              # this player hides the watchers' chat (the server confirmed it)
    table: str = ""                   # a watcher's: the table it watches ("" until the server says)
    players: tuple[str, ...] = ()     # who sits there (a table still waiting: those seated so far)
    seats: int = 0                    # its seats
    started: bool = False             # its game has started
    closed: bool = False              # it closed without a game (its last player left)
    refused: str | None = None        # why the server would not let this connection watch, in words

    def take(self, m: Msg) -> None:
        """One of the :data:`TYPES` (a chat line is the session's to log)."""
        t = m.get("type")
        if t == UPDATE_WATCHERS:
            self.count = int(m.get("count") or 0)
            self.hidden = bool(m.get("hidden"))
        elif t == UPDATE_WATCHING:
            quick = m.get("quick")        # a Quick game: named in the player's words
            self.table = quick_game_name(quick) if type(quick) is int else str(m.get("table") or "")
            self.players = tuple(str(p) for p in m.get("players") or ())
            self.seats = int(m.get("playersCount") or 0)
            self.started = bool(m.get("started"))
            self.closed = bool(m.get("closed"))
            self.count = int(m.get("watchers") or self.count)
            self.refused = None
        elif t == ERR_WATCH:
            self.refused = server_said(m, m.get("msg") or _(REFUSED_WATCH))
