"""The multiplayer server: the reference protocol over TCP, many games at once, nothing lost.

One event-loop thread
    Every socket is non-blocking and watched by one poller (:class:`Poller`: epoll on Linux,
    otherwise a ``selectors`` selector): the listening socket, every connection and a wake-up
    socket pair. On each wake-up the loop reads what every ready connection has sent
    (:class:`LineFeeder` splits it into lines), parses and dispatches each line, lets the game
    apply it (which writes the game's log line *before* any reply is queued), then appends the
    replies to each target connection's output buffer and flushes those buffers with
    non-blocking ``send`` once that connection's input is handled: a request costs a ``recv``, a
    log ``write`` and one ``send`` per player told, however many messages each gets, and no
    thread hand-off. ``EPOLLOUT`` is asked for only while a buffer is not empty. Heartbeats, the
    goodbye flush limit, paused accepts and the janitor (``sweep``) are timers in the same loop:
    the poller waits until the next deadline.

    Connections are edge-triggered under epoll: a connection is reported again only when new
    data arrives, so each wake-up serves connections in the order their requests came in (with
    level triggering, the connections of the previous wake-up came first again, and under load
    some requests waited two rounds instead of one). Hence a connection is read until a short
    read, and one that may have more (a flood) is put back in line for the next wake-up.

Limits (what one stranger may take; each an option, see ``docs/server.md``)
    Connections in total and per address (refused at the door with a line that says why; the
    descriptor limit is raised at start, with headroom kept), the time to send ``ReqJoin``, the
    time spent outside a game in progress, the head of the waiting list's time to choose, lines a
    second per connection (a faster sender is read more slowly) and LINES_PER_TURN lines per
    wake-up, TLS handshakes begun a second per address (past them one waits its turn), output queued per connection and in total, games and bot seats per address, bot
    seats in total, and games with bots only while the bots' workers keep the pace of those
    under way (``bot_load``, :meth:`Server.bot_load`). One timer watches every connection's
    clocks (a heap of deadlines holding each connection by a weak reference, so nothing of a
    closed connection is kept; a connection is looked at when a deadline of its own may have
    come, never all of them at once). Only the first few of the
    waiting list hear of its changes, and only a table's people of that table's. A seat at a
    table is a place outside a game in progress (``lobby_time``); open tables count among an
    address's games.

Locks
    The loop holds ``Server.lock`` while it handles a wake-up (never while it waits), so another
    thread (``sweep()``, ``room_of()``, ``stop()``, tests) sees the tables between two wake-ups. A
    room's lock guards its game; the order is always server lock, then room lock. A room only
    calls back through the server's ``send`` functions, which append to buffers and never block.
    A failure while handling one connection costs that connection at most, never the loop.

Connection flow (as the reference server does it, see ``shared/protocol/reference-notes.md``)
    server ``ReqWelcome`` on accept; ``ReqJoin`` (nickname unique among connected and seated
    players); one waiting list (``UpdateBookedSeats``); only its head may send ``ReqNewGame``;
    ``UpdateJoinGame``; each player's own ``UpdateGame``; game requests answered with updates
    ending in ``UpdateAction`` or with one error; ``ReqQuit``/``ResQuit``; ``ReqGoodbye``/``ResGoodbye``
    then close. Heartbeat: after ``heartbeat`` seconds (12.5) without incoming data the server
    sends ``ReqHeartbeat``, and it drops a connection silent for twice that. A dropped or quitting
    player becomes inactive; coming back with the same nickname returns them to their seat.

Persistence (see :mod:`~game.netcode.store`)
    Each game's seed, players and accepted calls are appended to its log in ``data_dir`` before
    anyone hears of them; at start the server restores every unfinished game, and its players
    rejoin as after a drop. For ``restart_grace`` seconds nobody is marked away (the turn waits for
    its player, half-done as it was); then whoever is not back is away, as after a drop. One server
    at a time may use a data directory.

Extensions and deliberate differences (a reference client never notices them)
    * A client that sends ``ReqJoin`` with a ``token`` field (``""`` on a first join) receives
      ``UpdateSessionToken {token}``; to take its seat back after a drop it sends ``ReqJoin`` with
      that token. Without a token a seat is retaken by nickname alone only when the server runs
      with ``compat_rejoin`` (the reference's behaviour, which lets anyone who knows a nickname
      take over a seat). A wrong token, or ``""``, for a seated nickname gets ``ErrNickname TAKEN``.
    * ``ReqChat {text}`` (1 to 200 printable characters) sends ``UpdateChat {player, text}`` to the
      players of the sender's game (or of the waiting room) who joined with a ``token`` field (our
      clients), the sender included; a reference client is never sent one. Five lines in ten
      seconds at most, then ``ErrProtocol {msg: "Too many chat messages; wait a moment."}``.
    * A client that joined with a token and takes its seat back gets, after its ``UpdateGame``,
      ``UpdateHistory`` lines: the updates of the whole game as that player saw them (an
      ``UpdateGame`` first) and, in the last line, the rounds of their turns skipped while they
      were away (see :mod:`game.netcode.history`).
    * Its ``UpdateGame`` in a solo game carries ``revealedActionTokens``, Lorenzo's tokens face up
      since the last shuffle; a reference client's is sent without it (``Room.view``).
    * ``ReqUndo`` (from a client that joined with a token) takes back the sender's last request
      of this turn, as ``Game.undo`` allows; the undo is logged like a request (a restart restores
      the game as it was after it). Every player at the table then gets the whole game again:
      our clients ``UpdateUndo {player, action}`` followed by their ``UpdateGame``, reference
      clients their ``UpdateGame`` alone (which they read as after a rejoin). Refused with
      ``ErrUndo {reason}`` to the sender alone (reasons in ``game.rules.errors``). From a client
      without a token it is an unknown type (``ErrProtocol``), as on the reference server.
    * ``ReqReplay`` (from a client that joined with a token) asks for the replay of a finished game:
      ``{}`` for the sender's own game once it is over, ``{game, token}`` for a game of the record
      (``games/finished/``) by its number, with the token of one of its seats. Answered with
      ``UpdateReplay {game, replay}`` (the ``mor-replay/1`` record of :mod:`game.replays`: seed and
      moves) or ``ErrReplay {reason}``: ``NOT_FINISHED`` (a replay of a game in progress would show
      every hidden card), ``NO_SUCH_GAME``, ``NOT_YOURS``.
    * ``ReqNewGame`` with a zero or negative count gets ``ErrNewGame {isInvalidPlayersCount:true}``
      (the reference let negative counts through).
    * Bots: ``ReqNewGame {playersCount, bots: ["medium", "hard"]}`` from the head of the waiting
      list, joined with our client, asks for computer players in as many seats; the game starts
      when the people and the bots fill it (the head may send it again, e.g. with one more bot,
      until then). Our clients waiting for that game get ``UpdateJoinGame`` with the ``bots``
      field. Refused with ``ErrNewGame`` and a ``reason`` (nothing changes): an unknown level
      (``isInvalidPlayersCount: false``), more bots than ``playersCount - 1``
      (``isInvalidPlayersCount: true``), bots asked by anyone but the head or by a client that
      joined without a token (``false``). Bots play inside the server, with no connection: each
      decision is thought in a worker (threads, or processes with ``bot_processes``), never on
      the loop; its answer is submitted on the loop like a player's request, logged like one,
      and no sooner than ``bot_delay`` seconds after that bot game's previous bot move, so the
      people at the table can follow. The head may set that pace for its game with
      ``botPace`` (seconds, 0 to 10, a number) in the same ``ReqNewGame`` (our clients send
      their player's pace setting); anything else is refused with ``ErrNewGame`` and a reason,
      nothing changed. It is kept in the log's header (``botPace``), so a restart keeps it. Bots play only while a person is at the table. The log's
      header records the bot seats: a restart restores them and they carry on. A request the
      engine refuses is asked again of the easy bot; if even that is refused, or no decision can
      be had, the bot says so at the table (``UpdateChat``, our clients) and leaves it like a
      player who quits, so the game goes on without it.
    * A client whose unsent output passes :data:`MAX_QUEUED_BYTES` is not reading: it is dropped.
    * A request the server fails on (a bug, a failing disk) is answered with
      ``ErrProtocol {msg: "Internal server error."}`` instead of silence.
    * A solo game ends the moment the rules say (E27), also in the middle of a main action; a
      reference client is sent the reference's ending (``UpdateGameEnd``, ``UpdateAction
      END_TURN``) as the answer to its next request, as the reference ends a game at its
      ``ReqEndTurn`` (see :mod:`.reference`, which words everything for reference clients).
    * TLS (``tls_cert``/``tls_key``): the same protocol on a port of its own (``tls_port``), the
      plain port unchanged. A connection there is served once its handshake is over (a silent one
      is closed by the heartbeat, as any other). ``ReqWelcome {tls: true}`` on the plain port
      (our client's) is answered ``ResWelcome {tlsPort}``; a reference client never asks.
    * Tables (:mod:`.tables`): ``ReqTables {from}`` (any time, also before ``ReqJoin``) is
      answered ``UpdateTables`` (a page of the open tables and the Quick game's queue);
      ``ReqJoin {nickname, token, table}`` opens a named table (``create``, ``playersCount``,
      ``private``, ``bots``, ``botPace``) or sits at one by ``name`` (public) or invite ``code``,
      else ``ErrTable {reason, msg}`` and nothing is taken. Its people get ``UpdateJoinGame``
      and ``UpdateBookedSeats {…, players, table}``; its host (the first seated) may change its
      size and bots with ``ReqNewGame``; the game starts when people and bots fill it. A
      ``ReqJoin`` without ``table`` joins the waiting list as before: the Quick game, shared
      with reference clients, who never see a table.
    * The full list, with the reason for each: ``docs/compatibility.md``.
"""
from __future__ import annotations

