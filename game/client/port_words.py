"""What the host's page says about the port the router was asked to open (the window's waiting
room and the text client say the same, :func:`port_words`): friends on the internet join at this
address, or why they cannot and what the host can do about it. See :mod:`game.portmap` and
docs/hosting.md."""
from __future__ import annotations

from game.i18n import N_, _
from game.portmap import State, Status

from .address import hostport

__all__ = ["ASKING", "GARBAGE", "HOST_TLS", "LINK", "NO_ROUTER", "OFF", "OPEN", "PRIVATE", "REFUSED", "REMOVED", "REMOVING",
           "SETTING", "SETTING_NOTE", "SHORT_GARBAGE", "SHORT_NO_ROUTER", "SHORT_OFF", "SHORT_OPEN", "SHORT_PRIVATE",
           "SHORT_REFUSED", "SHORT_REMOVED", "SHORT_TIMED_OUT", "TIMED_OUT", "TLS_TOO", "port_words"]

ASKING = N_("Asking your router to open port {port} to the internet\u2026")
OPEN = N_("Friends on the internet can join at {where} (your router forwards it here, by {via}).")
NO_ROUTER = N_("No router answered when asked to open port {port}. Friends on this network can join. For friends "
               "on the internet, forward TCP port {port} to this computer ({lan}) in your router\u2019s settings, "
               "or host on a network whose router does it.")
"""Neither UPnP nor NAT-PMP answered: the router does not offer them, or has them turned off."""
TIMED_OUT = N_("Your router was found but stopped answering when asked to open port {port}. Friends on this "
               "network can join. For friends on the internet, forward TCP port {port} to this computer ({lan}) "
               "in your router\u2019s settings, or restart the router and host again.")
REFUSED = N_("Your router refused to open port {port} ({detail}): its UPnP or NAT-PMP setting may be off. Turn "
             "it on in the router\u2019s settings, or forward TCP port {port} to this computer ({lan}) by hand. "
             "Friends on this network can join meanwhile.")
GARBAGE = N_("Your router answered in a way the game cannot read when asked to open port {port}. Friends on this "
             "network can join. For friends on the internet, forward TCP port {port} to this computer ({lan}) "
             "in your router\u2019s settings.")
PRIVATE = N_("Your router\u2019s own outside address ({outside}) is private: your internet provider shares one "
             "address among many homes (a carrier\u2019s NAT), so only this network can join. To play across the "
             "internet, ask your provider for a public address, or let a friend whose router has one host.")
OFF = N_("Opening the port by itself is off (Settings). Friends on this network can join; for the internet, "
         "forward TCP port {port} to this computer ({lan}) in your router\u2019s settings.")
REMOVING = N_("Opening the port by itself was turned off (Settings): asking your router to stop forwarding port "
              "{port}\u2026")
REMOVED = N_("Opening the port by itself was turned off (Settings): your router no longer forwards port {port}, so "
             "only this network can join. For the internet, turn it on again, or forward TCP port {port} to this "
             "computer ({lan}) in your router\u2019s settings.")
"""Said when the switch was turned off while hosting, the mapping being removed, then removed."""

# TRANSLATORS: {short} is the certificate's first bytes, as 3D:B5:91:B0…; "server" is a command, typed as it is
HOST_TLS = N_("Your table is encrypted (TLS). Its certificate, which your guests are shown when they join, "
             "starts {short}; say server for the whole of it.")
"""Said to the host of a game that serves TLS (the text client; the window shows the mark beside the
name): its certificate's short form (:func:`~game.client.security.short_fingerprint`), as guests are
told it on connecting; the whole fingerprint, read aloud pair by pair, is for who asks for it."""

LINK = N_("The link to send them: {link}")
"""Said by the text client when hosting starts (at this computer's address) and after :data:`OPEN`
(at the router's): the window shows the link with a Copy button."""

TLS_TOO = N_("For encrypted games, forward TCP port {tls} to this computer as well.")
"""Added to the words that ask for the port forwarded by hand, naming the game's TLS port."""

SETTING = N_("Open the port by itself")
SETTING_NOTE = N_("Lets friends on the internet join your table")

# the same, in one line each, for the window's waiting room (the sentences above show while the pointer is on it)
SHORT_OPEN = N_("Friends on the internet can join at {where}: your router forwards it here.")
SHORT_NO_ROUTER = N_("No router answered: only this network can join (forward TCP port {port} to {lan} by hand).")
SHORT_TIMED_OUT = N_("Your router stopped answering: only this network can join (forward TCP port {port} to {lan} "
                     "by hand).")
SHORT_REFUSED = N_("Your router refused ({detail}): turn UPnP on in it, or forward TCP port {port} to {lan} by hand.")
SHORT_GARBAGE = N_("Your router\u2019s answer could not be read: forward TCP port {port} to {lan} by hand.")
SHORT_PRIVATE = N_("Only this network can join: your router\u2019s outside address ({outside}) is private, "
                   "your provider\u2019s.")
SHORT_OFF = N_("Opening the port is off (Settings): for the internet, forward TCP port {port} to {lan} by hand.")
SHORT_REMOVED = N_("Opening the port was turned off (Settings): your router no longer forwards it; only this network "
                   "can join.")


def port_words(status: Status | None, lan: list[str], port: int, asked: bool = True, short: bool = False,
               tls: int | None = None) -> str | None:
    """The host page's sentence about the hosted ``port`` (None: nothing to say: no router asked,
    as in the tests, or the mapping closed). ``lan``: this computer's LAN addresses; ``asked``:
    the Settings switch was on; ``short``: in one line (the window's waiting room); ``tls``: the
    game's TLS port, named too where the port is to be forwarded by hand (:data:`TLS_TOO`)."""
    words = _port_words(status, lan, port, asked, short)
    by_hand = (status is None or status.state in _BY_HAND) and not (asked and status is None)
    if words and tls and not short and by_hand:
        return words + " " + _(TLS_TOO).format(tls=tls)
    return words


_BY_HAND = (State.NO_ROUTER, State.TIMED_OUT, State.REFUSED, State.GARBAGE, State.CLOSED)
"""The outcomes whose words ask the host to forward the port by hand."""


def _port_words(status: Status | None, lan: list[str], port: int, asked: bool, short: bool) -> str | None:
    here = lan[0] if lan else _("this computer")
    s = status.state if status is not None else None
    if not asked:         # the switch off (turned off while hosting: what stood is removed)
        if s in (State.ASKING, State.OPEN):
            return _(REMOVING).format(port=port)
        if s is State.CLOSED:
            return _(SHORT_REMOVED if short else REMOVED).format(port=port, lan=here)
        return _(SHORT_OFF if short else OFF).format(port=port, lan=here)
    if status is None:
        return None
    if s is State.ASKING:
        return _(ASKING).format(port=port)
    if s is State.OPEN:
        return _(SHORT_OPEN if short else OPEN).format(where=hostport(status.outside, status.outside_port),
                                                       via=status.via)
    if s is State.PRIVATE:
        return _(SHORT_PRIVATE if short else PRIVATE).format(outside=status.outside or _("none"))
    if s is State.REFUSED:
        return _(SHORT_REFUSED if short else REFUSED).format(port=port, lan=here,
                                                             detail=status.detail or _("no reason given"))
    words = {State.NO_ROUTER: (NO_ROUTER, SHORT_NO_ROUTER), State.TIMED_OUT: (TIMED_OUT, SHORT_TIMED_OUT),
             State.GARBAGE: (GARBAGE, SHORT_GARBAGE)}.get(s)
    return _(words[short]).format(port=port, lan=here) if words else None
