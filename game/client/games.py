"""Games on this machine: the rules, starting or resuming a solo game or a game against the
computer, and what a save holds, for every front end (pure Python, no pygame)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import orjson

from game.i18n import _
from game.match import BotMatch, LocalMatch
from game.rules.actions import ReqEndTurn
from game.rules.components import GameConfig, default_config
from game.rules.engine import Game
from game.rules.errors import GameError
from game.rules.views import player_view

from .session import GameSession
from .words import joined, player_name

__all__ = ["GameConfig", "GameNotOpened", "bots_save_path", "default_config", "describe_solo_save", "open_bots", "open_solo",
           "sample_view", "saved_opponents", "saved_summary", "continue_tip"]


class GameNotOpened(Exception):
    """A game that cannot start, or a save that cannot be resumed; the message says why."""


def open_solo(config: GameConfig, save_path: Path, nickname: str | None = None) -> GameSession:
    """A new solo game for ``nickname``, saved at ``save_path`` (None: resume the one saved there).

    :raises GameNotOpened: a missing or damaged save, or one these rules do not replay.
    """
    try:
        match = (LocalMatch.resume(config, save_path) if nickname is None
                 else LocalMatch(config, nickname, save_path=save_path))
    except (ValueError, GameError, OSError) as e:
        raise GameNotOpened(str(e)) from e
    return GameSession(match, config, match.nickname)


def open_bots(config: GameConfig, save_path: Path, pace: float, nickname: str | None = None,
              levels: Sequence[str] = ()) -> GameSession:
    """A new game for ``nickname`` against bots of ``levels``, their moves ``pace`` seconds apart,
    saved at ``save_path`` (``nickname`` None: resume the one saved there).

    :raises GameNotOpened: an unknown level, or a missing or damaged save.
    """
    try:
        match = (BotMatch.resume(config, save_path, pace=pace) if nickname is None
                 else BotMatch(config, nickname, list(levels), save_path=save_path, pace=pace))
    except (ValueError, GameError, OSError) as e:     # (an unknown level is a ValueError)
        raise GameNotOpened(str(e)) from e
    return GameSession(match, config, match.nickname)


def describe_solo_save(config: GameConfig, path: Path) -> str | None:
    """The saved solo game in a sentence ("At turn 16, you have 12 VP and Lorenzo's cross is on
    space 9."), or None if it cannot be opened."""
    try:
        game = LocalMatch.load(config, path)
    except (ValueError, GameError, OSError):
        return None
    me = game.players[0]
    if game.phase != "play":
        return _("It is still at the choice of leaders and resources.")
    turn = 1 + sum(1 for kind, _n, arg in game.history if kind == "apply" and isinstance(arg, ReqEndTurn))
    return _("At turn {turn}, you have {vp} VP and {faith} Faith; Lorenzo's cross is on space {space}.").format(
        turn=turn, vp=game.score(me.nickname).total, faith=me.faith, space=game.black_cross)


_SAMPLE: dict[int, dict[str, Any]] = {}


def sample_view(config: GameConfig) -> dict[str, Any]:
    """An ``UpdateGame`` of a fresh solo game (its cards and productions, for decoration)."""
    key = id(config)
    if key not in _SAMPLE:
        _SAMPLE[key] = player_view(Game.new(config, ["Ada"], 1592), "Ada")
    return _SAMPLE[key]


def bots_save_path(app: Any) -> Path:
    """Where the game against the computer is saved."""
    return Path(app.data_dir) / "bots-game.json"


def saved_opponents(path: Path, config: Any) -> tuple[str | None, str | None]:
    """(whom the saved game against the computer is against, "Cosimo (easy) and Bea (hard)", or
    None; a problem reading it, or None)."""
    if not path.exists():
        return None, None
    try:
        data = orjson.loads(path.read_bytes())
        bots = data["bots"]
        names = [player_name(nick, bots) for nick in bots]
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        return None, _("The saved game could not be read ({why}); it is kept as it is.").format(why=type(e).__name__)
    return joined(names), None


def continue_tip(path: Path, config: Any) -> str:
    """What continuing the saved game against the computer picks up (the title's tooltip): whom
    it is against, or why it cannot be read."""
    names, problem = saved_opponents(path, config)
    return _("A game against {names}, saved where you left it.").format(names=names) if names else problem or ""


def saved_summary(path: Path, config: Any) -> tuple[str | None, str | None]:
    """(a line describing the saved game, on its own, or None; a problem reading it, or None).
    Where it is already said to be saved, say whom it is against (:func:`saved_opponents`)."""
    names, problem = saved_opponents(path, config)
    return (None if names is None else _("A game against {names} is saved.").format(names=names)), problem