import errno
import gc
import heapq
import logging
import os
import socket
import ssl
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.errors import MalformedRequest

from . import protocol as P
from .discovery import Announcer, TableInfo, should_announce
from .framing import LineFeeder, ProtocolError, decode_line, encode
from .bot_scheduler import BotScheduler
from .games import Games
from .lobby import CANNOT_START, Lobby
from .poller import Poller, SelectorPoller
from .room import CANNOT_SAVE, INTERNAL_ERROR, SAVING_AGAIN, SERVER_VOICE, Room
from .store import GameStore
from .tables import Table, TableBook

__all__ = ["CANNOT_SAVE", "CANNOT_START", "SAVING_AGAIN", "SERVER_VOICE", "HostView", "Server", "ServerOptions",
           "serve"]

log = logging.getLogger("mor.server")

MAX_QUEUED_BYTES = 4 * 1024 * 1024
"""A client with more than this many bytes not yet taken by its socket is not reading: it is
dropped (read at each flush, so tests may lower it)."""

WRITER_FLUSH_TIMEOUT = 2.0
"""Seconds a closing connection (after ``ResGoodbye``) may take to be sent what is queued."""

RECV_BYTES = 64 * 1024
"""Bytes asked of a connection per ``recv``; the line buffer itself never holds more than MAX_LINE."""

READS_PER_WAKEUP = 8
"""``recv`` calls a connection gets per wake-up at most; one that filled them all is read again at
the next wake-up, after the others (so a flood cannot starve anyone)."""

LINES_PER_TURN = 32
"""Lines of one connection answered per wake-up at most; the rest wait until every other ready
connection has had its turn (what was read but not answered stays with the connection)."""

LINE_BURST = 4.0
"""A connection may send this many seconds' worth of ``line_rate`` lines at once (a burst after a
quiet spell: a rejoin, a plan of several requests) before it is held to the rate."""

TLS_BURST = 8.0
"""One address may begin this many seconds' worth of ``tls_handshake_rate`` TLS handshakes at once
(the players behind one NAT arriving together); past them a handshake waits its turn, up to this
many seconds (then the connection is closed at once: nothing is spent on it)."""

DESCRIPTOR_HEADROOM = 64
"""File descriptors kept free beyond ``max_connections`` (game logs, bot workers, the refusals of
connections past the limit, which are accepted, told and closed)."""

REFUSAL_LOG_INTERVAL = 10.0
"""Seconds between two log lines about connections refused at the door (counted in between)."""

EVENTS_PER_WAKEUP = 256
"""Connections served in one wake-up at most (epoll): when thousands are ready at once, the
others are served at the next wake-ups, in order, and the timers, the calls from other threads
and new connections get their turn in between (without it 10,000 players quitting together
held the loop 2.7 s in one wake-up)."""

ACCEPT_BATCH = 256
"""Connections accepted per wake-up at most (the rest are taken at the next one)."""

ACCEPT_PAUSE = 0.1
"""Seconds accepting pauses after a failed ``accept`` (e.g. EMFILE), so the loop does not spin."""

CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""A player may send CHAT_BURST chat lines in any CHAT_WINDOW seconds."""

SWEEP_INTERVAL = 1.0
WATCH_TICK = 0.05
"""Seconds at least between two looks at the connections' clocks (:meth:`Server._watch_sessions`):
the deadlines that come in between are seen together."""
WATCH_BATCH = 128
"""Connections looked at in one wake-up at most; those left wait for the next wake-up (thousands
connecting at once come due at once: their heartbeats are spread over a few wake-ups)."""
ANNOUNCE_INTERVAL = 0.5
"""Seconds between two looks at the lobby for the LAN announcement (only changes are sent)."""
"""Seconds between two runs of the janitor (:meth:`Server.sweep`)."""

_NETWORK_TYPES = P.CLIENT_TYPES - P.GAME_REQUEST_TYPES
"""The network and lobby types (parsed by protocol.py); any other registered type is a game request."""
_ACTIONS = Action.REGISTRY
_HEARTBEAT_LINE = encode(P.req_heartbeat())[:-1]
_RES_HEARTBEAT = encode(P.res_heartbeat())


_IN = Poller.IN
_OUT = Poller.OUT
_READABLE = Poller.READABLE
_HANGUP = Poller.HANGUP


@dataclass
class ServerOptions:
    """How a :class:`Server` runs (the CLI flags of ``server.py``)."""

    host: str = "0.0.0.0"
    port: int = 51015
    data_dir: Path | None = None     # None: games are not saved
    compat_rejoin: bool = False      # retake a seat by nickname alone, without a token
    heartbeat: float = 12.5          # seconds of silence before ReqHeartbeat; 2x drops the client
    grace: float = 600.0             # seconds an empty unfinished game is kept before it is removed
    restart_grace: float = 30.0      # after a restart, seconds players have to come back before
                                     # they are marked away (their turns then skipped)
    fsync: bool = False              # fsync every log line (survives power loss, slower)
    seed: int | None = None          # draw game seeds from random.Random(seed); None: game.seeds.new_seed()
    status_interval: float = 60.0    # seconds between two status lines in the log (0: none)
    bot_processes: bool = False      # bots think in worker processes (else threads)
    bot_workers: int = 1             # how many decisions are thought about at once
    bot_delay: float = 0.6           # seconds at least between two bot moves of one game
    bot_time_limit: float = 8.0      # seconds a decision may take (then the easy bot decides)
    bot_budget: int | None = None    # the hard bot's search effort (None: its default)
    announce: bool | None = None     # announce the server on the LAN (mDNS); None: unless on loopback
    announce_name: str = ""          # the table's name in the announcement ("" : from the waiting list)
    announce_host: str = ""          # the host's nickname in it ("" : the head of the waiting list)
    tls_cert: Path | None = None     # PEM certificate (chain): serve TLS on tls_port too
    tls_key: Path | None = None      # its private key (None: in tls_cert)
    tls_port: int | None = None      # None: port + 1 (0: any free port)
    # limits, so that a stranger cannot take what the other players need (0: no limit)
    max_connections: int = 4000      # connections at once (also kept under the descriptor limit)
    max_per_address: int = 32        # connections at once from one address (an IPv6 /64)
    join_time: float = 30.0          # seconds a new connection has to send ReqJoin
    lobby_time: float = 1800.0       # seconds a player may stay connected outside a game in progress
    head_time: float = 60.0          # seconds the head of the waiting list has to choose the number
                                     # of players while others wait; then the next in line is asked
    line_rate: float = 50.0          # lines a second one connection is served (bursts of 4 s' worth)
    tls_handshake_rate: float = 4.0  # new TLS handshakes a second from one address (bursts of
                                     # TLS_BURST s' worth); past it a handshake waits its turn
    max_output: int | None = None    # bytes queued for one connection (None: MAX_QUEUED_BYTES)
    max_output_total: int = 256 * 1024 * 1024   # bytes queued for all connections together
    tables_per_address: int = 8      # games in progress started from one address
    bots_per_address: int = 6        # bot seats in games in progress started from one address
    max_bots: int = 24               # bot seats in games in progress on the whole server
    bot_load: float = 0.7            # share of the bot workers' time (thinking, over the last
                                     # BOT_WINDOW seconds) past which no more bot games are
                                     # admitted: the games admitted keep their pace (0: no limit)
    stall_log: float = 0.0           # log every wake-up of the loop longer than this many ms,
                                     # with what ran in it (a diagnostic; 0: off)


class Session:
    """One client connection: its socket, what it has sent and not yet finished, what is queued
    for it, and where it stands.

    ``nickname`` is set by a successful ``ReqJoin`` and never changes; ``room`` is the game the
    player sits in (None while in the waiting list); ``left`` is set once the player has quit
    (``ReqQuit``, ``ReqGoodbye`` or the connection ending). Only the server's loop thread touches
    a session, except :meth:`send`, :meth:`push` and :meth:`abort`, which any thread may call.
    """

    __slots__ = ("server", "sock", "fd", "addr", "number", "nickname", "token", "room", "left",
                 "announced", "line_reader", "out", "dirty", "writing", "closed", "goodbye",
                 "hangup", "last_input", "pinged", "extensions", "chat_times", "tls", "handshake",
                 "ip", "opened", "since", "pending", "pending_at", "allowance", "allowance_at", "throttled",
                 "table", "tls_turn", "__weakref__")

    def __init__(self, server: "Server", sock: socket.socket, addr: Any, number: int) -> None:
        self.server = server
        self.sock = sock
        self.fd = sock.fileno()
        self.addr = addr
        self.number = number
        self.nickname: str | None = None
        self.token: str | None = None
        self.room: Room | None = None
        self.table: Table | None = None   # the open table it sits at, waiting for its game (our extension)
        self.left = False
        self.announced: int | None = None   # the game size already announced with UpdateJoinGame
        self.line_reader = LineFeeder()
        self.out = bytearray()        # encoded messages not yet taken by the socket
        self.dirty = False            # in the server's list of connections to flush
        self.writing = False          # watched for OUT (the socket did not take everything)
        self.closed = False
        self.goodbye = False          # ResGoodbye queued: read nothing more, close once flushed
        self.hangup = False           # the peer closed its side (or the socket failed): read to the end
        self.last_input = time.monotonic()
        self.pinged = False           # ReqHeartbeat sent since the last input
        self.extensions = False       # joined with a token field: our client, told our extensions
        self.chat_times: deque[float] = deque()   # when its last chat lines came (rate limit)
        self.tls = isinstance(sock, ssl.SSLSocket)   # came in on the TLS port
        self.handshake = self.tls     # its TLS handshake is not over: nothing is read or sent yet
        self.tls_turn = 0             # its handshake: 0 not begun, 1 waits its turn (tls_handshake_rate), 2 begun
        self.ip = address_key(addr)   # whom the per-address limits count it for
        self.opened = self.last_input
        self.since = self.last_input  # since when it has been outside a game in progress
        self.pending: list[bytes | Any] = []   # lines read and not answered yet (its turn ended)
        self.pending_at = 0
        self.allowance = 0.0          # lines it may send now (line_rate; set when it is accepted)
        self.allowance_at = self.last_input
        self.throttled = False        # past its line rate: read again once the allowance is back

    def __repr__(self) -> str:
        return f"<Session {self.number} {self.nickname or '-'} {self.addr}>"

    def send(self, *msgs: dict[str, Any]) -> None:
        """Queue messages, encoded now into one buffer; the loop sends them. Never blocks."""
        if self.closed:
            return
        if len(msgs) == 1:
            self.push(encode(msgs[0]))
        else:
            self.push(b"".join([encode(m) for m in msgs]))

    def push(self, data: bytes) -> None:
        """Queue lines already encoded (a broadcast encodes once for all its recipients).

        Only the loop thread touches the buffer (it may be in the middle of sending it): from
        any other thread the lines are handed to the loop, which is woken.
        """
        if self.closed:
            return
        server = self.server
        if threading.get_ident() != server._loop_thread_id:
            server._call_soon(self.push, data)
            return
        self.out += data
        server.queued += len(data)
        if not self.dirty:
            self.dirty = True
            server._dirty.append(self)

    def said_goodbye(self) -> None:
        """Read nothing more; the connection closes once what is queued (``ResGoodbye``) is sent,
        or after :data:`WRITER_FLUSH_TIMEOUT` seconds."""
        if self.goodbye or self.closed:
            return
        self.goodbye = True
        self.server._call_soon(self.server._goodbye_started, self)

    def abort(self) -> None:
        """Close the connection from any thread (idempotent, never blocks); the loop then runs the
        player's quit routine."""
        self.server._call_soon(self.server._close, self)


