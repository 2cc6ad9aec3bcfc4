"""The engine's undo rule followed from the updates a player receives (docs/rules-engine.md,
"Undo"): how many of this player's requests of this turn may be taken back, and when none may,
why. The engine or the server has the last word; this only decides whether Undo is offered.
"""
from __future__ import annotations

from typing import Any

from game.i18n import _

from .words import UNDO_WORDS

Msg = dict[str, Any]

_TURNS_UP = frozenset({"UpdateDevSlot", "UpdateVaticanSection", "UpdateLastRound", "UpdateActionToken",
                       "UpdateGameEnd"})
"""Updates after which the move just made cannot be taken back (something was bought or turned up)."""
_NEW_TURN = frozenset({"UpdateCurrentPlayer", "UpdatePlayerStatus", "UpdateSetupDone"})
_NOT_UNDOABLE = frozenset({"END_TURN", "CHOOSE_LEADERS", "CHOOSE_RESOURCES"})


class UndoRule:
    """Follows one player's undoable requests; :meth:`take` every message, in order."""

    def __init__(self, nickname: str) -> None:
        self.nickname = nickname
        self.undoable = 0            # my requests of this turn that may be taken back
        self.reason = "turn"         # why nothing can be undone: a key of UNDO_WORDS
        self._final_seen = False     # since my last request: something that makes it final
        self._undone = False         # an UpdateUndo came: the UpdateGame that follows is the same turn

    def take(self, m: Msg) -> None:
        t = m.get("type", "")
        me = self.nickname
        if t == "UpdateUndo":
            if m.get("player") == me:
                self.undoable = max(0, self.undoable - 1)
                self.reason = "undone"
            self._undone = True
        elif t == "UpdateGame":
            if not self._undone:
                self.undoable = 0
                self.reason = "loaded" if m.get("isSetupDone") else "turn"
            self._undone = False
        elif t in _TURNS_UP or (t == "UpdateFaithPoints" and not m.get("isBlackCross") and m.get("player") != me):
            self._final_seen = True
        elif t in _NEW_TURN:
            self.undoable = 0
            self.reason = "turn"
        elif t == "UpdateAction":
            if m.get("player") == me and m.get("action") not in _NOT_UNDOABLE:
                self.undoable = 0 if self._final_seen else self.undoable + 1
                if self._final_seen:
                    self.reason = "final"
            self._final_seen = False

    def words(self) -> str:
        """Why nothing can be undone now, in words."""
        return _(UNDO_WORDS.get(self.reason, UNDO_WORDS["turn"]))
