"""Many client connections on one thread, for the load generator (``server_load.py`` and the
benchmarks built on it) and the tests of it: non-blocking sockets and one poller, no thread per
connection.

:meth:`ConnectionGroup.poll` returns ``(peer, message)`` pairs, or :meth:`ConnectionGroup.dispatch`
hands each to a function as soon as it is read; keep-alive probes are sent from there too. Each
peer speaks through the game's own :class:`~game.netcode.client.ClientProtocol` (it answers the
server's ``ReqWelcome`` and ``ReqHeartbeat``, and may be muted), and a connection that ends gives
one ``ConnectionLost`` message, as a :class:`~game.netcode.client.Connection` does.

It lives with the benchmarks, not in ``game/``: no program of the game uses it. Bench scripts
import it as ``bench.lib.connection_group`` (with the repository's root on ``sys.path``), and so
do the tests (``tests/conftest.py`` puts the root there).
"""
from __future__ import annotations

import socket
import struct
import sys
import time
from typing import Any, Callable

from game.netcode.client import (CONNECTION_LOST, HEARTBEAT_INTERVAL, ClientProtocol, Message, Outgoing,
                                 encode_outgoing)
from game.netcode.framing import encode
from game.netcode.poller import Poller
from game.netcode.server_messages import req_heartbeat

KEEPALIVE_SLICES = 50
"""A :class:`ConnectionGroup` looks at a fiftieth of its peers every fiftieth of a second for
their keep-alive."""

_OUT = Poller.OUT
_READABLE = Poller.READABLE   # data, a hang-up or an error: the read tells which
_SO_TIMESTAMPNS: int | None = getattr(socket, "SO_TIMESTAMPNS", 35 if sys.platform == "linux" else None)
"""Socket option asking the kernel to stamp received packets (Linux; the constant is missing from
some Python builds)."""
_TIMESPEC = struct.Struct("@qq")   # struct timespec on 64-bit Linux: seconds, nanoseconds
_ANCILLARY_BYTES = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 64
_REQ_HEARTBEAT = encode(req_heartbeat())


