"""Finding games on the local network: mDNS / DNS-SD with ``zeroconf``.

A server that wants to be found (a game hosted from the client, or ``server.py --announce``)
runs an :class:`Announcer`: one DNS-SD service of type :data:`SERVICE_TYPE` whose TXT record
says the table's name, the host's nickname, the seats taken and free, whether the game has
started and, when the server speaks TLS, on which port (``tls``). The *Join* screen runs a
:class:`Browser`, which keeps the list of such services up to date as they come, change and go.

Nothing here ever blocks its caller: ``zeroconf`` runs its own threads, and every call that waits
on the network (registering takes about 1.5 s of probing, an update about 0.5 s, a lookup up to
:data:`RESOLVE_TIMEOUT_MS`) runs on a worker thread of this module. The frame loop and the
server's event loop only hand over the latest state and read the latest list.

When the network has no multicast (a firewall, a container, no interface up), the announcer and
the browser say so in :attr:`Announcer.problem` / :attr:`Browser.problem`; joining by address
keeps working.
"""
from __future__ import annotations

import ipaddress
import logging
import os
import re
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

log = logging.getLogger("mor.discovery")

SERVICE_TYPE = "_mor._tcp.local."
"""Our own DNS-SD service type (the reference server announces nothing)."""

SERVICE_TYPE_ENV = "MOR_SERVICE_TYPE"
"""An environment variable that replaces :data:`SERVICE_TYPE` (the tests set a type of their own,
so that the tables they announce never show in a player's list on the same machine)."""


def service_type() -> str:
    """The DNS-SD service type announced and looked for: :data:`SERVICE_TYPE` unless overridden."""
    return os.environ.get(SERVICE_TYPE_ENV, "").strip() or SERVICE_TYPE

PROTOCOL = "1"
"""TXT ``v``: the version of these announcements."""

RESOLVE_TIMEOUT_MS = 3000
UPDATE_INTERVAL = 0.5
"""Seconds between two announcements of a changed state (changes in between are merged)."""

NO_MULTICAST = ("This network does not carry game announcements (no multicast: a firewall, or no "
                "network). Join by typing the host's address.")


@dataclass(frozen=True)
class TableInfo:
    """What a server says about itself: its table and the seats at it."""

    name: str                  # the table's name ("Ada's table")
    host: str = ""             # the host's nickname (or the head of the waiting list)
    taken: int = 0             # seats taken in the game being formed (or played)
    free: int = 0              # seats still free; 0 when full or started
    started: bool = False      # a game is being played (nothing to join but the waiting list)
    games: int = 0             # games being played on the server
    tls: int = 0               # the port where the server speaks TLS (0: it does not)

    def properties(self) -> dict[str, str]:
        props = {"v": PROTOCOL, "name": self.name[:60], "host": self.host[:40], "taken": str(self.taken),
                 "free": str(self.free), "started": "1" if self.started else "0", "games": str(self.games)}
        if self.tls:
            props["tls"] = str(self.tls)
        return props

    @classmethod
    def from_properties(cls, props: dict[Any, Any]) -> "TableInfo":
        def text(key: str) -> str:
            v = props.get(key.encode(), props.get(key))
            if isinstance(v, bytes):
                return v.decode("utf-8", "replace")
            return "" if v is None else str(v)

        def number(key: str) -> int:
            try:
                return max(0, int(text(key)))
            except ValueError:
                return 0

        tls = number("tls")
        return cls(text("name"), text("host"), number("taken"), number("free"), text("started") == "1",
                   number("games"), tls if tls < 65536 else 0)


@dataclass(frozen=True)
class FoundGame:
    """A server found on the network."""

    service: str                # the DNS-SD instance name (unique on the network)
    address: str                # where to connect
    port: int
    info: TableInfo
    seen: float                 # time.monotonic() of the last news

    @property
    def label(self) -> str:
        i = self.info
        if i.started and not i.free:
            seats = "playing" + (f" ({i.taken} players)" if i.taken else "")
        else:
            seats = f"{i.taken} seated, {i.free} free" if i.free or i.taken else "waiting for players"
        return f"{i.name} \u2014 {seats}"


def _instance_name(name: str, port: int) -> str:
    """A DNS-SD instance name: the table's name (no dots) and a unique tail."""
    clean = re.sub(r"[^\w' -]", "", name, flags=re.UNICODE).strip()[:40] or "Masters of Renaissance"
    return f"{clean} ({socket.gethostname()[:20]}:{port}).{service_type()}"


