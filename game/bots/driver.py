"""Where bots play: the one runner used by a game on this machine and by the server.

A game's bot seats are a mapping ``{nickname: level}``. :func:`due` says which bot must act now
(a bot whose setup choice is pending, or the current player), :func:`make_job` takes a picture of
what that bot may see (``player_view``: nothing hidden leaks to it) and :func:`think` turns a job
into a :class:`~game.bots.Decision`. A job is plain data, so it may be thought about anywhere:
in this thread, a worker thread or another process.

Determinism: the bot's random generator is seeded per decision as
``random.Random(f"{game_seed}:{nickname}:{decision_index}")``, where the decision index is the
number of requests of that bot the game has accepted so far (:func:`decision_index`). It is read
from the game's history, so it is saved with the game and replays with it: a game with bots,
re-driven from its seed, takes exactly the same course.

:class:`BotPool` thinks in the background and never blocks its caller: ``submit`` returns at
once and the answer is handed to a callback (called on a worker thread; the caller moves it to
its own loop). Each decision has a time limit: a bot that is late (or fails) is replaced for
that one decision by the easy bot, so a game never stalls on a bot; the late answer is dropped.
"""
from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from game.rules.actions import Action
from game.rules.components import GameConfig, default_config, load_config
from game.rules.engine import PLAY, SETUP, Game
from game.rules.views import player_view

log = logging.getLogger("mor.bots")

TIME_LIMIT = 8.0
"""Seconds a decision may take before the easy bot answers in its place (hard's p95 is about 1 s)."""

FALLBACK_LEVEL = "easy"

BOT_NAMES = ("Cosimo", "Lucrezia", "Lorenzo de' Medici", "Isabella", "Federico", "Beatrice", "Ludovico",
             "Caterina", "Giuliano", "Clarice", "Piero", "Vittoria")
"""Names given to bots (a bot is named ``"<name> (bot)"``); never Lorenzo il Magnifico's own."""


def bot_nickname(taken: set[str] | frozenset[str] | Any, seed: int = 0) -> str:
    """A bot nickname no one in ``taken`` uses, e.g. ``"Cosimo (bot)"`` (at most 24 characters)."""
    names = [n for n in BOT_NAMES if n != "Lorenzo de' Medici"]
    start = seed % len(names)
    for k in range(len(names)):
        nick = f"{names[(start + k) % len(names)]} (bot)"
        if nick not in taken:
            return nick
    n = 2
    while f"Bot {n}" in taken:
        n += 1
    return f"Bot {n}"


def decision_index(game: Game, nickname: str) -> int:
    """How many requests of ``nickname`` the game has accepted (the bot's next decision's number)."""
    return sum(1 for kind, nick, _ in game.history if kind == "apply" and nick == nickname)


def due(game: Game, seats: Mapping[str, str]) -> str | None:
    """The bot that must act now, or None (a human's turn, or the game is over).

    In setup, the first bot in seat order whose choice is pending; in play, the current player if
    it is a bot. A bot that is away (never, unless a log says so) is not asked.
    """
    if not seats:
        return None
    if game.phase == SETUP:
        for p in game.players:
            if p.nickname in seats and p.active and not (p.chose_leaders and p.chose_resources):
                return p.nickname
        return None
    if game.phase == PLAY:
        p = game.current_player
        if p.nickname in seats and p.active:
            return p.nickname
    return None


@dataclass(frozen=True)
class Job:
    """One decision to make: everything a bot may know, and how to seed it (plain, picklable data)."""

    nickname: str
    level: str
    view: dict[str, Any]
    seed: str
    index: int
    version: int                 # the game's version the view was taken at
    budget: int | None = None    # search effort of the hard bot (None: its calibrated default)
    config_path: str | None = None


def make_job(game: Game, nickname: str, level: str, budget: int | None = None) -> Job:
    """The job of ``nickname``'s next decision (call it where the game may be read safely)."""
    index = decision_index(game, nickname)
    return Job(nickname, level, player_view(game, nickname), f"{game.seed}:{nickname}:{index}", index,
               game.version, budget, game.config.path)


@dataclass(frozen=True)
class Answer:
    """What came of a job: the request to apply, the bot's reason, and who actually decided."""

    job: Job
    action: Action
    why: str
    level: str                   # the job's level, or FALLBACK_LEVEL when the bot was late or failed
    seconds: float


_BOTS: dict[tuple[str, int | None, int], Any] = {}
_BOTS_LOCK = threading.Lock()


def _bot(level: str, config: GameConfig, budget: int | None) -> Any:
    from game.bots import make_bot
    key = (level, budget, id(config))
    with _BOTS_LOCK:
        bot = _BOTS.get(key)
        if bot is None:
            bot = _BOTS[key] = make_bot(level, config, budget=budget)
        return bot