Handler = Callable[["Server", Session, Any], None]


@dataclass(frozen=True)
class HostView:
    """A host's page's picture of its server (:meth:`Server.host_view`): read-only, taken at once."""

    connected: frozenset[str]   # nicknames with a live connection: waiting, at a table or seated
    seated: frozenset[str]      # people (not bots) with a seat in an unfinished game
    table: TableInfo            # the table as the LAN announcement tells it

    def others(self, me: str) -> list[str]:
        """The people connected but ``me``, in alphabetical order."""
        return sorted(n for n in self.connected if n != me)


class Server:
    """A running server. ``start()`` binds and serves on a background thread; ``stop()`` ends it.

    Public tables (read them under ``lock``): ``sessions`` (live connections), ``waiting`` (the
    waiting list, head first), ``rooms`` (game id -> :class:`Room`), ``seats`` (nickname -> the
    unfinished room holding that seat) and ``by_nick`` (nickname -> its live connection).
    """

    def __init__(self, config: GameConfig, options: ServerOptions | None = None) -> None:
        self.config = config
        self.options = options or ServerOptions()
        self.store = GameStore(self.options.data_dir, self.options.fsync)
        self.lock = threading.RLock()
        self.sessions: set[Session] = set()
        self.rooms: dict[int, Room] = {}
        self.by_nick: dict[str, Session] = {}
        self.listener: socket.socket | None = None
        self.tls_listener: socket.socket | None = None   # the TLS port's (--tls-cert)
        self.tls_address: tuple[str, int] | None = None
        self._tls_context: ssl.SSLContext | None = None
        self.tls_fingerprint = ""       # its certificate's, for the log (and the players who ask)
        self.wakeups = 0                   # loop iterations so far (tests check the loop is idle)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop_thread_id: int | None = None
        self._poller: Poller | SelectorPoller | None = None
        self._conns: dict[int, Session] = {}   # fd -> its connection
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._dirty: list[Session] = []    # connections with output queued since the last flush
        self._unread: list[Session] = []   # connections that may have more input than was read
        self._calls: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = deque()
        self._timers: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._timer_seq = 0
        self._stall_at: tuple[float, float, int] = (0.0, 0.0, 0)   # stall_log: this wake-up's start
        self._stall_ran: dict[str, tuple[int, float]] | None = None   # stall_log: what ran in it
        self._stall_types: dict[str, int] = {}   # stall_log: the lines it answered, by type
        self._accepting = False
        self._accept_failing = False
        self._numbers = 0
        self.lines_handled = 0             # lines answered since the start (the status line's rate)
        self._status_at = time.monotonic()
        self._status_lines = 0
        self.bots = BotScheduler(config, self.options, self.rooms, self._call_soon, self._call_at,
                                 self._tell_ours, self._stopping.is_set)
        self.games = Games(config, self.options, self.store, self.lock, self.rooms, self.by_nick, self.bots,
                           self._call_at)
        self.seats = self.games.seats
        self.lobby = Lobby(config, self.options, self.lock, self.by_nick, self.games, self.bots)
        self.address: tuple[str, int] = (self.options.host, self.options.port)
        self.announcer: Announcer | None = None
        self.queued = 0                    # bytes queued for every connection together
        self.per_address: dict[str, int] = {}   # address key -> its connections now
        self.max_connections = self.options.max_connections   # lowered to fit the descriptor limit
        self.refused: dict[str, int] = {}  # why -> connections refused at the door since the last log line
        self._refused_logged = 0.0
        self._clocks: list[tuple[float, int, weakref.ref[Session]]] = []   # (when to look, number, connection)
        self._clocks_dead = 0              # entries in it of connections closed since
        self.tls_handshakes = 0            # TLS handshakes begun since the start
        self._tls_buckets: dict[str, tuple[float, float]] = {}   # address -> (handshakes it may begin, when)
        self._tls_held: dict[str, list[int]] = {}   # address -> [handshakes held back, closed] since the last log line
        self._tls_held_logged = 0.0
        self._slowed: dict[str, int] = {}  # address -> times its connections were past their line rate since the last log line
        self._slowed_logged = 0.0

    @property
    def waiting(self) -> list[Session]:
        """The waiting list, head first (the lobby's)."""
        return self.lobby.waiting

    @property
    def tables(self) -> TableBook:
        """The open tables (the lobby's)."""
        return self.lobby.tables

    @property
    def pending_count(self) -> int | None:
        """The Quick game's next size, as its head chose it (None until then)."""
        return self.lobby.pending_count

    @property
    def pending_bots(self) -> tuple[str, ...]:
        return self.lobby.pending_bots

    @property
    def pending_pace(self) -> float | None:
        return self.lobby.pending_pace

    # ------------------------------------------------------------------ life cycle
    def start(self) -> tuple[str, int]:
        """Restore saved games, bind, and start serving. Returns the bound (host, port).

        A saved game that cannot be restored is logged as an error and skipped. Nothing in the
        data directory is touched unless the directory is ours and the address is bound.

        :raises OSError: the address cannot be bound, or another server uses the data directory.
        """
        self.max_connections = fit_descriptors(self.options.max_connections)
        self.store.lock()
        try:
            self._tls_context = tls_context(self.options)
            self.listener = self._bind()
            if self._tls_context is not None:
                o = self.options
                self.tls_listener = self._bind(o.port + 1 if o.tls_port is None and o.port else o.tls_port or 0)
        except (OSError, ssl.SSLError):
            if self.listener is not None:
                self.listener.close()
            self.store.unlock()
            raise
        self.address = self.listener.getsockname()[:2]
        if self.tls_listener is not None:
            self.tls_address = self.tls_listener.getsockname()[:2]
            self.tls_fingerprint = cert_fingerprint(self.options.tls_cert)
        self.games.restore()
        self._poller = Poller.create()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._poller.register(self._wake_r.fileno(), _IN)
        self._poller.register(self.listener.fileno(), _IN)
        if self.tls_listener is not None:
            self._poller.register(self.tls_listener.fileno(), _IN)
        self._accepting = True
        self._call_at(time.monotonic() + SWEEP_INTERVAL, self._janitor)
        self._call_at(time.monotonic() + self._watch_interval(), self._watch_sessions)
        self._thread = threading.Thread(target=self._run, name="server-loop", daemon=True)
        self._thread.start()
        log.info("listening on %s:%d", *self.address)
        if self.tls_address is not None:
            log.info("listening with TLS on %s:%d, certificate %s", *self.tls_address, self.tls_fingerprint)
        announce = self.options.announce
        if announce or (announce is None and should_announce(self.options.host)):
            self.announcer = Announcer(self.table_info(), self.address[1], self.options.host)
            self._call_soon(self._announce_tick)
        return self.address

    # ------------------------------------------------------------------ LAN announcement
    def table_info(self) -> TableInfo:
        """What the LAN announcement says: the table, its host, the seats taken and free."""
        with self.lock:
            waiting = [s.nickname or "" for s in self.waiting]
            count, bots = self.pending_count, len(self.pending_bots)
            games = sum(1 for r in self.rooms.values() if not r.finished)
            playing = sum(len(r.humans) for r in self.rooms.values() if not r.finished)
        head = waiting[0] if waiting else ""
        host = self.options.announce_host or head
        name = self.options.announce_name or (f"{host}'s table" if host else
                                              f"Masters of Renaissance on {socket.gethostname()[:30]}")
        taken = len(waiting) + bots
        if count is not None:
            free = max(0, count - taken)
        else:
            free = max(0, self.config.max_players - taken) if waiting or not games else 0
        if not waiting and games:
            taken = playing
        return TableInfo(name, host, taken, free, started=games > 0 and not waiting, games=games,
                         tls=self.tls_address[1] if self.tls_address is not None else 0)

    def host_view(self) -> "HostView":
        """What a host's page shows, read at once under the lock: who is connected, who holds a
        seat in an unfinished game, and the table as the LAN announcement tells it."""
        info = self.table_info()
        with self.lock:
            connected = frozenset(n for n, s in self.by_nick.items() if not s.closed)
            seated = frozenset(n for r in self.rooms.values() if not r.finished for n in r.humans)
        return HostView(connected, seated, info)

    def _announce_tick(self) -> None:
        """Hand the announcer the latest state (it sends only changes, from its own thread)."""
        announcer = self.announcer
        if announcer is None or self._stopping.is_set():
            return
        try:
            announcer.update(self.table_info())
        finally:
            self._call_at(time.monotonic() + ANNOUNCE_INTERVAL, self._announce_tick)

    def _bind(self, port: int | None = None) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.options.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.options.host, self.options.port if port is None else port))
            sock.listen(1024)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        return sock

    def stop(self) -> None:
        """Stop accepting, close every game log (unfinished games stay saved) and connection.

        Called from any thread but the loop's: it wakes the loop and waits for it to end. Rooms
        are closed before connections, so the players' departures are not recorded and a restart
        finds every game as it was. Idempotent.
        """
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._wake()
        if self.announcer is not None:
            self.announcer.close(timeout=0)   # its thread says goodbye: the game leaves Join lists
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
            if self._thread.is_alive():
                log.error("the server loop did not stop in time")
        with self.lock:
            for listener in (self.listener, self.tls_listener):
                if listener is not None:
                    self._unwatch(listener.fileno())
                    listener.close()
            for room in list(self.rooms.values()):    # first: no departure below reaches a log
                room.close("shutdown")
            self.bots.close()
            for s in list(self.sessions):
                self._close(s)
            self._dirty.clear()
            self._unread.clear()
            self._timers.clear()
            self._clocks.clear()
            for sock in (self._wake_r, self._wake_w):
                if sock is not None:
                    sock.close()
            self._wake_w = None
            if self._poller is not None:
                self._poller.close()
        self.store.unlock()
        log.info("stopped")

    # ------------------------------------------------------------------ the loop
    def _run(self) -> None:
        self._loop_thread_id = threading.get_ident()
        assert self._poller is not None
        poll = self._poller.poll
        lock = self.lock
        stopping = self._stopping
        stall = self.options.stall_log / 1000
        while not stopping.is_set():
            try:
                ready = poll(self._timeout(), EVENTS_PER_WAKEUP)
                if stall:
                    self._stall_begin()
                with lock:
                    if stopping.is_set():
                        break
                    self.wakeups += 1
                    self._handle(ready)
                if stall:
                    self._stall_end(stall, len(ready))
            except Exception:   # a bug in the loop itself: log it, never die, never spin
                log.exception("server loop error")
                time.sleep(0.01)
        self._loop_thread_id = None   # from now on only stop() touches the connections

    def _stall_begin(self) -> None:
        self._stall_at = (time.perf_counter(), time.thread_time(), self.lines_handled)
        self._stall_ran = {}
        self._stall_types = {}

    def _stall_end(self, threshold: float, ready: int) -> None:
        """``stall_log``: one line for a wake-up longer than ``threshold`` seconds, from the poll's
        return to the next poll: on the clock and in the loop thread's CPU time (the difference
        is time spent waiting for a core or the GIL), the connections reported ready, the lines
        answered, the timers and calls that ran (with their count and CPU ms)."""
        t0, c0, lines = self._stall_at
        wall = time.perf_counter() - t0
        if wall >= threshold:
            ran = ", ".join(f"{name} x{n} {1000 * cpu:.1f} ms"
                            for name, (n, cpu) in sorted(self._stall_ran.items(), key=lambda kv: -kv[1][1]))
            types = ", ".join(f"{t} {n}" for t, n in sorted(self._stall_types.items(), key=lambda kv: -kv[1]))
            log.warning("stall: wake-up of %.1f ms (CPU %.1f ms): %d ready, %d lines, %d connections; %s; %s",
                        1000 * wall, 1000 * (time.thread_time() - c0), ready, self.lines_handled - lines,
                        len(self.sessions), ran or "no timers", types or "no lines")
        self._stall_ran = None

    def _ran(self, fn: Callable[..., Any], cpu: float, count: int = 1) -> None:
        name = getattr(fn, "__name__", repr(fn))
        n, total = self._stall_ran.get(name, (0, 0.0))   # type: ignore[union-attr]
        self._stall_ran[name] = (n + count, total + cpu)  # type: ignore[index]

    def _timeout(self) -> float | None:
        if self._calls or self._unread:
            return 0
        timers = self._timers
        if not timers:
            return None
        return max(0.0, timers[0][0] - time.monotonic())

    def _handle(self, ready: list[tuple[int, int]]) -> None:
        """One wake-up: serve each ready connection in turn (its replies are sent before the next
        one is read), then the connections left unread, queued calls and due timers."""
        now = time.monotonic()
        conns = self._conns
        unread = self._unread
        if unread:
            self._unread = []
            ready = ready + [(s.fd, _IN) for s in unread if not s.closed and conns.get(s.fd) is s]
        for fd, events in ready:
            s = conns.get(fd)
            if s is None:
                if self.listener is not None and fd == self.listener.fileno():
                    self._accept_ready()
                elif self.tls_listener is not None and fd == self.tls_listener.fileno():
                    self._accept_ready(self.tls_listener)
                elif self._wake_r is not None and fd == self._wake_r.fileno():
                    self._drain_wake()
                continue
            try:
                if events & _READABLE:
                    if events & _HANGUP:
                        s.hangup = True
                    self._read(s, now)
                if events & _OUT and not s.closed:
                    self._flush(s)
            except Exception:   # a bug must cost one connection at most, never the server
                log.exception("%r: unexpected error", s)
                self._close(s)
            if self._dirty:
                self._flush_dirty()
        calls = self._calls
        trace = self._stall_ran is not None
        while calls:
            fn, args = calls.popleft()
            c0 = time.thread_time() if trace else 0.0
            try:
                fn(*args)
            except Exception:
                log.exception("server call %r failed", fn)
            if trace:
                self._ran(fn, time.thread_time() - c0)
        timers = self._timers
        if timers and timers[0][0] <= now:
            self._run_timers(now)
        if self._dirty:
            if trace:
                c0 = time.thread_time()
                n = len(self._dirty)
                self._flush_dirty()
                self._ran(self._flush_dirty, time.thread_time() - c0, n)
            else:
                self._flush_dirty()

    def _wake(self) -> None:
        w = self._wake_w
        if w is not None:
            try:
                w.send(b"\0")
            except OSError:   # full (a wake-up is pending anyway) or closed (stopping)
                pass

    def _drain_wake(self) -> None:
        try:
            while self._wake_r is not None and self._wake_r.recv(4096):
                pass
        except OSError:
            pass

    def _call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop thread: at once if this is it, else at its next wake-up
        (which this causes). Once stopping, a call from another thread is dropped: ``stop``
        closes every connection anyway."""
        if threading.get_ident() == self._loop_thread_id:
            fn(*args)
        elif not self._stopping.is_set():
            self._calls.append((fn, args))
            self._wake()

    def _call_at(self, when: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop thread at ``when`` (a ``time.monotonic()`` value)."""
        self._timer_seq += 1
        heapq.heappush(self._timers, (when, self._timer_seq, fn, args))

    def _run_timers(self, now: float) -> None:
        timers = self._timers
        trace = self._stall_ran is not None
        while timers and timers[0][0] <= now:
            _, _, fn, args = heapq.heappop(timers)
            c0 = time.thread_time() if trace else 0.0
            try:
                fn(*args)
            except Exception:
                log.exception("timer %r failed", fn)
            if trace:
                self._ran(fn, time.thread_time() - c0)

    def _janitor(self) -> None:
        try:
            self._forget_tls_buckets()
            self._retry_saving()
            self.sweep()
            interval = self.options.status_interval
            if interval > 0 and time.monotonic() - self._status_at >= interval:
                self._log_status()
        finally:
            if not self._stopping.is_set():
                self._call_at(time.monotonic() + SWEEP_INTERVAL, self._janitor)

    def _forget_tls_buckets(self) -> None:
        """Addresses whose TLS handshakes allowance is whole again are forgotten."""
        rate = self.options.tls_handshake_rate
        if not self._tls_buckets or rate <= 0:
            return
        now = time.monotonic()
        burst = rate * TLS_BURST
        for ip, (allowance, at) in list(self._tls_buckets.items()):
            if allowance + (now - at) * rate >= burst:
                del self._tls_buckets[ip]

    def _retry_saving(self) -> None:
        """While the disk is full: start the game waiting to start, say the arrivals and
        departures not saved yet, and let the bots ask again."""
        self.lobby.retry_start()
        self.games.retry_saving()

    def _log_status(self) -> None:
        """One line for the operator: who is here, what is being played, how busy the server is.
        An idle server with nobody connected says nothing."""
        now = time.monotonic()
        lines = self.lines_handled - self._status_lines
        elapsed = now - self._status_at
        self._status_at, self._status_lines = now, self.lines_handled
        live = [r for r in self.rooms.values() if not r.finished]
        if not (self.sessions or live or lines):
            return
        players = sum(len(r.online) for r in live)
        log.info("status: connections %d; games in progress %d (players online %d); waiting to play "
                 "%d; open tables %d; %.1f lines/s; %.1f MB", len(self.sessions), len(live), players,
                 len(self.waiting), len(self.tables), lines / elapsed if elapsed > 0 else 0.0, pid_rss_mb())

    # ------------------------------------------------------------------ accepting
    def _accept_ready(self, tls: socket.socket | None = None) -> None:
        """Accept every pending connection (up to ACCEPT_BATCH a wake-up) of the plain port, or of
        the TLS port ``tls``. On a failure such as EMFILE, stop watching the listeners for
        ACCEPT_PAUSE seconds instead of spinning."""
        listener = tls or self.listener
        if listener is None or not self._accepting:
            return
        for _ in range(ACCEPT_BATCH):
            try:
                conn, addr = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.ECONNABORTED, errno.EPROTO):
                    continue   # the client gave up before we took it
                if not self._accept_failing:   # once per streak of failures, not 10 times a second
                    log.warning("accept failed: %s; retrying every %.1f s", e, ACCEPT_PAUSE)
                self._accept_failing = True
                self._accepting = False
                for each in (self.listener, self.tls_listener):
                    if each is not None:
                        self._unwatch(each.fileno())
                self._call_at(time.monotonic() + ACCEPT_PAUSE, self._resume_accepting)
                return
            if self._accept_failing:
                self._accept_failing = False
                log.warning("accepting connections again")
            try:
                self._open_session(conn, addr, tls is not None)
            except Exception:
                log.exception("could not set up a connection from %s", addr)
                try:
                    conn.close()
                except OSError:
                    pass

    def _resume_accepting(self) -> None:
        if self._stopping.is_set() or self.listener is None or self._accepting:
            return
        assert self._poller is not None
        self._accepting = True
        self._poller.register(self.listener.fileno(), _IN)
        if self.tls_listener is not None:
            self._poller.register(self.tls_listener.fileno(), _IN)
            self._accept_ready(self.tls_listener)
        self._accept_ready()

    def _open_session(self, conn: socket.socket, addr: Any, tls: bool = False) -> None:
        o = self.options
        key = address_key(addr)
        here = self.per_address.get(key, 0)
        if self.max_connections and len(self.sessions) >= self.max_connections:
            self._refuse(conn, "full", SERVER_FULL, tls)
            return
        if o.max_per_address and here >= o.max_per_address:
            self._refuse(conn, "address", TOO_MANY_CONNECTIONS.format(o.max_per_address), tls)
            return
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if tls:
            assert self._tls_context is not None
            conn = self._tls_context.wrap_socket(conn, server_side=True, do_handshake_on_connect=False)
        self._numbers += 1
        s = Session(self, conn, addr, self._numbers)
        s.allowance = o.line_rate * LINE_BURST
        assert self._poller is not None
        self._poller.register(s.fd, _IN, edge=True)
        self._conns[s.fd] = s
        self.sessions.add(s)
        self.per_address[key] = here + 1
        self._clock(s, s.opened + min((t for t in (o.heartbeat, o.join_time, o.lobby_time) if t > 0), default=1.0))
        log.debug("connection %d from %s%s", s.number, addr, " (TLS)" if tls else "")
        if tls:
            self._handshake(s)    # a silent one is closed by the connections' watch, as any other
        else:
            s.send(P.req_welcome())

    def _handshake(self, s: Session) -> None:
        """Take a TLS connection's handshake a step further (as its socket allows); once it is
        over, the connection is served as any other, from ``ReqWelcome`` on. It begins only in
        its address's turn (:meth:`_handshake_turn`)."""
        if s.tls_turn != 2 and not self._handshake_turn(s):
            return
        try:
            s.sock.do_handshake()   # type: ignore[attr-defined]
        except ssl.SSLWantReadError:
            return self._want_out(s, False)
        except ssl.SSLWantWriteError:
            return self._want_out(s, True)
        except OSError as e:   # ssl.SSLError included: not TLS, or not a version we speak
            log.info("%r TLS handshake failed: %s", s, e)
            self._close(s)
            return
        s.handshake = False
        self._want_out(s, bool(s.out))
        s.send(P.req_welcome())
        self._read(s, time.monotonic())   # what came with the handshake's end

    def _handshake_turn(self, s: Session) -> bool:
        """May the handshake of ``s`` begin now? A handshake costs the loop about 0.6 ms of CPU, so
        one address begins at most ``tls_handshake_rate`` a second (after a burst of TLS_BURST
        seconds' worth). Past that, the connection waits its turn, as the connections before it
        from its address do, up to TLS_BURST seconds: it is handed its turn by a timer. One
        that would wait longer is closed at once. Whoever opens handshakes as fast as it can only
        makes its own address wait; the others' handshakes cost what they cost."""
        if s.tls_turn == 1:
            return False   # its timer comes
        rate = self.options.tls_handshake_rate
        if rate > 0:
            now = time.monotonic()
            burst = rate * TLS_BURST
            allowance, at = self._tls_buckets.get(s.ip, (burst, now))
            allowance = min(burst, allowance + (now - at) * rate) - 1.0
            if allowance < 0:
                held = self._tls_held.setdefault(s.ip, [0, 0])
                if allowance < -burst:
                    held[1] += 1
                    self._log_tls_held(now)
                    self._close(s)
                    return False
                held[0] += 1
                self._log_tls_held(now)
                self._tls_buckets[s.ip] = (allowance, now)
                s.tls_turn = 1
                self._call_at(now - allowance / rate, self._handshake_now, weakref.ref(s))
                return False
            self._tls_buckets[s.ip] = (allowance, now)
        s.tls_turn = 2
        self.tls_handshakes += 1
        return True

    def _handshake_now(self, ref: "weakref.ref[Session]") -> None:
        """A handshake that waited its turn begins (unless its connection is gone meanwhile)."""
        s = ref()
        if s is None or s.closed:
            return
        s.tls_turn = 2
        self.tls_handshakes += 1
        self._handshake(s)

    def _log_tls_held(self, now: float) -> None:
        """One WARNING line at most every REFUSAL_LOG_INTERVAL seconds about the TLS handshakes held
        back, with the counts by address since the last one."""
        if now - self._tls_held_logged < REFUSAL_LOG_INTERVAL:
            return
        self._tls_held_logged = now
        worst = sorted(self._tls_held.items(), key=lambda kv: -sum(kv[1]))
        log.warning("TLS handshakes past %g a second from one address: %s", self.options.tls_handshake_rate,
                    "; ".join(f"{ip}: {w} waited their turn, {c} closed" for ip, (w, c) in worst[:3])
                    + (f"; and {len(worst) - 3} more addresses" if len(worst) > 3 else ""))
        self._tls_held = {}

    def _want_out(self, s: Session, out: bool) -> None:
        if s.writing != out and not s.closed:
            s.writing = out
            self._watch(s)

    def _refuse(self, conn: socket.socket, why: str, text: str, tls: bool = False) -> None:
        """A connection past a limit: told why in one line (if its socket takes it now; on the
        TLS port it is only closed: no handshake is spent on it), closed. Logged at most once
        every REFUSAL_LOG_INTERVAL seconds, with the count since."""
        if not tls:
            try:
                conn.setblocking(False)
                conn.send(encode(P.req_welcome()) + encode(P.err_protocol(text)))
            except OSError:
                pass
        conn.close()
        self.refused[why] = self.refused.get(why, 0) + 1
        now = time.monotonic()
        if now - self._refused_logged >= REFUSAL_LOG_INTERVAL:
            self._refused_logged = now
            log.warning("connections refused: %s (%d connections now, at most %d; %d per address)",
                        ", ".join(f"{n} {REFUSALS[k]}" for k, n in self.refused.items()),
                        len(self.sessions), self.max_connections, self.options.max_per_address)
            self.refused = {}

    def _watch_interval(self) -> float:
        o = self.options
        times = [t for t in (o.heartbeat, o.join_time, o.lobby_time, o.head_time) if t > 0]
        return max(0.05, min([SWEEP_INTERVAL] + [t / 4 for t in times]))

    def _clock_dropped(self) -> None:
        """A connection closed: its entry in the clocks is dead. Once the dead outnumber the live
        (and a thousand more), the heap is rebuilt without them, so a flood of connections opened
        and closed leaves no trace there either."""
        self._clocks_dead += 1
        if self._clocks_dead > len(self._conns) + 1000:
            self._clocks = [e for e in self._clocks if (s := e[2]()) is not None and not s.closed]
            heapq.heapify(self._clocks)
            self._clocks_dead = 0

    def _clock(self, s: Session, due: float) -> None:
        """Look at the connection ``s`` again at ``due``: its one entry in the connections' clocks
        (by a weak reference, so a closed connection is freed at once; its entry is dropped
        when it comes up)."""
        heapq.heappush(self._clocks, (due, s.number, weakref.ref(s)))

    def _watch_sessions(self) -> None:
        """The connections' clocks: ``ReqHeartbeat`` after ``heartbeat`` seconds without input,
        closed after twice that; closed when it has not joined within ``join_time``, or stayed
        outside a game in progress for ``lobby_time``; and the head of the waiting list that does
        not choose within ``head_time`` goes to the back.

        Each connection is looked at only when one of its deadlines may have come (a heap of
        them, one entry per connection: :meth:`_check_session` says when next), so the work
        follows the deadlines, not the number of connections, and never more than WATCH_BATCH
        connections in one wake-up: 10,000 players cost no pause every second. One timer
        for them all, run at the first deadline (at most every WATCH_TICK), or every
        ``_watch_interval()`` for the head of the waiting list."""
        now = time.monotonic()
        more = False
        try:
            more = self._check_sessions(now)
            self.lobby.watch_head(now)
        finally:
            if not self._stopping.is_set():
                when = now + self._watch_interval()
                clocks = self._clocks
                if more:
                    when = now + 0.001   # the next wake-up (not this one: it has done its share)
                elif clocks and clocks[0][0] < when:
                    when = max(clocks[0][0], now + WATCH_TICK)
                self._call_at(when, self._watch_sessions)

    def _check_sessions(self, now: float) -> bool:
        """Look at the connections whose time has come, WATCH_BATCH at most; True if more are due."""
        clocks = self._clocks
        pop, push = heapq.heappop, heapq.heappush
        looked = 0
        while clocks and clocks[0][0] <= now:
            if looked >= WATCH_BATCH:
                self._looked(looked)
                return True
            _, number, ref = pop(clocks)
            s = ref()
            if s is None or s.closed:
                self._clocks_dead = max(0, self._clocks_dead - 1)
                continue
            if s.goodbye:   # closing within WRITER_FLUSH_TIMEOUT
                continue
            looked += 1
            due = self._check_session(s, now)
            if due is not None:
                push(clocks, (due, number, ref))
        self._looked(looked)
        return False

    def _looked(self, count: int) -> None:
        if self._stall_ran is not None:   # stall_log: how many connections the watch looked at
            n, cpu = self._stall_ran.get("watch_looked_at", (0, 0.0))
            self._stall_ran["watch_looked_at"] = (n + count, cpu)

    def _check_session(self, s: Session, now: float) -> float | None:
        """Apply the time limits to one connection; returns when to look at it again (None: it is
        closed). Input only pushes its deadlines back, so it is never looked at too late: at
        worst too early, and then its next deadline is computed again."""
        o = self.options
        beat = o.heartbeat
        if s.handshake:   # a TLS handshake not over: nothing may be sent; closed if silent
            if now - s.last_input >= 2 * beat:
                log.info("%r TLS handshake silent for %.1f s: closing", s, now - s.last_input)
                self._close(s)
                return None
            return s.last_input + 2 * beat
        if s.throttled or s.pending:
            s.last_input = now   # not silent: what it sent waits for its turn
        silent = now - s.last_input
        if silent >= 2 * beat and s.pinged:
            log.info("%r silent for %.1f s: closing", s, silent)
            self._close(s)
            return None
        if silent >= beat and not s.pinged:
            s.pinged = True
            s.send(P.req_heartbeat())
        due = s.last_input + (2 * beat if s.pinged else beat)
        if s.nickname is None:
            if o.join_time:
                if now - s.opened >= o.join_time:
                    self._turn_out(s, NO_JOIN.format(_secs(o.join_time)), "sent no ReqJoin")
                    return None
                due = min(due, s.opened + o.join_time)
            return due
        room = s.room
        if room is not None and not room.finished and not s.left:
            s.since = now
            if o.lobby_time:   # its game may end any moment: the lobby's clock starts then
                due = min(due, now + max(self._watch_interval(), o.lobby_time / 16))
        elif o.lobby_time:
            if now - s.since >= o.lobby_time:
                self._turn_out(s, NO_GAME.format(_secs(o.lobby_time)), "joined no game")
                return None
            due = min(due, s.since + o.lobby_time)
        return due

    def _turn_out(self, s: Session, text: str, why: str) -> None:
        """Close a connection that holds a place without using it, telling it why first."""
        log.info("%r %s in time: closing", s, why)
        s.send(P.err_protocol(text))
        self._close(s)   # which sends what it can of the queue

    # ------------------------------------------------------------------ reading
    def _read(self, s: Session, now: float) -> None:
        """Read and answer what a connection has sent, until a short read (all there is: an
        edge-triggered poller reports the connection again when more comes) or, once the peer
        has hung up, until the end; at most READS_PER_WAKEUP reads and LINES_PER_TURN lines, then
        it waits its turn (what it sent stays with it). A connection past its ``line_rate`` is
        not read until its allowance is back (what it sends meanwhile waits in the kernel)."""
        if s.goodbye or s.throttled:
            return
        if s.handshake:
            self._handshake(s)
            return
        budget = LINES_PER_TURN
        if s.pending:
            budget = self._serve_lines(s, now, budget)
            if s.pending or s.closed or s.goodbye:
                return
        sock = s.sock
        feed = s.line_reader.feed
        for _ in range(READS_PER_WAKEUP):
            try:
                data = sock.recv(RECV_BYTES)
            except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except ssl.SSLZeroReturnError:   # the peer closed its TLS side
                data = b""
            except OSError as e:
                log.info("%r connection error: %s", s, e)
                self._close(s)
                return
            if not data:
                self._close(s)   # an unfinished last line is dropped
                return
            s.last_input = now
            s.pinged = False
            s.pending = feed(data)
            s.pending_at = 0
            budget = self._serve_lines(s, now, budget)
            if s.pending or s.closed or s.goodbye:
                return   # its turn is over: it is in line again (or closing)
            if len(data) < RECV_BYTES and not s.hangup and not s.tls:   # TLS: one record a recv
                return
            if budget <= 0:
                break
        self._unread.append(s)   # it may have more: read again at the next wake-up

    def _serve_lines(self, s: Session, now: float, budget: int) -> int:
        """Answer the lines ``s`` has pending, as many as ``budget`` and its line rate allow.
        Returns what is left of the budget: 0 or less when lines are left (the connection is
        then put back in line, for the next wake-up or once its allowance is back)."""
        rate = self.options.line_rate
        if rate > 0:
            s.allowance = min(rate * LINE_BURST, s.allowance + (now - s.allowance_at) * rate)
            s.allowance_at = now
        lines = s.pending
        i = s.pending_at
        end = len(lines)
        while i < end:
            if s.closed or s.goodbye:
                lines = []
                break
            if budget <= 0:
                break
            if rate > 0:
                if s.allowance < 1.0:
                    s.throttled = True
                    self._call_at(now + (1.0 - s.allowance) / rate, self._unthrottle, s)
                    self._log_slowed(s, now)
                    break
                s.allowance -= 1.0
            line = lines[i]
            i += 1
            budget -= 1
            if line.__class__ is bytes:
                self._handle_line(s, line)
            else:
                s.send(line.to_dict())   # LineTooLong: its rest is dropped as it comes
        if i >= len(lines):
            s.pending = []
            s.pending_at = 0
            return budget
        s.pending = lines
        s.pending_at = i
        if not s.throttled:
            self._unread.append(s)
        return 0

    def _log_slowed(self, s: Session, now: float) -> None:
        """A connection past its line rate is read more slowly (nothing to tell it: it simply
        waits): one WARNING line at most every REFUSAL_LOG_INTERVAL seconds, with how often each
        address was held back since the last one."""
        self._slowed[s.ip] = self._slowed.get(s.ip, 0) + 1
        if now - self._slowed_logged < REFUSAL_LOG_INTERVAL:
            return
        self._slowed_logged = now
        worst = sorted(self._slowed.items(), key=lambda kv: -kv[1])
        log.warning("connections past %g lines a second, read more slowly: %s", self.options.line_rate,
                    "; ".join(f"{ip}: held back {n} time{'s' if n != 1 else ''}" for ip, n in worst[:3])
                    + (f"; and {len(worst) - 3} more addresses" if len(worst) > 3 else ""))
        self._slowed = {}

    def _unthrottle(self, s: Session) -> None:
        if s.closed or not s.throttled:
            return
        s.throttled = False
        self._unread.append(s)

    def _handle_line(self, s: Session, line: bytes) -> None:
        """Answer one line; whatever goes wrong, the client gets an answer and the loop goes on."""
        self.lines_handled += 1
        if line == _HEARTBEAT_LINE:   # the most frequent line of all (every quiet client's, every 10 s)
            if self._stall_ran is not None:
                self._stall_types[P.REQ_HEARTBEAT] = self._stall_types.get(P.REQ_HEARTBEAT, 0) + 1
            s.push(_RES_HEARTBEAT)
            return
        try:
            d = decode_line(line)
            t = d["type"]
            if self._stall_ran is not None:
                self._stall_types[t] = self._stall_types.get(t, 0) + 1
            kind = _ACTIONS.get(t) if t not in _NETWORK_TYPES else None
            if kind is not None:   # a game request: what parse_client_message does, minus checks done
                try:
                    msg = kind.parse(d)
                except MalformedRequest as e:
                    raise ProtocolError(P.INVALID_TYPES, e.detail or str(e)) from None
            else:
                msg = P.parse_client_message(d)
        except ProtocolError as e:
            log.debug("%r protocol error: %s", s, e)
            s.send(e.to_dict())
            return
        try:
            if kind is not None and not self._stopping.is_set():
                self.games.request(s, msg)   # what dispatch does with a game request
            else:
                self.dispatch(s, msg)
        except Exception:
            log.exception("%r: failed to handle %r", s, msg)
            s.send(P.err_protocol(INTERNAL_ERROR))

    # ------------------------------------------------------------------ writing
    def _flush_dirty(self) -> None:
        dirty = self._dirty
        self._dirty = []
        for s in dirty:
            s.dirty = False
            if not s.closed:
                try:
                    self._flush(s)
                except Exception:
                    log.exception("%r: unexpected error", s)
                    self._close(s)

    def _flush(self, s: Session) -> None:
        """Send what the socket takes now; watch for OUT only while something is left. A
        connection with more than MAX_QUEUED_BYTES left is not reading: it is dropped."""
        if s.handshake:
            self._handshake(s)
            return
        out = s.out
        if out:
            try:
                n = s.sock.send(out)
            except (BlockingIOError, InterruptedError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
                n = 0
            except OSError as e:
                log.info("%r cannot be written to: %s", s, e)
                self._close(s)
                return
            self.queued -= n
            if n == len(out):
                out.clear()
            elif n:
                del out[:n]
        if out:
            limit = self.options.max_output or MAX_QUEUED_BYTES
            if len(out) > limit:
                log.warning("%r is not reading (%d bytes queued): dropping it", s, len(out))
                self._close(s)
                return
            total = self.options.max_output_total
            if total and self.queued > total and len(out) > min(limit, total) // 16:
                log.warning("%r is not reading (%d bytes queued, %d for everyone): dropping it",
                            s, len(out), self.queued)
                self._close(s)
                return
            if not s.writing:
                s.writing = True
                self._watch(s)
        elif s.goodbye:
            self._close(s)
        elif s.writing:
            s.writing = False
            self._watch(s)

    def _watch(self, s: Session) -> None:
        """Tell the poller what to report for this connection: OUT while output is left, IN
        unless it said goodbye."""
        assert self._poller is not None
        events = (0 if s.goodbye else _IN) | (_OUT if s.writing else 0)
        self._poller.modify(s.fd, events, edge=True)

    def _goodbye_started(self, s: Session) -> None:
        """After ``ResGoodbye``: read nothing more; close once flushed (the next flush sees to
        it) or after WRITER_FLUSH_TIMEOUT."""
        if s.closed:
            return
        if not s.dirty:
            s.dirty = True
            self._dirty.append(s)
        self._watch(s)
        self._call_at(time.monotonic() + WRITER_FLUSH_TIMEOUT, self._close, s)

    # ------------------------------------------------------------------ closing
    def _unwatch(self, fd: int) -> None:
        if self._poller is None:
            return
        try:
            self._poller.unregister(fd)
        except (KeyError, ValueError, OSError):
            pass

    def _close(self, s: Session) -> None:
        """Close a connection and run its player's quit routine, once (loop thread, or ``stop``)."""
        if s.closed:
            return
        s.closed = True
        if s.out and not self._stopping.is_set():
            try:
                s.sock.send(s.out)   # what is queued, if the socket takes it now (a last ResQuit)
            except OSError:
                pass
        self.queued -= len(s.out)
        s.out = bytearray()
        s.pending = []
        if self._conns.get(s.fd) is s:
            del self._conns[s.fd]
            self._unwatch(s.fd)
            self._clock_dropped()
            left = self.per_address.get(s.ip, 0) - 1
            if left > 0:
                self.per_address[s.ip] = left
            else:
                self.per_address.pop(s.ip, None)
        try:
            s.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.sock.close()
        except OSError:
            pass
        try:
            self.disconnected(s)
        except Exception:
            log.exception("%r: failed to unregister", s)
        s.room = None   # a closed connection (its heartbeat timer may hold it a while) keeps no game

    # ------------------------------------------------------------------ rooms
    # ------------------------------------------------------------------ bots
    def bot_load(self, now: float | None = None) -> tuple[float, float, float]:
        """How busy the bots' workers are (:meth:`.bot_scheduler.BotScheduler.load`)."""
        return self.bots.load(now)

    def room_of(self, nickname: str) -> Room | None:
        """The unfinished or still-watched room where ``nickname`` sits, if any."""
        return self.games.room_of(nickname)

    def sweep(self, now: float | None = None) -> list[int]:
        """Remove the games nobody needs any more (:meth:`.games.Games.sweep`); returns their ids."""
        return self.games.sweep(now)

    def _undo(self, s: Session, msg: P.ReqUndo) -> None:
        self.games.undo(s, msg)

    def _replay(self, s: Session, msg: P.ReqReplay) -> None:
        self.games.replay(s, msg)

    def _tell_ours(self, room: Room, data: bytes) -> None:
        """Hand encoded lines to the people at ``room`` who joined with our client."""
        for person in room.nicknames:
            s = self.by_nick.get(person)
            if s is not None and s.room is room and s.extensions:
                s.push(data)

    # ------------------------------------------------------------------ messages
    def dispatch(self, s: Session, msg: Any) -> None:
        """Answer one parsed message of a connection (exactly one reply, or none for
        ``ResWelcome``/``ResHeartbeat``, as the reference). Nothing is done once stopping."""
        if self._stopping.is_set():
            return
        if isinstance(msg, Action):
            self.games.request(s, msg)
            return
        handler = _HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, s, msg)

    def _welcome(self, s: Session, msg: P.ReqWelcome) -> None:
        # where TLS is spoken, to a client that asks (ours): a reference client never asks
        tls = self.tls_address is not None and msg.tls and not s.tls
        s.send(P.res_welcome(self.tls_address[1] if tls and self.tls_address is not None else None))

    def _heartbeat(self, s: Session, msg: P.ReqHeartbeat) -> None:
        s.send(P.res_heartbeat())

    def _ignore(self, s: Session, msg: Any) -> None:
        pass

    def _quit_request(self, s: Session, msg: P.ReqQuit) -> None:
        self._quit(s)
        s.send(P.res_quit())

    def _goodbye(self, s: Session, msg: P.ReqGoodbye) -> None:
        self._quit(s)
        s.send(P.res_goodbye())
        s.said_goodbye()

    # ------------------------------------------------------------------ lobby and games
    def _join(self, s: Session, msg: P.ReqJoin) -> None:
        self.lobby.join(s, msg)

    def _new_game(self, s: Session, msg: P.ReqNewGame) -> None:
        self.lobby.new_game(s, msg)

    def _list_tables(self, s: Session, msg: P.ReqTables) -> None:
        self.lobby.list_tables(s, msg)

    def _chat(self, s: Session, msg: P.ReqChat) -> None:
        """``ReqChat`` (our extension): the line goes to every player of the sender's game (or of the
        waiting room) who joined with our client, the sender included (that is its answer). At most CHAT_BURST lines in
        CHAT_WINDOW seconds; past that the sender is asked to wait."""
        room = s.room
        waiting = room is None and self.lobby.in_waiting_room(s)
        if s.nickname is None or (room is None and not waiting) or s.left:
            s.send(P.err_nickname(P.NOT_IN_GAME if s.nickname is not None else P.NOT_SET))
            return
        now = time.monotonic()
        times = s.chat_times
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            s.send(P.err_protocol(P.CHAT_TOO_FAST))
            return
        times.append(now)
        data = encode(P.update_chat(s.nickname, msg.text))
        if waiting:
            self.lobby.chat(s, data)
            return
        assert room is not None
        self.games.chat(s, room, msg.text, data)

    def _quit(self, s: Session) -> None:
        """The player leaves the waiting list or their game (where they become inactive).

        Idempotent; a connection that never joined has nothing to leave.
        """
        with self.lock:
            if s.left or s.nickname is None:
                return
            s.left = True
            if self.by_nick.get(s.nickname) is s:
                del self.by_nick[s.nickname]
            if not self.lobby.leave(s) and s.room is not None:
                self.games.leave(s)

    def disconnected(self, s: Session) -> None:
        """Called once per connection as it closes: the player quits, the connection is forgotten."""
        self._quit(s)
        with self.lock:
            self.sessions.discard(s)
        log.debug("connection %d closed", s.number)


