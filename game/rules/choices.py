"""The legal choices a UI or a bot needs, and sensible suggestions.

Everything here reads a :class:`~game.rules.engine.Game` and never changes it. Suggestions are
always legal requests for the current state (the engine would accept them), so a UI can offer
them as "one click" defaults and a bot can play with them.
"""
from __future__ import annotations

from collections import deque
from itertools import combinations, permutations
from typing import Iterator, Mapping, NamedTuple

from .actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                      ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction,
                      ReqMoveResources, ReqSwapShelves, ReqTakeFromMarket)
from .components import DevCard, LeaderCard, Production
from .engine import Game
from .errors import ErrResourceTransfer
from .state import ENDED, PLAY, SETUP, Container, PlayerState
from .warehouse import check_distinct_shelves, fits

Placement = dict[int, dict[str, int]]


# The two answers below are named tuples: read-only values with the fields' names, equality and a
# repr that reads back as code, built three times faster than a frozen dataclass (a bot lists the
# market's seven lines for every position it looks at).
class MarketLine(NamedTuple):
    """What taking one line would give: resources (whites converted with one leader), faith, whites."""

    is_row: bool
    index: int
    marbles: tuple[str, ...]
    resources: Mapping[str, int]
    faith: int
    whites: int
    white_options: tuple[str, ...]   # resources the whites may become (0, 1 or 2 leaders)


class CardOffer(NamedTuple):
    """A top card the player can pay for now, its discounted cost and the slots that take it."""

    card: DevCard
    cost: Mapping[str, int]
    slots: tuple[int, ...]


# ---------------------------------------------------------------------------- market
def market_lines(game: Game, p: PlayerState) -> list[MarketLine]:
    """The 7 lines of the market (3 rows, then 4 columns) and what each would give ``p``."""
    options = _white_options(game, p)
    cfg = game.config
    return [*(_line(game, True, i, options) for i in range(cfg.market_rows)),
            *(_line(game, False, i, options) for i in range(cfg.market_columns))]


def market_line(game: Game, p: PlayerState, is_row: bool, index: int) -> MarketLine:
    """One line of :func:`market_lines` (a row or a column, 0-based)."""
    return _line(game, is_row, index, _white_options(game, p))


def _white_options(game: Game, p: PlayerState) -> tuple[str, ...]:
    return tuple(ld.resource for ld in game.active_leaders_of(p, "white_marble")) if p.active_leaders else ()


def _line(game: Game, is_row: bool, i: int, options: tuple[str, ...]) -> MarketLine:
    cols = game.config.market_columns
    market = game.market
    marbles = tuple(market[i * cols:(i + 1) * cols] if is_row else market[i::cols])   # Game.line
    res: dict[str, int] = {}
    faith = whites = 0
    for m in marbles:
        if m == "Zero":
            whites += 1
        elif m == "Faith":
            faith += 1
        else:
            res[m] = res.get(m, 0) + 1
    if whites and len(options) == 1:
        convert = options[0]
        res[convert] = res.get(convert, 0) + whites
    return MarketLine(is_row, i, marbles, res, faith, whites, options)


def suggest_placement(game: Game, p: PlayerState, intake: Mapping[str, int]) -> Placement:
    """A legal placement of ``intake`` that stores as many resources as possible (no rearranging).

    Leader depots of the right type fill first, then a shelf already holding that type, then the
    best assignment of the remaining types to empty shelves (tried exhaustively: at most 4 types
    and 3 shelves). :func:`suggest_take` also rearranges the warehouse first when that keeps more.
    """
    return _placement_on(p.shelves, p.depots, intake)


