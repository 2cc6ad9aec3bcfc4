"""Stepping through a finished game's replay, and the finished games of this machine.

A :class:`Replay` shows the table as the watching player saw it (their own hand, the others'
played leaders), and at the end, once the game is over, everything (every hand). It is pure
Python: the replay scene draws what it gives. The file it reads is :mod:`game.replays`'s record.
"""
from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from game.match import Match
from game.replays import (HOSTED, REPLAYS, Msg, ReplayError, config_digest, parse_history, read_record,
                          save_finished)
from game.rules.actions import Action
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import GameError, MalformedRequest
from game.rules.views import player_view

from game.i18n import N_, _, pgettext

from .narration import Narrator
from .view_model import ViewModel
from .words import joined, player_name

__all__ = ["PastGame", "Replay", "ReplayError", "ReplayFeed", "Step", "export_to", "keep_finished", "open_replay",
           "past_games"]


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
            raise ReplayError(_("This replay was made with other rules of the game (another configuration); "
                                "it cannot be replayed here."))
        nicknames = record.get("nicknames")
        seed = record.get("seed")
        if (not isinstance(nicknames, list) or not all(isinstance(n, str) for n in nicknames)
                or type(seed) is not int):
            raise ReplayError(_("The file is damaged: it has no players or no seed."))
        self.record = record
        self.config = config
        self.nicknames = list(nicknames)
        self.seed = seed
        try:
            self.history = parse_history(record.get("history"))
        except ReplayError as e:
            raise ReplayError(in_words(e)) from None
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
            raise ReplayError(_("The file is damaged: {why}.").format(why=e)) from None
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
                raise ReplayError(_("The file does not replay: move {i} ({kind} by {name}) is refused ({why}). "
                                    "It is damaged, or was made by another version of the rules.").format(
                    i=i, kind=kind, name=nick, why=e)) from None
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
            raise ReplayError(_("The file does not hold a finished game (it stops before the end)."))

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


class ReplayFeed(Match):
    """The match behind a replay's session: it only hands over the views the scene queues."""

    def __init__(self, nickname: str, bots: dict[str, str] | None = None) -> None:
        self.nickname = nickname
        self.bots = dict(bots or {})   # the computer players' levels: "Cosimo (hard)", as in the game
        self.out: deque[Msg] = deque()

    def send(self, request: Action) -> None:
        """A replay takes no requests."""

    def poll(self) -> list[Msg]:
        out = list(self.out)
        self.out.clear()
        return out

    def close(self) -> None:
        pass


FILE_WORDS = (N_("The file is too large to be a replay."), N_("The file is damaged: it is not JSON."),
              N_("This file is not a replay of Masters of Renaissance."), N_("This file is not a game log."),
              N_("The game log is damaged (a line is not JSON)."),
              N_("The file is damaged: it has no list of moves."),
              N_("The file is damaged: move {move} is not a move."),
              N_("The file is damaged: move {move} is not a request."))
"""What :func:`read_record` and :func:`parse_history` say of a file they cannot take (in English),
marked for the catalogue: said in the player's language (:func:`in_words`)."""


def in_words(e: ReplayError) -> str:
    """What ``e`` (raised by :mod:`game.replays`) says, in the player's language."""
    return _(e.template).format(**e.fields) if e.template in FILE_WORDS else str(e)


def open_replay(path: Path, config: GameConfig, viewer: str | None = None) -> Replay:
    """:raises ReplayError: see :class:`Replay` and :func:`read_record` (in the player's words)."""
    path = Path(path)
    if not path.exists():
        raise ReplayError(_("There is no file at {path}.").format(path=path))
    if path.is_dir():
        raise ReplayError(_("{path} is a folder, not a game file.").format(path=path))
    try:
        record = read_record(path)
    except ReplayError as e:
        raise ReplayError(in_words(e)) from None
    return Replay(record, config, viewer)


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
        kinds = {"solo": pgettext("kind of game", "Solo"), "bots": _("Against the computer"),
                 "lan": _("Hosted here"), "server": _("Online")}
        kind = kinds.get(self.kind) or pgettext("kind of game", "Game")
        return _("{kind}: {players}").format(kind=kind, players=", ".join(player_name(p, self.bots) for p in self.players))

    @property
    def result(self) -> str:
        """Who won, in words ("Cosimo (easy) won", "Ada and Bea shared the win", "Lorenzo won")."""
        winners = [player_name(w, self.bots) for w in self.winners]
        if len(winners) == 1:
            return _("{name} won").format(name=winners[0])
        if winners:
            return _("{names} shared the win").format(names=joined(winners))
        return _("Lorenzo won") if self.kind == "solo" else _("No winner")


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


def export_to(replay: Replay, folder: Path, name: str | None = None, make_folder: bool = True) -> Path:
    """Write ``replay``'s export file into ``folder``; returns its path. A file already there is
    never replaced: a second export of the same game is "…-2.json", and so on. ``make_folder``:
    create ``folder`` if it is missing (else that is an error: a folder is not made unasked).

    :raises OSError: it cannot be written (or ``folder`` is missing and may not be made).
    """
    if make_folder:
        folder.mkdir(parents=True, exist_ok=True)
    stem = name or f"replay-{'-'.join(replay.nicknames)[:40]}-{replay.seed % 100000:05d}"
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem)
    data = replay.export()
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            with open(path, "xb") as f:       # "x": never over a file already there
                f.write(data)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"too many exports of this game in {folder}")


def keep_finished(replay: Replay, data_dir: Path) -> None:
    """Keep a finished game fetched from a server among this computer's past games (in
    ``data_dir``), as a game played here is kept."""
    save_finished(replay.final, data_dir / REPLAYS, "server", replay.viewer, replay.bots)
