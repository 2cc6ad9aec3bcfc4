"""What the player reads, in one place: names joined in a sentence, amounts, a leader in words.

Pure Python (no pygame): the scenes and any other front end say the same things the same way.
"""
from __future__ import annotations

from typing import Any, Mapping

from game.netcode.protocol import NICKNAME_MAX, validate_nickname

__all__ = ["LEAVING_ON_SIGNAL", "LORENZO", "NICKNAME_MAX", "amount", "amounts", "joined", "leader_ability",
           "leader_words", "validate_nickname", "vanished_colour"]

Msg = dict[str, Any]
LORENZO = "Lorenzo il Magnifico"
LEAVING_ON_SIGNAL = "Asked to stop (the terminal closed, or the computer shuts down): leaving."


def joined(names: list[str]) -> str:
    """Names in a sentence: "A", "A and B", "A, B and C".

    >>> joined(["Ada"]), joined(["Ada", "Bea"]), joined(["Ada", "Bea", "Cosimo"])
    ('Ada', 'Ada and Bea', 'Ada, Bea and Cosimo')
    """
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


UNCOUNTED = frozenset({"Faith", "faith"})
"""Nouns said the same for any number ("3 Faith")."""


def amount(n: int, resource: str, *, signed: bool = False) -> str:
    """A number of a resource (or of anything counted) in words, the noun in the plural when
    the number is not one; ``signed``: with its sign, as a change.

    >>> amount(1, "Coin"), amount(2, "Shield"), amount(3, "Faith"), amount(-2, "Stone", signed=True)
    ('1 Coin', '2 Shields', '3 Faith', '−2 Stones')
    """
    noun = resource if abs(n) == 1 or resource in UNCOUNTED else resource + "s"
    return f"{f'{n:+d}'.replace('-', '−') if signed else n} {noun}"


def amounts(counts: Mapping[str, int], empty: str = "nothing", *, signed: bool = False) -> str:
    """Counts of resources in words, by name, those of zero left out ("2 Coins, 1 Faith");
    ``empty`` when none is left.

    >>> amounts({"Stone": 1, "Coin": 2, "Shield": 0}), amounts({})
    ('2 Coins, 1 Stone', 'nothing')
    """
    return ", ".join(amount(n, r, signed=signed) for r, n in sorted(counts.items()) if n) or empty


def leader_words(ld: dict[str, Any], productions: dict[int, dict]) -> tuple[str, str, str, int]:
    """A leader in words: (name, ability, requirement, victory points)."""
    res = ld["resourceType"]
    kind = ld["leaderType"]
    if kind == "DISCOUNT":
        name = f"Patron of {res}"
        ability = f"Every development card you buy costs {amount(ld.get('discount', 1), res)} less."
    elif kind == "DEPOT":
        name = f"Steward of {res}"
        ability = f"An extra depot that holds up to {amount(2, res)}, besides your warehouse."
    elif kind == "ZERO":
        name = f"Alchemist of {res}"
        ability = f"Each white marble you take from the market becomes 1 {res}."
    elif kind == "PRODUCTION":
        name = f"Artisan of {res}"
        prod = productions.get(ld.get("production", -1)) or {}
        gives = ", ".join(amount(n, r) for r, n in prod.get("output", {}).items())
        extra = prod.get("outputBlanks", 1)
        out = " and ".join(x for x in (amount(extra, "resource") + " of your choice" if extra else "", gives) if x)
        ability = f"A production of your own: {amount(1, res)} gives {out or '1 resource of your choice and 1 Faith'}."
    else:
        name, ability = f"Leader of {res}", kind.title()
    needs: list[str] = []
    for e in (ld.get("devCardRequirement") or {}).get("entries", []):
        level = f"level {e['level']} " if e.get("level") else ""
        needs.append(f"{e['quantity']} {level}{e['color'].lower()} card{'s' if e['quantity'] != 1 else ''}")
    for r, n in (ld.get("resourceRequirement") or {}).get("requirements", {}).items():
        needs.append(amount(n, r))
    need = "To play it you need " + (" and ".join(needs) if needs else "nothing") + "."
    return name, ability, need, int(ld.get("victoryPoints", 0))


def leader_ability(ld: Msg) -> str:
    """A leader's ability in a few words, for a line of the log."""
    res = ld["resourceType"]
    return {"DISCOUNT": f"−{amount(ld.get('discount', 1), res)} on card costs",
            "DEPOT": f"an extra depot for {amount(2, res)}",
            "ZERO": f"white marbles become {res}",
            "PRODUCTION": f"1 {res} → 1 resource of your choice + 1 Faith"}.get(ld["leaderType"], ld["leaderType"])


def market_gives(line: Any) -> str:
    """What taking a market line gives, in words ("Gives 2 Coins, 1 Faith (1 white: nothing)"), from
    :meth:`GameSession.market_line <game.client.session.GameSession.market_line>`'s answer."""
    gives = dict(line.resources)
    if line.faith:
        gives["Faith"] = line.faith
    said = "Gives " + amounts(gives)
    if line.whites and not line.white_options:
        said += f" ({line.whites} white: nothing)"
    elif len(line.white_options) > 1:
        said += f" + {line.whites} white to choose"
    return said


def vanished_colour(g: Msg) -> str | None:
    """A colour with no development card left on the grid (None if every colour has one)."""
    grid = g.get("devCardGrid")
    top = grid.get("topCards") if isinstance(grid, dict) else None
    if not isinstance(top, dict):
        return None
    return next((colour for colour, cards in top.items() if not any(c is not None for c in cards)), None)
