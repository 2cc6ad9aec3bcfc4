"""Player keys and ratings on the wire (our extensions; a reference client never sends nor sees them).

* ``ReqJoin {…, key}``: the player's key (see :func:`make_key`), sent by our client over TLS only
  (the server takes a key from no other connection: :data:`KEY_NOT_TLS`). The join goes on as
  without it; the joiner then gets ``UpdatePlayer {rating, games, place, soloBest}`` (their own
  rating: the leaderboard's ordinal rounded, see :mod:`.ratings`), or ``ErrKey {reason, msg}``
  when the key is not taken (they play unrated).
* ``ReqRatings {key}`` (any time, also before ``ReqJoin``; ``key`` optional, over TLS only):
  ``UpdateRatings {top: [{name, rating, games, player}], total, you}``, the :data:`TOP` best and the
  asker's own line (``you``: ``{place, rating, games, soloBest}``, absent without a key), or
  ``ErrRatings {reason, msg}`` (:data:`RATINGS_TOO_FAST`).
* ``UpdateRatingChange {ratings: [{player, before, after}]}``: to our clients at a rated game's
  table as it ends (a solo game: ``[{player, soloBest, newBest}]``).
* ``UpdateTables``' rows gain ``seated: [{name, rating, player}]`` (``rating`` and ``player``
  absent: no key). ``player`` is the player's number on this server: a nickname is unique at a
  table only, so two keyed players called "Ann" at two tables (or on the leaderboard) are told
  apart by it.

>>> key = make_key()
>>> check_key(key) is None, check_key(key[:-1] + ("A" if key[-1] != "A" else "B")) is not None
(True, True)
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .framing import ProtocolError
from .protocol import INVALID_TYPES
from .server_words import Said, said, with_say

REQ_RATINGS = "ReqRatings"
UPDATE_RATINGS = "UpdateRatings"
ERR_RATINGS = "ErrRatings"
UPDATE_PLAYER = "UpdatePlayer"
ERR_KEY = "ErrKey"
UPDATE_RATING_CHANGE = "UpdateRatingChange"

KEY_MALFORMED = "MALFORMED"     # not a key (see check_key)
KEY_NOT_TLS = "NOT_TLS"         # a key is taken over TLS only
KEY_LIMIT = "LIMIT"             # too many new keys from this address lately
KEY_FULL = "FULL"               # the server keeps no more players, or cannot save one now
RATINGS_TOO_FAST = "TOO_FAST"   # leaderboards asked too often on this connection

TOP = 50
"""Players in a leaderboard."""

KEY_BODY = 43
"""Characters of a key's random part: ``secrets.token_urlsafe(32)`` (256 bits)."""
KEY_CHECK = 4
"""Characters of its check (hex of its SHA-256), so that a key mistyped or cut short is refused
in words before anything is sent."""
KEY_SEPARATOR = "."
_URLSAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _check_of(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()[:KEY_CHECK]


def make_key() -> str:
    """A new player key: 256 random bits and a short check, e.g. ``"pQ3…x_8.a41f"``."""
    body = secrets.token_urlsafe(32)
    return f"{body}{KEY_SEPARATOR}{_check_of(body)}"


def check_key(key: Any) -> Said | None:
    """Why ``key`` is not a player key (a sentence, in English, with its code: our client says it
    in its player's language), or None if it is one."""
    if type(key) is not str:
        return said("key.not_text")
    body, dot, check = key.rpartition(KEY_SEPARATOR)
    if not dot or len(body) != KEY_BODY or len(check) != KEY_CHECK or not set(body) <= _URLSAFE:
        return said("key.length", length=KEY_BODY + 1 + KEY_CHECK, body=KEY_BODY, check=KEY_CHECK)
    if _check_of(body) != check:
        return said("key.mistake")
    return None


@dataclass(frozen=True, slots=True)
class ReqRatings:
    """Ask for the leaderboard (our extension; also before ``ReqJoin``): the best players and,
    with ``key``, the asker's place. A client message as those of the protocol's parser
    (``TYPE``, ``parse``, ``to_dict``), which knows it by its type."""

    TYPE: ClassVar[str] = REQ_RATINGS
    key: str | None = field(default=None, repr=False)   # a secret, never in a log

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "type": self.TYPE} if self.key is not None else {"type": self.TYPE}

    @classmethod
    def parse(cls, d: Mapping[str, Any]) -> "ReqRatings":
        key = d.get("key")
        if key is not None and (type(key) is not str or len(key) > 128):
            raise ProtocolError(INVALID_TYPES, "key must be a player key")
        return cls(key)


def join_key(d: Mapping[str, Any]) -> str | None:
    """The ``key`` field of a ``ReqJoin`` (None when absent).

    :raises ProtocolError: not a short string."""
    key = d.get("key")
    if key is not None and (type(key) is not str or len(key) > 128):
        raise ProtocolError(INVALID_TYPES, "key must be a player key")
    return key


def err_key(reason: str, msg: str) -> dict[str, Any]:
    return with_say({"reason": reason, "msg": msg, "type": ERR_KEY}, msg)


def err_ratings(reason: str, msg: str) -> dict[str, Any]:
    return with_say({"reason": reason, "msg": msg, "type": ERR_RATINGS}, msg)


def update_player(rating: int, games: int, place: int | None, solo_best: int | None) -> dict[str, Any]:
    return {"rating": rating, "games": games, "place": place, "soloBest": solo_best, "type": UPDATE_PLAYER}
