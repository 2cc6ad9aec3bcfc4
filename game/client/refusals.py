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

from game.rules import errors as E
from game.rules.actions import (Action, ReqActivateProductions, ReqBuyDevCard, ReqLeaderAction, ReqMoveResources,
                                ReqSwapShelves, ReqTakeFromMarket)
from game.rules.state import SHELF, PlayerState

from .words import amount, amounts

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
            return f"shelf {k + 1}"
    c = next((d for d in player.depots if d.id == cid), None)
    return f"the {c.bound} depot" if c is not None and c.bound else "the leader's depot"


def why_no_swap(player: PlayerState, a: int, b: int) -> str | None:
    """Why the shelves (or depots) ``a`` and ``b`` cannot swap, in plain words ("2 Coins do not fit
    on shelf 1: it holds 1."); None when their contents would fit each other."""
    boxes = {c.id: c for c in player.depot_like()}
    src, dst = boxes.get(a), boxes.get(b)
    if src is None or dst is None:
        return "Those two cannot be swapped."
    for one, other in ((src, dst), (dst, src)):
        n = one.total()
        kinds = sorted(r for r, k in one.content.items() if k)
        name = box_name(player, other.id)
        if other.bound is not None and any(r != other.bound for r in kinds):
            return f"{_cap(name)} takes only {other.bound}."
        if n > other.capacity:
            return f"{_counted(one.content)} {'do' if n > 1 else 'does'} not fit on {name}: it holds {other.capacity}."
        if other.kind == SHELF and one.kind != SHELF:   # a depot's content onto a shelf
            twin = next((s for s in player.shelves if s.id not in (a, b) and any(s.content.get(r) for r in kinds)),
                        None)
            if twin is not None:
                res = next(r for r in kinds if twin.content.get(r))
                return f"{res} is also on {box_name(player, twin.id)}: one kind per shelf."
    return None


def why_no_move(player: PlayerState, src: int, dst: int, res: str, count: int = 1) -> str:
    """Why ``count`` ``res`` cannot move from ``src`` onto ``dst``, in plain words."""
    boxes = {c.id: c for c in player.depot_like()}
    c = boxes.get(dst)
    if c is None:
        return "It cannot go there."
    name = _cap(box_name(player, dst))
    if c.bound is not None and c.bound != res:
        return f"{name} takes only {c.bound}."
    other = sorted(r for r, k in c.content.items() if k and r != res)
    if other and c.bound is None:
        return f"{name} holds {other[0]}: one kind per shelf."
    if c.kind == SHELF:
        twin = next((s for s in player.shelves if s.id not in (src, dst) and s.content.get(res)), None)
        if twin is not None:
            return f"{res} is also on {box_name(player, twin.id)}: one kind per shelf."
        left = boxes[src].content.get(res, 0) - count if src in boxes else 0
        if boxes.get(src) is not None and boxes[src].kind == SHELF and left > 0 and \
                c.total() + count <= c.capacity:   # a part of a shelf: the kind would be on two shelves
            return (f"Moving {count} of the {amount(boxes[src].content.get(res, 0), res)} would put {res} on two "
                    f"shelves (one kind per shelf): move them all, or swap the shelves.")
    if c.total() + count > c.capacity and count > 1:
        return f"{amount(count, res)} do not fit on {box_name(player, dst)}: it holds {c.capacity}."
    return f"{name} is full: it holds {c.capacity}."


# ---------------------------------------------------------------------------- every refusal
_ACTION = {
    E.LATE_SETUP_ACTION: "Your leaders and starting resources are already chosen.",
    E.EARLY_MANDATORY_ACTION: "The game has not started yet: it begins once everyone has chosen "
                              "their leaders and starting resources.",
    E.LATE_MANDATORY_ACTION: "You have already taken from the market, bought or produced this turn. "
                             "You can still play or discard a leader, rearrange your shelves, or end your turn.",
    E.EARLY_TURN_END: "Take from the market, buy a card or produce before you end your turn.",
    E.GAME_ENDED: "The game is over: nothing more can be played.",
    E.NOT_CURRENT_PLAYER: "It is not your turn: wait for yours.",
}

