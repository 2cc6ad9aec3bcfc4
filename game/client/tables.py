"""A server's tables, for every front end (pure Python, no pygame): what is open there, and
where to sit: a table by name, a private one by its invite code, a new table, or the Quick game
(the server's waiting list, whose first player chooses the size of the next game).

:func:`list_tables` asks a server (blocking: call it off the frame loop); :func:`join` connects
and asks for the seat, and the answer comes through the match like every lobby message (the
seat, or ``ErrTable``, which :class:`~game.client.session.GameSession` words in ``lobby.error``).
A server that knows no tables (the reference's) answers no list: :class:`NoTables`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.i18n import _, ngettext
from game.match import RemoteMatch
from game.match.remote import KNOWN_SERVERS_FILE, TLS_SCHEME, tls_port_at
from game.netcode import protocol as P
from game.netcode.client import Connection, KnownServers, ServerIdentityChanged, client_tls_context
from game.netcode.client_messages import ReqGoodbye, ReqTables, TableChoice
from game.netcode.watch_wire import ERR_WATCH, UPDATE_WATCH_LIST, ReqWatchList
from game.settings import data_dir

from .address import hostport
from .rating_words import rating_words, told_apart
from .security import IdentityWarning, Link, identity_warning
from .watch_words import quick_game_name
from .words import joined, player_name

__all__ = ["NoTables", "OpenTable", "PlayingTable", "TableList", "connect", "join", "list_tables", "own_table_name",
           "TABLE_NAME_MAX"]

TABLE_NAME_MAX = P.TABLE_NAME_MAX
PAGE = P.TABLES_PAGE


class NoTables(OSError):
    """The server answered, but not with a list of tables (it is not ours, or too old)."""


@dataclass(frozen=True)
class OpenTable:
    """A table waiting for players, as a list shows it."""

    name: str
    host: str
    players: int          # its seats
    taken: int            # people and bots seated
    free: int
    bots: tuple[str, ...]
    private: bool
    seated: tuple[tuple[str, int | None], ...] = ()   # the people seated and their ratings (None: no key)
    move_time: int | None = None     # seconds a move at a turn-based table (None: real-time)

    @property
    def title(self) -> str:
        """Its name as the player reads it (a table's name is its host's)."""
        return self.name

    @property
    def pace_words(self) -> str:
        """"1 day a move" at a turn-based table, "" at a real-time one."""
        from .my_games_words import move_time_words
        return move_time_words(self.move_time) if self.move_time else ""

    @property
    def rated(self) -> bool:
        """Whether someone seated there has a rating (a server of ours, over TLS, keys)."""
        return any(rating is not None for _nick, rating in self.seated)

    @property
    def seated_words(self) -> str:
        """Who sits there, each with their rating: e.g. "Ada (rated 12), Bea (unrated)"."""
        return ", ".join(f"{name} ({rating_words(rating)})" for name, rating in self.seated)

    @property
    def seats_words(self) -> str:
        """E.g. "2 of 4 seats taken, 1 bot"."""
        bots = len(self.bots)
        # TRANSLATORS: the form is chosen by {taken}, the seats taken ("1 of 4 seats taken")
        seats = ngettext("{taken} of {n} seats taken", "{taken} of {n} seats taken", self.taken).format(
            taken=self.taken, n=self.players)
        return _("{seats}, {bots}").format(seats=seats, bots=ngettext("{n} bot", "{n} bots", bots).format(n=bots)) \
            if bots else seats


@dataclass(frozen=True)
class PlayingTable:
    """A public table whose game is under way, which anyone may watch."""

    name: str                  # the name to ask for it by
    players: tuple[str, ...]
    watchers: int
    quick: int | None = None   # a Quick game's number on the server (its name is the server's, in English)
    bots: dict[str, str] = field(default_factory=dict)   # its bots' levels (our server's botLevels), by nickname

    @property
    def title(self) -> str:
        """Its name as the player reads it ("Quick game 3" in the player's language)."""
        return quick_game_name(self.quick) if self.quick is not None else self.name

    @property
    def players_words(self) -> str:
        """E.g. "Ada and Bea play, 2 watch"."""
        p = [player_name(n, self.bots) for n in self.players]      # (a bot with its level)
        play = ngettext("{names} plays", "{names} play", len(p)).format(names=joined(p) if p else "")
        if not self.watchers:
            return play
        return ngettext("{play}, {n} watches", "{play}, {n} watch", self.watchers).format(play=play, n=self.watchers)

    @classmethod
    def page(cls, m: dict[str, Any]) -> tuple["PlayingTable", ...]:
        """From ``UpdateWatchList`` (anything else, e.g. an older server's refusal: none)."""
        if m.get("type") != UPDATE_WATCH_LIST:
            return ()
        rows = []
        for t in m.get("tables") or ():
            try:
                quick = t.get("quick") if type(t.get("quick")) is int else None
                levels = t.get("botLevels") if isinstance(t.get("botLevels"), dict) else {}
                rows.append(cls(str(t["name"]), tuple(str(p) for p in t.get("players") or ()), int(t.get("watchers") or 0),
                                quick, {str(k): str(v) for k, v in levels.items()}))
            except (KeyError, TypeError, ValueError):
                continue
        return tuple(rows)


@dataclass(frozen=True)
class TableList:
    """One page of a server's open tables and its Quick game's queue."""

    tables: tuple[OpenTable, ...]
    start: int = 0
    total: int = 0
    waiting: int = 0                 # people in the Quick game's queue
    queue_count: int | None = None   # the size the first of them chose, if any
    # how it was asked, encrypted or not, and where the server speaks TLS (see :func:`list_tables`)
    link: Link | None = field(default=None, compare=False)
    tls_port: int | None = field(default=None, compare=False)
    playing: tuple[PlayingTable, ...] = ()   # the public games under way (the first page), to watch

    @property
    def more(self) -> bool:
        """Whether tables follow this page."""
        return self.start + len(self.tables) < self.total

    @classmethod
    def from_message(cls, m: dict[str, Any]) -> "TableList":
        """From ``UpdateTables`` (fields a newer server adds are ignored; bad rows are skipped)."""
        rows = []
        tables = [t for t in m.get("tables") or () if isinstance(t, dict)]
        people = [(str(p.get("name") or ""), p["player"] if type(p.get("player")) is int else None)
                  for t in tables for p in t.get("seated") or () if isinstance(p, dict)]
        shown = iter(told_apart(people))   # a name at two tables, told apart: "Ann #3", "Ann #9"
        for t in tables:
            try:
                seated = tuple((next(shown), p["rating"] if type(p.get("rating")) is int else None)
                               for p in t.get("seated") or () if isinstance(p, dict))
                move = t.get("moveTime")
                rows.append(OpenTable(str(t["name"]), str(t.get("host") or ""), int(t["players"]),
                                      int(t["taken"]), int(t["free"]), tuple(str(b) for b in t.get("bots") or ()),
                                      bool(t.get("private")), seated, move if type(move) is int else None))
            except (KeyError, TypeError, ValueError):
                continue
        queue = m.get("queue") if isinstance(m.get("queue"), dict) else {}
        count = queue.get("playersCount")
        return cls(tuple(rows), int(m.get("from") or 0), int(m.get("total") or 0), int(queue.get("waiting") or 0),
                   count if isinstance(count, int) else None)


def list_tables(host: str, port: int, start: int = 0, timeout: float = 5.0, *, tls_port: int | None = None,
                known_file: Path | None = None) -> TableList:
    """The open tables of the server at ``host:port``, a page of :data:`PAGE` from the
    ``start``-th. Blocks up to about ``timeout`` seconds (twice, where TLS is asked for first).

    Asked over TLS where the server speaks it, as a game is (see :class:`~game.match.RemoteMatch`):
    ``tls://host`` goes straight to TLS at ``port``; ``tls_port`` (from the LAN announcement, or
    the last list's :attr:`TableList.tls_port`) goes there without asking (should it not answer,
    the plain port is asked); otherwise the plain port is asked where TLS is spoken. The certificate is checked against those remembered in
    ``known_file`` (by default the player's, beside the seat tokens) and remembered the first time.
    The list says how it came (:attr:`TableList.link`).

    :raises OSError: the server cannot be reached (:class:`NoTables`: it answered, but knows no
        tables; :class:`~game.netcode.client.ServerIdentityChanged`: it is not the one met there
        before, and nothing was sent to it).
    """
    conn, link, tls_port = connect(host, port, timeout, tls_port=tls_port, known_file=known_file)
    host = host.removeprefix(TLS_SCHEME)
    try:
        conn.send(ReqTables(start))
        try:
            m = conn.wait_for(lambda m: m.get("type") in (P.UPDATE_TABLES, P.ERR_PROTOCOL, "ConnectionLost"),
                              timeout=timeout)
        except TimeoutError:
            raise NoTables(_("The server at {where} did not answer with its tables.").format(
                where=hostport(host, port))) from None
        if m.get("type") != P.UPDATE_TABLES:
            raise NoTables(_("The server at {where} has no tables to show "
                             "(it keeps one waiting list: join it with Quick game).").format(where=hostport(host, port)))
        listing = replace(TableList.from_message(m), link=link, tls_port=tls_port)
        try:    # the games under way that may be watched (a server of before refuses to say)
            conn.send(ReqWatchList(0).to_dict())
            games = conn.wait_for(lambda m: m.get("type") in (UPDATE_WATCH_LIST, ERR_WATCH, P.ERR_PROTOCOL,
                                                             "ConnectionLost"),
                                  timeout=timeout)
        except (TimeoutError, ConnectionError):
            return listing
        return replace(listing, playing=PlayingTable.page(games))
    finally:
        hang_up(conn)


def hang_up(conn: Connection) -> None:
    """A question asked (answered or not): say goodbye and close."""
    try:
        conn.send(ReqGoodbye())
    except ConnectionError:
        pass
    conn.close()


def connect(host: str, port: int, timeout: float = 5.0, *, tls_port: int | None = None,
            known_file: Path | None = None) -> tuple[Connection, Link, int | None]:
    """A connection to the server at ``host:port`` (TLS where it speaks it, see :func:`list_tables`),
    how it came (:class:`Link`), and the port where it speaks TLS (None: it does not).

    :raises OSError: the server cannot be reached (:class:`~game.netcode.client.ServerIdentityChanged`:
        it is not the one met there before, and nothing was sent to it).
    """
    direct = host.startswith(TLS_SCHEME)
    if direct:
        host = host[len(TLS_SCHEME):]
        tls_port = port
    known = KnownServers(known_file if known_file is not None else data_dir() / KNOWN_SERVERS_FILE)
    key = f"{host}:{port}"
    if tls_port is None:
        tls_port = tls_port_at(known, host, port, timeout)
    met: list[bool] = []

    def secure(at: int) -> Connection:
        return Connection(host, at, timeout=timeout, tls=client_tls_context(),
                          verify=lambda print_: met.append(not known.check(key, print_)))
    if tls_port is None:
        conn = Connection(host, port, timeout=timeout)
    else:
        try:
            conn = secure(tls_port)
        except ServerIdentityChanged:
            raise
        except OSError:       # an announced port the server no longer has (it started again since)
            if direct:
                raise
            tls_port = tls_port_at(known, host, port, timeout)
            conn = Connection(host, port, timeout=timeout) if tls_port is None else secure(tls_port)
    return conn, Link(hostport(host, port), conn.fingerprint, any(met)), tls_port


CONNECT_TIMEOUT = 5.0
"""Seconds a seat waits for the server to connect and answer, before it is said not to have answered."""


def join(host: str, port: int, nickname: str, *, name: str | None = None, code: str | None = None,
         create: str | None = None, players: int = 2, private: bool = False, bots: tuple[str, ...] = (),
         bot_pace: float | None = None, connect_timeout: float | None = None, token_file: Path | None = None,
         tls_port: int | None = None, move_time: int | None = None, game: int | None = None) -> RemoteMatch:
    """Connect to the server at ``host:port`` as ``nickname`` and ask for a seat: at the public
    table ``name``, at the table of invite ``code``, at a new table ``create`` (``players`` seats,
    ``private`` or not, ``bots`` levels in some of them, ``bot_pace`` seconds between their moves),
    or, with none of these, in the Quick game's queue. ``move_time``: the new table is turn-based,
    that many seconds a move. ``game``: the seat of the player's key in that game (My games,
    :mod:`.my_games`). ``tls_port``: where the server is known to
    speak TLS (its LAN announcement, or :attr:`TableList.tls_port`): the seat is asked there
    straight away, not on the plain port first. Blocks while connecting (call it off the frame
    loop). The server's answer comes through the match (:class:`~game.client.session.GameSession`).

    :raises OSError: the server cannot be reached.
    :raises ValueError: more than one of ``name``, ``code`` and ``create``.
    """
    if sum(x is not None for x in (name, code, create)) > 1:
        raise ValueError("a seat by name, by code or at a new table: one of them")
    table = None
    if create is not None:
        table = TableChoice(create=create, players_count=players, private=private, bots=tuple(bots),
                            bot_pace=bot_pace if bots else None, move_time=move_time)
    elif code is not None:
        table = TableChoice(code=code)
    elif name is not None:
        table = TableChoice(name=name)
    if connect_timeout is None:
        connect_timeout = CONNECT_TIMEOUT
    return RemoteMatch(host, port, nickname, connect_timeout=connect_timeout, table=table, tls_port=tls_port,
                       game=game, **({"token_file": token_file} if token_file is not None else {}))


class Seating:
    """Connecting to a server and asking for a seat (see :func:`join`) without blocking the
    caller: the connection is made on a short-lived thread, then :meth:`poll` (once a frame)
    follows the server's answer. ``state`` is ``"connecting"``, ``"joining"``, ``"seated"``
    (:attr:`session` is the game's, in its waiting room or already at its board) or
    ``"failed"`` (:attr:`error` says why in words; :attr:`taken`: the nickname is taken there).

    ``wake`` is called (from the thread) when the connection is made or fails: a frame loop
    that sleeps while nothing happens is woken by it. ``host_name`` and ``table_name``: the host
    and the table as the network's list (or the seat kept) named them, for the words of a lost
    connection and the seat's record.
    """

    def __init__(self, host: str, port: int, nickname: str, config: Any, wake: Any = None, *, host_name: str = "",
                 table_name: str = "", **where: Any) -> None:
        import threading
        self.host, self.port, self.nickname, self.config = host, port, nickname, config
        self.names = (host_name, table_name)   # as the network's list (or a kept seat) named them
        self.state = "connecting"
        self.error: str | None = None
        self.warning: IdentityWarning | None = None   # failed: the server is not the one met there before
        self.taken = False
        self.session: Any = None          # the GameSession, once connected
        self.remote: RemoteMatch | None = None   # its match (kept after a refusal: its seat token)
        self.sent_token = False           # a seat token kept here was sent: the server gives that seat back
        self._wake = wake
        self._where = where
        self._lock = threading.Lock()
        self._result: Any = None
        self._cancelled = False
        self._thread = threading.Thread(target=self._connect, name="seat", daemon=True)
        self._thread.start()

    @property
    def where(self) -> str:
        return hostport(self.host.removeprefix(TLS_SCHEME), self.port)

    def _open(self) -> Any:
        """The match asked for (on the connecting thread): a seat, see :func:`join`."""
        return join(self.host, self.port, self.nickname, **self._where)

    def _session(self, match: Any) -> Any:
        """The session of the match once connected."""
        from .session import GameSession
        self.sent_token = bool(match.token)    # (before the server's answer brings a new one)
        if any(self.names):          # before the first message: the game is remembered with them
            match.host_name, match.table_name = self.names
        return GameSession(match, self.config, match.nickname)

    def _answered(self, session: Any) -> bool:
        """Whether the server has given what was asked (here: a seat, or its game)."""
        return session.lobby.booked > 0 or session.vm.has_game

    def _refused(self, session: Any) -> str | None:
        """Why the server refused what was asked, in words (None: it did not)."""
        if not session.lobby.error:
            return None

        from .words import NICKNAME_ERRORS
        self.taken = session.lobby.error == _(NICKNAME_ERRORS["TAKEN"])
        from .join_words import NAME_TAKEN
        return _(NAME_TAKEN).format(nickname=self.nickname, where=self.where) if self.taken else session.lobby.error

    def _connect(self) -> None:
        try:
            result: Any = self._open()
        except OSError as e:
            result = e
        with self._lock:
            if self._cancelled and not isinstance(result, OSError):
                result.close()
                return
            self._result = result
        if self._wake is not None:
            self._wake()

    def poll(self) -> str:
        """Follow the connection and the server's answer; returns :attr:`state`."""
        if self.state == "connecting":
            with self._lock:
                result, self._result = self._result, None
            if result is None:
                return self.state
            if isinstance(result, OSError):
                from .address import describe_connect_error
                self.warning = identity_warning(result)
                return self._fail(describe_connect_error(result, self.host.removeprefix(TLS_SCHEME), self.port))
            self.remote = result
            self.session = self._session(result)
            self.state = "joining"
        if self.state != "joining":
            return self.state
        session = self.session
        msgs = session.pump()
        refused = self._refused(session)
        if refused is not None:
            return self._fail(refused)
        if any(m.get("type") == "ConnectionLost" for m in msgs):
            return self._fail(_("The server at {where} closed the connection.").format(where=self.where))
        if self._answered(session):
            self.state = "seated"
        return self.state

    def _fail(self, words: str) -> str:
        if self.session is not None:
            self.session.close()
            self.session = None
        self.state, self.error = "failed", words
        return self.state

    def cancel(self) -> None:
        """Give up: whatever was connected is closed (also if it connects after this)."""
        with self._lock:
            self._cancelled = True
            result, self._result = self._result, None
        if result is not None and not isinstance(result, OSError):
            result.close()
        if self.session is not None and self.state != "seated":
            self.session.close()
            self.session = None
        if self.state in ("connecting", "joining"):
            self.state = "failed"


def own_table_name(nickname: str) -> str:
    """The name offered for a table ``nickname`` opens ("Bea's table"): the window's draft, and
    the text client's example of how to open one (a player's own name, not one that reads as a
    real table somebody else opened)."""
    return _("{name}'s table").format(name=nickname)[:TABLE_NAME_MAX]
