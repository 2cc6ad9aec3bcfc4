"""The hosted game's port asked of the router while this app hosts (:mod:`game.portmap`), for
every front end: started with the server when Settings allow it, ended with it (the mapper sees
the server stop, and the app's exit waits a moment for the mapping's removal), and said in the
host page's words (:func:`game.client.port_words.port_words`); the link to send uses the outside address
once the router forwards the port, and a TLS port forwarded under another number is told by the
server to the guests who come through the router (:func:`tls_outside`).

The mapping of each server hosted is found again by the server (:func:`port_mapping`), so that
the front ends keep nothing but the server itself."""
from __future__ import annotations

import logging
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from game.portmap import PortMapper, State, Status, router_from_env

from game.i18n import _

from ..port_words import LINK, port_words

if TYPE_CHECKING:
    from game.netcode.server import Server

__all__ = ["follow_switch", "link_words", "open_port", "share_link", "tls_outside", "port_mapping", "port_words", "reachable_at"]

log = logging.getLogger("mor.host")

_mappers: "weakref.WeakKeyDictionary[Server, PortMapper]" = weakref.WeakKeyDictionary()


def open_port(server: "Server", folder: Path, on_change: Callable[[Status], None] | None = None,
              after: PortMapper | None = None) -> PortMapper | None:
    """Ask the router (on a thread of its own) to forward ``server``'s port (and its TLS port)
    while it runs; None when no router is to be asked (``MOR_ROUTER=off``, or a ``MOR_ROUTER``
    that cannot be read). ``after``: the mapper it replaces, whose removal is waited for first."""
    try:
        router = router_from_env()
    except ValueError as e:
        log.warning("no port mapping: %s", e)
        return None
    if router.off:
        return None
    ref = weakref.ref(server)          # (the mapper keeps the server alive no longer than its owner does)

    def hosting() -> bool:
        alive = ref()
        return alive is not None and not alive.stopping

    tls = (server.tls_address[1],) if server.tls_address is not None else ()   # (our clients go there by themselves)

    def told(status: Status) -> None:
        alive = ref()
        if alive is not None:          # a TLS port forwarded under another number: told to guests who come that way
            alive.tls_outside = tls_outside(status, tls)
        if on_change is not None:
            on_change(status)

    mapper = PortMapper(server.address[1], folder, router, also=tls, hosting=hosting, on_change=told, after=after)
    _mappers[server] = mapper
    return mapper.start()


def share_link(server: "Server", lan: list[str]) -> str:
    """The game link to send friends (``mor://address:port``): at the router's outside address
    once it forwards the port, else at this computer's first LAN address (:func:`reachable_at`)."""
    from ..links import make_link
    return make_link(*reachable_at(port_mapping(server), lan, server.address[1]))


def link_words(server: "Server", lan: list[str]) -> str | None:
    """The sentence with the link to send, once the router forwards the port (None before: the
    LAN address is said where hosting starts); the text client says it after the port's words."""
    status = port_mapping(server)
    if status is None or status.state is not State.OPEN:
        return None
    return _(LINK).format(link=share_link(server, lan))


def tls_outside(status: Status, tls: tuple[int, ...]) -> tuple[str, int] | None:
    """Where the internet reaches the TLS port (``tls``: its number here, or nothing) when the
    router forwards it under another number (None: the same number, or not forwarded): the
    server tells it to a guest who came through the router (``ResWelcome.tlsOutside``)."""
    if status.state is not State.OPEN or not tls or len(status.outside_ports) < 2:
        return None
    outside = status.outside_ports[1]
    return (status.outside, outside) if outside != tls[0] else None


def follow_switch(server: "Server | None", folder: Path, on: bool,
                  on_change: Callable[[Status], None] | None = None) -> PortMapper | None:
    """The Settings switch *Open the port by itself* turned while ``server`` is hosted: off, the
    mapping standing is removed (the host page then says so: :func:`port_words` with ``asked``
    False); on, the router is asked for one, unless it is being asked already. The mapper that
    answers for ``server`` now (None: none, or no server hosted)."""
    if server is None or server.stopping:
        return None
    mapper = _mappers.get(server)
    if not on:
        if mapper is not None:
            mapper.close()
        return mapper
    if mapper is not None and mapper.alive and not mapper.closing:
        return mapper
    return open_port(server, folder, on_change, after=mapper if mapper is not None and mapper.alive else None)


def port_mapping(server: "Server | None") -> Status | None:
    """How the port of ``server`` stands at the router (None: nobody was asked)."""
    mapper = _mappers.get(server) if server is not None else None
    return mapper.status if mapper is not None else None


def reachable_at(status: Status | None, lan: list[str], port: int) -> tuple[str, int]:
    """Where a friend joins: the router's outside address once it forwards the port, else the
    first LAN address (127.0.0.1 without one)."""
    if status is not None and status.state is State.OPEN and status.outside:
        return status.outside, status.outside_port
    return (lan[0] if lan else "127.0.0.1"), port
