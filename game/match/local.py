"""A game the engine runs in this process: :class:`LocalMatch` (solo, against Lorenzo), and what
every game run here shares with it (:func:`local_apply`, :func:`local_undo`, :func:`keep_replay`).

:class:`LocalMatch` has no sockets and no threads. It saves the game (seed + accepted requests)
after every accepted request, so it can be left and resumed later with :meth:`LocalMatch.resume`.
"""
from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from typing import Callable, Protocol

from game.netcode import protocol as P
from game.netcode.history import history_lines, recent_history
from game.netcode.server_messages import visible_to
from game.rules import codec
from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import GameError, MalformedRequest
from game.rules.views import player_view
from game.seeds import new_seed

from .interface import Match, Msg


def local_apply(game: Game, nickname: str, request: Action, out: list[Msg]) -> list[Msg] | None:
    """Apply ``nickname``'s request to an in-process game: its events, or ``None`` after putting
    the refusal (the error a server would send) in ``out``."""
    try:
        return game.apply(nickname, request)
    except GameError as err:
        out.append(err.to_dict())
    except MalformedRequest as err:
        out.append({"msg": err.msg, "type": "ErrProtocol"})
    return None


def local_undo(game: Game, nickname: str) -> list[Msg]:
    """Take back ``nickname``'s last request in an in-process game: the messages this player gets
    (``UpdateUndo`` and their ``UpdateGame``, or the ``ErrUndo`` refusal)."""
    try:
        events = game.undo(nickname)
    except GameError as err:
        return [err.to_dict()]
    out = []
    for e in events:
        if visible_to(e, nickname):
            if e.get("type") == P.UPDATE_GAME:
                e = {k: v for k, v in e.items() if k != "player"}   # the routing field, not the game's
            out.append(e)
    return out


class SavedHere(Protocol):
    """A game run in this process and saved in a file (a :class:`LocalMatch`, a bot match)."""

    game: Game
    nickname: str
    bots: dict[str, str]
    save_path: Path | None
    replay_path: Path | None


def keep_replay(match: SavedHere, kind: str) -> None:
    """A local game has ended: its replay goes to the ``replays`` folder beside its save (once)."""
    if match.replay_path is None and match.save_path is not None:
        from game.replays import REPLAYS, save_finished
        match.replay_path = save_finished(match.game, match.save_path.parent / REPLAYS, kind, match.nickname,
                                          match.bots)



def save_here(match: SavedHere, kind: str, data: Callable[[], bytes]) -> None:
    """Save a game run here, as it is after a request: its file replaced whole (``data()``, never
    half written); once the game has ended, its replay kept (``kind``) and the save removed."""
    if match.save_path is None:
        return
    if match.game.ended:
        keep_replay(match, kind)
        match.save_path.unlink(missing_ok=True)
        return
    tmp = match.save_path.with_suffix(".tmp")
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_bytes(data())
    os.replace(tmp, match.save_path)

class LocalMatch(Match):
    """A solo game against Lorenzo, run by the engine in this process.

    Its messages are made by :meth:`send`, on the caller's thread: it never needs to wake a
    sleeping frame loop (``on_message`` is there for the same interface as :class:`RemoteMatch`).
    """

    supports_undo = True

    def __init__(self, config: GameConfig, nickname: str, seed: int | None = None,
                 save_path: Path | None = None, game: Game | None = None) -> None:
        self.nickname = nickname
        self.config: GameConfig = config
        self.save_path = save_path
        self.replay_path: Path | None = None     # where the replay went when the game ended
        self.game = game if game is not None else Game.new(config, [nickname], seed if seed is not None
                                                           else new_seed())
        self._out: deque[Msg] = deque([player_view(self.game, nickname)])
        self._save()

    @classmethod
    def resume(cls, config: GameConfig, save_path: Path) -> "LocalMatch":
        """Continue a saved solo game.

        :raises ValueError: the file is missing, damaged or not a solo game.
        :raises GameError: the saved requests do not replay with this config.
        """
        game = cls.load(config, save_path)
        match = cls(config, game.nicknames[0], save_path=save_path, game=game)
        match._out.extend(history_lines(*recent_history(game, match.nickname)))   # the log, as it was
        return match

    @staticmethod
    def load(config: GameConfig, save_path: Path) -> Game:
        """The saved solo game (read only).

        :raises ValueError: the file is missing, damaged or not a solo game.
        :raises GameError: the saved requests do not replay with this config.
        """
        try:
            data = Path(save_path).read_bytes()
        except OSError as e:
            raise ValueError(f"cannot read the saved game: {e}") from None
        game = codec.loads(data, config)
        if not game.solo:
            raise ValueError("the saved game is not a solo game")
        return game

    def send(self, request: Action) -> None:
        events = local_apply(self.game, self.nickname, request, self._out)
        if events is None:
            return
        self._out.extend(e for e in events if visible_to(e, self.nickname))
        self._save()

    def undo(self) -> None:
        """Take back the last request of this turn (answered through :meth:`poll`)."""
        self._out.extend(local_undo(self.game, self.nickname))
        self._save()

    def replay_record(self) -> Msg | None:
        from game.replays import replay_record
        return replay_record(self.game, "solo", self.nickname) if self.game.ended else None

    def poll(self) -> list[Msg]:
        out = list(self._out)
        self._out.clear()
        return out

    def close(self) -> None:
        self._save()

    def _save(self) -> None:
        save_here(self, "solo", lambda: codec.dumps(self.game))
