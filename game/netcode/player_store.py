"""The players a server knows by their key, and their ratings: kept in SQLite (WAL), read from memory.

A player is known by the SHA-256 of their key (:func:`key_hash`), never by the key itself: a copy
of the file (a backup, a stolen disk) gives nobody a key to play as anyone. A key is 256 random
bits, so a fast hash is enough (nothing to guess from it; no salt or slow hash needed, and none
would stall the loop).

Every row is loaded at start into :class:`PlayerStore` (a dict by hash and the leaderboard's sorted
list), so nothing on the loop ever reads the file; the loop only writes, in small transactions:
one row when a key is first seen (:meth:`PlayerStore.add`), the seats of a rated game when it
starts (:meth:`PlayerStore.seat`), and, when it ends, every player's new rating with the game's
seats removed, in one transaction (:meth:`PlayerStore.settle`). ``synchronous=NORMAL`` in WAL
mode: a commit reaches the OS before it returns, so ``kill -9`` loses nothing committed (a power
cut may lose the last commits; the game logs' ``--fsync`` is the same choice), and syncs nothing:
about 0.05 ms at the median (``bench/ratings_store.py``). The write-ahead log is copied into the
file on a thread of its own (:meth:`PlayerStore.start_checkpoints`), since a checkpoint syncs the
disk. A write that fails
(a full disk: ``sqlite3.OperationalError``) raises :class:`StoreFull` and changes nothing, in the
file or in memory: the caller keeps what it wanted to write and tries again.

Rows are bounded (``max_rows``, 0: no bound): past it a new key is refused (:class:`StoreFull` with
``full=True``), and players who never finished a rated game nor a solo game and were not seen
for :data:`IDLE_DAYS` days are removed at start.
"""
from __future__ import annotations

import bisect
import hashlib
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

log = logging.getLogger("mor.players")

FILE = "players.sqlite3"
"""The file in the server's data directory."""
CHECKPOINT_INTERVAL = 30.0
"""Seconds between two checkpoints of the write-ahead log (see :meth:`PlayerStore.start_checkpoints`)."""
IDLE_DAYS = 90
"""Days after which a player with no rated game and no solo best is forgotten (at start)."""

MU = 25.0
SIGMA = MU / 3
"""A new player's rating (openskill's defaults: see :mod:`.ratings`)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    key_hash BLOB NOT NULL UNIQUE,
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    solo_best INTEGER,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rated_seats (
    game INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    nick TEXT NOT NULL,
    player INTEGER NOT NULL,
    PRIMARY KEY (game, nick)
);
"""


def key_hash(key: str) -> bytes:
    """What the server keeps of a key (see the module's docstring)."""
    return hashlib.sha256(key.encode()).digest()


class StoreFull(OSError):
    """Nothing was written: the disk is full (or the file cannot be written), or ``full``: the
    store holds ``max_rows`` players already."""

    def __init__(self, msg: str, full: bool = False) -> None:
        super().__init__(msg)
        self.full = full


@dataclass(eq=False, slots=True)
class Player:
    """One player known by key: their rating (``mu``, ``sigma``), rated games, best solo score."""

    id: int
    name: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    solo_best: int | None = None

    @property
    def ordinal(self) -> float:
        """The conservative rating: mu - 3 sigma (openskill's ordinal), 0 for a new player."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as players read it: the ordinal rounded."""
        return round(self.ordinal)


@dataclass(frozen=True, slots=True)
class Change:
    """A player's new rating after a game (written by :meth:`PlayerStore.settle`)."""

    player: Player
    mu: float
    sigma: float
    rated: bool = True          # one more rated game (else a solo best)
    solo_best: int | None = None


