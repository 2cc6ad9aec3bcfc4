"""``game.rules.views.player_view``: the ``UpdateGame`` message one player may see.

Shape (reference key order, ``type`` last), hidden information (other players' hands, deck
order, Lorenzo's draw pile), size, serialisability and the consistency of the ids it names.
States come from seeded random play stopped at random points.
"""
from __future__ import annotations

import copy
import random
from functools import lru_cache

import orjson
import pytest

from game.rules.components import default_config
from game.rules.engine import Game
from game.rules.playout import steps
from game.rules.views import player_view, player_views

CFG = default_config()
NICKS = {1: ["Ada"], 2: ["Ada", "Bo"], 3: ["Ada", "Bo", "Cy"], 4: ["Ada", "Bo", "Cy", "Di"]}

REFERENCE_KEYS = ["players", "devCardColors", "resourceTypes", "leaderCards", "developmentCards",
                  "resContainers", "productions", "actionTokens", "faithTrack", "market", "devCardGrid",
                  "isSetupDone", "devSlotsCount", "currentPlayer", "inkwellPlayer", "winnerPlayer",
                  "blackPoints", "lastRound", "ended", "isMandatoryActionDone", "lastActionToken", "revealedActionTokens", "type"]
PLAYER_KEYS = {"nickname", "baseProduction", "warehouseShelves", "strongbox", "setup", "leadersHand",
               "leadersHandCount", "devSlots", "faithPoints", "victoryPoints", "active"}


@lru_cache(maxsize=None)
def sampled() -> tuple[tuple[int, int, tuple], ...]:
    """(players, seed, history prefix): the start, random mid-game points and the end."""
    out = []
    for n in (1, 2, 3, 4):
        for seed in range(4):
            g = Game.new(CFG, NICKS[n], 100 + seed)
            for nick, action in steps(g, random.Random(seed)):
                g.apply(nick, action)
            hist = tuple(g.history)
            r = random.Random(seed + 10 * n)
            for k in sorted({0, len(hist)} | {r.randrange(len(hist)) for _ in range(4)}):
                out.append((n, 100 + seed, hist[:k]))
    return tuple(out)


def games():
    for n, seed, hist in sampled():
        yield Game.replay(CFG, NICKS[n], seed, hist)


def viewers(g: Game) -> list:
    return [p.nickname for p in g.players] + [None]


def test_top_level_keys_are_the_reference_ones_in_order_with_type_last():
    seen_optional = set()
    for g in games():
        for who in viewers(g):
            v = player_view(g, who)
            optional = {"actionTokens": g.solo, "winnerPlayer": bool(g.winners),
                        "lastActionToken": g.solo and g.last_token is not None,
                        "revealedActionTokens": g.solo}
            want = [k for k in REFERENCE_KEYS if optional.get(k, True)]
            assert list(v) == want
            assert list(v)[-1] == "type" and v["type"] == "UpdateGame"
            seen_optional |= {k for k, on in optional.items() if on}
            for pv in v["players"]:
                assert PLAYER_KEYS <= set(pv)
    assert seen_optional == {"actionTokens", "winnerPlayer", "lastActionToken", "revealedActionTokens"}


def test_view_mirrors_the_public_state():
    for g in games():
        v = player_view(g, g.players[0].nickname)
        assert [pv["nickname"] for pv in v["players"]] == [p.nickname for p in g.players]
        for pv, p in zip(v["players"], g.players):
            assert pv["faithPoints"] == p.faith and pv["victoryPoints"] == p.vp == g.score(p.nickname).total
            assert pv["devSlots"] == [list(s) for s in p.slots]
            assert pv["active"] == p.active
            assert pv["setup"]["hasChosenLeaders"] == p.chose_leaders
            assert pv["setup"]["initialResources"] == p.bonus
        assert v["currentPlayer"] == g.current_player.nickname
        assert v["inkwellPlayer"] == g.players[0].nickname
        assert v["isSetupDone"] == (g.phase != "setup") and v["ended"] == g.ended
        assert v["blackPoints"] == g.black_cross and v["lastRound"] == g.last_round
        assert v["isMandatoryActionDone"] == g.main_done
        assert v["market"]["grid"] == [g.market[i:i + 4] for i in range(0, 12, 4)]
        assert v["market"]["slide"] == g.slide
        assert {c["id"]: c["content"] for c in v["resContainers"]} == {c.id: c.content for c in g.containers}
        for rc, c in zip(v["resContainers"], g.containers):
            bound = c.res_type() if c.kind != "strongbox" else None   # the reference binds no strongbox
            keys = ["id", "content", "boundedResType", "size"] if bound else ["id", "content", "size"]
            assert list(rc) == keys
            assert rc["size"] == c.capacity and rc.get("boundedResType") == bound
        for color, tops in v["devCardGrid"]["topCards"].items():
            assert tops[0] is None
            for lv, cid in zip(CFG.levels, tops[1:]):
                deck = g.decks[color][lv]
                assert cid == (deck[-1] if deck else None)
        sections = v["faithTrack"]["vaticanSections"]
        for i, sec in enumerate(CFG.vatican_sections):
            assert sections[str(sec.pope_space)]["activated"] == g.fired[i]
        if g.winners:
            assert v["winnerPlayer"] == g.winners[0]


