"""One interface to a game, whether the engine runs in this process or on a server.

Scenes hold a :class:`Match` and never know which kind it is. Both kinds take requests with
``send`` and hand back, through ``poll``, the same stream of protocol messages (``UpdateGame``,
updates, errors, ``UpdateGameEnd``...), which feeds the client's one view model. ``poll`` never
blocks, so the frame loop never waits on the engine or the network.

- :class:`LocalMatch` runs a solo game against Lorenzo in-process (no sockets, no threads). It
  saves the game (seed + accepted requests) after every accepted request, so it can be left and
  resumed later with :meth:`LocalMatch.resume`.
- :class:`BotMatch` runs a game on this machine between the player and computer opponents
  (bots, :mod:`game.bots`), with no server. The bots think on a worker thread; their requests are
  applied one at a time, at ``pace`` seconds apart, from :meth:`BotMatch.poll`. It is saved after
  every accepted request like the solo game, and resumed with :meth:`BotMatch.resume`.
- :class:`RemoteMatch` talks to a server through :class:`~game.netcode.client.Connection`. When the
  connection drops it reports ``{"type": "ConnectionLost"}``, reconnects by itself in the
  background, rejoins its seat with its token, and reports ``{"type": "Reconnected"}``; the
  server's fresh ``UpdateGame`` that follows resyncs the view model.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Protocol

import orjson

from game.bots.turn_policy import Leave, after_no_answer, after_refusal
from game.netcode import protocol as P
from game.netcode.client import (CONNECTION_LOST, Connection, KnownServers, ServerIdentityChanged,
                                 client_tls_context, offered_tls_port)
from game.netcode.client_messages import (
    ReqChat,
    ReqGoodbye,
    ReqJoin,
    ReqNewGame,
    ReqQuit,
    ReqReplay,
    ReqUndo,
    TableChoice,
)
from game.netcode.history import history_lines, recent_history
from game.netcode.server_messages import update_chat, visible_to
from game.netcode.watch_wire import ReqHideWatchers
from game.rules import codec
from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import GameError, MalformedRequest
from game.rules.views import player_view
from game.seeds import new_seed
from game.settings import data_dir

Msg = dict[str, Any]
RECONNECTED = "Reconnected"
HISTORY_WAIT = 2.0
"""Seconds a return to our server waits for the game's history before the board is shown anyway."""
log = logging.getLogger("mor.match")


class Match(Protocol):
    """Everything a client may do with a game, whoever runs it.

    :class:`LocalMatch`, :class:`BotMatch` and :class:`RemoteMatch` implement it (the replay scene's
    feed too); what one kind of match cannot do it says with a ``supports_*`` flag, never by
    lacking a member. A class that subclasses it gets the defaults below: a game on this machine
    with nobody else to talk to, no undo, nothing to fetch again and no server to ask.
    """

    nickname: str
    config: GameConfig | None = None
    """The rules of a game the engine runs in this process; None when its messages bring the rules
    (a server's game, a replay's views): the client then reads them from ``UpdateGame``."""
    bots: dict[str, str] = {}
    """The computer players of a game run here, with their levels ({nickname: level})."""
    on_message: Callable[[], None] | None = None
    """Called (from any thread) when :meth:`poll` has news, so that a sleeping frame loop wakes."""
    supports_undo: bool = False
    """Whether :meth:`undo` is understood (the engine here, or a server of ours)."""
    supports_chat: bool = False
    """Whether :meth:`chat` reaches other people (a server's table)."""
    supports_resync: bool = False
    """Whether :meth:`resync` fetches the whole game again (from a server)."""
    host: str | None = None
    """The server's address (None for a game on this machine), with :attr:`port`."""
    port: int | None = None
    host_name: str = ""
    """Who hosts the table and its name, as the network's list of tables said ("" when unknown)."""
    table_name: str = ""
    secure: bool = False
    """Whether the game crosses the network encrypted (TLS): see :attr:`server_fingerprint`."""
    server_fingerprint: str | None = None
    """The server certificate's fingerprint (``SHA256:AB:CD:…``), over TLS."""
    first_meeting: bool = False
    """The server's certificate was met for the first time (it is remembered now)."""

    def send(self, request: Action) -> None:
        """Send a game request; its answer arrives later through :meth:`poll`."""

    def poll(self) -> list[Msg]:
        """Every message that arrived since the last call, oldest first (never blocks)."""
        return []

    def close(self) -> None:
        """Leave the game (a local game stays saved; a remote seat becomes inactive)."""

    def shutdown(self) -> None:
        """The application quits: end what runs in the background for this match (a bot match's
        worker process). The game itself stays as it is, saved or seated on its server."""

    def undo(self) -> None:
        """Take back my last request of this turn (answered through :meth:`poll`), if
        :attr:`supports_undo`."""

    def chat(self, text: str) -> None:
        """Say a line to the table, if :attr:`supports_chat`."""

    def resync(self) -> None:
        """Fetch the whole game again (after an update that could not be read), if
        :attr:`supports_resync`."""

    def hide_watchers(self, hide: bool) -> None:
        """Hide the watchers' chat of this table, or show it again (a server's table)."""

    def replay_record(self) -> Msg | None:
        """The replay of this game, once it has ended, when the engine ran here (None otherwise:
        ask the server with :meth:`fetch_replay`)."""
        return None

    def fetch_replay(self) -> bool:
        """Ask the server for this game's replay (an ``UpdateReplay`` through :meth:`poll`);
        False when there is no server of ours to ask."""
        return False


