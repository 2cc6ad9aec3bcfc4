"""A refused request, said in a player's words: what happened, and what the player can do.

The rules engine and the server refuse a request with a typed error (:mod:`game.rules.errors`)
whose ``describe()`` is for the log file ("Cannot add Stone: the depot is full (or holds too
few)."). The board shows these words instead: the shelves by their names ("shelf 1", "the Stone
depot"), the counts that do not fit, the cards or resources missing, and the way out ("Take from
the market, buy a card or produce first"). The request that was refused and the player's own
state (the engine's picture of what the player sees) make the words precise when they are known;
without them, the error's own fields still give plain words.

Pure Python: no pygame, tested on its own and through the board.
"""
from __future__ import annotations

import logging
from typing import Any, Mapping

from game.i18n import N_, _, ngettext
from game.rules import errors as E
from game.rules.actions import (Action, ReqActivateProductions, ReqBuyDevCard, ReqLeaderAction, ReqMoveResources,
                                ReqSwapShelves, ReqTakeFromMarket)
from game.rules.state import SHELF, PlayerState

from .server_words import server_said
from .words import amount, amounts, cards, joined, resource_name

log = logging.getLogger("mor.refusals")

__all__ = ["box_name", "why_no_move", "why_no_swap", "refusal_words", "words_for"]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _counted(content: Mapping[str, int]) -> str:
    return amounts(content, "")


# ---------------------------------------------------------------------------- the warehouse
def box_name(player: PlayerState, cid: int) -> str:
    """"shelf 2", or "the Stone depot" for a leader's depot."""
    for k, s in enumerate(player.shelves):
        if s.id == cid:
            # TRANSLATORS: a shelf of the warehouse, said inside a sentence ("Shelf 2 is full"); no article
            # where the language puts one before it ("il ripiano 2", "nel ripiano 2": the sentence says it)
            return _("shelf {n}").format(n=k + 1)
    c = next((d for d in player.depots if d.id == cid), None)
    depots = {"Coin": _("the Coin depot"), "Servant": _("the Servant depot"), "Shield": _("the Shield depot"),
              "Stone": _("the Stone depot")}
    return depots.get(c.bound, _("the leader's depot")) if c is not None and c.bound else _("the leader's depot")


def why_no_swap(player: PlayerState, a: int, b: int) -> str | None:
    """Why the shelves (or depots) ``a`` and ``b`` cannot swap, in plain words ("2 Coins do not fit
    on shelf 1: it holds 1."); None when their contents would fit each other."""
    boxes = {c.id: c for c in player.depot_like()}
    src, dst = boxes.get(a), boxes.get(b)
    if src is None or dst is None:
        return _("Those two cannot be swapped.")
    for one, other in ((src, dst), (dst, src)):
        n = one.total()
        kinds = sorted(r for r, k in one.content.items() if k)
        name = box_name(player, other.id)
        if other.bound is not None and any(r != other.bound for r in kinds):
            return _cap(_("{box} takes only {resource}.").format(box=name, resource=resource_name(other.bound)))
        if n > other.capacity:
            return _cap(ngettext("{amounts} does not fit on {box}: it holds {capacity}.",
                                 "{amounts} do not fit on {box}: it holds {capacity}.", n).format(
                amounts=_counted(one.content), box=name, capacity=other.capacity))
        if other.kind == SHELF and one.kind != SHELF:   # a depot's content onto a shelf
            twin = next((s for s in player.shelves if s.id not in (a, b) and any(s.content.get(r) for r in kinds)),
                        None)
            if twin is not None:
                res = next(r for r in kinds if twin.content.get(r))
                return _("{resource} are also on {box}: one kind per shelf.").format(
                    resource=resource_name(res), box=box_name(player, twin.id))
    return None


