"""What came of asking the router (:class:`Status`), and which outside addresses are no use to
friends on the internet (:func:`is_private`)."""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from enum import Enum

__all__ = ["State", "Status", "is_private"]


class State(str, Enum):
    ASKING = "asking"          # the router is being looked for or asked
    OPEN = "open"              # the port is forwarded: friends on the internet reach the game
    NO_ROUTER = "no_router"    # no router answered (neither UPnP nor NAT-PMP)
    TIMED_OUT = "timed_out"    # a router was found, then stopped answering
    REFUSED = "refused"        # the router said no
    GARBAGE = "garbage"        # the router answered something that cannot be read
    PRIVATE = "private"        # the router's own outside address is private (a carrier's NAT)
    CLOSED = "closed"          # hosting stopped: the mapping is removed


@dataclass(frozen=True)
class Status:
    """The port mapping as it stands: ``port`` is the game's port on this computer; once
    :attr:`State.OPEN`, ``outside``:``outside_port`` is where friends on the internet join;
    ``via`` names the protocol (``"UPnP"``, ``"NAT-PMP"``); ``detail``, the router's own words for
    a refusal (``"Action not authorized"``); ``outside_ports``, the outside port of each port
    mapped, in the order asked (the game's, then its TLS port's: a router may give another number
    than the one asked)."""
    state: State
    port: int
    outside: str = ""
    outside_port: int = 0
    outside_ports: tuple[int, ...] = ()
    via: str = ""
    detail: str = ""


_PRIVATE = [ipaddress.ip_network(n) for n in ("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
                                               "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16")]


def is_private(address: str) -> bool:
    """Whether an outside address cannot be reached from the internet: a private network's, a
    carrier's NAT (100.64/10), link-local, or none at all. (The documentation ranges, such as
    203.0.113.0/24, count as outside addresses: the tests' stand-in router uses them.)

    >>> is_private("100.64.12.34"), is_private("203.0.113.7")
    (True, False)
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return True
    if ip.version != 4:
        return not ip.is_global
    return any(ip in n for n in _PRIVATE)
