"""The Hint button: what the hard bot would do now, as a plan the player can look at and confirm.

The hard bot is asked in a worker process (:class:`~game.bots.driver.BotPool`; started at the first
hint, ended when the board is left; a thread if processes cannot start), from the player's
own view only (the ``UpdateGame`` the view model keeps up to date: the same in a game on this
machine and in a remote one), so the board never waits for it. Its request becomes the plan the
board would have built for it by hand (:func:`plan_for`): a market line with each resource's
shelf, a card with its slot and payment, productions with their choices; anything else (play
or discard a leader, end the turn, swap two shelves) becomes a :class:`HintPlan` that only says
what it does. A rearrangement of the warehouse made for a market take (``Decision.then``) is one
market plan: the shelves rearranged first, then the take, sent together on Confirm. Every such plan carries the bot's one line saying why (``plan.why``). The player
may change the plan, confirm it, or drop it (Back, Esc).
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from game import i18n
from game.i18n import _
from game.rules.actions import (Action, ReqActivateProductions, ReqBuyDevCard, ReqEndTurn, ReqLeaderAction,
                                ReqMoveResources, ReqSwapShelves, ReqTakeFromMarket)
from game.rules.components import GameConfig, default_config
from game.rules.engine import Game
from game.rules.state import PlayerState

from .plans import BuyPlan, MarketPlan, Payment, ProductionPlan
from .words import amount

HINT_LEVEL = "hard"
HINT_BUDGET: int | None = None
"""The hard bot's search effort for hints (None: its default, about a second; tests lower it)."""


@dataclass
class HintPlan:
    """A one-step request the hint suggests (nothing to arrange): Confirm sends it."""

    action: Action
    text: str
    why: str = ""
    ready: bool = True

    def request(self) -> Action:
        return self.action


class Hinter:
    """Asks the hard bot for the player's next request, one question at a time, off the caller's thread."""

    def __init__(self, config: GameConfig, on_ready: Callable[[], None] | None = None) -> None:
        from game.bots.driver import BotPool
        self.config = config
        self.on_ready = on_ready
        # rules read from a server's messages are in no file a worker could load: each job carries them
        self._from_file = os.path.isfile(config.path)
        self._pool = BotPool(config if self._from_file else default_config(), processes=True)
        self._lock = threading.Lock()
        self._asked: Any = None            # the job under way (or answered, not yet taken)
        self._answer: Any = None
        self._answered = False

    @property
    def thinking(self) -> bool:
        return self._asked is not None and not self._answered

    def ask(self, view: dict[str, Any], nickname: str, version: int) -> bool:
        """Start thinking about ``view`` (the state numbered ``version``); False if busy."""
        from game.bots.driver import Job
        with self._lock:
            if self._asked is not None:
                return False
            own = None if self._from_file else self.config
            job = Job(nickname, HINT_LEVEL, view, f"hint:{nickname}:{version}", -1, version, HINT_BUDGET,
                      self.config.path, own, language=i18n.current())
            self._asked, self._answer, self._answered = job, None, False
        self._pool.submit(job, lambda answer: self._done(job, answer))
        return True

    def _done(self, job: Any, answer: Any) -> None:
        with self._lock:
            if job is not self._asked:
                return
            self._answer, self._answered = answer, True
        if self.on_ready is not None:
            self.on_ready()

    def take(self) -> tuple[int, Any] | None:
        """(the version asked about, the answer or None if none could be had) once ready; else None."""
        with self._lock:
            if self._asked is None or not self._answered:
                return None
            out = (self._asked.version, self._answer)
            self._asked, self._answer, self._answered = None, None, False
            return out

    def forget(self) -> None:
        """Drop the question under way (its answer will be ignored)."""
        with self._lock:
            self._asked, self._answer, self._answered = None, None, False

    def close(self) -> None:
        self.forget()
        self._pool.close()


