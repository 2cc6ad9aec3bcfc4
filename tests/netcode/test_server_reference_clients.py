"""What a reference client (one that joins without a ``token`` field) sees of our server, checked
against the sequences the AM49 reference server sent in the recorded transcripts.

Each expected sequence is first looked up in ``tests/data/reference-transcripts/`` (so it is the
reference's, not a guess), then our server must send the same one.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from game.netcode.room import Room
from game.rules import default_config
from game.rules.actions import ReqChooseLeaders, ReqEndTurn, ReqTakeFromMarket
from game.rules.engine import Game

from conftest import drive, room_of, start_game, wait_until

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"


def reference_types(name: str, conn: str) -> list[str]:
    """The types of every message the reference server sent to ``conn`` in transcript ``name``."""
    out = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["dir"] == "s2c" and rec["conn"] == conn:
            out.append(json.loads(rec["line"])["type"])
    return [t for t in out if t not in ("ReqWelcome", "ResWelcome", "ReqHeartbeat", "ResHeartbeat")]


def contains(seq: list[str], part: list[str]) -> bool:
    return any(seq[i:i + len(part)] == part for i in range(len(seq) - len(part) + 1))


def types(msgs) -> list[str]:
    return [m["type"] for m in msgs if m["type"] not in ("ReqWelcome", "ReqHeartbeat", "ResHeartbeat")]


def test_setup_ends_without_a_turn_announcement(server, players):
    """The reference ends setup with ``UpdateSetupDone`` then the last choice's ``UpdateAction``:
    no ``UpdateCurrentPlayer`` (its client would advance its setup twice)."""
    ref = reference_types("two-players.jsonl", "B")
    assert contains(ref, ["UpdateResourceContainer", "UpdateSetupDone", "UpdateAction", "ErrAction"])
    assert contains(reference_types("solo-opening.jsonl", "A"),
                    ["UpdateLeadersHand", "UpdateLeadersHandCount", "UpdateSetupDone", "UpdateAction"])
    a, b = players(server.address, "a", "b")
    start_game(a, b, token=None)
    game = room_of(server, "a").game
    drive(game, [a, b], random.Random(3), stop=lambda g: g.phase == "play")
    for p in (a, b):
        seen = types(p.received)
        at = seen.index("UpdateSetupDone")
        assert seen[at + 1] == "UpdateAction", seen[at - 2:at + 3]
        assert p.view["currentPlayer"] == game.players[0].nickname == game.current_player.nickname


def test_no_strongbox_is_bound(server, players):
    """The reference never sends ``boundedResType`` for a strongbox (its client would print
    "Bound resource: Coin" on it); shelves holding something and leader depots keep theirs."""
    (a,) = players(server.address, "solo")
    start_game(a, token=None)
    game = room_of(server, "solo").game
    drive(game, [a], random.Random(4), stop=lambda g: sum(g.players[0].strongbox.content.values()) > 0)
    assert game.players[0].strongbox.content
    seen = [m["resContainer"] for m in a.received if m["type"] == "UpdateResourceContainer"]
    seen += [c for m in a.received if m["type"] == "UpdateGame" for c in m["resContainers"]]
    boxes = [c for c in seen if c["size"] < 0]
    assert boxes and any(c["content"] for c in boxes)
    assert all("boundedResType" not in c for c in boxes)
    assert any("boundedResType" in c for c in seen if c["size"] > 0 and c["content"])


def test_a_drop_and_a_return_as_the_reference_tells_them(make_server, players):
    """Drop of the current player: the other gets ``UpdatePlayerStatus``, ``UpdateSetupDone``,
    ``UpdateCurrentPlayer``. Return: the returning player gets its own ``UpdatePlayerStatus``,
    ``UpdateSetupDone`` and ``UpdateGame``; the other ``UpdatePlayerStatus``, ``UpdateSetupDone``."""
    dropped = ["UpdatePlayerStatus", "UpdateSetupDone", "UpdateCurrentPlayer"]
    returned_other = ["UpdatePlayerStatus", "UpdateSetupDone", "UpdateResourceContainer"]
    returning = ["UpdatePlayerStatus", "UpdateSetupDone", "UpdateGame"]
    ref_a = reference_types("reconnect.jsonl", "A")
    assert contains(ref_a, ["UpdateAction"] + dropped) and contains(ref_a, returned_other)
    assert reference_types("reconnect.jsonl", "B2")[:3] == returning
    assert reference_types("reconnect.jsonl", "S2")[:3] == returning

    srv = make_server(compat_rejoin=True)
    a, b = players(srv.address, "a", "b")
    start_game(a, b, token=None)
    game = room_of(srv, "a").game
    rng = random.Random(5)
    drive(game, [a, b], rng, stop=lambda g: g.phase == "play" and g.main_done)
    cur, other = (a, b) if game.current_player.nickname == "a" else (b, a)
    mark = len(other.received)
    cur.conn.close()
    other.until_type("UpdateCurrentPlayer")
    assert types(other.received[mark:]) == dropped
    assert other.received[-1]["player"] == other.nickname
    wait_until(lambda: cur.nickname not in srv.by_nick)
    (back,) = players(srv.address, cur.nickname)
    mark = len(other.received)
    answer = back.join(token=None)
    assert types(answer) == returning
    assert answer[0] == {"player": cur.nickname, "isActive": True, "type": "UpdatePlayerStatus"}
    other.until_type("UpdateSetupDone")
    assert types(other.received[mark:]) == returning[:2]
    drive(game, [other, back], rng, stop=lambda g: g.version > 40)


def ended_mid_action(plain: bool) -> tuple[list[dict], Game, Room]:
    """A solo game whose player reaches the last space of the track by a market take."""
    cfg = default_config()
    game = Game.new(cfg, ["ada"], 7)
    got: list[dict] = []
    room = Room(1, game, lambda nick, msgs: got.extend(msgs))
    room.start(["ada"])
    if plain:
        room.plain.add("ada")
    me = game.players[0]
    assert room.submit("ada", ReqChooseLeaders(tuple(me.hand[:2])))
    me.faith = cfg.last_space - 1
    line = next(i for i in range(cfg.market_rows)
                if "Faith" in game.market[i * cfg.market_columns:(i + 1) * cfg.market_columns])
    del got[:]
    assert room.submit("ada", ReqTakeFromMarket(True, line, {}, {}))
    return got, game, room


def reference_records(name: str, conn: str) -> list[tuple[str, dict]]:
    """(direction, message) of every line ``conn`` sent or got in transcript ``name``."""
    out = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["dir"] in ("c2s", "s2c") and rec["conn"] == conn:
            out.append((rec["dir"], json.loads(rec["line"])))
    return out


def test_a_solo_game_won_mid_action_ends_at_the_next_request_as_the_reference_ends_games():
    """The reference ends a solo game only in answer to ``ReqEndTurn`` (then ``ErrAction
    GAME_ENDED``); its client reaches its end screen only that way (sent unasked right after the
    action, the ending found it drawing its turn menu again). Our rules end the game at once (E27),
    the winner and the moment stay ours: a reference client gets the action's updates
    (``UpdateLastRound`` among them) and ``UpdateAction``, then, as the answer to its next request,
    its last points, ``UpdateGameEnd`` and ``UpdateAction END_TURN``."""
    recs = reference_records("solo-to-end.jsonl", "A")
    end = next(i for i, (d, m) in enumerate(recs) if m["type"] == "UpdateGameEnd")
    asked = next(m for d, m in reversed(recs[:end]) if d == "c2s")
    assert asked == {"type": "ReqEndTurn"}
    assert [m["type"] for _, m in recs[end - 2:end + 2]] == [
        "UpdateLastRound", "UpdateActionToken", "UpdateGameEnd", "UpdateAction"]
    assert recs[end + 1][1]["action"] == "END_TURN"
    assert recs[end + 2:end + 4] == [("c2s", {"type": "ReqEndTurn"}), ("s2c", {"reason": "GAME_ENDED", "type": "ErrAction"})]

    got, game, room = ended_mid_action(plain=True)
    assert game.ended and game.winners == ("ada",)
    assert "UpdateGameEnd" not in types(got) and "UpdateLastRound" in types(got)
    assert got[-1] == {"action": "TAKE_MARKET_RESOURCES", "player": "ada", "type": "UpdateAction"}
    del got[:]
    assert not room.submit("ada", ReqEndTurn())
    assert got == [{"player": "ada", "victoryPoints": game.players[0].vp, "type": "UpdateVictoryPoints"},
                   {"winner": "ada", "type": "UpdateGameEnd"},
                   {"action": "END_TURN", "player": "ada", "type": "UpdateAction"}]
    del got[:]
    assert not room.submit("ada", ReqEndTurn())
    assert got == [{"reason": "GAME_ENDED", "type": "ErrAction"}]
    # our own client keeps the engine's order: one answer, ending in the action's UpdateAction
    ours, _, _ = ended_mid_action(plain=False)
    assert types(ours)[-2:] == ["UpdateGameEnd", "UpdateAction"]
    assert ours[-1]["action"] == "TAKE_MARKET_RESOURCES"


def test_a_whole_solo_game_ends_for_a_reference_client_with_end_turn(players, server):
    """However a solo game ends, a reference client's last game messages are ``UpdateGameEnd``
    and ``UpdateAction END_TURN``, as on the reference server (after its ``ReqEndTurn`` if the game
    ended in the middle of its turn)."""
    (a,) = players(server.address, "solo")
    start_game(a, token=None)
    game = room_of(server, "solo").game
    drive(game, [a], random.Random(8))
    assert game.ended
    if a.received[-1]["action"] != "END_TURN":
        a.request(ReqEndTurn())
    end = [i for i, m in enumerate(a.received) if m["type"] == "UpdateGameEnd"]
    assert len(end) == 1
    assert a.received[end[0] + 1:] == [{"action": "END_TURN", "player": "solo", "type": "UpdateAction"}]
