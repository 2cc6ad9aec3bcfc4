"""What a front end asks the rules, answered from this player's own view: the engine's picture
of what the player sees (the shadow game), rebuilt when the game changes, and each answer kept
until then. The scenes and the text client never import ``game.rules``: they ask these, through
the session.
"""
from __future__ import annotations

from typing import Any, Callable

from game import i18n
from game.i18n import _
from game.rules.choices import MarketLine, activatable_leaders, affordable_cards, market_lines, runnable_productions
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.shadow import shadow_game
from game.rules.state import PlayerState

from .plans import BuyPlan
from .refusals import leader_missing_words
from .words import CLICK_TO_BUY

Msg = dict[str, Any]
Picture = Callable[[], "tuple[int, Msg | None, GameConfig]"]
"""The game as the player sees it now: (its version, the view model's game, the config it plays by)."""


class RulesQueries:
    """The rules asked about one player's view, each answer kept until the view changes."""

    def __init__(self, nickname: str, picture: Picture) -> None:
        self.nickname = nickname
        self._picture = picture
        self._shadow: Game | None = None
        self._shadow_version = -1
        self._answers: dict[Any, Any] = {}
        self._answers_version = -1

    def shadow(self) -> Game:
        """The engine's picture of what this player sees (for legal choices), rebuilt on change."""
        version, game, config = self._picture()
        if self._shadow is None or self._shadow_version != version:
            assert game is not None
            self._shadow = shadow_game(game, config, self.nickname)
            self._shadow_version = version
        return self._shadow

    def answer(self, key: Any, compute: Callable[[Game, PlayerState], Any]) -> Any:
        """``compute(shadow game, my player)``, kept under ``key`` until the game changes."""
        version = self._picture()[0]
        if self._answers_version != version:
            self._answers, self._answers_version = {}, version
        if key not in self._answers:
            sh = self.shadow()
            self._answers[key] = compute(sh, sh.player(self.nickname))
        return self._answers[key]

    def can_produce(self) -> bool:
        """Whether some production could run now."""
        return self.answer("produce", lambda sh, me: bool(runnable_productions(sh, me)))

    def buyable(self) -> set[tuple[str, int]]:
        """(colour, level) of the cards of the grid this player can buy now."""
        return self.answer("buyable", lambda sh, me: {(o.card.color, o.card.level) for o in affordable_cards(sh, me)})

    def market_line(self, is_row: bool, index: int) -> MarketLine:
        """What taking a row (``is_row``) or a column of the market would give this player."""
        return self.answer(("line", is_row, index), lambda sh, me: next(
            line for line in market_lines(sh, me) if line.is_row == is_row and line.index == index))

    def purchase_words(self, color: str, level: int) -> str | None:
        """Why the top card of a pile cannot be bought now, or "Click to buy" (None: the pile is empty)."""
        def words(sh: Game, me: PlayerState) -> str | None:
            card = sh.top_card(color, level)
            return None if card is None else BuyPlan.start(sh, me, card).problem() or _(CLICK_TO_BUY)
        return self.answer(("buy", color, level, i18n.current()), words)     # (words: in the language now)

    def leader_refusal(self, lid: int) -> str | None:
        """Why this player's leader ``lid`` cannot be played yet, in words (None: it can be)."""
        def why(sh: Game, me: PlayerState) -> str | None:
            if any(ld.id == lid for ld in activatable_leaders(sh, me)):
                return None
            return leader_missing_words(sh, me, lid)
        return self.answer(("leader", lid, i18n.current()), why)
