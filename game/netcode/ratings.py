"""Who plays, by key, and how good they are: the server's ratings (sans-I/O, on the loop).

A player's key (:mod:`.ratings_wire`) comes with their ``ReqJoin`` over TLS; the server keeps
its hash (:mod:`.player_store`) and the player's rating. A rating is openskill's Weng–Lin
**Plackett–Luce** model: made for games of several players that end in a ranking (a full order,
ties allowed), which is what a game of Masters of Renaissance ends in; its update is closed-form
(no iteration, about 0.2 ms for four players), and it is openskill's recommended default. The
rating shown is the conservative one, the ordinal ``mu - 3 sigma`` rounded (0 for a new player:
it rises as the server grows sure of a player, so one lucky game does not top the leaderboard).

Which games are rated (:meth:`Ratings.started`): no bots at the table, at least two players
with keys, no key in two seats; the players with keys are rated among themselves, in the order of the game's
ranking (:func:`places`): the most points first, ties broken by the resources left in storage,
still tied sharing the place (RULES.md §11). A player who left before the end (inactive when it
ends: quit, or away past the grace) comes last, tied with the others who left. A solo game keeps
the player's best score in a solo game played to its end, won or lost (``soloBest``) instead.

Limits (each an option of :class:`~.server_options.ServerOptions`): new keys per address
(``keys_per_address`` an hour: past it the player plays unrated, told ``ErrKey LIMIT``), players
kept (``max_players``: past it ``ErrKey FULL``), leaderboards per connection
(``ratings_rate`` a second after a burst of :data:`RATINGS_BURST`: past it ``ErrRatings
TOO_FAST``).

A full disk (:class:`~.player_store.StoreFull`): a new key is not kept (``ErrKey FULL``: the
player plays unrated, nothing else changes); a game's ratings wait in memory and are written the
first second they can be (:meth:`Ratings.retry`); nobody is told a rating that is not saved.
A rated game's seats are kept when it starts, so a game that ends after a restart, or whose end
was logged just before a ``kill -9``, is rated too (:meth:`Ratings.recover`).
"""
from __future__ import annotations

import logging
import sqlite3
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Iterable

import orjson

from game.rules.engine import Game

from . import ratings_wire as W
from .framing import encode
from .player_store import FILE as PLAYERS_FILE, Change, Player, PlayerStore, StoreFull
from .server_words import said

log = logging.getLogger("mor.ratings")

RATINGS_BURST = 3
"""Leaderboards a connection may ask for at once, before ``ratings_rate`` applies."""
KEY_WINDOW = 3600.0
"""Seconds over which ``keys_per_address`` new keys are counted."""



def places(game: Game, nicknames: Iterable[str], gave_up: Iterable[str] = ()) -> dict[str, int]:
    """Each player's place at the end of ``game`` (1: the winner), among ``nicknames``: the most
    points first, then the most resources left; still tied, the same place; those who left (not
    active at the end, or in ``gave_up``: a turn-based seat given to the computer) last, tied.

    >>> from game.rules import default_config
    >>> places(Game.new(default_config(), ["a", "b"], 1), ["a", "b"])
    Traceback (most recent call last):
    ValueError: the game is not over
    """
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")

    gone = set(gave_up)

    def key(nick: str) -> tuple[int, int, int]:
        s = outcome.scores[nick]
        return (int(game.player(nick).active and nick not in gone), s.total, s.resources)
    keys = {n: key(n) for n in nicknames}
    return {n: 1 + sum(1 for other in keys.values() if other > k) for n, k in keys.items()}


def _one_key_twice(game_id: int, seats: dict[str, Player]) -> bool:
    """Whether one player (key) holds two of a game's ``seats``: such a game is never rated (the
    lobby seats a key once at a table, so nobody plays, and is rated, against themselves)."""
    if len({p.id for p in seats.values()}) == len(seats):
        return False
    log.warning("game %d: one player key holds two seats: not rated", game_id)
    return True


def rate(before: dict[str, tuple[float, float]], place: dict[str, int]) -> dict[str, tuple[float, float]]:
    """The players' ratings ``(mu, sigma)`` after a game they finished at ``place``."""
    from openskill.models import PlackettLuce
    model = _model(PlackettLuce)
    nicks = list(before)
    teams = [[model.rating(mu=before[n][0], sigma=before[n][1], name=n)] for n in nicks]
    after = model.rate(teams, ranks=[float(place[n]) for n in nicks])
    return {n: (team[0].mu, team[0].sigma) for n, team in zip(nicks, after)}


