"""Worker processes that end with the program that started them, and only when it says so.

:class:`WorkerProcesses` is a :class:`concurrent.futures.Executor` over ``workers`` spawned
processes, each fed its jobs one at a time over a pipe of its own. It is made for the bots'
worker (:class:`game.bots.driver.BotPool`), the hint's and the arena's batches of games
(:func:`game.bots.arena.play_many`), whose owner is a game window, a terminal, a server or a
bench, and it differs from :class:`~concurrent.futures.ProcessPoolExecutor` in what happens at
the end:

- **The owner decides.** A worker ignores SIGINT, SIGTERM and SIGHUP: a Ctrl-C typed in the
  terminal (the whole foreground process group gets it), a ``kill`` of the group or a closed
  terminal reach the owner, which ends its workers in order. SIGINT is blocked while a worker
  starts (as :mod:`multiprocessing.resource_tracker` does for its own process), so a Ctrl-C
  typed while the worker still imports prints no ``KeyboardInterrupt`` traceback from it.
- **Ended in order.** :meth:`~WorkerProcesses.shutdown` drops the jobs not started, closes the
  pipe of each idle worker (it ends by itself on seeing that), kills those still thinking about
  a job nobody waits for any more, and reaps them all: no worker is left, none is logged as
  "did not end". The same is done at the interpreter's exit for every pool not shut down
  (before :mod:`multiprocessing`'s own exit handler, which would wait for them).
- **An orphan notices.** A worker whose owner ends however it ends (SIGKILL, a crash) exits:
  its pipe's far end is closed, and a thread watches the owner's process besides, for a worker
  in the middle of a job.
- **Nothing to leak.** Pipes only: no named semaphore or shared queue, so a killed owner leaves
  nothing for :mod:`multiprocessing.resource_tracker` to clean up and warn about.

A job's function and arguments must be picklable (a module-level function); so must its result.
An exception raised by the job is raised by the future's ``result()``. A worker that dies breaks
the pool: every job not finished fails with :class:`~concurrent.futures.process.BrokenProcessPool`,
as in the standard pool; a job cut short by the shutdown raises
:class:`~concurrent.futures.CancelledError`.
"""
from __future__ import annotations

import atexit
import concurrent.futures as cf
import multiprocessing
import multiprocessing.connection
import multiprocessing.util  # noqa: F401  (its exit handler is registered before ours: ours runs first)
import os
import queue
import signal
import threading
import traceback
import weakref
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

QUIET_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals a worker ignores: they are for its owner."""

END_GRACE = 0.5
"""Seconds an idle worker has to end by itself once its pipe is closed, before it is killed."""

_LIVE: "weakref.WeakSet[WorkerProcesses]" = weakref.WeakSet()


class RemoteTraceback(Exception):
    """Where a job failed in its worker process (the ``__cause__`` of the exception it raised)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class _Worker:
    def __init__(self, process: Any, conn: Any) -> None:
        self.process = process
        self.conn = conn                 # the owner's end of the worker's pipe (used by its feeder only)
        self.busy = False                # a job of it is under way
        self.reaped = False


