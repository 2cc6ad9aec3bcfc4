"""The setup phase: each player keeps leaders and places the resources their seat starts with;
once everyone present has, play begins (players who are away get default choices).
"""
from __future__ import annotations

from . import errors as E
from .actions import ReqChooseLeaders, ReqChooseResources
from .state import PLAY, SETUP, SHELF, Container, PlayerState
from .warehouse import new_contents_after_add


class Setup:
    """The setup phase part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _check_setup(self, p: PlayerState) -> None:
        if self.phase != SETUP:
            raise E.ErrAction(E.LATE_SETUP_ACTION)

    def _choose_leaders(self, p: PlayerState, a: ReqChooseLeaders) -> str:
        self._check_setup(p)
        if p.chose_leaders:
            raise E.ErrInitialChoice(True, 0)
        for lid in a.leaders:
            if lid not in p.hand:  # unknown ids too, as the reference answers
                raise E.ErrObjectNotOwned(lid, "LeaderCard")
        distinct = list(dict.fromkeys(a.leaders))
        missing = self.config.leaders_kept - len(distinct)
        if missing or len(distinct) != len(a.leaders):
            raise E.ErrInitialChoice(True, missing if missing else len(a.leaders) - len(distinct))
        p.hand = distinct
        p.chose_leaders = True
        self._emit_hand(p)
        self._maybe_finish_setup()
        return a.ACTION

    def _choose_resources(self, p: PlayerState, a: ReqChooseResources) -> str:
        self._check_setup(p)
        placement = self._placement(p, a.shelves)
        if p.chose_resources:
            if p.bonus == 0 and not placement:
                return a.ACTION  # the reference accepts an empty choice from a seat with nothing to choose
            raise E.ErrInitialChoice(False, 0)
        for c in placement:
            if c.kind != SHELF:
                raise E.ErrObjectNotOwned(c.id, "Shelf")
        total = sum(n for m in placement.values() for n in m.values())
        if total != p.bonus:
            raise E.ErrReplacedTransRecipe(False, "", p.bonus, total)
        new = new_contents_after_add(placement, p.shelves)
        self._commit(new)
        p.chose_resources = True
        self._maybe_finish_setup()
        return a.ACTION

    def _emit_hand(self, p: PlayerState) -> None:
        if self.search:
            return
        self._events.append({"player": p.nickname, "leaders": list(p.hand), "type": "UpdateLeadersHand"})
        self._events.append({"player": p.nickname, "leadersHandCount": len(p.hand),
                             "type": "UpdateLeadersHandCount"})

    def _maybe_finish_setup(self) -> None:
        present = False
        for p in self.players:
            if p.active:
                if not (p.chose_leaders and p.chose_resources):
                    return
                present = True
        if not present:
            return
        for seat in range(len(self.players)):  # players who are away get default choices
            p = self._own_seat(seat)
            if not p.chose_leaders:
                p.hand = p.hand[:self.config.leaders_kept]
                p.chose_leaders = True
                self._emit_hand(p)
            if not p.chose_resources:
                self._commit(new_contents_after_add(self._default_bonus(p), p.shelves))
                p.chose_resources = True
        self.phase = PLAY
        if not self.search:
            self._events.append({"type": "UpdateSetupDone"})
        self.current = 0
        self.main_done = False
        if not self.current_player.active:
            # the first seat is away: say who plays first (otherwise every view already names the
            # first seat, and the reference sends nothing after UpdateSetupDone)
            self.current = self._next_active_seat(self.current)[0]
            if not self.search:
                self._events.append({"player": self.current_player.nickname, "type": "UpdateCurrentPlayer"})

    def _default_bonus(self, p: PlayerState) -> dict[Container, dict[str, int]]:
        """Starting resources for a player who did not choose: all of the first resource, on
        the largest shelf."""
        if not p.bonus:
            return {}
        return {max(p.shelves, key=lambda s: s.capacity): {self.config.resources[0]: p.bonus}}
