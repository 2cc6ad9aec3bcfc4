"""The words of a game in typed commands: every command with its help, the short forms the
player may type, and how a typed number, resource or click is read (:class:`Refused` says, in
words, why a command cannot be done as typed)."""
from __future__ import annotations

from dataclasses import dataclass

from game.client.board_input import RESOURCES
from game.client.words import resource_name
from game.i18n import N_, _

COLOURS = ("Green", "Blue", "Yellow", "Purple")

class Refused(Exception):
    """A command that cannot be done as typed: the message says why, in words."""


@dataclass
class Help:
    usage: str
    text: str
    """What the command does, marked for the catalogue: said with ``_(help.text)``."""


QUERIES: dict[str, Help] = {
    "market": Help("market", N_("The market's marbles, row by row and column by column, and what each line gives you.")),
    "grid": Help("grid", N_("The development cards on sale, by level and colour: points, cost, production, "
                         "and whether you can buy them.")),
    "board": Help("board [NAME]", N_("Your board (or another player's): points, faith, shelves, strongbox, "
                                  "card slots and leaders in play.")),
    "leaders": Help("leaders", N_("Your leaders, numbered, with what they do and need; others' leaders in play.")),
    "track": Help("track", N_("The faith track: where everyone is, the Vatican reports, your next points.")),
    "lorenzo": Help("lorenzo", N_("Solo: Lorenzo's black cross and his tokens.")),
    "log": Help("log [N]", N_("The last N lines of what happened (10 if no N).")),
    "score": Help("score", N_("Everyone's victory points; at the end, the final scores.")),
    "turn": Help("turn", N_("Whose turn it is and what you can do now (also an empty line).")),
    "server": Help("server", N_("The server this game is played on: encrypted or not, and its certificate.")),
    "help": Help("help [COMMAND]", N_("The commands, or one command in detail.")),
}
ACTIONS: dict[str, Help] = {
    "take": Help("take row N | take column N",
                 N_("Take a market line (rows 1 to 3, columns 1 to 4). Its resources are placed as suggested; "
                 "change that with put, discard, white and swap, then Enter takes it.")),
    "buy": Help("buy COLOUR LEVEL [slot N]", N_("Buy the top card of a deck (buy green 1), into a slot you choose "
                                             "or the first that takes it; Enter buys it.")),
    "produce": Help("produce [N ...]", N_("With no number: the productions you can run, numbered. With numbers "
                                       "(or base): run those together; choose free resources with pay and get.")),
    "play": Help("play N", N_("Play leader N of your hand (numbers as leaders says them).")),
    "discard": Help("discard N", N_("Discard leader N of your hand for 1 faith; in a market plan, discard "
                                 "resource N instead.")),
    "swap": Help("swap A B", N_("Swap two shelves (1 to 3; depots are d1 and d2), or move what fits from A to B.")),
    "move": Help("move A B [RESOURCE]", N_("Move what fits from shelf A to shelf B (one RESOURCE, if given).")),
    "end": Help("end", N_("End your turn.")),
    "undo": Help("undo", N_("Take back your last move of this turn.")),
    "hint": Help("hint", N_("Ask the hard computer player what it would do; its plan is said, Enter does it.")),
    "players": Help("players N [LEVEL ...]", N_("In a server's waiting room, if you are first: a game of N players, "
                                             "with computer players of these levels (easy, medium, hard).")),
    "say": Help("say TEXT", N_("Say something to the table (also: chat TEXT).")),
    "watchers": Help("watchers [hide|show]", N_("How many watch this game; hide or show again what the watchers say.")),
    "keep": Help("keep A B", N_("At the start: keep these two of your four leaders (numbers as shown).")),
    "resources": Help("resources RES [RES]", N_("At the start: the resources your seat receives (Coin, Servant, "
                                             "Shield or Stone).")),
    "cancel": Help("cancel", N_("Drop what you are arranging: nothing is sent.")),
}
BACK_WORDS = ("menu", "back", "cancel")
"""What a question of the menu's (a name, the computer players, a server's address) takes as
"never mind": back to the menu."""
PLAN_EDITS: dict[str, Help] = {
    "put": Help("put N PLACE", N_("In a market plan: resource N goes on PLACE (1, 2 or 3 for the shelves, "
                               "d1 or d2 for a leader's depot).")),
    "white": Help("white N RESOURCE", N_("In a market plan with two white-marble leaders: white marble N becomes RESOURCE.")),
    "suggest": Help("suggest", N_("In a market plan: place everything as suggested again.")),
    "slot": Help("slot N", N_("In a purchase: put the card in slot N.")),
    "pay": Help("pay N RES [RES]", N_("In a production plan: the free resources production N is paid with.")),
    "get": Help("get N RES", N_("In a production plan: the free resource production N gives.")),
    "use": Help("use RES PLACE", N_("In a purchase or a production plan: pay one RES from PLACE instead (1, 2 or 3 "
                                 "for the shelves, d1 or d2 for a depot, strongbox).")),
}
HELP = {**QUERIES, **ACTIONS, **PLAN_EDITS, "leave": Help("leave", N_("Leave the game (a game on this machine stays "
                                                                    "saved; a server keeps your seat)."))}
