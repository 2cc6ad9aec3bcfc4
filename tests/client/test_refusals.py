"""Every refusal of the rules engine or the server has words of the player's: what happened and
what to do (:mod:`game.client.refusals`), never the engine's own text. The board shows them
through the frame loop: tests/scenes/test_walk_plan.py (a shelf) and test_walk_board.py (a leader).
"""
from __future__ import annotations

import pytest

from game.rules import errors as E
from game.client.refusals import refusal_words

ENGINE_WORDS = ("Cannot add", "Cannot take", "depot is full", "Requirements not met", "(s)", "Err")

SAMPLES = [E.ErrAction(r) for r in (E.LATE_SETUP_ACTION, E.EARLY_MANDATORY_ACTION, E.LATE_MANDATORY_ACTION,
                                    E.EARLY_TURN_END, E.GAME_ENDED, E.NOT_CURRENT_PLAYER)] + [
    E.ErrUndo(r) for r in (E.UNDO_SETUP, E.UNDO_NOTHING, E.UNDO_CARD_REVEALED, E.UNDO_VATICAN_REPORT)] + [
    E.ErrResourceTransfer("Stone", True, r) for r in (E.CAPACITY_REACHED, E.BOUNDED_RESTYPE_DIFFER,
                                                      E.DUPLICATE_BOUNDED_RESOURCE, E.NON_STORABLE)] + [
    E.ErrResourceTransfer("Coin", False, E.CAPACITY_REACHED),
    E.ErrCardRequirements([{"color": "Green", "quantity": 2, "level": 0}], {"Stone": 5}),
    E.ErrCardRequirements(None, {"Coin": 2}),
    E.ErrBuyDevCard(True), E.ErrBuyDevCard(False), E.ErrActiveLeaderDiscarded(),
    E.ErrObjectNotOwned(3, "LeaderCard"), E.ErrObjectNotOwned(9, "DevSlot"), E.ErrNoSuchEntity("MARKET_INDEX", 9),
    E.ErrReplacedTransRecipe(True, "Coin", 2, 1), E.ErrReplacedTransRecipe(False, "", 2, 1),
    E.ErrInvalidResourceTransaction(True, True, E.ILLEGAL_STORABLE), E.ErrInitialChoice(True, 1)]


@pytest.mark.parametrize("err", SAMPLES, ids=lambda e: f"{e.TYPE}-{'-'.join(map(str, e.fields.values()))}")
def test_every_refusal_has_words_of_its_own(err):
    """Every refusal the engine can give reads as a sentence of the player's, never the engine's."""
    words = refusal_words(err.to_dict())
    assert words != err.describe() and words[0].isupper() and words.endswith("."), words
    assert not any(w in words for w in ENGINE_WORDS), words