class PlayerStore:
    """The players of one server (see the module's docstring). ``path`` None: in memory only."""

    def __init__(self, path: Path | None, max_rows: int = 100_000) -> None:
        self.path = path
        self.max_rows = max_rows
        self.by_hash: dict[bytes, Player] = {}
        self.by_id: dict[int, Player] = {}
        self._board: list[tuple[float, int]] = []   # (-ordinal, id) of players with a rated game, best first
        self.version = 0     # changes with the leaderboard (what a cache of it checks)
        self._stop = threading.Event()
        self._checkpoints: threading.Thread | None = None
        self._db = sqlite3.connect(str(path) if path is not None else ":memory:", isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")   # checkpoints run on a thread of their own
        self._db.executescript(_SCHEMA)
        self._forget_idle()
        for pid, h, name, mu, sigma, games, best in self._db.execute(
                "SELECT id, key_hash, name, mu, sigma, games, solo_best FROM players"):
            p = Player(pid, name, mu, sigma, games, best)
            self.by_hash[bytes(h)] = p
            self.by_id[pid] = p
            if games:
                self._board.append((-p.ordinal, pid))
        self._board.sort()

    def start_checkpoints(self, interval: float = CHECKPOINT_INTERVAL) -> None:
        """Copy the write-ahead log into the file every ``interval`` seconds, on a thread of its
        own with its own connection (a checkpoint syncs the disk: tens of milliseconds that the
        loop's commits never wait for). Ended by :meth:`close`."""
        if self.path is None or self._checkpoints is not None:
            return
        path, stop = str(self.path), self._stop

        def run() -> None:
            db = sqlite3.connect(path, isolation_level=None)
            try:
                while not stop.wait(interval):
                    try:
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    except sqlite3.Error as e:   # a full disk: the next one tries again
                        log.warning("cannot checkpoint the players' file: %s", e)
            finally:
                db.close()
        self._checkpoints = threading.Thread(target=run, name="players-checkpoint", daemon=True)
        self._checkpoints.start()

    def close(self) -> None:
        """Stop the checkpoints and close the file (the last checkpoint is SQLite's, at close)."""
        self._stop.set()
        if self._checkpoints is not None:
            self._checkpoints.join()
            self._checkpoints = None
        self._db.close()

    def __len__(self) -> int:
        return len(self.by_id)

    # ------------------------------------------------------------------ players
    def find(self, key: str) -> Player | None:
        return self.by_hash.get(key_hash(key))

    def add(self, key: str, name: str) -> Player:
        """Keep a new key (its hash) with a new player's rating.

        :raises StoreFull: past ``max_rows`` (``full``), or the row cannot be written.
        """
        if self.max_rows and len(self.by_id) >= self.max_rows:
            raise StoreFull("the server keeps no more players", full=True)
        h = key_hash(key)
        try:
            cur = self._db.execute("INSERT INTO players (key_hash, name, mu, sigma, seen) VALUES (?, ?, ?, ?, ?)",
                                   (h, name, MU, SIGMA, time.time()))
        except sqlite3.Error as e:
            raise StoreFull(str(e)) from None
        p = Player(int(cur.lastrowid or 0), name)
        self.by_hash[h] = p
        self.by_id[p.id] = p
        return p

    def _forget_idle(self) -> None:
        try:
            self._db.execute("DELETE FROM players WHERE games = 0 AND solo_best IS NULL AND seen < ? AND id NOT IN "
                             "(SELECT player FROM rated_seats)", (time.time() - IDLE_DAYS * 86400,))
        except sqlite3.Error as e:    # a full disk: they are forgotten at a later start
            log.warning("cannot forget idle players: %s", e)

    # ------------------------------------------------------------------ rated games
    def seat(self, game: int, seed: int, seats: dict[str, Player]) -> None:
        """Keep who sits where in a rated game (a restart rates it when it ends).

        :raises StoreFull: not written.
        """
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR REPLACE INTO rated_seats VALUES (?, ?, ?, ?)",
                                     [(game, seed, nick, p.id) for nick, p in seats.items()])
        except sqlite3.Error as e:
            raise StoreFull(str(e)) from None

    def seats(self) -> dict[int, tuple[int, dict[str, Player]]]:
        """The rated games not settled yet: game -> (seed, {nickname: player})."""
        out: dict[int, tuple[int, dict[str, Player]]] = {}
        for game, seed, nick, pid in self._db.execute("SELECT game, seed, nick, player FROM rated_seats"):
            p = self.by_id.get(pid)
            if p is not None:
                out.setdefault(game, (seed, {}))[1][nick] = p
        return out

    def settle(self, game: int | None, changes: Iterable[Change]) -> None:
        """Write the players' new ratings and forget the game's seats, in one transaction; then
        (only then) change them in memory.

        :raises StoreFull: nothing written, nothing changed.
        """
        changes = list(changes)
        now = time.time()
        try:
            with self._db:
                self._db.execute("BEGIN")
                for c in changes:
                    p = c.player
                    self._db.execute("UPDATE players SET mu = ?, sigma = ?, games = ?, solo_best = ?, name = ?, "
                                     "seen = ? WHERE id = ?",
                                     (c.mu, c.sigma, p.games + c.rated, c.solo_best, p.name, now, p.id))
                if game is not None:
                    self._db.execute("DELETE FROM rated_seats WHERE game = ?", (game,))
        except sqlite3.Error as e:
            raise StoreFull(str(e)) from None
        for c in changes:
            p = c.player
            if p.games:
                self._unboard(p)
            p.mu, p.sigma, p.solo_best = c.mu, c.sigma, c.solo_best
            p.games += c.rated
            if p.games:
                bisect.insort(self._board, (-p.ordinal, p.id))
        self.version += 1

    def forget_game(self, game: int) -> None:
        """A rated game that will never be settled (abandoned): its seats are dropped (best effort)."""
        try:
            self._db.execute("DELETE FROM rated_seats WHERE game = ?", (game,))
        except sqlite3.Error as e:
            log.warning("cannot forget the seats of game %d: %s", game, e)

    def _unboard(self, p: Player) -> None:
        at = bisect.bisect_left(self._board, (-p.ordinal, p.id))
        if at < len(self._board) and self._board[at][1] == p.id:
            del self._board[at]

    # ------------------------------------------------------------------ the leaderboard
    def top(self, n: int) -> list[Player]:
        """The ``n`` best rated players, best first."""
        return [self.by_id[pid] for _, pid in self._board[:n]]

    def place(self, p: Player) -> int | None:
        """``p``'s place on the leaderboard (1: the best), or None before their first rated game."""
        if not p.games:
            return None
        return bisect.bisect_left(self._board, (-p.ordinal, p.id)) + 1

    @property
    def rated(self) -> int:
        """How many players have a rated game."""
        return len(self._board)
