"""Client side of TCP connections to a game server.

Two layers, so that every kind of client shares one implementation of the client's duties:

* :class:`ClientProtocol`, without any I/O: bytes in, decoded messages out. It splits lines
  (:class:`~game.netcode.framing.LineFeeder`: LF, CR or CRLF, at most 64 KiB a line), decodes them,
  answers the server's ``ReqHeartbeat`` (with ``ResHeartbeat``) and ``ReqWelcome`` (with
  ``ResWelcome``) by itself without passing them on, swallows the ``ResHeartbeat`` answers to its
  own automatic probes, and logs and skips lines that do not decode.
* :class:`Connection`: one socket with two daemon threads, for a program with a loop of its own
  (the pygame client, tests). A **reader** feeds the protocol and queues the messages for the
  application; a **keep-alive** sends ``ReqHeartbeat`` after ``heartbeat_interval`` seconds
  (10 s) without outgoing traffic, so a quiet client is not dropped by the server's 25 s read
  timeout.
* (the load generator's many non-blocking connections on one thread, built on
  :class:`ClientProtocol`, are ``bench/lib/connection_group.py``'s: only the benchmarks and their
  tests use them.)

When a socket closes or fails, the application gets exactly one local message
``{"type": "ConnectionLost", "reason": ...}`` (never sent on the wire), after everything received
before. ``reason`` is ``"closed by server"`` (EOF), ``"closed by client"`` (after ``close()``) or
``"connection error: ..."``. A graceful goodbye (``ReqQuit``, ``ReqGoodbye``) is up to the caller;
``close()`` just closes.

The consuming side of a :class:`Connection` (:meth:`~Connection.poll`, :meth:`~Connection.get`,
:meth:`~Connection.wait_for`) is meant for one thread, typically the game loop;
:meth:`~Connection.send` may be called from any thread.

>>> conn = Connection("127.0.0.1", 51015)          # doctest: +SKIP
>>> conn.send(ReqJoin("alice"))                    # doctest: +SKIP
>>> conn.wait_for(lambda m: m["type"] == "UpdateBookedSeats", timeout=5)  # doctest: +SKIP
{'bookedSeats': 1, 'canPrepareNewGame': 'alice', 'type': 'UpdateBookedSeats'}
"""
from __future__ import annotations

import ipaddress
import logging
import os
import queue
import select
import socket
import ssl
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Iterator

from game.rules.actions import Action

from .client_messages import ClientMessage
from .framing import CHUNK, LineFeeder, LineWriter, ProtocolError, decode_line, encode
from .protocol import REQ_HEARTBEAT, REQ_WELCOME, RES_HEARTBEAT
from .server_messages import req_heartbeat, res_heartbeat, res_welcome
from .server_words import said_in
from .tls import fingerprint

log = logging.getLogger(__name__)

CONNECTION_LOST = "ConnectionLost"
"""Type of the local message queued once when the connection ends. Never crosses the wire."""

HEARTBEAT_INTERVAL = 10.0
"""Seconds without outgoing traffic after which the client sends ``ReqHeartbeat``."""

Message = dict[str, Any]
Outgoing = Message | Action | ClientMessage

_REQ_MARK = b'"type":"Req'   # in a line: it may be a server request (a muted protocol decodes it)
_ERR_MARK = b'"type":"Err'   # ... or an error
_RES_HEARTBEAT = encode(res_heartbeat())
_RES_WELCOME = encode(res_welcome())
_REQ_HEARTBEAT = encode(req_heartbeat())


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def encode_outgoing(msg: Outgoing | bytes) -> bytes:
    """The wire bytes of a message: a wire dict, a game request (``Action``), a lobby message, or
    bytes already encoded (whole lines, sent as they are).

    :raises TypeError: if the message cannot be encoded.
    """
    if isinstance(msg, (bytes, bytearray)):
        return bytes(msg)
    if isinstance(msg, (Action, ClientMessage)):
        msg = msg.to_dict()
    return encode(msg)


