"""A server's leaderboard in the text client (``ratings``): the best players, numbered, and the
player's own standing, said line by line (a screen reader reads each as it comes)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from game.client.address import describe_connect_error, hostport
from game.i18n import _
from game.client.rating_words import LEADERBOARD_TITLE, RATINGS_NOTE
from game.client.security import identity_warning


def say_ratings(say: Callable[[str], None], host: str, port: int, folder: Path, tls_port: int | None = None) -> None:
    """Ask the server at ``host:port`` for its leaderboard (blocking, a few seconds at most) and
    say it, or why it cannot be had."""
    from game.client.ratings import NoRatings, leaderboard
    try:
        board = leaderboard(host, port, tls_port=tls_port, folder=folder)
    except NoRatings as e:
        say(str(e))
        return
    except OSError as e:
        warning = identity_warning(e)
        say(warning.line if warning else describe_connect_error(e, host, port))
        return
    if not board.rows:
        say(board.empty_words)
    else:
        more = " " + _("(the best {shown} of {total})").format(shown=len(board.rows), total=board.total) \
            if board.total > len(board.rows) else ""
        say(_("{title} of {server}{more}:").format(title=_(LEADERBOARD_TITLE), server=hostport(host, port), more=more))
        for row in board.rows:
            say(row.line + (" " + _("(you)") if row.place == board.mine else ""))
    say(board.standing)
    say(_(RATINGS_NOTE))
