"""The rules engine of Masters of Renaissance: pure Python, deterministic, no I/O.

The small public API::

    from game.rules import Game, default_config, player_view
    game = Game.new(default_config(), ["Ada", "Bruno"], seed=42)
    events = game.apply("Ada", ReqChooseLeaders((3, 7)))   # or raises a GameError
    game.outcome()                                          # None until the game is over

See ``engine.py`` for the contract (and the modules it names, one per part of the rules),
``choices.py`` for legal choices and suggestions, ``views.py`` for what each player may see and
``codec.py`` for saving and replaying games.
"""
from .actions import (Action, ProductionRequest, ReqActivateProductions, ReqBuyDevCard,
                      ReqChooseLeaders, ReqChooseResources, ReqEndTurn, ReqLeaderAction,
                      ReqMoveResources, ReqSwapShelves, ReqTakeFromMarket)
from .components import ConfigError, GameConfig, default_config, load_config
from .engine import Game, Outcome, Score, Termination
from .errors import GameError, MalformedRequest
from .views import player_view

__all__ = [
    "Action", "ProductionRequest", "ReqActivateProductions", "ReqBuyDevCard", "ReqChooseLeaders",
    "ReqChooseResources", "ReqEndTurn", "ReqLeaderAction", "ReqMoveResources", "ReqSwapShelves",
    "ReqTakeFromMarket", "ConfigError", "GameConfig", "default_config", "load_config", "Game", "Outcome",
    "Score", "Termination", "GameError", "MalformedRequest", "player_view",
]
