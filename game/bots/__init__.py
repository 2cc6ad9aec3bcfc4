"""Computer opponents: three levels of play behind one small interface.

A bot sees exactly what its player's client sees, the ``UpdateGame`` view of
:func:`game.rules.views.player_view`, and returns the next request with one plain-English line
saying why::

    from game.bots import make_bot
    bot = make_bot("medium", config)
    decision = bot.decide(player_view(game, "Ada"), "Ada", random.Random("7:Ada:0"))
    game.apply("Ada", decision.action)

- ``easy`` plays like a beginner who knows the rules: it buys what it can and takes the market
  line that fits its warehouse best, without planning ahead.
- ``medium`` weighs every request of the turn with a heuristic evaluation of the position
  (cards it aims at, leaders, warehouse room, faith track and Vatican reports, Lorenzo's race).
- ``hard`` searches: it samples the hidden information consistently with the view and plays
  each promising turn out with the medium policy, within a fixed number of playouts.

Decisions depend only on (view, nickname, rng state): the same inputs give the same request,
so a game with bots replays exactly from its log. A bot never reads the game itself.
"""
from __future__ import annotations

from game.rules.components import GameConfig

from .base import LEVELS, Bot, Decision, UnknownLevel

def make_bot(level: str, config: GameConfig, *, budget: int | None = None) -> Bot:
    """A bot of ``level`` for games of ``config``.

    ``budget`` is the search effort of ``hard`` (playouts per decision; None: the default,
    calibrated so that a decision takes at most about a second); the other levels ignore it.

    :raises UnknownLevel: ``level`` is not one of :data:`LEVELS`.
    """
    if level == "easy":
        from .easy import EasyBot
        return EasyBot(config)
    if level == "medium":
        from .medium import MediumBot
        return MediumBot(config)
    if level == "hard":
        from .hard import HardBot
        return HardBot(config, budget=budget)
    raise UnknownLevel(level)


__all__ = ["LEVELS", "UnknownLevel", "Decision", "Bot", "make_bot"]
