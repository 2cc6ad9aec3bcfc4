"""A server's address as a player types it, and a failed connection in the player's words (pure
Python: every front end, the scenes and the text client, reads and reports addresses alike)."""
from __future__ import annotations

import errno
import ipaddress
import re
import socket
import ssl

from game.i18n import _

from .server_words import said_words

__all__ = ["PORT_REFUSED", "check_port", "describe_bind_error", "describe_connect_error", "hostport", "parse_address"]

_HOST_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


def check_port(text: str) -> str | None:
    """What is wrong with a port typed by the player, or None if it is one.

    >>> check_port(" 51015 "), check_port("0")
    (None, 'A port is a number from 1 to 65535.')
    """
    s = text.strip()
    if not s.isdigit() or not 1 <= int(s) <= 65535:
        return _("A port is a number from 1 to 65535.")
    return None


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """``host``, ``host:port``, ``[v6]`` or ``[v6]:port`` as (host, port); ``tls://`` before any of
    them (a server's TLS port, by default the next one) stays on the host, for the match.

    >>> parse_address(" host.lan:4000 ", 1), parse_address("tls://example.org", 51015)
    (('host.lan', 4000), ('tls://example.org', 51016))

    :raises ValueError: with the problem in words.
    """
    s = text.strip()
    if s[:6].lower() == "tls://":
        host, port = parse_address(s[6:], default_port + 1)
        return "tls://" + host, port
    example = _("Type an address like 192.168.1.23 or 192.168.1.23:51015.")
    if not s:
        raise ValueError(_("Type the address the host sees on their screen.") + " " + example)
    port_text: str | None = None
    if s.startswith("["):
        end = s.find("]")
        if end < 0:
            raise ValueError(_("\u201c{text}\u201d is not an address.").format(text=s) + " " + example)
        host, rest = s[1:end], s[end + 1:]
        if rest:
            if not rest.startswith(":"):
                raise ValueError(_("\u201c{text}\u201d is not an address.").format(text=s) + " " + example)
            port_text = rest[1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(_("\u201c{text}\u201d is not an IPv6 address.").format(text=host) + " " + example) from None
    elif s.count(":") == 1:
        host, port_text = s.split(":")
    elif s.count(":") > 1:
        host = s
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(_("\u201c{text}\u201d is not an address.").format(text=s) + " " + example) from None
    else:
        host = s
    if ":" not in host and not _HOST_RE.match(host):
        raise ValueError(_("\u201c{text}\u201d is not an address.").format(text=host or s) + " " + example)
    if port_text is None:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(_("The port after \u201c:\u201d must be a number from 1 to 65535, not \u201c{port}\u201d.").format(
            port=port_text))
    return host, int(port_text)


def hostport(host: str, port: int) -> str:
    """``host:port`` as a player types it (``[v6]:port`` for an IPv6 address)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def describe_connect_error(e: OSError, host: str, port: int) -> str:
    """Why a server could not be reached, in a sentence for the player (:mod:`.join_words`): nobody
    listening, no answer in time, no such computer or no way there, TLS asked of a plain port or
    failing, a server that closed without a word or that said why (full)."""
    from . import join_words as W
    words = getattr(e, "player_words", None)   # e.g. a server whose certificate changed: said plainly
    if words:
        return str(words)
    where = hostport(host, port)
    tls = getattr(e, "unreached_tls_port", None)  # the plain port answered, not the TLS one (met over TLS before)
    if tls:
        return _(W.TLS_UNREACHED).format(where=where, tls=tls)
    said = getattr(e, "server_words", None)     # the server said why before it closed (it is full)
    if said:
        return _(W.TURNED_AWAY).format(where=where, words=_shown(said_words(said)))
    if isinstance(e, socket.gaierror):
        return _(W.NOT_FOUND).format(host=host)
    if isinstance(e, ConnectionRefusedError) or e.errno == errno.ECONNREFUSED:
        return _(W.REFUSED).format(where=where)
    if isinstance(e, (TimeoutError, socket.timeout)) or e.errno == errno.ETIMEDOUT:
        return _(W.TIMED_OUT).format(where=where)
    if e.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return _(W.NO_ROUTE).format(where=where)
    if isinstance(e, ssl.SSLError):
        if getattr(e, "reason", None) in ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"):
            return _(W.NOT_TLS).format(where=where)
        return _(W.TLS_FAILED).format(where=where, why=_shown(str(getattr(e, "reason", None) or e).lower()))
    if isinstance(e, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)) or (
            type(e) is ConnectionError):
        return _(W.CLOSED).format(where=where)
    return _(W.OTHER).format(where=where, why=_shown(str(e.strerror or e)))


def _shown(text: str, most: int = 200) -> str:
    """Words from elsewhere (a server, the system), on one line and not too long to read."""
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most] + "\u2026"


PORT_REFUSED = (errno.EADDRINUSE, errno.EACCES, errno.EPERM)
"""The errors of a port another one may fix (in use, or not allowed)."""


def describe_bind_error(e: OSError, port: int, data_dir, remedy: str | None = None) -> str:
    """Why a game server could not start on ``port``, in words; ``remedy`` says what to do about a
    port refused (:data:`PORT_REFUSED`): in the window (None), the port is chosen in Settings."""
    remedy = _("Choose another port in Settings.") if remedy is None else remedy
    if e.errno == errno.EADDRINUSE:
        return _("Port {port} is already in use on this computer.").format(port=port) + " " + remedy
    if e.errno == errno.EBUSY:
        return _("Another game server on this computer is already hosting from the same folder. "
                 "Close it first, or join it with Join a game.")
    if e.errno in (errno.EACCES, errno.EPERM):
        return _("This computer does not allow a game server on port {port}.").format(port=port) + " " + remedy
    return _("The game server could not start: {why}.").format(why=e.strerror or e)
