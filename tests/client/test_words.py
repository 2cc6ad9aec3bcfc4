"""The player-facing words every front end shares (game/client/words.py), and the rule that the
client's logic never needs pygame."""
from __future__ import annotations

from support.imports import forbidden_imports

from game.client.words import amount, amounts, joined, leader_words


def test_names_are_joined_as_a_sentence():
    assert joined(["Ada"]) == "Ada"
    assert joined(["Ada", "Bea"]) == "Ada and Bea"
    assert joined(["Ada", "Bea", "Cosimo"]) == "Ada, Bea and Cosimo"


def test_a_leader_is_named_with_its_ability_requirement_and_points():
    depot = {"leaderType": "DEPOT", "resourceType": "Coin", "victoryPoints": 3,
             "resourceRequirement": {"requirements": {"Shield": 5}}}
    assert leader_words(depot, {}) == ("Steward of Coin", "An extra depot that holds up to 2 Coins, besides your warehouse.",
                                       "To play it you need 5 Shields.", 3)
    discount = {"leaderType": "DISCOUNT", "resourceType": "Stone", "victoryPoints": 2, "discount": 1,
                "devCardRequirement": {"entries": [{"color": "YELLOW", "quantity": 1},
                                                   {"color": "GREEN", "quantity": 2, "level": 2}]}}
    name, ability, need, vp = leader_words(discount, {})
    assert (name, vp) == ("Patron of Stone", 2)
    assert ability == "Every development card you buy costs 1 Stone less."
    assert need == "To play it you need 1 yellow card and 2 level-2 green cards."


def test_the_client_never_imports_pygame():
    """game/client/ is for every front end (the text client too): no module imports pygame,
    at its top, inside a function or for the type checker."""
    assert forbidden_imports(importers=("game.client",), forbidden=("pygame", "pygame_gui", "game.scenes")) == []


def test_amounts_are_worded_in_the_plural_when_not_one():
    """QA: "2 Shield". One helper words every amount: the plural when the number is not one,
    Faith the same for any number, a change with its sign."""
    assert [amount(n, "Shield") for n in (0, 1, 2)] == ["0 Shields", "1 Shield", "2 Shields"]
    assert amount(3, "Faith") == "3 Faith" and amount(2, "resource") == "2 resources"
    assert amount(-1, "Coin", signed=True) == "−1 Coin" and amount(2, "Servant", signed=True) == "+2 Servants"
    assert amounts({"Stone": 3, "Coin": 1, "Faith": 2, "Shield": 0}) == "1 Coin, 2 Faith, 3 Stones"
    assert amounts({}) == "nothing" and amounts({}, "free") == "free"