_UNDO = {
    E.UNDO_SETUP: "Your leaders and starting resources cannot be taken back.",
    E.UNDO_ENDED: "The game is over: nothing can be taken back.",
    E.UNDO_NOT_CURRENT: "Only a move of your own, on your turn, can be taken back.",
    E.UNDO_NOTHING: "Nothing to take back: you have not moved this turn.",
    E.UNDO_CARD_REVEALED: "The card you bought turned up the next card of its deck: the purchase stays.",
    E.UNDO_TOKEN_REVEALED: "Lorenzo's token has been turned up: that move stays.",
    E.UNDO_OTHERS_FAITH: "What you discarded moved the other players' faith markers: that take stays.",
    E.UNDO_VATICAN_REPORT: "A Vatican report has been made: that move stays.",
    E.UNDO_LAST_ROUND: "The last round has begun: that move stays.",
    E.UNDO_PLAYER_STATUS: "A player left or came back to the table since: that move stays.",
}

_NOT_OWNED = {
    "LeaderCard": "That leader is not in your hand (or is already in play).",
    "Shelf": "Choose two different shelves of your own warehouse.",
    "ResourceContainer": "Pay only from your own shelves, depots and strongbox.",
    "DevSlot": "That slot is not on your board: choose one of your three slots.",
    "DevCard": "That card is not on your board.",
    "ReducedProductionRequest": "That production is not yours to run: choose the base production, "
                                "your cards' top productions or your leaders'.",
}


def _missing(fields: Mapping[str, Any]) -> str:
    parts = []
    for e in fields.get("missingDevCards") or ():
        n = int(e.get("quantity", 1))
        level = f"level-{e['level']} " if e.get("level") else ""
        parts.append(f"{n} more {level}{str(e.get('color', '')).lower()} card{'s' * (n > 1)}")
    for res, n in sorted((fields.get("missingResources") or {}).items()):
        parts.append(f"{n} more {res}")
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def _transfer(fields: Mapping[str, Any], request: Action | None, player: PlayerState | None) -> str:
    res = str(fields.get("resType") or "that resource")
    reason = fields.get("reason")
    if player is not None and isinstance(request, ReqSwapShelves):
        why = why_no_swap(player, request.shelf1, request.shelf2)
        if why:
            return why
    if player is not None and isinstance(request, ReqMoveResources):
        if not fields.get("isAdded", True):
            return f"{_cap(box_name(player, request.source))} does not hold {amount(request.count, request.res_type)}."
        return why_no_move(player, request.source, request.target, request.res_type, request.count)
    if not fields.get("isAdded", True):
        return (f"There is not that much {res} where you chose to pay it from: "
                f"pay it from the shelf or the strongbox that holds it.")
    if reason == E.NON_STORABLE:
        return f"{res} cannot be stored: only Coin, Servant, Shield and Stone go on the shelves."
    if reason == E.BOUNDED_RESTYPE_DIFFER:
        return f"A leader's depot takes only its own resource: put the {res} on a shelf instead."
    if reason == E.DUPLICATE_BOUNDED_RESOURCE:
        return f"{res} is already on another shelf: one kind per shelf. Put it with the other {res}, or discard it."
    if isinstance(request, ReqTakeFromMarket):
        return f"There is no room for the {res}: rearrange your shelves first, or discard it."
    return f"There is no room for the {res} there: that shelf is full, or holds another resource."


