"""What a player sends to the match: the game's requests, undo and chat. Each request first
tells the session what went out (``sending``), so that the refusal shown for the one before is
dismissed and the next refusal is worded for this one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from game.rules.actions import Action, ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction

if TYPE_CHECKING:
    from game.match import Match

CHAT_MAX = 200
"""Characters of a line said at the table (the server cleans the rest)."""


class Commands:
    """The requests of one seat, sent through its match."""

    def __init__(self, match: "Match", sending: Callable[[Action | None], None],
                 can_chat: Callable[[], bool]) -> None:
        self.match = match
        self._sending = sending
        self._can_chat = can_chat

    def send(self, action: Action) -> None:
        self._sending(action)
        self.match.send(action)

    def undo(self) -> None:
        """Take back my last request of this turn (answered by the table as it was, or a refusal)."""
        if self.match.supports_undo:
            self._sending(None)
            self.match.undo()

    def chat(self, text: str) -> None:
        """Say ``text`` to the table (nothing for an empty line, or where nobody listens)."""
        text = " ".join(text.split())
        if text and self._can_chat():
            self.match.chat(text[:CHAT_MAX])

    def end_turn(self) -> None:
        self.send(ReqEndTurn())

    def leader_action(self, lid: int, play: bool) -> None:
        """Play (``play``) or discard this player's leader ``lid``."""
        self.send(ReqLeaderAction(lid, play))

    def choose_leaders(self, ids: Sequence[int]) -> None:
        """Keep these leaders of the four dealt (at the set-up)."""
        self.send(ReqChooseLeaders(tuple(ids)))

    def choose_resources(self, placed: dict[int, dict[str, int]]) -> None:
        """The starting resources chosen, by shelf: {shelf id: {resource: count}}."""
        self.send(ReqChooseResources(placed))
