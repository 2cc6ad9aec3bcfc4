"""Undo's bookkeeping: which requests may be taken back (none that showed something hidden or
touched the others), and the state they may change, captured and restored. The undo itself is
:meth:`game.rules.engine.Game.undo`.
"""
from __future__ import annotations

from . import errors as E
from .actions import Action, ReqBuyDevCard, ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction
from .state import ENDED, PLAY, SETUP, PlayerState


CARD_REVEALED, VATICAN_REPORT, LAST_ROUND, OTHERS_FAITH, NOT_FINAL = range(5)
FINAL_REASONS = (E.UNDO_CARD_REVEALED, E.UNDO_VATICAN_REPORT, E.UNDO_LAST_ROUND, E.UNDO_OTHERS_FAITH)
"""Why a request is final (it cannot be taken back), the most telling reason first: it showed
the next card of a deck (``UpdateDevSlot``), it brought a Vatican report
(``UpdateVaticanSection``) or the last round (``UpdateLastRound``), it moved another player's
marker (their ``UpdateFaithPoints``)."""

FINAL_REQUESTS = (ReqEndTurn, ReqBuyDevCard)
"""Requests that are always final (ending the turn, buying a card)."""
SETUP_REQUESTS = (ReqChooseLeaders, ReqChooseResources)


def action_name(action: Action) -> str:
    """The ``UpdateAction`` name of a request (a leader request names what it did)."""
    return action.action_name if type(action) is ReqLeaderAction else action.ACTION


class Undo:
    """The undo part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def undo_refusal(self, nickname: str) -> str | None:
        """Why ``nickname`` cannot take back a request now (an ``E.UNDO_*`` code), or None.

        :raises KeyError: ``nickname`` does not play in this game.
        """
        p = self.by_nick[nickname]
        if self.phase == SETUP:
            return E.UNDO_SETUP
        if self.phase == ENDED:
            return E.UNDO_ENDED
        if self.current != p.seat:
            return E.UNDO_NOT_CURRENT
        if not self._undo_stack:
            return self._undo_barrier or E.UNDO_NOTHING
        return None

    def can_undo(self, nickname: str) -> bool:
        """Whether ``nickname`` may take back their last request now (see :meth:`undo`)."""
        return self.undo_refusal(nickname) is None

    def open_requests(self) -> int:
        """How many of the requests accepted so far a later undo may still take back (the last
        ones of :attr:`history`'s applies that stand); all before them are for good."""
        return len(self._undo_stack)

    def undoable_action(self, nickname: str) -> str | None:
        """The ``UpdateAction`` name of the request :meth:`undo` would take back, or None."""
        if self.undo_refusal(nickname) is not None:
            return None
        return action_name(self._undo_stack[-1][1])

    def _note_for_undo(self, p: PlayerState, kind: type, action: Action, mark: tuple | None) -> None:
        """After an accepted request: may it be taken back, and may what came before it?

        The request is final when it revealed something or touched the others: the handlers
        note it in ``_final`` as they make the events that show it (see :data:`FINAL_REASONS`)."""
        if kind is ReqEndTurn:
            why = E.UNDO_TOKEN_REVEALED if self.solo else None   # multiplayer: a new turn begins
        elif self.phase != PLAY or kind in SETUP_REQUESTS:
            why = E.UNDO_ENDED if self.phase == ENDED else None
        else:
            final = self._final
            if final == NOT_FINAL:
                if mark is not None:
                    self._undo_mark = mark
                self._undo_stack.append((p.nickname, action))
                return
            why = FINAL_REASONS[final]
        self._undo_barrier = why
        self._undo_stack.clear()
        self._undo_mark = None

    def _made_final(self, rank: int) -> None:
        """Note that the request being applied cannot be taken back (``rank``: the reason's
        index in :data:`FINAL_REASONS`, the most telling reason first)."""
        if rank < self._final:
            self._final = rank

    def _capture(self) -> tuple:
        """What a request that can be taken back may change, copied (see :meth:`_restore`).

        Such a request changes only the current player's storage, leaders, faith and points, the
        leader depots, the market, the main-action flag and (solo) the black cross: anything that
        would touch the others, the decks, the reports or the turn order makes it final (see
        :meth:`_note_for_undo`), and then this mark is dropped. The undo tests compare whole
        snapshots, so anything missed here would show.
        """
        p = self.players[self.current]
        # by seat, container order and id, so that a copy of the game (a bot's clone) may use it;
        # the contents and the market are kept, not copied: the engine replaces them, never
        # changes one in place
        shelves = []
        for c in p.shelves:
            shelves.append(c.content)
        depots = []
        for d in self.leader_depot.values():
            depots.append((d.owner, d.content))
        mine = []
        for d in p.depots:
            mine.append(d.id)
        return (p.seat, shelves, p.strongbox.content, depots, mine, p.hand.copy(), p.active_leaders.copy(),
                p.faith, p.vp, self.market, self.slide, self.black_cross, self.main_done)

    def _restore(self, mark: tuple) -> None:
        """Put back a state from :meth:`_capture` (the mark stays intact: what the game may change
        in place is copied again)."""
        (seat, shelves, box, depots, p_depots, hand, leaders, faith, vp,
         self.market, self.slide, self.black_cross, self.main_done) = mark
        conts = self.containers
        p = self._own_seat(seat)
        own = self._own
        for c, content in zip(p.shelves.copy(), shelves):
            own(c).content = content
        own(p.strongbox).content = box
        for c, (owner, content) in zip(list(self.leader_depot.values()), depots):
            c = own(c)
            c.owner = owner
            c.content = content
        p.depots = [conts[cid] for cid in p_depots]
        p.hand, p.active_leaders, p.faith, p.vp = hand.copy(), leaders.copy(), faith, vp
