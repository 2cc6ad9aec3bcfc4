"""What ``miniupnpc``'s C code prints to the terminal (``connect: Connection refused``, ``sendto:
Network is unreachable``: its ``perror`` lines while it looks for a router or talks to one) kept
from the player: around each call, the process's standard error (file descriptor 2) goes to a
file of its own, and what was written there is then put in the game's log at debug level.

The descriptor is the whole process's: while a call runs, what any thread writes to standard
error goes to the log too (nothing is lost). One call at a time holds it (a lock), and a call
from a thread already holding it writes through (no nesting). Where descriptors cannot be moved
(no ``dup2``), the call simply runs.
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["quiet_stderr"]

log = logging.getLogger("mor.portmap")

_lock = threading.RLock()
_depth = threading.local()


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Within: file descriptor 2 written to a file of its own, then to the log (see the module)."""
    if getattr(_depth, "n", 0):
        yield
        return
    with _lock:
        _depth.n = 1
        try:
            with tempfile.TemporaryFile() as caught:
                try:
                    sys.stderr.flush()
                    saved = os.dup(2)
                except (OSError, AttributeError, ValueError):
                    yield
                    return
                try:
                    os.dup2(caught.fileno(), 2)
                    yield
                finally:
                    try:
                        sys.stderr.flush()
                    except (OSError, ValueError, AttributeError):    # (None in a windowed build)
                        pass
                    os.dup2(saved, 2)
                    os.close(saved)
                    caught.seek(0)
                    said = caught.read(8192).decode("utf-8", "replace")
                for line in said.splitlines():
                    if line.strip():
                        log.debug("miniupnpc said: %s", line.strip())
        finally:
            _depth.n = 0
