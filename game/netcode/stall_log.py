"""``stall_log`` (a diagnostic of the server's loop): what one long wake-up ran.

Off unless the server runs with ``stall_log`` (milliseconds): then each wake-up of the loop
counts the timers and calls it ran (with their CPU time) and the lines it answered by type, and
one WARNING line tells of a wake-up longer than the threshold.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

log = logging.getLogger("mor.server")


class StallLog:
    """The count of one wake-up. ``ran`` is None between wake-ups (and always, when off), so the
    loop checks ``stall.ran is not None`` before counting anything."""

    def __init__(self, threshold_ms: float) -> None:
        self.threshold = threshold_ms / 1000
        self.ran: dict[str, tuple[int, float]] | None = None   # what ran in this wake-up: (count, CPU s)
        self.types: dict[str, int] = {}                         # the lines it answered, by type
        self._at: tuple[float, float, int] = (0.0, 0.0, 0)     # this wake-up's start: clock, CPU, lines

    def begin(self, lines: int) -> None:
        self._at = (time.perf_counter(), time.thread_time(), lines)
        self.ran = {}
        self.types = {}

    def end(self, ready: int, lines: int, connections: int) -> None:
        """One line for a wake-up longer than the threshold, from the poll's return to the next
        poll: on the clock and in the loop thread's CPU time (the difference is time spent waiting
        for a core or the GIL), the connections reported ready, the lines answered, the timers and
        calls that ran (with their count and CPU ms)."""
        t0, c0, before = self._at
        wall = time.perf_counter() - t0
        if wall >= self.threshold and self.ran is not None:
            ran = ", ".join(f"{name} x{n} {1000 * cpu:.1f} ms"
                            for name, (n, cpu) in sorted(self.ran.items(), key=lambda kv: -kv[1][1]))
            types = ", ".join(f"{t} {n}" for t, n in sorted(self.types.items(), key=lambda kv: -kv[1]))
            log.warning("stall: wake-up of %.1f ms (CPU %.1f ms): %d ready, %d lines, %d connections; %s; %s",
                        1000 * wall, 1000 * (time.thread_time() - c0), ready, lines - before,
                        connections, ran or "no timers", types or "no lines")
        self.ran = None

    def count(self, fn: Callable[..., Any] | str, cpu: float, count: int = 1) -> None:
        """``fn`` ran ``count`` times for ``cpu`` seconds of CPU (call only while ``ran`` is set)."""
        name = fn if isinstance(fn, str) else getattr(fn, "__name__", repr(fn))
        n, total = self.ran.get(name, (0, 0.0))   # type: ignore[union-attr]
        self.ran[name] = (n + count, total + cpu)  # type: ignore[index]

    def line(self, kind: str) -> None:
        """A line of this type was answered (call only while ``ran`` is set)."""
        self.types[kind] = self.types.get(kind, 0) + 1

    def looked(self, count: int) -> None:
        """The connections' watch looked at ``count`` connections (counted only while ``ran`` is set)."""
        if self.ran is not None:
            n, cpu = self.ran.get("watch_looked_at", (0, 0.0))
            self.ran["watch_looked_at"] = (n + count, cpu)
