"""A game on this machine between the player and computer opponents: :class:`BotMatch`.

The bots (:mod:`game.bots`) think in a worker process (a thread if processes cannot start); their
requests are applied one at a time, at ``pace`` seconds apart, from :meth:`BotMatch.poll`. The
game is saved after every accepted request like the solo game, and resumed with
:meth:`BotMatch.resume`; a bot that cannot go on leaves the table by the one bot-turn policy
(:mod:`game.bots.turn_policy`).
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable

import orjson

from game.bots.turn_policy import Leave, after_no_answer, after_refusal
from game.netcode.history import history_lines, recent_history
from game.netcode.server_messages import update_chat, visible_to
from game.netcode.server_words import bot_farewell
from game.rules import codec
from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import GameError, MalformedRequest
from game.rules.views import player_view
from game.seeds import new_seed

from .interface import Match, Msg
from .local import local_apply, local_undo, save_here

log = logging.getLogger("mor.match")


BOTS_FORMAT = "mor-bots/1"
"""The save of a game against bots: ``{"format": BOTS_FORMAT, "player": nick, "bots": {nick: level},
"game": <codec.game_record>}``."""


class BotMatch(Match):
    """A game on this machine: the player against 1 to 3 bots, run by the engine in-process.

    Everything happens on the caller's thread except the bots' thinking (a worker process of
    :class:`~game.bots.driver.BotPool`, started with the match; a thread if processes cannot
    start, or with ``processes=False``): :meth:`poll` applies a bot's request once it is ready and
    ``pace`` seconds have passed since the previous request (so a person can follow each move
    and its line in the log), then asks the next bot. Nothing blocks.

    :param bots: the opponents' levels, one per seat (their nicknames are chosen here), or
        ``{nickname: level}``.
    :raises UnknownLevel: a level that does not exist.
    :raises ValueError: too many or too few players for ``config``.
    """

    def __init__(self, config: GameConfig, nickname: str, bots: "list[str] | dict[str, str]", seed: int | None = None,
                 save_path: Path | None = None, game: Game | None = None, pace: float = 0.8,
                 budget: int | None = None, processes: bool = True) -> None:
        from game.bots import LEVELS, UnknownLevel
        from game.bots.driver import BotPool, bot_nickname
        self.nickname = nickname
        self.config: GameConfig = config
        self.save_path = save_path
        self.replay_path: Path | None = None     # where the replay went when the game ended
        self.pace = pace
        self.budget = budget
        if isinstance(bots, dict):
            seats = dict(bots)
        else:
            seats, taken = {}, {nickname}
            for i, level in enumerate(bots):
                nick = bot_nickname(taken, (seed or 0) + i)
                taken.add(nick)
                seats[nick] = level
        for level in seats.values():
            if level not in LEVELS:
                raise UnknownLevel(level)
        if not seats or nickname in seats:
            raise ValueError("a game against the computer needs at least one bot, and a seat for the player")
        self.bots = seats
        self.game = game if game is not None else Game.new(
            config, [nickname, *seats], seed if seed is not None else new_seed())
        self._out: deque[Msg] = deque([player_view(self.game, nickname)])
        self._pool = BotPool(config, processes=processes)
        self._pool.warm()                       # the worker starts now: the first decision is not late
        self._answers: deque[Any] = deque()     # filled by the worker thread
        self._thinking: Any = None              # the job under way
        self._last_move = time.monotonic()
        self.retired: dict[str, str] = {}       # bots that left the table (their moves refused), and why
        self._wake_due = 0.0                    # when the wake-up armed by _wake_in fires
        self._closed = False
        self.bot_moves = 0                      # the bots' requests applied since the match started
        self.decided_in: set[int] = set()       # the processes whose decisions were applied
        self.on_message: Callable[[], None] | None = None   # called (any thread) when poll has news
        self._save()
        self._ask()

    @classmethod
    def resume(cls, config: GameConfig, save_path: Path, pace: float = 0.8) -> "BotMatch":
        """Continue a saved game against bots.

        :raises ValueError: the file is missing, damaged or not such a game.
        :raises GameError: the saved requests do not replay with this config.
        """
        try:
            data = orjson.loads(Path(save_path).read_bytes())
        except OSError as e:
            raise ValueError(f"cannot read the saved game: {e}") from None
        except orjson.JSONDecodeError as e:
            raise ValueError(f"the saved game is not valid JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != BOTS_FORMAT:
            raise ValueError("not a saved game against the computer")
        player, bots = data.get("player"), data.get("bots")
        if not isinstance(player, str) or not isinstance(bots, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in bots.items()):
            raise ValueError("the saved game is damaged: no player or bots")
        game = codec.restore(data.get("game"), config)
        if set(game.nicknames) != {player, *bots}:
            raise ValueError("the saved game is damaged: its players are not the player and the bots")
        match = cls(config, player, bots, save_path=save_path, game=game, pace=pace)
        match._out.extend(history_lines(*recent_history(game, player)))   # the log, as it was
        return match

    # ------------------------------------------------------------------ the Match interface
    def send(self, request: Action) -> None:
        events = local_apply(self.game, self.nickname, request, self._out)
        if events is None:
            return
        self._accepted(events)

    supports_undo = True

    def replay_record(self) -> Msg | None:
        from game.replays import replay_record
        return replay_record(self.game, "bots", self.nickname, self.bots) if self.game.ended else None

    def undo(self) -> None:
        """Take back the player's last request of this turn (answered through :meth:`poll`)."""
        self._out.extend(local_undo(self.game, self.nickname))
        self._save()

    def poll(self) -> list[Msg]:
        if self._answers:
            left = self.pace - (time.monotonic() - self._last_move)
            if left <= 0:
                self._take(self._answers.popleft())
            else:
                self._wake_in(left)      # the caller sleeps till then: it is woken for the move
        out = list(self._out)
        self._out.clear()
        return out

    def close(self) -> None:
        self._closed = True
        self._pool.close()
        self._save()

    def shutdown(self) -> None:
        self.close()     # its bots' worker process ends now (the game stays saved)

    @property
    def bot_mode(self) -> str:
        """Where the bots think: ``"processes"`` or ``"threads"``."""
        return self._pool.mode

    def worker_pids(self) -> list[int]:
        """The bots' worker processes alive now (none on threads, or once closed)."""
        return self._pool.worker_pids()

    @property
    def why_threads(self) -> str | None:
        """Why the bots think on a thread when worker processes were asked for, if they do."""
        return self._pool.why_threads

    @property
    def thinking(self) -> str | None:
        """The bot whose move is awaited (thinking, or waiting for the pace), if any."""
        return self._thinking.nickname if self._thinking is not None else None

    # ------------------------------------------------------------------ internals
    def _accepted(self, events: list[Msg]) -> None:
        self._out.extend(e for e in events if visible_to(e, self.nickname))
        self._last_move = time.monotonic()
        self._save()
        self._ask()
        self._last_move = time.monotonic()    # the pace runs from when the move is handed over

    def _ask(self) -> None:
        """Set the bot that must act (if any) thinking, unless one already is."""
        from game.bots.driver import due, make_job
        if self._thinking is not None or self._closed or self.game.ended:
            return
        nick = due(self.game, self.bots)
        if nick is None:
            return
        self._thinking = job = make_job(self.game, nick, self.bots[nick], self.budget)
        self._pool.submit(job, lambda answer: self._ready(job, answer))

    def _ready(self, job: Any, answer: Any) -> None:
        """A bot's answer (worker thread): queued for :meth:`poll`, whose caller is woken when the
        pace allows it to be applied."""
        self._answers.append((job, answer))
        self._wake_in(self.pace - (time.monotonic() - self._last_move))

    def _wake_in(self, left: float) -> None:
        """Wake the caller (``on_message``) in ``left`` seconds, unless a wake-up is already due
        (any thread; a wake-up that comes early is followed by another from :meth:`poll`)."""
        wake = self.on_message
        if wake is None:
            return
        if left <= 0:
            wake()
            return
        now = time.monotonic()
        if self._wake_due > now:
            return
        self._wake_due = now + left
        timer = threading.Timer(left, wake)
        timer.daemon = True
        timer.start()

    def _take(self, item: tuple[Any, Any]) -> None:
        job, answer = item
        if job is not self._thinking:
            return
        self._thinking = None
        if answer is None:
            if not self._closed:
                self._bot_leaves(job.nickname, after_no_answer())
            return
        if self.game.version != job.version:   # the player moved meanwhile (setup): think again
            self._ask()
            return
        try:
            events = self.game.apply(job.nickname, answer.action)
        except (GameError, MalformedRequest) as e:
            log.error("the engine refused bot %s's %r (%s): %s", job.nickname, answer.action, answer.level, e)
            then = after_refusal(job, answer.level)
            if isinstance(then, Leave):
                self._bot_leaves(job.nickname, then)
                return
            self._thinking = easy = then
            self._pool.submit(easy, lambda again: self._ready(easy, again))
            return
        self.bot_moves += 1
        self.decided_in.add(answer.pid or os.getpid())
        self._accepted(events)

    def _bot_leaves(self, nick: str, leave: Leave) -> None:
        """A bot cannot go on (:mod:`game.bots.turn_policy`): rather than hold the game up, it
        says why (a chat line in the log) and leaves the table like a player who quits; the engine
        skips its turns from then on (saved so)."""
        log.error("bot %s %s; it leaves the table and the game goes on without it", nick, leave.why)
        self.retired[nick] = leave.why
        self._out.append(update_chat(nick, bot_farewell(leave)))
        self._accepted(self.game.set_active(nick, False))

    def _save(self) -> None:
        save_here(self, "bots", lambda: orjson.dumps({"format": BOTS_FORMAT, "player": self.nickname,
                                                      "bots": self.bots, "game": codec.game_record(self.game)}))
