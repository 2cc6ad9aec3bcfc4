"""What the player reads, in one place: names joined in a sentence, amounts, a leader in words.

Pure Python (no pygame): the scenes and any other front end say the same things the same way.
"""
from __future__ import annotations

from typing import Any, Mapping


from game.netcode.client_messages import validate_nickname
from game.netcode.protocol import NICKNAME_MAX

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


def named(nick: str, levels: dict[str, str]) -> str:
    """A player's name as the table shows it: a bot with its level ("Lucrezia · hard bot" for
    "Lucrezia (bot)" when ``levels`` says "hard"), anyone else as they are."""
    level = levels.get(nick)
    if isinstance(level, str) and nick.endswith(" (bot)"):
        return f"{nick.removesuffix(' (bot)')} · {level} bot"
    return nick


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


# ---------------------------------------------------------------------------- a game session's own
UNREADABLE = ("The server sent an update this version of the game could not read; "
              "the whole game is being fetched again.")
RECONNECTED = "Reconnected: the board is up to date again."
NOT_TAKEN_BACK = "the server did not take us back"
"""Why a reconnection failed when the server gave no reason (said after "Could not get back to the game: ")."""

REPLAY_ERRORS = {
    "NOT_FINISHED": "The game is not over yet: its replay would show every hidden card.",
    "NO_SUCH_GAME": "The server no longer has this game.",
    "NOT_YOURS": "That game is not one of yours.",
}
NO_REPLAY = "The server has no replay of this game."

NICKNAME_ERRORS = {
    "TAKEN": "That nickname is already playing on this server. Choose another one.",
    "NOT_SET": "Choose a nickname first (1 to 24 letters, digits or spaces).",
    "ALREADY_SET": "You have already joined with a nickname.",
    "NOT_IN_GAME": "You are not in a game yet.",
}
NICKNAME_REFUSED = "The server refused the nickname."
TABLE_REFUSED = "That table cannot be joined."
PLAYERS_COUNT_INVALID = "Choose between 1 and 4 players."
NOT_THE_HEAD = "Only the first player in the waiting room chooses the number of players."

UNDO_WORDS = {
    "loaded": "Nothing to undo since the game was resumed: the moves made before stay as they are.",
    "final": "Your last move cannot be taken back: a card was bought, or something new was turned "
             "up (a card, a token, a Vatican report).",
    "undone": "Nothing more to undo this turn: your moves are all taken back.",
    "turn": "Nothing to undo yet: you have not moved this turn.",
}
"""Why Undo is greyed on the player's turn, by the undo rule's reason (see :mod:`game.client.undo`)."""


def skipped_words(rounds: list[int]) -> str:
    """What a player who comes back is told about the turns they missed: how many, and in which
    rounds (counted from the first turn of the game, which the board does not show: the count
    comes first), and where to read what happened.

    >>> skipped_words([5])
    'While you were away, your turn was skipped once (round 5): the game went on without you. The log above tells what happened.'
    >>> skipped_words([3, 4, 5])
    'While you were away, your turn was skipped 3 times (rounds 3 to 5): the game went on without you. The log above tells what happened.'
    >>> skipped_words([2, 4])
    'While you were away, your turn was skipped twice (rounds 2 and 4): the game went on without you. The log above tells what happened.'
    """
    n = len(rounds)
    times = {1: "once", 2: "twice"}.get(n, f"{n} times")
    if n == 1:
        which = f"round {rounds[0]}"
    elif n > 2 and rounds == list(range(rounds[0], rounds[0] + n)):
        which = f"rounds {rounds[0]} to {rounds[-1]}"
    else:
        which = "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"
    return (f"While you were away, your turn was skipped {times} ({which}): the game went on without you. "
            "The log above tells what happened.")
