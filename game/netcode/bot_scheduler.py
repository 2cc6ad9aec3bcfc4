"""The server's bot scheduler: when each game's bots think, and what comes of their decisions.

Bots play inside the server, with no connection. Each decision is thought in a worker
(:class:`game.bots.driver.BotPool`: threads, or processes with ``bot_processes``), never on the
server's loop; its answer is handed back to the loop (``call_soon``) and submitted to the game's
:class:`~.room.Room` like a player's request, no sooner than the game's pace (its ``botPace``, else
``bot_delay``) after that game's previous bot move (``call_at``). At most one decision per game is
under way, and none while no person is at the table. A request the engine refuses follows the one
bot-turn policy (:mod:`game.bots.turn_policy`): asked again of the easy bot, then the bot says so
at the table and leaves.

It also measures its workers (:meth:`BotScheduler.load`), so that the lobby admits a game with
bots only while those under way keep their pace (:meth:`BotScheduler.at_pace`).

No socket here: the scheduler is given the games (``rooms``), the loop's ``call_soon`` and
``call_at``, and ``tell(room, data)``, which hands encoded lines to the table's clients of ours.
"""
from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from game.bots.turn_policy import Leave, after_no_answer, after_refusal
from game.rules.components import GameConfig

from .framing import encode
from .room import Room
from .server_messages import update_chat
from .server_words import bot_farewell, said

log = logging.getLogger("mor.server")

BOT_WINDOW = 30.0
"""Seconds of bot decisions the admission of bot games looks back on (see :meth:`BotScheduler.load`)."""
BOT_WAIT_MAX = 1.0
"""A bot decision's wait (asked to answered) at p95 past which no more bot games are admitted: a
bot's turn takes two or three decisions, each ``bot_delay`` apart at least, so beyond this a
turn no longer fits in 3 s (issue 20, section 6)."""
BOT_WARMUP = 20.0
"""Seconds a game's bots are watched before another game with bots is admitted beside it: their
set-up choices are quick, their turns are not, so a younger game's rate says too little."""
SAVE_RETRY = 1.0
"""Seconds before a bot's request that could not be saved (a full disk) is asked for again."""



def bots_at_work(room: Room) -> bool:
    """Whether the bots of ``room`` count among the server's busy ones: its game goes on and
    someone is at the table. A game everyone left keeps its seats for their return, but its
    bots are paused: games with a bot opened and left at once took the server's bot seats for
    the whole grace (issue 28, finding 8)."""
    return not room.finished and not room.closed and room.empty_since is None


@dataclass
class BotTurn:
    """Where the bots of one game stand."""

    ticket: int = 0          # the decision under way (0: none)
    asked: float = 0.0       # when it was asked (time.monotonic())
    began: float = dataclasses.field(default_factory=time.monotonic)   # when its bots first thought
    last_move: float = 0.0   # when a bot of this game last moved (time.monotonic())
    cancel: Callable[[], None] | None = None   # drops the decision under way (nobody waits for it)

    def drop(self) -> None:
        """Nobody waits for the decision under way any more: the worker does not think about it."""
        if self.ticket and self.cancel is not None:
            self.cancel()
        self.ticket = 0
        self.cancel = None


