"""The client plays by its server's game, never by its own config files.

* A server of ours started with a custom config (other costs, a shorter faith track with other
  Vatican sections, another base production, production ids renumbered): the client's config,
  hints (affordable cards, runnable productions, market lines) and every request it builds match
  the server's, and the server accepts them all.
* The recorded reference traffic fed through the client's session: the right stage at every point,
  and the requests the reference accepted are legal in the client's picture of the game there.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game.match import RemoteMatch
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import choices as C
from game.rules import default_config
from game.rules.components import DEFAULT_CONFIG_PATH, load_config
from game.rules.actions import Action
from game.rules.errors import GameError
from game.rules.shadow import shadow_game
from game.rules.playout import choose
from game.client.session import GameSession
from support.table import Feed
from support.wait import pump_until

pytestmark = pytest.mark.timeout(60)

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"


def custom_config(tmp: Path):
    """The default game with other costs, a 20-space track, another base production, and every
    production id moved by 11 (so no id means what it means in our own files)."""
    d = json.loads(DEFAULT_CONFIG_PATH.read_text(encoding="utf-8"))
    prods = [d["base_production"]] + [c["production"] for c in d["development_cards"]]
    prods += [ld["production"] for ld in d["leader_cards"] if ld["production"]]
    for p in prods:
        p["id"] = (p["id"] + 11) % len(prods)
    d["base_production"].update({"input": {"Coin": 1}, "input_choice": 1, "output": {}, "output_choice": 2})
    for c in d["development_cards"]:
        if c["level"] == 1:
            c["cost"] = {"Servant": 1}     # cheap: affordable after almost any market take
        elif c["level"] == 2:
            c["cost"] = {"Stone": 2}
    d["faith_track"] = {"last_space": 20, "vp_squares": [[4, 1], [10, 5], [20, 15]],
                        "vatican_sections": [{"id": 0, "first_space": 3, "pope_space": 6, "favor_vp": 1},
                                             {"id": 2, "first_space": 9, "pope_space": 12, "favor_vp": 2},
                                             {"id": 1, "first_space": 16, "pope_space": 20, "favor_vp": 5}]}
    path = tmp / "custom.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return load_config(path)


def answered(session: GameSession, before: int) -> bool:
    return any(m["type"] == "UpdateAction" or m["type"].startswith("Err") for m in session.seen[before:])


def test_hints_costs_and_requests_follow_a_custom_server(tmp_path, monkeypatch):
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "client"))
    cfg = custom_config(tmp_path)
    local = default_config()
    assert cfg.base_production.id != local.base_production.id
    srv = Server(cfg, ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv", seed=7))
    host, port = srv.start()
    match = RemoteMatch(host, port, "ada", token_file=tmp_path / "seats.json")
    session = GameSession(match, local, "ada")
    session.seen = []
    orig = session._take
    session._take = lambda m: (session.seen.append(m), orig(m))[1]  # type: ignore[method-assign]
    try:
        pump_until(session, lambda: session.lobby.booked == 1)
        match.new_game(1)
        pump_until(session, lambda: session.vm.has_game)
        c = session.config
        assert c.productions == cfg.productions and c.base_production == cfg.base_production
        assert [(d.id, dict(d.cost), d.production) for d in c.dev_cards] == \
               [(d.id, dict(d.cost), d.production) for d in cfg.dev_cards]
        assert c.last_space == 20 and c.vatican_sections == cfg.vatican_sections
        assert c.vp_squares == cfg.vp_squares and c.leaders == cfg.leaders
        assert session.local_config is local
        game = srv.room_of("ada").game
        rng = random.Random(3)
        accepted = kinds = 0
        seen_kinds = set()
        while not game.ended and accepted < 60:
            pump_until(session, lambda: session.vm.game["currentPlayer"] == "ada")
            sh, real = session.shadow(), game
            me_sh, me = sh.player("ada"), real.player("ada")
            if real.phase == "play":
                # the hints the board shows are the server's
                assert [(o.card.id, dict(o.cost), o.slots) for o in C.affordable_cards(sh, me_sh)] == \
                       [(o.card.id, dict(o.cost), o.slots) for o in C.affordable_cards(real, me)]
                assert [p.id for p in C.runnable_productions(sh, me_sh)] == \
                       [p.id for p in C.runnable_productions(real, me)]
                assert C.market_lines(sh, me_sh) == C.market_lines(real, me)
            req = choose(sh, "ada", rng)     # built from the client's picture only
            assert req is not None
            seen_kinds.add(type(req).__name__)
            before = len(session.seen)
            session.send(req)
            pump_until(session, lambda: answered(session, before))
            assert not any(m["type"].startswith("Err") for m in session.seen[before:]), (req, session.seen[-1])
            accepted += 1
        assert {"ReqBuyDevCard", "ReqTakeFromMarket", "ReqEndTurn"} <= seen_kinds
        assert accepted >= 20
    finally:
        session.close()
        srv.stop()


# ------------------------------------------------------------------------------ reference traffic
STAGE_OF = {"ReqChooseLeaders": "leaders", "ReqChooseResources": "resources"}
GAME_ACTIONS = {"ReqSwapShelves", "ReqLeaderAction", "ReqTakeFromMarket", "ReqBuyDevCard",
                "ReqActivateProductions", "ReqEndTurn"}


def reference_conversations():
    for path in sorted(DATA.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        nicks = {}
        for i, r in enumerate(records):
            if r["dir"] == "c2s" and '"ReqJoin"' in r["line"]:
                nicks.setdefault(r["conn"], json.loads(r["line"]).get("nickname"))
        for conn, nick in nicks.items():
            if isinstance(nick, str) and any(r["conn"] == conn and '"UpdateGame"' in r.get("line", "")
                                             for r in records):
                yield pytest.param(path.name, conn, nick, records, id=f"{path.stem}-{conn}")


def verdict(records: list[dict], i: int, conn: str) -> str:
    """What the reference answered to the c2s record ``i``: "ok" (an UpdateAction of it), or the
    error type, or "" (no answer before the connection's next request)."""
    for r in records[i + 1:]:
        if r["conn"] != conn or r["dir"] != "s2c":
            if r["conn"] == conn and r["dir"] == "c2s":
                return ""
            continue
        m = json.loads(r["line"])
        if m["type"].startswith("Err"):
            return m["type"]
        if m["type"] == "UpdateAction":
            return "ok"
    return ""


def test_reference_traffic_through_the_session():
    checked, kinds = {}, set()
    for conv in reference_conversations():
        name, conn, nick, records = conv.values
        checked[f"{name}:{conn}"] = replay(name, conn, nick, records, kinds)
    assert sum(checked.values()) >= 60, checked
    assert {"ReqBuyDevCard", "ReqActivateProductions", "ReqTakeFromMarket", "ReqLeaderAction",
            "ReqSwapShelves", "ReqEndTurn"} <= kinds, kinds
    assert checked["buy-and-produce.jsonl:A"] >= 5 and checked["two-players.jsonl:B"] >= 3, checked


def replay(name: str, conn: str, nick: str, records: list[dict], kinds: set[str]) -> int:
    """Feed the session what the reference sent ``conn``; at each request the reference accepted,
    check the stage and that the request is legal in the client's game. Returns how many."""
    match = Feed()
    session = GameSession(match, default_config(), nick)
    checked = 0
    for i, r in enumerate(records):
        if r["conn"] != conn:
            continue
        if r["dir"] == "s2c":
            msg = json.loads(r["line"])
            match.say(msg)
            session.pump()
            if session.stage() == "resources":   # never for a seat with nothing to choose
                assert session.vm.me["setup"]["initialResources"] > 0, (name, i)
            if msg["type"] == "UpdateGame":
                # productions are numbered per server process there: the ids come from the server
                assert session.config.base_production.id == session.vm.me["baseProduction"]
            continue
        if r["dir"] != "c2s" or not session.vm.has_game:
            continue
        msg = json.loads(r["line"])
        t = msg.get("type")
        if t not in STAGE_OF and t not in GAME_ACTIONS or verdict(records, i, conn) != "ok":
            continue
        stage = session.stage()
        if t == "ReqChooseResources" and not session.vm.me["setup"]["initialResources"]:
            assert stage != "resources", (name, i)   # a probe's empty choice; our client sends none
            continue
        if t in STAGE_OF:
            assert stage == STAGE_OF[t] or (t == "ReqChooseResources" and stage == "waiting"), (i, t, stage)
            continue
        assert stage == "board" and session.vm.my_turn, (i, t, stage)
        try:
            action = Action.from_dict(msg)
        except (KeyError, TypeError, ValueError):
            continue
        sh = shadow_game(session.vm.game, session.config, nick)   # a fresh copy to try it on
        me = sh.player(nick)
        # the board offers what the reference accepted: the card, the productions (by the
        # server's ids), the market line
        if t == "ReqBuyDevCard":
            offers = {(o.card.color, o.card.level): o.slots for o in C.affordable_cards(sh, me)}
            assert action.dev_slot in offers.get((action.color, action.level), ()), (name, i, msg)
        elif t == "ReqActivateProductions":
            runnable = {p.id for p in C.runnable_productions(sh, me)}
            assert {r.production for r in action.prod_requests} <= runnable, (name, i, msg, runnable)
        elif t == "ReqTakeFromMarket":
            assert (action.is_row, action.index) in {(m.is_row, m.index) for m in C.market_lines(sh, me)}
        if t == "ReqEndTurn":
            assert sh.main_done, i
        else:
            try:
                sh.apply(nick, action)       # legal in the client's picture (the shadow is a copy)
            except GameError as err:
                pytest.fail(f"{name}:{i}: the reference accepted {msg} but the client's game refuses "
                            f"it: {err!r}")
        checked += 1
        kinds.add(t)
    return checked