def _placement_on(shelves: list[Container], depots: list[Container], intake: Mapping[str, int]) -> Placement:
    left = {}
    for r, n in intake.items():
        if n:
            left[r] = n
    plan: Placement = {}
    for c in depots:
        r = c.bound
        want = left.get(r, 0)   # type: ignore[arg-type]
        if want:
            n = c.capacity - sum(c.content.values())
            if n > 0:
                if want < n:
                    n = want
                plan[c.id] = {r: n}   # type: ignore[dict-item]
                left[r] -= n   # type: ignore[index]
    empty = []
    held_types = set()
    for s in shelves:
        content = s.content
        if not content:
            empty.append(s)
            held_types.add(None)
            continue
        for held in content:   # a shelf holds one type
            break
        held_types.add(held)
        want = left.get(held, 0)
        if want:
            room = s.capacity - sum(content.values())
            if room > 0:
                n = want if want < room else room
                into = plan.setdefault(s.id, {})
                into[held] = into.get(held, 0) + n
                left[held] = want - n
    todo = []
    wants = []
    for r, n in left.items():
        if n > 0 and r not in held_types:
            todo.append(r)
            wants.append(n)
    if todo and empty:
        # the best assignment of the types left to the empty shelves (the first best one, in
        # the order of itertools.permutations over types, then over shelves)
        caps = []
        for s in empty:
            caps.append(s.capacity)
        k = min(len(todo), len(empty))
        best = -1
        if k == 1:   # (the same order as below: each type, then each shelf)
            pairs = ((0, 0),)
            for a in range(len(todo)):
                w = wants[a]
                for b in range(len(empty)):
                    cap = caps[b]
                    stored = w if w < cap else cap
                    if stored > best:
                        best = stored
                        pairs = ((a, b),)
        else:
            # no assignment stores more than the k largest wants or the k largest shelves hold:
            # once one does, none after it can be better, and the search stops there
            most = min(sum(sorted(wants)[-k:]), sum(sorted(caps)[-k:]))
            pick: tuple = ()
            shelf_orders = list(permutations(range(len(empty)), k))
            for types in permutations(range(len(todo)), k):
                for chosen in shelf_orders:
                    stored = 0
                    for a, b in zip(types, chosen):
                        w, cap = wants[a], caps[b]
                        stored += w if w < cap else cap
                    if stored > best:
                        best = stored
                        pick = (types, chosen)
                        if stored == most:
                            break
                if best == most:
                    break
            pairs = zip(*pick)
        for a, b in pairs:
            s, r = empty[b], todo[a]
            n = min(left[r], s.capacity)
            into = plan.setdefault(s.id, {})
            into[r] = into.get(r, 0) + n
            left[r] -= n
    return plan


def most_storable(p: PlayerState, intake: Mapping[str, int]) -> int:
    """How many of ``intake`` the best arrangement of the warehouse could store (every way of
    giving the shelves their types is tried; leader depots hold their own type on top)."""
    held: dict[str, int] = {}
    dep_cap: dict[str, int] = {}
    for c in p.depot_like():
        for r, n in c.content.items():
            held[r] = held.get(r, 0) + n
    for d in p.depots:
        dep_cap[d.bound] = dep_cap.get(d.bound, 0) + d.capacity  # type: ignore[index]
    types = sorted(set(held) | {r for r, n in intake.items() if n})
    best = 0
    for k in range(0, min(len(types), len(p.shelves)) + 1):
        for chosen in permutations(types, k):
            for shelves in combinations(p.shelves, k):
                cap = dict(dep_cap)
                for r, s in zip(chosen, shelves):
                    cap[r] = cap.get(r, 0) + s.capacity
                if any(n > cap.get(r, 0) for r, n in held.items()):
                    continue
                best = max(best, sum(min(n, cap.get(r, 0) - held.get(r, 0)) for r, n in intake.items() if n > 0))
    return best


REARRANGE_LIMIT = 20000
"""Warehouse states :func:`suggest_take` looks at, at most (a full search needs a few hundred)."""


