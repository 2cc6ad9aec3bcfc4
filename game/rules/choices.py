"""The legal choices a UI or a bot needs, and sensible suggestions.

Everything here reads a :class:`~game.rules.engine.Game` and never changes it. Suggestions are
always legal requests for the current state (the engine would accept them), so a UI can offer
them as "one click" defaults and a bot can play with them.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Iterator, Mapping

from .actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                      ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction,
                      ReqTakeFromMarket)
from .components import DevCard, LeaderCard, Production
from .state import SHELF, Container, PlayerState

if TYPE_CHECKING:
    from .engine import Game

Placement = dict[int, dict[str, int]]


@dataclass(frozen=True, slots=True)
class MarketLine:
    """What taking one line would give: resources (whites converted with one leader), faith, whites."""

    is_row: bool
    index: int
    marbles: tuple[str, ...]
    resources: Mapping[str, int]
    faith: int
    whites: int
    white_options: tuple[str, ...]   # resources the whites may become (0, 1 or 2 leaders)


@dataclass(frozen=True, slots=True)
class CardOffer:
    """A top card the player can pay for now, its discounted cost and the slots that take it."""

    card: DevCard
    cost: Mapping[str, int]
    slots: tuple[int, ...]


# ---------------------------------------------------------------------------- market
def market_lines(game: "Game", p: PlayerState) -> list[MarketLine]:
    """The 7 lines of the market (3 rows, then 4 columns) and what each would give ``p``."""
    options = tuple(ld.resource for ld in game.active_leaders_of(p, "white_marble"))
    out = []
    cfg = game.config
    for is_row, count in ((True, cfg.market_rows), (False, cfg.market_columns)):
        for i in range(count):
            marbles = tuple(game.line(is_row, i))
            res: dict[str, int] = {}
            for m in marbles:
                if m not in ("Zero", "Faith"):
                    res[m] = res.get(m, 0) + 1
            whites = marbles.count("Zero")
            if len(options) == 1 and whites:
                res[options[0]] = res.get(options[0], 0) + whites
            out.append(MarketLine(is_row, i, marbles, res, marbles.count("Faith"), whites, options))
    return out


def placement_targets(game: "Game", p: PlayerState, res: str) -> list[int]:
    """Ids of the shelves and leader depots where one more ``res`` could go right now."""
    out = []
    for c in p.depot_like():
        if c.total() >= c.capacity:
            continue
        if c.bound is not None:
            if c.bound == res:
                out.append(c.id)
            continue
        held = c.res_type()
        if held == res:
            out.append(c.id)
        elif held is None and not any(s is not c and s.res_type() == res for s in p.shelves):
            out.append(c.id)
    return out


def suggest_placement(game: "Game", p: PlayerState, intake: Mapping[str, int]) -> Placement:
    """A legal placement of ``intake`` that stores as many resources as possible (no rearranging).

    Leader depots of the right type fill first, then a shelf already holding that type, then the
    best assignment of the remaining types to empty shelves (tried exhaustively: at most 4 types
    and 3 shelves).
    """
    left = {r: n for r, n in intake.items() if n}
    plan: Placement = {}

    def put(c: Container, r: str, n: int) -> None:
        plan.setdefault(c.id, {})[r] = plan.get(c.id, {}).get(r, 0) + n
        left[r] -= n

    for c in p.depots:
        n = min(left.get(c.bound, 0), c.capacity - c.total())  # type: ignore[arg-type]
        if n > 0:
            put(c, c.bound, n)  # type: ignore[arg-type]
    empty = []
    for s in p.shelves:
        held = s.res_type()
        if held is None:
            empty.append(s)
        elif left.get(held, 0) and s.total() < s.capacity:
            put(s, held, min(left[held], s.capacity - s.total()))
    held_types = {s.res_type() for s in p.shelves}
    todo = [r for r, n in left.items() if n > 0 and r not in held_types]
    if todo and empty:
        best: tuple[int, tuple] = (-1, ())
        k = min(len(todo), len(empty))
        for types in permutations(todo, k):
            for shelves in permutations(empty, k):
                stored = sum(min(left[r], s.capacity) for r, s in zip(types, shelves))
                if stored > best[0]:
                    best = (stored, tuple(zip(types, shelves)))
        for r, s in best[1]:
            put(s, r, min(left[r], s.capacity))
    return plan


def default_bonus_placement(game: "Game", p: PlayerState) -> Placement:
    """Starting resources for a player who did not choose: all of the first resource, largest shelf."""
    if not p.bonus:
        return {}
    shelf = max(p.shelves, key=lambda s: s.capacity)
    return {shelf.id: {game.config.resources[0]: p.bonus}}


def take_market_request(game: "Game", p: PlayerState, line: MarketLine,
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


def discarded_if(game: "Game", p: PlayerState, intake: Mapping[str, int], placement: Placement) -> int:
    """How many resources a placement would leave over (each gives faith to every opponent)."""
    return sum(intake.values()) - sum(n for m in placement.values() for n in m.values())


# ---------------------------------------------------------------------------- cards
def suggest_payment(game: "Game", p: PlayerState, cost: Mapping[str, int]) -> Placement | None:
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


def affordable_cards(game: "Game", p: PlayerState) -> list[CardOffer]:
    """Top cards of the grid that ``p`` can pay for and has a legal slot for."""
    cfg = game.config
    totals = p.resource_totals()
    out = []
    for color in cfg.colors:
        for lv in cfg.levels:
            card = game.top_card(color, lv)
            if card is None:
                continue
            slots = tuple(i for i in range(cfg.dev_slots) if game.slot_accepts(p, i, lv))
            if not slots:
                continue
            cost = game.card_cost(p, card)
            if all(totals.get(r, 0) >= n for r, n in cost.items()):
                out.append(CardOffer(card, cost, slots))
    return out


def buy_request(game: "Game", p: PlayerState, offer: CardOffer, slot: int | None = None) -> ReqBuyDevCard:
    """A complete purchase of ``offer`` into ``slot`` (default: its first legal slot)."""
    pay = suggest_payment(game, p, offer.cost) or {}
    return ReqBuyDevCard(offer.card.color, offer.card.level, offer.slots[0] if slot is None else slot, pay)


# ---------------------------------------------------------------------------- leaders
def activatable_leaders(game: "Game", p: PlayerState) -> list[LeaderCard]:
    """Leaders in ``p``'s hand whose requirement is met now."""
    out = []
    for lid in p.hand:
        if lid in p.active_leaders:
            continue
        leader = game.config.leaders[lid]
        cards, res = game.missing_requirements(p, leader)
        if not cards and not res:
            out.append(leader)
    return out