def refusal_words(m: Mapping[str, Any], request: Action | None = None, player: PlayerState | None = None) -> str:
    """A refusal (a protocol ``Err…`` message, or ``GameError.to_dict()``) in a player's words:
    what happened and what the player can do. ``request`` (what was refused) and ``player`` (the
    player's state when it was tried) make them precise when given."""
    t = m.get("type")
    fields = {k: v for k, v in m.items() if k != "type"}
    if t == "ErrAction":
        return _ACTION.get(fields.get("reason", ""), "That cannot be done now.")
    if t == "ErrUndo":
        return _UNDO.get(fields.get("reason", ""), "That move cannot be taken back.")
    if t == "ErrResourceTransfer":
        return _transfer(fields, request, player)
    if t == "ErrCardRequirements":
        missing = _missing(fields) or "more than you have"
        if isinstance(request, ReqBuyDevCard) or not fields.get("missingDevCards") and not isinstance(
                request, ReqLeaderAction):
            return f"You cannot pay for this card: you need {missing}. Choose another card, or gather more first."
        return f"You cannot play this leader yet: it needs {missing}. You can keep it for later, or discard it."
    if t == "ErrBuyDevCard":
        if fields.get("isStackEmpty"):
            return "That deck is empty: choose a card from another deck."
        return ("That card cannot go in that slot: a level-1 card needs an empty slot, and a level-2 or 3 card "
                "goes on a card one level lower. Choose another slot.")
    if t == "ErrActiveLeaderDiscarded":
        return "A leader in play stays in play: only a leader still in your hand can be discarded."
    if t == "ErrObjectNotOwned":
        return _NOT_OWNED.get(str(fields.get("objectType")), "That is not yours to use.")
    if t == "ErrNoSuchEntity":
        return "That is no longer on the table: the board shows the game as it is now, choose again."
    if t == "ErrReplacedTransRecipe":
        need, got = fields.get("replacedCount"), fields.get("shelvesChoiceResCount")
        res = str(fields.get("resType") or "resource")
        needed = amount(need, res) if isinstance(need, int) else f"{need} {res}"
        if fields.get("isInput"):
            return f"The payment does not add up: {needed} to pay, {got} chosen. Choose what you pay with again."
        if isinstance(request, ReqTakeFromMarket):
            return f"The market gives {needed}, and {got} are placed: place or discard each one."
        if isinstance(request, ReqActivateProductions):
            return f"Choose {needed} to receive: {got} chosen."
        return f"The count does not match: {needed} expected, {got} chosen. Choose again."
    if t == "ErrInvalidResourceTransaction":
        if fields.get("reason") == E.ILLEGAL_NON_STORABLE or fields.get("reason") == E.ILLEGAL_STORABLE:
            return "Faith and white marbles cannot be chosen: choose Coin, Servant, Shield or Stone."
        return "That choice of resources is not allowed: choose again."
    if t == "ErrInitialChoice":
        if not fields.get("isLeadersChoice"):
            return "Your starting resources are already chosen, or are not what your seat receives: choose again."
        if not fields.get("missingLeadersCount"):
            return "Your leaders are already chosen."
        return "Keep exactly the number of different leaders asked for, from your own hand."
    if t == "ErrProtocol":
        from game.netcode.protocol import CANNOT_SAVE, CHAT_TOO_FAST
        if fields.get("msg") == CHAT_TOO_FAST:
            return "You are chatting faster than the server allows: wait a moment."
        if fields.get("msg") == CANNOT_SAVE:
            return "The server cannot save the game right now, so that was not played: try again in a moment."
        return "The server could not read that request: try again; if it keeps happening, leave and rejoin the game."
    return "That was refused: the board shows the game as it is now."


def words_for(err: E.GameError, request: Action | None = None, player: PlayerState | None = None) -> str:
    """:func:`refusal_words` for a refusal raised by the engine; the engine's own words go to the log."""
    log.info("refused %r: %s", request, err.describe())
    return refusal_words(err.to_dict(), request, player)


def leader_missing_words(game: Any, player: PlayerState, lid: int) -> str:
    """Why a leader cannot be played yet, in words ("Needs 5 Stones (you have 1)")."""
    leader = game.config.leaders[lid]
    cards, res = game.missing_requirements(player, leader)
    totals = player.resource_totals()
    parts = [f"{amount(leader.requires_resources[r], r)} (you have {totals.get(r, 0)})" for r in sorted(res)]
    for c in cards:
        level = f"level {c['level']} " if c["level"] else ""
        parts.append(f"{c['quantity']} more {level}{c['color'].lower()} card{'s' * (c['quantity'] > 1)}")
    return "Needs " + "; ".join(parts) if parts else "You do not have what it asks for yet"


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
