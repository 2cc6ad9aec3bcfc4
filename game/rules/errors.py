"""Typed refusals of the rules engine.

Every refusal is a :class:`GameError` subclass whose fields are exactly those of the matching
protocol error of seed document 002 (as the reference server puts them on the wire), so
``err.to_dict()`` *is* the message sent to the client. A refused request changes nothing.

A request that is not even well-formed (wrong types, missing fields) raises
:class:`MalformedRequest`; the wire layer turns it into ``ErrProtocol``.
"""
from __future__ import annotations

from typing import Any, ClassVar


class GameError(Exception):
    """Base of every refusal. ``TYPE`` is the protocol message type."""

    TYPE: ClassVar[str] = "GameError"
    __slots__ = ("fields",)

    def __init__(self, **fields: Any) -> None:
        self.fields = fields
        super().__init__(self.describe())

    def to_dict(self) -> dict[str, Any]:
        """The protocol message: fields whose value is None are left out, ``type`` comes last."""
        out = {k: v for k, v in self.fields.items() if v is not None}
        out["type"] = self.TYPE
        return out

    def describe(self) -> str:
        """A sentence a player can read."""
        return f"{self.TYPE} {self.fields}"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.fields == self.fields  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.TYPE, tuple(sorted(self.fields.items(), key=str))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self):
        """Pickled by its fields (the subclasses' constructors take other names), so a refusal
        raised in a worker process comes back whole instead of breaking the pool."""
        return (_rebuild, (type(self), self.fields))


def _rebuild(cls: type[GameError], fields: dict[str, Any]) -> GameError:
    err = cls.__new__(cls)
    err.fields = dict(fields)
    Exception.__init__(err, err.describe())
    return err


class MalformedRequest(ValueError):
    """The request is not well-formed; ``msg`` is one of the protocol's fixed ErrProtocol texts."""

    INVALID_TYPES = "Invalid attribute types."

    def __init__(self, msg: str = INVALID_TYPES, detail: str = "") -> None:
        self.msg = msg
        self.detail = detail
        super().__init__(f"{msg} {detail}".strip())


# ErrAction reasons
LATE_SETUP_ACTION = "LATE_SETUP_ACTION"
EARLY_MANDATORY_ACTION = "EARLY_MANDATORY_ACTION"
LATE_MANDATORY_ACTION = "LATE_MANDATORY_ACTION"
EARLY_TURN_END = "EARLY_TURN_END"
GAME_ENDED = "GAME_ENDED"
NOT_CURRENT_PLAYER = "NOT_CURRENT_PLAYER"

_ACTION_TEXT = {
    LATE_SETUP_ACTION: "the setup is already over",
    EARLY_MANDATORY_ACTION: "the game has not started yet: finish the setup first",
    LATE_MANDATORY_ACTION: "you have already done your main action this turn",
    EARLY_TURN_END: "you must take from the market, buy a card or produce before ending your turn",
    GAME_ENDED: "the game is over",
    NOT_CURRENT_PLAYER: "it is not your turn",
}


class ErrAction(GameError):
    TYPE = "ErrAction"

    def __init__(self, reason: str) -> None:
        super().__init__(reason=reason)

    def describe(self) -> str:
        return _ACTION_TEXT.get(self.fields["reason"], self.fields["reason"]).capitalize() + "."


class ErrNoSuchEntity(GameError):
    """originalEntity: MARKET_INDEX, LEADER, DEVCARD, COLOR, RESOURCE (+ ours: CONTAINER, PRODUCTION, SLOT, LEVEL)."""

    TYPE = "ErrNoSuchEntity"

    def __init__(self, original_entity: str, id: int | None = None, code: str | None = None) -> None:
        super().__init__(originalEntity=original_entity, id=id if id is not None else -1, code=code)

    def describe(self) -> str:
        what = self.fields["originalEntity"].lower().replace("_", " ")
        code = self.fields.get("code")
        return f"There is no {what} {code if code is not None else self.fields['id']}."


class ErrObjectNotOwned(GameError):
    """objectType: LeaderCard, ResourceContainer, Shelf, ReducedProductionRequest, DevCard."""

    TYPE = "ErrObjectNotOwned"

    def __init__(self, id: int, object_type: str) -> None:
        super().__init__(id=id, objectType=object_type)

    def describe(self) -> str:
        return f"{self.fields['objectType']} {self.fields['id']} is not yours to use here."


class ErrInitialChoice(GameError):
    TYPE = "ErrInitialChoice"

    def __init__(self, is_leaders_choice: bool, missing_leaders_count: int = 0) -> None:
        super().__init__(isLeadersChoice=is_leaders_choice, missingLeadersCount=missing_leaders_count)

    def describe(self) -> str:
        if not self.fields["isLeadersChoice"]:
            return "The starting resources were already chosen or do not match what your seat receives."
        n = self.fields["missingLeadersCount"]
        if n == 0:
            return "You have already chosen your leaders."
        return f"Choose exactly the required number of different leaders from your hand ({n:+d} off)."


# ErrResourceTransfer reasons
BOUNDED_RESTYPE_DIFFER = "BOUNDED_RESTYPE_DIFFER"
NON_STORABLE = "NON_STORABLE"
CAPACITY_REACHED = "CAPACITY_REACHED"
DUPLICATE_BOUNDED_RESOURCE = "DUPLICATE_BOUNDED_RESOURCE"

_TRANSFER_TEXT = {
    BOUNDED_RESTYPE_DIFFER: "that depot holds another resource",
    NON_STORABLE: "it cannot be stored",
    CAPACITY_REACHED: "the depot is full (or holds too few)",
    DUPLICATE_BOUNDED_RESOURCE: "another shelf of the warehouse already holds it",
}


