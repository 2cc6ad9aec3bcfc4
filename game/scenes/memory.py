"""The client's memory: caches of pictures bounded in bytes, and memory given back to the system.

Every picture the client draws once and serves again (cards, parchment, rendered words...) lives
in a :func:`surface_cache`: an LRU bounded by a budget in bytes (the pixels of the surfaces it
holds) as well as by a count, so no window size, scene or long game can grow it without bound.
:func:`clear_caches` empties them all (the window changed size: every picture is of the wrong
size now); :func:`caches` says what each holds (tests and ``bench/client_frames.py`` read it).

:func:`give_back` returns the allocator's free memory to the system when a scene hands over
(glibc keeps freed picture memory in the process otherwise: a board's worth of surfaces freed
between two scenes would stay resident). It does nothing where there is no glibc. (Fixing glibc's
mmap threshold instead made every redraw of the board 4 times slower: its large temporary
surfaces were mapped and unmapped each time.)

Most caches are a scene's: a handover, a reset, a new language or a new window size empties them,
so the title after a game holds none of its pictures. A few are *kept* (``kept=True``): textures
and glyphs that are the same in every game and every language, keyed by everything that draws them
(size included), such as the walnut, the parchment, the marbles, the icons and rendered text keyed
by its words. Those survive handovers, so going from the title to a game and back does not draw the
wood again; each still keeps to its budget, and a size no longer used ages out of it.
"""
from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any, Callable

import pygame

from game import runtime

MB = 1 << 20


def weight(value: Any) -> int:
    """The bytes of pixels in ``value`` (a surface, or a tuple/list of them; 0 for anything else)."""
    if isinstance(value, pygame.Surface):
        return value.get_width() * value.get_height() * value.get_bytesize()
    if isinstance(value, (tuple, list)):
        return sum(weight(v) for v in value)
    return 0


class SurfaceCache:
    """An LRU of ``function``'s results, bounded by ``budget`` bytes and ``maxsize`` entries.
    A result heavier than the whole budget is returned but not kept."""

    def __init__(self, function: Callable, budget: int, maxsize: int, kept: bool = False) -> None:
        self.function = function
        self.kept = kept
        self.budget = budget
        self.maxsize = maxsize
        self.nbytes = 0
        self.hits = self.misses = 0
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = (args, tuple(kwargs.items())) if kwargs else args
        data = self._data
        hit = data.get(key)
        if hit is not None:
            data.move_to_end(key)
            self.hits += 1
            return hit[0]
        self.misses += 1
        value = self.function(*args, **kwargs)
        size = weight(value)
        if size <= self.budget:
            data[key] = (value, size)
            self.nbytes += size
            while self.nbytes > self.budget or len(data) > self.maxsize:
                _k, (_v, gone) = data.popitem(last=False)
                self.nbytes -= gone
        return value

    def once(self, *args: Any, **kwargs: Any) -> Any:
        """The result drawn now and not kept (nor counted): for a picture that is drawn once into
        another picture that is kept, such as the board's window-sized table."""
        data = self._data.get((args, tuple(kwargs.items())) if kwargs else args)
        return data[0] if data is not None else self.function(*args, **kwargs)

    def __len__(self) -> int:
        return len(self._data)

    def cache_clear(self) -> None:
        self._data.clear()
        self.nbytes = 0

    def cache_info(self) -> dict[str, int]:
        return {"count": len(self._data), "bytes": self.nbytes, "budget": self.budget,
                "maxsize": self.maxsize, "hits": self.hits, "misses": self.misses}


_CACHES: dict[str, SurfaceCache] = {}


def surface_cache(budget_mb: float, maxsize: int = 1024, *, kept: bool = False
                  ) -> Callable[[Callable], SurfaceCache]:
    """Decorator: cache a function of hashable arguments that returns surfaces (or tuples of
    them) in a :class:`SurfaceCache` of ``budget_mb`` megabytes of pixels and ``maxsize`` entries.
    ``kept``: the cache survives :func:`clear_caches` (only for pictures that hold no game and no
    word that is not among their arguments: see the module's docstring)."""
    def wrap(function: Callable) -> SurfaceCache:
        cache = SurfaceCache(function, int(budget_mb * MB), maxsize, kept)
        functools.update_wrapper(cache, function)   # type: ignore[arg-type]
        _CACHES[f"{function.__module__}.{function.__qualname__}"] = cache
        return cache
    return wrap


def caches() -> dict[str, dict[str, int]]:
    """What every surface cache holds: ``{name: cache_info()}``."""
    return {name: c.cache_info() for name, c in _CACHES.items()}


def cached_bytes(kept: bool | None = None) -> int:
    """The bytes of pixels the caches hold: all of them, or only the kept (``True``) or only the
    scenes' (``False``) ones."""
    return sum(c.nbytes for c in _CACHES.values() if kept is None or c.kept == kept)


def budget_bytes(kept: bool | None = None) -> int:
    return sum(c.budget for c in _CACHES.values() if kept is None or c.kept == kept)


def clear_caches(*, kept: bool = False) -> None:
    """Empty the scenes' surface caches (the window changed size, a game was left, the words
    changed); with ``kept``, the kept ones too."""
    for c in _CACHES.values():
        if kept or not c.kept:
            c.cache_clear()


# ---------------------------------------------------------------------------- the allocator
def give_back() -> None:
    """Return the allocator's free memory to the system (after a scene handed over)."""
    runtime.give_back()
