"""Persistence of games on the server: one append-only JSON-lines file per game.

Line 1 is a header ``{"format": "mor-log/1", "game": id, "config": path, "nicknames": [...],
"seed": n, "tokens": {nick: token}, "bots": {nick: level}, "botPace": seconds}`` (``bots``: the
computer players' seats, absent when there are none; ``botPace``: the pace their creator asked
for, absent when the server's default applies); every later line is one accepted call
``["apply", nick, {request}]`` / ``["active", nick, bool]`` (a bot's requests too, like any
player's), with the lines said at the table among them (``["chat", nick, text]``, not calls: a
restart gives them back to the players who rejoin), and a finished game ends with
``["end"]``. Each line is written to the OS before the request is answered, so a server killed
with ``kill -9`` loses no answered request; with ``fsync=True`` each line also reaches the disk
(safe against power loss, slower). A torn last line (a crash mid-write) is ignored on load.

The logs of games in progress are ``DIR/games/<id>.jsonl``. Once a game is over (played to its
end, or abandoned) its log is moved to ``DIR/games/finished/``, so a start reads only the games
it has to restore however many were played before; what is in ``finished/`` is kept for the
record and may be archived or deleted while the server runs.

One server at a time owns a data directory: :meth:`GameStore.lock` takes an exclusive ``flock``
on ``DIR/lock`` (released by the kernel even after ``kill -9``), so a second server started on
the same directory by mistake refuses to start instead of writing into the first one's logs.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import orjson

try:
    import fcntl
except ImportError:  # not on Unix: no locking of the data directory
    fcntl = None  # type: ignore[assignment]

from game.rules.codec import KINDS, history_entry
from game.rules.components import GameConfig, load_config
from game.rules.engine import Game
from game.rules.actions import Action

LOG_FORMAT = "mor-log/1"
_RELEASED = -2
"""``GameLog._fd`` of a log whose file is closed until its next line (:meth:`GameLog.release`)."""
CHAT = "chat"
"""The kind of a log line that keeps a line said at the table (not a call: not replayed)."""
TURNS = "turns"
"""The kind of a log line that keeps a turn-based game's clock (``["turns", "", {...}]``, not a call:
the last one is handed back at restore; see :mod:`.turn_based`)."""
FINISHED = "finished"
"""Folder of ``games/`` that holds the logs of games that are over."""
log = logging.getLogger("mor.store")


class GameLog:
    """The open log file of one game (``new``: create it; it must not exist yet)."""

    def __init__(self, path: Path, fsync: bool, new: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT | os.O_EXCL if new else 0)
        self._fd = os.open(path, flags, 0o600)
        self._size = os.fstat(self._fd).st_size   # the file up to its last whole line
        self._torn = False    # a failed write left part of a line after _size
        self._lock = threading.Lock()

    def append(self, entry: Any) -> None:
        """Write one line to the OS (and to the disk with ``fsync``) before returning.

        A write that fails part-way (a full disk) takes back what it wrote, so the file always
        ends with a whole line; if even that fails, the next append tries again first and
        refuses to write after a piece of a line (a restart cuts such a piece off anyway).

        :raises OSError: the line is not saved (e.g. the disk is full).
        """
        data = orjson.dumps(entry, option=orjson.OPT_APPEND_NEWLINE)
        with self._lock:
            if self._fd == _RELEASED:     # opened again for this line (see release)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            if self._fd < 0:
                raise OSError(errno.EBADF, f"{self.path} is closed")
            if self._torn:
                os.ftruncate(self._fd, self._size)
                self._torn = False
            try:
                rest = memoryview(data)
                while rest:   # a short write (a signal, a disk filling up): write the rest
                    rest = rest[os.write(self._fd, rest):]
                if self._fsync:
                    os.fsync(self._fd)
            except OSError:
                self._torn = True
                try:
                    os.ftruncate(self._fd, self._size)
                    self._torn = False
                except OSError:
                    pass
                raise
            self._size += len(data)

    def record(self, kind: str, nickname: str, arg: Any) -> None:
        self.append(history_entry(kind, nickname, arg))

    def rewrite(self, body: list[Any]) -> None:
        """Replace the file by its header, ``body`` (entries, in order) and its last ``turns``
        line (if any): a new file written beside it and put in its place at once (a rename), so
        a crash leaves the old file or the new one, never a mix (see :mod:`.compaction`).

        :raises OSError: it cannot be written (the old file stays as it was)."""
        with self._lock:
            data = self.path.read_bytes()
            header, _, rest = data.partition(b"\n")
            at = rest.rfind(b'["turns"')
            turns = rest[at:rest.index(b"\n", at) + 1] if at >= 0 and (at == 0 or rest[at - 1:at] == b"\n") else b""
            out = b"".join([header, b"\n", *(orjson.dumps(e, option=orjson.OPT_APPEND_NEWLINE) for e in body), turns])
            tmp = self.path.with_name(self.path.name + ".new")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                rest_ = memoryview(out)
                while rest_:
                    rest_ = rest_[os.write(fd, rest_):]
                if self._fsync:
                    os.fsync(fd)
            except OSError:
                os.close(fd)
                os.unlink(tmp)
                raise
            os.close(fd)
            os.replace(tmp, self.path)
            if self._fd >= 0:
                os.close(self._fd)
            self._fd = _RELEASED      # (the new file opened for the next line)
            self._size, self._torn = len(out), False

    def finish(self) -> None:
        """Mark the game finished (it will not be restored), close the file and move it to
        ``finished/``. A failed move is only logged: the mark alone keeps the game from being
        restored, and the next start moves the file."""
        self.append(["end"])
        self.close()
        _archive(self.path)

    def release(self) -> None:
        """Close the file until the next line is written (which opens it again): a game that waits
        for days (a turn-based one) holds no descriptor meanwhile, so 20,000 of them fit."""
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = _RELEASED

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
            self._fd = -1


@dataclass
class Restored:
    game_id: int
    game: Game
    tokens: dict[str, str]
    log: GameLog
    bots: dict[str, str] = field(default_factory=dict)
    bot_pace: float | None = None
    chat: list[tuple[str, str, int]] = field(default_factory=list)   # (who, what, after how many calls)
    header: dict[str, Any] = field(default_factory=dict)   # the log's first line, as written
    turns: Any = None     # the last ``turns`` line's state (a turn-based game's clock), if any


@dataclass(slots=True)
class Kept:
    """An unfinished game left in its file at start (see :meth:`GameStore.restore_all`'s ``defer``):
    its header and its last ``turns`` line, read without replaying it."""

    game_id: int
    path: str
    header: dict[str, Any]
    turns: Any = None


@dataclass
class GameStore:
    """The data directory: creates logs and restores unfinished games."""

    data_dir: Path | None
    fsync: bool = False
    _ids: int = field(default=0, init=False)
    _lock_fd: int = field(default=-1, init=False)

    def __post_init__(self) -> None:
        if self.data_dir is not None:
            self.data_dir = Path(self.data_dir)
            (self.data_dir / "games" / FINISHED).mkdir(parents=True, exist_ok=True)
            for folder in (self.data_dir / "games", self.data_dir / "games" / FINISHED):
                for name in os.listdir(folder):   # names only: no file is opened
                    stem, dot, ext = name.partition(".")
                    if ext == "jsonl" and stem.isdigit():
                        self._ids = max(self._ids, int(stem) + 1)

    def lock(self) -> None:
        """Take the data directory for this process (no-op without one, or off Unix).

        :raises OSError: another process holds it.
        """
        if self.data_dir is None or fcntl is None or self._lock_fd >= 0:
            return
        fd = os.open(self.data_dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OSError(errno.EBUSY, f"{self.data_dir} is in use by another server") from None
        self._lock_fd = fd

    def unlock(self) -> None:
        if self._lock_fd >= 0:
            os.close(self._lock_fd)   # closing the file releases the flock
            self._lock_fd = -1

    def next_id(self) -> int:
        """A game id no log file uses yet."""
        gid = self._ids
        while self.data_dir is not None and any(
                (self.data_dir / "games" / sub / f"{gid}.jsonl").exists() for sub in ("", FINISHED)):
            gid += 1
        self._ids = gid + 1
        return gid

    def create(self, game_id: int, config: GameConfig, game: Game, tokens: dict[str, str],
               bots: dict[str, str] | None = None, bot_pace: float | None = None,
               extra: dict[str, Any] | None = None) -> GameLog | None:
        """Start the log of a new game with its header; None when games are not saved.

        :raises OSError: the file cannot be created or written.
        """
        if self.data_dir is None:
            return None
        path = self.data_dir / "games" / f"{game_id}.jsonl"
        glog = GameLog(path, self.fsync, new=True)
        header = {"format": LOG_FORMAT, "game": game_id, "config": config.path,
                  "nicknames": list(game.nicknames), "seed": game.seed, "tokens": tokens}
        if bots:
            header["bots"] = dict(bots)
            if bot_pace is not None:
                header["botPace"] = bot_pace
        if extra:   # our extensions' keys (a turn-based table's: see .turn_based)
            header.update(extra)
        try:
            glog.append(header)
        except OSError:
            glog.close()
            try:
                path.unlink()   # no headless file for the next start to stumble on
            except OSError:
                pass
            raise
        return glog

    def restore_all(self, default: GameConfig, on_error: Callable[[Path, str], None] | None = None,
                    defer: Callable[[dict[str, Any]], bool] | None = None,
                    kept: list[Kept] | None = None) -> list[Restored]:
        """Rebuild every unfinished game of the data directory, oldest first; those whose header
        ``defer`` accepts are not replayed but handed back in ``kept`` (:meth:`restore_one` brings
        one back later: a start with 20,000 turn-based games stored answers at once).

        A file that cannot be read or replayed is logged as an error (and passed to ``on_error``)
        and skipped; it is left as it is for a human to look at. A torn last line (a crash in
        the middle of a write) is cut off and the game restored without it.
        """
        if self.data_dir is None:
            return []
        out = []
        folder = self.data_dir / "games"
        names = sorted((n for n in os.listdir(folder) if n.endswith(".jsonl") and n[:-6].isdigit()),
                       key=lambda n: (len(n), n))      # (names, not paths: 20,000 of them at a start)
        where = str(folder)
        for name in names:
            path = folder / name if defer is None else os.path.join(where, name)   # type: ignore[assignment]
            try:
                if defer is not None and kept is not None:
                    left = self._kept(path, defer)
                    if left is not None:
                        kept.append(left)
                        continue
                restored = self._restore(Path(path), default)
            except Exception as e:  # a damaged file must not stop the server
                msg = f"{type(e).__name__}: {e}"
                log.error("cannot restore %s: %s", path, msg)
                if on_error:
                    on_error(path, msg)
                continue
            if restored is not None:
                out.append(restored)
        return out

    @staticmethod
    def _kept(path: str, defer: Callable[[dict[str, Any]], bool]) -> Kept | None:
        """The game of ``path`` left in its file, if ``defer`` accepts its header (and it is not over)."""
        with open(path, "rb") as f:
            data = f.read()
        first, _, rest = data.partition(b"\n")
        header = orjson.loads(first)
        if not isinstance(header, dict) or not defer(header):
            return None
        if rest.endswith(b'["end"]\n'):     # over: the full restore archives it
            return None
        turns = None
        at = data.rfind(b'\n["turns"')
        if at >= 0:
            line = data[at + 1:data.find(b"\n", at + 1)]
            try:
                entry = orjson.loads(line)
                turns = entry[2] if isinstance(entry, list) and len(entry) == 3 else None
            except orjson.JSONDecodeError:   # a torn last line: the full restore cuts it off
                turns = None
        return Kept(int(os.path.basename(path)[:-6]), path, header, turns)

    def restore_one(self, kept: Kept, default: GameConfig) -> Restored | None:
        """Replay a game left in its file (see :meth:`restore_all`), or None if it is over.

        :raises Exception: as :meth:`_restore` (a damaged file: logged by the caller).
        """
        return self._restore(Path(kept.path), default)

    def _restore(self, path: Path, default: GameConfig) -> Restored | None:
        """The unfinished game of one log file, or None if it is over.

        :raises ValueError: the file is not a game log or a line in it is damaged.
        :raises GameError, MalformedRequest: a recorded call does not replay.
        """
        game_id = int(path.stem)
        if _ends_finished(path):   # over, but not moved yet (a failed move, or an older server)
            _archive(path)
            return None
        header, entries = _read_log(path)
        if entries and entries[-1] == ["end"]:
            _archive(path)
            return None
        config = default if header["config"] in (None, default.path) else load_config(header["config"])
        game = Game.new(config, header["nicknames"], header["seed"])
        chat: list[tuple[str, str, int]] = []
        turns = None
        for entry in entries:
            if isinstance(entry, list) and len(entry) == 3 and entry[0] == CHAT:
                if isinstance(entry[1], str) and isinstance(entry[2], str):
                    chat.append((entry[1], entry[2], len(game.history)))
                continue
            if isinstance(entry, list) and len(entry) == 3 and entry[0] == TURNS:
                turns = entry[2]
                continue
            _replay_entry(game, entry)
        glog = GameLog(path, self.fsync)
        if game.ended:   # the server died between the last call and the end mark
            glog.finish()
            return None
        tokens = header.get("tokens") or {}
        bots = header.get("bots") or {}
        if not isinstance(tokens, dict) or not isinstance(bots, dict):
            glog.close()
            raise ValueError("the header's tokens or bots are not a mapping")
        if any(k not in game.nicknames or not isinstance(v, str) for k, v in bots.items()):
            glog.close()
            raise ValueError("the header's bots are not players of the game")
        pace = header.get("botPace")
        if pace is not None and (type(pace) not in (int, float) or not 0 <= pace <= 3600):
            log.warning("game %d: the header's botPace %r is not a number of seconds; the default pace is kept",
                        game_id, pace)
            pace = None
        return Restored(game_id, game, {str(k): str(v) for k, v in tokens.items()}, glog,
                        {str(k): v for k, v in bots.items()}, None if pace is None else float(pace), chat,
                        header, turns)


def _archive(path: Path) -> None:
    """Move a finished game's log to ``finished/`` beside it (same file system: a rename)."""
    try:
        folder = path.parent / FINISHED
        folder.mkdir(exist_ok=True)
        os.replace(path, folder / path.name)
    except OSError as e:
        log.warning("cannot move the finished log %s: %s", path, e)


def _ends_finished(path: Path) -> bool:
    """Whether the file's last line is the end mark (read from its tail: no parsing)."""
    mark = b'["end"]\n'
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size < len(mark) + 1:
                return False
            f.seek(size - len(mark) - 1)
            tail = f.read()
    except OSError:
        return False
    return tail[1:] == mark and tail[:1] == b"\n"


def _read_log(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """The header and the entries of a log file; a torn last line is cut off the file.

    A line is whole when it ends with its line feed: a last line without one was cut short (a
    crash or a full disk in the middle of its write) and its request was never answered, so it
    is cut off even when what is there happens to read as JSON.

    :raises ValueError: not a game log, or a damaged line that is not the last one.
    """
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines[-1]:   # no line feed at the end: a line cut short
        log.warning("%s: cutting off a last line cut short (%d bytes)", path, len(lines[-1]))
        with open(path, "r+b") as f:
            f.truncate(len(data) - len(lines[-1]))
    lines.pop()
    if not lines:
        raise ValueError("no whole header line")
    header = orjson.loads(lines[0])
    if not isinstance(header, dict) or header.get("format") != LOG_FORMAT:
        raise ValueError("not a game log")
    if not isinstance(header.get("nicknames"), list) or type(header.get("seed")) is not int:
        raise ValueError("the header has no nicknames or seed")
    entries = []
    good = len(lines[0]) + 1
    for i, raw in enumerate(lines[1:], start=1):
        if raw.strip():
            try:
                entries.append(orjson.loads(raw))
            except orjson.JSONDecodeError:
                if any(x.strip() for x in lines[i + 1:]):
                    raise ValueError(f"line {i + 1} is damaged") from None
                log.warning("%s: dropping a torn last line", path)
                with open(path, "r+b") as f:
                    f.truncate(good)
                break
        good += len(raw) + 1
    return header, entries


def _replay_entry(game: Game, entry: Any) -> None:
    """Apply one logged call. :raises ValueError: the entry is not a call."""
    if not isinstance(entry, list) or len(entry) != 3 or entry[0] not in KINDS:
        raise ValueError(f"not a recorded call: {str(entry)[:80]}")
    kind, nick, arg = entry
    if kind == "apply":
        game.apply(nick, Action.from_dict(arg))
    elif kind == "undo":
        game.undo(nick)
    else:
        game.set_active(nick, bool(arg))
