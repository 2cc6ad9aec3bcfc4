"""Who is at the table, in words, for every front end: a host who stopped hosting on purpose
(the server says so as it stops, ``UpdateServerStopping``: no crash, the game is kept), and a
player away and for how long their seat waits (``UpdatePlayerAway``), and what comes back when
a lost connection does."""
from __future__ import annotations

__all__ = ["away_words", "back_words", "stopped_heading", "stopped_words"]


def stopped_heading(host_name: str | None) -> str:
    """The heading when the server stopped on purpose ("Ada stopped hosting the game"; "The
    host …" when this client does not know the host's name)."""
    return f"{host_name or 'The host'} stopped hosting the game"


def stopped_words(host_name: str | None, leave: str = "leave", menu: str = "the title") -> str:
    """What it means for a guest: nothing is lost, and what they can do (``leave``: how the front
    end says leaving, ``menu``: the page that offers the seat afterwards)."""
    who = host_name or "the host"
    return (f"On purpose, not a crash: the game is kept, with your seat, and goes on when {who} hosts it "
            f"again. Wait here, or {leave}: {menu} offers your seat.")


def away_words(player: str, seconds: float) -> str:
    """A player not connected (their game closed, their link went silent, or, for a host back at
    a kept game, a guest not back yet), and how long their seat and turn wait for them.

    >>> away_words("Bea", 30)
    'Bea is away: their seat and turn wait up to 30 s for them; after that the game goes on without them until they are back.'
    """
    return (f"{player} is away: their seat and turn wait up to {max(0, round(seconds))} s for them; after that "
            f"the game goes on without them until they are back.")


BACK = {"leaders": "your leaders will be back to choose from",
        "resources": "your starting resources will be back to choose",
        "waiting": "the game will be back where it was"}


def back_words(stage: str) -> str:
    """What comes back with a lost connection, at the game's ``stage`` (see
    :meth:`~game.client.session.GameSession.stage`): the board once there is one, else what the
    player was choosing.

    >>> back_words("leaders"), back_words("board")
    ('your leaders will be back to choose from', 'the board will be back as it was')
    """
    return BACK.get(stage, "the board will be back as it was")
