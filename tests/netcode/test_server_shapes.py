"""Our server's messages have the reference server's shapes.

From the reference transcripts (``tests/data/reference-transcripts``) we collect, for every type of
message the reference server sent, the keys of each object and the JSON types of their values,
recursively (lists by element type; maps keyed by data, such as resource counts, by value type).
Then we play the same kinds of scenario on our server (a solo game with setup, market, leaders and
end of turn; 2-player games with a drop; buying and producing; the error catalogue) and check that
every message of a type the reference also sent has:

* no key the reference never sent, except the documented :data:`EXTENSIONS`;
* every key the reference always sent (except :data:`REFERENCE_OPTIONAL`, sent only sometimes,
  though every captured message happens to have it);
* values of JSON types the reference used at that place.

Ids and contents differ and are not compared.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules.actions import (ProductionRequest, ReqActivateProductions, ReqBuyDevCard, ReqChooseLeaders,
                                ReqEndTurn, ReqLeaderAction, ReqSwapShelves, ReqTakeFromMarket)
from game.rules.playout import choose

from conftest import CONFIG, Peer, Player, drive, room_of, start_game, step, wait_until

pytestmark = pytest.mark.timeout(60)

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"

MAP_KEYS = frozenset({"content", "requirements", "input", "output", "vaticanSections", "topCards",
                      "cardsLeft", "missingResources", "shelves"})
"""Objects under these keys are maps keyed by data (resource names, ids, colours), not records."""

EXTENSIONS = {
    "UpdateGame.players[].activeLeaders": "extension: ids of the player's active leaders",
    "UpdateGame.players[].leaderDepots": "extension: container ids of the player's active depot leaders",
    "UpdateGame.players[].favorTiles": "extension: state of each papal favor tile (DOWN/UP/REMOVED)",
    "UpdateBookedSeats.players": "extension (to clients that joined with a token only): who waits, in order",
    "UpdateGame.lastActionToken": "extension: the solo token shown face up (solo only)",
    "UpdateGame.revealedActionTokens": "extension (solo, to clients that joined with a token only): Lorenzo's "
                                       "tokens face up since the last shuffle",
    "UpdateGame.devCardGrid.cardsLeft": "extension: cards left in each deck, {colour: [0, l1, l2, l3]}",
    "UpdateDevCardGrid.devCardGrid.cardsLeft": "extension: cards left in each deck, {colour: [0, l1, l2, l3]}",
    "UpdateGameEnd.winner": "in the reference catalogue; the transcripts only show Lorenzo winning, "
                            "where it is left out",
}
"""Keys we send that the reference transcripts never show, and why."""

REFERENCE_OPTIONAL: dict[str, str] = {}
"""Keys every captured message has although the reference leaves them out at times, and why."""

NOT_PRODUCED = {
    "ResHeartbeat": "answered by the project's Connection, which our scenarios use (covered in "
                    "test_server_protocol)",
    "ReqHeartbeat": "only after 12.5 s of silence (covered in test_server_protocol)",
}
"""Reference types our scenarios here do not produce, and where they are tested instead."""

OURS_ONLY = {
    "UpdateSessionToken": "extension: the rejoin token (only to clients that ask for one)",
    "UpdateHistory": "extension: the whole game's updates and skipped turns, to a client with a token that rejoins",
    "UpdateActivateLeader": "in the reference source, never captured: sent when a leader is activated",
    "ErrActiveLeaderDiscarded": "in the reference source, never captured",
    "ErrInvalidResourceTransaction": "in the reference source, never captured",
}
"""Types we send that the transcripts do not show."""

SCALARS = {bool: "bool", int: "int", float: "float", str: "str", type(None): "null"}


class Shape:
    """The union of the JSON shapes seen at one place of a message."""

    def __init__(self) -> None:
        self.scalars: set[str] = set()
        self.fields: dict[str, Shape] | None = None   # records: key -> shape
        self.always: set[str] | None = None           # keys present in every record seen
        self.seen_records = 0
        self.items: Shape | None = None               # lists: element shape
        self.values: Shape | None = None              # maps keyed by data: value shape

    def add(self, value: Any, key: str = "") -> None:
        if isinstance(value, dict) and key in MAP_KEYS:
            self.values = self.values or Shape()
            for v in value.values():
                self.values.add(v)
        elif isinstance(value, dict):
            self.fields = {} if self.fields is None else self.fields
            self.always = set(value) if self.always is None else self.always & set(value)
            self.seen_records += 1
            for k, v in value.items():
                self.fields.setdefault(k, Shape()).add(v, k)
        elif isinstance(value, list):
            self.items = self.items or Shape()
            for v in value:
                self.items.add(v, key)
        else:
            self.scalars.add(SCALARS[type(value)])

    def is_empty(self) -> bool:
        return not (self.scalars or self.fields is not None or self.items or self.values)


def shape_problems(ours: Shape, ref: Shape, path: str, used: set[str]) -> list[str]:
    """Where ``ours`` does something ``ref`` never did. ``used`` collects the exemptions applied."""
    out = []
    extra = ours.scalars - ref.scalars
    if extra and not ref.is_empty():
        out.append(f"{path}: {sorted(extra)} where the reference has {sorted(ref.scalars) or 'no scalar'}")
    if ours.fields is not None:
        if ref.fields is None:
            out.append(f"{path}: an object where the reference has none")
        else:
            out += _record_problems(ours, ref, path, used)
    if ours.items is not None:
        if ref.items is None:
            out.append(f"{path}: a list where the reference has none")
        elif not ours.items.is_empty() and not ref.items.is_empty():
            out += shape_problems(ours.items, ref.items, path + "[]", used)
    if ours.values is not None:
        if ref.values is None:
            out.append(f"{path}: a map where the reference has none")
        elif not ours.values.is_empty() and not ref.values.is_empty():
            out += shape_problems(ours.values, ref.values, path + "{}", used)
    return out


def _record_problems(ours: Shape, ref: Shape, path: str, used: set[str]) -> list[str]:
    out = []
    assert ours.fields is not None and ref.fields is not None
    for key in sorted(set(ours.fields) - set(ref.fields)):
        where = f"{path}.{key}"
        if where in EXTENSIONS:
            used.add(where)
        else:
            out.append(f"{where}: not a key of the reference")
    for key in sorted((ref.always or set()) - (ours.always or set())):
        where = f"{path}.{key}"
        if where in REFERENCE_OPTIONAL:
            used.add(where)
        else:
            out.append(f"{where}: always sent by the reference, missing here in "
                       f"{'every' if key not in ours.fields else 'some'} message")
    for key in sorted(set(ours.fields) & set(ref.fields)):
        out += shape_problems(ours.fields[key], ref.fields[key], f"{path}.{key}", used)
    return out


def shapes(messages) -> dict[str, Shape]:
    """Type -> shape of every message of that type (its ``type`` key left out)."""
    out: dict[str, Shape] = {}
    for m in messages:
        body = {k: v for k, v in m.items() if k != "type"}
        out.setdefault(m["type"], Shape()).add(body)
    return out


def reference_messages() -> list[dict]:
    out = []
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec["dir"] == "s2c":
                out.append(json.loads(rec["line"]))
    return out


# ------------------------------------------------------------------------------------- scenarios
def solo_opening(srv: Server, rng: random.Random, nick: str) -> list[dict]:
    """Handshake, join, solo game, setup, swap, early end, market, leaders, end turn, to the end."""
    p = first = Peer(srv.address)
    try:
        p.welcome()
        p.send({"type": "ResWelcome"})
        p.send({"type": "ReqWelcome"})
        p.expect("ResWelcome")
        token = p.join(nick, token="")[0]["token"]
        p.send({"type": "ReqNewGame", "playersCount": 1})
        p.until(lambda m: m["type"] == "UpdateGame")
        game = room_of(srv, nick).game
        me = game.player(nick)
        for req in (ReqChooseLeaders(tuple(me.hand[:2])), ReqSwapShelves(0, 1), ReqEndTurn(),
                    ReqTakeFromMarket(True, 0, {}, {}), ReqLeaderAction(me.hand[0], True),
                    ReqLeaderAction(me.hand[1], False), ReqEndTurn()):
            p.send(req)
            p.until(lambda m: m["type"].startswith("Err") or m["type"] == "UpdateAction")
        p.close()                                   # drop, come back with the token
        wait_until(lambda: nick not in srv.by_nick)
        p = Peer(srv.address).welcome()
        p.received = first.received
        p.send({"type": "ReqJoin", "nickname": nick, "token": token})
        p.until(lambda m: m["type"] == "UpdateGame")
        while not game.ended:
            action = choose(game, nick, rng)
            p.send(action)
            p.until(lambda m: m["type"].startswith("Err") or m["type"] == "UpdateAction")
        p.send({"type": "ReqEndTurn"})
        p.expect("ErrAction", reason="GAME_ENDED")
        p.send({"type": "ReqQuit"})
        p.expect("ResQuit")
        p.send({"type": "ReqGoodbye"})
        p.expect("ResGoodbye")
        return p.received
    finally:
        first.close()
        p.close()


def two_players(srv: Server, rng: random.Random, names: tuple[str, str]) -> list[dict]:
    """Lobby errors, setup errors, turns, a drop and a rejoin, played to the end."""
    a, b = Player(srv.address, names[0]), Player(srv.address, names[1])
    back = None
    try:
        a.join()
        b.join()
        b.send({"type": "ReqNewGame", "playersCount": 2})
        b.until_type("ErrNewGame")
        a.send({"type": "ReqNewGame", "playersCount": 5})
        a.until_type("ErrNewGame")
        a.send({"type": "ReqNewGame", "playersCount": 2})
        for p in (a, b):
            p.until_type("UpdateGame")
        game = room_of(srv, a.nickname).game
        other_hand = game.player(b.nickname).hand
        a.request(ReqTakeFromMarket(True, 0, {}, {}))
        a.request(ReqChooseLeaders(tuple(game.player(a.nickname).hand[:1])))
        a.request(ReqChooseLeaders(tuple(other_hand[:2])))
        drive(game, [a, b], rng, stop=lambda g: g.phase == "play")
        cur, other = (a, b) if game.current_player.nickname == a.nickname else (b, a)
        other.request(ReqEndTurn())
        cur.request(ReqTakeFromMarket(True, 7, {}, {}))
        drive(game, [a, b], rng, stop=lambda g: g.version >= 14 and not g.main_done)
        other = a if game.current_player.nickname == b.nickname else b
        other.close()
        stayed = b if other is a else a
        stayed.until_type("UpdatePlayerStatus")
        back = Player(srv.address, other.nickname)
        back.join(token=other.token)
        drive(game, [stayed, back], rng)
        return a.received + b.received + back.received
    finally:
        for p in (a, b, back):
            if p is not None:
                p.close()


def buy_and_produce(srv: Server, rng: random.Random, nick: str) -> list[dict]:
    """A solo game until a card was bought and a production run (the policy does both)."""
    p = Player(srv.address, nick)
    try:
        start_game(p)
        game = room_of(srv, nick).game
        kinds: set[type] = set()
        while not game.ended and not {ReqBuyDevCard, ReqActivateProductions} <= kinds:
            kinds.add(type(step(game, [p], rng)[1]))
        return p.received
    finally:
        p.close()


def errors(srv: Server) -> list[dict]:
    """The error catalogue of errors.jsonl, on raw connections."""
    a, b = Peer(srv.address), Peer(srv.address)
    try:
        a.welcome()
        b.welcome()
        a.send({"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 1})
        a.send({"type": "ReqNewGame", "playersCount": 1})
        a.send({"type": "ReqJoin", "nickname": "  "})
        a.send({"type": "ReqJoin"})
        for _ in range(4):
            a.expect("ErrNickname", reason="NOT_SET")
        a.join("Zoë<&='>")
        a.send({"type": "ReqJoin", "nickname": "other"})
        a.expect("ErrNickname", reason="ALREADY_SET")
        a.send({"type": "ReqEndTurn"})
        a.expect("ErrNickname", reason="NOT_IN_GAME")
        assert b.join("Zoë<&='>")[-1]["reason"] == "TAKEN"
        for line in (b"this is not json", b"", b'{"foo":1}', b'{"type":"ReqNope"}', b'{"type":"UpdateGame"}',
                     b'{"type":"ReqSwapShelves","shelf1":"x","shelf2":1}'):
            b.send(line)
            b.expect("ErrProtocol")
        a.send({"type": "ReqNewGame", "playersCount": 1})
        a.until(lambda m: m["type"] == "UpdateGame")
        game = room_of(srv, "Zoë<&='>").game
        hand = game.player("Zoë<&='>").hand
        tries = [ReqChooseLeaders((999, hand[0])), ReqChooseLeaders((hand[0], hand[0])),
                 ReqChooseLeaders(tuple(hand[:3])), ReqChooseLeaders(tuple(hand[:2])),
                 ReqChooseLeaders(tuple(hand[:2])), ReqSwapShelves(0, 999), ReqLeaderAction(999, True),
                 ReqTakeFromMarket(True, -1, {}, {}),
                 ReqTakeFromMarket(True, 0, {}, {0: {"Coin": 1}, 1: {"Stone": 2}, 2: {"Shield": 3}}),
                 ReqBuyDevCard("Green", 1, 0, {}), ReqBuyDevCard("Green", 3, 0, {}),
                 ReqActivateProductions((ProductionRequest(0, {0: {"Coin": 1}, 1: {"Stone": 1}}, {}, {"Shield": 1}),)),
                 ReqActivateProductions((ProductionRequest(999, {}, {}, {}),)),
                 ReqTakeFromMarket(True, 0, {}, {2: {"Gold": 1}}),
                 ReqLeaderAction(hand[0], True)]
        for req in tries:
            a.send(req)
            a.until(lambda m: m["type"].startswith("Err") or m["type"] == "UpdateAction")
        return a.received + b.received
    finally:
        a.close()
        b.close()


@pytest.fixture(scope="module")
def ours(tmp_path_factory) -> list[dict]:
    """Every message our server sent in the scenarios."""
    srv = Server(CONFIG, ServerOptions(host="127.0.0.1", port=0, heartbeat=5.0, seed=7,
                                       data_dir=tmp_path_factory.mktemp("shapes")))
    srv.start()
    try:
        out: list[dict] = []
        for seed in range(3):
            out += solo_opening(srv, random.Random(seed), f"solo{seed}")
        out += errors(srv)
        for seed in range(3):
            out += two_players(srv, random.Random(10 + seed), (f"a{seed}", f"b{seed}"))
        out += buy_and_produce(srv, random.Random(20), "builder")
        return out
    finally:
        srv.stop()


REFERENCE = shapes(reference_messages())


def test_the_reference_shapes_are_there():
    assert len(REFERENCE) >= 30
    game = REFERENCE["UpdateGame"]
    assert {"players", "market", "devCardGrid", "faithTrack"} <= set(game.fields)


def test_every_reference_type_is_produced(ours):
    produced = {m["type"] for m in ours}
    missing = set(REFERENCE) - produced - set(NOT_PRODUCED)
    assert not missing, f"our scenarios never produced {sorted(missing)}"
    assert set(NOT_PRODUCED) <= set(REFERENCE)


def test_types_we_add_are_documented(ours):
    extra = {m["type"] for m in ours} - set(REFERENCE)
    assert extra <= set(OURS_ONLY), f"undocumented message types {sorted(extra - set(OURS_ONLY))}"


def test_same_keys_and_value_types(ours):
    mine = shapes(ours)
    used: set[str] = set()
    problems = []
    for type_, shape in sorted(mine.items()):
        if type_ in REFERENCE:
            problems += shape_problems(shape, REFERENCE[type_], type_, used)
    assert not problems, "\n".join(problems)


def test_every_documented_exemption_is_needed(ours):
    mine = shapes(ours)
    used: set[str] = set()
    for type_, shape in mine.items():
        if type_ in REFERENCE:
            shape_problems(shape, REFERENCE[type_], type_, used)
    unused = (set(EXTENSIONS) | set(REFERENCE_OPTIONAL)) - used
    assert not unused, f"exemptions that no longer apply: {sorted(unused)}"
