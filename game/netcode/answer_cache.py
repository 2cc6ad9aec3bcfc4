"""Answers that cost a whole game to compute, kept a while for the next one who asks.

A rejoin's history replays the game from its seed (:mod:`.history`), and a finished game's
replay reads, parses and replays its log. Both are the same bytes for as long as the game does
not move, and a stranger who asks again and again (a rejoin loop, replays in flight) asked the
loop for a whole game each time (issue 28, findings 1 and 2). :class:`AnswerCache` keeps the
latest answers, least recently used out first, within a byte budget, so a repeated question
costs a lookup; a game that moved is a new key.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

ANSWER_BYTES = 16 << 20
"""The bytes of answers kept in all (a 4-player game's history is a few hundred kilobytes)."""


class AnswerCache(Generic[V]):
    """The latest answers by key, within ``max_bytes`` (each answer's size said when it is put).
    Not thread-safe: used from the server's loop only."""

    def __init__(self, max_bytes: int = ANSWER_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> V | None:
        got = self._kept.get(key)
        if got is None:
            self.misses += 1
            return None
        self._kept.move_to_end(key)
        self.hits += 1
        return got[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Keep ``value`` (of ``size`` bytes) under ``key``; one larger than the budget is not kept."""
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes:
            return
        self._kept[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _key, (_value, n) = self._kept.popitem(last=False)
            self.bytes -= n

    def discard(self, key: Hashable) -> None:
        """Forget the answer under ``key`` (one that may be half made)."""
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
