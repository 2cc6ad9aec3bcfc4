"""The server's transport: the one part that touches a socket.

One event-loop thread
    Every socket is non-blocking and watched by one poller (:class:`~.poller.Poller`: epoll on
    Linux, otherwise a ``selectors`` selector): the listening sockets, every connection and a
    wake-up socket pair. On each wake-up the loop reads what every ready connection has sent
    (:class:`~.framing.LineFeeder` splits it into lines), parses each line and hands it to the
    server (``dispatch``, or ``_game_request`` for a game request), whose parts queue the replies
    on each target connection (:meth:`.connection.Session.send`, never blocking); the buffers are
    flushed with non-blocking ``send`` once that connection's input is handled: a request costs
    a ``recv``, a log ``write`` and one ``send`` per player told, and no thread hand-off.
    ``EPOLLOUT`` is asked for only while a buffer is not empty. Heartbeats and the connections'
    time limits (:mod:`.clocks`), the goodbye flush limit, paused accepts and the server's janitor
    are timers in the same loop: the poller waits until the next deadline.

    Connections are edge-triggered under epoll: a connection is reported again only when new
    data arrives, so each wake-up serves connections in the order their requests came in. Hence
    a connection is read until a short read, and one that may have more (a flood) is put back
    in line for the next wake-up.

Limits on what one connection may take
    Lines a second (``line_rate``, bursts of :data:`~.connection.LINE_BURST` seconds' worth: a
    faster sender is read more slowly; a line longer than :data:`~.connection.LINE_BYTES` counts
    as one more per LINE_BYTES, so the rate bounds the bytes parsed too); lines of at most
    :data:`~.connection.MAX_LINE_UNJOINED` bytes before the ``ReqJoin``; a long game request (past
    LINE_BYTES) from a connection without a game refused from its type, before its fields are parsed;
    :data:`LINES_PER_TURN` lines per wake-up. What is sent, and the output a connection may
    hold, are the outbox's (:mod:`.outbox`); connections in total and per address, and TLS
    handshakes, are the front door's (:mod:`.door`).

The loop holds the server's ``lock`` while it handles a wake-up (never while it waits). A
failure while handling one connection costs that connection at most, never the loop.
"""
from __future__ import annotations

import heapq
import logging
import socket
import ssl
import threading
import time
from collections import deque
from typing import Any, Callable

from game.rules.actions import Action
from game.rules.errors import MalformedRequest

from . import protocol as P
from .client_messages import parse_client_message
from .clocks import ConnectionClocks
from .connection import LINE_BURST, LINE_BYTES, REFUSAL_LOG_INTERVAL, Session
from .door import Door
from .framing import MAX_LINE, ProtocolError, decode_line, encode
from .outbox import Outbox
from .poller import Poller, SelectorPoller
from .room import INTERNAL_ERROR
from .server_messages import err_nickname, err_protocol, req_heartbeat, res_heartbeat
from .stall_log import StallLog

log = logging.getLogger("mor.server")

RECV_BYTES = 64 * 1024
"""Bytes asked of a connection per ``recv``; the line buffer itself never holds more than MAX_LINE."""

RECV_BYTES_SLOWED = 4 * 1024
"""Bytes asked per ``recv`` of a connection whose line rate leaves it fewer lines than RECV_BYTES
holds lines of LINE_BYTES (128). What is read waits as lines (an object each) until the rate lets
them be answered: a connection sending at its line rate keeps some 4 KB of them in the server,
not 64 KB. (32 connections taking back and making again a request at the line rate held 2.6 MB
that way, and the allocator's arenas they were scattered over stayed resident after: issue 28's
churn.)"""

READS_PER_WAKEUP = 8
"""``recv`` calls a connection gets per wake-up at most; one that filled them all is read again at
the next wake-up, after the others (so a flood cannot starve anyone)."""

LINES_PER_TURN = 32
"""Lines of one connection answered per wake-up at most; the rest wait until every other ready
connection has had its turn (what was read but not answered stays with the connection)."""

