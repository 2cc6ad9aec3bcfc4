"""The words of turn-based tables and My games, for every front end (through the catalogues).

>>> move_time_words(86400), time_left_words(5400), time_left_words(30)
('1 day a move', '1 hour 30 minutes left', 'less than a minute left')
"""
from __future__ import annotations

from game.i18n import N_, _, ngettext

__all__ = ["NO_GAMES", "NOT_SECURE", "NOT_OURS", "game_line", "move_time_words", "pace_button_words",
           "time_left_words", "your_turn_line"]


# said with _() where shown
NOT_SECURE = N_("Your games are found by your player key, which is sent over an encrypted connection only, and "
                "this server does not speak one.")
NOT_OURS = N_("This server keeps no list of your games (it is not ours, or too old).")
NO_GAMES = N_("You have no game in progress on this server.")


def move_time_words(seconds: int | None) -> str:
    """How long a move may take at a table: "1 hour a move", "3 days a move"; "" for real-time."""
    if not seconds:
        return ""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("{n} day a move", "{n} days a move", days).format(n=days)
    hours = max(1, seconds // 3600)
    return ngettext("{n} hour a move", "{n} hours a move", hours).format(n=hours)


def pace_button_words(seconds: int | None) -> str:
    """The pace of a new table on its button, short: "1 h/move", "3 days/move"; "Real-time"."""
    if not seconds:
        return _("Real-time")
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("{n} day/move", "{n} days/move", days).format(n=days)
    hours = max(1, seconds // 3600)
    return ngettext("{n} h/move", "{n} h/move", hours).format(n=hours)


def time_left_words(seconds: float | None) -> str:
    """The time left for a move: "2 days 3 hours left", "40 minutes left"."""
    if seconds is None:
        return ""
    s = int(seconds)
    if s < 60:
        return _("less than a minute left")
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days:
        parts = [ngettext("{n} day", "{n} days", days).format(n=days)]
        if hours:
            parts.append(ngettext("{n} hour", "{n} hours", hours).format(n=hours))
    elif hours:
        parts = [ngettext("{n} hour", "{n} hours", hours).format(n=hours)]
        if minutes:
            parts.append(ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes))
    else:
        parts = [ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)]
    return _("{time} left").format(time=" ".join(parts))


def game_line(table: str, number: int, others: tuple[str, ...], your_turn: bool, time_left: float | None,
              move_time: int | None, given: bool) -> str:
    """One game of My games: "Salon, with Bob: your turn, 20 hours left (1 day a move)."."""
    name = table or _("Game {number}").format(number=number)
    with_ = _("with {names}").format(names=", ".join(others)) if others else _("alone")
    if given:
        state = _("the computer plays your seat now")
    elif your_turn:
        left = time_left_words(time_left)
        state = _("your turn, {left}").format(left=left) if left else _("your turn")
    else:
        state = _("waiting for the others")
    pace = move_time_words(move_time) or _("real-time")
    return _("{name}, {with_}: {state} ({pace}).").format(name=name, with_=with_, state=state, pace=pace)


def your_turn_line(table: str, number: int, where: str, time_left: float | None) -> str:
    """The announcement of a game that became the player's turn while the client runs."""
    name = table or _("Game {number}").format(number=number)
    left = time_left_words(time_left)
    return (_("Your turn in {name} at {where} ({left}).").format(name=name, where=where, left=left) if left else
            _("Your turn in {name} at {where}.").format(name=name, where=where))

