"""Why a join failed, in the words both front ends say (the window's Join and Tables pages, the
text client): each cause its own sentence and what the player can do about it.
:func:`game.client.address.describe_connect_error` picks the sentence for a failed connection,
:class:`game.client.tables.Seating` the one for a seat refused."""
from __future__ import annotations

from game.i18n import N_

__all__ = ["CLOSED", "NAME_TAKEN", "NAME_TAKEN_AT_TABLE", "NOT_FOUND", "NOT_TLS", "NO_ROUTE", "OTHER", "REFUSED", "TIMED_OUT",
           "TLS_FAILED", "TLS_UNREACHED", "TURNED_AWAY"]

# (marked N_ and English here: each is said with _(CONSTANT).format(...) where it is shown)

REFUSED = N_("Nobody is listening at {where}: the host has stopped hosting, or the port is wrong "
              "(the host's page shows the address and port to type).")
"""The connection was refused: the computer is there, no game on that port."""
TIMED_OUT = N_("{where} did not answer in time: a router or firewall on the way is holding the connection "
               "back. Across the internet, the host's router must forward the port to the host's computer (the "
               "host's page says whether it does); on one network, check the address on the host's page.")
"""Nothing came back at all (dropped on the way), or the connection was made and nothing answered."""
NO_ROUTE = N_("There is no way from this computer to {where}: check the address, and that this computer is "
              "online.")
NOT_FOUND = N_("No computer called \u201c{host}\u201d was found on the network.")
NOT_TLS = N_("{where} does not speak encrypted connections (TLS): type the address without tls://, "
             "or ask the host for the server's TLS port.")
"""``tls://`` asked of a plain port."""
TLS_UNREACHED = N_("{where} answered, but not its encrypted port {tls}: the host\u2019s router may forward only the "
                   "game\u2019s port. You met this game encrypted before, so it is not joined unencrypted: ask the "
                   "host to forward TCP port {tls} too.")
"""The plain port answered, the TLS port it told did not, and the game was met over TLS before."""
TLS_FAILED = N_("The encrypted connection to {where} failed ({why}). Ask the host which port speaks TLS.")
CLOSED = N_("The server at {where} closed the connection without a word: it may be busy, or this is its "
            "encrypted (TLS) port: type tls:// before the address, or use its plain port.")
"""Connected, then closed without an answer (a plain knock at a TLS port, among others)."""
TURNED_AWAY = N_("The server at {where} turned you away: {words}")
"""The server said why before closing (full, too many connections from one address)."""
OTHER = N_("No game server answered at {where} ({why}).")
NAME_TAKEN = N_("\u201c{nickname}\u201d is already playing at {where}: choose another nickname.")
NAME_TAKEN_AT_TABLE = N_("Someone at that table is called by your name already (or by one that reads the same): "
                         "choose another name to sit there.")
"""A seat refused because someone at that table has the nickname."""
