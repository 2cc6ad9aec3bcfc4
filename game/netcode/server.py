"""The multiplayer server: the reference protocol over TCP, many games at once, nothing lost.

Threads
    One accept thread; per connection a reader thread (parses lines, answers network messages,
    routes requests) and a writer thread fed by the connection's own queue, so a slow or stuck
    client never blocks a game or another client. A game applies its requests one at a time under
    its :class:`~game.netcode.room.Room` lock; a janitor thread removes finished and abandoned games.
    The reader thread alone unregisters its connection when it ends (``Session._read_loop``), so
    the quit routine runs exactly once per connection, whoever closed it.

Locks
    ``Server.lock`` guards the lobby, the connection tables and seating; a room's lock guards its
    game. The order is always server lock, then room lock; a room only calls back through
    ``Session.send``, which never blocks and takes no lock but the session's own queue lock.

Connection flow (as the reference server does it, see ``shared/protocol/reference-notes.md``)
    server ``ReqWelcome`` on accept; ``ReqJoin`` (nickname unique among connected and seated
    players); one waiting list (``UpdateBookedSeats``); only its head may send ``ReqNewGame``;
    ``UpdateJoinGame``; each player's own ``UpdateGame``; game requests answered with updates
    ending in ``UpdateAction`` or with one error; ``ReqQuit``/``ResQuit``; ``ReqGoodbye``/``ResGoodbye``
    then close. Heartbeat: after ``heartbeat`` seconds (12.5) without an incoming line the server
    sends ``ReqHeartbeat``, and it drops a connection silent for twice that. A dropped or quitting
    player becomes inactive; coming back with the same nickname returns them to their seat.

Persistence (see :mod:`~game.netcode.store`)
    Each game's seed, players and accepted calls are appended to its log in ``data_dir`` before
    anyone hears of them; at start the server restores every unfinished game with all its players
    away, and they rejoin as after a drop. One server at a time may use a data directory.

Extensions and deliberate differences (a reference client never notices them)
    * A client that sends ``ReqJoin`` with a ``token`` field (``""`` on a first join) receives
      ``UpdateSessionToken {token}``; to take its seat back after a drop it sends ``ReqJoin`` with
      that token. Without a token a seat is retaken by nickname alone only when the server runs
      with ``compat_rejoin`` (the reference's behaviour, which lets anyone who knows a nickname
      take over a seat). A wrong token, or ``""``, for a seated nickname gets ``ErrNickname TAKEN``.
    * ``ReqNewGame`` with a zero or negative count gets ``ErrNewGame {isInvalidPlayersCount:true}``
      (the reference let negative counts through).
    * A client whose unsent output passes :data:`MAX_QUEUED_BYTES` is not reading: it is dropped.
    * A request the server fails on (a bug, a failing disk) is answered with
      ``ErrProtocol {msg: "Internal server error."}`` instead of silence.
    * ``UpdatePlayerStatus`` is not followed by another ``UpdateSetupDone`` for the others (the
      reference re-sends it on every status change); a returning player still gets
      ``UpdateSetupDone`` before its ``UpdateGame``, as there.
"""
from __future__ import annotations

import logging
import os
import queue
import random
import secrets
import select
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game

from . import protocol as P
from .framing import LineReader, LineTooLong, ProtocolError, decode_line, encode
from .room import INTERNAL_ERROR, Room
from .store import GameLog, GameStore

log = logging.getLogger("mor.server")

UPDATE_SESSION_TOKEN = "UpdateSessionToken"
MAX_QUEUED_BYTES = 4 * 1024 * 1024
"""A client with more than this many bytes queued and not yet written to its socket is not
reading: it is dropped (read at each send, so tests may lower it)."""

WRITER_FLUSH_TIMEOUT = 2.0
"""Seconds a closing connection waits for its writer to send what is queued (e.g. ``ResGoodbye``)."""


@dataclass
class ServerOptions:
    """How a :class:`Server` runs (the CLI flags of ``server.py``)."""

    host: str = "0.0.0.0"
    port: int = 51015
    data_dir: Path | None = None     # None: games are not saved
    compat_rejoin: bool = False      # retake a seat by nickname alone, without a token
    heartbeat: float = 12.5          # seconds of silence before ReqHeartbeat; 2x drops the client
    grace: float = 600.0             # seconds an empty unfinished game is kept before it is removed
    fsync: bool = False              # fsync every log line (survives power loss, slower)
    seed: int | None = None          # draw game seeds from random.Random(seed), not the OS (tests)