def local_apply(game: Game, nickname: str, request: Action, out: list[Msg]) -> list[Msg] | None:
    """Apply ``nickname``'s request to an in-process game: its events, or ``None`` after putting
    the refusal (the error a server would send) in ``out``."""
    try:
        return game.apply(nickname, request)
    except GameError as err:
        out.append(err.to_dict())
    except MalformedRequest as err:
        out.append({"msg": err.msg, "type": "ErrProtocol"})
    return None


def local_undo(game: Game, nickname: str) -> list[Msg]:
    """Take back ``nickname``'s last request in an in-process game: the messages this player gets
    (``UpdateUndo`` and their ``UpdateGame``, or the ``ErrUndo`` refusal)."""
    try:
        events = game.undo(nickname)
    except GameError as err:
        return [err.to_dict()]
    out = []
    for e in events:
        if visible_to(e, nickname):
            if e.get("type") == P.UPDATE_GAME:
                e = {k: v for k, v in e.items() if k != "player"}   # the routing field, not the game's
            out.append(e)
    return out


def _keep_replay(match: "LocalMatch | BotMatch", kind: str) -> None:
    """A local game has ended: its replay goes to the ``replays`` folder beside its save (once)."""
    if match.replay_path is None and match.save_path is not None:
        from game.replays import REPLAYS, save_finished
        match.replay_path = save_finished(match.game, match.save_path.parent / REPLAYS, kind, match.nickname,
                                          match.bots)