def suggest_take(game: Game, p: PlayerState, intake: Mapping[str, int]
                 ) -> tuple[list[Action], Placement]:
    """Rearranging requests (``ReqSwapShelves``, ``ReqMoveResources``; each legal after the ones
    before it, as few as possible) and then a placement of ``intake`` that together store as much
    of it as any legal arrangement of the warehouse could: nothing is discarded that could be kept.

    The placement is for the warehouse as the requests leave it. Without rearranging, the requests
    are ``[]`` and the placement is :func:`suggest_placement`'s.
    """
    boxes = p.depot_like()
    n_shelves = len(p.shelves)
    plain = _placement_on(p.shelves, p.depots, intake)
    goal = most_storable(p, intake)
    if _stored(plain) >= goal:
        return [], plain
    copies = []
    for c in boxes:
        k = Container(c.id, c.kind, c.capacity, c.bound)
        copies.append(k)
    start = tuple(tuple(sorted(c.content.items())) for c in boxes)

    def load(state: tuple) -> None:
        for c, content in zip(copies, state):
            c.content = dict(content)

    def legal(state: tuple, changed: tuple[int, ...]) -> bool:
        new = {copies[i]: dict(state[i]) for i in changed}
        if any(fits(c, content) is not None for c, content in new.items()):
            return False
        try:
            check_distinct_shelves(copies[:n_shelves], new)
        except ErrResourceTransfer:
            return False
        return True

    seen = {start}
    queue: deque[tuple[tuple, list[Action]]] = deque([(start, [])])
    best: tuple[int, list[Action], Placement] = (_stored(plain), [], plain)
    while queue and len(seen) < REARRANGE_LIMIT:
        state, path = queue.popleft()
        load(state)
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if not state[i] and not state[j]:
                    continue
                nxt = list(state)
                nxt[i], nxt[j] = state[j], state[i]
                got = _visit(tuple(nxt), (i, j), ReqSwapShelves(boxes[i].id, boxes[j].id), state, path,
                                seen, queue, legal, load, copies, n_shelves, intake)
                if got is not None and got[0] > best[0]:
                    best = got
                    if best[0] >= goal:
                        return best[1], best[2]
            for r, n in state[i]:
                for j in range(len(boxes)):
                    if j == i:
                        continue
                    for m in range(1, n + 1):
                        src = dict(state[i])
                        src[r] -= m
                        dst = dict(state[j])
                        dst[r] = dst.get(r, 0) + m
                        nxt = list(state)
                        nxt[i] = tuple(sorted((k, v) for k, v in src.items() if v))
                        nxt[j] = tuple(sorted(dst.items()))
                        got = _visit(tuple(nxt), (i, j), ReqMoveResources(boxes[i].id, boxes[j].id, r, m), state,
                                     path, seen, queue, legal, load, copies, n_shelves, intake)
                        if got is not None and got[0] > best[0]:
                            best = got
                            if best[0] >= goal:
                                return best[1], best[2]
    return best[1], best[2]


def _visit(nxt, changed, request, state, path, seen, queue, legal, load, copies, n_shelves, intake):
    """One step of :func:`suggest_take`'s search: a new legal state is queued and its placement
    scored (returned as ``(stored, path, placement)``)."""
    if nxt in seen or not legal(nxt, changed):
        return None
    seen.add(nxt)
    steps = [*path, request]
    queue.append((nxt, steps))
    load(nxt)
    placement = _placement_on(copies[:n_shelves], copies[n_shelves:], intake)
    load(state)
    return _stored(placement), steps, placement


def _stored(placement: Placement) -> int:
    return sum(n for m in placement.values() for n in m.values())


def take_market_request(game: Game, p: PlayerState, line: MarketLine,
                        white_choice: Mapping[str, int] | None = None) -> ReqTakeFromMarket:
    """A complete market request for ``line`` with the suggested placement (the rest is discarded).

    With two white-marble leaders, ``white_choice`` says what the whites become (default: all the
    first leader's resource).
    """
    intake = dict(line.resources)
    reps: dict[str, int] = {}
    if len(line.white_options) > 1 and line.whites:
        reps = dict(white_choice) if white_choice else {line.white_options[0]: line.whites}
        for r, n in reps.items():
            intake[r] = intake.get(r, 0) + n
    return ReqTakeFromMarket(line.is_row, line.index, reps, suggest_placement(game, p, intake))


def discarded_if(game: Game, p: PlayerState, intake: Mapping[str, int], placement: Placement) -> int:
    """How many resources a placement would leave over (each gives faith to every opponent)."""
    return sum(intake.values()) - sum(n for m in placement.values() for n in m.values())


