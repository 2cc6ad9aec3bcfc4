"""A plan in words: what a market take, a purchase, productions or a hint would do, where each
is paid from, and how the player changes or sends it; the shelves, depots and productions by the
names the commands use for them ("shelf 2", "d1", "the base production")."""
from __future__ import annotations

from typing import Any

from game.client.hint import HintPlan
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.words import leader_words

from . import describe as D
from .vocabulary import Refused, number


def production_names(vm: Any) -> list[tuple[int, str]]:
    """This player's productions in order, each with its name in words: the base production,
    the top card of each slot, the leaders' in play."""
    me = vm.me
    out = [(me["baseProduction"], "the base production")]
    for i, slot in enumerate(me["devSlots"]):
        if slot:
            card = vm.cards[slot[-1]]
            out.append((card["production"], f"the {card['color'].lower()} card of slot {i + 1}"))
    prods = {p["id"]: p for p in vm.game["productions"]}
    for lid in me["leadersHand"]:
        ld = vm.leader(lid)
        if ld["active"] and ld.get("production", -1) >= 0:
            out.append((ld["production"], "your " + leader_words(ld, prods)[0]))
    return out


def place(vm: Any, word: str) -> int:
    """A shelf (1 to 3) or a leader's depot (d1, d2) by the player's word: its container id."""
    me = vm.me
    w = word.lower().removeprefix("shelf")
    if w.startswith("d"):
        depots = list(me.get("leaderDepots") or [])
        if not depots:
            raise Refused("You have no leader's depot.")
        return depots[number(w.removeprefix("depot").removeprefix("d") or "0", len(depots), "depot")]
    return me["warehouseShelves"][number(w, len(me["warehouseShelves"]), "shelf")]


def box(vm: Any, cid: int) -> str:
    """A shelf or a leader's depot by its name in commands ("shelf 2", "the Stone depot")."""
    me = vm.me
    if cid in me["warehouseShelves"]:
        return f"shelf {me['warehouseShelves'].index(cid) + 1}"
    bound = vm.container(cid).get("boundedResType", "")
    return f"the {bound} depot"


def plan_words(vm: Any, plan: Any) -> list[str]:
    """What the plan would do, in words, and how to change or send it."""
    out: list[str] = []
    why = getattr(plan, "why", "")
    if why:
        out.append(f"Hint: {why}")
    if isinstance(plan, MarketPlan):
        where = f"{'row' if plan.is_row else 'column'} {plan.index + 1}"
        faith = f", and {plan.faith} Faith at once" if plan.faith else ""
        if not plan.items:
            out.append(f"Taking {where} gives nothing to store{faith}.")
        else:
            out.append(f"Taking {where} gives {D.counted(plan.intake())}{faith}.")
            for i, (res, cid) in enumerate(zip(plan.items, plan.target)):
                place = "discarded" if cid is None else f"on {plan.box_name(cid)}"
                out.append(f"  {i + 1}. {res}: {place}.")
        if plan.white_choice:
            out.append("White marbles: " + ", ".join(f"{k + 1} becomes {r}" for k, r in enumerate(plan.white_choice))
                       + " (change with white N RESOURCE).")
        if plan.moves:
            n = len(plan.moves)
            arranged = "; ".join(f"{plan.box_name(cid)}: {D.counted(m, 'empty')}" for cid, m in plan.arranged().items())
            out.append(f"Your shelves are rearranged first ({n} move{'s' * (n > 1)}): {arranged}.")
        warn = plan.discard_warning()
        if warn:
            out.append(warn)
        out.append("Press Enter to take it; or put N PLACE, discard N, swap A B, suggest, cancel.")
    elif isinstance(plan, BuyPlan):
        c = plan.card
        cost = D.counted(plan.cost, "nothing")
        out.append(f"Buying the level {c.level} {c.color.lower()} card ({c.victory_points} VP) for {cost}, "
                   f"into slot {plan.slot + 1 if plan.slot is not None else '?'}.")
        out.append(paid_words(vm, plan.payment))
        if len(plan.slots) > 1:
            out.append(f"It fits in slot {D.joined([str(s + 1) for s in plan.slots])}: change with slot N.")
        out.append("Press Enter to buy it; or cancel.")
    elif isinstance(plan, ProductionPlan):
        names = dict(production_names(vm))
        numbers = {pid: i + 1 for i, (pid, _n) in enumerate(production_names(vm))}
        for pid in sorted(plan.selected, key=lambda pid: numbers.get(pid, 0)):   # as produce numbers them
            prod = plan.available[pid]
            ins = dict(prod.input)
            for r in plan.input_blanks.get(pid, []):
                ins[r] = ins.get(r, 0) + 1
            outs = dict(prod.output)
            for r in plan.output_blanks.get(pid, []):
                outs[r] = outs.get(r, 0) + 1
            free = []
            if plan.input_blanks.get(pid):
                free.append(f"pay {numbers[pid]} to change what it is paid with")
            if plan.output_blanks.get(pid):
                free.append(f"get {numbers[pid]} to change what it gives")
            more = f" (say {' and '.join(free)})" if free else ""
            out.append(f"{numbers[pid]}. {names.get(pid, 'a production').capitalize()}: pays {D.counted(ins)}, "
                       f"gives {D.counted(outs)}{more}.")
        problem = plan.problem()
        if problem:
            out.append(problem)
        else:
            out.append(f"In all: pay {D.counted(plan.total_input())}, get {D.counted(plan.total_output())}.")
            out.append(paid_words(vm, plan.get_payment()))
            out.append("Press Enter to produce; or cancel.")
    elif isinstance(plan, HintPlan):
        out.append(f"{plan.text}. Press Enter to do it; or cancel.")
    return out


def paid_words(vm: Any, pay: Any) -> str:
    """Where the payment comes from, and how to change it."""
    paid = "; ".join(f"{D.counted(m)} from {paid_from(vm, cid)}" for cid, m in pay.taken.items())
    other = any(taken < held and any(t > 0 for c, _h, t in srcs if c != cid)
                for srcs in (pay.sources(res) for res in pay.cost) for cid, held, taken in srcs)
    return f"Paid with {paid or 'nothing'}." + (" (use RES PLACE pays from elsewhere.)" if other else "")


def paid_from(vm: Any, cid: int) -> str:
    """Where a payment is taken from, in words (a shelf, a depot, the strongbox)."""
    me = vm.me
    if cid == me["strongbox"]:
        return "the strongbox"
    return box(vm, cid)

