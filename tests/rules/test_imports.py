"""The rules engine's modules import one another without a cycle, counting every import: those
at the top, those inside functions and those under ``TYPE_CHECKING`` (an import moved into a
function still means one module depends on the other, and only hides the cycle from Python)."""
from __future__ import annotations

import ast
from pathlib import Path

import game.rules

RULES = Path(game.rules.__file__).parent
PACKAGE = "game.rules"


def imports_of(path: Path) -> set[str]:
    """The modules of game/rules that ``path`` imports anywhere in its text (``__init__`` aside)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:   # relative: ``from .x import y`` or ``from . import x``
                base = f"{PACKAGE}.{base}" if base else PACKAGE
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out.update(n.removeprefix(PACKAGE + ".") for n in names if n.startswith(PACKAGE + "."))
    modules = {p.stem for p in RULES.glob("*.py")} - {"__init__"}
    return {m.split(".")[0] for m in out} & modules - {path.stem}


def graph() -> dict[str, set[str]]:
    return {p.stem: imports_of(p) for p in sorted(RULES.glob("*.py")) if p.stem != "__init__"}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``edges`` as a path that returns to its start, or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_rules_modules_import_one_another_without_a_cycle():
    edges = graph()
    assert {"engine", "choices", "views", "shadow", "state"} <= set(edges)
    found = cycle(edges)
    assert found is None, "import cycle: " + " -> ".join(found)


def test_the_walk_sees_deferred_imports_and_finds_their_cycles(tmp_path):
    hidden = tmp_path / "a.py"
    hidden.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .engine import Game\n"
                      "def f():\n    from game.rules import views\n    from .state import PLAY\n")
    assert imports_of(hidden) == {"engine", "views", "state"}
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_engine_depends_on_views_and_the_others_on_the_engine():
    """The direction the cycles were broken in: undo's views need views, the shadow game and the
    choices need a Game; the phases live in state, which needs nothing of the engine."""
    edges = graph()
    assert "views" in edges["engine"]
    assert {"engine", "views"} <= edges["shadow"]
    assert "engine" in edges["choices"]
    assert edges["state"] == set()
