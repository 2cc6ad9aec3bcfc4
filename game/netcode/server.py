"""The multiplayer server: the reference protocol over TCP, many games at once, nothing lost.

The parts (each a module of its own; only the transport touches a socket)
    * :mod:`.transport` (with :mod:`.door`, :mod:`.connection`, :mod:`.clocks`, :mod:`.tls`): one
      event-loop thread, every socket non-blocking under one poller; lines read, parsed and handed
      to the server, replies flushed once a connection's input is handled; accepting and refusing
      at the door, TLS handshakes in each address's turn, heartbeats and the connections' time
      limits, output caps. :class:`Server` is a :class:`~.transport.Transport`: it answers what
      the connections say (``dispatch``) and wires the parts below, which take requests and
      queue messages, and never block.
    * :mod:`.lobby` (with :mod:`.table_lobby`): the waiting list (the Quick game), the open tables,
      the per-address limits.
    * :mod:`.games`: the games in progress (rooms, seats, saves, restore, rejoin, undo, replay).
    * :mod:`.bot_scheduler`: when each game's bots think, at their pace, and their workers' load.
    * :mod:`.announcing`: the LAN announcement, and what a host's page shows
      (:meth:`Server.host_view`, never read from the tables).

Limits (what one stranger may take; each an option, see ``docs/server.md``)
    Connections in total and per address (refused at the door with a line that says why; the
    descriptor limit is raised at start, with headroom kept), the time to send ``ReqJoin``, the
    time spent outside a game in progress, the head of the waiting list's time to choose, lines a
    second per connection (a faster sender is read more slowly) and lines per wake-up, TLS
    handshakes begun a second per address (past them one waits its turn), output queued per
    connection and in total, games and bot seats per address, bot seats in total, and games with
    bots only while the bots' workers keep the pace of those under way (``bot_load``). Only the
    first few of the waiting list hear of its changes, and only a table's people of that table's.
    A seat at a table is a place outside a game in progress (``lobby_time``); open tables count
    among an address's games.

Locks
    The loop holds ``Server.lock`` while it handles a wake-up (never while it waits), so another
    thread (``sweep()``, ``room_of()``, ``stop()``, tests) sees the tables between two wake-ups. A
    room's lock guards its game; the order is always server lock, then room lock. A room only
    calls back through the server's ``send`` functions, which append to buffers and never block.
    A failure while handling one connection costs that connection at most, never the loop.

Connection flow (as the reference server does it, see ``shared/protocol/reference-notes.md``)
    server ``ReqWelcome`` on accept; ``ReqJoin`` (nickname unique among connected and seated
    players without a key, and at the table, or in the waiting list, it joins: a keyed player's
    nickname is a display name, see :mod:`.names`); one waiting list (``UpdateBookedSeats``); only its head may send ``ReqNewGame`` (for a
    game of one person, anyone in it);
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
    * Player keys and ratings (:mod:`.ratings`, wire in :mod:`.ratings_wire`): ``ReqJoin {…, key}``
      over TLS identifies a player across tables and sessions (``UpdatePlayer`` or ``ErrKey``);
      ``ReqRatings`` is answered with the leaderboard; a rated game's end tells its players
      ``UpdateRatingChange``; ``UpdateTables`` rows name who sits with their ratings.
    * Turn-based tables (a time per move, seats kept by key) and ``ReqMyGames``: :mod:`.turn_based`.
    * The full list, with the reason for each: ``docs/compatibility.md``.
"""
from __future__ import annotations

import logging
import ssl
import time
from pathlib import Path
from typing import Any, Callable

from game.rules.actions import Action
from game.rules.components import GameConfig

from . import protocol as P
from .bot_scheduler import BotScheduler
from .client_messages import (ReqChat, ReqGoodbye, ReqHeartbeat, ReqJoin, ReqNewGame, ReqQuit, ReqReplay,
                              ReqTables, ReqUndo, ReqWelcome, ResHeartbeat, ResWelcome, validate_nickname)
from .announcing import Announcing, HostView
from .clocks import WATCH_TICK
from .connection import UNDO_LINES, Session
from .discovery import Announcer, should_announce
from .framing import encode
from .games import Games
from .heap import pid_rss_mb
from .lobby import CANNOT_START, Lobby
from .names import NickBook
from .player_store import PlayerStore
from .ratings import Ratings, finished_game
from .ratings_wire import ReqRatings
from .room import CANNOT_SAVE, SAVING_AGAIN, SERVER_VOICE, Room
from .server_messages import (err_nickname, err_protocol, res_goodbye, res_heartbeat, res_quit, res_welcome,
                              update_chat, update_server_stopping)
from .seat_clock import SeatClocks
from .server_options import ServerOptions
from .store import GameStore
from .tables import TableBook
from .transport import Transport
from .turn_based import TurnBased
from . import turn_wire as TW
from . import watch_wire as W
from .watchers import Watchers

