"""Log lines of events a stranger can repeat at will, summed up so they cannot flood the log.

A refused invite code, a failed TLS handshake, a sit at a table, a departure and a request that
met a bug of the server's are each worth a line to an operator, but a stranger who repeats one 5,000 times a second would write 60 MB of log
a minute at the default level. :class:`EventLog` keeps, per kind of event and per interval, the
first few lines as they come (the first of each address among them, up to a cap), counts the rest
per address, and says them in one line at the interval's end::

    refused invite codes: 33,012 more from 2 addresses in the last 10 s (each at DEBUG):
    127.0.0.2: 33,000; 127.0.0.3: 12

so a kind writes at most ``most + 1`` lines an interval, whatever the flood. Every event is also
logged at DEBUG, one line each, for an operator who wants them all.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

INTERVAL = 10.0
"""Seconds an interval lasts: a kind's count is summed up at its end."""

FIRST = 3
"""Events of a kind logged as they come in each interval, from any address."""

MOST = 10
"""Events of a kind logged as they come in each interval at most: past FIRST, only the first of an
address not seen yet in the interval."""

SHOWN_ADDRESSES = 3
"""Addresses named in a summary (those with the most events), the others counted."""


class _Kind:
    __slots__ = ("since", "shown", "seen", "counts", "level")

    def __init__(self, now: float, level: int) -> None:
        self.since = now
        self.shown = 0                       # lines logged as they came this interval
        self.seen: set[str] = set()          # addresses of the lines logged this interval
        self.counts: dict[str, int] = {}     # address -> events not logged one by one
        self.level = level


class EventLog:
    """Per-kind summed log lines (see the module's docstring). ``clock`` is injected for tests.

    Call :meth:`flush` now and then (the server's janitor does, every second) so a flood's summary
    is written when its interval ends, not at the kind's next event.
    """

    def __init__(self, logger: logging.Logger, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = logger
        self.interval = interval
        self.clock = clock
        self._kinds: dict[str, _Kind] = {}

    def event(self, kind: str, address: str, msg: str, *args: Any, level: int = logging.INFO,
              exc_info: bool = False) -> None:
        """One event of ``kind`` (plural words, e.g. "refused invite codes") from ``address``: its
        line ``msg % args`` is logged at ``level`` if it is among the interval's first, else counted.
        ``exc_info``: the exception being handled is logged with it (its traceback)."""
        now = self.clock()
        k = self._kinds.get(kind)
        if k is not None and now - k.since >= self.interval:
            self._summary(kind, k, now)
            k = None
        if k is None:
            k = self._kinds[kind] = _Kind(now, level)
        if k.shown < FIRST or (k.shown < MOST and address not in k.seen):
            k.shown += 1
            k.seen.add(address)
            self.log.log(level, msg, *args, exc_info=exc_info, stacklevel=2)
            return
        k.counts[address] = k.counts.get(address, 0) + 1
        if self.log.isEnabledFor(logging.DEBUG):
            self.log.debug(msg, *args, exc_info=exc_info, stacklevel=2)

    def flush(self) -> None:
        """Write the summary of every interval that has ended."""
        now = self.clock()
        for kind, k in list(self._kinds.items()):
            if now - k.since >= self.interval:
                self._summary(kind, k, now)

    def _summary(self, kind: str, k: _Kind, now: float) -> None:
        del self._kinds[kind]
        if not k.counts:
            return
        worst = sorted(k.counts.items(), key=lambda kv: -kv[1])
        total = sum(k.counts.values())
        named = "; ".join(f"{address}: {n:,}" for address, n in worst[:SHOWN_ADDRESSES])
        more = len(worst) - SHOWN_ADDRESSES
        self.log.log(k.level, "%s: %s more from %d address%s in the last %.0f s (each at DEBUG): %s%s",
                     kind, f"{total:,}", len(worst), "" if len(worst) == 1 else "es", now - k.since,
                     named, f"; and {more} more addresses" if more > 0 else "")
