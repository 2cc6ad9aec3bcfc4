"""game/ imports without a circle and its layers point one way, by the one policy and the one
scanner of tests/support/imports.py: every import counts (deferred ones inside functions and
type-only ones under ``if TYPE_CHECKING:`` too)."""
from __future__ import annotations

from support.imports import (KNOWN_CIRCLES, LAYERS, ROOT, arrows_up, cycles, import_graph, imports_in,
                             modules, within)


def test_game_imports_in_no_circle():
    """No circle but the known ones, each exactly as listed (a known circle broken is taken off
    the list, so it cannot come back unnoticed)."""
    found = {frozenset(c) for c in cycles(import_graph())}
    assert sorted(map(sorted, found - set(KNOWN_CIRCLES))) == [], "new import circle"
    assert sorted(map(sorted, set(KNOWN_CIRCLES) - found)) == [], \
        "a known circle changed or is gone: update KNOWN_CIRCLES in tests/support/imports.py"


def test_the_layers_point_one_way():
    assert {group for rank in LAYERS for group in rank} <= set(modules()), "a layer names no module"
    assert arrows_up(import_graph()) == []


def test_an_arrow_up_and_a_neighbours_import_are_found():
    graph = {"game.rules.engine": {"game.client.words"}, "game.bots.easy": {"game.replays", "game.rules.engine"},
             "game.scenes.app": {"game.client.session"}, "game.text.play": set(), "game.replays": set(),
             "game.client.session": set(), "game.client.words": set()}
    assert arrows_up(graph) == ["game.bots.easy -> game.replays", "game.rules.engine -> game.client.words"]


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_type_only_or_deferred_import_is_a_dependency(tmp_path):
    """The policy (issue 27): a circle through ``TYPE_CHECKING`` or a function is still a circle."""
    (tmp_path / "game" / "p").mkdir(parents=True)
    (tmp_path / "game" / "__init__.py").write_text("")
    (tmp_path / "game" / "p" / "__init__.py").write_text("")
    (tmp_path / "game" / "p" / "a.py").write_text("def f():\n    from . import b\n")
    (tmp_path / "game" / "p" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                  "    from game.p.a import f\n")
    graph = import_graph(tmp_path)
    assert graph["game.p.a"] == {"game.p.b"} and graph["game.p.b"] == {"game.p.a"}
    assert cycles(graph) == [["game.p.a", "game.p.b"]]


def test_the_scanner_resolves_relative_imports_and_marks_how_they_stand():
    found = imports_in("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .session import S\n"
                       "def f():\n    from .. import rules\nimport game.match as m\n", "game.client")
    assert [(i.target, i.type_only, i.deferred) for i in found] == [
        ("typing.TYPE_CHECKING", False, False), ("game.client.session.S", True, False),
        ("game.rules", False, True), ("game.match", False, False)]


def test_no_scene_module_imports_another():
    """The screens the launcher registers (game/scenes/catalog.py) ask for each other by name: none
    imports another (the replay's board subclassed the game's board; both now share a leaf)."""
    catalog = imports_in((ROOT / "game" / "scenes" / "catalog.py").read_text(encoding="utf-8"), "game.scenes")
    scenes = {i.target for i in catalog if i.module == "game.scenes" and i.target != "game.scenes.registry"}
    assert {"game.scenes.board", "game.scenes.replay", "game.scenes.title"} <= scenes
    graph = import_graph()
    crossing = {name: sorted(graph[name] & scenes) for name in sorted(scenes) if graph[name] & scenes}
    assert crossing == {}
    assert all(within(s, "game.scenes") for s in scenes)


def test_no_test_module_imports_another():
    """A helper two test files share lives once, in the test kit (tests/support, a folder's
    conftest or kit module, tools/walk.py), not in one test module that others import: eight did,
    one re-exporting its fixtures with ``noqa`` and another shadowing the suite's no-ERROR fixture."""
    found = sorted({f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
                    for path in (ROOT / "tests").rglob("test_*.py")
                    for imp in imports_in(path.read_text(encoding="utf-8"))
                    if imp.module.split(".")[0].startswith("test_")})
    assert found == []
