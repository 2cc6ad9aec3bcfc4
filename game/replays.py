"""Replays of finished games: the export file, the games of this machine, stepping through one.

A replay is a finished game's seed and accepted calls (requests, players leaving and coming back,
undos), replayed by the engine: nothing is stored but what :mod:`game.rules.codec` stores, so a
replay is exact by construction. The file (one JSON object, a few KB) is::

    {"format": "mor-replay/1", "configDigest": "<sha256 of the rules>", "nicknames": [...],
     "seed": n, "history": [["apply", nick, {request}], ["active", nick, bool], ["undo", nick, null]],
     "kind": "solo" | "bots" | "lan" | "server", "viewer": nick | null, "finishedAt": "ISO time",
     "winners": [...], "bots": {nick: "easy" | "medium" | "hard"}}

(``bots``, the computer players' levels, may be missing: files made before it name them
"Cosimo (bot)" alone.)

Opening one checks its format, that it was made with the same rules (``configDigest``), and that
it replays to a finished game; anything else is a :class:`ReplayError` that says which.

Where the games of this machine are kept (see :func:`past_games`): solo games and games against
the computer write their replay to ``<data dir>/replays/`` when they end (their save is deleted,
as before); a LAN game hosted from the title keeps its log in the in-process server's data
directory (``<data dir>/server/games/finished/``), read as it is.

A :class:`Replay` shows the table as the watching player saw it (their own hand, the others'
played leaders), and at the end, once the game is over, everything (every hand). It is pure
Python: the replay scene draws what it gives.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from game.rules.actions import Action
from game.rules.codec import KINDS, history_entry
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import GameError, MalformedRequest
from game.rules.views import player_view

FORMAT = "mor-replay/1"
REPLAYS = "replays"
"""Folder of the data directory that holds the replays of finished local games."""
HOSTED = Path("server") / "games" / "finished"
"""Where the LAN host's in-process server keeps its finished games (under the data directory)."""
MAX_FILE = 8 * 1024 * 1024
"""Largest replay file read (a whole game is a few KB)."""

Msg = dict[str, Any]


class ReplayError(ValueError):
    """A file that is not a replay of a finished game with these rules; the message says why."""


_DIGESTS: dict[str, str] = {}


def config_digest(config: GameConfig) -> str:
    """SHA-256 of the rules (the config file's JSON, keys sorted): equal for the same rules, whatever
    the file's spacing or place."""
    key = config.path
    if key not in _DIGESTS:
        data = json.loads(Path(config.path).read_text(encoding="utf-8"))
        _DIGESTS[key] = hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()
    return _DIGESTS[key]


def replay_record(game: Game, kind: str, viewer: str | None = None, bots: dict[str, str] | None = None) -> Msg:
    """The export of a finished (or any) game: see the module docstring. ``bots``: the computer
    players' levels ({nickname: level})."""
    record = {"format": FORMAT, "configDigest": config_digest(game.config), "nicknames": list(game.nicknames),
              "seed": game.seed, "history": [history_entry(*h) for h in game.history], "kind": kind,
              "viewer": viewer, "finishedAt": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "winners": list(game.winners)}
    if bots:
        record["bots"] = dict(bots)
    return record


