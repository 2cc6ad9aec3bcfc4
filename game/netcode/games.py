"""The games in progress of a server: their rooms, who sits where, their saves and their records.

:class:`Games` starts a game when the lobby fills one (:meth:`Games.start`: the seed, the bots'
seats, the log's header saved before anyone is seated), restores the unfinished games at start,
hands each game request to its :class:`~.room.Room`, seats a returning player again (with the
history of the game as that player saw it), takes back a request (``ReqUndo``), answers
``ReqReplay`` from a game over or the record of finished games, and removes the games nobody
needs any more (:meth:`Games.sweep`).

No socket here: a player is a :class:`Client` (the server's connection: its ``send`` and ``push``
queue messages and never block), so a test may drive the games with objects of its own.
"""
from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable, Protocol

import orjson

from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.seeds import new_seed

from . import protocol as P
from .answer_cache import AnswerCache
from .bot_scheduler import BotScheduler
from .event_log import EventLog
from .finished_shelf import FinishedShelf
from .kept_games import KeptGames, seat_handles
from .client_messages import ReqReplay, ReqUndo
from .framing import encode
from .names import HANDLE_MARK, NickBook, handle
from .room import Room
from .server_messages import err_nickname, err_protocol, update_chat, update_join_game
from .server_words import said_again
from .store import GameLog, GameStore

log = logging.getLogger("mor.server")

UPDATE_SESSION_TOKEN = "UpdateSessionToken"


class Client(Protocol):
    """What the lobby and the games read and write of a player's connection."""

    nickname: str | None
    token: str | None
    room: Room | None
    table: Any                 # the open table it sits at (:class:`~.tables.Table`), or None
    left: bool
    announced: Any             # the game size (and bots) it was last told with UpdateJoinGame
    booked: Any                # the last UpdateBookedSeats line its table told it
    extensions: bool           # joined with a token field: our client
    ip: str                    # whom the per-address limits count it for
    since: float               # since when it has been outside a game in progress
    handle: str | None         # what the server's books keep it under (:func:`.names.handle`)

    def send(self, *msgs: dict[str, Any]) -> None: ...

    def push(self, data: bytes) -> None: ...


def token_message(token: str) -> dict[str, Any]:
    """``UpdateSessionToken`` (our extension): the token that takes the seat back after a drop."""
    return {"token": token, "type": UPDATE_SESSION_TOKEN}


