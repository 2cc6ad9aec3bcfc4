"""``game.rules.choices``: the legal choices and suggestions a UI or a bot relies on.

Two sources of states:

- random mid-game states from seeded playouts, stopped at random steps (requests are then tried
  on a ``Game.replay`` copy);
- boards built by the test (hypothesis): the current player's shelves, leader depots, active
  leaders, slots and strongbox are set directly after setup, so that rare situations (two
  white-marble leaders, full depots, stacked slots) come up often. Requests are then tried on
  a search copy (``game.bots.common.clone``: it changes exactly as the game would and records
  nothing, tested in ``tests/bots``; a deep copy of the game cost 5 ms, most of these tests' time).

Each suggestion is compared with a brute-force answer computed here from the rules.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.bots.common import clone
from game.rules import errors as E
from game.rules.actions import (ReqBuyDevCard, ReqChooseLeaders, ReqChooseResources, ReqEndTurn,
                                ReqLeaderAction, ReqTakeFromMarket)
from game.rules.choices import (activatable_leaders, affordable_cards, buy_request, legal_actions,
                                market_lines, most_storable, suggest_payment, suggest_placement, suggest_take,
                                take_market_request)
from game.rules.components import default_config
from game.rules.engine import Game
from game.rules.playout import steps

CFG = default_config()
RES = CFG.resources
LAST = CFG.last_space
COLS = CFG.market_columns
NICKS = {1: ["Ada"], 2: ["Ada", "Bo"], 3: ["Ada", "Bo", "Cy"], 4: ["Ada", "Bo", "Cy", "Di"]}
HYP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- states


@lru_cache(maxsize=None)
def sampled() -> tuple[tuple[int, int, tuple], ...]:
    out = []
    for n in (1, 2, 3, 4):
        for seed in range(6):
            g = Game.new(CFG, NICKS[n], 500 + seed)
            for nick, action in steps(g, random.Random(seed)):
                g.apply(nick, action)
            hist = tuple(g.history)
            r = random.Random(seed * 31 + n)
            for k in sorted({0, 2, len(hist) - 1} | {r.randrange(len(hist)) for _ in range(5)}):
                out.append((n, 500 + seed, hist[:k]))
    return tuple(out)


def replayed(n: int, seed: int, hist: tuple) -> Game:
    return Game.replay(CFG, NICKS[n], seed, hist)


def sampled_games():
    for n, seed, hist in sampled():
        yield replayed(n, seed, hist)


@st.composite
def boards(draw, n_players=None):
    """A game in play where the current player's board was set by the test."""
    n = draw(st.integers(1, 4)) if n_players is None else n_players
    g = Game.new(CFG, NICKS[n], draw(st.integers(0, 10**6)))
    for q in g.players:
        g.apply(q.nickname, ReqChooseLeaders(tuple(q.hand[:2])))
        if q.bonus:
            g.apply(q.nickname, ReqChooseResources({q.shelves[2].id: {"Stone": q.bonus}}))
    p = g.current_player
    # leaders: up to 2 active, up to 2 more in hand; nobody else holds them
    leaders = draw(st.lists(st.integers(0, len(CFG.leaders) - 1), min_size=0, max_size=4, unique=True))
    n_active = draw(st.integers(0, min(2, len(leaders))))
    if draw(st.integers(0, 4)) == 0:     # often enough: two white-marble leaders
        whites = draw(st.lists(st.sampled_from([ld.id for ld in CFG.leaders if ld.kind == "white_marble"]),
                               min_size=2, max_size=2, unique=True))
        leaders = whites + [i for i in leaders if i not in whites][:2]
        n_active = 2
    for q in g.players:
        q.hand = [i for i in q.hand if i not in leaders]
        q.active_leaders = [i for i in q.active_leaders if i not in leaders]
    p.hand = list(leaders)
    p.active_leaders = list(leaders[:n_active])
    p.depots = []
    for lid in p.active_leaders:
        if CFG.leaders[lid].kind == "extra_depot":
            d = g.leader_depot[lid]
            d.owner = p.seat
            d.content = {}
            k = draw(st.integers(0, d.capacity))
            if k:
                d.content = {d.bound: k}
            p.depots.append(d)
    # shelves: distinct types, within capacity
    kinds = draw(st.permutations([*RES, None, None, None]))[:3]
    for shelf, r in zip(p.shelves, kinds):
        shelf.content = {r: draw(st.integers(1, shelf.capacity))} if r else {}
    p.strongbox.content = {r: k for r in RES if (k := draw(st.integers(0, 6)))}
    # slots: valid stacks of cards taken out of the grid
    for i in range(CFG.dev_slots):
        height = draw(st.integers(0, 3))
        p.slots[i] = []
        for lv in range(1, height + 1):
            color = draw(st.sampled_from(CFG.colors))
            deck = g.decks[color][lv]
            if not deck:
                break
            p.slots[i].append(deck.pop(draw(st.integers(0, len(deck) - 1))))
    for q in g.players:
        q.vp = g.score(q.nickname).total
    return g


