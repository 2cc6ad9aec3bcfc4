"""The reference server's recorded transcripts fed into the text client's session, message by
message: at every step ``market``, ``board`` and ``score`` say what the reference's own messages
say (followed here straight from the wire, apart from the client's view model)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.client.games import default_config
from game.client.session import GameSession
from game.text import describe as D
from game.text.play import GameShell
from support.table import Feed

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"
MARBLE = {"Zero": "white", "Faith": "red (Faith)"}


def conversations():
    for path in sorted(DATA.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        nicks: dict[str, str] = {}
        for r in records:
            if r["dir"] == "c2s" and '"ReqJoin"' in r["line"]:
                nicks.setdefault(r["conn"], json.loads(r["line"]).get("nickname"))
        for conn, nick in nicks.items():
            # the conversations that reach the game itself
            if isinstance(nick, str) and any(r["conn"] == conn and '"UpdateSetupDone"' in r.get("line", "")
                                             for r in records):
                yield pytest.param(conn, nick, records, id=f"{path.stem}-{conn}")


@pytest.mark.parametrize("conn,nick,records", list(conversations()))
def test_market_board_and_score_follow_the_reference(conn, nick, records):
    session = GameSession(Feed(nick), default_config(), nick)
    shell = GameShell(session, lambda line: None)
    market = vp = faith = None
    points: dict[str, int] = {}
    contents: dict[int, dict] = {}
    shelves: list[int] = []
    checked = 0
    for r in records:
        if r["conn"] != conn or r["dir"] != "s2c":
            continue
        m = json.loads(r["line"])
        t = m["type"]
        # what the wire says, followed apart from the client
        if t == "UpdateGame":
            market = m["market"]
            points = {p["nickname"]: p["victoryPoints"] for p in m["players"]}
            me = next(p for p in m["players"] if p["nickname"] == nick)
            faith, shelves = me["faithPoints"], list(me["warehouseShelves"])
            contents = {c["id"]: dict(c["content"]) for c in m["resContainers"]}
        elif t == "UpdateMarket":
            market = m["market"]
        elif t == "UpdateVictoryPoints":
            points[m["player"]] = m["victoryPoints"]
        elif t == "UpdateFaithPoints" and not m.get("isBlackCross") and m["player"] == nick:
            faith = m["faithPoints"]
        elif t == "UpdateResourceContainer":
            contents[m["resContainer"]["id"]] = dict(m["resContainer"]["content"])
        session.match.say(m)
        shell.follow()
        if market is None or not session.vm.game.get("isSetupDone"):
            continue
        vp = points[nick]
        said = D.market(session)
        for i, row in enumerate(market["grid"]):
            assert said[1 + i].startswith(f"Row {i + 1}: " + ", ".join(MARBLE.get(x, x) for x in row) + ". Gives ")
        assert said[-1] == f"The spare marble: {MARBLE.get(market['slide'], market['slide'])}."
        board = D.board(session)
        assert board[0] == f"Your board: {vp} VP so far, faith {faith}."
        for k, cid in enumerate(shelves):
            assert board[1 + k].endswith(": " + (D.counted(contents[cid]) if any(contents[cid].values())
                                                else "empty") + "."), (board, contents[cid])
        score = D.score(session)
        if not session.vm.game["ended"]:
            for who, n in points.items():
                name = "You" if who == nick else who
                assert any(line.startswith(f"{name}: {n} VP,") for line in score), (who, n, score)
        else:
            assert score[0].startswith("The game is over. ")
        checked += 1
    assert checked >= 3
    assert session.match.sent == []              # reading what is said sends nothing
