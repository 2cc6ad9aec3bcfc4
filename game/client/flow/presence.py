"""Who is at the table, in words, for every front end: a host who stopped hosting on purpose
(the server says so as it stops, ``UpdateServerStopping``: no crash, the game is kept), and a
player away and for how long their seat waits (``UpdatePlayerAway``), and what comes back when
a lost connection does."""
from __future__ import annotations

from game.i18n import _, ngettext

__all__ = ["away_words", "back_words", "stopped_heading", "stopped_words"]


def stopped_heading(host_name: str | None) -> str:
    """The heading when the server stopped on purpose ("Ada stopped hosting the game"; "The
    host …" when this client does not know the host's name)."""
    if host_name:
        return _("{name} stopped hosting the game").format(name=host_name)
    return _("The host stopped hosting the game")


def stopped_words(host_name: str | None, leave: str | None = None, menu: str | None = None) -> str:
    """What it means for a guest: nothing is lost, and what they can do (``leave``: how the front
    end says leaving, "leave" unless given; ``menu``: the page that offers the seat afterwards,
    "the title" unless given)."""
    who = host_name or _("the host")
    return _("On purpose, not a crash: the game is kept, with your seat, and goes on when {name} hosts it "
             "again. Wait here, or {leave}: {menu} offers your seat.").format(
        name=who, leave=leave or _("leave"), menu=menu or _("the title"))


def away_words(player: str, seconds: float) -> str:
    """A player not connected (their game closed, their link went silent, or, for a host back at
    a kept game, a guest not back yet), and how long their seat and turn wait for them.

    >>> away_words("Bea", 30)
    'Bea is away: their seat and turn wait up to 30 s for them; after that the game goes on without them until they are back.'
    """
    n = max(0, round(seconds))
    return ngettext("{name} is away: their seat and turn wait up to {n} s for them; after that the game goes on "
                    "without them until they are back.",
                    "{name} is away: their seat and turn wait up to {n} s for them; after that the game goes on "
                    "without them until they are back.", n).format(name=player, n=n)


def back_words(stage: str) -> str:
    """What comes back with a lost connection, at the game's ``stage`` (see
    :meth:`~game.client.session.GameSession.stage`): the board once there is one, else what the
    player was choosing.

    >>> back_words("leaders"), back_words("board")
    ('your leaders will be back to choose from', 'the board will be back as it was')
    """
    said = {"leaders": _("your leaders will be back to choose from"),
            "resources": _("your starting resources will be back to choose"),
            "waiting": _("the game will be back where it was")}.get(stage)
    return said or _("the board will be back as it was")
