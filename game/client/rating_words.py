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

from typing import Any, Mapping

Msg = Mapping[str, Any]

UNRATED = "unrated"
NO_KEY_LINE = "You play unrated here"
LEADERBOARD_TITLE = "Leaderboard"
NOBODY_RATED = "Nobody is rated on this server yet: a game between people with keys, played to its end, rates them."
NOT_OURS = "This server keeps no ratings (it is not ours, or older)."
UNRATED_HERE = ("You are not rated here: this connection is not encrypted, and your key is sent over "
                "encrypted connections only.")
RATINGS_NOTE = ("A rating is the server's cautious guess of how well you play: 0 to begin with, it rises as "
                "you win and as it grows sure of you. Games between people, two or more with keys, played to "
                "their end, count; leaving before the end counts as last place.")


def number(n: int) -> str:
    """A signed number as printed (a real minus sign)."""
    return str(n).replace("-", "\u2212")


def rating_words(rating: int | None) -> str:
    """A rating beside a name."""
    return UNRATED if rating is None else f"rated {number(rating)}"


def change_line(changes: list[Msg], me: str) -> str:
    """A rated game's end (``UpdateRatingChange.ratings``), in one line; a solo game's best."""
    parts = []
    for c in sorted(changes, key=lambda c: c.get("player") != me):    # the player's own first
        who = "you" if c.get("player") == me else str(c.get("player"))
        if "soloBest" in c:
            best = c.get("soloBest")
            if best is None:
                continue
            new = " (a new best)" if c.get("newBest") else ""
            return f"Your best solo score is {best} points{new}."
        parts.append(f"{who} {number(int(c.get('before') or 0))} \u2192 {number(int(c.get('after') or 0))}")
    return f"Ratings: {', '.join(parts)}." if parts else ""


def unrated_line(m: Msg) -> str:
    """``ErrKey``: why the player plays unrated here."""
    return f"{NO_KEY_LINE}: {m.get('msg') or 'the server did not take your key.'}"


def standing_words(you: Msg | None) -> str:
    """The player's own line under a leaderboard (``UpdateRatings.you``)."""
    if you is None:
        return UNRATED_HERE
    games = int(you.get("games") or 0)
    best = you.get("soloBest")
    best_words = f" Your best solo score: {best} points." if best is not None else ""
    if not games or you.get("place") is None:
        return f"You have no rated game here yet (your rating starts at 0).{best_words}"
    return (f"You are {ordinal(int(you['place']))}, {rating_words(int(you.get('rating') or 0))}, after "
            f"{games} rated game{'s' if games != 1 else ''}.{best_words}")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st…"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
