"""One client connection of the server (:class:`Session`), as the transport keeps it.

A session is the socket and its buffers (what was read and not answered yet, what is queued and
not yet taken by the socket, its clocks and line rate), which only the transport
(:mod:`.transport`) touches, and where its player stands (nickname, token, the game or table it
sits at), which the lobby and the games read and write as a :class:`~.games.Client`.
"""
from __future__ import annotations

import socket
import ssl
import threading
import time
from collections import deque
from typing import Any

from .framing import LineFeeder, encode
from .room import Room
from .tables import Table

LINE_BURST = 4.0
"""A connection may send this many seconds' worth of ``line_rate`` lines at once (a burst after a
quiet spell: a rejoin, a plan of several requests) before it is held to the rate."""

LINE_BYTES = 512
"""Bytes a line may hold and still count as one toward ``line_rate``: a longer line counts as one
more per LINE_BYTES (a 53 KB line as 104), so the rate bounds the bytes read and parsed a second,
not only the lines (the reference clients' longest line is 168 bytes; our chat lines stay under 2.5 KB)."""

UNDO_LINES = 10
"""Lines an undo counts as toward ``line_rate``: it sends the whole game to everyone at the table
(a solo game's ``UpdateGame`` is some 20 KB, and the undo replays the turn), so swap/undo churn at
the line rate from 32 connections of four addresses took the loop whole (issue 28, finding 12);
at 10, a connection undoes 5 times a second, 20 in a burst: more than any player's hand."""

MAX_LINE_UNJOINED = 8 * 1024
"""Longest line, in bytes, of a connection that has not joined (``ReqWelcome``, ``ReqJoin``, a list
of tables, a watch: each under 300 bytes, a watcher's chat under 2.5 KB): a longer one is answered
``Line too long.`` and dropped as it comes, never parsed (:data:`~.framing.MAX_LINE` once joined)."""

REFUSAL_LOG_INTERVAL = 10.0
"""Seconds between two log lines about connections refused or held back (counted in between)."""


