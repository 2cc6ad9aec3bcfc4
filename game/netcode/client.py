"""Client side of a TCP connection to a game server.

:class:`Connection` owns the socket and two daemon threads:

* a **reader** that decodes each incoming line and queues it for the application. It answers the
  server's ``ReqHeartbeat`` (with ``ResHeartbeat``) and ``ReqWelcome`` (with ``ResWelcome``) by itself
  and does not queue those two. Lines that do not decode are logged and skipped.
* a **keep-alive** that sends ``ReqHeartbeat`` after ``heartbeat_interval`` seconds (10 s) without
  outgoing traffic, so a quiet client is not dropped by the server's 25 s read timeout. The
  ``ResHeartbeat`` answers to these automatic probes are not queued either; a ``ResHeartbeat``
  answering the application's own ``ReqHeartbeat`` is.

When the socket closes or fails, the reader queues exactly one local message
``{"type": "ConnectionLost", "reason": ...}`` (never sent on the wire) and stops. ``reason`` is
``"closed by server"`` (EOF), ``"closed by client"`` (after :meth:`Connection.close`) or
``"connection error: ..."``.

The consuming side (:meth:`~Connection.poll`, :meth:`~Connection.get`, :meth:`~Connection.wait_for`)
is meant for one thread, typically the game loop; :meth:`~Connection.send` may be called from any
thread. A graceful goodbye (``ReqQuit``, ``ReqGoodbye``) is up to the caller; :meth:`close` just
closes.

>>> conn = Connection("127.0.0.1", 51015)          # doctest: +SKIP
>>> conn.send(ReqJoin("alice"))                    # doctest: +SKIP
>>> conn.wait_for(lambda m: m["type"] == "UpdateBookedSeats", timeout=5)  # doctest: +SKIP
{'bookedSeats': 1, 'canPrepareNewGame': 'alice', 'type': 'UpdateBookedSeats'}
"""
from __future__ import annotations

import logging
import queue
import socket
import threading
import time
from collections import deque
from typing import Any, Callable

from game.rules.actions import Action

from .framing import LineReader, LineTooLong, LineWriter, ProtocolError, decode_line
from .protocol import (
    REQ_HEARTBEAT,
    REQ_WELCOME,
    RES_HEARTBEAT,
    ClientMessage,
    req_heartbeat,
    res_heartbeat,
    res_welcome,
)

log = logging.getLogger(__name__)

CONNECTION_LOST = "ConnectionLost"
"""Type of the local message queued once when the connection ends. Never crosses the wire."""

HEARTBEAT_INTERVAL = 10.0
"""Seconds without outgoing traffic after which the client sends ``ReqHeartbeat``."""

Message = dict[str, Any]


