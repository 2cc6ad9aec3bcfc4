"""The scenes and the text client draw and take input; the rules and the network are the
client's business (game/client/): no module under game/scenes or game/text imports one of
``FRONT_ENDS_NEVER_IMPORT`` (tests/support/imports.py), at its top, deferred inside a function or
for the type checker only."""
from __future__ import annotations

from support.imports import FRONT_ENDS_NEVER_IMPORT, forbidden_imports, imports_in, modules


def test_no_scene_imports_the_rules_or_the_network():
    assert {"game.rules", "game.netcode", "game.match", "game.replays"} <= set(FRONT_ENDS_NEVER_IMPORT)
    assert forbidden_imports(importers=("game.scenes",)) == []


def test_the_text_client_imports_neither_the_rules_nor_the_network():
    assert len([m for m in modules() if m.startswith("game.text.")]) >= 4
    assert forbidden_imports(importers=("game.text",)) == []


def test_the_scan_sees_deferred_relative_and_type_only_imports(tmp_path):
    tree = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.netcode.client import C\n"
            "def f():\n    from game.rules.engine import Game\n    from ..netcode import protocol\n"
            "    from .. import rules\n")
    names = {i.target for i in imports_in(tree, "game.scenes")}
    assert {"game.rules.engine.Game", "game.netcode.protocol", "game.rules", "game.netcode.client.C"} <= names
    (tmp_path / "game" / "scenes").mkdir(parents=True)
    (tmp_path / "game" / "scenes" / "x.py").write_text(tree)
    assert len(forbidden_imports(tmp_path)) == 4
