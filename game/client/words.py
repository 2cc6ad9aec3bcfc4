"""What the player reads, in one place: names joined in a sentence, amounts, a leader in words.

Pure Python (no pygame): the scenes and any other front end say the same things the same way.
"""
from __future__ import annotations

import re
from typing import Any, Mapping


from game.i18n import N_, _, ngettext, npgettext, pgettext
from game.netcode.client_messages import validate_nickname
from game.netcode.protocol import NICKNAME_MAX

__all__ = ["LEAVING_ON_SIGNAL", "LORENZO", "NICKNAME_MAX", "amount", "amounts", "cards", "colour_name", "joined",
           "leader_ability", "leader_name", "leader_words", "player_name", "resource_name", "validate_nickname", "vanished_colour"]

Msg = dict[str, Any]
LORENZO = "Lorenzo il Magnifico"
"""The solo game's opponent: his name is the same in every language."""
CLICK_TO_BUY = N_("Click to buy")
"""What a card of the grid that can be bought says (its tooltip; said with ``_(CLICK_TO_BUY)``)."""
LEAVING_ON_SIGNAL = N_("Asked to stop (the terminal closed, or the computer shuts down): leaving.")


def joined(names: list[str]) -> str:
    """Names in a sentence: "A", "A and B", "A, B and C" (in Italian "A, B e C").

    >>> joined(["Ada"]), joined(["Ada", "Bea"]), joined(["Ada", "Bea", "Cosimo"])
    ('Ada', 'Ada and Bea', 'Ada, Bea and Cosimo')
    """
    if len(names) == 1:
        return names[0]
    # TRANSLATORS: the end of a list: "Ada, Bea and Cosimo"
    return _("{others} and {last}").format(others=", ".join(names[:-1]), last=names[-1])


# ---------------------------------------------------------------------------- the resources
def _coin(n: int) -> str:
    return npgettext("amount", "{n} Coin", "{n} Coins", n)


def _servant(n: int) -> str:
    return npgettext("amount", "{n} Servant", "{n} Servants", n)


def _shield(n: int) -> str:
    return npgettext("amount", "{n} Shield", "{n} Shields", n)


def _stone(n: int) -> str:
    return npgettext("amount", "{n} Stone", "{n} Stones", n)


def _faith(n: int) -> str:
    return npgettext("amount", "{n} Faith", "{n} Faith", n)


def _resource(n: int) -> str:
    return npgettext("amount", "{n} resource", "{n} resources", n)


_AMOUNTS = {"Coin": _coin, "Servant": _servant, "Shield": _shield, "Stone": _stone, "Faith": _faith,
            "faith": _faith, "resource": _resource}


def amount(n: int, resource: str, *, signed: bool = False) -> str:
    """A number of a resource (or of anything counted) in words, the noun in the plural when
    the number asks for it; ``signed``: with its sign, as a change.

    >>> amount(1, "Coin"), amount(2, "Shield"), amount(3, "Faith"), amount(-2, "Stone", signed=True)
    ('1 Coin', '2 Shields', '3 Faith', '−2 Stones')
    """
    said = _AMOUNTS.get(resource)
    text = said(abs(n)).format(n=abs(n)) if said else f"{abs(n)} {resource}"
    if signed:
        return ("−" if n < 0 else "+") + text
    return "−" + text if n < 0 else text


def resource_name(resource: str, n: int = 2) -> str:
    """A resource's name alone, as a kind ("Stones": "Shelf 1 takes only Stones"), or for ``n`` of it."""
    names = {"Coin": npgettext("resource", "Coin", "Coins", n),
             "Servant": npgettext("resource", "Servant", "Servants", n),
             "Shield": npgettext("resource", "Shield", "Shields", n),
             "Stone": npgettext("resource", "Stone", "Stones", n),
             "Faith": pgettext("resource", "Faith")}
    return names.get(resource, resource)


def discarded(resource: str) -> str:
    """One resource of a market take that is left out, in words ("Servant discarded": "Servitore
    scartato", "Moneta scartata" in Italian, the word agreeing with the resource)."""
    said = {"Coin": _("Coin discarded"), "Servant": _("Servant discarded"), "Shield": _("Shield discarded"),
            "Stone": _("Stone discarded")}.get(resource)
    return said if said is not None else _("{resource} discarded").format(resource=resource_name(resource, 1))


