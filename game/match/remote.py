"""A seat in a game on a server: :class:`RemoteMatch`.

It talks to the server through :class:`~game.netcode.client.Connection`. When the connection drops
it reports ``{"type": "ConnectionLost"}``, reconnects by itself in the background, rejoins its seat
with its token, and reports ``{"type": "Reconnected"}``; the server's fresh ``UpdateGame`` that
follows resyncs the view model. Its seat token and its unfinished game are kept by :mod:`.seats`.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from game.netcode.client import (CONNECTION_LOST, Connection, KnownServers, ServerIdentityChanged,
                                 client_tls_context, offered_tls_port)
from game.netcode.client_messages import (ReqChat, ReqGoodbye, ReqJoin, ReqNewGame, ReqQuit, ReqReplay, ReqUndo,
                                          TableChoice)
from game.netcode.player_key import KEY_FILE, player_key
from game.netcode.watch_wire import ReqHideWatchers
from game.rules.actions import Action
from game.settings import data_dir

from .interface import Match, Msg
from .seats import SEATS_FILE, UNFINISHED_FILE, forget_unfinished, remember_unfinished, save_token, saved_tokens

RECONNECTED = "Reconnected"
HISTORY_WAIT = 2.0
"""Seconds a return to our server waits for the game's history before the board is shown anyway."""
log = logging.getLogger("mor.match")


TLS_SCHEME = "tls://"
"""A host given as ``tls://host`` is reached with TLS on the port given, without asking first."""

KNOWN_SERVERS_FILE = "known_servers"
"""The fingerprints of the TLS servers met (beside the seat tokens; see :class:`KnownServers`)."""


def tls_port_at(known: KnownServers, host: str, port: int, timeout: float = 5.0) -> int | None:
    """Where the server at ``host:port`` (its plain port) speaks TLS, None where it does not.

    :raises ServerIdentityChanged: it spoke TLS when we met it (``known`` remembers it), and no
        longer does.
    :raises OSError: it cannot be reached.
    """
    tls = offered_tls_port(host, port, timeout)
    key = f"{host}:{port}"
    if tls is None and known.get(key) is not None:
        raise ServerIdentityChanged(
            f"The server at {key} spoke TLS when met, and no longer does: someone may be "
            f"listening in, so nothing was sent. If its owner turned TLS off, remove the line of "
            f"{key} from {known.path} and join again.",
            f"{key} stopped speaking securely: not connecting (someone may listen in).",
            server=key, known_file=known.path, was=known.get(key))
    return tls


