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
import os
import random
import threading
import time
from dataclasses import dataclass
from dataclasses import replace as _with
from typing import Any, Callable, Mapping

from game import i18n, runtime
from game.rules.actions import Action
from game.rules.components import GameConfig, default_config, load_config
from game.rules.engine import PLAY, SETUP, Game
from game.rules.views import player_view

from .workers import WorkerProcesses

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
    config: GameConfig | None = None
    """The rules themselves, for rules that come from no file (a server's game read from its
    ``UpdateGame``, :func:`game.rules.views.config_from_view`); None: those of the pool."""
    deadline: float = 0.0
    """``time.time()`` after which nobody waits for this decision any more (the easy bot has
    answered in its place): a worker that comes to it later skips it. 0: none (set by the pool)."""

    language: str | None = None
    """The language the bot's reason (``Answer.why``) is said in, in a worker process (a hint's:
    the player's, :func:`game.i18n.current`); None: the worker's own (English)."""

    def expired(self) -> bool:
        return bool(self.deadline) and time.time() > self.deadline


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
    pid: int = 0                 # the process that thought it (0: this one)
    then: tuple[Action, ...] = ()   # the requests that finish what ``action`` starts (Decision.then)


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
    budget = job.budget if level == "hard" else None
    if job.config is not None:           # rules of their own: a bot for this decision alone
        from game.bots import make_bot
        bot = make_bot(level, job.config, budget=budget)
    else:
        bot = _bot(level, config, budget)
    decision = bot.decide(job.view, job.nickname, random.Random(job.seed))
    return Answer(job, decision.action, decision.why, level, time.perf_counter() - t0, then=decision.then)


# ---------------------------------------------------------------------------- worker processes
_WORKER_CONFIG: list[GameConfig] = []


WORKER_NICENESS = 5
"""How much lower a worker process's priority is than its parent's (where the system has ``nice``):
when the cores are busy, a game's frame loop or a server's event loop comes before a bot's search."""


def _worker_init(config_path: str | None) -> None:
    """A worker process starts: a lower priority, the rules and the bots loaded, and the
    collector's policy (:mod:`game.runtime`). (How it ends with the program that started it, and
    only then: :mod:`game.bots.workers`.)"""
    if hasattr(os, "nice"):
        try:
            os.nice(WORKER_NICENESS)
        except OSError:
            pass
    _WORKER_CONFIG.append(default_config() if config_path is None else load_config(config_path))
    import game.bots  # noqa: F401  (the levels' modules, loaded before the collector's policy applies)
    runtime.settle_collector()


def _think_in_worker(job: Job) -> tuple[dict[str, Any], str, str, float, int, list[dict[str, Any]]] | None:
    if job.expired():   # answered by the easy bot while it waited in the queue: nobody waits for it
        return None
    if job.language is not None:      # a hint: its reason in the player's language
        i18n.use(job.language)
    a = think(job, _WORKER_CONFIG[0])
    return a.action.to_dict(), a.why, a.level, a.seconds, os.getpid(), [t.to_dict() for t in a.then]


def _ready_in_worker() -> int:
    """The first job of a new worker process (:meth:`BotPool.warm`): it is up, with the bots loaded
    (by :func:`_worker_init`)."""
    return os.getpid()


def _process_executor(workers: int, config_path: str | None) -> WorkerProcesses:
    """A pool of ``workers`` spawned processes that end with their owner (:mod:`game.bots.workers`)."""
    return WorkerProcesses(workers, initializer=_worker_init, initargs=(config_path,))


Done = Callable[[Answer | None], None]


