"""The Match protocol (game/match/): every kind of match implements all of it, so that no caller
probes a match for what it can do (a ``getattr``/``hasattr`` or an ``isinstance`` on a match fails
this test); what a kind cannot do, it says with its ``supports_*`` flags."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.client.replay import Replay, ReplayFeed
from game.match import BotMatch, LocalMatch, Match, RemoteMatch
from game.rules import default_config
from game.rules.playout import random_game

GAME = Path(__file__).resolve().parents[1] / "game"
CFG = default_config()
MEMBERS = ("nickname", "config", "bots", "on_message", "supports_undo", "supports_chat", "supports_resync", "host",
           "port", "host_name", "table_name", "send", "poll", "close", "shutdown", "undo", "chat", "resync",
           "replay_record", "fetch_replay", "secure", "server_fingerprint", "first_meeting", "hide_watchers")


@pytest.mark.parametrize("kind", [LocalMatch, BotMatch, RemoteMatch, ReplayFeed], ids=lambda k: k.__name__)
def test_every_kind_of_match_implements_the_whole_protocol(kind):
    assert Match in kind.__mro__
    for name in MEMBERS:
        assert hasattr(kind, name) or name == "nickname", name
    assert {m for m in vars(Match) if not m.startswith("_")} - set(MEMBERS) == set()


def test_what_each_kind_can_do_is_said_by_its_flags():
    solo = LocalMatch(CFG, "Ada", seed=3)
    assert (solo.supports_undo, solo.supports_chat, solo.supports_resync) == (True, False, False)
    assert solo.config is CFG and solo.bots == {} and solo.host is None
    assert solo.replay_record() is None and solo.fetch_replay() is False     # not over; no server
    feed = ReplayFeed("Ada", {"Cosimo (bot)": "hard"})
    assert (feed.supports_undo, feed.supports_chat, feed.config) == (False, False, None)
    assert RemoteMatch.supports_chat and RemoteMatch.supports_resync


def test_a_finished_game_on_this_machine_gives_its_own_replay():
    game = random_game(CFG, ["Ada"], seed=4)
    assert game.ended
    record = LocalMatch(CFG, "Ada", game=game).replay_record()
    assert record is not None and record["kind"] == "solo"
    assert Replay(record, CFG).final.winners == game.winners


def _probes(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = ast.unparse(node.args[0])
            if node.func.id in ("getattr", "hasattr") and "match" in first.lower():
                out.append(f"{node.func.id}({first}, ...)")
            if node.func.id == "isinstance" and len(node.args) == 2 and "Match" in ast.unparse(node.args[1]):
                out.append(f"isinstance({first}, {ast.unparse(node.args[1])})")
    return out


def test_no_caller_probes_a_match():
    found = []
    for path in sorted(GAME.rglob("*.py")):
        found += [f"{path.relative_to(GAME)}: {p}" for p in _probes(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []
    assert _probes(ast.parse("getattr(session.match, 'bots', None)\nisinstance(m, BotMatch)")) != []