# ---------------------------------------------------------------------------- cards
def suggest_payment(game: Game, p: PlayerState, cost: Mapping[str, int]) -> Placement | None:
    """Containers to pay ``cost`` from (shelves, then leader depots, then strongbox), or None."""
    plan: Placement = {}
    for r, need in cost.items():
        for c in (*p.shelves, *p.depots, p.strongbox):
            if need <= 0:
                break
            have = c.content.get(r, 0) - plan.get(c.id, {}).get(r, 0)
            n = min(have, need)
            if n > 0:
                plan.setdefault(c.id, {})[r] = plan.get(c.id, {}).get(r, 0) + n
                need -= n
        if need > 0:
            return None
    return plan


def affordable_cards(game: Game, p: PlayerState) -> list[CardOffer]:
    """Top cards of the grid that ``p`` can pay for and has a legal slot for."""
    cfg = game.config
    cards = cfg.dev_cards
    t = game.lookups
    card_level, card_cost = t.card_level, t.card_cost
    first = cfg.levels[0]
    slots_for: dict[int, list[int]] = {}   # level -> the slots that take it (see Game.slot_accepts)
    i = 0
    for s in p.slots:
        lv = card_level[s[-1]] + 1 if s else first
        into = slots_for.get(lv)
        if into is None:
            slots_for[lv] = [i]
        else:
            into.append(i)
        i += 1
    levels = []
    for lv in cfg.levels:
        if lv in slots_for:
            levels.append(lv)
    totals = p.resource_totals()
    discounts = bool(p.active_leaders) and bool(game.active_leaders_of(p, "discount"))
    out = []
    decks = game.decks
    for color in cfg.colors:
        ds = decks[color]
        for lv in levels:
            deck = ds[lv]
            if not deck:
                continue
            cid = deck[-1]
            if discounts:
                cost = game.card_cost(p, cards[cid])
                for r, n in cost.items():
                    if totals.get(r, 0) < n:
                        break
                else:
                    out.append(CardOffer(cards[cid], cost, tuple(slots_for[lv])))
            else:
                price = card_cost[cid]
                for r, n in price:
                    if totals.get(r, 0) < n:
                        break
                else:
                    out.append(CardOffer(cards[cid], dict(price), tuple(slots_for[lv])))
    return out


def buy_request(game: Game, p: PlayerState, offer: CardOffer, slot: int | None = None) -> ReqBuyDevCard:
    """A complete purchase of ``offer`` into ``slot`` (default: its first legal slot)."""
    pay = suggest_payment(game, p, offer.cost) or {}
    return ReqBuyDevCard(offer.card.color, offer.card.level, offer.slots[0] if slot is None else slot, pay)


# ---------------------------------------------------------------------------- leaders
def activatable_leaders(game: Game, p: PlayerState) -> list[LeaderCard]:
    """Leaders in ``p``'s hand whose requirement is met now (:meth:`Game.missing_requirements`
    finds nothing missing)."""
    out = []
    leaders = game.config.leaders
    active = p.active_leaders
    n_cards = -1
    owned: dict[tuple[str, int | None], int] | None = None   # (color, level or None) -> cards
    totals: dict[str, int] | None = None
    most = game.lookups.leader_most_cards
    for lid in p.hand:
        if lid in active:
            continue
        leader = leaders[lid]
        if leader.requires_cards:
            if n_cards < 0:
                n_cards = 0
                for slot in p.slots:
                    n_cards += len(slot)
            if n_cards < most[lid]:   # (fewer cards than one requirement alone asks for)
                continue
            if owned is None:
                owned = {}
                cards = game.config.dev_cards
                for slot in p.slots:
                    for cid in slot:
                        c = cards[cid]
                        k = (c.color, c.level)
                        owned[k] = owned.get(k, 0) + 1
                        k = (c.color, None)
                        owned[k] = owned.get(k, 0) + 1
            ok = True
            for req in leader.requires_cards:
                if owned.get((req.color, req.level), 0) < req.count:
                    ok = False
                    break
            if not ok:
                continue
        if leader.requires_resources:
            if totals is None:
                totals = p.resource_totals()
            ok = True
            for r, n in leader.requires_resources.items():
                if totals.get(r, 0) < n:
                    ok = False
                    break
            if not ok:
                continue
        out.append(leader)
    return out


