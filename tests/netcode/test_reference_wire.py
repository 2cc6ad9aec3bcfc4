"""The reference's wire for reference clients (``game/netcode/reference.py``), message by message.

Each expected message or sequence is first found in ``tests/data/reference-transcripts/`` (so it
is the reference server's, not a guess), then a :class:`Room` with one reference client (``plain``)
and one of ours must send it to the first and keep our richer message for the second.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from game.netcode.reference import reference_vp, stored
from game.netcode.room import Room
from game.rules import default_config
from game.rules.actions import (ReqActivateProductions, ReqBuyDevCard, ReqChooseLeaders, ReqEndTurn,
                                ReqLeaderAction, ReqSwapShelves, ReqTakeFromMarket)
from game.rules.engine import Game
from game.rules.playout import choose

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"
CFG = default_config()


def transcript(name: str) -> list[dict]:
    """Every record of a transcript, with ``msg`` the decoded line of c2s and s2c records."""
    out = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["dir"] in ("c2s", "s2c"):
            try:
                rec["msg"] = json.loads(rec["line"])
            except ValueError:   # the garbage lines of errors.jsonl
                rec["msg"] = {"type": None}
        out.append(rec)
    return out


def answer_to(name: str, conn: str, request: dict) -> list[dict]:
    """What the reference sent ``conn`` after its line ``request``, up to its next line."""
    recs = [r for r in transcript(name) if r["conn"] == conn and r["dir"] in ("c2s", "s2c")]
    at = next(i for i, r in enumerate(recs) if r["dir"] == "c2s" and r["msg"] == request)
    out = []
    for r in recs[at + 1:]:
        if r["dir"] == "c2s":
            break
        out.append(r["msg"])
    return out


class Table:
    """A room whose players are ``plain`` (reference clients) or ours; ``got[nick]`` is all each got."""

    def __init__(self, nicknames: list[str], plain: set[str], seed: int = 1) -> None:
        self.game = Game.new(CFG, nicknames, seed)
        self.got: dict[str, list[dict]] = {n: [] for n in nicknames}
        self.room = Room(1, self.game, lambda nick, msgs: self.got[nick].extend(msgs))
        self.room.plain = set(plain)
        self.room.start(nicknames)

    def since(self, nick: str, mark: int) -> list[dict]:
        return self.got[nick][mark:]

    def marks(self) -> dict[str, int]:
        return {n: len(m) for n, m in self.got.items()}

    def setup(self, rng: random.Random) -> None:
        for p in self.game.players:
            assert self.room.submit(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
            if not p.chose_resources:
                assert self.room.submit(p.nickname, choose(self.game, p.nickname, rng))

    def play(self, rng: random.Random, stop=lambda g: False, check=None) -> None:
        """Play the engine's random policy until the game ends or ``stop(game)``; ``check()`` after
        each request."""
        for _ in range(5000):
            if self.game.ended or stop(self.game):
                return
            nick = self.game.current_player.nickname
            assert self.room.submit(nick, choose(self.game, nick, rng))
            if check is not None:
                check()
        raise AssertionError("the game did not end")


def told_points(msgs: list[dict]) -> dict[str, int]:
    """Each player's points as a client that got ``msgs`` knows them (UpdateGame, then updates)."""
    points: dict[str, int] = {}
    for m in msgs:
        if m["type"] == "UpdateGame":
            points = {p["nickname"]: p["victoryPoints"] for p in m["players"]}
        elif m["type"] == "UpdateVictoryPoints":
            points[m["player"]] = m["victoryPoints"]
    return points


def test_nobody_is_told_who_leaves_once_the_game_is_over():
    """On the reference, once ``UpdateGameEnd`` is sent a client gets only the answers to its own
    lines (its CLI, drawing the scores, failed on an unasked ``UpdatePlayerStatus``)."""
    recs = [r for r in transcript("solo-to-end.jsonl") if r["dir"] in ("c2s", "s2c")]
    end = next(i for i, r in enumerate(recs) if r["dir"] == "s2c" and r["msg"]["type"] == "UpdateGameEnd")
    after = recs[end + 2:]   # past the ending's UpdateAction
    assert after and all(r["dir"] == "c2s" for r in after[0::2]) and all(r["dir"] == "s2c" for r in after[1::2])

    t = Table(["ref", "ours", "gone"], plain={"ref"}, seed=11)
    t.setup(random.Random(1))
    t.play(random.Random(2))
    assert t.game.ended
    mark = t.marks()
    t.room.leave("gone")
    assert t.since("ref", mark["ref"]) == []
    assert t.since("ours", mark["ours"]) == [{"player": "gone", "isActive": False, "type": "UpdatePlayerStatus"}]


