"""Where a new game's seed comes from when nobody chose one: the ``MOR_SEED`` environment variable
if it is set (tests, bug reports: the same deal every time), otherwise the operating system.

Every game this machine starts without a seed of its own (a solo game, a game against the
computer, a game on a server started without ``--seed``) asks :func:`new_seed`, so one variable
fixes the deal of any front end, in this process and in the processes it starts.
"""
from __future__ import annotations

import os
import secrets

ENV = "MOR_SEED"


class BadSeed(ValueError):
    """``MOR_SEED`` is set to something that is not a whole number."""


def new_seed() -> int:
    """``MOR_SEED`` as a number if it is set, otherwise 63 random bits from the OS.

    :raises BadSeed: ``MOR_SEED`` is set but is not a whole number.
    """
    text = os.environ.get(ENV)
    if text is None or not text.strip():
        return unseeded()
    try:
        return int(text)
    except ValueError:
        raise BadSeed(f"{ENV} must be a whole number (the seed of every new game), not {text!r}") from None


def unseeded() -> int:
    """63 random bits from the OS: a deal nobody can play again (the tests' kit watches this)."""
    return secrets.randbits(63)
