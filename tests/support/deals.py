"""Every game a test plays is seeded: the kit watches :func:`game.seeds.unseeded`, the one place a
deal comes from the OS, and the suite's ``seeded_deals`` fixture (tests/conftest.py) fails a test
that reached it. A process a test starts is seeded through ``MOR_SEED`` in its environment (the
kit's :class:`~support.pty.PtyProgram` asks for a seed)."""
from __future__ import annotations

import traceback

import game.seeds

UNSEEDED: list[str] = []
"""Where games were dealt from the OS since the last check (the test file and line of each)."""

_os_deal = game.seeds.unseeded


def _watched() -> int:
    here = traceback.extract_stack()[:-2]
    UNSEEDED.append(next((f"{f.filename.rsplit('/tests/', 1)[1]}:{f.lineno}" for f in reversed(here)
                          if "/tests/" in f.filename), "a thread of the game"))
    return _os_deal()


def watch() -> None:
    """From now on, record every deal from the OS in :data:`UNSEEDED` (once, at the start of the run)."""
    game.seeds.unseeded = _watched


def take() -> list[str]:
    """The deals from the OS recorded since the last call (and forget them)."""
    dealt, UNSEEDED[:] = list(UNSEEDED), []
    return dealt