EVENTS_PER_WAKEUP = 256
"""Connections served in one wake-up at most (epoll): when thousands are ready at once, the
others are served at the next wake-ups, in order, and the timers, the calls from other threads
and new connections get their turn in between (without it 10,000 players quitting together
held the loop 2.7 s in one wake-up)."""

_NETWORK_TYPES = P.CLIENT_TYPES - P.GAME_REQUEST_TYPES
"""The network and lobby types (parsed by client_messages.py); any other registered type is a game request."""
_ACTIONS = Action.REGISTRY
_HEARTBEAT_LINE = encode(req_heartbeat())[:-1]
_RES_HEARTBEAT = encode(res_heartbeat())

_IN = Poller.IN
_OUT = Poller.OUT
_READABLE = Poller.READABLE
_HANGUP = Poller.HANGUP


class Transport(Outbox, Door):
    """The event loop and every connection (see the module's docstring).

    A subclass (the server) answers what the connections say: ``dispatch(session, message)``,
    ``_game_request(session, action)``, and ``disconnected(session)`` once a connection closes.
    ``sessions`` are the live connections (read them under ``lock``).
    """

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.lock = threading.RLock()
        self.sessions: set[Session] = set()
        self.wakeups = 0                   # loop iterations so far (tests check the loop is idle)
        self.lines_handled = 0             # lines answered since the start (the status line's rate)
        self.queued = 0                    # bytes queued for every connection together
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop_thread_id: int | None = None
        self._poller: Poller | SelectorPoller | None = None
        self._conns: dict[int, Session] = {}   # fd -> its connection
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._dirty: list[Session] = []    # connections with output queued since the last flush
        self._unread: list[Session] = []   # connections that may have more input than was read
        self._calls: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = deque()
        self._timers: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._timer_seq = 0
        self._slowed: dict[str, int] = {}  # address -> times its connections were past their line rate since the last log line
        self._slowed_logged = 0.0
        self.stall = StallLog(options.stall_log)
        self.clocks = ConnectionClocks(options, self._close, self.stall.looked, self.events)
        # extension types read outside protocol.py (type -> its parser; e.g. watch_wire.PARSERS)
        self.parsers: dict[str, Callable[[Any], Any]] = {}

    def dispatch(self, s: Session, msg: Any) -> None:
        raise NotImplementedError

    def _game_request(self, s: Session, action: Action) -> None:
        raise NotImplementedError

    def disconnected(self, s: Session) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ life cycle
    @property
    def stopping(self) -> bool:
        """Whether ``stop()`` was called (the server is closing or closed)."""
        return self._stopping.is_set()

    def _open_loop(self) -> None:
        """The poller, watching the wake-up pair and the listeners (bound by ``_listen``)."""
        assert self.listener is not None
        self._poller = Poller.create()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._poller.register(self._wake_r.fileno(), _IN)
        self._poller.register(self.listener.fileno(), _IN)
        if self.tls_listener is not None:
            self._poller.register(self.tls_listener.fileno(), _IN)
        self._accepting = True

    def _begin(self) -> None:
        """Start the loop's thread (the timers it starts with are set: ``_call_at`` is the loop's)."""
        self._thread = threading.Thread(target=self._run, name="server-loop", daemon=True)
        self._thread.start()

    def _end_loop(self) -> None:
        """Stop the loop (from another thread): it ends after the wake-up under way."""
        self._stopping.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
            if self._thread.is_alive():
                log.error("the server loop did not stop in time")

    def _close_all(self) -> None:
        """Close every connection (their players quit), the wake-up pair and the poller (under the lock)."""
        for s in list(self.sessions):
            self._close(s)
        self._dirty.clear()
        self._unread.clear()
        self._timers.clear()
        self.clocks.heap.clear()
        for sock in (self._wake_r, self._wake_w):
            if sock is not None:
                sock.close()
        self._wake_w = None
        if self._poller is not None:
            self._poller.close()

    # ------------------------------------------------------------------ the loop
    def _run(self) -> None:
        self._loop_thread_id = threading.get_ident()
        assert self._poller is not None
        poll = self._poller.poll
        lock = self.lock
        stopping = self._stopping
        stall = self.stall if self.stall.threshold else None
        while not stopping.is_set():
            try:
                ready = poll(self._timeout(), EVENTS_PER_WAKEUP)
                if stall is not None:
                    stall.begin(self.lines_handled)
                with lock:
                    if stopping.is_set():
                        break
                    self.wakeups += 1
                    self._handle(ready)
                if stall is not None:
                    stall.end(len(ready), self.lines_handled, len(self.sessions))
            except Exception:   # a bug in the loop itself: log it, never die, never spin
                log.exception("server loop error")
                time.sleep(0.01)
        self._loop_thread_id = None   # from now on only stop() touches the connections

    def _timeout(self) -> float | None:
        if self._calls or self._unread:
            return 0
        timers = self._timers
        if not timers:
            return None
        return max(0.0, timers[0][0] - time.monotonic())

    def _handle(self, ready: list[tuple[int, int]]) -> None:
        """One wake-up: serve each ready connection in turn (its replies are sent before the next
        one is read), then the connections left unread, queued calls and due timers."""
        now = time.monotonic()
        conns = self._conns
        unread = self._unread
        if unread:
            self._unread = []
            ready = ready + [(s.fd, _IN) for s in unread if not s.closed and conns.get(s.fd) is s]
        for fd, events in ready:
            s = conns.get(fd)
            if s is None:
                if self.listener is not None and fd == self.listener.fileno():
                    self._accept_ready()
                elif self.tls_listener is not None and fd == self.tls_listener.fileno():
                    self._accept_ready(self.tls_listener)
                elif self._wake_r is not None and fd == self._wake_r.fileno():
                    self._drain_wake()
                continue
            try:
                if events & _READABLE:
                    if events & _HANGUP:
                        s.hangup = True
                    self._read(s, now)
                if events & _OUT and not s.closed:
                    self._flush(s)
            except Exception as e:   # a bug must cost one connection at most, never the server
                self.events.event(f"connections closed on an error inside the server ({type(e).__name__})", s.ip,
                                  "%r: unexpected error", s, level=logging.ERROR, exc_info=True)
                self._close(s)
            if self._dirty:
                self._flush_dirty()
        calls = self._calls
        trace = self.stall.ran is not None
        while calls:
            fn, args = calls.popleft()
            c0 = time.thread_time() if trace else 0.0
            try:
                fn(*args)
            except Exception:
                log.exception("server call %r failed", fn)
            if trace:
                self.stall.count(fn, time.thread_time() - c0)
        timers = self._timers
        if timers and timers[0][0] <= now:
            self._run_timers(now)
        if self._dirty:
            if trace:
                c0 = time.thread_time()
                n = len(self._dirty)
                self._flush_dirty()
                self.stall.count(self._flush_dirty, time.thread_time() - c0, n)
            else:
                self._flush_dirty()

    def _wake(self) -> None:
        w = self._wake_w
        if w is not None:
            try:
                w.send(b"\0")
            except OSError:   # full (a wake-up is pending anyway) or closed (stopping)
                pass

    def _drain_wake(self) -> None:
        try:
            while self._wake_r is not None and self._wake_r.recv(4096):
                pass
        except OSError:
            pass

    def _call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop thread: at once if this is it, else at its next wake-up
        (which this causes). Once stopping, a call from another thread is dropped: ``stop``
        closes every connection anyway."""
        if threading.get_ident() == self._loop_thread_id:
            fn(*args)
        elif not self._stopping.is_set():
            self._calls.append((fn, args))
            self._wake()

    def _call_at(self, when: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop thread at ``when`` (a ``time.monotonic()`` value)."""
        self._timer_seq += 1
        heapq.heappush(self._timers, (when, self._timer_seq, fn, args))

    def _run_timers(self, now: float) -> None:
        timers = self._timers
        trace = self.stall.ran is not None
        while timers and timers[0][0] <= now:
            _, _, fn, args = heapq.heappop(timers)
            c0 = time.thread_time() if trace else 0.0
            try:
                fn(*args)
            except Exception:
                log.exception("timer %r failed", fn)
            if trace:
                self.stall.count(fn, time.thread_time() - c0)

    def _read(self, s: Session, now: float) -> None:
        """Read and answer what a connection has sent, until a short read (all there is: an
        edge-triggered poller reports the connection again when more comes) or, once the peer
        has hung up, until the end; at most READS_PER_WAKEUP reads and LINES_PER_TURN lines, then
        it waits its turn (what it sent stays with it). A connection past its ``line_rate`` is
        not read until its allowance is back (what it sends meanwhile waits in the kernel)."""
        if s.goodbye or s.throttled:
            return
        if s.handshake:
            self._handshake(s)
            return
        budget = LINES_PER_TURN
        if s.pending:
            budget = self._serve_lines(s, now, budget)
            if s.pending or s.closed or s.goodbye:
                return
        sock = s.sock
        reader = s.line_reader
        if s.nickname is not None and reader.max_line != MAX_LINE:
            reader.max_line = MAX_LINE   # joined: lines up to MAX_LINE (MAX_LINE_UNJOINED before)
        feed = reader.feed
        rate = self.options.line_rate
        for _ in range(READS_PER_WAKEUP):
            size = RECV_BYTES if rate <= 0 or s.allowance + (now - s.allowance_at) * rate >= RECV_BYTES / LINE_BYTES \
                else RECV_BYTES_SLOWED
            try:
                data = sock.recv(size)
            except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except ssl.SSLZeroReturnError:   # the peer closed its TLS side
                data = b""
            except OSError as e:
                self.events.event("connection errors", s.ip, "%r connection error: %s", s, e)
                self._close(s)
                return
            if not data:
                self._close(s)   # an unfinished last line is dropped
                return
            s.last_input = now
            s.pinged = False
            s.pending = feed(data)
            s.pending_at = 0
            budget = self._serve_lines(s, now, budget)
            if s.pending or s.closed or s.goodbye:
                return   # its turn is over: it is in line again (or closing)
            if len(data) < size and not s.hangup and not s.tls:   # TLS: one record a recv
                return
            if budget <= 0:
                break
        self._unread.append(s)   # it may have more: read again at the next wake-up

    def _serve_lines(self, s: Session, now: float, budget: int) -> int:
        """Answer the lines ``s`` has pending, as many as ``budget`` and its line rate allow.
        Returns what is left of the budget: 0 or less when lines are left (the connection is
        then put back in line, for the next wake-up or once its allowance is back)."""
        rate = self.options.line_rate
        if rate > 0:
            s.allowance = min(rate * LINE_BURST, s.allowance + (now - s.allowance_at) * rate)
            s.allowance_at = now
        lines = s.pending
        i = s.pending_at
        end = len(lines)
        while i < end:
            if s.closed or s.goodbye:
                lines = []
                break
            if budget <= 0:
                break
            line = lines[i]
            if rate > 0:
                if s.allowance < 1.0:
                    s.throttled = True
                    self._call_at(now + (1.0 - s.allowance) / rate, self._unthrottle, s)
                    self._log_slowed(s, now)
                    break
                # a long line counts as one per LINE_BYTES: the allowance may go below zero, and
                # the connection then waits until it is back to one
                s.allowance -= 1.0 if line.__class__ is not bytes or len(line) < LINE_BYTES \
                    else 1.0 + len(line) // LINE_BYTES
            i += 1
            budget -= 1
            if line.__class__ is bytes:
                self._handle_line(s, line)
            else:
                s.send(line.to_dict())   # LineTooLong: its rest is dropped as it comes
        if i >= len(lines):
            s.pending = []
            s.pending_at = 0
            return budget
        s.pending = lines
        s.pending_at = i
        if not s.throttled:
            self._unread.append(s)
        return 0

    def _log_slowed(self, s: Session, now: float) -> None:
        """A connection past its line rate is read more slowly (nothing to tell it: it simply
        waits): one WARNING line at most every REFUSAL_LOG_INTERVAL seconds, with how often each
        address was held back since the last one."""
        self._slowed[s.ip] = self._slowed.get(s.ip, 0) + 1
        if now - self._slowed_logged < REFUSAL_LOG_INTERVAL:
            return
        self._slowed_logged = now
        worst = sorted(self._slowed.items(), key=lambda kv: -kv[1])
        log.warning("connections past %g lines a second, read more slowly: %s", self.options.line_rate,
                    "; ".join(f"{ip}: held back {n} time{'s' if n != 1 else ''}" for ip, n in worst[:3])
                    + (f"; and {len(worst) - 3} more addresses" if len(worst) > 3 else ""))
        self._slowed = {}

    def _unthrottle(self, s: Session) -> None:
        if s.closed or not s.throttled:
            return
        s.throttled = False
        self._unread.append(s)

    def _handle_line(self, s: Session, line: bytes) -> None:
        """Answer one line; whatever goes wrong, the client gets an answer and the loop goes on."""
        self.lines_handled += 1
        if line == _HEARTBEAT_LINE:   # the most frequent line of all (every quiet client's, every 10 s)
            if self.stall.ran is not None:
                self.stall.line(P.REQ_HEARTBEAT)
            s.push(_RES_HEARTBEAT)
            return
        try:
            d = decode_line(line)
            t = d["type"]
            if self.stall.ran is not None:
                self.stall.line(t)
            kind = _ACTIONS.get(t) if t not in _NETWORK_TYPES else None
            if kind is not None:   # a game request: what parse_client_message does, minus checks done
                if (s.room is None or s.left) and len(line) >= LINE_BYTES:
                    # no game to play in, and long: refused from its type, before its fields are
                    # read (a short one is read first, as the reference does: bad fields, ErrProtocol)
                    s.send(err_nickname(P.NOT_SET if s.nickname is None else P.NOT_IN_GAME))
                    return
                try:
                    msg = kind.parse(d)
                except MalformedRequest as e:
                    raise ProtocolError(P.INVALID_TYPES, e.detail or str(e)) from None
            else:
                extension = self.parsers.get(t)
                msg = parse_client_message(d) if extension is None else extension(d)
        except ProtocolError as e:
            log.debug("%r protocol error: %s", s, e)
            s.send(e.to_dict())
            return
        try:
            if kind is not None and not self._stopping.is_set():
                self._game_request(s, msg)   # what dispatch does with a game request
            else:
                self.dispatch(s, msg)
        except Exception as e:   # a bug: its traceback, but a stranger repeating it floods no log
            self.events.event(f"requests that failed inside the server ({type(e).__name__})", s.ip,
                              "%r: failed to handle %r", s, msg, level=logging.ERROR, exc_info=True)
            s.send(err_protocol(INTERNAL_ERROR))

    def _unwatch(self, fd: int) -> None:
        if self._poller is None:
            return
        try:
            self._poller.unregister(fd)
        except (KeyError, ValueError, OSError):
            pass

    def _close(self, s: Session) -> None:
        """Close a connection and run its player's quit routine, once (loop thread, or ``stop``)."""
        if s.closed:
            return
        s.closed = True
        if s.handshake and s.tls_turn == 2:
            self._handshake_over(s)
        if s.out and not self._stopping.is_set():
            try:
                s.sock.send(s.out)   # what is queued, if the socket takes it now (a last ResQuit)
            except OSError:
                pass
        self.queued -= len(s.out)
        s.out = bytearray()
        s.pending = []
        if self._conns.get(s.fd) is s:
            del self._conns[s.fd]
            self._unwatch(s.fd)
            self.clocks.dropped(len(self._conns))
            left = self.per_address.get(s.ip, 0) - 1
            if left > 0:
                self.per_address[s.ip] = left
            else:
                self.per_address.pop(s.ip, None)
            if s.net is not None:
                left = self.per_network.get(s.net, 0) - 1
                if left > 0:
                    self.per_network[s.net] = left
                else:
                    self.per_network.pop(s.net, None)
        try:
            s.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.sock.close()
        except OSError:
            pass
        try:
            self.disconnected(s)
        except Exception as e:
            self.events.event(f"connections that failed to unregister ({type(e).__name__})", s.ip,
                              "%r: failed to unregister", s, level=logging.ERROR, exc_info=True)
        s.room = None   # a closed connection (its heartbeat timer may hold it a while) keeps no game
