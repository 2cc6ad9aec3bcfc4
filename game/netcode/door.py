"""The transport's front door: listening, accepting, refusing at the door, TLS handshakes.

:class:`Door` is the part of :class:`~.transport.Transport` (its base class) that lets connections
in: it binds the plain port (and the TLS port, ``tls_cert``), accepts up to
:data:`ACCEPT_BATCH` connections a wake-up (pausing :data:`ACCEPT_PAUSE` seconds after a failed
``accept``, such as EMFILE, instead of spinning), refuses those past ``max_connections`` or
``max_per_address`` with one line that says why (logged at most every
:data:`REFUSAL_LOG_INTERVAL` seconds, with counts), and takes each TLS connection's handshake
a step further as its socket allows, in its address's turn and with at most
``max_tls_handshakes`` in progress in all (:class:`~.tls.HandshakeGate`). The
descriptor limit is raised at start (:func:`fit_descriptors`), with headroom kept.
"""
from __future__ import annotations

import errno
import logging
import math
import socket
import ssl
import time
import weakref
from typing import Any

from .server_messages import err_protocol, req_welcome
from .server_words import said
from .connection import LINE_BURST, REFUSAL_LOG_INTERVAL, Session, address_key, network_key
from .event_log import EventLog
from .framing import encode
from .heap import GiveBack
from .poller import Poller
from .tls import HandshakeGate, cert_fingerprint, tls_context

log = logging.getLogger("mor.server")

DESCRIPTOR_HEADROOM = 64
"""File descriptors kept free beyond ``max_connections`` (game logs, bot workers, the refusals of
connections past the limit, which are accepted, told and closed)."""

ACCEPT_BATCH = 256
"""Connections accepted per wake-up at most (the rest are taken at the next one)."""

ACCEPT_PAUSE = 0.1
"""Seconds accepting pauses after a failed ``accept`` (e.g. EMFILE), so the loop does not spin."""

REFUSALS = {"full": "(server full)", "address": "(too many from one address)",
            "network": "(too many from one IPv6 network)"}

_IN = Poller.IN