def why_no_move(player: PlayerState, src: int, dst: int, res: str, count: int = 1) -> str:
    """Why ``count`` ``res`` cannot move from ``src`` onto ``dst``, in plain words."""
    boxes = {c.id: c for c in player.depot_like()}
    c = boxes.get(dst)
    if c is None:
        return _("It cannot go there.")
    name = box_name(player, dst)
    if c.bound is not None and c.bound != res:
        return _cap(_("{box} takes only {resource}.").format(box=name, resource=resource_name(c.bound)))
    other = sorted(r for r, k in c.content.items() if k and r != res)
    if other and c.bound is None:
        return _cap(_("{box} holds {resource}: one kind per shelf.").format(box=name, resource=resource_name(other[0])))
    if c.kind == SHELF:
        twin = next((s for s in player.shelves if s.id not in (src, dst) and s.content.get(res)), None)
        if twin is not None:
            return _("{resource} are also on {box}: one kind per shelf.").format(
                resource=resource_name(res), box=box_name(player, twin.id))
        left = boxes[src].content.get(res, 0) - count if src in boxes else 0
        if boxes.get(src) is not None and boxes[src].kind == SHELF and left > 0 and \
                c.total() + count <= c.capacity:   # a part of a shelf: the kind would be on two shelves
            return _("Moving {count} of the {amount} would put {resource} on two shelves (one kind per shelf): "
                     "move them all, or swap the shelves.").format(
                count=count, amount=amount(boxes[src].content.get(res, 0), res), resource=resource_name(res))
    if c.total() + count > c.capacity and count > 1:
        return _("{amount} do not fit on {box}: it holds {capacity}.").format(
            amount=amount(count, res), box=name, capacity=c.capacity)
    return _cap(_("{box} is full: it holds {capacity}.").format(box=name, capacity=c.capacity))


# ---------------------------------------------------------------------------- every refusal
_ACTION = {
    E.LATE_SETUP_ACTION: N_("Your leaders and starting resources are already chosen."),
    E.EARLY_MANDATORY_ACTION: N_("The game has not started yet: it begins once everyone has chosen "
                                 "their leaders and starting resources."),
    E.LATE_MANDATORY_ACTION: N_("You have already taken from the market, bought or produced this turn. "
                                "You can still play or discard a leader, rearrange your shelves, or end your turn."),
    E.EARLY_TURN_END: N_("Take from the market, buy a card or produce before you end your turn."),
    E.GAME_ENDED: N_("The game is over: nothing more can be played."),
    E.NOT_CURRENT_PLAYER: N_("It is not your turn: wait for yours."),
}

_NOT_NOW = N_("That cannot be done now.")

_UNDO = {
    E.UNDO_SETUP: N_("Your leaders and starting resources cannot be taken back."),
    E.UNDO_ENDED: N_("The game is over: nothing can be taken back."),
    E.UNDO_NOT_CURRENT: N_("Only a move of your own, on your turn, can be taken back."),
    E.UNDO_NOTHING: N_("Nothing to take back: you have not moved this turn."),
    E.UNDO_CARD_REVEALED: N_("The card you bought turned up the next card of its deck: the purchase stays."),
    E.UNDO_TOKEN_REVEALED: N_("Lorenzo's token has been turned up: that move stays."),
    E.UNDO_OTHERS_FAITH: N_("What you discarded moved the other players' faith markers: that take stays."),
    E.UNDO_VATICAN_REPORT: N_("A Vatican report has been made: that move stays."),
    E.UNDO_LAST_ROUND: N_("The last round has begun: that move stays."),
    E.UNDO_PLAYER_STATUS: N_("A player left or came back to the table since: that move stays."),
}

_NOT_UNDONE = N_("That move cannot be taken back.")

_NOT_OWNED = {
    "LeaderCard": N_("That leader is not in your hand (or is already in play)."),
    "Shelf": N_("Choose two different shelves of your own warehouse."),
    "ResourceContainer": N_("Pay only from your own shelves, depots and strongbox."),
    "DevSlot": N_("That slot is not on your board: choose one of your three slots."),
    "DevCard": N_("That card is not on your board."),
    "ReducedProductionRequest": N_("That production is not yours to run: choose the base production, "
                                   "your cards' top productions or your leaders'."),
}


_NOT_YOURS = N_("That is not yours to use.")


def _more(res: str, n: int) -> str:
    """"2 more Coins"."""
    return _("{n} more {resource}").format(n=n, resource=resource_name(res, n))