# --------------------------------------------------------------------------- rules, from scratch


def totals(p) -> Counter:
    out: Counter = Counter()
    for c in (*p.shelves, *p.depots, p.strongbox):
        out.update(c.content)
    return out


def discounted(p, card) -> dict[str, int]:
    cost = Counter(dict(card.cost))
    for i in p.active_leaders:
        ld = CFG.leaders[i]
        if ld.kind == "discount" and ld.resource in cost:
            cost[ld.resource] = max(0, cost[ld.resource] - ld.discount)
    return dict(+cost)


def slots_for(p, level: int) -> tuple[int, ...]:
    out = []
    for i, s in enumerate(p.slots):
        top = CFG.dev_cards[s[-1]].level if s else 0
        if top == level - 1:
            out.append(i)
    return tuple(out)


def requirements_met(p, leader) -> bool:
    owned = [CFG.dev_cards[c] for s in p.slots for c in s]
    for req in leader.requires_cards:
        have = sum(1 for c in owned if c.color == req.color and (req.level is None or c.level == req.level))
        if have < req.count:
            return False
    t = totals(p)
    return all(t[r] >= n for r, n in leader.requires_resources.items())


def best_placement(p, intake: dict[str, int]) -> int:
    """The most resources of ``intake`` that fit in the player's shelves and leader depots as
    they are (no rearranging), by trying every assignment."""
    containers = [*p.shelves, *p.depots]
    best = 0

    def options(c, left):
        yield None, 0
        free = c.capacity - c.total()
        if free <= 0:
            return
        if c.bound is not None:
            types = [c.bound]
        elif c.content:
            types = list(c.content)
        else:
            types = list(RES)
        for r in types:
            for k in range(1, min(free, left.get(r, 0)) + 1):
                yield r, k

    def rec(i, left, placed, shelf_types):
        nonlocal best
        if i == len(containers):
            best = max(best, placed)
            return
        c = containers[i]
        for r, k in options(c, left):
            if r is not None and c.bound is None and not c.content:
                if r in shelf_types:          # an empty shelf can't take a type another shelf holds
                    continue
            new_types = shelf_types | ({r} if r is not None and c.bound is None else set())
            new_left = dict(left)
            if r is not None:
                new_left[r] -= k
            rec(i + 1, new_left, placed + k, new_types)

    held = {r for s in p.shelves for r in s.content}
    rec(0, dict(intake), 0, held)
    return best


def check_placement_legal(p, intake: dict[str, int], plan: dict[int, dict[str, int]]) -> int:
    """Check a suggested placement by the depot rules; return how many it stores."""
    mine = {c.id: c for c in (*p.shelves, *p.depots)}
    used: Counter = Counter()
    after = {c.id: Counter(c.content) for c in mine.values()}
    for cid, m in plan.items():
        assert cid in mine, f"placement into container {cid}, which is not the player's shelf or depot"
        for r, k in m.items():
            assert k > 0 and r in RES
            used[r] += k
            after[cid][r] += k
    assert all(used[r] <= intake.get(r, 0) for r in used), f"placed {dict(used)} from {intake}"
    seen = set()
    for cid, content in after.items():
        c = mine[cid]
        content = +content
        assert sum(content.values()) <= c.capacity
        if c.bound is not None:
            assert set(content) <= {c.bound}
        else:
            assert len(content) <= 1
            assert not set(content) & seen
            seen |= set(content)
    return sum(used.values())