def save_finished(game: Game, folder: Path, kind: str, viewer: str | None,
                  bots: dict[str, str] | None = None) -> Path | None:
    """Write a finished game's replay into ``folder`` (a new file); None if it cannot be written
    (a replay is a bonus: a failure must not stop the game from ending properly)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stem = time.strftime("%Y%m%d-%H%M%S") + f"-{kind}-{game.seed % 100000:05d}"
        path = folder / f"{stem}.json"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"{stem}-{n}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(orjson.dumps(replay_record(game, kind, viewer, bots)))
        os.replace(tmp, path)
        return path
    except OSError:
        return None


# ---------------------------------------------------------------------------- reading
def _parse_history(raw: Any) -> list[tuple[str, str, Any]]:
    if not isinstance(raw, list):
        raise ReplayError("The file is damaged: it has no list of moves.")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, list) or len(entry) != 3 or entry[0] not in KINDS or not isinstance(entry[1], str):
            raise ReplayError(f"The file is damaged: move {i + 1} is not a move.")
        kind, nick, arg = entry
        try:
            out.append((kind, nick, Action.from_dict(arg) if kind == "apply" else None if kind == "undo" else bool(arg)))
        except MalformedRequest:
            raise ReplayError(f"The file is damaged: move {i + 1} is not a request.") from None
    return out


def record_from_log(data: bytes, source: str = "lan") -> Msg:
    """A replay record from a server's game log (``mor-log/1``: a header line, one call a line).

    :raises ReplayError: not a game log, or a damaged line.
    """
    lines = [x for x in data.split(b"\n") if x.strip()]
    try:
        header = orjson.loads(lines[0]) if lines else None
        entries = [orjson.loads(x) for x in lines[1:]]
    except orjson.JSONDecodeError:
        raise ReplayError("The game log is damaged (a line is not JSON).") from None
    if not isinstance(header, dict) or header.get("format") != "mor-log/1":
        raise ReplayError("This file is not a game log.")
    if entries and entries[-1] == ["end"]:
        entries.pop()
    return {"format": FORMAT, "configDigest": None, "nicknames": header.get("nicknames"),
            "seed": header.get("seed"), "history": entries, "kind": source, "viewer": None,
            "finishedAt": None, "winners": None, "bots": header.get("bots")}


def read_record(path: Path) -> Msg:
    """The replay record of a file: a replay export (``.json``) or a server's log (``.jsonl``).

    :raises ReplayError: unreadable, too large, not JSON, or not a replay.
    """
    try:
        if path.stat().st_size > MAX_FILE:
            raise ReplayError("The file is too large to be a replay.")
        data = path.read_bytes()
    except OSError as e:
        raise ReplayError(f"The file cannot be read ({e.strerror or e}).") from None
    if path.suffix == ".jsonl":
        return record_from_log(data)
    return parse_record(data)


def parse_record(data: bytes | str) -> Msg:
    """:raises ReplayError: not JSON, or not a replay file."""
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise ReplayError("The file is damaged: it is not JSON.") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ReplayError("This file is not a replay of Masters of Renaissance.")
    return record


@dataclass
class Step:
    """What one move did, for the log: its index (1 = the first move) and the line it made."""

    index: int
    line: str


class Replay:
    """A finished game, to be stepped through move by move or turn by turn.

    Step 0 is the table as dealt; step ``len(replay)`` is the end of the game. The game is replayed
    once when opened (which checks it), and again from the start when stepping back (a few
    milliseconds: the engine plays thousands of moves a second).

    :raises ReplayError: other rules, a damaged file, or a game that does not end.
    """

    def __init__(self, record: Msg, config: GameConfig, viewer: str | None = None) -> None:
        digest = record.get("configDigest")
        if digest is not None and digest != config_digest(config):
            raise ReplayError("This replay was made with other rules of the game (another configuration); "
                              "it cannot be replayed here.")
        nicknames = record.get("nicknames")
        seed = record.get("seed")
        if (not isinstance(nicknames, list) or not all(isinstance(n, str) for n in nicknames)
                or type(seed) is not int):
            raise ReplayError("The file is damaged: it has no players or no seed.")
        self.record = record
        self.config = config
        self.nicknames = list(nicknames)
        self.seed = seed
        self.history = _parse_history(record.get("history"))
        want = viewer if viewer in self.nicknames else record.get("viewer")
        self.viewer: str = want if want in self.nicknames else self.nicknames[0]
        self.kind = str(record.get("kind") or "")
        levels = record.get("bots")
        self.bots: dict[str, str] = ({n: v for n, v in levels.items() if n in self.nicknames and isinstance(v, str)}
                                     if isinstance(levels, dict) else {})
        """The computer players' levels ({nickname: level}; empty for a file that does not say)."""
        try:
            game = Game.new(config, self.nicknames, seed)
        except ValueError as e:
            raise ReplayError(f"The file is damaged: {e}.") from None
        self.lines: list[Step] = []
        self.turn_starts: list[int] = [0]
        self._check(game)
        self.final = game
        self._game: Game | None = None
        self._at = -1

    def __len__(self) -> int:
        return len(self.history)

    def _check(self, game: Game) -> None:
        """Replay everything once: the moves must be accepted and end the game; note each turn's
        first move and the log lines the watching player would have read."""
        from game.scenes.narration import Narrator       # pure Python, no pygame
        from game.scenes.view_model import ViewModel
        vm = ViewModel(self.viewer)
        narrator = Narrator(vm)
        first = player_view(game, self.viewer)
        vm.feed(first)
        narrator.take(first)
        current = (game.phase, game.current)
        for i, (kind, nick, arg) in enumerate(self.history, start=1):
            try:
                events = (game.apply(nick, arg) if kind == "apply" else game.undo(nick) if kind == "undo"
                          else game.set_active(nick, arg))
            except (GameError, KeyError, MalformedRequest) as e:
                raise ReplayError(f"The file does not replay: move {i} ({kind} by {nick}) is refused "
                                  f"({e}). It is damaged, or was made by another version of the rules.") from None
            for e in events:
                if e.get("type") in ("UpdateLeadersHand", "UpdateGame") and e.get("player") != self.viewer:
                    continue
                vm.feed(e)
                line = narrator.take(e)
                if line:
                    self.lines.append(Step(i, line))
            now = (game.phase, game.current)
            if now != current or (kind == "apply" and game.solo and type(arg).__name__ == "ReqEndTurn"):
                if i < len(self.history):
                    self.turn_starts.append(i)
                current = now
        if not game.ended:
            raise ReplayError("The file does not hold a finished game (it stops before the end).")

    # ------------------------------------------------------------------ stepping
    def game_at(self, step: int) -> Game:
        """The game after ``step`` moves (a private copy: do not change it)."""
        step = max(0, min(step, len(self)))
        if self._game is None or step < self._at:
            self._game, self._at = Game.new(self.config, self.nicknames, self.seed), 0
        g = self._game
        for kind, nick, arg in self.history[self._at:step]:
            if kind == "apply":
                g.apply(nick, arg)
            elif kind == "undo":
                g.undo(nick)
            else:
                g.set_active(nick, arg)
        self._at = step
        return g

    def view_at(self, step: int) -> Msg:
        """The ``UpdateGame`` the watching player reads at ``step``: their own view, and at the
        end of the game every player's hand too."""
        g = self.game_at(step)
        view = player_view(g, self.viewer)
        if g.ended:
            view = copy.deepcopy(view)
            for p, q in zip(view["players"], g.players):
                p["leadersHand"] = list(q.hand)
        return view

    def lines_until(self, step: int) -> list[str]:
        return [s.line for s in self.lines if s.index <= step]

    def turn_of(self, step: int) -> int:
        """The 1-based turn number that ``step`` lies in (0 for the deal)."""
        n = 0
        for start in self.turn_starts:
            if start <= step:
                n += 1
        return n - 1 if step > 0 else 0

    def next_turn(self, step: int) -> int:
        return next((s for s in self.turn_starts if s > step), len(self))

    def previous_turn(self, step: int) -> int:
        return next((s for s in reversed(self.turn_starts) if s < step), 0)

    def export(self) -> bytes:
        """The file another copy of the game opens (the digest of our rules filled in)."""
        record = dict(self.record)
        record["configDigest"] = config_digest(self.config)
        record["viewer"] = self.viewer
        record["winners"] = list(self.final.winners)
        return orjson.dumps(record)