class ErrResourceTransfer(GameError):
    TYPE = "ErrResourceTransfer"

    def __init__(self, res_type: str, is_added: bool, reason: str) -> None:
        super().__init__(resType=res_type, isAdded=is_added, reason=reason)

    def describe(self) -> str:
        verb = "add" if self.fields["isAdded"] else "take"
        return f"Cannot {verb} {self.fields['resType']}: {_TRANSFER_TEXT.get(self.fields['reason'], self.fields['reason'])}."


class ErrCardRequirements(GameError):
    """missingDevCards: [{color, quantity, level}] (level 0 = any); missingResources: {Res: n}."""

    TYPE = "ErrCardRequirements"

    def __init__(self, missing_dev_cards: list | None = None, missing_resources: dict | None = None) -> None:
        super().__init__(missingDevCards=missing_dev_cards or None, missingResources=missing_resources or None)

    def describe(self) -> str:
        parts = []
        for e in self.fields.get("missingDevCards") or ():
            lvl = f" level {e['level']}" if e["level"] else ""
            parts.append(f"{e['quantity']} more {e['color']}{lvl} card(s)")
        for res, n in (self.fields.get("missingResources") or {}).items():
            parts.append(f"{n} more {res}")
        return "Requirements not met: missing " + ", ".join(parts) + "."


class ErrBuyDevCard(GameError):
    TYPE = "ErrBuyDevCard"

    def __init__(self, is_stack_empty: bool) -> None:
        super().__init__(isStackEmpty=is_stack_empty)

    def describe(self) -> str:
        if self.fields["isStackEmpty"]:
            return "That deck is empty."
        return "That card cannot go in that slot (level 1 needs an empty slot, level N goes on a level N-1 card)."


class ErrReplacedTransRecipe(GameError):
    TYPE = "ErrReplacedTransRecipe"

    def __init__(self, is_input: bool, res_type: str, replaced_count: int, shelves_choice_res_count: int,
                 is_illegal_discarded_out: bool = False) -> None:
        super().__init__(isInput=is_input, resType=res_type, replacedCount=replaced_count,
                         shelvesChoiceResCount=shelves_choice_res_count,
                         isIllegalDiscardedOut=is_illegal_discarded_out)

    def describe(self) -> str:
        side = "paid" if self.fields["isInput"] else "placed"
        res = self.fields["resType"] or "resources"
        return (f"{self.fields['shelvesChoiceResCount']} {res} {side}, but the action has "
                f"{self.fields['replacedCount']}.")


# ErrInvalidResourceTransaction reasons
NEGATIVE_VALUES = "NEGATIVE_VALUES"
ILLEGAL_STORABLE = "ILLEGAL_STORABLE"
ILLEGAL_NON_STORABLE = "ILLEGAL_NON_STORABLE"
EXCLUDED = "EXCLUDED"


class ErrInvalidResourceTransaction(GameError):
    TYPE = "ErrInvalidResourceTransaction"

    def __init__(self, is_input: bool, is_replacement: bool, reason: str) -> None:
        super().__init__(isInput=is_input, isReplacement=is_replacement, reason=reason)

    def describe(self) -> str:
        where = "replacements" if self.fields["isReplacement"] else "containers"
        side = "input" if self.fields["isInput"] else "output"
        text = {NEGATIVE_VALUES: "negative amounts", ILLEGAL_STORABLE: "a resource where only non-storable ones are allowed",
                ILLEGAL_NON_STORABLE: "Faith or a white marble where a resource is needed",
                EXCLUDED: "a resource that is not allowed there"}.get(self.fields["reason"], self.fields["reason"])
        return f"The {side} {where} contain {text}."


class ErrActiveLeaderDiscarded(GameError):
    TYPE = "ErrActiveLeaderDiscarded"

    def __init__(self) -> None:
        super().__init__()

    def describe(self) -> str:
        return "An active leader cannot be discarded."


# ErrUndo reasons (our extension: undo is not part of the reference protocol)
UNDO_SETUP = "SETUP"
UNDO_ENDED = "GAME_ENDED"
UNDO_NOT_CURRENT = "NOT_CURRENT_PLAYER"
UNDO_NOTHING = "NOTHING_TO_UNDO"
UNDO_CARD_REVEALED = "CARD_REVEALED"
UNDO_TOKEN_REVEALED = "TOKEN_REVEALED"
UNDO_OTHERS_FAITH = "OTHERS_FAITH"
UNDO_VATICAN_REPORT = "VATICAN_REPORT"
UNDO_LAST_ROUND = "LAST_ROUND"
UNDO_PLAYER_STATUS = "PLAYER_STATUS"

_UNDO_TEXT = {
    UNDO_SETUP: "the setup choices cannot be taken back",
    UNDO_ENDED: "the game is over",
    UNDO_NOT_CURRENT: "only the player whose turn it is can take back a move",
    UNDO_NOTHING: "there is nothing to take back this turn",
    UNDO_CARD_REVEALED: "buying the card revealed the next card of its deck",
    UNDO_TOKEN_REVEALED: "ending the turn revealed Lorenzo's action token",
    UNDO_OTHERS_FAITH: "the discarded resources moved the other players' faith markers",
    UNDO_VATICAN_REPORT: "a Vatican report has been made",
    UNDO_LAST_ROUND: "the last round has begun",
    UNDO_PLAYER_STATUS: "a player left or came back to the table since",
}


class ErrUndo(GameError):
    """An undo refused (our extension); ``reason`` is one of the ``UNDO_*`` codes."""

    TYPE = "ErrUndo"

    def __init__(self, reason: str) -> None:
        super().__init__(reason=reason)

    def describe(self) -> str:
        return "Nothing was taken back: " + _UNDO_TEXT.get(self.fields["reason"], self.fields["reason"]) + "."
