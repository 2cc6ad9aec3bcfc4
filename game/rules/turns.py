"""The turn: whose it is and what they may still do, ending it, the next active seat, and in solo
Lorenzo's action token drawn at the end of each turn.
"""
from __future__ import annotations

from . import errors as E
from .actions import ReqEndTurn
from .faith import LORENZO
from .scoring import Termination
from .shuffle import shuffle
from .state import ENDED, PLAY, SETUP, PlayerState


class Turns:
    """The turns part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def _check_turn(self, p: PlayerState) -> None:
        if self.phase == SETUP:
            raise E.ErrAction(E.EARLY_MANDATORY_ACTION)
        if self.phase == ENDED:
            raise E.ErrAction(E.GAME_ENDED)
        if self.current != p.seat:
            raise E.ErrAction(E.NOT_CURRENT_PLAYER)

    def _check_main(self, p: PlayerState) -> None:
        if self.phase != PLAY or self.current != p.seat or self.main_done:
            self._check_turn(p)   # (raises the refusal of the first check that fails)
            raise E.ErrAction(E.LATE_MANDATORY_ACTION)

    def _end_turn(self, p: PlayerState, a: ReqEndTurn) -> str:
        self._check_turn(p)
        if not self.main_done:
            raise E.ErrAction(E.EARLY_TURN_END)
        if self.solo:
            self._reveal_token()
            if self.phase != ENDED:
                self.main_done = False
                if not self.search:
                    self._events.append({"player": p.nickname, "type": "UpdateCurrentPlayer"})
        else:
            self._pass_turn()
        return a.ACTION

    def _next_active_seat(self, seat: int) -> tuple[int, bool]:
        """The next active seat after ``seat`` and whether the inkwell was passed on the way."""
        n = len(self.players)
        wrapped = False
        s = seat
        for _ in range(n):
            s += 1
            if s == n:
                s = 0
                wrapped = True
            if self.players[s].active:
                return s, wrapped
        s = seat + 1
        return (0, True) if s == n else (s, False)

    def _pass_turn(self) -> None:
        nxt, wrapped = self._next_active_seat(self.current)
        if wrapped and self.last_round:
            self._end(Termination.ROUND_COMPLETED)
            return
        self.current = nxt
        self.main_done = False
        if not self.search:
            self._events.append({"player": self.players[nxt].nickname, "type": "UpdateCurrentPlayer"})

    def _reveal_token(self) -> None:
        cfg = self.config
        pile = self.tokens[1:]   # lists that a bot's copy may share are replaced, not changed
        tid = self.tokens[0]
        self.tokens = pile
        token = cfg.solo_tokens[tid]
        self.last_token = tid
        if token.kind == "discard":
            left = token.amount
            decks = self.decks[token.color].copy()   # (the grid is replaced, never changed in place)
            self.decks = {**self.decks, token.color: decks}
            for lv in cfg.levels:
                deck = decks[lv]
                n = len(deck)
                if n:
                    if n > left:
                        n = left
                    decks[lv] = deck[:-n]
                    left -= n
                    if not left:
                        break
            if not self.search:
                self._events.append({"devCardGrid": self.grid_wire(), "type": "UpdateDevCardGrid"})
        else:
            self._faith_step({LORENZO: token.spaces})
        if token.kind == "move_shuffle":
            self.tokens = [t.id for t in cfg.solo_tokens]
            shuffle(self.rng, self.tokens)
            self.revealed = []       # every token back in the pile (the shuffle token shows as the last)
        else:
            pile.append(tid)         # kept face up until the next shuffle; never drawn before it
            self.revealed = [*self.revealed, tid]
        if not self.search:
            self._events.append({"actionToken": tid, "type": "UpdateActionToken"})
        if self.phase != ENDED and token.kind == "discard" and self._color_gone(token.color):
            self._end(Termination.LORENZO_COLOR)