def open_replay(path: Path, config: GameConfig, viewer: str | None = None) -> Replay:
    """:raises ReplayError: see :class:`Replay` and :func:`read_record`."""
    return Replay(read_record(Path(path)), config, viewer)


# ---------------------------------------------------------------------------- the machine's games
@dataclass
class PastGame:
    """A finished game of this machine, for the Past games page."""

    path: Path
    kind: str            # solo, bots, lan, server
    players: list[str]
    winners: list[str]
    when: float          # seconds since the epoch (the file's time)
    bots: dict[str, str] = field(default_factory=dict)   # the computer players' levels, when the file says

    @property
    def title(self) -> str:
        kinds = {"solo": "Solo", "bots": "Against the computer", "lan": "Hosted here", "server": "Online"}
        return f"{kinds.get(self.kind, 'Game')}: {', '.join(self.players)}"


def past_games(data_dir: Path, limit: int = 200) -> list[PastGame]:
    """The finished games kept on this machine, newest first: the replays of local games, and the
    finished games of the LAN host's server (logs of abandoned games left out when they are seen
    not to end; those are rare and cost a replay to tell, so only games with an end mark count)."""
    out: list[PastGame] = []
    files: list[Path] = []
    for folder, pattern in ((data_dir / REPLAYS, "*.json"), (data_dir / HOSTED, "*.jsonl")):
        try:
            files += list(folder.glob(pattern))
        except OSError:
            continue
    files.sort(key=_mtime, reverse=True)
    for path in files[:limit]:
        try:
            record = read_record(path)
        except ReplayError:
            continue
        players = record.get("nicknames")
        if not isinstance(players, list):
            continue
        winners = record.get("winners")
        levels = record.get("bots")
        out.append(PastGame(path, str(record.get("kind") or ""), [str(p) for p in players],
                            [str(w) for w in winners] if isinstance(winners, list) else [], _mtime(path),
                            {str(k): str(v) for k, v in levels.items()} if isinstance(levels, dict) else {}))
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def export_to(replay: Replay, folder: Path, name: str | None = None) -> Path:
    """Write ``replay``'s export file into ``folder``; returns its path.

    :raises OSError: it cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    stem = name or f"replay-{'-'.join(replay.nicknames)[:40]}-{replay.seed % 100000:05d}"
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem)
    path = folder / f"{stem}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(replay.export())
    os.replace(tmp, path)
    return path
