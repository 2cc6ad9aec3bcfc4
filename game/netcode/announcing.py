"""The LAN announcement's side of a server, and what a host's page reads of it.

:meth:`Announcing.table_info` says what the announcement tells the network (the table, its host,
the seats taken and free); :meth:`Announcing.host_view` is a host's page's picture of its server,
read at once under the lock. A part of :class:`~.server.Server` (a mixin: its state is the server's).
"""
from __future__ import annotations

import dataclasses
import socket
import time
from dataclasses import dataclass
from typing import Any

from .discovery import TableInfo

ANNOUNCE_INTERVAL = 0.5
"""Seconds between two looks at the lobby for the LAN announcement (only changes are sent)."""


@dataclass(frozen=True)
class HostView:
    """A host's page's picture of its server (:meth:`Server.host_view`): read-only, taken at once."""

    connected: frozenset[str]   # nicknames with a live connection: waiting, at a table or seated
    seated: frozenset[str]      # people (not bots) with a seat in an unfinished game
    table: TableInfo            # the table as the LAN announcement tells it
    away: dict[str, float] = dataclasses.field(default_factory=dict)
    """Seated people not connected whose seat waits for them -> seconds it waits still."""

    def others(self, me: str) -> list[str]:
        """The people connected but ``me``, in alphabetical order."""
        return sorted(n for n in self.connected if n != me)


class Announcing:
    """The LAN announcement of :class:`~.server.Server` (which provides ``lock``, ``waiting``,
    ``rooms``, ``by_nick``, ``options``, ``config``, ``tls_address``, ``announcer``, ``_stopping``
    and ``_call_at``)."""

    lock: Any
    waiting: Any
    rooms: Any
    by_nick: Any
    options: Any
    config: Any
    tls_address: Any
    announcer: Any
    pending_count: Any
    pending_bots: Any
    _stopping: Any
    _call_at: Any

    def table_info(self) -> TableInfo:
        """What the LAN announcement says: the table, its host, the seats taken and free."""
        with self.lock:
            waiting = [s.nickname or "" for s in self.waiting]
            count, bots = self.pending_count, len(self.pending_bots)
            games = sum(1 for r in self.rooms.values() if not r.finished)
            playing = sum(len(r.humans) for r in self.rooms.values() if not r.finished)
        head = waiting[0] if waiting else ""
        host = self.options.announce_host or head
        name = self.options.announce_name or (f"{host}'s table" if host else
                                              f"Masters of Renaissance on {socket.gethostname()[:30]}")
        taken = len(waiting) + bots
        if count is not None:
            free = max(0, count - taken)
        else:
            free = max(0, self.config.max_players - taken) if waiting or not games else 0
        if not waiting and games:
            taken = playing
        return TableInfo(name, host, taken, free, started=games > 0 and not waiting, games=games,
                         tls=self.tls_address[1] if self.tls_address is not None else 0)

    def host_view(self) -> "HostView":
        """What a host's page shows, read at once under the lock: who is connected, who holds a
        seat in an unfinished game, and the table as the LAN announcement tells it."""
        info = self.table_info()
        now = time.monotonic()
        with self.lock:
            connected = frozenset(s.nickname for s in self.by_nick.values() if not s.closed)
            seated = frozenset(n for r in self.rooms.values() if not r.finished for n in r.humans)
            away = {n: max(0.0, until - now) for r in self.rooms.values() if not r.finished
                    for n, until in r.away.items()}
        return HostView(connected, seated, info, away)

    def _announce_tick(self) -> None:
        """Hand the announcer the latest state (it sends only changes, from its own thread)."""
        announcer = self.announcer
        if announcer is None or self._stopping.is_set():
            return
        try:
            announcer.update(self.table_info())
        finally:
            self._call_at(time.monotonic() + ANNOUNCE_INTERVAL, self._announce_tick)