def amounts(counts: Mapping[str, int], empty: str | None = None, *, signed: bool = False) -> str:
    """Counts of resources in words, by name, those of zero left out ("2 Coins, 1 Faith");
    ``empty`` when none is left ("nothing" unless given).

    >>> amounts({"Stone": 1, "Coin": 2, "Shield": 0}), amounts({})
    ('2 Coins, 1 Stone', 'nothing')
    """
    said = ", ".join(amount(n, r, signed=signed) for r, n in sorted(counts.items()) if n)
    return said or (_("nothing") if empty is None else empty)


def colour_name(colour: str) -> str:
    """A development card colour's name ("green"), as it is said of one card."""
    return {"GREEN": pgettext("colour", "green"), "BLUE": pgettext("colour", "blue"),
            "YELLOW": pgettext("colour", "yellow"), "PURPLE": pgettext("colour", "purple")}.get(
        colour.upper(), colour.lower())


def cards(n: int, colour: str, level: int | None = None, *, more: bool = False) -> str:
    """A number of development cards of a colour, of any level or of one ("2 level-1 green cards");
    ``more``: as a number still missing ("1 more blue card").

    >>> cards(2, "Green", 1), cards(1, "BLUE", more=True)
    ('2 level-1 green cards', '1 more blue card')
    """
    c = colour.upper()
    if more:
        said = {"GREEN": npgettext("cards", "{n} more green card", "{n} more green cards", n),
                "BLUE": npgettext("cards", "{n} more blue card", "{n} more blue cards", n),
                "YELLOW": npgettext("cards", "{n} more yellow card", "{n} more yellow cards", n),
                "PURPLE": npgettext("cards", "{n} more purple card", "{n} more purple cards", n)}.get(c)
        said_level = {"GREEN": npgettext("cards", "{n} more level-{level} green card",
                                         "{n} more level-{level} green cards", n),
                      "BLUE": npgettext("cards", "{n} more level-{level} blue card",
                                        "{n} more level-{level} blue cards", n),
                      "YELLOW": npgettext("cards", "{n} more level-{level} yellow card",
                                          "{n} more level-{level} yellow cards", n),
                      "PURPLE": npgettext("cards", "{n} more level-{level} purple card",
                                          "{n} more level-{level} purple cards", n)}.get(c)
    else:
        said = {"GREEN": npgettext("cards", "{n} green card", "{n} green cards", n),
                "BLUE": npgettext("cards", "{n} blue card", "{n} blue cards", n),
                "YELLOW": npgettext("cards", "{n} yellow card", "{n} yellow cards", n),
                "PURPLE": npgettext("cards", "{n} purple card", "{n} purple cards", n)}.get(c)
        said_level = {"GREEN": npgettext("cards", "{n} level-{level} green card", "{n} level-{level} green cards", n),
                      "BLUE": npgettext("cards", "{n} level-{level} blue card", "{n} level-{level} blue cards", n),
                      "YELLOW": npgettext("cards", "{n} level-{level} yellow card",
                                          "{n} level-{level} yellow cards", n),
                      "PURPLE": npgettext("cards", "{n} level-{level} purple card",
                                          "{n} level-{level} purple cards", n)}.get(c)
    if said is None or said_level is None:
        return f"{n} {colour.lower()}"
    return (said_level if level else said).format(n=n, level=level)


BOT_SUFFIX = " (bot)"
"""How a computer player's nickname ends on the wire ("Cosimo (bot)", as the server and this
machine's games name them: reference clients read it so); a player reads :func:`player_name`."""
_SPARE_BOT = re.compile(r"Bot \d+")
"""The wire nickname of a bot once every given name is taken ("Bot 2")."""


def player_name(nick: str, levels: Mapping[str, str]) -> str:
    """A player's name as every front end says and draws it, the one form of issue 29: a computer
    player, whose level ``levels`` gives (the bots of a game on this machine, a replay's, our
    server's ``botLevels``), by its given name and its level, "Cosimo (easy)" ("Cosimo (facile)")
    for the wire's "Cosimo (bot)"; anyone else as they are (a person whose seat the computer plays
    too: ``levels`` holds them, their nickname is not a bot's).

    >>> player_name("Cosimo (bot)", {"Cosimo (bot)": "easy"}), player_name("Ada", {"Ada": "easy"})
    ('Cosimo (easy)', 'Ada')
    """
    level = levels.get(nick)
    if not isinstance(level, str):
        return nick
    if nick.endswith(BOT_SUFFIX):
        return bot_name(nick.removesuffix(BOT_SUFFIX), level)
    if _SPARE_BOT.fullmatch(nick):
        return bot_name(nick, level)
    return nick


