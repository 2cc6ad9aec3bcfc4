"""What the player reads of ratings (pure words, no I/O): a rating beside a name, a game's change,
why a key was not taken, a line of the leaderboard.

A rating is the server's conservative estimate of a player (openskill's ordinal rounded: see
``docs/server.md``, "Players, keys and ratings"): 0 for a new player, rising as the server grows
sure of them.

>>> rating_words(12), rating_words(None), rating_words(-3)
('rated 12', 'unrated', 'rated −3')
>>> change_line([{"player": "Ada", "before": 0, "after": 4}, {"player": "Bea", "before": 0, "after": -2}], "Ada")
'Ratings: you 0 → 4, Bea 0 → −2.'
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from game.i18n import N_, _, ngettext

from .server_words import server_said

Msg = Mapping[str, Any]

# (constants marked N_ stay English here: each is said with _() where it is shown)
UNRATED = N_("unrated")
NO_KEY_LINE = N_("You play unrated here")
LEADERBOARD_TITLE = N_("Leaderboard")
NOBODY_RATED = N_("Nobody is rated on this server yet: a game between people with keys, played to its end, "
                  "rates them.")
NOT_OURS = N_("This server keeps no ratings (it is not ours, or older).")
UNRATED_HERE = N_("You are not rated here: this connection is not encrypted, and your key is sent over "
                  "encrypted connections only.")
RATINGS_NOTE = N_("A rating is the server's cautious guess of how well you play: 0 to begin with, it rises as "
                  "you win and as it grows sure of you. Games between people, two or more with keys, played to "
                  "their end, count; leaving before the end counts as last place.")


def told_apart(people: Sequence[tuple[str, int | None]]) -> list[str]:
    """The names of ``people`` (name, player number or None) as a list shows them: a nickname is
    unique at a table only, so two players whose names read the same (two keyed "Ann"s at two
    tables, on one leaderboard) are each shown with their number on the server.

    >>> told_apart([("Ann", 3), ("ANN", 9), ("Bob", 4), ("Cy", None)])
    ['Ann #3', 'ANN #9', 'Bob', 'Cy']
    """
    from game.netcode.names import fold
    seen: dict[str, set[int | None]] = {}
    for name, player in people:
        seen.setdefault(fold(name), set()).add(player)
    return [_("{name} #{number}").format(name=name, number=player)
            if player is not None and len(seen[fold(name)]) > 1 else name for name, player in people]


def number(n: int) -> str:
    """A signed number as printed (a real minus sign)."""
    return str(n).replace("-", "\u2212")


def rating_words(rating: int | None) -> str:
    """A rating beside a name."""
    return _(UNRATED) if rating is None else _("rated {rating}").format(rating=number(rating))


def change_line(changes: list[Msg], me: str) -> str:
    """A rated game's end (``UpdateRatingChange.ratings``), in one line; a solo game's best."""
    parts = []
    for c in sorted(changes, key=lambda c: c.get("player") != me):    # the player's own first
        who = _("you") if c.get("player") == me else str(c.get("player"))
        if "soloBest" in c:
            best = c.get("soloBest")
            if best is None:
                continue
            if c.get("newBest"):
                return ngettext("Your best solo score is {n} point (a new best).",
                                "Your best solo score is {n} points (a new best).", best).format(n=best)
            return ngettext("Your best solo score is {n} point.", "Your best solo score is {n} points.",
                            best).format(n=best)
        parts.append(f"{who} {number(int(c.get('before') or 0))} \u2192 {number(int(c.get('after') or 0))}")
    return _("Ratings: {changes}.").format(changes=", ".join(parts)) if parts else ""


def unrated_line(m: Msg) -> str:
    """``ErrKey``: why the player plays unrated here."""
    return _("{unrated}: {why}").format(unrated=_(NO_KEY_LINE),
                                        why=server_said(m, m.get("msg") or _("the server did not take your key.")))


def standing_words(you: Msg | None) -> str:
    """The player's own line under a leaderboard (``UpdateRatings.you``)."""
    if you is None:
        return _(UNRATED_HERE)
    games = int(you.get("games") or 0)
    best = you.get("soloBest")
    best_words = " " + ngettext("Your best solo score: {n} point.", "Your best solo score: {n} points.",
                                best).format(n=best) if best is not None else ""
    if not games or you.get("place") is None:
        return _("You have no rated game here yet (your rating starts at 0).") + best_words
    return ngettext("You are {place}, {rating}, after {n} rated game.",
                    "You are {place}, {rating}, after {n} rated games.", games).format(
        place=ordinal(int(you["place"])), rating=rating_words(int(you.get("rating") or 0)), n=games) + best_words


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st… (in Italian 1º, 2º…)."""
    # TRANSLATORS: an ordinal number (1st, 2nd...) in a language that writes them all one way ("{n}º");
    # leave it as "{n}th" for English's own rule
    if _("{n}th") != "{n}th":
        return _("{n}th").format(n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
