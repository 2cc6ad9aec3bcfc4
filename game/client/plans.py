"""What the player is putting together before sending it: a market take, a purchase, productions.

A *plan* is the unsent part of a choice. The board scene turns clicks into calls on a plan
("put this Coin on shelf 2", "pay the Stone from the strongbox", "add the base production")
and sends ``plan.request()`` when the player confirms. Legality comes from the rules engine's own
:mod:`game.rules.choices`, asked on a game rebuilt from the player's view
(:func:`game.rules.shadow.shadow_game`), so the client never re-implements a rule.

Plans are pure Python and never touch pygame, so they are tested on their own.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from game.rules.actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard, ReqMoveResources,
                                ReqSwapShelves, ReqTakeFromMarket)
from game.rules.choices import market_lines, suggest_payment, suggest_placement, suggest_take
from game.rules.errors import GameError
from game.rules.components import DevCard, Production
from game.rules.engine import Game
from game.rules.state import SHELF, PlayerState
from game.rules.warehouse import fits

from game.i18n import _, ngettext

from .refusals import box_name, why_no_move, why_no_swap, words_for
from .words import amount, amounts, resource_name

ContainerMap = dict[int, dict[str, int]]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _add(m: ContainerMap, cid: int, res: str, n: int) -> None:
    inner = m.setdefault(cid, {})
    inner[res] = inner.get(res, 0) + n
    if inner[res] <= 0:
        del inner[res]
    if not inner:
        del m[cid]


# ---------------------------------------------------------------------------- market
@dataclass
class MarketPlan:
    """Taking one market line: where each taken resource goes (None = discard), after the
    warehouse is rearranged as planned.

    The plan works on its own copy of the game: :meth:`rearrange` (a swap of two shelves or depots,
    or a move between them) changes that copy only and is remembered in :attr:`moves`; nothing is
    sent until :meth:`requests`, which gives the rearranging requests and then the take, in the
    order to send them. The suggestion rearranges by itself when that keeps more
    (:func:`~game.rules.choices.suggest_take`).
    """

    game: Game
    player: PlayerState
    is_row: bool
    index: int
    marbles: tuple[str, ...] = ()
    faith: int = 0
    white_options: tuple[str, ...] = ()
    white_choice: list[str] = field(default_factory=list)   # one entry per white marble (2 leaders)
    items: list[str] = field(default_factory=list)          # the resources taken, one per unit
    target: list[int | None] = field(default_factory=list)  # where each item goes
    moves: list[Action] = field(default_factory=list)       # rearranging requests, sent before the take
    _start: Game | None = None                              # the game before any rearranging

    @classmethod
    def start(cls, game: Game, player: PlayerState, is_row: bool, index: int) -> "MarketPlan":
        line = next(l for l in market_lines(game, player) if l.is_row == is_row and l.index == index)
        own = copy.deepcopy(game)            # rearranging is tried here, never on the caller's game
        plan = cls(own, own.player(player.nickname), is_row, index, line.marbles, line.faith, line.white_options)
        plan._start = game
        if len(line.white_options) > 1:
            plan.white_choice = [line.white_options[0]] * line.whites
        plan._rebuild_items(dict(line.resources))
        plan.suggest()
        return plan

    def _rebuild_items(self, fixed: dict[str, int]) -> None:
        res = dict(fixed)
        for r in self.white_choice:
            res[r] = res.get(r, 0) + 1
        self.items = [r for r in sorted(res) for _k in range(res[r])]
        self.target = [None] * len(self.items)

    def _fixed(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.marbles:
            if m not in ("Zero", "Faith"):
                out[m] = out.get(m, 0) + 1
        if len(self.white_options) == 1:
            whites = self.marbles.count("Zero")
            if whites:
                out[self.white_options[0]] = out.get(self.white_options[0], 0) + whites
        return out

    def choose_white(self, i: int, res: str) -> None:
        """With two white-marble leaders: white marble ``i`` becomes ``res``."""
        if res not in self.white_options:
            raise ValueError(f"{res} is not a choice for white marbles")
        self.white_choice[i] = res
        self._rebuild_items(self._fixed())
        self.suggest()

    def intake(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.items:
            out[r] = out.get(r, 0) + 1
        return out

    def placement(self) -> ContainerMap:
        out: ContainerMap = {}
        for r, cid in zip(self.items, self.target):
            if cid is not None:
                _add(out, cid, r, 1)
        return out

    def suggest(self) -> None:
        """Rearrange the warehouse if that keeps more, and place everything it can store; the rest
        is discarded (never anything some arrangement could keep)."""
        moves, placement = suggest_take(self.game, self.player, self.intake())
        for m in moves:
            self._apply(m)
        self._place(placement)

    def _place(self, placement: ContainerMap) -> None:
        self.target = [None] * len(self.items)
        for cid, m in placement.items():
            for r, n in m.items():
                for i, item in enumerate(self.items):
                    if n and item == r and self.target[i] is None:
                        self.target[i] = cid
                        n -= 1
        self.suggested = list(self.target)

    @property
    def as_suggested(self) -> bool:
        """Whether every resource is where the suggestion (or a hint) put it."""
        return list(self.target) == list(getattr(self, "suggested", []) or [])

    # rearranging -------------------------------------------------------------------------
    def rearrange(self, request: ReqSwapShelves | ReqMoveResources) -> None:
        """Swap two shelves or depots, or move resources between them, before the take; what is
        being taken is placed again on the new arrangement.

        Swapping two shelves that hold nothing yet swaps what the plan puts on them (no request).

        :raises ValueError: the engine would refuse it (in words).
        """
        if isinstance(request, ReqSwapShelves):
            boxes = {c.id: c for c in self.player.depot_like()}
            a, b = boxes.get(request.shelf1), boxes.get(request.shelf2)
            if a is not None and b is not None and not a.content and not b.content:
                self._swap_planned(a.id, b.id)
                return
        self._apply(request)
        self._place(suggest_placement(self.game, self.player, self.intake()))

    def _swap_planned(self, a: int, b: int) -> None:
        from game.rules.errors import ErrResourceTransfer
        from game.rules.warehouse import new_contents_after_add
        target = [b if t == a else a if t == b else t for t in self.target]
        placement: ContainerMap = {}
        for r, cid in zip(self.items, target):
            if cid is not None:
                _add(placement, cid, r, 1)
        boxes = {c.id: c for c in self.player.depot_like()}
        try:
            new_contents_after_add({boxes[cid]: m for cid, m in placement.items()}, self.player.shelves)
        except ErrResourceTransfer:
            raise ValueError("What you are taking does not fit there.") from None
        self.target = target

    def _apply(self, request: Action) -> None:
        try:
            self.game.apply(self.player.nickname, request)
        except GameError as e:
            raise ValueError(words_for(e, request, self.player)) from None
        self.moves.append(request)

    def reset_arrangement(self) -> None:
        """Forget the rearranging (the warehouse as it really is) and suggest again without it."""
        if self._start is None or not self.moves:
            return
        self.game = copy.deepcopy(self._start)
        self.player = self.game.player(self.player.nickname)
        self.moves = []
        self._place(suggest_placement(self.game, self.player, self.intake()))

    def arranged(self) -> dict[int, dict[str, int]]:
        """What each shelf and depot holds once the planned rearranging is done."""
        return {c.id: dict(c.content) for c in self.player.depot_like()}

    def requests(self) -> list[Action]:
        """Everything to send, in order: the rearranging requests, then the take."""
        return [*self.moves, self.request()]

    def targets_for(self, i: int) -> list[int]:
        """Containers where item ``i`` could go now, given where the others are going."""
        res = self.items[i]
        current = self.target[i]
        placed = self.placement()
        if current is not None:
            _add(placed, current, res, -1)
        out = []
        for c in self.player.depot_like():
            content = dict(c.content)
            for r, n in placed.get(c.id, {}).items():
                content[r] = content.get(r, 0) + n
            content[res] = content.get(res, 0) + 1
            if fits(c, content) is not None:
                continue
            if c.kind == SHELF and any(
                    s is not c and (res in s.content or res in placed.get(s.id, {})) for s in self.player.shelves):
                continue
            out.append(c.id)
        return out

    def box_name(self, cid: int) -> str:
        """"shelf 2", or "the Stone depot" for a leader's depot."""
        return box_name(self.player, cid)

    def _holding(self, i: int) -> ContainerMap:
        """What each container holds with everything planned but item ``i``."""
        placed = self.placement()
        if self.target[i] is not None:
            _add(placed, self.target[i], self.items[i], -1)
        out: ContainerMap = {}
        for c in self.player.depot_like():
            inner = dict(c.content)
            for r, n in placed.get(c.id, {}).items():
                inner[r] = inner.get(r, 0) + n
            out[c.id] = inner
        return out

    def why_not(self, i: int, cid: int, *, typed: bool = False) -> str | None:
        """Why item ``i`` cannot go to ``cid`` now, in plain words with what to do instead (None:
        it can). A shelf holds one kind of resource, and no two shelves the same kind. ``typed``:
        the clicks that would move it said as the text client's command that does the same."""
        said = self._why_not(i, cid, typed)
        return said[0] if said else None

    def _shelf_number(self, cid: int) -> int:
        return next(k for k, s in enumerate(self.player.shelves) if s.id == cid) + 1

    def _why_not(self, i: int, cid: int, typed: bool = False) -> tuple[str, bool] | None:
        """:meth:`why_not`'s words, and whether they say which clicks move the resource."""
        if cid in self.targets_for(i):
            return None
        res = self.items[i]
        boxes = {c.id: c for c in self.player.depot_like()}
        c = boxes.get(cid)
        if c is None:
            return None
        held = self._holding(i)
        name = self.box_name(cid)
        kind = resource_name(res)
        if c.kind == SHELF:
            twin = next((s for s in self.player.shelves if s is not c and held[s.id].get(res)), None)
            if twin is not None:
                k = self.box_name(twin.id)
                n = held[twin.id][res] + (self.target[i] == twin.id)
                if sum(held[twin.id].values()) + (self.target[i] == twin.id) <= c.capacity \
                        and sum(held[cid].values()) <= twin.capacity:
                    moved = amount(n, res)
                    if typed:
                        # TRANSLATORS: "move 3 2" is the text client's command, typed as it is (not translated)
                        return _("{resource} are also on {other}: say move {a} {b} to move {amount}").format(
                            resource=kind, other=k, a=self._shelf_number(twin.id), b=self._shelf_number(cid),
                            amount=moved), True
                    return _("{resource} are also on {other}: click {other}, then {box}, to move {amount}").format(
                        resource=kind, other=k, box=name, amount=moved), True
                return _("{resource} are also on {other} (one kind per shelf), and {box} holds only {capacity}").format(
                    resource=kind, other=k, box=name, capacity=c.capacity), False
        others = sorted(r for r in held[cid] if r != res)
        if c.bound is not None and c.bound != res:
            return _cap(_("{box} takes only {resource}").format(box=name, resource=resource_name(c.bound))), False
        if others and c.kind == SHELF:
            return _cap(_("{box} holds {resource}: one kind per shelf").format(
                box=name, resource=resource_name(others[0]))), False
        return _cap(_("{box} is full (it holds {capacity})").format(box=name, capacity=c.capacity)), False

    def why_no_swap(self, a: int, b: int) -> str:
        """Why the shelves (or depots) ``a`` and ``b`` cannot swap, nor the one's content move onto
        the other, before the take, in plain words ("2 Coins do not fit on shelf 1: it holds 1")."""
        return why_no_swap(self.player, a, b) or _("What you are taking would not fit after that swap.")

    def why_no_move(self, src: int, dst: int, res: str) -> str:
        """Why one ``res`` cannot move from ``src`` onto ``dst`` before the take, in plain words."""
        return why_no_move(self.player, src, dst, res)

    def why_stuck(self, i: int) -> str | None:
        """When item ``i`` can go nowhere but where it is: why, and what to do (a shelf's
        reason that says which clicks move it), else None."""
        if any(cid != self.target[i] for cid in self.targets_for(i)):
            return None
        reasons = [w for c in self.player.depot_like() if c.id != self.target[i]
                   for w in [self._why_not(i, c.id)] if w]
        if not reasons:
            return None
        best = next((w for w, clicks in reasons if clicks), None)
        if best is not None:
            return best
        res = resource_name(self.items[i], 1)
        if self.target[i] is not None:
            return _("No other place has room for this {resource}: it stays on {box}").format(
                resource=res, box=self.box_name(self.target[i]))
        return _("No place has room for this {resource}: discard it, or rearrange first").format(resource=res)

    def put(self, i: int, cid: int | None) -> None:
        """Send item ``i`` to container ``cid`` (None: discard it).

        :raises ValueError: the container cannot take it.
        """
        if cid is not None and cid not in self.targets_for(i):
            raise ValueError("that resource does not fit there")
        self.target[i] = cid

    @property
    def discarded(self) -> int:
        return sum(1 for t in self.target if t is None)

    def discard_warning(self) -> str | None:
        """Plain words for what the discards give away, or None when nothing is discarded."""
        n = self.discarded
        if not n:
            return None
        things = amounts(dict(_count([self.items[i] for i, t in enumerate(self.target) if t is None])))
        if self.game.solo:
            return ngettext("Discarding {things}: Lorenzo's black cross moves {n} space.",
                            "Discarding {things}: Lorenzo's black cross moves {n} spaces.", n).format(things=things, n=n)
        return ngettext("Discarding {things}: everyone else gains {n} Faith.",
                        "Discarding {things}: everyone else gains {n} Faith.", n).format(things=things, n=n)

    def request(self) -> ReqTakeFromMarket:
        reps: dict[str, int] = {}
        for r in self.white_choice:
            reps[r] = reps.get(r, 0) + 1
        return ReqTakeFromMarket(self.is_row, self.index, reps, self.placement())


