"""A game as JSON: its seed, players and accepted calls, replayed exactly.

The record is small (a few KB for a whole game) and independent of the engine's internals:
``{"format": "mor-game/1", "config": <path or null>, "nicknames": [...], "seed": n,
"history": [["apply", nick, {request}], ["active", nick, bool], ["undo", nick, null], ...]}``.
"""
from __future__ import annotations

from typing import Any

import orjson

from .actions import Action
from .components import GameConfig
from .engine import Game

FORMAT = "mor-game/1"
KINDS = ("apply", "active", "undo")
"""The kinds of recorded call: a request, a player leaving or coming back, an undo."""


def history_entry(kind: str, nickname: str, arg: Any) -> list[Any]:
    """One history entry as JSON-ready data."""
    return [kind, nickname, arg.to_dict() if isinstance(arg, Action) else arg]


def game_record(game: Game) -> dict[str, Any]:
    """Everything needed to rebuild ``game`` with :func:`restore` (given the same config)."""
    return {"format": FORMAT, "config": game.config.path, "nicknames": list(game.nicknames),
            "seed": game.seed, "history": [history_entry(*h) for h in game.history]}


def restore(record: dict[str, Any], config: GameConfig) -> Game:
    """Rebuild a game from :func:`game_record` output.

    :raises ValueError: the record is not a game record of this format.
    :raises GameError: a recorded request does not replay (wrong config or a corrupted record).
    """
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("not a saved game (format mor-game/1 expected)")
    try:
        nicknames = [str(n) for n in record["nicknames"]]
        seed = int(record["seed"])
        history = [(k, str(n), Action.from_dict(a) if k == "apply" else None if k == "undo" else bool(a))
                   for k, n, a in record["history"]]
        if any(k not in KINDS for k, _, _ in history):
            raise ValueError("unknown kind of recorded call")
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"saved game is damaged: {e}") from None
    return Game.replay(config, nicknames, seed, history)


def dumps(game: Game) -> bytes:
    return orjson.dumps(game_record(game))


def loads(data: bytes | str, config: GameConfig) -> Game:
    """:raises ValueError: not JSON or not a game record."""
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"saved game is not valid JSON: {e}") from None
    return restore(record, config)
