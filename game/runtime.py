"""How a process that plays the game sets up Python's cyclic garbage collector.

Every program that runs the rules engine calls :func:`settle_collector` once its start-up is
done (the config and the cards loaded; for the app, its window and pictures too): the server
(:mod:`game.netcode.cli`), the bots' worker processes (:mod:`game.bots.driver`), the app
(:mod:`game.launcher`) and the text client (:mod:`game.text.terminal`).

Why (measured, ``bench/README.md``): the engine and the bots make no cyclic garbage at all
(none in 14,723 requests of random games, none in the hard bot's decisions), so every object
the collector walks during play is walked for nothing. What start-up loaded lives as long as
the process does: :func:`gc.freeze` moves it out of every later collection, so a full
collection walks only what came after. A young generation of :data:`GEN0_THRESHOLD` objects
instead of 700 makes young collections about fourteen times rarer for about 0.1-0.2 ms each:
under both, 36 hard decisions ran no collection at all (by default: 164, one of them a full
one of 8 ms). Garbage cycles made later (by
the interface's libraries, say) are still collected as before, a little later: memory is not
changed measurably (the server's figures with and without, ``bench/README.md``).

The server also keeps freezing what its games and connections leave on the heap as it runs
(:class:`game.netcode.heap.FrozenHeap`), with a safety valve.

:func:`give_back` returns the allocator's free memory to the system (glibc keeps what was freed
resident otherwise): the app after a scene hands over, the server after a burst of connections.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from typing import Any

GEN0_THRESHOLD = 10_000
"""Net new container objects (allocated less freed) that start a young collection (Python's
default: 700)."""


def settle_collector() -> None:
    """Collect once, freeze what is left and raise the young generation's threshold; the older
    generations' thresholds stay as they are. Call it once, when start-up is over."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, older, oldest)


_libc: Any = None


def _glibc() -> Any:
    global _libc
    if _libc is None:
        _libc = False
        if sys.platform.startswith("linux"):
            try:
                lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                lib.malloc_trim   # noqa: B018  (musl has none)
                _libc = lib
            except (OSError, AttributeError):
                pass
    return _libc


def give_back() -> bool:
    """Return the allocator's free memory to the system (glibc's ``malloc_trim(0)``); False where
    there is no glibc (nothing is done)."""
    lib = _glibc()
    if lib:
        lib.malloc_trim(0)
        return True
    return False
