"""Hosting a table on this computer, for every front end: the question over a hosted game kept
unfinished (hosting brings it back, so a new table means ending it), the server started in this
process, the host's own seat at it, and what to ask a host who leaves the table or quits while
other people are at it."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.match import RemoteMatch
from game.i18n import N_, _, ngettext
from game.match.seats import hosted_seat_key

from ..games import GameConfig
from ..lan import end_saved_hosted_games, host_server, saved_hosted_games
from ..session import GameSession
from ..words import joined
from .questions import Answer, Question

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.netcode.server import Server
    from game.portmap import Status

__all__ = ["QUIT_TITLE", "end_kept_hosted_game", "host_question", "join_own_table", "leaving_question", "people_at",
           "quitting_question", "server_folder", "start_hosting"]

QUIT_TITLE = N_("Quit while hosting?")
"""The quitting question's title (marked for the catalogue: it is asked, and recognised, as ``_(QUIT_TITLE)``)."""


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
    if others:
        text = ngettext("Your LAN game with {names} is kept on this computer, and hosting brings it back as it was. "
                        "Continue it, or end it for good and open a new table ({names} cannot take a seat in it "
                        "again).",
                        "Your LAN game with {names} is kept on this computer, and hosting brings it back as it was. "
                        "Continue it, or end it for good and open a new table ({names} cannot take their seats in "
                        "it again).", len(others)).format(names=joined(others))
    else:
        text = _("Your LAN game is kept on this computer, and hosting brings it back as it was. Continue it, or end "
                 "it for good and open a new table.")
    return Question(_("Your LAN game is not finished"), text,
                    (Answer("continue", _("Continue it")), Answer("new", _("New table, end it")), Answer("cancel", _("Cancel"))),
                    default="continue")


def end_kept_hosted_game(data_dir: Path, me: str) -> str | None:
    """End the hosted games ``me`` plays kept on this computer (the answer ``new`` of
    :func:`host_question`); None when done, else why not, in words (they are kept)."""
    try:
        end_saved_hosted_games(server_folder(data_dir), me)
    except OSError as e:
        return _("The old game could not be ended ({why}); it is kept.").format(why=e.strerror or e)
    return None


def start_hosting(config: GameConfig, port: int, data_dir: Path, nickname: str, bot_delay: float,
                  open_port: bool = False, on_port: "Callable[[Status], None] | None" = None) -> "Server":
    """The game server of ``nickname``'s table, started in this process on ``port`` (0: any free
    one) and announced on the network; it brings back the hosted games kept in ``data_dir``.
    ``open_port`` (the Settings switch): the router is asked to forward the port while the server
    runs (:mod:`.port_opening`; ``on_port`` told of each change, from another thread).

    :raises OSError: the port is taken, or the folder is another server's.
    """
    folder = server_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    server = host_server(config, port, folder, nickname, bot_delay)
    if open_port:
        from .port_opening import open_port as ask_router
        ask_router(server, folder, on_port)
    return server


def join_own_table(port: int, nickname: str, config: GameConfig, connect_timeout: float = 3.0,
                   **options: Any) -> GameSession:
    """The host's seat at the server this computer hosts on ``port`` (not remembered as a kept
    seat: the title offers the hosted game in its own words). Its token is the game's, not the
    port's: a kept game hosted again on another port gives the host their seat.

    :raises OSError: it cannot be reached.
    """
    match = RemoteMatch("127.0.0.1", port, nickname, connect_timeout=connect_timeout, remember=False,
                        seat_key=hosted_seat_key(nickname), **options)
    return GameSession(match, config, match.nickname)


def people_at(server: "Server | None", me: str) -> list[str]:
    """The people connected to the server this computer hosts (waiting or seated), but ``me``."""
    return [] if server is None else server.host_view().others(me)


def leaving_question(people: list[str], stage: str) -> Question | None:
    """What to ask a host who leaves the table while ``people`` are at it (None: nobody is, the
    host leaves at once). ``stage``: ``"game"`` (under way), ``"ended"`` or ``"waiting"`` (the
    waiting room). Answers: ``leave`` (the game goes on on this computer's server; only while it
    is under way), ``stop`` (stop hosting: they are disconnected), ``stay``."""
    if not people:
        return None
    who, n = joined(people), len(people)
    stop, stay = Answer("stop", _("Stop hosting")), Answer("stay", _("Stay"))
    if stage == "game":
        text = ngettext("{names} is at your table. If you leave the table, the game goes on without you on this "
                        "computer's server and your turns are skipped until you return (\u201cReturn to your LAN "
                        "game\u201d in the main menu). If you stop hosting, {names} is disconnected and the game waits, "
                        "kept as it is (your turn too), until you host again.",
                        "{names} are at your table. If you leave the table, the game goes on without you on this "
                        "computer's server and your turns are skipped until you return (\u201cReturn to your LAN "
                        "game\u201d in the main menu). If you stop hosting, {names} are disconnected and the game waits, "
                        "kept as it is (your turn too), until you host again.", n).format(names=who)
        answers: tuple[Answer, ...] = (Answer("leave", _("Leave the table")), stop, stay)
    elif stage == "ended":
        text = ngettext("{names} is still at the table, looking at the final scores. Stopping the game server "
                        "disconnects them.",
                        "{names} are still at the table, looking at the final scores. Stopping the game server "
                        "disconnects them.", n).format(names=who)
        answers = (stop, stay)
    else:
        text = ngettext("{names} is in your waiting room. Stopping the game server sends them away; they can join "
                        "when you host again.",
                        "{names} are in your waiting room. Stopping the game server sends them away; they can join "
                        "when you host again.", n).format(names=who)
        answers = (stop, stay)
    return Question(ngettext("Your friend is still here", "Your friends are still here", n), text, answers,
                    default="stay", warning=True)


def quitting_question(people: list[str]) -> Question | None:
    """What to ask a host who quits while ``people`` play on this computer's server (None:
    nobody does). Answers: ``quit``, ``stay``."""
    if not people:
        return None
    text = ngettext("{names} is playing on the game server of this computer. Quitting closes it: {names} is "
                    "disconnected. The game is kept and goes on when you host it again.",
                    "{names} are playing on the game server of this computer. Quitting closes it: {names} are "
                    "disconnected. The game is kept and goes on when you host it again.", len(people)).format(
        names=joined(people))
    return Question(_(QUIT_TITLE), text,
                    (Answer("quit", _("Quit")), Answer("stay", _("Stay"))), default="stay", warning=True)
