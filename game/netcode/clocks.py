"""The server's connection clocks: heartbeats, and the time limits of a connection that does not
play.

A connection gets ``ReqHeartbeat`` after ``heartbeat`` seconds without input and is closed after
twice that; it is closed (told why first) when it has not joined within ``join_time``, or has
stayed outside a game in progress for ``lobby_time``; a TLS handshake not over is closed when
silent. Each connection is looked at only when one of its deadlines may have come: a heap of
deadlines holding each connection by a weak reference (so nothing of a closed connection is kept),
at most :data:`WATCH_BATCH` connections a wake-up. The work follows the deadlines, not the number
of connections: 10,000 players cost no pause every second.

The transport owns the clocks and runs :meth:`ConnectionClocks.check_due` from a timer; the clocks
close a connection through the ``close`` function they are given. What they close is logged
through the server's :class:`~.event_log.EventLog` (a stranger can open silent connections at
will: a few lines an interval, the rest summed per address).
"""
from __future__ import annotations

import heapq
import logging
import weakref
from typing import Any, Callable

from .event_log import EventLog
from .server_messages import err_protocol, req_heartbeat
from .server_words import said

log = logging.getLogger("mor.server")

WATCH_TICK = 0.05
"""Seconds at least between two looks at the connections' clocks: the deadlines that come in
between are seen together."""
WATCH_BATCH = 128
"""Connections looked at in one wake-up at most; those left wait for the next wake-up (thousands
connecting at once come due at once: their heartbeats are spread over a few wake-ups)."""
WATCH_INTERVAL_MAX = 1.0
"""Seconds at most between two runs of the watch (the head of the waiting list is watched too)."""



class ConnectionClocks:
    """The deadlines of every connection (see the module's docstring).

    :param close: ``close(session)`` closes a connection (and runs its player's quit routine).
    :param looked: ``looked(count)`` is told how many connections each run looked at (stall_log).
    :param events: where closings are logged, summed (the server's; by default one of their own).
    """

    def __init__(self, options: Any, close: Callable[[Any], None], looked: Callable[[int], None],
                 events: EventLog | None = None) -> None:
        self.options = options
        self.events = events if events is not None else EventLog(log)
        self._close = close
        self._looked = looked
        self.heap: list[tuple[float, int, weakref.ref[Any]]] = []   # (when to look, number, connection)
        self._dead = 0              # entries in it of connections closed since

    def interval(self) -> float:
        o = self.options
        times = [t for t in (o.heartbeat, o.join_time, o.lobby_time, o.head_time) if t > 0]
        return max(0.05, min([WATCH_INTERVAL_MAX] + [t / 4 for t in times]))

    def add(self, s: Any, due: float) -> None:
        """Look at the connection ``s`` again at ``due``: its one entry in the connections' clocks
        (by a weak reference, so a closed connection is freed at once; its entry is dropped
        when it comes up)."""
        heapq.heappush(self.heap, (due, s.number, weakref.ref(s)))

    def dropped(self, live: int) -> None:
        """A connection closed: its entry in the clocks is dead. Once the dead outnumber the live
        (and a thousand more), the heap is rebuilt without them, so a flood of connections opened
        and closed leaves no trace there either."""
        self._dead += 1
        if self._dead > live + 1000:
            self.heap = [e for e in self.heap if (s := e[2]()) is not None and not s.closed]
            heapq.heapify(self.heap)
            self._dead = 0

    def check_due(self, now: float) -> bool:
        """Look at the connections whose time has come, WATCH_BATCH at most; True if more are due."""
        clocks = self.heap
        pop, push = heapq.heappop, heapq.heappush
        looked = 0
        while clocks and clocks[0][0] <= now:
            if looked >= WATCH_BATCH:
                self._looked(looked)
                return True
            _, number, ref = pop(clocks)
            s = ref()
            if s is None or s.closed:
                self._dead = max(0, self._dead - 1)
                continue
            if s.goodbye:   # closing within WRITER_FLUSH_TIMEOUT
                continue
            looked += 1
            due = self.check(s, now)
            if due is not None:
                push(clocks, (due, number, ref))
        self._looked(looked)
        return False

    def check(self, s: Any, now: float) -> float | None:
        """Apply the time limits to one connection; returns when to look at it again (None: it is
        closed). Input only pushes its deadlines back, so it is never looked at too late: at
        worst too early, and then its next deadline is computed again."""
        o = self.options
        beat = o.heartbeat
        if s.handshake:   # a TLS handshake not over: nothing may be sent; closed if silent
            if now - s.last_input >= 2 * beat:
                self.events.event("silent TLS handshakes closed", s.ip, "%r TLS handshake silent for %.1f s: closing",
                                  s, now - s.last_input)
                self._close(s)
                return None
            return s.last_input + 2 * beat
        if s.throttled or s.pending:
            s.last_input = now   # not silent: what it sent waits for its turn
        silent = now - s.last_input
        if silent >= 2 * beat and s.pinged:
            self.events.event("silent connections closed", s.ip, "%r silent for %.1f s: closing", s, silent)
            self._close(s)
            return None
        if silent >= beat and not s.pinged:
            s.pinged = True
            s.send(req_heartbeat())
        due = s.last_input + (2 * beat if s.pinged else beat)
        if s.watching is not None:   # a watcher (no ReqJoin): kept while there is something to watch
            if s.watching.live:
                s.since = now
            if not o.lobby_time:
                return due
            if now - s.since >= o.lobby_time:
                self.turn_out(s, said("limits.no_game", seconds=f"{o.lobby_time:g}"), "watched no game")
                return None
            return min(due, now + max(self.interval(), o.lobby_time / 16))
        if s.nickname is None:
            if o.join_time:
                if now - s.opened >= o.join_time:
                    self.turn_out(s, said("limits.no_join", seconds=f"{o.join_time:g}"), "sent no ReqJoin")
                    return None
                due = min(due, s.opened + o.join_time)
            return due
        room = s.room
        if room is not None and not room.finished and not s.left:
            s.since = now
            if o.lobby_time:   # its game may end any moment: the lobby's clock starts then
                due = min(due, now + max(self.interval(), o.lobby_time / 16))
        elif o.lobby_time:
            if now - s.since >= o.lobby_time:
                self.turn_out(s, said("limits.no_game", seconds=f"{o.lobby_time:g}"), "joined no game")
                return None
            due = min(due, s.since + o.lobby_time)
        return due

    def turn_out(self, s: Any, text: str, why: str) -> None:
        """Close a connection that holds a place without using it, telling it why first."""
        self.events.event(f"connections that {why} in time closed", s.ip, "%r %s in time: closing", s, why)
        s.send(err_protocol(text))
        self._close(s)   # which sends what it can of the queue