def test_points_leave_stored_resources_out_until_the_end():
    """The reference's points during play count no stored resource (6 kept, faith 3: 1 point);
    our clients' count them at every step. At the end of a game someone won, every player is
    sent their final points (resources counted) before ``UpdateGameEnd``."""
    recs = transcript("solo-to-end.jsonl")
    at = next(i for i, r in enumerate(recs) if r["dir"] == "s2c" and r["msg"]["type"] == "UpdateVictoryPoints")
    assert recs[at]["msg"] == {"player": "finisher", "victoryPoints": 1, "type": "UpdateVictoryPoints"}
    boxes = {}
    for r in recs[:at]:
        if r["dir"] == "s2c" and r["msg"]["type"] == "UpdateResourceContainer":
            boxes[r["msg"]["resContainer"]["id"]] = sum(r["msg"]["resContainer"]["content"].values())
    assert sum(boxes.values()) == 6 >= CFG.resources_per_vp

    t = Table(["ref", "ours"], plain={"ref"}, seed=5)
    t.setup(random.Random(3))
    game = t.game
    kept = []

    def check():
        ref, ours = told_points(t.got["ref"]), told_points(t.got["ours"])
        if game.ended:
            return
        for p in game.players:
            assert ref[p.nickname] == reference_vp(game, p.nickname) == p.vp - stored(game, p.nickname) // CFG.resources_per_vp
            assert ours[p.nickname] == p.vp
            if stored(game, p.nickname) >= CFG.resources_per_vp:
                kept.append(p.nickname)

    t.play(random.Random(4), check=check)
    assert game.ended and game.winners and kept
    for nick in ("ref", "ours"):
        assert told_points(t.got[nick]) == {p.nickname: p.vp for p in game.players}
    seen = [m["type"] for m in t.got["ref"]]
    end = seen.index("UpdateGameEnd")
    last = len(seen) - 1 - seen[::-1].index("UpdateAction", len(seen) - end)   # the answer before the end
    assert seen[last + 1:end + 2].count("UpdateVictoryPoints") == 2
    assert seen[end - 2:end + 2] == ["UpdateVictoryPoints"] * 2 + ["UpdateGameEnd", "UpdateAction"]
    assert [m["player"] for m in t.got["ref"][end - 2:end]] == list(game.nicknames)


def test_a_development_card_not_paid_is_refused_as_the_reference_refuses_it():
    """A buy with nothing offered: the reference's ``ErrReplacedTransRecipe`` (its CLI: "choose all
    and only the needed resources"), not ``ErrCardRequirements``, which it keeps for leaders."""
    request = {"type": "ReqBuyDevCard", "color": "Green", "level": 1, "devSlot": 0, "resContainers": {}}
    (expected,) = answer_to("errors.jsonl", "S", request)
    assert expected["type"] == "ErrReplacedTransRecipe" and expected["isIllegalDiscardedOut"]
    (leader,) = answer_to("solo-opening.jsonl", "A", {"type": "ReqLeaderAction", "leader": 2, "isActivate": True})
    assert leader["type"] == "ErrCardRequirements"

    t = Table(["ref", "ours"], plain={"ref"}, seed=2)
    t.setup(random.Random(1))
    for nick, want in (("ref", expected), ("ours", None)):
        while t.game.current_player.nickname != nick:
            current = t.game.current_player.nickname
            assert t.room.submit(current, ReqTakeFromMarket(True, 0, {}, {}))
            assert t.room.submit(current, ReqEndTurn())
        mark = len(t.got[nick])
        assert not t.room.submit(nick, ReqBuyDevCard("gREEN", 1, 0, {}))   # named as the engine reads it
        (got,) = t.since(nick, mark)
        if want is not None:
            assert got == want
        else:
            assert got["type"] == "ErrCardRequirements" and got["missingResources"]