def plan_for(action: Action, why: str, game: Game, player: PlayerState, then: Sequence[Action] = ()) -> Any:
    """The plan that builds ``action`` (see the module docstring), with ``why`` on it; ``then``
    (``Decision.then``): the requests that finish what ``action`` starts.

    ``game`` is the player's shadow game (:func:`game.rules.shadow.shadow_game`).
    """
    plan: Any
    moves: list[Action] = []
    if (then and isinstance(then[-1], ReqTakeFromMarket)
            and all(isinstance(a, (ReqSwapShelves, ReqMoveResources)) for a in (action, *then[:-1]))):
        moves, action = [action, *then[:-1]], then[-1]        # the rearranging, then the take it is for
    if isinstance(action, ReqTakeFromMarket):
        plan = MarketPlan.start(game, player, action.is_row, action.index)
        plan.reset_arrangement()   # the bot's take is for the warehouse as it is, or as it rearranges it
        try:
            for m in moves:
                plan._apply(m)
        except ValueError:         # (a shadow game that no longer agrees: the first step alone)
            return plan_for(moves[0], why, game, player)
        if len(plan.white_options) > 1 and action.replacements:
            plan.white_choice = [r for r, n in sorted(action.replacements.items()) for _k in range(n)][
                :len(plan.white_choice)] or plan.white_choice
            plan._rebuild_items(plan._fixed())
        plan.target = [None] * len(plan.items)
        for cid, m in action.shelves.items():
            for r, n in m.items():
                for i, item in enumerate(plan.items):
                    if n and item == r and plan.target[i] is None:
                        plan.target[i] = cid
                        n -= 1
        plan.suggested = list(plan.target)   # the hint's placement: already made
    elif isinstance(action, ReqBuyDevCard) and game.top_card(action.color, action.level) is not None:
        plan = BuyPlan.start(game, player, game.top_card(action.color, action.level))
        if action.dev_slot in plan.slots:
            plan.slot = action.dev_slot
        if action.res_containers:
            plan.payment = Payment(player, plan.cost, {k: dict(v) for k, v in action.res_containers.items()})
    elif isinstance(action, ReqActivateProductions):
        plan = ProductionPlan.start(game, player)
        for req in action.prod_requests:
            plan.toggle(req.production)
            prod = plan.available.get(req.production)
            if prod is None:
                continue
            ins = [r for r, n in sorted(_paid(req.input_containers).items()) for _k in range(n)]
            for r, n in prod.input.items():
                for _k in range(n):
                    if r in ins:
                        ins.remove(r)
            if len(ins) == prod.input_choice:
                plan.input_blanks[req.production] = ins
            outs = [r for r, n in sorted(req.output_rep.items()) for _k in range(n)]
            if len(outs) == prod.output_choice:
                plan.output_blanks[req.production] = outs
        plan.payment = None
    else:
        plan = HintPlan(action, describe(action, game, player))
    plan.why = why
    return plan


def _paid(containers: dict[int, dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in containers.values():
        for r, n in m.items():
            out[r] = out.get(r, 0) + n
    return out


def describe(action: Action, game: Game, player: PlayerState | None = None) -> str:
    """What a one-step request does, in words."""
    def where(cid: int) -> str:
        if player is not None:
            for i, shelf in enumerate(player.shelves):
                if shelf.id == cid:
                    return _("shelf {n}").format(n=i + 1)
        return _("your leader's depot")

    if isinstance(action, ReqEndTurn):
        return _("End your turn")
    if isinstance(action, ReqLeaderAction):
        name = _leader_name(game, action.leader)
        if action.is_activate:
            return _("Play your {leader}").format(leader=name)
        return _("Discard your {leader} (for 1 faith)").format(leader=name)
    if isinstance(action, ReqSwapShelves):
        return _("Swap {box} and {other}").format(box=where(action.shelf1), other=where(action.shelf2))
    if isinstance(action, ReqMoveResources):
        return _("Move {amount} from {box} to {other}").format(
            amount=amount(action.count, action.res_type), box=where(action.source), other=where(action.target))
    return type(action).__name__


def _leader_name(game: Game, lid: int) -> str:
    from game.rules.views import leader_wire

    from .words import leader_words
    leader = game.config.leaders.get(lid) if isinstance(game.config.leaders, dict) else next(
        (ld for ld in game.config.leaders if ld.id == lid), None)
    if leader is None:
        return f"#{lid}"
    return leader_words(leader_wire(leader, game), {})[0]
