"""Whether a connection to a server is encrypted, and to whom, in the player's words (pure Python:
every front end, the scenes and the text client, says it alike).

A server of ours that speaks TLS is reached with it by itself (see :class:`~game.match.RemoteMatch`);
its certificate is remembered the first time, as SSH does, and a server whose certificate changed
(or that stopped speaking TLS) is refused: :func:`identity_warning` says so, and what to do.

>>> link = Link("example.org:51015", "SHA256:5F:3A:9C:02:" + ":".join(["AA"] * 28))
>>> link.label, link.short
('secure', '5F:3A:9C:02…')
>>> link.line
'Connected securely to example.org:51015 (certificate 5F:3A:9C:02…).'
>>> Link("192.168.1.23:51015", None).line
'Connected to 192.168.1.23:51015: not encrypted.'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.i18n import _, pgettext
from game.netcode.client import ServerIdentityChanged

from .address import hostport

if TYPE_CHECKING:
    from game.match import Match

__all__ = ["IdentityWarning", "Link", "identity_warning", "link_of", "short_fingerprint"]

SHORT_PAIRS = 4
"""How many bytes of a fingerprint its short form shows (the whole is in the details)."""


def short_fingerprint(fingerprint: str) -> str:
    """The first bytes of a ``SHA256:AB:CD:…`` fingerprint, enough to tell two apart at a glance.

    >>> short_fingerprint("SHA256:5F:3A:9C:02:11:22")
    '5F:3A:9C:02…'
    """
    pairs = fingerprint.removeprefix("SHA256:").split(":")
    return ":".join(pairs[:SHORT_PAIRS]) + ("\u2026" if len(pairs) > SHORT_PAIRS else "")


@dataclass(frozen=True)
class Link:
    """A connection to a server as the player sees it: ``where`` (``host:port``), and the server
    certificate's ``fingerprint`` over TLS (None: not encrypted). ``first_meeting``: the
    certificate was met for the first time (it is remembered now)."""

    where: str
    fingerprint: str | None
    first_meeting: bool = False

    @property
    def secure(self) -> bool:
        return self.fingerprint is not None

    @property
    def label(self) -> str:
        """A word or two beside the lock: "secure" or "not encrypted"."""
        return pgettext("connection", "secure") if self.secure else pgettext("connection", "not encrypted")

    @property
    def short(self) -> str:
        """The certificate's first bytes ("" when not encrypted)."""
        return short_fingerprint(self.fingerprint) if self.fingerprint else ""

    @property
    def line(self) -> str:
        """One sentence, said on connecting."""
        if self.fingerprint:
            return _("Connected securely to {where} (certificate {short}).").format(where=self.where, short=self.short)
        return _("Connected to {where}: not encrypted.").format(where=self.where)

    @property
    def details(self) -> str:
        """What it means, for a tooltip or a question (the whole fingerprint, to compare with the
        one the server's owner sees in its log, on a line of its own)."""
        if self.fingerprint:
            met = (_("It was met here for the first time: it is remembered now, and you will be warned if it "
                     "ever changes.") if self.first_meeting else _("It is the one met here before."))
            # TRANSLATORS: {fingerprint} is on a line of its own; {met} is one of the two sentences that follow
            return _("Encrypted (TLS): nobody on the way to {where} can read the game or take your seat. "
                     "The server's certificate:\n{fingerprint}\nIts owner sees the same in the server's "
                     "log. {met}").format(where=self.where, fingerprint=self.fingerprint, met=met)
        return _("Not encrypted: fine on your own network; on the internet, someone on the way to {where} "
                 "could read the game. A server that offers TLS is reached securely by itself.").format(where=self.where)


def link_of(match: "Match") -> Link | None:
    """How ``match`` reaches its server (None: a game on this machine)."""
    if match.host is None or match.port is None:
        return None
    fingerprint = match.server_fingerprint if match.secure else None
    return Link(hostport(match.host, match.port), fingerprint, match.first_meeting)


@dataclass(frozen=True)
class IdentityWarning:
    """A server that is not the one met at its address before: a title, and what happened and
    what to do, in a few sentences."""

    title: str
    text: str

    @property
    def line(self) -> str:
        """Both in one paragraph (a terminal's)."""
        return f"{self.title}. {self.text}"


def identity_warning(e: BaseException) -> IdentityWarning | None:
    """The warning for a server refused because it is not the one met there before (its
    certificate changed, or it stopped speaking TLS); None for any other failure."""
    if not isinstance(e, ServerIdentityChanged):
        return None
    where = e.server or _("this address")
    line = _("remove the line that starts with \u201c{where}\u201d from {file}").format(where=where, file=e.known_file) \
        if e.known_file else _("forget {where}").format(where=where)
    if e.now is None:
        return IdentityWarning(
            _("Not connected: this server stopped speaking securely"),
            _("The server at {where} encrypted its games when you met it (certificate {was}) and no longer does. "
              "Someone on the way may be pretending to be it, so nothing was sent. Ask its owner: if they "
              "turned encryption off, {what_to_do}, then join again.").format(
                where=where, was=short_fingerprint(e.was or ""), what_to_do=line))
    return IdentityWarning(
        _("Not connected: this is not the server you met"),
        _("The server at {where} shows another certificate than when you met it (it was {was}, it is {now}). "
          "Someone on the way may be pretending to be it, so nothing was sent: not your name, not your seat. "
          "Ask its owner: if they made a new certificate, check that its fingerprint starts with {now}, "
          "{what_to_do}, then join again.").format(
            where=where, was=short_fingerprint(e.was or ""), now=short_fingerprint(e.now), what_to_do=line))