class _PolledSocket:
    """``recv`` with a timeout, leaving the socket itself blocking for the writer thread.

    A socket timeout would apply to the writer's ``sendall`` too; polling keeps the two apart.
    """

    def __init__(self, sock: socket.socket, timeout: float) -> None:
        self._sock = sock
        self._poll = select.poll()
        self._poll.register(sock, select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP)
        self._ms = max(1, int(timeout * 1000))

    def recv(self, n: int) -> bytes:
        """:raises TimeoutError: nothing arrived within the timeout."""
        if not self._poll.poll(self._ms):
            raise TimeoutError("no input")
        return self._sock.recv(n)


class Session:
    """One client connection: its socket, reader and writer threads, and where it stands.

    ``nickname`` is set by a successful ``ReqJoin`` and never changes; ``room`` is the game the
    player sits in (None while in the waiting list); ``left`` is set once the player has quit
    (``ReqQuit``, ``ReqGoodbye`` or the connection ending).
    """

    def __init__(self, server: "Server", sock: socket.socket, addr: Any, number: int) -> None:
        self.server = server
        self.sock = sock
        self.addr = addr
        self.number = number
        self.nickname: str | None = None
        self.token: str | None = None
        self.room: Room | None = None
        self.left = False
        self.announced: int | None = None   # the game size already announced with UpdateJoinGame
        self.line_reader: LineReader | None = None
        self._out: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._queued = 0
        self._qlock = threading.Lock()
        self._closed = threading.Event()
        self._goodbye = False
        self.reader = threading.Thread(target=self._read_loop, name=f"read-{number}", daemon=True)
        self.writer = threading.Thread(target=self._write_loop, name=f"write-{number}", daemon=True)

    def __repr__(self) -> str:
        return f"<Session {self.number} {self.nickname or '-'} {self.addr}>"

    def start(self) -> None:
        self.writer.start()
        self.reader.start()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    # ------------------------------------------------------------------ output
    def send(self, *msgs: dict[str, Any]) -> None:
        """Queue messages for the writer thread. Never blocks and takes no server or room lock.

        A connection that already has more than :data:`MAX_QUEUED_BYTES` waiting is aborted (it is
        not reading) and its reader thread runs the quit routine; so the queue never holds more than
        the cap plus one batch, and one big message (an ``UpdateGame``) never trips it on its own.
        """
        if self._closed.is_set():
            return
        data = b"".join(encode(m) for m in msgs)
        with self._qlock:
            backlog = self._queued
            if backlog <= MAX_QUEUED_BYTES:
                self._queued += len(data)
        if backlog > MAX_QUEUED_BYTES:
            log.warning("%r is not reading (%d bytes queued): dropping it", self, backlog)
            self.abort()
            return
        self._out.put(data)

    def _write_loop(self) -> None:
        try:
            while True:
                data = self._out.get()
                if data is None:
                    break
                with self._qlock:
                    self._queued -= len(data)
                self.sock.sendall(data)
        except OSError as e:
            if not self._closed.is_set():
                log.info("%r cannot be written to: %s", self, e)
        finally:
            self.abort()

    # ------------------------------------------------------------------ input
    def _read_loop(self) -> None:
        try:
            self.send(P.req_welcome())
            self._serve()
        except OSError as e:
            if not self._closed.is_set():
                log.info("%r connection error: %s", self, e)
        except Exception:  # a bug must cost one connection at most, never the server
            log.exception("%r: unexpected error", self)
        finally:
            self._finish()

    def _serve(self) -> None:
        """Read and answer lines until EOF, an error, a goodbye or ``2 * heartbeat`` of silence."""
        heartbeat = self.server.options.heartbeat
        reader = self.line_reader = LineReader(_PolledSocket(self.sock, heartbeat))
        silent = 0
        while not self._closed.is_set() and not self._goodbye:
            try:
                line = reader.readline()
            except LineTooLong as e:
                self.send(e.to_dict())
                silent = 0
                continue
            except TimeoutError:
                silent += 1
                if silent >= 2:
                    log.info("%r silent for %.1f s: closing", self, 2 * heartbeat)
                    return
                self.send(P.req_heartbeat())
                continue
            if line is None:
                return
            silent = 0
            self._handle_line(line)

    def _handle_line(self, line: bytes) -> None:
        """Answer one line; whatever goes wrong, the client gets an answer and the reader goes on."""
        try:
            msg = P.parse_client_message(decode_line(line))
        except ProtocolError as e:
            log.debug("%r protocol error: %s", self, e)
            self.send(e.to_dict())
            return
        try:
            self.server.dispatch(self, msg)
        except Exception:
            log.exception("%r: failed to handle %r", self, msg)
            self.send(P.err_protocol(INTERNAL_ERROR))

    def said_goodbye(self) -> None:
        """Stop reading; the connection closes once what is queued (``ResGoodbye``) is sent."""
        self._goodbye = True
        self._out.put(None)

    # ------------------------------------------------------------------ closing
    def abort(self) -> None:
        """Close the connection from any thread (idempotent, never blocks).

        The socket is shut down, which wakes both threads; the reader then unregisters the player.
        """
        if self._closed.is_set():
            return
        self._closed.set()
        self._out.put(None)
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _finish(self) -> None:
        """Run by the reader thread as it ends: flush after a goodbye, shut down, unregister, close."""
        if self._goodbye:
            self.writer.join(WRITER_FLUSH_TIMEOUT)
        self.abort()
        try:
            self.server.disconnected(self)
        except Exception:
            log.exception("%r: failed to unregister", self)
        finally:
            self.writer.join(WRITER_FLUSH_TIMEOUT)
            try:
                self.sock.close()
            except OSError:
                pass