__all__ = ["CANNOT_SAVE", "CANNOT_START", "SAVING_AGAIN", "SERVER_VOICE", "HostView", "Server", "ServerOptions",
           "serve"]

log = logging.getLogger("mor.server")

CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""A player may send CHAT_BURST chat lines in any CHAT_WINDOW seconds."""

SWEEP_INTERVAL = 1.0
"""Seconds between two runs of the janitor (:meth:`Server.sweep`)."""

Handler = Callable[["Server", Session, Any], None]


class Server(Transport, Announcing):
    """A running server. ``start()`` binds and serves on a background thread; ``stop()`` ends it.

    Public tables (read them under ``lock``): ``sessions`` (live connections), ``waiting`` (the
    waiting list, head first), ``rooms`` (game id -> :class:`Room`), ``seats`` (nickname -> the
    unfinished room holding that seat) and ``by_nick`` (the live connections, by
    :func:`.names.handle`: a keyless player's nickname, a keyed player's nickname and number).
    """

    def __init__(self, config: GameConfig, options: ServerOptions | None = None) -> None:
        super().__init__(options or ServerOptions())
        self.config = config
        self.store = GameStore(self.options.data_dir, self.options.fsync)
        self.rooms: dict[int, Room] = {}
        self.by_nick: NickBook = NickBook()   # the nicknames in use, told apart as people read them
        self._status_at = time.monotonic()
        self._status_lines = 0
        self.announcer: Announcer | None = None
        self.bots = BotScheduler(config, self.options, self.rooms, self._call_soon, self._call_at,
                                 self._tell_ours, self._stopping.is_set)
        self.ratings = Ratings(PlayerStore(None), self.options, self.rooms)   # its file: at start
        self.games = Games(config, self.options, self.store, self.lock, self.rooms, self.by_nick, self.bots,
                           self._call_at, self.ratings)
        self.seats = self.games.seats
        self.lobby = Lobby(config, self.options, self.lock, self.by_nick, self.games, self.bots,
                           self.ratings.seated_row, self._call_at)
        self.watchers = Watchers(self.options, self.lobby.tables, self._call_at, self.events)
        self.lobby.watchers = self.games.watchers = self.watchers
        self.lobby.events = self.games.events = self.events   # one summed-up log of repeated events
        self.lobby.player_of = self.ratings.of.get   # one seat a key at a table (and in the Quick game)
        self.parsers.update(W.PARSERS)
        self.turns = self.games.turns = self.lobby.turns = TurnBased(
            self.options, self.rooms, self._call_at, self.ratings, self.bots, self.games.origin)
        self.parsers.update(TW.PARSERS)
        self.watchers.wake = self.turns.wake_table   # a game watched before it is replayed after a start
        self.games.clocks = SeatClocks(self.options, self.rooms, self._call_at, self.ratings, self.bots)
        self._game_request = self.games.request   # type: ignore[method-assign]   # the hot path, direct

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
        self.store.lock()
        try:
            self._listen()
        except (OSError, ssl.SSLError):
            self.store.unlock()
            raise
        self.ratings.open(self.store.data_dir)      # the directory is ours now
        self.games.restore()
        data_dir = self.store.data_dir
        self.games.shelf.open(None if data_dir is None else Path(data_dir) / "games" / "finished")
        self.ratings.recover(finished_game(self.store.data_dir, self.config))
        self._open_loop()
        self._call_at(time.monotonic() + SWEEP_INTERVAL, self._janitor)
        self._call_at(time.monotonic() + self.clocks.interval(), self._watch_sessions)
        self._begin()
        log.info("listening on %s:%d", *self.address)
        if self.tls_address is not None:
            log.info("listening with TLS on %s:%d, certificate %s", *self.tls_address, self.tls_fingerprint)
        announce = self.options.announce
        if announce or (announce is None and should_announce(self.options.host)):
            self.announcer = Announcer(self.table_info(), self.address[1], self.options.host)
            self._call_soon(self._announce_tick)
        return self.address

    def stop(self) -> None:
        """Stop accepting, close every game log (unfinished games stay saved) and connection.
        Our clients are told first that the server stops on purpose (``UpdateServerStopping``).

        Called from any thread but the loop's: it wakes the loop and waits for it to end. Rooms
        are closed before connections, so the players' departures are not recorded and a restart
        finds every game as it was. Idempotent.
        """
        if self._stopping.is_set():
            return
        if self.announcer is not None:
            self.announcer.close(timeout=0)   # its thread says goodbye: the game leaves Join lists
        self._end_loop()
        with self.lock:
            self._close_listeners()
            stopping = encode(update_server_stopping())   # our clients: on purpose, not a crash
            for s in list(self.sessions):
                if s.extensions and s.nickname is not None:
                    self._last_word(s, stopping)
            for room in list(self.rooms.values()):    # first: no departure below reaches a log
                room.close("shutdown")
            self.bots.close()
            self._close_all()
        self.ratings.store.close()
        self.store.unlock()
        log.info("stopped")

    # ------------------------------------------------------------------ the loop
    def _janitor(self) -> None:
        try:
            self.tls_gate.forget(time.monotonic())
            self.memory.tick(time.monotonic(), self._numbers, self.lines_handled)
            self.ratings.forget_addresses()
            self._retry_saving()
            self.sweep()
            self.watchers.tick()
            self.events.flush()
            interval = self.options.status_interval
            if interval > 0 and time.monotonic() - self._status_at >= interval:
                self._log_status()
        finally:
            if not self._stopping.is_set():
                self._call_at(time.monotonic() + SWEEP_INTERVAL, self._janitor)

    def _retry_saving(self) -> None:
        """While the disk is full: start the game waiting to start, say the arrivals and
        departures not saved yet, and let the bots ask again."""
        self.lobby.retry_start()
        self.games.retry_saving()
        self.ratings.retry()

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
    def _watch_sessions(self) -> None:
        """The connections' clocks: ``ReqHeartbeat`` after ``heartbeat`` seconds without input,
        closed after twice that; closed when it has not joined within ``join_time``, or stayed
        outside a game in progress for ``lobby_time``; and the head of the waiting list that does
        not choose within ``head_time`` goes to the back.

        Each connection is looked at only when one of its deadlines may have come (a heap of
        them, one entry per connection: :meth:`.clocks.ConnectionClocks.check` says when next), so the work
        follows the deadlines, not the number of connections, and never more than WATCH_BATCH
        connections in one wake-up: 10,000 players cost no pause every second. One timer
        for them all, run at the first deadline (at most every WATCH_TICK), or every
        ``_watch_interval()`` for the head of the waiting list."""
        now = time.monotonic()
        more = False
        try:
            more = self.clocks.check_due(now)
            self.lobby.watch_head(now)
        finally:
            if not self._stopping.is_set():
                when = now + self.clocks.interval()
                clocks = self.clocks.heap
                if more:
                    when = now + 0.001   # the next wake-up (not this one: it has done its share)
                elif clocks and clocks[0][0] < when:
                    when = max(clocks[0][0], now + WATCH_TICK)
                self._call_at(when, self._watch_sessions)

    # ------------------------------------------------------------------ rooms
    # ------------------------------------------------------------------ bots
    def bot_load(self, now: float | None = None) -> tuple[float, float, float]:
        """How busy the bots' workers are (:meth:`.bot_scheduler.BotScheduler.load`)."""
        return self.bots.load(now)

    def room_of(self, nickname: str) -> Room | None:
        """The unfinished or still-watched room where ``nickname`` sits, if any."""
        return self.games.room_of(nickname)

    def sweep(self, now: float | None = None) -> list[int]:
        """Remove the games nobody needs any more (:meth:`.games.Games.sweep`), their stages with
        them (a stage holds its room: kept to the next tick, the room outlived its removal);
        returns their ids."""
        removed = self.games.sweep(now)
        self.watchers.removed(removed)
        return removed

    def _undo(self, s: Session, msg: ReqUndo) -> None:
        self.games.undo(s, msg)
        if self.options.line_rate:   # an undo tells the whole table the whole game: it weighs more
            s.allowance -= UNDO_LINES - 1

    def _replay(self, s: Session, msg: ReqReplay) -> None:
        self.games.replay(s, msg)

    def _tell_ours(self, room: Room, data: bytes) -> None:
        """Hand encoded lines to the people at ``room`` who joined with our client."""
        for person in room.nicknames:
            s = room.conns.get(person)
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

    def _welcome(self, s: Session, msg: ReqWelcome) -> None:
        # where TLS is spoken, to a client that asks (ours): a reference client never asks
        tls = self.tls_address is not None and msg.tls and not s.tls
        s.send(res_welcome(self.tls_address[1] if tls and self.tls_address is not None else None,
                           self.tls_outside if tls else None))

    def _heartbeat(self, s: Session, msg: ReqHeartbeat) -> None:
        s.send(res_heartbeat())

    def _ignore(self, s: Session, msg: Any) -> None:
        pass

    def _quit_request(self, s: Session, msg: ReqQuit) -> None:
        self._quit(s)
        s.send(res_quit())

    def _goodbye(self, s: Session, msg: ReqGoodbye) -> None:
        self._quit(s)
        s.send(res_goodbye())
        s.said_goodbye()

    # ------------------------------------------------------------------ lobby and games
    def _join(self, s: Session, msg: ReqJoin) -> None:
        """``ReqJoin``; with a ``key`` (our extension, over TLS), the player is known by it before
        they sit (a game they fill starts rated) and told their rating once they have joined."""
        self.watchers.leave(s)   # a watcher who sits down watches no more
        if msg.key is not None and s.nickname is None and s not in self.ratings.of:
            self.ratings.identify(s, msg.key, validate_nickname(msg.nickname) or "")
        was = s.nickname
        self.lobby.join(s, msg)
        if was is None and s.nickname is not None:
            self.ratings.joined(s)
            self.watchers.joined(s)

    def _leaderboard(self, s: Session, msg: ReqRatings) -> None:
        self.ratings.leaderboard(s, msg.key)

    def _my_games(self, s: Session, msg: TW.ReqMyGames) -> None:
        self.turns.my_games(s, msg.key, self.ratings.store.find)

    def _watch_table(self, s: Session, msg: W.ReqWatch) -> None:
        self.watchers.watch(s, msg)

    def _watch_list(self, s: Session, msg: W.ReqWatchList) -> None:
        self.watchers.watch_list(s, msg)

    def _hide_watchers(self, s: Session, msg: W.ReqHideWatchers) -> None:
        self.watchers.hide(s, msg)

    def _new_game(self, s: Session, msg: ReqNewGame) -> None:
        self.lobby.new_game(s, msg)

    def _list_tables(self, s: Session, msg: ReqTables) -> None:
        self.lobby.list_tables(s, msg)

    def _chat(self, s: Session, msg: ReqChat) -> None:
        """``ReqChat`` (our extension): the line goes to every player of the sender's game (or of the
        waiting room) who joined with our client, the sender included (that is its answer). At most CHAT_BURST lines in
        CHAT_WINDOW seconds; past that the sender is asked to wait."""
        room = s.room
        waiting = room is None and self.lobby.in_waiting_room(s)
        watching = s.watching is not None
        if not watching and (s.nickname is None or (room is None and not waiting) or s.left):
            s.send(err_nickname(P.NOT_IN_GAME if s.nickname is not None else P.NOT_SET))
            return
        now = time.monotonic()
        times = s.chat_times
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            s.send(err_protocol(P.CHAT_TOO_FAST))
            return
        times.append(now)
        if watching:
            self.watchers.chat(s, msg.text)
            return
        data = encode(update_chat(s.nickname, msg.text))
        if waiting:
            self.lobby.chat(s, data)
        else:
            assert room is not None
            self.games.chat(s, room, msg.text, data)
        self.watchers.players_said(s, data)

    def _quit(self, s: Session, dropped: bool = False) -> None:
        """The player leaves the waiting list or their game (where they become inactive: at once
        after ``ReqQuit``/``ReqGoodbye``; when ``dropped``, the connection ended without a word,
        once ``away_grace`` seconds have passed since its last input, whether it closed or went
        silent: the same grace either way, the others told who is away and for how long).

        Idempotent; a connection that never joined has nothing to leave.
        """
        with self.lock:
            self.watchers.leave(s)
            if s.left or s.nickname is None:
                return
            s.left = True
            if s.handle is not None and self.by_nick.get(s.handle) is s:
                del self.by_nick[s.handle]
            if s.room is not None and s.room.conns.get(s.nickname) is s:
                del s.room.conns[s.nickname]
            if not self.lobby.leave(s) and s.room is not None:
                grace = self.options.away_grace
                self.games.leave(s, s.last_input + grace if dropped and grace > 0 else None)

    def disconnected(self, s: Session) -> None:
        """Called once per connection as it closes: the player quits, the connection is forgotten."""
        self._quit(s, dropped=True)
        with self.lock:
            self.sessions.discard(s)
            self.ratings.gone(s)
        log.debug("connection %d closed", s.number)


_HANDLERS: dict[type, Handler] = {
    ReqWelcome: Server._welcome,
    ReqHeartbeat: Server._heartbeat,
    ResWelcome: Server._ignore,
    ResHeartbeat: Server._ignore,
    ReqJoin: Server._join,
    ReqNewGame: Server._new_game,
    ReqQuit: Server._quit_request,
    ReqGoodbye: Server._goodbye,
    ReqChat: Server._chat,
    ReqUndo: Server._undo,
    ReqReplay: Server._replay,
    ReqTables: Server._list_tables,
    ReqRatings: Server._leaderboard,
    W.ReqWatch: Server._watch_table,
    W.ReqWatchList: Server._watch_list,
    W.ReqHideWatchers: Server._hide_watchers,
    TW.ReqMyGames: Server._my_games,
}


def serve(config: GameConfig, options: ServerOptions) -> Server:
    """Start a server on a background thread and return it."""
    server = Server(config, options)
    server.start()
    return server
