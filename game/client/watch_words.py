"""Every sentence a player reads about watching a table (issue 31), in one place to catalogue."""
from __future__ import annotations

REFUSED_WATCH = "The server would not let you watch that table."
WATCHER = "{} (watching)"
"""How a watcher's name reads beside its chat line, so nobody takes it for a player's."""
WATCH_LOST = "The connection to the server was lost: you no longer watch this table."
WATCH_CLOSED = "The table closed before its game started: everybody left."
HIDE_ON = "The watchers' chat is hidden: you no longer read what they say."
HIDE_OFF = "The watchers' chat is shown again."
NOT_WATCHED = "Nobody watches this game."
HIDE_WATCHERS = "{} watching \u00b7 hide"
SHOW_WATCHERS = "{} watching \u00b7 show"
"""The switch beside a player's chat line: how many watch, and what a press does to their chat."""
WATCHERS_TIP = "What they say shows in the log, marked (watching): hide it if it distracts you."


def watchers_words(count: int) -> str:
    """E.g. "3 people watch this game"."""
    if count <= 0:
        return NOT_WATCHED
    return f"{count} {'person watches' if count == 1 else 'people watch'} this game."


def waiting_words(table: str, players: tuple[str, ...], seats: int) -> str:
    """A watched table still waiting for its players, e.g. "Salon waits for its players: Ada and
    Bea sit, 1 seat is free."."""
    free = max(0, seats - len(players))
    sit = (", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else players[0]) if players else "nobody"
    return (f"{table} waits for its players: {sit} {'sits' if len(players) <= 1 else 'sit'}, "
            f"{free} seat{'s' if free != 1 else ''} free.")


def watching_words(table: str, players: tuple[str, ...]) -> str:
    """E.g. "You watch Salon: Ada and Bea play."."""
    names = ", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else "".join(players)
    return f"You watch {table}: {names} play."
