"""Watching a table (our extension): the messages, their fields and their refusals.

A watcher is a connection that does not play: it asks to watch a table by name (a public one)
or by invite code (any), and is sent what every player sees of the others, never a hand nor a
deck (see :mod:`game.netcode.watchers`). Reference clients never send nor receive any of these.

Client to server
    * ``ReqWatch {nickname, name | code}``: watch the table called ``name`` (public; a Quick game
      is called "Quick game" and its number) or of invite ``code``, as ``nickname`` (the name its chat lines carry). Answered ``UpdateWatching`` or
      ``ErrWatch``. A connection watches one table at a time (a second ``ReqWatch`` moves it);
      ``ReqQuit`` stops watching (``ResQuit``). ``ReqChat`` from a watcher is watchers' chat.
    * ``ReqWatchList {from}``: a page of the tables being played that anyone may watch
      (``UpdateWatchList``), any time.
    * ``ReqHideWatchers {hide}``: a player (at a table, or seated) hides the watchers' chat of
      their game, or shows it again; answered ``UpdateWatchers``.

Server to client
    * ``UpdateWatching {table, private, players, playersCount, bots, started, watchers}`` (and
      ``closed: true`` once an open table closes without a game): where the watcher stands, again
      whenever the seats of a table still waiting change. A started game follows as a player's
      would after a return: ``UpdateGame`` (the public view), then ``UpdateHistory`` (the game
      so far, as every player saw it), then its updates as they come.
    * ``UpdateWatchers {count, hidden}``: how many watch, to the players of the table (our
      clients) and to its watchers, at most once a second while it changes; ``hidden``: whether
      this player hides the watchers' chat.
    * ``UpdateWatcherChat {player, text}``: a watcher's line, to the table's watchers and to the
      players who do not hide it.
    * ``UpdateWatchList {tables: [{name, players, watchers, quick?, botLevels?}], from, total}``
      (``botLevels``: {bot nickname: level} of a game with bots, as in its ``UpdateGame``).
    * ``ErrWatch {reason, msg}``: nothing changed (see the reasons below).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from .framing import ProtocolError
from .protocol import INVALID_TYPES
from .server_words import with_say

REQ_WATCH = "ReqWatch"
REQ_WATCH_LIST = "ReqWatchList"
REQ_HIDE_WATCHERS = "ReqHideWatchers"
UPDATE_WATCHING = "UpdateWatching"
UPDATE_WATCHERS = "UpdateWatchers"
UPDATE_WATCHER_CHAT = "UpdateWatcherChat"
UPDATE_WATCH_LIST = "UpdateWatchList"
ERR_WATCH = "ErrWatch"

CLIENT_TYPES = frozenset({REQ_WATCH, REQ_WATCH_LIST, REQ_HIDE_WATCHERS})
SERVER_TYPES = frozenset({UPDATE_WATCHING, UPDATE_WATCHERS, UPDATE_WATCHER_CHAT, UPDATE_WATCH_LIST, ERR_WATCH})

WATCH_LIST_PAGE = 50
"""Tables in one ``UpdateWatchList`` at most."""

# ErrWatch reasons
NO_SUCH = "NO_SUCH_TABLE"     # no table of that name or code (or its game is over)
PRIVATE = "PRIVATE"           # a private table, asked by name: its invite code is needed
FULL = "FULL"                 # the table has as many watchers as it takes
BUSY = "BUSY"                 # the server has as many watchers as it takes
TOO_FAST = "TOO_FAST"         # too many watch requests from this address lately
BAD = "BAD_REQUEST"           # a bad nickname, or neither name nor code
PLAYING = "PLAYING"           # this connection plays (waits at a table, or is seated)
NOT_PLAYING = "NOT_PLAYING"   # ReqHideWatchers from a connection that plays nowhere
REASONS = frozenset({NO_SUCH, PRIVATE, FULL, BUSY, TOO_FAST, BAD, PLAYING, NOT_PLAYING})


def _bad(detail: str) -> ProtocolError:
    """A request of this module whose fields are wrong: ``ErrProtocol "Invalid attribute types."``."""
    return ProtocolError(INVALID_TYPES, detail)


@dataclass(frozen=True, slots=True)
class ReqWatch:
    TYPE: ClassVar[str] = REQ_WATCH
    nickname: Any = None
    name: str | None = None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nickname": self.nickname}
        if self.name is not None:
            out["name"] = self.name
        if self.code is not None:
            out["code"] = self.code
        out["type"] = self.TYPE
        return out

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqWatch":
        name, code = d.get("name"), d.get("code")
        if (name is None) == (code is None) or not isinstance(name if code is None else code, str):
            raise _bad("a table's name or its invite code (one of them, a string)")
        return cls(d.get("nickname"), name, code)


@dataclass(frozen=True, slots=True)
class ReqWatchList:
    TYPE: ClassVar[str] = REQ_WATCH_LIST
    start: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.start, "type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqWatchList":
        start = d.get("from", 0)
        if type(start) is not int or not 0 <= start < 2 ** 53:
            raise _bad("from: a count of tables, 0 or more")
        return cls(start)


@dataclass(frozen=True, slots=True)
class ReqHideWatchers:
    TYPE: ClassVar[str] = REQ_HIDE_WATCHERS
    hide: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"hide": self.hide, "type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqHideWatchers":
        hide = d.get("hide", True)
        if type(hide) is not bool:
            raise _bad("hide: true or false")
        return cls(hide)


PARSERS = {REQ_WATCH: ReqWatch.parse, REQ_WATCH_LIST: ReqWatchList.parse, REQ_HIDE_WATCHERS: ReqHideWatchers.parse}
"""Each client type of this module -> what reads it (``ProtocolError`` when it cannot)."""


def parse(d: Mapping[str, Any]) -> "ReqWatch | ReqWatchList | ReqHideWatchers":
    """One of this module's requests, read from a decoded line whose type is in :data:`CLIENT_TYPES`.

    :raises ProtocolError: a field is missing or wrong (``Invalid attribute types.``).
    """
    return PARSERS[d["type"]](d)


def update_watching(table: str, private: bool, players: list[str], count: int, bots: list[str], started: bool,
                    watchers: int, closed: bool = False, quick: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"table": table, "private": private, "players": players, "playersCount": count,
                           "bots": bots, "started": started, "watchers": watchers}
    if closed:
        out["closed"] = True
    if quick is not None:    # a Quick game, named by the server: its number, for a client to name it in its words
        out["quick"] = quick
    out["type"] = UPDATE_WATCHING
    return out


def update_watchers(count: int, hidden: bool = False) -> dict[str, Any]:
    return {"count": count, "hidden": hidden, "type": UPDATE_WATCHERS}


def update_watcher_chat(player: str, text: str) -> dict[str, Any]:
    return {"player": player, "text": text, "type": UPDATE_WATCHER_CHAT}


def update_watch_list(tables: list[dict[str, Any]], start: int, total: int) -> dict[str, Any]:
    return {"tables": tables, "from": start, "total": total, "type": UPDATE_WATCH_LIST}


def err_watch(reason: str, msg: str) -> dict[str, Any]:
    return with_say({"reason": reason, "msg": msg, "type": ERR_WATCH}, msg)