class RemoteMatch(Match):
    """A seat in a game on a server (or a place in its waiting room).

    TLS: a server that speaks it is reached with it, before anything of ours is sent (the seat's
    token above all). The host ``tls://host`` says so (``port`` is then the TLS port); so does
    ``tls_port``, where the server is known to speak TLS (its LAN announcement said so, or a list
    of its tables came from there): the game goes there without a word on the plain port, which is
    asked only should that port not answer (an announcement from before the server restarted).
    Otherwise the plain port is asked first where the server speaks TLS (``ReqWelcome {tls:
    true}``, see :func:`~game.netcode.client.offered_tls_port`), and the game goes there if it does
    (where that port cannot be reached, as behind a router that forwards only the plain port, a
    server never met is joined on the plain port, not encrypted; one met over TLS is not). A
    server's certificate is remembered the first time (:attr:`first_meeting`), as SSH does; one
    that changed since, or a server that spoke TLS before and no longer does, is refused with
    :class:`~game.netcode.client.ServerIdentityChanged`, which says so plainly.

    Lobby messages (``UpdateBookedSeats``, ``UpdateJoinGame``, ``ErrNickname``, ``ErrNewGame``, ``ErrTable``) come
    through :meth:`poll` like everything else. :attr:`on_message`, if set, is called from a
    background thread whenever there is something new to poll (see :class:`Connection`).

    :raises OSError: the server cannot be reached (:class:`ServerIdentityChanged`: it is not the
        one met there before).
    """

    supports_chat = True
    supports_resync = True

    def __init__(self, host: str, port: int, nickname: str, *, connect_timeout: float = 5.0,
                 retry_delays: tuple[float, ...] = (0.5, 1, 2, 3, 5, 5, 10, 10, 15, 30),
                 heartbeat_interval: float = 10.0, token_file: Path | None = None, remember: bool = True,
                 table: "TableChoice | None" = None, tls_port: int | None = None,
                 seat_key: str | None = None, game: int | None = None) -> None:
        direct_tls = host.startswith(TLS_SCHEME)
        if direct_tls:
            host = host[len(TLS_SCHEME):]
        self.host, self.port, self.nickname = host, port, nickname
        # what the network's list of tables said of this one, when it was joined from there (so
        # that a lost connection can say whom it waits for); "" when the address was typed
        self.table_name = self.host_name = ""
        self.token_file = token_file if token_file is not None else data_dir() / SEATS_FILE
        # a game this seat plays is remembered until it ends, for the title's "Return to your game at
        # host:port" (not the host's own seat: the title offers the game it hosts in its own words)
        self.remember = remember
        self._remembered: bool | None = None
        # the seat's token is kept under ``seat_key`` (default "host:port/nickname"); the host's
        # own seat under one of the game this computer hosts, whatever port it is hosted on
        self._own_seat_key = seat_key
        tokens = saved_tokens(self.token_file)
        self.token: str | None = tokens.get(self._seat_key) or tokens.get(self._port_seat_key)
        self.retry_delays = retry_delays
        self.heartbeat_interval = heartbeat_interval
        self._connect_timeout = connect_timeout
        self._lock = threading.Lock()
        self._extra: deque[Msg] = deque()
        self._closing = False
        self._reconnecting = False
        self._retry_now = False            # the next reconnection starts without waiting
        self.in_game = False
        self.game_over = False             # the game has ended: its seat is not worth keeping
        self._on_message: Any = None
        self._held: list[Msg] = []          # a return's messages, waiting for its history
        self._held_since: float | None = None
        self.known_servers = KnownServers(self.token_file.with_name(KNOWN_SERVERS_FILE))
        self.first_meeting = False         # the server's certificate was met for the first time
        try:
            self.conn = self._first_connection(port if direct_tls else tls_port, ask=not direct_tls)
        except ServerIdentityChanged as e:   # the screen says it in a sentence; what to do is here
            log.warning("%s", e)
            raise
        # a saved token takes back our seat in a game still running there (e.g. after a crash)
        # (``table``: where to sit on our server, a table by name or code or a new one; without
        # it, the waiting list; a seat still running there is taken back whatever it says)
        # (``game``: the seat of the player's key in that game, e.g. from My games: game/client/my_games.py)
        self.conn.send(ReqJoin(nickname, self.token or "", table, self.player_key, game))

    @property
    def player_key(self) -> str | None:
        """The player's key (made and kept beside the seat tokens the first time), sent over TLS
        only: None on a plain connection (see :mod:`game.netcode.player_key`)."""
        if not self.secure:
            return None
        return player_key(self.token_file.with_name(KEY_FILE))

    @property
    def _seat_key(self) -> str:
        return self._own_seat_key or self._port_seat_key

    @property
    def _port_seat_key(self) -> str:
        return f"{self.host}:{self.port}/{self.nickname}"

    def _save_token(self) -> None:
        save_token(self.token_file, self._seat_key, self.token)

    @property
    def games_file(self) -> Path:
        """Where the unfinished games this install is seated in are remembered (beside the tokens)."""
        return self.token_file.with_name(UNFINISHED_FILE)

    def _remember_game(self, m: Msg) -> None:
        """Remember this seat's game while it runs (with a token that takes the seat back); forget
        it once it is over."""
        if not self.remember:
            return
        if self.game_over:
            if self._remembered is not False:
                forget_unfinished(self.games_file, self._seat_key)
                self._remembered = False
            return
        if self._remembered or not self.token:
            return
        players = [str(p.get("nickname")) for p in m.get("players") or () if isinstance(p, dict)]
        names = {"host_name": self.host_name, "table_name": self.table_name}   # as the network's list said
        remember_unfinished(self.games_file, self._seat_key, {
            "host": self.host, "port": self.port, "nickname": self.nickname, "players": players,
            "at": time.time(), **{k: v for k, v in names.items() if v}})
        self._remembered = True

    @property
    def _server_key(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def secure(self) -> bool:
        """Whether the game is played over TLS."""
        return self.tls_port is not None

    @property
    def server_fingerprint(self) -> str | None:
        """The server certificate's fingerprint (over TLS)."""
        return self.conn.fingerprint

    def _offered_tls(self) -> int | None:
        """Where the server speaks TLS (None: it does not), asked on its plain port (see :func:`tls_port_at`)."""
        return tls_port_at(self.known_servers, self.host, self.port, self._connect_timeout)

    def _first_connection(self, tls_port: int | None, ask: bool) -> Connection:
        """The connection to sit with: at ``tls_port`` when it is known (typed, or announced), else
        where the plain port says TLS is spoken (``ask``: there is a plain port), else the plain port."""
        if tls_port is not None:
            self.tls_port: int | None = tls_port
            try:
                return self._connect()
            except ServerIdentityChanged:
                raise
            except OSError as e:    # e.g. an announcement older than the server's last start
                if not ask:         # typed as tls://: there is no plain port to ask
                    raise
                log.info("no TLS at %s:%s as announced (%s): asking its plain port", self.host, tls_port, e)
        self.tls_port = self._offered_tls()
        try:
            return self._connect()
        except ServerIdentityChanged:
            raise
        except OSError as e:
            # the TLS port offered cannot be reached, the plain one answered a moment ago: a host
            # whose router forwards only the plain port (forwarded by hand). A server met before
            # over TLS is not joined in the clear (its fingerprint is remembered: someone may be
            # in the way); one never met is joined on the plain port, said not encrypted
            if self.tls_port is None:
                raise
            if self.known_servers.get(self._server_key) is not None:
                e.unreached_tls_port = self.tls_port      # type: ignore[attr-defined]  (said so: client/address.py)
                raise
            log.warning("the TLS port %s:%s the server offered does not answer (%s): joining on its plain "
                        "port, not encrypted", self.host, self.tls_port, e)
            self.tls_port = None
            return self._connect()

    def _check_certificate(self, print_: str) -> None:
        if not self.known_servers.check(self._server_key, print_):
            self.first_meeting = True

    def _connect(self) -> Connection:
        if self.tls_port is None:
            conn = Connection(self.host, self.port, timeout=self._connect_timeout,
                              heartbeat_interval=self.heartbeat_interval)
        else:
            conn = Connection(self.host, self.tls_port, timeout=self._connect_timeout,
                              heartbeat_interval=self.heartbeat_interval, tls=client_tls_context(),
                              verify=self._check_certificate)
        conn.on_message = self._on_message
        return conn

    @property
    def on_message(self) -> Any:
        """Called (from a background thread) when there is something new to :meth:`poll`."""
        return self._on_message

    @on_message.setter
    def on_message(self, hook: Any) -> None:
        self._on_message = hook
        self.conn.on_message = hook
        if hook is not None:
            hook()   # messages may have arrived before the hook was set

    def _wake(self) -> None:
        hook = self._on_message
        if hook is not None:
            hook()

    # ------------------------------------------------------------------ requests
    def new_game(self, players: int, bots: "list[str] | None" = None, bot_pace: float | None = None) -> None:
        """Ask for a game of ``players`` (only the head of the waiting list may), ``bots`` (levels)
        in as many of its seats (our extension; the game starts when people and bots fill it),
        their moves ``bot_pace`` seconds apart at least (our extension; None: the server's pace)."""
        self._send(ReqNewGame(players, tuple(bots) if bots else None, bot_pace).to_dict())

    def send(self, request: Action) -> None:
        self._send(request.to_dict())

    @property
    def supports_undo(self) -> bool:
        """Whether the server is ours (it gave a seat token), so that it knows ``ReqUndo``."""
        return bool(self.token)

    def undo(self) -> None:
        """Ask the server to take back our last request of this turn (our extension)."""
        self._send(ReqUndo().to_dict())

    def fetch_replay(self) -> bool:
        """Ask our server for the replay of this game, once it is over (``UpdateReplay``); a server
        that is not ours (it gives no seat token) is not asked."""
        if not self.supports_undo:
            return False
        self._send(ReqReplay().to_dict())
        return True

    def chat(self, text: str) -> None:
        """Say a line to the other players of this game (answered by an ``UpdateChat`` to all)."""
        self._send(ReqChat(text).to_dict())

    def hide_watchers(self, hide: bool) -> None:
        """Hide the watchers' chat of this table, or show it again (our extension; answered by
        ``UpdateWatchers``)."""
        self._send(ReqHideWatchers(hide).to_dict())

    def _send(self, msg: Msg) -> None:
        try:
            self.conn.send(msg)
        except ConnectionError:
            pass  # ConnectionLost is already queued; the reconnect loop takes over

    def poll(self) -> list[Msg]:
        out: list[Msg] = []
        with self._lock:
            out.extend(self._extra)
            self._extra.clear()
            conn = self.conn
        for m in conn.poll():
            t = m.get("type")
            if t == "UpdateSessionToken":
                if m.get("token") != self.token:
                    self.token = m.get("token")
                    self._save_token()
                continue
            if t == "UpdateGame":
                self.in_game = True
                self.game_over = self.game_over or bool(m.get("ended"))
                self._remember_game(m)
            elif t == "UpdateGameEnd":
                self.game_over = True
                self._remember_game(m)
            if t == CONNECTION_LOST:
                if self._closing:
                    continue
                self._start_reconnect()
            out.append(m)
        return self._hold_for_history(out)

    def _hold_for_history(self, msgs: list[Msg]) -> list[Msg]:
        """On our server (it gave a seat token), taking a seat back is followed by the game's
        history (``UpdateHistory``): from the return on, the messages wait for its last line (at
        most :data:`HISTORY_WAIT` seconds), so that the first board a returning player sees has
        its log, whatever the network split the lines into."""
        if self._held:
            msgs = self._held + msgs
            self._held = []
        if not self.token:
            return msgs
        start = None
        for i, m in enumerate(msgs):
            t = m.get("type")
            if t == RECONNECTED or (t == "UpdatePlayerStatus" and m.get("player") == self.nickname
                                    and m.get("isActive")):
                start = i
        if start is None or any(m.get("type") == "UpdateHistory" and m.get("last", True) for m in msgs[start:]):
            self._held_since = None
            return msgs
        now = time.monotonic()
        if self._held_since is None:
            self._held_since = now
            self._wake_later()
        if now - self._held_since > HISTORY_WAIT:   # a server that tells no history: go on
            self._held_since = None
            return msgs
        self._held = msgs[start:]
        return msgs[:start]

    def _wake_later(self) -> None:
        """Wake the frame loop once the wait for the history is over (it may sleep meanwhile)."""
        timer = threading.Timer(HISTORY_WAIT + 0.05, self._wake)
        timer.daemon = True
        timer.start()

    def resync(self) -> None:
        """Fetch the whole game again (after an update that could not be read): drop this
        connection and take the seat back at once, as after a network drop."""
        if not self.in_game:
            return
        self._retry_now = True
        self.conn.close()

    def close(self) -> None:
        """Quit the game politely and close the connection. Once the game is over its seat token is
        forgotten, so that joining this server again means a new game."""
        self._closing = True
        if self.game_over and self.token:
            self.token = None
            self._save_token()
        try:
            self.conn.send(ReqQuit().to_dict())
            self.conn.send(ReqGoodbye().to_dict())
        except ConnectionError:
            pass
        self.conn.close()

    # ------------------------------------------------------------------ reconnection
    def _start_reconnect(self) -> None:
        # without a token (a server that gives none, like the reference) the seat is asked back
        # by nickname alone, which such a server allows
        if self._reconnecting or not self.in_game:
            return
        self._reconnecting = True
        threading.Thread(target=self._reconnect_loop, name="reconnect", daemon=True).start()

    def _reconnect_loop(self) -> None:
        try:
            for delay in self.retry_delays:
                if self._closing:
                    return
                if self._retry_now:
                    self._retry_now = False
                else:
                    time.sleep(delay)
                if self._closing:           # closed while waiting: never take the seat back
                    return
                try:
                    conn = self._connect()
                except ServerIdentityChanged as e:   # not the server we played on: never send the token
                    log.warning("%s", e)
                    with self._lock:
                        # (the refusal itself too, for a client that words what to do)
                        self._extra.append({"type": "ReconnectFailed", "reason": e.player_words, "refusal": e})
                    self._wake()
                    return
                except OSError as e:
                    log.info("reconnect failed: %s", e)
                    continue
                conn.send(ReqJoin(self.nickname, self.token, None, self.player_key).to_dict())   # token None: nickname only
                try:
                    first = conn.wait_for(lambda m: m.get("type") in ("UpdateGame", "ErrNickname", CONNECTION_LOST),
                                          timeout=10)
                except (TimeoutError, ConnectionError):
                    conn.close()
                    continue
                if first.get("type") != "UpdateGame":
                    conn.close()
                    if first.get("type") == "ErrNickname":
                        with self._lock:
                            self._extra.append({"type": "ReconnectFailed", "reason": first.get("reason")})
                        self._wake()
                        return
                    continue
                # put the UpdateGame back in front of whatever followed it
                rest = conn.poll()
                with self._lock:
                    old = self.conn
                    self.conn = conn
                    self._extra.append({"type": RECONNECTED})
                    self._extra.extend(m for m in [first, *rest] if m.get("type") != "UpdateSessionToken")
                old.close()
                self._wake()
                return
            with self._lock:
                self._extra.append({"type": "ReconnectFailed", "reason": "server unreachable"})
            self._wake()
        finally:
            self._reconnecting = False