class ClientProtocol:
    r"""The client's side of one connection, without I/O: :meth:`feed` it what the socket gives.

    :param reply: called with encoded lines to send back at once (``ResWelcome``, ``ResHeartbeat``).

    A **muted** protocol (``muted = True``, for a bot that does not need to follow a game for a
    while) still consumes every line, answers the server's requests and delivers errors, but drops
    every other line without decoding it (counted in ``muted_lines``); lines already fed are not
    affected, and it may be switched between two messages (from a handler).

    ``skipped`` counts the lines it dropped (oversize or undecodable). :meth:`probe_sent` tells it
    that an automatic ``ReqHeartbeat`` went out, so that its answer is swallowed; it may be called
    from another thread than :meth:`feed` (a deque is the counter).

    >>> sent = []
    >>> p = ClientProtocol(sent.append)
    >>> p.feed(b'{"type":"ReqWelcome"}\n{"type":"UpdateBookedSeats","bookedSeats":1}\n{"ty')
    [{'type': 'UpdateBookedSeats', 'bookedSeats': 1}]
    >>> sent
    [b'{"type":"ResWelcome"}\n']
    >>> p.feed(b'pe":"ResQuit"}\r\n')
    [{'type': 'ResQuit'}]
    """

    __slots__ = ("_lines", "_reply", "_probes", "skipped", "muted", "muted_lines")

    def __init__(self, reply: Callable[[bytes], None]) -> None:
        self._lines = LineFeeder()
        self._reply = reply
        self._probes: deque[None] = deque()   # automatic ReqHeartbeat still waiting for their answer
        self.skipped = 0                       # lines that were too long or did not decode
        self.muted = False
        self.muted_lines = 0

    def probe_sent(self) -> None:
        """An automatic ``ReqHeartbeat`` was sent: its ``ResHeartbeat`` is not the application's."""
        self._probes.append(None)

    def feed(self, data: bytes) -> list[Message]:
        """The messages that ``data`` completes, for the application, in order."""
        return list(self.messages(data))

    def messages(self, data: bytes) -> Iterator[Message]:
        """:meth:`feed` one message at a time: each line is decoded only when the previous
        message has been taken, so muting in between applies to the lines after it."""
        for line in self._lines.feed(data):
            if line.__class__ is not bytes:   # LineTooLong: the rest of it is dropped as it comes
                log.warning("server sent an oversize line: %s", line)
                self.skipped += 1
                continue
            if self.muted and _REQ_MARK not in line and _ERR_MARK not in line:  # type: ignore[operator]
                self.muted_lines += 1
                continue
            try:
                msg = decode_line(line)   # type: ignore[arg-type]
            except ProtocolError as e:
                log.warning("undecodable line from server skipped: %s", e)
                self.skipped += 1
                continue
            t = msg["type"]
            if t == REQ_HEARTBEAT:
                self._reply(_RES_HEARTBEAT)
            elif t == REQ_WELCOME:
                self._reply(_RES_WELCOME)
            elif t == RES_HEARTBEAT and self._probes:
                try:
                    self._probes.popleft()
                except IndexError:   # taken meanwhile (cannot happen with one reader)
                    yield msg
            else:
                yield msg


# --- TLS -----------------------------------------------------------------------------------------

TLS_PORT_FIELD = "tlsPort"
"""``ResWelcome.tlsPort`` (our extension): the port where the server speaks TLS. Sent only to a
client whose ``ReqWelcome`` carried ``tls: true`` (ours), never to a reference client."""
TLS_OUTSIDE_FIELD = "tlsOutside"
"""``ResWelcome.tlsOutside`` (our extension, beside ``tlsPort``): ``{host, port}``, where a hosted
game's router forwards its TLS port under another number than ``tlsPort``. A client that reached
the plain port at that ``host`` (through the router) goes to that ``port``."""


def _tls_port_in(msg: dict[str, Any], reached: set[str]) -> int | None:
    """The TLS port a ``ResWelcome`` names for a client that reached the server at one of the
    addresses ``reached`` (the host typed, the address connected to)."""
    tls = msg.get(TLS_PORT_FIELD)
    if not (type(tls) is int and 0 < tls < 65536):
        return None
    outside = msg.get(TLS_OUTSIDE_FIELD)
    if isinstance(outside, dict):
        host, port = outside.get("host"), outside.get("port")
        if isinstance(host, str) and type(port) is int and 0 < port < 65536 and host in reached:
            return port
    return tls


class ServerIdentityChanged(ConnectionError):
    """The server's TLS certificate is not the one met there before (or it no longer offers TLS):
    someone may stand between us and it. Nothing was sent to it.

    ``str()`` is the whole story (for the log: fingerprints, the file and its line to remove);
    :attr:`player_words` one sentence for a screen. The facts, for a client that words them
    itself: :attr:`server` (``host:port``), :attr:`known_file` (where its line is), :attr:`was`
    (the fingerprint remembered) and :attr:`now` (the one shown; None: it no longer speaks TLS).
    """

    def __init__(self, message: str, player_words: str, *, server: str = "", known_file: Path | None = None,
                 was: str | None = None, now: str | None = None) -> None:
        super().__init__(message)
        self.player_words = player_words
        self.server, self.known_file, self.was, self.now = server, known_file, was, now