def _missing(fields: Mapping[str, Any]) -> str:
    parts = []
    for e in fields.get("missingDevCards") or ():
        parts.append(cards(int(e.get("quantity", 1)), str(e.get("color", "")), e.get("level"), more=True))
    for res, n in sorted((fields.get("missingResources") or {}).items()):
        parts.append(_more(res, int(n)))
    return joined(parts) if parts else ""


def _transfer(fields: Mapping[str, Any], request: Action | None, player: PlayerState | None) -> str:
    res = str(fields.get("resType") or "")
    kind = resource_name(res) if res else _("that resource")
    reason = fields.get("reason")
    if player is not None and isinstance(request, ReqSwapShelves):
        why = why_no_swap(player, request.shelf1, request.shelf2)
        if why:
            return why
    if player is not None and isinstance(request, ReqMoveResources):
        if not fields.get("isAdded", True):
            return _cap(_("{box} does not hold {amount}.").format(box=box_name(player, request.source),
                                                                  amount=amount(request.count, request.res_type)))
        return why_no_move(player, request.source, request.target, request.res_type, request.count)
    if not fields.get("isAdded", True):
        return _("There are not that many {resource} where you chose to pay from: "
                 "pay from the shelf or the strongbox that holds them.").format(resource=kind)
    if reason == E.NON_STORABLE:
        return _("{resource} cannot be stored: only Coins, Servants, Shields and Stones go on the shelves.").format(
            resource=kind)
    if reason == E.BOUNDED_RESTYPE_DIFFER:
        return _("A leader's depot takes only its own resource: put the {resource} on a shelf instead.").format(
            resource=kind)
    if reason == E.DUPLICATE_BOUNDED_RESOURCE:
        return _("{resource} are already on another shelf: one kind per shelf. Put them with the others, "
                 "or discard them.").format(resource=kind)
    if isinstance(request, ReqTakeFromMarket):
        return _("There is no room for the {resource}: rearrange your shelves first, or discard them.").format(
            resource=kind)
    return _("There is no room for the {resource} there: that shelf is full, or holds another resource.").format(
        resource=kind)