def test_an_offer_that_is_right_but_not_there_is_a_transfer_error():
    """The reference takes what was offered from the containers named: missing there, it answers
    ``ErrResourceTransfer {isAdded: false}`` (seen for a production paid from empty shelves)."""
    request = {"type": "ReqActivateProductions", "prodRequests": [
        {"production": 0, "inputContainers": {"0": {"Coin": 1}, "1": {"Stone": 1}},
         "inputNonStorableRep": {}, "outputRep": {"Shield": 1}}]}
    (expected,) = answer_to("errors.jsonl", "S", request)
    assert expected == {"resType": "Stone", "isAdded": False, "reason": "CAPACITY_REACHED", "type": "ErrResourceTransfer"}

    t = Table(["ref"], plain={"ref"}, seed=2)
    t.setup(random.Random(1))
    card = t.game.top_card("Green", 1)
    shelf = t.game.players[0].shelves[2].id
    mark = len(t.got["ref"])
    assert not t.room.submit("ref", ReqBuyDevCard("Green", 1, 0, {shelf: dict(card.cost)}))
    (got,) = t.since("ref", mark)
    assert got == {"resType": next(iter(card.cost)), "isAdded": False, "reason": "CAPACITY_REACHED",
                   "type": "ErrResourceTransfer"}


def test_a_faith_only_production_sends_the_strongbox_too():
    """The reference answers a production whose only output is Faith with the shelf paid from,
    the strongbox (unchanged), the faith, then ``UpdateAction``."""
    request = {"type": "ReqActivateProductions", "prodRequests": [
        {"production": 7, "inputContainers": {"0": {"Shield": 1}}, "inputNonStorableRep": {}, "outputRep": {}}]}
    expected = answer_to("buy-and-produce.jsonl", "A", request)
    assert [m["type"] for m in expected] == ["UpdateResourceContainer", "UpdateResourceContainer",
                                             "UpdateFaithPoints", "UpdateAction"]
    assert expected[1]["resContainer"]["size"] == -1 and expected[1]["resContainer"]["content"] == {}

    for plain, containers in (({"p"}, 2), (set(), 1)):
        t = Table(["p"], plain=plain, seed=3)
        t.setup(random.Random(1))
        me = t.game.players[0]
        me.slots[0].append(2)                      # Blue 1: 1 Shield -> 1 Faith (production 7)
        me.shelves[0].content = {"Shield": 1}
        mark = len(t.got["p"])
        prod = CFG.dev_cards[2].production.id
        assert t.room.submit("p", ReqActivateProductions.from_dict({**request, "prodRequests": [
            {**request["prodRequests"][0], "production": prod, "inputContainers": {str(me.shelves[0].id): {"Shield": 1}}}]}))
        got = [m for m in t.since("p", mark) if m["type"] != "UpdateVictoryPoints"]
        assert [m["type"] for m in got] == ["UpdateResourceContainer"] * containers + ["UpdateFaithPoints", "UpdateAction"]
        if plain:
            assert got[1]["resContainer"] == {"id": me.strongbox.id, "content": {}, "size": -1}