class WorkerProcesses(cf.Executor):
    """``workers`` spawned processes, started at the first job, each running
    ``initializer(*initargs)`` first; see the module docstring.

    :raises OSError: (from :meth:`submit`) the system refuses to start a process.
    """

    def __init__(self, workers: int = 1, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        if workers < 1:
            raise ValueError("at least one worker process")
        self._count = workers
        self._initializer = initializer
        self._initargs = initargs
        self._ctx = multiprocessing.get_context("spawn")   # never forked: the owner has threads
        self._jobs: queue.SimpleQueue[tuple[cf.Future, Callable[..., Any], tuple[Any, ...]] | None] = \
            queue.SimpleQueue()
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._ending = threading.Lock()  # one thread ends the workers; another one waits for it
        self._shutdown = False
        self._broken: str | None = None
        _LIVE.add(self)

    # ---------------------------------------------------------------- the Executor interface
    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        if kwargs:
            raise TypeError("a worker process's job takes positional arguments only")
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._broken is not None:
                raise BrokenProcessPool(self._broken)
            if not self._workers:
                self._start()
            fut: cf.Future = cf.Future()
            self._jobs.put((fut, fn, args))
            return fut

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more jobs; with ``cancel_futures``, the jobs not started are dropped (else they are
        done first). The workers then end (see the module docstring); ``wait``: return once
        they have (at most about :data:`END_GRACE` seconds)."""
        with self._lock:
            if not self._shutdown:
                self._shutdown = True
                if cancel_futures:
                    self._drop_waiting(None)
                for _ in self._workers:
                    self._jobs.put(None)     # each feeder ends after the jobs before it
        if cancel_futures or not self._workers:
            self._end_workers() if wait else threading.Thread(
                target=self._end_workers, name="end-workers", daemon=True).start()
        elif wait:
            for w in list(self._workers):
                w.process.join()
            self._end_workers()

    def pids(self) -> list[int]:
        """The process ids of the workers alive now."""
        with self._lock:
            workers = list(self._workers)
        return [w.process.pid for w in workers if not w.reaped and not _ended(w.process)]

    # ---------------------------------------------------------------- the owner's side
    def _start(self) -> None:
        """Start the workers (under ``self._lock``), SIGINT blocked meanwhile in this thread: a
        blocked signal stays blocked in a process started from it, until the worker ignores it."""
        masked = hasattr(signal, "pthread_sigmask")
        if masked:
            from multiprocessing import resource_tracker
            resource_tracker.ensure_running()     # (it unblocks SIGINT when it starts: start it first)
            old = signal.pthread_sigmask(signal.SIG_BLOCK, QUIET_SIGNALS)
        try:
            for _ in range(self._count):
                mine, theirs = self._ctx.Pipe()
                p = self._ctx.Process(target=_serve, args=(theirs, self._initializer, self._initargs),
                                      name="bot-worker", daemon=True)
                try:
                    p.start()
                finally:
                    theirs.close()      # the worker's end is the worker's alone: EOF when it ends
                w = _Worker(p, mine)
                self._workers.append(w)
                threading.Thread(target=self._feed, args=(w,), name=f"feed-{p.pid}", daemon=True).start()
        finally:
            if masked:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def _feed(self, w: _Worker) -> None:
        """Hand ``w`` the jobs, one at a time, and their answers to their futures."""
        while True:
            item = self._jobs.get()
            if item is None:
                break
            fut, fn, args = item
            if not fut.set_running_or_notify_cancel():
                continue
            if self._broken is not None:     # (taken just as another worker died)
                fut.set_exception(BrokenProcessPool(self._broken))
                continue
            w.busy = True
            try:
                w.conn.send((fn, args))
            except (OSError, EOFError) as e:
                self._lost(w, fut, e)
                return
            except Exception as e:          # the job cannot be pickled: that job fails, not the pool
                w.busy = False
                fut.set_exception(e)
                continue
            try:
                kind, value, where = w.conn.recv()
            except (OSError, EOFError) as e:
                self._lost(w, fut, e)
                return
            w.busy = False
            if kind == "ok":
                fut.set_result(value)
            elif kind == "error":
                if where:
                    value.__cause__ = RemoteTraceback(where)
                fut.set_exception(value)
            else:                            # "broken": its initializer failed (``where`` says how)
                self._lost(w, fut, RuntimeError(where))
                return
        w.conn.close()                       # an idle worker ends on seeing this

    def _lost(self, w: _Worker, fut: cf.Future, e: BaseException) -> None:
        """``w`` died (or was killed by the shutdown) under a job: the pool is broken."""
        w.busy = False
        with self._lock:
            ended = self._shutdown
            if not ended and self._broken is None:
                self._broken = f"a worker process ended abruptly (its pipe: {type(e).__name__} {e})".replace(" )", ")")
            why = self._broken or "the pool was shut down"
            self._drop_waiting(None if ended else why)
            for _ in self._workers:
                self._jobs.put(None)
        # a job cut short by the shutdown is cancelled (nobody waits for it); else the pool is broken
        fut.set_exception(cf.CancelledError(why) if ended else BrokenProcessPool(why))
        w.conn.close()
        if not ended:
            self._end_workers()

    def _drop_waiting(self, why: str | None) -> None:
        """Cancel (``why`` None) or fail every job not started."""
        while True:
            try:
                item = self._jobs.get_nowait()
            except queue.Empty:
                return
            if item is None:
                continue
            fut = item[0]
            if why is None:
                fut.cancel()
            elif fut.set_running_or_notify_cancel():
                fut.set_exception(BrokenProcessPool(why))

    def _end_workers(self) -> None:
        """Idle workers end by themselves (their pipe closed by their feeder), busy ones are
        killed; all are reaped. Idempotent; safe from any thread."""
        with self._ending:
            workers = [w for w in self._workers if not w.reaped]
            for w in workers:
                if w.busy:
                    _kill(w.process)        # thinking about a job nobody waits for any more
            for w in workers:
                if not _ended(w.process, END_GRACE):
                    _kill(w.process)        # (an idle worker ends at once: this is a last resort)
                    _ended(w.process, END_GRACE)
                w.process.join(timeout=0.5)     # reaped: no zombie, and no longer our child
                w.reaped = True


def _ended(process: Any, timeout: float = 0.0) -> bool:
    """Whether ``process`` has ended (within ``timeout`` seconds), whoever reaps it: read from its
    sentinel, never from ``waitpid`` (another thread may reap it)."""
    try:
        return bool(multiprocessing.connection.wait([process.sentinel], timeout))
    except (OSError, ValueError):   # its sentinel is closed: long ended
        return True


def _kill(process: Any) -> None:
    try:
        process.kill()
    except (OSError, ValueError, AttributeError):
        pass


@atexit.register
def _end_all() -> None:
    """On the interpreter's way out: every pool not shut down ends its workers now."""
    for pool in list(_LIVE):
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------- the worker's side
def _serve(conn: Any, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """A worker's life: its signals left to its owner, its initializer, then one job after another
    until its pipe is closed or its owner ends."""
    for sig in QUIET_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, QUIET_SIGNALS)   # (a Ctrl-C held back: now ignored)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="owner-watch", daemon=True).start()
    if initializer is not None:
        try:
            initializer(*initargs)
        except BaseException:
            _reply(conn, ("broken", None, "the worker's initializer failed:\n" + traceback.format_exc()))
            return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):     # closed by the owner, or the owner is gone
            return
        fn, args = job
        try:
            answer: tuple[str, Any, str | None] = ("ok", fn(*args), None)
        except BaseException as e:
            answer = ("error", e, traceback.format_exc())
        if not _reply(conn, answer):
            return


def _reply(conn: Any, answer: tuple[str, Any, str | None]) -> bool:
    try:
        conn.send(answer)
    except (OSError, EOFError):
        return False
    except Exception as e:              # an answer that cannot be pickled: said as an error
        try:
            conn.send(("error", RuntimeError(f"the job's answer cannot be sent back: {e!r}"), answer[2]))
        except (OSError, EOFError):
            return False
    return True


def _exit_with(parent: Any) -> None:
    parent.join()      # returns when the owner has ended, however it ended
    os._exit(0)