def bot_name(name: str, level: str) -> str:
    """A computer player's given name with its level: "Cosimo (easy)" (see :func:`player_name`)."""
    # TRANSLATORS: a bot's name and level, "Cosimo (easy)": the one way a bot is named everywhere
    return pgettext("a bot's name", "{name} ({level})").format(name=name, level=bot_level(level))


def bot_level(level: str) -> str:
    """A computer player's level in words ("easy", "medium", "hard")."""
    return {"easy": pgettext("bot level", "easy"), "medium": pgettext("bot level", "medium"),
            "hard": pgettext("bot level", "hard")}.get(level, level)


def pace_label(pace: str) -> str:
    """The computer players' pace in a word ("Normal": Settings, the page that starts a game against them)."""
    return {"fast": pgettext("pace", "Fast"), "normal": pgettext("pace", "Normal"),
            "slow": pgettext("pace", "Slow")}.get(pace, pace.capitalize())


def bot_seat(level: str) -> str:
    """A seat asked for a computer player, before it is named: "easy bot" ("bot facile")."""
    return _("{level} bot").format(level=bot_level(level))


def seat_choice_tip(players: int, waiting: int) -> str:
    """What choosing a game of ``players`` does in a waiting room where ``waiting`` already wait
    (the chooser among them): it starts at once, or waits for the rest to join."""
    if players == 1:
        return _("Play alone against Lorenzo il Magnifico")
    more = players - waiting
    if more < 0:
        return _("Start at once with the first {n} waiting").format(n=players)
    if more == 0:
        return _("Start at once with the {n} waiting").format(n=players)
    return ngettext("Wait for {n} more to join", "Wait for {n} more to join", more).format(n=more)


# ---------------------------------------------------------------------------- the leaders
def leader_name(kind: str, res: str) -> str:
    """A leader card's name, by its ability and resource ("Steward of Coin")."""
    from game.bots.common import leader_card_name
    return leader_card_name(kind, res) or _("Leader of {resource}").format(resource=resource_name(res))


def leader_words(ld: dict[str, Any], productions: dict[int, dict]) -> tuple[str, str, str, int]:
    """A leader in words: (name, ability, requirement, victory points)."""
    res = ld["resourceType"]
    kind = ld["leaderType"]
    name = leader_name(kind, res)
    if kind == "DISCOUNT":
        ability = _("Every development card you buy costs {amount} less.").format(
            amount=amount(ld.get("discount", 1), res))
    elif kind == "DEPOT":
        ability = _("An extra depot that holds up to {amount}, besides your warehouse.").format(amount=amount(2, res))
    elif kind == "ZERO":
        ability = _("Each white marble you take from the market becomes {amount}.").format(amount=amount(1, res))
    elif kind == "PRODUCTION":
        prod = productions.get(ld.get("production", -1)) or {}
        gives = ", ".join(amount(n, r) for r, n in prod.get("output", {}).items())
        extra = prod.get("outputBlanks", 1)
        chosen = ngettext("{n} resource of your choice", "{n} resources of your choice", extra).format(n=extra)
        out = joined([x for x in (chosen if extra else "", gives) if x]) if (extra or gives) else \
            _("1 resource of your choice and 1 Faith")
        ability = _("A production of your own: {amount} gives {output}.").format(amount=amount(1, res), output=out)
    else:
        ability = kind.title()
    needs: list[str] = []
    for e in (ld.get("devCardRequirement") or {}).get("entries", []):
        needs.append(cards(e["quantity"], e["color"], e.get("level")))
    for r, n in (ld.get("resourceRequirement") or {}).get("requirements", {}).items():
        needs.append(amount(n, r))
    need = _("To play it you need {needs}.").format(needs=joined(needs)) if needs else \
        _("To play it you need nothing.")
    return name, ability, need, int(ld.get("victoryPoints", 0))


