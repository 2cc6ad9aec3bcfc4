"""A link to a hosted game, to send a friend: ``mor://HOST:PORT`` or, for a private table,
``mor://HOST:PORT/CODE`` (its invite code, as ``mor://203.0.113.7:51015/K7QF-M2XD``). Made on the host's page, read back wherever a player
opens one (``mor URL``, ``mor-text URL``, the desktop's handler of ``mor:`` links, or pasted whole
into the Join page's address field).

A link comes from outside (a chat message, a web page, another program), so it is read strictly:
one scheme, a host name or address, a port, at most an invite code; no user name, no ``%``
escapes, no spaces, no query, no shell characters, nothing longer than :data:`LINK_MAX`. A link
refused says why in words a player reads (:class:`LinkError`), and nothing is started.

>>> parse_link("mor://203.0.113.7:51015/k7qf-m2xd")
Link(host='203.0.113.7', port=51015, code='K7QF-M2XD')
>>> make_link("::1", 4000)
'mor://[::1]:4000'
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from game.i18n import N_, _

from .address import hostport, parse_address

__all__ = ["CODE_MAX", "LINK_MAX", "SCHEME", "Link", "LinkError", "is_link", "make_link", "parse_link", "read_address"]

SCHEME = "mor"
LINK_MAX = 300
"""The longest link read (a host name is at most 253 characters; the rest is short)."""

_PREFIX = SCHEME + "://"
_CODE_RE = re.compile(r"^[A-Za-z0-9]+(-[A-Za-z0-9]+)?$")
CODE_MAX = 20
"""The longest invite code read (the server's are eight letters and digits, as K7QF-M2XD)."""
_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{0,15}):")
_EXAMPLE = N_("A game link looks like mor://203.0.113.7:51015, or mor://203.0.113.7:51015/CODE for a private table.")


def _said(problem: str) -> str:
    """A link's problem, then what a game link looks like."""
    return problem + " " + _(_EXAMPLE)


class LinkError(ValueError):
    """A link that cannot be opened; ``str()`` says why, to the player."""


@dataclass(frozen=True)
class Link:
    """Where a link leads: the host's address and port, and the invite code of a private table."""

    host: str
    port: int
    code: str | None = None

    @property
    def address(self) -> str:
        """``host:port`` as typed in the Join page's address field."""
        return hostport(self.host, self.port)

    def __str__(self) -> str:
        return make_link(self.host, self.port, self.code)


def is_link(text: str) -> bool:
    """Whether ``text`` is meant as a game link (it starts with ``mor:``), good or not."""
    return text.strip()[:len(SCHEME) + 1].lower() == SCHEME + ":"


def make_link(host: str, port: int, code: str | None = None) -> str:
    """The link to the game at ``host:port`` (and the private table of invite ``code``)."""
    return _PREFIX + hostport(host, port) + (f"/{code}" if code else "")


def _shown(text: str, most: int = 40) -> str:
    """A piece of a hostile link, short enough to read back, its control characters made visible."""
    text = "".join(c if c.isprintable() else "\ufffd" for c in text)
    return text if len(text) <= most else text[:most] + "\u2026"


def parse_link(text: str) -> Link:
    """The game a link leads to.

    :raises LinkError: with what is wrong, in words.
    """
    s = text.strip()
    if not s:
        raise LinkError(_said(_("The link is empty.")))
    if len(s) > LINK_MAX:
        raise LinkError(_said(_("That link is {n} characters long: too long to be a game's link.").format(n=len(s))))
    if not is_link(s):
        other = _SCHEME_RE.match(s)
        if other and not other.group(1).isdigit() and not s[len(other.group(0)):][:1].isdigit():
            raise LinkError(_said(_("\u201c{scheme}:\u201d links are not game links.").format(scheme=_shown(other.group(1)))))
        raise LinkError(_said(_("\u201c{text}\u201d is not a game link.").format(text=_shown(s))))
    if any(not c.isprintable() or c.isspace() for c in s):
        raise LinkError(_said(_("A game link has no spaces or invisible characters in it: copy it again, whole.")))
    if not s[:len(_PREFIX)].lower() == _PREFIX:
        raise LinkError(_said(_("A game link starts with mor:// (two slashes).")))
    rest = s[len(_PREFIX):]
    if "%" in rest:
        raise LinkError(_said(_("A game link has no percent signs in it: ask your friend for the link as the game shows it.")))
    odd = sorted({c for c in rest if not (c.isascii() and (c.isalnum() or c in ".-:[]/"))})
    if "@" in odd:
        raise LinkError(_said(_("A game link has no user name (nothing before an @).")))
    if "?" in odd or "#" in odd:
        raise LinkError(_said(_("A game link ends at its address and invite code (nothing after ? or #).")))
    if odd:
        raise LinkError(_said(_("A game link has no \u201c{text}\u201d in it.").format(text=_shown(''.join(odd), 10))))
    authority, _slash, path = rest.partition("/")
    code = path.rstrip("/") or None
    if code is not None and (len(code) > CODE_MAX or not _CODE_RE.match(code)):
        raise LinkError(_said(_("\u201c{code}\u201d is not an invite code: one is a few letters and digits, as K7QF-M2XD.").format(
            code=_shown(code))))
    if not authority:
        raise LinkError(_said(_("The link has no address after mor://.")))
    port_text = authority.rpartition("]:")[2] if authority.startswith("[") else (
        authority.rpartition(":")[2] if authority.count(":") == 1 else None)
    if port_text is None or (authority.startswith("[") and "]:" not in authority):
        raise LinkError(_("The link has no port: it ends with a colon and a number, as in mor://203.0.113.7:51015."))
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise LinkError(_("The port in the link must be a number from 1 to 65535, not \u201c{port}\u201d.").format(
            port=_shown(port_text)))
    try:
        host, port = parse_address(authority, int(port_text))
    except ValueError:
        raise LinkError(_said(_("\u201c{text}\u201d is not the address of a computer.").format(text=_shown(authority)))) from None
    return Link(host, port, code.upper() if code else None)


def read_address(text: str, default_port: int) -> Link:
    """What a player typed or pasted in an address field: a game link (:func:`parse_link`), or
    ``host``/``host:port`` as :func:`~game.client.address.parse_address` reads it.

    :raises ValueError: with the problem in words (:class:`LinkError` for a link).
    """
    if is_link(text):
        return parse_link(text)
    host, port = parse_address(text, default_port)
    return Link(host, port)


COPY_LINK = N_("Copy link")
LINK_COPIED = N_("Copied")
COPY_TIP = N_("Copy the link to send a friend: {link} (opening it starts their game at Join with it)")
NO_CLIPBOARD = N_("This computer's clipboard cannot be reached: send the address above.")


def hosted_link(addresses: list[str], port: int) -> str:
    """The link to the table this computer hosts on ``port``, at the first of its network
    ``addresses`` (this computer only, 127.0.0.1, when it has none)."""
    return make_link(addresses[0] if addresses else "127.0.0.1", port)