_HANDLERS: dict[type, Handler] = {
    P.ReqWelcome: Server._welcome,
    P.ReqHeartbeat: Server._heartbeat,
    P.ResWelcome: Server._ignore,
    P.ResHeartbeat: Server._ignore,
    P.ReqJoin: Server._join,
    P.ReqNewGame: Server._new_game,
    P.ReqQuit: Server._quit_request,
    P.ReqGoodbye: Server._goodbye,
    P.ReqChat: Server._chat,
    P.ReqUndo: Server._undo,
    P.ReqReplay: Server._replay,
    P.ReqTables: Server._list_tables,
}


HEAP_PER_CONNECTION = 64
"""Objects a connected player adds to the server's heap, with room to spare (about 41 measured:
10,000 players in 2,500 games brought it from 18,566 objects to 427,482)."""


class FrozenHeap:
    """Keeps the cyclic garbage collector off a long-running server's old objects.

    The server's long-lived objects (games, rooms, connections) hold no reference cycles, yet each
    full collection walks all of them: with 300 games that is a pause of tens of milliseconds in
    the middle of serving. :meth:`tick`, called every fraction of a second, moves every object
    that survived so far to the collector's permanent generation (``gc.freeze``, which costs
    nothing), so collections only walk what was allocated since. Garbage cycles still die young
    as usual; one made of frozen objects waits for the safety valve: every ``check`` seconds the
    frozen heap is counted, and once it has grown to ``growth`` times its size after the last
    full collection (plus ``slack`` objects), everything is unfrozen and collected once, then
    frozen again.

    For a process that runs one server (``server.py``); in-process test servers leave the
    collector alone. A full collection holds the interpreter for a while (264 ms with 10,000
    players, about 430,000 objects), so the players a server is made for are no growth:
    :meth:`for_connections` adds HEAP_PER_CONNECTION objects a connection to the slack, and
    the valve opens only past what a full server explains (a leak).
    """

    def __init__(self, growth: float = 2.0, slack: int = 100_000, check: float = 30.0) -> None:
        self.growth = growth
        self.slack = slack
        self.check = check
        self.full_collections = 0
        self._base = 0
        self._next_check = 0.0

    @classmethod
    def for_connections(cls, connections: int, **kw: Any) -> "FrozenHeap":
        """A frozen heap for a server of ``connections`` players (its ``max_connections``)."""
        return cls(slack=100_000 + HEAP_PER_CONNECTION * connections, **kw)

    def start(self) -> None:
        """Collect once, then freeze what is there (call after the server has started)."""
        self._full()

    def tick(self) -> None:
        gc.freeze()
        now = time.monotonic()
        if now >= self._next_check:   # counting walks the whole heap: not at every tick
            self._next_check = now + self.check
            if gc.get_freeze_count() > self.growth * self._base + self.slack:
                self._full()

    def _full(self) -> None:
        t0 = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self._base = gc.get_freeze_count()
        self._next_check = time.monotonic() + self.check
        self.full_collections += 1
        log.info("full garbage collection: %d found, %d objects kept, %.1f ms",
                 found, self._base, 1000 * (time.perf_counter() - t0))

    def stop(self) -> None:
        gc.unfreeze()