def intakes():
    return st.dictionaries(st.sampled_from(RES), st.integers(1, 4), max_size=4).filter(
        lambda d: sum(d.values()) <= 7)


# --------------------------------------------------------------------------- legal_actions


def test_every_legal_action_of_sampled_states_is_accepted():
    tried = Counter()
    for n, seed, hist in sampled():
        g = replayed(n, seed, hist)
        for p in g.players:
            acts = list(legal_actions(g, p.nickname))
            if g.phase == "play" and p is not g.current_player or g.ended:
                assert acts == []
            for a in acts:
                copy_ = replayed(n, seed, hist)
                events = copy_.apply(p.nickname, a)
                assert events[-1]["type"] == "UpdateAction"
                tried[type(a).__name__] += 1
    assert {"ReqChooseLeaders", "ReqChooseResources", "ReqTakeFromMarket", "ReqBuyDevCard",
            "ReqActivateProductions", "ReqLeaderAction", "ReqEndTurn"} <= set(tried)


@HYP
@given(g=boards())
def test_every_legal_action_on_built_boards_is_accepted(g):
    p = g.current_player
    acts = list(legal_actions(g, p.nickname))
    assert any(isinstance(a, ReqTakeFromMarket) for a in acts)   # the market is always open
    assert not any(isinstance(a, ReqEndTurn) for a in acts)       # no main action yet
    for a in acts:
        clone(g).apply(p.nickname, a)     # a search copy changes exactly as the game would
    for q in g.players:
        if q is not p:
            assert list(legal_actions(g, q.nickname)) == []


def test_legal_actions_offer_every_market_line_and_end_turn_after_the_main_action():
    for g in sampled_games():
        if g.phase != "play":
            continue
        acts = list(legal_actions(g, g.current_player.nickname))
        lines = {(a.is_row, a.index) for a in acts if isinstance(a, ReqTakeFromMarket)}
        if g.main_done:
            assert not lines and ReqEndTurn() in acts
        else:
            assert lines == {(True, i) for i in range(3)} | {(False, i) for i in range(4)}
            assert ReqEndTurn() not in acts


# --------------------------------------------------------------------------- placement


@HYP
@given(g=boards(), intake=intakes())
def test_suggest_placement_stores_the_most_possible(g, intake):
    p = g.current_player
    plan = suggest_placement(g, p, intake)
    stored = check_placement_legal(p, intake, plan)
    assert stored == best_placement(p, intake), f"{intake} on {[c.content for c in p.depot_like()]}: {plan}"


def test_suggest_placement_on_sampled_states():
    rng = random.Random(4)
    for g in sampled_games():
        for p in g.players:
            for _ in range(4):
                intake = {r: k for r in RES if (k := rng.randint(0, 2))}
                plan = suggest_placement(g, p, intake)
                assert check_placement_legal(p, intake, plan) == best_placement(p, intake)


def best_over_arrangements(p, intake: dict[str, int]) -> int:
    """The most resources of ``intake`` that any legal arrangement of the player's shelves and
    depots could hold together with everything they hold now, by trying every final content of
    every shelf (one type each, no type on two shelves) and every depot (its own type)."""
    from itertools import product
    held: dict[str, int] = {}
    for c in (*p.shelves, *p.depots):
        for r, n in c.content.items():
            held[r] = held.get(r, 0) + n
    held_total = sum(held.values())
    shelf_opts = [[(None, 0)] + [(r, k) for r in RES for k in range(1, s.capacity + 1)] for s in p.shelves]
    depot_opts = [[(d.bound, k) for k in range(d.capacity + 1)] for d in p.depots]
    best = -1
    for shelves in product(*shelf_opts):
        types = [r for r, _ in shelves if r]
        if len(types) != len(set(types)):
            continue
        for depots in product(*depot_opts):
            final: dict[str, int] = {}
            for r, k in (*shelves, *depots):
                if r:
                    final[r] = final.get(r, 0) + k
            if all(final.get(r, 0) >= n for r, n in held.items()) and all(
                    k - held.get(r, 0) <= intake.get(r, 0) for r, k in final.items()):
                best = max(best, sum(final.values()) - held_total)
    assert best >= 0, "the player's own warehouse is not a legal arrangement"
    return best


