"""The memory of a long-running server process: the collector kept off its old objects
(:class:`FrozenHeap`), the allocator's free memory given back after a burst of connections or
lines (:class:`GiveBack`) and its resident size (:func:`pid_rss_mb`, for the status line and the
benchmarks)."""
from __future__ import annotations

import gc
import logging
import os
import time
from typing import Any

from game import runtime

log = logging.getLogger("mor.server")


HEAP_PER_CONNECTION = 64
"""Objects a connected player adds to the server's heap, with room to spare (about 41 measured:
10,000 players in 2,500 games brought it from 18,566 objects to 427,482)."""


class FrozenHeap:
    """Keeps the cyclic garbage collector off a long-running server's old objects.

    The server's long-lived objects (games, rooms, connections) hold no reference cycles, yet each
    full collection walks all of them: with 300 games that is a pause of tens of milliseconds in
    the middle of serving. :meth:`tick`, called every fraction of a second, moves every object
    that survived so far to the collector's permanent generation (``gc.freeze``, which costs
    nothing), so collections only walk what was allocated since. Garbage cycles still die young
    as usual; one made of frozen objects waits for the safety valve: every ``check`` seconds the
    frozen heap is counted, and once it has grown to ``growth`` times its size after the last
    full collection (plus ``slack`` objects), everything is unfrozen and collected once, then
    frozen again.

    For a process that runs one server (``server.py``); in-process test servers leave the
    collector alone. A full collection holds the interpreter for a while (264 ms with 10,000
    players, about 430,000 objects), so the players a server is made for are no growth:
    :meth:`for_connections` adds HEAP_PER_CONNECTION objects a connection to the slack, and
    the valve opens only past what a full server explains (a leak).
    """

    def __init__(self, growth: float = 2.0, slack: int = 100_000, check: float = 30.0) -> None:
        self.growth = growth
        self.slack = slack
        self.check = check
        self.full_collections = 0
        self._base = 0
        self._next_check = 0.0

    @classmethod
    def for_connections(cls, connections: int, **kw: Any) -> "FrozenHeap":
        """A frozen heap for a server of ``connections`` players (its ``max_connections``)."""
        return cls(slack=100_000 + HEAP_PER_CONNECTION * connections, **kw)

    def start(self) -> None:
        """Collect once, then freeze what is there (call after the server has started)."""
        self._full()

    def tick(self) -> None:
        gc.freeze()
        now = time.monotonic()
        if now >= self._next_check:   # counting walks the whole heap: not at every tick
            self._next_check = now + self.check
            if gc.get_freeze_count() > self.growth * self._base + self.slack:
                self._full()

    def _full(self) -> None:
        t0 = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self._base = gc.get_freeze_count()
        self._next_check = time.monotonic() + self.check
        self.full_collections += 1
        log.info("full garbage collection: %d found, %d objects kept, %.1f ms",
                 found, self._base, 1000 * (time.perf_counter() - t0))

    def stop(self) -> None:
        gc.unfreeze()


BURST = 256
"""Connections opened since memory was last given back that make a burst worth giving back after."""

BUSY = 16
"""Connections opened in one second that make the door busy (not quiet yet)."""

BURST_LINES = 5_000
"""Lines answered since memory was last given back that make a burst worth giving back after
(swap/undo churn from 32 connections at their line rate: some 350 a second)."""

BUSY_LINES = 200
"""Lines answered in one second that make the server busy (not quiet yet)."""


class GiveBack:
    """Gives the allocator's free memory back to the system once the server has been quiet for
    ``after`` seconds after a burst: of connections (BURST of them at least), or of lines
    (BURST_LINES).

    A flood of connections (TLS handshakes above all: each builds its SSL state) leaves glibc's
    heap grown, its freed memory kept resident for good (measured: 29 MB to 63 MB, still 63 MB
    40 s later). So does a churn of requests from a few connections (32 of them taking back and
    making again a request at the line rate for 30 s: an ``UpdateGame`` of some 20 KB to the
    table at each undo, 1.8 MB kept; no connection opened, so no burst of them). ``malloc_trim(0)``
    (:func:`game.runtime.give_back`) hands it back in a few milliseconds; it is done once a burst
    is over, not while connections or lines keep coming (whose memory would only be taken
    again). :meth:`tick` is the janitor's, every second, with the number of connections opened
    and of lines answered since the start.
    """

    def __init__(self, after: float) -> None:
        self.after = after
        self.given = 0                 # times memory was given back
        self._opened = 0               # connections opened at the last tick
        self._lines = 0                # lines answered at the last tick
        self._since = 0                # opened since memory was last given back
        self._since_lines = 0          # answered since memory was last given back
        self._busy_at = 0.0            # the last tick that saw BUSY connections or BUSY_LINES lines a second
        self._at = 0.0

    def tick(self, now: float, opened: int, lines: int) -> None:
        new, new_lines = opened - self._opened, lines - self._lines
        self._opened, self._lines = opened, lines
        self._since += new
        self._since_lines += new_lines
        span = max(1.0, now - self._at)
        if new >= BUSY * span or new_lines >= BUSY_LINES * span:
            self._busy_at = now
        self._at = now
        if self.after <= 0 or now - self._busy_at < self.after or (
                self._since < BURST and self._since_lines < BURST_LINES):
            return
        before = pid_rss_mb()
        t0 = time.perf_counter()
        if runtime.give_back():
            log.info("memory given back after %d connections and %d lines: %.1f MB resident, now %.1f MB "
                     "(%.1f ms)", self._since, self._since_lines, before, pid_rss_mb(),
                     1000 * (time.perf_counter() - t0))
        self.given += 1
        self._since = self._since_lines = 0


def pid_rss_mb(pid: int | None = None) -> float:
    """Resident memory of a process in MB (Linux ``/proc``), for benchmarks and logs."""
    path = f"/proc/{pid or os.getpid()}/status"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