def tls_context(options: ServerOptions) -> ssl.SSLContext | None:
    """The server's TLS context (TLS 1.2 at least) from ``tls_cert``/``tls_key``, or None without
    a certificate.

    :raises OSError: a file cannot be read; :raises ssl.SSLError: they are not a certificate and
        its key.
    """
    if options.tls_cert is None:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(options.tls_cert, options.tls_key)
    return ctx


def cert_fingerprint(path: Path | None) -> str:
    """The fingerprint of the first certificate of a PEM file ("" if there is none to read)."""
    try:
        text = Path(path).read_text(encoding="ascii", errors="replace") if path is not None else ""
        begin = text.index("-----BEGIN CERTIFICATE-----")
        end = text.index("-----END CERTIFICATE-----", begin) + len("-----END CERTIFICATE-----")
        return P.fingerprint(ssl.PEM_cert_to_DER_cert(text[begin:end]))
    except (OSError, ValueError):
        return ""


def serve(config: GameConfig, options: ServerOptions) -> Server:
    """Start a server on a background thread and return it."""
    server = Server(config, options)
    server.start()
    return server


def pid_rss_mb(pid: int | None = None) -> float:
    """Resident memory of a process in MB (Linux ``/proc``), for benchmarks and logs."""
    path = f"/proc/{pid or os.getpid()}/status"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


