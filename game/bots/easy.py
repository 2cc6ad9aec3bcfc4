"""The easy bot: a beginner who knows the rules.

It plays its leaders as soon as it can, buys the best card it can pay for (highest level first),
and otherwise takes the market line that fits its warehouse best. Now and then it runs a
production or takes a line on a whim. It never plans beyond the request it is making.
"""
from __future__ import annotations

import random
from itertools import combinations

from game.rules.actions import ReqActivateProductions, ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction
from game.rules.choices import (activatable_leaders, affordable_cards, buy_request, discarded_if, market_lines,
                                production_request, runnable_productions, suggest_placement,
                                take_market_request)
from game.rules.components import GameConfig
from game.rules.engine import SETUP

from .base import Decision
from game.i18n import _

from .common import (amount_words, board, card_words, empties_color, leader_words, line_words, res_words,
                     slot_words)


class EasyBot:
    level = "easy"

    def __init__(self, config: GameConfig) -> None:
        self.config = config

    def decide(self, view: dict, nickname: str, rng: random.Random) -> Decision:
        g, p = board(view, self.config, nickname)
        cfg = self.config
        if g.phase == SETUP:
            if not p.chose_leaders:
                pair = rng.choice(list(combinations(sorted(p.hand), cfg.leaders_kept)))
                a, b = (leader_words(cfg.leaders[i]) for i in pair)
                return Decision(ReqChooseLeaders(pair), _("Keep {leader} and {other}.").format(leader=a, other=b))
            r = rng.choice(cfg.resources)
            shelf = max(p.shelves, key=lambda s: s.capacity)
            return Decision(ReqChooseResources({shelf.id: {r: p.bonus}}),
                            _("Start with {amount} on the largest shelf.").format(amount=amount_words(p.bonus, r)))
        ready = activatable_leaders(g, p)
        if ready:
            leader = ready[0]
            return Decision(ReqLeaderAction(leader.id, True),
                            _("Play {leader}: its requirement is met ({vp} VP).").format(
                                leader=leader_words(leader), vp=leader.victory_points))
        if g.main_done:
            return Decision(ReqEndTurn(), _("Nothing more to do this turn."))
        offers = [o for o in affordable_cards(g, p) if not empties_color(g, o.card)]
        if offers:
            best = max((o.card.level, o.card.victory_points) for o in offers)
            offer = rng.choice([o for o in offers if (o.card.level, o.card.victory_points) == best])
            slot = rng.choice(offer.slots)
            return Decision(buy_request(g, p, offer, slot),
                            _("Buy {card} into {slot}: it can pay for it now.").format(
                                card=card_words(offer.card), slot=slot_words(slot)))
        if rng.random() < 0.2:
            prods = runnable_productions(g, p)
            if prods:
                prod = rng.choice(prods)
                req = production_request(g, p, prod)
                if req is not None:
                    return Decision(ReqActivateProductions((req,)),
                                    _("Run a production to turn spare resources into something else."))
        lines = market_lines(g, p)
        if rng.random() < 0.15:
            line = rng.choice(lines)
        else:
            def kept(ln) -> tuple[int, int]:
                intake = dict(ln.resources)
                stored = sum(intake.values()) - discarded_if(g, p, intake, suggest_placement(g, p, intake))
                return stored + ln.faith, -discarded_if(g, p, intake, suggest_placement(g, p, intake))
            top = max(kept(ln) for ln in lines)
            line = rng.choice([ln for ln in lines if kept(ln) == top])
        req = take_market_request(g, p, line)
        gain = dict(line.resources)
        if line.faith:
            gain["Faith"] = line.faith
        return Decision(req, _("Take {line} of the market ({gain}): it fits the warehouse best.").format(
            line=line_words(line.is_row, line.index), gain=res_words(gain)))
