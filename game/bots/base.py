"""What every bot is and says (:mod:`game.bots`): its levels, its decision, its interface. The
levels' modules import this, never the package, so that the package may import them."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from game.rules.actions import Action

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


class UnknownLevel(ValueError):
    """A bot level that does not exist; the message names it and the known levels."""

    def __init__(self, level: object) -> None:
        super().__init__(f"unknown bot level {level!r}: the levels are {', '.join(LEVELS)}")
        self.level = level


@dataclass(frozen=True)
class Decision:
    """One request for the engine and one short line a player would understand."""

    action: Action
    why: str
    then: tuple[Action, ...] = ()
    """The requests that finish what ``action`` starts, in order (after a rearrangement of the
    warehouse: the other moves and the market take it is for). A bot asked again after ``action``
    may choose otherwise; a hint shows the whole as one plan."""


class Bot(Protocol):
    level: str

    def decide(self, view: dict, nickname: str, rng: random.Random) -> Decision:
        """The next request of ``nickname``, who may act now (setup choice pending or their turn).

        :raises ValueError: ``nickname`` has nothing to do in this view.
        """
        ...