class Peer:
    """One connection of a :class:`ConnectionGroup`.

    ``data`` is the owner's (whatever it wants to find again from a message). ``read_at`` is the
    time, on the group's :attr:`~ConnectionGroup.clock`, of the read that brought the messages now
    being handed out; ``received_at`` is when they reached the socket: the kernel's receive
    timestamp of the last packet of that read when the group takes them, else ``read_at``. A
    latency measured to ``received_at`` does not include the time the owner took to get to them.
    """

    __slots__ = ("group", "sock", "fd", "protocol", "out", "data", "connected", "received_at",
                 "read_at", "last_send", "_writing")

    def __init__(self, group: "ConnectionGroup", sock: socket.socket, data: Any) -> None:
        self.group = group
        self.sock = sock
        self.fd = sock.fileno()
        self.protocol = ClientProtocol(self._queue)
        self.out = bytearray()         # what the socket has not taken yet
        self.data = data
        self.connected = True
        self.received_at = 0.0
        self.read_at = 0.0
        self.last_send = time.monotonic()
        self._writing = False          # watched for write readiness (``out`` is not empty)

    def __repr__(self) -> str:
        return f"<Peer {self.fd} {'connected' if self.connected else 'closed'}>"

    def send(self, msg: Outgoing | bytes) -> None:
        """Send one message (as :meth:`~game.netcode.client.Connection.send`). Never blocks: what the socket does not
        take now is kept and sent by :meth:`ConnectionGroup.poll`.

        :raises ConnectionError: the connection is over (``ConnectionLost`` was or will be reported).
        :raises TypeError: the message cannot be encoded (nothing is sent).
        """
        data = encode_outgoing(msg)
        if not self.connected:
            raise ConnectionError("connection closed")
        self._queue(data)

    def _queue(self, data: bytes) -> None:
        if not self.connected:
            return
        self.last_send = time.monotonic()
        if self.out:
            self.out += data
            return
        try:
            n = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            n = 0
        except OSError as e:
            self.group._lose(self, f"connection error: send failed: {e}")
            return
        if n < len(data):
            self.out += memoryview(data)[n:]
            self.group._watch(self)

    def _flush(self) -> None:
        try:
            n = self.sock.send(self.out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as e:
            self.group._lose(self, f"connection error: send failed: {e}")
            return
        del self.out[:n]
        if not self.out:
            self.group._watch(self)

    def close(self) -> None:
        """Close this connection; ``ConnectionLost`` ("closed by client") comes from the next poll."""
        self.group._lose(self, "closed by client")


class ConnectionGroup:
    """Many client connections on the caller's thread: non-blocking sockets and one poller.

    :param heartbeat_interval: seconds of outgoing silence after which :meth:`poll` sends a peer
        an automatic ``ReqHeartbeat`` (checked once a second).
    :param kernel_timestamps: ask the kernel to stamp each received packet (``SO_TIMESTAMPNS``,
        where the platform has it) and report that time as each peer's ``received_at``. Linux
        turns stamping on a moment after it is first asked for: a read of packets that came
        before that has no stamp, and its ``received_at`` is its ``read_at``.

    :attr:`clock` is the clock of ``received_at`` and ``read_at``: ``time.time`` with kernel
    timestamps (the kernel stamps with the wall clock), else ``time.perf_counter``.

    >>> group = ConnectionGroup()                                   # doctest: +SKIP
    >>> alice = group.connect("127.0.0.1", 51015, data="alice")     # doctest: +SKIP
    >>> alice.send(ReqJoin("alice"))                                # doctest: +SKIP
    >>> for peer, msg in group.poll(0.1): print(peer.data, msg["type"])   # doctest: +SKIP
    alice UpdateBookedSeats
    """

    RECV_BYTES = 256 * 1024

    def __init__(self, heartbeat_interval: float = HEARTBEAT_INTERVAL,
                 kernel_timestamps: bool = False) -> None:
        self.kernel_timestamps = kernel_timestamps and _SO_TIMESTAMPNS is not None
        self.clock: Callable[[], float] = time.time if kernel_timestamps else time.perf_counter
        self._poller = Poller.create()
        self._by_fd: dict[int, Peer] = {}
        self.peers: set[Peer] = set()
        self._lost: list[tuple[Peer, Message]] = []   # ConnectionLost not yet handed out
        self._heartbeat_interval = heartbeat_interval
        self._next_keepalive = time.monotonic() + 1.0 / KEEPALIVE_SLICES
        self._keepalive_todo: list[Peer] = []   # the peers the keep-alive has yet to look at this second
        self._keepalive_share = 0

    def connect(self, host: str, port: int, timeout: float = 5.0, data: Any = None) -> Peer:
        """Open one more connection (the connect itself blocks up to ``timeout`` seconds).

        :raises OSError: the connection cannot be made.
        """
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.kernel_timestamps:
                sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
            sock.setblocking(False)
            peer = Peer(self, sock, data)
            self._poller.register(peer.fd, Poller.IN)
        except BaseException:
            sock.close()
            raise
        self.peers.add(peer)
        self._by_fd[peer.fd] = peer
        return peer

    def poll(self, timeout: float | None = 0.0) -> list[tuple[Peer, Message]]:
        """Send what is pending, read what has come (waiting up to ``timeout`` seconds for
        something; None: until something comes) and return each message with its peer, in order
        of arrival per peer. A connection that ended gives one last ``ConnectionLost``."""
        out: list[tuple[Peer, Message]] = []
        self.dispatch(lambda peer, msg: out.append((peer, msg)), timeout)
        return out

    def dispatch(self, handler: Callable[[Peer, Message], Any], timeout: float | None = 0.0) -> int:
        """:meth:`poll`, but each message goes to ``handler(peer, message)`` as soon as its peer
        has been read, before the next peer is read: what the handler sends in answer leaves at
        once, and each peer's ``received_at`` is the time of its own read. Returns the number of
        messages handled."""
        count = 0
        if self._lost:
            lost, self._lost = self._lost, []
            for peer, msg in lost:
                handler(peer, msg)
            count += len(lost)
            timeout = 0.0
        if not self._by_fd:
            return count
        recv_bytes = self.RECV_BYTES
        clock = self.clock
        stamped = self.kernel_timestamps
        by_fd = self._by_fd
        for fd, events in self._poller.poll(timeout):
            peer = by_fd.get(fd)
            if peer is None:
                continue
            if events & _OUT and peer.connected:
                peer._flush()
            if events & _READABLE and peer.connected:
                try:
                    if stamped:
                        data, ancillary, _, _ = peer.sock.recvmsg(recv_bytes, _ANCILLARY_BYTES)
                    else:
                        data = peer.sock.recv(recv_bytes)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError as e:
                    self._lose(peer, f"connection error: {e}")
                    continue
                if not data:
                    self._lose(peer, "closed by server")
                    continue
                peer.read_at = peer.received_at = clock()
                if stamped:
                    for level, kind, value in ancillary:
                        if kind == _SO_TIMESTAMPNS and level == socket.SOL_SOCKET and len(value) >= 16:
                            sec, nsec = _TIMESPEC.unpack_from(value)
                            peer.received_at = sec + nsec * 1e-9
                for msg in peer.protocol.messages(data):
                    handler(peer, msg)
                    count += 1
        while self._lost:   # lost while reading, or by what the handler sent
            lost, self._lost = self._lost, []
            for peer, msg in lost:
                handler(peer, msg)
            count += len(lost)
        now = time.monotonic()
        if now >= self._next_keepalive:
            self._next_keepalive = now + 1.0 / KEEPALIVE_SLICES
            self._keepalive(now)
        return count

    def close(self) -> None:
        """Close every connection (no ``ConnectionLost`` is reported for them) and the selector."""
        for peer in list(self.peers):
            self._lose(peer, "closed by client")
        self._lost.clear()
        self._poller.close()

    def __enter__(self) -> "ConnectionGroup":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals
    def _keepalive(self, now: float) -> None:
        """Look at the next of KEEPALIVE_SLICES slices of the peers (so each peer once a second,
        each at a moment of its own, as separate clients would: 10,000 peers do not send their
        heartbeats in one burst)."""
        todo = self._keepalive_todo
        if not todo:
            todo = self._keepalive_todo = list(self.peers)
            self._keepalive_share = -(-len(todo) // KEEPALIVE_SLICES)   # a fiftieth, rounded up
        due = now - self._heartbeat_interval
        for _ in range(min(self._keepalive_share, len(todo))):
            peer = todo.pop()
            if peer.connected and peer.last_send <= due:
                peer.protocol.probe_sent()
                peer._queue(_REQ_HEARTBEAT)

    def _watch(self, peer: Peer) -> None:
        writing = bool(peer.out)
        if writing != peer._writing:
            peer._writing = writing
            self._poller.modify(peer.fd, Poller.IN | (Poller.OUT if writing else 0))

    def _lose(self, peer: Peer, reason: str) -> None:
        if not peer.connected:
            return
        peer.connected = False
        if self._by_fd.get(peer.fd) is peer:
            del self._by_fd[peer.fd]
            try:
                self._poller.unregister(peer.fd)
            except (KeyError, ValueError, OSError):
                pass
        try:
            peer.sock.close()
        except OSError:
            pass
        peer.out = bytearray()
        self.peers.discard(peer)
        self._lost.append((peer, {"type": CONNECTION_LOST, "reason": reason}))