ALIASES = {"chat": "say", "cards": "grid", "scores": "score", "?": "help", "h": "help", "q": "leave",
           "quit": "leave", "exit": "leave", "menu": "leave", "back": "leave", "faith": "track", "end turn": "end",
           "pass": "end"}


def _said(what: str) -> tuple[str, str, str]:
    """For ``what`` is counted: (not a number, no such number, no such number when there is only one)."""
    said = {
        "resource": (_("{word} is not a number: say a resource from 1 to {most}."),
                     _("There is no resource {n}: say one from 1 to {most}."),
                     _("There is no resource {n}: there is only resource 1.")),
        "white marble": (_("{word} is not a number: say a white marble from 1 to {most}."),
                         _("There is no white marble {n}: say one from 1 to {most}."),
                         _("There is no white marble {n}: there is only white marble 1.")),
        "slot": (_("{word} is not a number: say a slot from 1 to {most}."),
                 _("There is no slot {n}: say one from 1 to {most}."),
                 _("There is no slot {n}: there is only slot 1.")),
        "production": (_("{word} is not a number: say a production from 1 to {most}."),
                       _("There is no production {n}: say one from 1 to {most}."),
                       _("There is no production {n}: there is only production 1.")),
        "number of players": (_("{word} is not a number: say a number of players from 1 to {most}."),
                              _("A game cannot have {n} players: say a number from 1 to {most}."),
                              _("A game cannot have {n} players: say 1.")),
        "row": (_("{word} is not a number: say a row from 1 to {most}."),
                _("There is no row {n}: say one from 1 to {most}."),
                _("There is no row {n}: there is only row 1.")),
        "column": (_("{word} is not a number: say a column from 1 to {most}."),
                   _("There is no column {n}: say one from 1 to {most}."),
                   _("There is no column {n}: there is only column 1.")),
        "level": (_("{word} is not a number: say a level from 1 to {most}."),
                  _("There is no level {n}: say one from 1 to {most}."),
                  _("There is no level {n}: there is only level 1.")),
        "leader": (_("{word} is not a number: say a leader from 1 to {most}."),
                   _("There is no leader {n}: say one from 1 to {most}."),
                   _("There is no leader {n}: there is only leader 1.")),
        "depot": (_("{word} is not a number: say a depot from 1 to {most}."),
                  _("There is no depot {n}: say one from 1 to {most}."),
                  _("There is no depot {n}: there is only depot 1.")),
        "shelf": (_("{word} is not a number: say a shelf from 1 to {most}."),
                  _("There is no shelf {n}: say one from 1 to {most}."),
                  _("There is no shelf {n}: there is only shelf 1.")),
    }
    return said.get(what) or (f"{{word}} is not a number: say a {what} from 1 to {{most}}.",
                              f"There is no {what} {{n}}: say one from 1 to {{most}}.",
                              f"There is no {what} {{n}}: there is only {what} 1.")


def number(word: str, most: int, what: str) -> int:
    """A 1-based number typed by the player, as a 0-based index (``what`` is counted: "shelf",
    "leader", ...; see :func:`_said`)."""
    not_a_number, no_such, only_one = _said(what)
    try:
        n = int(word)
    except ValueError:
        raise Refused(not_a_number.format(word=repr(word), most=most)) from None
    if not 1 <= n <= most:
        if most == 1:
            raise Refused(only_one.format(n=n))
        if most < 1:
            raise Refused(_("There is none to choose."))
        raise Refused(no_such.format(n=n, most=most))
    return n - 1


def resource(word: str) -> str:
    """A resource named by the player, in English or in the language spoken, one or many (its first
    two letters or more: "co" is Coin; "mo", "Moneta" and "Monete" are Coin in Italian too)."""
    said = word.lower()
    if len(said) >= 2:
        for r in RESOURCES:
            names = {r, resource_name(r, 1), resource_name(r, 2)}
            if any(n.lower().startswith(said) for n in names):
                return r
    raise Refused(_("{word} is not a resource: say Coin, Servant, Shield or Stone.").format(word=repr(word)))
