"""The words of the seats' clocks of real-time games (the server's ``UpdateSeatClock``), for every
front end (through the catalogues): a player's time short, run out, their seat given to the computer.

>>> seat_clock_line({"player": "Bob", "code": "PLAYED_FOR", "level": "medium", "missed": 1, "setup": False}, "Ann")
"Bob's time for this turn ran out: the computer (medium) plays it for them."
>>> seat_clock_line({"player": "Ann", "code": "HURRY", "seconds": 30, "setup": False}, "Ann")
'30 seconds left for your turn: then the computer plays it for you.'
"""
from __future__ import annotations

from typing import Any

from game.i18n import _, ngettext

from .words import bot_level

__all__ = ["seat_clock_line"]


def seat_clock_line(m: dict[str, Any], me: str) -> str:
    """``UpdateSeatClock {player, code, ...}`` in words, as ``me`` reads it ("" for a code this
    version does not know)."""
    code, who = m.get("code"), str(m.get("player") or "")
    setup = bool(m.get("setup"))
    level = bot_level(str(m.get("level") or "medium"))
    n = int(m.get("missed") or 0)
    if code == "HURRY":
        seconds = int(m.get("seconds") or 0)
        if setup:
            return ngettext("{n} second left for your choices: then the computer makes them for you.",
                            "{n} seconds left for your choices: then the computer makes them for you.",
                            seconds).format(n=seconds)
        return ngettext("{n} second left for your turn: then the computer plays it for you.",
                        "{n} seconds left for your turn: then the computer plays it for you.", seconds).format(n=seconds)
    if code == "PLAYED_FOR":
        if who == me:
            if setup:
                return _("Your time to choose ran out: the computer ({level}) chooses for you. The game is "
                         "yours again from your first turn.").format(level=level)
            return _("Your time for this turn ran out: the computer ({level}) plays it for you. Your next turn "
                     "is yours again.").format(level=level)
        if setup:
            return _("{name}'s time to choose ran out: the computer ({level}) chooses for them.").format(
                name=who, level=level)
        return _("{name}'s time for this turn ran out: the computer ({level}) plays it for them.").format(
            name=who, level=level)
    if code == "SEAT_GIVEN":
        if who == me:
            return ngettext("Your time ran out {n} turn in a row: the computer ({level}) plays your seat to the end "
                            "of the game.",
                            "Your time ran out {n} turns in a row: the computer ({level}) plays your seat to the end "
                            "of the game.", n).format(n=n, level=level)
        return ngettext("{name}'s time ran out {n} turn in a row: the computer ({level}) plays that seat to the "
                        "end, and its points stay the seat's.",
                        "{name}'s time ran out {n} turns in a row: the computer ({level}) plays that seat to the "
                        "end, and its points stay the seat's.", n).format(name=who, n=n, level=level)
    return ""
