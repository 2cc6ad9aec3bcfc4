"""Every refusal survives pickling (a bot's search in a worker process may raise one)."""
from __future__ import annotations

import pickle

import game.rules.errors as errors
from game.rules.errors import GameError


def _samples() -> list[GameError]:
    return [errors.ErrAction(errors.LATE_SETUP_ACTION),
            errors.ErrNoSuchEntity("card", id=7),
            errors.ErrObjectNotOwned(12, "leader"),
            errors.ErrInitialChoice(True, 1),
            errors.ErrResourceTransfer("Coin", True, "BOUNDED_RESTYPE_DIFFER"),
            errors.ErrCardRequirements(missing_resources={"Coin": 2}),
            errors.ErrBuyDevCard(True),
            errors.ErrActiveLeaderDiscarded(),
            errors.ErrUndo("NOTHING_TO_UNDO")]


def test_every_kind_of_refusal_comes_back_equal_from_a_pickle():
    kinds = {cls for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, GameError)}
    seen = set()
    for err in _samples():
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and back == err
        assert back.to_dict() == err.to_dict() and str(back) == str(err)
        seen.add(type(err))
    assert len(seen) >= 9 and seen <= kinds