def local_ipv4() -> list[str]:
    """This computer's IPv4 addresses on its networks (no loopback), best first."""
    try:
        import ifaddr
        out = []
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    a = ipaddress.ip_address(ip.ip)
                    if not a.is_loopback and not a.is_link_local:
                        out.append(ip.ip)
        return sorted(set(out), key=lambda a: (not ipaddress.ip_address(a).is_private, a))
    except Exception:       # no ifaddr, or an odd interface: fall back to the route to the LAN
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))          # no packet is sent
                return [s.getsockname()[0]]
        except OSError:
            return []


def should_announce(bind_host: str) -> bool:
    """The default of ``--announce``: yes when bound to a LAN address or every address, no on
    loopback (nobody else could join)."""
    if bind_host in ("", "0.0.0.0", "::"):
        return True
    try:
        return not ipaddress.ip_address(bind_host).is_loopback
    except ValueError:
        return bind_host != "localhost"


INTERFACES_ENV = "MOR_LAN_INTERFACES"
"""Environment variable: the addresses (comma-separated) to announce and browse on, instead of
every interface (the tests set it to 127.0.0.1 so that they stay off the real network)."""


def _zeroconf(interfaces: list[str] | None):
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf
    if not interfaces:
        interfaces = [a.strip() for a in os.environ.get(INTERFACES_ENV, "").split(",") if a.strip()] or None
    if interfaces:
        return Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    return Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)


