"""The faith track: markers moved together (one "faith step"), then the Vatican reports they reach
and the ends of the track.
"""
from __future__ import annotations

from typing import Mapping

from .scoring import Termination
from .state import ENDED, FAVOR_REMOVED, FAVOR_UP
from .undo import OTHERS_FAITH, VATICAN_REPORT


LORENZO = -1  # faith "seat" of the black cross


class FaithTrack:
    """The faith part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _faith_step(self, moves: Mapping[int, int]) -> None:
        """Move markers at once, then resolve reports and end conditions (one "faith step")."""
        last = self.config.last_space
        ev = None if self.search else self._events
        players = self.players
        dirty = self._dirty
        for seat, n in moves.items():
            if seat == LORENZO:
                new = self.black_cross + n
                if new > last:
                    new = last
                if new != self.black_cross:
                    self.black_cross = new
                    if ev is not None:
                        ev.append({"isBlackCross": True, "faithPoints": new, "type": "UpdateFaithPoints"})
            else:
                q = players[seat]
                new = q.faith + n
                if new > last:
                    new = last
                if new != q.faith:
                    if q.stamp is not self._stamp:
                        q = self._own_seat(seat)
                    if seat not in dirty:
                        dirty[seat] = q.faith
                    q.faith = new
                    if seat != self._actor and self._final > OTHERS_FAITH:
                        self._final = OTHERS_FAITH
                    if ev is not None:
                        ev.append({"player": q.nickname, "isBlackCross": False, "faithPoints": new,
                                   "type": "UpdateFaithPoints"})
        top = self.black_cross
        for q in players:
            if q.faith > top:
                top = q.faith
        t = self.lookups
        for i in range(len(t.pope_spaces)) if top >= t.first_pope else ():
            if top >= t.pope_spaces[i] and not self.fired[i]:
                sec = self.config.vatican_sections[i]
                self.fired = fired = self.fired.copy()
                fired[i] = True
                given = []
                for seat in range(len(self.players)):
                    q = self._own_seat(seat)
                    q.favors = favors = q.favors.copy()
                    if q.faith >= sec.first_space:
                        favors[i] = FAVOR_UP
                        given.append(q.nickname)
                    else:
                        favors[i] = FAVOR_REMOVED
                    self._dirty[q.seat] = None
                self._made_final(VATICAN_REPORT)
                if ev is not None:
                    ev.append({"vaticanSection": sec.id, "bonusGivenPlayers": given, "type": "UpdateVaticanSection"})
        if self.phase == ENDED:
            return
        if self.solo:
            if self.black_cross >= last:
                self._end(Termination.LORENZO_FAITH)
            elif self.players[0].faith >= last:
                self._end(Termination.SOLO_FAITH)
        elif top >= last:   # (no black cross in multiplayer)
            self._trigger_last_round()