def test_other_players_see_only_active_leaders_and_the_real_count():
    some_active = some_hidden = 0
    for g in games():
        for who in viewers(g):
            v = player_view(g, who)
            for pv, p in zip(v["players"], g.players):
                assert pv["leadersHandCount"] == len(p.hand)
                if p.nickname == who:
                    assert sorted(pv["leadersHand"]) == sorted(p.hand)
                else:
                    assert sorted(pv["leadersHand"]) == sorted(p.active_leaders)
                    hidden = set(p.hand) - set(p.active_leaders)
                    some_hidden += bool(hidden)
                    some_active += bool(p.active_leaders)
    assert some_active and some_hidden


def test_nothing_in_the_view_depends_on_another_players_hidden_leaders():
    """Swap an unplayed leader of one player for a leader nobody holds: the others' views are equal."""
    checked = 0
    for g in games():
        if g.solo:
            continue
        held = {lid for p in g.players for lid in p.hand}
        free = [lid for lid in range(len(CFG.leaders)) if lid not in held]
        if not free:        # 4 players in setup: every leader is dealt
            continue
        for p in g.players:
            hidden = [lid for lid in p.hand if lid not in p.active_leaders]
            if not hidden:
                continue
            g2 = copy.deepcopy(g)
            q = g2.player(p.nickname)
            q.hand[q.hand.index(hidden[0])] = free[0]
            for who in [o.nickname for o in g.players if o is not p] + [None]:
                assert player_view(g, who) == player_view(g2, who)
            assert player_view(g, p.nickname) != player_view(g2, p.nickname)
            checked += 1
    assert checked > 10


def test_deck_order_below_the_top_card_is_not_exposed():
    checked = 0
    for g in games():
        g2 = copy.deepcopy(g)
        rng = random.Random(g.version)
        changed = False
        for ds in g2.decks.values():
            for deck in ds.values():
                if len(deck) > 2:
                    below = deck[:-1]
                    rng.shuffle(below)
                    below.reverse()
                    changed |= below != deck[:-1]
                    deck[:-1] = below
        if not changed:
            continue
        assert g2.snapshot()["decks"] != g.snapshot()["decks"]
        for who in viewers(g):
            assert player_view(g, who) == player_view(g2, who)
        checked += 1
    assert checked > 10


def test_action_tokens_are_listed_by_id_whatever_the_draw_pile():
    checked = 0
    for g in games():
        if not g.solo:
            assert "actionTokens" not in player_view(g, g.players[0].nickname)
            continue
        g2 = copy.deepcopy(g)
        g2.tokens = list(reversed(g.tokens))
        g3 = copy.deepcopy(g)
        random.Random(3).shuffle(g3.tokens)
        assert g2.tokens != g.tokens
        v1, v2, v3 = (player_view(x, "Ada") for x in (g, g2, g3))
        assert [t["id"] for t in v1["actionTokens"]] == sorted(t.id for t in CFG.solo_tokens)
        assert v1["actionTokens"] == v2["actionTokens"] == v3["actionTokens"]
        assert v1 == v2 == v3
        checked += 1
    assert checked >= 4


def test_the_tokens_face_up_since_the_shuffle_are_in_the_view_and_come_back_with_a_replay():
    """``revealedActionTokens`` (our extension): the tokens shown since the last shuffle, in the
    order they came, as a player who watched every ``UpdateActionToken`` knows them; a game
    rebuilt from its history (a resume, a restart) has them too; the hidden order does not show."""
    shuffle = {t.id for t in CFG.solo_tokens if t.kind == "move_shuffle"}
    checked = 0
    for seed in range(6):
        g = Game.new(CFG, ["Ada"], 300 + seed)
        watched: list[int] = []
        for nick, action in steps(g, random.Random(seed)):
            for e in g.apply(nick, action):
                if e.get("type") == "UpdateActionToken":
                    watched = [] if e["actionToken"] in shuffle else watched + [e["actionToken"]]
            v = player_view(g, "Ada")
            assert v["revealedActionTokens"] == watched
            if watched:
                assert g.tokens[-len(watched):] == watched       # face up: at the bottom of the pile
                checked += 1
        again = Game.replay(CFG, ["Ada"], g.seed, g.history)
        assert player_view(again, "Ada")["revealedActionTokens"] == watched
        hidden = copy.deepcopy(g)
        rest = hidden.tokens[:len(hidden.tokens) - len(watched)]
        random.Random(seed).shuffle(rest)
        hidden.tokens[:len(rest)] = rest
        assert player_view(hidden, "Ada") == player_view(g, "Ada")
    assert checked > 20


