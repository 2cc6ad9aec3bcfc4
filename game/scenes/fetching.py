"""A question for a server asked off the frame loop: :class:`Fetch` runs it on a short-lived thread
and the scene takes its answer (or the ``OSError`` that came instead) in a later frame.

>>> f = Fetch("example")
>>> f.start(lambda: 42)
True
>>> f._thread.join(); f.take()
42
"""
from __future__ import annotations

import threading
from typing import Any, Callable


class Fetch:
    """One question at a time (``name``: its thread's)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._thread: threading.Thread | None = None
        self._answer: Any = None
        self._lock = threading.Lock()

    @property
    def pending(self) -> bool:
        """Whether a question is under way, or its answer not taken yet."""
        return self._thread is not None and self._thread.is_alive() or self._answer is not None

    def start(self, ask: Callable[..., Any], *args: Any) -> bool:
        """Ask ``ask(*args)`` on a thread; False (nothing asked) while the last question is under way."""
        if self._thread is not None and self._thread.is_alive():
            return False
        self._thread = threading.Thread(target=self._run, args=(ask, args), name=self.name, daemon=True)
        self._thread.start()
        return True

    def _run(self, ask: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            answer: Any = ask(*args)
        except OSError as e:
            answer = e
        with self._lock:
            self._answer = answer

    def take(self) -> Any:
        """The answer come since the last call (an ``OSError`` when it failed), or None."""
        with self._lock:
            answer, self._answer = self._answer, None
        return answer
