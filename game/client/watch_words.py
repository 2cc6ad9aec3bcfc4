"""Every sentence a player reads about watching a table (issue 31), in one place to catalogue.

The constants are marked for the catalogue (``N_``) and stay English here: say them with
``_(CONSTANT)`` where they are shown (``_(HIDE_WATCHERS).format(n)``)."""
from __future__ import annotations

from game.i18n import N_, _, ngettext

from .words import joined

REFUSED_WATCH = N_("The server would not let you watch that table.")
WATCHER = N_("{} (watching)")
"""How a watcher's name reads beside its chat line, so nobody takes it for a player's."""
WATCH_LOST = N_("The connection to the server was lost: you no longer watch this table.")
WATCH_CLOSED = N_("The table closed before its game started: everybody left.")
HIDE_ON = N_("The watchers' chat is hidden: you no longer read what they say.")
HIDE_OFF = N_("The watchers' chat is shown again.")
NOT_WATCHED = N_("Nobody watches this game.")
HIDE_WATCHERS = N_("{} watching \u00b7 hide")
SHOW_WATCHERS = N_("{} watching \u00b7 show")
"""The switch beside a player's chat line: how many watch, and what a press does to their chat."""
WATCHERS_TIP = N_("What they say shows in the log, marked (watching): hide it if it distracts you.")


def quick_game_name(number: int) -> str:
    """The name of a Quick game being played, by its number on the server ("Quick game 3")."""
    return _("Quick game {number}").format(number=number)


def watchers_words(count: int) -> str:
    """E.g. "3 people watch this game"."""
    if count <= 0:
        return _(NOT_WATCHED)
    return ngettext("{n} person watches this game.", "{n} people watch this game.", count).format(n=count)


def waiting_words(table: str, players: tuple[str, ...], seats: int) -> str:
    """A watched table still waiting for its players, e.g. "Salon waits for its players: Ada and
    Bea sit, 1 seat is free."."""
    free = max(0, seats - len(players))
    seats_free = ngettext("{n} seat free", "{n} seats free", free).format(n=free)
    if not players:
        return _("{table} waits for its players: nobody sits, {free}.").format(table=table, free=seats_free)
    return ngettext("{table} waits for its players: {names} sits, {free}.",
                    "{table} waits for its players: {names} sit, {free}.", len(players)).format(
        table=table, names=joined(list(players)), free=seats_free)


def watching_words(table: str, players: tuple[str, ...]) -> str:
    """E.g. "You watch Salon: Ada and Bea play."."""
    return ngettext("You watch {table}: {names} plays.", "You watch {table}: {names} play.",
                    len(players)).format(table=table, names=joined(list(players)) if players else "")
