"""The router's UPnP IGD (Internet Gateway Device), through ``miniupnpc``, the reference client
of that protocol: found by SSDP or at a root description URL, then asked over SOAP for its
outside address and a port mapping. Each call blocks (``miniupnpc`` lets other threads run
meanwhile): :mod:`.mapper` calls them from its own thread. What ``miniupnpc`` prints meanwhile goes
to the log, never to the player's terminal (:mod:`.quiet`).

``miniupnpc`` raises a plain ``Exception`` with the UPnP error's words; :class:`UpnpError` sorts
them: a UPnP error code is the router's refusal (``"Action not authorized"``), ``miniupnpc``'s own
("Miniupnpc Invalid response", "Miniupnpc HTTP error"...) an answer that could not be read, or no
answer at all when the call took the whole time allowed.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from .outcome import State
from .quiet import quiet_stderr
from .where import Router

__all__ = ["Igd", "UpnpError"]

SCAN_LIMIT = 64
"""The router's mappings looked through for this install's own (GetGenericPortMappingEntry)."""
CONFLICT = "ConflictInMappingEntry"
ONLY_PERMANENT = "OnlyPermanentLeasesSupported"


class UpnpError(Exception):
    """A call to the IGD failed: ``state`` says how (:attr:`State.REFUSED`, :attr:`State.GARBAGE`,
    :attr:`State.TIMED_OUT`), ``detail`` in the router's (or miniupnpc's) words."""

    def __init__(self, state: State, detail: str) -> None:
        super().__init__(detail)
        self.state = state
        self.detail = detail


class Igd:
    """The IGD of ``router`` (see :class:`~.where.Router`): :meth:`find` first."""

    def __init__(self, router: Router) -> None:
        import miniupnpc            # (loaded only to host)
        self.router = router
        delay = max(100, int(router.timeout * 1000))
        self.u = miniupnpc.UPnP(multicastif=router.multicast_if, discoverdelay=delay)

    def find(self) -> bool:
        """Whether an IGD answered (discovered by SSDP, or at the description URL given)."""
        url = self.router.upnp
        try:
            with quiet_stderr():        # (miniupnpc's own lines, "connect: Connection refused", to the log)
                if url == "ssdp":
                    if not self.u.discover():
                        return False
                    self.u.selectigd()
                else:
                    self.u.selectigd(url)
        except Exception:           # (miniupnpc: "No UPnP device discovered", "Success" for none)
            return False
        return True

    @property
    def lan_address(self) -> str:
        """This computer's address as the router sees it (the mapping's internal client)."""
        return str(self.u.lanaddr)

    def _call(self, what: Callable[..., Any], *args: Any) -> Any:
        start = time.monotonic()
        try:
            with quiet_stderr():
                return what(*args)
        except Exception as e:      # (miniupnpc raises Exception itself, with the error's words)
            text = str(e) or type(e).__name__
            if text.startswith("Miniupnpc") or isinstance(e, (SystemError, ValueError)):
                late = time.monotonic() - start >= self.router.timeout
                raise UpnpError(State.TIMED_OUT if late else State.GARBAGE, text) from None
            raise UpnpError(State.REFUSED, text) from None

    def outside(self) -> str:
        """The router's outside address (GetExternalIPAddress)."""
        ip = self._call(self.u.externalipaddress)
        return str(ip or "")

    def ours(self, description: str) -> list[tuple[int, str]]:
        """The router's mappings to this computer with ``description`` (this install's): (outside
        port, protocol) each."""
        found = []
        for i in range(SCAN_LIMIT):
            try:
                entry = self._call(self.u.getgenericportmapping, i)
            except UpnpError:
                break
            if entry is None:
                break
            port, proto, (client, _inside), desc, *_rest = entry
            if desc == description and client == self.lan_address:
                found.append((int(port), str(proto)))
        return found

    def held_by_other(self, outside: int, description: str) -> bool:
        """Whether the router forwards ``outside`` to something else than this install's game."""
        try:
            entry = self._call(self.u.getspecificportmapping, outside, "TCP")
        except UpnpError:
            return False
        if entry is None:
            return False
        client, _inside, desc, *_rest = entry
        return not (client == self.lan_address and desc == description)

    def forwarded_here(self, outside: int) -> int | None:
        """The port of this computer the router forwards ``outside`` (TCP) to (None: none, or
        another computer's)."""
        try:
            entry = self._call(self.u.getspecificportmapping, outside, "TCP")
        except UpnpError:
            return None
        if entry is None or entry[0] != self.lan_address:
            return None
        return int(entry[1])

    def add(self, outside: int, inside: int, description: str, lease: int) -> int:
        """Forward ``outside`` (TCP) to this computer's ``inside`` port for ``lease`` seconds; the
        lease granted (0: for good, where the router grants nothing else)."""
        try:
            self._call(self.u.addportmapping, outside, "TCP", self.lan_address, inside, description, "", lease)
            return lease
        except UpnpError as e:
            if ONLY_PERMANENT not in e.detail or not lease:
                raise
        self._call(self.u.addportmapping, outside, "TCP", self.lan_address, inside, description, "", 0)
        return 0

    def remove(self, outside: int, proto: str = "TCP") -> None:
        """:raises UpnpError: the router refused or did not answer."""
        self._call(self.u.deleteportmapping, outside, proto)
