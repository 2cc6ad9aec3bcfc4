"""My games, for every front end (pure Python, no pygame): a player's games on a server, real-time
and turn-based, whose turn it is first (:func:`my_games`, blocking: call it off the frame loop),
opening one (:func:`open_game`: the seat is taken by the player's key), and the news of a game
that becomes the player's turn while the client runs (:class:`TurnNews`).

The list is asked as the tables are (:func:`~game.client.tables.connect`: TLS where the server
speaks it), with the player's key, over TLS only. The servers where the player has opened or sat
at a turn-based table, or found games, are remembered (:data:`SERVERS_FILE` in the data folder),
so that :class:`TurnNews` knows where to look. Words: :mod:`.my_games_words`.
"""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import orjson

from game.i18n import _
from game.match.remote import KNOWN_SERVERS_FILE
from game.netcode import protocol as P
from game.netcode import turn_wire as T
from game.netcode.player_key import KEY_FILE, player_key
from game.settings import data_dir

from .address import hostport
from .my_games_words import NO_GAMES, NOT_OURS, NOT_SECURE, game_line, your_turn_line
from .security import Link
from .server_words import server_said
from .tables import TLS_SCHEME, connect, hang_up, join
from .words import player_name

__all__ = ["MOVE_TIMES", "MyGame", "MyGames", "NoGames", "SERVERS_FILE", "TurnNews", "my_games", "news_interval",
           "open_game", "remember_server", "turn_servers"]

log = logging.getLogger("mor.client")

MOVE_TIMES = tuple(T.MOVE_TIMES)
"""The times a move a new turn-based table may give (seconds), shortest first."""
SERVERS_FILE = "turn_servers.json"
"""The servers where the player has turn-based games (``[[host, port], ...]``), in the data folder."""
SERVERS_KEPT = 20


NEWS_INTERVAL = "MOR_TURN_NEWS"
"""The environment variable that sets how often (seconds) :class:`TurnNews` asks (tests: short)."""


def news_interval() -> float:
    """How often the servers are asked for games that became the player's turn: a minute, or
    :data:`NEWS_INTERVAL` seconds."""
    try:
        return max(0.2, float(os.environ.get(NEWS_INTERVAL) or 60.0))
    except ValueError:
        return 60.0


class NoGames(OSError):
    """The server answered without a list of the player's games: the message says why, in words."""


@dataclass(frozen=True)
class MyGame:
    """One game of the player's, as ``UpdateMyGames`` tells it."""

    game: int
    table: str
    nickname: str                  # the player's name in it (the seat's)
    players: tuple[str, ...]
    move_time: int | None          # seconds a move (None: real-time)
    your_turn: bool
    time_left: float | None        # seconds, while the move awaited is the player's at a turn-based table
    given: bool = False            # the computer plays the seat for good
    bots: dict[str, str] = field(default_factory=dict, compare=False)   # its bots' levels (botLevels), by nickname

    @property
    def line(self) -> str:
        """E.g. "Salon, with Bob: your turn, 20 hours left (1 day a move)."."""
        others = tuple(player_name(p, self.bots) for p in self.players if p != self.nickname)   # (a bot with its level)
        return game_line(self.table, self.game, others, self.your_turn, self.time_left, self.move_time, self.given)

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> "MyGame":
        """From a row of ``UpdateMyGames``. :raises KeyError, TypeError, ValueError: a bad row."""
        move, left = r.get("moveTime"), r.get("timeLeft")
        levels = r.get("botLevels") if isinstance(r.get("botLevels"), dict) else {}
        return cls(int(r["game"]), str(r.get("table") or ""), str(r["nickname"]),
                   tuple(str(p) for p in r.get("players") or ()), move if type(move) is int else None,
                   bool(r.get("yourTurn")), float(left) if type(left) in (int, float) else None,
                   bool(r.get("givenToBot")), {str(k): str(v) for k, v in levels.items()})


@dataclass(frozen=True)
class MyGames:
    """The player's games on one server, whose turn it is first."""

    games: tuple[MyGame, ...]
    where: str = ""
    link: Link | None = field(default=None, compare=False)
    tls_port: int | None = field(default=None, compare=False)

    @property
    def yours(self) -> tuple[MyGame, ...]:
        """The games awaiting the player's move."""
        return tuple(g for g in self.games if g.your_turn and not g.given)

    @property
    def empty_words(self) -> str:
        return _(NO_GAMES)

    @classmethod
    def from_message(cls, m: dict[str, Any], where: str = "", link: Link | None = None,
                     tls_port: int | None = None) -> "MyGames":
        rows = []
        for r in m.get("games") or ():
            try:
                rows.append(MyGame.from_row(r))
            except (KeyError, TypeError, ValueError):
                continue
        return cls(tuple(rows), where, link, tls_port)