Handler = Callable[["Server", Session, Any], None]


class Server:
    """A running server. ``start()`` binds and serves on background threads; ``stop()`` ends it.

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
        self.waiting: list[Session] = []
        self.pending_count: int | None = None
        self.rooms: dict[int, Room] = {}
        self.seats: dict[str, Room] = {}
        self.by_nick: dict[str, Session] = {}
        self.listener: socket.socket | None = None
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._numbers = 0
        self._seeds = random.Random(self.options.seed) if self.options.seed is not None else None
        self.address: tuple[str, int] = (self.options.host, self.options.port)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> tuple[str, int]:
        """Restore saved games, bind, and start serving. Returns the bound (host, port).

        A saved game that cannot be restored is logged as an error and skipped. Nothing in the
        data directory is touched unless the directory is ours and the address is bound.

        :raises OSError: the address cannot be bound, or another server uses the data directory.
        """
        self.store.lock()
        try:
            self.listener = self._bind()
        except OSError:
            self.store.unlock()
            raise
        self.address = self.listener.getsockname()[:2]
        self._restore_games()
        for target, name in ((self._accept_loop, "accept"), (self._janitor_loop, "janitor")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)
        log.info("listening on %s:%d", *self.address)
        return self.address

    def _bind(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.options.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.options.host, self.options.port))
            sock.listen(512)
            sock.settimeout(0.5)
        except OSError:
            sock.close()
            raise
        return sock

    def _restore_games(self) -> None:
        """Bring back every unfinished saved game, its players away until they rejoin."""
        for r in self.store.restore_all(self.config):
            clash = [p.nickname for p in r.game.players if p.nickname in self.seats]
            if clash or r.game_id in self.rooms:
                log.error("game %d not restored: %s already seated in another game",
                          r.game_id, ", ".join(clash) or "its id is")
                r.log.close()
                continue
            room = self._new_room(r.game_id, r.game, r.log, r.tokens)
            room.mark_all_away()
            log.info("restored game %d (%s)", r.game_id, ", ".join(room.nicknames))

    def stop(self) -> None:
        """Stop accepting, close every game log (unfinished games stay saved) and connection.

        Rooms are closed before connections, so the players' departures are not recorded and a
        restart finds every game as it was. Idempotent.
        """
        if self._stopping.is_set():
            return
        self._stopping.set()
        if self.listener is not None:
            try:
                self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept thread at once (Linux)
            except OSError:
                pass
            self.listener.close()
        with self.lock:
            sessions = list(self.sessions)
            rooms = list(self.rooms.values())
        for room in rooms:
            room.close("shutdown")
        for s in sessions:
            s.abort()
        for s in sessions:
            if s.reader.is_alive():
                s.reader.join(timeout=5)
        for t in self._threads:
            t.join(timeout=5)
        self.store.unlock()
        log.info("stopped")

    def _accept_loop(self) -> None:
        assert self.listener is not None
        while not self._stopping.is_set():
            try:
                conn, addr = self.listener.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError as e:
                if self._stopping.is_set():
                    break
                log.warning("accept failed: %s", e)  # e.g. out of file descriptors: keep serving
                time.sleep(0.05)
                continue
            try:
                self._open_session(conn, addr)
            except Exception:
                log.exception("could not set up a connection from %s", addr)
                try:
                    conn.close()
                except OSError:
                    pass

    def _open_session(self, conn: socket.socket, addr: Any) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.setblocking(True)
        with self.lock:
            self._numbers += 1
            s = Session(self, conn, addr, self._numbers)
            self.sessions.add(s)
        log.debug("connection %d from %s", s.number, addr)
        try:
            s.start()
        except Exception:
            with self.lock:
                self.sessions.discard(s)
            raise

    def _janitor_loop(self) -> None:
        while not self._stopping.wait(1.0):
            try:
                self.sweep()
            except Exception:
                log.exception("sweep failed")

    def sweep(self, now: float | None = None) -> list[int]:
        """Remove finished games nobody is connected to, and unfinished ones empty for ``grace``
        seconds (their log is marked ended: they will not be restored). Returns the removed ids.

        ``now`` is a ``time.monotonic()`` value (tests pass a later one instead of waiting).
        """
        now = time.monotonic() if now is None else now
        with self.lock:
            expired = [r for r in self.rooms.values() if r.expired(now, self.options.grace)]
            for room in expired:
                self._remove_room(room)
                room.close("finished" if room.finished else "abandoned")
        for room in expired:
            log.info("game %d removed (%s)", room.id, "finished" if room.finished else "abandoned")
        return [r.id for r in expired]

    # ------------------------------------------------------------------ rooms
    def _new_room(self, gid: int, game: Game, glog: GameLog | None, tokens: dict[str, str]) -> Room:
        def send(nickname: str, msgs: list[dict[str, Any]]) -> None:
            target = self.by_nick.get(nickname)
            if target is not None and target.room is not None and target.room.id == gid:
                target.send(*msgs)

        room = Room(gid, game, send, glog, tokens)
        with self.lock:
            self.rooms[gid] = room
            for nick in room.nicknames:
                self.seats[nick] = room
        return room

    def _remove_room(self, room: Room) -> None:
        with self.lock:
            self.rooms.pop(room.id, None)
            for nick in room.nicknames:
                if self.seats.get(nick) is room:
                    del self.seats[nick]

    def room_of(self, nickname: str) -> Room | None:
        """The unfinished or still-watched room where ``nickname`` sits, if any."""
        with self.lock:
            s = self.by_nick.get(nickname)
            return s.room if s is not None and s.room is not None else self.seats.get(nickname)

    # ------------------------------------------------------------------ messages
    def dispatch(self, s: Session, msg: Any) -> None:
        """Answer one parsed message of a connection (exactly one reply, or none for
        ``ResWelcome``/``ResHeartbeat``, as the reference). Nothing is done once stopping."""
        if self._stopping.is_set():
            return
        if isinstance(msg, Action):
            self._game_request(s, msg)
            return
        handler = _HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, s, msg)

    def _welcome(self, s: Session, msg: P.ReqWelcome) -> None:
        s.send(P.res_welcome())

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

    def _game_request(self, s: Session, action: Action) -> None:
        if s.nickname is None:
            s.send(P.err_nickname(P.NOT_SET))
        elif s.room is None or s.left:
            s.send(P.err_nickname(P.NOT_IN_GAME))
        else:
            s.room.submit(s.nickname, action)

    # ------------------------------------------------------------------ lobby
    def _join(self, s: Session, msg: P.ReqJoin) -> None:
        """``ReqJoin``: a first join puts the player in the waiting list; a seated nickname with
        the right token (or none, under ``compat_rejoin``) goes back to its seat."""
        nick = P.validate_nickname(msg.nickname)
        with self.lock:
            if s.nickname is not None:
                s.send(P.err_nickname(P.ALREADY_SET))
            elif nick is None:
                s.send(P.err_nickname(P.NOT_SET))
            elif nick in self.by_nick:
                s.send(P.err_nickname(P.TAKEN))
            else:
                room = self.seats.get(nick)
                if room is not None and not room.finished and not room.closed:
                    self._rejoin(s, nick, room, msg.token)
                else:
                    self._enter_lobby(s, nick, msg.token)

    def _may_retake(self, room: Room, nick: str, token: str | None) -> bool:
        if token is None:
            return self.options.compat_rejoin
        expected = room.tokens.get(nick) or ""
        return bool(token) and bool(expected) and secrets.compare_digest(token.encode(), expected.encode())

    def _rejoin(self, s: Session, nick: str, room: Room, token: str | None) -> None:
        if nick in room.online or not self._may_retake(room, nick, token):
            log.info("%r refused seat %r in game %d", s, nick, room.id)
            s.send(P.err_nickname(P.TAKEN))
            return
        s.nickname, s.room, s.token = nick, room, room.tokens.get(nick)
        self.by_nick[nick] = s
        intro = [self._token_message(s.token)] if token is not None and s.token else []
        if not room.rejoin(nick, intro):  # the room closed itself (its log failed)
            del self.by_nick[nick]
            s.nickname = s.room = s.token = None
            s.send(P.err_nickname(P.TAKEN))
            return
        log.info("%s rejoined game %d", nick, room.id)

    def _enter_lobby(self, s: Session, nick: str, token: str | None) -> None:
        s.nickname = nick
        s.token = secrets.token_urlsafe(16)
        self.by_nick[nick] = s
        self.waiting.append(s)
        if token is not None:
            s.send(self._token_message(s.token))
        log.info("%s joined the waiting list", nick)
        self._lobby_changed(booked=True)

    @staticmethod
    def _token_message(token: str) -> dict[str, Any]:
        return {"token": token, "type": UPDATE_SESSION_TOKEN}

    def _new_game(self, s: Session, msg: P.ReqNewGame) -> None:
        """``ReqNewGame``: only the head of the waiting list may set the size of the next game."""
        count = msg.players_count
        with self.lock:
            if s.nickname is None:
                s.send(P.err_nickname(P.NOT_SET))
            elif not self.waiting or self.waiting[0] is not s:
                s.send(P.err_new_game(False))
            elif not self.config.min_players <= count <= self.config.max_players:
                s.send(P.err_new_game(True))
            else:
                self.pending_count = count
                s.announced = None          # the head always gets its answer, UpdateJoinGame
                self._lobby_changed(booked=False)

    def _lobby_changed(self, booked: bool) -> None:
        """Tell the waiting list where it stands; start a game when enough players wait.

        ``booked``: the list itself changed, so every waiting connection gets ``UpdateBookedSeats``.
        When a game starts, its players leave the list and the others get a new
        ``UpdateBookedSeats``; while a game is pending, its first players get ``UpdateJoinGame``
        once. Called under the server lock.
        """
        if booked:
            self._send_booked_seats()
        count = self.pending_count
        if count is None:
            return
        if len(self.waiting) >= count:
            self._start_game(self.waiting[:count])   # raises, changing nothing, if it cannot be saved
            del self.waiting[:count]
            self.pending_count = None
            self._send_booked_seats()
            return
        for w in self.waiting[:count]:
            if w.announced != count:
                w.announced = count
                w.send(P.update_join_game(count))

    def _send_booked_seats(self) -> None:
        if self.waiting:
            seats = P.update_booked_seats(len(self.waiting), self.waiting[0].nickname or "")
            for w in self.waiting:
                w.send(seats)

    def _start_game(self, players: list[Session]) -> None:
        """Create the game, save its header, seat the players and send each their ``UpdateGame``.

        :raises OSError: the game's log cannot be created (nobody is seated then).
        """
        nicks = [p.nickname or "" for p in players]
        seed = self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)
        game = Game.new(self.config, nicks, seed)
        tokens = {p.nickname or "": p.token or "" for p in players}
        gid = self.store.next_id()
        glog = self.store.create(gid, self.config, game, tokens)
        room = self._new_room(gid, game, glog, tokens)
        for p in players:
            p.room = room
            if p.announced != len(players):
                p.send(P.update_join_game(len(players)))
        room.start(nicks)
        log.info("game %d started: %s", gid, ", ".join(nicks))

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
            if s in self.waiting:
                head = self.waiting[0] is s
                self.waiting.remove(s)
                if head or not self.waiting:
                    self.pending_count = None  # the new head chooses the next game's size
                self._lobby_changed(booked=True)
            elif s.room is not None:
                s.room.leave(s.nickname)

    def disconnected(self, s: Session) -> None:
        """Called once by a session's reader thread as the connection ends."""
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
}


def serve(config: GameConfig, options: ServerOptions) -> Server:
    """Start a server on background threads and return it."""
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
