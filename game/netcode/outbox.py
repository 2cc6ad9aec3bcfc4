"""What the server sends: each connection's output, flushed without blocking, and what it may hold.

The server's parts queue their replies on each connection (:meth:`.connection.Session.send`);
the loop (:mod:`.transport`) flushes them with non-blocking ``send`` once a connection's input is
handled, and asks the poller for ``OUT`` only while a connection's buffer is not empty.

A client that does not read is dropped: past ``max_output`` bytes queued for it
(:data:`MAX_QUEUED_BYTES`), or, while more than ``max_output_total`` bytes are queued for everyone,
past a sixteenth of that. A connection that said goodbye is closed once flushed, or after
:data:`WRITER_FLUSH_TIMEOUT` seconds.
"""
from __future__ import annotations

import logging
import ssl
import time
from typing import Any

from .connection import Session
from .poller import Poller

log = logging.getLogger("mor.server")

_IN = Poller.IN
_OUT = Poller.OUT

MAX_QUEUED_BYTES = 4 * 1024 * 1024
"""A client with more than this many bytes not yet taken by its socket is not reading: it is
dropped (read at each flush, so tests may lower it)."""

WRITER_FLUSH_TIMEOUT = 2.0
"""Seconds a closing connection (after ``ResGoodbye``) may take to be sent what is queued."""


class Outbox:
    """The sending side of :class:`~.transport.Transport` (which provides the poller, the
    connections, ``options``, ``events``, ``_handshake``, ``_close`` and ``_call_at``)."""

    options: Any
    events: Any
    queued: int
    _dirty: list[Session]
    _poller: Any

    def _last_word(self, s: Session, data: bytes) -> None:
        """Send ``data`` after what is queued for ``s``, as far as its socket takes it now: for
        ``stop``, once the loop has ended (nothing is flushed after that)."""
        if s.closed or s.handshake:
            return
        s.out += data
        self.queued += len(data)
        try:
            n = s.sock.send(s.out)
        except (OSError, ValueError):   # full, gone, or a TLS socket that wants to read first
            return
        self.queued -= n
        del s.out[:n]

    def _flush_dirty(self) -> None:
        dirty = self._dirty
        self._dirty = []
        for s in dirty:
            s.dirty = False
            if not s.closed:
                try:
                    self._flush(s)
                except Exception as e:   # (summed: a stranger may repeat it, see transport._handle)
                    self.events.event(f"connections closed on an error inside the server ({type(e).__name__})",
                                      s.ip, "%r: unexpected error", s, level=logging.ERROR, exc_info=True)
                    self._close(s)

    def _flush(self, s: Session) -> None:
        """Send what the socket takes now; watch for OUT only while something is left. A
        connection with more than MAX_QUEUED_BYTES left is not reading: it is dropped."""
        if s.handshake:
            self._handshake(s)
            return
        out = s.out
        if out:
            try:
                n = s.sock.send(out)
            except (BlockingIOError, InterruptedError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
                n = 0
            except OSError as e:
                self.events.event("connection errors", s.ip, "%r cannot be written to: %s", s, e)
                self._close(s)
                return
            self.queued -= n
            if n == len(out):
                out.clear()
            elif n:
                del out[:n]
        if out:
            limit = self.options.max_output or MAX_QUEUED_BYTES
            if len(out) > limit:
                log.warning("%r is not reading (%d bytes queued): dropping it", s, len(out))
                self._close(s)
                return
            total = self.options.max_output_total
            if total and self.queued > total and len(out) > min(limit, total) // 16:
                log.warning("%r is not reading (%d bytes queued, %d for everyone): dropping it",
                            s, len(out), self.queued)
                self._close(s)
                return
            if not s.writing:
                s.writing = True
                self._watch(s)
        elif s.goodbye:
            self._close(s)
        elif s.writing:
            s.writing = False
            self._watch(s)

    def _watch(self, s: Session) -> None:
        """Tell the poller what to report for this connection: OUT while output is left, IN
        unless it said goodbye."""
        assert self._poller is not None
        events = (0 if s.goodbye else _IN) | (_OUT if s.writing else 0)
        self._poller.modify(s.fd, events, edge=True)

    def _goodbye_started(self, s: Session) -> None:
        """After ``ResGoodbye``: read nothing more; close once flushed (the next flush sees to
        it) or after WRITER_FLUSH_TIMEOUT."""
        if s.closed:
            return
        if not s.dirty:
            s.dirty = True
            self._dirty.append(s)
        self._watch(s)
        self._call_at(time.monotonic() + WRITER_FLUSH_TIMEOUT, self._close, s)