def leader_ability(ld: Msg) -> str:
    """A leader's ability in a few words, for a line of the log."""
    res = ld["resourceType"]
    kind = ld["leaderType"]
    if kind == "DISCOUNT":
        return _("−{amount} on card costs").format(amount=amount(ld.get("discount", 1), res))
    if kind == "DEPOT":
        return _("an extra depot for {amount}").format(amount=amount(2, res))
    if kind == "ZERO":
        return _("white marbles become {resource}").format(resource=resource_name(res))
    if kind == "PRODUCTION":
        return _("{amount} → 1 resource of your choice + 1 Faith").format(amount=amount(1, res))
    return str(kind)


def market_gives(line: Any) -> str:
    """What taking a market line gives, in words ("Gives 2 Coins, 1 Faith (1 white: nothing)"), from
    :meth:`GameSession.market_line <game.client.session.GameSession.market_line>`'s answer."""
    gives = dict(line.resources)
    if line.faith:
        gives["Faith"] = line.faith
    said = _("Gives {amounts}").format(amounts=amounts(gives))
    if line.whites and not line.white_options:
        said += " " + ngettext("({n} white: nothing)", "({n} white: nothing)", line.whites).format(n=line.whites)
    elif len(line.white_options) > 1:
        said += " " + ngettext("+ {n} white to choose", "+ {n} white to choose", line.whites).format(n=line.whites)
    return said


def vanished_colour(g: Msg) -> str | None:
    """A colour with no development card left on the grid (None if every colour has one)."""
    grid = g.get("devCardGrid")
    top = grid.get("topCards") if isinstance(grid, dict) else None
    if not isinstance(top, dict):
        return None
    return next((colour for colour, cards in top.items() if not any(c is not None for c in cards)), None)


# ---------------------------------------------------------------------------- a game session's own
# (constants marked N_ stay English here: each is said with _() where it is shown)
UNREADABLE = N_("The server sent an update this version of the game could not read; "
                "the whole game is being fetched again.")
RECONNECTED = N_("Reconnected: the board is up to date again.")
NOT_TAKEN_BACK = N_("the server did not take us back")
"""Why a reconnection failed when the server gave no reason (said after "Could not get back to the game: ")."""

REPLAY_ERRORS = {
    "NOT_FINISHED": N_("The game is not over yet: its replay would show every hidden card."),
    "NO_SUCH_GAME": N_("The server no longer has this game."),
    "NOT_YOURS": N_("That game is not one of yours."),
}
NO_REPLAY = N_("The server has no replay of this game.")

NICKNAME_ERRORS = {
    "TAKEN": N_("That nickname is already playing on this server. Choose another one."),
    "NOT_SET": N_("Choose a nickname first (1 to 24 letters, digits or spaces)."),
    "ALREADY_SET": N_("You have already joined with a nickname."),
    "NOT_IN_GAME": N_("You are not in a game yet."),
}
NICKNAME_REFUSED = N_("The server refused the nickname.")
TABLE_REFUSED = N_("That table cannot be joined.")
PLAYERS_COUNT_INVALID = N_("Choose between 1 and 4 players.")
NOT_THE_HEAD = N_("Only the first player in the waiting room chooses the number of players.")

UNDO_WORDS = {
    "loaded": N_("Nothing to undo since the game was resumed: the moves made before stay as they are."),
    "final": N_("Your last move cannot be taken back: a card was bought, or something new was turned "
                "up (a card, a token, a Vatican report)."),
    "undone": N_("Nothing more to undo this turn: your moves are all taken back."),
    "turn": N_("Nothing to undo yet: you have not moved this turn."),
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
    times = {1: _("once"), 2: _("twice")}.get(n) or ngettext("{n} time", "{n} times", n).format(n=n)
    if n == 1:
        which = _("round {n}").format(n=rounds[0])
    elif n > 2 and rounds == list(range(rounds[0], rounds[0] + n)):
        which = _("rounds {first} to {last}").format(first=rounds[0], last=rounds[-1])
    else:
        which = _("rounds {list}").format(list=joined([str(r) for r in rounds]))
    return _("While you were away, your turn was skipped {times} ({rounds}): the game went on without you. "
             "The log above tells what happened.").format(times=times, rounds=which)