def refusal_words(m: Mapping[str, Any], request: Action | None = None, player: PlayerState | None = None) -> str:
    """A refusal (a protocol ``Err…`` message, or ``GameError.to_dict()``) in a player's words:
    what happened and what the player can do. ``request`` (what was refused) and ``player`` (the
    player's state when it was tried) make them precise when given."""
    t = m.get("type")
    fields = {k: v for k, v in m.items() if k != "type"}
    if t == "ErrAction":
        return _(_ACTION.get(fields.get("reason", ""), _NOT_NOW))
    if t == "ErrUndo":
        return _(_UNDO.get(fields.get("reason", ""), _NOT_UNDONE))
    if t == "ErrResourceTransfer":
        return _transfer(fields, request, player)
    if t == "ErrCardRequirements":
        missing = _missing(fields) or _("more than you have")
        if isinstance(request, ReqBuyDevCard) or not fields.get("missingDevCards") and not isinstance(
                request, ReqLeaderAction):
            return _("You cannot pay for this card: you need {missing}. Choose another card, or gather more "
                     "first.").format(missing=missing)
        return _("You cannot play this leader yet: it needs {missing}. You can keep it for later, or discard "
                 "it.").format(missing=missing)
    if t == "ErrBuyDevCard":
        if fields.get("isStackEmpty"):
            return _("That deck is empty: choose a card from another deck.")
        return _("That card cannot go in that slot: a level-1 card needs an empty slot, and a level-2 or 3 card "
                 "goes on a card one level lower. Choose another slot.")
    if t == "ErrActiveLeaderDiscarded":
        return _("A leader in play stays in play: only a leader still in your hand can be discarded.")
    if t == "ErrObjectNotOwned":
        return _(_NOT_OWNED.get(str(fields.get("objectType")), _NOT_YOURS))
    if t == "ErrNoSuchEntity":
        return _("That is no longer on the table: the board shows the game as it is now, choose again.")
    if t == "ErrReplacedTransRecipe":
        need, got = fields.get("replacedCount"), fields.get("shelvesChoiceResCount")
        res = str(fields.get("resType") or "resource")
        needed = amount(need, res) if isinstance(need, int) else f"{need} {resource_name(res)}"
        if fields.get("isInput"):
            return _("The payment does not add up: {needed} to pay, {got} chosen. Choose what you pay with "
                     "again.").format(needed=needed, got=got)
        if isinstance(request, ReqTakeFromMarket):
            return _("The market gives {needed}, and {got} are placed: place or discard each one.").format(
                needed=needed, got=got)
        if isinstance(request, ReqActivateProductions):
            return _("Choose {needed} to receive: {got} chosen.").format(needed=needed, got=got)
        return _("The count does not match: {needed} expected, {got} chosen. Choose again.").format(
            needed=needed, got=got)
    if t == "ErrInvalidResourceTransaction":
        if fields.get("reason") == E.ILLEGAL_NON_STORABLE or fields.get("reason") == E.ILLEGAL_STORABLE:
            return _("Faith and white marbles cannot be chosen: choose Coins, Servants, Shields or Stones.")
        return _("That choice of resources is not allowed: choose again.")
    if t == "ErrInitialChoice":
        if not fields.get("isLeadersChoice"):
            return _("Your starting resources are already chosen, or are not what your seat receives: choose again.")
        if not fields.get("missingLeadersCount"):
            return _("Your leaders are already chosen.")
        return _("Keep exactly the number of different leaders asked for, from your own hand.")
    if t == "ErrProtocol":
        from game.netcode.protocol import CANNOT_SAVE, CHAT_TOO_FAST
        if fields.get("msg") == CHAT_TOO_FAST:
            return _("You are chatting faster than the server allows: wait a moment.")
        if fields.get("msg") == CANNOT_SAVE:
            return _("The server cannot save the game right now, so that was not played: try again in a moment.")
        if fields.get("say"):          # words the server wrote (a limit): said in the player's language
            return server_said(fields, fields.get("msg") or "")
        return _("The server could not read that request: try again; if it keeps happening, leave and rejoin "
                 "the game.")
    return _("That was refused: the board shows the game as it is now.")


def words_for(err: E.GameError, request: Action | None = None, player: PlayerState | None = None) -> str:
    """:func:`refusal_words` for a refusal raised by the engine; the engine's own words go to the log."""
    log.info("refused %r: %s", request, err.describe())
    return refusal_words(err.to_dict(), request, player)


def leader_missing_words(game: Any, player: PlayerState, lid: int) -> str:
    """Why a leader cannot be played yet, in words ("Needs 5 Stones (you have 1)")."""
    leader = game.config.leaders[lid]
    missing_cards, res = game.missing_requirements(player, leader)
    totals = player.resource_totals()
    parts = [_("{amount} (you have {have})").format(amount=amount(leader.requires_resources[r], r),
                                                    have=totals.get(r, 0)) for r in sorted(res)]
    for c in missing_cards:
        parts.append(cards(c["quantity"], c["color"], c["level"], more=True))
    return _("Needs {what}").format(what="; ".join(parts)) if parts else _("You do not have what it asks for yet")


def describe_error(m: Mapping[str, Any]) -> str:
    """A refusal from the engine or the server, in the engine's words (for the log file; the
    player reads :func:`refusal_words`)."""
    t = m.get("type")
    if t == "ErrProtocol":
        from game.netcode.protocol import CHAT_TOO_FAST
        if m.get("msg") == CHAT_TOO_FAST:
            return "You are chatting faster than the server allows; wait a moment."
        return f"The server did not understand the request ({m.get('msg', '')})."
    cls = next((c for c in vars(E).values() if isinstance(c, type) and issubclass(c, E.GameError)
                and getattr(c, "TYPE", None) == t), None)
    if cls is None:
        return f"Refused: {t}."
    err = cls.__new__(cls)
    err.fields = {k: v for k, v in m.items() if k != "type"}
    try:
        return err.describe()
    except (KeyError, TypeError):
        return f"Refused: {t}."