class Door:
    """Listening and accepting, for :class:`~.transport.Transport` (which provides the poller,
    the connections, the clocks, ``_read``, ``_watch``, ``_close`` and ``_call_at``)."""

    def __init__(self, options: Any) -> None:
        self.options = options
        self.listener: socket.socket | None = None
        self.tls_listener: socket.socket | None = None   # the TLS port's (--tls-cert)
        self.address: tuple[str, int] = (options.host, options.port)
        self.tls_address: tuple[str, int] | None = None
        # the TLS port as the internet reaches it, where a router forwards it under another number
        # (a hosted game's port mapping sets it: game/client/flow/port_opening.py): (outside address, port)
        self.tls_outside: tuple[str, int] | None = None
        self._tls_context: ssl.SSLContext | None = None
        self.tls_fingerprint = ""          # its certificate's, for the log (and the players who ask)
        self.tls_gate = HandshakeGate(options.tls_handshake_rate, options.max_tls_handshakes,
                                      options.tls_handshakes_in_all)
        self._draining = False             # handshakes that waited for a slot are being begun
        self.memory = GiveBack(options.give_back_after)   # the janitor's, after a burst of connections or lines
        self.tls_handshakes = 0            # TLS handshakes begun since the start
        self._accepting = False
        self._accept_failing = False
        self._numbers = 0
        self.per_address: dict[str, int] = {}   # address key -> its connections now
        self.per_network: dict[str, int] = {}   # IPv6 site (network key) -> its connections now
        self.max_connections = options.max_connections   # lowered to fit the descriptor limit
        self.refused: dict[str, int] = {}  # why -> connections refused at the door since the last log line
        self._refused_logged = 0.0
        self.events = EventLog(log)        # events a stranger repeats at will, summed up past a few

    def _listen(self) -> None:
        """Bind the plain port (and the TLS port, with a certificate).

        :raises OSError: an address cannot be bound, or a certificate file cannot be read;
        :raises ssl.SSLError: the certificate and its key are not one.
        """
        self.max_connections = fit_descriptors(self.options.max_connections)
        try:
            self._tls_context = tls_context(self.options)
            self.listener = self._bind()
            if self._tls_context is not None:
                o = self.options
                self.tls_listener = self._bind(o.port + 1 if o.tls_port is None and o.port else o.tls_port or 0)
        except (OSError, ssl.SSLError):
            if self.listener is not None:
                self.listener.close()
            raise
        self.address = self.listener.getsockname()[:2]
        if self.tls_listener is not None:
            self.tls_address = self.tls_listener.getsockname()[:2]
            self.tls_fingerprint = cert_fingerprint(self.options.tls_cert)

    def _close_listeners(self) -> None:
        for listener in (self.listener, self.tls_listener):
            if listener is not None:
                self._unwatch(listener.fileno())
                listener.close()

    def _bind(self, port: int | None = None) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.options.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.options.host, self.options.port if port is None else port))
            sock.listen(1024)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        return sock

    def _accept_ready(self, tls: socket.socket | None = None) -> None:
        """Accept every pending connection (up to ACCEPT_BATCH a wake-up) of the plain port, or of
        the TLS port ``tls``. On a failure such as EMFILE, stop watching the listeners for
        ACCEPT_PAUSE seconds instead of spinning."""
        listener = tls or self.listener
        if listener is None or not self._accepting:
            return
        for _ in range(ACCEPT_BATCH):
            try:
                conn, addr = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.ECONNABORTED, errno.EPROTO):
                    continue   # the client gave up before we took it
                if not self._accept_failing:   # once per streak of failures, not 10 times a second
                    log.warning("accept failed: %s; retrying every %.1f s", e, ACCEPT_PAUSE)
                self._accept_failing = True
                self._accepting = False
                for each in (self.listener, self.tls_listener):
                    if each is not None:
                        self._unwatch(each.fileno())
                self._call_at(time.monotonic() + ACCEPT_PAUSE, self._resume_accepting)
                return
            if self._accept_failing:
                self._accept_failing = False
                log.warning("accepting connections again")
            try:
                self._open_session(conn, addr, tls is not None)
            except Exception:
                log.exception("could not set up a connection from %s", addr)
                try:
                    conn.close()
                except OSError:
                    pass

    def _resume_accepting(self) -> None:
        if self._stopping.is_set() or self.listener is None or self._accepting:
            return
        assert self._poller is not None
        self._accepting = True
        self._poller.register(self.listener.fileno(), _IN)
        if self.tls_listener is not None:
            self._poller.register(self.tls_listener.fileno(), _IN)
            self._accept_ready(self.tls_listener)
        self._accept_ready()

    def _open_session(self, conn: socket.socket, addr: Any, tls: bool = False) -> None:
        o = self.options
        key = address_key(addr)
        here = self.per_address.get(key, 0)
        if self.max_connections and len(self.sessions) >= self.max_connections:
            self._refuse(conn, "full", said("limits.server_full"), tls)
            return
        if o.max_per_address and here >= o.max_per_address:
            self._refuse(conn, "address", said("limits.connections", most=o.max_per_address), tls)
            return
        net = network_key(addr)
        if net is not None and o.max_per_network and self.per_network.get(net, 0) >= o.max_per_network:
            self._refuse(conn, "network", said("limits.network_connections", most=o.max_per_network), tls)
            return
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if tls:
            assert self._tls_context is not None
            conn = self._tls_context.wrap_socket(conn, server_side=True, do_handshake_on_connect=False)
        self._numbers += 1
        s = Session(self, conn, addr, self._numbers)
        s.allowance = o.line_rate * LINE_BURST
        assert self._poller is not None
        self._poller.register(s.fd, _IN, edge=True)
        self._conns[s.fd] = s
        self.sessions.add(s)
        self.per_address[key] = here + 1
        if net is not None:
            self.per_network[net] = self.per_network.get(net, 0) + 1
        self.clocks.add(s, s.opened + min((t for t in (o.heartbeat, o.join_time, o.lobby_time) if t > 0), default=1.0))
        log.debug("connection %d from %s%s", s.number, addr, " (TLS)" if tls else "")
        if tls:
            self._handshake(s)    # a silent one is closed by the connections' watch, as any other
        else:
            s.send(req_welcome())

    def _refuse(self, conn: socket.socket, why: str, text: str, tls: bool = False) -> None:
        """A connection past a limit: told why in one line (if its socket takes it now; on the
        TLS port it is only closed: no handshake is spent on it), closed. Logged at most once
        every REFUSAL_LOG_INTERVAL seconds, with the count since."""
        if not tls:
            try:
                conn.setblocking(False)
                conn.send(encode(req_welcome()) + encode(err_protocol(text)))
            except OSError:
                pass
        conn.close()
        self.refused[why] = self.refused.get(why, 0) + 1
        now = time.monotonic()
        if now - self._refused_logged >= REFUSAL_LOG_INTERVAL:
            self._refused_logged = now
            log.warning("connections refused: %s (%d connections now, at most %d; %d per address)",
                        ", ".join(f"{n} {REFUSALS[k]}" for k, n in self.refused.items()),
                        len(self.sessions), self.max_connections, self.options.max_per_address)
            self.refused = {}

    def _handshake(self, s: Any) -> None:
        """Take a TLS connection's handshake a step further (as its socket allows); once it is
        over, the connection is served as any other, from ``ReqWelcome`` on. It begins only in
        its address's turn (:class:`~.tls.HandshakeGate`)."""
        if s.tls_turn != 2 and not self._handshake_turn(s):
            return
        try:
            s.sock.do_handshake()   # type: ignore[attr-defined]
        except ssl.SSLWantReadError:
            return self._want_out(s, False)
        except ssl.SSLWantWriteError:
            return self._want_out(s, True)
        except OSError as e:   # ssl.SSLError included: not TLS, or not a version we speak
            self.events.event("failed TLS handshakes", s.ip, "%r TLS handshake failed: %s", s, e)
            self._close(s)
            return
        s.handshake = False
        self._handshake_over(s)
        self._want_out(s, bool(s.out))
        s.send(req_welcome())
        self._read(s, time.monotonic())   # what came with the handshake's end

    def _handshake_now(self, ref: "weakref.ref[Any]") -> None:
        """A handshake that waited its turn begins (unless its connection is gone meanwhile)."""
        s = ref()
        if s is None or s.closed:
            return
        if self._begin_handshake(s):
            self._handshake(s)

    def _begin_handshake(self, s: Any) -> bool:
        """Its address's turn has come: the handshake of ``s`` begins if the server's handshakes
        in progress and pace in all allow (:meth:`~.tls.HandshakeGate.begin`); else it waits."""
        gate = self.tls_gate
        wait = gate.begin(time.monotonic()) if not gate.queued else math.inf
        if wait:
            s.tls_turn = 1
            gate.wait(s.ip, weakref.ref(s))
            self._drain_handshakes(wait)
            return False
        self._began(s)
        return True

    def _began(self, s: Any) -> None:
        """The handshake of ``s`` holds one of the handshakes in progress: for
        ``tls_handshake_time`` at most (:meth:`_handshake_slow`)."""
        s.tls_turn = 2
        s.tls_begun = now = time.monotonic()
        self.tls_handshakes += 1
        limit = self.options.tls_handshake_time
        if limit > 0:
            self._call_at(now + limit, self._handshake_slow, weakref.ref(s), now)

    def _handshake_slow(self, ref: "weakref.ref[Any]", begun: float) -> None:
        """A handshake still in progress ``tls_handshake_time`` after it began gives its place back
        (a stranger who opens connections to the TLS port and stalls them held every place, and so
        every newcomer's handshake, until its clocks closed them): it waits its turn again when its
        client says more, and its clocks close it if it says nothing."""
        s = ref()
        if s is None or s.closed or not s.handshake or s.tls_turn != 2 or s.tls_begun != begun:
            return
        s.tls_turn = 0
        self.events.event("slow TLS handshakes", s.ip, "%r TLS handshake not over in %g s: its place given back",
                          s, self.options.tls_handshake_time)
        self._handshake_over(s)

    def _handshake_over(self, s: Any) -> None:
        """The handshake of ``s`` (begun) is over, done or not: the next waiting one may begin."""
        self.tls_gate.over()
        self._drain_handshakes(0.0)

    def _drain_handshakes(self, wait: float) -> None:
        """Begin the handshakes that waited in ``wait`` seconds (inf: when one is over)."""
        if self.tls_gate.queued and not self._draining and wait != math.inf:
            self._draining = True
            self._call_at(time.monotonic() + wait, self._next_handshakes)

    def _next_handshakes(self) -> None:
        """Begin the handshakes that waited, the addresses in turn, while the gate allows."""
        gate = self.tls_gate
        wait = math.inf
        now = time.monotonic()   # one instant: the time the handshakes take earns no more of them
        try:
            while gate.queued:
                wait = gate.begin(now)
                if wait:
                    break
                while True:
                    s = gate.next_waiting()
                    if s is None:
                        break
                    s = s()
                    if s is not None and not s.closed:
                        break
                if s is None:
                    gate.over()
                    break
                self._began(s)
                self._handshake(s)
        finally:
            self._draining = False
        self._drain_handshakes(wait)

    def _want_out(self, s: Any, out: bool) -> None:
        if s.writing != out and not s.closed:
            s.writing = out
            self._watch(s)

    def _handshake_turn(self, s: Any) -> bool:
        """May the handshake of ``s`` begin now (:class:`~.tls.HandshakeGate`)? If it must wait its
        turn, a timer hands it its turn; if it would wait too long, it is closed at once."""
        if s.tls_turn == 1:
            return False   # its timer comes
        now = time.monotonic()
        wait = self.tls_gate.admit(s.ip, now)
        if wait is None:
            self._close(s)
            return False
        if wait > 0:
            s.tls_turn = 1
            self._call_at(now + wait, self._handshake_now, weakref.ref(s))
            return False
        return self._begin_handshake(s)


def fit_descriptors(wanted: int) -> int:
    """Raise this process's soft limit of open files as far as the hard limit allows and return
    how many connections fit under it with DESCRIPTOR_HEADROOM to spare (``wanted`` at most; 0
    for ``wanted`` 0 means no limit of our own, only the descriptors')."""
    try:
        import resource
    except ImportError:   # not on Unix
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = (wanted or 1_000_000) + DESCRIPTOR_HEADROOM
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:
            log.warning("cannot raise the limit of open files from %d to %d: %s", soft, target, e)
    if soft == resource.RLIM_INFINITY:
        return wanted
    fit = max(1, soft - min(DESCRIPTOR_HEADROOM, soft // 4))
    if wanted and wanted <= fit:
        return wanted
    if wanted:
        log.warning("at most %d connections, not %d: the limit of open files is %d", fit, wanted, soft)
    return fit
