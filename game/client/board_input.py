"""What a click on the board does: a plan edited, or a request sent (pure Python, no pygame).

A front end turns its input into a *target* (a market line, a card of the grid, a shelf, a
resource of the plan…: the small frozen dataclasses below) and hands it to
:class:`BoardInput`, which keeps what the player is arranging (the plan, the picked resource or
shelf, the opponent being looked at) and turns the target into a plan edit or a request through
the session. The pygame board draws what it holds; tests drive it with no display.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from game.i18n import _
from game.rules.actions import Action, ReqMoveResources, ReqSwapShelves
from game.rules.errors import GameError

from .hint import HintPlan, plan_for
from .plans import BuyPlan, MarketPlan, ProductionPlan
from .refusals import words_for
from .words import amount, resource_name

if TYPE_CHECKING:
    from .session import GameSession

RESOURCES = ("Coin", "Servant", "Shield", "Stone")
"""The order resources are offered in (a free choice is filled with the first of the most owned)."""


# ---------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class Line:
    """A row (``is_row``) or a column of the market, by index."""
    is_row: bool
    index: int


@dataclass(frozen=True)
class Card:
    """The top card of a pile of the grid."""
    color: str
    level: int


@dataclass(frozen=True)
class Shelf:
    """A shelf of the warehouse or a leader's depot (its container id)."""
    id: int


@dataclass(frozen=True)
class Item:
    """A resource a market plan places (its index in the plan)."""
    index: int


@dataclass(frozen=True)
class Discard:
    """The market plan's Discard: the picked resource is given up."""


@dataclass(frozen=True)
class Suggest:
    """The market plan's Suggest: every resource put where the rules advise."""


@dataclass(frozen=True)
class White:
    """A white marble of a market plan whose conversion (two leaders) is chosen by clicking."""
    index: int


@dataclass(frozen=True)
class Slot:
    """A development slot of the player's board (where a bought card goes)."""
    index: int


@dataclass(frozen=True)
class Pay:
    """One ``res`` of a payment moved from container ``source`` to ``target``."""
    res: str
    source: int
    target: int


@dataclass(frozen=True)
class Production:
    """A production of the player's (base, a card's, a leader's), by id."""
    id: int


@dataclass(frozen=True)
class Blank:
    """A free choice of a production: ``res`` for the ``index``-th blank of its ``side`` ("in"/"out")."""
    production: int
    side: str
    index: int
    res: str


@dataclass(frozen=True)
class Leader:
    """A leader card of the player's, by id."""
    id: int


@dataclass(frozen=True)
class Opponent:
    """Another player's name card (their board is looked at)."""
    nickname: str


# what a click does nothing to (the pointer over them shows them larger, or says what they are)
@dataclass(frozen=True)
class Marble:
    """A marble of the market's grid (a line is taken by its arrow)."""
    row: int
    col: int


@dataclass(frozen=True)
class Favor:
    """The player's favor tile of a Vatican section, by index."""
    index: int


@dataclass(frozen=True)
class Token:
    """One of Lorenzo's action tokens: the one just drawn (``id`` None) or one face up, by id."""
    id: int | None = None


@dataclass(frozen=True)
class Strongbox:
    """The player's strongbox (its container id)."""
    id: int


@dataclass(frozen=True)
class Lock:
    """The padlock of the connection to the server (encrypted or not, and the certificate)."""


INERT = (Marble, Favor, Token, Strongbox, Lock)
"""The targets a click does nothing to."""

Target = Union[Line, Card, Shelf, Item, Discard, Suggest, White, Slot, Pay, Production, Blank, Leader, Opponent,
               Marble, Favor, Token, Strongbox, Lock]
Plan = Union[MarketPlan, BuyPlan, ProductionPlan, HintPlan]


def owned(vm: Any) -> dict[str, int]:
    """What the player owns of each resource (shelves, leader depots and strongbox), from the view."""
    me = vm.me
    out: dict[str, int] = {}
    for cid in [*me["warehouseShelves"], *me.get("leaderDepots", []), me["strongbox"]]:
        for res, n in vm.container(cid)["content"].items():
            out[res] = out.get(res, 0) + n
    return out


