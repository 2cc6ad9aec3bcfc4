"""Leader cards: activated when their requirements are met, or discarded for a faith step.
"""
from __future__ import annotations

from typing import Any

from . import errors as E
from .actions import ReqLeaderAction
from .components import LeaderCard
from .state import PlayerState


class Leaders:
    """The leaders part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _leader_action(self, p: PlayerState, a: ReqLeaderAction) -> str:
        self._check_turn(p)
        if a.leader not in p.hand:  # unknown ids too, as the reference answers
            raise E.ErrObjectNotOwned(a.leader, "LeaderCard")
        leader = self.config.leaders[a.leader]
        if not a.is_activate:
            if leader.id in p.active_leaders:
                raise E.ErrActiveLeaderDiscarded()
            p.hand.remove(leader.id)
            self._emit_hand(p)
            self._dirty[p.seat] = None
            self._faith_step({p.seat: 1})
            return "DISCARD_LEADER"
        if leader.id in p.active_leaders:
            raise E.ErrObjectNotOwned(a.leader, "LeaderCard")
        missing_cards, missing_res = self.missing_requirements(p, leader)
        if missing_cards or missing_res:
            raise E.ErrCardRequirements(missing_cards, missing_res)
        p.active_leaders.append(leader.id)
        if leader.kind == "extra_depot":
            depot = self._own(self.leader_depot[leader.id])
            depot.owner = p.seat
            p.depots.append(depot)
        self._dirty[p.seat] = None
        if not self.search:
            self._events.append({"leader": leader.id, "player": p.nickname, "type": "UpdateActivateLeader"})
        return "ACTIVATE_LEADER"

    def missing_requirements(self, p: PlayerState, leader: LeaderCard) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """What ``p`` lacks to activate ``leader``: ([{color, quantity, level}], {res: n}).

        Cards count covered ones too, and "any level" adds up every level; resources are
        counted over all storage and are not spent.
        """
        cards = self.config.dev_cards
        owned = [cards[cid] for slot in p.slots for cid in slot]
        missing_cards = []
        for req in leader.requires_cards:
            have = sum(1 for c in owned if c.color == req.color and (req.level is None or c.level == req.level))
            if have < req.count:
                missing_cards.append({"color": req.color, "quantity": req.count - have, "level": req.level or 0})
        missing_res: dict[str, int] = {}
        if leader.requires_resources:
            totals = p.resource_totals()
            for r, n in leader.requires_resources.items():
                if totals.get(r, 0) < n:
                    missing_res[r] = n - totals.get(r, 0)
        return missing_cards, missing_res

    def active_leaders_of(self, p: PlayerState, kind: str) -> list[LeaderCard]:
        leaders = self.config.leaders
        out = []
        for i in p.active_leaders:
            if leaders[i].kind == kind:
                out.append(leaders[i])
        return out