class KnownServers:
    """The TLS servers this install has met, and their certificates' fingerprints: trust on first
    use, as SSH's ``known_hosts``. One line per server, ``host:port SHA256:…``, so that a person can
    read it and remove a line.

    :param path: the file (created on first use; a damaged line is ignored).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError:
            return {}
        out = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].startswith("SHA256:"):
                out[parts[0]] = parts[1]
        return out

    def get(self, key: str) -> str | None:
        """The fingerprint remembered for ``key`` (``host:port``), or None."""
        return self._read().get(key)

    def check(self, key: str, print_: str) -> bool:
        """Accept ``print_`` for ``key``: True if it is remembered, False if it was met for the first
        time (then it is remembered).

        :raises ServerIdentityChanged: another fingerprint is remembered for ``key``.
        """
        known = self._read()
        seen = known.get(key)
        if seen == print_:
            return True
        if seen is not None:
            raise ServerIdentityChanged(
                f"The server at {key} is not the one met there before: its certificate changed (it was "
                f"{seen}, it is {print_}). Someone may be listening in, so nothing was sent. If its "
                f"owner made a new certificate, remove the line of {key} from {self.path} and join again.",
                f"{key} changed its certificate: not connecting (someone may listen in).",
                server=key, known_file=self.path, was=seen, now=print_)
        known[key] = print_
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text("".join(f"{k} {v}\n" for k, v in known.items()), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            log.info("cannot remember the server's fingerprint: %s", e)
        log.info("first connection to %s: its certificate %s is remembered", key, print_)
        return False


def client_tls_context() -> ssl.SSLContext:
    """Our client's TLS: TLS 1.2 at least, any certificate (a friend's is self-signed): who the
    server is is checked by its fingerprint (:class:`KnownServers`), as SSH does."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def offered_tls_port(host: str, port: int, timeout: float = 5.0) -> int | None:
    """Ask the server on the plain port ``port`` where it speaks TLS: ``ReqWelcome {tls: true}``,
    answered by ``ResWelcome {tlsPort}`` (our server serving TLS; ``tlsOutside`` where a router
    forwards it under another number, taken when the server was reached at its address), or a
    plain ``ResWelcome`` (a server without TLS, the reference server). Nothing else is sent.

    :raises OSError: the server cannot be reached, or it did not answer within ``timeout``
        (closed with an ``ErrProtocol`` first, the server's words are its ``server_words``).
    """
    said = None      # why the server turned us away (ErrProtocol before closing: it is full)
    with socket.create_connection((host, port), timeout=timeout) as sock:
        reached = {host, str(sock.getpeername()[0])}      # (through a router: its outside address)
        sock.sendall(encode({"tls": True, "type": "ReqWelcome"}))
        lines = LineFeeder()
        deadline = time.monotonic() + timeout
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = sock.recv(CHUNK)
            except ConnectionResetError as e:   # (what was sent unread when it closed)
                e.server_words = said             # type: ignore[attr-defined]
                raise
            if not data:
                closed = ConnectionError("the server closed the connection")
                closed.server_words = said      # type: ignore[attr-defined]
                raise closed
            for line in lines.feed(data):
                try:
                    msg = decode_line(line) if line.__class__ is bytes else {}
                except ProtocolError:
                    continue
                if msg.get("type") == "ErrProtocol" and isinstance(msg.get("msg"), str):
                    said = said_in(msg, msg["msg"])   # (with its code: the client says it in its words)
                if msg.get("type") == "ResWelcome":
                    return _tls_port_in(msg, reached)


class _TlsStream:
    """A TLS socket shared by the reader and the writers of one :class:`Connection`.

    OpenSSL allows one thread at a time on a connection: every read and write holds one lock. The
    socket is non-blocking, so a read under the lock never waits for the network; the reader waits
    (outside the lock) in ``select`` until something comes, or the connection is shut down.
    """

    def __init__(self, sock: ssl.SSLSocket, timeout: float) -> None:
        self.sock = sock
        self.timeout = timeout
        self._lock = threading.Lock()
        sock.setblocking(False)

    def recv(self, n: int) -> bytes:
        """What the server sent (b"" at its end), waiting as long as it takes."""
        sock = self.sock
        while True:
            with self._lock:
                try:
                    return sock.recv(n)
                except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                    pass
                except (ssl.SSLZeroReturnError, ssl.SSLEOFError):   # closed, with or without TLS's goodbye
                    return b""
            # no timeout: a waiting game stays idle. Closing shuts the socket down first (which
            # wakes this), and the socket is closed only once the reader is gone
            select.select([sock], [], [])

    def sendall(self, data: bytes) -> None:
        """Send everything, within ``timeout`` seconds.

        :raises OSError: the socket failed or would not take the data in time.
        """
        view = memoryview(data)
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while view:
                try:
                    n = self.sock.send(view)
                except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError("the server does not take what is sent") from None
                    select.select([], [self.sock], [], min(left, 1.0))
                    continue
                view = view[n:]