@HYP
@given(g=boards(), intake=intakes())
def test_suggest_take_never_discards_what_an_arrangement_could_keep(g, intake):
    """Rearranging requests then a placement: each request is accepted in turn by the engine, the
    placement is legal on the warehouse they leave, and it stores exactly the most that any
    arrangement could (brute force)."""
    p = g.current_player
    best = best_over_arrangements(p, intake)
    assert most_storable(p, intake) == best
    moves, plan = suggest_take(g, p, intake)
    before = totals(p)
    for m in moves:
        g.apply(p.nickname, m)                       # raises if a step is not legal
    assert totals(p) == before                       # rearranging keeps everything
    assert check_placement_legal(p, intake, plan) == best
    assert len(moves) <= 4


def test_suggest_take_rearranges_when_that_keeps_more():
    """A Stone alone on the big shelf: three Shields fit only once it moves to the small shelf."""
    g = Game.new(CFG, NICKS[2], 1)
    for q in g.players:
        g.apply(q.nickname, ReqChooseLeaders(tuple(q.hand[:2])))
        if q.bonus:
            g.apply(q.nickname, ReqChooseResources({q.shelves[2].id: {"Stone": q.bonus}}))
    p = g.current_player
    s1, s2, s3 = p.shelves
    s1.content, s2.content, s3.content = {}, {"Coin": 2}, {"Stone": 1}
    intake = {"Shield": 3}
    assert check_placement_legal(p, intake, suggest_placement(g, p, intake)) == 1   # as they are: 2 lost
    moves, plan = suggest_take(g, p, intake)
    assert moves
    for m in moves:
        g.apply(p.nickname, m)
    assert s1.content == {"Stone": 1}
    assert check_placement_legal(p, intake, plan) == 3
    assert suggest_take(g, p, {"Shield": 2}) == ([], suggest_placement(g, p, {"Shield": 2}))   # nothing to gain
    moves, plan = suggest_take(g, p, {"Coin": 1})      # the full Coin shelf swaps with the empty big one
    assert [type(m).__name__ for m in moves] == ["ReqSwapShelves"]
    g.apply(p.nickname, moves[0])
    assert check_placement_legal(p, {"Coin": 1}, plan) == 1


def test_best_placement_brute_force_itself():
    """The brute force the other tests trust, on boards worked out by hand."""
    g = Game.new(CFG, NICKS[2], 1)
    p = g.players[0]
    assert best_placement(p, {"Coin": 4, "Stone": 4}) == 5          # 3 + 2 on empty shelves
    assert best_placement(p, {"Coin": 1, "Stone": 1, "Shield": 1, "Servant": 1}) == 3
    p.shelves[2].content = {"Coin": 2}
    assert best_placement(p, {"Coin": 3}) == 1                      # only the one free Coin space
    assert best_placement(p, {"Coin": 3, "Stone": 3}) == 3          # + 2 Stone on the 2-shelf
    d = g.leader_depot[7]                                            # Coin depot
    d.owner, d.content = p.seat, {"Coin": 1}
    p.depots = [d]
    p.active_leaders = [7]
    assert best_placement(p, {"Coin": 3}) == 2


# --------------------------------------------------------------------------- market preview


