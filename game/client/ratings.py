"""A server's leaderboard, for every front end (pure Python, no pygame): the best players and the
player's own place, asked like the list of tables (:func:`leaderboard`; blocking: call it off the
frame loop). The player's key goes with the question over TLS only.

Words are in :mod:`.rating_words`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.match.remote import KNOWN_SERVERS_FILE
from game.netcode import protocol as P
from game.netcode import ratings_wire as W
from game.netcode.player_key import KEY_FILE, player_key
from game.settings import data_dir

from .address import hostport
from game.i18n import _, ngettext

from .rating_words import NOBODY_RATED, NOT_OURS, number, standing_words, told_apart
from .security import Link
from .server_words import server_said
from .tables import TLS_SCHEME, connect, hang_up

__all__ = ["Leaderboard", "NoRatings", "Rated", "leaderboard"]


class NoRatings(OSError):
    """The server answered, but with no leaderboard (it is not ours, or too old), or refused it
    for now (asked too often): the message says which, in words."""


@dataclass(frozen=True)
class Rated:
    """One line of a leaderboard."""

    place: int
    name: str
    rating: int
    games: int

    @property
    def line(self) -> str:
        """E.g. "1. Ada: 12 (8 games)"."""
        return ngettext("{place}. {name}: {rating} ({n} game)", "{place}. {name}: {rating} ({n} games)",
                        self.games).format(place=self.place, name=self.name, rating=number(self.rating), n=self.games)


@dataclass(frozen=True)
class Leaderboard:
    """The best players of a server (``UpdateRatings``) and the player's standing there."""

    rows: tuple[Rated, ...]
    total: int                    # players with a rated game on that server
    you: dict[str, Any] | None    # the player's place, rating, games, soloBest (None: unrated here)
    link: Link | None = None

    @property
    def standing(self) -> str:
        """The player's own line, in words."""
        return standing_words(self.you)

    @property
    def empty_words(self) -> str:
        return _(NOBODY_RATED)

    @property
    def mine(self) -> int | None:
        """The player's place, when it is on the board shown."""
        place = (self.you or {}).get("place")
        return place if isinstance(place, int) and place <= len(self.rows) else None

    @classmethod
    def from_message(cls, m: dict[str, Any], link: Link | None = None) -> "Leaderboard":
        rows, numbers = [], []
        for i, r in enumerate(m.get("top") or ()):
            try:
                rows.append(Rated(i + 1, str(r["name"]), int(r["rating"]), int(r.get("games") or 0)))
                numbers.append(r["player"] if type(r.get("player")) is int else None)
            except (KeyError, TypeError, ValueError):
                continue
        names = told_apart([(row.name, n) for row, n in zip(rows, numbers)])   # two "Ann"s: "Ann #3", "Ann #9"
        rows = [replace(row, name=name) for row, name in zip(rows, names)]
        you = m.get("you") if isinstance(m.get("you"), dict) else None
        return cls(tuple(rows), int(m.get("total") or 0), you, link)


def leaderboard(host: str, port: int, timeout: float = 5.0, *, tls_port: int | None = None,
                folder: Path | None = None) -> Leaderboard:
    """The leaderboard of the server at ``host:port``, asked over TLS where it speaks it (as the
    tables are: :func:`~game.client.tables.connect`); the player's key (in ``folder``, by default
    the player's data folder) goes with it over TLS only. Blocks up to about ``timeout`` seconds.

    :raises OSError: the server cannot be reached (:class:`NoRatings`: it answered without one).
    """
    folder = folder if folder is not None else data_dir()
    where = hostport(host.removeprefix(TLS_SCHEME), port)
    conn, link, _unused = connect(host, port, timeout, tls_port=tls_port, known_file=folder / KNOWN_SERVERS_FILE)
    try:
        conn.send(W.ReqRatings(player_key(folder / KEY_FILE) if link.secure else None).to_dict())
        m = conn.wait_for(lambda m: m.get("type") in (W.UPDATE_RATINGS, W.ERR_RATINGS, P.ERR_PROTOCOL,
                                                      "ConnectionLost"), timeout=timeout)
    except TimeoutError:
        raise NoRatings(_("The server at {where} did not answer with its leaderboard.").format(where=where)) from None
    finally:
        hang_up(conn)
    if m.get("type") == W.ERR_RATINGS:
        raise NoRatings(server_said(m, m.get("msg") or _("The server did not answer with its leaderboard.")))
    if m.get("type") != W.UPDATE_RATINGS:
        raise NoRatings(_(NOT_OURS))
    return Leaderboard.from_message(m, link)
