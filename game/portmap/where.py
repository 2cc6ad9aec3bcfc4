"""Which router a hosted game asks to open its port, and how long it waits for answers.

By default the game looks for a UPnP IGD by SSDP on the local network and asks NAT-PMP of the
default gateway. ``MOR_ROUTER`` replaces that (the tests point it at a stand-in router on
127.0.0.1, so that no test sends a packet to a real network)::

    MOR_ROUTER=off                                   nothing is asked of any router
    MOR_ROUTER=upnp=http://127.0.0.1:5000/rootDesc.xml,natpmp=127.0.0.1:5351,timeout=0.4
    MOR_ROUTER=upnp=ssdp,natpmp=none                 SSDP only (on MOR_LAN_INTERFACES' first address)

With ``MOR_ROUTER`` set, only what it names is asked. ``lease=SECONDS`` sets the lease asked
(renewed at half of it).
"""
from __future__ import annotations

import os
import socket
import struct
from dataclasses import dataclass

__all__ = ["ENV", "NATPMP_PORT", "Router", "default_gateway", "router_from_env"]

ENV = "MOR_ROUTER"
NATPMP_PORT = 5351
LEASE = 3600
"""Seconds of lease asked of the router (renewed at half of it while the game is hosted): a
mapping left by a game that crashed ends by itself within the hour."""


@dataclass(frozen=True)
class Router:
    """Where to ask: ``upnp`` is ``"ssdp"`` (discovery), a root description URL, or None (no UPnP);
    ``natpmp`` is (host, port) of the gateway, ``"gateway"`` (the system's default one) or None;
    ``timeout``: seconds an answer is waited for (SSDP waits as long); ``multicast_if``: the address
    SSDP goes out of (None: the system's choice)."""
    upnp: str | None = "ssdp"
    natpmp: tuple[str, int] | str | None = "gateway"
    timeout: float = 2.0
    lease: int = LEASE
    multicast_if: str | None = None
    off: bool = False


def router_from_env() -> Router:
    """The router to ask, from ``MOR_ROUTER`` (see the module's text); the defaults without it.

    :raises ValueError: ``MOR_ROUTER`` cannot be read.
    """
    text = os.environ.get(ENV, "").strip()
    interfaces = [a.strip() for a in os.environ.get("MOR_LAN_INTERFACES", "").split(",") if a.strip()]
    multicast_if = interfaces[0] if interfaces else None
    if not text:
        return Router(multicast_if=multicast_if)
    if text.lower() == "off":
        return Router(upnp=None, natpmp=None, off=True)
    upnp: str | None = None             # (with MOR_ROUTER, only what it names is asked)
    natpmp: tuple[str, int] | str | None = None
    timeout, lease = 2.0, LEASE
    for part in text.split(","):
        key, _, value = part.strip().partition("=")
        key, value = key.strip().lower(), value.strip()
        if key == "upnp":
            upnp = None if value.lower() == "none" else value
        elif key == "natpmp":
            if value.lower() == "none":
                natpmp = None
            elif value.lower() == "gateway":
                natpmp = "gateway"
            else:
                host, _, port = value.rpartition(":")
                natpmp = (host or value, int(port) if host else NATPMP_PORT)
        elif key == "timeout":
            timeout = float(value)
        elif key == "lease":
            lease = int(value)
        else:
            raise ValueError(f"{ENV}: unknown part {part!r}")
    return Router(upnp=upnp, natpmp=natpmp, timeout=timeout, lease=lease, multicast_if=multicast_if)


def default_gateway() -> str | None:
    """The IPv4 default gateway's address, from the routing table where the system shows it
    (``/proc/net/route``); elsewhere the LAN address with its last number 1, the usual home
    router; None when neither is known."""
    try:
        with open("/proc/net/route", encoding="ascii") as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if len(cols) > 3 and cols[1] == "00000000" and int(cols[3], 16) & 2:
                    return socket.inet_ntoa(struct.pack("<I", int(cols[2], 16)))
    except (OSError, ValueError):
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.168.255.255", 9))         # (no packet is sent: the system picks a route)
            ip = s.getsockname()[0]
    except OSError:
        return None
    if ip.startswith(("127.", "0.")):
        return None
    return ip.rsplit(".", 1)[0] + ".1"