# ---------------------------------------------------------------------------- input
class BoardInput:
    """The player's hand on the board: what is being arranged, and what a target does to it."""

    def __init__(self, session: "GameSession") -> None:
        self.session = session
        self.plan: Plan | None = None
        self.selected_item: int | None = None       # market plan: the resource being placed
        self.selected_shelf: int | None = None      # the first shelf of a swap (or of a move)
        self.viewing: str | None = None              # an opponent whose board is open
        self.leader_menu: int | None = None          # a leader in hand whose Play and Discard are offered
        self.note: str | None = None                 # why the last pick in a plan was refused, in words
        self.refused: int | None = None              # a shelf pressed that the picked resource cannot go to

    @property
    def vm(self) -> Any:
        return self.session.vm

    def can_act(self) -> bool:
        """My turn, connected, and the game not over."""
        g = self.vm.game
        return bool(self.vm.my_turn and not self.session.connection_lost and g is not None and not g.get("ended"))

    def cancel(self) -> None:
        """Drop the plan and everything picked (right click, Esc)."""
        self.note = None
        self.plan = None
        self.selected_item = None
        self.selected_shelf = None
        self.viewing = None
        self.leader_menu = None

    def turn_over(self) -> None:
        """No longer this player's turn: nothing stays picked into the next one."""
        self.plan = None
        self.selected_item = self.selected_shelf = self.refused = None

    # ------------------------------------------------------------------ clicks
    def click(self, target: Target | None) -> None:
        """A click on ``target`` (None: on nothing): a plan step, a plan begun, or a request."""
        if self.viewing is not None:
            self.viewing = None
            return
        chosen, self.leader_menu = self.leader_menu, None
        if isinstance(target, Leader) and target.id == chosen:   # the chosen leader again: put back
            return
        if target is None:
            self.selected_shelf = None
            return
        if isinstance(target, Opponent):
            self.viewing = target.nickname
            return
        if not self.can_act():
            return
        plan = self.plan
        if isinstance(plan, MarketPlan):
            self._market_click(plan, target)
            return
        if isinstance(plan, BuyPlan):
            if isinstance(target, Slot) and target.index in plan.slots:
                plan.slot = target.index
            elif isinstance(target, Pay):
                plan.payment.move(target.res, target.source, target.target)
            return
        if isinstance(plan, ProductionPlan):
            if isinstance(target, Production):
                plan.toggle(target.id)
                self.note = None
                self._default_blanks(plan, target.id)
            elif isinstance(target, Blank):
                self._pick(plan, target)
            elif isinstance(target, Pay):
                plan.get_payment().move(target.res, target.source, target.target)
            return
        self._idle_click(target)
        if self.plan is not None:   # a plan begun: a shelf picked before it is no longer picked
            self.selected_shelf = None

    def _market_click(self, plan: MarketPlan, target: Target) -> None:
        self.note = None
        if isinstance(target, Item):
            self.selected_item, self.selected_shelf = target.index, None
        elif isinstance(target, Shelf):
            self._plan_shelf_click(plan, target.id)
        elif isinstance(target, Discard) and self.selected_item is not None:
            plan.put(self.selected_item, None)
            self.selected_item = self.next_unplaced()
        elif isinstance(target, White):
            opts = plan.white_options
            plan.choose_white(target.index, opts[(opts.index(plan.white_choice[target.index]) + 1) % len(opts)])
        elif isinstance(target, Suggest):
            plan.suggest()

    def _idle_click(self, target: Target) -> None:
        """A click with no plan under way."""
        main_open = not self.vm.game["isMandatoryActionDone"]
        sh = self.session.shadow()
        me = sh.player(self.vm.nickname)
        if isinstance(target, Line) and main_open:
            self.plan = MarketPlan.start(sh, me, target.is_row, target.index)
            self.selected_item = self.next_unplaced()
        elif isinstance(target, Card) and main_open:
            card = sh.top_card(target.color, target.level)
            if card is not None:
                self.plan = BuyPlan.start(sh, me, card)
        elif isinstance(target, Production) and main_open:
            self.start_production()
            if isinstance(self.plan, ProductionPlan):
                self.plan.toggle(target.id)
                self._default_blanks(self.plan, target.id)
        elif isinstance(target, Shelf):
            if self.selected_shelf is None:
                self.selected_shelf = target.id
            elif self.selected_shelf == target.id:
                self.selected_shelf = None
            else:   # a swap if the rules let them swap, else what fits moves over
                self.rearrange(self.selected_shelf, target.id, None, swap_first=True)
                self.selected_shelf = None
        elif (isinstance(target, Leader) and target.id in self.vm.me["leadersHand"]
              and not self.vm.leader(target.id)["active"]):
            self.leader_menu = target.id

    def drop(self, start: int, target: Target | None, unit: str | None) -> None:
        """The button comes up after a drag from shelf ``start`` (carrying ``unit`` alone, when one
        resource was picked up): onto another shelf it moves (or swaps) as the rules allow; dropped
        anywhere else, the first stays selected."""
        if start == self.refused:   # a press that was refused for the picked resource, then dragged
            self.selected_shelf, self.note, self.refused = start, None, None
        if not (isinstance(target, Shelf) and target.id != start and self.selected_shelf == start):
            return
        if unit is not None and isinstance(self.plan, MarketPlan):   # one resource carried over
            self._plan_move(self.plan, start, target.id, unit, 1)
            self.selected_shelf = None
            return
        if self.plan is None and self.can_act():   # a drag moves what fits (or swaps if nothing can)
            self.rearrange(start, target.id, unit, swap_first=False)
            self.selected_shelf = None
            return
        self.click(target)

    # ------------------------------------------------------------------ the warehouse
    def rearrange(self, src: int, dst: int, unit: str | None, swap_first: bool) -> None:
        """Outside a plan, move from shelf (or depot) ``src`` to ``dst`` what the rules allow,
        tried on a copy of the game first: ``unit`` alone when one resource was carried; else a
        swap of the two or as much of ``src`` as fits on ``dst`` (the swap first after two clicks,
        the move first after a drag). Nothing possible: the first refusal, in words."""
        request, why = self.rearrangement(src, dst, unit, swap_first)
        if request is None:
            self.session.say(why)
            return
        self.session.dismiss()
        self.session.send(request)

    def rearrangement(self, src: int, dst: int, unit: str | None,
                      swap_first: bool) -> tuple[Action | None, str | None]:
        """What :meth:`rearrange` would send now (the first request the rules allow, tried on a
        copy of the game), or None and why nothing can move, in words."""
        content = self.vm.container(src)["content"]
        moves: list[Action] = ([ReqMoveResources(src, dst, unit, 1)] if unit is not None else
                               [ReqMoveResources(src, dst, res, k) for res, n in sorted(content.items())
                                for k in range(n, 0, -1)])
        swap: list[Action] = [ReqSwapShelves(src, dst)] if unit is None else []
        first_why = None
        for request in (swap + moves if swap_first else moves + swap):
            why = self.refusal(request)
            if why is None:
                return request, None
            first_why = first_why or why
        return None, first_why or _("Nothing there to move.")

    def request_words(self, request: Action) -> str:
        """What a one-step request does, in words ("Swap shelf 1 and shelf 3")."""
        from .hint import describe
        sh = self.session.shadow()
        return describe(request, sh, sh.player(self.vm.nickname))

    def refusal(self, request: Action) -> str | None:
        """Why the engine would refuse ``request`` now (tried on a copy of the player's game), in
        the player's words (the engine's go to the log file), or None."""
        game = copy.deepcopy(self.session.shadow())
        try:
            game.apply(self.vm.nickname, request)
        except GameError as e:
            return words_for(e, request, game.player(self.vm.nickname))
        return None

    def _plan_shelf_click(self, plan: MarketPlan, cid: int) -> None:
        """A shelf or depot clicked during a market plan: the selected resource goes there if it
        can; otherwise the shelf is picked, and a second one is swapped with it (in the plan:
        the swap is sent before the take, on Confirm)."""
        if self.selected_shelf is not None and self.selected_shelf != cid:
            try:
                plan.rearrange(ReqSwapShelves(self.selected_shelf, cid))
            except ValueError:   # they cannot swap: move over what fits (part of a shelf)
                if not self._move_what_fits(plan, self.selected_shelf, cid):
                    self.note = plan.why_no_swap(self.selected_shelf, cid)   # said in the plan, in words
            self.session.dismiss()
            self.selected_shelf = None
            self.selected_item = self.next_unplaced()
        elif self.selected_shelf == cid:
            self.selected_shelf = None
        elif self.selected_item is not None and cid in plan.targets_for(self.selected_item):
            plan.put(self.selected_item, cid)
            self.selected_item = self.next_unplaced()
        elif self.selected_item is not None:   # a shelf that does not glow for the picked resource: why
            why = plan.why_not(self.selected_item, cid) or _("That resource does not fit there")
            if any(plan.arranged().get(cid, {}).values()):   # it holds something: the swap the footer offers
                name = plan.box_name(cid)
                self.note = _("{why}. Click another shelf to swap {box} with it.").format(why=why.rstrip("."), box=name)
                self.selected_shelf, self.selected_item = cid, None
            else:
                self.note = why
                self.selected_item, self.refused = None, cid    # (a drag from it still moves what it holds)
        else:
            self.selected_shelf, self.selected_item = cid, None

    def _move_what_fits(self, plan: MarketPlan, src: int, dst: int) -> bool:
        """Move as much of what ``src`` holds onto ``dst`` as the rules let (in the plan: the
        request goes before the take); False if nothing can move."""
        for res, n in sorted(plan.arranged().get(src, {}).items()):
            for k in range(n, 0, -1):
                if self._plan_move(plan, src, dst, res, k, quiet=True):
                    return True
        return False

    def _plan_move(self, plan: MarketPlan, src: int, dst: int, res: str, k: int, quiet: bool = False) -> bool:
        """``k`` of ``res`` from ``src`` to ``dst`` in the plan; a refusal is said in words."""
        try:
            plan.rearrange(ReqMoveResources(src, dst, res, k))
        except ValueError:
            if not quiet:   # in the plan panel, where the player is looking, in plain words
                self.note = plan.why_no_move(src, dst, res)
            return False
        self.session.dismiss()
        self.selected_item = self.next_unplaced()
        return True

    # ------------------------------------------------------------------ productions
    def _pick(self, plan: ProductionPlan, blank: Blank) -> None:
        """Choose a resource for a free choice of a production; paying with what the player does
        not have enough of is refused in words."""
        pid, side, i, res = blank.production, blank.side, blank.index, blank.res
        self.note = None
        if side == "in":
            have = owned(self.vm).get(res, 0)
            need = plan.total_input().get(res, 0) - (plan.input_blanks[pid][i] == res) + 1
            if have < need:
                self.note = (_("You have no {resource} to pay with.").format(resource=resource_name(res)) if not have
                             else _("You have {amount}: not enough to pay {need}.").format(amount=amount(have, res),
                                                                                          need=need))
                return
        plan.set_blank(pid, side, i, res)

    def _default_blanks(self, plan: ProductionPlan, pid: int) -> None:
        """A production's free inputs paid with what the player has most of, one by one."""
        if pid not in plan.input_blanks:
            return
        left = dict(owned(self.vm))
        for res, n in plan.total_input().items():
            left[res] = left.get(res, 0) - (n - sum(b.count(res) for b in plan.input_blanks.values()))
        for p, blanks in plan.input_blanks.items():
            if p != pid:
                for r in blanks:
                    left[r] = left.get(r, 0) - 1
        for k in range(len(plan.input_blanks[pid])):
            best = max(RESOURCES, key=lambda r: (left.get(r, 0), -RESOURCES.index(r)))
            plan.set_blank(pid, "in", k, best)
            left[best] = left.get(best, 0) - 1

    def start_production(self) -> None:
        """Produce: a production plan (the main action still to do, on my turn)."""
        if not self.can_act() or self.vm.game["isMandatoryActionDone"]:
            return
        sh = self.session.shadow()
        self.plan = ProductionPlan.start(sh, sh.player(self.vm.nickname))
        self.selected_shelf = None

    # ------------------------------------------------------------------ plans and requests
    def next_unplaced(self) -> int | None:
        """The first resource of the market plan with no place yet (None: all placed, or no such plan)."""
        plan = self.plan
        if not isinstance(plan, MarketPlan):
            return None
        return next((i for i, t in enumerate(plan.target) if t is None), None)

    def send_plan(self) -> None:
        """Confirm: the plan's requests go (a market plan's rearranging first, then the take)."""
        plan = self.plan
        if plan is None or not getattr(plan, "ready", True):
            return
        for request in (plan.requests() if isinstance(plan, MarketPlan) else [plan.request()]):
            self.session.send(request)
        self.plan = None
        self.selected_item = None
        self.selected_shelf = None

    def take_hint(self, action: Action, why: str, then: Any = ()) -> None:
        """The hint's answer becomes the plan the player would have built for it by hand."""
        sh = self.session.shadow()
        self.plan = plan_for(action, why, sh, sh.player(self.vm.nickname), then)
        self.selected_item = self.next_unplaced()
        self.selected_shelf = None

    def leader_action(self, lid: int, play: bool) -> None:
        """Play (``play``) or discard the leader ``lid``."""
        self.leader_menu = None
        self.session.leader_action(lid, play)
