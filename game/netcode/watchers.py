"""The watchers of a server's tables (our extension): who watches what, and what they are sent.

A watcher is a connection that does not play (see :mod:`.watch_wire` for the wire). It watches
one table: a public one by its name, any by its invite code; a table still waiting for its
players (the watcher is told who sits) or a game under way, whose watchers are sent what every
player sees of the others and nothing more: the public ``UpdateGame`` (the same
:func:`~game.rules.views.player_view` as a player's, for nobody's seat), the game so far (the
same :func:`~.history.recent_history` as a returning player's, for nobody's seat), then each
update the room broadcasts that no single player owns (:func:`~.protocol.visible_to` for
nobody). The room hands them over once encoded (``Room.watch``), whatever the number watching.

A watcher never slows a table
    It is only ever pushed bytes already encoded; one that has more than ``watcher_output``
    bytes not yet taken by its socket when an update comes is behind: it is dropped (closed on
    the loop's next turn, never from inside the room's broadcast). Watchers per table
    (``max_watchers_per_table``), in all (``max_watchers``), and watch requests per address
    (``watch_rate`` a second, in bursts of :data:`WATCH_BURST`) are bounded; the count told to
    players is sent at most once a :meth:`Watchers.tick` (every second); the watchers' chat of a
    table is bounded as a whole (:data:`TABLE_CHAT_BURST` lines in :data:`TABLE_CHAT_WINDOW` s)
    besides each watcher's own chat limit. The game so far is built once per move, whoever asks.

No socket here: a watcher is a :class:`~.games.Client` with ``backlog`` (bytes queued for it) and
``watching`` (the :class:`Stage` it watches, or None), so tests drive it with objects of their own.
"""
from __future__ import annotations

import logging
import time
from collections import deque
from typing import Any, Callable

from . import watch_wire as W
from .event_log import EventLog
from .framing import encode
from .history import history_lines, recent_history
from .client_messages import validate_nickname
from .protocol import CHAT_TOO_FAST
from .server_messages import err_protocol
from .server_words import said
from .room import Room
from .tables import Table, code_key

log = logging.getLogger("mor.server")

WATCH_BURST = 10.0
"""Watch requests one address may send at once before it is held to ``watch_rate`` a second."""
TABLE_CHAT_BURST = 10
TABLE_CHAT_WINDOW = 10.0
"""The watchers of one table say TABLE_CHAT_BURST lines in TABLE_CHAT_WINDOW seconds at most, together."""

QUICK_NAME = "Quick game {}"
"""The name a Quick game is watched by (its number on the server): a name to ask for, which our
clients show in their own words from the ``quick`` field (the number) beside it."""


class Stage:
    """One watched table: an open table waiting for its players, then (same object) its game."""

    __slots__ = ("name", "key", "code", "private", "table", "room", "watchers", "hiding", "told",
                 "chat_times", "history", "quick")

    def __init__(self, name: str, code: str = "", private: bool = False, table: Table | None = None) -> None:
        self.name, self.key, self.code, self.private = name, name.casefold(), code, private
        self.table: Table | None = table     # while it waits for its players
        self.room: Room | None = None        # once its game started
        self.watchers: dict[Any, str] = {}   # connection -> the name its chat lines carry
        self.hiding: set[str] = set()        # players who hide the watchers' chat
        self.told = 0                        # the count of watchers its people were last told
        self.chat_times: deque[float] = deque()
        self.history: tuple[int, Any, bytes] | None = None   # (calls, last chat line, UpdateHistory lines)
        self.quick: int | None = None        # a Quick game's number (its name is QUICK_NAME's)

    def __repr__(self) -> str:
        return f"<Stage {self.name!r} {len(self.watchers)} watching>"

    @property
    def live(self) -> bool:
        """Whether there is something to watch (a table waiting, or a game not over nor closed)."""
        room = self.room
        return self.table is not None if room is None else not (room.finished or room.closed)

    def seated(self) -> dict[str, Any]:
        """``UpdateWatching`` for this table as it now is."""
        room, table = self.room, self.table
        if room is not None:
            bots = [n for n in room.nicknames if n in room.bots]
            players, count = list(room.nicknames), len(room.nicknames)
        else:
            assert table is not None
            players, count, bots = [s.nickname or "" for s in table.seats], table.count, list(table.bots)
        return W.update_watching(self.name, self.private, players, count, bots, room is not None, len(self.watchers),
                                 quick=self.quick)


