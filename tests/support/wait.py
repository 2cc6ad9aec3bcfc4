"""Waiting for something that happens on another thread or process: a condition polled until a
deadline, with what moves things along (a session's pump, a frame of the app) called between two
looks. A wait that runs out fails the test, saying what it waited for."""
from __future__ import annotations

import time
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def until(cond: Callable[[], T], *step: Callable[[], Any], timeout: float = 20.0, what: str = "",
          pause: float = 0.01) -> T:
    """Call every ``step``, then ``cond``, until ``cond`` gives something true (returned).

    :raises AssertionError: ``timeout`` seconds went by first (the message says ``what``).
    """
    deadline = time.monotonic() + timeout
    while True:
        for s in step:
            s()
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or 'the condition'}")
        time.sleep(pause)


def pump_until(session: Any, cond: Callable[[], T], timeout: float = 20.0, app: Any = None, what: str = "") -> T:
    """:func:`until` for a :class:`~game.client.session.GameSession`: its messages pumped between
    two looks (by a frame of ``app`` when one is given, as the window does)."""
    step = (lambda: app.frame(0.016)) if app is not None else session.pump
    return until(cond, step, timeout=timeout, what=what)


def frames_until(app: Any, cond: Callable[[], T], timeout: float = 20.0, what: str = "") -> T:
    """:func:`until` for the app: one frame between two looks."""
    return until(cond, lambda: app.frame(1 / 60), timeout=timeout, what=what)
