"""Replays of finished games: the record a finished game leaves, read and written.

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

This module is the record format, which the server, the matches and the client share; stepping
through a replay and listing the games of this machine is the client's (:mod:`game.client.replay`).
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import orjson

from game.rules.actions import Action
from game.rules.codec import KINDS, history_entry
from game.rules.components import GameConfig
from game.rules.engine import Game
from game.rules.errors import MalformedRequest

FORMAT = "mor-replay/1"
REPLAYS = "replays"
"""Folder of the data directory that holds the replays of finished local games."""
HOSTED = Path("server") / "games" / "finished"
"""Where the LAN host's in-process server keeps its finished games (under the data directory)."""
MAX_FILE = 8 * 1024 * 1024
"""Largest replay file read (a whole game is a few KB)."""

Msg = dict[str, Any]


class ReplayError(ValueError):
    """A file that is not a replay of a finished game with these rules; the message says why.

    ``template`` is the message before its ``fields`` are put in (``str.format``): what a front
    end looks up to say it in its player's language (:mod:`game.client.replay`)."""

    def __init__(self, template: str, **fields: Any) -> None:
        super().__init__(template.format(**fields) if fields else template)
        self.template = template
        self.fields = fields


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
def parse_history(raw: Any) -> list[tuple[str, str, Any]]:
    if not isinstance(raw, list):
        raise ReplayError("The file is damaged: it has no list of moves.")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, list) or len(entry) != 3 or entry[0] not in KINDS or not isinstance(entry[1], str):
            raise ReplayError("The file is damaged: move {move} is not a move.", move=i + 1)
        kind, nick, arg = entry
        try:
            out.append((kind, nick, Action.from_dict(arg) if kind == "apply" else None if kind == "undo" else bool(arg)))
        except MalformedRequest:
            raise ReplayError("The file is damaged: move {move} is not a request.", move=i + 1) from None
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
    # said, not played; a turn-based game's clock (``turns``), not played either
    entries = [e for e in entries if not (isinstance(e, list) and e[:1] in (["chat"], ["turns"]))]
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