class Watchers:
    """Every watcher of one server (see the module's docstring). Called under the server's lock.

    :param tables: the open tables (:class:`~.tables.TableBook`), where a waiting table is found.
    :param call_at: ``call_at(when, fn, *args)`` runs ``fn`` on the loop later (a watcher that is
        behind is closed there, never inside a room's broadcast).
    """

    def __init__(self, options: Any, tables: Any, call_at: Callable[..., None],
                 events: EventLog | None = None) -> None:
        self.options = options
        self.events = events if events is not None else EventLog(log)   # the server's: summed lines
        self.tables = tables
        self._call_at = call_at
        self.count = 0                              # watchers in all
        self._by_key: dict[str, Stage] = {}         # table name (casefolded) -> its stage (a game first)
        self._by_code: dict[str, Stage] = {}
        self._by_game: dict[int, Stage] = {}        # game id -> the stage of a game under way
        self._by_table: dict[int, Stage] = {}       # id(open table) -> its stage, while it waits
        self._asked: dict[str, tuple[float, float]] = {}   # address -> (allowance, when)
        self._changed: set[Stage] = set()           # stages whose count changed since the last tick
        # replays a turn-based game still in its file after a restart, asked for by its table's
        # name or code (the turn-based games': :meth:`.turn_based.TurnBased.wake_table`)
        self.wake: Callable[..., None] | None = None

    # ------------------------------------------------------------------ the tables' life
    def started(self, table: Table, room: Room) -> None:
        """The lobby started ``table``'s game in ``room``: it may be watched by its name (public)
        or its code from now on, and whoever watched it waiting is sent the game."""
        stage = self._by_table.pop(id(table), None) or Stage(table.name, table.code, table.private)
        stage.table, stage.room = None, room
        self._by_game[room.id] = stage
        self._by_key[stage.key] = stage
        self._by_code[stage.code] = stage
        if stage.watchers:
            room.watch = self._handing(room.id)
            seated = encode(stage.seated())
            with room.lock:
                view = encode(room.view(None))   # type: ignore[arg-type]   # nobody's seat: public
            for s in stage.watchers:
                s.push(seated + view)

    def restored(self, room: Room, name: str, private: bool, code: str) -> None:
        """A turn-based game brought back from its log (a restart): watched by its table's
        ``name`` (public) or its invite ``code``, as before the restart."""
        if not name or room.id in self._by_game:
            return
        stage = Stage(name, code, private)
        stage.room = room
        self._by_game[room.id] = stage
        self._by_key.setdefault(stage.key, stage)
        if code:
            self._by_code.setdefault(code, stage)

    def started_quick(self, room: Room) -> None:
        """A Quick game started (the waiting list's): public, it may be watched by its name,
        :data:`QUICK_NAME` and its number (its game's id plus one: "Quick game 1" is the server's
        first game), from the list of games being played."""
        number = room.id + 1        # the server counts its games from 0; players count from 1
        stage = Stage(QUICK_NAME.format(number))
        stage.room, stage.quick = room, number
        self._by_game[room.id] = stage
        self._by_key[stage.key] = stage

    def table_changed(self, table: Table) -> None:
        """Someone sat at, or left, an open table: its watchers are told who sits now."""
        stage = self._by_table.get(id(table))
        if stage is not None and stage.watchers:
            data = encode(stage.seated())
            for s in stage.watchers:
                s.push(data)

    def table_closed(self, table: Table) -> None:
        """An open table closed without a game (its last player left): its watchers are told so,
        and watch nothing any more."""
        stage = self._by_table.pop(id(table), None)
        if stage is None:
            return
        stage.table = None
        data = encode(W.update_watching(stage.name, stage.private, [], table.count, list(table.bots), False, 0,
                                        closed=True))
        for s in list(stage.watchers):
            s.push(data)
            self._detach(s)

    # ------------------------------------------------------------------ requests
    def watch(self, s: Any, msg: W.ReqWatch) -> None:
        """``ReqWatch``: watch a table (see :mod:`.watch_wire`); refused with ``ErrWatch``."""
        now = time.monotonic()
        if s.nickname is not None and not s.left:
            s.send(W.err_watch(W.PLAYING, said("watch.playing")))
            return
        if not self._may_ask(s.ip, now):
            self.events.event("watches refused", s.ip, "%r: watch refused: too many watch requests", s)
            s.send(W.err_watch(W.TOO_FAST, said("watch.too_fast")))
            return
        name = validate_nickname(msg.nickname)
        if name is None:
            s.send(W.err_watch(W.BAD, said("watch.bad_name")))
            return
        stage, problem = self._find(msg)
        if problem is not None or stage is None:
            s.send(problem or W.err_watch(W.NO_SUCH, said("watch.no_such_code")))
            return
        if s.watching is stage:
            stage.watchers[s] = name
            s.send(stage.seated())
            return
        o = self.options
        if o.max_watchers_per_table and len(stage.watchers) >= o.max_watchers_per_table:
            s.send(W.err_watch(W.FULL, said("watch.full", name=stage.name, most=o.max_watchers_per_table)))
            return
        if o.max_watchers and self.count - (s.watching is not None) >= o.max_watchers:
            self.events.event("watches refused", s.ip, "%r: watch refused: %d watchers on the server", s, self.count)
            s.send(W.err_watch(W.BUSY, said("watch.busy", most=o.max_watchers)))
            return
        if s.watching is not None:
            self.leave(s)
        self._attach(s, stage, name)

    def watch_list(self, s: Any, msg: W.ReqWatchList) -> None:
        """``ReqWatchList``: a page of the public games under way, each with its players and watchers
        (counted among the address's watch requests: a list costs a look at every game)."""
        if not self._may_ask(s.ip, time.monotonic()):
            s.send(W.err_watch(W.TOO_FAST, said("watch.too_fast")))
            return
        games = [g for g in self._by_game.values() if not g.private and g.live]
        page = [{"name": g.name, "players": list(g.room.nicknames) if g.room is not None else [],
                 "watchers": len(g.watchers), **({"quick": g.quick} if g.quick is not None else {}),
                 **({"botLevels": dict(g.room.bots)} if g.room is not None and g.room.bots else {})}
                for g in games[msg.start:msg.start + W.WATCH_LIST_PAGE]]
        s.send(W.update_watch_list(page, msg.start, len(games)))

    def hide(self, s: Any, msg: W.ReqHideWatchers) -> None:
        """``ReqHideWatchers``: a player hides (or shows again) the watchers' chat of their game."""
        stage = self._stage_of_player(s, create=True)
        if stage is None or s.nickname is None:
            s.send(W.err_watch(W.NOT_PLAYING, said("watch.not_playing")))
            return
        if msg.hide:
            stage.hiding.add(s.nickname)
        else:
            stage.hiding.discard(s.nickname)
        s.send(W.update_watchers(len(stage.watchers), msg.hide))

    def chat(self, s: Any, text: str) -> None:
        """A watcher's line: to the table's watchers (the sender's copy is its answer) and to its
        players of ours who do not hide the watchers' chat."""
        stage: Stage = s.watching
        now = time.monotonic()
        times = stage.chat_times
        while times and now - times[0] > TABLE_CHAT_WINDOW:
            times.popleft()
        if len(times) >= TABLE_CHAT_BURST:
            s.send(err_protocol(CHAT_TOO_FAST))
            return
        times.append(now)
        data = encode(W.update_watcher_chat(stage.watchers.get(s, ""), text))
        for other in stage.watchers:
            other.push(data)
        for p in self._people(stage):
            if p.nickname not in stage.hiding:
                p.push(data)

    def players_said(self, s: Any, data: bytes) -> None:
        """A player's line (``data``: its ``UpdateChat``, encoded) reaches the table's watchers too."""
        stage = self._stage_of_player(s)
        if stage is not None:
            for w in stage.watchers:
                w.push(data)

    def joined(self, s: Any) -> None:
        """A player of ours took a seat (back) at a watched game: told how many watch, and whether
        they hide the watchers' chat (as they chose before)."""
        room = s.room
        stage = self._by_game.get(room.id) if room is not None and s.extensions else None
        if stage is not None and stage.watchers:
            s.send(W.update_watchers(len(stage.watchers), s.nickname in stage.hiding))

    def leave(self, s: Any) -> None:
        """A watcher stops watching (``ReqQuit``, another ``ReqWatch``, a join, or its connection ended)."""
        if s.watching is not None:
            self._detach(s)

    def removed(self, gids: list[int]) -> None:
        """The games of ``gids`` were removed (over, or empty past their grace): their stages go
        now, not at the next tick, so that nothing holds a removed room (its watchers, if any,
        stay until they go, told nothing more, as at a tick)."""
        for gid in gids:
            stage = self._by_game.get(gid)
            if stage is not None:
                self._forget(gid, stage)

    # ------------------------------------------------------------------ every second
    def tick(self, now: float | None = None) -> None:
        """Tell the players and watchers of each table whose count changed how many watch; forget
        the games over (their watchers stay until they go, told nothing more) and the addresses
        whose allowance is whole again."""
        now = time.monotonic() if now is None else now
        changed, self._changed = self._changed, set()
        for stage in changed:
            n = len(stage.watchers)
            if n == stage.told:
                continue
            stage.told = n
            for p in self._people(stage):
                p.send(W.update_watchers(n, p.nickname in stage.hiding))
            data = encode(W.update_watchers(n))
            for w in stage.watchers:
                w.push(data)
        for gid, stage in list(self._by_game.items()):
            if not stage.live and (stage.room is None or stage.room.closed or not stage.watchers):
                self._forget(gid, stage)
        rate = self.options.watch_rate
        if rate > 0:
            whole = WATCH_BURST / rate
            self._asked = {ip: a for ip, a in self._asked.items() if now - a[1] < whole}

    # ------------------------------------------------------------------ internals
    def _may_ask(self, ip: str, now: float) -> bool:
        rate = self.options.watch_rate
        if rate <= 0:
            return True
        allowance, at = self._asked.get(ip, (WATCH_BURST, now))
        allowance = min(WATCH_BURST, allowance + (now - at) * rate)
        if allowance < 1.0:
            self._asked[ip] = (allowance, now)
            return False
        self._asked[ip] = (allowance - 1.0, now)
        return True

    def _find(self, msg: W.ReqWatch) -> tuple[Stage | None, dict[str, Any] | None]:
        """The stage a ``ReqWatch`` asks for (made for an open table the first time), or the refusal."""
        if self.wake is not None and ((msg.code is not None and code_key(msg.code) not in self._by_code)
                                      or (msg.code is None and (msg.name or "").casefold() not in self._by_key)):
            self.wake(name=msg.name, code=None if msg.code is None else code_key(msg.code))
        if msg.code is not None:
            stage = self._by_code.get(code_key(msg.code))
            table = self.tables.by_code(msg.code) if stage is None or not stage.live else None
            if table is not None:
                stage = self._stage_of_table(table)
            if stage is None or not stage.live:
                return None, W.err_watch(W.NO_SUCH, said("watch.no_such_code"))
            return stage, None
        name = msg.name or ""
        stage = self._by_key.get(name.casefold())
        if stage is None or not stage.live:
            table = self.tables.by_name(name)
            stage = self._stage_of_table(table) if table is not None else None
        if stage is None or not stage.live:
            return None, W.err_watch(W.NO_SUCH, said("watch.no_such_name", name=name[:40]))
        if stage.private:
            return None, W.err_watch(W.PRIVATE, said("watch.private", name=stage.name))
        return stage, None

    def _stage_of_table(self, table: Table) -> Stage:
        stage = self._by_table.get(id(table))
        if stage is None:
            stage = self._by_table[id(table)] = Stage(table.name, table.code, table.private, table)
        return stage

    def _stage_of_player(self, s: Any, create: bool = False) -> Stage | None:
        """The stage of the table or game where ``s`` plays (None: it plays nowhere watched)."""
        room = s.room
        if room is not None:
            return self._by_game.get(room.id)
        table = s.table
        if table is None:
            return None
        return self._stage_of_table(table) if create else self._by_table.get(id(table))

    def _people(self, stage: Stage) -> list[Any]:
        """The players of ours at the stage's table, connected."""
        room, table = stage.room, stage.table
        if room is None:
            return [p for p in (table.seats if table is not None else ()) if p.extensions]
        out = []
        for nick in room.humans:
            p = room.conns.get(nick)
            if p is not None and p.room is room and p.extensions:
                out.append(p)
        return out

    def _attach(self, s: Any, stage: Stage, name: str) -> None:
        """``s`` watches ``stage`` from now on: where it stands, and a game under way as it is."""
        stage.watchers[s] = name
        s.watching = stage
        self.count += 1
        self._changed.add(stage)
        room = stage.room
        self.events.event("watches begun", s.ip, "%r watches %r as %s", s, stage.name, name)
        if room is None:
            s.send(stage.seated())
            return
        if room.watch is None:
            room.watch = self._handing(room.id)
        with room.lock:
            view = room.view(None)   # type: ignore[arg-type]   # nobody's seat: the public view
            away = [{"player": n, "seconds": max(0.0, until - time.monotonic()), "type": "UpdatePlayerAway"}
                    for n, until in room.away.items()]
            history = self._history(stage, room)
        s.push(encode(stage.seated()) + encode(view) + b"".join(encode(m) for m in away) + history)

    def _history(self, stage: Stage, room: Room) -> bytes:
        """The game so far as every player saw it (``UpdateHistory`` lines), built once per move
        and chat line whoever asks (under the room's lock)."""
        key = (len(room.game.history), room.chat[-1] if room.chat else None, room.compactions)
        cached = stage.history
        if cached is not None and cached[:2] == key:
            return cached[2]
        try:
            messages, _ = recent_history(room.game, None, chat=list(room.chat))
            data = b"".join(encode(m) for m in history_lines(messages, []))
        except Exception:   # never fatal to the watcher: it sees the game from now on
            log.exception("cannot tell the watchers the history of game %d", room.id)
            data = b""
        stage.history = (key[0], key[1], data)
        return data

    def _handing(self, gid: int) -> Callable[[bytes], None]:
        """What the room calls with each public broadcast (by the game's id: a room holds no stage)."""
        def hand(data: bytes) -> None:
            stage = self._by_game.get(gid)
            if stage is not None:
                self._hand(stage, data)
        return hand

    def _hand(self, stage: Stage, data: bytes) -> None:
        """Push ``data`` to every watcher of ``stage``; one that is behind is dropped instead."""
        limit = self.options.watcher_output
        behind = []
        for s in stage.watchers:
            if limit and s.backlog > limit:
                behind.append(s)
            else:
                s.push(data)
        for s in behind:
            self.events.event("watchers dropped behind", s.ip, "%r is behind watching %r (%d bytes queued): dropping it",
                              s, stage.name, s.backlog)
            self._detach(s)
            self._call_at(time.monotonic(), s.abort)

    def _detach(self, s: Any) -> None:
        stage: Stage = s.watching
        s.watching = None
        if stage.watchers.pop(s, None) is None:
            return
        self.count -= 1
        self._changed.add(stage)
        if not stage.watchers and stage.room is not None:
            stage.room.watch = None

    def _forget(self, gid: int, stage: Stage) -> None:
        del self._by_game[gid]
        if self._by_key.get(stage.key) is stage:
            del self._by_key[stage.key]
        if self._by_code.get(stage.code) is stage:
            del self._by_code[stage.code]
        for s in list(stage.watchers):
            self._detach(s)
        self._changed.discard(stage)
