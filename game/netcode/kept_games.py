"""Real-time games left in their files at a start, brought back a few at a time.

A start replayed every unfinished game before it listened: with 1,000 real-time games stored it
answered its first request after 11 s (issue 28 asks for 2 s). Their players are all away after
a restart anyway, and come back one by one: :class:`KeptGames` holds each game's header (read
without replaying), replays a game at once when one of its players comes back (or a name that
reads as one of theirs is asked for), and meanwhile a few at a time, so that the loop serves
everyone else in between. Turn-based games have their own (:meth:`.turn_based.TurnBased.kept`).
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from .names import NickBook, handle

log = logging.getLogger("mor.server")

BATCH = 16
"""Games replayed at most in one go, between two turns of the loop for everyone else."""
SLICE = 0.004
"""Seconds of replaying at most in one go (then the loop is left to everyone else as long)."""


def seat_handles(header: Any) -> dict[str, str]:
    """A game log header's seats held by keyed players: nickname -> its :func:`.names.handle`."""
    owners = header.get("owners") if isinstance(header, dict) else None
    if not isinstance(owners, dict):
        return {}
    return {n: handle(n, pid) for n, pid in owners.items() if isinstance(n, str) and type(pid) is int}


def _held(header: Any) -> list[str]:
    """The handles a kept game's seats are held under (its nicknames, its keyed players')."""
    names = header.get("nicknames") if isinstance(header, dict) else None
    handles = seat_handles(header)
    return [handles.get(n, n) for n in (names if isinstance(names, list) else ()) if isinstance(n, str)]


class KeptGames:
    """The real-time games not replayed yet (:class:`.store.Kept`), by number and by player."""

    def __init__(self, bring_back: Callable[[Any], Any], call_at: Callable[..., None]) -> None:
        self.bring_back = bring_back       # replays one: its room, or None (over, or damaged)
        self._call_at = call_at
        self.games: dict[int, Any] = {}
        self.seats = NickBook()            # nickname -> the kept game where it has a seat
        self._waking: set[int] = set()     # the games being replayed now

    def __len__(self) -> int:
        return len(self.games)

    def keep(self, kept: list[Any]) -> None:
        """Hold these games (their players' names from their headers), and start bringing them back."""
        for k in kept:
            self.games[k.game_id] = k
            for h in _held(k.header):
                if h not in self.seats:
                    self.seats[h] = k
        if self.games:
            log.info("%d games kept in their files, brought back as their players come", len(self.games))
            self._call_at(time.monotonic(), self._some)

    def take(self, nickname: str) -> Any:
        """The room of the kept game where ``nickname`` has a seat, replayed now (None: no such)."""
        k = self.seats.get(nickname)
        return None if k is None else self.wake(k)

    def wake(self, k: Any) -> Any:
        """Replay kept game ``k`` now: its room, or None."""
        if self.games.get(k.game_id) is not k or k.game_id in self._waking:
            return None
        self._waking.add(k.game_id)
        try:
            return self.bring_back(k)
        finally:   # (forgotten once its room is there: who reads ``len`` meanwhile sees it kept)
            self._waking.discard(k.game_id)
            del self.games[k.game_id]
            for h in _held(k.header):
                if self.seats.get(h) is k:
                    del self.seats[h]

    def _some(self) -> None:
        began = time.perf_counter()
        for gid in sorted(self.games)[:BATCH]:
            self.wake(self.games[gid])
            if time.perf_counter() - began >= SLICE:
                break
        if self.games:
            spent = time.perf_counter() - began
            self._call_at(time.monotonic() + max(0.002, spent), self._some)
        else:
            log.info("every kept game is back")