_MODELS: dict[Any, Any] = {}


def _model(kind: Any) -> Any:
    if kind not in _MODELS:
        _MODELS[kind] = kind()
    return _MODELS[kind]


class Ratings:
    """The keys and ratings of one server (see the module's docstring). Its methods run on the
    loop, under the server's lock; a client is any object with ``send``/``push``, ``ip`` and
    ``tls`` (the server's connection, or a test's)."""

    def __init__(self, store: PlayerStore, options: Any, rooms: dict[int, Any]) -> None:
        self.store = store
        self.options = options
        self.rooms = rooms                       # the server's games by id (read only): their connections
        self.of: dict[Any, Player] = {}          # connection -> its player (joined with a key)
        self.games: dict[int, dict[str, Player]] = {}   # rated (or solo) game -> its keyed seats
        self._new_keys: dict[str, deque[float]] = {}    # address -> when its recent new keys came
        self._asks: dict[Any, tuple[float, float]] = {}  # connection -> (leaderboards it may ask, when)
        self._pending: dict[int, tuple[Game, dict[str, Player]]] = {}   # games whose ratings wait for the disk
        self._top: tuple[int, bytes] | None = None     # (store version, the top's JSON) cached
        self._kept: dict[int, tuple[int, dict[str, Player]]] = {}   # unsettled games kept, until restored
        self._held: dict[int, tuple[int, dict[str, Player]]] = {}   # kept seats of games brought back later
        self.gave_up: dict[int, set[str]] = {}   # game seed -> seats given to the computer (turn-based): last

    def open(self, data_dir: Path | None) -> None:
        """Keep the players in ``data_dir``'s ``players.sqlite3`` (:mod:`.player_store`) from now
        on, once the directory is the server's, and read the rated games not settled yet (before
        the games are restored). A file that cannot be opened leaves them in memory (logged)."""
        if data_dir is None:
            return
        try:
            store = PlayerStore(Path(data_dir) / PLAYERS_FILE, self.options.max_players)
        except sqlite3.Error as e:
            log.error("cannot open the players' file in %s (ratings are kept in memory only): %s", data_dir, e)
            return
        self.store.close()
        self.store = store
        store.start_checkpoints()
        self.load()

    def _tell(self, nickname: str, game_id: int, data: bytes) -> None:
        """Hand encoded lines to ``nickname`` if they sit at game ``game_id`` with our client."""
        room = self.rooms.get(game_id)
        s = room.conns.get(nickname) if room is not None else None
        if s is not None and s.room is not None and s.room.id == game_id and s.extensions:
            s.push(data)

    # ------------------------------------------------------------------ keys
    def identify(self, s: Any, key: str, name: str = "") -> Player | None:
        """The player of ``key`` (kept the first time it is seen, as ``name``), or None: ``s`` is
        told why (``ErrKey``) and plays unrated."""
        why = W.check_key(key)
        if why is not None:
            s.send(W.err_key(W.KEY_MALFORMED, why))
            return None
        if not s.tls:
            s.send(W.err_key(W.KEY_NOT_TLS, said("key.not_tls")))
            return None
        p = self.store.find(key)
        if p is None:
            p = self._new_player(s, key, name)
            if p is None:
                return None
        self.of[s] = p
        return p

    def _new_player(self, s: Any, key: str, name: str) -> Player | None:
        limit = self.options.keys_per_address
        now = time.monotonic()
        times = self._new_keys.get(s.ip)
        if times is not None:
            while times and now - times[0] > KEY_WINDOW:
                times.popleft()
        if limit and times is not None and len(times) >= limit:
            s.send(W.err_key(W.KEY_LIMIT, said("key.limit", most=limit)))
            return None
        try:
            p = self.store.add(key, name)
        except StoreFull as e:
            if not e.full:
                log.warning("cannot keep a new player: %s", e)
            s.send(W.err_key(W.KEY_FULL, said("key.store_full") if e.full else said("key.cannot_save")))
            return None
        if limit:
            self._new_keys.setdefault(s.ip, deque()).append(now)
        return p

    def joined(self, s: Any) -> None:
        """``s`` joined (its nickname is set): its player's name is that nickname now, and it is
        told its rating (``UpdatePlayer``)."""
        p = self.of.get(s)
        if p is None or s.nickname is None:
            return
        if p.name != s.nickname:
            p.name = s.nickname
            self.store.version += 1     # the leaderboard's names
        s.send(W.update_player(p.shown, p.games, self.store.place(p), p.solo_best))

    def gone(self, s: Any) -> None:
        """The connection ``s`` is closed."""
        self.of.pop(s, None)
        self._asks.pop(s, None)

    def seated_row(self, s: Any) -> dict[str, Any]:
        """What the list of tables says of a connection seated at a table: its name, and, when it
        joined with a key, its rating and player number (two players of one name, at two tables,
        told apart: a nickname is unique at a table only)."""
        p = self.of.get(s)
        nick = s.nickname or ""
        return {"name": nick} if p is None else {"name": nick, "rating": p.shown, "player": p.id}

    def forget_addresses(self) -> None:
        """Drop the addresses whose new keys are all older than the window (the janitor's)."""
        now = time.monotonic()
        for ip in [ip for ip, t in self._new_keys.items() if not t or now - t[-1] > KEY_WINDOW]:
            del self._new_keys[ip]

    # ------------------------------------------------------------------ games
    def started(self, game_id: int, game: Game, bots: Any, players: Iterable[Any]) -> None:
        """A game started with ``players`` (connections): it is rated (no bots, two keyed players
        at least) or a solo game of a keyed player; its keyed seats are kept."""
        if bots:
            return
        seats = {s.nickname: p for s in players if (p := self.of.get(s)) is not None and s.nickname}
        if len(seats) < (1 if len(game.players) == 1 else 2):
            return
        if _one_key_twice(game_id, seats):
            return
        self.games[game_id] = seats
        try:
            self.store.seat(game_id, game.seed, seats)
        except StoreFull as e:   # rated all the same (a restart before its end would not know it)
            log.warning("game %d: cannot keep its rated seats: %s", game_id, e)

    def hold(self, game_ids: Iterable[int]) -> None:
        """Games left in their files at start (turn-based, brought back later): their kept seats wait
        for :meth:`restored`, and :meth:`recover` does not take them for games over."""
        for gid in game_ids:
            if gid in self._kept:
                self._held[gid] = self._kept.pop(gid)

    def restored(self, game_id: int, game: Game) -> None:
        """A game restored at start (or later, see :meth:`hold`): its keyed seats, as kept when it started."""
        kept = self._kept.pop(game_id, None) or self._held.pop(game_id, None)
        if kept is not None and kept[0] == game.seed:
            self.games[game_id] = kept[1]

    def load(self) -> None:
        """Read the seats of the rated games not settled yet (before the games are restored)."""
        self._kept = self.store.seats()

    def recover(self, finished_log: Callable[[int], Game | None]) -> None:
        """Rate the games that ended but were not rated (the server stopped in between): those
        kept but not restored, whose finished log ``finished_log(game)`` replays to its end."""
        for gid, (seed, seats) in self._kept.items():
            game = finished_log(gid)
            if game is None or game.seed != seed or not game.ended:
                self.store.forget_game(gid)
                continue
            log.info("game %d: rated after the restart", gid)
            self.games[gid] = seats
            self.ended(gid, game)
        self._kept = {}

    def ended(self, game_id: int, game: Game) -> None:
        """A game is over: its keyed players' ratings (or solo best) change, saved before anyone is
        told; on a full disk they wait (:meth:`retry`)."""
        seats = self.games.pop(game_id, None)
        if seats is None:
            return
        if _one_key_twice(game_id, seats):   # (kept before keys were seated once: restored, or after a restart)
            self.store.forget_game(game_id)
            return
        self._settle(game_id, game, seats)

    def _settle(self, game_id: int, game: Game, seats: dict[str, Player]) -> None:
        changes = self._changes(game, seats)
        before = {c.player.id: (c.player.shown, c.player.solo_best) for c in changes}
        try:
            self.store.settle(game_id, changes)
        except StoreFull as e:
            if game_id not in self._pending:
                log.warning("game %d: cannot save its ratings (%s): they are saved once the disk has room", game_id, e)
            self._pending[game_id] = (game, seats)
            return
        self._pending.pop(game_id, None)
        if len(game.players) == 1:
            said = [{"player": n, "soloBest": p.solo_best, "newBest": p.solo_best != before[p.id][1]}
                    for n, p in seats.items()]
        else:
            said = [{"player": n, "before": before[p.id][0], "after": p.shown} for n, p in seats.items()]
        data = encode({"ratings": said, "type": W.UPDATE_RATING_CHANGE})
        for nick in seats:
            self._tell(nick, game_id, data)
        log.info("game %d rated: %s", game_id, ", ".join(
            f"{r['player']} {r.get('before', '')}->{r.get('after', r.get('soloBest'))}" for r in said))

    def _changes(self, game: Game, seats: dict[str, Player]) -> list[Change]:
        if len(game.players) == 1:
            outcome = game.outcome()
            assert outcome is not None
            out = []
            for nick, p in seats.items():
                best = p.solo_best
                total = outcome.scores[nick].total
                best = total if best is None else max(best, total)
                out.append(Change(p, p.mu, p.sigma, rated=False, solo_best=best))
            return out
        gave_up = self.gave_up.pop(game.seed, ())
        after = rate({n: (p.mu, p.sigma) for n, p in seats.items()}, places(game, seats, gave_up))
        return [Change(p, *after[n], solo_best=p.solo_best) for n, p in seats.items()]

    def removed(self, game_id: int) -> None:
        """A game removed unfinished (abandoned): it is not rated."""
        if self.games.pop(game_id, None) is not None:
            self.store.forget_game(game_id)

    def retry(self) -> None:
        """Save the ratings that waited for the disk (the janitor's, every second)."""
        for gid, (game, seats) in list(self._pending.items()):
            self._settle(gid, game, seats)

    # ------------------------------------------------------------------ the leaderboard
    def leaderboard(self, s: Any, key: str | None) -> None:
        """``ReqRatings``: the :data:`~.ratings_wire.TOP` best players and the asker's place, at
        most ``ratings_rate`` a second per connection after a burst of :data:`RATINGS_BURST`."""
        rate_ = self.options.ratings_rate
        if rate_:
            now = time.monotonic()
            allowance, at = self._asks.get(s, (float(RATINGS_BURST), now))
            allowance = min(float(RATINGS_BURST), allowance + (now - at) * rate_)
            if allowance < 1:
                self._asks[s] = (allowance, now)
                s.send(W.err_ratings(W.RATINGS_TOO_FAST, said("ratings.too_fast")))
                return
            self._asks[s] = (allowance - 1, now)
        you = None
        p = self.of.get(s)
        if p is None and key is not None and s.tls and W.check_key(key) is None:
            p = self.store.find(key)
            if p is None:     # a key not seen yet: a new player's line (nothing is kept for asking)
                you = {"place": None, "rating": round(Player(0, "").ordinal), "games": 0, "soloBest": None}
        if p is not None:
            you = {"place": self.store.place(p), "rating": p.shown, "games": p.games, "soloBest": p.solo_best}
        top = self._top_json()
        head = b'{"top":' + top + b',"total":' + str(self.store.rated).encode()
        tail = (b',"you":' + orjson.dumps(you) if you is not None else b"") + b',"type":"' + W.UPDATE_RATINGS.encode() + b'"}\n'
        s.push(head + tail)

    def _top_json(self) -> bytes:
        version = self.store.version
        if self._top is None or self._top[0] != version:
            rows = [{"name": p.name, "rating": p.shown, "games": p.games, "player": p.id} for p in self.store.top(W.TOP)]
            self._top = (version, orjson.dumps(rows))
        return self._top[1]


def finished_game(data_dir: Path | None, config: Any) -> Callable[[int], Game | None]:
    """``finished_log(game)`` for :meth:`Ratings.recover`: the game of ``finished/<game>.jsonl``
    replayed, or None (no such log, or damaged)."""
    def read(gid: int) -> Game | None:
        from game.replays import ReplayError, record_from_log
        if data_dir is None:
            return None
        try:
            record = record_from_log((Path(data_dir) / "games" / "finished" / f"{gid}.jsonl").read_bytes(), "server")
            return Game.replay(config, record["nicknames"], record["seed"], [tuple(e) for e in record["history"]])
        except (OSError, ReplayError, ValueError, TypeError, KeyError):
            return None
        except Exception:   # a damaged log must not stop the server
            log.exception("game %d: cannot read its finished log", gid)
            return None
    return read
