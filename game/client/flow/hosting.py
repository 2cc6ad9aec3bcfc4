"""Hosting a table on this computer, for every front end: the question over a hosted game kept
unfinished (hosting brings it back, so a new table means ending it), the server started in this
process, and the host's own seat at it."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.match import RemoteMatch

from ..games import GameConfig
from ..lan import end_saved_hosted_games, host_server, saved_hosted_games
from ..session import GameSession
from ..words import joined
from .questions import Answer, Question

if TYPE_CHECKING:
    from game.netcode.server import Server

__all__ = ["end_kept_hosted_game", "host_question", "join_own_table", "server_folder", "start_hosting"]


def server_folder(data_dir: Path) -> Path:
    """Where the server this computer hosts keeps its games."""
    return Path(data_dir) / "server"


def host_question(data_dir: Path, me: str) -> Question | None:
    """What to ask before hosting, when a hosted game ``me`` plays is kept unfinished on this
    computer (None: there is none, hosting opens a new table). Answers: ``continue`` (host it
    again), ``new`` (end it for good, then open a new table), ``cancel``."""
    kept = saved_hosted_games(server_folder(data_dir), me)
    if not kept:
        return None
    others = sorted({n for _path, people in kept for n in people if n != me})
    text = ("Your LAN game" + (f" with {joined(others)}" if others else "") + " is kept on this computer, and hosting "
            "brings it back as it was. Continue it, or end it for good and open a new table"
            + (f" ({joined(others)} cannot take {'their seats' if len(others) > 1 else 'a seat'} in it again)."
               if others else "."))
    return Question("Your LAN game is not finished", text,
                    (Answer("continue", "Continue it"), Answer("new", "New table, end it"), Answer("cancel", "Cancel")),
                    default="continue")


def end_kept_hosted_game(data_dir: Path, me: str) -> str | None:
    """End the hosted games ``me`` plays kept on this computer (the answer ``new`` of
    :func:`host_question`); None when done, else why not, in words (they are kept)."""
    try:
        end_saved_hosted_games(server_folder(data_dir), me)
    except OSError as e:
        return f"The old game could not be ended ({e.strerror or e}); it is kept."
    return None


def start_hosting(config: GameConfig, port: int, data_dir: Path, nickname: str, bot_delay: float) -> "Server":
    """The game server of ``nickname``'s table, started in this process on ``port`` (0: any free
    one) and announced on the network; it brings back the hosted games kept in ``data_dir``.

    :raises OSError: the port is taken, or the folder is another server's.
    """
    folder = server_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return host_server(config, port, folder, nickname, bot_delay)


def join_own_table(port: int, nickname: str, config: GameConfig, connect_timeout: float = 3.0,
                   **options: Any) -> GameSession:
    """The host's seat at the server this computer hosts on ``port`` (not remembered as a kept
    seat: the title offers the hosted game in its own words).

    :raises OSError: it cannot be reached.
    """
    match = RemoteMatch("127.0.0.1", port, nickname, connect_timeout=connect_timeout, remember=False, **options)
    return GameSession(match, config, match.nickname)
