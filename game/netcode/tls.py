"""TLS on the server: its context, its certificate's fingerprint, and when a handshake may begin.

A TLS handshake costs the loop about 0.6 ms of CPU, so one address begins at most
``tls_handshake_rate`` a second (after a burst of :data:`TLS_BURST` seconds' worth). Past that, a
connection waits its turn, as the connections before it from its address do, up to TLS_BURST
seconds; one that would wait longer is closed at once. Whoever opens handshakes as fast as it can
only makes its own address wait; the others' handshakes cost what they cost.

Many addresses (the /64s of one attacker, each within its rate) could still begin hundreds a
second together (576 a second measured: the others' p99 370 ms), so on the whole server at most
``max_tls_handshakes`` are in progress (begun, not over) and at most ``tls_handshakes_in_all``
begin a second (in bursts of :data:`ALL_BURST` seconds' worth): a handshake past them waits for
its turn, the addresses waiting taking turns (one that opens many waits behind each other's
first); its connection's clocks still close it if it stays silent. However many addresses open
handshakes, they take at most that share of the loop.
:class:`HandshakeGate` keeps those counts (no socket: the transport asks it, then acts).
"""
from __future__ import annotations

import hashlib
import logging
import ssl
import math
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from .connection import REFUSAL_LOG_INTERVAL

log = logging.getLogger("mor.server")

TLS_BURST = 8.0
"""One address may begin this many seconds' worth of ``tls_handshake_rate`` TLS handshakes at once
(the players behind one NAT arriving together); past them a handshake waits its turn, up to this
many seconds (then the connection is closed at once: nothing is spent on it)."""


ALL_BURST = 0.025
"""The handshakes begun in all come at most this many seconds' worth of ``tls_handshakes_in_all``
at once (one wake-up of the loop spends at most that much on them)."""


def fingerprint(der: bytes) -> str:
    """A TLS certificate's SHA-256 fingerprint (from its DER bytes), as ``openssl x509 -noout
    -fingerprint -sha256`` prints it: what the server logs and our client remembers."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return "SHA256:" + ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


class HandshakeGate:
    """How many TLS handshakes each address may begin now (a bucket per address).

    >>> gate = HandshakeGate(rate=1.0)
    >>> [gate.admit("10.0.0.1", 0.0) for _ in range(8)] == [0.0] * 8   # the burst
    True
    >>> gate.admit("10.0.0.1", 0.0), gate.admit("10.0.0.2", 0.0)      # the next waits 1 s; others do not
    (1.0, 0.0)
    """

    def __init__(self, rate: float, most: int = 0, in_all: float = 0.0) -> None:
        self.rate = rate
        self.most = most                 # handshakes in progress at once in all (0: no limit)
        self.in_all = in_all             # handshakes begun a second in all (0: no limit)
        self.in_progress = 0
        self.waiting: OrderedDict[str, deque[Any]] = OrderedDict()   # address -> the transport's refs
        self.queued = 0                  # refs waiting, all addresses together
        self._all = max(1.0, in_all * ALL_BURST)   # handshakes that may begin in all now
        self._all_at = 0.0
        self.buckets: dict[str, tuple[float, float]] = {}   # address -> (handshakes it may begin, when)
        self._held: dict[str, list[int]] = {}   # address -> [handshakes held back, closed] since the last log line
        self._held_logged = 0.0

    def admit(self, ip: str, now: float) -> float | None:
        """May a handshake from ``ip`` begin at ``now`` (a ``time.monotonic()`` value)? 0: at once;
        a number of seconds: then (it waits its turn); None: never (close the connection)."""
        rate = self.rate
        if rate <= 0:
            return 0.0
        burst = rate * TLS_BURST
        allowance, at = self.buckets.get(ip, (burst, now))
        allowance = min(burst, allowance + (now - at) * rate) - 1.0
        if allowance < 0:
            held = self._held.setdefault(ip, [0, 0])
            if allowance < -burst:
                held[1] += 1
                self._log_held(now)
                return None
            held[0] += 1
            self._log_held(now)
            self.buckets[ip] = (allowance, now)
            return -allowance / rate
        self.buckets[ip] = (allowance, now)
        return 0.0

    def begin(self, now: float) -> float:
        """May one more handshake begin at ``now`` on the whole server? 0: yes (it is counted as in
        progress until :meth:`over`); else the seconds until one may (inf: when one is over)."""
        if self.most and self.in_progress >= self.most:
            return math.inf
        pace = self.in_all
        if pace > 0:
            burst = max(1.0, pace * ALL_BURST)
            allowance = min(burst, self._all + (now - self._all_at) * pace)
            self._all_at = now
            if allowance < 1.0:
                self._all = allowance
                return (1.0 - allowance) / pace
            self._all = allowance - 1.0
        self.in_progress += 1
        return 0.0

    def over(self) -> None:
        """A handshake that began is over (done, failed, or its connection closed)."""
        self.in_progress = max(0, self.in_progress - 1)

    def wait(self, ip: str, ref: Any) -> None:
        """``ref`` (from ``ip``) waits for a handshake to end, or for the pace in all."""
        queue = self.waiting.get(ip)
        if queue is None:
            queue = self.waiting[ip] = deque()
        queue.append(ref)
        self.queued += 1

    def next_waiting(self) -> Any:
        """The next that waited (None: none), the addresses in turn: one that opens many waits
        behind each other address's first."""
        waiting = self.waiting
        if not waiting:
            return None
        ip, queue = next(iter(waiting.items()))
        ref = queue.popleft()
        self.queued -= 1
        if queue:
            waiting.move_to_end(ip)
        else:
            del waiting[ip]
        return ref

    def forget(self, now: float) -> None:
        """Addresses whose allowance is whole again are forgotten (the janitor, every second)."""
        rate = self.rate
        if not self.buckets or rate <= 0:
            return
        burst = rate * TLS_BURST
        for ip, (allowance, at) in list(self.buckets.items()):
            if allowance + (now - at) * rate >= burst:
                del self.buckets[ip]

    def _log_held(self, now: float) -> None:
        """One WARNING line at most every REFUSAL_LOG_INTERVAL seconds about the TLS handshakes held
        back, with the counts by address since the last one."""
        if now - self._held_logged < REFUSAL_LOG_INTERVAL:
            return
        self._held_logged = now
        worst = sorted(self._held.items(), key=lambda kv: -sum(kv[1]))
        log.warning("TLS handshakes past %g a second from one address: %s", self.rate,
                    "; ".join(f"{ip}: {w} waited their turn, {c} closed" for ip, (w, c) in worst[:3])
                    + (f"; and {len(worst) - 3} more addresses" if len(worst) > 3 else ""))
        self._held = {}


def tls_context(options: Any) -> ssl.SSLContext | None:
    """The server's TLS context (TLS 1.2 at least) from ``tls_cert``/``tls_key``, or None without
    a certificate.

    :raises OSError: a file cannot be read; :raises ssl.SSLError: they are not a certificate and
        its key.
    """
    if options.tls_cert is None:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(options.tls_cert, options.tls_key)
    return ctx


def cert_fingerprint(path: Path | None) -> str:
    """The fingerprint of the first certificate of a PEM file ("" if there is none to read)."""
    try:
        text = Path(path).read_text(encoding="ascii", errors="replace") if path is not None else ""
        begin = text.index("-----BEGIN CERTIFICATE-----")
        end = text.index("-----END CERTIFICATE-----", begin) + len("-----END CERTIFICATE-----")
        return fingerprint(ssl.PEM_cert_to_DER_cert(text[begin:end]))
    except (OSError, ValueError):
        return ""