class Session:
    """One client connection: its socket, what it has sent and not yet finished, what is queued
    for it, and where it stands.

    ``nickname`` is set by a successful ``ReqJoin`` and never changes; ``room`` is the game the
    player sits in (None while in the waiting list); ``left`` is set once the player has quit
    (``ReqQuit``, ``ReqGoodbye`` or the connection ending). Only the server's loop thread touches
    a session, except :meth:`send`, :meth:`push` and :meth:`abort`, which any thread may call.
    """

    __slots__ = ("server", "sock", "fd", "addr", "number", "nickname", "token", "room", "left",
                 "announced", "line_reader", "out", "dirty", "writing", "closed", "goodbye",
                 "hangup", "last_input", "pinged", "extensions", "chat_times", "tls", "handshake",
                 "ip", "net", "opened", "since", "pending", "pending_at", "allowance", "allowance_at", "throttled",
                 "table", "tls_turn", "tls_begun", "watching", "booked", "handle", "__weakref__")

    def __init__(self, server: Any, sock: socket.socket, addr: Any, number: int) -> None:
        self.server = server   # the Transport serving it (the server)
        self.sock = sock
        self.fd = sock.fileno()
        self.addr = addr
        self.number = number
        self.nickname: str | None = None
        self.handle: str | None = None   # what the server's books keep it under (names.handle)
        self.token: str | None = None
        self.room: Room | None = None
        self.table: Table | None = None   # the open table it sits at, waiting for its game (our extension)
        self.left = False
        self.announced: int | None = None   # the game size already announced with UpdateJoinGame
        self.line_reader = LineFeeder(MAX_LINE_UNJOINED)   # MAX_LINE once it has joined
        self.out = bytearray()        # encoded messages not yet taken by the socket
        self.dirty = False            # in the server's list of connections to flush
        self.writing = False          # watched for OUT (the socket did not take everything)
        self.closed = False
        self.goodbye = False          # ResGoodbye queued: read nothing more, close once flushed
        self.hangup = False           # the peer closed its side (or the socket failed): read to the end
        self.last_input = time.monotonic()
        self.pinged = False           # ReqHeartbeat sent since the last input
        self.extensions = False       # joined with a token field: our client, told our extensions
        self.chat_times: deque[float] = deque()   # when its last chat lines came (rate limit)
        self.tls = isinstance(sock, ssl.SSLSocket)   # came in on the TLS port
        self.handshake = self.tls     # its TLS handshake is not over: nothing is read or sent yet
        self.tls_turn = 0             # its handshake: 0 not begun, 1 waits its turn (tls_handshake_rate,
                                      # max_tls_handshakes), 2 begun (in progress while handshake)
        self.tls_begun = 0.0          # when its handshake last began (tls_handshake_time)
        self.ip = address_key(addr)   # whom the per-address limits count it for
        self.net = network_key(addr)  # the IPv6 site it comes from (max_per_network), None for IPv4
        self.opened = self.last_input
        self.since = self.last_input  # since when it has been outside a game in progress
        self.pending: list[bytes | Any] = []   # lines read and not answered yet (its turn ended)
        self.pending_at = 0
        self.allowance = 0.0          # lines it may send now (line_rate; set when it is accepted)
        self.allowance_at = self.last_input
        self.throttled = False        # past its line rate: read again once the allowance is back
        self.booked: bytes | None = None   # the last UpdateBookedSeats its table told it (not told twice)
        self.watching: Any = None     # the table it watches (:class:`~.watchers.Stage`; our extension)

    def __repr__(self) -> str:
        return f"<Session {self.number} {self.nickname or '-'} {self.addr}>"

    @property
    def backlog(self) -> int:
        """Bytes queued for it and not yet taken by its socket."""
        return len(self.out)

    def send(self, *msgs: dict[str, Any]) -> None:
        """Queue messages, encoded now into one buffer; the loop sends them. Never blocks."""
        if self.closed:
            return
        if len(msgs) == 1:
            self.push(encode(msgs[0]))
        else:
            self.push(b"".join([encode(m) for m in msgs]))

    def push(self, data: bytes) -> None:
        """Queue lines already encoded (a broadcast encodes once for all its recipients).

        Only the loop thread touches the buffer (it may be in the middle of sending it): from
        any other thread the lines are handed to the loop, which is woken.
        """
        if self.closed:
            return
        server = self.server
        if threading.get_ident() != server._loop_thread_id:
            server._call_soon(self.push, data)
            return
        self.out += data
        server.queued += len(data)
        if not self.dirty:
            self.dirty = True
            server._dirty.append(self)

    def said_goodbye(self) -> None:
        """Read nothing more; the connection closes once what is queued (``ResGoodbye``) is sent,
        or after :data:`~.outbox.WRITER_FLUSH_TIMEOUT` seconds."""
        if self.goodbye or self.closed:
            return
        self.goodbye = True
        self.server._call_soon(self.server._goodbye_started, self)

    def abort(self) -> None:
        """Close the connection from any thread (idempotent, never blocks); the loop then runs the
        player's quit routine."""
        self.server._call_soon(self.server._close, self)


ADDRESS_PREFIX = 56
"""The IPv6 network counted as one address by the per-address limits: a home line is often given
a /56 (256 /64s), as an IPv4 home shares one address."""
NETWORK_PREFIX = 48
"""The IPv6 network counted as one site by ``max_per_network``: an office is often given a /48,
256 home lines' worth."""


def network_key(addr: Any) -> str | None:
    """The IPv6 site a connection from ``addr`` comes from (its /48), or None (IPv4: an address
    is already scarce there)."""
    host = addr[0] if isinstance(addr, tuple) and addr else str(addr)
    if ":" not in host or (host.startswith("::ffff:") and "." in host):
        return None
    try:
        import ipaddress
        net = ipaddress.IPv6Network(f"{host.split('%')[0]}/{NETWORK_PREFIX}", strict=False)
        return f"{net.network_address}/{NETWORK_PREFIX}"
    except ValueError:
        return None


def address_key(addr: Any) -> str:
    """Whom a connection from ``addr`` counts for in the per-address limits: its IPv4 address,
    or the /56 network of an IPv6 one (what a home line is given: a single host has a whole /64,
    and one line 256 of them)."""
    host = addr[0] if isinstance(addr, tuple) and addr else str(addr)
    if ":" not in host:
        return host
    if host.startswith("::ffff:") and "." in host:
        return host[7:]
    try:
        import ipaddress
        net = ipaddress.IPv6Network(f"{host.split('%')[0]}/{ADDRESS_PREFIX}", strict=False)
        return f"{net.network_address}/{ADDRESS_PREFIX}"
    except ValueError:
        return host