SERVER_FULL = "The server is full: try again later."
TOO_MANY_CONNECTIONS = "Too many connections from your address (at most {}): close one and try again."
NO_JOIN = "No ReqJoin within {} s: closing the connection."
NO_GAME = "No game joined within {} s: closing the connection."
REFUSALS = {"full": "(server full)", "address": "(too many from one address)"}


def _secs(seconds: float) -> str:
    return f"{seconds:g}"


def address_key(addr: Any) -> str:
    """Whom a connection from ``addr`` counts for in the per-address limits: its IPv4 address,
    or the /64 network of an IPv6 one (a single host is given a whole /64)."""
    host = addr[0] if isinstance(addr, tuple) and addr else str(addr)
    if ":" not in host:
        return host
    if host.startswith("::ffff:") and "." in host:
        return host[7:]
    try:
        import ipaddress
        return str(ipaddress.IPv6Network(f"{host.split('%')[0]}/64", strict=False).network_address) + "/64"
    except ValueError:
        return host


def fit_descriptors(wanted: int) -> int:
    """Raise this process's soft limit of open files as far as the hard limit allows and return
    how many connections fit under it with DESCRIPTOR_HEADROOM to spare (``wanted`` at most; 0
    for ``wanted`` 0 means no limit of our own, only the descriptors')."""
    try:
        import resource
    except ImportError:   # not on Unix
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = (wanted or 1_000_000) + DESCRIPTOR_HEADROOM
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:
            log.warning("cannot raise the limit of open files from %d to %d: %s", soft, target, e)
    if soft == resource.RLIM_INFINITY:
        return wanted
    fit = max(1, soft - min(DESCRIPTOR_HEADROOM, soft // 4))
    if wanted and wanted <= fit:
        return wanted
    if wanted:
        log.warning("at most %d connections, not %d: the limit of open files is %d", fit, wanted, soft)
    return fit