def think(job: Job, config: GameConfig, level: str | None = None) -> Answer:
    """Make the decision of ``job`` here and now (``level`` overrides the job's, for the fallback).

    :raises UnknownLevel: the level is not one of ``game.bots.LEVELS``.
    """
    level = level or job.level
    t0 = time.perf_counter()
    decision = _bot(level, config, job.budget if level == "hard" else None).decide(
        job.view, job.nickname, random.Random(job.seed))
    return Answer(job, decision.action, decision.why, level, time.perf_counter() - t0)


# ---------------------------------------------------------------------------- worker processes
_WORKER_CONFIG: list[GameConfig] = []


def _worker_init(config_path: str | None) -> None:
    _WORKER_CONFIG.append(default_config() if config_path is None else load_config(config_path))


def _think_in_worker(job: Job) -> tuple[dict[str, Any], str, str, float]:
    a = think(job, _WORKER_CONFIG[0])
    return a.action.to_dict(), a.why, a.level, a.seconds


Done = Callable[[Answer | None], None]


class BotPool:
    """Bots thinking in the background: ``workers`` threads, or processes with ``processes=True``.

    Processes keep a bot's thinking off the caller's interpreter altogether (no shared lock with
    a server's event loop); they start on the first job (spawned, never forked from a threaded
    process). Threads suit the game on this machine (no start-up cost, nothing to pack).

    :param time_limit: seconds after which the easy bot decides instead (see the module docstring).
    """

    def __init__(self, config: GameConfig, *, processes: bool = False, workers: int = 1,
                 time_limit: float = TIME_LIMIT) -> None:
        self.config = config
        self.processes = processes
        self.workers = workers
        self.time_limit = time_limit
        self._pool: cf.Executor | None = None
        self._spare: cf.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.late = 0            # decisions the easy bot took over (late or failed)

    def _executor(self) -> cf.Executor:
        with self._lock:
            if self._pool is None:
                if self.processes:
                    self._pool = cf.ProcessPoolExecutor(
                        self.workers, mp_context=multiprocessing.get_context("spawn"),
                        initializer=_worker_init, initargs=(self.config.path,))
                else:
                    self._pool = cf.ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
            return self._pool

    def submit(self, job: Job, done: Done) -> None:
        """Think about ``job`` in the background; ``done(answer)`` is called exactly once, from
        another thread: with the bot's answer, with the easy bot's one if the bot was late or
        failed, or with None if no answer can be had (the pool is closed, or even the easy bot failed).
        """
        if self._closed:
            done(None)
            return
        settled = threading.Event()
        lock = threading.Lock()

        def settle(answer: Answer | None) -> bool:
            with lock:
                if settled.is_set():
                    return False
                settled.set()
            timer.cancel()
            try:
                done(answer)
            except Exception:
                log.exception("a bot's answer could not be handed over")
            return True

        def replace(reason: str) -> None:
            if settled.is_set():
                return
            if self._closed:
                settle(None)
                return
            log.warning("bot %s (%s) %s: the easy bot decides in its place", job.nickname, job.level, reason)
            self.late += 1
            if job.level == FALLBACK_LEVEL and reason != "was late":
                settle(None)
                return
            try:
                spare = self._spare_executor()
                spare.submit(self._fallback, job, settle)
            except RuntimeError:   # closed meanwhile
                settle(None)

        def finished(fut: cf.Future) -> None:
            if settled.is_set():
                return
            try:
                res = fut.result()
            except cf.CancelledError:
                settle(None)
                return
            except Exception as e:
                if isinstance(e, cf.BrokenExecutor):   # a worker died: the next job gets a new pool
                    with self._lock:
                        if self._pool is fut_pool:
                            self._pool = None
                log.error("bot %s (%s) failed on decision %d: %s", job.nickname, job.level, job.index,
                          e, exc_info=e)
                replace("failed")
                return
            if isinstance(res, Answer):
                settle(res)
            else:
                action, why, level, seconds = res
                settle(Answer(job, Action.from_dict(action), why, level, seconds))

        timer = threading.Timer(self.time_limit, replace, ("was late",))
        timer.daemon = True
        try:
            fut_pool = self._executor()
            if self.processes:
                fut = fut_pool.submit(_think_in_worker, job)
            else:
                fut = fut_pool.submit(think, job, self.config)
        except RuntimeError:   # shut down
            done(None)
            return
        timer.start()
        fut.add_done_callback(finished)

    def _spare_executor(self) -> cf.ThreadPoolExecutor:
        with self._lock:
            if self._spare is None:
                self._spare = cf.ThreadPoolExecutor(1, thread_name_prefix="bot-spare")
            return self._spare

    def _fallback(self, job: Job, settle: Callable[[Answer | None], bool]) -> None:
        try:
            settle(think(job, self.config, FALLBACK_LEVEL))
        except Exception:
            log.exception("the easy bot failed too on %s's decision %d", job.nickname, job.index)
            settle(None)

    def close(self) -> None:
        """Stop: jobs not started are dropped, a decision under way is left to finish unseen."""
        self._closed = True
        with self._lock:
            pools = [p for p in (self._pool, self._spare) if p is not None]
            self._pool = self._spare = None
        for p in pools:
            p.shutdown(wait=False, cancel_futures=True)
