"""The thread that asks the router to forward a hosted game's port, renews the lease while the
game is hosted and removes the mapping when hosting stops (:class:`PortMapper`).

UPnP IGD is tried first; without one, NAT-PMP of the gateway. A mapping this install left at the
router (a game killed while hosting: see :mod:`.kept`) is removed before a new one is asked, so
hosting again leaves one mapping, not two. A router whose own outside address is private (a
carrier's NAT) is not asked for a mapping: it would open nothing to the internet.

Nothing here blocks its caller: :meth:`PortMapper.start` returns at once, :attr:`PortMapper.status`
is read under a lock, :meth:`PortMapper.close` asks the thread to remove the mapping and end
(``wait`` seconds for it, 0: not at all; the interpreter's exit waits a little for it too).
"""
from __future__ import annotations

import atexit
import logging
import threading
from pathlib import Path
from typing import Callable

from . import natpmp
from .kept import Kept, description_for
from .outcome import State, Status, is_private
from .upnp import Igd, UpnpError
from .where import NATPMP_PORT, Router, default_gateway

__all__ = ["PortMapper"]

log = logging.getLogger("mor.portmap")

POLL = 0.2
"""Seconds between two looks at ``hosting()`` while the mapping stands."""


class PortMapper:
    """The mapping of this computer's ``port`` (TCP; and of the ports ``also``, as a hosted game's
    TLS port), kept while ``hosting()`` says so and until :meth:`close`. ``folder``: where this
    install keeps its id and the mapping it made. ``on_change(status)`` is called from the
    mapper's thread at every change; the status names ``port``'s outside port. ``after``: a mapper
    of the same ports being closed (the Settings switch turned off, then on): its removal is
    waited for before anything is asked."""

    def __init__(self, port: int, folder: Path, router: Router, *, also: tuple[int, ...] = (),
                 hosting: Callable[[], bool] = lambda: True,
                 on_change: Callable[[Status], None] | None = None, after: "PortMapper | None" = None) -> None:
        self.port = port
        self.ports = (port, *also)
        self.folder = Path(folder)
        self.router = router
        self.hosting = hosting
        self.on_change = on_change
        self.after = after
        self._lock = threading.Lock()
        self._status = Status(State.ASKING, port)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"port mapping {port}", daemon=True)

    @property
    def status(self) -> Status:
        with self._lock:
            return self._status

    def _set(self, state: State, **what: object) -> None:
        status = Status(state, self.port, **what)    # type: ignore[arg-type]
        with self._lock:
            if status == self._status:
                return
            self._status = status
        log.info("port %d: %s %s", self.port, state.value, {k: v for k, v in what.items() if v})
        if self.on_change is not None:
            try:
                self.on_change(status)
            except Exception:
                log.warning("port mapping: the change could not be told", exc_info=True)

    def start(self) -> "PortMapper":
        self._thread.start()
        atexit.register(self._at_exit)
        return self

    def close(self, wait: float = 0.0) -> None:
        """Remove the mapping and end the thread (``wait`` seconds waited for that)."""
        self._stop.set()
        if wait > 0 and self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(wait)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    @property
    def closing(self) -> bool:
        """Whether :meth:`close` was called (or hosting ended): the mapping is going, or gone."""
        return self._stop.is_set()

    def _at_exit(self) -> None:
        self.close(wait=self.router.timeout + 1.0)

    def _over(self, seconds: float) -> bool:
        """Wait up to ``seconds``; True as soon as hosting is over (closed, or the server stopped)."""
        left = seconds
        while left > 0:
            if self._stop.wait(min(POLL, left)):
                return True
            if not self.hosting():
                self._stop.set()
                return True
            left -= POLL
        return self._stop.is_set() or not self.hosting()

    def _open(self, outside: str, mapped: list[tuple[int, int]], via: str) -> None:
        """Said open: at ``outside``, each port at its outside number (``mapped``: (outside, inside) each)."""
        self._set(State.OPEN, outside=outside, outside_port=mapped[0][0],
                  outside_ports=tuple(o for o, _i in mapped), via=via)

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        try:
            before = self.after
            self.after = None                # (not kept: a chain of them would be)
            if before is not None:
                before._thread.join(before.router.timeout * 4 + 2)
            self._ask()
        except Exception as e:       # a bug must not end the game: said as an answer not understood
            log.warning("port mapping failed", exc_info=True)
            self._set(State.GARBAGE, detail=str(e))
        finally:
            if self._stop.is_set():          # closed while asking, or after a failure: nothing stands
                self._set(State.CLOSED)
            atexit.unregister(self._at_exit)

    def _ask(self) -> None:
        router = self.router
        kept = Kept(self.folder)
        description = description_for(self.folder)
        if router.upnp:
            igd = Igd(router)
            if self._stop.is_set():
                return
            if igd.find():
                try:
                    self._upnp(igd, kept, description)
                except UpnpError as e:
                    self._set(e.state, detail=e.detail, via="UPnP")
                return
        if router.natpmp and not self._stop.is_set():
            gateway = router.natpmp
            if gateway == "gateway":
                ip = default_gateway()
                gateway = (ip, NATPMP_PORT) if ip else None
            if isinstance(gateway, tuple):
                self._natpmp(gateway, kept)
                return
        self._set(State.NO_ROUTER)

    # ------------------------------------------------------------------ UPnP
    def _upnp(self, igd: Igd, kept: Kept, description: str) -> None:
        outside = igd.outside()
        reuse: dict[int, int] = {}      # inside port: outside, an earlier game's mapping of a port asked again
        for port, proto in self._stale_upnp(igd, kept, description):
            inside = igd.forwarded_here(port) if proto == "TCP" and not is_private(outside) else None
            if inside in self.ports and inside not in reuse:
                reuse[inside] = port     # (kept and renewed below: a guest coming back meets no gap)
                continue
            try:
                igd.remove(port, proto)
                log.info("port mapping left by an earlier game removed: %s %d", proto, port)
            except UpnpError:
                pass
        kept.clear()
        if is_private(outside):
            self._set(State.PRIVATE, outside=outside, via="UPnP")
            return
        mapped: list[tuple[int, int]] = []        # (outside, inside) each
        lease = self.router.lease
        try:
            for inside in self.ports:
                taken = {o for o, _i in mapped} | {o for i, o in reuse.items() if i != inside}
                wanted = reuse.get(inside) or next((c for c in range(inside, min(65536, inside + 8))
                                                    if c not in taken and not igd.held_by_other(c, description)),
                                                   inside)
                lease = igd.add(wanted, inside, description, self.router.lease)
                mapped.append((wanted, inside))
                kept.write(via="upnp", mapped=mapped, description=description)
            self._open(outside, mapped, "UPnP")
            while not self._over(max(1.0, lease / 2) if lease else 3600):
                try:
                    for wanted, inside in mapped:
                        lease = igd.add(wanted, inside, description, self.router.lease)
                    self._open(igd.outside(), mapped, "UPnP")
                except UpnpError as e:
                    self._set(e.state, detail=e.detail, via="UPnP")
        finally:
            for wanted, _inside in mapped:
                try:
                    igd.remove(wanted)
                except UpnpError as e:
                    log.info("port mapping not removed: %s", e.detail)
            kept.clear()
            if mapped:
                self._set(State.CLOSED)

    def _stale_upnp(self, igd: Igd, kept: Kept, description: str) -> list[tuple[int, str]]:
        """The mappings this install left at the router: the ones kept on disk, and any other
        with its description."""
        stale = set(igd.ours(description))
        old = kept.read()
        if old and old.get("via") == "upnp":
            for pair in old.get("mapped") or ():
                if isinstance(pair, list) and pair and isinstance(pair[0], int) \
                        and not igd.held_by_other(pair[0], description):
                    stale.add((pair[0], "TCP"))
        return sorted(stale)

    # ------------------------------------------------------------------ NAT-PMP
    def _natpmp(self, gateway: tuple[str, int], kept: Kept) -> None:
        wait = self.router.timeout
        mapped: list[tuple[int, int]] = []        # (outside, inside) each
        lifetime = self.router.lease
        try:
            outside = natpmp.read_address(natpmp.exchange(gateway, natpmp.address_request(), wait)).outside
            old = kept.read()
            if old and old.get("via") == "natpmp":
                for pair in old.get("mapped") or ():
                    if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], int) \
                            and pair[1] not in self.ports:
                        natpmp.exchange(gateway, natpmp.map_request(pair[1], 0, 0), wait)   # (its answer: whatever)
            kept.clear()
            if is_private(outside):
                self._set(State.PRIVATE, outside=outside, via="NAT-PMP")
                return
            for inside in self.ports:
                answer = natpmp.read_map(natpmp.exchange(gateway, natpmp.map_request(inside, inside,
                                                                                     self.router.lease), wait))
                mapped.append((answer.outside, inside))
                lifetime = answer.lifetime
                kept.write(via="natpmp", mapped=mapped)
        except natpmp.NoAnswer:
            self._set(State.NO_ROUTER if not mapped else State.TIMED_OUT)
            self._natpmp_remove(gateway, mapped, kept)
            return
        except natpmp.NatPmpError as e:
            self._set(State.REFUSED, detail=str(e), via="NAT-PMP")
            self._natpmp_remove(gateway, mapped, kept)
            return
        except natpmp.Unreadable as e:
            self._set(State.GARBAGE, detail=str(e), via="NAT-PMP")
            self._natpmp_remove(gateway, mapped, kept)
            return
        self._open(outside, mapped, "NAT-PMP")
        try:
            while not self._over(max(1.0, lifetime / 2)):
                try:
                    for i, (wanted, inside) in enumerate(mapped):
                        answer = natpmp.read_map(natpmp.exchange(gateway, natpmp.map_request(
                            inside, wanted, self.router.lease), wait))
                        mapped[i] = (answer.outside, inside)
                        lifetime = answer.lifetime
                    self._open(outside, mapped, "NAT-PMP")
                except natpmp.NoAnswer:
                    self._set(State.TIMED_OUT, via="NAT-PMP")
                except (natpmp.NatPmpError, natpmp.Unreadable) as e:
                    self._set(State.REFUSED if isinstance(e, natpmp.NatPmpError) else State.GARBAGE,
                              detail=str(e), via="NAT-PMP")
        finally:
            self._natpmp_remove(gateway, mapped, kept)
            self._set(State.CLOSED)

    def _natpmp_remove(self, gateway: tuple[str, int], mapped: list[tuple[int, int]], kept: Kept) -> None:
        for _outside, inside in mapped:
            try:
                natpmp.exchange(gateway, natpmp.map_request(inside, 0, 0), self.router.timeout)
            except (natpmp.NoAnswer, OSError):
                pass
        kept.clear()
