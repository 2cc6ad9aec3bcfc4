"""Why a button of the board is greyed, in words: one answer for every front end (the board's
tooltips, the text client's refusals of a command)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.i18n import _

if TYPE_CHECKING:
    from .session import GameSession


def greyed_words(key: str, session: GameSession, plan: Any = None) -> str | None:
    """Why the board's button ``key`` ("produce", "end", "undo", "confirm"; any other key: why
    nothing can be done now) is greyed, in words (None: no reason to give). ``plan``: the plan
    being built, whose problem greys Confirm."""
    g = session.vm.game
    if g is None:
        return None
    if g.get("ended"):
        return _("The game is over.")
    if session.connection_lost:
        return _("Waiting for the connection to come back.")
    if not session.vm.my_turn:
        return _("It is {name}'s turn: wait for yours.").format(name=session.shown_name(g["currentPlayer"]))
    main_done = g["isMandatoryActionDone"]
    if key == "produce":
        if main_done:
            return _("You have taken your main action this turn: one per turn (market, a card or production).")
        if not session.can_produce():
            return _("Nothing can be produced now: no production can be paid with what you own "
                     "(the base one takes any 2 resources).")
    elif key == "end":
        if not main_done:
            return _("Take your main action first: a market line, a development card, or production.")
    elif key == "undo":
        return session.undo_words()
    elif key == "confirm" and plan is not None:
        problem = getattr(plan, "problem", None)
        return problem() if callable(problem) else None
    return None