class BotScheduler:
    """The bots of every game of one server (see the module's docstring).

    :param rooms: the server's games by id (read only: the scheduler finds a game again by its id).
    :param call_soon: ``call_soon(fn, *args)`` runs ``fn`` on the loop thread (from any thread).
    :param call_at: ``call_at(when, fn, *args)`` runs it there at ``time.monotonic()`` ``when``.
    :param tell: ``tell(room, data)`` hands encoded lines to the clients of ours at ``room``.
    :param stopping: whether the server is stopping (then no bot says anything more).
    """

    def __init__(self, config: GameConfig, options: Any, rooms: dict[int, Room],
                 call_soon: Callable[..., None], call_at: Callable[..., None],
                 tell: Callable[[Room, bytes], None], stopping: Callable[[], bool]) -> None:
        self.config = config
        self.options = options
        self.rooms = rooms
        self._call_soon = call_soon
        self._call_at = call_at
        self._tell = tell
        self._stopping = stopping
        self.pool: Any = None           # game.bots.driver.BotPool, made for the first bot game
        self.turns: dict[int, BotTurn] = {}   # game id -> its bots' progress
        self._tickets = 0
        self.decisions: deque[tuple[float, float, float, int]] = deque()   # (answered, thought, waited, game)

    def forget(self, gid: int) -> None:
        """A game is removed: the decision under way for it (if any) is dropped."""
        turn = self.turns.pop(gid, None)
        if turn is not None:
            turn.drop()

    def pause(self, room: Room) -> None:
        """Nobody is at the table any more: the decision under way is dropped (asked again by
        :meth:`step` when someone is back)."""
        turn = self.turns.get(room.id)
        if turn is not None:
            turn.drop()

    def close(self) -> None:
        """End the workers (the server stops)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def step(self, room: Room) -> None:
        """Ask the bot that must act in ``room`` (if any) for its next request, in the background.

        Called on the loop thread after anything that may hand the turn to a bot. At most one
        decision per game is under way; none while nobody is at the table.
        """
        movers = room.movers()
        if not movers or room.closed or room.finished or not room.bots_may_play:
            return
        turn = self.turns.setdefault(room.id, BotTurn())
        if turn.ticket:
            return
        from game.bots.driver import due, make_job
        with room.lock:
            nick = due(room.game, movers)
            if nick is None:
                return
            job = make_job(room.game, nick, movers[nick], self.options.bot_budget)
        self._think(room.id, turn, job)

    def _think(self, gid: int, turn: BotTurn, job: Any) -> None:
        self._tickets += 1
        turn.ticket = ticket = self._tickets
        turn.asked = time.monotonic()
        if self.pool is None:
            from game.bots.driver import BotPool
            o = self.options
            self.pool = BotPool(self.config, processes=o.bot_processes, workers=o.bot_workers,
                                     time_limit=o.bot_time_limit)
        turn.cancel = self.pool.submit(
            job, lambda answer: self._call_soon(self._answer, gid, ticket, job, answer))

    def _answer(self, gid: int, ticket: int, job: Any, answer: Any) -> None:
        """A bot has decided (loop thread): apply it now, or once the game's pace (its ``botPace``,
        else ``bot_delay``) has passed since its last bot move."""
        turn = self.turns.get(gid)
        if turn is None or turn.ticket != ticket:
            return
        now = time.monotonic()
        self.record(now, answer.seconds if answer is not None else 0.0, now - turn.asked, gid)
        if answer is None:
            self._leave(gid, job.nickname, after_no_answer())
            return
        room = self.rooms.get(gid)
        pace = room.bot_pace if room is not None and room.bot_pace is not None else self.options.bot_delay
        wait = turn.last_move + pace - time.monotonic()
        if wait > 0:
            self._call_at(time.monotonic() + wait, self._apply, gid, ticket, answer)
        else:
            self._apply(gid, ticket, answer)

    def _apply(self, gid: int, ticket: int, answer: Any) -> None:
        room = self.rooms.get(gid)
        turn = self.turns.get(gid)
        if room is None or turn is None or turn.ticket != ticket:
            return
        turn.ticket = 0
        job = answer.job
        if room.closed or room.finished or not room.bots_may_play:
            return   # asked again when someone comes back
        if room.game.version != job.version:   # the game moved meanwhile (setup): think again
            self.step(room)
            return
        if room.submit(job.nickname, answer.action):
            turn.last_move = time.monotonic()
            log.debug("game %d: %s (%s) %s: %s", gid, job.nickname, answer.level, answer.action.TYPE, answer.why)
            self.step(room)
            return
        if room.unsaved:   # refused because it could not be saved: asked again in a moment
            self._call_at(time.monotonic() + SAVE_RETRY, self.step, room)
            return
        log.error("game %d: the engine refused %s's %r (%s bot)", gid, job.nickname, answer.action, answer.level)
        then = after_refusal(job, answer.level)
        if isinstance(then, Leave):
            self._leave(gid, job.nickname, then)
            return
        self._think(gid, turn, then)

    def _leave(self, gid: int, nick: str, leave: Leave) -> None:
        """A bot cannot go on (even the easy bot's request was refused, or no decision could be
        had): rather than hold the game up, it says why at the table (``UpdateChat`` to our
        clients) and leaves it like a player who quits (``UpdatePlayerStatus`` to everyone,
        recorded in the log): its turns are skipped from then on, after a restart too."""
        room = self.rooms.get(gid)
        turn = self.turns.get(gid)
        if turn is not None:
            turn.ticket = 0
        if room is None or self._stopping():
            return
        log.error("game %d: %s %s; it leaves the table and the game goes on without it", gid, nick, leave.why)
        text = bot_farewell(leave)
        room.say(nick, text)
        self._tell(room, encode(update_chat(nick, text)))
        room.retire_bot(nick)
        self.step(room)

    def record(self, now: float, thought: float, waited: float, gid: int = 0) -> None:
        log_ = self.decisions
        log_.append((now, max(0.0, thought), max(0.0, waited), gid))
        while log_ and now - log_[0][0] > BOT_WINDOW:
            log_.popleft()

    def load(self, now: float | None = None) -> tuple[float, float, float]:
        """How busy the bots' workers are, from the decisions of the last :data:`BOT_WINDOW`
        seconds: the share of the workers' time spent thinking (each game's thinking over the time
        it was watched, a game that began a moment ago included at its rate so far), the share one
        more game would add (their mean), and the p95 of how long a decision waited from asked to
        answered (seconds)."""
        now = time.monotonic() if now is None else now
        recent = [e for e in self.decisions if now - e[0] <= BOT_WINDOW]
        if not recent:
            return 0.0, 0.0, 0.0
        thought: dict[int, float] = {}
        began: dict[int, float] = {}
        for at, secs, waited, gid in recent:
            thought[gid] = thought.get(gid, 0.0) + secs
            began[gid] = min(began.get(gid, at), at - waited)
        workers = max(1, self.options.bot_workers)
        rates = [thought[g] / min(BOT_WINDOW, max(2.0, now - began[g])) for g in thought]
        waits = sorted(e[2] for e in recent)
        return (sum(rates) / workers, sum(rates) / len(rates) / workers,
                waits[min(len(waits) - 1, int(0.95 * len(waits)))])

    def at_pace(self, waiting: int) -> str | None:
        """Why one more game with bots would slow the bot games under way (the words of a refusal),
        or None: the workers would be busier than ``bot_load`` with the games there are, the
        ``waiting`` tables with bots waiting to start and one more (each at the games' mean), or their
        decisions already wait beyond :data:`BOT_WAIT_MAX` at p95, or a game with bots began
        less than :data:`BOT_WARMUP` seconds ago (its rate is not known yet). The caller logs the
        refusal (summed up: a stranger may ask again and again); the figures are at DEBUG."""
        limit = self.options.bot_load
        live = [r.id for r in self.rooms.values() if r.bots and bots_at_work(r)]
        if not limit or not live:
            return None
        games = len(live)
        now = time.monotonic()
        load, each, wait = self.load(now)
        young = any(now - turn.began < BOT_WARMUP for g in live if (turn := self.turns.get(g)) is not None)
        if load + each * (waiting + 1) <= limit and wait <= BOT_WAIT_MAX:
            if not young:
                return None
            log.debug("a game with bots refused: another began less than %g s ago", BOT_WARMUP)
            return said("limits.bots_warming", n=max(1, math.ceil(BOT_WARMUP)))
        log.debug("a game with bots refused: the bots' workers are %.0f%% busy with %d bot games "
                 "(%d tables waiting), decisions wait %.2f s at p95", 100 * load, games, waiting, wait)
        return said("limits.bots_at_pace")
