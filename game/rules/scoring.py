"""Points and the end of the game: the score of each player (counted again when a request
changed it), the last round, who won, and the result (:class:`Outcome`, :class:`Termination`).
"""
from __future__ import annotations

import enum
from typing import Mapping
from dataclasses import dataclass

from .state import ENDED, FAVOR_UP, PlayerState
from .undo import LAST_ROUND


class Termination(enum.Enum):
    """Why the game ended."""

    ROUND_COMPLETED = "round_completed"      # multiplayer: the final round was played out
    SOLO_FAITH = "solo_faith"                # solo: the player reached the end of the track
    SOLO_CARDS = "solo_cards"                # solo: the player gained the 7th card
    LORENZO_FAITH = "lorenzo_faith"          # solo: the black cross reached the end of the track
    LORENZO_COLOR = "lorenzo_color"          # solo: a colour vanished from the grid


@dataclass(frozen=True, slots=True)
class Score:
    """One player's victory points by category; ``resources`` is the count left in storage."""

    cards: int
    faith_track: int
    favors: int
    leaders: int
    resource_vp: int
    resources: int

    @property
    def total(self) -> int:
        return self.cards + self.faith_track + self.favors + self.leaders + self.resource_vp


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. ``winners`` holds several nicknames only for a shared win."""

    termination: Termination
    winners: tuple[str, ...]
    lorenzo_won: bool
    scores: Mapping[str, Score]


class Scoring:
    """The scoring part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _trigger_last_round(self) -> None:
        if not self.last_round:
            self.last_round = True
            self._made_final(LAST_ROUND)
            if not self.search:
                self._events.append({"type": "UpdateLastRound"})

    def _end(self, why: Termination) -> None:
        self.phase = ENDED
        self.termination = why
        if why in (Termination.LORENZO_FAITH, Termination.LORENZO_COLOR):
            self.lorenzo_won = True
            self.winners = ()
        elif self.solo:
            self.winners = (self.players[0].nickname,)
        else:
            # every score counted once: a player whose points this request changed, or whose
            # count differs from their points (a test may set storage directly), is counted again
            # by _flush_vp as usual; the others' points are already what the count says
            per_vp = self.lookups.per_vp
            dirty = self._dirty
            best = -1
            scores = []
            for q in self.players:
                cards, track, favors, leaders, count = self._score_parts(q)
                total = cards + track + favors + leaders + count // per_vp
                scores.append((total, count, q.nickname))
                if total > best:
                    best = total
                if q.seat in dirty or total != q.vp:
                    dirty[q.seat] = None
            tied = [(count, nick) for total, count, nick in scores if total == best]
            most = max(count for count, _ in tied)
            self.winners = tuple(nick for count, nick in tied if count == most)
        self._trigger_last_round()
        if self.solo:
            for q in self.players:
                self._dirty[q.seat] = None
        self._end_pending = True

    def _close_events(self) -> None:
        """Final events of an accepted call: changed scores, then the end of the game if it came."""
        self._flush_vp()
        if self._end_pending:
            self._end_pending = False
            self._events.append({"winner": self.winners[0], "type": "UpdateGameEnd"} if self.winners
                                else {"type": "UpdateGameEnd"})

    def _score(self, p: PlayerState) -> Score:
        """The score breakdown of ``p``."""
        cards, track, favors, leaders, count = self._score_parts(p)
        return Score(cards, track, favors, leaders, count // self.lookups.per_vp, count)

    def _score_parts(self, p: PlayerState) -> tuple[int, int, int, int, int]:
        """Points from cards, the faith track, favor tiles and leaders, and the resources held."""
        t = self.lookups
        card_vp = t.card_vp
        cards = 0
        for slot in p.slots:
            for c in slot:
                cards += card_vp[c]
        favors = 0
        if FAVOR_UP in p.favors:
            i = 0
            favor_vp = t.favor_vp
            for f in p.favors:
                if f == FAVOR_UP:
                    favors += favor_vp[i]
                i += 1
        leaders = 0
        if p.active_leaders:
            leader_vp = t.leader_vp
            for lid in p.active_leaders:
                leaders += leader_vp[lid]
        count = 0
        for c in p.shelves:
            for n in c.content.values():
                count += n
        for c in p.depots:
            for n in c.content.values():
                count += n
        for n in p.strongbox.content.values():
            count += n
        tv = t.track_vp
        faith = p.faith
        return cards, tv[faith] if faith < len(tv) else tv[-1], favors, leaders, count

    def _flush_vp(self) -> None:
        """Count again the points of the players a request changed (in seat order); a player
        whose faith marker alone moved gains the track's difference."""
        dirty = self._dirty
        if not dirty:
            return
        t = self.lookups
        per_vp = t.per_vp
        tv = t.track_vp
        end = len(tv) - 1
        players = self.players
        for seat in sorted(dirty) if len(dirty) > 1 else dirty:
            q = players[seat]
            was = dirty[seat]
            if was is None:
                cards, faith, favors, leaders, count = self._score_parts(q)
                vp = cards + faith + favors + leaders + count // per_vp
            else:   # the track's points, beyond its end those of its last space
                faith = q.faith
                vp = q.vp + tv[faith if faith < end else end] - tv[was if was < end else end]
            if vp != q.vp:
                if q.stamp is not self._stamp:
                    q = self._own_seat(seat)
                q.vp = vp
                if not self.search:
                    self._events.append({"player": q.nickname, "victoryPoints": vp, "type": "UpdateVictoryPoints"})
        dirty.clear()