def test_view_is_json_and_small():
    biggest = 0
    for g in games():
        for who in viewers(g):
            data = orjson.dumps(player_view(g, who))
            biggest = max(biggest, len(data))
            assert orjson.loads(data) == player_view(g, who)
    assert biggest < 40_000


def test_ids_in_the_view_are_consistent():
    for g in games():
        v = player_view(g, g.players[-1].nickname)
        containers = [c["id"] for c in v["resContainers"]]
        assert len(containers) == len(set(containers))
        by_id = {c["id"]: c for c in v["resContainers"]}
        productions = [p["id"] for p in v["productions"]]
        assert len(productions) == len(set(productions)) == len(CFG.productions)
        cards = {c["id"]: c for c in v["developmentCards"]}
        leaders = {c["id"]: c for c in v["leaderCards"]}
        assert sorted(cards) == list(range(len(CFG.dev_cards)))
        assert sorted(leaders) == list(range(len(CFG.leaders)))
        for pv in v["players"]:
            assert pv["baseProduction"] in productions
            assert len(pv["warehouseShelves"]) == 3
            for cid in pv["warehouseShelves"]:
                assert by_id[cid]["size"] > 0
            assert by_id[pv["strongbox"]]["size"] == -1
            for cid in pv["leaderDepots"]:
                assert cid in by_id
            for lid in pv["leadersHand"]:
                assert lid in leaders
            for slot in pv["devSlots"]:
                assert all(cid in cards for cid in slot)
        for c in v["developmentCards"]:
            assert c["production"] in productions
        for ld in v["leaderCards"]:
            if ld["leaderType"] == "DEPOT":
                assert ld["containerId"] in by_id and by_id[ld["containerId"]]["boundedResType"] == ld["resourceType"]
            else:
                assert ld["containerId"] == -1
            if ld["leaderType"] == "PRODUCTION":
                assert ld["production"] in productions
            else:
                assert ld["production"] == -1
        for color, tops in v["devCardGrid"]["topCards"].items():
            for lv, cid in enumerate(tops):
                if cid is not None:
                    assert cards[cid]["color"] == color and cards[cid]["level"] == lv
        every_owned = [cid for pv in v["players"] for cid in (*pv["warehouseShelves"], pv["strongbox"])]
        assert len(every_owned) == len(set(every_owned))


def test_changing_the_view_does_not_change_the_game():
    for g in list(games())[::5]:
        before = g.snapshot()
        v = player_view(g, g.players[0].nickname)
        for c in v["resContainers"]:
            c["content"]["Coin"] = 99
        for pv in v["players"]:
            for slot in pv["devSlots"]:
                slot.append(0)
            pv["leadersHand"].append(0)
        v["market"]["grid"][0][0] = "Faith"
        for tops in v["devCardGrid"]["topCards"].values():
            tops.append(1)
        assert g.snapshot() == before


def test_views_of_every_player_at_once_are_each_players_own_view():
    for g in list(games())[::3]:
        nicks = [p.nickname for p in g.players] + [None]
        assert player_views(g, nicks) == [player_view(g, n) for n in nicks]


@pytest.mark.parametrize("n", [1, 4])
def test_a_view_stays_as_it_was_sent_while_the_game_goes_on(n):
    """Views share what no game changes (the cards' faces...), never a part of the game: one
    taken at any point still says, at the end of the game, what it said then."""
    g = Game.new(CFG, NICKS[n], 77)
    kept = []
    for i, (nick, action) in enumerate(steps(g, random.Random(7))):
        g.apply(nick, action)
        if i % 3 == 0:
            views = player_views(g, [p.nickname for p in g.players])
            kept += [(v, orjson.dumps(v)) for v in views + [player_view(g, nick)]]
        if i % 5 == 0 and g.can_undo(nick):
            events = g.undo(nick)
            kept += [(e, orjson.dumps(e)) for e in events]
            g.apply(nick, action)
    assert g.phase == "ended" and len(kept) > 20
    assert all(orjson.dumps(v) == sent for v, sent in kept)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_view_at_the_start_hides_every_hand_but_ones_own(n):
    g = Game.new(CFG, NICKS[n], 9)
    for p in g.players:
        v = player_view(g, p.nickname)
        for pv, q in zip(v["players"], g.players):
            assert pv["leadersHand"] == (list(q.hand) if q is p else [])
            assert pv["leadersHandCount"] == CFG.leaders_dealt
    spectator = player_view(g, None)
    assert all(pv["leadersHand"] == [] for pv in spectator["players"])