def _check_line_preview(g: Game, p, line, apply_to: Game, white_choice=None) -> None:
    marbles = g.line(line.is_row, line.index)
    assert list(line.marbles) == marbles
    conv = [CFG.leaders[i].resource for i in p.active_leaders if CFG.leaders[i].kind == "white_marble"]
    whites = marbles.count("Zero")
    expect = Counter(m for m in marbles if m not in ("Zero", "Faith"))
    if len(conv) == 1:
        expect[conv[0]] += whites
    assert dict(line.resources) == dict(+expect)
    assert line.faith == marbles.count("Faith") and line.whites == whites
    assert sorted(line.white_options) == sorted(conv)
    req = take_market_request(g, p, line, white_choice)
    if len(conv) == 2 and whites:
        assert sum(req.replacements.values()) == whites and set(req.replacements) <= set(conv)
    else:
        assert not req.replacements
    intake = Counter(line.resources)
    intake.update(req.replacements)
    planned = sum(n for m in req.shelves.values() for n in m.values())
    discarded = sum(intake.values()) - planned
    q = apply_to.player(p.nickname)
    before = totals(q)
    faith = {o.nickname: o.faith for o in apply_to.players}
    black = apply_to.black_cross
    apply_to.apply(p.nickname, req)
    gained = totals(q) - before
    assert sum(gained.values()) == planned and not (before - totals(q))
    assert gained == +Counter({r: sum(m.get(r, 0) for m in req.shelves.values()) for r in RES})
    assert q.faith == min(LAST, faith[p.nickname] + line.faith)
    if apply_to.solo:
        if not apply_to.ended or apply_to.lorenzo_won:
            assert apply_to.black_cross == min(LAST, black + discarded)
    for o in apply_to.players:
        if o is not q:
            assert o.faith == min(LAST, faith[o.nickname] + discarded)


@HYP
@given(g=boards(), data=st.data())
def test_market_lines_preview_what_the_engine_does(g, data):
    p = g.current_player
    lines = market_lines(g, p)
    assert [(ln.is_row, ln.index) for ln in lines] == [(True, i) for i in range(3)] + [(False, i) for i in range(4)]
    for line in lines:
        choice = None
        if len(line.white_options) == 2 and line.whites:
            first = data.draw(st.integers(0, line.whites))
            choice = {r: n for r, n in zip(line.white_options, (first, line.whites - first)) if n}
        _check_line_preview(g, p, line, clone(g), choice)


def test_market_lines_preview_on_sampled_states():
    checked = 0
    for n, seed, hist in sampled():
        g = replayed(n, seed, hist)
        if g.phase != "play" or g.main_done:
            continue
        p = g.current_player
        for line in market_lines(g, p):
            _check_line_preview(g, p, line, replayed(n, seed, hist))
            checked += 1
    assert checked > 50


def test_two_white_marble_leaders_let_the_player_choose():
    g = Game.new(CFG, NICKS[2], 3)
    for q in g.players:
        g.apply(q.nickname, ReqChooseLeaders(tuple(q.hand[:2])))
        if q.bonus:
            g.apply(q.nickname, ReqChooseResources({q.shelves[2].id: {"Stone": q.bonus}}))
    p = g.current_player
    for q in g.players:
        q.hand = [i for i in q.hand if i not in (9, 11)]
    p.hand = [9, 11]
    p.active_leaders = [9, 11]            # Shield and Coin
    for s in p.shelves:
        s.content = {}
    g.market[:] = ["Zero", "Zero", "Zero", "Stone", *g.market[4:]]
    line = market_lines(g, p)[0]
    assert line.whites == 3 and sorted(line.white_options) == ["Coin", "Shield"]
    assert dict(line.resources) == {"Stone": 1}
    req = take_market_request(g, p, line, {"Coin": 2, "Shield": 1})
    g2 = copy.deepcopy(g)
    g2.apply(p.nickname, req)
    assert totals(g2.player(p.nickname)) == Counter({"Coin": 2, "Shield": 1, "Stone": 1})


# --------------------------------------------------------------------------- cards and payment