class Connection:
    """A connected client socket with a reader thread and a keep-alive thread.

    :param timeout: seconds allowed to connect, and for a blocked send before the connection is
        given up. Reading has no timeout: the server's silence is normal.
    :param heartbeat_interval: seconds of outgoing silence before an automatic ``ReqHeartbeat``.
    :raises OSError: if the connection cannot be made (refused, unreachable, timed out).
    """

    def __init__(self, host: str, port: int, timeout: float = 5.0,
                 heartbeat_interval: float = HEARTBEAT_INTERVAL) -> None:
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._writer = LineWriter(self._sock)
        self._queue: queue.Queue[Message] = queue.Queue()
        self._stash: deque[Message] = deque()  # taken off the queue by wait_for, not yet consumed
        self._stop = threading.Event()  # set once the connection is over
        self._close_lock = threading.Lock()
        self._closed = False
        self._failure: str | None = None  # why a send gave the connection up
        self._state_lock = threading.Lock()
        self._auto_heartbeats = 0  # automatic ReqHeartbeat still waiting for their ResHeartbeat
        self._last_send = time.monotonic()
        self._heartbeat_interval = heartbeat_interval
        peer = f"{host}:{port}"
        self._reader = threading.Thread(target=self._read_loop, name=f"conn-reader {peer}", daemon=True)
        self._keepalive = threading.Thread(target=self._keepalive_loop, name=f"conn-keepalive {peer}",
                                           daemon=True)
        self._reader.start()
        self._keepalive.start()

    # --- sending ---------------------------------------------------------------------------------

    def send(self, msg: Message | Action | ClientMessage) -> None:
        """Send one message: a wire dict, a game request (``Action``) or a lobby message.

        :raises ConnectionError: if the connection is over or the write fails (the connection is then
            shut down, and ``ConnectionLost`` follows on the queue).
        :raises TypeError: if the message cannot be encoded (nothing is sent).
        """
        if isinstance(msg, (Action, ClientMessage)):
            msg = msg.to_dict()
        if self._stop.is_set():
            raise ConnectionError("connection closed")
        try:
            self._writer.write(msg)
        except OSError as e:
            self._shutdown(f"connection error: send failed: {e}")
            raise ConnectionError(f"send failed: {e}") from e
        self._last_send = time.monotonic()

    # --- receiving -------------------------------------------------------------------------------

    def poll(self) -> list[Message]:
        """All messages received so far, oldest first, without blocking (possibly ``[]``)."""
        out = list(self._stash)
        self._stash.clear()
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def get(self, timeout: float | None = None) -> Message:
        """The oldest message, waiting up to ``timeout`` seconds (forever if None).

        :raises TimeoutError: if nothing arrives in time.
        """
        if self._stash:
            return self._stash.popleft()
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message within {timeout} s") from None

    def wait_for(self, pred: Callable[[Message], bool], timeout: float | None = None) -> Message:
        """The oldest message for which ``pred`` is true; the others stay queued, in order.

        :raises TimeoutError: if no such message arrives within ``timeout`` seconds.
        :raises ConnectionError: if the connection ended without one (``ConnectionLost`` stays queued).
        """
        for i, m in enumerate(self._stash):
            if pred(m):
                del self._stash[i]
                return m
        if any(m["type"] == CONNECTION_LOST for m in self._stash):
            raise ConnectionError("connection lost")
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise TimeoutError(f"no matching message within {timeout} s")
            try:
                m = self._queue.get(timeout=remaining)
            except queue.Empty:
                continue  # the deadline check above raises
            if pred(m):
                return m
            self._stash.append(m)
            if m["type"] == CONNECTION_LOST:
                raise ConnectionError(m.get("reason", "connection lost"))

    # --- closing ---------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """False once the connection is over (closed by either side or failed)."""
        return not self._stop.is_set()

    def close(self) -> None:
        """Close the socket and wait for both threads to end. Safe to call more than once."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
            self._shutdown()
            me = threading.current_thread()
            for t in (self._reader, self._keepalive):
                if t is not me:
                    t.join()
            self._sock.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _shutdown(self, failure: str | None = None) -> None:
        """Stop both threads: the reader wakes up from recv with EOF or an error."""
        if failure is not None and self._failure is None:
            self._failure = failure
        self._stop.set()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already shut down or never fully connected

    # --- threads ---------------------------------------------------------------------------------

    def _read_loop(self) -> None:
        reader = LineReader(self._sock)
        reason = "closed by server"
        try:
            while True:
                try:
                    line = reader.readline()
                except LineTooLong as e:
                    log.warning("server sent an oversize line: %s", e)
                    continue
                except TimeoutError:
                    continue  # the socket's timeout bounds sends; silence from the server is fine
                if line is None:
                    break
                self._dispatch(line)
        except OSError as e:
            reason = f"connection error: {e}"
        except Exception as e:  # a bug must still end the connection visibly
            log.exception("reader thread failed")
            reason = f"internal error: {e!r}"
        finally:
            if self._closed:
                reason = "closed by client"
            elif self._failure is not None:
                reason = self._failure
            self._shutdown()
            self._queue.put({"type": CONNECTION_LOST, "reason": reason})

    def _dispatch(self, line: bytes) -> None:
        try:
            msg = decode_line(line)
        except ProtocolError as e:
            log.warning("undecodable line from server skipped: %s", e)
            return
        t = msg["type"]
        if t == REQ_HEARTBEAT:
            self._answer(res_heartbeat())
        elif t == REQ_WELCOME:
            self._answer(res_welcome())
        elif t == RES_HEARTBEAT and self._take_auto_heartbeat():
            pass
        else:
            self._queue.put(msg)

    def _take_auto_heartbeat(self) -> bool:
        with self._state_lock:
            if self._auto_heartbeats > 0:
                self._auto_heartbeats -= 1
                return True
            return False

    def _answer(self, msg: Message) -> None:
        try:
            self.send(msg)
        except ConnectionError:
            pass  # the reader sees the end of the stream next

    def _keepalive_loop(self) -> None:
        while True:
            wait = self._last_send + self._heartbeat_interval - time.monotonic()
            if wait > 0:
                if self._stop.wait(wait):
                    return
                continue
            with self._state_lock:
                self._auto_heartbeats += 1
            try:
                self.send(req_heartbeat())
            except ConnectionError:
                return