class BotPool:
    """Bots thinking in the background: ``workers`` threads, or processes with ``processes=True``.

    Processes keep a bot's thinking off the caller's interpreter altogether (no shared lock with
    a server's event loop or a client's frame loop); they are spawned, never forked from a
    threaded process, on the first job or at :meth:`warm`. A frozen program must call
    ``multiprocessing.freeze_support()`` first thing (``main.py`` does). If worker processes
    cannot start (the system refuses them, or the first one dies before answering), the pool
    says so in the log and thinks on threads from then on (:attr:`mode`, :attr:`why_threads`).
    :meth:`close` ends the workers at once; a worker also ends by itself when the process that
    started it ends, however it ends.

    :param time_limit: seconds after which the easy bot decides instead (see the module docstring).
    """

    def __init__(self, config: GameConfig, *, processes: bool = False, workers: int = 1,
                 time_limit: float = TIME_LIMIT) -> None:
        self.config = config
        self.processes = processes
        self.workers = workers
        self.time_limit = time_limit
        self._pool: cf.Executor | None = None
        self._proven = False     # the process pool has answered once: its workers do start
        self._spare: cf.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.late = 0            # decisions the easy bot took over (late or failed)
        self.why_threads: str | None = None   # why worker processes were given up, if they were

    @property
    def mode(self) -> str:
        """Where the bots think now: ``"processes"`` or ``"threads"``."""
        return "processes" if self.processes else "threads"

    def worker_pids(self) -> list[int]:
        """The process ids of the worker processes alive now (none on threads)."""
        with self._lock:
            pool = self._pool if self.processes else None
        return pool.pids() if isinstance(pool, WorkerProcesses) else []

    def _executor(self) -> cf.Executor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the bot pool is closed")
            if self._pool is None and self.processes:
                try:
                    self._pool = _process_executor(self.workers, self.config.path)
                    self._proven = False
                except (OSError, ValueError, ImportError) as e:
                    self._threads_from_now(f"{type(e).__name__}: {e}", locked=True)
            if self._pool is None:
                self._pool = cf.ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
            return self._pool

    def _threads_from_now(self, why: str, *, locked: bool = False, pool: cf.Executor | None = None) -> None:
        """Worker processes cannot start here: think on threads from now on (said in the log).
        ``pool``: the process pool that failed (nothing is done if it has been replaced already)."""
        if not locked:
            with self._lock:
                if pool is not None and self._pool is not pool:
                    return     # already given up (another job saw it first)
                old = self._give_up_processes(why)
            if old is not None:
                _end(old)
            return
        old = self._give_up_processes(why)
        if old is not None:
            _end(old)

    def _give_up_processes(self, why: str) -> cf.Executor | None:
        if not self.processes:
            return None
        log.warning("bots think on a thread, not in a worker process: worker processes cannot start (%s)", why)
        self.processes, self.why_threads = False, why
        old, self._pool = self._pool, None
        return old

    def warm(self) -> None:
        """Start the worker process now (in the background), so the first decision is not late
        by its start-up. Nothing for threads, or once started."""
        if not self.processes or self._closed:
            return
        try:
            pool = self._executor()
            if not self.processes:
                return
            fut = pool.submit(_ready_in_worker)
        except (OSError, cf.BrokenExecutor) as e:
            self._threads_from_now(f"{type(e).__name__}: {e}")
            return
        except RuntimeError:   # closed meanwhile
            return

        def started(f: cf.Future) -> None:
            if f.cancelled() or self._closed:
                return
            e = f.exception()
            if e is None:
                self._proven = True
            elif isinstance(e, cf.CancelledError):    # the pool was shut down (at exit): not a failure
                return
            elif not self._proven:
                self._threads_from_now(f"{type(e).__name__}: {e}", pool=pool)
        fut.add_done_callback(started)

    def submit(self, job: Job, done: Done) -> Callable[[], None]:
        """Think about ``job`` in the background; ``done(answer)`` is called exactly once, from
        another thread: with the bot's answer, with the easy bot's one if the bot was late or
        failed, or with None if no answer can be had (the pool is closed, or even the easy bot failed).

        Returns ``cancel()``: nobody waits for this decision any more (its game is gone, or
        nobody is at the table); ``done`` is then never called, and the job is dropped if no
        worker has started it. A job the easy bot answered because it was late is dropped the
        same way when a worker comes to it (its ``deadline``): the workers never think about
        decisions nobody waits for.
        """
        if self._closed:
            done(None)
            return _nothing
        job = _with(job, deadline=time.time() + self.time_limit)
        settled = threading.Event()
        lock = threading.Lock()
        futures: list[cf.Future] = []

        def cancel() -> None:
            with lock:
                settled.set()
            timer.cancel()
            for f in futures:
                f.cancel()

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

        def start() -> None:
            """Hand the job to the pool (again, on threads, if processes turn out not to start)."""
            try:
                pool = self._executor()
                fut = pool.submit(_think_in_worker, job) if pool_is_processes(pool) else pool.submit(
                    _think_on_thread, job, self.config, settled)
            except RuntimeError:   # closed
                settle(None)
                return
            except (OSError, cf.BrokenExecutor) as e:   # a worker process could not be started
                self._threads_from_now(f"{type(e).__name__}: {e}")
                start()
                return
            futures.append(fut)
            fut.add_done_callback(lambda f: finished(f, pool))

        def finished(fut: cf.Future, pool: cf.Executor) -> None:
            if settled.is_set():
                return
            if self._closed:
                settle(None)
                return
            try:
                res = fut.result()
            except cf.CancelledError:
                settle(None)
                return
            except Exception as e:
                if isinstance(e, cf.BrokenExecutor):   # a worker died
                    if pool_is_processes(pool) and not self._proven:
                        self._threads_from_now(f"{type(e).__name__}: {e}", pool=pool)   # it never started
                        start()
                        return
                    with self._lock:                   # the next job gets a new pool
                        if self._pool is pool:
                            self._pool = None
                log.error("bot %s (%s) failed on decision %d: %s", job.nickname, job.level, job.index,
                          e, exc_info=e)
                replace("failed")
                return
            if res is None:      # skipped: the easy bot answered it (or answers it now)
                return
            if isinstance(res, Answer):
                settle(res)
            else:
                self._proven = True
                action, why, level, seconds, pid, then = res
                settle(Answer(job, Action.from_dict(action), why, level, seconds, pid,
                              tuple(Action.from_dict(t) for t in then)))

        timer = threading.Timer(self.time_limit, replace, ("was late",))
        timer.daemon = True
        timer.start()
        start()
        return cancel

    def _spare_executor(self) -> cf.ThreadPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the bot pool is closed")
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
        """Stop: jobs not started are dropped, worker processes end now (a decision under way on
        a thread is left to finish unseen). Idempotent."""
        with self._lock:
            self._closed = True
            pools = [p for p in (self._pool, self._spare) if p is not None]
            self._pool = self._spare = None
        for p in pools:
            _end(p)


def _nothing() -> None:
    pass


def _think_on_thread(job: Job, config: GameConfig, settled: threading.Event) -> Answer | None:
    """``think`` on a worker thread, unless nobody waits for the answer any more."""
    if settled.is_set() or job.expired():
        return None
    return think(job, config)


def pool_is_processes(pool: cf.Executor) -> bool:
    return isinstance(pool, WorkerProcesses)


def _end(pool: cf.Executor) -> None:
    """Shut ``pool`` down without waiting for its jobs; its worker processes, if any, end now (in
    order: see :mod:`game.bots.workers`)."""
    pool.shutdown(wait=pool_is_processes(pool), cancel_futures=True)