class Games:
    """The games of one server (see the module's docstring).

    Public tables (read them under ``lock``): ``rooms`` (game id -> :class:`Room`), ``seats``
    (:func:`.names.handle` -> the unfinished room holding that seat) and ``origin`` (game id ->
    the address of whoever started it, for the per-address limits). ``by_nick`` is the server's
    (handle -> its live connection), shared with the lobby; a room's own ``conns`` find its seats'
    connections (a nickname is unique at its table only).
    """

    def __init__(self, config: GameConfig, options: Any, store: GameStore, lock: threading.RLock,
                 rooms: dict[int, Room], by_nick: dict[str, Any], bots: BotScheduler,
                 call_at: Callable[..., None], ratings: Any = None) -> None:
        self.config = config
        self.ratings = ratings     # the players' ratings (:class:`.ratings.Ratings`): told of each game's start and end
        self.options = options
        self.store = store
        self.lock = lock
        self.by_nick = by_nick
        self.bots = bots
        self._call_at = call_at
        self.rooms = rooms
        self.seats: NickBook = NickBook()   # nickname -> the unfinished game where it has a seat
        self.events = EventLog(log)   # refused seats, summed up past a few (the server's)
        self.origin: dict[int, str] = {}   # game id -> the address of whoever started it
        self.later = KeptGames(self.bring_back, call_at)   # real-time games kept in their files at start
        self.shelf = FinishedShelf(options.keep_finished)   # the finished games' logs kept
        self.answers: AnswerCache[Any] = AnswerCache()   # rejoin histories and replays, which cost a game each
        # game seeds from random.Random(options.seed) (tests), else from new_seed()
        self.seeds = random.Random(options.seed) if options.seed is not None else None
        self.turns: Any = None     # the turn-based tables and the players' games (:class:`.turn_based.TurnBased`)
        self.watchers: Any = None  # the tables' watchers (:class:`.watchers.Watchers`): told of games restored
        self.clocks: Any = None    # the real-time games' seat clocks (:class:`.seat_clock.SeatClocks`)

    def live_from(self, ip: str, turn_based: bool = False) -> list[Room]:
        """The real-time games in progress started from the address ``ip`` (a turn-based game, which
        lasts days, counts among the turn-based limits instead); with ``turn_based``, the turn-based
        ones too (their bots play whether or not anyone is there: they count among the address's bots)."""
        return [r for gid, where in self.origin.items() if where == ip
                and (r := self.rooms.get(gid)) is not None and not r.finished and not r.closed
                and (turn_based or r.turn_time is None)]

    def leave(self, s: Client, until: float | None = None) -> None:
        """A seated player leaves: inactive at the table at once (a quit), or, for a connection
        that ended without a goodbye, once the grace is over at ``until`` (a ``time.monotonic()``
        value; :meth:`.room_players.RoomPlayers.drop`): meanwhile their seat and turn wait. The bots pause while
        nobody is there, or go on if the turn passed to one of them."""
        room = s.room
        assert room is not None and s.nickname is not None
        if room.turn_time is not None and not room.finished:   # a turn-based seat stays, and its turn waits
            self.turns.left(room, s.nickname)
            return
        if until is not None and until > time.monotonic():
            room.drop(s.nickname, until)
            self._call_at(until, self._grace_over, room.id, s.nickname, until)
        else:
            room.leave(s.nickname)
        if room.bots and not room.humans_online:   # bots play only while someone watches
            self.bots.pause(room)
        elif room.bots:
            self.bots.step(room)   # the turn may have passed to a bot

    def _grace_over(self, gid: int, nickname: str, until: float) -> None:
        room = self.rooms.get(gid)
        if room is not None and room.grace_over(nickname, until) and room.bots:
            self.bots.step(room)

    def retry_saving(self) -> None:
        """While the disk is full (every second): say the arrivals and departures not saved yet,
        and let the bots ask again."""
        for room in list(self.rooms.values()):
            if not room.saving:
                room.retry_save()
                if room.saving and room.bots:
                    self.bots.step(room)

    def chat(self, s: Client, room: Room, text: str, data: bytes) -> None:
        """A line said at the table (``data``: its ``UpdateChat``, encoded): kept with where it falls
        among the moves, saved, and sent to the table's clients of ours, the sender's included."""
        assert s.nickname is not None
        room.say(s.nickname, text)
        for nick in room.nicknames:
            other = room.conns.get(nick)
            if other is not None and other.room is room and (other.extensions or other is s):
                other.push(data)

    def room_of(self, nickname: str) -> Room | None:
        """The unfinished or still-watched room where ``nickname`` sits, if any (a handle, or a
        nickname: the first room found where someone of that name sits, for the keyed)."""
        with self.lock:
            s = self.by_nick.get(nickname)
            room = s.room if s is not None and s.room is not None else self.seat(nickname)
            if room is None and HANDLE_MARK not in nickname:
                room = next((r for r in self.rooms.values() if nickname in r.humans and not r.closed), None)
            return room

    def handle_of(self, s: Client, nick: str) -> str:
        """What the server's books keep ``s`` under as ``nick`` (:func:`.names.handle`): its
        player's number when it joined with a key."""
        p = self.ratings.of.get(s) if self.ratings is not None else None
        return handle(nick, p.id if p is not None else None)

    def handle_in(self, room: Room, nick: str) -> str:
        """The handle of seat ``nick`` of ``room`` (its owner's, when a keyed player holds it)."""
        pid = self.turns.owners.get(room.id, {}).get(nick) if self.turns is not None else None
        return handle(nick, pid)

    def seat(self, nickname: str) -> Room | None:
        """The unfinished game where ``nickname`` has a seat (replayed now if it was kept in its file)."""
        room = self.seats.get(nickname)
        return room if room is not None else self.later.take(nickname)

    def seated_like(self, nickname: str) -> str | None:
        """The seated player's name ``nickname`` reads as (itself included), or None."""
        return self.seats.like(nickname) or self.later.seats.like(nickname)

    def sweep(self, now: float | None = None) -> list[int]:
        """Remove finished games nobody is connected to, and unfinished ones empty for ``grace``
        seconds (their log is marked ended: they will not be restored). Returns the removed ids.

        ``now`` is a ``time.monotonic()`` value (tests pass a later one instead of waiting).
        """
        now = time.monotonic() if now is None else now
        with self.lock:
            expired = [r for r in self.rooms.values() if r.expired(now, self.options.grace)]
            for room in expired:
                self.remove_room(room)
                room.close("finished" if room.finished else "abandoned")
        for room in expired:
            log.info("game %d removed (%s)", room.id, "finished" if room.finished else "abandoned")
            self.shelf.added(room.id)   # its log is on the shelf of finished games now
        return [r.id for r in expired]

    def new_room(self, gid: int, game: Game, glog: GameLog | None, tokens: dict[str, str],
                  bots: dict[str, str] | None = None, bot_pace: float | None = None, seated: bool = True,
                  handles: dict[str, str] | None = None) -> Room:
        """A room for a game; ``seated``: its seats are the server's to hold, each under its
        ``handles`` entry (its nickname when it has none; a turn-based game's are held by key
        instead: :mod:`.turn_based`)."""
        conns: dict[str, Any] = {}
        # The room holds these two functions: they name it by its id, never by reference, so a
        # removed room is freed at once (a cycle would wait for the collector, which the frozen
        # heap of a long-running server keeps away from old objects).

        def send(nickname: str, msgs: list[dict[str, Any]]) -> None:
            s = conns.get(nickname)
            if s is not None and s.room is not None and s.room.id == gid:
                s.send(*msgs)

        def send_bytes(nickname: str, data: bytes) -> None:
            s = conns.get(nickname)
            if s is not None and s.room is not None and s.room.id == gid:
                s.push(data)

        call_at, ended_at = self._call_at, self._ended

        def ended() -> None:   # after the answer that ended it: the ratings, on the loop's next turn
            call_at(time.monotonic(), ended_at, gid)

        room = Room(gid, game, send, glog, tokens, send_bytes=send_bytes, bots=bots, bot_pace=bot_pace,
                    on_end=ended if self.ratings is not None else None)
        room.conns = conns
        room.max_calls = self.options.max_game_moves
        room.max_open = self.options.max_turn_moves
        with self.lock:
            self.rooms[gid] = room
            for nick in room.nicknames if seated else ():
                self.seats[(handles or {}).get(nick, nick)] = room
        return room

    def _ended(self, gid: int) -> None:
        room = self.rooms.get(gid)
        if room is not None and self.turns is not None:
            self.turns.ended(room)
        if room is not None and self.ratings is not None:
            self.ratings.ended(gid, room.game)

    def remove_room(self, room: Room) -> None:
        with self.lock:
            self.rooms.pop(room.id, None)
            self.origin.pop(room.id, None)
            if self.ratings is not None and not room.finished:
                self.ratings.removed(room.id)
            self.bots.forget(room.id)
            for nick in room.nicknames:
                h = self.handle_in(room, nick)
                if self.seats.get(h) is room:
                    del self.seats[h]
            if self.turns is not None:
                self.turns.removed(room)
            if self.clocks is not None:
                self.clocks.removed(room)

    def restore(self) -> None:
        """Bring back every unfinished saved game, its players away until they rejoin. The games
        stay in their files, read as far as their headers (and turn-based ones' clocks:
        :meth:`.turn_based.TurnBased.kept`), and are brought back a few at a time, or at once when
        someone needs one (:meth:`bring_back`, :class:`.kept_games.KeptGames`): a start with
        1,000 games stored answers at once."""
        kept: list[Any] = []
        for r in self.store.restore_all(self.config, defer=self._left_in_file, kept=kept):
            self._restored(r)
        later = [k for k in kept if not isinstance(k.header.get("turnBased"), dict)]
        if self.ratings is not None:
            self.ratings.hold(k.game_id for k in later)
        self.later.keep(later)
        if self.turns is not None:
            self.turns.bring_back = self.bring_back
            self.turns.kept([k for k in kept if isinstance(k.header.get("turnBased"), dict)])

    def _left_in_file(self, header: dict[str, Any]) -> bool:
        """Whether a game is left in its file at start (every one, but a turn-based game on a
        server without turn-based tables, which the full restore deals with)."""
        return self.turns is not None or not isinstance(header.get("turnBased"), dict)

    def bring_back(self, kept: Any) -> Room | None:
        """Replay a game left in its file at start (:class:`.store.Kept`): its room, or None (over,
        or damaged: logged)."""
        try:
            r = self.store.restore_one(kept, self.config)
        except Exception as e:   # a damaged file must not hurt the server
            log.error("cannot restore %s: %s: %s", kept.path, type(e).__name__, e)
            return None
        return self._restored(r) if r is not None else None

    def _restored(self, r: Any) -> Room | None:
        """A game replayed from its log, seated again (its people away until they come back)."""
        turn_based = isinstance(r.header.get("turnBased"), dict)
        handles = seat_handles(r.header)
        clash = [p.nickname for p in r.game.players if handles.get(p.nickname, p.nickname) in self.seats
                 and not turn_based]
        if clash or r.game_id in self.rooms:
            log.error("game %d not restored: %s already seated in another game",
                      r.game_id, ", ".join(clash) or "its id is")
            r.log.close()
            return None
        room = self.new_room(r.game_id, r.game, r.log, r.tokens, r.bots, r.bot_pace, seated=not turn_based,
                             handles=handles)
        room.chat.extend(r.chat)     # the last lines said at the table, for whoever rejoins
        if self.ratings is not None:
            self.ratings.restored(r.game_id, r.game)
        if self.turns is not None:
            self.turns.restored(room, r.header, r.turns)
        if self.clocks is not None:   # (a real-time game's: its seats given to the computer, its clock)
            self.clocks.started(room, r.turns)
        if room.turn_time is not None:   # nobody is away at a turn-based table: its clock counts
            clock = self.turns.clocks.get(room.id)
            if self.watchers is not None and clock is not None:   # watched as before the restart
                t = clock.table
                self.watchers.restored(room, t.name, t.private, t.code)
            log.debug("restored turn-based game %d (%s)", r.game_id, ", ".join(room.nicknames))
            return room
        # the turn waits for its player a while: a restart is nobody's departure, and the
        # first one back must not be handed someone else's turn (nor a half-done turn ended)
        if self.options.restart_grace > 0:
            until = time.monotonic() + self.options.restart_grace
            room.away.update(dict.fromkeys(room.humans, until))   # told to whoever comes back first
            self._call_at(until, self._restart_grace_over, room.id)
        else:
            room.mark_all_away()
        log.info("restored game %d (%s)", r.game_id, ", ".join(room.nicknames))
        return room

    def _restart_grace_over(self, game_id: int) -> None:
        """The players of a restored game who are not back yet become away (the others are told,
        and their turns are skipped from now on, as after a drop)."""
        room = self.rooms.get(game_id)
        if room is None:
            return
        room.mark_absent_away()
        if room.bots:
            self.bots.step(room)

    def start(self, players: list[Client], bots: tuple[str, ...] = (), pace: float | None = None,
                    origin: str | None = None, turn: Any = None) -> None:
        """Create the game, save its header, seat the players (and bots) and send each person
        their ``UpdateGame``.

        :raises OSError: the game's log cannot be created (nobody is seated then).
        """
        from game.bots.driver import bot_nickname
        nicks = [p.nickname or "" for p in players]
        seed = self.seeds.getrandbits(63) if self.seeds is not None else new_seed()
        seats: dict[str, str] = {}
        taken = set(self.by_nick) | set(self.seats) | set(self.later.seats) | set(nicks)
        for i, level in enumerate(bots):
            nick = bot_nickname(taken, seed + i)
            taken.add(nick)
            seats[nick] = level
        game = Game.new(self.config, nicks + list(seats), seed)
        tokens = {p.nickname or "": p.token or "" for p in players}
        gid = self.store.next_id()
        pace = pace if seats else None
        extra = self.turns.header(players, turn) if self.turns is not None else None
        glog = self.store.create(gid, self.config, game, tokens, seats, pace, extra)
        room = self.new_room(gid, game, glog, tokens, seats, pace, seated=turn is None,
                             handles={p.nickname or "": p.handle or p.nickname or "" for p in players})
        room.conns.update((p.nickname or "", p) for p in players)
        room.plain = {p.nickname or "" for p in players if not p.extensions}
        self.origin[gid] = origin if origin is not None else players[0].ip if players else ""
        size = len(game.players)
        for p in players:
            p.room = room
            said = (size, bots) if p.extensions and bots else size
            if p.announced != said:
                p.send(update_join_game(size, list(bots) if p.extensions and bots else None))
        room.start(nicks)
        if self.turns is not None and extra:
            self.turns.started(room, extra)
        if self.clocks is not None and turn is None:
            self.clocks.started(room)
        if self.ratings is not None:
            self.ratings.started(gid, game, seats, players)
        log.info("game %d started: %s", gid, ", ".join(
            n + (f" ({seats[n]} bot)" if n in seats else "") for n in game.nicknames))
        if seats:
            self.bots.step(room)

    def request(self, s: Client, action: Action) -> None:
        if s.nickname is None:
            s.send(err_nickname(P.NOT_SET))
        elif s.room is None or s.left:
            s.send(err_nickname(P.NOT_IN_GAME))
        else:
            room = s.room
            if room.submit(s.nickname, action) and (room.bots or room.stand_ins):
                self.bots.step(room)

    def rejoin(self, s: Client, nick: str, room: Room, token: str | None, by_key: bool = False) -> None:
        """``nick``'s seat in ``room`` to ``s`` again: with the seat's ``token``, or ``by_key`` (the
        key's player holds it: :meth:`.turn_based.TurnBased.seat_of` checked it)."""
        if nick in room.online or not (by_key or self.may_retake(room, nick, token)):
            self.events.event("seats refused", s.ip, "%r refused seat %r in game %d", s, nick, room.id)
            s.send(err_nickname(P.TAKEN))
            return
        s.nickname, s.room, s.token = nick, room, room.tokens.get(nick)
        s.handle = self.handle_of(s, nick)
        self.by_nick[s.handle] = s
        room.conns[nick] = s
        intro = [token_message(s.token)] if token is not None and s.token else []
        if s.extensions:
            room.plain.discard(nick)
        else:
            room.plain.add(nick)
        with room.lock:     # marked away (turns may have been skipped), or back before that (a drop
            away = not room.game.player(nick).active   # within a restart's grace: nothing skipped)
        if not room.rejoin(nick, intro):  # the room closed itself (its log failed)
            del self.by_nick[s.handle]
            if room.conns.get(nick) is s:
                del room.conns[nick]
            s.nickname = s.room = s.token = s.handle = None
            s.send(err_nickname(P.TAKEN))
            return
        # how the game got here (our extension): the log of a player who comes back, with what was
        # said at the table lately where it was said among the moves
        if s.extensions and not self._send_history(s, room, nick, away) and room.chat:
            s.push(b"".join(encode(update_chat(who, said_again(text))) for who, text, _at in room.chat))
        self.events.event("rejoins", s.ip, "%s rejoined game %d", nick, room.id)   # at will: summed up
        if self.turns is not None:
            self.turns.returned(s, room, nick)
        if room.bots:
            self.bots.step(room)   # a person is back at the table: the bots carry on

    def may_retake(self, room: Room, nick: str, token: str | None) -> bool:
        if nick in room.bots:   # a bot's seat is nobody's to take
            return False
        if token is None:
            return self.options.compat_rejoin
        expected = room.tokens.get(nick) or ""
        return bool(token) and bool(expected) and secrets.compare_digest(token.encode(), expected.encode())

    def _send_history(self, s: Client, room: Room, nick: str, away: bool = True) -> bool:
        """``UpdateHistory`` (see :mod:`game.netcode.history`): the whole game's updates as ``nick``
        saw them, the table's recent chat among them, and their turns skipped while away (none
        when they were not marked away: an absence told once is not told again). A failure is
        logged, never fatal to the rejoin (False: nothing was sent)."""
        from .history import history_lines, tell_again
        try:
            with room.lock:
                # the seat's telling is kept, so that the next rejoin replays only what is new
                key = ("telling", room.id, nick, room.compactions)   # (a compacted game is told afresh)
                kept, messages, skipped = tell_again(self.answers.get(key), room.game, nick, list(room.chat))
                self.answers.put(key, kept, kept.size)
            told = b"".join(encode(m) for m in history_lines(messages, skipped if away else []))
            s.push(told)
            return True
        except Exception:
            self.answers.discard(("telling", room.id, nick, room.compactions))
            log.exception("cannot tell %s the history of game %d", nick, room.id)
            return False

    def undo(self, s: Client, msg: ReqUndo) -> None:
        """``ReqUndo`` (our extension): take back the sender's last request of this turn; everyone
        at the table gets the game as it now is (see :meth:`Room.undo`). A client that did not
        join with a token is answered as the reference would answer an unknown type."""
        if not s.extensions:
            s.send(err_protocol(P.UNKNOWN_TYPE.format(P.REQ_UNDO)))
        elif s.nickname is None:
            s.send(err_nickname(P.NOT_SET))
        elif s.room is None or s.left:
            s.send(err_nickname(P.NOT_IN_GAME))
        else:
            room = s.room
            with self.lock:
                ours = {n for n in room.nicknames
                        if (o := room.conns.get(n)) is not None and o.room is room and o.extensions}
            room.undo(s.nickname, ours)

    def replay(self, s: Client, msg: ReqReplay) -> None:
        """``ReqReplay`` (our extension): the replay of a finished game to one of its players, as
        ``UpdateReplay {game, replay}``: the sender's own game once it is over, or a game of the
        record (``games/finished/``) by number with one of its seats' tokens."""
        if not s.extensions:
            s.send(err_protocol(P.UNKNOWN_TYPE.format(P.REQ_REPLAY)))
            return
        from game.replays import ReplayError, config_digest, replay_record
        if msg.game is None:
            room = s.room
            if s.nickname is None or room is None:
                s.send(err_nickname(P.NOT_IN_GAME if s.nickname is not None else P.NOT_SET))
                return
            with room.lock:
                if not room.game.ended:
                    s.send({"reason": P.REPLAY_NOT_FINISHED, "type": P.ERR_REPLAY})
                    return
                record = replay_record(room.game, "server", s.nickname, room.bots)
            s.send({"game": room.id, "replay": record, "type": P.UPDATE_REPLAY})
            return
        data_dir = self.store.data_dir
        path = None if data_dir is None else Path(data_dir) / "games" / "finished" / f"{msg.game}.jsonl"
        try:
            if path is None:
                raise OSError
            stat = path.stat()
            key = ("replay", msg.game, stat.st_mtime_ns, stat.st_size)
            known = self.answers.get(key)
            if known is None and _seat_of(_finished_tokens(path), msg.token) is None:
                # a guess costs one line read, never a whole game (one connection asking for
                # game after game with no token replayed a game from disk each time)
                s.send({"reason": P.REPLAY_NOT_YOURS, "type": P.ERR_REPLAY})
                return
            if known is None:   # (a finished game's log does not change: read and replayed once)
                known = self._finished_game(path.read_bytes())
                self.answers.put(key, known, stat.st_size)
        except (OSError, ValueError, ReplayError):
            s.send({"reason": P.REPLAY_NO_SUCH_GAME, "type": P.ERR_REPLAY})
            return
        tokens, record, ended, lines = known
        seat = _seat_of(tokens, msg.token)
        if seat is None:
            s.send({"reason": P.REPLAY_NOT_YOURS, "type": P.ERR_REPLAY})
            return
        if not ended:
            s.send({"reason": P.REPLAY_NOT_FINISHED, "type": P.ERR_REPLAY})
            return
        line = lines.get(seat)
        if line is None:   # (encoded once a seat: eight askers in a loop cost the loop sends only)
            record = dict(record)
            record.update(viewer=seat, configDigest=config_digest(self.config))
            line = lines[seat] = encode({"game": msg.game, "replay": record, "type": P.UPDATE_REPLAY})
        s.push(line)

    def _finished_game(self, data: bytes) -> tuple[Any, dict[str, Any], bool, dict[str, bytes]]:
        """A finished game's log as (its seats' tokens, its replay record, whether it was played
        out: a game abandoned is in the record too, and has no replay; and a place for each seat's
        ``UpdateReplay``, encoded). The requests taken back and their undos are left out of the
        record: the same game, without a turn's swaps and undos one by one (a finished game of
        1,000 undos was 2,000 calls to send and replay; issue 28, finding 1).

        :raises ValueError, ReplayError: not a game log.
        """
        from game.replays import record_from_log
        from .history import taken_back
        header = orjson.loads(data.split(b"\n", 1)[0])
        record = record_from_log(data, "server")
        tokens = header.get("tokens") if isinstance(header, dict) else None
        try:   # (what was taken back changes nothing: replayed without it)
            calls = [tuple(e) for e in record["history"]]
            drop = taken_back(calls)
            record["history"] = [e for i, e in enumerate(record["history"]) if i not in drop]
            ended = Game.replay(self.config, record["nicknames"], record["seed"],
                                [tuple(e) for e in record["history"]]).ended
        except Exception:   # a damaged log must not hurt the server
            ended = False
        return tokens, record, ended, {}


HEADER_MAX = 1 << 20
"""Bytes of a game log's first line (its header) read at most to learn its seats' tokens."""


def _finished_tokens(path: Path) -> Any:
    """The seats' tokens in a finished game's header (its first line only).

    :raises OSError: it cannot be read; :raises ValueError: its first line is not a header."""
    with open(path, "rb") as f:
        header = orjson.loads(f.readline(HEADER_MAX))
    return header.get("tokens") if isinstance(header, dict) else None


def _seat_of(tokens: Any, token: str | None) -> str | None:
    """The seat whose token ``token`` is (None: none, or no token)."""
    if not token or not isinstance(tokens, dict):
        return None
    return next((n for n, t in tokens.items() if isinstance(t, str) and t
                 and secrets.compare_digest(t.encode(), token.encode())), None)
