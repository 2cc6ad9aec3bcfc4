"""The seats this computer keeps at servers, for every front end.

A seat in a game on a server (a friend's table, or a public server) is remembered while the game
runs (by :class:`~game.match.RemoteMatch`, beside its token), so that the player can take it back
after closing the game, a crash or a lost connection. Every one of them is offered
(:func:`kept_seats`: the title lists them all, newest first), not only the newest.

The server gives a kept seat back to whoever asks at that address with its nickname and token,
whatever they asked for (the Quick game, a table, a new table): :func:`seat_question` says so
before it happens and lets the player choose another name instead; :func:`why_seated` says, once
seated, why the player sits where they do.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from game.i18n import _, ngettext
from game.match.seats import SEATS_FILE, UNFINISHED_FILE, forget_unfinished, unfinished_games

from ..address import hostport
from ..words import NICKNAME_MAX, joined
from .questions import Answer, Question

__all__ = ["KeptSeat", "LOOPBACK", "another_nickname", "ask_before_seating", "asked_words", "choose_seat_question",
           "forget_seat", "gone_words", "kept_seat_at", "kept_seats", "seat_question", "seats_file", "title_entry",
           "why_seated"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def seats_file(data_dir: Path) -> Path:
    """Where the seat tokens are kept in ``data_dir``."""
    return Path(data_dir) / SEATS_FILE


@dataclass(frozen=True)
class KeptSeat:
    """A seat at a game on a server that has not ended (as remembered when it was last seen)."""

    key: str                  # "host:port/nickname", the seat token's key
    host: str
    port: int
    nickname: str
    players: tuple[str, ...] = ()
    at: float = 0.0           # when it was last remembered (newest first)
    host_name: str = ""       # the host's name and the table's, as the network's list said ("": not known)
    table_name: str = ""

    @classmethod
    def from_record(cls, key: str, record: dict[str, Any]) -> "KeptSeat":
        """The seat of one record of the unfinished games (one kept before the host's name was, too)."""
        return cls(key, record["host"], record["port"], record["nickname"],
                   tuple(str(p) for p in record.get("players") or ()), float(record.get("at") or 0),
                   str(record.get("host_name") or ""), str(record.get("table_name") or ""))

    @property
    def where(self) -> str:
        return hostport(self.host, self.port)

    @property
    def others(self) -> list[str]:
        return [n for n in self.players if n != self.nickname]

    @property
    def label(self) -> str:
        """The entry that takes the player back ("Return to your game at 10.0.0.5:51015")."""
        return _("Return to your game at {where}").format(where=self.where)

    @property
    def detail(self) -> str:
        """Whose seat it is and who else plays ("Back to your seat as Ada, with Bea")."""
        others = self.others
        if others:
            return _("Back to your seat as {name}, with {others}").format(name=self.nickname, others=joined(others))
        return _("Back to your seat as {name}").format(name=self.nickname)

    @property
    def offer(self) -> str:
        """The entry of a list of choices ("Return to your game at 10.0.0.5:51015, as Ada, with Bea")."""
        others = self.others
        if others:
            return _("Return to your game at {where}, as {name}, with {others}").format(
                where=self.where, name=self.nickname, others=joined(others))
        return _("Return to your game at {where}, as {name}").format(where=self.where, name=self.nickname)

    @property
    def line(self) -> str:
        """The seat in one line of a list ("Your game at 10.0.0.5:51015, as Ada, with Bea")."""
        others = self.others
        if others:
            return _("Your game at {where}, as {name}, with {others}").format(
                where=self.where, name=self.nickname, others=joined(others))
        return _("Your game at {where}, as {name}").format(where=self.where, name=self.nickname)


def kept_seats(data_dir: Path, hosted_port: int | None = None) -> list[KeptSeat]:
    """Every seat kept at a server in ``data_dir``, newest first, but the game this computer hosts
    now on ``hosted_port`` (the title offers that one in its own words)."""
    out = []
    for key, record in unfinished_games(Path(data_dir) / UNFINISHED_FILE):
        seat = KeptSeat.from_record(key, record)
        if hosted_port is not None and seat.port == hosted_port and seat.host in LOOPBACK:
            continue
        out.append(seat)
    return out


def kept_seat_at(data_dir: Path, host: str, port: int, nickname: str) -> KeptSeat | None:
    """The seat kept at ``host:port`` under ``nickname``, if any (a seat asked there with that name
    is given this one back)."""
    host = host.removeprefix("tls://")
    return next((s for s in kept_seats(data_dir) if (s.host, s.port, s.nickname) == (host, port, nickname)), None)


def forget_seat(data_dir: Path, seat: KeptSeat | str) -> None:
    """Stop offering a seat (its game has ended, or its server no longer has it)."""
    forget_unfinished(Path(data_dir) / UNFINISHED_FILE, seat if isinstance(seat, str) else seat.key)


def title_entry(seats: list[KeptSeat]) -> tuple[str, str] | None:
    """The title's entry for the kept seats, as (label, what it does): the seat itself when there
    is one, else an entry that lists them (:func:`choose_seat_question`); None when there is none."""
    if not seats:
        return None
    if len(seats) == 1:
        return seats[0].label, seats[0].detail
    n = len(seats)
    return (_("Return to a game on a server ({n})").format(n=n),
            ngettext("{n} game on a server keeps your seat: choose the one to go back to",
                     "{n} games on servers keep your seat: choose the one to go back to", n).format(n=n))


def choose_seat_question(seats: list[KeptSeat]) -> Question:
    """Which kept seat to go back to, when there are several: one answer per seat (its
    :attr:`KeptSeat.key`), newest first, then ``cancel``."""
    return Question(_("Your games on servers"),
                    _("Each server keeps your seat until its game ends. Choose the game to go back to."),
                    (*(Answer(s.key, s.line) for s in seats), Answer("cancel", _("Cancel"))))


def gone_words(seat: KeptSeat) -> str:
    """What the player is told when a kept seat's game is not at its server any more."""
    return _("Your game at {where} is not running there any more: it has ended, or the server no "
             "longer has it.").format(where=seat.where)


def another_nickname(nick: str) -> str:
    """A nickname like ``nick`` for when it is taken: "Player" gives "Player 2", "Bea 2" gives
    "Bea 3" (within :data:`NICKNAME_MAX`).

    >>> another_nickname("Ada"), another_nickname("Bea 2")
    ('Ada 2', 'Bea 3')
    """
    m = re.fullmatch(r"(.*?)\s*(\d+)", nick.strip())
    stem, n = (m.group(1), int(m.group(2)) + 1) if m and m.group(1) else (nick.strip(), 2)
    tail = f" {n}"
    return stem[:NICKNAME_MAX - len(tail)].rstrip() + tail


def seat_question(seat: KeptSeat, asked: str) -> Question:
    """What to ask before a seat is asked where ``seat`` is kept: the server would take the player
    back to that game instead of ``asked`` ("the Quick game", "a new table, “Ada's table”").
    Answers: ``return`` (back to that game), ``other`` (ask as :func:`another_nickname`, the kept
    seat staying as it is), ``cancel``."""
    others = seat.others
    other = another_nickname(seat.nickname)
    game = (_("You have an unfinished game at {where} as {name}, with {others}.").format(
        where=seat.where, name=seat.nickname, others=joined(others)) if others else
        _("You have an unfinished game at {where} as {name}.").format(where=seat.where, name=seat.nickname))
    return Question(
        _("You have a game at this server"),
        game + " " + _("The server keeps your seat until it ends, so asking for {asked} as {name} takes you back "
                       "to that game. Go back to it, or ask for {asked} as {other} (your seat in the other game "
                       "stays kept).").format(asked=asked, name=seat.nickname, other=other),
        (Answer("return", _("Back to that game")), Answer("other", _("Play as {name}").format(name=other)),
         Answer("cancel", _("Cancel"))),
        default="return")


def ask_before_seating(data_dir: Path, host: str, port: int, nickname: str, asked: str,
                       ask: Callable[[Question, Callable[[str], None]], None],
                       seat: Callable[[str, bool], None], cancelled: Callable[[], None] | None = None) -> None:
    """Before a seat is asked at ``host:port`` as ``nickname`` (``asked``: what is asked for, in
    words, see :func:`asked_words`), the one way every front end does it: where this computer
    keeps a seat there under that name (the server would give that one back, whatever is
    asked), :func:`seat_question` is put first through the front end's ``ask(question, then)``.
    Its answers call ``seat(nickname, chose_kept)``: back to that game ``seat(nickname, True)``,
    another name ``seat(another_nickname(nickname), False)``; cancel calls ``cancelled()`` (and
    asks nothing of the server). With no seat kept there, ``seat(nickname, False)`` at once."""
    kept = kept_seat_at(data_dir, host, port, nickname)
    if kept is None:
        seat(nickname, False)
        return

    def then(key: str) -> None:
        if key == "return":
            seat(kept.nickname, True)
        elif key == "other":
            seat(another_nickname(kept.nickname), False)
        elif cancelled is not None:
            cancelled()
    ask(seat_question(kept, asked), then)


def asked_words(name: str | None = None, code: str | None = None, create: str | None = None, **_rest: Any) -> str:
    """What a seat asked for is, in words, from :func:`game.client.tables.join`'s arguments: "a
    seat at “Ada's table”", "the table of invite code K7QF-M2XD", "the new table “Bea's game”" or
    "the Quick game" (the waiting list)."""
    # TRANSLATORS: these four are said inside "asking for {asked} as Ada takes you back to that game"
    if create is not None:
        return _("the new table \u201c{name}\u201d").format(name=create)
    if code is not None:
        return _("the table of invite code {code}").format(code=code.strip().upper())
    if name is not None:
        return _("a seat at \u201c{name}\u201d").format(name=name)
    return _("the Quick game")


def why_seated(asked: str | None, token_sent: bool, has_game: bool, where: str, chose: bool = False) -> str | None:
    """Why the player sits where they do, once the server seated them, when it is not what they
    asked for and they did not choose it: ``asked`` (what they asked for; None: their kept seat),
    ``token_sent`` (a seat token kept here was sent: the server gives its seat back, whatever is
    asked), ``has_game`` (the server put them straight into a game under way), ``chose`` (the
    player chose "Back to that game" when asked: nothing to explain)."""
    if asked is not None and token_sent and has_game and not chose:
        return _("You are back at your unfinished game at {where}: the server keeps your seat until it ends, "
                 "so it gave you that one rather than {asked}.").format(where=where, asked=asked)
    return None