def _check_affordable(g: Game, p, apply_copy) -> None:
    offers = {(o.card.color, o.card.level): o for o in affordable_cards(g, p)}
    t = totals(p)
    refusing = None
    for color in CFG.colors:
        for lv in CFG.levels:
            deck = g.decks[color][lv]
            if not deck:
                assert (color, lv) not in offers
                continue
            card = CFG.dev_cards[deck[-1]]
            cost = discounted(p, card)
            slots = slots_for(p, lv)
            buyable = bool(slots) and all(t[r] >= n for r, n in cost.items())
            assert ((color, lv) in offers) == buyable, (color, lv, cost, dict(t), slots)
            if buyable:
                o = offers[(color, lv)]
                assert o.card == card and dict(o.cost) == cost and tuple(o.slots) == slots
                for slot in slots:
                    c = apply_copy()
                    c.apply(p.nickname, buy_request(g, p, o, slot))
                    assert c.player(p.nickname).slots[slot][-1] == card.id
            else:
                # whatever is offered as payment, the engine refuses it (a refused request
                # changes nothing: one copy takes every refusal)
                pay = {p.strongbox.id: {r: n for r, n in cost.items()}}
                refusing = refusing or apply_copy()
                for slot in range(CFG.dev_slots):
                    with pytest.raises(E.GameError):
                        refusing.apply(p.nickname, ReqBuyDevCard(color, lv, slot, pay))


@HYP
@given(g=boards())
def test_affordable_cards_are_exactly_the_buyable_top_cards(g):
    _check_affordable(g, g.current_player, lambda: clone(g))


def test_affordable_cards_on_sampled_states():
    offered = 0
    for n, seed, hist in sampled():
        g = replayed(n, seed, hist)
        if g.phase != "play" or g.main_done:
            continue
        offered += len(affordable_cards(g, g.current_player))
        _check_affordable(g, g.current_player, lambda: replayed(n, seed, hist))
    assert offered > 5


@HYP
@given(g=boards(), cost=st.dictionaries(st.sampled_from(RES), st.integers(0, 8), max_size=4))
def test_suggest_payment_pays_exactly_the_cost(g, cost):
    p = g.current_player
    plan = suggest_payment(g, p, cost)
    t = totals(p)
    want = +Counter(cost)
    if any(t[r] < n for r, n in want.items()):
        assert plan is None
        return
    assert plan is not None
    mine = {c.id: c for c in p.containers()}
    paid: Counter = Counter()
    for cid, m in plan.items():
        assert cid in mine
        for r, n in m.items():
            assert 0 < n <= mine[cid].content.get(r, 0)
            paid[r] += n
    assert paid == want


# --------------------------------------------------------------------------- leaders


def _check_activatable(g: Game, p, apply_copy) -> int:
    listed = {ld.id for ld in activatable_leaders(g, p)}
    in_hand = [i for i in p.hand if i not in p.active_leaders]
    expect = {i for i in in_hand if requirements_met(p, CFG.leaders[i])}
    assert listed == expect
    for lid in in_hand:
        c = apply_copy()
        if lid in expect:
            c.apply(p.nickname, ReqLeaderAction(lid, True))
            assert lid in c.player(p.nickname).active_leaders
        else:
            with pytest.raises(E.ErrCardRequirements):
                c.apply(p.nickname, ReqLeaderAction(lid, True))
    return len(expect)


@HYP
@given(g=boards())
def test_activatable_leaders_are_exactly_those_whose_requirements_are_met(g):
    _check_activatable(g, g.current_player, lambda: clone(g))


def test_activatable_leaders_on_sampled_states():
    for n, seed, hist in sampled():
        g = replayed(n, seed, hist)
        if g.phase != "play":
            continue
        _check_activatable(g, g.current_player, lambda: replayed(n, seed, hist))


def test_requirements_count_covered_cards_and_add_up_levels():
    """Brute-force reference check on a hand-made board (RULES §8, E13)."""
    g = Game.new(CFG, NICKS[2], 2)
    p = g.players[0]
    purple = [c for c in CFG.dev_cards if c.color == "Purple"]
    green1 = next(c for c in CFG.dev_cards if c.color == "Green" and c.level == 1)
    p1 = next(c for c in purple if c.level == 1)
    p2 = next(c for c in purple if c.level == 2)
    p.slots = [[p1.id, p2.id], [green1.id], []]      # purple level 1 is covered
    white_coin = CFG.leaders[11]                    # 2 Purple + 1 Green
    assert requirements_met(p, white_coin)
    p.hand = [11, 14]                               # 14: a Purple level-2 card
    assert {ld.id for ld in activatable_leaders(g, p)} == {11, 14}
    p.slots = [[p1.id], [green1.id], []]
    assert {ld.id for ld in activatable_leaders(g, p)} == set()