def _count(items: list[str]) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for r in items:
        out[r] = out.get(r, 0) + 1
    return sorted(out.items())


# ---------------------------------------------------------------------------- payment
@dataclass
class Payment:
    """Which containers pay for a cost; starts from the engine's suggestion, editable."""

    player: PlayerState
    cost: dict[str, int]
    taken: ContainerMap = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.taken:
            self.taken = suggest_payment(None, self.player, self.cost) or {}  # type: ignore[arg-type]

    def paid(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.taken.values():
            for r, n in m.items():
                out[r] = out.get(r, 0) + n
        return out

    @property
    def complete(self) -> bool:
        return self.paid() == {r: n for r, n in self.cost.items() if n}

    def sources(self, res: str) -> list[tuple[int, int, int]]:
        """(container id, held, taken) for every container holding ``res``."""
        return [(c.id, c.content.get(res, 0), self.taken.get(c.id, {}).get(res, 0))
                for c in self.player.containers() if c.content.get(res, 0)]

    def move(self, res: str, src: int, dst: int) -> bool:
        """Pay one ``res`` from ``dst`` instead of ``src``; False if that is not possible."""
        held = {c.id: c.content.get(res, 0) for c in self.player.containers()}
        if self.taken.get(src, {}).get(res, 0) < 1 or self.taken.get(dst, {}).get(res, 0) >= held.get(dst, 0):
            return False
        _add(self.taken, src, res, -1)
        _add(self.taken, dst, res, 1)
        return True


# ---------------------------------------------------------------------------- purchase
@dataclass
class BuyPlan:
    """Buying the top card of one deck: the slot and the payment."""

    game: Game
    player: PlayerState
    card: DevCard
    cost: dict[str, int]
    slots: tuple[int, ...]
    slot: int | None
    payment: Payment

    @classmethod
    def start(cls, game: Game, player: PlayerState, card: DevCard) -> "BuyPlan":
        cost = game.card_cost(player, card)
        slots = tuple(i for i in range(game.config.dev_slots) if game.slot_accepts(player, i, card.level))
        return cls(game, player, card, cost, slots, slots[0] if slots else None, Payment(player, cost))

    @property
    def affordable(self) -> bool:
        totals = self.player.resource_totals()
        return all(totals.get(r, 0) >= n for r, n in self.cost.items())

    @property
    def ready(self) -> bool:
        return self.slot is not None and self.affordable and self.payment.complete

    def problem(self) -> str | None:
        """Why it can't be bought, in plain words, or None."""
        if not self.slots:     # (said once for a whole level of the grid too: the level is named, not "this card")
            if self.card.level == 1:
                return _("No slot is empty to take a level-1 card.")
            return _("No slot has a level-{below} card on top to take a level-{level} card.").format(
                level=self.card.level, below=self.card.level - 1)
        if not self.affordable:
            totals = self.player.resource_totals()
            short = amounts({r: n - totals.get(r, 0) for r, n in self.cost.items() if totals.get(r, 0) < n})
            return _("You need {amounts} more.").format(amounts=short)
        return None

    def request(self) -> ReqBuyDevCard:
        assert self.slot is not None
        return ReqBuyDevCard(self.card.color, self.card.level, self.slot, {k: dict(v) for k, v in self.payment.taken.items()})


# ---------------------------------------------------------------------------- production
@dataclass
class ProductionPlan:
    """A set of productions to run at once, with the blank choices and the payment."""

    game: Game
    player: PlayerState
    available: dict[int, Production] = field(default_factory=dict)
    selected: list[int] = field(default_factory=list)
    input_blanks: dict[int, list[str]] = field(default_factory=dict)
    output_blanks: dict[int, list[str]] = field(default_factory=dict)
    payment: Payment | None = None
    runnable: set[int] = field(default_factory=set)   # those that could each run on their own now
    outputs_chosen: set[int] = field(default_factory=set)   # productions whose outputs the player chose

    @classmethod
    def start(cls, game: Game, player: PlayerState) -> "ProductionPlan":
        from game.rules.choices import runnable_productions
        return cls(game, player, dict(game.available_productions(player)),
                   runnable={prod.id for prod in runnable_productions(game, player)})

    def toggle(self, pid: int) -> None:
        if pid in self.selected:
            self.selected.remove(pid)
            self.input_blanks.pop(pid, None)
            self.output_blanks.pop(pid, None)
            self.outputs_chosen.discard(pid)
        elif pid in self.available:
            prod = self.available[pid]
            self.selected.append(pid)
            totals = self.player.resource_totals()
            first = max(sorted(totals), key=lambda r: totals[r]) if totals else self.game.config.resources[0]
            self.input_blanks[pid] = [first] * prod.input_choice
            self.output_blanks[pid] = [self._useful_output(pid)] * prod.output_choice
        self.payment = None

    def _useful_output(self, pid: int) -> str:
        """What a free output of ``pid`` gives until the player chooses: a resource that
        production does not pay with, the one the player has least of (paying 1 Coin and 1
        Servant to get 1 Coin back would waste the turn's main action)."""
        prod = self.available[pid]
        paid = set(prod.input) | set(self.input_blanks.get(pid, []))
        totals = self.player.resource_totals()
        kinds = list(self.game.config.resources)
        return min(kinds, key=lambda r: (r in paid, totals.get(r, 0), kinds.index(r)))

    def set_blank(self, pid: int, side: str, i: int, res: str) -> None:
        """Choose blank ``i`` of production ``pid`` on ``side`` ("in" or "out")."""
        if res not in self.game.config.resources:
            raise ValueError("a blank can only be a resource, never Faith")
        (self.input_blanks if side == "in" else self.output_blanks)[pid][i] = res
        if side == "out":
            self.outputs_chosen.add(pid)
        elif pid not in self.outputs_chosen and self.output_blanks.get(pid):
            self.output_blanks[pid] = [self._useful_output(pid)] * len(self.output_blanks[pid])
        self.payment = None

    def _totals(self, side: str) -> dict[str, int]:
        """Fixed amounts plus chosen blanks of every selected production, on one side ("in"/"out")."""
        blanks = self.input_blanks if side == "in" else self.output_blanks
        out: dict[str, int] = {}
        for pid in self.selected:
            prod = self.available[pid]
            for r, n in (prod.input if side == "in" else prod.output).items():
                out[r] = out.get(r, 0) + n
            for r in blanks.get(pid, []):
                out[r] = out.get(r, 0) + 1
        return out

    def total_input(self) -> dict[str, int]:
        return self._totals("in")

    def total_output(self) -> dict[str, int]:
        return self._totals("out")

    def get_payment(self) -> Payment:
        if self.payment is None:
            self.payment = Payment(self.player, self.total_input())
        return self.payment

    @property
    def ready(self) -> bool:
        return bool(self.selected) and self.get_payment().complete

    def problem(self) -> str | None:
        if not self.selected:
            return _("Choose at least one production.")
        totals = self.player.resource_totals()
        short = amounts({r: n - totals.get(r, 0) for r, n in self.total_input().items() if totals.get(r, 0) < n}, "")
        return _("You need {amounts} more.").format(amounts=short) if short else None

    def request(self) -> ReqActivateProductions:
        """Split the payment among the productions (each pays its own inputs) and build the request."""
        pool = {cid: dict(m) for cid, m in self.get_payment().taken.items()}
        reqs = []
        for pid in self.selected:
            need: dict[str, int] = dict(self.available[pid].input)
            for r in self.input_blanks.get(pid, []):
                need[r] = need.get(r, 0) + 1
            mine: ContainerMap = {}
            for r, n in need.items():
                for cid in list(pool):
                    k = min(n, pool[cid].get(r, 0))
                    if k:
                        _add(mine, cid, r, k)
                        _add(pool, cid, r, -k)
                        n -= k
                    if not n:
                        break
            out: dict[str, int] = {}
            for r in self.output_blanks.get(pid, []):
                out[r] = out.get(r, 0) + 1
            reqs.append(ProductionRequest(pid, mine, {}, out))
        return ReqActivateProductions(tuple(reqs))


# ---------------------------------------------------------------------------- starting resources
def starting_placement(picks: list[str], shelves: list[tuple[int, int]]) -> ContainerMap:
    """Where the starting resources ``picks`` go: each kind on its own shelf, big enough, the
    largest group first and each on the smallest shelf that holds it (``shelves``: (id, size),
    top shelf first), as ``GameSession.choose_resources`` takes them.

    >>> starting_placement(["Coin", "Stone", "Coin"], [(0, 1), (1, 2), (2, 3)])
    {1: {'Coin': 2}, 0: {'Stone': 1}}
    """
    groups: dict[str, int] = {}
    for r in picks:
        groups[r] = groups.get(r, 0) + 1
    out: ContainerMap = {}
    used: set[int] = set()
    for r in sorted(groups, key=lambda r: (-groups[r], r)):
        free = sorted((size, cid) for cid, size in shelves if size >= groups[r] and cid not in used)
        if free:
            used.add(free[0][1])
            out[free[0][1]] = {r: groups[r]}
    return out
