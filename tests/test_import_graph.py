"""game/ imports without a circle: a module's imports at its top tell what it depends on. The
graph holds every import (deferred ones inside functions included; those under ``if
TYPE_CHECKING:`` are for the type checker only and left out); ``from package import module``
depends on the module, not on the package's ``__init__``."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
def modules(root: Path) -> dict[str, Path]:
    out = {}
    for path in (root / "game").rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    mods = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for sub in node.body for n in ast.walk(sub)}
        deps: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                deps |= {f"{module}.{a.name}" if f"{module}.{a.name}" in mods else module for a in node.names}
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_game_imports_in_no_circle():
    graph = import_graph(ROOT)
    assert cycles(graph) == []


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_graph_holds_deferred_imports_and_not_typing_ones(tmp_path):
    (tmp_path / "game" / "p").mkdir(parents=True)
    (tmp_path / "game" / "__init__.py").write_text("")
    (tmp_path / "game" / "p" / "__init__.py").write_text("")
    (tmp_path / "game" / "p" / "a.py").write_text("def f():\n    from . import b\n")
    (tmp_path / "game" / "p" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                  "    from game.p import a\n")
    graph = import_graph(tmp_path)
    assert graph["game.p.a"] == {"game.p.b"} and graph["game.p.b"] == set()


def test_no_scene_module_imports_another():
    """The screens the launcher registers (game/scenes/catalog.py) ask for each other by name: none
    imports another (the replay's board subclassed the game's board; both now share a leaf)."""
    catalog = ast.parse((ROOT / "game" / "scenes" / "catalog.py").read_text(encoding="utf-8"))
    scenes = {f"game.scenes.{a.name}" for node in ast.walk(catalog) if isinstance(node, ast.ImportFrom)
              and node.level == 1 and node.module is None for a in node.names if a.name != "registry"}
    assert {"game.scenes.board", "game.scenes.replay", "game.scenes.menus"} <= scenes
    graph = import_graph(ROOT)
    crossing = {name: sorted(graph[name] & scenes) for name in sorted(scenes) if graph[name] & scenes}
    assert crossing == {}
