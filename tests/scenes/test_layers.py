"""The scenes and the text client draw and take input; the rules and the network are the
client's business (game/client/): no module under game/scenes or game/text imports game.rules
or game.netcode, at its top or deferred inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

SCENES = Path(__file__).resolve().parents[2] / "game" / "scenes"
TEXT = SCENES.parent / "text"
FORBIDDEN = ("game.rules", "game.netcode")


def imported(tree: ast.AST, package: str) -> list[str]:
    """Every module a tree imports, wherever the import statement stands (relative ones resolved
    against ``package``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            out += [module, *(f"{module}.{a.name}" for a in node.names)]
    return out


def forbidden_imports(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        package = ".".join(("game", *path.relative_to(folder.parent).parent.parts))
        for name in imported(ast.parse(path.read_text(encoding="utf-8")), package):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                found.append(f"{path.relative_to(folder)}: {name}")
    return found


def test_no_scene_imports_the_rules_or_the_network():
    assert forbidden_imports(SCENES) == []


def test_the_text_client_imports_neither_the_rules_nor_the_network():
    assert len(list(TEXT.rglob("*.py"))) >= 4
    assert forbidden_imports(TEXT) == []


def test_the_scan_sees_deferred_and_relative_imports():
    tree = ast.parse("def f():\n    from game.rules.engine import Game\n    from ..netcode import protocol\n"
                     "    from .. import rules\n")
    names = imported(tree, "game.scenes")
    assert {"game.rules.engine", "game.netcode.protocol", "game.rules"} <= set(names)