def my_games(host: str, port: int, timeout: float = 5.0, *, tls_port: int | None = None,
             folder: Path | None = None) -> MyGames:
    """The player's games on the server at ``host:port`` (their key from ``folder``, by default the
    player's data folder, sent over TLS only). Blocks up to about ``timeout`` seconds.

    :raises OSError: the server cannot be reached (:class:`NoGames`: it answered without the list,
        or speaks no TLS, so the key was not sent).
    """
    folder = folder if folder is not None else data_dir()
    where = hostport(host.removeprefix(TLS_SCHEME), port)
    conn, link, tls_port = connect(host, port, timeout, tls_port=tls_port, known_file=folder / KNOWN_SERVERS_FILE)
    try:
        if not link.secure:
            raise NoGames(_(NOT_SECURE))
        conn.send(T.ReqMyGames(player_key(folder / KEY_FILE)).to_dict())
        m = conn.wait_for(lambda m: m.get("type") in (T.UPDATE_MY_GAMES, T.ERR_MY_GAMES, P.ERR_PROTOCOL,
                                                      "ConnectionLost"), timeout=timeout)
    except TimeoutError:
        raise NoGames(_(NOT_OURS)) from None
    finally:
        hang_up(conn)
    if m.get("type") == T.ERR_MY_GAMES:
        raise NoGames(server_said(m, m.get("msg") or _(NOT_OURS)))
    if m.get("type") != T.UPDATE_MY_GAMES:
        raise NoGames(_(NOT_OURS))
    games = MyGames.from_message(m, where, link, tls_port)
    if games.games:
        remember_server(folder, host, port)
    return games


def open_game(host: str, port: int, game: MyGame, *, tls_port: int | None = None, **kw: Any) -> Any:
    """Take the player's seat in ``game`` (by key; a :class:`~game.match.RemoteMatch`, as
    :func:`~game.client.tables.join`). Blocks while connecting."""
    return join(host, port, game.nickname, game=game.game, tls_port=tls_port, **kw)


def turn_servers(folder: Path | None = None) -> list[tuple[str, int]]:
    """The servers where the player has (or had) turn-based games, the latest first."""
    path = (folder if folder is not None else data_dir()) / SERVERS_FILE
    try:
        rows = orjson.loads(path.read_bytes())
    except (OSError, ValueError):
        return []
    return [(str(r[0]), int(r[1])) for r in rows if isinstance(r, list) and len(r) == 2
            and isinstance(r[0], str) and type(r[1]) is int][:SERVERS_KEPT]


def remember_server(folder: Path | None, host: str, port: int) -> None:
    """Remember a server where the player has games (for :class:`TurnNews`); a failure is logged."""
    folder = folder if folder is not None else data_dir()
    rows = [(host, port)] + [s for s in turn_servers(folder) if s != (host, port)]
    # written aside, then put in place at once: the turn news's thread and a My games page read
    # it while another writes it, and a half-written file is no server at all to them
    tmp = folder / f"{SERVERS_FILE}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(orjson.dumps([list(r) for r in rows[:SERVERS_KEPT]]))
        os.replace(tmp, folder / SERVERS_FILE)
    except OSError as e:
        log.warning("cannot remember the server %s: %s", hostport(host, port), e)
        tmp.unlink(missing_ok=True)


class TurnNews:
    """Looks, every ``interval`` seconds on a thread of its own, at the player's games on the
    servers where they have some (:func:`turn_servers`), and keeps a line for each game that
    became the player's turn since the last look (none for those already theirs at the first
    look: the list says them). :meth:`take` hands the lines over (the front end says them, with
    the window's title or the terminal's bell); ``wake`` is called when there are some.
    ``ask(host, port)``: how a server is asked (:func:`my_games`; tests give their own)."""

    def __init__(self, folder: Path | None = None, interval: float = 60.0, wake: Callable[[], None] | None = None,
                 ask: Callable[[str, int], MyGames] | None = None) -> None:
        self.folder = folder if folder is not None else data_dir()
        self.interval = interval
        self._wake = wake
        self._ask = ask or (lambda host, port: my_games(host, port, folder=self.folder))
        self._seen: dict[tuple[str, int], set[int]] | None = None   # games that were the player's turn
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.yours: dict[tuple[str, int], tuple[MyGame, ...]] = {}  # each server's games awaiting the player
        self._thread = threading.Thread(target=self._run, name="turn-news", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.look()
            self._stop.wait(self.interval)

    def look(self) -> None:
        """Ask each server once (on the calling thread)."""
        seen: dict[tuple[str, int], set[int]] = {}
        news: list[str] = []
        for host, port in turn_servers(self.folder):
            if self._stop.is_set():
                return
            try:
                games = self._ask(host, port)
            except OSError as e:
                log.info("my games at %s: %s", hostport(host, port), e)
                continue
            yours = games.yours
            self.yours[(host, port)] = yours
            seen[(host, port)] = {g.game for g in yours}
            before = None if self._seen is None else self._seen.get((host, port), set())
            if before is not None:
                news += [your_turn_line(g.table, g.game, hostport(host, port), g.time_left)
                         for g in yours if g.game not in before]
        with self._lock:
            self._seen = seen
            self._lines += news
        if news and self._wake is not None:
            self._wake()

    def take(self) -> list[str]:
        """The lines of the games newly the player's turn, once each."""
        with self._lock:
            lines, self._lines = self._lines, []
        return lines

    @property
    def waiting(self) -> int:
        """How many games await the player's move, as last seen."""
        return sum(len(g) for g in self.yours.values())

    def close(self) -> None:
        self._stop.set()
