"""The rules engine's modules import one another without a cycle, counting every import (the one
policy of tests/support/imports.py): those at the top, those inside functions and those under
``TYPE_CHECKING`` (an import moved into a function still means one module depends on the other,
and only hides the cycle from Python)."""
from __future__ import annotations

from support.imports import cycles, import_graph

PACKAGE = "game.rules"


def graph() -> dict[str, set[str]]:
    """The rules' modules (``__init__`` aside) by their short name -> those of them each imports."""
    inside = {name: deps for name, deps in import_graph().items() if name.startswith(PACKAGE + ".")}
    short = lambda name: name.removeprefix(PACKAGE + ".")   # noqa: E731
    return {short(name): {short(d) for d in deps if d in inside} for name, deps in inside.items()}


def test_the_rules_modules_import_one_another_without_a_cycle():
    edges = graph()
    assert {"engine", "choices", "views", "shadow", "state"} <= set(edges)
    assert cycles(edges) == []


def test_the_engine_depends_on_views_and_the_others_on_the_engine():
    """The direction the cycles were broken in: undo's views need views, the shadow game and the
    choices need a Game; the phases live in state, which needs nothing of the engine."""
    edges = graph()
    assert "views" in edges["engine"]
    assert {"engine", "views"} <= edges["shadow"]
    assert "engine" in edges["choices"]
    assert edges["state"] == set()
