"""Our client on a reference server, in the window: each screen the recorded reference traffic
leads to draws (the session's side of that traffic: tests/client/test_server_game_data.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.client.session import GameSession
from game.rules import default_config
from support.table import Feed

pytestmark = pytest.mark.timeout(60)

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"


@pytest.mark.parametrize("name,conn,final", [("buy-and-produce.jsonl", "A", "BoardScene"),
                                             ("two-players.jsonl", "B", "BoardScene"),
                                             ("solo-to-end.jsonl", "A", "GameOverScene")])
def test_reference_traffic_draws_every_screen(name, conn, final):
    """Our client on a reference server: each screen its traffic leads to draws, from the
    reference's UpdateGame (no extension fields) patched by its updates."""
    from game.scenes.app import App
    from game.scenes.router import scene_for
    records = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    nick = next(json.loads(r["line"])["nickname"] for r in records
                if r["conn"] == conn and r["dir"] == "c2s" and '"ReqJoin"' in r["line"])
    app = App(headless=True, size=(1024, 640))
    match = Feed()
    session = GameSession(match, default_config(), nick)
    stages = []
    try:
        for r in records:
            if r["conn"] != conn or r["dir"] != "s2c":
                continue
            match.say(json.loads(r["line"]))
            session.pump()
            if not session.vm.has_game:
                continue
            if not stages or stages[-1] != session.stage():
                stages.append(session.stage())
                app.stack.reset(scene_for(app, session))
            app.frame(1 / 60)            # strict when headless: a drawing error fails the test
        assert type(app.stack.top).__name__ == final
        assert stages[0] == "leaders" and "board" in stages
        assert "resources" not in stages or session.vm.me["setup"]["initialResources"] > 0
    finally:
        while app.stack.top is not None:
            app.stack.pop()
