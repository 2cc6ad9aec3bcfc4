"""What a bot does when its turn goes wrong: one policy wherever bots play (a game against the
computer on this machine, :class:`game.match.BotMatch`, and the server's bot scheduler).

A request of a bot that the engine refuses is asked again of the fallback bot
(:data:`~game.bots.driver.FALLBACK_LEVEL`, which keeps to the simplest legal moves); if even that
one is refused, or no decision could be had at all, the bot says so at the table and leaves it
like a player who quits, so that the game goes on without it rather than stall.

>>> after_no_answer().farewell
'Sorry, I could not decide on a move, so I leave the table: the game goes on without me.'
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # the driver (worker pools) loads only where bots play
    from .driver import Job

COULD_NOT_DECIDE = "could not decide on a move"
NOTHING_ACCEPTED = "cannot find a move the rules accept"


@dataclass(frozen=True)
class Leave:
    """The bot leaves the table, saying ``why`` (what follows "Sorry, I")."""

    why: str

    @property
    def farewell(self) -> str:
        """What the bot says at the table as it leaves (a chat line)."""
        return f"Sorry, I {self.why}, so I leave the table: the game goes on without me."


def after_no_answer() -> Leave:
    """No decision could be had (the bot and its fallback both failed): the bot leaves."""
    return Leave(COULD_NOT_DECIDE)


def after_refusal(job: Job, level: str) -> Job | Leave:
    """The engine refused the request decided for ``job`` at ``level``: the same decision asked
    again of the fallback bot, or, when the fallback's own request was refused, the bot leaves.

    >>> from game.bots.driver import Job
    >>> after_refusal(Job("Cosimo (bot)", "hard", {}, "1:x:0", 0, 3), "hard").level
    'easy'
    >>> after_refusal(Job("Cosimo (bot)", "hard", {}, "1:x:0", 0, 3), "easy")
    Leave(why='cannot find a move the rules accept')
    """
    from .driver import FALLBACK_LEVEL
    if level == FALLBACK_LEVEL:
        return Leave(NOTHING_ACCEPTED)
    return replace(job, level=FALLBACK_LEVEL)