class LocalMatch(Match):
    """A solo game against Lorenzo, run by the engine in this process.

    Its messages are made by :meth:`send`, on the caller's thread: it never needs to wake a
    sleeping frame loop (``on_message`` is there for the same interface as :class:`RemoteMatch`).
    """

    supports_undo = True

    def __init__(self, config: GameConfig, nickname: str, seed: int | None = None,
                 save_path: Path | None = None, game: Game | None = None) -> None:
        self.nickname = nickname
        self.config: GameConfig = config
        self.save_path = save_path
        self.replay_path: Path | None = None     # where the replay went when the game ended
        self.game = game if game is not None else Game.new(config, [nickname], seed if seed is not None
                                                           else new_seed())
        self._out: deque[Msg] = deque([player_view(self.game, nickname)])
        self._save()

    @classmethod
    def resume(cls, config: GameConfig, save_path: Path) -> "LocalMatch":
        """Continue a saved solo game.

        :raises ValueError: the file is missing, damaged or not a solo game.
        :raises GameError: the saved requests do not replay with this config.
        """
        game = cls.load(config, save_path)
        match = cls(config, game.nicknames[0], save_path=save_path, game=game)
        match._out.extend(history_lines(*recent_history(game, match.nickname)))   # the log, as it was
        return match

    @staticmethod
    def load(config: GameConfig, save_path: Path) -> Game:
        """The saved solo game (read only).

        :raises ValueError: the file is missing, damaged or not a solo game.
        :raises GameError: the saved requests do not replay with this config.
        """
        try:
            data = Path(save_path).read_bytes()
        except OSError as e:
            raise ValueError(f"cannot read the saved game: {e}") from None
        game = codec.loads(data, config)
        if not game.solo:
            raise ValueError("the saved game is not a solo game")
        return game

    def send(self, request: Action) -> None:
        events = local_apply(self.game, self.nickname, request, self._out)
        if events is None:
            return
        self._out.extend(e for e in events if visible_to(e, self.nickname))
        self._save()

    def undo(self) -> None:
        """Take back the last request of this turn (answered through :meth:`poll`)."""
        self._out.extend(local_undo(self.game, self.nickname))
        self._save()

    def replay_record(self) -> Msg | None:
        from game.replays import replay_record
        return replay_record(self.game, "solo", self.nickname) if self.game.ended else None

    def poll(self) -> list[Msg]:
        out = list(self._out)
        self._out.clear()
        return out

    def close(self) -> None:
        self._save()

    def _save(self) -> None:
        if self.save_path is None:
            return
        if self.game.ended:
            _keep_replay(self, "solo")
            try:
                self.save_path.unlink()
            except FileNotFoundError:
                pass
            return
        tmp = self.save_path.with_suffix(".tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(codec.dumps(self.game))
        os.replace(tmp, self.save_path)


BOTS_FORMAT = "mor-bots/1"
"""The save of a game against bots: ``{"format": BOTS_FORMAT, "player": nick, "bots": {nick: level},
"game": <codec.game_record>}``."""


class BotMatch(Match):
    """A game on this machine: the player against 1 to 3 bots, run by the engine in-process.

    Everything happens on the caller's thread except the bots' thinking (a worker process of
    :class:`~game.bots.driver.BotPool`, started with the match; a thread if processes cannot
    start, or with ``processes=False``): :meth:`poll` applies a bot's request once it is ready and
    ``pace`` seconds have passed since the previous request (so a person can follow each move
    and its line in the log), then asks the next bot. Nothing blocks.

    :param bots: the opponents' levels, one per seat (their nicknames are chosen here), or
        ``{nickname: level}``.
    :raises UnknownLevel: a level that does not exist.
    :raises ValueError: too many or too few players for ``config``.
    """

    def __init__(self, config: GameConfig, nickname: str, bots: "list[str] | dict[str, str]", seed: int | None = None,
                 save_path: Path | None = None, game: Game | None = None, pace: float = 0.8,
                 budget: int | None = None, processes: bool = True) -> None:
        from game.bots import LEVELS, UnknownLevel
        from game.bots.driver import BotPool, bot_nickname
        self.nickname = nickname
        self.config: GameConfig = config
        self.save_path = save_path
        self.replay_path: Path | None = None     # where the replay went when the game ended
        self.pace = pace
        self.budget = budget
        if isinstance(bots, dict):
            seats = dict(bots)
        else:
            seats, taken = {}, {nickname}
            for i, level in enumerate(bots):
                nick = bot_nickname(taken, (seed or 0) + i)
                taken.add(nick)
                seats[nick] = level
        for level in seats.values():
            if level not in LEVELS:
                raise UnknownLevel(level)
        if not seats or nickname in seats:
            raise ValueError("a game against the computer needs at least one bot, and a seat for the player")
        self.bots = seats
        self.game = game if game is not None else Game.new(
            config, [nickname, *seats], seed if seed is not None else new_seed())
        self._out: deque[Msg] = deque([player_view(self.game, nickname)])
        self._pool = BotPool(config, processes=processes)
        self._pool.warm()                       # the worker starts now: the first decision is not late
        self._answers: deque[Any] = deque()     # filled by the worker thread
        self._thinking: Any = None              # the job under way
        self._last_move = time.monotonic()
        self.retired: dict[str, str] = {}       # bots that left the table (their moves refused), and why
        self._wake_due = 0.0                    # when the wake-up armed by _wake_in fires
        self._closed = False
        self.bot_moves = 0                      # the bots' requests applied since the match started
        self.decided_in: set[int] = set()       # the processes whose decisions were applied
        self.on_message: Callable[[], None] | None = None   # called (any thread) when poll has news
        self._save()
        self._ask()

    @classmethod
    def resume(cls, config: GameConfig, save_path: Path, pace: float = 0.8) -> "BotMatch":
        """Continue a saved game against bots.

        :raises ValueError: the file is missing, damaged or not such a game.
        :raises GameError: the saved requests do not replay with this config.
        """
        try:
            data = orjson.loads(Path(save_path).read_bytes())
        except OSError as e:
            raise ValueError(f"cannot read the saved game: {e}") from None
        except orjson.JSONDecodeError as e:
            raise ValueError(f"the saved game is not valid JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != BOTS_FORMAT:
            raise ValueError("not a saved game against the computer")
        player, bots = data.get("player"), data.get("bots")
        if not isinstance(player, str) or not isinstance(bots, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in bots.items()):
            raise ValueError("the saved game is damaged: no player or bots")
        game = codec.restore(data.get("game"), config)
        if set(game.nicknames) != {player, *bots}:
            raise ValueError("the saved game is damaged: its players are not the player and the bots")
        match = cls(config, player, bots, save_path=save_path, game=game, pace=pace)
        match._out.extend(history_lines(*recent_history(game, player)))   # the log, as it was
        return match

    # ------------------------------------------------------------------ the Match interface
    def send(self, request: Action) -> None:
        events = local_apply(self.game, self.nickname, request, self._out)
        if events is None:
            return
        self._accepted(events)

    supports_undo = True

    def replay_record(self) -> Msg | None:
        from game.replays import replay_record
        return replay_record(self.game, "bots", self.nickname, self.bots) if self.game.ended else None

    def undo(self) -> None:
        """Take back the player's last request of this turn (answered through :meth:`poll`)."""
        self._out.extend(local_undo(self.game, self.nickname))
        self._save()

    def poll(self) -> list[Msg]:
        if self._answers:
            left = self.pace - (time.monotonic() - self._last_move)
            if left <= 0:
                self._take(self._answers.popleft())
            else:
                self._wake_in(left)      # the caller sleeps till then: it is woken for the move
        out = list(self._out)
        self._out.clear()
        return out

    def close(self) -> None:
        self._closed = True
        self._pool.close()
        self._save()

    def shutdown(self) -> None:
        self.close()     # its bots' worker process ends now (the game stays saved)

    @property
    def bot_mode(self) -> str:
        """Where the bots think: ``"processes"`` or ``"threads"``."""
        return self._pool.mode

    def worker_pids(self) -> list[int]:
        """The bots' worker processes alive now (none on threads, or once closed)."""
        return self._pool.worker_pids()

    @property
    def why_threads(self) -> str | None:
        """Why the bots think on a thread when worker processes were asked for, if they do."""
        return self._pool.why_threads

    @property
    def thinking(self) -> str | None:
        """The bot whose move is awaited (thinking, or waiting for the pace), if any."""
        return self._thinking.nickname if self._thinking is not None else None

    # ------------------------------------------------------------------ internals
    def _accepted(self, events: list[Msg]) -> None:
        self._out.extend(e for e in events if visible_to(e, self.nickname))
        self._last_move = time.monotonic()
        self._save()
        self._ask()
        self._last_move = time.monotonic()    # the pace runs from when the move is handed over

    def _ask(self) -> None:
        """Set the bot that must act (if any) thinking, unless one already is."""
        from game.bots.driver import due, make_job
        if self._thinking is not None or self._closed or self.game.ended:
            return
        nick = due(self.game, self.bots)
        if nick is None:
            return
        self._thinking = job = make_job(self.game, nick, self.bots[nick], self.budget)
        self._pool.submit(job, lambda answer: self._ready(job, answer))

    def _ready(self, job: Any, answer: Any) -> None:
        """A bot's answer (worker thread): queued for :meth:`poll`, whose caller is woken when the
        pace allows it to be applied."""
        self._answers.append((job, answer))
        self._wake_in(self.pace - (time.monotonic() - self._last_move))

    def _wake_in(self, left: float) -> None:
        """Wake the caller (``on_message``) in ``left`` seconds, unless a wake-up is already due
        (any thread; a wake-up that comes early is followed by another from :meth:`poll`)."""
        wake = self.on_message
        if wake is None:
            return
        if left <= 0:
            wake()
            return
        now = time.monotonic()
        if self._wake_due > now:
            return
        self._wake_due = now + left
        timer = threading.Timer(left, wake)
        timer.daemon = True
        timer.start()

    def _take(self, item: tuple[Any, Any]) -> None:
        job, answer = item
        if job is not self._thinking:
            return
        self._thinking = None
        if answer is None:
            if not self._closed:
                self._bot_leaves(job.nickname, after_no_answer())
            return
        if self.game.version != job.version:   # the player moved meanwhile (setup): think again
            self._ask()
            return
        try:
            events = self.game.apply(job.nickname, answer.action)
        except (GameError, MalformedRequest) as e:
            log.error("the engine refused bot %s's %r (%s): %s", job.nickname, answer.action, answer.level, e)
            then = after_refusal(job, answer.level)
            if isinstance(then, Leave):
                self._bot_leaves(job.nickname, then)
                return
            self._thinking = easy = then
            self._pool.submit(easy, lambda again: self._ready(easy, again))
            return
        self.bot_moves += 1
        self.decided_in.add(answer.pid or os.getpid())
        self._accepted(events)

    def _bot_leaves(self, nick: str, leave: Leave) -> None:
        """A bot cannot go on (:mod:`game.bots.turn_policy`): rather than hold the game up, it
        says why (a chat line in the log) and leaves the table like a player who quits; the engine
        skips its turns from then on (saved so)."""
        log.error("bot %s %s; it leaves the table and the game goes on without it", nick, leave.why)
        self.retired[nick] = leave.why
        self._out.append(update_chat(nick, leave.farewell))
        self._accepted(self.game.set_active(nick, False))

    def _save(self) -> None:
        if self.save_path is None:
            return
        if self.game.ended:
            _keep_replay(self, "bots")
            try:
                self.save_path.unlink()
            except FileNotFoundError:
                pass
            return
        data = orjson.dumps({"format": BOTS_FORMAT, "player": self.nickname, "bots": self.bots,
                             "game": codec.game_record(self.game)})
        tmp = self.save_path.with_suffix(".tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, self.save_path)


UNFINISHED_FILE = "unfinished-games.json"
"""Beside the seat tokens: the games on servers this install has a seat in and that have not ended
(``"host:port/nickname"`` -> ``{host, port, nickname, players, at}``)."""


def unfinished_games(path: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The remembered unfinished games on servers, newest first, as (seat key, record)."""
    path = path if path is not None else data_dir() / UNFINISHED_FILE
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return []
    if not isinstance(data, dict):
        return []
    out = [(str(k), v) for k, v in data.items() if isinstance(v, dict) and isinstance(v.get("host"), str)
           and isinstance(v.get("port"), int) and isinstance(v.get("nickname"), str)]
    return sorted(out, key=lambda kv: -float(kv[1].get("at") or 0))


def _write_unfinished(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    games = dict(unfinished_games(path))
    change(games)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(orjson.dumps(dict(sorted(games.items(), key=lambda kv: -float(kv[1].get("at") or 0))[:20])))
        os.replace(tmp, path)
    except OSError as e:
        log.info("cannot remember the game: %s", e)


def remember_unfinished(path: Path, key: str, record: dict[str, Any]) -> None:
    _write_unfinished(path, lambda games: games.__setitem__(key, record))


def forget_unfinished(path: Path | None, key: str) -> None:
    """Forget a remembered game (it is over, or its server no longer has it)."""
    path = path if path is not None else data_dir() / UNFINISHED_FILE
    if any(k == key for k, _ in unfinished_games(path)):
        _write_unfinished(path, lambda games: games.pop(key, None))


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
    true}``, see :func:`~game.netcode.client.offered_tls_port`), and the game goes there if it does. A
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
                 table: "TableChoice | None" = None, tls_port: int | None = None) -> None:
        direct_tls = host.startswith(TLS_SCHEME)
        if direct_tls:
            host = host[len(TLS_SCHEME):]
        self.host, self.port, self.nickname = host, port, nickname
        # what the network's list of tables said of this one, when it was joined from there (so
        # that a lost connection can say whom it waits for); "" when the address was typed
        self.table_name = self.host_name = ""
        self.token_file = token_file if token_file is not None else data_dir() / "seats.json"
        # a game this seat plays is remembered until it ends, for the title's "Return to your game at
        # host:port" (not the host's own seat: the title offers the game it hosts in its own words)
        self.remember = remember
        self._remembered: bool | None = None
        self.token: str | None = self._saved_tokens().get(self._seat_key)
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
        self.conn.send(ReqJoin(nickname, self.token or "", table))

    @property
    def _seat_key(self) -> str:
        return f"{self.host}:{self.port}/{self.nickname}"

    def _saved_tokens(self) -> dict[str, str]:
        try:
            data = orjson.loads(self.token_file.read_bytes())
            return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except (OSError, orjson.JSONDecodeError):
            return {}

    def _save_token(self) -> None:
        tokens = self._saved_tokens()
        tokens[self._seat_key] = self.token or ""
        try:
            self.token_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.token_file.with_suffix(".tmp")
            tmp.write_bytes(orjson.dumps(dict(list(tokens.items())[-50:])))
            os.replace(tmp, self.token_file)
        except OSError as e:
            log.info("cannot save the seat token: %s", e)

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
        remember_unfinished(self.games_file, self._seat_key, {
            "host": self.host, "port": self.port, "nickname": self.nickname, "players": players,
            "at": time.time()})
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
                conn.send(ReqJoin(self.nickname, self.token).to_dict())   # token None: nickname only
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
