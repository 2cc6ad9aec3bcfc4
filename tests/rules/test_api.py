"""The public contract of :class:`game.rules.engine.Game` and :mod:`game.rules.actions`.

- ``Game.new`` validates players and nicknames.
- A refused request changes nothing: many garbage requests are sent in many states reached by
  random play; each must raise a :class:`GameError` and leave ``snapshot()``, ``history`` and
  ``version`` as they were.
- ``set_active``: skipped turns, the current player leaving, coming back, everybody leaving,
  setup completing without an absent player, solo.
- ``Action.from_dict`` refuses malformed messages with :class:`MalformedRequest`, and every
  request survives ``to_dict`` → JSON → ``from_dict``.
- The engine's shuffle is ``random.Random.shuffle``'s: same order, same draws (a seed gives the
  game it always gave).
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Iterator

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import errors as E
from game.rules.actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                                ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction,
                                ReqMoveResources, ReqSwapShelves, ReqTakeFromMarket)
from game.rules.choices import market_lines, take_market_request
from game.rules.components import default_config
from game.rules.engine import Game, _shuffle
from game.rules.playout import steps

CFG = default_config()
BASE = CFG.base_production.id
NICKS = {1: ["Ada"], 2: ["Ada", "Bo"], 3: ["Ada", "Bo", "Cy"], 4: ["Ada", "Bo", "Cy", "Di"]}


def test_the_engine_shuffles_exactly_as_random_shuffle_does():
    for seed in range(300):
        for n in (0, 1, 2, 3, 4, 7, 13, 16, 48):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            _shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b and ours.getstate() == theirs.getstate(), (seed, n)


def frozen(g: Game) -> tuple:
    return g.snapshot(), list(g.history), g.version


def assert_refused(g: Game, nick: str, action: Action, label: str = "", before: tuple | None = None) -> E.GameError:
    """``action`` is refused and the game is as it was (``before``: :func:`frozen` of the game
    already taken, when one state meets many refusals)."""
    before = frozen(g) if before is None else before
    with pytest.raises(E.GameError) as info:
        g.apply(nick, action)
    assert frozen(g) == before, f"refused request changed the game: {label} {action}"
    assert isinstance(info.value.to_dict(), dict) and list(info.value.to_dict())[-1] == "type"
    orjson.dumps(info.value.to_dict())
    return info.value


def finish_setup(g: Game) -> Game:
    """Every player keeps their first two leaders and puts their bonus on the biggest shelf."""
    for p in g.players:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
        if p.bonus:
            g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
    assert g.phase == "play"
    return g


def take_any_line(g: Game) -> None:
    p = g.current_player
    g.apply(p.nickname, take_market_request(g, p, market_lines(g, p)[0]))


# --------------------------------------------------------------------------- Game.new


@pytest.mark.parametrize("nicks", [[], ["a", "b", "c", "d", "e"], ["a", "a"], ["a", ""], [""],
                                   ["a", "b", "a"], ["a", None]])
def test_new_refuses_bad_player_lists(nicks):
    with pytest.raises(ValueError):
        Game.new(CFG, nicks, 1)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_new_accepts_one_to_four_players(n):
    g = Game.new(CFG, NICKS[n], 5)
    assert sorted(p.nickname for p in g.players) == sorted(NICKS[n])
    assert g.phase == "setup" and g.history == [] and g.version == 0
    assert [len(p.hand) for p in g.players] == [CFG.leaders_dealt] * n
    assert len({lid for p in g.players for lid in p.hand}) == CFG.leaders_dealt * n
    if n > 1:
        assert [(p.bonus, p.faith) for p in g.players] == [(s.bonus_resources, s.starting_faith)
                                                          for s in CFG.seats[:n]]
    else:
        assert (g.players[0].bonus, g.players[0].faith) == (0, 0)


def test_unknown_nickname_is_a_key_error():
    g = Game.new(CFG, NICKS[2], 5)
    with pytest.raises(KeyError):
        g.apply("Zed", ReqEndTurn())
    with pytest.raises(KeyError):
        g.set_active("Zed", False)


# --------------------------------------------------------------------------- refusals


@lru_cache(maxsize=None)
def sampled_histories() -> tuple[tuple[int, int, tuple], ...]:
    """(players, seed, history prefix) of states met in random play: setup, mid-game, ended."""
    out = []
    for n in (1, 2, 3, 4):
        for seed in range(5):
            g = Game.new(CFG, NICKS[n], seed)
            rng = random.Random(seed)
            for nick, action in steps(g, rng):
                g.apply(nick, action)
            hist = list(g.history)
            cut = random.Random(seed * 7 + n)
            picks = {0, 1, len(hist)} | {cut.randrange(len(hist)) for _ in range(6)}
            out.extend((n, seed, tuple(hist[:k])) for k in sorted(picks))
    return tuple(out)


def state(n: int, seed: int, hist: tuple) -> Game:
    return Game.replay(CFG, NICKS[n], seed, hist)


Garbage = Iterator[tuple[str, str, Action]]


def garbage(g: Game) -> Garbage:
    """(label, nickname, request) triples that must be refused in state ``g``."""
    phase = g.phase
    cur = g.current_player
    others = [q for q in g.players if q is not cur]
    opp = others[0] if others else None
    sh = [s.id for s in cur.shelves]
    box = cur.strongbox.id
    free_depots = [d.id for d in g.leader_depot.values() if d.owner is None]
    not_mine = [lid for lid in range(len(CFG.leaders)) if lid not in cur.hand]

    # whoever is not on turn, whatever they ask
    for q in others:
        if phase != "setup":
            yield "not current player", q.nickname, ReqEndTurn()
            yield "not current player", q.nickname, ReqTakeFromMarket(True, 0)
            yield "not current player", q.nickname, ReqSwapShelves(q.shelves[0].id, q.shelves[1].id)
    if phase == "setup":
        for p in g.players:
            yield "main action in setup", p.nickname, ReqTakeFromMarket(True, 0)
            yield "end turn in setup", p.nickname, ReqEndTurn()
            yield "leader action in setup", p.nickname, ReqLeaderAction(p.hand[0], False)
            yield "swap in setup", p.nickname, ReqSwapShelves(p.shelves[0].id, p.shelves[1].id)
            if p.chose_leaders:
                yield "choose leaders twice", p.nickname, ReqChooseLeaders(tuple(p.hand))
            else:
                yield "choose 3 leaders", p.nickname, ReqChooseLeaders(tuple(p.hand[:3]))
                yield "choose 1 leader", p.nickname, ReqChooseLeaders(tuple(p.hand[:1]))
                yield "duplicate leaders", p.nickname, ReqChooseLeaders((p.hand[0], p.hand[0]))
                foreign = next(i for i in range(len(CFG.leaders)) if i not in p.hand)
                yield "leader not dealt", p.nickname, ReqChooseLeaders((p.hand[0], foreign))
                yield "unknown leader", p.nickname, ReqChooseLeaders((p.hand[0], 16))
                yield "unknown leader", p.nickname, ReqChooseLeaders((p.hand[0], -1))
            s = [x.id for x in p.shelves]
            if p.chose_resources:
                yield "choose resources twice", p.nickname, ReqChooseResources({s[2]: {"Coin": p.bonus or 1}})
            else:
                yield "too many bonus", p.nickname, ReqChooseResources({s[2]: {"Coin": p.bonus + 1}})
                yield "too few bonus", p.nickname, ReqChooseResources({s[2]: {"Coin": p.bonus - 1}} if p.bonus > 1 else {})
                yield "faith in a shelf", p.nickname, ReqChooseResources({s[2]: {"Faith": p.bonus}})
                yield "unknown resource", p.nickname, ReqChooseResources({s[2]: {"Gold": p.bonus}})
                yield "negative count", p.nickname, ReqChooseResources({s[2]: {"Coin": -1, "Stone": p.bonus + 1}})
                yield "strongbox bonus", p.nickname, ReqChooseResources({p.strongbox.id: {"Coin": p.bonus}})
                yield "wrong container", p.nickname, ReqChooseResources({999: {"Coin": p.bonus}})
                q = next(x for x in g.players if x is not p) if len(g.players) > 1 else None
                if q is not None:
                    yield "other's shelf", p.nickname, ReqChooseResources({q.shelves[2].id: {"Coin": p.bonus}})
                if free_depots:
                    yield "inactive leader depot", p.nickname, ReqChooseResources({free_depots[0]: {"Coin": p.bonus}})
                if p.bonus == 2:
                    yield "same type on two shelves", p.nickname, ReqChooseResources({s[1]: {"Coin": 1}, s[2]: {"Coin": 1}})
                    yield "two types on a shelf", p.nickname, ReqChooseResources({s[2]: {"Coin": 1, "Stone": 1}})
                    yield "over capacity", p.nickname, ReqChooseResources({s[0]: {"Coin": 2}})
        return
    nick = cur.nickname
    if phase == "ended":
        for p in g.players:
            yield "after the end", p.nickname, ReqEndTurn()
            yield "after the end", p.nickname, ReqTakeFromMarket(False, 1)
            yield "setup after the end", p.nickname, ReqChooseLeaders(tuple(p.hand[:2]))
        return
    yield "setup request in play", nick, ReqChooseLeaders(tuple(cur.hand[:2]))
    yield "setup request in play", nick, ReqChooseResources({})
    if not g.main_done:
        yield "early end turn", nick, ReqEndTurn()
    # containers
    yield "wrong container id", nick, ReqSwapShelves(999, sh[0])
    yield "wrong container id", nick, ReqSwapShelves(sh[0], -1)
    yield "same container", nick, ReqSwapShelves(sh[1], sh[1])
    yield "strongbox swap", nick, ReqSwapShelves(sh[2], box)
    if opp:
        yield "other's container", nick, ReqSwapShelves(sh[0], opp.shelves[0].id)
        yield "other's container", nick, ReqMoveResources(opp.shelves[2].id, sh[2], "Coin", 1)
    if free_depots:
        yield "inactive leader depot", nick, ReqSwapShelves(sh[0], free_depots[0])
    src = next((s for s in cur.shelves if s.content), None)
    yield "move nothing", nick, ReqMoveResources(sh[0], sh[1], "Coin", 0)
    yield "negative count", nick, ReqMoveResources(sh[0], sh[1], "Coin", -1)
    yield "unknown resource", nick, ReqMoveResources(sh[0], sh[1], "Gold", 1)
    yield "faith in a shelf", nick, ReqMoveResources(sh[0], sh[1], "Faith", 1)
    yield "from the strongbox", nick, ReqMoveResources(box, sh[2], "Coin", 1)
    if src is not None:
        r, n = next(iter(src.content.items()))
        dst = next(s for s in cur.shelves if s is not src)
        yield "move more than held", nick, ReqMoveResources(src.id, dst.id, r, n + 1)
        yield "to the strongbox", nick, ReqMoveResources(src.id, box, r, 1)
        small = cur.shelves[0]
        if src.total() > small.capacity and src is not small:
            yield "swap over capacity", nick, ReqSwapShelves(src.id, small.id)
    # leaders
    yield "unknown leader", nick, ReqLeaderAction(16, True)
    yield "unknown leader", nick, ReqLeaderAction(-1, False)
    yield "leader not owned", nick, ReqLeaderAction(not_mine[0], True)
    yield "leader not owned", nick, ReqLeaderAction(not_mine[-1], False)
    for lid in cur.active_leaders:
        yield "discard active leader", nick, ReqLeaderAction(lid, False)
        yield "activate twice", nick, ReqLeaderAction(lid, True)
    for lid in cur.hand:
        if lid not in cur.active_leaders:
            cards, res = g.missing_requirements(cur, CFG.leaders[lid])
            if cards or res:
                yield "requirements not met", nick, ReqLeaderAction(lid, True)
    # market
    for is_row, idx in ((True, 3), (False, 4), (True, -1), (False, -1), (True, 99)):
        yield "market index", nick, ReqTakeFromMarket(is_row, idx)
    line = market_lines(g, cur)[0]
    yield "faith in a shelf", nick, ReqTakeFromMarket(True, 0, {}, {sh[2]: {"Faith": 1}})
    yield "unknown resource", nick, ReqTakeFromMarket(True, 0, {}, {sh[2]: {"Gold": 1}})
    yield "negative count", nick, ReqTakeFromMarket(True, 0, {}, {sh[2]: {"Coin": -1}})
    yield "wrong container id", nick, ReqTakeFromMarket(True, 0, {}, {999: {}})
    yield "strongbox placement", nick, ReqTakeFromMarket(True, 0, {}, {box: {}})
    if opp:
        yield "other's container", nick, ReqTakeFromMarket(True, 0, {}, {opp.shelves[0].id: {}})
    # more of a resource than the line gives (whites counted generously)
    for r in CFG.resources:
        most = line.resources.get(r, 0) + line.whites
        yield "placing more than taken", nick, ReqTakeFromMarket(True, 0, {}, {sh[2]: {r: most + 1}})
    whites_to = {ld.resource for ld in g.active_leaders_of(cur, "white_marble")}
    bad = next(r for r in CFG.resources if r not in whites_to)
    yield "replacement without that leader", nick, ReqTakeFromMarket(True, 0, {bad: line.whites or 1}, {})
    yield "faith replacement", nick, ReqTakeFromMarket(True, 0, {"Faith": 1}, {})
    if len(whites_to) == 2:
        r0 = sorted(whites_to)[0]
        yield "replacement count", nick, ReqTakeFromMarket(True, 0, {r0: line.whites + 1}, {})
    # cards
    offer = next(((c, lv) for c in CFG.colors for lv in CFG.levels if g.decks[c][lv]), None)
    yield "unknown colour", nick, ReqBuyDevCard("Orange", 1, 0, {})
    yield "unknown level", nick, ReqBuyDevCard("Green", 4, 0, {})
    yield "unknown level", nick, ReqBuyDevCard("Green", 0, 0, {})
    if offer:
        color, lv = offer
        card = g.top_card(color, lv)
        cost = g.card_cost(cur, card)
        pay_box = {box: dict(cost)}
        yield "wrong slot", nick, ReqBuyDevCard(color, lv, 3, pay_box)
        yield "wrong slot", nick, ReqBuyDevCard(color, lv, -1, pay_box)
        over = dict(cost)
        over["Coin"] = over.get("Coin", 0) + 1
        yield "paying too much", nick, ReqBuyDevCard(color, lv, 0, {box: over})
        if cost:
            under = dict(cost)
            r = next(iter(under))
            under[r] -= 1
            yield "paying too little", nick, ReqBuyDevCard(color, lv, 0, {box: under})
        if opp:
            yield "paying from other's container", nick, ReqBuyDevCard(color, lv, 0, {opp.strongbox.id: dict(cost)})
        for slot in range(CFG.dev_slots):
            if not g.slot_accepts(cur, slot, lv):
                yield "level does not fit the slot", nick, ReqBuyDevCard(color, lv, slot, pay_box)
    # productions
    any_two = {box: {"Coin": 2}}
    base = ProductionRequest(BASE, any_two, {}, {"Coin": 1})
    yield "repeated production", nick, ReqActivateProductions((base, base))
    yield "no production", nick, ReqActivateProductions(())
    yield "unknown production", nick, ReqActivateProductions((ProductionRequest(999, any_two, {}, {"Coin": 1}),))
    yield "output choice count", nick, ReqActivateProductions((ProductionRequest(BASE, any_two, {}, {}),))
    yield "output choice count", nick, ReqActivateProductions((ProductionRequest(BASE, any_two, {}, {"Coin": 2}),))
    yield "faith as output choice", nick, ReqActivateProductions((ProductionRequest(BASE, any_two, {}, {"Faith": 1}),))
    yield "input count", nick, ReqActivateProductions((ProductionRequest(BASE, {box: {"Coin": 1}}, {}, {"Coin": 1}),))
    yield "input count", nick, ReqActivateProductions((ProductionRequest(BASE, {box: {"Coin": 3}}, {}, {"Coin": 1}),))
    yield "faith as input", nick, ReqActivateProductions((ProductionRequest(BASE, {box: {"Faith": 2}}, {}, {"Coin": 1}),))
    yield "negative input", nick, ReqActivateProductions((ProductionRequest(BASE, {box: {"Coin": 3, "Stone": -1}}, {}, {"Coin": 1}),))
    yield "non-storable input rep", nick, ReqActivateProductions((ProductionRequest(BASE, any_two, {"Faith": 1}, {"Coin": 1}),))
    yield "wrong container id", nick, ReqActivateProductions((ProductionRequest(BASE, {999: {"Coin": 2}}, {}, {"Coin": 1}),))
    if opp:
        yield "paying from other's container", nick, ReqActivateProductions(
            (ProductionRequest(BASE, {opp.strongbox.id: {"Coin": 2}}, {}, {"Coin": 1}),))
        for slot in opp.slots:
            if slot:
                prod = CFG.dev_cards[slot[-1]].production
                yield "other's card production", nick, ReqActivateProductions(
                    (ProductionRequest(prod.id, {box: dict(prod.input)}, {}, {}),))
    for slot in cur.slots:
        for cid in slot[:-1]:
            prod = CFG.dev_cards[cid].production
            yield "covered card production", nick, ReqActivateProductions(
                (ProductionRequest(prod.id, {box: dict(prod.input)}, {}, {"Coin": prod.output_choice} if prod.output_choice else {}),))
    for ld in CFG.leaders:
        if ld.production is not None and ld.id not in cur.active_leaders:
            yield "inactive leader production", nick, ReqActivateProductions(
                (ProductionRequest(ld.production.id, {box: dict(ld.production.input)}, {}, {"Coin": 1}),))


def test_garbage_requests_are_refused_and_change_nothing():
    labels: Counter = Counter()
    for n, seed, hist in sampled_histories():
        g = state(n, seed, hist)
        before = frozen(g)      # (each refusal is compared with it: each must leave it as it was)
        for label, nick, action in garbage(g):
            labels[label] += 1
            assert_refused(g, nick, action, label, before)
    must = {"not current player", "main action in setup", "choose 3 leaders", "duplicate leaders",
            "leader not dealt", "too many bonus", "faith in a shelf", "after the end", "early end turn",
            "wrong container id", "other's container", "strongbox swap", "move more than held",
            "unknown leader", "leader not owned", "discard active leader", "requirements not met",
            "market index", "placing more than taken", "negative count", "unknown resource",
            "paying too much", "paying too little", "wrong slot", "level does not fit the slot",
            "repeated production", "covered card production", "output choice count",
            "inactive leader depot", "same type on two shelves", "other's card production"}
    assert must <= set(labels), f"never exercised: {must - set(labels)}"


def test_buying_from_an_empty_deck_is_refused():
    g = finish_setup(Game.new(CFG, NICKS[2], 8))
    g.decks["Blue"][1].clear()            # state prepared by the test: the deck ran out
    p = g.current_player
    err = assert_refused(g, p.nickname, ReqBuyDevCard("Blue", 1, 0, {}))
    assert err == E.ErrBuyDevCard(True)


def test_second_main_action_is_refused():
    g = finish_setup(Game.new(CFG, NICKS[2], 8))
    take_any_line(g)
    p = g.current_player
    err = assert_refused(g, p.nickname, ReqTakeFromMarket(False, 0))
    assert err == E.ErrAction(E.LATE_MANDATORY_ACTION)
    err = assert_refused(g, p.nickname, ReqActivateProductions(
        (ProductionRequest(BASE, {p.strongbox.id: {"Coin": 2}}, {}, {"Coin": 1}),)))
    assert err == E.ErrAction(E.LATE_MANDATORY_ACTION)


# random requests: whatever is sent, the engine refuses cleanly or stays within the rules

_names = st.sampled_from(["Coin", "coin", "Stone", "Shield", "Servant", "Gold", "Faith", "Zero", "", "COIN"])
_counts = st.integers(-2, 4)
_ids = st.integers(-3, 80)
_res_maps = st.dictionaries(_names, _counts, max_size=3)
_cmaps = st.dictionaries(_ids, _res_maps, max_size=3)
_prod_reqs = st.builds(ProductionRequest, st.integers(-1, 70), _cmaps, _res_maps, _res_maps)
_random_actions = st.one_of(
    st.builds(ReqChooseLeaders, st.lists(st.integers(-1, 17), max_size=4).map(tuple)),
    st.builds(ReqChooseResources, _cmaps),
    st.builds(ReqSwapShelves, _ids, _ids),
    st.builds(ReqMoveResources, _ids, _ids, _names, _counts),
    st.builds(ReqLeaderAction, st.integers(-1, 17), st.booleans()),
    st.builds(ReqTakeFromMarket, st.booleans(), st.integers(-1, 4), _res_maps, _cmaps),
    st.builds(ReqBuyDevCard, st.sampled_from(["Green", "Blue", "Yellow", "Purple", "purple", "Red"]),
              st.integers(0, 4), st.integers(-1, 3), _cmaps),
    st.builds(ReqActivateProductions, st.lists(_prod_reqs, max_size=3).map(tuple)),
    st.just(ReqEndTurn()),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(0, 10**6), who=st.integers(0, 3), action=_random_actions)
def test_random_requests_are_refused_cleanly_or_keep_the_rules(pick, who, action):
    samples = sampled_histories()
    n, seed, hist = samples[pick % len(samples)]
    g = state(n, seed, hist)
    nick = g.players[who % n].nickname
    before = frozen(g)
    totals_before = {p.nickname: p.resource_count() for p in g.players}
    faith_before = [p.faith for p in g.players]
    try:
        g.apply(nick, action)
    except E.GameError:
        assert frozen(g) == before
        return
    # accepted: still a legal state
    for p, f in zip(g.players, faith_before):
        assert f <= p.faith <= CFG.last_space
        seen = set()
        for s in p.shelves:
            assert len(s.content) <= 1 and s.total() <= s.capacity
            assert all(v > 0 for v in s.content.values())
            assert not (set(s.content) & seen)
            seen |= set(s.content)
        for d in p.depots:
            assert set(d.content) <= {d.bound} and d.total() <= d.capacity
        if p.nickname != nick:
            assert p.resource_count() == totals_before[p.nickname]
    assert g.version == before[2] + 1 and g.history[-1] == ("apply", nick, action)


# --------------------------------------------------------------------------- set_active


def test_inactive_players_turns_are_skipped():
    g = finish_setup(Game.new(CFG, NICKS[3], 21))
    s0, s1, s2 = (p.nickname for p in g.players)
    ev = g.set_active(s1, False)
    assert ev == [{"player": s1, "isActive": False, "type": "UpdatePlayerStatus"}]
    assert g.history[-1] == ("active", s1, False)
    take_any_line(g)
    ev = g.apply(s0, ReqEndTurn())
    assert {"player": s2, "type": "UpdateCurrentPlayer"} in ev
    assert g.current_player.nickname == s2
    take_any_line(g)
    g.apply(s2, ReqEndTurn())
    assert g.current_player.nickname == s0
    # coming back: the seat plays again in its turn
    ev = g.set_active(s1, True)
    assert ev == [{"player": s1, "isActive": True, "type": "UpdatePlayerStatus"}]
    assert g.current_player.nickname == s0
    take_any_line(g)
    g.apply(s0, ReqEndTurn())
    assert g.current_player.nickname == s1


def test_current_player_leaving_passes_the_turn():
    g = finish_setup(Game.new(CFG, NICKS[3], 22))
    s0, s1, s2 = (p.nickname for p in g.players)
    take_any_line(g)
    assert g.main_done
    ev = g.set_active(s0, False)
    assert ev[0] == {"player": s0, "isActive": False, "type": "UpdatePlayerStatus"}
    assert {"player": s1, "type": "UpdateCurrentPlayer"} in ev
    assert g.current_player.nickname == s1 and not g.main_done
    assert_refused(g, s0, ReqEndTurn())
    # s1's request works as on any turn
    take_any_line(g)
    g.apply(s1, ReqEndTurn())
    assert g.current_player.nickname == s2
    g.apply(s2, take_market_request(g, g.current_player, market_lines(g, g.current_player)[1]))
    g.apply(s2, ReqEndTurn())
    assert g.current_player.nickname == s1   # s0 is still away


def test_setting_the_same_status_again_does_nothing():
    g = finish_setup(Game.new(CFG, NICKS[2], 23))
    before = frozen(g)
    assert g.set_active(g.players[1].nickname, True) == []
    assert frozen(g) == before


def test_everybody_leaving_then_one_returning():
    g = finish_setup(Game.new(CFG, NICKS[3], 24))
    s0, s1, s2 = (p.nickname for p in g.players)
    for nick in (s0, s1, s2):
        g.set_active(nick, False)
    assert not any(p.active for p in g.players)
    assert not g.ended
    ev = g.set_active(s2, True)
    assert ev[0] == {"player": s2, "isActive": True, "type": "UpdatePlayerStatus"}
    assert g.current_player.nickname == s2
    assert ev[-1] == {"player": s2, "type": "UpdateCurrentPlayer"}
    take_any_line(g)
    g.apply(s2, ReqEndTurn())
    assert g.current_player.nickname == s2, "the only player present plays again"
    g.set_active(s0, True)
    take_any_line(g)
    g.apply(s2, ReqEndTurn())
    assert g.current_player.nickname == s0


def test_setup_completes_without_an_absent_player():
    g = Game.new(CFG, NICKS[4], 25)
    absent = g.players[3]            # the 4th seat: 2 bonus resources, 1 faith
    dealt = list(absent.hand)
    ev = g.set_active(absent.nickname, False)
    assert ev == [{"player": absent.nickname, "isActive": False, "type": "UpdatePlayerStatus"}]
    assert g.phase == "setup"
    evs = []
    for p in g.players[:3]:
        evs += g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[1:3])))
        if p.bonus:
            evs += g.apply(p.nickname, ReqChooseResources({p.shelves[1].id: {"Stone": p.bonus}}))
    assert g.phase == "play"
    assert absent.hand == dealt[:2] and absent.chose_leaders and absent.chose_resources
    assert sum(absent.resource_totals().values()) == 2 and absent.faith == 1
    assert not absent.strongbox.content and not absent.depots
    assert len(set().union(*(s.content for s in absent.shelves))) <= 2
    types = [r for s in absent.shelves for r in s.content]
    assert len(types) == len(set(types)) and all(s.total() <= s.capacity for s in absent.shelves)
    setup_done = [e for e in evs if e["type"] == "UpdateSetupDone"]
    assert len(setup_done) == 1
    assert {"player": absent.nickname, "leaders": dealt[:2], "type": "UpdateLeadersHand"} in evs
    assert g.current_player is g.players[0]
    # the absent seat is skipped when play comes round
    for p in g.players[:3]:
        take_any_line(g)
        g.apply(p.nickname, ReqEndTurn())
    assert g.current_player is g.players[0]


def test_setup_completes_when_the_last_undecided_player_leaves():
    g = Game.new(CFG, NICKS[2], 26)
    a, b = g.players
    dealt = list(b.hand)
    g.apply(a.nickname, ReqChooseLeaders(tuple(a.hand[:2])))
    ev = g.set_active(b.nickname, False)
    assert g.phase == "play"
    assert [e["type"] for e in ev][0] == "UpdatePlayerStatus" and {"type": "UpdateSetupDone"} in ev
    assert b.hand == dealt[:2] and sum(b.resource_totals().values()) == 1
    assert g.current_player is a


def test_absent_player_keeps_the_leaders_they_already_chose():
    g = Game.new(CFG, NICKS[3], 30)
    away = g.players[2]
    kept = (away.hand[3], away.hand[1])
    g.apply(away.nickname, ReqChooseLeaders(kept))
    g.set_active(away.nickname, False)
    for p in g.players[:2]:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
        if p.bonus:
            g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Servant": p.bonus}}))
    assert g.phase == "play"
    assert sorted(away.hand) == sorted(kept)
    assert sum(away.resource_totals().values()) == away.bonus == 1


def test_setup_with_absent_first_seat_starts_with_the_next_present_one():
    g = Game.new(CFG, NICKS[3], 27)
    g.set_active(g.players[0].nickname, False)
    for p in g.players[1:]:
        g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
        g.apply(p.nickname, ReqChooseResources({p.shelves[0].id: {"Shield": 1}}))
    assert g.phase == "play" and g.current_player is g.players[1]


def test_nobody_present_in_setup_does_not_finish_it():
    g = Game.new(CFG, NICKS[2], 28)
    for p in g.players:
        g.set_active(p.nickname, False)
    assert g.phase == "setup"
    g.set_active(g.players[1].nickname, True)
    assert g.phase == "setup"


def test_solo_player_leaving_does_not_advance_lorenzo():
    g = finish_setup(Game.new(CFG, NICKS[1], 29))
    take_any_line(g)
    before = g.snapshot()
    ev = g.set_active("Ada", False)
    assert ev == [{"player": "Ada", "isActive": False, "type": "UpdatePlayerStatus"}]
    after = g.snapshot()
    for key in ("tokens", "last_token", "black_cross", "current", "main_done", "decks", "phase"):
        assert after[key] == before[key], key
    ev = g.set_active("Ada", True)
    assert ev == [{"player": "Ada", "isActive": True, "type": "UpdatePlayerStatus"}]
    ev = g.apply("Ada", ReqEndTurn())
    assert any(e["type"] == "UpdateActionToken" for e in ev)


# --------------------------------------------------------------------------- wire parsing


GOOD = [
    {"type": "ReqChooseLeaders", "leaders": [1, 2]},
    {"type": "ReqChooseResources", "shelves": {"2": {"Coin": 1}}},
    {"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 2},
    {"type": "ReqMoveResources", "from": 0, "to": 2, "resType": "Coin", "count": 1},
    {"type": "ReqLeaderAction", "leader": 3, "isActivate": True},
    {"type": "ReqTakeFromMarket", "isRow": False, "index": 1, "replacements": {}, "shelves": {"1": {"Coin": 2}}},
    {"type": "ReqBuyDevCard", "color": "Green", "level": 1, "devSlot": 0, "resContainers": {"3": {"Shield": 2}}},
    {"type": "ReqActivateProductions", "prodRequests": [
        {"production": 0, "inputContainers": {"3": {"Coin": 2}}, "inputNonStorableRep": {}, "outputRep": {"Stone": 1}}]},
    {"type": "ReqEndTurn"},
]


@pytest.mark.parametrize("msg", GOOD, ids=lambda m: m["type"])
def test_well_formed_requests_parse_and_round_trip(msg):
    a = Action.from_dict(msg)
    assert a.TYPE == msg["type"]
    assert a.to_dict() == msg
    assert Action.from_dict(orjson.loads(orjson.dumps(a.to_dict()))) == a
    extra = dict(msg, extra=[1, 2])          # unknown fields are ignored, as the reference does
    assert Action.from_dict(extra) == a


def _broken(msg: dict) -> Iterator[tuple[str, dict]]:
    for key in msg:
        if key != "type":
            yield f"missing {key}", {k: v for k, v in msg.items() if k != key}
    for key, value in msg.items():
        if key == "type":
            continue
        if type(value) is int:
            yield f"{key} bool for int", dict(msg, **{key: True})
            yield f"{key} str for int", dict(msg, **{key: str(value)})
            yield f"{key} float for int", dict(msg, **{key: float(value)})
            yield f"{key} null", dict(msg, **{key: None})
        elif type(value) is bool:
            yield f"{key} int for bool", dict(msg, **{key: int(value)})
            yield f"{key} str for bool", dict(msg, **{key: "true"})
        elif type(value) is str:
            yield f"{key} int for str", dict(msg, **{key: 1})
        elif type(value) is list:
            yield f"{key} object for list", dict(msg, **{key: {}})
            yield f"{key} bad item", dict(msg, **{key: ["x"]})
        elif type(value) is dict:
            yield f"{key} list for object", dict(msg, **{key: []})
            yield f"{key} bad key or value", dict(msg, **{key: {"x": {"Coin": 1}} if key != "replacements" else {"Coin": "1"}})


@pytest.mark.parametrize("msg", GOOD[:-1], ids=lambda m: m["type"])
def test_malformed_requests_raise_malformed_request(msg):
    cases = list(_broken(msg))
    assert cases
    for label, bad in cases:
        with pytest.raises(E.MalformedRequest):
            Action.from_dict(bad)
            pytest.fail(label)


@pytest.mark.parametrize("bad", [
    {}, {"type": 5}, {"type": "ReqNope"}, {"type": "UpdateGame"}, {"type": None},
    {"type": "ReqSwapShelves", "shelf1": 1, "shelf2": False},
    {"type": "ReqLeaderAction", "leader": 1, "isActivate": 0},
    {"type": "ReqLeaderAction", "leader": False, "isActivate": True},
    {"type": "ReqTakeFromMarket", "isRow": 1, "index": 0, "replacements": {}, "shelves": {}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": True, "replacements": {}, "shelves": {}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {"Coin": True}, "shelves": {}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {}, "shelves": {"1": {"Coin": False}}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {}, "shelves": {"1": {"Coin": 1.5}}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {}, "shelves": {"1": [1]}},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {}, "shelves": {"1": {}, "01": {}}},
    {"type": "ReqChooseLeaders", "leaders": [1, True]},
    {"type": "ReqChooseLeaders", "leaders": "12"},
    {"type": "ReqActivateProductions", "prodRequests": {}},
    {"type": "ReqActivateProductions", "prodRequests": [5]},
    {"type": "ReqActivateProductions", "prodRequests": [{"production": 0, "inputContainers": {}}]},
    {"type": "ReqActivateProductions", "prodRequests": [
        {"production": True, "inputContainers": {}, "outputRep": {}}]},
    {"type": "ReqActivateProductions", "prodRequests": [
        {"production": 0, "inputContainers": {}, "inputNonStorableRep": [], "outputRep": {}}]},
    {"type": "ReqBuyDevCard", "color": 1, "level": 1, "devSlot": 0, "resContainers": {}},
    {"type": "ReqBuyDevCard", "color": "Green", "level": 1, "devSlot": True, "resContainers": {}},
    {"type": "ReqMoveResources", "from": 0, "to": 1, "resType": None, "count": 1},
    {"type": "ReqMoveResources", "from": 0, "to": 1, "resType": "Coin", "count": False},
])
def test_mistyped_messages(bad):
    with pytest.raises(E.MalformedRequest):
        Action.from_dict(bad)


def test_engine_refuses_a_non_request_object():
    g = Game.new(CFG, NICKS[1], 1)
    before = frozen(g)
    with pytest.raises(E.MalformedRequest):
        g.apply("Ada", object())  # type: ignore[arg-type]
    assert frozen(g) == before


_ints = st.integers(-2**31, 2**31 - 1)
_text = st.text(max_size=8)
_rmap = st.dictionaries(_text, _ints, max_size=4)
_cmap = st.dictionaries(_ints, _rmap, max_size=4)
_any_request = st.one_of(
    st.builds(ReqChooseLeaders, st.lists(_ints, max_size=5).map(tuple)),
    st.builds(ReqChooseResources, _cmap),
    st.builds(ReqSwapShelves, _ints, _ints),
    st.builds(ReqMoveResources, _ints, _ints, _text, _ints),
    st.builds(ReqLeaderAction, _ints, st.booleans()),
    st.builds(ReqTakeFromMarket, st.booleans(), _ints, _rmap, _cmap),
    st.builds(ReqBuyDevCard, _text, _ints, _ints, _cmap),
    st.builds(ReqActivateProductions,
              st.lists(st.builds(ProductionRequest, _ints, _cmap, _rmap, _rmap), max_size=4).map(tuple)),
    st.just(ReqEndTurn()),
)


@settings(max_examples=400, deadline=None)
@given(action=_any_request)
def test_every_request_survives_a_json_round_trip(action):
    wire = action.to_dict()
    assert wire["type"] == action.TYPE
    text = orjson.dumps(wire)
    back = Action.from_dict(orjson.loads(text))
    assert back == action
    assert back.to_dict() == wire
    assert type(back) is type(action)


def test_every_request_type_is_covered_by_the_round_trip_strategy():
    kinds = {ReqChooseLeaders, ReqChooseResources, ReqSwapShelves, ReqMoveResources, ReqLeaderAction,
             ReqTakeFromMarket, ReqBuyDevCard, ReqActivateProductions, ReqEndTurn}
    assert set(Action.REGISTRY.values()) == kinds
    assert {type(Action.from_dict(m)) for m in GOOD} == kinds


def test_production_request_input_non_storable_rep_is_optional():
    msg = {"type": "ReqActivateProductions",
           "prodRequests": [{"production": 0, "inputContainers": {"3": {"Coin": 2}}, "outputRep": {"Stone": 1}}]}
    a = Action.from_dict(msg)
    assert a.prod_requests[0].input_non_storable_rep == {}
    assert a.prod_requests[0].input_containers == {3: {"Coin": 2}}
