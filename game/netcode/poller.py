"""One interface over the operating system's readiness notification, for the server's loop and
the benchmarks' load generator (``bench/lib/connection_group.py``): epoll on Linux (level- or
edge-triggered per descriptor), a ``selectors`` selector elsewhere."""
from __future__ import annotations

import select
import selectors


class Poller:
    """The loop's view of epoll: ``register``/``modify``/``unregister`` a file descriptor for
    :data:`IN` and/or :data:`OUT`, and ``poll(timeout)`` returning ``(fd, events)`` pairs, where
    any bit of :data:`READABLE` means "read it" (data, an error or a hang-up: the read tells
    which). A descriptor registered with ``edge=True`` is reported only when something new
    happens, and its events then include a bit of :data:`HANGUP` when the peer has closed (or
    the socket failed), so that a reader that stops at a short read knows to read on to the end.
    :meth:`create` gives the epoll one on Linux, else :class:`SelectorPoller`."""

    IN: int = getattr(select, "EPOLLIN", 1)
    OUT: int = getattr(select, "EPOLLOUT", 4)
    HANGUP: int = (getattr(select, "EPOLLRDHUP", 0x2000) | getattr(select, "EPOLLHUP", 16)
                   | getattr(select, "EPOLLERR", 8))
    READABLE: int = IN | HANGUP

    @staticmethod
    def create() -> "Poller | SelectorPoller":
        return Poller() if hasattr(select, "epoll") else SelectorPoller()

    def __init__(self) -> None:
        self._ep = select.epoll()
        self._count = 0
        self._edge = select.EPOLLET | select.EPOLLRDHUP

    def register(self, fd: int, events: int, edge: bool = False) -> None:
        self._ep.register(fd, events | self._edge if edge else events)
        self._count += 1

    def modify(self, fd: int, events: int, edge: bool = False) -> None:
        self._ep.modify(fd, events | self._edge if edge else events)

    def unregister(self, fd: int) -> None:
        self._ep.unregister(fd)
        self._count -= 1

    def poll(self, timeout: float | None, max_events: int = 0) -> list[tuple[int, int]]:
        """Wait up to ``timeout`` seconds (None: forever) and return what is ready: all of it, or
        the first ``max_events`` (the rest are returned by the next calls, in order: epoll keeps
        them ready, edge-triggered ones included)."""
        n = self._count + 1
        return self._ep.poll(-1 if timeout is None else timeout, min(n, max_events) if max_events else n)

    def close(self) -> None:
        self._ep.close()


class SelectorPoller:
    """:class:`Poller` on a ``selectors`` selector, level-triggered (where there is no epoll). A
    descriptor modified to watch nothing is taken off the selector until it watches again."""

    IN = Poller.IN
    OUT = Poller.OUT

    def __init__(self) -> None:
        self._sel = selectors.DefaultSelector()

    @staticmethod
    def _events(events: int) -> int:
        return ((selectors.EVENT_READ if events & Poller.IN else 0)
                | (selectors.EVENT_WRITE if events & Poller.OUT else 0))

    def register(self, fd: int, events: int, edge: bool = False) -> None:
        self._sel.register(fd, self._events(events))

    def modify(self, fd: int, events: int, edge: bool = False) -> None:
        ev = self._events(events)
        watched = fd in self._sel.get_map()
        if not ev:
            if watched:
                self._sel.unregister(fd)
        elif watched:
            self._sel.modify(fd, ev)
        else:
            self._sel.register(fd, ev)

    def unregister(self, fd: int) -> None:
        if fd in self._sel.get_map():
            self._sel.unregister(fd)

    def poll(self, timeout: float | None, max_events: int = 0) -> list[tuple[int, int]]:
        """As :meth:`Poller.poll`, but always all of it (``max_events`` is ignored: a level-triggered
        selector reports in descriptor order, so a cap would serve the same descriptors first)."""
        return [(key.fd, (Poller.IN if mask & selectors.EVENT_READ else 0)
                 | (Poller.OUT if mask & selectors.EVENT_WRITE else 0))
                for key, mask in self._sel.select(timeout)]

    def close(self) -> None:
        self._sel.close()