# ---------------------------------------------------------------------------- productions
def production_request(game: Game, p: PlayerState, prod: Production,
                       taken: Mapping[int, Mapping[str, int]] | None = None,
                       output: Mapping[str, int] | None = None) -> ProductionRequest | None:
    """A request running ``prod`` with inputs from the player's containers (not counting what
    ``taken`` already uses), blanks paid with whatever the player holds most of, and free outputs
    of ``output`` (default: the first resource). None if it can't be paid."""
    avail: dict[int, dict[str, int]] = {}
    if not taken:
        for c in p.containers():
            if c.content:
                avail[c.id] = dict(c.content)
    else:
        for c in p.containers():
            used = taken.get(c.id, {})
            for r, n in c.content.items():
                left = n - used.get(r, 0)
                if left > 0:
                    avail.setdefault(c.id, {})[r] = left
    plan: Placement = {}

    def take(r: str, need: int) -> int:
        for cid in list(avail):
            have = avail[cid].get(r, 0)
            n = min(have, need)
            if n > 0:
                avail[cid][r] = have - n
                plan.setdefault(cid, {})[r] = plan.get(cid, {}).get(r, 0) + n
                need -= n
            if not need:
                break
        return need

    for r, n in prod.input.items():
        if take(r, n):
            return None
    blanks = prod.input_choice
    while blanks:
        totals: dict[str, int] = {}
        for m in avail.values():
            for r, n in m.items():
                totals[r] = totals.get(r, 0) + n
        if not totals or max(totals.values()) == 0:
            return None
        r = max(totals, key=lambda k: totals[k])
        n = min(blanks, totals[r])
        take(r, n)
        blanks -= n
    out = dict(output) if output is not None else (
        {game.config.resources[0]: prod.output_choice} if prod.output_choice else {})
    return ProductionRequest(prod.id, plan, {}, out)


def runnable_productions(game: Game, p: PlayerState) -> list[Production]:
    """The player's available productions that could each run on their own now."""
    return [prod for prod in game.available_productions(p).values()
            if production_request(game, p, prod) is not None]


# ---------------------------------------------------------------------------- everything
def legal_actions(game: Game, nickname: str) -> Iterator[Action]:
    """A representative set of legal requests for ``nickname`` now (empty when none).

    One request per distinct decision a player makes (line, card and slot, set of productions,
    leader), each with the suggested placement or payment; free choices (blank resources, white
    marbles with two leaders) take their defaults. Every request yielded is accepted by the engine.
    """
    p = game.player(nickname)
    if game.phase == SETUP:
        if not p.chose_leaders:
            for pair in combinations(p.hand, game.config.leaders_kept):
                yield ReqChooseLeaders(pair)
        if not p.chose_resources and p.bonus:      # (nothing to choose: no empty choice to send)
            for r in game.config.resources:
                shelf = max(p.shelves, key=lambda s: s.capacity)
                yield ReqChooseResources({shelf.id: {r: p.bonus}})
        return
    if game.phase != PLAY or game.current != p.seat or game.phase == ENDED:
        return
    for leader in activatable_leaders(game, p):
        yield ReqLeaderAction(leader.id, True)
    for lid in p.hand:
        if lid not in p.active_leaders:
            yield ReqLeaderAction(lid, False)
    if game.main_done:
        yield ReqEndTurn()
        return
    for line in market_lines(game, p):
        yield take_market_request(game, p, line)
    for offer in affordable_cards(game, p):
        for slot in offer.slots:
            yield buy_request(game, p, offer, slot)
    reqs: list[ProductionRequest] = []
    used: Placement = {}
    for prod in game.available_productions(p).values():
        single = production_request(game, p, prod)
        if single is None:
            continue
        yield ReqActivateProductions((single,))
        combined = production_request(game, p, prod, used)
        if combined is not None:
            reqs.append(combined)
            for cid, m in combined.input_containers.items():
                for r, n in m.items():
                    used.setdefault(cid, {})[r] = used.get(cid, {}).get(r, 0) + n
    if len(reqs) > 1:
        yield ReqActivateProductions(tuple(reqs))
