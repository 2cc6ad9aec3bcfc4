"""The player's settings, kept in the user's config directory (platformdirs).

A missing or broken settings file never stops the game: the defaults are used and the problem is
reported once in ``Settings.problem`` so the settings scene can say so.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson
import platformdirs

from game import i18n
from game.i18n import N_

APP = "masters-of-renaissance"

GAME_PORT = 51015
"""The port a game server listens on unless told otherwise, and the one a joiner knocks at when the
address gives none (a player's own "Server port" setting is where *they* host, not where others do)."""

BOT_PACES = {"fast": 0.3, "normal": 0.9, "slow": 1.8}
"""Seconds between two moves of the computer players in a game on this machine, by setting."""


def config_dir() -> Path:
    return Path(os.environ.get("MOR_CONFIG_DIR") or platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    return Path(os.environ.get("MOR_DATA_DIR") or platformdirs.user_data_dir(APP))


GENERIC_USERS = frozenset({"root", "user", "admin", "administrator", "guest", "pi", "ubuntu", "owner", "default",
                           "player", "test", "runner", "vagrant", "docker", "me", "home", "pc", "nobody"})
"""Account names that say nothing about the person (every fresh install would share them)."""


def drawn_nickname() -> tuple[str, int | None]:
    """A fresh install's nickname, and the number drawn for it (None: the account's name): the
    account's name when it is a person's ("alice" gives "Alice"), else "Player" (in the system's
    language) and three digits drawn from the operating system, never from the game's seeded
    random (two windows on one machine, started with the same ``MOR_SEED``, do not share one). It
    is kept once the settings are saved (by the player, or on joining or hosting a table)."""
    import getpass
    import secrets
    try:
        account = getpass.getuser()
    except Exception:            # no user name in the environment (some services, some Windows setups)
        account = ""
    account = account.split("\\")[-1].split("@")[0].strip()
    if (account and account.lower() not in GENERIC_USERS and len(account) <= 16 and account.isprintable()
            and any(ch.isalpha() for ch in account)):
        return account[:1].upper() + account[1:], None
    n = 100 + secrets.randbelow(900)
    return _player(i18n.choose(None), n), n    # a fresh install speaks the system's language (no choice saved yet)


PLAYER = N_("Player {n}")
"""A fresh install's nickname when the account's name will not do ("Giocatore 613" in Italian)."""


def _player(code: str, n: int) -> str:
    """"Player 613" in the language ``code``."""
    return (i18n.translations(code).gettext(PLAYER) if code != i18n.SOURCE else PLAYER).format(n=n)


@dataclass
class Settings:
    nickname: str = ""
    window_size: tuple[int, int] = (1280, 800)
    fullscreen: bool = False
    sound: bool = False
    confirm_end_turn: bool = True
    server_port: int = GAME_PORT
    last_address: str = ""
    bot_pace: str = "normal"
    language: str = ""
    """The language the game speaks ("it", "en": see :data:`game.i18n.LANGUAGES`); "" for the system's."""
    open_port: bool = True
    """While hosting, the router is asked to forward the game's port (:mod:`game.portmap`)."""
    problem: str | None = field(default=None, compare=False)
    drawn: int | None = field(default=None, compare=False)
    """The number of a fresh install's nickname ("Player 613"), never saved: it is said again in the
    language chosen (:meth:`speak`) until the settings are. None: a nickname chosen or saved."""

    def __post_init__(self) -> None:
        if not self.nickname:
            self.nickname, self.drawn = drawn_nickname()

    def speak(self, code: str) -> None:
        """The language ``code`` is spoken from now on (``--lang``, Settings): a nickname drawn for a
        fresh install and never saved is said in it ("Player 613" becomes "Giocatore 613")."""
        if self.drawn is not None:
            self.nickname = _player(code, self.drawn)

    @staticmethod
    def path() -> Path:
        return config_dir() / "settings.json"

    @classmethod
    def load(cls) -> "Settings":
        """The saved settings, or the defaults (with ``problem`` set) if the file is unusable."""
        s = cls()
        try:
            raw = cls.path().read_bytes()
        except FileNotFoundError:
            return s
        except OSError as e:
            s.problem = f"could not read {cls.path()}: {e}"
            return s
        try:
            data = orjson.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (orjson.JSONDecodeError, ValueError) as e:
            s.problem = f"{cls.path()} is damaged ({e}); using the defaults"
            return s
        bad = []
        for f in fields(cls):
            if f.name in ("problem", "drawn") or f.name not in data:
                continue
            value = _coerce(f.name, data[f.name], getattr(s, f.name))
            if value is None:
                bad.append(f.name)
            else:
                setattr(s, f.name, value)
                if f.name == "nickname":
                    s.drawn = None
        if bad:
            s.problem = f"ignored bad values in {cls.path()}: {', '.join(bad)}"
        return s

    def save(self) -> None:
        """Write the settings atomically; errors are reported in ``problem``, never raised."""
        data = asdict(self)
        data.pop("problem")
        data.pop("drawn")
        path = self.path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))
            os.replace(tmp, path)
            self.drawn = None            # (the nickname saved is the player's from now on)
        except OSError as e:
            self.problem = f"could not save the settings: {e}"


def _coerce(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        return value if isinstance(value, bool) else None
    if isinstance(default, int):
        if type(value) is int and (name != "server_port" or 1 <= value <= 65535):
            return value
        return None
    if isinstance(default, tuple):
        if (isinstance(value, list) and len(value) == 2 and all(type(v) is int and 320 <= v <= 8192 for v in value)):
            return (value[0], value[1])
        return None
    if isinstance(default, str):
        if name == "bot_pace":
            return value if value in BOT_PACES else None
        if name == "language":
            from game.i18n import LANGUAGES
            return value if value == "" or value in LANGUAGES else None
        return value if isinstance(value, str) and len(value) <= 200 else None
    return None