def test_leader_activation_and_the_grid_in_the_reference_shape():
    """``UpdateDevCardGrid`` as every one of the transcripts has it (no ``cardsLeft``), and
    ``UpdateActivateLeader {leader}`` (the reference's class has that one field); our clients
    keep ``cardsLeft`` and who activated the leader."""
    grids = [r["msg"] for name in sorted(p.name for p in DATA.glob("*.jsonl")) for r in transcript(name)
             if r["dir"] == "s2c" and r["msg"]["type"] == "UpdateDevCardGrid"]
    assert grids and all(set(g["devCardGrid"]) == {"levelsCount", "colorsCount", "topCards"} for g in grids)

    for seed in range(4, 40):   # a table whose first player holds a leader that asks for resources
        t = Table(["ref", "ours"], plain={"ref"}, seed=seed)
        t.setup(random.Random(1))
        game = t.game
        nick = game.current_player.nickname
        me = game.player(nick)
        leader = next((lid for lid in me.hand if CFG.leaders[lid].requires_resources), None)
        if leader is not None:
            break
    for r, n in CFG.leaders[leader].requires_resources.items():
        me.strongbox.content[r] = me.strongbox.content.get(r, 0) + n
    mark = t.marks()
    assert t.room.submit(nick, ReqLeaderAction(leader, True))
    ref = [m for m in t.since("ref", mark["ref"]) if m["type"] == "UpdateActivateLeader"]
    ours = [m for m in t.since("ours", mark["ours"]) if m["type"] == "UpdateActivateLeader"]
    assert ref == [{"leader": leader, "type": "UpdateActivateLeader"}]
    assert ours == [{"leader": leader, "player": nick, "type": "UpdateActivateLeader"}]
    t.play(random.Random(5), stop=lambda g: any(p.card_count() for p in g.players))
    ref = [m for m in t.got["ref"] if m["type"] == "UpdateDevCardGrid"]
    ours = [m for m in t.got["ours"] if m["type"] == "UpdateDevCardGrid"]
    assert ref and all(set(m["devCardGrid"]) == {"levelsCount", "colorsCount", "topCards"} for m in ref)
    assert all("cardsLeft" in m["devCardGrid"] for m in ours)
    assert "cardsLeft" not in t.room.view("ref")["devCardGrid"] and "cardsLeft" in t.room.view("ours")["devCardGrid"]


def test_faith_asked_of_a_free_output_is_excluded():
    """Faith is never a free choice: the reference calls it ``EXCLUDED`` there; our clients are told
    ``ILLEGAL_NON_STORABLE`` (the engine's word, which our refusals explain)."""
    for plain, reason in (({"p"}, "EXCLUDED"), (set(), "ILLEGAL_NON_STORABLE")):
        t = Table(["p"], plain=plain, seed=3)
        t.setup(random.Random(1))
        me = t.game.players[0]
        me.strongbox.content = {"Coin": 2}
        mark = len(t.got["p"])
        request = ReqActivateProductions.from_dict({"type": "ReqActivateProductions", "prodRequests": [
            {"production": CFG.base_production.id, "inputContainers": {str(me.strongbox.id): {"Coin": 2}},
             "inputNonStorableRep": {}, "outputRep": {"Faith": 1}}]})
        assert not t.room.submit("p", request)
        assert t.since("p", mark) == [{"isInput": False, "isReplacement": True, "reason": reason,
                                       "type": "ErrInvalidResourceTransaction"}]


def test_a_swap_moves_the_contents_through_empty_shelves():
    """The reference answers a swap of two empty shelves with ``UpdateAction`` alone; it empties each
    shelf that held something, then fills each (4 updates for two full shelves). Our clients get
    each shelf as it now is."""
    expected = answer_to("solo-opening.jsonl", "A", {"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 1})
    assert [m["type"] for m in expected] == ["UpdateAction"]

    t = Table(["ref", "ours"], plain={"ref"}, seed=6)
    t.setup(random.Random(1))
    nick = t.game.current_player.nickname
    me = t.game.player(nick)
    a, b = me.shelves[1], me.shelves[2]
    a.content, b.content = {}, {}
    for content_a, content_b, ref_count in (({}, {}, 0), ({"Coin": 1}, {}, 2), ({"Coin": 2}, {"Stone": 1}, 4)):
        a.content, b.content = dict(content_a), dict(content_b)
        mark = t.marks()
        assert t.room.submit(nick, ReqSwapShelves(a.id, b.id))
        ref, ours = t.since("ref", mark["ref"]), t.since("ours", mark["ours"])
        assert [m["type"] for m in ref] == ["UpdateResourceContainer"] * ref_count + ["UpdateAction"]
        assert [m["type"] for m in ours] == ["UpdateResourceContainer"] * 2 + ["UpdateAction"]
        shown = {}
        for m in ref[:-1]:
            shown[m["resContainer"]["id"]] = m["resContainer"]["content"]
        assert shown.get(a.id, {}) == content_b and shown.get(b.id, {}) == content_a
        if ref_count == 4:
            assert [(m["resContainer"]["id"], m["resContainer"]["content"]) for m in ref[:4]] == [
                (a.id, {}), (b.id, {}), (a.id, content_b), (b.id, content_a)]