class Connection:
    """A connected client socket with a reader thread and a keep-alive thread.

    :param timeout: seconds allowed to connect, and for a blocked send before the connection is
        given up. Reading has no timeout: the server's silence is normal.
    :param heartbeat_interval: seconds of outgoing silence before an automatic ``ReqHeartbeat``.
    :param tls: speak TLS with this context (see :func:`client_tls_context`).
    :param verify: with ``tls``, called with the server certificate's fingerprint once the
        handshake is done, before anything is sent or read; it raises to refuse the server
        (e.g. :meth:`KnownServers.check`), and the connection is then closed.
    :raises OSError: if the connection cannot be made (refused, unreachable, timed out, a TLS
        handshake that fails, a server ``verify`` refuses).

    :attr:`on_message`, if set, is called (on the reader thread, without arguments) after new
    messages were queued, ``ConnectionLost`` included: a loop that sleeps while nothing happens
    (the pygame client) is woken by it. It must be quick and must not raise.
    """

    on_message: Callable[[], None] | None = None

    def __init__(self, host: str, port: int, timeout: float = 5.0,
                 heartbeat_interval: float = HEARTBEAT_INTERVAL, tls: ssl.SSLContext | None = None,
                 verify: Callable[[str], Any] | None = None) -> None:
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.fingerprint: str | None = None    # the server certificate's, over TLS
        self._tls: _TlsStream | None = None
        if tls is not None:
            try:
                self._sock = tls.wrap_socket(self._sock, server_hostname=None if _is_ip(host) else host)
                self.fingerprint = fingerprint(self._sock.getpeercert(binary_form=True) or b"")
                if verify is not None:
                    verify(self.fingerprint)
            except BaseException:
                self._sock.close()
                raise
            self._tls = _TlsStream(self._sock, timeout)
        self._writer = LineWriter(self._tls if self._tls is not None else self._sock)
        self._protocol = ClientProtocol(self._answer)
        self._queue: queue.Queue[Message] = queue.Queue()
        self._stash: deque[Message] = deque()  # taken off the queue by wait_for, not yet consumed
        self._stop = threading.Event()  # set once the connection is over
        self._close_lock = threading.Lock()
        self._closed = False
        self._failure: str | None = None  # why a send gave the connection up
        self._last_send = time.monotonic()
        self._heartbeat_interval = heartbeat_interval
        peer = f"{host}:{port}"
        self._reader = threading.Thread(target=self._read_loop, name=f"conn-reader {peer}", daemon=True)
        self._keepalive = threading.Thread(target=self._keepalive_loop, name=f"conn-keepalive {peer}",
                                           daemon=True)
        self._reader.start()
        self._keepalive.start()

    # --- sending ---------------------------------------------------------------------------------

    def send(self, msg: Outgoing | bytes) -> None:
        """Send one message: a wire dict, a game request (``Action``), a lobby message, or lines
        already encoded.

        :raises ConnectionError: if the connection is over or the write fails (the connection is then
            shut down, and ``ConnectionLost`` follows on the queue).
        :raises TypeError: if the message cannot be encoded (nothing is sent).
        """
        data = encode_outgoing(msg)
        if self._stop.is_set():
            raise ConnectionError("connection closed")
        try:
            self._writer.write_bytes(data)
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

    @property
    def secure(self) -> bool:
        """Whether the connection speaks TLS."""
        return self._tls is not None

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
            # socket.socket's shutdown, never SSLSocket's: that one drops the TLS layer at once,
            # without the reader's lock, and a recv after it returns the raw encrypted bytes
            socket.socket.shutdown(self._sock, socket.SHUT_RDWR)
        except OSError:
            pass  # already shut down or never fully connected

    # --- threads ---------------------------------------------------------------------------------

    def _read_loop(self) -> None:
        sock: Any = self._tls if self._tls is not None else self._sock
        feed = self._protocol.feed
        put = self._queue.put
        reason = "closed by server"
        try:
            while True:
                try:
                    data = sock.recv(CHUNK)
                except TimeoutError:
                    continue  # the socket's timeout bounds sends; silence from the server is fine
                if not data:
                    break  # an unfinished last line is dropped
                woke = False
                for msg in feed(data):
                    put(msg)
                    woke = True
                if woke:
                    self._notify()
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
            put({"type": CONNECTION_LOST, "reason": reason})
            self._notify()

    def _notify(self) -> None:
        hook = self.on_message
        if hook is not None:
            try:
                hook()
            except Exception:   # a waker that fails must not end the connection
                log.exception("on_message failed")

    def _answer(self, data: bytes) -> None:
        try:
            self.send(data)
        except ConnectionError:
            pass  # the reader sees the end of the stream next

    def _keepalive_loop(self) -> None:
        while True:
            wait = self._last_send + self._heartbeat_interval - time.monotonic()
            if wait > 0:
                if self._stop.wait(wait):
                    return
                continue
            self._protocol.probe_sent()
            try:
                self.send(_REQ_HEARTBEAT)
            except ConnectionError:
                return