class Announcer:
    """Announce one server on the network and keep its TXT record up to date.

    :param port: the server's port.
    :param addresses: the addresses to announce; default: the addresses of ``bind_host`` (all of
        this computer's LAN addresses when it is bound to every address).
    :param interfaces: the interfaces to announce on (addresses); default: every interface, or
        only ``bind_host`` when it is one address.

    :meth:`update` is cheap and never blocks: a worker thread registers the service, then sends
    the latest state at most every :data:`UPDATE_INTERVAL` seconds. :meth:`close` withdraws it.
    """

    def __init__(self, info: TableInfo, port: int, bind_host: str = "0.0.0.0",
                 addresses: Iterable[str] | None = None, interfaces: Iterable[str] | None = None) -> None:
        specific = bind_host not in ("", "0.0.0.0", "::")
        only = [a.strip() for a in os.environ.get(INTERFACES_ENV, "").split(",") if a.strip()]
        default = [bind_host] if specific else (only or local_ipv4())
        self.addresses = list(addresses) if addresses is not None else default
        self.interfaces = list(interfaces) if interfaces is not None else ([bind_host] if specific else None)
        self.port = port
        self.name = _instance_name(info.name, port)
        self.problem: str | None = None
        self.registered = threading.Event()
        self._info = info
        self._sent: TableInfo | None = None
        self._wake = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="mor-announce", daemon=True)
        self._thread.start()

    def update(self, info: TableInfo) -> None:
        """The server's state changed: announce ``info`` (soon, on the worker thread)."""
        with self._wake:
            self._info = info
            self._wake.notify()

    def close(self, timeout: float = 2.0) -> None:
        """Withdraw the announcement (a goodbye packet) and stop; waits at most ``timeout`` s."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(timeout)

    def _service(self, info: TableInfo):
        from zeroconf import ServiceInfo
        return ServiceInfo(service_type(), self.name, port=self.port, properties=info.properties(),
                           addresses=[socket.inet_aton(a) for a in self.addresses if _is_ipv4(a)],
                           server=self._host_name())

    def _host_name(self) -> str:
        """The announcement's own host name (the computer's, with the port): announcers on one
        computer bound to different addresses (a hosted game on the LAN, a test server on loopback)
        must not share address records, or a browser would mix their addresses."""
        base = re.sub(r'[^A-Za-z0-9-]', '-', socket.gethostname())[:40] or "mor"
        return f"{base}-{self.port}.local."

    def _run(self) -> None:
        if not any(_is_ipv4(a) for a in self.addresses):
            self.problem = "This computer has no network address to announce the game on."
            log.info("not announced: %s", self.problem)
            return
        try:
            zc = _zeroconf(self.interfaces)
        except Exception as e:          # OSError, or zeroconf's own errors: no multicast here
            self.problem = NO_MULTICAST
            log.info("cannot announce the game (%s)", e)
            return
        current = None
        try:
            with self._wake:
                info = self._info
            current = self._service(info)
            zc.register_service(current, allow_name_change=True)
            self._sent = info
            self.registered.set()
            log.info("announced %r on %s port %d", self.name, ", ".join(self.addresses), self.port)
            while True:
                with self._wake:
                    while not self._closing and self._info == self._sent:
                        self._wake.wait()
                    if self._closing:
                        break
                    info = self._info
                current = self._service(info)
                current.name = self.name
                try:
                    _broadcast(zc, zc.async_update_service, current)
                except TimeoutError as e:    # a busy machine: the next change tries again
                    log.info("the announcement's update was late (%s)", e)
                self._sent = info
                time.sleep(UPDATE_INTERVAL)
        except Exception as e:
            self.problem = NO_MULTICAST
            log.info("the announcement stopped (%s)", e)
        finally:
            try:
                if current is not None and self.registered.is_set():
                    _broadcast(zc, zc.async_unregister_service, current)
            except Exception:
                pass
            zc.close()


def _broadcast(zc, start, info, timeout: float = 2.0) -> None:
    """Run zeroconf's ``start(info)`` (an update or a goodbye) and wait until its broadcasts are
    sent. (Zeroconf's own ``unregister_service`` returns with its three goodbyes still to send,
    and ``update_service`` gives up after 0.7 s on a busy machine: closing then destroyed the
    pending broadcast, and asyncio logged "Task was destroyed but it is pending!" as an error.)
    On a timeout the broadcast is cancelled, not left for the closing loop to destroy.

    :raises TimeoutError: the broadcasts were not sent within ``timeout`` seconds.
    """
    import asyncio
    import concurrent.futures

    async def sent() -> None:
        await (await start(info))
    future = asyncio.run_coroutine_threadsafe(sent(), zc.loop)
    try:
        future.result(timeout)
    except concurrent.futures.TimeoutError:
        future.cancel()
        raise TimeoutError("the announcement's broadcast took too long") from None


def _is_ipv4(a: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(a), ipaddress.IPv4Address)
    except ValueError:
        return False


class Browser:
    """The games announced on the network, kept up to date by ``zeroconf``'s threads.

    :meth:`games` returns the current list (a copy; never blocks). :attr:`problem` says why the
    network cannot be searched, if it cannot. ``version`` grows at each change (for redrawing),
    and ``on_change()`` (if given) is called then, from zeroconf's threads (a frame loop passes
    its thread-safe wake-up).
    """

    def __init__(self, interfaces: Iterable[str] | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.on_change = on_change
        self.problem: str | None = None
        self.started = time.monotonic()
        self.version = 0
        self._games: dict[str, FoundGame] = {}
        self._lock = threading.Lock()
        self._zc = None
        self._browser = None
        self._closed = False
        threading.Thread(target=self._start, name="mor-browse", daemon=True).start()

    def _start(self) -> None:
        try:
            from zeroconf import ServiceBrowser
            zc = _zeroconf(self.interfaces)
        except Exception as e:
            self.problem = NO_MULTICAST
            log.info("cannot look for games (%s)", e)
            self._changed_now()
            return
        with self._lock:
            if self._closed:
                zc.close()
                return
            self._zc = zc
            try:
                self._browser = ServiceBrowser(zc, service_type(), handlers=[self._changed])
            except Exception as e:
                self.problem = NO_MULTICAST
                log.info("cannot look for games (%s)", e)
        if self.problem:
            self._changed_now()

    def _changed_now(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("on_change failed")

    def _changed(self, zeroconf, service_type: str, name: str, state_change) -> None:
        """Called on zeroconf's browser thread (where a blocking lookup is allowed)."""
        from zeroconf import ServiceStateChange
        if state_change is ServiceStateChange.Removed:
            with self._lock:
                gone = self._games.pop(name, None) is not None
                if gone:
                    self.version += 1
            if gone:
                self._changed_now()
            return
        try:
            info = zeroconf.get_service_info(service_type, name, RESOLVE_TIMEOUT_MS)
        except Exception as e:
            log.debug("cannot resolve %s: %s", name, e)
            return
        if info is None or not info.port:
            return
        addresses = info.parsed_addresses()
        v4 = [a for a in addresses if _is_ipv4(a)]
        if not v4:
            return
        found = FoundGame(name, v4[0], info.port, TableInfo.from_properties(info.properties or {}),
                          time.monotonic())
        with self._lock:
            if self._closed:
                return
            old = self._games.get(name)
            self._games[name] = found
            if old is not None and (old.address, old.port, old.info) == (found.address, found.port, found.info):
                return                   # the same news again (a repeated announcement): nothing to redraw
            self.version += 1
        self._changed_now()

    def games(self) -> list[FoundGame]:
        """The games found, open tables first, then by name."""
        with self._lock:
            out = list(self._games.values())
        return sorted(out, key=lambda g: (g.info.started and not g.info.free, g.info.name.lower(), g.service))

    def close(self) -> None:
        """Stop looking (zeroconf's threads end; does not wait for the network)."""
        with self._lock:
            self._closed = True
            zc, browser = self._zc, self._browser
            self._zc = self._browser = None
        if zc is not None:
            threading.Thread(target=_close_quietly, args=(browser, zc), name="mor-browse-close",
                             daemon=True).start()


def _close_quietly(browser, zc) -> None:
    try:
        if browser is not None:
            browser.cancel()
    finally:
        zc.close()
