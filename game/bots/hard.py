"""The hard bot (for now it plays like the easy one; its search replaces this)."""
from __future__ import annotations

from game.rules.components import GameConfig

from .easy import EasyBot


class HardBot(EasyBot):
    level = "hard"

    def __init__(self, config: GameConfig, budget: int | None = None) -> None:
        super().__init__(config)
        self.budget = budget