# ---------------------------------------------------------------------------- productions
def production_request(game: "Game", p: PlayerState, prod: Production,
                       taken: Mapping[int, Mapping[str, int]] | None = None,
                       output: Mapping[str, int] | None = None) -> ProductionRequest | None:
    """A request running ``prod`` with inputs from the player's containers (not counting what
    ``taken`` already uses), blanks paid with whatever the player holds most of, and free outputs
    of ``output`` (default: the first resource). None if it can't be paid."""
    avail: dict[int, dict[str, int]] = {}
    for c in p.containers():
        for r, n in c.content.items():
            left = n - (taken or {}).get(c.id, {}).get(r, 0)
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


def runnable_productions(game: "Game", p: PlayerState) -> list[Production]:
    """The player's available productions that could each run on their own now."""
    return [prod for prod in game.available_productions(p).values()
            if production_request(game, p, prod) is not None]


# ---------------------------------------------------------------------------- everything
def legal_actions(game: "Game", nickname: str) -> Iterator[Action]:
    """A representative set of legal requests for ``nickname`` now (empty when none).

    One request per distinct decision a player makes (line, card and slot, set of productions,
    leader), each with the suggested placement or payment; free choices (blank resources, white
    marbles with two leaders) take their defaults. Every request yielded is accepted by the engine.
    """
    from .engine import ENDED, PLAY, SETUP
    p = game.player(nickname)
    if game.phase == SETUP:
        if not p.chose_leaders:
            for pair in combinations(p.hand, game.config.leaders_kept):
                yield ReqChooseLeaders(pair)
        if not p.chose_resources:
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


def shelf_ids(p: PlayerState) -> list[int]:
    return [s.id for s in p.shelves if s.kind == SHELF]
