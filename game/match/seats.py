"""The seats this install keeps at servers, in two files of its data folder: the seat tokens
(:data:`SEATS_FILE`, ``"host:port/nickname"`` -> token, which takes a seat back; the host's own
seat at the server this computer hosts under :func:`hosted_seat_key`, whatever its port) and the games
not yet over that it is seated in (:data:`UNFINISHED_FILE`, offered again by the title).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable

import orjson

from game.settings import data_dir

log = logging.getLogger("mor.match")

SEATS_FILE = "seats.json"
"""In the data folder: the seat tokens (``"host:port/nickname"`` -> token), the newest 50."""


def hosted_seat_key(nickname: str) -> str:
    """The key of the host's own seat token at the server this computer hosts: the same whatever
    port it is hosted on (a kept game hosted again on another port gives the host their seat)."""
    return f"hosted on this computer/{nickname}"


def saved_tokens(path: Path) -> dict[str, str]:
    """The seat tokens kept in ``path`` ({} when there are none, or the file cannot be read)."""
    try:
        data = orjson.loads(path.read_bytes())
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, orjson.JSONDecodeError):
        return {}


def save_token(path: Path, key: str, token: str | None) -> None:
    """Keep ``token`` for the seat ``key`` in ``path`` ("" when the seat is given up)."""
    tokens = saved_tokens(path)
    tokens[key] = token or ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(orjson.dumps(dict(list(tokens.items())[-50:])))
        os.replace(tmp, path)
    except OSError as e:
        log.info("cannot save the seat token: %s", e)


UNFINISHED_FILE = "unfinished-games.json"
"""Beside the seat tokens: the games on servers this install has a seat in and that have not ended
(``"host:port/nickname"`` -> ``{host, port, nickname, players, at}``, and ``host_name`` and
``table_name`` when the network's list of tables named them)."""


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
