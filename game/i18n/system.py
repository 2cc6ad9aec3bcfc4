"""The language of the player's system: the one the game speaks unless told otherwise.

On Linux and other Unix systems it is the first of ``LANGUAGE`` (a list, "it:en"), ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` that is set, as GNU gettext reads them. On Windows and macOS a program
started from the desktop has none of them: there it is the user's language for menus and windows.
"""
from __future__ import annotations

import os
import subprocess
import sys

__all__ = ["system_language"]

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def system_language() -> str | None:
    """The system's language as a locale name ("it_IT.UTF-8", "it", "en_GB"), None when unknown."""
    for var in ENVIRONMENT:
        value = os.environ.get(var, "").split(":")[0].strip()
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value
    if sys.platform == "win32":
        return _windows_language()
    if sys.platform == "darwin":
        return _mac_language()
    return None


def _windows_language() -> str | None:
    try:
        import ctypes
        import locale
        lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
        return locale.windows_locale.get(lcid)
    except (AttributeError, OSError, ImportError):
        return None


def _mac_language() -> str | None:
    try:
        done = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True, text=True,
                              timeout=2)
    except (OSError, subprocess.SubprocessError):
        return None
    # a property list: ( "it-IT", "en-GB" )
    first = done.stdout.strip().strip("()").split(",")[0].strip().strip('"')
    return first or None
