"""A plan in words: what a market take, a purchase, productions or a hint would do, where each
is paid from, and how the player changes or sends it; the shelves, depots and productions by the
names the commands use for them ("shelf 2", "d1", "the base production")."""
from __future__ import annotations

from typing import Any

from game.client.hint import HintPlan
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.words import amount, colour_name, discarded, leader_words, resource_name
from game.i18n import _, ngettext

from . import describe as D
from .vocabulary import Refused, number


def production_names(vm: Any) -> list[tuple[int, str]]:
    """This player's productions in order, each with its name in words: the base production,
    the top card of each slot, the leaders' in play."""
    me = vm.me
    out = [(me["baseProduction"], _("the base production"))]
    for i, slot in enumerate(me["devSlots"]):
        if slot:
            card = vm.cards[slot[-1]]
            out.append((card["production"], _("the {colour} card of slot {n}").format(
                colour=colour_name(card["color"]), n=i + 1)))
    prods = {p["id"]: p for p in vm.game["productions"]}
    for lid in me["leadersHand"]:
        ld = vm.leader(lid)
        if ld["active"] and ld.get("production", -1) >= 0:
            out.append((ld["production"], _("your {leader}").format(leader=leader_words(ld, prods)[0])))
    return out


def place(vm: Any, word: str) -> int:
    """A shelf (1 to 3) or a leader's depot (d1, d2) by the player's word: its container id."""
    me = vm.me
    w = word.lower().removeprefix("shelf")
    if w.startswith("d"):
        depots = list(me.get("leaderDepots") or [])
        if not depots:
            raise Refused(_("You have no leader's depot."))
        return depots[number(w.removeprefix("depot").removeprefix("d") or "0", len(depots), "depot")]
    return me["warehouseShelves"][number(w, len(me["warehouseShelves"]), "shelf")]


def box(vm: Any, cid: int) -> str:
    """A shelf or a leader's depot by its name in commands ("shelf 2", "the Stone depot")."""
    me = vm.me
    if cid in me["warehouseShelves"]:
        return _("shelf {n}").format(n=me["warehouseShelves"].index(cid) + 1)
    bound = vm.container(cid).get("boundedResType", "")
    depots = {"Coin": _("the Coin depot"), "Servant": _("the Servant depot"), "Shield": _("the Shield depot"),
              "Stone": _("the Stone depot")}
    return depots.get(bound) or _("the leader's depot")


def plan_words(vm: Any, plan: Any) -> list[str]:
    """What the plan would do, in words, and how to change or send it."""
    out: list[str] = []
    why = getattr(plan, "why", "")
    if why:
        out.append(_("Hint: {why}").format(why=why))
    if isinstance(plan, MarketPlan):
        where = (_("row {n}") if plan.is_row else _("column {n}")).format(n=plan.index + 1)
        if not plan.items:
            out.append((_("Taking {line} gives nothing to store, and {faith} at once.") if plan.faith else
                        _("Taking {line} gives nothing to store.")).format(line=where, faith=amount(plan.faith, "Faith")))
        else:
            out.append((_("Taking {line} gives {what}, and {faith} at once.") if plan.faith else
                        _("Taking {line} gives {what}.")).format(line=where, what=D.counted(plan.intake()),
                                                                 faith=amount(plan.faith, "Faith")))
            for i, (res, cid) in enumerate(zip(plan.items, plan.target)):
                place = discarded(res) if cid is None else \
                    f"{resource_name(res, 1)}: " + _("on {box}").format(box=plan.box_name(cid))
                out.append(f"  {i + 1}. {place}.")
        if plan.white_choice:
            becomes = ", ".join(_("{n} becomes {resource}").format(n=k + 1, resource=resource_name(r, 1))
                                for k, r in enumerate(plan.white_choice))
            out.append(_("White marbles: {becomes} (change with white N RESOURCE).").format(becomes=becomes))
        if plan.moves:
            n = len(plan.moves)
            arranged = "; ".join(f"{plan.box_name(cid)}: {D.counted(m, _('empty'))}" for cid, m in plan.arranged().items())
            out.append(ngettext("Your shelves are rearranged first ({n} move): {arranged}.",
                                "Your shelves are rearranged first ({n} moves): {arranged}.", n).format(
                n=n, arranged=arranged))
        warn = plan.discard_warning()
        if warn:
            out.append(warn)
        out.append(_("Press Enter to take it; or put N PLACE, discard N, swap A B, suggest, cancel."))
    elif isinstance(plan, BuyPlan):
        c = plan.card
        cost = D.counted(plan.cost)
        out.append(_("Buying the level {level} {colour} card ({vp} VP) for {cost}, into slot {slot}.").format(
            level=c.level, colour=colour_name(c.color), vp=c.victory_points, cost=cost,
            slot=plan.slot + 1 if plan.slot is not None else "?"))
        out.append(paid_words(vm, plan.payment))
        if len(plan.slots) > 1:
            out.append(_("It fits in slots {slots}: change with slot N.").format(
                slots=D.joined([str(s + 1) for s in plan.slots])))
        out.append(_("Press Enter to buy it; or cancel."))
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
                free.append(_("pay {n} to change what it is paid with").format(n=numbers[pid]))
            if plan.output_blanks.get(pid):
                free.append(_("get {n} to change what it gives").format(n=numbers[pid]))
            name = names.get(pid) or _("a production")
            said = dict(n=numbers[pid], name=name[:1].upper() + name[1:], pays=D.counted(ins), gives=D.counted(outs))
            out.append(_("{n}. {name}: pays {pays}, gives {gives} (say {how}).").format(how=D.joined(free), **said)
                       if free else _("{n}. {name}: pays {pays}, gives {gives}.").format(**said))
        problem = plan.problem()
        if problem:
            out.append(problem)
        else:
            out.append(_("In all: pay {pays}, get {gives}.").format(pays=D.counted(plan.total_input()),
                                                                    gives=D.counted(plan.total_output())))
            out.append(paid_words(vm, plan.get_payment()))
            out.append(_("Press Enter to produce; or cancel."))
    elif isinstance(plan, HintPlan):
        out.append(_("{hint}. Press Enter to do it; or cancel.").format(hint=plan.text))
    return out


def paid_words(vm: Any, pay: Any) -> str:
    """Where the payment comes from, and how to change it."""
    paid = "; ".join(_("{what} from {where}").format(what=D.counted(m), where=paid_from(vm, cid))
                     for cid, m in pay.taken.items())
    other = any(taken < held and any(t > 0 for c, _h, t in srcs if c != cid)
                for srcs in (pay.sources(res) for res in pay.cost) for cid, held, taken in srcs)
    said = _("Paid with {what}.").format(what=paid or _("nothing"))
    return said + " " + _("(use RES PLACE pays from elsewhere.)") if other else said


def paid_from(vm: Any, cid: int) -> str:
    """Where a payment is taken from, in words (a shelf, a depot, the strongbox)."""
    me = vm.me
    if cid == me["strongbox"]:
        return _("the strongbox")
    return box(vm, cid)

