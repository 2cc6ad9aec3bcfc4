"""A table found on the local network, in the player's words: its name (a host's table named in
the player's language) and its seats (the LAN list of the window and of the text client)."""
from __future__ import annotations

from game.i18n import _, ngettext
from game.netcode.discovery import FoundGame

__all__ = ["found_label", "found_name", "found_seats"]


def found_name(g: FoundGame) -> str:
    """The table's name: "Ada's table" said in the player's language when the host's game
    announced it so (the announcement carries the English words), else as announced."""
    i = g.info
    if i.host and i.name == f"{i.host}'s table":
        return _("{name}'s table").format(name=i.host)
    return i.name or g.address


def found_seats(g: FoundGame) -> str:
    """Its seats in a few words: "2 seated, 1 free", "3 seats free", "playing, 4 at the table"."""
    i = g.info
    if i.started and not i.free:
        return ngettext("playing, {n} at the table", "playing, {n} at the table", i.taken).format(n=i.taken) \
            if i.taken else _("playing")
    if i.taken == 0:
        return ngettext("{n} seat free", "{n} seats free", i.free).format(n=i.free) if i.free else _("open")
    seated = ngettext("{n} seated", "{n} seated", i.taken).format(n=i.taken)
    return _("{seated}, {free}").format(seated=seated, free=ngettext("{n} free", "{n} free", i.free).format(n=i.free))


def found_label(g: FoundGame) -> str:
    """Name and seats in one line ("Ada's table — 1 seated, 3 free")."""
    return f"{found_name(g)} \u2014 {found_seats(g)}"
