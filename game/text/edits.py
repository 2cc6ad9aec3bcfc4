"""The commands that change a plan before it is sent (put, discard, white, suggest, slot, pay,
get, use): each clicks what the board's own targets click (:class:`~game.client.board_input.BoardInput`),
so the plan and its refusals are the board's; then the plan is said again."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from game.client import board_input as BI
from game.client.plans import BuyPlan, MarketPlan, ProductionPlan
from game.client.words import resource_name
from game.i18n import _, ngettext

from . import describe as D
from .plan_words import paid_from, place, plan_words, production_names
from .vocabulary import Refused, number, resource

if TYPE_CHECKING:
    from game.client.board_input import BoardInput
    from game.client.session import GameSession


class PlanEdits:
    """The plan edits' commands, for :class:`~game.text.play.GameShell`."""

    session: "GameSession"
    input: "BoardInput"
    say: Callable[[str], None]
    vm: Any

    # plan edits ----------------------------------------------------------------
    def _market_plan(self) -> MarketPlan:
        plan = self.input.plan
        if not isinstance(plan, MarketPlan):
            raise Refused(_("That is for a market take: say take row N or take column N first."))
        return plan

    def _item(self, plan: MarketPlan, word: str) -> int:
        if not plan.items:
            raise Refused(_("This line gives nothing to store."))
        return number(word, len(plan.items), "resource")

    def do_put(self, args: list[str]) -> None:
        plan = self._market_plan()
        if len(args) < 2:
            raise Refused(_("Say put, the resource's number and the place, for example put 1 3."))
        i, cid = self._item(plan, args[0]), place(self.vm, args[1])
        why = plan.why_not(i, cid, typed=True)
        if why is not None:       # the board's words, its clicks said as commands
            raise Refused(why + ".")
        self.input.selected_shelf = None
        self.input.click(BI.Item(i))
        self.input.click(BI.Shelf(cid))
        self._say_plan()

    def _plan_discard(self, args: list[str]) -> None:
        plan = self._market_plan()
        if not args:
            raise Refused(_("Say discard and the number of the resource to give up."))
        self.input.click(BI.Item(self._item(plan, args[0])))
        self.input.click(BI.Discard())
        self._say_plan()

    def do_white(self, args: list[str]) -> None:
        plan = self._market_plan()
        if len(plan.white_options) < 2:
            raise Refused(_("Your white marbles have no choice to make."))
        if len(args) < 2:
            raise Refused(_("Say white, the white marble's number and a resource, for example white 1 Coin."))
        i = number(args[0], len(plan.white_choice), "white marble")
        res = resource(args[1])
        if res not in plan.white_options:
            raise Refused(_("Your white marbles become {choices}, not {resource}.").format(
                choices=_(" or ").join(resource_name(r, 1) for r in plan.white_options), resource=resource_name(res, 1)))
        plan.choose_white(i, res)
        self._say_plan()

    def do_suggest(self, args: list[str]) -> None:
        self._market_plan()
        self.input.click(BI.Suggest())
        self._say_plan()

    def do_slot(self, args: list[str]) -> None:
        plan = self.input.plan
        if not isinstance(plan, BuyPlan):
            raise Refused(_("That is for a purchase: say buy COLOUR LEVEL first."))
        if not args:
            raise Refused(_("Which slot? Say slot 1, 2 or 3."))
        i = number(args[0], 3, "slot")
        if i not in plan.slots:
            raise Refused(ngettext(
                "Slot {n} cannot take this card: a level-1 card needs an empty slot, and a level-2 or 3 card goes "
                "on a card one level lower. It fits in slot {slots}.",
                "Slot {n} cannot take this card: a level-1 card needs an empty slot, and a level-2 or 3 card goes "
                "on a card one level lower. It fits in slots {slots}.", len(plan.slots)).format(
                n=i + 1, slots=D.joined([str(s + 1) for s in plan.slots])))
        self.input.click(BI.Slot(i))
        self._say_plan()

    def _blank(self, args: list[str], side: str) -> None:
        plan = self.input.plan
        if not isinstance(plan, ProductionPlan):
            raise Refused(_("That is for productions: say produce and their numbers first."))
        names = production_names(self.vm)
        if len(args) < 2:
            raise Refused(_("Say {command}, the production's number and the resources.").format(
                command="pay" if side == "in" else "get"))
        pid = names[0][0] if args[0].lower() == "base" else names[number(args[0], len(names), "production")][0]
        if pid not in plan.selected:
            raise Refused(_("That production is not in the plan: say produce with it."))
        blanks = (plan.input_blanks if side == "in" else plan.output_blanks).get(pid, [])
        if not blanks:
            raise Refused(_("That production has no free resource to pay.") if side == "in"
                          else _("That production has no free resource to get."))
        picked = [resource(a) for a in args[1:]]
        if len(picked) != len(blanks):
            raise Refused(ngettext("Say {n} resource.", "Say {n} resources.", len(blanks)).format(n=len(blanks)))
        for k, res in enumerate(picked):
            self.input.click(BI.Blank(pid, side, k, res))
            if self.input.note:
                break
        self._say_plan()

    def do_pay(self, args: list[str]) -> None:
        self._blank(args, "in")

    def do_get(self, args: list[str]) -> None:
        self._blank(args, "out")

    def do_use(self, args: list[str]) -> None:
        plan = self.input.plan
        if isinstance(plan, BuyPlan):
            pay = plan.payment
        elif isinstance(plan, ProductionPlan) and plan.selected and not plan.problem():
            pay = plan.get_payment()
        else:
            raise Refused(_("That is for a purchase or productions: say what is paid from where once one is planned."))
        if len(args) < 2:
            raise Refused(_("Say use, a resource and where to pay it from, for example use Stone strongbox."))
        res = resource(args[0])
        word = args[1].lower()
        target = self.vm.me["strongbox"] if word.startswith("strong") or word == "s" else place(self.vm, word)
        if not pay.cost.get(res):
            raise Refused(_("No {resource} is paid here.").format(resource=resource_name(res, 1)))
        sources = {cid: (held, taken) for cid, held, taken in pay.sources(res)}
        held, taken = sources.get(target, (0, 0))
        where = paid_from(self.vm, target)
        if taken >= held:
            raise Refused(_("There is no more {resource} to pay from {where}: it holds {held}, {taken} already paid "
                            "from it.").format(resource=resource_name(res, 1), where=where, held=held, taken=taken)
                          if taken else _("There is no more {resource} to pay from {where}: it holds {held}.").format(
                              resource=resource_name(res, 1), where=where, held=held))
        donor = next((cid for cid, (_h, t) in sources.items() if t > 0 and cid != target), None)
        if donor is None:
            raise Refused(_("All the {resource} is already paid from {where}.").format(
                resource=resource_name(res, 1), where=where))
        self.input.click(BI.Pay(res, donor, target))
        self._say_plan()

    # ------------------------------------------------------------------ the plan in words
    def _say_plan(self) -> None:
        plan = self.input.plan
        if self.input.note:
            self.say(self.input.note.rstrip(".") + ".")
            self.input.note = None
        if plan is None:
            return
        for line in plan_words(self.vm, plan):
            self.say(line)
