"""The player's key on this machine: one line in a file beside the known servers (client side).

Made the first time it is asked for (:func:`player_key`, with :func:`~.ratings_wire.make_key`),
then kept: it is who the player is on every server they play on (their rating follows it), so it
is never replaced without being asked (:func:`save_key`: a key typed or pasted on another
machine). A damaged file is not overwritten: :class:`KeyFileDamaged` says where it is. The file
is readable by its owner only.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from .ratings_wire import check_key, make_key

log = logging.getLogger("mor.key")

KEY_FILE = "player_key"
"""Its name, beside ``known_servers`` and the seat tokens in the player's data folder."""


class KeyFileDamaged(ValueError):
    """The key file holds something that is not a key (it is left as it is)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} does not hold a player key: {why}")
        self.path = path


def read_key(path: Path) -> str | None:
    """The key kept at ``path``, or None if there is none yet.

    :raises KeyFileDamaged: the file holds something else.
    :raises OSError: it cannot be read.
    """
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except FileNotFoundError:
        return None
    why = check_key(text)
    if why is not None:
        raise KeyFileDamaged(path, why)
    return text


def save_key(path: Path, key: str) -> None:
    """Keep ``key`` at ``path`` (written whole or not at all, readable by its owner only).

    :raises ValueError: not a key (the sentence says why).
    :raises OSError: it cannot be written.
    """
    why = check_key(key)
    if why is not None:
        raise ValueError(why)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (key + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def player_key(path: Path) -> str | None:
    """The player's key, made and kept at ``path`` the first time; None when the file is damaged
    or cannot be read (the player plays unrated; it is logged, and nothing is overwritten). A
    key that cannot be kept is used all the same (it is logged: it lasts until the game closes)."""
    try:
        key = read_key(path)
    except (OSError, ValueError) as e:
        log.warning("no player key: %s", e)
        return None
    if key is None:
        key = make_key()
        try:
            save_key(path, key)
        except OSError as e:
            log.warning("cannot keep the new player key in %s: %s", path, e)
    return key
