"""The authoritative match: one game, who of its players is connected, and its log.

A :class:`Room` applies requests one at a time (under its lock), writes each accepted call to the
game's log *before* anyone hears of it, and then hands every connected player the events they may
see. It never touches a socket: it is given ``send(nickname, messages)``, and tests pass a list's
``append``; the server also gives ``send_bytes(nickname, data)``, which takes lines already
encoded, so that a broadcast encodes each event once whatever the number of players told. Errors
go to the requester only; ``UpdateLeadersHand`` only to its owner.

Every request handed to :meth:`Room.submit` gets exactly one answer: the events ending in
``UpdateAction`` (to everyone connected), or one error message (to the requester only).

Reference clients (the players in :attr:`Room.plain`) see the game as the reference server tells
it: every change of a player's status is followed by ``UpdateSetupDone`` once setup is over (sent
to every player, as the reference does: ours take it as nothing new), nobody's coming or going is
told once the game is over, and every update and refusal is sent in the reference's shape
(:mod:`.reference`: its points, its solo ending as the answer to the next request, its refusals).

Who of its players is connected (arrivals, drops and the grace their seats wait, departures, the
seats the computer plays) is the room's part in a module of its own: :class:`~.room_players.RoomPlayers`.

Locking: the server may call :meth:`~Room.start`, :meth:`~Room.leave`, :meth:`~Room.rejoin` and
:meth:`Room.close` while holding its own lock; a room never calls back into the server except
through ``send``, which must not block and must not take the server's lock.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Any, Callable, Collection

import orjson

from game.rules.actions import Action
from game.rules.engine import Game
from game.rules.errors import GameError
from game.rules.views import REVEALED_TOKENS, player_view

from . import compaction
from .framing import LINE_OPTIONS
from .reference import ReferenceWire, plain_view
from .protocol import CANNOT_SAVE, PRIVATE_UPDATES
from .room_players import RoomPlayers
from .server_messages import err_protocol, update_chat, visible_to
from .server_words import SERVER_VOICE, said
from .store import GameLog

Send = Callable[[str, list[dict[str, Any]]], None]
SendBytes = Callable[[str, bytes], None]
log = logging.getLogger("mor.room")

CHAT_KEPT = 20
"""Chat lines a room keeps, for a player who comes back (saved with the game: a restart keeps them)."""

INTERNAL_ERROR = "Internal server error."
"""``ErrProtocol.msg`` for a request the server failed on (a bug); our extension."""

SAVING_AGAIN = said("save.again")


class Room(RoomPlayers):
    """One game in progress on the server (its players' comings and goings:
    :class:`~.room_players.RoomPlayers`).

    :param game_id: the game's number (unique on this server, also its log file name).
    :param send: ``send(nickname, messages)``; called under the room's lock, so it must not block.
    :param glog: where accepted calls are written, or None to keep nothing.
    :param tokens: each player's rejoin token.
    :param send_bytes: ``send_bytes(nickname, data)`` for encoded lines (the same rules as
        ``send``); when given, broadcasts use it and encode each event only once.
    :param on_end: called (under the room's lock; it must not block) once the game's last call is
        saved, when the game is over.
    :param bots: the computer players' seats, ``{nickname: level}``. A bot is never connected
        (nothing is sent to it) and never away; the server asks it for its requests (see
        :mod:`game.bots.driver`) and submits them like any player's.
    """

    def __init__(self, game_id: int, game: Game, send: Send, glog: GameLog | None = None,
                 tokens: dict[str, str] | None = None, send_bytes: SendBytes | None = None,
                 bots: dict[str, str] | None = None, bot_pace: float | None = None,
                 on_end: Callable[[], None] | None = None) -> None:
        self.id = game_id
        self.on_end = on_end          # called once the game's end is saved (the ratings: see .ratings)
        self.game = game
        self._nicknames = tuple(p.nickname for p in game.players)
        self.send = send
        self.send_bytes = send_bytes
        self.log = glog
        self.tokens = dict(tokens or {})
        self.bots: dict[str, str] = dict(bots or {})
        self.bot_pace = bot_pace     # seconds at least between two bot moves (None: the server's bot_delay)
        self.humans = tuple(n for n in self._nicknames if n not in self.bots)
        self.online: set[str] = set()
        self.away: dict[str, float] = {}  # people not connected whose seat waits for them -> until when (monotonic)
        self.plain: set[str] = set()      # connected with a reference client (no extensions)
        # the connection of each seat (nickname -> its connection), kept by the server's games: a
        # nickname is unique at the table, not on the server (names.handle), so a seat's player
        # is found here, never in the server's book of nicknames
        self.conns: dict[str, Any] = {}
        self.chat: deque[tuple[str, str, int]] = deque(maxlen=CHAT_KEPT)   # the last lines said at the table (who, what, after how many calls)
        self.lock = threading.Lock()
        self._wire: ReferenceWire | None = None   # what reference clients were told (see reference.py)
        self.empty_since: float | None = time.monotonic()
        self.closed = False
        self.saving = True            # False once a call could not be saved, until one is again
        self.unsaved = False          # the last request handed to submit/undo was refused for that
        self._unsaved_status: dict[str, bool] = {}   # arrivals and departures not saved yet
        self._due: str | None = None   # the server's notice to the table, once the refusal is sent
        # the table's watchers (see watchers.py), handed the lines of every broadcast that no single
        # player owns, encoded once; None while nobody watches. Called under the room's lock.
        self.watch: Callable[[bytes], None] | None = None
        # a turn-based table (see turn_based.py): seconds per move (None: real-time), the seats the
        # computer plays this turn for a player whose time ran out ({nickname: level}), and what is
        # called (under the room's lock: it must not block) after each call saved
        self.turn_time: int | None = None
        self.stand_ins: dict[str, str] = {}
        self.humans_given: tuple[str, ...] = ()   # people's seats the computer plays for good (in ``bots``)
        self.on_move: Callable[[], None] | None = None
        # the game's history kept bounded (see compaction.py): lines it no longer needs (requests
        # taken back, their undos, chat lines past CHAT_KEPT), the compactions so far, its calls at most
        self.dead = 0
        self.compactions = 0
        self.max_calls = 0            # 0: no cap
        self.max_open = 0             # requests in a row an undo may still take back (0: no cap)

    def __repr__(self) -> str:
        return f"<Room {self.id} {','.join(self.nicknames)}{' ended' if self.finished else ''}>"

    @property
    def nicknames(self) -> tuple[str, ...]:
        """The players in seat order."""
        return self._nicknames

    @property
    def finished(self) -> bool:
        return self.game.ended

    def expired(self, now: float, grace: float) -> bool:
        """Whether nobody is connected and the game is over or has been empty for ``grace`` seconds.
        A turn-based game waits for its players, unless the computer plays every seat for good (its
        bots would play it to its end for nobody)."""
        since = self.empty_since
        if self.turn_time is not None and not self.finished and self.humans:
            return False
        return since is not None and (self.finished or now - since >= grace)

    # ------------------------------------------------------------------ requests
    def submit(self, nickname: str, action: Action) -> bool:
        """Apply a request of a seated player and answer it; True if it was accepted.

        Accepted: the call is logged, then every connected player gets the events they may see
        (ending in ``UpdateAction``). Refused: the requester alone gets the engine's error. A
        failure of the engine or of the log is answered with ``ErrProtocol`` ``INTERNAL_ERROR``;
        a failed log write also closes the room, since the game would no longer match its file.
        """
        with self.lock:
            self.unsaved = False
            if self.closed:
                self.send(nickname, [err_protocol(INTERNAL_ERROR)])
                return False
            if (self.max_calls and len(self.game.history) >= self.max_calls and action.TYPE != "ReqEndTurn"
                    and nickname not in self.movers()):
                self.send(nickname, [err_protocol(said("limits.game_length", most=self.max_calls))])
                return False
            if (self.max_open and self.game.open_requests() >= self.max_open and action.TYPE != "ReqEndTurn"
                    and nickname not in self.movers()):
                self.send(nickname, [err_protocol(said("limits.turn_length", most=self.max_open))])
                return False
            wire = self._reference_wire() if self.plain else None
            try:
                events = self.game.apply(nickname, action)
            except GameError as err:
                if wire is None or nickname not in self.plain:
                    self.send(nickname, [err.to_dict()])
                else:   # a solo game's ending still owed to its reference client, or its refusal
                    self.send(nickname, wire.ending(nickname) or [wire.error(err, action, nickname)])
                return False
            except Exception:
                log.exception("game %d: the engine failed on %s's %r", self.id, nickname, action)
                self.send(nickname, [err_protocol(INTERNAL_ERROR)])
                return False
            if not self._record("apply", nickname, action):
                self.send(nickname, [err_protocol(CANNOT_SAVE if self.unsaved else INTERNAL_ERROR)])
                self._tell_due()
                return False
            if wire is None:
                self._broadcast(events, first=nickname)   # the requester's answer goes out first
            else:
                plain = self.plain
                self._broadcast(events, first=nickname, only=lambda n: n not in plain)
                self._broadcast(wire.events(events, nickname, action), first=nickname, only=plain.__contains__,
                                watched=False)
            return True

    def undo(self, nickname: str, ours: Collection[str]) -> bool:
        """Take back ``nickname``'s last request of this turn (``Game.undo``); True if done.

        Done: the undo is logged, then every connected player gets the table as it now is: the
        players in ``ours`` (our clients) ``UpdateUndo`` and then their ``UpdateGame``, the others
        (reference clients) their ``UpdateGame`` alone. Refused: the requester alone gets
        ``ErrUndo {reason}``.
        """
        with self.lock:
            self.unsaved = False
            if self.closed:
                self.send(nickname, [err_protocol(INTERNAL_ERROR)])
                return False
            try:
                events = self.game.undo(nickname)
            except GameError as err:
                self.send(nickname, [err.to_dict()])
                return False
            except Exception:
                log.exception("game %d: the engine failed on %s's undo", self.id, nickname)
                self.send(nickname, [err_protocol(INTERNAL_ERROR)])
                return False
            if not self._record("undo", nickname, None):
                self.send(nickname, [err_protocol(CANNOT_SAVE if self.unsaved else INTERNAL_ERROR)])
                self._tell_due()
                return False
            said, views = events[0], {}
            for e in events[1:]:
                view = dict(e)
                views[view.pop("player")] = view
            targets = [n for n in self.nicknames if n in self.online]
            if nickname in targets:   # the requester's answer goes out first
                targets.remove(nickname)
                targets.insert(0, nickname)
            self._wire = None   # the points told to reference clients are those of their new UpdateGame
            for nick in targets:
                self.send(nick, [said, views[nick]] if nick in ours else [plain_view(_plain_view(views[nick]), self.game)])
            if self.watch is not None:   # the watchers: the table again, as nobody's seat sees it
                self.watch(orjson.dumps(said, option=LINE_OPTIONS) + orjson.dumps(self.view(None), option=LINE_OPTIONS))
            return True

    def close(self, reason: str = "") -> None:
        """Stop the room (idempotent). Its log is marked ended if the game is over or ``reason`` is
        ``"abandoned"`` (it will not be restored); otherwise it is only closed (restored next start).
        """
        with self.lock:
            if self.closed:
                return
            self.closed = True
            if self.log is not None:
                try:
                    if self.game.ended or reason == "abandoned":
                        self.log.finish()
                    else:
                        self.log.close()
                except OSError as e:   # the game as saved is restored (or finished) at the next start
                    log.warning("game %d: cannot mark its log: %s", self.id, e)
                    self.log.close()
                self.log = None

    def view(self, nickname: str | None) -> dict[str, Any]:
        """``nickname``'s ``UpdateGame`` (None: nobody's seat, what the watchers see); a reference
        client's lacks our extension keys that are for our clients only (:func:`_plain_view`)."""
        view = player_view(self.game, nickname)
        if nickname in self.plain:
            return plain_view(_plain_view(view), self.game)
        if self.bots:   # our extension: each bot's level, for our clients' name cards and scores
            view[BOT_LEVELS] = dict(self.bots)
        return view

    # ------------------------------------------------------------------ internals
    def _reference_wire(self) -> ReferenceWire:
        """The room's :class:`ReferenceWire` (made from the game as it stands, the first time)."""
        if self._wire is None:
            self._wire = ReferenceWire(self.game)
        return self._wire

    def say(self, nickname: str, text: str) -> None:
        """Keep a line said at the table, where it falls among the moves, in memory and in the
        game's log (a restarted server gives it back to whoever rejoins). A log that cannot be
        written loses the line from the log only: chat never stops a game."""
        if len(self.chat) == CHAT_KEPT:
            self.dead += 1            # the line it pushes out is kept in the log only
        self.chat.append((nickname, text, len(self.game.history)))
        if compaction.due(self) and compaction.compact(self):
            return                    # (the new log has the line)
        if self.log is not None:
            try:
                self.log.append(["chat", nickname, text])
            except OSError as e:
                log.warning("game %d: a chat line is not saved: %s", self.id, e)

    def _record(self, kind: str, nickname: str, arg: Any) -> bool:
        """Write the call just made (the last of the game's history) to the log; True if saved.

        When it cannot be saved (a full disk), the call is taken back: the game is rebuilt from
        its history without it, as a restart would rebuild it, :attr:`unsaved` is set and the
        table is told once (our clients) that the server cannot save; the next call saved tells
        it that play goes on. Should the game not rebuild (a bug), the room is closed instead.
        """
        if self.log is None:
            if self.on_move is not None:
                self.on_move()
            if kind == "undo":        # (after on_move, which reads the call just made)
                self._taken_back()
            if self.game.ended:
                self._over()
            return True
        try:
            self.log.record(kind, nickname, arg)
        except OSError as e:
            self.unsaved = True
            game = self.game
            try:
                self.game = Game.replay(game.config, self._nicknames, game.seed, game.history[:-1])
                self._wire = None   # what reference clients were told is what the game was
            except Exception:
                log.exception("game %d: cannot take back a call it could not save; the game is stopped", self.id)
                self.closed = True   # what the log holds is what a restart will restore
                self.log.close()
                self.log = None
                return False
            if self.saving:   # told once, after the refusal (the caller calls _tell_due)
                self.saving = False
                log.warning("game %d: cannot save (%s): requests are refused until it can", self.id, e)
                self._due = CANNOT_SAVE
            return False
        if not self.saving:
            self.saving = True
            log.warning("game %d: saving again", self.id)
            self._notice(SAVING_AGAIN)
        if self.on_move is not None:
            self.on_move()
        if kind == "undo":            # (after on_move, which reads the call just made)
            self._taken_back()
        if self.game.ended:
            try:
                self.log.finish()
            except OSError as e:   # the last call is saved: the next start sees the game is over
                log.warning("game %d: cannot mark its log finished: %s", self.id, e)
                self.log.close()
            self.log = None
            self._over()
        return True

    def _taken_back(self) -> None:
        """An undo is saved: the request it took back and itself are lines the game no longer
        needs (nothing, once together), dropped when there are enough of them (compaction.py)."""
        self.dead += 2
        if compaction.due(self):
            compaction.compact(self)

    def _over(self) -> None:
        """The game's end is saved: ``on_end`` is called (once)."""
        on_end, self.on_end = self.on_end, None
        if on_end is not None:
            on_end()

    def _tell_due(self) -> None:
        if self._due is not None:
            text, self._due = self._due, None
            self._notice(text)

    def _notice(self, text: str) -> None:
        """The server's word to the table (``UpdateChat`` to our clients; reference clients do not
        know chat, and their requests' refusals say it anyway)."""
        line = [update_chat(SERVER_VOICE, text)]
        for nick in self.nicknames:
            if nick in self.online and nick not in self.plain:
                self.send(nick, line)

    def retry_save(self) -> None:
        """Say again the arrivals and departures that could not be saved (the server calls this
        every second while :attr:`saving` is False): once one is saved, play goes on."""
        with self.lock:
            if self.saving or self.closed or not self._unsaved_status:
                return
            for nick, active in list(self._unsaved_status.items()):
                self._set_active(nick, active)

    def _broadcast(self, events: list[dict[str, Any]], skip: str | None = None,
                   first: str | None = None, only: Callable[[str], bool] | None = None,
                   watched: bool = True) -> None:
        """Hand each connected player (but ``skip``, and only those ``only`` accepts) the events
        it may see; ``first`` (if connected) before the others, the rest in seat order; and the
        watchers (unless not ``watched``: the reference's wording of them) those nobody owns."""
        watch = self.watch if watched else None
        if watch is not None:
            public = b"".join([orjson.dumps(e, option=LINE_OPTIONS) for e in events if visible_to(e, None)])
            if public:
                watch(public)
        online = self.online
        targets = [n for n in self.nicknames if n in online and n != skip and (only is None or only(n))]
        if not targets:
            return
        if first is not None and targets[0] != first and first in targets:
            targets.remove(first)
            targets.insert(0, first)
        send_bytes = self.send_bytes
        if send_bytes is None:
            for nick in targets:
                mine = [e for e in events if visible_to(e, nick)]
                if mine:
                    self.send(nick, mine)
            return
        dumps = orjson.dumps
        private = False
        lines = []
        for e in events:                  # each encoded once, whoever receives it
            lines.append(dumps(e, option=LINE_OPTIONS))
            if e.get("type") in PRIVATE_UPDATES:
                private = True
        if not private:
            data = b"".join(lines)
            for nick in targets:
                send_bytes(nick, data)
            return
        for nick in targets:
            data = b"".join([line for e, line in zip(events, lines) if visible_to(e, nick)])
            if data:
                send_bytes(nick, data)


BOT_LEVELS = "botLevels"
"""``UpdateGame.botLevels`` (our extension, only to our clients): {bot nickname: "easy"|"medium"|"hard"}."""


def _plain_view(view: dict[str, Any]) -> dict[str, Any]:
    """An ``UpdateGame`` as a reference client gets it: without ``revealedActionTokens`` (our
    extension, Lorenzo's tokens face up since the shuffle; see docs/compatibility.md). The extension
    keys of older days (``lastActionToken``, ``favorTiles``...) stay: a reference client ignores them."""
    if REVEALED_TOKENS not in view:
        return view
    return {k: v for k, v in view.items() if k != REVEALED_TOKENS}
