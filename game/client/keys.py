"""The player's key, for every front end (pure Python): where it is, what it means, taking another.

The key is who the player is on the servers they play on, across tables and sessions (their
rating follows it; the nickname is only a name at a table). It is made on this machine the first
time a game is played over an encrypted connection (it is sent over TLS only), and kept in the
player's data folder beside the known servers. ``mor-text key`` prints it with
:func:`key_lines`; the window's Settings take one pasted from another machine (:func:`take_key`).

>>> take_key("not a key", Path("/nonexistent/player_key"))
'A key is 48 characters: 43 letters, digits, - or _, a dot, then 4 more; copy it whole.'
"""
from __future__ import annotations

from pathlib import Path

from game.i18n import N_, _
from game.netcode.player_key import KEY_FILE, KeyFileDamaged, player_key, read_key, save_key
from game.netcode import ratings_wire
from game.netcode.ratings_wire import KEY_BODY, KEY_CHECK
from game.settings import data_dir

from .server_words import said_words

__all__ = ["KEY_FIELD_NOTE", "KEY_LENGTH", "KEY_LOST", "check_key", "current_key", "key_file", "key_lines", "shown_key", "take_key"]

KEY_LENGTH = KEY_BODY + 1 + KEY_CHECK
"""Characters of a key (:func:`check_key` says what one is)."""
KEY_LOST = N_("Losing this folder (a new computer, a reinstall) loses the key, and your rating with it. "
              "To play as yourself on another machine, copy the key there: paste it in the game's Settings "
              "(Player key), or copy the file.")
KEY_FIELD_NOTE = N_("Who you are on servers (your rating follows it). Made at your first game over an encrypted "
                    "connection; paste here the key of another machine to play as yourself.")
"""(The constants are marked for the catalogue: say them with ``_(KEY_FIELD_NOTE)``.)"""
KEY_SAVED = N_("Your key is saved: servers know you by it from your next game.")


def key_file(folder: Path | None = None) -> Path:
    """Where the key is kept: beside the known servers (``folder``: the player's data folder)."""
    return (folder if folder is not None else data_dir()) / KEY_FILE


def shown_key(path: Path | None = None) -> tuple[str | None, str | None]:
    """(the key, made now if there is none yet; or None and why in words)."""
    path = path if path is not None else key_file()
    try:
        read_key(path)
    except KeyFileDamaged as e:
        return None, _("The key file {path} is damaged: it is left as it is. Fix it or move it away (a new key is "
                       "then made), or paste your key in Settings.").format(path=e.path)
    except OSError as e:
        return None, _("Cannot read the key file {path}: {why}.").format(path=path, why=e.strerror or e)
    key = player_key(path)
    if key is None:
        return None, _("Cannot read the key file {path}.").format(path=path)
    return key, None


def current_key(path: Path | None = None) -> str:
    """The key kept here, to show (none is made for it): "" when there is none yet or it cannot
    be read (:func:`shown_key` says why)."""
    try:
        return read_key(path if path is not None else key_file()) or ""
    except (OSError, ValueError):
        return ""


def key_lines(path: Path | None = None) -> list[str]:
    """What ``mor-text key`` prints: the key, where it is kept, and how not to lose it."""
    path = path if path is not None else key_file()
    key, why = shown_key(path)
    if key is None:
        return [why or _("No key.")]
    return [key, "",
            _("This is your player key: servers know you by it (your rating follows it), your nickname is only "
              "your name at a table. It is sent over encrypted connections only, and kept in {path}.").format(
                path=path),
            _(KEY_LOST), _("Keep it to yourself: whoever has it plays as you.")]


def check_key(key: object) -> str | None:
    """Why ``key`` is not a player key, in the player's language (None: it is one)."""
    why = ratings_wire.check_key(key)
    return None if why is None else said_words(why)


def take_key(text: str, path: Path | None = None) -> str | None:
    """Keep a key typed or pasted (e.g. from another machine): None when kept, else why not in
    words (nothing changed then)."""
    key = text.strip()
    why = check_key(key)
    if why is not None:
        return why
    try:
        save_key(path if path is not None else key_file(), key)
    except OSError as e:
        return _("Could not save the key: {why}.").format(why=e.strerror or e)
    return None
